import Testing
@testable import AdHocSim

/// The hand-checkable mesh of the mesh tests: a field without shadowing or fading and plain
/// Wi-Fi at 20 MHz with one stream (no AWDL waits). At 30 m a peer arrives at −61.2 dBm
/// (16.02 − 47.63 − 29.54), above the −65 dBm discovery threshold; at 60 m at −67.2 dBm, below it.
enum MeshScenarioText {
    /// The scenario with `nodes` (id, x, y at 1.2 m), the `mesh` section and `events`.
    static func scenario(
        _ nodes: [(String, Double, Double)], mesh: String = "{}", events: String = "[]",
        duration: Double = 40, seed: UInt64
    ) throws -> Scenario {
        let list = nodes.map { "{\"id\": \"\($0.0)\", \"position\": [\($0.1), \($0.2), 1.2]}" }.joined(separator: ", ")
        let text = """
            {"name": "mesh", "seed": \(seed), "duration_s": \(duration), "environment": {"preset": "field", "shadowingSigmaDb": 0, "fadingK": null},
             "radio": {"technology": "wifi", "channelWidthMHz": 20, "spatialStreams": 1}, "mesh": \(mesh),
             "nodes": [\(list)], "events": \(events)}
            """
        return try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "mesh")
    }
}

import Testing
@testable import AdHocSim

/// The hand-checkable mesh of the mesh tests: a field without shadowing or fading and plain
/// Wi-Fi at 20 MHz with one stream (no AWDL waits). At 30 m a peer arrives at −61.2 dBm
/// (16.02 − 47.63 − 29.54), above the −65 dBm discovery threshold; at 60 m at −67.2 dBm, below it.
enum MeshScenarioText {
    /// The scenario with `nodes` (id, x, y at 1.2 m), the `mesh` section and `events`.
    static func scenario(
        _ nodes: [(String, Double, Double)], mesh: JSON = [:], events: JSON = [], duration: Double = 40, seed: UInt64
    ) throws -> Scenario {
        var s = TestScenario(
            name: "mesh", seed: Int(seed), duration: duration,
            environment: ["preset": "field", "shadowingSigmaDb": 0, "fadingK": nil],
            radio: ["technology": "wifi", "channelWidthMHz": 20, "spatialStreams": 1])
        s["mesh"] = mesh
        for (id, x, y) in nodes { s.place(id, x, y) }
        s["events"] = events
        return try s.decoded()
    }
}

extension MeshScenarioText {
    /// The same scenario with its `mesh` section and `events` given as JSON text (bad inputs
    /// under test, and the suites still written that way).
    static func scenario(
        _ nodes: [(String, Double, Double)], mesh: String, events: String = "[]", duration: Double = 40, seed: UInt64
    ) throws -> Scenario {
        try scenario(nodes, mesh: .raw(mesh), events: .raw(events), duration: duration, seed: seed)
    }
}

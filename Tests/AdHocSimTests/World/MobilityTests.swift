import Foundation
import Testing
@testable import AdHocSim

@Suite("Mobility and node events")
struct MobilityTests {
    func scenario(
        _ bNode: String, events: String = "[]", duration: Double = 10, extra: [String] = []
    ) throws -> Scenario {
        var t = TestScenario(
            name: "mob", seed: 3, duration: duration,
            environment: [
                "preset": "custom", "pathLossExponent": 2, "referenceLossDb": 47.6, "shadowingSigmaDb": 0,
                "noiseFigureDb": 7, "interferenceDb": 0
            ],
            radio: ["technology": "wifi", "channelWidthMHz": 20, "spatialStreams": 1])
        t["nodes"] = [["id": "A", "position": [0, 0, 1.2]], .raw(bNode)]
        t["traffic"] = [["kind": "broadcast", "intervalS": 1, "bytes": 200, "nodes": ["B"]]]
        t["events"] = .raw(events)
        return try t.decoded(overrides: extra)
    }

    @Test func waypointsInterpolateLinearly() throws {
        let s = try scenario(
            "{\"id\": \"B\", \"position\": [0, 0, 1.2], \"mobility\": {\"waypoints\": [[0, 0, 0, 1.2], [10, 100, 0, 1.2]]}}"
        )
        let table = NodeTable(s)
        expectEqual(table.position(of: 1, at: .milliseconds(2500)), Position(x: 25, y: 0, z: 1.2))
        expectEqual(table.position(of: 1, at: .seconds(20)), Position(x: 100, y: 0, z: 1.2))
        expectEqual(table.mobile, [false, true])
    }

    @Test func aNodeWalkingAwayIsNoLongerHeard() throws {
        let stay = try ScenarioRunner.run(try scenario("{\"id\": \"B\", \"position\": [10, 0, 1.2]}"))
        expectEqual(stay.link[0].received, 10)
        // B leaves between 5 and 6 s for 50 km away (sampled every 100 ms): A hears the
        // broadcasts B sent before about 5.1 s, five or six of them, and nothing later.
        let away = try ScenarioRunner.run(
            try scenario(
                "{\"id\": \"B\", \"position\": [10, 0, 1.2], \"mobility\": {\"waypoints\": [[0, 10, 0, 1.2], [5, 10, 0, 1.2], [6, 50000, 0, 1.2]]}}"
            ))
        expect(away.link[0].received >= 5 && away.link[0].received <= 6)
    }

    @Test func aFailedNodeIsSilentUntilItRecovers() throws {
        // B broadcasts once a second at a phase p in [0, 1): p, 1+p, 2+p before the failure at 3 s,
        // 6+p … 9+p after recovering at 6 s: seven broadcasts heard, three refused while down.
        let s = try scenario(
            "{\"id\": \"B\", \"position\": [10, 0, 1.2]}",
            events:
                "[{\"at_s\": 3, \"node\": \"B\", \"action\": \"fail\"}, {\"at_s\": 6, \"node\": \"B\", \"action\": \"recover\"}]"
        )
        let r = try ScenarioRunner.run(s)
        expectEqual(r.link[0].received, 7)
        expectEqual(r.link[1].queueDrops, 3)
    }

    @Test func aMoveEventTeleports() throws {
        let s = try scenario(
            "{\"id\": \"B\", \"position\": [10, 0, 1.2]}",
            events: "[{\"at_s\": 3, \"node\": \"B\", \"action\": \"move\", \"position\": [90000, 0, 1.2]}]")
        let r = try ScenarioRunner.run(s)
        expectEqual(r.link[0].received, 3)  // p, 1+p, 2+p
    }

    @Test func randomWaypointStaysInItsAreaAndIsSeeded() throws {
        let b =
            "{\"id\": \"B\", \"position\": [0, 0, 1.2], \"mobility\": {\"model\": \"random-waypoint\", \"speedMps\": [1, 2], \"pauseS\": [0, 5], \"area\": [[-50, -20], [50, 20]]}}"
        let one = NodeTable(try scenario(b)), two = NodeTable(try scenario(b))
        for t in stride(from: 0, through: 10_000, by: 250) {
            let p = one.position(of: 1, at: .milliseconds(t))
            expectEqual(p, two.position(of: 1, at: .milliseconds(t)))
            expect(p.x >= -50 && p.x <= 50 && p.y >= -20 && p.y <= 20)
        }
        let other = NodeTable(try scenario(b, extra: ["seed=4"]))
        expect(other.position(of: 1, at: .seconds(8)) != one.position(of: 1, at: .seconds(8)))
    }

    @Test func badMobilityAndEventsAreClearErrors() {
        func problems(_ b: String, _ events: String = "[]") -> [Diagnostic] {
            do { _ = try scenario(b, events: events); return [] } catch let e as ScenarioError {
                return e.diagnostics
            } catch { return [] }
        }
        let order = problems(
            "{\"id\": \"B\", \"position\": [0, 0, 1.2], \"mobility\": {\"waypoints\": [[0, 0, 0, 1.2], [10, 5, 0, 1.2], [4, 9, 0, 1.2]]}}"
        )
        expect(order.count == 1 && order[0].path == "nodes[1].mobility.waypoints[2][0]")
        expectEqual(order.first?.message, "waypoints out of time order: t = 4 s follows t = 10 s (times must increase)")
        let unknown = problems(
            "{\"id\": \"B\", \"position\": [0, 0, 1.2]}", "[{\"at_s\": 1, \"node\": \"Z\", \"action\": \"fail\"}]")
        expect(
            unknown.count == 1 && unknown[0].path == "events[0].node"
                && unknown[0].message == "no node has the id \"Z\"")
        let early = problems(
            "{\"id\": \"B\", \"position\": [0, 0, 1.2]}", "[{\"at_s\": -1, \"node\": \"B\", \"action\": \"fail\"}]")
        expect(early.count == 1 && early[0].path == "events[0].at_s")
    }

    /// A node moves along waypoints or by the random-waypoint model, never both: the model's
    /// keys beside waypoints are bad input (they were ignored before), each at its own path.
    @Test func waypointsTakeNoRandomWaypointKeys() {
        var t = TestScenario(name: "x", seed: 1, duration: 5, radio: ["technology": "awdl"])
        t.place("a", 0, 0, ["mobility": ["waypoints": [[0, 0, 0, 1.2]], "speedMps": [1, 2], "area": [[0, 0], [5, 5]]]])
        let found = diagnostics(t.text)
        expectEqual(found.map(\.path).sorted(), ["nodes[0].mobility.area", "nodes[0].mobility.speedMps"])
        expect(found.allSatisfy { $0.message.contains("does not go with \"waypoints\"") })
    }
}

import Testing
@testable import AdHocSim

/// Messages longer than one frame (MAdHoc's picture messages, seed 002): split into 1 200-byte
/// fragments that follow the same source route, reassembled at the destination, answered by
/// one route return.
struct LargeMessageTests {
    static let line = [("A", 0.0, 0.0), ("B", 30.0, 0.0), ("C", 60.0, 0.0), ("D", 90.0, 0.0), ("E", 120.0, 0.0)]

    @Test func aOneMegabyteMessageCrossesFourHopsInFragmentsAndArrivesOnce() throws {
        let s = try MeshScenarioText.scenario(
            Self.line,
            mesh: [
                "messages": [
                    ["id": "picture", "from": "A", "to": "E", "size_bytes": 1_000_000, "count": 1, "interval_s": 1, "start_s": 2]
                ]
            ], duration: 30, seed: 2)
        let m = try require(try ScenarioRunner.run(s).mesh)
        let w = m.workloads[0]
        expect(w.delivered == 1 && w.confirmed == 1)
        expectEqual(w.meanHops, 4)
        // 1 000 000 bytes = 833 fragments of 1 200 and one of 400: 834 frames per attempt. On
        // a 5-node route a frame is 32 + 8 · 5 bytes of header and route, the 8-byte fragment
        // header and the session's 37-byte DTLS record: 833 · 1 317 + 517 = 1 097 578 bytes per
        // attempt from A.
        expectEqual(m.nodes[0].messageFrames, 834 * UInt64(w.attempts))
        expectEqual(m.nodes[0].messageBytes, 1_097_578 * UInt64(w.attempts))
        // E answers with route returns only (32 + 8 · 5 + 37 = 109 bytes each), one per
        // completed attempt at most.
        expect(m.nodes[4].messageFrames >= 1 && m.nodes[4].messageFrames <= UInt64(w.attempts))
        expectEqual(m.nodes[4].messageBytes, 109 * m.nodes[4].messageFrames)
    }

    /// Two phones 10 m apart in the field (no radio given) whose mesh sends this one workload.
    static func twoPhones(message: JSON) -> String {
        var t = TestScenario(name: "x", seed: 1, duration: 10, radio: nil)
        t.place("A", 0, 0)
        t.place("B", 10, 0)
        t["mesh"] = ["messages": [message]]
        return t.text
    }

    @Test func messageSizesAreBoundedAndCheckedInput() throws {
        func text(_ size: Int) -> String {
            Self.twoPhones(message: ["id": "m", "from": "A", "to": "B", "size_bytes": .integer(size), "count": 1, "interval_s": 1])
        }
        expect(diagnostics(text(5_000_000)).isEmpty)
        let d = diagnostics(text(67_108_865))
        expectEqual(d.first?.path, "mesh.messages[0].size_bytes")
        expect(d.first?.message.contains("1...67108864") == true)
    }

    @Test func fragmentSizesFollowTheFrameLimit() {
        expectEqual(MeshConfig.fragmentCount(size: 1200), 1)
        expectEqual(MeshConfig.fragmentCount(size: 1201), 2)
        expectEqual(MeshConfig.fragmentBytes(0, size: 1201), 1200)
        expectEqual(MeshConfig.fragmentBytes(1, size: 1201), 1)
        expectEqual(MeshConfig.fragmentBytes(0, size: 700), 700)
        // The largest frame: a 21-node route, the fragment header and a full payload fit
        // AWDL's 1 484-byte MTU.
        let config = MeshConfig()
        expect(config.messageBytes(pathLength: 21, payload: 1200 + MeshConfig.fragmentHeaderBytes) <= 1484)
    }
}

/// Group messages (`"to"` a list; seed 002: "a user can create a group of users to message"):
/// one workload per recipient, each message sent along that recipient's own route.
struct GroupMessageTests {
    @Test func aGroupMessageReachesEveryRecipientByItsOwnRoute() throws {
        // A, B, C on a line 30 m apart and D 30 m north of B. A hears B at 30 m (−61.2 dBm)
        // and D at 42.4 m (16.02 − 47.63 − 32.55 = −64.2 dBm), both above the −65 dBm
        // discovery threshold; C at 60 m (−67.2 dBm) is reached through B.
        let s = try MeshScenarioText.scenario(
            [("A", 0, 0), ("B", 30, 0), ("C", 60, 0), ("D", 30, 30)],
            mesh: [
                "messages": [
                    [
                        "id": "family", "from": "A", "to": ["B", "C", "D"], "size_bytes": 300, "count": 10, "interval_s": 1,
                        "start_s": 5,
                    ]
                ]
            ], duration: 30, seed: 3)
        expectEqual(s.mesh?.messages.map(\.id), ["family/B", "family/C", "family/D"])
        expect(s.mesh?.messages.allSatisfy { $0.group == "family" } == true)
        let m = try require(try ScenarioRunner.run(s).mesh)
        expectEqual(m.workloads.map(\.delivered), [10, 10, 10])
        expectEqual(m.workloads.map(\.meanHops), [1, 2, 1])
    }

    @Test func aGroupIsCheckedInput() throws {
        func errors(_ to: String) -> [Diagnostic] {
            diagnostics(
                LargeMessageTests.twoPhones(message: ["id": "g", "from": "A", "to": .raw(to), "size_bytes": 10, "count": 1, "interval_s": 1]))
        }
        expect(errors("[\"B\"]").isEmpty)
        expectEqual(errors("[]").first?.message, "a group needs at least one recipient")
        expectEqual(errors("[\"B\", \"B\"]").first?.path, "mesh.messages[0].to[1]")
        expectEqual(errors("[\"A\", \"B\"]").first?.message, "the sender cannot be in its own group")
        expectEqual(errors("[\"Q\"]").first?.message, "no node has the id \"Q\"")
    }
}

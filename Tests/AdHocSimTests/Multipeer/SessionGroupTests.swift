import Testing

@testable import AdHocSim

/// Multipeer sessions as groups (`mesh.sessionLayout: "group"`, `SessionGroups`): an invitation
/// brings a phone into the inviter's session, whose members it then connects to; a session holds
/// at most `maxPeers` phones (8, Apple's `kMCSessionMaximumNumberOfPeers`). `MeshScenarioText`'s
/// plain Wi-Fi field: phones a few metres apart hear each other far above the −65 dBm discovery
/// threshold. Phones other than the inviter only advertise (they stop browsing at time zero,
/// before their first query is due at 20–120 ms), so every invitation is the inviter's.
struct SessionGroupTests {
    func run(
        advertisers: Int, mesh: JSON = [:], duration: Double = 20
    ) throws -> (metrics: MeshMetrics, peers: [[Int]]) {
        var nodes: [(String, Double, Double)] = [("A", 0, 0)]
        var events: [JSON] = []
        for k in 0..<advertisers {
            nodes.append(("P\(k)", Double(k % 3) * 3 + 3, Double(k / 3) * 3))
            events.append(["at_s": 0, "node": .string("P\(k)"), "action": "stopBrowsing"])
        }
        let s = try MeshScenarioText.scenario(nodes, mesh: mesh, events: .array(events), duration: duration, seed: 4)
        let (w, end) = MeshMessageTests().run(s, until: nil)
        let mesh = try require(w.layers.mesh)
        return (MeshMetrics(mesh, end: end), (0...advertisers).map { mesh.peers[$0] })
    }

    func events(_ m: MeshMetrics, _ kind: MultipeerEvent.Kind) -> [(Int32, Int32)] {
        (m.multipeerEvents ?? []).filter { $0.kind == kind }.map { ($0.node, $0.peer) }
    }

    @Test func threePhonesInvitedIntoOneSessionAreAllConnectedToEachOther() throws {
        let (m, peers) = try run(advertisers: 3)
        // A invited each of the three; each newcomer connected to the members before it: one
        // session of four, every member a peer of every other.
        expectEqual(peers, [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]])
        expectEqual(m.largestSession, 4)
        // Three invitations, all A's; the three other pairs connected without one.
        let invites = events(m, .invite)
        expectEqual(invites.map(\.0), [0, 0, 0])
        expectEqual(events(m, .connected).count, 2 * 6)
        // The same phones with one session per pair: the advertisers meet only A.
        let (_, pairs) = try run(advertisers: 3, mesh: ["sessionLayout": "pairwise"])
        expectEqual(pairs, [[1, 2, 3], [0], [0], [0]])
    }

    @Test func aNinthPhoneIsRefusedByAFullSession() throws {
        // One session per phone: A's session fills at 8 members (A and seven), so the eighth
        // advertiser is never invited, and the seven are all connected to each other.
        let (m, peers) = try run(advertisers: 8, mesh: ["sessionsPerPhone": 1])
        expectEqual(peers[0].count, 7)
        expectEqual(m.largestSession, 8)
        let alone = (1...8).filter { peers[$0].isEmpty }
        expectEqual(alone.count, 1)
        for i in 1...8 where !alone.contains(i) {
            expectEqual(peers[i], (0...8).filter { $0 != i && !alone.contains($0) })
        }
        expectEqual(events(m, .invite).count, 7)
    }

    @Test func aSecondSessionTakesThePhonesTheFirstCannot() throws {
        // Two sessions per phone (the default): A's first holds seven others, its second the
        // eighth advertiser, who is in a session with A only.
        let (m, peers) = try run(advertisers: 8)
        expectEqual(peers[0].count, 8)
        expectEqual(m.largestSession, 8)
        let second = try require((1...8).first { peers[$0] == [0] })
        for i in 1...8 where i != second {
            expectEqual(peers[i], (0...8).filter { $0 != i && $0 != second })
        }
    }

    @Test func twoSessionsThatFitInOneBecomeOne() throws {
        // A–B and C–D form apart (500 m); at 10 s C and D come within 5 m of A and B. With one
        // session per phone, A and C can meet only by C taking A's invitation with its own
        // session (or the other way round): the two become one of four, all connected.
        let nodes = [("A", 0.0, 0.0), ("B", 5, 0), ("C", 500, 0), ("D", 505, 0)]
        var events: [JSON] = []
        for n in ["B", "D"] { events.append(["at_s": 0, "node": .string(n), "action": "stopBrowsing"]) }
        for (n, x) in [("C", 0.0), ("D", 5.0)] {
            events.append(["at_s": 10, "node": .string(n), "action": "move", "position": [.number(x), 5, 1.2]])
        }
        let s = try MeshScenarioText.scenario(
            nodes, mesh: ["sessionsPerPhone": 1], events: .array(events), duration: 40, seed: 4)
        let (w, end) = MeshMessageTests().run(s, until: nil)
        let mesh = try require(w.layers.mesh)
        let before = MeshMessageTests().run(s, until: .seconds(10)).0.layers.mesh!
        expectEqual((0..<4).map { before.peers[$0] }, [[1], [0], [3], [2]])
        expectEqual((0..<4).map { mesh.peers[$0] }, [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]])
        expectEqual(MeshMetrics(mesh, end: end).largestSession, 4)
    }

    @Test func theLayoutIsCheckedInput() throws {
        var t = TestScenario(name: "x", seed: 1, duration: 10, radio: nil)
        t.place("A", 0, 0)
        t["mesh"] = ["sessionLayout": "mesh"]
        let d = t.problems
        expectEqual(d.map(\.path), ["mesh.sessionLayout"])
        expect(d.first?.message.contains("\"group\", \"pairwise\"") == true)
    }
}

import Foundation
import Testing
@testable import AdHocSim

/// Source-routed messages, route returns, retries, sessions losing peers, repair and
/// establishment times, keys and golden snapshots (7).
@Suite("Mesh: messages, repair and keys")
struct MeshMessageTests {
    func scenario(
        _ nodes: [(String, Double, Double)], mesh: JSON, events: JSON = [], duration: Double = 40
    ) throws -> Scenario {
        try MeshScenarioText.scenario(nodes, mesh: mesh, events: events, duration: duration, seed: 3)
    }

    static let line = [("A", 0.0, 0.0), ("B", 30, 0), ("C", 60, 0), ("D", 90, 0)]
    static let diamond = [("A", 0.0, 0.0), ("B1", 30, 10), ("B2", 30, -10), ("C", 60, 0)]

    func run(_ s: Scenario, until t: SimTime? = nil) -> (World<WirelessLink>, SimTime) {
        var sim = Simulation(seed: s.seed)
        var w = World<WirelessLink>(s, sim: &sim)
        _ = sim.run(&w, until: t ?? s.duration)
        return (w, sim.now)
    }

    @Test func messagesFollowTheSourceRouteAndComeBackAsRouteReturns() throws {
        let s = try scenario(
            Self.line,
            mesh: [
                // One unicast per hop (the path-broadcast default is counted on `line5` below).
                "forwarding": "next-hop",
                "messages": [
                    [
                        "id": "chat", "from": "A", "to": "D", "size_bytes": 200, "count": 10, "interval_s": 1,
                        "start_s": 12
                    ]
                ]
            ], duration: 30)
        let (w, end) = run(s)
        let m = MeshMetrics(w.layers.mesh!, end: end)
        let chat = m.workloads[0]
        expect(chat.created == 10 && chat.delivered == 10 && chat.confirmed == 10)
        expectEqual(chat.attempts, 10)
        expectEqual(chat.meanHops, 3)
        expect(w.layers.mesh!.ledger.records[0].allSatisfy { $0.hops == 3 })
        // Per message: A sends it, B and C forward it and the return, D sends the return.
        // Frame bytes: 32 + 8·4 + 37 + 200 = 301 for the message, 32 + 8·4 + 37 = 101 for the
        // return (37: the session's DTLS record, `SessionConfig.dtlsRecordBytes`).
        expectEqual(m.nodes.map(\.messageFrames), [10, 20, 20, 10])
        // Typed apart: as an untyped literal inside `#expect` this took the type checker 5 s.
        let bytes: [UInt64] = [3010, 3010 + 1010, 3010 + 1010, 1010]
        expectEqual(m.nodes.map(\.messageBytes), bytes)
        // The route return leaves the destination after the message arrived.
        for r in w.layers.mesh!.ledger.records[0] { expect(r.confirmed! > r.delivered!) }
        expect(chat.confirmRtt.count == 10 && chat.confirmRtt.mean > 0)
    }

    static let line5 = [("A", 0.0, 0.0), ("B", 30, 0), ("C", 60, 0), ("D", 90, 0), ("E", 120, 0)]

    /// MAdHoc's delivery as its design writes it (seed 002: "Message is broadcasted to all
    /// peers, only peers in the given path further propagate the message"), counted by hand on
    /// a line of 5 whose sessions are the neighbours 30 m apart (60 m is below the discovery
    /// threshold, `MeshScenarioText`): A {B}, B {A, C}, C {B, D}, D {C, E}, E {D}.
    @Test(arguments: [false, true]) func pathBroadcastSendsEachHopToEverySessionPeer(reliable: Bool) throws {
        func metrics(_ forwarding: String) throws -> MeshMetrics {
            let s = try scenario(
                Self.line5,
                mesh: [
                    "forwarding": .string(forwarding),
                    "messages": [
                        [
                            "id": "chat", "from": "A", "to": "E", "size_bytes": 200, "count": 10, "interval_s": 1,
                            "start_s": 12, "reliable": .bool(reliable)
                        ]
                    ]
                ], duration: 30)
            let (w, end) = run(s)
            expectEqual(w.layers.mesh!.peers, [[1], [0, 2], [1, 3], [2, 4], [3]])
            return MeshMetrics(w.layers.mesh!, end: end)
        }
        let broadcast = try metrics("path-broadcast")
        let chat = broadcast.workloads[0]
        expect(chat.created == 10 && chat.delivered == 10 && chat.confirmed == 10 && chat.attempts == 10)
        // A message A → E costs the senders' session peers at each hop: A 1, B 2, C 2, D 2
        // (7 frames); its return E → A: E 1, D 2, C 2, B 2 (7). Per node, per message: A sends
        // 1, B, C and D 2 + 2, E 1.
        expectEqual(broadcast.nodes.map(\.messageFrames), [10, 40, 40, 40, 10])
        // The relays pass each message and each return on once: B, C, D twice per message.
        expectEqual(broadcast.nodes.map(\.relayed), [0, 20, 20, 20, 0])
        // The copies not for the next node are dropped: B's copy of the message to A, C's to
        // B, D's to C; of the return, D's to E, C's to D, B's to C. 6 per message, 14 − 8.
        expectEqual(broadcast.nodes.map(\.notOnPath), [10, 10, 20, 10, 10])
        // Next-hop delivery: 4 + 4 frames per message, the same relaying, nothing dropped.
        let unicast = try metrics("next-hop")
        expectEqual(unicast.nodes.map(\.messageFrames), [10, 20, 20, 20, 10])
        expectEqual(unicast.nodes.map(\.relayed), [0, 20, 20, 20, 0])
        expectEqual(unicast.nodes.map(\.notOnPath), [0, 0, 0, 0, 0])
        expectEqual(unicast.workloads[0].delivered, 10)
    }

    /// "Each node can connect to up to 8 other nodes" (seed 002), counted as the design counts
    /// it. In a 3 × 3 grid 30 m apart the centre hears its four neighbours at −61.2 dBm and the
    /// four diagonal ones (42.4 m) at −61.2 − 20·log10(√2) = −64.2 dBm, all above the −65 dBm
    /// discovery threshold; no other phone has more than 5 candidates. By default the centre
    /// holds all 8 in two Multipeer sessions (7 + 1 others), the largest of 8 members; one
    /// session per phone caps it at 7 others, a session of 8 members again.
    @Test func theCentreOfAGridHasTheDesignsEightNeighboursInTwoSessions() throws {
        var grid: [(String, Double, Double)] = []
        for k in 0..<9 { grid.append(("n\(k)", Double(k % 3) * 30, Double(k / 3) * 30)) }
        for (mesh, neighbours) in [([:], 8), (["sessionsPerPhone": 1], 7)] as [(JSON, Int)] {
            let (w, end) = run(try scenario(grid, mesh: mesh, duration: 10))
            let m = MeshMetrics(w.layers.mesh!, end: end)
            expectEqual(m.nodes[4].sessionPeers, neighbours, "\(mesh.text)")
            expectEqual(m.neighboursMax, neighbours)
            expectEqual(m.largestSession, 8)
        }
    }

    /// The relay A uses to reach C at `at` (11 s) with the mesh set as `mesh` says.
    func relay(_ mesh: JSON = [:], at: SimTime = .seconds(11)) throws -> Int {
        let (w, end) = run(try scenario(Self.diamond, mesh: mesh, duration: 50), until: at)
        return try require(w.layers.mesh!.route(from: 0, to: 3, at: end)).path[1]
    }

    @Test func aLostPeerLeavesTheSessionAfterThePeerTimeout() throws {
        let b = try relay()
        let s = try scenario(
            Self.diamond, mesh: [:], events: [["at_s": 12, "node": .string(b == 1 ? "B1" : "B2"), "action": "fail"]])
        // Sessions are evaluated every second; the round at 12 s (after the failure, which was
        // scheduled first) notes the loss, and the peer goes when 3 s have passed: at 15 s.
        expect(run(s, until: .milliseconds(14_900)).0.layers.mesh!.peers[0].contains(b))
        expect(!run(s, until: .milliseconds(15_100)).0.layers.mesh!.peers[0].contains(b))
    }

    @Test func aSenderRetriesWithTheRepairedRouteAfterARelayFails() throws {
        let mesh: JSON = [
            "routeCache": false, "sessionSetup": "instant",
            "messages": [
                [
                    "id": "chat", "from": "A", "to": "C", "size_bytes": 200, "count": 20, "interval_s": 1,
                    "start_s": 10
                ]
            ]
        ]
        // The relay A's messages take just before it fails.
        let b = try relay(mesh, at: .milliseconds(15_499))
        let other = b == 1 ? 2 : 1
        let s = try scenario(
            Self.diamond, mesh: mesh, events: [["at_s": 15.5, "node": .string(b == 1 ? "B1" : "B2"), "action": "fail"]],
            duration: 50)
        let (w, end) = run(s)
        let m = MeshMetrics(w.layers.mesh!, end: end)
        let chat = m.workloads[0]
        // Without the route cache (`RouteCacheTests` has it fail over at once), three retries
        // 4 s apart outlast the repair (one heartbeat period at most, below).
        expectEqual(chat.delivered, 20)
        expect(w.layers.mesh!.ledger.records[0].contains { $0.attempts >= 2 })
        expectEqual(w.layers.mesh!.route(from: 0, to: 3, at: end)?.path, [0, other, 3])
        // Repair: every route relayed through the failed node (counted here from the tables
        // just before the failure) is repaired by its destination's next heartbeat, which
        // arrives through the other relay within one period (5 s + ≤ 100 ms jitter) plus two
        // hops of transmission.
        let (before, t) = run(s, until: .milliseconds(15_499))
        var through = 0
        for a in 0..<4 where a != b {
            for c in 0..<4 where c != a && c != b {
                if before.layers.mesh!.route(from: a, to: c, at: t)?.path.contains(b) == true { through += 1 }
            }
        }
        let repair = try require(m.repairs.first)
        expect(repair.node == b && repair.failed == .milliseconds(15_500))
        expect(through >= 1)
        expectEqual(repair.brokenPairs, through)
        expectEqual(repair.repairTimes.count, through)
        expect(repair.repairTimes.allSatisfy { $0 > .zero && $0 <= .milliseconds(5_120) })
    }

    @Test func everyHeartbeatIsForwardedOnceByEachOtherNode() throws {
        // The diamond with B1 and B2 20 m apart: every node is a session peer of 2 or 3 others,
        // so copies of each heartbeat arrive several times. Duplicate suppression by (origin,
        // sequence) lets each of the 3 other nodes forward it once. With one broadcast per hop
        // no later copy is shorter (a direct copy always arrives first), so the frames sent are
        // exactly 4 × the heartbeats originated.
        let (w, _) = run(
            try scenario(
                Self.diamond, mesh: ["floodSend": "broadcast", "sessionSetup": "instant"], duration: 32))
        let originated = w.layers.mesh!.originated.reduce(0, +)
        expect(originated >= 4 * 6)
        expectEqual(w.layers.mesh!.framesSent.controlFramesSent.reduce(0, +), 4 * originated)
        // With one unicast per session peer (the default), a node forwards each heartbeat at
        // most once, to each of its peers: at most 2 × 5 sessions = 10 frames per heartbeat. A
        // node whose first copy of a new heartbeat came the long way round while its route is
        // fresh drops it ("already known by a faster path"), so it can be fewer; never fewer
        // than the origin's own copies, to at least 2 peers each.
        let (u, _) = run(try scenario(Self.diamond, mesh: ["sessionSetup": "instant"], duration: 32))
        let sent = u.layers.mesh!.framesSent.controlFramesSent.reduce(0, +)
        let made = u.layers.mesh!.originated.reduce(0, +)
        expect(sent <= 10 * made)
        expect(sent >= 2 * made)
    }

    @Test func simultaneousFailuresCountOnlyRoutesBetweenLiveNodes() throws {
        // A B C D E in a line; C and D fail together at 20 s, cutting A and B off from E.
        // Routes relaying through C: A→D, A→E, B→D, B→E and back; those to and from D leave
        // the count when D fails, so C broke A↔E and B↔E (4 pairs); D broke the same 4 (C's
        // own routes are not counted, C being down). The line is cut: nothing is repaired.
        let s = try scenario(
            Self.line + [("E", 120, 0)], mesh: [:],
            events: [["at_s": 20, "node": "C", "action": "fail"], ["at_s": 20, "node": "D", "action": "fail"]])
        let (w, end) = run(s)
        let repairs = MeshMetrics(w.layers.mesh!, end: end).repairs
        expectEqual(repairs.map(\.node), [2, 3])
        expectEqual(repairs.map(\.brokenPairs), [4, 4])
        expect(repairs.allSatisfy { $0.repairTimes.isEmpty })
    }

    @Test func routeEstablishmentIsTheFirstHeartbeatThatArrives() throws {
        let s = try scenario([("A", 0, 0), ("B", 30, 0)], mesh: ["sessionSetup": "instant"], duration: 12)
        let (w, end) = run(s)
        // B heartbeats when its app starts, at the first draw of its jitter stream × 100 ms,
        // and again when its session with A forms at 0 s, at the second draw × 100 ms
        // (`heartbeatOnStart`, `heartbeatOnNewSession`); A holds the route once the earlier
        // frame is through (DIFS, back-off and a 72-byte frame at 6 Mbit/s: well under 2 ms on
        // an idle channel).
        var stream = RandomStream(seed: s.seed, name: "node:1/mesh/jitter")
        let start = stream.uniform(), session = stream.uniform()
        let offset = SimTime(nanoseconds: Int64(min(start, session) * 1e8))
        let m = MeshMetrics(w.layers.mesh!, end: end)
        let established = SimTime(nanoseconds: w.layers.mesh!.recorder.firstRoute[0 * 2 + 1])
        expect(established > offset && established - offset < .milliseconds(2))
        expectEqual(m.pairsRouted, 2)
        let a = m.firstRoutes[0]
        expect(m.firstRoutes.count == 2 && a.from == 0 && a.to == 1 && a.time == established)
        let csv = MeshFiles.files(m, report: try ScenarioRunner.run(s)).first { $0.name == "route_establishment.csv" }
        expect(
            csv?.contents.hasPrefix(
                "from,to,first_route_s\nA,B,\(NumberText.fixed(established.inSeconds, decimals: 6))\n") == true)
    }

    @Test func medianNodesFollowTheDesign() {
        expect(PathKeys.median(of: [0, 9]) == nil)
        expectEqual(PathKeys.median(of: [0, 5, 9]), 5)
        expectEqual(PathKeys.median(of: [0, 5, 6, 9]), 5)
        expectEqual(PathKeys.median(of: [0, 5, 6, 7, 9]), 6)
    }

    @Test func aKeyNeedsEnoughSharedPathsAndShowsWhoElseCanRebuildIt() {
        // Nodes 0 and 4 share two relayed paths, 0-1-4 and 0-2-3-4 (heard both ways), and the
        // direct path 0-4, which is not key material. Node 5 is a session peer of 1 and of 2:
        // it overheard both paths. Node 6 is a peer of 3 only: it saw one of them.
        let n = 7
        let heard: [Int: [[Int]]] = [
            0 * n + 4: [[0, 4], [0, 1, 4], [0, 2, 3, 4]],
            4 * n + 0: [[4, 0], [4, 3, 2, 0], [4, 1, 0]]
        ]
        let peers: [[Int]] = [[1, 2, 4], [0, 4, 5], [0, 3, 5], [2, 4, 6], [0, 1, 3], [1, 2], [3]]
        let two = PathKeys.report(heard: heard, nodes: n, peers: peers, keyPaths: 2)
        expectEqual(two.count, 1)
        expect(two[0].a == 0 && two[0].b == 4 && two[0].sharedPaths == 2)
        // Medians: 1 for 0-1-4; for 0-2-3-4 (two relays) the one nearer node 0: 2.
        expectEqual(two[0].medians, [1, 2])
        // Observers of 0-1-4: {0, 1, 4} and their peers {2, 5, 3}; of 0-2-3-4: {0, 2, 3, 4}
        // and their peers {1, 5, 6}. Both, without the pair: 1, 2, 3, 5.
        expectEqual(two[0].exposedTo, [1, 2, 3, 5])
        let three = PathKeys.report(heard: heard, nodes: n, peers: peers, keyPaths: 3)
        expect(three[0].medians == nil && three[0].exposedTo.isEmpty)
    }

    @Test func routeChangeLogsNameWhatChanged() {
        let h = RouteChangeLog.header + "\n"
        let stored = h + "0.500000000 A C A B C\n0.500000000 C A C B A\n12.000000000 A C -\n"
        expect(RouteChangeLog.difference(stored: stored, new: stored) == nil)
        // Both routes learned 2 s later, the same paths, and A's lost 2 s later: two pairs,
        // both only in time, every shift +2 s; the first difference is the stored 0.5 s change.
        let later = h + "2.500000000 A C A B C\n2.500000000 C A C B A\n14.000000000 A C -\n"
        expectEqual(
            RouteChangeLog.difference(stored: stored, new: later),
            "2 pairs changed, 2 only in time (+2.000 s); first at 0.500 s, node A, destination C: "
                + "stored A B C from 0.500 s, new A B C from 2.500 s")
        // A different relay for C → A at the same time: one pair, not only in time.
        let other = h + "0.500000000 A C A B C\n0.500000000 C A C D A\n12.000000000 A C -\n"
        expectEqual(
            RouteChangeLog.difference(stored: stored, new: other),
            "1 pair changed; first at 0.500 s, node C, destination A: stored C B A from 0.500 s, "
                + "new C D A from 0.500 s")
        // The route is never lost: the stored loss at 12 s is the difference.
        let kept = h + "0.500000000 A C A B C\n0.500000000 C A C B A\n"
        expectEqual(
            RouteChangeLog.difference(stored: stored, new: kept),
            "1 pair changed; first at 12.000 s, node A, destination C: stored no route from 12.000 s, "
                + "new no further change")
        // An old per-heartbeat snapshot is not compared as if it were a log.
        expect(
            RouteChangeLog.difference(stored: "5.000000000 A C A B C\n", new: stored)?
                .hasPrefix("the stored file is not a route change log") == true)
    }

    @Test func aMeshOverTheIdealLinkIsRefusedBeforeRunning() throws {
        var t = TestScenario(name: "x", seed: 1, duration: 5, radio: ["technology": "ideal"])
        t.place("A", 0, 0, z: 1)
        t.place("B", 5, 0, z: 1)
        t["mesh"] = [:]
        let s = try t.decoded()
        #expect(throws: ScenarioRunner.Unsupported.self) { try ScenarioRunner.run(s) }
    }

    @Test func badMessageWorkloadsAreReportedWithTheirPath() throws {
        func errors(_ messages: String) -> String {
            do {
                _ = try scenario(Self.line, mesh: .raw("{\"messages\": \(messages)}"))
                return ""
            } catch { return "\(error)" }
        }
        expect(
            errors(
                "[{\"id\": \"x\", \"from\": \"A\", \"to\": \"A\", \"size_bytes\": 1, \"count\": 1, \"interval_s\": 1}]"
            )
            .contains("mesh.messages[0].to: a message workload needs two different nodes"))
        do {
            _ = try scenario(Self.line, mesh: ["forwarding": "flood"])
            Issue.record("an unknown forwarding was accepted")
        } catch {
            expect("\(error)".contains("mesh.forwarding: "), "\(error)")
            expect("\(error)".contains("\"path-broadcast\""), "\(error)")
        }
        expect(
            errors(
                "[{\"id\": \"x\", \"from\": \"A\", \"to\": \"Q\", \"size_bytes\": 1, \"count\": 1, \"interval_s\": 1}]"
            )
            .contains("mesh.messages[0].to: no node has the id \"Q\""))
        expect(
            errors(
                "[{\"id\": \"x\", \"from\": \"A\", \"to\": \"B\", \"size_bytes\": 0, \"count\": 1, \"interval_s\": 1}]"
            )
            .contains("mesh.messages[0].size_bytes"))
        expect(
            errors(
                "[{\"id\": \"x\", \"from\": \"A\", \"to\": \"B\", \"size_bytes\": 67108865, \"count\": 1, \"interval_s\": 1}]"
            )
            .contains("a message size in 1...67108864 bytes"))
        let twice =
            "{\"id\": \"x\", \"from\": \"A\", \"to\": \"B\", \"size_bytes\": 1, \"count\": 1, \"interval_s\": 1}"
        expect(
            errors("[\(twice), \(twice)]").contains(
                "mesh.messages[1].id: another message workload is already named \"x\""))
    }
}

@Suite("Mesh sweeps")
struct MeshSweepTests {
    @Test(ScaleCheck.trait) func aMeshSweepReportsEveryWorkloadWithMeshColumns() throws {
        let root = Repository.root
        let plan = try SweepPlan(
            path: root.appendingPathComponent("topologies/mesh-compare.json").path,
            overrides: ["matrix.repeat=1"])
        expectEqual(plan.header.suffix(MeshFiles.sweepColumns.count), ArraySlice(MeshFiles.sweepColumns))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mesh-sweep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        try SweepRunner.run(plan, out: out, workers: 2, shard: nil, resume: false, progress: .quiet)
        let rows = SweepPlots.parseCSV(try String(contentsOf: out.appendingPathComponent("cells.csv"), encoding: .utf8))
        let header = rows[0]
        let data = rows.dropFirst().filter { $0.count == header.count }
        // 2 routings × 3 heartbeat intervals × 1 repeat, two workloads each.
        expectEqual(data.count, 12)
        let proto = header.firstIndex(of: "protocol")!, flow = header.firstIndex(of: "flow")!
        let ratio = header.firstIndex(of: "mesh_delivery_ratio")!, packets = header.firstIndex(of: "packets")!
        expectEqual(Set(data.map { $0[proto] }), ["dsr-heartbeat", "dsr"])
        expectEqual(Set(data.map { $0[flow] }), ["chat", "reply"])
        expect(data.allSatisfy { $0[packets] == "120" && Double($0[ratio]).map { (0...1).contains($0) } == true })
        let charts = try SweepPlots.charts(
            cellsCSV: try String(contentsOf: out.appendingPathComponent("cells.csv"), encoding: .utf8))
        expectEqual(
            charts.map(\.file),
            [
                "mesh-delivery-by-place-and-routing.svg", "mesh-latency-by-place-and-routing.svg",
                "mesh-control-by-place-and-routing.svg"
            ])
    }
}

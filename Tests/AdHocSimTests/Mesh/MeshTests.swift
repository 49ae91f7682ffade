import Foundation
import Testing
@testable import AdHocSim

@Suite("Mesh: DSR with heartbeats")
struct MeshTests {
    func scenario(_ nodes: [(String, Double, Double)], events: JSON = [], duration: Double = 40) throws -> Scenario
    {
        try MeshScenarioText.scenario(nodes, events: events, duration: duration, seed: 2)
    }

    @Test func aLineLearnsItsEndToEndRouteByTheSecondRound() throws {
        let s = try scenario([("A", 0, 0), ("B", 30, 0), ("C", 60, 0), ("D", 90, 0)])
        var sim = Simulation(seed: s.seed)
        var w = World<WirelessLink>(s, sim: &sim)
        // Heartbeats start within the first 5 s and repeat every 5 s (+ ≤ 100 ms jitter):
        // by 10.2 s every node has flooded twice.
        _ = sim.run(&w, until: .milliseconds(10_200))
        expectEqual(w.layers.mesh!.peers, [[1], [0, 2], [1, 3], [2]])
        expectEqual(w.layers.mesh!.route(from: 0, to: 3, at: sim.now)?.path, [0, 1, 2, 3])
        expectEqual(w.layers.mesh!.route(from: 3, to: 0, at: sim.now)?.hops, 3)
        expectEqual(w.layers.mesh!.route(from: 1, to: 2, at: sim.now)?.path, [1, 2])
    }

    @Test func routesAvoidAFailedNodeAfterRepair() throws {
        // A diamond: A reaches C through B1 or B2 (both 31.6 m away); A and C are 60 m apart.
        let s = try scenario(
            [("A", 0, 0), ("B1", 30, 10), ("B2", 30, -10), ("C", 60, 0)],
            events: [["at_s": 12, "node": "B1", "action": "fail"]])
        var sim = Simulation(seed: s.seed)
        var w = World<WirelessLink>(s, sim: &sim)
        _ = sim.run(&w, until: .seconds(11))
        let before = try require(w.layers.mesh!.route(from: 0, to: 3, at: sim.now))
        expectEqual(before.hops, 2)
        _ = sim.run(&w, until: .seconds(30))
        // B1 is gone: its session drops within a session round, and the next heartbeat
        // rounds teach the path through B2.
        let now = sim.now
        let after = try require(w.layers.mesh!.route(from: 0, to: 3, at: now))
        expectEqual(after.path, [0, 2, 3])
        expect(w.layers.mesh!.route(from: 0, to: 1, at: now) == nil)  // B1's route expired
        expect(!w.layers.mesh!.peers[0].contains(1))
    }

    @Test(ScaleCheck.trait) func noNodeHoldsMoreThanEightInItsSession() throws {
        // 30 phones within a few metres of each other: everyone is in range of everyone.
        var nodes: [(String, Double, Double)] = []
        for k in 0..<30 { nodes.append(("n\(k)", Double(k % 6), Double(k / 6))) }
        let s = try scenario(nodes, duration: 3)
        var sim = Simulation(seed: s.seed)
        var w = World<WirelessLink>(s, sim: &sim)
        _ = sim.run(&w, until: .seconds(3))
        // Every phone reaches the design's 8 other nodes (two Multipeer sessions of at most 8
        // members each, the phone included).
        let peers = w.layers.mesh!.peers.map(\.count)
        expect(peers.allSatisfy { $0 <= 8 })
        expect(peers.contains(8))
        let config = w.layers.mesh!.config
        expect(peers.allSatisfy { config.largestSession(peers: $0) <= 8 })
        // Sessions are mutual.
        for (i, p) in w.layers.mesh!.peers.enumerated() { for j in p { expect(w.layers.mesh!.peers[j].contains(i)) } }
    }

    @Test func meshRunsAreDeterministic() throws {
        var t = TestScenario(name: "m", seed: 9, duration: 20, environment: ["preset": "city"])
        for (id, x, y) in [("A", 0.0, 0.0), ("B", 20, 5), ("C", 40, 0), ("D", 20, -15)] { t.place(id, x, y) }
        t["mesh"] = [:]
        let s = try t.decoded()
        let a = RunFiles.files(for: try ScenarioRunner.run(s)).map { "\($0.name)\n" + deterministicPart($0.contents) }
        let b = RunFiles.files(for: try ScenarioRunner.run(s)).map { "\($0.name)\n" + deterministicPart($0.contents) }
        expectEqual(a, b)
        expect(a.contains { $0.hasPrefix("routes.csv") })
    }
}

@Suite("adhocsim check", .serialized)
struct CheckTests {
    static let root = Repository.root

    @Test(ScaleCheck.trait) func theShippedRegressionChecksPass() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: CheckTests.root.appendingPathComponent("topologies/regression").path
        )
        .filter { $0.hasSuffix(".json") }.sorted().map { "topologies/regression/\($0)" }
        expectEqual(files.count, 7)
        let r = try CLI.run(["check"] + files + ["--golden", "topologies/regression/golden"], in: CheckTests.root)
        expectEqual(r.status, 0, "\(r.stdout)")
        expect(!r.stdout.contains("FAIL"))
    }

    @Test func aBrokenExpectationFailsAndShowsWhatWasObserved() throws {
        let r = try CLI.run(
            ["check", "topologies/regression/line-5.json", "--set", "expectations[2].route.maxHops=3"],
            in: CheckTests.root)
        expectEqual(r.status, 1)
        expect(r.stdout.contains("exists at 15.000 s, ≤ 3 hops  A B C D E (4 hops)  FAIL"))
    }

    @Test func aDeliveryRatioBelowItsBoundFailsWithTheObservedRatio() throws {
        // The static grid delivers all 100 messages; demanding at most half fails.
        let r = try CLI.run(
            ["check", "topologies/regression/grid-delivery.json", "--set", "expectations[1].max=0.5"],
            in: CheckTests.root)
        expectEqual(r.status, 1)
        expect(r.stdout.contains("delivery ratio chat  ≥ 0.9900, ≤ 0.5000  1.0000 (100/100)  FAIL"), "\(r.stdout)")
        let unknown = try CLI.run(
            ["check", "topologies/regression/grid-delivery.json", "--set", "expectations[1].flow=voice"],
            in: CheckTests.root)
        expectEqual(unknown.status, 2)
        expect(
            unknown.stderr.contains("expectations[1].flow: no mesh message workload is named \"voice\" (known: chat)"))
    }

    @Test func goldenRouteChangesShowWhatChanged() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = "topologies/regression/line-5.json"
        expectEqual(try CLI.run(["check", file, "--golden", dir, "--update-golden"], in: CheckTests.root).status, 0)
        let same = try CLI.run(["check", file, "--golden", dir], in: CheckTests.root)
        expect(same.status == 0 && same.stdout.contains("identical  pass"))
        // E moved 30 m further out (60 m from D: −67.2 dBm, below the −65 dBm discovery
        // threshold): nobody holds a route to E, so the tables differ from the first sample.
        let other = try CLI.run(
            ["check", file, "--golden", dir, "--set", "nodes[4].position[0]=150"], in: CheckTests.root)
        expectEqual(other.status, 1)
        // Routes to and from E never come; the 12 pairs of A…D alone keep theirs (same
        // paths), so at most those differ only in time.
        let counts = other.stdout.split(separator: "\n").first { $0.contains("route changes") }.map { line in
            line.split(separator: " ").enumerated().compactMap { k, w in Int(w).map { (k, $0) } }.map(\.1)
        } ?? []
        expect(counts.count >= 1 && counts[0] - (counts.count > 1 ? counts[1] : 0) >= 8, "\(other.stdout)")
        expectEqual(try CLI.run(["check", file, "--update-golden"], in: CheckTests.root).status, 2)
        // --seed replaces the file's seed (1): the same seed gives the same log, another one
        // another trajectory.
        let same1 = try CLI.run(["check", file, "--golden", dir, "--seed", "1"], in: CheckTests.root)
        expect(same1.stdout.contains("identical  pass"), "\(same1.stdout)")
        let seven = try CLI.run(["check", file, "--golden", dir, "--seed", "7"], in: CheckTests.root)
        expect(seven.status == 1 && seven.stdout.contains("pairs changed"), "\(seven.stdout)")
        let badSeed = try CLI.run(["check", file, "--seed", "-1"], in: CheckTests.root)
        expectEqual(badSeed.status, 2)
        // The log is looked at on the 100 ms grid whatever the heartbeat period: with 0.35 s
        // heartbeats every change still falls on a multiple of 0.1 s.
        let s = try ScenarioDecoder.load(
            path: CheckTests.root.appendingPathComponent(file).path, overrides: ["mesh.heartbeatIntervalS=0.35"])
        let log = try require(try Checker.run(s).routeChanges)
        let stamps = log.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").first }
        expect(!stamps.isEmpty)
        expect(stamps.allSatisfy { $0.hasSuffix("00000000") })
    }

    @Test func expectationsNamingUnknownNodesAreBadInput() throws {
        let r = try CLI.run(
            ["check", "topologies/regression/line-5.json", "--set", "expectations[0].route.to=Z"], in: CheckTests.root)
        expectEqual(r.status, 2)
        expect(r.stderr.contains("expectations[0].route.to: no node has the id \"Z\""))
    }

    /// An expectation checks one thing (rule 3: nothing silently ignored): a fingerprint with a
    /// route, or a metric with a time, is bad input at the extra key; a session-size metric
    /// takes no `min`.
    @Test func anExpectationWithKeysOfAnotherShapeIsBadInput() {
        func problems(_ expectation: JSON) -> [(path: String, message: String)] {
            var t = TestScenario(name: "x", seed: 1, duration: 5, radio: ["technology": "awdl"])
            t.place("a", 0, 0)
            t.place("b", 10, 0)
            t["mesh"] = [:]
            t["expectations"] = [expectation]
            return diagnostics(t.text).map { ($0.path, $0.message) }
        }
        let withRoute = problems(["fingerprint": "0123456789abcdef", "route": ["from": "a", "to": "b"], "by_s": 3])
        expectEqual(withRoute.map(\.path).sorted(), ["expectations[0].by_s", "expectations[0].route"])
        expect(withRoute.allSatisfy { $0.message.contains("does not go with \"fingerprint\"") })
        let withTime = problems(["metric": "max_neighbours", "max": 8, "at_s": 2])
        expectEqual(withTime.map(\.path), ["expectations[0].at_s"])
        let withMin = problems(["metric": "max_session_size", "max": 8, "min": 2])
        expectEqual(withMin.map(\.path), ["expectations[0].min"])
        expect(withMin.first?.message.contains("max_session_size takes only \"max\"") == true)
        expect(problems(["metric": "max_session_size", "max": 8]).isEmpty)
        // A route by a time has only to exist: what it avoids and its hops are checked at a time.
        let byWithAvoids = problems(["by_s": 3, "route": ["from": "a", "to": "b", "avoids": ["b"], "maxHops": 2]])
        expectEqual(byWithAvoids.map(\.path), ["expectations[0].route.avoids", "expectations[0].route.maxHops"])
        expect(byWithAvoids.allSatisfy { $0.message.contains("does not go with \"by_s\"") })
        expect(problems(["at_s": 3, "route": ["from": "a", "to": "b", "avoids": ["b"], "maxHops": 2]]).isEmpty)
        // A fingerprint with a ratio's keys, a ratio with neither bound, a session size of 0.
        expectEqual(problems(["fingerprint": "0123456789ABCDEF", "min": 0.5]).map(\.path), ["expectations[0].min"])
        let noBound = problems(["metric": "delivery_ratio", "flow": "chat"])
        expect(noBound.contains { $0.path == "expectations[0]" && $0.message.contains("expected \"min\" or \"max\"") })
        let empty = problems(["metric": "max_session_size", "max": 0])
        expect(empty.first?.path == "expectations[0].max" && empty.first?.message.contains("a session size in 1...64") == true)
        // Neither a route's time, a metric nor a fingerprint.
        let none = problems(["route": ["from": "a", "to": "b"]])
        expect(none.first?.path == "expectations[0]" && none.first?.message.contains("\"by_s\" or \"at_s\"") == true)
    }

    @Test func aFingerprintExpectationCatchesAnyBehaviouralChange() throws {
        func scenario(_ expectations: JSON, _ extra: [String] = []) throws -> Scenario {
            var t = TestScenario(
                name: "fp", seed: 1, duration: 12, environment: ["preset": "field", "shadowingSigmaDb": 0, "fadingK": .null],
                radio: ["technology": "wifi"])
            for (id, x) in [("A", 0.0), ("B", 30), ("C", 60)] { t.place(id, x, 0) }
            t["mesh"] = [:]
            t["expectations"] = expectations
            return try t.decoded(overrides: extra)
        }
        let fp = try ScenarioRunner.run(try scenario([])).fingerprint
        expect(try Checker.run(try scenario([["fingerprint": .string(fp)]])).outcomes.first?.passed == true)
        let changed = try Checker.run(try scenario([["fingerprint": .string(fp)]], ["mesh.heartbeatIntervalS=4"]))
        expect(changed.outcomes.first?.passed == false)
        expect(changed.outcomes.first?.observed != fp)
    }
}

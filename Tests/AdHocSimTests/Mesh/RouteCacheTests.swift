import Testing
@testable import AdHocSim

/// MAdHoc's route cache (`mesh.routeCache`; seed 002: the route cache "stores an array of
/// routes"): paths heard through other session peers are kept; a retry takes the next cached
/// route, and a source whose first hop has left its session sends along a cached path at once,
/// before the next heartbeat could repair the route.
struct RouteCacheTests {
    /// A diamond on plain Wi-Fi (`MeshScenarioText`): A (0, 0), B1 (25, 20), B2 (25, −20),
    /// D (50, 0). A–B1, A–B2, B1–D and B2–D are 32 m (sessions); A–D is 50 m, −65.6 dBm, below
    /// the discovery threshold, so A reaches D through B1 or B2. A sends D a message every
    /// second from 10 s; the relay A uses (B1 with this seed) fails at 15.5 s, just after D's
    /// heartbeat of that period.
    func run(cache: Bool) throws -> MeshMetrics {
        let s = try MeshScenarioText.scenario(
            [("A", 0, 0), ("B1", 25, 20), ("B2", 25, -20), ("D", 50, 0)],
            mesh: [
                // One unicast per hop: the counts below follow the route's hops only.
                "forwarding": "next-hop",
                "routeCache": .bool(cache),
                "messages": [
                    ["id": "m", "from": "A", "to": "D", "size_bytes": 300, "count": 20, "interval_s": 1, "start_s": 10]
                ]
            ], events: [["at_s": 15.5, "node": "B1", "action": "fail"]], duration: 40, seed: 1)
        return try require(try ScenarioRunner.run(s).mesh)
    }

    @Test func aSourceFailsOverToACachedPathBeforeTheNextHeartbeat() throws {
        let on = try run(cache: true), off = try run(cache: false)
        // B1 leaves A's session at the first session round 3 s after the round that saw it down
        // (16 s): at 19 s. Message 10, created at 20 s, finds its first hop gone: with the cache
        // A sends it through B2 at once, and it arrives within 50 ms (two hops on an idle
        // channel), in its first attempt. Without the cache A still holds the route through B1
        // until D's next heartbeat, which with this seed comes after 20 s: the message is lost
        // and waits for its confirmation timeout.
        let now = on.messages[0][10], later = off.messages[0][10]
        expect(try require(now.delivered) - now.created < .milliseconds(50))
        expectEqual(now.attempts, 1)
        expect(later.attempts >= 2)
        expect(try require(later.delivered) - later.created >= .seconds(4))
        expect(on.failovers >= 1 && off.failovers == 0)
        // Message 6 went to B1 just after it failed: Multipeer's reliable mode resends it to
        // B1 while B1 stays in the session, then it is lost. Its retry 4 s later takes the next
        // cached route (through B2) with the cache, and the same dead route without it.
        expectEqual(on.messages[0][6].attempts, 2)
        expectEqual(off.messages[0][6].attempts, 3)
        expect(on.workloads[0].delivered == 20 && off.workloads[0].delivered == 20)
    }

    @Test func theCacheKeepsOnePathPerOtherFirstHop() {
        var table = RouteTable(nodes: 5, timeout: .seconds(15))
        let i = table.index(0, 4)
        table.routes[i] = MeshRoute(path: [0, 1, 4], learned: .seconds(1))
        // Through the route's own first hop: not cached.
        table.remember(MeshRoute(path: [0, 1, 3, 4], learned: .seconds(2)), at: i)
        expect(table.alternates[i] == nil)
        // Through 2, twice: the fresher is kept. Through 3: kept beside it.
        table.remember(MeshRoute(path: [0, 2, 3, 4], learned: .seconds(2)), at: i)
        table.remember(MeshRoute(path: [0, 2, 4], learned: .seconds(3)), at: i)
        table.remember(MeshRoute(path: [0, 3, 4], learned: .seconds(4)), at: i)
        expectEqual(table.alternates[i]?.map(\.path), [[0, 3, 4], [0, 2, 4]])
        // In order of use: the route in use, then fewest hops, the fresher first.
        expectEqual(table.routes(at: i, time: .seconds(5)).map(\.path), [[0, 1, 4], [0, 3, 4], [0, 2, 4]])
        // Losing the link 0–1 leaves the cached paths; the best of them takes over.
        table.forgetLink((0, 1), at: 0)
        expectEqual(table.route(from: 0, to: 4, at: .seconds(5))?.path, [0, 3, 4])
        // Cached paths expire like routes.
        expect(table.route(from: 0, to: 4, at: .seconds(20)) == nil)
    }
}

/// Multipeer's send modes for mesh messages (`mesh.messages[i].reliable`), over one hop that
/// loses 30 % of its frames, with no end-to-end retries (`retries: 0`): what the session layer
/// alone does.
struct SendModeTests {
    func run(reliable: Bool, count: Int) -> MessageLedger {
        var config = MeshConfig()
        config.retries = 0
        config.routeTimeout = .seconds(100_000)  // the route, once learned, stays
        var sim = Simulation(seed: 9)
        let spec = MessageWorkloadSpec(
            id: "m", from: 0, to: 1, sizeBytes: 100, count: count, interval: .milliseconds(50), start: .seconds(12),
            reliable: reliable)
        var h = MeshHarness(peers: [[1], [0]], config: config, messages: [spec], loss: 0.3, sim: &sim)
        _ = sim.run(&h, until: .seconds(12) + .milliseconds(50 * count) + .seconds(30))
        return h.mesh.ledger
    }

    @Test func aReliableMessageOverALossyHopArrivesOnceAndInOrder() {
        let ledger = run(reliable: true, count: 200)
        let records = ledger.records[0]
        expectEqual(records.count, 200)
        // Every message arrives, exactly one copy of each is taken, and in the order sent:
        // the session resends a lost frame and holds the ones behind it until it arrives.
        expect(records.allSatisfy { $0.delivered != nil && $0.arrivals == 1 })
        let times = records.compactMap(\.delivered)
        expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func anUnreliableMessageOverA30PercentLossHopArrivesWithProbability07() {
        // One unicast per message, nothing resent: each arrives with probability 0.7. Over
        // 1 000 messages the share is within 4 standard errors, 4 · √(0.21 / 1 000) = 0.058.
        let records = run(reliable: false, count: 1000).records[0]
        let share = Double(records.filter { $0.delivered != nil }.count) / Double(records.count)
        expect(abs(share - 0.7) <= 0.058, "\(share)")
        expect(records.allSatisfy { $0.arrivals <= 1 })
    }
}

/// Path-derived keys used for real (`mesh.keyPaths`; seed 002): a message between a keyed
/// pair carries the encryption overhead, one to a pair without a key goes in the clear.
struct PathKeyMessageTests {
    func run(keyPaths: Int) throws -> MeshMetrics {
        // The diamond A, B1, B2, D of `RouteCacheTests`: A and D share two relayed paths,
        // A–B1–D and A–B2–D, once both have heard each other's heartbeats both ways.
        let s = try MeshScenarioText.scenario(
            [("A", 0, 0), ("B1", 25, 20), ("B2", 25, -20), ("D", 50, 0)],
            mesh: [
                // One unicast per hop: A's bytes below are one copy per attempt.
                "forwarding": "next-hop",
                "keyPaths": .integer(keyPaths),
                "messages": [
                    ["id": "m", "from": "A", "to": "D", "size_bytes": 300, "count": 10, "interval_s": 1, "start_s": 12]
                ]
            ], duration: 30, seed: 4)
        return try require(try ScenarioRunner.run(s).mesh)
    }

    @Test func keyedMessagesCarryTheCipherOverheadAndUnkeyedOnesGoInTheClear() throws {
        // A message frame on a 3-node route: 32 + 8 · 3 bytes of header and route and 300 of
        // payload, plus the session's 37-byte DTLS record, plus AES-GCM's 12-byte nonce and
        // 16-byte tag when encrypted end to end: 421 or 393.
        let keyed = try run(keyPaths: 2)
        let attempts = UInt64(keyed.workloads[0].attempts)
        expect(keyed.messages[0].allSatisfy { $0.encrypted })
        expectEqual(keyed.nodes[0].messageBytes, 421 * attempts)
        // Three distinct relayed paths are needed and only two exist: no key, no encryption.
        let clear = try run(keyPaths: 3)
        expect(clear.messages[0].allSatisfy { !$0.encrypted })
        expectEqual(clear.nodes[0].messageBytes, 393 * UInt64(clear.workloads[0].attempts))
    }
}

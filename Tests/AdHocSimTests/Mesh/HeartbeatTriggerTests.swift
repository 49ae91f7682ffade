import Testing
@testable import AdHocSim

/// When MAdHoc's heartbeats go (`mesh.heartbeatOnStart`, `mesh.heartbeatOnNewSession`) and how a
/// flooded frame reaches the session peers (`mesh.floodSend`). The geometry is
/// `MeshScenarioText`'s: plain Wi-Fi with no AWDL waits, phones 30 m apart in session, 60 m not.
/// Sessions form at once (`"sessionSetup": "instant"`), so they exist at 0 s and the counts
/// below follow from the heartbeats alone; `MultipeerSetupTests` covers the set-up.
struct HeartbeatTriggerTests {
    func run(
        _ nodes: [(String, Double, Double)], mesh: String, events: String = "[]", duration: Double
    ) throws
        -> MeshMetrics
    {
        let instant = "{\"sessionSetup\": \"instant\", " + mesh.dropFirst()
        let s = try MeshScenarioText.scenario(
            nodes, mesh: mesh == "{}" ? "{\"sessionSetup\": \"instant\"}" : instant, events: events, duration: duration,
            seed: 5)
        return try require(try ScenarioRunner.run(s).mesh)
    }

    static let line = [("A", 0.0, 0.0), ("B", 30.0, 0.0), ("C", 60.0, 0.0)]

    @Test func everyNodeHeartbeatsWhenTheAppStarts() throws {
        // Sessions form at t = 0; each first heartbeat goes within the 100 ms jitter, and one
        // hop of a 72-byte frame on an idle 20 MHz channel takes well under a millisecond plus
        // back-off: every pair of the line holds its route by 0.2 s (two hops for A–C).
        let m = try run(
            Self.line, mesh: "{\"heartbeatOnStart\": true, \"heartbeatOnNewSession\": false}", duration: 0.5)
        expectEqual(m.pairsRouted, 6)
        for r in m.firstRoutes { expect(r.time <= .milliseconds(200), "\(r)") }
    }

    @Test func aNewSessionTriggersAHeartbeatAtBothEnds() throws {
        // C joins at 20 s. The first session round that sees it up (at 20 s or 21 s: rounds run
        // every second) forms B–C; B and C heartbeat within 100 ms, so A holds a route to C by
        // 21.2 s, without waiting for C's periodic heartbeat.
        let joined = "[{\"at_s\": 20, \"node\": \"C\", \"action\": \"join\"}]"
        let on = try run(Self.line, mesh: "{}", events: joined, duration: 27)
        let aToC = try require(on.firstRoutes.first { $0.from == 0 && $0.to == 2 }?.time)
        expect(aToC >= .seconds(20))
        expect(aToC <= .milliseconds(21_200))
        // A's own session did not change, so C learns of A from A's next periodic heartbeat:
        // within one period plus the jitter (5.1 s) of the session forming.
        let cToA = try require(on.firstRoutes.first { $0.from == 2 && $0.to == 0 }?.time)
        expect(cToA <= .milliseconds(26_200))
        // Without the trigger, A waits for C's periodic heartbeat (with this seed its phase falls
        // after 21.2 s): later than with it.
        let off = try run(Self.line, mesh: "{\"heartbeatOnNewSession\": false}", events: joined, duration: 27)
        let aToCOff = try require(off.firstRoutes.first { $0.from == 0 && $0.to == 2 }?.time)
        expect(aToCOff > aToC)
    }

    @Test func aPhoneThatMovesIntoRangeFormsASessionAtTheNextRound() throws {
        // C starts 200 m away (out of discovery range) and is moved to 60 m at 10 s. As with a
        // join, the first session round that sees it in range (10 s or 11 s) forms B–C, and the
        // new session's heartbeats give A a route to C by 11.2 s. (The link keeps each phone's
        // list of phones within discovery range; a move must rebuild it, or C never joins.)
        let nodes = [("A", 0.0, 0.0), ("B", 30.0, 0.0), ("C", 200.0, 0.0)]
        let moved = "[{\"at_s\": 10, \"node\": \"C\", \"action\": \"move\", \"position\": [60, 0, 1.2]}]"
        let m = try run(nodes, mesh: "{}", events: moved, duration: 14)
        let aToC = try require(m.firstRoutes.first { $0.from == 0 && $0.to == 2 }?.time)
        expect(aToC >= .seconds(10))
        expect(aToC <= .milliseconds(11_200))
    }

    @Test func aFloodedFrameGoesToEachSessionPeerAsItsOwnUnicast() throws {
        // Only the start heartbeats, over 0.5 s, on the line A–B–C. With one unicast per peer:
        // A, B and C originate 1 + 2 + 1 copies; B passes A's and C's heartbeats to both its
        // peers (2 + 2), A and C pass B's on to B (1 + 1), and A and C pass on C's and A's
        // heartbeats that came through B (1 + 1): 12 frames, none lost (every copy is retried).
        let peers = try run(
            Self.line, mesh: "{\"heartbeatOnStart\": true, \"heartbeatOnNewSession\": false}", duration: 0.5)
        expectEqual(peers.nodes.map(\.controlFrames).reduce(0, +), 12)
        expectEqual(peers.nodes.map(\.controlFrames), [3, 6, 3])
        // As one broadcast per hop: 3 originated, 6 passed on (B: 2, A: 2, C: 2).
        let broadcast = try run(
            Self.line,
            mesh: "{\"heartbeatOnStart\": true, \"heartbeatOnNewSession\": false, \"floodSend\": \"broadcast\"}",
            duration: 0.5)
        expectEqual(broadcast.nodes.map(\.controlFrames), [3, 3, 3])
    }

    @Test func theSwitchesAreCheckedInput() throws {
        var t = TestScenario(name: "x", seed: 1, radio: nil)
        t.place("A", 0, 0)
        t["mesh"] = ["heartbeatOnStart": "yes", "floodSend": "multicast"]
        let d = t.problems
        expectEqual(d.map(\.path).sorted(), ["mesh.floodSend", "mesh.heartbeatOnStart"])
        expect(d.first { $0.path == "mesh.floodSend" }?.message.contains("\"sessionPeers\", \"broadcast\"") == true)
    }
}

/// A heartbeat seen before (`mesh.dropSeenHeartbeats`, seed 002, §7.3: "If the heartbeat has
/// been seen before, discard it"), driven by hand: node 3 hears origin 0's heartbeat 0 first by
/// the long way, 0–1–2, then the same heartbeat by 0–2.
struct SeenHeartbeatTests {
    func routeAfterTwoCopies(drop: Bool) -> (path: [Int]?, forwarded: Int) {
        var sim = Simulation(seed: 1)
        var config = MeshConfig()
        config.dropSeenHeartbeats = drop
        let h = MeshHarness(peers: [[1, 2], [0, 2, 3], [0, 1, 3], [1, 2]], config: config, sim: &sim)
        var core = h.mesh.core
        var routing = HeartbeatRouting(nodes: 4, sim: sim)
        routing.controlArrived(
            MeshFrame(kind: .heartbeat, origin: 0, seq: 0, path: [0, 1, 2]), at: 3, core: &core, now: .seconds(1))
        let afterFirst = core.sessionLayer.wire.outbox.count
        routing.controlArrived(
            MeshFrame(kind: .heartbeat, origin: 0, seq: 0, path: [0, 2]), at: 3, core: &core,
            now: .seconds(1) + .milliseconds(5))
        return (
            core.routes.route(at: 3 * 4 + 0, time: .seconds(2))?.path, core.sessionLayer.wire.outbox.count - afterFirst
        )
    }

    @Test func aHeartbeatSeenBeforeIsDropped() {
        // The first copy makes the route 3–2–1–0 and is forwarded; the second is dropped.
        let dropped = routeAfterTwoCopies(drop: true)
        expectEqual(dropped.path, [3, 2, 1, 0])
        expectEqual(dropped.forwarded, 0)
    }

    @Test func withTheSwitchOffAShorterLaterCopyReplacesTheRoute() {
        // The shorter copy (2 hops against 3) becomes the route 3–2–0 and is forwarded to 3's
        // session peers, 1 and 2: two frames.
        let kept = routeAfterTwoCopies(drop: false)
        expectEqual(kept.path, [3, 2, 0])
        expectEqual(kept.forwarded, 2)
    }
}

import Foundation
import Testing
@testable import AdHocSim

/// Classic DSR (RFC 4728 subset) under the same sessions and messages as MAdHoc's mesh.
@Suite("Mesh: classic DSR")
struct ClassicDsrTests {
    func scenario(
        _ nodes: [(String, Double, Double)], messages: JSON, events: JSON = [], duration: Double = 40
    ) throws -> Scenario {
        try MeshScenarioText.scenario(
            nodes, mesh: ["routing": "dsr", "messages": messages], events: events, duration: duration, seed: 4)
    }

    func run(_ s: Scenario) -> (World<WirelessLink>, MeshMetrics) {
        var sim = Simulation(seed: s.seed)
        var w = World<WirelessLink>(s, sim: &sim)
        _ = sim.run(&w, until: s.duration)
        return (w, MeshMetrics(w.layers.mesh!, end: sim.now))
    }

    @Test func oneDiscoveryFindsTheLineAndCostsExactlyItsFrames() throws {
        // A B C D, 30 m apart (sessions only between neighbours). The first message at 1 s
        // starts a discovery: A sends the request [A] (32 + 8 = 40 B) to its one peer, B
        // forwards [A B] (48 B) to both its peers (A drops it), C forwards [A B C] (56 B) to both
        // its peers; D, the target, replies along D C B A (64 B per hop). A flooded frame goes
        // as one unicast per session peer (`floodSend`). Sessions form at 0 s, so no request is
        // lost to a missing session.
        let s = try scenario(
            [("A", 0, 0), ("B", 30, 0), ("C", 60, 0), ("D", 90, 0)],
            messages: [["id": "m", "from": "A", "to": "D", "size_bytes": 100, "count": 5, "interval_s": 1, "start_s": 1]],
            duration: 10)
        let (w, m) = run(s)
        expectEqual(m.nodes.map(\.controlFrames), [1, 3, 3, 1])
        // Every frame also carries the encrypted session's 37-byte DTLS record (13-byte header,
        // 8-byte explicit nonce, 16-byte tag; `SessionConfig.dtlsRecordBytes`).
        let r: UInt64 = 37
        let bytes: [UInt64] = [40 + r, 2 * (48 + r) + 64 + r, 2 * (56 + r) + 64 + r, 64 + r]
        expectEqual(m.nodes.map(\.controlBytes), bytes)
        expectEqual(w.layers.mesh!.route(from: 0, to: 3, at: .seconds(10))?.path, [0, 1, 2, 3])
        // The target caches the reversed route; nobody else learned anything.
        expectEqual(w.layers.mesh!.route(from: 3, to: 0, at: .seconds(10))?.path, [3, 2, 1, 0])
        expectEqual(m.pairsRouted, 2)
        expect(m.workloads[0].delivered == 5 && m.workloads[0].meanHops == 3)
        // The first message waited for the discovery; the others found the cached route.
        expectEqual(m.workloads[0].attemptsWithoutRoute, 1)
    }

    @Test func aBrokenLinkSendsARouteErrorAndTheSourceRediscovers() throws {
        // A – B – {C1 or C2} – D: B reaches D through either C; C1 and C2 are 20 m apart.
        let nodes = [("A", 0.0, 0.0), ("B", 30, 0), ("C1", 60, 10), ("C2", 60, -10), ("D", 90, 0)]
        let messages: JSON = [
            ["id": "m", "from": "A", "to": "D", "size_bytes": 100, "count": 30, "interval_s": 1, "start_s": 1]
        ]
        let (probe, _) = run(try scenario(nodes, messages: messages, duration: 5))
        let relay = try require(probe.layers.mesh!.route(from: 0, to: 4, at: .seconds(5))).path[2]
        let other = relay == 2 ? 3 : 2
        let (w, m) = run(
            try scenario(
                nodes, messages: messages,
                events: [["at_s": 10, "node": .string(relay == 2 ? "C1" : "C2"), "action": "fail"]]))
        // B's unicast to the failed relay exhausts its retries (or the peer leaves B's
        // session): B sends a route error to A, which forgets the route and rediscovers.
        expect(w.layers.mesh!.recorder.routeErrors >= 1)
        expectEqual(w.layers.mesh!.route(from: 0, to: 4, at: .seconds(40))?.path, [0, 1, other, 4])
        expect(m.nodes[0].controlFrames >= 2)  // at least two requests from A
        expectEqual(m.workloads[0].delivered, 30)
        let repair = try require(m.repairs.first)
        expect(repair.brokenPairs >= 1 && repair.repairTimes.count == repair.brokenPairs)
    }

    @Test func aMessageWaitingForARouteIsSentOnceHoweverOftenItWasRetried() throws {
        // C joins at 10 s. A's message (1 s) finds no route: requests go at 1, 1.5, 2.5, 4.5
        // and 8.5 s (waits 0.5, 1, 2, 4, 8 s), the next at 16.5 s. Meanwhile the confirmation
        // timeouts (4 s) retry at 5, 9 and 13 s, and every retry waits in the send buffer.
        // The 16.5 s request reaches C; when its reply arrives the message goes once.
        let s = try scenario(
            [("A", 0, 0), ("B", 30, 0), ("C", 60, 0)],
            messages: [["id": "m", "from": "A", "to": "C", "size_bytes": 10, "count": 1, "interval_s": 1, "start_s": 1]],
            events: [["at_s": 10, "node": "C", "action": "join"]], duration: 30)
        let (_, m) = run(s)
        expect(m.workloads[0].attempts == 4 && m.workloads[0].attemptsWithoutRoute == 4)
        expectEqual(m.workloads[0].delivered, 1)
        expectEqual(m.nodes[0].messageFrames, 1)
        expectEqual(m.nodes[0].controlFrames, 6)  // requests at 1, 1.5, 2.5, 4.5, 8.5, 16.5 s
        let established = try require(m.workloads[0].routeEstablished)
        expect(established > .milliseconds(16_500) && established < .milliseconds(16_600))
    }

    /// One phone over Wi-Fi for a second, with this `mesh` section.
    static func onePhone(mesh: JSON) -> TestScenario {
        var t = TestScenario(name: "x", seed: 1, duration: 1, radio: ["technology": "wifi"])
        t.place("A", 0, 0, z: 1)
        t["mesh"] = mesh
        return t
    }

    @Test func keysNeedHeartbeatPaths() throws {
        let text = Self.onePhone(mesh: ["routing": "dsr", "keyPaths": 2]).text
        do {
            _ = try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "x")
            Issue.record("accepted keyPaths with classic DSR")
        } catch {
            expect("\(error)".contains("mesh.keyPaths: path-derived keys come from heartbeat paths"))
        }
        // `--set mesh.keyPaths=null` turns the key report off, so a heartbeat scenario with keys
        // can be rerun with classic DSR (the README's mesh-chat command).
        let s = try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "x", overrides: ["mesh.keyPaths=null"])
        expect(s.mesh?.keyPaths == nil)
        expectEqual(s.mesh?.routing, "dsr")
    }

    @Test func unknownRoutingProtocolsAreBadInput() throws {
        let text = Self.onePhone(mesh: ["routing": "aodv"]).text
        #expect(throws: ScenarioError.self) { try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "x") }
        do { _ = try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "x") } catch {
            expect("\(error)".contains("mesh.routing"))
            expect("\(error)".contains("dsr-heartbeat"))
        }
    }
}

import Testing

@testable import AdHocSim

/// The apps' discovery before a flow (`flows[i].discovery`), by hand on the ideal link
/// (100 Mbit/s, 25 ms each way): the listener's first probe falls in [0, 250) ms after app
/// start, it may answer 3 × 250 ms later (RFC 6762 §8.1) and announces then; the announcement,
/// 250 bytes, arrives 250 · 8 / 10⁸ s + 25 ms = 25.02 ms later. The browser's first query (20–
/// 120 ms) reaches the listener before it may answer and goes unanswered; its second, 1 s later,
/// could bring an answer at 1 090 ms at the earliest, after the announcement (at most 1 025 ms).
/// So found = first probe + 750 ms + 25.02 ms, and ready = found + the connection's set-up, the
/// same as the flow's handshake without discovery.
struct AppDiscoveryTests {
    func run(_ proto: String, discovery: Bool) throws -> FlowMetrics {
        var s = TestScenario.twoPhones(
            name: "d", seed: 3, duration: 20, radio: ["technology": "ideal"], protocol: proto,
            workload: ["kind": "thesis", "probes": 10, "packets": 10, "size": 100])
        s["link"] = ["rateMbps": 100, "delayMs": 25]
        if discovery, case .array(var flows) = s["flows"] {
            flows[0]["discovery"] = true
            s["flows"] = .array(flows)
        }
        return try ScenarioRunner.run(s.decoded()).flows[0]
    }

    @Test(arguments: ["tcp", "quic", "udp"])
    func theDiscoveryTimeIsTheSumOfItsSteps(_ proto: String) throws {
        let m = try run(proto, discovery: true)
        let d = try require(m.discovery)
        let probe = try require(d.firstProbe)
        expect(probe >= d.appStart && probe < d.appStart + .milliseconds(250), "\(probe)")
        expectEqual(try require(d.announced), probe + .milliseconds(750))
        expectEqual(try require(d.found), probe + .milliseconds(750) + .microseconds(25_020))
        // The connection's set-up is the same as without discovery (UDP's is none).
        let plain = try run(proto, discovery: false)
        let setUp = try require(d.ready) - (try require(d.found))
        expectEqual(setUp.inMilliseconds, plain.handshakeMs ?? 0, "\(proto)")
        expectEqual(d.queries, 1)
        expect(try require(m.firstEcho) > (try require(d.ready)))
    }

    @Test func aFlowWithoutDiscoveryConnectsAtItsStart() throws {
        let m = try run("tcp", discovery: false)
        expect(m.discovery == nil)
        expectEqual(m.connectingAt, .zero)
    }
}

/// Discovery is the apps' Bonjour over the link: a flow across the mesh cannot use it.
struct AppDiscoveryInputTests {
    @Test func aFlowAcrossTheMeshIsRefusedDiscovery() {
        var s = TestScenario.twoPhones(
            protocol: "tcp", workload: ["kind": "bulk", "bytes": 1000])
        s["mesh"] = [:]
        if case .array(var flows) = s["flows"] {
            flows[0]["discovery"] = true
            s["flows"] = .array(flows)
        }
        let d = s.problems
        expect(d.count == 1 && d[0].path == "flows[0].discovery", "\(d)")
    }
}

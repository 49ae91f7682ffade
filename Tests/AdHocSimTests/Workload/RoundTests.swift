import Foundation
import Testing

@testable import AdHocSim

/// A round: the thesis app's TCP, UDP and QUIC tests between the same two phones, started by one
/// tap, their connections sharing each phone's main queue (`flows[i].protocol` as a list).
/// Expected values are worked out by hand from the costs, the link delay and the AWDL slots.
struct RoundTests {
    /// Two phones 5 m apart with one flow entry `f` of `protocols` (a string or a list).
    static func scenario(
        _ protocols: JSON, radio: JSON = ["technology": "ideal"], host: JSON, probes: Int = 100,
        startPhase: JSON? = nil
    ) -> TestScenario {
        var s = TestScenario(name: "round", seed: 3, duration: 30, environment: ["preset": "field", "shadowingSigmaDb": 0], radio: radio)
        s.place("c", 0, 0)
        s.place("s", 5, 0)
        var workload: JSON = ["kind": "thesis", "probes": .integer(probes), "packets": 10, "size": 128]
        if let startPhase { workload["startPhase"] = startPhase }
        s["link"] = ["rateMbps": 1000, "delayMs": 5]
        s["host"] = host
        s["flows"] = [["id": "f", "from": "c", "to": "s", "protocol": protocols, "workload": workload]]
        return s
    }

    /// Costs with one per-message cost and nothing else: no spread, never cold, no packet cost.
    static func costs(sendUs: Int = 0, receiveUs: Int = 0, more: JSON = [:]) -> JSON {
        var h: JSON = ["sendUs": .integer(sendUs), "receiveUs": .integer(receiveUs), "packetUs": 0, "spread": 0, "coldFactor": 1]
        if case .object(let pairs) = more { for p in pairs { h[p.key] = p.value } }
        return h
    }

    /// A list of transports becomes one flow per transport, in list order, named `<id>-<protocol>`,
    /// between the same two phones, each naming the round's first flow; a repeated or unknown
    /// transport and an empty list are bad input at their path.
    @Test func aListOfProtocolsMakesOneFlowPerTransport() throws {
        let s = try RoundTests.scenario(["udp", "tcp", "quic"], host: RoundTests.costs()).decoded()
        expectEqual(s.flows.map(\.id), ["f-udp", "f-tcp", "f-quic"])
        expectEqual(s.flows.map(\.transport), [.udp, .tcp, .quic])
        expectEqual(s.flows.map(\.round), [0, 0, 0])
        expect(s.flows.allSatisfy { $0.from == 0 && $0.to == 1 })
        let single = try RoundTests.scenario("tcp", host: RoundTests.costs()).decoded()
        expectEqual(single.flows.map(\.id), ["f"])
        expectEqual(single.flows[0].round, nil)
        let twice = RoundTests.scenario(["udp", "udp"], host: RoundTests.costs()).problems
        expect(twice.contains { $0.path == "flows[0].protocol[1]" && $0.message.contains("appears twice") }, "\(twice)")
        let unknown = RoundTests.scenario(["udp", "sctp"], host: RoundTests.costs()).problems
        expect(unknown.contains { $0.path == "flows[0].protocol[1]" }, "\(unknown)")
        let empty = RoundTests.scenario([], host: RoundTests.costs()).problems
        expect(empty.contains { $0.path == "flows[0].protocol" && $0.message.contains("empty") }, "\(empty)")
        // The round's own keys cannot act without a round: bad input at their path.
        var solo = RoundTests.scenario("udp", host: RoundTests.costs(more: ["roundQueue": "per-connection"]))
        expect(solo.problems.contains { $0.path == "host.roundQueue" }, "\(solo.problems)")
        solo = RoundTests.scenario("udp", host: RoundTests.costs())
        solo["flows"] = [["id": "f", "from": "c", "to": "s", "protocol": "udp", "roundStart": "in-turn",
                          "workload": ["kind": "thesis", "probes": 10, "packets": 10, "size": 128]]]
        expect(solo.problems.contains { $0.path == "flows[0].roundStart" && $0.message.contains("not a round") }, "\(solo.problems)")
    }

    /// One tap starts every flow of the round: the three probe bursts begin at one instant, the
    /// app's 5–7 s of idleness after the last connection was ready (the handshakes take under
    /// 20 ms on this link).
    @Test func oneTapStartsTheRound() throws {
        let r = try RoundTests.scenario(["udp", "tcp", "quic"], host: RoundTests.costs(sendUs: 20)).run()
        let starts = r.flows.map(\.testStartedAt)
        expect(starts.allSatisfy { $0 != nil && $0 == starts[0] }, "\(starts)")
        let ready = r.flows.compactMap(\.connectingAt).max()!
        expect(starts[0]! >= ready + FlowApplication.idleBeforeTest)
        expect(starts[0]! <= ready + .milliseconds(20) + FlowApplication.idleBeforeTest + FlowApplication.idleSpread)
    }

    /// In turn, each test starts when the one before wrote its last message: UDP's 100 probes,
    /// the app's 1 s pause and its 10 writes (each completing as the stack takes it, 20 µs)
    /// come first, so TCP's burst begins at UDP's start + 1 s + 10 × 20 µs, later than that
    /// by no more than the probes' own 100 × 20 µs of sends; QUIC's follows TCP's.
    @Test func inTurnEachTestFollowsTheOneBefore() throws {
        var s = RoundTests.scenario(["udp", "tcp", "quic"], host: RoundTests.costs(sendUs: 20))
        s["flows"] = [["id": "f", "from": "c", "to": "s", "protocol": ["udp", "tcp", "quic"],
                       "workload": ["kind": "thesis", "probes": 100, "packets": 10, "size": 128], "roundStart": "in-turn"]]
        let r = try s.run()
        let (udp, tcp, quic) = (r.flows[0].testStartedAt!, r.flows[1].testStartedAt!, r.flows[2].testStartedAt!)
        let earliest = udp + FlowApplication.pauseAfterProbes + .microseconds(200)
        expect(tcp >= earliest && tcp <= earliest + .microseconds(2_000), "udp \(udp) tcp \(tcp)")
        expect(quic > tcp + FlowApplication.pauseAfterProbes, "tcp \(tcp) quic \(quic)")
    }

    /// The burst through one connection's serial queue, by hand: P = 100 probes stamped at one
    /// instant, each send costing c = 1 ms on the client, receives free, a 5 ms link each way.
    /// Probe i leaves at (i + 1)·c; the server echoes it after its own send cost c; but the
    /// client's queue runs its 100 sends first, so no echo completes before P·c = 100 ms:
    /// RTT_i = max(100, (i + 1) + 1 + 10) ms. Probes 0–88 take 100 ms, probes 89–99 take
    /// 101…111 ms: mean (89·100 + Σ_{k=101}^{111} k) / 100 = (8900 + 1166) / 100 = 100.66 ms.
    @Test func aProbeBurstQueuesBehindItsOwnSends() throws {
        let r = try RoundTests.scenario("udp", host: RoundTests.costs(sendUs: 1000)).run()
        let m = r.flows[0]
        // The ideal link's 1000 Mbit/s adds under a microsecond per packet.
        expect(abs(m.rttMean! - 100.66) < 0.01, "mean \(m.rttMean!)")
        expect(abs(m.rttMin! - 100) < 0.01, "min \(m.rttMin!)")
        expect(abs(m.rttMax! - 111) < 0.01, "max \(m.rttMax!)")
    }

    /// The shared main queue, by hand: a round of UDP then QUIC, 100 probes each, every receive
    /// completion costing r = 100 µs (two per message), nothing else, 5 ms each way. UDP's
    /// probes reach the server first: its message i is read by 5 + 0.2·(i + 1) ms, echoed, and
    /// read back at the client 0.2 ms after it arrives: RTT = 10.4 + 0.2·i ms, mean 20.3 ms.
    /// QUIC's reads wait behind UDP's 200 on both phones' main queues (20 ms): RTT = 30.4 +
    /// 0.2·i ms, mean 40.3 ms. With a queue per connection QUIC is read at once, as UDP is:
    /// 10.45 + 0.2·i ms (its packets 0.05 ms longer on the air), mean 20.35 ms.
    @Test func aRoundsConnectionsShareEachPhonesMainQueue() throws {
        let shared = try RoundTests.scenario(["udp", "quic"], host: RoundTests.costs(receiveUs: 100)).run()
        expect(abs(shared.flows[0].rttMean! - 20.3) < 0.01, "udp \(shared.flows[0].rttMean!)")
        expect(abs(shared.flows[1].rttMean! - 40.3) < 0.01, "quic \(shared.flows[1].rttMean!)")
        expect(abs(shared.flows[1].rttMin! - 30.4) < 0.01, "quic min \(shared.flows[1].rttMin!)")
        let own = try RoundTests.scenario(
            ["udp", "quic"], host: RoundTests.costs(receiveUs: 100, more: ["roundQueue": "per-connection"])
        ).run()
        expect(abs(own.flows[0].rttMean! - 20.3) < 0.01, "udp \(own.flows[0].rttMean!)")
        expect(abs(own.flows[1].rttMean! - 20.35) < 0.06, "quic \(own.flows[1].rttMean!)")
    }

    /// The round's flows share one AWDL link: TCP's keepalive (idle 2 s) keeps the pair's
    /// presence active for the UDP flow beside it. The tap falls 1.06 ms into slot 1 of the
    /// sequence (startPhase 0.0666 s), at least 5 s after the connections opened, with a hold of
    /// 3 s: alone, UDP finds the idle sequence (channel 149 in slots 0, 9, 10) and its first
    /// probe waits for slot 9, 9 × 65.536 − 66.6 = 523.224 ms; beside TCP, slot 1 is in the active
    /// sequence (slots 0–5, 9–13) and the probes cross at once. QUIC has no keepalive: beside it
    /// UDP waits as it does alone.
    @Test func oneFlowsKeepaliveKeepsTheLinkAwakeForTheOthers() throws {
        let radio: JSON = ["technology": "awdl", "awdlHoldMs": 3000]
        let phase: JSON = 0.0666
        func udp(_ protocols: JSON) throws -> FlowMetrics {
            let r = try RoundTests.scenario(protocols, radio: radio, host: RoundTests.costs(), probes: 10, startPhase: phase).run()
            return r.flows[r.scenario.flows.firstIndex { $0.transport == .udp }!]
        }
        let alone = try udp(["udp"])
        expect(alone.rttMin! >= 523.224, "alone \(alone.rttMin!)")
        let besideTcp = try udp(["tcp", "udp"])
        expect(besideTcp.rttMax! < 10, "beside TCP \(besideTcp.rttMax!)")
        let besideQuic = try udp(["quic", "udp"])
        expect(besideQuic.rttMin! >= 523.224, "beside QUIC \(besideQuic.rttMin!)")
    }

    /// `adhocsim calibrate` on the round layout recovers a cost it did not see: per-test rows of
    /// a UDP-and-TCP round generated with `host.sendUs` = 80 µs (three seeds at each of two
    /// distances, both protocols' probe and transfer rows from each run), fitted over 0…200 µs
    /// with every other value known. One round run serves both protocols' rows of its cell.
    @Test(ScaleCheck.trait) func calibrateRecoversAKnownCostOnTheRoundLayout() throws {
        let dir = try temporaryFolder()
        var t = TestScenario.twoPhones(
            name: "cal", seed: 5, duration: 60, radio: ["technology": "ideal"], protocol: "udp",
            workload: ["kind": "thesis", "probes": 20, "packets": 200, "size": 1000])
        t["flows"] = [["id": "f", "from": "c", "to": "s", "protocol": ["udp", "tcp"],
                       "workload": ["kind": "thesis", "probes": 20, "packets": 200, "size": 1000], "roundStart": "in-turn"]]
        t["link"] = ["rateMbps": 1000, "delayMs": 5]
        t["host"] = ["sendUs": 50, "receiveUs": 0, "spread": 0.5, "coldFactor": 1]
        t["matrix"] = ["distance_m": [5, 10]]
        let file = dir.appendingPathComponent("cal.json").path
        try t.text.write(toFile: file, atomically: true, encoding: .utf8)
        var lines = [FieldDataTests.header]
        for d in [5, 10] {
            for seed in 0..<3 {
                let r = try ScenarioRunner.run(
                    try ScenarioDecoder.load(path: file, overrides: ["host.sendUs=80", "distance_m=\(d)", "seed=\(2000 + seed * 7 + d)"]))
                for (k, proto) in ["UDP", "TCP"].enumerated() {
                    let m = r.flows[k]
                    lines.append(
                        FieldDataTests.row(side: "client", proto: proto, place: "Field", d: d, rtt: "\(m.rttMean!)", sd: "\(m.rttSdSample!)"))
                    lines.append(
                        FieldDataTests.row(
                            side: "server", proto: proto, place: "Field", d: d, n: "200", s: "1000", rate: "\(m.dataRateMbps!)",
                            loss: proto == "UDP" ? "\(m.lossPct!)" : ""))
                }
            }
        }
        let table = try MeasuredTable(text: lines.joined(separator: "\n") + "\n", file: "own.csv")
        let problem = try CalibrationProblem(
            scenarioPath: file, overrides: [], parameters: [FitParameter(argument: "host.sendUs=0:200")],
            measured: table, repeats: 6)
        expect(problem.isRound)
        // A protocol the round does not run is refused with its line.
        let quic = try MeasuredTable(
            text: lines.joined(separator: "\n") + "\n" + FieldDataTests.row(side: "client", proto: "QUIC", place: "Field", d: 5, rtt: "40", sd: "5") + "\n",
            file: "own.csv")
        #expect {
            _ = try CalibrationProblem(
                scenarioPath: file, overrides: [], parameters: [FitParameter(argument: "host.sendUs=0:200")], measured: quic, repeats: 1)
        } throws: { error in
            "\(error)".contains("own.csv:26: error: column protocol: quic is not in the scenario's round (flows[0].protocol: udp, tcp)")
        }
        let r = try Calibration.run(problem, measured: problem.measured, holdout: [], workers: 2, maxEvaluations: 40)
        expect(abs(r.values[0].value - 80) < 8, "sendUs \(r.values[0].value)")
    }
}

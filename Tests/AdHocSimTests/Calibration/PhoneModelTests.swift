import Foundation
import Testing

@testable import AdHocSim

/// The phone mechanisms, each against a hand calculation.
@Suite("Phone model")
struct PhoneModelTests {
    /// One thesis flow between two phones 10 m apart on the ideal link.
    static func idealRun(
        seed: Int = 1, delayMs: Double, host: JSON, protocol proto: String, probes: Int, packets: Int,
        extra: [String] = []
    ) throws -> FlowMetrics {
        var s = TestScenario.twoPhones(
            name: "p", seed: seed, duration: 20, radio: ["technology": "ideal"], protocol: proto,
            workload: ["kind": "thesis", "probes": .integer(probes), "packets": .integer(packets), "size": 100])
        s["link"] = ["rateMbps": 100, "delayMs": .number(delayMs)]
        s["host"] = host
        return try ScenarioRunner.run(s.decoded(overrides: extra)).flows[0]
    }

    /// The send buffer keeps what fits and loses the rest, and the app is never held back.
    /// Ideal link of one packet's queue at 0.1 Mbit/s: a 100-byte message with its UDP and IP
    /// headers takes about 10 ms on the air, while the app writes one every 10 µs (send cost 10 µs,
    /// no other cost), so all 20 writes are made before the first datagram has left. By hand:
    /// w1 enters the buffer and goes straight to the link's empty queue; w2–w6 fill the 500-byte
    /// buffer (5 × 100); w7–w20 do not fit and are lost: 6 of 20 delivered, 70 % loss. With no
    /// send buffer the sender waits for the link instead and nothing is lost.
    @Test func theSendBufferLosesWhatDoesNotFit() throws {
        let host: JSON = [
            "sendUs": 10, "receiveUs": 0, "packetUs": 0, "spread": 0, "coldFactor": 1, "interfaceQueue": "blocking",
            "udpSendBufferBytes": 500
        ]
        let link = ["link.rateMbps=0.1", "link.queuePackets=1"]
        let lossy = try PhoneModelTests.idealRun(
            delayMs: 1, host: host, protocol: "udp", probes: 1, packets: 20, extra: link)
        expectEqual(lossy.lossPct, 70)
        // summary.csv says where: the 14 at the send buffer, none at the receiver.
        expect(lossy.sendBufferDrops == 14 && lossy.receiveBufferDrops == 0)
        let waiting = try PhoneModelTests.idealRun(
            delayMs: 1, host: host, protocol: "udp", probes: 1, packets: 20,
            extra: link + ["host.udpSendBufferBytes=0"])
        expectEqual(waiting.lossPct, 0)
        expect(waiting.sendBufferDrops == 0 && waiting.receiveBufferDrops == 0)
    }

    /// A buffer of zero bytes keeps nothing (every datagram passes through the socket buffer),
    /// and a transfer that delivered nothing is reported failed, not ok.
    @Test func aTransferThatDeliveredNothingFails() throws {
        let m = try PhoneModelTests.idealRun(
            delayMs: 2, host: ["udpReceiveBufferBytes": 0], protocol: "udp", probes: 5, packets: 20)
        expectEqual(m.status, "failed:nothing-delivered")
        expectEqual(m.lossPct, 100)
        // Every one of the 20 datagrams was dropped at the server's full (empty) buffer.
        expect(m.receiveBufferDrops >= 20 && m.sendBufferDrops == 0)
        expect(m.rttsMs.isEmpty)
    }

    /// XNU ACKs a PUSH segment at once. Ten TCP probes on an ideal 5 ms link with no host cost:
    /// Nagle holds probes 1–9 until probe 0 is acknowledged and the server's echoes behind its
    /// first one; with the ACK on PUSH every exchange is one 10 ms round trip, so no probe waits
    /// near the 100 ms delayed-ACK timer. Without it (RFC 1122's plain delayed ACK) the client
    /// delays the ACK of the first echo and the server's Nagle waits for it: ≥ 100 ms.
    @Test func theAckOfAPushSegmentIsNotDelayed() throws {
        func maxRtt(_ extra: [String]) throws -> Double {
            let m = try PhoneModelTests.idealRun(
                delayMs: 5, host: ["sendUs": 0, "receiveUs": 0], protocol: "tcp", probes: 10, packets: 1,
                extra: extra)
            expectEqual(m.rttsMs.count, 10)
            return m.rttsMs.max() ?? 0
        }
        expect(try maxRtt([]) < 50)
        expect(try maxRtt(["transport.tcp.ackOnPush=false"]) >= 100)
    }

    /// The sample SD is the population SD × √(n/(n − 1)).
    @Test func theAppsJitterIsTheSampleSd() throws {
        let m = try PhoneModelTests.idealRun(
            seed: 4, delayMs: 2, host: ["sendUs": 100, "receiveUs": 10], protocol: "udp", probes: 100, packets: 1)
        let n = Double(m.rttsMs.count)
        expectEqual(n, 100)
        expect(abs(m.rttSdSample! - m.rttSd! * (n / (n - 1)).squareRoot()) < 1e-9)
    }
}

/// Per-test field data: reading it as it is, grouping by medians, and the comparison report.
@Suite("Field data")
struct FieldDataTests {
    static let header =
        "dataset,side,protocol,place,distance_label,distance_m,date,time,probes_count,probes_design,rtt_mean_ms,rtt_sd_sample_ms,rtt_sd_pop_ms_derived,rtt_min_ms,rtt_p50_ms,rtt_max_ms,N,S,recv_packets_derived,bytes_received_derived,duration_s_derived,rate_mbps,loss_pct,failed,source_file"

    /// A row of the layout: probe tests give RTT and SD, transfers rate and loss.
    static func row(
        side: String, proto: String, place: String, d: Int, rtt: String = "", sd: String = "", n: String = "",
        s: String = "", rate: String = "", loss: String = "", failed: String = "0"
    ) -> String {
        "study,\(side),\(proto),\(place),\(d),\(d),1.5.2025,11:00:00,,100,\(rtt),\(sd),,,,,\(n),\(s),,,,\(rate),\(loss),\(failed),x.csv"
    }

    static let table: String = {
        var lines = [header]
        // Field UDP probes: RTT 40, 300, 320 (median 300), SD 10, 20, 30 (median 20).
        for (d, rtt, sd) in [(1, "40", "10"), (5, "300", "20"), (10, "320", "30")] {
            lines.append(row(side: "client", proto: "UDP", place: "Field", d: d, rtt: rtt, sd: sd))
        }
        // Field UDP 1000 × 128: rates 10 and 20 (median 15), loss 0 and 10 (median 5).
        lines.append(
            row(side: "server", proto: "UDP", place: "Field", d: 1, n: "1000", s: "128", rate: "10", loss: "0"))
        lines.append(
            row(side: "server", proto: "UDP", place: "Field", d: 5, n: "1000", s: "128", rate: "20", loss: "10"))
        // A single TCP transfer: a group of one test is left out.
        lines.append(row(side: "server", proto: "TCP", place: "Field", d: 1, n: "100", s: "128", rate: "5", loss: "0"))
        // Skipped: a failed test, and a place with no preset.
        lines.append(row(side: "server", proto: "QUIC", place: "Forest", d: 1, failed: "1"))
        lines.append(row(side: "client", proto: "TCP", place: "Home", d: 1, rtt: "45", sd: "13"))
        return lines.joined(separator: "\r\n") + "\r\n"  // the published file ends lines with CRLF
    }()

    @Test func theLayoutIsReadAsItIsAndGroupedByMedians() throws {
        let t = try MeasuredTable(text: FieldDataTests.table, file: "dev.csv")
        expectEqual(t.aggregation, .groupMedian)
        expectEqual(t.rows.count, 6)
        expectEqual(
            t.notes,
            ["1 failed test skipped (failed=1: no figures)", "1 test of place \"Home\" skipped (no place preset)"])
        let groups = MeasuredCell.group(t.rows, t.aggregation)
        expectEqual(groups.map(\.label), ["field udp probes", "field udp 1000 × 128 B"])
        let k = { (m: CalibrationMetric) in CalibrationMetric.allCases.firstIndex(of: m)! }
        expect(groups[0].means[k(.rttMean)] == 300 && groups[0].means[k(.rttSdSample)] == 20)
        expectEqual(groups[0].runs.map(\.distance), ["1", "5", "10"])
        expect(groups[1].means[k(.dataRate)] == 15 && groups[1].means[k(.loss)] == 5)
        expectEqual(groups[1].counts[k(.dataRate)], 1)
    }

    /// The comparison takes the sweep rows of each group's place, protocol and distances (and
    /// size and count for transfers) and their median: RTT 300 against a median of 200 and 250
    /// (225: within 1.5×, 0.75), SD 20 against 50 (2.5×: not), rate 15 against 40 (2.67×: not),
    /// loss 5 against 12 (7 points: within 10).
    @Test func theComparisonCountsWhatAgrees() throws {
        let cells = """
            environment,protocol,distance_m,packets,size_bytes,rtt_mean_ms,rtt_sd_sample_ms,data_rate_mbps,loss_pct
            field,udp,1.00,1000,128,200,50,40,12
            field,udp,5.00,100,128,250,50,,
            field,udp,30.00,1000,128,999,999,999,99
            forest,udp,1.00,1000,128,1,1,1,1

            """
        let t = try MeasuredTable(text: FieldDataTests.table, file: "dev.csv")
        let c = try FieldComparison(cellsCSV: cells, file: "cells.csv", measured: t)
        let byMetric = Dictionary(uniqueKeysWithValues: c.rows.map { ($0.metric, $0) })
        expect(byMetric[.rttMean]?.simulated == 225 && byMetric[.rttMean]?.agrees == true)
        expect(byMetric[.rttSdSample]?.simulated == 50 && byMetric[.rttSdSample]?.agrees == false)
        expect(byMetric[.dataRate]?.simulated == 40 && byMetric[.dataRate]?.agrees == false)
        expect(byMetric[.loss]?.simulated == 12 && byMetric[.loss]?.agrees == true)
        expect(c.tally.map(\.agree) == [1, 0, 1] && c.tally.map(\.total) == [2, 1, 1])
        expectEqual(
            c.charts.map(\.name),
            ["compare-rtt.svg", "compare-jitter.svg", "compare-rate-field-udp.svg", "compare-loss-field.svg"])
    }

    /// calibrate recovers a known parameter from per-test data the simulator made itself, by
    /// medians over seeds: probe tests and transfers of a UDP flow on the ideal link made with
    /// sendUs = 80 µs and a per-message spread of 0.5 (so single tests scatter), six tests per
    /// group; fitting sendUs in 0…200 µs with six repeats finds it within 8 µs.
    @Test(ScaleCheck.trait) func calibrateRecoversAKnownCostFromMediansOverSeeds() throws {
        let dir = try temporaryFolder()
        var t = TestScenario.twoPhones(
            name: "cal", seed: 5, duration: 60, radio: ["technology": "ideal"], protocol: "udp",
            workload: ["kind": "thesis", "probes": 20, "packets": 200, "size": 1000])
        t["link"] = ["rateMbps": 1000, "delayMs": 5]
        t["host"] = ["sendUs": 50, "receiveUs": 0, "spread": 0.5, "coldFactor": 1]
        t["matrix"] = ["distance_m": [5, 10]]
        let scenario = t.text
        let file = dir.appendingPathComponent("cal.json").path
        try scenario.write(toFile: file, atomically: true, encoding: .utf8)
        var lines = [FieldDataTests.header]
        for d in [5, 10] {
            for seed in 0..<3 {
                let r = try ScenarioRunner.run(
                    try ScenarioDecoder.load(
                        path: file, overrides: ["host.sendUs=80", "distance_m=\(d)", "seed=\(1000 + seed * 7 + d)"]))
                let m = r.flows[0]
                lines.append(
                    FieldDataTests.row(
                        side: "client", proto: "UDP", place: "Field", d: d, rtt: "\(m.rttMean!)",
                        sd: "\(m.rttSdSample!)"))
                lines.append(
                    FieldDataTests.row(
                        side: "server", proto: "UDP", place: "Field", d: d, n: "200", s: "1000",
                        rate: "\(m.dataRateMbps!)",
                        loss: "\(m.lossPct!)"))
            }
        }
        let table = try MeasuredTable(text: lines.joined(separator: "\n") + "\n", file: "own.csv")
        let problem = try CalibrationProblem(
            scenarioPath: file, overrides: [], parameters: [FitParameter(argument: "host.sendUs=0:200")],
            measured: table, repeats: 6)
        let r = try Calibration.run(problem, measured: problem.measured, holdout: [], workers: 2, maxEvaluations: 40)
        expectEqual(r.fitted.count, 2)
        expect(abs(r.values[0].value - 80) < 8, "sendUs \(r.values[0].value)")
    }
}

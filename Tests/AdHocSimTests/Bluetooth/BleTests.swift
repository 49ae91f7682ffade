import Foundation
import Testing

@testable import AdHocSim

/// A BLE scenario on an idealised channel (free-space exponent, no shadowing, fading or
/// blockage), or in the preset `place`: `nodes` as (id, x, y) at ground level, `ble` the
/// section, `more` further top-level keys.
func bleScenario(
    nodes: [(String, Double, Double)], ble: JSON, duration: Double = 10, seed: UInt64 = 1, place: String? = nil,
    more: JSON = [:]
) throws -> Scenario {
    let environment: JSON =
        place.map { ["preset": .string($0)] }
        ?? [
            "preset": "custom", "pathLossExponent": 2, "referenceLossDb": 40.2, "shadowingSigmaDb": 0,
            "noiseFigureDb": 7, "interferenceDb": 0,
        ]
    var s = TestScenario(seed: Int(seed), duration: duration, environment: environment, radio: nil)
    if case .object(let pairs) = more { for p in pairs { s[p.key] = p.value } }
    for (id, x, y) in nodes { s.place(id, x, y, z: 0) }
    s["ble"] = ble
    return try s.decoded()
}

/// The same with the `ble` section and the extra keys (`extra`, ending in a comma) as JSON
/// text: the suites still written that way.
func bleScenario(
    nodes: [(String, Double, Double)], ble: String, duration: Double = 10, seed: UInt64 = 1, place: String? = nil,
    extra: String = ""
) throws -> Scenario {
    let nodeList = nodes.map { "{\"id\": \"\($0.0)\", \"position\": [\($0.1), \($0.2), 0]}" }.joined(separator: ", ")
    let environment =
        place.map { "{\"preset\": \"\($0)\"}" }
            ?? """
            {"preset": "custom", "pathLossExponent": 2, "referenceLossDb": 40.2, "shadowingSigmaDb": 0,
             "noiseFigureDb": 7, "interferenceDb": 0}
            """
    let text = """
        {"name": "t", "seed": \(seed), "duration_s": \(duration), "environment": \(environment), \(extra)
         "nodes": [\(nodeList)], "ble": \(ble)}
        """
    return try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "t.json")
}

@Suite("Bluetooth LE PHY and PDUs")
struct BlePhyTests {
    /// Core Specification v5.4 Vol 6 Part B §2.1: (preamble 1 + access address 4 + header 2 +
    /// payload + CRC 3) bytes at 1 µs per bit on LE 1M.
    @Test func legacyPduAirtimesOnLe1M() {
        // ADV_IND with 31 bytes of data: payload 6 + 31 = 37 → 47 bytes → 376 µs.
        expectEqual(BlePhy.le1M.airtime(pduBytes: BlePduType.advInd.pduBytes(dataBytes: 31)), .microseconds(376))
        // SCAN_REQ: payload ScanA + AdvA = 12 → 22 bytes → 176 µs.
        expectEqual(BlePhy.le1M.airtime(pduBytes: BlePduType.scanReq.pduBytes(dataBytes: 0)), .microseconds(176))
        // CONNECT_IND: payload 34 → 44 bytes → 352 µs.
        expectEqual(BlePhy.le1M.airtime(pduBytes: BlePduType.connectInd.pduBytes(dataBytes: 0)), .microseconds(352))
        // ADV_DIRECT_IND: AdvA + TargetA = 12 → 176 µs.
        expectEqual(BlePhy.le1M.airtime(pduBytes: BlePduType.advDirectInd.pduBytes(dataBytes: 0)), .microseconds(176))
    }

    /// LE 2M: 2-byte preamble, 0.5 µs per bit; LE Coded S=8: 80 + 256 + 16 + 24 µs of preamble,
    /// access address, CI and TERM1, then 64 µs per PDU+CRC byte and TERM2 24 µs.
    @Test func airtimesOnLe2MAndCoded() {
        // 2M, 39-byte PDU: (2 + 4 + 39 + 3) · 4 µs = 192 µs.
        expectEqual(BlePhy.le2M.airtime(pduBytes: 39), .microseconds(192))
        // Coded S=8, 39-byte PDU: 376 + 42 · 64 + 24 = 3088 µs.
        expectEqual(BlePhy.codedS8.airtime(pduBytes: 39), .microseconds(3088))
        // Coded S=2: 376 + 42 · 16 + 6 = 1054 µs.
        expectEqual(BlePhy.codedS2.airtime(pduBytes: 39), .microseconds(1054))
    }

    /// The error model gives BER 10⁻³ at the typical sensitivity with the 7 dB reference noise
    /// figure: for LE 1M, −94 dBm against −174 + 60 + 7 = −107 dBm, an SNR of 13 dB.
    @Test func errorModelIsAnchoredAtTheSensitivity() {
        let m = BleErrorModel(phy: .le1M)
        expect(close(Decibel.db(fromLinear: m.referenceSinr), 13, 1e-9))
        expect(close(m.ber(sinr: m.referenceSinr), 1e-3, 1e-12))
        // An equally strong colliding packet (SINR ≈ 0 dB) destroys a 376-bit PDU.
        expect(exp(m.logSuccess(sinr: 1, bits: 376)) < 1e-50)
        // 20 dB above the reference point a PDU almost always survives.
        expect(exp(m.logSuccess(sinr: m.referenceSinr * 100, bits: 376)) > 0.999)
    }

    /// IEEE 802.11 OFDM mask: channel 38 (2426 MHz) lies 11 MHz below Wi-Fi channel 6
    /// (2437 MHz): −20 dBr, times 1 MHz / 16.6 MHz (−12.2 dB) = −32.2 dB. Channel 37 (2402)
    /// is 35 MHz away: −40 dBr − 12.2 dB.
    @Test func wifiCouplingFollowsTheSpectrumMask() {
        let c38 = Decibel.db(fromLinear: BleChannel.wifiCoupling(bleChannel: 38, wifiChannel: 6, bandwidthHz: 1e6))
        expect(close(c38, -20 - 10 * log10(16.6), 1e-9))
        let c37 = Decibel.db(fromLinear: BleChannel.wifiCoupling(bleChannel: 37, wifiChannel: 6, bandwidthHz: 1e6))
        expect(close(c37, -40 - 10 * log10(16.6), 1e-9))
    }

    /// The 40 channels cover 2402…2480 MHz in 2 MHz steps, each RF channel once.
    @Test func channelIndicesCoverTheBandOnce() {
        let f = (0...39).map { BleChannel.frequencyMHz(channelIndex: $0) }
        expectEqual(Set(f), Set(stride(from: 2402.0, through: 2480, by: 2)))
        expect(f[37] == 2402 && f[38] == 2426 && f[39] == 2480 && f[0] == 2404 && f[11] == 2428)
    }

    /// Address numbers: a private address changes at its phase and every interval after it.
    @Test func addressRotationEpochs() {
        let r = AddressRotation(interval: .seconds(900), phase: .seconds(100))
        expectEqual(r.epoch(at: .zero), 0)
        expectEqual(r.epoch(at: .seconds(99)), 0)
        expectEqual(r.epoch(at: .seconds(100)), 1)
        expectEqual(r.epoch(at: .seconds(999)), 1)
        expectEqual(r.epoch(at: .seconds(1000)), 2)
        expectEqual(AddressRotation(interval: nil, phase: .zero).epoch(at: .seconds(1e6)), 0)
    }

    /// §4.4.3.2: upperLimit doubles after two consecutive failures, halves after two successes,
    /// and the counter is redrawn in [1, upperLimit].
    @Test func scanBackoffFollowsTheSpecification() {
        var s = BleScannerState(
            spec: BleProfiles.scanner(nil, node: 0), receiver: 0, stream: RandomStream(seed: 1, name: "t"))
        s.exchangeEnded(success: false)
        expectEqual(s.upperLimit, 1)
        s.exchangeEnded(success: false)
        expectEqual(s.upperLimit, 2)
        for _ in 0..<20 { s.exchangeEnded(success: false) }
        expectEqual(s.upperLimit, 256)
        expect((1...256).contains(s.backoffCount))
        s.exchangeEnded(success: true)
        expectEqual(s.upperLimit, 256)
        s.exchangeEnded(success: true)
        expectEqual(s.upperLimit, 128)
    }
}

@Suite("Bluetooth LE discovery and collisions")
struct BleDiscoveryTests {
    /// Discovery latency of one advertiser and one scanner without random delay or collisions,
    /// computed here from the protocol's timing alone (the deterministic model Kindt et al.
    /// analyse, IEEE TMC 2018): advertising events at φ + j·Ta send 376 µs ADV_NONCONN_INDs on
    /// 37, 38, 39, each 376 + 150 µs after the previous; scan window k covers [k·Ts, k·Ts + ds)
    /// on channel 37 + (k mod 3); a PDU is received when it lies inside a window on its
    /// channel; latency = end of the first received PDU. Mean and maximum over φ uniform on
    /// [0, Ta) by a fine grid.
    static func analyticLatency(ta: Double, ts: Double, ds: Double) -> (mean: Double, max: Double) {
        let d = 0.376, g = 0.526
        let n = 20_000
        var sum = 0.0, worst = 0.0
        for i in 0..<n {
            let phi = (Double(i) + 0.5) * ta / Double(n)
            var found: Double?
            var j = 0
            while found == nil {
                let t = phi + Double(j) * ta
                for c in 0..<3 {
                    let start = t + Double(c) * g, end = start + d
                    let k = (start / ts).rounded(.down)
                    if Int(k) % 3 == c && end <= k * ts + ds { found = end; break }
                }
                j += 1
                precondition(j < 100_000, "never discovered")
            }
            sum += found!
            worst = max(worst, found!)
        }
        return (sum / Double(n) / 1000, worst / 1000)
    }

    @Test(ScaleCheck.trait, arguments: [(100.0, 60.0, 30.0), (152.5, 100.0, 50.0), (211.25, 30.0, 30.0)])
    func discoveryLatencyMatchesTheAnalyticModel(_ c: (Double, Double, Double)) throws {
        let (ta, ts, ds) = c
        let expected = Self.analyticLatency(ta: ta, ts: ts, ds: ds)
        var scenario = try bleScenario(
            nodes: [("phone", 0, 0), ("tag", 2, 0)],
            ble: [
                "advertisers": [["node": "tag", "pdu": "ADV_NONCONN_IND", "intervalMs": .number(ta), "randomDelayMs": 0]],
                "scanners": [["node": "phone", "intervalMs": .number(ts), "windowMs": .number(ds), "active": false]],
            ], duration: 1.2 * expected.max + 0.01)
        var latencies: [Double] = []
        for seed in 1...2000 {
            scenario.seed = UInt64(seed)
            let report = try ScenarioRunner.run(scenario)
            let d = try require(report.ble?.pairs.first?.discoveryS)
            latencies.append(d)
        }
        let mean = latencies.reduce(0, +) / Double(latencies.count)
        let worst = latencies.max()!
        expect(abs(mean / expected.mean - 1) <= 0.05, "mean \(mean) s vs analytic \(expected.mean) s")
        // The grid's step (Ta / 20 000) bounds how far the true supremum lies above the grid's.
        expect(worst <= expected.max + ta / 20_000 / 1000, "max \(worst) s exceeds the analytic \(expected.max) s")
        expect(worst >= 0.95 * expected.max, "max \(worst) s vs analytic \(expected.max) s")
    }

    /// N unsynchronised advertisers, equally strong (a circle of 2 m around the scanner, no
    /// fading), ADV_NONCONN_IND of d = 376 µs every T̄ = 100 + 5 ms on average (advDelay
    /// uniform 0–10 ms); the scanner listens to channel 37 only. A PDU survives when no other
    /// advertiser's PDU on 37 starts within ±d of it (pure ALOHA, no capture at 0 dB SIR):
    /// P(loss) = 1 − (1 − 2d/T̄)^(N−1).
    @Test(arguments: [20, 50])
    func collisionsMatchAloha(_ n: Int) throws {
        var nodes = [("phone", 0.0, 0.0)]
        var advertisers: [JSON] = []
        for i in 0..<n {
            let angle = 2 * Double.pi * Double(i) / Double(n)
            nodes.append(("a\(i)", 2 * cos(angle), 2 * sin(angle)))
            advertisers.append(["node": .string("a\(i)"), "pdu": "ADV_NONCONN_IND", "intervalMs": 100, "channels": [37]])
        }
        let scenario = try bleScenario(
            nodes: nodes,
            ble: [
                "advertisers": .array(advertisers),
                "scanners": [["node": "phone", "intervalMs": 100, "windowMs": 100, "active": false, "channels": [37]]],
            ], duration: 120)
        let report = try ScenarioRunner.run(scenario)
        let s = try require(report.ble?.scanners.first)
        let loss = 1 - Double(s.received) / Double(s.heardable)
        let expected = 1 - pow(1 - 2 * 0.376 / 105, Double(n - 1))
        expect(s.heardable > 10_000)
        expect(abs(loss / expected - 1) <= 0.10, "loss \(loss) vs ALOHA \(expected)")
    }

    /// Active scanning: the scanner's SCAN_REQ is answered, the response is counted once per
    /// address with duplicate filtering, and the advertiser's counters agree.
    @Test func activeScanningGetsTheScanResponse() throws {
        let scenario = try bleScenario(
            nodes: [("phone", 0, 0), ("tag", 3, 0)],
            ble: [
                "advertisers": [["node": "tag", "intervalMs": 100, "scanResponseBytes": 20]],
                "scanners": [["node": "phone", "intervalMs": 30, "windowMs": 30, "active": true]],
            ])
        let m = try require(try ScenarioRunner.run(scenario).ble)
        expectEqual(m.pairs[0].record.responses, 1)
        expectEqual(m.scanners[0].requestsSent, 1)
        expectEqual(m.scanners[0].responsesReceived, 1)
        expectEqual(m.advertisers[0].requestsReceived, 1)
        expectEqual(m.advertisers[0].responsesSent, 1)
        // The response follows the request: SCAN_RSP ends T_IFS + SCAN_REQ + T_IFS + SCAN_RSP
        // after the ADV_IND that triggered it (150 + 176 + 150 + (10 + 20 + 6 + 2) · 8 µs).
        let adv = try require(m.pairs[0].record.firstReceived)
        let rsp = try require(m.pairs[0].record.firstResponse)
        expectEqual(rsp - adv, .microseconds(150 + 176 + 150 + (10 + 26) * 8))
    }

    /// ADV_DIRECT_IND is discovered by its target only; another scanner next to it neither
    /// reports it nor counts it as heardable.
    @Test func directedAdvertisingReachesItsTargetOnly() throws {
        let scenario = try bleScenario(
            nodes: [("phone", 0, 0), ("other", 0, 2), ("tag", 3, 0)],
            ble: [
                "advertisers": [["node": "tag", "pdu": "ADV_DIRECT_IND", "target": "phone", "intervalMs": 100]],
                "scanners": [["node": "phone", "active": false], ["node": "other", "active": false]],
            ])
        let m = try require(try ScenarioRunner.run(scenario).ble)
        expectEqual(m.pairs[0].record.reports, 1)
        expect(m.pairs[0].record.received > 50)
        expectEqual(m.pairs[1].record.reports, 0)
        expectEqual(m.pairs[1].record.heardable, 0)
        expectEqual(m.advertisers[0].pdusReceived, Int(m.pairs[0].record.received))
    }

    /// A private address rotating every 60 s, phase in (0, 60] s, changes 5 times in 300 s:
    /// the scanner app sees 6 identifiers; a public address stays one.
    @Test func addressRotationCreatesNewIdentifiers() throws {
        func identifiers(_ address: String) throws -> UInt32 {
            let scenario = try bleScenario(
                nodes: [("phone", 0, 0), ("tag", 3, 0)],
                ble: [
                    "addressRotationS": 60,
                    "advertisers": [["node": "tag", "intervalMs": 100, "address": .string(address)]],
                    "scanners": [["node": "phone", "intervalMs": 30, "windowMs": 30, "active": false]],
                ], duration: 300)
            return try require(try ScenarioRunner.run(scenario).ble).pairs[0].record.identifiers
        }
        expectEqual(try identifiers("resolvable"), 6)
        expectEqual(try identifiers("public"), 1)
    }

    /// Scanning sessions of one phone (startS + durationS): a static address keeps its
    /// identifier from one session to the next, a private one rotating every second (the
    /// advertiser's own `addressRotationS`) shows a new one; a session scans only its own
    /// time (30 ms windows for 5 s: 167 windows; the first report comes after its start).
    @Test func scanningSessionsSeeWhichIdentifiersPersist() throws {
        let scenario = try bleScenario(
            nodes: [("phone", 0, 0), ("static", 2, 0), ("private", 0, 2)],
            ble: [
                "advertisers": [
                    ["node": "static", "intervalMs": 100, "address": "random-static"],
                    ["node": "private", "intervalMs": 100, "address": "resolvable", "addressRotationS": 1],
                ],
                "scanners": [
                    ["node": "phone", "active": false, "startS": 0, "durationS": 5],
                    ["node": "phone", "active": false, "startS": 10, "durationS": 5],
                ],
            ], duration: 20)
        let m = try require(try ScenarioRunner.run(scenario).ble)
        let files = BleFiles.pairsTable(m, try ScenarioRunner.run(scenario)).rows
        let column = BleFiles.pairColumns.firstIndex(of: "first_identifier")!
        // Rows: session 0 × (static, private), session 1 × (static, private).
        expectEqual(files[0][column], files[2][column])
        expect(files[1][column] != files[3][column])
        expect(m.scanners[0].windows == 167 && m.scanners[1].windows == 167)
        expect(try require(m.pairs[2].record.firstReport) >= .seconds(10))
        // About 5 private addresses per 5 s session (a new one every second).
        expect((5...6).contains(m.pairs[1].record.identifiers))
        expectEqual(m.pairs[0].record.identifiers, 1)
    }

    /// With free-space propagation and the estimator's own assumptions (n = 2, advertised TX
    /// power), distance from RSSI is exact up to the whole-dB rounding of RSSI (±0.5 dB → ±6 %).
    @Test func rssiDistanceIsExactInFreeSpace() throws {
        let scenario = try bleScenario(
            nodes: [("phone", 0, 0), ("tag", 10, 0)],
            ble: [
                "advertisers": [["node": "tag", "intervalMs": 100, "advertisesTxPower": true, "txPowerDbm": 4]],
                "scanners": [["node": "phone", "intervalMs": 30, "windowMs": 30, "duplicateFilter": false]],
            ])
        let p = try require(try ScenarioRunner.run(scenario).ble).pairs[0]
        let estimate = try require(p.estimatedDistance)
        expect(abs(estimate / 10 - 1) <= 0.06)
        // 4 dBm − 40.2 dB − 20 dB = −56.2 dBm, reported as −56.
        expectEqual(p.rssiMean, -56)
        expect(p.record.reports > 50)
    }

    /// A phone sending Wi-Fi on channel 6 next to the scanner: channel 38 (11 MHz from it)
    /// loses everything while Wi-Fi is on air, channel 37 (35 MHz away) almost nothing; with
    /// AWDL's pattern (slot 8 of 16) channel 38 loses about 1/16 of its advertisements.
    @Test func wifiOnChannel6BlindsChannel38() throws {
        func loss(channel: Int, pattern: String, duration: Double) throws -> Double {
            let scenario = try bleScenario(
                nodes: [("phone", 0, 0), ("tag", 10, 0), ("wifi", 1, 0)],
                ble: [
                    "advertisers": [["node": "tag", "pdu": "ADV_NONCONN_IND", "intervalMs": 100, "channels": [.integer(channel)]]],
                    "scanners": [
                        ["node": "phone", "intervalMs": 100, "windowMs": 100, "active": false, "channels": [.integer(channel)]]
                    ],
                    "wifi": [["node": "wifi", "pattern": .string(pattern), "load": 1]],
                ], duration: duration)
            let s = try require(try ScenarioRunner.run(scenario).ble).scanners[0]
            return 1 - Double(s.received) / Double(s.heardable)
        }
        expect(try loss(channel: 38, pattern: "continuous", duration: 10) > 0.99)
        expect(try loss(channel: 37, pattern: "continuous", duration: 10) < 0.02)
        let awdl = try loss(channel: 38, pattern: "awdl", duration: 300)
        expect(abs(awdl - 1.0 / 16) < 0.02, "AWDL slot-8 loss \(awdl)")
    }
}

@Suite("Bluetooth LE input")
struct BleInputTests {
    /// Two phones 4 m apart in the city without Wi-Fi: `tag` advertises (every 100 ms with a
    /// 10-byte scan response unless told otherwise), `phone` scans (30 ms of every 60 ms), and
    /// optional Wi-Fi transmitters beside them.
    static func scenario(
        advertiser: JSON = ["node": "tag", "intervalMs": 100, "scanResponseBytes": 10],
        scanners: JSON = [["node": "phone", "intervalMs": 60, "windowMs": 30]], wifi: JSON? = nil
    ) -> TestScenario {
        var t = TestScenario(name: "b", seed: 1, duration: 5, environment: ["preset": "city"], radio: nil)
        t.place("phone", 0, 0, z: 0)
        t.place("tag", 4, 0, z: 0)
        var ble: JSON = ["advertisers": [advertiser]]
        if let wifi { ble["wifi"] = wifi }
        ble["scanners"] = scanners
        t["ble"] = ble
        return t
    }

    static let base = scenario().text

    /// Each bad value is reported at its JSON path with what was expected.
    @Test(arguments: [
        ("ble.advertisers[0].intervalMs=100.1", "ble.advertisers[0].intervalMs", "0.625 ms grid"),
        ("ble.scanners[0].windowMs=90", "ble.scanners[0].windowMs", "longer than the scan interval"),
        ("ble.advertisers[0].payloadBytes=32", "ble.advertisers[0].payloadBytes", "at most 31"),
        ("ble.advertisers[0].scanResponseBytes=40", "ble.advertisers[0].scanResponseBytes", "at most 31"),
        ("ble.advertisers[0].pdu=\"ADV_FOO\"", "ble.advertisers[0].pdu", "advertising PDU type"),
        ("ble.advertisers[0].pdu=\"SCAN_RSP\"", "ble.advertisers[0].pdu", "not an advertising PDU type"),
        ("ble.advertisers[0].phy=\"2M\"", "ble.advertisers[0].phy", "not allowed on the primary advertising"),
        ("ble.scanners[0].intervalMs=2", "ble.scanners[0].intervalMs", "2.5...10240"),
        ("ble.advertisers[0].node=\"nobody\"", "ble.advertisers[0].node", "no node has the id"),
        ("ble.advertisers[0].address=\"random\"", "ble.advertisers[0].address", "an address type"),
        ("ble.scanners[0].profile=\"ios-background\"", "ble.scanners[0]", "serviceFilter"),
        ("ble.wifi", "", "")
    ])
    func badValuesNameTheirPath(_ c: (String, String, String)) {
        if c.0 == "ble.wifi" {
            // A Wi-Fi transmitter whose load rounds the frame gap out of range, and AWDL off channel 6.
            let channel = Self.scenario(wifi: [["node": "phone", "channel": 3]])
            expectEqual(channel.problems.first?.path, "ble.wifi[0].channel")
            let load = Self.scenario(wifi: [["node": "phone", "load": 1e-300]])
            expectEqual(load.problems.first?.path, "ble.wifi[0].load")
            return
        }
        let d = diagnostics(Self.base, overrides: [c.0])
        expectEqual(d.count, 1)
        expectEqual(d.first?.path, c.1)
        expect(d.first?.message.contains(c.2) == true, "\(d.first?.message ?? "none")")
    }

    /// A non-scannable PDU with a scan response, ADV_DIRECT_IND without its target, and a
    /// channel outside 37–39.
    @Test func inconsistentAdvertisersAreRefused() {
        let nonconn = diagnostics(Self.base, overrides: ["ble.advertisers[0].pdu=\"ADV_NONCONN_IND\""])
        expectEqual(nonconn.first?.path, "ble.advertisers[0].scanResponseBytes")
        let direct = Self.scenario(advertiser: ["node": "tag", "intervalMs": 100, "pdu": "ADV_DIRECT_IND"])
        expect(direct.problems.first?.message.contains("needs a \"target\"") == true)
        let targeted = Self.scenario(advertiser: ["node": "tag", "intervalMs": 100, "pdu": "ADV_DIRECT_IND", "target": "phone"])
        expect(targeted.problems.isEmpty)
        let ios = Self.scenario(
            advertiser: ["node": "tag", "intervalMs": 100, "profile": "ios-foreground", "pdu": "ADV_NONCONN_IND"])
        expectEqual(ios.problems.first?.path, "ble.advertisers[0].pdu")
        let channels = Self.scenario(scanners: [["node": "phone", "intervalMs": 60, "windowMs": 30, "channels": [37, 40]]])
        expectEqual(channels.problems.first?.path, "ble.scanners[0].channels[1]")
    }

    /// A phone runs one scan at a time: overlapping scanners on one node are refused,
    /// consecutive sessions are fine.
    @Test func scannersOfOneNodeMustNotOverlap() {
        let two = Self.scenario(scanners: [["node": "phone", "durationS": 2], ["node": "phone", "startS": 1]])
        expectEqual(two.problems.first?.path, "ble.scanners[1].node")
        let apart = Self.scenario(scanners: [["node": "phone", "durationS": 2], ["node": "phone", "startS": 2]])
        expect(apart.problems.isEmpty)
    }

    /// The CLI exits 2, names the file and the path, and writes nothing.
    @Test func runRefusesBadInputWithoutOutput() throws {
        let dir = try temporaryFolder(["b.json": Self.base])
        let r = try CLI.run(
            ["run", "b.json", "--out", "out", "--set", "ble.advertisers[0].intervalMs=33"], in: dir)
        expectEqual(r.status, 2)
        expect(r.stderr.contains("b.json"))
        expect(r.stderr.contains("ble.advertisers[0].intervalMs"))
        expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// Same seed, same bytes: two runs and a two-worker sweep of the same scenario agree.
    @Test func runsAndSweepsAreDeterministic() throws {
        var sweep = Self.scenario()
        sweep["matrix"] = ["ble.scanners[0].windowMs": [10, 30, 60], "repeat": 2]
        let dir = try temporaryFolder(["b.json": Self.base, "s.json": sweep.text])
        for out in ["r1", "r2"] {
            expectEqual(try CLI.run(["run", "b.json", "--out", out], in: dir).status, 0)
        }
        for name in ["ble_pairs.csv", "ble_scanners.csv", "ble_advertisers.csv", "summary.csv"] {
            let a = try String(contentsOf: dir.appendingPathComponent("r1/\(name)"), encoding: .utf8)
            let b = try String(contentsOf: dir.appendingPathComponent("r2/\(name)"), encoding: .utf8)
            expectEqual(a, b, "\(name) differs between runs")
        }
        expectEqual(try CLI.run(["sweep", "s.json", "--out", "s1", "-j", "1"], in: dir).status, 0)
        expectEqual(try CLI.run(["sweep", "s.json", "--out", "s2", "-j", "2"], in: dir).status, 0)
        let a = try String(contentsOf: dir.appendingPathComponent("s1/cells.csv"), encoding: .utf8)
        let b = try String(contentsOf: dir.appendingPathComponent("s2/cells.csv"), encoding: .utf8)
        expectEqual(a, b)
        expect(a.contains("phone<-tag"))
    }
}

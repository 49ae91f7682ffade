import Foundation
import Testing
@testable import AdHocSim

/// Drives one TCP endpoint's timers.
struct EndpointDriver: EventHandler {
    var endpoint: TcpEndpoint
    mutating func handle(_ event: Event, in sim: inout Simulation) { endpoint.timer(event.kind, sim: &sim) }
}

func peerSegment(flags: UInt8, seq: Int64 = 0, payload: Int64 = 0, ack: Int64 = 0, fromClient: Bool) -> Datagram {
    var d = Datagram(flow: 0, fromClient: fromClient, kind: .tcp)
    d.tcpFlags = flags
    d.seq = seq
    d.payload = Int32(payload)
    d.ack = ack
    d.window = 1 << 30
    d.header = 32
    return d
}

/// A client endpoint that has completed its handshake; its outbox is empty.
func establishedClient(_ sim: inout Simulation, config: TcpConfig = TcpConfig()) -> TcpEndpoint {
    var c = TcpEndpoint(flow: 0, isClient: true, config: config, mtuPayload: 1480, sim: &sim, side: 0)
    c.connect(sim: &sim)
    c.receive(peerSegment(flags: TcpFlags.syn | TcpFlags.ack, fromClient: false), sim: &sim)
    c.outbox.removeAll()
    return c
}

@Suite("TCP")
struct TcpTests {
    @Test func rtoFollowsRfc6298ByHand() {
        var e = RttEstimator(initial: .seconds(1), minRto: .milliseconds(200), maxRto: .seconds(60))
        expectEqual(e.rto, .seconds(1))  // §2.1 before any sample
        e.sample(0.5)  // SRTT 0.5, RTTVAR 0.25 → 0.5 + 4·0.25
        expectEqual(e.rto, .milliseconds(1500))
        e.sample(0.3)  // RTTVAR .2375, SRTT .475 → 1.425 s
        expectEqual(e.rto, .milliseconds(1425))
        e.sample(0.3)  // RTTVAR .221875, SRTT .453125 → 1.340625 s
        expectEqual(e.rto, .microseconds(1_340_625))
        var fast = RttEstimator(initial: .seconds(1), minRto: .milliseconds(200), maxRto: .seconds(60))
        fast.sample(0.01)  // 0.01 + 0.02 = 0.03 s, clamped up to 200 ms
        expectEqual(fast.rto, .milliseconds(200))
    }

    @Test func initialWindowFollowsRfc6928() {
        expectEqual(TcpEndpoint.initialWindow(mss: 1448), 14_480)
        expectEqual(TcpEndpoint.initialWindow(mss: 1000), 10_000)
        expectEqual(TcpEndpoint.initialWindow(mss: 4000), 14_600)
        expectEqual(TcpEndpoint.initialWindow(mss: 8000), 16_000)
    }

    @Test func segmentSizeComesFromTheMtu() {
        var sim = Simulation(seed: 1)
        // IPv4 over a 1500-byte MTU: MSS 1460, minus 12 bytes of timestamps: 1448.
        expectEqual(
            TcpEndpoint(flow: 0, isClient: true, config: TcpConfig(), mtuPayload: 1480, sim: &sim, side: 0)
                .segmentBytes, 1448)
        // IPv6 over AWDL's 1484: 1484 − 40 − 20 − 12 = 1412.
        expectEqual(
            TcpEndpoint(flow: 0, isClient: true, config: TcpConfig(), mtuPayload: 1444, sim: &sim, side: 1)
                .segmentBytes, 1412)
    }

    @Test func nagleHoldsSmallWritesUntilTheAck() {
        var sim = Simulation(seed: 1)
        var c = establishedClient(&sim)
        c.write(16, sim: &sim)
        expectEqual(c.outbox.map(\.payload), [16])  // nothing in flight: goes at once
        c.write(16, sim: &sim)
        c.write(16, sim: &sim)
        expectEqual(c.outbox.map(\.payload), [16])  // held while 16 bytes are unacknowledged
        c.receive(peerSegment(flags: TcpFlags.ack, ack: 16, fromClient: false), sim: &sim)
        expectEqual(c.outbox.map(\.payload), [16, 32])  // released on the ACK, coalesced
        var noNagle = TcpConfig()
        noNagle.noDelay = true
        var d = establishedClient(&sim, config: noNagle)
        d.write(16, sim: &sim)
        d.write(16, sim: &sim)
        expectEqual(d.outbox.map(\.payload), [16, 16])
    }

    @Test func delayedAckWaitsForTheSecondFullSegmentOrTheTimer() {
        var sim = Simulation(seed: 1)
        var s = TcpEndpoint(flow: 0, isClient: false, config: TcpConfig(), mtuPayload: 1480, sim: &sim, side: 1)
        s.listen()
        s.receive(peerSegment(flags: TcpFlags.syn, fromClient: true), sim: &sim)
        s.receive(peerSegment(flags: TcpFlags.ack, fromClient: true), sim: &sim)
        s.outbox.removeAll()
        s.receive(peerSegment(flags: TcpFlags.ack, seq: 0, payload: 1448, fromClient: true), sim: &sim)
        expect(s.outbox.isEmpty)
        s.receive(peerSegment(flags: TcpFlags.ack, seq: 1448, payload: 1448, fromClient: true), sim: &sim)
        expect(s.outbox.count == 1 && s.outbox[0].ack == 2896)  // every second full segment
        s.outbox.removeAll()
        s.receive(peerSegment(flags: TcpFlags.ack, seq: 2896, payload: 100, fromClient: true), sim: &sim)
        expect(s.outbox.isEmpty)
        var driver = EndpointDriver(endpoint: s)
        _ = sim.run(&driver, until: .milliseconds(99))
        expect(driver.endpoint.outbox.isEmpty)
        _ = sim.run(&driver, until: .milliseconds(100))  // XNU's 100 ms timer
        expect(driver.endpoint.outbox.count == 1 && driver.endpoint.outbox[0].ack == 2996)
        // An out-of-order segment is acknowledged at once (RFC 5681 §4.2).
        driver.endpoint.outbox.removeAll()
        driver.endpoint.receive(peerSegment(flags: TcpFlags.ack, seq: 5000, payload: 100, fromClient: true), sim: &sim)
        expect(driver.endpoint.outbox.count == 1 && driver.endpoint.outbox[0].ack == 2996)
    }

    @Test func threeDuplicateAcksTriggerFastRetransmit() {
        var sim = Simulation(seed: 1)
        var config = TcpConfig()
        config.congestionControl = .newreno
        var c = establishedClient(&sim, config: config)
        c.write(10 * 1448, sim: &sim)
        expectEqual(c.outbox.count, 10)  // the initial window: 10 segments
        c.outbox.removeAll()
        for _ in 0..<3 { c.receive(peerSegment(flags: TcpFlags.ack, ack: 1448, fromClient: false), sim: &sim) }
        // First ACK is new data (cwnd +1 MSS in slow start: 1 new segment); the 2nd and 3rd
        // are duplicates: limited transmit has nothing new to send (all 10 segments written).
        c.outbox.removeAll()
        c.receive(peerSegment(flags: TcpFlags.ack, ack: 1448, fromClient: false), sim: &sim)
        expect(c.outbox.first?.seq == 1448 && c.outbox.first?.payload == 1448)  // the lost segment again
        expectEqual(c.retransmissions, 1)
        // ssthresh = FlightSize/2 (RFC 5681 eq. 4): 9 segments in flight → 4.5 segments.
        expectEqual(c.ssthresh, 9 * 1448 / 2)
    }

    @Test func synRetransmissionsBackOff() throws {
        // Every packet is lost: SYNs leave at 0, 1, 3 and 7 s (initial RTO 1 s, doubling).
        for (duration, expected) in [(0.9, 1), (2.9, 2), (6.9, 3), (7.1, 4)] {
            let s = try decode(tcpValidation, overrides: ["link.lossProbability=1", "duration_s=\(duration)"]).get()
            let r = try ScenarioRunner.run(s)
            expectEqual(r.flows[0].ipPacketsSent, UInt64(expected), "by \(duration) s")
            expectEqual(r.flows[0].status, "failed:no-connection")
        }
        // After 6 retries (the 7th timeout, at 1+2+…+64 = 127 s) the client gives up.
        let s = try decode(tcpValidation, overrides: ["link.lossProbability=1", "duration_s=200"]).get()
        let r = try ScenarioRunner.run(s)
        expectEqual(r.flows[0].status, "failed:connect-timeout")
        expectEqual(r.flows[0].ipPacketsSent, 7)
    }

    @Test func quicGivesUpAfterTenProbeTimeouts() throws {
        // Every Initial vanishes: PTOs of 0.999 s doubling ten times, then the client gives up.
        let s = try decode(
            tcpValidation, overrides: ["link.lossProbability=1", "duration_s=3000", "flows[0].protocol=quic"]
        ).get()
        let r = try ScenarioRunner.run(s)
        expectEqual(r.flows[0].status, "failed:connect-timeout")
    }
}

let tcpValidation: String = {
    let url = Repository.root.appendingPathComponent("topologies/validation/tcp-loss.json")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
}()

@Suite("TCP on the ideal link")
struct TcpValidationTests {
    /// PFTK (Padhye et al., SIGCOMM 1998, eq. 33), packets/s → Mbit/s of payload.
    static func pftk(p: Double, rtt: Double, t0: Double, b: Double = 2, mss: Double = 1448) -> Double {
        let denominator =
            rtt * (2 * b * p / 3).squareRoot() + t0 * min(1, 3 * (3 * b * p / 8).squareRoot()) * p * (1 + 32 * p * p)
        return mss * 8 / denominator / 1e6
    }

    @Test func handshakeTakesOneRoundTrip() throws {
        let r = try ScenarioRunner.run(
            try decode(tcpValidation, overrides: ["link.lossProbability=0", "duration_s=1"]).get())
        // 2 × 25 ms plus serialising a 60-byte SYN and SYN-ACK (IPv4 20 + TCP 40) at 100 Mbit/s.
        expect(close(try require(r.flows[0].handshakeMs), 50 + 2 * 0.0048, 1e-6))
    }

    @Test(ScaleCheck.trait) func losslessBulkFillsTheLink() throws {
        let r = try ScenarioRunner.run(try decode(tcpValidation, overrides: ["link.lossProbability=0"]).get())
        // Goodput counts payload; on the wire each 1448-byte payload is a 1500-byte IP packet.
        let wire = try require(r.flows[0].goodputMbps) * 1500 / 1448
        expect(wire >= 95)
    }

    @Test(ScaleCheck.trait, arguments: [(0.001, 0.6, 1.4), (0.01, 0.6, 1.4), (0.03, 0.8, 2.0)])
    func newRenoGoodputTracksPftk(p: Double, low: Double, high: Double) throws {
        let r = try ScenarioRunner.run(try decode(tcpValidation, overrides: ["link.lossProbability=\(p)"]).get())
        // RTT 50 ms (plus < 1 ms of serialisation); T0 = the RTO, at its 200 ms floor here.
        let model = TcpValidationTests.pftk(p: p, rtt: 0.050, t0: 0.2)
        let ratio = try require(r.flows[0].goodputMbps) / model
        expect(ratio >= low && ratio <= high, "p = \(p): \(ratio) × PFTK")
    }
}

@Suite("Thesis mechanisms")
struct ThesisMechanismTests {
    static func cell(_ proto: String, size: Int, packets: Int, extra: [String] = []) throws -> RunReport {
        let s = TestScenario.twoPhones(
            name: "cell", seed: 3, duration: 30, protocol: proto,
            workload: ["kind": "thesis", "probes": 10, "packets": .integer(packets), "size": .integer(size)])
        return try ScenarioRunner.run(s.decoded(overrides: extra))
    }

    @Test func nagleMakesTcpSendFarFewerPacketsThanWrites() throws {
        let r = try ThesisMechanismTests.cell("tcp", size: 128, packets: 1000)
        expectEqual(r.flows[0].status, "ok")
        // 128 000 bytes fill about 91 full segments; with handshake, probes and ACKs TCP stays
        // far below one packet per write.
        expect(r.flows[0].ipPacketsSent < 300)
    }

    @Test func udpSendsOnePacketPerSmallWrite() throws {
        let r = try ThesisMechanismTests.cell("udp", size: 128, packets: 1000)
        // 10 probes + 1000 writes, one IP packet each.
        expectEqual(r.flows[0].ipPacketsSent, 1010)
    }

    @Test func oversizedUdpWritesFailUnlessTheLimitIsRaised() throws {
        let r = try ThesisMechanismTests.cell("udp", size: 16_384, packets: 10)
        expectEqual(r.flows[0].status, "failed:datagram-too-large (16384 > transport.maxDatagramBytes 9216)")
        expectEqual(r.flows[0].bytesSent, 0)
        let raised = try ThesisMechanismTests.cell(
            "udp", size: 16_384, packets: 10, extra: ["transport.maxDatagramBytes=65507"])
        expectEqual(raised.flows[0].status, "ok")
        // 16 392 transport bytes in IPv6 fragments of 1448 payload bytes (1500 − 40 − 8, to a
        // multiple of 8): 12 fragments per write, plus 10 probes.
        expectEqual(raised.flows[0].ipPacketsSent, 10 + 10 * 12)
    }
}

@Suite("TCP keepalive and close")
struct KeepaliveTests {
    @Test func anIdleConnectionProbesEveryIdlePeriod() throws {
        // A CBR flow writing 1000 bytes every 5 s (0.0016 Mbit/s) for 10 s: the connection idles
        // between writes. Idle 2 s (the thesis's setting), then a probe; its answer is activity,
        // so the next probe follows 2 s later. Activity ends near 0.2 s (probes, delayed ACK):
        // probes near 2.2 and 4.2 s; the write at 5 s (ACKed by 5.1 s): probes near 7.1 and 9.1 s.
        func run(_ extra: [String]) throws -> RunReport {
            let s = TestScenario.twoPhones(
                name: "cbr", seed: 3, protocol: "tcp", workload: ["kind": "cbr", "rateMbps": 0.0016, "size": 1000])
            return try ScenarioRunner.run(s.decoded(overrides: extra))
        }
        expectEqual(try run([]).flows[0].keepalives, 4)
        expectEqual(try run(["transport.tcp.keepaliveIdleS=null"]).flows[0].keepalives, 0)
    }

    @Test func packetCountsStopWhenTheTestEnds() throws {
        // The FIN exchange and anything after the last byte arrived do not count, so a longer
        // run reports the same IP packets.
        let short = try ThesisMechanismTests.cell("tcp", size: 1000, packets: 10, extra: ["duration_s=10"])
        let long = try ThesisMechanismTests.cell("tcp", size: 1000, packets: 10, extra: ["duration_s=30"])
        expectEqual(short.flows[0].status, "ok")
        expectEqual(short.flows[0].ipPacketsSent, long.flows[0].ipPacketsSent)
        // Keepalives only while the connection idles before the person taps start: idle 2 s,
        // and each answered probe is activity, so one probe every 2 s of the 5–7 s idle time
        // (2 or 3); none after: the client closes at once, so both runs count the same.
        expectEqual(short.flows[0].keepalives, long.flows[0].keepalives)
        expect((2...3).contains(short.flows[0].keepalives))
    }
}

@Suite("TCP SACK")
struct SackTests {
    static var config: TcpConfig {
        var c = TcpConfig()
        c.sack = true
        c.congestionControl = .newreno
        return c
    }

    @Test func theReceiverReportsTheNewestBlockFirst() {
        var sim = Simulation(seed: 1)
        var s = TcpEndpoint(flow: 0, isClient: false, config: SackTests.config, mtuPayload: 1480, sim: &sim, side: 1)
        s.listen()
        s.receive(peerSegment(flags: TcpFlags.syn, fromClient: true), sim: &sim)
        s.receive(peerSegment(flags: TcpFlags.ack, fromClient: true), sim: &sim)
        s.outbox.removeAll()
        s.receive(peerSegment(flags: TcpFlags.ack, seq: 2896, payload: 1448, fromClient: true), sim: &sim)
        expect(s.outbox.last?.sackStart[0] == 2896 && s.outbox.last?.sackEnd[0] == 4344)
        s.receive(peerSegment(flags: TcpFlags.ack, seq: 5792, payload: 1448, fromClient: true), sim: &sim)
        let ack = s.outbox.last!
        expectEqual(ack.ack, 0)
        expect(ack.sackStart[0] == 5792 && ack.sackEnd[0] == 7240)  // RFC 2018 §4: newest first
        expect(ack.sackStart[1] == 2896 && ack.sackEnd[1] == 4344)
        expectEqual(ack.header, 32 + 4 + 16)  // two 8-byte blocks + NOP, NOP, kind, length
    }

    @Test func recoveryRepairsSeveralHolesInOneRoundTrip() {
        var sim = Simulation(seed: 1)
        var c = establishedClient(&sim, config: SackTests.config)
        c.write(10 * 1448, sim: &sim)
        c.outbox.removeAll()
        // Segments 0 and 5 are lost; the receiver SACKs 1–4, then also 6–9.
        var dup = peerSegment(flags: TcpFlags.ack, ack: 0, fromClient: false)
        dup.sackStart = SackEdges(1448, 0, 0)
        dup.sackEnd = SackEdges(7240, 0, 0)
        c.receive(dup, sim: &sim)
        // 4 segments SACKed above the first hole: lost (RFC 6675 IsLost) → recovery, segment 0 resent.
        expectEqual(c.outbox.map(\.seq), [0])
        c.outbox.removeAll()
        dup.sackStart = SackEdges(8688, 1448, 0)
        dup.sackEnd = SackEdges(14480, 7240, 0)
        c.receive(dup, sim: &sim)
        // The second hole is presumed lost too and goes out without waiting for a partial ACK.
        expectEqual(c.outbox.map(\.seq), [7240])
        expectEqual(c.retransmissions, 2)
    }
}

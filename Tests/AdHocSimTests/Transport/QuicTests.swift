import Foundation
import Testing
@testable import AdHocSim

/// Two QUIC endpoints joined by a lossless, zero-delay wire (except for the packets a test drops).
struct QuicPair: EventHandler {
    var client: QuicEndpoint
    var server: QuicEndpoint
    var drop: Set<Int64> = []  // client packet numbers the wire loses

    init(sim: inout Simulation) {
        client = QuicEndpoint(flow: 0, isClient: true, config: QuicConfig(), udpPayload: 1472, sim: &sim, side: 0)
        server = QuicEndpoint(flow: 0, isClient: false, config: QuicConfig(), udpPayload: 1472, sim: &sim, side: 1)
    }

    /// Moves packets both ways until both outboxes are empty.
    mutating func settle(sim: inout Simulation) {
        while !client.outbox.isEmpty || !server.outbox.isEmpty {
            let up = client.outbox
            client.outbox.removeAll()
            for d in up where !drop.contains(d.packetNumber) { _ = server.receive(d, sim: &sim) }
            let down = server.outbox
            server.outbox.removeAll()
            for d in down { _ = client.receive(d, sim: &sim) }
        }
    }

    mutating func handle(_ event: Event, in sim: inout Simulation) {
        if event.target == 0 { client.timer(event.kind, sim: &sim) } else { server.timer(event.kind, sim: &sim) }
    }
}

@Suite("QUIC")
struct QuicTests {
    @Test func initialAndMinimumWindowsFollowRfc9002() {
        expectEqual(QuicEndpoint.initialWindow(maxDatagram: 1200), 12_000)
        expectEqual(QuicEndpoint.initialWindow(maxDatagram: 1436), 14_360)
        expectEqual(QuicEndpoint.initialWindow(maxDatagram: 1472), 14_720)
        var sim = Simulation(seed: 1)
        expectEqual(QuicPair(sim: &sim).client.minimumWindow, 2 * 1472)
    }

    @Test func theHandshakeCompletesAndRespectsAntiAmplification() {
        var sim = Simulation(seed: 1)
        var pair = QuicPair(sim: &sim)
        pair.client.connect(sim: &sim)
        let initial = pair.client.outbox
        expect(initial.count == 1 && initial[0].transportBytes - 8 == 1200)  // padded to 1200
        pair.settle(sim: &sim)
        expect(pair.client.state == .established && pair.server.state == .established)
        // Before the client's address was validated the server sent ≤ 3 × 1200 bytes.
        expect(pair.server.bytesSentUnvalidated <= 3 * 1200)
    }

    /// RFC 9000's connection life, the subset modelled: idle → handshaking → established, and
    /// from any open state to closed (the idle timeout, §10.1); nothing leaves closed, and
    /// nothing goes back to idle.
    @Test func theStatesFollowRfc9000() {
        let states: [QuicEndpoint.State] = [.idle, .handshaking, .established, .closed]
        let arrows: Set<String> = [
            "idle→handshaking", "handshaking→established", "idle→closed", "handshaking→closed",
            "established→closed"
        ]
        for a in states {
            for b in states {
                expectEqual(QuicEndpoint.allowed(from: a, to: b), arrows.contains("\(a)→\(b)"), "\(a) → \(b)")
            }
        }
    }

    /// The idle timeout closes the connection: after ten probe timeouts with no answer the
    /// client is closed, arms no timer, and drops what arrives later (RFC 9000 §10.1: its
    /// state is discarded), where an idle endpoint would have started a handshake.
    @Test func aClosedConnectionDropsWhatArrives() {
        var sim = Simulation(seed: 1)
        var pair = QuicPair(sim: &sim)
        pair.client.connect(sim: &sim)
        pair.client.outbox.removeAll()  // the wire loses everything
        for _ in 0...QuicEndpoint.maxProbeTimeouts {
            pair.client.timer(.quicLossDetection, sim: &sim)
            pair.client.outbox.removeAll()
        }
        expectEqual(pair.client.state, .closed)
        expectEqual(pair.client.abortReason, "connect-timeout")
        var late = Datagram(flow: 0, fromClient: false, kind: .quic)
        late.quicPacketType = .handshake
        late.payload = 500
        late.header = 40
        let received = pair.client.bytesReceived
        expect(pair.client.receive(late, sim: &sim) == nil)
        expectEqual(pair.client.bytesReceived, received)
        expect(pair.client.outbox.isEmpty)
    }

    @Test func aLargeCertificateWaitsForAddressValidation() {
        var sim = Simulation(seed: 1)
        var pair = QuicPair(sim: &sim)
        var big = QuicConfig()
        big.certificateBytes = 6000
        pair.server = QuicEndpoint(flow: 0, isClient: false, config: big, udpPayload: 1472, sim: &sim, side: 1)
        pair.client.connect(sim: &sim)
        let up = pair.client.outbox
        pair.client.outbox.removeAll()
        for d in up { _ = pair.server.receive(d, sim: &sim) }
        // 90 + 80 + 6000 + 264 + 36 = 6470 bytes of flight, but only 3600 may leave now.
        let first = pair.server.outbox.reduce(0) { $0 + $1.transportBytes - 8 }
        expect(first <= 3600)
        expect(pair.server.cryptoSent < pair.server.cryptoToSend)
    }

    func establishedPair(_ sim: inout Simulation) -> QuicPair {
        var pair = QuicPair(sim: &sim)
        pair.client.connect(sim: &sim)
        pair.settle(sim: &sim)
        return pair
    }

    @Test func packetThresholdDeclaresLossAfterThreeLaterPackets() {
        var sim = Simulation(seed: 1)
        var pair = establishedPair(&sim)
        let firstData = pair.client.nextPn
        pair.drop = [firstData]
        for i in 0..<5 { pair.client.write(stream: 0, offset: Int64(i) * 100, bytes: 100, sim: &sim) }
        expectEqual(pair.client.retransmissions, 0)
        pair.settle(sim: &sim)
        // The server acknowledges every second packet: first firstData+1…+2 (firstData is 2
        // behind: not yet lost), then …+4: now 4 behind ≥ kPacketThreshold (3): lost, and its
        // 100 bytes go out again under a new packet number.
        expectEqual(pair.client.retransmissions, 1)
        expect(!pair.client.sent.contains { $0.pn == firstData && !$0.lost })
    }

    @Test func timeThresholdDeclaresLossAfterNineEighthsOfAnRtt() {
        var sim = Simulation(seed: 1)
        var pair = establishedPair(&sim)
        let lost = pair.client.nextPn
        pair.drop = [lost]
        for i in 0..<3 { pair.client.write(stream: 0, offset: Int64(i) * 100, bytes: 100, sim: &sim) }
        pair.settle(sim: &sim)
        // Two later packets acknowledged: 2 < 3, not lost by count. With an RTT of 40 ms the
        // loss timer waits 9/8 · max(smoothed_rtt, latest_rtt) = 45 ms from the lost packet's send.
        expectEqual(pair.client.retransmissions, 0)
        pair.client.updateRtt(0.040)
        pair.client.setLossDetectionTimer(sim: &sim)
        let delay = 9.0 / 8.0 * max(pair.client.smoothedRtt, pair.client.latestRtt)
        expect(close(delay, 0.045, 1e-12))
        expectEqual(sim.deadline(of: pair.client.lossTimer), .seconds(delay))
        _ = sim.run(&pair, until: .milliseconds(44))
        expectEqual(pair.client.retransmissions, 0)
        _ = sim.run(&pair, until: .milliseconds(45))
        expectEqual(pair.client.retransmissions, 1)
    }

    @Test func ptoDoublesPerConsecutiveTimeout() {
        var sim = Simulation(seed: 1)
        var pair = establishedPair(&sim)
        let base = pair.client.ptoDuration
        pair.client.ptoCount = 1
        expectEqual(pair.client.ptoDuration, base * 2)
        pair.client.ptoCount = 3
        expectEqual(pair.client.ptoDuration, base * 8)
        // PTO = srtt + max(4·rttvar, 1 ms) + max_ack_delay once established.
        pair.client.ptoCount = 0
        let expected = pair.client.smoothedRtt + max(4 * pair.client.rttVar, 0.001) + 0.025
        expectEqual(pair.client.ptoDuration, .seconds(expected))
    }

    @Test func handshakeTakesOneRoundTripOnTheIdealLink() throws {
        let r = try ScenarioRunner.run(
            try decode(tcpValidation, overrides: ["flows[0].protocol=quic", "link.lossProbability=0", "duration_s=1"])
                .get())
        // 2 × 25 ms plus serialisation at 100 Mbit/s (IPv4, 1500-byte MTU, 1472-byte datagrams):
        // client Initial 20 + 8 + 1200 = 1228 bytes: 98.24 µs. Server flight, 1970 crypto bytes
        // with 60 bytes of long header, tag, CRYPTO and ACK frames per packet: 1412 + 558 crypto
        // bytes in IP packets of 1500 and 646 bytes: 120 + 51.68 µs.
        expect(close(try require(r.flows[0].handshakeMs), 50 + 0.09824 + 0.120 + 0.05168, 1e-6))
    }

    @Test func quicSendsOnePacketPerSmallWrite() throws {
        let r = try ThesisMechanismTests.cell("quic", size: 128, packets: 1000)
        expectEqual(r.flows[0].status, "ok")
        // Handshake (1 Initial + Finished), 10 probes and 1000 writes: at least one packet each.
        expect(r.flows[0].ipPacketsSent >= 1012)
    }
}

@Suite("QUIC 0-RTT")
struct ZeroRttTests {
    func firstProbeSent(zeroRtt: Bool) throws -> (sent: SimTime, echo: SimTime) {
        var t = TestScenario.twoPhones(
            name: "z", duration: 2, radio: ["technology": "ideal"], protocol: "quic",
            workload: ["kind": "thesis", "probes": 1, "packets": 1, "size": 100, "startPhase": "connect"])
        t["link"] = ["rateMbps": 100, "delayMs": 25]
        t["transport"] = ["ipVersion": "ipv4", "quic": ["zeroRtt": .bool(zeroRtt)]]
        let scenario = try t.decoded()
        var sim = Simulation(seed: scenario.seed)
        var world = World<IdealLink>(scenario, sim: &sim)
        _ = sim.run(&world, until: scenario.duration)
        let app = world.hosts.flows[0].app
        return (app.probeSent[0], try require(app.probeEcho[0]))
    }

    @Test func zeroRttSendsDataWithTheInitial() throws {
        let full = try firstProbeSent(zeroRtt: false)
        let early = try firstProbeSent(zeroRtt: true)
        // Without 0-RTT the first probe leaves after the handshake (≈ 50 ms); with it, at once,
        // and its echo is back about one round trip (50 ms) after the start instead of two.
        expect(full.sent > .milliseconds(50))
        expectEqual(early.sent, .zero)
        expect(early.echo < .milliseconds(52) && full.echo > .milliseconds(100))
    }
}

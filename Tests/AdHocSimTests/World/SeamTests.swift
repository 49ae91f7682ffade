import Foundation
import Testing
@testable import AdHocSim

/// A socket that records what the application wrote, to test the application on its own.
struct RecordingSocket: FlowSocket {
    static var isDatagram: Bool { false }
    var acceptsWrites = true
    var room: Int64 = .max
    var writes: [(message: Int, bytes: Int64)] = []
    var finished: [Int] = []

    func hasRoom(for bytes: Int64) -> Bool { bytes <= room }
    mutating func write(message index: Int, bytes: Int64, sim: inout Simulation) { writes.append((index, bytes)) }
    mutating func finish(message index: Int) { finished.append(index) }
    mutating func close(sim: inout Simulation) {}
    mutating func connect(sim: inout Simulation) {}
    mutating func timer(_ kind: EventKind, sim: inout Simulation) {}
    var outbox: [Datagram] = []
    var isEstablished: Bool { acceptsWrites }
    mutating func deliver(_ d: Datagram, sim: inout Simulation) -> Arrival? { nil }
    static var closesWhenWritten: Bool { false }
}

func thesisFlow(probes: Int, packets: Int, size: Int) -> FlowApplication {
    FlowApplication(
        spec: FlowSpec(
            id: "f", from: 0, to: 1, transport: .tcp, workload: .thesis(probes: probes, packets: packets, size: size),
            start: .zero), index: 0)
}

@Suite("Layer seams")
struct SeamTests {
    @Test func flowSidesAreTheOnePlaceOfTheIndexArithmetic() {
        for k in 0..<5 {
            expectEqual(FlowSide.client(k).index, 2 * k)
            expectEqual(FlowSide.server(k).index, 2 * k + 1)
            expectEqual(FlowSide(index: 2 * k + 1), .server(k))
            expectEqual(FlowSide.client(k).peer, .server(k))
        }
    }

    @Test func everyEventKindBelongsToItsLayersBlock() {
        expect(
            [EventKind.macAccess, .macTxEnd, .macAckTimeout, .macRespond, .idealTxEnd, .idealArrival].allSatisfy {
                $0.block == .link
            })
        expect([EventKind.trafficStart, .broadcastTick].allSatisfy { $0.block == .linkTraffic })
        expect(
            [EventKind.flowStart, .testStart, .cbrTick, .transferDue, .hostWake].allSatisfy { $0.block == .application }
        )
        expect([EventKind.mobilityTick, .nodeEvent].allSatisfy { $0.block == .world })
        expect(
            [EventKind.meshHeartbeat, .meshMessage, .meshConfirmTimeout, .meshRequestTimeout]
                .allSatisfy { $0.block == .layer && MeshNetwork.owns($0) && !BleNetwork.owns($0) })
        expect(
            [EventKind.sessionRound, .bonjourQuery, .reliableResend, .transferStart, .handshakeTimer]
                .allSatisfy { $0.block == .layer && SessionEvents.owns($0) && !MeshNetwork.owns($0) })
        expect(
            [EventKind.tcpRetransmit, .tcpDelayedAck, .tcpKeepalive, .quicLossDetection, .quicAckDelay]
                .allSatisfy { $0.block == .transport })
        expectEqual(EventKind.holdModel.block, .unassigned)
    }

    /// RFC 9293 Figure 5, the part modelled: open, handshake, established, abort.
    @Test func tcpStateChangesFollowTheStateDiagram() {
        typealias S = TcpEndpoint.State
        let arrows: [(S, S)] = [
            (.closed, .synSent), (.closed, .listen), (.listen, .synReceived), (.synSent, .established),
            (.synReceived, .established), (.synSent, .closed), (.synReceived, .closed), (.established, .closed)
        ]
        let all: [S] = [.closed, .listen, .synSent, .synReceived, .established]
        for a in all {
            for b in all {
                expectEqual(TcpEndpoint.allowed(from: a, to: b), arrows.contains { $0 == (a, b) }, "\(a) → \(b)")
            }
        }
    }

    @Test func newRenoGrowsAsRfc5681Says() {
        var w = CongestionWindow(cwnd: 14_480, mss: 1448)
        var c = NewReno()
        c.onAck(&w, acked: 3000, now: .zero, srtt: nil)
        expectEqual(w.cwnd, 14_480 + 1448)  // slow start: + min(N, SMSS)
        c.onCongestionEvent(&w, flightSize: 20_000)
        expectEqual(w.ssthresh, 10_000)  // max(FlightSize / 2, 2·SMSS)
        w.cwnd = 20_000
        c.onAck(&w, acked: 1448, now: .zero, srtt: nil)
        let avoidance: Double = 1448.0 * 1448.0 / 20_000.0
        expectEqual(w.cwnd, 20_000 + avoidance)  // avoidance: + SMSS²/cwnd
        c.onCongestionEvent(&w, flightSize: 1000)
        expectEqual(w.ssthresh, 2 * 1448)  // never below 2·SMSS
    }

    @Test func quicNewRenoUsesRfc9002IntegerArithmetic() {
        var w = CongestionWindow(cwnd: 12_000, mss: 1200)
        var c = QuicNewReno()
        c.onAck(&w, acked: 1200, now: .zero, srtt: nil)
        expectEqual(w.cwnd, 13_200)  // slow start: + acked bytes
        c.onCongestionEvent(&w, flightSize: 0)
        expect(w.ssthresh == 6600 && w.cwnd == 6600)  // halved
        c.onAck(&w, acked: 1000, now: .zero, srtt: nil)
        expectEqual(w.cwnd, 6600 + 181)  // ⌊1200 · 1000 / 6600⌋ = ⌊181.8⌋
        w.cwnd = 3001
        c.onCongestionEvent(&w, flightSize: 0)
        expect(w.ssthresh == 1500 && w.cwnd == 2400)  // ⌊3001 / 2⌋, floored at 2·max_datagram_size
    }

    @Test func cubicReturnsToItsPreviousMaximumAfterK() {
        // RFC 9438 eq. 2: K = ∛(W_max·(1 − β) / C). A window of 100 segments cut to 70 climbs back
        // to 100 at K = ∛(30 / 0.4) ≈ 4.217 s.
        let mss = 1000.0
        var w = CongestionWindow(cwnd: 100 * mss, mss: mss)
        w.ssthresh = 0
        var c = Cubic()
        c.onCongestionEvent(&w, flightSize: 0)
        expectEqual(w.ssthresh, 70 * mss)
        w.cwnd = w.ssthresh
        c.onAck(&w, acked: 1000, now: .zero, srtt: 0)
        expect(abs(c.k - cbrt(30 / 0.4)) < 1e-12)
        expectEqual(c.wMax, 100)
    }

    @Test func quicLongHeaderTypesAreRfc9000s() {
        expectEqual(QuicPacketType.initial.longHeaderTypeBits, 0)
        expectEqual(QuicPacketType.zeroRtt.longHeaderTypeBits, 1)
        expectEqual(QuicPacketType.handshake.longHeaderTypeBits, 2)
        expect(!QuicPacketType.oneRtt.hasLongHeader)
        expect(
            QuicPacketType.initial.carriesCrypto && QuicPacketType.handshake.carriesCrypto
                && !QuicPacketType.zeroRtt.carriesCrypto)
    }

    /// The thesis application over a byte stream, as the app does it (measurement.md): P
    /// 12-byte probes submitted at one instant; the server reads each probe (two receive
    /// completions) once all its bytes are in and submits its echo; it sinks what follows.
    @Test func theThesisApplicationFramesProbesOnAStream() {
        let free = ConnectionQueue.ideal(sendCost: .zero, receiveCost: .zero)
        var client = thesisFlow(probes: 3, packets: 2, size: 100)
        var q = free
        client.startProbes(&q, now: .milliseconds(7))
        expect(
            q.pending.elements.map(\.message) == [0, 1, 2]
                && q.pending.elements.allSatisfy { $0.bytes == 12 && !$0.awaited })
        expectEqual(client.probeSent, [.milliseconds(7), .milliseconds(7), .milliseconds(7)])

        var server = thesisFlow(probes: 3, packets: 2, size: 100)
        var sq = free
        var back = RecordingSocket()
        server.serverReceived(.stream(upTo: 20), &sq, &back, now: .milliseconds(1))
        expectEqual(sq.pending.elements.count, 1)  // 12 of 36 probe bytes: probe 0 only
        server.serverReceived(.stream(upTo: 36 + 150), &sq, &back, now: .milliseconds(2))
        expectEqual(sq.pending.elements.map(\.message), [0, 1, 2])
        expect(server.bytesDelivered == 150 && server.messagesDelivered == 1)  // one whole 100-byte message

        // Echoes are timed on their receive completion; the transfer waits for its own event.
        client.clientReceived(.stream(upTo: 24), &q, &back, now: .milliseconds(9))
        client.clientReceived(.stream(upTo: 36), &q, &back, now: .milliseconds(10))
        expectEqual(client.probeEcho.compactMap { $0 }, [.milliseconds(9), .milliseconds(9), .milliseconds(10)])
        expect(!client.wantsWrite)
    }

    /// With a message per write (QUIC stream per write, UDP): probes are messages 0..<P, each
    /// echoed once when complete; its stream is then finished.
    @Test func theThesisApplicationEchoesMessagesOnce() {
        var server = thesisFlow(probes: 2, packets: 1, size: 100)
        var q = ConnectionQueue.ideal(sendCost: .zero, receiveCost: .zero)
        var back = RecordingSocket()
        server.serverReceived(.message(index: 1, before: 0, upTo: 10), &q, &back, now: .zero)
        expect(q.pending.isEmpty)
        server.serverReceived(.message(index: 1, before: 10, upTo: 12), &q, &back, now: .zero)
        server.serverReceived(.message(index: 1, before: 12, upTo: 12), &q, &back, now: .zero)
        expect(q.pending.elements.map(\.message) == [1] && back.finished == [1])
        server.serverReceived(.message(index: 2, before: 0, upTo: 100), &q, &back, now: .zero)
        expect(server.bytesDelivered == 100 && back.finished == [1, 2] && server.messagesDelivered == 1)
    }

    /// Transfer writes are awaited: the next is submitted only when the previous one completed,
    /// and a completion waits for send-buffer room, as Network.framework's `.contentProcessed`
    /// does (DTS, Apple developer forums thread 773326).
    @Test func aTransferWriteIsAwaitedAndWaitsForRoom() {
        var sim = Simulation(seed: 1)
        var app = thesisFlow(probes: 0, packets: 3, size: 1000)
        var q = ConnectionQueue.ideal(sendCost: .microseconds(10), receiveCost: .zero)
        var socket = RecordingSocket(room: 999)
        app.beginTransfer()
        expect(app.submitNext(&q, now: .zero))
        expect(!app.submitNext(&q, now: .zero))  // awaited: one at a time
        HostStack.releaseWrites(&q, &app, &socket, now: .microseconds(10), sim: &sim)
        expect(socket.writes.isEmpty && app.writesDone == 0)  // no room yet
        socket.room = 1000
        HostStack.releaseWrites(&q, &app, &socket, now: .microseconds(10), sim: &sim)
        // The first completed at 10 µs; the second was submitted then and is served at 20 µs.
        expect(app.writesDone == 1 && q.first?.readyAt == .microseconds(20) && q.first?.message == 1)
    }

    /// P probes submitted back to back on a queue of service time c: the k-th (from 0) leaves
    /// at (k + 1)·c, so its RTT carries k·c more than the first one's.
    @Test func backToBackProbesQueueBehindEachOther() {
        var app = thesisFlow(probes: 5, packets: 1, size: 100)
        var q = ConnectionQueue.ideal(sendCost: .microseconds(40), receiveCost: .microseconds(15))
        app.startProbes(&q, now: .milliseconds(1))
        let ready: [SimTime] = (1...5).map { SimTime.milliseconds(1) + SimTime.microseconds(40) * Int64($0) }
        expectEqual(q.pending.elements.map(\.readyAt), ready)
        // A received message queues behind the sends and takes two reads (length, then the
        // rest): 5 × 40 + 2 × 15 = 230 µs.
        let done: SimTime = .milliseconds(1) + .microseconds(230)
        expectEqual(q.receiveCompletion(arrivedAt: .milliseconds(1)), done)
    }

    /// The start phase: after the idle time, at the asked position in the AWDL sequence.
    @Test func theProbeBurstStartsAtItsPhaseAfterTheIdleTime() {
        func app(_ phase: StartPhase) -> FlowApplication {
            var spec = thesisFlow(probes: 1, packets: 1, size: 10).spec
            spec.startPhase = phase
            return FlowApplication(spec: spec, index: 0)
        }
        let period = FlowApplication.phasePeriod  // 1.048576 s
        var a = app(.offset(.milliseconds(100)))
        // Connected at 0.5 s: idle until 0.5 + 5 s, then the next instant ≡ 0.1 s mod period.
        let t = a.opened(now: .milliseconds(500), phase: 0)!
        expectEqual(t.nanoseconds % period.nanoseconds, 100_000_000)
        expect(t >= .milliseconds(500) + FlowApplication.idleBeforeTest)
        expect(t < .milliseconds(500) + FlowApplication.idleBeforeTest + period)
        // Random: idle uniform over 5…7 s (the development set's spacing of tests); phase 0.5
        // is the middle, 6 s.
        var r = app(.random)
        expectEqual(r.opened(now: .zero, phase: 0.5)!, .seconds(6))
        var r0 = app(.random)
        expectEqual(r0.opened(now: .milliseconds(2), phase: 0)!, .milliseconds(5_002))
        var c = app(.connect)
        expectEqual(c.opened(now: .milliseconds(3), phase: 0.9), .milliseconds(3))
    }

    /// The ideal link's down state: a down node's sends are refused and counted, its queue is
    /// lost; a packet already being serialised still completes.
    @Test func anIdealLinkNodeThatIsDownNeitherSendsNorReceives() throws {
        let s = try linkScenario(
            nodes: [("A", 0, 0), ("B", 10, 0)], radio: ["technology": "ideal"],
            extra: ["link": ["rateMbps": 8, "delayMs": 1]])
        var sim = Simulation(seed: 1)
        var link = IdealLink(
            s, radio: RadioConfiguration(s.radio), place: PlaceParameters.resolve(s.environment, frequencyHz: 5.8e9),
            positions: [Position(x: 0, y: 0, z: 0), Position(x: 10, y: 0, z: 0)], sim: &sim)
        let p = LinkPacket(source: 0, destination: 1, bytes: 1000, owner: .linkTraffic, tag: 0, enqueued: .zero)
        expect(link.send(p, sim: &sim) && link.send(p, sim: &sim) && link.send(p, sim: &sim))
        link.setDown(0, sim: &sim)
        expectEqual(link.counters(of: 0).retryDrops, 2)  // the two waiting; the first is on the wire
        expect(!link.send(p, sim: &sim) && link.counters(of: 0).queueDrops == 1)
        link.setUp(0, sim: &sim)
        expect(link.send(p, sim: &sim))
        expectEqual(link.notices.filter { $0.kind == .dropped }.count, 2)
    }
}

/// A thesis test whose probes exceed the TCP send buffer used to trap
/// ("write beyond the send buffer"). Probes and echoes now wait for room, as blocking socket
/// writes do, and every probe is still timed.
@Suite("Blocking writes")
struct BlockingWriteTests {
    @Test func probesBeyondTheSendBufferWaitForRoom() throws {
        var t = TestScenario.twoPhones(
            name: "b", duration: 30, radio: ["technology": "ideal"], protocol: "tcp",
            workload: ["kind": "thesis", "probes": 200, "packets": 10, "size": 100])
        t["link"] = ["rateMbps": 10, "delayMs": 5]
        t["transport"] = ["tcp": ["sendBufferBytes": 1024]]
        let scenario = try t.decoded()
        let report = try ScenarioRunner.run(scenario)
        // 200 probes of 12 bytes = 2400 bytes, more than twice the 1024-byte buffer: all timed.
        let rtts = report.flows[0].rttsMs
        expectEqual(rtts.count, 200)
        expectEqual(report.flows[0].status, "ok")
        // The buffer takes 85 probes; the other 115 enter only as ACKs free room, so the last
        // probe waits at least two more round trips (2 × 10 ms) than the first.
        expect(rtts[199] - rtts[0] >= 20)
    }
}

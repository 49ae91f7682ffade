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
            #expect(FlowSide.client(k).index == 2 * k)
            #expect(FlowSide.server(k).index == 2 * k + 1)
            #expect(FlowSide(index: 2 * k + 1) == .server(k))
            #expect(FlowSide.client(k).peer == .server(k))
        }
    }

    @Test func everyEventKindBelongsToItsLayersBlock() {
        #expect(
            [EventKind.macAccess, .macTxEnd, .macAckTimeout, .macRespond, .idealTxEnd, .idealArrival].allSatisfy {
                $0.block == .link
            })
        #expect([EventKind.trafficStart, .broadcastTick].allSatisfy { $0.block == .linkTraffic })
        #expect([EventKind.flowStart, .probeTimeout, .cbrTick].allSatisfy { $0.block == .application })
        #expect([EventKind.mobilityTick, .nodeEvent].allSatisfy { $0.block == .world })
        #expect(
            [EventKind.meshHeartbeat, .meshSessions, .meshMessage, .meshConfirmTimeout, .meshRequestTimeout]
                .allSatisfy { $0.block == .mesh })
        #expect(
            [EventKind.tcpRetransmit, .tcpDelayedAck, .tcpKeepalive, .quicLossDetection, .quicAckDelay]
                .allSatisfy { $0.block == .transport })
        #expect(EventKind.holdModel.block == .unassigned)
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
                #expect(TcpEndpoint.allowed(from: a, to: b) == arrows.contains { $0 == (a, b) }, "\(a) → \(b)")
            }
        }
    }

    @Test func newRenoGrowsAsRfc5681Says() {
        var w = CongestionWindow(cwnd: 14_480, mss: 1448)
        var c = NewReno()
        c.onAck(&w, acked: 3000, now: .zero, srtt: nil)
        #expect(w.cwnd == 14_480 + 1448)  // slow start: + min(N, SMSS)
        c.onCongestionEvent(&w, flightSize: 20_000)
        #expect(w.ssthresh == 10_000)  // max(FlightSize / 2, 2·SMSS)
        w.cwnd = 20_000
        c.onAck(&w, acked: 1448, now: .zero, srtt: nil)
        let avoidance: Double = 1448.0 * 1448.0 / 20_000.0
        #expect(w.cwnd == 20_000 + avoidance)  // avoidance: + SMSS²/cwnd
        c.onCongestionEvent(&w, flightSize: 1000)
        #expect(w.ssthresh == 2 * 1448)  // never below 2·SMSS
    }

    @Test func quicNewRenoUsesRfc9002IntegerArithmetic() {
        var w = CongestionWindow(cwnd: 12_000, mss: 1200)
        var c = QuicNewReno()
        c.onAck(&w, acked: 1200, now: .zero, srtt: nil)
        #expect(w.cwnd == 13_200)  // slow start: + acked bytes
        c.onCongestionEvent(&w, flightSize: 0)
        #expect(w.ssthresh == 6600 && w.cwnd == 6600)  // halved
        c.onAck(&w, acked: 1000, now: .zero, srtt: nil)
        #expect(w.cwnd == 6600 + 181)  // ⌊1200 · 1000 / 6600⌋ = ⌊181.8⌋
        w.cwnd = 3001
        c.onCongestionEvent(&w, flightSize: 0)
        #expect(w.ssthresh == 1500 && w.cwnd == 2400)  // ⌊3001 / 2⌋, floored at 2·max_datagram_size
    }

    @Test func cubicReturnsToItsPreviousMaximumAfterK() {
        // RFC 9438 eq. 2: K = ∛(W_max·(1 − β) / C). A window of 100 segments cut to 70 climbs back
        // to 100 at K = ∛(30 / 0.4) ≈ 4.217 s.
        let mss = 1000.0
        var w = CongestionWindow(cwnd: 100 * mss, mss: mss)
        w.ssthresh = 0
        var c = Cubic()
        c.onCongestionEvent(&w, flightSize: 0)
        #expect(w.ssthresh == 70 * mss)
        w.cwnd = w.ssthresh
        c.onAck(&w, acked: 1000, now: .zero, srtt: 0)
        #expect(abs(c.k - cbrt(30 / 0.4)) < 1e-12)
        #expect(c.wMax == 100)
    }

    @Test func quicLongHeaderTypesAreRfc9000s() {
        #expect(QuicPacketType.initial.longHeaderTypeBits == 0)
        #expect(QuicPacketType.zeroRtt.longHeaderTypeBits == 1)
        #expect(QuicPacketType.handshake.longHeaderTypeBits == 2)
        #expect(!QuicPacketType.oneRtt.hasLongHeader)
        #expect(
            QuicPacketType.initial.carriesCrypto && QuicPacketType.handshake.carriesCrypto
                && !QuicPacketType.zeroRtt.carriesCrypto)
    }

    /// The thesis application over a byte stream, written once for every transport: P probes
    /// back to back on connect; the server echoes each probe only once all its bytes are in,
    /// and sinks what follows the probes.
    @Test func theThesisApplicationFramesProbesOnAStream() {
        var sim = Simulation(seed: 1)
        var client = thesisFlow(probes: 3, packets: 2, size: 100)
        var socket = RecordingSocket()
        client.connected(&socket, now: .zero, sim: &sim)
        #expect(socket.writes.map(\.message) == [0, 1, 2] && socket.writes.allSatisfy { $0.bytes == 16 })
        client.connected(&socket, now: .zero, sim: &sim)  // a second open writes nothing more
        #expect(socket.writes.count == 3)

        var server = thesisFlow(probes: 3, packets: 2, size: 100)
        var back = RecordingSocket()
        server.serverReceived(.stream(upTo: 20), &back, now: .milliseconds(1), sim: &sim)
        #expect(back.writes.count == 1)  // 16 of 48 probe bytes: probe 0 only
        server.serverReceived(.stream(upTo: 48 + 150), &back, now: .milliseconds(2), sim: &sim)
        #expect(back.writes.map(\.message) == [0, 1, 2])
        #expect(server.bytesDelivered == 150)  // the data after the probes

        // Echoes: all three back → the transfer begins, and the writes are messages 3 and 4.
        #expect(!client.clientReceived(.stream(upTo: 32), &socket, now: .milliseconds(3)))
        #expect(client.clientReceived(.stream(upTo: 48), &socket, now: .milliseconds(4)))
        #expect(client.probeEcho.compactMap { $0 } == [.milliseconds(3), .milliseconds(3), .milliseconds(4)])
        while client.wantsWrite && client.writeNext(&socket, now: .milliseconds(5), sim: &sim) {}
        #expect(socket.writes.suffix(2).map(\.message) == [3, 4] && client.finishedWriting)
    }

    /// With a message per write (QUIC stream per write, UDP): probes are messages 0..<P, each
    /// echoed once when complete; its stream is then finished.
    @Test func theThesisApplicationEchoesMessagesOnce() {
        var sim = Simulation(seed: 1)
        var server = thesisFlow(probes: 2, packets: 1, size: 100)
        var back = RecordingSocket()
        server.serverReceived(.message(index: 1, before: 0, upTo: 10), &back, now: .zero, sim: &sim)
        #expect(back.writes.isEmpty)
        server.serverReceived(.message(index: 1, before: 10, upTo: 16), &back, now: .zero, sim: &sim)
        server.serverReceived(.message(index: 1, before: 16, upTo: 16), &back, now: .zero, sim: &sim)
        #expect(back.writes.map(\.message) == [1] && back.finished == [1])
        server.serverReceived(.message(index: 2, before: 0, upTo: 100), &back, now: .zero, sim: &sim)
        #expect(server.bytesDelivered == 100 && back.finished == [1, 2])
    }

    /// A write waits for send-buffer room, as a blocking socket does.
    @Test func aWriteWaitsForRoom() {
        var sim = Simulation(seed: 1)
        var app = thesisFlow(probes: 0, packets: 3, size: 1000)
        var socket = RecordingSocket(room: 999)
        app.connected(&socket, now: .zero, sim: &sim)
        #expect(app.transferring)
        #expect(!app.writeNext(&socket, now: .zero, sim: &sim) && app.writesDone == 0)
        socket.room = 1000
        #expect(app.writeNext(&socket, now: .zero, sim: &sim) && app.writesDone == 1)
    }

    /// The ideal link's down state: a down node's sends are refused and counted, its queue is
    /// lost; a packet already being serialised still completes.
    @Test func anIdealLinkNodeThatIsDownNeitherSendsNorReceives() throws {
        let s = try linkScenario(
            nodes: [("A", 0, 0), ("B", 10, 0)], radio: "{\"technology\": \"ideal\"}", traffic: "[]",
            extra: "\"link\": {\"rateMbps\": 8, \"delayMs\": 1},")
        var sim = Simulation(seed: 1)
        var link = IdealLink(
            s, radio: RadioConfiguration(s.radio), place: PlaceParameters.resolve(s.environment, frequencyHz: 5.8e9),
            positions: [Position(x: 0, y: 0, z: 0), Position(x: 10, y: 0, z: 0)], sim: &sim)
        let p = LinkPacket(source: 0, destination: 1, bytes: 1000, owner: .linkTraffic, tag: 0, enqueued: .zero)
        #expect(link.send(p, sim: &sim) && link.send(p, sim: &sim) && link.send(p, sim: &sim))
        link.setDown(0, sim: &sim)
        #expect(link.counters(of: 0).retryDrops == 2)  // the two waiting; the first is on the wire
        #expect(!link.send(p, sim: &sim) && link.counters(of: 0).queueDrops == 1)
        link.setUp(0, sim: &sim)
        #expect(link.send(p, sim: &sim))
        #expect(link.notices.filter { $0.kind == .dropped }.count == 2)
    }
}

/// Issue #10, class 9: a thesis test whose probes exceed the TCP send buffer used to trap
/// ("write beyond the send buffer"). Probes and echoes now wait for room, as blocking socket
/// writes do, and every probe is still timed.
@Suite("Blocking writes")
struct BlockingWriteTests {
    @Test func probesBeyondTheSendBufferWaitForRoom() throws {
        let text = """
            {"name": "b", "seed": 1, "duration_s": 30, "environment": {"preset": "field"}, "radio": {"technology": "ideal"},
             "link": {"rateMbps": 10, "delayMs": 5}, "transport": {"tcp": {"sendBufferBytes": 1024}},
             "nodes": [{"id": "c", "position": [0, 0, 1.2]}, {"id": "s", "position": [10, 0, 1.2]}],
             "flows": [{"id": "f", "from": "c", "to": "s", "protocol": "tcp",
                        "workload": {"kind": "thesis", "probes": 200, "packets": 10, "size": 100}}]}
            """
        let scenario = try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "b.json")
        let report = try ScenarioRunner.run(scenario)
        // 200 probes of 16 bytes = 3200 bytes, three times the 1024-byte buffer: all timed.
        #expect(report.flows[0].rttsMs.count == 200)
        #expect(report.flows[0].status == "ok")
        var sim = Simulation(seed: scenario.seed)
        var world = World<IdealLink>(scenario, sim: &sim)
        _ = sim.run(&world, until: scenario.duration)
        let sent = world.hosts.flows[0].app.probeSent
        // The first 1024 / 16 = 64 probes fit at once; the 65th waited for acknowledged room.
        #expect(sent[63] == sent[0])
        #expect(sent[64] > sent[0])
    }
}

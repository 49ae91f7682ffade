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

/// The thesis application on its own, over a recording socket and an ideal connection queue.
struct FlowApplicationTests {
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
}

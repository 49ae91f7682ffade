extension EventKind {
    /// A flow's client starts (target: flow).
    public static let flowStart = EventKind(rawValue: 210)
    /// The probe phase gave up waiting for lost echoes (target: flow).
    public static let probeTimeout = EventKind(rawValue: 211)
    /// A CBR flow's next write is due (target: flow).
    public static let cbrTick = EventKind(rawValue: 212)
}

/// The application behaviour of one flow (measurement.md, "Procedure of one test"): the
/// client's writes and the server's echoes, over TCP or UDP, and what they measured.
///
/// Thesis test: after connecting, the client writes P probes of `probeBytes` back to back
/// (not paced), each remembered with its send time; the server echoes each probe; RTT = echo
/// arrival − send time. When every echo is back (or `probeWait` passed without one: UDP
/// echoes can be lost), the client makes N writes of S bytes; the test runs from the first
/// write to the moment the last write is accepted. A write is accepted when the transport can
/// take all of it: TCP when the send buffer has room, UDP when the link's transmit queue has
/// room (a blocking sender; an assumption: Network.framework's UDP sends complete when the
/// datagram is handed to the interface).
public struct FlowApplication: Sendable {
    /// Probe message size: an 8-byte sequence number and an 8-byte timestamp (assumption).
    public static let probeBytes = 16
    /// How long the client waits for missing probe echoes before starting the transfer
    /// (assumption: 1 s, twenty AWDL slots).
    public static let probeWait = SimTime.seconds(1)
    /// TCP bulk and UDP bulk write sizes: 64 KiB per TCP write (assumption), one unfragmented
    /// datagram per UDP write.
    public static let bulkWriteBytes: Int64 = 65_536

    /// The flow's specification.
    public let spec: FlowSpec
    /// The flow's index.
    public let index: Int

    /// Probes to send.
    public var probes: Int { if case .thesis(let p, _, _) = spec.workload { return p } else { return 0 } }

    // Probe phase.
    /// Send time of each probe.
    public private(set) var probeSent: [SimTime] = []
    /// Echo arrival of each probe (nil if none).
    public private(set) var probeEcho: [SimTime?] = []
    var echoesReceived = 0
    var probesEchoedByServer = 0

    // Transfer phase.
    /// Writes of the transfer, and their size.
    public var writes: Int64 {
        switch spec.workload {
        case .thesis(_, let n, _): return Int64(n)
        case .bulk(let b): return (Int64(b) + chunk - 1) / chunk
        case .cbr: return .max
        }
    }
    /// Bytes per write.
    public var chunk: Int64 {
        switch spec.workload {
        case .thesis(_, _, let s): return Int64(s)
        case .bulk(let b): return Swift.min(Int64(b), FlowApplication.bulkWriteBytes)
        case .cbr(_, let s): return Int64(s)
        }
    }
    /// Writes accepted so far.
    public private(set) var writesDone: Int64 = 0
    /// Application bytes the client handed over in the transfer.
    public private(set) var bytesSent: Int64 = 0
    /// Transfer bytes that reached the server application.
    public private(set) var bytesDelivered: Int64 = 0
    /// UDP datagrams of the transfer sent / delivered.
    public private(set) var datagramsSent: Int64 = 0
    /// See `datagramsSent`.
    public private(set) var datagramsDelivered: Int64 = 0
    /// First transfer write.
    public private(set) var transferStart: SimTime?
    /// Last transfer write accepted.
    public private(set) var transferEnd: SimTime?
    /// Last transfer byte arrival at the server.
    public private(set) var lastArrival: SimTime?
    /// Whether the probe phase is over.
    public private(set) var transferring = false
    /// Why the flow failed, if it did.
    public var failure: String?
    /// When the client started connecting.
    public private(set) var startedAt: SimTime?
    /// CBR writes waiting for the transport.
    var cbrBacklog: Int64 = 0
    /// Whether the client's socket has accepted writes (the probes began).
    var opened = false
    /// Server, byte stream: stream bytes consumed so far.
    var serverConsumed: Int64 = 0
    /// Client, byte stream: echo bytes consumed so far.
    var clientConsumed: Int64 = 0

    /// A flow's application.
    public init(spec: FlowSpec, index: Int) {
        self.spec = spec
        self.index = index
    }

    // MARK: Client side

    /// The client starts.
    public mutating func start(now: SimTime) { startedAt = now }

    /// Probe i is written now.
    public mutating func probeWritten(now: SimTime) {
        probeSent.append(now)
        probeEcho.append(nil)
    }

    /// The echo of probe `i` arrived at the client. Returns whether all echoes are in.
    public mutating func echoArrived(_ probe: Int, now: SimTime) -> Bool {
        if probe < probeEcho.count, probeEcho[probe] == nil {
            probeEcho[probe] = now
            echoesReceived += 1
        }
        return echoesReceived == probes
    }

    /// The transfer phase begins.
    public mutating func beginTransfer() { transferring = true }

    /// Whether another write is due.
    public var wantsWrite: Bool { transferring && failure == nil && writesDone < writes && (!isCbr || cbrBacklog > 0) }
    var isCbr: Bool { if case .cbr = spec.workload { return true } else { return false } }

    /// The size of the next write.
    public var nextWriteBytes: Int64 {
        if case .bulk(let b) = spec.workload { return Swift.min(chunk, Int64(b) - bytesSent) }
        return chunk
    }

    /// The next write was accepted.
    public mutating func wrote(_ bytes: Int64, now: SimTime, datagram: Bool) {
        if transferStart == nil { transferStart = now }
        writesDone += 1
        bytesSent += bytes
        if datagram { datagramsSent += 1 }
        if isCbr { cbrBacklog -= 1 }
        transferEnd = now
    }

    /// A CBR write became due.
    public mutating func cbrDue() { cbrBacklog += 1 }

    // MARK: Server side

    /// Transfer bytes reached the server application.
    public mutating func delivered(_ bytes: Int64, now: SimTime, datagram: Bool) {
        bytesDelivered += bytes
        if datagram { datagramsDelivered += 1 }
        lastArrival = now
    }

    /// The server echoed one more probe (TCP: counts the echoes written so far).
    public mutating func serverEchoed() { probesEchoedByServer += 1 }
    /// Echoes the server has written.
    public var serverEchoes: Int { probesEchoedByServer }
}

/// The thesis test's application over any transport (measurement.md, "Procedure of one test"),
/// written once against `FlowSocket`: what the client does when its socket accepts writes and
/// when echoes arrive, and what the server does with probes and data. Framing: on a byte stream
/// the probes are the first P·`probeBytes` bytes and the transfer follows; with a message per
/// write (QUIC stream per write, UDP) messages 0..<P are probes.
extension FlowApplication {
    /// The client's socket accepts writes for the first time (connected, or early data): write
    /// the probes back to back, or go straight to the transfer when there are none.
    public mutating func connected<S: FlowSocket>(_ socket: inout S, now: SimTime, sim: inout Simulation) {
        guard !opened else { return }
        opened = true
        if probes == 0 { beginTransfer() }
        writeProbes(&socket, now: now, sim: &sim)
    }

    /// Writes the probes not yet written while the socket has room for them: a probe the send
    /// buffer cannot take waits, as a blocking socket write does, and goes out when room frees.
    public mutating func writeProbes<S: FlowSocket>(_ socket: inout S, now: SimTime, sim: inout Simulation) {
        let bytes = Int64(FlowApplication.probeBytes)
        while opened && probeSent.count < probes && socket.hasRoom(for: bytes) {
            let i = probeSent.count
            probeWritten(now: now)
            socket.write(message: i, bytes: bytes, sim: &sim)
        }
    }

    /// Data arrived at the server: echo every probe that is now complete, sink the rest.
    public mutating func serverReceived<S: FlowSocket>(
        _ arrival: Arrival, _ socket: inout S, now: SimTime,
        sim: inout Simulation
    ) {
        let probeBytes = Int64(FlowApplication.probeBytes)
        switch arrival {
        case .stream(let upTo):
            // Echoes wait for send-buffer room (a blocking write); any later arrival, an ACK
            // included, lets the waiting ones go.
            while serverEchoes < probes && upTo >= Int64(serverEchoes + 1) * probeBytes && socket.hasRoom(for: probeBytes) {
                socket.write(message: serverEchoes, bytes: probeBytes, sim: &sim)
                serverEchoed()
            }
            guard upTo > serverConsumed else { return }
            let probeStream = Int64(probes) * probeBytes
            if upTo > probeStream {
                let newData = upTo - Swift.max(serverConsumed, probeStream)
                if newData > 0 { delivered(newData, now: now, datagram: false) }
            }
            serverConsumed = upTo
        case .message(let index, let before, let upTo):
            if index < probes {
                guard upTo >= probeBytes && before < probeBytes else { return }
                socket.write(message: index, bytes: probeBytes, sim: &sim)
                serverEchoed()
                socket.finish(message: index)
            } else if upTo > before || S.isDatagram {
                delivered(upTo - before, now: now, datagram: S.isDatagram)
                if upTo >= chunk { socket.finish(message: index) }
            }
        }
    }

    /// Data arrived at the client: time every echo that is now complete; when the last one is
    /// in, the transfer begins. Returns whether it began now.
    public mutating func clientReceived<S: FlowSocket>(_ arrival: Arrival, _ socket: inout S, now: SimTime) -> Bool {
        let probeBytes = Int64(FlowApplication.probeBytes)
        var began = false
        switch arrival {
        case .stream(let upTo):
            while clientConsumed + probeBytes <= upTo {
                let i = Int(clientConsumed / probeBytes)
                clientConsumed += probeBytes
                if echoArrived(i, now: now) && !transferring {
                    beginTransfer()
                    began = true
                }
            }
        case .message(let index, _, let upTo):
            guard upTo >= probeBytes else { return false }
            socket.finish(message: index)
            if echoArrived(index, now: now) && !transferring {
                beginTransfer()
                began = true
            }
        }
        return began
    }

    /// Makes the next write if the socket can take it now. Returns whether it did.
    public mutating func writeNext<S: FlowSocket>(_ socket: inout S, now: SimTime, sim: inout Simulation) -> Bool {
        let bytes = nextWriteBytes
        guard socket.acceptsWrites, socket.hasRoom(for: bytes) else { return false }
        socket.write(message: probes + Int(writesDone), bytes: bytes, sim: &sim)
        wrote(bytes, now: now, datagram: S.isDatagram)
        return true
    }

    /// Whether every write of a finite workload was made (the client may close).
    public var finishedWriting: Bool { writes != .max && writesDone == writes }
}

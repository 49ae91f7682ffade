extension EventKind {
    /// A flow's client starts (target: flow).
    public static let flowStart = EventKind(rawValue: 210)
    /// A person taps "start": the thesis test's probe burst begins (target: flow).
    public static let testStart = EventKind(rawValue: 211)
    /// A CBR flow's next write is due (target: flow).
    public static let cbrTick = EventKind(rawValue: 212)
    /// The thesis app's fixed pause after the probe loop ended: the transfer begins (target: flow).
    public static let transferDue = EventKind(rawValue: 213)
    /// A connection queue's next send is served (target: flow side).
    public static let hostWake = EventKind(rawValue: 214)
}

/// When the thesis test's probe burst begins (`workload.startPhase`).
public enum StartPhase: Sendable, Equatable {
    /// After an idle time drawn uniformly from 5–7 s from the flow's own random stream (the
    /// default; `FlowApplication.idleBeforeTest`; measurement.md, "How the executed study's
    /// app actually measured": a person taps start on a connection opened long before).
    case random
    /// At this offset into the AWDL channel sequence (0 ≤ offset < 16 slots), after the idle time.
    case offset(SimTime)
    /// The instant the connection can take writes (no idle time: the probes ride the handshake's
    /// AWDL activity).
    case connect
}

/// The application behaviour of one flow, as the thesis app does it (measurement.md, "How the
/// executed study's app actually measured"; MatthiasBart/PtPPrototype at 3a141672,
/// `ConnectionImpl.swift`, `ConnectionMetricsServer.swift`):
///
/// - The connection is opened first; a person taps start later (`StartPhase`).
/// - Probe phase: P sends of 12 bytes (a 4-byte length and an 8-byte timestamp) in a loop,
///   not awaited: all are submitted at one instant, each carrying that instant as its send
///   time. The server reads 4, then 8 bytes (two receive completions) and sends the echo; the
///   client takes RTT = echo's receive completion − carried send time.
/// - After the loop the client sleeps a fixed 1 s, whatever came back, then makes N writes of
///   S bytes (a 16-byte header inside), each awaited: the next write is made only when the
///   previous one's `.contentProcessed` completion fired (`ConnectionQueue`).
/// - The server takes the data rate: (bytes received + 4 per message) × 8 over first to last
///   arrival (receive completions); with S-byte messages whose 4-byte length prefix the app
///   reads apart, that is messages × S × 8. UDP loss = 1 − messages received / N.
///
/// Bulk and CBR workloads use the same awaited writes with no probes, pause or idle time.
/// Sends and receive completions go through the side's `ConnectionQueue`; this type decides
/// what is sent and records what arrived.
public struct FlowApplication: Sendable {
    /// Probe message size: a 4-byte length and an 8-byte `mach_absolute_time` stamp
    /// (measurement.md).
    public static let probeBytes = 12
    /// The thesis app's fixed sleep between the probe loop and the transfer (measurement.md).
    public static let pauseAfterProbes = SimTime.seconds(1)
    /// How long the connection has been idle when the person taps start, at least: 5 s. The app
    /// runs its probe tests in series on one connection (five per distance and protocol), and in
    /// the development set consecutive tests start 5–7 s apart (MatthiasBart/
    /// evaluation_notebook, `client/Client-*-Field-*` and `-Forest-*`: e.g. 11:38:05, :12, :18,
    /// :25, :32; 12:10:42, :47, :53, :59, 12:11:04), a test of 100 probes lasting well under a
    /// second. With a random start phase the idle time is uniform in
    /// [`idleBeforeTest`, `idleBeforeTest` + `idleSpread`] after the previous test's traffic,
    /// which the connection's opening stands for (`LinkTechnology.noteUnsimulatedTraffic`).
    public static let idleBeforeTest = SimTime.seconds(5)
    /// The width of the idle time's range: 2 s (the 5–7 s spacing above).
    public static let idleSpread = SimTime.seconds(2)
    /// The period the random start phase is drawn over: one AWDL channel sequence.
    public static let phasePeriod = AwdlSchedule.sequenceDuration
    /// TCP bulk and UDP bulk write sizes: 64 KiB per TCP write (assumption), one unfragmented
    /// datagram per UDP write.
    public static let bulkWriteBytes: Int64 = 65_536

    /// The flow's specification.
    public let spec: FlowSpec
    /// The flow's index.
    public let index: Int

    /// Probes to send.
    public var probes: Int { if case .thesis(let p, _, _) = spec.workload { return p } else { return 0 } }
    /// Whether this is the thesis test (probes, pause, awaited writes, start phase).
    public var isThesis: Bool { if case .thesis = spec.workload { return true } else { return false } }

    // Probe phase.
    /// Send time carried by each probe.
    public private(set) var probeSent: [SimTime] = []
    /// Receive completion of each probe's echo (nil if none).
    public private(set) var probeEcho: [SimTime?] = []
    /// When the probe burst began.
    public private(set) var testStartedAt: SimTime?
    var echoesReceived = 0
    /// Probes whose echo the server has submitted (byte stream: the next probe to echo).
    public private(set) var serverEchoes = 0

    // Transfer phase.
    /// Writes of the transfer (`.max`: constant bit rate, no end), fixed by the workload when
    /// the application is made (every received packet asks).
    public let writes: Int64
    /// Bytes per write, fixed by the workload likewise.
    public let chunk: Int64

    /// Bytes per write of `workload`.
    static func chunk(of workload: WorkloadSpec) -> Int64 {
        switch workload {
        case .thesis(_, _, let s): return Int64(s)
        case .bulk(let b): return Swift.min(Int64(b), FlowApplication.bulkWriteBytes)
        case .cbr(_, let s): return Int64(s)
        }
    }

    /// Writes of `workload`'s transfer.
    static func writes(of workload: WorkloadSpec) -> Int64 {
        switch workload {
        case .thesis(_, let n, _): return Int64(n)
        case .bulk(let b): return (Int64(b) + chunk(of: workload) - 1) / chunk(of: workload)
        case .cbr: return .max
        }
    }
    /// Writes submitted so far (the next write is message `probes + writesSubmitted`).
    public private(set) var writesSubmitted: Int64 = 0
    /// Writes completed (`.contentProcessed`) so far.
    public private(set) var writesDone: Int64 = 0
    /// Whether a submitted write has not completed yet (the app awaits it).
    public private(set) var writePending = false
    /// Application bytes of completed transfer writes.
    public private(set) var bytesSent: Int64 = 0
    /// Transfer bytes that reached the server's transport, in order.
    public private(set) var bytesDelivered: Int64 = 0
    /// Transfer messages the server application completed reading.
    public private(set) var messagesDelivered: Int64 = 0
    /// UDP datagrams of the transfer sent / delivered.
    public private(set) var datagramsSent: Int64 = 0
    /// See `datagramsSent`.
    public private(set) var datagramsDelivered: Int64 = 0
    /// First transfer write's completion.
    public private(set) var transferStart: SimTime?
    /// Last transfer write's completion.
    public private(set) var transferEnd: SimTime?
    /// Receive completion of the first transfer message at the server.
    public private(set) var firstArrival: SimTime?
    /// Receive completion of the last transfer message at the server.
    public private(set) var lastArrival: SimTime?
    /// Whether the transfer phase began.
    public private(set) var transferring = false
    /// Why the flow failed, if it did.
    public var failure: String?
    /// When the client started connecting.
    public private(set) var startedAt: SimTime?
    /// CBR writes due and not yet submitted.
    var cbrBacklog: Int64 = 0
    /// Whether the client's socket has accepted writes.
    public private(set) var opened = false
    /// Server, byte stream: transfer bytes consumed so far.
    var serverConsumed: Int64 = 0
    /// Client, byte stream: echo bytes consumed so far.
    var clientConsumed: Int64 = 0

    /// A flow's application.
    public init(spec: FlowSpec, index: Int) {
        self.spec = spec
        self.index = index
        writes = Self.writes(of: spec.workload)
        chunk = Self.chunk(of: spec.workload)
    }

    // MARK: Client side

    /// The client starts connecting.
    public mutating func start(now: SimTime) { startedAt = now }

    /// The client's socket accepts writes for the first time. Returns when the probe burst
    /// begins (thesis test; `phase` is a uniform draw in [0, 1) used by `StartPhase.random`),
    /// or `nil` when the transfer begins now (bulk, CBR).
    public mutating func opened(now: SimTime, phase: Double) -> SimTime? {
        guard !opened else { return nil }
        opened = true
        guard isThesis else {
            transferring = true
            return nil
        }
        let offset: SimTime
        switch spec.startPhase {
        case .connect: return now
        case .random:
            // Uniform over 2 s, almost two channel sequences: the phase is random too.
            let idle = Double(FlowApplication.idleSpread.nanoseconds) * phase
            return now + FlowApplication.idleBeforeTest + .nanoseconds(Int64(idle))
        case .offset(let o): offset = o
        }
        // The first instant after the idle time whose position in the channel sequence is `offset`.
        let period = FlowApplication.phasePeriod.nanoseconds
        let earliest = (now + FlowApplication.idleBeforeTest).nanoseconds
        var t = (earliest / period) * period + offset.nanoseconds
        if t < earliest { t += period }
        return SimTime(nanoseconds: t)
    }

    /// The probe loop: P sends submitted back to back at `now`, each carrying `now`.
    public mutating func startProbes(_ queue: inout ConnectionQueue, now: SimTime) {
        testStartedAt = now
        for i in 0..<probes {
            probeSent.append(now)
            probeEcho.append(nil)
            queue.submit(message: i, bytes: Int64(FlowApplication.probeBytes), awaited: false, at: now)
        }
    }

    /// The transfer phase begins.
    public mutating func beginTransfer() { transferring = true }

    /// Whether another write is due and the previous one completed.
    public var wantsWrite: Bool {
        transferring && failure == nil && !writePending && writesSubmitted < writes && (!isCbr || cbrBacklog > 0)
    }
    var isCbr: Bool { if case .cbr = spec.workload { return true } else { return false } }

    /// The size of the next write.
    public var nextWriteBytes: Int64 {
        if case .bulk(let b) = spec.workload { return Swift.min(chunk, Int64(b) - writesSubmitted * chunk) }
        return chunk
    }

    /// Submits the next write if one is due. Returns whether it did.
    @discardableResult
    public mutating func submitNext(_ queue: inout ConnectionQueue, now: SimTime) -> Bool {
        guard wantsWrite else { return false }
        queue.submit(message: probes + Int(writesSubmitted), bytes: nextWriteBytes, awaited: true, at: now)
        writesSubmitted += 1
        writePending = true
        if isCbr { cbrBacklog -= 1 }
        return true
    }

    /// The pending write of `bytes` completed (handed to the transport).
    public mutating func wrote(_ bytes: Int64, now: SimTime, datagram: Bool) {
        if transferStart == nil { transferStart = now }
        writesDone += 1
        writePending = false
        bytesSent += bytes
        if datagram { datagramsSent += 1 }
        transferEnd = now
    }

    /// A CBR write became due.
    public mutating func cbrDue() { cbrBacklog += 1 }

    /// Whether every write of a finite workload completed (the client may close).
    public var finishedWriting: Bool { writes != .max && writesDone == writes }

    // MARK: Server side

    /// `count` transfer messages completed at the server, the first and last of them read at
    /// `first` and `last`.
    mutating func messagesArrived(_ count: Int64, first: SimTime, last: SimTime) {
        guard count > 0 else { return }
        if firstArrival == nil { firstArrival = first }
        messagesDelivered += count
        lastArrival = last
    }

    /// Data arrived at the server at `now`: each completed probe is read (two receive
    /// completions) and its echo submitted; each completed transfer message costs one receive
    /// completion.
    public mutating func serverReceived<S: FlowSocket>(
        _ arrival: Arrival, _ queue: inout ConnectionQueue, _ socket: inout S, now: SimTime
    ) {
        let probeBytes = Int64(FlowApplication.probeBytes)
        switch arrival {
        case .stream(let upTo):
            while serverEchoes < probes && upTo >= Int64(serverEchoes + 1) * probeBytes {
                let read = queue.receiveCompletion(arrivedAt: now)
                queue.submit(message: serverEchoes, bytes: probeBytes, awaited: false, at: read)
                serverEchoes += 1
            }
            let probeStream = Int64(probes) * probeBytes
            guard upTo > Swift.max(serverConsumed, probeStream) else { return }
            let before = Swift.max(serverConsumed, probeStream) - probeStream
            let after = upTo - probeStream
            bytesDelivered += after - before
            serverConsumed = upTo
            let done = completedMessages(after) - completedMessages(before)
            var first = SimTime.zero, last = SimTime.zero
            for m in 0..<done {
                last = queue.receiveCompletion(arrivedAt: now)
                if m == 0 { first = last }
            }
            messagesArrived(done, first: first, last: last)
        case .message(let index, let before, let upTo):
            if index < probes {
                guard upTo >= probeBytes && before < probeBytes else { return }
                let read: SimTime
                if S.isDatagram {
                    guard let t = queue.receiveDatagram(bytes: probeBytes, arrivedAt: now) else { return }
                    read = t
                } else {
                    read = queue.receiveCompletion(arrivedAt: now)
                }
                queue.submit(message: index, bytes: probeBytes, awaited: false, at: read)
                serverEchoes += 1
                socket.finish(message: index)
            } else if S.isDatagram {
                // A datagram the receive buffer has no room for is lost (ConnectionQueue).
                guard let t = queue.receiveDatagram(bytes: upTo - before, arrivedAt: now) else { return }
                bytesDelivered += upTo - before
                datagramsDelivered += 1
                messagesArrived(1, first: t, last: t)
                if upTo >= chunk { socket.finish(message: index) }
            } else if upTo > before {
                bytesDelivered += upTo - before
                if upTo >= chunk && before < chunk {
                    let t = queue.receiveCompletion(arrivedAt: now)
                    messagesArrived(1, first: t, last: t)
                }
                if upTo >= chunk { socket.finish(message: index) }
            }
        }
    }

    /// Transfer messages complete within the first `bytes` of the transfer stream.
    func completedMessages(_ bytes: Int64) -> Int64 {
        if case .bulk(let total) = spec.workload, bytes >= Int64(total) { return writes }
        return Swift.min(bytes / chunk, writes)
    }

    /// Data arrived at the client at `now`: each complete echo is read (one receive completion),
    /// and its RTT ends at that completion.
    public mutating func clientReceived<S: FlowSocket>(
        _ arrival: Arrival, _ queue: inout ConnectionQueue, _ socket: inout S, now: SimTime
    ) {
        let probeBytes = Int64(FlowApplication.probeBytes)
        switch arrival {
        case .stream(let upTo):
            while clientConsumed + probeBytes <= upTo && clientConsumed < Int64(probes) * probeBytes {
                let i = Int(clientConsumed / probeBytes)
                clientConsumed += probeBytes
                echoArrived(i, at: queue.receiveCompletion(arrivedAt: now))
            }
        case .message(let index, _, let upTo):
            guard upTo >= probeBytes else { return }
            socket.finish(message: index)
            if S.isDatagram {
                guard let t = queue.receiveDatagram(bytes: probeBytes, arrivedAt: now) else { return }
                echoArrived(index, at: t)
            } else {
                echoArrived(index, at: queue.receiveCompletion(arrivedAt: now))
            }
        }
    }

    /// The echo of probe `i` was read at `t` (a duplicate is ignored).
    mutating func echoArrived(_ probe: Int, at t: SimTime) {
        guard probe < probeEcho.count, probeEcho[probe] == nil else { return }
        probeEcho[probe] = t
        echoesReceived += 1
    }
}

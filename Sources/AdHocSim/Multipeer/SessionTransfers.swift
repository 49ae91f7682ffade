/// One Multipeer stream or resource (seed 003: `startStream(withName:toPeer:)`,
/// `sendResource(at:withName:toPeer:)`) and its fate: bytes to one peer of the sender's session,
/// cut into pieces of `SessionTransfers.pieceBytes` bytes (the routing's fragment payload), each numbered and resent on its session
/// hop as Multipeer's reliable mode does (`ReliableHops`), so the receiver takes them in order
/// and once. At most `SessionConfig.transferWindow` pieces of a transfer are with the link at a
/// time (the socket buffer under the stream).
public struct SessionTransfer: Sendable {
    /// A resource (a file of known size) or a stream (the app's writes).
    public enum Kind: String, Sendable { case resource, stream }
    /// Where the transfer stands.
    public enum State: String, Sendable {
        /// Not started yet.
        case pending
        /// Under way.
        case sending
        /// Every byte reached the receiver.
        case completed
        /// The app cancelled the resource first (`progress.cancel()`).
        case cancelled
        /// The receiver was not in the sender's session when the app started it (Multipeer's
        /// `startStream` and `sendResource` fail at once for a peer that is not connected).
        case notConnected = "failed:not-connected"
        /// The receiver left the session before every byte arrived.
        case peerLeft = "failed:peer-left"
        /// The sender went down before every byte arrived.
        case senderDown = "failed:sender-down"
    }
    /// Resource or stream.
    public let kind: Kind
    /// Name from the scenario.
    public let id: String
    /// Sender and receiver (node indices).
    public let from: Int
    /// See `from`.
    public let to: Int
    /// When the app started it.
    public let start: SimTime
    /// Bytes to deliver: the resource's size, or every byte the stream's app writes.
    public let size: Int
    /// Stream: bytes per write and time between writes (0 for a resource).
    public let writeBytes: Int
    /// See `writeBytes`.
    public let writeInterval: SimTime
    /// Resource: when the app cancels it.
    let cancelAt: SimTime?
    /// Where it stands.
    public internal(set) var state = State.pending
    /// When it completed, was cancelled or failed.
    public internal(set) var finished: SimTime?
    /// Bytes the app has handed to the session so far.
    public internal(set) var written = 0
    /// Bytes sent once (resends not counted).
    public internal(set) var sent = 0
    /// Bytes the receiver holds, in order from the first.
    public internal(set) var received = 0
    /// Pieces sent, and how many of them were resends.
    public internal(set) var framesSent: UInt64 = 0
    /// See `framesSent`.
    public internal(set) var framesResent: UInt64 = 0
    /// Bytes on the link: every piece with its header and record, resends included.
    public internal(set) var bytesOnAir: UInt64 = 0
    /// Resource: when the receiver's progress (`fractionCompleted`, bytes received over the
    /// size) first reached 10 %, 20 %, … 100 %.
    public internal(set) var progress: [SimTime?] = Array(repeating: nil, count: 10)
    /// Stream: each write's latency, from the app's write to its last byte at the receiver, in
    /// write order.
    public internal(set) var writeLatencies: [SimTime] = []
    /// Pieces the receiver took, (offset, bytes), in order; kept only when the mesh is asked to
    /// (`SessionTransfers.logPieces`, for checking the reassembly).
    public internal(set) var pieces: [(offset: Int, length: Int)] = []
    /// Pieces that arrived at an offset other than the next one expected (0 unless reliable
    /// mode's ordering broke).
    public internal(set) var misordered: UInt64 = 0
    /// Pieces with the link whose sender notice has not come.
    var outstanding = 0
    /// The session hop every piece takes, `[from, to]` (one array, shared by every piece).
    let hop: [Int]

    /// A transfer of `size` bytes from `from` to `to`, starting at `start`.
    init(
        kind: Kind, id: String, from: Int, to: Int, start: SimTime, size: Int, writeBytes: Int = 0,
        writeInterval: SimTime = .zero, cancelAt: SimTime? = nil
    ) {
        (self.kind, self.id, self.from, self.to, self.start, self.size) = (kind, id, from, to, start, size)
        (self.writeBytes, self.writeInterval, self.cancelAt) = (writeBytes, writeInterval, cancelAt)
        hop = [from, to]
    }

    /// A resource as the scenario gives it.
    init(_ r: ResourceSpec) {
        self.init(
            kind: .resource, id: r.id, from: r.from, to: r.to, start: r.start, size: r.sizeBytes, cancelAt: r.cancelAt)
    }

    /// A stream as the scenario gives it: its size is every byte the app writes.
    init(_ s: StreamSpec) {
        self.init(
            kind: .stream, id: s.id, from: s.from, to: s.to, start: s.start, size: s.writes * s.writeBytes,
            writeBytes: s.writeBytes, writeInterval: s.writeInterval)
    }

    /// Whether it ended (completed, cancelled or failed).
    public var isOver: Bool { state != .pending && state != .sending }

    mutating func end(_ s: State, at now: SimTime) {
        guard !isOver else { return }
        state = s
        finished = now
    }

    /// A piece of `bytes` on the link went to the link layer (first send or `resend`).
    mutating func handed(bytes: Int32, resend: Bool) {
        outstanding += 1
        framesSent += 1
        if resend { framesResent += 1 }
        bytesOnAir += UInt64(bytes)
    }

    /// The piece at `offset` of `length` bytes reached the receiver, in its session's order, at
    /// `now`; `log` keeps it in `pieces`. Mutated in place (never through a copy, which would
    /// copy the latency list on every piece).
    mutating func arrived(offset: Int, length: Int, now: SimTime, log: Bool) {
        // After a cancel or a failure the receiver has been told and discards what still comes
        // (the notice's own frame is not modelled: an assumption).
        guard state == .sending else { return }
        guard offset == received else {
            misordered += 1
            return
        }
        received += length
        if log { pieces.append((offset, length)) }
        switch kind {
        case .resource:
            // fractionCompleted crossing each tenth.
            for d in 1...10 where progress[d - 1] == nil && received * 10 >= size * d { progress[d - 1] = now }
        case .stream:
            // Writes whose last byte is now in.
            while writeLatencies.count * writeBytes + writeBytes <= received {
                let k = writeLatencies.count
                writeLatencies.append(now - (start + .nanoseconds(writeInterval.nanoseconds * Int64(k))))
            }
        }
        if received == size { end(.completed, at: now) }
    }
}

/// Every Multipeer transfer of a run.
struct SessionTransfers: Sendable {
    /// The most bytes one piece carries: the routing's message fragment payload
    /// (`MeshConfig.fragmentPayload`, passed down), so a piece with its header and the DTLS
    /// record fits AWDL's MTU (assumption: Multipeer's piece size is not published).
    let pieceBytes: Int
    /// Resources first, then streams, in scenario order.
    var list: [SessionTransfer]
    /// Keep each transfer's pieces as the receiver took them (`SessionTransfer.pieces`).
    var logPieces = false

    init(resources: [ResourceSpec], streams: [StreamSpec], pieceBytes: Int) {
        list = resources.map(SessionTransfer.init) + streams.map(SessionTransfer.init)
        self.pieceBytes = pieceBytes
    }
}

/// The transfers' own logic: Multipeer's streams and resources between session peers, over
/// the session layer's sessions, reliable numbering and wire (`SessionLayer`) passed in.
extension SessionTransfers {
    /// Schedules every transfer's start and cancel.
    mutating func scheduleTransfers(sim: inout Simulation) {
        for (t, x) in list.enumerated() {
            sim.schedule(at: x.start, target: UInt32(t), kind: .transferStart)
            if let c = x.cancelAt { sim.schedule(at: c, target: UInt32(t), kind: .transferCancel) }
        }
    }

    /// Transfer `t` starts: it fails at once unless its receiver is in the sender's session.
    mutating func transferStarted(
        _ t: Int, senderDown: Bool, sessions: SignalSessions, reliable: inout ReliableHops, wire: inout SessionWire,
        sim: inout Simulation
    ) {
        let x = list[t]
        guard !senderDown else {
            list[t].end(.senderDown, at: sim.now)
            return
        }
        guard sessions.peers[x.from].contains(x.to) else {
            list[t].end(.notConnected, at: sim.now)
            return
        }
        list[t].state = .sending
        switch x.kind {
        case .resource:
            list[t].written = x.size
            pump(t, sessions: sessions, reliable: &reliable, wire: &wire, now: sim.now)
        case .stream:
            streamWrote(t, 0, senderDown: false, sessions: sessions, reliable: &reliable, wire: &wire, sim: &sim)
        }
    }

    /// Write `k` of stream `t`: its bytes join the stream, and the next write is scheduled.
    mutating func streamWrote(
        _ t: Int, _ k: Int, senderDown: Bool, sessions: SignalSessions, reliable: inout ReliableHops,
        wire: inout SessionWire, sim: inout Simulation
    ) {
        guard list[t].state == .sending else { return }
        guard !senderDown else {
            list[t].end(.senderDown, at: sim.now)
            return
        }
        let x = list[t]
        list[t].written += x.writeBytes
        if list[t].written < x.size {
            sim.schedule(after: x.writeInterval, target: UInt32(t), kind: .streamWrite, arg: UInt64(k + 1))
        }
        pump(t, sessions: sessions, reliable: &reliable, wire: &wire, now: sim.now)
    }

    /// The app cancels resource `t`: nothing more is sent (pieces already with the link still go).
    mutating func transferCancelled(_ t: Int, now: SimTime) {
        guard list[t].state == .sending else { return }
        list[t].end(.cancelled, at: now)
    }

    /// Hands transfer `t`'s next pieces to the session while its window has room.
    mutating func pump(
        _ t: Int, sessions: SignalSessions, reliable: inout ReliableHops, wire: inout SessionWire, now: SimTime
    ) {
        let (from, to) = (list[t].from, list[t].to)
        while list[t].state == .sending, list[t].outstanding < wire.config.transferWindow,
            list[t].sent < list[t].written
        {
            guard sessions.connected(from, to) else {
                list[t].end(.peerLeft, at: now)
                return
            }
            let offset = list[t].sent
            let length = min(pieceBytes, list[t].written - offset)
            let piece = TransferPiece(transfer: t, offset: offset, length: length, to: to)
            list[t].sent += length
            let bytes = wire.config.transferFrameBytes(payload: length)
            list[t].handed(bytes: bytes, resend: false)
            // A piece goes in reliable mode to its one session peer, numbered on that hop.
            wire.handNumbered(
                SessionFrame(.piece(piece)), from: from, to: to, bytes: bytes, now: now, numbers: &reliable)
        }
    }

    /// A piece of its transfer reached its receiver, in its session's order.
    mutating func pieceArrived(_ p: TransferPiece, now: SimTime) {
        list[p.transfer].arrived(offset: p.offset, length: p.length, now: now, log: logPieces)
    }

    /// The sender is done with a piece of transfer `t`: the window has room again. After a
    /// successful send the next pieces go; a piece the link gave up on is resent by its session
    /// (`SessionLayer.linkGaveUp`), and one the sender's link refused (the sender is down) ends the transfer.
    mutating func pieceReleased(
        _ t: Int, dropped: Bool, refused: Bool, sessions: SignalSessions, reliable: inout ReliableHops,
        wire: inout SessionWire, now: SimTime
    ) {
        list[t].outstanding -= 1
        if refused { list[t].end(.senderDown, at: now) }
        if !dropped { pump(t, sessions: sessions, reliable: &reliable, wire: &wire, now: now) }
    }

    /// The session of `a` and `b` ended (`by`: the side that disconnected, whose own transfers
    /// already ended): every transfer between them still sending fails, as `sendResource`'s
    /// completion handler reports the peer gone (Apple's documentation) rather than waiting
    /// for pieces that can no longer arrive.
    mutating func sessionEnded(_ a: Int, _ b: Int, now: SimTime) {
        for t in list.indices
        where list[t].state == .sending
            && ((list[t].from == a && list[t].to == b) || (list[t].from == b && list[t].to == a))
        {
            list[t].end(.peerLeft, at: now)
        }
    }

    /// Node `node`'s app disconnected: the transfers it sends fail at once.
    mutating func senderLeft(_ node: Int, now: SimTime) {
        for t in list.indices where list[t].state == .sending && list[t].from == node {
            list[t].end(.peerLeft, at: now)
        }
    }

    /// A piece of transfer `t` is lost for good (its receiver left the session).
    mutating func pieceLost(_ t: Int, now: SimTime) {
        list[t].end(.peerLeft, at: now)
    }
}

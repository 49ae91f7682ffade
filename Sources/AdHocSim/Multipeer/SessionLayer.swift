/// Multipeer Connectivity's session layer, beneath the mesh's routing (seed 003): who is in a session with whom, how sessions come about (`MultipeerSetup`), the
/// reliable mode's numbering and resends on each session hop (`ReliableHops`), streams and
/// resources (`SessionTransfers`), and every frame's way to the link (`SessionWire`).
///
/// The routing above reads the sessions (`NeighbourTable`, through `MeshCore.sessions`) and hands
/// its frames to `send` and `broadcast`; what arrives comes back up from `receive`, in each
/// hop's order. Its events are its own block of kinds (`eventBlocks`, claimed by name in the
/// mesh's `RunningLayer` conformance, `MeshNetwork.eventClaims`, and passed down by it). Its
/// settings are `SessionConfig` (set from the scenario's `mesh`
/// section, `MeshConfig.session`). Its frames are its own (`SessionFrame`): set-up frames,
/// transfer pieces, and the routing's frames (`RoutedPayload`), which it reads only through
/// `RoutedFrame` (the routing binds its frame type, `RoutedPayload`, in `Mesh/`).
struct SessionLayer: Sendable {
    /// Settings.
    let config: SessionConfig
    /// Whether a reliable frame is taken however its path runs: with the routing's
    /// path-broadcast forwarding every session peer gets a numbered copy and must take its
    /// number in turn (`mesh.forwarding`).
    let takesEveryCopy: Bool
    /// Who is in a session with whom.
    var sessions: SignalSessions
    /// Multipeer session set-up (`mesh.sessionSetup: "multipeer"`); `nil` when sessions form
    /// at once or are fixed.
    var setup: MultipeerSetup?
    /// Streams and resources.
    var transfers: SessionTransfers
    /// The reliable mode's numbers per session hop.
    var reliable = ReliableHops()
    /// Frames on the link, the session buffers and what each node sent.
    var wire: SessionWire
    /// Frames waiting to be sent again (`SessionConfig.reliableResendDelay`), by id, with their bytes.
    var resends: [Int: (frame: SessionFrame, from: Int, to: Int, bytes: Int32)] = [:]
    var nextResend = 0
    /// Per message workload, whether its messages and returns go in reliable mode
    /// (`send(_:toPeers:with: .reliable)`).
    let reliableWorkloads: [Bool]

    /// The session layer of `nodes` phones; `sessions`, when given, fixes who is in a session
    /// with whom (a test harness's table); `takesEveryCopy` as the routing forwards.
    init(
        nodes: Int, config: SessionConfig, takesEveryCopy: Bool, reliableWorkloads: [Bool], pieceBytes: Int,
        resources: [ResourceSpec],
        streams: [StreamSpec], sessions: SignalSessions?, phones: [MultipeerPhone], sim: borrowing Simulation
    ) {
        self.config = config
        self.takesEveryCopy = takesEveryCopy
        self.sessions = sessions ?? SignalSessions(nodes: nodes)
        transfers = SessionTransfers(resources: resources, streams: streams, pieceBytes: pieceBytes)
        wire = SessionWire(nodes: nodes, config: config)
        self.reliableWorkloads = reliableWorkloads
        if config.sessionSetup == .multipeer && sessions == nil {
            setup = MultipeerSetup(
                nodes: nodes, encryption: config.encryption, layout: config.sessionLayout, phones: phones, sim: sim)
        }
    }

    /// Whether the routing's frame `f` goes in Multipeer's reliable mode: a message or route
    /// return of a reliable workload.
    func isReliable(_ f: RoutedPayload) -> Bool { f.reliableWorkload.map { reliableWorkloads[$0] } ?? false }

    // MARK: The routing's frames

    /// Node `i` sends `f` of `bytes` to session peer `peer` (`MCSession.send` to one peer),
    /// numbered on that hop when it goes in reliable mode.
    mutating func send(_ f: RoutedPayload, from i: Int, to peer: Int, bytes: Int32, now: SimTime) {
        if isReliable(f) {
            wire.handNumbered(SessionFrame(routed: f), from: i, to: peer, bytes: bytes, now: now, numbers: &reliable)
        } else {
            wire.hand(SessionFrame(routed: f), from: i, to: UInt32(peer), bytes: bytes, now: now)
        }
    }

    /// Node `i` sends `f` of `bytes` as one link broadcast its session peers hear
    /// (`mesh.floodSend: "broadcast"`).
    mutating func broadcast(_ f: RoutedPayload, from i: Int, bytes: Int32, now: SimTime) {
        wire.hand(SessionFrame(routed: f), from: i, to: LinkPacket.broadcast, bytes: bytes, now: now)
    }

    /// What an arrival means for the routing above.
    enum Arrival {
        /// Nothing for the routing.
        case nothing
        /// The frame connected a session (lower node, higher node).
        case connected(Int, Int)
        /// The frame is the routing's (`SessionFrame.routed`). `inOrder`: it came in reliable
        /// mode, and frames held behind it may follow (`nextInOrder`).
        case frame(inOrder: Bool)
        /// The layer took the frame itself (a transfer piece, in reliable mode); frames held
        /// behind it may follow (`nextInOrder`).
        case taken
    }

    /// The frame in `slot` of the in-flight table (`SessionWire`), from `from`, reached node `r`
    /// (up; only session peers of the sender listen): set-up frames are the layer's; a frame
    /// from a phone not (or no longer) in `r`'s session is ignored; a reliable one is taken once,
    /// in its hop's order. Decided on the frame's own part where it can be: the routing's frame
    /// is read in place.
    mutating func receive<L: LinkTechnology>(
        _ slot: Int, at r: Int, from: Int, link: inout L, sim: inout Simulation
    ) -> Arrival {
        let part = wire.partsInFlight[slot]
        if part.isSetup, case .setup(let setupFrame) = part.own {
            guard var s = setup.take() else { return .nothing }
            let formed = s.arrived(
                setupFrame, at: r, from: from, link: &link, sessions: &sessions, wire: &wire, sim: &sim)
            setup = s
            guard let formed else { return .nothing }
            reliable.sessionFormed(formed.0, formed.1)
            return .connected(formed.0, formed.1)
        }
        guard sessions.peers[r].contains(from), !sessions.hasLeft(r, from) else { return .nothing }
        // Numbered on its hop exactly when it goes in reliable mode (`send`, and every piece).
        guard part.isNumbered else { return part.isRouted ? .frame(inOrder: false) : .nothing }
        let piece = part.piece
        // Reliable mode: each frame once, in its session's order. With path-broadcast every
        // session peer gets a numbered copy and must take its number in turn (the routing then
        // drops the copies of those not next on the path).
        let addressee = piece?.to ?? wire.routedInFlight[slot]?.addressee
        guard addressee == r || takesEveryCopy else { return .nothing }
        guard reliable.accept(wire.frame(slot), from: from, to: r) else { return .nothing }
        guard let piece else { return .frame(inOrder: true) }
        transfers.pieceArrived(piece, now: sim.now)  // always reliable, addressed here (checked above)
        return .taken
    }

    /// The next frame for the routing that was held behind a reliable arrival from `from` to
    /// `to`, if it has arrived; transfer pieces on the way are taken here.
    mutating func nextInOrder(from: Int, to: Int, now: SimTime) -> RoutedPayload? {
        while let g = reliable.nextHeld(from: from, to: to) {
            switch g.own {
            case .routed: return g.routed
            case .piece(let p): transfers.pieceArrived(p, now: now)
            case .setup: break
            }
        }
        return nil
    }

    /// The link gave up on `f` from `from` to `to` (retry limit): a piece whose receiver left
    /// the session is lost for good; a reliable frame is sent again, with the same number and
    /// `bytes`, after `reliableResendDelay` while the peer stays in the session. The app above
    /// (MAdHoc) never sees the link give up.
    mutating func linkGaveUp(_ f: SessionFrame, from: Int, to: Int, bytes: Int32, sim: inout Simulation) {
        if let p = f.piece, !sessions.peers[from].contains(to) {
            transfers.pieceLost(p.transfer, now: sim.now)
            return
        }
        if f.part.isNumbered && sessions.peers[from].contains(to) {
            let id = nextResend
            nextResend += 1
            resends[id] = (f, from, to, bytes)
            sim.schedule(after: config.reliableResendDelay, target: 0, kind: .reliableResend, arg: UInt64(id))
        }
    }

    /// Reliable frame `id` is due again: it goes to the same peer with the same number, unless
    /// the peer has left the session (the frame is then lost with it).
    mutating func resendDue(_ id: Int, now: SimTime) {
        guard let r = resends.removeValue(forKey: id) else { return }
        guard sessions.peers[r.from].contains(r.to) else {
            if let p = r.frame.piece { transfers.pieceLost(p.transfer, now: now) }
            return
        }
        if let p = r.frame.piece { transfers.list[p.transfer].handed(bytes: r.bytes, resend: true) }
        wire.hand(r.frame, from: r.from, to: UInt32(r.to), bytes: r.bytes, now: now)
    }

    /// The link is done with the frame in `slot` (`live`: the slot still held it; `dropped`: the
    /// link gave up; `refused`: the sender's link never took it): the slot may be reused, and a
    /// transfer's window has room again (after the slot is free, so the next piece may take it).
    mutating func released(_ slot: Int, live: Bool, dropped: Bool, refused: Bool, now: SimTime) {
        let piece = live ? wire.partsInFlight[slot].piece : nil
        wire.noticed(slot, all: dropped || refused)
        if let p = piece {
            transfers.pieceReleased(
                p.transfer, dropped: dropped || refused, refused: refused, sessions: sessions, reliable: &reliable,
                wire: &wire, now: now)
        }
    }

    // MARK: Sessions

    /// The first session round, at time zero.
    func firstRound(sim: inout Simulation) { sim.schedule(at: .zero, target: 0, kind: .sessionRound) }

    /// The next session round, `sessionInterval` from now.
    func nextRound(sim: inout Simulation) {
        sim.schedule(after: config.sessionInterval, target: 0, kind: .sessionRound)
    }

    /// Re-evaluates every session from what `link` says at `now`: each side of a session that
    /// ended hears its peer not connected (except the app that left), its transfers fail.
    /// Returns whether sessions formed (`sessions.formed`; their reliable numbering starts over).
    mutating func update<L: LinkTechnology>(link: inout L, now: SimTime) -> Bool {
        sessions.update(link: &link, config: config, now: now)
        if !sessions.ended.isEmpty {
            for e in sessions.ended {
                if e.by != e.a { setup?.note(.notConnected, at: e.a, about: e.b, now: now) }
                if e.by != e.b { setup?.note(.notConnected, at: e.b, about: e.a, now: now) }
                if !transfers.list.isEmpty { transfers.sessionEnded(e.a, e.b, now: now) }
                setup?.groups?.pairEnded(e.a, e.b, sessions: sessions)
            }
        }
        guard !sessions.formed.isEmpty else { return false }
        for (a, b) in sessions.formed { reliable.sessionFormed(a, b) }
        return true
    }

    /// One of the layer's events other than the session round (`eventBlocks`).
    mutating func handle<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        let target = Int(event.target)
        switch event.kind {
        case .bonjourQuery:
            setup?.queryDue(
                target, generation: event.arg, down: link.isDown(target), wire: &wire, sim: &sim)
        case .bonjourAnswer:
            setup?.answerDue(target, down: link.isDown(target), wire: &wire, now: sim.now)
        case .invitationTimeout:
            let a = InviteTimeout(event.arg)
            setup?.inviteTimedOut(target, a.invited, id: a.id, now: sim.now)
        case .handshakeTimer:
            let a = HandshakeFlight(event.arg)
            setup?.handshakeTimerRanOut(
                target, a.peer, id: a.id, flight: a.flight, down: link.isDown(target), wire: &wire, sim: &sim)
        case .bonjourRefresh:
            setup?.refreshDue(target, AnswerRefresh(event.arg), down: link.isDown(target), wire: &wire, sim: &sim)
        case .reliableResend:
            resendDue(Int(event.arg), now: sim.now)
        case .transferStart:
            transfers.transferStarted(
                target, senderDown: link.isDown(transfers.list[target].from), sessions: sessions,
                reliable: &reliable, wire: &wire, sim: &sim)
        case .streamWrite:
            transfers.streamWrote(
                target, Int(event.arg), senderDown: link.isDown(transfers.list[target].from), sessions: sessions,
                reliable: &reliable, wire: &wire, sim: &sim)
        case .transferCancel:
            transfers.transferCancelled(target, now: sim.now)
        default:
            preconditionFailure("not a session layer event")
        }
    }

    /// Node `node`'s app calls Multipeer (a scripted event).
    /// - `disconnect`: it leaves its sessions at once (its app hears every peer not connected
    ///   now); its peers' sessions see it go after the peer timeout, as they see a peer that
    ///   failed. Its advertiser and browser go on unless stopped too.
    /// - `stopAdvertising` / `startAdvertising`: no answers and no invitations while stopped;
    ///   the browsers that had found it lose it; on start it announces itself twice, 1 s apart.
    /// - `stopBrowsing` / `startBrowsing`: no queries and nothing found while stopped; on start
    ///   it queries after 20–120 ms, then at doubling intervals from 1 s.
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {
        switch action {
        case .disconnect:
            for p in sessions.peers[node] where !sessions.hasLeft(node, p) {
                setup?.note(.notConnected, at: node, about: p, now: sim.now)
            }
            sessions.depart(node, now: sim.now)
            if !transfers.list.isEmpty { transfers.senderLeft(node, now: sim.now) }
        case .bluetoothOff, .bluetoothOn:
            break  // Bluetooth LE's: Multipeer runs over AWDL here
        default:
            setup?.appCalled(action, at: node, sim: &sim)
        }
    }

    /// Node `i`'s app started again (it joined): Multipeer discovery starts over.
    mutating func appStarted(_ i: Int, sim: inout Simulation) { setup?.appStarted(i, sim: &sim) }

    // MARK: To the link

    /// Hands the packets to send to the caller by swapping `buffer` (empty, its capacity kept)
    /// with the outbox, so neither array is copied or reallocated.
    mutating func takeOutbox(swappingWith buffer: inout [LinkPacket]) {
        swap(&buffer, &wire.outbox)
    }
}

/// The session layer's event kinds, with the numbers they have in every fingerprint (231, 236–239, 250–259).
enum SessionEventKind: UInt16, CaseIterable {
    /// Sessions are re-evaluated (target: unused).
    case sessionRound = 231
    /// A node's Bonjour query is due (target: node).
    case bonjourQuery = 236
    /// A node's Bonjour answer or announcement is due (target: node).
    case bonjourAnswer = 237
    /// An invitation's timeout (target: inviter, arg: `InviteTimeout`).
    case invitationTimeout = 238
    /// A reliable frame the link gave up on is due to be sent again (target: unused, arg: id).
    case reliableResend = 239
    /// A Multipeer stream or resource starts (target: transfer).
    case transferStart = 250
    /// The app cancels a resource (target: transfer).
    case transferCancel = 251
    /// A stream's next write is due (target: transfer, arg: write number).
    case streamWrite = 252
    /// A connection flight's retransmission timer ran out (target: its sender, arg:
    /// `HandshakeFlight`; `MultipeerSetup`).
    case handshakeTimer = 253
    /// A browser's cached answer from a peer reached a refresh point or its end (target:
    /// browser, arg: `AnswerRefresh`).
    case bonjourRefresh = 254
}

extension EventKind {
    /// `SessionEventKind.sessionRound`.
    public static let sessionRound = EventKind(SessionEventKind.sessionRound)
    /// `SessionEventKind.bonjourQuery`.
    public static let bonjourQuery = EventKind(SessionEventKind.bonjourQuery)
    /// `SessionEventKind.bonjourAnswer`.
    public static let bonjourAnswer = EventKind(SessionEventKind.bonjourAnswer)
    /// `SessionEventKind.invitationTimeout`.
    public static let invitationTimeout = EventKind(SessionEventKind.invitationTimeout)
    /// `SessionEventKind.reliableResend`.
    public static let reliableResend = EventKind(SessionEventKind.reliableResend)
    /// `SessionEventKind.transferStart`.
    public static let transferStart = EventKind(SessionEventKind.transferStart)
    /// `SessionEventKind.transferCancel`.
    public static let transferCancel = EventKind(SessionEventKind.transferCancel)
    /// `SessionEventKind.streamWrite`.
    public static let streamWrite = EventKind(SessionEventKind.streamWrite)
    /// `SessionEventKind.handshakeTimer`.
    public static let handshakeTimer = EventKind(SessionEventKind.handshakeTimer)
    /// `SessionEventKind.bonjourRefresh`.
    public static let bonjourRefresh = EventKind(SessionEventKind.bonjourRefresh)
}

/// The session layer's events (`SessionLayer`): their blocks of kinds.
enum SessionEvents {
    /// The layer's blocks of event kinds (`Layers.eventBlocks`): the session round (231), Bonjour,
    /// invitations and resends (236–239), and transfers and the DTLS handshake (250–259). The
    /// numbers are those the mesh gave them when it held this layer: they enter every event
    /// fingerprint.
    static let eventBlocks: [Range<UInt16>] = [231..<232, 236..<240, 250..<260]

    /// Whether `kind` is one of the layer's.
    @inline(__always)
    static func owns(_ kind: EventKind) -> Bool {
        let k = kind.rawValue
        return k == 231 || (236..<240).contains(k) || (250..<260).contains(k)
    }
}

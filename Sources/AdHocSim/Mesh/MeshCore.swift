/// What every part of the mesh shares: the settings, the sessions, the route table, the message
/// ledger, the recorder, and the frames handed to the link. The routing protocols and the
/// message workloads act on it; `MeshNetwork` owns it.
struct MeshCore: Sendable {
    /// Settings.
    let config: MeshConfig
    /// Nodes.
    let nodeCount: Int
    /// Who is in a session with whom.
    var sessions: SignalSessions
    /// Every node's routes.
    var routes: RouteTable
    /// Every workload message's fate.
    var ledger: MessageLedger
    /// Counters, first routes and repairs (the metrics' observer).
    var recorder: MeshRecorder
    /// Frames on the link, by packet tag.
    var inFlight: [MeshFrame?] = []
    /// Per slot: notices still to come before the slot may be reused. A unicast waits for its
    /// sender's notice and its delivery (a receiver's block-ack reordering can pass a frame up
    /// after the sender is done with it); a broadcast for its sender's notice only.
    var pendingNotices: [UInt8] = []
    var freeSlots: [Int] = []
    /// Packets to hand to the link layer; the world drains it.
    var outbox: [LinkPacket] = []
    /// Per node, message frames (messages and route returns) the transmit queue had no room
    /// for, oldest first: they wait in the session layer's buffer as Multipeer buffers a
    /// reliable send (an assumption: Apple documents no drop), and go as room frees. Flooded
    /// control frames are not held: a full queue drops them.
    var held: [FifoBuffer<LinkPacket>] = []
    /// Nodes with held frames, each once, in the order they first held one.
    var holding: [Int] = []
    /// Multipeer's reliable mode per session hop (`send(_:toPeers:with: .reliable)`: in
    /// order, retransmitted within the session): per ordered pair (from << 32 | to), the next
    /// number to send, the next the receiver expects, and the frames it holds until the ones
    /// before them arrive. Reset when the pair's session forms. Looked up by key only.
    var reliable = ReliableHops()
    /// Per session pair whose encryption differs from the mesh's (`mesh.phones`), the bytes its
    /// frames carry more (+37, a DTLS record) or less (−37) than `MeshConfig` counts. Empty
    /// unless phones' preferences differ; looked up by key only.
    var recordDelta: [UInt64: Int32] = [:]
    /// Frames waiting to be sent again (`MeshConfig.reliableResendDelay`), by id.
    var resends: [Int: (frame: MeshFrame, from: Int, to: Int)] = [:]
    var nextResend = 0

    /// A mesh of `nodes` nodes with no sessions, routes or messages yet.
    init(nodes: Int, config: MeshConfig, workloads: [MessageWorkloadSpec], sessions: SignalSessions? = nil) {
        self.config = config
        nodeCount = nodes
        self.sessions = sessions ?? SignalSessions(nodes: nodes)
        routes = RouteTable(nodes: nodes, timeout: config.routeTimeout)
        ledger = MessageLedger(workloads)
        recorder = MeshRecorder(nodes: nodes)
    }

    /// The session of `a` and `b` connected, encrypted or not: its frames carry a DTLS record
    /// when it is encrypted, whatever the mesh's own preference.
    mutating func setRecord(encrypted: Bool, _ a: Int, _ b: Int) {
        let key = SignalSessions.pairKey(a, b)
        let delta = Int32(encrypted ? MeshConfig.dtlsRecordBytes : 0) - Int32(config.recordBytes)
        if delta != 0 { recordDelta[key] = delta } else if !recordDelta.isEmpty { recordDelta[key] = nil }
    }

    /// Counts the routes stored so far: IP's send buffer looks again when it changed.
    var routesLearned: UInt64 = 0

    /// Stores a route learned at `now` and tells the recorder.
    mutating func setRoute(_ route: MeshRoute, at index: Int, now: SimTime) {
        if config.routeCache, let old = routes.routes[index], old.path != route.path,
            now - old.learned <= routes.timeout
        {
            // The route replaced stays in the cache, a way to fail over to.
            routes.remember(old, at: index)
        }
        if config.routeCache, var list = routes.alternates[index] {
            list.removeAll { $0.path.count >= 2 && route.path.count >= 2 && $0.path[1] == route.path[1] }
            routes.alternates[index] = list.isEmpty ? nil : list
        }
        routes.routes[index] = route
        routesLearned &+= 1
        recorder.routeLearned(route, at: index, now: now)
    }

    /// Node `i` sends `f` through its session: a flooded frame to every session peer, as one
    /// unicast per peer (`MeshConfig.floodSend`, the default) or one broadcast its peers hear;
    /// a source-routed one as a unicast to the next node on its path, which must be a session
    /// peer (Multipeer sends only to connected peers), numbered on that hop when its message
    /// workload is reliable (`ReliableHops`); with `forwarding: path-broadcast` a message or
    /// route return goes to every session peer instead, the next node still required.
    mutating func send(_ frame: MeshFrame, from i: Int, now: SimTime) {
        var f = frame
        var destination = LinkPacket.broadcast
        if f.isSourceRouted {
            let next = f.path[f.hop + 1]
            guard sessions.connected(i, next) else {
                recorder.noSession(at: i)
                if f.kind != .routeError { routeBroke(f, at: i, next: next, now: now) }
                failOver(f, at: i, next: next, now: now)
                return
            }
            if config.forwarding == .pathBroadcast && (f.kind == .message || f.kind == .routeReturn) {
                // MAdHoc's design: the hop goes to every session peer (one unicast each, each
                // numbered on its own session hop when reliable); only `next` passes it on.
                let bytes = frameBytes(f)
                for peer in sessions.peers[i] where !sessions.hasLeft(i, peer) {
                    var copy = f
                    if isReliable(copy) { copy.hopSeq = reliable.number(from: i, to: peer) }
                    hand(copy, from: i, to: UInt32(peer), bytes: bytes, now: now)
                }
                return
            }
            // Multipeer sends to a connected peer, never to all: every hop is a unicast, and a
            // reliable message or return is numbered on its hop's session.
            destination = UInt32(next)
            if isReliable(f) { f.hopSeq = reliable.number(from: i, to: next) }
        }
        let bytes = frameBytes(f)
        if !f.isSourceRouted && config.floodSend == .sessionPeers {
            // MCSession.send(_:toPeers:with:) to every connected peer: one unicast per peer
            // (Multipeer has no broadcast), each acknowledged and retried by the MAC.
            for peer in sessions.peers[i] where !sessions.hasLeft(i, peer) {
                hand(f, from: i, to: UInt32(peer), bytes: bytes, now: now)
            }
            return
        }
        hand(f, from: i, to: destination, bytes: bytes, now: now)
    }

    /// Whether `f` goes in Multipeer's reliable mode: a message or route return of a reliable
    /// workload, and every stream or resource piece.
    func isReliable(_ f: MeshFrame) -> Bool {
        switch f.kind {
        case .message, .routeReturn: return ledger.workloads[f.workload].reliable
        case .sessionData: return true
        default: return false
        }
    }

    /// The bytes of `f` on the link: header and path (`MeshConfig.heartbeatBytes`), and for a
    /// message its payload, fragment header and encryption overhead.
    func frameBytes(_ f: MeshFrame) -> Int32 {
        if f.kind == .sessionData { return config.transferFrameBytes(payload: f.message) }
        guard f.kind == .message else { return config.heartbeatBytes(pathLength: f.path.count) }
        let piece = MeshConfig.fragmentBytes(Int(f.fragment), size: ledger.workloads[f.workload].sizeBytes)
        let header = f.fragments > 1 ? MeshConfig.fragmentHeaderBytes : 0
        let seal = f.sealed ? PathKeys.sealBytes : 0
        return config.messageBytes(pathLength: f.path.count, payload: piece + header + seal)
    }

    /// Puts one copy of `f` from `i` to `destination` in the outbox and counts it.
    mutating func hand(_ f: MeshFrame, from i: Int, to destination: UInt32, bytes: Int32, now: SimTime) {
        var bytes = bytes
        if !recordDelta.isEmpty, destination != LinkPacket.broadcast, !f.isSessionSetup,
            let d = recordDelta[SignalSessions.pairKey(i, Int(destination))]
        {
            bytes += d
        }
        recorder.frameSent(f, bytes: bytes, by: i)
        let slot: Int
        let waits: UInt8 = destination == LinkPacket.broadcast ? 1 : 2
        if let free = freeSlots.popLast() {
            slot = free; inFlight[slot] = f; pendingNotices[slot] = waits
        } else {
            slot = inFlight.count; inFlight.append(f); pendingNotices.append(waits)
        }
        outbox.append(
            LinkPacket(
                source: UInt32(i), destination: destination, bytes: bytes, owner: .mesh,
                tag: UInt64(slot), enqueued: now))
    }

    /// With the route cache and heartbeat routing: the source of a message could not reach its
    /// first hop `next`: the peer has left its session. It forgets its routes
    /// over that link and sends the frame again at once along the best route it still holds,
    /// if any (the same attempt; a relay cannot, the route being the source's).
    /// Returns whether it sent the frame again.
    @discardableResult
    mutating func failOver(_ f: MeshFrame, at node: Int, next: Int, now: SimTime) -> Bool {
        guard config.routeCache, config.routing == .heartbeat, f.kind == .message, f.hop == 0 else { return false }
        routes.forgetLink((node, next), at: node)
        guard let r = routes.route(from: node, to: f.path[f.path.count - 1], at: now) else { return false }
        recorder.failedOver()
        var again = f
        again.path = r.path
        send(again, from: node, now: now)
        return true
    }

    /// One of the notices slot `slot` waits for came (`all`: the link gave up, nothing more
    /// will): the slot is free once none is left.
    mutating func noticed(_ slot: Int, all: Bool = false) {
        guard pendingNotices[slot] > 0 else { return }
        pendingNotices[slot] = all ? 0 : pendingNotices[slot] - 1
        if pendingNotices[slot] == 0 {
            inFlight[slot] = nil
            freeSlots.append(slot)
        }
    }

    /// Route Maintenance (RFC 4728 §3.3.5, §8.3), classic DSR only: node `i` could not pass
    /// `f` on to `next`; it forgets the link and sends a Route Error back to the frame's source.
    /// MAdHoc's heartbeats need no such report: the route simply stops being refreshed.
    mutating func routeBroke(_ f: MeshFrame, at i: Int, next: Int, now: SimTime) {
        guard config.routing == .dsr else { return }
        routes.forgetLink((i, next), at: i)
        guard f.hop > 0 else { return }
        let back = Array(f.path[0...f.hop].reversed())
        recorder.routeErrorSent()
        send(MeshFrame(kind: .routeError, origin: i, seq: 0, path: back, broken: (i, next)), from: i, now: now)
    }
}

/// Multipeer's reliable mode on each session hop: frames numbered per ordered pair, delivered
/// to the mesh in that order at the receiver (held while an earlier one is missing), each
/// delivered once. The sender resends what the link gave up on (`MeshNetwork.linkDropped`).
struct ReliableHops: Sendable {
    /// Per ordered pair (from << 32 | to): the next number to send.
    var next: [UInt64: UInt32] = [:]
    /// Per ordered pair: the next number the receiver expects.
    var expected: [UInt64: UInt32] = [:]
    /// Per ordered pair: frames that arrived before an earlier one, by number.
    var held: [UInt64: [UInt32: MeshFrame]] = [:]

    static func key(_ from: Int, _ to: Int) -> UInt64 { UInt64(from) << 32 | UInt64(to) }

    /// The number of the next reliable frame from `from` to `to`.
    mutating func number(from: Int, to: Int) -> UInt32 {
        let k = ReliableHops.key(from, to)
        let n = next[k, default: 0]
        next[k] = n &+ 1
        return n
    }

    /// A numbered frame from `from` reached `to`: whether it is the one expected now (pass it
    /// on, then the held ones `nextHeld` gives); a duplicate, or a frame that must wait for an
    /// earlier one (it is held), is not.
    mutating func accept(_ f: MeshFrame, from: Int, to: Int) -> Bool {
        let k = ReliableHops.key(from, to)
        let want = expected[k, default: 0]
        guard f.hopSeq >= want else { return false }  // a duplicate: delivered already
        guard f.hopSeq == want else {
            held[k, default: [:]][f.hopSeq] = f
            return false
        }
        expected[k] = want &+ 1
        return true
    }

    /// The held frame from `from` to `to` that is next in order, if it has arrived.
    mutating func nextHeld(from: Int, to: Int) -> MeshFrame? {
        let k = ReliableHops.key(from, to)
        guard let n = expected[k], let g = held[k]?.removeValue(forKey: n) else { return nil }
        expected[k] = n &+ 1
        return g
    }

    /// The session between `a` and `b` formed (again): numbering starts over both ways, and
    /// frames held from an earlier session are dropped (a session that ends loses them).
    mutating func sessionFormed(_ a: Int, _ b: Int) {
        for k in [ReliableHops.key(a, b), ReliableHops.key(b, a)] {
            next[k] = nil
            expected[k] = nil
            held[k] = nil
        }
    }
}

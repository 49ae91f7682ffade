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

    /// A mesh of `nodes` nodes with no sessions, routes or messages yet.
    init(nodes: Int, config: MeshConfig, workloads: [MessageWorkloadSpec], sessions: SignalSessions? = nil) {
        self.config = config
        nodeCount = nodes
        self.sessions = sessions ?? SignalSessions(nodes: nodes)
        routes = RouteTable(nodes: nodes, timeout: config.routeTimeout)
        ledger = MessageLedger(workloads)
        recorder = MeshRecorder(nodes: nodes)
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
    /// unicast per peer (`MeshConfig.floodSend`, the default) or one broadcast its peers hear; a source-routed one to the next node on its path, which must be a session
    /// peer (Multipeer sends only to connected peers). Reliable session messages go to the next
    /// hop as link-layer unicasts with retries; DSR's replies and errors always do (RFC 4728
    /// relies on link-layer acknowledgement).
    mutating func send(_ f: MeshFrame, from i: Int, now: SimTime) {
        var destination = LinkPacket.broadcast
        var bytes = config.heartbeatBytes(pathLength: f.path.count)
        if f.isSourceRouted {
            let next = f.path[f.hop + 1]
            guard sessions.peers[i].contains(next) else {
                recorder.noSession(at: i)
                if f.kind != .routeError { routeBroke(f, at: i, next: next, now: now) }
                failOver(f, at: i, next: next, now: now)
                return
            }
            if f.kind == .routeReply || f.kind == .routeError || ledger.workloads[f.workload].reliable {
                destination = UInt32(next)
            }
            if f.kind == .message {
                let size = ledger.workloads[f.workload].sizeBytes
                let piece = MeshConfig.fragmentBytes(Int(f.fragment), size: size)
                let header = f.fragments > 1 ? MeshConfig.fragmentHeaderBytes : 0
                bytes = config.messageBytes(pathLength: f.path.count, payload: piece + header)
            }
        }
        if !f.isSourceRouted && config.floodSend == .sessionPeers {
            // MCSession.send(_:toPeers:with:) to every connected peer: one unicast per peer
            // (Multipeer has no broadcast), each acknowledged and retried by the MAC.
            for peer in sessions.peers[i] { hand(f, from: i, to: UInt32(peer), bytes: bytes, now: now) }
            return
        }
        hand(f, from: i, to: destination, bytes: bytes, now: now)
    }

    /// Puts one copy of `f` from `i` to `destination` in the outbox and counts it.
    mutating func hand(_ f: MeshFrame, from i: Int, to destination: UInt32, bytes: Int32, now: SimTime) {
        recorder.frameSent(f, bytes: bytes, by: i)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free; inFlight[slot] = f
        } else {
            slot = inFlight.count; inFlight.append(f)
        }
        outbox.append(
            LinkPacket(
                source: UInt32(i), destination: destination, bytes: bytes, owner: .mesh,
                tag: UInt64(slot), enqueued: now))
    }

    /// With the route cache and heartbeat routing: the source of a message could not reach its
    /// first hop `next` (the peer left its session, or the link gave up). It forgets its routes
    /// over that link and sends the frame again at once along the best route it still holds,
    /// if any (the same attempt; a relay cannot, the route being the source's).
    mutating func failOver(_ f: MeshFrame, at node: Int, next: Int, now: SimTime) {
        guard config.routeCache, config.routing == .heartbeat, f.kind == .message, f.hop == 0 else { return }
        routes.forgetLink((node, next), at: node)
        guard let r = routes.route(from: node, to: f.path[f.path.count - 1], at: now) else { return }
        recorder.failedOver()
        var again = f
        again.path = r.path
        send(again, from: node, now: now)
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

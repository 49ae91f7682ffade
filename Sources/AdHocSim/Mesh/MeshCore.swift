/// What every part of the mesh's routing shares: the settings, the session layer beneath it
/// (`SessionLayer`: who is in a session with whom, and the frames' way to the link), the route
/// table, the message ledger and the recorder. The routing protocols and the message workloads
/// act on it; `MeshNetwork` owns it.
struct MeshCore: Sendable {
    /// Settings.
    let config: MeshConfig
    /// Nodes.
    let nodeCount: Int
    /// Multipeer's session layer beneath the routing.
    var sessionLayer: SessionLayer
    /// Every node's routes.
    var routes: RouteTable
    /// Every workload message's fate.
    var ledger: MessageLedger
    /// Counters, first routes and repairs (the metrics' observer).
    var recorder: MeshRecorder

    /// A mesh of `nodes` nodes with no routes or messages yet, over `sessionLayer`.
    init(nodes: Int, config: MeshConfig, workloads: [MessageWorkloadSpec], sessionLayer: SessionLayer) {
        self.config = config
        nodeCount = nodes
        self.sessionLayer = sessionLayer
        routes = RouteTable(nodes: nodes, timeout: config.routeTimeout)
        ledger = MessageLedger(workloads)
        recorder = MeshRecorder(nodes: nodes)
    }

    /// Who is in a session with whom: all the routing reads of the session layer.
    var sessions: SignalSessions { sessionLayer.sessions }

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
    mutating func send(_ f: MeshFrame, from i: Int, now: SimTime) {
        if f.isSourceRouted {
            let next = f.path[f.hop + 1]
            guard sessions.connected(i, next) else {
                recorder.noSession(at: i)
                if f.kind != .routeError { routeBroke(f, at: i, next: next, now: now) }
                failOver(f, at: i, next: next, now: now)
                return
            }
            let bytes = frameBytes(f)
            if config.forwarding == .pathBroadcast && (f.kind == .message || f.kind == .routeReturn) {
                // MAdHoc's design: the hop goes to every session peer (one unicast each, each
                // numbered on its own session hop when reliable); only `next` passes it on.
                for peer in sessions.peers[i] where !sessions.hasLeft(i, peer) {
                    sessionLayer.send(f, from: i, to: peer, bytes: bytes, now: now)
                }
                return
            }
            // Multipeer sends to a connected peer, never to all: every hop is a unicast, and a
            // reliable message or return is numbered on its hop's session.
            sessionLayer.send(f, from: i, to: next, bytes: bytes, now: now)
            return
        }
        let bytes = frameBytes(f)
        if config.floodSend == .sessionPeers {
            // MCSession.send(_:toPeers:with:) to every connected peer: one unicast per peer
            // (Multipeer has no broadcast), each acknowledged and retried by the MAC.
            for peer in sessions.peers[i] where !sessions.hasLeft(i, peer) {
                sessionLayer.send(f, from: i, to: peer, bytes: bytes, now: now)
            }
            return
        }
        sessionLayer.broadcast(f, from: i, bytes: bytes, now: now)
    }

    /// The bytes of `f` on the link: header and path (`MeshConfig.heartbeatBytes`), and for a
    /// message its payload, fragment header and encryption overhead.
    func frameBytes(_ f: MeshFrame) -> Int32 {
        guard f.kind == .message else { return config.heartbeatBytes(pathLength: f.path.count) }
        let piece = MeshConfig.fragmentBytes(Int(f.fragment), size: ledger.workloads[f.workload].sizeBytes)
        let header = f.fragments > 1 ? MeshConfig.fragmentHeaderBytes : 0
        let seal = f.sealed ? PathKeys.sealBytes : 0
        return config.messageBytes(pathLength: f.path.count, payload: piece + header + seal)
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

    /// Classic DSR only: node `i` could not reach `next`; it forgets its routes over that link.
    mutating func linkBroke(at i: Int, next: Int) {
        guard config.routing == .dsr else { return }
        routes.forgetLink((i, next), at: i)
    }

    /// Route Maintenance (RFC 4728 §3.3.5, §8.3), classic DSR only: node `i` could not pass
    /// `f` on to `next`; it forgets the link and sends a Route Error back to the frame's source.
    /// MAdHoc's heartbeats need no such report: the route simply stops being refreshed.
    mutating func routeBroke(_ f: MeshFrame, at i: Int, next: Int, now: SimTime) {
        linkBroke(at: i, next: next)
        guard config.routing == .dsr, f.hop > 0 else { return }
        let back = Array(f.path[0...f.hop].reversed())
        recorder.routeErrorSent()
        send(MeshFrame(kind: .routeError, origin: i, seq: 0, path: back, broken: (i, next)), from: i, now: now)
    }
}

/// MAdHoc's mesh of a run (mesh.md, seed 002): a routing protocol that fills every node's route
/// table, and source-routed messages with route returns and retries, over Multipeer's session
/// layer.
///
/// Its parts: a `MeshRoutingProtocol` (`HeartbeatRouting` or `ClassicDsr`), the shared
/// `MeshCore` (route table, ledger, the `MeshRecorder` the metrics read, and beneath them the
/// `SessionLayer`: who is in a session with whom, read through `MeshCore.sessions`, and the
/// frames' way to the link). Messages are the mesh's own: a message carries its source route and
/// goes, as MAdHoc's design writes it, to every session peer, of which only the next node on the
/// path passes it on (`mesh.forwarding: "path-broadcast"`), or to the next node only
/// (`"next-hop"`). The destination answers with a route return along the reversed path;
/// the sender retries with its then-current route when no return arrives within
/// `confirmTimeout`.
public struct MeshNetwork: Sendable {
    var core: MeshCore
    var routing: MeshRoutingChoice
    /// The hosts' IP across the mesh: the send buffer, their reports, per-flow counters.
    public internal(set) var carriage: MeshCarriage

    /// A mesh over `nodes` nodes; schedules the first session round, heartbeats and messages.
    /// `sessions`, when given, fixes who is in a session with whom (a test harness's table);
    /// `ipFlows` is the run's flow count (the carriage keeps counters for each).
    public init(
        nodes: Int, config: MeshConfig, workloads: [MessageWorkloadSpec] = [], resources: [ResourceSpec] = [],
        streams: [StreamSpec] = [], sessions: SignalSessions? = nil, phones: [MultipeerPhone] = [],
        ipFlows: Int = 0, sim: inout Simulation
    ) {
        carriage = MeshCarriage(flows: ipFlows)
        let sessionLayer = SessionLayer(
            nodes: nodes, config: config.session, takesEveryCopy: config.forwarding == .pathBroadcast,
            reliableWorkloads: workloads.map(\.reliable), pieceBytes: MeshConfig.fragmentPayload, resources: resources,
            streams: streams, sessions: sessions,
            phones: phones, sim: sim)
        core = MeshCore(nodes: nodes, config: config, workloads: workloads, sessionLayer: sessionLayer)
        switch config.routing {
        case .heartbeat: routing = .heartbeat(HeartbeatRouting(nodes: nodes, sim: sim))
        case .dsr: routing = .dsr(ClassicDsr(nodes: nodes))
        }
        core.sessionLayer.firstRound(sim: &sim)
        routingStart(sim: &sim)
        core.sessionLayer.setup?.startDiscovery(nodes: nodes, sim: &sim)
        for (w, spec) in workloads.enumerated() {
            sim.schedule(at: spec.start, target: UInt32(w), kind: .meshMessage, arg: 0)
        }
        core.sessionLayer.transfers.scheduleTransfers(sim: &sim)
    }

    /// Per node, when it first joined a session (Multipeer set-up only; `nil`: never, or
    /// sessions that form at once).
    public var firstConnected: [SimTime?] { core.sessionLayer.setup?.firstConnected ?? [] }
    /// The members of the largest Multipeer session at the end, with sessions as groups (`nil`:
    /// sessions are pairs, fixed groups or instant).
    public var largestGroup: Int? { core.sessionLayer.setup?.groups?.largest }

    /// What each phone's app heard from Multipeer, in time order (`nil` without Multipeer
    /// set-up).
    public var multipeerEvents: [MultipeerEvent]? { core.sessionLayer.setup?.log }

    /// Every Multipeer stream and resource, resources first, in scenario order.
    public var transfers: [SessionTransfer] { core.sessionLayer.transfers.list }

    /// Keeps every transfer's pieces as the receiver takes them (`SessionTransfer.pieces`).
    public mutating func logTransferPieces() { core.sessionLayer.transfers.logPieces = true }

    // MARK: Queries

    /// Settings.
    public var config: MeshConfig { core.config }
    /// Nodes.
    public var nodeCount: Int { core.nodeCount }
    /// Session peers per node (sorted indices).
    public var peers: [[Int]] { core.sessions.peers }
    /// Who is in a session with whom.
    public var sessions: some NeighbourTable { core.sessions }
    /// Every workload message's fate.
    public var ledger: MessageLedger { core.ledger }
    /// Counters, first routes and repairs.
    public var recorder: MeshRecorder { core.recorder }
    /// What each node handed its session, by kind of frame.
    public var framesSent: FramesSent { core.sessionLayer.wire.sent }
    /// Packets to hand to the link layer.
    public var outbox: [LinkPacket] { core.sessionLayer.wire.outbox }

    /// Hands the packets to send to the caller by swapping `buffer` (empty, its capacity kept)
    /// with the outbox, so neither array is copied or reallocated.
    public mutating func takeOutbox(swappingWith buffer: inout [LinkPacket]) {
        core.sessionLayer.takeOutbox(swappingWith: &buffer)
    }

    /// The route node `from` holds to `to` at `time` (expired routes are not returned).
    public func route(from: Int, to: Int, at time: SimTime) -> MeshRoute? {
        core.routes.route(from: from, to: to, at: time)
    }

    /// Node `node`'s live routes at `time`, by destination index.
    public func routeTable(of node: Int, at time: SimTime) -> [(to: Int, path: [Int])] {
        core.routes.table(of: node, at: time)
    }

    /// Heartbeats (or route requests) each node originated.
    public var originated: [UInt64] {
        switch routing {
        case .heartbeat(let r): return r.nextSeq
        case .dsr(let r): return r.nextSeq
        case .running: return []
        }
    }

    /// The key report of the run so far (empty unless `keyPaths` is set and heartbeats run).
    public func keyReport() -> [PathKeys.PairKey] {
        guard let k = config.keyPaths, case .heartbeat(let r) = routing else { return [] }
        return PathKeys.report(heard: r.heard, nodes: nodeCount, peers: peers, keyPaths: k)
    }

    // MARK: Sessions and failures

    /// Re-evaluates every session from what `link` says at `now`; the routing hears of the
    /// sessions that formed.
    public mutating func updateSessions<L: LinkTechnology>(link: inout L, sim: inout Simulation) {
        if core.sessionLayer.update(link: &link, now: sim.now) {
            routingSessionsFormed(core.sessions.formed, sim: &sim)
        }
    }

    /// Node `node`'s app calls Multipeer (a scripted event; `SessionLayer.appCalled`).
    public mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {
        core.sessionLayer.appCalled(action, at: node, sim: &sim)
    }

    /// Node `i`'s app started again (it joined): Multipeer discovery starts over (`"multipeer"`
    /// set-up only).
    public mutating func appStarted(_ i: Int, sim: inout Simulation) {
        core.sessionLayer.appStarted(i, sim: &sim)
    }

    /// Ends the session between `a` and `b` at once.
    public mutating func disconnect(_ a: Int, _ b: Int) { core.sessionLayer.sessions.disconnect(a, b) }

    /// Node `k` failed: the recorder counts the routes it broke. `isDown` says which nodes are
    /// down now (`k` included).
    public mutating func nodeFailed(_ node: Int, now: SimTime, isDown: (Int) -> Bool) {
        let down = (0..<nodeCount).map(isDown)
        core.recorder.nodeFailed(node, now: now, routes: core.routes, down: down)
    }

    // MARK: Frames to and from the link

    /// A link notice about one of the mesh's packets: delivered to a session peer, done with
    /// at its sender, or given up on.
    public mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation) {
        switch n.kind {
        case .delivered:
            delivered(n.packet, at: Int(n.node), link: &link, sim: &sim)
        case .senderDone: released(n.packet, sim: &sim)
        case .dropped:
            linkDropped(n.packet, sim: &sim)
            released(n.packet, dropped: true, sim: &sim)
        }
    }

    /// Hands the session layer's outbox to `link` (`SessionWire.sendNext`); a packet the link
    /// refuses is released as lost at once, before the next one goes. Returns whether there was
    /// anything to send (the link may then have new notices).
    public mutating func sendOutbox<L: LinkTechnology>(
        link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool {
        guard core.sessionLayer.wire.startSending() else { return false }
        while let p = core.sessionLayer.wire.sendNext(link: &link, timeline: timeline, sim: &sim) {
            released(p, dropped: true, refused: true, sim: &sim)
        }
        return true
    }

    // MARK: Frames from the link

    /// A mesh packet reached node `r`: the session layer takes what is its own and passes the
    /// routing's frames up, each reliable one once and in its hop's order.
    public mutating func delivered<L: LinkTechnology>(
        _ packet: LinkPacket, at r: Int, link: inout L, sim: inout Simulation
    ) {
        let now = sim.now
        let slot = Int(packet.tag)
        guard core.sessionLayer.wire.isLive(slot) else { return }
        // A unicast's slot waits for this delivery too (`SessionWire.pendingNotices`).
        defer { if packet.destination != LinkPacket.broadcast { core.sessionLayer.wire.noticed(slot) } }
        guard !link.isDown(r) else { return }
        let from = Int(packet.source)
        switch core.sessionLayer.receive(slot, at: r, from: from, link: &link, sim: &sim) {
        case .nothing:
            return
        case .connected(let a, let b):
            routingSessionsFormed([(a, b)], sim: &sim)
        case .frame(let inOrder):
            // `.frame` comes only with the routing's frame.
            guard let frame = core.sessionLayer.wire.routedInFlight[slot] else {
                preconditionFailure("a routed arrival without the routing's frame")
            }
            take(frame, at: r, now: now)
            guard inOrder else { return }
            while let g = core.sessionLayer.nextInOrder(from: from, to: r, now: now) { take(g, at: r, now: now) }
        case .taken:
            while let g = core.sessionLayer.nextInOrder(from: from, to: r, now: now) { take(g, at: r, now: now) }
        }
    }

    /// Node `r` takes a frame of the routing addressed to it (or a flooded one it heard).
    mutating func take(_ f: MeshFrame, at r: Int, now: SimTime) {
        switch f.kind {
        case .heartbeat, .routeRequest:
            routingControlArrived(f, at: r, now: now)
        case .message, .routeReturn, .routeReply, .routeError:
            guard f.path[f.hop + 1] == r else {
                core.recorder.notOnPath(at: r)  // a path-broadcast copy for another node
                return
            }
            if f.kind == .routeError { core.routes.forgetLink(f.broken, at: r) }
            if f.hop + 2 < f.path.count {
                var next = f
                next.hop += 1
                core.recorder.relayed(at: r)
                core.send(next, from: r, now: now)
                return
            }
            switch f.kind {
            case .message: arrived(f, now: now)
            case .routeReturn: confirmed(f, now: now)
            case .routeReply: routingControlArrived(f, at: r, now: now)
            default: break
            }
        }
    }

    /// The link layer gave up on a mesh packet (retry limit): with classic DSR, a source-routed
    /// frame's next hop is unreachable and a route error goes back to the frame's source; the
    /// session layer sends a reliable frame again (`SessionLayer.linkGaveUp`).
    public mutating func linkDropped(_ packet: LinkPacket, sim: inout Simulation) {
        let slot = Int(packet.tag)
        guard core.sessionLayer.wire.isLive(slot), packet.destination != LinkPacket.broadcast else { return }
        let f = core.sessionLayer.wire.frame(slot)
        let (from, to) = (Int(packet.source), Int(packet.destination))
        let bytes: Int32
        switch f.own {
        case .setup: return
        case .piece(let p):
            // A transfer's piece travels its one session hop: with classic DSR its sender
            // forgets the link all the same (`routeBroke` at the path's first node).
            core.linkBroke(at: from, next: to)
            bytes = core.config.transferFrameBytes(payload: p.length)
        case .routed:
            guard let m = f.routed, m.isSourceRouted, m.kind != .routeError else { return }
            core.routeBroke(m, at: from, next: to, now: sim.now)
            bytes = f.part.isNumbered ? core.frameBytes(m) : 0
        }
        // The app above (MAdHoc) never sees the link give up: it fails over only when the peer
        // leaves the session (`MeshCore.send`) or its confirmation times out.
        core.sessionLayer.linkGaveUp(f, from: from, to: to, bytes: bytes, sim: &sim)
    }

    /// The link is done with a mesh packet. The last fragment of a long message leaving its
    /// sender starts the wait for the route return.
    /// `refused`: the sender's link never took it (the sender is down).
    public mutating func released(
        _ packet: LinkPacket, dropped: Bool = false, refused: Bool = false, sim: inout Simulation
    ) {
        let slot = Int(packet.tag)
        let live = core.sessionLayer.wire.isLive(slot)
        if live, let m = core.sessionLayer.wire.routedInFlight[slot], m.kind == .message, m.fragments > 1, m.hop == 0,
            m.fragment == m.fragments - 1
        {
            sim.schedule(
                after: config.confirmTimeout, target: UInt32(m.workload), kind: .meshConfirmTimeout,
                arg: MessageAttempt(message: m.message, attempt: m.attempt).argument)
        }
        // A frame the link gave up on, or never took, is not delivered either.
        core.sessionLayer.released(slot, live: live, dropped: dropped, refused: refused, now: sim.now)
    }

    /// Whether any node holds frames for its transmit queue.
    public var isHolding: Bool { !core.sessionLayer.wire.holding.isEmpty }

    /// Hands held frames to `link` while their nodes' transmit queues have room, oldest first
    /// (`SessionWire.sendNextHeld`); a down node's link refuses everything, and each refused
    /// frame is released as lost at once.
    public mutating func sendHeld<L: LinkTechnology>(link: inout L, sim: inout Simulation) {
        while let p = core.sessionLayer.wire.sendNextHeld(link: &link, sim: &sim) {
            released(p, dropped: true, refused: true, sim: &sim)
        }
    }

    // MARK: IP across the mesh

    /// How many routes the mesh has stored so far: when it changes, IP packets waiting for a
    /// route may go.
    public var routesLearned: UInt64 { core.routesLearned }

    /// A flow's IP packet at `from` found no route to `to` and waits: classic DSR discovers one.
    public mutating func ipRouteWanted(from: Int, to: Int, sim: inout Simulation) {
        routingRouteWanted(from: from, to: to, sim: &sim)
    }

    /// Node `at` could not pass a flow's IP packet, which carried `route`, on to `next` (the
    /// next hop left its session, or the link gave up): with classic DSR, Route Maintenance
    /// (RFC 4728 §8.3) forgets the link and sends a Route Error back to the packet's source.
    public mutating func ipLinkBroke(route: [Int], at: Int, next: Int, now: SimTime) {
        guard let hop = route.firstIndex(of: at) else { return }
        let f = MeshFrame(kind: .message, origin: route[0], seq: 0, path: route, hop: hop)
        core.routeBroke(f, at: at, next: next, now: now)
    }

    // MARK: Messages

    /// Message `m` of workload `w` is created; the next one is scheduled.
    public mutating func messageDue(_ workload: Int, _ message: Int, senderDown: Bool, sim: inout Simulation) {
        let spec = core.ledger.workloads[workload]
        core.ledger.records[workload].append(MessageLedger.Record(created: sim.now))
        if message + 1 < spec.count {
            sim.schedule(after: spec.interval, target: UInt32(workload), kind: .meshMessage, arg: UInt64(message + 1))
        }
        attempt(workload, message, number: 0, senderDown: senderDown, sim: &sim)
    }

    /// Sends attempt `number` of a message along the sender's current route (if it has one)
    /// and arms its confirmation timeout.
    mutating func attempt(_ w: Int, _ m: Int, number: Int, senderDown: Bool, sim: inout Simulation) {
        let spec = core.ledger.workloads[w]
        core.ledger.records[w][m].attempts += 1
        let fragments = MeshConfig.fragmentCount(size: spec.sizeBytes)
        // A retry takes the next route of the cache: the one in use did not bring a return.
        let cached = senderDown ? [] : core.routes.routes(at: core.routes.index(spec.from, spec.to), time: sim.now)
        let r = cached.isEmpty ? nil : cached[number % cached.count]
        // A message of one frame waits for its return from the moment it is sent; a longer one
        // from when its last fragment has left the sender (`released`), however long the
        // fragments queued before.
        if fragments == 1 || r == nil {
            sim.schedule(
                after: config.confirmTimeout, target: UInt32(w), kind: .meshConfirmTimeout,
                arg: MessageAttempt(message: m, attempt: number).argument)
        }
        guard !senderDown else {
            core.ledger.records[w][m].attemptsWithoutRoute += 1
            return
        }
        guard let r else {
            core.ledger.records[w][m].attemptsWithoutRoute += 1
            routingRouteMissing(workload: w, message: m, attempt: number, sim: &sim)
            return
        }
        sendMessage(w, m, attempt: number, path: r.path, now: sim.now)
    }

    /// Sends attempt `number` of message `m` along `path`: one frame, or every fragment.
    mutating func sendMessage(_ w: Int, _ m: Int, attempt number: Int, path: [Int], now: SimTime) {
        let from = core.ledger.workloads[w].from
        let fragments = Int32(MeshConfig.fragmentCount(size: core.ledger.workloads[w].sizeBytes))
        // With path-derived keys: encrypted when the pair holds a key now, else in the clear.
        var sealed = false
        if let k = config.keyPaths, case .heartbeat(let r) = routing {
            sealed = PathKeys.hasKey(
                heard: r.heard, nodes: nodeCount, a: from, b: core.ledger.workloads[w].to, keyPaths: k)
        }
        core.ledger.records[w][m].encrypted = sealed
        for k in 0..<fragments {
            var f = MeshFrame(
                kind: .message, origin: from, seq: 0, path: path, workload: w, message: m, attempt: number,
                sentAt: now)
            f.fragment = k
            f.fragments = fragments
            f.sealed = sealed
            core.send(f, from: from, now: now)
        }
    }

    /// The confirmation of attempt `number` is overdue: retry while attempts remain.
    public mutating func confirmTimedOut(
        _ workload: Int, _ message: Int, number: Int, senderDown: Bool, sim: inout Simulation
    ) {
        guard core.ledger.records[workload][message].confirmed == nil, number < config.retries else { return }
        attempt(workload, message, number: number + 1, senderDown: senderDown, sim: &sim)
    }

    mutating func arrived(_ f: MeshFrame, now: SimTime) {
        if f.fragment == f.fragments - 1 { core.ledger.records[f.workload][f.message].arrivals += 1 }
        if f.fragments > 1 {
            // Reassembly: the message is delivered once every fragment arrived (from any
            // attempt); the route return answers the fragment that completed it, and the last
            // fragment of every later attempt.
            let completed = core.ledger.records[f.workload][f.message].receive(
                fragment: Int(f.fragment), of: Int(f.fragments))
            guard
                completed
                    || (core.ledger.records[f.workload][f.message].delivered != nil
                        && f.fragment == f.fragments - 1)
            else { return }
        }
        if core.ledger.records[f.workload][f.message].delivered == nil {
            core.ledger.records[f.workload][f.message].delivered = now
            core.ledger.records[f.workload][f.message].hops = f.path.count - 1
        }
        // Route return: "message received" along the same path in reverse (mesh.md).
        var back = f
        back.kind = .routeReturn
        back.path = f.path.reversed()
        back.hop = 0
        back.fragment = 0
        back.fragments = 1
        core.send(back, from: f.path[f.path.count - 1], now: now)
    }

    mutating func confirmed(_ f: MeshFrame, now: SimTime) {
        guard core.ledger.records[f.workload][f.message].confirmed == nil else { return }
        core.ledger.records[f.workload][f.message].confirmed = now
        core.ledger.records[f.workload][f.message].confirmRtt = now - f.sentAt
    }
}

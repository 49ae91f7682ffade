/// The DSR-with-heartbeats mesh of a run (mesh.md, seed 002): neighbour sessions, the
/// heartbeat flood that fills every node's route table, and source-routed messages.
///
/// Rules, as MAdHoc's design states them and as built here:
/// - Every node broadcasts a heartbeat every `heartbeatInterval` (plus jitter) carrying the
///   path it has travelled, to its session peers only.
/// - A receiver drops a heartbeat it has already seen (same origin, sequence not newer than
///   the newest it saw from that origin) unless the copy's path is shorter than its live route;
///   it also drops a new heartbeat whose path is longer than a route to the origin that was
///   refreshed within the last period ("already known by a faster path"). Otherwise it records
///   the path as its route to the origin, appends its own id and re-broadcasts.
/// - A route whose origin has not been heard for `routeTimeout` is gone.
/// - A message carries its source route and is sent to the next node on it; only the node a
///   frame names as next hop takes it (other session peers overhear a broadcast and ignore it).
///   The destination answers with a route return along the reversed path; the sender retries
///   with its then-current route when no return arrives within `confirmTimeout`.
public struct MeshNetwork: Sendable {
    struct Frame: Sendable {
        enum Kind: UInt8, Sendable { case heartbeat, message, routeReturn, routeRequest, routeReply, routeError }
        var kind: Kind
        var origin: Int
        var seq: UInt64
        /// Heartbeat: origin first, the forwarder last. Message and route return: the whole
        /// source route, sender first.
        var path: [Int]
        /// Message and route return: index in `path` of the node transmitting this copy.
        var hop: Int = 0
        var workload: Int = 0
        var message: Int = 0
        var attempt: Int = 0
        /// When the attempt this frame belongs to left its sender.
        var sentAt: SimTime = .zero
        /// Route request: the node sought.
        var target: Int = 0
        /// Route error: the link that broke (from, to).
        var broken: (from: Int, to: Int) = (-1, -1)

        var isSourceRouted: Bool { kind != .heartbeat && kind != .routeRequest }
        var isControl: Bool { kind != .message && kind != .routeReturn }
    }

    /// Settings.
    public let config: MeshConfig
    /// Nodes.
    public let nodeCount: Int
    /// Session peers per node (sorted indices).
    public private(set) var peers: [[Int]]
    var lostSince: [UInt64: SimTime] = [:]
    /// Routes, flat: `routes[from · n + to]`.
    var routes: [MeshRoute?]
    /// Per (receiver, origin), flat: newest heartbeat sequence seen + 1 (0: none). Replaces a
    /// set of (origin, sequence) pairs: sequences only grow, so this is the same suppression
    /// in constant memory per pair.
    var newestSeen: [UInt64]
    var nextSeq: [UInt64]
    var inFlight: [Frame?] = []
    var freeSlots: [Int] = []
    var jitter: [RandomStream]
    /// Routing control frames sent (originated and forwarded) and their bytes, per node:
    /// heartbeats, or with classic DSR route requests, replies and errors.
    public private(set) var controlFramesSent: [UInt64]
    /// See `controlFramesSent`.
    public private(set) var controlBytes: [UInt64]
    /// Message and route-return frames sent (originated and forwarded) and their bytes, per node.
    public private(set) var messageFramesSent: [UInt64]
    /// See `messageFramesSent`.
    public private(set) var messageBytes: [UInt64]
    /// Message frames a relay could not pass on because the next hop was not in its session.
    public private(set) var noSessionDrops: UInt64 = 0
    /// Classic DSR: route errors originated (a node found its next hop unreachable).
    public internal(set) var routeErrors: UInt64 = 0
    /// Every workload message's fate.
    public private(set) var ledger: MessageLedger
    /// Per (from, to), flat: when `from` first held a route to `to`, ns (−1: never).
    public private(set) var firstRoute: [Int64]
    /// Node failures and the routes they broke.
    public private(set) var repairs: [RouteRepair] = []
    /// Per broken ordered pair (flat index), the failures (indices into `repairs`) whose
    /// routes it still waits to repair.
    var pendingRepairs: [UInt64: [Int]] = [:]
    /// With `keyPaths`: per (node, origin), flat key, the distinct paths (node first) by which
    /// the node heard the origin's heartbeats, at most `PathKeys.maxPathsPerPair`.
    var heard: [Int: [[Int]]] = [:]
    /// Classic DSR: attempts waiting for a route, by ordered pair (from << 32 | to).
    var waiting: [UInt64: [(w: Int, m: Int, number: Int)]] = [:]
    /// Classic DSR: discoveries under way, by ordered pair, with the retries made so far.
    var discoveries: [UInt64: Int] = [:]
    /// Packets to hand to the link layer; the world drains it.
    public var outbox: [LinkPacket] = []

    /// A mesh over `nodes` nodes; schedules the first heartbeats, session round and messages.
    public init(nodes: Int, config: MeshConfig, workloads: [MessageWorkloadSpec] = [], sim: inout Simulation) {
        self.config = config
        nodeCount = nodes
        peers = Array(repeating: [], count: nodes)
        routes = Array(repeating: nil, count: nodes * nodes)
        newestSeen = Array(repeating: 0, count: nodes * nodes)
        firstRoute = Array(repeating: -1, count: nodes * nodes)
        nextSeq = Array(repeating: 0, count: nodes)
        controlFramesSent = Array(repeating: 0, count: nodes)
        controlBytes = Array(repeating: 0, count: nodes)
        messageFramesSent = Array(repeating: 0, count: nodes)
        messageBytes = Array(repeating: 0, count: nodes)
        ledger = MessageLedger(workloads)
        jitter = (0..<nodes).map { sim.randomStream(named: "node:\($0)/mesh/jitter") }
        sim.schedule(at: .zero, target: 0, kind: .meshSessions)
        for i in 0..<nodes where config.routing == .heartbeat {
            let offset = SimTime(nanoseconds: Int64(jitter[i].uniform() * Double(config.heartbeatInterval.nanoseconds)))
            sim.schedule(at: offset, target: UInt32(i), kind: .meshHeartbeat)
        }
        for (w, spec) in workloads.enumerated() { sim.schedule(at: spec.start, target: UInt32(w), kind: .meshMessage, arg: 0) }
    }

    /// The route node `from` holds to `to` at `time` (expired routes are not returned).
    public func route(from: Int, to: Int, at time: SimTime) -> MeshRoute? {
        guard let r = routes[from * nodeCount + to], time - r.learned <= config.routeTimeout else { return nil }
        return r
    }

    // MARK: Sessions

    static func pairKey(_ a: Int, _ b: Int) -> UInt64 { UInt64(Swift.min(a, b)) << 32 | UInt64(Swift.max(a, b)) }

    /// Re-evaluates every session (in node order, strongest candidates first). A session forms
    /// when both ends are up, the signal reaches the discovery threshold and both have room
    /// (at most `maxPeers − 1` peers each); it ends once a peer has been down or below the
    /// keep threshold for `peerTimeout`.
    public mutating func updateSessions<L: LinkTechnology>(link: inout L, now: SimTime) {
        let n = peers.count
        for i in 0..<n {
            peers[i] = peers[i].filter { j in
                let key = MeshNetwork.pairKey(i, j)
                let lost = link.isDown(i) || link.isDown(j) || link.medianRxDbm(from: j, to: i) < config.keepDbm
                if !lost {
                    lostSince[key] = nil
                    return true
                }
                if let since = lostSince[key] { return now - since < config.peerTimeout }
                lostSince[key] = now
                return config.peerTimeout > .zero
            }
        }
        for i in 0..<n { peers[i] = peers[i].filter { peers[$0].contains(i) } }
        for i in 0..<n where !link.isDown(i) {
            var near: [Int] = []
            link.forEachNeighbour(of: i) { near.append($0) }
            var candidates: [(j: Int, dbm: Double)] = []
            for j in near where !link.isDown(j) && !peers[i].contains(j) {
                let dbm = link.medianRxDbm(from: j, to: i)
                if dbm >= config.discoverDbm { candidates.append((j, dbm)) }
            }
            candidates.sort { $0.dbm != $1.dbm ? $0.dbm > $1.dbm : $0.j < $1.j }
            for c in candidates where peers[i].count < config.maxPeers - 1 && peers[c.j].count < config.maxPeers - 1 {
                peers[i].append(c.j)
                peers[c.j].append(i)
                lostSince[MeshNetwork.pairKey(i, c.j)] = nil
            }
        }
        for i in 0..<n { peers[i].sort() }
    }

    // MARK: Heartbeats

    /// Node `i` originates a heartbeat and schedules the next one.
    public mutating func heartbeat(_ i: Int, sim: inout Simulation, down: Bool) {
        let jitterDelay = SimTime(nanoseconds: Int64(jitter[i].uniform() * Double(config.heartbeatJitter.nanoseconds)))
        sim.schedule(after: config.heartbeatInterval + jitterDelay, target: UInt32(i), kind: .meshHeartbeat)
        guard !down, !peers[i].isEmpty else { return }
        let seq = nextSeq[i]
        nextSeq[i] += 1
        send(Frame(kind: .heartbeat, origin: i, seq: seq, path: [i]), from: i, now: sim.now)
    }

    mutating func heartbeatArrived(_ h: Frame, at r: Int, now: SimTime) {
        guard h.origin != r, !h.path.contains(r) else { return }
        let index = r * nodeCount + h.origin
        let path = [r] + h.path.reversed()
        if config.keyPaths != nil { rememberPath(path, at: index) }
        let alive = route(from: r, to: h.origin, at: now)
        if h.seq < newestSeen[index] {
            // A later copy of a heartbeat already handled counts only if its path is shorter.
            guard let a = alive, path.count - 1 < a.hops else { return }
        } else {
            newestSeen[index] = h.seq + 1
            // "Already known by a faster path" (mesh.md): a shorter route refreshed within the
            // last heartbeat period wins; one that missed a period is presumed broken, so the
            // longer path takes over at once instead of after the route timeout.
            if let a = alive, a.hops < path.count - 1, a.learned > now - config.heartbeatInterval - config.heartbeatJitter { return }
        }
        setRoute(MeshRoute(path: path, learned: now), at: index, now: now)
        var forward = h
        forward.path.append(r)
        send(forward, from: r, now: now)
    }

    mutating func setRoute(_ route: MeshRoute, at index: Int, now: SimTime) {
        routes[index] = route
        if firstRoute[index] < 0 { firstRoute[index] = now.nanoseconds }
        if !pendingRepairs.isEmpty, let waiting = pendingRepairs[UInt64(index)] {
            var still: [Int] = []
            for k in waiting {
                if route.path.contains(repairs[k].node) { still.append(k) } else { repairs[k].repairTimes.append(now - repairs[k].failed) }
            }
            pendingRepairs[UInt64(index)] = still.isEmpty ? nil : still
        }
    }

    /// Node `k` failed: every live route that relays through it is broken until its source
    /// learns one without it (the repair time).
    /// Routes of earlier failures that start or end at `k` can no longer be repaired: they
    /// leave the count of broken pairs.
    /// `isDown` says which nodes are down now (`k` included): routes from or to them are not
    /// counted.
    public mutating func nodeFailed(_ k: Int, now: SimTime, isDown: (Int) -> Bool) {
        for (pair, failures) in pendingRepairs where Int(pair) / nodeCount == k || Int(pair) % nodeCount == k {
            for f in failures { repairs[f].brokenPairs -= 1 }
            pendingRepairs[pair] = nil
        }
        let index = repairs.count
        var broken = 0
        let down = (0..<nodeCount).map(isDown)
        for a in 0..<nodeCount where !down[a] {
            for b in 0..<nodeCount where b != a && !down[b] {
                if let r = route(from: a, to: b, at: now), r.path.dropFirst().dropLast().contains(k) {
                    broken += 1
                    pendingRepairs[UInt64(a * nodeCount + b), default: []].append(index)
                }
            }
        }
        repairs.append(RouteRepair(node: k, failed: now, brokenPairs: broken, repairTimes: []))
    }

    // MARK: Frames

    mutating func send(_ f: Frame, from i: Int, now: SimTime) {
        var destination = LinkPacket.broadcast
        var bytes = config.heartbeatBytes(pathLength: f.path.count)
        if f.isSourceRouted {
            let next = f.path[f.hop + 1]
            // Multipeer sends only to connected peers.
            guard peers[i].contains(next) else {
                noSessionDrops += 1
                if f.kind != .routeError { routeBroke(f, at: i, next: next, now: now) }
                return
            }
            // Session messages: reliable ones go to the next hop with link-layer retries;
            // DSR's replies and errors always do (RFC 4728 relies on link-layer acknowledgement).
            if f.kind == .routeReply || f.kind == .routeError || ledger.workloads[f.workload].reliable { destination = UInt32(next) }
            if f.kind == .message { bytes = config.messageBytes(pathLength: f.path.count, payload: ledger.workloads[f.workload].sizeBytes) }
        }
        if f.isControl {
            controlFramesSent[i] += 1
            controlBytes[i] += UInt64(bytes)
        } else {
            messageFramesSent[i] += 1
            messageBytes[i] += UInt64(bytes)
        }
        let slot: Int
        if let free = freeSlots.popLast() { slot = free; inFlight[slot] = f } else { slot = inFlight.count; inFlight.append(f) }
        outbox.append(LinkPacket(source: UInt32(i), destination: destination, bytes: bytes, owner: .mesh,
                                 tag: UInt64(slot), enqueued: now))
    }

    /// A mesh packet reached node `r` (only session peers of the sender listen).
    public mutating func delivered(_ p: LinkPacket, at r: Int, now: SimTime, down: Bool) {
        let slot = Int(p.tag)
        guard !down, let f = inFlight[slot], peers[r].contains(Int(p.source)) else { return }
        switch f.kind {
        case .heartbeat:
            heartbeatArrived(f, at: r, now: now)
        case .routeRequest:
            requestArrived(f, at: r, now: now)
        case .message, .routeReturn, .routeReply, .routeError:
            guard f.path[f.hop + 1] == r else { return }
            if f.kind == .routeError { forgetLink(f.broken, at: r) }
            if f.hop + 2 < f.path.count {
                var next = f
                next.hop += 1
                send(next, from: r, now: now)
                return
            }
            switch f.kind {
            case .message: arrived(f, now: now)
            case .routeReturn: confirmed(f, now: now)
            case .routeReply: replyArrived(f, now: now)
            default: break
            }
        }
    }

    /// The link layer gave up on a mesh packet (retry limit): with classic DSR, a source-routed
    /// frame's next hop is unreachable and a route error goes back to the frame's source.
    public mutating func linkDropped(_ p: LinkPacket, now: SimTime) {
        let slot = Int(p.tag)
        guard let f = inFlight[slot], f.isSourceRouted, f.kind != .routeError, p.destination != LinkPacket.broadcast else { return }
        routeBroke(f, at: Int(p.source), next: Int(p.destination), now: now)
    }

    /// The link is done with a mesh packet.
    public mutating func released(_ p: LinkPacket) {
        let slot = Int(p.tag)
        inFlight[slot] = nil
        freeSlots.append(slot)
    }

    // MARK: Messages

    /// Message `m` of workload `w` is created; the next one is scheduled.
    public mutating func messageDue(_ w: Int, _ m: Int, senderDown: Bool, sim: inout Simulation) {
        let spec = ledger.workloads[w]
        ledger.records[w].append(MessageLedger.Record(created: sim.now))
        if m + 1 < spec.count { sim.schedule(after: spec.interval, target: UInt32(w), kind: .meshMessage, arg: UInt64(m + 1)) }
        attempt(w, m, number: 0, senderDown: senderDown, sim: &sim)
    }

    /// Sends attempt `number` of a message along the sender's current route (if it has one)
    /// and arms its confirmation timeout.
    mutating func attempt(_ w: Int, _ m: Int, number: Int, senderDown: Bool, sim: inout Simulation) {
        let spec = ledger.workloads[w]
        ledger.records[w][m].attempts += 1
        sim.schedule(after: config.confirmTimeout, target: UInt32(w), kind: .meshConfirmTimeout, arg: MeshNetwork.packArgument(m, number))
        guard !senderDown else {
            ledger.records[w][m].attemptsWithoutRoute += 1
            return
        }
        guard let r = route(from: spec.from, to: spec.to, at: sim.now) else {
            ledger.records[w][m].attemptsWithoutRoute += 1
            if config.routing == .dsr { awaitRoute(w, m, number: number, sim: &sim) }
            return
        }
        send(Frame(kind: .message, origin: spec.from, seq: 0, path: r.path, workload: w, message: m, attempt: number, sentAt: sim.now),
             from: spec.from, now: sim.now)
    }

    /// The confirmation of attempt `number` is overdue: retry while attempts remain.
    public mutating func confirmTimedOut(_ w: Int, _ m: Int, number: Int, senderDown: Bool, sim: inout Simulation) {
        guard ledger.records[w][m].confirmed == nil, number < config.retries else { return }
        attempt(w, m, number: number + 1, senderDown: senderDown, sim: &sim)
    }

    mutating func arrived(_ f: Frame, now: SimTime) {
        if ledger.records[f.workload][f.message].delivered == nil {
            ledger.records[f.workload][f.message].delivered = now
            ledger.records[f.workload][f.message].hops = f.path.count - 1
        }
        // Route return: "message received" along the same path in reverse (mesh.md).
        var back = f
        back.kind = .routeReturn
        back.path = f.path.reversed()
        back.hop = 0
        send(back, from: f.path[f.path.count - 1], now: now)
    }

    mutating func confirmed(_ f: Frame, now: SimTime) {
        guard ledger.records[f.workload][f.message].confirmed == nil else { return }
        ledger.records[f.workload][f.message].confirmed = now
        ledger.records[f.workload][f.message].confirmRtt = now - f.sentAt
    }

    // MARK: Queries

    /// Node `node`'s live routes at `time`, by destination index.
    public func routeTable(of node: Int, at time: SimTime) -> [(to: Int, path: [Int])] {
        (0..<nodeCount).compactMap { b in route(from: node, to: b, at: time).map { (b, $0.path) } }
    }
}

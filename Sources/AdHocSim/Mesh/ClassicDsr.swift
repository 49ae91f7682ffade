/// Classic on-demand DSR (Johnson, Maltz, Hu; RFC 4728), for comparison with MAdHoc's
/// heartbeats (`mesh.routing: "dsr"`). The subset built here:
///
/// - Route Discovery (§3.1, §3.3.2–3.3.4): a sender without a cached route keeps the message
///   in its send buffer and floods a Route Request carrying the accumulated route. A node
///   discards a request it has seen (same initiator, identification not newer) or that already
///   lists it; otherwise it appends itself and re-broadcasts. The target answers with a Route
///   Reply sent back along the reversed accumulated route (links are bidirectional here, as
///   sessions are) and caches that reversed route itself. Unanswered requests are repeated
///   after 500 ms, doubling up to 10 s, at most 16 times (ns-3's constants, peers.md).
/// - Route cache (§4.1): one path per destination, the newest learned, dropped after 300 s
///   (ns-3's cache timeout) or when a route error names one of its links.
/// - Route Maintenance (§3.3.5, §8.3): a reliable frame the link layer gives up on, or whose
///   next hop has left the session, makes the node send a Route Error back to the frame's
///   source; every node it passes removes routes using the broken link (`MeshCore.routeBroke`,
///   since the session layer is where the break is seen).
///
/// Left out: replies from intermediate caches, non-propagating requests, packet salvaging,
/// gratuitous replies, flow state, and the link cache ns-3 uses by default. Messages carry the
/// same end-to-end route return as in MAdHoc so delivery and retries are measured alike.
struct ClassicDsr: MeshRoutingProtocol {
    /// Per (receiver, initiator), flat: newest route request identification seen + 1.
    var newestSeen: PairTable<UInt64>
    /// Per node: the next route request's identification.
    var nextSeq: [UInt64]
    /// Attempts waiting for a route, by ordered pair (from << 32 | to): the send buffer.
    var waiting: [UInt64: [(w: Int, m: Int, number: Int)]] = [:]
    /// Discoveries under way, by ordered pair, with the retries made so far.
    var discoveries: [UInt64: Int] = [:]
    /// Ordered pairs whose flows have IP packets waiting for a route (in the hosts' send
    /// buffer): their discovery is repeated as the message send buffer's is.
    var ipWaiting: Set<UInt64> = []

    /// The protocol for `nodes` nodes.
    init(nodes: Int) {
        newestSeen = PairTable(nodes: nodes, empty: 0)
        nextSeq = Array(repeating: 0, count: nodes)
    }

    static func orderedPair(_ from: Int, _ to: Int) -> UInt64 { UInt64(from) << 32 | UInt64(to) }

    /// On-demand: nothing happens until a message needs a route.
    mutating func start(core: MeshCore, sim: inout Simulation) {}

    mutating func handle(_ event: Event, core: inout MeshCore, targetDown: Bool, sim: inout Simulation) {
        guard event.kind == .meshRequestTimeout else { preconditionFailure("not a route request event") }
        let a = RequestRetry(event.arg)
        requestTimedOut(from: Int(event.target), to: a.sought, retries: a.retries, down: targetDown, core: &core, sim: &sim)
    }

    /// An attempt found no route: it waits in the send buffer while a discovery runs (one entry
    /// per message: a retry replaces the attempt before it).
    mutating func routeMissing(
        workload w: Int, message m: Int, attempt number: Int, core: inout MeshCore, sim: inout Simulation
    ) {
        let spec = core.ledger.workloads[w]
        let key = ClassicDsr.orderedPair(spec.from, spec.to)
        // A retry replaces the message's earlier attempt in the buffer: it is sent once.
        waiting[key, default: []].removeAll { $0.w == w && $0.m == m }
        waiting[key, default: []].append((w, m, number))
        if discoveries[key] == nil { startDiscovery(from: spec.from, to: spec.to, retries: 0, core: &core, sim: &sim) }
    }

    /// A flow's IP packet waits for a route: discover one unless a discovery is under way.
    mutating func routeWanted(from: Int, to: Int, core: inout MeshCore, sim: inout Simulation) {
        let key = ClassicDsr.orderedPair(from, to)
        ipWaiting.insert(key)
        if discoveries[key] == nil { startDiscovery(from: from, to: to, retries: 0, core: &core, sim: &sim) }
    }

    /// On demand: a new session changes nothing until a route is needed.
    mutating func sessionsFormed(_ pairs: [(Int, Int)], core: inout MeshCore, sim: inout Simulation) {}

    mutating func startDiscovery(from: Int, to: Int, retries: Int, core: inout MeshCore, sim: inout Simulation) {
        discoveries[ClassicDsr.orderedPair(from, to)] = retries
        let id = nextSeq[from]
        nextSeq[from] += 1
        newestSeen[from * core.nodeCount + from] = id + 1
        var wait = core.config.requestPeriod
        for _ in 0..<retries where wait < core.config.maxRequestPeriod { wait = wait + wait }
        sim.schedule(
            after: min(wait, core.config.maxRequestPeriod), target: UInt32(from), kind: .meshRequestTimeout,
            arg: RequestRetry(sought: to, retries: retries).argument)
        core.send(
            MeshFrame(kind: .routeRequest, origin: from, seq: id, path: [from], target: to), from: from, now: sim.now)
    }

    /// A route request from `from` for `to` went unanswered: repeat it while messages wait.
    mutating func requestTimedOut(
        from: Int, to: Int, retries: Int, down: Bool, core: inout MeshCore, sim: inout Simulation
    ) {
        let key = ClassicDsr.orderedPair(from, to)
        guard discoveries[key] == retries else { return }
        let wanted = !waiting[key, default: []].isEmpty || ipWaiting.contains(key)
        if core.routes.route(from: from, to: to, at: sim.now) != nil || !wanted || down
            || retries >= core.config.requestRetries
        {
            discoveries[key] = nil
            if retries >= core.config.requestRetries || down {
                waiting[key] = nil
                ipWaiting.remove(key)
            }
            return
        }
        startDiscovery(from: from, to: to, retries: retries + 1, core: &core, sim: &sim)
    }

    mutating func controlArrived(_ f: MeshFrame, at r: Int, core: inout MeshCore, now: SimTime) {
        switch f.kind {
        case .routeRequest: requestArrived(f, at: r, core: &core, now: now)
        case .routeReply: replyArrived(f, core: &core, now: now)
        default: break
        }
    }

    mutating func requestArrived(_ f: MeshFrame, at r: Int, core: inout MeshCore, now: SimTime) {
        guard f.origin != r, !f.path.contains(r) else { return }
        let index = r * core.nodeCount + f.origin
        guard f.seq >= newestSeen[index] else { return }
        newestSeen[index] = f.seq + 1
        var accumulated = f.path
        accumulated.append(r)
        guard r == f.target else {
            var forward = f
            forward.path = accumulated
            core.send(forward, from: r, now: now)
            return
        }
        let back = Array(accumulated.reversed())
        core.setRoute(MeshRoute(path: back, learned: now), at: index, now: now)
        core.send(MeshFrame(kind: .routeReply, origin: r, seq: f.seq, path: back, target: f.origin), from: r, now: now)
    }

    /// A route reply reached the initiator: cache the route and send what waited for it.
    mutating func replyArrived(_ f: MeshFrame, core: inout MeshCore, now: SimTime) {
        let initiator = f.path[f.path.count - 1], target = f.path[0]
        let discovered = Array(f.path.reversed())
        core.setRoute(MeshRoute(path: discovered, learned: now), at: initiator * core.nodeCount + target, now: now)
        let key = ClassicDsr.orderedPair(initiator, target)
        discoveries[key] = nil
        ipWaiting.remove(key)
        let queued = waiting[key] ?? []
        waiting[key] = nil
        for q in queued where core.ledger.records[q.w][q.m].confirmed == nil {
            core.send(
                MeshFrame(
                    kind: .message, origin: initiator, seq: 0, path: discovered, workload: q.w, message: q.m,
                    attempt: q.number, sentAt: now), from: initiator, now: now)
        }
    }
}

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
///   source; every node it passes removes routes using the broken link.
///
/// Left out: replies from intermediate caches, non-propagating requests, packet salvaging,
/// gratuitous replies, flow state, and the link cache ns-3 uses by default. Messages carry the
/// same end-to-end route return as in MAdHoc so delivery and retries are measured alike.
extension MeshNetwork {
    static func orderedPair(_ from: Int, _ to: Int) -> UInt64 { UInt64(from) << 32 | UInt64(to) }

    /// An attempt found no route: it waits in the send buffer while a discovery runs (one entry
    /// per message: a retry replaces the attempt before it).
    mutating func awaitRoute(_ w: Int, _ m: Int, number: Int, sim: inout Simulation) {
        let spec = ledger.workloads[w]
        let key = MeshNetwork.orderedPair(spec.from, spec.to)
        // A retry replaces the message's earlier attempt in the buffer: it is sent once.
        waiting[key, default: []].removeAll { $0.w == w && $0.m == m }
        waiting[key, default: []].append((w, m, number))
        if discoveries[key] == nil { startDiscovery(from: spec.from, to: spec.to, retries: 0, sim: &sim) }
    }

    mutating func startDiscovery(from: Int, to: Int, retries: Int, sim: inout Simulation) {
        discoveries[MeshNetwork.orderedPair(from, to)] = retries
        let id = nextSeq[from]
        nextSeq[from] += 1
        newestSeen[from * nodeCount + from] = id + 1
        var wait = config.requestPeriod
        for _ in 0..<retries where wait < config.maxRequestPeriod { wait = wait + wait }
        sim.schedule(after: min(wait, config.maxRequestPeriod), target: UInt32(from), kind: .meshRequestTimeout,
                     arg: MeshNetwork.packArgument(to, retries))
        send(Frame(kind: .routeRequest, origin: from, seq: id, path: [from], target: to), from: from, now: sim.now)
    }

    /// A route request from `from` for `to` went unanswered: repeat it while messages wait.
    public mutating func requestTimedOut(from: Int, to: Int, retries: Int, down: Bool, sim: inout Simulation) {
        let key = MeshNetwork.orderedPair(from, to)
        guard discoveries[key] == retries else { return }
        if route(from: from, to: to, at: sim.now) != nil || waiting[key, default: []].isEmpty || down || retries >= config.requestRetries {
            discoveries[key] = nil
            if retries >= config.requestRetries || down { waiting[key] = nil }
            return
        }
        startDiscovery(from: from, to: to, retries: retries + 1, sim: &sim)
    }

    mutating func requestArrived(_ f: Frame, at r: Int, now: SimTime) {
        guard f.origin != r, !f.path.contains(r) else { return }
        let index = r * nodeCount + f.origin
        guard f.seq >= newestSeen[index] else { return }
        newestSeen[index] = f.seq + 1
        var accumulated = f.path
        accumulated.append(r)
        guard r == f.target else {
            var forward = f
            forward.path = accumulated
            send(forward, from: r, now: now)
            return
        }
        let back = Array(accumulated.reversed())
        setRoute(MeshRoute(path: back, learned: now), at: index, now: now)
        send(Frame(kind: .routeReply, origin: r, seq: f.seq, path: back, target: f.origin), from: r, now: now)
    }

    /// A route reply reached the initiator: cache the route and send what waited for it.
    mutating func replyArrived(_ f: Frame, now: SimTime) {
        let initiator = f.path[f.path.count - 1], target = f.path[0]
        let discovered = Array(f.path.reversed())
        setRoute(MeshRoute(path: discovered, learned: now), at: initiator * nodeCount + target, now: now)
        let key = MeshNetwork.orderedPair(initiator, target)
        discoveries[key] = nil
        let queued = waiting[key] ?? []
        waiting[key] = nil
        for q in queued where ledger.records[q.w][q.m].confirmed == nil {
            send(Frame(kind: .message, origin: initiator, seq: 0, path: discovered, workload: q.w, message: q.m, attempt: q.number, sentAt: now),
                 from: initiator, now: now)
        }
    }

    /// Node `i` could not pass `f` on to `next`: with classic DSR, it forgets the link and
    /// tells the frame's source.
    mutating func routeBroke(_ f: Frame, at i: Int, next: Int, now: SimTime) {
        guard config.routing == .dsr else { return }
        forgetLink((i, next), at: i)
        guard f.hop > 0 else { return }
        let back = Array(f.path[0...f.hop].reversed())
        routeErrors += 1
        send(Frame(kind: .routeError, origin: i, seq: 0, path: back, broken: (i, next)), from: i, now: now)
    }

    /// Removes node `r`'s cached routes that use the link `a`–`b` in either direction.
    mutating func forgetLink(_ link: (from: Int, to: Int), at r: Int) {
        for to in 0..<nodeCount {
            guard let path = routes[r * nodeCount + to]?.path else { continue }
            for k in 1..<path.count where (path[k - 1] == link.from && path[k] == link.to) || (path[k - 1] == link.to && path[k] == link.from) {
                routes[r * nodeCount + to] = nil
                break
            }
        }
    }
}

/// MAdHoc's DSR with heartbeats (mesh.md, seed 002): every node's heartbeat floods the mesh
/// carrying the path it travelled, and every receiver keeps the freshest short path per origin.
///
/// Rules, as MAdHoc's design states them and as built here:
/// - Every node broadcasts a heartbeat every `heartbeatInterval` (plus jitter) carrying the
///   path it has travelled, to its session peers only: the first when the app starts, and one
///   more whenever its session gains a peer (`heartbeatOnStart`, `heartbeatOnNewSession`).
/// - A receiver drops a heartbeat it has already seen (same origin, sequence not newer than
///   the newest it saw from that origin; seed 002, §7.3), or with `dropSeenHeartbeats` off
///   keeps a later copy whose path is shorter than its live route;
///   it also drops a new heartbeat whose path is longer than a route to the origin that was
///   refreshed within the last period ("already known by a faster path"). Otherwise it records
///   the path as its route to the origin, appends its own id and re-broadcasts.
/// - A route whose origin has not been heard for `routeTimeout` is gone.
struct HeartbeatRouting: MeshRoutingProtocol {
    /// Per (receiver, origin), flat: newest heartbeat sequence seen + 1 (0: none). Replaces a
    /// set of (origin, sequence) pairs: sequences only grow, so this is the same suppression
    /// in constant memory per pair.
    var newestSeen: PairTable<UInt64>
    /// Per node: the next heartbeat's sequence number.
    var nextSeq: [UInt64]
    var jitter: [RandomStream]
    /// With `keyPaths`: per (node, origin), flat key, the distinct paths (node first) by which
    /// the node heard the origin's heartbeats, at most `PathKeys.maxPathsPerPair`.
    var heard: [Int: [[Int]]] = [:]

    /// The protocol for `nodes` nodes; each node's jitter stream is `node:<i>/mesh/jitter`.
    init(nodes: Int, sim: borrowing Simulation) {
        newestSeen = PairTable(nodes: nodes, empty: 0)
        nextSeq = Array(repeating: 0, count: nodes)
        jitter = (0..<nodes).map { sim.randomStream(named: "node:\($0)/mesh/jitter") }
    }

    /// Every node's first heartbeat: when the app starts, within the jitter
    /// (`heartbeatOnStart`), else at a random offset within one period.
    mutating func start(core: MeshCore, sim: inout Simulation) {
        let config = core.config
        let spread = config.heartbeatOnStart ? config.heartbeatJitter : config.heartbeatInterval
        for i in 0..<core.nodeCount {
            let offset = SimTime(nanoseconds: Int64(jitter[i].uniform() * Double(spread.nanoseconds)))
            sim.schedule(at: offset, target: UInt32(i), kind: .meshHeartbeat)
        }
    }

    mutating func handle(_ event: Event, core: inout MeshCore, targetDown: Bool, sim: inout Simulation) {
        switch event.kind {
        case .meshHeartbeat: heartbeat(Int(event.target), core: &core, down: targetDown, sim: &sim)
        case .meshSessionHeartbeat: send(Int(event.target), core: &core, down: targetDown, now: sim.now)
        default: preconditionFailure("not a heartbeat event")
        }
    }

    /// With `heartbeatOnNewSession`: both ends of every new session send a heartbeat within
    /// the jitter (one per node however many sessions it gained).
    mutating func sessionsFormed(_ pairs: [(Int, Int)], core: inout MeshCore, sim: inout Simulation) {
        let config = core.config
        guard config.heartbeatOnNewSession else { return }
        var due: [Int] = []
        for (a, b) in pairs {
            if !due.contains(a) { due.append(a) }
            if !due.contains(b) { due.append(b) }
        }
        for i in due {
            let delay = SimTime(nanoseconds: Int64(jitter[i].uniform() * Double(config.heartbeatJitter.nanoseconds)))
            sim.schedule(after: delay, target: UInt32(i), kind: .meshSessionHeartbeat)
        }
    }

    /// Node `i` originates a heartbeat (when up and in a session) and schedules the next one.
    mutating func heartbeat(_ i: Int, core: inout MeshCore, down: Bool, sim: inout Simulation) {
        let config = core.config
        let jitterDelay = SimTime(nanoseconds: Int64(jitter[i].uniform() * Double(config.heartbeatJitter.nanoseconds)))
        sim.schedule(after: config.heartbeatInterval + jitterDelay, target: UInt32(i), kind: .meshHeartbeat)
        send(i, core: &core, down: down, now: sim.now)
    }

    /// Node `i` broadcasts a new heartbeat to its session peers (when up and in a session).
    mutating func send(_ i: Int, core: inout MeshCore, down: Bool, now: SimTime) {
        guard !down, !core.sessions.peers(of: i).isEmpty else { return }
        let seq = nextSeq[i]
        nextSeq[i] += 1
        core.send(MeshFrame(kind: .heartbeat, origin: i, seq: seq, path: [i]), from: i, now: now)
    }

    mutating func controlArrived(_ h: MeshFrame, at r: Int, core: inout MeshCore, now: SimTime) {
        guard h.kind == .heartbeat, h.origin != r, !h.path.contains(r) else { return }
        let index = r * core.nodeCount + h.origin
        // The route back is r, then the heartbeat's path reversed: `hops` links. It is built
        // only for a copy that is kept (most copies are duplicates and are dropped).
        let hops = h.path.count
        let config = core.config
        if config.keyPaths != nil { rememberPath([r] + h.path.reversed(), at: index) }
        let alive = core.routes.route(at: index, time: now)
        if h.seq < newestSeen[index] {
            // A heartbeat seen before is dropped (one more path to cache); with
            // `dropSeenHeartbeats` off a later copy counts if its path is shorter.
            guard !config.dropSeenHeartbeats, let a = alive, hops < a.hops else {
                if config.routeCache {
                    core.routes.rememberHeard(by: r, along: h.path, learned: now, at: index)
                }
                return
            }
        } else {
            newestSeen[index] = h.seq + 1
            // "Already known by a faster path" (mesh.md): a shorter route refreshed within the
            // last heartbeat period wins; one that missed a period is presumed broken, so the
            // longer path takes over at once instead of after the route timeout.
            if let a = alive, a.hops < hops,
                a.learned > now - config.heartbeatInterval - config.heartbeatJitter
            {
                if config.routeCache {
                    core.routes.rememberHeard(by: r, along: h.path, learned: now, at: index)
                }
                return
            }
        }
        core.setRoute(MeshRoute(path: [r] + h.path.reversed(), learned: now), at: index, now: now)
        var forward = h
        forward.path.append(r)
        core.send(forward, from: r, now: now)
    }

    /// Heartbeat routing is proactive: a message without a route waits for the next heartbeat
    /// (its confirmation timeout retries it).
    mutating func routeMissing(
        workload w: Int, message m: Int, attempt number: Int, core: inout MeshCore, sim: inout Simulation
    ) {}

    /// Proactive again: a flow's IP packet waits in its host's send buffer for a heartbeat.
    mutating func routeWanted(from: Int, to: Int, core: inout MeshCore, sim: inout Simulation) {}

    /// Remembers a path by which a heartbeat arrived (for the key report).
    mutating func rememberPath(_ path: [Int], at index: Int) {
        var list = heard[index] ?? []
        guard list.count < PathKeys.maxPathsPerPair, !list.contains(path) else { return }
        list.append(path)
        heard[index] = list
    }
}

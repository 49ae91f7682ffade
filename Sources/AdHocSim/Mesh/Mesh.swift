// Mesh layer: MAdHoc's routing over Multipeer-like neighbour sessions (seed 002, mesh.md).
//
// This folder owns neighbour sessions (discovery by signal strength, at most 8 peers in a
// session including the node itself, loss when the signal fades), the DSR-with-heartbeats
// route table (every node floods a heartbeat carrying the path it travelled; receivers keep
// the shortest path per origin, suppress duplicates by (origin, sequence) and drop routes
// whose heartbeats stop), and the queries tests and checks ask of it. It sends over the link
// layer as broadcasts heard only by session peers. Messages, classic DSR and path-derived
// keys are not built yet (issue #6).

extension EventKind {
    /// A node's heartbeat is due (target: node).
    public static let meshHeartbeat = EventKind(rawValue: 230)
    /// Sessions are re-evaluated (target: unused).
    public static let meshSessions = EventKind(rawValue: 231)
}

/// Mesh settings (mesh.md, radio.md; assumptions labelled).
public struct MeshConfig: Sendable, Equatable {
    /// Heartbeat period: 5 s (MAdHoc design, mesh.md).
    public var heartbeatInterval = SimTime.seconds(5)
    /// A route whose origin's heartbeat has not come for this long is dropped: 15 s, three
    /// heartbeat periods, so two lost heartbeats in a row are tolerated (the same allowance as
    /// AODV's hello loss of 2, peers.md; an assumption).
    public var routeTimeout = SimTime.seconds(15)
    /// Session size including the node itself: 8 (Multipeer Connectivity, radio.md).
    public var maxPeers = 8
    /// Signal needed to discover a peer: −65 dBm; a known peer is kept down to −70 dBm
    /// (AWDL, radio.md).
    public var discoverDbm = -65.0
    /// See `discoverDbm`.
    public var keepDbm = -70.0
    /// Sessions are re-evaluated every second (assumption: browsing and invitation take about
    /// that long).
    public var sessionInterval = SimTime.seconds(1)
    /// Heartbeats start with a random offset within one period, and each is delayed by up to
    /// 100 ms of jitter so neighbours do not transmit in lockstep (assumption; ns-3's DSR uses
    /// 0–10 ms of broadcast jitter).
    public var heartbeatJitter = SimTime.milliseconds(100)
    /// Heartbeat size: 32 bytes of header plus 8 bytes per node on the path (assumption).
    public func heartbeatBytes(pathLength: Int) -> Int32 { Int32(32 + 8 * pathLength) }

    /// Defaults.
    public init() {}
}

/// One node's known route: the path from the node to the destination (both included).
public struct MeshRoute: Sendable, Equatable {
    /// Node indices from here to the destination.
    public var path: [Int]
    /// When the heartbeat that taught it arrived.
    public var learned: SimTime
    /// Hops.
    public var hops: Int { path.count - 1 }
}

/// The DSR-with-heartbeats mesh of a run.
public struct HeartbeatMesh: Sendable {
    struct Heartbeat: Sendable {
        var origin: Int
        var seq: UInt64
        var path: [Int]     // origin first, the forwarder last
    }

    /// Settings.
    public let config: MeshConfig
    /// Session peers per node (sorted indices).
    public private(set) var peers: [[Int]]
    /// Routes per node, by destination.
    var routes: [[Int: MeshRoute]]
    var seen: [Set<UInt64>]
    var nextSeq: [UInt64]
    var inFlight: [Heartbeat?] = []
    var freeSlots: [Int] = []
    var jitter: [RandomStream]
    /// Heartbeats sent (originated and forwarded) and their bytes, per node.
    public private(set) var heartbeatsSent: [UInt64]
    /// See `heartbeatsSent`.
    public private(set) var heartbeatBytes: [UInt64]
    /// Packets to hand to the link layer; the world drains it.
    public var outbox: [LinkPacket] = []

    /// Tag bit of mesh packets (IP uses bit 63).
    public static let tagBit: UInt64 = 1 << 62

    /// A mesh over `nodes` nodes; schedules the first heartbeats and session round.
    public init(nodes: Int, config: MeshConfig, sim: inout Simulation) {
        self.config = config
        peers = Array(repeating: [], count: nodes)
        routes = Array(repeating: [:], count: nodes)
        seen = Array(repeating: [], count: nodes)
        nextSeq = Array(repeating: 0, count: nodes)
        heartbeatsSent = Array(repeating: 0, count: nodes)
        heartbeatBytes = Array(repeating: 0, count: nodes)
        jitter = (0..<nodes).map { sim.randomStream(named: "node:\($0)/mesh/jitter") }
        sim.schedule(at: .zero, target: 0, kind: .meshSessions)
        for i in 0..<nodes {
            let offset = SimTime(nanoseconds: Int64(jitter[i].uniform() * Double(config.heartbeatInterval.nanoseconds)))
            sim.schedule(at: offset, target: UInt32(i), kind: .meshHeartbeat)
        }
    }

    /// The route node `from` holds to `to` at `time` (expired routes are not returned).
    public func route(from: Int, to: Int, at time: SimTime) -> MeshRoute? {
        guard let r = routes[from][to], time - r.learned <= config.routeTimeout else { return nil }
        return r
    }

    // MARK: Sessions

    /// Re-evaluates every session (in node order, strongest candidates first): a session needs
    /// both ends up, the discovery threshold to form and the keep threshold to last, and room
    /// for both ends (at most `maxPeers − 1` peers each).
    public mutating func updateSessions(link: inout WirelessLink) {
        let n = peers.count
        // Drop faded or failed sessions.
        for i in 0..<n {
            peers[i] = peers[i].filter { j in
                !link.isDown(i) && !link.isDown(j) && link.medianRxDbm(from: j, to: i) >= config.keepDbm
            }
        }
        for i in 0..<n { peers[i] = peers[i].filter { peers[$0].contains(i) } }
        // Form new ones.
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
        seen[i].insert(HeartbeatMesh.key(origin: i, seq: seq))
        broadcast(Heartbeat(origin: i, seq: seq, path: [i]), from: i, now: sim.now)
    }

    static func key(origin: Int, seq: UInt64) -> UInt64 { UInt64(origin) << 40 | seq }

    mutating func broadcast(_ h: Heartbeat, from i: Int, now: SimTime) {
        let slot: Int
        if let f = freeSlots.popLast() { slot = f; inFlight[slot] = h } else { slot = inFlight.count; inFlight.append(h) }
        let bytes = config.heartbeatBytes(pathLength: h.path.count)
        heartbeatsSent[i] += 1
        heartbeatBytes[i] += UInt64(bytes)
        outbox.append(LinkPacket(source: UInt32(i), destination: LinkPacket.broadcast, bytes: bytes,
                                 tag: HeartbeatMesh.tagBit | UInt64(slot), enqueued: now))
    }

    /// A mesh packet reached node `r` (only session peers of the sender listen).
    public mutating func delivered(_ p: LinkPacket, at r: Int, now: SimTime, down: Bool) {
        let slot = Int(p.tag & ~HeartbeatMesh.tagBit)
        guard !down, let h = inFlight[slot], peers[r].contains(Int(p.source)) else { return }
        guard h.origin != r, !h.path.contains(r) else { return }
        let k = HeartbeatMesh.key(origin: h.origin, seq: h.seq)
        let path = [r] + h.path.reversed()
        let alive = route(from: r, to: h.origin, at: now)
        if seen[r].contains(k) {
            // A later copy of a heartbeat already handled counts only if its path is shorter.
            guard let a = alive, path.count - 1 < a.hops else { return }
        } else {
            seen[r].insert(k)
            // "Already known by a faster path" (mesh.md): a shorter route refreshed within the
            // last heartbeat period wins; one that missed a period is presumed broken, so the
            // longer path takes over at once instead of after the route timeout.
            if let a = alive, a.hops < path.count - 1, a.learned > now - config.heartbeatInterval - config.heartbeatJitter { return }
        }
        routes[r][h.origin] = MeshRoute(path: path, learned: now)
        broadcast(Heartbeat(origin: h.origin, seq: h.seq, path: h.path + [r]), from: r, now: now)
    }

    /// The link is done with a mesh packet.
    public mutating func released(_ p: LinkPacket) {
        let slot = Int(p.tag & ~HeartbeatMesh.tagBit)
        inFlight[slot] = nil
        freeSlots.append(slot)
    }
}

/// Who is in a session with whom: what the mesh's routing reads of the session layer below it
/// (Multipeer Connectivity's connected peers), and nothing else. Read-only, so a routing
/// protocol can be tested over a fixed table (`SignalSessions(fixed:)`).
public protocol NeighbourTable {
    /// Nodes.
    var nodeCount: Int { get }
    /// The session peers of `node`, sorted.
    func peers(of node: Int) -> [Int]
}

/// Neighbour sessions by signal strength (mesh.md; radio.md's AWDL thresholds): a session forms
/// when both ends are up, the median signal reaches the discovery threshold and both have room
/// (at most `maxPeers − 1` peers each); it ends once a peer has been down or below the keep
/// threshold for `peerTimeout`. Re-evaluated every `sessionInterval`, in node order, strongest
/// candidates first.
public struct SignalSessions: NeighbourTable, Sendable {
    /// Session peers per node (sorted indices).
    public private(set) var peers: [[Int]]
    var lostSince: [UInt64: SimTime] = [:]
    /// The sessions the last `update` formed, (lower, higher) node, in the order they formed.
    public private(set) var formed: [(Int, Int)] = []
    /// The sessions the last `update` ended, each once, in the order it ended them, with the
    /// side that had disconnected (`nil`: the peer failed or faded).
    public private(set) var ended: [(a: Int, b: Int, by: Int?)] = []
    /// Pairs one side of which called `MCSession.disconnect()`: when, and which side. The side
    /// that left sends nothing to the other and takes nothing from it; the other side sees
    /// the peer leave after the peer timeout. Looked up by key only.
    var departed: [UInt64: (since: SimTime, by: Int)] = [:]
    /// Whether the table is fixed (a test harness's) rather than re-evaluated from signals.
    public let fixed: Bool
    /// With `mesh.sessions`: per node, the peers its sessions were set up with. A member that
    /// fails or fades leaves like any peer; one that is back (up and at the keep threshold)
    /// rejoins at the next evaluation, as Multipeer reconnects a known peer.
    var groupPeers: [[Int]]?

    /// No sessions yet among `nodes` nodes.
    public init(nodes: Int) {
        peers = Array(repeating: [], count: nodes)
        fixed = false
    }

    /// Sessions fixed to `peers` (symmetric, sorted), never re-evaluated: for testing routing
    /// without a radio.
    public init(fixed peers: [[Int]]) {
        self.peers = peers.map { $0.sorted() }
        fixed = true
    }

    /// Sessions set up as `groups` (`mesh.sessions`): the members of each group are all each
    /// other's peers from the start, as an MCSession connects every peer to every other. No
    /// discovery forms others; a member that fails or fades leaves after the peer timeout and
    /// rejoins when it is back (`groupPeers`).
    public init(groups: [[Int]], nodes: Int) {
        var peers = Array(repeating: [Int](), count: nodes)
        for g in groups {
            for a in g { for b in g where b != a && !peers[a].contains(b) { peers[a].append(b) } }
        }
        self.peers = peers.map { $0.sorted() }
        fixed = false
        groupPeers = self.peers
    }

    /// Nodes.
    public var nodeCount: Int { peers.count }
    /// The session peers of `node`, sorted.
    public func peers(of node: Int) -> [Int] { peers[node] }

    /// Ends the session between `a` and `b` at once (as `MCSession.disconnect` does for one
    /// peer); the signal rule may form it again at the next evaluation.
    public mutating func disconnect(_ a: Int, _ b: Int) {
        peers[a].removeAll { $0 == b }
        peers[b].removeAll { $0 == a }
    }

    static func pairKey(_ a: Int, _ b: Int) -> UInt64 { UInt64(Swift.min(a, b)) << 32 | UInt64(Swift.max(a, b)) }

    /// Node `node`'s app called `MCSession.disconnect()` at `now`: it leaves every session.
    public mutating func depart(_ node: Int, now: SimTime) {
        for p in peers[node] { departed[SignalSessions.pairKey(node, p)] = (now, node) }
    }

    /// Whether `node` has left its session with `peer` (it called `disconnect`).
    @inline(__always) func hasLeft(_ node: Int, _ peer: Int) -> Bool {
        guard !departed.isEmpty, let d = departed[SignalSessions.pairKey(node, peer)] else { return false }
        return d.by == node
    }

    /// Whether `from` may send to `to` in a session: they are peers and `from` has not left.
    @inline(__always) func connected(_ from: Int, _ to: Int) -> Bool {
        peers[from].contains(to) && !hasLeft(from, to)
    }

    /// `a` and `b` join each other's session (a Multipeer set-up connected them).
    public mutating func connect(_ a: Int, _ b: Int) {
        if !departed.isEmpty { departed[SignalSessions.pairKey(a, b)] = nil }
        guard !peers[a].contains(b) else { return }
        peers[a].append(b)
        peers[a].sort()
        peers[b].append(a)
        peers[b].sort()
        lostSince[SignalSessions.pairKey(a, b)] = nil
    }

    /// Whether the session of `i` with `j` (pair `key`) lasts at `now`: a peer down, below the
    /// keep threshold or that disconnected (`left`, since then) stays for the peer timeout.
    static func keeps<L: LinkTechnology>(
        _ i: Int, _ j: Int, _ key: UInt64, lostSince: inout [UInt64: SimTime], left: SimTime?, link: inout L,
        config: SessionConfig, now: SimTime
    ) -> Bool {
        if let left { return now - left < config.peerTimeout }
        let lost = link.isDown(i) || link.isDown(j) || link.medianRxDbm(from: j, to: i) < config.keepDbm
        if !lost {
            lostSince[key] = nil
            return true
        }
        if let since = lostSince[key] { return now - since < config.peerTimeout }
        lostSince[key] = now
        return config.peerTimeout > .zero
    }

    /// Re-evaluates every session from what `link` says of signals and failures at `now`: a
    /// lost peer leaves after the peer timeout; with `"instant"` set-up new sessions form here
    /// too (with `"multipeer"` they form by `connect`).
    public mutating func update<L: LinkTechnology>(link: inout L, config: SessionConfig, now: SimTime) {
        formed.removeAll(keepingCapacity: true)
        ended.removeAll(keepingCapacity: true)
        guard !fixed else { return }
        let n = peers.count
        var endedKeys: [UInt64: Bool] = [:]
        for i in 0..<n {
            peers[i] = peers[i].filter { j in
                let key = SignalSessions.pairKey(i, j)
                let kept = SignalSessions.keeps(
                    i, j, key, lostSince: &lostSince, left: departed.isEmpty ? nil : departed[key]?.since, link: &link,
                    config: config, now: now)
                if !kept && endedKeys.updateValue(true, forKey: key) == nil {
                    var by: Int?
                    if let d = departed.removeValue(forKey: key) {
                        by = d.by
                        // A phone that left a fixed group does not rejoin it.
                        if groupPeers != nil {
                            groupPeers?[i].removeAll { $0 == j }
                            groupPeers?[j].removeAll { $0 == i }
                        }
                    }
                    ended.append((Swift.min(i, j), Swift.max(i, j), by))
                }
                return kept
            }
        }
        for i in 0..<n { peers[i] = peers[i].filter { peers[$0].contains(i) } }
        if let groupPeers {
            // Set-up groups: a member back in reach rejoins its session.
            for i in 0..<n where !link.isDown(i) {
                for j in groupPeers[i] where j > i && !peers[i].contains(j) && !link.isDown(j) {
                    guard link.medianRxDbm(from: j, to: i) >= config.keepDbm else { continue }
                    peers[i].append(j)
                    peers[j].append(i)
                    lostSince[SignalSessions.pairKey(i, j)] = nil
                    formed.append((i, j))
                }
            }
            for i in 0..<n { peers[i].sort() }
            return
        }
        guard config.sessionSetup == .instant else { return }
        var reaching: [(j: Int, dbm: Double)] = []
        for i in 0..<n where !link.isDown(i) {
            reaching.removeAll(keepingCapacity: true)
            link.forEachNeighbour(of: i, reachingDbm: config.discoverDbm) { reaching.append(($0, $1)) }
            var candidates: [(j: Int, dbm: Double)] = []
            for c in reaching where !link.isDown(c.j) && !peers[i].contains(c.j) { candidates.append(c) }
            candidates.sort { $0.dbm != $1.dbm ? $0.dbm > $1.dbm : $0.j < $1.j }
            let limit = config.neighbourLimit
            for c in candidates where peers[i].count < limit && peers[c.j].count < limit {
                peers[i].append(c.j)
                peers[c.j].append(i)
                lostSince[SignalSessions.pairKey(i, c.j)] = nil
                formed.append((Swift.min(i, c.j), Swift.max(i, c.j)))
            }
        }
        for i in 0..<n { peers[i].sort() }
    }
}

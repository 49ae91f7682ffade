/// Every node's routes, by `from · n + to` (a `PairTable`: flat up to 2 048 phones, sparse
/// above): the route in use per destination, and with
/// MAdHoc's route cache (seed 002: "stores an array of routes") the other paths heard lately,
/// at most one through each session peer other than the route's own first hop (the most a
/// heartbeat round can bring: one copy per peer). A route older than `timeout` is gone
/// (heartbeat DSR: its origin stopped being heard; classic DSR: the cache entry expired).
struct RouteTable: Sendable {
    /// Nodes.
    let nodeCount: Int
    /// How long a route lives after it was learned.
    let timeout: SimTime
    var routes: PairTable<MeshRoute?>
    /// Other paths per pair (flat index), freshest first; empty unless the cache is on. Read
    /// by key only, never iterated, so the dictionary's order reaches nothing.
    var alternates: [Int: [MeshRoute]] = [:]

    /// No routes among `nodes` nodes.
    init(nodes: Int, timeout: SimTime) {
        nodeCount = nodes
        self.timeout = timeout
        routes = PairTable(nodes: nodes, empty: nil)
    }

    /// The flat index of the pair (`from`, `to`).
    @inline(__always) func index(_ from: Int, _ to: Int) -> Int { from * nodeCount + to }

    /// The route `from` holds to `to` at `time` (expired routes are not returned).
    func route(from: Int, to: Int, at time: SimTime) -> MeshRoute? {
        route(at: index(from, to), time: time)
    }

    /// The live route at flat index `i`.
    @inline(__always) func route(at i: Int, time: SimTime) -> MeshRoute? {
        if let r = routes[i], time - r.learned <= timeout { return r }
        guard !alternates.isEmpty else { return nil }
        return cachedRoute(at: i, time: time)
    }

    /// With no live route in use: the best live cached path (fewest hops, then freshest).
    func cachedRoute(at i: Int, time: SimTime) -> MeshRoute? {
        var best: MeshRoute?
        for r in alternates[i] ?? [] where time - r.learned <= timeout {
            if let b = best, b.hops < r.hops || (b.hops == r.hops && b.learned >= r.learned) { continue }
            best = r
        }
        return best
    }

    /// Removes node `r`'s routes (and cached paths) that use the link `a`–`b` in either
    /// direction.
    mutating func forgetLink(_ link: (from: Int, to: Int), at r: Int) {
        func uses(_ path: [Int]) -> Bool {
            for k in 1..<path.count
            where (path[k - 1] == link.from && path[k] == link.to) || (path[k - 1] == link.to && path[k] == link.from) {
                return true
            }
            return false
        }
        for to in 0..<nodeCount {
            let i = index(r, to)
            if let path = routes[i]?.path, uses(path) { routes[i] = nil }
            if let list = alternates[i] {
                let kept = list.filter { !uses($0.path) }
                alternates[i] = kept.isEmpty ? nil : kept
            }
        }
    }

    /// Caches `route` as another path for pair `i` (one per first hop other than the route in
    /// use's, freshest kept).
    mutating func remember(_ route: MeshRoute, at i: Int) {
        guard route.path.count >= 2 else { return }
        let hop = route.path[1]
        if let r = routes[i], r.path.count >= 2, r.path[1] == hop { return }
        var list = alternates[i] ?? []
        list.removeAll { $0.path[1] == hop }
        list.insert(route, at: 0)
        alternates[i] = list
    }

    /// Caches the path node `r` heard a heartbeat along (`heard`, origin first, the forwarder
    /// last): the route `[r] + heard.reversed()`. The same path through the same first hop is
    /// usually heard again every period; then only its time is refreshed, in place, with no
    /// new array.
    mutating func rememberHeard(by r: Int, along heard: [Int], learned: SimTime, at i: Int) {
        guard let hop = heard.last else { return }
        if let used = routes[i], used.path.count >= 2, used.path[1] == hop { return }
        if let k = alternates[i]?.firstIndex(where: { $0.path[1] == hop }),
            alternates[i]?[k].path.count == heard.count + 1,
            alternates[i]?[k].path.dropFirst().elementsEqual(heard.reversed()) == true,
            var route = alternates[i]?.remove(at: k)
        {
            route.learned = learned
            alternates[i]?.insert(route, at: 0)
            return
        }
        remember(MeshRoute(path: [r] + heard.reversed(), learned: learned), at: i)
    }

    /// Pair `i`'s live routes at `time`: the one in use (if live) first, then the cached paths,
    /// fewest hops first, the fresher first among equals.
    func routes(at i: Int, time: SimTime) -> [MeshRoute] {
        var out: [MeshRoute] = []
        if let r = route(at: i, time: time) { out.append(r) }
        guard let list = alternates[i] else { return out }
        let live = list.filter { time - $0.learned <= timeout && $0.path != out.first?.path }
        out += live.sorted { $0.hops != $1.hops ? $0.hops < $1.hops : $0.learned > $1.learned }
        return out
    }

    /// Every node's live routes at `time`, source-major, destinations ascending: with a sparse
    /// table only the pairs that hold a route or a cached path are looked at.
    func allLive(at time: SimTime) -> [(from: Int, to: Int, path: [Int])] {
        var out: [(from: Int, to: Int, path: [Int])] = []
        if routes.isDense {
            for a in 0..<nodeCount { for r in table(of: a, at: time) { out.append((a, r.to, r.path)) } }
            return out
        }
        let pairs = Set(routes.indicesHoldingValues).union(alternates.keys).sorted()
        for i in pairs {
            let (a, b) = (i / nodeCount, i % nodeCount)
            if let r = route(at: i, time: time) { out.append((a, b, r.path)) }
        }
        return out
    }

    /// `node`'s live routes at `time`, by destination index.
    func table(of node: Int, at time: SimTime) -> [(to: Int, path: [Int])] {
        (0..<nodeCount).compactMap { b in route(from: node, to: b, at: time).map { (b, $0.path) } }
    }
}

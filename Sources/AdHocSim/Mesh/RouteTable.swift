/// Every node's routes, one per destination, flat: `routes[from · n + to]`. A route older than
/// `timeout` is gone (heartbeat DSR: its origin stopped being heard; classic DSR: the cache
/// entry expired).
struct RouteTable: Sendable {
    /// Nodes.
    let nodeCount: Int
    /// How long a route lives after it was learned.
    let timeout: SimTime
    var routes: [MeshRoute?]

    /// No routes among `nodes` nodes.
    init(nodes: Int, timeout: SimTime) {
        nodeCount = nodes
        self.timeout = timeout
        routes = Array(repeating: nil, count: nodes * nodes)
    }

    /// The flat index of the pair (`from`, `to`).
    @inline(__always) func index(_ from: Int, _ to: Int) -> Int { from * nodeCount + to }

    /// The route `from` holds to `to` at `time` (expired routes are not returned).
    func route(from: Int, to: Int, at time: SimTime) -> MeshRoute? {
        route(at: index(from, to), time: time)
    }

    /// The live route at flat index `i`.
    @inline(__always) func route(at i: Int, time: SimTime) -> MeshRoute? {
        guard let r = routes[i], time - r.learned <= timeout else { return nil }
        return r
    }

    /// Removes node `r`'s routes that use the link `a`–`b` in either direction.
    mutating func forgetLink(_ link: (from: Int, to: Int), at r: Int) {
        for to in 0..<nodeCount {
            guard let path = routes[index(r, to)]?.path else { continue }
            for k in 1..<path.count
            where (path[k - 1] == link.from && path[k] == link.to) || (path[k - 1] == link.to && path[k] == link.from) {
                routes[index(r, to)] = nil
                break
            }
        }
    }

    /// `node`'s live routes at `time`, by destination index.
    func table(of node: Int, at time: SimTime) -> [(to: Int, path: [Int])] {
        (0..<nodeCount).compactMap { b in route(from: node, to: b, at: time).map { (b, $0.path) } }
    }
}

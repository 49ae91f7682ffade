/// What IP asks of the layer that knows routes, so a flow can reach a node that is not its
/// radio neighbour: the mesh's source routes (`MeshNetwork`, over MAdHoc's heartbeats or classic
/// DSR). The hosts ask it and report to it; they never touch the mesh's tables. The hosts'
/// router is the run's optional layers (`Layers`): without a mesh it knows no routes.
///
/// IP over the mesh is source routed, as DSR carries IP (RFC 4728 §2): the sender looks up its
/// route once per datagram and every fragment carries it; a relay passes a packet on to the
/// next node of the route it carries, if that node is still in its session, and never looks
/// the route up again.
public protocol IpRouting {
    /// The route `from` holds to `to` at `now`, both included (`[from, …, to]`), or `nil`.
    func sourceRoute(from: Int, to: Int, at now: SimTime) -> [Int]?
    /// Whether node `a` can hand a packet to node `b` now: they are in a session.
    func canForward(from a: Int, to b: Int) -> Bool
    /// The bytes the mesh adds around an IP packet whose route has `pathNodes` nodes (its frame
    /// header and source route).
    func encapsulationBytes(pathNodes: Int) -> Int
    /// The longest route, in nodes, whose header the IP MTU over the mesh leaves room for.
    var maxPathNodes: Int { get }

    /// `datagram` found no route from `from` to `to` at `now`: the router holds it until it
    /// knows one (DSR's send buffer, RFC 4728 §4.1) and looks for one.
    mutating func awaitRoute(_ datagram: Datagram, from: UInt32, to: UInt32, now: SimTime)
    /// A datagram sent by `side` took `route` (for the router's per-flow counters).
    mutating func routeTaken(by side: FlowSide, route: [Int])
    /// A relay passed one of flow `flow`'s IP packets on.
    mutating func relayed(flow: Int32)
    /// The hop from `at` to `next` on `route` failed for one of flow `flow`'s IP packets (the
    /// next node left the session, or the link gave up on it; RFC 4728 §8.3).
    mutating func linkBroke(route: [Int], at: Int, next: Int, flow: Int32)
}

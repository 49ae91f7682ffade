/// What IP asks of the layer that knows routes, so a flow can reach a node that is not its
/// radio neighbour: the mesh's source routes (`MeshNetwork`, over MAdHoc's heartbeats or classic
/// DSR). The hosts read it; they never touch the mesh's tables. A scenario without a mesh passes
/// `nil` (`Optional<MeshNetwork>`), which knows no routes.
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
}

/// The mesh answers IP's route questions (`IpRouting`): a scenario's `mesh` (or `nil` when it
/// has none, which knows no routes) is what the hosts read to send a flow across the mesh.
extension Optional: IpRouting where Wrapped == MeshNetwork {
    /// The mesh's route, or none without a mesh.
    public func sourceRoute(from: Int, to: Int, at now: SimTime) -> [Int]? {
        self?.route(from: from, to: to, at: now)?.path
    }
    /// Whether the two are session peers (never without a mesh).
    public func canForward(from a: Int, to b: Int) -> Bool {
        guard let mesh = self else { return false }
        return mesh.core.sessions.peers[a].contains(b)
    }
    /// The mesh's frame header and source route (0 without a mesh).
    public func encapsulationBytes(pathNodes: Int) -> Int {
        self.map { Int($0.config.messageBytes(pathLength: pathNodes, payload: 0)) } ?? 0
    }
    /// The mesh's limit (0 without a mesh).
    public var maxPathNodes: Int { self?.config.maxIpPathNodes ?? 0 }
}

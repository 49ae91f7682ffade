/// IP across the mesh, the hosts' side: relays pass a packet on along the source route it
/// carries, and datagrams waiting for a route go once the mesh has learned one. The mesh is read
/// through `IpRouting` only; what the mesh must act on (route requests, broken links) is left in
/// `MeshCarriage` for the world to hand over.
extension HostStack {
    /// A packet carrying a source route reached relay `node`: it goes on to `next` through
    /// the relay's own transmit queue and radio, as MAdHoc's relays forward a message (with its
    /// interface-queue delay counted at the relay). A next hop that has left the relay's session,
    /// or a full transmit queue, loses it.
    mutating func forward<L: LinkTechnology, R: IpRouting>(
        _ packet: LinkPacket, at node: UInt32, to next: Int, route: [Int], link: inout L, router: inout R,
        sim: inout Simulation
    ) {
        let flow = ip.fragment(packet.tag).datagram.flow
        guard router.canForward(from: Int(node), to: next) else {
            meshCarriage.linkBroke(route: route, at: Int(node), next: next, flow: flow)
            ip.dropped(tag: packet.tag)
            return
        }
        var p = packet
        p.source = node
        p.destination = UInt32(next)
        p.enqueued = sim.now
        meshCarriage.relayedPacket(flow: flow)
        if trace != nil { recordTrace(p, at: node, now: sim.now) }
        if link.send(p, sim: &sim) { interface.enqueued(Int(node)) } else { ip.dropped(tag: p.tag) }
    }

    /// The mesh has learned `routesLearned` routes so far: datagrams waiting in the send buffer
    /// whose sender now holds a route are sent, in the order they began to wait.
    public mutating func routesLearned<L: LinkTechnology, R: IpRouting>(
        _ routesLearned: UInt64, link: inout L, router: inout R, sim: inout Simulation
    ) {
        guard meshCarriage.hasWaiting else { return }
        for w in meshCarriage.takeRetries(routesLearned: routesLearned, now: sim.now) {
            if let r = router.sourceRoute(from: Int(w.from), to: Int(w.to), at: sim.now), r.count <= router.maxPathNodes
            {
                sendDown(w.datagram, from: w.from, to: w.to, link: &link, router: &router, sim: &sim)
            } else {
                meshCarriage.keep(w)
            }
        }
    }

    /// Takes what the mesh must act on: routes asked for, and links found broken.
    public mutating func takeMeshReports() -> (
        wanted: [(from: Int, to: Int)], broken: [(route: [Int], at: Int, next: Int)]
    ) {
        meshCarriage.takeReports()
    }

    /// Whether the mesh has something to act on.
    public var hasMeshReports: Bool { meshCarriage.hasReports }
}

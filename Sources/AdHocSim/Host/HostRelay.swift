/// IP relaying across the mesh, the hosts' side: a relay passes a packet on along the source
/// route it carries. The mesh is reached through `IpRouting` only: whether the next node is
/// still a session peer is asked of it, and a relayed packet and a broken hop are reported to it.
extension HostStack {
    /// A packet carrying a source route reached relay `node`: it goes on to `next` through
    /// the relay's own transmit queue and radio, as MAdHoc's relays forward a message (with its
    /// interface-queue delay counted at the relay). A next hop that has left the relay's session,
    /// or a full transmit queue, loses it.
    mutating func forward<L: LinkTechnology, R: IpRouting>(
        _ packet: LinkPacket, at node: UInt32, to next: Int, route: [Int], link: inout L, router: inout R,
        sim: inout Simulation
    ) {
        let flow = ip.flow(tag: packet.tag)
        guard router.canForward(from: Int(node), to: next) else {
            router.linkBroke(route: route, at: Int(node), next: next, flow: flow)
            ip.dropped(tag: packet.tag)
            return
        }
        var p = packet
        p.source = node
        p.destination = UInt32(next)
        p.enqueued = sim.now
        router.relayed(flow: flow)
        if trace != nil { recordTrace(p, at: node, now: sim.now) }
        if link.send(p, sim: &sim) { interface.enqueued(Int(node)) } else { ip.dropped(tag: p.tag) }
    }
}

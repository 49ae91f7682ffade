/// The receive path of the hosts: a complete datagram reaches its socket, the socket says what
/// arrived in transport-neutral terms (`Arrival`), and the flow's application reacts
/// (`FlowApplication.serverReceived`, `.clientReceived`) through the side's `ConnectionQueue`.
/// Written once for every transport (`SocketOp`): connection state and stream reassembly are
/// the socket's (`FlowSocket.deliver`), and what the host does afterwards depends only on
/// whether the socket sends datagrams and whether it closes when written.
extension HostStack {
    /// A complete datagram reached its destination host (the host's way up): the socket takes
    /// it, a client whose connection it established is opened, and the application reads what
    /// arrived. Then a client that sends a stream (TCP, QUIC) submits its next write, and closes
    /// once every write is acknowledged where its transport does (TCP); a server answers (its
    /// served sends are released) and, on a connection, the flow's report is frozen once the
    /// transfer is complete. A datagram that means nothing to a UDP server is dropped there.
    mutating func deliverUp<L: LinkTechnology, R: IpRouting>(
        _ d: Datagram, link: inout L, router: inout R, sim: inout Simulation
    ) {
        let receiver = FlowSide.sender(of: d).peer
        let k = receiver.flow
        // The user-space stack processes the packet on the connection's queue first.
        queues[receiver.index].processPacket(at: sim.now)
        let (arrival, opened) = apply(SocketOp.Deliver(datagram: d), to: receiver, sim: &sim)
        let datagrams = sockets.isDatagram(receiver)
        if receiver.isClient {
            if opened { self.opened(k, link: &link, router: &router, sim: &sim) }
            if let arrival { apply(SocketOp.Receive(arrival: arrival, isClient: true), to: receiver, sim: &sim) }
            if datagrams { return }
            pump(k, link: &link, router: &router, sim: &sim)
            if apply(SocketOp.CloseWhenWritten(), to: receiver, sim: &sim) {
                flush(receiver, link: &link, router: &router, sim: &sim)
            }
        } else {
            if let arrival {
                apply(SocketOp.Receive(arrival: arrival, isClient: false), to: receiver, sim: &sim)
            } else if datagrams {
                return
            }
            release(receiver, link: &link, router: &router, sim: &sim)
            if !datagrams { snapshotIfComplete(k) }
        }
    }
}

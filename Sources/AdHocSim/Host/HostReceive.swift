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
        let k = receiver.flow, s = receiver.index
        // The user-space stack processes the packet on the connection's queue first.
        queues[s].processPacket(at: sim.now)
        if sockets.isDatagram(receiver) {
            deliverDatagram(d, to: receiver, link: &link, router: &router, sim: &sim)
            return
        }
        // A stream socket: delivery, the application's reads, its next write (a client's) and
        // the served sends, up to the outbox, in one call on the socket (`StreamReceives`).
        var op = SocketOp.StreamReceives(datagram: d, isClient: receiver.isClient, scratch: [])
        swap(&op.scratch, &outboxScratch)  // moved in and out, without a copy of the array
        if hasRounds { checkOut(s) }
        sockets.with(receiver, &op, app: &flows[k].app, queue: &queues[s], sim: &sim)
        if hasRounds { checkIn(s) }
        swap(&outboxScratch, &op.scratch)
        if op.opened {
            // The client's connection was established by this datagram: it opens before the
            // application reads, then the client writes (`pump`).
            opened(k, link: &link, router: &router, sim: &sim)
            if let arrival = op.arrival {
                apply(SocketOp.Receive(arrival: arrival, isClient: true), to: receiver, sim: &sim)
            }
            pump(k, link: &link, router: &router, sim: &sim)
        } else {
            // The rest of `release` (`flush`'s backlog, the wake for the next served send).
            backlogOutbox(receiver, link: &link, router: &router, sim: &sim)
            wakeForNextSend(s, sim: &sim)
            if hasRounds && receiver.isClient { startNextInTurn(after: k, sim: &sim) }
        }
        if receiver.isClient {
            if flows[k].app.finishedWriting && apply(SocketOp.CloseWhenWritten(), to: receiver, sim: &sim) {
                flush(receiver, link: &link, router: &router, sim: &sim)
            }
        } else {
            snapshotIfComplete(k)
        }
    }

    /// `deliverUp` for a datagram socket (UDP): a client reads what arrived; a server reads it
    /// and answers, and drops a datagram that means nothing to it.
    mutating func deliverDatagram<L: LinkTechnology, R: IpRouting>(
        _ d: Datagram, to receiver: FlowSide, link: inout L, router: inout R, sim: inout Simulation
    ) {
        let (arrival, opened) = apply(SocketOp.Deliver(datagram: d), to: receiver, sim: &sim)
        if receiver.isClient {
            if opened { self.opened(receiver.flow, link: &link, router: &router, sim: &sim) }
            if let arrival { apply(SocketOp.Receive(arrival: arrival, isClient: true), to: receiver, sim: &sim) }
            return
        }
        guard let arrival else { return }
        apply(SocketOp.Receive(arrival: arrival, isClient: false), to: receiver, sim: &sim)
        release(receiver, link: &link, router: &router, sim: &sim)
    }
}

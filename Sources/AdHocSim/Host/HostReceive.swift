/// The receive path of the hosts: a complete datagram reaches its socket, the socket says what
/// arrived in transport-neutral terms (`Arrival`), and the flow's application reacts
/// (`FlowApplication.serverReceived`, `.clientReceived`) through the side's `ConnectionQueue`.
/// What stays here per transport is only the socket's side: connection state, stream
/// reassembly, and what the host does afterwards (release served sends, flush the outbox, close
/// a finished TCP connection).
extension HostStack {
    /// A complete datagram reached its destination host (the host's way up).
    mutating func deliverUp<L: LinkTechnology, R: IpRouting>(
        _ d: Datagram, link: inout L, router: R, sim: inout Simulation
    ) {
        // The user-space stack processes the packet on the connection's queue first.
        queues[FlowSide.sender(of: d).peer.index].processPacket(at: sim.now)
        switch d.kind {
        case .quic: deliverQuic(d, link: &link, router: router, sim: &sim)
        case .udp: deliverUdp(d, link: &link, router: router, sim: &sim)
        case .tcp: deliverTcp(d, link: &link, router: router, sim: &sim)
        }
    }

    mutating func deliverUdp<L: LinkTechnology, R: IpRouting>(
        _ d: Datagram, link: inout L, router: R, sim: inout Simulation
    ) {
        let k = Int(d.flow)
        let receiver = FlowSide.sender(of: d).peer
        let i = slot(receiver)
        guard let arrival = udp[i].arrival(of: d) else { return }
        if receiver.isClient {
            flows[k].app.clientReceived(arrival, &queues[receiver.index], &udp[i], now: sim.now)
        } else {
            flows[k].app.serverReceived(arrival, &queues[receiver.index], &udp[i], now: sim.now)
            release(receiver, link: &link, router: router, sim: &sim)
        }
    }

    mutating func deliverTcp<L: LinkTechnology, R: IpRouting>(
        _ d: Datagram, link: inout L, router: R, sim: inout Simulation
    ) {
        let k = Int(d.flow)
        if d.fromClient {
            let server = slot(.server(k))
            tcp[server].receive(d, sim: &sim)
            flows[k].app.serverReceived(
                .stream(upTo: tcp[server].rcvNxt), &queues[FlowSide.server(k).index], &tcp[server], now: sim.now)
            release(.server(k), link: &link, router: router, sim: &sim)
            snapshotIfComplete(k)
        } else {
            let client = slot(.client(k))
            let wasOpen = tcp[client].acceptsWrites
            tcp[client].receive(d, sim: &sim)
            if !wasOpen && tcp[client].acceptsWrites { opened(k, link: &link, router: router, sim: &sim) }
            flows[k].app.clientReceived(
                .stream(upTo: tcp[client].rcvNxt), &queues[FlowSide.client(k).index], &tcp[client], now: sim.now)
            pump(k, link: &link, router: router, sim: &sim)
            // The test is over once every write is acknowledged: close (thesis and bulk runs).
            if flows[k].app.finishedWriting {
                tcp[client].close(sim: &sim)
                flush(.client(k), link: &link, router: router, sim: &sim)
            }
        }
    }

    mutating func deliverQuic<L: LinkTechnology, R: IpRouting>(
        _ d: Datagram, link: inout L, router: R, sim: inout Simulation
    ) {
        let k = Int(d.flow)
        let (client, server) = (slot(.client(k)), slot(.server(k)))
        let perWrite = quic[client].config.streamPerWrite
        if d.fromClient {
            if let (stream, offset, length) = quic[server].receive(d, sim: &sim) {
                let before = quic[server].streams[stream]?.contiguous ?? 0
                let upTo = quic[server].deliverStream(stream, offset: offset, length: length)
                let arrival: Arrival =
                    perWrite ? .message(index: Int(stream / 4), before: before, upTo: upTo) : .stream(upTo: upTo)
                flows[k].app.serverReceived(arrival, &queues[FlowSide.server(k).index], &quic[server], now: sim.now)
            }
            release(.server(k), link: &link, router: router, sim: &sim)
            snapshotIfComplete(k)
        } else {
            let wasEstablished = quic[client].state == .established
            let carried = quic[client].receive(d, sim: &sim)
            if !wasEstablished && quic[client].state == .established {
                opened(k, link: &link, router: router, sim: &sim)
            }
            if let (stream, offset, length) = carried {
                let upTo = quic[client].deliverStream(stream, offset: offset, length: length)
                let arrival: Arrival =
                    perWrite ? .message(index: Int(stream / 4), before: 0, upTo: upTo) : .stream(upTo: upTo)
                flows[k].app.clientReceived(arrival, &queues[FlowSide.client(k).index], &quic[client], now: sim.now)
            }
            pump(k, link: &link, router: router, sim: &sim)
        }
    }
}

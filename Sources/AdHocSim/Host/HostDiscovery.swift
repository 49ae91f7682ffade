/// The apps' Bonjour discovery before a flow connects (`AppDiscovery`): the server's listener
/// probes and announces, the client's browser queries, and the client connects when an answer
/// arrives. The frames go over the link (`LinkProtocol.bonjour`): broadcasts on a radio, to the
/// peer on the ideal link, which has no broadcast.
extension HostStack {
    /// Flow `k`'s client opens its connection (at `start`, or when discovery found the server).
    mutating func connect<L: LinkTechnology, R: IpRouting>(
        _ k: Int, link: inout L, router: inout R, sim: inout Simulation
    ) {
        flows[k].app.start(now: sim.now)
        // UDP takes writes at once, QUIC with 0-RTT before its handshake ends.
        if apply(SocketOp.Connect(), to: .client(k), sim: &sim) {
            opened(k, link: &link, router: &router, sim: &sim)
        }
        flush(.client(k), link: &link, router: &router, sim: &sim)
        if case .cbr(let rate, let size) = flows[k].app.spec.workload {
            let interval = SimTime.seconds(Double(size) * 8 / (rate * 1e6))
            sim.schedule(after: interval, target: UInt32(k), kind: .cbrTick, arg: UInt64(interval.nanoseconds))
        }
    }

    /// A uniform draw from flow `k`'s discovery stream (`flow:k/bonjour`; only discovering
    /// flows have one).
    mutating func bonjourDraw(_ k: Int) -> Double { flows[k].bonjourDelays?.uniform() ?? 0 }

    /// The apps start: the listener's first probe after 0–250 ms (RFC 6762 §8.1), the browser's
    /// first query after 20–120 ms (§5.2).
    mutating func startDiscovery(_ k: Int, sim: inout Simulation) {
        let probe = MulticastDns.probeDelay(bonjourDraw(k)), query = MulticastDns.responseDelay(bonjourDraw(k))
        sim.schedule(after: probe, target: UInt32(k), kind: .discoveryStep, arg: AppDiscovery.Step.probe0.rawValue)
        sim.schedule(after: query, target: UInt32(k), kind: .discoveryStep, arg: AppDiscovery.Step.query.rawValue)
    }

    /// One step of flow `k`'s discovery (`AppDiscovery.Step`).
    mutating func discoveryStep<L: LinkTechnology>(_ k: Int, _ arg: UInt64, link: inout L, sim: inout Simulation) {
        guard var d = flows[k].discovery, let step = AppDiscovery.Step(rawValue: arg) else { return }
        let server = flows[k].serverNode, client = flows[k].clientNode
        var send: (from: UInt32, to: UInt32, frame: AppDiscovery.Frame)?
        var next: (after: SimTime, step: AppDiscovery.Step)?
        switch step {
        case .probe0, .probe1, .probe2:
            if step == .probe0 { d.firstProbe = sim.now }
            send = (server, client, .query)
            let after: AppDiscovery.Step = step == .probe0 ? .probe1 : (step == .probe1 ? .probe2 : .announce0)
            next = (MulticastDns.probeSpacing, after)
        case .announce0, .announce1:
            if step == .announce0 {
                d.announced = sim.now
                next = (MulticastDns.announceSpacing, .announce1)
            }
            d.answers += 1
            send = (server, client, .answer)
        case .query:
            guard d.found == nil else { break }
            d.queries += 1
            send = (client, server, .query)
            next = (d.nextQueryWait(), .query)
        case .answer:
            d.answers += 1
            send = (server, client, .answer)
        }
        flows[k].discovery = d
        if let next {
            sim.schedule(after: next.after, target: UInt32(k), kind: .discoveryStep, arg: next.step.rawValue)
        }
        if let send {
            let packet = LinkPacket(
                source: send.from, destination: L.hasRadio ? LinkPacket.broadcast : send.to,
                bytes: send.frame.bytes, owner: .bonjour, tag: AppDiscovery.tag(flow: k, send.frame), enqueued: sim.now)
            _ = link.send(packet, sim: &sim)
        }
    }

    /// A Bonjour frame arrived: the listener answers a query once it may use its records (after
    /// 20–120 ms, §6); the browser's first answer is the service found, and the client connects.
    mutating func bonjourNotice<L: LinkTechnology, R: IpRouting>(
        _ n: LinkNotice, link: inout L, router: inout R, sim: inout Simulation
    ) {
        guard n.kind == .delivered else { return }
        let (k, frame) = AppDiscovery.untag(n.packet.tag)
        guard k < flows.count, let d = flows[k].discovery else { return }
        switch frame {
        case .query:
            guard n.node == flows[k].serverNode, n.packet.source == flows[k].clientNode, d.announced != nil else {
                return
            }
            sim.schedule(
                after: MulticastDns.responseDelay(bonjourDraw(k)), target: UInt32(k), kind: .discoveryStep,
                arg: AppDiscovery.Step.answer.rawValue)
        case .answer:
            guard n.node == flows[k].clientNode, d.found == nil else { return }
            flows[k].discovery?.found = sim.now
            connect(k, link: &link, router: &router, sim: &sim)
        }
    }
}

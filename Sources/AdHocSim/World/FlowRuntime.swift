/// A flow while it runs: its application and, for TCP, its two endpoints.
public struct FlowRuntime: Sendable {
    /// The application (and what it measured).
    public var app: FlowApplication
    /// TCP client endpoint.
    public var client: TcpEndpoint?
    /// TCP server endpoint.
    public var server: TcpEndpoint?
    /// Client and server nodes.
    public let clientNode: UInt32, serverNode: UInt32
    /// The transport.
    public let transport: TransportProtocol
    /// Server: stream bytes consumed so far (TCP).
    var serverConsumed: Int64 = 0
    /// Client: echo bytes consumed so far (TCP).
    var clientConsumed: Int64 = 0
}

extension World {
    /// The link MTU of a technology: AWDL 1484 bytes (radio.md), 1500 otherwise.
    static func mtu(_ t: RadioTechnology) -> Int { t == .awdl ? 1484 : 1500 }

    /// Builds the flows of `scenario` and schedules their starts.
    static func makeFlows(_ scenario: Scenario, ip: IpLayer, sim: inout Simulation) -> [FlowRuntime] {
        let config = TcpConfig(scenario.transport)
        var flows: [FlowRuntime] = []
        for (k, spec) in scenario.flows.enumerated() {
            var f = FlowRuntime(app: FlowApplication(spec: spec, index: k), clientNode: UInt32(spec.from),
                                serverNode: UInt32(spec.to), transport: spec.transport)
            if spec.transport == .tcp {
                f.client = TcpEndpoint(flow: Int32(k), isClient: true, config: config, mtuPayload: ip.maxUnfragmented, sim: &sim, side: UInt32(2 * k))
                f.server = TcpEndpoint(flow: Int32(k), isClient: false, config: config, mtuPayload: ip.maxUnfragmented, sim: &sim, side: UInt32(2 * k + 1))
                f.server!.listen()
            }
            flows.append(f)
            sim.schedule(at: spec.start, target: UInt32(k), kind: .flowStart)
        }
        return flows
    }

    // MARK: Events

    mutating func handleFlowEvent(_ event: Event, sim: inout Simulation) {
        switch event.kind {
        case .flowStart:
            let k = Int(event.target)
            flows[k].app.start(now: sim.now)
            if flows[k].transport == .tcp {
                flows[k].client!.connect(sim: &sim)
                flushTcp(k, client: true, sim: &sim)
            } else {
                sendProbesUdp(k, sim: &sim)
            }
            if case .cbr(let rate, let size) = flows[k].app.spec.workload {
                let interval = SimTime.seconds(Double(size) * 8 / (rate * 1e6))
                sim.schedule(after: interval, target: UInt32(k), kind: .cbrTick, arg: UInt64(interval.nanoseconds))
            }
        case .probeTimeout:
            let k = Int(event.target)
            if !flows[k].app.transferring { flows[k].app.beginTransfer(); pump(k, sim: &sim) }
        case .cbrTick:
            let k = Int(event.target)
            flows[k].app.cbrDue()
            pump(k, sim: &sim)
            sim.schedule(after: .nanoseconds(Int64(event.arg)), target: event.target, kind: .cbrTick, arg: event.arg)
        case .tcpRetransmit, .tcpDelayedAck:
            let k = Int(event.target) / 2
            let isClient = event.target % 2 == 0
            if isClient { flows[k].client!.timer(event.kind, sim: &sim) } else { flows[k].server!.timer(event.kind, sim: &sim) }
            flushTcp(k, client: isClient, sim: &sim)
        default:
            preconditionFailure("not a flow event")
        }
    }

    // MARK: Sending

    /// Hands one datagram to IP and the link. Returns false if the link refused a fragment.
    mutating func sendDatagram(_ d: Datagram, from: UInt32, to: UInt32, sim: inout Simulation) {
        var packets = linkScratch
        linkScratch = []
        packets.removeAll(keepingCapacity: true)
        ip.send(d, from: from, to: to, now: sim.now, into: &packets)
        for p in packets where !send(p, sim: &sim) { ip.dropped(tag: p.tag) }
        linkScratch = packets
    }

    mutating func flushTcp(_ k: Int, client: Bool, sim: inout Simulation) {
        var out: [Datagram]
        if client {
            out = flows[k].client!.outbox
            flows[k].client!.outbox = []
        } else {
            out = flows[k].server!.outbox
            flows[k].server!.outbox = []
        }
        let (from, to) = client ? (flows[k].clientNode, flows[k].serverNode) : (flows[k].serverNode, flows[k].clientNode)
        for d in out { sendDatagram(d, from: from, to: to, sim: &sim) }
        out.removeAll(keepingCapacity: true)
        if client { flows[k].client!.outbox = out } else { flows[k].server!.outbox = out }
    }

    /// Free transmit-queue room at `node`, in packets.
    func linkRoom(_ node: UInt32) -> Int {
        if let w = wireless { return w.mac.queueLimit - w.queueLength(of: Int(node)) }
        return ideal!.queueRoom(of: Int(node))
    }

    mutating func sendProbesUdp(_ k: Int, sim: inout Simulation) {
        let p = flows[k].app.probes
        for _ in 0..<p {
            var d = Datagram(flow: Int32(k), fromClient: true, kind: .udp)
            d.header = 8
            d.payload = Int32(FlowApplication.probeBytes)
            d.message = Int32(flows[k].app.probeSent.count)
            d.flags = 1
            flows[k].app.probeWritten(now: sim.now)
            sendDatagram(d, from: flows[k].clientNode, to: flows[k].serverNode, sim: &sim)
        }
        if p == 0 {
            flows[k].app.beginTransfer()
            pump(k, sim: &sim)
        } else {
            sim.schedule(after: FlowApplication.probeWait, target: UInt32(k), kind: .probeTimeout)
        }
    }

    /// Makes every write the transport can take now.
    mutating func pump(_ k: Int, sim: inout Simulation) {
        while flows[k].app.wantsWrite {
            let bytes = flows[k].app.nextWriteBytes
            if flows[k].transport == .tcp {
                guard flows[k].client!.state == .established, flows[k].client!.sendBufferSpace >= bytes else { break }
                flows[k].client!.write(bytes, sim: &sim)
                flows[k].app.wrote(bytes, now: sim.now, datagram: false)
            } else {
                let transportBytes = Int(bytes) + 8
                guard Int(bytes) <= udpLimit else {
                    flows[k].app.failure = "datagram-too-large (\(bytes) > transport.maxDatagramBytes \(udpLimit))"
                    break
                }
                guard linkRoom(flows[k].clientNode) >= ip.packetSizes(transportBytes: transportBytes).count else { break }
                var d = Datagram(flow: Int32(k), fromClient: true, kind: .udp)
                d.header = 8
                d.payload = Int32(bytes)
                sendDatagram(d, from: flows[k].clientNode, to: flows[k].serverNode, sim: &sim)
                flows[k].app.wrote(bytes, now: sim.now, datagram: true)
            }
        }
        if flows[k].transport == .tcp { flushTcp(k, client: true, sim: &sim) }
    }

    // MARK: Receiving

    /// A complete datagram reached its destination.
    mutating func deliver(_ d: Datagram, sim: inout Simulation) {
        let k = Int(d.flow)
        if d.kind == .udp {
            if d.fromClient {
                if d.flags == 1 {
                    var echo = d
                    echo.fromClient = false
                    echo.flags = 2
                    sendDatagram(echo, from: flows[k].serverNode, to: flows[k].clientNode, sim: &sim)
                } else {
                    flows[k].app.delivered(Int64(d.payload), now: sim.now, datagram: true)
                }
            } else if d.flags == 2 {
                if flows[k].app.echoArrived(Int(d.message), now: sim.now) && !flows[k].app.transferring {
                    flows[k].app.beginTransfer()
                    pump(k, sim: &sim)
                }
            }
            return
        }
        let probeStream = Int64(flows[k].app.probes * FlowApplication.probeBytes)
        if d.fromClient {
            let wasEstablished = flows[k].server!.state == .established
            flows[k].server!.receive(d, sim: &sim)
            _ = wasEstablished
            // Server application: echo every completed probe, then sink the data.
            let upTo = flows[k].server!.rcvNxt
            if upTo > flows[k].serverConsumed {
                var consumed = flows[k].serverConsumed
                while flows[k].app.serverEchoes < flows[k].app.probes
                        && upTo >= Int64(flows[k].app.serverEchoes + 1) * Int64(FlowApplication.probeBytes) {
                    flows[k].server!.write(Int64(FlowApplication.probeBytes), sim: &sim)
                    flows[k].app.serverEchoed()
                }
                if upTo > probeStream {
                    let newData = upTo - Swift.max(consumed, probeStream)
                    if newData > 0 { flows[k].app.delivered(newData, now: sim.now, datagram: false) }
                }
                consumed = upTo
                flows[k].serverConsumed = consumed
            }
            flushTcp(k, client: false, sim: &sim)
        } else {
            let wasEstablished = flows[k].client!.state == .established
            flows[k].client!.receive(d, sim: &sim)
            if !wasEstablished && flows[k].client!.state == .established {
                // Connected: write the probes back to back, or go straight to the transfer.
                for _ in 0..<flows[k].app.probes {
                    flows[k].app.probeWritten(now: sim.now)
                    flows[k].client!.write(Int64(FlowApplication.probeBytes), sim: &sim)
                }
                if flows[k].app.probes == 0 { flows[k].app.beginTransfer() }
            }
            let upTo = flows[k].client!.rcvNxt
            while flows[k].clientConsumed + Int64(FlowApplication.probeBytes) <= upTo {
                let i = Int(flows[k].clientConsumed / Int64(FlowApplication.probeBytes))
                flows[k].clientConsumed += Int64(FlowApplication.probeBytes)
                if flows[k].app.echoArrived(i, now: sim.now) && !flows[k].app.transferring { flows[k].app.beginTransfer() }
            }
            pump(k, sim: &sim)
        }
    }
}

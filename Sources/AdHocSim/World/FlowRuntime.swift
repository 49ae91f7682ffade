/// A flow while it runs: its application and, for TCP, its two endpoints.
public struct FlowRuntime: Sendable {
    /// The application (and what it measured).
    public var app: FlowApplication
    /// TCP client endpoint.
    public var client: TcpEndpoint?
    /// TCP server endpoint.
    public var server: TcpEndpoint?
    /// QUIC client endpoint.
    public var quicClient: QuicEndpoint?
    /// QUIC server endpoint.
    public var quicServer: QuicEndpoint?
    /// QUIC single-stream mode: the client's next stream offset.
    var clientStreamOffset: Int64 = 0
    /// QUIC single-stream mode: the server's echo stream offset.
    var serverStreamOffset: Int64 = 0
    /// IP packet counts (client sent, client received, server sent, server received) frozen
    /// when the test completed, as the app's DataTransferReport would report them; keepalives
    /// and ACKs after the test do not count.
    public var reportSnapshot: (UInt64, UInt64, UInt64, UInt64)?
    /// Client and server nodes.
    public let clientNode: UInt32, serverNode: UInt32
    /// The transport (the flow specification's).
    public var transport: TransportProtocol { app.spec.transport }
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
                                serverNode: UInt32(spec.to))
            if spec.transport == .tcp {
                f.client = TcpEndpoint(flow: Int32(k), isClient: true, config: config, mtuPayload: ip.maxUnfragmented, sim: &sim, side: UInt32(2 * k))
                f.server = TcpEndpoint(flow: Int32(k), isClient: false, config: config, mtuPayload: ip.maxUnfragmented, sim: &sim, side: UInt32(2 * k + 1))
                f.server!.listen()
            } else if spec.transport == .quic {
                var q = QuicConfig()
                if let v = scenario.transport.sendBufferBytes { q.sendBuffer = Int64(v) }
                if let v = scenario.transport.quicStreamPerWrite { q.streamPerWrite = v }
                if let v = scenario.transport.quicCertificateBytes { q.certificateBytes = v }
                if let v = scenario.transport.quicZeroRtt { q.zeroRtt = v }
                f.quicClient = QuicEndpoint(flow: Int32(k), isClient: true, config: q, udpPayload: ip.maxUnfragmented - 8, sim: &sim, side: UInt32(2 * k))
                f.quicServer = QuicEndpoint(flow: Int32(k), isClient: false, config: q, udpPayload: ip.maxUnfragmented - 8, sim: &sim, side: UInt32(2 * k + 1))
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
            } else if flows[k].transport == .quic {
                flows[k].quicClient!.connect(sim: &sim)
                if flows[k].quicClient!.acceptsWrites { quicWriteProbes(k, sim: &sim) }   // 0-RTT
                flushQuic(k, client: true, sim: &sim)
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
        case .quicLossDetection, .quicAckDelay:
            let k = Int(event.target) / 2
            let isClient = event.target % 2 == 0
            if isClient { flows[k].quicClient!.timer(event.kind, sim: &sim) } else { flows[k].quicServer!.timer(event.kind, sim: &sim) }
            flushQuic(k, client: isClient, sim: &sim)
        case .tcpRetransmit, .tcpDelayedAck, .tcpKeepalive:
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
        for p in packets {
            if trace != nil { recordTrace(p, at: from, sim: sim) }
            if !send(p, sim: &sim) { ip.dropped(tag: p.tag) }
        }
        linkScratch = packets
    }

    /// Moves an endpoint's outbox into its side's interface backlog and sends what the link's
    /// transmit queue can take. Like Linux's qdisc back-pressure and Darwin's interface flow
    /// advisory, a full transmit queue holds TCP and QUIC packets back instead of dropping them.
    mutating func flushTcp(_ k: Int, client: Bool, sim: inout Simulation) {
        let side = 2 * k + (client ? 0 : 1)
        if client {
            backlog[side].append(contentsOf: flows[k].client!.outbox)
            flows[k].client!.outbox.removeAll(keepingCapacity: true)
        } else {
            backlog[side].append(contentsOf: flows[k].server!.outbox)
            flows[k].server!.outbox.removeAll(keepingCapacity: true)
        }
        drainBacklog(side, sim: &sim)
    }

    mutating func flushQuic(_ k: Int, client: Bool, sim: inout Simulation) {
        let side = 2 * k + (client ? 0 : 1)
        if client {
            backlog[side].append(contentsOf: flows[k].quicClient!.outbox)
            flows[k].quicClient!.outbox.removeAll(keepingCapacity: true)
        } else {
            backlog[side].append(contentsOf: flows[k].quicServer!.outbox)
            flows[k].quicServer!.outbox.removeAll(keepingCapacity: true)
        }
        drainBacklog(side, sim: &sim)
    }

    /// Sends backlogged datagrams of a flow side while the link has room for all their fragments.
    mutating func drainBacklog(_ side: Int, sim: inout Simulation) {
        let k = side / 2
        let (from, to) = side % 2 == 0 ? (flows[k].clientNode, flows[k].serverNode) : (flows[k].serverNode, flows[k].clientNode)
        // A read index instead of removeFirst: draining one packet at a time stays O(1).
        var head = backlogHead[side]
        while head < backlog[side].count {
            let d = backlog[side][head]
            guard linkRoom(from) >= ip.fragmentCount(transportBytes: d.transportBytes) else { break }
            sendDatagram(d, from: from, to: to, sim: &sim)
            head += 1
        }
        if head == backlog[side].count {
            backlog[side].removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4096 {
            backlog[side].removeFirst(head)
            head = 0
        }
        backlogHead[side] = head
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
            } else if flows[k].transport == .quic {
                guard flows[k].quicClient!.acceptsWrites, flows[k].quicClient!.sendBufferSpace >= bytes else { break }
                quicClientWrite(k, bytes: bytes, message: flows[k].app.probes + Int(flows[k].app.writesDone), sim: &sim)
                flows[k].app.wrote(bytes, now: sim.now, datagram: false)
            } else {
                let transportBytes = Int(bytes) + 8
                guard Int(bytes) <= udpLimit else {
                    flows[k].app.failure = "datagram-too-large (\(bytes) > transport.maxDatagramBytes \(udpLimit))"
                    break
                }
                guard linkRoom(flows[k].clientNode) >= ip.fragmentCount(transportBytes: transportBytes) else { break }
                var d = Datagram(flow: Int32(k), fromClient: true, kind: .udp)
                d.header = 8
                d.payload = Int32(bytes)
                sendDatagram(d, from: flows[k].clientNode, to: flows[k].serverNode, sim: &sim)
                flows[k].app.wrote(bytes, now: sim.now, datagram: true)
            }
        }
        if flows[k].transport == .tcp { flushTcp(k, client: true, sim: &sim) }
        if flows[k].transport == .quic { flushQuic(k, client: true, sim: &sim) }
    }

    /// Freezes the flow's IP packet counts once every transfer byte reached the server.
    mutating func snapshotIfComplete(_ k: Int) {
        guard flows[k].reportSnapshot == nil, flows[k].app.writes != .max,
              flows[k].app.writesDone == flows[k].app.writes,
              flows[k].app.bytesDelivered >= flows[k].app.bytesSent else { return }
        flows[k].reportSnapshot = (ip.packetsSent[2 * k], ip.packetsReceived[2 * k], ip.packetsSent[2 * k + 1], ip.packetsReceived[2 * k + 1])
    }

    /// The client writes its probes back to back (or starts the transfer when there are none).
    mutating func quicWriteProbes(_ k: Int, sim: inout Simulation) {
        let probes = flows[k].app.probes
        for i in 0..<probes {
            flows[k].app.probeWritten(now: sim.now)
            quicClientWrite(k, bytes: Int64(FlowApplication.probeBytes), message: i, sim: &sim)
        }
        if probes == 0 { flows[k].app.beginTransfer() }
    }

    /// The client writes message `message` (probe or transfer write) on QUIC.
    mutating func quicClientWrite(_ k: Int, bytes: Int64, message: Int, sim: inout Simulation) {
        if flows[k].quicClient!.config.streamPerWrite {
            flows[k].quicClient!.write(stream: 4 * Int64(message), offset: 0, bytes: bytes, sim: &sim)
        } else {
            flows[k].quicClient!.write(stream: 0, offset: flows[k].clientStreamOffset, bytes: bytes, sim: &sim)
            flows[k].clientStreamOffset += bytes
        }
    }

    /// A QUIC packet arrived.
    mutating func deliverQuic(_ d: Datagram, sim: inout Simulation) {
        let k = Int(d.flow)
        let probeBytes = Int64(FlowApplication.probeBytes)
        let perWrite = flows[k].quicClient!.config.streamPerWrite
        let probes = flows[k].app.probes
        if d.fromClient {
            if let (stream, offset, length) = flows[k].quicServer!.receive(d, sim: &sim) {
                let before = flows[k].quicServer!.streams[stream]?.contiguous ?? 0
                let upTo = flows[k].quicServer!.deliverStream(stream, offset: offset, length: length)
                if perWrite {
                    let message = Int(stream / 4)
                    if message < probes {
                        if upTo >= probeBytes && before < probeBytes {
                            flows[k].quicServer!.write(stream: stream, offset: 0, bytes: probeBytes, sim: &sim)
                            flows[k].app.serverEchoed()
                            flows[k].quicServer!.closeStream(stream)
                        }
                    } else if upTo > before {
                        flows[k].app.delivered(upTo - before, now: sim.now, datagram: false)
                        if upTo >= flows[k].app.chunk { flows[k].quicServer!.closeStream(stream) }
                    }
                } else if upTo > flows[k].serverConsumed {
                    let probeStream = Int64(probes) * probeBytes
                    while flows[k].app.serverEchoes < probes && upTo >= Int64(flows[k].app.serverEchoes + 1) * probeBytes {
                        flows[k].quicServer!.write(stream: 0, offset: flows[k].serverStreamOffset, bytes: probeBytes, sim: &sim)
                        flows[k].serverStreamOffset += probeBytes
                        flows[k].app.serverEchoed()
                    }
                    if upTo > probeStream {
                        let newData = upTo - Swift.max(flows[k].serverConsumed, probeStream)
                        if newData > 0 { flows[k].app.delivered(newData, now: sim.now, datagram: false) }
                    }
                    flows[k].serverConsumed = upTo
                }
            }
            flushQuic(k, client: false, sim: &sim)
            snapshotIfComplete(k)
        } else {
            let wasEstablished = flows[k].quicClient!.state == .established
            let carried = flows[k].quicClient!.receive(d, sim: &sim)
            if !wasEstablished && flows[k].quicClient!.state == .established && flows[k].app.probeSent.isEmpty {
                quicWriteProbes(k, sim: &sim)
            }
            if let (stream, offset, length) = carried {
                let upTo = flows[k].quicClient!.deliverStream(stream, offset: offset, length: length)
                if perWrite {
                    if upTo >= probeBytes {
                        flows[k].quicClient!.closeStream(stream)
                        if flows[k].app.echoArrived(Int(stream / 4), now: sim.now) && !flows[k].app.transferring { flows[k].app.beginTransfer() }
                    }
                } else {
                    while flows[k].clientConsumed + probeBytes <= upTo {
                        let i = Int(flows[k].clientConsumed / probeBytes)
                        flows[k].clientConsumed += probeBytes
                        if flows[k].app.echoArrived(i, now: sim.now) && !flows[k].app.transferring { flows[k].app.beginTransfer() }
                    }
                }
            }
            pump(k, sim: &sim)
            flushQuic(k, client: true, sim: &sim)
        }
    }

    // MARK: Receiving

    /// A complete datagram reached its destination.
    mutating func deliver(_ d: Datagram, sim: inout Simulation) {
        let k = Int(d.flow)
        if d.kind == .quic {
            deliverQuic(d, sim: &sim)
            return
        }
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
            snapshotIfComplete(k)
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
            // The test is over once every write is acknowledged: close (thesis and bulk runs).
            if flows[k].app.writes != .max && flows[k].app.writesDone == flows[k].app.writes {
                flows[k].client!.close(sim: &sim)
                flushTcp(k, client: true, sim: &sim)
            }
        }
    }
}

// Host layer: what runs on each phone between its applications and its link.
//
// This folder owns the hosts of a run: each flow side's socket (a TCP or QUIC endpoint, or a
// UDP socket), its send backlog (packets the link's transmit queue has no room for yet, held
// back as Darwin's interface flow advisory holds them), the IP layer with its packet counts and
// the optional packet trace. Every outgoing datagram passes `sendDown` and every arriving one
// `deliverUp`: the two places where a host processing model (scheduling, interrupt and stack
// latency of a phone; the "Fidelity" issue) plugs in. The applications themselves live in
// `Workload/`; the link below is reached only through `LinkTechnology`.

/// A flow while it runs: its application, where its sockets are, and what the app's report
/// froze.
public struct FlowRuntime: Sendable {
    /// The application (and what it measured).
    public var app: FlowApplication
    /// The client's socket in its transport's table (`HostStack.tcp` or `.quic`); the server's
    /// is the next one. Unused for UDP, whose sockets hold no state.
    let socket: Int
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
    /// Server: stream bytes consumed so far (TCP, QUIC single stream).
    var serverConsumed: Int64 = 0
    /// Client: echo bytes consumed so far (TCP, QUIC single stream).
    var clientConsumed: Int64 = 0

    /// The node `side` runs on.
    func node(of side: FlowSide) -> UInt32 { side.isClient ? clientNode : serverNode }
}

/// What the transport of one flow reports for its metrics, without exposing its endpoints.
public struct TransportSummary: Sendable, Equatable {
    /// Keepalive probes sent by both ends (TCP).
    public var keepalives: UInt64 = 0
    /// Retransmissions by the client.
    public var clientRetransmissions: UInt64 = 0
    /// Retransmissions by both ends.
    public var retransmissions: UInt64 = 0
    /// When the client's connection was established (TCP, QUIC).
    public var establishedAt: SimTime?
    /// Why an end aborted the connection, client first.
    public var abortReason: String?
    /// Whether the client ended up connected (always true for UDP, which has no connection).
    public var connected = true
}

/// The hosts of every flow: IP, sockets, send backlogs and the packet trace.
public struct HostStack: Sendable {
    /// IP of the flows.
    public internal(set) var ip: IpLayer
    /// The flows.
    public internal(set) var flows: [FlowRuntime]
    /// TCP endpoints, two per TCP flow (client, server), in flow order.
    var tcp: [TcpEndpoint] = []
    /// QUIC endpoints, two per QUIC flow (client, server), in flow order.
    var quic: [QuicEndpoint] = []
    /// The UDP datagram limit, bytes (`transport.maxDatagramBytes`; Darwin's 9216 by default,
    /// radio.md "Limits of peer-to-peer on phones").
    public let udpLimit: Int
    /// Packet traces, when `run --pcap` asked for them.
    public var trace: PacketTrace?
    /// Per flow side (`FlowSide.index`): datagrams waiting for transmit-queue room, and the
    /// read index of the first one not yet sent.
    var backlog: [[Datagram]]
    var backlogHead: [Int]
    var linkScratch: [LinkPacket] = []

    /// The hosts of `scenario`'s flows over a link of `mtu` bytes; creates the endpoints'
    /// timers and schedules every flow's start.
    public init(_ scenario: Scenario, mtu: Int, sim: inout Simulation) {
        ip = IpLayer(version: scenario.transport.ipVersion ?? .ipv6, mtu: mtu, flows: scenario.flows.count)
        udpLimit = scenario.transport.maxDatagramBytes ?? 9216
        backlog = Array(repeating: [], count: 2 * scenario.flows.count)
        backlogHead = Array(repeating: 0, count: 2 * scenario.flows.count)
        let config = TcpConfig(scenario.transport)
        var quicConfig = QuicConfig()
        if let v = scenario.transport.sendBufferBytes { quicConfig.sendBuffer = Int64(v) }
        if let v = scenario.transport.quicStreamPerWrite { quicConfig.streamPerWrite = v }
        if let v = scenario.transport.quicCertificateBytes { quicConfig.certificateBytes = v }
        if let v = scenario.transport.quicZeroRtt { quicConfig.zeroRtt = v }
        flows = []
        for (k, spec) in scenario.flows.enumerated() {
            var socket = 0
            switch spec.transport {
            case .tcp:
                socket = tcp.count
                for side in [FlowSide.client(k), .server(k)] {
                    tcp.append(TcpEndpoint(flow: Int32(k), isClient: side.isClient, config: config, mtuPayload: ip.maxUnfragmented,
                                           sim: &sim, side: UInt32(side.index)))
                }
                tcp[socket + 1].listen()
            case .quic:
                socket = quic.count
                for side in [FlowSide.client(k), .server(k)] {
                    quic.append(QuicEndpoint(flow: Int32(k), isClient: side.isClient, config: quicConfig,
                                             udpPayload: ip.maxUnfragmented - 8, sim: &sim, side: UInt32(side.index)))
                }
            case .udp:
                break
            }
            flows.append(FlowRuntime(app: FlowApplication(spec: spec, index: k), socket: socket, clientNode: UInt32(spec.from),
                                     serverNode: UInt32(spec.to)))
            sim.schedule(at: spec.start, target: UInt32(k), kind: .flowStart)
        }
    }

    /// Where `side`'s endpoint is in its transport's table.
    @inline(__always) func slot(_ side: FlowSide) -> Int { flows[side.flow].socket + (side.isClient ? 0 : 1) }

    /// What flow `k`'s transport did, for its metrics.
    public func transportSummary(of k: Int) -> TransportSummary {
        var s = TransportSummary()
        let (c, v) = (slot(.client(k)), slot(.server(k)))
        switch flows[k].transport {
        case .tcp:
            s.keepalives = tcp[c].keepalivesSent + tcp[v].keepalivesSent
            s.clientRetransmissions = tcp[c].retransmissions
            s.retransmissions = tcp[c].retransmissions + tcp[v].retransmissions
            s.establishedAt = tcp[c].establishedAt
            s.abortReason = tcp[c].abortReason ?? tcp[v].abortReason
            s.connected = tcp[c].state == .established
        case .quic:
            s.clientRetransmissions = quic[c].retransmissions
            s.retransmissions = quic[c].retransmissions + quic[v].retransmissions
            s.establishedAt = quic[c].establishedAt
            s.abortReason = quic[c].abortReason ?? quic[v].abortReason
            s.connected = quic[c].state == .established
        case .udp:
            break
        }
        return s
    }

    // MARK: Events

    /// Handles an application or transport event (`EventBlock.application`, `.transport`).
    public mutating func handle<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        switch event.kind {
        case .flowStart:
            let k = Int(event.target)
            flows[k].app.start(now: sim.now)
            switch flows[k].transport {
            case .tcp:
                tcp[slot(.client(k))].connect(sim: &sim)
                flush(.client(k), link: &link, sim: &sim)
            case .quic:
                quic[slot(.client(k))].connect(sim: &sim)
                if quic[slot(.client(k))].acceptsWrites { quicWriteProbes(k, sim: &sim) }   // 0-RTT
                flush(.client(k), link: &link, sim: &sim)
            case .udp:
                sendProbesUdp(k, link: &link, sim: &sim)
            }
            if case .cbr(let rate, let size) = flows[k].app.spec.workload {
                let interval = SimTime.seconds(Double(size) * 8 / (rate * 1e6))
                sim.schedule(after: interval, target: UInt32(k), kind: .cbrTick, arg: UInt64(interval.nanoseconds))
            }
        case .probeTimeout:
            let k = Int(event.target)
            if !flows[k].app.transferring {
                flows[k].app.beginTransfer()
                pump(k, link: &link, sim: &sim)
            }
        case .cbrTick:
            let k = Int(event.target)
            flows[k].app.cbrDue()
            pump(k, link: &link, sim: &sim)
            sim.schedule(after: .nanoseconds(Int64(event.arg)), target: event.target, kind: .cbrTick, arg: event.arg)
        case .quicLossDetection, .quicAckDelay:
            let side = FlowSide(index: Int(event.target))
            quic[slot(side)].timer(event.kind, sim: &sim)
            flush(side, link: &link, sim: &sim)
        case .tcpRetransmit, .tcpDelayedAck, .tcpKeepalive:
            let side = FlowSide(index: Int(event.target))
            tcp[slot(side)].timer(event.kind, sim: &sim)
            flush(side, link: &link, sim: &sim)
        default:
            preconditionFailure("not a flow event")
        }
    }

    /// A link notice about an IP packet. Returns whether it freed transmit-queue room (the
    /// caller then calls `queueRoomFreed` once the batch is handled).
    public mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation) -> Bool {
        switch n.kind {
        case .delivered:
            if trace != nil { recordTrace(n.packet, at: n.packet.destination, now: sim.now) }
            if let d = ip.delivered(tag: n.packet.tag, bytes: n.packet.bytes) { deliverUp(d, link: &link, sim: &sim) }
            return false
        case .dropped:
            ip.dropped(tag: n.packet.tag)
            return true
        case .senderDone:
            return true
        }
    }

    /// Transmit-queue room was freed: backlogged TCP/QUIC packets (in flow-side order) and
    /// blocked UDP writers (in flow order) may continue.
    public mutating func queueRoomFreed<L: LinkTechnology>(link: inout L, sim: inout Simulation) {
        for side in backlog.indices where backlogHead[side] < backlog[side].count {
            drainBacklog(FlowSide(index: side), link: &link, sim: &sim)
        }
        for k in flows.indices where flows[k].transport == .udp && flows[k].app.wantsWrite { pump(k, link: &link, sim: &sim) }
    }

    // MARK: Sending

    /// Appends one IP packet to `node`'s trace.
    mutating func recordTrace(_ p: LinkPacket, at node: UInt32, now: SimTime) {
        let f = ip.fragment(p.tag)
        trace!.record(node: node, time: now, datagram: f.datagram, src: p.source, dst: p.destination,
                      index: f.index, count: f.count, id: f.id, fragmentPayload: ip.fragmentPayload)
    }

    /// Hands one datagram to IP and the link (the host's way down). A fragment the link refuses
    /// is counted lost.
    mutating func sendDown<L: LinkTechnology>(_ d: Datagram, from: UInt32, to: UInt32, link: inout L, sim: inout Simulation) {
        var packets = linkScratch
        linkScratch = []
        packets.removeAll(keepingCapacity: true)
        ip.send(d, from: from, to: to, now: sim.now, into: &packets)
        for p in packets {
            if trace != nil { recordTrace(p, at: from, now: sim.now) }
            if !link.send(p, sim: &sim) { ip.dropped(tag: p.tag) }
        }
        linkScratch = packets
    }

    /// Moves a TCP or QUIC endpoint's outbox into its side's backlog and sends what the link's
    /// transmit queue can take. Like Linux's qdisc back-pressure and Darwin's interface flow
    /// advisory, a full transmit queue holds TCP and QUIC packets back instead of dropping them.
    mutating func flush<L: LinkTechnology>(_ side: FlowSide, link: inout L, sim: inout Simulation) {
        let i = slot(side)
        if flows[side.flow].transport == .tcp {
            backlog[side.index].append(contentsOf: tcp[i].outbox)
            tcp[i].outbox.removeAll(keepingCapacity: true)
        } else {
            backlog[side.index].append(contentsOf: quic[i].outbox)
            quic[i].outbox.removeAll(keepingCapacity: true)
        }
        drainBacklog(side, link: &link, sim: &sim)
    }

    /// Sends backlogged datagrams of a flow side while the link has room for all their fragments.
    mutating func drainBacklog<L: LinkTechnology>(_ side: FlowSide, link: inout L, sim: inout Simulation) {
        let from = flows[side.flow].node(of: side), to = flows[side.flow].node(of: side.peer)
        let s = side.index
        // A read index instead of removeFirst: draining one packet at a time stays O(1).
        var head = backlogHead[s]
        while head < backlog[s].count {
            let d = backlog[s][head]
            guard link.queueRoom(of: Int(from)) >= ip.fragmentCount(transportBytes: d.transportBytes) else { break }
            sendDown(d, from: from, to: to, link: &link, sim: &sim)
            head += 1
        }
        if head == backlog[s].count {
            backlog[s].removeAll(keepingCapacity: true)
            head = 0
        } else if head > 4096 {
            backlog[s].removeFirst(head)
            head = 0
        }
        backlogHead[s] = head
    }

    /// The UDP client writes its probes back to back (or starts the transfer when there are none).
    mutating func sendProbesUdp<L: LinkTechnology>(_ k: Int, link: inout L, sim: inout Simulation) {
        let p = flows[k].app.probes
        for _ in 0..<p {
            var d = Datagram(flow: Int32(k), fromClient: true, kind: .udp)
            d.header = 8
            d.payload = Int32(FlowApplication.probeBytes)
            d.message = Int32(flows[k].app.probeSent.count)
            d.flags = UdpMarks.probe
            flows[k].app.probeWritten(now: sim.now)
            sendDown(d, from: flows[k].clientNode, to: flows[k].serverNode, link: &link, sim: &sim)
        }
        if p == 0 {
            flows[k].app.beginTransfer()
            pump(k, link: &link, sim: &sim)
        } else {
            sim.schedule(after: FlowApplication.probeWait, target: UInt32(k), kind: .probeTimeout)
        }
    }

    /// Makes every write the transport can take now.
    mutating func pump<L: LinkTechnology>(_ k: Int, link: inout L, sim: inout Simulation) {
        let client = slot(.client(k))
        while flows[k].app.wantsWrite {
            let bytes = flows[k].app.nextWriteBytes
            switch flows[k].transport {
            case .tcp:
                guard tcp[client].state == .established, tcp[client].sendBufferSpace >= bytes else { break }
                tcp[client].write(bytes, sim: &sim)
                flows[k].app.wrote(bytes, now: sim.now, datagram: false)
                continue
            case .quic:
                guard quic[client].acceptsWrites, quic[client].sendBufferSpace >= bytes else { break }
                quicClientWrite(k, bytes: bytes, message: flows[k].app.probes + Int(flows[k].app.writesDone), sim: &sim)
                flows[k].app.wrote(bytes, now: sim.now, datagram: false)
                continue
            case .udp:
                let transportBytes = Int(bytes) + 8
                guard Int(bytes) <= udpLimit else {
                    flows[k].app.failure = "datagram-too-large (\(bytes) > transport.maxDatagramBytes \(udpLimit))"
                    break
                }
                guard link.queueRoom(of: Int(flows[k].clientNode)) >= ip.fragmentCount(transportBytes: transportBytes) else { break }
                var d = Datagram(flow: Int32(k), fromClient: true, kind: .udp)
                d.header = 8
                d.payload = Int32(bytes)
                sendDown(d, from: flows[k].clientNode, to: flows[k].serverNode, link: &link, sim: &sim)
                flows[k].app.wrote(bytes, now: sim.now, datagram: true)
                continue
            }
            break
        }
        if flows[k].transport != .udp { flush(.client(k), link: &link, sim: &sim) }
    }

    /// Freezes the flow's IP packet counts once every transfer byte reached the server.
    mutating func snapshotIfComplete(_ k: Int) {
        guard flows[k].reportSnapshot == nil, flows[k].app.writes != .max,
              flows[k].app.writesDone == flows[k].app.writes,
              flows[k].app.bytesDelivered >= flows[k].app.bytesSent else { return }
        let (c, s) = (FlowSide.client(k).index, FlowSide.server(k).index)
        flows[k].reportSnapshot = (ip.packetsSent[c], ip.packetsReceived[c], ip.packetsSent[s], ip.packetsReceived[s])
    }
}

/// Marks a UDP datagram of the thesis test carries in its application header (the `flags`
/// field of `Datagram`), so the server knows to echo it and the client knows it is an echo.
enum UdpMarks {
    /// A probe from the client: echo it.
    static let probe: UInt8 = 1
    /// The server's echo of a probe.
    static let echo: UInt8 = 2
}

// The hosts of every flow: sockets, send backlogs, IP and the packet trace, between the
// applications and the link.

/// A flow while it runs: its application, where its sockets are, and what the app's report
/// froze.
public struct FlowRuntime: Sendable {
    /// The application (and what it measured).
    public var app: FlowApplication
    /// IP packet counts (client sent, client received, server sent, server received) frozen
    /// when the test completed, as the app's DataTransferReport would report them; keepalives
    /// and ACKs after the test do not count.
    public var reportSnapshot: (UInt64, UInt64, UInt64, UInt64)?
    /// Client and server nodes.
    public let clientNode: UInt32, serverNode: UInt32
    /// A uniform draw in [0, 1) from the flow's stream `flow:k/app/start`: where in the AWDL
    /// channel sequence a person taps start (`StartPhase.random`).
    let phase: Double
    /// The apps' Bonjour discovery before the connection (`flows[i].discovery`), and the
    /// stream of its random delays (`flow:k/bonjour`).
    public var discovery: AppDiscovery?
    var bonjourDelays: RandomStream?
    /// The transport (the flow specification's).
    public var transport: TransportProtocol { app.spec.transport }

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
    /// Datagrams both ends' apps wrote that did not fit their UDP send buffer (lost there).
    public var sendBufferDrops: Int64 = 0
    /// Datagrams both ends dropped because their UDP receive buffer was full.
    public var receiveBufferDrops: Int64 = 0

    /// Nothing to report (UDP).
    public init() {}

    /// The report of a connection's two ends.
    init<E: ConnectionEnd>(client: E, server: E) {
        clientRetransmissions = client.retransmissions
        retransmissions = client.retransmissions + server.retransmissions
        establishedAt = client.establishedAt
        abortReason = client.abortReason ?? server.abortReason
        connected = client.isEstablished
    }
}

/// What a connection-oriented endpoint (TCP, QUIC) reports for the metrics.
protocol ConnectionEnd {
    var retransmissions: UInt64 { get }
    var establishedAt: SimTime? { get }
    var abortReason: String? { get }
    var isEstablished: Bool { get }
}

extension TcpEndpoint: ConnectionEnd {
    /// Whether the connection is established.
    public var isEstablished: Bool { state == .established }
}

extension QuicEndpoint: ConnectionEnd {
    /// Whether the handshake is complete.
    public var isEstablished: Bool { state == .established }
}

/// The hosts of every flow: IP, sockets, send backlogs and the packet trace.
public struct HostStack: Sendable {
    /// IP of the flows.
    public internal(set) var ip: IpLayer
    /// The flows.
    public internal(set) var flows: [FlowRuntime]
    /// Every flow side's socket (`SocketSet`: the one place a socket's transport is looked at).
    var sockets = SocketSet()
    /// The empty array a socket's outbox is swapped with when the host takes what it wrote
    /// (`SocketOp.TakeOutbox`); its storage is reused.
    var outboxScratch: [Datagram] = []
    /// The UDP datagram limit, bytes (`transport.maxDatagramBytes`; Darwin's 9216 by default,
    /// radio.md "Limits of peer-to-peer on phones").
    public let udpLimit: Int
    /// Packet traces, when `run --pcap` asked for them.
    public var trace: PacketTrace?
    /// Per flow side (`FlowSide.index`): datagrams waiting for transmit-queue room, and the
    /// read index of the first one not yet sent.
    var backlog: [FifoBuffer<Datagram>]
    /// Per flow side (`FlowSide.index`): the phone's processing of that connection end.
    public internal(set) var queues: [ConnectionQueue] = []
    /// Per flow side (`FlowSide.index`): the index in `mainQueues` of the queue it shares, or
    /// −1 for a connection with a queue of its own.
    let mainQueueSlot: [Int]
    /// Whether the scenario has a round (no round bookkeeping per operation otherwise).
    let hasRounds: Bool
    /// The main queues that a round's connections share, one per phone of each round: the thesis
    /// app starts every connection on `.main` (MatthiasBart/PtPPrototype,
    /// `Service/Connection/ConnectionImpl.swift`: `connection.start(queue: .main)`;
    /// transport.md, "Darwin buffers": each message read "with two callbacks … on the main
    /// queue"), so the receive completions of a round's connections run one after another on
    /// each phone, while each connection's user-space stack (its sends and packets) keeps its
    /// own context (`ConnectionQueue.mainQueue`). A side's queue holds the shared state only
    /// while a socket operation runs on it (`checkOut`, `checkIn`).
    var mainQueues: [ConnectionQueue.Processor] = []
    /// Per flow: the flows of the round it leads (empty unless it leads one).
    let roundMembers: [[Int]]
    /// Per flow: whether its client is ready and waits for the round's tap.
    var awaitsTap: [Bool]
    /// Per flow of a round whose tests run in turn: the flow whose test starts when this one's
    /// client wrote its last message, or −1.
    var nextInTurn: [Int]
    /// Darwin's interface queue discipline of every phone.
    public internal(set) var interface: InterfaceQueue
    /// Per flow: whether it travels across the mesh (`Scenario.carrier(of:)`).
    public let overMesh: [Bool]

    /// The hosts of `scenario`'s flows over a link of `mtu` bytes; a flow across the mesh
    /// leaves `meshReserve` bytes of each link frame to the mesh's header. Creates the
    /// endpoints' timers and schedules every flow's start.
    public init(_ scenario: Scenario, mtu: Int, ipReserve meshReserve: Int = 0, sim: inout Simulation) {
        overMesh = scenario.flows.indices.map { scenario.carrier(of: $0) == .mesh }
        ip = IpLayer(
            version: scenario.transport.ipVersion, mtu: mtu,
            flowMtu: overMesh.map { $0 ? mtu - meshReserve : mtu })
        udpLimit = scenario.transport.maxDatagramBytes
        backlog = Array(repeating: FifoBuffer(), count: 2 * scenario.flows.count)
        interface = InterfaceQueue(nodes: scenario.nodes.count, discipline: scenario.host.interfaceQueue)
        let config = scenario.transport.tcp
        let quicConfig = scenario.transport.quic
        flows = []
        var members = Array(repeating: [Int](), count: scenario.flows.count)
        for (k, spec) in scenario.flows.enumerated() { if let r = spec.round { members[r].append(k) } }
        roundMembers = members
        awaitsTap = Array(repeating: false, count: scenario.flows.count)
        nextInTurn = Array(repeating: -1, count: scenario.flows.count)
        // One main queue per phone and round (`host.roundQueue`), created in flow order.
        var slots: [Int] = []
        var processors: [ConnectionQueue.Processor] = []
        let shared = scenario.host.roundQueue == .shared
        for (k, spec) in scenario.flows.enumerated() {
            for (node, side) in [(spec.from, "client"), (spec.to, "server")] {
                guard shared, let r = spec.round else {
                    slots.append(-1)
                    continue
                }
                if k == r {
                    slots.append(processors.count)
                    processors.append(
                        ConnectionQueue.Processor(stream: sim.randomStream(named: "round:\(r)/host/\(side)")))
                } else {
                    // The member's ends are the leader's two phones (`decodeFlows`).
                    let leaderSide = node == scenario.flows[r].from ? FlowSide.client(r) : FlowSide.server(r)
                    slots.append(slots[leaderSide.index])
                }
            }
        }
        mainQueueSlot = slots
        mainQueues = processors
        hasRounds = scenario.flows.contains { $0.round != nil }
        for (k, spec) in scenario.flows.enumerated() {
            sockets.addFlow(
                k, transport: spec.transport, tcpConfig: config, quicConfig: quicConfig,
                mtuPayload: ip.maxUnfragmented(flow: k), probes: FlowApplication(spec: spec, index: k).probes, sim: &sim
            )
            var phaseStream = sim.randomStream(named: "flow:\(k)/app/start")
            flows.append(
                FlowRuntime(
                    app: FlowApplication(spec: spec, index: k), clientNode: UInt32(spec.from),
                    serverNode: UInt32(spec.to), phase: phaseStream.uniform()))
            for (node, side) in [(spec.from, "client"), (spec.to, "server")] {
                var queue = ConnectionQueue(
                    scenario.nodes[node].host ?? scenario.host,
                    stream: sim.randomStream(named: "flow:\(k)/host/\(side)"))
                queue.carriesDatagrams = spec.transport == .udp
                queue.sharesMainQueue = slots[queues.count] >= 0
                queues.append(queue)
            }
            if spec.discovery {
                flows[k].discovery = AppDiscovery(start: spec.start)
                flows[k].bonjourDelays = sim.randomStream(named: "flow:\(k)/bonjour")
            }
            sim.schedule(at: spec.start, target: UInt32(k), kind: .flowStart)
        }
    }

    /// Applies `op` to `side`'s socket with the side's application and connection queue.
    @inline(__always) @discardableResult
    mutating func apply<O: SocketOperation>(_ op: O, to side: FlowSide, sim: inout Simulation) -> O.Result {
        if hasRounds { return applyInRound(op, to: side, sim: &sim) }
        var op = op
        return sockets.with(side, &op, app: &flows[side.flow].app, queue: &queues[side.index], sim: &sim)
    }

    /// `apply` in a scenario with rounds: the side's queue holds its shared main queue while the
    /// operation runs.
    @inline(never)
    mutating func applyInRound<O: SocketOperation>(_ op: O, to side: FlowSide, sim: inout Simulation) -> O.Result {
        var op = op
        checkOut(side.index)
        let result = sockets.with(side, &op, app: &flows[side.flow].app, queue: &queues[side.index], sim: &sim)
        checkIn(side.index)
        return result
    }

    /// Side `s`'s connection queue takes its round's shared main queue before an operation.
    @inline(__always) mutating func checkOut(_ s: Int) {
        let slot = mainQueueSlot[s]
        if slot >= 0 { queues[s].mainQueue = mainQueues[slot] }
    }

    /// Side `s`'s connection queue gives its round's shared main queue back after an operation.
    @inline(__always) mutating func checkIn(_ s: Int) {
        let slot = mainQueueSlot[s]
        if slot >= 0 { mainQueues[slot] = queues[s].mainQueue }
    }

    /// What flow `k`'s transport did, for its metrics.
    public func transportSummary(of k: Int) -> TransportSummary {
        var s = sockets.summary(of: k)
        let (qc, qs) = (queues[FlowSide.client(k).index], queues[FlowSide.server(k).index])
        s.sendBufferDrops = qc.sendBufferDrops + qs.sendBufferDrops
        s.receiveBufferDrops = qc.receiveBufferDrops + qs.receiveBufferDrops
        return s
    }

    // MARK: Events

    /// Handles an application or transport event (`EventBlock.application`, `.transport`).
    ///
    /// The router (`IpRouting`, the layers above the link) is passed by address through every
    /// host function and only read: passed by value, the whole layer state was copied at each
    /// call.
    public mutating func handle<L: LinkTechnology, R: IpRouting>(
        _ event: Event, link: inout L, router: inout R, sim: inout Simulation
    ) {
        switch event.kind {
        case .flowStart:
            let k = Int(event.target)
            if flows[k].discovery != nil {
                startDiscovery(k, sim: &sim)
                return
            }
            connect(k, link: &link, router: &router, sim: &sim)
        case .discoveryStep:
            discoveryStep(Int(event.target), event.arg, link: &link, sim: &sim)
        case .testStart:
            let k = Int(event.target)
            let c = FlowSide.client(k)
            flows[k].app.startProbes(&queues[c.index], now: sim.now)
            release(c, link: &link, router: &router, sim: &sim)
            sim.schedule(after: FlowApplication.pauseAfterProbes, target: UInt32(k), kind: .transferDue)
        case .transferDue:
            let k = Int(event.target)
            flows[k].app.beginTransfer()
            pump(k, link: &link, router: &router, sim: &sim)
        case .hostWake:
            let side = FlowSide(index: Int(event.target))
            if queues[side.index].wakeAt == sim.now { queues[side.index].wakeAt = nil }
            release(side, link: &link, router: &router, sim: &sim)
        case .cbrTick:
            let k = Int(event.target)
            flows[k].app.cbrDue()
            pump(k, link: &link, router: &router, sim: &sim)
            sim.schedule(after: .nanoseconds(Int64(event.arg)), target: event.target, kind: .cbrTick, arg: event.arg)
        case .quicLossDetection, .quicAckDelay, .tcpRetransmit, .tcpDelayedAck, .tcpKeepalive:
            let side = FlowSide(index: Int(event.target))
            apply(SocketOp.Timer(kind: event.kind), to: side, sim: &sim)
            flush(side, link: &link, router: &router, sim: &sim)
        default:
            preconditionFailure("not a flow event")
        }
    }

    /// A link notice about an IP packet. Returns whether it freed transmit-queue room (the
    /// caller then calls `queueRoomFreed` once the batch is handled).
    public mutating func notice<L: LinkTechnology, R: IpRouting>(
        _ n: LinkNotice, link: inout L, router: inout R, sim: inout Simulation
    ) -> Bool {
        switch n.kind {
        case .delivered:
            if let hop = ip.nextHop(tag: n.packet.tag, at: n.node) {
                forward(n.packet, at: n.node, to: hop.next, route: hop.route, link: &link, router: &router, sim: &sim)
                return false
            }
            if trace != nil { recordTrace(n.packet, at: n.packet.destination, now: sim.now) }
            if ip.arrived(tag: n.packet.tag, bytes: n.packet.bytes) {
                deliverUp(ip.datagram(tag: n.packet.tag), link: &link, router: &router, sim: &sim)
            }
            return false
        case .dropped, .senderDone:
            // The packet left the transmit queue (sent or given up): room freed, the interface
            // queue's delay measured (paused senders may resume); the caller then drains the
            // backlogs and blocked senders.
            if n.kind == .dropped {
                let route = ip.route(tag: n.packet.tag)
                if !route.isEmpty {
                    // The link gave up on the next hop: the route's link broke (RFC 4728 §8.3).
                    router.linkBroke(
                        route: route, at: Int(n.packet.source), next: Int(n.packet.destination),
                        flow: ip.flow(tag: n.packet.tag))
                }
                ip.dropped(tag: n.packet.tag)
            }
            interface.dequeued(Int(n.node), enqueuedAt: n.packet.enqueued, now: sim.now)
            return true
        }
    }

    /// Transmit-queue room was freed: backlogged TCP/QUIC packets (in flow-side order) and
    /// blocked UDP senders (in flow-side order) may continue.
    public mutating func queueRoomFreed<L: LinkTechnology, R: IpRouting>(
        link: inout L, router: inout R, sim: inout Simulation
    ) {
        for side in backlog.indices where !backlog[side].isEmpty {
            drainBacklog(FlowSide(index: side), link: &link, router: &router, sim: &sim)
        }
        for s in queues.indices where queues[s].first.map({ $0.readyAt <= sim.now }) ?? false {
            let side = FlowSide(index: s)
            if sockets.isDatagram(side) { release(side, link: &link, router: &router, sim: &sim) }
        }
    }

    /// Flow `k`'s client socket takes writes for the first time: the thesis test's probe burst
    /// is scheduled (`StartPhase`), a bulk or CBR transfer begins.
    mutating func opened<L: LinkTechnology, R: IpRouting>(
        _ k: Int, link: inout L, router: inout R, sim: inout Simulation
    ) {
        if flows[k].discovery != nil && flows[k].discovery?.ready == nil { flows[k].discovery?.ready = sim.now }
        if let r = flows[k].app.spec.round, flows[k].app.isThesis {
            tapWhenReady(k, round: r, link: &link, sim: &sim)
            return
        }
        guard let at = flows[k].app.opened(now: sim.now, phase: flows[k].phase) else {
            if flows[k].app.opened && flows[k].app.transferring { pump(k, link: &link, router: &router, sim: &sim) }
            return
        }
        if flows[k].app.spec.startPhase != .connect {
            // The app's previous test on this connection, the idle time before this one
            // (FlowApplication.idleBeforeTest).
            link.noteUnsimulatedTraffic(Int(flows[k].clientNode), Int(flows[k].serverNode), now: sim.now)
        }
        sim.schedule(at: at, target: UInt32(k), kind: .testStart)
    }

    /// Flow `k` of round `r` is ready: once every thesis flow of the round is, one tap comes,
    /// after one idle time drawn from the round's first flow's stream (`StartPhase`). The app's
    /// start button calls every client's `startTesting` in one loop (MatthiasBart/PtPPrototype,
    /// `Views/Client/ClientViewModel.swift`, `onStartTestingButtonPressed`): with
    /// `roundStart` "together" every test starts at the tap in the round's order; "in turn" the
    /// first starts there and each next one when the one before wrote its last message
    /// (`startNextInTurn`).
    mutating func tapWhenReady<L: LinkTechnology>(_ k: Int, round r: Int, link: inout L, sim: inout Simulation) {
        guard !awaitsTap[k], !flows[k].app.opened else { return }
        awaitsTap[k] = true
        let thesis = roundMembers[r].filter { flows[$0].app.isThesis }
        guard thesis.allSatisfy({ awaitsTap[$0] }) else { return }
        var tap: SimTime?
        for m in thesis {
            awaitsTap[m] = false
            tap = flows[m].app.opened(now: sim.now, phase: flows[r].phase)
        }
        guard let at = tap else { return }
        if flows[r].app.spec.startPhase != .connect {
            // The round before this one, the idle time before this one (FlowApplication.idleBeforeTest).
            link.noteUnsimulatedTraffic(Int(flows[r].clientNode), Int(flows[r].serverNode), now: sim.now)
        }
        guard flows[r].app.spec.roundStart == .inTurn else {
            for m in thesis { sim.schedule(at: at, target: UInt32(m), kind: .testStart) }
            return
        }
        sim.schedule(at: at, target: UInt32(thesis[0]), kind: .testStart)
        for (m, next) in zip(thesis, thesis.dropFirst()) { nextInTurn[m] = next }
    }

    /// In a round whose tests run in turn, the next test starts once flow `k`'s client wrote
    /// its last message (the app's `startTesting` returns when its sends completed).
    @inline(__always) mutating func startNextInTurn(after k: Int, sim: inout Simulation) {
        let next = nextInTurn[k]
        guard next >= 0, flows[k].app.writesDone == flows[k].app.writes else { return }
        nextInTurn[k] = -1
        sim.schedule(at: sim.now, target: UInt32(next), kind: .testStart)
    }

    // MARK: Sending

    /// Appends one IP packet to `node`'s trace, addressed from the flow end that sent it to the
    /// other (across the mesh, not the hop's two nodes).
    mutating func recordTrace(_ p: LinkPacket, at node: UInt32, now: SimTime) {
        let f = ip.fragment(p.tag)
        let sender = FlowSide.sender(of: f.datagram)
        let k = sender.flow
        trace?.record(
            node: node, time: now, datagram: f.datagram, src: flows[k].node(of: sender),
            dst: flows[k].node(of: sender.peer), index: f.index, count: f.count, id: f.id,
            fragmentPayload: ip.fragmentPayload(flow: k))
    }

    /// Hands one datagram to IP and the link (the host's way down). A fragment the link refuses
    /// is counted lost. Across the mesh the datagram takes the sender's route now, and waits in
    /// the router's send buffer while there is none (`IpRouting.awaitRoute`).
    mutating func sendDown<L: LinkTechnology, R: IpRouting>(
        _ d: Datagram, from: UInt32, to: UInt32, link: inout L, router: inout R, sim: inout Simulation
    ) {
        let fragments: IpLayer.Fragments
        if overMesh[Int(d.flow)] {
            guard let r = router.sourceRoute(from: Int(from), to: Int(to), at: sim.now), r.count <= router.maxPathNodes
            else {
                router.awaitRoute(d, from: from, to: to, now: sim.now)
                return
            }
            router.routeTaken(by: FlowSide.sender(of: d), route: r)
            guard router.canForward(from: r[0], to: r[1]) else {
                // The route names a neighbour no longer in the session: the datagram is lost
                // before IP sends it (as a relay loses a packet, `forward`), and the link is
                // reported broken (classic DSR sends a route error).
                router.linkBroke(route: r, at: r[0], next: r[1], flow: d.flow)
                return
            }
            fragments = ip.send(
                d, from: from, to: to, route: r, overhead: router.encapsulationBytes(pathNodes: r.count), now: sim.now)
        } else {
            fragments = ip.send(d, from: from, to: to, now: sim.now)
        }
        for i in 0..<fragments.count {
            let p = fragments.packet(i)
            if trace != nil { recordTrace(p, at: from, now: sim.now) }
            if link.send(p, sim: &sim) { interface.enqueued(Int(from)) } else { ip.dropped(tag: p.tag) }
        }
    }

    /// Takes what `side`'s socket wrote into `outboxScratch` (empty before; the caller empties
    /// it again, keeping its storage).
    @inline(__always)
    mutating func takeOutbox(of side: FlowSide, sim: inout Simulation) {
        var take = SocketOp.TakeOutbox(scratch: [])
        swap(&take.scratch, &outboxScratch)
        sockets.with(side, &take, app: &flows[side.flow].app, queue: &queues[side.index], sim: &sim)
        swap(&outboxScratch, &take.scratch)
    }

    /// Moves a TCP or QUIC endpoint's outbox into its side's backlog and sends what the link's
    /// transmit queue can take. Like Linux's qdisc back-pressure and Darwin's interface flow
    /// advisory, a full transmit queue holds TCP and QUIC packets back instead of dropping them.
    mutating func flush<L: LinkTechnology, R: IpRouting>(
        _ side: FlowSide, link: inout L, router: inout R, sim: inout Simulation
    ) {
        if sockets.isDatagram(side) {
            sendDatagrams(side, link: &link, router: &router, sim: &sim)
            return
        }
        takeOutbox(of: side, sim: &sim)
        backlogOutbox(side, link: &link, router: &router, sim: &sim)
    }

    /// The outbox just taken (`outboxScratch`) joins `side`'s backlog, which then drains.
    @inline(__always)
    mutating func backlogOutbox<L: LinkTechnology, R: IpRouting>(
        _ side: FlowSide, link: inout L, router: inout R, sim: inout Simulation
    ) {
        if !outboxScratch.isEmpty {
            backlog[side.index].append(contentsOf: outboxScratch)
            outboxScratch.removeAll(keepingCapacity: true)
        }
        drainBacklog(side, link: &link, router: &router, sim: &sim)
    }

    /// Sends backlogged datagrams of a flow side while the link has room for all their fragments.
    mutating func drainBacklog<L: LinkTechnology, R: IpRouting>(
        _ side: FlowSide, link: inout L, router: inout R, sim: inout Simulation
    ) {
        let from = flows[side.flow].node(of: side), to = flows[side.flow].node(of: side.peer)
        let s = side.index
        while let d = backlog[s].first, !interface.paused[Int(from)] {
            guard link.queueRoom(of: Int(from)) >= ip.fragmentCount(flow: side.flow, transportBytes: d.transportBytes)
            else { break }
            // FQ-CoDel may pause the sender: the packet is queued, the ones behind it wait.
            _ = interface.admit(Int(from), flowControlled: true)
            queues[s].processPacket(at: sim.now)
            if d.kind == .udp { queues[s].datagramLeftSendBuffer(bytes: Int64(d.payload)) }
            sendDown(d, from: from, to: to, link: &link, router: &router, sim: &sim)
            backlog[s].removeFirst()
        }
    }

    /// Hands the datagrams a UDP socket wrote to IP at once (UDP keeps no send buffer).
    mutating func sendDatagrams<L: LinkTechnology, R: IpRouting>(
        _ side: FlowSide, link: inout L, router: inout R, sim: inout Simulation
    ) {
        takeOutbox(of: side, sim: &sim)
        guard !outboxScratch.isEmpty else { return }
        let from = flows[side.flow].node(of: side), to = flows[side.flow].node(of: side.peer)
        for d in outboxScratch {
            queues[side.index].processPacket(at: sim.now)
            sendDown(d, from: from, to: to, link: &link, router: &router, sim: &sim)
        }
        outboxScratch.removeAll(keepingCapacity: true)
    }

    /// The client submits its next write if one is due, then every served send goes out.
    mutating func pump<L: LinkTechnology, R: IpRouting>(_ k: Int, link: inout L, router: inout R, sim: inout Simulation)
    {
        let c = FlowSide.client(k)
        flows[k].app.submitNext(&queues[c.index], now: sim.now)
        release(c, link: &link, router: &router, sim: &sim)
    }

    /// Hands every send of `side` whose service ended to its socket, in order, while the
    /// transport takes it: TCP and QUIC while the send buffer has room; UDP at once into the
    /// connection's send buffer, which keeps the datagram if it fits and loses it otherwise
    /// (`ConnectionQueue`, "send buffer"), or, with no send buffer (`host.udpSendBufferBytes`
    /// 0), while the interface queue has room for the datagram's fragments (the sender waits).
    /// A completed transfer write lets the client submit the next one. Then sends what the
    /// socket produced and arranges to wake when the next send's service ends.
    mutating func release<L: LinkTechnology, R: IpRouting>(
        _ side: FlowSide, link: inout L, router: inout R, sim: inout Simulation
    ) {
        let k = side.flow, s = side.index
        if !sockets.isDatagram(side) {
            apply(SocketOp.ReleaseWrites(isClient: side.isClient), to: side, sim: &sim)
            flush(side, link: &link, router: &router, sim: &sim)
        } else {
            while let w = queues[s].first, w.readyAt <= sim.now {
                guard Int(w.bytes) <= udpLimit else {
                    flows[k].app.failure = "datagram-too-large (\(w.bytes) > transport.maxDatagramBytes \(udpLimit))"
                    queues[s].removeFirst()
                    break
                }
                let from = Int(flows[k].node(of: side))
                if queues[s].udpSendBuffer > 0 {
                    // Into Network.framework's send buffer if it fits, else lost; the send
                    // completes either way (ConnectionQueue, "send buffer").
                    if queues[s].bufferDatagram(bytes: w.bytes) {
                        apply(SocketOp.Write(message: w.message, bytes: w.bytes), to: side, sim: &sim)
                        takeOutbox(of: side, sim: &sim)
                        backlog[s].append(contentsOf: outboxScratch)
                        outboxScratch.removeAll(keepingCapacity: true)
                        drainBacklog(side, link: &link, router: &router, sim: &sim)
                    }
                } else {
                    // No send buffer: the sender waits for interface room.
                    guard !interface.paused[from],
                        link.queueRoom(of: from) >= ip.fragmentCount(flow: k, transportBytes: Int(w.bytes) + 8)
                    else { break }
                    // FQ-CoDel may drop the datagram at enqueue; the send completes either way.
                    if interface.admit(from, flowControlled: false) == .accept {
                        apply(SocketOp.Write(message: w.message, bytes: w.bytes), to: side, sim: &sim)
                        sendDatagrams(side, link: &link, router: &router, sim: &sim)
                    }
                }
                queues[s].removeFirst()
                if w.awaited {
                    flows[k].app.wrote(w.bytes, now: sim.now, datagram: true)
                    flows[k].app.submitNext(&queues[s], now: sim.now)
                }
            }
        }
        wakeForNextSend(s, sim: &sim)
        if hasRounds && side.isClient { startNextInTurn(after: k, sim: &sim) }
    }

    /// Side `s` wakes when its next send's service ends, unless it already wakes by then.
    @inline(__always)
    mutating func wakeForNextSend(_ s: Int, sim: inout Simulation) {
        if let w = queues[s].first, w.readyAt > sim.now, queues[s].wakeAt.map({ $0 > w.readyAt }) ?? true {
            queues[s].wakeAt = w.readyAt
            sim.schedule(at: w.readyAt, target: UInt32(s), kind: .hostWake)
        }
    }

    /// The served sends of a TCP or QUIC side go to its socket while the send buffer takes them
    /// (the client's only once the socket accepts writes; the server answers on a connection
    /// whose data already arrived, as QUIC's 0.5-RTT data does).
    static func releaseWrites<S: FlowSocket>(
        _ q: inout ConnectionQueue, _ app: inout FlowApplication, _ socket: inout S, isClient: Bool = true,
        now: SimTime, sim: inout Simulation
    ) {
        while let w = q.first, w.readyAt <= now, !isClient || socket.acceptsWrites, socket.hasRoom(for: w.bytes) {
            socket.write(message: w.message, bytes: w.bytes, sim: &sim)
            q.removeFirst()
            if w.awaited {
                app.wrote(w.bytes, now: now, datagram: false)
                app.submitNext(&q, now: now)
            }
        }
    }

    /// Freezes the flow's IP packet counts once every transfer byte reached the server.
    mutating func snapshotIfComplete(_ k: Int) {
        guard flows[k].reportSnapshot == nil, flows[k].app.writes != .max,
            flows[k].app.writesDone == flows[k].app.writes,
            flows[k].app.bytesDelivered >= flows[k].app.bytesSent
        else { return }
        let (c, s) = (FlowSide.client(k).index, FlowSide.server(k).index)
        flows[k].reportSnapshot = (
            ip.counters[c].packetsSent, ip.counters[c].packetsReceived, ip.counters[s].packetsSent,
            ip.counters[s].packetsReceived
        )
    }
}

// World layer: builds one run from a `Scenario` and owns its state while it runs.
//
// The world holds every node in dense arrays indexed by node number (names are resolved once,
// here), builds each layer's model, and is the `EventHandler` the core's loop calls: it
// dispatches on `EventKind` with a `switch` to the layer that owns the kind, and carries
// what one layer reports (link notices) to the layer above. It depends on the scenario's
// validated values and on the layers; the metrics recorders read it when the run ends.

extension EventKind {
    /// Moving nodes' positions are sampled into the channel (target: unused).
    public static let mobilityTick = EventKind(rawValue: 220)
    /// A scripted node event (target: index into `Scenario.events`).
    public static let nodeEvent = EventKind(rawValue: 221)
}

/// The nodes of a run: where each is, as a function of time.
///
/// Every node has a trajectory: `(time, position)` points with linear movement between them
/// (one point for a node that stands still). Random-waypoint trajectories are drawn at build
/// time from the node's own stream (`node:<i>/mobility`), so they depend only on the seed.
public struct NodeTable: Sendable {
    /// Node names, by index.
    public let ids: [String]
    var trajectories: [[(time: SimTime, position: Position)]]
    /// Whether any node moves (or may be moved by an event).
    public let anyMobile: Bool
    /// Per node: it moves.
    public let mobile: [Bool]

    /// The nodes of `scenario`, in file order. With `distance_m`, the second node stands that
    /// far from the first along x (same height); `"max"` resolves to the maximum range.
    public init(_ scenario: Scenario) {
        ids = scenario.nodes.map(\.id)
        var positions = scenario.nodes.map(\.position)
        if let d = NodeTable.resolvedDistance(scenario) {
            let a = positions[0]
            positions[1] = Position(x: a.x + d, y: a.y, z: a.z)
        }
        var trajectories: [[(time: SimTime, position: Position)]] = []
        for (i, node) in scenario.nodes.enumerated() {
            switch node.mobility {
            case nil:
                trajectories.append([(.zero, positions[i])])
            case .waypoints(let w)?:
                trajectories.append(w)
            case .randomWaypoint(let speed, let pause, let area)?:
                var stream = RandomStream(seed: scenario.seed, name: "node:\(i)/mobility")
                var t = 0.0
                var here = positions[i]
                var points: [(time: SimTime, position: Position)] = [(.zero, here)]
                while t < scenario.duration.inSeconds {
                    let target = Position(x: stream.uniform(area.x.lowerBound, area.x.upperBound),
                                          y: stream.uniform(area.y.lowerBound, area.y.upperBound), z: here.z)
                    t += here.distance(to: target) / stream.uniform(speed.lowerBound, speed.upperBound)
                    points.append((.seconds(Swift.min(t, 2e6)), target))
                    t += stream.uniform(pause.lowerBound, pause.upperBound)
                    points.append((.seconds(Swift.min(t, 2e6)), target))
                    here = target
                }
                trajectories.append(points)
            }
        }
        self.trajectories = trajectories
        let moves = Set(scenario.events.filter { $0.action == .move }.map(\.node))
        mobile = trajectories.indices.map { trajectories[$0].count > 1 || moves.contains($0) }
        anyMobile = mobile.contains(true)
    }

    /// The distance `distance_m` asks for, in metres, or `nil`.
    public static func resolvedDistance(_ scenario: Scenario) -> Double? {
        switch scenario.distance {
        case nil: return nil
        case .metres(let d)?: return d
        case .max?: return MaximumRange(scenario).metres
        }
    }

    /// The number of nodes.
    public var count: Int { ids.count }

    /// Where node `index` is at `time`: linear between the trajectory's points.
    public func position(of index: Int, at time: SimTime) -> Position {
        let path = trajectories[index]
        var lo = 0, hi = path.count - 1
        if time <= path[0].time { return path[0].position }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if path[mid].time <= time { lo = mid } else { hi = mid - 1 }
        }
        guard lo + 1 < path.count else { return path[lo].position }
        let a = path[lo], b = path[lo + 1]
        let f = Double((time - a.time).nanoseconds) / Double((b.time - a.time).nanoseconds)
        return Position(x: a.position.x + f * (b.position.x - a.position.x), y: a.position.y + f * (b.position.y - a.position.y),
                        z: a.position.z + f * (b.position.z - a.position.z))
    }

    /// Node `index` jumps to `position` at `time` and stays there.
    public mutating func teleport(_ index: Int, to position: Position, at time: SimTime) {
        let here = self.position(of: index, at: time)
        trajectories[index] = trajectories[index].filter { $0.time < time } + [(time, here), (time, position)]
    }
}

/// The state of one run and the handler of its events.
public struct World: EventHandler {
    /// The nodes.
    public var nodes: NodeTable
    /// The scripted events.
    let events: [NodeEvent]
    /// How often moving nodes' positions are sampled into the channel: 100 ms (assumption:
    /// a walking phone moves 15 cm in that time).
    public static let mobilityInterval = SimTime.milliseconds(100)
    /// The radio, resolved.
    public let radio: RadioConfiguration
    /// The place, resolved.
    public let place: PlaceParameters
    /// The 802.11 MAC and channel (`awdl`, `wifi`), if used.
    public var wireless: WirelessLink?
    /// The ideal link, if used.
    public var ideal: IdealLink?
    /// Link-layer traffic generators.
    public var traffic: LinkTraffic
    /// IP of the flows.
    public var ip: IpLayer
    /// The flows.
    public var flows: [FlowRuntime]
    /// The UDP datagram limit, bytes (`transport.maxDatagramBytes`; Darwin's 9216 by default,
    /// radio.md "Limits of peer-to-peer on phones").
    public let udpLimit: Int
    var linkScratch: [LinkPacket] = []
    /// Per flow side (2·flow + 0 client, 1 server): datagrams waiting for transmit-queue room.
    /// MAdHoc's mesh, when the scenario has a `mesh` section.
    public var mesh: MeshNetwork?
    /// Packet traces, when `run --pcap` asked for them.
    public var trace: PacketTrace?
    var backlog: [[Datagram]]
    var backlogHead: [Int]

    /// Builds the world of `scenario` and schedules its initial events into `sim`.
    public init(_ scenario: Scenario, sim: inout Simulation) {
        nodes = NodeTable(scenario)
        events = scenario.events
        radio = RadioConfiguration(scenario.radio)
        place = PlaceParameters.resolve(scenario.environment, frequencyHz: radio.frequencyHz)
        switch radio.technology {
        case .ideal:
            ideal = IdealLink(scenario.link, nodeCount: nodes.count, sim: sim)
        case .awdl, .wifi:
            var mac = MacParameters(is24GHz: radio.phy.is24GHz)
            if let a = scenario.mac.aggregation { mac.aggregation = a }
            if let q = scenario.mac.queuePackets { mac.queueLimit = q }
            let table = nodes
            let start = (0..<table.count).map { table.position(of: $0, at: .zero) }
            let channel = WirelessChannel(place: place, radio: radio, positions: start, seed: sim.seed)
            var schedule: AwdlSchedule?
            if radio.technology == .awdl {
                let fallback = scenario.radio.awdlSlots ?? AwdlSchedule.defaultOccupancy
                schedule = AwdlSchedule(occupancy: scenario.nodes.map { $0.awdlSlots ?? fallback }, dataChannelIs6: radio.channel == .ch6)
            }
            wireless = WirelessLink(channel: channel, mac: mac, awdl: schedule, sim: &sim)
        }
        traffic = LinkTraffic(scenario.traffic, sim: &sim)
        ip = IpLayer(version: scenario.transport.ipVersion ?? .ipv6, mtu: World.mtu(radio.technology), flows: scenario.flows.count)
        udpLimit = scenario.transport.maxDatagramBytes ?? 9216
        backlog = Array(repeating: [], count: 2 * scenario.flows.count)
        backlogHead = Array(repeating: 0, count: 2 * scenario.flows.count)
        flows = World.makeFlows(scenario, ip: ip, sim: &sim)
        for (k, e) in scenario.events.enumerated() {
            sim.schedule(at: e.time, target: UInt32(k), kind: .nodeEvent)
            if e.action == .join { wireless?.setDown(e.node, sim: &sim) }
        }
        if nodes.anyMobile && wireless != nil { sim.schedule(at: World.mobilityInterval, target: 0, kind: .mobilityTick) }
        if let m = scenario.mesh, wireless != nil {
            mesh = MeshNetwork(nodes: nodes.count, config: MeshConfig(m), workloads: m.messages, sim: &sim)
        }
    }

    /// Hands a packet to the run's link technology.
    mutating func send(_ packet: LinkPacket, sim: inout Simulation) -> Bool {
        if wireless != nil { return wireless!.send(packet, sim: &sim) }
        return ideal!.send(packet, sim: &sim)
    }

    /// Dispatches an event to the layer that owns its kind.
    public mutating func handle(_ event: Event, in sim: inout Simulation) {
        switch event.kind {
        case .macAccess, .macTxEnd, .macAckTimeout, .macRespond:
            wireless!.handle(event, in: &sim)
        case .idealTxEnd, .idealArrival:
            ideal!.handle(event, in: &sim)
        case .trafficStart, .broadcastTick:
            traffic.handle(event, in: &sim)
        case .meshSessions:
            mesh!.updateSessions(link: &wireless!, now: sim.now)
            sim.schedule(after: mesh!.config.sessionInterval, target: 0, kind: .meshSessions)
        case .meshHeartbeat:
            let i = Int(event.target)
            mesh!.heartbeat(i, sim: &sim, down: wireless!.isDown(i))
        case .meshMessage:
            let w = Int(event.target)
            mesh!.messageDue(w, Int(event.arg), senderDown: wireless!.isDown(mesh!.ledger.workloads[w].from), sim: &sim)
        case .meshConfirmTimeout:
            let w = Int(event.target)
            mesh!.confirmTimedOut(w, Int(event.arg >> 16), number: Int(event.arg & 0xFFFF),
                                  senderDown: wireless!.isDown(mesh!.ledger.workloads[w].from), sim: &sim)
        case .meshRequestTimeout:
            let from = Int(event.target)
            mesh!.requestTimedOut(from: from, to: Int(event.arg >> 16), retries: Int(event.arg & 0xFFFF), down: wireless!.isDown(from), sim: &sim)
        case .mobilityTick:
            for i in 0..<nodes.count where nodes.mobile[i] {
                wireless!.setPosition(i, nodes.position(of: i, at: sim.now))
            }
            sim.schedule(after: World.mobilityInterval, target: 0, kind: .mobilityTick)
        case .nodeEvent:
            let e = events[Int(event.target)]
            switch e.action {
            case .fail:
                wireless?.setDown(e.node, sim: &sim)
                if let link = wireless { mesh?.nodeFailed(e.node, now: sim.now, isDown: link.isDown) }
            case .recover, .join:
                wireless?.setUp(e.node, sim: &sim)
            case .move:
                nodes.teleport(e.node, to: e.position!, at: sim.now)
                wireless?.setPosition(e.node, e.position!)
            }
        case .flowStart, .probeTimeout, .cbrTick, .tcpRetransmit, .tcpDelayedAck, .tcpKeepalive, .quicLossDetection, .quicAckDelay:
            handleFlowEvent(event, sim: &sim)
        default:
            preconditionFailure("no layer owns event kind \(event.kind.rawValue)")
        }
        drainNotices(sim: &sim)
    }

    /// Appends one IP packet to `node`'s trace.
    mutating func recordTrace(_ p: LinkPacket, at node: UInt32, sim: borrowing Simulation) {
        let f = ip.fragment(p.tag)
        trace!.record(node: node, time: sim.now, datagram: f.datagram, src: p.source, dst: p.destination,
                      index: f.index, count: f.count, id: f.id, fragmentPayload: ip.fragmentPayload)
    }

    /// Carries link notices up and traffic packets down until neither has anything left
    /// (a delivery may cause a send, a send may cause a drop notice). Buffers are reused.
    mutating func drainNotices(sim: inout Simulation) {
        while true {
            var batch: [LinkNotice]
            if wireless != nil {
                batch = wireless!.notices
                wireless!.notices = []
            } else {
                batch = ideal!.notices
                ideal!.notices = []
            }
            var unblock = false
            for n in batch {
                if n.packet.tag & IpLayer.tagBit == 0 && n.packet.tag & MeshNetwork.tagBit != 0 {
                    switch n.kind {
                    case .delivered: mesh?.delivered(n.packet, at: Int(n.node), now: sim.now, down: wireless?.isDown(Int(n.node)) ?? false)
                    case .senderDone: mesh?.released(n.packet)
                    case .dropped:
                        mesh?.linkDropped(n.packet, now: sim.now)
                        mesh?.released(n.packet)
                    }
                } else if n.packet.tag & IpLayer.tagBit != 0 {
                    switch n.kind {
                    case .delivered:
                        if trace != nil { recordTrace(n.packet, at: n.packet.destination, sim: sim) }
                        if let d = ip.delivered(tag: n.packet.tag, bytes: n.packet.bytes) { deliver(d, sim: &sim) }
                    case .dropped:
                        ip.dropped(tag: n.packet.tag)
                        unblock = true
                    case .senderDone:
                        unblock = true
                    }
                } else {
                    traffic.notice(n, now: sim.now)
                }
            }
            // Queue room freed: backlogged TCP/QUIC packets and blocked UDP writers may continue.
            if unblock {
                for side in backlog.indices where backlogHead[side] < backlog[side].count { drainBacklog(side, sim: &sim) }
                for k in flows.indices where flows[k].transport == .udp && flows[k].app.wantsWrite { pump(k, sim: &sim) }
            }
            batch.removeAll(keepingCapacity: true)
            if wireless != nil { wireless!.notices = batch } else { ideal!.notices = batch }
            if mesh != nil && !mesh!.outbox.isEmpty {
                let out = mesh!.outbox
                mesh!.outbox.removeAll(keepingCapacity: true)
                for p in out where !send(p, sim: &sim) { mesh!.released(p) }
                continue
            }
            if traffic.outbox.isEmpty { return }
            var out = traffic.outbox
            traffic.outbox = []
            for p in out { traffic.recordSend(p, accepted: send(p, sim: &sim)) }
            out.removeAll(keepingCapacity: true)
            if traffic.outbox.isEmpty {
                traffic.outbox = out
                let pending = wireless != nil ? !wireless!.notices.isEmpty : !ideal!.notices.isEmpty
                if !pending { return }
            }
        }
    }
}

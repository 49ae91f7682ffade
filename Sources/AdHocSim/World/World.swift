// World layer: builds one run from a `Scenario` and owns its state while it runs.
//
// The world holds every node in dense arrays indexed by node number (names are resolved once,
// here), builds each layer's model, and is the `EventHandler` the core's loop calls: it
// dispatches on `EventKind` with a `switch` to the layer that owns the kind, and carries
// what one layer reports (link notices) to the layer above. It depends on the scenario's
// validated values and on the layers; the metrics recorders read it when the run ends.

/// The nodes of a run: positions by dense index.
///
/// Positions are read through `position(of:at:)`, a function of time, so that mobility can
/// replace the static table without touching its callers.
public struct NodeTable: Sendable {
    /// Node names, by index.
    public let ids: [String]
    let positions: [Position]

    /// The nodes of `scenario`, in file order. With `distance_m`, the second node stands that
    /// far from the first along x (same height); `"max"` resolves to the maximum range.
    public init(_ scenario: Scenario) {
        ids = scenario.nodes.map(\.id)
        var positions = scenario.nodes.map(\.position)
        if let d = NodeTable.resolvedDistance(scenario) {
            let a = positions[0]
            positions[1] = Position(x: a.x + d, y: a.y, z: a.z)
        }
        self.positions = positions
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

    /// Where node `index` is at `time` (static in this version).
    public func position(of index: Int, at time: SimTime) -> Position { positions[index] }
}

/// The state of one run and the handler of its events.
public struct World: EventHandler {
    /// The nodes.
    public let nodes: NodeTable
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
    /// Packet traces, when `run --pcap` asked for them.
    public var trace: PacketTrace?
    var backlog: [[Datagram]]
    var backlogHead: [Int]

    /// Builds the world of `scenario` and schedules its initial events into `sim`.
    public init(_ scenario: Scenario, sim: inout Simulation) {
        nodes = NodeTable(scenario)
        radio = RadioConfiguration(scenario.radio)
        place = PlaceParameters.resolve(scenario.environment, frequencyHz: radio.frequencyHz)
        switch radio.technology {
        case .ideal:
            ideal = IdealLink(scenario.link, nodeCount: nodes.count, sim: sim)
        case .awdl, .wifi:
            var mac = MacParameters(is24GHz: radio.phy.is24GHz)
            if let a = scenario.mac.aggregation { mac.aggregation = a }
            if let q = scenario.mac.queuePackets { mac.queueLimit = q }
            let channel = WirelessChannel(place: place, radio: radio, positions: nodes.positions, seed: sim.seed)
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
                if n.packet.tag & IpLayer.tagBit != 0 {
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

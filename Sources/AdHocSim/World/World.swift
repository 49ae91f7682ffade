// The simulated world of one run: the nodes, their link, the hosts and the optional layers
// (`Layers`), and the one `switch` that routes every event to the layer that owns it.

extension EventKind {
    /// Moving nodes' positions are sampled into the channel (target: unused).
    public static let mobilityTick = EventKind(rawValue: 220)
    /// A scripted node event (target: index into `Scenario.events`).
    public static let nodeEvent = EventKind(rawValue: 221)
}

/// The state of one run and the handler of its events, over the link technology `Link`.
///
/// Generic over the link so every call into it is statically dispatched (`World<WirelessLink>`
/// for `awdl` and `wifi`, `World<IdealLink>` for `ideal`; `ScenarioRunner.withWorld` picks).
/// An event is routed by its kind's block (`EventBlock`) to the layer that owns it, which
/// decodes its own arguments; afterwards the link's notices are carried to the layer that owns
/// each packet (`LinkPacket.owner`).
public struct World<Link: LinkTechnology>: EventHandler {
    /// The nodes.
    public var nodes: NodeTable
    /// The scripted events.
    let events: [NodeEvent]
    /// The radio, resolved.
    public let radio: RadioConfiguration
    /// The place, resolved.
    public let place: PlaceParameters
    /// The link technology of every node.
    public var link: Link
    /// Link-layer traffic generators.
    public var traffic: LinkTraffic
    /// The flows' hosts: IP, sockets, applications and send backlogs.
    public var hosts: HostStack
    /// The optional layers above the link, registered in one list (`Layers`).
    public var layers: Layers
    /// What `adhocsim view` plays back, when the run records it (`nil`: one branch per layer
    /// frame, nothing else).
    public var timeline: TimelineRecorder?

    /// Builds the world of `scenario` and schedules its initial events into `sim`.
    public init(_ scenario: Scenario, sim: inout Simulation) {
        nodes = NodeTable(scenario)
        events = scenario.events
        radio = RadioConfiguration(scenario.radio)
        place = PlaceParameters.resolve(scenario.environment, frequencyHz: radio.frequencyHz)
        let table = nodes
        link = Link(
            scenario, radio: radio, place: place,
            positions: (0..<table.count).map { table.position(of: $0, at: .zero) },
            sim: &sim)
        traffic = LinkTraffic(scenario.traffic, sim: &sim)
        hosts = HostStack(scenario, mtu: link.mtu, ipReserve: Layers.ipReserve(scenario), sim: &sim)
        for (k, e) in scenario.events.enumerated() {
            sim.schedule(at: e.time, target: UInt32(k), kind: .nodeEvent)
            if e.action == .join { link.setDown(e.node, sim: &sim) }
        }
        if nodes.anyMobile && Link.hasRadio {
            sim.schedule(at: NodeTable.samplingInterval, target: 0, kind: .mobilityTick)
        }
        layers = Layers(scenario, nodes: table, hasRadio: Link.hasRadio, sim: &sim)
    }

    /// Routes an event to the layer that owns its kind, then carries the link's notices up.
    public mutating func handle(_ event: Event, in sim: inout Simulation) {
        switch event.kind.block {
        case .link: link.handle(event, in: &sim)
        case .linkTraffic: traffic.handle(event, in: &sim)
        case .application, .transport: layers.handleHostEvent(event, hosts: &hosts, link: &link, sim: &sim)
        case .world: handleWorldEvent(event, sim: &sim)
        default: layers.handle(event, link: &link, sim: &sim)
        }
        drainNotices(sim: &sim)
    }

    /// The world's own events: mobility sampling and scripted node events.
    mutating func handleWorldEvent(_ event: Event, sim: inout Simulation) {
        switch event.kind {
        case .mobilityTick:
            for i in 0..<nodes.count where nodes.mobile[i] {
                link.setPosition(i, nodes.position(of: i, at: sim.now))
            }
            sim.schedule(after: NodeTable.samplingInterval, target: 0, kind: .mobilityTick)
        case .nodeEvent:
            let e = events[Int(event.target)]
            switch e.action {
            case .fail:
                link.setDown(e.node, sim: &sim)
                layers.nodeFailed(e.node, link: link, now: sim.now)
            case .recover, .join:
                link.setUp(e.node, sim: &sim)
                layers.nodeReturned(e.node, joined: e.action == .join, sim: &sim)
            case .move:
                // The decoder gives every move a position.
                guard let to = e.position else { break }
                nodes.teleport(e.node, to: to, at: sim.now)
                link.setPosition(e.node, to)
                layers.nodesMoved(nodes)
            case .disconnect, .stopAdvertising, .startAdvertising, .stopBrowsing, .startBrowsing, .bluetoothOff,
                .bluetoothOn:
                layers.appCalled(e.action, at: e.node, sim: &sim)
            }
        default:
            preconditionFailure("not a world event")
        }
    }

    /// Carries link notices up and traffic packets down until neither has anything left
    /// (a delivery may cause a send, a send may cause a drop notice). Buffers are reused.
    mutating func drainNotices(sim: inout Simulation) {
        while true {
            var batch = link.notices
            link.notices = []
            var unblock = false
            var k = 0
            while k < batch.count {
                let n = batch[k]
                k += 1
                switch n.packet.owner {
                case .ip:
                    if layers.ipNotice(n, hosts: &hosts, link: &link, sim: &sim) { unblock = true }
                case .bonjour:
                    layers.bonjourNotice(n, hosts: &hosts, link: &link, sim: &sim)
                    // A Bonjour frame the sender is done with freed transmit-queue room too.
                    if n.kind != .delivered { unblock = true }
                case .linkTraffic:
                    guard n.kind == .delivered else {
                        traffic.notice(n, now: sim.now)
                        continue
                    }
                    // A broadcast's deliveries come in a run: counted together.
                    var last = k
                    while last < batch.count && batch[last].kind == .delivered && batch[last].packet == n.packet {
                        last += 1
                    }
                    traffic.delivered(n.packet, count: last - k + 1, now: sim.now)
                    k = last
                default:
                    // A frame of a layer above the link (`Layers`).
                    layers.notice(n, link: &link, sim: &sim)
                }
            }
            // Queue room freed: backlogged TCP/QUIC packets and blocked UDP writers may continue.
            if unblock { layers.queueRoomFreed(hosts: &hosts, link: &link, sim: &sim) }
            batch.removeAll(keepingCapacity: true)
            link.notices = batch
            if layers.afterNotices(hosts: &hosts, link: &link, timeline: timeline, sim: &sim) { continue }
            if traffic.outbox.isEmpty { return }
            var out = traffic.outbox
            traffic.outbox = []
            for p in out { traffic.recordSend(p, accepted: link.send(p, sim: &sim)) }
            out.removeAll(keepingCapacity: true)
            if traffic.outbox.isEmpty {
                traffic.outbox = out
                if link.notices.isEmpty { return }
            }
        }
    }
}

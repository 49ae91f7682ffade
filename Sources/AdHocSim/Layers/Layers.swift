/// The optional layers above the link of one run, in the order of every hook: MAdHoc's mesh
/// (`Mesh/`, with Multipeer's session layer beneath it) and Bluetooth LE (`Bluetooth/`). Each is
/// a plain optional field, `nil` when the scenario does not run it, and each hook below calls the
/// present layers one line each. `World` reaches the layers only through these hooks. Every call
/// is static: the fields have concrete types.
public struct Layers {
    /// MAdHoc's mesh, when the scenario has a `mesh` section (and a radio).
    public internal(set) var mesh: MeshNetwork?
    /// Bluetooth LE advertising and scanning, when the scenario has a `ble` section.
    public internal(set) var ble: BleNetwork?

    /// Bytes each link frame of an IP flow leaves for the layers' headers (the mesh's header and
    /// the longest route it may carry); 0 without a layer that carries IP.
    static func ipReserve(_ scenario: Scenario) -> Int {
        (scenario.mesh.map(MeshNetwork.ipReserve) ?? 0) + (scenario.ble.map(BleNetwork.ipReserve) ?? 0)
    }

    /// The layers `scenario` asks for, their first events scheduled into `sim` in this order;
    /// phones that join later start down.
    init(_ scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation) {
        mesh = scenario.mesh.flatMap {
            MeshNetwork.start($0, scenario: scenario, nodes: nodes, hasRadio: hasRadio, sim: &sim)
        }
        ble = scenario.ble.flatMap {
            BleNetwork.start($0, scenario: scenario, nodes: nodes, hasRadio: hasRadio, sim: &sim)
        }
    }

    /// The blocks of event kinds each layer claims, by name, inside the core's range for the
    /// layers (`EventBlock.layer`, 230–299). The numbers enter every run's event fingerprint, so
    /// a layer keeps the blocks it was given; a new layer claims free ones, and
    /// `LayerRegistryTests` checks that no two claims overlap and that each layer's kinds lie in
    /// its own blocks.
    static var eventBlocks: [(layer: String, blocks: [Range<UInt16>])] {
        MeshNetwork.eventClaims + BleNetwork.eventClaims
    }

    /// An event of a layer's block (only the layers schedule them, so the layer exists then).
    mutating func handle<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        // Optional chaining mutates a layer in place: copying it out and back would copy its
        // arrays on the next write.
        if MeshNetwork.handles(event.kind) {
            mesh?.handleEvent(event, link: &link, sim: &sim)
        } else if BleNetwork.handles(event.kind) {
            ble?.handleEvent(event, link: &link, sim: &sim)
        } else {
            preconditionFailure("no layer owns event kind \(event.kind.rawValue)")
        }
    }

    /// An application or transport event for the hosts, with the layers as their IP router.
    /// This hook and the three below are `mutating` only to hand `self` to the hosts by address
    /// (`HostStack.handle`); the hosts read the router and never change it.
    mutating func handleHostEvent<L: LinkTechnology>(
        _ event: Event, hosts: inout HostStack, link: inout L, sim: inout Simulation
    ) {
        hosts.handle(event, link: &link, router: &self, sim: &sim)
    }

    /// Node `node` failed (its link already down).
    mutating func nodeFailed<L: LinkTechnology>(_ node: Int, link: L, now: SimTime) {
        mesh?.nodeWentDown(node, link: link, now: now)
        ble?.nodeWentDown(node, link: link, now: now)
    }

    /// Node `node` recovered or joined (its link already up).
    mutating func nodeReturned(_ node: Int, joined: Bool, sim: inout Simulation) {
        mesh?.nodeCameUp(node, joined: joined, sim: &sim)
        ble?.nodeCameUp(node, joined: joined, sim: &sim)
    }

    /// A node was moved (scripted `move`).
    mutating func nodesMoved(_ nodes: NodeTable) {
        mesh?.nodesMoved(nodes)
        ble?.nodesMoved(nodes)
    }

    /// A link notice about a frame a layer owns (`LinkPacket.owner`): only the mesh sends
    /// frames over the link (Bluetooth LE has its own radio, `BleMedium`).
    mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation) {
        if n.packet.owner == .mesh { mesh?.notice(n, link: &link, sim: &sim) }
    }

    /// A link notice about an IP packet for the hosts, routed by the layers: whether it freed
    /// transmit-queue room.
    mutating func ipNotice<L: LinkTechnology>(
        _ n: LinkNotice, hosts: inout HostStack, link: inout L, sim: inout Simulation
    ) -> Bool {
        hosts.notice(n, link: &link, router: &self, sim: &sim)
    }

    /// A Bonjour frame of a flow's apps finding each other, for the hosts.
    mutating func bonjourNotice<L: LinkTechnology>(
        _ n: LinkNotice, hosts: inout HostStack, link: inout L, sim: inout Simulation
    ) {
        hosts.bonjourNotice(n, link: &link, router: &self, sim: &sim)
    }

    /// Transmit-queue room was freed: the hosts' backlogs and blocked senders may continue.
    mutating func queueRoomFreed<L: LinkTechnology>(hosts: inout HostStack, link: inout L, sim: inout Simulation) {
        hosts.queueRoomFreed(link: &link, router: &self, sim: &sim)
    }

    /// After a batch of notices, each layer's own sending (the mesh: IP across it, its held
    /// frames, then its outbox). Whether any sent frames (the link may have new notices).
    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool {
        let meshSent = mesh?.afterNotices(hosts: &hosts, link: &link, timeline: timeline, sim: &sim) == true
        let bleSent = ble?.afterNotices(hosts: &hosts, link: &link, timeline: timeline, sim: &sim) == true
        return meshSent || bleSent
    }

    /// What the layers measured by `end`, for the run's report.
    func report(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> LayerReports {
        LayerReports(
            mesh: mesh.map { $0.measure(scenario: scenario, hosts: hosts, nodes: nodes, end: end) },
            ble: ble.map { $0.measure(scenario: scenario, hosts: hosts, nodes: nodes, end: end) })
    }

    /// A scripted call of the phone's app (`disconnect`, advertising or browsing stopped or
    /// started), for the layer that owns it.
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {
        mesh?.appCalled(action, at: node, sim: &sim)
        ble?.appCalled(action, at: node, sim: &sim)
    }
}

/// The hosts' IP router: the mesh, the one layer that carries IP. Without it the hosts know no
/// routes: no flow crosses phones that are not neighbours on the link.
extension Layers: IpRouting {
    public func sourceRoute(from: Int, to: Int, at now: SimTime) -> [Int]? {
        mesh?.sourceRoute(from: from, to: to, at: now)
    }
    public func canForward(from a: Int, to b: Int) -> Bool { mesh?.canForward(from: a, to: b) ?? false }
    public func encapsulationBytes(pathNodes: Int) -> Int { mesh?.encapsulationBytes(pathNodes: pathNodes) ?? 0 }
    public var maxPathNodes: Int { mesh?.maxPathNodes ?? 0 }
    public mutating func awaitRoute(_ datagram: Datagram, from: UInt32, to: UInt32, now: SimTime) {
        mesh?.awaitRoute(datagram, from: from, to: to, now: now)
    }
    public mutating func routeTaken(by side: FlowSide, route: [Int]) { mesh?.routeTaken(by: side, route: route) }
    public mutating func relayed(flow: Int32) { mesh?.relayed(flow: flow) }
    public mutating func linkBroke(route: [Int], at: Int, next: Int, flow: Int32) {
        mesh?.linkBroke(route: route, at: at, next: next, flow: flow)
    }
}

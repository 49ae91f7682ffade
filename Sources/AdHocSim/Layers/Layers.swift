/// The one registration of the optional layers above the link, in order: MAdHoc's
/// mesh (`Mesh/`, with Multipeer's session layer beneath it) and Bluetooth LE (`Bluetooth/`).
/// A new layer is a folder of its own with a `SimulationLayer` conformance, and its type in this
/// list. The order is the order of every hook: the sections' decoding and diagnostics, the
/// schema's and the docs' sections, the first events scheduled, node failures and returns, the
/// result files and the summary lines, a sweep's columns.
typealias RegisteredLayers = LayerPair<MeshNetwork, LayerPair<BleNetwork, NoLayer>>

/// The running layers of a world (`RegisteredLayers`) and the hooks `World` calls. `World`
/// reaches the layers only through these, so it names none. Dispatch stays static: the list is
/// a concrete generic type, specialised by the compiler, no existential.
public struct Layers {
    /// Each registered layer, `nil` when the scenario does not run it.
    var stack: RegisteredLayers

    /// Bytes each link frame of an IP flow leaves for the layers' headers (the mesh's header and
    /// the longest route it may carry); 0 without a layer that carries IP.
    static func ipReserve(_ scenario: Scenario) -> Int { RegisteredLayers.ipReserve(scenario.layers.sections) }

    /// The layers `scenario` asks for, their first events scheduled into `sim` in registration
    /// order; phones that join later start down.
    init(_ scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation) {
        stack = RegisteredLayers.start(
            scenario.layers.sections, scenario: scenario, nodes: nodes, hasRadio: hasRadio, sim: &sim)
    }

    /// The running layer of type `L`, if the scenario runs it.
    func layer<L: SimulationLayer>(_ type: L.Type) -> L? { stack.layer(type) }

    /// The blocks of event kinds each layer claims, by name, inside the core's range for the
    /// layers (`EventBlock.layer`, 230–299). The numbers enter every run's event fingerprint, so
    /// a layer keeps the blocks it was given; a new layer claims free ones in its conformance,
    /// and `LayerRegistryTests` checks that no two claims overlap and that each layer's kinds
    /// lie in its own blocks.
    static var eventBlocks: [(layer: String, blocks: [Range<UInt16>])] { RegisteredLayers.eventClaims }

    /// An event of a layer's block (only the layers schedule them, so the layer exists then).
    mutating func handle<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        stack.handleEvent(event, link: &link, sim: &sim)
    }

    /// An application or transport event for the hosts, with the layers as their IP router.
    func handleHostEvent<L: LinkTechnology>(
        _ event: Event, hosts: inout HostStack, link: inout L, sim: inout Simulation
    ) {
        hosts.handle(event, link: &link, router: stack, sim: &sim)
    }

    /// Node `node` failed (its link already down).
    mutating func nodeFailed<L: LinkTechnology>(_ node: Int, link: L, now: SimTime) {
        stack.nodeWentDown(node, link: link, now: now)
    }

    /// Node `node` recovered or joined (its link already up).
    mutating func nodeReturned(_ node: Int, joined: Bool, sim: inout Simulation) {
        stack.nodeCameUp(node, joined: joined, sim: &sim)
    }

    /// A node was moved (scripted `move`).
    mutating func nodesMoved(_ nodes: NodeTable) { stack.nodesMoved(nodes) }

    /// A link notice about a frame a layer owns (`LinkPacket.owner`).
    mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation) {
        stack.notice(n, link: &link, sim: &sim)
    }

    /// A link notice about an IP packet for the hosts, routed by the layers: whether it freed
    /// transmit-queue room.
    func ipNotice<L: LinkTechnology>(
        _ n: LinkNotice, hosts: inout HostStack, link: inout L, sim: inout Simulation
    ) -> Bool {
        hosts.notice(n, link: &link, router: stack, sim: &sim)
    }

    /// Transmit-queue room was freed: the hosts' backlogs and blocked senders may continue.
    func queueRoomFreed<L: LinkTechnology>(hosts: inout HostStack, link: inout L, sim: inout Simulation) {
        hosts.queueRoomFreed(link: &link, router: stack, sim: &sim)
    }

    /// After a batch of notices, each layer's own sending (the mesh: IP across it, its held
    /// frames, then its outbox). Whether any sent frames (the link may have new notices).
    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool {
        stack.afterNotices(hosts: &hosts, link: &link, timeline: timeline, sim: &sim)
    }

    /// What the layers measured by `end`, for the run's report.
    func report(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> LayerReports {
        LayerReports(measured: stack.measure(scenario: scenario, hosts: hosts, nodes: nodes, end: end))
    }

    /// A scripted call of the phone's app (`disconnect`, advertising or browsing stopped or
    /// started), for the layer that owns it.
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {
        stack.appCalled(action, at: node, sim: &sim)
    }
}

/// The optional layers above the link, registered in this one list (issue #28): MAdHoc's mesh
/// (`Mesh/`) and Bluetooth LE (`Bluetooth/`). `World` reaches them only through these hooks, so
/// it names no layer: a new layer is a folder of its own and a field and a line in each hook
/// here. Dispatch stays static: each layer is a concrete optional field, no existential.
///
/// The order of the hooks' calls is the order the world has always used (the mesh's events and
/// frames after the hosts', Bluetooth LE before the mesh when a node fails or returns), so runs
/// are byte-identical to the world that held the layers itself.
public struct Layers {
    /// MAdHoc's mesh, when the scenario has a `mesh` section (and a radio).
    public internal(set) var mesh: MeshNetwork?
    /// Bluetooth LE advertising and scanning, when the scenario has a `ble` section.
    public internal(set) var ble: BleNetwork?

    /// Bytes each link frame of a flow across the mesh leaves for the mesh's header and the
    /// longest route it may carry (`MeshConfig.maxIpPathNodes`); 0 without a mesh.
    static func ipReserve(_ scenario: Scenario) -> Int {
        guard let spec = scenario.mesh else { return 0 }
        let c = MeshConfig(spec)
        return Int(c.messageBytes(pathLength: c.maxIpPathNodes, payload: 0))
    }

    /// The layers `scenario` asks for, their first events scheduled into `sim` (Bluetooth LE's,
    /// then the mesh's); phones that join later start down.
    init(_ scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation) {
        if let b = scenario.ble {
            var network = BleNetwork(
                b, nodes: nodes,
                place: PlaceParameters.resolve(scenario.environment, frequencyHz: BleMedium.bandCentreHz),
                sim: &sim)
            for e in scenario.events where e.action == .join { network.setDown(e.node, true, now: .zero) }
            ble = network
        }
        if let m = scenario.mesh, hasRadio {
            mesh = MeshNetwork(
                nodes: nodes.count, config: MeshConfig(m), workloads: m.messages, resources: m.resources,
                streams: m.streams, sessions: m.sessions.map { SignalSessions(groups: $0, nodes: nodes.count) },
                phones: m.phones, sim: &sim)
        }
    }

    /// The blocks of event kinds each layer claims, by layer, inside the core's range for the
    /// layers (`EventBlock.layer`, 230–299). The numbers enter every run's event fingerprint, so
    /// a layer keeps the blocks it was given; a new layer claims a free one here, and
    /// `LayerRegistryTests` checks that no two claims overlap and that each layer's kinds lie in
    /// its own blocks.
    static let eventBlocks: [(layer: String, blocks: [Range<UInt16>])] = [
        ("mesh", MeshNetwork.eventBlocks),
        ("multipeer", SessionLayer.eventBlocks),
        ("ble", BleNetwork.eventBlocks),
    ]

    /// An event of a layer's block (only the layers schedule them, so the layer exists then).
    mutating func handle<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        if MeshNetwork.owns(event.kind) {
            mesh?.handle(event, link: &link, sim: &sim)
        } else if SessionLayer.owns(event.kind) {
            mesh?.handleSessionEvent(event, link: &link, sim: &sim)
        } else if BleNetwork.owns(event.kind) {
            ble?.handle(event, in: &sim)
        } else {
            preconditionFailure("no layer owns event kind \(event.kind.rawValue)")
        }
    }

    /// An application or transport event for the hosts, with the mesh as their IP router.
    func handleHostEvent<L: LinkTechnology>(
        _ event: Event, hosts: inout HostStack, link: inout L, sim: inout Simulation
    ) {
        hosts.handle(event, link: &link, router: mesh, sim: &sim)
    }

    /// Node `node` failed (its link already down).
    mutating func nodeFailed<L: LinkTechnology>(_ node: Int, link: L, now: SimTime) {
        ble?.setDown(node, true, now: now)
        mesh?.nodeFailed(node, now: now, isDown: link.isDown)
    }

    /// Node `node` recovered or joined (its link already up); a joining phone's app starts, and
    /// Multipeer discovery with it.
    mutating func nodeReturned(_ node: Int, joined: Bool, sim: inout Simulation) {
        ble?.setDown(node, false, now: sim.now)
        if joined { mesh?.appStarted(node, sim: &sim) }
    }

    /// A node was moved (scripted `move`).
    mutating func nodesMoved(_ nodes: NodeTable) { ble?.nodesMoved(nodes) }

    /// A link notice about a frame a layer owns (`LinkPacket.owner`).
    mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation) {
        mesh?.notice(n, link: &link, sim: &sim)
    }

    /// A link notice about an IP packet for the hosts, routed by the mesh: whether it freed
    /// transmit-queue room.
    func ipNotice<L: LinkTechnology>(
        _ n: LinkNotice, hosts: inout HostStack, link: inout L, sim: inout Simulation
    ) -> Bool {
        hosts.notice(n, link: &link, router: mesh, sim: &sim)
    }

    /// Transmit-queue room was freed: the hosts' backlogs and blocked senders may continue.
    func queueRoomFreed<L: LinkTechnology>(hosts: inout HostStack, link: inout L, sim: inout Simulation) {
        hosts.queueRoomFreed(link: &link, router: mesh, sim: &sim)
    }

    /// After a batch of notices: IP across the mesh, the mesh's held frames, then its outbox.
    /// Whether the mesh sent frames (the link may have new notices).
    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool {
        if mesh != nil {
            carryIpAcrossMesh(hosts: &hosts, link: &link, sim: &sim)
            // Room freed: held message frames go first, oldest first.
            if mesh?.isHolding == true { mesh?.sendHeld(link: &link, sim: &sim) }
        }
        return mesh?.sendOutbox(link: &link, timeline: timeline, sim: &sim) == true
    }

    /// IP across the mesh: hands the mesh the routes the hosts asked for and the links they
    /// found broken, then lets datagrams waiting for a route go if the mesh learned routes.
    mutating func carryIpAcrossMesh<L: LinkTechnology>(hosts: inout HostStack, link: inout L, sim: inout Simulation) {
        if hosts.hasMeshReports {
            let (wanted, broken) = hosts.takeMeshReports()
            for w in wanted { mesh?.ipRouteWanted(from: w.from, to: w.to, sim: &sim) }
            for b in broken { mesh?.ipLinkBroke(route: b.route, at: b.at, next: b.next, now: sim.now) }
        }
        guard let learned = mesh?.routesLearned else { return }
        hosts.routesLearned(learned, link: &link, router: mesh, sim: &sim)
    }

    /// What the layers measured by `end`, for the run's report.
    func report(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> LayerReports {
        LayerReports(
            mesh: mesh.map { MeshMetrics.of($0, scenario: scenario, hosts: hosts, nodes: nodes, end: end) },
            ble: ble.map { BleMetrics($0, end: end) })
    }

    /// A scripted call of the phone's app (`disconnect`, advertising or browsing stopped or
    /// started), for the layer that owns it: Multipeer's.
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {
        mesh?.appCalled(action, at: node, sim: &sim)
    }
}

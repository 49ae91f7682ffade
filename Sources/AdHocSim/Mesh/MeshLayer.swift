/// The mesh as one of the optional layers (`Layers/`): its `mesh` section, its event blocks and
/// those of Multipeer's session layer beneath it, its part in a run (its frames' notices, IP
/// across it after each batch of notices, node failures, joins and the app's scripted calls),
/// its role as the hosts' IP router, and what it measured.
extension MeshNetwork: LayerSection {
    static var sectionKey: String { "mesh" }

    static var declaredSections: [DeclaredSection] {
        [
            .layer("mesh", page: "mesh", MeshParameters.section),
            .layerList("mesh", "messages", page: "mesh", MessageParameters.section),
            .layerList("mesh", "phones", page: "mesh", PhoneParameters.section),
            .layerList("mesh", "resources", page: "mesh", TransferParameters.resource),
            .layerList("mesh", "streams", page: "mesh", TransferParameters.stream)
        ]
    }

    /// The mesh's lists beside its declared settings (`messages`, `phones`, `resources` and
    /// `streams`, whose items are declared; `sessions`, written here: each a session of 2 to
    /// `MeshBounds.maxSessionSize` phones, at most `mesh.maxPeers` as the decoder checks).
    static var schemaStub: JSONSchema {
        let items = JSONSchema.array(of: .anything)
        return JSONSchema.object.properties([
            "messages": items, "phones": items, "resources": items, "streams": items,
            "sessions": .array(of: .array(of: .ref("nodeId")).minItems(2).maxItems(MeshBounds.maxSessionSize))
        ]).closed().description("MAdHoc's mesh over Multipeer sessions")
    }

    static func decode(
        _ section: JSONNode, _ path: JSONPath, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?
    ) -> MeshSpec? {
        decoder.decodeMesh(section, path, nodeIndex: nodeIndex, duration: duration)
    }

    /// The mesh's header and the longest route it may carry (`MeshConfig.maxIpPathNodes`).
    static func ipReserve(_ spec: MeshSpec) -> Int {
        let c = MeshConfig(spec)
        return Int(c.messageBytes(pathLength: c.maxIpPathNodes, payload: 0))
    }

}

extension MeshNetwork: RunningLayer {
    static var eventClaims: [(layer: String, blocks: [Range<UInt16>])] {
        [("mesh", eventBlocks), ("multipeer", SessionEvents.eventBlocks)]
    }

    static func handles(_ kind: EventKind) -> Bool { owns(kind) || SessionEvents.owns(kind) }

    /// The mesh needs a radio: on the ideal link it does not run.
    static func start(
        _ spec: MeshSpec, scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation
    ) -> MeshNetwork? {
        guard hasRadio else { return nil }
        return MeshNetwork(
            nodes: nodes.count, config: MeshConfig(spec), workloads: spec.messages, resources: spec.resources,
            streams: spec.streams, sessions: spec.sessions.map { SignalSessions(groups: $0, nodes: nodes.count) },
            phones: spec.phones, ipFlows: scenario.flows.count, sim: &sim)
    }

    /// The routing's events here, the session layer's passed down (`handleSessionEvent`).
    mutating func handleEvent<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        if Self.owns(event.kind) {
            handle(event, link: &link, sim: &sim)
        } else {
            handleSessionEvent(event, link: &link, sim: &sim)
        }
    }

    /// IP across the mesh (the routes the hosts asked for and the links they found broken, then
    /// datagrams waiting for a route go if the mesh learned routes; `MeshCarriage`), held frames
    /// (room freed: oldest first), then the outbox.
    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool {
        if carriage.hasReports {
            let (wanted, broken) = carriage.takeReports()
            for w in wanted { ipRouteWanted(from: w.from, to: w.to, sim: &sim) }
            for b in broken { ipLinkBroke(route: b.route, at: b.at, next: b.next, now: sim.now) }
        }
        if carriage.hasWaiting { sendWaiting(hosts: &hosts, link: &link, sim: &sim) }
        if isHolding { sendHeld(link: &link, sim: &sim) }
        return sendOutbox(link: &link, timeline: timeline, sim: &sim)
    }

    mutating func nodeWentDown<L: LinkTechnology>(_ node: Int, link: L, now: SimTime) {
        nodeFailed(node, now: now, isDown: link.isDown)
    }

    /// A joining phone's app starts, and Multipeer discovery with it.
    mutating func nodeCameUp(_ node: Int, joined: Bool, sim: inout Simulation) {
        if joined { appStarted(node, sim: &sim) }
    }

    func measure(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> MeshMetrics {
        MeshMetrics.of(self, scenario: scenario, hosts: hosts, nodes: nodes, end: end)
    }

}

extension MeshNetwork: LayerResults {
    static func files(_ metrics: MeshMetrics, report: RunReport) -> [ResultFile] {
        MeshFiles.files(metrics, report: report)
    }

    static func summaryText(_ metrics: MeshMetrics, report: RunReport) -> String {
        MeshFiles.summaryText(metrics, report)
    }

    static func sweepColumns(_ base: Scenario) -> [String] { base.mesh == nil ? [] : MeshFiles.layerColumns(base) }

    static func sweepFlowCells(_ report: RunReport, base: Scenario, flowRows: Int) -> [[String]] {
        guard base.mesh != nil else { return Array(repeating: [], count: flowRows) }
        return MeshFiles.flowCells(report, base: base, flowRows: flowRows)
    }

    static func sweepRows(_ report: RunReport, base: Scenario) -> [[String]] {
        base.mesh == nil ? [] : MeshFiles.layerRows(report, base: base)
    }
}

/// The mesh answers IP's route questions: its routes, its session peers, its header.
extension MeshNetwork: IpRouting {
    /// The route `from` holds to `to` at `now`.
    public func sourceRoute(from: Int, to: Int, at now: SimTime) -> [Int]? { route(from: from, to: to, at: now)?.path }
    /// Whether the two are session peers.
    public func canForward(from a: Int, to b: Int) -> Bool { core.sessions.peers[a].contains(b) }
    /// The mesh's frame header and source route.
    public func encapsulationBytes(pathNodes: Int) -> Int {
        Int(config.messageBytes(pathLength: pathNodes, payload: 0))
    }
    /// The longest route whose header fits the IP MTU.
    public var maxPathNodes: Int { config.maxIpPathNodes }
    /// Into the send buffer, and a route asked for once the hosts' notices are handled.
    public mutating func awaitRoute(_ datagram: Datagram, from: UInt32, to: UInt32, now: SimTime) {
        carriage.awaitRoute(datagram, from: from, to: to, now: now)
    }
    /// Counted per flow.
    public mutating func routeTaken(by side: FlowSide, route: [Int]) { carriage.routeTaken(by: side, route: route) }
    /// Counted per flow.
    public mutating func relayed(flow: Int32) { carriage.relayedPacket(flow: flow) }
    /// Counted per flow, and reported to the routing once the hosts' notices are handled.
    public mutating func linkBroke(route: [Int], at: Int, next: Int, flow: Int32) {
        carriage.linkBroke(route: route, at: at, next: next, flow: flow)
    }

    /// The mesh has learned routes since the send buffer last looked: datagrams whose sender
    /// now holds a route go down through the hosts, in the order they began to wait; the others
    /// wait on (those that waited past `MeshCarriage.timeout` are dropped).
    mutating func sendWaiting<L: LinkTechnology>(hosts: inout HostStack, link: inout L, sim: inout Simulation) {
        for w in carriage.takeRetries(routesLearned: routesLearned, now: sim.now) {
            if let r = sourceRoute(from: Int(w.from), to: Int(w.to), at: sim.now), r.count <= maxPathNodes {
                hosts.sendDown(w.datagram, from: w.from, to: w.to, link: &link, router: &self, sim: &sim)
            } else {
                carriage.keep(w)
            }
        }
    }
}

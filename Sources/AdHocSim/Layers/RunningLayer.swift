/// A layer's part in a run: its blocks of event kinds and its events, the link notices of its
/// frames, its own sending after a batch of notices, node failures, returns and moves, the
/// app's scripted calls, and what it measured. `Layers` calls each hook on each present layer,
/// in a plain line per layer; hooks a layer does not need do nothing by default.
protocol RunningLayer {
    /// The layer's settings (its `LayerSection.Spec`).
    associatedtype Spec
    /// What the layer measured in one run (its `LayerResults.Metrics`).
    associatedtype Metrics

    /// The blocks of event kinds the layer claims, by name (a layer holding another, as the
    /// mesh holds Multipeer's session layer, claims both): inside `EventBlock.layer`, 230–299.
    static var eventClaims: [(layer: String, blocks: [Range<UInt16>])] { get }
    /// Whether `kind` lies in the layer's claims (a branch on constants: the hot path).
    static func handles(_ kind: EventKind) -> Bool

    /// The running layer for `spec`, its first events scheduled into `sim`; `nil` when the
    /// scenario gives it nothing to run on (the mesh without a radio).
    static func start(
        _ spec: Spec, scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation
    ) -> Self?
    /// One of the layer's events.
    mutating func handleEvent<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation)
    /// A link notice about one of its frames.
    mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation)
    /// After a batch of notices: the layer's own sending. Whether it sent frames (the link may
    /// then have new notices).
    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool
    /// Node `node` failed (its link already down).
    mutating func nodeWentDown<L: LinkTechnology>(_ node: Int, link: L, now: SimTime)
    /// Node `node` recovered or joined (its link already up).
    mutating func nodeCameUp(_ node: Int, joined: Bool, sim: inout Simulation)
    /// A node was moved (scripted `move`).
    mutating func nodesMoved(_ nodes: NodeTable)
    /// A scripted call of the phone's app (`disconnect`, advertising or browsing stopped or started).
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation)
    /// The layer's metrics at `end`.
    func measure(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> Metrics
}

extension RunningLayer {
    mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation) {}
    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool { false }
    mutating func nodeWentDown<L: LinkTechnology>(_ node: Int, link: L, now: SimTime) {}
    mutating func nodeCameUp(_ node: Int, joined: Bool, sim: inout Simulation) {}
    mutating func nodesMoved(_ nodes: NodeTable) {}
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {}
}

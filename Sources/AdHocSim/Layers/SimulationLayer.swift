/// What a layer above the link gives the rest of the simulator: its section of the scenario
/// file, its blocks of event kinds, its part in a run (events, node failures and returns, link
/// notices of its frames, the work after a batch of notices, a role as the hosts' IP router),
/// and what it measured (result files, summary lines, a sweep's columns). A layer conforms in
/// its own folder and is registered once, in `RegisteredLayers`.
///
/// Dispatch is static: the registered layers form a type-level list (`LayerPair`), so every
/// hook is specialised for the concrete layers and no existential or closure stands on the hot
/// path. Hooks a layer does not need have default implementations that do nothing.
protocol SimulationLayer {
    /// The layer's settings as the scenario file gives them.
    associatedtype Spec: Sendable
    /// What the layer measured in one run.
    associatedtype Metrics: Sendable

    // MARK: The scenario section

    /// The scenario key of the layer's section (`"mesh"`, `"ble"`).
    static var sectionKey: String { get }
    /// The section's declared parts, for the schema, `adhocsim schema --table` and the docs.
    static var declaredSections: [DeclaredSection] { get }
    /// The section's object in the schema, as JSON text: what is not declared (the lists it
    /// holds beside its declared settings, as stubs whose items the declared sections fill).
    static var schemaStub: String { get }
    /// Definitions its schema refers to (`#/$defs/NAME`), as a JSON object's text.
    static var schemaDefinitions: String { get }
    /// Decodes the section at `path`, reporting problems to `decoder`'s sink; `nil` if it has any.
    static func decode(
        _ section: JSONNode, _ path: JSONPath, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?
    ) -> Spec?
    /// What the section holds, in a few words, for `adhocsim validate` (none by default).
    static func outline(_ spec: Spec) -> String?
    /// Bytes each link frame of an IP flow leaves for the layer's own headers (0 unless it
    /// carries IP).
    static func ipReserve(_ spec: Spec) -> Int

    // MARK: Events

    /// The blocks of event kinds the layer claims, by name (a layer holding another, as the
    /// mesh holds Multipeer's session layer, claims both): inside `EventBlock.layer`, 230–299.
    static var eventClaims: [(layer: String, blocks: [Range<UInt16>])] { get }
    /// Whether `kind` lies in the layer's claims (a branch on constants: the hot path).
    static func handles(_ kind: EventKind) -> Bool

    // MARK: A run

    /// The running layer for `spec`, its first events scheduled into `sim`; `nil` when the
    /// scenario gives it nothing to run on (the mesh without a radio).
    static func start(
        _ spec: Spec, scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation
    ) -> Self?
    /// One of the layer's events.
    mutating func handleEvent<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation)
    /// The link frames the layer owns (`LinkPacket.owner`), if it sends any.
    static var linkFrames: LinkProtocol? { get }
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
    /// Whether the layer answers the hosts' route questions (`IpRouting`, through the four
    /// below): the first present layer that does is the hosts' IP router.
    static var routesIp: Bool { get }
    /// `IpRouting.sourceRoute`.
    func ipSourceRoute(from: Int, to: Int, at now: SimTime) -> [Int]?
    /// `IpRouting.canForward`.
    func ipCanForward(from a: Int, to b: Int) -> Bool
    /// `IpRouting.encapsulationBytes`.
    func ipEncapsulationBytes(pathNodes: Int) -> Int
    /// `IpRouting.maxPathNodes`.
    var ipMaxPathNodes: Int { get }

    // MARK: What it measured

    /// The layer's metrics at `end`.
    func measure(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> Metrics
    /// Its result files.
    static func files(_ metrics: Metrics, report: RunReport) -> [ResultFile]
    /// Its lines of the run's text summary.
    static func summaryText(_ metrics: Metrics, report: RunReport) -> String
    /// The columns it adds to a sweep's `cells.csv` after the flow summary's, for a sweep of
    /// `base` (none when `base` lacks the section).
    static func sweepColumns(_ base: Scenario) -> [String]
    /// Per flow row of a unit's `cells.csv`, its cells in those columns (blank unless given).
    static func sweepFlowCells(_ report: RunReport, base: Scenario, flowRows: Int) -> [[String]]
    /// Its own rows of a unit's `cells.csv`, as wide as `RunFiles.summaryColumns` + its columns.
    static func sweepRows(_ report: RunReport, base: Scenario) -> [[String]]
    /// The `cells.csv` columns its charts read, which `SweepPlots` checks are numbers.
    static var plottedColumns: [String] { get }
    /// Its charts of a sweep's `cells.csv` (none when the table lacks its columns).
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)]
}

extension SimulationLayer {
    static var schemaDefinitions: String { "{}" }
    static func ipReserve(_ spec: Spec) -> Int { 0 }
    static func outline(_ spec: Spec) -> String? { nil }
    static var linkFrames: LinkProtocol? { nil }
    mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation) {}
    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool { false }
    mutating func nodeWentDown<L: LinkTechnology>(_ node: Int, link: L, now: SimTime) {}
    mutating func nodeCameUp(_ node: Int, joined: Bool, sim: inout Simulation) {}
    mutating func nodesMoved(_ nodes: NodeTable) {}
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {}
    static var routesIp: Bool { false }
    func ipSourceRoute(from: Int, to: Int, at now: SimTime) -> [Int]? { nil }
    func ipCanForward(from a: Int, to b: Int) -> Bool { false }
    func ipEncapsulationBytes(pathNodes: Int) -> Int { 0 }
    var ipMaxPathNodes: Int { 0 }
    static func sweepColumns(_ base: Scenario) -> [String] { [] }
    static func sweepFlowCells(_ report: RunReport, base: Scenario, flowRows: Int) -> [[String]] {
        Array(repeating: Array(repeating: "", count: sweepColumns(base).count), count: flowRows)
    }
    static func sweepRows(_ report: RunReport, base: Scenario) -> [[String]] { [] }
    static var plottedColumns: [String] { [] }
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)] { [] }
}

extension DeclaredSection {
    /// A layer's section `section` at the scenario's top-level key `key`, documented on `page`.
    static func layer<T>(_ key: String, page: String, _ section: ParameterSection<T>) -> DeclaredSection {
        DeclaredSection(
            name: section.name, page: page, markdownTable: section.markdownTable,
            schemaObjects: [(["properties", key], section.schema(perNode: false))])
    }

    /// The items of the list `<key>.<list>` of a layer's section, declared by `section`.
    static func layerList<T>(
        _ key: String, _ list: String, page: String, _ section: ParameterSection<T>
    ) -> DeclaredSection {
        DeclaredSection(
            name: "\(key).\(list)", page: page, markdownTable: section.markdownTable,
            schemaObjects: [(["properties", key, "properties", list, "items"], section.schema(perNode: false))])
    }
}

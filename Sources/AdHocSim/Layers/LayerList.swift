/// The registered layers as a type-level list (`LayerPair<First, LayerPair<Second, NoLayer>>`):
/// each hook is written once here, walks the list in registration order, and is specialised by
/// the compiler for the concrete layers, so a call costs what a hand-written field-by-field call
/// did. The list also holds the layers' sections of a scenario (`Specs`) and what they measured
/// (`Reports`), in the same order.
protocol LayerList: IpRouting {
    /// Each layer's section of a scenario, `nil` when absent.
    associatedtype Specs: Sendable
    /// Each layer's metrics, `nil` when it did not run.
    associatedtype Reports: Sendable

    static var noSpecs: Specs { get }
    static func decode(
        _ r: ObjectReader, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?,
        into specs: inout Specs, failed: inout [String])
    static func spec<L: SimulationLayer>(_ specs: Specs, _ layer: L.Type) -> L.Spec?
    static func setSpec<L: SimulationLayer>(_ value: L.Spec?, in specs: inout Specs, _ layer: L.Type)
    static var declaredSections: [DeclaredSection] { get }
    static var schemaStubs: [(key: String, stub: String, definitions: String)] { get }
    static var eventClaims: [(layer: String, blocks: [Range<UInt16>])] { get }
    static func ipReserve(_ specs: Specs) -> Int
    static func outlines(_ specs: Specs) -> [String]

    static func start(_ specs: Specs, scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation) -> Self
    func layer<L: SimulationLayer>(_ layer: L.Type) -> L?
    mutating func handleEvent<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation)
    mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation)
    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool
    mutating func nodeWentDown<L: LinkTechnology>(_ node: Int, link: L, now: SimTime)
    mutating func nodeCameUp(_ node: Int, joined: Bool, sim: inout Simulation)
    mutating func nodesMoved(_ nodes: NodeTable)
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation)

    func measure(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> Reports
    static func metrics<L: SimulationLayer>(_ reports: Reports, _ layer: L.Type) -> L.Metrics?
    static func files(_ reports: Reports, report: RunReport) -> [ResultFile]
    static func summaryText(_ reports: Reports, report: RunReport) -> String
    /// Per layer, its sweep columns for `base`.
    static func sweepColumns(_ base: Scenario) -> [[String]]
    /// Per layer, its cells on the flow rows and its own rows.
    static func sweepParts(_ report: RunReport, base: Scenario, flowRows: Int) -> [(flowCells: [[String]], rows: [[String]])]
    static var plottedColumns: [String] { get }
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)]
}

/// The end of the list: no layer.
struct NoLayer: LayerList {
    struct Specs: Sendable {}
    struct Reports: Sendable {}

    static var noSpecs: Specs { Specs() }
    static func decode(
        _ r: ObjectReader, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?,
        into specs: inout Specs, failed: inout [String]
    ) {}
    static func spec<L: SimulationLayer>(_ specs: Specs, _ layer: L.Type) -> L.Spec? { nil }
    static func setSpec<L: SimulationLayer>(_ value: L.Spec?, in specs: inout Specs, _ layer: L.Type) {
        preconditionFailure("\(L.self) is not registered in RegisteredLayers")
    }
    static var declaredSections: [DeclaredSection] { [] }
    static var schemaStubs: [(key: String, stub: String, definitions: String)] { [] }
    static var eventClaims: [(layer: String, blocks: [Range<UInt16>])] { [] }
    static func ipReserve(_ specs: Specs) -> Int { 0 }
    static func outlines(_ specs: Specs) -> [String] { [] }

    static func start(_ specs: Specs, scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation) -> NoLayer {
        NoLayer()
    }
    func layer<L: SimulationLayer>(_ layer: L.Type) -> L? { nil }
    mutating func handleEvent<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        preconditionFailure("no layer owns event kind \(event.kind.rawValue)")
    }
    mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation) {}
    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool { false }
    mutating func nodeWentDown<L: LinkTechnology>(_ node: Int, link: L, now: SimTime) {}
    mutating func nodeCameUp(_ node: Int, joined: Bool, sim: inout Simulation) {}
    mutating func nodesMoved(_ nodes: NodeTable) {}
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {}

    // Without a router the hosts know no routes: no mesh, no flow across it.
    func sourceRoute(from: Int, to: Int, at now: SimTime) -> [Int]? { nil }
    func canForward(from a: Int, to b: Int) -> Bool { false }
    func encapsulationBytes(pathNodes: Int) -> Int { 0 }
    var maxPathNodes: Int { 0 }

    func measure(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> Reports { Reports() }
    static func metrics<L: SimulationLayer>(_ reports: Reports, _ layer: L.Type) -> L.Metrics? { nil }
    static func files(_ reports: Reports, report: RunReport) -> [ResultFile] { [] }
    static func summaryText(_ reports: Reports, report: RunReport) -> String { "" }
    static func sweepColumns(_ base: Scenario) -> [[String]] { [] }
    static func sweepParts(_ report: RunReport, base: Scenario, flowRows: Int) -> [(flowCells: [[String]], rows: [[String]])] {
        []
    }
    static var plottedColumns: [String] { [] }
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)] { [] }
}

/// A registered layer (`Head`, `nil` when the scenario does not run it) followed by the rest.
struct LayerPair<Head: SimulationLayer, Tail: LayerList>: LayerList {
    var head: Head?
    var tail: Tail

    struct Specs: Sendable {
        var head: Head.Spec?
        var tail: Tail.Specs
    }

    struct Reports: Sendable {
        var head: Head.Metrics?
        var tail: Tail.Reports
    }

    // MARK: The scenario's sections

    static var noSpecs: Specs { Specs(head: nil, tail: Tail.noSpecs) }

    static func decode(
        _ r: ObjectReader, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?,
        into specs: inout Specs, failed: inout [String]
    ) {
        if let node = r.value(Head.sectionKey) {
            specs.head = Head.decode(
                node, JSONPath.root.appending(Head.sectionKey), decoder, nodeIndex: nodeIndex, duration: duration)
            if specs.head == nil { failed.append(Head.sectionKey) }
        }
        Tail.decode(r, decoder, nodeIndex: nodeIndex, duration: duration, into: &specs.tail, failed: &failed)
    }

    static func spec<L: SimulationLayer>(_ specs: Specs, _ layer: L.Type) -> L.Spec? {
        if Head.self == L.self { return specs.head.flatMap { $0 as? L.Spec } }
        return Tail.spec(specs.tail, layer)
    }

    static func setSpec<L: SimulationLayer>(_ value: L.Spec?, in specs: inout Specs, _ layer: L.Type) {
        if Head.self == L.self {
            specs.head = value.flatMap { $0 as? Head.Spec }
        } else {
            Tail.setSpec(value, in: &specs.tail, layer)
        }
    }

    static var declaredSections: [DeclaredSection] { Head.declaredSections + Tail.declaredSections }
    static var schemaStubs: [(key: String, stub: String, definitions: String)] {
        [(Head.sectionKey, Head.schemaStub, Head.schemaDefinitions)] + Tail.schemaStubs
    }
    static var eventClaims: [(layer: String, blocks: [Range<UInt16>])] { Head.eventClaims + Tail.eventClaims }
    static func ipReserve(_ specs: Specs) -> Int {
        (specs.head.map { Head.ipReserve($0) } ?? 0) + Tail.ipReserve(specs.tail)
    }

    static func outlines(_ specs: Specs) -> [String] {
        (specs.head.flatMap { Head.outline($0) }.map { [$0] } ?? []) + Tail.outlines(specs.tail)
    }

    // MARK: A run

    static func start(_ specs: Specs, scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation) -> Self {
        let head = specs.head.flatMap { Head.start($0, scenario: scenario, nodes: nodes, hasRadio: hasRadio, sim: &sim) }
        return LayerPair(head: head, tail: Tail.start(specs.tail, scenario: scenario, nodes: nodes, hasRadio: hasRadio, sim: &sim))
    }

    func layer<L: SimulationLayer>(_ layer: L.Type) -> L? {
        if Head.self == L.self { return head.flatMap { $0 as? L } }
        return tail.layer(layer)
    }

    // Every mutating hook below calls the head through optional chaining, which mutates it in
    // place: copying a layer out and back would copy its arrays on the next write.
    mutating func handleEvent<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        if Head.handles(event.kind) {
            head?.handleEvent(event, link: &link, sim: &sim)
        } else {
            tail.handleEvent(event, link: &link, sim: &sim)
        }
    }

    mutating func notice<L: LinkTechnology>(_ n: LinkNotice, link: inout L, sim: inout Simulation) {
        if Head.linkFrames == n.packet.owner {
            head?.notice(n, link: &link, sim: &sim)
        } else {
            tail.notice(n, link: &link, sim: &sim)
        }
    }

    mutating func afterNotices<L: LinkTechnology>(
        hosts: inout HostStack, link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> Bool {
        let sent = head?.afterNotices(hosts: &hosts, link: &link, timeline: timeline, sim: &sim) == true
        return tail.afterNotices(hosts: &hosts, link: &link, timeline: timeline, sim: &sim) || sent
    }

    mutating func nodeWentDown<L: LinkTechnology>(_ node: Int, link: L, now: SimTime) {
        head?.nodeWentDown(node, link: link, now: now)
        tail.nodeWentDown(node, link: link, now: now)
    }

    mutating func nodeCameUp(_ node: Int, joined: Bool, sim: inout Simulation) {
        head?.nodeCameUp(node, joined: joined, sim: &sim)
        tail.nodeCameUp(node, joined: joined, sim: &sim)
    }

    mutating func nodesMoved(_ nodes: NodeTable) {
        head?.nodesMoved(nodes)
        tail.nodesMoved(nodes)
    }

    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {
        head?.appCalled(action, at: node, sim: &sim)
        tail.appCalled(action, at: node, sim: &sim)
    }

    // MARK: The hosts' IP router: the first present layer that routes IP

    func sourceRoute(from: Int, to: Int, at now: SimTime) -> [Int]? {
        if Head.routesIp, let head { return head.ipSourceRoute(from: from, to: to, at: now) }
        return tail.sourceRoute(from: from, to: to, at: now)
    }

    func canForward(from a: Int, to b: Int) -> Bool {
        if Head.routesIp, let head { return head.ipCanForward(from: a, to: b) }
        return tail.canForward(from: a, to: b)
    }

    func encapsulationBytes(pathNodes: Int) -> Int {
        if Head.routesIp, let head { return head.ipEncapsulationBytes(pathNodes: pathNodes) }
        return tail.encapsulationBytes(pathNodes: pathNodes)
    }

    var maxPathNodes: Int {
        if Head.routesIp, let head { return head.ipMaxPathNodes }
        return tail.maxPathNodes
    }

    // MARK: What the layers measured

    func measure(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> Reports {
        Reports(
            head: head.map { $0.measure(scenario: scenario, hosts: hosts, nodes: nodes, end: end) },
            tail: tail.measure(scenario: scenario, hosts: hosts, nodes: nodes, end: end))
    }

    static func metrics<L: SimulationLayer>(_ reports: Reports, _ layer: L.Type) -> L.Metrics? {
        if Head.self == L.self { return reports.head.flatMap { $0 as? L.Metrics } }
        return Tail.metrics(reports.tail, layer)
    }

    static func files(_ reports: Reports, report: RunReport) -> [ResultFile] {
        (reports.head.map { Head.files($0, report: report) } ?? []) + Tail.files(reports.tail, report: report)
    }

    static func summaryText(_ reports: Reports, report: RunReport) -> String {
        (reports.head.map { Head.summaryText($0, report: report) } ?? "") + Tail.summaryText(reports.tail, report: report)
    }

    static func sweepColumns(_ base: Scenario) -> [[String]] { [Head.sweepColumns(base)] + Tail.sweepColumns(base) }

    static func sweepParts(_ report: RunReport, base: Scenario, flowRows: Int) -> [(flowCells: [[String]], rows: [[String]])] {
        [(Head.sweepFlowCells(report, base: base, flowRows: flowRows), Head.sweepRows(report, base: base))]
            + Tail.sweepParts(report, base: base, flowRows: flowRows)
    }

    static var plottedColumns: [String] { Head.plottedColumns + Tail.plottedColumns }

    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)] {
        Head.sweepCharts(table) + Tail.sweepCharts(table)
    }
}

/// Bluetooth LE as one of the optional layers (`Layers/`): its `ble` section, its block of event
/// kinds (240–249), its part in a run (advertisers and scanners go down and up with their
/// phones, follow scripted moves) and what it measured. It carries no IP and sends no frame over
/// the link: its radio is its own (`BleMedium`).
extension BleNetwork: LayerSection {
    static var sectionKey: String { "ble" }

    static var declaredSections: [DeclaredSection] {
        [
            .layer("ble", page: "bluetooth-le", BleParameters.section),
            .layerList("ble", "advertisers", page: "bluetooth-le", BleParameters.advertiser),
            .layerList("ble", "scanners", page: "bluetooth-le", BleParameters.scanner),
            .layerList("ble", "wifi", page: "bluetooth-le", BleParameters.wifi),
            .layerList("ble", "connections", page: "bluetooth-le", BleConnectionParameters.section)
        ]
    }

    /// Its lists beside its declared settings, whose items are declared.
    static var schemaStub: JSONSchema {
        let items = JSONSchema.array(of: .anything)
        return JSONSchema.object.properties([
            "advertisers": items, "scanners": items, "wifi": items, "connections": items
        ]).closed().description("Bluetooth LE beside the Wi-Fi world")
    }

    /// Advertising channels, and a time in seconds or `null`.
    static var schemaDefinitions: KeyValuePairs<String, JSONSchema> {
        [
            "bleChannels": .array(of: .oneOf(numbers: [37, 38, 39])).minItems(1).description("advertising channels"),
            "blePositiveSeconds": .anyOf([.number.exclusiveMinimum(0).description("seconds (null: never)"), .null])
        ]
    }

    static func decode(
        _ section: JSONNode, _ path: JSONPath, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?
    ) -> BleSpec? {
        decoder.decodeBle(section, path, nodeIndex: nodeIndex, duration: duration)
    }

    /// "2 BLE advertisers, 1 scanner".
    static func outline(_ spec: BleSpec) -> String? {
        "\(spec.advertisers.count) BLE advertiser\(spec.advertisers.count == 1 ? "" : "s"), "
            + "\(spec.scanners.count) scanner\(spec.scanners.count == 1 ? "" : "s")"
    }

}

extension BleNetwork: RunningLayer {
    static var eventClaims: [(layer: String, blocks: [Range<UInt16>])] { [("ble", eventBlocks)] }

    static func handles(_ kind: EventKind) -> Bool { owns(kind) }

    /// Advertising and scanning over the place's propagation at 2.44 GHz; phones that join later
    /// start down.
    static func start(
        _ spec: BleSpec, scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation
    ) -> BleNetwork? {
        var network = BleNetwork(
            spec, nodes: nodes,
            place: PlaceParameters.resolve(scenario.environment, frequencyHz: BleMedium.bandCentreHz),
            sim: &sim)
        for e in scenario.events where e.action == .join { network.setDown(e.node, true, now: .zero) }
        return network
    }

    mutating func handleEvent<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        handle(event, in: &sim)
    }

    mutating func nodeWentDown<L: LinkTechnology>(_ node: Int, link: L, now: SimTime) { setDown(node, true, now: now) }

    mutating func nodeCameUp(_ node: Int, joined: Bool, sim: inout Simulation) { setDown(node, false, now: sim.now) }

    /// Bluetooth switched off or on (`bluetoothOff`, `bluetoothOn`).
    mutating func appCalled(_ action: NodeEvent.Action, at node: Int, sim: inout Simulation) {
        switch action {
        case .bluetoothOff: setPowered(node, on: false, now: sim.now)
        case .bluetoothOn: setPowered(node, on: true, now: sim.now)
        default: break
        }
    }

    func measure(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> BleMetrics {
        BleMetrics(self, end: end)
    }

}

extension BleNetwork: LayerResults {
    static func files(_ metrics: BleMetrics, report: RunReport) -> [ResultFile] {
        BleFiles.files(metrics, report: report)
    }

    static func summaryText(_ metrics: BleMetrics, report: RunReport) -> String {
        BleFiles.summaryText(metrics, report)
    }

    static func sweepColumns(_ base: Scenario) -> [String] { base.ble == nil ? [] : BleFiles.sweepColumns }

    static func sweepRows(_ report: RunReport, base: Scenario) -> [[String]] {
        base.ble == nil ? [] : BleFiles.sweepRows(report)
    }
}

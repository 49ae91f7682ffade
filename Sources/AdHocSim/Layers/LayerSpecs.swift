/// The sections of the optional layers in a scenario: each layer's spec as a plain optional
/// field (`scenario.mesh`, `scenario.ble`), their decoding in the layers' order, and their
/// declared sections for the schema, `adhocsim schema --table` and the docs. `Scenario/` reads
/// them through these hooks.
public struct LayerSpecs: Sendable {
    /// The `mesh` section, if the scenario runs MAdHoc's routing.
    public var mesh: MeshSpec?
    /// The `ble` section, if the scenario has Bluetooth LE advertisers or scanners.
    public var ble: BleSpec?

    /// No optional layer.
    public init() {}

    /// Decodes the layers' sections of the scenario object `r`, in the layers' order (the order
    /// of their diagnostics); `failed` names the sections that were present but did not decode.
    static func decode(
        _ r: ObjectReader, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?
    ) -> (specs: LayerSpecs, failed: [String]) {
        var specs = LayerSpecs()
        var failed: [String] = []
        specs.mesh = section(MeshNetwork.self, r, decoder, nodeIndex: nodeIndex, duration: duration, failed: &failed)
        specs.ble = section(BleNetwork.self, r, decoder, nodeIndex: nodeIndex, duration: duration, failed: &failed)
        return (specs, failed)
    }

    /// The layers' top-level keys, in the layers' order.
    static var sectionKeys: [String] { [MeshNetwork.sectionKey, BleNetwork.sectionKey] }

    /// Layer `S`'s section of `r`, if present and valid.
    private static func section<S: LayerSection>(
        _ layer: S.Type, _ r: ObjectReader, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?,
        failed: inout [String]
    ) -> S.Spec? {
        guard let node = r.value(S.sectionKey) else { return nil }
        let spec = S.decode(
            node, JSONPath.root.appending(S.sectionKey), decoder, nodeIndex: nodeIndex, duration: duration)
        if spec == nil { failed.append(S.sectionKey) }
        return spec
    }

    /// Each layer's object in the schema's `properties` (its `schemaStub`, keyed by its section),
    /// in the layers' order; the declared sections are generated into them.
    static var schemaSections: [JSONMember] { [schemaSection(MeshNetwork.self), schemaSection(BleNetwork.self)] }

    private static func schemaSection<S: LayerSection>(_ layer: S.Type) -> JSONMember {
        JSONMember(key: S.sectionKey, value: S.schemaStub.node)
    }

    /// The definitions the layers' schemas refer to (`#/$defs/NAME`), in the layers' order.
    static var schemaDefinitions: [JSONMember] { definitions(MeshNetwork.self) + definitions(BleNetwork.self) }

    private static func definitions<S: LayerSection>(_ layer: S.Type) -> [JSONMember] {
        S.schemaDefinitions.map { JSONMember(key: $0.key, value: $0.value.node) }
    }

    /// The layers' declared sections, after the core's in `DeclaredSection.all`.
    static var declaredSections: [DeclaredSection] { MeshNetwork.declaredSections + BleNetwork.declaredSections }

    /// Whether the `ble` section was present but did not decode (`failed` from `decode`).
    static func bluetoothFailed(_ failed: [String]) -> Bool { failed.contains(BleNetwork.sectionKey) }

    /// Whether node `node` scans, advertises or holds a connection over Bluetooth LE.
    func usesBluetooth(node: Int) -> Bool {
        guard let ble else { return false }
        return ble.scanners.contains { $0.node == node } || ble.advertisers.contains { $0.node == node }
            || ble.connections.contains { $0.central == node || $0.peripheral == node }
    }

    /// What each present section holds, in a few words, for `adhocsim validate` (in the layers'
    /// order; a layer with nothing to say gives none).
    public var outline: [String] {
        [mesh.flatMap(MeshNetwork.outline), ble.flatMap(BleNetwork.outline)].compactMap { $0 }
    }
}

extension Scenario {
    /// The mesh section, if the scenario runs MAdHoc's routing.
    public var mesh: MeshSpec? {
        get { layers.mesh }
        set { layers.mesh = newValue }
    }

    /// The Bluetooth LE section, if the scenario has advertisers or scanners.
    public var ble: BleSpec? {
        get { layers.ble }
        set { layers.ble = newValue }
    }
}

/// The sections of the optional layers in a scenario: each layer's spec, its decoding from the
/// scenario file, and its declared sections for the schema, `adhocsim schema --table` and the
/// docs. `Scenario/` reads them through these hooks and names no layer's spec; a new layer adds a
/// field and a line per hook here (issue #28).
public struct LayerSpecs: Sendable {
    /// The mesh section, if the scenario runs MAdHoc's routing.
    public var mesh: MeshSpec?
    /// The Bluetooth LE section, if the scenario has advertisers or scanners.
    public var ble: BleSpec?

    /// No optional layer.
    public init(mesh: MeshSpec? = nil, ble: BleSpec? = nil) {
        self.mesh = mesh
        self.ble = ble
    }

    /// Whether each present section decoded (a missing section is fine).
    struct Decoded {
        var mesh = true
        var ble = true
        var all: Bool { mesh && ble }
    }

    /// Decodes the layers' sections of the scenario object `r`, in this order (the order of their
    /// diagnostics).
    static func decode(
        _ r: ObjectReader, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?
    ) -> (LayerSpecs, Decoded) {
        var specs = LayerSpecs()
        var ok = Decoded()
        if let m = r.value("mesh") {
            specs.mesh = decoder.decodeMesh(m, JSONPath.root.appending("mesh"), nodeIndex: nodeIndex, duration: duration)
            ok.mesh = specs.mesh != nil
        }
        if let b = r.value("ble") {
            specs.ble = decoder.decodeBle(b, JSONPath.root.appending("ble"), nodeIndex: nodeIndex, duration: duration)
            ok.ble = specs.ble != nil
        }
        return (specs, ok)
    }

    /// The layers' declared sections, after the core's in `DeclaredSection.all`.
    static let declaredSections: [DeclaredSection] = [
            DeclaredSection(
                name: MeshParameters.section.name, page: "mesh", markdownTable: MeshParameters.section.markdownTable,
                schemaObjects: [(["properties", "mesh"], MeshParameters.section.schema(perNode: false))]),
            DeclaredSection(
                name: "mesh.messages", page: "mesh", markdownTable: MessageParameters.section.markdownTable,
                schemaObjects: [
                    (["properties", "mesh", "properties", "messages", "items"], MessageParameters.section.schema(perNode: false))
                ]),
            DeclaredSection(
                name: "mesh.phones", page: "mesh", markdownTable: PhoneParameters.section.markdownTable,
                schemaObjects: [
                    (["properties", "mesh", "properties", "phones", "items"], PhoneParameters.section.schema(perNode: false))
                ]),
            DeclaredSection(
                name: "mesh.resources", page: "mesh", markdownTable: TransferParameters.resource.markdownTable,
                schemaObjects: [
                    (["properties", "mesh", "properties", "resources", "items"], TransferParameters.resource.schema(perNode: false))
                ]),
            DeclaredSection(
                name: "mesh.streams", page: "mesh", markdownTable: TransferParameters.stream.markdownTable,
                schemaObjects: [
                    (["properties", "mesh", "properties", "streams", "items"], TransferParameters.stream.schema(perNode: false))
                ]),
            DeclaredSection(
                name: BleParameters.section.name, page: "bluetooth-le", markdownTable: BleParameters.section.markdownTable,
                schemaObjects: [(["properties", "ble"], BleParameters.section.schema(perNode: false))]),
            DeclaredSection(
                name: "ble.advertisers", page: "bluetooth-le", markdownTable: BleParameters.advertiser.markdownTable,
                schemaObjects: [
                    (["properties", "ble", "properties", "advertisers", "items"], BleParameters.advertiser.schema(perNode: false))
                ]),
            DeclaredSection(
                name: "ble.scanners", page: "bluetooth-le", markdownTable: BleParameters.scanner.markdownTable,
                schemaObjects: [(["properties", "ble", "properties", "scanners", "items"], BleParameters.scanner.schema(perNode: false))]),
            DeclaredSection(
                name: "ble.wifi", page: "bluetooth-le", markdownTable: BleParameters.wifi.markdownTable,
                schemaObjects: [(["properties", "ble", "properties", "wifi", "items"], BleParameters.wifi.schema(perNode: false))]),
            DeclaredSection(
                name: "ble.connections", page: "bluetooth-le", markdownTable: BleConnectionParameters.section.markdownTable,
                schemaObjects: [
                    (["properties", "ble", "properties", "connections", "items"], BleConnectionParameters.section.schema(perNode: false))
                ])
    ]
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

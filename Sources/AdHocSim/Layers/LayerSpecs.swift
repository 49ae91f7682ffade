/// The sections of the optional layers in a scenario (`RegisteredLayers`): each layer's spec,
/// read and written through the accessor its own folder declares (`scenario.mesh`,
/// `scenario.ble`), their decoding in registration order, and their declared sections for the
/// schema, `adhocsim schema --table` and the docs. `Scenario/` reads them through these hooks and
/// names no layer's spec.
public struct LayerSpecs: Sendable {
    /// Each registered layer's section, `nil` when absent.
    var sections: RegisteredLayers.Specs

    /// No optional layer.
    public init() { sections = RegisteredLayers.noSpecs }

    /// The section of layer `L`, if the scenario has it.
    func spec<L: SimulationLayer>(_ layer: L.Type) -> L.Spec? { RegisteredLayers.spec(sections, layer) }

    /// Sets (or removes, with `nil`) the section of layer `L`.
    mutating func setSpec<L: SimulationLayer>(_ value: L.Spec?, for layer: L.Type) {
        RegisteredLayers.setSpec(value, in: &sections, layer)
    }

    /// Decodes the layers' sections of the scenario object `r`, in registration order (the order
    /// of their diagnostics); `failed` names the sections that were present but did not decode.
    static func decode(
        _ r: ObjectReader, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?
    ) -> (specs: LayerSpecs, failed: [String]) {
        var specs = LayerSpecs()
        var failed: [String] = []
        RegisteredLayers.decode(r, decoder, nodeIndex: nodeIndex, duration: duration, into: &specs.sections, failed: &failed)
        return (specs, failed)
    }

    /// Each layer's object in the schema's `properties` (its `schemaStub`, keyed by its section),
    /// in registration order; the declared sections are generated into them.
    static var schemaSections: [JSONMember] {
        RegisteredLayers.schemaStubs.map { JSONMember(key: $0.key, value: ScenarioSchema.object($0.stub)) }
    }

    /// The definitions the layers' schemas refer to (`#/$defs/NAME`), in registration order.
    static var schemaDefinitions: [JSONMember] {
        RegisteredLayers.schemaStubs.flatMap { entry -> [JSONMember] in
            guard case .object(let members) = ScenarioSchema.object(entry.definitions).value else { return [] }
            return members
        }
    }

    /// The layers' declared sections, after the core's in `DeclaredSection.all`.
    static var declaredSections: [DeclaredSection] { RegisteredLayers.declaredSections }

    /// What each present section holds, in a few words, for `adhocsim validate` (in
    /// registration order; a layer with nothing to say gives none).
    public var outline: [String] { RegisteredLayers.outlines(sections) }
}

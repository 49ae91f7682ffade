/// A layer's section of the scenario file: its key, its declared settings (for the decoder,
/// the schema, `adhocsim schema --table` and the docs), what the schema holds beside them, its
/// decoding and its outline. `LayerSpecs` holds each layer's decoded section.
protocol LayerSection {
    /// The layer's settings as the scenario file gives them.
    associatedtype Spec: Sendable

    /// The scenario key of the layer's section (`"mesh"`, `"ble"`).
    static var sectionKey: String { get }
    /// The section's declared parts, for the schema, `adhocsim schema --table` and the docs.
    static var declaredSections: [DeclaredSection] { get }
    /// The section's object in the schema: what is not declared (the lists it holds beside its
    /// declared settings, as stubs whose items the declared sections fill).
    static var schemaStub: JSONSchema { get }
    /// Definitions its schema refers to (`#/$defs/NAME`), by name.
    static var schemaDefinitions: KeyValuePairs<String, JSONSchema> { get }
    /// Decodes the section at `path`, reporting problems to `decoder`'s sink; `nil` if it has any.
    static func decode(
        _ section: JSONNode, _ path: JSONPath, _ decoder: ScenarioDecoder, nodeIndex: [String: Int], duration: Double?
    ) -> Spec?
    /// What the section holds, in a few words, for `adhocsim validate` (none by default).
    static func outline(_ spec: Spec) -> String?
    /// Bytes each link frame of an IP flow leaves for the layer's own headers (0 unless it
    /// carries IP).
    static func ipReserve(_ spec: Spec) -> Int
}

extension LayerSection {
    static var schemaDefinitions: KeyValuePairs<String, JSONSchema> { [:] }
    static func ipReserve(_ spec: Spec) -> Int { 0 }
    static func outline(_ spec: Spec) -> String? { nil }
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

/// A JSON Schema (draft 2020-12) written in code: a form (`.string`, `.array(of:)`, `.ref`, …)
/// and keyword methods, each appending its keyword in the order written, which is the order
/// `adhocsim schema` prints. A declaration states the schema of its key as a value the compiler
/// checks, so no schema is JSON text parsed at start.
///
/// Only the keywords the scenario format uses are here (JSON Schema 2020-12 Validation,
/// §6.1–§6.5; Core, §8.2.3.1 `$ref` and §10.3 `items`/`prefixItems`).
struct JSONSchema: Sendable {
    /// Its keywords, in the order written.
    private(set) var members: [JSONMember]

    /// The schema that accepts any value (`{}`), to which keywords are added.
    init() { members = [] }

    /// The schema as a JSON object.
    var node: JSONNode { JSONNode(.object(members)) }

    /// This schema with `keyword` added after the ones it has.
    private func with(_ keyword: String, _ value: JSONValue) -> JSONSchema {
        var s = self
        s.members.append(JSONMember(key: keyword, value: JSONNode(value)))
        return s
    }

    // MARK: Forms

    /// A value of the JSON type `name` (§6.1.1).
    static func type(_ name: String) -> JSONSchema { JSONSchema().ofType(name) }
    /// A value of any of the JSON types `names`.
    static func types(_ names: [String]) -> JSONSchema {
        JSONSchema().with("type", .array(names.map { JSONNode(.string($0)) }))
    }
    /// Any value (`{}`).
    static var anything: JSONSchema { JSONSchema() }
    /// A string.
    static var string: JSONSchema { type("string") }
    /// A number.
    static var number: JSONSchema { type("number") }
    /// A whole number.
    static var integer: JSONSchema { type("integer") }
    /// `true` or `false`.
    static var boolean: JSONSchema { type("boolean") }
    /// `null`.
    static var null: JSONSchema { type("null") }
    /// An object.
    static var object: JSONSchema { type("object") }
    /// An array.
    static var array: JSONSchema { type("array") }
    /// An array whose every item is `items`.
    static func array(of items: JSONSchema) -> JSONSchema { array.items(items) }
    /// The definition `name` of the scenario schema's `$defs`.
    static func ref(_ name: String) -> JSONSchema { JSONSchema().with("$ref", .string("#/$defs/" + name)) }
    /// One of these strings (§6.1.2).
    static func oneOf(words: [String]) -> JSONSchema {
        JSONSchema().with("enum", .array(words.map { JSONNode(.string($0)) }))
    }
    /// One of these whole numbers.
    static func oneOf(numbers: [Int]) -> JSONSchema {
        JSONSchema().with("enum", .array(numbers.map { JSONNode(.number(JSONNumber(integer: $0))) }))
    }
    /// Exactly the string `word` (§6.1.3).
    static func const(_ word: String) -> JSONSchema { JSONSchema().with("const", .string(word)) }
    /// What any of `branches` accepts (Core §10.2.1.2).
    static func anyOf(_ branches: [JSONSchema]) -> JSONSchema { JSONSchema().anyOf(branches) }
    /// An object with these keys (§6.5.3), with no form of its own (a branch of `oneOf`).
    static func requiring(_ keys: [String]) -> JSONSchema { JSONSchema().required(keys) }

    // MARK: Numbers (§6.2)

    /// At least `v`.
    func minimum(_ v: Double) -> JSONSchema { with("minimum", .number(JSONNumber(v))) }
    /// At least the whole number `v`, written exactly.
    func minimum(exactly v: UInt64) -> JSONSchema { with("minimum", .number(JSONNumber(integer: v))) }
    /// Above `v`.
    func exclusiveMinimum(_ v: Double) -> JSONSchema { with("exclusiveMinimum", .number(JSONNumber(v))) }
    /// At most `v`.
    func maximum(_ v: Double) -> JSONSchema { with("maximum", .number(JSONNumber(v))) }
    /// At most the whole number `v`, written exactly (`UInt64.max` is not a `Double`).
    func maximum(exactly v: UInt64) -> JSONSchema { with("maximum", .number(JSONNumber(integer: v))) }
    /// Below `v`.
    func exclusiveMaximum(_ v: Double) -> JSONSchema { with("exclusiveMaximum", .number(JSONNumber(v))) }
    /// A multiple of `v`.
    func multipleOf(_ v: Double) -> JSONSchema { with("multipleOf", .number(JSONNumber(v))) }

    // MARK: Strings (§6.3)

    /// Matching the ECMA-262 regular expression `expression`.
    func pattern(_ expression: String) -> JSONSchema { with("pattern", .string(expression)) }
    /// At least `n` characters.
    func minLength(_ n: Int) -> JSONSchema { with("minLength", .number(JSONNumber(integer: n))) }

    // MARK: Arrays (§6.4; Core §10.3.1)

    /// Every item (after the `prefixItems`) is `schema`.
    func items(_ schema: JSONSchema) -> JSONSchema { with("items", schema.node.value) }
    /// No item after the `prefixItems`.
    func noMoreItems() -> JSONSchema { with("items", .bool(false)) }
    /// The first items, one schema each.
    func prefixItems(_ schemas: [JSONSchema]) -> JSONSchema { with("prefixItems", .array(schemas.map(\.node))) }
    /// At least `n` items.
    func minItems(_ n: Int) -> JSONSchema { with("minItems", .number(JSONNumber(integer: n))) }
    /// At most `n` items.
    func maxItems(_ n: Int) -> JSONSchema { with("maxItems", .number(JSONNumber(integer: n))) }
    /// Exactly `n` items.
    func count(_ n: Int) -> JSONSchema { minItems(n).maxItems(n) }
    /// No item twice.
    func uniqueItems() -> JSONSchema { with("uniqueItems", .bool(true)) }

    // MARK: Objects (§6.5; Core §10.3.2)

    /// The schemas of these keys, in this order.
    func properties(_ keys: KeyValuePairs<String, JSONSchema>) -> JSONSchema {
        with("properties", .object(keys.map { JSONMember(key: $0.key, value: $0.value.node) }))
    }
    /// The schemas of these keys, as members already built.
    func properties(members: [JSONMember]) -> JSONSchema { with("properties", .object(members)) }
    /// Every key the `properties` do not name is `schema`.
    func additionalProperties(_ schema: JSONSchema) -> JSONSchema { with("additionalProperties", schema.node.value) }
    /// No key the `properties` do not name.
    func closed() -> JSONSchema { with("additionalProperties", .bool(false)) }
    /// These keys must be present.
    func required(_ keys: [String]) -> JSONSchema { with("required", .array(keys.map { JSONNode(.string($0)) })) }
    /// At least `n` keys.
    func minProperties(_ n: Int) -> JSONSchema { with("minProperties", .number(JSONNumber(integer: n))) }
    /// At most `n` keys.
    func maxProperties(_ n: Int) -> JSONSchema { with("maxProperties", .number(JSONNumber(integer: n))) }
    /// The definitions `#/$defs/NAME` refers to (Core §8.2.4).
    func definitions(_ members: [JSONMember]) -> JSONSchema { with("$defs", .object(members)) }

    // MARK: Applicators (Core §10.2.1)

    /// Also what any of `branches` accepts.
    func anyOf(_ branches: [JSONSchema]) -> JSONSchema { with("anyOf", .array(branches.map(\.node))) }
    /// Also what exactly one of `branches` accepts.
    func oneOf(_ branches: [JSONSchema]) -> JSONSchema { with("oneOf", .array(branches.map(\.node))) }

    // MARK: Identification (Core §8.1.1, §8.2.1) and annotations (Validation §9.1)

    /// The dialect the schema is written in (`$schema`).
    func dialect(_ uri: String) -> JSONSchema { with("$schema", .string(uri)) }
    /// The schema's own address (`$id`).
    func id(_ uri: String) -> JSONSchema { with("$id", .string(uri)) }
    /// Its title.
    func title(_ text: String) -> JSONSchema { with("title", .string(text)) }
    /// Its JSON type, written after the keywords before it (the form `type(_:)` writes it first).
    func ofType(_ name: String) -> JSONSchema { with("type", .string(name)) }

    /// What an editor shows for the value.
    func description(_ text: String) -> JSONSchema { with("description", .string(text)) }
}

/// One scenario key, declared once (issue #28, after ns-3's `AddAttribute`): its name, what it
/// holds (a number in a range with a unit, or one of a few words), its default, one line of
/// help, and where the default comes from. The decoder's checks and messages, the JSON Schema's
/// entry and the docs' parameter table all come from this one declaration.
///
/// Declared by the layer that owns the setting (`HostParameters` in `Host/`); `Spec` is the
/// section's value type the decoder fills.
public struct Parameter<Spec>: Sendable {
    /// What the key holds.
    public enum Kind: Sendable {
        /// A JSON number in `range`, in `unit`.
        case number(ClosedRange<Double>, unit: String)
        /// One of these strings.
        case choice([String])
    }

    /// Where a default comes from (issue #26's rule: a source, "fitted", or "assumption").
    public enum Source: Sendable {
        /// A public source: a reference file, an RFC section, a paper, OS source.
        case cited(String)
        /// Fitted to the development set with `adhocsim calibrate`.
        case fitted
        /// No source; the reason for the value.
        case assumption(String)

        /// The label the docs print.
        public var text: String {
            switch self {
            case .cited(let s): return s
            case .fitted: return "fitted to MatthiasBart/evaluation_notebook (Field, Forest, Home)"
            case .assumption(let s): return "assumption: " + s
            }
        }
    }

    /// The key inside its section's object.
    public let key: String
    /// What it holds.
    public let kind: Kind
    /// The default, as a JSON literal (a number or a quoted word), or `nil` for "none".
    public let defaultValue: String?
    /// One line of help: what the value means.
    public let help: String
    /// What a message calls the expected value ("a per-message processing time in
    /// microseconds"); the range or the choices are added to it.
    public let expected: String
    /// Where the default comes from.
    public let source: Source
    /// Whether the key may also appear per node (`nodes[i].<section>`).
    public let perNode: Bool
    /// Stores a decoded number (`.number` keys).
    let setNumber: (@Sendable (inout Spec, Double) -> Void)?
    /// Stores a decoded word (`.choice` keys).
    let setChoice: (@Sendable (inout Spec, String) -> Void)?

    private init(
        key: String, kind: Kind, defaultValue: String?, help: String, expected: String, source: Source, perNode: Bool,
        setNumber: (@Sendable (inout Spec, Double) -> Void)?, setChoice: (@Sendable (inout Spec, String) -> Void)?
    ) {
        (self.key, self.kind, self.defaultValue, self.help) = (key, kind, defaultValue, help)
        (self.expected, self.source, self.perNode) = (expected, source, perNode)
        (self.setNumber, self.setChoice) = (setNumber, setChoice)
    }

    /// A number key.
    public init(
        _ key: String, number range: ClosedRange<Double>, unit: String, default value: String?, help: String,
        expected: String, source: Source, perNode: Bool = true, set: @escaping @Sendable (inout Spec, Double) -> Void
    ) {
        self.init(
            key: key, kind: .number(range, unit: unit), defaultValue: value, help: help, expected: expected,
            source: source, perNode: perNode, setNumber: set, setChoice: nil)
    }

    /// A choice key.
    public init(
        _ key: String, choices: [String], default value: String?, help: String, expected: String, source: Source,
        perNode: Bool = true, set: @escaping @Sendable (inout Spec, String) -> Void
    ) {
        self.init(
            key: key, kind: .choice(choices), defaultValue: value, help: help, expected: expected, source: source,
            perNode: perNode, setNumber: nil, setChoice: set)
    }

    /// The message phrase with its range: "a warm-up time constant in milliseconds, 0.001...60000".
    var expectedWithRange: String {
        switch kind {
        case .number(let r, _): return "\(expected), \(JSONNumber(r.lowerBound).literal)...\(JSONNumber(r.upperBound).literal)"
        case .choice: return expected
        }
    }

    /// The key's JSON Schema: `{"type": "number", "minimum", "maximum"}` or `{"enum": [...]}`.
    public var schema: JSONNode {
        switch kind {
        case .number(let r, _):
            return JSONNode(
                .object([
                    JSONMember(key: "type", value: JSONNode(.string("number"))),
                    JSONMember(key: "minimum", value: JSONNode(.number(JSONNumber(r.lowerBound)))),
                    JSONMember(key: "maximum", value: JSONNode(.number(JSONNumber(r.upperBound))))
                ]))
        case .choice(let words):
            return JSONNode(.object([JSONMember(key: "enum", value: JSONNode(.array(words.map { JSONNode(.string($0)) })))]))
        }
    }
}

/// A section's declarations: the decoder, the schema and the docs table of one object.
public struct ParameterSection<Spec>: Sendable {
    /// The section's JSON key (`host`).
    public let name: String
    /// Its declarations, in the order the docs and the schema list them.
    public let parameters: [Parameter<Spec>]

    /// A section of these declarations.
    public init(_ name: String, _ parameters: [Parameter<Spec>]) {
        self.name = name
        self.parameters = parameters
    }

    /// The declarations allowed where `perNode` says (per node: only those marked so).
    func allowed(perNode: Bool) -> [Parameter<Spec>] { parameters.filter { !perNode || $0.perNode } }

    /// The JSON Schema of the section's object, scenario-wide or per node.
    public func schema(perNode: Bool) -> JSONNode {
        let properties = allowed(perNode: perNode).map { JSONMember(key: $0.key, value: $0.schema) }
        return JSONNode(
            .object([
                JSONMember(key: "type", value: JSONNode(.string("object"))),
                JSONMember(key: "properties", value: JSONNode(.object(properties))),
                JSONMember(key: "additionalProperties", value: JSONNode(.bool(false)))
            ]))
    }

    /// The docs' parameter table (Markdown): key, value, default, meaning, source.
    public var markdownTable: String {
        var s = "| key | value | default | meaning | source |\n|---|---|---|---|---|\n"
        for p in parameters {
            let value: String
            switch p.kind {
            case .number(let r, let unit):
                value = "\(JSONNumber(r.lowerBound).literal) … \(JSONNumber(r.upperBound).literal)" + (unit.isEmpty ? "" : " \(unit)")
            case .choice(let words): value = words.map { "`\"\($0)\"`" }.joined(separator: ", ")
            }
            let where_ = p.perNode ? "`\(name).\(p.key)`, `nodes[i].\(name).\(p.key)`" : "`\(name).\(p.key)`"
            s += "| \(where_) | \(value) | \(p.defaultValue.map { "`\($0)`" } ?? "none") | \(p.help) | \(p.source.text) |\n"
        }
        return s
    }
}

extension ScenarioDecoder {
    /// Decodes an object of `section`'s keys into a `Spec` starting from `spec`: each present
    /// key checked against its declaration (a number in range, or one of the words), every
    /// problem reported at its path. `nil` after a problem.
    func decode<Spec>(
        _ section: ParameterSection<Spec>, _ node: JSONNode, _ path: JSONPath, into spec: Spec, perNode: Bool
    ) -> Spec? {
        let keys = section.allowed(perNode: perNode).map { "\"\($0.key)\"" }.joined(separator: ", ")
        guard let r = ObjectReader(node, path: path, sink: sink, expected: "an object {\(keys)}") else { return nil }
        defer { r.finish() }
        var spec = spec
        var ok = true
        for p in section.allowed(perNode: perNode) {
            guard let v = r.value(p.key) else { continue }
            switch p.kind {
            case .number(let range, _):
                if let x = values.number(v, path.appending(p.key), p.expectedWithRange, in: range) {
                    p.setNumber?(&spec, x)
                } else {
                    ok = false
                }
            case .choice(let words):
                if let w = values.choice(v, path.appending(p.key), p.expected, from: words) {
                    p.setChoice?(&spec, w)
                } else {
                    ok = false
                }
            }
        }
        return ok ? spec : nil
    }
}

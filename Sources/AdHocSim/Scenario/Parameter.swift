/// One scenario key, declared once (after ns-3's `AddAttribute`): its name, what it
/// holds (a number in a range with a unit, or one of a few words), its default, one line of
/// help, and where the default comes from. The decoder's checks and messages, the JSON Schema's
/// entry and the docs' parameter table all come from this one declaration.
///
/// Declared by the layer that owns the setting (`HostParameters` in `Host/`); `Spec` is the
/// section's value type the decoder fills.
struct Parameter<Spec>: Sendable {
    /// What the key holds, and how a decoded value is stored into the section's `Spec` (one
    /// case per kind, so a kind cannot meet the wrong setter).
    enum Kind: Sendable {
        /// A JSON number in `range`, in `unit`.
        case number(ClosedRange<Double>, unit: String, set: @Sendable (inout Spec, Double) -> Void)
        /// A whole number in `range`, in `unit`.
        case integer(ClosedRange<UInt64>, unit: String, set: @Sendable (inout Spec, Int) -> Void)
        /// A time of at most `upTo` in `unit` (`scale` seconds each), above zero (or zero when
        /// `allowZero`), never rounding to 0 ns; `null` too when `nullable` (stored as `nil`: the
        /// effect off).
        case duration(
            upTo: Double, unit: String, scale: Double, allowZero: Bool, nullable: Bool,
            set: @Sendable (inout Spec, Double?) -> Void)
        /// `true` or `false`.
        case bool(set: @Sendable (inout Spec, Bool) -> Void)
        /// A JSON string: any (`.any`), or a name (`.identifier`: 1 to 64 letters, digits, `.`,
        /// `_`, `:` or `-`, as `Identifier.isValidID` checks).
        case string(StringForm, set: @Sendable (inout Spec, String) -> Void)
        /// One of these strings.
        case choice([String], set: @Sendable (inout Spec, String) -> Void)
        /// One of these whole numbers, in `unit`.
        case oneOf([Int], unit: String, set: @Sendable (inout Spec, Int) -> Void)
        /// A value of another shape (`"auto"` or a number, a list of slots, an object or `null`):
        /// `schema` is its JSON Schema, `value` the docs' value column, and `decode`
        /// reads it (reporting through the reader's sink, the message phrase given) into the
        /// spec, `false` after a problem.
        case custom(
            schema: JSONSchema, value: String,
            decode: @Sendable (ValueReader, JSONNode, JSONPath, String, inout Spec) -> Bool)
    }

    /// Which strings a `.string` key takes.
    enum StringForm: Sendable {
        /// Any string.
        case any
        /// A name of 1 to 64 letters, digits, `.`, `_`, `:` or `-` (a node's or a flow's id).
        case identifier
    }

    /// Where a default comes from (the project's rule: a source, "fitted", or "assumption").
    public enum Source: Sendable {
        /// A public source: a reference file, an RFC section, a paper, OS source.
        case cited(String)
        /// Fitted to the development set with `adhocsim calibrate`.
        case fitted
        /// No source; the reason for the value.
        case assumption(String)
        /// No default to source: the key is required.
        case required

        /// The label the docs print.
        public var text: String {
            switch self {
            case .cited(let s): return s
            case .fitted: return "fitted to MatthiasBart/evaluation_notebook (Field, Forest, Home)"
            case .assumption(let s): return "assumption: " + s
            case .required: return "—"
            }
        }
    }

    /// The key inside its section's object.
    public let key: String
    /// What it holds.
    public let kind: Kind
    /// The default, as a JSON literal (a number, `true`, a quoted word, `null`).
    public let defaultValue: String
    /// One line of help: what the value means.
    public let help: String
    /// What a message calls the expected value; `{range}` stands for the range as the kind
    /// writes it ("0...500", "> 0 and ≤ 7200").
    public let expected: String
    /// Where the default comes from.
    public let source: Source
    /// Whether the key may also appear per node (`nodes[i].<section>`).
    public let perNode: Bool
    /// When the key must be present: what the "missing required key" message calls it.
    public let required: String?
    /// A declaration.
    init(
        _ key: String, _ kind: Kind, default value: String, help: String, expected: String, source: Source,
        perNode: Bool = false, required: String? = nil
    ) {
        (self.key, self.kind, defaultValue, self.help) = (key, kind, value, help)
        (self.expected, self.source, self.perNode, self.required) = (expected, source, perNode, required)
        expectedWithRange = Self.phrase(expected, kind)
    }

    /// The message phrase with its range, written once per declaration: every decode reads it
    /// for each key present, and building it (a `replacingOccurrences`) costs about a fifth of a
    /// small scenario's decode.
    let expectedWithRange: String

    /// `expected` with `{range}` written as `kind` writes its range.
    private static func phrase(_ expected: String, _ kind: Kind) -> String {
        let range: String
        switch kind {
        case .number(let r, _, _): range = "\(JSONNumber(r.lowerBound).literal)...\(JSONNumber(r.upperBound).literal)"
        case .integer(let r, _, _): range = "\(r.lowerBound)...\(r.upperBound)"
        case .duration(let upTo, _, _, let zero, _, _):
            range = zero ? "0...\(JSONNumber(upTo).literal)" : "> 0 and ≤ \(JSONNumber(upTo).literal)"
        case .bool, .string, .choice, .oneOf, .custom: range = ""
        }
        return expected.replacingOccurrences(of: "{range}", with: range)
    }

    /// The key's JSON Schema, with its help line as the description editors show.
    var schema: JSONSchema { typeSchema.description(help) }

    /// The key's JSON Schema without a description.
    var typeSchema: JSONSchema {
        switch kind {
        case .number(let r, _, _):
            return .number.minimum(r.lowerBound).maximum(r.upperBound)
        case .integer(let r, _, _):
            return .integer.minimum(exactly: r.lowerBound).maximum(exactly: r.upperBound)
        case .duration(let upTo, _, _, let zero, let nullable, _):
            let time = (zero ? JSONSchema.number.minimum(0) : JSONSchema.number.exclusiveMinimum(0)).maximum(upTo)
            return nullable ? .anyOf([time, .null]) : time
        case .bool:
            return .boolean
        case .string:
            return .string
        case .choice(let words, _):
            return .oneOf(words: words)
        case .oneOf(let numbers, _, _):
            return .oneOf(numbers: numbers)
        case .custom(let schema, _, _):
            return schema
        }
    }

    /// The default column of the docs' table: a JSON literal as code, words ("per place") as
    /// they are.
    var defaultText: String {
        let literal = JSONNode.isLiteral(defaultValue)
        return literal ? "`\(defaultValue)`" : defaultValue
    }

    /// The value column of the docs' table.
    var valueText: String {
        func unit(_ u: String) -> String { u.isEmpty ? "" : " \(u)" }
        switch kind {
        case .number(let r, let u, _):
            return "\(JSONNumber(r.lowerBound).literal) … \(JSONNumber(r.upperBound).literal)" + unit(u)
        case .integer(let r, let u, _): return "\(r.lowerBound) … \(r.upperBound)" + unit(u)
        case .duration(let upTo, let u, _, let zero, let nullable, _):
            return (zero ? "0 … " : "> 0 … ") + JSONNumber(upTo).literal + unit(u)
                + (nullable ? ", or `null` (off)" : "")
        case .bool: return "`true`, `false`"
        case .string(.any, _): return "a string"
        case .string(.identifier, _): return "1 to 64 letters, digits, `.`, `_`, `:` or `-`"
        case .choice(let words, _): return words.map { "`\"\($0)\"`" }.joined(separator: ", ")
        case .oneOf(let numbers, let u, _): return numbers.map { "`\($0)`" }.joined(separator: ", ") + unit(u)
        case .custom(_, let value, _): return value
        }
    }
}

/// A section's declarations: the decoder, the schema and the docs table of one object, with
/// the objects nested in it (`transport.tcp`).
struct ParameterSection<Spec>: Sendable {
    /// The section's JSON key (`host`, `tcp`).
    public let name: String
    /// Its declarations, in the order the docs and the schema list them.
    public let parameters: [Parameter<Spec>]
    /// Objects inside it, each a section of the same `Spec`.
    public let subsections: [ParameterSection<Spec>]
    /// What a message calls the object when it is not one (default: its keys listed).
    public let objectExpected: String?
    /// The schema's description of the object.
    public let description: String?

    /// A section of these declarations.
    init(
        _ name: String, _ parameters: [Parameter<Spec>], subsections: [ParameterSection<Spec>] = [],
        objectExpected: String? = nil, description: String? = nil
    ) {
        (self.name, self.parameters, self.subsections) = (name, parameters, subsections)
        (self.objectExpected, self.description) = (objectExpected, description)
    }

    /// The declarations allowed where `perNode` says (per node: only those marked so).
    func allowed(perNode: Bool) -> [Parameter<Spec>] { parameters.filter { !perNode || $0.perNode } }

    /// The schemas of the section's keys and of the objects inside it, scenario-wide or per node.
    func properties(perNode: Bool) -> [JSONMember] {
        let own = allowed(perNode: perNode).map { JSONMember(key: $0.key, value: $0.schema.node) }
        guard !perNode else { return own }
        return own + subsections.map { JSONMember(key: $0.name, value: $0.schema(perNode: false).node) }
    }

    /// The JSON Schema of the section's object, scenario-wide or per node.
    func schema(perNode: Bool) -> JSONSchema {
        var object = JSONSchema.object.properties(members: properties(perNode: perNode)).closed()
        let required = allowed(perNode: perNode).filter { $0.required != nil }.map(\.key)
        if !required.isEmpty { object = object.required(required) }
        if let description, !perNode { object = object.description(description) }
        return object
    }

    /// The docs' parameter table (Markdown): key, value, default, meaning, source.
    public var markdownTable: String {
        "| key | value | default | meaning | source |\n|---|---|---|---|---|\n" + rows(prefix: name)
    }

    func rows(prefix: String) -> String {
        var s = ""
        for p in parameters {
            let full = prefix.isEmpty ? p.key : prefix + "." + p.key
            let key = p.perNode ? "`\(full)`, `nodes[i].\(full)`" : "`\(full)`"
            s += "| \(key) | \(p.valueText) | \(p.defaultText) | \(p.help) | \(p.source.text) |\n"
        }
        for sub in subsections { s += sub.rows(prefix: prefix + "." + sub.name) }
        return s
    }
}

extension ParameterSection {
    /// The schema of an object whose `kind` chooses its keys (a flow's workload, a traffic
    /// generator): one `anyOf` branch per kind, each with `common`'s keys, its `kind` and its
    /// own keys, closed to others, with its required keys.
    static func kindSchema(
        common: ParameterSection<Spec>? = nil, kinds: [(name: String, section: ParameterSection<Spec>)]
    ) -> JSONSchema {
        func properties(_ section: ParameterSection<Spec>?) -> [JSONMember] {
            section?.properties(perNode: false) ?? []
        }
        let branches = kinds.map { kind -> JSONSchema in
            let own = JSONMember(key: "kind", value: JSONSchema.const(kind.name).node)
            let keys = properties(common) + [own] + properties(kind.section)
            let declared = (common?.parameters ?? []) + kind.section.parameters
            let required = ["kind"] + declared.filter { $0.required != nil }.map(\.key)
            return JSONSchema.object.properties(members: keys).closed().required(required)
        }
        return .anyOf(branches)
    }
}

/// One declared section as the schema and the docs need it, whatever its `Spec`.
public struct DeclaredSection: Sendable {
    /// The section's key (`host`).
    public let name: String
    /// The model page that holds its table (`docs/models/PAGE.md`).
    public let page: String
    /// Its docs table (`adhocsim schema --table NAME`, `docs/models/NAME.md`).
    public let markdownTable: String
    /// Where its objects stand in the schema (object keys, array indices as digits) and what
    /// they are.
    let schemaObjects: [(path: [String], object: JSONSchema)]

    /// The declared sections, in the order `adhocsim schema --table` lists them: the one list
    /// that registers a section with the schema, the command and the docs test.
    public static let all: [DeclaredSection] =
        [
            DeclaredSection(
                name: HostParameters.section.name, page: "host", markdownTable: HostParameters.section.markdownTable,
                schemaObjects: [(["properties", "host"], HostParameters.section.schema(perNode: false))]),
            DeclaredSection(
                name: TransportParameters.section.name, page: "transport",
                markdownTable: TransportParameters.section.markdownTable,
                schemaObjects: [(["properties", "transport"], TransportParameters.section.schema(perNode: false))]),
            DeclaredSection(
                name: RunLimitParameters.section.name, page: "core",
                markdownTable: RunLimitParameters.section.markdownTable,
                schemaObjects: [(["properties", "limits"], RunLimitParameters.section.schema(perNode: false))]),
            DeclaredSection(
                name: "top", page: "core", markdownTable: ScenarioParameters.section.markdownTable,
                schemaObjects: ScenarioParameters.section.parameters.map { (["properties", $0.key], $0.schema) }),
            DeclaredSection(
                name: "distance", page: "core", markdownTable: ScenarioParameters.distance.markdownTable,
                schemaObjects: ScenarioParameters.distance.parameters.map { (["properties", $0.key], $0.schema) }),
            DeclaredSection(
                name: "nodes", page: "core", markdownTable: NodeParameters.section.markdownTable,
                schemaObjects: [
                    (["properties", "nodes", "anyOf", "0", "items"], NodeParameters.section.schema(perNode: false))
                ]),
            DeclaredSection(
                name: "mobility.waypoints", page: "core", markdownTable: MobilityParameters.waypoints.markdownTable,
                schemaObjects: []),
            DeclaredSection(
                name: "mobility.random-waypoint", page: "core",
                markdownTable: MobilityParameters.randomWaypoint.markdownTable,
                schemaObjects: []),
            DeclaredSection(
                name: "nodes.placement", page: "core", markdownTable: PlacementParameters.section.markdownTable,
                schemaObjects: []),
            DeclaredSection(
                name: "events", page: "core", markdownTable: NodeEventParameters.section.markdownTable,
                schemaObjects: [(["properties", "events", "items"], NodeEventParameters.section.schema(perNode: false))]
            ),
            DeclaredSection(
                name: "flows", page: "workload", markdownTable: FlowParameters.flow.markdownTable,
                schemaObjects: [(["properties", "flows", "items"], FlowParameters.flow.schema(perNode: false))])
        ] + [
            DeclaredSection(
                name: "traffic", page: "link", markdownTable: TrafficParameters.common.markdownTable,
                schemaObjects: [(["properties", "traffic", "items"], TrafficParameters.schema)])
        ]
        + TrafficParameters.kinds.map {
            DeclaredSection(
                name: "traffic.\($0.name)", page: "link", markdownTable: $0.section.markdownTable, schemaObjects: [])
        }
        + FlowParameters.kinds.map {
            DeclaredSection(
                name: "flows.workload.\($0.name)", page: "workload", markdownTable: $0.section.markdownTable,
                schemaObjects: [])
        } + [
            DeclaredSection(
                name: EnvironmentParameters.section.name, page: "radio",
                markdownTable: EnvironmentParameters.section.markdownTable,
                schemaObjects: [(["properties", "environment"], EnvironmentParameters.section.schema(perNode: false))]),
            DeclaredSection(
                name: RadioParameters.section.name, page: "radio", markdownTable: RadioParameters.section.markdownTable,
                schemaObjects: [(["properties", "radio"], RadioParameters.section.schema(perNode: false))]),
            DeclaredSection(
                name: LinkParameters.ideal.name, page: "link", markdownTable: LinkParameters.ideal.markdownTable,
                schemaObjects: [(["properties", "link"], LinkParameters.ideal.schema(perNode: false))]),
            DeclaredSection(
                name: LinkParameters.mac.name, page: "link", markdownTable: LinkParameters.mac.markdownTable,
                schemaObjects: [(["properties", "mac"], LinkParameters.mac.schema(perNode: false))])
        ] + ExpectationParameters.declaredSections + LayerSpecs.declaredSections
}

extension ScenarioDecoder {
    /// Decodes an object of `section`'s keys (and its nested sections) into a `Spec` starting
    /// from `spec`: each present key checked against its declaration, every problem reported at
    /// its path. `rest` then reads the object's undeclared keys (lists that refer to nodes, in
    /// the section's own code) from the same reader, so unknown keys are judged against both.
    /// `nil` after a problem.
    func decode<Spec>(
        _ section: ParameterSection<Spec>, _ node: JSONNode, _ path: JSONPath, into spec: Spec, perNode: Bool,
        then rest: ((ObjectReader, inout Spec) -> Bool)? = nil
    ) -> Spec? {
        values.decode(section, node, path, into: spec, perNode: perNode, then: rest)
    }
}

extension ValueReader {
    /// `ScenarioDecoder.decode(_:…)`, for declarations whose own values are objects of
    /// declared keys (a flow's `workload`).
    func decode<Spec>(
        _ section: ParameterSection<Spec>, _ node: JSONNode, _ path: JSONPath, into spec: Spec, perNode: Bool,
        then rest: ((ObjectReader, inout Spec) -> Bool)? = nil
    ) -> Spec? {
        guard let (spec, ok) = decodeAll(section, node, path, into: spec, perNode: perNode, then: rest), ok else {
            return nil
        }
        return spec
    }

    /// `decode`, keeping what was read when a key was wrong (`ok` false): `nil` only when the
    /// node is not an object. (A node's id still names it for references when its position is
    /// wrong.)
    func decodeAll<Spec>(
        _ section: ParameterSection<Spec>, _ node: JSONNode, _ path: JSONPath, into spec: Spec, perNode: Bool,
        then rest: ((ObjectReader, inout Spec) -> Bool)? = nil
    ) -> (Spec, ok: Bool)? {
        let names = section.allowed(perNode: perNode).map(\.key) + (perNode ? [] : section.subsections.map(\.name))
        let expected = section.objectExpected ?? "an object {\(names.map { "\"\($0)\"" }.joined(separator: ", "))}"
        guard let r = ObjectReader(node, path: path, sink: sink, expected: expected) else { return nil }
        defer { r.finish() }
        var spec = spec
        var ok = read(section, from: r, path, into: &spec, perNode: perNode)
        if let rest, !rest(r, &spec) { ok = false }
        return (spec, ok)
    }

    /// Reads `section`'s keys from an object already being read (`r`), in declaration order,
    /// into `spec`; false after a problem.
    func read<Spec>(
        _ section: ParameterSection<Spec>, from r: ObjectReader, _ path: JSONPath, into spec: inout Spec, perNode: Bool
    ) -> Bool {
        var ok = true
        for p in section.allowed(perNode: perNode) {
            let present: JSONNode?
            if let what = p.required {
                present = r.required(p.key, what)
                if present == nil { ok = false }
            } else {
                present = r.value(p.key)
            }
            guard let v = present else { continue }
            let at = path.appending(p.key)
            let what = p.expectedWithRange
            switch p.kind {
            case .number(let range, _, let set):
                if let x = number(v, at, what, in: range) { set(&spec, x) } else { ok = false }
            case .integer(let range, _, let set):
                if let x = integer(v, at, what, in: range) { set(&spec, Int(x)) } else { ok = false }
            case .duration(let upTo, _, let scale, let zero, let nullable, let set):
                if nullable && v.value == .null {
                    set(&spec, nil)
                } else if let x = duration(v, at, what, unit: scale, upTo: upTo, allowZero: zero) {
                    set(&spec, x)
                } else {
                    ok = false
                }
            case .bool(let set):
                if let x = bool(v, at, what) { set(&spec, x) } else { ok = false }
            case .string(let form, let set):
                let s = form == .identifier ? identifier(v, at, what) : string(v, at, what)
                if let s { set(&spec, s) } else { ok = false }
            case .choice(let words, let set):
                if let w = choice(v, at, what, from: words) { set(&spec, w) } else { ok = false }
            case .oneOf(let numbers, _, let set):
                if let x = oneOf(v, at, what, numbers) { set(&spec, x) } else { ok = false }
            case .custom(_, _, let decode):
                if !decode(self, v, at, what, &spec) { ok = false }
            }
        }
        if !perNode {
            for sub in section.subsections {
                guard let v = r.value(sub.name) else { continue }
                if let s = decode(sub, v, path.appending(sub.name), into: spec, perNode: false) {
                    spec = s
                } else {
                    ok = false
                }
            }
        }
        return ok
    }
}

extension JSONNode {
    /// Whether `text` is one JSON value (a declaration's default: a literal, or words such as
    /// "per place" the docs print as they are).
    static func isLiteral(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var parser = JSONParser(bytes: bytes, sink: DiagnosticSink(file: "declaration", lineMap: LineMap(bytes)))
        return parser.parseDocument() != nil
    }
}

/// A section item whose keys may name nodes by id.
protocol NodeReferencing: Sendable {
    /// Node ids to indices.
    var nodeIndex: [String: Int] { get }
}

extension Parameter where Spec: NodeReferencing {
    /// A required key naming one node by id: one schema, docs value and message for every such
    /// key (`mesh.phones[i].node`, `ble.connections[i].central`, `events[i].node`,
    /// `mesh.messages[i].from`, `traffic[i].from`, `ble.advertisers[i].node`, …); `required` is
    /// what the "missing required key" message calls it.
    static func nodeReference(
        _ key: String, help: String, required: String = "a node id", set: @escaping @Sendable (inout Spec, Int) -> Void
    ) -> Parameter {
        Parameter(
            key,
            .custom(
                schema: .ref("nodeId"), value: "a node id",
                decode: { values, v, at, _, item in
                    guard let n = values.node(v, at, in: item.nodeIndex) else { return false }
                    set(&item, n)
                    return true
                }),
            default: "required", help: help, expected: "a node id", source: .required, required: required)
    }
}

extension Parameter where Spec: NodeReferencing {
    /// A list of node ids: one schema, check and message for `traffic[i].nodes` and
    /// `expectations[i].route.avoids`.
    static func nodeList(
        _ key: String, default value: String, help: String, source: Source,
        set: @escaping @Sendable (inout Spec, [Int]) -> Void
    ) -> Parameter {
        Parameter(
            key,
            .custom(
                schema: .array(of: .ref("nodeId")), value: "an array of node ids",
                decode: { values, v, at, _, item in
                    guard let items = values.array(v, at, "an array of node ids") else { return false }
                    var picked: [Int] = []
                    var ok = true
                    for (j, element) in items.enumerated() {
                        if let n = values.node(element, at.appending(j), in: item.nodeIndex) {
                            picked.append(n)
                        } else {
                            ok = false
                        }
                    }
                    set(&item, picked)
                    return ok
                }),
            default: value, help: help, expected: "an array of node ids", source: source)
    }
}

/// A section item that knows the run's duration (times must fall inside it).
protocol RunBounded: Sendable {
    /// The run's duration, s (`nil`: not known yet).
    var runDuration: Double? { get }
}

extension Parameter where Spec: RunBounded {
    /// A time in seconds from 0 to the run's duration (the longest run when it is not known),
    /// its message "`phrase` in 0...D`suffix`": one schema and check for `events[i].at_s`,
    /// `traffic[i].start_s`, `mesh.messages[i].start_s`, `expectations[i].by_s`/`at_s` and
    /// `routes_within_s`'s `max`.
    static func withinRun(
        _ key: String, phrase: String, suffix: String = "", default value: String, help: String, expected: String,
        source: Source, required: String? = nil, set: @escaping @Sendable (inout Spec, Double) -> Void
    ) -> Parameter {
        Parameter(
            key,
            .custom(
                schema: .number.minimum(0), value: "0 … the run's duration, s",
                decode: { values, v, at, _, item in
                    let upper = item.runDuration ?? ScenarioBounds.maxDurationSeconds
                    guard
                        let s = values.number(
                            v, at, "\(phrase) in 0...\(JSONNumber(upper).literal)\(suffix)", in: 0...upper)
                    else { return false }
                    set(&item, s)
                    return true
                }),
            default: value, help: help, expected: expected, source: source, required: required)
    }

    /// A time in seconds from 0 to the run's duration (the longest run when it is not known),
    /// when something starts: one check and message for `ble.advertisers[i].startS`,
    /// `ble.scanners[i].startS`, `ble.connections[i].atS`. Unlike `withinRun` it is a clock
    /// time, so a value that rounds to 0 ns is refused with the duration's message.
    static func startSeconds(
        _ key: String, help: String, set: @escaping @Sendable (inout Spec, SimTime) -> Void
    ) -> Parameter {
        Parameter(
            key,
            .custom(
                schema: .number.minimum(0), value: "0 … the run's duration, s",
                decode: { values, v, at, what, item in
                    guard
                        let s = values.duration(
                            v, at, what, upTo: item.runDuration ?? ScenarioBounds.maxDurationSeconds, allowZero: true)
                    else { return false }
                    set(&item, .seconds(s))
                    return true
                }),
            default: "0", help: help, expected: "a start time in seconds, ≥ 0 and within the run",
            source: .assumption("from the start"))
    }
}

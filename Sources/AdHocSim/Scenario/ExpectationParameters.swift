/// A regression check's keys (`expectations[i]`), each form's declared once: the
/// decoder's checks and messages, the schema's expectation objects (one `anyOf` branch per
/// form) and the tables in `docs/models/core.md` come from here. An expectation checks one
/// thing, so each form is a section of its own, chosen by the key that names it (`fingerprint`,
/// `metric`, `by_s` or `at_s`); a key of another form is an error at that key, never ignored.
/// Rules between keys stay in code after the declarations (`decodeExpectations`: a ratio needs
/// `min` or `max`; a group message's workloads).
enum ExpectationParameters {
    /// One expectation being read, with what its keys refer to.
    struct Item: NodeReferencing, RunBounded {
        /// Node ids to indices.
        let nodeIndex: [String: Int]
        /// The run's duration, s (times must fall inside it; `nil`: the format's longest run).
        let runDuration: Double?
        /// The mesh message workloads' ids, each one's group (the id a group message was given;
        /// `nil` for one recipient), and the flows' ids.
        let workloads: [String]
        let groups: [String?]
        let flows: [String]
        var time = SimTime.zero
        var from = 0
        var to = 0
        var avoids: [Int] = []
        var maxHops: Int?
        /// The workloads or flow a ratio is about (a group message: every member's workload).
        var targets: [Int] = []
        var min: Double?
        var max: Double?
        var fingerprint = ""
    }

    /// What an expectation checks.
    enum Shape: Sendable, Equatable {
        case routeBy, routeAt, metric(ExpectationMetric), fingerprint

        /// The key that chooses the shape.
        var key: String {
            switch self {
            case .routeBy: return "by_s"
            case .routeAt: return "at_s"
            case .metric: return "metric"
            case .fingerprint: return "fingerprint"
            }
        }
    }

    /// One form: its shape and its keys.
    struct Form: Sendable {
        let shape: Shape
        let section: ParameterSection<Item>
        /// Its keys, in declaration order.
        var keys: [String] { section.parameters.map(\.key) }
        /// The metric it checks, for a metric.
        var metric: ExpectationMetric? {
            if case .metric(let m) = shape { return m }
            return nil
        }
    }

    /// The forms, in the order `adhocsim check --help`, the schema and the docs list them.
    static let forms: [Form] =
        [
            Form(
                shape: .routeBy,
                section: ParameterSection(
                    "expectations[i]",
                    [
                        seconds(
                            "by_s", help: "the latest time the route may first exist (looked at every 100 ms)",
                            required: "the time", set: { $0.time = .seconds($1) }),
                        route(routeBy)
                    ])),
            Form(
                shape: .routeAt,
                section: ParameterSection(
                    "expectations[i]",
                    [
                        seconds(
                            "at_s", help: "when the route must exist, avoid `avoids` and have at most `maxHops` hops",
                            required: "the time", set: { $0.time = .seconds($1) }),
                        route(routeAt)
                    ]))
        ]
        + ExpectationMetric.allCases.map { metricForm($0) }
        + [
            Form(
                shape: .fingerprint,
                section: ParameterSection(
                    "expectations[i]",
                    [
                        Parameter(
                            "fingerprint",
                            .custom(
                                schema: .string.pattern("^[0-9a-fA-F]{16}$"), value: "16 hex digits",
                                decode: { values, v, at, what, item in
                                    guard let hex = values.string(v, at, what) else { return false }
                                    guard hex.utf8.count == 16, HexText.isHex(hex) else {
                                        values.sink.report("expected 16 hex digits", path: at, at: v.origin)
                                        return false
                                    }
                                    item.fingerprint = hex.lowercased()
                                    return true
                                }),
                            default: "required",
                            help:
                                "the run's event-trajectory fingerprint (`metadata.json`): any change of behaviour fails it",
                            expected: "16 hex digits", source: .required, required: "16 hex digits")
                    ]))
        ]

    /// A metric's form: `metric` and the keys that metric takes.
    static func metricForm(_ metric: ExpectationMetric) -> Form {
        let name = Parameter<Item>(
            "metric", .choice([metric.rawValue], set: { _, _ in }), default: "required", help: metric.help,
            expected: "a metric", source: .required, required: "a metric")
        let keys: [Parameter<Item>]
        switch metric {
        case .maxSessionSize:
            keys = [
                Parameter(
                    "max", .integer(1...64, unit: "phones", set: { $0.max = Double($1) }), default: "required",
                    help: "the largest session allowed, the phone included", expected: "a session size in {range}",
                    source: .required, required: "the largest allowed value")
            ]
        case .maxNeighbours:
            keys = [
                Parameter(
                    "max", .integer(0...64, unit: "peers", set: { $0.max = Double($1) }), default: "required",
                    help: "the most session peers a phone may have", expected: "a number of peers in {range}",
                    source: .required, required: "the largest allowed value")
            ]
        case .routesWithin:
            keys = [
                seconds(
                    "max", help: "the longest a pair may wait for its first route after both joined",
                    required: "the longest wait for a route in seconds", set: { $0.max = $1 })
            ]
        case .deliveryRatio, .flowDelivered:
            keys = [
                target(flows: metric == .flowDelivered), ratio("min", "the lowest share allowed", { $0.min = $1 }),
                ratio("max", "the highest share allowed", { $0.max = $1 })
            ]
        }
        return Form(shape: .metric(metric), section: ParameterSection("expectations[i]", [name] + keys))
    }

    /// Every key of every form, each once, in form order (the keys a form refuses are the rest).
    static let allKeys: [String] = forms.flatMap(\.keys).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }

    /// The keys only metrics take (a metric refusing one names what it takes instead).
    static let metricKeys: [String] = allKeys.filter { key in
        key != "metric" && forms.contains { $0.metric != nil && $0.keys.contains(key) }
    }

    // MARK: Declarations used by several forms

    /// A required time in seconds from 0 to the run's duration.
    static func seconds(
        _ key: String, help: String, required: String, set: @escaping @Sendable (inout Item, Double) -> Void
    ) -> Parameter<Item> {
        .withinRun(
            key, phrase: "a time in seconds", default: "required", help: help, expected: "a time in seconds",
            source: .required, required: required, set: set)
    }

    /// A share in 0…1 (`min` or `max` of a ratio metric); at least one of the two is given.
    static func ratio(
        _ key: String, _ help: String, _ set: @escaping @Sendable (inout Item, Double) -> Void
    ) -> Parameter<Item> {
        Parameter(
            key, .number(0...1, unit: "", set: set), default: "no bound", help: help, expected: "a ratio in {range}",
            source: .assumption("unbounded on that side unless given"))
    }

    /// `flow` of a ratio metric: a flow's id, or a mesh message workload's (a group message's
    /// id stands for every recipient's workload).
    static func target(flows: Bool) -> Parameter<Item> {
        let what = flows ? "the id of a flow" : "the id of a mesh message workload"
        return Parameter(
            "flow",
            .custom(
                schema: .string,
                value: flows ? "a flow's id" : "a mesh message workload's id, or a group message's",
                decode: { values, v, at, _, item in
                    guard let name = values.string(v, at, what) else { return false }
                    let names = flows ? item.flows : item.workloads
                    if let k = names.firstIndex(of: name) {
                        item.targets = [k]
                        return true
                    }
                    // A group message: every recipient's workload must meet the bound.
                    let members = flows ? [] : item.groups.indices.filter { item.groups[$0] == name }
                    guard members.isEmpty else {
                        item.targets = members
                        return true
                    }
                    let none = flows ? "the scenario has no flows" : "the scenario has no mesh.messages"
                    let known = names.isEmpty ? none : "known: " + names.joined(separator: ", ")
                    let kind = flows ? "flow" : "mesh message workload"
                    values.sink.report("no \(kind) is named \"\(name)\" (\(known))", path: at, at: v.origin)
                    return false
                }),
            default: "required",
            help: flows ? "the flow whose bytes are counted" : "the messages whose delivery is counted",
            expected: what, source: .required, required: what)
    }

    // MARK: The route

    /// A route's keys: `from` and `to`, and at a time also `avoids` and `maxHops`.
    static let routeAt = ParameterSection<Item>(
        "expectations[i].route",
        [
            .nodeReference("from", help: "the node the route starts at", set: { $0.from = $1 }),
            .nodeReference("to", help: "the node the route leads to", set: { $0.to = $1 }),
            .nodeList(
                "avoids", default: "[]", help: "nodes the route must not relay through",
                source: .assumption("any relay will do"), set: { $0.avoids = $1 }),
            Parameter(
                "maxHops", .integer(1...1000, unit: "hops", set: { $0.maxHops = $1 }), default: "no limit",
                help: "the most hops the route may have", expected: "a hop count in {range}",
                source: .assumption("any length will do"))
        ], objectExpected: "a route {\"from\", \"to\", \"avoids\"?, \"maxHops\"?}")

    /// A route by a time has only to exist: `from` and `to`.
    static let routeBy = ParameterSection<Item>(
        "expectations[i].route", Array(routeAt.parameters.prefix(2)), objectExpected: "a route {\"from\", \"to\"}")

    /// `route`: an object of `section`'s keys; a route by a time (`by_s`) refuses the keys only
    /// a route at a time takes.
    static func route(_ section: ParameterSection<Item>) -> Parameter<Item> {
        let extra = routeAt.parameters.map(\.key).filter { key in !section.parameters.contains { $0.key == key } }
        return Parameter(
            "route",
            .custom(
                schema: section.schema(perNode: false), value: "an object (the route table)",
                decode: { values, v, at, _, item in
                    let read = values.decode(section, v, at, into: item, perNode: false) { r, _ in
                        r.refuse(
                            extra, with: "by_s",
                            "a route by a time has only to exist; \"at_s\" checks what it avoids and its hops")
                    }
                    guard let read else { return false }
                    item = read
                    return true
                }),
            default: "required", help: "the route looked at", expected: "a route", source: .required,
            required: "{\"from\", \"to\"}")
    }

    // MARK: Schema and docs

    /// The schema of `expectations[i]`: one closed branch per form; a ratio's branch needs
    /// `min` or `max`.
    static var itemSchema: JSONSchema {
        let branches = forms.map { form -> JSONSchema in
            let object = form.section.schema(perNode: false)
            guard form.metric == .deliveryRatio || form.metric == .flowDelivered else { return object }
            return object.anyOf([.requiring(["min"]), .requiring(["max"])])
        }
        return .anyOf(branches)
    }

    /// The docs' sections: each form's table, then the route's.
    static var declaredSections: [DeclaredSection] {
        forms.enumerated().map { i, form in
            DeclaredSection(
                name: "expectations." + (form.metric?.rawValue ?? form.shape.key), page: "core",
                markdownTable: form.section.markdownTable,
                schemaObjects: i == 0 ? [(["properties", "expectations", "items"], itemSchema)] : [])
        } + [
            DeclaredSection(
                name: "expectations.route", page: "core", markdownTable: routeAt.markdownTable, schemaObjects: [])
        ]
    }
}

extension ScenarioDecoder {
    /// Decodes `expectations`: each item's form chosen by its key, the keys of other forms
    /// refused, the form's keys read by their declarations (`ExpectationParameters`), then the
    /// rules between keys. `nil` after a problem.
    func decodeExpectations(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], workloads: [String],
        groups: [String?] = [], flows: [String] = [], duration: Double?
    ) -> [Expectation]? {
        typealias E = ExpectationParameters
        guard let items = values.array(node, path, "an array of expectations") else { return nil }
        var out: [Expectation] = []
        var ok = true
        for (i, element) in items.enumerated() {
            let p = path.appending(i)
            guard let r = ObjectReader(element, path: p, sink: sink, expected: "an expectation object") else {
                ok = false
                continue
            }
            defer { r.finish() }
            guard let form = expectationForm(r, p, element) else {
                for key in E.allKeys { _ = r.value(key) }  // only the real problem is reported
                ok = false
                continue
            }
            let one = "an expectation checks one thing: a fingerprint, a metric or a route"
            let own = form.keys
            let otherShape = E.allKeys.filter { !own.contains($0) && !E.metricKeys.contains($0) }
            let otherMetric = E.metricKeys.filter { !own.contains($0) }
            if let metric = form.metric {
                let takes = own.filter { $0 != "metric" }.map { "\"\($0)\"" }
                let only = takes.count == 1 ? "takes only " + takes[0] : "takes " + takes.joined(separator: ", ")
                if !r.refuse(otherShape, with: "metric", one) { ok = false }
                if !r.refuse(otherMetric, with: "metric", "\(metric.rawValue) \(only)") { ok = false }
            } else if !r.refuse(otherShape + otherMetric, with: form.shape.key, one) {
                ok = false
            }
            var item = E.Item(
                nodeIndex: nodeIndex, runDuration: duration, workloads: workloads, groups: groups, flows: flows)
            let read = values.read(form.section, from: r, p, into: &item, perNode: false)
            // A ratio needs a bound: min, max or both.
            let ratio = form.metric == .deliveryRatio || form.metric == .flowDelivered
            if ratio && r.value("min") == nil && r.value("max") == nil {
                sink.report("expected \"min\" or \"max\" (a ratio in 0...1)", path: p, at: element.origin)
                ok = false
                continue
            }
            guard read else {
                ok = false
                continue
            }
            switch form.shape {
            case .fingerprint: out.append(.fingerprint(item.fingerprint))
            case .routeBy: out.append(.routeBy(time: item.time, from: item.from, to: item.to))
            case .routeAt:
                out.append(
                    .routeAt(time: item.time, from: item.from, to: item.to, avoids: item.avoids, maxHops: item.maxHops))
            case .metric(.maxSessionSize): out.append(.maxSessionSize(max: Int(item.max ?? 0)))
            case .metric(.maxNeighbours): out.append(.maxNeighbours(max: Int(item.max ?? 0)))
            case .metric(.routesWithin): out.append(.routesWithin(.seconds(item.max ?? 0)))
            case .metric(let metric):
                for t in item.targets {
                    out.append(
                        metric == .flowDelivered
                            ? .flowDelivered(flow: t, min: item.min, max: item.max)
                            : .deliveryRatio(workload: t, min: item.min, max: item.max))
                }
            }
        }
        return ok ? out : nil
    }

    /// The form `r`'s keys choose: a fingerprint, a metric (by its name), or a route by or at
    /// a time; `nil` after reporting why none.
    private func expectationForm(_ r: ObjectReader, _ p: JSONPath, _ element: JSONNode) -> ExpectationParameters.Form? {
        let forms = ExpectationParameters.forms
        if r.value("fingerprint") != nil { return forms.first { $0.shape == .fingerprint } }
        if let m = r.value("metric") {
            guard
                let name = values.choice(
                    m, p.appending("metric"), "a metric", from: ExpectationMetric.allCases.map(\.rawValue))
            else { return nil }
            return forms.first { $0.metric?.rawValue == name }
        }
        let by = r.value("by_s") != nil, at = r.value("at_s") != nil
        guard by != at else {
            let what =
                by
                ? "exactly one of \"by_s\" or \"at_s\""
                : "\"by_s\" or \"at_s\" (a route), \"metric\" or \"fingerprint\""
            sink.report("expected \(what)", path: p, at: element.origin)
            return nil
        }
        return forms.first { $0.shape == (by ? .routeBy : .routeAt) }
    }
}

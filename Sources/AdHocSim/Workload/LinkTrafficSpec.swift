/// Link-layer traffic (`traffic`): packets handed straight to the link layer, without a
/// transport, for radio and MAC studies and benchmarks.
public enum TrafficSpec: Sendable, Equatable {
    /// `from` always has packets of `bytes` queued for `to` (saturation).
    case saturated(from: Int, to: Int, bytes: Int, start: SimTime)
    /// Every node of `nodes` broadcasts `bytes` every `interval`, at a random phase.
    case broadcast(nodes: [Int], bytes: Int, interval: SimTime, start: SimTime)
}

/// A traffic generator's keys (`traffic[i]`), each declared once: the keys every
/// generator has, then `kind`, then that kind's keys, all from the same object; the tables are
/// in `docs/models/link.md`.
enum TrafficParameters {
    /// One generator being read, with what its keys refer to.
    struct Item: NodeReferencing, RunBounded {
        let nodeIndex: [String: Int]
        let nodeCount: Int
        let runDuration: Double?
        var bytes = 0
        var start = SimTime.zero
        var from = 0
        var to = 0
        var interval = 0.0
        var members: [Int] = []
    }

    /// The keys of every generator.
    static let common = ParameterSection<Item>(
        "traffic[i]",
        [
            Parameter(
                "bytes", .integer(1...65_535, unit: "bytes", set: { $0.bytes = $1 }), default: "required",
                help: "the packet size handed to the link", expected: "a packet size in bytes in {range}",
                source: .required,
                required: "the packet size in bytes"),
            .withinRun(
                "start_s", phrase: "a start time in seconds", default: "0", help: "when the generator starts",
                expected: "a start time in seconds", source: .assumption("from the start"),
                set: { $0.start = .seconds($1) })
        ], objectExpected: "a traffic object with a \"kind\" (\"saturated\" or \"broadcast\")")

    /// The kinds and their own keys.
    static let kinds: [(name: String, section: ParameterSection<Item>)] = [
        (
            "saturated",
            ParameterSection(
                "traffic[i]",
                [
                    node("from", "the sending node") { $0.from = $1 },
                    node("to", "the receiving node") { $0.to = $1 }
                ])
        ),
        (
            "broadcast",
            ParameterSection(
                "traffic[i]",
                [
                    Parameter(
                        "intervalS",
                        .duration(
                            upTo: 3600, unit: "s", scale: 1, allowZero: false, nullable: false,
                            set: { if let x = $1 { $0.interval = x } }),
                        default: "required", help: "time between a node's broadcasts (each node at a random phase)",
                        expected: "an interval in seconds, {range}", source: .required,
                        required: "seconds between broadcasts"),
                    .nodeList(
                        "nodes", default: "every node", help: "the broadcasting nodes",
                        source: .assumption("everyone broadcasts"),
                        set: { $0.members = $1 })
                ])
        )
    ]

    /// A generator's schema: one branch per kind, with the common keys.
    static var schema: JSONSchema { ParameterSection.kindSchema(common: common, kinds: kinds) }

    /// A required node reference.
    static func node(
        _ key: String, _ what: String, _ set: @escaping @Sendable (inout Item, Int) -> Void
    ) -> Parameter<Item> {
        .nodeReference(key, help: what, required: what, set: set)
    }
}

extension ScenarioDecoder {
    func decodeTraffic(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], nodeCount: Int, duration: Double?
    ) -> [TrafficSpec]? {
        guard let elements = values.array(node, path, "an array of traffic generators") else { return nil }
        var result: [TrafficSpec] = []
        var ok = true
        for (k, element) in elements.enumerated() {
            let p = path.appending(k)
            guard
                let r = ObjectReader(
                    element, path: p, sink: sink, expected: TrafficParameters.common.objectExpected ?? "")
            else {
                ok = false
                continue
            }
            defer { r.finish() }
            var item = TrafficParameters.Item(nodeIndex: nodeIndex, nodeCount: nodeCount, runDuration: duration)
            item.members = Array(0..<nodeCount)
            let commonOK = values.read(TrafficParameters.common, from: r, p, into: &item, perNode: false)
            guard let kindNode = r.required("kind", "saturated or broadcast"),
                let name = values.choice(
                    kindNode, p.appending("kind"), "a traffic kind", from: TrafficParameters.kinds.map(\.name)),
                let kind = TrafficParameters.kinds.first(where: { $0.name == name })
            else {
                for key in ["from", "to", "intervalS", "nodes"] { _ = r.value(key) }
                ok = false
                continue
            }
            let kindOK = values.read(kind.section, from: r, p, into: &item, perNode: false)
            if !commonOK { ok = false }
            // A wrong start time does not hide the rule between `from` and `to`; a wrong size
            // (never 0 once read) or a wrong kind key does.
            guard kindOK, item.bytes > 0 else {
                ok = false
                continue
            }
            if name == "saturated" {
                if item.from == item.to {
                    sink.report(
                        "\"from\" and \"to\" must be different nodes", path: p.appending("to"),
                        at: r.value("to")?.origin ?? element.origin)
                    ok = false
                    continue
                }
                result.append(.saturated(from: item.from, to: item.to, bytes: item.bytes, start: item.start))
            } else {
                result.append(
                    .broadcast(
                        nodes: item.members, bytes: item.bytes, interval: .seconds(item.interval), start: item.start))
            }
        }
        return ok ? result : nil
    }
}

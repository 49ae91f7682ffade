/// A flow's keys (`flows[i]`) and its workload's, each declared once: the decoder's
/// checks and messages, the schema's flow objects and the tables in `docs/models/workload.md`
/// come from here. A workload's keys depend on its `kind`, so each kind is a section of its own,
/// read after `kind` from the same object. Rules between keys stay in code after them
/// (`decodeFlow`: two different nodes; a CBR write at least every nanosecond).
enum FlowParameters {
    /// One flow being read, with what its keys refer to.
    struct Item {
        /// Node ids to indices, and their "did you mean" index.
        let nodeIndex: [String: Int]
        let nodeIds: SuggestionIndex
        /// The run's duration, s (`start_s` must fall before its end).
        let runDuration: Double?
        var id = ""
        var from = 0
        var to = 0
        /// The transport, or a round's transports in the order the app starts them.
        var transports = [TransportProtocol.tcp]
        var workload = WorkloadSpec.bulk(bytes: 0)
        var phase = StartPhase.random
        var start = SimTime.zero
        var via: FlowCarrier?
        var discovery = false
        var roundStart = RoundStart.together
        /// Whether `protocol` is a list (a round, even of one transport).
        var isRound = false
        /// Whether the object gives `roundStart` (which acts on a round of thesis tests only).
        var roundStartGiven = false
    }

    static let flow = ParameterSection<Item>(
        "flows[i]",
        [
            Parameter(
                "id",
                .string(.identifier, set: { $0.id = $1 }),
                default: "required", help: "the flow's name, unique among flows", expected: "a flow id",
                source: .required,
                required: "the flow's name"),
            end("from", help: "the client's node", set: { $0.from = $1 }),
            end("to", help: "the server's node", set: { $0.to = $1 }),
            Parameter(
                "protocol",
                .custom(
                    schema: protocolSchema, value: "`\"tcp\"`, `\"udp\"`, `\"quic\"`, or a list of them (a round)",
                    decode: { values, v, at, what, item in
                        guard let transports = decodeProtocols(values, v, at, what) else { return false }
                        item.transports = transports
                        if case .array = v.value { item.isRound = true }
                        return true
                    }),
                default: "required",
                help:
                    "the transport ([transports](transport.md)); a list makes a round: one flow per transport between the same two phones, started by one tap, their connections sharing each phone's main queue, in list order (ids `<id>-<protocol>`)",
                expected: "a transport", source: .required, required: "tcp, udp or quic, or a list of them"),
            Parameter(
                "workload",
                .custom(
                    schema: workloadSchema, value: "an object with a `kind` (tables below)",
                    decode: { values, v, at, _, item in
                        guard let (w, phase) = decodeWorkload(values, v, at) else { return false }
                        (item.workload, item.phase) = (w, phase)
                        return true
                    }),
                default: "required", help: "what the client does", expected: "a workload", source: .required,
                required: "what the client does"),
            Parameter(
                "start_s",
                .custom(
                    schema: .number.minimum(0), value: "0 … the run's duration, s",
                    decode: { values, v, at, _, item in
                        let upper = item.runDuration ?? ScenarioBounds.maxDurationSeconds
                        let what =
                            "a start time in seconds, ≥ 0 and before the end of the run (\(JSONNumber(upper).literal) s)"
                        guard let s = values.number(v, at, what, in: 0...upper) else { return false }
                        item.start = .seconds(s)
                        return true
                    }),
                default: "0", help: "when the client opens its connection", expected: "a start time in seconds",
                source: .assumption("from the start")),
            Parameter(
                "roundStart",
                .choice(
                    RoundStart.allCases.map(\.rawValue),
                    set: {
                        $0.roundStart = RoundStart(rawValue: $1) ?? .together
                        $0.roundStartGiven = true
                    }),
                default: "\"together\"",
                help:
                    "a round's thesis tests: all at the tap, or in turn in list order, each when the one before wrote its last message",
                expected: "how a round's tests follow the tap",
                source: .assumption(
                    "the app's start button calls every client's `startTesting` in one loop (MatthiasBart/PtPPrototype, `ClientViewModel.swift`); whether the study's version awaited each is not stored"
                )),
            Parameter(
                "via", .choice(FlowCarrier.allCases.map(\.rawValue), set: { $0.via = FlowCarrier(rawValue: $1) }),
                default: "the mesh when the scenario has one, else the link",
                help: "straight over the link (one hop) or IP across the mesh", expected: "how the flow travels",
                source: .assumption("a scenario with a mesh means its flows to cross it")),
            Parameter(
                "discovery", .bool(set: { $0.discovery = $1 }), default: "false",
                help:
                    "the apps find each other first: the server's listener probes and announces its Bonjour service, the client browses, and connects when it has the answer",
                expected: "true or false",
                source: .cited("RFC 6762 §5.2, §6, §8.1, §8.3; NWListener and NWBrowser (seeds 000, 001)"))
        ], objectExpected: "a flow object {\"id\", \"from\", \"to\", \"protocol\", \"workload\"}")

    /// `protocol`'s schema: one transport, or a round's list of distinct transports.
    static var protocolSchema: JSONSchema {
        let names = TransportProtocol.allCases.map(\.rawValue)
        return .anyOf([
            .oneOf(words: names),
            JSONSchema.array.minItems(1).maxItems(names.count).uniqueItems().items(.oneOf(words: names))
        ])
    }

    /// `protocol`: one transport, or a non-empty list of distinct transports (a round).
    static func decodeProtocols(
        _ values: ValueReader, _ node: JSONNode, _ path: JSONPath, _ what: String
    ) -> [TransportProtocol]? {
        guard case .array(let items) = node.value else {
            return values.choice(node, path, what, of: TransportProtocol.self).map { [$0] }
        }
        guard !items.isEmpty else {
            values.sink.report("expected a round's transports, found an empty list", path: path, at: node.origin)
            return nil
        }
        var result: [TransportProtocol] = []
        var ok = true
        for (j, item) in items.enumerated() {
            guard let t = values.choice(item, path.appending(j), what, of: TransportProtocol.self) else {
                ok = false
                continue
            }
            if let first = result.firstIndex(of: t) {
                values.sink.report(
                    "\"\(t.rawValue)\" appears twice in this round (also at [\(first)]); a round runs each transport once",
                    path: path.appending(j), at: item.origin)
                ok = false
            }
            result.append(t)
        }
        return ok ? result : nil
    }

    /// `from` or `to`: a node id, with a suggestion when it is close to one.
    static func end(_ key: String, help: String, set: @escaping @Sendable (inout Item, Int) -> Void) -> Parameter<Item>
    {
        Parameter(
            key,
            .custom(
                schema: .ref("nodeId"), value: "a node id",
                decode: { values, v, at, _, item in
                    guard let index = values.node(v, at, in: item.nodeIndex, suggestions: item.nodeIds) else {
                        return false
                    }
                    set(&item, index)
                    return true
                }),
            default: "required", help: help, expected: "a node id", source: .required, required: "a node id")
    }

    /// A workload's keys as read, before they become a `WorkloadSpec`.
    struct WorkloadKeys {
        var probes = 100
        var packets = 0
        var size = 0
        var bytes: UInt64 = 0
        var rateMbps = 0.0
        var phase = StartPhase.random
    }

    /// The workload kinds and their keys, in the order the decoder reads them.
    static let kinds: [(name: String, section: ParameterSection<WorkloadKeys>)] = [
        (
            "thesis",
            ParameterSection(
                "flows[i].workload",
                [
                    Parameter(
                        "probes", .integer(0...1_000_000, unit: "", set: { $0.probes = $1 }), default: "100",
                        help: "echoed probes before the transfer",
                        expected: "the number of echoed probes, a whole number in {range}",
                        source: .cited("measurement.md, \"Procedure\"; the app's `for _ in 1...100`")),
                    Parameter(
                        "packets", .integer(1...10_000_000, unit: "", set: { $0.packets = $1 }), default: "required",
                        help: "application writes of the transfer",
                        expected: "the number of application writes, a whole number in {range}",
                        source: .required, required: "the number of application writes"),
                    size,
                    Parameter(
                        "startPhase",
                        .custom(
                            schema: .anyOf([
                                .oneOf(words: ["random", "connect"]), .number.minimum(0).exclusiveMaximum(1.048576)
                            ]),
                            value: "`\"random\"`, `\"connect\"`, or 0 ≤ s < 1.048576",
                            decode: { values, v, at, _, keys in
                                guard let p = values.startPhase(v, at) else { return false }
                                keys.phase = p
                                return true
                            }),
                        default: "\"random\"",
                        help:
                            "when the probe burst begins: a random phase of the AWDL sequence, at once, or this many seconds into it",
                        expected: "a start phase", source: .assumption("a person taps start at no particular moment"))
                ])
        ),
        (
            "bulk",
            ParameterSection(
                "flows[i].workload",
                [
                    Parameter(
                        "bytes", .integer(1...1_000_000_000_000, unit: "bytes", set: { $0.bytes = UInt64($1) }),
                        default: "required",
                        help: "bytes to send as fast as the transport allows", expected: "a byte count in {range}",
                        source: .required,
                        required: "the bytes to send")
                ])
        ),
        (
            "cbr",
            ParameterSection(
                "flows[i].workload",
                [
                    // At least 1 bit/s, so the interval between writes stays within the clock's range.
                    Parameter(
                        "rateMbps", .number(0.000_001...100_000, unit: "Mbit/s", set: { $0.rateMbps = $1 }),
                        default: "required",
                        help: "the sending rate", expected: "a rate in Mbit/s in 0.000001...100000", source: .required,
                        required: "the sending rate in Mbit/s"),
                    size
                ])
        )
    ]

    /// `size`: bytes per write, up to `WorkloadBounds.maxWriteBytes`.
    static let size = Parameter<WorkloadKeys>(
        "size", .integer(1...WorkloadBounds.maxWriteBytes, unit: "bytes", set: { $0.size = $1 }), default: "required",
        help: "bytes per application write", expected: "the bytes per write, a whole number in {range}",
        source: .required,
        required: "the bytes per write")

    /// The workload's schema: one branch per kind.
    static var workloadSchema: JSONSchema { ParameterSection.kindSchema(kinds: kinds) }

    /// A `workload` object: `kind` first, then that kind's keys; `nil` after a problem.
    static func decodeWorkload(_ values: ValueReader, _ node: JSONNode, _ path: JSONPath) -> (WorkloadSpec, StartPhase)?
    {
        guard let r = ObjectReader(node, path: path, sink: values.sink, expected: "a workload object with a \"kind\"")
        else {
            return nil
        }
        defer { r.finish() }
        guard let kindNode = r.required("kind", "thesis, bulk or cbr"),
            let name = values.choice(kindNode, path.appending("kind"), "a workload kind", from: kinds.map(\.name)),
            let kind = kinds.first(where: { $0.name == name })
        else {
            // Still mark the other keys known so the user sees only the real problem.
            for key in ["probes", "packets", "size", "bytes", "rateMbps", "startPhase"] { _ = r.value(key) }
            return nil
        }
        var keys = WorkloadKeys()
        guard values.read(kind.section, from: r, path, into: &keys, perNode: false) else { return nil }
        switch name {
        case "thesis": return (.thesis(probes: keys.probes, packets: keys.packets, size: keys.size), keys.phase)
        case "bulk": return (.bulk(bytes: keys.bytes), keys.phase)
        default:
            // One write every size·8 / rate seconds: it must be at least the clock's 1 ns, or the
            // writes would all fall on one instant.
            let interval = Double(keys.size) * 8 / (keys.rateMbps * 1e6)
            guard (interval * 1e9).rounded() >= 1 else {
                values.sink.report(
                    "a CBR of \(JSONNumber(keys.rateMbps).literal) Mbit/s in \(keys.size)-byte writes is one write every "
                        + "\(JSONNumber(interval).literal) s, below the clock's 1 ns; lower the rate or raise the size",
                    path: path.appending("rateMbps"), at: r.value("rateMbps")?.origin ?? node.origin)
                return nil
            }
            return (.cbr(rateMbps: keys.rateMbps, size: keys.size), keys.phase)
        }
    }
}

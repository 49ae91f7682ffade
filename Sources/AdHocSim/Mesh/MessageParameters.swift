/// A message workload's keys (`mesh.messages[i]`), each declared once: the decoder's
/// checks and messages, the schema's message objects and the table in `docs/models/mesh.md`
/// come from here. What relates keys stays with the key read last of them: `id` must be new
/// among the workloads, `to` names a node other than `from` or a group without it; the names a
/// group's workloads take (`<id>/<node>`) are checked after the object (`decodeMessages`).
enum MessageParameters {
    /// One message workload being read, with what its keys refer to.
    struct Item: NodeReferencing, RunBounded {
        /// Node ids to indices.
        let nodeIndex: [String: Int]
        /// The run's duration, s (`start_s` must fall inside it).
        let runDuration: Double?
        /// The ids of the workloads read before this one.
        let names: Set<String>
        var id: String?
        /// Whether `id` was another workload's too.
        var sameId = false
        var from: Int?
        /// The recipients (index and id): one node, or a group's.
        var recipients: [(index: Int, name: String)]?
        var isGroup = false
        var size: Int?
        var count: Int?
        var interval: Double?
        var start = 0.0
        var reliable = true
    }

    /// The node `v` names, with its id, or `nil` after reporting why not.
    static func resolve(
        _ values: ValueReader, _ v: JSONNode, _ at: JSONPath, _ item: Item
    ) -> (index: Int, name: String)? {
        guard let k = values.node(v, at, in: item.nodeIndex), case .string(let name) = v.value else { return nil }
        return (k, name)
    }

    static let section = ParameterSection<Item>(
        "mesh.messages[i]",
        [
            Parameter(
                "id",
                .custom(
                    schema: .string, value: "a name, unique among message workloads",
                    decode: { values, v, at, what, item in
                        guard let id = values.string(v, at, what) else { return false }
                        item.id = id
                        guard !item.names.contains(id) else {
                            item.sameId = true
                            values.sink.report(
                                "another message workload is already named \"\(Diagnostic.excerpt(id))\"", path: at,
                                at: v.origin)
                            return false
                        }
                        return true
                    }),
                default: "required", help: "the workload's name (a group's recipients get `<id>/<node>`)",
                expected: "a workload name", source: .required, required: "a workload name"),
            .nodeReference("from", help: "the sender") { $0.from = $1 },
            Parameter(
                "to",
                .custom(
                    schema: .anyOf([.ref("nodeId"), .array(of: .ref("nodeId")).minItems(1)]),
                    value: "a node id, or a list of them (a group: one workload per recipient)",
                    decode: { values, v, at, _, item in decodeRecipients(values, v, at, &item) }),
                default: "required", help: "the receiver, or a group of receivers (seed 002: groups of users)",
                expected: "a node id", source: .required, required: "a node id"),
            Parameter(
                "size_bytes", .integer(1...67_108_864, unit: "bytes", set: { $0.size = $1 }), default: "required",
                help: "the message's size; more than 1 200 bytes travel as 1 200-byte fragments along one route",
                expected:
                    "a message size in {range} bytes (more than 1200 is split into 1200-byte fragments that follow the same route)",
                source: .required, required: "a message size"),
            Parameter(
                "count", .integer(1...1_000_000, unit: "", set: { $0.count = $1 }), default: "required",
                help: "messages to send", expected: "a message count in {range}", source: .required,
                required: "a message count"),
            Parameter(
                "interval_s",
                .duration(
                    upTo: 3600, unit: "s", scale: 1, allowZero: false, nullable: false, set: { $0.interval = $1 }),
                default: "required", help: "seconds between messages", expected: "seconds between messages, {range}",
                source: .required, required: "seconds between messages"),
            .withinRun(
                "start_s", phrase: "a start time in seconds", default: "0", help: "when the first message is created",
                expected: "a start time in seconds", source: .assumption("from the start"), set: { $0.start = $1 }),
            Parameter(
                "reliable", .bool(set: { $0.reliable = $1 }), default: "true",
                help: "reliable session messages (resent hop by hop, in order) or unreliable ones",
                expected: "true or false",
                source: .assumption(
                    "chat messages are application-critical data, for which seed 003 (the Multipeer talk) uses reliable mode"
                ))
        ],
        objectExpected:
            "a message workload {\"id\", \"from\", \"to\", \"size_bytes\", \"count\", \"interval_s\", \"start_s\"?, \"reliable\"?}"
    )

    /// `to`: one node other than the sender, or a non-empty group of distinct nodes without the
    /// sender. A single recipient that is the sender is kept (so the workload's name is still
    /// checked) but the item fails.
    static func decodeRecipients(_ values: ValueReader, _ v: JSONNode, _ at: JSONPath, _ item: inout Item) -> Bool {
        guard case .array(let list) = v.value else {
            guard let to = resolve(values, v, at, item) else { return false }
            item.recipients = [to]
            if item.from == to.index {
                values.sink.report("a message workload needs two different nodes", path: at, at: v.origin)
                return false
            }
            return true
        }
        item.isGroup = true
        var found: [(index: Int, name: String)] = []
        var members: Set<Int> = []  // one pass, however large the group
        for (k, e) in list.enumerated() {
            let ek = at.appending(k)
            guard let n = resolve(values, e, ek, item) else { continue }
            if members.contains(n.index) {
                values.sink.report("\"\(n.name)\" is already in this group", path: ek, at: e.origin)
                continue
            }
            if n.index == item.from {
                values.sink.report("the sender cannot be in its own group", path: ek, at: e.origin)
                continue
            }
            members.insert(n.index)
            found.append(n)
        }
        if list.isEmpty { values.sink.report("a group needs at least one recipient", path: at, at: v.origin) }
        guard found.count == list.count && !list.isEmpty else { return false }
        item.recipients = found
        return true
    }
}

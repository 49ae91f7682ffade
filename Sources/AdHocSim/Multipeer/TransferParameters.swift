/// The keys of a Multipeer resource (`mesh.resources[i]`) and stream (`mesh.streams[i]`), each
/// declared once: the decoder's checks and messages, the schema's objects and the
/// tables in `docs/models/mesh.md` come from here. Both start with the same ends (`id`, `from`,
/// `to`, `at_s`). What relates keys stays with the key read last of them: `id` new among the
/// resources and streams, `to` another phone in the sender's session, a resource no larger
/// than `mesh.maxResourceBytes` and cancelled after it starts; a stream's number of writes is
/// checked after the object (`decodeStreams`).
enum TransferParameters {
    /// One resource or stream being read, with what its keys refer to.
    struct Item {
        /// "resource" or "stream", as messages name it.
        let what: String
        /// Node ids to indices.
        let nodeIndex: [String: Int]
        /// `mesh.sessions`, when the file fixes them.
        let groups: [[Int]]?
        /// The run's last second.
        let upper: Double
        /// `mesh.maxResourceBytes`.
        let limit: Int
        /// The ids of the resources and streams read before this one.
        let names: Set<String>
        var id: String?
        var from: Int?
        var to: Int?
        var start = 0.0
        /// Whether one of the ends was wrong (a start time then has nothing to follow).
        var endsFailed = false
        var size: Int?
        /// `cancel_at_s` read and valid, or absent.
        var cancel: Double?
        var cancelFailed = false
        var rate: Int?
        var write: Int? = 1024
        var span: Double?

        /// The four ends, when all were read and right.
        var ends: (id: String, from: Int, to: Int, start: Double)? {
            guard !endsFailed, let id, let from, let to else { return nil }
            return (id, from, to, start)
        }
    }

    /// The ends every transfer has, for messages naming `what`.
    static func ends(_ what: String) -> [Parameter<Item>] {
        [
            Parameter(
                "id",
                .custom(
                    schema: .string, value: "a name, unique among resources and streams",
                    decode: { values, v, at, what, item in
                        guard let id = values.string(v, at, what) else {
                            item.endsFailed = true
                            return false
                        }
                        item.id = id
                        guard !item.names.contains(id) else {
                            values.sink.report(
                                "another resource or stream is already named \"\(id)\"", path: at, at: v.origin)
                            item.endsFailed = true
                            return false
                        }
                        return true
                    }),
                default: "required", help: "the \(what)'s name", expected: "a \(what) name", source: .required,
                required: "a \(what) name"),
            end("from", value: "a node id", help: "the sender") { _, _, _, n, item in
                item.from = n
                return true
            },
            end(
                "to", value: "a node id: a peer in the sender's session",
                help: "the receiver, a peer in the sender's session (seed 003)"
            ) {
                values, v, at, n, item in
                item.to = n
                return checkPeer(values, v, at, item)
            },
            Parameter(
                "at_s",
                .custom(
                    schema: .number.minimum(0), value: "0 … the run's duration, s",
                    decode: { values, v, at, _, item in
                        let what = "a start time in seconds in 0...\(JSONNumber(item.upper).literal)"
                        guard let s = values.number(v, at, what, in: 0...item.upper) else {
                            item.endsFailed = true
                            return false
                        }
                        item.start = s
                        return true
                    }),
                default: "0", help: "when the app starts the \(what)", expected: "a start time in seconds",
                source: .assumption("from the start"))
        ]
    }

    /// `from` or `to`: a node id, resolved, then stored (and checked) by `accept`; a wrong end
    /// marks the ends failed.
    static func end(
        _ key: String, value: String, help: String,
        accept: @escaping @Sendable (ValueReader, JSONNode, JSONPath, Int, inout Item) -> Bool
    ) -> Parameter<Item> {
        Parameter(
            key,
            .custom(
                schema: .ref("nodeId"), value: value,
                decode: { values, v, at, _, item in
                    guard let n = values.node(v, at, in: item.nodeIndex), accept(values, v, at, n, &item) else {
                        item.endsFailed = true
                        return false
                    }
                    return true
                }),
            default: "required", help: help, expected: "a node id", source: .required, required: "a node id")
    }

    /// `to` goes to another phone, and with fixed sessions to one in a session with the sender.
    static func checkPeer(_ values: ValueReader, _ v: JSONNode, _ at: JSONPath, _ item: Item) -> Bool {
        guard let from = item.from, let to = item.to else { return true }
        if from == to {
            values.sink.report(
                "a \(item.what) goes to another phone of the sender's session, not to the sender itself", path: at,
                at: v.origin)
            return false
        }
        guard let groups = item.groups, !groups.contains(where: { $0.contains(from) && $0.contains(to) }) else {
            return true
        }
        let nameOf = Dictionary(uniqueKeysWithValues: item.nodeIndex.map { ($0.value, $0.key) })
        let mine = Set(groups.filter { $0.contains(from) }.flatMap { $0 }).subtracting([from]).sorted()
        let listed = mine.isEmpty ? "none" : mine.map { "\"\(nameOf[$0] ?? "?")\"" }.joined(separator: ", ")
        values.sink.report(
            "a \(item.what) goes to a peer in the sender's session (Multipeer sends only to connected peers), but "
                + "\"\(nameOf[to] ?? "?")\" is outside every session of \"\(nameOf[from] ?? "?")\" in mesh.sessions (its "
                + "peers: \(listed)); send a mesh message to reach a phone beyond the session",
            path: at, at: v.origin)
        return false
    }

    static let resource = ParameterSection<Item>(
        "mesh.resources[i]",
        ends("resource") + [
            Parameter(
                "size_bytes",
                .custom(
                    schema: .integer.minimum(1).maximum(4294967296),
                    value: "1 … `mesh.maxResourceBytes` bytes",
                    decode: { values, v, at, _, item in
                        let limit = item.limit
                        if case .number(let n) = v.value, n.isIntegerLiteral, let big = UInt64(n.literal),
                            big > UInt64(limit)
                        {
                            values.sink.report(
                                "a resource of \(n.literal) bytes is larger than the configured limit of \(limit) bytes "
                                    + "(mesh.maxResourceBytes; raise it, up to \(SessionTransferBounds.maxResourceBytes), to "
                                    + "send larger files)", path: at, at: v.origin)
                            return false
                        }
                        guard
                            let n = values.integer(
                                v, at, "a resource size in 1...\(limit) bytes", in: 1...UInt64(limit))
                        else { return false }
                        item.size = Int(n)
                        return true
                    }),
                default: "required", help: "the file's size", expected: "a resource size", source: .required,
                required: "a resource size"),
            Parameter(
                "cancel_at_s",
                .custom(
                    schema: .number.minimum(0), value: "after `at_s` … the run's duration, s",
                    decode: { values, v, at, _, item in
                        let what =
                            "a cancel time in seconds after the resource's at_s and at most \(JSONNumber(item.upper).literal)"
                        guard let c = values.number(v, at, what, in: 0...item.upper) else {
                            item.cancelFailed = true
                            return false
                        }
                        if let e = item.ends, c <= e.start {
                            values.sink.report(
                                "expected a cancel time after the resource starts (at_s \(JSONNumber(e.start).literal)), "
                                    + "found \(JSONNumber(c).literal)", path: at, at: v.origin)
                            item.cancelFailed = true
                            return false
                        }
                        item.cancel = c
                        return true
                    }),
                default: "never",
                help: "when the app cancels the transfer (`progress.cancel()`) if it has not finished",
                expected: "a cancel time", source: .assumption("the app lets a transfer finish"))
        ],
        objectExpected: "a resource {\"id\", \"from\", \"to\", \"size_bytes\", \"at_s\"?, \"cancel_at_s\"?}")

    static let stream = ParameterSection<Item>(
        "mesh.streams[i]",
        ends("stream") + [
            Parameter(
                "bytes_per_s", .integer(1...125_000_000, unit: "bytes/s", set: { $0.rate = $1 }), default: "required",
                help: "the app's write rate", expected: "a write rate in {range} bytes/s", source: .required,
                required: "a write rate"),
            Parameter(
                "write_bytes",
                .custom(
                    schema: .integer.minimum(1).maximum(1048576), value: "1 … 1048576 bytes",
                    decode: { values, v, at, _, item in
                        item.write = values.integer(v, at, "bytes per write in 1...1048576", in: 1...1_048_576).map(
                            Int.init)
                        return item.write != nil
                    }),
                default: "1024", help: "bytes per write",
                expected: "bytes per write",
                source: .assumption(
                    "Apple names no write size; an audio codec frame or a small sensor batch is of this order")),
            Parameter(
                "duration_s",
                .duration(upTo: 86_400, unit: "s", scale: 1, allowZero: false, nullable: false, set: { $0.span = $1 }),
                default: "required", help: "seconds of writing", expected: "seconds of writing, {range}",
                source: .required, required: "how long the app writes")
        ],
        objectExpected:
            "a stream {\"id\", \"from\", \"to\", \"bytes_per_s\", \"duration_s\", \"write_bytes\"?, \"at_s\"?}")
}

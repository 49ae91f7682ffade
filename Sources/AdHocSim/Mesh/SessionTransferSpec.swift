/// A Multipeer resource (`mesh.resources[i]`, seed 003: `sendResource(at:withName:toPeer:)`): a
/// file of `sizeBytes` from one phone to a peer in its session, split, carried reliably and in
/// order over that one session hop and reassembled, with progress, and cancelled at `cancelAt`
/// if it has not finished by then.
public struct ResourceSpec: Sendable, Equatable {
    /// Name, unique among resources and streams.
    public var id: String
    /// Sender and receiver (node indices); the receiver must be the sender's session peer.
    public var from: Int
    /// See `from`.
    public var to: Int
    /// When the app calls `sendResource`.
    public var start: SimTime
    /// The file's size in bytes (at most `MeshConfig.maxResourceBytes`).
    public var sizeBytes: Int
    /// When the app cancels the transfer (`progress.cancel()`), or `nil`.
    public var cancelAt: SimTime?
}

/// A Multipeer stream (`mesh.streams[i]`, seed 003: `startStream(withName:toPeer:)`): from
/// `start` for `duration`, the app writes `writeBytes` every `writeBytes / bytesPerSecond`
/// seconds into a byte stream to one session peer (an audio or sensor feed), carried reliably
/// and in order over that hop.
public struct StreamSpec: Sendable, Equatable {
    /// Name, unique among resources and streams.
    public var id: String
    /// Sender and receiver (node indices).
    public var from: Int
    /// See `from`.
    public var to: Int
    /// When the app opens the stream.
    public var start: SimTime
    /// The app's write rate, bytes per second.
    public var bytesPerSecond: Int
    /// Bytes per write: 1 024 unless the file says (an assumption: Apple names no write size;
    /// an audio codec frame or a small sensor batch is of this order).
    public var writeBytes: Int
    /// How long the app writes.
    public var duration: SimTime
    /// Time between writes.
    public var writeInterval: SimTime { .nanoseconds(Int64(writeBytes) * 1_000_000_000 / Int64(bytesPerSecond)) }
    /// Writes over the stream's duration (at least one).
    public var writes: Int { max(1, Int(duration.nanoseconds / max(1, writeInterval.nanoseconds))) }
}

/// Bounds of Multipeer transfers.
public enum SessionTransferBounds {
    /// The default largest resource: 64 MiB, the same bound as a mesh message (an assumption:
    /// Apple documents no limit for `sendResource`; set `mesh.maxResourceBytes` for larger files).
    public static let defaultMaxResourceBytes = 67_108_864
    /// The largest limit `mesh.maxResourceBytes` may set: 4 GiB.
    public static let maxResourceBytes: UInt64 = 4_294_967_296
    /// The most writes one stream may make: 10 million (an assumption bounding one stream's
    /// events, as `limits.maxEvents` bounds a run's; larger writes reach the same bytes).
    public static let maxWrites = 10_000_000
}

extension ScenarioDecoder {
    /// `mesh.sessions`: fixed sessions, each a group of node ids whose members are all connected
    /// to each other (an MCSession's peers are all connected; seed 003), at most `maxPeers`
    /// members each, at most `neighbourLimit` peers per phone over all its groups.
    func decodeSessionGroups(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], maxPeers: Int, neighbourLimit: Int
    ) -> [[Int]]? {
        guard let items = values.array(node, path, "an array of sessions, each an array of node ids") else {
            return nil
        }
        var ok = true
        var groups: [[Int]] = []
        var peers: [Int: Set<Int>] = [:]
        for (i, item) in items.enumerated() {
            let p = path.appending(i)
            guard let members = values.array(item, p, "a session: an array of 2 to \(maxPeers) node ids") else {
                ok = false
                continue
            }
            guard (2...maxPeers).contains(members.count) else {
                sink.report(
                    "a session holds 2 to \(maxPeers) phones including the local one (mesh.maxPeers); this one lists "
                        + "\(members.count)", path: p, at: item.origin)
                ok = false
                continue
            }
            var group: [Int] = []
            for (k, m) in members.enumerated() {
                guard let n = values.node(m, p.appending(k), in: nodeIndex), case .string(let name) = m.value else {
                    ok = false
                    continue
                }
                if group.contains(n) {
                    sink.report("\"\(name)\" is already in this session", path: p.appending(k), at: m.origin)
                    ok = false
                    continue
                }
                group.append(n)
            }
            for a in group { for b in group where a != b { peers[a, default: []].insert(b) } }
            groups.append(group)
        }
        guard ok else { return nil }
        let names = nodeIndex.sorted { $0.value < $1.value }.map(\.key)
        for (n, set) in peers.sorted(by: { $0.key < $1.key }) where set.count > neighbourLimit {
            sink.report(
                "\"\(names[n])\" would have \(set.count) session peers over these sessions; a phone has at most "
                    + "\(neighbourLimit) (mesh.maxNeighbours, mesh.sessionsPerPhone and mesh.maxPeers)",
                path: path, at: node.origin)
            ok = false
        }
        return ok ? groups : nil
    }

    /// The sender, receiver, id and start every transfer has, checked: two different nodes, and
    /// with fixed sessions (`groups`) the receiver in a session with the sender.
    private func decodeTransferEnds(
        _ r: ObjectReader, _ p: JSONPath, what: String, nodeIndex: [String: Int], groups: [[Int]]?,
        names: inout Set<String>, upper: Double
    ) -> (id: String, from: Int, to: Int, start: Double)? {
        var ok = true
        func resolve(_ key: String) -> Int? {
            r.required(key, "a node id").flatMap { values.node($0, p.appending(key), in: nodeIndex) }
        }
        let id = r.required("id", "a \(what) name").flatMap { values.string($0, p.appending("id"), "a \(what) name") }
        if let id, !names.insert(id).inserted {
            sink.report(
                "another resource or stream is already named \"\(id)\"", path: p.appending("id"),
                at: r.value("id")!.origin)
            ok = false
        }
        let from = resolve("from")
        let to = resolve("to")
        if let from, let to {
            if from == to {
                sink.report(
                    "a \(what) goes to another phone of the sender's session, not to the sender itself",
                    path: p.appending("to"), at: r.value("to")!.origin)
                ok = false
            } else if let groups, !groups.contains(where: { $0.contains(from) && $0.contains(to) }) {
                let nameOf = Dictionary(uniqueKeysWithValues: nodeIndex.map { ($0.value, $0.key) })
                let mine = Set(groups.filter { $0.contains(from) }.flatMap { $0 }).subtracting([from]).sorted()
                let listed = mine.isEmpty ? "none" : mine.map { "\"\(nameOf[$0]!)\"" }.joined(separator: ", ")
                sink.report(
                    "a \(what) goes to a peer in the sender's session (Multipeer sends only to connected peers), but "
                        + "\"\(nameOf[to]!)\" is outside every session of \"\(nameOf[from]!)\" in mesh.sessions (its "
                        + "peers: \(listed)); send a mesh message to reach a phone beyond the session",
                    path: p.appending("to"), at: r.value("to")!.origin)
                ok = false
            }
        }
        var start = 0.0
        if let v = r.value("at_s") {
            if let s = values.number(
                v, p.appending("at_s"), "a start time in seconds in 0...\(JSONNumber(upper).literal)", in: 0...upper)
            {
                start = s
            } else {
                ok = false
            }
        }
        guard ok, let id, let from, let to else { return nil }
        return (id, from, to, start)
    }

    /// The array `node` of transfers of kind `what`, each an object (`expected` says its keys)
    /// whose ends `decodeTransferEnds` reads and whose own keys `element` reads, given the
    /// reader, the element's path, its ends and the run's last second; `nil` after reporting.
    private func decodeTransfers<T>(
        _ node: JSONNode, _ path: JSONPath, what: String, expected: String, nodeIndex: [String: Int],
        groups: [[Int]]?, duration: Double?, names: inout Set<String>,
        _ element: (ObjectReader, JSONPath, (id: String, from: Int, to: Int, start: Double)?, Double) -> T?
    ) -> [T]? {
        guard let items = values.array(node, path, "an array of \(what)s") else { return nil }
        let upper = duration ?? ScenarioBounds.maxDurationSeconds
        var out: [T] = []
        var ok = true
        for (i, item) in items.enumerated() {
            let p = path.appending(i)
            guard let r = ObjectReader(item, path: p, sink: sink, expected: "a \(what) {\(expected)}") else {
                ok = false
                continue
            }
            let ends = decodeTransferEnds(
                r, p, what: what, nodeIndex: nodeIndex, groups: groups, names: &names, upper: upper)
            if let t = element(r, p, ends, upper), ends != nil { out.append(t) } else { ok = false }
            r.finish()
        }
        return ok ? out : nil
    }

    /// `mesh.resources`: files sent to a session peer, each at most `limit` bytes.
    func decodeResources(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], groups: [[Int]]?, duration: Double?,
        limit: Int, names: inout Set<String>
    ) -> [ResourceSpec]? {
        decodeTransfers(
            node, path, what: "resource",
            expected: "\"id\", \"from\", \"to\", \"size_bytes\", \"at_s\"?, \"cancel_at_s\"?", nodeIndex: nodeIndex,
            groups: groups, duration: duration, names: &names
        ) { r, p, ends, upper in
            var size: Int?
            if let v = r.required("size_bytes", "a resource size") {
                if case .number(let n) = v.value, n.isIntegerLiteral, let big = UInt64(n.literal), big > UInt64(limit) {
                    sink.report(
                        "a resource of \(n.literal) bytes is larger than the configured limit of \(limit) bytes "
                            + "(mesh.maxResourceBytes; raise it, up to \(SessionTransferBounds.maxResourceBytes), to "
                            + "send larger files)", path: p.appending("size_bytes"), at: v.origin)
                } else {
                    size = values.integer(
                        v, p.appending("size_bytes"), "a resource size in 1...\(limit) bytes", in: 1...UInt64(limit)
                    ).map(Int.init)
                }
            }
            var cancel: Double?
            if let v = r.value("cancel_at_s") {
                cancel = values.number(
                    v, p.appending("cancel_at_s"),
                    "a cancel time in seconds after the resource's at_s and at most \(JSONNumber(upper).literal)",
                    in: 0...upper)
                if let c = cancel, let e = ends, c <= e.start {
                    sink.report(
                        "expected a cancel time after the resource starts (at_s \(JSONNumber(e.start).literal)), "
                            + "found \(JSONNumber(c).literal)", path: p.appending("cancel_at_s"), at: v.origin)
                    cancel = nil
                }
                if cancel == nil { return nil }
            }
            guard let ends, let size else { return nil }
            return ResourceSpec(
                id: ends.id, from: ends.from, to: ends.to, start: .seconds(ends.start), sizeBytes: size,
                cancelAt: cancel.map { .seconds($0) })
        }
    }

    /// `mesh.streams`: byte streams to a session peer at a constant write rate.
    func decodeStreams(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], groups: [[Int]]?, duration: Double?,
        names: inout Set<String>
    ) -> [StreamSpec]? {
        decodeTransfers(
            node, path, what: "stream",
            expected: "\"id\", \"from\", \"to\", \"bytes_per_s\", \"duration_s\", \"write_bytes\"?, \"at_s\"?",
            nodeIndex: nodeIndex, groups: groups, duration: duration, names: &names
        ) { r, p, ends, _ in
            let rate = r.required("bytes_per_s", "a write rate").flatMap {
                values.integer(
                    $0, p.appending("bytes_per_s"), "a write rate in 1...125000000 bytes/s", in: 1...125_000_000)
            }
            var write: UInt64? = 1024
            if let v = r.value("write_bytes") {
                write = values.integer(
                    v, p.appending("write_bytes"), "bytes per write in 1...1048576", in: 1...1_048_576)
            }
            let span = r.required("duration_s", "how long the app writes").flatMap {
                values.duration($0, p.appending("duration_s"), "seconds of writing, > 0 and ≤ 86400", upTo: 86_400)
            }
            guard let ends, let rate, let write, let span else { return nil }
            let spec = StreamSpec(
                id: ends.id, from: ends.from, to: ends.to, start: .seconds(ends.start), bytesPerSecond: Int(rate),
                writeBytes: Int(write), duration: .seconds(span))
            guard Double(spec.writes) <= Double(SessionTransferBounds.maxWrites) else {
                sink.report(
                    "this stream would make \(spec.writes) writes of \(write) bytes; at most "
                        + "\(SessionTransferBounds.maxWrites) (use larger writes)", path: p, at: r.node.origin)
                return nil
            }
            return spec
        }
    }

    /// `mesh.sessions`, `mesh.resources` and `mesh.streams` into `spec` (its declared settings
    /// already read); false after reporting a problem.
    func decodeSessionTransfers(
        _ mr: ObjectReader, _ mp: JSONPath, into spec: inout MeshSpec, nodeIndex: [String: Int], duration: Double?
    ) -> Bool {
        var ok = true
        let config = MeshConfig(spec)
        if let v = mr.value("sessions") {
            if let setup = mr.value("sessionSetup") {
                sink.report(
                    "mesh.sessions fixes who is in a session with whom, so sessions do not also form by "
                        + "sessionSetup; drop one of the two", path: mp.appending("sessionSetup"), at: setup.origin)
                ok = false
            }
            spec.sessions = decodeSessionGroups(
                v, mp.appending("sessions"), nodeIndex: nodeIndex, maxPeers: config.maxPeers,
                neighbourLimit: config.neighbourLimit)
            if spec.sessions == nil { ok = false }
        }
        var names: Set<String> = []
        if let v = mr.value("resources") {
            if let list = decodeResources(
                v, mp.appending("resources"), nodeIndex: nodeIndex, groups: spec.sessions, duration: duration,
                limit: spec.maxResourceBytes ?? SessionTransferBounds.defaultMaxResourceBytes, names: &names)
            {
                spec.resources = list
            } else {
                ok = false
            }
        }
        if let v = mr.value("streams") {
            if let list = decodeStreams(
                v, mp.appending("streams"), nodeIndex: nodeIndex, groups: spec.sessions, duration: duration,
                names: &names)
            {
                spec.streams = list
            } else {
                ok = false
            }
        }
        return ok
    }
}

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
    /// The file's size in bytes (at most `SessionConfig.maxResourceBytes`).
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

    /// The array `node` of transfers of `section`'s kind (`TransferParameters`), each read by
    /// its declarations and then made into a `T` by `make` while the object is still being read
    /// (`nil`: not made, after reporting why if there is a reason beyond the keys).
    private func decodeTransfers<T>(
        _ node: JSONNode, _ path: JSONPath, _ section: ParameterSection<TransferParameters.Item>, what: String,
        nodeIndex: [String: Int], groups: [[Int]]?, duration: Double?, limit: Int = 0, names: inout Set<String>,
        _ make: @escaping (ObjectReader, JSONPath, TransferParameters.Item) -> T?
    ) -> [T]? {
        guard let items = values.array(node, path, "an array of \(what)s") else { return nil }
        let upper = duration ?? ScenarioBounds.maxDurationSeconds
        var out: [T] = []
        var ok = true
        for (i, itemNode) in items.enumerated() {
            let p = path.appending(i)
            let blank = TransferParameters.Item(
                what: what, nodeIndex: nodeIndex, groups: groups, upper: upper, limit: limit, names: names)
            let read = values.decodeAll(section, itemNode, p, into: blank, perNode: false) { r, item in
                guard let t = make(r, p, item) else { return false }
                out.append(t)
                return true
            }
            guard let (item, itemOK) = read else { ok = false; continue }
            // Read-only in the item, inserted here: an insert into the item's copy would copy
            // the whole set for every item (quadratic in the items).
            if let id = item.id { names.insert(id) }
            if !itemOK { ok = false }
        }
        return ok ? out : nil
    }

    /// `mesh.resources`: files sent to a session peer, each at most `limit` bytes.
    func decodeResources(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], groups: [[Int]]?, duration: Double?,
        limit: Int, names: inout Set<String>
    ) -> [ResourceSpec]? {
        decodeTransfers(
            node, path, TransferParameters.resource, what: "resource", nodeIndex: nodeIndex, groups: groups,
            duration: duration, limit: limit, names: &names
        ) { _, _, item in
            guard let ends = item.ends, let size = item.size, !item.cancelFailed else { return nil }
            return ResourceSpec(
                id: ends.id, from: ends.from, to: ends.to, start: .seconds(ends.start), sizeBytes: size,
                cancelAt: item.cancel.map { .seconds($0) })
        }
    }

    /// `mesh.streams`: byte streams to a session peer at a constant write rate, at most
    /// `SessionTransferBounds.maxWrites` writes each.
    func decodeStreams(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], groups: [[Int]]?, duration: Double?,
        names: inout Set<String>
    ) -> [StreamSpec]? {
        decodeTransfers(
            node, path, TransferParameters.stream, what: "stream", nodeIndex: nodeIndex, groups: groups,
            duration: duration, names: &names
        ) { r, p, item in
            guard let ends = item.ends, let rate = item.rate, let write = item.write, let span = item.span else {
                return nil
            }
            let spec = StreamSpec(
                id: ends.id, from: ends.from, to: ends.to, start: .seconds(ends.start), bytesPerSecond: rate,
                writeBytes: write, duration: .seconds(span))
            guard Double(spec.writes) <= Double(SessionTransferBounds.maxWrites) else {
                self.sink.report(
                    "this stream would make \(spec.writes) writes of \(write) bytes; at most "
                        + "\(SessionTransferBounds.maxWrites) (use larger writes)", path: p, at: r.node.origin)
                return nil
            }
            return spec
        }
    }
}

/// The `mesh` section: MAdHoc's routing, its settings and the message workloads between nodes.
public struct MeshSpec: Sendable, Equatable {
    /// `mesh.routing`: `"dsr-heartbeat"` (MAdHoc, the default) or `"dsr"` (classic, on demand).
    public var routing: String = "dsr-heartbeat"
    /// `mesh.heartbeatIntervalS`.
    public var heartbeatIntervalS: Double?
    /// `mesh.routeTimeoutS`.
    public var routeTimeoutS: Double?
    /// `mesh.maxPeers` (including the node itself).
    public var maxPeers: Int?
    /// `mesh.maxNeighbours`: MAdHoc's limit of other nodes (default 8).
    public var maxNeighbours: Int?
    /// `mesh.sessionsPerPhone`: Multipeer sessions a phone runs (default 2).
    public var sessionsPerPhone: Int?
    /// `mesh.peerTimeoutS`: how long a lost peer stays in the session.
    public var peerTimeoutS: Double?
    /// `mesh.bonjourTtlS`: how long a browser keeps a peer's Bonjour answer (`.infinity`: the
    /// file gave `null`, answers never expire; `nil`: not given).
    public var bonjourTtlS: Double?
    /// `mesh.confirmTimeoutS`: how long a sender waits for a route return before retrying.
    public var confirmTimeoutS: Double?
    /// `mesh.retries`: attempts after the first.
    public var retries: Int?
    /// `mesh.keyPaths`: distinct shared paths needed for a path-derived key (`nil`: no key report).
    public var keyPaths: Int?
    /// `mesh.heartbeatOnStart`: the first heartbeat when the app starts (default true).
    public var heartbeatOnStart: Bool?
    /// `mesh.heartbeatOnNewSession`: a heartbeat when a session gains a peer (default true).
    public var heartbeatOnNewSession: Bool?
    /// `mesh.dropSeenHeartbeats`: a heartbeat seen before is dropped (default true).
    public var dropSeenHeartbeats: Bool?
    /// `mesh.sessionSetup`: `"multipeer"` (default) or `"instant"`.
    public var sessionSetup: SessionSetup?
    /// `mesh.sessionLayout`: `"group"` (default) or `"pairwise"`.
    public var sessionLayout: SessionLayout?
    /// `mesh.encryption`: `"none"`, `"optional"` (default) or `"required"`.
    public var encryption: SessionEncryption?
    /// `mesh.handshakeRetransmission`: resend lost connection flights on DTLS's timer (default true).
    public var handshakeRetransmission: Bool?
    /// `mesh.routeCache`: keep other paths per destination to fail over to (default true).
    public var routeCache: Bool?
    /// `mesh.floodSend`: `"sessionPeers"` (default) or `"broadcast"`.
    public var floodSend: FloodSend?
    /// `mesh.forwarding`: `"path-broadcast"` (default) or `"next-hop"`.
    public var forwarding: MeshForwarding?
    /// `mesh.phones`: what the apps set on their own phones' Multipeer objects.
    public var phones: [MultipeerPhone] = []
    /// `mesh.messages`: message workloads.
    public var messages: [MessageWorkloadSpec] = []
    /// `mesh.sessions`: sessions set up as groups, each a group of nodes all connected to each
    /// other from the start (no discovery forms others; a member that fails or fades leaves and
    /// rejoins, `SignalSessions.init(groups:nodes:)`); `nil`: sessions form by `sessionSetup`.
    public var sessions: [[Int]]?
    /// `mesh.maxResourceBytes`: the largest resource (`SessionTransferBounds`).
    public var maxResourceBytes: Int?
    /// `mesh.resources`: files sent to a session peer.
    public var resources: [ResourceSpec] = []
    /// `mesh.streams`: byte streams to a session peer.
    public var streams: [StreamSpec] = []
    /// Nothing set.
    public init() {}
}

/// One message workload (`mesh.messages[i]`): `count` messages of `sizeBytes` from one node to
/// another, one every `interval` from `start`.
public struct MessageWorkloadSpec: Sendable, Equatable {
    /// Name, unique among workloads (used by `delivery_ratio` expectations).
    public var id: String
    /// Sender and receiver (node indices).
    public var from: Int
    /// See `from`.
    public var to: Int
    /// Message size, bytes (application payload, at most 64 MiB). Up to 1 200 bytes a message
    /// is one frame (with a source route of up to 20 hops it fits AWDL's 1 484-byte MTU); a
    /// longer one, such as a picture, travels as 1 200-byte fragments along the same route and
    /// is delivered when all have arrived (`MeshConfig.fragmentPayload`).
    public var sizeBytes: Int
    /// Messages.
    public var count: Int
    /// Time between messages.
    public var interval: SimTime
    /// First message.
    public var start: SimTime
    /// Reliable session messages (retransmitted hop by hop, in order) or unreliable ones.
    public var reliable: Bool
    /// A group message (`"to"` a list, seed 002: "a user can create a group of users to
    /// message"): the group's id, shared by the workloads its recipients were split into
    /// (`<group>/<recipient>`, each sent along its own route as MAdHoc sends to each member);
    /// `nil` for a message to one node.
    public var group: String? = nil
}

extension ScenarioDecoder {
    /// The run-wide budgets of what the senders hold and do, derived from
    /// the input before anything runs: a message's bytes are held by its sender from the moment
    /// the app hands them over, so a thousand 64 MiB messages at 1 ns intervals are 64 GiB held
    /// at once; each per-item limit alone does not bound the sum.
    func checkBudgets(_ spec: MeshSpec, _ mp: JSONPath, at origin: ValueOrigin) -> Bool {
        var ok = true
        var held = 0.0
        for m in spec.messages { held += Double(m.sizeBytes) * Double(m.count) }
        for r in spec.resources { held += Double(r.sizeBytes) }
        if held > Double(MeshBounds.maxHeldBytes) {
            sink.report(
                "the message workloads and resources hand the senders \(NumberText.fixed(held / 1_073_741_824, decimals: 1)) GiB "
                    + "in all (size_bytes × count, summed); at most \(MeshBounds.maxHeldBytes >> 30) GiB per run",
                path: mp, at: origin)
            ok = false
        }
        // Each message is a record in the ledger and the senders' queues whatever its size: the
        // bytes alone do not bound the run (ten workloads of a million 1-byte messages are 10 MB).
        let budgets: [(total: Double, limit: Int, key: String, message: String)] = [
            (
                spec.messages.reduce(0.0) { $0 + Double($1.count) }, MeshBounds.maxMessages, "messages",
                "the message workloads send {total} messages in all (count summed over every workload and recipient); at most {limit} per run"
            ),
            (
                spec.streams.reduce(0.0) { $0 + Double($1.writes) }, SessionTransferBounds.maxWrites, "streams",
                "the streams make {total} writes in all; at most {limit} over every stream of a run (use larger write_bytes)"
            )
        ]
        for b in budgets where b.total > Double(b.limit) {
            sink.report(
                b.message.replacingOccurrences(of: "{total}", with: "\(Int(b.total))")
                    .replacingOccurrences(of: "{limit}", with: "\(b.limit)"),
                path: mp.appending(b.key), at: origin)
            ok = false
        }
        return ok
    }

    /// Decodes `mesh.messages`: each item by its declarations (`MessageParameters`), then the
    /// names a group's workloads take (`<id>/<node>`), which must not be another workload's.
    func decodeMessages(
        _ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], duration: Double?
    ) -> [MessageWorkloadSpec]? {
        guard let items = values.array(node, path, "an array of message workloads") else { return nil }
        var out: [MessageWorkloadSpec] = []
        var ok = true
        var names: Set<String> = []
        var resultNames: [String: String] = [:]
        for (i, itemNode) in items.enumerated() {
            let p = path.appending(i)
            let blank = MessageParameters.Item(nodeIndex: nodeIndex, runDuration: duration, names: names)
            // The workloads it makes, checked while the object is still being read (its unknown
            // keys are reported after them).
            let read = values.decodeAll(MessageParameters.section, itemNode, p, into: blank, perNode: false) {
                r, item in
                guard let id = item.id, let from = item.from, let recipients = item.recipients, let size = item.size,
                    let count = item.count, let interval = item.interval
                else { return false }
                var fine = true
                for to in recipients {
                    // A group's workloads are named `<id>/<node>`: that name must not be another
                    // workload's too, or the two would be counted as one in the results.
                    let name = item.isGroup ? "\(id)/\(to.name)" : id
                    if let other = resultNames[name], item.isGroup || !item.sameId {
                        self.sink.report(
                            "this makes a workload named \"\(Diagnostic.excerpt(name))\", as \(other) does; rename one",
                            path: p.appending("id"), at: r.value("id")?.origin ?? itemNode.origin)
                        fine = false
                    } else {
                        resultNames[name] = p.description
                    }
                    out.append(
                        MessageWorkloadSpec(
                            id: name, from: from, to: to.index, sizeBytes: size, count: count,
                            interval: .seconds(interval),
                            start: .seconds(item.start), reliable: item.reliable, group: item.isGroup ? id : nil))
                }
                return fine
            }
            guard let (item, itemOK) = read else { ok = false; continue }
            // Read-only in the item, inserted here: an insert into the item's copy would copy
            // the whole set for every item (quadratic in the items).
            if let id = item.id { names.insert(id) }
            if !itemOK { ok = false }
        }
        return ok ? out : nil
    }
}

/// Bounds of the mesh section.
public enum MeshBounds {
    /// The most phones in a mesh: 20 000, the largest size of the mesh's scale curve (docs/mesh.md). Above
    /// 2 048 phones the mesh's per-pair tables (routes, duplicate suppression, first-route
    /// times) are sparse (`PairTable`), so their memory follows the routes phones hold rather
    /// than N² (assumption: a bound on what one run may be asked to build).
    public static let maxNodes = 20_000
    /// The most bytes all message workloads and resources of a run may hand their senders:
    /// 4 GiB (assumption: a sender holds a message's fragments until they leave, about a tenth
    /// of their size in records; the largest shipped workload hands over a few megabytes).
    public static let maxHeldBytes: Int64 = 1 << 32
    /// The most messages all message workloads of a run may send, whatever their size:
    /// 2 000 000 (assumption: each message keeps a few hundred bytes of ledger and queue records
    /// while it is under way, about 0.6 GB at the bound; the shipped examples send thousands).
    public static let maxMessages = 2_000_000
    /// The largest `mesh.maxPeers` (a session's size, the phone included), so the longest
    /// session `mesh.sessions` may list: 64 (assumption: eight times Multipeer's 8, room to ask
    /// what a larger session would do).
    public static let maxSessionSize = 64
}

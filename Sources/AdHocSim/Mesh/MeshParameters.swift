/// The `mesh` section's settings, each declared once: the decoder's checks and
/// messages, the schema's `mesh` object and the table in `docs/models/mesh.md` come from here;
/// the defaults are `MeshConfig`'s, where each one's source is given. The section's lists
/// (`messages`, `sessions`, `resources`, `streams`), which name nodes, are read by the mesh's
/// own code after these (`MeshSpec.swift`, `SessionTransferSpec.swift`).
enum MeshParameters {
    static let config = MeshConfig()
    static func seconds(_ t: SimTime) -> String { JSONNumber(Double(t.nanoseconds) / 1e9).literal }

    static let section = ParameterSection<MeshSpec>(
        "mesh",
        [
            Parameter(
                "routing", .choice(["dsr-heartbeat", "dsr"], set: { $0.routing = $1 }), default: "\"dsr-heartbeat\"",
                help: "MAdHoc's DSR with heartbeats, or classic on-demand DSR (RFC 4728)",
                expected: "a routing protocol",
                source: .cited("seed 002: MAdHoc's design (docs/mesh.md)")),
            Parameter(
                "heartbeatIntervalS",
                .duration(
                    upTo: 3600, unit: "s", scale: 1, allowZero: false, nullable: false,
                    set: { $0.heartbeatIntervalS = $1 }),
                default: seconds(config.heartbeatInterval), help: "heartbeat period",
                expected: "a heartbeat period in seconds, {range}", source: .cited("MAdHoc's design, mesh.md")),
            Parameter(
                "routeTimeoutS",
                .duration(
                    upTo: 36_000, unit: "s", scale: 1, allowZero: false, nullable: false, set: { $0.routeTimeoutS = $1 }
                ),
                default: "\(seconds(config.routeTimeout)) (300 for `dsr`)",
                help: "a route not refreshed for this long is dropped (classic DSR: a cached route's lifetime)",
                expected: "a route timeout in seconds, {range}",
                source: .assumption(
                    "three heartbeat periods, as AODV's hello loss of 2 (peers.md); `dsr`: ns-3's route cache timeout")),
            Parameter(
                "peerTimeoutS",
                .duration(
                    upTo: 3600, unit: "s", scale: 1, allowZero: false, nullable: false, set: { $0.peerTimeoutS = $1 }),
                default: seconds(config.peerTimeout), help: "how long a failed or faded peer stays in the session",
                expected: "a lost-peer timeout in seconds, {range}", source: .assumption("Apple documents no figure")),
            Parameter(
                "bonjourTtlS",
                .duration(
                    upTo: 4500, unit: "s", scale: 1, allowZero: false, nullable: true,
                    set: { $0.bonjourTtlS = $1 ?? .infinity }),
                default: config.bonjourTtl.map(seconds) ?? "null",
                help:
                    "how long a browser keeps a peer's Bonjour answer: it asks again from 80 % and loses the peer at 100 % (`null`: answers never expire, a peer is lost only when it stops advertising)",
                expected: "a record lifetime in seconds, {range}",
                source: .cited("RFC 6762 §10: 120 s for records naming a host; §5.2: refresh at 80, 85, 90, 95 %")),
            Parameter(
                "confirmTimeoutS",
                .duration(
                    upTo: 3600, unit: "s", scale: 1, allowZero: false, nullable: false, set: { $0.confirmTimeoutS = $1 }
                ),
                default: seconds(config.confirmTimeout),
                help: "how long a sender waits for the route return before it retries",
                expected: "a confirmation timeout in seconds, {range}",
                source: .assumption("ten hops at ns-3 DSR's 40 ms node traversal time both ways, plus AWDL waits, × 2")),
            Parameter(
                "maxPeers", .integer(2...UInt64(MeshBounds.maxSessionSize), unit: "", set: { $0.maxPeers = $1 }),
                default: "\(config.maxPeers)",
                help: "a Multipeer session's size, the phone included",
                expected: "a session size (including the node) in {range}",
                source: .cited("radio.md: Multipeer Connectivity holds 8 peers")),
            Parameter(
                "maxNeighbours", .integer(1...64, unit: "", set: { $0.maxNeighbours = $1 }),
                default: "\(config.maxNeighbours)",
                help: "MAdHoc's limit of other nodes a phone connects to",
                expected: "a number of other nodes in {range}",
                source: .cited("seed 002: \"each node can connect to up to 8 other nodes\"")),
            Parameter(
                "sessionsPerPhone", .integer(1...8, unit: "", set: { $0.sessionsPerPhone = $1 }),
                default: "\(config.sessionsPerPhone)",
                help: "Multipeer sessions a phone runs at once", expected: "a number of sessions in {range}",
                source: .cited("seed 002's 8 other nodes in sessions of at most 7 others (radio.md)")),
            Parameter(
                "retries", .integer(0...100, unit: "", set: { $0.retries = $1 }), default: "\(config.retries)",
                help: "a message's attempts after the first", expected: "a retry count in {range}",
                source: .assumption("ns-3 DSR retransmits maintenance twice")),
            Parameter(
                "keyPaths",
                .custom(
                    schema: .anyOf([.integer.minimum(1).maximum(16), .null]),
                    value: "1 … 16, or `null` (no key report)",
                    decode: { values, v, at, what, spec in
                        // null: no key report (so `--set mesh.keyPaths=null` switches it off).
                        if case .null = v.value { spec.keyPaths = nil; return true }
                        guard let n = values.integer(v, at, what, in: 1...16) else { return false }
                        spec.keyPaths = Int(n)
                        return true
                    }),
                default: "null",
                help: "distinct shared paths a pair needs for a path-derived key (`dsr-heartbeat` only)",
                expected: "a number of distinct paths in 1...16, or null for no key report",
                source: .cited("seed 002: keys derived from paths (docs/mesh.md)")),
            Parameter(
                "sessionSetup",
                .choice(SessionSetup.allCases.map(\.rawValue), set: { $0.sessionSetup = SessionSetup(rawValue: $1) }),
                default: "\"\(config.sessionSetup.rawValue)\"",
                help: "Multipeer's discovery, invitation and connection frames, or at once",
                expected: "how sessions form", source: .cited("seed 003: Multipeer Connectivity (`MultipeerSetup`)")),
            Parameter(
                "sessionLayout",
                .choice(
                    SessionLayout.allCases.map(\.rawValue), set: { $0.sessionLayout = SessionLayout(rawValue: $1) }),
                default: "\"\(config.sessionLayout.rawValue)\"",
                help: "sessions as groups of up to `maxPeers` phones all connected to each other, or one per pair",
                expected: "how a phone's peers make up its sessions",
                source: .cited("Apple's MCSession documentation: every peer in a session is connected to every other")),
            Parameter(
                "encryption",
                .choice(
                    SessionEncryption.allCases.map(\.rawValue), set: { $0.encryption = SessionEncryption(rawValue: $1) }
                ),
                default: "\"\(config.encryption.rawValue)\"",
                help: "every phone's session encryption preference (DTLS when used), unless `mesh.phones` sets its own",
                expected: "an encryption preference",
                source: .cited("`MCSession(peer:)`'s default for apps linked on or after iOS 9, Apple's documentation")),
            Parameter(
                "floodSend",
                .choice(FloodSend.allCases.map(\.rawValue), set: { $0.floodSend = FloodSend(rawValue: $1) }),
                default: "\"\(config.floodSend.rawValue)\"",
                help: "heartbeats and route requests: one unicast per session peer, or one broadcast",
                expected: "how flooded frames are sent",
                source: .cited("seed 003: Multipeer sends to connected peers only")),
            Parameter(
                "forwarding",
                .choice(MeshForwarding.allCases.map(\.rawValue), set: { $0.forwarding = MeshForwarding(rawValue: $1) }),
                default: "\"\(config.forwarding.rawValue)\"",
                help:
                    "messages and route returns: to the next node on the path, or to every session peer (only the next node forwards)",
                expected: "how a message goes from hop to hop",
                source: .cited(
                    "seed 002, §3.2: \"broadcasted to all peers, only peers in the given path further propagate\"")),
            bool(
                "heartbeatOnStart", config.heartbeatOnStart, "the first heartbeat goes when the app starts",
                .cited("seed 002, §3: \"When an app starts up it begins broadcasting a heartbeat\"")
            ) { $0.heartbeatOnStart = $1 },
            bool(
                "heartbeatOnNewSession", config.heartbeatOnNewSession,
                "a phone whose session gains a peer sends a heartbeat at once",
                .cited("seed 002: \"routes established within 10 seconds of connecting\", read as a trigger")
            ) { $0.heartbeatOnNewSession = $1 },
            bool(
                "dropSeenHeartbeats", config.dropSeenHeartbeats,
                "a heartbeat seen before is dropped (off: a later copy with a shorter path than the live route replaces it)",
                .cited("seed 002, §7.3: \"If the heartbeat has been seen before, discard it\"")
            ) { $0.dropSeenHeartbeats = $1 },
            bool(
                "routeCache", config.routeCache,
                "keep the freshest path through each other session peer to fail over to",
                .cited("seed 002, §3.2: the route cache \"stores an array of routes\"")
            ) { $0.routeCache = $1 },
            bool(
                "handshakeRetransmission", config.handshakeRetransmission,
                "lost connection flights are resent on DTLS's timer",
                .cited("RFC 6347 §4.2.4.1")
            ) { $0.handshakeRetransmission = $1 },
            Parameter(
                "maxResourceBytes",
                .integer(
                    1...UInt64(SessionTransferBounds.maxResourceBytes), unit: "bytes", set: { $0.maxResourceBytes = $1 }
                ),
                default: "\(SessionTransferBounds.defaultMaxResourceBytes)",
                help: "the largest resource a scenario may send",
                expected: "a largest resource size in {range} bytes",
                source: .assumption("Apple documents no limit for `sendResource`; the same bound as a mesh message"))
        ], objectExpected: "an object {\"routing\", \"heartbeatIntervalS\", \"messages\", ...}",
        description: "MAdHoc's mesh over Multipeer sessions")

    /// A `true`/`false` key.
    static func bool(
        _ key: String, _ value: Bool, _ help: String, _ source: Parameter<MeshSpec>.Source,
        _ set: @escaping @Sendable (inout MeshSpec, Bool) -> Void
    ) -> Parameter<MeshSpec> {
        Parameter(key, .bool(set: set), default: "\(value)", help: help, expected: "true or false", source: source)
    }
}

extension ScenarioDecoder {
    /// Decodes the `mesh` object: the declared settings, then the rule between `routing` and
    /// `keyPaths`, the message workloads, the session groups, transfers and run-wide budgets.
    func decodeMesh(_ node: JSONNode, _ mp: JSONPath, nodeIndex: [String: Int], duration: Double?) -> MeshSpec? {
        if node.members != nil, nodeIndex.count > MeshBounds.maxNodes {
            sink.report(
                "a mesh keeps a route, a duplicate filter and a first-route time per ordered pair of phones, so it "
                    + "is limited to \(MeshBounds.maxNodes) phones; this scenario has \(nodeIndex.count)",
                path: mp, at: node.origin)
            return nil
        }
        return decode(MeshParameters.section, node, mp, into: MeshSpec(), perNode: false) { mr, spec in
            var ok = true
            if spec.routing == "dsr", spec.keyPaths != nil, let v = mr.value("keyPaths") {
                self.sink.report(
                    "path-derived keys come from heartbeat paths: keyPaths needs \"routing\": \"dsr-heartbeat\"",
                    path: mp.appending("keyPaths"), at: v.origin)
                ok = false
            }
            if let v = mr.value("messages") {
                if let list = self.decodeMessages(v, mp.appending("messages"), nodeIndex: nodeIndex, duration: duration)
                {
                    spec.messages = list
                } else {
                    ok = false
                }
            }
            if let v = mr.value("phones") {
                if let list = self.decodePhones(v, mp.appending("phones"), nodeIndex: nodeIndex) {
                    spec.phones = list
                } else {
                    ok = false
                }
            }
            ok = self.decodeSessionTransfers(mr, mp, into: &spec, nodeIndex: nodeIndex, duration: duration) && ok
            // Keys that cannot act with the set-up chosen are bad input, not silently ignored: the
            // apps' settings and DTLS's retransmission belong to Multipeer's own set-up, which
            // neither instant sessions nor fixed groups (`sessions`) run.
            let instant = spec.sessionSetup == .instant
            if let v = mr.value("phones"), instant || spec.sessions != nil {
                self.sink.report(
                    "the apps' settings act in Multipeer's discovery and invitations; with "
                        + (instant ? "\"sessionSetup\": \"instant\"" : "fixed \"sessions\"")
                        + " no phone discovers or invites",
                    path: mp.appending("phones"), at: v.origin)
                ok = false
            }
            if let v = mr.value("handshakeRetransmission"), instant {
                self.sink.report(
                    "handshakeRetransmission resends lost DTLS flights; with \"sessionSetup\": \"instant\" there is no handshake",
                    path: mp.appending("handshakeRetransmission"), at: v.origin)
                ok = false
            }
            ok = self.checkBudgets(spec, mp, at: node.origin) && ok
            return ok
        }
    }
}

extension ScenarioDecoder {
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

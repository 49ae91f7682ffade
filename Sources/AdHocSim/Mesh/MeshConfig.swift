// The mesh's settings with every default resolved and sourced (`MeshConfig`), and its
// routing, flooding, session and encryption choices.

/// The routing's event kinds, with the numbers they have in every fingerprint (block 230–239).
enum MeshEventKind: UInt16, CaseIterable {
    /// A node's heartbeat is due (target: node).
    case heartbeat = 230
    /// A workload's next message is created (target: workload, arg: message number).
    case message = 232
    /// A message's confirmation is overdue (target: workload, arg: message << 16 | attempt).
    case confirmTimeout = 233
    /// Classic DSR: a route request went unanswered (target: initiator, arg: sought << 16 | retries).
    case requestTimeout = 234
    /// A heartbeat a new session triggered is due (target: node); the periodic ones go on.
    case sessionHeartbeat = 235
}

extension EventKind {
    /// `MeshEventKind.heartbeat`.
    public static let meshHeartbeat = EventKind(MeshEventKind.heartbeat)
    /// `MeshEventKind.message`.
    public static let meshMessage = EventKind(MeshEventKind.message)
    /// `MeshEventKind.confirmTimeout`.
    public static let meshConfirmTimeout = EventKind(MeshEventKind.confirmTimeout)
    /// `MeshEventKind.requestTimeout`.
    public static let meshRequestTimeout = EventKind(MeshEventKind.requestTimeout)
    /// `MeshEventKind.sessionHeartbeat`.
    public static let meshSessionHeartbeat = EventKind(MeshEventKind.sessionHeartbeat)
}

/// How the mesh finds routes.
public enum MeshRouting: String, Sendable, Equatable {
    /// MAdHoc's DSR with heartbeats (proactive flooding of paths; mesh.md).
    case heartbeat = "dsr-heartbeat"
    /// Classic on-demand DSR (RFC 4728 subset; see `ClassicDsr.swift`).
    case dsr
}

/// How a node sends a frame to all its session peers (heartbeats, DSR route requests).
public enum FloodSend: String, Sendable, Equatable, CaseIterable {
    /// One unicast per session peer, as `MCSession.send(_:toPeers:with:)` does: Multipeer
    /// Connectivity has no broadcast (seed 003: data goes to connected peers), so every copy is
    /// an 802.11 unicast the receiver acknowledges and the MAC retries.
    case sessionPeers
    /// One link-layer broadcast heard by every session peer (no acknowledgement, no retry):
    /// the earlier model, kept as an ablation.
    case broadcast
}

/// How a message or route return travels from one hop to the next.
public enum MeshForwarding: String, Sendable, Equatable, CaseIterable {
    /// To the next node on its source route only, one unicast (`MCSession.send(_:toPeers:)`
    /// naming that peer).
    case nextHop = "next-hop"
    /// As MAdHoc's design writes it: "Message is broadcasted to all peers, only peers in the
    /// given path further propagate the message" (seed 002, §3.2): each hop sends the frame to
    /// every session peer (one unicast each, Multipeer having no broadcast); the next node on
    /// the path takes it and sends it on, the others drop it.
    case pathBroadcast = "path-broadcast"
}

/// Mesh settings (mesh.md, radio.md, peers.md; assumptions labelled).
public struct MeshConfig: Sendable, Equatable {
    /// The routing protocol.
    public var routing = MeshRouting.heartbeat
    /// Heartbeat period: 5 s (MAdHoc design, mesh.md).
    public var heartbeatInterval = SimTime.seconds(5)
    /// A route whose origin's heartbeat has not come for this long is dropped: 15 s, three
    /// heartbeat periods, so two lost heartbeats in a row are tolerated (the same allowance as
    /// AODV's hello loss of 2, peers.md; an assumption). Classic DSR keeps cached routes for
    /// 300 s (ns-3's route cache timeout, peers.md).
    public var routeTimeout = SimTime.seconds(15)
    /// Classic DSR: the first route request waits 500 ms for a reply, each retry twice as
    /// long up to 10 s, and a discovery gives up after 16 retries (ns-3 DSR's RequestPeriod,
    /// MaxRequestPeriod and RREQ retries, peers.md).
    public var requestPeriod = SimTime.milliseconds(500)
    /// See `requestPeriod`.
    public var maxRequestPeriod = SimTime.seconds(10)
    /// See `requestPeriod`.
    public var requestRetries = 16
    /// How a message or route return goes from hop to hop: to every session peer, of which
    /// only the next node on the path passes it on, as MAdHoc's design writes it (default;
    /// seed 002, §3.2), or to the next node only (as the design's networking overview reads,
    /// "sends it to the next device in the path", seed 002, §7.3).
    public var forwarding = MeshForwarding.pathBroadcast
    /// Each heartbeat is delayed by up to 100 ms of jitter so neighbours do not transmit in
    /// lockstep (assumption; ns-3's DSR uses 0–10 ms of broadcast jitter).
    public var heartbeatJitter = SimTime.milliseconds(100)
    /// The first heartbeat goes when the app starts (within the jitter), as MAdHoc's design
    /// states: "When an app starts up it begins broadcasting a heartbeat" (seed 002, §3). Off:
    /// the first heartbeat waits a random offset within one period (the earlier model).
    public var heartbeatOnStart = true
    /// A node whose session gains a peer sends a heartbeat at once (within the jitter), beside
    /// its periodic ones, so the new neighbourhood learns a route to it without waiting up to a
    /// period: the design's "routes established within 10 seconds of connecting" (seed 002,
    /// requirements) read as a trigger. Off: only periodic heartbeats.
    public var heartbeatOnNewSession = true
    /// A heartbeat seen before (same origin, sequence not newer than the newest seen) is
    /// dropped, as MAdHoc's design says: "If the heartbeat has been seen before, discard it"
    /// (seed 002, §7.3). Off: a later copy whose path is shorter than the live route replaces
    /// it and is forwarded.
    public var dropSeenHeartbeats = true
    /// How heartbeats and route requests reach the session peers: one unicast per peer
    /// (default; Multipeer has no broadcast) or one broadcast (ablation). MAdHoc's design calls
    /// the heartbeat "a broadcast message" sent over Multipeer, which can only send to peers;
    /// it sends them as `.unreliable` messages here (assumption: a periodic message needs no
    /// end-to-end retransmission), so only the MAC retries a copy.
    public var floodSend = FloodSend.sessionPeers
    /// MAdHoc's route cache (seed 002, §3.2: the route cache "stores an array of routes"):
    /// besides the route in use, every node keeps the freshest path heard through each other
    /// session peer. A message retry takes the next cached route, and a source whose first hop
    /// has left its session sends along a cached path at once instead of waiting for the next
    /// heartbeat. (The app never sees the link give up: Multipeer's reliable mode resends.)
    /// Off: one route per destination.
    public var routeCache = true
    /// How long a sender waits for the route return before it retries with the route it holds
    /// then: 4 s (assumption: ten hops at ns-3 DSR's 40 ms node traversal time, both ways,
    /// plus AWDL waits of up to ~100 ms per hop, with a factor 2 of margin).
    public var confirmTimeout = SimTime.seconds(4)
    /// Attempts after the first: 3 (assumption; ns-3 DSR retransmits maintenance twice).
    public var retries = 3
    /// Distinct shared paths a pair needs for a path-derived key, or `nil` for no key report.
    public var keyPaths: Int?
    /// IP over the mesh: the longest route a flow's packet may take, 16 nodes (15 hops). The IP
    /// MTU over the mesh leaves room for that route's header and the session's DTLS record:
    /// 1 484 − (32 + 8 · 16) − 37 = 1 287 bytes on AWDL with encryption (1 324 without), still
    /// above IPv6's 1 280-byte minimum link MTU (RFC 8200 §5); 21 nodes would leave 1 247 bytes.
    /// A longer route is not used.
    public var maxIpPathNodes = 16
    /// The session layer's settings (`SessionConfig`); each is read and set here by its own name.
    public var session = SessionConfig()
    /// See `SessionConfig`.
    public var maxPeers: Int {
        get { session.maxPeers }
        set { session.maxPeers = newValue }
    }
    /// See `SessionConfig`.
    public var maxNeighbours: Int {
        get { session.maxNeighbours }
        set { session.maxNeighbours = newValue }
    }
    /// See `SessionConfig`.
    public var sessionsPerPhone: Int {
        get { session.sessionsPerPhone }
        set { session.sessionsPerPhone = newValue }
    }
    /// See `SessionConfig`.
    public var neighbourLimit: Int { session.neighbourLimit }
    /// See `SessionConfig`.
    public func largestSession(peers: Int) -> Int { session.largestSession(peers: peers) }
    /// See `SessionConfig`.
    public var discoverDbm: Double {
        get { session.discoverDbm }
        set { session.discoverDbm = newValue }
    }
    /// See `SessionConfig`.
    public var keepDbm: Double {
        get { session.keepDbm }
        set { session.keepDbm = newValue }
    }
    /// See `SessionConfig`.
    public var sessionInterval: SimTime {
        get { session.sessionInterval }
        set { session.sessionInterval = newValue }
    }
    /// See `SessionConfig`.
    public var peerTimeout: SimTime {
        get { session.peerTimeout }
        set { session.peerTimeout = newValue }
    }
    /// See `SessionConfig`.
    public var bonjourTtl: SimTime? {
        get { session.bonjourTtl }
        set { session.bonjourTtl = newValue }
    }
    /// See `SessionConfig`.
    public var sessionSetup: SessionSetup {
        get { session.sessionSetup }
        set { session.sessionSetup = newValue }
    }
    /// See `SessionConfig`.
    public var sessionLayout: SessionLayout {
        get { session.sessionLayout }
        set { session.sessionLayout = newValue }
    }
    /// See `SessionConfig`.
    public var encryption: SessionEncryption {
        get { session.encryption }
        set { session.encryption = newValue }
    }
    /// See `SessionConfig`.
    public var handshakeRetransmission: Bool {
        get { session.handshakeRetransmission }
        set { session.handshakeRetransmission = newValue }
    }
    /// See `SessionConfig`.
    public var reliableResendDelay: SimTime {
        get { session.reliableResendDelay }
        set { session.reliableResendDelay = newValue }
    }
    /// See `SessionConfig`.
    public var transferWindow: Int {
        get { session.transferWindow }
        set { session.transferWindow = newValue }
    }
    /// See `SessionConfig`.
    public var maxResourceBytes: Int {
        get { session.maxResourceBytes }
        set { session.maxResourceBytes = newValue }
    }
    /// See `SessionConfig`.
    public func transferFrameBytes(payload: Int) -> Int32 { session.transferFrameBytes(payload: payload) }
    /// See `SessionConfig`.
    public static var dtlsRecordBytes: Int { SessionConfig.dtlsRecordBytes }
    /// See `SessionConfig`.
    public var recordBytes: Int { session.recordBytes }
    /// Heartbeat size (and DSR control frame size): 32 bytes of header plus 8 bytes per node on
    /// the path (assumption), plus the session's record overhead (`recordBytes`).
    public func heartbeatBytes(pathLength: Int) -> Int32 { Int32(32 + 8 * pathLength + recordBytes) }
    /// Message frame: the same header, source route and record overhead, plus the payload.
    public func messageBytes(pathLength: Int, payload: Int) -> Int32 {
        Int32(32 + 8 * pathLength + recordBytes + payload)
    }
    /// The most message bytes one frame carries: 1 200, so that with a 20-hop source route, the
    /// fragment header, a path-derived key's seal and the DTLS record a frame still fits AWDL's
    /// 1 484-byte MTU (32 + 8 · 21 + 8 + 1 200 + 28 + 37 = 1 473). A longer message (MAdHoc's picture messages, seed 002) is split into frames of
    /// this payload that follow the same route and are reassembled at the destination.
    public static let fragmentPayload = 1200
    /// Bytes a fragment adds to say which piece of how many it is: two 4-byte counters
    /// (assumption).
    public static let fragmentHeaderBytes = 8
    /// How many frames a message of `size` bytes takes.
    public static func fragmentCount(size: Int) -> Int { max(1, (size + fragmentPayload - 1) / fragmentPayload) }
    /// The payload of fragment `index` of a message of `size` bytes.
    public static func fragmentBytes(_ index: Int, size: Int) -> Int {
        let count = fragmentCount(size: size)
        return count == 1 ? size : (index < count - 1 ? fragmentPayload : size - fragmentPayload * (count - 1))
    }

    /// Defaults.
    public init() {}

    /// The settings `spec` asks for, defaults elsewhere.
    public init(_ spec: MeshSpec) {
        routing = MeshRouting(rawValue: spec.routing) ?? .heartbeat
        if routing == .dsr { routeTimeout = .seconds(300) }
        if let v = spec.heartbeatIntervalS { heartbeatInterval = .seconds(v) }
        if let v = spec.routeTimeoutS { routeTimeout = .seconds(v) }
        if let v = spec.maxPeers { maxPeers = v }
        if let v = spec.maxNeighbours { maxNeighbours = v }
        if let v = spec.sessionsPerPhone { sessionsPerPhone = v }
        if let v = spec.peerTimeoutS { peerTimeout = .seconds(v) }
        if let v = spec.bonjourTtlS { bonjourTtl = v.isInfinite ? nil : .seconds(v) }
        if let v = spec.confirmTimeoutS { confirmTimeout = .seconds(v) }
        if let v = spec.retries { retries = v }
        keyPaths = spec.keyPaths
        if let v = spec.heartbeatOnStart { heartbeatOnStart = v }
        if let v = spec.heartbeatOnNewSession { heartbeatOnNewSession = v }
        if let v = spec.dropSeenHeartbeats { dropSeenHeartbeats = v }
        if let v = spec.floodSend { floodSend = v }
        if let v = spec.forwarding { forwarding = v }
        if let v = spec.routeCache { routeCache = v }
        if let v = spec.sessionSetup { sessionSetup = v }
        if let v = spec.sessionLayout { sessionLayout = v }
        if let v = spec.encryption { encryption = v }
        if let v = spec.handshakeRetransmission { handshakeRetransmission = v }
        if let v = spec.maxResourceBytes { maxResourceBytes = v }
    }
}

/// One node's known route: the path from the node to the destination (both included).
public struct MeshRoute: Sendable, Equatable {
    /// Node indices from here to the destination.
    public var path: [Int]
    /// When the heartbeat that taught it arrived.
    public var learned: SimTime
    /// Hops.
    public var hops: Int { path.count - 1 }
}

extension MeshNetwork {
    /// The routing's blocks of event kinds (`Layers.eventBlocks`): 230 and 232–235, inside the
    /// 230–239 the mesh was given when it held the session layer too (whose kinds are
    /// `SessionEvents.eventBlocks`).
    static let eventBlocks: [Range<UInt16>] = [230..<231, 232..<236]

    /// Whether `kind` is one of the routing's.
    @inline(__always)
    static func owns(_ kind: EventKind) -> Bool {
        let k = kind.rawValue
        return k == 230 || (232..<236).contains(k)
    }
}

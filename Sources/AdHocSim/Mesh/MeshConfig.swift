// The mesh's settings with every default resolved and sourced (`MeshConfig`), and its
// routing, flooding, session and encryption choices.

extension EventKind {
    /// A node's heartbeat is due (target: node).
    public static let meshHeartbeat = EventKind(rawValue: 230)
    /// Sessions are re-evaluated (target: unused).
    public static let meshSessions = EventKind(rawValue: 231)
    /// A workload's next message is created (target: workload, arg: message number).
    public static let meshMessage = EventKind(rawValue: 232)
    /// A message's confirmation is overdue (target: workload, arg: message << 16 | attempt).
    public static let meshConfirmTimeout = EventKind(rawValue: 233)
    /// Classic DSR: a route request went unanswered (target: initiator, arg: sought << 16 | retries).
    public static let meshRequestTimeout = EventKind(rawValue: 234)
    /// A heartbeat a new session triggered is due (target: node); the periodic ones go on.
    public static let meshSessionHeartbeat = EventKind(rawValue: 235)
    /// A node's Bonjour query is due (target: node).
    public static let meshQuery = EventKind(rawValue: 236)
    /// A node's Bonjour answer or announcement is due (target: node).
    public static let meshAnswer = EventKind(rawValue: 237)
    /// An invitation's timeout (target: inviter, arg: invited).
    public static let meshInviteTimeout = EventKind(rawValue: 238)
    /// A reliable frame the link gave up on is due to be sent again (target: unused, arg: id).
    public static let meshResend = EventKind(rawValue: 239)
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

/// How a message or route return travels from one hop to the next (issue #30).
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

/// How neighbour sessions form.
public enum SessionSetup: String, Sendable, Equatable, CaseIterable {
    /// Multipeer Connectivity's discovery, invitation and connection frames (`MultipeerSetup`).
    case multipeer
    /// At once, when two phones hear each other at the discovery threshold (the earlier model).
    case instant
}

/// The session's encryption preference (`MCEncryptionPreference`).
public enum SessionEncryption: String, Sendable, Equatable, CaseIterable {
    /// No encryption: no DTLS handshake (Apple: "The session should not be encrypted").
    case none
    /// Encrypt when every peer chooses `optional` or `required`, else not (Apple's
    /// documentation of `MCEncryptionPreference.optional`).
    case optional
    /// Always encrypt (`MCSession(peer:)`'s default for apps linked on or after iOS 9): a peer
    /// that chose `none` cannot connect (`MultipeerPhone.sessionEncrypted`).
    case required
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
    /// Session size including the node itself: 8 (Multipeer Connectivity, radio.md).
    public var maxPeers = 8
    /// MAdHoc's own limit: "each node can connect to up to 8 other nodes" (seed 002,
    /// requirements), counted as the design counts it: 8 other phones. One Multipeer session
    /// holds at most `maxPeers − 1` = 7 others, so a phone with 8 neighbours runs a second
    /// session (`sessionsPerPhone`, 2); a phone's neighbours are at most `neighbourLimit`, the
    /// smaller of the two limits, 8 by default (issue #30; before it, one session and 7).
    public var maxNeighbours = 8
    /// Sessions a phone runs at once: 2, the fewest that hold the design's 8 other nodes in
    /// sessions of at most `maxPeers − 1` others each (see `maxNeighbours`).
    public var sessionsPerPhone = 2
    /// The most session peers a phone may have: min(`maxNeighbours`, `sessionsPerPhone` ·
    /// (`maxPeers` − 1)).
    public var neighbourLimit: Int { min(maxNeighbours, sessionsPerPhone * (maxPeers - 1)) }
    /// The members of the largest Multipeer session of a phone with `peers` session peers, the
    /// phone included: its peers fill its sessions one after the other, at most `maxPeers − 1`
    /// others each, so the first holds min(`peers`, `maxPeers − 1`) + 1.
    public func largestSession(peers: Int) -> Int { min(peers, maxPeers - 1) + 1 }
    /// How a message or route return goes from hop to hop: to the next node only (default) or
    /// to every session peer (MAdHoc's design as written).
    public var forwarding = MeshForwarding.nextHop
    /// Signal needed to discover a peer: −65 dBm; a known peer is kept down to −70 dBm
    /// (AWDL, radio.md).
    public var discoverDbm = -65.0
    /// See `discoverDbm`.
    public var keepDbm = -70.0
    /// Sessions are re-evaluated every second (assumption: browsing and invitation take about
    /// that long).
    public var sessionInterval = SimTime.seconds(1)
    /// A peer that has failed or faded below `keepDbm` stays in the session this long before
    /// it is dropped (Multipeer's "not connected" state change; Apple documents no figure, so
    /// 3 s is an assumption). A peer back within the timeout keeps its session.
    public var peerTimeout = SimTime.seconds(3)
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
    /// How sessions form: Multipeer's frames (default) or at once (`"instant"`, the earlier
    /// model; the mesh benchmarks pin it).
    public var sessionSetup = SessionSetup.multipeer
    /// Every phone's session encryption preference, unless `mesh.phones` gives its own:
    /// `required`, `MCSession(peer:)`'s default for apps linked on or after iOS 9 (Apple's
    /// documentation; before issue #30 `optional`, which between two MAdHoc phones gives the
    /// same encrypted sessions).
    public var encryption = SessionEncryption.required
    /// Connection flights are resent on DTLS's retransmission timer (RFC 6347 §4.2.4.1;
    /// `MultipeerSetup`). Off: a lost flight is recovered only by the 30 s set-up timeout (the
    /// model before it, kept as an ablation).
    public var handshakeRetransmission = true
    /// How long a sender waits for the route return before it retries with the route it holds
    /// then: 4 s (assumption: ten hops at ns-3 DSR's 40 ms node traversal time, both ways,
    /// plus AWDL waits of up to ~100 ms per hop, with a factor 2 of margin).
    public var confirmTimeout = SimTime.seconds(4)
    /// Multipeer's reliable mode: a message frame the link gave up on is sent again to the
    /// same next hop after 250 ms, for as long as that peer stays in the session (assumption:
    /// Apple documents neither the delay nor a limit; 250 ms is about one AWDL channel
    /// sequence of 16 slots of 16 TU, radio.md).
    public var reliableResendDelay = SimTime.milliseconds(250)
    /// Multipeer streams and resources: the most pieces of one transfer with the link at a
    /// time, 64 (assumption: one 802.11 block-ack window of 64 MPDUs, IEEE 802.11-2016 §10.24,
    /// so an aggregate can be filled; Apple documents no buffer size).
    public var transferWindow = 64
    /// The largest resource a scenario may send (`SessionTransferBounds`).
    public var maxResourceBytes = SessionTransferBounds.defaultMaxResourceBytes
    /// A stream or resource piece on the link: a 32-byte Multipeer data header (assumption,
    /// the same as the mesh's), 8 bytes of offset, the record overhead, and the payload.
    public func transferFrameBytes(payload: Int) -> Int32 { Int32(32 + 8 + recordBytes + payload) }
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
    /// DTLS 1.2 record overhead on every frame of an encrypted session (`encryption` not
    /// `none`): the 13-byte record header (content type, version, epoch, 48-bit sequence number,
    /// length; RFC 6347 §4.1) plus AES-128-GCM's 8-byte explicit nonce and 16-byte tag (RFC 5288
    /// §3). The cipher suite is an assumption: Apple does not say which one Multipeer
    /// negotiates, and GCM is the one TLS 1.2 clients prefer. One record per frame.
    public static let dtlsRecordBytes = 37
    /// The record overhead this session's frames carry: `dtlsRecordBytes` when encrypted, else 0.
    public var recordBytes: Int { encryption == .none ? 0 : MeshConfig.dtlsRecordBytes }
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
        if let v = spec.confirmTimeoutS { confirmTimeout = .seconds(v) }
        if let v = spec.retries { retries = v }
        keyPaths = spec.keyPaths
        if let v = spec.heartbeatOnStart { heartbeatOnStart = v }
        if let v = spec.heartbeatOnNewSession { heartbeatOnNewSession = v }
        if let v = spec.floodSend { floodSend = v }
        if let v = spec.forwarding { forwarding = v }
        if let v = spec.routeCache { routeCache = v }
        if let v = spec.sessionSetup { sessionSetup = v }
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
    /// `SessionLayer.eventBlocks`).
    static let eventBlocks: [Range<UInt16>] = [230..<231, 232..<236]

    /// Whether `kind` is one of the routing's.
    @inline(__always)
    static func owns(_ kind: EventKind) -> Bool {
        let k = kind.rawValue
        return k == 230 || (232..<236).contains(k)
    }
}

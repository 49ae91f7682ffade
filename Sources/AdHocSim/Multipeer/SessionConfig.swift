/// How neighbour sessions form.
public enum SessionSetup: String, Sendable, Equatable, CaseIterable {
    /// Multipeer Connectivity's discovery, invitation and connection frames (`MultipeerSetup`).
    case multipeer
    /// At once, when two phones hear each other at the discovery threshold (the earlier model).
    case instant
}

/// How a phone's session peers make up its Multipeer sessions (`mesh.sessionLayout`).
public enum SessionLayout: String, Sendable, Equatable, CaseIterable {
    /// As Apple builds them: a session is a group of at most `maxPeers` phones, every member
    /// connected to every other; an invitation brings the invited phone into the inviter's
    /// session, and it then connects to each of the session's other members
    /// (`SessionGroups`). A phone runs at most `sessionsPerPhone` sessions.
    case group
    /// One session per pair of phones, counted against the phone's room in groups of
    /// `maxPeers − 1` (the earlier model).
    case pairwise
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

/// Multipeer Connectivity's session layer settings (`Multipeer/`; radio.md, seed 003,
/// assumptions labelled): sessions and their limits, discovery thresholds, how sessions form
/// and are encrypted, the reliable mode's resends and transfers. The mesh's settings hold them
/// (`MeshConfig.session`) and read them by the same names, since one `mesh` section sets both.
public struct SessionConfig: Sendable, Equatable {
    /// Session size including the node itself: 8 (Multipeer Connectivity, radio.md).
    public var maxPeers = 8
    /// MAdHoc's own limit: "each node can connect to up to 8 other nodes" (seed 002,
    /// requirements), counted as the design counts it: 8 other phones. One Multipeer session
    /// holds at most `maxPeers − 1` = 7 others, so a phone with 8 neighbours runs a second
    /// session (`sessionsPerPhone`, 2); a phone's neighbours are at most `neighbourLimit`, the
    /// smaller of the two limits, 8 by default.
    public var maxNeighbours = 8
    /// Sessions a phone runs at once: 2, the fewest that hold the design's 8 other nodes in
    /// sessions of at most `maxPeers − 1` others each (see `maxNeighbours`).
    public var sessionsPerPhone = 2
    /// The most session peers a phone may have: min(`maxNeighbours`, `sessionsPerPhone` ·
    /// (`maxPeers` − 1)).
    public var neighbourLimit: Int { min(maxNeighbours, sessionsPerPhone * (maxPeers - 1)) }
    /// With one session per pair (`sessionLayout` `pairwise`, or instant or fixed sessions), the
    /// members of the largest Multipeer session of a phone with `peers` session peers, the
    /// phone included: its peers fill its sessions one after the other, at most `maxPeers − 1`
    /// others each, so the first holds min(`peers`, `maxPeers − 1`) + 1.
    public func largestSession(peers: Int) -> Int { min(peers, maxPeers - 1) + 1 }
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
    /// The lifetime of a Bonjour answer in a browser's cache: 120 s, RFC 6762 §10's TTL for
    /// records naming a host (the SRV record that resolves the peer). A browser asks again at
    /// 80, 85, 90 and 95 % of it (§5.2) and loses the peer (`lostPeer`) when no answer at the
    /// discovery threshold came by 100 %: a peer out of range is lost within one lifetime.
    /// `nil`: answers never expire, so a peer is lost only when it stops advertising (the
    /// earlier model).
    public var bonjourTtl: SimTime? = SimTime.seconds(120)
    /// How a phone's peers make up its sessions: groups, as `MCSession` connects every member
    /// to every other (Apple's documentation), or one session per pair (`"pairwise"`, the
    /// earlier model). Only with `sessionSetup` `multipeer`: instant sessions are pairs.
    public var sessionLayout = SessionLayout.group
    /// How sessions form: Multipeer's frames (default) or at once (`"instant"`, the earlier
    /// model; the mesh benchmarks pin it).
    public var sessionSetup = SessionSetup.multipeer
    /// Every phone's session encryption preference, unless `mesh.phones` gives its own:
    /// `required`, `MCSession(peer:)`'s default for apps linked on or after iOS 9 (Apple's
    /// documentation; `optional` gives the same encrypted sessions between two MAdHoc
    /// phones).
    public var encryption = SessionEncryption.required
    /// Connection flights are resent on DTLS's retransmission timer (RFC 6347 §4.2.4.1;
    /// `MultipeerSetup`). Off: a lost flight is recovered only by the 30 s set-up timeout (the
    /// model before it, kept as an ablation).
    public var handshakeRetransmission = true
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
    /// DTLS 1.2 record overhead on every frame of an encrypted session (`encryption` not
    /// `none`): the 13-byte record header (content type, version, epoch, 48-bit sequence number,
    /// length; RFC 6347 §4.1) plus AES-128-GCM's 8-byte explicit nonce and 16-byte tag (RFC 5288
    /// §3). The cipher suite is an assumption: Apple does not say which one Multipeer
    /// negotiates, and GCM is the one TLS 1.2 clients prefer. One record per frame.
    public static let dtlsRecordBytes = 37
    /// The record overhead this session's frames carry: `dtlsRecordBytes` when encrypted, else 0.
    public var recordBytes: Int { encryption == .none ? 0 : SessionConfig.dtlsRecordBytes }

    /// Defaults.
    public init() {}
}

/// What the session layer reads of a frame the routing above hands it (issue #28, item 3): the
/// frame itself stays the routing's, opaque here. The routing binds its frame type as
/// `RoutedPayload` (the mesh's `MeshFrame`, in `Mesh/MeshFrame.swift`), which must conform.
protocol RoutedFrame: Sendable {
    /// The node this copy is for on its hop, if it travels along a path (a copy heard by
    /// another session peer, with path-broadcast forwarding, is not for that peer).
    var addressee: Int? { get }
    /// Routing control traffic (counted apart from messages and their returns).
    var isControl: Bool { get }
    /// Whether it waits in its sender's session buffer when the transmit queue is full (a
    /// message or its return); flooded control frames are lost instead.
    var waitsForRoom: Bool { get }
    /// The message workload whose `reliable` setting it follows, if any.
    var reliableWorkload: Int? { get }
}

/// A frame of Multipeer's session layer (seed 003), as one phone hands it to a session peer
/// (or, for Bonjour, to every phone in range): the layer's own set-up frames and transfer
/// pieces, or a frame of the routing above (`RoutedPayload`). A value: the in-flight table keeps it
/// while the link carries the `LinkPacket` whose tag finds it again.
///
/// The routing's frame is a plain optional beside an enum of the layer's own frames, whose
/// numbers are stored in 32 bits: the in-flight table holds every frame on the air, and its
/// element's size is speed (with 64-bit numbers mesh-200 ran 5–8 % slower).
struct SessionFrame: Sendable {
    /// What the frame is.
    enum Own: Sendable {
        /// The routing's frame (`routed`).
        case routed
        /// Session set-up (`MultipeerSetup`): Bonjour, invitations, the DTLS handshake.
        case setup(SetupFrame)
        /// A piece of a stream or resource (`SessionTransfers`).
        case piece(TransferPiece)
    }

    /// The layer's own content, or `.routed`.
    var own: Own
    /// The routing's frame, when `own` is `.routed`.
    var routed: RoutedPayload?
    /// In reliable mode, the frame's number on its hop's session, from the transmitting phone
    /// to the next (`ReliableHops`); 0 otherwise.
    var hopSeq: UInt32 = 0

    /// The routing's frame `f`.
    init(routed f: RoutedPayload, hopSeq: UInt32 = 0) {
        (own, routed, self.hopSeq) = (.routed, f, hopSeq)
    }

    /// One of the layer's own.
    init(_ own: Own) {
        (self.own, routed) = (own, nil)
    }

    /// A set-up frame (sent between phones not yet in a session).
    var isSetup: Bool {
        if case .setup = own { return true }
        return false
    }

    /// The piece of a transfer, if this is one.
    var piece: TransferPiece? {
        if case .piece(let p) = own { return p }
        return nil
    }
}

/// A session set-up frame (`MultipeerSetup`). Its numbers are stored in 32 bits (phones and
/// set-up attempts fit; the in-flight table holds every frame on the air, so its size is speed).
struct SetupFrame: Sendable {
    enum Kind: UInt8, Sendable {
        /// Bonjour (RFC 6762): a browser's query and an advertiser's answer, multicast.
        case mdnsQuery, mdnsAnswer
        /// An invitation and its reply.
        case invitation, invitationReply
        /// A flight of the connection's handshake.
        case handshake
    }
    private let origin32: Int32, target32: Int32, attempt32: Int32, seq32: UInt32
    let kind: Kind

    /// A set-up frame of `kind` from `origin`; `seq` is the reply's answer (1 accept, 0 decline)
    /// or the handshake flight, `target` the phone it is for, `attempt` the set-up it belongs to.
    init(kind: Kind, origin: Int, seq: UInt64 = 0, target: Int = 0, attempt: Int = 0) {
        (self.kind, origin32, seq32) = (kind, Int32(origin), UInt32(seq))
        (target32, attempt32) = (Int32(target), Int32(attempt))
    }

    /// The sending phone.
    var origin: Int { Int(origin32) }
    /// The reply's answer, or the handshake flight.
    var seq: UInt64 { UInt64(seq32) }
    /// The phone it is for (invitations, replies, handshake flights).
    var target: Int { Int(target32) }
    /// The set-up attempt it belongs to.
    var attempt: Int { Int(attempt32) }
}

/// A piece of a Multipeer stream or resource (`SessionTransfers`) to the session peer `to`.
struct TransferPiece: Sendable {
    /// Its first byte's offset in the transfer.
    let offset: Int
    private let transfer32: Int32, length32: Int32, to32: Int32

    init(transfer: Int, offset: Int, length: Int, to: Int) {
        (self.offset, transfer32, length32, to32) = (offset, Int32(transfer), Int32(length), Int32(to))
    }

    /// The transfer (index into `SessionTransfers.list`).
    var transfer: Int { Int(transfer32) }
    /// The bytes it carries (at most a fragment's payload).
    var length: Int { Int(length32) }
    /// The session peer it is for.
    var to: Int { Int(to32) }
}

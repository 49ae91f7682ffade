/// What the session layer reads of a frame the routing above hands it (issue #28, item 3): the
/// frame itself stays the routing's, opaque here (the mesh's `MeshFrame` conforms in `Mesh/`).
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
/// pieces, or a frame of the routing above (`Routed`). A value: the in-flight table keeps it
/// while the link carries the `LinkPacket` whose tag finds it again.
struct SessionFrame<Routed: RoutedFrame>: Sendable {
    /// What the frame carries.
    enum Body: Sendable {
        /// Session set-up (`MultipeerSetup`): Bonjour, invitations, the DTLS handshake.
        case setup(SetupFrame)
        /// A piece of a stream or resource (`SessionTransfers`).
        case piece(TransferPiece)
        /// A frame of the routing above.
        case routed(Routed)
    }

    var body: Body
    /// In reliable mode, the frame's number on its hop's session, from the transmitting phone
    /// to the next (`ReliableHops`); 0 otherwise.
    var hopSeq: UInt32 = 0

    init(_ body: Body, hopSeq: UInt32 = 0) {
        self.body = body
        self.hopSeq = hopSeq
    }

    /// The routing's frame, if this is one.
    var routed: Routed? {
        if case .routed(let f) = body { return f }
        return nil
    }

    /// A set-up frame (sent between phones not yet in a session).
    var isSetup: Bool {
        if case .setup = body { return true }
        return false
    }

    /// The piece of a transfer, if this is one.
    var piece: TransferPiece? {
        if case .piece(let p) = body { return p }
        return nil
    }
}

/// A session set-up frame (`MultipeerSetup`).
struct SetupFrame: Sendable {
    enum Kind: UInt8, Sendable {
        /// Bonjour (RFC 6762): a browser's query and an advertiser's answer, multicast.
        case mdnsQuery, mdnsAnswer
        /// An invitation and its reply.
        case invitation, invitationReply
        /// A flight of the connection's handshake.
        case handshake
    }
    var kind: Kind
    /// The sending phone.
    var origin: Int
    /// The reply's answer (1 accept, 0 decline), or the handshake flight.
    var seq: UInt64 = 0
    /// The phone it is for (invitations, replies, handshake flights).
    var target: Int = 0
    /// The set-up attempt it belongs to.
    var attempt: Int = 0
}

/// A piece of a Multipeer stream or resource (`SessionTransfers`) to the session peer `to`.
struct TransferPiece: Sendable {
    /// The transfer (index into `SessionTransfers.list`).
    var transfer: Int
    /// Its first byte's offset in the transfer.
    var offset: Int
    /// The bytes it carries.
    var length: Int
    /// The session peer it is for.
    var to: Int
}

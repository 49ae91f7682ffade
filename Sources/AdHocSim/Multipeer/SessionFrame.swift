/// What the session layer reads of a frame the routing above hands it: the
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
/// Two parts, kept apart in the in-flight table (`SessionWire`): the routing's frame, and the
/// layer's own part (`Part`: which frame it is, its hop number, a set-up frame's or piece's
/// numbers), plain numbers that copy as bytes. Most arrivals are decided on the own part alone
/// (a phone not in the sender's session ignores the frame), so the routing's frame is copied
/// only when it goes up. Measured on mesh-200 (30 s, instructions counted with callgrind):
/// one struct holding an enum with payloads and the routing's frame cost 1.2 % more than the
/// routing's frame alone; Swift copied it through its value witnesses.
struct SessionFrame: Sendable {
    /// What the frame is.
    enum Own: Sendable {
        /// The routing's frame (`routed`).
        case routed
        /// Session set-up (`MultipeerSetup`): Bonjour, invitations, the DTLS handshake.
        case setup(SetupFrame)
        /// A piece of a stream or resource (`SessionTransfers`).
        case piece(TransferPiece)

        var isRouted: Bool {
            if case .routed = self { return true }
            return false
        }

        var isSetup: Bool {
            if case .setup = self { return true }
            return false
        }
    }

    /// The routing's frame, when `own` is `.routed`.
    var routed: RoutedPayload?
    /// The layer's own part.
    var part: Part

    /// The routing's frame `f`.
    init(routed f: RoutedPayload) {
        (routed, part) = (f, Part(.routed, waitsForRoom: f.waitsForRoom))
    }

    /// One of the layer's own (set-up frames and pieces).
    init(_ own: Own) {
        precondition(!own.isRouted, "a routed frame comes with the routing's frame")
        (routed, part) = (nil, Part(own, waitsForRoom: !own.isSetup))
    }

    /// The same frame numbered `seq` on its hop's session: it goes in reliable mode.
    func numbered(_ seq: UInt32) -> SessionFrame {
        SessionFrame(routed: routed, part: part.numbered(seq))
    }

    /// Both parts, as the in-flight table keeps them.
    init(routed: RoutedPayload?, part: Part) {
        (self.routed, self.part) = (routed, part)
    }

    /// The layer's own content, or `.routed`.
    var own: Own { part.own }
    /// In reliable mode, the frame's number on its hop's session (`Part.hopSeq`).
    var hopSeq: UInt32 { part.hopSeq }
    /// A set-up frame (sent between phones not yet in a session).
    var isSetup: Bool { part.isSetup }
    /// The piece of a transfer, if this is one.
    var piece: TransferPiece? { part.piece }

    /// The layer's own part of a frame, stored flat: which frame it is (`own` rebuilds it), its
    /// hop number, and its numbers (`SetupFrame`'s origin, target, attempt, answer and kind;
    /// `TransferPiece`'s transfer, length, peer and offset).
    struct Part: Sendable {
        /// In reliable mode, the frame's number on its hop's session, from the transmitting
        /// phone to the next (`ReliableHops`); 0 otherwise.
        private(set) var hopSeq: UInt32 = 0
        /// Whether it goes in reliable mode (`numbered`): every transfer piece, and the
        /// routing's messages and returns of a reliable workload (`SessionLayer.isReliable`,
        /// asked once, when the frame is sent); the layer reads this, not the rule, after.
        private(set) var isNumbered = false
        /// Whether it waits in its sender's session buffer when the transmit queue is full
        /// (`SessionWire.mustHold`): pieces, and the routing's frames that say so
        /// (`RoutedFrame.waitsForRoom`); set-up frames are lost instead.
        let waitsForRoom: Bool
        private let stored: Stored
        private let setupKind: UInt8
        private let n1: Int32, n2: Int32, n3: Int32, n4: UInt32
        private let offset: Int

        private enum Stored: UInt8 { case routed, setup, piece }

        init(_ own: Own, waitsForRoom: Bool) {
            self.waitsForRoom = waitsForRoom
            switch own {
            case .routed:
                (stored, setupKind, n1, n2, n3, n4, offset) = (.routed, 0, 0, 0, 0, 0, 0)
            case .setup(let s):
                (stored, setupKind) = (.setup, s.kind.rawValue)
                (n1, n2, n3, n4, offset) = (s.origin32, s.target32, s.attempt32, s.seq32, 0)
            case .piece(let p):
                (stored, setupKind) = (.piece, 0)
                (n1, n2, n3, n4, offset) = (p.transfer32, p.length32, p.to32, 0, p.offset)
            }
        }

        /// The layer's own content, or `.routed`.
        var own: Own {
            switch stored {
            case .routed: return .routed
            case .setup:
                // `setupKind` is written only from a `SetupFrame.Kind`.
                guard let kind = SetupFrame.Kind(rawValue: setupKind) else {
                    preconditionFailure("a set-up frame's kind")
                }
                return .setup(SetupFrame(kind: kind, origin32: n1, target32: n2, attempt32: n3, seq32: n4))
            case .piece: return .piece(TransferPiece(offset: offset, transfer32: n1, length32: n2, to32: n3))
            }
        }

        /// The same part, numbered `seq` on its hop's session (reliable mode).
        func numbered(_ seq: UInt32) -> Part {
            var p = self
            (p.hopSeq, p.isNumbered) = (seq, true)
            return p
        }

        /// A set-up frame.
        var isSetup: Bool { stored == .setup }

        /// The routing's frame's part.
        var isRouted: Bool { stored == .routed }

        /// The piece of a transfer, if this is one.
        var piece: TransferPiece? {
            stored == .piece ? TransferPiece(offset: offset, transfer32: n1, length32: n2, to32: n3) : nil
        }
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
        /// An inviter lists its session's other members to a newcomer (`SessionGroups`; the
        /// frame's `attempt` is the group).
        case members
    }
    fileprivate let origin32: Int32, target32: Int32, attempt32: Int32, seq32: UInt32
    let kind: Kind

    fileprivate init(kind: Kind, origin32: Int32, target32: Int32, attempt32: Int32, seq32: UInt32) {
        (self.kind, self.origin32, self.target32, self.attempt32, self.seq32) = (
            kind, origin32, target32, attempt32, seq32
        )
    }

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
    fileprivate let transfer32: Int32, length32: Int32, to32: Int32

    fileprivate init(offset: Int, transfer32: Int32, length32: Int32, to32: Int32) {
        (self.offset, self.transfer32, self.length32, self.to32) = (offset, transfer32, length32, to32)
    }

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

/// A frame of the mesh, as one node hands it to the session layer: a routing control frame
/// (heartbeat; classic DSR's route request, reply and error) or a message with its route
/// return. A value: the world carries it to the link as a `LinkPacket` whose tag finds it again.
struct MeshFrame: Sendable {
    enum Kind: UInt8, Sendable {
        case heartbeat, message, routeReturn, routeRequest, routeReply, routeError
        /// Multipeer session set-up (`MultipeerSetup`): Bonjour query and answer, invitation,
        /// its reply, and the connection frames.
        case mdnsQuery, mdnsAnswer, invitation, invitationReply, handshake
        /// A piece of a Multipeer stream or resource (`SessionTransfers`) to a session peer:
        /// `workload` is the transfer, `seq` the byte offset, `message` the bytes it carries.
        case sessionData
    }
    var kind: Kind
    var origin: Int
    var seq: UInt64
    /// Heartbeat and route request: origin first, the forwarder last. Message, route return,
    /// reply and error: the whole source route, sender first.
    var path: [Int]
    /// Source-routed frames: index in `path` of the node transmitting this copy.
    var hop: Int = 0
    var workload: Int = 0
    var message: Int = 0
    var attempt: Int = 0
    /// When the attempt this frame belongs to left its sender.
    var sentAt: SimTime = .zero
    /// A message longer than one frame's payload travels as `fragments` frames; this one is
    /// number `fragment` (`MeshConfig.fragmentPayload`).
    var fragment: Int32 = 0
    /// See `fragment`.
    var fragments: Int32 = 1
    /// A reliable message or route return: its number on this hop's session, from the
    /// transmitting node to the next (`SessionLayer.reliable`).
    var hopSeq: UInt32 = 0
    /// A message encrypted with the pair's path-derived key (`PathKeys.sealBytes` more).
    var sealed = false
    /// Route request: the node sought.
    var target: Int = 0
    /// Route error: the link that broke (from, to).
    var broken: (from: Int, to: Int) = (-1, -1)

    /// Sent hop by hop along `path` (everything but heartbeats and route requests, which flood).
    /// A session transfer's piece goes along its two-node path too.
    var isSourceRouted: Bool {
        switch kind {
        case .message, .routeReturn, .routeReply, .routeError, .sessionData: return true
        default: return false
        }
    }
    /// A session set-up frame (sent between phones not yet in a session).
    var isSessionSetup: Bool {
        kind.rawValue >= Kind.mdnsQuery.rawValue && kind.rawValue <= Kind.handshake.rawValue
    }
    /// Routing control traffic (counted apart from messages, their returns and session transfers).
    var isControl: Bool { kind != .message && kind != .routeReturn && kind != .sessionData }
}

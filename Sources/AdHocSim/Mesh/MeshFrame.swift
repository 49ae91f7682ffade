/// A frame of the mesh's routing, as one node hands it to its Multipeer session
/// (`SessionLayer.send`, `broadcast`): a routing control frame (heartbeat; classic DSR's route
/// request, reply and error) or a message with its route return. A value: the session layer
/// carries it (`SessionFrame.routed`) and reads it only through `RoutedFrame`.
struct MeshFrame: Sendable {
    enum Kind: UInt8, Sendable {
        case heartbeat, message, routeReturn, routeRequest, routeReply, routeError
    }
    var origin: Int
    var seq: UInt64
    /// Heartbeat and route request: origin first, the forwarder last. Message, route return,
    /// reply and error: the whole source route, sender first.
    var path: [Int]
    /// Source-routed frames: index in `path` of the node transmitting this copy.
    var hop: Int
    var workload: Int
    var message: Int
    var attempt: Int
    /// When the attempt this frame belongs to left its sender.
    var sentAt: SimTime
    /// A message longer than one frame's payload travels as `fragments` frames; this one is
    /// number `fragment` (`MeshConfig.fragmentPayload`).
    var fragment: Int32
    /// See `fragment`.
    var fragments: Int32
    /// A message encrypted with the pair's path-derived key (`PathKeys.sealBytes` more).
    var sealed: Bool
    var kind: Kind
    // Classic DSR's node ids in 32 bits, `kind` beside `sealed`: the session layer's in-flight
    // table holds every frame on the air, and this frame is most of its element (88 bytes,
    // against 112 with 64-bit ids and `kind` first).
    private var target32: Int32
    private var brokenFrom32: Int32, brokenTo32: Int32

    init(
        kind: Kind, origin: Int, seq: UInt64, path: [Int], hop: Int = 0, workload: Int = 0, message: Int = 0,
        attempt: Int = 0, sentAt: SimTime = .zero, fragment: Int32 = 0, fragments: Int32 = 1, sealed: Bool = false,
        target: Int = 0, broken: (from: Int, to: Int) = (-1, -1)
    ) {
        (self.kind, self.origin, self.seq, self.path, self.hop) = (kind, origin, seq, path, hop)
        (self.workload, self.message, self.attempt, self.sentAt) = (workload, message, attempt, sentAt)
        (self.fragment, self.fragments, self.sealed) = (fragment, fragments, sealed)
        target32 = Int32(target)
        (brokenFrom32, brokenTo32) = (Int32(broken.from), Int32(broken.to))
    }

    /// Route request: the node sought.
    var target: Int { Int(target32) }
    /// Route error: the link that broke (from, to).
    var broken: (from: Int, to: Int) { (Int(brokenFrom32), Int(brokenTo32)) }

    /// Sent hop by hop along `path` (everything but heartbeats and route requests, which flood).
    var isSourceRouted: Bool {
        switch kind {
        case .message, .routeReturn, .routeReply, .routeError: return true
        case .heartbeat, .routeRequest: return false
        }
    }
}

/// The routing's frame that Multipeer's session layer carries (`SessionFrame.routed`): the one
/// routing above it binds its frame type here, at compile time, so the session layer's code is
/// concrete (a generic session layer paid for its `Optional`s through value witnesses, mesh-200
/// 3–7 % slower) and still names no mesh type.
typealias RoutedPayload = MeshFrame

/// What the session layer reads of a mesh frame.
extension MeshFrame: RoutedFrame {
    /// The next node on the path, for a source-routed frame.
    var addressee: Int? { isSourceRouted ? path[hop + 1] : nil }
    /// Routing control traffic (counted apart from messages and their returns).
    var isControl: Bool { kind != .message && kind != .routeReturn }
    /// Messages and their returns wait in the session buffer for room; control frames do not.
    var waitsForRoom: Bool { kind == .message || kind == .routeReturn }
    /// A message or its return follows its workload's `reliable`.
    var reliableWorkload: Int? { kind == .message || kind == .routeReturn ? workload : nil }
}

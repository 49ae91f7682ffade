/// What an event means to the layer that scheduled it: a small integer the handler switches on.
///
/// The core reserves the top of the range for its own bookkeeping (`timerFiring`,
/// `closure`); layers declare their kinds as static constants in their own files
/// (for example `EventKind.holdModel`).
@frozen
public struct EventKind: RawRepresentable, Hashable, Sendable {
    /// The kind's number.
    public var rawValue: UInt16
    /// Wraps a raw kind number.
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// A layer's kind from its enum of kinds (`MeshEventKind`, `BleEventKind`, …).
    @inlinable init<K: RawRepresentable>(_ kind: K) where K.RawValue == UInt16 { self.rawValue = kind.rawValue }

    /// Core-internal: a `TimerID`'s firing; never delivered to handlers under this kind.
    public static let timerFiring = EventKind(rawValue: 0xFFFF)
    /// Core-internal: a closure scheduled with `Simulation.schedule(at:_:)`.
    public static let closure = EventKind(rawValue: 0xFFFE)
    /// Kinds at or above this value belong to the core.
    public static let firstReserved: UInt16 = 0xFF00

    /// The layer that owns this kind, from the block its number lies in (`EventBlock`).
    @inlinable public var block: EventBlock {
        switch rawValue {
        case 100..<200: return .link
        case 200..<210: return .linkTraffic
        case 210..<220: return .application
        case 220..<230: return .world
        case 230..<300: return .layer
        case 300..<400: return .transport
        default: return .unassigned
        }
    }
}

/// Blocks of event kinds, one per layer: a layer numbers its kinds inside its block and decodes
/// its own events, so the world routes an event by its block in a few lines and a new layer
/// takes a free block instead of adding cases to a central switch. The numbers are part of the
/// event-trajectory fingerprint: renumbering a kind changes every fingerprint.
public enum EventBlock: Sendable, Equatable {
    /// 100–199: the link technology (MAC, PHY, ideal link).
    case link
    /// 200–209: link-layer traffic generators.
    case linkTraffic
    /// 210–219: flow applications (thesis test, bulk, CBR).
    case application
    /// 220–229: the world itself (mobility sampling, scripted node events).
    case world
    /// 230–299: the optional layers above the link, each in the blocks it claims when it is
    /// registered (`Layers.eventBlocks`).
    case layer
    /// 300–399: transports (TCP, QUIC timers).
    case transport
    /// Any other number below the core's reserved range; also the core benchmark's kind.
    case unassigned
}

/// One pending event: a 32-byte value with no references, so the queue holds it inline.
///
/// Events are ordered by `(time, seq)`. `seq` is the queue's insertion counter, so events due at
/// the same nanosecond run in the order they were scheduled.
@frozen
public struct Event: Sendable {
    /// When the event is due.
    public var time: SimTime
    /// Insertion sequence number: the tie-breaker for equal times. Unique within a run.
    public var seq: UInt64
    /// Whom the event is for: a dense index the handler resolves (node, link, flow...).
    public var target: UInt32
    /// What the event means to its handler.
    public var kind: EventKind
    /// A free 64-bit argument (packet slot, generation number, counter...).
    public var arg: UInt64

    /// Creates an event; `seq` is normally assigned by the queue.
    @inlinable
    public init(time: SimTime, seq: UInt64, target: UInt32, kind: EventKind, arg: UInt64) {
        self.time = time
        self.seq = seq
        self.target = target
        self.kind = kind
        self.arg = arg
    }

    /// The total order of the queue: earlier time first, then earlier insertion.
    @inlinable @inline(__always)
    public func runsBefore(_ other: Event) -> Bool {
        time.nanoseconds < other.time.nanoseconds
            || (time.nanoseconds == other.time.nanoseconds && seq < other.seq)
    }
}

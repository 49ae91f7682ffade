/// What the simulation loop needs from a priority queue of events: insertion with a sequence
/// number, removal of the earliest event by `(time, seq)`, and a peek at its time.
///
/// `EventQueue` (the radix heap `Simulation` uses) and the `EventHeap` shapes kept for
/// comparison conform; the benchmark is generic over this protocol, so every structure runs
/// the same loop. Conformers are non-copyable value types that own their storage.
public protocol PendingEventQueue: ~Copyable {
    /// An empty queue with room for about `initialCapacity` events.
    init(initialCapacity: Int)
    /// The number of pending events.
    var count: Int { get }
    /// Takes the next insertion sequence number without scheduling anything.
    mutating func reserveSeq() -> UInt64
    /// Inserts an event that already carries its sequence number (from `reserveSeq`).
    mutating func insert(_ event: Event)
    /// Removes and returns the earliest pending event. - Precondition: not empty.
    mutating func pop() -> Event
    /// The earliest pending event's time, or `nil` when empty.
    mutating func nextTime() -> SimTime?
}

extension PendingEventQueue where Self: ~Copyable {
    /// Whether no event is pending.
    @inlinable public var isEmpty: Bool { count == 0 }

    /// Schedules an event under the next sequence number, which is returned.
    @inlinable @inline(__always) @discardableResult
    public mutating func push(time: SimTime, target: UInt32, kind: EventKind, arg: UInt64) -> UInt64 {
        let seq = reserveSeq()
        insert(Event(time: time, seq: seq, target: target, kind: kind, arg: arg))
        return seq
    }
}

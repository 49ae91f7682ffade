/// The shape of an `EventHeap`: how many children each node has, and whether a pop leaves a
/// hole at the root for the next push to fill (see `EventHeap`).
public protocol HeapShape {
    /// Children per node (2 = binary heap, 4 = quaternary heap, ...).
    static var arity: Int { get }
    /// Whether `pop` defers re-heaping until the next push or peek.
    static var lazyRoot: Bool { get }
    /// A short name for benchmarks.
    static var name: String { get }
}

/// Binary heap, re-heaped at every pop (the textbook structure; ns-3's `BinaryHeap`-style).
public enum BinaryEager: HeapShape {
    public static var arity: Int { 2 }
    public static var lazyRoot: Bool { false }
    public static var name: String { "binary" }
}
/// Binary heap with a lazy root hole.
public enum BinaryLazy: HeapShape {
    public static var arity: Int { 2 }
    public static var lazyRoot: Bool { true }
    public static var name: String { "binary-lazy" }
}
/// Quaternary heap, re-heaped at every pop.
public enum QuaternaryEager: HeapShape {
    public static var arity: Int { 4 }
    public static var lazyRoot: Bool { false }
    public static var name: String { "4ary" }
}
/// Quaternary heap with a lazy root hole (the layout `EventQueue` refines).
public enum QuaternaryLazy: HeapShape {
    public static var arity: Int { 4 }
    public static var lazyRoot: Bool { true }
    public static var name: String { "4ary-lazy" }
}
/// Eight-ary heap with a lazy root hole.
public enum OctonaryLazy: HeapShape {
    public static var arity: Int { 8 }
    public static var lazyRoot: Bool { true }
    public static var name: String { "8ary-lazy" }
}

/// The queue of pending events of one simulation: a d-ary min-heap of inline `Event` values
/// ordered by `(time, seq)`.
///
/// Storage is one manually managed buffer (the type is non-copyable, so there is no
/// copy-on-write check and no reference counting per operation). The buffer doubles when full
/// and never shrinks during a run: steady-state scheduling allocates nothing.
///
/// With `lazyRoot`, `pop` removes the minimum but leaves its slot empty; a following `push`
/// drops the new event into the hole and sifts it down once, instead of the usual sift-down
/// (to fill the hole) plus sift-up (to place the new event). In a discrete-event simulation
/// almost every executed event schedules another, so this halves the heap work per event.
/// Because `(time, seq)` is a total order, the pop order is the same for every shape.
public struct EventHeap<Shape: HeapShape>: PendingEventQueue, ~Copyable {
    @usableFromInline var storage: UnsafeMutablePointer<Event>
    @usableFromInline var capacity: Int
    /// Occupied slots, including the root hole when `hole` is set.
    @usableFromInline var slots: Int
    /// The root slot is empty (a lazy pop happened and no push or peek has filled it yet).
    @usableFromInline var hole: Bool
    /// The next insertion sequence number.
    public var nextSeq: UInt64 { _nextSeq }
    @usableFromInline var _nextSeq: UInt64

    /// Creates an empty queue with room for `initialCapacity` events before it first grows.
    public init(initialCapacity: Int) {
        capacity = Swift.max(16, initialCapacity)
        storage = .allocate(capacity: capacity)
        slots = 0
        hole = false
        _nextSeq = 0
    }

    deinit { storage.deallocate() }

    /// The number of pending events.
    @inlinable public var count: Int { hole ? slots - 1 : slots }

    /// Takes the next insertion sequence number without scheduling anything (timers reserve
    /// their place in the tie order when armed; see `Simulation.arm`).
    @inlinable @inline(__always)
    public mutating func reserveSeq() -> UInt64 {
        let s = _nextSeq
        _nextSeq &+= 1
        return s
    }

    /// Inserts an event that already carries its sequence number.
    @inlinable @inline(__always)
    public mutating func insert(_ event: Event) {
        if Shape.lazyRoot && hole {
            hole = false
            siftDown(event, from: 0)
            return
        }
        if slots == capacity { grow() }
        siftUp(event, from: slots)
        slots &+= 1
    }

    /// The earliest pending event's time, or `nil` when empty.
    @inlinable
    public mutating func nextTime() -> SimTime? {
        fillHole()
        return slots == 0 ? nil : storage[0].time
    }

    /// Removes and returns the earliest pending event.
    /// - Precondition: the queue is not empty.
    @inlinable @inline(__always)
    public mutating func pop() -> Event {
        fillHole()
        precondition(slots > 0, "pop from an empty event queue")
        let top = storage[0]
        if Shape.lazyRoot {
            hole = true
        } else {
            slots &-= 1
            if slots > 0 { siftDown(storage[slots], from: 0) }
        }
        return top
    }

    /// Removes every pending event (capacity is kept).
    public mutating func removeAll() {
        slots = 0
        hole = false
    }

    @inlinable @inline(__always)
    mutating func fillHole() {
        guard Shape.lazyRoot && hole else { return }
        hole = false
        slots &-= 1
        if slots > 0 { siftDown(storage[slots], from: 0) }
    }

    @usableFromInline
    mutating func grow() {
        let newCapacity = capacity * 2
        let newStorage = UnsafeMutablePointer<Event>.allocate(capacity: newCapacity)
        newStorage.moveInitialize(from: storage, count: slots)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Moves `event` up from the empty slot `index` to its place.
    @inlinable @inline(__always)
    mutating func siftUp(_ event: Event, from index: Int) {
        var i = index
        while i > 0 {
            let parent = (i &- 1) / Shape.arity
            let p = storage[parent]
            guard event.runsBefore(p) else { break }
            storage[i] = p
            i = parent
        }
        storage[i] = event
    }

    /// Moves `event` down from the empty slot `index` to its place among `slots` entries.
    ///
    /// Only the ordering keys of the children are read while choosing the smallest; the whole
    /// 32-byte entry is copied once per level.
    @inlinable @inline(__always)
    mutating func siftDown(_ event: Event, from index: Int) {
        let p = storage
        let n = slots
        let eventTime = event.time.nanoseconds
        let eventSeq = event.seq
        var i = index
        while true {
            let first = i &* Shape.arity &+ 1
            if first >= n { break }
            var best = first
            var bestTime = p[first].time.nanoseconds
            var bestSeq = p[first].seq
            if first &+ Shape.arity <= n {
                // A full family: a fixed trip count the compiler unrolls into selects.
                for k in 1..<Shape.arity {
                    let c = first &+ k
                    let t = p[c].time.nanoseconds
                    let s = p[c].seq
                    let less = t < bestTime || (t == bestTime && s < bestSeq)
                    best = less ? c : best
                    bestTime = less ? t : bestTime
                    bestSeq = less ? s : bestSeq
                }
            } else {
                var c = first &+ 1
                while c < n {
                    let t = p[c].time.nanoseconds
                    let s = p[c].seq
                    if t < bestTime || (t == bestTime && s < bestSeq) {
                        best = c
                        bestTime = t
                        bestSeq = s
                    }
                    c &+= 1
                }
            }
            guard bestTime < eventTime || (bestTime == eventTime && bestSeq < eventSeq) else { break }
            p[i] = p[best]
            i = best
        }
        p[i] = event
    }
}

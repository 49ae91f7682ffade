/// The queue of pending events of one simulation: a radix heap over event times (Ahuja,
/// Mehlhorn, Orlin & Tarjan, "Faster algorithms for the shortest path problem", JACM 1990),
/// with buckets stored as chains of fixed-size chunks.
///
/// **Why a radix heap.** A simulation never schedules into the past, so every time inserted is
/// ≥ `last`, the time of the last event popped: a monotone priority queue. Bucket `b` holds the
/// events whose time first differs from `last` in bit `b − 1` (bucket 0: time == last).
/// Inserting is O(1): one XOR, one leading-zero count, one append. When bucket 0 runs dry, the
/// lowest non-empty bucket is scanned for its minimum, which becomes `last`, and its events are
/// redistributed into lower buckets; an event moves down at most 63 times in its life, in
/// practice a handful. BENCHMARKS.md compares it with binary, 4-ary and 8-ary heaps.
///
/// **Tie order.** Buckets are FIFO. An append always carries the newest sequence number, and a
/// bucket is refilled by redistribution only while it is empty, from a bucket that is itself in
/// sequence order; so every bucket stays sorted by sequence number, and since equal times
/// always share a bucket, events due at the same nanosecond leave in the order they were
/// scheduled. The pop order is exactly the `(time, seq)` order of a heap.
///
/// **Storage.** Events live inline (32 bytes, no references) in chunks of `chunkSize` from one
/// pool; scans and redistribution walk memory sequentially. Free chunks are recycled through a
/// free list; the pool doubles when full and never shrinks during a run, so steady-state
/// scheduling allocates nothing. Memory is 32 bytes per pending event plus at most one partly
/// filled chunk per bucket. The type is non-copyable: no copy-on-write check, no reference
/// counting per operation.
public struct EventQueue: ~Copyable {
    @usableFromInline
    struct Node {
        @usableFromInline var time: Int64
        /// Sequence number (high 48 bits) and event kind (low 16 bits).
        @usableFromInline var seqKind: UInt64
        @usableFromInline var arg: UInt64
        @usableFromInline var target: UInt32
        @inlinable init(time: Int64, seqKind: UInt64, arg: UInt64, target: UInt32) {
            self.time = time
            self.seqKind = seqKind
            self.arg = arg
            self.target = target
        }
    }

    /// One bucket: a chain of chunks. Entries are read from `headPos` in the head chunk and
    /// appended at `tailFill` in the tail chunk.
    @usableFromInline
    struct Bucket {
        @usableFromInline var headChunk: Int32 = -1
        @usableFromInline var tailChunk: Int32 = -1
        @usableFromInline var headPos: Int32 = 0
        @usableFromInline var tailFill: Int32 = 0
        @inlinable init() {}
    }

    /// Events per chunk (64 × 32 bytes = 2 KiB).
    @usableFromInline static let chunkSize = 64
    @usableFromInline static let chunkShift = 6
    /// The most events a run can schedule in total: 2^48 (about 2.8 × 10^14).
    public static let maxScheduled: UInt64 = 1 << 48

    @usableFromInline var nodes: UnsafeMutablePointer<Node>
    /// `chunkNext[c]`: the chunk after `c` in its bucket or on the free list, or −1.
    @usableFromInline var chunkNext: UnsafeMutablePointer<Int32>
    @usableFromInline var chunkCapacity: Int
    @usableFromInline var chunksUsed: Int
    @usableFromInline var freeChunk: Int32
    @usableFromInline var buckets: UnsafeMutablePointer<Bucket>
    /// Bit `b` set when bucket `b` is non-empty.
    @usableFromInline var occupied: UInt64
    @usableFromInline var last: Int64
    @usableFromInline var _count: Int
    @usableFromInline var _nextSeq: UInt64

    /// Creates an empty queue with room for about `initialCapacity` events before it first grows.
    public init(initialCapacity: Int = 1024) {
        chunkCapacity = Swift.max(128, (Swift.max(0, initialCapacity) >> EventQueue.chunkShift) + 72)
        nodes = .allocate(capacity: chunkCapacity << EventQueue.chunkShift)
        chunkNext = .allocate(capacity: chunkCapacity)
        chunksUsed = 0
        freeChunk = -1
        buckets = .allocate(capacity: 64)
        buckets.initialize(repeating: Bucket(), count: 64)
        occupied = 0
        last = 0
        _count = 0
        _nextSeq = 0
    }

    deinit {
        nodes.deallocate()
        chunkNext.deallocate()
        buckets.deallocate()
    }

    /// The number of pending events.
    @inlinable public var count: Int { _count }
    /// Whether no event is pending.
    @inlinable public var isEmpty: Bool { _count == 0 }
    /// The next insertion sequence number.
    @inlinable public var nextSeq: UInt64 { _nextSeq }
    /// Bytes of event storage currently reserved (for memory reports).
    public var reservedBytes: Int { chunkCapacity * (EventQueue.chunkSize * MemoryLayout<Node>.stride + 4) }

    /// Takes the next insertion sequence number without scheduling anything (timers reserve
    /// their place in the tie order when armed; see `Simulation.arm`).
    @inlinable @inline(__always)
    public mutating func reserveSeq() -> UInt64 {
        let s = _nextSeq
        precondition(s < EventQueue.maxScheduled, "more than 2^48 events scheduled in one run")
        _nextSeq = s &+ 1
        return s
    }

    /// Schedules an event; it gets the next sequence number, which is returned.
    @inlinable @inline(__always) @discardableResult
    public mutating func push(time: SimTime, target: UInt32, kind: EventKind, arg: UInt64) -> UInt64 {
        let seq = reserveSeq()
        insert(Event(time: time, seq: seq, target: target, kind: kind, arg: arg))
        return seq
    }

    /// Inserts an event that already carries its sequence number (from `reserveSeq`).
    /// - Precondition: `event.time` is not before the last event popped, and `event.seq` is
    ///   larger than every sequence number inserted into the same bucket before (both hold for
    ///   `Simulation`, which only schedules at or after `now` with fresh or reserved numbers).
    @inlinable @inline(__always)
    public mutating func insert(_ event: Event) {
        precondition(event.time.nanoseconds >= last, "event inserted before the last popped time")
        append(Node(time: event.time.nanoseconds, seqKind: (event.seq << 16) | UInt64(event.kind.rawValue),
                    arg: event.arg, target: event.target),
               to: EventQueue.bucket(event.time.nanoseconds, last))
        _count &+= 1
    }

    @inlinable @inline(__always)
    static func bucket(_ time: Int64, _ last: Int64) -> Int {
        64 &- UInt64(bitPattern: time ^ last).leadingZeroBitCount
    }

    @inlinable @inline(__always)
    mutating func append(_ node: Node, to b: Int) {
        var bucket = buckets[b]
        if bucket.tailChunk < 0 || bucket.tailFill == Int32(EventQueue.chunkSize) {
            let chunk = takeChunk()
            if bucket.tailChunk < 0 {
                bucket.headChunk = chunk
                bucket.headPos = 0
                occupied |= 1 << UInt64(b)
            } else {
                chunkNext[Int(bucket.tailChunk)] = chunk
            }
            bucket.tailChunk = chunk
            bucket.tailFill = 0
        }
        nodes[(Int(bucket.tailChunk) << EventQueue.chunkShift) &+ Int(bucket.tailFill)] = node
        bucket.tailFill &+= 1
        buckets[b] = bucket
    }

    @inlinable @inline(__always)
    mutating func takeChunk() -> Int32 {
        let chunk: Int32
        if freeChunk >= 0 {
            chunk = freeChunk
            freeChunk = chunkNext[Int(chunk)]
        } else {
            if chunksUsed == chunkCapacity { grow() }
            chunk = Int32(truncatingIfNeeded: chunksUsed)
            chunksUsed &+= 1
        }
        chunkNext[Int(chunk)] = -1
        return chunk
    }

    @inlinable @inline(__always)
    mutating func releaseChunk(_ chunk: Int32) {
        chunkNext[Int(chunk)] = freeChunk
        freeChunk = chunk
    }

    /// The earliest pending event's time, or `nil` when empty.
    @inlinable @inline(__always)
    public mutating func nextTime() -> SimTime? {
        if _count == 0 { return nil }
        if occupied & 1 == 0 { refillBucketZero() }
        return SimTime(nanoseconds: last)
    }

    /// Removes and returns the earliest pending event.
    /// - Precondition: the queue is not empty.
    @inlinable @inline(__always)
    public mutating func pop() -> Event {
        precondition(_count > 0, "pop from an empty event queue")
        if occupied & 1 == 0 { refillBucketZero() }
        var bucket = buckets[0]
        let node = nodes[(Int(bucket.headChunk) << EventQueue.chunkShift) &+ Int(bucket.headPos)]
        bucket.headPos &+= 1
        if bucket.headChunk == bucket.tailChunk {
            if bucket.headPos == bucket.tailFill {
                releaseChunk(bucket.headChunk)
                bucket = Bucket()
                occupied &= ~1
            }
        } else if bucket.headPos == Int32(EventQueue.chunkSize) {
            let next = chunkNext[Int(bucket.headChunk)]
            releaseChunk(bucket.headChunk)
            bucket.headChunk = next
            bucket.headPos = 0
        }
        buckets[0] = bucket
        _count &-= 1
        return Event(time: SimTime(nanoseconds: node.time), seq: node.seqKind >> 16, target: node.target,
                     kind: EventKind(rawValue: UInt16(truncatingIfNeeded: node.seqKind)), arg: node.arg)
    }

    /// Moves the lowest non-empty bucket's events down; its minimum time becomes `last`.
    @usableFromInline
    mutating func refillBucketZero() {
        let b = occupied.trailingZeroBitCount
        let source = buckets[b]
        buckets[b] = Bucket()
        occupied &= ~(1 << UInt64(b))
        // Pass 1: the minimum time of the bucket.
        var minTime = Int64.max
        var chunk = source.headChunk
        var start = Int(source.headPos)
        while chunk >= 0 {
            let end = chunk == source.tailChunk ? Int(source.tailFill) : EventQueue.chunkSize
            let base = nodes + (Int(chunk) << EventQueue.chunkShift)
            for i in start..<end {
                let t = base[i].time
                minTime = t < minTime ? t : minTime
            }
            chunk = chunkNext[Int(chunk)]
            start = 0
        }
        last = minTime
        // Pass 2: redistribute in order, recycling each chunk once it is read.
        chunk = source.headChunk
        start = Int(source.headPos)
        while chunk >= 0 {
            let end = chunk == source.tailChunk ? Int(source.tailFill) : EventQueue.chunkSize
            let next = chunkNext[Int(chunk)]
            let base = Int(chunk) << EventQueue.chunkShift
            for i in start..<end {
                let node = nodes[base &+ i]
                append(node, to: EventQueue.bucket(node.time, minTime))
            }
            releaseChunk(chunk)
            chunk = next
            start = 0
        }
    }

    @usableFromInline
    mutating func grow() {
        let newCapacity = chunkCapacity * 2
        precondition(newCapacity < Int(Int32.max), "too many pending events")
        let newNodes = UnsafeMutablePointer<Node>.allocate(capacity: newCapacity << EventQueue.chunkShift)
        newNodes.moveInitialize(from: nodes, count: chunksUsed << EventQueue.chunkShift)
        nodes.deallocate()
        nodes = newNodes
        let newNext = UnsafeMutablePointer<Int32>.allocate(capacity: newCapacity)
        newNext.moveInitialize(from: chunkNext, count: chunksUsed)
        chunkNext.deallocate()
        chunkNext = newNext
        chunkCapacity = newCapacity
    }
}

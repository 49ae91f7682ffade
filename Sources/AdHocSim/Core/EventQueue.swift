/// The queue of pending events of one simulation: a radix heap over event times with 64-way
/// digits (Ahuja, Mehlhorn, Orlin & Tarjan, "Faster algorithms for the shortest path problem",
/// JACM 1990), its buckets stored as chains of fixed-size chunks.
///
/// **Why a radix heap.** A simulation never schedules into the past, so every time inserted is
/// ≥ `last`, the time of the last event popped: a monotone priority queue. An event whose time
/// equals `last` sits in the *due* bucket. Any other event's time first differs from `last` in
/// some bit; that bit's 6-bit group is the event's *level* (0...10), and the event's 6-bit digit
/// at that level picks one of 64 buckets of the level. Inserting is O(1): an XOR, a leading-zero
/// count, a shift and an append. When the due bucket runs dry, the lowest non-empty bucket (lowest
/// level, then lowest digit) holds the earliest events; its minimum (kept up to date on append)
/// becomes `last` and its events move to lower levels or the due bucket. An event moves down at
/// most 11 times in its life, in practice two to four. docs/decisions/2026-11-22-event-queue.md compares it with binary,
/// 4-ary and 8-ary heaps and with a one-bit-digit radix heap.
///
/// **Tie order.** Buckets are FIFO. An append almost always carries the newest sequence number
/// (the exception, a re-queued timer, is inserted in place by `insertBehindEqualSeqs`), and a
/// bucket is refilled by redistribution only while it is empty (redistribution only moves events
/// to levels below the lowest occupied one), from a bucket that is itself in sequence order; so
/// every bucket stays sorted by sequence number, and since equal times always share a bucket, events due at the same nanosecond leave in the order they were
/// scheduled. The pop order is exactly the `(time, seq)` order of a heap.
///
/// **Storage.** Events live inline (32 bytes, no references) in chunks of `chunkSize` from one
/// pool; scans and redistribution walk memory sequentially. Free chunks are recycled through a
/// free list; the pool doubles when full and never shrinks during a run, so steady-state
/// scheduling allocates nothing. Memory is 32 bytes per pending event plus at most one partly
/// filled chunk per bucket. The type is non-copyable: no copy-on-write check, no reference
/// counting per operation.
public struct EventQueue: PendingEventQueue, ~Copyable {
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
        /// The earliest time in the bucket.
        @usableFromInline var minTime: Int64 = .max
        /// The largest sequence number appended since the bucket was last empty.
        @usableFromInline var maxSeq: UInt64 = 0
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
    /// Bits per digit: 64 buckets per level.
    @usableFromInline static let digitBits = 6
    /// Levels needed to cover 63-bit times.
    @usableFromInline static let levels = 11
    /// Buckets `64·level + digit` for levels 0...10, then the due bucket at `dueBucket`.
    @usableFromInline var buckets: UnsafeMutablePointer<Bucket>
    @usableFromInline static let dueBucket = levels << digitBits
    /// Bit `level` set when some bucket of that level is non-empty.
    @usableFromInline var occupiedLevels: UInt16
    /// Per level, bit `digit` set when that bucket is non-empty.
    @usableFromInline var occupiedDigits: UnsafeMutablePointer<UInt64>
    /// Whether the due bucket is non-empty.
    @usableFromInline var dueOccupied: Bool
    @usableFromInline var last: Int64
    @usableFromInline var _count: Int
    @usableFromInline var _nextSeq: UInt64

    /// Creates an empty queue with room for about `initialCapacity` events before it first grows.
    public init(initialCapacity: Int) {
        // Enough for `initialCapacity` events in full chunks plus, transiently, two partly
        // filled chunks per bucket (one being drained while another fills during redistribution).
        let full = (Swift.max(0, initialCapacity) + EventQueue.chunkSize - 1) >> EventQueue.chunkShift
        chunkCapacity = Swift.max(64, full + 2 * (EventQueue.dueBucket + 1))
        nodes = .allocate(capacity: chunkCapacity << EventQueue.chunkShift)
        chunkNext = .allocate(capacity: chunkCapacity)
        chunksUsed = 0
        freeChunk = -1
        buckets = .allocate(capacity: EventQueue.dueBucket + 1)
        buckets.initialize(repeating: Bucket(), count: EventQueue.dueBucket + 1)
        occupiedLevels = 0
        occupiedDigits = .allocate(capacity: EventQueue.levels)
        occupiedDigits.initialize(repeating: 0, count: EventQueue.levels)
        dueOccupied = false
        last = 0
        _count = 0
        _nextSeq = 0
    }

    deinit {
        nodes.deallocate()
        chunkNext.deallocate()
        buckets.deallocate()
        occupiedDigits.deallocate()
    }

    /// The number of pending events.
    @inlinable public var count: Int { _count }
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

    /// Inserts an event that already carries its sequence number (from `reserveSeq`).
    /// - Precondition: `event.time` is not before the last event popped, and `event.seq` is
    ///   unique (it came from `reserveSeq`). An older number than some already queued is fine:
    ///   the event still leaves before every event of the same time with a newer number.
    @inlinable @inline(__always)
    public mutating func insert(_ event: Event) {
        precondition(event.time.nanoseconds >= last, "event inserted before the last popped time")
        let node = Node(
            time: event.time.nanoseconds, seqKind: (event.seq << 16) | UInt64(event.kind.rawValue),
            arg: event.arg, target: event.target)
        let b = EventQueue.bucket(event.time.nanoseconds, last)
        if event.seq < buckets[b].maxSeq && buckets[b].tailChunk >= 0 {
            insertBehindEqualSeqs(node, into: b)
        } else {
            append(node, to: b)
        }
        _count &+= 1
    }

    /// The bucket of an event at `time` when the last popped time is `last`.
    @inlinable @inline(__always)
    static func bucket(_ time: Int64, _ last: Int64) -> Int {
        let x = UInt64(bitPattern: time ^ last)
        if x == 0 { return dueBucket }
        let level = (63 &- x.leadingZeroBitCount) / digitBits
        let digit = Int(truncatingIfNeeded: UInt64(bitPattern: time) >> UInt64(level &* digitBits)) & 63
        return (level << digitBits) | digit
    }

    @inlinable @inline(__always)
    mutating func markOccupied(_ b: Int) {
        if b == EventQueue.dueBucket {
            dueOccupied = true
        } else {
            occupiedLevels |= 1 << UInt16(b >> EventQueue.digitBits)
            occupiedDigits[b >> EventQueue.digitBits] |= 1 << UInt64(b & 63)
        }
    }

    @inlinable @inline(__always)
    mutating func append(_ node: Node, to b: Int) {
        var bucket = buckets[b]
        if bucket.tailChunk < 0 || bucket.tailFill == Int32(EventQueue.chunkSize) {
            let chunk = takeChunk()
            if bucket.tailChunk < 0 {
                bucket.headChunk = chunk
                bucket.headPos = 0
                markOccupied(b)
            } else {
                chunkNext[Int(bucket.tailChunk)] = chunk
            }
            bucket.tailChunk = chunk
            bucket.tailFill = 0
        }
        nodes[(Int(bucket.tailChunk) << EventQueue.chunkShift) &+ Int(bucket.tailFill)] = node
        bucket.tailFill &+= 1
        bucket.minTime = node.time < bucket.minTime ? node.time : bucket.minTime
        let seq = node.seqKind >> 16
        bucket.maxSeq = seq > bucket.maxSeq ? seq : bucket.maxSeq
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

    /// The earliest pending event's time, or `nil` when empty. Cheap: the lowest non-empty
    /// bucket keeps its minimum, so nothing moves.
    @inlinable @inline(__always)
    public mutating func nextTime() -> SimTime? {
        if _count == 0 { return nil }
        if dueOccupied { return SimTime(nanoseconds: last) }
        return SimTime(nanoseconds: buckets[lowestBucket()].minTime)
    }

    /// The lowest non-empty level-and-digit bucket. - Precondition: one exists.
    @inlinable @inline(__always)
    func lowestBucket() -> Int {
        let level = occupiedLevels.trailingZeroBitCount
        let digit = occupiedDigits[level].trailingZeroBitCount
        return (level << EventQueue.digitBits) | digit
    }

    /// Removes and returns the earliest pending event.
    /// - Precondition: the queue is not empty.
    @inlinable @inline(__always)
    public mutating func pop() -> Event {
        precondition(_count > 0, "pop from an empty event queue")
        _count &-= 1
        if !dueOccupied {
            let b = lowestBucket()
            let bucket = buckets[b]
            if bucket.headChunk == bucket.tailChunk && bucket.tailFill &- bucket.headPos == 1 {
                // The earliest bucket holds a single event: hand it out directly.
                let node = nodes[(Int(bucket.headChunk) << EventQueue.chunkShift) &+ Int(bucket.headPos)]
                releaseChunk(bucket.headChunk)
                clearBucket(b)
                last = node.time
                return EventQueue.event(node)
            }
            redistribute(b)
        }
        var bucket = buckets[EventQueue.dueBucket]
        let node = nodes[(Int(bucket.headChunk) << EventQueue.chunkShift) &+ Int(bucket.headPos)]
        bucket.headPos &+= 1
        if bucket.headChunk == bucket.tailChunk {
            if bucket.headPos == bucket.tailFill {
                releaseChunk(bucket.headChunk)
                bucket = Bucket()
                dueOccupied = false
            }
        } else if bucket.headPos == Int32(EventQueue.chunkSize) {
            let next = chunkNext[Int(bucket.headChunk)]
            releaseChunk(bucket.headChunk)
            bucket.headChunk = next
            bucket.headPos = 0
        }
        buckets[EventQueue.dueBucket] = bucket
        return EventQueue.event(node)
    }

    @inlinable @inline(__always)
    static func event(_ node: Node) -> Event {
        Event(
            time: SimTime(nanoseconds: node.time), seq: node.seqKind >> 16, target: node.target,
            kind: EventKind(rawValue: UInt16(truncatingIfNeeded: node.seqKind)), arg: node.arg)
    }

    /// Empties level-and-digit bucket `b` (its chunks already released or being recycled).
    @inlinable @inline(__always)
    mutating func clearBucket(_ b: Int) {
        buckets[b] = Bucket()
        let level = b >> EventQueue.digitBits
        occupiedDigits[level] &= ~(1 << UInt64(b & 63))
        if occupiedDigits[level] == 0 { occupiedLevels &= ~(1 << UInt16(level)) }
    }

    /// Moves bucket `b`'s events down to lower levels; its minimum time becomes `last`, and the
    /// events at that time land in the due bucket.
    @usableFromInline
    mutating func redistribute(_ b: Int) {
        let source = buckets[b]
        clearBucket(b)
        let minTime = source.minTime
        last = minTime
        var chunk = source.headChunk
        var start = Int(source.headPos)
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

    /// The rare insertion of an event whose sequence number is older than some already in its
    /// bucket (a timer re-queued under the number it reserved when armed; see
    /// `Simulation.arm`). Only the order among equal times matters, so the node goes just before
    /// the first node with the same time and a newer number, or at the end if there is none.
    /// The bucket is rebuilt; this costs O(bucket size) and happens only on that path.
    @usableFromInline
    mutating func insertBehindEqualSeqs(_ node: Node, into b: Int) {
        let seq = node.seqKind >> 16
        var contents: [Node] = []
        var chunk = buckets[b].headChunk
        var start = Int(buckets[b].headPos)
        let tailChunk = buckets[b].tailChunk, tailFill = Int(buckets[b].tailFill)
        while chunk >= 0 {
            let end = chunk == tailChunk ? tailFill : EventQueue.chunkSize
            let base = Int(chunk) << EventQueue.chunkShift
            for i in start..<end { contents.append(nodes[base &+ i]) }
            let next = chunkNext[Int(chunk)]
            releaseChunk(chunk)
            chunk = next
            start = 0
        }
        let at = contents.firstIndex { $0.time == node.time && ($0.seqKind >> 16) > seq } ?? contents.count
        contents.insert(node, at: at)
        buckets[b] = Bucket()
        for n in contents { append(n, to: b) }
    }

    @usableFromInline
    mutating func grow() {
        let newCapacity = chunkCapacity + chunkCapacity / 2  // ×1.5: less slack than doubling
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

/// A bounded FIFO of packets (a ring buffer that never reallocates after creation).
public struct TransmitQueue: Sendable {
    /// One queued packet and its MAC bookkeeping.
    public struct Entry: Sendable, Equatable {
        /// The packet.
        public var packet: LinkPacket
        /// Transmission attempts so far.
        public var attempts: UInt8
        /// Whether the receiver already has it (a retransmission is then a duplicate).
        public var arrived = false
        /// Sequence number among this sender's MPDUs to the same receiver (for the receiver's
        /// reordering buffer).
        public var macSeq: UInt64 = 0
    }

    private var ring: [Entry]
    private var head = 0
    /// Packets queued.
    public private(set) var count = 0
    /// The most packets it holds.
    public let limit: Int

    /// An empty queue holding at most `limit` packets.
    public init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
        ring = []
    }

    /// Whether nothing is queued.
    public var isEmpty: Bool { count == 0 }

    /// Appends; `false` when full. Storage grows by doubling up to `limit`, then is reused.
    public mutating func append(_ packet: LinkPacket, macSeq: UInt64 = 0) -> Bool {
        guard count < limit else { return false }
        if count == ring.count { grow() }
        ring[slot(count)] = Entry(packet: packet, attempts: 0, arrived: false, macSeq: macSeq)
        count += 1
        return true
    }

    private mutating func grow() {
        let capacity = Swift.min(limit, Swift.max(4, ring.count * 2))
        var ordered: [Entry] = []
        ordered.reserveCapacity(capacity)
        for i in 0..<count { ordered.append(ring[(head + i) % ring.count]) }
        let filler = Entry(
            packet: LinkPacket(source: 0, destination: 0, bytes: 0, owner: .linkTraffic, tag: 0, enqueued: .zero),
            attempts: 0, arrived: false, macSeq: 0)
        while ordered.count < capacity { ordered.append(filler) }
        ring = ordered
        head = 0
    }

    /// The ring slot of the `i`-th queued entry: (head + i) mod the ring's length, for
    /// 0 ≤ i < the length (head is below it, so one subtraction does), without a division.
    @inline(__always) func slot(_ i: Int) -> Int {
        let j = head &+ i
        return j >= ring.count ? j &- ring.count : j
    }

    /// The `i`-th queued entry (0 = head).
    public subscript(i: Int) -> Entry {
        @inline(__always) get { ring[slot(i)] }
        @inline(__always) set { ring[slot(i)] = newValue }
    }

    /// Removes the head.
    @discardableResult
    public mutating func removeFirst() -> Entry {
        precondition(count > 0)
        let e = ring[head]
        head = slot(1)
        count -= 1
        return e
    }

    /// Removes the first `n` entries and puts `kept` (at most `n` entries) back at the front,
    /// in order: one pass, however many entries were acknowledged.
    public mutating func replacePrefix(_ n: Int, with kept: [Entry]) {
        precondition(n <= count && kept.count <= n)
        let drop = n - kept.count
        head = (head + drop) % Swift.max(ring.count, 1)
        count -= drop
        for (j, e) in kept.enumerated() { self[j] = e }
    }

    /// Removes entry `i` (keeping order).
    public mutating func remove(at i: Int) {
        precondition(i < count)
        var j = i
        while j > 0 {
            self[j] = self[j - 1]
            j -= 1
        }
        removeFirst()
    }
}

/// A first-in, first-out buffer read from a moving head index: reading or dropping the first
/// element is O(1) and allocates nothing. The elements are `storage[head..<tail]`; slots from
/// `tail` on hold consumed values that appends overwrite, so emptying the buffer only resets the
/// two indices and the storage keeps its length (its high-water mark). The consumed prefix is
/// moved out once it is longer than `FifoBuffer.compactAfter` and than the elements left, so
/// each element is moved at most once while it waits (amortised O(1), however long the buffer).
/// The host's send backlogs, its connection queues, the session layer's held frames and QUIC's
/// pending stream data use it; their elements are plain values, so a consumed slot keeps no
/// object alive.
public struct FifoBuffer<Element: Sendable>: Sendable {
    /// Consumed elements kept before they are released.
    static var compactAfter: Int { 1024 }
    var storage: [Element] = []
    var head = 0
    var tail = 0

    /// An empty buffer.
    public init() {}

    /// Elements not yet consumed.
    @inline(__always) public var count: Int { tail - head }
    /// Whether every element was consumed.
    @inline(__always) public var isEmpty: Bool { head == tail }
    /// The oldest element not yet consumed.
    @inline(__always) public var first: Element? { head < tail ? storage[head] : nil }

    /// The element `offset` places after the first (0 is the first).
    @inline(__always) public subscript(offset: Int) -> Element {
        get { storage[head + offset] }
        set { storage[head + offset] = newValue }
    }

    /// The elements not yet consumed, oldest first.
    public var elements: ArraySlice<Element> { storage[head..<tail] }

    /// Adds `element` at the end.
    @inline(__always) public mutating func append(_ element: Element) {
        if tail < storage.count {
            storage[tail] = element
        } else {
            storage.append(element)
        }
        tail += 1
    }

    /// Adds `elements` at the end, in order.
    @inline(__always) public mutating func append(contentsOf elements: [Element]) {
        for e in elements { append(e) }
    }

    /// Consumes the first `n` elements. - Precondition: `n <= count`.
    @inline(__always) public mutating func removeFirst(_ n: Int = 1) {
        precondition(n <= count)
        head += n
        if head == tail {
            head = 0
            tail = 0
        } else if head > FifoBuffer.compactAfter && head >= tail - head {
            compact()
        }
    }

    /// Moves the elements left to the front of the storage.
    @inline(never) mutating func compact() {
        for i in 0..<(tail - head) { storage[i] = storage[head + i] }
        tail -= head
        head = 0
    }
}

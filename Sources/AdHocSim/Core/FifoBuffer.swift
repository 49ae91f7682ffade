/// A first-in, first-out buffer read from a moving head index: reading or dropping the first
/// element is O(1) and allocates nothing; the consumed prefix is released when the buffer
/// empties (keeping the capacity) or once it is longer than `FifoBuffer.compactAfter` and than
/// the elements left, so each element is moved at most once while it waits (amortised O(1),
/// however long the buffer). The host's send backlogs, its connection queues and QUIC's pending stream
/// data use it.
public struct FifoBuffer<Element: Sendable>: Sendable {
    /// Consumed elements kept before they are released.
    static var compactAfter: Int { 1024 }
    var storage: [Element] = []
    var head = 0

    /// An empty buffer.
    public init() {}

    /// Elements not yet consumed.
    @inline(__always) public var count: Int { storage.count - head }
    /// Whether every element was consumed.
    @inline(__always) public var isEmpty: Bool { head == storage.count }
    /// The oldest element not yet consumed.
    @inline(__always) public var first: Element? { head < storage.count ? storage[head] : nil }

    /// The element `offset` places after the first (0 is the first).
    @inline(__always) public subscript(offset: Int) -> Element {
        get { storage[head + offset] }
        set { storage[head + offset] = newValue }
    }

    /// The elements not yet consumed, oldest first.
    public var elements: ArraySlice<Element> { storage[head...] }

    /// Adds `element` at the end.
    @inline(__always) public mutating func append(_ element: Element) { storage.append(element) }

    /// Adds `elements` at the end, in order.
    public mutating func append(contentsOf elements: [Element]) { storage.append(contentsOf: elements) }

    /// Consumes the first `n` elements. - Precondition: `n <= count`.
    public mutating func removeFirst(_ n: Int = 1) {
        precondition(n <= count)
        head += n
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > FifoBuffer.compactAfter && head >= storage.count - head {
            storage.removeFirst(head)
            head = 0
        }
    }
}

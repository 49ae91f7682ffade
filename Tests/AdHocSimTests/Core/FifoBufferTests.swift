import Testing

@testable import AdHocSim

@Suite("FIFO buffer")
struct FifoBufferTests {
    /// Elements leave in the order they came, across an empty buffer (indices reset, slots
    /// reused) and across a compaction: 3 000 appended, 2 000 consumed one by one (the consumed
    /// prefix passes 1 024 while 1 976 are left, and reaches what is left at 1 500: compacted
    /// then), 10 more appended; what is left is 2 000 … 2 999, then 10 000 … 10 009.
    @Test func keepsOrderAcrossResetsAndCompaction() {
        var b = FifoBuffer<Int>()
        for i in 0..<5 { b.append(i) }
        b.removeFirst(5)
        expect(b.isEmpty && b.first == nil)
        b.append(contentsOf: [7, 8])
        expectEqual(Array(b.elements), [7, 8])
        expectEqual(b.storage.count, 5)  // the emptied slots are written over, not regrown
        b.removeFirst(2)
        for i in 0..<3000 { b.append(i) }
        for i in 0..<2000 {
            expectEqual(b.first, i)
            b.removeFirst()
        }
        // Compacted once, when 1 500 were consumed and 1 500 left; 500 consumed since.
        expectEqual(b.head, 500)
        expectEqual(b.storage.count, 3000)
        expectEqual(b.count, 1000)
        for i in 0..<10 { b.append(10_000 + i) }
        expectEqual(Array(b.elements), Array(2000..<3000) + Array(10_000..<10_010))
        expectEqual(b[0], 2000)
        b[1] = -1
        expectEqual(b.elements.dropFirst().first, -1)
    }
}

import Testing

@testable import AdHocSim

/// QUIC's received-stream table answers as a dictionary keyed by stream id would: the same
/// entry for every id after any sequence of receptions and removals, in order or not, behind
/// the window's base or far past it.
struct ReceivedStreamsTests {
    /// By hand: stream 4 receives [0, 100) then [200, 300) (contiguous end 100, one range
    /// beyond), then [100, 200), which joins the range (end 300). Stream 0 is removed before it
    /// received anything and after; stream 8 receives after 0 and 4 are gone (the base moved
    /// past them); stream 4 received again after its removal starts empty; an id 2¹⁶ + 8 ahead
    /// of the base and one behind it are kept too.
    @Test func streamsAreKeptByIdAsTheRfcReassemblesThem() {
        var t = ReceivedStreams()
        expectEqual(t.receive(4, offset: 0, length: 100), 100)
        expectEqual(t.receive(4, offset: 200, length: 100), 100)
        expectEqual(t[4]?.ranges.count, 1)
        expectEqual(t.receive(4, offset: 100, length: 100), 300)
        expectEqual(t[4]?.ranges.count, 0)
        t.remove(0)
        expectEqual(t.receive(0, offset: 0, length: 10), 10)
        t.remove(0)
        t.remove(4)
        expect(t[0] == nil && t[4] == nil)
        expectEqual(t.receive(8, offset: 50, length: 10), 0)
        expectEqual(t.receive(4, offset: 0, length: 7), 7)
        expectEqual(t.receive(65_544 + 8, offset: 0, length: 3), 3)
        expectEqual(t[65_544 + 8]?.contiguous, 3)
        expectEqual(t[8]?.contiguous, 0)
        expectEqual(t[4]?.contiguous, 7)
        expect(t[12] == nil)
    }

    /// Against a dictionary of the same entries (the reassembly written out: a reception at or
    /// below the contiguous end extends it and absorbs the ranges it reaches, one beyond is kept
    /// as a range), over 20 000 random operations on ids clustered like one stream per message,
    /// with some far ahead and some behind.
    @Test func theTableAnswersAsADictionary() {
        var table = ReceivedStreams()
        var reference: [Int64: (contiguous: Int64, ranges: [(Int64, Int64)])] = [:]
        var stream = RandomStream(seed: 5, name: "received-streams")
        var next: Int64 = 0
        for _ in 0..<20_000 {
            let r = stream.uniform()
            let id: Int64
            if r < 0.02 {
                id = 4 * (next / 4 + 20_000 + Int64(stream.uniform() * 100))  // far ahead
            } else if r < 0.04 {
                id = 4 * Int64(stream.uniform() * Double(next / 4 + 1))  // anywhere behind
            } else {
                id = 4 * (next / 4 + Int64(stream.uniform() * 6))  // near the newest
            }
            next = Swift.max(next, id)
            if stream.uniform() < 0.3 {
                table.remove(id)
                reference[id] = nil
            } else {
                let offset = Int64(stream.uniform() * 40) * 10, length = Int64(1 + stream.uniform() * 30)
                var e = reference[id, default: (0, [])]
                let end = offset + length
                if offset <= e.contiguous {
                    e.contiguous = max(e.contiguous, end)
                    while let i = e.ranges.firstIndex(where: { $0.0 <= e.contiguous }) {
                        e.contiguous = max(e.contiguous, e.ranges[i].1)
                        e.ranges.remove(at: i)
                    }
                } else {
                    e.ranges.append((offset, end))
                }
                reference[id] = e
                expectEqual(table.receive(id, offset: offset, length: length), e.contiguous)
            }
            let probe = 4 * Int64(stream.uniform() * Double(next / 4 + 2))
            for k in [id, probe] {
                expectEqual(table[k]?.contiguous, reference[k]?.contiguous, "stream \(k)")
                expectEqual(table[k]?.ranges.count, reference[k]?.ranges.count, "stream \(k)")
            }
        }
    }
}

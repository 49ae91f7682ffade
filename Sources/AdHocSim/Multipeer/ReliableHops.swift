/// Multipeer's reliable mode on each session hop: frames numbered per ordered pair, delivered
/// to the mesh in that order at the receiver (held while an earlier one is missing), each
/// delivered once. The sender resends what the link gave up on (`SessionLayer.linkGaveUp`).
struct ReliableHops: Sendable {
    /// Per ordered pair (from << 32 | to): the next number to send.
    var next: [UInt64: UInt32] = [:]
    /// Per ordered pair: the next number the receiver expects.
    var expected: [UInt64: UInt32] = [:]
    /// Per ordered pair: frames that arrived before an earlier one, by number.
    var held: [UInt64: [UInt32: SessionFrame]] = [:]

    static func key(_ from: Int, _ to: Int) -> UInt64 { UInt64(from) << 32 | UInt64(to) }

    /// The number of the next reliable frame from `from` to `to`.
    mutating func number(from: Int, to: Int) -> UInt32 {
        let k = Self.key(from, to)
        let n = next[k, default: 0]
        next[k] = n &+ 1
        return n
    }

    /// A numbered frame from `from` reached `to`: whether it is the one expected now (pass it
    /// on, then the held ones `nextHeld` gives); a duplicate, or a frame that must wait for an
    /// earlier one (it is held), is not.
    mutating func accept(_ f: SessionFrame, from: Int, to: Int) -> Bool {
        let k = Self.key(from, to)
        let want = expected[k, default: 0]
        guard f.hopSeq >= want else { return false }  // a duplicate: delivered already
        guard f.hopSeq == want else {
            held[k, default: [:]][f.hopSeq] = f
            return false
        }
        expected[k] = want &+ 1
        return true
    }

    /// The held frame from `from` to `to` that is next in order, if it has arrived.
    mutating func nextHeld(from: Int, to: Int) -> SessionFrame? {
        let k = Self.key(from, to)
        guard let n = expected[k], let g = held[k]?.removeValue(forKey: n) else { return nil }
        expected[k] = n &+ 1
        return g
    }

    /// The session between `a` and `b` formed (again): numbering starts over both ways, and
    /// frames held from an earlier session are dropped (a session that ends loses them).
    mutating func sessionFormed(_ a: Int, _ b: Int) {
        for k in [Self.key(a, b), Self.key(b, a)] {
            next[k] = nil
            expected[k] = nil
            held[k] = nil
        }
    }
}

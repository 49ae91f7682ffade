/// Sorted, merged ranges of sequence space: TCP's out-of-order queue and SACK scoreboard
/// (half-open byte ranges `[start, end)`) and QUIC's received packet numbers (closed ranges
/// `[start, end]`).
enum Ranges {
    /// `ranges` sorted by start, with overlapping ranges merged; with `closed`, ranges that
    /// touch (`end + 1 == start`) merge too.
    static func merged(_ ranges: [(start: Int64, end: Int64)], closed: Bool = false) -> [(start: Int64, end: Int64)] {
        let gap: Int64 = closed ? 1 : 0
        var out: [(start: Int64, end: Int64)] = []
        for r in ranges.sorted(by: { $0.start < $1.start }) {
            if let last = out.last, r.start <= last.end + gap {
                out[out.count - 1].end = Swift.max(last.end, r.end)
            } else {
                out.append(r)
            }
        }
        return out
    }
}

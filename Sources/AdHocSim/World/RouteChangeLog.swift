/// The routes a run's nodes held, as the changes they went through: text that can be stored and
/// compared (`adhocsim check --golden DIR`).
///
/// Every node's route to every destination is looked at on a fixed grid (`step`, 100 ms),
/// whatever the heartbeat interval, and a line is written only when it differs from the last
/// one looked at:
///
///     t_s node destination path...      (the route from then on)
///     t_s node destination -            (no route from then on)
///
/// for example `10.000000000 a0 a4 a0 a1 a2 a3 a4`. Because only changes are kept, a setting
/// that makes routes appear earlier shows as the same paths at other times, and one that
/// changes a path shows as that path, not as a difference at every later sample.
public struct RouteChangeLog: Sendable {
    /// The first line of the text, naming the format and the grid.
    public static let header = "# adhocsim route changes: t_s node destination path (- for none), looked at every 0.1 s"
    /// The grid the routes are looked at on.
    public static let step = SimTime.milliseconds(100)

    let ids: [String]
    /// Per ordered pair (flat, `from · n + to`), the path last written (empty: none).
    var last: [[Int]]
    /// The text so far.
    public private(set) var text = RouteChangeLog.header + "\n"

    /// A log of a scenario whose nodes are `ids`.
    public init(ids: [String]) {
        self.ids = ids
        last = Array(repeating: [], count: ids.count * ids.count)
    }

    /// Looks at every route of `mesh` at `time`, writing those that changed.
    public mutating func sample(_ mesh: MeshNetwork, at time: SimTime) {
        let n = ids.count
        var t: String?
        for a in 0..<mesh.nodeCount {
            for b in 0..<mesh.nodeCount where b != a {
                let path = mesh.route(from: a, to: b, at: time)?.path ?? []
                guard path != last[a * n + b] else { continue }
                last[a * n + b] = path
                let stamp = t ?? NumberText.fixed(time.inSeconds, decimals: 9)
                t = stamp
                let route = path.isEmpty ? "-" : path.map { ids[$0] }.joined(separator: " ")
                text += "\(stamp) \(ids[a]) \(ids[b]) \(route)\n"
            }
        }
    }

    /// One pair's changes: (time, path text) in time order.
    typealias Changes = [(time: Double, path: String)]

    /// Reads a log into changes per "node destination", or `nil` when `text` is not one (an
    /// older per-heartbeat snapshot, or something else).
    static func parse(_ text: String) -> [String: Changes]? {
        guard text.hasPrefix(header + "\n") else { return nil }
        var out: [String: Changes] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard f.count == 4, let t = Double(f[0]) else { return nil }
            out[f[1] + " " + f[2], default: []].append((t, f[3]))
        }
        return out
    }

    /// How a new log differs from a stored one, or `nil` when they are identical: how many
    /// pairs changed, how many only in their times (with the range of the shifts), and the
    /// earliest difference (time, node, destination, stored and new route).
    public static func difference(stored: String, new: String) -> String? {
        if stored == new { return nil }
        guard let a = parse(stored) else {
            return "the stored file is not a route change log (an older per-heartbeat snapshot?); "
                + "rewrite it with --update-golden after checking the routes"
        }
        guard let b = parse(new) else { return "the new log cannot be read (a bug)" }
        var earliest: (time: Double, pair: String, text: String)?
        var differing = 0, timingOnly = 0
        var shifts: (lo: Double, hi: Double)?
        for pair in Set(a.keys).union(b.keys).sorted() {
            let x = a[pair] ?? [], y = b[pair] ?? []
            guard !x.elementsEqual(y, by: { $0.time == $1.time && $0.path == $1.path }) else { continue }
            differing += 1
            if x.count == y.count, x.elementsEqual(y, by: { $0.path == $1.path }) {
                timingOnly += 1
                for (p, q) in zip(x, y) where p.time != q.time {
                    let d = q.time - p.time
                    shifts = shifts.map { (Swift.min($0.lo, d), Swift.max($0.hi, d)) } ?? (d, d)
                }
            }
            // The first change that is not the same in both.
            var k = 0
            while k < x.count && k < y.count && x[k].time == y[k].time && x[k].path == y[k].path { k += 1 }
            let p = k < x.count ? x[k] : nil, q = k < y.count ? y[k] : nil
            let time = Swift.min(p?.time ?? .infinity, q?.time ?? .infinity)
            func route(_ c: (time: Double, path: String)?) -> String {
                guard let c else { return "no further change" }
                return (c.path == "-" ? "no route" : c.path) + " from " + NumberText.fixed(c.time, decimals: 3) + " s"
            }
            if earliest.map({ time < $0.time }) ?? true {
                earliest = (time, pair, "stored \(route(p)), new \(route(q))")
            }
        }
        guard let e = earliest else { return "the logs differ in layout (not a route difference)" }
        let names = e.pair.split(separator: " ")
        var summary = "\(differing) pair\(differing == 1 ? "" : "s") changed"
        if timingOnly > 0 {
            summary += ", \(timingOnly) only in time"
            if let s = shifts {
                func signed(_ d: Double) -> String { (d > 0 ? "+" : "") + NumberText.fixed(d, decimals: 3) }
                summary += s.lo == s.hi ? " (\(signed(s.lo)) s)" : " (\(signed(s.lo)) to \(signed(s.hi)) s)"
            }
        }
        return summary + "; first at \(NumberText.fixed(e.time, decimals: 3)) s, node \(names[0]), destination "
            + "\(names[1]): \(e.text)"
    }
}

/// Route tables sampled during a run, as text that can be stored and compared
/// (`adhocsim check --golden DIR`).
///
/// One line per live route at each sample time, in (time, node, destination) order:
///
///     t_s node destination path...
///
/// for example `10.000000000 a0 a4 a0 a1 a2 a3 a4`.
public struct RouteSnapshots: Sendable {
    let ids: [String]
    /// The text so far.
    public private(set) var text = ""

    /// Snapshots of a scenario whose nodes are `ids`.
    public init(ids: [String]) { self.ids = ids }

    /// Appends every live route of `mesh` at `time`.
    public mutating func sample(_ mesh: MeshNetwork, at time: SimTime) {
        let t = NumberText.fixed(time.inSeconds, decimals: 9)
        for a in 0..<mesh.nodeCount {
            for r in mesh.routeTable(of: a, at: time) {
                text += "\(t) \(ids[a]) \(ids[r.to]) " + r.path.map { ids[$0] }.joined(separator: " ") + "\n"
            }
        }
    }

    /// The first difference between a stored snapshot text and a new one, in time order
    /// (then node, then destination, by name), or `nil` when they are identical.
    public static func firstDifference(old: String, new: String) -> String? {
        if old == new { return nil }
        func parse(_ s: String) -> [String: (time: Double, node: String, dest: String, path: String)] {
            var out: [String: (Double, String, String, String)] = [:]
            for line in s.split(separator: "\n") {
                let f = line.split(separator: " ", maxSplits: 3).map(String.init)
                guard f.count == 4, let t = Double(f[0]) else { continue }
                out[f[0] + " " + f[1] + " " + f[2]] = (t, f[1], f[2], f[3])
            }
            return out
        }
        let a = parse(old), b = parse(new)
        let keys = Set(a.keys).union(b.keys).sorted { x, y in
            let p = a[x] ?? b[x]!, q = a[y] ?? b[y]!
            if p.time != q.time { return p.time < q.time }
            if p.node != q.node { return p.node < q.node }
            return p.dest < q.dest
        }
        for k in keys where a[k]?.path != b[k]?.path {
            let e = a[k] ?? b[k]!
            return "at \(NumberText.fixed(e.time, decimals: 3)) s, node \(e.node), destination \(e.dest): "
                + "old \(a[k]?.path ?? "no route"), new \(b[k]?.path ?? "no route")"
        }
        return "the snapshots differ in layout (not a route difference)"
    }
}

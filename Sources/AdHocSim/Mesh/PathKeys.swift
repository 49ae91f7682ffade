/// Path-derived keys as MAdHoc designs them (mesh.md "Keys"), and who else could derive them.
///
/// Two nodes A and B *share* a path when A heard B's heartbeat along it and B heard A's along
/// its reverse. Direct paths (no relay) carry no median node and are not key material. When
/// a pair shares at least `keyPaths` relayed paths, each end takes the first `keyPaths` of them
/// (fewest hops first, then by node order) and builds the key from each path's median relay
/// (the middle relay; for an even number of relays, the one nearer A), without sending it.
///
/// Exposure: a node *observed* a path when it is a relay on it or a session peer of a node on
/// it (the heartbeats carrying the path go to every session peer; sessions taken at the end of
/// the run). Every node other than A and B that observed all
/// the key's paths knows the same node ids and can rebuild the key.
public enum PathKeys {
    /// Paths remembered per (node, origin): 16 (assumption bounding memory; ns-3's DSR path
    /// cache keeps up to 20 per destination, peers.md).
    public static let maxPathsPerPair = 16

    /// One pair's key report.
    public struct PairKey: Sendable, Equatable {
        /// The pair (`a < b`).
        public var a: Int
        /// See `a`.
        public var b: Int
        /// Relayed paths both ends know, oriented from `a` to `b`.
        public var sharedPaths: Int
        /// The median relays the key is built from, or `nil` when there are too few paths.
        public var medians: [Int]?
        /// Nodes other than `a` and `b` that observed every path of the key.
        public var exposedTo: [Int]
    }

    /// Bytes encryption adds to a message between keyed nodes: a 12-byte nonce and a 16-byte
    /// authentication tag, AES-GCM's recommended sizes (NIST SP 800-38D §5.2.1.1 and §5.2.1.2;
    /// RFC 5116 §5.1). MAdHoc names no cipher: AES-GCM is an assumption.
    public static let sealBytes = 28

    /// Whether `a` and `b` share at least `keyPaths` relayed paths now, so that `a` can encrypt
    /// a message to `b`; otherwise the design's fallback applies and it goes unencrypted
    /// (seed 002: "messages ... are encrypted if there are enough unique routes to generate
    /// keys").
    public static func hasKey(heard: [Int: [[Int]]], nodes: Int, a: Int, b: Int, keyPaths: Int) -> Bool {
        guard let fromA = heard[a * nodes + b], let fromB = heard[b * nodes + a] else { return false }
        var shared = 0
        for path in fromA where path.count > 2 && fromB.contains(where: { $0.elementsEqual(path.reversed()) }) {
            shared += 1
            if shared >= keyPaths { return true }
        }
        return false
    }

    /// The median relay of `path` (endpoints included), or `nil` for a direct path.
    public static func median(of path: [Int]) -> Int? {
        let relays = path.count - 2
        guard relays > 0 else { return nil }
        return path[1 + (relays - 1) / 2]
    }

    /// Every pair that shares at least one relayed path, in (a, b) order.
    public static func report(heard: [Int: [[Int]]], nodes: Int, peers: [[Int]], keyPaths: Int) -> [PairKey] {
        var out: [PairKey] = []
        for a in 0..<nodes {
            for b in (a + 1)..<max(a + 1, nodes) {
                guard let fromA = heard[a * nodes + b], let fromB = heard[b * nodes + a] else { continue }
                let reversedB = Set(fromB.map { $0.reversed() as [Int] })
                let shared = fromA.filter { $0.count > 2 && reversedB.contains($0) }
                    .sorted { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) }
                guard !shared.isEmpty else { continue }
                guard shared.count >= keyPaths else {
                    out.append(PairKey(a: a, b: b, sharedPaths: shared.count, medians: nil, exposedTo: []))
                    continue
                }
                let used = shared.prefix(keyPaths)
                var exposed: Set<Int>?
                for path in used {
                    var observers = Set(path)
                    for node in path { observers.formUnion(peers[node]) }
                    exposed = exposed.map { $0.intersection(observers) } ?? observers
                }
                let others = (exposed ?? []).subtracting([a, b]).sorted()
                out.append(
                    PairKey(
                        a: a, b: b, sharedPaths: shared.count, medians: used.compactMap { median(of: $0) },
                        exposedTo: others)
                )
            }
        }
        return out
    }
}

/// A value per ordered pair of a run's phones, by the flat index `from · n + to`: one flat array
/// up to `denseLimit` phones (as every run of that size has always kept it), a dictionary keyed
/// by the flat index above, so the memory follows the pairs that hold a value instead of n²
/// (at 10 000 phones three flat tables of routes, duplicate suppression and first
/// routes would take about 4 GB, while a phone holds routes to the few hundred others its
/// heartbeats reach). Read and written by key only: the dictionary's order reaches nothing;
/// `indicesHoldingValues` lists the pairs in index order for the results.
struct PairTable<Value: Equatable & Sendable>: Sendable {
    /// The value of a pair that holds none.
    let empty: Value
    /// The flat table (empty above `denseLimit`).
    private var dense: [Value]
    /// The pairs holding a value other than `empty` (above `denseLimit`).
    private var sparse: [Int: Value] = [:]
    /// Whether the table is flat.
    let isDense: Bool

    /// Up to this many phones the table is flat: 2 048 (4.2 million pairs; a route table of that
    /// size takes 67 MB). An assumption that keeps every run of that size byte-identical and as
    /// fast as before; above it the lookups cost a hash.
    static var denseLimit: Int { 2048 }

    /// A table of `nodes` phones with every pair `empty`; flat up to `denseLimit` phones
    /// unless `dense` says otherwise (tests compare the two).
    init(nodes: Int, empty: Value, dense: Bool? = nil) {
        self.empty = empty
        isDense = dense ?? (nodes <= Self.denseLimit)
        self.dense = isDense ? Array(repeating: empty, count: nodes * nodes) : []
    }

    /// The value of the pair at flat index `i`.
    @inline(__always)
    subscript(i: Int) -> Value {
        get { isDense ? dense[i] : (sparse[i] ?? empty) }
        set {
            if isDense {
                dense[i] = newValue
            } else if newValue == empty {
                sparse[i] = nil
            } else {
                sparse[i] = newValue
            }
        }
    }

    /// The flat indices of the pairs holding a value other than `empty`, ascending.
    var indicesHoldingValues: [Int] {
        if isDense { return dense.indices.filter { dense[$0] != empty } }
        return sparse.keys.sorted()
    }

    /// Pairs holding a value other than `empty`.
    var count: Int { isDense ? dense.lazy.filter { $0 != self.empty }.count : sparse.count }
}

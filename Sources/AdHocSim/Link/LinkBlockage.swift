/// The blockage of every link of a run: the place's `BlockageProcess` per unordered pair of
/// nodes (created on first use, drawing from the pair's own stream), and per transmitter a
/// cache of each kept receiver's state, aligned with the transmitter's neighbour row
/// (`WirelessChannel.neighbourhood(of:)`), so the medium's receiver loop reads it in order.
///
/// The row cache holds, per (transmitter, row position), the link's state until its next
/// change, `nextChange << 1 | blocked` (−1: not known yet), and the process's index. A row
/// entry whose time has passed asks the process (`refresh`), which advances it and answers;
/// the pair's two directions keep their own entries and share the process, so both see the
/// same people pass between the phones. The cache decides nothing: the gain of a link at a time
/// is the process's, whoever asked first (byte-identical to the mirrored N × N table it
/// replaces).
///
/// Memory: 12 bytes per kept ordered pair in the rows (a 10 000-phone city crowd at a 5 dB
/// cutoff keeps about 28 million: 340 MB, where the N × N table took 800 MB); 40 bytes per
/// process; and an index per unordered pair, flat up to `flatIndexNodes` nodes, a dictionary
/// above (read only when a row entry meets its pair for the first time).
struct LinkBlockage: Sendable {
    /// The place's blockage (`nil`: links never blocked).
    let spec: BlockageSpec?
    /// The power factor of a blocked link (the penalty, linear).
    let factor: Double
    let seed: UInt64
    /// Every process created, by index.
    var processes: [StoredBlockage] = []
    /// Per unordered pair {a, b}, a < b, at `b(b − 1)/2 + a`: its process's index, −1 before it
    /// exists (up to `flatIndexNodes` nodes).
    var flatIndex: [Int32]
    /// The same above `flatIndexNodes` nodes, keyed by `a << 32 | b`.
    var index: [UInt64: Int32] = [:]
    /// Per transmitter, aligned with its neighbour row: the cached state, and the process index
    /// (−1: not looked up yet).
    var rowState: [[Int64]]
    var rowProcess: [[Int32]]
    /// What `readAhead` read, kept so that its loads are not optimised away.
    var readAheadSum: Int64 = 0

    /// The largest scenario with the flat pair index: 12 000 nodes (288 MB of pair slots at that
    /// size, 200 MB at 10 000; an assumption that keeps a 10 000-phone crowd inside the
    /// machine's 4 GiB budget). Above it a dictionary costs a hash, once per row entry and row build.
    static let flatIndexNodes = 12_000

    /// The links of `nodes` nodes under `spec` in a run seeded `seed`.
    init(spec: BlockageSpec?, nodes: Int, seed: UInt64) {
        let active = (spec?.ratePerSecond ?? 0) > 0
        self.spec = active ? spec : nil
        factor = spec.map { Decibel.linear(fromDb: -$0.penaltyDb) } ?? 1
        self.seed = seed
        flatIndex = active && nodes <= Self.flatIndexNodes ? Array(repeating: -1, count: nodes * (nodes - 1) / 2) : []
        rowState = active ? Array(repeating: [], count: nodes) : []
        rowProcess = active ? Array(repeating: [], count: nodes) : []
    }

    /// Whether links flip between clear and blocked.
    var isActive: Bool { spec != nil }

    /// The index of the process of link {t, r}, created on first use.
    mutating func process(_ t: Int, _ r: Int) -> Int {
        let a = Swift.min(t, r), b = Swift.max(t, r)
        if !flatIndex.isEmpty {
            let pair = b &* (b &- 1) / 2 &+ a
            let slot = Int(flatIndex[pair])
            if slot >= 0 { return slot }
            flatIndex[pair] = Int32(processes.count)
        } else {
            let key = UInt64(a) << 32 | UInt64(b)
            if let slot = index[key] { return Int(slot) }
            index[key] = Int32(processes.count)
        }
        // `spec` is set whenever a gain is asked for (`isActive`).
        guard let spec else { preconditionFailure("a blockage process asked for without blockage") }
        processes.append(StoredBlockage(BlockageProcess.forLink(t, r, spec: spec, seed: seed)))
        return processes.count - 1
    }

    /// The power factor of link {t, r} at `time`: `factor` while blocked, else 1. Times must
    /// not decrease between calls for a link.
    mutating func gain(_ t: Int, _ r: Int, at time: SimTime) -> Double {
        guard let spec else { return 1 }
        let slot = process(t, r)
        return processes[slot].isBlocked(at: time, spec: spec) ? factor : 1
    }

    /// Transmitter `t`'s row was rebuilt with `count` receivers: nothing of it is known.
    mutating func resetRow(_ t: Int, count: Int) {
        guard isActive else { return }
        var state = rowState[t], slots = rowProcess[t]
        rowState[t] = []
        rowProcess[t] = []
        state.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        state.append(contentsOf: repeatElement(-1, count: count))
        slots.append(contentsOf: repeatElement(-1, count: count))
        rowState[t] = state
        rowProcess[t] = slots
    }

    /// Takes transmitter `t`'s state row out for a receiver loop (`putStateRow` puts it back),
    /// so the loop writes it through one buffer while `refresh` updates the rest.
    mutating func takeStateRow(_ t: Int) -> [Int64] {
        guard isActive else { return [] }
        let row = rowState[t]
        rowState[t] = []
        return row
    }

    mutating func putStateRow(_ t: Int, _ row: [Int64]) {
        if isActive { rowState[t] = row }
    }

    /// Reads the processes behind the entries at `positions` of `t`'s row (those looked up
    /// before), so that `refresh` finds them in the cache: independent loads whose misses
    /// overlap, where one refresh after another would wait for each in turn.
    mutating func readAhead(of t: Int, _ positions: [Int32]) {
        guard positions.count > 1 else { return }
        var sum: Int64 = 0
        rowProcess[t].withUnsafeBufferPointer { slots in
            processes.withUnsafeBufferPointer { p in
                for k in positions {
                    let s = Int(slots[Int(k)])
                    if s >= 0 { sum &+= p[s].change }
                }
            }
        }
        readAheadSum &+= sum
    }

    /// The state of link {t, r} at `time`, `nextChange << 1 | blocked`, for the entry at
    /// position `k` of `t`'s row (whose state row is taken out): its process looked up once,
    /// then advanced to `time`. A link that never changes again answers a time past any run.
    @inline(never)
    mutating func refresh(_ t: Int, _ k: Int, _ r: Int, at time: SimTime) -> Int64 {
        guard let spec else { return Int64.max & ~1 }
        var slot = Int(rowProcess[t][k])
        if slot < 0 {
            slot = process(t, r)
            rowProcess[t][k] = Int32(slot)
        }
        let blocked = processes[slot].isBlocked(at: time, spec: spec)
        let next = Swift.min(processes[slot].nextChange.nanoseconds, Int64.max >> 1)
        return next << 1 | (blocked ? 1 : 0)
    }
}

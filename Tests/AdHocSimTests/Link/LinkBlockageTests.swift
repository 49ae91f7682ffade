import Testing
@testable import AdHocSim

/// The links' blockage store (`LinkBlockage`): the row cache the medium reads in order must
/// answer exactly as each pair's own process does, in both directions, with the flat pair
/// index and with the dictionary above it.
struct LinkBlockageTests {
    static let spec = BlockageSpec(ratePerSecond: 0.5, meanDwellSeconds: 0.6, penaltyDb: 15)

    /// Reads link {t, r} from `t`'s row as `SharedMedium.begin` does: the cached state while
    /// its time has not come, else a refresh written back.
    static func blockedViaRow(_ store: inout LinkBlockage, _ t: Int, _ k: Int, _ r: Int, at time: SimTime) -> Bool {
        var row = store.takeStateRow(t)
        if time.nanoseconds >= row[k] >> 1 { row[k] = store.refresh(t, k, r, at: time) }
        let blocked = row[k] & 1 != 0
        store.putStateRow(t, row)
        return blocked
    }

    @Test(arguments: [5, LinkBlockage.flatIndexNodes + 1])
    func bothDirectionsSeeTheLinksOwnProcess(nodes: Int) {
        var store = LinkBlockage(spec: Self.spec, nodes: nodes, seed: 7)
        // Node 0's row holds 1 and 3 (positions 0, 1); node 3's row holds 0 (position 0).
        store.resetRow(0, count: 2)
        store.resetRow(3, count: 1)
        // The reference: each pair's process on its own, as `BlockageProcess.forLink` draws it.
        var p01 = BlockageProcess.forLink(0, 1, spec: Self.spec, seed: 7)
        var p03 = BlockageProcess.forLink(3, 0, spec: Self.spec, seed: 7)
        var time = SimTime.zero
        var flips = 0
        var last = p03.blocked
        for i in 0..<4_000 {
            time = time + .milliseconds(1 + (i * 7919) % 1_500)
            // Alternate who asks about {0, 3}: the two directions keep their own row entries.
            let asked03 =
                i % 3 == 0
                ? Self.blockedViaRow(&store, 3, 0, 0, at: time) : Self.blockedViaRow(&store, 0, 1, 3, at: time)
            expectEqual(asked03, p03.isBlocked(at: time))
            expectEqual(Self.blockedViaRow(&store, 0, 0, 1, at: time), p01.isBlocked(at: time))
            if p03.blocked != last { flips += 1 }
            last = p03.blocked
        }
        // One process per unordered pair, however often and from whichever side it was asked.
        expectEqual(store.processes.count, 2)
        // Samples 0.75 s apart on average against a correlation time of 0.46 s: the state
        // changed between many of them (so both states were compared).
        expect(flips > 500)
        // `gain` reads the same processes: blocked means the penalty's factor, 10^(−15/10).
        let factor = store.gain(0, 3, at: time)
        expectEqual(factor, (p03.isBlocked(at: time) ? Decibel.linear(fromDb: -15) : 1))
    }

    /// A place without blockage answers 1 and stores nothing.
    @Test func noBlockageStoresNothing() {
        var store = LinkBlockage(spec: nil, nodes: 100, seed: 1)
        expect(!store.isActive)
        expectEqual(store.gain(3, 4, at: .seconds(1)), 1)
        expect(store.flatIndex.isEmpty && store.rowState.isEmpty && store.processes.isEmpty)
    }

    /// A stored process is five words: the stream's four and the packed state (the memory
    /// figure of `LinkBlockage`'s doc comment).
    @Test func aStoredProcessTakesFortyBytes() {
        expectEqual(MemoryLayout<StoredBlockage>.stride, 40)
    }
}

import Testing

@testable import AdHocSim

/// The mesh's per-pair tables: flat and sparse storage answer alike, so a run above
/// 2 048 phones keeps the results it had with flat tables.
struct PairTableTests {
    /// The same writes to a flat and a sparse table of 7 phones, checked against the pairs
    /// written by hand: a pair never written reads `empty`; writing `empty` back forgets it; the
    /// pairs holding a value come in flat-index order (source-major).
    @Test func flatAndSparseStorageAnswerAlike() {
        for dense in [true, false] {
            var t = PairTable<Int64>(nodes: 7, empty: -1, dense: dense)
            expectEqual(t.isDense, dense)
            t[3 * 7 + 5] = 40  // (3, 5)
            t[0 * 7 + 6] = 10  // (0, 6)
            t[6 * 7 + 0] = 0  // (6, 0): zero is a value, not empty
            t[2 * 7 + 2] = 7
            t[2 * 7 + 2] = -1  // forgotten again
            expect(t[3 * 7 + 5] == 40 && t[0 * 7 + 6] == 10 && t[6 * 7 + 0] == 0)
            expect(t[2 * 7 + 2] == -1 && t[1 * 7 + 1] == -1)
            expectEqual(t.indicesHoldingValues, [6, 26, 42])
            expectEqual(t.count, 3)
        }
    }

    /// Above 2 048 phones the table is sparse; up to it, flat.
    @Test func theStorageFollowsThePhoneCount() {
        expect(PairTable<UInt64>(nodes: 2048, empty: 0).isDense)
        expect(!PairTable<UInt64>(nodes: 2049, empty: 0).isDense)
    }
}

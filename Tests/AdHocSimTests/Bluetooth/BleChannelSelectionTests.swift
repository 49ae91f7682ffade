import Testing
@testable import AdHocSim

/// The data-channel selection algorithms against the Core Specification's sample data (v5.4,
/// Vol 6, Part C §3, as the open controllers' unit tests quote it: Zephyr's
/// `lll_chan_sel_2_ut`) and against §4.5.8.2's rule, worked by hand.
struct BleChannelSelectionTests {
    @Test func algorithm2MatchesTheSpecificationsSampleData() throws {
        // Access address 0x8E89BED6: 0x8E89 XOR 0xBED6 = 0x305F.
        let id = BleChannelSelection.channelIdentifier(accessAddress: 0x8E89_BED6)
        expectEqual(id, 0x305F)
        // §3.1, all 37 channels used: event counters 1, 2, 3 use channels 20, 6, 21.
        let all = BleChannelMap.all
        expectEqual([1, 2, 3].map { BleChannelSelection.algorithm2(counter: $0, identifier: id, map: all) }, [20, 6, 21])
        // §3.2, nine channels used (9, 10, 21, 22, 23, 33, 34, 35, 36): counters 6, 7, 8 use
        // 23, 9, 34.
        let nine = try require(BleChannelMap([9, 10, 21, 22, 23, 33, 34, 35, 36]))
        expectEqual([6, 7, 8].map { BleChannelSelection.algorithm2(counter: $0, identifier: id, map: nine) }, [23, 9, 34])
        // Every counter lands on a used channel.
        for n in 0..<2000 {
            expect(nine.contains(BleChannelSelection.algorithm2(counter: UInt16(n), identifier: id, map: nine)))
        }
    }

    @Test func algorithm1HopsAndRemapsByHand() throws {
        // Hop 7 from unmapped 0 over all channels: 7, 14, 21, …, 35, then 42 mod 37 = 5.
        var last = 0
        var seen: [Int] = []
        for _ in 0..<6 {
            let r = BleChannelSelection.algorithm1(lastUnmapped: last, hop: 7, map: .all)
            seen.append(r.channel)
            last = r.unmapped
        }
        expectEqual(seen, [7, 14, 21, 28, 35, 5])
        // Only channels 1 and 2 used: unmapped 7 is unused; 7 mod 2 = 1 → the second used, 2.
        let two = try require(BleChannelMap([1, 2]))
        expect(BleChannelSelection.algorithm1(lastUnmapped: 0, hop: 7, map: two) == (2, 7))
        expect(BleChannelMap([5]) == nil && BleChannelMap([0, 37]) == nil)
    }
}

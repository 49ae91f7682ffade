import Foundation
import Testing

@testable import AdHocSim

/// `adhocsim bench medium` (`MediumBenchmark`): the medium's receiver loop timed alone, beside
/// reference loops over the same rows. What a user relies on: every variant visits the same
/// receivers of the same frames (so the figures compare like with like), and a frame's end takes
/// back what its start added.
struct MediumBenchmarkTests {
    /// Three phones within a few metres (custom place: free-space-like loss, no shadowing), in
    /// the field's fading unless `environment` says otherwise.
    func bench(frames: Int, onAir: Int) throws -> MediumBenchmark {
        let s = try linkScenario(
            nodes: [("a", 0, 0), ("b", 3, 0), ("c", 0, 4)], radio: ["technology": "wifi"])
        return MediumBenchmark(s, frames: frames, onAir: onAir)
    }

    /// Each of the 10 frames reaches the two other phones (2 receivers × 10 frames = 20 visits),
    /// in every variant. Senders go 0, 2, 1, 0, … (7919 ≡ 2 mod 3), so with two frames on the
    /// air no sender is still transmitting when its turn comes, and none is skipped.
    @Test func everyVariantVisitsTheSameReceivers() throws {
        let b = try bench(frames: 10, onAir: 2)
        for v in MediumBenchmark.Variant.allCases {
            expectEqual(b.run(v).events, 20, "\(v)")
        }
    }

    /// `row` adds each pair's static power (a `Float`, 24 significant bits) to a `Double` sum
    /// and subtracts it at the frame's end. With at most two such terms of nearby magnitude in a
    /// sum, every addition is exact, so every sum returns to exactly zero: the checksum (the sum
    /// of the sums' bit patterns) is 0.
    @Test func aFramesEndTakesBackWhatItsStartAdded() throws {
        expectEqual(try bench(frames: 50, onAir: 2).run(.row).checksum, 0)
    }

    /// The command prints one line per variant with its cost per receiver and its visits:
    /// `two-phones.json` has two phones, so 100 frames one at a time make 100 visits. (With
    /// eight on the air, a phone would wait for its own frame to end: 26 visits.)
    @Test func theCommandPrintsEachVariant() throws {
        let dir = try temporaryFolder()
        let file = Repository.root.appendingPathComponent("topologies/two-phones.json").path
        let r = try CLI.run(["bench", "medium", file, "--frames", "100", "--on-air", "1", "--repeat", "1"], in: dir)
        expectEqual(r.status, 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        expectEqual(lines.count, 3)
        for (line, v) in zip(lines, ["row", "draw", "medium"]) {
            expect(line.hasPrefix("variant=\(v) ns_per_receiver="), "\(line)")
            expect(line.contains("receiver_visits=100 frames=100 on_air=1"), "\(line)")
        }
        let bad = try CLI.run(["bench", "medium"], in: dir)
        expectEqual(bad.status, 2)
    }
}

import Foundation
import Testing

@testable import AdHocSim

/// Minstrel-like rate control (`MinstrelRateControl`), by hand.
@Suite("Minstrel rate control")
struct MinstrelTests {
    static func controller() -> MinstrelRateControl {
        // Four rates of 10, 20, 40 and 80 Mbit/s; the SNR rule seeded the fastest.
        MinstrelRateControl(
            rates: (0..<4).map { Mcs(index: $0) }, bitsPerSecond: [10e6, 20e6, 40e6, 80e6], start: 3, now: .zero)
    }

    /// A step change in SNR: the fastest rate delivers everything in the first 50 ms, then
    /// nothing, while the chain's second rate (attempts 3–4) delivers everything. Its EWMA
    /// (75 % old) falls 1 → 0.75 → 0.5625 → 0.421875, so its throughput 80 → 60 → 45 → 33.75
    /// Mbit/s stays above the second rate's 40 for two updates and drops below it at the third
    /// (150 ms after the change); meanwhile no frame is lost, the chain retries at 40 Mbit/s.
    @Test func aStepChangeMovesTheBestRateDownAtTheThirdUpdate() {
        var m = MinstrelTests.controller()
        expect(m.chain(attempt: 1) == 3 && m.chain(attempt: 3) == 2 && m.chain(attempt: 7) == 0)
        m.report(rate: 3, sent: 10, delivered: 10, now: .milliseconds(10))
        var bests: [Int] = []
        for k in 0..<4 {
            let t = SimTime.milliseconds(60 + 50 * k)
            m.report(rate: 3, sent: k < 3 ? 10 : 0, delivered: 0, now: t)  // folds the interval before
            bests.append(m.best)
            m.report(rate: 2, sent: 10, delivered: 10, now: t + .milliseconds(10))
        }
        expectEqual(bests, [3, 3, 3, 2])
        expect(m.probability[3]! == 0.421875 && m.probability[2]! == 1)
        expect(abs(m.throughput(3) - 33.75e6) < 1e-3 && m.throughput(2) == 40e6)
        expect(m.second == 3 && m.mostProbable == 2)
    }

    /// Every 10th first attempt transmitted samples a rate whose PHY rate beats the best rate's
    /// throughput (asking again before it goes out gives the same rate); the other first
    /// attempts, and every retry, follow the chain.
    @Test func oneFirstAttemptInTenIsASample() {
        var m = MinstrelTests.controller()
        m.report(rate: 1, sent: 10, delivered: 10, now: .milliseconds(10))
        m.report(rate: 1, sent: 0, delivered: 0, now: .milliseconds(60))  // best: 20 Mbit/s, known
        expectEqual(m.best, 1)
        var stream = RandomStream(seed: 3, name: "test/minstrel")
        var picks: [Int] = []
        for _ in 0..<30 {
            let k = m.choose(attempt: 1, stream: &stream)
            // A deferred access asks again before the frame goes out: the same answer.
            expectEqual(m.choose(attempt: 1, stream: &stream), k)
            m.transmitted(attempt: 1)
            picks.append(k)
        }
        for (n, k) in picks.enumerated() {
            if (n + 1) % 10 == 0 { expect(k == 2 || k == 3, "sample \(n): \(k)") } else { expectEqual(k, 1) }
        }
        expect(m.choose(attempt: 2, stream: &stream) == 1 && m.choose(attempt: 5, stream: &stream) == 1)
    }
}

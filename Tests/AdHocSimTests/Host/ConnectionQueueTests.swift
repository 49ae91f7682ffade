import Foundation
import Testing

@testable import AdHocSim

/// The connection queue on its own: buffers, warming and cooling, the spread, each by hand.
struct ConnectionQueueTests {
    /// A service time is rounded to whole nanoseconds to nearest, ties away from zero (as
    /// `Double.rounded()`), by hand: halves go up in size, the largest double below ½ goes to 0,
    /// 2⁵² + 1 and every larger double is already whole, and 2⁵² − ½ goes up to 2⁵².
    @Test func serviceTimesRoundToTheNearestNanosecond() {
        let cases: [(Double, Int64)] = [
            (0, 0), (0.5, 1), (1.5, 2), (2.5, 3), (0.49999999999999994, 0), (12_199.999, 12_200),
            (12_200.4, 12_200), (-0.5, -1), (-1.5, -2), (-0.4, 0), (4_503_599_627_370_497, 4_503_599_627_370_497),
            (4_503_599_627_370_495.5, 4_503_599_627_370_496), (9.0e15, 9_000_000_000_000_000)
        ]
        for (x, expected) in cases { expectEqual(ConnectionQueue.nearest(x), expected, "\(x)") }
    }

    /// The receive buffer drops exactly the datagrams that do not fit. Reader: two reads of
    /// 100 µs per datagram (200 µs); 100-byte datagrams arrive every 50 µs; the buffer holds
    /// 3 × (100 + 28) = 384 bytes. By hand: d0 (t = 0) is read at once; d1, d2, d3 wait (128,
    /// 256, 384 bytes); d4 (200 µs) finds d1 gone (its read began at 200) and fits; d5–d7 find
    /// the buffer full; d8 (400 µs, d2 gone) fits; d9–d11 are dropped; d12 (600 µs) fits. Once
    /// full, one datagram in four is kept: the reader's rate.
    @Test func theReceiveBufferDropsWhatDoesNotFit() {
        var q = ConnectionQueue.ideal(
            sendCost: .zero, receiveCost: .microseconds(100), udpReceiveBuffer: 3 * (100 + 28))
        var kept: [Int] = []
        var done: [SimTime] = []
        for k in 0...12 {
            if let t = q.receiveDatagram(bytes: 100, arrivedAt: .microseconds(50) * Int64(k)) {
                kept.append(k)
                done.append(t)
            }
        }
        expectEqual(kept, [0, 1, 2, 3, 4, 8, 12])
        expectEqual(q.receiveBufferDrops, 6)
        // Each kept datagram is read 200 µs after the one before.
        let expected: [SimTime] = (1...7).map { SimTime.microseconds(200) * Int64($0) }
        expectEqual(done, expected)
    }

    /// Cooling slower than warming: warm cost 10 µs, cold factor 5, τ = 1 ms, τ↓ = 10 ms, no
    /// spread. Job 1 from cold takes 50 µs and warms w to w₁ = 1 − e^(−0.05). After 10 ms idle
    /// w is w₁·e^(−10/10) = w₁/e (with τ↓ = τ it would be w₁·e^(−10), cold again), so job 2
    /// takes 10 × (1 + 4 × (1 − w₁/e)) µs.
    @Test func aPhoneCoolsMoreSlowlyThanItWarms() {
        var q = ConnectionQueue.ideal(
            sendCost: .microseconds(10), receiveCost: .zero, coldFactor: 5, warmUp: .milliseconds(1),
            coolDown: .milliseconds(10))
        q.submit(message: 0, bytes: 1, awaited: false, at: .zero)
        let first = q.pending.elements[0].readyAt
        expectEqual(first, .microseconds(50))
        q.submit(message: 1, bytes: 1, awaited: false, at: first + .milliseconds(10))
        let second = q.pending.elements[1].readyAt - first - .milliseconds(10)
        let w1 = 1 - exp(-0.05)
        let expected = 10_000 * (1 + 4 * (1 - w1 / exp(1)))
        expect(abs(Double(second.nanoseconds) - expected) <= 1)
    }

    /// The receive buffer's datagram limit works as its byte limit does, whatever the
    /// datagrams' size: the same arrivals as above into a buffer of 3 datagrams and 8 MiB keep
    /// the same datagrams, by the same reasoning (d1–d3 wait; d4 fits once d1's read began).
    @Test func theReceiveBufferHoldsAtMostItsDatagramCount() {
        var q = ConnectionQueue.ideal(
            sendCost: .zero, receiveCost: .microseconds(100), udpReceiveBuffer: 8_388_608, udpReceiveDatagrams: 3)
        var kept: [Int] = []
        for k in 0...12 where q.receiveDatagram(bytes: 4_000, arrivedAt: .microseconds(50) * Int64(k)) != nil {
            kept.append(k)
        }
        expectEqual(kept, [0, 1, 2, 3, 4, 8, 12])
        expectEqual(q.receiveBufferDrops, 6)
    }

    /// A cold phone: warm cost 10 µs, cold factor 5, τ = 1 ms, no spread. Job 1 from cold
    /// (w = 0) takes 50 µs and warms w to 1 − e^(−0.05) = 0.048771; job 2 right after takes
    /// 10 × (1 + 4 × 0.951229) = 48.049 µs. After 10 ms idle the warmth has decayed by e^(−10):
    /// the next job is as slow as from cold to within 0.01 µs.
    @Test func aColdPhoneWarmsWithWorkAndCoolsWhenIdle() {
        var q = ConnectionQueue.ideal(
            sendCost: .microseconds(10), receiveCost: .zero, coldFactor: 5, warmUp: .milliseconds(1))
        q.submit(message: 0, bytes: 1, awaited: false, at: .zero)
        q.submit(message: 1, bytes: 1, awaited: false, at: .zero)
        let ready = q.pending.elements.map(\.readyAt)
        expectEqual(ready[0], .microseconds(50))
        let second = 10_000 * (1 + 4 * exp(-0.05))
        expect(abs(Double((ready[1] - ready[0]).nanoseconds) - second) <= 1)
        let idleStart = ready[1]
        q.submit(message: 2, bytes: 1, awaited: false, at: idleStart + .milliseconds(10))
        let third = q.pending.elements.last!.readyAt - idleStart - .milliseconds(10)
        expect(abs(Double(third.nanoseconds) - 50_000) < 10)
    }

    /// The log-normal factor has mean 1 (σ² = ln(1 + CV²), μ = −σ²/2): 20 000 jobs of 100 µs
    /// with CV 1 take 2 s ± 3 % (the sum's relative SD is 1/√20000 = 0.7 %).
    @Test func theSpreadKeepsTheMeanCost() {
        var q = ConnectionQueue.ideal(
            sendCost: .microseconds(100), receiveCost: .zero, spread: 1,
            stream: RandomStream(seed: 9, name: "test/host"))
        for k in 0..<20_000 { q.submit(message: k, bytes: 1, awaited: false, at: .zero) }
        let total = q.pending.elements.last!.readyAt.inSeconds
        expect(abs(total - 2) < 0.06, "total \(total) s")
    }
}

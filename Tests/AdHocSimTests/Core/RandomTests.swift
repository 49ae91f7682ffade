import Testing
@testable import AdHocSim

@Suite("Random streams")
struct RandomTests {
    @Test func xoshiroMatchesTheReferenceVectors() {
        // xoshiro256** from state {1, 2, 3, 4}: the first output is rotl(2·5, 7)·9 = 11520;
        // the rest follow from the reference C code (prng.di.unimi.it), run by hand in Python.
        var s = RandomStream(state: (1, 2, 3, 4))
        expectEqual([s.next(), s.next(), s.next(), s.next()], [11520, 0, 1_509_978_240, 1_215_971_899_390_074_240])
    }

    @Test func splitMixMatchesItsReferenceVectors() {
        // Java's SplittableRandom(1234567).nextLong() sequence.
        var sm = SplitMix64(state: 1_234_567)
        expectEqual(sm.next(), 6_457_827_717_110_365_317)
        expectEqual(sm.next(), 3_203_168_211_198_807_973)
        expectEqual(sm.next(), 9_817_491_932_198_370_423)
    }

    @Test func fnv1aMatchesPublishedVectors() {
        expectEqual(StableHash.fnv1a(""), 0xcbf2_9ce4_8422_2325)
        expectEqual(StableHash.fnv1a("a"), 0xaf63_dc4c_8601_ec8c)
        expectEqual(StableHash.fnv1a("foobar"), 0x8594_4171_f739_67e8)
    }

    @Test func streamsDependOnlyOnSeedAndName() {
        var alone = RandomStream(seed: 9, name: "node:1/mac/backoff")
        let reference = (0..<100).map { _ in alone.next() }
        // Creating and drawing from other streams in between changes nothing.
        var other = RandomStream(seed: 9, name: "node:2/mac/backoff")
        var again = RandomStream(seed: 9, name: "node:1/mac/backoff")
        var interleaved: [UInt64] = []
        for _ in 0..<100 {
            _ = other.next()
            interleaved.append(again.next())
        }
        expectEqual(interleaved, reference)
        var differentName = RandomStream(seed: 9, name: "node:1/mac/backof")
        var differentSeed = RandomStream(seed: 10, name: "node:1/mac/backoff")
        expect((0..<100).map { _ in differentName.next() } != reference)
        expect((0..<100).map { _ in differentSeed.next() } != reference)
    }

    @Test func distributionsHaveTheirMoments() {
        // n = 200 000 draws; tolerances are 5 standard errors of the estimate.
        let n = 200_000.0
        var s = RandomStream(seed: 1, name: "test/moments")
        var sum = 0.0, sumSq = 0.0
        for _ in 0..<Int(n) { let u = s.uniform(); expect(u >= 0 && u < 1); sum += u; sumSq += u * u }
        expect(abs(sum / n - 0.5) < 5 * (1.0 / 12).squareRoot() / n.squareRoot())

        sum = 0
        for _ in 0..<Int(n) { sum += s.exponential(mean: 2.0) }
        expect(abs(sum / n - 2.0) < 5 * 2.0 / n.squareRoot())  // sd of Exp(mean m) is m

        sum = 0; sumSq = 0
        for _ in 0..<Int(n) { let x = s.normal(mean: 3, standardDeviation: 2); sum += x; sumSq += x * x }
        let mean = sum / n
        let variance = sumSq / n - mean * mean
        expect(abs(mean - 3) < 5 * 2 / n.squareRoot())
        expect(abs(variance - 4) < 5 * 4 * (2 / n).squareRoot())  // var of sample variance ≈ 2σ⁴/n

        // Log-normal: the median is exp(mu); about half the draws fall below it.
        var below = 0.0
        for _ in 0..<Int(n) where s.logNormal(mu: 1, sigma: 0.5) < exp(1.0) { below += 1 }
        expect(abs(below / n - 0.5) < 5 * 0.5 / n.squareRoot())

        var hits = 0.0
        for _ in 0..<Int(n) where s.bernoulli(0.1) { hits += 1 }
        expect(abs(hits / n - 0.1) < 5 * (0.1 * 0.9 / n).squareRoot())
        expect(!s.bernoulli(0) && s.bernoulli(1))
    }

    @Test func uniformIntStaysInRangeAndCoversIt() {
        var s = RandomStream(seed: 2, name: "test/int")
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<70_000 { counts[Int(s.uniformInt(below: 7))] += 1 }
        // Each bin expects 10 000 with sd ≈ 93; 5 sd bounds.
        expect(counts.allSatisfy { abs($0 - 10_000) < 465 })
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

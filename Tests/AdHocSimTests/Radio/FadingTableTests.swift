import Foundation
import Testing

@testable import AdHocSim

/// The counter-based Rician fading draw.
@Suite("Rician power table")
struct FadingTableTests {
    /// Kolmogorov–Smirnov distance between the samples and the CDF.
    static func ksDistance(_ samples: [Double], k: Double) -> Double {
        let sorted = samples.sorted()
        let n = Double(sorted.count)
        var d = 0.0
        for (i, x) in sorted.enumerated() {
            let f = RicianPowerTable.cdf(x, k: k)
            d = max(d, abs(f - Double(i) / n), abs(f - Double(i + 1) / n))
        }
        return d
    }

    /// The Poisson-mixture CDF is exact: K = 0 is Rayleigh, 1 − e^(−x); and for K > 0 it
    /// agrees with samples of the defining construction |√(K/(K+1)) + g/√(K+1)|² (g complex
    /// Gaussian of unit power, `RicianFading.gain`): KS distance under 1.63/√n (α = 1 %).
    @Test(arguments: [0.0, 1, 4, 10])
    func cdfMatchesTheConstruction(_ k: Double) {
        for x in [0.01, 0.1, 0.5, 1, 2, 5] where k == 0 {
            expect(abs(RicianPowerTable.cdf(x, k: 0) - (1 - exp(-x))) < 1e-12)
        }
        var stream = RandomStream(seed: 11, name: "ks/construction")
        let samples = (0..<20_000).map { _ in RicianFading.gain(k: k, stream: &stream) }
        expect(Self.ksDistance(samples, k: k) < 1.63 / (20_000.0).squareRoot())
    }

    /// The series stops once its sums no longer change past both modes and the next term no
    /// longer moves the partial sum; the CDF and density are then the very bits of the full sum
    /// to n = K + 12√K + 40, written out here from the Poisson mixture (weights e^(−K)·Kⁿ/n!,
    /// terms e^(−y)·yⁿ/n!), from the deep lower tail to the far upper tail.
    @Test(arguments: [0.0, 0.5, 2, 4, 10, 30])
    func theShortenedSeriesIsTheFullSeries(_ k: Double) {
        let mixture = RicianPowerTable.Mixture(k: k)
        let y0 = (k + 1)
        for e in stride(from: -12.0, through: 1.4, by: 0.05) {
            let x = pow(10, e)
            let y = y0 * x
            var weight = exp(-k), term = exp(-y), partial = term, sum = 0.0, density = 0.0
            for n in 0...Int(k + 12 * k.squareRoot() + 40) {
                sum += weight * (1 - partial)
                density += weight * term
                weight *= k / Double(n + 1)
                term *= y / Double(n + 1)
                partial += term
            }
            let got = mixture.cdfAndDensity(x)
            expect(got.cdf.bitPattern == min(sum, 1).bitPattern, "K \(k), x \(x)")
            expect(got.density.bitPattern == ((k + 1) * density).bitPattern, "K \(k), x \(x)")
        }
    }

    /// The inversion searches its bracket's upper end only when a step needs it; every table
    /// entry is still the very bits of Newton's method inside the bracket found first, written
    /// out here: b doubled from max(2·lo, 1) while F(b) < u, then Newton steps from lo, a
    /// bisection step whenever Newton's leaves (a, b), until the step or the bracket is below
    /// 10⁻¹⁴ or 10⁻¹⁵ of its size. Each entry starts from the one before, as the table does,
    /// over the table's two tail grids (32 points per octave) and the body at steps of 2⁻¹⁰
    /// (the table's 2⁻¹³ would take eight times as long in the debug build).
    @Test(arguments: [0.0, 2, 10])
    func theBracketOnDemandIsTheEagerBracket(_ k: Double) {
        let mixture = RicianPowerTable.Mixture(k: k)
        func eager(_ u: Double, from lo: Double) -> Double {
            var a = lo, b = max(lo * 2, 1.0)
            while mixture.cdfAndDensity(b).cdf < u { b *= 2 }
            var x = max(lo, 1e-300)
            for _ in 0..<100 {
                let (f, d) = mixture.cdfAndDensity(x)
                if f < u { a = x } else { b = x }
                var next = d > 0 ? x - (f - u) / d : (a + b) / 2
                if !(next > a && next < b) { next = (a + b) / 2 }
                if abs(next - x) <= 1e-14 * max(next, 1e-300) || b - a <= 1e-15 * b { return next }
                x = next
            }
            return x
        }
        var us = (0...1056).map { exp2(-40 + Double($0) / 32) }
        us += stride(from: 1.0 / 128, through: 1 - 1.0 / 128, by: 1.0 / 1024)
        us += (0...1056).map { 1 - exp2(-7 - Double($0) / 32) }
        var lo = 0.0
        for u in us {
            let expected = eager(u, from: lo)
            let got = mixture.invert(u, from: lo)
            expect(got.bitPattern == expected.bitPattern, "K \(k), u \(u)")
            lo = expected
        }
    }

    /// Table plus counter-based uniforms against the exact CDF: 100 000 draws over 1 000
    /// transmissions × 100 receivers, KS distance under 1.63/√n = 0.0052 (α = 1 %); the mean
    /// power is 1; and the deep-fade tail is right: P(x ≤ F⁻¹(10⁻³)) over 10⁶ draws within
    /// 4 standard errors of 10⁻³.
    @Test(ScaleCheck.trait, arguments: [0.0, 1, 2, 4, 10])
    func tableDrawsFollowTheExactDistribution(_ k: Double) {
        let table = RicianPowerTable.shared(k: k)
        let key = StableHash.fnv1a("node/fading") ^ 7
        var samples: [Double] = []
        for t in 0..<1000 {
            for r in 0..<100 {
                samples.append(table.power(u: RicianPowerTable.uniform(key: key, UInt64(t), UInt64(r))))
            }
        }
        expect(Self.ksDistance(samples, k: k) < 1.63 / (100_000.0).squareRoot())
        // Mean power over a fine midpoint grid of u: E|h|² = 1.
        let n = 200_000
        let mean = (0..<n).reduce(0.0) { $0 + table.power(u: (Double($1) + 0.5) / Double(n)) } / Double(n)
        expect(abs(mean - 1) < 2e-3, "mean \(mean)")
        let fade = RicianPowerTable.invert(1e-3, k: k, from: 0)
        var below = 0
        for i in 0..<1_000_000 where table.power(u: RicianPowerTable.uniform(key: key, UInt64(i), 1 << 40)) <= fade {
            below += 1
        }
        let se = (1e-3 * (1 - 1e-3) / 1e6).squareRoot()
        expect(abs(Double(below) / 1e6 - 1e-3) < 4 * se, "\(below) deep fades in 10⁶")
    }

    /// The medium's draw from the hash's integer bits (`power(bits:body:)`) is the draw from the
    /// uniform (`power(u:body:)` of `uniform(bits:)`), bit for bit: on random hashes, and on
    /// every 53-bit m (= bits >> 11) within 40 of the places where the double computation
    /// rounds or switches (the body's two ends 2⁴⁶ and 2⁵³ − 2⁴⁶, the tie-to-even change at
    /// 2⁵², the clamped last interval, both extremes), for K = 0 and 10.
    @Test(arguments: [0.0, 10])
    func theIntegerDrawIsTheUniformDraw(k: Double) {
        let table = RicianPowerTable.shared(k: k)
        let body = table.storage.body
        var stream = RandomStream(seed: 5, name: "test/bits")
        var cases: [UInt64] = (0..<200_000).map { _ in stream.next() }
        let edges: [UInt64] = [0, 1 << 46, 1 << 52, (1 << 53) - (1 << 46), (1 << 53) - (1 << 47), (1 << 53) - 1]
        for e in edges {
            for d in -40...40 {
                let m = Int64(bitPattern: e) + Int64(d)
                guard m >= 0 && m < 1 << 53 else { continue }
                cases.append(UInt64(m) << 11 | (stream.next() & 0x7FF))
            }
        }
        var mismatches = 0
        for bits in cases {
            let viaBits = table.power(bits: bits, body: body)
            let viaUniform = table.power(u: RicianPowerTable.uniform(bits: bits), body: body)
            if viaBits.bitPattern != viaUniform.bitPattern { mismatches += 1 }
        }
        expectEqual(mismatches, 0)
    }

    /// A draw depends only on its counters, not on what was drawn before.
    @Test func drawsAreOrderIndependent() {
        let a = RicianPowerTable.uniform(key: 42, 7, 3)
        _ = (0..<100).map { RicianPowerTable.uniform(key: 42, UInt64($0), 5) }
        expectEqual(RicianPowerTable.uniform(key: 42, 7, 3), a)
        expect(RicianPowerTable.uniform(key: 42, 7, 4) != a)
        expect(RicianPowerTable.uniform(key: 43, 7, 3) != a)
    }
}

import Foundation

/// Rician fading power drawn in a few nanoseconds and independently of draw order: a
/// counter-based uniform per (transmission, receiver) mapped through a tabulated inverse CDF of
/// the Rician power.
///
/// **The distribution.** With factor K, the normalised power x = |h|² (E[x] = 1) of a Rician
/// channel is a scaled non-central χ² with two degrees of freedom, which is a Poisson mixture
/// of Gamma distributions (Johnson, Kotz & Balakrishnan, "Continuous Univariate Distributions",
/// vol. 2, ch. 29):
///
///     F(x) = Σₙ e^(−K)·Kⁿ/n! · P(n + 1, (K + 1)·x),   P(n + 1, y) = 1 − e^(−y)·Σⱼ₌₀ⁿ yʲ/j!
///
/// exact for every K ≥ 0 (K = 0 is Rayleigh: F(x) = 1 − e^(−x)).
///
/// **The table.** F is inverted by bisection at three grids of u: the lower tail
/// u ∈ [2⁻⁴⁰, 2⁻⁷] at 32 points per octave (deep fades decide which frames fail, so they are
/// tabulated finely), the body u ∈ [2⁻⁷, 1 − 2⁻⁷] in steps of 2⁻¹³, and the upper tail
/// 1 − u ∈ [2⁻⁴⁰, 2⁻⁷] at 32 points per octave; linear interpolation between points. Below
/// 2⁻⁴⁰ the lower tail continues with F's first-order term, x ≈ u·e^K/(K + 1). Tables are built
/// once per K and process (a few milliseconds) and shared by every run.
///
/// **The uniforms.** u = SplitMix64's finaliser applied twice to a key (the run seed and the
/// stream's name, `StableHash`), the transmission's number and the receiver's index — a
/// counter-based generator in the sense of Salmon et al., "Parallel random numbers: as easy
/// as 1, 2, 3" (SC 2011): a draw depends only on (seed, transmission, receiver), never on which
/// receivers were evaluated before, or in which order.
public struct RicianPowerTable: Sendable {
    /// The Rician factor (linear).
    public let k: Double
    /// The three tables, immutable once built and shared by every run of the process.
    let storage: Storage

    /// The tables, immutable once built, read through pointers in the draw (no bounds checks or
    /// reference counting per draw; every index is clamped to the table first).
    final class Storage: @unchecked Sendable {
        let lower: UnsafeMutableBufferPointer<Double>
        let body: UnsafeMutableBufferPointer<Double>
        let upper: UnsafeMutableBufferPointer<Double>

        init(lower: [Double], body: [Double], upper: [Double]) {
            func copy(_ a: [Double]) -> UnsafeMutableBufferPointer<Double> {
                let p = UnsafeMutableBufferPointer<Double>.allocate(capacity: a.count)
                _ = p.initialize(from: a)
                return p
            }
            self.lower = copy(lower)
            self.body = copy(body)
            self.upper = copy(upper)
        }

        deinit {
            lower.deallocate()
            body.deallocate()
            upper.deallocate()
        }
    }

    static let pointsPerOctave = 32.0
    static let tailOctaves = 33.0  // 2⁻⁴⁰ … 2⁻⁷
    static let bodyStep = 1.0 / 8192
    static let bodyStart = 1.0 / 128

    /// The exact CDF of the normalised power at `x` for factor `k` (Poisson mixture above).
    public static func cdf(_ x: Double, k: Double) -> Double { Mixture(k: k).cdfAndDensity(x).cdf }

    /// The power whose CDF is `u` for factor `k`, at or above `lo` (`Mixture.invert`).
    static func invert(_ u: Double, k: Double, from lo: Double) -> Double { Mixture(k: k).invert(u, from: lo) }

    /// The Poisson weights e^(−K)·Kⁿ/n! of the mixture, n = 0 … K + 12√K + 40 (the terms past
    /// that are below 10⁻³⁰⁰ of the sum). They do not depend on x, so a table's ten thousand
    /// inversions share one list instead of recomputing each weight per evaluation; each is
    /// the same product, so every CDF value is the same bits.
    struct Mixture {
        let k: Double
        let weights: [Double]

        init(k: Double) {
            self.k = k
            let last = Int(k + 12 * k.squareRoot() + 40)
            var w = exp(-k)
            var weights: [Double] = []
            weights.reserveCapacity(last + 1)
            for n in 0...last {
                weights.append(w)
                w *= k / Double(n + 1)
            }
            self.weights = weights
        }

        /// F(x) and its density f(x) = (K + 1)·Σₙ e^(−K)·Kⁿ/n! · e^(−y)·yⁿ/n!, y = (K + 1)·x.
        func cdfAndDensity(_ x: Double) -> (cdf: Double, density: Double) {
            guard x > 0 else { return (0, (k + 1) * exp(-k)) }
            let y = (k + 1) * x
            var term = exp(-y)  // e^(−y)·yⁿ/n!
            var partial = term  // e^(−y)·Σⱼ₌₀ⁿ yʲ/j!
            var sum = 0.0, density = 0.0
            weights.withUnsafeBufferPointer { weights in
                for n in 0..<weights.count {
                    let weight = weights[n]
                    let nextSum = sum + weight * (1 - partial)
                    let nextDensity = density + weight * term
                    let nextTerm = term * (y / Double(n + 1))
                    let nextPartial = partial + nextTerm
                    // Past both modes (K ≤ n + 1 and y ≤ n + 1) the weights and the terms only
                    // shrink. Once the next term no longer moves `partial`, no later one does
                    // (rounding is monotone), so 1 − partial is fixed and every later addend
                    // to either sum is no larger than this step's. If this step left both sums
                    // unchanged, so does every later one: stopping gives the full series' bits.
                    if nextSum == sum && nextDensity == density && nextPartial == partial && k <= Double(n + 1)
                        && y <= Double(n + 1)
                    {
                        break
                    }
                    sum = nextSum
                    density = nextDensity
                    term = nextTerm
                    partial = nextPartial
                }
            }
            return (Swift.min(sum, 1), (k + 1) * density)
        }

        /// The power whose CDF is `u`, at or above `lo`: Newton's method from `lo`, kept inside a
        /// bisection bracket [a, b] (a handful of CDF evaluations per table entry).
        ///
        /// The bracket's upper end starts at b₀ = max(2·lo, 1), doubled while F(b) < u. That
        /// search costs a CDF evaluation, and a step needs b only when Newton's step leaves
        /// (a, b₀), when the derivative is not positive, or when b₀ − a ≤ 10⁻¹⁵·b₀; so it runs
        /// then (`bracket`), and a step whose F reaches u sets b itself. This gives the eager
        /// search's result bit for bit: b ≥ b₀, so a step inside (a, b₀) is inside (a, b); while
        /// the search has not run every step had F < u, so a < b₀, and for b = 2ʲ·b₀ (j ≥ 1)
        /// b − a ≥ b/2, far above 10⁻¹⁵·b, so the interval test is false for b when it is for
        /// b₀.
        func invert(_ u: Double, from lo: Double) -> Double {
            var a = lo, b = Swift.max(lo * 2, 1.0)
            var bracketed = false
            var x = Swift.max(lo, 1e-300)
            for _ in 0..<100 {
                let (f, d) = cdfAndDensity(x)
                if f < u {
                    a = x
                } else {
                    b = x
                    bracketed = true
                }
                if !bracketed && !(d > 0) {
                    b = bracket(u, from: b)
                    bracketed = true
                }
                var next = d > 0 ? x - (f - u) / d : (a + b) / 2
                if !(next > a && next < b) {
                    if !bracketed {
                        b = bracket(u, from: b)
                        bracketed = true
                    }
                    if !(next > a && next < b) { next = (a + b) / 2 }
                }
                if abs(next - x) <= 1e-14 * Swift.max(next, 1e-300) { return next }
                if b - a <= 1e-15 * b {
                    if bracketed { return next }
                    b = bracket(u, from: b)
                    bracketed = true
                    if b - a <= 1e-15 * b { return next }
                }
                x = next
            }
            return x
        }

        /// The bracket's upper end: `b`, doubled while F(b) < u.
        func bracket(_ u: Double, from b: Double) -> Double {
            var b = b
            while cdfAndDensity(b).cdf < u { b *= 2 }
            return b
        }
    }

    /// The table of factor `k` (built here; use `shared(k:)` to reuse it).
    public init(k: Double) {
        self.k = k
        let tail = Int(Self.tailOctaves * Self.pointsPerOctave)
        let mixture = Mixture(k: k)
        var x = 0.0
        var lower: [Double] = []
        for i in 0...tail {
            let u = exp2(-40 + Double(i) / Self.pointsPerOctave)
            x = mixture.invert(u, from: x)
            lower.append(x)
        }
        var body: [Double] = []
        let steps = Int(((1 - 2 * Self.bodyStart) / Self.bodyStep).rounded())
        for i in 0...steps {
            let u = Self.bodyStart + Double(i) * Self.bodyStep
            x = mixture.invert(u, from: x)
            body.append(x)
        }
        var upper: [Double] = []  // by 1 − u descending: index 0 at 1 − u = 2⁻⁷
        for i in 0...tail {
            let u = 1 - exp2(-7 - Double(i) / Self.pointsPerOctave)
            x = mixture.invert(u, from: x)
            upper.append(x)
        }
        storage = Storage(lower: lower, body: body, upper: upper)
    }

    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var tables: [UInt64: RicianPowerTable] = [:]
    }
    private static let cache = Cache()

    /// The table of factor `k`, built on first use in this process.
    public static func shared(k: Double) -> RicianPowerTable {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let t = cache.tables[k.bitPattern] { return t }
        let t = RicianPowerTable(k: k)
        cache.tables[k.bitPattern] = t
        return t
    }

    /// Linear interpolation in `table` at fractional index `position` ≥ 0.
    @inline(__always)
    static func interpolate(_ table: UnsafeMutableBufferPointer<Double>, _ position: Double) -> Double {
        let i = Swift.min(Int(position), table.count &- 2)
        let f = position - Double(i)
        let a = table[i]
        return a + f * (table[i &+ 1] - a)
    }

    /// The power gain (linear, mean 1) whose CDF is `u` ∈ (0, 1): a subtraction, a
    /// multiplication and one interpolation in the body (98.4 % of draws), a logarithm in the
    /// tails.
    @inline(__always)
    public func power(u: Double) -> Double { power(u: u, body: storage.body) }

    /// `power(u:)` with the body table passed in (`storage.body`, read once by a caller that
    /// draws for many receivers, so the loop does not reload it from the shared storage).
    @inline(__always)
    func power(u: Double, body: UnsafeMutableBufferPointer<Double>) -> Double {
        if u >= Self.bodyStart && u <= 1 - Self.bodyStart {
            return Self.interpolate(body, (u - Self.bodyStart) * (1 / Self.bodyStep))
        }
        return tailPower(u: u)
    }

    /// `power(u:body:)` for the uniform `uniform(bits:)` makes of the hash `bits`
    /// (`uniformBits(row:_:)`), computed from the integer bits in the body: the same value, bit
    /// for bit, without converting the uniform to a double and its position back to an index.
    ///
    /// Why it is the same: with m = bits >> 11, the uniform is u = U·2⁻⁵³ where U is m + ½
    /// correctly rounded (exact below 2⁵²; from 2⁵² up the tie goes to the even neighbour, m or
    /// m + 1). So 2U is the integer 2m + 1 below 2⁵², 2(m + (m mod 2)) above. In the body
    /// (2⁻⁷ ≤ u ≤ 1 − 2⁻⁷, that is 2⁴⁷ ≤ 2U ≤ 2⁵⁴ − 2⁴⁷), u − 2⁻⁷ = (2U − 2⁴⁷)·2⁻⁵⁴ is exact
    /// (an integer below 2⁵⁴ that is even above 2⁵³, so at most 53 significant bits), and so is
    /// its product by 8 192, the position v·2⁻⁴¹ with v = 2U − 2⁴⁷. The index is then
    /// ⌊v / 2⁴¹⌋ (clamped to the last interval as `interpolate` clamps it) and the fraction
    /// (v − index·2⁴¹)·2⁻⁴¹, both exact, so the interpolation adds and multiplies the very same
    /// numbers. Outside the body the uniform is formed as before and `tailPower` applies.
    @inline(__always)
    func power(bits: UInt64, body: UnsafeMutableBufferPointer<Double>) -> Double {
        let m = bits >> 11
        let high = m >> 52  // 1 from 2⁵² up (half the draws: computed, not branched on)
        let twiceU = m &<< 1 &+ (1 ^ high) &+ ((high & m) &<< 1)
        if twiceU >= 1 << 47 && twiceU <= (1 << 54) - (1 << 47) {
            let v = twiceU &- (1 << 47)
            let i = Swift.min(Int(truncatingIfNeeded: v >> 41), body.count &- 2)
            let f = Double(Int64(bitPattern: v &- UInt64(truncatingIfNeeded: i) &<< 41)) * 0x1p-41  // < 2⁴²
            let a = body[i]
            return a + f * (body[i &+ 1] - a)
        }
        return tailPower(u: Self.uniform(bits: bits))
    }

    /// `power(u:)` in the two tails.
    @inline(never)
    func tailPower(u: Double) -> Double {
        if u < Self.bodyStart {
            let octave = log2(u) + 40
            if octave < 0 { return u * exp(k) / (k + 1) }
            return Self.interpolate(storage.lower, octave * Self.pointsPerOctave)
        }
        let octave = -log2(1 - u) - 7
        return Self.interpolate(storage.upper, Swift.min(octave, Self.tailOctaves) * Self.pointsPerOctave)
    }

    /// The standard deviation of the fading gain in dB, 10·log10(x): computed from the table
    /// by the midpoint rule over 100 000 quantiles (2.0 dB for K = 10, 4.3 dB for K = 2, 5.6 dB
    /// for Rayleigh). The per-pair interaction cutoff's safe margin uses it.
    public func decibelSpread() -> Double {
        let m = 100_000
        var sum = 0.0, squares = 0.0
        for i in 0..<m {
            let db = 10 * log10(power(u: (Double(i) + 0.5) / Double(m)))
            sum += db
            squares += db * db
        }
        let mean = sum / Double(m)
        return (squares / Double(m) - mean * mean).squareRoot()
    }

    /// A uniform on (0, 1) that depends only on `key`, `a` and `b` (counter-based).
    @inlinable
    public static func uniform(key: UInt64, _ a: UInt64, _ b: UInt64) -> Double {
        uniform(row: row(key: key, a), b)
    }

    /// The part of `uniform(key:_:_:)` that depends on `key` and `a` only: computed once per
    /// transmission when many receivers draw.
    @inlinable @inline(__always)
    public static func row(key: UInt64, _ a: UInt64) -> UInt64 { SplitMix64.mix(key &+ a &* 0x9E37_79B9_7F4A_7C15) }

    /// `uniform(key:a:b)` from `row(key:a)`.
    @inlinable @inline(__always)
    public static func uniform(row: UInt64, _ b: UInt64) -> Double { uniform(bits: uniformBits(row: row, b)) }

    /// The 64 hashed bits `uniform(row:_:)` makes its uniform of (`power(bits:body:)` reads
    /// them directly).
    @inlinable @inline(__always)
    public static func uniformBits(row: UInt64, _ b: UInt64) -> UInt64 {
        SplitMix64.mix(row ^ (b &* 0xD1B5_4A32_D192_ED03))
    }

    /// The uniform on (0, 1) of the hashed bits `bits`: the top 53, plus one half, times 2⁻⁵³.
    @inlinable @inline(__always)
    public static func uniform(bits: UInt64) -> Double { (Double(bits >> 11) + 0.5) * 0x1.0p-53 }
}

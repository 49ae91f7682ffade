#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// One named, independent stream of random numbers.
///
/// Generator: xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear pseudorandom number
/// generators", ACM TOMS 2021), 256 bits of state, period 2^256 − 1.
///
/// Seeding: the stream named `name` in a run with seed `s` starts from the four outputs of
/// SplitMix64 (Steele, Lea & Flood, OOPSLA 2014) whose initial state is
/// `mix64(s) ^ fnv1a64(name)`, where `mix64` is SplitMix64's output function. A stream depends
/// only on the run seed and its own name, so creating, removing or drawing from another stream
/// never changes its draws. Name streams by what draws from them: `"node:7/mac/backoff"`.
@frozen
public struct RandomStream: Sendable {
    @usableFromInline var s0: UInt64
    @usableFromInline var s1: UInt64
    @usableFromInline var s2: UInt64
    @usableFromInline var s3: UInt64
    /// The second Box–Muller variate, kept for the next `normal` call.
    @usableFromInline var spareNormal: Double?

    /// The stream `name` of a run seeded with `seed`.
    public init(seed: UInt64, name: String) {
        var sm = SplitMix64(state: SplitMix64.mix(seed) ^ StableHash.fnv1a(name))
        s0 = sm.next()
        s1 = sm.next()
        s2 = sm.next()
        s3 = sm.next()
        spareNormal = nil
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }  // the one forbidden state; unreachable in practice
    }

    /// A stream with an explicit generator state (for checking against the reference
    /// implementation's test vectors). - Precondition: not all zero.
    init(state: (UInt64, UInt64, UInt64, UInt64)) {
        (s0, s1, s2, s3) = state
        spareNormal = nil
        precondition(s0 | s1 | s2 | s3 != 0)
    }

    /// The next 64 random bits (xoshiro256**).
    @inlinable @inline(__always)
    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    @inlinable @inline(__always)
    func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 &- k)) }

    /// Uniform on [0, 1), with 53 random bits.
    @inlinable @inline(__always)
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform on [lower, upper).
    @inlinable
    public mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * uniform()
    }

    /// Uniform integer in 0..<bound, unbiased (Lemire, "Fast random integer generation in an
    /// interval", ACM TOMS 2019).
    /// - Precondition: `bound > 0`.
    @inlinable
    public mutating func uniformInt(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "uniformInt(below: 0)")
        var m = next().multipliedFullWidth(by: bound)
        if m.low < bound {
            let threshold = (0 &- bound) % bound
            while m.low < threshold { m = next().multipliedFullWidth(by: bound) }
        }
        return m.high
    }

    /// Exponential with the given mean: `−mean · ln(1 − U)`, U uniform on [0, 1).
    @inlinable @inline(__always)
    public mutating func exponential(mean: Double) -> Double {
        -mean * log(1.0 - uniform())
    }

    /// Normal (Gaussian) by Marsaglia's polar method (Marsaglia & Bray, SIAM Review 1964): two
    /// variates per accepted pair, no trigonometry; every second call uses the spare variate.
    @inlinable
    public mutating func normal(mean: Double = 0, standardDeviation: Double = 1) -> Double {
        if let z = spareNormal {
            spareNormal = nil
            return mean + standardDeviation * z
        }
        var u: Double, v: Double, s: Double
        repeat {
            u = 2 * uniform() - 1
            v = 2 * uniform() - 1
            s = u * u + v * v
        } while s >= 1 || s == 0
        let factor = (-2 * log(s) / s).squareRoot()
        spareNormal = v * factor
        return mean + standardDeviation * u * factor
    }

    /// Log-normal: `exp(N(mu, sigma²))`; `mu` and `sigma` are those of the underlying normal.
    @inlinable
    public mutating func logNormal(mu: Double, sigma: Double) -> Double {
        exp(normal(mean: mu, standardDeviation: sigma))
    }

    /// `true` with probability `p` (p ≤ 0 never, p ≥ 1 always).
    @inlinable @inline(__always)
    public mutating func bernoulli(_ p: Double) -> Bool {
        uniform() < p
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014): used only to expand seeds into generator state.
@frozen
public struct SplitMix64: Sendable {
    /// The generator's counter state.
    public var state: UInt64

    /// A generator starting at `state`.
    @inlinable public init(state: UInt64) { self.state = state }

    /// The next 64-bit output.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// SplitMix64's output function (a bijective 64-bit mixer).
    @inlinable
    public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

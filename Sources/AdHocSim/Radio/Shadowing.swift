import Foundation

/// Spatially correlated log-normal shadowing, deterministic for a seed and a geometry.
///
/// A unit-variance Gaussian field F over the ground plane is defined by independent N(0, 1)
/// values on a square grid whose spacing is the correlation distance; each grid value is a
/// pure function of (run seed, grid cell), drawn from a `RandomStream` named after the cell.
/// Between grid points F is interpolated bilinearly and rescaled by 1/√(Σwᵢ²), so F is exactly
/// N(0, 1) at every point and its correlation falls from 1 to 0 over one grid spacing (a
/// piecewise-linear stand-in for Gudmundson's exponential decay; an approximation).
///
/// The shadowing of a link is X = σ · (F(a) + F(b)) / √2 ~ N(0, σ²): symmetric in its ends,
/// identical for two phones that move together, and correlated for nearby links, as the log-
/// distance model with shadowing in radio.md prescribes (PL(d) + X, X ~ N(0, σ²)).
public struct ShadowingField: Sendable {
    /// Standard deviation σ, dB.
    public let sigmaDb: Double
    /// Grid spacing: the correlation distance, m.
    public let correlationDistance: Double
    /// The run seed.
    public let seed: UInt64

    /// A field for one run.
    public init(sigmaDb: Double, correlationDistance: Double, seed: UInt64) {
        self.sigmaDb = sigmaDb
        self.correlationDistance = correlationDistance
        self.seed = seed
    }

    /// The N(0, 1) value at grid point (i, j).
    func gridValue(_ i: Int64, _ j: Int64) -> Double {
        var stream = RandomStream(seed: seed, name: "radio/shadowing/\(i),\(j)")
        return stream.normal()
    }

    /// F at a position (unit variance).
    public func unitValue(at p: Position) -> Double {
        let gx = p.x / correlationDistance, gy = p.y / correlationDistance
        let i = floor(gx), j = floor(gy)
        let fx = gx - i, fy = gy - j
        let w = [(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy]
        let (ii, jj) = (Int64(i), Int64(j))
        let v = [gridValue(ii, jj), gridValue(ii + 1, jj), gridValue(ii, jj + 1), gridValue(ii + 1, jj + 1)]
        var sum = 0.0, norm = 0.0
        for k in 0..<4 {
            sum += w[k] * v[k]
            norm += w[k] * w[k]
        }
        return sum / norm.squareRoot()
    }

    /// The shadowing of the link between `a` and `b`, dB (positive = extra loss).
    public func lossDb(between a: Position, and b: Position) -> Double {
        guard sigmaDb > 0 else { return 0 }
        return sigmaDb * (unitValue(at: a) + unitValue(at: b)) / 2.squareRoot()
    }
}

/// People crossing a link: a two-state (clear/blocked) process per link (radio.md, "Bodies and
/// crowds"). Clear periods last Exp(1/rate), blocked periods Exp(mean dwell); while blocked the
/// link loses `penaltyDb`. The process starts in its stationary state: blocked with
/// probability dwell/(dwell + 1/rate).
public struct BlockageProcess: Sendable {
    /// The parameters.
    public let spec: BlockageSpec
    var stream: RandomStream
    /// Whether the link is blocked until `nextChange`.
    public private(set) var blocked: Bool
    /// When the state next flips.
    public private(set) var nextChange: SimTime

    /// The process of one link, drawing from its own stream.
    public init(spec: BlockageSpec, stream: RandomStream) {
        self.spec = spec
        self.stream = stream
        let clearMean = spec.ratePerSecond > 0 ? 1 / spec.ratePerSecond : .infinity
        let pBlocked = spec.ratePerSecond > 0 ? spec.meanDwellSeconds / (spec.meanDwellSeconds + clearMean) : 0
        blocked = self.stream.bernoulli(pBlocked)
        nextChange = .zero
        nextChange = drawDuration(blocked: blocked)
    }

    mutating func drawDuration(blocked: Bool) -> SimTime {
        let mean = blocked ? spec.meanDwellSeconds : (spec.ratePerSecond > 0 ? 1 / spec.ratePerSecond : .infinity)
        guard mean.isFinite else { return .max }
        return nextChange + .seconds(stream.exponential(mean: mean))
    }

    /// The process `spec` drawing from `stream`, in `blocked` until `nextChange` (no draw): a
    /// process stored in parts (`StoredBlockage`) put back together.
    init(spec: BlockageSpec, stream: RandomStream, blocked: Bool, nextChange: SimTime) {
        self.spec = spec
        self.stream = stream
        self.blocked = blocked
        self.nextChange = nextChange
    }

    /// The process of the link between nodes `a` and `b` in a run seeded `seed`: its stream
    /// (`link:<lower>-<higher>/blockage`) depends only on the pair, so every radio of the two
    /// phones (Wi-Fi and Bluetooth) sees the same people pass between them.
    public static func forLink(_ a: Int, _ b: Int, spec: BlockageSpec, seed: UInt64) -> BlockageProcess {
        BlockageProcess(
            spec: spec,
            stream: RandomStream(seed: seed, name: "link:\(Swift.min(a, b))-\(Swift.max(a, b))/blockage"))
    }

    /// Whether the link is blocked at `time`. Times must not decrease between calls.
    public mutating func isBlocked(at time: SimTime) -> Bool {
        while time >= nextChange {
            blocked.toggle()
            nextChange = drawDuration(blocked: blocked)
        }
        return blocked
    }

    /// The extra loss at `time`, dB. Times must not decrease between calls.
    public mutating func penaltyDb(at time: SimTime) -> Double {
        isBlocked(at: time) ? spec.penaltyDb : 0
    }
}

/// A `BlockageProcess` as a channel with many links stores it: its stream's generator state,
/// and its state and when it next changes packed into one word (`~nextChange` while blocked),
/// 40 bytes instead of 80. The spec is the place's, the same for every link, and the stream's
/// spare normal variate is never set: a blockage process draws only uniforms and exponentials.
/// At 1 000 phones the 499 500 processes then take 20 MB instead of 40 MB, which the flips'
/// random reads feel (docs/decisions/2026-11-22-shared-medium.md, "The MAC side of a crowd, and where the floor is"); a 10 000-phone crowd
/// keeps some 14 million.
struct StoredBlockage: Sendable {
    var s0, s1, s2, s3: UInt64
    /// `nextChange` in nanoseconds (never negative), bitwise inverted while blocked.
    var change: Int64

    /// `process` stored.
    init(_ process: BlockageProcess) {
        assert(process.stream.spareNormal == nil, "a blockage process draws no normals")
        s0 = process.stream.s0
        s1 = process.stream.s1
        s2 = process.stream.s2
        s3 = process.stream.s3
        let next = process.nextChange.nanoseconds
        change = process.blocked ? ~next : next
    }

    /// Whether the link is blocked until `nextChange`.
    var blocked: Bool { change < 0 }

    /// When the state next flips.
    var nextChange: SimTime { SimTime(nanoseconds: change < 0 ? ~change : change) }

    /// Whether the link (of `spec`) is blocked at `time`, advancing it as
    /// `BlockageProcess.isBlocked(at:)` does, with the same draws.
    @inline(__always)
    mutating func isBlocked(at time: SimTime, spec: BlockageSpec) -> Bool {
        if time < nextChange { return blocked }
        var p = BlockageProcess(
            spec: spec, stream: RandomStream(state: (s0, s1, s2, s3)), blocked: blocked, nextChange: nextChange)
        let result = p.isBlocked(at: time)
        self = StoredBlockage(p)
        return result
    }
}

/// Small-scale fading per frame: Rician with factor K (linear), Rayleigh when K = 0.
///
/// The channel gain is h = √(K/(K+1)) + √(1/(K+1))·g with g complex Gaussian of unit power, so
/// E|h|² = 1 (fading neither adds nor removes power on average). The returned value is
/// 10·log10|h|² dB, added to the received power of one frame.
public enum RicianFading {
    /// One draw of the power gain |h|² (linear).
    @inlinable
    public static func gain(k: Double, stream: inout RandomStream) -> Double {
        let los = (k / (k + 1)).squareRoot()
        let scatter = (1 / (2 * (k + 1))).squareRoot()
        let re = los + scatter * stream.normal()
        let im = scatter * stream.normal()
        return Swift.max(re * re + im * im, 1e-12)
    }

    /// One draw of the fading gain, dB.
    public static func gainDb(k: Double, stream: inout RandomStream) -> Double {
        10 * log10(gain(k: k, stream: &stream))
    }
}

import Foundation

/// How likely a frame is to arrive intact at a given SINR. Swappable, like ns-3's error rate
/// models.
public protocol FrameErrorModel: Sendable {
    /// Probability that a frame of `bytes` at `mcs` is received without error at `sinrDb`.
    func successProbability(sinrDb: Double, mcs: Mcs, bytes: Int) -> Double
}

/// A logistic "waterfall" per MCS, calibrated to the SNR each MCS needs:
///
///     PER₁₀₀₀(s) = 1 / (1 + exp(k · (s − s₅₀)))     for a 1000-byte frame
///     PER(s, L)  = 1 − (1 − PER₁₀₀₀(s))^(L / 1000)   (independent 1000-byte pieces)
///
/// s₅₀ is placed so that PER₁₀₀₀ = 10 % exactly at the minimum SNR of the MCS: 2, 5, 9, 11, 15,
/// 18, 20, 25, 29, 31 dB for MCS 0–9 (hostap's throughput tables, radio.md). The SNR is taken
/// in the channel's own bandwidth, so it does not change with width; the sensitivity table's
/// 3 dB per doubling is the noise bandwidth. With the noise floor of a 7 dB noise figure, every
/// entry of the standard's sensitivity table (−82…−51 dBm) gives SNR ≥ the minimum SNR, so
/// PER ≤ 10 % for 1000-byte frames there, as the standard requires of real receivers.
///
/// k = 2 per dB is an assumption: PER falls from 10 % to 1 % over 1.2 dB, the steepness of
/// coded OFDM waterfalls in AWGN (e.g. the 802.11 TGax evaluation-methodology curves ns-3's
/// table-based model uses).
public struct WaterfallErrorModel: FrameErrorModel, Equatable {
    /// Minimum SNR per MCS 0–9 for 10 % PER at 1000 bytes, dB.
    public var minimumSnrDb: [Double] = [2, 5, 9, 11, 15, 18, 20, 25, 29, 31]
    /// Waterfall steepness, per dB.
    public var steepness = 2.0

    /// The default model.
    public init() {}

    /// PER of a 1000-byte frame.
    public func per1000(sinrDb: Double, mcs: Mcs) -> Double {
        let s50 = minimumSnrDb[mcs.index] - log(9) / steepness
        return 1 / (1 + exp(steepness * (sinrDb - s50)))
    }

    public func successProbability(sinrDb: Double, mcs: Mcs, bytes: Int) -> Double {
        pow(1 - per1000(sinrDb: sinrDb, mcs: mcs), Double(bytes) / 1000)
    }

    /// The SINR at which a frame of `bytes` at `mcs` succeeds with probability `p`, dB.
    public func sinrDb(forSuccess p: Double, mcs: Mcs, bytes: Int) -> Double {
        // Invert: (1 − PER₁₀₀₀)^(L/1000) = p  ⇒  PER₁₀₀₀ = 1 − p^(1000/L).
        let per = 1 - pow(p, 1000 / Double(bytes))
        let s50 = minimumSnrDb[mcs.index] - log(9) / steepness
        return s50 + log((1 - per) / per) / steepness
    }
}

/// A frame error model tabulated over its uncertain SINR band, so deciding a frame costs one
/// table lookup and one `exp` instead of a logarithm, an `exp` and a `pow`.
///
/// Per MCS it stores g(s) = ln P(success of a 1000-byte frame at SINR s) at s = 2^e·(1 + j/512):
/// 512 points per octave (0.006 dB apart), found from the bits of s without a logarithm (the
/// exponent, then the top 9 bits of the significand), with linear interpolation in s between
/// them. A frame of L bytes then succeeds with probability exp(L/1000 · g(s)): exact for models
/// whose success probability scales as a power of the length, as `WaterfallErrorModel`'s does
/// (PER(s, L) = 1 − (1 − PER₁₀₀₀(s))^(L/1000)). Interpolation error over the waterfall: under
/// 5·10⁻⁵ in g and 2·10⁻⁵ in a success probability (`FrameErrorTableTests`).
public struct FrameErrorTable: Sendable {
    @usableFromInline let firstExponent: [Int]
    @usableFromInline let values: [[Double]]

    static let pointsPerOctave = 512

    /// The table of `model` for SINRs (linear) from `lower` to `upper` per MCS.
    public init<M: FrameErrorModel>(_ model: M, lower: [Double], upper: [Double]) {
        var first: [Int] = []
        var values: [[Double]] = []
        for mcs in Mcs.all {
            let e0 = Int(lower[mcs.index].exponent)
            let e1 = Int(upper[mcs.index].exponent) + 1
            var row: [Double] = []
            for e in e0...e1 {
                for j in 0..<Self.pointsPerOctave {
                    let s = exp2(Double(e)) * (1 + Double(j) / Double(Self.pointsPerOctave))
                    let p = model.successProbability(sinrDb: Decibel.db(fromLinear: s), mcs: mcs, bytes: 1000)
                    row.append(log(Swift.max(p, 1e-300)))
                }
            }
            first.append(e0)
            values.append(row)
        }
        firstExponent = first
        self.values = values
    }

    /// ln P(success) of a 1000-byte frame at `sinr` (linear, inside the table's band) and `mcs`.
    @inlinable
    public func logSuccess1000(sinr: Double, mcs: Mcs) -> Double {
        let bits = sinr.bitPattern
        let exponent = Int((bits >> 52) & 0x7FF) - 1023
        let significand = bits & 0x000F_FFFF_FFFF_FFFF
        let j = Int(significand >> 43)
        let fraction = Double(significand & 0x0000_07FF_FFFF_FFFF) * 0x1.0p-43
        let row = values[mcs.index]
        let i = (exponent - firstExponent[mcs.index]) * 512 + j
        return row[i] + fraction * (row[i + 1] - row[i])
    }

    /// P(success) of a `bytes`-byte frame at `sinr` (linear) and `mcs`.
    @inlinable
    public func successProbability(sinr: Double, mcs: Mcs, bytes: Int) -> Double {
        exp(Double(bytes) / 1000 * logSuccess1000(sinr: sinr, mcs: mcs))
    }
}

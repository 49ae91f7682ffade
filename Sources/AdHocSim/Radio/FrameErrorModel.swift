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

import Foundation

/// How much the second spatial stream of a 2×2 link gets (`radio.spatialStreamModel`).
///
/// Between two handsets a few centimetres of antenna spacing face √(λ·d) of 0.2–1.3 m at
/// 1–30 m and 5 GHz, so the line-of-sight part of a 2×2 channel is nearly rank one (Bøhagen,
/// Orten and Øien, "Design of optimal high-rank line-of-sight MIMO channels", IEEE Trans.
/// Wireless Comm. 6(4), 2007: full rank needs spacings with d_t·d_r ≈ λ·D/n); a second stream
/// needs scattering (Foschini and Gans, Wireless Personal Comm. 6, 1998). With the place's
/// Rician K (line-of-sight to scattered power), `scattering` gives the second stream
///
///     SNR₂ = SNR · 1/(K + 1) · E[λ_min] / (tr/2) = SNR / (4·(K + 1))
///
/// only the scattered fraction 1/(K+1) of the power spans the second dimension, and within
/// it the weaker eigenmode of a 2×2 i.i.d. Rayleigh channel has mean 1/2 (the smallest
/// eigenvalue of a 2×2 complex Wishart matrix is exponential with mean 1/n, Edelman 1989)
/// against a per-stream mean of tr/2 = 2. So −6 dB with K = 0, −9 dB in the forest (K = 1),
/// −10.8 dB in a street (K = 2), −13 dB in a station (K = 4), −16.4 dB in a field (K = 10).
/// A two-stream frame uses one MCS on both streams (802.11ac equal modulation), so it decodes
/// at the weaker stream's SINR; rate selection then compares the best one-stream and the best
/// two-stream rate for the link and sends with the faster.
///
/// `ideal` (the switch for the ablation, and the model before): both streams at the full SNR.
/// Without fast fading (`fadingK: null`) there is no K, and the model is `ideal`.
public enum SpatialStreamModel: String, Sendable, CaseIterable {
    /// Second stream from the place's scattering (the default).
    case scattering
    /// Both streams at the link's SNR.
    case ideal

    /// The second stream's SNR relative to the link's (linear, ≤ 1) for Rician `k`.
    public func secondStreamGain(k: Double?) -> Double {
        guard self == .scattering, let k else { return 1 }
        return 1 / (4 * (k + 1))
    }
}

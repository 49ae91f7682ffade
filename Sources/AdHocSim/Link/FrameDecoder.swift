import Foundation

/// Whether an MPDU that ended at its receiver is decoded: the error model at the frame's SINR
/// (`WaterfallErrorModel`, tabulated by `FrameErrorTable`), with certain bounds outside which
/// no random number is drawn. One value per link, read by `WirelessLink.receive` and by its
/// batch for broadcasts (`receiveBroadcast`), so both decide alike.
struct FrameDecoder: Sendable {
    /// The PHY (how many streams a frame at an MCS uses).
    let phy: OfdmPhy
    /// The second spatial stream's SNR relative to the link's (`SpatialStreamModel`), linear;
    /// 1 when both streams get the full SNR or the PHY has one stream.
    let secondStreamGain: Double
    /// Per MCS: linear SINRs above which a frame surely succeeds, below which it surely fails
    /// (PER₁₀₀₀ beyond 1 − 10⁻¹² or below 10⁻¹²: 13.8 dB either side of the 50 % point). Outside
    /// them no random number is drawn and no logarithm taken; the error is below 10⁻⁹ per frame.
    let certainSuccess: [Double]
    let certainFailure: [Double]
    /// The frame error model tabulated between the two bounds.
    let errorTable: FrameErrorTable

    /// The decoder of `phy` whose second stream gets `secondStreamGain` of the SNR. The bounds
    /// and the table depend on the error model alone, so every link shares one copy (`Tables`).
    init(phy: OfdmPhy, secondStreamGain: Double) {
        self.phy = phy
        self.secondStreamGain = secondStreamGain
        let tables = Tables.waterfall
        certainSuccess = tables.certainSuccess
        certainFailure = tables.certainFailure
        errorTable = tables.errorTable
    }

    /// The certain bounds and the tabulated error model of `WaterfallErrorModel`, built once per
    /// process (about 60 000 logarithms: a run's set-up cost, paid again by every run and every
    /// sweep cell before).
    struct Tables: Sendable {
        let certainSuccess: [Double]
        let certainFailure: [Double]
        let errorTable: FrameErrorTable

        static let waterfall = Tables(WaterfallErrorModel())

        init(_ model: WaterfallErrorModel) {
            let margin: Double = log(1e12) / model.steepness
            let knee: Double = log(9) / model.steepness
            certainSuccess = Mcs.all.map { (m: Mcs) -> Double in
                Decibel.linear(fromDb: model.minimumSnrDb[m.index] - knee + margin + 1)
            }
            certainFailure = Mcs.all.map { (m: Mcs) -> Double in
                Decibel.linear(fromDb: model.minimumSnrDb[m.index] - knee - margin)
            }
            errorTable = FrameErrorTable(model, lower: certainFailure, upper: certainSuccess)
        }
    }

    /// Whether an MPDU of `bytes` at `mcs`, received at `signalMw` over `noiseMw` (noise plus
    /// interference), survives, drawing from `stream` only when the outcome is uncertain. A
    /// two-stream frame decodes at its weaker stream's SINR (`SpatialStreamModel`). A one-stream
    /// frame surely above the certain-success bound is decided without dividing (`surely`).
    /// The frame's `odds`, then its one MPDU.
    @inline(__always)
    func survives(signalMw: Double, noiseMw: Double, mcs: Mcs, bytes: Int, stream: inout RandomStream) -> Bool {
        var odds = odds(signalMw: signalMw, noiseMw: noiseMw, mcs: mcs)
        return survives(&odds, bytes: bytes, stream: &stream)
    }

    /// One frame's decoding at its receiver: every MPDU of a frame has the frame's signal, noise
    /// and MCS, so whether the outcome is certain is decided once per frame, and the success
    /// probability is computed once per MPDU length (an A-MPDU's subframes mostly share one).
    struct FrameOdds {
        /// Whether every MPDU surely succeeds (`true`), surely fails (`false`), or draws (`nil`).
        let certain: Bool?
        /// The SINR the MPDUs decode at, and their MCS.
        let sinr: Double, mcs: Mcs
        /// The MPDU length whose success probability is `p` (−1: none yet).
        var bytes = -1
        var p = 0.0
    }

    /// The odds of a frame at `mcs` received at `signalMw` over `noiseMw`.
    @inline(__always)
    func odds(signalMw: Double, noiseMw: Double, mcs: Mcs) -> FrameOdds {
        let twoStreams = phy.streams(mcs) == 2
        if !twoStreams && FrameDecoder.surely(signalMw, over: noiseMw, atLeast: certainSuccess[mcs.index]) {
            return FrameOdds(certain: true, sinr: 0, mcs: mcs)
        }
        let total = signalMw / noiseMw
        let sinr = twoStreams ? total * secondStreamGain : total
        if sinr >= certainSuccess[mcs.index] { return FrameOdds(certain: true, sinr: sinr, mcs: mcs) }
        if sinr <= certainFailure[mcs.index] { return FrameOdds(certain: false, sinr: sinr, mcs: mcs) }
        return FrameOdds(certain: nil, sinr: sinr, mcs: mcs)
    }

    /// Whether an MPDU of `bytes` of the frame whose odds are `odds` survives, drawing from
    /// `stream` only when the outcome is uncertain.
    @inline(__always)
    func survives(_ odds: inout FrameOdds, bytes: Int, stream: inout RandomStream) -> Bool {
        if let certain = odds.certain { return certain }
        if bytes != odds.bytes {
            odds.p = errorTable.successProbability(sinr: odds.sinr, mcs: odds.mcs, bytes: bytes)
            odds.bytes = bytes
        }
        return stream.uniform() < odds.p
    }

    /// Whether the correctly rounded quotient `signal / noise` is at least `threshold`, decided
    /// without dividing (false when it is too close to tell; the caller then divides): the
    /// product `threshold · noise` is rounded at most twice (relative error below 2⁻⁵²), so
    /// `signal` beyond it by the factor 1 + 2⁻⁴⁰ makes the exact quotient exceed `threshold` by
    /// more than the quotient's own rounding (2⁻⁵³). The same decision as `signal / noise ≥
    /// threshold`, bit for bit, at a multiplication's cost instead of a division's.
    @inline(__always)
    static func surely(_ signal: Double, over noise: Double, atLeast threshold: Double) -> Bool {
        signal >= threshold * noise * (1 + 0x1p-40)
    }
}

/// SNR-based rate selection with hysteresis, for `radio.mcs: "auto"`.
///
/// The transmitter keeps an estimate of the link's SNR (in the simulator, the median SNR of
/// the link without fast fading, as a receiver-side estimate fed back by ACKs would be) and
/// picks the fastest valid MCS whose 10 %-PER threshold for the frame's length lies at least
/// `margin` below it. To avoid flapping on noise, it moves up only when the estimate clears the
/// next MCS's threshold by `margin + hysteresis`, and down as soon as the current MCS's threshold
/// is no longer cleared by `margin`. Margin 2 dB and hysteresis 1 dB are assumptions (fast
/// fading and shadowing changes of a few dB are common; see radio.md's σ values).
public struct RateSelection: Sendable, Equatable {
    /// The PHY whose MCSs are eligible.
    public var phy: OfdmPhy
    /// The error model whose thresholds are used.
    public var errorModel: WaterfallErrorModel
    /// Safety margin below the estimate, dB.
    public var margin = 2.0
    /// Extra margin to move up, dB.
    public var hysteresis = 1.0
    /// The MCS currently in use.
    public private(set) var current: Mcs
    /// The PHY's valid MCSs, lowest first (computed once: `select` runs for every frame).
    let valid: [Mcs]

    /// Starts at the lowest MCS. With `explicitStreams`, the MCSs it returns carry that stream
    /// count (so a link with a two-stream PHY can send a frame with one).
    public init(phy: OfdmPhy, errorModel: WaterfallErrorModel = WaterfallErrorModel(), explicitStreams: Bool = false) {
        self.phy = phy
        self.errorModel = errorModel
        valid = phy.validMcs.map { explicitStreams ? Mcs(index: $0.index, streams: phy.spatialStreams) : $0 }
        current = valid[0]
    }

    /// The 10 %-PER SINR of `mcs` for frames of `bytes`.
    func threshold(_ mcs: Mcs, bytes: Int) -> Double { errorModel.sinrDb(forSuccess: 0.9, mcs: mcs, bytes: bytes) }

    /// Updates the choice for an SNR estimate and returns the MCS to use.
    public mutating func select(snrDb: Double, bytes: Int) -> Mcs {
        guard var position = valid.firstIndex(of: current) else { return current }
        while position > 0 && snrDb < threshold(valid[position], bytes: bytes) + margin { position -= 1 }
        while position + 1 < valid.count && snrDb >= threshold(valid[position + 1], bytes: bytes) + margin + hysteresis
        {
            position += 1
        }
        current = valid[position]
        return current
    }
}

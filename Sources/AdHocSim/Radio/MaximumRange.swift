/// The maximum range of a link: the largest distance at which a 1024-byte frame at the lowest
/// MCS is received with probability ≥ 50 %, with shadowing at its median (0 dB), no blockage
/// and no fast fading. A frame below the preamble-detection threshold is never
/// received, so the range is also bounded by that threshold.
///
/// Received power and SNR fall monotonically with distance (every loss term grows with it),
/// so the range is found by bisection to 1 cm.
public struct MaximumRange: Sendable {
    /// The frame length of the definition, bytes.
    public static let frameBytes = 1024
    /// Handheld antenna height, m (radio.md: "Handheld height 1.2 m").
    public static let handheldHeight = 1.2

    /// The place.
    public var place: PlaceParameters
    /// The radio.
    public var radio: RadioConfiguration
    /// The error model.
    public var errorModel = WaterfallErrorModel()

    /// A range calculation for a place and a radio.
    public init(place: PlaceParameters, radio: RadioConfiguration) {
        self.place = place
        self.radio = radio
    }

    /// What limits the range.
    public enum Limit: String, Sendable {
        /// The frame falls below the preamble-detection threshold first.
        case preambleDetection = "preamble detection"
        /// The frame's success probability falls below 50 % first.
        case frameErrors = "frame errors"
    }

    /// Median received power at `distance`, dBm.
    public func receivedPowerDbm(at distance: Double) -> Double {
        radio.txPowerDbm + 2 * radio.antennaGainDbi
            - place.medianLossDb(
                distance: distance, txHeight: MaximumRange.handheldHeight,
                rxHeight: MaximumRange.handheldHeight, frequencyHz: radio.frequencyHz)
    }

    /// The noise floor, dBm.
    public var noiseFloorDbm: Double {
        NoiseFloor.dbm(
            bandwidthHz: radio.bandwidthHz, noiseFigureDb: place.noiseFigureDb, interferenceDb: place.interferenceDb)
    }

    /// The weakest received power at which the definition holds, and what sets it.
    public var thresholdDbm: (dbm: Double, limit: Limit) {
        let lowest = radio.phy.validMcs[0]
        let snr50 = errorModel.sinrDb(forSuccess: 0.5, mcs: lowest, bytes: MaximumRange.frameBytes)
        let errorLimited = noiseFloorDbm + snr50
        return errorLimited > radio.preambleDetectionDbm
            ? (errorLimited, .frameErrors) : (radio.preambleDetectionDbm, .preambleDetection)
    }

    /// The range in metres (1 m when even 1 m fails; at most 100 km).
    public var metres: Double {
        let threshold = thresholdDbm.dbm
        var lo = 1.0, hi = 100_000.0
        if receivedPowerDbm(at: lo) < threshold { return lo }
        if receivedPowerDbm(at: hi) >= threshold { return hi }
        while hi - lo > 0.01 {
            let mid = (lo + hi) / 2
            if receivedPowerDbm(at: mid) >= threshold { lo = mid } else { hi = mid }
        }
        return lo
    }
}

extension MaximumRange {
    /// The range calculation for a scenario's place and radio.
    public init(_ scenario: Scenario) {
        let radio = RadioConfiguration(scenario.radio)
        self.init(place: PlaceParameters.resolve(scenario.environment, frequencyHz: radio.frequencyHz), radio: radio)
    }

    /// One line saying what the figure assumed.
    public var explanation: String {
        let t = thresholdDbm
        let lowest = radio.phy.validMcs[0]
        return "\(place.place.rawValue): n=\(NumberText.fixed(place.pathLossExponent, decimals: 2)), "
            + "PL(1 m)=\(NumberText.fixed(place.referenceLossDb, decimals: 1)) dB, "
            + (place.twoRayBreakpoint
                ? "two-ray breakpoint \(NumberText.fixed(place.pathLoss(frequencyHz: radio.frequencyHz).breakpointDistance(txHeight: MaximumRange.handheldHeight, rxHeight: MaximumRange.handheldHeight), decimals: 1)) m, "
                : "")
            + (place.foliage.map {
                "foliage \($0.rawValue) over \(NumberText.fixed(place.vegetatedFraction * 100, decimals: 0)) % of the path, "
            } ?? "")
            + "channel \(radio.channel.rawValue) \(radio.phy.widthMHz) MHz, MCS \(lowest.index) × \(radio.phy.spatialStreams) streams, "
            + "tx \(NumberText.fixed(radio.txPowerDbm, decimals: 2)) dBm, noise \(NumberText.fixed(noiseFloorDbm, decimals: 1)) dBm; "
            + "limited by \(t.limit.rawValue) at \(NumberText.fixed(t.dbm, decimals: 1)) dBm"
    }
}

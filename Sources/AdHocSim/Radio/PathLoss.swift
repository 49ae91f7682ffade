import Foundation

/// Distance-dependent loss between two antennas, in dB. Implementations are small values; the
/// channel evaluates them for every transmitter–receiver pair.
public protocol PathLossModel: Sendable {
    /// Median path loss (no shadowing, blockage or fading) at `distance` metres, between
    /// antennas at heights `txHeight` and `rxHeight` metres.
    func lossDb(distance: Double, txHeight: Double, rxHeight: Double) -> Double
}

/// Free-space path loss (Friis): FSPL(d) = 20·log10(4π·d·f/c) dB (radio.md, "Path loss").
public enum FreeSpace {
    /// FSPL in dB at `distance` metres and `frequencyHz`.
    public static func lossDb(distance: Double, frequencyHz: Double) -> Double {
        20 * log10(4 * Double.pi * distance * frequencyHz / speedOfLight)
    }
}

/// Log-distance path loss with an optional two-ray breakpoint:
///
///     PL(d) = PL(d0) + 10·n·log10(d/d0)                         for d ≤ dc
///     PL(d) = PL(dc) + 10·nFar·log10(d/dc)                      for d > dc
///
/// with d0 = 1 m and the two-ray breakpoint dc = 4·ht·hr/λ beyond which ground reflection
/// makes the exponent 4 (radio.md: "Two-ray ground reflection"; ≈ 47 m at 2.4 GHz and
/// ≈ 100–110 m at 5 GHz for handheld height 1.2 m). Distances below d0 are clamped to d0:
/// the model is not meant for the antenna's near field.
public struct LogDistancePathLoss: PathLossModel, Equatable {
    /// Loss at the 1 m reference distance, dB.
    public var referenceLossDb: Double
    /// Exponent n up to the breakpoint.
    public var exponent: Double
    /// Whether the two-ray breakpoint applies (open field).
    public var twoRayBreakpoint: Bool
    /// The carrier, Hz (for the breakpoint's wavelength).
    public var frequencyHz: Double
    /// The exponent beyond the breakpoint: 4 (two-ray ground reflection).
    public var farExponent: Double = 4

    /// A model with the given parameters.
    public init(referenceLossDb: Double, exponent: Double, twoRayBreakpoint: Bool, frequencyHz: Double) {
        self.referenceLossDb = referenceLossDb
        self.exponent = exponent
        self.twoRayBreakpoint = twoRayBreakpoint
        self.frequencyHz = frequencyHz
    }

    /// dc = 4·ht·hr/λ, metres.
    public func breakpointDistance(txHeight: Double, rxHeight: Double) -> Double {
        4 * txHeight * rxHeight * frequencyHz / speedOfLight
    }

    public func lossDb(distance: Double, txHeight: Double, rxHeight: Double) -> Double {
        let d = Swift.max(distance, 1)
        guard twoRayBreakpoint else { return referenceLossDb + 10 * exponent * log10(d) }
        let dc = Swift.max(breakpointDistance(txHeight: txHeight, rxHeight: rxHeight), 1)
        if d <= dc { return referenceLossDb + 10 * exponent * log10(d) }
        return referenceLossDb + 10 * exponent * log10(dc) + 10 * farExponent * log10(d / dc)
    }
}

/// Excess loss of the vegetated part of a path (radio.md, "Foliage excess loss").
public enum FoliageModel: String, Sendable, CaseIterable {
    /// Weissberger's modified exponential decay (f in GHz, d in m):
    /// 0.45·f^0.284·d for d ≤ 14 m; 1.33·f^0.284·d^0.588 for 14 < d ≤ 400 m.
    /// Beyond 400 m (outside the model's validity) the 400 m value grows with the same law,
    /// a labelled extrapolation.
    case weissberger
    /// ITU-R P.833 saturating model: A = Am·(1 − exp(−d·γ/Am)), Am = 1.15·f(MHz)^0.43 dB,
    /// γ = 0.32 dB/m (the middle of radio.md's 0.30–0.34 near 2 GHz; used at 5 GHz too, an
    /// assumption).
    case ituP833 = "itu-p833"

    /// Specific attenuation γ of the P.833 model, dB/m.
    public static let p833SpecificAttenuation = 0.32

    /// Excess loss in dB over `depth` metres of vegetation at `frequencyHz`.
    public func lossDb(depth: Double, frequencyHz: Double) -> Double {
        guard depth > 0 else { return 0 }
        switch self {
        case .weissberger:
            let f = frequencyHz / 1e9
            if depth <= 14 { return 0.45 * pow(f, 0.284) * depth }
            return 1.33 * pow(f, 0.284) * pow(depth, 0.588)
        case .ituP833:
            let am = 1.15 * pow(frequencyHz / 1e6, 0.43)
            return am * (1 - exp(-depth * FoliageModel.p833SpecificAttenuation / am))
        }
    }
}

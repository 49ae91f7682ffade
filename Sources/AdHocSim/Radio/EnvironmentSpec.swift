/// The places the thesis measured in (seed 000, Table 5), plus fully custom parameters.
public enum Place: String, Sendable, CaseIterable {
    case underground, city, field, forest, custom
}

/// A value that a preset supplies unless the file sets it, or switches off with `null`.
public enum PresetOverride<Value: Sendable & Equatable>: Sendable, Equatable {
    /// Not in the file: the preset's default applies.
    case preset
    /// `null` in the file: the effect is off.
    case off
    /// Set in the file.
    case value(Value)
}

/// The `blockage` object: a two-state clear/blocked process per link (radio.md, "Bodies and
/// crowds").
public struct BlockageSpec: Sendable, Equatable {
    /// Blockage events per second per link.
    public var ratePerSecond: Double
    /// Mean time a link stays blocked, seconds.
    public var meanDwellSeconds: Double
    /// Extra loss while blocked, dB.
    public var penaltyDb: Double
}

/// The `environment` section: a place preset and the values the file overrides.
/// The radio layer resolves the preset's cited defaults; here only the user's input lives.
public struct EnvironmentSpec: Sendable, Equatable {
    /// The place preset.
    public var place: Place
    /// Path-loss exponent n (`environment.pathLossExponent`).
    public var pathLossExponent: Double?
    /// Loss at the 1 m reference distance, dB (`environment.referenceLossDb`).
    public var referenceLossDb: Double?
    /// Log-normal shadowing σ, dB (`environment.shadowingSigmaDb`).
    public var shadowingSigmaDb: Double?
    /// Receiver noise figure, dB (`environment.noiseFigureDb`).
    public var noiseFigureDb: Double?
    /// Interference rise over thermal noise, dB (`environment.interferenceDb`).
    public var interferenceDb: Double?
    /// Rician K factor (linear; 0 = Rayleigh); `null` = no fast fading.
    public var fadingK: PresetOverride<Double>
    /// People blocking the path; `null` = none.
    public var blockage: PresetOverride<BlockageSpec>
    /// Whether the two-ray breakpoint applies (`environment.twoRayBreakpoint`).
    public var twoRayBreakpoint: Bool?
    /// Foliage loss model name (`environment.foliageModel`: "weissberger", "itu-p833"; null = none).
    public var foliage: PresetOverride<String>
    /// The vegetated fraction of every path, 0...1 (`environment.vegetatedFraction`).
    public var vegetatedFraction: Double?
    /// Shadowing correlation distance, m (`environment.shadowingCorrelationM`).
    public var shadowingCorrelationM: Double?

    /// A preset with nothing overridden.
    public init(place: Place) {
        self.place = place
        fadingK = .preset
        blockage = .preset
        foliage = .preset
    }

    /// The foliage models `environment.foliageModel` accepts.
    public static let foliageModels = ["weissberger", "itu-p833"]
}

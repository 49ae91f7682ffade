/// The link technologies a scenario can use (`radio.technology`).
public enum RadioTechnology: String, Sendable, CaseIterable {
    /// 802.11ac-class OFDM with the AWDL availability-window schedule.
    case awdl
    /// The same PHY and MAC without the AWDL schedule (plain 802.11 ad-hoc).
    case wifi
    /// A point-to-point link with fixed rate, delay and loss (the `link` section).
    case ideal
}

/// `radio.awdlPresence`: whether a node's AWDL sequence follows its traffic (`AwdlSchedule`).
public enum AwdlPresence: String, Sendable, CaseIterable {
    /// Idle and active sequences, switched by queued traffic (the default).
    case adaptive
    /// One sequence all the time (`awdlSlots`, default 6 of 16 slots).
    case fixed
}

/// `radio.rateControl`: how a transmitter picks the MCS of a unicast frame (`radio.mcs: "auto"`).
public enum RateControl: String, Sendable, CaseIterable {
    /// Learns from acknowledged and lost MPDUs, per peer (`MinstrelRateControl`; the default).
    case minstrel
    /// The median SNR of the link, with hysteresis (`RateSelection`; the model before).
    case medianSnr = "median-snr"
}

/// `radio.interactionMarginDb`: the optional per-pair interaction cutoff (`WirelessChannel`).
public enum InteractionMargin: Sendable, Equatable {
    /// A receiver is dropped when its mean power plus this many dB is below the noise floor.
    case db(Double)
    /// Six standard deviations of shadowing and fading combined, for the place.
    case safe
}

/// `radio.farField`: how the interaction cutoff (`radio.interactionMarginDb`) gives back the
/// energy of the pairs it leaves out (`WirelessChannel`, `SharedMedium`).
public enum FarField: String, Sendable, CaseIterable {
    /// Per grid cell, the mean power the transmitters on the air now would bring to a receiver
    /// there through the pairs the cutoff left out: instantaneous, updated as frames start and
    /// end (the default).
    case cells
    /// Per receiver, the mean power of every left-out transmitter times the network's mean
    /// transmit duty so far: a time average (the model before).
    case meanDuty = "mean-duty"
}

/// `radio.mcs`: rate selection or a fixed index.
public enum McsChoice: Sendable, Equatable {
    case auto
    case fixed(Int)
}

/// The `radio` section as the file gave it; the radio layer fills in cited defaults.
public struct RadioSpec: Sendable, Equatable {
    public var technology: RadioTechnology?
    public var txPowerDbm: Double?
    public var channel: Int?
    public var channelWidthMHz: Int?
    public var spatialStreams: Int?
    /// What the second spatial stream gets (`radio.spatialStreamModel`).
    public var spatialStreamModel: SpatialStreamModel?
    public var mcs: McsChoice?
    public var antennaGainDbi: Double?
    public var preambleDetectionDbm: Double?
    /// Default AWDL occupancy for every node (bit s = slot s); fixes presence.
    public var awdlSlots: UInt16?
    /// Whether AWDL presence follows traffic (`radio.awdlPresence`).
    public var awdlPresence: AwdlPresence?
    /// How unicast rates are chosen (`radio.rateControl`).
    public var rateControl: RateControl?
    /// How long unicast traffic keeps a pair on the active sequence after its last unicast
    /// frame, ms (`radio.awdlHoldMs`): 5 400, fitted to MatthiasBart/evaluation_notebook (Field,
    /// Forest, Home) by a grid over hold and switch-up with the fitted phone (docs/fidelity.md);
    /// no public source gives it (the logs show a change within about 6 s).
    public var awdlHoldMs = 5400.0
    /// How long after traffic is queued the active sequence can begin, ms (the next shared slot
    /// starting at least this late; `radio.awdlSwitchUpMs`): 0, fitted like `awdlHoldMs` (300
    /// and 600 ms scored no better on the development set).
    public var awdlSwitchUpMs = 0.0
    /// The per-pair interaction cutoff (`radio.interactionMarginDb`); `nil`: off.
    public var interactionMargin: InteractionMargin?
    /// How the cutoff gives back the left-out pairs' energy (`radio.farField`).
    public var farField: FarField?

    /// Nothing set.
    public init() {}
}

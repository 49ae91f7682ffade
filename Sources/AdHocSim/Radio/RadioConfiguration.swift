/// The radio of every node in a run, with every default resolved.
///
/// Defaults (radio.md unless said otherwise): technology `awdl`; channel 149 with an 80 MHz
/// channel ("the others use ch 149 (US) or ch 44 (EU), 80 MHz class"); two spatial streams
/// ("recent iPhones are 2×2"); transmit power 16.02 dBm (ns-3's default, inside the 12–16 dBm
/// usually assumed for phones at 5 GHz) with 0 dBi antennas ("about 0 dBi"); MCS chosen by
/// `RateSelection`; preamble detection at −82 dBm (ns-3, matching MCS 0's sensitivity).
public struct RadioConfiguration: Sendable, Equatable {
    /// The technology.
    public var technology: RadioTechnology
    /// Transmit power, dBm.
    public var txPowerDbm: Double
    /// Antenna gain at each end, dBi.
    public var antennaGainDbi: Double
    /// The channel.
    public var channel: WifiChannel
    /// The OFDM configuration (width, streams, band).
    public var phy: OfdmPhy
    /// Fixed MCS, or `nil` for rate selection.
    public var fixedMcs: Mcs?
    /// Frames received below this power are not detected at all, dBm.
    public var preambleDetectionDbm: Double
    /// What the second spatial stream gets (`radio.spatialStreamModel`, default scattering).
    public var spatialStreamModel: SpatialStreamModel
    /// The optional per-pair interaction cutoff (`radio.interactionMarginDb`; default off).
    public var interactionMargin: InteractionMargin?
    /// How the cutoff gives back the left-out pairs' energy (`radio.farField`; default cells).
    public var farField: FarField

    /// Resolves `spec`'s values over the defaults.
    public init(_ spec: RadioSpec) {
        technology = spec.technology ?? .awdl
        txPowerDbm = spec.txPowerDbm ?? 16.02
        antennaGainDbi = spec.antennaGainDbi ?? 0
        channel = WifiChannel(rawValue: spec.channel ?? 149) ?? .ch149
        let width = spec.channelWidthMHz ?? (channel == .ch6 ? 20 : 80)
        phy = OfdmPhy(widthMHz: width, spatialStreams: spec.spatialStreams ?? 2, is24GHz: channel == .ch6)
        if case .fixed(let i)? = spec.mcs { fixedMcs = Mcs(index: i) } else { fixedMcs = nil }
        preambleDetectionDbm = spec.preambleDetectionDbm ?? -82
        spatialStreamModel = spec.spatialStreamModel ?? .scattering
        interactionMargin = spec.interactionMargin
        farField = spec.farField ?? .cells
    }

    /// The carrier frequency, Hz.
    public var frequencyHz: Double { channel.centreFrequencyHz }
    /// The noise bandwidth, Hz.
    public var bandwidthHz: Double { Double(phy.widthMHz) * 1e6 }
}

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
    /// How long unicast traffic keeps a pair on the active sequence, ms (`radio.awdlHoldMs`).
    public var awdlHoldMs: Double?
    /// How long after traffic is queued the active sequence can begin, ms (`radio.awdlSwitchUpMs`).
    public var awdlSwitchUpMs: Double?
    /// The per-pair interaction cutoff (`radio.interactionMarginDb`); `nil`: off.
    public var interactionMargin: InteractionMargin?

    /// Nothing set.
    public init() {}
}

/// The `link` section of the `ideal` technology.
public struct IdealLinkSpec: Sendable, Equatable {
    /// Bit rate, Mbit/s (`link.rateMbps`).
    public var rateMbps: Double?
    /// One-way propagation delay, ms (`link.delayMs`).
    public var delayMs: Double?
    /// Independent loss probability per packet (`link.lossProbability`).
    public var lossProbability: Double?
    /// Transmit queue limit, packets (`link.queuePackets`).
    public var queuePackets: Int?

    /// Nothing set.
    public init() {}
}

/// Radio value bounds. Transmit power spans BLE's −20 dBm to above the EU's 23 dBm EIRP limit
/// (radio.md); the rest follow the 802.11 options the issue names.
enum RadioBounds {
    static let txPowerDbm: ClosedRange<Double> = -30...30
    static let antennaGainDbi: ClosedRange<Double> = -20...20
    static let preambleDetectionDbm: ClosedRange<Double> = -110 ... -40
    static let channels = [6, 44, 149]
    static let widths = [20, 40, 80]
}

extension ScenarioDecoder {
    func decodeRadio(_ node: JSONNode, _ path: JSONPath) -> RadioSpec? {
        guard
            let r = ObjectReader(
                node, path: path, sink: sink,
                expected: "an object describing the radio (\"technology\", \"txPowerDbm\", ...)")
        else {
            return nil
        }
        defer { r.finish() }
        var spec = RadioSpec()
        var ok = true
        func track<T>(_ value: T?) -> T? { if value == nil { ok = false }; return value }
        if let v = r.value("technology") {
            spec.technology = track(
                values.choice(v, path.appending("technology"), "a radio technology", of: RadioTechnology.self))
        }
        if let v = r.value("txPowerDbm") {
            spec.txPowerDbm = track(
                values.number(
                    v, path.appending("txPowerDbm"), "a transmit power in dBm in -30...30", in: RadioBounds.txPowerDbm))
        }
        if let v = r.value("antennaGainDbi") {
            spec.antennaGainDbi = track(
                values.number(
                    v, path.appending("antennaGainDbi"), "an antenna gain in dBi in -20...20",
                    in: RadioBounds.antennaGainDbi))
        }
        if let v = r.value("preambleDetectionDbm") {
            spec.preambleDetectionDbm = track(
                values.number(
                    v, path.appending("preambleDetectionDbm"), "a preamble-detection threshold in dBm in -110...-40",
                    in: RadioBounds.preambleDetectionDbm))
        }
        if let v = r.value("awdlSlots") {
            spec.awdlSlots = track(decodeSlots(v, path.appending("awdlSlots")))
        }
        if let v = r.value("awdlPresence") {
            spec.awdlPresence = track(
                values.choice(v, path.appending("awdlPresence"), "an AWDL presence model", of: AwdlPresence.self))
        }
        if let v = r.value("rateControl") {
            spec.rateControl = track(
                values.choice(v, path.appending("rateControl"), "a rate control", of: RateControl.self))
        }
        if let v = r.value("awdlHoldMs") {
            spec.awdlHoldMs = track(
                values.number(
                    v, path.appending("awdlHoldMs"), "a hold time in milliseconds in 0...60000", in: 0...60_000))
        }
        if let v = r.value("awdlSwitchUpMs") {
            spec.awdlSwitchUpMs = track(
                values.number(
                    v, path.appending("awdlSwitchUpMs"), "a switch-up delay in milliseconds in 0...60000",
                    in: 0...60_000))
        }
        if let v = r.value("interactionMarginDb") {
            let what = "a margin in dB in 0...100, \"safe\" (6σ of shadowing and fading), or null (off)"
            switch v.value {
            case .null: spec.interactionMargin = nil
            case .string("safe"): spec.interactionMargin = .safe
            case .number:
                spec.interactionMargin = track(
                    values.number(v, path.appending("interactionMarginDb"), what, in: 0...100)
                ).map { .db($0) }
            default:
                sink.report(
                    "expected \(what), found \(v.value.summary)", path: path.appending("interactionMarginDb"),
                    at: v.origin)
                _ = track(Optional<Int>.none)
            }
        }
        if let v = r.value("channel") {
            spec.channel = track(values.oneOf(v, path.appending("channel"), "a channel", RadioBounds.channels))
        }
        if let v = r.value("channelWidthMHz") {
            spec.channelWidthMHz = track(
                values.oneOf(v, path.appending("channelWidthMHz"), "a channel width in MHz", RadioBounds.widths))
        }
        if let v = r.value("spatialStreamModel") {
            spec.spatialStreamModel = track(
                values.choice(
                    v, path.appending("spatialStreamModel"), "a spatial-stream model", of: SpatialStreamModel.self))
        }
        if let v = r.value("spatialStreams") {
            spec.spatialStreams = track(
                values.oneOf(v, path.appending("spatialStreams"), "a number of spatial streams", [1, 2]))
        }
        if let v = r.value("mcs") {
            if case .string("auto") = v.value {
                spec.mcs = .auto
            } else if case .number = v.value {
                spec.mcs = track(
                    values.integer(v, path.appending("mcs"), "an MCS index in 0...9 or \"auto\"", in: 0...9).map {
                        .fixed(Int($0))
                    })
            } else {
                sink.report(
                    "expected an MCS index in 0...9 or \"auto\", found \(v.value.summary)", path: path.appending("mcs"),
                    at: v.origin)
                ok = false
            }
        }
        if ok, let channel = spec.channel, channel == 6, let width = spec.channelWidthMHz, width != 20 {
            sink.report(
                "channel 6 (2.4 GHz) carries 20 MHz only; found \(width)", path: path.appending("channelWidthMHz"),
                at: r.value("channelWidthMHz")!.origin)
            ok = false
        }
        if ok, case .fixed(9)? = spec.mcs, spec.channelWidthMHz == 20 {
            sink.report(
                "MCS 9 does not exist at 20 MHz for one or two streams (IEEE 802.11-2016 Table 21-30); use 0...8 or a wider channel",
                path: path.appending("mcs"), at: r.value("mcs")!.origin)
            ok = false
        }
        return ok ? spec : nil
    }

    func decodeIdealLink(_ node: JSONNode, _ path: JSONPath) -> IdealLinkSpec? {
        guard
            let r = ObjectReader(
                node, path: path, sink: sink,
                expected: "an object {\"rateMbps\", \"delayMs\", \"lossProbability\", \"queuePackets\"}")
        else {
            return nil
        }
        defer { r.finish() }
        var spec = IdealLinkSpec()
        var ok = true
        if let v = r.value("rateMbps") {
            // At least 1 kbit/s, so that serialising the largest packet stays within the clock's range.
            spec.rateMbps = values.number(
                v, path.appending("rateMbps"), "a rate in Mbit/s in 0.001...100000", in: 0.001...100_000)
            if spec.rateMbps == nil { ok = false }
        }
        if let v = r.value("delayMs") {
            spec.delayMs = values.duration(
                v, path.appending("delayMs"), "a one-way delay in ms in 0...100000", unit: 0.001, upTo: 100_000,
                allowZero: true)
            if spec.delayMs == nil { ok = false }
        }
        if let v = r.value("lossProbability") {
            spec.lossProbability = values.number(
                v, path.appending("lossProbability"), "a loss probability in 0...1", in: 0...1)
            if spec.lossProbability == nil { ok = false }
        }
        if let v = r.value("queuePackets") {
            spec.queuePackets = values.integer(
                v, path.appending("queuePackets"), "a queue limit in packets in 1...1000000", in: 1...1_000_000
            ).map(Int.init)
            if spec.queuePackets == nil { ok = false }
        }
        return ok ? spec : nil
    }
}

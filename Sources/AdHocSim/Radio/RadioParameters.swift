/// The `radio` section's keys, each declared once: the decoder's checks and
/// messages, the schema's `radio` object and the table in `docs/models/radio.md` come from
/// here. The defaults are the ones `RadioConfiguration`, `AwdlSchedule` and `WirelessLink`
/// resolve; ranges reject nonsense, not unusual radios (transmit power spans BLE's −20 dBm to
/// above the EU's 23 dBm EIRP limit, radio.md; the rest are the 802.11 options the model has).
enum RadioParameters {
    static let section = ParameterSection<RadioSpec>(
        "radio",
        [
            Parameter(
                "technology",
                .choice(
                    RadioTechnology.allCases.map(\.rawValue), set: { $0.technology = RadioTechnology(rawValue: $1) }),
                default: "\"awdl\"", help: "AWDL, plain 802.11 ad hoc on the same PHY, or an ideal point-to-point link",
                expected: "a radio technology", source: .cited("radio.md, \"AWDL (Apple Wireless Direct Link)\"")),
            Parameter(
                "txPowerDbm", .number(-30...30, unit: "dBm", set: { $0.txPowerDbm = $1 }), default: "16.02",
                help: "transmit power", expected: "a transmit power in dBm in {range}",
                source: .cited("ns-3's default, inside the 12–16 dBm radio.md gives for phones at 5 GHz")),
            Parameter(
                "antennaGainDbi", .number(-20...20, unit: "dBi", set: { $0.antennaGainDbi = $1 }), default: "0",
                help: "antenna gain at each end", expected: "an antenna gain in dBi in {range}",
                source: .cited("radio.md: a phone's antenna is about 0 dBi")),
            Parameter(
                "preambleDetectionDbm", .number(-110 ... -40, unit: "dBm", set: { $0.preambleDetectionDbm = $1 }),
                default: "-82", help: "frames received below this power are not detected at all",
                expected: "a preamble-detection threshold in dBm in {range}",
                source: .cited("radio.md: ns-3 refuses frames below −82 dBm RSSI, matching MCS 0's sensitivity")),
            Parameter(
                "awdlSlots",
                .custom(
                    schema: .ref("awdlSlots"), value: "distinct slot indices 0 … 15",
                    decode: { values, v, at, _, spec in
                        guard let mask = values.slots(v, at) else { return false }
                        spec.awdlSlots = mask
                        return true
                    }),
                default: "the awdlPresence sequences",
                help: "every node's AWDL slots; setting it fixes the presence at these slots",
                expected: "an array of AWDL slot indices 0...15",
                source: .cited(
                    "owl `awdl_chanseq_init_idle` and the logged iPhones (radio.md); fixed: slots {0, 1, 2, 9, 10, 11}")
            ),
            Parameter(
                "awdlPresence",
                .choice(AwdlPresence.allCases.map(\.rawValue), set: { $0.awdlPresence = AwdlPresence(rawValue: $1) }),
                default: "\"adaptive\"",
                help: "idle and active AWDL sequences switched by traffic, or one fixed sequence",
                expected: "an AWDL presence model", source: .cited("owl issue 3's idle and active sequences (radio.md)")
            ),
            Parameter(
                "rateControl",
                .choice(RateControl.allCases.map(\.rawValue), set: { $0.rateControl = RateControl(rawValue: $1) }),
                default: "\"minstrel\"",
                help: "how `mcs: \"auto\"` picks a unicast rate: learning from losses, or the median SNR",
                expected: "a rate control",
                source: .cited("Linux mac80211 `rc80211_minstrel_ht.c` (radio.md, \"Wi-Fi rate control\")")),
            Parameter(
                "awdlHoldMs", .number(0...60_000, unit: "ms", set: { $0.awdlHoldMs = $1 }),
                default: JSONNumber(RadioSpec().awdlHoldMs).literal,
                help: "how long a pair stays on the active sequence after its last unicast frame",
                expected: "a hold time in milliseconds in {range}", source: .fitted),
            Parameter(
                "awdlSwitchUpMs", .number(0...60_000, unit: "ms", set: { $0.awdlSwitchUpMs = $1 }),
                default: JSONNumber(RadioSpec().awdlSwitchUpMs).literal,
                help: "how long after traffic is queued the active sequence can begin",
                expected: "a switch-up delay in milliseconds in {range}", source: .fitted),
            Parameter(
                "interactionMarginDb",
                .custom(
                    schema: .anyOf([.null, .number.minimum(0).maximum(100), .const("safe")]),
                    value: "0 … 100 dB, `\"safe\"`, or `null` (off)", decode: decodeMargin),
                default: "null",
                help:
                    "drop a receiver whose mean power plus this margin is below the noise floor (`\"safe\"`: 6σ of shadowing and fading)",
                expected: "a margin in dB in 0...100, \"safe\" (6σ of shadowing and fading), or null (off)",
                source: .assumption("off, so every pair interacts as the physics says")),
            Parameter(
                "farField", .choice(FarField.allCases.map(\.rawValue), set: { $0.farField = FarField(rawValue: $1) }),
                default: "\"cells\"",
                help:
                    "with the cutoff, how the left-out pairs' energy comes back: per 50 m cell from the frames on the air now, or as a time-averaged duty",
                expected: "a far-field model",
                source: .assumption(
                    "an instantaneous aggregate keeps interference peaks a time average loses; measured in docs/decisions/2026-11-22-shared-medium.md"
                )),
            Parameter(
                "channel", .oneOf([6, 44, 149], unit: "", set: { $0.channel = $1 }), default: "149",
                help: "the AWDL or Wi-Fi channel", expected: "a channel",
                source: .cited("radio.md: \"the others use ch 149 (US) or ch 44 (EU)\"")),
            Parameter(
                "channelWidthMHz", .oneOf([20, 40, 80], unit: "MHz", set: { $0.channelWidthMHz = $1 }),
                default: "80 (20 on channel 6)", help: "the channel width; channel 6 carries 20 MHz only",
                expected: "a channel width in MHz", source: .cited("radio.md: \"80 MHz class\"")),
            Parameter(
                "spatialStreamModel",
                .choice(
                    SpatialStreamModel.allCases.map(\.rawValue),
                    set: { $0.spatialStreamModel = SpatialStreamModel(rawValue: $1) }),
                default: "\"scattering\"",
                help: "what the second stream gets: the place's scattered power, or the full SNR",
                expected: "a spatial-stream model",
                source: .cited(
                    "Bøhagen, Orten and Øien, IEEE Trans. Wireless Comm. 6(4), 2007; Edelman 1989 (`SpatialStreamModel`)"
                )),
            Parameter(
                "spatialStreams", .oneOf([1, 2], unit: "", set: { $0.spatialStreams = $1 }), default: "2",
                help: "spatial streams", expected: "a number of spatial streams",
                source: .cited("radio.md: \"recent iPhones are 2×2\"")),
            Parameter(
                "mcs",
                .custom(
                    schema: .anyOf([.const("auto"), .integer.minimum(0).maximum(9)]),
                    value: "`\"auto\"`, or 0 … 9", decode: decodeMcs),
                default: "\"auto\"", help: "rate control (`\"auto\"`) or one fixed VHT MCS index",
                expected: "an MCS index in 0...9 or \"auto\"",
                source: .cited("`radio.rateControl` picks; indices of IEEE 802.11-2016 Table 21-30"))
        ], objectExpected: "an object describing the radio (\"technology\", \"txPowerDbm\", ...)",
        description: "the radio of every node")

    static func milliseconds(_ t: SimTime) -> String { JSONNumber(Double(t.nanoseconds) / 1e6).literal }

    /// `interactionMarginDb`: a number, `"safe"` or `null`.
    @Sendable static func decodeMargin(
        _ values: ValueReader, _ v: JSONNode, _ at: JSONPath, _ what: String, _ spec: inout RadioSpec
    ) -> Bool {
        switch v.value {
        case .null: spec.interactionMargin = nil
        case .string("safe"): spec.interactionMargin = .safe
        case .number:
            guard let db = values.number(v, at, what, in: 0...100) else { return false }
            spec.interactionMargin = .db(db)
        default:
            values.sink.report("expected \(what), found \(v.value.summary)", path: at, at: v.origin)
            return false
        }
        return true
    }

    /// `mcs`: `"auto"` or an index.
    @Sendable static func decodeMcs(
        _ values: ValueReader, _ v: JSONNode, _ at: JSONPath, _ what: String, _ spec: inout RadioSpec
    ) -> Bool {
        if case .string("auto") = v.value {
            spec.mcs = .auto
        } else if case .number = v.value {
            guard let i = values.integer(v, at, what, in: 0...9) else { return false }
            spec.mcs = .fixed(Int(i))
        } else {
            values.sink.report("expected \(what), found \(v.value.summary)", path: at, at: v.origin)
            return false
        }
        return true
    }
}

extension ScenarioDecoder {
    /// Decodes a `radio` object by its declarations, then the rules between its keys.
    func decodeRadio(_ node: JSONNode, _ path: JSONPath) -> RadioSpec? {
        guard let spec = decode(RadioParameters.section, node, path, into: RadioSpec(), perNode: false) else {
            return nil
        }
        func origin(_ key: String) -> ValueOrigin { node.members?.first { $0.key == key }?.value.origin ?? node.origin }
        if spec.channel == 6, let width = spec.channelWidthMHz, width != 20 {
            sink.report(
                "channel 6 (2.4 GHz) carries 20 MHz only; found \(width)", path: path.appending("channelWidthMHz"),
                at: origin("channelWidthMHz"))
            return nil
        }
        // A key that cannot act is bad input, not a silent default.
        if spec.farField != nil && spec.interactionMargin == nil {
            sink.report(
                "\"farField\" says how the interaction cutoff gives back the pairs it leaves out; without the cutoff (\"interactionMarginDb\" a number or \"safe\") every pair interacts and it does nothing",
                path: path.appending("farField"), at: origin("farField"))
            return nil
        }
        if case .fixed(9)? = spec.mcs, spec.channelWidthMHz == 20 {
            sink.report(
                "MCS 9 does not exist at 20 MHz for one or two streams (IEEE 802.11-2016 Table 21-30); use 0...8 or a wider channel",
                path: path.appending("mcs"), at: origin("mcs"))
            return nil
        }
        return spec
    }
}

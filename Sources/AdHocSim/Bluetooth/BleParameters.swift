/// The `ble` section's keys, each declared once: the section's own settings, its
/// `estimator`, and the keys of each advertiser, scanner and 2.4 GHz Wi-Fi transmitter. The
/// decoder's checks and messages, the schema's `ble` objects and the tables in
/// `docs/models/bluetooth-le.md` come from here. An advertiser's and a scanner's defaults
/// depend on its `profile` (`BleProfiles`, which documents their sources): the profile is
/// declared first, and setting it resets the item to that profile's defaults before the later
/// keys apply. Rules between keys stay in code after the declarations (`decodeAdvertiser`,
/// `decodeScanner`, `decodeBleWifi`, `decodeBle`).
enum BleParameters {
    /// One list item being read: the item, its profile, and what its keys refer to.
    struct Item<Value>: Sendable, NodeReferencing, RunBounded where Value: Sendable {
        /// Node ids to indices.
        let nodeIndex: [String: Int]
        /// The run's duration, s (`startS` must fall within it).
        let runDuration: Double?
        /// `profile`, when given.
        var profile: BleAppProfile?
        /// The item, its defaults overwritten key by key.
        var value: Value
    }

    typealias Advertiser = Item<BleAdvertiserSpec>
    typealias Scanner = Item<BleScannerSpec>
    typealias Wifi = Item<BleWifiSpec>

    static let rotation = "an address rotation interval in seconds, {range}"
    static let rotationSource = Parameter<BleSpec>.Source.cited(
        "radio.md: random addresses are encouraged to change every 15 minutes")

    /// `ble`'s own settings and its `estimator`.
    static let section = ParameterSection<BleSpec>(
        "ble",
        [
            Parameter(
                "addressRotationS",
                .duration(
                    upTo: 1_000_000, unit: "s", scale: 1, allowZero: false, nullable: false,
                    set: { if let x = $1 { $0.addressRotationS = x } }),
                default: JSONNumber(BleSpec().addressRotationS).literal, help: "how often a private address changes",
                expected: rotation, source: rotationSource),
            Parameter(
                "limitedDiscoverableS",
                .duration(
                    upTo: 180, unit: "s", scale: 1, allowZero: false, nullable: false,
                    set: { if let x = $1 { $0.limitedDiscoverableS = x } }),
                default: JSONNumber(BleSpec().limitedDiscoverableS).literal,
                help:
                    "how long a limited discoverable device advertises: 180 s (Core 5.x) or 30.72 s (Core 4.x, seed 004)",
                expected: "TGAP(lim_adv_timeout) in seconds: more than 0, at most 180",
                source: .cited("Core Specification v5.4, Vol 3, Part C, Appendix A; Core 4.x: 30.72 s")),
            Parameter(
                "recordRssi", .bool(set: { $0.recordRssi = $1 }), default: "\(BleSpec().recordRssi)",
                help: "write every RSSI sample an app sees to `ble_rssi.csv`", expected: "true or false",
                source: .assumption("off: the file grows with every advertisement heard")),
            Parameter(
                "wifiInterference", .bool(set: { $0.wifiInterference = $1 }), default: "\(BleSpec().wifiInterference)",
                help: "the `wifi` transmitters reach LE receivers (the coexistence switch, for ablations)",
                expected: "true or false",
                source: .cited(
                    "radio.md: channels 37–39 and Wi-Fi channel 6 share 2.4 GHz; the 802.11 OFDM transmit mask"))
        ],
        subsections: [
            ParameterSection(
                "estimator",
                [
                    Parameter(
                        "exponent", .number(1...6, unit: "", set: { $0.estimatorExponent = $1 }),
                        default: JSONNumber(BleSpec().estimatorExponent).literal,
                        help: "the path-loss exponent a scanner app assumes to turn RSSI into distance",
                        expected: "a path-loss exponent in {range}",
                        source: .assumption("free space: what an app that knows nothing about the place uses")),
                    Parameter(
                        "assumedTxPowerDbm", .number(-20...20, unit: "dBm", set: { $0.estimatorTxPowerDbm = $1 }),
                        default: JSONNumber(BleSpec().estimatorTxPowerDbm).literal,
                        help: "the TX power the app assumes when the advertiser does not advertise its own",
                        expected: "a TX power in dBm, {range}", source: .assumption("0 dBm"))
                ], objectExpected: "an object {\"exponent\"?, \"assumedTxPowerDbm\"?}")
        ],
        objectExpected: "an object {\"advertisers\", \"scanners\", \"wifi\"?, \"addressRotationS\"?, ...}",
        description: "Bluetooth LE beside the Wi-Fi world")

    static let profileSource = Parameter<Advertiser>.Source.cited(
        "`BleProfiles`: Apple's Core Bluetooth guide, radio.md, assumptions named there")

    /// An advertiser's default of `key` without a profile and per profile, as the docs show it.
    static func advertiserDefault<T: Equatable>(_ key: KeyPath<BleAdvertiserSpec, T>, _ text: (T) -> String) -> String {
        perProfile { text(BleProfiles.advertiser($0, node: 0)[keyPath: key]) }
    }

    /// A scanner's default of `key`, likewise.
    static func scannerDefault<T: Equatable>(_ key: KeyPath<BleScannerSpec, T>, _ text: (T) -> String) -> String {
        perProfile { text(BleProfiles.scanner($0, node: 0)[keyPath: key]) }
    }

    static func perProfile(_ text: (BleAppProfile?) -> String) -> String {
        let plain = text(nil)
        let others = BleAppProfile.allCases.filter { text($0) != plain }
        guard !others.isEmpty else { return plain }
        return "`\(plain)`; " + others.map { "`\($0.rawValue)`: `\(text($0))`" }.joined(separator: "; ")
    }

    static func number(_ x: Double) -> String { JSONNumber(x).literal }

    /// An advertiser's AdvData or ScanRspData as AD structures (`BleAdDecoding`).
    static func adStructures(
        _ key: String, default value: String, help: String, source: String,
        set: @escaping @Sendable (inout Advertiser, BleAdvertisingData) -> Void
    ) -> Parameter<Advertiser> {
        Parameter(
            key,
            .custom(
                schema: BleAdDecoding.schema, value: "a list of AD structures (≤ 31 bytes in all)",
                decode: { values, v, at, _, item in
                    guard let d = BleAdDecoding.decode(values, v, at) else { return false }
                    set(&item, d)
                    return true
                }),
            default: value, help: help, expected: "a list of AD structures", source: .cited(source))
    }

    /// `ble.advertisers[i]`.
    static let advertiser = ParameterSection<Advertiser>(
        "ble.advertisers[i]",
        [
            node(),
            Parameter(
                "profile",
                .choice(
                    BleAppProfile.allCases.map(\.rawValue),
                    set: { item, word in
                        item.profile = BleAppProfile(rawValue: word)
                        item.value = BleProfiles.advertiser(item.profile, node: item.value.node)
                    }),
                default: "null (an accessory)", help: "the iOS app state whose defaults apply (set first)",
                expected: "an app profile", source: profileSource),
            Parameter(
                "pdu",
                .custom(
                    schema: .oneOf(words: ["ADV_IND", "ADV_DIRECT_IND", "ADV_NONCONN_IND", "ADV_SCAN_IND"]),
                    value: BlePduType.advertising.map { "`\"\($0.rawValue)\"`" }.joined(separator: ", "),
                    decode: decodePdu),
                default: advertiserDefault(\.pdu) { "\"\($0.rawValue)\"" }, help: "the legacy advertising PDU type",
                expected: "an advertising PDU type", source: .cited("Core Specification v5.4, Vol 6, Part B §2.3.1")),
            Parameter(
                "intervalMs",
                .custom(
                    schema: .number.minimum(20).maximum(10240).multipleOf(0.625),
                    value: "20 … 10240 ms, a multiple of 0.625",
                    decode: { values, v, at, _, item in
                        guard
                            let ms = values.bleGridMs(
                                v, at, "an advertising interval", BleTiming.advertisingIntervalRangeMs)
                        else { return false }
                        item.value.intervalMs = ms
                        return true
                    }),
                default: advertiserDefault(\.intervalMs, number), help: "advInterval",
                expected: "an advertising interval", source: profileSource),
            Parameter(
                "randomDelayMs", .number(0...10, unit: "ms", set: { $0.value.randomDelayMs = $1 }),
                default: advertiserDefault(\.randomDelayMs, number),
                help:
                    "the upper end of the random advDelay added to every event (0 only to validate delay-free analyses)",
                expected: "the largest random advDelay in ms, {range}",
                source: .cited("Core Specification v5.4, Vol 6, Part B §4.4.2.2.1")),
            Parameter(
                "payloadBytes",
                .integer(0...UInt64(BlePduType.maxDataBytes), unit: "bytes", set: { $0.value.payloadBytes = $1 }),
                default: advertiserDefault(\.payloadBytes) { "\($0)" }, help: "AdvData bytes",
                expected: "advertising data bytes, {range} (a legacy PDU carries at most 31)", source: profileSource),
            Parameter(
                "scanResponseBytes",
                .integer(0...UInt64(BlePduType.maxDataBytes), unit: "bytes", set: { $0.value.scanResponseBytes = $1 }),
                default: advertiserDefault(\.scanResponseBytes) { "\($0)" },
                help: "ScanRspData bytes (scannable PDUs only)",
                expected: "scan response data bytes, {range} (a legacy PDU carries at most 31)", source: profileSource),
            Parameter(
                "txPowerDbm", .number(-20...20, unit: "dBm", set: { $0.value.txPowerDbm = $1 }),
                default: advertiserDefault(\.txPowerDbm, number), help: "transmit power",
                expected: "a TX power in dBm, {range}", source: profileSource),
            Parameter(
                "advertisesTxPower", .bool(set: { $0.value.advertisesTxPower = $1 }),
                default: advertiserDefault(\.advertisesTxPower) { "\($0)" },
                help:
                    "the advertising data carries the TX Power Level AD type (an estimator uses it; not for iOS apps)",
                expected: "true or false", source: .cited("Core Specification Supplement, Part A §1.5")),
            Parameter(
                "phy",
                .custom(
                    schema: .oneOf(words: ["1M", "coded-s2", "coded-s8"]),
                    value: "`\"1M\"`, `\"coded-s2\"`, `\"coded-s8\"`",
                    decode: decodePhy),
                default: advertiserDefault(\.phy) { "\"\($0.rawValue)\"" },
                help: "the PHY of the primary advertising PDUs",
                expected: "an advertising PHY", source: .cited("Core Specification v5.4, Vol 6, Part B §4.4.2")),
            Parameter(
                "address",
                .choice(
                    BleAddressType.allCases.map(\.rawValue),
                    set: { if let a = BleAddressType(rawValue: $1) { $0.value.address = a } }),
                default: advertiserDefault(\.address) { "\"\($0.rawValue)\"" }, help: "the advertiser's address type",
                expected: "an address type",
                source: .assumption("a phone uses a resolvable private address (`BleProfiles`)")),
            Parameter(
                "service",
                .string(.any, set: { $0.value.service = $1 }),
                default: "null", help: "a service UUID it advertises (scanners may filter on it)",
                expected: "a service UUID", source: .assumption("none")),
            adStructures(
                "data", default: "null (only `payloadBytes`)",
                help:
                    "the AdvData as AD structures: flags, name, shortName, uuids16, uuids128, serviceData16, manufacturer, txPower; sets `payloadBytes` and `advertisesTxPower`",
                source: "Core Specification Supplement, Part A §1; Core Specification v5.4, Vol 6, Part B §2.3.1.1"
            ) { $0.value.data = $1 },
            adStructures(
                "scanResponseData", default: "null (only `scanResponseBytes`)",
                help: "the ScanRspData as AD structures; sets `scanResponseBytes`",
                source: "Core Specification Supplement, Part A §1"
            ) { $0.value.scanResponseData = $1 },
            Parameter(
                "connected",
                .custom(
                    schema: .array(of: .array(of: .number.minimum(0)).minItems(2).maxItems(2)),
                    value: "a list of `[fromS, toS]`, in time order, not overlapping",
                    decode: { values, v, at, _, item in
                        guard let windows = values.bleWindows(v, at, upTo: item.runDuration) else { return false }
                        item.value.connected = windows
                        return true
                    }),
                default: "`[]`",
                help:
                    "when the device is connected to a central the scenario does not simulate (its phone or computer)",
                expected: "connection times", source: .assumption("none")),
            Parameter(
                "advertisesWhenConnected", .bool(set: { $0.value.advertisesWhenConnected = $1 }), default: "false",
                help: "whether it keeps advertising while `connected` (false: only while not connected)",
                expected: "true or false",
                source: .assumption(
                    "a peripheral with one link stops advertising (seed 004 §6.1: seven devices never found)")),
            channels(\Advertiser.value.channels),
            Parameter(
                "addressRotationS",
                .duration(
                    upTo: 1_000_000, unit: "s", scale: 1, allowZero: false, nullable: false,
                    set: { $0.value.addressRotationS = $1 }),
                default: "`ble.addressRotationS`", help: "its own private-address rotation interval",
                expected: rotation, source: .cited("radio.md (as `ble.addressRotationS`)")),
            Parameter(
                "target",
                .custom(
                    schema: .ref("nodeId"), value: "a node id",
                    decode: { values, v, at, _, item in
                        guard let n = values.node(v, at, in: item.nodeIndex) else { return false }
                        item.value.target = n
                        return true
                    }),
                default: "null", help: "the node an ADV_DIRECT_IND is directed to", expected: "a node id",
                source: .cited("Core Specification v5.4, Vol 6, Part B §2.3.1.2")),
            Parameter(
                "highDutyCycle", .bool(set: { $0.value.highDutyCycle = $1 }), default: "false",
                help: "ADV_DIRECT_IND at high duty cycle: every 3.75 ms without advDelay, for 1.28 s",
                expected: "true or false", source: .cited("Core Specification v5.4, Vol 6, Part B §4.4.2.4.2")),
            Parameter(
                "irk",
                .custom(
                    schema: .string.pattern("^[0-9A-Fa-f]{32}$"), value: "32 hex digits",
                    decode: { values, v, at, _, item in
                        guard let text = values.string(v, at, "an identity resolving key, 32 hex digits") else {
                            return false
                        }
                        guard let key = BlePrivacy.irk(hex: text) else {
                            values.sink.report(
                                "an identity resolving key is 16 bytes, written as 32 hex digits; found "
                                    + "\(text.utf8.count) characters", path: at, at: v.origin)
                            return false
                        }
                        item.value.irk = key
                        return true
                    }),
                default: "null (drawn for a bonded device)",
                help: "its identity resolving key, which it shares with the phones it is bonded to",
                expected: "an identity resolving key, 32 hex digits",
                source: .cited("Core Specification v5.4, Vol 3, Part H §2.4.2.1")),
            Parameter(
                "bondedTo",
                .custom(
                    schema: .array(of: .ref("nodeId")).minItems(1),
                    value: "an array of node ids",
                    decode: { values, v, at, _, item in
                        guard
                            let list = values.list(
                                v, at, "an array of node ids", { values.node($0, $1, in: item.nodeIndex) })
                        else { return false }
                        item.value.bondedTo = list
                        return true
                    }),
                default: "[]",
                help:
                    "the phones it is bonded to: they resolve its resolvable private addresses, so iOS keeps its identifier",
                expected: "an array of node ids",
                source: .cited("Core Specification v5.4, Vol 3, Part C §10.7, Part H §2.4.2.1")),
            start(\Advertiser.value.start)
        ], objectExpected: "an advertiser {\"node\", \"profile\"?, \"pdu\"?, \"intervalMs\"?, \"payloadBytes\"?, ...}")

    /// `ble.scanners[i]`.
    static let scanner = ParameterSection<Scanner>(
        "ble.scanners[i]",
        [
            node(),
            Parameter(
                "profile",
                .choice(
                    BleAppProfile.allCases.map(\.rawValue),
                    set: { item, word in
                        item.profile = BleAppProfile(rawValue: word)
                        item.value = BleProfiles.scanner(item.profile, node: item.value.node)
                    }),
                default: "null", help: "the iOS app state whose defaults apply (set first)",
                expected: "an app profile", source: .cited("`BleProfiles`")),
            grid("intervalMs", "a scan interval", \.intervalMs, help: "scanInterval"),
            Parameter(
                "discovery",
                .choice(
                    BleDiscovery.allCases.map(\.rawValue),
                    set: { if let d = BleDiscovery(rawValue: $1) { $0.value.discovery = d } }),
                default: "\"observe\"",
                help:
                    "which advertisers the app is told of: every one (observation), or GAP's general or limited discovery (by the Flags of `data`)",
                expected: "a discovery procedure",
                source: .cited("Core Specification v5.4, Vol 3, Part C §9.1.2, §9.2.5, §9.2.6")),
            grid("windowMs", "a scan window", \.windowMs, help: "scanWindow (at most the interval)"),
            Parameter(
                "active", .bool(set: { $0.value.active = $1 }), default: scannerDefault(\.active) { "\($0)" },
                help: "active scanning: SCAN_REQ to scannable advertisers", expected: "true or false",
                source: .assumption("iOS scans actively (`BleProfiles`)")),
            Parameter(
                "duplicateFilter",
                .custom(
                    schema: .boolean, value: "`true`, `false`",
                    decode: { values, v, at, what, item in
                        guard let b = values.bool(v, at, what) else { return false }
                        if !b && item.profile == .iosBackground {
                            values.sink.report(
                                "iOS ignores the allow-duplicates option in the background: every peripheral is reported once",
                                path: at, at: v.origin)
                            item.value.duplicateFilter = b
                            return false
                        }
                        item.value.duplicateFilter = b
                        return true
                    }),
                default: scannerDefault(\.duplicateFilter) { "\($0)" },
                help: "the app sees one report per peripheral instead of one per advertisement",
                expected: "true or false",
                source: .cited("CoreBluetooth's default (`CBCentralManagerScanOptionAllowDuplicatesKey` off)")),
            channels(\Scanner.value.channels),
            Parameter(
                "serviceFilter",
                .custom(
                    schema: .array(of: .string), value: "an array of strings",
                    decode: { values, v, at, _, item in
                        guard
                            let list = values.list(
                                v, at, "an array of service UUIDs", { values.string($0, $1, "a service UUID") })
                        else { return false }
                        item.value.serviceFilter = list
                        return true
                    }),
                default: "null (every advertiser)", help: "services the app scans for (needed in the background)",
                expected: "an array of service UUIDs",
                source: .cited("Core Bluetooth Background Processing for iOS Apps")),
            start(\Scanner.value.start),
            Parameter(
                "durationS",
                .duration(
                    upTo: 1_000_000, unit: "s", scale: 1, allowZero: false, nullable: false,
                    set: { $0.value.duration = $1.map { .seconds($0) } }),
                default: "null (to the end of the run)", help: "how long it scans",
                expected: "a scanning time in seconds, {range}", source: .assumption("an app that scans throughout"))
        ], objectExpected: "a scanner {\"node\", \"profile\"?, \"intervalMs\"?, \"windowMs\"?, \"active\"?, ...}")

    /// `ble.wifi[i]`. Defaults: a phone's Wi-Fi TX power (radio.md, the AWDL default), half
    /// loaded, frames of 1 ms (assumptions: a busy bulk transfer's aggregate frames).
    static let wifi = ParameterSection<Wifi>(
        "ble.wifi[i]",
        [
            node(),
            Parameter(
                "channel", .integer(1...13, unit: "", set: { $0.value.channel = $1 }), default: "6",
                help: "the 2.4 GHz channel (AWDL's is 6)", expected: "a 2.4 GHz Wi-Fi channel, {range}",
                source: .cited("radio.md: AWDL's slot 8 is channel 6")),
            Parameter(
                "pattern",
                .choice(
                    BleWifiSpec.Pattern.allCases.map(\.rawValue),
                    set: { if let p = BleWifiSpec.Pattern(rawValue: $1) { $0.value.pattern = p } }),
                default: "\"awdl\"", help: "always eligible, or only in AWDL's channel-6 slot",
                expected: "a transmit pattern",
                source: .cited("owl: slot 8 of every sequence is channel 6 (`AwdlSchedule`)")),
            // At least 0.1 % on air (assumption: below that an interferer is negligible, and the
            // mean gap between frames, frameUs·(1 − load)/load, stays far inside the clock's range).
            Parameter(
                "load", .number(0.001...1, unit: "", set: { $0.value.load = $1 }), default: "0.5",
                help: "fraction of its eligible time on air", expected: "a fraction of time on air, {range}",
                source: .assumption("half loaded")),
            Parameter(
                "frameUs",
                .duration(
                    upTo: 100_000, unit: "µs", scale: 1e-6, allowZero: false, nullable: false,
                    set: { if let x = $1 { $0.value.frameUs = x } }),
                default: "1000", help: "airtime of one frame", expected: "a frame airtime in µs, {range}",
                source: .assumption("a bulk transfer's aggregate frames")),
            Parameter(
                "txPowerDbm", .number(-20...30, unit: "dBm", set: { $0.value.txPowerDbm = $1 }), default: "16.02",
                help: "transmit power", expected: "a TX power in dBm, {range}",
                source: .cited("radio.md (the AWDL default)"))
        ],
        objectExpected:
            "a Wi-Fi transmitter {\"node\", \"channel\", \"pattern\"?, \"load\"?, \"frameUs\"?, \"txPowerDbm\"?}")

    /// The required `node` of a list item.
    static func node<V>() -> Parameter<Item<V>> where V: BleNodeOwner {
        .nodeReference("node", help: "the node") { $0.value.node = $1 }
    }

    /// `channels`: a non-empty subset of 37, 38, 39.
    static func channels<V>(_ key: WritableKeyPath<Item<V>, [Int]> & Sendable) -> Parameter<Item<V>> {
        Parameter(
            "channels",
            .custom(
                schema: .ref("bleChannels"), value: "distinct channels of 37, 38, 39",
                decode: { values, v, at, _, item in
                    guard let c = values.bleChannels(v, at) else { return false }
                    item[keyPath: key] = c
                    return true
                }),
            default: "`[37, 38, 39]`", help: "the advertising channels, in order",
            expected: "an array of advertising channels (37, 38, 39)",
            source: .cited("Core Specification v5.4, Vol 6, Part B §4.4.2.1"))
    }

    /// `startS`: within the run.
    static func start<V>(_ key: WritableKeyPath<Item<V>, SimTime> & Sendable) -> Parameter<Item<V>> {
        .startSeconds("startS", help: "when it starts") { $0[keyPath: key] = $1 }
    }

    /// A scanner's interval or window on the 0.625 ms grid.
    static func grid(
        _ key: String, _ what: String, _ field: WritableKeyPath<BleScannerSpec, Double> & Sendable, help: String
    ) -> Parameter<Scanner> {
        Parameter(
            key,
            .custom(
                schema: .number.minimum(2.5).maximum(10240).multipleOf(0.625),
                value: "2.5 … 10240 ms, a multiple of 0.625",
                decode: { values, v, at, _, item in
                    guard let ms = values.bleGridMs(v, at, what, BleTiming.scanIntervalRangeMs) else { return false }
                    item.value[keyPath: field] = ms
                    return true
                }),
            default: scannerDefault(field, number), help: help, expected: what,
            source: .assumption(
                "foreground continuous, 30 ms per channel; background 30 ms every 300 ms (`BleProfiles`)"))
    }

    /// `pdu`: an advertising PDU type, with a word for the types only scanners send.
    @Sendable static func decodePdu(
        _ values: ValueReader, _ v: JSONNode, _ at: JSONPath, _ what: String, _ item: inout Advertiser
    ) -> Bool {
        if case .string(let s) = v.value, let t = BlePduType(rawValue: s), !BlePduType.advertising.contains(t) {
            values.sink.report(
                "\(s) is not an advertising PDU type: advertisers send "
                    + BlePduType.advertising.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    + " (SCAN_REQ and CONNECT_IND come from scanners and initiators, SCAN_RSP only answers SCAN_REQ)",
                path: at, at: v.origin)
            return false
        }
        guard let t = values.choice(v, at, what, from: BlePduType.advertising.map(\.rawValue)),
            let pdu = BlePduType(rawValue: t)
        else { return false }
        item.value.pdu = pdu
        return true
    }

    /// `phy`: LE 2M is refused with its reason.
    @Sendable static func decodePhy(
        _ values: ValueReader, _ v: JSONNode, _ at: JSONPath, _ what: String, _ item: inout Advertiser
    ) -> Bool {
        if case .string("2M") = v.value {
            values.sink.report(
                "LE 2M is not allowed on the primary advertising channels (Core Specification v5.4, Vol 6, "
                    + "Part B §4.4.2); advertisers use \"1M\", \"coded-s2\" or \"coded-s8\"", path: at, at: v.origin)
            return false
        }
        guard let phy = values.choice(v, at, what, of: BlePhy.self) else { return false }
        item.value.phy = phy
        return true
    }
}

/// A list item of the `ble` section that belongs to a node.
protocol BleNodeOwner: Sendable {
    /// The node's index.
    var node: Int { get set }
}

extension BleAdvertiserSpec: BleNodeOwner {}
extension BleScannerSpec: BleNodeOwner {}
extension BleWifiSpec: BleNodeOwner {}

extension ValueReader {
    /// A value in ms on the 0.625 ms grid within `range`.
    func bleGridMs(_ v: JSONNode, _ p: JSONPath, _ what: String, _ range: ClosedRange<Double>) -> Double? {
        let text =
            "\(what) in ms, a multiple of 0.625 in \(JSONNumber(range.lowerBound).literal)...\(JSONNumber(range.upperBound).literal)"
        guard let ms = number(v, p, text, in: range) else { return nil }
        let steps = ms / 0.625
        guard abs(steps - steps.rounded()) < 1e-9 else {
            sink.report(
                "expected \(text), found \(JSONNumber(ms).literal) (not on the 0.625 ms grid; nearest "
                    + "\(JSONNumber(steps.rounded(.down) * 0.625).literal) or \(JSONNumber(steps.rounded(.up) * 0.625).literal))",
                path: p, at: v.origin)
            return nil
        }
        return ms
    }

    /// A channel list: a non-empty subset of 37, 38, 39 without repeats.
    func bleChannels(_ v: JSONNode, _ p: JSONPath) -> [Int]? {
        guard
            let result = list(
                v, p, "an array of advertising channels (37, 38, 39)",
                { oneOf($0, $1, "an advertising channel", [37, 38, 39]) })
        else { return nil }
        var ok = true
        var seen: Set<Int> = []  // one pass, however long the list
        for (i, c) in result.enumerated() where !seen.insert(c).inserted {
            sink.report("channel \(c) is listed twice", path: p.appending(i), at: v.origin)
            ok = false
        }
        if result.isEmpty {
            sink.report("expected at least one advertising channel", path: p, at: v.origin)
            ok = false
        }
        return ok ? result : nil
    }

    /// `[[fromS, toS], ...]`: each window 0 ≤ from < to ≤ the run's duration, in time order,
    /// not overlapping.
    func bleWindows(
        _ v: JSONNode, _ at: JSONPath, upTo duration: Double?
    ) -> [(from: SimTime, to: SimTime)]? {
        let values = self
        guard let list = values.array(v, at, "a list of [fromS, toS] windows") else { return nil }
        let upper = duration ?? ScenarioBounds.maxDurationSeconds
        var out: [(from: SimTime, to: SimTime)] = []
        var last = -1.0
        for (k, w) in list.enumerated() {
            let p = at.appending(k)
            guard case .array(let pair) = w.value, pair.count == 2 else {
                values.sink.report("expected [fromS, toS], found \(w.value.summary)", path: p, at: w.origin)
                return nil
            }
            let what = "a time in seconds in 0...\(JSONNumber(upper).literal)"
            guard let a = values.number(pair[0], p.appending(0), what, in: 0...upper),
                let b = values.number(pair[1], p.appending(1), what, in: 0...upper)
            else { return nil }
            guard a < b, a >= last else {
                values.sink.report(
                    a >= b
                        ? "a window ends after it starts: [\(JSONNumber(a).literal), \(JSONNumber(b).literal)]"
                        : "windows must be in time order and not overlap", path: p, at: w.origin)
                return nil
            }
            last = b
            out.append((.seconds(a), .seconds(b)))
        }
        return out
    }
}

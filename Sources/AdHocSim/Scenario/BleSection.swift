/// The `ble` section: Bluetooth LE advertisers, scanners and 2.4 GHz Wi-Fi interferers.
public struct BleSpec: Sendable, Equatable {
    /// `ble.advertisers`, in file order.
    public var advertisers: [BleAdvertiserSpec] = []
    /// `ble.scanners`, in file order.
    public var scanners: [BleScannerSpec] = []
    /// `ble.wifi`: Wi-Fi transmitters on the 2.4 GHz band, in file order.
    public var wifi: [BleWifiSpec] = []
    /// `ble.addressRotationS`: how often private addresses change; default 900 s (radio.md).
    public var addressRotationS: Double = 900
    /// `ble.estimator.exponent`: the path-loss exponent a scanner app assumes when it turns RSSI
    /// into distance; default 2 (free space: what an app that knows nothing about the place uses).
    public var estimatorExponent: Double = 2
    /// `ble.estimator.assumedTxPowerDbm`: the TX power the app assumes when the advertiser
    /// does not advertise its own (assumption: 0 dBm).
    public var estimatorTxPowerDbm: Double = 0
    /// `ble.wifiInterference`: whether the `wifi` transmitters reach LE receivers (the switch of
    /// the coexistence mechanism, for ablations; default true).
    public var wifiInterference: Bool = true
    /// `ble.recordRssi`: write every RSSI sample an app sees to `ble_rssi.csv`.
    public var recordRssi: Bool = false
    /// Nothing set.
    public init() {}

    /// The most scanner–advertiser pairs a run records: 1 000 000 (assumption: a thousand
    /// phones scanning a thousand advertisers, about 100 MB of records).
    public static let maxPairs = 1_000_000
}

/// What iOS gives an app that advertises or scans, per app state (`profile`).
public enum BleAppProfile: String, Sendable, CaseIterable {
    /// The app is in the foreground.
    case iosForeground = "ios-foreground"
    /// The app is in the background (`bluetooth-central` / `bluetooth-peripheral` mode).
    case iosBackground = "ios-background"
}

/// One advertiser (`ble.advertisers[i]`).
public struct BleAdvertiserSpec: Sendable, Equatable {
    /// The advertising node.
    public var node: Int
    /// The PDU type it advertises with.
    public var pdu: BlePduType
    /// advInterval, ms (a multiple of 0.625 ms, 20 … 10 240).
    public var intervalMs: Double
    /// Upper end of the random advDelay added to every event, ms (0 … 10; the Core
    /// Specification mandates 10; 0 only for validation against delay-free analyses).
    public var randomDelayMs: Double
    /// AdvData bytes (0 … 31).
    public var payloadBytes: Int
    /// ScanRspData bytes (0 … 31).
    public var scanResponseBytes: Int
    /// Transmit power, dBm (−20 … 20).
    public var txPowerDbm: Double
    /// Whether the advertising data carries the TX Power Level AD type (an estimator uses it).
    public var advertisesTxPower: Bool
    /// The PHY of its primary advertising channel PDUs.
    public var phy: BlePhy
    /// Its address type.
    public var address: BleAddressType
    /// A service UUID it advertises, if any (scanners may filter on it).
    public var service: String?
    /// The advertising channels it uses, in order (a subset of 37, 38, 39).
    public var channels: [Int]
    /// For ADV_DIRECT_IND: the node it is directed to.
    public var target: Int?
    /// When it starts advertising.
    public var start: SimTime
    /// Its own private-address rotation interval, s (`nil`: `ble.addressRotationS`).
    public var addressRotationS: Double? = nil
}

/// One scanner (`ble.scanners[i]`).
public struct BleScannerSpec: Sendable, Equatable {
    /// The scanning node.
    public var node: Int
    /// scanInterval, ms (a multiple of 0.625 ms, 2.5 … 10 240).
    public var intervalMs: Double
    /// scanWindow, ms (≤ the interval).
    public var windowMs: Double
    /// Active scanning: SCAN_REQ to scannable advertisers.
    public var active: Bool
    /// The app sees one report per peripheral (CoreBluetooth's default) instead of one per
    /// advertisement.
    public var duplicateFilter: Bool
    /// The channels it rotates through (a subset of 37, 38, 39, in order).
    public var channels: [Int]
    /// Services the app scans for (`nil`: every advertiser).
    public var serviceFilter: [String]?
    /// When it starts scanning.
    public var start: SimTime
    /// How long it scans (`nil`: to the end of the run), as an app that scans for a while.
    public var duration: SimTime? = nil
}

/// One Wi-Fi transmitter on the 2.4 GHz band (`ble.wifi[i]`).
public struct BleWifiSpec: Sendable, Equatable {
    /// When it transmits.
    public enum Pattern: String, Sendable, CaseIterable {
        /// Always eligible: an infrastructure or hotspot link.
        case continuous
        /// AWDL: only during slot 8 of every 16-slot channel sequence, which is always on
        /// channel 6 (`AwdlSchedule`; owl).
        case awdl
    }
    /// The transmitting node.
    public var node: Int
    /// The 2.4 GHz channel, 1 … 13 (AWDL's is 6).
    public var channel: Int
    /// Transmit power, dBm.
    public var txPowerDbm: Double
    /// When it may transmit.
    public var pattern: Pattern
    /// Fraction of its eligible time on air (0 … 1).
    public var load: Double
    /// Airtime of one frame, µs.
    public var frameUs: Double
}

extension ScenarioDecoder {
    /// Decodes the `ble` section.
    func decodeBle(_ node: JSONNode, _ bp: JSONPath, nodeIndex: [String: Int], duration: Double?) -> BleSpec? {
        guard
            let r = ObjectReader(
                node, path: bp, sink: sink,
                expected: "an object {\"advertisers\", \"scanners\", \"wifi\"?, \"addressRotationS\"?, ...}")
        else { return nil }
        defer { r.finish() }
        var spec = BleSpec()
        var ok = true
        func track<T>(_ value: T?) -> T? { if value == nil { ok = false }; return value }
        if let v = r.value("addressRotationS"), let s = track(bleRotation(v, bp.appending("addressRotationS"))) {
            spec.addressRotationS = s
        }
        for key in ["recordRssi", "wifiInterference"] {
            guard let v = r.value(key), let b = track(values.bool(v, bp.appending(key), "true or false")) else {
                continue
            }
            if key == "recordRssi" { spec.recordRssi = b } else { spec.wifiInterference = b }
        }
        if let v = r.value("estimator") {
            let ep = bp.appending("estimator")
            if let er = track(
                ObjectReader(v, path: ep, sink: sink, expected: "an object {\"exponent\"?, \"assumedTxPowerDbm\"?}"))
            {
                if let x = er.value("exponent"),
                    let n = track(
                        values.number(x, ep.appending("exponent"), "a path-loss exponent in 1...6", in: 1...6))
                {
                    spec.estimatorExponent = n
                }
                if let x = er.value("assumedTxPowerDbm"),
                    let t = track(
                        values.number(
                            x, ep.appending("assumedTxPowerDbm"), "a TX power in dBm, -20...20", in: -20...20))
                {
                    spec.estimatorTxPowerDbm = t
                }
                er.finish()
            }
        }
        let ctx = BleDecodeContext(nodeIndex: nodeIndex, duration: duration)
        if let v = r.value("advertisers"),
            let list = track(
                values.list(v, bp.appending("advertisers"), "an array of advertisers") { decodeAdvertiser($0, $1, ctx) }
            )
        {
            spec.advertisers = list
        }
        if let v = r.value("scanners"),
            let list = track(
                values.list(v, bp.appending("scanners"), "an array of scanners") { decodeScanner($0, $1, ctx) })
        {
            spec.scanners = list
        }
        if let v = r.value("wifi"),
            let list = track(
                values.list(v, bp.appending("wifi"), "an array of Wi-Fi transmitters") { decodeBleWifi($0, $1, ctx) })
        {
            spec.wifi = list
        }
        guard ok else { return nil }
        if spec.advertisers.count * spec.scanners.count > BleSpec.maxPairs {
            sink.report(
                "\(spec.scanners.count) scanners × \(spec.advertisers.count) advertisers is more than the "
                    + "\(BleSpec.maxPairs) scanner–advertiser pairs a run keeps records for",
                path: bp, at: node.origin)
            return nil
        }
        if spec.advertisers.isEmpty && spec.scanners.isEmpty {
            sink.report("a ble section needs at least one advertiser or scanner", path: bp, at: node.origin)
            return nil
        }
        // Both checks are linear in the number of advertisers and scanners (issue #27, class 5:
        // a pairwise search took minutes at 300 000 advertisers).
        var advertiserOf: [Int: Int] = [:]
        for (i, a) in spec.advertisers.enumerated() {
            if let j = advertiserOf[a.node] {
                sink.report(
                    "this node already advertises (ble.advertisers[\(j)]); one advertising set per node",
                    path: bp.appending("advertisers").appending(i).appending("node"), at: node.origin)
                ok = false
            } else {
                advertiserOf[a.node] = i
            }
        }
        // A phone runs one scan at a time: scanners of one node must not overlap in time
        // (several scanning sessions of one phone are several scanners with startS and durationS).
        for (i, j) in BleSpec.overlappingScanners(spec.scanners) {
            sink.report(
                "this node already scans then (ble.scanners[\(j)]); a phone runs one scan at a time, "
                    + "so scanners of one node need startS and durationS that do not overlap",
                path: bp.appending("scanners").appending(i).appending("node"), at: node.origin)
            ok = false
        }
        return ok ? spec : nil
    }

    struct BleDecodeContext {
        let nodeIndex: [String: Int]
        let duration: Double?
    }

    /// A node reference under `key`: `.some(nil)` when an optional key is absent, `nil` (after
    /// reporting) when it is bad.
    func bleNodeRef(
        _ r: ObjectReader, _ key: String, _ p: JSONPath, _ ctx: BleDecodeContext, required: Bool = true
    )
        -> Int??
    {
        let node = required ? r.required(key, "a node id") : r.value(key)
        guard let v = node else { return required ? nil : .some(nil) }
        guard let name = values.string(v, p.appending(key), "a node id") else { return nil }
        guard let k = ctx.nodeIndex[name] else {
            sink.report("no node has the id \"\(Diagnostic.excerpt(name))\"", path: p.appending(key), at: v.origin)
            return nil
        }
        return .some(k)
    }

    /// An address rotation interval in seconds (the section's default, or one advertiser's).
    func bleRotation(_ v: JSONNode, _ p: JSONPath) -> Double? {
        values.duration(v, p, "an address rotation interval in seconds, > 0 and ≤ 1000000", upTo: 1_000_000)
    }

    /// A value in ms on the 0.625 ms grid within `range`.
    func bleGridMs(_ v: JSONNode, _ p: JSONPath, _ what: String, _ range: ClosedRange<Double>) -> Double? {
        let text =
            "\(what) in ms, a multiple of 0.625 in \(JSONNumber(range.lowerBound).literal)...\(JSONNumber(range.upperBound).literal)"
        guard let ms = values.number(v, p, text, in: range) else { return nil }
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
            let result = values.list(
                v, p, "an array of advertising channels (37, 38, 39)",
                {
                    values.oneOf($0, $1, "an advertising channel", [37, 38, 39])
                })
        else { return nil }
        var ok = true
        for (i, c) in result.enumerated() where result[..<i].contains(c) {
            sink.report("channel \(c) is listed twice", path: p.appending(i), at: v.origin)
            ok = false
        }
        if result.isEmpty {
            sink.report("expected at least one advertising channel", path: p, at: v.origin)
            ok = false
        }
        return ok ? result : nil
    }

    /// `startS` (0 when absent): `.some(nil)` when absent, `nil` (after reporting) when bad.
    func bleStart(_ r: ObjectReader, _ p: JSONPath, _ ctx: BleDecodeContext) -> SimTime?? {
        guard let v = r.value("startS") else { return .some(nil) }
        guard
            let s = values.duration(
                v, p.appending("startS"), "a start time in seconds, ≥ 0 and within the run", upTo: ctx.duration ?? 1e6,
                allowZero: true)
        else { return nil }
        return .some(.seconds(s))
    }

    func decodeAdvertiser(_ item: JSONNode, _ p: JSONPath, _ ctx: BleDecodeContext) -> BleAdvertiserSpec? {
        guard
            let r = ObjectReader(
                item, path: p, sink: sink,
                expected: "an advertiser {\"node\", \"profile\"?, \"pdu\"?, \"intervalMs\"?, \"payloadBytes\"?, ...}")
        else { return nil }
        defer { r.finish() }
        var ok = true
        func track<T>(_ value: T?) -> T? { if value == nil { ok = false }; return value }
        let nodeRef = bleNodeRef(r, "node", p, ctx)
        var profile: BleAppProfile?
        if let v = r.value("profile") {
            profile = track(values.choice(v, p.appending("profile"), "an app profile", of: BleAppProfile.self))
        }
        // Defaults per profile (BleProfiles documents their sources).
        var spec = BleProfiles.advertiser(profile, node: 0)
        if let v = r.value("pdu") {
            let pp = p.appending("pdu")
            if case .string(let s) = v.value, let t = BlePduType(rawValue: s), !BlePduType.advertising.contains(t) {
                sink.report(
                    "\(s) is not an advertising PDU type: advertisers send "
                        + BlePduType.advertising.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                        + " (SCAN_REQ and CONNECT_IND come from scanners and initiators, SCAN_RSP only answers SCAN_REQ)",
                    path: pp, at: v.origin)
                ok = false
            } else if let t = track(
                values.choice(v, pp, "an advertising PDU type", from: BlePduType.advertising.map(\.rawValue)))
            {
                spec.pdu = BlePduType(rawValue: t)!
            }
        }
        if let v = r.value("intervalMs"),
            let ms = track(
                bleGridMs(v, p.appending("intervalMs"), "an advertising interval", BleTiming.advertisingIntervalRangeMs)
            )
        {
            spec.intervalMs = ms
        }
        if let v = r.value("randomDelayMs"),
            let ms = track(
                values.number(v, p.appending("randomDelayMs"), "the largest random advDelay in ms, 0...10", in: 0...10))
        {
            spec.randomDelayMs = ms
        }
        for key in ["payloadBytes", "scanResponseBytes"] {
            let what = key == "payloadBytes" ? "advertising data bytes" : "scan response data bytes"
            guard let v = r.value(key),
                let n = track(
                    values.integer(
                        v, p.appending(key), "\(what), 0...31 (a legacy PDU carries at most 31)",
                        in: 0...UInt64(BlePduType.maxDataBytes)))
            else { continue }
            if key == "payloadBytes" { spec.payloadBytes = Int(n) } else { spec.scanResponseBytes = Int(n) }
        }
        if let v = r.value("txPowerDbm"),
            let d = track(values.number(v, p.appending("txPowerDbm"), "a TX power in dBm, -20...20", in: -20...20))
        {
            spec.txPowerDbm = d
        }
        if let v = r.value("advertisesTxPower"),
            let b = track(values.bool(v, p.appending("advertisesTxPower"), "true or false"))
        {
            spec.advertisesTxPower = b
        }
        if let v = r.value("phy") {
            let pp = p.appending("phy")
            if case .string("2M") = v.value {
                sink.report(
                    "LE 2M is not allowed on the primary advertising channels (Core Specification v5.4, Vol 6, "
                        + "Part B §4.4.2); advertisers use \"1M\", \"coded-s2\" or \"coded-s8\"", path: pp, at: v.origin
                )
                ok = false
            } else if let phy = track(values.choice(v, pp, "an advertising PHY", of: BlePhy.self)) {
                spec.phy = phy
            }
        }
        if let v = r.value("address"),
            let a = track(values.choice(v, p.appending("address"), "an address type", of: BleAddressType.self))
        {
            spec.address = a
        }
        if let v = r.value("service"), let s = track(values.string(v, p.appending("service"), "a service UUID")) {
            spec.service = s
        }
        if let v = r.value("channels"), let c = track(bleChannels(v, p.appending("channels"))) { spec.channels = c }
        if let v = r.value("addressRotationS"), let x = track(bleRotation(v, p.appending("addressRotationS"))) {
            spec.addressRotationS = x
        }
        if let t = track(bleNodeRef(r, "target", p, ctx, required: false)) { spec.target = t }
        if let s = track(bleStart(r, p, ctx)) { spec.start = s ?? .zero }
        guard let nodeRef, let node = nodeRef else { return nil }
        spec.node = node
        guard ok else { return nil }
        if spec.pdu == .advDirectInd {
            if spec.target == nil {
                sink.report("ADV_DIRECT_IND needs a \"target\": the node it is directed to", path: p, at: item.origin)
                ok = false
            }
            if spec.payloadBytes > 0, r.value("payloadBytes") != nil {
                sink.report(
                    "ADV_DIRECT_IND carries no advertising data (its payload is AdvA + TargetA only)",
                    path: p.appending("payloadBytes"), at: item.origin)
                ok = false
            }
            spec.payloadBytes = 0
        } else if spec.target != nil {
            sink.report("only ADV_DIRECT_IND has a \"target\"", path: p.appending("target"), at: item.origin)
            ok = false
        }
        if profile != nil && spec.pdu != .advInd {
            sink.report(
                "an iOS app advertises through CBPeripheralManager, which always sends connectable ADV_IND; "
                    + "drop \"pdu\" or the profile", path: p.appending("pdu"), at: item.origin)
            ok = false
        }
        if profile != nil && spec.advertisesTxPower {
            sink.report(
                "an iOS app may advertise only a local name and service UUIDs (CBPeripheralManager."
                    + "startAdvertising), not its TX power level", path: p.appending("advertisesTxPower"),
                at: item.origin)
            ok = false
        }
        if !spec.pdu.isScannable && spec.scanResponseBytes > 0 && r.value("scanResponseBytes") != nil {
            sink.report(
                "\(spec.pdu.rawValue) is not scannable, so it has no scan response",
                path: p.appending("scanResponseBytes"), at: item.origin)
            ok = false
        }
        return ok ? spec : nil
    }

    func decodeScanner(_ item: JSONNode, _ p: JSONPath, _ ctx: BleDecodeContext) -> BleScannerSpec? {
        guard
            let r = ObjectReader(
                item, path: p, sink: sink,
                expected: "a scanner {\"node\", \"profile\"?, \"intervalMs\"?, \"windowMs\"?, \"active\"?, ...}")
        else { return nil }
        defer { r.finish() }
        var ok = true
        func track<T>(_ value: T?) -> T? { if value == nil { ok = false }; return value }
        let nodeRef = bleNodeRef(r, "node", p, ctx)
        var profile: BleAppProfile?
        if let v = r.value("profile") {
            profile = track(values.choice(v, p.appending("profile"), "an app profile", of: BleAppProfile.self))
        }
        var spec = BleProfiles.scanner(profile, node: 0)
        for key in ["intervalMs", "windowMs"] {
            let what = key == "intervalMs" ? "a scan interval" : "a scan window"
            guard let v = r.value(key),
                let ms = track(bleGridMs(v, p.appending(key), what, BleTiming.scanIntervalRangeMs))
            else { continue }
            if key == "intervalMs" { spec.intervalMs = ms } else { spec.windowMs = ms }
        }
        if let v = r.value("active"), let b = track(values.bool(v, p.appending("active"), "true or false")) {
            spec.active = b
        }
        if let v = r.value("duplicateFilter"),
            let b = track(values.bool(v, p.appending("duplicateFilter"), "true or false"))
        {
            if !b && profile == .iosBackground {
                sink.report(
                    "iOS ignores the allow-duplicates option in the background: every peripheral is reported once",
                    path: p.appending("duplicateFilter"), at: v.origin)
                ok = false
            }
            spec.duplicateFilter = b
        }
        if let v = r.value("channels"), let c = track(bleChannels(v, p.appending("channels"))) { spec.channels = c }
        if let v = r.value("serviceFilter"),
            let list = track(
                values.list(v, p.appending("serviceFilter"), "an array of service UUIDs") {
                    values.string($0, $1, "a service UUID")
                })
        {
            spec.serviceFilter = list
        }
        if let s = track(bleStart(r, p, ctx)) { spec.start = s ?? .zero }
        if let v = r.value("durationS"),
            let x = track(
                values.duration(
                    v, p.appending("durationS"), "a scanning time in seconds, > 0 and ≤ 1000000", upTo: 1_000_000))
        {
            spec.duration = .seconds(x)
        }
        guard let nodeRef, let node = nodeRef else { return nil }
        spec.node = node
        guard ok else { return nil }
        if spec.windowMs > spec.intervalMs {
            sink.report(
                "the scan window (\(JSONNumber(spec.windowMs).literal) ms) is longer than the scan interval "
                    + "(\(JSONNumber(spec.intervalMs).literal) ms); the window must fit in the interval",
                path: p.appending(r.value("windowMs") != nil ? "windowMs" : "intervalMs"), at: item.origin)
            return nil
        }
        if profile == .iosBackground && (spec.serviceFilter ?? []).isEmpty {
            sink.report(
                "iOS cancels a scan for all peripherals when the app goes to the background; a background scanner "
                    + "needs a \"serviceFilter\"", path: p, at: item.origin)
            return nil
        }
        return spec
    }

    func decodeBleWifi(_ item: JSONNode, _ p: JSONPath, _ ctx: BleDecodeContext) -> BleWifiSpec? {
        guard
            let r = ObjectReader(
                item, path: p, sink: sink,
                expected:
                    "a Wi-Fi transmitter {\"node\", \"channel\", \"pattern\"?, \"load\"?, \"frameUs\"?, \"txPowerDbm\"?}"
            )
        else { return nil }
        defer { r.finish() }
        var ok = true
        func track<T>(_ value: T?) -> T? { if value == nil { ok = false }; return value }
        let nodeRef = bleNodeRef(r, "node", p, ctx)
        // Defaults: a phone's Wi-Fi TX power (radio.md, the AWDL default), half-loaded, frames of
        // 1 ms (assumptions: a busy bulk transfer's aggregate frames).
        var spec = BleWifiSpec(node: 0, channel: 6, txPowerDbm: 16.02, pattern: .awdl, load: 0.5, frameUs: 1000)
        if let v = r.value("channel"),
            let c = track(values.integer(v, p.appending("channel"), "a 2.4 GHz Wi-Fi channel, 1...13", in: 1...13))
        {
            spec.channel = Int(c)
        }
        if let v = r.value("pattern"),
            let x = track(values.choice(v, p.appending("pattern"), "a transmit pattern", of: BleWifiSpec.Pattern.self))
        {
            spec.pattern = x
        }
        if spec.pattern == .awdl && spec.channel != 6, r.value("channel") != nil {
            sink.report(
                "AWDL's 2.4 GHz slot is always on channel 6; use \"pattern\": \"continuous\" for another channel",
                path: p.appending("channel"), at: item.origin)
            ok = false
        }
        // At least 0.1 % on air (assumption: below that an interferer is negligible, and the mean
        // gap between frames, frameUs·(1 − load)/load, stays far inside the clock's range).
        if let v = r.value("load"),
            let x = track(
                values.number(v, p.appending("load"), "a fraction of time on air, 0.001...1", in: 0.001...1))
        {
            spec.load = x
        }
        if let v = r.value("frameUs"),
            let x = track(
                values.duration(
                    v, p.appending("frameUs"), "a frame airtime in µs, > 0 and ≤ 100000", unit: 1e-6, upTo: 100_000))
        {
            spec.frameUs = x
        }
        if let v = r.value("txPowerDbm"),
            let x = track(values.number(v, p.appending("txPowerDbm"), "a TX power in dBm, -20...30", in: -20...30))
        {
            spec.txPowerDbm = x
        }
        guard let nodeRef, let node = nodeRef else { return nil }
        spec.node = node
        return ok ? spec : nil
    }
}

extension BleSpec {
    /// Scanners of one node whose scanning times overlap, as `(i, j)` with `j < i`: scanner `i`
    /// overlaps scanner `j`, which started no later. In scanner order, each scanner at most
    /// once. Sorted by start per node and swept once: O(n log n), not one check per pair.
    static func overlappingScanners(_ scanners: [BleScannerSpec]) -> [(Int, Int)] {
        var byNode: [Int: [Int]] = [:]
        for (i, s) in scanners.enumerated() { byNode[s.node, default: []].append(i) }
        var found: [(Int, Int)] = []
        for (_, list) in byNode {
            let order = list.sorted { (scanners[$0].start, $0) < (scanners[$1].start, $1) }
            var latest: (index: Int, end: SimTime)?
            for i in order {
                let s = scanners[i]
                let end = s.duration.map { s.start + $0 } ?? .max
                if let l = latest, s.start < l.end {
                    found.append((Swift.max(i, l.index), Swift.min(i, l.index)))
                }
                if latest.map({ end > $0.end }) ?? true { latest = (i, end) }
            }
        }
        var reported = Set<Int>()
        return found.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.filter { reported.insert($0.0).inserted }
    }
}

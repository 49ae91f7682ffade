/// The `ble` section: Bluetooth LE advertisers, scanners and 2.4 GHz Wi-Fi interferers.
public struct BleSpec: Sendable, Equatable {
    /// `ble.advertisers`, in file order.
    public var advertisers: [BleAdvertiserSpec] = []
    /// `ble.scanners`, in file order.
    public var scanners: [BleScannerSpec] = []
    /// `ble.wifi`: Wi-Fi transmitters on the 2.4 GHz band, in file order.
    public var wifi: [BleWifiSpec] = []
    /// `ble.connections`: LE connections with GATT notifications, in file order.
    public var connections: [BleConnectionSpec] = []
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
    /// How long a device stays in limited discoverable mode, s (`limitedDiscoverableS`):
    /// TGAP(lim_adv_timeout), 180 s in Core Specification v5.x (Vol 3, Part C, Appendix A), at
    /// most that; Core 4.x had 30.72 s, as seed 004 quotes it. After it the device stops
    /// advertising.
    public var limitedDiscoverableS: Double = 180
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
    /// Its AdvData and ScanRspData as AD structures (`data`, `scanResponseData`), when the
    /// scenario gives them: they then set `payloadBytes`, `scanResponseBytes` and
    /// `advertisesTxPower`.
    public var data: BleAdvertisingData? = nil
    /// See `data`.
    public var scanResponseData: BleAdvertisingData? = nil
    /// Times (from, to) when the device is in a connection with a central the scenario does not
    /// simulate (its phone or computer), in time order, not overlapping.
    public var connected: [(from: SimTime, to: SimTime)] = []
    /// Whether it advertises while connected (`false`: only while not connected, as a
    /// peripheral with one link does).
    public var advertisesWhenConnected = false
    /// Its identity resolving key, 16 bytes (`irk`; `nil`: one drawn for a bonded device).
    public var irk: [UInt8]? = nil
    /// The nodes it is bonded to (`bondedTo`): they hold its IRK and resolve its resolvable
    /// private addresses (`BlePrivacy`).
    public var bondedTo: [Int] = []
    /// ADV_DIRECT_IND at high duty cycle (`highDutyCycle`): events every 3.75 ms without
    /// advDelay, for 1.28 s (`BleTiming.highDutyInterval`); `false`: low duty cycle, events at
    /// `intervalMs`.
    public var highDutyCycle = false

    public static func == (a: BleAdvertiserSpec, b: BleAdvertiserSpec) -> Bool {
        a.node == b.node && a.pdu == b.pdu && a.intervalMs == b.intervalMs && a.randomDelayMs == b.randomDelayMs
            && a.payloadBytes == b.payloadBytes && a.scanResponseBytes == b.scanResponseBytes
            && a.txPowerDbm == b.txPowerDbm && a.advertisesTxPower == b.advertisesTxPower && a.phy == b.phy
            && a.address == b.address && a.service == b.service && a.channels == b.channels && a.target == b.target
            && a.start == b.start && a.addressRotationS == b.addressRotationS && a.data == b.data
            && a.scanResponseData == b.scanResponseData && a.advertisesWhenConnected == b.advertisesWhenConnected
            && a.irk == b.irk && a.bondedTo == b.bondedTo && a.highDutyCycle == b.highDutyCycle
            && a.connected.elementsEqual(b.connected) { $0.from == $1.from && $0.to == $1.to }
    }

    /// Whether it advertises at `t`: started, not past its limited discoverable time
    /// (`limitedTimeout`, `BleSpec.limitedDiscoverableS`) nor its high duty cycle's 1.28 s, and
    /// not in a connection that stops its advertising.
    public func advertises(at t: SimTime, limitedTimeout: SimTime) -> Bool {
        if data?.discoverability == .limited && t >= start + limitedTimeout { return false }
        if highDutyCycle && t >= start + BleTiming.highDutyDuration { return false }
        if !advertisesWhenConnected { for c in connected where t >= c.from && t < c.to { return false } }
        return true
    }
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
    /// Which advertisers the app is told of (GAP, Core Specification v5.4, Vol 3, Part C §9).
    public var discovery = BleDiscovery.observe
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

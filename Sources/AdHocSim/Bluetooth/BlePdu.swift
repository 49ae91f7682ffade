/// A legacy advertising-channel PDU type (Core Specification v5.4, Vol 6, Part B §2.3).
///
/// Lengths: every PDU has a 2-byte header; the payload holds the 6-byte advertiser address
/// (AdvA) and, where the type carries them, up to 31 bytes of advertising or scan-response
/// data, the 6-byte scanner or initiator address, or the 22-byte LLData of a connection
/// request.
public enum BlePduType: String, Sendable, CaseIterable {
    /// Connectable and scannable undirected advertising.
    case advInd = "ADV_IND"
    /// Connectable directed advertising (AdvA + TargetA, no data).
    case advDirectInd = "ADV_DIRECT_IND"
    /// Non-connectable, non-scannable undirected advertising.
    case advNonconnInd = "ADV_NONCONN_IND"
    /// Scannable undirected advertising.
    case advScanInd = "ADV_SCAN_IND"
    /// A scanner's request for the scan response (ScanA + AdvA).
    case scanReq = "SCAN_REQ"
    /// The advertiser's scan response (AdvA + ScanRspData ≤ 31).
    case scanRsp = "SCAN_RSP"
    /// An initiator's connection request (InitA + AdvA + LLData 22).
    case connectInd = "CONNECT_IND"

    /// The types an advertiser may use.
    public static let advertising: [BlePduType] = [.advInd, .advDirectInd, .advNonconnInd, .advScanInd]

    /// Largest advertising or scan-response data of a legacy PDU, bytes (radio.md).
    public static let maxDataBytes = 31

    /// Payload length in bytes for `dataBytes` of AdvData or ScanRspData.
    public func payloadBytes(dataBytes: Int) -> Int {
        switch self {
        case .advInd, .advNonconnInd, .advScanInd, .scanRsp: return 6 + dataBytes
        case .advDirectInd, .scanReq: return 12
        case .connectInd: return 34
        }
    }

    /// PDU length (header + payload), bytes.
    public func pduBytes(dataBytes: Int) -> Int { 2 + payloadBytes(dataBytes: dataBytes) }

    /// Whether a scanner may answer it with SCAN_REQ.
    public var isScannable: Bool { self == .advInd || self == .advScanInd }

    /// Whether an initiator may connect to it (ADV_IND, ADV_DIRECT_IND; Core Specification v5.4,
    /// Vol 6, Part B §2.3.1): what iOS reports as `CBAdvertisementDataIsConnectable`.
    public var isConnectable: Bool { self == .advInd || self == .advDirectInd }

    /// Whether it carries advertising data.
    public var carriesData: Bool { self == .advInd || self == .advNonconnInd || self == .advScanInd }
}

/// Timing constants of the LE link layer.
public enum BleTiming {
    /// T_IFS, the inter-frame space: 150 µs (Vol 6 Part B §4.1.1).
    public static let interFrameSpace = SimTime.microseconds(150)
    /// Advertising interval grid: 0.625 ms (Vol 6 Part B §4.4.2.2.1; radio.md).
    public static let intervalStep = SimTime.microseconds(625)
    /// Advertising interval range, 20 ms … 10.24 s (radio.md).
    public static let advertisingIntervalRangeMs: ClosedRange<Double> = 20...10_240
    /// Scan interval and window range, 2.5 ms … 10.24 s (radio.md).
    public static let scanIntervalRangeMs: ClosedRange<Double> = 2.5...10_240
    /// High duty cycle connectable directed advertising: at most 3.75 ms between the starts of
    /// two ADV_DIRECT_IND PDUs on one channel, for at most 1.28 s (Vol 6 Part B §4.4.2.4.2; its
    /// events carry no advDelay, §4.4.2.2.1). The model sends at the 3.75 ms bound.
    public static let highDutyInterval = SimTime.microseconds(3750)
    /// See `highDutyInterval`.
    public static let highDutyDuration = SimTime.milliseconds(1280)
    /// The largest random advertising delay advDelay: 10 ms (radio.md).
    public static let maxAdvertisingDelayMs = 10.0
    /// Time a radio needs between the end of one advertising PDU (or its listening slot) and
    /// the next channel's PDU. Assumption: one inter-frame space; the Core Specification
    /// only requires the PDUs of one event to be less than 10 ms apart.
    public static let channelHop = SimTime.microseconds(150)
}

/// The 40 LE RF channels: channel k (RF channel index) at 2402 + 2k MHz; the advertising
/// channels 37, 38 and 39 are at 2402, 2426 and 2480 MHz (radio.md).
public enum BleChannel {
    /// Centre frequency of link-layer channel index `index` (0…39), MHz (Core Specification
    /// v5.4 Vol 6 Part B §1.4.1): data channels 0–10 at 2404–2424, 11–36 at 2428–2478, and the
    /// advertising channels 37, 38, 39 at 2402, 2426 and 2480 MHz, placed in the gaps between
    /// Wi-Fi channels 1, 6 and 11.
    public static func frequencyMHz(channelIndex index: Int) -> Double {
        switch index {
        case 0...10: return 2404 + 2 * Double(index)
        case 11...36: return 2428 + 2 * Double(index - 11)
        default: return advertisingFrequencyMHz(index)
        }
    }

    /// Centre frequency of advertising channel index 37, 38 or 39, MHz.
    public static func advertisingFrequencyMHz(_ index: Int) -> Double {
        switch index {
        case 37: return 2402
        case 38: return 2426
        default: return 2480
        }
    }

    /// Centre frequency of 2.4 GHz Wi-Fi channel `n` (1…13), MHz: 2407 + 5n (IEEE 802.11-2016
    /// §19.3.15, Table 19-1 via §17.3.8.4.2 channel numbering).
    public static func wifiFrequencyMHz(_ n: Int) -> Double { 2407 + 5 * Double(n) }

    /// Relative power spectral density of a 20 MHz OFDM transmitter at `offsetMHz` from its
    /// centre, dBr: the transmit spectrum mask of IEEE 802.11-2016 §17.3.9.3 (0 dBr to ±9 MHz,
    /// −20 dBr at ±11, −28 at ±20, −40 at ±30 and beyond, linear in dB between). Assumption:
    /// a phone's transmitter sits on the mask (real ones are usually a few dB inside it).
    public static func wifiMaskDbr(offsetMHz: Double) -> Double {
        let f = abs(offsetMHz)
        if f <= 9 { return 0 }
        if f <= 11 { return -20 * (f - 9) / 2 }
        if f <= 20 { return -20 - 8 * (f - 11) / 9 }
        if f <= 30 { return -28 - 12 * (f - 20) / 10 }
        return -40
    }

    /// Fraction of a 20 MHz Wi-Fi transmission's power that falls into a BLE receiver of
    /// `bandwidthHz` tuned to channel `index` (advertising or data): the mask's PSD at the offset
    /// times the receiver bandwidth over the 16.6 MHz the 52 occupied subcarriers span.
    public static func wifiCoupling(bleChannel index: Int, wifiChannel n: Int, bandwidthHz: Double) -> Double {
        let offset = frequencyMHz(channelIndex: index) - wifiFrequencyMHz(n)
        return Decibel.linear(fromDb: wifiMaskDbr(offsetMHz: offset)) * bandwidthHz / 16.6e6
    }
}

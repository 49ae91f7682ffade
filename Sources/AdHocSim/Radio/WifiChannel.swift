/// An 802.11 channel AWDL or plain ad-hoc Wi-Fi can use (radio.md, "AWDL"): channel 6 in
/// 2.4 GHz (AWDL's slot 8), channels 44 (EU) and 149 (US) in 5 GHz.
public enum WifiChannel: Int, Sendable, CaseIterable {
    case ch6 = 6, ch44 = 44, ch149 = 149

    /// The primary 20 MHz channel's centre frequency, Hz: 2407 + 5·n MHz in 2.4 GHz,
    /// 5000 + 5·n MHz in 5 GHz (IEEE 802.11-2016 §19.3.15 and §21.3.14).
    public var centreFrequencyHz: Double {
        switch self {
        case .ch6: return 2.437e9
        case .ch44: return 5.220e9
        case .ch149: return 5.745e9
        }
    }

    /// The widths the channel supports: 20 MHz only at 2.4 GHz for AWDL's slot 8 (assumption:
    /// AWDL uses HT20 there), 20/40/80 MHz at 5 GHz.
    public var allowedWidthsMHz: [Int] { self == .ch6 ? [20] : [20, 40, 80] }
}

/// An 802.11n/ac (HT/VHT) OFDM modulation-and-coding scheme, MCS 0–9 (IEEE 802.11-2016
/// Tables 21-30…21-61; radio.md's sensitivity table lists the same ten).
public struct Mcs: Sendable, Equatable, Hashable {
    /// The MCS index, 0...9.
    public let index: Int
    /// Spatial streams of a frame sent at this MCS, or `nil` for the PHY's configured count
    /// (rate selection with `SpatialStreamModel.scattering` picks one or two per frame).
    public let streams: Int?

    /// Coded bits per subcarrier per stream: BPSK 1, QPSK 2, 16-QAM 4, 64-QAM 6, 256-QAM 8.
    public var bitsPerSubcarrier: Int { [1, 2, 2, 4, 4, 6, 6, 6, 8, 8][index] }
    /// Code rate as numerator/denominator: 1/2, 1/2, 3/4, 1/2, 3/4, 2/3, 3/4, 5/6, 3/4, 5/6.
    public var codeRate: (num: Int, den: Int) {
        [(1, 2), (1, 2), (3, 4), (1, 2), (3, 4), (2, 3), (3, 4), (5, 6), (3, 4), (5, 6)][index]
    }

    /// All ten.
    public static let all = (0...9).map { Mcs(index: $0) }

    /// An MCS. - Precondition: 0...9; streams 1 or 2 when given.
    public init(index: Int, streams: Int? = nil) {
        precondition((0...9).contains(index), "MCS index \(index)")
        precondition(streams == nil || streams == 1 || streams == 2)
        self.index = index
        self.streams = streams
    }
}

/// The OFDM PHY timing of one channel configuration: width, spatial streams and band.
///
/// Airtime of a PPDU (VHT, IEEE 802.11-2016 §21.4.3; HT mixed format §19.4.3), long guard
/// interval (3.2 µs + 0.8 µs = 4 µs symbols):
///
///     preamble = L-STF 8 + L-LTF 8 + L-SIG 4 + SIG-A 8 + STF 4 + 4·N_LTF [+ VHT-SIG-B 4] µs
///     N_SYM    = ceil((16 service bits + 8·PSDU bytes + 6 tail bits) / N_DBPS)
///     airtime  = preamble + 4 µs · N_SYM [+ 6 µs signal extension in 2.4 GHz]
///
/// N_DBPS = data subcarriers (52 / 108 / 234 at 20 / 40 / 80 MHz) × bits per subcarrier ×
/// code rate × streams; N_LTF = 1 for one stream, 2 for two.
public struct OfdmPhy: Sendable, Equatable {
    /// Channel width, MHz: 20, 40 or 80.
    public var widthMHz: Int
    /// Spatial streams: 1 or 2.
    public var spatialStreams: Int
    /// 2.4 GHz (HT, with signal extension) rather than 5 GHz (VHT).
    public var is24GHz: Bool

    /// A PHY configuration.
    public init(widthMHz: Int, spatialStreams: Int, is24GHz: Bool = false) {
        precondition([20, 40, 80].contains(widthMHz) && (1...2).contains(spatialStreams))
        self.widthMHz = widthMHz
        self.spatialStreams = spatialStreams
        self.is24GHz = is24GHz
    }

    /// The OFDM symbol with the long guard interval, ns.
    public static let symbolNanos: Int64 = 4_000

    /// Data subcarriers per symbol (IEEE 802.11-2016 Table 21-5).
    public var dataSubcarriers: Int {
        switch widthMHz {
        case 20: return 52
        case 40: return 108
        default: return 234
        }
    }

    /// Whether the standard defines this MCS for the configuration: VHT MCS 9 does not exist
    /// at 20 MHz for one or two streams (N_DBPS would not be an integer).
    public func isValid(_ mcs: Mcs) -> Bool {
        let bits = dataSubcarriers * mcs.bitsPerSubcarrier * streams(mcs) * mcs.codeRate.num
        if is24GHz && mcs.index > 7 { return false }  // HT at 2.4 GHz: MCS 0–7 per stream
        return bits % mcs.codeRate.den == 0
    }

    /// The valid MCSs, lowest first.
    public var validMcs: [Mcs] { Mcs.all.filter(isValid) }

    /// The streams a frame at `mcs` uses.
    @inline(__always) public func streams(_ mcs: Mcs) -> Int { mcs.streams ?? spatialStreams }

    /// Data bits per OFDM symbol.
    public func dataBitsPerSymbol(_ mcs: Mcs) -> Int {
        dataSubcarriers * mcs.bitsPerSubcarrier * streams(mcs) * mcs.codeRate.num / mcs.codeRate.den
    }

    /// The PHY rate, bit/s (e.g. 6.5 Mbit/s for MCS 0 at 20 MHz, one stream).
    public func rateBitsPerSecond(_ mcs: Mcs) -> Double {
        Double(dataBitsPerSymbol(mcs) * (1_000_000_000 / Int(OfdmPhy.symbolNanos)))
    }

    /// The preamble and PHY header duration, ns.
    public var preambleNanos: Int64 { preambleNanos(streams: spatialStreams) }

    /// The preamble and PHY header duration for `streams` streams, ns.
    public func preambleNanos(streams: Int) -> Int64 {
        let ltf = Int64(streams == 1 ? 1 : 2)
        let legacy: Int64 = 8_000 + 8_000 + 4_000  // L-STF, L-LTF, L-SIG
        let signalA: Int64 = 8_000  // HT-SIG or VHT-SIG-A
        let stf: Int64 = 4_000  // HT-STF or VHT-STF
        let sigB: Int64 = is24GHz ? 0 : 4_000  // VHT-SIG-B
        return legacy + signalA + stf + 4_000 * ltf + sigB
    }

    /// Airtime of a PPDU carrying `psduBytes` at `mcs`, ns.
    public func airtimeNanos(psduBytes: Int, mcs: Mcs) -> Int64 {
        let bits = 16 + 8 * psduBytes + 6
        let perSymbol = dataBitsPerSymbol(mcs)
        let symbols = (bits + perSymbol - 1) / perSymbol
        return preambleNanos(streams: streams(mcs)) + Int64(symbols) * OfdmPhy.symbolNanos + (is24GHz ? 6_000 : 0)
    }
}

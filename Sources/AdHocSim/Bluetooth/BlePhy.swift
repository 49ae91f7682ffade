import Foundation

/// An LE physical layer (Core Specification v5.4, Vol 6, Part A §2 and Part B §2.1–2.2).
public enum BlePhy: String, Sendable, CaseIterable {
    /// LE 1M: 1 Msym/s GFSK, no coding; the only PHY of legacy advertising.
    case le1M = "1M"
    /// LE 2M: 2 Msym/s; not allowed on the primary advertising channels (Vol 6 Part B §4.4.2).
    case le2M = "2M"
    /// LE Coded, S = 2 (500 kbit/s).
    case codedS2 = "coded-s2"
    /// LE Coded, S = 8 (125 kbit/s).
    case codedS8 = "coded-s8"

    /// Coded bits per data bit after the FEC and pattern mapping (1 when uncoded).
    public var symbolsPerBit: Int {
        switch self {
        case .le1M, .le2M: return 1
        case .codedS2: return 2
        case .codedS8: return 8
        }
    }

    /// Data bit rate, bit/s.
    public var bitRate: Double {
        switch self {
        case .le1M: return 1e6
        case .le2M: return 2e6
        case .codedS2: return 500e3
        case .codedS8: return 125e3
        }
    }

    /// Typical chip sensitivity, dBm, at the Core Specification's reference BER of 0.1 %
    /// (radio.md: −94 dBm 1M, −89 dBm 2M, −99 dBm S=2, −101 dBm S=8).
    public var typicalSensitivityDbm: Double {
        switch self {
        case .le1M: return -94
        case .le2M: return -89
        case .codedS2: return -99
        case .codedS8: return -101
        }
    }

    /// Receiver noise bandwidth, Hz: about the symbol rate (assumption: 1 MHz for 1 Msym/s
    /// PHYs, 2 MHz for LE 2M).
    public var noiseBandwidthHz: Double { self == .le2M ? 2e6 : 1e6 }

    /// Airtime of a packet whose PDU (header + payload) is `pduBytes` long (Vol 6 Part B §2.1
    /// uncoded, §2.2 coded):
    /// - uncoded: (preamble + access address 4 + PDU + CRC 3) bytes at the bit rate, with a
    ///   1-byte preamble on LE 1M and a 2-byte one on LE 2M;
    /// - coded: preamble 80 µs, access address 256 µs, CI 16 µs and TERM1 24 µs at S = 8, then
    ///   (PDU + CRC) bits × S µs and TERM2 3·S µs.
    public func airtime(pduBytes: Int) -> SimTime {
        switch self {
        case .le1M: return .microseconds((1 + 4 + pduBytes + 3) * 8)
        case .le2M: return .microseconds((2 + 4 + pduBytes + 3) * 4)
        case .codedS2, .codedS8:
            let s = symbolsPerBit
            return .microseconds(80 + 256 + 16 + 24 + (pduBytes + 3) * 8 * s + 3 * s)
        }
    }
}

/// Bit errors of an LE receiver as a function of SINR.
///
/// Shape: non-coherent binary FSK, BER = ½·exp(−γ/2) in Eb/N0 γ (Proakis & Salehi, "Digital
/// Communications", 5th ed., §4.5), the classical model of a GFSK discriminator receiver. With
/// SINR measured in the receiver's noise bandwidth, γ is SINR times a constant, so the model
/// is BER(s) = ½·exp(−α·s) with one constant per PHY. The constant is anchored to the chip's
/// typical sensitivity: at that input power, with the place-free noise floor (thermal noise in
/// the noise bandwidth plus the 7 dB noise figure of radio.md), BER = 10⁻³, the reference BER
/// at which the Core Specification (Vol 6 Part A §4.1) defines sensitivity. The coding gain of
/// the Coded PHYs is thereby carried by their better sensitivity. Co-channel interference is
/// treated as noise, which gives a capture ratio of about 11–13 dB for short PDUs (radio.md's
/// co-channel C/I 9–13 dB for LE 1M).
public struct BleErrorModel: Sendable, Equatable {
    /// α of BER = ½·exp(−α·SINR).
    public let alpha: Double
    /// SINR at which BER = 10⁻³ (linear).
    public let referenceSinr: Double

    /// The noise figure the typical sensitivities were measured with (radio.md's default).
    public static let referenceNoiseFigureDb = 7.0

    /// The model of `phy`.
    public init(phy: BlePhy) {
        let floor = NoiseFloor.thermalDbm(bandwidthHz: phy.noiseBandwidthHz, noiseFigureDb: Self.referenceNoiseFigureDb)
        referenceSinr = Decibel.linear(fromDb: phy.typicalSensitivityDbm - floor)
        alpha = log(500) / referenceSinr
    }

    /// Bit error rate at `sinr` (linear).
    @inlinable public func ber(sinr: Double) -> Double { 0.5 * exp(-alpha * sinr) }

    /// ln P(no bit error) over `bits` bits at `sinr` (linear).
    @inlinable public func logSuccess(sinr: Double, bits: Double) -> Double {
        bits * log1p(-ber(sinr: sinr))
    }
}

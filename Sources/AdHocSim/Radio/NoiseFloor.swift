import Foundation

/// The receiver's noise floor: N = −174 dBm/Hz + 10·log10(B) + NF, plus a per-place
/// interference rise (radio.md, "Noise and interference"). With NF = 7 dB (the ns-3 default):
/// −107 dBm at 1 MHz, −94 at 20 MHz, −91 at 40 MHz, −88 dBm at 80 MHz.
public enum NoiseFloor {
    /// Thermal noise density at 290 K, dBm/Hz (kT = 1.38e-23 · 290 W/Hz).
    public static let thermalDensityDbmPerHz = -174.0

    /// Thermal noise plus noise figure over `bandwidthHz`, dBm.
    public static func thermalDbm(bandwidthHz: Double, noiseFigureDb: Double) -> Double {
        thermalDensityDbmPerHz + 10 * log10(bandwidthHz) + noiseFigureDb
    }

    /// The noise floor a receiver sees: thermal + NF + interference rise, dBm.
    public static func dbm(bandwidthHz: Double, noiseFigureDb: Double, interferenceDb: Double) -> Double {
        thermalDbm(bandwidthHz: bandwidthHz, noiseFigureDb: noiseFigureDb) + interferenceDb
    }
}

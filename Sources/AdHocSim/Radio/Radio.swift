import Foundation

/// Conversions between decibel and linear units.
public enum Decibel {
    /// dBm → milliwatts.
    @inlinable public static func milliwatts(fromDbm dbm: Double) -> Double { pow(10, dbm / 10) }
    /// Milliwatts → dBm.
    @inlinable public static func dbm(fromMilliwatts mw: Double) -> Double { 10 * log10(mw) }
    /// A power ratio in dB → linear.
    @inlinable public static func linear(fromDb db: Double) -> Double { pow(10, db / 10) }
    /// A linear power ratio → dB.
    @inlinable public static func db(fromLinear x: Double) -> Double { 10 * log10(x) }
}

/// The speed of light in vacuum, m/s (exact, SI).
public let speedOfLight = 299_792_458.0

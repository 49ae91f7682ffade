// Radio layer: how strongly one phone hears another, and what that means for a frame.
//
// This folder owns propagation per place (log-distance path loss from a free-space reference,
// the two-ray breakpoint of an open field, foliage loss in a forest, spatially correlated
// log-normal shadowing, people blocking the path, Rician fading per frame and receiver
// drawn from a counter-based tabulated inverse CDF, `RicianPowerTable`), the noise floor
// (thermal noise, noise figure, a per-place interference rise), and the 802.11 OFDM PHY
// (MCS tables, PPDU airtime, a frame error model calibrated to the standard's sensitivity
// table and tabulated over its uncertain band, `FrameErrorTable`; SNR-based rate selection)
// and the maximum range that follows from them. Every default cites
// `../shared/reference/radio.md` or is labelled an assumption. The link layer asks it for
// received power (the path-loss, shadowing, blockage and fading models), the noise floor,
// airtimes and frame success (`FrameErrorModel`); nothing here knows about MACs, packets or
// transports.

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

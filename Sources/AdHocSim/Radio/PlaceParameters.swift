/// Every propagation parameter of a place, resolved from its preset and the file's overrides.
///
/// The presets' defaults and where they come from (radio.md unless said otherwise):
///
/// | | underground | city | field | forest |
/// |---|---|---|---|---|
/// | exponent n | 1.8 ¹ | 2.7 ² | 2.0 ³ | 2.2 ⁴ |
/// | two-ray breakpoint | no | no | yes ³ | no |
/// | foliage | — | — | — | Weissberger, whole path ⁵ |
/// | shadowing σ | 4 dB ¹ | 5 dB ⁶ | 3 dB ³ | 6 dB ⁴ |
/// | shadowing correlation distance | 10 m ⁷ | 10 m ⁷ | 20 m ⁸ | 10 m ⁸ |
/// | noise figure | 7 dB ⁹ | 7 dB ⁹ | 7 dB ⁹ | 7 dB ⁹ |
/// | interference rise | 4 dB ¹⁰ | 3 dB ¹⁰ | 0 dB ¹⁰ | 0 dB ¹⁰ |
/// | Rician K (linear) | 4 ¹¹ | 2 ¹¹ | 10 ¹¹ | 1 ¹¹ |
/// | blockage | 0.5/s, 0.6 s, 15 dB ¹² | 0.3/s, 0.5 s, 15 dB ¹² | none ¹² | none ¹² |
///
/// Reference loss at 1 m defaults to free space at the carrier (40.2 dB at 2.437 GHz,
/// 46.8 dB at 5.22 GHz, 47.6 dB at 5.745 GHz) in every preset.
///
/// 1. Tunnels and metal halls guide waves: measured n < 2 (Samad & Choi, CMC 2022); 3GPP TR
///    38.901 InH LoS n = 1.73, σ 3 dB; radio.md's range 1.6–1.9 and σ 3–5 dB; middle values.
/// 2. Assumption: a street mixes line of sight (ITU-R P.1411 n = 2.12) with obstructed paths
///    (3.5–4); 2.7 is the low end of Rappaport's urban range (Table 4.2, 2.7–3.5), with people
///    modelled separately by blockage.
/// 3. Free space up to the two-ray breakpoint dc = 4·ht·hr/λ, then 4; σ in radio.md's 2–4 dB.
/// 4. radio.md: n 2.0–2.5 plus foliage, σ 4–8 dB; middle values.
/// 5. Weissberger by default as the issue asks; the vegetated part of the path is the whole path
///    (assumption: both phones stand among the trees), adjustable by `vegetatedFraction`.
/// 6. ITU-R P.1411 site-general LoS σ = 5.06 dB.
/// 7. 3GPP UMi shadowing correlation distance 10–13 m (radio.md); used for the station too
///    (assumption).
/// 8. Assumption: open ground decorrelates more slowly; foliage like a street.
/// 9. ns-3's default noise figure (radio.md, "Noise and interference").
/// 10. Assumption in magnitude, ranked by the ambient RF-EMF survey (Loizeau et al. 2023:
///     rural 0.19 V/m < city 0.27–0.41 ≈ public transport 0.27–0.36 V/m). The broadband field
///     itself is mostly out of band and is not added (radio.md); hostap's office floor is
///     about 2 dB above thermal + 7 dB at 5 GHz, which bounds the city value's order.
/// 11. Assumption: strong line of sight in a field, a waveguide-like station, weak LoS in a
///     street, scattering among trees. Rayleigh is K = 0; `fadingK: null` turns fading off.
/// 12. radio.md "Bodies and crowds": a two-state process with a 10–20 dB penalty and dwell
///     times of 0.3–1 s, frequent in a city and a station, rare in a field, static in a forest.
///     Rates are assumptions.
public struct PlaceParameters: Sendable, Equatable {
    /// The preset the values started from.
    public var place: Place
    /// Path-loss exponent n.
    public var pathLossExponent: Double
    /// Loss at 1 m, dB.
    public var referenceLossDb: Double
    /// Whether the two-ray breakpoint applies.
    public var twoRayBreakpoint: Bool
    /// Foliage model, if the path runs through vegetation.
    public var foliage: FoliageModel?
    /// The vegetated fraction of the path (0...1).
    public var vegetatedFraction: Double
    /// Log-normal shadowing σ, dB.
    public var shadowingSigmaDb: Double
    /// Distance over which shadowing decorrelates, m.
    public var shadowingCorrelationM: Double
    /// Receiver noise figure, dB.
    public var noiseFigureDb: Double
    /// Interference rise over thermal, dB.
    public var interferenceDb: Double
    /// Rician K (linear); `nil` = no fast fading.
    public var fadingK: Double?
    /// People blocking the path; `nil` = none.
    public var blockage: BlockageSpec?

    /// The preset's defaults at a carrier of `frequencyHz`.
    public static func preset(_ place: Place, frequencyHz: Double) -> PlaceParameters {
        let fspl1m = FreeSpace.lossDb(distance: 1, frequencyHz: frequencyHz)
        switch place {
        case .underground:
            return PlaceParameters(
                place: place, pathLossExponent: 1.8, referenceLossDb: fspl1m, twoRayBreakpoint: false,
                foliage: nil, vegetatedFraction: 0, shadowingSigmaDb: 4, shadowingCorrelationM: 10,
                noiseFigureDb: 7, interferenceDb: 4, fadingK: 4,
                blockage: BlockageSpec(ratePerSecond: 0.5, meanDwellSeconds: 0.6, penaltyDb: 15))
        case .city:
            return PlaceParameters(
                place: place, pathLossExponent: 2.7, referenceLossDb: fspl1m, twoRayBreakpoint: false,
                foliage: nil, vegetatedFraction: 0, shadowingSigmaDb: 5, shadowingCorrelationM: 10,
                noiseFigureDb: 7, interferenceDb: 3, fadingK: 2,
                blockage: BlockageSpec(ratePerSecond: 0.3, meanDwellSeconds: 0.5, penaltyDb: 15))
        case .field:
            return PlaceParameters(
                place: place, pathLossExponent: 2.0, referenceLossDb: fspl1m, twoRayBreakpoint: true,
                foliage: nil, vegetatedFraction: 0, shadowingSigmaDb: 3, shadowingCorrelationM: 20,
                noiseFigureDb: 7, interferenceDb: 0, fadingK: 10, blockage: nil)
        case .forest:
            return PlaceParameters(
                place: place, pathLossExponent: 2.2, referenceLossDb: fspl1m, twoRayBreakpoint: false,
                foliage: .weissberger, vegetatedFraction: 1, shadowingSigmaDb: 6, shadowingCorrelationM: 10,
                noiseFigureDb: 7, interferenceDb: 0, fadingK: 1, blockage: nil)
        case .custom:
            // No defaults for the five required values (the decoder insists on them); the
            // optional effects are off unless the file turns them on.
            return PlaceParameters(
                place: place, pathLossExponent: 2, referenceLossDb: fspl1m, twoRayBreakpoint: false,
                foliage: nil, vegetatedFraction: 0, shadowingSigmaDb: 0, shadowingCorrelationM: 10,
                noiseFigureDb: 7, interferenceDb: 0, fadingK: nil, blockage: nil)
        }
    }

    /// The preset of `spec.place` with `spec`'s overrides applied.
    public static func resolve(_ spec: EnvironmentSpec, frequencyHz: Double) -> PlaceParameters {
        var p = preset(spec.place, frequencyHz: frequencyHz)
        if let v = spec.pathLossExponent { p.pathLossExponent = v }
        if let v = spec.referenceLossDb { p.referenceLossDb = v }
        if let v = spec.shadowingSigmaDb { p.shadowingSigmaDb = v }
        if let v = spec.noiseFigureDb { p.noiseFigureDb = v }
        if let v = spec.interferenceDb { p.interferenceDb = v }
        if let v = spec.twoRayBreakpoint { p.twoRayBreakpoint = v }
        if let v = spec.shadowingCorrelationM { p.shadowingCorrelationM = v }
        switch spec.foliage {
        case .preset: break
        case .off: p.foliage = nil
        case .value(let m): p.foliage = FoliageModel(rawValue: m)
        }
        if let v = spec.vegetatedFraction { p.vegetatedFraction = v }
        if p.foliage != nil && spec.vegetatedFraction == nil && p.vegetatedFraction == 0 { p.vegetatedFraction = 1 }
        switch spec.fadingK {
        case .preset: break
        case .off: p.fadingK = nil
        case .value(let k): p.fadingK = k
        }
        switch spec.blockage {
        case .preset: break
        case .off: p.blockage = nil
        case .value(let b): p.blockage = b
        }
        return p
    }

    /// The median path-loss model (no shadowing, blockage or fading) at `frequencyHz`.
    public func pathLoss(frequencyHz: Double) -> LogDistancePathLoss {
        LogDistancePathLoss(
            referenceLossDb: referenceLossDb, exponent: pathLossExponent,
            twoRayBreakpoint: twoRayBreakpoint, frequencyHz: frequencyHz)
    }

    /// Mean loss between antennas at `a` and `b`, dB: the median loss (antenna heights from the
    /// positions' z, at least 0.1 m) plus σ·(u_a + u_b)/√2, where u_a and u_b are the unit values
    /// of the run's shadowing field at the two positions (`ShadowingField.unitValue`; one field
    /// per run, so Wi-Fi and Bluetooth see the same obstacles).
    public func linkLossDb(_ a: Position, _ b: Position, shadowUnits: (Double, Double), frequencyHz: Double) -> Double {
        let median = medianLossDb(
            distance: a.distance(to: b), txHeight: Swift.max(a.z, 0.1), rxHeight: Swift.max(b.z, 0.1),
            frequencyHz: frequencyHz)
        return median + shadowingSigmaDb * (shadowUnits.0 + shadowUnits.1) / 2.squareRoot()
    }

    /// Median loss between two antennas: path loss plus foliage over the vegetated part, dB.
    public func medianLossDb(distance: Double, txHeight: Double, rxHeight: Double, frequencyHz: Double) -> Double {
        var loss = pathLoss(frequencyHz: frequencyHz).lossDb(distance: distance, txHeight: txHeight, rxHeight: rxHeight)
        if let foliage { loss += foliage.lossDb(depth: distance * vegetatedFraction, frequencyHz: frequencyHz) }
        return loss
    }
}

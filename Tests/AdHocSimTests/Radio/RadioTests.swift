import Foundation
import Testing
@testable import AdHocSim

@Suite("Propagation")
struct PropagationTests {
    @Test func freeSpaceLossMatchesFriis() {
        // 20·log10(4π·d·f/c): 4π·2.437e9/c = 102.15 → 40.18 dB; 4π·5.745e9/c = 240.81 → 47.63 dB.
        expect(close(FreeSpace.lossDb(distance: 1, frequencyHz: 2.437e9), 40.18, 0.01))
        expect(close(FreeSpace.lossDb(distance: 100, frequencyHz: 2.437e9), 80.18, 0.01))
        expect(close(FreeSpace.lossDb(distance: 1, frequencyHz: 5.745e9), 47.63, 0.01))
        expect(close(FreeSpace.lossDb(distance: 100, frequencyHz: 5.745e9), 87.63, 0.01))
    }

    @Test func logDistanceAddsTenNDecibelsPerDecade() {
        let m = LogDistancePathLoss(referenceLossDb: 40, exponent: 3, twoRayBreakpoint: false, frequencyHz: 2.437e9)
        expect(close(m.lossDb(distance: 10, txHeight: 1.2, rxHeight: 1.2), 70, 1e-9))
        expect(close(m.lossDb(distance: 100, txHeight: 1.2, rxHeight: 1.2), 100, 1e-9))
        expect(close(m.lossDb(distance: 0.2, txHeight: 1.2, rxHeight: 1.2), 40, 1e-9))  // clamped to 1 m
    }

    @Test func twoRayBreakpointSwitchesToExponentFour() {
        let m = LogDistancePathLoss(referenceLossDb: 47.63, exponent: 2, twoRayBreakpoint: true, frequencyHz: 5.745e9)
        // dc = 4·1.2·1.2·f/c = 5.76 · 19.163 = 110.38 m (radio.md: ≈ 100–110 m at 5 GHz).
        let dc = m.breakpointDistance(txHeight: 1.2, rxHeight: 1.2)
        expect(close(dc, 110.38, 0.01))
        // At 2·dc: 20·log10(dc) + 40·log10(2) above the 1 m loss.
        let expected = 47.63 + 20 * log10(dc) + 40 * log10(2.0)
        expect(close(m.lossDb(distance: 2 * dc, txHeight: 1.2, rxHeight: 1.2), expected, 1e-9))
    }

    @Test func foliageModelsMatchPublishedValues() {
        // The public unit test value: 17.02 dB for 50 m at 2.4 GHz (radio.md).
        expect(close(FoliageModel.weissberger.lossDb(depth: 50, frequencyHz: 2.4e9), 17.02, 0.01))
        // radio.md's table at 5.22 GHz: 3.6 / 7.2 / 12.4 dB at 5 / 10 / 20 m.
        expect(close(FoliageModel.weissberger.lossDb(depth: 5, frequencyHz: 5.22e9), 3.6, 0.05))
        expect(close(FoliageModel.weissberger.lossDb(depth: 10, frequencyHz: 5.22e9), 7.2, 0.05))
        expect(close(FoliageModel.weissberger.lossDb(depth: 20, frequencyHz: 5.22e9), 12.4, 0.05))
        // P.833 saturates at Am = 1.15·2400^0.43 = 32.7 dB (radio.md: ≈ 33 dB at 2.4 GHz).
        expect(close(FoliageModel.ituP833.lossDb(depth: 10_000, frequencyHz: 2.4e9), 32.67, 0.05))
        // Slope at the edge: γ = 0.32 dB/m.
        expect(close(FoliageModel.ituP833.lossDb(depth: 1, frequencyHz: 2.4e9), 0.32, 0.01))
    }

    @Test func thermalNoiseMatchesTheReference() {
        expect(close(NoiseFloor.thermalDbm(bandwidthHz: 20e6, noiseFigureDb: 7), -94, 0.02))
        // radio.md rounds these to whole dB: 10·log10(40e6) = 76.02, 10·log10(80e6) = 79.03.
        expect(close(NoiseFloor.thermalDbm(bandwidthHz: 40e6, noiseFigureDb: 7), -90.98, 0.01))
        expect(close(NoiseFloor.thermalDbm(bandwidthHz: 80e6, noiseFigureDb: 7), -87.97, 0.01))
        expect(close(NoiseFloor.thermalDbm(bandwidthHz: 1e6, noiseFigureDb: 7), -107, 0.02))
        expect(close(NoiseFloor.dbm(bandwidthHz: 20e6, noiseFigureDb: 7, interferenceDb: 3), -91, 0.02))
    }

    @Test func shadowingIsSymmetricDeterministicAndHasItsSigma() {
        let field = ShadowingField(sigmaDb: 6, correlationDistance: 10, seed: 5)
        let a = Position(x: 3, y: 4, z: 1.2), b = Position(x: 40, y: -7, z: 1.2)
        expectEqual(field.lossDb(between: a, and: b), field.lossDb(between: b, and: a))
        expectEqual(field.lossDb(between: a, and: b), ShadowingField(sigmaDb: 6, correlationDistance: 10, seed: 5).lossDb(between: a, and: b))
        expect(
            field.lossDb(between: a, and: b)
                != ShadowingField(sigmaDb: 6, correlationDistance: 10, seed: 6).lossDb(between: a, and: b))
        // Over many far-apart links, X has mean 0 and standard deviation σ (5 standard errors).
        var sum = 0.0, sumSq = 0.0
        let n = 4000
        for i in 0..<n {
            let p = Position(x: Double(i) * 37.3, y: Double(i % 17) * 91.1, z: 0)
            let q = Position(x: -Double(i) * 53.9, y: 500 + Double(i % 13) * 77.7, z: 0)
            let x = field.lossDb(between: p, and: q)
            sum += x
            sumSq += x * x
        }
        let mean = sum / Double(n), sd = (sumSq / Double(n) - mean * mean).squareRoot()
        expect(abs(mean) < 5 * 6 / Double(n).squareRoot())
        expect(abs(sd - 6) < 5 * 6 / (2 * Double(n)).squareRoot())
        // Nearby points are strongly correlated: half a metre moves F little compared with σ.
        let f0 = field.unitValue(at: Position(x: 12, y: 12, z: 0)),
            f1 = field.unitValue(at: Position(x: 12.5, y: 12, z: 0))
        expect(abs(f0 - f1) < 0.5)
    }

    @Test func blockageSpendsTheStationaryFractionBlocked() {
        let spec = BlockageSpec(ratePerSecond: 0.5, meanDwellSeconds: 0.6, penaltyDb: 15)
        var process = BlockageProcess(spec: spec, stream: RandomStream(seed: 1, name: "test/blockage"))
        var blocked = 0
        let samples = 200_000
        for i in 0..<samples where process.penaltyDb(at: .milliseconds(i * 10)) == 15 { blocked += 1 }
        // Stationary P(blocked) = 0.6 / (0.6 + 2) = 0.2308 over 2000 s (~1000 cycles; tolerance
        // is ~4 standard errors of the fraction for that many independent cycles).
        expect(abs(Double(blocked) / Double(samples) - 0.2308) < 0.03)
    }

    /// The channel's compact copy of a process (`StoredBlockage`) flips at the same times as the
    /// process itself, sampled at irregular steps (several flips between some samples, none
    /// between others), and keeps the same next change.
    @Test func aStoredBlockageProcessFlipsAsTheProcessDoes() {
        let spec = BlockageSpec(ratePerSecond: 0.5, meanDwellSeconds: 0.6, penaltyDb: 15)
        var process = BlockageProcess(spec: spec, stream: RandomStream(seed: 1, name: "link:3-8/blockage"))
        var stored = StoredBlockage(process)
        var flips = 0
        var time = SimTime.zero
        for i in 0..<5_000 {
            time = time + .milliseconds(1 + (i * 7919) % 4_000)
            let before = process.blocked
            expectEqual(stored.isBlocked(at: time, spec: spec), process.isBlocked(at: time))
            expectEqual(stored.nextChange, process.nextChange)
            if process.blocked != before { flips += 1 }
        }
        // Samples about 2 s apart, against a correlation time of 1 / (0.5 + 1 / 0.6) = 0.46 s, are
        // nearly independent: the state differs between two with probability 2 · 0.23 · 0.77 =
        // 0.36, about 1 800 of 5 000 (so the comparison saw both states many times).
        expect(flips > 1_000)
    }

    @Test func ricianFadingHasUnitMeanPower() {
        for k in [0.0, 1, 10] {
            var s = RandomStream(seed: 3, name: "test/fading")
            var sum = 0.0
            let n = 100_000
            for _ in 0..<n { sum += pow(10, RicianFading.gainDb(k: k, stream: &s) / 10) }
            expect(abs(sum / Double(n) - 1) < 0.02, "K = \(k)")
        }
    }
}

@Suite("OFDM PHY")
struct PhyTests {
    @Test func phyRatesMatchTheStandard() {
        expectEqual(OfdmPhy(widthMHz: 20, spatialStreams: 1).rateBitsPerSecond(Mcs(index: 0)), 6.5e6)
        expectEqual(OfdmPhy(widthMHz: 20, spatialStreams: 1).rateBitsPerSecond(Mcs(index: 7)), 65e6)
        expectEqual(OfdmPhy(widthMHz: 40, spatialStreams: 1).rateBitsPerSecond(Mcs(index: 0)), 13.5e6)
        expectEqual(OfdmPhy(widthMHz: 80, spatialStreams: 1).rateBitsPerSecond(Mcs(index: 9)), 390e6)
        expectEqual(OfdmPhy(widthMHz: 80, spatialStreams: 2).rateBitsPerSecond(Mcs(index: 9)), 780e6)
        expect(!OfdmPhy(widthMHz: 20, spatialStreams: 1).isValid(Mcs(index: 9)))
        expect(OfdmPhy(widthMHz: 20, spatialStreams: 1).isValid(Mcs(index: 8)))
    }

    @Test func airtimeOfA1500ByteMpdu() {
        // VHT, 1 stream: preamble 8+8+4+8+4+4+4 = 40 µs.
        // MCS 0, 20 MHz: N_DBPS = 26; (16 + 12000 + 6) / 26 = 462.4 → 463 symbols → 1852 µs.
        expectEqual(OfdmPhy(widthMHz: 20, spatialStreams: 1).airtimeNanos(psduBytes: 1500, mcs: Mcs(index: 0)), 1_892_000)
        // MCS 7, 80 MHz: N_DBPS = 234·6·5/6 = 1170; 12022 / 1170 = 10.3 → 11 symbols → 44 µs.
        expectEqual(OfdmPhy(widthMHz: 80, spatialStreams: 1).airtimeNanos(psduBytes: 1500, mcs: Mcs(index: 7)), 84_000)
        // Two streams add one VHT-LTF (4 µs) and double N_DBPS: 12022 / 2340 → 6 symbols.
        expectEqual(OfdmPhy(widthMHz: 80, spatialStreams: 2).airtimeNanos(psduBytes: 1500, mcs: Mcs(index: 7)), 68_000)
    }

    @Test func frameErrorRateMeetsTheSensitivityTable() {
        // IEEE 802.11-2016 minimum sensitivity (radio.md), one stream: PER ≤ 10 % for
        // 1000-byte frames at these powers with our 7 dB noise figure and no interference.
        let table: [Int: [Double]] = [
            20: [-82, -79, -77, -74, -70, -66, -65, -64, -59, -57],
            40: [-79, -76, -74, -71, -67, -63, -62, -61, -56, -54],
            80: [-76, -73, -71, -68, -64, -60, -59, -58, -53, -51]
        ]
        let model = WaterfallErrorModel()
        for (width, powers) in table {
            let phy = OfdmPhy(widthMHz: width, spatialStreams: 1)
            let noise = NoiseFloor.thermalDbm(bandwidthHz: Double(width) * 1e6, noiseFigureDb: 7)
            for mcs in phy.validMcs {
                let p = model.successProbability(sinrDb: powers[mcs.index] - noise, mcs: mcs, bytes: 1000)
                expect(p >= 0.9, "MCS \(mcs.index) at \(width) MHz")
            }
        }
    }

    @Test func frameErrorRateFallsWithSinrAndRisesWithLength() {
        let model = WaterfallErrorModel()
        for mcs in Mcs.all {
            var previous = -1.0
            for tenth in -100...500 {
                let p = model.successProbability(sinrDb: Double(tenth) / 10, mcs: mcs, bytes: 1500)
                expect(p >= previous)
                previous = p
            }
            expect(close(model.per1000(sinrDb: model.minimumSnrDb[mcs.index], mcs: mcs), 0.1, 1e-12))
            let s = model.minimumSnrDb[mcs.index]
            expect(
                model.successProbability(sinrDb: s, mcs: mcs, bytes: 100)
                    > model.successProbability(sinrDb: s, mcs: mcs, bytes: 1500))
            expect(
                close(
                    model.successProbability(
                        sinrDb: model.sinrDb(forSuccess: 0.5, mcs: mcs, bytes: 1024), mcs: mcs, bytes: 1024), 0.5, 1e-9)
            )
        }
    }

    @Test func rateSelectionClimbsWithHysteresis() {
        var r = RateSelection(phy: OfdmPhy(widthMHz: 80, spatialStreams: 1))
        expectEqual(r.select(snrDb: 0, bytes: 1500).index, 0)
        let high = r.select(snrDb: 45, bytes: 1500)
        expectEqual(high.index, 9)
        // Just below MCS 9's up-threshold but above its down-threshold: stays at 9.
        let t9 = r.threshold(Mcs(index: 9), bytes: 1500)
        expectEqual(r.select(snrDb: t9 + 2.5, bytes: 1500).index, 9)
        // Below the down-threshold: steps down.
        expect(r.select(snrDb: t9 + 1.5, bytes: 1500).index < 9)
        // Climbing again needs the hysteresis: t9 + 2.5 is not enough from below.
        expect(r.select(snrDb: t9 + 2.5, bytes: 1500).index < 9)
        expectEqual(r.select(snrDb: t9 + 3.0, bytes: 1500).index, 9)
    }
}

@Suite("Maximum range")
struct RangeTests {
    static func range(_ preset: String, _ overrides: [String] = []) throws -> MaximumRange {
        let s = try ScenarioDecoder.decode(
            bytes: Array(validScenario.utf8), file: "t", overrides: ["environment.preset=\(preset)"] + overrides)
        return MaximumRange(s)
    }

    @Test func fieldRangeFollowsTheLinkBudgetByHand() throws {
        // Budget 16.02 dBm + 82 dB = 98.02 dB. Up to dc = 110.38 m: 47.63 + 20·log10(dc) = 88.49 dB.
        // The remaining 9.53 dB at 40 dB/decade: d = dc·10^(9.53/40) = 191.05 m.
        let r = try RangeTests.range("field")
        expectEqual(r.thresholdDbm.limit, .preambleDetection)
        expect(close(r.metres, 191.05, 0.05))
    }

    @Test func cityRangeByHand() throws {
        // n = 2.7: 47.63 + 27·log10(d) = 98.02 → d = 10^(50.39/27) = 73.5 m.
        expect(close(try RangeTests.range("city").metres, 73.5, 0.1))
    }

    @Test func rangesOrderWithThePlaces() throws {
        let underground = try RangeTests.range("underground").metres
        let field = try RangeTests.range("field").metres
        let city = try RangeTests.range("city").metres
        let forest = try RangeTests.range("forest").metres
        expect(underground > field && field > city && city > forest)
        // More transmit power, more range; a steeper exponent, less.
        expect(try RangeTests.range("city", ["radio.txPowerDbm=20"]).metres > city)
        expect(try RangeTests.range("city", ["environment.pathLossExponent=3.5"]).metres < city)
    }

    @Test func aNoisyPlaceIsLimitedByFrameErrors() throws {
        // 30 dB of interference lifts the noise floor to −58 dBm, far above −82 dBm.
        let r = try RangeTests.range("field", ["environment.interferenceDb=30"])
        expectEqual(r.thresholdDbm.limit, .frameErrors)
        expect(r.metres < 191)
    }
}

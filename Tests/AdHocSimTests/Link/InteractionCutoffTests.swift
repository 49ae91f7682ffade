import Foundation
import Testing

@testable import AdHocSim

/// `radio.interactionMarginDb`: the optional per-pair interaction cutoff.
struct InteractionCutoffTests {
    /// One phone in the field with `radio.interactionMarginDb` = `margin`.
    static func onePhone(margin: JSON) -> TestScenario {
        var t = TestScenario(name: "f", seed: 1, duration: 1, radio: ["interactionMarginDb": margin])
        t.place("a", 0, 0)
        return t
    }

    /// Three phones on a line at 0, 1000 and 3000 m, free-space loss (n = 2, 47.6 dB at 1 m),
    /// no shadowing or fading, 16.02 dBm, 80 MHz, noise figure 7 dB.
    func channel(margin: String, farField: String = "cells") throws -> WirelessChannel {
        let s = try linkScenario(
            nodes: [("a", 0, 0), ("b", 1000, 0), ("c", 3000, 0)],
            radio: margin == "null"
                ? ["technology": "wifi", "interactionMarginDb": .raw(margin)]
                : ["technology": "wifi", "interactionMarginDb": .raw(margin), "farField": .string(farField)])
        let radio = RadioConfiguration(s.radio)
        return WirelessChannel(
            place: PlaceParameters.resolve(s.environment, frequencyHz: radio.frequencyHz), radio: radio,
            positions: s.nodes.map(\.position), seed: 1)
    }

    /// Received power at `d` metres, dBm.
    func rx(_ d: Double) -> Double { 16.02 - 47.6 - 20 * log10(d) }

    @Test func dropsExactlyThePairsBelowTheFloorMinusTheMargin() throws {
        // Noise floor −174 + 10·log10(80 MHz) + 7 = −87.97 dBm; with a 10 dB margin a pair is
        // kept when its power reaches −97.97 dBm: a–b (1000 m, −91.6 dBm) and b–c (2000 m,
        // −97.6 dBm) are kept, a–c (3000 m, −101.1 dBm) is dropped. All three are within the
        // interaction range (6.6 km), so without the cutoff everyone hears everyone.
        let floor = -174 + 10 * log10(80e6) + 7
        expect(rx(2000) + 10 >= floor && rx(3000) + 10 < floor)
        var off = try channel(margin: "null")
        var cut = try channel(margin: "10")
        expectEqual(off.neighbourhood(of: 0).nodes, [1, 2])
        expectEqual(cut.neighbourhood(of: 0).nodes, [1])
        expectEqual(cut.neighbourhood(of: 1).nodes, [0, 2])
        expectEqual(cut.neighbourhood(of: 2).nodes, [1])
        // The dropped energy comes back as a mean term: c's is a's power at 3000 m, a's is c's.
        cut.updateDroppedPowers()
        let dropped = cut.droppedMw
        let expected = Decibel.milliwatts(fromDbm: rx(3000))
        expect(abs(dropped[2] - expected) / expected < 1e-6)
        expect(abs(dropped[0] - expected) / expected < 1e-6)
        expectEqual(dropped[1], 0)
        off.updateDroppedPowers()
        expect(off.droppedMw.isEmpty)
    }

    /// `radio.farField` without the cutoff cannot act: bad input at its path.
    @Test func aFarFieldWithoutTheCutoffIsBadInput() {
        var t = TestScenario(name: "f", seed: 1, duration: 5, radio: ["technology": "wifi", "farField": "cells"])
        t.place("a", 0, 0)
        expect(
            t.problems.contains { $0.path == "radio.farField" && $0.message.contains("without the cutoff") },
            "\(t.problems)")
        t["radio"] = ["technology": "wifi", "farField": "cells", "interactionMarginDb": 3]
        expect(t.problems.isEmpty, "\(t.problems)")
    }

    /// `radio.farField: "cells"`: the dropped pair a–c comes back while a frame is on
    /// the air, at the receiver's cell, and leaves with it. The line is 3000 m long: 50 m cells,
    /// 61 of them in one row; a is in cell 0, b in cell 20, c in cell 60, one phone each, so a
    /// cell's average is the pair's own power.
    @Test func droppedEnergyComesBackPerCellWhileTheFrameIsOnTheAir() throws {
        var cut = try channel(margin: "10")
        expect(cut.aggregatesCells)
        expect(cut.farGrid.columns == 61 && cut.farGrid.rows == 1)
        cut.updateDroppedPowers()
        expectEqual(cut.farCellOf, [0, 20, 60])
        let p3000 = Decibel.milliwatts(fromDbm: rx(3000))
        let cells = 61
        // a's row holds c's cell only; c's row a's cell only; b dropped nobody.
        for c in 0..<cells {
            let a = Double(cut.farRows[0 * cells + c]), b = Double(cut.farRows[1 * cells + c])
            let cc = Double(cut.farRows[2 * cells + c])
            expect(c == 60 ? abs(a - p3000) / p3000 < 1e-6 : a == 0)
            expectEqual(b, 0)
            expect(c == 0 ? abs(cc - p3000) / p3000 < 1e-6 : cc == 0)
        }
        var medium = SharedMedium<Int>(channel: cut)
        let noise = cut.noiseMw
        let slot = medium.begin(1, from: 0, awdl: nil, now: .zero, airtime: .microseconds(100))
        // c hears nothing of a exactly (dropped), but its SINR denominator gains a's power at
        // 3000 m through its cell; b, in a's near set, gains nothing from the far field.
        let atC = medium.noiseAndInterference(at: 2) - noise
        expect(abs(atC - p3000) / p3000 < 1e-6)
        expectEqual(medium.far!.farMw[20], 0)
        _ = medium.end(slot, now: .microseconds(100))
        expectEqual(medium.noiseAndInterference(at: 2), noise)
        // With the time-averaged model the same pair counts as its power times the mean duty.
        let old = try channel(margin: "10", farField: "mean-duty")
        expect(!old.aggregatesCells)
    }

    @Test func safeMarginIsSixSigmaOfShadowingAndFading() throws {
        // Rayleigh fading (K = 0): the gain is Exp(1), whose logarithm has SD π/√6 nepers, so
        // 10·log10 of it has SD (10 / ln 10)·π/√6 = 5.57 dB.
        let rayleigh = RicianPowerTable.shared(k: 0).decibelSpread()
        expect(abs(rayleigh - 10 / log(10) * Double.pi / 6.0.squareRoot()) < 0.02)
        // Field: σ = 3 dB shadowing, K = 10.
        let s = try Self.onePhone(margin: "safe").decoded()
        let radio = RadioConfiguration(s.radio)
        let place = PlaceParameters.resolve(s.environment, frequencyHz: radio.frequencyHz)
        let c = WirelessChannel(place: place, radio: radio, positions: s.nodes.map(\.position), seed: 1)
        let fade = RicianPowerTable.shared(k: 10).decibelSpread()
        expect(abs(c.interactionMarginDb! - 6 * (9 + fade * fade).squareRoot()) < 1e-9)
        expect(fade > 1.5 && fade < 2.5)
    }

    @Test func badMarginsNameTheirPath() {
        for (value, words) in [("-1", "0...100"), ("\"loose\"", "\"safe\""), ("true", "\"safe\"")] {
            let d = Self.onePhone(margin: .raw(value)).problems
            expect(
                d.contains { $0.path == "radio.interactionMarginDb" && $0.message.contains(words) }, "\(value): \(d)")
        }
    }
}

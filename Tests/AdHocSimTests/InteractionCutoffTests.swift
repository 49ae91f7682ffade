import Foundation
import Testing

@testable import AdHocSim

/// `radio.interactionMarginDb`: the optional per-pair interaction cutoff (issue #11 item 5).
@Suite struct InteractionCutoffTests {
    /// Three phones on a line at 0, 1000 and 3000 m, free-space loss (n = 2, 47.6 dB at 1 m),
    /// no shadowing or fading, 16.02 dBm, 80 MHz, noise figure 7 dB.
    func channel(margin: String) throws -> WirelessChannel {
        let s = try linkScenario(
            nodes: [("a", 0, 0), ("b", 1000, 0), ("c", 3000, 0)],
            radio: #"{"technology": "wifi", "interactionMarginDb": \#(margin)}"#, traffic: "[]")
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
        #expect(rx(2000) + 10 >= floor && rx(3000) + 10 < floor)
        var off = try channel(margin: "null")
        var cut = try channel(margin: "10")
        #expect(off.neighbourhood(of: 0).nodes == [1, 2])
        #expect(cut.neighbourhood(of: 0).nodes == [1])
        #expect(cut.neighbourhood(of: 1).nodes == [0, 2])
        #expect(cut.neighbourhood(of: 2).nodes == [1])
        // The dropped energy comes back as a mean term: c's is a's power at 3000 m, a's is c's.
        cut.updateDroppedPowers()
        let dropped = cut.droppedMw
        let expected = Decibel.milliwatts(fromDbm: rx(3000))
        #expect(abs(dropped[2] - expected) / expected < 1e-6)
        #expect(abs(dropped[0] - expected) / expected < 1e-6)
        #expect(dropped[1] == 0)
        off.updateDroppedPowers()
        #expect(off.droppedMw.isEmpty)
    }

    @Test func safeMarginIsSixSigmaOfShadowingAndFading() throws {
        // Rayleigh fading (K = 0): the gain is Exp(1), whose logarithm has SD π/√6 nepers, so
        // 10·log10 of it has SD (10 / ln 10)·π/√6 = 5.57 dB.
        let rayleigh = RicianPowerTable.shared(k: 0).decibelSpread()
        #expect(abs(rayleigh - 10 / log(10) * Double.pi / 6.0.squareRoot()) < 0.02)
        // Field: σ = 3 dB shadowing, K = 10.
        let s = try ScenarioDecoder.decode(
            bytes: Array(
                #"{"name": "f", "seed": 1, "duration_s": 1, "environment": {"preset": "field"}, "radio": {"interactionMarginDb": "safe"}, "nodes": [{"id": "a", "position": [0, 0, 1.2]}]}"#
                    .utf8), file: "f.json")
        let radio = RadioConfiguration(s.radio)
        let place = PlaceParameters.resolve(s.environment, frequencyHz: radio.frequencyHz)
        let c = WirelessChannel(place: place, radio: radio, positions: s.nodes.map(\.position), seed: 1)
        let fade = RicianPowerTable.shared(k: 10).decibelSpread()
        #expect(abs(c.interactionMarginDb! - 6 * (9 + fade * fade).squareRoot()) < 1e-9)
        #expect(fade > 1.5 && fade < 2.5)
    }

    @Test func badMarginsNameTheirPath() {
        for (value, words) in [("-1", "0...100"), ("\"loose\"", "\"safe\""), ("true", "\"safe\"")] {
            let d = diagnostics(
                #"{"name": "f", "seed": 1, "duration_s": 1, "environment": {"preset": "field"}, "radio": {"interactionMarginDb": \#(value)}, "nodes": [{"id": "a", "position": [0, 0, 1.2]}]}"#
            )
            #expect(
                d.contains { $0.path == "radio.interactionMarginDb" && $0.message.contains(words) }, "\(value): \(d)")
        }
    }
}

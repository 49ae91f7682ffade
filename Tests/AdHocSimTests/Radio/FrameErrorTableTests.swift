import Foundation
import Testing

@testable import AdHocSim

/// The tabulated frame error model against the model it tabulates.
@Suite("Frame error table")
struct FrameErrorTableTests {
    /// Across each MCS's uncertain band (the 50 % point ± 13.8 dB), at 10 000 SINRs that are
    /// not grid points, ln P(success) of a 1000-byte frame is within 5·10⁻⁵ of the model's
    /// wherever P ≥ 10⁻⁶, and
    /// the success probability of 100-, 1500- and 4000-byte frames within 2·10⁻⁵ of it (far
    /// below what a run's decode statistics could show).
    @Test func tableAgreesWithTheWaterfallModel() {
        let model = WaterfallErrorModel()
        let margin = log(1e12) / model.steepness
        let s50 = Mcs.all.map { model.minimumSnrDb[$0.index] - log(9) / model.steepness }
        let lower = Mcs.all.map { Decibel.linear(fromDb: s50[$0.index] - margin) }
        let upper = Mcs.all.map { Decibel.linear(fromDb: s50[$0.index] + margin + 1) }
        let table = FrameErrorTable(model, lower: lower, upper: upper)
        var worstLog = 0.0, worstP = 0.0
        for mcs in Mcs.all {
            for i in 0..<1000 {
                let db = s50[mcs.index] - margin + (2 * margin + 1) * (Double(i) + 0.37) / 1000
                let s = Decibel.linear(fromDb: db)
                let exact = log(model.successProbability(sinrDb: db, mcs: mcs, bytes: 1000))
                if exact > log(1e-6) { worstLog = max(worstLog, abs(table.logSuccess1000(sinr: s, mcs: mcs) - exact)) }
                for bytes in [100, 1500, 4000] {
                    let p = model.successProbability(sinrDb: db, mcs: mcs, bytes: bytes)
                    worstP = max(worstP, abs(table.successProbability(sinr: s, mcs: mcs, bytes: bytes) - p))
                }
            }
        }
        expect(worstLog < 5e-5, "worst |Δ ln p| \(worstLog)")
        expect(worstP < 2e-5, "worst |Δ p| \(worstP)")
    }
}

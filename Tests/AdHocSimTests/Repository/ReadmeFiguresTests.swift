import Foundation
import Testing

@testable import AdHocSim

/// The README's figures of the first command are the run's: the shipped two-phone scenario
/// gives the RTT, jitter, data rate and goodput the README prints, to its one decimal.
struct ReadmeFiguresTests {
    /// The number after `prefix` in `text` (up to the next space), if there is one.
    static func figure(after prefix: String, in text: String) -> Double? {
        guard let r = text.range(of: prefix) else { return nil }
        return Double(text[r.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    @Test func theTwoPhoneFiguresAreTheRunsOwn() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        let scenario = try ScenarioDecoder.load(
            path: Repository.root.appendingPathComponent("topologies/two-phones.json").path)
        let flow = try ScenarioRunner.run(scenario).flows[0]
        func shown(_ v: Double?) -> Double? { v.map { ($0 * 10).rounded() / 10 } }
        expectEqual(Self.figure(after: "It gives (seed 42): RTT mean ", in: readme), shown(flow.rttMean))
        expectEqual(Self.figure(after: "the app's jitter ", in: readme), shown(flow.rttSdSample))
        expectEqual(Self.figure(after: "a data rate of ", in: readme), shown(flow.dataRateMbps))
        expectEqual(Self.figure(after: "Mbit/s (", in: readme), shown(flow.goodputMbps))
        expect(readme.contains("no loss") && flow.lossPct == 0)
    }
}

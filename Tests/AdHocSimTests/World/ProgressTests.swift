import Foundation
import Testing

@testable import AdHocSim

@Suite("Run progress")
struct ProgressTests {
    final class Log: @unchecked Sendable {
        var seen: [ScenarioRunner.RunProgress] = []
    }

    /// Slicing a run for its progress line leaves the event trajectory exactly as one call:
    /// same fingerprint, events and results; the slices report rising simulated time up to the
    /// duration.
    @Test(arguments: ["topologies/two-phones.json", "topologies/ble/two-phones.json"])
    func progressSlicesDoNotChangeTheRun(_ file: String) throws {
        let root = Repository.root
        let scenario = try ScenarioDecoder.load(path: root.appendingPathComponent(file).path)
        let plain = try ScenarioRunner.run(scenario)
        let log = Log()
        let sliced = try ScenarioRunner.run(scenario, progress: { log.seen.append($0) })
        expectEqual(sliced.fingerprint, plain.fingerprint)
        expectEqual(sliced.eventsExecuted, plain.eventsExecuted)
        expectEqual(sliced.stopReason, plain.stopReason)
        expectEqual(sliced.simulatedTime, plain.simulatedTime)
        expectEqual(RunFiles.summaryTable(sliced).text, RunFiles.summaryTable(plain).text)
        expectEqual(log.seen.count, Int(ScenarioRunner.progressSlices))
        expect(zip(log.seen, log.seen.dropFirst()).allSatisfy { $0.simulated <= $1.simulated })
        expectEqual(log.seen.last?.simulated, scenario.duration)
    }
}

import AdHocSim
import Foundation

enum CheckCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { print(Help.check); return ExitStatus.success }
        let a = try Arguments(args, options: ["--set"], switches: [])
        guard !a.positionals.isEmpty else { throw Arguments.UsageError(message: "expects scenario FILEs with \"expectations\"") }
        var failed = 0
        for file in a.positionals {
            let scenario: Scenario
            do {
                scenario = try ScenarioDecoder.load(path: file, overrides: a.all("--set"))
            } catch let e as ScenarioError {
                printError(e.description)
                return ExitStatus.badInput
            }
            let outcomes: [Checker.Outcome]
            do {
                outcomes = try Checker.run(scenario)
            } catch let e as ScenarioRunner.Unsupported {
                printError(e.description)
                return ExitStatus.badInput
            }
            print("\(file):")
            let w1 = max(5, outcomes.map(\.check.count).max() ?? 0), w2 = max(8, outcomes.map(\.expected.count).max() ?? 0)
            func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
            print("  " + pad("check", w1) + "  " + pad("expected", w2) + "  observed  result")
            for o in outcomes {
                print("  " + pad(o.check, w1) + "  " + pad(o.expected, w2) + "  " + o.observed + "  " + (o.passed ? "pass" : "FAIL"))
                if !o.passed { failed += 1 }
            }
            if outcomes.isEmpty { print("  (no expectations)") }
        }
        return failed == 0 ? ExitStatus.success : ExitStatus.checkFailed
    }
}

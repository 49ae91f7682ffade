import AdHocSim
import Foundation

enum CheckCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { print(Help.check); return ExitStatus.success }
        let a = try Arguments(args, options: ["--set", "--golden", "--seed"], switches: ["--update-golden"])
        guard !a.positionals.isEmpty else {
            throw Arguments.UsageError(message: "expects scenario FILEs with \"expectations\"")
        }
        let golden = a.value("--golden")
        let update = a.has("--update-golden")
        if update && golden == nil { throw Arguments.UsageError(message: "--update-golden needs --golden DIR") }
        if let golden, !update {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: golden, isDirectory: &isDir), isDir.boolValue else {
                printError("\(golden): error: --golden: no such folder (create the route change logs with --update-golden)")
                return ExitStatus.badInput
            }
        }
        var overrides = a.all("--set")
        if a.value("--seed") != nil {
            overrides.append("seed=\(try a.integer("--seed", default: 0, in: 0...UInt64.max))")
        }
        var failed = 0
        for file in a.positionals {
            guard let scenario = loadScenario(file, overrides: overrides) else { return ExitStatus.badInput }
            var outcomes: [Checker.Outcome]
            let changes: String?
            do {
                let result = try Checker.run(scenario)
                outcomes = result.outcomes
                changes = result.routeChanges
            } catch let e as ScenarioRunner.Unsupported {
                printError(e.description)
                return ExitStatus.badInput
            }
            if let golden, let changes {
                let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent + ".routes"
                let path = (golden as NSString).appendingPathComponent(name)
                if update {
                    do {
                        try FileManager.default.createDirectory(atPath: golden, withIntermediateDirectories: true)
                        try Data(changes.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                        print("\(file): wrote \(path)")
                    } catch {
                        printError("\(path): error: cannot write the golden route change log: \(error.localizedDescription)")
                        return ExitStatus.badInput
                    }
                } else if let data = FileManager.default.contents(atPath: path) {
                    let old = String(decoding: data, as: UTF8.self)
                    let difference = RouteChangeLog.difference(stored: old, new: changes)
                    outcomes.append(
                        Checker.Outcome(
                            check: "route changes", expected: "as \(path)",
                            observed: difference ?? "identical", passed: difference == nil))
                } else {
                    outcomes.append(
                        Checker.Outcome(
                            check: "route changes", expected: "as \(path)",
                            observed: "no log there (create it with --update-golden)", passed: false))
                }
            }
            print("\(file):")
            let w1 = max(5, outcomes.map(\.check.count).max() ?? 0),
                w2 = max(8, outcomes.map(\.expected.count).max() ?? 0)
            func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
            print("  " + pad("check", w1) + "  " + pad("expected", w2) + "  observed  result")
            for o in outcomes {
                print(
                    "  " + pad(o.check, w1) + "  " + pad(o.expected, w2) + "  " + o.observed + "  "
                        + (o.passed ? "pass" : "FAIL"))
                if !o.passed { failed += 1 }
            }
            if outcomes.isEmpty { print("  (no expectations)") }
        }
        return failed == 0 ? ExitStatus.success : ExitStatus.checkFailed
    }
}

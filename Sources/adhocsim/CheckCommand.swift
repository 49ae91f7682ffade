import AdHocSim
import Foundation

enum CheckCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.check); return ExitStatus.success }
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
                printError(
                    "\(golden): error: --golden: no such folder (create the route change logs with --update-golden)")
                return ExitStatus.badInput
            }
        }
        var overrides = a.all("--set")
        if a.value("--seed") != nil {
            overrides.append("seed=\(try a.integer("--seed", default: 0, in: 0...UInt64.max))")
        }
        // One golden per scenario file, named by its base name: two files that would share one
        // (`a/x.json` and `b/x.json`; `X.json` and `x.json` on a case-insensitive disk) are bad
        // input before anything runs, never one golden overwritten by the other.
        func goldenName(_ file: String) -> String {
            URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent + ".routes"
        }
        if golden != nil {
            var seen: [String: String] = [:]
            for file in a.positionals {
                let key = goldenName(file).lowercased()
                if let earlier = seen[key], earlier != file {
                    printError(
                        "adhocsim check: \(Diagnostic.excerpt(earlier)) and \(Diagnostic.excerpt(file)) would share the "
                            + "golden \(Diagnostic.excerpt(goldenName(file))); check them with separate --golden folders. "
                            + "Nothing was run or written.")
                    return ExitStatus.badInput
                }
                seen[key] = file
            }
        }
        // Every file decoded before any runs, and every golden written only once all have run:
        // a later file's bad input leaves the goldens as they were.
        var scenarios: [Scenario] = []
        for file in a.positionals {
            guard let scenario = loadScenario(file, overrides: overrides) else { return ExitStatus.badInput }
            scenarios.append(scenario)
        }
        var results: [(outcomes: [Checker.Outcome], changes: String?)] = []
        for scenario in scenarios {
            do {
                let result = try Checker.run(scenario)
                results.append((result.outcomes, result.routeChanges))
            } catch let e as ScenarioRunner.Unsupported {
                printError(e.description)
                if update { printError("adhocsim check: no golden was written.") }
                return ExitStatus.badInput
            }
        }
        if update, let golden {
            let writes = zip(a.positionals, results).compactMap { file, r in
                r.changes.map {
                    (file: file, path: (golden as NSString).appendingPathComponent(goldenName(file)), text: $0)
                }
            }
            do {
                try GoldenFiles.write(writes.map { ($0.path, $0.text) }, into: golden)
            } catch let e as GoldenFiles.WriteError {
                printError("adhocsim check: \(e.description); no golden was written.")
                return ExitStatus.badInput
            }
            for w in writes { say("\(w.file): wrote \(w.path)") }
        }
        var failed = 0
        for (file, result) in zip(a.positionals, results) {
            var outcomes = result.outcomes
            if let golden, !update, let changes = result.changes {
                let path = (golden as NSString).appendingPathComponent(goldenName(file))
                switch OutputFolder.readText(URL(fileURLWithPath: path), limit: GoldenFiles.maxBytes) {
                case .success(let old):
                    let difference = RouteChangeLog.difference(stored: old, new: changes)
                    outcomes.append(
                        Checker.Outcome(
                            check: "route changes", expected: "as \(path)",
                            observed: difference ?? "identical", passed: difference == nil))
                case .failure(let f) where f.message == OutputFolder.missingMessage:
                    outcomes.append(
                        Checker.Outcome(
                            check: "route changes", expected: "as \(path)",
                            observed: "no log there (create it with --update-golden)", passed: false))
                case .failure(let f):
                    outcomes.append(
                        Checker.Outcome(
                            check: "route changes", expected: "as \(path)", observed: "the stored log \(f.message)",
                            passed: false))
                }
            }
            say("\(file):")
            let w1 = max(5, outcomes.map(\.check.count).max() ?? 0),
                w2 = max(8, outcomes.map(\.expected.count).max() ?? 0)
            func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
            say("  " + pad("check", w1) + "  " + pad("expected", w2) + "  observed  result")
            for o in outcomes {
                say(
                    "  " + pad(o.check, w1) + "  " + pad(o.expected, w2) + "  " + o.observed + "  "
                        + (o.passed ? "pass" : "FAIL"))
                if !o.passed { failed += 1 }
            }
            if outcomes.isEmpty { say("  (no expectations)") }
        }
        return failed == 0 ? ExitStatus.success : ExitStatus.checkFailed
    }
}

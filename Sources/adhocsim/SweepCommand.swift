import AdHocSim
import Foundation

enum SweepCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.sweep); return ExitStatus.success }
        let a = try Arguments(
            args, options: ["--out", "-j", "--shard", "--set", "--overrides", "--matrix"],
            switches: ["--resume", "--quiet"])
        guard a.positionals.count == 1 else {
            throw Arguments.UsageError(message: "expects one scenario FILE with a \"matrix\"")
        }
        let workers = Int(
            try a.integer("-j", default: UInt64(ProcessInfo.processInfo.activeProcessorCount), in: 1...256))
        var shard: (k: Int, n: Int)?
        if let text = a.value("--shard") {
            let parts = text.split(separator: "/").map { Int($0) }
            guard parts.count == 2, let k = parts[0], let n = parts[1], n >= 1, k >= 1, k <= n, n <= Matrix.maxUnits
            else {
                throw Arguments.UsageError(
                    message:
                        "--shard expects K/N with 1 ≤ K ≤ N ≤ \(Matrix.maxUnits) (a sweep's most units), found \"\(Diagnostic.excerpt(text))\""
                )
            }
            shard = (k, n)
        }
        let plan: SweepPlan
        do {
            guard var overrides = overrideArguments(a, scenario: a.positionals[0]) else { return ExitStatus.badInput }
            if let m = a.value("--matrix") {
                // Inline JSON, or a file holding the matrix object.
                overrides.append(
                    m.first == "{" ? "matrix=" + m : try Matrix.overrideArgument(file: m))
            }
            plan = try SweepPlan(path: a.positionals[0], overrides: overrides)
        } catch let e as ScenarioError {
            printError(e.description)
            return ExitStatus.badInput
        } catch let e as SweepPlan.PlanError {
            printError(e.description)
            return ExitStatus.badInput
        }
        let outPath = a.value("--out") ?? "results/\(plan.base.name)"
        let progress: SweepRunner.Progress = a.has("--quiet") ? .quiet : (isatty(2) != 0 ? .bar : .lines)
        do {
            let (ran, failed) = try SweepRunner.run(
                plan, out: URL(fileURLWithPath: outPath), workers: workers, shard: shard,
                resume: a.has("--resume"), progress: progress)
            if !a.has("--quiet") {
                say(
                    "\(plan.base.name): \(plan.matrix.cellCount) cells × \(plan.matrix.repeats) repeat(s); ran \(ran) unit(s) now, \(failed) with a failed status"
                )
                say("results: \(outPath)/cells.csv")
            }
        } catch let e as SweepRunner.OutputError {
            printError("adhocsim sweep: \(e.description)")
            return ExitStatus.badInput
        }
        return ExitStatus.success
    }
}

enum MergeCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.merge); return ExitStatus.success }
        let a = try Arguments(args, options: ["--out"], switches: ["--allow-partial"])
        guard !a.positionals.isEmpty, let out = a.value("--out") else {
            throw Arguments.UsageError(message: "expects sweep folders and --out DIR")
        }
        do {
            let warnings = try SweepRunner.merge(
                a.positionals.map { URL(fileURLWithPath: $0) }, out: URL(fileURLWithPath: out),
                allowPartial: a.has("--allow-partial"))
            for w in warnings { printError("adhocsim merge: warning: \(w)") }
            say(
                "merged \(a.positionals.count) folder(s) into \(out)/cells.csv" + (warnings.isEmpty ? "" : " (partial)")
            )
        } catch let e as SweepRunner.OutputError {
            printError("adhocsim merge: \(e.description)")
            return ExitStatus.badInput
        }
        return ExitStatus.success
    }
}

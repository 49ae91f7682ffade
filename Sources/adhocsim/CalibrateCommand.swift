import AdHocSim
import Foundation

enum CalibrateCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.calibrate); return ExitStatus.success }
        let a = try Arguments(
            args,
            options: [
                "--measured", "--fit", "--holdout", "--out", "-j", "--repeat", "--max-evals", "--stall", "--set",
                "--metrics"
            ],
            switches: ["--quiet"])
        guard a.positionals.count == 1 else {
            throw Arguments.UsageError(message: "expects one scenario FILE (a single run or a matrix)")
        }
        guard let measuredPath = a.value("--measured") else {
            throw Arguments.UsageError(message: "needs --measured CSV, the measured thesis metrics")
        }
        let fits = a.all("--fit")
        guard !fits.isEmpty else {
            throw Arguments.UsageError(
                message: "needs at least one --fit PATH=LOW:HIGH, e.g. --fit host.receiveUs=0:200")
        }
        let workers = Int(
            try a.integer("-j", default: UInt64(ProcessInfo.processInfo.activeProcessorCount), in: 1...256))
        let repeats = Int(try a.integer("--repeat", default: 4, in: 1...100))
        let maxEvals = Int(try a.integer("--max-evals", default: UInt64(40 + 30 * fits.count), in: 1...100_000))
        let stall = a.value("--stall") == nil ? nil : Int(try a.integer("--stall", default: 1, in: 1...100_000))
        var holdout: [Place] = []
        for name in (a.value("--holdout") ?? "").split(separator: ",") {
            guard let p = Place(rawValue: String(name)) else {
                throw Arguments.UsageError(
                    message:
                        "--holdout expects places separated by commas (\(Place.allCases.map(\.rawValue).joined(separator: ", "))), found \"\(Diagnostic.excerpt(String(name)))\""
                )
            }
            holdout.append(p)
        }
        var metrics = CalibrationMetric.allCases
        if let list = a.value("--metrics") {
            metrics = []
            for name in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let m = CalibrationMetric(rawValue: String(name)) else {
                    throw Arguments.UsageError(
                        message:
                            "--metrics expects metric names separated by commas (\(CalibrationMetric.allCases.map(\.rawValue).joined(separator: ", "))), found \"\(Diagnostic.excerpt(String(name)))\""
                    )
                }
                metrics.append(m)
            }
        }
        let problem: CalibrationProblem
        let measured: MeasuredTable
        do {
            let parameters = try fits.map(FitParameter.init(argument:))
            let text: String
            switch ScenarioFile.read(measuredPath, limit: MeasuredTable.maxBytes, kind: "measured table") {
            case .success(let bytes):
                guard let t = String(validating: bytes, as: UTF8.self) else {
                    throw CalibrationError(
                        description: "\(Diagnostic.escaped(measuredPath)): error: is not UTF-8 text")
                }
                text = t
            case .failure(let f):
                throw CalibrationError(description: "\(Diagnostic.escaped(measuredPath)): error: \(f.message)")
            }
            measured = try MeasuredTable(text: text, file: measuredPath).keeping(metrics)
            guard !measured.rows.isEmpty else {
                throw CalibrationError(
                    description: "\(Diagnostic.escaped(measuredPath)): error: no measured value of the --metrics given")
            }
            problem = try CalibrationProblem(
                scenarioPath: a.positionals[0], overrides: a.all("--set"), parameters: parameters, measured: measured,
                repeats: repeats)
        } catch let e as CalibrationError {
            printError(e.description)
            return ExitStatus.badInput
        } catch let e as ScenarioError {
            printError(e.description)
            return ExitStatus.badInput
        }
        let out = URL(fileURLWithPath: a.value("--out") ?? "results/\(problem.base.name).calibrated.json")
        // The --out rule for a file: never replace a folder, or a file that is not an overrides
        // file this command wrote (a JSON object of single values); checked before the search.
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: out.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                printError("adhocsim calibrate: --out \(out.path): is a folder; give a file name for the overrides")
                return ExitStatus.badInput
            }
            if (try? OverrideFile.read(out.path)) == nil {
                printError(
                    "adhocsim calibrate: --out \(out.path): exists and is not an overrides file; refusing to replace it"
                )
                return ExitStatus.badInput
            }
        }
        // The folder it goes in must be a folder or not exist yet (it is made): a file on the
        // way is refused now, before the search, with the path named.
        var ancestor = out.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) && ancestor.path != "/"
        {
            ancestor = ancestor.deletingLastPathComponent()
        }
        if !isDirectory.boolValue {
            printError(
                "adhocsim calibrate: --out \(out.path): \(ancestor.path) is a file, not a folder; choose another --out")
            return ExitStatus.badInput
        }
        let report: Calibration.Report
        let clock = ContinuousClock(), started = clock.now
        do {
            report = try Calibration.run(
                problem, measured: problem.measured, holdout: holdout, workers: workers, maxEvaluations: maxEvals,
                stallLimit: stall)
        } catch let e as CalibrationError {
            printError(e.description)
            return ExitStatus.badInput
        }
        let elapsed = (clock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        do {
            try FileManager.default.createDirectory(
                at: out.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SweepRunner.commitFile(report.overridesJSON, to: out)
        } catch {
            printError(
                "adhocsim calibrate: \(out.path): cannot write the calibrated overrides (\(ErrorText.reason(error)))")
            return ExitStatus.badInput
        }
        if !a.has("--quiet") {
            say(text(report, problem: problem, out: out.path), terminator: "")
            // Wall time goes to standard error: the report itself is the same bytes every run.
            printError(
                "adhocsim calibrate: \(report.evaluations) evaluations in \(NumberText.fixed(seconds, decimals: 1)) s "
                    + "(\(NumberText.fixed(seconds / Double(max(report.evaluations, 1)), decimals: 2)) s each, "
                    + "\(workers) worker\(workers == 1 ? "" : "s")), the fit and the report's runs included")
        }
        return ExitStatus.success
    }

    static func text(_ r: Calibration.Report, problem: CalibrationProblem, out: String) -> String {
        func f(_ v: Double, _ d: Int = 4) -> String { NumberText.fixed(v, decimals: d) }
        let median = r.fitted.first?.aggregation == .groupMedian
        let what = median ? "groups (medians over tests)" : "cells"
        let runs = Set(
            r.fitted.flatMap { $0.runs.map { "\($0.place)/\($0.transport)/\($0.distance)/\($0.packets)/\($0.size)" } }
        ).count
        var s =
            "calibrate \(problem.base.name): \(r.fitted.count) measured \(what) fitted, \(r.heldOut.count) held out; "
            + "\(r.evaluations) evaluations × \(runs * problem.repeats) runs\n"
        for note in r.notes { s += "note: \(note)\n" }
        s += "fitted values:\n"
        for (p, v) in r.values {
            s +=
                "  \(p.path) = \(JSONNumber(v).literal)   (bounds \(JSONNumber(p.lower).literal)…\(JSONNumber(p.upper).literal))\n"
        }
        s +=
            "loss \(f(r.loss, 6)) (at the bounds' centre \(f(r.startLoss, 6))), first reached at evaluation "
            + "\(r.bestEvaluation) of \(r.evaluations)\n"
        func residualLines(_ title: String, _ rows: [MeasuredCell], _ sim: [[Double?]]) -> String {
            var t = "\(title):\n"
            for (metric, n, rms) in CalibrationProblem.residuals(rows, sim) {
                let unit = metric == .loss ? "RMS error / 10 pp" : "RMS log error"
                t += "  \(metric.rawValue): \(n) values, \(unit) \(f(rms))\n"
            }
            for (row, values) in zip(rows, sim) {
                var cells: [String] = []
                for (k, metric) in CalibrationMetric.allCases.enumerated() {
                    guard let m = row.means[k] else { continue }
                    cells.append("\(metric.rawValue) \(f(m, 3)) → \(values[k].map { f($0, 3) } ?? "none")")
                }
                t +=
                    "  \(row.label) (\(row.lines.count) row\(row.lines.count == 1 ? "" : "s")): \(cells.joined(separator: ", "))\n"
            }
            return t
        }
        let arrow = median ? "measured median → simulated median" : "measured mean → simulated mean"
        s += residualLines("residuals on the fitted \(what) (\(arrow))", r.fitted, r.simulatedFitted)
        if !r.heldOut.isEmpty {
            s += residualLines("prediction of the held-out \(what) (\(arrow))", r.heldOut, r.simulatedHeldOut)
        }
        s += "calibrated overrides: \(out) (use with run --overrides or sweep --overrides)\n"
        return s
    }
}

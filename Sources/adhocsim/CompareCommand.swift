import AdHocSim
import Foundation

/// `adhocsim compare SWEEP_DIR --measured CSV [--out DIR]`: the validation report
/// (`FieldComparison`), written atomically into its own folder.
enum CompareCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { print(Help.compare); return ExitStatus.success }
        let a = try Arguments(args, options: ["--measured", "--out"], switches: ["--quiet"])
        guard a.positionals.count == 1 else { throw Arguments.UsageError(message: "expects one sweep folder DIR") }
        guard let measuredPath = a.value("--measured") else {
            throw Arguments.UsageError(message: "needs --measured CSV, the measured tests")
        }
        let sweep = URL(fileURLWithPath: a.positionals[0])
        let cellsPath = sweep.appendingPathComponent("cells.csv").path
        func readText(_ path: String) -> String? {
            guard case .success(let bytes) = ScenarioFile.read(path) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let cells = readText(cellsPath) else {
            printError("adhocsim compare: \(Diagnostic.escaped(cellsPath)): cannot be read; expected a sweep folder")
            return ExitStatus.badInput
        }
        guard let measuredText = readText(measuredPath) else {
            printError("adhocsim compare: \(Diagnostic.escaped(measuredPath)): cannot be read as a text file")
            return ExitStatus.badInput
        }
        let comparison: FieldComparison
        do {
            let measured = try MeasuredTable(text: measuredText, file: measuredPath)
            comparison = try FieldComparison(cellsCSV: cells, file: cellsPath, measured: measured)
        } catch let e as CalibrationError {
            printError(e.description)
            return ExitStatus.badInput
        } catch let e as FieldComparison.Failure {
            printError("adhocsim compare: \(e.description)")
            return ExitStatus.badInput
        }
        let out = URL(fileURLWithPath: a.value("--out") ?? sweep.appendingPathComponent("compare").path)
        func member(_ key: String, _ value: String) -> JSONMember { JSONMember(key: key, value: JSONNode(.string(value))) }
        let metadata =
            JSONText.render(
                JSONNode(
                    .object([
                        member("tool", "adhocsim"), member("command", "compare"), member("sweep", a.positionals[0]),
                        member("measured", measuredPath)
                    ]))) + "\n"
        let markdown = comparison.markdown(sweep: a.positionals[0], measuredFile: measuredPath)
        do {
            try ResultDirectory.commit(
                [
                    ResultFile(name: "metadata.json", contents: metadata),
                    ResultFile(name: "compare.csv", contents: comparison.table.text),
                    ResultFile(name: "compare.md", contents: markdown)
                ] + comparison.charts, to: out)
        } catch let e as ResultDirectory.WriteError {
            printError("adhocsim compare: \(e.description)")
            return ExitStatus.badInput
        }
        if !a.has("--quiet") {
            for note in comparison.notes { print("note: \(note)") }
            for t in comparison.tally { print("\(t.name): \(t.agree) of \(t.total)") }
            if let f = comparison.rmsLogFactor { print("RMS log error: x\(NumberText.fixed(f, decimals: 2))") }
            print("report: \(out.path)/compare.md")
        }
        return ExitStatus.success
    }
}

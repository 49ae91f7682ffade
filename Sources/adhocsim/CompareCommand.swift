import AdHocSim
import Foundation

/// `adhocsim compare SWEEP_DIR --measured CSV [--out DIR]`: the validation report
/// (`FieldComparison`), written atomically into its own folder.
enum CompareCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.compare); return ExitStatus.success }
        let a = try Arguments(args, options: ["--measured", "--out"], switches: ["--quiet"])
        guard a.positionals.count == 1 else { throw Arguments.UsageError(message: "expects one sweep folder DIR") }
        guard let measuredPath = a.value("--measured") else {
            throw Arguments.UsageError(message: "needs --measured CSV, the measured tests")
        }
        let sweep = URL(fileURLWithPath: a.positionals[0])
        let cellsPath = sweep.appendingPathComponent("cells.csv").path
        let cells: String
        switch OutputFolder.readText(URL(fileURLWithPath: cellsPath)) {
        case .success(let text): cells = text
        case .failure(let f):
            printError(
                "adhocsim compare: \(Diagnostic.escaped(cellsPath)): \(f.message); expected the cells.csv of a sweep folder"
            )
            return ExitStatus.badInput
        }
        let measuredText: String
        switch ScenarioFile.read(measuredPath, limit: MeasuredTable.maxBytes, kind: "measured table") {
        case .success(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else {
                printError("adhocsim compare: \(Diagnostic.escaped(measuredPath)): is not UTF-8 text")
                return ExitStatus.badInput
            }
            measuredText = text
        case .failure(let f):
            printError("adhocsim compare: \(Diagnostic.escaped(measuredPath)): \(f.message)")
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
        func member(_ key: String, _ value: String) -> JSONMember {
            JSONMember(key: key, value: JSONNode(.string(value)))
        }
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
                    ResultFile(name: "compare.md", contents: markdown),
                    ResultFile(
                        name: "index.html",
                        contents: comparison.htmlPage(sweep: a.positionals[0], measuredFile: measuredPath))
                ] + comparison.charts, to: out)
        } catch let e as ResultDirectory.WriteError {
            printError("adhocsim compare: \(e.description)")
            return ExitStatus.badInput
        }
        if !a.has("--quiet") {
            for note in comparison.notes { say("note: \(note)") }
            for t in comparison.tally { say("\(t.name): \(t.agree) of \(t.total)") }
            if let f = comparison.rmsLogFactor { say("RMS log error: x\(NumberText.fixed(f, decimals: 2))") }
            say("report: \(out.path)/compare.md")
        }
        return ExitStatus.success
    }
}

import AdHocSim
import Foundation

/// `adhocsim view DIR`: writes DIR/view.html from DIR/timeline.jsonl.
enum ViewCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.view); return ExitStatus.success }
        let a = try Arguments(args, options: [], switches: [])
        guard a.positionals.count == 1 else { throw Arguments.UsageError(message: "expects one run folder DIR") }
        let dir = URL(fileURLWithPath: a.positionals[0])
        // The `--out` rule: write only into a folder adhocsim wrote (its metadata.json says so).
        guard OutputFolder.isResultFolder(dir) else {
            printError(
                "adhocsim view: \(Diagnostic.excerpt(dir.path)) is not a run folder adhocsim wrote (no metadata.json "
                    + "from adhocsim); run the scenario with `adhocsim run FILE --view --out DIR` first")
            return ExitStatus.badInput
        }
        let source = dir.appendingPathComponent("timeline.jsonl")
        guard let text = OutputFolder.readRegularText(source) else {
            printError(
                "adhocsim view: \(Diagnostic.excerpt(source.path)) not found, not a regular file or not UTF-8: run the scenario with "
                    + "`adhocsim run FILE --view` (or --timeline) first")
            return ExitStatus.badInput
        }
        if let problem = TimelineCheck.problem(in: text) {
            printError(
                "adhocsim view: \(Diagnostic.excerpt(source.path)): \(problem); nothing was written "
                    + "(run the scenario again with --view to record a whole timeline)")
            return ExitStatus.badInput
        }
        do {
            try write(ViewerPage.html(timeline: text), to: dir.appendingPathComponent("view.html"))
        } catch {
            printError("adhocsim view: cannot write view.html (\(ErrorText.reason(error)))")
            return ExitStatus.badInput
        }
        say("wrote \(dir.appendingPathComponent("view.html").path)")
        return ExitStatus.success
    }

    /// Writes `text` to `url` in one step (a temporary file renamed into place).
    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}

import AdHocSim
import Foundation

/// Exit statuses, as the README documents them.
enum ExitStatus {
    static let success: Int32 = 0
    /// The run completed but a check failed (or the event budget cut it short).
    static let checkFailed: Int32 = 1
    /// Bad input, bad usage, or results that could not be written.
    static let badInput: Int32 = 2
}

enum CommandLineTool {
    static let commands = [
        "run", "view", "schema", "validate", "range", "sweep", "merge", "plot", "check", "calibrate", "compare",
        "bench", "help"
    ]

    static func main(_ args: [String]) -> Int32 {
        guard let command = args.first else {
            printError(Help.overview)
            return ExitStatus.badInput
        }
        let rest = Array(args.dropFirst())
        do {
            switch command {
            case "--version", "version":
                guard rest.isEmpty else {
                    throw Arguments.UsageError(
                        message: "takes no arguments, found \(Diagnostic.excerpt(rest.joined(separator: " ")))")
                }
                say("adhocsim \(RunFiles.toolVersion)")
                return ExitStatus.success
            case "--help", "-h", "help":
                guard rest.count <= 1 else {
                    throw Arguments.UsageError(message: "takes at most one COMMAND, found \(rest.count) arguments")
                }
                if let topic = rest.first {
                    guard let text = Help.text(for: topic) else {
                        throw Arguments.UsageError(
                            message:
                                "no help for \"\(Diagnostic.excerpt(topic))\"; commands: \(commands.joined(separator: ", "))"
                        )
                    }
                    say(text)
                } else {
                    say(Help.overview)
                }
                return ExitStatus.success
            case "run": return try RunCommand.main(rest)
            case "view": return try ViewCommand.main(rest)
            case "schema": return try SchemaCommand.main(rest)
            case "validate": return try ValidateCommand.main(rest)
            case "bench": return try BenchCommand.main(rest)
            case "range": return try RangeCommand.main(rest)
            case "sweep": return try SweepCommand.main(rest)
            case "merge": return try MergeCommand.main(rest)
            case "plot": return try PlotCommand.main(rest)
            case "check": return try CheckCommand.main(rest)
            case "calibrate": return try CalibrateCommand.main(rest)
            case "compare": return try CompareCommand.main(rest)
            default:
                var message = "adhocsim: unknown command \"\(Diagnostic.excerpt(command, limit: 40))\""
                if let s = commands.min(by: { editDistance($0, command) < editDistance($1, command) }),
                    editDistance(s, command) <= 2
                {
                    message += "; did you mean \"\(s)\"?"
                }
                printError(message + "\nRun `adhocsim --help` for the commands.")
                return ExitStatus.badInput
            }
        } catch let e as Arguments.UsageError {
            let name = Diagnostic.excerpt(command, limit: 40)
            let hint =
                commands.contains(command) && command != "help"
                ? "`adhocsim \(command) --help` for its usage" : "`adhocsim --help` for the commands"
            printError("adhocsim \(name): \(e.message)\nRun \(hint).")
            return ExitStatus.badInput
        } catch {
            printError("adhocsim \(command): \(ErrorText.describe(error))")
            return ExitStatus.badInput
        }
    }
}

/// Writes `text` and a line feed to standard error, with every control character but the line
/// feeds escaped (`Diagnostic.terminalSafe`).
func printError(_ text: String) {
    FileHandle.standardError.write(Data((Diagnostic.terminalSafe(text) + "\n").utf8))
}

/// Writes `text` to standard output, with every control character but the line feeds escaped
/// (`Diagnostic.terminalSafe`): a file name, label or value a user supplied cannot steer the
/// terminal.
func say(_ text: String, terminator: String = "\n") {
    print(Diagnostic.terminalSafe(text), terminator: terminator)
}

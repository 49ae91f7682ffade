import AdHocSim
import Foundation

enum PlotCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.plot); return ExitStatus.success }
        let a = try Arguments(args, options: [], switches: [])
        guard a.positionals.count == 1 else { throw Arguments.UsageError(message: "expects one sweep folder DIR") }
        do {
            let files = try SweepPlots.write(dir: URL(fileURLWithPath: a.positionals[0]))
            say("wrote \(files.count) charts and index.html to \(a.positionals[0])/plots")
        } catch let e as SweepPlots.PlotError {
            printError("adhocsim plot: \(e.description)")
            return ExitStatus.badInput
        }
        return ExitStatus.success
    }
}

import AdHocSim
import Foundation

/// `adhocsim schema`: prints the scenario format's JSON Schema.
enum SchemaCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { print(Help.schema); return ExitStatus.success }
        let a = try Arguments(args, options: [], switches: [])
        guard a.positionals.isEmpty else {
            throw Arguments.UsageError(message: "takes no arguments, found \(a.positionals.count)")
        }
        print(ScenarioSchema.text, terminator: "")
        return ExitStatus.success
    }
}

import AdHocSim
import Foundation

/// `adhocsim schema`: prints the scenario format's JSON Schema.
enum SchemaCommand {
    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.schema); return ExitStatus.success }
        let a = try Arguments(args, options: ["--table"], switches: [])
        guard a.positionals.isEmpty else {
            throw Arguments.UsageError(message: "takes no arguments, found \(a.positionals.count)")
        }
        if let name = a.value("--table") {
            // The docs' parameter table of a declared section (docs/models/<section>.md).
            guard let table = DeclaredSection.all.first(where: { $0.name == name })?.markdownTable else {
                let names = DeclaredSection.all.map(\.name).joined(separator: ", ")
                throw Arguments.UsageError(
                    message: "--table: \"\(Diagnostic.excerpt(name))\" is not a declared section (declared: \(names))")
            }
            say(table, terminator: "")
            return ExitStatus.success
        }
        say(ScenarioSchema.text, terminator: "")
        return ExitStatus.success
    }
}

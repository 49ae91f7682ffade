import AdHocSim
import Foundation

enum RangeCommand {
    /// The scenario `range` uses when no FILE is given: two handheld phones, the default radio.
    static let defaultScenario = """
        {"name": "range", "seed": 1, "duration_s": 1, "environment": {"preset": "field"},
         "nodes": [{"id": "a", "position": [0, 0, 1.2]}, {"id": "b", "position": [1, 0, 1.2]}]}
        """

    static func main(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { say(Help.range); return ExitStatus.success }
        let a = try Arguments(args, options: ["--environment", "--set"], switches: [])
        guard a.positionals.count <= 1 else { throw Arguments.UsageError(message: "expects at most one scenario FILE") }
        var overrides: [String] = []
        if let preset = a.value("--environment") { overrides.append("environment.preset=\(preset)") }
        overrides += a.all("--set")
        let scenario: Scenario
        do {
            if let file = a.positionals.first {
                scenario = try ScenarioDecoder.load(path: file, overrides: overrides)
            } else {
                scenario = try ScenarioDecoder.decode(
                    bytes: Array(defaultScenario.utf8), file: "(default scenario)", overrides: overrides)
            }
        } catch let e as ScenarioError {
            printError(e.description)
            return ExitStatus.badInput
        }
        let range = MaximumRange(scenario)
        say("range_m=\(NumberText.fixed(range.metres, decimals: 2))")
        say(range.explanation)
        return ExitStatus.success
    }
}

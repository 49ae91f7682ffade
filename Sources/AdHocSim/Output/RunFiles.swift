/// The files of one `run`: `metadata.json`, `scenario.json` (the effective input) and
/// `nodes.csv`. Later layers add their tables here.
public enum RunFiles {
    /// The tool's version, written into every metadata.json.
    public static let toolVersion = "0.1.0"

    /// Every file of `report`.
    public static func files(for report: RunReport) -> [ResultFile] {
        [
            ResultFile(name: "metadata.json", contents: metadata(report)),
            ResultFile(name: "scenario.json", contents: JSONText.render(report.scenario.effectiveInput)),
            ResultFile(name: "nodes.csv", contents: nodesTable(report).text),
        ]
    }

    /// `metadata.json`. Every field is deterministic except `wall_time_s`.
    public static func metadata(_ report: RunReport) -> String {
        let s = report.scenario
        func member(_ key: String, _ value: JSONValue) -> JSONMember { JSONMember(key: key, value: JSONNode(value)) }
        let doc = JSONNode(.object([
            member("tool", .string("adhocsim")),
            member("version", .string(toolVersion)),
            member("scenario", .string(s.name)),
            member("input_file", .string(s.sourcePath)),
            member("input_hash", .string("fnv1a64:\(s.inputHash)")),
            member("seed", .number(JSONNumber(integer: s.seed))),
            member("duration_s", .number(JSONNumber(s.duration.inSeconds))),
            member("simulated_time_s", .number(JSONNumber(literal: NumberText.fixed(report.simulatedTime.inSeconds, decimals: 9),
                                                          value: report.simulatedTime.inSeconds))),
            member("stop_reason", .string(report.stopReason.rawValue)),
            member("events_executed", .number(JSONNumber(integer: report.eventsExecuted))),
            member("wall_time_s", .number(JSONNumber(literal: NumberText.fixed(report.wallSeconds, decimals: 6),
                                                     value: report.wallSeconds))),
        ]))
        return JSONText.render(doc)
    }

    /// `nodes.csv`: one row per node, in file order.
    public static func nodesTable(_ report: RunReport) -> CSVTable {
        var t = CSVTable(header: ["node", "x_m", "y_m", "z_m"])
        for i in 0..<report.nodes.count {
            let p = report.nodes.position(of: i, at: .zero)
            t.append([report.nodes.ids[i], NumberText.fixed(p.x, decimals: 3), NumberText.fixed(p.y, decimals: 3),
                      NumberText.fixed(p.z, decimals: 3)])
        }
        return t
    }
}

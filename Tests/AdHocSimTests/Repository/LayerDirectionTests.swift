import Foundation
import Testing

/// The direction of the folders: a folder names no type declared in a folder above it in
/// `docs/design.md`'s folder table (highest first), except the crossings listed here, each with
/// its reason. A new crossing fails, and so does a listed one that no longer occurs, so the list
/// only shrinks.
struct LayerDirectionTests {
    /// The crossings the design keeps, by "lower → higher" folder, with the types named.
    static let allowed: [String: [String]] = [
        // The scenario holds every layer's section and lists every declaration, while each
        // layer decodes its section with the scenario's declarations.
        "Scenario → Host": ["HostParameters", "HostSpec"],
        "Scenario → Layers": ["LayerSpecs"],
        "Scenario → Link": ["IdealLinkSpec", "LinkParameters", "MacSpec"],
        "Scenario → Mesh": ["MeshNetwork", "MeshSpec"],
        "Scenario → Radio": ["EnvironmentParameters", "EnvironmentSpec", "RadioParameters", "RadioSpec"],
        "Scenario → Sweep": ["Matrix"],
        "Scenario → Transport": ["TransportParameters", "TransportSpec"],
        "Scenario → Workload": ["FlowCarrier", "FlowParameters", "FlowSpec", "TrafficParameters", "TrafficSpec"],
        // The thesis application submits its sends to the host's connection queue.
        "Workload → Host": ["ConnectionQueue"],
        // The routing binds its frame type once; the session layer carries it.
        "Multipeer → Mesh": ["RoutedPayload"],
        // The viewer's recorder samples the world and takes the layers' frames.
        "Multipeer → World": ["TimelineRecorder"],
        "Mesh → World": ["TimelineRecorder"],
        "Layers → World": ["TimelineRecorder"],
        // Each layer conforms to the registry's protocols and writes its own files and charts.
        "Mesh → Layers": ["LayerResults", "LayerSection", "RunningLayer"],
        "Mesh → Metrics": ["FlowMetrics", "RunReport"],
        "Mesh → Output": ["CSVTable", "CSVText", "NumberText", "ResultFile", "RunFiles", "SvgChart", "SweepTable"],
        "Bluetooth → Layers": ["LayerResults", "LayerSection", "RunningLayer"],
        "Bluetooth → Metrics": ["FlowMetrics", "RunReport"],
        "Bluetooth → Output": ["CSVTable", "NumberText", "ResultFile", "RunFiles", "SvgChart", "SweepTable"],
        // The registry's results hooks read the run's report and write files.
        "Layers → Metrics": ["RunReport"],
        "Layers → Output": ["ResultFile", "RunFiles", "SvgChart", "SweepTable"]
    ]

    /// The folders of `docs/design.md`'s table, highest first.
    static func order() throws -> [String] {
        let page = try String(contentsOf: Repository.root.appendingPathComponent("docs/design.md"), encoding: .utf8)
        return page.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "/") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
    }

    /// The top-level type names `code` declares (its lines already without comments and strings).
    static func declarations(_ code: [String]) -> Set<String> {
        let modifiers: Set<String> = ["public", "internal", "fileprivate", "private", "final", "indirect"]
        let kinds: Set<String> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
        var names: Set<String> = []
        for line in code where !(line.first?.isWhitespace ?? true) {
            var words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "@") })[...]
            while let w = words.first, modifiers.contains(String(w)) || w.hasPrefix("@") { words = words.dropFirst() }
            if let kind = words.first, kinds.contains(String(kind)), words.count > 1 {
                names.insert(String(words[words.startIndex + 1]))
            }
        }
        return names
    }

    /// The capitalised words `code` uses.
    static func names(_ code: [String]) -> Set<String> {
        var out: Set<String> = []
        for line in code {
            for w in line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
            where w.first?.isUppercase == true {
                out.insert(String(w))
            }
        }
        return out
    }

    /// Per source folder, its code lines (comments and string contents removed).
    static func folders() throws -> [String: [String]] {
        let root = Repository.root.appendingPathComponent("Sources/AdHocSim")
        let entries = try FileManager.default.contentsOfDirectory(atPath: root.path)
        var out: [String: [String]] = [:]
        for folder in entries where !folder.contains(".") {
            for file in try SourceRulesTests.swiftFiles("Sources/AdHocSim/" + folder) {
                let text = try String(contentsOf: file, encoding: .utf8)
                out[folder, default: []] += text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map(SourceRulesTests.code)
            }
        }
        return out
    }

    /// "lower → higher" for every type a folder names from a folder above it in `order`.
    static func crossings(_ code: [String: [String]], order: [String]) -> [String: [String]] {
        var owner: [String: String] = [:]
        for folder in code.keys.sorted() {
            for name in declarations(code[folder] ?? []) where owner[name] == nil { owner[name] = folder }
        }
        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        var out: [String: Set<String>] = [:]
        for (folder, lines) in code {
            for name in names(lines) {
                guard let other = owner[name], other != folder, let r = rank[other], let mine = rank[folder],
                    r < mine
                else { continue }
                out["\(folder) → \(other)", default: []].insert(name)
            }
        }
        return out.mapValues { $0.sorted() }
    }

    @Test func theReaderFindsDeclarationsAndUses() {
        // By hand: two folders, "High" above "Low"; Low names High's `Report`, High names Low's `Cell`.
        let code = [
            "High": ["public struct Report {", "    var cells: [Cell]", "}"],
            "Low": ["final class Cell {}", "extension Cell { func f(_ r: Report) {} }", "    struct Nested {}"]
        ]
        expectEqual(Self.declarations(code["Low"] ?? []), ["Cell"])
        expectEqual(Self.crossings(code, order: ["High", "Low"]), ["Low → High": ["Report"]])
        expectEqual(Self.crossings(code, order: ["Low", "High"]), ["High → Low": ["Cell"]])
    }

    @Test func everyFolderIsInTheTable() throws {
        let order = try Self.order()
        expectEqual(Set(order).count, order.count, "a folder listed twice: \(order)")
        expectEqual(Set(order), Set(try Self.folders().keys))
    }

    @Test func noFolderNamesATypeOfAFolderAboveIt() throws {
        let found = Self.crossings(try Self.folders(), order: try Self.order())
        for (pair, types) in found.sorted(by: { $0.key < $1.key }) {
            let extra = types.filter { !(Self.allowed[pair] ?? []).contains($0) }
            expect(extra.isEmpty, "\(pair) names \(extra): move the type down, or the code up")
        }
        for (pair, types) in Self.allowed.sorted(by: { $0.key < $1.key }) {
            let gone = types.filter { !(found[pair] ?? []).contains($0) }
            expect(gone.isEmpty, "\(pair) no longer names \(gone): drop them from the allowed crossings")
        }
    }
}

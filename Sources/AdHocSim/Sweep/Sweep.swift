// A sweep's plan: the matrix's cells times the repeats, as units a runner can share out.

import Foundation

/// One run of a sweep: a cell and a repeat index.
public struct SweepUnit: Sendable {
    /// The cell.
    public var cell: Matrix.Cell
    /// 0-based repeat.
    public var repeatIndex: Int
    /// The file stem under `cells/`: `<cell id>-r<repeat, 4 digits>`; sorting stems sorts units.
    public var stem: String {
        let r = String(repeatIndex)
        return cell.id + "-r" + String(repeating: "0", count: Swift.max(0, 4 - r.count)) + r
    }
}

/// A sweep: the file, its base scenario and its units.
public struct SweepPlan: Sendable {
    /// The scenario file.
    public let path: String
    /// Its bytes (each unit is decoded from their parsed document, with its overrides).
    public var bytes: [UInt8] { document.bytes }
    /// The file parsed once, for every unit's decode.
    let document: ScenarioDocument
    /// Command-line overrides applied to every unit.
    public let overrides: [String]
    /// The base scenario (with the command-line overrides).
    public let base: Scenario
    /// The matrix.
    public let matrix: Matrix
    /// Every unit, sorted by stem.
    public let units: [SweepUnit]

    /// Why a sweep cannot start.
    public struct PlanError: Error, CustomStringConvertible {
        /// The problems.
        public var description: String
    }

    /// Loads `path`, checks the matrix and lists its units.
    public init(path: String, overrides: [String]) throws {
        switch ScenarioFile.read(path) {
        case .success(let b): document = ScenarioDocument(bytes: b, file: path)
        case .failure(let f):
            throw PlanError(description: "\(Diagnostic.escaped(path.isEmpty ? "\"\"" : path)): error: \(f.message)")
        }
        self.path = path
        self.overrides = overrides
        base = try ScenarioDecoder.decode(document, overrides: overrides)
        guard let m = base.matrix, !m.axes.isEmpty else {
            throw PlanError(
                description:
                    "\(path): error: matrix: a sweep needs a \"matrix\" object with at least one axis, e.g. {\"environment.preset\": [\"city\", \"field\"]}, in the file or given with --matrix FILE"
            )
        }
        matrix = m
        // An axis must name something the scenario has (or may have): try its first value alone.
        var problems: [String] = []
        for axis in m.axes {
            do {
                _ = try ScenarioDecoder.decode(
                    document, overrides: overrides + ["\(axis.path)=\(Matrix.text(axis.values[0]))"])
            } catch let e as ScenarioError {
                for d in e.diagnostics
                where d.override != nil
                    && (d.message.hasPrefix("unknown key") || d.message.contains("out of range (the array")
                        || d.message.hasPrefix("cannot") || d.message.hasPrefix("there is no array"))
                {
                    problems.append(
                        "\(path): error: matrix.\(axis.path): the path does not exist in this scenario: \(d.message)")
                }
            }
        }
        if !problems.isEmpty { throw PlanError(description: problems.joined(separator: "\n")) }
        var list: [SweepUnit] = []
        for cell in m.cells { for r in 0..<m.repeats { list.append(SweepUnit(cell: cell, repeatIndex: r)) } }
        units = list
    }

    /// The units of shard `k` of `n` (1-based k): every n-th unit in stem order.
    public func units(shard: (k: Int, n: Int)?) -> [SweepUnit] {
        guard let (k, n) = shard else { return units }
        return units.enumerated().filter { $0.offset % n == k - 1 }.map(\.element)
    }

    /// Whether the matrix varies the seed itself.
    var seedIsAxis: Bool { matrix.axes.contains { $0.path == "seed" } }

    /// The seed of a unit: the cell's own if the matrix varies `seed`, else derived from the
    /// sweep seed and the unit's stem (SplitMix64 of seed + FNV-1a(stem)).
    public func seed(of unit: SweepUnit, cellSeed: UInt64) -> UInt64 {
        if seedIsAxis && unit.repeatIndex == 0 { return cellSeed }
        return SplitMix64.mix(cellSeed &+ StableHash.fnv1a(unit.stem))
    }

    /// The column names of `cells.csv`.
    public var header: [String] { ["cell_id", "repeat"] + matrix.axes.map { "param." + $0.path } + columns }

    /// The result columns: the flow summary, plus the columns of the base scenario's layers
    /// (`LayerReports.sweepColumns`).
    var columns: [String] { RunFiles.summaryColumns + LayerReports.sweepColumns(base) }

    /// Runs one unit and returns its `cells.csv` rows and `cells.jsonl` lines, and whether a row's
    /// status is a failure (read from the rows, not from their text: a message or an axis value
    /// may hold any characters). Never throws: an invalid cell becomes a row with its status.
    public func run(_ unit: SweepUnit) -> (csv: String, jsonl: String, failed: Bool) {
        let params = unit.cell.assignments.map { Matrix.display($0.value) }
        var rows: [[String]] = []
        var status: String?
        do {
            let cellScenario = try ScenarioDecoder.decode(document, overrides: overrides + unit.cell.overrides)
            let seed = self.seed(of: unit, cellSeed: cellScenario.seed)
            let scenario = try ScenarioDecoder.decode(
                document, overrides: overrides + unit.cell.overrides + ["seed=\(seed)"])
            let report = try ScenarioRunner.run(scenario)
            rows = LayerReports.sweepRows(report, base: base, flowRows: RunFiles.summaryRows(report))
            if rows.isEmpty { status = "no-flows" }
        } catch let e as ScenarioError {
            status = "failed:invalid: " + (e.diagnostics.first.map { "\($0.path): \($0.message)" } ?? "")
        } catch {
            status = "failed:\(error)"
        }
        if let status {
            var row = Array(repeating: "", count: columns.count)
            if let c = columns.firstIndex(of: "status") { row[c] = status }
            rows = [row]
        }
        var csv = CSVTable(header: header)
        var jsonl = ""
        for r in rows {
            let full = [unit.cell.id, "\(unit.repeatIndex)"] + params + r
            csv.append(full)
            var members = [
                JSONMember(key: "cell_id", value: JSONNode(.string(unit.cell.id))),
                JSONMember(key: "repeat", value: JSONNode(.number(JSONNumber(integer: unit.repeatIndex))))
            ]
            members.append(
                JSONMember(
                    key: "params",
                    value: JSONNode(
                        .object(
                            unit.cell.assignments.map {
                                JSONMember(key: $0.path, value: JSONNode($0.value))
                            }))))
            for (key, value) in zip(columns, r) {
                members.append(JSONMember(key: key, value: JSONNode(RunFiles.jsonCell(value, column: key))))
            }
            jsonl += JSONText.render(JSONNode(.object(members)), pretty: false) + "\n"
        }
        let body = csv.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        let failed = columns.firstIndex(of: "status").map { c in rows.contains { $0[c].hasPrefix("failed") } } ?? false
        return (body, jsonl, failed)
    }
}

import Foundation

/// Runs a sweep's units on worker threads and assembles its outputs.
///
/// Layout of the output folder:
/// - `cells/<stem>.csv` and `cells/<stem>.jsonl`: one finished unit each, written to a temporary
///   name and renamed into place (the `.csv` last), so a killed sweep leaves only whole units;
/// - `cells.csv`, `cells.jsonl`: every unit's rows in stem order (byte-identical for any `-j`,
///   shard split or resume);
/// - `metadata.json`: tool version, input file and hash, unit counts, shard, wall time.
public enum SweepRunner {
    /// Progress reporting.
    public enum Progress: Sendable {
        case quiet
        /// One plain line per finished unit.
        case lines
        /// A single line rewritten in place (a terminal).
        case bar
    }

    /// Why a sweep could not write its outputs.
    public struct OutputError: Error, CustomStringConvertible {
        /// What went wrong, naming the path.
        public var description: String
    }

    final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var next = 0
        var done = 0
        var failed = 0
        var writeError: String?
    }

    /// Runs the units of `shard` not yet finished in `out` (all of them unless `resume`), with
    /// `workers` threads, then assembles the outputs. Returns (units run now, units failed).
    @discardableResult
    public static func run(
        _ plan: SweepPlan, out: URL, workers: Int, shard: (k: Int, n: Int)?, resume: Bool,
        progress: Progress
    ) throws -> (ran: Int, failed: Int) {
        let fm = FileManager.default
        let cellsDir = out.appendingPathComponent("cells")
        try claim(out)
        if resume { try checkSameSweep(plan, out: out, shard: shard) }
        do {
            try fm.createDirectory(at: out, withIntermediateDirectories: true)
        } catch {
            throw OutputError(description: "\(out.path): cannot create the sweep folder (\(ErrorText.reason(error)))")
        }
        let lock: FolderLock
        do { lock = try FolderLock(out) } catch let r as OutputFolder.Refusal {
            throw OutputError(description: r.description)
        }
        defer { lock.release() }
        let mine = plan.units(shard: shard)
        // metadata.json first: from here on the folder is recognisably ours (`OutputFolder`).
        try writeMetadata(plan, out: out, shard: shard, units: mine.count, wall: nil)
        do {
            try fm.createDirectory(at: cellsDir, withIntermediateDirectories: true)
        } catch {
            throw OutputError(description: "\(out.path): cannot create the sweep folder (\(ErrorText.reason(error)))")
        }
        guard fm.isWritableFile(atPath: cellsDir.path) else {
            throw OutputError(description: "\(out.path): the sweep folder is not writable")
        }
        if !resume {
            // A fresh sweep starts without earlier cells: it removes the cell files a sweep
            // writes (<stem>.csv, <stem>.jsonl and hidden temporaries), never anything else.
            for f in (try? fm.contentsOfDirectory(atPath: cellsDir.path)) ?? []
            where f.hasSuffix(".csv") || f.hasSuffix(".jsonl") || (f.hasPrefix(".") && f.contains(".tmp-")) {
                try? fm.removeItem(at: cellsDir.appendingPathComponent(f))
            }
        } else {
            // Temporary files of a killed run are never whole: remove them.
            for f in (try? fm.contentsOfDirectory(atPath: cellsDir.path)) ?? []
            where f.hasPrefix(".") && f.contains(".tmp-") {
                try? fm.removeItem(at: cellsDir.appendingPathComponent(f))
            }
        }
        // A resumed unit counts as done only when both its files are whole (a cell
        // whose .jsonl was missing was not rerun, a garbage .csv was copied into
        // cells.csv); any other is removed and run again.
        let todo = mine.filter { unit in
            guard fm.fileExists(atPath: cellsDir.appendingPathComponent(unit.stem + ".csv").path) else { return true }
            guard malformedCell(cellsDir, stem: unit.stem, columns: plan.header.count) != nil else { return false }
            for ext in [".csv", ".jsonl"] { try? fm.removeItem(at: cellsDir.appendingPathComponent(unit.stem + ext)) }
            return true
        }
        let shared = Shared()
        let started = ContinuousClock().now
        let total = todo.count
        DispatchQueue.concurrentPerform(iterations: Swift.max(1, Swift.min(workers, total))) { _ in
            while true {
                shared.lock.lock()
                let i = shared.next
                shared.next += 1
                // The first failed write stops the sweep: no unit is simulated whose result
                // could not be kept.
                let stop = shared.writeError != nil
                shared.lock.unlock()
                guard i < total, !stop else { return }
                let unit = todo[i]
                let unitStart = ContinuousClock().now
                let (csv, jsonl, failed) = plan.run(unit)
                let unitSeconds = (ContinuousClock().now - unitStart).seconds
                do {
                    try commit(jsonl, to: cellsDir.appendingPathComponent(unit.stem + ".jsonl"))
                    try commit(csv, to: cellsDir.appendingPathComponent(unit.stem + ".csv"))
                } catch {
                    shared.lock.lock()
                    shared.writeError = "\(cellsDir.path): cannot write \(unit.stem) (\(ErrorText.reason(error)))"
                    shared.lock.unlock()
                }
                shared.lock.lock()
                shared.done += 1
                if failed { shared.failed += 1 }
                let (done, nfailed) = (shared.done, shared.failed)
                report(
                    progress, done: done, failed: nfailed, total: total, unit: unit, status: failed ? "failed" : "ok",
                    seconds: unitSeconds, elapsed: (ContinuousClock().now - started).seconds)
                shared.lock.unlock()
            }
        }
        if progress == .bar { FileHandle.standardError.write(Data("\n".utf8)) }
        if let e = shared.writeError { throw OutputError(description: e) }
        try assemble(plan, out: out, units: mine)
        try writeMetadata(
            plan, out: out, shard: shard, units: mine.count, wall: (ContinuousClock().now - started).seconds)
        return (total, shared.failed)
    }

    static func report(
        _ p: Progress, done: Int, failed: Int, total: Int, unit: SweepUnit, status: String, seconds: Double,
        elapsed: Double
    ) {
        switch p {
        case .quiet: return
        case .lines:
            let params = unit.cell.assignments.map { "\($0.path)=\(Matrix.display($0.value))" }.joined(separator: " ")
            FileHandle.standardError.write(
                Data(
                    Diagnostic.terminalSafe(
                        "[\(done)/\(total)] \(unit.stem) \(status) \(NumberText.fixed(seconds, decimals: 2)) s (\(params))\n"
                    ).utf8))
        case .bar:
            let eta = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
            let width = 30
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            FileHandle.standardError.write(
                Data(
                    "\r[\(bar)] \(done)/\(total) cells, \(failed) failed, \(NumberText.fixed(elapsed, decimals: 0)) s elapsed, ETA \(NumberText.fixed(eta, decimals: 0)) s "
                        .utf8))
        }
    }

    /// Refuses an output folder that is neither missing, empty nor an earlier adhocsim folder.
    static func claim(_ out: URL) throws {
        do {
            try OutputFolder.checkWritable(out, owner: .resultFolder)
            try OutputFolder.refuseLinks(
                in: out, names: ["cells", "cells.csv", "cells.jsonl", "metadata.json", "plots"])
        } catch let refusal as OutputFolder.Refusal {
            throw OutputError(description: refusal.description)
        }
    }

    /// Writes `text` to `url` atomically (temporary file, then rename): the file is whole or
    /// absent, never half written.
    public static func commitFile(_ text: String, to url: URL) throws { try commit(text, to: url) }

    /// Writes `text` to `url` atomically (temporary file, then rename).
    static func commit(_ text: String, to url: URL) throws {
        // Unique per call (process and counter), so two writers never share a temporary file.
        let tmp = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(TemporaryName.next())")
        do {
            try Data(text.utf8).write(to: tmp)
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            try FileManager.default.moveItem(at: tmp, to: url)
        } catch {
            try? FileManager.default.removeItem(at: tmp)  // no empty or partial leftovers
            throw error
        }
    }

    /// `cells.csv` and `cells.jsonl` from the finished units in `dirs` (deduplicated by stem),
    /// written into `out`.
    public static func assemble(header: [String], stems: [String]?, from dirs: [URL], out: URL) throws {
        let fm = FileManager.default
        var files: [String: URL] = [:]
        for dir in dirs {
            let cells = dir.appendingPathComponent("cells")
            for f in (try? fm.contentsOfDirectory(atPath: cells.path)) ?? []
            where f.hasSuffix(".csv") && !f.hasPrefix(".") {
                files[String(f.dropLast(4))] = cells.appendingPathComponent(f)
            }
        }
        let order = (stems ?? Array(files.keys)).sorted()
        var csv = CSVTable(header: header).text
        var jsonl = ""
        for stem in order {
            guard let url = files[stem] else { continue }
            csv += OutputFolder.readRegularText(url) ?? ""
            jsonl += OutputFolder.readRegularText(url.deletingPathExtension().appendingPathExtension("jsonl")) ?? ""
        }
        try commit(csv, to: out.appendingPathComponent("cells.csv"))
        try commit(jsonl, to: out.appendingPathComponent("cells.jsonl"))
    }

    static func assemble(_ plan: SweepPlan, out: URL, units: [SweepUnit]) throws {
        try assemble(header: plan.header, stems: units.map(\.stem), from: [out], out: out)
    }

    /// The sweep's identity: tool version and the input hash.
    static func identity(_ plan: SweepPlan) -> (version: String, hash: String) {
        (RunFiles.toolVersion, "fnv1a64:" + plan.base.inputHash)
    }

    static func writeMetadata(_ plan: SweepPlan, out: URL, shard: (k: Int, n: Int)?, units: Int, wall: Double?) throws {
        func m(_ k: String, _ v: JSONValue) -> JSONMember { JSONMember(key: k, value: JSONNode(v)) }
        let id = identity(plan)
        var members = [
            m("tool", .string("adhocsim")), m("version", .string(id.version)), m("scenario", .string(plan.base.name)),
            m("input_file", .string(plan.path)), m("input_hash", .string(id.hash)),
            m("header", .array(plan.header.map { JSONNode(.string($0)) })),
            m("cells", .number(JSONNumber(integer: plan.matrix.cellCount))),
            m("repeat", .number(JSONNumber(integer: plan.matrix.repeats))),
            m("units_total", .number(JSONNumber(integer: plan.units.count))),
            m("units_in_shard", .number(JSONNumber(integer: units))),
            m("shard", shard.map { .string("\($0.k)/\($0.n)") } ?? .null),
            m("overrides", .array(plan.overrides.map { JSONNode(.string($0)) }))
        ]
        if let wall {
            members.append(
                m("wall_time_s", .number(JSONNumber(literal: NumberText.fixed(wall, decimals: 3), value: wall))))
        }
        try commit(JSONText.render(JSONNode(.object(members))), to: out.appendingPathComponent("metadata.json"))
    }

    /// A resumed sweep must be the same sweep.
    /// A folder without `metadata.json` holds no sweep yet; one whose metadata cannot be read is
    /// refused rather than resumed blindly.
    static func checkSameSweep(_ plan: SweepPlan, out: URL, shard: (k: Int, n: Int)?) throws {
        guard FileManager.default.fileExists(atPath: out.appendingPathComponent("metadata.json").path) else { return }
        let meta: FolderMetadata
        do {
            meta = try readMetadata(out)
        } catch let e as OutputError {
            throw OutputError(description: "cannot resume: \(e.description)")
        }
        let id = identity(plan)
        if meta.hash != id.hash || meta.version != id.version {
            throw OutputError(
                description:
                    "\(out.path): holds a different sweep (input \(meta.hash), version \(meta.version)); this one is \(id.hash), version \(id.version). Use another --out or drop --resume."
            )
        }
        func text(_ s: (k: Int, n: Int)?) -> String { s.map { "shard \($0.k)/\($0.n)" } ?? "the whole sweep" }
        if meta.shard?.k != shard?.k || meta.shard?.n != shard?.n {
            throw OutputError(
                description:
                    "\(out.path): holds \(text(meta.shard)), not \(text(shard)); resume it with the same --shard, or use another --out."
            )
        }
    }

    /// What a sweep folder's `metadata.json` says, every number checked.
    public struct FolderMetadata: Sendable {
        /// Tool version and input hash: the sweep's identity.
        public var version: String, hash: String
        /// The cells.csv header.
        public var header: [String]
        /// Units of the whole sweep, and of this folder's shard.
        public var total: Int, inShard: Int
        /// The shard, `(k, n)`, or `nil` for a whole sweep.
        public var shard: (k: Int, n: Int)?
        /// Whether the sweep finished (its final metadata records the wall time).
        public var finished: Bool
        /// The scenario file and the `--set` arguments the sweep ran with.
        public var inputFile: String, overrides: [String]
    }

    /// Reads a sweep folder's identity and header. Every number is checked: a value that is not
    /// a whole number in range makes the folder unreadable instead of trapping.
    public static func readMetadata(_ dir: URL) throws -> FolderMetadata {
        let url = dir.appendingPathComponent("metadata.json")
        guard let data = OutputFolder.readRegularFile(url, limit: OutputFolder.metadataByteLimit) else {
            throw OutputError(description: "\(dir.path): no metadata.json: not a sweep folder")
        }
        let sink = DiagnosticSink(file: url.path, lineMap: LineMap(Array(data)))
        var parser = JSONParser(bytes: Array(data), sink: sink)
        func count(_ node: JSONNode?) -> Int? {
            guard case .number(let n)? = node?.value, n.isIntegerLiteral, let v = Int(exactly: n.value), v >= 0,
                v <= 1 << 40
            else { return nil }
            return v
        }
        guard let root = parser.parseDocument(), case .string(let v)? = root["version"]?.value,
            case .string(let h)? = root["input_hash"]?.value, case .array(let header)? = root["header"]?.value,
            let total = count(root["units_total"]), let inShard = count(root["units_in_shard"])
        else {
            throw OutputError(
                description: "\(url.path): not a sweep's metadata.json (or a value in it is out of range)")
        }
        var shard: (Int, Int)?
        if case .string(let s)? = root["shard"]?.value {
            let parts = s.split(separator: "/").map { Int($0) }
            guard parts.count == 2, let k = parts[0], let n = parts[1], n >= 1, k >= 1, k <= n, n <= Matrix.maxUnits
            else {
                throw OutputError(
                    description:
                        "\(url.path): shard \"\(Diagnostic.excerpt(s))\" is not K/N with 1 ≤ K ≤ N ≤ \(Matrix.maxUnits)"
                )
            }
            shard = (k, n)
        }
        var inputFile = ""
        if case .string(let f)? = root["input_file"]?.value { inputFile = f }
        var overrides: [String] = []
        if case .array(let list)? = root["overrides"]?.value {
            overrides = list.compactMap { if case .string(let s) = $0.value { return s } else { return nil } }
        }
        return FolderMetadata(
            version: v, hash: h,
            header: header.compactMap { if case .string(let s) = $0.value { return s } else { return nil } },
            total: total, inShard: inShard, shard: shard, finished: root["wall_time_s"] != nil, inputFile: inputFile,
            overrides: overrides)
    }

    /// Joins shard folders into `out`; refuses folders of different sweeps, and an incomplete
    /// set unless `allowPartial`: every unit of the sweep must be present exactly once, every
    /// shard finished, every cell file whole. Returns the warnings a partial merge gives.
    @discardableResult
    public static func merge(_ dirs: [URL], out: URL, allowPartial: Bool = false) throws -> [String] {
        guard let first = dirs.first else { throw OutputError(description: "merge needs at least one sweep folder") }
        let reference = try readMetadata(first)
        var problems: [String] = []
        var owner: [String: URL] = [:]
        var shards: [Int: URL] = [:]
        for d in dirs {
            let m = try readMetadata(d)
            if m.hash != reference.hash || m.version != reference.version {
                throw OutputError(
                    description:
                        "\(d.path) is from a different sweep (input \(m.hash), version \(m.version)) than \(first.path) (input \(reference.hash), version \(reference.version)); refusing to merge"
                )
            }
            if !m.finished {
                problems.append("\(d.path): the sweep did not finish (no wall time in its metadata.json)")
            }
            if let (k, n) = m.shard {
                if let other = shards[k] { problems.append("\(d.path) and \(other.path) are both shard \(k)/\(n)") }
                shards[k] = d
            }
            let cells = d.appendingPathComponent("cells")
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: cells.path)) ?? []).sorted()
            var here = 0
            for f in names where f.hasSuffix(".csv") && !f.hasPrefix(".") {
                let stem = String(f.dropLast(4))
                if let other = owner[stem] {
                    problems.append("cell \(stem) is in both \(other.path) and \(d.path)")
                    continue
                }
                owner[stem] = d
                here += 1
                if let bad = malformedCell(cells, stem: stem, columns: reference.header.count) {
                    problems.append("\(cells.path)/\(f): \(bad)")
                }
            }
            if here != m.inShard {
                problems.append("\(d.path) holds \(here) of its shard's \(m.inShard) units")
            }
        }
        if owner.count < reference.total {
            var missing = "\(reference.total - owner.count) of the sweep's \(reference.total) units are missing"
            if let shard = reference.shard {
                // At most ten named, however many shards there are (N is at most Matrix.maxUnits).
                let absentCount = shard.n - shards.keys.filter { $0 <= shard.n }.count
                if absentCount > 0 {
                    var absent: [Int] = []
                    var k = 1
                    while absent.count < 10 && k <= shard.n {
                        if shards[k] == nil { absent.append(k) }
                        k += 1
                    }
                    missing +=
                        " (\(absentCount) shard\(absentCount == 1 ? "" : "s") not given: "
                        + absent.map { "\($0)/\(shard.n)" }.joined(separator: ", ")
                        + (absentCount > absent.count ? ", …" : "") + ")"
                }
            }
            if let plan = try? SweepPlan(path: reference.inputFile, overrides: reference.overrides),
                identity(plan).hash == reference.hash
            {
                let absent = plan.units.map(\.stem).filter { owner[$0] == nil }
                missing += ": " + absent.prefix(10).joined(separator: ", ") + (absent.count > 10 ? ", …" : "")
            }
            problems.append(missing)
        }
        if !problems.isEmpty && !allowPartial {
            throw OutputError(
                description:
                    "refusing to merge an incomplete or inconsistent set (--allow-partial merges it anyway):\n  "
                    + problems.joined(separator: "\n  "))
        }
        try claim(out)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let lock: FolderLock
        do { lock = try FolderLock(out) } catch let r as OutputFolder.Refusal {
            throw OutputError(description: r.description)
        }
        defer { lock.release() }
        var text = OutputFolder.readRegularText(first.appendingPathComponent("metadata.json")) ?? ""
        text = text.replacingOccurrences(of: "\"shard\": ", with: "\"merged_from_shard\": ")
        try commit(text, to: out.appendingPathComponent("metadata.json"))
        try assemble(header: reference.header, stems: nil, from: dirs, out: out)
        return problems
    }

    /// Why a finished unit's files are not whole, or `nil`: the CSV must end with a newline and
    /// hold rows of `columns` fields, the JSON lines file must exist and end with a newline.
    static func malformedCell(_ cells: URL, stem: String, columns: Int) -> String? {
        guard let csv = OutputFolder.readRegularText(cells.appendingPathComponent(stem + ".csv")) else {
            return "unreadable"
        }
        guard !csv.isEmpty, csv.hasSuffix("\n") else { return "empty or cut short" }
        let parsed = CSVTable.records(csv)
        guard parsed.closed else { return "a quoted field is never closed" }
        if let bad = parsed.rows.first(where: { $0.count != columns }) {
            return "a row has \(bad.count) fields, not \(columns)"
        }
        // The rows must be this unit's: a file holding another cell's row would make one cell
        // twice and another missing in the merged table.
        if let dash = stem.range(of: "-r", options: .backwards) {
            let cellId = String(stem[..<dash.lowerBound]), rep = Int(stem[dash.upperBound...])
            if let bad = parsed.rows.first(where: { $0[0] != cellId || Int($0[1]) != rep }) {
                return
                    "a row is cell \(Diagnostic.excerpt(bad[0])) repeat \(Diagnostic.excerpt(bad[1])), not this file's"
            }
        }
        guard let jsonl = OutputFolder.readRegularText(cells.appendingPathComponent(stem + ".jsonl")),
            jsonl.hasSuffix("\n")
        else { return "its .jsonl is missing or cut short" }
        let lines = jsonl.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.count == parsed.rows.count else {
            return "its .jsonl has \(lines.count) lines for \(parsed.rows.count) rows"
        }
        for line in lines {
            guard case .object(let members)? = JSONParser.parseScalar(String(line)),
                case .string(let id)? = members.first(where: { $0.key == "cell_id" })?.value.value,
                stem.hasPrefix(id + "-r")
            else { return "its .jsonl has a line that is not this unit's JSON object" }
        }
        return nil
    }
}

/// A process-wide counter for temporary file names.
enum TemporaryName {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var counter = 0

    /// The next number.
    static func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        counter += 1
        return counter
    }
}

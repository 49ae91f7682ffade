/// A parameter matrix (`"matrix": {"<json path>": [values...], ..., "repeat": R}`): the cells
/// are the cartesian product of the axes applied to the base scenario, each run R times.
public struct Matrix: Sendable {
    /// One axis: a JSON path and the values it takes, in file order.
    public struct Axis: Sendable {
        /// The path, as written.
        public var path: String
        /// The values.
        public var values: [JSONValue]
    }

    /// The axes, in file order.
    public var axes: [Axis]
    /// Runs per cell.
    public var repeats: Int

    /// One cell: a value per axis.
    public struct Cell: Sendable {
        /// `(path, value)` per axis, in axis order.
        public var assignments: [(path: String, value: JSONValue)]
        /// A stable id from the assignments: FNV-1a 64 of `path=value` lines, 16 hex digits.
        public var id: String
        /// The `--set`-style overrides that make this cell.
        public var overrides: [String] { assignments.map { "\($0.path)=\(Matrix.text($0.value))" } }
    }

    /// A value as override text (JSON for everything but bare strings, which stay quoted so
    /// `"max"` and `"city"` round-trip exactly).
    static func text(_ v: JSONValue) -> String {
        JSONText.render(JSONNode(v), pretty: false)
    }

    /// A value as a table cell.
    public static func display(_ v: JSONValue) -> String {
        if case .string(let s) = v { return s }
        return text(v)
    }

    /// The most units (cells × repeats) a matrix may ask for: 1 000 000 (assumption: a thousand
    /// times the thesis plan's 576 cells; a bigger sweep is better split into several files).
    public static let maxUnits = 1_000_000

    /// The most runs of one cell (`repeat`): 1 000 (assumption: enough for any spread; more is
    /// better as a second seed).
    public static let maxRepeats: UInt64 = 1000

    /// The JSON Schema of `matrix`, from the decoder's own rules: `repeat` in 1…`maxRepeats`,
    /// every other key an axis of at least one single value (no arrays or objects). What a
    /// schema cannot say stays with the decoder: that a key is a JSON path the scenario has,
    /// that an axis holds no value twice, that the cells stay within `maxUnits`.
    static var schema: JSONSchema {
        JSONSchema.object.description("the sweep's axes: JSON paths to lists of values, and repeat")
            .properties(["repeat": .integer.minimum(1).maximum(exactly: maxRepeats)])
            .additionalProperties(
                JSONSchema.array.minItems(1).items(.types(["string", "number", "boolean", "null"])))
    }

    /// The number of cells, the product of the axis lengths, without building them.
    public var cellCount: Int { axes.reduce(1) { $0 * $1.values.count } }

    /// Every cell, sorted by id.
    public var cells: [Cell] {
        var result: [[(String, JSONValue)]] = [[]]
        for axis in axes {
            var next: [[(String, JSONValue)]] = []
            for prefix in result { for v in axis.values { next.append(prefix + [(axis.path, v)]) } }
            result = next
        }
        return result.map { a in
            var h = StableHash()
            for (p, v) in a { h.combine("\(p)=\(Matrix.text(v))\n") }
            return Cell(assignments: a.map { (path: $0.0, value: $0.1) }, id: h.hex)
        }.sorted { $0.id < $1.id }
    }
}

extension ScenarioDecoder {
    /// Decodes the `matrix` object (its values are checked per cell, when the cell is built).
    func decodeMatrix(_ node: JSONNode, _ path: JSONPath) -> Matrix? {
        guard let members = node.members else {
            sink.report(
                "expected an object {\"<json path>\": [values...], \"repeat\": R}, found \(node.value.summary)",
                path: path, at: node.origin)
            return nil
        }
        var axes: [Matrix.Axis] = []
        var repeats = 1
        var ok = true
        for m in members {
            let p = path.appending(m.key)
            if m.key == "repeat" {
                if let r = values.integer(
                    m.value, p, "a repeat count in 1...\(Matrix.maxRepeats)", in: 1...Matrix.maxRepeats)
                {
                    repeats = Int(r)
                } else {
                    ok = false
                }
                continue
            }
            guard JSONPath.parse(m.key) != nil else {
                sink.report(
                    "\"\(Diagnostic.excerpt(m.key))\" is not a JSON path like environment.preset or flows[0].workload.size (of at most \(JSONPath.maxComponents) components)",
                    path: p,
                    at: m.keyOrigin)
                ok = false
                continue
            }
            guard case .array(let items) = m.value.value else {
                sink.report("expected an array of values, found \(m.value.value.summary)", path: p, at: m.value.origin)
                ok = false
                continue
            }
            guard !items.isEmpty else {
                sink.report("expected at least one value; an empty axis makes no cells", path: p, at: m.value.origin)
                ok = false
                continue
            }
            var vs: [JSONValue] = []
            for (j, item) in items.enumerated() {
                switch item.value {
                case .array, .object:
                    sink.report(
                        "matrix values must be single values, found \(item.value.summary)", path: p.appending(j),
                        at: item.origin)
                    ok = false
                default:
                    vs.append(item.value)
                }
            }
            // Equal values would make equal cells with equal ids (two runs writing one file).
            var firstAt: [String: Int] = [:]
            for (j, v) in vs.enumerated() {
                let key = Matrix.text(v)
                if let first = firstAt[key] {
                    sink.report(
                        "the value \(Diagnostic.excerpt(key)) appears twice in this axis (also at [\(first)]); "
                            + "every cell must differ", path: p.appending(j), at: items[j].origin)
                    ok = false
                } else {
                    firstAt[key] = j
                }
            }
            axes.append(Matrix.Axis(path: m.key, values: vs))
        }
        // The size is checked before any cell is built: the product of the axis lengths, with
        // overflow caught, against the limit.
        var units = repeats
        for axis in axes {
            let (product, overflow) = units.multipliedReportingOverflow(by: axis.values.count)
            units = overflow ? Int.max : Swift.min(product, Int.max)
        }
        if ok && units > Matrix.maxUnits {
            sink.report(
                "the matrix asks for \(units == Int.max ? "more than 2^63" : String(units)) runs (cells × repeat), "
                    + "more than the limit of \(Matrix.maxUnits); split it into several files",
                path: path, at: node.origin)
            ok = false
        }
        return ok ? Matrix(axes: axes, repeats: repeats) : nil
    }
}

extension Matrix {
    /// `adhocsim sweep --matrix FILE`: reads a file holding a matrix object (what a scenario's
    /// `"matrix"` holds) and returns the `--set matrix={...}` argument that puts it in place of
    /// the scenario's own. The file is checked here, so its problems name it with their line,
    /// column and JSON path (relative to the file); the scenario then checks the axes' paths.
    /// - Throws: `ScenarioError` with every problem of the file.
    public static func overrideArgument(file: String) throws -> String {
        let bytes: [UInt8]
        switch ScenarioFile.read(file) {
        case .success(let b): bytes = b
        case .failure(let f):
            throw ScenarioError(diagnostics: [
                Diagnostic(
                    file: file.isEmpty ? "\"\"" : file, line: nil, column: nil, override: nil, path: "",
                    message: "--matrix: " + f.message)
            ])
        }
        let sink = DiagnosticSink(file: file, lineMap: LineMap(bytes))
        var parser = JSONParser(bytes: bytes, sink: sink)
        guard let root = parser.parseDocument() else { throw sink.error }
        guard ScenarioDecoder(sink: sink).decodeMatrix(root, .root) != nil, !sink.hasErrors else { throw sink.error }
        return "matrix=" + JSONText.render(root, pretty: false)
    }
}

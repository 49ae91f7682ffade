/// `adhocsim calibrate`: fits the parameters of a `CalibrationProblem` to the measured cells of
/// the places not held out, with `NelderMead`, and reports how well the fit predicts the cells
/// of the held-out places (cross-validation by place).
public enum Calibration {
    /// What a calibration found.
    public struct Report: Sendable {
        /// The fitted values, in `--fit` order.
        public var values: [(parameter: FitParameter, value: Double)]
        /// Loss at the start (the bounds' centre) and at the fit, on the fitted rows.
        public var startLoss: Double, loss: Double
        /// Objective calls.
        public var evaluations: Int
        /// The call that first reached the fitted loss (`NelderMead.Result.bestEvaluation`).
        public var bestEvaluation: Int
        /// Cells fitted and cells held out.
        public var fitted: [MeasuredCell], heldOut: [MeasuredCell]
        /// The simulation at the fit, cell by cell.
        public var simulatedFitted: [[Double?]], simulatedHeldOut: [[Double?]]
        /// What the measured table skipped (`MeasuredTable.notes`).
        public var notes: [String] = []

        /// The calibrated overrides as a JSON object (`{"path": value, ...}` in `--fit` order),
        /// which `run --overrides` and `sweep --overrides` read.
        public var overridesJSON: String {
            let members = values.map {
                JSONMember(key: $0.parameter.path, value: JSONNode(.number(JSONNumber($0.value))))
            }
            return JSONText.render(JSONNode(.object(members)), pretty: true) + "\n"
        }
    }

    /// Fits `problem` to the rows of `measured` whose place is not in `holdout`, stopping after
    /// `maxEvaluations` points or `stallLimit` points in a row without a better loss.
    /// - Throws: `CalibrationError` when every row is held out, a held-out place has no row, or
    ///   a run of the fit fails (the first failure named).
    public static func run(
        _ problem: CalibrationProblem, measured: MeasuredTable, holdout: [Place], workers: Int, maxEvaluations: Int,
        stallLimit: Int? = nil
    ) throws -> Report {
        for place in holdout where !measured.rows.contains(where: { $0.place == place }) {
            throw CalibrationError(
                description: "--holdout \(place.rawValue): \(measured.file) has no row of that place")
        }
        let fitted = MeasuredCell.group(measured.rows.filter { !holdout.contains($0.place) }, measured.aggregation)
        let heldOut = MeasuredCell.group(measured.rows.filter { holdout.contains($0.place) }, measured.aggregation)
        guard !fitted.isEmpty else {
            throw CalibrationError(
                description: "--holdout: every row of \(measured.file) is held out; nothing left to fit")
        }
        var search = NelderMead(maxEvaluations: maxEvaluations)
        search.stallLimit = stallLimit
        // A point whose runs fail ends the fit with that failure (no evaluation after it runs).
        var failure: Error?
        let result = search.minimise(dimensions: problem.parameters.count) { point in
            guard failure == nil else { return .infinity }
            do {
                return CalibrationProblem.loss(fitted, try problem.simulate(fitted, at: point, workers: workers))
            } catch {
                failure = error
                return .infinity
            }
        }
        if let failure { throw failure }
        return Report(
            values: zip(problem.parameters, result.point).map { ($0, $0.value(at: $1)) },
            startLoss: result.startValue, loss: result.value, evaluations: result.evaluations,
            bestEvaluation: result.bestEvaluation, fitted: fitted,
            heldOut: heldOut, simulatedFitted: try problem.simulate(fitted, at: result.point, workers: workers),
            simulatedHeldOut: heldOut.isEmpty ? [] : try problem.simulate(heldOut, at: result.point, workers: workers),
            notes: measured.notes)
    }
}

/// A file of overrides (`run --overrides FILE`, `sweep --overrides FILE`): a JSON object whose
/// members are JSON paths and scalar values, applied in file order before any `--set`, as
/// `adhocsim calibrate` writes them.
public enum OverrideFile {
    /// The `PATH=VALUE` arguments of the file at `path`. - Throws: `ScenarioError` naming the
    /// file, line and column of a problem.
    public static func read(_ path: String) throws -> [String] {
        let bytes: [UInt8]
        switch ScenarioFile.read(path) {
        case .success(let b): bytes = b
        case .failure(let f):
            throw ScenarioError(diagnostics: [
                Diagnostic(file: path, line: nil, column: nil, override: nil, path: "", message: f.message)
            ])
        }
        let sink = DiagnosticSink(file: path, lineMap: LineMap(bytes))
        var parser = JSONParser(bytes: bytes, sink: sink)
        guard let root = parser.parseDocument() else { throw sink.error }
        guard case .object(let members) = root.value else {
            sink.report(
                "expected an object of overrides {\"json.path\": value, ...}, found \(root.value.summary)", path: .root,
                at: root.origin)
            throw sink.error
        }
        var out: [String] = []
        for m in members {
            switch m.value.value {
            case .array, .object:
                sink.report(
                    "expected a single value (number, string, true, false or null)",
                    path: JSONPath.root.appending(m.key),
                    at: m.value.origin)
            default:
                out.append("\(m.key)=\(Matrix.text(m.value.value))")
            }
        }
        if sink.hasErrors { throw sink.error }
        return out
    }
}

import Foundation

/// One parameter to fit: a JSON path of the scenario and its bounds (`--fit PATH=LOW:HIGH`).
public struct FitParameter: Sendable, Equatable {
    /// The JSON path (as `--set` takes it).
    public var path: String
    /// Lower bound.
    public var lower: Double
    /// Upper bound.
    public var upper: Double
    /// Whether the key takes whole numbers only (found by `CalibrationProblem`: the scenario
    /// refuses a fraction between the bounds); its values are then rounded.
    public var wholeNumbers = false

    /// Parses `PATH=LOW:HIGH`. - Throws: `CalibrationError` saying what was expected.
    public init(argument text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let bounds = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false) : []
        guard parts.count == 2, !parts[0].isEmpty, bounds.count == 2, let lo = Double(bounds[0]),
            let hi = Double(bounds[1]), lo.isFinite, hi.isFinite, lo < hi
        else {
            throw CalibrationError(
                description:
                    "--fit \(Diagnostic.excerpt(text)): expected PATH=LOW:HIGH with finite LOW < HIGH, e.g. host.receiveUs=0:200"
            )
        }
        path = parts[0]
        lower = lo
        upper = hi
    }

    /// The value at `u` in [0, 1] (rounded to a whole number for a key that takes only those).
    public func value(at u: Double) -> Double {
        let v = lower + u * (upper - lower)
        return wholeNumbers ? Swift.min(upper.rounded(.down), Swift.max(lower.rounded(.up), v.rounded())) : v
    }
}

/// The objective of `adhocsim calibrate`: for a point in parameter space, run the scenario for
/// every measured cell (`MeasuredCell`: the rows of one place, protocol, distance, packets and
/// size) and compare the simulated thesis metrics with the measured ones.
///
/// A cell runs the scenario with `environment.preset`, `flows[0].protocol`, `distance_m`,
/// `flows[0].workload.packets` and `flows[0].workload.size` set to its values, the fitted
/// parameters set by `--set`, and `repeats` seeds, repeat k's derived from the scenario seed
/// and the cell (SplitMix64 of seed + FNV-1a("calibrate:PLACE/PROTOCOL/DISTANCE/PACKETS/SIZE:k")).
/// The same seeds serve every point (common random numbers), so the objective does not jitter
/// between neighbouring points. Both sides are put together before they are compared, because
/// single rounds of a phone test scatter widely (the AWDL phase a test starts at moves the RTT
/// by hundreds of milliseconds) and a mean of logs would be biased: per cell, the mean of the
/// measured rows against the mean of the simulated repeats (`MeasuredAggregation.cellMean`);
/// for per-test field data, per group the median over the tests against the median over every
/// simulated run of the group's distances (`groupMedian`).
///
/// The loss is the mean, over every measured value (a cell's term counts once per row that
/// measured it; a group's median once), of one term per cell and metric:
/// - RTT mean, RTT SD, data rate: (ln((sim + 0.01) / (measured + 0.01)))², a squared relative
///   error that treats a factor 2 too high and too low alike (the 0.01 keeps zeros finite);
/// - loss %: ((sim − measured) / 10)², ten percentage points counting like a factor e;
/// - a metric the simulation did not produce (every run failed, no echo): 4, as a factor e² off.
/// The residuals it prints are the square roots of the same weighted mean per metric (RMS).
public struct CalibrationProblem: Sendable {
    /// The scenario file.
    public let path: String
    /// Its bytes.
    public var bytes: [UInt8] { document.bytes }
    /// The file parsed once, for every run's decode.
    let document: ScenarioDocument
    /// Command-line overrides applied first.
    public let overrides: [String]
    /// The base scenario.
    public let base: Scenario
    /// The parameters, in `--fit` order.
    public let parameters: [FitParameter]
    /// Runs per measured row.
    public let repeats: Int
    /// The measured rows the problem compares: all of them for a per-cell table (a row off the
    /// matrix is an error there); for per-test field data the rows on the scenario's matrix,
    /// the others skipped with a note (the pilot's counts of 2 000, 3 000 and 8 000 writes).
    public let measured: MeasuredTable
    /// Whether the scenario's first flow is a round (`protocol` as a list): one run then serves
    /// every protocol's rows of its cell, each read from the round's flow of that transport.
    public let isRound: Bool

    /// The matrix paths of the five key columns, in `MeasuredTable.keyColumns` order.
    static let keyPaths = [
        "environment.preset", "flows[0].protocol", "distance_m", "flows[0].workload.packets", "flows[0].workload.size"
    ]

    /// Loads the scenario and checks that every parameter path and every measured row makes a
    /// valid scenario, and that a row lies on the scenario's matrix, if it has one.
    public init(
        scenarioPath: String, overrides: [String], parameters: [FitParameter], measured: MeasuredTable, repeats: Int
    ) throws {
        switch ScenarioFile.read(scenarioPath) {
        case .success(let b): document = ScenarioDocument(bytes: b, file: scenarioPath)
        case .failure(let f):
            throw CalibrationError(description: "\(Diagnostic.escaped(scenarioPath)): error: \(f.message)")
        }
        path = scenarioPath
        self.overrides = overrides
        self.repeats = repeats
        base = try ScenarioDecoder.decode(document, overrides: overrides)
        guard !base.flows.isEmpty else {
            throw CalibrationError(description: "\(scenarioPath): error: flows: calibration needs a flow to measure")
        }
        var seen: Set<String> = []
        var checked: [FitParameter] = []
        for var p in parameters {
            guard seen.insert(p.path).inserted else {
                throw CalibrationError(description: "--fit \(p.path): the path is fitted twice")
            }
            for v in [p.lower, p.upper] {
                do {
                    _ = try ScenarioDecoder.decode(
                        document, overrides: overrides + ["\(p.path)=\(CalibrationProblem.number(v))"])
                } catch let e as ScenarioError {
                    throw CalibrationError(
                        description:
                            "--fit \(p.path)=\(CalibrationProblem.number(p.lower)):\(CalibrationProblem.number(p.upper)): "
                            + "the scenario does not accept \(CalibrationProblem.number(v)) there:\n\(e.description)")
                }
            }
            // A key of whole numbers refuses a fraction between its bounds: the search then
            // evaluates whole numbers only (every point a value `run --overrides` accepts).
            let fraction =
                p.lower.rounded(.down) + 0.5 < p.upper ? p.lower.rounded(.down) + 0.5 : (p.lower + p.upper) / 2
            if fraction > p.lower, fraction < p.upper,
                (try? ScenarioDecoder.decode(
                    document, overrides: overrides + ["\(p.path)=\(CalibrationProblem.number(fraction))"])) == nil
            {
                guard p.lower.rounded(.up) <= p.upper.rounded(.down) else {
                    throw CalibrationError(
                        description:
                            "--fit \(p.path)=\(CalibrationProblem.number(p.lower)):\(CalibrationProblem.number(p.upper)): the key takes whole numbers and there is none between the bounds"
                    )
                }
                p.wholeNumbers = true
            }
            checked.append(p)
        }
        self.parameters = checked
        var usable = measured
        if measured.aggregation == .groupMedian, let matrix = base.matrix {
            let on = measured.rows.filter { (try? CalibrationProblem.checkOnMatrix($0, matrix, file: "")) != nil }
            let off = measured.rows.count - on.count
            usable = MeasuredTable(
                file: measured.file, rows: on, aggregation: measured.aggregation,
                notes: measured.notes
                    + (off > 0 ? ["\(off) test\(off == 1 ? "" : "s") off the scenario's matrix skipped"] : []))
        }
        self.measured = usable
        isRound = base.flows.first?.round != nil
        let roundTransports = base.flows.filter { $0.round == 0 }.map(\.transport)
        for row in usable.rows {
            if let matrix = base.matrix { try CalibrationProblem.checkOnMatrix(row, matrix, file: measured.file) }
            // A round answers for its own transports only: another protocol's row has no flow.
            if isRound, !roundTransports.contains(row.transport) {
                throw CalibrationError(
                    description:
                        "\(measured.file):\(row.line): error: column protocol: \(row.transport.rawValue) is not in the scenario's round (flows[0].protocol: \(roundTransports.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            do {
                _ = try ScenarioDecoder.decode(
                    document, overrides: overrides + CalibrationProblem.rowOverrides(row, round: isRound))
            } catch let e as ScenarioError {
                throw CalibrationError(
                    description:
                        "\(measured.file):\(row.line): error: the row makes an invalid scenario:\n\(e.description)")
            }
        }
    }

    /// The `--set` arguments that make `row`'s cell (a probe test keeps the scenario's packets
    /// and size; a round keeps its transports).
    static func rowOverrides(_ row: MeasuredRow, round: Bool = false) -> [String] {
        let distance = row.distance == "max" ? "\"max\"" : row.distance
        let values = [row.place.rawValue, row.transport.rawValue, distance, "\(row.packets)", "\(row.size)"]
        return zip(keyPaths, values).enumerated().filter { k, _ in (k < 3 || row.packets > 0) && !(round && k == 1) }
            .map { "\($1.0)=\($1.1)" }
    }

    /// A row must name a value of every matrix axis among the five key paths.
    static func checkOnMatrix(_ row: MeasuredRow, _ matrix: Matrix, file: String) throws {
        let texts = [row.place.rawValue, row.transport.rawValue, row.distance, "\(row.packets)", "\(row.size)"]
        for (k, keyPath) in keyPaths.enumerated() where k < 3 || row.packets > 0 {
            guard let axis = matrix.axes.first(where: { $0.path == keyPath }) else { continue }
            let hit = axis.values.contains { v in
                switch v {
                case .string(let s): return s == texts[k]
                case .number(let n): return Double(texts[k]) == n.value
                default: return false
                }
            }
            if !hit {
                throw CalibrationError(
                    description:
                        "\(file):\(row.line): error: column \(MeasuredTable.keyColumns[k]): \(texts[k]) matches no cell of the matrix (matrix.\(keyPath): \(axis.values.map(Matrix.display).joined(separator: ", ")))"
                )
            }
        }
    }

    /// The fitted parameters' `--set` arguments at `point` (in the unit cube).
    public func parameterOverrides(_ point: [Double]) -> [String] {
        zip(parameters, point).map { "\($0.path)=\(CalibrationProblem.number($0.value(at: $1)))" }
    }

    /// A parameter value as written in overrides and output (shortest round-trip form).
    static func number(_ v: Double) -> String { JSONNumber(v).literal }

    final class Results: @unchecked Sendable {
        let lock = NSLock()
        var next = 0
        /// Per run and repeat: each measured flow's transport and metrics (nil: the run failed).
        var metrics: [[(TransportProtocol, FlowMetrics)]?]
        /// The first run that could not be made or run (its cell and why), in run order.
        var firstFailure: (index: Int, text: String)?
        init(count: Int) { metrics = Array(repeating: nil, count: count) }
    }

    /// The simulated metrics of `cells` at `point`: per cell, per `CalibrationMetric`, the mean
    /// over its repeats (`cellMean`), or the median over every repeat of every run of the group
    /// (`groupMedian`). A run shared by several cells is simulated once. Runs on `workers`
    /// threads; the result does not depend on their number.
    /// - Throws: `CalibrationError` naming the first run (in run order) that could not be made or
    ///   run: a point whose runs fail is bad input, not a bad fit.
    public func simulate(_ cells: [MeasuredCell], at point: [Double], workers: Int) throws -> [[Double?]] {
        let params = parameterOverrides(point)
        var runs: [MeasuredRow] = []
        var runIndex: [String: Int] = [:]  // lookup only; the order is the cells'
        let round = isRound
        // A round's run is one for every protocol: its name leaves the protocol out.
        @Sendable func name(_ r: MeasuredRow) -> String {
            round
                ? "\(r.place.rawValue)/round/\(r.distance)/\(r.packets)/\(r.size)"
                : "\(r.place.rawValue)/\(r.transport.rawValue)/\(r.distance)/\(r.packets)/\(r.size)"
        }
        let cellRuns: [[Int]] = cells.map { cell in
            cell.runs.map { r in
                if let i = runIndex[name(r)] { return i }
                runIndex[name(r)] = runs.count
                runs.append(r)
                return runs.count - 1
            }
        }
        let allRuns = runs
        let total = allRuns.count * repeats
        let results = Results(count: total)
        // The longest runs start first (the most bytes to transfer; probe-only runs last), so
        // the evaluation does not wait on one long run at its end with the other workers idle
        // (longest processing time first). The order changes only when a run is simulated:
        // each result is stored at its own index.
        let longestFirst = allRuns.indices.sorted { a, b in
            let ca = Int64(allRuns[a].packets) * Int64(allRuns[a].size),
                cb = Int64(allRuns[b].packets) * Int64(allRuns[b].size)
            return ca != cb ? ca > cb : a < b
        }
        DispatchQueue.concurrentPerform(iterations: Swift.max(1, Swift.min(workers, total))) { _ in
            while true {
                results.lock.lock()
                let t = results.next
                results.next += 1
                results.lock.unlock()
                guard t < total else { return }
                let r = longestFirst[t / repeats], k = t % repeats
                let run = allRuns[r], index = r * repeats + k
                let seed = SplitMix64.mix(base.seed &+ StableHash.fnv1a("calibrate:\(name(run)):\(k)"))
                var report: RunReport?
                var failure: String?
                do {
                    report = try ScenarioRunner.run(
                        ScenarioDecoder.decode(
                            document,
                            overrides: overrides + CalibrationProblem.rowOverrides(run, round: round) + params + [
                                "seed=\(seed)"
                            ]))
                } catch {
                    failure = "\(name(run)) with \(params.joined(separator: " ")): \(error)"
                }
                // The first flow, or every flow of the first flow's round.
                let m = report.map { r in
                    r.scenario.flows.indices.filter { $0 == 0 || (round && r.scenario.flows[$0].round == 0) }
                        .map { (r.scenario.flows[$0].transport, r.flows[$0]) }
                }
                results.lock.lock()
                results.metrics[index] = m
                if let failure, results.firstFailure.map({ index < $0.index }) ?? true {
                    results.firstFailure = (index, failure)
                }
                results.lock.unlock()
            }
        }
        if let f = results.firstFailure {
            throw CalibrationError(description: "calibrate: a run of the fit failed: \(f.text)")
        }
        return cells.indices.map { c in
            CalibrationMetric.allCases.map { metric in
                let vs = zip(cellRuns[c], cells[c].runs).flatMap { r, row in
                    (0..<repeats).compactMap { k in
                        results.metrics[r * repeats + k].flatMap { flows in
                            (round ? flows.first { $0.0 == row.transport } : flows.first).flatMap {
                                metric.value(of: $0.1)
                            }
                        }
                    }
                }
                guard !vs.isEmpty else { return nil }
                switch cells[c].aggregation {
                case .cellMean: return vs.reduce(0, +) / Double(vs.count)
                case .groupMedian: return MeasuredCell.median(vs)
                }
            }
        }
    }

    /// One loss term (see the type's comment).
    static func term(_ metric: CalibrationMetric, measured: Double, simulated: Double?) -> Double {
        guard let s = simulated else { return 4 }
        if metric == .loss { return ((s - measured) / 10) * ((s - measured) / 10) }
        let r = log((s + 0.01) / (measured + 0.01))
        return r * r
    }

    /// The loss of `simulated` against `cells`: the weighted mean term.
    public static func loss(_ cells: [MeasuredCell], _ simulated: [[Double?]]) -> Double {
        var sum = 0.0, n = 0
        for (cell, sim) in zip(cells, simulated) {
            for (k, metric) in CalibrationMetric.allCases.enumerated() {
                guard let m = cell.means[k] else { continue }
                sum += Double(cell.counts[k]) * term(metric, measured: m, simulated: sim[k])
                n += cell.counts[k]
            }
        }
        return n > 0 ? sum / Double(n) : 0
    }

    /// Per metric: how many measured values, and the RMS of the terms' square roots (a relative
    /// log error for RTT and rate, tens of percentage points for loss).
    public static func residuals(
        _ cells: [MeasuredCell], _ simulated: [[Double?]]
    ) -> [(
        metric: CalibrationMetric, count: Int, rms: Double
    )] {
        CalibrationMetric.allCases.enumerated().compactMap { k, metric in
            var sum = 0.0, n = 0
            for (cell, sim) in zip(cells, simulated) {
                guard let m = cell.means[k] else { continue }
                sum += Double(cell.counts[k]) * term(metric, measured: m, simulated: sim[k])
                n += cell.counts[k]
            }
            return n > 0 ? (metric, n, (sum / Double(n)).squareRoot()) : nil
        }
    }
}

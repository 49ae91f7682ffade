import Foundation

// Calibration layer: what this folder owns is in its README.md.

/// The thesis metrics a measured table can carry, in their fixed order (`summary.csv` names).
public enum CalibrationMetric: String, Sendable, CaseIterable {
    /// Mean probe RTT, ms.
    case rttMean = "rtt_mean_ms"
    /// SD of the probe RTTs (the thesis's jitter), ms.
    case rttSd = "rtt_sd_ms"
    /// Data rate at the receiver, Mbit/s.
    case dataRate = "data_rate_mbps"
    /// Loss, %.
    case loss = "loss_pct"
    /// Sample SD (n − 1) of the probe RTTs, as the measuring app stores it, ms.
    case rttSdSample = "rtt_sd_sample_ms"

    /// The metric of a run's first flow.
    func value(of m: FlowMetrics) -> Double? {
        switch self {
        case .rttMean: return m.rttMean
        case .rttSd: return m.rttSd
        case .rttSdSample: return m.rttSdSample
        case .dataRate: return m.dataRateMbps
        case .loss: return m.lossPct
        }
    }
}

/// One measured cell: where and how it was measured, and what was measured.
public struct MeasuredRow: Sendable, Equatable {
    /// Line in the CSV file (the header is line 1).
    public var line: Int
    /// The place (`environment.preset`).
    public var place: Place
    /// The transport (`flows[0].protocol`).
    public var transport: TransportProtocol
    /// `distance_m`: metres in canonical JSON form (`5`, `2.5`), or `max`.
    public var distance: String
    /// Writes (`flows[0].workload.packets`); 0: the scenario's own (a probe test).
    public var packets: Int
    /// Bytes per write (`flows[0].workload.size`); 0: the scenario's own (a probe test).
    public var size: Int
    /// Per `CalibrationMetric.allCases`: the measured value, `nil` where the cell is empty.
    public var values: [Double?]
}

/// How the measured rows of a table are put together before they are compared.
public enum MeasuredAggregation: Sendable, Equatable {
    /// The rows of one cell (place, protocol, distance, packets, size) are rounds of one test:
    /// their mean against the mean of the cell's simulated repeats (the per-cell layout).
    case cellMean
    /// Per-test rows (`FieldTestTable`): per group, the median over the tests against the
    /// median over the group's simulated runs, a group being a place and protocol for probe
    /// tests and a place, protocol, size and count for transfers, every distance together; a
    /// metric with fewer than two tests in its group is left out. A single phone test scatters
    /// too much (the probe RTT from ~40 to ~400 ms with the start phase) for a mean of a few
    /// rounds to pin anything.
    case groupMedian
}

/// The measured rows compared as one value per metric: a cell (`cellMean`) or a group of cells
/// (`groupMedian`).
public struct MeasuredCell: Sendable, Equatable {
    /// The first row (its key fields).
    public var key: MeasuredRow
    /// The distinct runs (place, protocol, distance, packets, size) the comparison simulates,
    /// in the order they first appear.
    public var runs: [MeasuredRow]
    /// Lines of its rows in the CSV file.
    public var lines: [Int]
    /// Per `CalibrationMetric.allCases`: the measured values of its rows, in row order.
    public var samples: [[Double]]
    /// Per `CalibrationMetric.allCases`: the measured value (mean or median), `nil` if none.
    public var means: [Double?]
    /// Per `CalibrationMetric.allCases`: the weight of its term in the loss (rows measured for
    /// `cellMean`; 1 for `groupMedian`, each group median counting once).
    public var counts: [Int]
    /// How its rows were put together.
    public var aggregation: MeasuredAggregation

    /// A short name: `city udp 5 m, 1000 × 128 B`, or for a group `field udp probes` /
    /// `field udp 1000 × 128 B`.
    public var label: String {
        switch aggregation {
        case .cellMean:
            return "\(key.place.rawValue) \(key.transport.rawValue) \(key.distance) m, \(key.packets) × \(key.size) B"
        case .groupMedian:
            let what = key.packets == 0 ? "probes" : "\(key.packets) × \(key.size) B"
            return "\(key.place.rawValue) \(key.transport.rawValue) \(what)"
        }
    }

    /// Groups `rows` by cell (`cellMean`) or by group (`groupMedian`), in the order they first appear.
    public static func group(_ rows: [MeasuredRow], _ aggregation: MeasuredAggregation = .cellMean) -> [MeasuredCell] {
        var cells: [MeasuredCell] = []
        var members: [[MeasuredRow]] = []
        var index: [String: Int] = [:]  // lookup only; the order is the rows'
        for row in rows {
            let name: String
            switch aggregation {
            case .cellMean:
                name = "\(row.place.rawValue)/\(row.transport.rawValue)/\(row.distance)/\(row.packets)/\(row.size)"
            case .groupMedian:
                name = "\(row.place.rawValue)/\(row.transport.rawValue)/\(row.packets)/\(row.size)"
            }
            if let c = index[name] {
                members[c].append(row)
            } else {
                index[name] = cells.count
                let n = CalibrationMetric.allCases.count
                cells.append(
                    MeasuredCell(
                        key: row, runs: [], lines: [], samples: Array(repeating: [], count: n),
                        means: Array(repeating: nil, count: n),
                        counts: Array(repeating: 0, count: n), aggregation: aggregation))
                members.append([row])
            }
        }
        for c in cells.indices {
            var seen: Set<String> = []
            for row in members[c] {
                cells[c].lines.append(row.line)
                if seen.insert(row.distance).inserted { cells[c].runs.append(row) }
            }
            for k in CalibrationMetric.allCases.indices {
                let vs = members[c].compactMap { $0.values[k] }
                cells[c].samples[k] = vs
                switch aggregation {
                case .cellMean:
                    guard !vs.isEmpty else { continue }
                    cells[c].means[k] = vs.reduce(0, +) / Double(vs.count)
                    cells[c].counts[k] = vs.count
                case .groupMedian:
                    guard vs.count >= 2 else { continue }
                    cells[c].means[k] = MeasuredCell.median(vs)
                    cells[c].counts[k] = 1
                }
            }
        }
        return cells.filter { $0.counts.contains { $0 > 0 } }
    }

    /// The median of `values` (the mean of the middle two for an even count). - Precondition: not empty.
    public static func median(_ values: [Double]) -> Double { SampleMedian.of(values) }
}

/// Why a calibration cannot start: the file, line and column, and what was expected.
public struct CalibrationError: Error, CustomStringConvertible {
    /// The message, compiler style.
    public var description: String

    /// An error with this message.
    public init(description: String) { self.description = description }
}

/// A CSV table of measured thesis metrics (`adhocsim calibrate --measured FILE`).
///
/// Columns (header on line 1, any order): `place` (underground, city, field, forest, custom),
/// `protocol` (tcp, udp, quic), `distance_m` (metres or `max`), `packets`, `size_bytes`, and at
/// least one of `rtt_mean_ms`, `rtt_sd_ms`, `rtt_sd_sample_ms`, `data_rate_mbps`, `loss_pct`. An
/// empty metric cell was not measured; every row needs at least one metric. Rows may repeat a
/// cell (rounds of the same test): each row counts. Any other column is an error, so a misspelt
/// metric is never silently ignored.
///
/// A table in the per-test layout of the published field data (`FieldTestTable`: columns
/// `side`, `protocol`, `place`, `distance_m`, `source_file`, ...) is read as it is and compared
/// group by group with medians (`MeasuredAggregation.groupMedian`).
public struct MeasuredTable: Sendable {
    /// The largest measured table read: 256 MiB (assumption: a million per-test rows of about
    /// 100 bytes each, far more than any field study holds).
    public static let maxBytes = 256 << 20

    /// The columns that say which cell a row measured.
    public static let keyColumns = ["place", "protocol", "distance_m", "packets", "size_bytes"]

    /// The magnitudes a measured RTT, jitter or rate may have: 0, or 10⁻⁶ … 10⁹ (ms or Mbit/s;
    /// assumption: far outside any phone's figure, and inside what a ratio or a logarithm of two
    /// of them keeps finite). A loss is a percentage, 0 … 100.
    static let magnitudes = "0 or a number in 0.000001...1000000000"

    /// Whether `v` is a measured value the comparison can use (`magnitudes`).
    static func plausible(_ v: Double, loss: Bool) -> Bool {
        loss ? (0...100).contains(v) : v == 0 || (1e-6...1e9).contains(v)
    }
    /// The file, as named in messages.
    public let file: String
    /// The rows, in file order.
    public let rows: [MeasuredRow]
    /// How the rows are compared: per cell (the per-cell layout) or per group (per-test rows).
    public let aggregation: MeasuredAggregation
    /// What was skipped while reading, one line each (per-test rows only).
    public let notes: [String]

    /// The table with only `metrics` measured (`calibrate --metrics`): other values are
    /// dropped, and rows left without a value.
    public func keeping(_ metrics: [CalibrationMetric]) -> MeasuredTable {
        let kept = rows.compactMap { row -> MeasuredRow? in
            var r = row
            for (k, metric) in CalibrationMetric.allCases.enumerated() where !metrics.contains(metric) {
                r.values[k] = nil
            }
            return r.values.contains { $0 != nil } ? r : nil
        }
        return MeasuredTable(file: file, rows: kept, aggregation: aggregation, notes: notes)
    }

    /// The same table with other rows and notes.
    init(file: String, rows: [MeasuredRow], aggregation: MeasuredAggregation, notes: [String]) {
        self.file = file
        self.rows = rows
        self.aggregation = aggregation
        self.notes = notes
    }

    /// Parses `text` (the contents of `file`). - Throws: `CalibrationError` naming the line and
    /// column of the first problem.
    public init(text: String, file: String) throws {
        self.file = file
        // A UTF-8 byte order mark (spreadsheets write one) is not part of the first column's name.
        let (records, closed) = CSVTable.records(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        func fail(_ line: Int, _ message: String) -> CalibrationError {
            CalibrationError(description: "\(file):\(line): error: \(message)")
        }
        guard closed else { throw fail(records.count, "the file ends inside a quoted field") }
        guard let header = records.first, !(header.count == 1 && header[0].isEmpty) else {
            throw fail(
                1, "empty table; the header needs \(MeasuredTable.keyColumns.joined(separator: ", ")) and a metric")
        }
        if FieldTestTable.matches(header.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }) {
            let (rows, notes) = try FieldTestTable.rows(records, file: file)
            guard !rows.isEmpty else { throw fail(1, "no usable test in the table") }
            self.rows = rows
            self.notes = notes
            aggregation = .groupMedian
            return
        }
        aggregation = .cellMean
        notes = []
        let metricNames = CalibrationMetric.allCases.map(\.rawValue)
        let known = MeasuredTable.keyColumns + metricNames
        var index: [String: Int] = [:]
        for (c, name) in header.enumerated() {
            guard known.contains(name) else {
                var message = "column \(c + 1) \"\(Diagnostic.excerpt(name))\" is not a known column"
                if let s = Suggestion.closest(to: name, among: known) { message += "; did you mean \"\(s)\"?" }
                throw fail(1, message + " (known: \(known.joined(separator: ", ")))")
            }
            guard index[name] == nil else { throw fail(1, "column \"\(name)\" appears twice") }
            index[name] = c
        }
        for key in MeasuredTable.keyColumns where index[key] == nil {
            throw fail(
                1, "missing column \"\(key)\" (the table needs \(MeasuredTable.keyColumns.joined(separator: ", ")))")
        }
        guard metricNames.contains(where: { index[$0] != nil }) else {
            throw fail(1, "no metric column; add at least one of \(metricNames.joined(separator: ", "))")
        }
        var rows: [MeasuredRow] = []
        for (r, record) in records.enumerated().dropFirst() {
            let line = r + 1
            if record.count == 1 && record[0].isEmpty { continue }  // a blank line
            guard record.count == header.count else {
                throw fail(line, "\(record.count) fields for \(header.count) columns")
            }
            func field(_ name: String) -> String {
                index[name].map { record[$0].trimmingCharacters(in: .whitespaces) } ?? ""
            }
            func bad(_ name: String, _ expected: String) -> CalibrationError {
                fail(line, "column \(name): expected \(expected), found \"\(Diagnostic.excerpt(field(name)))\"")
            }
            guard let place = Place(rawValue: field("place")) else {
                throw bad("place", "a place (\(Place.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let transport = TransportProtocol(rawValue: field("protocol")) else {
                throw bad("protocol", "tcp, udp or quic")
            }
            var distance = field("distance_m")
            if distance != "max" {
                guard let d = DecimalText.parse(distance), d > 0 else {
                    throw bad("distance_m", "a distance in metres > 0, or max")
                }
                distance = JSONNumber(d).literal
            }
            guard let packets = Int(field("packets")), packets >= 1 else { throw bad("packets", "a whole number ≥ 1") }
            guard let size = Int(field("size_bytes")), size >= 1 else { throw bad("size_bytes", "a whole number ≥ 1") }
            var values: [Double?] = []
            for metric in CalibrationMetric.allCases {
                guard index[metric.rawValue] != nil, !field(metric.rawValue).isEmpty else {
                    values.append(nil)
                    continue
                }
                guard let v = DecimalText.parse(field(metric.rawValue)),
                    MeasuredTable.plausible(v, loss: metric == .loss)
                else {
                    throw bad(metric.rawValue, metric == .loss ? "a percentage in 0...100" : MeasuredTable.magnitudes)
                }
                values.append(v)
            }
            guard values.contains(where: { $0 != nil }) else {
                throw fail(line, "no measured value; fill at least one of \(metricNames.joined(separator: ", "))")
            }
            rows.append(
                MeasuredRow(
                    line: line, place: place, transport: transport, distance: distance, packets: packets, size: size,
                    values: values))
        }
        guard !rows.isEmpty else { throw fail(1, "the table has a header but no rows") }
        self.rows = rows
    }
}

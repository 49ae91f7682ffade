import Foundation

// Calibration layer: fitting a scenario's parameters to a user's field measurements.
//
// This folder owns `adhocsim calibrate`: the table of measured thesis metrics a user brings
// (`MeasuredTable`), the objective that runs the scenario once per measured cell and compares
// the thesis metrics (`CalibrationProblem`), and the deterministic derivative-free search that
// minimises it (`NelderMead`). Like `Sweep/`, it drives the public scenario → run → metrics
// path and never reaches into the simulator; nothing below it knows it exists.

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

    /// The metric of a run's first flow.
    func value(of m: FlowMetrics) -> Double? {
        switch self {
        case .rttMean: return m.rttMean
        case .rttSd: return m.rttSd
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
    /// Writes (`flows[0].workload.packets`).
    public var packets: Int
    /// Bytes per write (`flows[0].workload.size`).
    public var size: Int
    /// Per `CalibrationMetric.allCases`: the measured value, `nil` where the cell is empty.
    public var values: [Double?]
}

/// The measured rows of one cell (place, protocol, distance, packets, size): the rounds of
/// the same test, averaged per metric.
public struct MeasuredCell: Sendable, Equatable {
    /// The cell's first row (its key fields).
    public var key: MeasuredRow
    /// Lines of its rows in the CSV file.
    public var lines: [Int]
    /// Per `CalibrationMetric.allCases`: the mean of the measured values, `nil` if none.
    public var means: [Double?]
    /// Per `CalibrationMetric.allCases`: how many rows measured it.
    public var counts: [Int]

    /// A short name: `city udp 5 m, 1000 × 128 B`.
    public var label: String {
        "\(key.place.rawValue) \(key.transport.rawValue) \(key.distance) m, \(key.packets) × \(key.size) B"
    }

    /// Groups `rows` by cell, in the order cells first appear.
    public static func group(_ rows: [MeasuredRow]) -> [MeasuredCell] {
        var cells: [MeasuredCell] = []
        var sums: [[Double]] = []
        var index: [String: Int] = [:]  // lookup only; the order is the rows'
        for row in rows {
            let name = "\(row.place.rawValue)/\(row.transport.rawValue)/\(row.distance)/\(row.packets)/\(row.size)"
            let c: Int
            if let found = index[name] {
                c = found
            } else {
                c = cells.count
                index[name] = c
                let n = CalibrationMetric.allCases.count
                cells.append(
                    MeasuredCell(
                        key: row, lines: [], means: Array(repeating: nil, count: n),
                        counts: Array(repeating: 0, count: n)))
                sums.append(Array(repeating: 0, count: n))
            }
            cells[c].lines.append(row.line)
            for (k, v) in row.values.enumerated() {
                guard let v else { continue }
                sums[c][k] += v
                cells[c].counts[k] += 1
                cells[c].means[k] = sums[c][k] / Double(cells[c].counts[k])
            }
        }
        return cells
    }
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
/// least one of `rtt_mean_ms`, `rtt_sd_ms`, `data_rate_mbps`, `loss_pct`. An empty metric cell
/// was not measured; every row needs at least one metric. Rows may repeat a cell (rounds of the
/// same test): each row counts. Any other column is an error, so a misspelt metric is never
/// silently ignored.
public struct MeasuredTable: Sendable {
    /// The columns that say which cell a row measured.
    public static let keyColumns = ["place", "protocol", "distance_m", "packets", "size_bytes"]
    /// The file, as named in messages.
    public let file: String
    /// The rows, in file order.
    public let rows: [MeasuredRow]

    /// Parses `text` (the contents of `file`). - Throws: `CalibrationError` naming the line and
    /// column of the first problem.
    public init(text: String, file: String) throws {
        self.file = file
        let (records, closed) = CSVTable.records(text)
        func fail(_ line: Int, _ message: String) -> CalibrationError {
            CalibrationError(description: "\(file):\(line): error: \(message)")
        }
        guard closed else { throw fail(records.count, "the file ends inside a quoted field") }
        guard let header = records.first, !(header.count == 1 && header[0].isEmpty) else {
            throw fail(
                1, "empty table; the header needs \(MeasuredTable.keyColumns.joined(separator: ", ")) and a metric")
        }
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
            func field(_ name: String) -> String { record[index[name]!].trimmingCharacters(in: .whitespaces) }
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
                guard let d = Double(distance), d.isFinite, d > 0 else {
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
                let upper = metric == .loss ? 100.0 : Double.greatestFiniteMagnitude
                guard let v = Double(field(metric.rawValue)), v.isFinite, v >= 0, v <= upper else {
                    throw bad(metric.rawValue, metric == .loss ? "a percentage in 0...100" : "a number ≥ 0")
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

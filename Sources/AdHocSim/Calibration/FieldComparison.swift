import Foundation

/// `adhocsim compare SWEEP_DIR --measured CSV`: a sweep's simulated tests set against measured
/// ones, group by group, as a table and box plots a user can read ("a validation
/// report").
///
/// The measured table is grouped as calibration groups it (`MeasuredCell.group`: per-test field
/// data by medians over a place and protocol, or a place, protocol, size and count; a per-cell
/// table by cell means). A group's simulated values are the sweep's rows of the same place and
/// protocol at the group's distances, and for transfers the same packets and size; a probe
/// group takes every row of its distances (the probe phase runs before, and apart from, the
/// transfer). Both sides are aggregated alike (median or mean).
///
/// A group agrees when the simulated value lies within the bars the development set is
/// judged by: RTT and jitter within a factor 1.5, data rate within a factor 2, loss within
/// 10 percentage points. The RMS log error is over every RTT, jitter and rate comparison.
public struct FieldComparison: Sendable {
    /// One comparison: a group and a metric.
    public struct Row: Sendable {
        /// The group (`MeasuredCell.label`).
        public var group: String
        /// The group's place and protocol, for the charts.
        public var place: Place, transport: TransportProtocol
        /// Whether it is a probe group.
        public var probes: Bool
        /// The metric.
        public var metric: CalibrationMetric
        /// The measured values of the group's tests, and the simulated values of its runs.
        public var measuredValues: [Double], simulatedValues: [Double]
        /// The aggregated values (median or mean), `nil` when a side has none.
        public var measured: Double?, simulated: Double?

        /// The factor (or percentage points for loss) the bar allows.
        public var bar: Double { metric == .loss ? 10 : metric == .dataRate ? 2 : 1.5 }

        /// Whether the simulated value is within the bar.
        public var agrees: Bool {
            guard let m = measured, let s = simulated else { return false }
            if metric == .loss { return abs(s - m) <= bar }
            guard m > 0, s > 0 else { return m == s }
            return Swift.max(s / m, m / s) <= bar
        }
    }

    /// Why a comparison cannot be made.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The comparisons, group by group in the measured table's order, metrics in their order.
    public let rows: [Row]
    /// How the measured rows were aggregated.
    public let aggregation: MeasuredAggregation
    /// What the measured table skipped.
    public let notes: [String]

    /// `text` as Markdown that shows it as it is: the characters that can open markup mid-line
    /// (emphasis, code, links and images, tags and entities, headings, tables, strike-through)
    /// backslash-escaped, so a measured table's labels cannot add headings, links or raw HTML to
    /// the report.
    static func markdownText(_ text: String) -> String {
        var out = ""
        for ch in text {
            if "\\`*_[]#!|<>&~".contains(ch) { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    /// Compares the sweep rows of `cellsCSV` (the text of a sweep's `cells.csv`, named `file`)
    /// with `measured`. - Throws: `Failure` naming the column a sweep table lacks.
    public init(cellsCSV text: String, file: String, measured: MeasuredTable) throws {
        let (records, closed) = CSVTable.records(text)
        guard closed, let header = records.first else {
            throw Failure(description: "\(file): not a complete CSV table")
        }
        var index: [String: Int] = [:]
        for (c, name) in header.enumerated() where index[name] == nil { index[name] = c }
        for name in ["environment", "protocol", "distance_m", "packets", "size_bytes"] where index[name] == nil {
            throw Failure(description: "\(file): missing column \"\(name)\"; expected a sweep's cells.csv")
        }
        if let bad = records.indices.dropFirst().first(where: { records[$0].count != header.count }) {
            throw Failure(
                description:
                    "\(file): record \(bad + 1) has \(records[bad].count) field\(records[bad].count == 1 ? "" : "s"), "
                    + "the header \(header.count); expected a sweep's cells.csv, whole")
        }
        let body = records.dropFirst()
        func field(_ r: [String], _ name: String) -> String { index[name].map { r[$0] } ?? "" }
        aggregation = measured.aggregation
        notes = measured.notes
        var out: [Row] = []
        for cell in MeasuredCell.group(measured.rows, measured.aggregation) {
            let distances = cell.runs.compactMap { Double($0.distance) }
            let matching = body.filter { r in
                guard field(r, "environment") == cell.key.place.rawValue,
                    field(r, "protocol") == cell.key.transport.rawValue,
                    let d = DecimalText.parse(field(r, "distance_m")),
                    distances.contains(where: { abs($0 - d) < 0.005 })
                else { return false }
                if cell.key.packets == 0 { return true }
                return Int(field(r, "packets")) == cell.key.packets && Int(field(r, "size_bytes")) == cell.key.size
            }
            for (k, metric) in CalibrationMetric.allCases.enumerated() where cell.means[k] != nil {
                let measuredValues = cell.samples[k]
                let simulated = matching.compactMap { r -> Double? in
                    guard let v = DecimalText.parse(field(r, metric.rawValue)) else { return nil }
                    return v
                }
                let aggregated: Double? =
                    simulated.isEmpty
                    ? nil
                    : aggregation == .groupMedian
                        ? MeasuredCell.median(simulated) : simulated.reduce(0, +) / Double(simulated.count)
                out.append(
                    Row(
                        group: cell.label, place: cell.key.place, transport: cell.key.transport,
                        probes: cell.key.packets == 0, metric: metric, measuredValues: measuredValues,
                        simulatedValues: simulated, measured: cell.means[k], simulated: aggregated))
            }
        }
        rows = out
    }

    /// Per kind of metric: how many comparisons agree, of how many.
    public var tally: [(name: String, agree: Int, total: Int)] {
        let kinds: [(String, (CalibrationMetric) -> Bool)] = [
            ("probe RTT and jitter within 1.5×", { [.rttMean, .rttSd, .rttSdSample].contains($0) }),
            ("data rate within 2×", { $0 == .dataRate }),
            ("loss within 10 percentage points", { $0 == .loss })
        ]
        return kinds.compactMap { name, member in
            let rs = rows.filter { member($0.metric) }
            return rs.isEmpty ? nil : (name, rs.filter(\.agrees).count, rs.count)
        }
    }

    /// exp(RMS of ln(simulated / measured)) over the RTT, jitter and rate comparisons with both
    /// sides positive, or `nil` if there is none.
    public var rmsLogFactor: Double? {
        let logs = rows.filter { $0.metric != .loss }.compactMap { r -> Double? in
            guard let m = r.measured, let s = r.simulated, m > 0, s > 0 else { return nil }
            return log(s / m)
        }
        guard !logs.isEmpty else { return nil }
        return exp((logs.reduce(0) { $0 + $1 * $1 } / Double(logs.count)).squareRoot())
    }

    /// `compare.csv`: one line per comparison.
    public var table: CSVTable {
        var t = CSVTable(header: [
            "group", "metric", "measured_tests", "measured", "simulated_runs", "simulated", "ratio", "bar", "agrees"
        ])
        func f(_ v: Double?) -> String { v.map { NumberText.fixed($0, decimals: 3) } ?? "" }
        for r in rows {
            let ratio: Double? = {
                guard let m = r.measured, let s = r.simulated else { return nil }
                if r.metric == .loss { return s - m }
                return m > 0 ? s / m : nil
            }()
            t.append([
                r.group, r.metric.rawValue, "\(r.measuredValues.count)", f(r.measured), "\(r.simulatedValues.count)",
                f(r.simulated), f(ratio), r.metric == .loss ? "10 pp" : "\(NumberText.fixed(r.bar, decimals: 1))x",
                r.agrees ? "yes" : "no"
            ])
        }
        return t
    }

    /// `index.html`: the summary, one table per metric, then the charts.
    public func htmlPage(sweep: String, measuredFile: String) -> String {
        let agg = aggregation == .groupMedian ? "median" : "mean"
        var facts = ["sweep \(sweep) against \(measuredFile); \(agg)s per group"]
        facts += notes.map { "note: \($0)" }
        facts += tally.map { "\($0.name): \($0.agree) of \($0.total)" }
        if let f = rmsLogFactor { facts.append("RMS log error: ×\(NumberText.fixed(f, decimals: 2))") }
        func v(_ x: Double?) -> String { x.map { NumberText.fixed($0, decimals: 2) } ?? "—" }
        let tables: [ChartPage.Table] = CalibrationMetric.allCases.compactMap { metric in
            let rs = rows.filter { $0.metric == metric }
            guard !rs.isEmpty else { return nil }
            return ChartPage.Table(
                caption: metric.rawValue, header: ["group", "measured", "simulated", "within"],
                rows: rs.map { [$0.group, v($0.measured), v($0.simulated), $0.agrees ? "yes" : "no"] })
        }
        return ChartPage.html(
            title: "Simulated against measured", facts: facts, tables: tables,
            charts: chartList.map { ($0.file, $0.chart.title) }, chartsFirst: true)
    }

    /// `compare.md`: the summary and one table per metric, in Markdown.
    public func markdown(sweep: String, measuredFile: String) -> String {
        let agg = aggregation == .groupMedian ? "median" : "mean"
        var s = "# Simulated against measured\n\nSweep `\(sweep)` against `\(measuredFile)`; \(agg)s per group.\n\n"
        for note in notes { s += "- Note: \(FieldComparison.markdownText(note))\n" }
        if !notes.isEmpty { s += "\n" }
        for t in tally { s += "- \(t.name): **\(t.agree) of \(t.total)**\n" }
        if let f = rmsLogFactor { s += "- RMS log error: ×\(NumberText.fixed(f, decimals: 2))\n" }
        func v(_ x: Double?) -> String { x.map { NumberText.fixed($0, decimals: 1) } ?? "—" }
        for metric in CalibrationMetric.allCases {
            let rs = rows.filter { $0.metric == metric }
            guard !rs.isEmpty else { continue }
            s +=
                "\n## \(metric.rawValue)\n\n| group | tests | measured | runs | simulated | within |\n|---|---|---|---|---|---|\n"
            for r in rs {
                s +=
                    "| \(r.group) | \(r.measuredValues.count) | \(v(r.measured)) | \(r.simulatedValues.count) | \(v(r.simulated)) | \(r.agrees ? "yes" : "no") |\n"
            }
        }
        s += "\nCharts: " + charts.map { "`\($0.name)`" }.joined(separator: ", ") + "\n"
        return s
    }

    /// Box plots of the measured and simulated distributions: probe RTT, jitter, and per place
    /// the data rate and the loss. Each group is a pair in its protocol's colour, the measured
    /// box filled and the simulated one outlined, the agreement band (the bar around the
    /// measured aggregate) shaded behind the simulated box, and above the pair the ratio of
    /// the two aggregates (the difference in points for loss), marked when it is outside.
    public var charts: [ResultFile] { chartList.map { ResultFile(name: $0.file, contents: $0.chart.svg) } }

    /// The charts by file name, in display order (see `charts`).
    var chartList: [(file: String, chart: SvgChart)] {
        var out: [(file: String, chart: SvgChart)] = []
        func groups(_ rs: [Row], label: (Row) -> String) -> [SvgChart.BoxGroup] {
            rs.compactMap { r in
                guard !r.measuredValues.isEmpty || !r.simulatedValues.isEmpty else { return nil }
                let key = r.transport.rawValue
                var band: ClosedRange<Double>?
                var note: String?
                if let m = r.measured {
                    band = r.metric == .loss ? Swift.max(0, m - r.bar)...(m + r.bar) : (m / r.bar)...(m * r.bar)
                    if let sim = r.simulated {
                        let mark = r.agrees ? "" : " ✗"
                        note =
                            r.metric == .loss
                            ? "\(sim - m >= 0 ? "+" : "")\(NumberText.fixed(sim - m, decimals: 1)) pp\(mark)"
                            : m > 0 ? "×\(NumberText.fixed(sim / m, decimals: 2))\(mark)" : nil
                    }
                }
                return SvgChart.BoxGroup(
                    label: label(r),
                    boxes: [
                        SvgChart.Box(key: key, values: r.measuredValues, filled: true),
                        SvgChart.Box(key: key, values: r.simulatedValues, filled: false, band: band)
                    ], note: note)
            }
        }
        for (metric, name, unit) in [
            (CalibrationMetric.rttMean, "rtt", "mean probe RTT (ms, log scale)"),
            (.rttSdSample, "jitter", "sample SD of the probe RTTs (ms, log scale)"),
            (.rttSd, "jitter-population", "SD of the probe RTTs (ms, log scale)")
        ] {
            let rs = rows.filter { $0.metric == metric }
            guard !rs.isEmpty else { continue }
            let chart = SvgChart(
                title:
                    "\(unit.replacingOccurrences(of: ", log scale", with: "")): measured (filled) and simulated (outlined)",
                xLabel: "place", yLabel: unit,
                kind: .groupedBoxes(groups(rs) { $0.place.rawValue }, logY: true))
            out.append(("compare-\(name).svg", chart))
        }
        // Small multiples: the rate per place and protocol, the loss per place.
        for place in Place.allCases {
            for transport in TransportProtocol.allCases {
                let rs = rows.filter { $0.metric == .dataRate && $0.place == place && $0.transport == transport }
                guard !rs.isEmpty else { continue }
                let chart = SvgChart(
                    title: "\(place.rawValue), \(transport.rawValue.uppercased()): data rate, measured and simulated",
                    xLabel: "writes × bytes", yLabel: "data rate (Mbit/s, log scale)",
                    kind: .groupedBoxes(
                        groups(rs) {
                            $0.group.replacingOccurrences(of: "\(place.rawValue) \(transport.rawValue) ", with: "")
                        },
                        logY: true))
                out.append(("compare-rate-\(place.rawValue)-\(transport.rawValue).svg", chart))
            }
            let rs = rows.filter { $0.metric == .loss && $0.place == place }
            guard !rs.isEmpty else { continue }
            let chart = SvgChart(
                title: "\(place.rawValue): UDP loss, measured and simulated", xLabel: "writes × bytes",
                yLabel: "UDP loss (%)",
                kind: .groupedBoxes(
                    groups(rs) {
                        $0.group.replacingOccurrences(of: "\(place.rawValue) \($0.transport.rawValue) ", with: "")
                    },
                    logY: false))
            out.append(("compare-loss-\(place.rawValue).svg", chart))
        }
        return out
    }
}

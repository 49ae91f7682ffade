/// What a layer writes of what it measured: its result files, its lines of the run's text
/// summary, its columns and rows of a sweep's `cells.csv` and its charts of them.
/// `LayerReports` holds each layer's metrics and calls these in a plain line per layer.
protocol LayerResults {
    /// What the layer measured in one run.
    associatedtype Metrics: Sendable

    /// Its result files.
    static func files(_ metrics: Metrics, report: RunReport) -> [ResultFile]
    /// Its lines of the run's text summary.
    static func summaryText(_ metrics: Metrics, report: RunReport) -> String
    /// The columns it adds to a sweep's `cells.csv` after the flow summary's, for a sweep of
    /// `base` (none when `base` lacks the section).
    static func sweepColumns(_ base: Scenario) -> [String]
    /// Per flow row of a unit's `cells.csv`, its cells in those columns (blank unless given).
    static func sweepFlowCells(_ report: RunReport, base: Scenario, flowRows: Int) -> [[String]]
    /// Its own rows of a unit's `cells.csv`, as wide as `RunFiles.summaryColumns` + its columns.
    static func sweepRows(_ report: RunReport, base: Scenario) -> [[String]]
    /// The `cells.csv` columns its charts read, which `SweepPlots` checks are numbers.
    static var plottedColumns: [String] { get }
    /// Its charts of a sweep's `cells.csv` (none when the table lacks its columns).
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)]
}

extension LayerResults {
    static func sweepColumns(_ base: Scenario) -> [String] { [] }
    static func sweepFlowCells(_ report: RunReport, base: Scenario, flowRows: Int) -> [[String]] {
        Array(repeating: Array(repeating: "", count: sweepColumns(base).count), count: flowRows)
    }
    static func sweepRows(_ report: RunReport, base: Scenario) -> [[String]] { [] }
    static var plottedColumns: [String] { [] }
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)] { [] }

    /// Its part of a unit's `cells.csv`: its cells on the flow rows and its own rows.
    static func sweepPart(
        _ report: RunReport, base: Scenario, flowRows: Int
    ) -> (flowCells: [[String]], rows: [[String]]) {
        (sweepFlowCells(report, base: base, flowRows: flowRows), sweepRows(report, base: base))
    }
}

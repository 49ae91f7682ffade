/// What the optional layers measured in one run (`RegisteredLayers`), read through the accessor
/// each layer's folder declares (`report.mesh`, `report.ble`), and how they write it: their result
/// files, their lines of the text summary and their columns of a sweep's `cells.csv`, in
/// registration order. `Metrics/`, `Output/` and `Sweep/` call these hooks and name no layer.
public struct LayerReports: Sendable {
    /// Each registered layer's metrics, `nil` when it did not run.
    var measured: RegisteredLayers.Reports

    /// What the layers measured (`Layers.report`).
    init(measured: RegisteredLayers.Reports) { self.measured = measured }

    /// The metrics of layer `L`, if it ran.
    func metrics<L: SimulationLayer>(_ layer: L.Type) -> L.Metrics? { RegisteredLayers.metrics(measured, layer) }

    /// Every layer's result files.
    func files(_ report: RunReport) -> [ResultFile] { RegisteredLayers.files(measured, report: report) }

    /// Every layer's lines of the run's text summary, after the flows'.
    func summaryText(_ report: RunReport) -> String { RegisteredLayers.summaryText(measured, report: report) }

    /// The columns a sweep of `base` adds after the flow summary's: each layer's, in order (none
    /// for a layer `base` lacks).
    static func sweepColumns(_ base: Scenario) -> [String] { RegisteredLayers.sweepColumns(base).flatMap { $0 } }

    /// A unit's `cells.csv` rows: the flow summary's rows (`flowRows`) widened with each layer's
    /// cells, then each layer's own rows, blank in the other layers' columns.
    static func sweepRows(_ report: RunReport, base: Scenario, flowRows: [[String]]) -> [[String]] {
        let widths = RegisteredLayers.sweepColumns(base).map(\.count)
        let parts = RegisteredLayers.sweepParts(report, base: base, flowRows: flowRows.count)
        let flowWidth = RunFiles.summaryColumns.count
        var rows = flowRows.enumerated().map { k, row in row + parts.flatMap { $0.flowCells[k] } }
        for (i, part) in parts.enumerated() {
            let before = Array(repeating: "", count: widths[..<i].reduce(0, +))
            let after = Array(repeating: "", count: widths[(i + 1)...].reduce(0, +))
            rows += part.rows.map { Array($0[..<flowWidth]) + before + Array($0[flowWidth...]) + after }
        }
        return rows
    }

    /// The `cells.csv` columns the layers' charts read.
    static var plottedColumns: [String] { RegisteredLayers.plottedColumns }

    /// The layers' charts of a sweep's `cells.csv`, in registration order.
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)] { RegisteredLayers.sweepCharts(table) }
}

/// What the optional layers measured in one run, a plain optional field per layer
/// (`report.mesh`, `report.ble`), and how they write it: their result files, their lines of the
/// text summary and their columns of a sweep's `cells.csv`, in the layers' order. `Metrics/`,
/// `Output/` and `Sweep/` call these hooks.
public struct LayerReports: Sendable {
    /// The mesh's metrics, when the scenario had a mesh.
    public var mesh: MeshMetrics?
    /// The Bluetooth LE metrics, when the scenario had a `ble` section.
    public var ble: BleMetrics?

    /// Every layer's result files.
    func files(_ report: RunReport) -> [ResultFile] {
        (mesh.map { MeshNetwork.files($0, report: report) } ?? [])
            + (ble.map { BleNetwork.files($0, report: report) } ?? [])
    }

    /// Every layer's lines of the run's text summary, after the flows'.
    func summaryText(_ report: RunReport) -> String {
        (mesh.map { MeshNetwork.summaryText($0, report: report) } ?? "")
            + (ble.map { BleNetwork.summaryText($0, report: report) } ?? "")
    }

    /// Per layer, the columns a sweep of `base` adds after the flow summary's.
    private static func layerColumns(_ base: Scenario) -> [[String]] {
        [MeshNetwork.sweepColumns(base), BleNetwork.sweepColumns(base)]
    }

    /// The columns a sweep of `base` adds after the flow summary's: each layer's, in order (none
    /// for a layer `base` lacks).
    static func sweepColumns(_ base: Scenario) -> [String] { layerColumns(base).flatMap { $0 } }

    /// A unit's `cells.csv` rows: the flow summary's rows (`flowRows`) widened with each layer's
    /// cells, then each layer's own rows, blank in the other layers' columns.
    static func sweepRows(_ report: RunReport, base: Scenario, flowRows: [[String]]) -> [[String]] {
        let widths = layerColumns(base).map(\.count)
        let parts = [
            MeshNetwork.sweepPart(report, base: base, flowRows: flowRows.count),
            BleNetwork.sweepPart(report, base: base, flowRows: flowRows.count)
        ]
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
    static var plottedColumns: [String] { MeshNetwork.plottedColumns + BleNetwork.plottedColumns }

    /// The layers' charts of a sweep's `cells.csv`, in the layers' order.
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)] {
        MeshNetwork.sweepCharts(table) + BleNetwork.sweepCharts(table)
    }
}

extension RunReport {
    /// The mesh's metrics, when the scenario had a mesh.
    public var mesh: MeshMetrics? { layers.mesh }
    /// The Bluetooth LE metrics, when the scenario had a `ble` section.
    public var ble: BleMetrics? { layers.ble }
}

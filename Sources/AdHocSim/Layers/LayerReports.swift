/// What the optional layers measured in one run, and how each writes it: its result files, its
/// lines of the text summary and its columns of a sweep's `cells.csv`. `Metrics/`, `Output/`
/// and `Sweep/` call these hooks and name no layer; a new layer adds a field and a line per
/// hook here (issue #28).
public struct LayerReports: Sendable {
    /// The mesh's metrics, when the scenario had a mesh.
    public var mesh: MeshMetrics?
    /// The Bluetooth LE metrics, when the scenario had a `ble` section.
    public var ble: BleMetrics?

    /// No layer measured anything.
    public init(mesh: MeshMetrics? = nil, ble: BleMetrics? = nil) {
        self.mesh = mesh
        self.ble = ble
    }

    /// Every layer's result files, the mesh's first.
    func files(_ report: RunReport) -> [ResultFile] {
        (mesh.map { MeshFiles.files($0, report: report) } ?? []) + (ble.map { BleFiles.files($0, report: report) } ?? [])
    }

    /// Every layer's lines of the run's text summary, after the flows'.
    func summaryText(_ report: RunReport) -> String {
        (mesh.map { MeshFiles.summaryText($0, report) } ?? "") + (ble.map { BleFiles.summaryText($0, report) } ?? "")
    }

    /// The columns a sweep of `base` adds after the flow summary's: Bluetooth LE's when it has a
    /// `ble` section, else the mesh's when it has a mesh.
    static func sweepColumns(_ base: Scenario) -> [String] {
        if base.ble != nil { return BleFiles.sweepColumns }
        if base.mesh != nil { return MeshFiles.layerColumns(base) }
        return []
    }

    /// A unit's `cells.csv` rows: the flow summary's rows (`flowRows`) widened with the layer
    /// columns of `sweepColumns(base)`, then the layer's own rows.
    static func sweepRows(_ report: RunReport, base: Scenario, flowRows: [[String]]) -> [[String]] {
        if base.ble != nil {
            return flowRows.map { $0 + Array(repeating: "", count: BleFiles.sweepColumns.count) } + BleFiles.sweepRows(report)
        }
        if base.mesh != nil { return MeshFiles.layerRows(report, base: base, flowRows: flowRows) }
        return flowRows
    }
}

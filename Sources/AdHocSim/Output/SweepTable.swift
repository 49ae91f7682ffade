/// A sweep's `cells.csv` as the charts read it (`SweepPlots`, and the layers' own charts):
/// the header, the rows that ran ("ok"), the places present in the study's order, and the
/// place and protocol columns.
struct SweepTable {
    /// The column names.
    let header: [String]
    /// The rows of cells that ran, each as wide as the header.
    let data: [[String]]
    /// The places present, in the study's order (underground, city, field, forest).
    let places: [String]
    /// The `environment` column.
    let place: Int
    /// The `protocol` column.
    let proto: Int

    /// The index of column `name`, if the table has it.
    func col(_ name: String) -> Int? { header.firstIndex(of: name) }

    /// Only finite numbers are plotted: `inf`, `nan` or junk in a cell file is skipped.
    static func number(_ s: String) -> Double? { Double(s).flatMap { $0.isFinite ? $0 : nil } }

    /// The numbers of column `c` over `rows`, skipping what `number` refuses.
    static func values(_ rows: [[String]], _ c: Int) -> [Double] { rows.compactMap { number($0[c]) } }

    /// The mean of `v`, `nil` when empty.
    static func mean(_ v: [Double]) -> Double? { v.isEmpty ? nil : v.reduce(0, +) / Double(v.count) }
}

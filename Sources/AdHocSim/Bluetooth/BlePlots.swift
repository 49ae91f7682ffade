/// Bluetooth LE's charts of a sweep (`SweepPlots`): discovery latency against the advertising
/// interval, and by place.
extension BleNetwork {
    /// The `cells.csv` columns these charts read (checked as numbers before plotting).
    static var plottedColumns: [String] { ["ble_discovery_s", "ble_interval_ms", "ble_window_ms"] }

    /// The charts a sweep's `cells.csv` gives of Bluetooth LE (`SweepPlots`), from its columns.
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)] {
        let (data, places, place) = (table.data, table.places, table.place)
        let (col, number, values, mean) = (table.col, SweepTable.number, SweepTable.values, SweepTable.mean)
        var charts: [(file: String, chart: SvgChart)] = []
        if let discovery = col("ble_discovery_s"), let interval = col("ble_interval_ms"),
            let window = col("ble_window_ms")
        {
            // Discovery latency against the advertising interval, one line per scan window (mean
            // over places and runs; a pair never discovered is left out and counted below).
            let windows = Array(Set(data.compactMap { number($0[window]) })).sorted()
            let series: [SvgChart.Series] = windows.map { w in
                let mine = data.filter { number($0[window]) == w }
                let xs = Array(Set(mine.compactMap { number($0[interval]) })).sorted()
                return SvgChart.Series(
                    name: "window \(NumberText.fixed(w, decimals: w.rounded() == w ? 0 : 3)) ms",
                    points: xs.compactMap { x in
                        mean(values(mine.filter { number($0[interval]) == x }, discovery)).map { (x, $0) }
                    })
            }
            charts.append(
                (
                    "ble-discovery-vs-interval.svg",
                    SvgChart(
                        title: "BLE discovery latency against the advertising interval (mean over places and runs)",
                        xLabel: "advertising interval (ms, log scale)", yLabel: "discovery latency (s)",
                        kind: .lines(series, logX: true))
                ))
            let boxes = places.map { p in (p, values(data.filter { $0[place] == p }, discovery)) }
            charts.append(
                (
                    "ble-discovery-by-place.svg",
                    SvgChart(
                        title: "BLE discovery latency by place (every interval and window)", xLabel: "place",
                        yLabel: "discovery latency (s, log scale)", kind: .boxes(boxes, logY: true))
                ))
        }
        return charts
    }
}

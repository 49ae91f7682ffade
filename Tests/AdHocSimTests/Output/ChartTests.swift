import Foundation
import Testing

@testable import AdHocSim

@Suite("Charts")
struct ChartTests {
    /// Tick labels show the first significant digit on log axes that reach below 0.01.
    @Test func smallTickLabelsKeepTheirDigit() {
        expectEqual(SvgChart.label(0.001), "0.001")
        expectEqual(SvgChart.label(0.0001), "0.0001")
        expectEqual(SvgChart.label(0.002), "0.002")
        expectEqual(SvgChart.label(0.1), "0.10")
        expectEqual(SvgChart.label(10), "10")
        expectEqual(SvgChart.label(1e-12), "1e-12")
    }

    /// A BLE sweep's cells.csv gets the discovery charts: one line per scan window with the
    /// mean latency per advertising interval (here 0.2 and 0.4 s at 100 ms: mean 0.3 s).
    @Test func bleSweepsGetDiscoveryCharts() throws {
        let header = ["cell_id", "repeat"] + RunFiles.summaryColumns + BleFiles.sweepColumns
        func row(_ place: String, _ interval: String, _ window: String, _ latency: String) -> String {
            var r = Array(repeating: "", count: header.count)
            func set(_ c: String, _ v: String) { r[header.firstIndex(of: c)!] = v }
            set("cell_id", "x")
            set("repeat", "0")
            set("environment", place)
            set("protocol", "ADV_IND")
            set("status", "ok")
            set("ble_interval_ms", interval)
            set("ble_window_ms", window)
            set("ble_discovery_s", latency)
            return r.joined(separator: ",")
        }
        let csv =
            ([header.joined(separator: ",")]
            + [row("field", "100", "30", "0.2"), row("city", "100", "30", "0.4"), row("field", "1000", "30", "2")])
            .joined(separator: "\n") + "\n"
        let charts = try SweepPlots.charts(cellsCSV: csv)
        expectEqual(charts.map(\.file), ["ble-discovery-vs-interval.svg", "ble-discovery-by-place.svg"])
        guard case .lines(let series, _) = charts[0].chart.kind else {
            Issue.record("not a line chart")
            return
        }
        expectEqual(series.count, 1)
        expectEqual(series[0].points.map(\.x), [100, 1000])
        expect(close(series[0].points[0].y, 0.3, 1e-12))
    }
}

import Foundation
import Testing

@testable import AdHocSim

/// The charts read as data: colour is the protocol's (the same three colours everywhere), every
/// chart of boxes has a legend naming what its colours mean, one box per place and protocol,
/// and a comparison pairs each group's measured and simulated boxes with their ratio above.
struct ChartGrammarTests {
    /// The values of attribute `name` on the elements of `svg` whose class is `cls`, in order.
    static func attribute(_ name: String, of cls: String, in svg: String) -> [String] {
        svg.components(separatedBy: "class=\"\(cls)\"").dropFirst().compactMap { rest in
            guard let r = rest.prefix(400).range(of: " \(name)=\"") else { return nil }
            return String(rest[r.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// A sweep's cells.csv by hand: two places × three protocols, two runs each, RTTs of
    /// 10 + place index + protocol index ms and the same plus 2.
    static let cells: String = {
        let header = ["cell_id", "repeat"] + RunFiles.summaryColumns
        var lines = [header.joined(separator: ",")]
        for (i, place) in ["city", "field"].enumerated() {
            for (j, proto) in ["tcp", "udp", "quic"].enumerated() {
                for extra in [0.0, 2.0] {
                    var r = Array(repeating: "", count: header.count)
                    func set(_ c: String, _ v: String) { if let k = header.firstIndex(of: c) { r[k] = v } }
                    set("cell_id", "\(place)-\(proto)")
                    set("repeat", extra == 0 ? "0" : "1")
                    set("environment", place)
                    set("protocol", proto)
                    set("status", "ok")
                    set("rtt_mean_ms", NumberText.fixed(10 + Double(i) + Double(j) + extra, decimals: 1))
                    set("rtt_sd_ms", "1")
                    set("data_rate_mbps", "5")
                    set("goodput_mbps", "4")
                    set("distance_m", "10")
                    set("loss_pct", "0")
                    set("packets", "100")
                    set("size_bytes", "4096")
                    lines.append(r.joined(separator: ","))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func sweepBoxesAreColouredByProtocolWithALegend() throws {
        let charts = try SweepPlots.charts(cellsCSV: Self.cells)
        let rtt = try require(charts.first { $0.file == "rtt-by-place-and-protocol.svg" }).chart.svg
        // One box per place and protocol, in TCP, UDP, QUIC order within each place.
        expectEqual(Self.attribute("data-key", of: "box", in: rtt), ["tcp", "udp", "quic", "tcp", "udp", "quic"])
        expectEqual(
            Self.attribute("data-color", of: "box", in: rtt),
            ["#0072B2", "#E69F00", "#009E73", "#0072B2", "#E69F00", "#009E73"])
        expectEqual(Self.attribute("data-key", of: "legend", in: rtt), ["tcp", "udp", "quic"])
        expect(rtt.contains(">TCP</text>") && rtt.contains(">UDP</text>") && rtt.contains(">QUIC</text>"))
        // The medians by hand: city TCP runs 10 and 12 ms → 11; field QUIC 13 and 15 → 14.
        let medians = Self.attribute("data-median", of: "box", in: rtt)
        expectEqual(medians.first, "11.000")
        expectEqual(medians.last, "14.000")
        // The rate is drawn per place, each line in its protocol's colour.
        expectEqual(
            charts.map(\.file).filter { $0.hasPrefix("data-rate-vs-distance") },
            ["data-rate-vs-distance-city.svg", "data-rate-vs-distance-field.svg"])
        let rate = try require(charts.first { $0.file == "data-rate-vs-distance-city.svg" }).chart.svg
        expectEqual(Self.attribute("data-series", of: "series", in: rate), ["TCP", "UDP", "QUIC"])
        expect(rate.contains("stroke=\"#E69F00\""))
    }

    @Test func theIndexPageSaysWhatTheSweepIs() {
        let (facts, tables) = SweepPlots.summary(cellsCSV: Self.cells)
        expectEqual(facts.first, "12 rows (12 ok) of 6 cells")
        let rtt = tables.first { $0.caption.hasPrefix("RTT") }
        expectEqual(rtt?.header, ["place", "TCP", "UDP", "QUIC"])
        // city: TCP 11, UDP 12, QUIC 13 ms (medians of 10/12, 11/13, 12/14).
        expectEqual(rtt?.rows.first, ["city", "11.00", "12.00", "13.00"])
        let html = ChartPage.html(title: "s<x>", facts: facts, tables: tables, charts: [("a.svg", "A & B")])
        expect(html.contains("<h1>s&lt;x&gt;</h1>") && html.contains("alt=\"A &amp; B\""))
    }

    @Test func aComparisonPairsMeasuredAndSimulated() throws {
        // Measured city TCP: RTT 20 ms in each test; simulated: the mean of 10 and 12 ms, 11 (the cells above).
        let measured = try MeasuredTable(
            text:
                "place,protocol,distance_m,packets,size_bytes,rtt_mean_ms\ncity,tcp,10,100,4096,20\ncity,tcp,10,100,4096,20\n",
            file: "m.csv")
        let comparison = try FieldComparison(cellsCSV: Self.cells, file: "cells.csv", measured: measured)
        let chart = try require(comparison.charts.first { $0.name == "compare-rtt.svg" }).contents
        expectEqual(Self.attribute("data-key", of: "box", in: chart), ["tcp", "tcp"])
        expectEqual(Self.attribute("data-filled", of: "box", in: chart), ["true", "false"])
        expectEqual(Self.attribute("data-color", of: "box", in: chart), ["#0072B2", "#0072B2"])
        // The ratio of the aggregates, 11 / 20 = 0.55, outside the 1.5× bar (so marked), and
        // the band 20 / 1.5 … 20 × 1.5 drawn behind the simulated box.
        expect(chart.contains(">×0.55 ✗</text>"), "\(chart.prefix(3000))")
        expectEqual(Self.attribute("data-kind", of: "legend", in: chart), ["measured", "simulated", "band"])
    }
}

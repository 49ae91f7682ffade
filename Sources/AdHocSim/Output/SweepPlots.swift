import Foundation

/// The charts of a sweep (`adhocsim plot DIR`), from its `cells.csv`: box plots of RTT and
/// jitter per place, one box per protocol in its colour; data rate and goodput against
/// distance, one chart per place; UDP loss against the number of writes, one chart per write
/// size; the maximum range per place; and an `index.html` with the sweep's matrix, the medians
/// per place and protocol, and the charts.
public enum SweepPlots {
    /// Parses RFC 4180 CSV text into rows of fields (`CSVTable.records`).
    public static func parseCSV(_ text: String) -> [[String]] { CSVTable.records(text).rows }

    /// Why plotting failed.
    public struct PlotError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The numeric columns the charts read.
    static let plottedColumns =
        (["data_rate_mbps", "distance_m", "goodput_mbps", "loss_pct", "packets", "rtt_mean_ms", "rtt_sd_ms"]
        + LayerReports.plottedColumns).sorted()
    /// The largest magnitude plotted: 10¹⁵ (assumption: far above any figure a run gives, far
    /// below where a sum of a few values overflows).
    static let largestPlotted = 1e15

    /// The charts, by file name, in display order.
    public static func charts(cellsCSV text: String) throws -> [(file: String, chart: SvgChart)] {
        let rows = parseCSV(text)
        guard let header = rows.first else { throw PlotError(description: "cells.csv is empty") }
        func col(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let place = col("environment"), let proto = col("protocol"), let status = col("status"),
            let rtt = col("rtt_mean_ms"), let sd = col("rtt_sd_ms"), let rate = col("data_rate_mbps"),
            let goodput = col("goodput_mbps"), let dist = col("distance_m"), let loss = col("loss_pct"),
            let packets = col("packets")
        else {
            throw PlotError(
                description: "cells.csv lacks the summary columns (environment, protocol, rtt_mean_ms, ...)")
        }
        let paramDistance = col("param.distance_m")
        let data = rows.dropFirst().filter { $0.count == header.count && $0[status] == "ok" }
        // Every value a chart may draw is a plain decimal in ±10¹⁵ or empty (a failed figure):
        // a tampered `1e308`, `inf` or junk is refused, naming where it is, instead of drawing
        // a point at -inf.
        let plotted = Self.plottedColumns.compactMap { name in col(name).map { (name, $0) } }
        for (line, row) in rows.enumerated().dropFirst() where row.count == header.count {
            for (name, c) in plotted where !row[c].isEmpty {
                guard let v = DecimalText.parse(row[c]), abs(v) <= Self.largestPlotted else {
                    throw PlotError(
                        description: "cells.csv line \(line + 1), column \(name): \"\(Diagnostic.excerpt(row[c]))\" "
                            + "is not a decimal number within ±1e15")
                }
            }
        }
        let places = ["underground", "city", "field", "forest"].filter { p in data.contains { $0[place] == p } }
        let protocols = ["tcp", "udp", "quic"].filter { p in data.contains { $0[proto] == p } }
        let (number, values, mean) = (SweepTable.number, SweepTable.values, SweepTable.mean)

        var charts: [(String, SvgChart)] = []
        // The registered layers' charts (the mesh's, Bluetooth LE's), in registration order.
        let table = SweepTable(header: header, data: data, places: places, place: place, proto: proto)
        charts += LayerReports.sweepCharts(table)
        if protocols.isEmpty { return charts }
        let boxCharts: [(file: String, title: String, yLabel: String, column: Int)] = [
            (
                "rtt-by-place-and-protocol.svg", "Probe RTT (mean per cell) by place and protocol",
                "RTT mean per cell (ms, log scale)", rtt
            ),
            (
                "jitter-by-place-and-protocol.svg", "Jitter (SD of probe RTTs, thesis definition)",
                "jitter (ms, log scale)", sd
            )
        ]
        for b in boxCharts {
            let groups = places.map { p in
                SvgChart.BoxGroup(
                    label: p,
                    boxes: protocols.map { q in
                        SvgChart.Box(key: q, values: values(data.filter { $0[place] == p && $0[proto] == q }, b.column))
                    })
            }
            charts.append(
                (
                    b.file,
                    SvgChart(title: b.title, xLabel: "place", yLabel: b.yLabel, kind: .groupedBoxes(groups, logY: true))
                ))
        }
        // A line per protocol (its colour) and write size (its dash), when the sweep varies sizes.
        let sizeColumn = col("size_bytes")
        let sizes: [Double] = sizeColumn.map { c in Array(Set(data.compactMap { number($0[c]) })).sorted() } ?? []
        func versusDistance(_ c: Int, in p: String) -> [SvgChart.Series] {
            guard sizes.count > 1, let sc = sizeColumn else { return versusDistance(c, in: p, size: nil) }
            return protocols.flatMap { q in
                sizes.enumerated().map { k, size in
                    var series = versusDistance(c, in: p, size: (sc, size), only: q)[0]
                    series.name = "\(q.uppercased()) \(NumberText.fixed(size, decimals: 0)) B"
                    series.colorKey = q
                    series.dash = k
                    return series
                }
            }
        }
        func versusDistance(
            _ c: Int, in p: String, size: (column: Int, bytes: Double)?, only: String? = nil
        ) -> [SvgChart.Series] {
            protocols.filter { only == nil || $0 == only }.map { q in
                let mine = data.filter { row in
                    row[proto] == q && row[place] == p && (size.map { s in number(row[s.column]) == s.bytes } ?? true)
                }
                func key(_ row: [String]) -> String { paramDistance.map { row[$0] } ?? row[dist] }
                let keys = Array(Set(mine.map(key))).sorted()
                let pts: [(x: Double, y: Double)] = keys.compactMap { k in
                    let at = mine.filter { key($0) == k }
                    guard let x = mean(values(at, dist)), let y = mean(values(at, c)) else { return nil }
                    return (x, y)
                }
                return SvgChart.Series(name: q.uppercased(), points: pts)
            }
        }
        // One chart per place: an average over places would hide what the place does.
        for (file, what, unit, column) in [
            ("data-rate-vs-distance", "Data rate", "data rate (Mbit/s)", rate),
            ("goodput-vs-distance", "Goodput", "goodput (Mbit/s)", goodput)
        ] {
            for p in places {
                charts.append(
                    (
                        "\(file)-\(p).svg",
                        SvgChart(
                            title: "\(p): \(what.lowercased()) against distance (mean over counts)",
                            xLabel: "distance (m)", yLabel: unit,
                            kind: .lines(versusDistance(column, in: p), logX: false))
                    ))
            }
        }
        if let hops = col("mesh_flow_hops") {
            // Flows across the mesh: goodput and RTT against the hops their route had.
            func versusHops(_ c: Int) -> [SvgChart.Series] {
                protocols.map { q in
                    let mine = data.filter { $0[proto] == q && number($0[hops]).map { $0 > 0 } == true }
                    let keys = Array(Set(mine.compactMap { number($0[hops]) })).sorted()
                    let pts: [(x: Double, y: Double)] = keys.compactMap { k in
                        mean(values(mine.filter { number($0[hops]) == k }, c)).map { (k, $0) }
                    }
                    return SvgChart.Series(name: q.uppercased(), points: pts)
                }
            }
            let hopCharts = [
                ("goodput-vs-hops.svg", "Goodput", "goodput (Mbit/s)", goodput),
                ("rtt-vs-hops.svg", "RTT", "RTT mean (ms)", rtt)
            ]
            for (file, what, yLabel, column) in hopCharts {
                let title = "\(what) across the mesh against route hops (mean over runs)"
                charts.append(
                    (
                        file,
                        SvgChart(
                            title: title, xLabel: "hops", yLabel: yLabel, kind: .lines(versusHops(column), logX: false))
                    ))
            }
        }
        // UDP loss against the writes, one chart per write size, a line per place.
        let udp = data.filter { $0[proto] == "udp" }
        let udpSizes: [Double?] = sizeColumn.map { c in Array(Set(udp.compactMap { number($0[c]) })).sorted() } ?? [nil]
        for size in udpSizes where !udp.isEmpty {
            let ofSize = udp.filter { r in size.map { s in sizeColumn.map { number(r[$0]) == s } ?? true } ?? true }
            let lossSeries: [SvgChart.Series] = places.map { p in
                let mine = ofSize.filter { $0[place] == p }
                let keys = Array(Set(mine.compactMap { number($0[packets]) })).sorted()
                return SvgChart.Series(
                    name: p,
                    points: keys.compactMap { k in
                        mean(values(mine.filter { number($0[packets]) == k }, loss)).map { (k, $0) }
                    })
            }
            let bytes = size.map { NumberText.fixed($0, decimals: 0) }
            charts.append(
                (
                    bytes.map { "udp-loss-vs-packets-\($0)B.svg" } ?? "udp-loss-vs-packets.svg",
                    SvgChart(
                        title: "UDP loss against the number of writes" + (bytes.map { " of \($0) bytes" } ?? ""),
                        xLabel: "writes per test (log scale)", yLabel: "datagrams lost (%)",
                        kind: .lines(lossSeries, logX: true))
                ))
        }
        if let pd = paramDistance {
            let bars: [(label: String, value: Double)] = places.compactMap { p in
                mean(
                    values(
                        rows.dropFirst().filter { $0.count == header.count && $0[pd] == "max" && $0[place] == p }, dist)
                ).map { (p, $0) }
            }
            if !bars.isEmpty {
                charts.append(
                    (
                        "range-per-place.svg",
                        SvgChart(
                            title: "Maximum range per place (1024-byte frame, lowest MCS, 50 %)", xLabel: "place",
                            yLabel: "range (m)", kind: .bars(bars))
                    ))
            }
        }
        return charts
    }

    /// What the index page says before the charts: the matrix (each `param.` column and its
    /// values) and the runs, and a table per metric of the medians per place and protocol over
    /// the runs that ended ok.
    static func summary(cellsCSV text: String) -> (facts: [String], tables: [ChartPage.Table]) {
        let rows = parseCSV(text)
        guard let header = rows.first, let place = header.firstIndex(of: "environment"),
            let proto = header.firstIndex(of: "protocol"), let status = header.firstIndex(of: "status")
        else { return ([], []) }
        let body = rows.dropFirst().filter { $0.count == header.count }
        let ok = body.filter { $0[status] == "ok" }
        var facts = ["\(body.count) rows (\(ok.count) ok) of \(Set(body.map { $0[0] }).count) cells"]
        for (c, name) in header.enumerated() where name.hasPrefix("param.") {
            var seen: [String] = []
            for r in body where !seen.contains(r[c]) { seen.append(r[c]) }
            let shown = seen.prefix(12).joined(separator: ", ") + (seen.count > 12 ? ", … (\(seen.count))" : "")
            facts.append("\(name.dropFirst(6)): \(shown)")
        }
        let places = ["underground", "city", "field", "forest"].filter { p in ok.contains { $0[place] == p } }
        let protocols = ["tcp", "udp", "quic"].filter { p in ok.contains { $0[proto] == p } }
        var tables: [ChartPage.Table] = []
        for (column, caption) in [
            ("rtt_mean_ms", "RTT, median of the runs (ms)"), ("rtt_sd_ms", "jitter, median of the runs (ms)"),
            ("data_rate_mbps", "data rate, median of the runs (Mbit/s)"), ("loss_pct", "UDP loss, mean of the runs (%)")
        ] {
            let shown = column == "loss_pct" ? protocols.filter { $0 == "udp" } : protocols
            guard let c = header.firstIndex(of: column), !shown.isEmpty else { continue }
            let tableRows: [[String]] = places.map { p in
                [p]
                    + shown.map { q in
                        let v = SweepTable.values(ok.filter { $0[place] == p && $0[proto] == q }, c)
                        guard !v.isEmpty else { return "—" }
                        let figure = column == "loss_pct" ? v.reduce(0, +) / Double(v.count) : SampleMedian.of(v)
                        return NumberText.fixed(figure, decimals: 2)
                    }
            }
            tables.append(
                ChartPage.Table(caption: caption, header: ["place"] + shown.map { $0.uppercased() }, rows: tableRows))
        }
        return (facts, tables)
    }

    /// Writes `plots/*.svg` and `plots/index.html` under `dir`.
    public static func write(dir: URL) throws -> [String] {
        let text: String
        switch OutputFolder.readText(dir.appendingPathComponent("cells.csv")) {
        case .success(let t): text = t
        case .failure(let f) where f.message == OutputFolder.missingMessage:
            throw PlotError(description: "\(Diagnostic.escaped(dir.path)): no cells.csv (run adhocsim sweep first)")
        case .failure(let f):
            throw PlotError(description: "\(Diagnostic.escaped(dir.path))/cells.csv: \(f.message)")
        }
        let list = try charts(cellsCSV: text)
        var files = list.map { ResultFile(name: $0.file, contents: $0.chart.svg) }
        let (facts, tables) = summary(cellsCSV: text)
        let html = ChartPage.html(
            title: dir.lastPathComponent, facts: facts, tables: tables, charts: list.map { ($0.file, $0.chart.title) })
        files.append(ResultFile(name: "index.html", contents: html))
        try ResultDirectory.commit(files, to: dir.appendingPathComponent("plots"), owner: .chartFolder)
        return list.map(\.file)
    }
}

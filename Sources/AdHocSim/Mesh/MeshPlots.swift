/// The mesh's charts of a sweep (`SweepPlots`): delivery, latency and control traffic by place
/// and routing, and saturation against the number of phones.
extension MeshNetwork {
    /// The `cells.csv` columns these charts read (checked as numbers before plotting).
    static var plottedColumns: [String] {
        [
            "link_failed_per_frame", "link_queue_refusals", "link_received_per_frame", "mesh_control_bytes_per_node_per_s",
            "mesh_delivery_ratio", "mesh_flow_hops", "mesh_latency_mean_ms", "mesh_nodes", "mesh_pairs", "mesh_pairs_routed",
        ]
    }

    /// The charts a sweep's `cells.csv` gives of a mesh (`SweepPlots`), from its columns.
    static func sweepCharts(_ table: SweepTable) -> [(file: String, chart: SvgChart)] {
        let (data, places, place, proto) = (table.data, table.places, table.place, table.proto)
        let (col, number, values, mean) = (table.col, SweepTable.number, SweepTable.values, SweepTable.mean)
        var charts: [(file: String, chart: SvgChart)] = []
        if let delivery = col("mesh_delivery_ratio"), let latency = col("mesh_latency_mean_ms"),
            let control = col("mesh_control_bytes_per_node_per_s")
        {
            let routings = ["dsr-heartbeat", "dsr"].filter { r in data.contains { $0[proto] == r } }
            var meshGroups: [(label: String, rows: [[String]])] = []
            for p in places {
                for r in routings { meshGroups.append(("\(p)/\(r)", data.filter { $0[place] == p && $0[proto] == r })) }
            }
            let meshCharts: [(file: String, title: String, yLabel: String, column: Int, logY: Bool)] = [
                (
                    "mesh-delivery-by-place-and-routing.svg",
                    "Mesh message delivery ratio (per workload and run) by place and routing", "delivered / created",
                    delivery, false
                ),
                (
                    "mesh-latency-by-place-and-routing.svg",
                    "Mesh message latency (mean per workload and run) by place and routing", "latency (ms, log scale)",
                    latency, true
                ),
                (
                    "mesh-control-by-place-and-routing.svg", "Routing control traffic per node by place and routing",
                    "bytes per node per second (log scale)", control, true
                )
            ]
            for m in meshCharts {
                let groups = meshGroups.map { ($0.label, values($0.rows, m.column)) }
                charts.append(
                    (
                        m.file,
                        SvgChart(
                            title: m.title, xLabel: "place / routing", yLabel: m.yLabel,
                            kind: .boxes(groups, logY: m.logY))
                    ))
            }
        }
        if let count = col("mesh_nodes"), let decoded = col("link_received_per_frame"),
            let failed = col("link_failed_per_frame"), let refusals = col("link_queue_refusals"),
            let delivery = col("mesh_delivery_ratio"), let routed = col("mesh_pairs_routed"),
            let pairs = col("mesh_pairs"),
            Set(data.compactMap { number($0[count]) }).count > 1
        {
            // Saturation against the number of phones: one point per phone count, the mean over
            // its runs (a run's network columns repeat on each of its workload rows).
            let ns = Array(Set(data.compactMap { number($0[count]) })).sorted()
            func series(_ name: String, _ y: @escaping ([String]) -> Double?) -> SvgChart.Series {
                SvgChart.Series(
                    name: name,
                    points: ns.compactMap { n in
                        mean(data.filter { number($0[count]) == n }.compactMap(y)).map { (n, $0) }
                    })
            }
            let lines: [(file: String, title: String, yLabel: String, series: [SvgChart.Series])] = [
                (
                    "mesh-saturation-receptions.svg", "Receptions per frame sent against the number of phones",
                    "receptions per frame (mean over runs)",
                    [
                        series("decoded") { number($0[decoded]) },
                        series("failed after lock-on") { number($0[failed]) }
                    ]
                ),
                (
                    "mesh-saturation-delivery.svg", "Routes and message delivery against the number of phones",
                    "share (mean over runs)",
                    [
                        series("pairs with a route") { r in
                            guard let a = number(r[routed]), let b = number(r[pairs]), b > 0 else { return nil }
                            return a / b
                        },
                        series("messages delivered") { number($0[delivery]) }
                    ]
                ),
                (
                    "mesh-saturation-refusals.svg",
                    "Frames refused by full transmit queues against the number of phones",
                    "refusals per phone (mean over runs)",
                    [
                        series("queue refusals per phone") { r in
                            guard let a = number(r[refusals]), let n = number(r[count]), n > 0 else { return nil }
                            return a / n
                        }
                    ]
                )
            ]
            for l in lines {
                charts.append(
                    (
                        l.file,
                        SvgChart(
                            title: l.title, xLabel: "phones (log scale)", yLabel: l.yLabel,
                            kind: .lines(l.series, logX: true))
                    ))
            }
        }
        return charts
    }
}

/// The mesh's result files (written when the scenario has a `mesh` section):
///
/// - `mesh_nodes.csv`: per node, session peers at the end and what it sent (heartbeats and
///   message frames, originated and forwarded, with bytes), the messages it relayed and the
///   path-broadcast copies it dropped, not being next on their path;
/// - `routes.csv`: every live route at the end;
/// - `route_establishment.csv`: per ordered pair that ever held a route, when it first did;
/// - `mesh_messages.csv`: per message workload, delivery, latency, hops, confirmation RTT,
///   attempts and route establishment (definitions in `MeshMetrics`);
/// - `mesh_message_log.csv`: per message, its size and fragments, creation, delivery (the
///   last fragment's arrival for a split message) and latency, fragments received,
///   confirmation, attempts and hops;
/// - `mesh_repairs.csv`: per node failure, the routes it broke and their repair times;
/// - `mesh_flows.csv` (with flows across the mesh): per flow, the hops of the last and the
///   longest route its datagrams took, route changes (a datagram taking another route than the
///   one before it in the same direction), datagrams that waited for a route or
///   were dropped without one, packets relays passed on, and packets lost at a broken hop;
/// - `mesh_transfers.csv` (with `mesh.resources` or `mesh.streams`): per Multipeer resource
///   or stream, its state (completed, cancelled, failed and why), when it ended, bytes
///   delivered in order, goodput from start to end, pieces sent and resent, bytes on the link,
///   and for streams the write latency;
/// - `mesh_resource_progress.csv` (with resources): when each resource's progress at the
///   receiver (bytes received over its size) first reached 10 %, 20 %, … 100 %;
/// - `mesh_keys.csv` (with `mesh.keyPaths`): per pair, shared paths, key medians and the other
///   nodes that could derive the same key;
/// - `multipeer_events.csv` (with Multipeer set-up): per phone, what its app heard and when:
///   peers found and lost, invitations sent and received, certificates, session state changes;
/// - `mesh_summary.json`: network-wide figures.
public enum MeshFiles {
    /// The files of `m`.
    public static func files(_ m: MeshMetrics, report: RunReport) -> [ResultFile] {
        let ids = report.nodes.ids
        let seconds = report.simulatedTime.inSeconds
        func f(_ v: Double, _ d: Int = 3) -> String { NumberText.fixed(v, decimals: d) }
        func path(_ p: [Int]) -> String { p.map { ids[$0] }.joined(separator: " ") }
        var nodes = CSVTable(header: [
            "node", "session_peers", "control_frames", "control_bytes", "control_bytes_per_s",
            "message_frames_sent", "message_bytes", "session_frames", "session_bytes", "first_session_s",
            "message_frames_relayed", "message_frames_not_on_path"
        ])
        for (i, n) in m.nodes.enumerated() {
            nodes.append([
                ids[i], "\(n.sessionPeers)", "\(n.controlFrames)", "\(n.controlBytes)",
                f(seconds > 0 ? Double(n.controlBytes) / seconds : 0), "\(n.messageFrames)", "\(n.messageBytes)",
                "\(n.sessionFrames)", "\(n.sessionBytes)", n.firstSession.map { f($0.inSeconds, 6) } ?? "",
                "\(n.relayed)", "\(n.notOnPath)"
            ])
        }
        var routes = CSVText(header: ["from", "to", "hops", "path"])
        for r in m.routes { routes.append([ids[r.from], ids[r.to], "\(r.path.count - 1)", path(r.path)]) }
        var first = CSVText(header: ["from", "to", "first_route_s"])
        for r in m.firstRoutes { first.append([ids[r.from], ids[r.to], f(r.time.inSeconds, 6)]) }
        var files = [
            ResultFile(name: "mesh_nodes.csv", contents: nodes.text),
            ResultFile(name: "routes.csv", contents: routes.text),
            ResultFile(name: "route_establishment.csv", contents: first.text)
        ]
        if !m.workloads.isEmpty {
            var t = CSVTable(header: [
                "workload", "from", "to", "size_bytes", "reliable", "created", "delivered", "delivery_ratio",
                "confirmed", "latency_mean_ms", "latency_p50_ms", "latency_p95_ms", "latency_max_ms", "hops_mean",
                "confirm_rtt_mean_ms", "confirm_rtt_p50_ms", "confirm_rtt_p95_ms", "attempts",
                "attempts_without_route", "route_established_s"
            ])
            for w in m.workloads {
                t.append([
                    w.spec.id, ids[w.spec.from], ids[w.spec.to], "\(w.spec.sizeBytes)", "\(w.spec.reliable)",
                    "\(w.created)",
                    "\(w.delivered)", f(w.deliveryRatio, 4), "\(w.confirmed)",
                    f(w.latency.mean * 1000), f(w.latency.p50 * 1000), f(w.latency.p95 * 1000), f(w.latency.max * 1000),
                    f(w.meanHops), f(w.confirmRtt.mean * 1000), f(w.confirmRtt.p50 * 1000), f(w.confirmRtt.p95 * 1000),
                    "\(w.attempts)", "\(w.attemptsWithoutRoute)", w.routeEstablished.map { f($0.inSeconds, 6) } ?? ""
                ])
            }
            files.append(ResultFile(name: "mesh_messages.csv", contents: t.text))
            var log = CSVTable(header: [
                "workload", "message", "size_bytes", "fragments", "created_s", "delivered_s", "latency_ms",
                "fragments_received", "confirmed_s", "attempts", "hops", "encrypted"
            ])
            for (w, records) in m.messages.enumerated() {
                let spec = m.workloads[w].spec
                let fragments = MeshConfig.fragmentCount(size: spec.sizeBytes)
                for (k, r) in records.enumerated() {
                    let got = fragments == 1 ? (r.delivered == nil ? 0 : 1) : r.fragmentsReceived
                    log.append([
                        spec.id, "\(k)", "\(spec.sizeBytes)", "\(fragments)", f(r.created.inSeconds, 6),
                        r.delivered.map { f($0.inSeconds, 6) } ?? "",
                        r.delivered.map { f(($0 - r.created).inSeconds * 1000) } ?? "", "\(got)",
                        r.confirmed.map { f($0.inSeconds, 6) } ?? "", "\(r.attempts)",
                        r.delivered == nil ? "" : "\(r.hops)", r.encrypted ? "yes" : "no"
                    ])
                }
            }
            files.append(ResultFile(name: "mesh_message_log.csv", contents: log.text))
        }
        if !m.repairs.isEmpty {
            var t = CSVTable(header: [
                "node", "failed_s", "broken_pairs", "repaired_pairs", "repair_mean_s", "repair_p50_s",
                "repair_p95_s", "repair_max_s"
            ])
            for r in m.repairs {
                let s = MeshMetrics.Spread(r.repairTimes)
                t.append([
                    ids[r.node], f(r.failed.inSeconds, 6), "\(r.brokenPairs)", "\(s.count)", f(s.mean), f(s.p50),
                    f(s.p95), f(s.max)
                ])
            }
            files.append(ResultFile(name: "mesh_repairs.csv", contents: t.text))
        }
        if report.scenario.mesh?.keyPaths != nil {
            var t = CSVTable(header: ["a", "b", "shared_paths", "key", "median_nodes", "exposed_count", "exposed_to"])
            for k in m.keys {
                t.append([
                    ids[k.a], ids[k.b], "\(k.sharedPaths)", k.medians == nil ? "no" : "yes", k.medians.map(path) ?? "",
                    "\(k.exposedTo.count)", path(k.exposedTo)
                ])
            }
            files.append(ResultFile(name: "mesh_keys.csv", contents: t.text))
        }
        if !m.flows.isEmpty {
            var t = CSVTable(header: [
                "flow", "from", "to", "protocol", "hops_last", "hops_max", "route_changes", "waited_for_route",
                "no_route_drops", "relayed_packets", "broken_hop_drops"
            ])
            for c in m.flows {
                let n = c.counters
                t.append([
                    c.id, ids[c.from], ids[c.to], c.transport.rawValue, "\(n.lastHops)", "\(n.maxHops)",
                    "\(n.routeChanges)", "\(n.waitedForRoute)", "\(n.noRouteDrops)", "\(n.relayed)",
                    "\(n.brokenHopDrops)"
                ])
            }
            files.append(ResultFile(name: "mesh_flows.csv", contents: t.text))
        }
        if !m.transfers.isEmpty { files += transferFiles(m.transfers, ids: ids) }
        if let events = m.multipeerEvents {
            var t = CSVTable(header: ["time_s", "node", "event", "peer"])
            for e in events {
                t.append([f(e.time.inSeconds, 6), ids[Int(e.node)], e.kind.rawValue, ids[Int(e.peer)]])
            }
            files.append(ResultFile(name: "multipeer_events.csv", contents: t.text))
        }
        files.append(ResultFile(name: "mesh_summary.json", contents: summaryJSON(m)))
        return files
    }

    /// `mesh_transfers.csv` and, with resources, `mesh_resource_progress.csv`.
    static func transferFiles(_ transfers: [SessionTransfer], ids: [String]) -> [ResultFile] {
        func f(_ v: Double, _ d: Int = 3) -> String { NumberText.fixed(v, decimals: d) }
        var t = CSVTable(header: [
            "transfer", "kind", "from", "to", "start_s", "size_bytes", "state", "ended_s", "bytes_delivered",
            "duration_s", "goodput_mbps", "pieces_sent", "pieces_resent", "bytes_on_link", "writes_delivered",
            "write_latency_mean_ms", "write_latency_p95_ms", "write_latency_max_ms"
        ])
        var progress = CSVTable(header: ["resource", "percent", "time_s", "since_start_s"])
        for x in transfers {
            let span = x.finished.map { $0 - x.start }
            let goodput = span.map { $0 > .zero ? Double(x.received) * 8 / $0.inSeconds / 1e6 : 0 }
            let w = MeshMetrics.Spread(x.writeLatencies)
            let stream = x.kind == .stream
            t.append([
                x.id, x.kind.rawValue, ids[x.from], ids[x.to], f(x.start.inSeconds, 6), "\(x.size)", x.state.rawValue,
                x.finished.map { f($0.inSeconds, 6) } ?? "", "\(x.received)", span.map { f($0.inSeconds, 6) } ?? "",
                goodput.map { f($0) } ?? "", "\(x.framesSent)", "\(x.framesResent)", "\(x.bytesOnAir)",
                stream ? "\(w.count)" : "", stream ? f(w.mean * 1000) : "", stream ? f(w.p95 * 1000) : "",
                stream ? f(w.max * 1000) : ""
            ])
            guard x.kind == .resource else { continue }
            for (d, time) in x.progress.enumerated() {
                progress.append([
                    x.id, "\((d + 1) * 10)", time.map { f($0.inSeconds, 6) } ?? "",
                    time.map { f(($0 - x.start).inSeconds, 6) } ?? ""
                ])
            }
        }
        var files = [ResultFile(name: "mesh_transfers.csv", contents: t.text)]
        if transfers.contains(where: { $0.kind == .resource }) {
            files.append(ResultFile(name: "mesh_resource_progress.csv", contents: progress.text))
        }
        return files
    }

    /// `mesh_summary.json`.
    static func summaryJSON(_ m: MeshMetrics) -> String {
        func num(_ v: Double, _ d: Int = 6) -> JSONValue {
            .number(JSONNumber(literal: NumberText.fixed(v, decimals: d), value: v))
        }
        func int(_ v: Int) -> JSONValue { .number(JSONNumber(integer: UInt64(v))) }
        func obj(_ members: [(String, JSONValue)]) -> JSONValue {
            .object(members.map { JSONMember(key: $0.0, value: JSONNode($0.1)) })
        }
        func spread(_ s: MeshMetrics.Spread) -> JSONValue {
            obj([
                ("count", int(s.count)), ("mean_s", num(s.mean)), ("p50_s", num(s.p50)), ("p95_s", num(s.p95)),
                ("max_s", num(s.max))
            ])
        }
        let peers = m.nodes.map(\.sessionPeers)
        let doc = obj([
            ("nodes", int(m.nodes.count)),
            ("session_peers_mean", num(peers.isEmpty ? 0 : Double(peers.reduce(0, +)) / Double(peers.count), 3)),
            ("session_size_max", int(m.largestSession)),
            ("neighbours_max", int(m.neighboursMax)),
            ("control_bytes_per_node_per_s", num(m.controlBytesPerNodePerSecond, 3)),
            ("pairs", int(m.pairs)),
            ("pairs_routed", int(m.pairsRouted)),
            ("route_establishment", spread(m.establishment)),
            ("join_time", m.joinTime.map(spread) ?? .null),
            ("message_no_session_drops", int(Int(m.noSessionDrops))),
            ("message_failovers", int(Int(m.failovers))),
            (
                "workloads",
                .array(
                    m.workloads.map { w in
                        JSONNode(
                            obj([
                                ("workload", .string(w.spec.id)), ("delivery_ratio", num(w.deliveryRatio, 4)),
                                ("latency", spread(w.latency)),
                                ("hops_mean", num(w.meanHops, 3)), ("confirm_rtt", spread(w.confirmRtt))
                            ]))
                    })
            )
        ])
        return JSONText.render(JSONNode(doc))
    }
}

extension MeshFiles {
    /// Columns a sweep of a mesh scenario adds to `cells.csv` after the flow columns.
    public static let sweepColumns = [
        "mesh_delivery_ratio", "mesh_latency_mean_ms", "mesh_latency_p50_ms", "mesh_latency_p95_ms", "mesh_hops_mean",
        "mesh_confirm_rtt_mean_ms", "mesh_attempts", "mesh_route_established_s", "mesh_control_bytes_per_node_per_s",
        "mesh_session_peers_mean", "mesh_pairs_routed", "mesh_establishment_mean_s", "mesh_broken_pairs",
        "mesh_repaired_pairs",
        "mesh_repair_mean_s", "mesh_nodes", "mesh_pairs", "link_frames_sent", "link_queue_refusals",
        "link_received_per_frame", "link_failed_per_frame", "mesh_join_time_mean_s", "mesh_establishment_p50_s",
        "mesh_establishment_p95_s"
    ]

    /// Columns a sweep adds to every row when its scenario sends flows across the mesh: on a
    /// flow's row, the hops of the last route its datagrams took, route changes, datagrams that
    /// waited for a route, and packets relays passed on (`mesh_flows.csv`); empty elsewhere.
    public static let carriedFlowColumns = [
        "mesh_flow_hops", "mesh_flow_route_changes", "mesh_flow_waited_for_route", "mesh_flow_relayed_packets"
    ]

    /// Per flow of `report`, in flow order, its `carriedFlowColumns` cells (empty for a flow
    /// sent over the link).
    public static func carriedFlowCells(_ report: RunReport) -> [[String]] {
        report.scenario.flows.map { spec in
            guard let c = report.mesh?.flows.first(where: { $0.id == spec.id })?.counters else {
                return Array(repeating: "", count: carriedFlowColumns.count)
            }
            return ["\(c.lastHops)", "\(c.routeChanges)", "\(c.waitedForRoute)", "\(c.relayed)"]
        }
    }

    /// A sweep cell's mesh rows, as wide as `RunFiles.summaryColumns + sweepColumns`: one per
    /// message workload (or one network row without workloads). Flow columns hold what applies
    /// to a workload: `flow` = its id, `protocol` = the routing, `distance_m` between its ends
    /// at the start, `packets` = messages, `size_bytes`; network columns repeat on each row.
    public static func sweepRows(_ report: RunReport) -> [[String]] {
        guard let m = report.mesh else { return [] }
        let s = report.scenario
        func f(_ v: Double, _ d: Int = 3) -> String { NumberText.fixed(v, decimals: d) }
        let repaired = m.repairs.flatMap(\.repairTimes)
        let network = [
            f(m.controlBytesPerNodePerSecond),
            f(m.nodes.isEmpty ? 0 : Double(m.nodes.map(\.sessionPeers).reduce(0, +)) / Double(m.nodes.count)),
            "\(m.pairsRouted)", f(m.establishment.mean, 6), "\(m.repairs.map(\.brokenPairs).reduce(0, +))",
            "\(repaired.count)",
            repaired.isEmpty ? "" : f(MeshMetrics.Spread(repaired).mean, 6)
        ]
        // Saturation: every node's link counters summed. Frames sent counts data PPDUs (the
        // heartbeats and messages, broadcast or unicast); receptions and failures are per frame.
        let sent = report.link.map(\.dataTransmissions).reduce(0, +)
        let perFrame = { (v: UInt64) in sent == 0 ? "" : f(Double(v) / Double(sent)) }
        let saturation = [
            "\(m.nodes.count)", "\(m.pairs)", "\(sent)", "\(report.link.map(\.queueDrops).reduce(0, +))",
            perFrame(report.link.map(\.received).reduce(0, +)),
            perFrame(report.link.map(\.receiveFailures).reduce(0, +)),
            m.joinTime.map { f($0.mean, 6) } ?? "",
            // Route establishment's spread over the routed pairs (nearest rank), beside the mean.
            m.establishment.count == 0 ? "" : f(m.establishment.p50, 6),
            m.establishment.count == 0 ? "" : f(m.establishment.p95, 6)
        ]
        func base(_ id: String, _ distance: String, _ packets: String, _ size: String) -> [String] {
            var row = Array(repeating: "", count: RunFiles.summaryColumns.count)
            func set(_ column: String, _ value: String) { RunFiles.setSummary(column, value, in: &row) }
            set("flow", id)
            set("environment", s.environment.place.rawValue)
            set("technology", RadioConfiguration(s.radio).technology.rawValue)
            set("protocol", s.mesh?.routing ?? "")
            set("distance_m", distance)
            set("packets", packets)
            set("size_bytes", size)
            set("seed", "\(s.seed)")
            set("status", "ok")
            return row
        }
        guard !m.workloads.isEmpty else {
            return [base("", "", "", "") + Array(repeating: "", count: 8) + network + saturation]
        }
        return m.workloads.map { w in
            let d = report.nodes.position(of: w.spec.from, at: .zero).distance(
                to: report.nodes.position(of: w.spec.to, at: .zero))
            return base(w.spec.id, f(d, 2), "\(w.spec.count)", "\(w.spec.sizeBytes)")
                + [
                    f(w.deliveryRatio, 4), f(w.latency.mean * 1000), f(w.latency.p50 * 1000), f(w.latency.p95 * 1000),
                    f(w.meanHops),
                    f(w.confirmRtt.mean * 1000), "\(w.attempts)", w.routeEstablished.map { f($0.inSeconds, 6) } ?? ""
                ] + network + saturation
        }
    }
}

extension MeshFiles {
    /// The mesh's lines of the run's text summary (`RunFiles.summaryText`): routed pairs,
    /// control bytes, each message workload and each Multipeer transfer.
    static func summaryText(_ m: MeshMetrics, _ report: RunReport) -> String {
        let ids = report.nodes.ids
        func f(_ v: Double, _ d: Int = 3) -> String { NumberText.fixed(v, decimals: d) }
        var out =
            "mesh: \(m.nodes.count) nodes, \(m.pairsRouted) of \(m.pairs) ordered pairs routed, "
            + "routing control \(f(m.controlBytesPerNodePerSecond, 1)) B/node/s\n"
        for w in m.workloads {
            out +=
                "  \(w.spec.id) \(ids[w.spec.from]) → \(ids[w.spec.to]): delivered \(w.delivered)/\(w.created) (\(f(w.deliveryRatio * 100, 2)) %), "
                + "latency mean \(f(w.latency.mean * 1000)) ms p95 \(f(w.latency.p95 * 1000)) ms, hops \(f(w.meanHops, 2)), "
                + "confirmation RTT mean \(f(w.confirmRtt.mean * 1000)) ms\n"
        }
        for x in m.transfers {
            let span = x.finished.map { " at \(f($0.inSeconds)) s" } ?? ""
            out +=
                "  \(x.kind.rawValue) \(x.id) \(ids[x.from]) → \(ids[x.to]): \(x.state.rawValue)\(span), "
                + "\(x.received) of \(x.size) bytes\n"
        }
        return out
    }
}

extension MeshFiles {
    /// Whether `base` sends a flow across its mesh: a sweep's flow rows then say how.
    static func carriesFlows(_ base: Scenario) -> Bool {
        base.mesh != nil && base.flows.indices.contains { base.carrier(of: $0) == .mesh }
    }

    /// The mesh's columns of a sweep's `cells.csv` after the flow summary's.
    static func layerColumns(_ base: Scenario) -> [String] {
        sweepColumns + (carriesFlows(base) ? carriedFlowColumns : [])
    }

    /// Per flow row of a unit, its cells in the mesh's columns: blank in `sweepColumns`, then its
    /// carried-flow cells when flows cross the mesh.
    static func flowCells(_ report: RunReport, base: Scenario, flowRows: Int) -> [[String]] {
        let carries = carriesFlows(base)
        let blank = Array(repeating: "", count: sweepColumns.count)
        let carried = carries ? carriedFlowCells(report) : []
        let extra = carries ? Array(repeating: "", count: carriedFlowColumns.count) : []
        return (0..<flowRows).map { blank + (carried.isEmpty ? extra : carried[$0]) }
    }

    /// A unit's mesh rows (`sweepRows`), as wide as the flow summary's and the mesh's columns.
    static func layerRows(_ report: RunReport, base: Scenario) -> [[String]] {
        let extra = carriesFlows(base) ? Array(repeating: "", count: carriedFlowColumns.count) : []
        return sweepRows(report).map { $0 + extra }
    }
}

/// The files of one `run`: `metadata.json`, `scenario.json` (the effective input) and
/// `nodes.csv`. Later layers add their tables here.
public enum RunFiles {
    /// The tool's version, written into every metadata.json.
    public static let toolVersion = "0.1.0"

    /// Every file of `report`.
    public static func files(for report: RunReport) -> [ResultFile] {
        var traces: [ResultFile] = []
        if let t = report.traces {
            for (i, bytes) in t.enumerated() {
                traces.append(ResultFile(name: "\(report.nodes.ids[i]).pcap", bytes: bytes))
            }
        }
        let layerFiles = report.layers.files(report)
        let timeline = report.timeline.map { [ResultFile(name: "timeline.jsonl", contents: $0)] } ?? []
        let discovery =
            report.flows.contains { $0.discovery != nil }
            ? [ResultFile(name: "flow_discovery.csv", contents: discoveryTable(report).text)] : []
        return traces + layerFiles + timeline + discovery + [
            ResultFile(name: "metadata.json", contents: metadata(report)),
            ResultFile(name: "scenario.json", contents: JSONText.render(report.scenario.effectiveInput)),
            ResultFile(name: "nodes.csv", contents: nodesTable(report).text),
            ResultFile(name: "links.csv", contents: linkTable(report).text),
            ResultFile(name: "traffic.csv", contents: trafficTable(report).text),
            ResultFile(name: "summary.csv", contents: summaryTable(report).text),
            ResultFile(name: "summary.json", contents: summaryJSON(report)),
            ResultFile(name: "rtt_samples.csv", contents: rttSamples(report).text)
        ]
    }

    /// `metadata.json`. Every field is deterministic except `wall_time_s`.
    public static func metadata(_ report: RunReport) -> String {
        let s = report.scenario
        func member(_ key: String, _ value: JSONValue) -> JSONMember { JSONMember(key: key, value: JSONNode(value)) }
        let doc = JSONNode(
            .object([
                member("tool", .string("adhocsim")),
                member("version", .string(toolVersion)),
                member("scenario", .string(s.name)),
                member("input_file", .string(s.sourcePath)),
                member("input_hash", .string("fnv1a64:\(s.inputHash)")),
                member("seed", .number(JSONNumber(integer: s.seed))),
                member("duration_s", .number(JSONNumber(s.duration.inSeconds))),
                member(
                    "distance_m",
                    NodeTable.resolvedDistance(s).map {
                        .number(JSONNumber(literal: NumberText.fixed($0, decimals: 2), value: $0))
                    } ?? .null),
                member(
                    "simulated_time_s",
                    .number(
                        JSONNumber(
                            literal: NumberText.fixed(report.simulatedTime.inSeconds, decimals: 9),
                            value: report.simulatedTime.inSeconds))),
                member("stop_reason", .string(report.stopReason.rawValue)),
                member("events_executed", .number(JSONNumber(integer: report.eventsExecuted))),
                member("fingerprint", .string(report.fingerprint)),
                member(
                    "wall_time_s",
                    .number(
                        JSONNumber(
                            literal: NumberText.fixed(report.wallSeconds, decimals: 6),
                            value: report.wallSeconds)))
            ]))
        return JSONText.render(doc)
    }

    /// `links.csv`: the link layer's counters, one row per node in file order.
    public static func linkTable(_ report: RunReport) -> CSVTable {
        var t = CSVTable(header: [
            "node", "enqueued", "queue_drops", "delivered", "retry_drops", "data_transmissions",
            "retransmissions", "received", "received_bytes", "receive_failures"
        ])
        for (i, c) in report.link.enumerated() {
            t.append([
                report.nodes.ids[i], "\(c.enqueued)", "\(c.queueDrops)", "\(c.delivered)", "\(c.retryDrops)",
                "\(c.dataTransmissions)", "\(c.retransmissions)", "\(c.received)", "\(c.receivedBytes)",
                "\(c.receiveFailures)"
            ])
        }
        return t
    }

    /// `traffic.csv`: one row per link-layer traffic generator, in file order. Throughput is
    /// payload bytes received × 8 over the time from the generator's start to the end of the run.
    public static func trafficTable(_ report: RunReport) -> CSVTable {
        var t = CSVTable(header: [
            "traffic", "kind", "from", "to", "bytes", "packets_sent", "packets_refused",
            "packets_received", "bytes_received", "throughput_mbps", "mean_delay_ms"
        ])
        let ids = report.nodes.ids
        for (k, spec) in report.scenario.traffic.enumerated() {
            let c = report.traffic[k]
            let kind: String, from: String, to: String, bytes: Int, start: SimTime
            switch spec {
            case .saturated(let f, let d, let b, let s):
                (kind, from, to, bytes, start) = ("saturated", ids[f], ids[d], b, s)
            case .broadcast(let n, let b, _, let s):
                (kind, from, to, bytes, start) = ("broadcast", "\(n.count) nodes", "all", b, s)
            }
            let span = (report.simulatedTime - start).inSeconds
            let throughput = span > 0 ? Double(c.receivedBytes) * 8 / span / 1e6 : 0
            let delay = c.received > 0 ? c.delaySum / Double(c.received) * 1e3 : 0
            t.append([
                "\(k)", kind, from, to, "\(bytes)", "\(c.sent)", "\(c.refused)", "\(c.received)", "\(c.receivedBytes)",
                NumberText.fixed(throughput, decimals: 3), NumberText.fixed(delay, decimals: 3)
            ])
        }
        return t
    }

    /// Sets `column` of a `summary.csv` row (a column the list holds; any other is a no-op).
    static func setSummary(_ column: String, _ value: String, in row: inout [String]) {
        if let c = summaryColumns.firstIndex(of: column) { row[c] = value }
    }

    /// The columns of `summary.csv` (tests and users rely on them).
    public static let summaryColumns = [
        "flow", "environment", "technology", "protocol", "distance_m", "packets", "size_bytes", "probes", "seed",
        "rtt_mean_ms", "rtt_sd_ms", "rtt_min_ms", "rtt_p50_ms", "rtt_p95_ms", "rtt_max_ms", "jitter_rfc3550_ms",
        "data_rate_mbps", "goodput_mbps", "loss_pct", "ip_packets_sent", "ip_packets_received", "bytes_sent",
        "bytes_delivered", "retransmissions", "handshake_ms", "duration_s", "status",
        "server_ip_packets_sent", "server_ip_packets_received", "keepalives", "send_rate_mbps", "rtt_sd_sample_ms",
        "send_buffer_drops", "receive_buffer_drops"
    ]

    static func summaryRows(_ report: RunReport) -> [[String]] {
        let s = report.scenario
        func opt(_ v: Double?, _ d: Int = 3) -> String { v.map { NumberText.fixed($0, decimals: d) } ?? "" }
        return s.flows.enumerated().map { k, spec in
            let m = report.flows[k]
            let (packets, size): (String, String) = {
                switch spec.workload {
                case .thesis(_, let n, let sz): return ("\(n)", "\(sz)")
                case .bulk(let b): return ("", "\(b)")
                case .cbr(_, let sz): return ("", "\(sz)")
                }
            }()
            let probes: Int = { if case .thesis(let p, _, _) = spec.workload { return p } else { return 0 } }()
            let distance = report.nodes.position(of: spec.from, at: .zero).distance(
                to: report.nodes.position(of: spec.to, at: .zero))
            let radio = RadioConfiguration(s.radio)
            return [
                spec.id, s.environment.place.rawValue, radio.technology.rawValue, spec.transport.rawValue,
                NumberText.fixed(distance, decimals: 2), packets, size, "\(probes)", "\(s.seed)",
                opt(m.rttMean), opt(m.rttSd), opt(m.rttMin), opt(m.rttP50), opt(m.rttP95), opt(m.rttMax),
                opt(m.jitterRfc3550),
                opt(m.dataRateMbps), opt(m.goodputMbps), opt(m.lossPct), "\(m.ipPacketsSent)", "\(m.ipPacketsReceived)",
                "\(m.bytesSent)", "\(m.bytesDelivered)", "\(m.retransmissions)", opt(m.handshakeMs),
                opt(m.durationS, 6), m.status,
                "\(m.serverIpPacketsSent)", "\(m.serverIpPacketsReceived)", "\(m.keepalives)", opt(m.sendRateMbps),
                opt(m.rttSdSample),
                "\(m.sendBufferDrops)", "\(m.receiveBufferDrops)"
            ]
        }
    }

    /// `summary.csv`: one row per flow, in file order. Empty fields: not measured.
    public static func summaryTable(_ report: RunReport) -> CSVTable {
        var t = CSVTable(header: summaryColumns)
        for row in summaryRows(report) { t.append(row) }
        return t
    }

    /// The columns whose values are always text in JSON, whatever they look like.
    static let textColumns: Set<String> = ["flow", "environment", "technology", "protocol", "status"]

    /// A table cell as a JSON value: text in a text column; otherwise null when empty, a number
    /// when it is a JSON number literal, and text when it is anything else (a layer's name
    /// column, such as a scanner's node id), so every line stays JSON.
    static func jsonCell(_ value: String, column: String) -> JSONValue {
        if textColumns.contains(column) { return .string(value) }
        if value.isEmpty { return .null }
        if case .number(let n)? = JSONParser.parseScalar(value), n.value.isFinite { return .number(n) }
        return .string(value)
    }

    /// `summary.json`: the same rows as objects (numbers as numbers, empty fields as null).
    public static func summaryJSON(_ report: RunReport) -> String {
        let rows = summaryRows(report).map { row in
            JSONNode(
                .object(zip(summaryColumns, row).map { JSONMember(key: $0, value: JSONNode(jsonCell($1, column: $0))) })
            )
        }
        return JSONText.render(JSONNode(.object([JSONMember(key: "flows", value: JSONNode(.array(rows)))])))
    }

    /// `rtt_samples.csv`: every echoed probe.
    public static func rttSamples(_ report: RunReport) -> CSVTable {
        var t = CSVTable(header: ["flow", "probe", "rtt_ms"])
        for (k, spec) in report.scenario.flows.enumerated() {
            for (i, rtt) in report.flows[k].rttsMs.enumerated() {
                t.append([spec.id, "\(i)", NumberText.fixed(rtt, decimals: 6)])
            }
        }
        return t
    }

    /// `flow_discovery.csv`: per flow with `discovery`, when its apps started, when the
    /// listener probed first and could answer, when the browser found the service, the
    /// connection was ready and the first probe's echo was read (seconds; empty: never), the
    /// times from app start to found, ready and first echo (ms), and the frames each side sent.
    public static func discoveryTable(_ report: RunReport) -> CSVTable {
        var t = CSVTable(header: [
            "flow", "app_start_s", "first_probe_s", "announced_s", "found_s", "ready_s", "first_echo_s",
            "found_after_ms", "ready_after_ms", "first_echo_after_ms", "queries", "answers"
        ])
        func s(_ x: SimTime?) -> String { x.map { NumberText.fixed($0.inSeconds, decimals: 6) } ?? "" }
        for (k, spec) in report.scenario.flows.enumerated() {
            guard let d = report.flows[k].discovery else { continue }
            func after(_ x: SimTime?) -> String {
                x.map { NumberText.fixed(($0 - d.appStart).inMilliseconds, decimals: 3) } ?? ""
            }
            let echo = report.flows[k].firstEcho
            t.append([
                spec.id, s(d.appStart), s(d.firstProbe), s(d.announced), s(d.found), s(d.ready), s(echo),
                after(d.found), after(d.ready), after(echo), "\(d.queries)", "\(d.answers)"
            ])
        }
        return t
    }

    /// A one-screen table per flow (metric, value, unit) for the terminal.
    public static func summaryText(_ report: RunReport) -> String {
        var out = ""
        let ids = report.nodes.ids
        for (k, spec) in report.scenario.flows.enumerated() {
            let m = report.flows[k]
            let d = report.nodes.position(of: spec.from, at: .zero).distance(
                to: report.nodes.position(of: spec.to, at: .zero))
            out +=
                "flow \(spec.id): \(spec.transport.rawValue) \(ids[spec.from]) → \(ids[spec.to]), \(NumberText.fixed(d, decimals: 2)) m, "
                + "\(report.scenario.environment.place.rawValue), \(RadioConfiguration(report.scenario.radio).technology.rawValue)\n"
            func f(_ v: Double?, _ dec: Int = 3) -> String { v.map { NumberText.fixed($0, decimals: dec) } ?? "—" }
            let rows: [(String, String, String)] = [
                ("status", m.status, ""),
                ("RTT mean", f(m.rttMean), "ms"),
                ("jitter (SD of RTT, thesis)", f(m.rttSd), "ms"),
                ("jitter (sample SD, as the app)", f(m.rttSdSample), "ms"),
                ("jitter (RFC 3550)", f(m.jitterRfc3550), "ms"),
                (
                    "RTT min / p50 / p95 / max", "\(f(m.rttMin)) / \(f(m.rttP50)) / \(f(m.rttP95)) / \(f(m.rttMax))",
                    "ms"
                ),
                ("data rate (server, as the app)", f(m.dataRateMbps), "Mbit/s"),
                ("send rate (client log)", f(m.sendRateMbps), "Mbit/s"),
                ("goodput", f(m.goodputMbps), "Mbit/s"),
                ("loss", f(m.lossPct), "%"),
                ("IP packets sent / received (client)", "\(m.ipPacketsSent) / \(m.ipPacketsReceived)", "packets"),
                ("bytes sent / delivered", "\(m.bytesSent) / \(m.bytesDelivered)", "bytes"),
                ("retransmissions", "\(m.retransmissions)", "segments"),
                ("handshake", f(m.handshakeMs), "ms"),
                ("transfer duration", f(m.durationS, 6), "s")
            ]
            let width = rows.map(\.0.count).max() ?? 0
            for (name, value, unit) in rows {
                out +=
                    "  " + name + String(repeating: " ", count: width - name.count) + "  " + value
                    + (unit.isEmpty ? "" : " " + unit) + "\n"
            }
        }
        out += report.layers.summaryText(report)
        return out
    }

    /// `nodes.csv`: one row per node, in file order.
    public static func nodesTable(_ report: RunReport) -> CSVTable {
        var t = CSVTable(header: ["node", "x_m", "y_m", "z_m"])
        for i in 0..<report.nodes.count {
            let p = report.nodes.position(of: i, at: .zero)
            t.append([
                report.nodes.ids[i], NumberText.fixed(p.x, decimals: 3), NumberText.fixed(p.y, decimals: 3),
                NumberText.fixed(p.z, decimals: 3)
            ])
        }
        return t
    }
}

/// The Bluetooth LE result files of a run (`results/README.md` defines every column):
/// `ble_pairs.csv` (one row per scanner and advertiser), `ble_scanners.csv`,
/// `ble_advertisers.csv`, `ble_connections.csv` with connections, `ble_discoveries.csv`,
/// `ble_app_view.csv` and `ble_categories.csv` when advertisers carry content (what the apps
/// were shown: seed 004's Table 5.4 and its categorisation), and `ble_rssi.csv` when
/// `ble.recordRssi` asks for every sample.
public enum BleFiles {
    static func f(_ v: Double?, _ d: Int = 3) -> String { v.map { NumberText.fixed($0, decimals: d) } ?? "" }

    /// Every BLE file of `report`.
    public static func files(_ m: BleMetrics, report: RunReport) -> [ResultFile] {
        var files = [
            ResultFile(name: "ble_pairs.csv", contents: pairsTable(m, report).text),
            ResultFile(name: "ble_scanners.csv", contents: scannersTable(m, report).text),
            ResultFile(name: "ble_advertisers.csv", contents: advertisersTable(m, report).text)
        ]
        if !m.connections.isEmpty {
            var t = CSVTable(header: [
                "connection", "central", "peripheral", "phy", "interval_ms", "latency", "data_length", "mtu",
                "channel_selection", "setup_ms", "events", "pdus_sent", "retransmissions", "value_bytes_delivered",
                "completed_s", "supervision_timeout_s", "goodput_kbps"
            ])
            for (k, c) in m.connections.enumerated() {
                let s = c.spec
                t.append([
                    "\(k)", report.nodes.ids[s.central], report.nodes.ids[s.peripheral], s.phy == .le2M ? "2M" : "1M",
                    NumberText.fixed(s.intervalMs, decimals: 2), "\(s.latency)", "\(s.dataLength)", "\(s.mtu)",
                    "\(s.channelSelection)", f(c.setupS.map { $0 * 1000 }, 3), "\(c.events)", "\(c.pdusSent)",
                    "\(c.retransmissions)",
                    "\(c.valueBytesDelivered)", f(c.completed?.inSeconds, 6), f(c.lost?.inSeconds, 6),
                    f(c.goodputKbps, 1)
                ])
            }
            files.append(ResultFile(name: "ble_connections.csv", contents: t.text))
        }
        if m.advertisers.contains(where: { $0.spec.data != nil || $0.spec.scanResponseData != nil }) {
            // What each app was shown, worked out once for the three tables.
            let found = discoveries(m)
            files.append(ResultFile(name: "ble_discoveries.csv", contents: discoveriesTable(found, m, report).text))
            files.append(ResultFile(name: "ble_app_view.csv", contents: appViewTable(found, m, report).text))
            files.append(ResultFile(name: "ble_categories.csv", contents: categoriesTable(found, m, report).text))
        }
        if report.scenario.ble?.recordRssi == true {
            var t = CSVTable(header: ["time_s", "scanner", "advertiser", "rssi_dbm", "distance_m"])
            for s in m.samples {
                t.append([
                    NumberText.fixed(s.time.inSeconds, decimals: 6), report.nodes.ids[m.scanners[s.scanner].node],
                    report.nodes.ids[m.advertisers[s.advertiser].spec.node], "\(s.rssi)", f(s.distance, 2)
                ])
            }
            files.append(ResultFile(name: "ble_rssi.csv", contents: t.text))
        }
        return files
    }

    /// The identifier the app on phone `scanner` (a node) would show for an advertiser's address
    /// number `epoch`: eight hex digits of SplitMix64's mix of FNV-1a 64 over the three (a
    /// stand-in for iOS's peripheral UUID, which each iPhone derives on its own for each address
    /// it sees: `CBPeer.identifier` is the local device's name for the peer, so two phones show
    /// two identifiers for one tag).
    public static func identifier(scanner: Int, advertiser: Int, epoch: Int64) -> String {
        var h = StableHash()
        h.value = SplitMix64.mix(StableHash.fnv1a("\(scanner)/\(advertiser)/\(epoch)"))
        return String(h.hex.prefix(8)).uppercased()
    }

    /// Columns of `ble_pairs.csv`.
    public static let pairColumns = [
        "scanner", "advertiser", "pdu", "interval_ms", "address", "distance_m", "heardable", "received", "loss_ratio",
        "responses", "reports", "identifiers", "first_identifier", "first_received_s", "discovery_s",
        "first_response_s", "rssi_mean_dbm",
        "rssi_sd_db", "estimated_distance_m"
    ]

    static func pairRow(_ p: BleMetrics.Pair, _ m: BleMetrics, _ report: RunReport) -> [String] {
        let ad = m.advertisers[p.advertiser].spec
        let r = p.record
        return [
            report.nodes.ids[m.scanners[p.scanner].node], report.nodes.ids[ad.node], ad.pdu.rawValue,
            NumberText.fixed(ad.intervalMs, decimals: 3), ad.address.rawValue, f(p.distance, 2), "\(r.heardable)",
            "\(r.received)", f(p.lossRatio, 4), "\(r.responses)", "\(r.reports)", "\(r.identifiers)",
            r.firstEpoch < 0
                ? "" : identifier(scanner: m.scanners[p.scanner].node, advertiser: p.advertiser, epoch: r.firstEpoch),
            f(r.firstReceived?.inSeconds, 6), f(p.discoveryS, 6), f(r.firstResponse?.inSeconds, 6), f(p.rssiMean, 2),
            f(p.rssiSd, 2), f(p.estimatedDistance, 2)
        ]
    }

    /// Columns of `ble_discoveries.csv`.
    public static let discoveryColumns = [
        "scanner", "advertiser", "identifier", "discovery_s", "connectable", "local_name", "company_id", "company",
        "manufacturer_data", "service_uuids", "service_data_uuids", "tx_power_dbm", "solicited_uuids"
    ]

    /// One advertiser an app reported: the pair, what the app was shown, and the manufacturer
    /// data's company as sent (before iOS withholds Apple's).
    struct Discovery {
        var pair: BleMetrics.Pair
        var view: BleAdvertisingData.AppView
        var sentCompany: UInt16?
    }

    /// Every advertiser each scanner's app reported, in pair order, with what the app was shown
    /// (`BleAdvertisingData.appView`): the scan response's content too once one arrived.
    static func discoveries(_ m: BleMetrics) -> [Discovery] {
        var out: [Discovery] = []
        for p in m.pairs
        where p.record.firstEpoch >= 0 && m.scanners[p.scanner].node != m.advertisers[p.advertiser].spec.node {
            let ad = m.advertisers[p.advertiser].spec
            let data = ad.data ?? BleAdvertisingData()
            let response = p.record.responses > 0 ? ad.scanResponseData : nil
            let view = BleAdvertisingData.appView(data: data, response: response, connectable: ad.pdu.isConnectable)
            let raw = BleAdvertisingData(data.structures + (response?.structures ?? []))
            out.append(Discovery(pair: p, view: view, sentCompany: raw.company))
        }
        return out
    }

    /// `ble_discoveries.csv`: per scanner and advertiser its app reported, what the app was
    /// shown (`BleAdvertisingData.appView`): the scan response's content too once one arrived.
    public static func discoveriesTable(_ m: BleMetrics, _ report: RunReport) -> CSVTable {
        discoveriesTable(discoveries(m), m, report)
    }

    static func discoveriesTable(_ found: [Discovery], _ m: BleMetrics, _ report: RunReport) -> CSVTable {
        var t = CSVTable(header: discoveryColumns)
        for d in found {
            let p = d.pair, view = d.view, company = d.sentCompany
            let ad = m.advertisers[p.advertiser].spec
            let scanner = m.scanners[p.scanner].node
            t.append([
                report.nodes.ids[scanner], report.nodes.ids[ad.node],
                identifier(scanner: scanner, advertiser: p.advertiser, epoch: p.record.firstEpoch), f(p.discoveryS, 6),
                view.connectable ? "yes" : "no", view.localName ?? "",
                company.map { "0x" + BleUuid.text($0) } ?? "", company.flatMap(BleCompanies.name) ?? "",
                company == nil ? "" : (view.company == nil ? "withheld" : "shown"),
                view.serviceUUIDs.joined(separator: " "), view.serviceDataUUIDs.joined(separator: " "),
                view.txPower.map { "\($0)" } ?? "", view.solicitedUUIDs.joined(separator: " ")
            ])
        }
        return t
    }

    /// Columns of `ble_app_view.csv`.
    public static let appViewColumns = [
        "scanner", "discovered", "identifiers", "manufacturer_data", "manufacturer_data_withheld", "local_name",
        "service_data", "service_uuids", "connectable"
    ]

    /// `ble_app_view.csv`: per scanner, seed 004's Table 5.4 counted from what its app was
    /// shown: advertisers discovered (and the identifiers their address rotations made), how
    /// many showed manufacturer data (and how many sent some that iOS withheld: Apple's), a
    /// local name, service data, service UUIDs, and how many were connectable.
    public static func appViewTable(_ m: BleMetrics, _ report: RunReport) -> CSVTable {
        appViewTable(discoveries(m), m, report)
    }

    static func appViewTable(_ found: [Discovery], _ m: BleMetrics, _ report: RunReport) -> CSVTable {
        var t = CSVTable(header: appViewColumns)
        for (k, s) in m.scanners.enumerated() {
            let mine = found.filter { $0.pair.scanner == k }
            func count(_ f: (Discovery) -> Bool) -> String { "\(mine.filter(f).count)" }
            t.append([
                report.nodes.ids[s.node], "\(mine.count)",
                "\(mine.map { Int($0.pair.record.identifiers) }.reduce(0, +))",
                count { $0.view.company != nil }, count { $0.sentCompany != nil && $0.view.company == nil },
                count { $0.view.localName != nil }, count { !$0.view.serviceDataUUIDs.isEmpty },
                count { !$0.view.serviceUUIDs.isEmpty }, count { $0.view.connectable }
            ])
        }
        return t
    }

    /// `ble_categories.csv`: per scanner, the discovered advertisers by the company the app
    /// can name, as seed 004's app categorised them (section 6.3): from the manufacturer data
    /// it was shown (`BleCompanies`), else from a member's 16-bit service UUID among its service
    /// UUIDs or service data (`BleMemberUuids`); the rest "unknown". Sorted by count, then name.
    public static func categoriesTable(_ m: BleMetrics, _ report: RunReport) -> CSVTable {
        categoriesTable(discoveries(m), m, report)
    }

    static func categoriesTable(_ found: [Discovery], _ m: BleMetrics, _ report: RunReport) -> CSVTable {
        var t = CSVTable(header: ["scanner", "company", "from", "devices"])
        for (k, s) in m.scanners.enumerated() {
            // Counted by key, written sorted (count, then name): no dictionary order reaches the file.
            var counts: [String: Int] = [:]
            for d in found where d.pair.scanner == k {
                let key: String
                if let c = d.view.company {
                    key = (BleCompanies.name(c) ?? "0x" + BleUuid.text(c)) + "\tmanufacturer data"
                } else if let member = (d.view.serviceUUIDs + d.view.serviceDataUUIDs).lazy.compactMap(
                    BleMemberUuids.member
                ).first {
                    key = member + "\tservice UUID"
                } else {
                    key = "unknown\t"
                }
                counts[key, default: 0] += 1
            }
            for (key, n) in counts.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                let parts = key.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                t.append([report.nodes.ids[s.node], parts[0], parts[1], "\(n)"])
            }
        }
        return t
    }

    /// `ble_pairs.csv`.
    public static func pairsTable(_ m: BleMetrics, _ report: RunReport) -> CSVTable {
        var t = CSVTable(header: pairColumns)
        for p in m.pairs where m.scanners[p.scanner].node != m.advertisers[p.advertiser].spec.node {
            t.append(pairRow(p, m, report))
        }
        return t
    }

    /// `ble_scanners.csv`.
    public static func scannersTable(_ m: BleMetrics, _ report: RunReport) -> CSVTable {
        var t = CSVTable(header: [
            "scanner", "advertisers", "discovered", "discovered_1s", "discovered_5s", "discovered_10s",
            "discovery_p50_s", "discovery_p90_s", "identifiers", "heardable", "received", "loss_ratio", "windows",
            "scan_requests", "scan_responses", "receptions_cut", "distance_ratio_p50", "distance_error_p50"
        ])
        for s in m.scanners {
            t.append([
                report.nodes.ids[s.node], "\(s.advertisers)", "\(s.discovered)", "\(s.within1s)", "\(s.within5s)",
                "\(s.within10s)", f(s.medianDiscoveryS, 6), f(s.p90DiscoveryS, 6), "\(s.identifiers)",
                "\(s.heardable)", "\(s.received)",
                f(s.heardable > 0 ? 1 - Double(s.received) / Double(s.heardable) : nil, 4), "\(s.windows)",
                "\(s.requestsSent)", "\(s.responsesReceived)", "\(s.receptionsCut)", f(s.medianDistanceRatio, 3),
                f(s.medianDistanceError, 3)
            ])
        }
        return t
    }

    /// `ble_advertisers.csv`.
    public static func advertisersTable(_ m: BleMetrics, _ report: RunReport) -> CSVTable {
        var t = CSVTable(header: [
            "advertiser", "pdu", "interval_ms", "phy", "address", "tx_power_dbm", "events", "pdus_sent",
            "pdus_received", "scan_requests_received", "scan_responses_sent", "discovered_by"
        ])
        for a in m.advertisers {
            t.append([
                report.nodes.ids[a.spec.node], a.spec.pdu.rawValue, NumberText.fixed(a.spec.intervalMs, decimals: 3),
                a.spec.phy.rawValue, a.spec.address.rawValue, f(a.spec.txPowerDbm, 1), "\(a.events)", "\(a.pdusSent)",
                "\(a.pdusReceived)", "\(a.requestsReceived)", "\(a.responsesSent)", "\(a.discoveredBy)"
            ])
        }
        return t
    }

    /// Extra `cells.csv` columns of a sweep over a BLE scenario: one row per pair.
    public static let sweepColumns = [
        "ble_scanner", "ble_advertiser", "ble_interval_ms", "ble_window_ms", "ble_discovery_s", "ble_loss_ratio",
        "ble_reports", "ble_rssi_mean_dbm", "ble_estimated_distance_m"
    ]

    /// A sweep cell's BLE rows, as wide as `RunFiles.summaryColumns + sweepColumns`: one per
    /// scanner and advertiser, then one per connection (protocol `GATT`: its notified value
    /// bytes, goodput, set-up time as `handshake_ms`, and the connection interval).
    public static func sweepRows(_ report: RunReport) -> [[String]] {
        guard let m = report.ble, let bleSpec = report.scenario.ble else { return [] }
        let s = report.scenario
        let connectionRows = m.connections.map { c -> [String] in
            var row = Array(repeating: "", count: RunFiles.summaryColumns.count)
            func set(_ column: String, _ value: String) { RunFiles.setSummary(column, value, in: &row) }
            let spec = c.spec
            set("flow", "\(report.nodes.ids[spec.central])<-\(report.nodes.ids[spec.peripheral])")
            set("environment", s.environment.place.rawValue)
            set("technology", "ble")
            set("protocol", "GATT")
            set(
                "distance_m",
                f(
                    report.nodes.position(of: spec.central, at: spec.at).distance(
                        to: report.nodes.position(of: spec.peripheral, at: spec.at)), 2))
            set("size_bytes", "\(spec.valuePerNotification)")
            set("seed", "\(s.seed)")
            set("bytes_sent", "\(spec.notifyBytes)")
            set("bytes_delivered", "\(c.valueBytesDelivered)")
            set("retransmissions", "\(c.retransmissions)")
            set("handshake_ms", f(c.setupS.map { $0 * 1000 }, 3))
            set("goodput_mbps", f(c.goodputKbps.map { $0 / 1000 }, 4))
            set(
                "status",
                c.setupS == nil
                    ? "failed:not-connected"
                    : c.lost != nil
                        ? "failed:supervision-timeout"
                        : (c.completed != nil || spec.notifyBytes == 0 ? "ok" : "failed:incomplete"))
            var tail = Array(repeating: "", count: sweepColumns.count)
            if let c = sweepColumns.firstIndex(of: "ble_interval_ms") {
                tail[c] = NumberText.fixed(spec.intervalMs, decimals: 3)
            }
            return row + tail
        }
        return m.pairs.compactMap { p -> [String]? in
            let sc = m.scanners[p.scanner], ad = m.advertisers[p.advertiser].spec
            guard sc.node != ad.node else { return nil }
            var row = Array(repeating: "", count: RunFiles.summaryColumns.count)
            func set(_ column: String, _ value: String) { RunFiles.setSummary(column, value, in: &row) }
            set("flow", "\(report.nodes.ids[sc.node])<-\(report.nodes.ids[ad.node])")
            set("environment", s.environment.place.rawValue)
            set("technology", "ble")
            set("protocol", ad.pdu.rawValue)
            set("distance_m", f(p.distance, 2))
            set("packets", "\(p.record.received)")
            set("seed", "\(s.seed)")
            set("status", "ok")
            let scannerSpec = bleSpec.scanners[p.scanner]
            return row + [
                report.nodes.ids[sc.node], report.nodes.ids[ad.node], NumberText.fixed(ad.intervalMs, decimals: 3),
                NumberText.fixed(scannerSpec.windowMs, decimals: 3), f(p.discoveryS, 6), f(p.lossRatio, 4),
                "\(p.record.reports)", f(p.rssiMean, 2), f(p.estimatedDistance, 2)
            ]
        } + connectionRows
    }
}

extension BleFiles {
    /// Bluetooth LE's lines of the run's text summary (`RunFiles.summaryText`): per scanner, what
    /// it discovered, how fast, and how well RSSI told the distance.
    static func summaryText(_ b: BleMetrics, _ report: RunReport) -> String {
        let ids = report.nodes.ids
        func f(_ v: Double?, _ d: Int = 3) -> String { v.map { NumberText.fixed($0, decimals: d) } ?? "—" }
        var out =
            "ble: \(b.advertisers.count) advertisers, \(b.scanners.count) scanners, \(report.scenario.environment.place.rawValue)\n"
        let scanners = report.scenario.ble?.scanners ?? []
        for (k, s) in b.scanners.enumerated() {
            let start = k < scanners.count ? scanners[k].start : .zero
            let from = start > .zero ? " (from \(NumberText.fixed(start.inSeconds, decimals: 1)) s)" : ""
            let loss = s.heardable > 0 ? 100 * (1 - Double(s.received) / Double(s.heardable)) : nil
            out +=
                "  \(ids[s.node])\(from): discovered \(s.discovered) of \(s.advertisers) (1 s: \(s.within1s), 5 s: \(s.within5s), 10 s: \(s.within10s)), "
                + "latency p50 \(f(s.medianDiscoveryS)) s p90 \(f(s.p90DiscoveryS)) s, advertisement loss \(f(loss, 1)) %, "
                + "identifiers \(s.identifiers), distance from RSSI d̂/d p50 \(f(s.medianDistanceRatio, 2))\n"
        }
        // What the apps were shown (seed 004's Table 5.4), when advertisers carry content.
        if b.advertisers.contains(where: { $0.spec.data != nil || $0.spec.scanResponseData != nil }) {
            for row in appViewTable(b, report).rows {
                out +=
                    "  \(row[0]) app shown: manufacturer data \(row[3]) (\(row[4]) withheld), local name \(row[5]), "
                    + "service data \(row[6]), service UUIDs \(row[7]), connectable \(row[8]) of \(row[1])\n"
            }
        }
        return out
    }
}

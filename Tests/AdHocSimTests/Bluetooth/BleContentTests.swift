import Testing
@testable import AdHocSim

/// What advertisers say and what an iOS app is shown of it (items 1 and 2): AD
/// structures within a legacy PDU's 31 octets, Apple's manufacturer data withheld, the scan
/// response's content once one arrived, and an identifier per scanning phone.
/// One phone, `tag`, at the origin with Bluetooth LE's `advertiser` and no Wi-Fi radio.
func bleTagScenario(_ advertiser: JSON, duration: Double = 5) -> TestScenario {
    var t = TestScenario(seed: 1, duration: duration, radio: nil)
    t.place("tag", 0, 0, z: 0)
    t["ble"] = ["advertisers": [advertiser]]
    return t
}

struct BleContentTests {
    /// Flags 3, "Chipolo" 2 + 7, one 16-bit UUID 2 + 2, service data for it with 10 bytes
    /// 2 + 2 + 10: 30 octets (Core Specification Supplement Part A §1 formats).
    static let chipolo = #"""
        [{"flags": ["le-general-discoverable", "br-edr-not-supported"]}, {"name": "Chipolo"}, {"uuids16": ["FD59"]},
         {"serviceData16": {"uuid": "FD59", "bytes": 10}}]
        """#

    @Test func adStructuresAreCountedAndFitThirtyOneOctets() throws {
        let s = try bleScenario(
            nodes: [("phone", 0, 0), ("tag", 2, 0)],
            ble:
                #"{"advertisers": [{"node": "tag", "intervalMs": 100, "data": \#(Self.chipolo)}], "scanners": [{"node": "phone"}]}"#
        )
        let ad = try require(s.ble?.advertisers[0])
        expectEqual(ad.payloadBytes, 30)
        expect(ad.data?.localName == "Chipolo" && ad.data?.serviceUUIDs == ["FD59"] && !ad.advertisesTxPower)
        // One TX Power structure more (3 octets): 33, over the budget, said with every size.
        let over = Self.chipolo.replacingOccurrences(of: "}}]", with: "}}, {\"txPower\": 4}]")
        let d = bleTagScenario(["node": "tag", "data": .raw(over)]).problems
        expect(d.count == 1 && d[0].path == "ble.advertisers[0].data", "\(d)")
        expect(d.first?.message.contains("take 33 octets ([0] 3, [1] 9, [2] 4, [3] 14, [4] 3") == true, "\(d)")
    }

    @Test func badAdStructuresAreReportedWithTheirPath() {
        func problems(_ data: String, extra: String = "") -> [Diagnostic] {
            bleTagScenario(["node": "tag", "data": .raw(data + extra)]).problems
        }
        let unknown = problems(#"[{"manufacturer": {"company": "0x1234", "bytes": 4}}]"#)
        expectEqual(unknown.first?.path, "ble.advertisers[0].data[0].manufacturer.company", "\(unknown)")
        expect(unknown.first?.message.contains("not a company identifier AdHocSim knows") == true)
        expectEqual(problems(#"[{"uuids16": ["FD5"]}]"#).first?.path, "ble.advertisers[0].data[0].uuids16[0]")
        expect(problems(#"[{"beacon": 1}]"#).first?.message.contains("unknown AD structure \"beacon\"") == true)
        expect(
            problems(#"[{"flags": ["le-limited-discoverable", "le-general-discoverable"]}]"#).first?.message
                .contains("limited or in general") == true)
        let both = problems(#"[{"name": "x"}]"#, extra: #", "payloadBytes": 10"#)
        expectEqual(both.first?.path, "ble.advertisers[0].payloadBytes", "\(both)")
    }

    @Test func theAppIsShownWhatIosHandsIt() {
        let apple = BleAdvertisingData([BleAdStructure(kind: .manufacturer(company: 0x004C, bytes: 23))])
        let v = BleAdvertisingData.appView(data: apple, response: nil, connectable: true)
        expect(v.company == nil && v.connectable)  // Apple's own data withheld
        let samsung = BleAdvertisingData([
            BleAdStructure(kind: .manufacturer(company: 0x0075, bytes: 20)), BleAdStructure(kind: .txPower(-4))
        ])
        let response = BleAdvertisingData([BleAdStructure(kind: .localName("Galaxy", complete: true))])
        let w = BleAdvertisingData.appView(data: samsung, response: response, connectable: false)
        expect(w.company == 0x0075 && w.localName == "Galaxy" && w.txPower == -4 && !w.connectable)
        expect(BleAdvertisingData.appView(data: samsung, response: nil, connectable: false).localName == nil)
        expect(BleCompanies.name(0x00E0) == "Google" && BleCompanies.name(0x1234) == nil)
    }

    /// Incomplete lists (0x02, 0x06) count two plus two or sixteen octets per UUID as the
    /// complete ones do, and their UUIDs reach `CBAdvertisementDataServiceUUIDsKey`; service
    /// solicitation lists (0x14, 0x15) go to `CBAdvertisementDataSolicitedServiceUUIDsKey` only
    /// (Core Specification Supplement Part A §1.1, §1.10).
    @Test func incompleteAndSolicitedListsAreShownApart() throws {
        let s = try bleScenario(
            nodes: [("phone", 0, 0), ("watch", 2, 0)],
            ble: #"""
                {"advertisers": [{"node": "watch", "intervalMs": 100,
                   "data": [{"uuids16Incomplete": ["180D", "180F"]}, {"solicited16": ["1805"]},
                            {"solicited128": ["6E400001-B5A3-F393-E0A9-E50E24DCCA9E"]}]}],
                 "scanners": [{"node": "phone", "active": false}]}
                """#)
        // 2 + 4, 2 + 2, 2 + 16 octets.
        let ad = try require(s.ble?.advertisers[0])
        expectEqual(ad.payloadBytes, 28)
        let view = BleAdvertisingData.appView(data: try require(ad.data), response: nil, connectable: true)
        expectEqual(view.serviceUUIDs, ["180D", "180F"])
        expectEqual(view.solicitedUUIDs, ["1805", "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"])
        let report = try ScenarioRunner.run(s)
        let table = BleFiles.discoveriesTable(try require(report.ble), report)
        let col = { (name: String) in BleFiles.discoveryColumns.firstIndex(of: name) ?? 0 }
        let row = try require(table.rows.first)
        expect(row[col("service_uuids")] == "180D 180F" && row[col("solicited_uuids")].hasPrefix("1805 6E40"), "\(row)")
        // An iOS app cannot advertise a solicitation list (CBPeripheralManager.startAdvertising).
        let d = bleTagScenario([
            "node": "tag", "profile": "ios-foreground", "data": .raw(#"[{"solicited16": ["1805"]}]"#)
        ])
        .problems
        expect(d.contains { $0.path == "ble.advertisers[0].data" }, "\(d)")
    }

    /// Two phones scan one tag whose name is only in its scan response: the active scanner
    /// gets a SCAN_RSP and is shown the name, the passive one is not; each phone shows its own
    /// identifier for the same address.
    @Test func discoveriesShowWhatEachPhonesAppSaw() throws {
        let s = try bleScenario(
            nodes: [("active", 0, 0), ("passive", 0, 2), ("tag", 2, 0)],
            ble: #"""
                {"advertisers": [{"node": "tag", "intervalMs": 100, "address": "random-static",
                   "data": [{"flags": ["le-general-discoverable"]}, {"manufacturer": {"company": "0x0059", "bytes": 6}}],
                   "scanResponseData": [{"name": "Thermo"}]}],
                 "scanners": [{"node": "active", "active": true}, {"node": "passive", "active": false}]}
                """#)
        let report = try ScenarioRunner.run(s)
        let m = try require(report.ble)
        let table = BleFiles.discoveriesTable(m, report)
        let col = { (name: String) in BleFiles.discoveryColumns.firstIndex(of: name)! }
        expectEqual(table.rows.count, 2)
        let active = try require(table.rows.first { $0[0] == "active" })
        let passive = try require(table.rows.first { $0[0] == "passive" })
        expect(active[col("local_name")] == "Thermo" && passive[col("local_name")] == "")
        expect(active[col("company")] == "Nordic Semiconductor" && active[col("manufacturer_data")] == "shown")
        expectEqual(active[col("connectable")], "yes")
        expect(active[col("identifier")] != passive[col("identifier")])
        expect(BleFiles.files(m, report: report).contains { $0.name == "ble_discoveries.csv" })
    }

    /// Table 5.4's rows counted from what one passive scanner's app is shown, 2 m from five
    /// devices in free space (each reported within the first second): an iPhone (Apple's data,
    /// withheld; connectable), earbuds (Apple's, withheld; not connectable), a Tile (service
    /// UUID and data FEED, connectable), a Sony headset (Sony's data shown, FD2A listed), a band
    /// (name and service data 180A, a SIG service that names no company), and a watch connected
    /// to its phone, silent. By hand: 5 discovered; manufacturer data shown 1 (Sony), withheld
    /// 2; local name 1; service data 2 (Tile, band); service UUIDs 2 (Tile, Sony); connectable 4
    /// (ADV_IND is the default PDU: all but the earbuds). Categories: Sony by its manufacturer
    /// data, Tile by its member UUID FEED, three unknown.
    /// Hex identifiers are ASCII hex digits and nothing else: a sign (`"+FD5"`, `"-000"`), a
    /// company `"0x+75"` and full-width digits are refused at their path; the same digits in
    /// ASCII pass. So is a fingerprint with a full-width digit.
    @Test func hexIdentifiersAreAsciiHexOnly() {
        func problems(_ data: JSON) -> [Diagnostic] {
            var t = TestScenario(name: "h", seed: 1, duration: 5, radio: nil)
            t.place("a", 0, 0)
            t.place("b", 3, 0)
            t["ble"] = [
                "advertisers": [["node": "b", "data": data]], "scanners": [["node": "a", "profile": "ios-foreground"]]
            ]
            return t.problems
        }
        for bad in ["+FD5", "-000", "FD\u{FF15}9"] {
            expect(
                problems([["uuids16": [.string(bad)]]]).contains { $0.path == "ble.advertisers[0].data[0].uuids16[0]" },
                "\(bad)")
        }
        expect(problems([["uuids16": ["FD59"]]]).isEmpty)
        expect(!problems([["manufacturer": ["company": "0x+75", "bytes": 4]]]).isEmpty)
        expect(problems([["manufacturer": ["company": "0x0075", "bytes": 4]]]).isEmpty)
        let fullWidth = "ADABFB00-6E7D-4601-BDA2-BFFAA68956B\u{FF21}"
        expect(!problems([["uuids128": [.string(fullWidth)]]]).isEmpty)
        expect(problems([["uuids128": ["ADABFB00-6E7D-4601-BDA2-BFFAA68956BA"]]]).isEmpty)
        var f = TestScenario(name: "f", seed: 1, duration: 5, radio: ["technology": "ideal"])
        f.place("a", 0, 0)
        f["expectations"] = [["fingerprint": "0123456789abcde\u{FF11}"]]
        expect(f.problems.contains { $0.path.hasPrefix("expectations[0]") }, "\(f.problems)")
    }

    @Test func theAppViewCountsTable54sRowsAndNamesCompanies() throws {
        let s = try bleScenario(
            nodes: [
                ("phone", 0, 0), ("iphone", 2, 0), ("earbuds", 0, 2), ("tile", -2, 0), ("sony", 0, -2),
                ("band", 1.2, 1.6),
                ("watch", -1.2, 1.6)
            ],
            ble: #"""
                {"advertisers": [
                   {"node": "iphone", "intervalMs": 100, "data": [{"flags": ["le-general-discoverable"]}, {"manufacturer": {"company": "0x004C", "bytes": 7}}]},
                   {"node": "earbuds", "intervalMs": 100, "pdu": "ADV_NONCONN_IND", "data": [{"manufacturer": {"company": "0x004C", "bytes": 27}}]},
                   {"node": "tile", "intervalMs": 100, "data": [{"uuids16": ["FEED"]}, {"serviceData16": {"uuid": "FEED", "bytes": 10}}]},
                   {"node": "sony", "intervalMs": 100, "data": [{"manufacturer": {"company": "0x012D", "bytes": 19}}, {"uuids16": ["FD2A"]}]},
                   {"node": "band", "intervalMs": 100, "data": [{"name": "Band"}, {"serviceData16": {"uuid": "180A", "bytes": 4}}]},
                   {"node": "watch", "intervalMs": 100, "data": [{"manufacturer": {"company": "0x0075", "bytes": 20}}], "connected": [[0, 10]]}],
                 "scanners": [{"node": "phone", "active": false}]}
                """#)
        let report = try ScenarioRunner.run(s)
        let m = try require(report.ble)
        let view = BleFiles.appViewTable(m, report)
        expectEqual(view.rows, [["phone", "5", "5", "1", "2", "1", "2", "2", "4"]])
        let categories = BleFiles.categoriesTable(m, report).rows
        expectEqual(
            categories,
            [
                ["phone", "unknown", "", "3"], ["phone", "Sony", "manufacturer data", "1"],
                ["phone", "Tile", "service UUID", "1"]
            ])
        let names = BleFiles.files(m, report: report).map(\.name)
        expect(names.contains("ble_app_view.csv") && names.contains("ble_categories.csv"))
    }
}

/// GAP's modes and procedures: limited discoverable mode ends after
/// TGAP(lim_adv_timeout), a device connected elsewhere stops advertising, and a scanner running
/// the general discovery procedure is not told of non-discoverable devices.
struct BleGapTests {
    func run(_ ble: String, duration: Double) throws -> BleMetrics {
        try require(
            try ScenarioRunner.run(
                try bleScenario(nodes: [("phone", 0, 0), ("tag", 2, 0)], ble: ble, duration: duration)
            ).ble)
    }

    @Test func aLimitedDiscoverableDeviceStopsAfterTgapLimAdvTimeout() throws {
        let ad = #"{"node": "tag", "intervalMs": 1000, "data": [{"flags": ["le-limited-discoverable"]}]}"#
        // Events 1 s + 0–10 ms apart from a first one within the first second: 177 to 180 of
        // them begin before 180 s, none after.
        let early = try run(
            #"{"advertisers": [\#(ad)], "scanners": [{"node": "phone", "active": false}]}"#, duration: 300)
        expect((177...180).contains(early.advertisers[0].events), "\(early.advertisers[0].events)")
        expect(early.pairs[0].record.firstReport != nil)
        // A scan from 200 s on finds nothing.
        let late = try run(
            #"{"advertisers": [\#(ad)], "scanners": [{"node": "phone", "active": false, "startS": 200, "durationS": 100}]}"#,
            duration: 300)
        expect(late.pairs[0].record.firstReport == nil && late.pairs[0].record.received == 0)
    }

    @Test func aConnectedDeviceAdvertisesOnlyWhileNotConnected() throws {
        let m = try run(
            #"{"advertisers": [{"node": "tag", "intervalMs": 100, "connected": [[0, 60]]}], "scanners": [{"node": "phone", "active": false}]}"#,
            duration: 90)
        let first = try require(m.pairs[0].record.firstReceived)
        expect(first >= .seconds(60) && first < .milliseconds(60_200))
        let keeps = try run(
            #"{"advertisers": [{"node": "tag", "intervalMs": 100, "connected": [[0, 60]], "advertisesWhenConnected": true}], "scanners": [{"node": "phone", "active": false}]}"#,
            duration: 90)
        expect(try require(keeps.pairs[0].record.firstReceived) < .seconds(1))
    }

    @Test func generalDiscoveryIsNotToldOfNonDiscoverableDevices() throws {
        let ad = #"{"node": "tag", "intervalMs": 100, "data": [{"uuids16": ["FEED"]}]}"#
        let observe = try run(
            #"{"advertisers": [\#(ad)], "scanners": [{"node": "phone", "active": false}]}"#, duration: 5)
        expect(observe.pairs[0].record.reports > 0)
        let general = try run(
            #"{"advertisers": [\#(ad)], "scanners": [{"node": "phone", "active": false, "discovery": "general"}]}"#,
            duration: 5)
        expect(general.pairs[0].record.reports == 0 && general.pairs[0].record.received > 0)
        // A service filter matches the UUIDs the AD structures list.
        let filtered = try run(
            #"{"advertisers": [\#(ad)], "scanners": [{"node": "phone", "active": false, "serviceFilter": ["FEED"]}]}"#,
            duration: 5)
        expect(filtered.pairs[0].record.reports > 0)
    }

    @Test func badConnectionWindowsAreReportedWithTheirPath() {
        let d = bleTagScenario(["node": "tag", "connected": [[0, 20], [10, 30]]], duration: 50).problems
        expect(
            d.first?.path == "ble.advertisers[0].connected[1]" && d.first?.message.contains("not overlap") == true,
            "\(d)")
    }
}

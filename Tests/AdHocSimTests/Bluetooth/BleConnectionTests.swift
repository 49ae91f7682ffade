import Testing
@testable import AdHocSim

/// LE connections and GATT notifications, against bounds worked out from
/// the specification's timing: LL data PDU airtimes (preamble 1 or 2 bytes, access address 4,
/// header 2, payload, CRC 3; Vol 6, Part B §2.1), T_IFS 150 µs, one central PDU and one
/// peripheral PDU per exchange, exchanges while the next fits before the next anchor.
struct BleConnectionTests {
    func run(_ connection: String, duration: Double = 20, events: String = "") throws -> BleMetrics.Connection {
        let s = try bleScenario(
            nodes: [("phone", 0, 0), ("sensor", 1, 0)], ble: #"{"connections": [\#(connection)]}"#, duration: duration,
            extra: events)
        return try require(try ScenarioRunner.run(s).ble?.connections.first)
    }

    /// n = ⌊I / (t_c + t_p + 2 T_IFS)⌋ exchanges per event, each a notification of `value`
    /// bytes: n · value · 8 / I.
    func boundKbps(intervalUs: Double, centralUs: Double, peripheralUs: Double, value: Double) -> Double {
        let n = (intervalUs / (centralUs + peripheralUs + 300)).rounded(.down)
        return n * value * 8 / intervalUs * 1000
    }

    @Test(arguments: [
        // 1M, no DLE: empty 80 µs, 27-byte payload 296 µs: 44 exchanges of 20 value bytes per 30 ms.
        ("1M", 27, 23, 80.0, 296.0, 20.0),
        // 1M with DLE: 251-byte payload 2 088 µs: 12 exchanges of 244 bytes.
        ("1M", 251, 247, 80.0, 2088.0, 244.0),
        // 2M, no DLE: empty 44 µs, 27 bytes 152 µs.
        ("2M", 27, 23, 44.0, 152.0, 20.0),
        // 2M with DLE: 251 bytes 1 048 µs: 21 exchanges of 244 bytes.
        ("2M", 251, 247, 44.0, 1048.0, 244.0),
        // DLE allowed but ATT_MTU 23: each notification is a 27-byte PDU, as without DLE.
        ("1M", 251, 23, 80.0, 296.0, 20.0)
    ])
    func gattThroughputMeetsTheAnalyticBound(
        phy: String, dataLength: Int, mtu: Int, tc: Double, tp: Double, value: Double
    ) throws {
        let c = try run(
            #"{"central": "phone", "peripheral": "sensor", "intervalMs": 30, "phy": "\#(phy)", "dataLength": \#(dataLength), "mtu": \#(mtu), "notifyBytes": 400000}"#,
            duration: 40)
        let bound = boundKbps(intervalUs: 30_000, centralUs: tc, peripheralUs: tp, value: value)
        let goodput = try require(c.goodputKbps)
        expect(c.completed != nil && c.valueBytesDelivered == 400_000 && c.retransmissions == 0)
        expect(abs(goodput - bound) / bound < 0.05, "\(phy) \(dataLength): \(goodput) vs \(bound)")
    }

    @Test func setupIsTheConnectIndAndTheTransmitWindowDelay() throws {
        // CONNECT_IND: header 2 + payload 34 on LE 1M, (1 + 4 + 36 + 3) · 8 = 352 µs, then
        // transmitWindowDelay 1.25 ms: the first event 1.602 ms after atS.
        let c = try run(#"{"central": "phone", "peripheral": "sensor", "atS": 2}"#, duration: 3)
        expect(abs(try require(c.setupS) - 0.001602) < 1e-9)
        // 30 ms events from 2.001602 s to 3 s: 34 of them.
        expectEqual(c.events, 34)
    }

    @Test func aLinkThatHearsNothingEndsAtTheSupervisionTimeout() throws {
        // The sensor fails at 2 s: the last packet came within the last 30 ms interval before
        // it; the link is lost 4 s after that packet.
        let c = try run(
            #"{"central": "phone", "peripheral": "sensor", "supervisionTimeoutMs": 4000}"#, duration: 10,
            events: #""events": [{"at_s": 2, "node": "sensor", "action": "fail"}],"#)
        let lost = try require(c.lost)
        expect(lost > .milliseconds(5_970) && lost <= .seconds(6))
    }

    @Test func badConnectionsAreReportedWithTheirPath() {
        func problems(_ c: String) -> [Diagnostic] {
            var t = TestScenario(seed: 1, duration: 5, radio: nil)
            t.place("a", 0, 0, z: 0)
            t.place("b", 1, 0, z: 0)
            t["ble"] = ["connections": [.raw(c)]]
            return t.problems
        }
        expect(
            problems(#"{"central": "a", "peripheral": "b", "intervalMs": 31}"#).first?.message.contains("1.25 ms grid")
                == true)
        expectEqual(
            problems(#"{"central": "a", "peripheral": "b", "intervalMs": 5}"#).first?.path,
            "ble.connections[0].intervalMs")
        expectEqual(
            problems(#"{"central": "a", "peripheral": "b", "intervalMs": 5000}"#).first?.path,
            "ble.connections[0].intervalMs")
        let tight = problems(
            #"{"central": "a", "peripheral": "b", "intervalMs": 1000, "latency": 1, "supervisionTimeoutMs": 4000}"#)
        expectEqual(tight.first?.path, "ble.connections[0].supervisionTimeoutMs", "\(tight)")
        expect(tight.first?.message.contains("= 4000 ms") == true)
        expect(problems(#"{"central": "a", "peripheral": "a"}"#).first?.message.contains("two different nodes") == true)
        // An iPhone central's rules (Apple's Accessory Design Guidelines): 7.5 ms is a valid
        // interval for the specification but not a multiple of 15 ms; a 1 s timeout is below 2 s.
        let ios = problems(#"{"central": "a", "peripheral": "b", "intervalMs": 7.5, "supervisionTimeoutMs": 1000}"#)
        expectEqual(
            ios.map(\.path).sorted(), ["ble.connections[0].intervalMs", "ble.connections[0].supervisionTimeoutMs"],
            "\(ios)")
        expect(
            problems(
                #"{"central": "a", "peripheral": "b", "intervalMs": 7.5, "supervisionTimeoutMs": 1000, "centralOs": "any"}"#
            ).isEmpty)
        // 30 ms × (1 + 30) = 930 ms ≤ 2 s, × 3 = 2 790 ms < 4 s: accepted; latency 31 is not.
        expect(problems(#"{"central": "a", "peripheral": "b", "latency": 30}"#).isEmpty)
        expectEqual(
            problems(#"{"central": "a", "peripheral": "b", "latency": 31, "supervisionTimeoutMs": 6000}"#).first?.path,
            "ble.connections[0].latency")
    }
}

/// An initiating central ("CONNECT_IND from an initiator"): the connection begins
/// with the first connectable advertisement the central's scanner decodes from `atS` on.
struct BleInitiatorTests {
    @Test func setupIsTheAdvertisementTIfsConnectIndAndTheWindowDelay() throws {
        let s = try bleScenario(
            nodes: [("phone", 0, 0), ("sensor", 1, 0)],
            ble: #"""
                {"advertisers": [{"node": "sensor", "intervalMs": 100}],
                 "scanners": [{"node": "phone", "intervalMs": 30, "windowMs": 30, "active": false}],
                 "connections": [{"central": "phone", "peripheral": "sensor", "atS": 0, "initiate": true}]}
                """#, duration: 5)
        let m = try require(try ScenarioRunner.run(s).ble)
        let c = try require(m.connections.first)
        // The ADV_IND decoded first ends at firstReceived; T_IFS 150 µs, CONNECT_IND 352 µs and
        // transmitWindowDelay 1.25 ms later comes the first connection event.
        let heard = try require(m.pairs[0].record.firstReceived)
        let setup = try require(c.setupS)
        expect(abs(setup - (heard.inSeconds + 0.000150 + 0.000352 + 0.001250)) < 1e-9)
        // The sensor stops advertising once connected: its first event, at most, besides the one
        // that was heard (advertising events 100 ms apart, the connection within the first).
        expect(m.advertisers[0].events <= 2)
        expect(c.events > 100)  // 30 ms events for the rest of the 5 s
    }

    @Test func anInitiatorNeedsAScannerAndAConnectableAdvertiser() {
        var t = TestScenario(seed: 1, duration: 5, radio: nil)
        t.place("a", 0, 0, z: 0)
        t.place("b", 1, 0, z: 0)
        t["ble"] = [
            "advertisers": [["node": "b", "pdu": "ADV_NONCONN_IND"]],
            "connections": [["central": "a", "peripheral": "b", "initiate": true]]
        ]
        let d = t.problems
        expect(d.count == 2 && d.allSatisfy { $0.path == "ble.connections[0].initiate" }, "\(d)")
    }
}

/// Wi-Fi beside a connection: a 15 dBm transmitter on Wi-Fi channel 6 (2 437 MHz) 2 m from the
/// phone, on the air half the time (continuously eligible), next to a sensor 1 m away. On the data channels within its ±9 MHz
/// of 0 dBr (indices 11–20, 2 428–2 446 MHz) its share in a 1 MHz receiver, 1/16.6 of −31 dBm,
/// is about −43 dBm against the sensor's −40 dBm: those PDUs fail when a frame is on; 13 MHz and
/// more away the mask is below −21 dBr and the SINR above 20 dB. A map without channels 9–22
/// hops around it.
struct BleCoexistenceTests {
    func connection(_ extra: String) throws -> BleMetrics.Connection {
        let s = try bleScenario(
            nodes: [("phone", 0, 0), ("sensor", 1, 0), ("router", 2, 0)],
            ble: #"""
                {"wifi": [{"node": "router", "channel": 6, "load": 0.5, "txPowerDbm": 15, "pattern": "continuous"}],
                 "connections": [{"central": "phone", "peripheral": "sensor", "notifyBytes": 100000\#(extra)}]}
                """#, duration: 20)
        return try require(try ScenarioRunner.run(s).ble?.connections.first)
    }

    @Test func wifiSpoilsTheDataChannelsUnderItsMaskAndAChannelMapAvoidsThem() throws {
        let all = try connection("")
        expect(all.retransmissions > 0, "\(all.retransmissions)")
        let clear = Array(0...8) + Array(23...36)
        let avoiding = try connection(", \"channels\": \(clear)")
        expectEqual(avoiding.retransmissions, 0)
        // About 10 of 37 channels are spoilt half the time: an event there loses its exchanges
        // from the first failed PDU on; the map that avoids them keeps the clean-air goodput.
        expect(try require(all.goodputKbps) < 0.9 * (try require(avoiding.goodputKbps)))
    }
}

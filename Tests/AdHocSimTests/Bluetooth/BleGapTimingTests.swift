import Testing

@testable import AdHocSim

/// GAP timings by hand: high duty cycle directed advertising (Core Specification v5.4, Vol 6,
/// Part B §4.4.2.4.2: ADV_DIRECT_IND at most 3.75 ms apart on a channel, for at most 1.28 s)
/// and the limited discoverable time (TGAP(lim_adv_timeout): 180 s in Core 5.x, 30.72 s in 4.x).
struct BleGapTimingTests {
    @Test func highDutyCycleDirectedAdvertisingLastsOnePointTwoEightSeconds() throws {
        // From 1 s, events at 1 s + k · 3.75 ms while before 2.28 s: k = 0 … 341 (341 · 3.75 =
        // 1 278.75 ms), 342 events of three PDUs; nothing after, though the run goes on to 5 s.
        let s = try bleScenario(
            nodes: [("phone", 0, 0), ("keyboard", 2, 0)],
            ble: [
                "advertisers": [
                    ["node": "keyboard", "pdu": "ADV_DIRECT_IND", "target": "phone", "highDutyCycle": true, "startS": 1]
                ],
                "scanners": [["node": "phone", "intervalMs": 30, "windowMs": 30, "active": false]]
            ], duration: 5)
        let m = try require(try ScenarioRunner.run(s).ble)
        expectEqual(m.advertisers[0].events, 342)
        expectEqual(m.advertisers[0].pdusSent, 342 * 3)
        expect(try require(m.pairs[0].record.firstReceived) >= .seconds(1))
    }

    @Test func aLimitedDiscoverableDeviceStopsAfterItsTime() throws {
        // Events every 100 ms plus advDelay in [0, 10] ms: in 30.72 s between
        // ⌊30.72 / 0.110⌋ = 279 and ⌈30.72 / 0.100⌉ = 308 of them; in 60 s with the 180 s of
        // Core 5.x, between 545 and 600.
        func events(_ limit: Double?) throws -> UInt64 {
            var ble: JSON = [
                "advertisers": [
                    [
                        "node": "tag", "intervalMs": 100,
                        "data": .raw(#"[{"flags": ["le-limited-discoverable", "br-edr-not-supported"]}]"#)
                    ]
                ],
                "scanners": [["node": "phone", "intervalMs": 30, "windowMs": 30, "active": false]]
            ]
            if let limit { ble["limitedDiscoverableS"] = .number(limit) }
            let s = try bleScenario(nodes: [("phone", 0, 0), ("tag", 2, 0)], ble: ble, duration: 60)
            return try require(try ScenarioRunner.run(s).ble).advertisers[0].events
        }
        let core4 = try events(30.72), core5 = try events(nil)
        expect((279...308).contains(core4), "\(core4)")
        expect((545...600).contains(core5), "\(core5)")
    }

    @Test func timesOutsideTheSpecificationAreRefused() {
        for (value, path) in [(181.0, "ble.limitedDiscoverableS"), (0.0, "ble.limitedDiscoverableS")] {
            var t = bleTagScenario(["node": "tag"])
            t["ble"]?["limitedDiscoverableS"] = .number(value)
            let d = t.problems
            expect(d.count == 1 && d[0].path == path, "\(value): \(d)")
        }
        // An undirected advertiser has no high duty cycle.
        let d = bleTagScenario(["node": "tag", "highDutyCycle": true]).problems
        expect(d.count == 1 && d[0].path == "ble.advertisers[0].highDutyCycle", "\(d)")
    }
}

/// CoreBluetooth's manager state as events: `bluetoothOff` stops the phone's LE scanning (and
/// advertising), `bluetoothOn` resumes it; Wi-Fi is not touched.
struct BluetoothPowerTests {
    @Test func scanningStopsWhileBluetoothIsOffAndResumes() throws {
        // The app sees every advertisement (no duplicate filter, RSSI recorded): samples come
        // before 10 s and after 20 s, none in between.
        let s = try bleScenario(
            nodes: [("phone", 0, 0), ("tag", 2, 0)],
            ble: [
                "recordRssi": true,
                "advertisers": [["node": "tag", "intervalMs": 100]],
                "scanners": [
                    ["node": "phone", "intervalMs": 30, "windowMs": 30, "active": false, "duplicateFilter": false]
                ]
            ], duration: 30,
            more: [
                "events": [
                    ["at_s": 10, "node": "phone", "action": "bluetoothOff"],
                    ["at_s": 20, "node": "phone", "action": "bluetoothOn"]
                ]
            ])
        let times = try require(try ScenarioRunner.run(s).ble).samples.map(\.time)
        expect(times.contains { $0 < .seconds(10) } && times.contains { $0 >= .seconds(20) })
        expectEqual(times.filter { $0 >= .seconds(10) && $0 < .seconds(20) }, [])
    }

    @Test func bluetoothEventsNeedABluetoothPhone() throws {
        var t = TestScenario(seed: 1, duration: 5, radio: nil)
        t.place("phone", 0, 0, z: 0)
        t.place("tag", 2, 0, z: 0)
        t["ble"] = ["advertisers": [["node": "tag"]]]
        t["events"] = [["at_s": 1, "node": "phone", "action": "bluetoothOff"]]
        let d = t.problems
        expect(d.count == 1 && d[0].path == "events[0].node", "\(d)")
    }
}

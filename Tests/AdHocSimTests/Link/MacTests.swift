import Foundation
import Testing
@testable import AdHocSim

/// Bianchi's saturation throughput of the DCF (Bianchi, IEEE JSAC 18(3), 2000, eqs. 7, 9, 13),
/// basic access, n stations, minimum window W = CWmin + 1, m doubling stages.
func bianchiThroughput(n: Int, w: Double, m: Int, payloadBits: Double, slot: Double, ts: Double, tc: Double) -> Double {
    // Solve p = 1 − (1 − τ(p))^(n−1) by bisection on p.
    func tau(_ p: Double) -> Double {
        2 * (1 - 2 * p) / ((1 - 2 * p) * (w + 1) + p * w * (1 - pow(2 * p, Double(m))))
    }
    var lo = 0.0, hi = 0.999
    for _ in 0..<200 {
        let p = (lo + hi) / 2
        let f = 1 - pow(1 - tau(p), Double(n - 1)) - p
        if f > 0 { lo = p } else { hi = p }
    }
    let t = tau((lo + hi) / 2)
    let ptr = 1 - pow(1 - t, Double(n))
    let ps = Double(n) * t * pow(1 - t, Double(n - 1)) / ptr
    return ps * ptr * payloadBits / ((1 - ptr) * slot + ptr * ps * ts + ptr * (1 - ps) * tc)
}

@Suite("802.11 MAC")
struct MacTests {
    @Test(ScaleCheck.trait, arguments: [2, 5, 10])
    func saturationThroughputMatchesBianchi(stations: Int) throws {
        // Stations on a 5 m circle around a sink that only acknowledges: everyone hears everyone,
        // equal powers (so a collision destroys both frames), fixed MCS 4 at 20 MHz, one stream,
        // no aggregation, 1500-byte payloads.
        var nodes = [("sink", 0.0, 0.0)]
        var traffic: [JSON] = []
        for k in 0..<stations {
            let a = 2 * Double.pi * Double(k) / Double(stations)
            nodes.append(("s\(k)", 5 * cos(a), 5 * sin(a)))
            traffic.append(["kind": "saturated", "from": .string("s\(k)"), "to": "sink", "bytes": 1500])
        }
        let scenario = try linkScenario(
            nodes: nodes,
            radio: ["technology": "wifi", "mcs": 4, "channelWidthMHz": 20, "spatialStreams": 1],
            traffic: .array(traffic), duration: 20, extra: ["mac": ["aggregation": false]])
        let report = try ScenarioRunner.run(scenario)
        let simulated = Double(report.traffic.reduce(0) { $0 + $1.receivedBytes }) * 8 / 20

        // The same parameters by hand: slot 9 µs, SIFS 16, DIFS 34; PSDU 4 + (1500 + 30, padded
        // to 1532) = 1536 bytes at MCS 4 (16-QAM 3/4, N_DBPS 52·4·3/4 = 156):
        // ceil((16 + 12288 + 6)/156) = 79 symbols → 40 + 316 = 356 µs;
        // ACK at 24 Mbit/s (the basic rate below 39 Mbit/s): 20 + 4·ceil(134/96) = 28 µs.
        let phy = OfdmPhy(widthMHz: 20, spatialStreams: 1)
        let data = Double(phy.airtimeNanos(psduBytes: 1536, mcs: Mcs(index: 4))) * 1e-9
        expect(close(data, 356e-6, 1e-12))
        let ts = 34e-6 + data + 16e-6 + 28e-6
        // A collision keeps the channel for about as long (listeners wait EIFS, senders time out).
        let analytic = bianchiThroughput(n: stations, w: 16, m: 6, payloadBits: 12_000, slot: 9e-6, ts: ts, tc: ts)
        expect(
            abs(simulated / analytic - 1) < 0.10,
            "N = \(stations): simulated \(simulated / 1e6) Mbit/s, Bianchi \(analytic / 1e6) Mbit/s")
    }
}

/// Drives a `WirelessLink` or `IdealLink` directly and records when packets arrive.
struct LinkProbe: EventHandler {
    var wireless: WirelessLink?
    var ideal: IdealLink?
    var arrivals: [(time: SimTime, packet: LinkPacket)] = []

    mutating func handle(_ event: Event, in sim: inout Simulation) {
        if wireless != nil {
            wireless!.handle(event, in: &sim)
            for n in wireless!.notices where n.kind == .delivered { arrivals.append((sim.now, n.packet)) }
            wireless!.notices.removeAll()
        } else {
            ideal!.handle(event, in: &sim)
            for n in ideal!.notices where n.kind == .delivered { arrivals.append((sim.now, n.packet)) }
            ideal!.notices.removeAll()
        }
    }
}

@Suite("AWDL schedule")
struct AwdlTests {
    func probe(slotsA: String, slotsB: String, sim: inout Simulation) throws -> LinkProbe {
        let s = try linkScenario(
            nodes: [("A", 0, 0), ("B", 10, 0)],
            radio: ["technology": "awdl", "mcs": 0, "channelWidthMHz": 80, "spatialStreams": 1])
        var scenario = s
        scenario.nodes[0].awdlSlots = try require(UInt16(slotsA, radix: 2))
        scenario.nodes[1].awdlSlots = try require(UInt16(slotsB, radix: 2))
        let world = World<WirelessLink>(scenario, sim: &sim)
        return LinkProbe(wireless: world.link)
    }

    @Test func aFrameWaitsForTheNextSharedSlot() throws {
        var sim = Simulation(seed: 1)
        var p = try probe(slotsA: "1000", slotsB: "1000", sim: &sim)  // both only in slot 3
        let packet = LinkPacket(source: 0, destination: 1, bytes: 1000, owner: .linkTraffic, tag: 1, enqueued: .zero)
        expect(p.wireless!.send(packet, sim: &sim))
        _ = sim.run(&p, until: .seconds(2))
        // Slot 3 starts at 3 × 64 TU = 196.608 ms; contention needs DIFS (34 µs); the PPDU carries
        // one A-MPDU subframe of 4 + (1000 + 30, padded to 1032) = 1036 bytes at MCS 0, 80 MHz,
        // one stream: ceil((16 + 8288 + 6) / 117) = 72 symbols, so 40 + 288 = 328 µs.
        expectEqual(p.arrivals.count, 1)
        expectEqual(p.arrivals.first?.time, .nanoseconds(196_608_000 + 34_000 + 328_000))
    }

    @Test func aFrameThatWouldOverrunTheSlotWaitsForTheNextSequence() throws {
        var sim = Simulation(seed: 1)
        var p = try probe(slotsA: "1000", slotsB: "1000", sim: &sim)
        // Start 100 µs before slot 3 ends: the exchange (324 µs + SIFS + ACK) cannot fit.
        let late = SimTime.nanoseconds(4 * 65_536_000 - 100_000)
        sim.schedule(at: late) { _ in }
        var idle = Recorder()
        _ = sim.run(&idle, until: late)
        expect(
            p.wireless!.send(
                LinkPacket(source: 0, destination: 1, bytes: 1000, owner: .linkTraffic, tag: 1, enqueued: late),
                sim: &sim))
        _ = sim.run(&p, until: .seconds(3))
        // Next slot 3: one sequence (16 × 65.536 ms = 1.048576 s) after the first.
        expectEqual(p.arrivals.first?.time, .nanoseconds(196_608_000 + 1_048_576_000 + 34_000 + 328_000))
    }

    @Test func peersWithoutASharedSlotCannotTalk() throws {
        var sim = Simulation(seed: 1)
        var p = try probe(slotsA: "1", slotsB: "10", sim: &sim)
        expect(
            !p.wireless!.send(
                LinkPacket(source: 0, destination: 1, bytes: 100, owner: .linkTraffic, tag: 1, enqueued: .zero),
                sim: &sim))
        expectEqual(p.wireless!.counters(of: 0).queueDrops, 1)
    }

    @Test func slotEightIsChannelSixAndNeverCarries5GHzData() {
        let s = AwdlSchedule(occupancy: [0xFFFF, 1 << 8], dataChannelIs6: false)
        expectEqual(s.occupancy, [0xFEFF, 0])
        expectEqual(AwdlSchedule.slot(at: .nanoseconds(8 * 65_536_000 + 5)).index, 8)
        expectEqual(AwdlSchedule.slot(at: .nanoseconds(17 * 65_536_000)).index, 1)
    }
}

@Suite("Ideal link")
struct IdealLinkTests {
    func make(_ link: String, sim: inout Simulation) throws -> LinkProbe {
        let s = try linkScenario(
            nodes: [("A", 0, 0), ("B", 10, 0)], radio: ["technology": "ideal"], extra: ["link": .raw(link)])
        return LinkProbe(ideal: World<IdealLink>(s, sim: &sim).link)
    }

    @Test func rateAndDelayAreExact() throws {
        var sim = Simulation(seed: 1)
        var p = try make("{\"rateMbps\": 100, \"delayMs\": 25}", sim: &sim)
        for k in 0..<3 {
            expect(
                p.ideal!.send(
                    LinkPacket(
                        source: 0, destination: 1, bytes: 1000, owner: .linkTraffic, tag: UInt64(k), enqueued: .zero),
                    sim: &sim))
        }
        _ = sim.run(&p)
        // 1000 bytes at 100 Mbit/s = 80 µs each, back to back, plus 25 ms.
        expectEqual(p.arrivals.map(\.time), [25_080_000, 25_160_000, 25_240_000].map(SimTime.nanoseconds))
    }

    @Test func lossIsBernoulliPerPacket() throws {
        var sim = Simulation(seed: 1)
        var p = try make(
            "{\"rateMbps\": 1000, \"delayMs\": 1, \"lossProbability\": 0.3, \"queuePackets\": 20000}", sim: &sim)
        for k in 0..<10_000 {
            _ = p.ideal!.send(
                LinkPacket(source: 0, destination: 1, bytes: 100, owner: .linkTraffic, tag: UInt64(k), enqueued: .zero),
                sim: &sim)
        }
        _ = sim.run(&p)
        // Expected 7000 arrivals, sd √(10000·0.3·0.7) = 45.8; 5 sd.
        expect(abs(p.arrivals.count - 7000) < 230)
    }

    @Test func aFullQueueRefusesAndCounts() throws {
        var sim = Simulation(seed: 1)
        var p = try make("{\"queuePackets\": 5}", sim: &sim)
        var accepted = 0
        for k in 0..<10
        where p.ideal!.send(
            LinkPacket(source: 0, destination: 1, bytes: 100, owner: .linkTraffic, tag: UInt64(k), enqueued: .zero),
            sim: &sim)
        {
            accepted += 1
        }
        expectEqual(accepted, 5)
        expectEqual(p.ideal!.counters(of: 0).queueDrops, 5)
    }
}

@Suite("Radio and link input")
struct RadioInputTests {
    @Test func badRadioValuesNameTheirPath() {
        let cases: [(String, String, String)] = [
            (
                "environment.shadowingSigmaDb=-2", "environment.shadowingSigmaDb",
                "expected a shadowing standard deviation in dB in 0...20, found -2 (out of range)"
            ),
            (
                "radio.channelWidthMHz=30", "radio.channelWidthMHz",
                "expected a channel width in MHz: one of 20, 40, 80; found 30"
            ),
            ("radio.mcs=12", "radio.mcs", "expected an MCS index in 0...9 or \"auto\", found 12 (out of range)"),
            (
                "radio.technology=lora", "radio.technology",
                "expected a radio technology: one of \"awdl\", \"wifi\", \"ideal\"; found \"lora\""
            ),
            (
                "environment.preset=mars", "environment.preset",
                "expected a place preset: one of \"underground\", \"city\", \"field\", \"forest\", \"custom\"; found \"mars\""
            ),
            (
                "link.lossProbability=1.5", "link.lossProbability",
                "expected a loss probability in 0...1, found 1.5 (out of range)"
            )
        ]
        for (override, path, message) in cases {
            let d = diagnostics(validScenario, overrides: [override])
            expect(d.count == 1 && d.first?.path == path && d.first?.message == message, "\(override): \(d)")
        }
    }

    @Test func mcsNineAtTwentyMegahertzIsRefused() {
        let d = diagnostics(validScenario, overrides: ["radio.mcs=9", "radio.channelWidthMHz=20"])
        expect(d.count == 1 && d[0].path == "radio.mcs")
    }
}

@Suite("Spatial index and placement")
struct SpatialTests {
    @Test func theGridOffersOnlyNearbyNodes() {
        // Two clusters 10 km apart; cells of 100 m.
        var positions: [Position] = []
        for k in 0..<50 { positions.append(Position(x: Double(k), y: 0, z: 1.2)) }
        for k in 0..<500 { positions.append(Position(x: 10_000 + Double(k % 20), y: Double(k / 20), z: 1.2)) }
        let grid = SpatialGrid(positions: positions, cellSize: 100)
        var seen: [UInt32] = []
        grid.forEachCandidate(near: positions[0]) { seen.append($0) }
        expectEqual(seen, (0..<50).map(UInt32.init))
    }

    @Test func aBroadcastReachesItsNeighbourhoodOnly() throws {
        // A forest cluster and one node 50 km away: the far node hears nothing and is never
        // touched (its counters stay zero), while cluster members receive each other.
        let s = try linkScenario(
            nodes: [("a", 0, 0), ("b", 5, 0), ("c", 0, 5), ("far", 50_000, 0)],
            radio: ["technology": "wifi", "channelWidthMHz": 20, "spatialStreams": 1],
            traffic: [["kind": "broadcast", "intervalS": 0.5, "bytes": 200]], duration: 10)
        let r = try ScenarioRunner.run(s)
        expect(r.link[3].received == 0 && r.link[3].receiveFailures == 0)
        // Each of a, b, c sends 20 broadcasts; each is heard by the other two.
        expectEqual(r.link[0].received + r.link[1].received + r.link[2].received, 3 * 20 * 2)
    }

    @Test func aPhoneThatFailsWhileSendingCutsItsFrameShort() throws {
        // a broadcasts 1 400 bytes every millisecond: at the lowest rate (6 Mbit/s) a frame is
        // about 1.9 ms long, so a sends back to back and its frames fill about 95 % of the time
        // (the gaps are DIFS plus at most 15 slots, under 0.2 ms). It fails three times while
        // up (1.0005 s, 1.3001 s after recovering at 1.2 s, and 1.90007 s after recovering at
        // 1.8 s), so at least one failure falls inside a frame. Such a frame keeps the channel
        // busy to its end but carries nothing: b, 5 m away (every complete frame decodes with
        // certainty), counts it as a failure, and a does not count it delivered. (This run
        // crashed before: the frame's end looked for a packet the failure had dropped.)
        let s = try linkScenario(
            nodes: [("a", 0, 0), ("b", 5, 0)],
            radio: ["technology": "wifi", "channelWidthMHz": 20, "spatialStreams": 1],
            traffic: [["kind": "broadcast", "intervalS": 0.001, "bytes": 1400, "nodes": ["a"]]],
            duration: 3,
            extra: [
                "events": [
                    ["at_s": 1.0005, "node": "a", "action": "fail"], ["at_s": 1.2, "node": "a", "action": "recover"],
                    ["at_s": 1.3001, "node": "a", "action": "fail"], ["at_s": 1.8, "node": "a", "action": "recover"],
                    ["at_s": 1.90007, "node": "a", "action": "fail"]
                ]
            ])
        let r = try ScenarioRunner.run(s)
        let a = r.link[0], b = r.link[1]
        let cutShort = a.dataTransmissions - a.delivered
        expect(cutShort >= 1 && cutShort <= 3)
        expectEqual(b.received, a.delivered)
        expectEqual(b.receiveFailures, cutShort)
    }

    @Test func aRecoveredSendersPacketsAreNotHeldBehindTheOnesItsFailureDropped() throws {
        // a saturates a unicast link to b, fails at 1 s with packets queued (their MAC sequence
        // numbers already taken), recovers at 2 s, and a second generator sends from 2.2 s. The
        // failure gives the queued packets up, so b's reordering window must move past their
        // numbers (as after the retry limit); otherwise every later packet would wait forever
        // behind them. Every MPDU a's MAC saw acknowledged is then passed up at b: b's
        // receptions equal a's deliveries, after the recovery too.
        let s = try linkScenario(
            nodes: [("a", 0, 0), ("b", 5, 0)],
            radio: ["technology": "wifi", "channelWidthMHz": 20, "spatialStreams": 1],
            traffic: [
                ["kind": "saturated", "from": "a", "to": "b", "bytes": 1000],
                ["kind": "saturated", "from": "a", "to": "b", "bytes": 1000, "start_s": 2.2]
            ],
            duration: 3,
            extra: ["events": [["at_s": 1, "node": "a", "action": "fail"], ["at_s": 2, "node": "a", "action": "recover"]]])
        let r = try ScenarioRunner.run(s)
        expect(r.link[0].retryDrops > 0)  // packets were queued at the failure
        expectEqual(r.link[1].received, r.link[0].delivered)
        expect(r.link[0].delivered > r.link[0].retryDrops + 1000)
    }

    @Test func distanceMaxPlacesTheSecondNodeAtTheRange() throws {
        let s = try decode(validScenario, overrides: ["distance_m=max", "environment.preset=field"]).get()
        let nodes = NodeTable(s)
        expect(close(nodes.position(of: 1, at: .zero).x, MaximumRange(s).metres, 1e-9))
        expect(close(MaximumRange(s).metres, 191.05, 0.05))
        let fixed = try decode(validScenario, overrides: ["distance_m=30"]).get()
        expectEqual(NodeTable(fixed).position(of: 1, at: .zero), Position(x: 30, y: 0, z: 1.2))
        let d = diagnostics(validScenario, overrides: ["distance_m=far"])
        expect(
            d.count == 1
                && d[0].message == "expected a distance in metres, > 0 and ≤ 100000, or \"max\", found a string \"far\""
        )
    }
}

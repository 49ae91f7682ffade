import Foundation
import Testing
@testable import AdHocSim

/// Flows across the mesh (`flows[i].via: "mesh"`): IP follows the sender's source route, hop by
/// hop through the relays' transmit queues and radios.
///
/// The geometry is `MeshScenarioText`'s: a field without shadowing or fading, plain Wi-Fi at
/// 20 MHz with one stream. Phones 30 m apart are session peers (−61.2 dBm ≥ −65 dBm), 60 m apart
/// are not (−67.2 dBm), so a line of phones 30 m apart is a chain of one-hop sessions and a flow
/// between its ends must be relayed. Every phone of a line up to 180 m long is within the others'
/// preamble range (191 m, `adhocsim range` for the field), so all of them share one channel.
struct MeshFlowTests {
    /// A line of `count` phones 30 m apart (A, B, C, …) with one flow from the first to the last.
    func line(
        _ count: Int, flow: JSON, mesh: JSON = [:], events: JSON = [], duration: Double = 40
    ) throws -> Scenario {
        let names = ["A", "B", "C", "D", "E", "F", "G"]
        let nodes: [(String, Double, Double)] = (0..<count).map { i in (names[i], 30 * Double(i), 0) }
        return try diamondOrLine(nodes, flow: flow, mesh: mesh, events: events, duration: duration)
    }

    func diamondOrLine(
        _ nodes: [(String, Double, Double)], flow: JSON, mesh: JSON = [:], events: JSON = [], duration: Double = 40
    ) throws -> Scenario {
        var s = TestScenario(
            name: "mesh-flow", seed: 1, duration: duration,
            environment: ["preset": "field", "shadowingSigmaDb": 0, "fadingK": nil],
            radio: ["technology": "wifi", "channelWidthMHz": 20, "spatialStreams": 1])
        s["mesh"] = mesh
        for (id, x, y) in nodes { s.place(id, x, y) }
        s["flows"] = [flow]
        s["events"] = events
        return try s.decoded()
    }

    func bulk(to: String, bytes: Int = 2_000_000, start: Double = 12, transport: String = "tcp") -> JSON {
        [
            "id": "f", "from": "A", "to": .string(to), "protocol": .string(transport), "start_s": .number(start),
            "workload": ["kind": "bulk", "bytes": .integer(bytes)],
        ]
    }

    @Test func aTcpFlowCrossesALineNoSingleHopSpans() throws {
        // A to E is 120 m: four sessions in a row, no direct one.
        let report = try ScenarioRunner.run(line(5, flow: bulk(to: "E")))
        let flow = report.flows[0]
        expectEqual(flow.status, "ok")
        expectEqual(flow.bytesDelivered, 2_000_000)
        let carried = try require(report.mesh?.flows.first)
        expectEqual(carried.counters.lastHops, 4)
        expectEqual(carried.counters.maxHops, 4)
        // Every IP packet that reached either end passed the three relays B, C and D.
        let ends = flow.ipPacketsReceived + flow.serverIpPacketsReceived
        expect(carried.counters.relayed >= 3 * ends)
        // The sessions were up long before the flow started: nothing waited for a route.
        expectEqual(carried.counters.waitedForRoute, 0)
    }

    @Test func fourHopGoodputIsTheSingleHopGoodputOverFourHopsOfAirtime() throws {
        // All five phones share one channel, so each byte costs one transmission per hop: the
        // channel's airtime bounds four-hop goodput by a quarter of one-hop goodput over the same
        // mesh (same MTU, same headers). Contention between the relays and the source, and
        // relay queues overflowing, take some of it (Fu et al., "The impact of multihop wireless
        // channel on TCP throughput and loss", INFOCOM 2003): the test allows down to 70 % of the
        // bound and 5 % above it.
        let one = try require(ScenarioRunner.run(line(2, flow: bulk(to: "B"))).flows[0].goodputMbps)
        let four = try require(ScenarioRunner.run(line(5, flow: bulk(to: "E"))).flows[0].goodputMbps)
        let bound = one / 4
        expect(four <= bound * 1.05, "four hops \(four) Mbit/s against the bound \(bound)")
        expect(four >= bound * 0.7, "four hops \(four) Mbit/s against the bound \(bound)")
    }

    @Test func aFlowStartedBeforeAnyRouteWaitsInTheSendBufferAndGoesWhenOneArrives() throws {
        // At t = 0 no heartbeat has been heard: the SYN waits in the send buffer (RFC 4728 §4.1)
        // instead of being lost, and nothing is dropped for want of a route.
        let report = try ScenarioRunner.run(line(4, flow: bulk(to: "D", bytes: 200_000, start: 0)))
        let carried = try require(report.mesh?.flows.first)
        expect(carried.counters.waitedForRoute >= 1)
        expectEqual(carried.counters.noRouteDrops, 0)
        expectEqual(report.flows[0].status, "ok")
        // The handshake could not finish before the mesh held a route both ways.
        let n = report.scenario.nodes.count
        let firstA = try require(report.mesh?.firstRoutes.first { $0.from == 0 && $0.to == n - 1 }?.time)
        let firstD = try require(report.mesh?.firstRoutes.first { $0.from == n - 1 && $0.to == 0 }?.time)
        let handshake = try require(report.flows[0].handshakeMs)
        expect(handshake / 1000 >= max(firstA, firstD).inSeconds - 1e-9)
    }

    @Test func classicDsrDiscoversTheRouteTheFlowAsksFor() throws {
        // On-demand: no route exists until the flow's first datagram asks for one.
        let report = try ScenarioRunner.run(
            line(4, flow: bulk(to: "D", bytes: 200_000), mesh: ["routing": "dsr"]))
        let carried = try require(report.mesh?.flows.first)
        expect(carried.counters.waitedForRoute >= 1)
        expectEqual(carried.counters.lastHops, 3)
        expectEqual(report.flows[0].status, "ok")
        expectEqual(report.flows[0].bytesDelivered, 200_000)
    }

    @Test(ScaleCheck.trait) func aRelayFailingMidFlowIsSeenByTheTransportAndTheFlowGoesOnByTheOtherRelay() throws {
        // A diamond: A (0, 0), B (25, 20), C (25, −20), D (50, 0). A–B, B–D, A–C and C–D are
        // 32 m (sessions); A–D is 50 m, −65.6 dBm, below the discovery threshold: two 2-hop
        // routes. The relay the flow uses when it starts fails 8 s later.
        let nodes: [(String, Double, Double)] = [("A", 0, 0), ("B", 25, 20), ("C", 25, -20), ("D", 50, 0)]
        let cbr: JSON = [
            "id": "f", "from": "A", "to": "D", "protocol": "tcp", "start_s": 12,
            "workload": ["kind": "cbr", "rateMbps": 2, "size": 1000],
        ]
        let probe = try ScenarioRunner.run(diamondOrLine(nodes, flow: cbr, duration: 12.5))
        let relay = try require(probe.mesh?.routes.first { $0.from == 0 && $0.to == 3 }?.path[1])
        let name = relay == 1 ? "B" : "C"
        let report = try ScenarioRunner.run(
            diamondOrLine(nodes, flow: cbr, events: [["at_s": 20, "node": .string(name), "action": "fail"]]))
        let flow = report.flows[0]
        let carried = try require(report.mesh?.flows.first)
        // Packets sent to the dead relay were lost at that hop, TCP retransmitted them, and the
        // datagrams after the repair took the other relay.
        expect(carried.counters.brokenHopDrops >= 1)
        expect(flow.retransmissions >= 1)
        expect(carried.counters.routeChanges >= 1)
        let last = try require(report.mesh?.routes.first { $0.from == 0 && $0.to == 3 }?.path)
        expect(!last.contains(relay))
        // 28 s of 2 Mbit/s were written; all but the last round trip's worth arrived.
        expect(Double(flow.bytesDelivered) >= 0.95 * Double(flow.bytesSent))
    }

    @Test func eachTransportCrossesTheMesh() throws {
        for transport in ["udp", "quic"] {
            let thesis: JSON = [
                "id": "f", "from": "A", "to": "D", "protocol": .string(transport), "start_s": 12,
                "workload": ["kind": "thesis", "probes": 20, "packets": 50, "size": 1000],
            ]
            let report = try ScenarioRunner.run(line(4, flow: thesis))
            expectEqual(report.flows[0].status, "ok", "\(transport)")
            expect(report.flows[0].rttMean != nil, "\(transport)")
            expectEqual(report.mesh?.flows.first?.counters.lastHops, 3, "\(transport)")
        }
    }

    @Test func aFlowViaTheLinkStaysOffTheMesh() throws {
        // "via": "link" sends straight to the peer even in a scenario with a mesh: the flow is
        // not carried (no mesh counters) and still completes over its one hop.
        let flow: JSON = [
            "id": "f", "from": "A", "to": "B", "protocol": "tcp", "via": "link", "start_s": 12,
            "workload": ["kind": "bulk", "bytes": 100_000],
        ]
        let report = try ScenarioRunner.run(line(3, flow: flow))
        expectEqual(report.flows[0].status, "ok")
        expect(report.mesh?.flows.isEmpty == true)
    }

    @Test func aFlowViaTheMeshNeedsAMesh() throws {
        var t = TestScenario(name: "x", seed: 1, duration: 10, radio: nil)
        t.place("A", 0, 0)
        t.place("B", 10, 0)
        t["flows"] = [
            ["id": "f", "from": "A", "to": "B", "protocol": "tcp", "via": "mesh", "workload": ["kind": "bulk", "bytes": 1000]]
        ]
        let text = t.text
        let d = diagnostics(text)
        expectEqual(d.count, 1)
        expectEqual(d.first?.path, "flows[0].via")
        expect(d.first?.message.contains("no \"mesh\" section") == true)
        let bad = diagnostics(text.replacingOccurrences(of: "\"via\": \"mesh\"", with: "\"via\": \"air\""))
        expectEqual(bad.first?.path, "flows[0].via")
        expect(bad.first?.message.contains("\"link\", \"mesh\"") == true)
    }

    @Test func aMultiHopFlowRunsTheSameTwice() throws {
        let s = try line(4, flow: bulk(to: "D", bytes: 300_000))
        let a = try ScenarioRunner.run(s), b = try ScenarioRunner.run(s)
        expectEqual(a.fingerprint, b.fingerprint)
        expectEqual(a.flows[0].goodputMbps, b.flows[0].goodputMbps)
        expectEqual(a.mesh?.flows, b.mesh?.flows)
    }
}

/// What a user reads about flows across the mesh: the sweep's columns and charts, the check.
struct MeshFlowOutputTests {
    /// Four phones 30 m apart in a line over Wi-Fi, a bulk flow from A swept to B, C and D.
    static let lineText: String = {
        var t = TestScenario(
            name: "hops", seed: 3, duration: 30, environment: ["preset": "field", "shadowingSigmaDb": 0, "fadingK": .null],
            radio: ["technology": "wifi", "channelWidthMHz": 20, "spatialStreams": 1])
        for (id, x) in [("A", 0.0), ("B", 30), ("C", 60), ("D", 90)] { t.place(id, x, 0) }
        t["mesh"] = [:]
        t["flows"] = [
            [
                "id": "f", "from": "A", "to": "B", "protocol": "tcp", "start_s": 12,
                "workload": ["kind": "bulk", "bytes": 100000],
            ]
        ]
        t["matrix"] = ["flows[0].to": ["B", "C", "D"]]
        return t.text
    }()

    @Test func aSweepSaysHowManyHopsEachFlowTookAndPlotsAgainstThem() throws {
        let dir = try temporaryFolder(["s.json": MeshFlowOutputTests.lineText])
        expectEqual(try CLI.run(["sweep", "s.json", "--out", "s1", "-j", "1", "--quiet"], in: dir).status, 0)
        expectEqual(try CLI.run(["sweep", "s.json", "--out", "s2", "-j", "2", "--quiet"], in: dir).status, 0)
        let one = try String(contentsOf: dir.appendingPathComponent("s1/cells.csv"), encoding: .utf8)
        let two = try String(contentsOf: dir.appendingPathComponent("s2/cells.csv"), encoding: .utf8)
        expectEqual(one, two)
        let rows = CSVTable.records(one).rows
        let header = try require(rows.first)
        let to = try require(header.firstIndex(of: "param.flows[0].to"))
        let hops = try require(header.firstIndex(of: "mesh_flow_hops"))
        let flow = try require(header.firstIndex(of: "flow"))
        // B, C and D are one, two and three sessions away from A.
        var seen: [String: String] = [:]
        for r in rows.dropFirst() where r.count == header.count && r[flow] == "f" { seen[r[to]] = r[hops] }
        expectEqual(seen, ["B": "1", "C": "2", "D": "3"])
        expectEqual(try CLI.run(["plot", "s1"], in: dir).status, 0)
        let charts = try listing(dir.appendingPathComponent("s1/plots"))
        expect(charts.contains("goodput-vs-hops.svg"))
        expect(charts.contains("rtt-vs-hops.svg"))
    }

    @Test func checkReportsWhetherAFlowDeliveredWhatItWrote() throws {
        let text = MeshFlowOutputTests.lineText
            .replacingOccurrences(of: ",\n     \"matrix\": {\"flows[0].to\": [\"B\", \"C\", \"D\"]}", with: "")
            .replacingOccurrences(of: "\"to\": \"B\"", with: "\"to\": \"D\"")
        let good = text.replacingOccurrences(
            of: "\"mesh\": {},",
            with: "\"mesh\": {}, \"expectations\": [{\"metric\": \"flow_delivered\", \"flow\": \"f\", \"min\": 1}],")
        let dir = try temporaryFolder(["good.json": good])
        let run = try CLI.run(["check", "good.json"], in: dir)
        expectEqual(run.status, 0, "\(run.stdout)\(run.stderr)")
        expect(run.stdout.contains("flow f delivered"))
        expect(run.stdout.contains("100000/100000 bytes"))
        let bad = diagnostics(
            text.replacingOccurrences(
                of: "\"mesh\": {},",
                with: "\"mesh\": {}, \"expectations\": [{\"metric\": \"flow_delivered\", \"flow\": \"g\", \"min\": 1}],"
            ))
        expectEqual(bad.first?.path, "expectations[0].flow")
        expect(bad.first?.message.contains("no flow is named \"g\" (known: f)") == true)
    }
}

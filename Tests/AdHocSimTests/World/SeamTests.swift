import Foundation
import Testing
@testable import AdHocSim

@Suite("Layer seams")
struct SeamTests {
    @Test func flowSidesAreTheOnePlaceOfTheIndexArithmetic() {
        for k in 0..<5 {
            expectEqual(FlowSide.client(k).index, 2 * k)
            expectEqual(FlowSide.server(k).index, 2 * k + 1)
            expectEqual(FlowSide(index: 2 * k + 1), .server(k))
            expectEqual(FlowSide.client(k).peer, .server(k))
        }
    }

    @Test func everyEventKindBelongsToItsLayersBlock() {
        expect(
            [EventKind.macAccess, .macTxEnd, .macAckTimeout, .macRespond, .idealTxEnd, .idealArrival].allSatisfy {
                $0.block == .link
            })
        expect([EventKind.trafficStart, .broadcastTick].allSatisfy { $0.block == .linkTraffic })
        expect(
            [EventKind.flowStart, .testStart, .cbrTick, .transferDue, .hostWake].allSatisfy { $0.block == .application }
        )
        expect([EventKind.mobilityTick, .nodeEvent].allSatisfy { $0.block == .world })
        expect(
            [EventKind.meshHeartbeat, .meshMessage, .meshConfirmTimeout, .meshRequestTimeout]
                .allSatisfy { $0.block == .layer && MeshNetwork.owns($0) && !BleNetwork.owns($0) })
        expect(
            [EventKind.sessionRound, .bonjourQuery, .reliableResend, .transferStart, .handshakeTimer]
                .allSatisfy { $0.block == .layer && SessionEvents.owns($0) && !MeshNetwork.owns($0) })
        expect(
            [EventKind.tcpRetransmit, .tcpDelayedAck, .tcpKeepalive, .quicLossDetection, .quicAckDelay]
                .allSatisfy { $0.block == .transport })
        expectEqual(EventKind.holdModel.block, .unassigned)
    }

    /// The ideal link's down state: a down node's sends are refused and counted, its queue is
    /// lost; a packet already being serialised still completes.
    @Test func anIdealLinkNodeThatIsDownNeitherSendsNorReceives() throws {
        let s = try linkScenario(
            nodes: [("A", 0, 0), ("B", 10, 0)], radio: ["technology": "ideal"],
            extra: ["link": ["rateMbps": 8, "delayMs": 1]])
        var sim = Simulation(seed: 1)
        var link = IdealLink(
            s, radio: RadioConfiguration(s.radio), place: PlaceParameters.resolve(s.environment, frequencyHz: 5.8e9),
            positions: [Position(x: 0, y: 0, z: 0), Position(x: 10, y: 0, z: 0)], sim: &sim)
        let p = LinkPacket(source: 0, destination: 1, bytes: 1000, owner: .linkTraffic, tag: 0, enqueued: .zero)
        expect(link.send(p, sim: &sim) && link.send(p, sim: &sim) && link.send(p, sim: &sim))
        link.setDown(0, sim: &sim)
        expectEqual(link.counters(of: 0).retryDrops, 2)  // the two waiting; the first is on the wire
        expect(!link.send(p, sim: &sim) && link.counters(of: 0).queueDrops == 1)
        link.setUp(0, sim: &sim)
        expect(link.send(p, sim: &sim))
        expectEqual(link.notices.filter { $0.kind == .dropped }.count, 2)
    }
}

/// A thesis test whose probes exceed the TCP send buffer used to trap
/// ("write beyond the send buffer"). Probes and echoes now wait for room, as blocking socket
/// writes do, and every probe is still timed.
@Suite("Blocking writes")
struct BlockingWriteTests {
    @Test func probesBeyondTheSendBufferWaitForRoom() throws {
        var t = TestScenario.twoPhones(
            name: "b", duration: 30, radio: ["technology": "ideal"], protocol: "tcp",
            workload: ["kind": "thesis", "probes": 200, "packets": 10, "size": 100])
        t["link"] = ["rateMbps": 10, "delayMs": 5]
        t["transport"] = ["tcp": ["sendBufferBytes": 1024]]
        let scenario = try t.decoded()
        let report = try ScenarioRunner.run(scenario)
        // 200 probes of 12 bytes = 2400 bytes, more than twice the 1024-byte buffer: all timed.
        let rtts = report.flows[0].rttsMs
        expectEqual(rtts.count, 200)
        expectEqual(report.flows[0].status, "ok")
        // The buffer takes 85 probes; the other 115 enter only as ACKs free room, so the last
        // probe waits at least two more round trips (2 × 10 ms) than the first.
        expect(rtts[199] - rtts[0] >= 20)
    }
}

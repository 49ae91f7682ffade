import Foundation
import Testing

@testable import AdHocSim

/// The mechanisms that make the simulated phone behave like a phone (issue "Fidelity"), each
/// checked against a hand calculation.
@Suite("Fidelity mechanisms")
struct FidelityTests {
    static let slot = AwdlSchedule.slotDuration  // 65.536 ms

    /// AWDL presence follows traffic: on an idle pair (slots 0–3 on channel 149) a frame queued
    /// in slot 5 waits for slot 0 of the next sequence; from that slot on both peers advertise
    /// the active sequence, so slot 4 of that sequence is shared too; one hold after the last
    /// frame they are idle again.
    @Test func aQueuedFrameWaitsForTheNextSharedSlotThenPresenceExtends() {
        var s = AwdlSchedule(
            idle: [AwdlSchedule.idleOccupancy, AwdlSchedule.idleOccupancy],
            active: [AwdlSchedule.activeOccupancy, AwdlSchedule.activeOccupancy],
            hold: AwdlSchedule.sequenceDuration, dataChannelIs6: false)
        let now = FidelityTests.slot * 5 + .milliseconds(1)
        let nextSequence = AwdlSchedule.sequenceDuration  // slot 16 = slot 0 of the next sequence
        #expect(s.nextWindow(0, 1, from: now, lasting: .microseconds(100)) == nextSequence)
        #expect(!s.isPresent(0, at: nextSequence + FidelityTests.slot * 4))  // idle: slot 4 is off
        s.trafficQueued(0, 1, now: now)
        // The queued frame still leaves at the next shared slot ...
        #expect(s.nextWindow(0, 1, from: now, lasting: .microseconds(100)) == nextSequence)
        // ... but from there on both are on the active sequence: slot 4 and slot 9 are shared.
        #expect(s.isPresent(0, at: nextSequence + FidelityTests.slot * 4))
        #expect(s.isPresent(1, at: nextSequence + FidelityTests.slot * 9))
        #expect(
            s.nextWindow(0, 1, from: nextSequence + FidelityTests.slot * 6, lasting: .microseconds(100))
                == nextSequence + FidelityTests.slot * 9)
        // Slot 8 (channel 6) never carries data on channel 149.
        #expect(!s.isPresent(0, at: nextSequence + FidelityTests.slot * 8))
        // Active until one hold after the frame was queued (1.0486 + 0.0665 s), counted from the
        // activation: slots starting before 2 × 1.048576 s are active, later ones idle again.
        #expect(s.isPresent(0, at: nextSequence + FidelityTests.slot * 12))
        #expect(!s.isPresent(0, at: nextSequence * 2 + FidelityTests.slot * 4))
    }

    /// Fixed presence (the ablation switch, or `awdlSlots`) never changes with traffic.
    @Test func fixedPresenceIgnoresTraffic() {
        var s = AwdlSchedule(
            occupancy: [AwdlSchedule.defaultOccupancy, AwdlSchedule.defaultOccupancy], dataChannelIs6: false)
        #expect(!s.adaptive)
        s.trafficQueued(0, 1, now: .zero)
        #expect(!s.isPresent(0, at: FidelityTests.slot * 4))
        #expect(s.isPresent(0, at: FidelityTests.slot * 9))
    }

    /// End to end on the ideal link: P probes written back to back through a connection queue
    /// of service time c leave c apart, so the k-th echo comes back about k·c later than the
    /// first (UDP, no Nagle; the link adds the same delay to every probe).
    @Test func theHostQueueRaisesTheKthProbeRttByKTimesC() throws {
        let text = """
            {"name": "h", "seed": 1, "duration_s": 10, "environment": {"preset": "field"}, "radio": {"technology": "ideal"},
             "link": {"rateMbps": 1000, "delayMs": 5}, "host": {"sendUs": 200, "receiveUs": 0},
             "nodes": [{"id": "c", "position": [0, 0, 1.2]}, {"id": "s", "position": [10, 0, 1.2]}],
             "flows": [{"id": "f", "from": "c", "to": "s", "protocol": "udp",
                        "workload": {"kind": "thesis", "probes": 20, "packets": 1, "size": 100}}]}
            """
        let r = try ScenarioRunner.run(try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "h.json"))
        let rtts = r.flows[0].rttsMs
        #expect(rtts.count == 20)
        // Probe k leaves at (k+1)·0.2 ms; its echo is queued at the server behind the earlier
        // echoes, whose sends take 0.2 ms each but start only as probes arrive 0.2 ms apart: so
        // echo k leaves 0.2 ms after probe k arrives. RTT_k = (k+1)·0.2 + 10 + 0.2 + serialisation.
        for k in 0..<20 {
            #expect(abs(rtts[k] - rtts[0] - 0.2 * Double(k)) < 0.01, "probe \(k): \(rtts[k]) ms")
        }
        #expect(abs(rtts[0] - 10.4) < 0.05)
    }
}

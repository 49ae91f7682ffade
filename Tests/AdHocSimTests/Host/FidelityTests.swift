import Foundation
import Testing

@testable import AdHocSim

/// The mechanisms that make the simulated phone behave like a phone, each
/// checked against a hand calculation.
@Suite("Fidelity mechanisms")
struct FidelityTests {
    static let slot = AwdlSchedule.slotDuration  // 65.536 ms

    /// Two phones on the logged idle and active sequences, channel 149.
    static func loggedSchedule(hold: SimTime = AwdlSchedule.sequenceDuration, switchUp: SimTime = .zero) -> AwdlSchedule
    {
        AwdlSchedule(
            idle: [AwdlSchedule.idleOccupancy, AwdlSchedule.idleOccupancy],
            active: [AwdlSchedule.activeOccupancy, AwdlSchedule.activeOccupancy],
            hold: hold, switchUp: switchUp, dataChannelIs6: false)
    }

    /// AWDL presence follows traffic, with the logged sequences: idle, channel 149 in slots 0,
    /// 9, 10 (slot 8 is channel 6); active, slots 0–5 and 9–13. A frame queued in slot 1 waits
    /// for slot 9 (8 slots, 524 ms, after the end of slot 0); from that slot on both peers
    /// advertise the active sequence, so slots 11–13 are shared too but 14 is not; one hold
    /// after the activation they are idle again.
    @Test func aQueuedFrameWaitsForTheNextSharedSlotThenPresenceExtends() {
        let slot = FidelityTests.slot
        var s = FidelityTests.loggedSchedule()
        let now = slot * 1 + .milliseconds(1)
        expectEqual(s.nextWindow(0, 1, from: now, lasting: .microseconds(100)), slot * 9)
        expect(!s.isPresent(0, at: slot * 11))  // idle: slot 11 is off
        s.trafficQueued(0, 1, now: now)
        // The queued frame still leaves at the next shared slot ...
        expectEqual(s.nextWindow(0, 1, from: now, lasting: .microseconds(100)), slot * 9)
        // ... but from there on both are on the active sequence: 11 and 13 are shared, 14 not.
        expect(s.isPresent(0, at: slot * 11))
        expect(s.isPresent(1, at: slot * 13))
        expect(!s.isPresent(0, at: slot * 14))
        expectEqual(s.nextWindow(0, 1, from: slot * 14, lasting: .microseconds(100)), slot * 16)
        // Slot 8 (channel 6) never carries data on channel 149.
        expect(!s.isPresent(0, at: slot * 8))
        // Active for one hold (1.048576 s = 16 slots) from the activation at slot 9: slots
        // starting before slot 25 are active (slot 18 = slot 2 of the next sequence is on),
        // later ones idle again (slot 27 = slot 11 is off).
        expect(s.isPresent(0, at: slot * 18))
        expect(!s.isPresent(0, at: slot * 27))
    }

    /// The idle sequence's wait from a given phase, by hand: a frame queued 1 ms into slot 1
    /// waits until slot 9 begins, 8 × 65.536 − 1 = 523.288 ms; one queued 1 ms into slot 11
    /// waits for slot 0 of the next sequence, 5 × 65.536 − 1 = 326.68 ms.
    @Test func theIdleSequenceWaitsEightOrFiveSlots() {
        let slot = FidelityTests.slot
        let s = FidelityTests.loggedSchedule()
        for (from, wait) in [(slot * 1, SimTime.microseconds(523_288)), (slot * 11, .microseconds(326_680))] {
            let t = from + .milliseconds(1)
            expectEqual(s.nextWindow(0, 1, from: t, lasting: .microseconds(100))! - t, wait)
        }
    }

    /// The switch-up delay: traffic queued 1 ms into shared slot 9. Without delay the pair is
    /// active from slot 10 (the next shared slot), so slot 11 is on; with 200 ms the first
    /// slot starting after 9·65.536 + 1 + 200 = 790.8 ms is 13 (851.968 ms), the first shared
    /// idle slot from there is slot 16, so slot 11 stays off and slot 17 (slot 1) is on.
    @Test func theSwitchUpDelaysTheActiveSequence() {
        let slot = FidelityTests.slot
        func schedule(_ switchUp: SimTime) -> AwdlSchedule {
            var s = FidelityTests.loggedSchedule(hold: .seconds(5), switchUp: switchUp)
            s.trafficQueued(0, 1, now: slot * 9 + .milliseconds(1))
            return s
        }
        let quick = schedule(.zero), slow = schedule(.milliseconds(200))
        expect(quick.isPresent(0, at: slot * 11))
        expect(!slow.isPresent(0, at: slot * 11))
        expect(slow.isPresent(0, at: slot * 17) && slow.isPresent(1, at: slot * 17))
    }

    /// Fixed presence (the ablation switch, or `awdlSlots`) never changes with traffic.
    @Test func fixedPresenceIgnoresTraffic() {
        var s = AwdlSchedule(
            occupancy: [AwdlSchedule.defaultOccupancy, AwdlSchedule.defaultOccupancy], dataChannelIs6: false)
        expect(!s.adaptive)
        s.trafficQueued(0, 1, now: .zero)
        expect(!s.isPresent(0, at: FidelityTests.slot * 4))
        expect(s.isPresent(0, at: FidelityTests.slot * 9))
    }

    /// End to end on the ideal link: P probes written back to back through a connection queue
    /// of service time c leave c apart, so the k-th echo comes back about k·c later than the
    /// first (UDP, no Nagle; the link adds the same delay to every probe).
    @Test func theHostQueueRaisesTheKthProbeRttByKTimesC() throws {
        var s = TestScenario.twoPhones(
            name: "h", radio: ["technology": "ideal"], protocol: "udp",
            workload: ["kind": "thesis", "probes": 20, "packets": 1, "size": 100])
        s["link"] = ["rateMbps": 1000, "delayMs": 5]
        s["host"] = ["sendUs": 200, "receiveUs": 0, "packetUs": 0, "spread": 0, "coldFactor": 1]
        let r = try s.run()
        let rtts = r.flows[0].rttsMs
        expectEqual(rtts.count, 20)
        // Probe k leaves at (k+1)·0.2 ms; its echo is queued at the server behind the earlier
        // echoes, whose sends take 0.2 ms each but start only as probes arrive 0.2 ms apart: so
        // echo k leaves 0.2 ms after probe k arrives. RTT_k = (k+1)·0.2 + 10 + 0.2 + serialisation.
        for k in 0..<20 {
            expect(abs(rtts[k] - rtts[0] - 0.2 * Double(k)) < 0.01, "probe \(k): \(rtts[k]) ms")
        }
        expect(abs(rtts[0] - 10.4) < 0.05)
    }

    /// QUIC packs queued writes (RFC 9000 §12.4, §13): 1100 probes of 12 bytes written at one
    /// instant. Unpacked, each is a packet (≥ 1100 plus the handshake). Packed, the first ones
    /// leave one per packet while the congestion window has room (RFC 9002 §7.2: initial
    /// window 14 720 bytes = 267 packets of 12 + 43 bytes), and the rest, queued behind it,
    /// share packets of up to 1 400 bytes: about 275 data packets instead of 1100. ACK-only
    /// packets for the server's echoes come on top in both cases, so the check is the ratio.
    @Test func quicPacksSmallQueuedWrites() throws {
        func packets(coalesce: Bool) throws -> UInt64 {
            var s = TestScenario.twoPhones(
                name: "q", radio: ["technology": "ideal"], protocol: "quic",
                workload: ["kind": "thesis", "probes": 1100, "packets": 1, "size": 100, "startPhase": "connect"])
            s["link"] = ["rateMbps": 100, "delayMs": 5]
            s["host"] = ["sendUs": 0, "receiveUs": 0]
            s["transport"] = ["quic": ["coalesce": .bool(coalesce)]]
            let r = try s.run()
            expect(r.flows[0].rttsMs.count == 1100 && r.flows[0].status == "ok")
            return r.flows[0].ipPacketsSent
        }
        let unpacked = try packets(coalesce: false)
        let packed = try packets(coalesce: true)
        expect(unpacked >= 1100)
        expect(2 * packed < unpacked, "\(packed) packets packed, \(unpacked) unpacked")
    }
}

/// The second spatial stream from the place's scattering (`SpatialStreamModel`).
@Suite("Spatial streams")
struct SpatialStreamTests {
    /// SNR₂ / SNR = 1 / (4·(K + 1)): −6.02 dB in pure scattering, −16.43 dB with K = 10 (field),
    /// −10.79 dB with K = 2 (street); `ideal` and no fading keep the full SNR.
    @Test func theSecondStreamLosesWhatTheLineOfSightCannotCarry() {
        let m = SpatialStreamModel.scattering
        expect(abs(Decibel.db(fromLinear: m.secondStreamGain(k: 0)) + 6.0206) < 1e-3)
        expect(abs(Decibel.db(fromLinear: m.secondStreamGain(k: 10)) + 16.435) < 1e-3)
        expect(abs(Decibel.db(fromLinear: m.secondStreamGain(k: 2)) + 10.792) < 1e-3)
        expect(m.secondStreamGain(k: nil) == 1 && SpatialStreamModel.ideal.secondStreamGain(k: 0) == 1)
    }

    /// A one-stream frame's airtime uses one LTF and half the bits per symbol: at 80 MHz MCS 7,
    /// 1500 bytes take 84 µs with one stream and 68 µs with two (radio tests' hand values), so a
    /// link that falls back to one stream pays the one-stream airtime.
    @Test func aFrameCarriesItsOwnStreamCount() {
        let phy = OfdmPhy(widthMHz: 80, spatialStreams: 2)
        expectEqual(phy.airtimeNanos(psduBytes: 1500, mcs: Mcs(index: 7, streams: 1)), 84_000)
        expectEqual(phy.airtimeNanos(psduBytes: 1500, mcs: Mcs(index: 7)), 68_000)
        expectEqual(phy.rateBitsPerSecond(Mcs(index: 9, streams: 1)), 390e6)
    }

    /// In an open field at 10 m the two-stream link loses rate to the rank-one channel: the
    /// thesis transfer is slower with the scattering model than with both streams at full SNR.
    @Test func aLineOfSightFieldLinkIsSlowerThanTheIdealTwoStreamLink() throws {
        func rate(_ model: String) throws -> Double {
            let r = try ThesisMechanismTests.cell(
                "udp", size: 1400, packets: 2000,
                extra: [
                    "environment.preset=field", "radio.spatialStreamModel=\(model)", "environment.fadingK=10",
                    "host.sendUs=0", "host.receiveUs=0"
                ])
            return try require(r.flows[0].dataRateMbps)
        }
        expect(try rate("scattering") < rate("ideal"))
    }
}

/// XNU's FQ-CoDel rules on the phone's interface queue (`InterfaceQueue`).
@Suite("Interface queue")
struct InterfaceQueueTests {
    /// A queue whose packets wait more than the 10 ms target, measured at the end of a 100 ms
    /// interval, is "delay high": a UDP datagram offered then is dropped and its sender paused;
    /// a TCP packet is queued and its sender paused. The sender resumes at the first dequeue
    /// after an interval whose minimum delay is back under the target.
    @Test func aQueueAboveTargetDropsUdpAndFlowControlsTcp() {
        var q = InterfaceQueue(nodes: 1, discipline: .fqCodel)
        for _ in 0..<4 { q.enqueued(0) }
        let first = q.admit(0, flowControlled: false)
        expectEqual(first, .accept)  // nothing measured yet
        // Dequeue at 20 ms of a packet queued at 0: 20 ms > 10 ms at the first update.
        q.dequeued(0, enqueuedAt: .zero, now: .milliseconds(20))
        expect(q.delayHigh[0])
        let udp = q.admit(0, flowControlled: false)
        expect(udp == .dropAndPause && q.drops[0] == 1 && q.paused[0])
        let tcp = q.admit(0, flowControlled: true)
        expectEqual(tcp, .acceptAndPause)
        // Within the interval (until 120 ms) nothing is re-decided, even for a short delay.
        q.dequeued(0, enqueuedAt: .milliseconds(48), now: .milliseconds(50))
        expect(q.delayHigh[0] && q.paused[0])
        // At 130 ms the interval's minimum is 2 ms: no longer high, the sender resumes.
        q.dequeued(0, enqueuedAt: .milliseconds(100), now: .milliseconds(130))
        expect(!q.delayHigh[0] && !q.paused[0])
    }

    /// An emptied queue is never "delay high", and `blocking` never drops or pauses.
    @Test func anEmptyQueueAndTheBlockingDisciplineNeverHoldASenderBack() {
        var q = InterfaceQueue(nodes: 1, discipline: .fqCodel)
        q.enqueued(0)
        q.dequeued(0, enqueuedAt: .zero, now: .milliseconds(500))
        expect(!q.delayHigh[0])
        var b = InterfaceQueue(nodes: 1, discipline: .blocking)
        b.enqueued(0)
        b.enqueued(0)
        b.dequeued(0, enqueuedAt: .zero, now: .milliseconds(500))
        let a = b.admit(0, flowControlled: false)
        expect(a == .accept && b.drops[0] == 0)
    }
}

/// The fidelity keys are validated like every other: a wrong value names its JSON path.
@Suite("Fidelity keys")
struct FidelityKeyTests {
    /// Two phones in the city without a radio section, the server's host with its own receive
    /// cost, and a UDP thesis flow.
    static let base: String = {
        var t = TestScenario(name: "k", seed: 1, environment: ["preset": "city"], radio: nil)
        t.place("c", 0, 0)
        t.place("s", 10, 0, ["host": ["receiveUs": 80]])
        t["flows"] = [
            [
                "id": "f", "from": "c", "to": "s", "protocol": "udp",
                "workload": ["kind": "thesis", "probes": 10, "packets": 10, "size": 100]
            ]
        ]
        return t.text
    }()

    @Test(arguments: [
        ("flows[0].workload.startPhase=\"soon\"", "flows[0].workload.startPhase"),
        ("flows[0].workload.startPhase=1.048576", "flows[0].workload.startPhase"),
        ("host.sendUs=-1", "host.sendUs"),
        ("host.receiveUs=1000001", "host.receiveUs"),
        ("host.interfaceQueue=\"red\"", "host.interfaceQueue"),
        ("nodes[1].host.interfaceQueue=\"blocking\"", "nodes[1].host.interfaceQueue"),
        ("radio.awdlPresence=\"sometimes\"", "radio.awdlPresence"),
        ("radio.awdlHoldMs=60001", "radio.awdlHoldMs"),
        ("radio.spatialStreamModel=3", "radio.spatialStreamModel"),
        ("transport.quic.coalesce=1", "transport.quic.coalesce"),
        ("host.packetUs=-0.5", "host.packetUs"),
        ("host.spread=11", "host.spread"),
        ("host.coldFactor=0.5", "host.coldFactor"),
        ("nodes[1].host.warmUpMs=0", "nodes[1].host.warmUpMs"),
        ("host.coolDownMs=0", "host.coolDownMs"),
        ("nodes[0].host.coolDownMs=600001", "nodes[0].host.coolDownMs"),
        ("host.udpReceiveBufferBytes=8388609", "host.udpReceiveBufferBytes"),
        ("host.udpReceiveBufferDatagrams=0", "host.udpReceiveBufferDatagrams"),
        ("nodes[0].host.udpReceiveBufferDatagrams=2.5", "nodes[0].host.udpReceiveBufferDatagrams"),
        ("host.udpSendBufferBytes=-1", "host.udpSendBufferBytes"),
        ("host.udpSendBufferBytes=\"5MB\"", "host.udpSendBufferBytes"),
        ("radio.awdlSwitchUpMs=-1", "radio.awdlSwitchUpMs"),
        ("radio.rateControl=\"arf\"", "radio.rateControl"),
        ("transport.tcp.ackOnPush=\"yes\"", "transport.tcp.ackOnPush")
    ])
    func aBadValueIsReportedAtItsPath(_ override: String, _ path: String) {
        let d = diagnostics(FidelityKeyTests.base, overrides: [override])
        expect(d.count == 1 && d.first?.path == path, "\(d.map(\.message))")
    }

    @Test func goodValuesDecode() throws {
        let s = try decode(
            FidelityKeyTests.base,
            overrides: [
                "flows[0].workload.startPhase=0.5", "host.sendUs=0",
                "radio.awdlPresence=\"fixed\"", "host.interfaceQueue=\"blocking\""
            ]
        ).get()
        expectEqual(s.flows[0].startPhase, .offset(.milliseconds(500)))
        expect(s.host.sendUs == 0 && s.nodes[1].host?.receiveUs == 80 && s.host.interfaceQueue == .blocking)
        // A phone's own host object is the scenario's with its keys replaced: its send cost is
        // the scenario's 0, its receive cost its own 80, the rest the declared defaults.
        expectEqual(s.nodes[1].host?.sendUs, 0)
        expectEqual(s.nodes[1].host?.packetUs, HostSpec().packetUs)
        expectEqual(s.nodes[0].host, nil)
    }
}

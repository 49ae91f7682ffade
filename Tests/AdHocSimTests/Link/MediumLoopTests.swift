import Foundation
import Testing

@testable import AdHocSim

/// The medium's fast receiver loop: the per-slot deafness column, the
/// AWDL presence revision it is keyed on, and the division-free certain-success decision.
struct MediumLoopTests {
    /// Two phones 10 m apart (free space: −51.6 dBm, 30 dB above the preamble threshold).
    func medium() throws -> SharedMedium<Int> {
        let s = try linkScenario(nodes: [("a", 0, 0), ("b", 10, 0)], radio: ["technology": "wifi"])
        let radio = RadioConfiguration(s.radio)
        return SharedMedium(
            channel: WirelessChannel(
                place: PlaceParameters.resolve(s.environment, frequencyHz: radio.frequencyHz), radio: radio,
                positions: s.nodes.map(\.position), seed: 1))
    }

    /// Whether node 1 locked onto a frame node 0 sends at `time` (the frame then ends).
    func heard(_ m: inout SharedMedium<Int>, awdl: AwdlSchedule?, at time: SimTime) -> Bool {
        let slot = m.begin(0, from: 0, awdl: awdl, now: time, airtime: .microseconds(100))
        let locked = m.columns.locked[1] >= 0
        _ = m.end(slot, now: time)
        m.indications.removeAll()
        return locked
    }

    /// A receiver whose MAC listens gets busy, the frame's end, then idle; one whose MAC does
    /// not (an idle 802.11 station) gets only the frame's end. Both have their busy and idle
    /// times stamped by the medium: the frame's start and end.
    @Test func carrierSenseIsStampedForEveryoneAndReportedToListenersOnly() throws {
        var m = try medium()
        for (listening, start) in [(true, SimTime.milliseconds(1)), (false, SimTime.milliseconds(2))] {
            m.setListening(1, listening)
            let end = start + .microseconds(100)
            let slot = m.begin(0, from: 0, awdl: nil, now: start, airtime: .microseconds(100))
            let begun = (0..<m.indications.count).map { m.indications.items[$0] }
            m.indications.removeAll()
            _ = m.end(slot, now: end)
            let ended = (0..<m.indications.count).map { m.indications.items[$0] }
            m.indications.removeAll()
            expectEqual(begun, (listening ? [.busy(node: 1)] : []))
            guard case .frameEnded(node: 1, _) = ended.first else {
                Issue.record("no frameEnded at node 1: \(ended)")
                continue
            }
            expectEqual(ended.dropFirst(), (listening ? [.idle(node: 1)] : []))
            expect(m.busySince(1) == start && m.idleSince(1) == end)
        }
    }

    /// A phone whose radio is off hears nothing; back on, it hears again (the cached column is
    /// recomputed when a radio changes).
    @Test func aRadioSwitchedOffAndOnIsDeafThenHearsAgain() throws {
        var m = try medium()
        expect(heard(&m, awdl: nil, at: .milliseconds(1)))
        m.setOff(1, true)
        expect(!heard(&m, awdl: nil, at: .milliseconds(2)))
        m.setOff(1, false)
        expect(heard(&m, awdl: nil, at: .milliseconds(3)))
    }

    /// With AWDL, presence is per slot: node 1 occupies only slot 0, so it hears node 0 in slot 0,
    /// not in slot 1, and again in slot 0 of the next sequence (the column follows the slot).
    @Test func theDeafnessColumnFollowsTheAwdlSlot() throws {
        var m = try medium()
        let awdl = AwdlSchedule(occupancy: [0xFFFF, 1], dataChannelIs6: false)
        let slot = AwdlSchedule.slotDuration
        expect(heard(&m, awdl: awdl, at: .milliseconds(1)))
        expect(heard(&m, awdl: awdl, at: .milliseconds(2)))
        expect(!heard(&m, awdl: awdl, at: slot + .milliseconds(1)))
        expect(heard(&m, awdl: awdl, at: AwdlSchedule.sequenceDuration + .milliseconds(1)))
        expect(!heard(&m, awdl: awdl, at: AwdlSchedule.sequenceDuration + slot * 2))
    }

    /// `presenceRevision` counts changes of a node's sequence in the slot under way, and only
    /// those. A pair switched at the start of a slot they share (slot 0 of the second sequence)
    /// changes both nodes' sequences there (+2), yet not their presence in it: they switch at a
    /// slot both occupy already. Traffic later in that slot, or for a pair that waits for a later
    /// slot, changes nothing under way.
    @Test func thePresenceRevisionCountsChangesInTheSlotUnderWay() {
        let idle = AwdlSchedule.idleOccupancy, active = AwdlSchedule.activeOccupancy
        var s = AwdlSchedule(
            idle: [idle, idle, idle, idle], active: [active, active, active, active],
            hold: AwdlSchedule.sequenceDuration,
            dataChannelIs6: false)
        let start = AwdlSchedule.sequenceDuration
        expect(s.isPresent(0, at: start) && s.isPresent(1, at: start))
        s.trafficQueued(0, 1, now: start)
        expectEqual(s.presenceRevision, 2)
        expect(s.isPresent(0, at: start) && s.isPresent(1, at: start))
        s.trafficQueued(0, 1, now: start + .milliseconds(5))
        expectEqual(s.presenceRevision, 2)
        // Nodes 2 and 3 in slot 5: they next share slot 0 of the third sequence.
        s.trafficQueued(2, 3, now: start + AwdlSchedule.slotDuration * 5 + .milliseconds(1))
        expectEqual(s.presenceRevision, 2)
        expect(!s.isPresent(2, at: start + AwdlSchedule.slotDuration * 5 + .milliseconds(2)))
    }

    /// The division-free decision never says "surely" when the correctly rounded quotient is
    /// below the threshold, and says it whenever the signal is 2⁻³⁰ (relative) above the bound.
    /// Cases: random magnitudes over 60 decades, and signals within a few ulps of
    /// threshold · noise (where rounding decides).
    @Test func theDivisionFreeDecisionAgreesWithTheQuotient() {
        var stream = RandomStream(seed: 11, name: "test/surely")
        var sure = 0
        for _ in 0..<50_000 {
            let noise = pow(10, -15 + 10 * stream.uniform())
            let threshold = pow(10, -2 + 6 * stream.uniform())
            let k = Double(Int(stream.uniformInt(below: 33)) - 16)
            let near = threshold * noise * (1 + k * 0x1p-52)
            let far = threshold * noise * (1 + 0x1p-30)
            for signal in [near, far, noise * pow(10, -3 + 9 * stream.uniform())] {
                let surely = FrameDecoder.surely(signal, over: noise, atLeast: threshold)
                if surely {
                    sure += 1
                    expect(signal / noise >= threshold)
                }
                if signal == far { expect(surely) }
            }
        }
        expect(sure > 50_000)
    }

    /// An MPDU of a frame decoded with the frame's odds (`FrameDecoder.odds`, once per frame)
    /// is decided by the rule written out: at SINR = signal / noise (times the second stream's
    /// gain on a two-stream MCS), it surely survives at or above the certain-success bound,
    /// surely fails at or below the certain-failure bound, and in between survives when a
    /// uniform draw is below the error table's success probability for its length; no number is
    /// drawn outside the bounds. Cases: one- and two-stream PHYs, every MCS, SINRs from sure
    /// failure to sure success, A-MPDUs of 1 to 24 MPDUs whose lengths mostly repeat; the two
    /// streams are in the same state after each frame.
    @Test func aFramesOddsDecideEachMpduByTheRule() {
        var cases = RandomStream(seed: 12, name: "test/odds")
        var drawn = (survived: 0, lost: 0)
        for (streams, gain) in [(1, 1.0), (2, 0.5)] {
            let phy = OfdmPhy(widthMHz: 80, spatialStreams: streams)
            let decoder = FrameDecoder(phy: phy, secondStreamGain: gain)
            var a = RandomStream(seed: 13, name: "test/odds/\(streams)")
            var b = a
            for _ in 0..<4_000 {
                let mcs = Mcs.all[Int(cases.uniformInt(below: UInt64(Mcs.all.count)))]
                let noise = pow(10, -13 + 3 * cases.uniform())
                let low = decoder.certainFailure[mcs.index] / 2, high = decoder.certainSuccess[mcs.index] * 2
                let signal = noise * low * pow(high / low, cases.uniform())
                let sinr = signal / noise * (phy.streams(mcs) == 2 ? gain : 1)
                var odds = decoder.odds(signalMw: signal, noiseMw: noise, mcs: mcs)
                for _ in 0..<(1 + Int(cases.uniformInt(below: 24))) {
                    let bytes = cases.bernoulli(0.8) ? 1_538 : 40 + Int(cases.uniformInt(below: 1_500))
                    let rule: Bool
                    if sinr >= decoder.certainSuccess[mcs.index] {
                        rule = true
                    } else if sinr <= decoder.certainFailure[mcs.index] {
                        rule = false
                    } else {
                        rule = a.uniform() < decoder.errorTable.successProbability(sinr: sinr, mcs: mcs, bytes: bytes)
                        if rule { drawn.survived += 1 } else { drawn.lost += 1 }
                    }
                    expectEqual(decoder.survives(&odds, bytes: bytes, stream: &b), rule)
                }
                expectEqual(a.next(), b.next())
            }
        }
        expect(drawn.survived > 1_000 && drawn.lost > 1_000, "\(drawn)")
    }

    /// `medianRxDbm(from:to:ifAtLeast:)` (which refuses most pairs without a logarithm) gives
    /// the same answer as comparing `medianRxDbm(from:to:)` with the floor, for every pair of
    /// 30 phones in a city (shadowing on), at floors on a 0.37 dB grid and at floors equal to a
    /// pair's own power (the boundary, where the answer must be that power).
    @Test func theLogFreeFloorAgreesWithTheDbmComparison() throws {
        let nodes: [(String, Double, Double)] = (0..<30).map { k in
            let x = Double(k % 6) * 37.0
            let y = Double(k / 6) * 41.0
            return ("n\(k)", x, y)
        }
        let s = try linkScenario(nodes: nodes, radio: ["technology": "wifi"])
        var place = PlaceParameters.preset(.city, frequencyHz: 5.18e9)
        place.blockage = nil
        let radio = RadioConfiguration(s.radio)
        var sim = Simulation(seed: 3)
        var link = WirelessLink(
            channel: WirelessChannel(place: place, radio: radio, positions: s.nodes.map { $0.position }, seed: 3),
            mac: MacParameters(is24GHz: false), awdl: nil, sim: &sim)
        var reached = 0, refused = 0
        for t in 0..<30 {
            for r in 0..<30 where r != t {
                let exact = link.medianRxDbm(from: t, to: r)
                let floors: [Double] = Array(stride(from: -110.0, through: -30.0, by: 0.37)) + [exact, exact.nextUp]
                for floor in floors {
                    let answer = link.medianRxDbm(from: t, to: r, ifAtLeast: floor)
                    if exact >= floor {
                        expectEqual(answer, exact)
                        reached += 1
                    } else {
                        expect(answer == nil)
                        refused += 1
                    }
                }
            }
        }
        expect(reached > 10_000 && refused > 10_000)
    }
}

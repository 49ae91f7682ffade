import Testing

@testable import AdHocSim

/// A browser loses a peer whose Bonjour answers stop arriving (`mesh.bonjourTtlS`, RFC 6762
/// §10's 120 s for records naming a host; §5.2: queries at 80, 85, 90 and 95 % of the lifetime,
/// the peer lost at 100 %). `MeshScenarioText`'s plain Wi-Fi field: A and B 30 m apart hear each
/// other above the discovery threshold; at 500 m they hear nothing.
struct LostPeerTests {
    func run(ttl: Double?, moveAt: Double?, duration: Double, never: Bool = false) throws -> MeshMetrics {
        let mesh = never ? #"{"bonjourTtlS": null}"# : (ttl.map { "{\"bonjourTtlS\": \($0)}" } ?? "{}")
        let events =
            moveAt.map { "[{\"at_s\": \($0), \"node\": \"B\", \"action\": \"move\", \"position\": [500, 0, 1.2]}]" }
            ?? "[]"
        let s = try MeshScenarioText.scenario(
            [("A", 0, 0), ("B", 30, 0)], mesh: mesh, events: events, duration: duration, seed: 2)
        return try require(try ScenarioRunner.run(s).mesh)
    }

    func heard(_ m: MeshMetrics, _ node: Int32, _ kind: MultipeerEvent.Kind) -> [SimTime] {
        (m.multipeerEvents ?? []).filter { $0.node == node && $0.kind == kind }.map(\.time)
    }

    @Test func theRefreshPointsFallAt80To95PercentAndTheEndAt100() {
        // By hand, a 120 s lifetime from 2 s: 98, 104, 110, 116 s, the end at 122 s.
        let times = (0...4).map { MultipeerSetup.refreshTime($0, of: .seconds(2), ttl: .seconds(120)) }
        expectEqual(times, [98, 104, 110, 116, 122].map { SimTime.seconds($0) })
        let p = AnswerRefresh(advertiser: 70_000, answer: 0xAB_CDEF, point: 4)
        expectEqual(AnswerRefresh(p.argument), p)
    }

    @Test func aPeerInRangeStaysFoundAcrossManyLifetimes() throws {
        // 400 s is over three default lifetimes: the refresh queries' answers keep both found.
        let m = try run(ttl: nil, moveAt: nil, duration: 400)
        for node: Int32 in [0, 1] {
            expectEqual(heard(m, node, .found).count, 1)
            expectEqual(heard(m, node, .lost), [])
        }
    }

    @Test func aPeerThatWalksOutOfRangeIsLostWithinOneLifetime() throws {
        // B leaves at 30 s. The last answer each heard came at most 10 s before (a refresh
        // query at 80 % of a 10 s lifetime brings one every 8 s while in range), so each loses
        // the other after 30 s and at most 10 s after it: in (30, 40] s.
        let m = try run(ttl: 10, moveAt: 30, duration: 60)
        for node: Int32 in [0, 1] {
            let lost = heard(m, node, .lost)
            expectEqual(lost.count, 1, "node \(node)")
            if let t = lost.first { expect(t > .seconds(30) && t <= .seconds(40), "lost at \(t)") }
        }
        // The same run without the walk: nobody is lost.
        let stay = try run(ttl: 10, moveAt: nil, duration: 60)
        expectEqual(heard(stay, 0, .lost) + heard(stay, 1, .lost), [])
    }

    @Test func withAnswersThatNeverExpireNobodyIsLostOnRange() throws {
        // `null`: the earlier model; the walk at 30 s goes unnoticed by both browsers.
        let m = try run(ttl: nil, moveAt: 30, duration: 200, never: true)
        expectEqual(heard(m, 0, .lost) + heard(m, 1, .lost), [])
        expectEqual(heard(m, 0, .found).count, 1)
    }
}

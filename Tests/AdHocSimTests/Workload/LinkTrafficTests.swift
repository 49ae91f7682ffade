import Foundation
import Testing

@testable import AdHocSim

/// Link-layer traffic counters (`LinkTraffic`): a broadcast's deliveries, counted as one run
/// by the world, count as they would one notice at a time.
struct LinkTrafficTests {
    /// Seven receivers get a 100-byte broadcast enqueued at 0.3 s, at 1.0 s: 7 packets, 700
    /// bytes, and a delay sum of 0.7 s added seven times in turn (not 7 × 0.7, which rounds
    /// differently), whether counted as a run or one notice at a time.
    @Test func aRunOfDeliveriesCountsAsItsNotices() {
        var sim = Simulation(seed: 1)
        let spec = TrafficSpec.broadcast(nodes: [0], bytes: 100, interval: .seconds(1), start: .zero)
        var run = LinkTraffic([spec], sim: &sim)
        var oneByOne = LinkTraffic([spec], sim: &sim)
        let packet = LinkPacket(
            source: 0, destination: LinkPacket.broadcast, bytes: 100, owner: .linkTraffic, tag: 1,
            enqueued: .milliseconds(300))
        let now = SimTime.seconds(1)
        run.delivered(packet, count: 7, now: now)
        for r in 1...7 { oneByOne.notice(LinkNotice(kind: .delivered, node: UInt32(r), packet: packet), now: now) }
        var sum = 0.0
        for _ in 0..<7 { sum += (now - packet.enqueued).inSeconds }
        expect(run.counters[0].received == 7 && run.counters[0].receivedBytes == 700)
        expectEqual(run.counters[0].delaySum.bitPattern, sum.bitPattern)
        expectEqual(run.counters, oneByOne.counters)
    }
}

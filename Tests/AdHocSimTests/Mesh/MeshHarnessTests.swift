import Foundation
import Testing
@testable import AdHocSim

/// A link that loses nothing: every packet reaches its destination (a broadcast: every other
/// node) `delay` after it was sent, and its sender is done with it at once. For testing the
/// mesh's routing without a radio. With `loss`, a unicast is lost with that probability
/// instead, as a MAC that gives up would (its sender gets a `.dropped` notice).
struct PerfectLink: LinkTechnology {
    static var hasRadio: Bool { false }
    let nodes: Int
    let delay = SimTime.milliseconds(1)
    var notices: [LinkNotice] = []
    var inTransit: [LinkPacket] = []
    var counters: [LinkCounters]
    var loss = 0.0
    var draws = RandomStream(seed: 1, name: "test/perfect-link")
    /// Unicasts to lose, by their number in sending order (0 first), as a MAC that gives up.
    var dropUnicasts: Set<Int> = []
    var unicastsSent = 0

    init(nodes: Int, loss: Double = 0) {
        self.nodes = nodes
        self.loss = loss
        counters = Array(repeating: LinkCounters(), count: nodes)
    }

    init(
        _ scenario: Scenario, radio: RadioConfiguration, place: PlaceParameters, positions: [Position],
        sim: inout Simulation
    ) {
        self.init(nodes: positions.count)
    }

    var mtu: Int { 1500 }

    mutating func send(_ packet: LinkPacket, sim: inout Simulation) -> Bool {
        counters[Int(packet.source)].enqueued += 1
        if packet.destination != LinkPacket.broadcast {
            unicastsSent += 1
            if dropUnicasts.contains(unicastsSent - 1) {
                notices.append(LinkNotice(kind: .dropped, node: packet.source, packet: packet))
                return true
            }
        }
        if loss > 0 && packet.destination != LinkPacket.broadcast && draws.uniform() < loss {
            notices.append(LinkNotice(kind: .dropped, node: packet.source, packet: packet))
            return true
        }
        inTransit.append(packet)
        sim.schedule(after: delay, target: 0, kind: .idealArrival, arg: UInt64(inTransit.count - 1))
        notices.append(LinkNotice(kind: .senderDone, node: packet.source, packet: packet))
        return true
    }

    mutating func handle(_ event: Event, in sim: inout Simulation) {
        let p = inTransit[Int(event.arg)]
        for r in 0..<nodes
        where r != Int(p.source) && (p.destination == LinkPacket.broadcast || Int(p.destination) == r) {
            notices.append(LinkNotice(kind: .delivered, node: UInt32(r), packet: p))
        }
    }

    func queueRoom(of node: Int) -> Int { .max }
    func counters(of node: Int) -> LinkCounters { counters[node] }
    func isDown(_ node: Int) -> Bool { false }
    mutating func setDown(_ node: Int, sim: inout Simulation) {}
    mutating func setUp(_ node: Int, sim: inout Simulation) {}
    mutating func setPosition(_ node: Int, _ position: Position) {}
    mutating func medianRxDbm(from transmitter: Int, to receiver: Int) -> Double { 0 }
    func forEachNeighbour(of node: Int, _ body: (Int) -> Void) { for j in 0..<nodes where j != node { body(j) } }
}

/// The mesh alone over a fixed neighbour table and a `PerfectLink`: routing is tested by its
/// rules, with no radio, MAC or session formation in the way.
struct MeshHarness: EventHandler {
    var mesh: MeshNetwork
    /// The link. The harness never releases a frame's slot, so no slot is reused while a copy
    /// is still in transit.
    var link: PerfectLink
    /// Whether the mesh hears when its sender is done with a frame (and that a lost one was
    /// dropped), as the world tells it: Multipeer transfers need it to move their window.
    var releases = false

    init(
        peers: [[Int]], config: MeshConfig, messages: [MessageWorkloadSpec] = [], resources: [ResourceSpec] = [],
        streams: [StreamSpec] = [], loss: Double = 0, releases: Bool = false, fixedSessions: Bool = true,
        sim: inout Simulation
    ) {
        mesh = MeshNetwork(
            nodes: peers.count, config: config, workloads: messages, resources: resources, streams: streams,
            sessions: fixedSessions ? SignalSessions(fixed: peers) : nil, sim: &sim)
        link = PerfectLink(nodes: peers.count, loss: loss)
        self.releases = releases
    }

    mutating func handle(_ event: Event, in sim: inout Simulation) {
        if MeshNetwork.owns(event.kind) {
            mesh.handle(event, link: &link, sim: &sim)
        } else if SessionEvents.owns(event.kind) {
            mesh.handleSessionEvent(event, link: &link, sim: &sim)
        } else {
            link.handle(event, in: &sim)
        }
        while true {
            let notices = link.notices
            link.notices = []
            for n in notices {
                if n.kind == .delivered { mesh.delivered(n.packet, at: Int(n.node), link: &link, sim: &sim) }
                if n.kind == .dropped {
                    mesh.linkDropped(n.packet, sim: &sim)
                    if releases { mesh.released(n.packet, dropped: true, sim: &sim) }
                }
                if n.kind == .senderDone && releases { mesh.released(n.packet, sim: &sim) }
            }
            var out: [LinkPacket] = []
            mesh.takeOutbox(swappingWith: &out)
            if out.isEmpty && link.notices.isEmpty { break }
            for p in out { _ = link.send(p, sim: &sim) }
            if !releases { link.notices.removeAll { $0.kind == .senderDone } }
        }
    }
}

func message(from: Int, to: Int, count: Int = 1, start: Double) -> MessageWorkloadSpec {
    MessageWorkloadSpec(
        id: "m", from: from, to: to, sizeBytes: 100, count: count, interval: .seconds(1), start: .seconds(start),
        reliable: true)
}

@Suite("Mesh routing over a fixed neighbour table")
struct MeshHarnessTests {
    let line = [[1], [0, 2], [1, 3], [2]]

    @Test func heartbeatsTeachShortestPathsAlongALine() {
        var sim = Simulation(seed: 3)
        var h = MeshHarness(peers: line, config: MeshConfig(), sim: &sim)
        _ = sim.run(&h, until: .seconds(11))
        // Two full heartbeat periods: every origin's heartbeat crossed the line.
        for a in 0..<4 {
            for b in 0..<4 where a != b {
                let expected = a < b ? Array(a...b) : Array((b...a).reversed())
                expectEqual(h.mesh.route(from: a, to: b, at: sim.now)?.path, expected, "\(a) → \(b)")
            }
        }
        // Each heartbeat is sent by its origin and forwarded once by each of the 3 others, each
        // time to every session peer (`floodSend`): 1 + 2 + 2 + 1 = 6 frames per heartbeat.
        let originated = h.mesh.originated.reduce(0, +)
        expect(originated >= 8)
        expectEqual(h.mesh.framesSent.controlFramesSent.reduce(0, +), 6 * originated)
    }

    @Test func aRouteExpiresWhenItsOriginFallsSilent() {
        // Two nodes in a session, then nothing: a route lives routeTimeout after it was learned.
        var config = MeshConfig()
        config.routeTimeout = .seconds(15)
        var sim = Simulation(seed: 5)
        var h = MeshHarness(peers: [[1], [0]], config: config, sim: &sim)
        _ = sim.run(&h, until: .seconds(6))
        let learned = try! require(h.mesh.route(from: 0, to: 1, at: sim.now)).learned
        expect(h.mesh.route(from: 0, to: 1, at: learned + .seconds(15)) != nil)
        expect(h.mesh.route(from: 0, to: 1, at: learned + .seconds(15) + .nanoseconds(1)) == nil)
    }

    /// Classic DSR on a 4-node line (RFC 4728 §3.1): one request flood and one reply. Control
    /// bytes are 32 + 8 per path node (MeshConfig): the request grows from 1 to 3 nodes as 0, 1
    /// and 2 send it (40, 48, 56 B), to each session peer (1, 2 and 2 copies); the 4-node reply
    /// is sent by 3, 2 and 1 (64 B each). Every frame also carries the encrypted session's
    /// 37-byte DTLS record (RFC 6347 §4.1 header, RFC 5288 nonce and tag).
    @Test func classicDsrDiscoversARouteWithOneRequestAndOneReply() {
        var config = MeshConfig()
        config.routing = .dsr
        config.routeTimeout = .seconds(300)
        var sim = Simulation(seed: 1)
        var h = MeshHarness(peers: line, config: config, messages: [message(from: 0, to: 3, start: 1)], sim: &sim)
        _ = sim.run(&h, until: .seconds(3))
        let r: UInt64 = 37
        let bytes: [UInt64] = [40 + r, 2 * (48 + r) + 64 + r, 2 * (56 + r) + 64 + r, 64 + r]
        expectEqual(h.mesh.framesSent.controlBytes, bytes)
        expectEqual(h.mesh.route(from: 0, to: 3, at: sim.now)?.path, [0, 1, 2, 3])
        expectEqual(h.mesh.route(from: 3, to: 0, at: sim.now)?.path, [3, 2, 1, 0])
        let record = h.mesh.ledger.records[0][0]
        // Found, sent and confirmed: request and reply 3 hops each, message and return 3 each,
        // 1 ms per hop on the perfect link.
        expectEqual(record.delivered, .seconds(1) + .milliseconds(9))
        expectEqual(record.confirmed, .seconds(1) + .milliseconds(12))
        expectEqual(record.hops, 3)
    }

    /// A relay whose session no longer includes the next hop cannot pass a message on; with
    /// classic DSR it forgets the link and sends a route error back to the source, and every
    /// node the error passes forgets routes over that link (RFC 4728 §3.3.5).
    @Test func aBrokenSessionSendsARouteErrorBack() {
        var config = MeshConfig()
        config.routing = .dsr
        config.routeTimeout = .seconds(300)
        var sim = Simulation(seed: 1)
        var h = MeshHarness(
            peers: line, config: config, messages: [message(from: 0, to: 3, count: 2, start: 1)], sim: &sim)
        _ = sim.run(&h, until: .seconds(2))
        expectEqual(h.mesh.route(from: 0, to: 3, at: sim.now)?.path, [0, 1, 2, 3])
        expect(h.mesh.route(from: 1, to: 3, at: sim.now) == nil)  // 1 only relayed
        h.mesh.disconnect(2, 3)
        _ = sim.run(&h, until: .milliseconds(2100))  // the second message leaves at 2 s
        expectEqual(h.mesh.recorder.noSessionDrops, 1)
        expectEqual(h.mesh.recorder.routeErrors, 1)
        expect(h.mesh.route(from: 0, to: 3, at: sim.now) == nil)
        expect(h.mesh.ledger.records[0][1].delivered == nil)
        // The error (path 2 → 1 → 0, 3 nodes: 56 B) was sent by 2 and forwarded by 1 (after the
        // request copies to both peers and the reply), each frame with its 37-byte DTLS record.
        let r: UInt64 = 37
        expectEqual(h.mesh.framesSent.controlBytes[2], 2 * (56 + r) + (64 + r) + (56 + r))
        expectEqual(h.mesh.framesSent.controlBytes[1], 2 * (48 + r) + (64 + r) + (56 + r))
    }
}

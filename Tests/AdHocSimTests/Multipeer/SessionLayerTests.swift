import Testing
@testable import AdHocSim

/// Multipeer's session layer on its own: what it passes up to the routing,
/// driven frame by frame without a routing above it or a radio below it.
@Suite("Session layer")
struct SessionLayerTests {
    /// Two phones in one session; message workload 0 reliable, workload 1 not.
    func layer(takesEveryCopy: Bool = false, peers: [[Int]] = [[1], [0]]) -> SessionLayer {
        let sim = Simulation(seed: 1)
        let reliable = MessageWorkloadSpec(
            id: "r", from: 0, to: 1, sizeBytes: 10, count: 1, interval: .seconds(1), start: .zero, reliable: true)
        var unreliable = reliable
        unreliable.id = "u"
        unreliable.reliable = false
        return SessionLayer(
            nodes: peers.count, config: SessionConfig(), takesEveryCopy: takesEveryCopy,
            reliableWorkloads: [reliable.reliable, unreliable.reliable], pieceBytes: MeshConfig.fragmentPayload,
            resources: [], streams: [],
            sessions: SignalSessions(fixed: peers),
            phones: [], sim: sim)
    }

    /// The routing's message `number` on `path`.
    func routed(_ number: UInt32, workload: Int = 0, path: [Int] = [0, 1]) -> MeshFrame {
        MeshFrame(kind: .message, origin: path[0], seq: 0, path: path, workload: workload, message: Int(number))
    }

    /// The same as it arrives on its hop's session: numbered `number` there when its workload
    /// is reliable (workload 0), as `SessionLayer.send` numbers it.
    func message(_ number: UInt32, workload: Int = 0, path: [Int] = [0, 1]) -> SessionFrame {
        let f = SessionFrame(routed: routed(number, workload: workload, path: path))
        return workload == 0 ? f.numbered(number) : f
    }

    /// `f` from `from` reaches `r`: it takes a slot of the in-flight table as the link carries
    /// it, and the layer reads it from there.
    func arrive(
        _ s: inout SessionLayer, _ f: SessionFrame, at r: Int, from: Int, link: inout PerfectLink, sim: inout Simulation
    ) -> SessionLayer.Arrival {
        s.wire.hand(f, from: from, to: UInt32(r), bytes: 100, now: sim.now)
        return s.receive(Int(s.wire.outbox.last!.tag), at: r, from: from, link: &link, sim: &sim)
    }

    func isFrame(_ a: SessionLayer.Arrival, inOrder: Bool) -> Bool {
        if case .frame(let o) = a { return o == inOrder }
        return false
    }

    func isNothing(_ a: SessionLayer.Arrival) -> Bool {
        if case .nothing = a { return true }
        return false
    }

    /// Reliable frames numbered 0, 1, 2 on the hop 0 → 1 arriving as 2, 1, 0: the first two
    /// are held (nothing goes up), 0 goes up at once and then 1 and 2 in their order; a second
    /// copy of 1 is a duplicate and goes nowhere.
    @Test func reliableFramesGoUpOnceInTheirHopsOrder() {
        var s = layer()
        var link = PerfectLink(nodes: 2)
        var sim = Simulation(seed: 1)
        expect(isNothing(arrive(&s, message(2), at: 1, from: 0, link: &link, sim: &sim)))
        expect(isNothing(arrive(&s, message(1), at: 1, from: 0, link: &link, sim: &sim)))
        expect(isFrame(arrive(&s, message(0), at: 1, from: 0, link: &link, sim: &sim), inOrder: true))
        expectEqual(s.nextInOrder(from: 0, to: 1, now: .zero)?.message, 1)
        expectEqual(s.nextInOrder(from: 0, to: 1, now: .zero)?.message, 2)
        expect(s.nextInOrder(from: 0, to: 1, now: .zero) == nil)
        expect(isNothing(arrive(&s, message(1), at: 1, from: 0, link: &link, sim: &sim)))
    }

    /// An unreliable message goes up whatever its number, and nothing is held behind it; a
    /// frame from a phone outside the receiver's session goes nowhere.
    @Test func unreliableFramesAndStrangersAreNotNumbered() {
        var s = layer(peers: [[1], [0], []])
        var link = PerfectLink(nodes: 3)
        var sim = Simulation(seed: 1)
        expect(isFrame(arrive(&s, message(7, workload: 1), at: 1, from: 0, link: &link, sim: &sim), inOrder: false))
        expect(isNothing(arrive(&s, message(0, path: [2, 1]), at: 1, from: 2, link: &link, sim: &sim)))
    }

    /// A reliable frame whose next hop is another phone is a path-broadcast copy: taken (and
    /// its number used up) only when the routing forwards by path-broadcast.
    @Test func aCopyForAnotherHopIsTakenOnlyWithPathBroadcast() {
        var link = PerfectLink(nodes: 3)
        var sim = Simulation(seed: 1)
        let copy = message(0, path: [0, 2, 1])  // next hop 2, heard by 1
        var nextHop = layer(peers: [[1, 2], [0], [0]])
        expect(isNothing(arrive(&nextHop, copy, at: 1, from: 0, link: &link, sim: &sim)))
        var broadcast = layer(takesEveryCopy: true, peers: [[1, 2], [0], [0]])
        expect(isFrame(arrive(&broadcast, copy, at: 1, from: 0, link: &link, sim: &sim), inOrder: true))
    }

    /// Sending: a reliable frame is numbered per ordered pair (0, 1 to phone 1; 0 to phone 2),
    /// an unreliable one is not (it keeps number 0), and each copy takes a slot of the
    /// in-flight table.
    @Test func sendNumbersReliableFramesPerHop() {
        var s = layer(peers: [[1, 2], [0], [0]])
        s.send(routed(0), from: 0, to: 1, bytes: 100, now: .zero)
        s.send(routed(0), from: 0, to: 1, bytes: 100, now: .zero)
        s.send(routed(0), from: 0, to: 2, bytes: 100, now: .zero)
        s.send(routed(9, workload: 1), from: 0, to: 1, bytes: 100, now: .zero)
        expectEqual(s.wire.partsInFlight.map(\.hopSeq), [0, 1, 0, 0])
        expectEqual(s.wire.partsInFlight.map(\.isNumbered), [true, true, true, false])
        expectEqual(s.wire.routedInFlight.map { $0?.message }, [0, 0, 0, 9])
        expectEqual(s.wire.outbox.map(\.destination), [1, 1, 2, 1])
        expectEqual(s.wire.sent.messageFramesSent, [4, 0, 0])
    }

    /// The layer's own frames and the routing's, told apart by the session frame's body: a
    /// set-up frame is counted as session traffic and never waits for queue room; a heartbeat
    /// is routing control and never waits either (a full queue loses it); a message is message
    /// traffic and waits in its sender's session buffer when the queue has no room.
    @Test func setUpFramesControlAndMessagesAreCountedAndHeldApart() {
        var s = layer()
        let invitation = SetupFrame(kind: .invitation, origin: 0, target: 1, attempt: 3)
        s.wire.hand(SessionFrame(.setup(invitation)), from: 0, to: 1, bytes: 100, now: .zero)
        s.broadcast(MeshFrame(kind: .heartbeat, origin: 0, seq: 1, path: [0]), from: 0, bytes: 40, now: .zero)
        s.send(routed(0, workload: 1), from: 0, to: 1, bytes: 300, now: .zero)
        expect(s.wire.sent.sessionFramesSent == [1, 0] && s.wire.sent.sessionBytes == [100, 0])
        expect(s.wire.sent.controlFramesSent == [1, 0] && s.wire.sent.controlBytes == [40, 0])
        expect(s.wire.sent.messageFramesSent == [1, 0] && s.wire.sent.messageBytes == [300, 0])
        let packets = s.wire.outbox
        expectEqual(packets.map { s.wire.mustHold($0, room: 0) }, [false, false, true])
        expectEqual(packets.map { s.wire.mustHold($0, room: 5) }, [false, false, false])
    }
}

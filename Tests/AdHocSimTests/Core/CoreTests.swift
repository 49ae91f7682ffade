import Testing
@testable import AdHocSim

/// Records the order in which events reach the handler.
struct Recorder: EventHandler {
    var seen: [(time: Int64, target: UInt32, kind: UInt16, arg: UInt64)] = []
    mutating func handle(_ event: Event, in sim: inout Simulation) {
        seen.append((event.time.nanoseconds, event.target, event.kind.rawValue, event.arg))
    }
}

extension EventKind {
    static let testA = EventKind(rawValue: 10)
    static let testB = EventKind(rawValue: 11)
}

@Suite("SimTime")
struct SimTimeTests {
    @Test func constructorsAreIntegerNanoseconds() {
        expectEqual(SimTime.milliseconds(5).nanoseconds, 5_000_000)
        expectEqual(SimTime.microseconds(3).nanoseconds, 3_000)
        expectEqual(SimTime.seconds(2).nanoseconds, 2_000_000_000)
        expectEqual(SimTime.seconds(1.25).nanoseconds, 1_250_000_000)
        expectEqual(SimTime.milliseconds(0.0015).nanoseconds, 1_500)
        expectEqual(SimTime.seconds(1) + .milliseconds(250), SimTime.seconds(1.25))
    }

    @Test func printsThreeDecimalsInTheLargestUnit() {
        expectEqual(SimTime.seconds(1.25).description, "1.250 s")
        expectEqual(SimTime.milliseconds(5).description, "5.000 ms")
        expectEqual(SimTime.nanoseconds(12_500).description, "12.500 µs")
        expectEqual(SimTime.nanoseconds(7).description, "7 ns")
        expectEqual(SimTime.seconds(60).description, "60.000 s")
        // Half a thousandth rounds up: 1.0005 s -> 1.001 s.
        expectEqual(SimTime.nanoseconds(1_000_500_000).description, "1.001 s")
        expectEqual(SimTime.milliseconds(-5).description, "-5.000 ms")
    }
}

@Suite("Event queue")
struct EventQueueTests {
    /// The reference order, computed without any heap: sort by time, then by insertion index.
    static func referenceOrder(_ times: [Int64]) -> [Int] {
        Array(times.indices).sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
    }

    @Test func popsInTimeOrderAndTiesInSchedulingOrder() {
        var stream = RandomStream(seed: 7, name: "test/queue")
        // Few distinct times, so ties are everywhere; values span many radix levels.
        let times = (0..<5000).map { _ in Int64(stream.uniformInt(below: 40)) * 1_000_003 }
        var q = EventQueue(initialCapacity: 16)
        for (i, t) in times.enumerated() {
            q.push(time: .nanoseconds(t), target: UInt32(i), kind: .testA, arg: 0)
        }
        var order: [Int] = []
        while !q.isEmpty { order.append(Int(q.pop().target)) }
        expectEqual(order, EventQueueTests.referenceOrder(times))
    }

    @Test func interleavedPushAndPopMatchAReferenceModel() {
        // Model: a plain array kept sorted by (time, seq) with insertion after equal keys.
        for seed in UInt64(1)...20 {
            var stream = RandomStream(seed: seed, name: "test/interleaved")
            var q = EventQueue(initialCapacity: 1)
            var model: [(time: Int64, seq: Int)] = []
            var now: Int64 = 0
            var seq = 0
            for _ in 0..<3000 {
                if model.isEmpty || stream.uniform() < 0.55 {
                    // Times at or after `now`, sometimes equal to it, sometimes far ahead.
                    let span: UInt64 = stream.bernoulli(0.1) ? 1 << 40 : 1_000
                    let t = now + (stream.bernoulli(0.2) ? 0 : Int64(stream.uniformInt(below: span)))
                    q.push(time: .nanoseconds(t), target: UInt32(seq), kind: .testA, arg: UInt64(seq))
                    let at = model.firstIndex(where: { $0.time > t }) ?? model.count
                    model.insert((t, seq), at: at)
                    seq += 1
                } else {
                    let e = q.pop()
                    let expected = model.removeFirst()
                    expect(e.time.nanoseconds == expected.time && Int(e.target) == expected.seq)
                    now = e.time.nanoseconds
                }
                expectEqual(q.count, model.count)
            }
        }
    }

    @Test func everyHeapShapePopsTheSameOrder() {
        var stream = RandomStream(seed: 3, name: "test/shapes")
        let times = (0..<2000).map { _ in Int64(stream.uniformInt(below: 100)) }
        let expected = EventQueueTests.referenceOrder(times)
        func drain<S: HeapShape>(_ shape: S.Type) -> [Int] {
            var h = EventHeap<S>(initialCapacity: 4)
            for (i, t) in times.enumerated() { h.push(time: .nanoseconds(t), target: UInt32(i), kind: .testA, arg: 0) }
            var out: [Int] = []
            while !h.isEmpty { out.append(Int(h.pop().target)) }
            return out
        }
        expectEqual(drain(BinaryEager.self), expected)
        expectEqual(drain(BinaryLazy.self), expected)
        expectEqual(drain(QuaternaryEager.self), expected)
        expectEqual(drain(QuaternaryLazy.self), expected)
        expectEqual(drain(OctonaryLazy.self), expected)
    }

    @Test func anOlderSequenceNumberStillLeavesFirstAmongEqualTimes() {
        var q = EventQueue(initialCapacity: 16)
        let reserved = q.reserveSeq()  // taken first...
        for i in 0..<5 { q.push(time: .seconds(5), target: UInt32(i), kind: .testA, arg: 0) }
        q.push(time: .seconds(4), target: 50, kind: .testA, arg: 0)
        q.insert(Event(time: .seconds(5), seq: reserved, target: 99, kind: .testA, arg: 0))  // ...inserted last
        var order: [UInt32] = []
        while !q.isEmpty { order.append(q.pop().target) }
        expectEqual(order, [50, 99, 0, 1, 2, 3, 4])
    }

    @Test func payloadSurvivesTheQueue() {
        var q = EventQueue(initialCapacity: 16)
        q.push(time: .seconds(1), target: 0xDEAD_BEEF, kind: EventKind(rawValue: 0xBEEF), arg: .max)
        let e = q.pop()
        expect(e.target == 0xDEAD_BEEF && e.kind.rawValue == 0xBEEF && e.arg == .max && e.time == .seconds(1))
    }
}

@Suite("Simulation loop")
struct SimulationTests {
    @Test func simultaneousEventsRunInSchedulingOrder() {
        var sim = Simulation(seed: 1)
        for i in 0..<10 { sim.schedule(at: .milliseconds(5), target: UInt32(9 - i), kind: .testA) }
        sim.schedule(at: .milliseconds(1), target: 100, kind: .testA)
        var r = Recorder()
        expectEqual(sim.run(&r), .queueEmpty)
        expectEqual(r.seen.map(\.target), [100, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    }

    @Test func runUntilRunsEventsAtTheLimitAndStopsTheClockThere() {
        var sim = Simulation(seed: 1)
        sim.schedule(at: .seconds(1), target: 1, kind: .testA)
        sim.schedule(at: .seconds(2), target: 2, kind: .testA)
        sim.schedule(at: .seconds(3), target: 3, kind: .testA)
        var r = Recorder()
        expectEqual(sim.run(&r, until: .seconds(2)), .timeLimit)
        expectEqual(r.seen.map(\.target), [1, 2])
        expectEqual(sim.now, .seconds(2))
        expectEqual(sim.run(&r, until: .seconds(10)), .queueEmpty)
        expectEqual(r.seen.map(\.target), [1, 2, 3])
        expectEqual(sim.now, .seconds(10))
    }

    @Test func eventBudgetStopsAfterExactlyThatManyEvents() {
        struct Forever: EventHandler {
            mutating func handle(_ event: Event, in sim: inout Simulation) {
                sim.schedule(after: .microseconds(1), target: 0, kind: .testA)
            }
        }
        var sim = Simulation(seed: 1)
        sim.schedule(at: .zero, target: 0, kind: .testA)
        var h = Forever()
        expectEqual(sim.run(&h, maxEvents: 1234), .eventBudget)
        expectEqual(sim.eventsExecuted, 1234)
        expectEqual(sim.now, .microseconds(1233))
    }

    @Test func stopEndsTheRunAfterTheCurrentEvent() {
        struct Stopper: EventHandler {
            var count = 0
            mutating func handle(_ event: Event, in sim: inout Simulation) {
                count += 1
                if event.target == 2 { sim.stop() }
            }
        }
        var sim = Simulation(seed: 1)
        for i in 1...4 { sim.schedule(at: .seconds(i), target: UInt32(i), kind: .testA) }
        var h = Stopper()
        expectEqual(sim.run(&h), .stopped)
        expectEqual(h.count, 2)
    }
}

@Suite("Timers and cancellation")
struct TimerTests {
    @Test func cancelledTimerNeverFires() {
        var sim = Simulation(seed: 1)
        let t = sim.makeTimer(kind: .testA, target: 7)
        sim.arm(t, at: .seconds(1))
        sim.cancel(t)
        var r = Recorder()
        _ = sim.run(&r)
        expect(r.seen.isEmpty)
        let armed = sim.isArmed(t)
        expect(!armed)
    }

    @Test func cancelAfterFiringIsHarmless() {
        var sim = Simulation(seed: 1)
        let t = sim.makeTimer(kind: .testA, target: 7)
        sim.arm(t, at: .seconds(1), arg: 42)
        var r = Recorder()
        _ = sim.run(&r)
        sim.cancel(t)
        sim.cancel(t)
        sim.arm(t, at: .seconds(2), arg: 43)
        _ = sim.run(&r)
        expectEqual(r.seen.map(\.time), [1_000_000_000, 2_000_000_000])
        expectEqual(r.seen.map(\.arg), [42, 43])
        expect(r.seen.allSatisfy { $0.target == 7 && $0.kind == EventKind.testA.rawValue })
    }

    @Test func rearmingMovesTheSingleFiring() {
        var sim = Simulation(seed: 1)
        let t = sim.makeTimer(kind: .testA, target: 1)
        sim.arm(t, at: .seconds(1))
        sim.arm(t, at: .seconds(5))  // pushed back (lazy path)
        sim.arm(t, at: .seconds(3))  // earlier than the last arming (still lazy: queued at 1 s)
        var r = Recorder()
        _ = sim.run(&r)
        expectEqual(r.seen.map(\.time), [3_000_000_000])
        expectEqual(sim.eventsExecuted, 1)

        let u = sim.makeTimer(kind: .testB, target: 2)
        sim.arm(u, at: .seconds(10))
        sim.arm(u, at: .seconds(4))  // earlier than the queued firing: re-queued
        _ = sim.run(&r)
        expectEqual(r.seen.map(\.time), [3_000_000_000, 4_000_000_000])
    }

    @Test func rearmedTimerKeepsItsPlaceAmongSimultaneousEvents() {
        // Timer armed (at t = 0) for 5 s while a firing is queued for 1 s; then, at t = 0.5 s,
        // an event is scheduled for 5 s. The timer was armed first, so it runs first.
        struct Script: EventHandler {
            var timer: TimerID?
            var order: [String] = []
            mutating func handle(_ event: Event, in sim: inout Simulation) {
                switch event.kind {
                case .testB: sim.schedule(at: .seconds(5), target: 0, kind: .testA)
                case .testA: order.append(event.target == 99 ? "timer" : "event")
                default: break
                }
            }
        }
        var sim = Simulation(seed: 1)
        var h = Script()
        let t = sim.makeTimer(kind: .testA, target: 99)
        sim.arm(t, at: .seconds(1))
        sim.arm(t, at: .seconds(5))
        sim.schedule(at: .milliseconds(500), target: 0, kind: .testB)
        _ = sim.run(&h)
        expectEqual(h.order, ["timer", "event"])
    }

    @Test func closureEventsRunAndCanBeCancelled() {
        var sim = Simulation(seed: 1)
        var r = Recorder()
        sim.schedule(at: .seconds(1)) { sim in sim.schedule(after: .seconds(1), target: 5, kind: .testA) }
        let doomed = sim.schedule(at: .seconds(1)) { sim in sim.schedule(after: .seconds(1), target: 6, kind: .testA) }
        sim.cancel(doomed)
        _ = sim.run(&r)
        expectEqual(r.seen.map(\.target), [5])
        sim.cancel(doomed)  // after the slot was recycled: harmless
    }

    @Test func manyCancelledTimersLeaveTheQueueSmall() {
        // An RTO re-armed on every ACK must not pile up stale entries.
        struct Acker: EventHandler {
            let rto: TimerID
            mutating func handle(_ event: Event, in sim: inout Simulation) {
                if event.kind == .testA {
                    sim.arm(rto, after: .seconds(1))
                    if event.arg < 10_000 {
                        sim.schedule(after: .microseconds(100), target: 0, kind: .testA, arg: event.arg + 1)
                    }
                }
            }
        }
        var sim = Simulation(seed: 1)
        let rto = sim.makeTimer(kind: .testB, target: 0)
        var h = Acker(rto: rto)
        sim.schedule(at: .zero, target: 0, kind: .testA, arg: 0)
        _ = sim.run(&h, until: .milliseconds(500))
        expect(sim.queue.count <= 2)
    }
}

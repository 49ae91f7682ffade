// Benchmarks: what this folder owns is in its README.md.

extension EventKind {
    /// The hold model's only event.
    public static let holdModel = EventKind(rawValue: 1)
}

/// The result of one benchmark measurement.
public struct BenchmarkFigure: Sendable {
    /// What was measured (`"simulation"`, `"heap:4ary-lazy"`, ...).
    public var label: String
    /// Events executed.
    public var events: UInt64
    /// Wall-clock seconds.
    public var seconds: Double
    /// A checksum of the run (sum of event times), so the work cannot be optimised away and
    /// every variant can be seen to execute the same events in the same order.
    public var checksum: UInt64
    /// Events per second.
    public var eventsPerSecond: Double { Double(events) / seconds }
}

/// The hold-model benchmark of the event core.
public struct CoreBenchmark: Sendable {
    /// Pending events (P).
    public var population: Int
    /// Events to execute (E).
    public var events: UInt64
    /// The run seed.
    public var seed: UInt64
    /// Mean of the exponential hold time: 1 ms, as the issue defines the model.
    public var meanHold = SimTime.milliseconds(1)

    /// A benchmark of `events` events over `population` pending events.
    public init(population: Int, events: UInt64, seed: UInt64 = 1) {
        self.population = population
        self.events = events
        self.seed = seed
    }

    /// The handler: each event schedules its successor for the same target.
    struct HoldHandler: EventHandler {
        var stream: RandomStream
        let meanNanos: Double
        var checksum: UInt64 = 0

        @inline(__always)
        mutating func handle(_ event: Event, in sim: inout Simulation) {
            checksum &+= UInt64(bitPattern: event.time.nanoseconds)
            let hold = Int64(stream.exponential(mean: meanNanos))
            sim.schedule(after: .nanoseconds(hold), target: event.target, kind: .holdModel)
        }
    }

    /// Runs the model through `Simulation.run` with handler dispatch.
    public func runSimulation() -> BenchmarkFigure {
        var sim = Simulation(seed: seed, initialQueueCapacity: population)
        var handler = HoldHandler(
            stream: sim.randomStream(named: "bench/hold"),
            meanNanos: Double(meanHold.nanoseconds))
        for i in 0..<population {
            let t = Int64(handler.stream.exponential(mean: handler.meanNanos))
            sim.schedule(at: .nanoseconds(t), target: UInt32(truncatingIfNeeded: i), kind: .holdModel)
        }
        let clock = ContinuousClock()
        let start = clock.now
        _ = sim.run(&handler, maxEvents: events)
        let elapsed = clock.now - start
        return BenchmarkFigure(
            label: "simulation", events: sim.eventsExecuted,
            seconds: elapsed.seconds, checksum: handler.checksum)
    }

    /// Runs the model as a bare loop on a queue: pop, draw, push. No dispatch, no timers, no
    /// clock checks: the practical ceiling for that structure.
    public func runBareLoop<Q: PendingEventQueue & ~Copyable>(on _: Q.Type, label: String) -> BenchmarkFigure {
        var queue = Q(initialCapacity: population)
        var stream = RandomStream(seed: seed, name: "bench/hold")
        let mean = Double(meanHold.nanoseconds)
        for i in 0..<population {
            let t = Int64(stream.exponential(mean: mean))
            queue.push(time: .nanoseconds(t), target: UInt32(truncatingIfNeeded: i), kind: .holdModel, arg: 0)
        }
        var checksum: UInt64 = 0
        let clock = ContinuousClock()
        let start = clock.now
        var n: UInt64 = 0
        while n < events {
            let e = queue.pop()
            checksum &+= UInt64(bitPattern: e.time.nanoseconds)
            let hold = Int64(stream.exponential(mean: mean))
            queue.push(
                time: SimTime(nanoseconds: e.time.nanoseconds &+ hold), target: e.target, kind: .holdModel, arg: 0)
            n &+= 1
        }
        let elapsed = clock.now - start
        return BenchmarkFigure(label: label, events: n, seconds: elapsed.seconds, checksum: checksum)
    }

    /// The bare loop on an `EventHeap` of the given shape.
    public func runBareHeap<Shape: HeapShape>(_ shape: Shape.Type) -> BenchmarkFigure {
        runBareLoop(on: EventHeap<Shape>.self, label: "heap:\(Shape.name)")
    }

    /// The bare loop on `EventQueue` itself (the structure `Simulation` uses).
    public func runBareQueue() -> BenchmarkFigure {
        runBareLoop(on: EventQueue.self, label: "queue:EventQueue")
    }

    /// Every queue shape the benchmark can compare, by name.
    public static let shapeNames = [
        BinaryEager.name, BinaryLazy.name, QuaternaryEager.name,
        QuaternaryLazy.name, OctonaryLazy.name
    ]

    /// Runs the bare loop for the shape called `name` (one of `shapeNames`).
    public func runBareHeap(named name: String) -> BenchmarkFigure? {
        switch name {
        case BinaryEager.name: return runBareHeap(BinaryEager.self)
        case BinaryLazy.name: return runBareHeap(BinaryLazy.self)
        case QuaternaryEager.name: return runBareHeap(QuaternaryEager.self)
        case QuaternaryLazy.name: return runBareHeap(QuaternaryLazy.self)
        case OctonaryLazy.name: return runBareHeap(OctonaryLazy.self)
        default: return nil
        }
    }
}

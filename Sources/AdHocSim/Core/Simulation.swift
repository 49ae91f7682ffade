/// A layer's reaction to events: the simulation loop calls `handle` for every event that is due,
/// in `(time, seq)` order. Implementations `switch` on `event.kind`.
///
/// `Simulation.run` is generic over the handler, so the call is statically dispatched and
/// inlinable: no existential, no closure, no allocation per event.
public protocol EventHandler {
    /// Reacts to `event`; `sim.now == event.time`. May schedule, arm and cancel through `sim`.
    mutating func handle(_ event: Event, in sim: inout Simulation)
}

/// Why `Simulation.run` returned.
public enum StopReason: String, Sendable, Equatable {
    /// No event was left.
    case queueEmpty = "queue-empty"
    /// The next event lies beyond the time limit; the clock stands at the limit.
    case timeLimit = "time-limit"
    /// The event budget was spent: a guard against runaway scenarios.
    case eventBudget = "event-budget"
    /// A handler called `stop()`.
    case stopped = "stopped"
}

/// A cancellable, re-armable timer owned by some component (RTO, delayed ACK, keepalive...).
@frozen
public struct TimerID: Hashable, Sendable {
    /// The timer's slot in its simulation.
    public let index: UInt32
    @usableFromInline init(index: UInt32) { self.index = index }
}

/// Per-timer bookkeeping. Cancellation is O(1): it flips `armed`. A queued firing whose
/// `generation` is stale, or whose timer is disarmed, is dropped when popped.
@usableFromInline
struct TimerSlot {
    @usableFromInline var kind: EventKind
    @usableFromInline var target: UInt32
    @usableFromInline var arg: UInt64
    @usableFromInline var deadline: SimTime
    /// Sequence number reserved when armed: the timer's place among simultaneous events.
    @usableFromInline var armSeq: UInt64
    /// Time of this timer's firing event in the queue, or `nil` when none is queued.
    @usableFromInline var queuedAt: SimTime?
    @usableFromInline var generation: UInt32
    @usableFromInline var armed: Bool
}

/// One simulation run: the clock, the pending-event queue, timers and counters.
///
/// Single-threaded and non-copyable; parallelism happens across independent runs only.
/// The loop is the SimPy-sized heart of AdHocSim:
///
///     while the budget lasts and the next event is due before the limit:
///         pop it, advance the clock, hand it to the handler (which may schedule more)
public struct Simulation: ~Copyable {
    /// The current simulated time: the time of the event being handled.
    public var now: SimTime { _now }
    @usableFromInline var _now: SimTime = .zero
    /// The pending events.
    public var queue: EventQueue
    /// Handler calls made so far (timer firings included; dropped stale firings excluded).
    public var eventsExecuted: UInt64 { _eventsExecuted }
    /// The event-trajectory fingerprint (as OMNeT++'s fingerprints): a running hash of every
    /// handled event's time, kind and target. Any behavioural change changes it.
    public var fingerprint: UInt64 { SplitMix64.mix(_fingerprint) }
    @usableFromInline var _fingerprint: UInt64 = 0xcbf2_9ce4_8422_2325
    @usableFromInline var _eventsExecuted: UInt64 = 0
    /// The run's seed: the root of every random stream.
    public let seed: UInt64

    @usableFromInline var timers: [TimerSlot] = []
    @usableFromInline var closures: [((inout Simulation) -> Void)?] = []
    @usableFromInline var closureSeqs: [UInt64] = []
    @usableFromInline var freeClosureSlots: [Int] = []
    @usableFromInline var stopRequested = false

    /// A simulation with an empty queue at time zero.
    public init(seed: UInt64, initialQueueCapacity: Int = 1024) {
        self.seed = seed
        self.queue = EventQueue(initialCapacity: initialQueueCapacity)
    }

    /// The stream named `name` of this run (see `RandomStream`). Create streams at build time
    /// and keep them in the component that draws from them.
    public func randomStream(named name: String) -> RandomStream {
        RandomStream(seed: seed, name: name)
    }

    // MARK: Scheduling

    /// Schedules `kind` for `target` at absolute time `time`.
    /// - Precondition: `time >= now` (the past cannot be scheduled).
    @inlinable @inline(__always)
    public mutating func schedule(at time: SimTime, target: UInt32, kind: EventKind, arg: UInt64 = 0) {
        precondition(time >= now, "event scheduled in the past")
        queue.push(time: time, target: target, kind: kind, arg: arg)
    }

    /// Schedules `kind` for `target` after `delay`.
    @inlinable @inline(__always)
    public mutating func schedule(after delay: SimTime, target: UInt32, kind: EventKind, arg: UInt64 = 0) {
        schedule(at: now + delay, target: target, kind: kind, arg: arg)
    }

    /// Ends the run after the current event.
    public mutating func stop() { stopRequested = true }

    // MARK: Timers

    /// Creates a disarmed timer that, when it fires, delivers `kind` to `target`.
    public mutating func makeTimer(kind: EventKind, target: UInt32) -> TimerID {
        precondition(kind.rawValue < EventKind.firstReserved, "reserved event kind")
        timers.append(
            TimerSlot(
                kind: kind, target: target, arg: 0, deadline: .zero, armSeq: 0,
                queuedAt: nil, generation: 0, armed: false))
        return TimerID(index: UInt32(timers.count - 1))
    }

    /// Arms `timer` to fire at `time` with `arg`, replacing any earlier arming.
    ///
    /// Re-arming to a later time (an RTO pushed back by every ACK) does not touch the queue:
    /// the queued firing notices the later deadline when it pops and re-queues itself under the
    /// sequence number reserved here, so tie order is exactly as if it had been scheduled now.
    @inlinable
    public mutating func arm(_ timer: TimerID, at time: SimTime, arg: UInt64 = 0) {
        precondition(time >= now, "timer armed in the past")
        let i = Int(timer.index)
        let seq = queue.reserveSeq()
        timers[i].deadline = time
        timers[i].arg = arg
        timers[i].armSeq = seq
        timers[i].armed = true
        if let queued = timers[i].queuedAt, queued < time { return }
        timers[i].generation &+= 1
        timers[i].queuedAt = time
        queue.insert(
            Event(
                time: time, seq: seq, target: timer.index, kind: .timerFiring,
                arg: UInt64(timers[i].generation)))
    }

    /// Arms `timer` to fire after `delay`.
    @inlinable
    public mutating func arm(_ timer: TimerID, after delay: SimTime, arg: UInt64 = 0) {
        arm(timer, at: now + delay, arg: arg)
    }

    /// Disarms `timer`. Harmless when it is not armed or has already fired.
    @inlinable
    public mutating func cancel(_ timer: TimerID) {
        timers[Int(timer.index)].armed = false
    }

    /// Whether `timer` is armed (will fire unless cancelled).
    @inlinable
    public func isArmed(_ timer: TimerID) -> Bool { timers[Int(timer.index)].armed }

    /// The time `timer` will fire, or `nil` when disarmed.
    public func deadline(of timer: TimerID) -> SimTime? {
        let slot = timers[Int(timer.index)]
        return slot.armed ? slot.deadline : nil
    }

    // MARK: Closures (tests and rare events; not for the hot path)

    /// A handle to cancel a closure event.
    public struct ClosureID: Hashable, Sendable {
        let slot: Int
        let seq: UInt64
    }

    /// Schedules `action` at `time`. Costs an allocation: meant for tests, scripted scenario
    /// events (failures, moves) and other rare events, never per packet.
    @discardableResult
    public mutating func schedule(at time: SimTime, _ action: @escaping (inout Simulation) -> Void) -> ClosureID {
        precondition(time >= now, "event scheduled in the past")
        let slot: Int
        if let free = freeClosureSlots.popLast() {
            slot = free
        } else {
            slot = closures.count
            closures.append(nil)
            closureSeqs.append(0)
        }
        let seq = queue.push(time: time, target: 0, kind: .closure, arg: UInt64(slot))
        closures[slot] = action
        closureSeqs[slot] = seq
        return ClosureID(slot: slot, seq: seq)
    }

    /// Cancels a closure event; harmless after it ran. Slots are reused only after the queued
    /// event is popped, so a stale handle can never cancel a newer closure.
    public mutating func cancel(_ id: ClosureID) {
        if id.slot < closures.count, closureSeqs[id.slot] == id.seq {
            closures[id.slot] = nil
        }
    }
    // MARK: Running

    /// Runs events in order until the queue is empty, the next event is due after `limit`, the
    /// budget of handler calls is spent, or a handler calls `stop()`.
    ///
    /// Events due exactly at `limit` run. On `.timeLimit`, and on `.queueEmpty` with a finite
    /// `limit`, the clock is advanced to `limit`: the run covered that span of time.
    @inlinable
    public mutating func run<H: EventHandler>(
        _ handler: inout H, until limit: SimTime = .max,
        maxEvents: UInt64 = .max
    ) -> StopReason {
        stopRequested = false
        while true {
            if stopRequested { return .stopped }
            guard let t = queue.nextTime() else {
                if limit != .max && limit > _now { _now = limit }
                return .queueEmpty
            }
            if t > limit {
                _now = limit
                return .timeLimit
            }
            if _eventsExecuted >= maxEvents { return .eventBudget }
            var event = queue.pop()
            _now = event.time
            if event.kind.rawValue >= EventKind.firstReserved {
                guard resolveReserved(&event) else { continue }
            }
            _eventsExecuted &+= 1
            // One multiply-xor step per event (FNV-style over a 64-bit word); cheap enough to be
            // always on (docs/decisions/2026-11-22-link-transport-sweeps.md).
            _fingerprint =
                (_fingerprint
                    ^ (UInt64(bitPattern: event.time.nanoseconds)
                        ^ (UInt64(event.kind.rawValue) << 48) ^ (UInt64(event.target) << 16)))
                &* 0x0000_0100_0000_01b3
            handler.handle(event, in: &self)
        }
    }

    /// Turns a core-internal event into the handler's event. Returns `false` when nothing is
    /// to be delivered (stale timer firing, timer re-queued, closure already run here).
    @inlinable
    mutating func resolveReserved(_ event: inout Event) -> Bool {
        if event.kind == .timerFiring {
            let i = Int(event.target)
            guard UInt32(truncatingIfNeeded: event.arg) == timers[i].generation else { return false }
            timers[i].queuedAt = nil
            guard timers[i].armed else { return false }
            if timers[i].deadline > event.time {
                // Pushed back since it was queued: re-queue under the arm-time sequence number.
                timers[i].queuedAt = timers[i].deadline
                queue.insert(
                    Event(
                        time: timers[i].deadline, seq: timers[i].armSeq,
                        target: event.target, kind: .timerFiring, arg: event.arg))
                return false
            }
            timers[i].armed = false
            event.kind = timers[i].kind
            event.target = timers[i].target
            event.arg = timers[i].arg
            return true
        }
        // Closure event: run it here; it is not delivered to the handler.
        let slot = Int(event.arg)
        let action = closures[slot]
        closures[slot] = nil
        freeClosureSlots.append(slot)
        if let action {
            _eventsExecuted &+= 1
            action(&self)
        }
        return false
    }
}

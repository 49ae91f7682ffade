/// AWDL's availability schedule (radio.md, "AWDL"; Stute, Kreitschmann and Hollick, "One
/// Billion Apples' Secret Sauce", MobiCom 2018; seemoo-lab/owl): time units of 1024 µs; a
/// channel sequence of 16 slots (extended availability windows) of 64 TU; each slot opens with
/// a 16 TU availability window. A node is on the AWDL data channel only in the slots of its
/// current sequence; slot 8 is always channel 6, so a node on channel 44 or 149 is never there
/// in slot 8. Two peers exchange frames only inside a slot both occupy, and a frame must end
/// before the slot does; otherwise it waits for the next shared slot. All nodes share one
/// synchronised sequence starting at time zero (master election is not modelled).
///
/// **Presence follows traffic** (`radio.awdlPresence: "adaptive"`, the default). AWDL adapts
/// the sequence a node advertises to its load. The two sequences are the ones logged from real
/// devices (radio.md, "AWDL channel sequences as logged from real devices"):
/// - idle sequence: channel 149 in slots 0, 9 and 10 and channel 6 in slot 8 (seemoo-lab/owl
///   at da255a70, `awdl_chanseq_init_idle`; an idle MacBook logged
///   `149,0,0,0,0,0,0,0,6,149,149,0,0,0,0,0`, owl issue 3): usable 5 GHz slots 8 and 5 slots
///   apart (524 and 328 ms gaps);
/// - active sequence: channel 149 in slots 0–5 and 9–13 (11/16), as an iPhone logged
///   `149×6,157,157,6,149×5,157,157` (owl issue 3). Its four 157 slots are read as the access
///   point's channel: they are off the AWDL channel here, whether or not the phone is associated
///   (what a phone without an access point does in them is not public; assumption);
/// - a node with unicast traffic queued for a peer switches both of them to the active
///   sequence from the start of the first slot they share that begins at least `switchUp`
///   after the traffic was queued (`radio.awdlSwitchUpMs`; the new sequence is advertised in a
///   shared slot's availability window and the peer follows it);
/// - every queued or transmitted unicast frame of the pair keeps both active for `hold`
///   after it (`radio.awdlHoldMs`); then they return to the idle sequence.
/// How fast a sequence switches up and back is not public (the logs only show a change within
/// about 6 s): `switchUp` and `hold` are fitted to MatthiasBart/evaluation_notebook (Field,
/// Forest, Home) with `adhocsim calibrate` (see their defaults). Presence is decided per slot:
/// a slot that began while a node was active is wholly active.
///
/// **Fixed presence** (`radio.awdlPresence: "fixed"`, or any `awdlSlots`): each node keeps one
/// sequence all the time, by default 6 of 16 slots {0, 1, 2, 9, 10, 11} (an assumption inside
/// the observed 3/16 to 9/16; the model before presence followed traffic).
public struct AwdlSchedule: Sendable, Equatable {
    /// 1 TU = 1024 µs.
    public static let timeUnit = SimTime.microseconds(1024)
    /// A slot: 64 TU = 65.536 ms.
    public static let slotDuration = SimTime.microseconds(64 * 1024)
    /// An availability window: 16 TU = 16.384 ms.
    public static let availabilityWindow = SimTime.microseconds(16 * 1024)
    /// Slots per channel sequence.
    public static let slotsPerSequence = 16
    /// One channel sequence: 16 slots = 1.048576 s.
    public static let sequenceDuration = SimTime.microseconds(16 * 64 * 1024)
    /// The slot that is always channel 6.
    public static let channel6Slot = 8
    /// The fixed occupancy mask: {0, 1, 2, 9, 10, 11}.
    public static let defaultOccupancy: UInt16 = 0b0000_1110_0000_0111
    /// The idle sequence: channel 149 in slots {0, 9, 10}, channel 6 in slot 8 (owl
    /// `awdl_chanseq_init_idle`; owl issue 3).
    public static let idleOccupancy: UInt16 = 0b0000_0111_0000_0001
    /// The active sequence: channel 149 in slots {0…5, 9…13} (the iPhone of owl issue 3), plus
    /// slot 8 on channel 6.
    public static let activeOccupancy: UInt16 = 0b0011_1111_0011_1111
    /// Per node: the idle sequence (bit s set when the node is on the data channel in slot s).
    public let idle: [UInt16]
    /// Per node: the active sequence (equal to `idle` when presence is fixed).
    public let active: [UInt16]
    /// How long traffic keeps a pair active.
    public let hold: SimTime
    /// How long after traffic is queued the active sequence can take over.
    public let switchUp: SimTime
    /// Per node: the active sequence applies to slots starting in [activeFrom, activeUntil).
    public private(set) var activeFrom: [SimTime]
    /// See `activeFrom`.
    public private(set) var activeUntil: [SimTime]
    /// Whether any node's presence can change.
    public let adaptive: Bool
    /// Counts the changes of some node's sequence in the slot under way when the change was
    /// made (`trafficQueued` at the very instant a slot begins makes that slot active). Such a
    /// change has not changed a node's presence in that slot so far (a pair switches at a slot
    /// both occupy already), but a medium that caches every node's presence for the slot under
    /// way (`SharedMedium.updateDeaf`) recomputes it whenever this changes, so the cache cannot
    /// go stale if the presence model does.
    public private(set) var presenceRevision: UInt64 = 0

    /// A fixed schedule; `dataChannelIs6` keeps slot 8 usable (data on channel 6), otherwise
    /// slot 8 is removed from every node's occupancy.
    public init(occupancy: [UInt16], dataChannelIs6: Bool) {
        self.init(idle: occupancy, active: occupancy, hold: .zero, switchUp: .zero, dataChannelIs6: dataChannelIs6)
    }

    /// A schedule whose nodes switch between `idle` and `active` sequences with traffic (a node
    /// whose two sequences are equal has fixed presence).
    public init(idle: [UInt16], active: [UInt16], hold: SimTime, switchUp: SimTime = .zero, dataChannelIs6: Bool) {
        let mask: UInt16 = dataChannelIs6 ? 0xFFFF : ~(1 << UInt16(AwdlSchedule.channel6Slot))
        self.idle = idle.map { $0 & mask }
        self.active = zip(idle, active).map { ($0 | $1) & mask }
        self.hold = hold
        self.switchUp = switchUp
        adaptive = self.idle != self.active
        activeFrom = Array(repeating: .zero, count: idle.count)
        activeUntil = Array(repeating: .zero, count: idle.count)
    }

    /// The fixed occupancy of every node (the idle sequence when presence is adaptive).
    public var occupancy: [UInt16] { idle }

    /// The slot index (0...15) at `time`, and when that slot started.
    public static func slot(at time: SimTime) -> (index: Int, start: SimTime) {
        let n = time.nanoseconds / slotDuration.nanoseconds
        return (Int(n % Int64(slotsPerSequence)), SimTime(nanoseconds: n * slotDuration.nanoseconds))
    }

    /// `node`'s sequence in the slot that starts at `slotStart`.
    @inline(__always) func sequence(_ node: Int, slotStart: SimTime) -> UInt16 {
        adaptive && activeFrom[node] <= slotStart && slotStart < activeUntil[node] ? active[node] : idle[node]
    }

    /// Whether `node` is on the data channel at `time`.
    public func isPresent(_ node: Int, at time: SimTime) -> Bool {
        let (index, start) = AwdlSchedule.slot(at: time)
        return isPresent(node, slot: index, slotStart: start)
    }

    /// Whether `node` is on the data channel in slot `index` starting at `slotStart` (the slot
    /// found once with `slot(at:)` when many nodes are asked about the same instant).
    @inline(__always)
    func isPresent(_ node: Int, slot index: Int, slotStart: SimTime) -> Bool {
        sequence(node, slotStart: slotStart) & (1 << UInt16(index)) != 0
    }

    /// The earliest time ≥ `time` at which `a` and `b` (or `a` alone when `b` is nil) are both
    /// present for at least `duration`, as their sequences stand now, or `nil` if they share no
    /// slot in two sequences.
    public func nextWindow(_ a: Int, _ b: Int?, from time: SimTime, lasting duration: SimTime) -> SimTime? {
        guard duration <= AwdlSchedule.slotDuration else { return nil }
        let (index, start) = AwdlSchedule.slot(at: time)
        for k in 0...(2 * AwdlSchedule.slotsPerSequence) {
            let s = (index + k) % AwdlSchedule.slotsPerSequence
            let slotStart = start + AwdlSchedule.slotDuration * Int64(k)
            let shared = sequence(a, slotStart: slotStart) & (b.map { sequence($0, slotStart: slotStart) } ?? 0xFFFF)
            guard shared & (1 << UInt16(s)) != 0 else { continue }
            let begin = Swift.max(slotStart, time)
            if begin + duration <= slotStart + AwdlSchedule.slotDuration { return begin }
        }
        return nil
    }

    /// Unicast traffic between `a` and `b` is queued or on the air at `now`: both switch to the
    /// active sequence from the first slot they share that starts at or after `now + switchUp`
    /// (at once if they are active already), and stay active until `hold` after now.
    public mutating func trafficQueued(_ a: Int, _ b: Int, now: SimTime) {
        guard adaptive else { return }
        let both = activeFrom[a] <= now && now < activeUntil[a] && activeFrom[b] <= now && now < activeUntil[b]
        var from = now
        if !both {
            // The next slot both occupy as things stand: where the new sequence is advertised.
            var (index, start) = AwdlSchedule.slot(at: now + switchUp)
            if start < now + switchUp {
                index = (index + 1) % AwdlSchedule.slotsPerSequence
                start = start + AwdlSchedule.slotDuration
            }
            for _ in 0..<(2 * AwdlSchedule.slotsPerSequence) {
                if sequence(a, slotStart: start) & sequence(b, slotStart: start) & (1 << UInt16(index)) != 0 { break }
                index = (index + 1) % AwdlSchedule.slotsPerSequence
                start = start + AwdlSchedule.slotDuration
            }
            from = start
        }
        extend(a, from: from, now: now)
        extend(b, from: from, now: now)
    }

    private mutating func extend(_ n: Int, from: SimTime, now: SimTime) {
        let current = AwdlSchedule.slot(at: now).start
        let before = sequence(n, slotStart: current)
        if activeUntil[n] < from { activeFrom[n] = from }
        activeUntil[n] = Swift.max(activeUntil[n], Swift.max(now, activeFrom[n]) + hold)
        if sequence(n, slotStart: current) != before { presenceRevision &+= 1 }
    }
}

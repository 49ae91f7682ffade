/// AWDL's availability schedule (radio.md, "AWDL"; Stute et al., MobiCom 2018): time units of
/// 1024 µs; a channel sequence of 16 slots (extended availability windows) of 64 TU; each slot
/// opens with a 16 TU availability window. A node is on the AWDL data channel only in the slots
/// of its occupancy; slot 8 is always channel 6, so a node on channel 44 or 149 is never there
/// in slot 8. Two peers exchange frames only inside a slot both occupy, and a frame must end
/// before the slot does; otherwise it waits for the next shared slot. All nodes share one
/// synchronised sequence starting at time zero (master election is not modelled).
///
/// Default occupancy: 6 of 16 slots, {0, 1, 2, 9, 10, 11} (assumption inside the observed 3/16
/// to 9/16; two runs of consecutive slots, as AWDL extends presence when traffic flows).
public struct AwdlSchedule: Sendable, Equatable {
    /// 1 TU = 1024 µs.
    public static let timeUnit = SimTime.microseconds(1024)
    /// A slot: 64 TU = 65.536 ms.
    public static let slotDuration = SimTime.microseconds(64 * 1024)
    /// An availability window: 16 TU = 16.384 ms.
    public static let availabilityWindow = SimTime.microseconds(16 * 1024)
    /// Slots per channel sequence.
    public static let slotsPerSequence = 16
    /// The slot that is always channel 6.
    public static let channel6Slot = 8
    /// The default occupancy mask.
    public static let defaultOccupancy: UInt16 = 0b0000_1110_0000_0111

    /// Per node: bit s set when the node is on the data channel in slot s.
    public var occupancy: [UInt16]

    /// A schedule; `dataChannelIs6` keeps slot 8 usable (data on channel 6), otherwise slot 8 is
    /// removed from every node's occupancy.
    public init(occupancy: [UInt16], dataChannelIs6: Bool) {
        let mask: UInt16 = dataChannelIs6 ? 0xFFFF : ~(1 << UInt16(AwdlSchedule.channel6Slot))
        self.occupancy = occupancy.map { $0 & mask }
    }

    /// The slot index (0...15) at `time`, and when that slot started.
    public static func slot(at time: SimTime) -> (index: Int, start: SimTime) {
        let n = time.nanoseconds / slotDuration.nanoseconds
        return (Int(n % Int64(slotsPerSequence)), SimTime(nanoseconds: n * slotDuration.nanoseconds))
    }

    /// Whether `node` is on the data channel at `time`.
    public func isPresent(_ node: Int, at time: SimTime) -> Bool {
        occupancy[node] & (1 << UInt16(AwdlSchedule.slot(at: time).index)) != 0
    }

    /// The earliest time ≥ `time` at which `a` and `b` (or `a` alone when `b` is nil) are both
    /// present for at least `duration`, or `nil` if they never share a slot.
    public func nextWindow(_ a: Int, _ b: Int?, from time: SimTime, lasting duration: SimTime) -> SimTime? {
        let shared = occupancy[a] & (b.map { occupancy[$0] } ?? 0xFFFF)
        guard shared != 0, duration <= AwdlSchedule.slotDuration else { return nil }
        let (index, start) = AwdlSchedule.slot(at: time)
        for k in 0...AwdlSchedule.slotsPerSequence {
            let s = (index + k) % AwdlSchedule.slotsPerSequence
            guard shared & (1 << UInt16(s)) != 0 else { continue }
            let slotStart = start + AwdlSchedule.slotDuration * Int64(k)
            let begin = Swift.max(slotStart, time)
            if begin + duration <= slotStart + AwdlSchedule.slotDuration { return begin }
        }
        return nil
    }
}

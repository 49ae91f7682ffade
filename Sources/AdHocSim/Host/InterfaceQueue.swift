/// Darwin's interface queue discipline on the phone's side of the link (`host.interfaceQueue`):
/// FQ-CoDel as XNU implements it (apple-oss-distributions/xnu, `bsd/net/classq/
/// classq_fq_codel.c` and `.h`, `pktsched_fq_codel.c`):
///
/// - At each dequeue the queue delay of the packet (now − enqueue time) updates the flow
///   queue's minimum; once per update interval (100 ms) the flow is marked "delay high" if that
///   minimum exceeded the target delay (10 ms), and cleared otherwise; the minimum then
///   restarts (`fq_getq_flow`: `fq_min_qdelay`, `fq_updatetime`, `FQ_SET_DELAY_HIGH`). An
///   empty flow queue is never "delay high".
/// - At enqueue, a flow marked "delay high" that the socket layer can flow-control is
///   flow-controlled: a TCP or QUIC packet is still queued and its sender is paused; any other
///   packet (UDP) is dropped, and its sender is paused too (`fq_addq`: `FQF_FLOWCTL_CAPABLE`,
///   `DTYPE_EARLY` unless `IPPROTO_TCP`/`IPPROTO_QUIC`, then `fq_if_add_fcentry`).
/// - A paused flow resumes at a dequeue that finds it no longer "delay high"
///   (`fq_if_flow_feedback`).
///
/// Simplifications: one flow queue per phone (the thesis runs one flow per phone; XNU hashes
/// each flow to its own queue and serves them by deficit round robin); the queue limit stays
/// the MAC's transmit queue, where a sender blocks instead of XNU's head drop of the largest
/// flow at the drop limit. `blocking` (the ablation switch, the model before) never drops and
/// never pauses: UDP blocks only when the transmit queue is full.
public struct InterfaceQueue: Sendable {
    /// The discipline (`host.interfaceQueue`).
    public enum Discipline: String, Sendable, CaseIterable {
        /// XNU's FQ-CoDel flow control and drops (the default).
        case fqCodel
        /// Only a full transmit queue holds senders back.
        case blocking
    }

    /// What happens to a packet offered to the queue.
    public enum Admission: Sendable, Equatable {
        /// Queued.
        case accept
        /// Queued, and its sender is paused (TCP, QUIC).
        case acceptAndPause
        /// Dropped, and its sender is paused (UDP).
        case dropAndPause
    }

    /// Target queue delay: 10 ms (XNU `bsd/net/if.h`, `IFQ_TARGET_DELAY`, the default when the
    /// interface's bandwidth is unknown; measurement.md).
    public static let target = SimTime.milliseconds(10)
    /// Update interval: 100 ms (XNU `bsd/net/if.h`, `IFQ_UPDATE_INTERVAL`; measurement.md).
    public static let interval = SimTime.milliseconds(100)

    /// The discipline.
    public let discipline: Discipline
    /// One phone's flow queue: the packets in the link's transmit queue, the minimum queue
    /// delay of this interval (if a packet left in it), when the interval ends, and whether it
    /// is "delay high".
    struct FlowQueue: Sendable {
        var queued = 0
        var minDelay: SimTime?
        var updateAt = SimTime.zero
        var delayHigh = false
    }
    /// Per phone: its flow queue.
    var queues: [FlowQueue]
    /// Per phone: whether the flow queue is "delay high".
    public var delayHigh: [Bool] { queues.map(\.delayHigh) }
    /// Per phone: whether its senders are paused.
    public private(set) var paused: [Bool]
    /// Per phone: UDP datagrams dropped at enqueue.
    public private(set) var drops: [UInt64]

    /// The queues of `nodes` phones.
    public init(nodes: Int, discipline: Discipline) {
        self.discipline = discipline
        queues = Array(repeating: FlowQueue(), count: nodes)
        paused = Array(repeating: false, count: nodes)
        drops = Array(repeating: 0, count: nodes)
    }

    /// A packet from `node` is offered; `flowControlled` for TCP and QUIC.
    public mutating func admit(_ node: Int, flowControlled: Bool) -> Admission {
        guard discipline == .fqCodel, queues[node].delayHigh else { return .accept }
        paused[node] = true
        if flowControlled { return .acceptAndPause }
        drops[node] += 1
        return .dropAndPause
    }

    /// A packet entered the link's transmit queue.
    public mutating func enqueued(_ node: Int) { queues[node].queued += 1 }

    /// A packet that entered at `enqueuedAt` left `node`'s queue at `now` (sent or dropped);
    /// `node`'s senders resume if it is no longer "delay high".
    public mutating func dequeued(_ node: Int, enqueuedAt: SimTime, now: SimTime) {
        var q = queues[node]
        q.queued -= 1
        defer { queues[node] = q }
        guard discipline == .fqCodel else { return }
        let delay = now - enqueuedAt
        let least = q.minDelay.map { Swift.min($0, delay) } ?? delay
        q.minDelay = least
        if now >= q.updateAt {
            q.delayHigh = least > InterfaceQueue.target
            q.updateAt = now + InterfaceQueue.interval
            q.minDelay = nil
        }
        if q.queued == 0 { q.delayHigh = false }
        if !q.delayHigh && paused[node] { paused[node] = false }
    }
}

/// One side of a connection as the phone's software processes it: Network.framework runs a
/// connection's send and receive completions on the app's serial dispatch queue and does
/// per-message work in its user-space stack (framing, copying, the completion hop), which is
/// why Apple's developer technical support recommends `NWConnection.batch` for many small
/// messages (Apple developer forums, thread 831985; measurement.md, "Mechanisms on a real
/// phone"). Modelled as one FIFO server per connection side: a send takes `sendCost`, a
/// receive completion `receiveCost`; a job starts when the server is free and when it is
/// submitted. A send is handed to the transport when its service ends (its `.contentProcessed`
/// completion fires then, if the send buffer takes it: DTS, thread 773326, says a send
/// completes at once while the buffer is below its high-water mark).
///
/// Defaults (`host.sendUs`, `host.receiveUs`): 50 µs each. Assumption: no public measurement
/// of Network.framework's per-message cost on an iPhone was found; 50 µs is the order of a
/// dispatch-queue hop plus one pass through a user-space stack. `adhocsim calibrate` fits it.
/// Zero turns the model off (writes reach the transport at the instant they are made).
public struct ConnectionQueue: Sendable {
    /// A send waiting for the server or for send-buffer room.
    public struct PendingWrite: Sendable, Equatable {
        /// When its service ends.
        public var readyAt: SimTime
        /// The application message (probes 0..<P, then the transfer's writes).
        public var message: Int
        /// Bytes.
        public var bytes: Int64
        /// Whether it is a transfer write whose completion the application awaits.
        public var awaited: Bool
    }

    /// Default service time of a send (assumption, see the type's comment).
    public static let defaultSendCost = SimTime.microseconds(50)
    /// Default service time of a receive completion (assumption, see the type's comment).
    public static let defaultReceiveCost = SimTime.microseconds(50)

    /// Service time of one send.
    public let sendCost: SimTime
    /// Service time of one receive completion.
    public let receiveCost: SimTime
    /// When the server finishes the last job submitted.
    public private(set) var freeAt = SimTime.zero
    /// Sends not yet handed to the transport, in order.
    var pending = FifoBuffer<PendingWrite>()
    /// When a wake-up event for this side is scheduled, if one is.
    var wakeAt: SimTime?

    /// A queue with the given service times.
    public init(sendCost: SimTime, receiveCost: SimTime) {
        self.sendCost = sendCost
        self.receiveCost = receiveCost
    }

    /// The costs of `spec` (defaults where it has none).
    public init(_ spec: HostSpec) {
        self.init(
            sendCost: spec.sendUs.map { SimTime.seconds($0 / 1e6) } ?? ConnectionQueue.defaultSendCost,
            receiveCost: spec.receiveUs.map { SimTime.seconds($0 / 1e6) } ?? ConnectionQueue.defaultReceiveCost)
    }

    /// Submits a send at `t`: it is served after every earlier job.
    public mutating func submit(message: Int, bytes: Int64, awaited: Bool, at t: SimTime) {
        freeAt = Swift.max(t, freeAt) + sendCost
        pending.append(PendingWrite(readyAt: freeAt, message: message, bytes: bytes, awaited: awaited))
    }

    /// A message (or `reads` reads of one) arrived at `t`: when its receive completion runs.
    public mutating func receiveCompletion(arrivedAt t: SimTime, reads: Int = 1) -> SimTime {
        freeAt = Swift.max(t, freeAt) + receiveCost * Int64(reads)
        return freeAt
    }

    /// The first send not yet handed over.
    public var first: PendingWrite? { pending.first }

    /// Removes the first send.
    public mutating func removeFirst() { pending.removeFirst() }
}

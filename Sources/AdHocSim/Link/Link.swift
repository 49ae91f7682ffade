// Link layer: getting a packet from one phone to a neighbour.
//
// This folder owns the shared wireless channel (who hears a transmission, at what power,
// with which interference, found through a spatial grid so a transmission costs what its
// neighbourhood costs), the 802.11 DCF MAC (carrier sense, binary exponential back-off, ACKs and
// retries, A-MPDU aggregation with block ACKs, a bounded transmit queue with drop counting),
// AWDL's availability-window schedule that gates when two peers can exchange frames, and an
// ideal point-to-point link for transport validation. Upper layers hand it `LinkPacket`s
// through `LinkLayer` and receive deliveries through the world's dispatch; the radio layer
// answers its questions about power, noise and frame errors.

/// A packet as the link layer sees it: who sends it to whom, how big it is, and an opaque id
/// the layer above uses to find its own state. A small value: no bytes are carried.
@frozen
public struct LinkPacket: Sendable, Equatable {
    /// Sending node.
    public var source: UInt32
    /// Receiving node, or `LinkPacket.broadcast`.
    public var destination: UInt32
    /// MAC service data unit size (the IP packet), bytes.
    public var bytes: Int32
    /// The upper layer's identifier.
    public var tag: UInt64
    /// When the packet was handed to the link layer.
    public var enqueued: SimTime

    /// The broadcast address.
    public static let broadcast = UInt32.max

    /// A packet.
    public init(source: UInt32, destination: UInt32, bytes: Int32, tag: UInt64, enqueued: SimTime) {
        self.source = source
        self.destination = destination
        self.bytes = bytes
        self.tag = tag
        self.enqueued = enqueued
    }
}

/// What every link technology offers the layers above.
public protocol LinkLayer {
    /// Hands `packet` to its source's transmit queue. Returns `false` when the queue is full
    /// (the packet is dropped and counted).
    mutating func send(_ packet: LinkPacket, sim: inout Simulation) -> Bool
}

/// Per-node link counters, for results.
public struct LinkCounters: Sendable, Equatable {
    /// Packets accepted into the transmit queue.
    public var enqueued: UInt64 = 0
    /// Packets refused because the queue was full.
    public var queueDrops: UInt64 = 0
    /// Unicast packets acknowledged / broadcasts sent / ideal-link packets sent.
    public var delivered: UInt64 = 0
    /// Packets given up after the retry limit (or lost on the ideal link).
    public var retryDrops: UInt64 = 0
    /// PPDUs transmitted (data, including retransmissions; not ACKs).
    public var dataTransmissions: UInt64 = 0
    /// MPDU retransmissions.
    public var retransmissions: UInt64 = 0
    /// Packets received and passed up (unicast to this node, or broadcast).
    public var received: UInt64 = 0
    /// Payload bytes received and passed up.
    public var receivedBytes: UInt64 = 0
    /// Frames this node was locked on that failed (error model or collision).
    public var receiveFailures: UInt64 = 0

    /// All zero.
    public init() {}
}

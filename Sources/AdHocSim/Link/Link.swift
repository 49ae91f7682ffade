/// Which layer above the link a packet belongs to, as an EtherType or LLC/SNAP header says on
/// the air; the world hands each notice to that layer.
public enum LinkProtocol: UInt8, Sendable {
    /// An IP packet of a flow (IPv6 or IPv4; `IpLayer`).
    case ip
    /// A mesh frame (MAdHoc sessions and routing; `MeshNetwork`).
    case mesh
    /// A link-layer test frame of a traffic generator (`LinkTraffic`).
    case linkTraffic
    /// A Bonjour frame of a flow's apps finding each other (`AppDiscovery`).
    case bonjour
}

/// A packet as the link layer sees it: who sends it to whom, how big it is, which layer above
/// owns it, and an opaque id that layer uses to find its own state. A small value (32 bytes):
/// no bytes are carried.
@frozen
public struct LinkPacket: Sendable, Equatable {
    /// Sending node.
    public var source: UInt32
    /// Receiving node, or `LinkPacket.broadcast`.
    public var destination: UInt32
    /// MAC service data unit size (the IP packet), bytes.
    public var bytes: Int32
    /// The layer above that owns the packet.
    public var owner: LinkProtocol
    /// The owning layer's identifier.
    public var tag: UInt64
    /// When the packet was handed to the link layer.
    public var enqueued: SimTime

    /// The broadcast address.
    public static let broadcast = UInt32.max

    /// A packet.
    public init(source: UInt32, destination: UInt32, bytes: Int32, owner: LinkProtocol, tag: UInt64, enqueued: SimTime)
    {
        self.source = source
        self.destination = destination
        self.bytes = bytes
        self.owner = owner
        self.tag = tag
        self.enqueued = enqueued
    }
}

/// What the link layer tells the layers above after an event: packets that reached their
/// receiver, and packets the sender is done with (acknowledged, broadcast, or dropped).
public struct LinkNotice: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// `packet` arrived at `node`.
        case delivered
        /// The sender finished with `packet` (ACKed or broadcast sent).
        case senderDone
        /// The link gave up on `packet` (retry limit, ideal-link loss): it never arrived.
        case dropped
    }
    /// What happened.
    public var kind: Kind
    /// The node concerned.
    public var node: UInt32
    /// The packet.
    public var packet: LinkPacket
}

/// The boundary between a link technology and the layers above (as ns-3's `NetDevice`:
/// send, a receive path, and the device's state). `World` is generic over it, so every call is
/// statically dispatched.
///
/// Conforming: `WirelessLink` (802.11 DCF over AWDL or plain ad-hoc Wi-Fi) and `IdealLink`.
/// A new technology conforms, numbers its events in `EventBlock.link`, and is registered in
/// `ScenarioRunner.withWorld`.
public protocol LinkTechnology {
    /// Builds the link of `scenario` for nodes standing at `positions` (time zero) and creates
    /// its timers and random streams in `sim`.
    init(
        _ scenario: Scenario, radio: RadioConfiguration, place: PlaceParameters, positions: [Position],
        sim: inout Simulation)
    /// Whether the technology has a radio: positions, signal strengths and a neighbourhood
    /// matter (mobility is sampled into it, a mesh can form sessions over it).
    static var hasRadio: Bool { get }
    /// The largest IP packet a frame carries, bytes.
    var mtu: Int { get }
    /// Hands `packet` to its source's transmit queue. Returns `false` when the queue is full
    /// or the source is down (the packet is dropped and counted).
    mutating func send(_ packet: LinkPacket, sim: inout Simulation) -> Bool
    /// Handles one of the link's own events (`EventBlock.link`).
    mutating func handle(_ event: Event, in sim: inout Simulation)
    /// What happened since the notices were last taken, in order; the world takes them after
    /// every event and hands each to the layer that owns the packet.
    var notices: [LinkNotice] { get set }
    /// Free transmit-queue room at `node`, packets.
    func queueRoom(of node: Int) -> Int
    /// Per-node counters, for results.
    func counters(of node: Int) -> LinkCounters
    /// Whether `node` is down (failed or not yet joined).
    func isDown(_ node: Int) -> Bool
    /// `node` fails: it stops sending and receiving; its queued packets are lost.
    mutating func setDown(_ node: Int, sim: inout Simulation)
    /// `node` comes back.
    mutating func setUp(_ node: Int, sim: inout Simulation)
    /// `node` is now at `position`.
    mutating func setPosition(_ node: Int, _ position: Position)
    /// The received power from `transmitter` at `receiver` without blockage and fading (what a
    /// signal-strength reading averages to), dBm.
    mutating func medianRxDbm(from transmitter: Int, to receiver: Int) -> Double
    /// `medianRxDbm(from:to:)` when it reaches `floorDbm`, else `nil`: the same decision, which
    /// a link may take without the logarithm for the many pairs far below the floor.
    mutating func medianRxDbm(from transmitter: Int, to receiver: Int, ifAtLeast floorDbm: Double) -> Double?
    /// Calls `body` for every node that may hear `node`, in a fixed order.
    func forEachNeighbour(of node: Int, _ body: (Int) -> Void)
    /// Calls `body` with every node `j` of `forEachNeighbour(of: node)`, in that order, whose
    /// `medianRxDbm(from: j, to: node)` reaches `floorDbm`, and that power.
    mutating func forEachNeighbour(of node: Int, reachingDbm floorDbm: Double, _ body: (Int, Double) -> Void)
    /// `a` and `b` exchanged traffic that this run does not simulate, ending now (the thesis
    /// app's previous test on the connection): a link whose schedule follows traffic updates it
    /// as for a unicast frame; the others ignore it.
    mutating func noteUnsimulatedTraffic(_ a: Int, _ b: Int, now: SimTime)
}

extension LinkTechnology {
    /// No schedule to update (every link but AWDL's).
    public mutating func noteUnsimulatedTraffic(_ a: Int, _ b: Int, now: SimTime) {}
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

extension LinkTechnology {
    /// `forEachNeighbour(of:reachingDbm:_:)` over `neighbours(of:reachingDbm:)`.
    public mutating func forEachNeighbour(of node: Int, reachingDbm floorDbm: Double, _ body: (Int, Double) -> Void) {
        for e in neighbours(of: node, reachingDbm: floorDbm) { body(Int(e.node), e.dbm) }
    }

    /// The nodes of `forEachNeighbour(of: node)`, in that order, whose median power at `node`
    /// reaches `floorDbm` (`medianRxDbm(from:to:ifAtLeast:)`), with that power.
    public mutating func neighbours(of node: Int, reachingDbm floorDbm: Double) -> [(node: Int32, dbm: Double)] {
        var near: [Int] = []
        forEachNeighbour(of: node) { near.append($0) }
        var list: [(node: Int32, dbm: Double)] = []
        for j in near {
            if let dbm = medianRxDbm(from: j, to: node, ifAtLeast: floorDbm) { list.append((Int32(j), dbm)) }
        }
        return list
    }

    /// `medianRxDbm(from:to:)` compared with the floor.
    public mutating func medianRxDbm(from transmitter: Int, to receiver: Int, ifAtLeast floorDbm: Double) -> Double? {
        let dbm = medianRxDbm(from: transmitter, to: receiver)
        return dbm >= floorDbm ? dbm : nil
    }
}

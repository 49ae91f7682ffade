// The `ideal` technology: a point-to-point link with a fixed rate, delay and loss per packet.

extension EventKind {
    /// The ideal link finished serialising a node's head packet.
    public static let idealTxEnd = EventKind(rawValue: 110)
    /// A packet reaches the far end of an ideal link (arg: delivery slot).
    public static let idealArrival = EventKind(rawValue: 111)
}

/// The `ideal` technology: every node has one point-to-point interface that reaches any other
/// node with a fixed rate, a fixed one-way delay and independent Bernoulli loss per packet,
/// behind a drop-tail queue. For transport validation (the PFTK test) and comparisons.
///
/// Defaults (assumptions, matching the transport validation link): 100 Mbit/s, 25 ms one way,
/// no loss, 1 000 packets of queue. Broadcasts are refused (counted as queue drops). It has no
/// geometry and no radio: positions are ignored, every node is every other's neighbour, and a
/// mesh (which needs signal strengths) is refused before the run (`ScenarioRunner`).
public struct IdealLink: LinkTechnology, Sendable {
    /// Serialisation rate, bit/s.
    public let rateBitsPerSecond: Double
    /// One-way delay.
    public let delay: SimTime
    /// Loss probability per packet.
    public let lossProbability: Double
    var queues: [TransmitQueue]
    var busy: [Bool]
    var lossStreams: [RandomStream]
    var counters: [LinkCounters]
    var down: [Bool]
    var inTransit: [LinkPacket?] = []
    var freeTransit: [Int] = []
    /// Notices produced by the last handled event; the world drains them.
    public var notices: [LinkNotice] = []

    /// An ideal link for `nodeCount` nodes.
    public init(_ spec: IdealLinkSpec, nodeCount: Int, sim: borrowing Simulation) {
        rateBitsPerSecond = (spec.rateMbps ?? 100) * 1e6
        delay = .milliseconds(spec.delayMs ?? 25)
        lossProbability = spec.lossProbability ?? 0
        let limit = spec.queuePackets ?? 1000
        queues = Array(repeating: TransmitQueue(limit: limit), count: nodeCount)
        busy = Array(repeating: false, count: nodeCount)
        lossStreams = (0..<nodeCount).map { sim.randomStream(named: "node:\($0)/link/loss") }
        counters = Array(repeating: LinkCounters(), count: nodeCount)
        down = Array(repeating: false, count: nodeCount)
    }

    /// The ideal link of `scenario` (`link` section).
    public init(
        _ scenario: Scenario, radio: RadioConfiguration, place: PlaceParameters, positions: [Position],
        sim: inout Simulation
    ) {
        self.init(scenario.link, nodeCount: positions.count, sim: sim)
    }

    /// No radio: no positions, no signal strengths.
    public static var hasRadio: Bool { false }

    /// Ethernet-sized frames: 1500 bytes.
    public var mtu: Int { 1500 }

    /// Whether node `i` is down.
    public func isDown(_ node: Int) -> Bool { down[node] }

    /// Node `i` fails: its queue is lost and it neither sends nor receives until it recovers
    /// (a packet already being serialised or in flight still completes at the sender's side).
    public mutating func setDown(_ node: Int, sim: inout Simulation) {
        guard !down[node] else { return }
        down[node] = true
        let serialising = busy[node] ? 1 : 0
        while queues[node].count > serialising {
            let e = queues[node][serialising]
            queues[node].remove(at: serialising)
            counters[node].retryDrops += 1
            notices.append(LinkNotice(kind: .dropped, node: UInt32(node), packet: e.packet))
        }
    }

    /// Node `i` comes back.
    public mutating func setUp(_ node: Int, sim: inout Simulation) { down[node] = false }

    /// The ideal link has no geometry: positions do not matter.
    public mutating func setPosition(_ node: Int, _ position: Position) {}

    /// The ideal link has no radio and therefore no signal strength. Never called: a mesh over
    /// the ideal link is refused before the run (`ScenarioRunner.checkSupported`).
    public mutating func medianRxDbm(from transmitter: Int, to receiver: Int) -> Double {
        preconditionFailure("the ideal link has no radio; ScenarioRunner.checkSupported refuses a mesh over it")
    }

    /// Every other node: the ideal link reaches all of them.
    public func forEachNeighbour(of i: Int, _ body: (Int) -> Void) {
        for j in down.indices where j != i { body(j) }
    }

    /// Counters of node `i`.
    public func counters(of i: Int) -> LinkCounters { counters[i] }

    /// Free queue room at node `i`, packets.
    public func queueRoom(of i: Int) -> Int { queues[i].limit - queues[i].count }

    /// Serialisation time of `bytes`.
    public func serialisation(bytes: Int32) -> SimTime {
        .nanoseconds(Int64((Double(bytes) * 8 / rateBitsPerSecond * 1e9).rounded()))
    }

    /// Queues `packet`; starts serialising if the interface is free.
    public mutating func send(_ packet: LinkPacket, sim: inout Simulation) -> Bool {
        let i = Int(packet.source)
        // A point-to-point link has no broadcast: such packets are refused and counted.
        guard packet.destination != LinkPacket.broadcast, !down[i], queues[i].append(packet) else {
            counters[i].queueDrops += 1
            return false
        }
        counters[i].enqueued += 1
        if !busy[i] { startNext(i, sim: &sim) }
        return true
    }

    mutating func startNext(_ i: Int, sim: inout Simulation) {
        guard !queues[i].isEmpty else {
            busy[i] = false
            return
        }
        busy[i] = true
        counters[i].dataTransmissions += 1
        sim.schedule(after: serialisation(bytes: queues[i][0].packet.bytes), target: UInt32(i), kind: .idealTxEnd)
    }

    /// Handles one of the link's events.
    public mutating func handle(_ event: Event, in sim: inout Simulation) {
        switch event.kind {
        case .idealTxEnd:
            let i = Int(event.target)
            let packet = queues[i].removeFirst().packet
            if lossStreams[i].bernoulli(lossProbability) {
                counters[i].retryDrops += 1
                notices.append(LinkNotice(kind: .dropped, node: UInt32(i), packet: packet))
            } else {
                notices.append(LinkNotice(kind: .senderDone, node: UInt32(i), packet: packet))
                counters[i].delivered += 1
                let slot: Int
                if let free = freeTransit.popLast() {
                    slot = free; inTransit[slot] = packet
                } else {
                    slot = inTransit.count; inTransit.append(packet)
                }
                sim.schedule(after: delay, target: packet.destination, kind: .idealArrival, arg: UInt64(slot))
            }
            startNext(i, sim: &sim)
        case .idealArrival:
            let slot = Int(event.arg)
            guard let packet = inTransit[slot] else { preconditionFailure("an arrival from an empty slot") }
            inTransit[slot] = nil
            freeTransit.append(slot)
            let r = Int(packet.destination)
            if down[r] { return }  // arrives at a node that is off: lost unseen
            counters[r].received += 1
            counters[r].receivedBytes += UInt64(packet.bytes)
            notices.append(LinkNotice(kind: .delivered, node: packet.destination, packet: packet))
        default:
            preconditionFailure("not an ideal-link event")
        }
    }
}

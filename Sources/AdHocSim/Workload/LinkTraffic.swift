extension EventKind {
    /// A traffic generator starts (target: generator index).
    public static let trafficStart = EventKind(rawValue: 200)
    /// A node's periodic broadcast is due (target: node, arg: generator index).
    public static let broadcastTick = EventKind(rawValue: 201)
}

/// What one traffic generator sent and what arrived.
public struct TrafficCounters: Sendable, Equatable {
    /// Packets handed to the link layer (accepted into a queue).
    public var sent: UInt64 = 0
    /// Packets the link refused (queue full).
    public var refused: UInt64 = 0
    /// Packets that arrived (every receiver counts, for broadcasts).
    public var received: UInt64 = 0
    /// Payload bytes that arrived.
    public var receivedBytes: UInt64 = 0
    /// Sum of enqueue-to-arrival delays, seconds.
    public var delaySum: Double = 0
    /// All zero.
    public init() {}
}

/// Link-layer traffic generators of a run. Packet tags carry the generator index in their
/// upper 16 bits, so deliveries find their generator without a lookup table.
public struct LinkTraffic: Sendable {
    /// The generators, in file order.
    public let specs: [TrafficSpec]
    /// Their counters.
    public private(set) var counters: [TrafficCounters]
    var phaseStreams: [RandomStream]
    var sequence: UInt64 = 0
    /// Packets a saturated sender keeps queued: two full A-MPDUs (assumption: enough that the
    /// MAC never waits for the application).
    public static let saturationDepth = 128

    /// The generators of `specs`; schedules their start events.
    public init(_ specs: [TrafficSpec], sim: inout Simulation) {
        self.specs = specs
        counters = Array(repeating: TrafficCounters(), count: specs.count)
        phaseStreams = (0..<specs.count).map { sim.randomStream(named: "traffic:\($0)/phase") }
        for (k, spec) in specs.enumerated() {
            switch spec {
            case .saturated(_, _, _, let start), .broadcast(_, _, _, let start):
                sim.schedule(at: start, target: UInt32(k), kind: .trafficStart)
            }
        }
    }

    /// The generator a packet tag belongs to.
    public static func generator(of tag: UInt64) -> Int { Int(tag >> 48) }

    mutating func makePacket(_ k: Int, from: Int, to: UInt32, bytes: Int, now: SimTime) -> LinkPacket {
        sequence += 1
        return LinkPacket(
            source: UInt32(from), destination: to, bytes: Int32(bytes), owner: .linkTraffic,
            tag: UInt64(k) << 48 | sequence, enqueued: now)
    }

    /// Packets waiting to be handed to the link layer; the world drains it after every event.
    public var outbox: [LinkPacket] = []

    /// Handles a traffic event, putting the packets to send in `outbox`.
    public mutating func handle(_ event: Event, in sim: inout Simulation) {
        switch event.kind {
        case .trafficStart:
            let k = Int(event.target)
            switch specs[k] {
            case .saturated(let from, let to, let bytes, _):
                for _ in 0..<LinkTraffic.saturationDepth {
                    outbox.append(makePacket(k, from: from, to: UInt32(to), bytes: bytes, now: sim.now))
                }
            case .broadcast(let nodes, _, let interval, _):
                for n in nodes {
                    let phase = SimTime(nanoseconds: Int64(phaseStreams[k].uniform() * Double(interval.nanoseconds)))
                    sim.schedule(after: phase, target: UInt32(n), kind: .broadcastTick, arg: UInt64(k))
                }
            }
        case .broadcastTick:
            let k = Int(event.arg)
            guard case .broadcast(_, let bytes, let interval, _) = specs[k] else { return }
            outbox.append(makePacket(k, from: Int(event.target), to: LinkPacket.broadcast, bytes: bytes, now: sim.now))
            sim.schedule(after: interval, target: event.target, kind: .broadcastTick, arg: UInt64(k))
        default:
            preconditionFailure("not a traffic event")
        }
    }

    /// Counts whether the link accepted a packet from `outbox`.
    public mutating func recordSend(_ packet: LinkPacket, accepted: Bool) {
        let k = LinkTraffic.generator(of: packet.tag)
        if accepted { counters[k].sent += 1 } else { counters[k].refused += 1 }
    }

    /// `count` receivers got `packet` at `now` (a broadcast's deliveries, consecutive in the
    /// link's notices): the same counts, in the same order of additions, as `count` calls of
    /// `notice(_:now:)` with `.delivered`, with the counters held in registers meanwhile. Not
    /// inlined into the world's notice loop: inlined, the loop made the counters unique on
    /// every pass, which for a run without traffic (the empty array) allocated each time.
    @inline(never)
    public mutating func delivered(_ packet: LinkPacket, count: Int, now: SimTime) {
        let k = LinkTraffic.generator(of: packet.tag)
        guard k < specs.count, count > 0 else { return }
        var c = counters[k]
        let seconds = (now - packet.enqueued).inSeconds
        for _ in 0..<count {
            // One addition per receiver, as the receivers were counted one by one before (a
            // product would round differently).
            c.delaySum += seconds
        }
        c.received &+= UInt64(count)
        c.receivedBytes &+= UInt64(count) &* UInt64(packet.bytes)
        counters[k] = c
    }

    /// Reacts to what the link layer reported (a saturated sender refills its queue). Not
    /// inlined, as `delivered`.
    @inline(never)
    public mutating func notice(_ notice: LinkNotice, now: SimTime) {
        let k = LinkTraffic.generator(of: notice.packet.tag)
        guard k < specs.count else { return }
        switch notice.kind {
        case .delivered:
            delivered(notice.packet, count: 1, now: now)
        case .senderDone, .dropped:
            if case .saturated(let from, let to, let bytes, _) = specs[k] {
                outbox.append(makePacket(k, from: from, to: UInt32(to), bytes: bytes, now: now))
            }
        }
    }
}

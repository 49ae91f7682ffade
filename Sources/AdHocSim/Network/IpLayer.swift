// IP on every node: datagrams, fragmentation and reassembly (IPv6 link-local or IPv4).

/// A transport datagram: a TCP segment or a UDP datagram, described by its fields.
///
/// The four 4-byte fields come first, then the 8-byte ones, the single bytes last, so the
/// value has no padding inside (115 bytes, stride 120): the hosts copy datagrams between the
/// socket, the backlog and IP, and a value of at most 128 bytes is copied by a few vector moves
/// where a larger one calls `memcpy`.
public struct Datagram: Sendable, Equatable {
    /// Transport of the datagram.
    public enum Kind: UInt8, Sendable { case tcp, udp, quic }
    /// The flow it belongs to.
    public var flow: Int32
    /// Payload bytes (application data).
    public var payload: Int32 = 0
    /// Application message number (UDP probes and writes).
    public var message: Int32 = 0
    /// Transport header bytes.
    public var header: Int32 = 0
    /// TCP: first sequence number of the payload (stream offset); UDP: unused.
    public var seq: Int64 = 0
    /// TCP: acknowledgement number (next expected stream offset).
    public var ack: Int64 = 0
    /// TCP: advertised receive window, bytes.
    public var window: Int64 = 0
    /// QUIC: packet number; ACK frame: largest acknowledged (−1: none) and first range length.
    public var packetNumber: Int64 = 0
    /// See `packetNumber`.
    public var largestAcked: Int64 = -1
    /// See `packetNumber`.
    public var ackFirstRange: Int64 = 0
    /// TCP SACK blocks (RFC 2018), at most three with timestamps: [start, end) pairs; an empty
    /// block has start == end.
    public var sackStart = SackEdges.none
    /// See `sackStart`.
    public var sackEnd = SackEdges.none
    /// Sent by the flow's client (else by its server).
    public var fromClient: Bool
    /// TCP or UDP.
    public var kind: Kind
    /// The one control byte, whose meaning the transport gives: read and written through
    /// `tcpFlags`, `quicPacketType` or `udpMark`.
    var control: UInt8 = 0
    /// TCP: the segment's flags (`TcpFlags`).
    public var tcpFlags: UInt8 {
        get { assert(kind == .tcp, "TCP flags of a \(kind) datagram"); return control }
        set { assert(kind == .tcp, "TCP flags of a \(kind) datagram"); control = newValue }
    }
    /// UDP: the thesis test's mark in the application header (`UdpMarks`).
    public var udpMark: UInt8 {
        get { assert(kind == .udp, "a UDP mark of a \(kind) datagram"); return control }
        set { assert(kind == .udp, "a UDP mark of a \(kind) datagram"); control = newValue }
    }

    /// Header plus payload.
    public var transportBytes: Int { Int(header) + Int(payload) }

    /// A datagram of a flow.
    public init(flow: Int32, fromClient: Bool, kind: Kind) {
        self.flow = flow
        self.fromClient = fromClient
        self.kind = kind
    }
}

/// One edge (start or end) of each of a segment's three SACK blocks, block 0 first.
public struct SackEdges: Sendable, Equatable {
    var first: Int64, second: Int64, third: Int64

    /// No blocks.
    public static let none = SackEdges(0, 0, 0)

    /// The edges of blocks 0, 1 and 2.
    public init(_ first: Int64, _ second: Int64, _ third: Int64) {
        self.first = first
        self.second = second
        self.third = third
    }

    /// The edge of block `i` (0, 1 or 2).
    public subscript(i: Int) -> Int64 {
        switch i {
        case 0: return first
        case 1: return second
        default:
            precondition(i == 2, "a SACK block index of \(i)")
            return third
        }
    }
}

/// IP per flow side: fragmentation, reassembly and packet counts.
///
/// Header sizes: IPv6 40 bytes plus an 8-byte fragment header on fragments (RFC 8200 §4.5);
/// IPv4 20 bytes (RFC 791). Fragment payloads are multiples of 8 bytes except the last.
/// MTUs: AWDL 1484 bytes (radio.md), Ethernet-sized 1500 for plain Wi-Fi and the ideal link.
/// Reassembly waits for every fragment; a datagram with a lost fragment is discarded when its
/// last fragment is accounted for (the 60 s reassembly timer of RFC 8200 is not needed since
/// the link reports every loss).
public struct IpLayer: Sendable {
    /// A datagram on its way, by table slot: its fragments' bookkeeping. The datagram itself
    /// and its route are in tables of their own (`datagrams`, `routes`), so the per-fragment
    /// bookkeeping reads and writes this small value without copying either.
    struct InFlight: Sendable {
        var fragments: Int32
        var arrived: Int32
        var resolved: Int32
        /// Bytes the mesh adds around each fragment on the link (its frame header and route).
        var overhead: Int32
        /// The sending flow side (`FlowSide.index`).
        var side: Int32
        /// Whether it travels along a source route (`routes`).
        var routed: Bool
    }

    /// What IP counted for one flow side: what that side sent, what it received from the other
    /// side, and what the link lost or refused of what it sent.
    public struct SideCounters: Sendable {
        /// IP packets sent.
        public internal(set) var packetsSent: UInt64 = 0
        /// IP packets received.
        public internal(set) var packetsReceived: UInt64 = 0
        /// IP packets the link lost or refused.
        public internal(set) var packetsLost: UInt64 = 0
        /// IP bytes sent.
        public internal(set) var bytesSent: UInt64 = 0
        /// IP bytes received.
        public internal(set) var bytesReceived: UInt64 = 0
    }

    /// The IP version.
    public let version: IpVersion
    /// The link MTU, bytes.
    public let mtu: Int
    /// Per flow: the MTU its IP packets are cut to, bytes: the link's, or across the mesh the
    /// link's less the room the mesh's header needs (`IpRouting.maxPathNodes`).
    public let flowMtu: [Int]
    /// IP header bytes.
    public let headerBytes: Int
    /// Extra header bytes on each fragment (IPv6 fragment header).
    public let fragmentHeaderBytes: Int
    /// Per flow: the transport payload of one fragment (`fragmentPayload(flow:)`).
    let fragmentPayloads: [Int]
    /// Per slot: the fragments' bookkeeping, the datagram, and across the mesh the source route
    /// every fragment carries (`[from, …, to]`; empty for a packet sent straight over the link).
    var table: [InFlight] = []
    var datagrams: [Datagram] = []
    var routes: [[Int]] = []
    var free: [Int] = []
    /// Per flow side (`FlowSide.index`): packets and bytes sent, received and lost.
    public private(set) var counters: [SideCounters]

    /// Tags of IP packets carry the fragment index in bits 40…55 and the table slot in the low
    /// 40 bits.
    static let slotMask: UInt64 = (1 << 40) - 1

    /// An IP layer for flows whose IP MTUs are `flowMtu`, over a link of `mtu` bytes.
    public init(version: IpVersion, mtu: Int, flowMtu: [Int]) {
        self.version = version
        self.mtu = mtu
        self.flowMtu = flowMtu
        let header = version == .ipv6 ? 40 : 20
        let fragmentHeader = version == .ipv6 ? 8 : 0
        headerBytes = header
        fragmentHeaderBytes = fragmentHeader
        fragmentPayloads = flowMtu.map { ($0 - header - fragmentHeader) & ~7 }
        counters = Array(repeating: SideCounters(), count: 2 * flowMtu.count)
    }

    /// The datagram a packet tag belongs to, the packet's fragment index and the fragment count.
    public func fragment(_ tag: UInt64) -> (datagram: Datagram, index: Int, count: Int, id: UInt32) {
        let slot = Int(tag & IpLayer.slotMask)
        return (
            datagrams[slot], Int((tag >> 40) & 0xffff), Int(table[slot].fragments),
            UInt32(truncatingIfNeeded: slot)
        )
    }

    /// The flow a packet tag belongs to.
    @inline(__always)
    public func flow(tag: UInt64) -> Int32 { datagrams[Int(tag & IpLayer.slotMask)].flow }

    /// The largest transport datagram that fits one IP packet of flow `k`.
    @inline(__always)
    public func maxUnfragmented(flow k: Int) -> Int { flowMtu[k] - headerBytes }
    /// The transport payload of one fragment of flow `k` (a multiple of 8).
    @inline(__always)
    public func fragmentPayload(flow k: Int) -> Int { fragmentPayloads[k] }

    /// How many IP packets a transport datagram of `bytes` of flow `k` becomes.
    @inline(__always)
    public func fragmentCount(flow k: Int, transportBytes bytes: Int) -> Int {
        let payload = fragmentPayload(flow: k)
        return bytes <= maxUnfragmented(flow: k) ? 1 : (bytes + payload - 1) / payload
    }

    /// The link packets a datagram became (`send`): `count` of them, made one at a time by
    /// `packet(_:)`, so the host hands each to the link without collecting them first.
    public struct Fragments: Sendable {
        /// How many IP packets (1: unfragmented).
        public let count: Int
        let slot: Int
        let bytes: Int
        let piece: Int
        let header: Int
        let overhead: Int
        let source: UInt32
        let destination: UInt32
        let enqueued: SimTime

        /// Packet `index` (0 ..< `count`): every fragment but the last carries `piece` bytes of
        /// the datagram, each has the IP header, and fragments also the fragment header.
        @inline(__always)
        public func packet(_ index: Int) -> LinkPacket {
            let chunk = count == 1 ? bytes : Swift.min(bytes - index * piece, piece)
            return LinkPacket(
                source: source, destination: destination, bytes: Int32(chunk + header + overhead), owner: .ip,
                tag: UInt64(index) << 40 | UInt64(slot), enqueued: enqueued)
        }
    }

    /// Takes a datagram to send straight to `to`, or across the mesh along `route`
    /// (`[from, …, to]`) with `overhead` bytes of mesh header on each packet: counted sent, and
    /// cut into the packets the result makes.
    public mutating func send(
        _ d: Datagram, from: UInt32, to: UInt32, route: [Int], overhead: Int, now: SimTime
    ) -> Fragments {
        let routed = !route.isEmpty
        let (slot, wasRouted) = enter(d, overhead: overhead, routed: routed)
        if routed || wasRouted { routes[slot] = route }
        return fragments(
            of: d, slot: slot, from: from, to: routed && route.count >= 2 ? UInt32(route[1]) : to, now: now)
    }

    /// `send` straight over the link: no route to keep (the table's empty one stays).
    public mutating func send(_ d: Datagram, from: UInt32, to: UInt32, now: SimTime) -> Fragments {
        let (slot, wasRouted) = enter(d, overhead: 0, routed: false)
        if wasRouted { routes[slot] = [] }
        return fragments(of: d, slot: slot, from: from, to: to, now: now)
    }

    /// Puts `d` in a free table slot (or a new one): its slot, and whether the datagram there
    /// before carried a route.
    @inline(__always)
    mutating func enter(_ d: Datagram, overhead: Int, routed: Bool) -> (slot: Int, wasRouted: Bool) {
        let count = fragmentCount(flow: Int(d.flow), transportBytes: d.transportBytes)
        let entry = InFlight(
            fragments: Int32(count), arrived: 0, resolved: 0, overhead: Int32(overhead),
            side: Int32(FlowSide.sender(of: d).index), routed: routed)
        if let slot = free.popLast() {
            let wasRouted = table[slot].routed
            table[slot] = entry
            datagrams[slot] = d
            return (slot, wasRouted)
        }
        table.append(entry)
        datagrams.append(d)
        routes.append([])
        return (table.count - 1, false)
    }

    /// Counts `d` sent from its table `slot` and describes its packets.
    @inline(__always)
    mutating func fragments(
        of d: Datagram, slot: Int, from: UInt32, to destination: UInt32, now: SimTime
    )
        -> Fragments
    {
        let entry = table[slot]
        let bytes = d.transportBytes
        let count = Int(entry.fragments)
        let header = headerBytes + (count == 1 ? 0 : fragmentHeaderBytes)
        // The IP bytes of every packet: the datagram's bytes and a header each.
        var counted = counters[Int(entry.side)]
        counted.bytesSent += UInt64(bytes + count * header)
        counted.packetsSent += UInt64(count)
        counters[Int(entry.side)] = counted
        return Fragments(
            count: count, slot: slot, bytes: bytes, piece: fragmentPayload(flow: Int(d.flow)), header: header,
            overhead: Int(entry.overhead), source: from, destination: destination, enqueued: now)
    }

    /// `send`, with the packets appended to `out`.
    public mutating func send(
        _ d: Datagram, from: UInt32, to: UInt32, route: [Int] = [], overhead: Int = 0, now: SimTime,
        into out: inout [LinkPacket]
    ) {
        let fragments = send(d, from: from, to: to, route: route, overhead: overhead, now: now)
        for i in 0..<fragments.count { out.append(fragments.packet(i)) }
    }

    /// Across the mesh: the node a fragment that reached `node` goes on to, or `nil` when
    /// `node` is the end of its route (or it was sent straight over the link).
    public func nextHop(tag: UInt64, at node: UInt32) -> (next: Int, route: [Int])? {
        let slot = Int(tag & IpLayer.slotMask)
        guard table[slot].routed else { return nil }
        let route = routes[slot]
        guard let last = route.last, last != Int(node), let i = route.firstIndex(of: Int(node)), i + 1 < route.count
        else { return nil }
        return (route[i + 1], route)
    }

    /// The source route a packet carries (empty when it was sent straight over the link).
    public func route(tag: UInt64) -> [Int] {
        let slot = Int(tag & IpLayer.slotMask)
        return table[slot].routed ? routes[slot] : []
    }

    /// A fragment arrived (`bytes` on the link); returns the datagram when it is complete.
    public mutating func delivered(tag: UInt64, bytes: Int32) -> Datagram? {
        arrived(tag: tag, bytes: bytes) ? datagram(tag: tag) : nil
    }

    /// A fragment arrived (`bytes` on the link): whether its datagram is complete (then
    /// `datagram(tag:)` reads it, until the slot is reused by the next `send`).
    @inline(__always)
    public mutating func arrived(tag: UInt64, bytes: Int32) -> Bool {
        let slot = Int(tag & IpLayer.slotMask)
        var entry = table[slot]
        entry.arrived += 1
        resolve(&entry, at: slot)
        // Counted on the receiving side: the other end of the datagram's flow.
        let receiver = Int(entry.side ^ 1)
        var counted = counters[receiver]
        counted.packetsReceived += 1
        counted.bytesReceived += UInt64(bytes - entry.overhead)
        counters[receiver] = counted
        return entry.arrived == entry.fragments
    }

    /// The datagram of a packet tag.
    @inline(__always)
    public func datagram(tag: UInt64) -> Datagram { datagrams[Int(tag & IpLayer.slotMask)] }

    /// A fragment was lost.
    public mutating func dropped(tag: UInt64) {
        let slot = Int(tag & IpLayer.slotMask)
        var entry = table[slot]
        resolve(&entry, at: slot)
        counters[Int(entry.side)].packetsLost += 1
    }

    /// One more fragment of `entry` (in `slot`) is accounted for, arrived or lost: stored, and
    /// the slot freed once every fragment is. A freed slot keeps its datagram until it is reused.
    @inline(__always)
    mutating func resolve(_ entry: inout InFlight, at slot: Int) {
        entry.resolved += 1
        table[slot] = entry
        if entry.resolved == entry.fragments { free.append(slot) }
    }
}

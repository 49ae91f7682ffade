// IP on every node: datagrams, fragmentation and reassembly (IPv6 link-local or IPv4).

/// A transport datagram: a TCP segment or a UDP datagram, described by its fields.
public struct Datagram: Sendable, Equatable {
    /// Transport of the datagram.
    public enum Kind: UInt8, Sendable { case tcp, udp, quic }
    /// The flow it belongs to.
    public var flow: Int32
    /// Sent by the flow's client (else by its server).
    public var fromClient: Bool
    /// TCP or UDP.
    public var kind: Kind
    /// TCP: first sequence number of the payload (stream offset); UDP: unused.
    public var seq: Int64 = 0
    /// Payload bytes (application data).
    public var payload: Int32 = 0
    /// TCP: acknowledgement number (next expected stream offset).
    public var ack: Int64 = 0
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
    /// TCP: advertised receive window, bytes.
    public var window: Int64 = 0
    /// Application message number (UDP probes and writes).
    public var message: Int32 = 0
    /// Transport header bytes.
    public var header: Int32 = 0
    /// QUIC: packet number; ACK frame: largest acknowledged (−1: none) and first range length.
    public var packetNumber: Int64 = 0
    /// See `packetNumber`.
    public var largestAcked: Int64 = -1
    /// See `packetNumber`.
    public var ackFirstRange: Int64 = 0
    /// TCP SACK blocks (RFC 2018), at most three with timestamps: [start, end) pairs; an empty
    /// block has start == end.
    public var sackStart = SIMD3<Int64>(repeating: 0)
    /// See `sackStart`.
    public var sackEnd = SIMD3<Int64>(repeating: 0)

    /// Header plus payload.
    public var transportBytes: Int { Int(header) + Int(payload) }

    /// A datagram of a flow.
    public init(flow: Int32, fromClient: Bool, kind: Kind) {
        self.flow = flow
        self.fromClient = fromClient
        self.kind = kind
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
    struct InFlight: Sendable {
        var datagram: Datagram
        var fragments: Int32
        var arrived: Int32
        var resolved: Int32
        var lost: Bool
        /// Across the mesh: the source route every fragment carries (`[from, …, to]`); empty
        /// for a packet sent straight over the link.
        var route: [Int]
        /// Bytes the mesh adds around each fragment on the link (its frame header and route).
        var overhead: Int32
    }

    /// The IP version.
    public let version: IpVersion
    /// The link MTU, bytes.
    public let mtu: Int
    /// Per flow: the MTU its IP packets are cut to, bytes: the link's, or across the mesh the
    /// link's less the room the mesh's header needs (`IpRouting.maxPathNodes`).
    public let flowMtu: [Int]
    var table: [InFlight] = []
    var free: [Int] = []
    /// IP packets sent and received, per flow side (`FlowSide.index`): what that side sent, and
    /// what it received from the other side.
    public private(set) var packetsSent: [UInt64]
    /// See `packetsSent`.
    public private(set) var packetsReceived: [UInt64]
    /// IP packets the link lost or refused, per flow and side.
    public private(set) var packetsLost: [UInt64]

    /// Tags of IP packets carry the fragment index in bits 40…55 and the table slot in the low
    /// 40 bits.
    static let slotMask: UInt64 = (1 << 40) - 1
    /// IP bytes sent and received, per flow and side (as `packetsSent`).
    public private(set) var bytesSent: [UInt64]
    /// See `bytesSent`.
    public private(set) var bytesReceived: [UInt64]

    /// An IP layer for flows whose IP MTUs are `flowMtu`, over a link of `mtu` bytes.
    public init(version: IpVersion, mtu: Int, flowMtu: [Int]) {
        self.version = version
        self.mtu = mtu
        self.flowMtu = flowMtu
        let flows = flowMtu.count
        packetsSent = Array(repeating: 0, count: 2 * flows)
        packetsReceived = Array(repeating: 0, count: 2 * flows)
        packetsLost = Array(repeating: 0, count: 2 * flows)
        bytesSent = Array(repeating: 0, count: 2 * flows)
        bytesReceived = Array(repeating: 0, count: 2 * flows)
    }

    /// The datagram a packet tag belongs to, the packet's fragment index and the fragment count.
    public func fragment(_ tag: UInt64) -> (datagram: Datagram, index: Int, count: Int, id: UInt32) {
        let slot = Int(tag & IpLayer.slotMask)
        return (
            table[slot].datagram, Int((tag >> 40) & 0xffff), Int(table[slot].fragments),
            UInt32(truncatingIfNeeded: slot)
        )
    }

    /// IP header bytes.
    public var headerBytes: Int { version == .ipv6 ? 40 : 20 }
    /// Extra header bytes on each fragment (IPv6 fragment header).
    public var fragmentHeaderBytes: Int { version == .ipv6 ? 8 : 0 }
    /// The largest transport datagram that fits one IP packet of flow `k`.
    public func maxUnfragmented(flow k: Int) -> Int { flowMtu[k] - headerBytes }
    /// The transport payload of one fragment of flow `k` (a multiple of 8).
    public func fragmentPayload(flow k: Int) -> Int { (flowMtu[k] - headerBytes - fragmentHeaderBytes) & ~7 }

    /// How many IP packets a transport datagram of `bytes` of flow `k` becomes.
    @inline(__always)
    public func fragmentCount(flow k: Int, transportBytes bytes: Int) -> Int {
        let payload = fragmentPayload(flow: k)
        return bytes <= maxUnfragmented(flow: k) ? 1 : (bytes + payload - 1) / payload
    }

    /// Turns a datagram into link packets (appended to `out`): straight to `to`, or across the
    /// mesh along `route` (`[from, …, to]`) with `overhead` bytes of mesh header on each.
    public mutating func send(
        _ d: Datagram, from: UInt32, to: UInt32, route: [Int] = [], overhead: Int = 0, now: SimTime,
        into out: inout [LinkPacket]
    ) {
        let bytes = d.transportBytes
        let k = Int(d.flow)
        let count = fragmentCount(flow: k, transportBytes: bytes)
        let piece = fragmentPayload(flow: k)
        let destination = route.count >= 2 ? UInt32(route[1]) : to
        let slot: Int
        let entry = InFlight(
            datagram: d, fragments: Int32(count), arrived: 0, resolved: 0, lost: false, route: route,
            overhead: Int32(overhead))
        if let f = free.popLast() { slot = f; table[slot] = entry } else { slot = table.count; table.append(entry) }
        var left = bytes
        for index in 0..<count {
            let chunk = count == 1 ? bytes : Swift.min(left, piece)
            left -= chunk
            let size = chunk + headerBytes + (count == 1 ? 0 : fragmentHeaderBytes)
            bytesSent[FlowSide.sender(of: d).index] += UInt64(size)
            out.append(
                LinkPacket(
                    source: from, destination: destination, bytes: Int32(size + overhead), owner: .ip,
                    tag: UInt64(index) << 40 | UInt64(slot), enqueued: now))
        }
        packetsSent[FlowSide.sender(of: d).index] += UInt64(count)
    }

    /// Across the mesh: the node a fragment that reached `node` goes on to, or `nil` when
    /// `node` is the end of its route (or it was sent straight over the link).
    public func nextHop(tag: UInt64, at node: UInt32) -> (next: Int, route: [Int])? {
        let route = table[Int(tag & IpLayer.slotMask)].route
        guard let last = route.last, last != Int(node), let i = route.firstIndex(of: Int(node)), i + 1 < route.count
        else { return nil }
        return (route[i + 1], route)
    }

    /// The source route a packet carries (empty when it was sent straight over the link).
    public func route(tag: UInt64) -> [Int] { table[Int(tag & IpLayer.slotMask)].route }

    /// A fragment arrived (`bytes` on the link); returns the datagram when it is complete.
    public mutating func delivered(tag: UInt64, bytes: Int32) -> Datagram? {
        let slot = Int(tag & IpLayer.slotMask)
        table[slot].arrived += 1
        // Counted on the receiving side: the other end of the datagram's flow.
        let receiver = FlowSide.sender(of: table[slot].datagram).peer.index
        packetsReceived[receiver] += 1
        bytesReceived[receiver] += UInt64(bytes - table[slot].overhead)
        let complete = table[slot].arrived == table[slot].fragments
        resolve(slot)
        // A freed slot keeps its datagram until it is reused: copied out only when complete.
        return complete ? table[slot].datagram : nil
    }

    /// A fragment was lost.
    public mutating func dropped(tag: UInt64) {
        let slot = Int(tag & IpLayer.slotMask)
        table[slot].lost = true
        packetsLost[FlowSide.sender(of: table[slot].datagram).index] += 1
        resolve(slot)
    }

    mutating func resolve(_ slot: Int) {
        table[slot].resolved += 1
        if table[slot].resolved == table[slot].fragments { free.append(slot) }
    }
}

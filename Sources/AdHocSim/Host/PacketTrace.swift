/// Packet traces (`run --pcap`): one pcap file per node (nanosecond pcap, LINKTYPE_RAW = 101,
/// so each record is an IPv4 or IPv6 packet) with real IP, TCP and UDP headers synthesised from
/// the simulator's datagram fields: correct lengths, sequence and acknowledgement numbers,
/// ports and checksums (RFC 1071 over zero-filled payloads, which is what the trace contains).
/// QUIC packets are UDP datagrams to port 443 with QUIC long or short headers (RFC 9000 §17).
/// Fragments carry real IPv6 fragment headers or IPv4 fragment offsets.
public struct PacketTrace: Sendable {
    var records: [[UInt8]]
    let version: IpVersion

    /// Client ports are 49152 + flow; TCP and UDP servers listen on 5001, QUIC on 443.
    public static func ports(flow: Int32, kind: Datagram.Kind) -> (client: UInt16, server: UInt16) {
        (UInt16(49_152 &+ Int(flow) % 16_000), kind == .quic ? 443 : 5001)
    }

    /// A trace for `nodes` nodes.
    public init(nodes: Int, version: IpVersion) {
        records = Array(repeating: PacketTrace.globalHeader, count: nodes)
        self.version = version
    }

    static let globalHeader: [UInt8] = {
        var h: [UInt8] = []
        h.le32(0xA1B2_3C4D)  // nanosecond-resolution pcap
        h.le16(2); h.le16(4)  // version 2.4
        h.le32(0); h.le32(0)  // thiszone, sigfigs
        h.le32(262_144)  // snaplen
        h.le32(101)  // LINKTYPE_RAW
        return h
    }()

    /// The pcap file of `node`.
    public func file(of node: Int) -> [UInt8] { records[node] }

    static func isn(flow: Int32, client: Bool) -> UInt32 {
        UInt32(truncatingIfNeeded: StableHash.fnv1a("isn/\(flow)/\(client ? "c" : "s")"))
    }

    func address(_ node: UInt32) -> [UInt8] {
        if version == .ipv6 {
            // fe80::200:ff:fe00:<node + 1>, an EUI-64-style link-local address.
            let n = UInt16(truncatingIfNeeded: node + 1)
            return [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x00, 0x00, 0xff, 0xfe, 0x00, UInt8(n >> 8), UInt8(n & 0xff)]
        }
        let n = node + 1
        return [169, 254, UInt8((n >> 8) & 0xff), UInt8(n & 0xff)]
    }

    /// The transport bytes (header and zero payload) of a datagram, checksummed.
    func transportBytes(_ d: Datagram, src: UInt32, dst: UInt32) -> [UInt8] {
        let (cp, sp) = PacketTrace.ports(flow: d.flow, kind: d.kind)
        let (srcPort, dstPort) = d.fromClient ? (cp, sp) : (sp, cp)
        var b: [UInt8] = []
        b.reserveCapacity(d.transportBytes)
        if d.kind == .tcp {
            let mine = PacketTrace.isn(flow: d.flow, client: d.fromClient),
                peer = PacketTrace.isn(flow: d.flow, client: !d.fromClient)
            let syn = d.tcpFlags & TcpFlags.syn != 0
            let seq = syn ? mine : mine &+ 1 &+ UInt32(truncatingIfNeeded: d.seq)
            let hasAck = d.tcpFlags & TcpFlags.ack != 0
            let ack = hasAck ? peer &+ 1 &+ UInt32(truncatingIfNeeded: d.ack) : 0
            b.be16(srcPort); b.be16(dstPort); b.be32(seq); b.be32(ack)
            b.append(UInt8((Int(d.header) / 4) << 4))
            var flags: UInt8 = 0
            if d.tcpFlags & TcpFlags.fin != 0 { flags |= 0x01 }
            if syn { flags |= 0x02 }
            if d.tcpFlags & TcpFlags.push != 0 { flags |= 0x08 }
            if hasAck { flags |= 0x10 }
            b.append(flags)
            b.be16(syn ? 65_535 : UInt16(Swift.min(65_535, d.window >> 6)))  // window scale 6 on the SYN
            b.be16(0); b.be16(0)  // checksum, urgent
            if syn {
                b += [2, 4]; b.be16(UInt16(Swift.min(65_535, Int(d.header) > 0 ? 1460 : 0)))  // MSS
                b += [4, 2]  // SACK permitted
                b += [8, 10]; b.be32(0); b.be32(0)  // timestamps
                b += [1, 3, 3, 6]  // NOP, window scale 6
            } else {
                b += [1, 1, 8, 10]; b.be32(0); b.be32(0)  // NOP NOP timestamps
                let blocks = (0..<3).filter { d.sackEnd[$0] > d.sackStart[$0] }
                if !blocks.isEmpty {
                    b += [1, 1, 5, UInt8(2 + 8 * blocks.count)]
                    for j in blocks {
                        b.be32(peer &+ 1 &+ UInt32(truncatingIfNeeded: d.sackStart[j]))
                        b.be32(peer &+ 1 &+ UInt32(truncatingIfNeeded: d.sackEnd[j]))
                    }
                }
            }
            while b.count < Int(d.header) { b.append(1) }  // NOP padding
        } else {
            b.be16(srcPort); b.be16(dstPort); b.be16(UInt16(truncatingIfNeeded: d.transportBytes)); b.be16(0)
            if d.kind == .quic {
                let pn = UInt32(truncatingIfNeeded: d.packetNumber)
                if !d.quicPacketType.hasLongHeader {
                    b.append(0x43)  // short header, 4-byte PN
                    b += Array(repeating: 0xd0, count: 8)
                    b.be32(pn)
                } else {
                    b.append(0xC3 | (d.quicPacketType.longHeaderTypeBits << 4))
                    b.be32(1)  // QUIC version 1
                    b.append(8); b += Array(repeating: 0xd0, count: 8)
                    b.append(8); b += Array(repeating: 0x5c, count: 8)
                    if d.quicPacketType == .initial { b.append(0) }  // no token (Initial only)
                    let rest = Swift.max(0, d.transportBytes - 8 - b.count + 8 - 2)
                    b.be16(0x4000 | UInt16(Swift.min(rest, 0x3fff)))  // length varint
                    b.be32(pn)
                }
            }
        }
        while b.count < d.transportBytes { b.append(0) }
        // Checksum over the pseudo-header (RFC 8200 §8.1 / RFC 768, RFC 9293 §3.1).
        let proto: UInt8 = d.kind == .tcp ? 6 : 17
        var sum: UInt32 = 0
        func add(_ bytes: [UInt8]) {
            var i = 0
            while i + 1 < bytes.count { sum &+= UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1]); i += 2 }
            if i < bytes.count { sum &+= UInt32(bytes[i]) << 8 }
        }
        add(address(src)); add(address(dst))
        if version == .ipv6 {
            var p: [UInt8] = []; p.be32(UInt32(b.count)); p += [0, 0, 0, proto]; add(p)
        } else {
            var p: [UInt8] = [0, proto]; p.be16(UInt16(b.count)); add(p)
        }
        add(b)
        while sum >> 16 != 0 { sum = (sum & 0xffff) &+ (sum >> 16) }
        var c = ~UInt16(truncatingIfNeeded: sum)
        if c == 0 && proto == 17 { c = 0xffff }
        let at = proto == 6 ? 16 : 6
        b[at] = UInt8(c >> 8); b[at + 1] = UInt8(c & 0xff)
        return b
    }

    /// Appends fragment `index` of `count` of datagram `d` (identified by `id`) to `node`'s trace.
    public mutating func record(
        node: UInt32, time: SimTime, datagram d: Datagram, src: UInt32, dst: UInt32,
        index: Int, count: Int, id: UInt32, fragmentPayload: Int
    ) {
        let transport = transportBytes(d, src: src, dst: dst)
        let proto: UInt8 = d.kind == .tcp ? 6 : 17
        let chunk: ArraySlice<UInt8> =
            count == 1
            ? transport[...]
            : transport[(index * fragmentPayload)..<Swift.min(transport.count, (index + 1) * fragmentPayload)]
        var p: [UInt8] = []
        if version == .ipv6 {
            let fragmented = count > 1
            p.be32(0x6000_0000)
            p.be16(UInt16(chunk.count + (fragmented ? 8 : 0)))
            p.append(fragmented ? 44 : proto); p.append(64)
            p += address(src); p += address(dst)
            if fragmented {
                p.append(proto); p.append(0)
                let offset = UInt16((index * fragmentPayload) / 8) << 3 | (index < count - 1 ? 1 : 0)
                p.be16(offset); p.be32(id)
            }
        } else {
            p.append(0x45); p.append(0)
            p.be16(UInt16(20 + chunk.count)); p.be16(UInt16(truncatingIfNeeded: id))
            let more: UInt16 = count > 1 && index < count - 1 ? 0x2000 : 0
            p.be16(more | UInt16((index * fragmentPayload) / 8)); p.append(64); p.append(proto)
            p.be16(0); p += address(src); p += address(dst)
            var sum: UInt32 = 0
            for i in stride(from: 0, to: 20, by: 2) { sum &+= UInt32(p[i]) << 8 | UInt32(p[i + 1]) }
            while sum >> 16 != 0 { sum = (sum & 0xffff) &+ (sum >> 16) }
            let c = ~UInt16(truncatingIfNeeded: sum)
            p[10] = UInt8(c >> 8); p[11] = UInt8(c & 0xff)
        }
        p += chunk
        var r: [UInt8] = []
        r.le32(UInt32(truncatingIfNeeded: time.nanoseconds / 1_000_000_000))
        r.le32(UInt32(truncatingIfNeeded: time.nanoseconds % 1_000_000_000))
        r.le32(UInt32(p.count)); r.le32(UInt32(p.count))
        records[Int(node)] += r
        records[Int(node)] += p
    }
}

extension Array where Element == UInt8 {
    mutating func le16(_ v: UInt16) { append(UInt8(v & 0xff)); append(UInt8(v >> 8)) }
    mutating func le32(_ v: UInt32) {
        for s in stride(from: 0, to: 32, by: 8) { append(UInt8((v >> UInt32(s)) & 0xff)) }
    }
    mutating func be16(_ v: UInt16) { append(UInt8(v >> 8)); append(UInt8(v & 0xff)) }
    mutating func be32(_ v: UInt32) {
        for s in stride(from: 24, through: 0, by: -8) { append(UInt8((v >> UInt32(s)) & 0xff)) }
    }
}

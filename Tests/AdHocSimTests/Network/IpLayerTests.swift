import Foundation
import Testing

@testable import AdHocSim

/// IP on its own: fragmentation as RFC 8200 §4.5 (IPv6) and RFC 791 (IPv4) cut a datagram,
/// reassembly only when every fragment arrived, and a lost fragment loses the datagram.
struct IpLayerTests {
    /// A 9 216-byte UDP write (9 224 bytes with its 8-byte header) over a 1 500-byte MTU, by
    /// hand. IPv6: a fragment carries at most 1500 − 40 − 8 = 1452 bytes, rounded down to a
    /// multiple of 8: 1448; 9224 / 1448 = 6.37, so 7 fragments, six of 1448 + 48 = 1496 bytes and
    /// the last of 9224 − 6 · 1448 = 536 + 48 = 584 bytes. IPv4: 1480 bytes a fragment, 7
    /// fragments, the last 9224 − 6 · 1480 = 344 + 20 = 364 bytes.
    @Test func aLargeDatagramIsCutAsTheRfcsSay() {
        var d = Datagram(flow: 0, fromClient: true, kind: .udp)
        d.header = 8
        d.payload = 9216
        for (version, full, last) in [(IpVersion.ipv6, 1496, 584), (.ipv4, 1500, 364)] {
            var ip = IpLayer(version: version, mtu: 1500, flowMtu: [1500])
            var out: [LinkPacket] = []
            ip.send(d, from: 0, to: 1, now: .zero, into: &out)
            expectEqual(out.map(\.bytes), Array(repeating: Int32(full), count: 6) + [Int32(last)], "\(version)")
            expectEqual(ip.counters[FlowSide.client(0).index].packetsSent, 7)
            // Reassembly: nothing until the seventh fragment, then the datagram.
            for (k, p) in out.enumerated() {
                let whole = ip.delivered(tag: p.tag, bytes: p.bytes)
                expectEqual(whole != nil, k == out.count - 1)
            }
            expectEqual(ip.counters[FlowSide.server(0).index].packetsReceived, 7)
        }
    }

    /// A datagram that just fits (1 452 bytes of payload and the 8-byte header: 1460 + 40 = 1500)
    /// is one packet without a fragment header; one byte more is two fragments (1448 and 13
    /// bytes); one fragment lost of two loses the datagram, and its table slot is free again
    /// once both are resolved.
    @Test func aLostFragmentLosesTheDatagram() {
        var ip = IpLayer(version: .ipv6, mtu: 1500, flowMtu: [1500])
        var one = Datagram(flow: 0, fromClient: true, kind: .udp)
        one.header = 8
        one.payload = 1452
        var out: [LinkPacket] = []
        ip.send(one, from: 0, to: 1, now: .zero, into: &out)
        expectEqual(out.map(\.bytes), [1500])
        var two = one
        two.payload = 1453
        out = []
        ip.send(two, from: 0, to: 1, now: .zero, into: &out)
        expectEqual(out.map(\.bytes), [1448 + 48, 13 + 48])
        ip.dropped(tag: out[0].tag)
        expect(ip.delivered(tag: out[1].tag, bytes: out[1].bytes) == nil)
        expectEqual(ip.counters[FlowSide.client(0).index].packetsLost, 1)
        expectEqual(ip.free.count, 1)
    }

    /// A datagram has no padding inside, by hand: four 4-byte fields (16), six 8-byte fields
    /// (48), two sets of three 8-byte SACK edges (48) and three single bytes: 115 bytes, a
    /// stride of 120 at 8-byte alignment; at most 128, the size below which copies need no
    /// `memcpy` call.
    @Test func aDatagramIsPackedIn115Bytes() {
        expectEqual(MemoryLayout<Datagram>.size, 115)
        expectEqual(MemoryLayout<Datagram>.stride, 120)
    }
}

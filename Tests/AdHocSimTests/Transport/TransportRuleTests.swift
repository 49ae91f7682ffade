import Foundation
import Testing

@testable import AdHocSim

/// Transport rules checked on their own, each against its RFC: TCP's state diagram, NewReno's
/// and QUIC's window growth, CUBIC's return to its maximum, QUIC's packet types.
struct TransportRuleTests {
    /// RFC 9293 Figure 5, the part modelled: open, handshake, established, abort.
    @Test func tcpStateChangesFollowTheStateDiagram() {
        typealias S = TcpEndpoint.State
        let arrows: [(S, S)] = [
            (.closed, .synSent), (.closed, .listen), (.listen, .synReceived), (.synSent, .established),
            (.synReceived, .established), (.synSent, .closed), (.synReceived, .closed), (.established, .closed)
        ]
        let all: [S] = [.closed, .listen, .synSent, .synReceived, .established]
        for a in all {
            for b in all {
                expectEqual(TcpEndpoint.allowed(from: a, to: b), arrows.contains { $0 == (a, b) }, "\(a) → \(b)")
            }
        }
    }

    @Test func newRenoGrowsAsRfc5681Says() {
        var w = CongestionWindow(cwnd: 14_480, mss: 1448)
        var c = NewReno()
        c.onAck(&w, acked: 3000, now: .zero, srtt: nil)
        expectEqual(w.cwnd, 14_480 + 1448)  // slow start: + min(N, SMSS)
        c.onCongestionEvent(&w, flightSize: 20_000)
        expectEqual(w.ssthresh, 10_000)  // max(FlightSize / 2, 2·SMSS)
        w.cwnd = 20_000
        c.onAck(&w, acked: 1448, now: .zero, srtt: nil)
        let avoidance: Double = 1448.0 * 1448.0 / 20_000.0
        expectEqual(w.cwnd, 20_000 + avoidance)  // avoidance: + SMSS²/cwnd
        c.onCongestionEvent(&w, flightSize: 1000)
        expectEqual(w.ssthresh, 2 * 1448)  // never below 2·SMSS
    }

    @Test func quicNewRenoUsesRfc9002IntegerArithmetic() {
        var w = CongestionWindow(cwnd: 12_000, mss: 1200)
        var c = QuicNewReno()
        c.onAck(&w, acked: 1200, now: .zero, srtt: nil)
        expectEqual(w.cwnd, 13_200)  // slow start: + acked bytes
        c.onCongestionEvent(&w, flightSize: 0)
        expect(w.ssthresh == 6600 && w.cwnd == 6600)  // halved
        c.onAck(&w, acked: 1000, now: .zero, srtt: nil)
        expectEqual(w.cwnd, 6600 + 181)  // ⌊1200 · 1000 / 6600⌋ = ⌊181.8⌋
        w.cwnd = 3001
        c.onCongestionEvent(&w, flightSize: 0)
        expect(w.ssthresh == 1500 && w.cwnd == 2400)  // ⌊3001 / 2⌋, floored at 2·max_datagram_size
    }

    @Test func cubicReturnsToItsPreviousMaximumAfterK() {
        // RFC 9438 eq. 2: K = ∛(W_max·(1 − β) / C). A window of 100 segments cut to 70 climbs back
        // to 100 at K = ∛(30 / 0.4) ≈ 4.217 s.
        let mss = 1000.0
        var w = CongestionWindow(cwnd: 100 * mss, mss: mss)
        w.ssthresh = 0
        var c = Cubic()
        c.onCongestionEvent(&w, flightSize: 0)
        expectEqual(w.ssthresh, 70 * mss)
        w.cwnd = w.ssthresh
        c.onAck(&w, acked: 1000, now: .zero, srtt: 0)
        expect(abs(c.k - cbrt(30 / 0.4)) < 1e-12)
        expectEqual(c.wMax, 100)
    }

    @Test func quicLongHeaderTypesAreRfc9000s() {
        expectEqual(QuicPacketType.initial.longHeaderTypeBits, 0)
        expectEqual(QuicPacketType.zeroRtt.longHeaderTypeBits, 1)
        expectEqual(QuicPacketType.handshake.longHeaderTypeBits, 2)
        expect(!QuicPacketType.oneRtt.hasLongHeader)
        expect(
            QuicPacketType.initial.carriesCrypto && QuicPacketType.handshake.carriesCrypto
                && !QuicPacketType.zeroRtt.carriesCrypto)
    }
}

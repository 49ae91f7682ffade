/// NewReno for TCP (RFC 5681 §3.1, with RFC 6582's fast recovery in `TcpEndpoint`): per ACK,
/// slow start adds min(acked, SMSS) and congestion avoidance about one SMSS per window.
public struct NewReno: CongestionController, Equatable {
    /// A controller.
    public init() {}

    /// RFC 5681 §3.1: slow start cwnd += min(N, SMSS) (eq. 2); congestion avoidance
    /// cwnd += max(1, SMSS·SMSS/cwnd) (eq. 3).
    public mutating func onAck(_ window: inout CongestionWindow, acked: Int64, now: SimTime, srtt: Double?) {
        if window.inSlowStart {
            window.cwnd += Swift.min(Double(acked), window.mss)
        } else {
            window.cwnd += Swift.max(1, window.mss * window.mss / window.cwnd)
        }
    }

    /// RFC 5681 eq. 4: ssthresh = max(FlightSize / 2, 2·SMSS).
    public mutating func onCongestionEvent(_ window: inout CongestionWindow, flightSize: Double) {
        window.ssthresh = Swift.max(flightSize / 2, 2 * window.mss)
    }
}

/// NewReno for QUIC (RFC 9002 §7.3), in the specification's integer arithmetic: per
/// acknowledged packet, slow start adds its bytes and congestion avoidance
/// ⌊max_datagram_size · bytes / cwnd⌋; a congestion event halves the window, never below the
/// minimum window of 2·max_datagram_size (§7.2). The window stays integral, and every value is
/// far below 2⁵³, so the floors are exact.
public struct QuicNewReno: CongestionController, Equatable {
    /// A controller.
    public init() {}

    /// RFC 9002 §7.3.1 and §7.3.3 (`OnPacketsAcked`).
    public mutating func onAck(_ window: inout CongestionWindow, acked: Int64, now: SimTime, srtt: Double?) {
        if window.inSlowStart {
            window.cwnd += Double(acked)
        } else {
            window.cwnd += (window.mss * Double(acked) / window.cwnd).rounded(.down)
        }
    }

    /// RFC 9002 §7.3.2 (`OnCongestionEvent`, kLossReductionFactor = 0.5):
    /// ssthresh = ⌊cwnd / 2⌋, cwnd = max(ssthresh, kMinimumWindow).
    public mutating func onCongestionEvent(_ window: inout CongestionWindow, flightSize: Double) {
        window.ssthresh = (window.cwnd / 2).rounded(.down)
        window.cwnd = Swift.max(window.ssthresh, 2 * window.mss)
    }
}

/// A sender's congestion window and slow-start threshold, in bytes, with the segment size the
/// algorithms count in (TCP's SMSS, QUIC's max_datagram_size).
public struct CongestionWindow: Sendable, Equatable {
    /// The congestion window, bytes.
    public var cwnd: Double
    /// The slow-start threshold, bytes (infinite until the first congestion event).
    public var ssthresh: Double = .infinity
    /// The segment size, bytes.
    public let mss: Double

    /// A window of `cwnd` bytes for segments of `mss` bytes.
    public init(cwnd: Double, mss: Double) {
        self.cwnd = cwnd
        self.mss = mss
    }

    /// Whether the sender is in slow start (cwnd < ssthresh; RFC 5681 §3.1).
    public var inSlowStart: Bool { cwnd < ssthresh }
}

/// A congestion-control algorithm, as smoltcp's `Controller`: how the window grows on
/// acknowledgements and shrinks on congestion. Loss recovery itself (fast retransmit, window
/// inflation, RTO collapse, QUIC's recovery period) stays with the transport; one file per
/// algorithm: `NewReno.swift` (RFC 5681 for TCP, RFC 9002 §7.3 for QUIC), `Cubic.swift`
/// (RFC 9438).
public protocol CongestionController: Sendable {
    /// Growth after `acked` newly acknowledged bytes outside loss recovery: slow start below
    /// ssthresh, congestion avoidance above. `srtt` is the smoothed RTT in seconds, if known.
    mutating func onAck(_ window: inout CongestionWindow, acked: Int64, now: SimTime, srtt: Double?)
    /// A congestion event (loss detected by acknowledgements or by a timeout): sets the slow-start
    /// threshold from the window or `flightSize`, and the algorithm's own state.
    mutating func onCongestionEvent(_ window: inout CongestionWindow, flightSize: Double)
}

/// The algorithm a TCP endpoint runs (`transport.congestionControl`), dispatched with a
/// `switch` so calls stay static.
public enum TcpCongestionControl: CongestionController {
    /// RFC 5681 with RFC 6582's fast recovery.
    case newReno(NewReno)
    /// RFC 9438.
    case cubic(Cubic)

    /// The algorithm `choice` names, in its initial state.
    public init(_ choice: CongestionControl) {
        switch choice {
        case .newreno: self = .newReno(NewReno())
        case .cubic: self = .cubic(Cubic())
        }
    }

    /// See `CongestionController`.
    public mutating func onAck(_ window: inout CongestionWindow, acked: Int64, now: SimTime, srtt: Double?) {
        switch self {
        case .newReno(var a):
            a.onAck(&window, acked: acked, now: now, srtt: srtt)
            self = .newReno(a)
        case .cubic(var a):
            a.onAck(&window, acked: acked, now: now, srtt: srtt)
            self = .cubic(a)
        }
    }

    /// See `CongestionController`.
    public mutating func onCongestionEvent(_ window: inout CongestionWindow, flightSize: Double) {
        switch self {
        case .newReno(var a):
            a.onCongestionEvent(&window, flightSize: flightSize)
            self = .newReno(a)
        case .cubic(var a):
            a.onCongestionEvent(&window, flightSize: flightSize)
            self = .cubic(a)
        }
    }
}

// What the three transports share: TCP's header flags, segment and packet sizes, and the
// events and notices a transport endpoint raises.

/// TCP header flags.
public enum TcpFlags {
    public static let syn: UInt8 = 1
    public static let ack: UInt8 = 2
    public static let fin: UInt8 = 4
    /// Marks a keepalive probe (on the wire: an ACK whose sequence number is one below the
    /// next expected, RFC 1122 §4.2.3.6); the simulator labels it so the peer answers it.
    public static let keepalive: UInt8 = 8
    /// PSH: set on a data segment that reaches the end of the data written so far (RFC 9293
    /// §3.9.1.2; the BSD `tcp_output` rule).
    public static let push: UInt8 = 16
}

/// TCP settings of a run, with defaults and sources (transport.md unless said otherwise).
public struct TcpConfig: Sendable, Equatable {
    /// Congestion controller: CUBIC by default, as on Apple platforms and Linux.
    public var congestionControl: CongestionControl = .cubic
    /// Nagle off? `false`: Nagle on, Network.framework's default (`noDelay = false`).
    public var noDelay = false
    /// Delayed-ACK timer: XNU's 100 ms.
    public var delayedAck = SimTime.milliseconds(100)
    /// ACK a segment that carries PSH at once instead of delaying it (`transport.tcp.ackOnPush`,
    /// default on): XNU's `tcp_cc_delay_ack` (apple/darwin-xnu, `bsd/netinet/tcp_cc.c`) never
    /// delays the ACK of a PUSH segment, "a clue that we need to ACK with no delay" for
    /// protocols that wait for their last segment to be acknowledged (radar 3649245) — exactly
    /// the Nagle sender of small echoes. Off: RFC 1122's plain delayed ACK.
    public var ackOnPush = true
    /// Initial RTO: 1 s (RFC 6298 §2.1).
    public var initialRto = SimTime.seconds(1)
    /// Minimum RTO: 200 ms, as Linux uses (RFC 6298 §2.4's 1 s is a SHOULD); an assumption for
    /// Darwin.
    public var minRto = SimTime.milliseconds(200)
    /// Maximum RTO: 60 s (RFC 6298 §2.5 allows a maximum of at least 60 s).
    public var maxRto = SimTime.seconds(60)
    /// Send buffer: 2 MiB (assumption: Darwin's automatic buffer limit).
    public var sendBuffer: Int64 = 2 << 20
    /// Receive buffer, advertised as the window (scaled): 2 MiB (assumption, as above).
    public var receiveBuffer: Int64 = 2 << 20
    /// TCP header with the timestamps option: 20 + 12 bytes (RFC 7323 §3); SYNs carry MSS,
    /// window scale, SACK-permitted and timestamps: 40 bytes.
    public var headerBytes: Int32 = 32
    /// See `headerBytes`.
    public var synHeaderBytes: Int32 = 40
    /// Selective acknowledgements (RFC 2018) with RFC 6675 loss recovery. Off by default so the
    /// default stack is the NewReno/CUBIC with fast recovery; `transport.tcp.sack`
    /// turns it on (Darwin and Linux negotiate SACK by default).
    public var sack = false
    /// Keepalive idle time: 2 s, as the thesis app configures it (seed 001); `nil` = off.
    public var keepaliveIdle: SimTime? = .seconds(2)
    /// Keepalive probe interval: 75 s (Darwin's and RFC 1122 §4.2.3.6's customary default).
    public var keepaliveInterval = SimTime.seconds(75)

    /// Defaults.
    public init() {}

}

/// The retransmission timer's estimator (RFC 6298 §2).
public struct RttEstimator: Sendable, Equatable {
    /// Smoothed RTT, seconds.
    public private(set) var srtt: Double?
    /// RTT variation, seconds.
    public private(set) var rttvar: Double = 0
    /// The current RTO before back-off.
    public private(set) var rto: SimTime
    let minRto: SimTime
    let maxRto: SimTime
    /// Clock granularity G: 1 ms (assumption, a fine-grained clock).
    public static let granularity = 0.001

    /// Before the first sample: RTO = initial (RFC 6298 §2.1).
    public init(initial: SimTime, minRto: SimTime, maxRto: SimTime) {
        rto = initial
        self.minRto = minRto
        self.maxRto = maxRto
    }

    /// Takes an RTT sample R, seconds (RFC 6298 §2.2–2.4):
    /// first: SRTT ← R, RTTVAR ← R/2; then RTTVAR ← ¾·RTTVAR + ¼·|SRTT − R|, SRTT ← ⅞·SRTT + ⅛·R;
    /// RTO ← SRTT + max(G, 4·RTTVAR), clamped to [min, max].
    public mutating func sample(_ r: Double) {
        let smoothed: Double
        if let s = srtt {
            rttvar = 0.75 * rttvar + 0.25 * abs(s - r)
            smoothed = 0.875 * s + 0.125 * r
        } else {
            smoothed = r
            rttvar = r / 2
        }
        srtt = smoothed
        let value = smoothed + Swift.max(RttEstimator.granularity, 4 * rttvar)
        rto = Swift.min(Swift.max(.seconds(value), minRto), maxRto)
    }
}

import Foundation

/// CUBIC (RFC 9438): after a congestion event the window follows
/// W(t) = C·(t − K)³ + W_max (§4.2, eq. 1), never below the Reno-friendly estimate (§4.3), in
/// segments and seconds, with C = 0.4 and β = 0.7.
public struct Cubic: CongestionController, Equatable {
    /// C (§5.1).
    public static let c = 0.4
    /// β_cubic (§4.6).
    public static let beta = 0.7
    /// The window before the last reduction, segments.
    var wMax = 0.0
    /// The start of the current congestion-avoidance epoch.
    var epochStart: SimTime?
    /// K (§4.2, eq. 2): seconds for W(t) to climb back to W_max.
    var k = 0.0
    /// The Reno-friendly estimate W_est (§4.3), segments.
    var wEst = 0.0

    /// A controller.
    public init() {}

    /// Slow start as RFC 5681 (§4.10); above ssthresh the cubic growth of §4.2–4.4: the target
    /// is W(t + RTT), growth is at most 1.5× per RTT, and never below W_est.
    public mutating func onAck(_ window: inout CongestionWindow, acked: Int64, now: SimTime, srtt: Double?) {
        let mss = window.mss
        if window.inSlowStart {
            window.cwnd += Swift.min(Double(acked), mss)  // RFC 5681 §3.1, eq. 2
            return
        }
        let c = Cubic.c, beta = Cubic.beta
        let segments = window.cwnd / mss
        let start: SimTime
        if let e = epochStart {
            start = e
        } else {
            start = now
            epochStart = now
            if segments < wMax {
                k = cbrt((wMax - segments) / c)  // eq. 2, with cwnd at the epoch start
            } else {
                k = 0
                wMax = segments
            }
            wEst = segments
        }
        let t = (now - start).inSeconds + (srtt ?? 0)
        let target = c * pow(t - k, 3) + wMax  // eq. 1, one RTT ahead
        // Reno-friendly estimate (§4.3): α = 3(1 − β)/(1 + β) segments per window.
        wEst += 3 * (1 - beta) / (1 + beta) * (Double(acked) / mss) / segments
        var next = segments
        if target > segments { next = segments + Swift.min(target - segments, segments / 2) / segments }  // §4.4
        next = Swift.max(next, wEst)
        window.cwnd = Swift.max(next, segments) * mss
    }

    /// §4.6–4.7: ssthresh = max(β·cwnd, 2·SMSS); W_max remembers the window, reduced further
    /// when it is below the previous W_max (fast convergence); a new epoch starts.
    public mutating func onCongestionEvent(_ window: inout CongestionWindow, flightSize: Double) {
        let segments = window.cwnd / window.mss
        wMax = segments < wMax ? segments * (1 + Cubic.beta) / 2 : segments
        window.ssthresh = Swift.max(window.cwnd * Cubic.beta, 2 * window.mss)
        epochStart = nil
    }
}

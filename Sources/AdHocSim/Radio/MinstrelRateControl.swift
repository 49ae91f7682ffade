/// Rate control that learns from losses, as Minstrel-HT does (`radio.rateControl: "minstrel"`,
/// the default): one controller per transmitter and peer.
///
/// Sources: radio.md, "Wi-Fi rate control" (Apple's rate control is not public; Minstrel-HT is
/// the open standard); Linux mac80211 `net/mac80211/rc80211_minstrel_ht.c`; ns-3
/// `MinstrelHtWifiManager`. What the model keeps of it:
/// - Statistics per rate: MPDUs attempted and acknowledged. Every 50 ms (`interval`) each rate
///   attempted in the interval updates its success probability as an EWMA that keeps 75 % of
///   the old value (`ewmaWeight`); a rate never attempted keeps its estimate.
/// - Throughput of a rate: success probability × PHY rate, zero below 10 % success
///   (`minimumProbability`). The controller keeps the best and second-best throughput rates and
///   the rate of highest probability.
/// - A multi-rate retry chain by attempt: attempts 1–2 at the best throughput rate, 3–4 at the
///   second best, 5–6 at the most probable, later ones at the lowest rate (four chain segments,
///   as mac80211's rate table of 4 entries; the per-segment attempt counts are an assumption
///   standing for its "at most ~6 ms per segment"). With the MAC's retry limit of 7 a frame
///   reaches the lowest rate before it is dropped. Failed MPDUs of an A-MPDU stay queued and
///   ride in later A-MPDUs (the MAC's block-ack retries).
/// - Sampling: every 10th first attempt (about 10 % of frames, `sampleEvery`) goes at a rate
///   drawn uniformly, from the station's own stream, among those whose PHY rate exceeds the
///   best rate's current throughput (mac80211 samples rates that could do better).
/// - Start: before any statistics the best rate is the one the median-SNR rule picks for the
///   peer, as a driver seeds its rate from the peer's received signal strength (assumption: the
///   seed rule of iOS is not public); the second best is the next lower rate, the most probable
///   the lowest.
/// Not modelled: mac80211's per-group sample tables, its airtime-based throughput (rate ×
/// probability here) and its probing of lower rates; Apple's own algorithm.
public struct MinstrelRateControl: Sendable {
    /// The statistics interval: 50 ms (mac80211, radio.md).
    public static let interval = SimTime.milliseconds(50)
    /// The weight of the old probability in the EWMA: 75 % (mac80211, radio.md).
    public static let ewmaWeight = 0.75
    /// Below this success probability a rate's throughput counts as zero (mac80211, radio.md).
    public static let minimumProbability = 0.1
    /// One first attempt in this many is a sample (about 10 % of frames, radio.md).
    public static let sampleEvery = 10

    /// The candidate rates, slowest first.
    public let rates: [Mcs]
    /// Their PHY rates, bit/s.
    let bitsPerSecond: [Double]
    /// Per rate, this interval's attempted and acknowledged MPDUs.
    var attempted: [Int], acknowledged: [Int]
    /// Per rate, the smoothed success probability, or `nil` before any attempt.
    public private(set) var probability: [Double?]
    /// When the statistics are next folded in.
    var nextUpdate: SimTime
    /// Indices into `rates`: the best and second-best throughput, the most probable.
    public private(set) var best: Int, second: Int, mostProbable: Int
    /// First attempts transmitted so far (for sampling).
    var firstAttempts = 0
    /// The sample drawn for the next first attempt, kept while its transmission waits (an AWDL
    /// window, a busy medium), so a deferred frame neither draws again nor counts twice.
    var pendingSample: Int?

    /// A controller over `rates` (slowest first, with their PHY rates), starting from `start`.
    public init(rates: [Mcs], bitsPerSecond: [Double], start: Int, now: SimTime) {
        precondition(!rates.isEmpty && rates.count == bitsPerSecond.count)
        self.rates = rates
        self.bitsPerSecond = bitsPerSecond
        attempted = Array(repeating: 0, count: rates.count)
        acknowledged = attempted
        probability = Array(repeating: nil, count: rates.count)
        nextUpdate = now + MinstrelRateControl.interval
        best = start
        second = Swift.max(start - 1, 0)
        mostProbable = 0
    }

    /// The expected throughput of rate `k`, bit/s (0 below 10 % success or without statistics).
    public func throughput(_ k: Int) -> Double {
        guard let p = probability[k], p >= MinstrelRateControl.minimumProbability else { return 0 }
        return p * bitsPerSecond[k]
    }

    /// The rate of attempt `attempt` (1 = first) in the retry chain.
    public func chain(attempt: Int) -> Int {
        switch attempt {
        case ...2: return best
        case 3...4: return second
        case 5...6: return mostProbable
        default: return 0
        }
    }

    /// The rate for attempt `attempt` of the head frame: the chain's, or for every
    /// `sampleEvery`-th first attempt transmitted a sample drawn from `stream` (once, however
    /// often the frame's access is deferred).
    public mutating func choose(attempt: Int, stream: inout RandomStream) -> Int {
        guard attempt == 1 else { return chain(attempt: attempt) }
        guard (firstAttempts + 1) % MinstrelRateControl.sampleEvery == 0 else { return best }
        if let k = pendingSample { return k }
        let floor = throughput(best)
        var faster = 0
        for k in rates.indices where k != best && bitsPerSecond[k] > floor { faster += 1 }
        guard faster > 0 else { return best }
        var pick = Int(stream.uniformInt(below: UInt64(faster)))
        for k in rates.indices where k != best && bitsPerSecond[k] > floor {
            if pick == 0 {
                pendingSample = k
                return k
            }
            pick -= 1
        }
        return best
    }

    /// Attempt `attempt` of a frame went on the air: a first attempt counts toward sampling.
    public mutating func transmitted(attempt: Int) {
        guard attempt == 1 else { return }
        firstAttempts += 1
        pendingSample = nil
    }

    /// An exchange at rate `k` ended at `now`: `sent` MPDUs, `delivered` of them acknowledged.
    public mutating func report(rate k: Int, sent: Int, delivered: Int, now: SimTime) {
        if now >= nextUpdate { update(now: now) }
        attempted[k] += sent
        acknowledged[k] += delivered
    }

    /// Folds the interval's counts into the probabilities and picks the chain's rates.
    mutating func update(now: SimTime) {
        for k in rates.indices where attempted[k] > 0 {
            let p = Double(acknowledged[k]) / Double(attempted[k])
            probability[k] =
                probability[k].map {
                    MinstrelRateControl.ewmaWeight * $0 + (1 - MinstrelRateControl.ewmaWeight) * p
                } ?? p
            attempted[k] = 0
            acknowledged[k] = 0
        }
        // Rates with statistics compete; without any, the current choice stands.
        let known = rates.indices.filter { probability[$0] != nil }
        if !known.isEmpty {
            let ranked = known.sorted { (throughput($0), $0) > (throughput($1), $1) }
            if throughput(ranked[0]) > 0 {
                best = ranked[0]
                second = ranked.count > 1 && throughput(ranked[1]) > 0 ? ranked[1] : Swift.max(best - 1, 0)
            } else {
                // Nothing known gets through: step down below the slowest known rate tried.
                best = Swift.max((known.min() ?? 1) - 1, 0)
                second = Swift.max(best - 1, 0)
            }
            // `known` holds only rates with a probability, and is not empty here.
            let probability = self.probability
            mostProbable = known.max { (probability[$0] ?? 0, $0) < (probability[$1] ?? 0, $1) } ?? 0
            if (probability[mostProbable] ?? 0) < MinstrelRateControl.minimumProbability { mostProbable = 0 }
        }
        let intervals = (now - nextUpdate).nanoseconds / MinstrelRateControl.interval.nanoseconds + 1
        nextUpdate = nextUpdate + MinstrelRateControl.interval * intervals
    }
}

/// Multicast DNS as Bonjour runs it over the link (RFC 6762), for both places that use it: the
/// Multipeer set-up's discovery (`MultipeerSetup`) and a flow's apps finding each other
/// (`AppDiscovery`). Timings are the RFC's; frame sizes are assumptions from the messages'
/// structure.
enum MulticastDns {
    /// A query (or probe): IPv6, UDP, the DNS header and one question, 90 bytes (assumption).
    static let queryBytes: Int32 = 90
    /// An answer or announcement: PTR, SRV, TXT and AAAA records, 250 bytes (assumption).
    static let answerBytes: Int32 = 250
    /// A browser's first query interval, doubled after each query (§5.2).
    static let firstQueryInterval = SimTime.seconds(1)
    /// The longest query interval: 60 min (§5.2).
    static let maxQueryInterval = SimTime.seconds(3600)
    /// Announcements are sent twice, 1 s apart (§8.3).
    static let announceSpacing = SimTime.seconds(1)
    /// A responder's three probes are 250 ms apart, and it may use its records 250 ms after the
    /// third (§8.1).
    static let probeSpacing = SimTime.milliseconds(250)

    /// The random 20–120 ms before a first query (§5.2) or an answer to a shared record (§6),
    /// from a uniform draw `u` in [0, 1).
    static func responseDelay(_ u: Double) -> SimTime { .nanoseconds(20_000_000 + Int64(u * 100_000_000)) }

    /// The random 0–250 ms before a responder's first probe (§8.1), from a uniform draw `u`.
    static func probeDelay(_ u: Double) -> SimTime { .nanoseconds(Int64(u * 250_000_000)) }

    /// The query interval after `interval`: doubled, at most `maxQueryInterval` (§5.2).
    static func nextQueryInterval(after interval: SimTime) -> SimTime { min(interval + interval, maxQueryInterval) }
}

extension EventKind {
    /// A step of a flow's app discovery is due (target: flow, arg: `AppDiscovery.Step`).
    public static let discoveryStep = EventKind(rawValue: 215)
}

/// How a flow's two apps find each other before the client connects (`flows[i].discovery`), as
/// the thesis app does with Network.framework: the server's `NWListener` advertises a Bonjour
/// service (`_txtchat._tcp`, `_txtchat._udp`, `_txtchatquic._udp`; seeds 000, 001), the client's
/// `NWBrowser` looks for it over AWDL, and the client connects to the endpoint it found.
///
/// Multicast DNS (RFC 6762) gives the steps:
/// - the listener **probes** its unique records first: after a random 0–250 ms, three probes
///   250 ms apart, and 250 ms after the third it may use them (§8.1); it then **announces**
///   them twice, 1 s apart (§8.3), and answers a query after a random 20–120 ms (§6, a shared
///   PTR record);
/// - the browser **queries** after a random 20–120 ms and again after 1 s, 2 s, 4 s …, each
///   interval doubling up to 60 min (§5.2), until it has an answer;
/// - the client has **found** the service when an answer arrives: the PTR answer carries the SRV,
///   TXT and address records in its additional section (RFC 6763 §12), so it connects at once
///   (assumption: no separate resolve). **Ready** is the connection's set-up done; the **first
///   echo** the first probe's echo read by the app.
///
/// Sizes and timings are `MulticastDns`'s; the frames are link broadcasts on a radio and frames
/// to the peer on the ideal link.
public struct AppDiscovery: Sendable, Equatable {
    /// A step, as a `discoveryStep` event's argument.
    public enum Step: UInt64, Sendable {
        /// The listener's probes.
        case probe0, probe1, probe2
        /// Its two announcements.
        case announce0, announce1
        /// A browser query.
        case query
        /// The listener's answer to a query.
        case answer
    }

    /// The kinds of frame, in a `bonjour` packet's tag (`flow << 8 | kind`).
    public enum Frame: UInt64, Sendable {
        case query, answer
        /// Bytes on the link (`MulticastDns`).
        public var bytes: Int32 { self == .query ? MulticastDns.queryBytes : MulticastDns.answerBytes }
    }

    /// When the apps started (the flow's `start`).
    public let appStart: SimTime
    /// When the listener sent its first probe, could use its records, and the browser found it.
    public var firstProbe: SimTime?
    /// See `firstProbe`.
    public var announced: SimTime?
    /// See `firstProbe`.
    public var found: SimTime?
    /// When the client's connection was ready.
    public var ready: SimTime?
    /// Queries the browser sent and answers the listener sent (announcements included).
    public var queries = 0
    /// See `queries`.
    public var answers = 0
    /// The browser's next query interval.
    var queryInterval = MulticastDns.firstQueryInterval

    /// Discovery of apps started at `start`.
    public init(start: SimTime) { appStart = start }

    /// A tag for flow `k`'s frame `f`.
    static func tag(flow k: Int, _ f: Frame) -> UInt64 { UInt64(k) << 8 | f.rawValue }
    /// The flow and frame of a tag.
    static func untag(_ tag: UInt64) -> (flow: Int, frame: Frame) { (Int(tag >> 8), tag & 1 == 0 ? .query : .answer) }

    /// The wait before the next query, which then doubles (§5.2).
    mutating func nextQueryWait() -> SimTime {
        let wait = queryInterval
        queryInterval = MulticastDns.nextQueryInterval(after: queryInterval)
        return wait
    }
}

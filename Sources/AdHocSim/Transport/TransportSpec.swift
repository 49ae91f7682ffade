// The `transport` section as the file gave it: IP version, datagram limit, TCP's and QUIC's settings.

/// IP version of the flows (`transport.ipVersion`).
public enum IpVersion: String, Sendable, CaseIterable {
    /// IPv6 link-local, as AWDL uses (radio.md: "data frames are IPv6 link-local").
    case ipv6
    /// IPv4.
    case ipv4
}

/// TCP congestion controllers (`transport.tcp.congestionControl`).
public enum CongestionControl: String, Sendable, CaseIterable {
    /// RFC 5681 with RFC 6582's fast recovery.
    case newreno
    /// RFC 9438.
    case cubic
}

/// The `transport` section as the file gave it; the transport layer supplies cited defaults.
public struct TransportSpec: Sendable, Equatable {
    public var ipVersion: IpVersion?
    public var maxDatagramBytes: Int?
    public var congestionControl: CongestionControl?
    public var noDelay: Bool?
    public var delayedAckMs: Double?
    /// ACK PUSH segments at once (`transport.tcp.ackOnPush`).
    public var ackOnPush: Bool?
    public var minRtoMs: Double?
    public var sendBufferBytes: Int?
    public var receiveBufferBytes: Int?
    /// TCP selective acknowledgements (`transport.tcp.sack`).
    public var sack: Bool?
    /// TCP keepalive idle time, s (`transport.tcp.keepaliveIdleS`; null = off).
    public var keepaliveIdleS: PresetOverride<Double> = .preset
    /// QUIC: one stream per write (`transport.quic.streamPerWrite`).
    public var quicStreamPerWrite: Bool?
    /// QUIC: certificate chain bytes in the server flight (`transport.quic.certificateBytes`).
    public var quicCertificateBytes: Int?
    /// QUIC: 0-RTT data on resumption (`transport.quic.zeroRtt`).
    public var quicZeroRtt: Bool?
    /// QUIC: pack queued contiguous stream data into one packet (`transport.quic.coalesce`).
    public var quicCoalesce: Bool?
    /// Nothing set.
    public init() {}
}

extension ScenarioDecoder {
    /// Decodes the `transport` object by its declarations (`TransportParameters.section`).
    func decodeTransport(_ node: JSONNode, _ path: JSONPath) -> TransportSpec? {
        decode(TransportParameters.section, node, path, into: TransportSpec(), perNode: false)
    }
}

// The IP version a flow runs over.

/// IP version of the flows (`transport.ipVersion`).
public enum IpVersion: String, Sendable, CaseIterable {
    /// IPv6 link-local, as AWDL uses (radio.md: "data frames are IPv6 link-local").
    case ipv6
    /// IPv4.
    case ipv4
}

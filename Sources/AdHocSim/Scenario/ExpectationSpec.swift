/// A routing regression check (`expectations[i]`), evaluated by `adhocsim check`.
public enum Expectation: Sendable, Equatable {
    /// A route from `from` to `to` exists at or before `time` (checked every 100 ms).
    case routeBy(time: SimTime, from: Int, to: Int)
    /// At `time`, the route from `from` to `to` exists, avoids `avoids` and has at most `maxHops` hops.
    case routeAt(time: SimTime, from: Int, to: Int, avoids: [Int], maxHops: Int?)
    /// At the end, no Multipeer session holds more than `max` nodes (the node included).
    case maxSessionSize(max: Int)
    /// At the end, no phone has more than `max` session peers (seed 002: "each node can
    /// connect to up to 8 other nodes").
    case maxNeighbours(max: Int)
    /// The run's event-trajectory fingerprint equals `hex`.
    case fingerprint(String)
    /// At the end, the delivery ratio of mesh message workload `workload` (index into
    /// `mesh.messages`) is at least `min` and at most `max`.
    case deliveryRatio(workload: Int, min: Double?, max: Double?)
    /// At the end, the share of the bytes flow `flow` (index into `flows`) wrote that reached
    /// its server is at least `min` and at most `max` (a flow across the mesh that must work).
    case flowDelivered(flow: Int, min: Double?, max: Double?)
    /// Every ordered pair of nodes first holds a route at most `within` after both joined
    /// (time zero, or their `join` event), unless the run ends first: MAdHoc's "routes
    /// established within 10 seconds of connecting" (seed 002).
    case routesWithin(SimTime)
}

/// The `metric` expectations, each declared once: its name in the file, its form and what it
/// checks (the decoder's choices, `adhocsim check --help` and the schema test read this list).
public enum ExpectationMetric: String, CaseIterable, Sendable {
    case maxSessionSize = "max_session_size"
    case maxNeighbours = "max_neighbours"
    case deliveryRatio = "delivery_ratio"
    case flowDelivered = "flow_delivered"
    case routesWithin = "routes_within_s"

    /// The expectation as written in a scenario.
    public var form: String {
        switch self {
        case .maxSessionSize: return "{\"metric\": \"max_session_size\", \"max\": 8}"
        case .maxNeighbours: return "{\"metric\": \"max_neighbours\", \"max\": 8}"
        case .deliveryRatio: return "{\"metric\": \"delivery_ratio\", \"flow\": \"<mesh.messages id>\", \"min\": 0.99}"
        case .flowDelivered: return "{\"metric\": \"flow_delivered\", \"flow\": \"<flows id>\", \"min\": 0.99}"
        case .routesWithin: return "{\"metric\": \"routes_within_s\", \"max\": 10}"
        }
    }

    /// What it checks.
    public var help: String {
        switch self {
        case .maxSessionSize:
            return "at the end, no Multipeer session holds more than max nodes, the phone included (a phone's "
                + "peers fill its sessions one after another, mesh.maxPeers − 1 others each)"
        case .maxNeighbours:
            return "at the end, no phone has more than max session peers (seed 002: up to 8 other nodes)"
        case .deliveryRatio:
            return "at the end, the share of a mesh message workload's messages delivered is within min...max "
                + "(a group id: every recipient's share)"
        case .flowDelivered:
            return "at the end, the share of the bytes a flow wrote that reached its server is within min...max"
        case .routesWithin:
            return "every ordered pair first holds a route at most max seconds after both joined (unless the run "
                + "ends first; seed 002: routes within 10 s of connecting)"
        }
    }

    /// Every expectation form with what it checks, for help texts: the two route forms, the
    /// metrics, the fingerprint.
    public static var forms: [(form: String, help: String)] {
        [
            (
                "{\"by_s\": T, \"route\": {\"from\", \"to\"}}",
                "a route from → to exists at or before T s (checked every 100 ms)"
            ),
            (
                "{\"at_s\": T, \"route\": {\"from\", \"to\", \"avoids\": [...], \"maxHops\": N}}",
                "at T s the route exists, relays through none of avoids and has at most maxHops hops"
            )
        ] + allCases.map { ($0.form, $0.help) } + [
            ("{\"fingerprint\": \"<16 hex digits>\"}", "the run's event-trajectory fingerprint is this one")
        ]
    }
}

// World layer: builds one run from a `Scenario` and owns its state while it runs.
//
// The world holds every node in dense arrays indexed by node number (names are resolved once,
// here), asks each layer's model for its events, and is the `EventHandler` the core's loop
// calls: it dispatches on `EventKind` with a `switch` to the layer that owns the kind. It
// depends on the scenario's validated values and on the core; the metrics recorders read it
// when the run ends. Radio, link, transport and mesh state join it as those layers land.

/// The nodes of a run: positions by dense index.
///
/// Positions are read through `position(of:at:)`, a function of time, so that mobility can
/// replace the static table without touching its callers.
public struct NodeTable: Sendable {
    /// Node names, by index.
    public let ids: [String]
    private let positions: [Position]

    /// The nodes of `scenario`, in file order.
    public init(_ scenario: Scenario) {
        ids = scenario.nodes.map(\.id)
        positions = scenario.nodes.map(\.position)
    }

    /// The number of nodes.
    public var count: Int { ids.count }

    /// Where node `index` is at `time` (static in this version).
    public func position(of index: Int, at time: SimTime) -> Position { positions[index] }
}

/// The state of one run and the handler of its events.
public struct World: EventHandler {
    /// The nodes.
    public let nodes: NodeTable

    /// Builds the world of `scenario` and schedules its initial events into `sim`.
    public init(_ scenario: Scenario, sim: inout Simulation) {
        nodes = NodeTable(scenario)
    }

    /// Dispatches an event to the layer that owns its kind.
    public mutating func handle(_ event: Event, in sim: inout Simulation) {
        switch event.kind {
        default:
            preconditionFailure("no layer owns event kind \(event.kind.rawValue)")
        }
    }
}

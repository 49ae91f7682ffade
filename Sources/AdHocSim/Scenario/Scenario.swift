/// A validated simulation scenario: the effective input of one run.
public struct Scenario: Sendable {
    /// The scenario's name; results go to `results/<name>/` by default.
    public var name: String
    /// The run seed: the root of every random stream.
    public var seed: UInt64
    /// Simulated time to run for.
    public var duration: SimTime
    /// The place and its propagation parameters.
    public var environment: EnvironmentSpec
    /// The radio technology and its settings.
    public var radio: RadioSpec
    /// The ideal link's settings (`radio.technology: "ideal"`).
    public var link: IdealLinkSpec
    /// The parameter matrix, for `adhocsim sweep` (a single `run` ignores it).
    public var matrix: Matrix?
    /// IP and transport settings.
    public var transport: TransportSpec
    /// The 802.11 MAC's settings.
    public var mac: MacSpec
    /// Every phone's per-message processing cost (`host`; a node's own `host` overrides it).
    public var host: HostSpec
    /// Link-layer traffic generators.
    public var traffic: [TrafficSpec]
    /// `distance_m`: where the second of two nodes stands from the first, if set.
    public var distance: DistanceSpec?
    /// Routing regression checks for `adhocsim check`.
    public var expectations: [Expectation]
    /// The sections of the optional layers (`LayerSpecs`, registered in `Layers/`).
    public var layers: LayerSpecs
    /// Scripted failures, recoveries, joins and moves, in file order.
    public var events: [NodeEvent]
    /// The phones, in file order; a node's index in this array is its dense id.
    public var nodes: [NodeSpec]
    /// Traffic between nodes.
    public var flows: [FlowSpec]
    /// Guards every run has.
    public var limits: RunLimits
    /// The file the scenario came from (as given on the command line).
    public var sourcePath: String
    /// The effective input after overrides, as the file had it (member order kept).
    public var effectiveInput: JSONNode
    /// The effective input in canonical form (sorted keys, normalised numbers).
    public var canonicalInput: String
    /// FNV-1a 64 of `canonicalInput`, as 16 hex digits.
    public var inputHash: String
}

extension Scenario {
    /// How flow `k` travels: what its `via` says, else the mesh when the scenario has one.
    public func carrier(of k: Int) -> FlowCarrier {
        flows[k].via ?? (mesh == nil ? .link : .mesh)
    }
}

/// One phone.
public struct NodeSpec: Sendable, Equatable {
    /// The node's name in the file (unique).
    public var id: String
    /// Position in metres, `[x, y, z]`.
    public var position: Position
    /// AWDL slots this node occupies (bit s = slot s), or `nil` for `radio.awdlSlots`.
    public var awdlSlots: UInt16?
    /// How the node moves; `nil`: it stands at `position`.
    public var mobility: MobilitySpec?
    /// This phone's processing cost, where it differs from the scenario's `host`.
    public var host: HostSpec?
}

/// A point in metres.
public struct Position: Sendable, Equatable {
    /// East, metres.
    public var x: Double
    /// North, metres.
    public var y: Double
    /// Up, metres.
    public var z: Double

    /// A point at `(x, y, z)` metres.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Euclidean distance in metres.
    public func distance(to other: Position) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }
}

/// `distance_m` of a two-node scenario: metres, or `"max"` for the place's maximum range.
public enum DistanceSpec: Sendable, Equatable {
    /// A distance in metres.
    case metres(Double)
    /// The maximum range of the scenario's place and radio (`adhocsim range`).
    case max
}

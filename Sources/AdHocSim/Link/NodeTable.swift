/// The nodes of a run: where each is, as a function of time.
///
/// Every node has a trajectory: `(time, position)` points with linear movement between them
/// (one point for a node that stands still). Random-waypoint trajectories are drawn at build
/// time from the node's own stream (`node:<i>/mobility`), so they depend only on the seed.
public struct NodeTable: Sendable {
    /// Node names, by index.
    public let ids: [String]
    var trajectories: [[(time: SimTime, position: Position)]]
    /// Whether any node moves (or may be moved by an event).
    public let anyMobile: Bool
    /// Per node: it moves.
    public let mobile: [Bool]
    /// How often moving nodes' positions are sampled into the channel: 100 ms (assumption:
    /// a walking phone moves 15 cm in that time).
    public static let samplingInterval = SimTime.milliseconds(100)

    /// The nodes of `scenario`, in file order. With `distance_m`, the second node stands that
    /// far from the first along x (same height); `"max"` resolves to the maximum range.
    public init(_ scenario: Scenario) {
        ids = scenario.nodes.map(\.id)
        var positions = scenario.nodes.map(\.position)
        if let d = NodeTable.resolvedDistance(scenario) {
            let a = positions[0]
            positions[1] = Position(x: a.x + d, y: a.y, z: a.z)
        }
        var trajectories: [[(time: SimTime, position: Position)]] = []
        for (i, node) in scenario.nodes.enumerated() {
            switch node.mobility {
            case nil:
                trajectories.append([(.zero, positions[i])])
            case .waypoints(let w)?:
                trajectories.append(w)
            case .randomWaypoint(let speed, let pause, let area)?:
                var stream = RandomStream(seed: scenario.seed, name: "node:\(i)/mobility")
                var t = 0.0
                var here = positions[i]
                var points: [(time: SimTime, position: Position)] = [(.zero, here)]
                // The decoder refuses parameters that would need more; this only bounds the tail.
                while t < scenario.duration.inSeconds && points.count < MobilityBounds.maxWaypointsPerNode {
                    let target = Position(
                        x: stream.uniform(area.x.lowerBound, area.x.upperBound),
                        y: stream.uniform(area.y.lowerBound, area.y.upperBound), z: here.z)
                    t += here.distance(to: target) / stream.uniform(speed.lowerBound, speed.upperBound)
                    points.append((.seconds(Swift.min(t, 2e6)), target))
                    t += stream.uniform(pause.lowerBound, pause.upperBound)
                    points.append((.seconds(Swift.min(t, 2e6)), target))
                    here = target
                }
                trajectories.append(points)
            }
        }
        self.trajectories = trajectories
        let moves = Set(scenario.events.filter { $0.action == .move }.map(\.node))
        mobile = trajectories.indices.map { trajectories[$0].count > 1 || moves.contains($0) }
        anyMobile = mobile.contains(true)
    }

    /// The distance `distance_m` asks for, in metres, or `nil`.
    public static func resolvedDistance(_ scenario: Scenario) -> Double? {
        switch scenario.distance {
        case nil: return nil
        case .metres(let d)?: return d
        case .max?: return MaximumRange(scenario).metres
        }
    }

    /// The number of nodes.
    public var count: Int { ids.count }

    /// Where node `index` is at `time`: linear between the trajectory's points.
    public func position(of index: Int, at time: SimTime) -> Position {
        let path = trajectories[index]
        var lo = 0, hi = path.count - 1
        if time <= path[0].time { return path[0].position }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if path[mid].time <= time { lo = mid } else { hi = mid - 1 }
        }
        guard lo + 1 < path.count else { return path[lo].position }
        let a = path[lo], b = path[lo + 1]
        let f = Double((time - a.time).nanoseconds) / Double((b.time - a.time).nanoseconds)
        return Position(
            x: a.position.x + f * (b.position.x - a.position.x), y: a.position.y + f * (b.position.y - a.position.y),
            z: a.position.z + f * (b.position.z - a.position.z))
    }

    /// Node `index` jumps to `position` at `time` and stays there.
    public mutating func teleport(_ index: Int, to position: Position, at time: SimTime) {
        let here = self.position(of: index, at: time)
        trajectories[index] = trajectories[index].filter { $0.time < time } + [(time, here), (time, position)]
    }
}

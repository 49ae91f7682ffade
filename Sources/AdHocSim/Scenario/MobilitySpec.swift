/// How a node moves (`nodes[i].mobility`).
public enum MobilitySpec: Sendable, Equatable {
    /// Piecewise-linear movement through `(t, position)` waypoints, times strictly increasing;
    /// the node stands at the first waypoint before it and at the last one after it.
    case waypoints([(time: SimTime, position: Position)])
    /// Random waypoint (Johnson & Maltz 1996): pick a uniform point in `area`, walk there at a
    /// uniform speed in `speed`, pause a uniform time in `pause`, repeat. Seeded per node.
    case randomWaypoint(
        speed: ClosedRange<Double>, pause: ClosedRange<Double>, area: (x: ClosedRange<Double>, y: ClosedRange<Double>))

    public static func == (a: MobilitySpec, b: MobilitySpec) -> Bool {
        switch (a, b) {
        case (.waypoints(let x), .waypoints(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.time == $1.time && $0.position == $1.position }
        case (.randomWaypoint(let s1, let p1, let a1), .randomWaypoint(let s2, let p2, let a2)):
            return s1 == s2 && p1 == p2 && a1.x == a2.x && a1.y == a2.y
        default:
            return false
        }
    }
}

extension MobilitySpec {
    /// Random waypoint: the walking speeds a scenario may give, m/s (assumption: from barely
    /// moving to well above any walker or vehicle in a crowd).
    static let speedBounds = 0.01...100.0
    /// Random waypoint: the pauses a scenario may give, seconds (assumption: up to an hour).
    static let pauseBounds = 0.0...3600.0

    /// The JSON Schema of `nodes[i].mobility` (`$defs/mobility`): one closed branch per
    /// model, from the declarations (`MobilityParameters`), so it carries the bounds the
    /// decoder checks: times within the longest run, coordinates within
    /// `ScenarioBounds.maxCoordinate`, speeds and pauses within `speedBounds` and
    /// `pauseBounds`, and which keys go together. What it cannot say stays the decoder's: times
    /// increasing, min ≤ max, a non-empty area.
    static var schema: JSONSchema {
        let branches = [MobilityParameters.waypoints, MobilityParameters.randomWaypoint].map {
            $0.schema(perNode: false)
        }
        return .anyOf(branches).description("waypoints, or the random-waypoint model")
    }
}

extension ScenarioDecoder {
    func decodeEvents(_ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int], duration: Double?) -> [NodeEvent]? {
        guard let items = values.array(node, path, "an array of events") else { return nil }
        var result: [NodeEvent] = []
        var ok = true
        for (i, item) in items.enumerated() {
            let p = path.appending(i)
            let start = NodeEventParameters.Item(nodeIndex: nodeIndex, runDuration: duration)
            let read = values.decodeAll(NodeEventParameters.section, item, p, into: start, perNode: false) { r, e in
                // `position` belongs to a move, which needs one; on any other action it cannot act.
                if let action = e.action, action != .move, item["position"] != nil {
                    self.sink.report(
                        "\"position\" goes with a \"move\" only; a \"\(action.rawValue)\" event does not move the node",
                        path: p.appending("position"), at: item["position"]?.origin ?? item.origin)
                    return false
                }
                guard e.action == .move, e.position == nil, item["position"] == nil else { return true }
                _ = r.required("position", "where the node moves")
                return false
            }
            guard let (e, eventOK) = read, eventOK, let action = e.action else { ok = false; continue }
            result.append(NodeEvent(time: .seconds(e.at), node: e.node, action: action, position: e.position))
        }
        return ok ? result : nil
    }
}

extension ScenarioDecoder {
    /// Bluetooth switched off or on needs the phone to scan or advertise over Bluetooth LE.
    func checkBluetoothEvents(_ events: [NodeEvent], _ node: JSONNode, _ path: JSONPath, layers: LayerSpecs) -> Bool {
        guard case .array(let items) = node.value else { return true }
        var ok = true
        for (i, e) in events.enumerated()
        where (e.action == .bluetoothOff || e.action == .bluetoothOn) && i < items.count
            && !layers.usesBluetooth(node: e.node)
        {
            sink.report(
                "\"\(e.action.rawValue)\" switches the phone's Bluetooth, but it has no Bluetooth LE scanner, advertiser "
                    + "or connection in the \"ble\" section", path: path.appending(i).appending("node"),
                at: items[i]["node"]?.origin ?? items[i].origin)
            ok = false
        }
        return ok
    }

    /// The app's Multipeer calls need a mesh; discovery calls need Multipeer set-up; with
    /// sessions fixed as groups (`mesh.sessions`), a phone that disconnects must be in one.
    func checkAppEvents(_ events: [NodeEvent], _ node: JSONNode, _ path: JSONPath, mesh: MeshSpec?) -> Bool {
        guard case .array(let items) = node.value else { return true }
        var ok = true
        for (i, e) in events.enumerated() where e.action.isApp && i < items.count {
            let at = items[i]["action"]?.origin ?? items[i].origin
            guard let mesh else {
                sink.report(
                    "\"\(e.action.rawValue)\" is an app's call on Multipeer Connectivity: the scenario needs a \"mesh\" section",
                    path: path.appending(i).appending("action"), at: at)
                ok = false
                continue
            }
            if e.action == .disconnect {
                if let groups = mesh.sessions, !groups.contains(where: { $0.contains(e.node) }) {
                    sink.report(
                        "this phone is in none of mesh.sessions' groups, so it has no session to disconnect from",
                        path: path.appending(i).appending("node"), at: items[i]["node"]?.origin ?? at)
                    ok = false
                }
            } else if mesh.sessions != nil || (mesh.sessionSetup ?? .multipeer) != .multipeer {
                sink.report(
                    "\"\(e.action.rawValue)\" changes Multipeer discovery, which runs only with \"sessionSetup\": \"multipeer\" "
                        + "and no fixed mesh.sessions", path: path.appending(i).appending("action"), at: at)
                ok = false
            }
        }
        return ok
    }
}

/// The most waypoints a random-waypoint node may need over a run: 100 000 (assumption: a
/// walker changing direction every 10 s for 11 days). Checked from the parameters before any
/// waypoint is drawn.
public enum MobilityBounds {
    /// See above.
    public static let maxWaypointsPerNode = 100_000
}

extension ScenarioDecoder {
    /// Refuses random-waypoint parameters that would need more than
    /// `MobilityBounds.maxWaypointsPerNode` waypoints in `duration` seconds (for example a
    /// centimetre-wide area with no pause). A leg lasts on average at least
    /// max(width, height) / (3 · top speed) + the mean pause: two uniform points in [0, w] lie
    /// w/3 apart on average, and a leg is at least as long as either coordinate's difference.
    func checkWaypointBudget(_ nodes: [NodeSpec], _ node: JSONNode, _ path: JSONPath, duration: Double) -> Bool {
        var ok = true
        for (i, n) in nodes.enumerated() {
            guard case .randomWaypoint(let speed, let pause, let area)? = n.mobility else { continue }
            let side = Swift.max(area.x.upperBound - area.x.lowerBound, area.y.upperBound - area.y.lowerBound)
            let meanLeg = side / (3 * speed.upperBound) + (pause.lowerBound + pause.upperBound) / 2
            let legs = duration / Swift.max(meanLeg, 1e-300)
            // Two waypoints per leg (arrival, end of pause); half the budget for the mean keeps
            // the random tail far below the limit.
            guard 2 * legs > Double(MobilityBounds.maxWaypointsPerNode) / 2 else { continue }
            var at = node.origin
            if case .array(let items) = node.value, i < items.count, let m = items[i]["mobility"] { at = m.origin }
            sink.report(
                "random-waypoint legs here last about \(JSONNumber(meanLeg).literal) s, so \(JSONNumber(duration).literal) s "
                    + "would need about \(JSONNumber((2 * legs).rounded()).literal) waypoints, more than the limit of "
                    + "\(MobilityBounds.maxWaypointsPerNode / 2) expected (\(MobilityBounds.maxWaypointsPerNode) per node); "
                    + "enlarge the area, slow down or add a pause",
                path: path.appending(i).appending("mobility"), at: at)
            ok = false
        }
        return ok
    }
}

/// A scripted event's keys (`events[i]`), each declared once; the table is in
/// `docs/models/core.md`.
enum NodeEventParameters {
    /// One event being read.
    struct Item: NodeReferencing, RunBounded {
        let nodeIndex: [String: Int]
        let runDuration: Double?
        var at = 0.0
        var node = 0
        var action: NodeEvent.Action?
        var position: Position?
    }

    static let section = ParameterSection<Item>(
        "events[i]",
        [
            .withinRun(
                "at_s", phrase: "a time in seconds", suffix: " (the run's duration)", default: "required",
                help: "when it happens", expected: "a time in seconds", source: .required, required: "when, in seconds",
                set: { $0.at = $1 }),
            .nodeReference("node", help: "the node it happens to") { $0.node = $1 },
            Parameter(
                "action",
                .choice(NodeEvent.Action.allCases.map(\.rawValue), set: { $0.action = NodeEvent.Action(rawValue: $1) }),
                default: "required",
                help:
                    "`fail` (silent: sends and receives nothing, loses its queue), `recover`, `join` (absent until then), `move` (teleports); the app's Multipeer calls (with a `mesh`): `disconnect`, `stopAdvertising`, `startAdvertising`, `stopBrowsing`, `startBrowsing`; Bluetooth switched `bluetoothOff` and `bluetoothOn` (a phone with Bluetooth LE)",
                expected: "an event action", source: .required, required: "fail, recover, join, move or an app call"),
            Parameter(
                "position",
                .custom(
                    schema: .ref("position"), value: "`[x, y, z]`, metres",
                    decode: { values, v, at, _, item in
                        // Read only for a move; any other action ignores it.
                        guard item.action == .move else { return true }
                        guard let p = ScenarioDecoder(sink: values.sink).decodePosition(v, at) else { return false }
                        item.position = p
                        return true
                    }),
                default: "required for `move`", help: "where a moving node goes", expected: "a position",
                source: .required)
        ], objectExpected: "an event {\"at_s\", \"node\", \"action\"}")
}

/// What a run looked like over time, for `adhocsim view` (`timeline.jsonl`; recorded only when
/// `run --timeline` or `--view` asks for it).
///
/// One JSON object per line, in recording order, every time an integer count of nanoseconds
/// (`t`). The first line is the header; the others have an `e` (what) field:
///
/// - `{"e": "header", "version": 1, "scenario", "place", "technology", "duration_ns",
///   "range_m", "slice_ns", "nodes": [{"id", "x", "y"}], "events": [{"t", "n", "action"}],
///   "mesh": bool, "heartbeat_ns", "flows": [{"id", "from", "to", "protocol"}],
///   "routes_recorded": bool}`: the run's fixed facts (positions at time zero, the scripted
///   node events, `range_m` the place's maximum one-hop range, `MaximumRange`);
/// - `{"e": "pos", "t", "n", "x", "y"}`: a moving node's position, every 100 ms (the mobility
///   sampling interval) when it changed;
/// - `{"e": "session", "t", "a", "b", "up"}`: a session between nodes `a` < `b` formed or ended
///   (seen at the end of a slice of `slice_ns`);
/// - `{"e": "hb", "t", "n"}`: node `n` originated a heartbeat (a route request with classic
///   DSR);
/// - `{"e": "hop", "t", "a", "b", "k", "w", "m", "try"}`: a message frame (`k`: `"msg"`) or its
///   route return (`"ret"`) left node `a` for `b`; `w` the workload, `m` the message, `try` the
///   attempt (only the first and last fragment of a split message);
/// - `{"e": "route", "t", "n", "to", "path"}`: node `n`'s route to `to` changed (`path` empty:
///   lost); sampled every second, only for meshes of at most `maxRouteNodes` phones;
/// - `{"e": "progress", "t", "f", "bytes"}`: flow `f`'s bytes delivered to its server, when it
///   changed since the last slice;
/// - `{"e": "rtt", "t", "f", "ms"}`: a probe of flow `f` sent at `t` came back after `ms`;
/// - `{"e": "msg", "t", "w", "id", "m", "from", "to", "delivered", "confirmed", "attempts",
///   "hops"}`: message `m` of workload `w` (`id`) created at `t`, delivered and confirmed at
///   those times (null: never);
/// - `{"e": "truncated", "kept", "dropped"}`: the last line when the run made more than
///   `recordLimit` records: how many were kept and how many were not.
public final class TimelineRecorder: @unchecked Sendable {
    /// Route tables are recorded only up to this many phones (a 1 000-phone mesh holds a
    /// million routes; the viewer says so instead).
    public static let maxRouteNodes = 200
    /// Lines so far.
    public private(set) var lines: [String] = []
    /// The most records kept after the header: 1 000 000 (assumption: about 100 MB of text,
    /// which the page embeds whole; the viewer draws a few thousand items a frame). A run that
    /// would record more keeps the first ones and ends with a `truncated` record saying how
    /// many it did not keep (10⁶ one-byte messages recorded without bound
    /// took ten times the run's memory).
    public static let recordLimit = 1_000_000
    /// This recorder's record limit (`recordLimit` unless a test asks for fewer).
    public let maxRecords: Int
    /// Records not kept because `maxRecords` was reached.
    public private(set) var dropped = 0
    /// Simulated time between samples.
    public let slice: SimTime
    var lastPositions: [Position] = []
    var lastPeers: [[Int]] = []
    var lastRoutes: [[Int: [Int]]] = []
    var nextRouteSample = SimTime.zero
    var lastProgress: [Int64] = []
    var lastHeartbeat: [Int: UInt64] = [:]

    /// A recorder sampling every `slice` of simulated time.
    public init(slice: SimTime, maxRecords: Int = TimelineRecorder.recordLimit) {
        self.slice = slice
        self.maxRecords = maxRecords
    }

    /// The slice a scenario is sampled at: 100 ms (the mobility sampling interval), 10 ms for
    /// runs without a mesh (two-phone tests, where probes come milliseconds apart).
    public static func slice(for scenario: Scenario) -> SimTime {
        scenario.mesh == nil ? .milliseconds(10) : NodeTable.samplingInterval
    }

    static func json(_ s: String) -> String {
        var out = ""
        JSONText.escape(s, into: &out)
        return out
    }

    /// The header line.
    func begin<L: LinkTechnology>(_ world: World<L>, scenario: Scenario) {
        let nodes = (0..<world.nodes.count).map { i -> String in
            let p = world.nodes.position(of: i, at: .zero)
            return "{\"id\":\(Self.json(world.nodes.ids[i])),\"x\":\(Self.number(p.x)),\"y\":\(Self.number(p.y))}"
        }
        let events = scenario.events.map {
            "{\"t\":\($0.time.nanoseconds),\"n\":\($0.node),\"action\":\"\($0.action.rawValue)\"}"
        }
        let flows = scenario.flows.map {
            "{\"id\":\(Self.json($0.id)),\"from\":\($0.from),\"to\":\($0.to),\"protocol\":\"\($0.transport.rawValue)\"}"
        }
        let radio = RadioConfiguration(scenario.radio)
        let range = L.hasRadio ? MaximumRange(scenario).metres : 0
        let heartbeat = world.layers.mesh?.config.heartbeatInterval.nanoseconds ?? 0
        let routes = world.layers.mesh != nil && world.nodes.count <= Self.maxRouteNodes
        lines.append(
            "{\"e\":\"header\",\"version\":1,\"scenario\":\(Self.json(scenario.name)),"
                + "\"place\":\"\(scenario.environment.place.rawValue)\",\"technology\":\"\(radio.technology.rawValue)\","
                + "\"duration_ns\":\(scenario.duration.nanoseconds),\"range_m\":\(Self.number(range)),"
                + "\"slice_ns\":\(slice.nanoseconds),\"nodes\":[\(nodes.joined(separator: ","))],"
                + "\"events\":[\(events.joined(separator: ","))],\"mesh\":\(world.layers.mesh != nil),"
                + "\"heartbeat_ns\":\(heartbeat),\"flows\":[\(flows.joined(separator: ","))],"
                + "\"routes_recorded\":\(routes)}")
        lastPositions = (0..<world.nodes.count).map { world.nodes.position(of: $0, at: .zero) }
        lastPeers = Array(repeating: [], count: world.nodes.count)
        lastRoutes = Array(repeating: [:], count: routes ? world.nodes.count : 0)
        lastProgress = Array(repeating: 0, count: scenario.flows.count)
    }

    /// Whether `maxRecords` records are kept: the next one is dropped.
    var isFull: Bool { lines.count > maxRecords }

    /// Keeps one record, or counts it as dropped once `maxRecords` are kept.
    func record(_ line: String) {
        guard !isFull else {
            dropped += 1
            return
        }
        lines.append(line)
    }

    /// A number with 3 decimals (positions in metres, milliseconds to the microsecond).
    static func number(_ v: Double) -> String { NumberText.fixed(v, decimals: 3) }

    /// A mesh frame left its sender (`World`'s outbox drain).
    func frame(_ frame: SessionFrame, packet: LinkPacket, now: SimTime) {
        // The routing's frames only: set-up frames and transfer pieces are not drawn.
        guard let f = frame.routed else { return }
        switch f.kind {
        case .heartbeat, .routeRequest:
            guard f.origin == Int(packet.source), lastHeartbeat[f.origin] != f.seq else { return }
            lastHeartbeat[f.origin] = f.seq
            record("{\"e\":\"hb\",\"t\":\(now.nanoseconds),\"n\":\(f.origin)}")
        case .message, .routeReturn:
            guard f.fragment == 0 || f.fragment == f.fragments - 1 else { return }
            let k = f.kind == .message ? "msg" : "ret"
            record(
                "{\"e\":\"hop\",\"t\":\(now.nanoseconds),\"a\":\(packet.source),\"b\":\(packet.destination),"
                    + "\"k\":\"\(k)\",\"w\":\(f.workload),\"m\":\(f.message),\"try\":\(f.attempt)}")
        default: return
        }
    }

    /// The end of a slice at `now`: positions, sessions, routes and flow progress that changed.
    func sample<L: LinkTechnology>(_ world: World<L>, now: SimTime) {
        let t = now.nanoseconds
        // Positions at the mobility sampling interval (100 ms), as the channel sees them.
        if (world.nodes.anyMobile || !world.events.isEmpty) && t % NodeTable.samplingInterval.nanoseconds == 0 {
            for i in 0..<world.nodes.count {
                let p = world.nodes.position(of: i, at: now)
                if p != lastPositions[i] {
                    lastPositions[i] = p
                    record(
                        "{\"e\":\"pos\",\"t\":\(t),\"n\":\(i),\"x\":\(Self.number(p.x)),\"y\":\(Self.number(p.y))}")
                }
            }
        }
        if let mesh = world.layers.mesh {
            let peers = mesh.peers
            for a in 0..<peers.count where peers[a] != lastPeers[a] {
                for b in peers[a] where b > a && !lastPeers[a].contains(b) {
                    record("{\"e\":\"session\",\"t\":\(t),\"a\":\(a),\"b\":\(b),\"up\":true}")
                }
                for b in lastPeers[a] where b > a && !peers[a].contains(b) {
                    record("{\"e\":\"session\",\"t\":\(t),\"a\":\(a),\"b\":\(b),\"up\":false}")
                }
                lastPeers[a] = peers[a]
            }
            if !lastRoutes.isEmpty && now >= nextRouteSample {
                nextRouteSample = now + .seconds(1)
                for n in 0..<lastRoutes.count {
                    var table: [Int: [Int]] = [:]
                    for r in mesh.routeTable(of: n, at: now) { table[r.to] = r.path }
                    for to in 0..<lastRoutes.count where table[to] != lastRoutes[n][to] {
                        let path = (table[to] ?? []).map(String.init).joined(separator: ",")
                        record("{\"e\":\"route\",\"t\":\(t),\"n\":\(n),\"to\":\(to),\"path\":[\(path)]}")
                    }
                    lastRoutes[n] = table
                }
            }
        }
        for (k, f) in world.hosts.flows.enumerated() where f.app.bytesDelivered != lastProgress[k] {
            lastProgress[k] = f.app.bytesDelivered
            record("{\"e\":\"progress\",\"t\":\(t),\"f\":\(k),\"bytes\":\(f.app.bytesDelivered)}")
        }
    }

    /// The end of the run: probe RTTs and every message's fate.
    func finish<L: LinkTechnology>(_ world: World<L>) {
        for (k, f) in world.hosts.flows.enumerated() {
            for (i, echo) in f.app.probeEcho.enumerated() {
                guard let echo else { continue }
                guard !isFull else { dropped += 1; continue }  // no line built only to be dropped
                let sent = f.app.probeSent[i]
                let ms = NumberText.fixed((echo - sent).inSeconds * 1000, decimals: 6)
                record("{\"e\":\"rtt\",\"t\":\(sent.nanoseconds),\"f\":\(k),\"ms\":\(ms)}")
            }
        }
        guard let mesh = world.layers.mesh else { return }
        func time(_ t: SimTime?) -> String { t.map { "\($0.nanoseconds)" } ?? "null" }
        for (w, records) in mesh.ledger.records.enumerated() {
            let spec = mesh.ledger.workloads[w]
            for (m, r) in records.enumerated() {
                guard !isFull else { dropped += 1; continue }
                record(
                    "{\"e\":\"msg\",\"t\":\(r.created.nanoseconds),\"w\":\(w),\"id\":\(Self.json(spec.id)),\"m\":\(m),"
                        + "\"from\":\(spec.from),\"to\":\(spec.to),\"delivered\":\(time(r.delivered)),"
                        + "\"confirmed\":\(time(r.confirmed)),\"attempts\":\(r.attempts),\"hops\":\(r.hops)}")
            }
        }
    }

    /// The file's text: one line per record, each ending in a newline, and the `truncated`
    /// record when some were not kept.
    public var text: String {
        let tail = dropped > 0 ? "\n{\"e\":\"truncated\",\"kept\":\(lines.count - 1),\"dropped\":\(dropped)}" : ""
        return lines.joined(separator: "\n") + tail + "\n"
    }
}

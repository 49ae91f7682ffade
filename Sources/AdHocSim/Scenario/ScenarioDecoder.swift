// The top level of a scenario file: its keys, the node list, and the hand-over of each section
// to the layer that declares it.

import Foundation

/// Bounds of top-level values. They keep every valid scenario inside what the simulator can
/// represent (Int64 nanoseconds, 32-bit node indices) with a wide margin; the numbers are
/// assumptions, not physics.
public enum ScenarioBounds {
    /// The longest run: 10^6 s (11.6 days) of simulated time.
    public static let maxDurationSeconds: Double = 1_000_000
    /// The farthest coordinate from the origin: 10^6 m on each axis.
    public static let maxCoordinate: Double = 1_000_000
    /// A coordinate's schema, within `maxCoordinate` (a position's, a waypoint's, an area's
    /// corner, a placement's height).
    static var coordinateSchema: JSONSchema { .number.minimum(-maxCoordinate).maximum(maxCoordinate) }
    /// The most nodes in one scenario.
    public static let maxNodes = 1_000_000
    /// The scenario format versions this build reads.
    public static let supportedVersions: [UInt64] = [1]
}

/// Turns a scenario file (plus `--set` overrides) into a validated `Scenario`, or into every
/// problem it has.
public struct ScenarioDecoder {
    let sink: DiagnosticSink
    var values: ValueReader { ValueReader(sink: sink) }

    /// Reads and decodes the file at `path`, applying `overrides` (`PATH=VALUE` strings) first.
    /// - Throws: `ScenarioError` listing every problem found.
    /// `overrideSource` names where the overrides came from in messages (`--set`, or
    /// `--overrides FILE`).
    public static func load(
        path: String, overrides: [String] = [], overrideSource: String = "--set"
    ) throws
        -> Scenario
    {
        switch ScenarioFile.read(path) {
        case .success(let bytes):
            return try decode(bytes: bytes, file: path, overrides: overrides, overrideSource: overrideSource)
        case .failure(let reason):
            throw ScenarioError(diagnostics: [
                Diagnostic(
                    file: path.isEmpty ? "\"\"" : path, line: nil, column: nil, override: nil, path: "",
                    message: reason.message)
            ])
        }
    }

    /// Decodes scenario text. `file` is the name used in messages.
    public static func decode(
        bytes: [UInt8], file: String, overrides: [String] = [], overrideSource: String = "--set"
    )
        throws -> Scenario
    {
        let sink = DiagnosticSink(file: file, lineMap: LineMap(bytes))
        var parser = JSONParser(bytes: bytes, sink: sink)
        guard var root = parser.parseDocument() else { throw sink.error }
        Override.apply(overrides, source: overrideSource, to: &root, sink: sink)
        let decoder = ScenarioDecoder(sink: sink)
        let scenario = decoder.decodeRoot(root, file: file)
        guard let scenario, !sink.hasErrors else { throw sink.error }
        return scenario
    }

    /// Every key the decoder asks for while reading `bytes`, by the pattern of its object's
    /// path (`JSONPath.pattern`; the root is `""`), whether or not the file has the key: an
    /// object's reader asks for all the keys it knows. The schema test compares this with
    /// `ScenarioSchema`.
    public static func keyCensus(bytes: [UInt8], file: String) -> [String: Set<String>] {
        let sink = DiagnosticSink(file: file, lineMap: LineMap(bytes))
        sink.census = [:]
        var parser = JSONParser(bytes: bytes, sink: sink)
        guard let root = parser.parseDocument() else { return [:] }
        _ = ScenarioDecoder(sink: sink).decodeRoot(root, file: file)
        return sink.census ?? [:]
    }

    func decodeRoot(_ root: JSONNode, file: String) -> Scenario? {
        guard
            let r = ObjectReader(
                root, path: .root, sink: sink,
                expected: "a scenario object {\"name\", \"seed\", \"duration_s\", \"environment\", \"nodes\", ...}")
        else {
            return nil
        }
        defer { r.finish() }
        // The top level's own keys; `$schema` (the file's JSON Schema, for editors) is not used here.
        var top = ScenarioParameters.Item()
        _ = values.read(ScenarioParameters.section, from: r, .root, into: &top, perNode: false)
        let (name, seed, duration) = (top.name, top.seed, top.duration)
        let environment = r.required("environment", "the place").flatMap {
            decodeEnvironment($0, JSONPath.root.appending("environment"))
        }
        var radio: RadioSpec? = RadioSpec()
        if let v = r.value("radio") { radio = decodeRadio(v, JSONPath.root.appending("radio")) }
        var link: IdealLinkSpec? = IdealLinkSpec()
        if let v = r.value("link") { link = decodeIdealLink(v, JSONPath.root.appending("link")) }
        var idsSeen: [String] = []
        var nodes = r.required("nodes", "the phones").flatMap { n -> [NodeSpec]? in
            if case .object = n.value {
                return decodePlacement(
                    n, JSONPath.root.appending("nodes"), seed: seed, cutoff: radio?.interactionMargin != nil,
                    ids: &idsSeen)
            }
            return decodeNodes(n, JSONPath.root.appending("nodes"), ids: &idsSeen)
        }
        // References resolve against every well-formed id, even when another field of that node
        // is wrong, so one mistake is reported once, not again at every flow that names the node.
        var nodeIndex: [String: Int] = [:]
        for (i, id) in idsSeen.enumerated() where !id.isEmpty && nodeIndex[id] == nil { nodeIndex[id] = i }
        var flows: [FlowSpec]? = []
        if let f = r.value("flows") {
            flows = decodeFlows(f, JSONPath.root.appending("flows"), nodeIndex: nodeIndex, duration: duration)
        }
        var traffic: [TrafficSpec]? = []
        if let t = r.value("traffic") {
            traffic = decodeTraffic(
                t, JSONPath.root.appending("traffic"), nodeIndex: nodeIndex, nodeCount: nodes?.count ?? 0,
                duration: duration)
        }
        var distanceItem = ScenarioParameters.DistanceItem()
        var distanceOK = values.read(ScenarioParameters.distance, from: r, .root, into: &distanceItem, perNode: false)
        let distance = distanceItem.distance
        if distanceOK, let d = r.value("distance_m"), let n = nodes, n.count != 2 {
            sink.report(
                "distance_m places the second of exactly two nodes; this scenario has \(n.count)",
                path: JSONPath.root.appending("distance_m"), at: d.origin)
            distanceOK = false
        }
        var matrix: Matrix?
        var matrixOK = true
        if let m = r.value("matrix") {
            matrix = decodeMatrix(m, JSONPath.root.appending("matrix"))
            matrixOK = matrix != nil
        }
        var transport: TransportSpec? = TransportSpec()
        if let t = r.value("transport") { transport = decodeTransport(t, JSONPath.root.appending("transport")) }
        let (layers, failedLayers) = LayerSpecs.decode(r, self, nodeIndex: nodeIndex, duration: duration)
        let mesh = layers.mesh
        let meshOK = !failedLayers.contains(MeshNetwork.sectionKey)
        var viaOK = true
        if meshOK, let f = r.value("flows"), case .array(let elements) = f.value, let flows {
            for (i, flow) in flows.enumerated() where i < elements.count {
                let at = JSONPath.root.appending("flows").appending(i)
                if mesh == nil && flow.via == .mesh {
                    // A flow told to cross a mesh needs one.
                    sink.report(
                        "flow \"\(flow.id)\" asks to travel via the mesh, but the scenario has no \"mesh\" section; add one "
                            + "(its sessions and routes carry the flow) or set \"via\": \"link\" for a one-hop flow",
                        path: at.appending("via"), at: elements[i]["via"]?.origin ?? elements[i].origin)
                    viaOK = false
                } else if mesh != nil && flow.discovery && flow.via != .link {
                    // Discovery is Bonjour over the link: it finds a server one hop away.
                    sink.report(
                        "flow \"\(flow.id)\" travels across the mesh, but \"discovery\" is the apps' Bonjour over the "
                            + "link, which finds a server one hop away; set \"via\": \"link\" or drop \"discovery\"",
                        path: at.appending("discovery"), at: elements[i]["discovery"]?.origin ?? elements[i].origin)
                    viaOK = false
                }
            }
        }
        var expectations: [Expectation]? = []
        if let e = r.value("expectations") {
            expectations = decodeExpectations(
                e, JSONPath.root.appending("expectations"), nodeIndex: nodeIndex,
                workloads: mesh?.messages.map(\.id) ?? [], groups: mesh?.messages.map(\.group) ?? [],
                flows: flows?.map(\.id) ?? [],
                duration: duration)
        }
        var events: [NodeEvent]? = []
        if let e = r.value("events") {
            events = decodeEvents(e, JSONPath.root.appending("events"), nodeIndex: nodeIndex, duration: duration)
            if let list = events, meshOK, !checkAppEvents(list, e, JSONPath.root.appending("events"), mesh: mesh) {
                events = nil
            }
            if let list = events, !LayerSpecs.bluetoothFailed(failedLayers),
                !checkBluetoothEvents(list, e, JSONPath.root.appending("events"), layers: layers)
            {
                events = nil
            }
        }
        var mac: MacSpec? = MacSpec()
        if let m = r.value("mac") { mac = decodeMac(m, JSONPath.root.appending("mac")) }
        var host: HostSpec? = HostSpec()
        if let h = r.value("host") { host = decodeHost(h, JSONPath.root.appending("host")) }
        var limits: RunLimits? = RunLimits()
        if let l = r.value("limits") { limits = decodeLimits(l, JSONPath.root.appending("limits")) }

        // `host.roundQueue` says where a round's connections work: without a round it cannot act.
        var roundQueueOK = true
        if host != nil, let flows, !flows.contains(where: { $0.round != nil }), let h = r.value("host"),
            let q = h["roundQueue"]
        {
            sink.report(
                "\"roundQueue\" says where a round's connections work (a flow whose \"protocol\" is a list); this scenario has none",
                path: JSONPath.root.appending("host").appending("roundQueue"), at: q.origin)
            roundQueueOK = false
        }
        // Only on a file read without a fault so far: the phones' objects were checked when the
        // nodes were read, and a fault in them is reported once.
        if var list = nodes, let host, let nodesNode = r.value("nodes"), !sink.hasErrors {
            overlayNodeHosts(&list, nodesNode, JSONPath.root.appending("nodes"), host: host)
            nodes = list
        }
        var mobilityOK = true
        if let nodes, let duration, let nodesNode = r.value("nodes"), case .array = nodesNode.value {
            mobilityOK = checkWaypointBudget(nodes, nodesNode, JSONPath.root.appending("nodes"), duration: duration)
        }
        guard let name, let seed, let duration, let environment, let radio, let link, let nodes, let flows, let traffic,
            let mac, let host, let transport, let limits, let events, let expectations, distanceOK, matrixOK, meshOK,
            mobilityOK, roundQueueOK, failedLayers.isEmpty, viaOK
        else { return nil }
        // "$schema" only guides editors: it is no input, so it leaves the effective input, its
        // hash and the sweep's cell ids alone.
        var root = root
        if case .object(let members) = root.value, members.contains(where: { $0.key == "$schema" }) {
            root.value = .object(members.filter { $0.key != "$schema" })
        }
        let canonical = Canonical.text(of: root)
        var hash = StableHash()
        hash.combine(canonical)
        return Scenario(
            name: name, seed: seed, duration: .seconds(duration), environment: environment, radio: radio,
            link: link, matrix: matrix, transport: transport, mac: mac, host: host, traffic: traffic,
            distance: distance,
            expectations: expectations, layers: layers, events: events, nodes: nodes,
            flows: flows, limits: limits, sourcePath: file, effectiveInput: root, canonicalInput: canonical,
            inputHash: hash.hex)
    }

    /// A scenario name doubles as a folder name, so it is restricted to a safe alphabet: it can
    /// never point outside the output folder.
    func decodeName(_ node: JSONNode, _ path: JSONPath) -> String? {
        guard let s = values.string(node, path, "a name") else { return nil }
        guard Identifier.isSafeName(s) else {
            sink.report(
                "expected a name of 1 to 100 letters, digits, '.', '_' or '-', not starting with '.' or '-' (it names the results folder); found \"\(s)\"",
                path: path, at: node.origin)
            return nil
        }
        return s
    }

    /// Node and flow ids appear in CSV files and on plots.
    func decodeIdentifier(_ node: JSONNode, _ path: JSONPath, _ what: String) -> String? {
        values.identifier(node, path, what)
    }

    func decodeNodes(_ node: JSONNode, _ path: JSONPath, ids: inout [String]) -> [NodeSpec]? {
        guard let elements = values.array(node, path, "an array of nodes") else { return nil }
        if elements.isEmpty {
            sink.report("expected at least one node, found an empty array", path: path, at: node.origin)
            return nil
        }
        if elements.count > ScenarioBounds.maxNodes {
            sink.report(
                "expected at most \(ScenarioBounds.maxNodes) nodes, found \(elements.count)", path: path,
                at: node.origin)
            return nil
        }
        var result: [NodeSpec] = []
        var ok = true
        var seen: [String: Int] = [:]
        for (i, element) in elements.enumerated() {
            let p = path.appending(i)
            guard
                let (item, itemOK) = values.decodeAll(
                    NodeParameters.section, element, p, into: NodeParameters.Item(), perNode: false)
            else {
                ids.append("")
                ok = false
                continue
            }
            ids.append(item.id ?? "")
            guard itemOK, let id = item.id else { ok = false; continue }
            if let first = seen[id] {
                sink.report(
                    "duplicate node id \"\(id)\" (also nodes[\(first)])", path: p.appending("id"),
                    at: element["id"]?.origin ?? element.origin)
                ok = false
                continue
            }
            seen[id] = i
            result.append(
                NodeSpec(
                    id: id, position: item.position, awdlSlots: item.awdlSlots, mobility: item.mobility, host: item.host
                ))
        }
        return ok ? result : nil
    }

    /// The JSON Schema of a position (`$defs/position`): three numbers within
    /// `ScenarioBounds.maxCoordinate`, as `decodePosition` checks.
    static var positionSchema: JSONSchema {
        .array(of: ScenarioBounds.coordinateSchema).count(3).description("[x, y, z] in metres")
    }

    func decodePosition(_ node: JSONNode, _ path: JSONPath) -> Position? {
        let what =
            "[x, y, z]: three finite numbers in metres, each within ±\(JSONNumber(ScenarioBounds.maxCoordinate).literal)"
        guard case .array(let a) = node.value, a.count == 3 else {
            sink.report("expected \(what), found \(node.value.summary)", path: path, at: node.origin)
            return nil
        }
        var coordinates: [Double] = []
        for (i, c) in a.enumerated() {
            guard
                let v = values.number(
                    c, path.appending(i),
                    "a coordinate in metres within ±\(JSONNumber(ScenarioBounds.maxCoordinate).literal)",
                    in: -ScenarioBounds.maxCoordinate...ScenarioBounds.maxCoordinate)
            else { continue }
            coordinates.append(v)
        }
        guard coordinates.count == 3 else { return nil }
        return Position(x: coordinates[0], y: coordinates[1], z: coordinates[2])
    }
}

/// Rules for names and ids.
enum Identifier {
    static func isSafeName(_ s: String) -> Bool {
        guard (1...100).contains(s.utf8.count), let first = s.utf8.first,
            first != UInt8(ascii: "."), first != UInt8(ascii: "-")
        else { return false }
        return s.utf8.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    static func isValidID(_ s: String) -> Bool {
        guard (1...64).contains(s.utf8.count) else { return false }
        return s.utf8.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ":")
        }
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
    }
}

/// Reading a scenario file: regular files and pipes alike (`/dev/stdin`, `<(…)`), at most
/// `maxBytes`, so a device that never ends (`/dev/zero`) cannot exhaust memory.
public enum ScenarioFile {
    /// The largest scenario file read: 64 MiB (assumption: a 1 000-phone mesh with waypoints is
    /// under 1 MiB).
    public static let maxBytes = 64 << 20

    /// Why a file could not be read, in words a user can act on.
    public struct Failure: Error, Sendable {
        /// The reason.
        public var message: String
    }

    /// The bytes of `path`, at most `limit` of them, or why not; `kind` names the file in the
    /// reasons ("scenario", "measured table").
    public static func read(
        _ path: String, limit: Int = maxBytes, kind: String = "scenario"
    ) -> Result<
        [UInt8], Failure
    > {
        guard !path.isEmpty else { return .failure(Failure(message: "an empty file name")) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(Failure(message: "no such file"))
        }
        if isDirectory.boolValue { return .failure(Failure(message: "is a directory, not a \(kind) file")) }
        // A FIFO or socket would block forever: refused before opening
        // (opening a FIFO already blocks). Foundation reports a FIFO as `typeUnknown`. Devices
        // stay readable: /dev/null reads as empty, /dev/zero stops at `maxBytes`.
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        if let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType,
            type == .typeSocket || type == .typeUnknown
        {
            return .failure(Failure(message: "is not a regular file (a FIFO or socket); give a file"))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.isReadableFile(atPath: path) ? "cannot be opened" : "permission denied"
            return .failure(Failure(message: "cannot be read (\(reason))"))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else {
                return .failure(
                    Failure(message: "is larger than \(ByteText.size(limit)), the most a \(kind) file may be"))
            }
            return .success(Array(data))
        } catch {
            return .failure(Failure(message: "cannot be read (\(ErrorText.reason(error)))"))
        }
    }
}

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
        guard let root = parser.parseDocument() else { throw sink.error }
        return try decode(root, file: file, sink: sink, overrides: overrides, overrideSource: overrideSource)
    }

    /// Decodes a parsed file (`ScenarioDocument`) with `overrides`: what decoding its bytes
    /// gives, without parsing them again.
    public static func decode(
        _ document: ScenarioDocument, overrides: [String] = [], overrideSource: String = "--set"
    ) throws -> Scenario {
        guard let root = document.root else {
            return try decode(
                bytes: document.bytes, file: document.file, overrides: overrides, overrideSource: overrideSource)
        }
        let sink = DiagnosticSink(file: document.file, lineMap: document.lineMap)
        return try decode(root, file: document.file, sink: sink, overrides: overrides, overrideSource: overrideSource)
    }

    /// The overrides applied to `root`, then the scenario read from it.
    private static func decode(
        _ root: JSONNode, file: String, sink: DiagnosticSink, overrides: [String], overrideSource: String
    ) throws -> Scenario {
        var root = root
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

    /// The scenario of the document `root`: its top level read part by part (`TopLevel.parts`),
    /// or `nil` after a problem.
    func decodeRoot(_ root: JSONNode, file: String) -> Scenario? {
        guard
            let r = ObjectReader(
                root, path: .root, sink: sink,
                expected: "a scenario object {\"name\", \"seed\", \"duration_s\", \"environment\", \"nodes\", ...}")
        else {
            return nil
        }
        defer { r.finish() }
        var s = ScenarioDraft()
        for part in TopLevel.parts { part.read(self, r, &s) }
        guard let name = s.top.name, let seed = s.top.seed, let duration = s.top.duration,
            let environment = s.environment, let radio = s.radio, let link = s.link, let nodes = s.nodes,
            let flows = s.flows, let traffic = s.traffic, let mac = s.mac, let host = s.host,
            let transport = s.transport, let limits = s.limits, let events = s.events,
            let expectations = s.expectations, s.ok, s.failedLayers.isEmpty
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
            link: link, matrix: s.matrix, transport: transport, mac: mac, host: host, traffic: traffic,
            distance: s.distance,
            expectations: expectations, layers: s.layers, events: events, nodes: nodes,
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

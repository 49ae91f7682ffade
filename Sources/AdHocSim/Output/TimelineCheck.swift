/// Checks a `timeline.jsonl` before `adhocsim view` builds a page from it:
/// every line one JSON object of a known record type (`TimelineRecorder`), each field of the
/// type that record defines, node and flow numbers inside the header's lists. A truncated or
/// tampered file is refused with the line and field named, instead of giving a blank page or
/// handing the viewer values of the wrong type.
public enum TimelineCheck {
    /// What a field holds.
    enum Kind {
        case integer, number, string, bool, node, flow, timeOrNull, pathOfNodes
        case oneOf([String])
    }

    /// The fields every record type must have (the header's lists are checked apart).
    static let records: [String: [(String, Kind)]] = [
        "pos": [("t", .integer), ("n", .node), ("x", .number), ("y", .number)],
        "session": [("t", .integer), ("a", .node), ("b", .node), ("up", .bool)],
        "hb": [("t", .integer), ("n", .node)],
        "hop": [
            ("t", .integer), ("a", .node), ("b", .node), ("k", .oneOf(["msg", "ret"])), ("w", .integer),
            ("m", .integer), ("try", .integer)
        ],
        "route": [("t", .integer), ("n", .node), ("to", .node), ("path", .pathOfNodes)],
        "progress": [("t", .integer), ("f", .flow), ("bytes", .integer)],
        "rtt": [("t", .integer), ("f", .flow), ("ms", .number)],
        "msg": [
            ("t", .integer), ("w", .integer), ("id", .string), ("m", .integer), ("from", .node), ("to", .node),
            ("delivered", .timeOrNull), ("confirmed", .timeOrNull), ("attempts", .integer), ("hops", .integer)
        ],
        "truncated": [("kept", .integer), ("dropped", .integer)]
    ]

    /// The header's fields.
    static let header: [(String, Kind)] = [
        ("version", .integer), ("scenario", .string), ("place", .string), ("technology", .string),
        ("duration_ns", .integer), ("range_m", .number), ("slice_ns", .integer), ("mesh", .bool),
        ("heartbeat_ns", .integer), ("routes_recorded", .bool)
    ]

    /// Why `text` is not a timeline the viewer can show (`"line N: …"`), or `nil` when it is.
    public static func problem(in text: String) -> String? {
        var nodes = 0
        var flows = 0
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty {
                // Only the text's final newline may leave an empty piece.
                if lineNumber > 1 && line.endIndex == text.endIndex { break }
                return "line \(lineNumber): empty line"
            }
            let bytes = Array(line.utf8)
            let sink = DiagnosticSink(file: "timeline.jsonl", lineMap: LineMap(bytes))
            var parser = JSONParser(bytes: bytes, sink: sink)
            guard let record = parser.parseDocument(), !sink.hasErrors, record.members != nil else {
                return "line \(lineNumber): not one JSON object (is the file cut short?)"
            }
            guard case .string(let e)? = record["e"]?.value else {
                return "line \(lineNumber): no \"e\" (record type) string"
            }
            if lineNumber == 1 {
                guard e == "header" else {
                    return "line 1: expected the header record, found \"\(Diagnostic.excerpt(e))\""
                }
                if let bad = check(record, header, nodes: 0, flows: 0) { return "line 1: \(bad)" }
                guard case .number(let v)? = record["version"]?.value, v.value == 1 else {
                    return "line 1: timeline version \(record["version"].map { $0.value.summary } ?? "?") is not 1"
                }
                guard case .array(let list)? = record["nodes"]?.value else {
                    return "line 1: \"nodes\" is not an array"
                }
                for (i, n) in list.enumerated() {
                    if let bad = check(n, [("id", .string), ("x", .number), ("y", .number)], nodes: 0, flows: 0) {
                        return "line 1: nodes[\(i)]: \(bad)"
                    }
                }
                nodes = list.count
                guard case .array(let fl)? = record["flows"]?.value else { return "line 1: \"flows\" is not an array" }
                for (i, f) in fl.enumerated() {
                    let fields: [(String, Kind)] = [
                        ("id", .string), ("from", .node), ("to", .node), ("protocol", .oneOf(["tcp", "udp", "quic"]))
                    ]
                    if let bad = check(f, fields, nodes: nodes, flows: 0) { return "line 1: flows[\(i)]: \(bad)" }
                }
                flows = fl.count
                guard case .array(let ev)? = record["events"]?.value else {
                    return "line 1: \"events\" is not an array"
                }
                for (i, x) in ev.enumerated() {
                    if let bad = check(x, [("t", .integer), ("n", .node), ("action", .string)], nodes: nodes, flows: 0)
                    {
                        return "line 1: events[\(i)]: \(bad)"
                    }
                }
                continue
            }
            guard let fields = records[e] else {
                return "line \(lineNumber): unknown record type \"\(Diagnostic.excerpt(e))\""
            }
            if let bad = check(record, fields, nodes: nodes, flows: flows) { return "line \(lineNumber): \(bad)" }
        }
        if lineNumber == 0 || text.isEmpty { return "line 1: the file is empty" }
        guard text.hasSuffix("\n") else {
            return "line \(lineNumber): the last line does not end (is the file cut short?)"
        }
        return nil
    }

    /// Why `record` lacks a field of `fields` or holds one of the wrong kind, or `nil`.
    static func check(_ record: JSONNode, _ fields: [(String, Kind)], nodes: Int, flows: Int) -> String? {
        guard record.members != nil else { return "expected an object, found \(record.value.summary)" }
        for (name, kind) in fields {
            guard let v = record[name]?.value else { return "no \"\(name)\"" }
            if !holds(v, kind, nodes: nodes, flows: flows) {
                return
                    "\"\(name)\" is \(Diagnostic.excerpt(v.summary)), not \(describe(kind, nodes: nodes, flows: flows))"
            }
        }
        return nil
    }

    static func holds(_ v: JSONValue, _ kind: Kind, nodes: Int, flows: Int) -> Bool {
        func index(_ below: Int) -> Bool {
            guard case .number(let n) = v, n.isIntegerLiteral, n.value >= 0 else { return false }
            return n.value < Double(below)
        }
        switch kind {
        case .integer:
            if case .number(let n) = v { return n.isIntegerLiteral }
            return false
        case .number:
            if case .number(let n) = v { return n.value.isFinite }
            return false
        case .string:
            if case .string = v { return true }
            return false
        case .bool:
            if case .bool = v { return true }
            return false
        case .node: return index(nodes)
        case .flow: return index(flows)
        case .timeOrNull:
            if case .null = v { return true }
            return holds(v, .integer, nodes: nodes, flows: flows)
        case .pathOfNodes:
            guard case .array(let list) = v else { return false }
            return list.allSatisfy { holds($0.value, .node, nodes: nodes, flows: flows) }
        case .oneOf(let allowed):
            if case .string(let s) = v { return allowed.contains(s) }
            return false
        }
    }

    static func describe(_ kind: Kind, nodes: Int, flows: Int) -> String {
        switch kind {
        case .integer: return "an integer"
        case .number: return "a number"
        case .string: return "a string"
        case .bool: return "true or false"
        case .node: return "a node number below \(nodes)"
        case .flow: return "a flow number below \(flows)"
        case .timeOrNull: return "an integer or null"
        case .pathOfNodes: return "an array of node numbers below \(nodes)"
        case .oneOf(let allowed): return "one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }
}

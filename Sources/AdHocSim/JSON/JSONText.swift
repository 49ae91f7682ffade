/// JSON text from a `JSONNode`, byte-for-byte deterministic: members in the given order (or
/// sorted by their UTF-8 bytes), numbers as their literals, strings escaped per RFC 8259.
public enum JSONText {
    /// Renders `node`. `pretty` indents by two spaces; `sortKeys` orders members by key bytes.
    public static func render(_ node: JSONNode, pretty: Bool = true, sortKeys: Bool = false) -> String {
        var out = ""
        write(node.value, into: &out, indent: 0, pretty: pretty, sortKeys: sortKeys)
        if pretty { out += "\n" }
        return out
    }

    private static func write(_ value: JSONValue, into out: inout String, indent: Int, pretty: Bool, sortKeys: Bool) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n.literal
        case .string(let s): escape(s, into: &out)
        case .array(let elements):
            if elements.isEmpty { out += "[]"; return }
            out += "["
            for (i, e) in elements.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent + 1, pretty)
                write(e.value, into: &out, indent: indent + 1, pretty: pretty, sortKeys: sortKeys)
            }
            newline(&out, indent, pretty)
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            let ordered = sortKeys ? members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : members
            out += "{"
            for (i, m) in ordered.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent + 1, pretty)
                escape(m.key, into: &out)
                out += pretty ? ": " : ":"
                write(m.value.value, into: &out, indent: indent + 1, pretty: pretty, sortKeys: sortKeys)
            }
            newline(&out, indent, pretty)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: Int, _ pretty: Bool) {
        guard pretty else { return }
        out += "\n"
        out += String(repeating: "  ", count: indent)
    }

    /// Appends `s` as a quoted JSON string.
    static func escape(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// The canonical form of a scenario, whose hash identifies the effective input: compact JSON
/// with keys sorted and numbers normalised (integer literals kept exactly, others in Swift's
/// shortest round-trip form), so `3` and `3.0` or a reordered file hash alike.
enum Canonical {
    static func text(of node: JSONNode) -> String {
        JSONText.render(normalised(node), pretty: false, sortKeys: true)
    }

    private static func normalised(_ node: JSONNode) -> JSONNode {
        switch node.value {
        case .number(let n):
            return JSONNode(.number(n.isIntegerLiteral && n.literal != "-0" ? n : JSONNumber(n.value)))
        case .array(let a):
            return JSONNode(.array(a.map(normalised)))
        case .object(let m):
            return JSONNode(.object(m.map { JSONMember(key: $0.key, value: normalised($0.value)) }))
        default:
            return JSONNode(node.value)
        }
    }
}

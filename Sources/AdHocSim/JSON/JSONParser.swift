/// A strict RFC 8259 JSON parser that records the byte offset of every value and key.
///
/// Foundation's `JSONSerialization` loses positions and silently accepts duplicate keys, so
/// scenario files are parsed here. Syntax errors stop the parse (nothing after them can be
/// trusted) and are reported with line and column; duplicate keys are reported and parsing
/// goes on, so they appear together with the schema errors. Numbers that overflow a `Double`
/// (`1e999`) are errors: JSON has no infinities and AdHocSim accepts no non-finite input.
struct JSONParser {
    /// Nesting deeper than this is refused instead of risking the stack.
    static let maxDepth = 256

    private let bytes: [UInt8]
    private var i = 0
    private let sink: DiagnosticSink

    struct SyntaxError: Error {}

    init(bytes: [UInt8], sink: DiagnosticSink) {
        self.bytes = bytes
        self.sink = sink
    }

    /// Parses one JSON document. Returns `nil` after reporting a syntax error.
    mutating func parseDocument() -> JSONNode? {
        do {
            skipWhitespace()
            let node = try parseValue(path: .root, depth: 0)
            skipWhitespace()
            if i < bytes.count { try fail("unexpected \(describeHere()) after the end of the JSON document") }
            return node
        } catch {
            return nil
        }
    }

    private func fail(_ message: String, at offset: Int? = nil) throws -> Never {
        sink.report("invalid JSON: \(message)", path: .root, at: .file(offset: offset ?? i))
        throw SyntaxError()
    }

    private func describeHere() -> String {
        guard i < bytes.count else { return "end of file" }
        let b = bytes[i]
        if b >= 0x21 && b < 0x7F { return "character '\(Character(UnicodeScalar(b)))'" }
        let hex = String(b, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func parseValue(path: JSONPath, depth: Int) throws -> JSONNode {
        guard depth < JSONParser.maxDepth else { try fail("nesting deeper than \(JSONParser.maxDepth) levels") }
        guard i < bytes.count else { try fail("expected a value, found end of file") }
        let start = i
        switch bytes[i] {
        case UInt8(ascii: "{"): return JSONNode(try parseObject(path: path, depth: depth), origin: .file(offset: start))
        case UInt8(ascii: "["): return JSONNode(try parseArray(path: path, depth: depth), origin: .file(offset: start))
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), origin: .file(offset: start))
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(.bool(true), origin: .file(offset: start))
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(.bool(false), origin: .file(offset: start))
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(.null, origin: .file(offset: start))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try parseNumber()), origin: .file(offset: start))
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            try fail("NaN and Infinity are not JSON numbers; AdHocSim accepts finite numbers only")
        default:
            try fail("expected a value, found \(describeHere())")
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else {
            try fail("expected a value, found \(describeHere())")
        }
        i += w.count
    }

    private mutating func parseObject(path: JSONPath, depth: Int) throws -> JSONValue {
        i += 1  // {
        var members: [JSONMember] = []
        var firstAt: [String: Int] = [:]  // duplicate keys found by hashing, not by scanning
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                try fail("expected a quoted key, found \(describeHere())")
            }
            let keyStart = i
            let key = try parseString()
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                try fail("expected ':' after key \"\(key)\", found \(describeHere())")
            }
            i += 1
            skipWhitespace()
            let value = try parseValue(path: path.appending(key), depth: depth + 1)
            if let firstIndex = firstAt[key] {
                var note = ""
                if case .file(let offset) = members[firstIndex].keyOrigin {
                    note = " (first at line \(sink.lineMap.location(of: offset).line))"
                }
                sink.report("duplicate key \"\(key)\"\(note)", path: path.appending(key), at: .file(offset: keyStart))
            }
            if firstAt[key] == nil { firstAt[key] = members.count }
            members.append(JSONMember(key: key, keyOrigin: .file(offset: keyStart), value: value))
            skipWhitespace()
            guard i < bytes.count else { try fail("expected ',' or '}', found end of file") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            try fail("expected ',' or '}' in an object, found \(describeHere())")
        }
    }

    private mutating func parseArray(path: JSONPath, depth: Int) throws -> JSONValue {
        i += 1  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(path: path.appending(elements.count), depth: depth + 1))
            skipWhitespace()
            guard i < bytes.count else { try fail("expected ',' or ']', found end of file") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
            try fail("expected ',' or ']' in an array, found \(describeHere())")
        }
    }

    private mutating func parseString() throws -> String {
        let start = i
        i += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = i
        func flush(_ upTo: Int) throws {
            if upTo > runStart {
                guard let s = String(validating: bytes[runStart..<upTo], as: UTF8.self) else {
                    try fail("string is not valid UTF-8", at: runStart)
                }
                scalars.append(contentsOf: s.unicodeScalars)
            }
        }
        while true {
            guard i < bytes.count else { try fail("unterminated string", at: start) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                try flush(i)
                i += 1
                return String(scalars)
            }
            if b < 0x20 { try fail("control character in a string (write it as an escape)") }
            if b == UInt8(ascii: "\\") {
                try flush(i)
                i += 1
                guard i < bytes.count else { try fail("unterminated string", at: start) }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                        else {
                            try fail("unpaired UTF-16 surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            try fail("unpaired UTF-16 surrogate in \\u escape")
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { try fail("invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    try fail("invalid escape '\\\(Character(UnicodeScalar(e)))' in a string", at: i - 2)
                }
                runStart = i
                continue
            }
            i += 1
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { try fail("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: try fail("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    private mutating func parseNumber() throws -> JSONNumber {
        let start = i
        func digit(_ k: Int) -> Bool {
            k < bytes.count && bytes[k] >= UInt8(ascii: "0") && bytes[k] <= UInt8(ascii: "9")
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { try fail("expected a digit in a number", at: i) }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if digit(i) { try fail("numbers must not have leading zeros", at: start) }
        } else {
            while digit(i) { i += 1 }
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { try fail("expected a digit after the decimal point") }
            while digit(i) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard digit(i) else { try fail("expected a digit in the exponent") }
            while digit(i) { i += 1 }
        }
        let literal = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            try fail("the number \(literal) is too large (AdHocSim accepts finite numbers only)", at: start)
        }
        return JSONNumber(literal: literal, value: value)
    }
}

extension JSONParser {
    /// Parses `text` (a `--set` value or test input) as a standalone JSON value; `nil` if it is
    /// not valid JSON.
    static func parseScalar(_ text: String) -> JSONValue? {
        let sink = DiagnosticSink(file: "--set", lineMap: LineMap(Array(text.utf8)))
        var parser = JSONParser(bytes: Array(text.utf8), sink: sink)
        guard let node = parser.parseDocument(), !sink.hasErrors else { return nil }
        return node.value
    }
}

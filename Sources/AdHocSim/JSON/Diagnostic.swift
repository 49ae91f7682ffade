/// One problem in a scenario: which file, where in it, which JSON path, and what is wrong.
///
/// Rendered like a compiler message so editors can jump to it:
/// `topologies/bad.json:12:17: error: nodes[3].position: expected [x, y, z] ..., found ...`.
/// A value that came from `--set` names the argument instead of a line.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The scenario file.
    public var file: String
    /// 1-based line, when the value came from the file.
    public var line: Int?
    /// 1-based column (in characters), when the value came from the file.
    public var column: Int?
    /// The `--set` argument that supplied the value, when it came from the command line.
    public var override: String?
    /// The JSON path of the offending value (`nodes[3].position`); empty for the whole file.
    public var path: String
    /// What was expected and what was found.
    public var message: String

    /// The compiler-style one-line rendering. Everything that came from the user (file name,
    /// `--set` argument, keys and values quoted in the message) is escaped so no control
    /// character reaches the terminal and the message stays on one line.
    public var description: String {
        var where_ = Diagnostic.escaped(file)
        if let line { where_ += ":\(line)" }
        if let column { where_ += ":\(column)" }
        if let override { where_ += ": \(Diagnostic.excerpt(override))" }
        let subject = path.isEmpty ? "" : "\(Diagnostic.excerpt(path)): "
        return "\(where_): error: \(subject)\(Diagnostic.escaped(message))"
    }

    /// `text` with every control character (C0, DEL, C1, line and paragraph separators)
    /// written as a Swift escape (`\n`, `\t`, `\u{1B}`), so it prints on one line and cannot
    /// steer a terminal.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for s in text.unicodeScalars {
            switch s {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(s): out += "\\u{\(String(s.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(s)
            }
        }
        return out
    }

    /// `text` with every control and bidirectional formatting character escaped as `escaped`
    /// does, except the line feeds that separate its lines (and tabs): what a command prints
    /// to a terminal goes through here, so nothing a user or a file supplied can steer it.
    public static func terminalSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(
                separator: "\t")
        }.joined(separator: "\n")
    }

    /// `text` escaped and cut to at most `limit` characters, saying how long it was.
    public static func excerpt(_ text: String, limit: Int = 120) -> String {
        let e = escaped(text)
        guard e.count > limit else { return e }
        return String(e.prefix(limit)) + "… (\(text.count) characters)"
    }

    /// C0 and C1 controls, the line and paragraph separators, and Unicode's bidirectional
    /// formatting characters (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), which can
    /// reorder what a terminal shows.
    static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
            || s.value == 0x061C || (0x200E...0x200F).contains(s.value) || (0x202A...0x202E).contains(s.value)
            || (0x2066...0x2069).contains(s.value)
    }
}

/// Everything wrong with a scenario, all at once.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    /// The problems kept, in the order they were found (file order within a section): at most
    /// `DiagnosticSink.keptLimit`.
    public var diagnostics: [Diagnostic]
    /// Problems found beyond the kept ones (counted, not kept).
    public var omitted: Int = 0

    /// A scenario error of these problems.
    public init(diagnostics: [Diagnostic], omitted: Int = 0) {
        self.diagnostics = diagnostics
        self.omitted = omitted
    }

    /// Every problem found, kept or not.
    public var count: Int { diagnostics.count + omitted }

    /// One line per kept problem, then one line counting the rest.
    public var description: String {
        let lines = diagnostics.map(\.description).joined(separator: "\n")
        guard omitted > 0 else { return lines }
        return lines
            + "\n… and \(omitted) more problem\(omitted == 1 ? "" : "s") (only the first \(diagnostics.count) are shown)"
    }
}

/// Maps byte offsets of a UTF-8 text to 1-based lines and columns. The line index is built once;
/// columns are counted from the previous lookup on the same line when it lies before the
/// offset, so reporting many problems on one long (minified) line stays linear.
final class LineMap: @unchecked Sendable {
    private let lineStarts: [Int]
    private let bytes: [UInt8]
    private var cache: (line: Int, offset: Int, column: Int) = (-1, 0, 1)

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        lineStarts = starts
    }

    /// Line and column (characters, not bytes) of `offset`.
    func location(of offset: Int) -> (line: Int, column: Int) {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var column = 1
        var i = lineStarts[lo]
        if cache.line == lo && cache.offset <= offset {
            column = cache.column
            i = cache.offset
        }
        while i < offset && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        cache = (lo, i, column)
        // The offset itself may sit on a continuation byte only for broken input; count as is.
        return (lo + 1, column)
    }
}

/// Collects diagnostics while a scenario is decoded.
final class DiagnosticSink {
    let file: String
    let lineMap: LineMap
    private(set) var diagnostics: [Diagnostic] = []
    /// Problems reported after `keptLimit` were kept: counted only.
    private(set) var omitted = 0
    /// The most problems kept: 100 (assumption: enough to show what is wrong with a file; an
    /// input with millions of faults, or a check that finds one per pair, must
    /// not hold or print them all, so the rest are counted).
    static let keptLimit = 100
    /// When set, every key the readers ask for, by the path of its object with array indices
    /// written `[]` (`ScenarioDecoder.keyCensus`).
    var census: [String: Set<String>]?

    init(file: String, lineMap: LineMap) {
        self.file = file
        self.lineMap = lineMap
    }

    /// Records a problem at `origin`.
    func report(_ message: String, path: JSONPath, at origin: ValueOrigin) {
        guard diagnostics.count < DiagnosticSink.keptLimit else {
            omitted += 1
            return
        }
        var d = Diagnostic(
            file: file, line: nil, column: nil, override: nil, path: path.description,
            message: message)
        switch origin {
        case .file(let offset):
            let (line, column) = lineMap.location(of: offset)
            d.line = line
            d.column = column
        case .override(let argument):
            d.override = argument
        case .generated:
            break
        }
        diagnostics.append(d)
    }

    var hasErrors: Bool { !diagnostics.isEmpty }

    /// The problems as an error.
    var error: ScenarioError { ScenarioError(diagnostics: diagnostics, omitted: omitted) }
}

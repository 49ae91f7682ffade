/// A path into a JSON document: `environment.pathLossExponent`, `nodes[3].position`.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Equatable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
    }

    /// The steps from the root.
    public var components: [Component]

    /// The root.
    public static let root = JSONPath(components: [])

    /// A path from its steps.
    public init(components: [Component]) { self.components = components }

    /// This path extended by an object key.
    public func appending(_ key: String) -> JSONPath { JSONPath(components: components + [.key(key)]) }
    /// This path extended by an array index.
    public func appending(_ index: Int) -> JSONPath { JSONPath(components: components + [.index(index)]) }

    /// The path with every array index written `[]` (`nodes[].position`): the same for every
    /// element of an array.
    public var pattern: String {
        var s = ""
        for c in components {
            switch c {
            case .key(let k): s += s.isEmpty ? k : ".\(k)"
            case .index: s += "[]"
            }
        }
        return s
    }

    /// `a.b[3].c`; the root prints as an empty string.
    public var description: String {
        var s = ""
        for c in components {
            switch c {
            case .key(let k): s += s.isEmpty ? k : ".\(k)"
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }

    /// The most components a path written on the command line or as a matrix axis may have:
    /// 32 (the deepest key of the scenario format, `mesh.messages[0].size_bytes`, has four; an
    /// assumption far above any real use that keeps `--set` from building deep documents).
    public static let maxComponents = 32

    /// Parses `a.b[3].c`. Keys are letters, digits and `_`; indexes are decimal.
    /// Returns `nil` for anything else, and for paths of more than `maxComponents` components
    /// (checked while parsing, so a huge path costs no more than its first components).
    public static func parse(_ text: String) -> JSONPath? {
        var components: [Component] = []
        var chars = Array(text)
        var i = 0
        func isKeyChar(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "_") }
        guard !chars.isEmpty else { return nil }
        while i < chars.count {
            if chars[i] == "[" {
                var j = i + 1
                var digits = ""
                while j < chars.count, chars[j].isASCII, chars[j].isNumber { digits.append(chars[j]); j += 1 }
                guard j < chars.count, chars[j] == "]", !digits.isEmpty, digits.count <= 9,
                    let n = Int(digits)
                else { return nil }
                components.append(.index(n))
                guard components.count <= maxComponents else { return nil }
                i = j + 1
                if i < chars.count {
                    guard chars[i] == "." || chars[i] == "[" else { return nil }
                    if chars[i] == "." { i += 1; guard i < chars.count else { return nil } }
                }
            } else {
                var key = ""
                while i < chars.count, isKeyChar(chars[i]) { key.append(chars[i]); i += 1 }
                guard !key.isEmpty else { return nil }
                components.append(.key(key))
                guard components.count <= maxComponents else { return nil }
                if i < chars.count {
                    guard chars[i] == "." || chars[i] == "[" else { return nil }
                    if chars[i] == "." { i += 1; guard i < chars.count else { return nil } }
                }
            }
        }
        chars.removeAll()
        return JSONPath(components: components)
    }
}

/// Where a JSON value came from: a byte offset in the scenario file, a `--set` argument, or the
/// program itself.
public enum ValueOrigin: Sendable, Equatable {
    /// Byte offset into the file's UTF-8 text.
    case file(offset: Int)
    /// The command-line override that supplied the value (`--set a.b=3`).
    case override(String)
    /// Produced by AdHocSim (output documents).
    case generated
}

/// A JSON number, kept with its literal text so integers up to 2^64 − 1 survive exactly.
public struct JSONNumber: Sendable, Equatable {
    /// The literal as written (RFC 8259 number grammar).
    public var literal: String
    /// The value as a `Double` (finite; the parser rejects overflow).
    public var value: Double

    /// Whether the literal has no fraction and no exponent.
    public var isIntegerLiteral: Bool {
        !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
    }

    /// A number from a finite `Double`, printed in Swift's shortest round-trip form
    /// (integral values without a fraction). Deterministic on every platform.
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON numbers must be finite")
        self.value = value
        if value == value.rounded(), abs(value) < 1e15 {
            literal = String(Int64(value))
        } else {
            literal = "\(value)"
        }
    }

    /// An exact integer.
    public init<I: BinaryInteger>(integer: I) {
        literal = String(integer)
        value = Double(integer)
    }

    /// A parsed literal.
    init(literal: String, value: Double) {
        self.literal = literal
        self.value = value
    }
}

/// A JSON value with the origin of every part.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])

    /// A short description for error messages: `a string "abc"`, `the number 3`, ...
    public var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return "the number \(n.literal)"
        case .string(let s):
            let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
            return "a string \"\(shown)\""
        case .array(let a): return a.count == 1 ? "an array of 1 element" : "an array of \(a.count) elements"
        case .object: return "an object"
        }
    }
}

/// A value and where it came from.
public struct JSONNode: Sendable, Equatable {
    /// The value.
    public var value: JSONValue
    /// Its origin.
    public var origin: ValueOrigin

    /// A node with a value and origin.
    public init(_ value: JSONValue, origin: ValueOrigin = .generated) {
        self.value = value
        self.origin = origin
    }

    /// The members of an object node, or `nil`.
    public var members: [JSONMember]? {
        if case .object(let m) = value { return m }
        return nil
    }

    /// The member named `key` of an object node, or `nil`.
    public subscript(key: String) -> JSONNode? {
        members?.first(where: { $0.key == key })?.value
    }
}

/// One `"key": value` pair of an object, in file order.
public struct JSONMember: Sendable, Equatable {
    /// The key.
    public var key: String
    /// Where the key was written.
    public var keyOrigin: ValueOrigin
    /// The value.
    public var value: JSONNode

    /// A member.
    public init(key: String, keyOrigin: ValueOrigin = .generated, value: JSONNode) {
        self.key = key
        self.keyOrigin = keyOrigin
        self.value = value
    }
}

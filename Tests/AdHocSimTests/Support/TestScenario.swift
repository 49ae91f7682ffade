// Scenarios for tests, built in Swift rather than typed as escaped JSON strings: a `JSON` value written with Swift literals, and a `TestScenario` that holds a
// scenario's top-level keys in order, places nodes and decodes or runs itself. Bad-input tests
// keep their JSON as text (`JSON.raw`), since the text is what they test.
import Foundation
import Testing
@testable import AdHocSim

/// A JSON value written with Swift literals; an object keeps its keys in the order written.
///
/// Deliberately not `Equatable`: a literal type that is also `Equatable` becomes a candidate for
/// every array or number literal compared in an `#expect`, which made the type checker explore
/// it there (seconds per test function).
enum JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case array([JSON])
    case object([Pair])
    case null
    /// JSON text spliced in as it is (a bad input under test).
    case raw(String)

    struct Pair {
        var key: String
        var value: JSON
    }

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(elements.map { Pair(key: $0.0, value: $0.1) })
    }
    init(nilLiteral: ()) { self = .null }

    /// The value of `key` in an object (`nil` when absent or not an object); setting it replaces
    /// the value in place or appends the key.
    subscript(key: String) -> JSON? {
        get {
            guard case .object(let pairs) = self else { return nil }
            return pairs.first { $0.key == key }?.value
        }
        set {
            guard case .object(var pairs) = self else { preconditionFailure("not an object") }
            if let i = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue { pairs[i].value = newValue } else { pairs.remove(at: i) }
            } else if let newValue {
                pairs.append(Pair(key: key, value: newValue))
            }
            self = .object(pairs)
        }
    }

    /// The value as JSON text.
    var text: String {
        switch self {
        case .string(let s):
            var out = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                default: out.unicodeScalars.append(c)
                }
            }
            return out + "\""
        case .integer(let i): return String(i)
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): return b ? "true" : "false"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .object(let pairs):
            return "{" + pairs.map { JSON.string($0.key).text + ": " + $0.value.text }.joined(separator: ", ") + "}"
        case .null: return "null"
        case .raw(let text): return text
        }
    }
}

/// A scenario for a test: its top-level keys in order, with the common ones as arguments.
struct TestScenario {
    var root: JSON

    /// A scenario named `name` of `duration` seconds in `environment`, over `radio` (none when
    /// `nil`), with no nodes yet.
    init(
        name: String = "t", seed: Int = 7, duration: Double = 10, environment: JSON = ["preset": "field"],
        radio: JSON? = ["technology": "awdl"]
    ) {
        root = [
            "name": .string(name), "seed": .integer(seed), "duration_s": .number(duration), "environment": environment
        ]
        if let radio { root["radio"] = radio }
        root["nodes"] = []
    }

    /// The value of a top-level key (`mesh`, `flows`, `events`, `ble` …).
    subscript(key: String) -> JSON? {
        get { root[key] }
        set { root[key] = newValue }
    }

    /// Adds node `id` at (`x`, `y`, `z`) metres, with more keys if given.
    mutating func place(_ id: String, _ x: Double, _ y: Double, z: Double = 1.2, _ more: JSON = [:]) {
        var node: JSON = ["id": .string(id), "position": [.number(x), .number(y), .number(z)]]
        if case .object(let pairs) = more { for p in pairs { node[p.key] = p.value } }
        guard case .array(var nodes) = root["nodes"] else { preconditionFailure("nodes is not a list") }
        nodes.append(node)
        root["nodes"] = .array(nodes)
    }

    /// Two phones, `c` and `s` 10 m apart at 1.2 m, with one flow `f` from `c` to `s` of
    /// `protocol` running `workload`.
    static func twoPhones(
        name: String = "t", seed: Int = 1, duration: Double = 10, environment: JSON = ["preset": "field"],
        radio: JSON = ["technology": "wifi"], protocol proto: String, workload: JSON
    ) -> TestScenario {
        var s = TestScenario(name: name, seed: seed, duration: duration, environment: environment, radio: radio)
        s.place("c", 0, 0)
        s.place("s", 10, 0)
        s["flows"] = [["id": "f", "from": "c", "to": "s", "protocol": .string(proto), "workload": workload]]
        return s
    }

    /// The scenario as JSON text.
    var text: String { root.text }

    /// The scenario decoded (with `--set` overrides, if any).
    func decoded(overrides: [String] = []) throws -> Scenario {
        try ScenarioDecoder.decode(bytes: Array(text.utf8), file: "t.json", overrides: overrides)
    }

    /// The decoder's complaints about the scenario (none when it is valid).
    var problems: [Diagnostic] { diagnostics(text) }

    /// The scenario's run.
    func run() throws -> RunReport { try ScenarioRunner.run(decoded()) }
}

@Suite("Test scenarios")
struct TestScenarioTests {
    /// The builder writes the JSON a person would type: keys in order, integers without a
    /// fraction, strings escaped; the decoder reads it back.
    @Test func theBuilderWritesPlainJson() throws {
        var s = TestScenario(duration: 12, environment: ["preset": "field", "shadowingSigmaDb": 0])
        s.place("a", 0, 0)
        s.place("b", 10.5, 0, ["role": "client"])
        s["mesh"] = ["sessions": [["a", "b"]]]
        expectEqual(
            s.text,
            #"{"name": "t", "seed": 7, "duration_s": 12, "environment": {"preset": "field", "shadowingSigmaDb": 0}, "#
                + #""radio": {"technology": "awdl"}, "nodes": [{"id": "a", "position": [0, 0, 1.2]}, "#
                + #"{"id": "b", "position": [10.5, 0, 1.2], "role": "client"}], "mesh": {"sessions": [["a", "b"]]}}"#)
        expectEqual(JSON.string("say \"hi\"\\").text, #""say \"hi\"\\""#)
        expectEqual(JSON.object([]).text, "{}")
        s["nodes"] = nil
        s.root["duration_s"] = .raw("\"long\"")
        expect(s.problems.contains { $0.path == "duration_s" })
    }
}

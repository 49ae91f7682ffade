import Foundation
import Testing

/// Rules the sources keep, read from the files: no force unwrap outside the tests (an
/// invariant says why it holds with a `preconditionFailure` naming it), and no tracker
/// numbers in code or tests (the repository speaks of the project, not of how it was built).
struct SourceRulesTests {
    /// Every Swift file under `folder` (relative to the repository root), sorted.
    static func swiftFiles(_ folder: String) throws -> [URL] {
        let root = Repository.root.appendingPathComponent(folder)
        let paths = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? []
        return paths.filter { $0.hasSuffix(".swift") }.sorted().map { root.appendingPathComponent($0) }
    }

    /// `line` without its `//` comment and with every string literal emptied, roughly as the
    /// compiler sees its code (enough for the rules here: a `!` inside a comment or a message
    /// is not an unwrap).
    static func code(_ line: Substring) -> String {
        var out = ""
        var inString = false
        var previous: Character = " "
        for c in line {
            if inString {
                if c == "\"" && previous != "\\" { inString = false; out.append(c) }
            } else if c == "\"" {
                inString = true
                out.append(c)
            } else if c == "/" && previous == "/" {
                out.removeLast()
                break
            } else {
                out.append(c)
            }
            previous = c
        }
        return out
    }

    /// The force unwraps in `line`: a `!` right after a name, `)` or `]` that is not `!=`.
    static func forceUnwraps(_ line: Substring) -> Int {
        let s = Array(code(line))
        var n = 0
        for i in s.indices.dropFirst() where s[i] == "!" {
            let before = s[i - 1]
            let after: Character = i + 1 < s.count ? s[i + 1] : " "
            if (before.isLetter || before.isNumber || before == "_" || before == ")" || before == "]") && after != "=" {
                n += 1
            }
        }
        return n
    }

    @Test func theRulesReadWhatTheyShould() {
        // Worked by hand: two unwraps, then none in a comparison, a negation, a comment or a string.
        expectEqual(Self.forceUnwraps("let x = a! + b[0]!.c"), 2)
        expectEqual(Self.forceUnwraps("if a != b && !c { f(\"boom!\") } // x!"), 0)
        expectEqual(Self.forceUnwraps("let s = \"a\\\"b!\" + t!"), 1)
    }

    @Test func noForceUnwrapOutsideTheTests() throws {
        var found: [String] = []
        for file in try Self.swiftFiles("Sources") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.forceUnwraps(line) > 0 {
                found.append("\(file.lastPathComponent):\(k + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        expect(found.isEmpty, "force unwraps:\n\(found.joined(separator: "\n"))")
    }

    @Test func noTrackerNumbersInCodeOrTests() throws {
        let pattern = ["issue", " #"].joined()
        var found: [String] = []
        for file in try Self.swiftFiles("Sources") + Self.swiftFiles("Tests") {
            let text = try String(contentsOf: file, encoding: .utf8).lowercased()
            for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let r = line.range(of: pattern), line[r.upperBound...].first?.isNumber == true else { continue }
                found.append("\(file.lastPathComponent):\(k + 1)")
            }
        }
        expect(found.isEmpty, "tracker numbers: \(found)")
    }
}

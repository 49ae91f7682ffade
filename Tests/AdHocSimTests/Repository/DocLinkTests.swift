import Foundation
import Testing

/// Docs that teach are docs whose links work. Every relative link in the
/// repository's Markdown names a file that exists and, into a Markdown page, a heading it has;
/// every page is reachable from the README (result folders' own pages excepted: a run writes
/// them).
@Suite("Doc links")
struct DocLinkTests {
    static let root = Repository.root

    /// The Markdown pages: every `.md` outside hidden folders (`.build/`) and outside a result
    /// folder under `results/` (`results/README.md` itself is a page).
    static func pages() throws -> [String] {
        let base = root.standardized.path + "/"
        let walk = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        let all = (walk?.compactMap { ($0 as? URL)?.standardized.path } ?? []).filter { $0.hasPrefix(base) }
        return all.map { String($0.dropFirst(base.count)) }.filter { path in
            path.hasSuffix(".md") && !(path.hasPrefix("results/") && path.split(separator: "/").count > 2)
        }.sorted()
    }

    /// The relative link targets of `text` (`[label](target)`), outside fenced code blocks.
    static func links(_ text: String) -> [String] {
        var result: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            if fenced { continue }
            var rest = line[...]
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(where: { $0 == ")" || $0 == " " }), after[close] == ")" else {
                    rest = after
                    continue
                }
                let target = String(after[..<close])
                if !target.contains(":") { result.append(target) }  // http:, mailto: and the like
                rest = after[close...]
            }
        }
        return result
    }

    /// GitHub's anchor of a heading: lower case; letters, digits, marks, `-` and `_` kept;
    /// spaces to `-`; everything else dropped; a repeated anchor numbered `-1`, `-2`, …
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        var fenced = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
            var slug = ""
            for scalar in title.lowercased().unicodeScalars {
                switch scalar.properties.generalCategory {
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                    .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
                    slug.unicodeScalars.append(scalar)
                default:
                    if scalar == "-" || scalar == "_" { slug.unicodeScalars.append(scalar) }
                    if scalar == " " { slug.append("-") }
                }
            }
            if let n = seen[slug] {
                seen[slug] = n + 1
                result.insert("\(slug)-\(n + 1)")
            } else {
                seen[slug] = 0
                result.insert(slug)
            }
        }
        return result
    }

    @Test func theAnchorRuleIsGitHubs() {
        // Worked by hand from GitHub's rule: "## The `kind` field (part #2; 2026-11-27)" loses
        // the backticks, parentheses, '#', ';' and keeps the digits and hyphens.
        let page = "# Title\n## The `kind` field (part #2; 2026-11-27)\n## Title\n```\n# not a heading\n```\n"
        expectEqual(Self.anchors(page), ["title", "the-kind-field-part-2-2026-11-27", "title-1"])
        expectEqual(
            Self.links("see [a](docs/a.md#x) and [b](https://e.org) `[c](d.md)`\n```\n[e](f.md)\n```"),
            ["docs/a.md#x", "d.md"])
    }

    @Test func everyRelativeLinkResolves() throws {
        let pages = try Self.pages()
        expect(pages.count >= 30)  // the walk found the docs, the models and the folders' READMEs
        var anchorCache: [String: Set<String>] = [:]
        for page in pages {
            let url = Self.root.appendingPathComponent(page)
            let text = try String(contentsOf: url, encoding: .utf8)
            for link in Self.links(text) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                let target =
                    file.isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(file).standardized
                guard FileManager.default.fileExists(atPath: target.path) else {
                    expect(false, "\(page): the link \(link) names no file")
                    continue
                }
                guard parts.count == 2, target.pathExtension == "md" else { continue }
                let anchors = try anchorCache[target.path] ?? Self.anchors(String(contentsOf: target, encoding: .utf8))
                anchorCache[target.path] = anchors
                expect(anchors.contains(String(parts[1])), "\(page): the link \(link) names no heading of its page")
            }
        }
    }

    @Test func everyPageIsReachableFromTheReadme() throws {
        let pages = try Self.pages()
        var reached: Set<String> = []
        var stack = ["README.md"]
        while let page = stack.popLast() {
            guard reached.insert(page).inserted else { continue }
            let url = Self.root.appendingPathComponent(page)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for link in Self.links(text) {
                let file = String(link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                guard file.hasSuffix(".md") else { continue }
                let target = url.deletingLastPathComponent().appendingPathComponent(file).standardized.path
                guard target.hasPrefix(Self.root.standardized.path + "/") else { continue }
                stack.append(String(target.dropFirst(Self.root.standardized.path.count + 1)))
            }
        }
        let unreached = pages.filter { !reached.contains($0) }
        expect(unreached.isEmpty, "not reachable from README.md: \(unreached)")
    }
}

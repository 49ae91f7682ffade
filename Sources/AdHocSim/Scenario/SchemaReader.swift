/// Strict, error-collecting readers for one JSON object and for scalar values.
///
/// The schema is the decoding code itself: every key a section asks for (present or not) is
/// known; when the section is done, `finish()` reports the keys nobody asked for, with a
/// "did you mean" suggestion from the known keys. Readers never stop at the first problem:
/// they report it to the sink and return `nil`, and decoding carries on.
final class ObjectReader {
    let node: JSONNode
    let path: JSONPath
    let sink: DiagnosticSink
    private let members: [JSONMember]
    private var known: [String] = []

    /// A reader for `node`, or `nil` (after reporting) when it is not an object.
    init?(_ node: JSONNode, path: JSONPath, sink: DiagnosticSink, expected: String) {
        guard let members = node.members else {
            sink.report("expected \(expected), found \(node.value.summary)", path: path, at: node.origin)
            return nil
        }
        self.node = node
        self.path = path
        self.sink = sink
        self.members = members
    }

    /// The value of `key`, marking the key as known. `nil` when absent.
    func value(_ key: String) -> JSONNode? {
        known.append(key)
        sink.census?[path.pattern, default: []].insert(key)
        return members.first(where: { $0.key == key })?.value
    }

    /// The value of a required `key`; reports its absence.
    func required(_ key: String, _ what: String) -> JSONNode? {
        guard let v = value(key) else {
            sink.report("missing required key \"\(key)\" (\(what))", path: path, at: node.origin)
            return nil
        }
        return v
    }

    /// Marks `keys` as known and reports each one present: it does not go with `chosen`, the
    /// key that chose this object's shape (`reason` says why). Returns whether none was present.
    func refuse(_ keys: [String], with chosen: String, _ reason: String) -> Bool {
        var none = true
        for key in keys {
            guard value(key) != nil, let m = members.first(where: { $0.key == key }) else { continue }
            sink.report(
                "\"\(key)\" does not go with \"\(chosen)\": \(reason)", path: path.appending(key), at: m.keyOrigin)
            none = false
        }
        return none
    }

    /// Reports every key that was never asked for.
    func finish() {
        for m in members where !known.contains(m.key) {
            var message = "unknown key \"\(m.key)\""
            if let suggestion = Suggestion.closest(to: m.key, among: known) {
                message += "; did you mean \"\(suggestion)\"?"
            } else {
                var listed: [String] = []
                for k in known where !listed.contains(k) { listed.append(k) }
                message += "; known keys here: " + listed.map { "\"\($0)\"" }.joined(separator: ", ")
            }
            sink.report(message, path: path.appending(m.key), at: m.keyOrigin)
        }
    }
}

/// Scalar decoders: each reports "expected …, found …" and returns `nil` on a mismatch.
struct ValueReader {
    let sink: DiagnosticSink

    func string(_ node: JSONNode, _ path: JSONPath, _ what: String) -> String? {
        guard case .string(let s) = node.value else {
            sink.report("expected \(what), found \(node.value.summary)", path: path, at: node.origin)
            return nil
        }
        return s
    }

    func bool(_ node: JSONNode, _ path: JSONPath, _ what: String) -> Bool? {
        guard case .bool(let b) = node.value else {
            sink.report("expected \(what), found \(node.value.summary)", path: path, at: node.origin)
            return nil
        }
        return b
    }

    /// A finite number within `range`.
    func number(_ node: JSONNode, _ path: JSONPath, _ what: String, in range: ClosedRange<Double>) -> Double? {
        guard case .number(let n) = node.value else {
            sink.report("expected \(what), found \(node.value.summary)", path: path, at: node.origin)
            return nil
        }
        guard range.contains(n.value) else {
            sink.report("expected \(what), found \(n.literal) (out of range)", path: path, at: node.origin)
            return nil
        }
        return n.value
    }

    /// A number > `lower` and ≤ `upper`.
    func positive(
        _ node: JSONNode, _ path: JSONPath, _ what: String, above lower: Double, upTo upper: Double
    ) -> Double? {
        guard let v = number(node, path, what, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        else {
            return nil
        }
        guard v > lower && v <= upper else {
            sink.report("expected \(what), found \(JSONNumber(v).literal) (out of range)", path: path, at: node.origin)
            return nil
        }
        return v
    }

    /// A duration in `unit` seconds (1 for seconds, 0.001 for milliseconds) of at least one
    /// nanosecond, the clock's resolution, and at most `upper` units; with `allowZero`, zero
    /// is accepted too. Every duration and interval key goes through here, so none can round to
    /// zero nanoseconds (which would let an event repeat at one instant forever).
    func duration(
        _ node: JSONNode, _ path: JSONPath, _ what: String, unit: Double = 1, upTo upper: Double,
        allowZero: Bool = false
    ) -> Double? {
        guard let v = number(node, path, what, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        else { return nil }
        if allowZero && v == 0 { return v }
        guard v > 0 && v <= upper else {
            sink.report("expected \(what), found \(JSONNumber(v).literal) (out of range)", path: path, at: node.origin)
            return nil
        }
        guard (v * unit * 1e9).rounded() >= 1 else {
            sink.report(
                "expected \(what), found \(JSONNumber(v).literal) (rounds to 0 ns; the clock counts whole nanoseconds, "
                    + "so a duration must be at least \(JSONNumber(1e-9 / unit).literal))", path: path, at: node.origin)
            return nil
        }
        return v
    }

    /// An integer written without fraction or exponent, within `range`.
    func integer(_ node: JSONNode, _ path: JSONPath, _ what: String, in range: ClosedRange<UInt64>) -> UInt64? {
        guard case .number(let n) = node.value else {
            sink.report("expected \(what), found \(node.value.summary)", path: path, at: node.origin)
            return nil
        }
        // A whole number written with an exponent or a zero fraction (2e5, 3.0) is one too, as
        // JSON Schema's "integer" has it, while it is exact in a Double (below 2^53).
        let exact =
            !n.isIntegerLiteral && n.value >= 0 && n.value == n.value.rounded() && n.value < 9_007_199_254_740_992
        guard
            let v = exact
                ? UInt64(n.value)
                : (n.isIntegerLiteral && (!n.literal.hasPrefix("-") || n.literal == "-0")
                    ? UInt64(n.literal == "-0" ? "0" : n.literal) : nil)
        else {
            let why =
                n.value < 0
                ? "negative"
                : n.value != n.value.rounded()
                    ? "not a whole number"
                    : "above 2^64 − 1, or written with an exponent above 2^53"
            sink.report("expected \(what), found \(n.literal) (\(why))", path: path, at: node.origin)
            return nil
        }
        guard range.contains(v) else {
            sink.report("expected \(what), found \(n.literal) (out of range)", path: path, at: node.origin)
            return nil
        }
        return v
    }

    /// An integer that must be one of `allowed`.
    func oneOf(_ node: JSONNode, _ path: JSONPath, _ what: String, _ allowed: [Int]) -> Int? {
        let list = allowed.map(String.init).joined(separator: ", ")
        guard case .number(let n) = node.value else {
            sink.report("expected \(what): one of \(list); found \(node.value.summary)", path: path, at: node.origin)
            return nil
        }
        guard n.isIntegerLiteral, let v = Int(n.literal), allowed.contains(v) else {
            sink.report("expected \(what): one of \(list); found \(n.literal)", path: path, at: node.origin)
            return nil
        }
        return v
    }

    /// The node a node id names, as its index; reports a string that names no node (with the
    /// closest id when `suggestions` are given). Every reference to a node in a scenario
    /// resolves here.
    func node(_ v: JSONNode, _ at: JSONPath, in nodeIndex: [String: Int], suggestions: SuggestionIndex? = nil) -> Int? {
        guard let name = string(v, at, "a node id") else { return nil }
        guard let index = nodeIndex[name] else {
            var message = "no node has the id \"\(Diagnostic.excerpt(name))\""
            if let s = suggestions?.closest(to: name) { message += "; did you mean \"\(s)\"?" }
            sink.report(message, path: at, at: v.origin)
            return nil
        }
        return index
    }

    /// An id: 1 to 64 letters, digits, '.', '_', ':' or '-'.
    func identifier(_ node: JSONNode, _ path: JSONPath, _ what: String) -> String? {
        guard let s = string(node, path, what) else { return nil }
        guard Identifier.isValidID(s) else {
            sink.report(
                "expected \(what) of 1 to 64 letters, digits, '.', '_', ':' or '-'; found \"\(s)\"", path: path,
                at: node.origin)
            return nil
        }
        return s
    }

    /// AWDL occupancy: an array of slot indices 0...15, at least one (bit s = slot s).
    func slots(_ node: JSONNode, _ path: JSONPath) -> UInt16? {
        guard let items = array(node, path, "an array of AWDL slot indices 0...15") else { return nil }
        var mask: UInt16 = 0
        for (j, item) in items.enumerated() {
            guard let s = integer(item, path.appending(j), "a slot index in 0...15", in: 0...15) else { return nil }
            mask |= 1 << UInt16(s)
        }
        if mask == 0 {
            sink.report("expected at least one slot", path: path, at: node.origin)
            return nil
        }
        return mask
    }

    /// One of `allowed`, with a suggestion when it is close to one.
    func choice(_ node: JSONNode, _ path: JSONPath, _ what: String, from allowed: [String]) -> String? {
        guard let s = string(node, path, "\(what) (one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")))")
        else {
            return nil
        }
        guard allowed.contains(s) else {
            var message =
                "expected \(what): one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")); found \"\(s)\""
            if let suggestion = Suggestion.closest(to: s, among: allowed) {
                message += "; did you mean \"\(suggestion)\"?"
            }
            sink.report(message, path: path, at: node.origin)
            return nil
        }
        return s
    }

    /// One of an enumeration's raw values, as its case (same messages as `choice(from:)`).
    func choice<E: CaseIterable & RawRepresentable>(
        _ node: JSONNode, _ path: JSONPath, _ what: String, of type: E.Type
    )
        -> E? where E.RawValue == String
    {
        choice(node, path, what, from: E.allCases.map(\.rawValue)).flatMap(E.init(rawValue:))
    }

    func array(_ node: JSONNode, _ path: JSONPath, _ what: String) -> [JSONNode]? {
        guard case .array(let a) = node.value else {
            sink.report("expected \(what), found \(node.value.summary)", path: path, at: node.origin)
            return nil
        }
        return a
    }

    /// An array whose every element `element` decodes (at `path[i]`); every bad element is
    /// reported before the list is refused.
    func list<T>(
        _ node: JSONNode, _ path: JSONPath, _ what: String, _ element: (JSONNode, JSONPath) -> T?
    ) -> [T]? {
        guard let items = array(node, path, what) else { return nil }
        var result: [T] = []
        var ok = true
        for (i, item) in items.enumerated() {
            if let v = element(item, path.appending(i)) { result.append(v) } else { ok = false }
        }
        return ok ? result : nil
    }
}

/// "Did you mean" suggestions by edit distance.
enum Suggestion {
    /// The candidate closest to `word` (case-insensitive Levenshtein distance), if it is close
    /// enough to be a plausible typo: at most 1 edit for short words, a third of the length
    /// for longer ones, and fewer edits than the shorter word has characters.
    ///
    /// Linear in the candidates: only those whose length is within the allowed distance of the
    /// word's are compared (the edit distance is at least the length difference), and words
    /// longer than `maxWordLength` get no suggestion.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        guard w.count <= maxWordLength else { return nil }
        var best: (String, Int)?
        for c in candidates {
            let length = c.count
            let allowed = Swift.max(1, Swift.max(w.count, length) / 3)
            guard abs(length - w.count) <= allowed, length <= maxWordLength else { continue }
            let d = distance(w, Array(c.lowercased()))
            if best.map({ d < $0.1 }) ?? true { best = (c, d) }
        }
        guard let (candidate, d) = best else { return nil }
        let limit = Swift.max(1, Swift.max(w.count, candidate.count) / 3)
        // A suggestion must keep something of the word: "C" is not a typo of "A".
        return d <= limit && d < Swift.min(w.count, candidate.count) ? candidate : nil
    }

    /// Words and candidates longer than this are not compared: 64 characters (assumption: ids
    /// and keys are short; the bound keeps a pathological name from costing a quadratic table).
    static let maxWordLength = 64

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// "Did you mean" among many candidates (node ids), in time independent of their number: the
/// candidates' one-character deletions are indexed once, so the candidates within one edit of
/// a word are found by looking up the word and its own deletions (any two words one edit apart
/// share one of these), and only those are compared. Small sets are compared in full.
final class SuggestionIndex {
    let candidates: [String]
    private var byVariant: [String: [Int]] = [:]
    /// Up to this many candidates every one is compared (as `Suggestion.closest` does): 256
    /// (assumption: a full comparison of 256 short ids costs microseconds, and every key list of
    /// the format is far shorter).
    static let fullComparisonLimit = 256

    /// An index of `candidates` (in a fixed order: suggestions do not depend on hashing).
    init(_ candidates: [String]) {
        self.candidates = candidates
        guard candidates.count > SuggestionIndex.fullComparisonLimit else { return }
        for (i, c) in candidates.enumerated() where c.count <= Suggestion.maxWordLength {
            for v in SuggestionIndex.variants(of: c.lowercased()) { byVariant[v, default: []].append(i) }
        }
    }

    /// The word and every one-character deletion of it.
    static func variants(of word: String) -> [String] {
        let chars = Array(word)
        var out = [word]
        for k in chars.indices {
            var d = chars
            d.remove(at: k)
            out.append(String(d))
        }
        return out
    }

    /// The candidate closest to `word`, as `Suggestion.closest` judges it (within one edit when
    /// there are many candidates).
    func closest(to word: String) -> String? {
        guard candidates.count > SuggestionIndex.fullComparisonLimit else {
            return Suggestion.closest(to: word, among: candidates)
        }
        guard word.count <= Suggestion.maxWordLength else { return nil }
        var near: [Int] = []
        for v in SuggestionIndex.variants(of: word.lowercased()) { near += byVariant[v] ?? [] }
        let unique = Array(Set(near)).sorted()
        return Suggestion.closest(to: word, among: unique.map { candidates[$0] })
    }
}

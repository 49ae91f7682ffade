/// A tiny argument reader: options with values, repeated options, flags and positionals.
/// Unknown options are errors with a suggestion, never ignored.
struct Arguments {
    struct UsageError: Error {
        var message: String
    }

    private(set) var positionals: [String] = []
    private var values: [(name: String, value: String)] = []
    private var flags: [String] = []

    /// Parses `args` against the known `options` (which take a value) and `switches` (which don't).
    init(_ args: [String], options: [String], switches: [String]) throws {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            if onlyPositionals || !a.hasPrefix("-") || a == "-" {
                positionals.append(a)
            } else if a == "--" {
                onlyPositionals = true
            } else {
                var name = a
                var inlineValue: String?
                if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                    name = String(a[..<eq])
                    inlineValue = String(a[a.index(after: eq)...])
                }
                if options.contains(name) {
                    if let inlineValue {
                        values.append((name, inlineValue))
                    } else {
                        guard i + 1 < args.count else { throw UsageError(message: "\(name) needs a value") }
                        values.append((name, args[i + 1]))
                        i += 1
                    }
                } else if switches.contains(name), inlineValue == nil {
                    flags.append(name)
                } else {
                    var message = "unknown option \(name)"
                    let all = options + switches
                    if let s = all.min(by: { editDistance($0, name) < editDistance($1, name) }),
                        editDistance(s, name) <= 3
                    {
                        message += "; did you mean \(s)?"
                    }
                    throw UsageError(message: message)
                }
            }
            i += 1
        }
    }

    /// The last value given for `name`.
    func value(_ name: String) -> String? { values.last(where: { $0.name == name })?.value }
    /// Every value given for `name`, in order.
    func all(_ name: String) -> [String] { values.filter { $0.name == name }.map(\.value) }
    /// Whether the switch `name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// A whole-number option within `range`, or `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: UInt64, in range: ClosedRange<UInt64>) throws -> UInt64 {
        guard let text = value(name) else { return defaultValue }
        let cleaned = text.replacingOccurrences(of: "_", with: "")
        guard let v = UInt64(cleaned), range.contains(v) else {
            throw UsageError(
                message:
                    "\(name) expects a whole number in \(range.lowerBound)...\(range.upperBound), found \"\(text)\"")
        }
        return v
    }
}

func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count), cur = prev
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[b.count]
}

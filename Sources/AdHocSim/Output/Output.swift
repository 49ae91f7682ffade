/// Number formatting that is identical on every platform and locale.
public enum NumberText {
    /// `value` with exactly `decimals` digits after the point, rounded half away from zero.
    /// Falls back to Swift's shortest round-trip form for magnitudes beyond 10^15.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        precondition((0...9).contains(decimals))
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let n = Int64(scaled)
        let negative = value < 0 && n != 0
        let digits = String(n)
        guard decimals > 0 else { return (negative ? "-" : "") + digits }
        let padded =
            digits.count <= decimals ? String(repeating: "0", count: decimals - digits.count + 1) + digits : digits
        let cut = padded.index(padded.endIndex, offsetBy: -decimals)
        return (negative ? "-" : "") + padded[..<cut] + "." + padded[cut...]
    }
}

/// A CSV file written row by row straight into its text, for tables of millions of rows (the
/// `routes.csv` of a crowd): the same bytes as `CSVTable.text`, without keeping every row's
/// fields until the end (6 million routes held as rows took about a gigabyte).
public struct CSVText: Sendable {
    /// The file so far.
    public private(set) var text = ""
    let columns: Int

    /// A file with the given columns.
    public init(header: [String]) {
        columns = header.count
        write(header)
    }

    /// Appends a row. - Precondition: as many fields as columns.
    public mutating func append(_ row: [String]) {
        precondition(row.count == columns, "CSV row has \(row.count) fields for \(columns) columns")
        write(row)
    }

    private mutating func write(_ row: [String]) { CSVTable.write(row, to: &text) }
}

/// A CSV table (RFC 4180: comma separated, CRLF-free `\n` lines, fields quoted when needed).
public struct CSVTable: Sendable {
    /// Column names.
    public var header: [String]
    /// Rows of already formatted fields.
    public var rows: [[String]] = []

    /// A table with the given columns.
    public init(header: [String]) { self.header = header }

    /// Appends a row. - Precondition: as many fields as columns.
    public mutating func append(_ row: [String]) {
        precondition(row.count == header.count, "CSV row has \(row.count) fields for \(header.count) columns")
        rows.append(row)
    }

    /// The table as text.
    public var text: String {
        var out = ""
        CSVTable.write(header, to: &out)
        for row in rows { CSVTable.write(row, to: &out) }
        return out
    }

    /// Appends one row, its fields quoted where they need it, and its line break: the one
    /// definition of a CSV line (`CSVText` writes the same).
    static func write(_ row: [String], to out: inout String) {
        for (k, f) in row.enumerated() {
            if k > 0 { out += "," }
            out += CSVTable.field(f)
        }
        out += "\n"
    }

    /// Parses RFC 4180 CSV text into rows of fields; `closed` is false when the text ends inside
    /// a quoted field. Lines end with LF or CRLF (RFC 4180 §2, rule 1); a lone CR is text. The
    /// text is read as UTF-8 bytes: the four structural characters are ASCII, which UTF-8 never
    /// uses inside a multi-byte character, and a field is decoded once, from its bytes.
    public static func records(_ text: String) -> (rows: [[String]], closed: Bool) {
        var text = text
        return text.withUTF8 { records(bytes: $0) }
    }

    private static func records(bytes u: UnsafeBufferPointer<UInt8>) -> (rows: [[String]], closed: Bool) {
        let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var quoted = false
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        var i = 0
        while i < u.count {
            let c = u[i]
            i += 1
            if quoted {
                if c == quote {
                    // Two quotes inside a quoted field are one; a lone one closes it.
                    if i < u.count, u[i] == quote { field.append(quote); i += 1 } else { quoted = false }
                } else {
                    field.append(c)
                }
                continue
            }
            switch c {
            case quote: quoted = true
            case comma: endField()
            case lf: endField(); rows.append(row); row = []
            case cr where i < u.count && u[i] == lf: i += 1; endField(); rows.append(row); row = []
            default: field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { endField(); rows.append(row) }
        return (rows, !quoted)
    }

    static func field(_ s: String) -> String {
        // A text that a spreadsheet would take for a formula (it starts with =, +, -, @, a tab or
        // a CR and is not a number) is written with a leading apostrophe, so it shows as text
        // (OWASP, "CSV Injection"); numbers, negative ones included, stay numbers.
        let s = CSVTable.looksLikeFormula(s) ? "'" + s : s
        // Byte by byte (the four are ASCII): a CR LF pair counts too, which a Character
        // comparison would miss (it is one grapheme).
        guard s.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether a spreadsheet would read `s` as a formula: its first byte is =, +, -, @, tab or
    /// CR and it is not a decimal number (`-3`, `+2.5e-3`).
    static func looksLikeFormula(_ s: String) -> Bool {
        guard let first = s.utf8.first, [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D].contains(first) else { return false }
        return !isNumber(s) && s != "-inf"  // NumberText writes -inf in numeric columns
    }

    /// `[+-]digits[.digits][(e|E)[+-]digits]` with at least one digit before the exponent.
    static func isNumber(_ s: String) -> Bool {
        let u = Array(s.utf8)
        var i = 0, digits = 0
        func isDigit(_ k: Int) -> Bool { k < u.count && u[k] >= 0x30 && u[k] <= 0x39 }
        if i < u.count, u[i] == 0x2B || u[i] == 0x2D { i += 1 }
        while isDigit(i) { i += 1; digits += 1 }
        if i < u.count, u[i] == 0x2E {
            i += 1
            while isDigit(i) { i += 1; digits += 1 }
        }
        guard digits > 0 else { return false }
        if i < u.count, u[i] == 0x65 || u[i] == 0x45 {
            i += 1
            if i < u.count, u[i] == 0x2B || u[i] == 0x2D { i += 1 }
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        return i == u.count
    }
}

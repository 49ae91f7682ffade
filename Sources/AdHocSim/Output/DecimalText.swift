/// The one number grammar of the CSV tables adhocsim reads: an optional
/// minus sign, digits with an optional fraction (or a fraction alone), and an optional decimal
/// exponent; nothing before or after. Swift's `Double(String)` also takes hexadecimal floats
/// (`0x1.dd7p3`), `inf` and `nan`, and reads a C string, so `14.921<NUL>GARBAGE` parses as
/// 14.921: none of that is a measurement.
public enum DecimalText {
    /// The value of `text` if it is a finite decimal number in the grammar above, else `nil`.
    public static func parse<S: StringProtocol>(_ text: S) -> Double? {
        var digits = 0, i = text.utf8.startIndex
        let u = text.utf8
        func at(_ k: String.UTF8View.Index) -> UInt8? { k < u.endIndex ? u[k] : nil }
        if at(i) == UInt8(ascii: "-") { i = u.index(after: i) }
        while let c = at(i), c >= 48, c <= 57 { digits += 1; i = u.index(after: i) }
        if at(i) == UInt8(ascii: ".") {
            i = u.index(after: i)
            while let c = at(i), c >= 48, c <= 57 { digits += 1; i = u.index(after: i) }
        }
        guard digits > 0 else { return nil }
        if let e = at(i), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            i = u.index(after: i)
            if let s = at(i), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i = u.index(after: i) }
            var exponentDigits = 0
            while let c = at(i), c >= 48, c <= 57 { exponentDigits += 1; i = u.index(after: i) }
            guard exponentDigits > 0 else { return nil }
        }
        guard i == u.endIndex, let v = Double(String(text)), v.isFinite else { return nil }
        return v
    }
}

/// Hexadecimal text as identifiers are written (UUIDs, company identifiers, fingerprints): ASCII
/// digits and letters a–f or A–F only. Swift's `isHexDigit` also takes full-width digits, and
/// `UInt16(_:radix:)` a sign (`"+FD5"`, `"-000"`), so neither alone is the check.
public enum HexText {
    /// Whether `text` is one or more ASCII hex digits and nothing else.
    public static func isHex<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The value of exactly `digits` ASCII hex digits, or `nil`.
    public static func value<S: StringProtocol>(_ text: S, digits: Int) -> UInt64? {
        guard text.utf8.count == digits, isHex(text) else { return nil }
        return UInt64(text, radix: 16)
    }
}

/// FNV-1a, 64-bit (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3).
///
/// Used wherever a hash must be the same in every process and on every platform: naming random
/// streams, fingerprinting inputs. Swift's `Hasher` is randomly seeded per process and must never
/// be used for these. FNV-1a is a change detector, not a cryptographic hash.
@frozen
public struct StableHash: Sendable {
    /// The running hash value.
    public var value: UInt64

    /// A fresh hash state.
    @inlinable public init() { value = 0xcbf2_9ce4_8422_2325 }

    /// Mixes in bytes.
    @inlinable
    public mutating func combine<S: Sequence>(bytes: S) where S.Element == UInt8 {
        for b in bytes {
            value = (value ^ UInt64(b)) &* 0x0000_0100_0000_01b3
        }
    }

    /// Mixes in a string's UTF-8 bytes.
    @inlinable
    public mutating func combine(_ string: String) { combine(bytes: string.utf8) }

    /// Mixes in a 64-bit integer, little-endian.
    @inlinable
    public mutating func combine(_ v: UInt64) {
        var x = v
        for _ in 0..<8 {
            value = (value ^ (x & 0xff)) &* 0x0000_0100_0000_01b3
            x >>= 8
        }
    }

    /// FNV-1a of a string's UTF-8 bytes.
    @inlinable
    public static func fnv1a(_ string: String) -> UInt64 {
        var h = StableHash()
        h.combine(string)
        return h.value
    }

    /// The value as 16 lowercase hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

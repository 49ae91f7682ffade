/// LE privacy: resolvable private addresses and their resolution with an identity resolving key
/// (IRK), as the Core Specification v5.4 defines them (Vol 6, Part B §1.3.2.2; Vol 3, Part H
/// §2.2.2 and §2.4.2.1).
///
/// A resolvable private address is 48 bits: `prand` (24 bits, the two most significant 0 and 1,
/// the other 22 random and neither all zeros nor all ones) above `hash = ah(IRK, prand)`. A
/// device bonded to a peer has given it its IRK; the peer resolves an address by computing
/// `ah(IRK, prand)` and comparing it with the address's hash, so it knows the device across
/// every rotation, while any other observer sees an unrelated address each time.
enum BlePrivacy {
    /// The random address hash function `ah` (Vol 3, Part H §2.2.2): the low 24 bits of
    /// AES-128 of `prand` padded with zeros to 128 bits, under the key `irk` (16 bytes, most
    /// significant first, as the specification's sample data writes it).
    static func ah(irk: [UInt8], prand: UInt32) -> UInt32 {
        var block = [UInt8](repeating: 0, count: 16)
        block[13] = UInt8(truncatingIfNeeded: prand >> 16)
        block[14] = UInt8(truncatingIfNeeded: prand >> 8)
        block[15] = UInt8(truncatingIfNeeded: prand)
        let e = Aes128(key: irk).encrypt(block)
        return UInt32(e[13]) << 16 | UInt32(e[14]) << 8 | UInt32(e[15])
    }

    /// `prand` from 22 random bits: the two most significant bits 0 and 1, and the random part
    /// moved off all zeros or all ones (Vol 6, Part B §1.3.2.2).
    static func prand(random: UInt64) -> UInt32 {
        var r = UInt32(truncatingIfNeeded: random) & 0x3F_FFFF
        if r == 0 { r = 1 } else if r == 0x3F_FFFF { r = 0x3F_FFFE }
        return 0x40_0000 | r
    }

    /// The resolvable private address of `irk` for `prand`: `prand` above its hash.
    static func address(irk: [UInt8], prand: UInt32) -> UInt64 {
        UInt64(prand) << 24 | UInt64(ah(irk: irk, prand: prand))
    }

    /// Whether `address` resolves with `irk`: it is a resolvable private address (top bits 0
    /// and 1) whose hash equals `ah(irk, prand)` (Vol 3, Part H §2.2.2).
    static func resolves(_ address: UInt64, irk: [UInt8]) -> Bool {
        let prand = UInt32(truncatingIfNeeded: address >> 24) & 0xFF_FFFF
        guard prand >> 22 == 0b01 else { return false }
        return ah(irk: irk, prand: prand) == UInt32(truncatingIfNeeded: address) & 0xFF_FFFF
    }

    /// An IRK from 32 hex digits (`nil` unless exactly 16 bytes of hex).
    static func irk(hex text: String) -> [UInt8]? {
        guard text.utf8.count == 32, HexText.isHex(text) else { return nil }
        let digits = Array(text)
        return stride(from: 0, to: 32, by: 2).compactMap { UInt8(String(digits[$0...($0 + 1)]), radix: 16) }
    }
}

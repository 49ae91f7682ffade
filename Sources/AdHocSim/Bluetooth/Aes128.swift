/// AES-128 encryption of one 16-byte block (FIPS 197), as LE security's function `e` uses it
/// (Core Specification v5.4, Vol 3, Part H §2.2.1). Only what the privacy functions need: key
/// expansion and the forward cipher; the S-box is computed from its definition (the
/// multiplicative inverse in GF(2⁸) followed by the affine map, FIPS 197 §5.1.1) rather than
/// typed in. Not on any per-event path: an address is resolved once per scanner and rotation.
struct Aes128 {
    /// The S-box (FIPS 197 §5.1.1).
    static let sbox: [UInt8] = {
        var box = [UInt8](repeating: 0, count: 256)
        for x in 0..<256 {
            var inverse: UInt8 = 0
            if x != 0 {
                for y in 1..<256 where multiply(UInt8(x), UInt8(y)) == 1 {
                    inverse = UInt8(y)
                    break
                }
            }
            var s = inverse
            var r = inverse
            for _ in 0..<4 {
                r = r << 1 | r >> 7
                s ^= r
            }
            box[x] = s ^ 0x63
        }
        return box
    }()

    /// Multiplication in GF(2⁸) modulo x⁸ + x⁴ + x³ + x + 1 (FIPS 197 §4.2).
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var a = a, b = b, product: UInt8 = 0
        while b != 0 {
            if b & 1 != 0 { product ^= a }
            a = xtime(a)
            b >>= 1
        }
        return product
    }

    /// Multiplication by x (FIPS 197 §4.2.1).
    static func xtime(_ a: UInt8) -> UInt8 { a << 1 ^ (a & 0x80 != 0 ? 0x1B : 0) }

    /// The 11 round keys, 176 bytes (FIPS 197 §5.2).
    let roundKeys: [UInt8]

    /// The cipher for a 16-byte `key`.
    init(key: [UInt8]) {
        precondition(key.count == 16, "an AES-128 key is 16 bytes")
        var w = key
        var rcon: UInt8 = 1
        for i in 4..<44 {
            var t = Array(w[(4 * (i - 1))..<(4 * i)])
            if i % 4 == 0 {
                t = [t[1], t[2], t[3], t[0]].map { Aes128.sbox[Int($0)] }
                t[0] ^= rcon
                rcon = Aes128.xtime(rcon)
            }
            for j in 0..<4 { w.append(w[4 * (i - 4) + j] ^ t[j]) }
        }
        roundKeys = w
    }

    /// The 16-byte block `input` encrypted (FIPS 197 §5.1; the state column by column).
    func encrypt(_ input: [UInt8]) -> [UInt8] {
        var s = input
        for i in 0..<16 { s[i] ^= roundKeys[i] }
        for round in 1...10 {
            for i in 0..<16 { s[i] = Aes128.sbox[Int(s[i])] }
            // ShiftRows: row r moves r columns to the left.
            var shifted = s
            for r in 1..<4 { for c in 0..<4 { shifted[r + 4 * c] = s[r + 4 * ((c + r) % 4)] } }
            s = shifted
            if round < 10 {
                // MixColumns.
                for c in 0..<4 {
                    let a0 = s[4 * c], a1 = s[4 * c + 1], a2 = s[4 * c + 2], a3 = s[4 * c + 3]
                    let all = a0 ^ a1 ^ a2 ^ a3
                    s[4 * c] = a0 ^ all ^ Aes128.xtime(a0 ^ a1)
                    s[4 * c + 1] = a1 ^ all ^ Aes128.xtime(a1 ^ a2)
                    s[4 * c + 2] = a2 ^ all ^ Aes128.xtime(a2 ^ a3)
                    s[4 * c + 3] = a3 ^ all ^ Aes128.xtime(a3 ^ a0)
                }
            }
            for i in 0..<16 { s[i] ^= roundKeys[16 * round + i] }
        }
        return s
    }
}

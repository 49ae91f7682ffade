/// Byte counts as people read them in messages: `64 MiB`, `1 GiB`, `512 bytes`.
public enum ByteText {
    /// `bytes` in the largest binary unit that divides it, or in bytes.
    public static func size(_ bytes: Int) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")]
        where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }
}

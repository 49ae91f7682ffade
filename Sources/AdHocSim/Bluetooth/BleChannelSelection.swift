/// Which data channel a connection event uses (Core Specification v5.4, Vol 6, Part B §4.5.8),
/// for each event of a connection (`BleConnection`), checked against the
/// specification's sample data (Vol 6, Part C §3). A channel map lists the used data channels.
public struct BleChannelMap: Sendable, Equatable {
    /// The used channels, ascending (the remapping table of §4.5.8.2 and §4.5.8.3).
    public let used: [UInt8]
    private let isUsed: [Bool]

    /// The map of `channels` (each 0…36; at least two, §4.5.8: "a minimum of 2 channels").
    /// Every data channel.
    public static let all = BleChannelMap(allChannels: ())

    private init(allChannels: Void) {
        isUsed = Array(repeating: true, count: 37)
        used = (0..<37).map { UInt8($0) }
    }

    public init?(_ channels: [Int]) {
        var flags = Array(repeating: false, count: 37)
        for c in channels {
            guard (0...36).contains(c) else { return nil }
            flags[c] = true
        }
        guard flags.filter({ $0 }).count >= 2 else { return nil }
        isUsed = flags
        used = (0..<37).filter { flags[$0] }.map { UInt8($0) }
    }

    /// Whether channel `c` is used.
    public func contains(_ c: Int) -> Bool { isUsed[c] }
}

/// The two channel selection algorithms.
public enum BleChannelSelection {
    /// Algorithm #1 (§4.5.8.2): unmapped = (last unmapped + hop) mod 37; an unused one is
    /// replaced by the used channel at index unmapped mod (used count). Returns the channel and
    /// the unmapped channel the next event starts from.
    public static func algorithm1(lastUnmapped: Int, hop: Int, map: BleChannelMap) -> (channel: Int, unmapped: Int) {
        let unmapped = (lastUnmapped + hop) % 37
        if map.contains(unmapped) { return (unmapped, unmapped) }
        return (Int(map.used[unmapped % map.used.count]), unmapped)
    }

    /// The channel identifier of an access address (§4.5.8.3.1): its upper and lower 16 bits
    /// XORed.
    public static func channelIdentifier(accessAddress aa: UInt32) -> UInt16 {
        UInt16(aa >> 16) ^ UInt16(aa & 0xFFFF)
    }

    /// Algorithm #2 (§4.5.8.3): the event counter through three rounds of a byte-wise bit
    /// reversal and a multiply-add-modulo with the channel identifier; an unused unmapped channel
    /// is remapped by the pseudo-random number scaled to the used count.
    public static func algorithm2(counter: UInt16, identifier id: UInt16, map: BleChannelMap) -> Int {
        let e = prnE(counter: counter, identifier: id)
        let unmapped = Int(e % 37)
        if map.contains(unmapped) { return unmapped }
        let index = (Int(map.used.count) * Int(e)) >> 16
        return Int(map.used[index])
    }

    /// prn_e of §4.5.8.3.3.
    static func prnE(counter: UInt16, identifier id: UInt16) -> UInt16 {
        var prn = counter ^ id
        for _ in 0..<3 {
            prn = permute(prn)
            prn = prn &* 17 &+ id  // MAM: (17·a + b) mod 2^16
        }
        return prn ^ id
    }

    /// PERM (§4.5.8.3.4): each byte's bits reversed.
    static func permute(_ v: UInt16) -> UInt16 {
        func reverse(_ b: UInt8) -> UInt8 {
            var x = b, r: UInt8 = 0
            for _ in 0..<8 {
                r = (r << 1) | (x & 1)
                x >>= 1
            }
            return r
        }
        return UInt16(reverse(UInt8(v >> 8))) << 8 | UInt16(reverse(UInt8(v & 0xFF)))
    }
}

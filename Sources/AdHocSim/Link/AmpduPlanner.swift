/// How many head-of-queue packets go into the next PPDU, its PSDU length and MCS
/// (IEEE 802.11-2016 §9.7.1, §10.13): broadcasts go alone at the lowest MCS; unicasts at the
/// fixed MCS or the rate selection's choice, aggregated into an A-MPDU with the packets behind
/// them to the same receiver while the A-MPDU stays within the byte, MPDU-count and PPDU-time
/// limits.
struct AmpduPlanner: Sendable {
    /// QoS data MAC header (26 bytes) plus FCS (4 bytes) around every MSDU (§9.3.2.1).
    static let macOverheadBytes = 30
    /// An A-MPDU subframe's delimiter (§9.7.1).
    static let delimiterBytes = 4

    /// The PHY.
    let phy: OfdmPhy
    /// The MAC limits.
    let mac: MacParameters
    /// The PHY's lowest valid MCS (broadcasts use it), computed once.
    let lowestMcs: Mcs
    /// The configured MCS, if any and valid for the PHY.
    let fixedMcs: Mcs?

    /// A planner for `radio`'s PHY under `mac`'s limits.
    init(radio: RadioConfiguration, mac: MacParameters) {
        phy = radio.phy
        self.mac = mac
        lowestMcs = radio.phy.validMcs[0]
        fixedMcs = radio.fixedMcs.flatMap { radio.phy.isValid($0) ? $0 : nil }
    }

    /// The MPDU of a packet of `payload` bytes.
    @inline(__always) static func mpduBytes(_ payload: Int32) -> Int { Int(payload) + macOverheadBytes }

    /// The plan for `queue`'s head going to `destination` (−1: broadcast, always alone at the
    /// lowest MCS) at `mcs` (the fixed MCS, or the rate selection's choice for the head MPDU).
    func plan(_ queue: TransmitQueue, destination: Int, mcs: Mcs) -> (mpdus: Int, psduBytes: Int, mcs: Mcs) {
        if destination < 0 { return (1, AmpduPlanner.mpduBytes(queue[0].packet.bytes), lowestMcs) }
        let firstBytes = AmpduPlanner.mpduBytes(queue[0].packet.bytes)
        // VHT sends every MPDU inside an A-MPDU: each subframe is a 4-byte delimiter plus the
        // MPDU padded to a multiple of 4 bytes (VHT pads the last one too).
        let vht = !phy.is24GHz
        guard mac.aggregation else {
            return (1, vht ? AmpduPlanner.delimiterBytes + ((firstBytes + 3) & ~3) : firstBytes, mcs)
        }
        var count = 0
        var bytes = 0
        while count < queue.count && count < mac.maxAmpduMpdus {
            let p = queue[count].packet
            guard Int(p.destination) == destination else { break }
            let sub = AmpduPlanner.delimiterBytes + ((AmpduPlanner.mpduBytes(p.bytes) + 3) & ~3)
            if count > 0 {
                guard bytes + sub <= mac.maxAmpduBytes,
                    phy.airtimeNanos(psduBytes: bytes + sub, mcs: mcs) <= mac.maxPpdu.nanoseconds
                else { break }
            }
            bytes += sub
            count += 1
        }
        if count == 1 && !vht { return (1, firstBytes, mcs) }
        return (count, bytes, mcs)
    }
}

/// 802.11 OFDM MAC timing and contention parameters.
///
/// 5 GHz OFDM (IEEE 802.11-2016 Table 17-21): slot 9 µs, SIFS 16 µs. 2.4 GHz HT with short slot
/// (Table 19-25): slot 9 µs, SIFS 10 µs. DIFS = SIFS + 2·slot (§10.3.7). CWmin 15, CWmax 1023
/// (Table 17-21, Table 19-25; binary exponential back-off §10.3.3). Retry limit 7
/// (dot11ShortRetryLimit default, §10.3.4.4): a packet is dropped after its 7th retransmission
/// fails. Aggregation limits: 64 MPDUs per A-MPDU (the block-ack window, §10.24), 65 535 bytes
/// (the HT A-MPDU maximum, Table 9-163; VHT allows more, kept at the HT value here), and a PPDU of
/// at most 5.484 ms (aPPDUMaxTime, §19.4.4). Queue limit: 500 packets (ns-3's WifiMacQueue
/// default; an assumption for a phone's driver queue).
public struct MacParameters: Sendable, Equatable {
    /// Back-off slot.
    public var slot: SimTime
    /// Short interframe space.
    public var sifs: SimTime
    /// Minimum contention window (slots − 1).
    public var cwMin: Int = 15
    /// Maximum contention window.
    public var cwMax: Int = 1023
    /// Retransmissions before a packet is dropped.
    public var retryLimit: Int = 7
    /// Whether unicast MPDUs to one receiver are aggregated into A-MPDUs.
    public var aggregation = true
    /// Most MPDUs per A-MPDU.
    public var maxAmpduMpdus = 64
    /// Most bytes per A-MPDU.
    public var maxAmpduBytes = 65_535
    /// Longest PPDU.
    public var maxPpdu = SimTime.microseconds(5_484)
    /// Transmit queue limit, packets.
    public var queueLimit = 500

    /// DIFS = SIFS + 2·slot.
    public var difs: SimTime { sifs + slot * 2 }

    /// The parameters of a band.
    public init(is24GHz: Bool) {
        slot = .microseconds(9)
        sifs = .microseconds(is24GHz ? 10 : 16)
    }
}

/// Control frames (ACK, block ACK) go out as non-HT OFDM at a basic rate (Clause 17):
/// 20 µs of preamble and SIGNAL, then ceil((16 + 8·L + 6)/N_DBPS) symbols of 4 µs. The rate is
/// the highest basic rate (6, 12 or 24 Mbit/s, N_DBPS 24, 48, 96) not above the data frame's rate
/// (§10.7.6.5.2). ACK: 14 bytes; compressed block ACK: 32 bytes (§9.3.1.9).
public enum ControlFrame {
    /// ACK length, bytes.
    public static let ackBytes = 14
    /// Compressed block ACK length, bytes.
    public static let blockAckBytes = 32

    /// The basic rate for a response to a frame sent at `dataRate` bit/s: (Mbit/s, N_DBPS, the
    /// MCS with the same modulation and coding for the error model).
    public static func basicRate(forDataRate dataRate: Double) -> (mbps: Int, dbps: Int, mcs: Mcs) {
        if dataRate >= 24e6 { return (24, 96, Mcs(index: 3)) }  // 16-QAM 1/2
        if dataRate >= 12e6 { return (12, 48, Mcs(index: 1)) }  // QPSK 1/2
        return (6, 24, Mcs(index: 0))  // BPSK 1/2
    }

    /// Airtime of a control frame of `bytes` at `dbps` data bits per symbol.
    public static func airtime(bytes: Int, dbps: Int, is24GHz: Bool) -> SimTime {
        let symbols = (16 + 8 * bytes + 6 + dbps - 1) / dbps
        return .microseconds(20 + 4 * symbols + (is24GHz ? 6 : 0))
    }
}

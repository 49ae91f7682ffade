/// The receiver's block-ack reordering buffer of one node (IEEE 802.11-2016 §10.24.4): MPDUs
/// from one sender are passed up in MAC sequence order; one that arrives ahead of a missing one
/// waits until the missing one arrives or its sender gives it up (which moves the window past
/// it, as a BlockAckReq would, §10.24.7).
struct ReorderBuffer: Sendable {
    /// Per sender: the next expected sequence number.
    var expected = PeerCounters()
    /// Per sender, only while there are any: MPDUs (or given-up numbers, `nil`) that arrived
    /// ahead of the expected one.
    var held: [Int: [UInt64: LinkPacket?]] = [:]

    /// Where an arriving sequence number falls.
    enum Position {
        /// Behind the window (a duplicate or an MPDU already given up): ignore it.
        case stale
        /// The expected number with nothing waiting: the window has moved by one; pass the MPDU
        /// up at once (the common case, no buffering).
        case inOrder
        /// Ahead of a missing one, or something is waiting: call `buffer`.
        case outOfOrder
    }

    /// Classifies MPDU `seq` from `sender`, moving the window when it is in order.
    @inline(__always)
    mutating func advance(seq: UInt64, from sender: Int, nodeCount: Int) -> Position {
        let next = expected[sender, nodeCount]
        if seq < next { return .stale }
        if seq == next && held[sender] == nil {
            expected[sender, nodeCount] = next &+ 1
            return .inOrder
        }
        return .outOfOrder
    }

    /// Holds MPDU `seq` from `sender` (`packet`, or `nil` when its sender gave it up) and
    /// appends to `ready`, in order, what may now be passed up.
    mutating func buffer(
        _ packet: LinkPacket?, seq: UInt64, from sender: Int, nodeCount: Int, ready: inout [LinkPacket]
    ) {
        held[sender, default: [:]][seq] = .some(packet)
        while true {
            let e = expected[sender, nodeCount]
            guard let entry = held[sender]?.removeValue(forKey: e) else { break }
            expected[sender, nodeCount] = e &+ 1
            if let p = entry { ready.append(p) }
        }
        if held[sender]?.isEmpty == true { held[sender] = nil }
    }
}

/// A counter per peer node: a dense array in scenarios of up to 4 096 nodes (allocated on first
/// use), a dictionary (lookups only, never iterated) in larger ones so memory stays proportional
/// to the peers actually talked to.
struct PeerCounters: Sendable {
    var dense: [UInt64] = []
    var sparse: [Int: UInt64] = [:]

    subscript(peer: Int, nodeCount: Int) -> UInt64 {
        get { nodeCount <= 4096 ? (dense.isEmpty ? 0 : dense[peer]) : sparse[peer, default: 0] }
        set {
            if nodeCount <= 4096 {
                if dense.isEmpty { dense = Array(repeating: 0, count: nodeCount) }
                dense[peer] = newValue
            } else {
                sparse[peer] = newValue
            }
        }
    }
}

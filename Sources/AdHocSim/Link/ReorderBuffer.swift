/// The receiver's block-ack reordering buffer of one node (IEEE 802.11-2016 §10.24.4): MPDUs
/// from one sender are passed up in MAC sequence order; one that arrives ahead of a missing one
/// waits until the missing one arrives or its sender gives it up (which moves the window past
/// it, as a BlockAckReq would, §10.24.7).
struct ReorderBuffer: Sendable {
    /// Per sender: the next expected sequence number.
    var expected = PeerCounters()
    /// Per sender: MPDUs (or given-up numbers, `nil`) that arrived ahead of the expected one, in
    /// sequence order; empty for nearly every sender nearly always. A sorted list, not a hash
    /// table: it holds at most a block-ack window, and the MAC calls `advance` per MPDU.
    var held = PeerSlots<[(seq: UInt64, packet: LinkPacket?)]>()

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
        if seq == next && held.isEmpty(sender, nodeCount) {
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
        var list = held.take(sender, nodeCount)  // taken out, so it is changed in place
        // Insert in sequence order; a number already held is replaced (the later word wins).
        var i = list.count
        while i > 0 && list[i - 1].seq > seq { i -= 1 }
        if i > 0 && list[i - 1].seq == seq {
            list[i - 1].packet = packet
        } else {
            list.insert((seq, packet), at: i)
        }
        var e = expected[sender, nodeCount]
        var taken = 0
        while taken < list.count && list[taken].seq == e {
            if let p = list[taken].packet { ready.append(p) }
            e &+= 1
            taken += 1
        }
        expected[sender, nodeCount] = e
        list.removeFirst(taken)
        held[sender, nodeCount] = list
    }
}

/// A value per peer node, empty until set: a dense array in scenarios of up to 4 096 nodes
/// (allocated on first use), a dictionary (lookups only, never iterated) in larger ones.
struct PeerSlots<T: RangeReplaceableCollection & Sendable>: Sendable {
    var dense: [T] = []
    var sparse: [Int: T] = [:]

    /// Whether `peer`'s value is empty.
    @inline(__always)
    func isEmpty(_ peer: Int, _ nodeCount: Int) -> Bool {
        nodeCount <= 4096 ? (dense.isEmpty || dense[peer].isEmpty) : (sparse[peer]?.isEmpty ?? true)
    }

    /// `peer`'s value, leaving it empty (so the caller holds the only reference and changes it
    /// without a copy); put it back with the subscript.
    mutating func take(_ peer: Int, _ nodeCount: Int) -> T {
        if nodeCount <= 4096 {
            guard !dense.isEmpty else { return T() }
            let value = dense[peer]
            dense[peer] = T()
            return value
        }
        return sparse.removeValue(forKey: peer) ?? T()
    }

    subscript(peer: Int, nodeCount: Int) -> T {
        get { nodeCount <= 4096 ? (dense.isEmpty ? T() : dense[peer]) : sparse[peer, default: T()] }
        set {
            if nodeCount <= 4096 {
                if dense.isEmpty { dense = Array(repeating: T(), count: nodeCount) }
                dense[peer] = newValue
            } else {
                sparse[peer] = newValue.isEmpty ? nil : newValue
            }
        }
    }
}

/// A counter per peer node: a dense array in scenarios of up to 4 096 nodes (allocated on first
/// use), a dictionary (lookups only, never iterated) in larger ones so memory stays proportional
/// to the peers actually talked to.
struct PeerCounters: Sendable {
    var dense: [UInt64] = []
    var sparse: [Int: UInt64] = [:]

    @inline(__always)
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

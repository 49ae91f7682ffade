// What the session layer's events carry in their argument: an invitation's timeout and a DTLS flight's timer.

/// `invitationTimeout`: the invited phone and the set-up's id (id in the high 32 bits).
struct InviteTimeout: EventArgument, Equatable {
    var invited: Int
    var id: Int
    init(invited: Int, id: Int) { (self.invited, self.id) = (invited, id) }
    init(_ a: UInt64) { (invited, id) = (Int(a & 0xFFFF_FFFF), Int(a >> 32)) }
    var argument: UInt64 { UInt64(id) << 32 | UInt64(invited) }
}

/// `handshakeTimer`: the peer a DTLS flight went to, the set-up's id and the flight's
/// number (id in the high 32 bits, peer in the next 24, flight in the low 8).
struct HandshakeFlight: EventArgument, Equatable {
    var peer: Int
    var id: Int
    var flight: Int
    init(peer: Int, id: Int, flight: Int) { (self.peer, self.id, self.flight) = (peer, id, flight) }
    init(_ a: UInt64) { (peer, id, flight) = (Int((a >> 8) & 0xFF_FFFF), Int(a >> 32), Int(a & 0xFF)) }
    var argument: UInt64 { UInt64(id) << 32 | UInt64(peer) << 8 | UInt64(flight) }
}

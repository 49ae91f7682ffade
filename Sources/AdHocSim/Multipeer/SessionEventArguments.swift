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

/// `bonjourRefresh`: the advertiser whose answer the browser holds, the answer's number in
/// the pair's count (which one this refresh is for: a later answer makes it stale) and the
/// refresh point, 0–3 for 80, 85, 90 and 95 % of the lifetime and 4 for its end (advertiser
/// in the high 32 bits, the answer's number in the next 24, the point in the low 8).
struct AnswerRefresh: EventArgument, Equatable {
    var advertiser: Int
    var answer: Int
    var point: Int
    init(advertiser: Int, answer: Int, point: Int) {
        (self.advertiser, self.answer, self.point) = (advertiser, answer, point)
    }
    init(_ a: UInt64) { (advertiser, answer, point) = (Int(a >> 32), Int((a >> 8) & 0xFF_FFFF), Int(a & 0xFF)) }
    var argument: UInt64 { UInt64(advertiser) << 32 | UInt64(answer & 0xFF_FFFF) << 8 | UInt64(point) }
}

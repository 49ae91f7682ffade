import Testing
@testable import AdHocSim

/// The mesh's typed event arguments (`MeshEvents.swift`): each value comes back as it went in
/// at the edges of its fields, and the packing is the documented one, worked out by hand.
struct MeshEventArgumentTests {
    @Test func argumentsComeBackAsTheyWentIn() {
        let m = MessageAttempt(message: 70_000, attempt: 65_535)
        expectEqual(MessageAttempt(m.argument), m)
        let r = RequestRetry(sought: 8_191, retries: 0)
        expectEqual(RequestRetry(r.argument), r)
        let i = InviteTimeout(invited: 8_191, id: 4_294_967_295)
        expectEqual(InviteTimeout(i.argument), i)
        let h = HandshakeFlight(peer: 16_777_215, id: 4_294_967_295, flight: 255)
        expectEqual(HandshakeFlight(h.argument), h)
    }

    /// id 3 in the high 32 bits and phone 5 below: 3 × 2³² + 5 = 12 884 901 893; a flight 2 of
    /// set-up 1 to phone 7: 2³² + 7 × 2⁸ + 2 = 4 294 969 090; message 2, attempt 1:
    /// 2 × 2¹⁶ + 1 = 131 073.
    @Test func thePackingIsTheDocumentedOne() {
        expectEqual(InviteTimeout(invited: 5, id: 3).argument, 12_884_901_893)
        expectEqual(HandshakeFlight(peer: 7, id: 1, flight: 2).argument, 4_294_969_090)
        expectEqual(MessageAttempt(message: 2, attempt: 1).argument, 131_073)
        expectEqual(RequestRetry(sought: 2, retries: 1).argument, 131_073)
    }
}

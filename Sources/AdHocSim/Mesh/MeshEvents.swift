/// The mesh's events (`EventBlock.mesh`): the mesh schedules them, packs their arguments and
/// decodes them here, so the world only routes by block.
extension MeshNetwork {
    /// Two 16-bit-or-wider numbers in one event argument: `high << 16 | low`, `low < 65 536`.
    /// Used for (message, attempt) and (sought node, retries).
    static func packArgument(_ high: Int, _ low: Int) -> UInt64 { UInt64(high) << 16 | UInt64(low) }
    /// The two numbers `packArgument` packed.
    static func unpackArgument(_ arg: UInt64) -> (high: Int, low: Int) { (Int(arg >> 16), Int(arg & 0xFFFF)) }

    /// Handles one of the mesh's events over `link` (which says which nodes are down and, for
    /// sessions, what each node hears).
    public mutating func handle<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        switch event.kind {
        case .meshSessions:
            updateSessions(link: &link, sim: &sim)
            sim.schedule(after: config.sessionInterval, target: 0, kind: .meshSessions)
        case .meshHeartbeat, .meshRequestTimeout, .meshSessionHeartbeat:
            // Both concern the event's target node (heartbeat origin, request initiator).
            routingHandle(event, targetDown: link.isDown(Int(event.target)), sim: &sim)
        case .meshQuery:
            guard var s = setup.take() else { break }
            s.queryDue(Int(event.target), generation: event.arg, down: link.isDown(Int(event.target)), core: &core, sim: &sim)
            setup = s
        case .meshAnswer:
            MultipeerSetup.answerDue(Int(event.target), down: link.isDown(Int(event.target)), core: &core, now: sim.now)
        case .meshResend:
            resendDue(Int(event.arg), sim: &sim)
        case .meshInviteTimeout:
            setup?.inviteTimedOut(Int(event.target), Int(event.arg & 0xFFFF_FFFF), id: Int(event.arg >> 32))
        case .meshMessage:
            let w = Int(event.target)
            messageDue(w, Int(event.arg), senderDown: link.isDown(ledger.workloads[w].from), sim: &sim)
        case .meshConfirmTimeout:
            let w = Int(event.target)
            let (message, attempt) = MeshNetwork.unpackArgument(event.arg)
            confirmTimedOut(w, message, number: attempt, senderDown: link.isDown(ledger.workloads[w].from), sim: &sim)
        case .meshTransferStart:
            let t = Int(event.target)
            transferTable.transferStarted(t, senderDown: link.isDown(transfers[t].from), core: &core, sim: &sim)
        case .meshStreamWrite:
            let t = Int(event.target)
            transferTable.streamWrote(t, Int(event.arg), senderDown: link.isDown(transfers[t].from), core: &core, sim: &sim)
        case .meshHandshakeTimer:
            let from = Int(event.target)
            guard var s = setup.take() else { break }
            s.handshakeTimerRanOut(
                from, Int((event.arg >> 8) & 0xFF_FFFF), id: Int(event.arg >> 32), flight: Int(event.arg & 0xFF),
                down: link.isDown(from), core: &core, sim: &sim)
            setup = s
        case .meshTransferCancel:
            transferTable.transferCancelled(Int(event.target), now: sim.now)
        default:
            preconditionFailure("not a mesh event")
        }
    }
}

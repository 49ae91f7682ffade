/// The mesh routing's events (`MeshNetwork.eventBlocks`) and the way down to the session
/// layer's (`SessionEvents.eventBlocks`). Both are scheduled with typed arguments (below), each
/// packed into and read from the event's 64-bit argument in one place, so the world only
/// routes by block.
extension MeshNetwork {
    /// Handles one of the routing's events over `link` (which says which nodes are down).
    public mutating func handle<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
        switch event.kind {
        case .meshHeartbeat, .meshRequestTimeout, .meshSessionHeartbeat:
            // Both concern the event's target node (heartbeat origin, request initiator).
            routingHandle(event, targetDown: link.isDown(Int(event.target)), sim: &sim)
        case .meshMessage:
            let w = Int(event.target)
            messageDue(w, Int(event.arg), senderDown: link.isDown(ledger.workloads[w].from), sim: &sim)
        case .meshConfirmTimeout:
            let w = Int(event.target)
            let a = MessageAttempt(event.arg)
            confirmTimedOut(
                w, a.message, number: a.attempt, senderDown: link.isDown(ledger.workloads[w].from), sim: &sim)
        default:
            preconditionFailure("not a mesh routing event")
        }
    }

    /// Handles one of the session layer's events (`SessionEvents.eventBlocks`) over `link`
    /// (which says which nodes are down and, for the session round, what each node hears). The
    /// session round's new sessions reach the routing before the next round is scheduled.
    public mutating func handleSessionEvent<L: LinkTechnology>(
        _ event: Event, link: inout L, sim: inout Simulation
    ) {
        if event.kind == .sessionRound {
            updateSessions(link: &link, sim: &sim)
            core.sessionLayer.nextRound(sim: &sim)
        } else {
            core.sessionLayer.handle(event, link: &link, sim: &sim)
        }
    }
}

/// `meshConfirmTimeout`: the message and the attempt whose route return is awaited (message
/// in the high bits, attempt below 65 536).
struct MessageAttempt: EventArgument, Equatable {
    var message: Int
    var attempt: Int
    init(message: Int, attempt: Int) { (self.message, self.attempt) = (message, attempt) }
    init(_ a: UInt64) { (message, attempt) = (Int(a >> 16), Int(a & 0xFFFF)) }
    var argument: UInt64 { UInt64(message) << 16 | UInt64(attempt) }
}

/// `meshRequestTimeout` (classic DSR): the node sought and the retries so far (sought in the
/// high bits, retries below 65 536).
struct RequestRetry: EventArgument, Equatable {
    var sought: Int
    var retries: Int
    init(sought: Int, retries: Int) { (self.sought, self.retries) = (sought, retries) }
    init(_ a: UInt64) { (sought, retries) = (Int(a >> 16), Int(a & 0xFFFF)) }
    var argument: UInt64 { UInt64(sought) << 16 | UInt64(retries) }
}

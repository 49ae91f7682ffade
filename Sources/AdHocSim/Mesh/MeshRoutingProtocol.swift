/// How the mesh finds routes, behind one small interface: MAdHoc's heartbeat DSR
/// (`HeartbeatRouting`) and classic on-demand DSR (`ClassicDsr`). A protocol keeps its own
/// state (sequence numbers, duplicate suppression, discoveries) and acts on the shared
/// `MeshCore`: it sends frames through it and stores the routes it learns there. Messages,
/// route returns and the forwarding of source-routed frames are the mesh's, not the protocol's.
protocol MeshRoutingProtocol: Sendable {
    /// Schedules the protocol's first events.
    mutating func start(core: MeshCore, sim: inout Simulation)
    /// One of the protocol's own events is due (`MeshNetwork.eventBlocks`); `targetDown` says whether
    /// the event's target node is down.
    mutating func handle(_ event: Event, core: inout MeshCore, targetDown: Bool, sim: inout Simulation)
    /// A flooded control frame (heartbeat, route request) reached session peer `r`, or a route
    /// reply reached the end of its path.
    mutating func controlArrived(_ f: MeshFrame, at r: Int, core: inout MeshCore, now: SimTime)
    /// Attempt `number` of message `m` of workload `w` found no route at its sender.
    mutating func routeMissing(
        workload w: Int, message m: Int, attempt number: Int, core: inout MeshCore, sim: inout Simulation)
    /// An IP packet of a flow found no route from `from` to `to` (it waits in the host's send
    /// buffer): an on-demand protocol starts a discovery, a proactive one waits for its floods.
    mutating func routeWanted(from: Int, to: Int, core: inout MeshCore, sim: inout Simulation)
    /// The session layer formed `pairs` (lower node, higher node) just now.
    mutating func sessionsFormed(_ pairs: [(Int, Int)], core: inout MeshCore, sim: inout Simulation)
}

/// The routing protocol a mesh runs (`mesh.routing`), dispatched with a `switch` so calls stay
/// static (`MeshNetwork.routed`). A call moves the protocol out of the enum while it runs, so its
/// arrays are mutated in place, never copied.
enum MeshRoutingChoice: Sendable {
    case heartbeat(HeartbeatRouting)
    case dsr(ClassicDsr)
    /// Only while a protocol runs (see above).
    case running
}

/// Static dispatch to the mesh's routing protocol: each call moves the protocol out of
/// `routing` (leaving `.running`), calls it, and puts it back, so its arrays stay uniquely
/// referenced and are mutated in place.
extension MeshNetwork {
    mutating func routingStart(sim: inout Simulation) {
        switch routing {
        case .heartbeat(var r): routing = .running; r.start(core: core, sim: &sim); routing = .heartbeat(r)
        case .dsr(var r): routing = .running; r.start(core: core, sim: &sim); routing = .dsr(r)
        case .running: preconditionFailure("the routing protocol is already running")
        }
    }

    mutating func routingHandle(_ event: Event, targetDown: Bool, sim: inout Simulation) {
        switch routing {
        case .heartbeat(var r):
            routing = .running; r.handle(event, core: &core, targetDown: targetDown, sim: &sim); routing = .heartbeat(r)
        case .dsr(var r):
            routing = .running; r.handle(event, core: &core, targetDown: targetDown, sim: &sim); routing = .dsr(r)
        case .running: preconditionFailure("the routing protocol is already running")
        }
    }

    mutating func routingControlArrived(_ f: MeshFrame, at node: Int, now: SimTime) {
        switch routing {
        case .heartbeat(var r):
            routing = .running; r.controlArrived(f, at: node, core: &core, now: now); routing = .heartbeat(r)
        case .dsr(var r): routing = .running; r.controlArrived(f, at: node, core: &core, now: now); routing = .dsr(r)
        case .running: preconditionFailure("the routing protocol is already running")
        }
    }

    mutating func routingRouteWanted(from: Int, to: Int, sim: inout Simulation) {
        switch routing {
        case .heartbeat(var r):
            routing = .running; r.routeWanted(from: from, to: to, core: &core, sim: &sim); routing = .heartbeat(r)
        case .dsr(var r):
            routing = .running; r.routeWanted(from: from, to: to, core: &core, sim: &sim); routing = .dsr(r)
        case .running: preconditionFailure("the routing protocol is already running")
        }
    }

    mutating func routingSessionsFormed(_ pairs: [(Int, Int)], sim: inout Simulation) {
        switch routing {
        case .heartbeat(var r):
            routing = .running; r.sessionsFormed(pairs, core: &core, sim: &sim); routing = .heartbeat(r)
        case .dsr(var r): routing = .running; r.sessionsFormed(pairs, core: &core, sim: &sim); routing = .dsr(r)
        case .running: preconditionFailure("the routing protocol is already running")
        }
    }

    mutating func routingRouteMissing(workload w: Int, message m: Int, attempt number: Int, sim: inout Simulation) {
        switch routing {
        case .heartbeat(var r):
            routing = .running; r.routeMissing(workload: w, message: m, attempt: number, core: &core, sim: &sim);
            routing = .heartbeat(r)
        case .dsr(var r):
            routing = .running; r.routeMissing(workload: w, message: m, attempt: number, core: &core, sim: &sim);
            routing = .dsr(r)
        case .running: preconditionFailure("the routing protocol is already running")
        }
    }
}

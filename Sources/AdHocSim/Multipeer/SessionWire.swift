/// The session layer's frames on the link: every frame a phone hands its Multipeer session (the
/// routing's frames and the layer's own set-up frames and transfer pieces) goes to the link
/// from here, as a `LinkPacket` whose tag is the frame's slot in the in-flight table. A slot is
/// free again once the link has said all it will about the frame. Frames the transmit queue
/// has no room for wait in their sender's session buffer.
struct SessionWire: Sendable {
    /// Settings (the frame sizes, the encryption's record).
    let config: SessionConfig
    /// Frames on the link, by packet tag, in two parts (`SessionFrame`): the routing's frame
    /// (`nil` for the layer's own frames and free slots) and the layer's own part. A slot is live
    /// while notices about its frame are still to come (`isLive`); `frame` puts it together.
    var routedInFlight: [RoutedPayload?] = []
    /// See `routedInFlight`.
    var partsInFlight: [SessionFrame.Part] = []
    /// Per slot: notices still to come before the slot may be reused. A unicast waits for its
    /// sender's notice and its delivery (a receiver's block-ack reordering can pass a frame up
    /// after the sender is done with it); a broadcast for its sender's notice only.
    var pendingNotices: [UInt8] = []
    var freeSlots: [Int] = []
    /// Packets to hand to the link layer; the world drains it.
    var outbox: [LinkPacket] = []
    /// Per node, message frames (messages and route returns) and transfer pieces the transmit
    /// queue had no room for, oldest first: they wait in the session's buffer as Multipeer
    /// buffers a reliable send (an assumption: Apple documents no drop), and go as room frees.
    /// Flooded control frames are not held: a full queue drops them.
    var held: [FifoBuffer<LinkPacket>] = []
    /// Nodes with held frames, each once, in the order they first held one.
    var holding: [Int] = []
    /// Per session pair whose encryption differs from the mesh's (`mesh.phones`), the bytes its
    /// frames carry more (+37, a DTLS record) or less (−37) than the session's own setting counts. Empty
    /// unless phones' preferences differ; looked up by key only.
    var recordDelta: [UInt64: Int32] = [:]
    /// What each node sent, by kind of frame.
    var sent: FramesSent
    /// The outbox being handed to the link (`startSending`, `sendNext`) and how far it went;
    /// swapped with `outbox`, so neither array is copied or reallocated.
    var sending: [LinkPacket] = []
    var sendingIndex = 0
    /// `sendNextHeld`'s place in `holding`, and the nodes that still hold frames after it.
    var heldCursor = 0
    var stillHolding: [Int] = []

    init(nodes: Int, config: SessionConfig) {
        self.config = config
        sent = FramesSent(nodes: nodes)
    }

    /// The session of `a` and `b` connected, encrypted or not: its frames carry a DTLS record
    /// when it is encrypted, whatever the mesh's own preference.
    mutating func setRecord(encrypted: Bool, _ a: Int, _ b: Int) {
        let key = SignalSessions.pairKey(a, b)
        let delta = Int32(encrypted ? SessionConfig.dtlsRecordBytes : 0) - Int32(config.recordBytes)
        if delta != 0 { recordDelta[key] = delta } else if !recordDelta.isEmpty { recordDelta[key] = nil }
    }

    /// Puts one copy of `f` from `i` to `destination` in the outbox and counts it.
    mutating func hand(_ f: SessionFrame, from i: Int, to destination: UInt32, bytes: Int32, now: SimTime) {
        var bytes = bytes
        if !recordDelta.isEmpty, destination != LinkPacket.broadcast, !f.isSetup,
            let d = recordDelta[SignalSessions.pairKey(i, Int(destination))]
        {
            bytes += d
        }
        sent.count(f, bytes: bytes, by: i)
        let slot: Int
        let waits: UInt8 = destination == LinkPacket.broadcast ? 1 : 2
        if let free = freeSlots.popLast() {
            slot = free
            (routedInFlight[slot], partsInFlight[slot], pendingNotices[slot]) = (f.routed, f.part, waits)
        } else {
            slot = routedInFlight.count
            routedInFlight.append(f.routed); partsInFlight.append(f.part); pendingNotices.append(waits)
        }
        outbox.append(
            LinkPacket(
                source: UInt32(i), destination: destination, bytes: bytes, owner: .mesh,
                tag: UInt64(slot), enqueued: now))
    }

    /// Puts `f` from `i` to session peer `peer` in the outbox in reliable mode: numbered on that
    /// hop (`numbers`), then handed as any frame.
    mutating func handNumbered(
        _ f: SessionFrame, from i: Int, to peer: Int, bytes: Int32, now: SimTime, numbers: inout ReliableHops
    ) {
        hand(f.numbered(numbers.number(from: i, to: peer)), from: i, to: UInt32(peer), bytes: bytes, now: now)
    }

    /// One of the notices slot `slot` waits for came (`all`: the link gave up, nothing more
    /// will): the slot is free once none is left.
    mutating func noticed(_ slot: Int, all: Bool = false) {
        guard pendingNotices[slot] > 0 else { return }
        pendingNotices[slot] = all ? 0 : pendingNotices[slot] - 1
        if pendingNotices[slot] == 0 {
            routedInFlight[slot] = nil
            freeSlots.append(slot)
        }
    }

    /// Whether the frame in `slot` is on the link (the link has more to say about it).
    @inline(__always)
    func isLive(_ slot: Int) -> Bool { pendingNotices[slot] > 0 }

    /// The frame in the live slot `slot`, both parts.
    func frame(_ slot: Int) -> SessionFrame {
        SessionFrame(routed: routedInFlight[slot], part: partsInFlight[slot])
    }

    /// Whether `packet` must wait in its sender's session buffer (`held`) instead of going to
    /// the link: a message frame (message or route return) or transfer piece when the transmit
    /// queue has no `room`, or when older frames already wait there (it never overtakes them).
    /// Flooded control frames never wait: a full queue refuses them and they are lost.
    func mustHold(_ packet: LinkPacket, room: Int) -> Bool {
        let slot = Int(packet.tag)
        guard isLive(slot), partsInFlight[slot].waitsForRoom else { return false }
        return room == 0 || (!holding.isEmpty && !held[Int(packet.source)].isEmpty)
    }

    /// Starts handing the outbox to the link (`sendNext`): false when it is empty. Frames handed
    /// to the session meanwhile go to the next outbox.
    mutating func startSending() -> Bool {
        guard !outbox.isEmpty else { return false }
        swap(&sending, &outbox)
        sendingIndex = 0
        return true
    }

    /// Hands the outbox to `link`, oldest first, each frame recorded in `timeline` first: a
    /// message frame or piece that must wait goes to its sender's session buffer (`mustHold`).
    /// Returns the first packet the link refuses (its sender is down), which the layers above
    /// release as lost before calling again; `nil` once every packet went.
    mutating func sendNext<L: LinkTechnology>(
        link: inout L, timeline: TimelineRecorder?, sim: inout Simulation
    ) -> LinkPacket? {
        while sendingIndex < sending.count {
            let p = sending[sendingIndex]
            sendingIndex += 1
            if let timeline, isLive(Int(p.tag)) { timeline.frame(frame(Int(p.tag)), packet: p, now: sim.now) }
            if mustHold(p, room: link.queueRoom(of: Int(p.source))) {
                hold(p)
            } else if !link.send(p, sim: &sim) {
                return p
            }
        }
        sending.removeAll(keepingCapacity: true)
        return nil
    }

    /// Hands held frames to `link` while their nodes' transmit queues have room, oldest first,
    /// node by node in the order they first held one. Returns the first packet the link refuses
    /// (a down node's link refuses everything: its held frames are lost), which the layers above
    /// release before calling again; `nil` once done.
    mutating func sendNextHeld<L: LinkTechnology>(link: inout L, sim: inout Simulation) -> LinkPacket? {
        while heldCursor < holding.count {
            let node = holding[heldCursor]
            while let p = held[node].first, link.queueRoom(of: node) > 0 {
                held[node].removeFirst()
                if !link.send(p, sim: &sim) { return p }
            }
            if !held[node].isEmpty { stillHolding.append(node) }
            heldCursor += 1
        }
        swap(&holding, &stillHolding)
        stillHolding.removeAll(keepingCapacity: true)
        heldCursor = 0
        return nil
    }

    /// Puts `packet` at the back of its sender's session buffer.
    mutating func hold(_ packet: LinkPacket) {
        let node = Int(packet.source)
        if held.isEmpty { held = Array(repeating: FifoBuffer(), count: sent.nodeCount) }
        if held[node].isEmpty && !holding.contains(node) { holding.append(node) }
        held[node].append(packet)
    }
}

/// What each node handed its session, by kind of frame: routing control, messages with their
/// route returns, and session set-up (transfer pieces are counted per transfer, in
/// `SessionTransfer`).
public struct FramesSent: Sendable {
    /// Routing control frames sent (originated and forwarded) and their bytes, per node:
    /// heartbeats, or with classic DSR route requests, replies and errors.
    public private(set) var controlFramesSent: [UInt64]
    /// See `controlFramesSent`.
    public private(set) var controlBytes: [UInt64]
    /// Message and route-return frames sent (originated and forwarded) and their bytes, per node.
    public private(set) var messageFramesSent: [UInt64]
    /// See `messageFramesSent`.
    public private(set) var messageBytes: [UInt64]
    /// Session set-up frames sent (Bonjour queries and answers, invitations, replies,
    /// connection frames) and their bytes, per node.
    public private(set) var sessionFramesSent: [UInt64]
    /// See `sessionFramesSent`.
    public private(set) var sessionBytes: [UInt64]
    /// Nodes.
    public var nodeCount: Int { controlFramesSent.count }

    init(nodes: Int) {
        controlFramesSent = Array(repeating: 0, count: nodes)
        controlBytes = Array(repeating: 0, count: nodes)
        messageFramesSent = Array(repeating: 0, count: nodes)
        messageBytes = Array(repeating: 0, count: nodes)
        sessionFramesSent = Array(repeating: 0, count: nodes)
        sessionBytes = Array(repeating: 0, count: nodes)
    }

    /// Node `node` handed `frame` of `bytes` to the link (originated or forwarded).
    mutating func count(_ frame: SessionFrame, bytes: Int32, by node: Int) {
        if frame.isSetup {
            sessionFramesSent[node] += 1
            sessionBytes[node] += UInt64(bytes)
            return
        }
        guard let routed = frame.routed else { return }  // a piece: counted per transfer (`SessionTransfers`)
        if routed.isControl {
            controlFramesSent[node] += 1
            controlBytes[node] += UInt64(bytes)
        } else {
            messageFramesSent[node] += 1
            messageBytes[node] += UInt64(bytes)
        }
    }
}

import Foundation

extension EventKind {
    /// A node's back-off finished (or its AWDL wait ended): it may transmit.
    public static let macAccess = EventKind(rawValue: 100)
    /// A transmission ends (target: transmitter, arg: transmission slot).
    public static let macTxEnd = EventKind(rawValue: 101)
    /// No ACK or block ACK arrived in time.
    public static let macAckTimeout = EventKind(rawValue: 102)
    /// SIFS after a received data frame: send the ACK or block ACK.
    public static let macRespond = EventKind(rawValue: 103)
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

/// The 802.11 DCF MAC of every node over one `WirelessChannel` (`awdl` and `wifi`).
///
/// Per node: a bounded FIFO; carrier sense (the medium is busy while any frame at or above the
/// preamble-detection threshold is on the air at the node, while the other frames together
/// reach the energy-detection threshold, or while the node transmits);
/// back-off of uniform [0, CW] slots counted down only while the medium has been idle for
/// DIFS (EIFS after a frame it could not decode), frozen while busy; CW doubles from 15 to
/// 1023 after each failed exchange and resets on success; an ACK (or a compressed block ACK for
/// an A-MPDU) after SIFS; ACK timeout SIFS + slot + the response's airtime; a packet is dropped
/// after 7 retransmissions. A packet that arrives at an idle MAC when the medium has been idle
/// for DIFS goes out without back-off; every transmission after that draws a new back-off.
///
/// Reception: a node that is idle (not transmitting, not receiving) locks onto a frame whose
/// power reaches the preamble-detection threshold. Concurrent frames are interference; the
/// frame's SINR uses the largest total interference seen while it was on the air (a
/// conservative simplification of ns-3's chunk-wise SINR). Each MPDU then succeeds with the
/// error model's probability at that SINR, so the stronger of two colliding frames can still
/// be received (capture). No frame-capture switching to a later, stronger preamble. Propagation
/// delay is not modelled separately: 802.11's slot time includes the air propagation time.
///
/// AWDL: a unicast frame leaves only inside a slot both ends occupy and must end within it; a
/// broadcast only inside a slot of its sender; a node hears the channel only in its own slots.
public struct WirelessLink: LinkTechnology, Sendable {
    struct Touch: Sendable {
        var node: Int32
        var powerMw: Double
        var busy: Bool
    }

    enum FrameKind: Sendable { case data, broadcast, ack, blockAck }

    struct Transmission: Sendable {
        var kind: FrameKind
        var source: Int
        var destination: Int
        var mpdus: Int
        var mcs: Mcs
        var start: SimTime
        var touched: [Touch]
        var bitmap: UInt64
        var inUse: Bool
    }

    enum MacState: Sendable { case idle, contending, awaitingResponse }

    struct Node: Sendable {
        var queue: TransmitQueue
        var state: MacState = .idle
        var cw: Int
        var backoffSlots = -1
        var accessTimer: TimerID
        var ackTimer: TimerID
        var countdownFrom = SimTime.zero
        var busyCount = 0
        /// The sum of undecodable frames reaches the energy-detection threshold.
        var energyBusy = false
        var idleSince = SimTime.zero
        var busySince = SimTime(nanoseconds: -1_000_000_000)
        var useEifs = false
        var transmitting = false
        var interferenceMw = 0.0
        var locked = -1
        var lockedSignalMw = 0.0
        var lockedMaxInterferenceMw = 0.0
        var inFlight = 0
        var inFlightMcs = Mcs(index: 0)
        var pendingResponse: (to: Int, bitmap: UInt64, mpdus: Int, dataRate: Double)?
        var rate: RateSelection
        /// Next MAC sequence number per receiver (unicast).
        var nextSeqTo = PeerCounters()
        /// Receive reordering per sender (§10.24.4): the next expected sequence number, and the
        /// MPDUs (or skipped numbers, `nil`) that arrived ahead of it, only while there are any.
        var expectedFrom = PeerCounters()
        var heldFrom: [Int: [UInt64: LinkPacket?]] = [:]
        var backoffStream: RandomStream
        var receiveStream: RandomStream
        var counters = LinkCounters()
        /// The node's radio is off (failed, or not yet joined).
        var down = false
    }

    /// The channel.
    public private(set) var channel: WirelessChannel
    /// MAC parameters.
    public let mac: MacParameters
    /// The AWDL schedule, or `nil` for plain ad-hoc Wi-Fi.
    public let awdl: AwdlSchedule?
    let errorModel = WaterfallErrorModel()
    var nodes: [Node]
    var transmissions: [Transmission] = []
    var freeTransmissions: [Int] = []
    var scratch: [Int] = []
    var keptScratch: [TransmitQueue.Entry] = []
    /// Notices produced by the last handled event; the world drains them.
    public var notices: [LinkNotice] = []
    let preambleMw: Double
    /// The PHY's lowest valid MCS (broadcasts use it), computed once.
    let lowestMcs: Mcs
    let energyDetectionMw = Decibel.milliwatts(fromDbm: -62)
    /// Per MCS: linear SINRs above which a frame surely succeeds, below which it surely fails
    /// (PER₁₀₀₀ beyond 1 − 10⁻¹² or below 10⁻¹²: 13.8 dB either side of the 50 % point). Outside
    /// them no random number is drawn and no logarithm taken; the error is below 10⁻⁹ per frame.
    let certainSuccess: [Double]
    let certainFailure: [Double]

    /// The MAC of every node. Creates each node's timers in `sim`.
    public init(channel: WirelessChannel, mac: MacParameters, awdl: AwdlSchedule?, sim: inout Simulation) {
        self.channel = channel
        self.mac = mac
        self.awdl = awdl
        preambleMw = Decibel.milliwatts(fromDbm: channel.radio.preambleDetectionDbm)
        lowestMcs = channel.radio.phy.validMcs[0]
        let model = WaterfallErrorModel()
        let margin = log(1e12) / model.steepness
        certainSuccess = Mcs.all.map { Decibel.linear(fromDb: model.minimumSnrDb[$0.index] - log(9) / model.steepness + margin + 1) }
        certainFailure = Mcs.all.map { Decibel.linear(fromDb: model.minimumSnrDb[$0.index] - log(9) / model.steepness - margin) }
        var nodes: [Node] = []
        for i in 0..<channel.positions.count {
            nodes.append(Node(queue: TransmitQueue(limit: mac.queueLimit), cw: mac.cwMin,
                              accessTimer: sim.makeTimer(kind: .macAccess, target: UInt32(i)),
                              ackTimer: sim.makeTimer(kind: .macAckTimeout, target: UInt32(i)),
                              rate: RateSelection(phy: channel.radio.phy),
                              backoffStream: sim.randomStream(named: "node:\(i)/mac/backoff"),
                              receiveStream: sim.randomStream(named: "node:\(i)/phy/rx")))
        }
        self.nodes = nodes
    }

    /// The link of `scenario` (`awdl` or `wifi`): the channel of the place, the MAC settings
    /// of `mac`, and for AWDL every node's slot occupancy.
    public init(_ scenario: Scenario, radio: RadioConfiguration, place: PlaceParameters, positions: [Position],
                sim: inout Simulation) {
        var mac = MacParameters(is24GHz: radio.phy.is24GHz)
        if let a = scenario.mac.aggregation { mac.aggregation = a }
        if let q = scenario.mac.queuePackets { mac.queueLimit = q }
        let channel = WirelessChannel(place: place, radio: radio, positions: positions, seed: sim.seed)
        var schedule: AwdlSchedule?
        if radio.technology == .awdl {
            let fallback = scenario.radio.awdlSlots ?? AwdlSchedule.defaultOccupancy
            schedule = AwdlSchedule(occupancy: scenario.nodes.map { $0.awdlSlots ?? fallback }, dataChannelIs6: radio.channel == .ch6)
        }
        self.init(channel: channel, mac: mac, awdl: schedule, sim: &sim)
    }

    /// An 802.11 radio.
    public static var hasRadio: Bool { true }

    /// The link MTU: AWDL 1484 bytes (radio.md), 1500 for plain ad-hoc Wi-Fi.
    public var mtu: Int { awdl != nil ? 1484 : 1500 }

    /// Counters of node `i`.
    public func counters(of i: Int) -> LinkCounters { nodes[i].counters }

    /// Free transmit-queue room at node `i`, packets.
    public func queueRoom(of i: Int) -> Int { mac.queueLimit - nodes[i].queue.count }

    /// Moves node `i`.
    public mutating func setPosition(_ i: Int, _ p: Position) { channel.setPosition(i, p) }

    /// Whether node `i`'s radio is off.
    public func isDown(_ i: Int) -> Bool { nodes[i].down }

    /// The received power from `t` at `r` without blockage and fading (what a signal-strength
    /// reading averages to), dBm.
    public mutating func medianRxDbm(from t: Int, to r: Int) -> Double {
        Decibel.dbm(fromMilliwatts: channel.staticRxMw(t, r))
    }

    /// Every node within the interaction range of `i`, in a fixed order.
    public func forEachNeighbour(of i: Int, _ body: (Int) -> Void) { channel.forEachNeighbour(of: i, body) }

    /// Node `i`'s radio fails: it stops sending and receiving, and its queued packets are lost
    /// (a frame already on the air finishes).
    public mutating func setDown(_ i: Int, sim: inout Simulation) {
        guard !nodes[i].down else { return }
        nodes[i].down = true
        sim.cancel(nodes[i].accessTimer)
        sim.cancel(nodes[i].ackTimer)
        nodes[i].pendingResponse = nil
        while !nodes[i].queue.isEmpty {
            let e = nodes[i].queue.removeFirst()
            nodes[i].counters.retryDrops += 1
            notices.append(LinkNotice(kind: e.arrived ? .senderDone : .dropped, node: UInt32(i), packet: e.packet))
        }
        nodes[i].inFlight = 0
        nodes[i].state = .idle
        nodes[i].backoffSlots = -1
        if nodes[i].locked >= 0 { abandonReception(i) }
    }

    /// Node `i`'s radio comes back.
    public mutating func setUp(_ i: Int, sim: inout Simulation) {
        guard nodes[i].down else { return }
        nodes[i].down = false
        nodes[i].idleSince = sim.now
    }

    /// Queued packets at node `i`.
    public func queueLength(of i: Int) -> Int { nodes[i].queue.count }

    // MARK: Upper layer

    /// Queues `packet` at its source; starts contention if the MAC was idle.
    public mutating func send(_ packet: LinkPacket, sim: inout Simulation) -> Bool {
        let i = Int(packet.source)
        if nodes[i].down {
            nodes[i].counters.queueDrops += 1
            return false
        }
        if let awdl, packet.destination != LinkPacket.broadcast,
           awdl.nextWindow(i, Int(packet.destination), from: sim.now, lasting: .microseconds(100)) == nil {
            nodes[i].counters.queueDrops += 1   // the two never share a slot: undeliverable
            return false
        }
        var seq: UInt64 = 0
        if packet.destination != LinkPacket.broadcast {
            seq = nodes[i].nextSeqTo[Int(packet.destination), nodes.count]
        }
        guard nodes[i].queue.append(packet, macSeq: seq) else {
            nodes[i].counters.queueDrops += 1
            return false
        }
        if packet.destination != LinkPacket.broadcast { nodes[i].nextSeqTo[Int(packet.destination), nodes.count] = seq &+ 1 }
        nodes[i].counters.enqueued += 1
        if nodes[i].state == .idle {
            nodes[i].state = .contending
            if nodes[i].backoffSlots < 0 {
                // Immediate access if the medium has been idle for DIFS; otherwise back off.
                let idleLongEnough = mediumIdle(i) && sim.now >= nodes[i].idleSince + mac.difs
                nodes[i].backoffSlots = idleLongEnough ? 0 : drawBackoff(i)
            }
            scheduleAccess(i, sim: &sim)
        }
        return true
    }

    // MARK: Events

    /// Handles one of the link's events.
    public mutating func handle(_ event: Event, in sim: inout Simulation) {
        switch event.kind {
        case .macAccess: access(Int(event.target), sim: &sim)
        case .macTxEnd: transmissionEnded(Int(event.arg), sim: &sim)
        case .macAckTimeout: ackTimedOut(Int(event.target), sim: &sim)
        case .macRespond: respond(Int(event.target), sim: &sim)
        default: preconditionFailure("not a link event")
        }
    }

    func mediumIdle(_ i: Int) -> Bool { !sensesBusy(i) && !nodes[i].transmitting }

    /// Clear-channel assessment (IEEE 802.11-2016 §17.3.10.6): busy while a frame at or above the
    /// preamble-detection threshold is on the air, or while the total power of the others reaches
    /// the energy-detection threshold, −62 dBm (20 dB above −82).
    func sensesBusy(_ i: Int) -> Bool { nodes[i].busyCount > 0 || nodes[i].energyBusy }

    /// Applies a change of node `r`'s carrier-sense inputs, firing busy/idle transitions.
    mutating func updateCarrierSense(_ r: Int, busyDelta: Int, sim: inout Simulation) {
        let before = sensesBusy(r)
        nodes[r].busyCount += busyDelta
        nodes[r].energyBusy = nodes[r].interferenceMw >= energyDetectionMw
        let after = sensesBusy(r)
        guard before != after, !nodes[r].transmitting else { return }
        if after { becameBusy(r, sim: &sim) } else { becameIdle(r, sim: &sim) }
    }

    mutating func drawBackoff(_ i: Int) -> Int {
        Int(nodes[i].backoffStream.uniformInt(below: UInt64(nodes[i].cw + 1)))
    }

    /// Arms the access timer for the remaining back-off, if the medium is idle.
    mutating func scheduleAccess(_ i: Int, sim: inout Simulation) {
        guard nodes[i].state == .contending, mediumIdle(i), nodes[i].pendingResponse == nil else { return }
        let ifs = nodes[i].useEifs ? eifs : mac.difs
        let from = Swift.max(nodes[i].idleSince + ifs, sim.now)
        nodes[i].countdownFrom = from
        sim.arm(nodes[i].accessTimer, at: from + mac.slot * Int64(Swift.max(nodes[i].backoffSlots, 0)))
    }

    var eifs: SimTime {
        mac.sifs + ControlFrame.airtime(bytes: ControlFrame.ackBytes, dbps: 24, is24GHz: channel.radio.phy.is24GHz) + mac.difs
    }

    /// aCCATime: a receiver needs up to 4 µs to notice a frame (IEEE 802.11-2016 Table 17-21).
    /// A node whose back-off ends within that time of another's transmission start still
    /// transmits: two stations ending their back-off in the same slot collide.
    static let ccaTime = SimTime.microseconds(4)

    /// The medium at `i` became busy: freeze the back-off, unless it ends before carrier sense
    /// can notice.
    mutating func becameBusy(_ i: Int, sim: inout Simulation) {
        nodes[i].busySince = sim.now
        guard sim.isArmed(nodes[i].accessTimer) else { return }
        if let due = sim.deadline(of: nodes[i].accessTimer), due < sim.now + WirelessLink.ccaTime { return }
        sim.cancel(nodes[i].accessTimer)
        if sim.now > nodes[i].countdownFrom {
            let elapsed = (sim.now - nodes[i].countdownFrom).nanoseconds / mac.slot.nanoseconds
            nodes[i].backoffSlots = Swift.max(0, nodes[i].backoffSlots - Int(elapsed))
        }
    }

    /// The medium at `i` became idle: resume the back-off.
    mutating func becameIdle(_ i: Int, sim: inout Simulation) {
        nodes[i].idleSince = sim.now
        scheduleAccess(i, sim: &sim)
    }

    /// The back-off is over: transmit the head of the queue (or wait for an AWDL window).
    mutating func access(_ i: Int, sim: inout Simulation) {
        let sensedIdle = !sensesBusy(i) || sim.now < nodes[i].busySince + WirelessLink.ccaTime
        guard nodes[i].state == .contending, !nodes[i].transmitting, sensedIdle, nodes[i].pendingResponse == nil,
              !nodes[i].queue.isEmpty, !nodes[i].down else { return }
        let head = nodes[i].queue[0].packet
        let broadcast = head.destination == LinkPacket.broadcast
        let destination = broadcast ? -1 : Int(head.destination)
        let (mpdus, psdu, mcs) = framePlan(i, destination: destination)
        let airtime = SimTime(nanoseconds: channel.radio.phy.airtimeNanos(psduBytes: psdu, mcs: mcs))
        let exchange = broadcast ? airtime : airtime + mac.sifs + responseAirtime(mpdus: mpdus, mcs: mcs)
        if let awdl {
            guard let window = awdl.nextWindow(i, broadcast ? nil : destination, from: sim.now, lasting: exchange) else { return }
            if window > sim.now {
                // Not both on the channel now (or the exchange would not fit): contend again at
                // the next shared slot.
                nodes[i].backoffSlots = 0
                nodes[i].countdownFrom = window + mac.difs
                sim.arm(nodes[i].accessTimer, at: window + mac.difs)
                return
            }
        }
        nodes[i].backoffSlots = -1
        nodes[i].inFlight = mpdus
        nodes[i].inFlightMcs = mcs
        for k in 0..<mpdus {
            if nodes[i].queue[k].attempts > 0 { nodes[i].counters.retransmissions += 1 }
            nodes[i].queue[k].attempts += 1
        }
        nodes[i].counters.dataTransmissions += 1
        startTransmission(kind: broadcast ? .broadcast : .data, from: i, to: destination, mpdus: mpdus, mcs: mcs,
                          airtime: airtime, bitmap: 0, sim: &sim)
    }

    /// How many head packets go in the next PPDU, its PSDU length, and its MCS.
    mutating func framePlan(_ i: Int, destination: Int) -> (mpdus: Int, psduBytes: Int, mcs: Mcs) {
        let phy = channel.radio.phy
        let lowest = lowestMcs
        func mpduBytes(_ payload: Int32) -> Int { Int(payload) + 30 }  // QoS data header 26 + FCS 4 (§9.3.2.1)
        if destination < 0 { return (1, mpduBytes(nodes[i].queue[0].packet.bytes), lowest) }
        let firstBytes = mpduBytes(nodes[i].queue[0].packet.bytes)
        var mcs: Mcs
        if let fixed = channel.radio.fixedMcs, phy.isValid(fixed) {
            mcs = fixed
        } else {
            mcs = nodes[i].rate.select(snrDb: channel.medianSnrDb(i, destination), bytes: firstBytes)
        }
        // VHT sends every MPDU inside an A-MPDU: each subframe is a 4-byte delimiter plus the
        // MPDU padded to a multiple of 4 bytes (IEEE 802.11-2016 §9.7.1; VHT pads the last one too).
        let vht = !phy.is24GHz
        guard mac.aggregation else { return (1, vht ? 4 + ((firstBytes + 3) & ~3) : firstBytes, mcs) }
        var count = 0
        var bytes = 0
        while count < nodes[i].queue.count && count < mac.maxAmpduMpdus {
            let p = nodes[i].queue[count].packet
            guard Int(p.destination) == destination else { break }
            let sub = 4 + ((mpduBytes(p.bytes) + 3) & ~3)
            if count > 0 {
                guard bytes + sub <= mac.maxAmpduBytes,
                      phy.airtimeNanos(psduBytes: bytes + sub, mcs: mcs) <= mac.maxPpdu.nanoseconds else { break }
            }
            bytes += sub
            count += 1
        }
        if count == 1 && !vht { return (1, firstBytes, mcs) }
        return (count, bytes, mcs)
    }

    func responseAirtime(mpdus: Int, mcs: Mcs) -> SimTime {
        let rate = ControlFrame.basicRate(forDataRate: channel.radio.phy.rateBitsPerSecond(mcs))
        return ControlFrame.airtime(bytes: mpdus > 1 ? ControlFrame.blockAckBytes : ControlFrame.ackBytes, dbps: rate.dbps,
                                    is24GHz: channel.radio.phy.is24GHz)
    }

    // MARK: The medium

    mutating func startTransmission(kind: FrameKind, from i: Int, to destination: Int, mpdus: Int, mcs: Mcs,
                                    airtime: SimTime, bitmap: UInt64, sim: inout Simulation) {
        let slot: Int
        if let free = freeTransmissions.popLast() {
            slot = free
        } else {
            slot = transmissions.count
            transmissions.append(Transmission(kind: .data, source: 0, destination: 0, mpdus: 0, mcs: mcs, start: .zero,
                                              touched: [], bitmap: 0, inUse: false))
        }
        // Move the slot's touch list out so appending does not copy it (no allocation once warm).
        var touched = transmissions[slot].touched
        transmissions[slot].touched = []
        touched.removeAll(keepingCapacity: true)
        let now = sim.now
        if !nodes[i].transmitting && !sensesBusy(i) { becameBusy(i, sim: &sim) }
        nodes[i].transmitting = true
        if nodes[i].locked >= 0 { abandonReception(i) }
        let awdl = self.awdl
        var neighbours = scratch
        scratch = []
        neighbours.removeAll(keepingCapacity: true)
        channel.forEachNeighbour(of: i) { neighbours.append($0) }
        defer { scratch = neighbours }
        for r in neighbours {
            if nodes[r].down { continue }
            if let awdl, !awdl.isPresent(r, at: now) { continue }
            let mw = channel.frameRxMw(from: i, to: r, at: now)
            let busy = mw >= preambleMw
            touched.append(Touch(node: Int32(r), powerMw: mw, busy: busy))
            if !nodes[r].transmitting && nodes[r].locked < 0 && busy {
                nodes[r].locked = slot
                nodes[r].lockedSignalMw = mw
                nodes[r].lockedMaxInterferenceMw = nodes[r].interferenceMw
            } else {
                nodes[r].interferenceMw += mw
                if nodes[r].locked >= 0 {
                    nodes[r].lockedMaxInterferenceMw = Swift.max(nodes[r].lockedMaxInterferenceMw, nodes[r].interferenceMw)
                }
            }
            updateCarrierSense(r, busyDelta: busy ? 1 : 0, sim: &sim)
        }
        transmissions[slot] = Transmission(kind: kind, source: i, destination: destination, mpdus: mpdus, mcs: mcs,
                                           start: now, touched: touched, bitmap: bitmap, inUse: true)
        sim.schedule(after: airtime, target: UInt32(i), kind: .macTxEnd, arg: UInt64(slot))
    }

    /// A node that starts transmitting drops the frame it was receiving (half duplex).
    mutating func abandonReception(_ i: Int) {
        nodes[i].interferenceMw += nodes[i].lockedSignalMw
        nodes[i].locked = -1
    }

    mutating func transmissionEnded(_ slot: Int, sim: inout Simulation) {
        let tx = transmissions[slot]
        let i = tx.source
        nodes[i].transmitting = false
        for t in tx.touched {
            let r = Int(t.node)
            if nodes[r].locked == slot {
                nodes[r].locked = -1
                receive(tx, at: r, signalMw: t.powerMw, sim: &sim)
            } else {
                nodes[r].interferenceMw = Swift.max(0, nodes[r].interferenceMw - t.powerMw)
            }
        }
        transmissions[slot].inUse = false
        freeTransmissions.append(slot)
        // Busy → idle transitions after every reception was settled.
        for t in tx.touched { updateCarrierSense(Int(t.node), busyDelta: t.busy ? -1 : 0, sim: &sim) }
        switch tx.kind {
        case .data:
            nodes[i].state = .awaitingResponse
            sim.arm(nodes[i].ackTimer, after: mac.sifs + mac.slot + responseAirtime(mpdus: tx.mpdus, mcs: tx.mcs))
        case .broadcast:
            let entry = nodes[i].queue.removeFirst()
            nodes[i].counters.delivered += 1
            notices.append(LinkNotice(kind: .senderDone, node: UInt32(i), packet: entry.packet))
            finishExchange(i, success: true, sim: &sim)
        case .ack, .blockAck:
            break
        }
        if !sensesBusy(i) { becameIdle(i, sim: &sim) }
    }

    /// Whether a frame of `bytes` at `mcs` survives `sinr` (linear), drawing from `r`'s stream
    /// only when the outcome is uncertain.
    mutating func survives(sinr: Double, mcs: Mcs, bytes: Int, at r: Int) -> Bool {
        if sinr >= certainSuccess[mcs.index] { return true }
        if sinr <= certainFailure[mcs.index] { return false }
        let p = errorModel.successProbability(sinrDb: Decibel.db(fromLinear: sinr), mcs: mcs, bytes: bytes)
        return nodes[r].receiveStream.uniform() < p
    }

    mutating func receive(_ tx: Transmission, at r: Int, signalMw: Double, sim: inout Simulation) {
        let sinr = signalMw / (channel.noiseMw + nodes[r].lockedMaxInterferenceMw)
        switch tx.kind {
        case .data, .broadcast:
            guard tx.kind == .broadcast || tx.destination == r else {
                nodes[r].useEifs = false
                return
            }
            var bitmap: UInt64 = 0
            for k in 0..<tx.mpdus {
                let packet = nodes[tx.source].queue[k].packet
                let bytes = Int(packet.bytes) + 30
                if survives(sinr: sinr, mcs: tx.mcs, bytes: bytes, at: r) {
                    bitmap |= 1 << UInt64(k)
                    // Duplicate detection (§10.3.2.11): a retransmission whose earlier copy
                    // arrived (its ACK was lost) is acknowledged again but not passed up twice.
                    if tx.kind == .broadcast {
                        passUp(packet, at: r)
                    } else if !nodes[tx.source].queue[k].arrived {
                        nodes[tx.source].queue[k].arrived = true
                        reorderArrival(packet, seq: nodes[tx.source].queue[k].macSeq, from: tx.source, at: r)
                    }
                } else {
                    nodes[r].counters.receiveFailures += 1
                }
            }
            nodes[r].useEifs = bitmap == 0
            if tx.kind == .data && bitmap != 0 {
                nodes[r].pendingResponse = (tx.source, bitmap, tx.mpdus, channel.radio.phy.rateBitsPerSecond(tx.mcs))
                sim.cancel(nodes[r].accessTimer)
                sim.schedule(after: mac.sifs, target: UInt32(r), kind: .macRespond)
            }
        case .ack, .blockAck:
            guard tx.destination == r, nodes[r].state == .awaitingResponse else { return }
            let rate = ControlFrame.basicRate(forDataRate: channel.radio.phy.rateBitsPerSecond(nodes[r].inFlightMcs))
            let bytes = tx.kind == .ack ? ControlFrame.ackBytes : ControlFrame.blockAckBytes
            if survives(sinr: sinr, mcs: rate.mcs, bytes: bytes, at: r) {
                sim.cancel(nodes[r].ackTimer)
                acknowledged(r, bitmap: tx.bitmap, sim: &sim)
            }
        }
    }

    mutating func passUp(_ packet: LinkPacket, at r: Int) {
        nodes[r].counters.received += 1
        nodes[r].counters.receivedBytes += UInt64(packet.bytes)
        notices.append(LinkNotice(kind: .delivered, node: UInt32(r), packet: packet))
    }

    /// The receiver's reordering buffer: MPDUs from one sender are passed up in sequence order;
    /// one that arrives ahead of a missing one waits until it arrives or the sender gives it up.
    mutating func reorderArrival(_ packet: LinkPacket?, seq: UInt64, from sender: Int, at r: Int) {
        let count = nodes.count
        let next = nodes[r].expectedFrom[sender, count]
        if seq < next { return }
        if seq == next && nodes[r].heldFrom[sender] == nil {
            // In order, nothing waiting: the common case, no buffering.
            nodes[r].expectedFrom[sender, count] = next &+ 1
            if let packet { passUp(packet, at: r) }
            return
        }
        nodes[r].heldFrom[sender, default: [:]][seq] = .some(packet)
        while true {
            let expected = nodes[r].expectedFrom[sender, count]
            guard let entry = nodes[r].heldFrom[sender]?.removeValue(forKey: expected) else { break }
            nodes[r].expectedFrom[sender, count] = expected &+ 1
            if let p = entry { passUp(p, at: r) }
        }
        if nodes[r].heldFrom[sender]?.isEmpty == true { nodes[r].heldFrom[sender] = nil }
    }

    mutating func respond(_ r: Int, sim: inout Simulation) {
        guard let response = nodes[r].pendingResponse, !nodes[r].down else { return }
        nodes[r].pendingResponse = nil
        let rate = ControlFrame.basicRate(forDataRate: response.dataRate)
        let blockAck = response.mpdus > 1
        let airtime = ControlFrame.airtime(bytes: blockAck ? ControlFrame.blockAckBytes : ControlFrame.ackBytes,
                                           dbps: rate.dbps, is24GHz: channel.radio.phy.is24GHz)
        startTransmission(kind: blockAck ? .blockAck : .ack, from: r, to: response.to, mpdus: 0, mcs: rate.mcs,
                          airtime: airtime, bitmap: response.bitmap, sim: &sim)
    }

    mutating func acknowledged(_ i: Int, bitmap: UInt64, sim: inout Simulation) {
        let n = nodes[i].inFlight
        var kept = keptScratch
        keptScratch = []
        kept.removeAll(keepingCapacity: true)
        for k in 0..<n {
            let entry = nodes[i].queue[k]
            if bitmap & (1 << UInt64(k)) != 0 {
                nodes[i].counters.delivered += 1
                notices.append(LinkNotice(kind: .senderDone, node: UInt32(i), packet: entry.packet))
            } else {
                kept.append(entry)
            }
        }
        nodes[i].queue.replacePrefix(n, with: kept)
        dropExhausted(i, upTo: kept.count)
        kept.removeAll(keepingCapacity: true)
        keptScratch = kept
        finishExchange(i, success: true, sim: &sim)
    }

    mutating func ackTimedOut(_ i: Int, sim: inout Simulation) {
        guard nodes[i].state == .awaitingResponse else { return }
        dropExhausted(i, upTo: nodes[i].inFlight)
        finishExchange(i, success: false, sim: &sim)
    }

    /// Drops, among the first `n` queued packets, those that used up their retries.
    mutating func dropExhausted(_ i: Int, upTo n: Int) {
        var k = n - 1
        while k >= 0 {
            if Int(nodes[i].queue[k].attempts) > mac.retryLimit {
                let p = nodes[i].queue[k].packet
                let arrived = nodes[i].queue[k].arrived
                if !arrived && p.destination != LinkPacket.broadcast {
                    // Given up: the receiver's window moves past it (a BlockAckReq, §10.24.7).
                    reorderArrival(nil, seq: nodes[i].queue[k].macSeq, from: i, at: Int(p.destination))
                }
                nodes[i].queue.remove(at: k)
                nodes[i].counters.retryDrops += 1
                notices.append(LinkNotice(kind: arrived ? .senderDone : .dropped, node: UInt32(i), packet: p))
            }
            k -= 1
        }
    }

    mutating func finishExchange(_ i: Int, success: Bool, sim: inout Simulation) {
        nodes[i].inFlight = 0
        nodes[i].cw = success ? mac.cwMin : Swift.min(2 * (nodes[i].cw + 1) - 1, mac.cwMax)
        if nodes[i].queue.isEmpty {
            nodes[i].state = .idle
            nodes[i].backoffSlots = -1
        } else {
            nodes[i].state = .contending
            nodes[i].backoffSlots = drawBackoff(i)
            scheduleAccess(i, sim: &sim)
        }
    }
}

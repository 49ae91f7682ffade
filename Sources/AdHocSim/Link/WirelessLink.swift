// The `awdl` and `wifi` technologies: 802.11 DCF over the shared wireless channel, with AWDL's
// availability windows when the technology is `awdl`.

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

/// The 802.11 link of every node over one shared medium (`awdl` and `wifi`): the device that
/// conforms to `LinkTechnology`. Its parts, one file each:
/// - `SharedMedium`: reception, SINR and carrier sense (the PHY), reporting `PhyIndication`s;
/// - `Dcf.swift`: channel access (DCF back-off, AWDL windows) and the exchange's outcome;
/// - `MacReception.swift`: decoding, duplicate detection, ACK and block-ACK responses;
/// - `AmpduPlanner`: what goes into the next PPDU;
/// - `ReorderBuffer`: in-order delivery per sender;
/// - `AwdlSchedule`: AWDL presence (a unicast frame leaves only inside a slot both ends occupy
///   and must end within it; a broadcast only inside a slot of its sender; a node hears the
///   channel only in its own slots).
///
/// Per node: a bounded FIFO; back-off of uniform [0, CW] slots counted down only while the
/// medium has been idle for DIFS (EIFS after a frame it could not decode), frozen while busy;
/// CW doubles from 15 to 1023 after each failed exchange and resets on success; an ACK (or a
/// compressed block ACK for an A-MPDU) after SIFS; ACK timeout SIFS + slot + the response's
/// airtime; a packet is dropped after 7 retransmissions. A packet that arrives at an idle MAC
/// when the medium has been idle for DIFS goes out without back-off; every transmission after
/// that draws a new back-off. Each MPDU succeeds with the error model's probability at the
/// frame's SINR, so the stronger of two colliding frames can still be received (capture).
public struct WirelessLink: LinkTechnology, Sendable {
    /// What a frame on the air is, as the MAC sees it.
    struct MacFrame: Sendable {
        enum Kind: Sendable { case data, broadcast, ack, blockAck }
        var kind: Kind
        var destination: Int
        var mpdus: Int
        var mcs: Mcs
        /// Block ACK: which MPDUs arrived.
        var bitmap: UInt64
    }

    enum MacState: Sendable { case idle, contending, awaitingResponse }

    /// The part of a node's MAC that every frame it hears touches: channel access (IEEE
    /// 802.11-2016 §10.3.2.3: the state, the back-off and its timer, whether EIFS applies; when
    /// the medium last turned idle or busy is the medium's, `SharedMedium.idleSince`) and the
    /// reception counts. Kept apart from the rest of the station (`Station`, over 500 bytes) in
    /// 48 bytes, so a frame heard by a crowd touches one cache line per receiver.
    struct StationAccess: Sendable {
        var countdownFrom = SimTime.zero
        var backoffSlots = -1
        /// `LinkCounters.received`, `receivedBytes` and `receiveFailures` of the node.
        var received: UInt64 = 0
        var receivedBytes: UInt64 = 0
        var receiveFailures: UInt64 = 0
        var accessTimer: TimerID
        var state: MacState = .idle
        var useEifs = false
        /// `Station.pendingResponse != nil`: a received data frame is to be answered after SIFS
        /// (both set by `setPendingResponse`).
        var responding = false
    }

    /// The rest of one node's MAC.
    struct Station: Sendable {
        /// The node's counters, except the reception counts, which `StationAccess` keeps
        /// (`counters(of:)` puts them together).
        var counters = LinkCounters()
        /// The radio failed while this station's frame was on the air (`setDown`).
        var frameCutShort = false
        var pendingResponse: (to: Int, bitmap: UInt64, mpdus: Int, dataRate: Double)?
        var receiveStream: RandomStream
        var queue: TransmitQueue
        var cw: Int
        var ackTimer: TimerID
        var inFlight = 0
        var inFlightMcs = Mcs(index: 0)
        var rate: RateSelection
        /// One-stream rate selection, when a two-stream PHY may fall back to one stream.
        var rateOneStream: RateSelection?
        /// Minstrel controllers, one per peer this station has sent unicast frames to
        /// (`radio.rateControl: "minstrel"`), in the order the peers were first met.
        var minstrel: [(peer: Int32, control: MinstrelRateControl)] = []
        /// The sampling stream of those controllers (`"node:I/mac/minstrel"`).
        var minstrelStream: RandomStream
        /// The exchange on the air: its controller (index into `minstrel`) and rate, or −1.
        var inFlightMinstrel = -1, inFlightRate = -1
        /// Next MAC sequence number per receiver (unicast).
        var nextSeqTo = PeerCounters()
        var reorder = ReorderBuffer()
        var backoffStream: RandomStream
    }

    /// The medium: channel, receivers, carrier sense.
    var medium: SharedMedium<MacFrame>
    /// The channel.
    public var channel: WirelessChannel { medium.channel }
    /// The PHY of every node.
    let phy: OfdmPhy
    /// MAC parameters.
    public let mac: MacParameters
    /// The AWDL schedule, or `nil` for plain ad-hoc Wi-Fi.
    public internal(set) var awdl: AwdlSchedule?
    let planner: AmpduPlanner
    var stations: [Station]
    /// Each station's `StationAccess`.
    var access: [StationAccess]
    var keptScratch: [TransmitQueue.Entry] = []
    var readyScratch: [LinkPacket] = []
    var indicationScratch = PhyIndicationLog()
    /// The last floor `medianRxDbm(from:to:ifAtLeast:)` was asked about, and the power below
    /// which a pair surely misses it, mW.
    var floorCache: (dbm: Double, surelyBelowMw: Double) = (.nan, 0)
    /// Node moves so far (`setPosition`), which invalidate `reaching`.
    var moves: UInt64 = 0
    /// Per node, the nodes whose median power reaches `floorDbm` there, as of `moves` moves
    /// (`forEachNeighbour(of:reachingDbm:_:)`; `nil`: not built yet).
    var reaching: (floorDbm: Double, moves: UInt64, lists: [[(node: Int32, dbm: Double)]?]) = (.nan, 0, [])
    /// DIFS, EIFS and the slot (`Dcf.swift`), computed once.
    let accessTiming: AccessTiming
    /// Notices produced by the last handled event; the world drains them.
    public var notices: [LinkNotice] = []
    /// Whether a received MPDU is decoded: the error model at its SINR.
    let decoder: FrameDecoder
    /// The second stream's SNR relative to the link's, in dB (`decoder.secondStreamGain`).
    let secondStreamGainDb: Double
    /// How unicast rates are chosen.
    let rateControl: RateControl
    /// Minstrel's candidate rates, slowest first, and their PHY rates (bit/s): the PHY's MCSs,
    /// and their one-stream forms when the second stream is weak.
    let minstrelRates: [Mcs], minstrelBitsPerSecond: [Double]

    /// The MAC of every node. Creates each node's timers in `sim`.
    public init(
        channel: WirelessChannel, mac: MacParameters, awdl: AwdlSchedule?, rateControl: RateControl = .minstrel,
        sim: inout Simulation
    ) {
        self.rateControl = rateControl
        medium = SharedMedium(channel: channel)
        self.mac = mac
        self.awdl = awdl
        let gain =
            channel.radio.phy.spatialStreams == 2
            ? channel.radio.spatialStreamModel.secondStreamGain(k: channel.place.fadingK) : 1
        secondStreamGainDb = Decibel.db(fromLinear: gain)
        planner = AmpduPlanner(radio: channel.radio, mac: mac)
        phy = channel.radio.phy
        decoder = FrameDecoder(phy: channel.radio.phy, secondStreamGain: gain)
        var stations: [Station] = []
        var access: [StationAccess] = []
        let onePhy = OfdmPhy(widthMHz: phy.widthMHz, spatialStreams: 1, is24GHz: phy.is24GHz)
        let oneStream: RateSelection? = gain < 1 ? RateSelection(phy: onePhy, explicitStreams: true) : nil
        var candidates = channel.radio.phy.validMcs
        if gain < 1 { candidates += onePhy.validMcs.map { Mcs(index: $0.index, streams: 1) } }
        let ranked = candidates.enumerated().sorted {
            (channel.radio.phy.rateBitsPerSecond($0.element), $0.offset)
                < (channel.radio.phy.rateBitsPerSecond($1.element), $1.offset)
        }
        minstrelRates = ranked.map(\.element)
        minstrelBitsPerSecond = minstrelRates.map { channel.radio.phy.rateBitsPerSecond($0) }
        for i in 0..<channel.positions.count {
            // Timers and streams are made in this order (their numbers depend on it).
            let accessTimer = sim.makeTimer(kind: .macAccess, target: UInt32(i))
            let ackTimer = sim.makeTimer(kind: .macAckTimeout, target: UInt32(i))
            let backoffStream = sim.randomStream(named: "node:\(i)/mac/backoff")
            let receiveStream = sim.randomStream(named: "node:\(i)/phy/rx")
            stations.append(
                Station(
                    receiveStream: receiveStream,
                    queue: TransmitQueue(limit: mac.queueLimit), cw: mac.cwMin, ackTimer: ackTimer,
                    rate: RateSelection(phy: channel.radio.phy), rateOneStream: oneStream,
                    minstrelStream: RandomStream(seed: sim.seed, name: "node:\(i)/mac/minstrel"),
                    backoffStream: backoffStream))
            access.append(StationAccess(accessTimer: accessTimer))
        }
        self.stations = stations
        self.access = access
        // Every MAC starts idle: carrier sense changes nothing it must act on (`setState`).
        for i in 0..<access.count { medium.setListening(i, false) }
        accessTiming = AccessTiming(mac: mac, phy: phy)
    }

    /// The link of `scenario` (`awdl` or `wifi`): the channel of the place, the MAC settings
    /// of `mac`, and for AWDL every node's slot occupancy.
    public init(
        _ scenario: Scenario, radio: RadioConfiguration, place: PlaceParameters, positions: [Position],
        sim: inout Simulation
    ) {
        var mac = MacParameters(is24GHz: radio.phy.is24GHz)
        if let a = scenario.mac.aggregation { mac.aggregation = a }
        if let q = scenario.mac.queuePackets { mac.queueLimit = q }
        let channel = WirelessChannel(place: place, radio: radio, positions: positions, seed: sim.seed)
        var schedule: AwdlSchedule?
        if radio.technology == .awdl {
            // Presence follows traffic unless the file fixes it; a node's own awdlSlots fix its.
            let fixed = scenario.radio.awdlPresence == .fixed || scenario.radio.awdlSlots != nil
            let fallback = scenario.radio.awdlSlots ?? AwdlSchedule.defaultOccupancy
            let idle = scenario.nodes.map { $0.awdlSlots ?? (fixed ? fallback : AwdlSchedule.idleOccupancy) }
            let active = scenario.nodes.map { $0.awdlSlots ?? (fixed ? fallback : AwdlSchedule.activeOccupancy) }
            let hold = SimTime.milliseconds(scenario.radio.awdlHoldMs)
            let switchUp = SimTime.milliseconds(scenario.radio.awdlSwitchUpMs)
            schedule = AwdlSchedule(
                idle: idle, active: active, hold: hold, switchUp: switchUp, dataChannelIs6: radio.channel == .ch6)
        }
        self.init(
            channel: channel, mac: mac, awdl: schedule, rateControl: scenario.radio.rateControl ?? .minstrel, sim: &sim)
    }

    /// An 802.11 radio.
    public static var hasRadio: Bool { true }

    /// AWDL presence follows the unsimulated traffic as it follows a queued unicast frame.
    public mutating func noteUnsimulatedTraffic(_ a: Int, _ b: Int, now: SimTime) {
        if awdl?.adaptive == true { awdl?.trafficQueued(a, b, now: now) }
    }

    /// The link MTU: AWDL 1484 bytes (radio.md), 1500 for plain ad-hoc Wi-Fi.
    public var mtu: Int { awdl != nil ? 1484 : 1500 }

    /// Counters of node `i`.
    public func counters(of i: Int) -> LinkCounters {
        var c = stations[i].counters
        c.received = access[i].received
        c.receivedBytes = access[i].receivedBytes
        c.receiveFailures = access[i].receiveFailures
        return c
    }

    /// Free transmit-queue room at node `i`, packets.
    public func queueRoom(of i: Int) -> Int { mac.queueLimit - stations[i].queue.count }

    /// Moves node `i`.
    public mutating func setPosition(_ node: Int, _ p: Position) {
        medium.channel.setPosition(node, p)
        moves &+= 1
    }

    /// Whether node `i`'s radio is off.
    public func isDown(_ node: Int) -> Bool { medium.isOff(node) }

    /// The received power from `t` at `r` without blockage and fading (what a signal-strength
    /// reading averages to), dBm.
    public mutating func medianRxDbm(from t: Int, to r: Int) -> Double {
        Decibel.dbm(fromMilliwatts: medium.channel.staticRxMw(t, r))
    }

    /// `medianRxDbm(from:to:)` when it reaches `floorDbm`, else `nil`. A power more than 10⁻⁹
    /// (relative) below the floor's milliwatts is below the floor in dBm however the logarithm
    /// rounds (its error is near 10⁻¹⁴ dB, the gap 4·10⁻⁹ dB), so it is refused without one: the
    /// same decision as comparing `medianRxDbm`, at a comparison's cost.
    public mutating func medianRxDbm(from t: Int, to r: Int, ifAtLeast floorDbm: Double) -> Double? {
        if floorDbm != floorCache.dbm { floorCache = (floorDbm, Decibel.milliwatts(fromDbm: floorDbm) * (1 - 1e-9)) }
        let mw = medium.channel.staticRxMw(t, r)
        if mw < floorCache.surelyBelowMw { return nil }
        let dbm = Decibel.dbm(fromMilliwatts: mw)
        return dbm >= floorDbm ? dbm : nil
    }

    /// `forEachNeighbour(of:reachingDbm:_:)` from a per-node list kept for the last floor asked
    /// (the nodes and their powers, in neighbour order), rebuilt after any node moves: a session
    /// update then visits the few phones within discovery range instead of every phone within
    /// interaction range.
    public mutating func forEachNeighbour(of i: Int, reachingDbm floorDbm: Double, _ body: (Int, Double) -> Void) {
        if reaching.floorDbm != floorDbm || reaching.moves != moves {
            reaching = (floorDbm, moves, Array(repeating: nil, count: stations.count))
        }
        let list: [(node: Int32, dbm: Double)]
        if let known = reaching.lists[i] {
            list = known
        } else {
            list = neighboursReaching(i, floorDbm: floorDbm)
            reaching.lists[i] = list
        }
        for e in list { body(Int(e.node), e.dbm) }
    }

    /// `neighbours(of:reachingDbm:)`, the same list in the same order. With the interaction
    /// cutoff and a floor above the cutoff's own (by more than a Float's rounding), every phone
    /// that reaches the floor is in `i`'s kept row (`WirelessChannel.neighbourhood(of:)`, in
    /// `forEachNeighbour`'s order; a pair's static loss is the same both ways and the transmit
    /// power radio-wide, so `i`'s row as a transmitter holds every phone that reaches it): only
    /// the row's phones within 1 % of the floor are compared
    /// exactly, instead of every phone in range (the rows are built once for the frames anyway;
    /// at 10 000 phones this halves the set-up).
    mutating func neighboursReaching(_ i: Int, floorDbm: Double) -> [(node: Int32, dbm: Double)] {
        let channel = medium.channel
        guard let margin = channel.interactionMarginDb, floorDbm > channel.noiseFloorDbm - margin + 0.01 else {
            return neighbours(of: i, reachingDbm: floorDbm)
        }
        let (nodes, powers) = medium.channel.neighbourhood(of: i)
        let nearFloorMw = Decibel.milliwatts(fromDbm: floorDbm) * 0.99
        var list: [(node: Int32, dbm: Double)] = []
        for k in nodes.indices where Double(powers[k]) >= nearFloorMw {
            if let dbm = medianRxDbm(from: Int(nodes[k]), to: i, ifAtLeast: floorDbm) { list.append((nodes[k], dbm)) }
        }
        return list
    }

    /// Every node within the interaction range of `i`, in a fixed order.
    public func forEachNeighbour(of i: Int, _ body: (Int) -> Void) { medium.channel.forEachNodeInRange(of: i, body) }

    /// Node `i`'s radio fails: it stops sending and receiving, and its queued packets are lost
    /// (each receiver's reordering window moves past the unicast ones, as after the retry limit,
    /// so the sender's packets after a recovery are not held behind them).
    /// A data or broadcast frame already on the air keeps the channel busy until its end but
    /// carries nothing any more (its packets were dropped here): every receiver it was meant
    /// for counts it as a frame it could not decode (`receiveCutShort`).
    public mutating func setDown(_ node: Int, sim: inout Simulation) {
        guard !medium.isOff(node) else { return }
        if medium.isTransmitting(node) { stations[node].frameCutShort = true }
        sim.cancel(access[node].accessTimer)
        sim.cancel(stations[node].ackTimer)
        setPendingResponse(node, nil)
        while !stations[node].queue.isEmpty {
            let e = stations[node].queue.removeFirst()
            stations[node].counters.retryDrops += 1
            if !e.arrived && e.packet.destination != LinkPacket.broadcast {
                // Given up: the receiver's window moves past it, as after the retry limit.
                reorderArrival(nil, seq: e.macSeq, from: node, at: Int(e.packet.destination))
            }
            notices.append(LinkNotice(kind: e.arrived ? .senderDone : .dropped, node: UInt32(node), packet: e.packet))
        }
        stations[node].inFlight = 0
        setState(node, .idle)
        access[node].backoffSlots = -1
        medium.setOff(node, true)
    }

    /// Node `i`'s radio comes back.
    public mutating func setUp(_ node: Int, sim: inout Simulation) {
        guard medium.isOff(node) else { return }
        medium.setOff(node, false)
        medium.stampIdle(node, now: sim.now)
    }

    // MARK: Upper layer

    /// Queues `packet` at its source; starts contention if the MAC was idle.
    public mutating func send(_ packet: LinkPacket, sim: inout Simulation) -> Bool {
        let i = Int(packet.source)
        if medium.isOff(i) {
            stations[i].counters.queueDrops += 1
            return false
        }
        if let awdl, packet.destination != LinkPacket.broadcast,
            awdl.nextWindow(i, Int(packet.destination), from: sim.now, lasting: .microseconds(100)) == nil
        {
            stations[i].counters.queueDrops += 1  // the two never share a slot: undeliverable
            return false
        }
        var seq: UInt64 = 0
        if packet.destination != LinkPacket.broadcast {
            seq = stations[i].nextSeqTo[Int(packet.destination), stations.count]
        }
        guard stations[i].queue.append(packet, macSeq: seq) else {
            stations[i].counters.queueDrops += 1
            return false
        }
        if packet.destination != LinkPacket.broadcast {
            stations[i].nextSeqTo[Int(packet.destination), stations.count] = seq &+ 1
            if awdl?.adaptive == true { awdl?.trafficQueued(i, Int(packet.destination), now: sim.now) }
        }
        stations[i].counters.enqueued += 1
        if access[i].state == .idle {
            setState(i, .contending)
            if access[i].backoffSlots < 0 {
                // Immediate access if the medium has been idle for DIFS; otherwise back off.
                let idleLongEnough = medium.mediumIdle(i) && sim.now >= medium.idleSince(i) + mac.difs
                access[i].backoffSlots = idleLongEnough ? 0 : drawBackoff(i)
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

    // MARK: The medium

    /// Puts `frame` on the air from `i` for `airtime` and schedules its end.
    mutating func startTransmission(_ frame: MacFrame, from i: Int, airtime: SimTime, sim: inout Simulation) {
        if !medium.isTransmitting(i) && !medium.sensesBusy(i) {
            medium.stampBusy(i, now: sim.now)
            becameBusy(i, sim: &sim)
        }
        // The schedule is passed only when the receivers' deafness must be recomputed.
        if !medium.deafIsCurrent(at: sim.now, revision: awdl?.presenceRevision) {
            medium.updateDeaf(awdl: awdl, now: sim.now)
        }
        let slot = medium.begin(frame, from: i, now: sim.now, airtime: airtime)
        takeIndications(sim: &sim)
        sim.schedule(after: airtime, target: UInt32(i), kind: .macTxEnd, arg: UInt64(slot))
    }

    /// The transmission in `slot` ended: receptions are decoded, carrier sense updated, and
    /// the sender's exchange moves on.
    mutating func transmissionEnded(_ slot: Int, sim: inout Simulation) {
        let (frame, i) = medium.end(slot, now: sim.now)
        let cutShort = stations[i].frameCutShort && frame.kind != .ack && frame.kind != .blockAck
        stations[i].frameCutShort = false
        takeIndications(frame, from: i, cutShort: cutShort, sim: &sim)
        if cutShort {
            // The sender failed while sending: its exchange ended with the failure.
            if !medium.sensesBusy(i) { becameIdle(i, sim: &sim) }
            return
        }
        switch frame.kind {
        case .data:
            if awdl?.adaptive == true { awdl?.trafficQueued(i, frame.destination, now: sim.now) }
            setState(i, .awaitingResponse)
            sim.arm(
                stations[i].ackTimer, after: mac.sifs + mac.slot + responseAirtime(mpdus: frame.mpdus, mcs: frame.mcs))
        case .broadcast:
            let entry = stations[i].queue.removeFirst()
            stations[i].counters.delivered += 1
            notices.append(LinkNotice(kind: .senderDone, node: UInt32(i), packet: entry.packet))
            finishExchange(i, success: true, sim: &sim)
        case .ack, .blockAck:
            break
        }
        if !medium.sensesBusy(i) { becameIdle(i, sim: &sim) }
    }

    /// Acts on what the medium reported, in order: frames that ended at a receiver (of `frame`
    /// from `sender`), then carrier-sense transitions.
    mutating func takeIndications(
        _ frame: MacFrame? = nil, from sender: Int = -1, cutShort: Bool = false, sim: inout Simulation
    ) {
        guard !medium.indications.isEmpty else { return }
        // Take the medium's log, leaving the (empty) scratch log in its place.
        if !isKnownUniquelyReferenced(&indicationScratch) { indicationScratch = PhyIndicationLog() }
        swap(&indicationScratch, &medium.indications)
        let list = indicationScratch
        // A broadcast's one MPDU is the same at every receiver: its receptions (consecutive in the
        // log) are handled together.
        let broadcast =
            frame.map { $0.kind == .broadcast } == true && !cutShort ? stations[sender].queue[0].packet : nil
        var k = 0
        while k < list.count {
            switch list.items[k] {
            case .busy, .idle:
                // A run of carrier-sense changes (they touch only the stations and timers).
                var last = k + 1
                while last < list.count {
                    if case .frameEnded = list.items[last] { break }
                    last += 1
                }
                carrierSenseChanged(list.items, k..<last, sim: &sim)
                k = last
                continue
            case .frameEnded(let r, let signalMw):
                // A frame ended only while one was on the air.
                guard let frame else { preconditionFailure("a frame ended with none on the air") }
                if let broadcast {
                    var last = k + 1
                    while last < list.count, case .frameEnded = list.items[last] { last += 1 }
                    receiveBroadcast(broadcast, mcs: frame.mcs, list.items, k..<last)
                    k = last
                    continue
                }
                if cutShort {
                    receiveCutShort(frame, at: r)
                } else {
                    receive(frame, from: sender, at: r, signalMw: signalMw, sim: &sim)
                }
            }
            k += 1
        }
        list.removeAll()
    }
}

/// Channel access of `WirelessLink` (IEEE 802.11-2016 §10.3, the DCF): back-off counted down
/// while the medium is idle, frozen while busy; immediate access after DIFS of idle medium;
/// EIFS after a frame that could not be decoded; AWDL's availability windows gating when a
/// frame may leave; the exchange's outcome (CW reset on success, doubled on failure, packets
/// dropped after the retry limit).
extension WirelessLink {
    mutating func drawBackoff(_ i: Int) -> Int {
        Int(stations[i].backoffStream.uniformInt(below: UInt64(stations[i].cw + 1)))
    }

    /// Station `i`'s MAC moves to `state`. An idle station ignores carrier sense (no back-off to
    /// freeze or resume, its access timer disarmed), so the medium is told not to hand it busy
    /// and idle indications; a station that is contending or awaiting a response gets them
    /// (one awaiting a response may contend again within the same batch of indications).
    mutating func setState(_ i: Int, _ state: MacState) {
        access[i].state = state
        medium.setListening(i, state != .idle)
    }

    /// Station `i` is to answer a received data frame after SIFS (`response`), or no longer is:
    /// the response itself with the rest of the station, whether there is one with its access
    /// state (`scheduleAccess` reads it for every idle transition).
    mutating func setPendingResponse(_ i: Int, _ response: (to: Int, bitmap: UInt64, mpdus: Int, dataRate: Double)?) {
        stations[i].pendingResponse = response
        access[i].responding = response != nil
    }

    /// Arms the access timer for the remaining back-off, if the medium is idle.
    mutating func scheduleAccess(_ i: Int, sim: inout Simulation) {
        WirelessLink.scheduleAccess(
            &access[i], mediumIdle: medium.mediumIdle(i), idleSince: medium.idleSince(i), timing: accessTiming,
            sim: &sim)
    }

    /// `scheduleAccess(_:sim:)` on a station whose medium is (`mediumIdle`) or is not idle, idle
    /// since `idleSince`.
    @inline(__always)
    static func scheduleAccess(
        _ st: inout StationAccess, mediumIdle: Bool, idleSince: SimTime, timing: AccessTiming, sim: inout Simulation
    ) {
        guard st.state == .contending, mediumIdle, !st.responding else { return }
        let ifs = st.useEifs ? timing.eifs : timing.difs
        let from = Swift.max(idleSince + ifs, sim.now)
        st.countdownFrom = from
        sim.arm(st.accessTimer, at: from + timing.slot * Int64(Swift.max(st.backoffSlots, 0)))
    }

    /// The inter-frame spaces and slot the back-off counts with.
    struct AccessTiming: Sendable {
        var difs: SimTime
        /// EIFS = SIFS + the airtime of an ACK at the lowest basic rate + DIFS (§10.3.2.3.7).
        var eifs: SimTime
        var slot: SimTime

        /// The timing of `mac` over `phy`.
        init(mac: MacParameters, phy: OfdmPhy) {
            difs = mac.difs
            eifs =
                mac.sifs + ControlFrame.airtime(bytes: ControlFrame.ackBytes, dbps: 24, is24GHz: phy.is24GHz) + mac.difs
            slot = mac.slot
        }
    }

    /// aCCATime: a receiver needs up to 4 µs to notice a frame (IEEE 802.11-2016 Table 17-21).
    /// A node whose back-off ends within that time of another's transmission start still
    /// transmits: two stations ending their back-off in the same slot collide.
    static let ccaTime = SimTime.microseconds(4)

    /// The medium at `i` became busy (its time stamped by the medium): freeze the back-off,
    /// unless it ends before carrier sense can notice.
    mutating func becameBusy(_ i: Int, sim: inout Simulation) {
        WirelessLink.becameBusy(&access[i], slot: mac.slot, sim: &sim)
    }

    /// `becameBusy(_:sim:)` on a station.
    @inline(__always)
    static func becameBusy(_ st: inout StationAccess, slot: SimTime, sim: inout Simulation) {
        // The access timer is armed only while contending (`scheduleAccess`, `access`; every
        // change of state away from contending happens with it disarmed), so an idle station's
        // timer is not looked up.
        assert(st.state == .contending || !sim.isArmed(st.accessTimer), "access timer armed while not contending")
        guard st.state == .contending, sim.isArmed(st.accessTimer) else { return }
        if let due = sim.deadline(of: st.accessTimer), due < sim.now + WirelessLink.ccaTime { return }
        sim.cancel(st.accessTimer)
        if sim.now > st.countdownFrom {
            let elapsed = (sim.now - st.countdownFrom).nanoseconds / slot.nanoseconds
            st.backoffSlots = Swift.max(0, st.backoffSlots - Int(elapsed))
        }
    }

    /// The medium at `i` became idle: resume the back-off.
    mutating func becameIdle(_ i: Int, sim: inout Simulation) {
        medium.stampIdle(i, now: sim.now)
        scheduleAccess(i, sim: &sim)
    }

    /// `becameBusy` or `becameIdle` for the nodes of `items[range]` (all `busy`, or all
    /// `idle`), in order, in one loop over the stations' storage: a frame heard by a crowd
    /// turns the medium busy, then idle, at every phone of it at once.
    mutating func carrierSenseChanged(
        _ items: UnsafeMutablePointer<PhyIndication>, _ range: Range<Int>, sim: inout Simulation
    ) {
        let timing = accessTiming
        let medium = self.medium.readings  // read while the stations are written
        access.withUnsafeMutableBufferPointer { ac in
            for k in range {
                switch items[k] {
                case .busy(let i):
                    WirelessLink.becameBusy(&ac[i], slot: timing.slot, sim: &sim)
                case .idle(let i):
                    // (Its idle time was stamped by the medium.)
                    WirelessLink.scheduleAccess(
                        &ac[i], mediumIdle: medium.mediumIdle(i), idleSince: medium.idleSince(i), timing: timing,
                        sim: &sim)
                case .frameEnded:
                    preconditionFailure("not a carrier-sense indication")
                }
            }
        }
    }

    /// The back-off is over: transmit the head of the queue (or wait for an AWDL window).
    mutating func access(_ i: Int, sim: inout Simulation) {
        let sensedIdle = !medium.sensesBusy(i) || sim.now < medium.busySince(i) + WirelessLink.ccaTime
        guard access[i].state == .contending, !medium.isTransmitting(i), sensedIdle,
            stations[i].pendingResponse == nil,
            !stations[i].queue.isEmpty, !medium.isOff(i)
        else { return }
        let head = stations[i].queue[0].packet
        let broadcast = head.destination == LinkPacket.broadcast
        let destination = broadcast ? -1 : Int(head.destination)
        var mcs = planner.lowestMcs
        stations[i].inFlightMinstrel = -1
        if !broadcast {
            if let fixed = planner.fixedMcs {
                mcs = fixed
            } else if rateControl == .minstrel {
                let c = minstrelController(i, for: destination, now: sim.now)
                let attempt = Int(stations[i].queue[0].attempts) + 1
                var stream = stations[i].minstrelStream
                let k = stations[i].minstrel[c].control.choose(attempt: attempt, stream: &stream)
                stations[i].minstrelStream = stream
                mcs = minstrelRates[k]
                stations[i].inFlightMinstrel = c
                stations[i].inFlightRate = k
            } else {
                mcs = medianSnrMcs(i, destination)
            }
        }
        let plan = planner.plan(stations[i].queue, destination: destination, mcs: mcs)
        let airtime = SimTime(nanoseconds: phy.airtimeNanos(psduBytes: plan.psduBytes, mcs: plan.mcs))
        let exchange = broadcast ? airtime : airtime + mac.sifs + responseAirtime(mpdus: plan.mpdus, mcs: plan.mcs)
        if let awdl {
            guard let window = awdl.nextWindow(i, broadcast ? nil : destination, from: sim.now, lasting: exchange)
            else { return }
            if window > sim.now {
                // Not both on the channel now (or the exchange would not fit): contend again at
                // the next shared slot.
                access[i].backoffSlots = 0
                access[i].countdownFrom = window + mac.difs
                sim.arm(access[i].accessTimer, at: window + mac.difs)
                return
            }
        }
        access[i].backoffSlots = -1
        if stations[i].inFlightMinstrel >= 0 {
            let c = stations[i].inFlightMinstrel
            stations[i].minstrel[c].control.transmitted(attempt: Int(stations[i].queue[0].attempts) + 1)
        }
        stations[i].inFlight = plan.mpdus
        stations[i].inFlightMcs = plan.mcs
        for k in 0..<plan.mpdus {
            if stations[i].queue[k].attempts > 0 { stations[i].counters.retransmissions += 1 }
            stations[i].queue[k].attempts += 1
        }
        stations[i].counters.dataTransmissions += 1
        startTransmission(
            MacFrame(
                kind: broadcast ? .broadcast : .data, destination: destination, mpdus: plan.mpdus, mcs: plan.mcs,
                bitmap: 0), from: i, airtime: airtime, sim: &sim)
    }

    /// The median-SNR rule (`RateSelection`): the fastest MCS the link's median SNR supports
    /// with margin; a two-stream PHY whose second stream is weak may be faster with one stream.
    mutating func medianSnrMcs(_ i: Int, _ destination: Int) -> Mcs {
        let snr = medium.channel.medianSnrDb(i, destination)
        let bytes = AmpduPlanner.mpduBytes(stations[i].queue[0].packet.bytes)
        var mcs = stations[i].rate.select(snrDb: snr + secondStreamGainDb, bytes: bytes)
        if let one = stations[i].rateOneStream?.select(snrDb: snr, bytes: bytes),
            phy.rateBitsPerSecond(one) > phy.rateBitsPerSecond(mcs)
        {
            mcs = one
        }
        return mcs
    }

    /// Station `i`'s Minstrel controller for `peer` (its index in `minstrel`), made on first
    /// contact and seeded with the median-SNR rule's rate (`MinstrelRateControl`, "Start").
    mutating func minstrelController(_ i: Int, for peer: Int, now: SimTime) -> Int {
        for c in stations[i].minstrel.indices where stations[i].minstrel[c].peer == Int32(peer) { return c }
        let seed = medianSnrMcs(i, peer)
        let seedBps = phy.rateBitsPerSecond(seed)
        let start = minstrelRates.firstIndex(of: seed) ?? (minstrelBitsPerSecond.lastIndex { $0 <= seedBps } ?? 0)
        stations[i].minstrel.append(
            (
                Int32(peer),
                MinstrelRateControl(
                    rates: minstrelRates, bitsPerSecond: minstrelBitsPerSecond, start: start, now: now)
            ))
        return stations[i].minstrel.count - 1
    }

    /// Tells the exchange's Minstrel controller, if it has one, how many of its `sent` MPDUs
    /// were acknowledged.
    mutating func reportExchange(_ i: Int, sent: Int, delivered: Int, now: SimTime) {
        let c = stations[i].inFlightMinstrel
        guard c >= 0 else { return }
        stations[i].minstrel[c].control.report(
            rate: stations[i].inFlightRate, sent: sent, delivered: delivered, now: now)
        stations[i].inFlightMinstrel = -1
    }

    /// The airtime of the ACK or block ACK answering `mpdus` MPDUs sent at `mcs`.
    func responseAirtime(mpdus: Int, mcs: Mcs) -> SimTime {
        let rate = ControlFrame.basicRate(forDataRate: phy.rateBitsPerSecond(mcs))
        return ControlFrame.airtime(
            bytes: mpdus > 1 ? ControlFrame.blockAckBytes : ControlFrame.ackBytes, dbps: rate.dbps,
            is24GHz: phy.is24GHz)
    }

    mutating func ackTimedOut(_ i: Int, sim: inout Simulation) {
        guard access[i].state == .awaitingResponse else { return }
        reportExchange(i, sent: stations[i].inFlight, delivered: 0, now: sim.now)
        dropExhausted(i, upTo: stations[i].inFlight)
        finishExchange(i, success: false, sim: &sim)
    }

    /// Drops, among the first `n` queued packets, those that used up their retries.
    mutating func dropExhausted(_ i: Int, upTo n: Int) {
        var k = n - 1
        while k >= 0 {
            if Int(stations[i].queue[k].attempts) > mac.retryLimit {
                let p = stations[i].queue[k].packet
                let arrived = stations[i].queue[k].arrived
                if !arrived && p.destination != LinkPacket.broadcast {
                    // Given up: the receiver's window moves past it (a BlockAckReq, §10.24.7).
                    reorderArrival(nil, seq: stations[i].queue[k].macSeq, from: i, at: Int(p.destination))
                }
                stations[i].queue.remove(at: k)
                stations[i].counters.retryDrops += 1
                notices.append(LinkNotice(kind: arrived ? .senderDone : .dropped, node: UInt32(i), packet: p))
            }
            k -= 1
        }
    }

    mutating func finishExchange(_ i: Int, success: Bool, sim: inout Simulation) {
        stations[i].inFlight = 0
        stations[i].cw = success ? mac.cwMin : Swift.min(2 * (stations[i].cw + 1) - 1, mac.cwMax)
        if stations[i].queue.isEmpty {
            setState(i, .idle)
            access[i].backoffSlots = -1
        } else {
            setState(i, .contending)
            access[i].backoffSlots = drawBackoff(i)
            scheduleAccess(i, sim: &sim)
        }
    }
}

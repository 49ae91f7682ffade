/// What the PHY tells the MAC above it (as ns-3's `WifiPhyListener`): the medium at a node
/// turned busy or idle, and a frame the node was locked onto ended. The medium records these
/// in order while it handles a transmission's start or end; the MAC takes them afterwards, so
/// neither layer calls into the other's state. Busy and idle are recorded only for nodes whose
/// MAC listens (`SharedMedium.setListening`); the medium stamps every node's last busy and idle
/// times itself (`busySince`, `idleSince`).
public enum PhyIndication: Sendable, Equatable {
    /// Carrier sense at `node` turned busy.
    case busy(node: Int)
    /// Carrier sense at `node` turned idle.
    case idle(node: Int)
    /// The frame `node` was locked onto ended, received at `signalMw`; the MAC decodes it
    /// (`SharedMedium.sinr`).
    case frameEnded(node: Int, signalMw: Double)
}

/// The radio medium as every receiver sees it, for any frame format `Frame` the MAC puts on
/// the air (802.11 today; a BLE link can reuse it): transmissions in flight, what each receiver
/// is locked onto and the interference it collects, and clear-channel assessment.
///
/// Reception: a receiver that is idle (not transmitting, not receiving, radio on, present)
/// locks onto a frame whose power reaches the preamble-detection threshold. Concurrent frames
/// are interference; the frame's SINR uses the largest total interference seen while it was on
/// the air (a conservative simplification of ns-3's chunk-wise SINR). No frame-capture
/// switching to a later, stronger preamble. Propagation delay is not modelled separately:
/// 802.11's slot time includes the air propagation time.
///
/// Carrier sense (IEEE 802.11-2016 §17.3.10.6): busy while a frame at or above the
/// preamble-detection threshold is on the air at the node, or while the total power of the
/// others reaches the energy-detection threshold, −62 dBm (20 dB above −82).
public struct SharedMedium<Frame: Sendable>: Sendable {
    /// One receiver a transmission reached, and at what power (16 bytes).
    struct Touch: Sendable {
        var node: Int32
        /// The power reaches the preamble-detection threshold.
        var busy: Bool
        var powerMw: Double
    }

    /// A transmission on the air.
    struct Transmission: Sendable {
        var frame: Frame
        var source: Int
        var start: SimTime
        var touched: [Touch]
        var inUse: Bool
    }

    /// The receivers' state, one column per field (`ReceiverColumns`), copied on write.
    var columns: ReceiverColumns
    /// The channel: who hears whom, at what power.
    public internal(set) var channel: WirelessChannel
    var transmissions: [Transmission] = []
    /// `begin`'s fading draws' hashed bits, one per receiver (storage reused; moved out while
    /// in use).
    var uniformScratch: [UInt64] = []
    /// The row positions of the links whose cached blockage state ran out, per frame start.
    var staleScratch: [Int32] = []
    var freeTransmissions: [Int] = []
    /// Transmissions begun so far: the next one's number (its fading draws' counter).
    var transmissionsBegun: UInt64 = 0
    /// What happened since the MAC last took them, in order.
    var indications = PhyIndicationLog()
    /// `end`'s carrier-sense transitions while it settles the receptions (empty between calls;
    /// replaced, not copied, when another medium value shares it).
    var carrierScratch = PhyIndicationLog()
    let preambleMw: Double
    /// With the interaction cutoff: airtime begun so far by every node, and the network's mean
    /// transmit duty, airtime / (nodes × elapsed), updated at every transmission. Times each
    /// receiver's summed mean power from the transmitters it was dropped from
    /// (`WirelessChannel.droppedMw`), it is the mean interference a frame's SINR adds.
    var airtimeBegun: Int64 = 0
    var meanDuty = 0.0
    let energyDetectionMw = Decibel.milliwatts(fromDbm: -62)
    /// The slot start and AWDL presence revision `columns.deaf` was computed for (`nil`: to be
    /// recomputed, e.g. after a radio went off or on).
    var deafKey: (slotStart: SimTime, revision: UInt64)?
    /// With the cutoff and `radio.farField: "cells"`: the dropped pairs' energy per grid cell
    /// from the frames on the air (`FarFieldCells`); `nil` otherwise.
    var far: FarFieldCells?
    /// The channel's `droppedRevision` the far field was last rebuilt for.
    var farRevision: UInt64 = 0

    /// The medium of `channel`, every receiver idle.
    public init(channel: WirelessChannel) {
        self.channel = channel
        columns = ReceiverColumns(count: channel.positions.count)
        preambleMw = Decibel.milliwatts(fromDbm: channel.radio.preambleDetectionDbm)
        if channel.aggregatesCells {
            let f = FarFieldCells(cells: channel.farGrid.columns * channel.farGrid.rows, nodes: channel.positions.count)
            // The rows may already be computed (they are, lazily, at the first frame otherwise).
            for (i, c) in channel.farCellOf.enumerated() { f.cellOf[i] = c }
            far = f
        }
    }

    /// The far-field cells, copied first if another medium value shares them (copy on write).
    @inline(__always)
    mutating func uniqueFar() -> FarFieldCells? {
        if far != nil && !isKnownUniquelyReferenced(&far) { far = far?.copy() }
        return far
    }

    /// Adds (`sign` +1) or removes (−1) node `source`'s far row.
    mutating func applyFarRow(of source: Int, sign: Double) {
        guard let f = uniqueFar() else { return }
        applyFarRow(of: source, sign: sign, to: f)
    }

    /// `applyFarRow(of:sign:)` into `f`, already made unique by the caller.
    func applyFarRow(of source: Int, sign: Double, to f: FarFieldCells) {
        channel.farRows.withUnsafeBufferPointer { rows in
            f.apply(row: UnsafeBufferPointer(rebasing: rows[(source * f.cells)..<((source + 1) * f.cells)]), sign: sign)
        }
    }

    /// After the far rows were recomputed (a node moved): every node's cell, and the frames on
    /// the air added again with the new rows, so each frame's end removes what was added.
    mutating func rebuildFar() {
        guard let f = uniqueFar() else { return }
        for i in 0..<f.nodes { f.cellOf[i] = channel.farCellOf[i] }
        f.farMw.update(repeating: 0, count: f.cells)
        for t in transmissions where t.inUse { applyFarRow(of: t.source, sign: 1, to: f) }
    }

    /// The columns, copied first if another medium value shares them (copy on write).
    @inline(__always)
    mutating func uniqueColumns() -> ReceiverColumns {
        if !isKnownUniquelyReferenced(&columns) { columns = columns.copy() }
        return columns
    }

    /// The indication log, copied first if another medium value shares it (copy on write).
    @inline(__always)
    mutating func uniqueIndications() -> PhyIndicationLog {
        if !isKnownUniquelyReferenced(&indications) { indications = indications.copy() }
        return indications
    }

    /// Whether carrier sense at `i` reports busy.
    @inline(__always) func sensesBusy(_ i: Int) -> Bool { columns.sensesBusy(i) }
    /// Whether `i` may count down its back-off: nothing sensed and not transmitting.
    @inline(__always) func mediumIdle(_ i: Int) -> Bool { columns.mediumIdle(i) }
    /// Whether `i` is transmitting.
    @inline(__always) func isTransmitting(_ i: Int) -> Bool { columns.transmitting[i] }
    /// Whether `i`'s radio is off.
    @inline(__always) func isOff(_ i: Int) -> Bool { columns.off[i] }
    /// When carrier sense at `i` last turned busy (or the MAC stamped it: `i` began to transmit
    /// from idle).
    @inline(__always) func busySince(_ i: Int) -> SimTime { SimTime(nanoseconds: columns.busySince[i]) }
    /// When carrier sense at `i` last turned idle (or the MAC stamped it: its own frame ended,
    /// its radio came back).
    @inline(__always) func idleSince(_ i: Int) -> SimTime { SimTime(nanoseconds: columns.idleSince[i]) }

    /// Whether `i`'s MAC wants `busy` and `idle` indications (every node at first). A MAC that
    /// ignores them in some state (an idle 802.11 station: nothing to defer) turns them off
    /// there, so a frame heard by a crowd logs and hands over nothing for those nodes.
    mutating func setListening(_ i: Int, _ on: Bool) {
        let c = uniqueColumns()
        c.listening[i] = on
    }

    /// Records that `i` turned busy (`stampBusy`) or idle (`stampIdle`) at `now` for a reason
    /// the medium does not see (the MAC's own transmission began or ended, the radio came back).
    mutating func stampBusy(_ i: Int, now: SimTime) { uniqueColumns().busySince[i] = now.nanoseconds }
    mutating func stampIdle(_ i: Int, now: SimTime) { uniqueColumns().idleSince[i] = now.nanoseconds }

    /// What the signal of the frame `r` was locked onto is divided by for its SINR: the noise
    /// plus the largest interference while it was on the air (and the cutoff's mean term).
    @inline(__always)
    func noiseAndInterference(at r: Int) -> Double { readings.noiseAndInterference(at: r) }

    /// What the MAC's loops over many stations read of the medium while they write the
    /// stations: carrier sense and the SINR's denominator. Copying it retains two objects;
    /// copying the medium would retain every array of its channel.
    struct Readings {
        let columns: ReceiverColumns
        let noiseMw: Double
        /// The cutoff's dropped mean power per receiver (empty without the cutoff) and the
        /// network's mean transmit duty it is multiplied by.
        let droppedMw: [Double]
        let meanDuty: Double
        /// With `radio.farField: "cells"`: the dropped energy per cell from the frames on the air.
        let far: FarFieldCells?

        /// `SharedMedium.mediumIdle(_:)`.
        @inline(__always)
        func mediumIdle(_ i: Int) -> Bool { columns.mediumIdle(i) }

        /// `SharedMedium.idleSince(_:)`.
        @inline(__always)
        func idleSince(_ i: Int) -> SimTime { SimTime(nanoseconds: columns.idleSince[i]) }

        /// `SharedMedium.noiseAndInterference(at:)`.
        @inline(__always)
        func noiseAndInterference(at r: Int) -> Double {
            if let far { return noiseMw + columns.lockedMaxInterferenceMw[r] + far.interference(at: r) }
            if droppedMw.isEmpty { return noiseMw + columns.lockedMaxInterferenceMw[r] }
            return noiseMw + columns.lockedMaxInterferenceMw[r] + droppedMw[r] * meanDuty
        }
    }

    /// The medium's `Readings` as it stands.
    var readings: Readings {
        Readings(columns: columns, noiseMw: channel.noiseMw, droppedMw: channel.droppedMw, meanDuty: meanDuty, far: far)
    }

    /// The cutoff's mean term at time `now`, after `airtime` more was begun: O(1), except after
    /// a move, when the dropped powers are recomputed.
    mutating func updateDroppedMean(now: SimTime, airtime: SimTime) {
        airtimeBegun &+= airtime.nanoseconds
        channel.updateDroppedPowers()
        // The rows may have been rebuilt before this frame (a session update reads them): the
        // far field follows whichever recomputation came last.
        if channel.droppedRevision != farRevision {
            farRevision = channel.droppedRevision
            if far != nil { rebuildFar() }
        }
        let elapsed = Double(Swift.max(now.nanoseconds, 1)) * Double(Swift.max(channel.positions.count, 1))
        meanDuty = Swift.min(1, Double(airtimeBegun) / elapsed)
    }

    /// The columns carrier sense reads and writes, taken once per `begin` or `end` so the
    /// receiver loops hold the pointers in registers: the one definition of how a receiver's
    /// carrier sense changes.
    struct CarrierSense {
        let busyCount: UnsafeMutablePointer<Int32>
        let energyBusy: UnsafeMutablePointer<Bool>
        let interferenceMw: UnsafeMutablePointer<Double>
        let transmitting: UnsafeMutablePointer<Bool>
        let listening: UnsafeMutablePointer<Bool>
        let busySince: UnsafeMutablePointer<Int64>
        let idleSince: UnsafeMutablePointer<Int64>
        let energyDetectionMw: Double

        /// Carrier sense over `c`'s columns, energy detection at `energyDetectionMw`.
        init(_ c: ReceiverColumns, energyDetectionMw: Double) {
            busyCount = c.busyCount
            energyBusy = c.energyBusy
            interferenceMw = c.interferenceMw
            transmitting = c.transmitting
            listening = c.listening
            busySince = c.busySince
            idleSince = c.idleSince
            self.energyDetectionMw = energyDetectionMw
        }

        /// Applies a change of receiver `r`'s inputs (`busyDelta` frames at or above the
        /// preamble threshold, and its interference as it now stands, `interferenceMw`, which
        /// the caller has just computed). A busy/idle transition
        /// of a node not transmitting is stamped at `now` and, if its MAC listens, recorded in
        /// `changes`, into room the caller reserved (`begin` and `end` reserve one entry per
        /// receiver they visit).
        @inline(__always)
        func update(
            _ r: Int, busyDelta: Int32, interferenceMw total: Double, now: SimTime, into changes: PhyIndicationLog
        ) {
            let before = busyCount[r] > 0 || energyBusy[r]
            busyCount[r] &+= busyDelta
            energyBusy[r] = total >= energyDetectionMw
            let after = busyCount[r] > 0 || energyBusy[r]
            guard before != after, !transmitting[r] else { return }
            if after { busySince[r] = now.nanoseconds } else { idleSince[r] = now.nanoseconds }
            if listening[r] { changes.appendReserved(after ? .busy(node: r) : .idle(node: r)) }
        }

        /// `update(r, busyDelta: 1, …)`, for the common case of a crowd locking onto a frame:
        /// with one more frame at the preamble threshold the receiver is busy whatever its
        /// energy, so only one that was idle turns busy.
        @inline(__always)
        func addPreambleFrame(_ r: Int, now: SimTime, into changes: PhyIndicationLog) {
            let wasBusy = busyCount[r] > 0 || energyBusy[r]
            busyCount[r] &+= 1
            energyBusy[r] = interferenceMw[r] >= energyDetectionMw
            guard !wasBusy, !transmitting[r] else { return }
            busySince[r] = now.nanoseconds
            if listening[r] { changes.appendReserved(.busy(node: r)) }
        }
    }

    /// A node that starts transmitting drops the frame it was receiving (half duplex).
    static func abandonReception(_ c: ReceiverColumns, _ i: Int) {
        c.interferenceMw[i] += c.lockedSignalMw[i]
        c.locked[i] = -1
    }

    /// Node `i`'s radio goes off (the frame it was receiving is lost) or on.
    mutating func setOff(_ i: Int, _ off: Bool) {
        let c = uniqueColumns()
        c.off[i] = off
        deafKey = nil
        if off && c.locked[i] >= 0 { Self.abandonReception(c, i) }
    }

    /// The slot start and presence revision `columns.deaf` is computed for, for AWDL presence
    /// revision `revision` at `now` (`nil`: no AWDL, one key for all time).
    @inline(__always)
    static func deafKey(at now: SimTime, revision: UInt64?) -> (slotStart: SimTime, revision: UInt64) {
        (revision == nil ? SimTime.zero : AwdlSchedule.slot(at: now).start, revision ?? 0)
    }

    /// Whether `columns.deaf` is up to date at `now` for AWDL presence revision `revision`
    /// (`AwdlSchedule.presenceRevision`; `nil`: no AWDL).
    @inline(__always)
    func deafIsCurrent(at now: SimTime, revision: UInt64?) -> Bool {
        guard let deafKey else { return false }
        return deafKey == Self.deafKey(at: now, revision: revision)
    }

    /// Recomputes `columns.deaf` (radio off, or with AWDL not on the channel in the slot under
    /// way) for the slot under way at `now`, when it is not current (`deafIsCurrent`): for every
    /// node when the slot, a radio, or (rarely) a node's presence in the slot under way changed;
    /// otherwise it is kept, so a transmission reads one byte per receiver instead of its
    /// sequence and active period. The link checks `deafIsCurrent` itself and calls this only
    /// then, so the schedule is not copied for every transmission.
    mutating func updateDeaf(awdl: AwdlSchedule?, now: SimTime) {
        let revision = awdl?.presenceRevision
        if deafIsCurrent(at: now, revision: revision) { return }
        let c = uniqueColumns()
        let slot = AwdlSchedule.slot(at: now)
        for r in 0..<c.count {
            c.deaf[r] = c.off[r] || (awdl.map { !$0.isPresent(r, slot: slot.index, slotStart: slot.start) } ?? false)
        }
        deafKey = Self.deafKey(at: now, revision: revision)
    }

    /// `begin(_:from:now:airtime:)` with the receivers' deafness brought up to date for `awdl`
    /// first (`updateDeaf`).
    mutating func begin(_ frame: Frame, from i: Int, awdl: AwdlSchedule?, now: SimTime, airtime: SimTime) -> Int {
        updateDeaf(awdl: awdl, now: now)
        return begin(frame, from: i, now: now, airtime: airtime)
    }

    /// `i` starts transmitting `frame` for `airtime`: every receiver within the interaction
    /// range that is on and (with AWDL) present either locks onto it or counts it as
    /// interference. Returns the transmission's slot, whose end the caller schedules.
    /// Carrier-sense transitions of the receivers are recorded in `indications`.
    ///
    /// Two passes over the transmitter's neighbour row. The first computes the received powers
    /// (static power of the pair from the row, blockage, the counter-based fading draw) into
    /// the touch list and stores nothing to the columns, so its iterations overlap. The second
    /// applies them: a receiver below the preamble threshold (the common case in a large
    /// network: in `mesh-1000.json` 92 % of them) takes a branch-free path whether or not it is
    /// locked onto another frame (its interference grows and the running maximum a locked
    /// frame's SINR uses is raised: a value reset at every lock and read only for the frame
    /// locked onto, so it needs no test of the lock), and only a crossing of the
    /// energy-detection threshold goes through carrier sense. Why the receivers are visited
    /// eagerly rather than when needed: docs/decisions/2026-11-22-shared-medium.md, "Why lazy evaluation would not pay here, and a faster eager loop".
    mutating func begin(_ frame: Frame, from i: Int, now: SimTime, airtime: SimTime) -> Int {
        if channel.interactionMarginDb != nil { updateDroppedMean(now: now, airtime: airtime) }
        let slot: Int
        if let free = freeTransmissions.popLast() {
            slot = free
        } else {
            slot = transmissions.count
            transmissions.append(Transmission(frame: frame, source: 0, start: .zero, touched: [], inUse: false))
        }
        // Move the slot's touch list out so writing it does not copy it (no allocation once warm).
        var touched = transmissions[slot].touched
        transmissions[slot].touched = []
        var uniforms = uniformScratch
        uniformScratch = []
        defer { uniformScratch = uniforms }
        let c = uniqueColumns()
        c.transmitting[i] = true
        if c.locked[i] >= 0 { Self.abandonReception(c, i) }
        let (nodes, staticMw) = channel.neighbourhood(of: i)
        let n = nodes.count
        if touched.count < n {
            touched.append(contentsOf: repeatElement(Touch(node: 0, busy: false, powerMw: 0), count: n - touched.count))
        }
        if uniforms.count < n { uniforms.append(contentsOf: repeatElement(0, count: n - uniforms.count)) }
        let fading = channel.fading
        let fadingRow = RicianPowerTable.row(key: channel.fadingKey, transmissionsBegun)
        let fadingBody = fading?.storage.body ?? UnsafeMutableBufferPointer(start: nil, count: 0)
        let preamble = preambleMw
        let blockage = channel.hasBlockage
        let blockedFactor = channel.blockage.factor
        // The sender's row of link states (`LinkBlockage`), read in order beside its receivers.
        var linkStates = channel.blockage.takeStateRow(i)
        let ed = energyDetectionMw
        let changes = uniqueIndications()
        let lockSlot = Int32(truncatingIfNeeded: slot)
        // The columns' storage, read once: stores through them cannot move it.
        let deaf = c.deaf, locked = c.locked, energyBusy = c.energyBusy, transmitting = c.transmitting
        let interference = c.interferenceMw, lockedMax = c.lockedMaxInterferenceMw
        let sense = CarrierSense(c, energyDetectionMw: ed)
        let farCells = uniqueFar()
        changes.reserve(n)  // at most one transition per receiver
        var count = 0
        touched.withUnsafeMutableBufferPointer { out in
            nodes.withUnsafeBufferPointer { nb in
                staticMw.withUnsafeBufferPointer { pw in
                    // Pass 1a: the receivers that hear, their static power and blockage, and
                    // their fading uniforms (short bodies with no store to the columns, so many
                    // iterations are in flight at once).
                    uniforms.withUnsafeMutableBufferPointer { us in
                        linkStates.withUnsafeMutableBufferPointer { ls in
                            if blockage {
                                // Pass 0: the links whose cached state ran out, gathered, their
                                // processes read ahead in one pass (scattered in memory: the
                                // reads' cache misses overlap), then advanced (`LinkBlockage`).
                                var stale = staleScratch
                                staleScratch = []
                                stale.removeAll(keepingCapacity: true)
                                for k in 0..<n where now.nanoseconds >= ls[k] >> 1 && !deaf[Int(nb[k])] {
                                    stale.append(Int32(truncatingIfNeeded: k))
                                }
                                channel.blockage.readAhead(of: i, stale)
                                for k in stale {
                                    let k = Int(k)
                                    ls[k] = channel.blockage.refresh(i, k, Int(nb[k]), at: now)
                                }
                                staleScratch = stale
                            }
                            for k in 0..<n {
                                let r = Int(nb[k])
                                if deaf[r] { continue }
                                var mw = Double(pw[k])
                                if blockage && ls[k] & 1 != 0 { mw *= blockedFactor }
                                out[count] = Touch(node: Int32(truncatingIfNeeded: r), busy: false, powerMw: mw)
                                us[count] = RicianPowerTable.uniformBits(row: fadingRow, UInt64(r))
                                count &+= 1
                            }
                            // Pass 1b: the fading gains through the table.
                            if let fading {
                                for j in 0..<count {
                                    out[j].powerMw *= fading.power(bits: us[j], body: fadingBody)
                                }
                            }
                            for j in 0..<count { out[j].busy = out[j].powerMw >= preamble }
                        }
                    }
                }
            }
            // Pass 2: lock or interfere, and carrier sense.
            for t in out[0..<count] {
                let r = Int(t.node)
                let mw = t.powerMw
                if !t.busy {
                    // Interference only, locked or not; carrier sense changes only if the energy
                    // threshold is crossed.
                    let total = interference[r] + mw
                    interference[r] = total
                    lockedMax[r] = Swift.max(lockedMax[r], total)
                    if (total >= ed) != energyBusy[r] {
                        sense.update(r, busyDelta: 0, interferenceMw: total, now: now, into: changes)
                    }
                    continue
                }
                if !transmitting[r] && locked[r] < 0 {
                    locked[r] = lockSlot
                    c.lockedSignalMw[r] = mw
                    lockedMax[r] = interference[r]
                    if let farCells { farCells.lockedFarMw[r] = farCells.farMw[Int(farCells.cellOf[r])] }
                } else {
                    let total = interference[r] + mw
                    interference[r] = total
                    if locked[r] >= 0 { lockedMax[r] = Swift.max(lockedMax[r], total) }
                }
                sense.addPreambleFrame(r, now: now, into: changes)
            }
        }
        channel.blockage.putStateRow(i, linkStates)
        touched.removeLast(touched.count - count)
        // The sender's dropped pairs join the far field once its near receivers were settled
        // (a receiver that locked onto this frame saw the far field without it).
        if let farCells { applyFarRow(of: i, sign: 1, to: farCells) }
        transmissions[slot] = Transmission(frame: frame, source: i, start: now, touched: touched, inUse: true)
        transmissionsBegun &+= 1
        return slot
    }

    /// The transmission in `slot` ends: receivers locked onto it get `frameEnded`, the others
    /// lose its interference, then carrier sense is updated at every receiver it reached.
    /// Returns the frame and its sender.
    ///
    /// One pass: each receiver's carrier-sense transition depends on its own state only, so it
    /// is decided with the reception and kept in a second log, appended after every
    /// `frameEnded` (the MAC sees the receptions first, as the indications' order promises).
    mutating func end(_ slot: Int, now: SimTime) -> (frame: Frame, source: Int) {
        let tx = transmissions[slot]
        let c = uniqueColumns()
        c.transmitting[tx.source] = false
        let ed = energyDetectionMw
        let changes = uniqueIndications()
        if !isKnownUniquelyReferenced(&carrierScratch) { carrierScratch = PhyIndicationLog() }
        let transitions = carrierScratch
        let lockSlot = Int32(truncatingIfNeeded: slot)
        let locked = c.locked, energyBusy = c.energyBusy, interference = c.interferenceMw
        let sense = CarrierSense(c, energyDetectionMw: ed)
        changes.reserve(tx.touched.count)
        transitions.reserve(tx.touched.count)
        tx.touched.withUnsafeBufferPointer { tb in
            for t in tb {
                let r = Int(t.node)
                let remaining: Double
                if locked[r] == lockSlot {
                    locked[r] = -1
                    changes.appendReserved(.frameEnded(node: r, signalMw: t.powerMw))
                    remaining = interference[r]
                } else {
                    remaining = Swift.max(0, interference[r] - t.powerMw)
                    interference[r] = remaining
                }
                if !t.busy && (remaining >= ed) == energyBusy[r] { continue }  // no change
                sense.update(r, busyDelta: t.busy ? -1 : 0, interferenceMw: remaining, now: now, into: transitions)
            }
        }
        // Busy → idle transitions after every reception was settled.
        changes.append(contentsOf: transitions)
        transitions.removeAll()
        if far != nil { applyFarRow(of: tx.source, sign: -1) }
        transmissions[slot].inUse = false
        freeTransmissions.append(slot)
        return (tx.frame, tx.source)
    }
}

/// The state of every receiver of a `SharedMedium`, one contiguous column per field, so the
/// per-receiver loops read and write plain memory: no bounds or uniqueness checks per
/// receiver. The medium holds it copy-on-write (`SharedMedium.uniqueColumns`), so the medium
/// stays a value.
final class ReceiverColumns: @unchecked Sendable {
    let count: Int
    /// Frames at or above the preamble threshold on the air here.
    let busyCount: UnsafeMutablePointer<Int32>
    /// The transmission slot it is locked onto, or −1.
    let locked: UnsafeMutablePointer<Int32>
    /// The sum of undecodable frames reaches the energy-detection threshold.
    let energyBusy: UnsafeMutablePointer<Bool>
    /// The node is transmitting (half duplex: it hears nothing).
    let transmitting: UnsafeMutablePointer<Bool>
    /// The node's radio is off (failed, or not yet joined).
    let off: UnsafeMutablePointer<Bool>
    /// The node hears nothing in the current AWDL slot: radio off or not on the channel
    /// (`SharedMedium.updateDeaf`).
    let deaf: UnsafeMutablePointer<Bool>
    /// Power of the frames it is not locked onto, mW.
    let interferenceMw: UnsafeMutablePointer<Double>
    /// Power of the frame it is locked onto, and the largest interference while it lasted, mW.
    let lockedSignalMw: UnsafeMutablePointer<Double>
    let lockedMaxInterferenceMw: UnsafeMutablePointer<Double>
    /// Its MAC wants busy/idle indications (`SharedMedium.setListening`).
    let listening: UnsafeMutablePointer<Bool>
    /// When carrier sense last turned busy, and idle, ns (−1 s and 0 at first: idle since the
    /// start, busy long before it).
    let busySince: UnsafeMutablePointer<Int64>
    let idleSince: UnsafeMutablePointer<Int64>

    /// `count` idle receivers.
    init(count: Int) {
        self.count = count
        busyCount = .allocate(capacity: Swift.max(count, 1))
        locked = .allocate(capacity: Swift.max(count, 1))
        energyBusy = .allocate(capacity: Swift.max(count, 1))
        transmitting = .allocate(capacity: Swift.max(count, 1))
        off = .allocate(capacity: Swift.max(count, 1))
        deaf = .allocate(capacity: Swift.max(count, 1))
        interferenceMw = .allocate(capacity: Swift.max(count, 1))
        lockedSignalMw = .allocate(capacity: Swift.max(count, 1))
        lockedMaxInterferenceMw = .allocate(capacity: Swift.max(count, 1))
        listening = .allocate(capacity: Swift.max(count, 1))
        busySince = .allocate(capacity: Swift.max(count, 1))
        idleSince = .allocate(capacity: Swift.max(count, 1))
        busyCount.initialize(repeating: 0, count: count)
        locked.initialize(repeating: -1, count: count)
        energyBusy.initialize(repeating: false, count: count)
        transmitting.initialize(repeating: false, count: count)
        off.initialize(repeating: false, count: count)
        deaf.initialize(repeating: false, count: count)
        interferenceMw.initialize(repeating: 0, count: count)
        lockedSignalMw.initialize(repeating: 0, count: count)
        lockedMaxInterferenceMw.initialize(repeating: 0, count: count)
        listening.initialize(repeating: true, count: count)
        busySince.initialize(repeating: -1_000_000_000, count: count)
        idleSince.initialize(repeating: 0, count: count)
    }

    /// Whether carrier sense at `i` reports busy: a frame at the preamble threshold on the air,
    /// or the rest reaching the energy-detection threshold.
    @inline(__always) func sensesBusy(_ i: Int) -> Bool { busyCount[i] > 0 || energyBusy[i] }
    /// Whether `i` may count down its back-off: nothing sensed and not transmitting.
    @inline(__always) func mediumIdle(_ i: Int) -> Bool { !sensesBusy(i) && !transmitting[i] }

    /// An independent copy.
    func copy() -> ReceiverColumns {
        let c = ReceiverColumns(count: count)
        c.busyCount.update(from: busyCount, count: count)
        c.locked.update(from: locked, count: count)
        c.energyBusy.update(from: energyBusy, count: count)
        c.transmitting.update(from: transmitting, count: count)
        c.off.update(from: off, count: count)
        c.deaf.update(from: deaf, count: count)
        c.interferenceMw.update(from: interferenceMw, count: count)
        c.lockedSignalMw.update(from: lockedSignalMw, count: count)
        c.lockedMaxInterferenceMw.update(from: lockedMaxInterferenceMw, count: count)
        c.listening.update(from: listening, count: count)
        c.busySince.update(from: busySince, count: count)
        c.idleSince.update(from: idleSince, count: count)
        return c
    }

    deinit {
        busyCount.deallocate()
        locked.deallocate()
        energyBusy.deallocate()
        transmitting.deallocate()
        off.deallocate()
        deaf.deallocate()
        interferenceMw.deallocate()
        lockedSignalMw.deallocate()
        lockedMaxInterferenceMw.deallocate()
        listening.deallocate()
        busySince.deallocate()
        idleSince.deallocate()
    }
}

/// The `PhyIndication`s of one medium call, in order: a growable buffer appended to without a
/// uniqueness check per indication (the owner checks once per call, as for `ReceiverColumns`).
final class PhyIndicationLog: @unchecked Sendable {
    private(set) var items: UnsafeMutablePointer<PhyIndication>
    private(set) var count = 0
    private var capacity: Int

    /// An empty log.
    init(capacity: Int = 64) {
        self.capacity = capacity
        items = .allocate(capacity: capacity)
    }

    var isEmpty: Bool { count == 0 }

    /// Appends `indication`.
    @inline(__always)
    func append(_ indication: PhyIndication) {
        if count == capacity { grow() }
        (items + count).initialize(to: indication)
        count &+= 1
    }

    @inline(never)
    private func grow() {
        let bigger = UnsafeMutablePointer<PhyIndication>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: items, count: count)
        items.deallocate()
        items = bigger
        capacity *= 2
    }

    /// Makes room for `more` appends without growing (`appendReserved`).
    @inline(__always)
    func reserve(_ more: Int) {
        while capacity - count < more { grow() }
    }

    /// Appends `indication` into room made by `reserve`.
    @inline(__always)
    func appendReserved(_ indication: PhyIndication) {
        (items + count).initialize(to: indication)
        count &+= 1
    }

    /// Appends every indication of `other`, in order.
    func append(contentsOf other: PhyIndicationLog) {
        reserve(other.count)
        (items + count).initialize(from: other.items, count: other.count)
        count &+= other.count
    }

    /// Empties the log, keeping its storage.
    func removeAll() {
        items.deinitialize(count: count)
        count = 0
    }

    /// An independent copy.
    func copy() -> PhyIndicationLog {
        let c = PhyIndicationLog(capacity: capacity)
        c.items.initialize(from: items, count: count)
        c.count = count
        return c
    }

    deinit {
        items.deinitialize(count: count)
        items.deallocate()
    }
}

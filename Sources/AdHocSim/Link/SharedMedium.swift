/// What the PHY tells the MAC above it (as ns-3's `WifiPhyListener`): the medium at a node
/// turned busy or idle, and a frame the node was locked onto ended. The medium records these
/// in order while it handles a transmission's start or end; the MAC takes them afterwards, so
/// neither layer calls into the other's state.
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
    /// One receiver a transmission reached, and at what power.
    struct Touch: Sendable {
        var node: Int32
        var powerMw: Double
        var busy: Bool
    }

    /// A transmission on the air.
    struct Transmission: Sendable {
        var frame: Frame
        var source: Int
        var start: SimTime
        var touched: [Touch]
        var inUse: Bool
    }

    /// One node's receiver.
    struct Receiver: Sendable {
        /// Frames at or above the preamble threshold on the air here.
        var busyCount = 0
        /// The sum of undecodable frames reaches the energy-detection threshold.
        var energyBusy = false
        /// The node is transmitting (half duplex: it hears nothing).
        var transmitting = false
        /// The node's radio is off (failed, or not yet joined).
        var off = false
        /// Power of the frames it is not locked onto, mW.
        var interferenceMw = 0.0
        /// The transmission slot it is locked onto, or −1.
        var locked = -1
        var lockedSignalMw = 0.0
        var lockedMaxInterferenceMw = 0.0
    }

    /// The channel: who hears whom, at what power.
    public internal(set) var channel: WirelessChannel
    var receivers: [Receiver]
    var transmissions: [Transmission] = []
    var freeTransmissions: [Int] = []
    /// Transmissions begun so far: the next one's number (its fading draws' counter).
    var transmissionsBegun: UInt64 = 0
    /// What happened since the MAC last took them, in order.
    var indications: [PhyIndication] = []
    let preambleMw: Double
    let energyDetectionMw = Decibel.milliwatts(fromDbm: -62)

    /// The medium of `channel`, every receiver idle.
    public init(channel: WirelessChannel) {
        self.channel = channel
        receivers = Array(repeating: Receiver(), count: channel.positions.count)
        preambleMw = Decibel.milliwatts(fromDbm: channel.radio.preambleDetectionDbm)
    }

    /// Whether carrier sense at `i` reports busy.
    @inline(__always) func sensesBusy(_ i: Int) -> Bool { receivers[i].busyCount > 0 || receivers[i].energyBusy }
    /// Whether `i` may count down its back-off: nothing sensed and not transmitting.
    @inline(__always) func mediumIdle(_ i: Int) -> Bool { !sensesBusy(i) && !receivers[i].transmitting }
    /// Whether `i` is transmitting.
    @inline(__always) func isTransmitting(_ i: Int) -> Bool { receivers[i].transmitting }
    /// Whether `i`'s radio is off.
    @inline(__always) func isOff(_ i: Int) -> Bool { receivers[i].off }

    /// The SINR (linear) of the frame `r` was locked onto: signal over noise plus the largest
    /// interference while it was on the air.
    func sinr(at r: Int, signalMw: Double) -> Double {
        signalMw / (channel.noiseMw + receivers[r].lockedMaxInterferenceMw)
    }

    /// Applies a change of node `r`'s carrier-sense inputs; records a busy/idle transition.
    @inline(__always)
    mutating func updateCarrierSense(_ r: Int, busyDelta: Int) {
        let before = sensesBusy(r)
        receivers[r].busyCount += busyDelta
        receivers[r].energyBusy = receivers[r].interferenceMw >= energyDetectionMw
        let after = sensesBusy(r)
        guard before != after, !receivers[r].transmitting else { return }
        indications.append(after ? .busy(node: r) : .idle(node: r))
    }

    /// `updateCarrierSense` on a receiver's storage, recording into `changes`.
    @inline(__always)
    static func updateCarrierSense(
        _ rx: inout Receiver, _ r: Int, busyDelta: Int, energyDetectionMw: Double, into changes: inout [PhyIndication]
    ) {
        let before = rx.busyCount > 0 || rx.energyBusy
        rx.busyCount += busyDelta
        rx.energyBusy = rx.interferenceMw >= energyDetectionMw
        let after = rx.busyCount > 0 || rx.energyBusy
        guard before != after, !rx.transmitting else { return }
        changes.append(after ? .busy(node: r) : .idle(node: r))
    }

    /// A node that starts transmitting drops the frame it was receiving (half duplex).
    mutating func abandonReception(_ i: Int) {
        receivers[i].interferenceMw += receivers[i].lockedSignalMw
        receivers[i].locked = -1
    }

    /// Node `i`'s radio goes off (the frame it was receiving is lost) or on.
    mutating func setOff(_ i: Int, _ off: Bool) {
        receivers[i].off = off
        if off && receivers[i].locked >= 0 { abandonReception(i) }
    }

    /// `i` starts transmitting `frame` for `airtime`: every receiver within the interaction
    /// range that is on and (with AWDL) present either locks onto it or counts it as
    /// interference. Returns the transmission's slot, whose end the caller schedules.
    /// Carrier-sense transitions of the receivers are recorded in `indications`.
    mutating func begin(_ frame: Frame, from i: Int, awdl: AwdlSchedule?, now: SimTime) -> Int {
        let slot: Int
        if let free = freeTransmissions.popLast() {
            slot = free
        } else {
            slot = transmissions.count
            transmissions.append(Transmission(frame: frame, source: 0, start: .zero, touched: [], inUse: false))
        }
        // Move the slot's touch list out so appending does not copy it (no allocation once warm).
        var touched = transmissions[slot].touched
        transmissions[slot].touched = []
        touched.removeAll(keepingCapacity: true)
        receivers[i].transmitting = true
        if receivers[i].locked >= 0 { abandonReception(i) }
        let neighbours = channel.neighbours(of: i)
        // Pass 1: the received powers, in neighbour order (the fading draws' order).
        let awdlSlot = AwdlSchedule.slot(at: now)
        for n in neighbours {
            let r = Int(n)
            if receivers[r].off { continue }
            if let awdl, !awdl.isPresent(r, slot: awdlSlot.index, slotStart: awdlSlot.start) { continue }
            let mw = channel.frameRxMw(from: i, to: r, at: now, transmission: transmissionsBegun)
            touched.append(Touch(node: Int32(r), powerMw: mw, busy: mw >= preambleMw))
        }
        // Pass 2: lock or interfere, and carrier sense, over the receivers' storage directly
        // (one uniqueness check per transmission instead of several per receiver).
        let ed = energyDetectionMw
        var changes = indications
        indications = []
        receivers.withUnsafeMutableBufferPointer { rb in
            for t in touched {
                let r = Int(t.node)
                let mw = t.powerMw
                if !rb[r].transmitting && rb[r].locked < 0 && t.busy {
                    rb[r].locked = slot
                    rb[r].lockedSignalMw = mw
                    rb[r].lockedMaxInterferenceMw = rb[r].interferenceMw
                } else {
                    rb[r].interferenceMw += mw
                    if rb[r].locked >= 0 {
                        rb[r].lockedMaxInterferenceMw = Swift.max(rb[r].lockedMaxInterferenceMw, rb[r].interferenceMw)
                    }
                }
                Self.updateCarrierSense(&rb[r], r, busyDelta: t.busy ? 1 : 0, energyDetectionMw: ed, into: &changes)
            }
        }
        indications = changes
        transmissions[slot] = Transmission(frame: frame, source: i, start: now, touched: touched, inUse: true)
        transmissionsBegun &+= 1
        return slot
    }

    /// The transmission in `slot` ends: receivers locked onto it get `frameEnded`, the others
    /// lose its interference, then carrier sense is updated at every receiver it reached.
    /// Returns the frame and its sender.
    mutating func end(_ slot: Int) -> (frame: Frame, source: Int) {
        let tx = transmissions[slot]
        receivers[tx.source].transmitting = false
        let ed = energyDetectionMw
        var changes = indications
        indications = []
        receivers.withUnsafeMutableBufferPointer { rb in
            for t in tx.touched {
                let r = Int(t.node)
                if rb[r].locked == slot {
                    rb[r].locked = -1
                    changes.append(.frameEnded(node: r, signalMw: t.powerMw))
                } else {
                    rb[r].interferenceMw = Swift.max(0, rb[r].interferenceMw - t.powerMw)
                }
            }
            // Busy → idle transitions after every reception was settled.
            for t in tx.touched {
                Self.updateCarrierSense(
                    &rb[Int(t.node)], Int(t.node), busyDelta: t.busy ? -1 : 0, energyDetectionMw: ed, into: &changes)
            }
        }
        indications = changes
        transmissions[slot].inUse = false
        freeTransmissions.append(slot)
        return (tx.frame, tx.source)
    }
}

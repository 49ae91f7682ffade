import Foundation

/// An LE connection and the GATT notifications it carries: connection
/// events every `interval` from the anchor a CONNECT_IND sets, a data channel per event from
/// channel selection algorithm #1 or #2, and in each event central–peripheral exchanges of LL
/// data PDUs T_IFS apart, acknowledged by SN/NESN (an unacknowledged PDU is sent again in the
/// next exchange), while the peripheral has more data and the next exchange fits before the
/// next anchor (Core Specification v5.4, Vol 6, Part B §4.5). A notification's value, with its
/// ATT (3 bytes) and L2CAP (4 bytes) headers, is split into LL PDUs of at most `dataLength`
/// bytes (Vol 3, Part A §3; Part F §3.4.7.1).
///
/// Each PDU is its own event and meets the medium as it is then: the link budget against the
/// noise floor plus the Wi-Fi frames on the air, through the GFSK error model. Not modelled
/// yet: the connection's own PDUs on the medium (advertising receivers do not hear them), the LL
/// control procedures (the ATT MTU and data length are taken as already exchanged),
/// encryption, and parameter updates.
public struct BleConnectionSpec: Sendable, Equatable {
    /// The central (the phone) and the peripheral, node indices.
    public var central: Int
    /// See `central`.
    public var peripheral: Int
    /// When the central sends CONNECT_IND.
    public var at: SimTime
    /// connInterval, ms (a multiple of 1.25 in 7.5 … 4 000).
    public var intervalMs: Double
    /// Peripheral latency: events a peripheral with nothing to send may skip (0 … 499).
    public var latency: Int
    /// connSupervisionTimeout, ms.
    public var supervisionTimeoutMs: Double
    /// The data PHY.
    public var phy: BlePhy
    /// The LL payload limit, bytes: 27, or up to 251 with the data length extension.
    public var dataLength: Int
    /// ATT_MTU, bytes (23 … 517).
    public var mtu: Int
    /// The channel selection algorithm, 1 or 2.
    public var channelSelection: Int
    /// The data channels used (the channel map; all 37 by default).
    public var channelMap = BleChannelMap.all
    /// Both ends' transmit power, dBm.
    public var txPowerDbm: Double
    /// Value bytes the peripheral notifies, all queued at the connection's start.
    public var notifyBytes: Int
    /// Whether the central is an iPhone, whose parameter rules then apply (`BleConnectionSpec.iosProblems`).
    public var iosCentral = true
    /// Whether the central initiates from what it hears: from `at` on, a scanner of the central's
    /// node that decodes a connectable advertising PDU of the peripheral's advertiser answers it
    /// with CONNECT_IND T_IFS after its end (Vol 6, Part B §4.4.4); the peripheral's advertising
    /// then stops unless `advertisesWhenConnected`. `false`: CONNECT_IND at `at`.
    public var initiate = false

    /// Where the parameters break the rules an Apple central applies (Accessory Design
    /// Guidelines for Apple Devices, "Connection Parameters", as Silicon Labs' application note
    /// on parameters for Apple devices quotes it): peripheral latency ≤ 30; 2 s ≤
    /// connSupervisionTimeout ≤ 6 s; the interval a multiple of 15 ms and at least 15 ms;
    /// interval × (latency + 1) ≤ 2 s; interval × (latency + 1) × 3 < connSupervisionTimeout.
    /// Each problem with the key it concerns.
    public var iosProblems: [(key: String, message: String)] {
        var out: [(String, String)] = []
        let lat = Double(latency + 1)
        if latency > 30 { out.append(("latency", "an iPhone central accepts a peripheral latency of at most 30")) }
        if supervisionTimeoutMs < 2000 || supervisionTimeoutMs > 6000 {
            out.append(("supervisionTimeoutMs", "an iPhone central accepts a supervision timeout of 2 to 6 s"))
        }
        if intervalMs < 15 || abs(intervalMs / 15 - (intervalMs / 15).rounded()) > 1e-9 {
            out.append(
                ("intervalMs", "an iPhone central accepts intervals that are multiples of 15 ms, at least 15 ms"))
        } else if intervalMs * lat > 2000 {
            out.append(("intervalMs", "an iPhone central needs interval × (latency + 1) ≤ 2 s"))
        } else if intervalMs * lat * 3 >= supervisionTimeoutMs {
            out.append(
                (
                    "supervisionTimeoutMs",
                    "an iPhone central needs interval × (latency + 1) × 3 < the supervision timeout"
                ))
        }
        return out
    }

    /// The value bytes one notification carries: ATT_MTU − 3 (the notification's opcode and
    /// handle).
    public var valuePerNotification: Int { mtu - 3 }
    /// The LL PDUs one notification takes: its value plus ATT's 3 and L2CAP's 4 header bytes,
    /// in pieces of at most `dataLength`.
    public var pdusPerNotification: Int { (valuePerNotification + 7 + dataLength - 1) / dataLength }
    /// The payload of a notification's fragment `k` (0-based): `dataLength`, the last one the rest.
    public func fragmentBytes(_ k: Int) -> Int {
        k < pdusPerNotification - 1 ? dataLength : valuePerNotification + 7 - (pdusPerNotification - 1) * dataLength
    }
}

/// Timing constants of a connection (Core Specification v5.4, Vol 6, Part B).
public enum BleConnectionTiming {
    /// T_IFS, 150 µs (§4.1.1).
    public static let interFrameSpace = SimTime.microseconds(150)
    /// transmitWindowDelay after a legacy CONNECT_IND, 1.25 ms (§4.5.3).
    public static let transmitWindowDelay = SimTime.microseconds(1250)
    /// An LL data PDU's header, bytes (§2.4).
    public static let headerBytes = 2
}

/// A connection's state as it runs.
struct BleConnectionState {
    let spec: BleConnectionSpec
    /// Whether CONNECT_IND has gone (an initiating central waits for an advertisement).
    var started = false
    /// The peripheral's advertiser, if it has one (it stops advertising while connected).
    var advertiser: Int?
    let interval: SimTime
    /// The PHY's bit-error model (built once, not per PDU).
    let errorModel: BleErrorModel
    var map: BleChannelMap { spec.channelMap }
    let identifier: UInt16
    let hop: Int
    var stream: RandomStream
    var counter: UInt16 = 0
    var lastUnmapped = 0
    /// PDUs still to deliver, and the fragments of the notification under way delivered.
    var pdusLeft: Int
    var fragmentsDone = 0
    var valueBytesDelivered = 0
    var events: UInt64 = 0
    var pdusSent: UInt64 = 0
    var retransmissions: UInt64 = 0
    var firstAnchor: SimTime
    var lastHeard: SimTime
    var completed: SimTime?
    var lost: SimTime?
    /// The current event's channel and start.
    var channel = 0
    var eventStart = SimTime.zero
    var channelsUsed = Array(repeating: UInt32(0), count: 37)
}

extension BleNetwork {
    /// Sets up connection `c` and schedules its first event: the CONNECT_IND's airtime, then
    /// transmitWindowDelay (the central sends at the start of the transmit window, an
    /// assumption; transmitWindowOffset 0).
    mutating func addConnection(_ c: Int, _ spec: BleConnectionSpec, sim: inout Simulation) {
        var stream = sim.randomStream(named: "ble:conn:\(c)/link")
        let accessAddress = UInt32(truncatingIfNeeded: stream.uniformInt(below: 1 << 32))
        let hop = 5 + Int(stream.uniformInt(below: 12))  // CONNECT_IND's Hop: 5 … 16 (§2.3.3.1)
        let n =
            spec.notifyBytes == 0 ? 0 : (spec.notifyBytes + spec.valuePerNotification - 1) / spec.valuePerNotification
        var state = BleConnectionState(
            spec: spec, interval: .nanoseconds(Int64((spec.intervalMs * 1e6).rounded())),
            errorModel: BleErrorModel(phy: spec.phy),
            identifier: BleChannelSelection.channelIdentifier(accessAddress: accessAddress), hop: hop, stream: stream,
            pdusLeft: n * spec.pdusPerNotification, firstAnchor: spec.at, lastHeard: spec.at)
        state.advertiser = advertisers.firstIndex { $0.spec.node == spec.peripheral }
        connections.append(state)
        if !spec.initiate { connectIndSent(c, at: spec.at, sim: &sim) }
    }

    /// Connection `c`'s CONNECT_IND goes at `t` (1M, on the advertising channel): its first
    /// event comes after the PDU and transmitWindowDelay.
    mutating func connectIndSent(_ c: Int, at t: SimTime, sim: inout Simulation) {
        let connectInd = BlePhy.le1M.airtime(pduBytes: BlePduType.connectInd.pduBytes(dataBytes: 0))
        let first = t + connectInd + BleConnectionTiming.transmitWindowDelay
        connections[c].started = true
        connections[c].firstAnchor = first
        connections[c].lastHeard = first
        if let a = connections[c].advertiser { advertisers[a].connectedSince = t }
        sim.schedule(at: first, target: UInt32(c), kind: .bleConnectionEvent, arg: ConnectionStep.anchor.rawValue)
    }

    /// Scanner `s` decoded a connectable PDU of advertiser `a` that ended now: a connection
    /// whose central initiates from this pair answers it with CONNECT_IND after T_IFS.
    mutating func initiateIfWaiting(scanner s: Int, advertiser a: Int, sim: inout Simulation) {
        for c in connections.indices where !connections[c].started && connections[c].spec.initiate {
            let spec = connections[c].spec
            guard spec.central == scanners[s].spec.node, spec.peripheral == advertisers[a].spec.node, sim.now >= spec.at
            else { continue }
            connectIndSent(c, at: sim.now + BleConnectionTiming.interFrameSpace, sim: &sim)
        }
    }

    /// Whether a PDU of `pduBytes` from `from` reaches `to` now on data channel `channel`: the
    /// link budget (median loss and shadowing of the place) against the noise floor plus what
    /// the medium carries now on that channel (2.4 GHz Wi-Fi frames through the transmit mask,
    /// `BleChannel.wifiCoupling`; advertising PDUs are on other channels), through the PHY's
    /// error model. The interference is the medium's state as the PDU starts; the connection's
    /// own PDUs are not put on the medium (advertising receivers do not hear them).
    mutating func connectionPduArrives(_ c: Int, pduBytes: Int, from: Int, to: Int, channel: Int, now: SimTime) -> Bool
    {
        let spec = connections[c].spec
        let rx = spec.txPowerDbm - medium.meanLossDb(from, to, at: now)
        var interference = 0.0
        for slot in medium.live {
            let t = medium.transmissions[Int(slot)]
            let share =
                t.wifi
                ? BleChannel.wifiCoupling(
                    bleChannel: channel, wifiChannel: t.channel, bandwidthHz: spec.phy.noiseBandwidthHz)
                : (t.channel == channel ? 1 : 0)
            guard share > 0 else { continue }
            interference += Decibel.milliwatts(fromDbm: t.txDbm - medium.meanLossDb(t.senderNode, to, at: now)) * share
        }
        let sinr = Decibel.linear(fromDb: rx) / (medium.noiseMw + interference)
        let bits = Double((pduBytes + 3) * 8)
        let p = exp(connections[c].errorModel.logSuccess(sinr: sinr, bits: bits))
        return connections[c].stream.uniform() < p
    }

    /// What a connection event's argument says: the anchor (0), the central's PDU of an
    /// exchange (1), or the peripheral's answer (2).
    enum ConnectionStep: UInt64 {
        case anchor = 0, central = 1, peripheral = 2
    }

    /// One step of connection `c`. At the anchor: the event's channel, the supervision timer (a
    /// link that heard nothing for `supervisionTimeoutMs` is lost), the next anchor, and the
    /// first exchange. Each exchange: the central's PDU, T_IFS, the peripheral's answer (data
    /// or empty), T_IFS; exchanges go on while the peripheral has data and the next one fits
    /// before the next anchor (§4.5.6), each PDU as its own event so it meets the medium as it
    /// is then.
    mutating func connectionStep(_ c: Int, _ step: ConnectionStep, sim: inout Simulation) {
        let spec = connections[c].spec
        let ifs = BleConnectionTiming.interFrameSpace
        let empty = spec.phy.airtime(pduBytes: BleConnectionTiming.headerBytes)
        switch step {
        case .anchor:
            let timeout = SimTime.nanoseconds(Int64((spec.supervisionTimeoutMs * 1e6).rounded()))
            if sim.now - connections[c].lastHeard > timeout {
                connections[c].lost = connections[c].lastHeard + timeout
                if let a = connections[c].advertiser { advertisers[a].connectedSince = nil }  // it advertises again
                return
            }
            var x = connections[c]
            if spec.channelSelection == 2 {
                x.channel = BleChannelSelection.algorithm2(counter: x.counter, identifier: x.identifier, map: x.map)
            } else {
                let r = BleChannelSelection.algorithm1(lastUnmapped: x.lastUnmapped, hop: x.hop, map: x.map)
                x.channel = r.channel
                x.lastUnmapped = r.unmapped
            }
            x.channelsUsed[x.channel] += 1
            x.counter &+= 1
            x.events += 1
            x.eventStart = sim.now
            connections[c] = x
            sim.schedule(
                at: sim.now + x.interval, target: UInt32(c), kind: .bleConnectionEvent,
                arg: ConnectionStep.anchor.rawValue)
            // An idle peripheral listens only every (latency + 1)th event.
            guard x.pdusLeft > 0 || spec.latency == 0 || x.events % UInt64(spec.latency + 1) == 1 else { return }
            connectionStep(c, .central, sim: &sim)
        case .central:
            let x = connections[c]
            guard !medium.down[spec.central], !medium.down[spec.peripheral] else { return }
            let payload = x.pdusLeft > 0 ? spec.fragmentBytes(x.fragmentsDone) : 0
            let reply = spec.phy.airtime(pduBytes: BleConnectionTiming.headerBytes + payload)
            guard sim.now + empty + ifs + reply + ifs <= x.eventStart + x.interval else { return }
            connections[c].pdusSent += 1
            let heard = connectionPduArrives(
                c, pduBytes: BleConnectionTiming.headerBytes, from: spec.central, to: spec.peripheral,
                channel: x.channel,
                now: sim.now)
            guard heard else { return }  // no answer: the central closes the event (§4.5.6)
            connections[c].lastHeard = sim.now + empty
            sim.schedule(
                at: sim.now + empty + ifs, target: UInt32(c), kind: .bleConnectionEvent,
                arg: ConnectionStep.peripheral.rawValue)
        case .peripheral:
            var x = connections[c]
            guard !medium.down[spec.peripheral] else { return }
            let carries = x.pdusLeft > 0
            let payload = carries ? spec.fragmentBytes(x.fragmentsDone) : 0
            let reply = spec.phy.airtime(pduBytes: BleConnectionTiming.headerBytes + payload)
            x.pdusSent += 1
            connections[c] = x
            let got = connectionPduArrives(
                c, pduBytes: BleConnectionTiming.headerBytes + payload, from: spec.peripheral, to: spec.central,
                channel: x.channel, now: sim.now)
            x = connections[c]
            defer { connections[c] = x }
            guard got else {
                if carries { x.retransmissions += 1 }  // not acknowledged: sent again (SN/NESN)
                return
            }
            x.lastHeard = sim.now + reply
            guard carries else { return }  // nothing more to say (MD = 0)
            x.pdusLeft -= 1
            x.fragmentsDone += 1
            if x.fragmentsDone == spec.pdusPerNotification {
                x.fragmentsDone = 0
                x.valueBytesDelivered = min(spec.notifyBytes, x.valueBytesDelivered + spec.valuePerNotification)
                if x.pdusLeft == 0 { x.completed = sim.now + reply }
            }
            if x.pdusLeft > 0 {
                sim.schedule(
                    at: sim.now + reply + ifs, target: UInt32(c), kind: .bleConnectionEvent,
                    arg: ConnectionStep.central.rawValue)
            }
        }
    }
}

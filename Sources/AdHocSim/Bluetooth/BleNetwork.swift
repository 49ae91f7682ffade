/// Bluetooth LE's event kinds, with the numbers they have in every fingerprint (block 240–249).
enum BleEventKind: UInt16, CaseIterable {
    /// An advertising event starts (target: advertiser).
    case advertisingEvent = 240
    /// An advertiser sends the PDU of its current channel (target: advertiser; arg: generation).
    case advertiserSend = 241
    /// An advertiser's listening slot after a PDU ends empty (target: advertiser; arg: generation).
    case advertiserListenEnd = 242
    /// A transmission ends (target: its slot in the medium).
    case transmissionEnd = 243
    /// A scan window opens (arg 1) or closes (arg 0) (target: scanner).
    case scanWindow = 244
    /// A scanner sends SCAN_REQ (target: scanner; arg: generation).
    case scanRequest = 245
    /// An advertiser sends SCAN_RSP (target: advertiser; arg: scanner).
    case scanResponse = 246
    /// A scanner stops waiting for SCAN_RSP (target: scanner; arg: generation).
    case scanResponseTimeout = 247
    /// A Wi-Fi transmitter may start a frame (target: transmitter).
    case wifiFrame = 248
    /// A connection event (target: connection).
    case connectionEvent = 249
}

extension EventKind {
    /// `BleEventKind.advertisingEvent`.
    public static let bleAdvertisingEvent = EventKind(BleEventKind.advertisingEvent)
    /// `BleEventKind.advertiserSend`.
    public static let bleAdvertiserSend = EventKind(BleEventKind.advertiserSend)
    /// `BleEventKind.advertiserListenEnd`.
    public static let bleAdvertiserListenEnd = EventKind(BleEventKind.advertiserListenEnd)
    /// `BleEventKind.transmissionEnd`.
    public static let bleTransmissionEnd = EventKind(BleEventKind.transmissionEnd)
    /// `BleEventKind.scanWindow`.
    public static let bleScanWindow = EventKind(BleEventKind.scanWindow)
    /// `BleEventKind.scanRequest`.
    public static let bleScanRequest = EventKind(BleEventKind.scanRequest)
    /// `BleEventKind.scanResponse`.
    public static let bleScanResponse = EventKind(BleEventKind.scanResponse)
    /// `BleEventKind.scanResponseTimeout`.
    public static let bleScanResponseTimeout = EventKind(BleEventKind.scanResponseTimeout)
    /// `BleEventKind.wifiFrame`.
    public static let bleWifiFrame = EventKind(BleEventKind.wifiFrame)
    /// `BleEventKind.connectionEvent`.
    public static let bleConnectionEvent = EventKind(BleEventKind.connectionEvent)
}

/// What one scanner learnt about one advertiser.
public struct BlePairRecord: Sendable, Equatable {
    /// Advertising PDUs that reached the scanner above its sync threshold while it listened on
    /// their channel for their whole airtime: the ones it could have received.
    public var heardable: UInt32 = 0
    /// Advertising PDUs it decoded.
    public var received: UInt32 = 0
    /// SCAN_RSPs it decoded.
    public var responses: UInt32 = 0
    /// Reports the app got (one per identifier with duplicate filtering, else one per PDU).
    public var reports: UInt32 = 0
    /// Distinct identifiers (addresses) the app saw for this advertiser.
    public var identifiers: UInt32 = 0
    var lastEpoch: Int64 = -1
    var respondedEpoch: Int64 = -1
    /// The last address number decoded and what the app was shown for it (`shownAddress`).
    var addressEpoch: Int64 = -1
    var shownEpoch: Int64 = -1
    /// What a bonded phone's app is shown for every resolvable private address it resolves: the
    /// device's identity, one identifier across rotations.
    static let identity: Int64 = 1 << 40
    /// The address number of the app's first report (−1: none).
    public var firstEpoch: Int64 = -1
    /// First decoded advertising PDU, first app report, first SCAN_RSP.
    public var firstReceived: SimTime?
    /// See `firstReceived`.
    public var firstReport: SimTime?
    /// See `firstReceived`.
    public var firstResponse: SimTime?
    /// Sums over the RSSI samples the app saw (dBm), and of the true distance at each.
    public var rssiSum = 0.0
    /// See `rssiSum`.
    public var rssiSquares = 0.0
    /// See `rssiSum`.
    public var distanceSum = 0.0
    /// Number of RSSI samples.
    public var rssiCount: UInt32 = 0
}

/// One RSSI sample an app saw (`ble.recordRssi`).
public struct BleRssiSample: Sendable, Equatable {
    /// When.
    public var time: SimTime
    /// Scanner and advertiser indices.
    public var scanner: Int
    /// See `scanner`.
    public var advertiser: Int
    /// Reported RSSI, dBm (whole numbers, as CoreBluetooth reports them).
    public var rssi: Int
    /// True distance, m.
    public var distance: Double
}

/// Bluetooth LE advertising and scanning of one run: advertisers, scanners, Wi-Fi
/// interferers and the medium they share. The world routes the `bluetooth` event block here.
public struct BleNetwork {
    let spec: BleSpec
    /// Per node: failed (its phone down), and its Bluetooth switched off.
    var failed: [Bool] = []
    var poweredOff: [Bool] = []
    /// `spec.limitedDiscoverableS` as a time.
    let limitedTimeout: SimTime
    var medium: BleMedium
    var advertisers: [BleAdvertiserState] = []
    var scanners: [BleScannerState] = []
    var wifi: [BleWifiState] = []
    /// Per receiver: the scanner or advertiser it belongs to (−1 for the other role).
    var scannerOf: [Int] = []
    var advertiserOf: [Int] = []
    /// Per scanner × advertiser (`s * advertisers + a`).
    public internal(set) var pairs: [BlePairRecord]
    /// Every app-visible RSSI sample, when `ble.recordRssi`.
    public internal(set) var samples: [BleRssiSample] = []
    /// The connections (`ble.connections`), in file order.
    var connections: [BleConnectionState] = []

    /// Builds the network of `spec` over `nodes` in `place` and schedules its first events.
    public init(_ spec: BleSpec, nodes: NodeTable, place: PlaceParameters, sim: inout Simulation) {
        self.spec = spec
        limitedTimeout = .seconds(spec.limitedDiscoverableS)
        medium = BleMedium(place: place, nodes: nodes, seed: sim.seed)
        failed = Array(repeating: false, count: nodes.count)
        poweredOff = failed
        pairs = Array(repeating: BlePairRecord(), count: spec.scanners.count * spec.advertisers.count)
        let rotation = SimTime.seconds(spec.addressRotationS)
        for (s, sc) in spec.scanners.enumerated() {
            let r = medium.addReceiver(node: sc.node, name: "ble:scanner:\(s)/receive")
            scanners.append(
                BleScannerState(spec: sc, receiver: r, stream: sim.randomStream(named: "ble:scanner:\(s)/backoff")))
            sim.schedule(at: sc.start, target: UInt32(s), kind: .bleScanWindow, arg: 1)
        }
        for (a, ad) in spec.advertisers.enumerated() {
            let r = medium.addReceiver(node: ad.node, name: "ble:adv:\(a)/receive")
            var addressStream = sim.randomStream(named: "ble:adv:\(a)/address")
            let rotation = ad.addressRotationS.map { SimTime.seconds($0) } ?? rotation
            let phase = SimTime(
                nanoseconds: 1 + Int64(addressStream.uniformInt(below: UInt64(rotation.nanoseconds))))
            let detect = Self.detectTime(ad.phy)
            var state = BleAdvertiserState(
                spec: ad, receiver: r,
                rotation: AddressRotation(interval: ad.address.rotates ? rotation : nil, phase: phase),
                stream: sim.randomStream(named: "ble:adv:\(a)/delay"),
                advAirtime: ad.phy.airtime(pduBytes: ad.pdu.pduBytes(dataBytes: ad.payloadBytes)),
                requestAirtime: ad.phy.airtime(pduBytes: BlePduType.scanReq.pduBytes(dataBytes: 0)),
                responseAirtime: ad.phy.airtime(pduBytes: BlePduType.scanRsp.pduBytes(dataBytes: ad.scanResponseBytes)),
                detectTime: detect)
            if !ad.bondedTo.isEmpty {
                // A bonded device's IRK (drawn when the file gives none) and its addresses' seed.
                var keys = sim.randomStream(named: "ble:adv:\(a)/privacy")
                let irk = ad.irk ?? (0..<16).map { _ in UInt8(truncatingIfNeeded: keys.next()) }
                state.privacy = (irk, keys.next())
            }
            // Unsynchronised devices: the first event falls uniformly within one interval; high
            // duty cycle directed advertising starts when its host enables it.
            let first =
                ad.highDutyCycle
                ? ad.start
                : ad.start
                    + SimTime(nanoseconds: Int64(state.stream.uniformInt(below: UInt64(state.interval.nanoseconds))))
            advertisers.append(state)
            sim.schedule(at: first, target: UInt32(a), kind: .bleAdvertisingEvent)
        }
        scannerOf = Array(repeating: -1, count: medium.receivers.count)
        advertiserOf = Array(repeating: -1, count: medium.receivers.count)
        for (s, sc) in scanners.enumerated() { scannerOf[sc.receiver] = s }
        for (a, ad) in advertisers.enumerated() { advertiserOf[ad.receiver] = a }
        for (c, cs) in spec.connections.enumerated() { addConnection(c, cs, sim: &sim) }
        for (w, ws) in spec.wifi.enumerated() where spec.wifiInterference {
            var state = BleWifiState(spec: ws, stream: sim.randomStream(named: "ble:wifi:\(w)/frames"))
            let gap = state.gapMean
            let first = SimTime.seconds(state.stream.exponential(mean: gap.isFinite && gap > 0 ? gap : 1e-6))
            wifi.append(state)
            sim.schedule(at: first, target: UInt32(w), kind: .bleWifiFrame)
        }
    }

    /// Preamble plus access address: the time a listener needs to notice a packet.
    static func detectTime(_ phy: BlePhy) -> SimTime {
        switch phy {
        case .le1M: return .microseconds(40)
        case .le2M: return .microseconds(24)
        case .codedS2, .codedS8: return .microseconds(336)
        }
    }

    /// The node is down (failed) or back up: a down node neither advertises nor scans.
    public mutating func setDown(_ node: Int, _ isDown: Bool, now: SimTime) {
        failed[node] = isDown
        applyPower(node, now: now)
    }

    /// Node `node`'s Bluetooth switched off or on (`CBManagerState`), beside its failures.
    mutating func setPowered(_ node: Int, on: Bool, now: SimTime) {
        poweredOff[node] = !on
        applyPower(node, now: now)
    }

    /// The node's LE radio is down while it has failed or its Bluetooth is off: its scanners
    /// and advertisers stop where they are, and go on with their next window or event once up.
    mutating func applyPower(_ node: Int, now: SimTime) {
        let isDown = failed[node] || poweredOff[node]
        medium.down[node] = isDown
        guard isDown else { return }
        for s in scanners.indices where scanners[s].spec.node == node {
            if medium.stopListening(scanners[s].receiver, now: now) >= 0 { scanners[s].receptionsCut += 1 }
            scanners[s].phase = .scanning
            scanners[s].generation &+= 1
        }
        for a in advertisers.indices where advertisers[a].spec.node == node {
            medium.stopListening(advertisers[a].receiver, now: now)
            advertisers[a].generation &+= 1
        }
    }

    /// A node moved by a scripted event: its cached losses are stale.
    public mutating func nodesMoved(_ nodes: NodeTable) {
        medium.nodes = nodes
        medium.meanLossCache = [:]
    }

    // MARK: Events

    /// Handles an event of the `bluetooth` block.
    public mutating func handle(_ event: Event, in sim: inout Simulation) {
        let k = Int(event.target)
        switch event.kind {
        case .bleAdvertisingEvent: startEvent(k, sim: &sim)
        case .bleAdvertiserSend:
            if event.arg == advertisers[k].generation { sendAdvertisingPdu(k, sim: &sim) }
        case .bleAdvertiserListenEnd:
            if event.arg == advertisers[k].generation && medium.receivers[advertisers[k].receiver].lock < 0 {
                stopAdvertiserListening(k, now: sim.now)
                nextChannel(k, sim: &sim)
            }
        case .bleTransmissionEnd: transmissionEnded(Int32(k), sim: &sim)
        case .bleScanWindow:
            if event.arg == 1 { openWindow(k, sim: &sim) } else { closeWindow(k, now: sim.now) }
        case .bleScanRequest:
            if event.arg == scanners[k].generation && scanners[k].phase == .requestPending { sendRequest(k, sim: &sim) }
        case .bleScanResponse: sendResponse(k, to: Int(event.arg), sim: &sim)
        case .bleScanResponseTimeout:
            if event.arg == scanners[k].generation && scanners[k].phase == .awaitingResponse
                && medium.receivers[scanners[k].receiver].lock < 0
            {
                finishExchange(k, success: false, now: sim.now)
            }
        case .bleWifiFrame: wifiFrame(k, sim: &sim)
        case .bleConnectionEvent: connectionStep(k, ConnectionStep(rawValue: event.arg) ?? .anchor, sim: &sim)
        default: preconditionFailure("not a bluetooth event")
        }
    }

    // MARK: Advertisers

    mutating func startEvent(_ a: Int, sim: inout Simulation) {
        let ad = advertisers[a]
        if ad.spec.highDutyCycle {
            // No advDelay, and no event after the 1.28 s.
            let next = sim.now + ad.interval
            if next < ad.spec.start + BleTiming.highDutyDuration {
                sim.schedule(at: next, target: UInt32(a), kind: .bleAdvertisingEvent)
            }
        } else {
            let delayMax = ad.spec.randomDelayMs * 1e6
            let delay = SimTime(nanoseconds: Int64((advertisers[a].stream.uniform() * delayMax).rounded(.down)))
            sim.schedule(at: sim.now + ad.interval + delay, target: UInt32(a), kind: .bleAdvertisingEvent)
        }
        guard !medium.down[ad.spec.node], ad.spec.advertises(at: sim.now, limitedTimeout: limitedTimeout),
            ad.connectedSince == nil || ad.spec.advertisesWhenConnected
        else { return }
        advertisers[a].events += 1
        advertisers[a].eventStart = sim.now
        advertisers[a].step = 0
        advertisers[a].generation &+= 1
        sendAdvertisingPdu(a, sim: &sim)
    }

    mutating func sendAdvertisingPdu(_ a: Int, sim: inout Simulation) {
        let ad = advertisers[a]
        guard !medium.down[ad.spec.node] else { return }
        let channel = ad.spec.channels[ad.step]
        advertisers[a].pdusSent += 1
        transmit(
            BleMedium.Transmission(
                senderNode: ad.spec.node, channel: channel, wifi: false, pdu: ad.spec.pdu, phy: ad.spec.phy,
                start: sim.now, end: sim.now + ad.advAirtime, txDbm: ad.spec.txPowerDbm, advertiser: a, scanner: -1,
                epoch: ad.rotation.epoch(at: sim.now), live: true), sim: &sim)
    }

    /// After a PDU (or its exchange) the advertiser hops to its next channel, or the event ends.
    mutating func nextChannel(_ a: Int, sim: inout Simulation) {
        advertisers[a].step += 1
        advertisers[a].generation &+= 1
        guard advertisers[a].step < advertisers[a].spec.channels.count else { return }
        sim.schedule(
            after: BleTiming.channelHop, target: UInt32(a), kind: .bleAdvertiserSend, arg: advertisers[a].generation)
    }

    mutating func stopAdvertiserListening(_ a: Int, now: SimTime) {
        medium.stopListening(advertisers[a].receiver, now: now)
        advertisers[a].listening = false
    }

    mutating func sendResponse(_ a: Int, to s: Int, sim: inout Simulation) {
        let ad = advertisers[a]
        guard !medium.down[ad.spec.node] else { return }
        advertisers[a].responsesSent += 1
        transmit(
            BleMedium.Transmission(
                senderNode: ad.spec.node, channel: ad.spec.channels[ad.step], wifi: false, pdu: .scanRsp,
                phy: ad.spec.phy, start: sim.now, end: sim.now + ad.responseAirtime, txDbm: ad.spec.txPowerDbm,
                advertiser: a, scanner: s, epoch: ad.rotation.epoch(at: sim.now), live: true), sim: &sim)
    }

    // MARK: Scanners

    mutating func openWindow(_ s: Int, sim: inout Simulation) {
        let sc = scanners[s]
        if let d = sc.spec.duration, sim.now >= sc.spec.start + d {
            // The app stopped scanning.
            scanners[s].windowOpen = false
            if sc.phase == .scanning, medium.stopListening(sc.receiver, now: sim.now) >= 0 {
                scanners[s].receptionsCut += 1
            }
            return
        }
        sim.schedule(after: sc.interval, target: UInt32(s), kind: .bleScanWindow, arg: 1)
        if sc.window < sc.interval {
            sim.schedule(after: sc.window, target: UInt32(s), kind: .bleScanWindow, arg: 0)
        }
        guard !medium.down[sc.spec.node] else { return }
        scanners[s].windows += 1
        scanners[s].channel = sc.spec.channels[sc.rotation % sc.spec.channels.count]
        scanners[s].rotation += 1
        scanners[s].windowOpen = true
        scanners[s].windowEnd = sim.now + sc.window
        if scanners[s].phase == .scanning {
            if medium.stopListening(sc.receiver, now: sim.now) >= 0 { scanners[s].receptionsCut += 1 }
            medium.listen(sc.receiver, channel: scanners[s].channel, now: sim.now)
        }
    }

    mutating func closeWindow(_ s: Int, now: SimTime) {
        scanners[s].windowOpen = false
        if scanners[s].phase == .scanning {
            if medium.stopListening(scanners[s].receiver, now: now) >= 0 { scanners[s].receptionsCut += 1 }
        }
    }

    mutating func sendRequest(_ s: Int, sim: inout Simulation) {
        let sc = scanners[s]
        if medium.stopListening(sc.receiver, now: sim.now) >= 0 { scanners[s].receptionsCut += 1 }
        scanners[s].phase = .requesting
        scanners[s].requestsSent += 1
        let ad = advertisers[sc.target]
        transmit(
            BleMedium.Transmission(
                senderNode: sc.spec.node, channel: sc.exchangeChannel, wifi: false, pdu: .scanReq, phy: ad.spec.phy,
                start: sim.now, end: sim.now + ad.requestAirtime, txDbm: ad.spec.txPowerDbm, advertiser: sc.target,
                scanner: s, epoch: 0, live: true), sim: &sim)
    }

    /// Ends an active-scanning exchange and returns to scanning.
    mutating func finishExchange(_ s: Int, success: Bool, now: SimTime) {
        scanners[s].exchangeEnded(success: success)
        if success { scanners[s].responsesReceived += 1 }
        scanners[s].phase = .scanning
        scanners[s].generation &+= 1
        medium.stopListening(scanners[s].receiver, now: now)
        if scanners[s].windowOpen && now < scanners[s].windowEnd {
            medium.listen(scanners[s].receiver, channel: scanners[s].channel, now: now)
        }
    }

    // MARK: Wi-Fi

    mutating func wifiFrame(_ w: Int, sim: inout Simulation) {
        let ws = wifi[w]
        var end = sim.now + ws.frame
        if ws.spec.pattern == .awdl {
            let slot = BleWifiState.awdlSlot(containingOrAfter: sim.now)
            if sim.now < slot.start {
                sim.schedule(at: slot.start, target: UInt32(w), kind: .bleWifiFrame)
                return
            }
            if end > slot.end { end = slot.end }
        }
        let gap = SimTime.seconds(wifi[w].stream.exponential(mean: ws.gapMean))
        sim.schedule(at: end + gap, target: UInt32(w), kind: .bleWifiFrame)
        guard !failed[ws.spec.node], end > sim.now else { return }
        wifi[w].frames += 1
        transmit(
            BleMedium.Transmission(
                senderNode: ws.spec.node, channel: ws.spec.channel, wifi: true, pdu: .advNonconnInd, phy: .le1M,
                start: sim.now, end: end, txDbm: ws.spec.txPowerDbm, advertiser: -1, scanner: -1, epoch: 0,
                live: true), sim: &sim)
    }

    // MARK: The medium

    mutating func transmit(_ t: BleMedium.Transmission, sim: inout Simulation) {
        let slot = medium.begin(t)
        sim.schedule(at: t.end, target: UInt32(slot), kind: .bleTransmissionEnd)
        medium.started(slot, now: sim.now)
        guard !t.wifi, t.advertiser >= 0, t.pdu != .scanReq, t.pdu != .scanRsp else { return }
        let threshold = medium.syncMw[BleMedium.phyIndex(t.phy)]
        for n in medium.notices {
            let s = scannerOf[n.receiver]
            guard s >= 0, scanners[s].phase == .scanning, scanners[s].windowEnd >= t.end, n.mw >= threshold else {
                continue
            }
            // A directed advertisement is for its target only; other scanners drop it.
            if t.pdu == .advDirectInd && advertisers[t.advertiser].spec.target != scanners[s].spec.node { continue }
            pairs[s * advertisers.count + t.advertiser].heardable += 1
        }
    }

    mutating func transmissionEnded(_ slot: Int32, sim: inout Simulation) {
        let t = medium.transmissions[Int(slot)]
        medium.ended(slot, now: sim.now)
        let notices = medium.notices
        for n in notices {
            if scannerOf[n.receiver] >= 0 {
                scannerReceived(scannerOf[n.receiver], t, mw: n.mw, ok: n.flag, sim: &sim)
            } else if advertiserOf[n.receiver] >= 0 {
                advertiserReceived(advertiserOf[n.receiver], t, ok: n.flag, sim: &sim)
            }
        }
        medium.finish(slot)
        guard !t.wifi else { return }
        switch t.pdu {
        case .scanReq:
            let s = t.scanner
            guard scanners[s].phase == .requesting else { return }
            scanners[s].phase = .awaitingResponse
            scanners[s].generation &+= 1
            medium.listen(scanners[s].receiver, channel: t.channel, now: sim.now)
            sim.schedule(
                after: BleTiming.interFrameSpace + Self.detectTime(t.phy), target: UInt32(s),
                kind: .bleScanResponseTimeout, arg: scanners[s].generation)
        case .scanRsp:
            nextChannel(t.advertiser, sim: &sim)
        case .connectInd:
            break
        case .advInd, .advScanInd, .advDirectInd:
            let a = t.advertiser
            guard !medium.down[t.senderNode] else { return }
            advertisers[a].listening = true
            medium.listen(advertisers[a].receiver, channel: t.channel, now: sim.now)
            advertisers[a].generation &+= 1
            sim.schedule(
                after: BleTiming.interFrameSpace + advertisers[a].detectTime, target: UInt32(a),
                kind: .bleAdvertiserListenEnd, arg: advertisers[a].generation)
        case .advNonconnInd:
            nextChannel(t.advertiser, sim: &sim)
        }
    }

    /// An advertiser's listening slot ended a reception.
    mutating func advertiserReceived(_ a: Int, _ t: BleMedium.Transmission, ok: Bool, sim: inout Simulation) {
        guard advertisers[a].listening else { return }
        stopAdvertiserListening(a, now: sim.now)
        if ok && t.pdu == .scanReq && t.advertiser == a {
            advertisers[a].requestsReceived += 1
            advertisers[a].generation &+= 1
            sim.schedule(
                after: BleTiming.interFrameSpace, target: UInt32(a), kind: .bleScanResponse, arg: UInt64(t.scanner))
        } else {
            nextChannel(a, sim: &sim)
        }
    }

    /// A scanner's reception ended.
    mutating func scannerReceived(_ s: Int, _ t: BleMedium.Transmission, mw: Double, ok: Bool, sim: inout Simulation) {
        let awaiting = scanners[s].phase == .awaitingResponse
        if ok && t.advertiser >= 0 && t.pdu != .scanReq {
            let a = t.advertiser
            let ad = advertisers[a]
            let k = s * advertisers.count + a
            let epoch = Int64(t.epoch)
            let directedElsewhere = t.pdu == .advDirectInd && ad.spec.target != scanners[s].spec.node
            if t.pdu == .scanRsp {
                if t.scanner == s {
                    pairs[k].responses += 1
                    if pairs[k].firstResponse == nil { pairs[k].firstResponse = sim.now }
                    pairs[k].respondedEpoch = epoch
                }
            } else if !directedElsewhere {
                pairs[k].received += 1
                if pairs[k].firstReceived == nil { pairs[k].firstReceived = sim.now }
                if t.pdu.isConnectable && !connections.isEmpty {
                    initiateIfWaiting(scanner: s, advertiser: a, sim: &sim)
                }
                // A service filter matches `service` or a UUID its AD structures list; GAP's
                // discovery procedures drop devices not in the discoverable mode they look for.
                var visible =
                    scanners[s].spec.serviceFilter.map { filter in
                        (ad.spec.service.map { filter.contains($0) } ?? false)
                            || (ad.spec.data?.serviceUUIDs.contains { filter.contains($0) } ?? false)
                    }
                    ?? true
                switch scanners[s].spec.discovery {
                case .observe: break
                case .general: if ad.spec.data?.discoverability == .nonDiscoverable { visible = false }
                case .limited: if ad.spec.data.map({ $0.discoverability != .limited }) ?? true { visible = false }
                }
                if visible {
                    let shown = shownAddress(scanner: s, advertiser: a, pair: k, epoch: t.epoch)
                    let newIdentifier = pairs[k].lastEpoch != shown
                    if newIdentifier {
                        pairs[k].identifiers += 1
                        pairs[k].lastEpoch = shown
                    }
                    if newIdentifier || !scanners[s].spec.duplicateFilter {
                        report(s, a, k, mw: mw, now: sim.now)
                    }
                }
                if !awaiting && scanners[s].spec.active && t.pdu.isScannable && scanners[s].phase == .scanning
                    && !(scanners[s].spec.duplicateFilter && pairs[k].respondedEpoch == epoch)
                {
                    scanners[s].backoffCount -= 1
                    if scanners[s].backoffCount <= 0 {
                        scanners[s].phase = .requestPending
                        scanners[s].target = a
                        scanners[s].exchangeChannel = t.channel
                        scanners[s].generation &+= 1
                        sim.schedule(
                            after: BleTiming.interFrameSpace, target: UInt32(s), kind: .bleScanRequest,
                            arg: scanners[s].generation)
                    }
                }
            }
        }
        if awaiting {
            let success = ok && t.pdu == .scanRsp && t.scanner == s && t.advertiser == scanners[s].target
            finishExchange(s, success: success, now: sim.now)
        }
    }

    mutating func report(_ s: Int, _ a: Int, _ k: Int, mw: Double, now: SimTime) {
        pairs[k].reports += 1
        if pairs[k].firstReport == nil {
            pairs[k].firstReport = now
            pairs[k].firstEpoch = pairs[k].lastEpoch
        }
        let rssi = Int((Decibel.dbm(fromMilliwatts: mw)).rounded())
        let d = medium.nodes.position(of: scanners[s].spec.node, at: now).distance(
            to: medium.nodes.position(of: advertisers[a].spec.node, at: now))
        pairs[k].rssiSum += Double(rssi)
        pairs[k].rssiSquares += Double(rssi * rssi)
        pairs[k].distanceSum += d
        pairs[k].rssiCount += 1
        if spec.recordRssi {
            samples.append(BleRssiSample(time: now, scanner: s, advertiser: a, rssi: rssi, distance: d))
        }
    }
}

extension BleWifiState {
    /// Mean gap between frames, s.
    var gapMean: Double { spec.frameUs * 1e-6 * (1 - spec.load) / spec.load }
}

extension BleNetwork {
    /// Bluetooth LE's block of event kinds (`Layers.eventBlocks`): 240–249.
    static let eventBlocks: [Range<UInt16>] = [240..<250]

    /// Whether `kind` is one of Bluetooth LE's.
    @inline(__always)
    static func owns(_ kind: EventKind) -> Bool { (240..<250).contains(kind.rawValue) }
}

extension BleNetwork {
    /// What scanner `s`'s app is shown for advertiser `a`'s address number `epoch`: that
    /// address, or, on a phone the device is bonded to, its identity when the phone resolves the
    /// resolvable private address with the device's IRK (Core Specification v5.4, Vol 3, Part H
    /// §2.4.2.1), so iOS keeps the peripheral's identifier across rotations. Resolved once per
    /// address number.
    mutating func shownAddress(scanner s: Int, advertiser a: Int, pair k: Int, epoch: UInt32) -> Int64 {
        let number = Int64(epoch)
        if pairs[k].addressEpoch == number { return pairs[k].shownEpoch }
        var shown = number
        let ad = advertisers[a]
        if ad.spec.bondedTo.contains(scanners[s].spec.node), let privacy = ad.privacy,
            let address = ad.resolvableAddress(epoch: epoch), BlePrivacy.resolves(address, irk: privacy.irk)
        {
            shown = BlePairRecord.identity
        }
        pairs[k].addressEpoch = number
        pairs[k].shownEpoch = shown
        return shown
    }
}

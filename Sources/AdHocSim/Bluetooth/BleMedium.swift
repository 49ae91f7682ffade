import Foundation

/// The 2.4 GHz medium as LE receivers see it: who hears which transmission how strongly, and
/// whether a locked reception survives the interference it meets.
///
/// Received power of a transmission at a receiver:
///
///     P = P_tx − L_median(d) − X_shadow − B_block(now) + F_fade        (dBm)
///
/// with the place's median loss at 2.44 GHz (the band centre; the advertising channels lie
/// within ±40 MHz of it, 0.3 dB of free-space loss) and antenna heights from the nodes' z, as
/// for Wi-Fi (`PlaceParameters.linkLossDb`); the run's shadowing field and each pair's blockage
/// process, both shared with Wi-Fi (`BlockageProcess.forLink`: the same obstacles and the same
/// people between the same two phones); and one Rician draw per transmission and receiver from
/// `RicianPowerTable`: counter-based, so a draw depends only on (run seed, transmission number,
/// receiver), whichever receivers were evaluated before. A Wi-Fi transmission reaches an LE
/// receiver scaled by `BleChannel.wifiCoupling`; LE transmissions on another advertising
/// channel do not reach it (the advertising channels are 24 MHz or more apart).
///
/// Reception: a listening receiver locks onto the first LE packet whose power clears the sync
/// threshold (6 dB below the SINR of the reference BER; assumption) while it is not locked;
/// everything else it hears adds to its interference. The packet survives with probability
/// Π exp(bits_i · ln(1 − BER(SINR_i))) over the stretches i between interference changes
/// (`BleErrorModel`): a collision with an equally strong packet loses both, a much stronger
/// locked packet captures the receiver.
struct BleMedium {
    /// One transmission on the air.
    struct Transmission {
        var senderNode: Int
        /// Advertising channel index (37…39), or the Wi-Fi channel (1…13) when `wifi`.
        var channel: Int
        var wifi: Bool
        var pdu: BlePduType
        var phy: BlePhy
        var start: SimTime
        var end: SimTime
        var txDbm: Double
        /// The advertiser it comes from (ADV PDUs, SCAN_RSP) or is addressed to (SCAN_REQ).
        var advertiser: Int
        /// The scanner it comes from (SCAN_REQ) or is addressed to (SCAN_RSP); −1 otherwise.
        var scanner: Int
        /// The advertiser's address number at transmission time.
        var epoch: UInt32
        var live: Bool
        /// The transmission's number in the run (the fading draw's counter).
        var number: UInt64 = 0
    }

    /// One receiver: a scanner's radio or an advertiser's listening slot.
    struct Receiver {
        var node: Int
        /// The advertising channel it listens on, or −1.
        var channel: Int = -1
        /// Transmissions it hears now, with their power here (mW, coupling applied).
        var heard: [(slot: Int32, mw: Double)] = []
        /// The transmission it is locked on, or −1.
        var lock: Int32 = -1
        var lockMw: Double = 0
        var lockPhy: BlePhy = .le1M
        var logSuccess: Double = 0
        var chunkStart: SimTime = .zero
        /// Draws whether a locked packet survives (`ble:<role>:<k>/receive`).
        var stream: RandomStream
    }

    let place: PlaceParameters
    var nodes: NodeTable
    let shadowing: ShadowingField
    let seed: UInt64
    let noiseMw: Double
    let noiseDbm: Double
    /// Per PHY (`BlePhy.allCases` order): error model and sync threshold, mW.
    let errorModels: [BleErrorModel]
    let syncMw: [Double]
    var transmissions: [Transmission] = []
    var freeSlots: [Int32] = []
    /// Slots of live transmissions, in start order.
    var live: [Int32] = []
    var receivers: [Receiver] = []
    /// Per advertising channel (37, 38, 39): the receivers listening there, so a transmission
    /// visits only them.
    var listeners: [[Int]] = [[], [], []]
    var meanLossCache: [Int: Double] = [:]
    var blockage: [Int: BlockageProcess] = [:]
    let blockageFactor: Double
    var down: [Bool]
    /// The place's fading table (`nil`: no fast fading) and the key of this run's draws.
    let fading: RicianPowerTable?
    let fadingKey: UInt64
    var transmissionsBegun: UInt64 = 0
    /// What the last `started` or `ended` did, per receiver reached: (receiver, mW, flag).
    var notices: [(receiver: Int, mw: Double, flag: Bool)] = []

    /// The 2.4 GHz band centre used for propagation, Hz.
    static let bandCentreHz = 2.44e9

    init(place: PlaceParameters, nodes: NodeTable, seed: UInt64) {
        self.place = place
        self.nodes = nodes
        self.seed = seed
        shadowing = ShadowingField(
            sigmaDb: place.shadowingSigmaDb, correlationDistance: place.shadowingCorrelationM, seed: seed)
        noiseDbm = NoiseFloor.dbm(
            bandwidthHz: BlePhy.le1M.noiseBandwidthHz, noiseFigureDb: place.noiseFigureDb,
            interferenceDb: place.interferenceDb)
        noiseMw = Decibel.milliwatts(fromDbm: noiseDbm)
        errorModels = BlePhy.allCases.map { BleErrorModel(phy: $0) }
        let noise = noiseMw
        syncMw = BlePhy.allCases.map { noise * BleErrorModel(phy: $0).referenceSinr / 4 }
        blockageFactor = place.blockage.map { Decibel.linear(fromDb: -$0.penaltyDb) } ?? 1
        down = Array(repeating: false, count: nodes.count)
        fading = place.fadingK.map { RicianPowerTable.shared(k: $0) }
        fadingKey = SplitMix64.mix(seed) ^ StableHash.fnv1a("ble/fading")
    }

    static func phyIndex(_ phy: BlePhy) -> Int {
        switch phy {
        case .le1M: return 0
        case .le2M: return 1
        case .codedS2: return 2
        case .codedS8: return 3
        }
    }

    /// Adds a receiver for `node` whose reception outcomes draw from the stream `name`; returns
    /// its index.
    mutating func addReceiver(node: Int, name: String) -> Int {
        receivers.append(Receiver(node: node, stream: RandomStream(seed: seed, name: name)))
        return receivers.count - 1
    }

    /// Median loss plus shadowing between two nodes at `time`, dB (cached for static pairs).
    mutating func meanLossDb(_ a: Int, _ b: Int, at time: SimTime) -> Double {
        let cacheable = !nodes.mobile[a] && !nodes.mobile[b]
        let key = a &* nodes.count &+ b
        if cacheable, let v = meanLossCache[key] { return v }
        let pa = nodes.position(of: a, at: time), pb = nodes.position(of: b, at: time)
        let units = place.shadowingSigmaDb > 0 ? (shadowing.unitValue(at: pa), shadowing.unitValue(at: pb)) : (0, 0)
        let loss = place.linkLossDb(pa, pb, shadowUnits: units, frequencyHz: Self.bandCentreHz)
        if cacheable { meanLossCache[key] = loss }
        return loss
    }

    /// Power of transmission `t` at receiver `r` now, mW, before channel coupling; with a fresh
    /// fading draw from the receiver's stream.
    mutating func powerMw(of t: Transmission, at r: Int, now: SimTime) -> Double {
        let rxNode = receivers[r].node
        var mw = Decibel.milliwatts(fromDbm: t.txDbm - meanLossDb(t.senderNode, rxNode, at: now))
        if let spec = place.blockage, spec.ratePerSecond > 0 {
            let key = Swift.min(t.senderNode, rxNode) &* nodes.count &+ Swift.max(t.senderNode, rxNode)
            var process = blockage[key] ?? BlockageProcess.forLink(t.senderNode, rxNode, spec: spec, seed: seed)
            if process.isBlocked(at: now) { mw *= blockageFactor }
            blockage[key] = process
        }
        if let fading { mw *= fading.power(u: RicianPowerTable.uniform(key: fadingKey, t.number, UInt64(r))) }
        return mw
    }

    /// How much of transmission `t` reaches a receiver tuned to advertising channel `channel`.
    func coupling(_ t: Transmission, channel: Int) -> Double {
        if t.wifi {
            return BleChannel.wifiCoupling(bleChannel: channel, wifiChannel: t.channel, bandwidthHz: 1e6)
        }
        return t.channel == channel ? 1 : 0
    }

    // MARK: Transmissions

    /// Puts a transmission on the air; returns its slot.
    mutating func begin(_ t: Transmission) -> Int32 {
        var t = t
        t.number = transmissionsBegun
        transmissionsBegun &+= 1
        let slot: Int32
        if let s = freeSlots.popLast() {
            slot = s
            transmissions[Int(s)] = t
        } else {
            slot = Int32(transmissions.count)
            transmissions.append(t)
        }
        live.append(slot)
        return slot
    }

    /// Takes a transmission off the air (after every receiver has been told).
    mutating func finish(_ slot: Int32) {
        transmissions[Int(slot)].live = false
        if let i = live.firstIndex(of: slot) { live.remove(at: i) }
        freeSlots.append(slot)
    }

    // MARK: Receivers

    /// Closes the current stretch of a locked reception at `now`.
    mutating func closeChunk(_ r: Int, now: SimTime) {
        guard receivers[r].lock >= 0 else { return }
        let elapsed = now - receivers[r].chunkStart
        guard elapsed.nanoseconds > 0 else { return }
        var interference = 0.0
        for h in receivers[r].heard where h.slot != receivers[r].lock { interference += h.mw }
        let sinr = receivers[r].lockMw / (noiseMw + interference)
        let phy = receivers[r].lockPhy
        let bits = Double(elapsed.nanoseconds) * 1e-9 * phy.bitRate
        receivers[r].logSuccess += errorModels[Self.phyIndex(phy)].logSuccess(sinr: sinr, bits: bits)
        receivers[r].chunkStart = now
    }

    /// Tunes receiver `r` to `channel` at `now`: it hears what is on the air there (but cannot
    /// lock onto a packet whose start it missed).
    mutating func listen(_ r: Int, channel: Int, now: SimTime) {
        stopListening(r, now: now)
        receivers[r].channel = channel
        listeners[channel - 37].append(r)
        for slot in live {
            let t = transmissions[Int(slot)]
            let c = coupling(t, channel: channel)
            guard c > 0, t.senderNode != receivers[r].node else { continue }
            receivers[r].heard.append((slot, powerMw(of: t, at: r, now: now) * c))
        }
    }

    /// Receiver `r` stops listening; a reception in progress is lost. Returns the slot it was
    /// locked on, or −1.
    @discardableResult
    mutating func stopListening(_ r: Int, now: SimTime) -> Int32 {
        let lost = receivers[r].lock
        if receivers[r].channel >= 0 {
            let list = receivers[r].channel - 37
            if let i = listeners[list].firstIndex(of: r) {
                listeners[list].swapAt(i, listeners[list].count - 1)
                listeners[list].removeLast()
            }
        }
        receivers[r].channel = -1
        receivers[r].heard.removeAll(keepingCapacity: true)
        receivers[r].lock = -1
        return lost
    }

    /// A transmission starts: every listening receiver that it reaches hears it; an idle one
    /// locks onto it if it is an LE packet above the sync threshold. Leaves `(r, mw, locked)`
    /// in `notices` for every receiver an LE packet reaches.
    mutating func started(_ slot: Int32, now: SimTime) {
        notices.removeAll(keepingCapacity: true)
        let t = transmissions[Int(slot)]
        for list in t.wifi ? 0..<3 : (t.channel - 37)..<(t.channel - 36) {
            for r in listeners[list] { reach(slot, t, r, now: now) }
        }
    }

    /// Transmission `t` reaches listening receiver `r` as it starts.
    mutating func reach(_ slot: Int32, _ t: Transmission, _ r: Int, now: SimTime) {
        do {
            if down[receivers[r].node] || receivers[r].node == t.senderNode { return }
            let c = coupling(t, channel: receivers[r].channel)
            guard c > 0 else { return }
            let mw = powerMw(of: t, at: r, now: now) * c
            closeChunk(r, now: now)
            receivers[r].heard.append((slot, mw))
            if t.wifi { return }
            var locked = false
            if receivers[r].lock < 0 && mw >= syncMw[Self.phyIndex(t.phy)] {
                receivers[r].lock = slot
                receivers[r].lockMw = mw
                receivers[r].lockPhy = t.phy
                receivers[r].logSuccess = 0
                receivers[r].chunkStart = now
                locked = true
            }
            notices.append((r, mw, locked))
        }
    }

    /// A transmission ends: receivers stop hearing it; the one(s) locked on it learn whether it
    /// was received: `(r, mw, success)` in `notices` for each receiver locked on it.
    mutating func ended(_ slot: Int32, now: SimTime) {
        notices.removeAll(keepingCapacity: true)
        let t = transmissions[Int(slot)]
        for list in t.wifi ? 0..<3 : (t.channel - 37)..<(t.channel - 36) {
            for r in listeners[list] { leave(slot, r, now: now) }
        }
    }

    /// Receiver `r` stops hearing transmission `slot`, which has ended.
    mutating func leave(_ slot: Int32, _ r: Int, now: SimTime) {
        do {
            guard let i = receivers[r].heard.firstIndex(where: { $0.slot == slot }) else { return }
            closeChunk(r, now: now)
            let mw = receivers[r].heard[i].mw
            receivers[r].heard.remove(at: i)
            if receivers[r].lock == slot {
                receivers[r].lock = -1
                let p = exp(receivers[r].logSuccess)
                let ok = receivers[r].stream.uniform() < p
                notices.append((r, mw, ok))
            }
        }
    }
}

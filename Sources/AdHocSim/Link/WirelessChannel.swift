import Foundation

/// The shared medium of the `awdl` and `wifi` technologies: who hears a transmission, at what
/// power, and the interference each receiver collects.
///
/// Received power of a frame from `t` at `r`:
///
///     P = P_tx + 2·G − L_median(d, h_t, h_r) − X_shadow(t, r) − B_block(t, r, now) + F_fade
///
/// (radio layer). Receivers are found through a `SpatialGrid` whose cells are as wide as the
/// *interaction range*: beyond it, even a frame 3σ luckier than the median, unblocked and with
/// 10 dB of fading gain, arrives more than 10 dB below the noise floor, where it neither
/// triggers carrier sense nor adds more than 0.4 dB of interference (an assumption that bounds
/// the neighbourhood). Median loss and shadowing of a pair are static for static nodes; the
/// median loss is cached per pair when the scenario has at most 2 048 nodes.
public struct WirelessChannel: Sendable {
    /// The place.
    public let place: PlaceParameters
    /// The radio of every node.
    public let radio: RadioConfiguration
    /// The noise floor, dBm, and in milliwatts.
    public let noiseFloorDbm: Double
    let noiseMw: Double
    /// Node positions, updated by the world's mobility sampling and scripted moves.
    public private(set) var positions: [Position]
    var grid: SpatialGrid
    let shadowing: ShadowingField
    /// Per node: the unit shadowing field value at its position.
    var shadowUnit: [Double]
    /// Per ordered pair: received power without blockage and fading, mW (NaN = not computed).
    var staticRxCache: [Float]
    let cacheStride: Int
    /// Each link's blockage process and the rows' cached states (`LinkBlockage`).
    var blockage: LinkBlockage
    /// Whether links flip between clear and blocked (`BlockageProcess`).
    var hasBlockage: Bool { blockage.isActive }
    /// The place's Rician table (`nil`: no fast fading) and this run's key for its draws: one
    /// counter-based draw per (transmission, receiver), independent of the order receivers are
    /// visited in (`RicianPowerTable`).
    let fading: RicianPowerTable?
    let fadingKey: UInt64
    /// Per node: its neighbours within the interaction range in `forEachNeighbour`'s order,
    /// and the static received power from it at each (`staticRxMw`, as stored in the pair
    /// cache), valid until a node moves (`neighbourListValid`); the storage is reused.
    var neighbourLists: [[Int32]]
    var neighbourRxMw: [[Float]]
    var neighbourListValid: [Bool]
    /// The storage a row is built in before the cutoff, reused.
    var neighbourScratch: [Int32] = []
    var powerScratch: [Float] = []
    let seed: UInt64
    /// Distance beyond which a transmission is ignored, m.
    public let interactionRange: Double
    /// The optional per-pair cutoff (`radio.interactionMarginDb`), dB, or `nil` (off): within
    /// the interaction range, receiver r is left out of t's transmissions when the pair's mean
    /// power (median loss and the pair's shadowing, no blockage or fading) plus the margin is
    /// below the noise floor. Its energy comes back as a mean term (`droppedMw`).
    public let interactionMarginDb: Double?
    /// With the cutoff, the weakest mean power a kept pair may have: the noise floor minus the
    /// margin, mW (0 without the cutoff).
    let cutoffFloorMw: Double
    /// With the cutoff, per receiver: the summed mean power of the transmitters it was dropped
    /// from, mW; the medium scales it by the network's mean transmit duty. Recomputed after a
    /// move.
    var droppedMw: [Double] = []
    var droppedValid = false
    /// How many times the dropped powers and the rows were recomputed (the medium rebuilds its
    /// far field when this moves).
    var droppedRevision: UInt64 = 0
    /// How the dropped energy comes back (`radio.farField`).
    public var farField: FarField { radio.farField }
    /// With the cutoff and `farField: cells`: the grid (`FarFieldCells`), its cells' origin,
    /// size and columns; each node's cell; and per transmitter, per cell, the mean power a
    /// receiver there gets from it through dropped pairs, mW (recomputed with `droppedMw`).
    var farGrid: (x0: Double, y0: Double, size: Double, columns: Int, rows: Int) = (0, 0, 1, 0, 0)
    var farCellOf: [Int32] = []
    var farRows: [Float] = []
    /// Whether the cutoff aggregates dropped energy per cell.
    var aggregatesCells: Bool { interactionMarginDb != nil && farField == .cells }
    /// The cells' side: 50 m, or larger so that there are at most 4 096 cells (assumption: a cell
    /// small against the distance beyond which the cutoff drops pairs, a few hundred metres in
    /// the benches' places, and a row per transmitter that stays small).
    static let farCellSide = 50.0
    static let farCellsMax = 4096

    /// The channel of a run.
    public init(place: PlaceParameters, radio: RadioConfiguration, positions: [Position], seed: UInt64) {
        self.place = place
        self.radio = radio
        self.positions = positions
        self.seed = seed
        noiseFloorDbm = NoiseFloor.dbm(
            bandwidthHz: radio.bandwidthHz, noiseFigureDb: place.noiseFigureDb,
            interferenceDb: place.interferenceDb)
        noiseMw = Decibel.milliwatts(fromDbm: noiseFloorDbm)
        let field = ShadowingField(
            sigmaDb: place.shadowingSigmaDb, correlationDistance: place.shadowingCorrelationM, seed: seed)
        shadowing = field
        shadowUnit = positions.map { place.shadowingSigmaDb > 0 ? field.unitValue(at: $0) : 0 }
        fading = place.fadingK.map { RicianPowerTable.shared(k: $0) }
        fadingKey = SplitMix64.mix(seed) ^ StableHash.fnv1a("phy/fading")
        // Interaction range: where median power + 3σ + 10 dB falls 10 dB below the noise floor.
        let cutoff = noiseFloorDbm - 10
        let budget = radio.txPowerDbm + 2 * radio.antennaGainDbi + 3 * place.shadowingSigmaDb + 10 - cutoff
        var lo = 1.0, hi = 1_000_000.0
        while hi - lo > 0.5 {
            let mid = (lo + hi) / 2
            let loss = place.medianLossDb(distance: mid, txHeight: 1.2, rxHeight: 1.2, frequencyHz: radio.frequencyHz)
            if loss <= budget { lo = mid } else { hi = mid }
        }
        interactionRange = hi
        switch radio.interactionMargin {
        case nil: interactionMarginDb = nil
        case .db(let m)?: interactionMarginDb = m
        case .safe?:
            // 6σ, σ² = shadowing σ² + the fading gain's spread² in dB (the safe margin measured in docs/decisions/2026-11-22-shared-medium.md).
            let fade = place.fadingK.map { RicianPowerTable.shared(k: $0).decibelSpread() } ?? 0
            interactionMarginDb = 6 * (place.shadowingSigmaDb * place.shadowingSigmaDb + fade * fade).squareRoot()
        }
        let floorDbm = noiseFloorDbm - (interactionMarginDb ?? 0)
        cutoffFloorMw = interactionMarginDb == nil ? 0 : Decibel.milliwatts(fromDbm: floorDbm)
        grid = SpatialGrid(positions: positions, cellSize: hi)
        if interactionMarginDb != nil && radio.farField == .cells {
            let xs = positions.map(\.x), ys = positions.map(\.y)
            let (x0, y0) = (xs.min() ?? 0, ys.min() ?? 0)
            let (w, h) = ((xs.max() ?? 0) - x0, (ys.max() ?? 0) - y0)
            var side = WirelessChannel.farCellSide
            while (Int(w / side) + 1) * (Int(h / side) + 1) > WirelessChannel.farCellsMax { side *= 1.25 }
            farGrid = (x0, y0, side, Int(w / side) + 1, Int(h / side) + 1)
        }
        if positions.count <= 2048 {
            cacheStride = positions.count
            staticRxCache = [Float](repeating: .nan, count: positions.count * positions.count)
        } else {
            cacheStride = 0
            staticRxCache = []
        }
        neighbourLists = Array(repeating: [], count: positions.count)
        neighbourRxMw = Array(repeating: [], count: positions.count)
        blockage = LinkBlockage(spec: place.blockage, nodes: positions.count, seed: seed)
        neighbourListValid = Array(repeating: false, count: positions.count)
    }

    /// Node `t`'s neighbours within the interaction range, in `forEachNeighbour`'s order, with
    /// the static received power from `t` at each (`staticRxMw`): computed once and kept while
    /// no node moves.
    mutating func neighbourhood(of t: Int) -> (nodes: [Int32], staticMw: [Float]) {
        if !neighbourListValid[t] {
            if interactionMarginDb != nil {
                // With the cutoff every row is built in one pass with the dropped powers.
                updateDroppedPowers()
            } else {
                buildRow(t) { _, _ in }
            }
        }
        return (neighbourLists[t], neighbourRxMw[t])
    }

    /// Builds `t`'s row: every node in range, in `forEachNeighbour`'s order, with its static
    /// power; with the cutoff, only those whose power reaches the floor, the others handed to
    /// `dropped` (receiver, power) in the same order. Built in the scratch rows, then copied at
    /// the kept size: a row's storage follows the receivers it keeps, not every node in range
    /// before the cutoff (at 10 000 phones in the city the range holds nearly all).
    mutating func buildRow(_ t: Int, dropped: (Int, Float) -> Void) {
        var list = neighbourScratch
        var powers = powerScratch
        neighbourScratch = []
        powerScratch = []
        list.removeAll(keepingCapacity: true)
        powers.removeAll(keepingCapacity: true)
        forEachNeighbour(of: t) { list.append(Int32($0)) }
        for r in list { powers.append(Float(staticRxMw(t, Int(r)))) }
        if interactionMarginDb != nil {
            // The cutoff: keep a receiver whose mean power plus the margin reaches the floor.
            var kept = 0
            for k in 0..<list.count {
                if Double(powers[k]) >= cutoffFloorMw {
                    list[kept] = list[k]
                    powers[kept] = powers[k]
                    kept += 1
                } else {
                    dropped(Int(list[k]), powers[k])
                }
            }
            list.removeLast(list.count - kept)
            powers.removeLast(powers.count - kept)
        }
        var rowNodes = neighbourLists[t], rowPowers = neighbourRxMw[t]
        neighbourLists[t] = []
        neighbourRxMw[t] = []
        rowNodes.removeAll(keepingCapacity: true)
        rowPowers.removeAll(keepingCapacity: true)
        rowNodes.append(contentsOf: list)
        rowPowers.append(contentsOf: powers)
        neighbourLists[t] = rowNodes
        neighbourRxMw[t] = rowPowers
        neighbourScratch = list
        powerScratch = powers
        blockage.resetRow(t, count: rowNodes.count)
        neighbourListValid[t] = true
    }

    /// The blockage of the link between `t` and `r` at `time`: the blocked factor while
    /// blocked, else 1 (one process per unordered pair, created on first use).
    mutating func blockageGain(_ t: Int, _ r: Int, at time: SimTime) -> Double {
        blockage.gain(t, r, at: time)
    }

    /// With the cutoff, builds every transmitter's row (`buildRow`) and brings every receiver's
    /// dropped mean power (`droppedMw`) up to date in the same pass over the pairs: recomputed
    /// when a node has moved, O(N · nodes in range) once per move sample, summed per receiver
    /// over the transmitters whose row left it out.
    @discardableResult
    mutating func updateDroppedPowers() -> Bool {
        guard interactionMarginDb != nil, !droppedValid else { return false }
        let n = positions.count
        var sums = [Double](repeating: 0, count: n)
        // With the cells far field, the same pass fills every transmitter's row of per-cell
        // powers (`FarFieldCells`): the pairs it dropped, summed per receiver cell, then
        // divided by the cell's node count.
        let cells = aggregatesCells ? farGrid.columns * farGrid.rows : 0
        if cells > 0 { farCellOf = positions.map { farCell(of: $0) } }
        var count = [Int](repeating: 0, count: cells)
        for c in farCellOf where cells > 0 { count[Int(c)] += 1 }
        var rows = [Float](repeating: 0, count: n * cells)
        let cellOf = farCellOf
        for t in 0..<n {
            buildRow(t) { r, power in
                sums[r] += Double(power)
                if cells > 0 { rows[t * cells + Int(cellOf[r])] += power }
            }
            for c in 0..<cells where count[c] > 1 { rows[t * cells + c] /= Float(count[c]) }
        }
        droppedMw = sums
        droppedValid = true
        droppedRevision &+= 1
        if cells > 0 { farRows = rows }
        return true
    }

    /// The grid cell of position `p` (clamped to the grid: a node that walked off it counts in
    /// the nearest edge cell).
    func farCell(of p: Position) -> Int32 {
        let g = farGrid
        let cx = Swift.min(Swift.max(Int(((p.x - g.x0) / g.size).rounded(.down)), 0), g.columns - 1)
        let cy = Swift.min(Swift.max(Int(((p.y - g.y0) / g.size).rounded(.down)), 0), g.rows - 1)
        return Int32(cy * g.columns + cx)
    }

    /// Moves node `i` (sampled by the world as it walks): the grid, its shadowing and its
    /// cached link powers follow.
    public mutating func setPosition(_ i: Int, _ p: Position) {
        positions[i] = p
        grid.move(i, to: p)
        for j in neighbourListValid.indices { neighbourListValid[j] = false }
        droppedValid = false
        shadowUnit[i] = place.shadowingSigmaDb > 0 ? shadowing.unitValue(at: p) : 0
        if cacheStride > 0 {
            for j in 0..<cacheStride {
                staticRxCache[i * cacheStride + j] = .nan
                staticRxCache[j * cacheStride + i] = .nan
            }
        }
    }

    /// Median loss plus shadowing between two nodes, dB (symmetric; no blockage or fading).
    public func staticLossDb(_ a: Int, _ b: Int) -> Double {
        place.linkLossDb(
            positions[a], positions[b], shadowUnits: (shadowUnit[a], shadowUnit[b]), frequencyHz: radio.frequencyHz)
    }

    /// Received power without blockage and fading, mW; cached per pair for up to 2 048 nodes.
    @inline(__always)
    mutating func staticRxMw(_ a: Int, _ b: Int) -> Double {
        if cacheStride > 0 {
            let cached = staticRxCache[a &* cacheStride &+ b]
            if !cached.isNaN { return Double(cached) }
        }
        let mw = Decibel.milliwatts(fromDbm: radio.txPowerDbm + 2 * radio.antennaGainDbi - staticLossDb(a, b))
        if cacheStride > 0 {
            staticRxCache[a &* cacheStride &+ b] = Float(mw)
            staticRxCache[b &* cacheStride &+ a] = Float(mw)
            return Double(Float(mw))
        }
        return mw
    }

    /// The link's SNR without blockage and fading: what a rate controller would estimate, dB.
    public mutating func medianSnrDb(_ a: Int, _ b: Int) -> Double {
        Decibel.dbm(fromMilliwatts: staticRxMw(a, b)) - noiseFloorDbm
    }

    /// Received power of transmission number `transmission` from `t` at `r` at `time`, mW: the
    /// static part, the link's blockage state, and the fading draw of (transmission, r). All in
    /// linear units: no logarithm per frame.
    @inline(__always)
    public mutating func frameRxMw(from t: Int, to r: Int, at time: SimTime, transmission: UInt64) -> Double {
        var p = staticRxMw(t, r)
        if hasBlockage { p *= blockageGain(t, r, at: time) }
        if let fading { p *= fading.power(u: RicianPowerTable.uniform(key: fadingKey, transmission, UInt64(r))) }
        return p
    }

    /// `forEachNeighbour(of:_:)`, from `t`'s cached neighbour row when it holds exactly those
    /// nodes (built by `forEachNeighbour` in the same order, no node moved since, no cutoff
    /// filtering it): no grid walk or distance per node.
    func forEachNodeInRange(of t: Int, _ body: (Int) -> Void) {
        guard interactionMarginDb == nil, neighbourListValid[t] else { return forEachNeighbour(of: t, body) }
        for r in neighbourLists[t] { body(Int(r)) }
    }

    /// Every node within the interaction range of node `t`'s position (excluding `t`), in a fixed order.
    func forEachNeighbour(of t: Int, _ body: (Int) -> Void) {
        let p = positions[t]
        grid.forEachCandidate(near: p) { c in
            let i = Int(c)
            if i != t && positions[i].distance(to: p) <= interactionRange { body(i) }
        }
    }
}

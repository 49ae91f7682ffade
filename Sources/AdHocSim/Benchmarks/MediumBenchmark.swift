/// The medium's receiver loop measured on its own: what a frame costs per receiver
/// in the exact model, apart from the MAC and the mesh above it, beside two reference loops
/// timed in the same process over the same neighbour rows.
///
/// On the channel of a scenario (its place, radio and phones, with its seed), `frames` frames
/// are begun and ended from senders taken in a fixed order (the k-th from phone
/// k·7919 mod N), `onAir` at a time: each frame ends just before the one `onAir` frames later
/// begins, so about `onAir` are on the air at once (7.7 in `mesh-1000.json`). No AWDL schedule
/// and no MAC: the indications are dropped after each call. The variants:
/// - `row` (the baseline): each frame adds the pair's static power (the sender's cached row) to
///   a per-receiver sum and subtracts it when the frame ends. Any eager model that keeps a sum
///   per receiver does at least this.
/// - `draw`: `row` with the counter-based Rician draw (`RicianPowerTable`) applied to each
///   power: what the fading itself adds.
/// - `medium`: `SharedMedium.begin` and `end`: deafness, the draw, locking, interference and
///   its running maximum, carrier sense and the indication logs.
///
/// A figure's `events` counts receiver visits (frames × receivers per frame), so
/// `seconds / events` is the cost per receiver per frame, begin and end together.
public struct MediumBenchmark {
    /// What is timed.
    public enum Variant: String, CaseIterable, Sendable {
        case row, draw, medium
    }

    var channel: WirelessChannel
    /// Frames begun and ended.
    public var frames: Int
    /// Frames on the air at once.
    public var onAir: Int
    /// Whether frame k goes on the air: not when its sender is still sending one of the frames
    /// before it (fewer phones than frames on the air). Every variant sends the same frames.
    let sent: [Bool]
    /// Frame airtime: 1 ms (assumption: a 1 400-byte frame at a low MCS; only the spacing of
    /// the frames' times depends on it).
    static let airtime = SimTime.milliseconds(1)

    /// The benchmark on the channel of `scenario`.
    public init(_ scenario: Scenario, frames: Int, onAir: Int) {
        let radio = RadioConfiguration(scenario.radio)
        channel = WirelessChannel(
            place: PlaceParameters.resolve(scenario.environment, frequencyHz: radio.frequencyHz), radio: radio,
            positions: scenario.nodes.map(\.position), seed: scenario.seed)
        self.frames = frames
        self.onAir = Swift.max(onAir, 1)
        var sent = [Bool](repeating: false, count: frames)
        let n = channel.positions.count
        for k in 0..<frames {
            let i = (k &* 7919) % n
            sent[k] = !(Swift.max(0, k - self.onAir + 1)..<k).contains { sent[$0] && ($0 &* 7919) % n == i }
        }
        self.sent = sent
        // Rows cached, and every pair's blockage process created (city, station), before timing.
        for i in 0..<channel.positions.count {
            for r in channel.neighbourhood(of: i).nodes where channel.hasBlockage {
                _ = channel.blockageGain(i, Int(r), at: .zero)
            }
        }
    }

    /// The sender of the `k`-th frame.
    @inline(__always)
    func sender(_ k: Int) -> Int { (k &* 7919) % channel.positions.count }

    /// Runs `variant` once and reports its time.
    public func run(_ variant: Variant) -> BenchmarkFigure {
        var channel = self.channel
        let n = channel.positions.count
        let step = SimTime(nanoseconds: Self.airtime.nanoseconds / Int64(onAir))
        var visits: UInt64 = 0
        var checksum: UInt64 = 0
        let clock = ContinuousClock()
        let start = clock.now
        switch variant {
        case .row, .draw:
            var sum = [Double](repeating: 0, count: n)
            // Each frame on the air keeps the powers it added, as the medium's touch list does.
            var added = [[Double]](repeating: [], count: onAir)
            let fading = variant == .draw ? channel.fading : nil
            let body = fading?.storage.body ?? UnsafeMutableBufferPointer(start: nil, count: 0)
            let key = channel.fadingKey
            for k in 0..<(frames + onAir) {
                let slot = k % onAir
                var powers = added[slot]
                added[slot] = []
                if k >= onAir && k - onAir < frames && sent[k - onAir] {
                    // The frame begun `onAir` frames ago ends: its powers are taken back.
                    let (nodes, _) = channel.neighbourhood(of: sender(k - onAir))
                    sum.withUnsafeMutableBufferPointer { s in
                        for j in 0..<nodes.count { s[Int(nodes[j])] -= powers[j] }
                    }
                }
                if k < frames && sent[k] {
                    let (nodes, staticMw) = channel.neighbourhood(of: sender(k))
                    let fadingRow = RicianPowerTable.row(key: key, UInt64(k))
                    powers.removeAll(keepingCapacity: true)
                    powers.append(contentsOf: repeatElement(0, count: nodes.count))
                    sum.withUnsafeMutableBufferPointer { s in
                        powers.withUnsafeMutableBufferPointer { out in
                            for j in 0..<nodes.count {
                                let r = Int(nodes[j])
                                var mw = Double(staticMw[j])
                                if let fading {
                                    mw *= fading.power(
                                        bits: RicianPowerTable.uniformBits(row: fadingRow, UInt64(r)),
                                        body: body)
                                }
                                out[j] = mw
                                s[r] += mw
                            }
                        }
                    }
                    visits &+= UInt64(nodes.count)
                }
                added[slot] = powers
            }
            for x in sum { checksum &+= x.bitPattern }
        case .medium:
            var medium = SharedMedium<Int>(channel: channel)
            var slots = [Int?](repeating: nil, count: onAir)
            for k in 0..<(frames + onAir) {
                let now = step * Int64(k)
                if let slot = slots[k % onAir] {
                    _ = medium.end(slot, now: now)
                    slots[k % onAir] = nil
                    checksum &+= UInt64(medium.indications.count)
                    medium.indications.removeAll()
                }
                guard k < frames, sent[k] else { continue }
                let i = sender(k)
                slots[k % onAir] = medium.begin(k, from: i, awdl: nil, now: now, airtime: Self.airtime)
                visits &+= UInt64(channel.neighbourhood(of: i).nodes.count)
                checksum &+= UInt64(medium.indications.count)
                medium.indications.removeAll()
            }
        }
        let elapsed = clock.now - start
        return BenchmarkFigure(label: variant.rawValue, events: visits, seconds: elapsed.seconds, checksum: checksum)
    }
}

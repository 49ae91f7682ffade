/// An advertiser's state: where it is in its advertising event and what it has sent.
///
/// An advertising event (Core Specification v5.4, Vol 6, Part B §4.4.2) sends one PDU on each
/// of its channels in order. After a connectable or scannable PDU the advertiser listens on
/// that channel: if no packet starts within T_IFS plus the preamble and access address it hops
/// on; if it decodes a SCAN_REQ addressed to it, it answers with SCAN_RSP T_IFS after the
/// request ends. Events start every advInterval + advDelay, advDelay uniform on
/// [0, `randomDelayMs`] (§4.4.2.2.1).
struct BleAdvertiserState {
    let spec: BleAdvertiserSpec
    /// When a connection to it began (`BleConnection`; `nil`: not connected).
    var connectedSince: SimTime?
    /// Its listening receiver in the medium.
    let receiver: Int
    let rotation: AddressRotation
    /// advDelay draws and the first event's phase.
    var stream: RandomStream
    let advAirtime: SimTime
    let requestAirtime: SimTime
    let responseAirtime: SimTime
    /// Preamble + access address: how long after T_IFS a listener waits for a packet to start.
    let detectTime: SimTime
    /// Index into `spec.channels` of the current PDU.
    var step = 0
    var eventStart: SimTime = .zero
    /// Bumped whenever a pending step event becomes stale.
    var generation: UInt64 = 0
    var listening = false
    /// Counters.
    var events: UInt64 = 0
    var pdusSent: UInt64 = 0
    var requestsReceived: UInt64 = 0
    var responsesSent: UInt64 = 0

    /// With bonded peers (`spec.bondedTo`): its IRK and the seed of its addresses' random parts.
    var privacy: (irk: [UInt8], seed: UInt64)? = nil

    var interval: SimTime {
        spec.highDutyCycle ? BleTiming.highDutyInterval : .microseconds(Int((spec.intervalMs * 1000).rounded()))
    }

    /// Its resolvable private address number `epoch` (with a bonded peer): `prand` from the
    /// seed and the epoch, the hash from its IRK (`BlePrivacy`).
    func resolvableAddress(epoch: UInt32) -> UInt64? {
        guard let privacy else { return nil }
        var bits = SplitMix64(state: privacy.seed ^ UInt64(epoch))
        return BlePrivacy.address(irk: privacy.irk, prand: BlePrivacy.prand(random: bits.next()))
    }
}

/// A scanner's state: its window and channel, and the active-scanning exchange in progress.
///
/// Windows of `windowMs` open every `intervalMs`, each on the next channel of the rotation
/// (Vol 6 Part B §4.4.3). An active scanner answers a scannable PDU with SCAN_REQ T_IFS after
/// it, when its backoff counter reaches zero, and listens for SCAN_RSP (§4.4.3.2): the counter
/// starts at 1 and is redrawn uniformly on [1, upperLimit] after each exchange; upperLimit
/// (1 … 256) doubles after two consecutive failures and halves after two consecutive successes.
struct BleScannerState {
    enum Phase: Equatable {
        case scanning
        case requestPending
        case requesting
        case awaitingResponse
    }
    let spec: BleScannerSpec
    let receiver: Int
    var stream: RandomStream
    var rotation = 0
    var windowOpen = false
    var windowEnd: SimTime = .zero
    var channel = 37
    var phase = Phase.scanning
    /// The advertiser of the exchange in progress and the channel it runs on.
    var target = -1
    var exchangeChannel = 37
    var generation: UInt64 = 0
    var upperLimit = 1
    var backoffCount = 1
    var consecutiveSuccesses = 0
    var consecutiveFailures = 0
    /// Counters.
    var windows: UInt64 = 0
    var requestsSent: UInt64 = 0
    var responsesReceived: UInt64 = 0
    var receptionsCut: UInt64 = 0

    var interval: SimTime { .microseconds(Int((spec.intervalMs * 1000).rounded())) }
    var window: SimTime { .microseconds(Int((spec.windowMs * 1000).rounded())) }

    /// Records the outcome of an exchange and redraws the backoff counter (§4.4.3.2).
    mutating func exchangeEnded(success: Bool) {
        if success {
            consecutiveFailures = 0
            consecutiveSuccesses += 1
            if consecutiveSuccesses == 2 {
                upperLimit = Swift.max(upperLimit / 2, 1)
                consecutiveSuccesses = 0
            }
        } else {
            consecutiveSuccesses = 0
            consecutiveFailures += 1
            if consecutiveFailures == 2 {
                upperLimit = Swift.min(upperLimit * 2, 256)
                consecutiveFailures = 0
            }
        }
        backoffCount = 1 + Int(stream.uniformInt(below: UInt64(upperLimit)))
    }
}

/// A 2.4 GHz Wi-Fi transmitter: frames of `frameUs` with exponential gaps of mean
/// frameUs·(1 − load)/load while it is eligible (always, or in AWDL's slot 8 on channel 6).
struct BleWifiState {
    let spec: BleWifiSpec
    var stream: RandomStream
    var frames: UInt64 = 0

    var frame: SimTime { .microseconds(Int(spec.frameUs.rounded(.up))) }

    /// The AWDL slot on channel 6: slot 8 of each 16-slot sequence (`AwdlSchedule`).
    static func awdlSlot(containingOrAfter t: SimTime) -> (start: SimTime, end: SimTime) {
        let slot = AwdlSchedule.slotDuration.nanoseconds
        let sequence = slot * Int64(AwdlSchedule.slotsPerSequence)
        let base = t.nanoseconds / sequence * sequence
        var start = base + 8 * slot
        if t.nanoseconds >= start + slot { start += sequence }
        return (SimTime(nanoseconds: start), SimTime(nanoseconds: start + slot))
    }
}

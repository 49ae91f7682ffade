/// The kind of device address an advertiser uses (Core Specification v5.4, Vol 6, Part B
/// §1.3; seed 004 §3.2.1).
///
/// A scanner app never sees the address itself: iOS gives each peripheral a UUID derived from
/// the address it advertised (seed 004 §4.1.1), so a new address is a new device to the app.
public enum BleAddressType: String, Sendable, CaseIterable {
    /// The device's globally unique public address: never changes.
    case `public`
    /// A random static address: kept for the whole run (it may change only at a power cycle).
    case randomStatic = "random-static"
    /// A resolvable private address: a new one every rotation interval; only the phones the
    /// device is bonded to resolve it (`bondedTo`, `BlePrivacy`) and keep its identifier.
    case resolvable
    /// A non-resolvable private address: a new one every rotation interval.
    case nonResolvable = "non-resolvable"

    /// Whether the address changes every rotation interval.
    public var rotates: Bool { self == .resolvable || self == .nonResolvable }
}

/// When an advertiser's private address changes.
///
/// The Core Specification recommends a new private address every 15 minutes (radio.md; the
/// default `ble.addressRotationS`); seed 004 saw trackers keep theirs much longer, which a
/// longer interval reproduces. Devices do not change addresses in step: each advertiser's
/// first change falls at a phase drawn uniformly over one interval (stream
/// `ble:adv:<k>/address`).
public struct AddressRotation: Sendable, Equatable {
    /// Rotation interval; `nil` for addresses that never change.
    public let interval: SimTime?
    /// Offset of this device's rotation grid.
    public let phase: SimTime

    /// A rotation every `interval` with grid offset `phase` (`interval` nil: never).
    public init(interval: SimTime?, phase: SimTime) {
        self.interval = interval
        self.phase = phase
    }

    /// The number of the address in use at `time` (0 until the first change).
    public func epoch(at time: SimTime) -> UInt32 {
        guard let interval, interval.nanoseconds > 0 else { return 0 }
        let shifted = time.nanoseconds + (interval.nanoseconds - phase.nanoseconds)
        return UInt32(truncatingIfNeeded: shifted / interval.nanoseconds)
    }
}

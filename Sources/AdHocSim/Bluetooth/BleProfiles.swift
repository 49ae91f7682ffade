/// The defaults of an advertiser or scanner, per iOS app state (`profile`), and without one.
///
/// What Apple documents (Core Bluetooth Programming Guide, "Best Practices for Setting Up Your
/// Local Device as a Peripheral" and "Core Bluetooth Background Processing for iOS Apps";
/// `CBPeripheralManager.startAdvertising(_:)`):
/// - an app may advertise only a local name and service UUIDs; in the foreground up to 28
///   bytes of the initial advertising data plus 10 bytes of local name in the scan response;
/// - in the background the local name is not advertised, service UUIDs move to an "overflow
///   area" only iOS scanners looking for them can read, and advertising may slow down;
/// - a background scan coalesces duplicates, may use a longer scan interval, and a scan for
///   all peripherals is cancelled.
/// What Apple does not document, and is therefore an assumption here: the iPhone's own
/// advertising interval (foreground 20 ms, the interval Apple asks accessories to use while
/// they want to be found, radio.md; background 200 ms, one developer's sniffed observation of
/// "about every 0.2 s"), the scan interval and window (foreground: continuous, 30 ms per
/// channel; background: 30 ms every 300 ms), the TX power (0 dBm) and that iOS scans actively
/// (inferred from Apple's documentation: the foreground local name sits in the scan response
/// and iOS centrals show it, which needs SCAN_REQ).
public enum BleProfiles {
    /// An advertiser's defaults.
    public static func advertiser(_ profile: BleAppProfile?, node: Int) -> BleAdvertiserSpec {
        var spec = BleAdvertiserSpec(
            node: node, pdu: .advInd, intervalMs: 100, randomDelayMs: BleTiming.maxAdvertisingDelayMs,
            payloadBytes: 31, scanResponseBytes: 0, txPowerDbm: 0, advertisesTxPower: false, phy: .le1M,
            address: .resolvable, service: nil, channels: [37, 38, 39], target: nil, start: .zero)
        switch profile {
        case nil:
            // Without a profile: an iBeacon-like accessory, 100 ms (radio.md), a full 31-byte PDU.
            break
        case .iosForeground:
            spec.intervalMs = 20
            // Flags (3 bytes, added by the stack) + the app's 28 bytes; local name in the response.
            spec.payloadBytes = 31
            spec.scanResponseBytes = 12
        case .iosBackground:
            spec.intervalMs = 200
            // Flags (3) + Apple manufacturer data carrying the overflow-area bitmask (2 + 19),
            // as sniffed by developers; no local name, so no scan response data.
            spec.payloadBytes = 24
            spec.scanResponseBytes = 0
        }
        return spec
    }

    /// A scanner's defaults.
    public static func scanner(_ profile: BleAppProfile?, node: Int) -> BleScannerSpec {
        var spec = BleScannerSpec(
            node: node, intervalMs: 30, windowMs: 30, active: true, duplicateFilter: true, channels: [37, 38, 39],
            serviceFilter: nil, start: .zero)
        if profile == .iosBackground {
            spec.intervalMs = 300
            spec.windowMs = 30
        }
        return spec
    }
}

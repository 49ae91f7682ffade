/// What an advertiser says: its AdvData or ScanRspData as AD structures (Core Specification
/// Supplement, Part A §1; Core Specification v5.4, Vol 3, Part C §11: each structure is a length
/// octet, an AD type octet and its data), and what an iOS app is shown of it.
public struct BleAdStructure: Sendable, Equatable {
    /// The AD types AdHocSim models (Assigned Numbers, "Common Data Types").
    public enum Kind: Sendable, Equatable {
        /// Flags (0x01): LE Limited (bit 0) and General (bit 1) Discoverable Mode, BR/EDR Not
        /// Supported (bit 2), one octet (Supplement Part A §1.3).
        case flags(limited: Bool, general: Bool, brEdrNotSupported: Bool)
        /// Complete (0x09) or shortened (0x08) local name, UTF-8 (§1.2).
        case localName(String, complete: Bool)
        /// Complete (0x03) or incomplete (0x02) list of 16-bit service UUIDs, two octets each
        /// (§1.1).
        case uuids16([UInt16], complete: Bool)
        /// Complete (0x07) or incomplete (0x06) list of 128-bit service UUIDs, sixteen octets
        /// each (§1.1).
        case uuids128([String], complete: Bool)
        /// List of 16-bit (0x14) service solicitation UUIDs: services the device looks for on a
        /// central (§1.10).
        case solicited16([UInt16])
        /// List of 128-bit (0x15) service solicitation UUIDs (§1.10).
        case solicited128([String])
        /// Service data for a 16-bit UUID (0x16): the UUID and `bytes` of data (§1.11).
        case serviceData16(uuid: UInt16, bytes: Int)
        /// Manufacturer specific data (0xFF): a company identifier and `bytes` of data (§1.4).
        case manufacturer(company: UInt16, bytes: Int)
        /// TX power level (0x0A), one octet, dBm (§1.5).
        case txPower(Int)
    }

    /// What it is.
    public var kind: Kind

    /// Its octets on the air: length, type and data.
    public var bytes: Int {
        switch kind {
        case .flags, .txPower: return 3
        case .localName(let s, _): return 2 + s.utf8.count
        case .uuids16(let u, _), .solicited16(let u): return 2 + 2 * u.count
        case .uuids128(let u, _), .solicited128(let u): return 2 + 16 * u.count
        case .serviceData16(_, let n), .manufacturer(_, let n): return 4 + n
        }
    }
}

/// AdvData or ScanRspData: AD structures that must fit one legacy PDU's 31 octets (Core
/// Specification v5.4, Vol 6, Part B §2.3.1.1).
public struct BleAdvertisingData: Sendable, Equatable {
    /// The structures, in file order.
    public var structures: [BleAdStructure] = []

    /// No data.
    public init(_ structures: [BleAdStructure] = []) { self.structures = structures }

    /// Octets on the air.
    public var bytes: Int { structures.reduce(0) { $0 + $1.bytes } }

    /// The local name, complete or shortened, if any.
    public var localName: String? {
        for s in structures { if case .localName(let n, _) = s.kind { return n } }
        return nil
    }
    /// The manufacturer data's company, if any.
    public var company: UInt16? {
        for s in structures { if case .manufacturer(let c, _) = s.kind { return c } }
        return nil
    }
    /// Service UUIDs listed, complete lists and incomplete ones, as text (four hex digits or the
    /// 128-bit form).
    public var serviceUUIDs: [String] {
        structures.flatMap { s -> [String] in
            switch s.kind {
            case .uuids16(let u, _): return u.map(BleUuid.text)
            case .uuids128(let u, _): return u
            default: return []
            }
        }
    }
    /// Service solicitation UUIDs listed, as text.
    public var solicitedUUIDs: [String] {
        structures.flatMap { s -> [String] in
            switch s.kind {
            case .solicited16(let u): return u.map(BleUuid.text)
            case .solicited128(let u): return u
            default: return []
            }
        }
    }
    /// The 16-bit UUIDs it carries service data for.
    public var serviceDataUUIDs: [String] {
        structures.compactMap {
            if case .serviceData16(let u, _) = $0.kind { return BleUuid.text(u) } else { return nil }
        }
    }
    /// The advertised TX power level, if any.
    public var txPower: Int? {
        for s in structures { if case .txPower(let p) = s.kind { return p } }
        return nil
    }
}

/// A device's GAP discoverable mode as its Flags say (Core Specification v5.4, Vol 3, Part C
/// §9.2): limited or general discoverable, or neither (non-discoverable, also without Flags).
public enum BleDiscoverability: Sendable, Equatable {
    case limited, general, nonDiscoverable
}

/// Which advertisers a scanner's host reports (Core Specification v5.4, Vol 3, Part C §9).
public enum BleDiscovery: String, Sendable, Equatable, CaseIterable {
    /// The observation procedure (§9.1.2): every advertisement decoded.
    case observe
    /// The general discovery procedure (§9.2.6): only devices in general or limited
    /// discoverable mode. An advertiser that declares no AD structures (`payloadBytes` only)
    /// counts as general discoverable: its Flags are not known.
    case general
    /// The limited discovery procedure (§9.2.5): only devices in limited discoverable mode.
    case limited
}

extension BleAdvertisingData {
    /// The discoverable mode its Flags structure gives (none: non-discoverable).
    public var discoverability: BleDiscoverability {
        for s in structures {
            if case .flags(let limited, let general, _) = s.kind {
                return limited ? .limited : (general ? .general : .nonDiscoverable)
            }
        }
        return .nonDiscoverable
    }
}

/// 16-bit UUIDs and company identifiers as text.
public enum BleUuid {
    /// Four upper-case hex digits.
    public static func text(_ u: UInt16) -> String {
        let h = String(u, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - h.count) + h
    }
}

/// The Bluetooth SIG's company identifiers AdHocSim names (Assigned Numbers, "Company
/// Identifiers", as Android's `BluetoothAssignedNumbers` copies them; Sony's 0x012D as seed 004
/// decodes its Figure 6.1): the ones the shipped scenarios use. A manufacturer data structure
/// must name one of these (a typo would otherwise pass as a company nobody knows).
public enum BleCompanies {
    /// (identifier, name), by identifier.
    public static let known: [(id: UInt16, name: String)] = [
        (0x0006, "Microsoft"), (0x000D, "Texas Instruments"), (0x000F, "Broadcom"), (0x004C, "Apple"),
        (0x0057, "Harman International"), (0x0059, "Nordic Semiconductor"), (0x006B, "Polar Electro"),
        (0x0075, "Samsung Electronics"), (0x0082, "Sennheiser Communications"), (0x0087, "Garmin International"),
        (0x009E, "Bose"), (0x00C4, "LG Electronics"), (0x00CC, "Beats Electronics"), (0x00D0, "Dexcom"),
        (0x00E0, "Google"), (0x012D, "Sony")
    ]

    /// The company's name, or `nil` when AdHocSim does not know the identifier.
    public static func name(_ id: UInt16) -> String? { known.first { $0.id == id }?.name }

    /// Apple's identifier: iOS does not hand an app the manufacturer data of Apple's own
    /// advertisements (iBeacon frames go to Core Location, never to Core Bluetooth; seed 004's
    /// Table 5.4 shows 29–42 of ~1 000 station devices with manufacturer data an app saw, far
    /// fewer than the phones and earbuds there). An assumption: Apple documents no such rule.
    public static let apple: UInt16 = 0x004C
}

/// The Bluetooth SIG's 16-bit UUIDs assigned to member companies that the shipped scenarios
/// use (Assigned Numbers, "16-bit UUIDs", member services), so an app can name the company
/// behind a service as seed 004's did: FD2A Sony and FEED Tile (section 6.3), FD59 Samsung's
/// SmartTag and FE95 Xiaomi's monitor (Table 5.3), FE2C Google's Fast Pair service (Google's
/// Fast Pair provider specification).
public enum BleMemberUuids {
    /// (UUID as four upper-case hex digits, member), by UUID.
    public static let known: [(uuid: String, member: String)] = [
        ("FD2A", "Sony"), ("FD59", "Samsung Electronics"), ("FE2C", "Google"), ("FE95", "Xiaomi"), ("FEED", "Tile")
    ]

    /// The member a 16-bit service UUID is assigned to, or `nil` (SIG-defined services such as
    /// 180A, Device Information, name no company).
    public static func member(_ uuid: String) -> String? { known.first { $0.uuid == uuid.uppercased() }?.member }
}

extension BleAdvertisingData {
    /// What iOS hands a scanning app for one advertiser (`centralManager(_:didDiscover:
    /// advertisementData:rssi:)`): the keys of `advertisementData` it can fill, from the
    /// advertising data and, when the scanner got a scan response, the scan response's.
    public struct AppView: Sendable, Equatable {
        /// `CBAdvertisementDataLocalNameKey`.
        public var localName: String?
        /// The company of `CBAdvertisementDataManufacturerDataKey` (`nil`: no key; Apple's
        /// own is withheld, `BleCompanies.apple`).
        public var company: UInt16?
        /// `CBAdvertisementDataServiceUUIDsKey`: the complete and incomplete lists' UUIDs
        /// (assumption: Apple documents the key as the advertised service UUIDs, not which list).
        public var serviceUUIDs: [String]
        /// `CBAdvertisementDataSolicitedServiceUUIDsKey`.
        public var solicitedUUIDs: [String] = []
        /// The keys of `CBAdvertisementDataServiceDataKey`.
        public var serviceDataUUIDs: [String]
        /// `CBAdvertisementDataTxPowerLevelKey`.
        public var txPower: Int?
        /// `CBAdvertisementDataIsConnectable`.
        public var connectable: Bool
    }

    /// The app's view of `data` plus `response` (when one was received) from a PDU that is
    /// `connectable` or not.
    public static func appView(data: BleAdvertisingData, response: BleAdvertisingData?, connectable: Bool) -> AppView {
        let both = BleAdvertisingData(data.structures + (response?.structures ?? []))
        let company = both.company.flatMap { $0 == BleCompanies.apple ? nil : $0 }
        return AppView(
            localName: both.localName, company: company, serviceUUIDs: both.serviceUUIDs,
            solicitedUUIDs: both.solicitedUUIDs, serviceDataUUIDs: both.serviceDataUUIDs, txPower: both.txPower,
            connectable: connectable)
    }
}

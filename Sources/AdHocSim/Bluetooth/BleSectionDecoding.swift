/// Reading the `ble` section: its declared keys (`BleParameters`), then the rules between keys
/// and between items, which a schema cannot say.
extension ScenarioDecoder {
    /// Decodes the `ble` section.
    func decodeBle(_ node: JSONNode, _ bp: JSONPath, nodeIndex: [String: Int], duration: Double?) -> BleSpec? {
        let decoded = decode(BleParameters.section, node, bp, into: BleSpec(), perNode: false) { r, spec in
            var ok = true
            func items<V>(_ key: String, _ what: String, _ read: (JSONNode, JSONPath) -> V?) -> [V] {
                guard let v = r.value(key) else { return [] }
                guard let list = self.values.list(v, bp.appending(key), what, read) else {
                    ok = false
                    return []
                }
                return list
            }
            spec.advertisers = items("advertisers", "an array of advertisers") {
                self.decodeAdvertiser($0, $1, nodeIndex: nodeIndex, duration: duration)
            }
            spec.scanners = items("scanners", "an array of scanners") {
                self.decodeScanner($0, $1, nodeIndex: nodeIndex, duration: duration)
            }
            spec.wifi = items("wifi", "an array of Wi-Fi transmitters") {
                self.decodeBleWifi($0, $1, nodeIndex: nodeIndex, duration: duration)
            }
            spec.connections = items("connections", "an array of LE connections") {
                self.decodeBleConnection($0, $1, nodeIndex: nodeIndex, duration: duration)
            }
            return ok
        }
        guard let spec = decoded else { return nil }
        if spec.advertisers.count * spec.scanners.count > BleSpec.maxPairs {
            sink.report(
                "\(spec.scanners.count) scanners × \(spec.advertisers.count) advertisers is more than the "
                    + "\(BleSpec.maxPairs) scanner–advertiser pairs a run keeps records for",
                path: bp, at: node.origin)
            return nil
        }
        if spec.advertisers.isEmpty && spec.scanners.isEmpty && spec.connections.isEmpty {
            sink.report("a ble section needs at least one advertiser, scanner or connection", path: bp, at: node.origin)
            return nil
        }
        var ok = true
        // An initiating central listens with one of its scanners for one of the peripheral's
        // connectable advertising PDUs: the nodes looked up in sets made once, so the check is
        // linear in connections, scanners and advertisers together.
        let scanning = Set(spec.scanners.map(\.node))
        let connectable = Set(spec.advertisers.filter(\.pdu.isConnectable).map(\.node))
        for (i, c) in spec.connections.enumerated() where c.initiate {
            let at = bp.appending("connections").appending(i).appending("initiate")
            if !scanning.contains(c.central) {
                sink.report(
                    "an initiating central needs a scanner on its node (ble.scanners)", path: at, at: node.origin)
                ok = false
            }
            if !connectable.contains(c.peripheral) {
                sink.report(
                    "the peripheral needs a connectable advertiser (ADV_IND or ADV_DIRECT_IND) for a central to initiate from",
                    path: at, at: node.origin)
                ok = false
            }
        }
        // Both checks are linear in the number of advertisers and scanners (a
        // pairwise search took minutes at 300 000 advertisers).
        var advertiserOf: [Int: Int] = [:]
        for (i, a) in spec.advertisers.enumerated() {
            if let j = advertiserOf[a.node] {
                sink.report(
                    "this node already advertises (ble.advertisers[\(j)]); one advertising set per node",
                    path: bp.appending("advertisers").appending(i).appending("node"), at: node.origin)
                ok = false
            } else {
                advertiserOf[a.node] = i
            }
        }
        // A phone runs one scan at a time: scanners of one node must not overlap in time
        // (several scanning sessions of one phone are several scanners with startS and durationS).
        for (i, j) in BleSpec.overlappingScanners(spec.scanners) {
            sink.report(
                "this node already scans then (ble.scanners[\(j)]); a phone runs one scan at a time, "
                    + "so scanners of one node need startS and durationS that do not overlap",
                path: bp.appending("scanners").appending(i).appending("node"), at: node.origin)
            ok = false
        }
        return ok ? spec : nil
    }

    func decodeAdvertiser(
        _ item: JSONNode, _ p: JSONPath, nodeIndex: [String: Int], duration: Double?
    ) -> BleAdvertiserSpec? {
        let start = BleParameters.Advertiser(
            nodeIndex: nodeIndex, runDuration: duration, profile: nil, value: BleProfiles.advertiser(nil, node: 0))
        guard
            let read = decode(
                BleParameters.advertiser, item, p, into: start, perNode: false)
        else { return nil }
        var spec = read.value
        let profile = read.profile
        func given(_ key: String) -> Bool { item.members?.contains { $0.key == key } ?? false }
        var ok = true
        if spec.pdu == .advDirectInd {
            if spec.target == nil {
                sink.report("ADV_DIRECT_IND needs a \"target\": the node it is directed to", path: p, at: item.origin)
                ok = false
            }
            if spec.payloadBytes > 0, given("payloadBytes") {
                sink.report(
                    "ADV_DIRECT_IND carries no advertising data (its payload is AdvA + TargetA only)",
                    path: p.appending("payloadBytes"), at: item.origin)
                ok = false
            }
            spec.payloadBytes = 0
        } else if spec.target != nil {
            sink.report("only ADV_DIRECT_IND has a \"target\"", path: p.appending("target"), at: item.origin)
            ok = false
        }
        if profile != nil && spec.pdu != .advInd {
            sink.report(
                "an iOS app advertises through CBPeripheralManager, which always sends connectable ADV_IND; "
                    + "drop \"pdu\" or the profile", path: p.appending("pdu"), at: item.origin)
            ok = false
        }
        if profile != nil && spec.advertisesTxPower {
            sink.report(
                "an iOS app may advertise only a local name and service UUIDs (CBPeripheralManager."
                    + "startAdvertising), not its TX power level", path: p.appending("advertisesTxPower"),
                at: item.origin)
            ok = false
        }
        // AD structures set the byte counts they imply; a count given beside them is a
        // contradiction the file must resolve.
        if let d = spec.data {
            for key in ["payloadBytes", "advertisesTxPower"] where given(key) {
                sink.report(
                    "\"data\" gives the advertising data's AD structures, which set \(key); drop one of the two",
                    path: p.appending(key), at: item.origin)
                ok = false
            }
            spec.payloadBytes = spec.pdu == .advDirectInd ? 0 : d.bytes
            spec.advertisesTxPower = d.txPower != nil
            let appAllowed = d.structures.allSatisfy {
                switch $0.kind {
                case .localName, .uuids16, .uuids128, .flags: return true
                default: return false
                }
            }
            if profile != nil && !appAllowed {
                sink.report(
                    "an iOS app may advertise only a local name and service UUIDs (CBPeripheralManager."
                        + "startAdvertising); drop the other AD structures or the profile", path: p.appending("data"),
                    at: item.origin)
                ok = false
            }
            if spec.pdu == .advDirectInd && d.bytes > 0 {
                sink.report("ADV_DIRECT_IND carries no advertising data", path: p.appending("data"), at: item.origin)
                ok = false
            }
        }
        if let r = spec.scanResponseData {
            if given("scanResponseBytes") {
                sink.report(
                    "\"scanResponseData\" gives the scan response's AD structures, which set scanResponseBytes; drop one",
                    path: p.appending("scanResponseBytes"), at: item.origin)
                ok = false
            }
            spec.scanResponseBytes = r.bytes
            if !spec.pdu.isScannable && r.bytes > 0 {
                sink.report(
                    "\(spec.pdu.rawValue) is not scannable, so it has no scan response",
                    path: p.appending("scanResponseData"), at: item.origin)
                ok = false
            }
        }
        if spec.highDutyCycle && spec.pdu != .advDirectInd {
            sink.report(
                "only ADV_DIRECT_IND has a high duty cycle", path: p.appending("highDutyCycle"), at: item.origin)
            ok = false
        }
        // Bonding: the IRK goes to the bonded phones, who resolve a resolvable private address.
        if spec.irk != nil && spec.bondedTo.isEmpty {
            sink.report(
                "a device with an identity resolving key shares it with the phones it is bonded to: "
                    + "give them in \"bondedTo\"", path: p.appending("irk"), at: item.origin)
            ok = false
        }
        if given("bondedTo") && spec.bondedTo.isEmpty {
            sink.report("a bonded device needs at least one peer", path: p.appending("bondedTo"), at: item.origin)
            ok = false
        }
        if !spec.bondedTo.isEmpty && spec.address != .resolvable {
            sink.report(
                "only a resolvable private address is resolved with the IRK; a bonded device here needs "
                    + "\"address\": \"resolvable\"", path: p.appending("address"), at: item.origin)
            ok = false
        }
        if spec.bondedTo.contains(spec.node) {
            sink.report("a device is not bonded to itself", path: p.appending("bondedTo"), at: item.origin)
            ok = false
        }
        if !spec.pdu.isScannable && spec.scanResponseBytes > 0 && given("scanResponseBytes") {
            sink.report(
                "\(spec.pdu.rawValue) is not scannable, so it has no scan response",
                path: p.appending("scanResponseBytes"), at: item.origin)
            ok = false
        }
        return ok ? spec : nil
    }

    func decodeScanner(_ item: JSONNode, _ p: JSONPath, nodeIndex: [String: Int], duration: Double?) -> BleScannerSpec?
    {
        let start = BleParameters.Scanner(
            nodeIndex: nodeIndex, runDuration: duration, profile: nil, value: BleProfiles.scanner(nil, node: 0))
        guard
            let read = decode(
                BleParameters.scanner, item, p, into: start, perNode: false)
        else { return nil }
        let spec = read.value
        if spec.windowMs > spec.intervalMs {
            let windowGiven = item.members?.contains { $0.key == "windowMs" } ?? false
            sink.report(
                "the scan window (\(JSONNumber(spec.windowMs).literal) ms) is longer than the scan interval "
                    + "(\(JSONNumber(spec.intervalMs).literal) ms); the window must fit in the interval",
                path: p.appending(windowGiven ? "windowMs" : "intervalMs"), at: item.origin)
            return nil
        }
        if read.profile == .iosBackground && (spec.serviceFilter ?? []).isEmpty {
            sink.report(
                "iOS cancels a scan for all peripherals when the app goes to the background; a background scanner "
                    + "needs a \"serviceFilter\"", path: p, at: item.origin)
            return nil
        }
        return spec
    }

    func decodeBleWifi(_ item: JSONNode, _ p: JSONPath, nodeIndex: [String: Int], duration: Double?) -> BleWifiSpec? {
        let start = BleParameters.Wifi(
            nodeIndex: nodeIndex, runDuration: duration, profile: nil,
            value: BleWifiSpec(node: 0, channel: 6, txPowerDbm: 16.02, pattern: .awdl, load: 0.5, frameUs: 1000))
        guard
            let read = decode(
                BleParameters.wifi, item, p, into: start, perNode: false)
        else { return nil }
        if read.value.pattern == .awdl && read.value.channel != 6 {
            sink.report(
                "AWDL's 2.4 GHz slot is always on channel 6; use \"pattern\": \"continuous\" for another channel",
                path: p.appending("channel"), at: item.origin)
            return nil
        }
        return read.value
    }
}

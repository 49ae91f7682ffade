/// Reading AD structures from a scenario (`ble.advertisers[i].data`, `scanResponseData`): each
/// item an object with one key naming its type, checked against the Core Specification
/// Supplement's formats and, together, against a legacy PDU's 31 octets.
enum BleAdDecoding {
    /// The item forms, for messages and the schema.
    static let forms =
        "{\"flags\": [\"le-general-discoverable\", ...]}, {\"name\": \"...\"}, {\"shortName\": \"...\"}, "
        + "{\"uuids16\": [\"FD59\"]}, {\"uuids128\": [\"...\"]}, {\"uuids16Incomplete\": [...]}, "
        + "{\"uuids128Incomplete\": [...]}, {\"solicited16\": [...]}, {\"solicited128\": [...]}, {\"serviceData16\": {\"uuid\": \"FE95\", \"bytes\": N}}, "
        + "{\"manufacturer\": {\"company\": \"0x004C\", \"bytes\": N}}, {\"txPower\": dBm}"

    /// The AD structure keys, in the order the docs list them.
    static let types = [
        "flags", "name", "shortName", "uuids16", "uuids128", "uuids16Incomplete", "uuids128Incomplete", "solicited16",
        "solicited128", "serviceData16", "manufacturer", "txPower"
    ]

    /// The JSON Schema of a list of AD structures.
    static var schema: JSONSchema {
        let uuids16 = JSONSchema.array(of: .string.pattern("^[0-9A-Fa-f]{4}$")).minItems(1)
        let uuids128 = JSONSchema.array(of: .string).minItems(1)
        let bytes = JSONSchema.integer.minimum(0)
        return .array(
            of: .object.minProperties(1).maxProperties(1).properties([
                "flags": .array(
                    of: .oneOf(words: ["le-limited-discoverable", "le-general-discoverable", "br-edr-not-supported"])),
                "name": .string.minLength(1), "shortName": .string.minLength(1),
                "uuids16": uuids16, "uuids128": uuids128, "uuids16Incomplete": uuids16, "uuids128Incomplete": uuids128,
                "solicited16": uuids16, "solicited128": uuids128,
                "serviceData16": .object.properties(["uuid": .string, "bytes": bytes]).required(["uuid", "bytes"])
                    .closed(),
                "manufacturer": .object.properties(["company": .string, "bytes": bytes]).required(["company", "bytes"])
                    .closed(),
                "txPower": .integer.minimum(-127).maximum(127)
            ]).closed())
    }

    /// The list at `v`, or `nil` after reporting every problem.
    static func decode(_ values: ValueReader, _ v: JSONNode, _ at: JSONPath) -> BleAdvertisingData? {
        guard let items = values.array(v, at, "a list of AD structures") else { return nil }
        var out = BleAdvertisingData()
        var ok = true
        for (i, item) in items.enumerated() {
            let p = at.appending(i)
            guard case .object(let members) = item.value, members.count == 1, let m = members.first else {
                values.sink.report(
                    "expected one AD structure, an object with one key: \(forms)", path: p, at: item.origin)
                ok = false
                continue
            }
            guard types.contains(m.key) else {
                values.sink.report(
                    "unknown AD structure \"\(Diagnostic.excerpt(m.key))\"; expected one of \(forms)",
                    path: p.appending(m.key),
                    at: m.keyOrigin)
                ok = false
                continue
            }
            // Read through an object reader, which asks for every type it knows (the schema test's
            // key census) and finds the one given.
            guard let r = ObjectReader(item, path: p, sink: values.sink, expected: "an AD structure") else {
                ok = false; continue
            }
            var found: JSONNode?
            for t in types { if let v = r.value(t) { found = v } }
            r.finish()
            if let v = found, let s = structure(values, m.key, v, p.appending(m.key), keyOrigin: m.keyOrigin) {
                out.structures.append(s)
            } else {
                ok = false
            }
        }
        guard ok else { return nil }
        if out.bytes > BlePduType.maxDataBytes {
            let parts = zip(items.indices, out.structures).map { "[\($0)] \($1.bytes)" }.joined(separator: ", ")
            values.sink.report(
                "these AD structures take \(out.bytes) octets (\(parts), each with its length and type octets); "
                    + "a legacy advertising PDU carries at most \(BlePduType.maxDataBytes) (Core Specification v5.4, "
                    + "Vol 6, Part B §2.3.1.1): move some to the scan response or drop them",
                path: at, at: v.origin)
            return nil
        }
        return out
    }

    /// One AD structure of type `key`.
    static func structure(
        _ values: ValueReader, _ key: String, _ v: JSONNode, _ p: JSONPath, keyOrigin: ValueOrigin
    ) -> BleAdStructure? {
        func uuid16(_ n: JSONNode, _ q: JSONPath) -> UInt16? {
            guard let s = values.string(n, q, "a 16-bit UUID of four hex digits, such as \"FD59\"") else { return nil }
            guard let u = HexText.value(s, digits: 4).map({ UInt16($0) }) else {
                values.sink.report(
                    "expected a 16-bit UUID of four hex digits, such as \"FD59\"; found \"\(Diagnostic.excerpt(s))\"",
                    path: q, at: n.origin)
                return nil
            }
            return u
        }
        func dataBytes(_ r: ObjectReader, _ q: JSONPath) -> Int? {
            guard let b = r.required("bytes", "the data's length in bytes") else { return nil }
            return values.integer(b, q.appending("bytes"), "a data length in 0...27 bytes", in: 0...27).map(Int.init)
        }
        switch key {
        case "flags":
            guard let list = values.array(v, p, "a list of flags") else { return nil }
            var flags = (limited: false, general: false, brEdr: false)
            for (k, f) in list.enumerated() {
                guard
                    let w = values.choice(
                        f, p.appending(k), "a flag",
                        from: ["le-limited-discoverable", "le-general-discoverable", "br-edr-not-supported"])
                else { return nil }
                switch w {
                case "le-limited-discoverable": flags.limited = true
                case "le-general-discoverable": flags.general = true
                default: flags.brEdr = true
                }
            }
            if flags.limited && flags.general {
                values.sink.report(
                    "a device is in limited or in general discoverable mode, not both (Core Specification v5.4, Vol 3, Part C §9.2)",
                    path: p, at: v.origin)
                return nil
            }
            return BleAdStructure(
                kind: .flags(limited: flags.limited, general: flags.general, brEdrNotSupported: flags.brEdr))
        case "name", "shortName":
            guard let s = values.string(v, p, "a local name"), !s.isEmpty else {
                if case .string = v.value {
                    values.sink.report("expected a name of at least one character", path: p, at: v.origin)
                }
                return nil
            }
            return BleAdStructure(kind: .localName(s, complete: key == "name"))
        case "uuids16", "uuids16Incomplete", "solicited16":
            guard let list = values.array(v, p, "a list of 16-bit UUIDs"), !list.isEmpty else {
                if case .array = v.value { values.sink.report("expected at least one UUID", path: p, at: v.origin) }
                return nil
            }
            var us: [UInt16] = []
            for (k, e) in list.enumerated() {
                guard let u = uuid16(e, p.appending(k)) else { return nil }; us.append(u)
            }
            switch key {
            case "solicited16": return BleAdStructure(kind: .solicited16(us))
            default: return BleAdStructure(kind: .uuids16(us, complete: key == "uuids16"))
            }
        case "uuids128", "uuids128Incomplete", "solicited128":
            guard let list = values.array(v, p, "a list of 128-bit UUIDs"), !list.isEmpty else {
                if case .array = v.value { values.sink.report("expected at least one UUID", path: p, at: v.origin) }
                return nil
            }
            var us: [String] = []
            for (k, e) in list.enumerated() {
                guard let s = values.string(e, p.appending(k), "a 128-bit UUID") else { return nil }
                let hex = s.split(separator: "-").map(\.count)
                guard hex == [8, 4, 4, 4, 12], s.split(separator: "-").allSatisfy(HexText.isHex), s.utf8.count == 36
                else {
                    values.sink.report(
                        "expected a 128-bit UUID such as \"6E400001-B5A3-F393-E0A9-E50E24DCCA9E\"; found \"\(Diagnostic.excerpt(s))\"",
                        path: p.appending(k), at: e.origin)
                    return nil
                }
                us.append(s.uppercased())
            }
            switch key {
            case "solicited128": return BleAdStructure(kind: .solicited128(us))
            default: return BleAdStructure(kind: .uuids128(us, complete: key == "uuids128"))
            }
        case "serviceData16":
            guard let r = ObjectReader(v, path: p, sink: values.sink, expected: "{\"uuid\": \"FE95\", \"bytes\": N}")
            else { return nil }
            defer { r.finish() }
            let u = r.required("uuid", "a 16-bit UUID").flatMap { uuid16($0, p.appending("uuid")) }
            let n = dataBytes(r, p)
            guard let u, let n else { return nil }
            return BleAdStructure(kind: .serviceData16(uuid: u, bytes: n))
        case "manufacturer":
            guard
                let r = ObjectReader(v, path: p, sink: values.sink, expected: "{\"company\": \"0x004C\", \"bytes\": N}")
            else { return nil }
            defer { r.finish() }
            var company: UInt16?
            if let c = r.required("company", "a company identifier such as \"0x004C\"") {
                let cp = p.appending("company")
                if let s = values.string(c, cp, "a company identifier such as \"0x004C\"") {
                    let digits = s.hasPrefix("0x") || s.hasPrefix("0X") ? String(s.dropFirst(2)) : s
                    if (1...4).contains(digits.utf8.count), HexText.isHex(digits), let id = UInt16(digits, radix: 16),
                        BleCompanies.name(id) != nil
                    {
                        company = id
                    } else {
                        let known = BleCompanies.known.map { "0x\(BleUuid.text($0.id)) \($0.name)" }.joined(
                            separator: ", ")
                        values.sink.report(
                            "\"\(Diagnostic.excerpt(s))\" is not a company identifier AdHocSim knows (Bluetooth SIG "
                                + "assigned numbers; known: \(known))", path: cp, at: c.origin)
                    }
                }
            }
            let n = dataBytes(r, p)
            guard let company, let n else { return nil }
            return BleAdStructure(kind: .manufacturer(company: company, bytes: n))
        case "txPower":
            guard let dbm = values.number(v, p, "a TX power level in -127...127 dBm", in: -127...127) else {
                return nil
            }
            guard dbm == dbm.rounded() else {
                values.sink.report(
                    "expected a whole number of dBm (one signed octet); found \(JSONNumber(dbm).literal)", path: p,
                    at: v.origin)
                return nil
            }
            return BleAdStructure(kind: .txPower(Int(dbm)))
        default:
            values.sink.report(
                "unknown AD structure \"\(Diagnostic.excerpt(key))\"; expected one of \(forms)", path: p, at: keyOrigin)
            return nil
        }
    }
}

/// What an app sets on its own phone's Multipeer objects (`mesh.phones[i]`): the
/// peer's display name and discovery info, its session's encryption preference, how it answers
/// a peer's certificate and the invitations it receives. A phone without an entry takes the
/// mesh's defaults (every invitation with room accepted, `mesh.encryption`, every certificate
/// accepted), which is MAdHoc's own behaviour.
public struct MultipeerPhone: Sendable, Equatable {
    /// How the phone's `MCNearbyServiceAdvertiserDelegate` answers an invitation.
    public enum InvitationPolicy: String, Sendable, Equatable, CaseIterable {
        /// Accept when its sessions have room (MAdHoc), else decline.
        case accept
        /// Decline every invitation: the inviter learns it at the reply.
        case decline
        /// Never call the invitation handler: the inviter waits for `invitePeer`'s timeout.
        case ignore
        /// Accept only the peers in `acceptFrom` (with room), decline the others.
        case acceptListed = "accept-listed"
    }

    /// How the phone's `session(_:didReceiveCertificate:fromPeer:certificateHandler:)` answers.
    public enum CertificatePolicy: String, Sendable, Equatable, CaseIterable {
        /// Calls the handler with `true` (MAdHoc's sessions take any peer).
        case accept
        /// Calls it with `false`: the connection fails.
        case reject
    }

    /// The phone (node index).
    public var node: Int
    /// `MCPeerID.displayName` (at most 63 bytes of UTF-8); `nil`: not set, the frames keep the
    /// 16 bytes their sizes assume.
    public var displayName: String?
    /// `discoveryInfo`, as (key, value) pairs in file order.
    public var discoveryInfo: [(key: String, value: String)] = []
    /// The session's encryption preference; `nil`: `mesh.encryption`.
    public var encryption: SessionEncryption?
    /// See `CertificatePolicy`.
    public var certificate = CertificatePolicy.accept
    /// See `InvitationPolicy`.
    public var invitations = InvitationPolicy.accept
    /// With `accept-listed`: the peers it accepts (node indices).
    public var acceptFrom: [Int] = []
    /// The Bonjour service type its advertiser and browser use
    /// (`MCNearbyServiceAdvertiser(peer:discoveryInfo:serviceType:)`): phones of different
    /// types neither find nor invite each other. Every phone runs one app by default, so one
    /// type (`defaultServiceType`).
    public var serviceType = MultipeerPhone.defaultServiceType

    /// The service type of a phone that sets none: `"madhoc"` (assumption: the seeds name no
    /// type; all MAdHoc phones run one app, so any one name gives the same runs).
    public static let defaultServiceType = "madhoc"

    /// Why `type` is not a service type as Apple documents them for
    /// `MCNearbyServiceAdvertiser` (RFC 6335 §5.1's service names): 1 to 15 characters, ASCII
    /// lowercase letters, digits and hyphens, at least one letter, no hyphen first, last or
    /// next to another; `nil` when it is one.
    public static func serviceTypeProblem(_ type: String) -> String? {
        let scalars = Array(type.unicodeScalars)
        guard (1...15).contains(scalars.count) else { return "1 to 15 characters, found \(scalars.count)" }
        let allowed = scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        guard allowed else { return "only ASCII lowercase letters, digits and hyphens" }
        guard scalars.contains(where: { ("a"..."z").contains($0) }) else { return "at least one letter" }
        guard scalars.first != "-", scalars.last != "-", !type.contains("--") else {
            return "no hyphen at either end or next to another"
        }
        return nil
    }

    /// A phone with the mesh's defaults.
    public init(node: Int) { self.node = node }

    public static func == (a: MultipeerPhone, b: MultipeerPhone) -> Bool {
        a.node == b.node && a.displayName == b.displayName && a.encryption == b.encryption
            && a.certificate == b.certificate && a.invitations == b.invitations && a.acceptFrom == b.acceptFrom
            && a.serviceType == b.serviceType
            && a.discoveryInfo.elementsEqual(b.discoveryInfo) { $0.key == $1.key && $0.value == $1.value }
    }

    /// The longest display name: 63 bytes of UTF-8 (`MCPeerID.init(displayName:)`, Apple's
    /// documentation).
    public static let maxDisplayNameBytes = 63
    /// The display name length the set-up frames' sizes assume (`MultipeerSetup`): 16 bytes
    /// (assumption: a name such as "Anna's iPhone 15").
    public static let assumedDisplayNameBytes = 16
    /// The longest `key=value` string of the discovery info: 255 bytes of UTF-8
    /// (`MCNearbyServiceAdvertiser.init(peer:discoveryInfo:serviceType:)`: "must be no longer
    /// than 255 bytes (total) when encoded in UTF-8 format with an equals sign"; RFC 6763 §6.1's
    /// one-byte length prefix).
    public static let maxPairBytes = 255
    /// The largest TXT record: 1 300 bytes (RFC 6763 §6.2: records above it are not
    /// recommended, they no longer fit one packet; Apple asks for about 400 bytes "for optimal
    /// performance").
    public static let maxTxtBytes = 1300

    /// The bytes of the discovery info's TXT record (RFC 6763 §6.1): each `key=value` string
    /// with its length byte; an empty record is one zero byte.
    public var txtBytes: Int {
        discoveryInfo.isEmpty ? 1 : discoveryInfo.reduce(0) { $0 + 1 + $1.key.utf8.count + 1 + $1.value.utf8.count }
    }

    /// How many bytes longer than assumed the phone's Bonjour answer is: its TXT record beyond
    /// the empty one, and its display name (the service instance name) beyond 16 bytes.
    var answerExtraBytes: Int { (txtBytes - 1) + nameExtraBytes }
    /// How many bytes longer than assumed its display name is (the archived `MCPeerID` in an
    /// invitation carries it).
    var nameExtraBytes: Int { displayName.map { $0.utf8.count - MultipeerPhone.assumedDisplayNameBytes } ?? 0 }

    /// What two encryption preferences give (Apple's `MCEncryptionPreference.optional`: "A
    /// connection uses encryption when all the peers choose either optional or required. If
    /// some peers choose none, then the session will not be encrypted"). `required` with `none`
    /// cannot connect (`required`: "The session requires encryption"; how it fails is not
    /// documented: here the invited phone declines, an assumption). `nil`: they cannot connect.
    public static func sessionEncrypted(_ a: SessionEncryption, _ b: SessionEncryption) -> Bool? {
        switch (a, b) {
        case (.required, .none), (.none, .required): return nil
        case (.none, _), (_, .none): return false
        default: return true
        }
    }
}

/// A Multipeer phone's keys (`mesh.phones[i]`), each declared once.
enum PhoneParameters {
    /// One phone being read.
    struct Item: NodeReferencing {
        let nodeIndex: [String: Int]
        var phone = MultipeerPhone(node: -1)
        var listed = false
    }

    static let section = ParameterSection<Item>(
        "mesh.phones[i]",
        [
            .nodeReference("node", help: "the phone") { $0.phone.node = $1 },
            Parameter(
                "displayName",
                .custom(
                    schema: .string.minLength(1), value: "1 … 63 bytes of UTF-8",
                    decode: { values, v, at, what, item in
                        guard let s = values.string(v, at, what) else { return false }
                        let n = s.utf8.count
                        guard n >= 1, n <= MultipeerPhone.maxDisplayNameBytes else {
                            values.sink.report(
                                "a display name is 1 to \(MultipeerPhone.maxDisplayNameBytes) bytes of UTF-8 "
                                    + "(MCPeerID); this one has \(n)", path: at, at: v.origin)
                            return false
                        }
                        item.phone.displayName = s
                        return true
                    }),
                default: "not set (16 bytes assumed)",
                help: "the peer's display name; its length goes into the Bonjour answer and the invitation",
                expected: "a display name", source: .cited("MCPeerID.init(displayName:): at most 63 bytes of UTF-8")),
            Parameter(
                "serviceType",
                .custom(
                    schema: .string.pattern("^(?=.*[a-z])[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,14}$"),
                    value: "1 … 15 of a–z, 0–9 and single inner hyphens, with a letter",
                    decode: { values, v, at, what, item in
                        guard let s = values.string(v, at, what) else { return false }
                        if let problem = MultipeerPhone.serviceTypeProblem(s) {
                            values.sink.report(
                                "a service type is \(problem) (MCNearbyServiceAdvertiser); found \"\(Diagnostic.excerpt(s))\"",
                                path: at, at: v.origin)
                            return false
                        }
                        item.phone.serviceType = s
                        return true
                    }),
                default: "`\"\(MultipeerPhone.defaultServiceType)\"`",
                help: "the Bonjour service type its advertiser and browser use; phones of different types never meet",
                expected: "a service type",
                source: .cited(
                    "MCNearbyServiceAdvertiser(peer:discoveryInfo:serviceType:), RFC 6335 §5.1; the default name an assumption"
                )),
            Parameter(
                "discoveryInfo",
                .custom(
                    schema: .object.additionalProperties(.string),
                    value: "an object of strings; each `key=value` ≤ 255 bytes, the TXT record ≤ 1 300 bytes",
                    decode: { values, v, at, _, item in decodeDiscoveryInfo(values, v, at, &item.phone) }),
                default: "`{}`", help: "the advertiser's discovery info, sent in its Bonjour TXT record (RFC 6763 §6)",
                expected: "an object of strings",
                source: .cited("MCNearbyServiceAdvertiser.init(peer:discoveryInfo:serviceType:); RFC 6763 §6")),
            Parameter(
                "encryption",
                .choice(
                    SessionEncryption.allCases.map(\.rawValue),
                    set: { $0.phone.encryption = SessionEncryption(rawValue: $1) }),
                default: "`mesh.encryption`",
                help: "this phone's session encryption preference; `required` and `none` never connect",
                expected: "an encryption preference", source: .cited("MCEncryptionPreference, Apple's documentation")),
            Parameter(
                "certificate",
                .choice(
                    MultipeerPhone.CertificatePolicy.allCases.map(\.rawValue),
                    set: { if let p = MultipeerPhone.CertificatePolicy(rawValue: $1) { $0.phone.certificate = p } }),
                default: "\"accept\"",
                help: "the answer to every peer's certificate in an encrypted set-up; `reject` fails the connection",
                expected: "a certificate answer", source: .assumption("MAdHoc checks no certificate")),
            Parameter(
                "invitations",
                .choice(
                    MultipeerPhone.InvitationPolicy.allCases.map(\.rawValue),
                    set: { if let p = MultipeerPhone.InvitationPolicy(rawValue: $1) { $0.phone.invitations = p } }),
                default: "\"accept\"",
                help:
                    "how invitations are answered: accept (with room), decline, ignore (the inviter times out after 30 s), accept only `acceptFrom`",
                expected: "an invitation policy", source: .cited("seed 002: MAdHoc accepts every invitation")),
            Parameter(
                "acceptFrom",
                .custom(
                    schema: .array(of: .ref("nodeId")), value: "a list of node ids",
                    decode: { values, v, at, _, item in
                        item.listed = true
                        guard let list = values.array(v, at, "a list of node ids") else { return false }
                        var ok = true
                        for (k, e) in list.enumerated() {
                            if let n = values.node(e, at.appending(k), in: item.nodeIndex) {
                                item.phone.acceptFrom.append(n)
                            } else {
                                ok = false
                            }
                        }
                        return ok
                    }),
                default: "`[]`", help: "with `accept-listed`: the peers whose invitations it accepts",
                expected: "a list of node ids", source: .required)
        ],
        objectExpected:
            "a phone's Multipeer settings {\"node\", \"displayName\"?, \"discoveryInfo\"?, \"encryption\"?, \"certificate\"?, \"invitations\"?, \"acceptFrom\"?, \"serviceType\"?}"
    )

    /// `discoveryInfo`: string keys without `=`, string values, each `key=value` at most 255
    /// bytes, the record at most 1 300.
    static func decodeDiscoveryInfo(
        _ values: ValueReader, _ v: JSONNode, _ at: JSONPath, _ phone: inout MultipeerPhone
    ) -> Bool {
        guard case .object(let members) = v.value else {
            values.sink.report(
                "expected an object of strings {\"key\": \"value\"}, found \(v.value.summary)", path: at, at: v.origin)
            return false
        }
        var ok = true
        for m in members {
            let p = at.appending(m.key)
            guard let value = values.string(m.value, p, "a string value") else { ok = false; continue }
            if m.key.isEmpty || m.key.contains("=") {
                values.sink.report(
                    "a discovery info key is not empty and has no \"=\" (RFC 6763 §6.4)", path: p, at: m.keyOrigin)
                ok = false
                continue
            }
            let bytes = m.key.utf8.count + 1 + value.utf8.count
            if bytes > MultipeerPhone.maxPairBytes {
                values.sink.report(
                    "\"key=value\" is \(bytes) bytes of UTF-8; Multipeer allows at most \(MultipeerPhone.maxPairBytes) per pair",
                    path: p, at: m.value.origin)
                ok = false
                continue
            }
            phone.discoveryInfo.append((m.key, value))
        }
        if ok && phone.txtBytes > MultipeerPhone.maxTxtBytes {
            values.sink.report(
                "the discovery info makes a \(phone.txtBytes)-byte TXT record; at most \(MultipeerPhone.maxTxtBytes) "
                    + "(RFC 6763 §6.2: larger records no longer fit one packet)", path: at, at: v.origin)
            ok = false
        }
        return ok
    }
}

extension ScenarioDecoder {
    /// `mesh.phones`: at most one entry per phone; `acceptFrom` only with `accept-listed`.
    func decodePhones(_ node: JSONNode, _ path: JSONPath, nodeIndex: [String: Int]) -> [MultipeerPhone]? {
        guard let items = values.array(node, path, "an array of phones' Multipeer settings") else { return nil }
        var out: [MultipeerPhone] = []
        var seen: [Int: Int] = [:]
        var ok = true
        for (i, itemNode) in items.enumerated() {
            let p = path.appending(i)
            let read = values.decodeAll(
                PhoneParameters.section, itemNode, p, into: PhoneParameters.Item(nodeIndex: nodeIndex), perNode: false
            ) { r, item in
                var fine = true
                if item.phone.node >= 0, let first = seen[item.phone.node] {
                    self.sink.report(
                        "this phone already has its settings at \(path.appending(first)); give each phone one entry",
                        path: p.appending("node"), at: r.value("node")?.origin ?? itemNode.origin)
                    fine = false
                }
                if item.phone.node >= 0 { seen[item.phone.node] = i }
                if item.phone.invitations == .acceptListed && !item.listed {
                    _ = r.required("acceptFrom", "the peers an accept-listed phone accepts")
                    fine = false
                }
                if item.listed && item.phone.invitations != .acceptListed, let a = r.value("acceptFrom") {
                    self.sink.report(
                        "acceptFrom is read only with \"invitations\": \"accept-listed\"",
                        path: p.appending("acceptFrom"),
                        at: a.origin)
                    fine = false
                }
                return fine
            }
            guard let (item, itemOK) = read, itemOK else { ok = false; continue }
            out.append(item.phone)
        }
        return ok ? out : nil
    }
}

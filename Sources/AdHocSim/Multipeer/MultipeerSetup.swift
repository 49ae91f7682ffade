/// How Multipeer Connectivity sessions come about (seed 003; `mesh.sessionSetup: "multipeer"`),
/// frame by frame over the link, instead of forming the instant two phones hear each other well
/// enough (`"instant"`, the earlier model).
///
/// Every phone both advertises and browses, as MAdHoc does:
/// - **Discovery** is Bonjour over AWDL (multicast DNS, RFC 6762). A browser queries when its
///   app starts (after a random 20–120 ms, §5.2) and again after 1 s, 2 s, 4 s …, each interval
///   doubling up to 60 min (§5.2's continuous querying). An advertiser announces itself twice,
///   1 s apart, when its app starts (§8.3), and answers a query it hears after a random
///   20–120 ms (§6). Queries and answers are link broadcasts with airtime: an answer lost to a
///   collision finds nobody. A browser that decodes an answer from a phone whose median signal
///   reaches the discovery threshold (`discoverDbm`, the signal-strength rule kept) has *found*
///   it. Known-answer and duplicate-answer suppression (RFC 6762 §7) are left out: every
///   advertiser answers every query it hears, an upper bound on the answers a crowd sends.
/// - **Invitation**: the finder invites the found phone (unless a set-up between the two is
///   already under way) if both sessions have room; MAdHoc's advertiser accepts every
///   invitation its session has room for, else declines. The pair is *connecting* from the
///   invitation on.
/// - **Connection**: the two then exchange the session's connection frames, inviter first:
///   with encryption (`"optional"`, the `MCSession` default, or `"required"`: both ends run
///   MAdHoc, so both support it) the six flights of a DTLS 1.2 handshake with a cookie exchange
///   (RFC 6347 §4.2.4; three round trips), else one request and one response (an assumption:
///   Apple documents no wire format). The pair is *connected* when the last frame arrives.
/// - A set-up not connected 30 s after its invitation is abandoned (`invitePeer`'s default
///   timeout, 30 s, Apple's MCNearbyServiceBrowser documentation); the pair may try again when
///   one of them next hears the other.
/// - **Retransmission** (RFC 6347 §4.2.4.1): a side that sent a connection flight and expects
///   an answer sends it again when no answer came within its timer, 1 s at first and doubled
///   at each retransmission up to 60 s; a side whose last flight was lost hears the flight
///   before it again and sends its own again. The same timer serves the unencrypted request
///   (assumption). The invitation and its reply are not resent (the 30 s timeout covers them;
///   Apple documents no retransmission).
///
/// Frame sizes are assumptions from the messages' structure: an mDNS query 90 bytes (IPv6, UDP,
/// DNS header and one question), an answer 250 bytes (PTR, SRV, TXT with the discovery info and
/// AAAA records), an invitation 400 bytes (the inviter's archived peer ID and context), a reply
/// 100 bytes; the DTLS flights 160, 60, 192, 1 150 (ServerHello, an 800-byte self-signed
/// certificate, key exchange, certificate request, ServerHelloDone), 1 010 (certificate, key
/// exchange, certificate verify, ChangeCipherSpec, Finished) and 80 bytes; without encryption a
/// 120-byte request and response.
struct MultipeerSetup: Sendable {
    /// A pair's set-up under way.
    struct Attempt: Sendable {
        /// A number no other set-up of the run has: every frame of the set-up carries it, so a
        /// late frame of an abandoned set-up is not taken for one of a newer set-up.
        var id: Int
        /// The inviter (browser) and the invited (advertiser).
        var inviter: Int
        var invited: Int
        /// When the invitation was sent.
        var since: SimTime
        /// Where the set-up stands.
        var phase = Phase.invited
        /// The retransmission timer of the flight last sent (RFC 6347 §4.2.4.1).
        var timer = MultipeerSetup.initialTimer
        /// Whether the set-up runs the DTLS handshake (both preferences allow encryption).
        var encrypted = true
        /// With sessions as groups: the inviter's session the set-up is for (`SessionGroups`).
        var group: Int? = nil
        /// Whether it is a newcomer's handshake with a member of the session it joined (no
        /// invitation: the newcomer, as `inviter`, starts the handshake).
        var member = false
        /// How the invited phone took the invitation into `group` (`nil`: not yet, or pairs).
        var acceptance: SessionGroups.Acceptance? = nil

        /// Whether the invited side accepted (it then counts the set-up against its room).
        var accepted: Bool { phase != .invited }
        /// Connection flights sent so far (0 before the accepting reply arrived).
        var flights: Int { if case .connecting(let sent, _) = phase { sent } else { 0 } }
        /// The last connection flight that arrived (−1: none yet).
        var received: Int { if case .connecting(_, let received) = phase { received } else { -1 } }
    }

    /// Where a set-up stands: invited, accepted, then its connection flights.
    enum Phase: Sendable, Equatable {
        /// The invitation is out, or with the invited app; no answer yet.
        case invited
        /// The invited phone accepted (it counts the set-up against its room); its reply is on
        /// its way.
        case accepted
        /// The connection flights: `sent` of them sent so far, the last to arrive `received`
        /// (−1: none yet). Flight `k` is answered once flight `k + 1` arrived.
        case connecting(sent: Int, received: Int)
    }

    /// Set-ups under way, by unordered pair (looked up by key only, never iterated).
    var attempts: [UInt64: Attempt] = [:]
    /// The next set-up's number.
    var nextId = 0
    /// Per node: set-ups it takes part in (they count against its session's room).
    var connecting: [Int]
    /// Per node: the next query's interval.
    var queryInterval: [SimTime]
    /// Per node: how many times its app started (a `join` restarts discovery); a query event of
    /// an earlier start is ignored.
    var generation: [UInt64]
    /// Per node: its random stream for the mDNS delays (`node:<i>/mesh/mdns`).
    var delays: [RandomStream]
    /// Per node: when it first became connected to anyone (nil: not yet).
    var firstConnected: [SimTime?]
    /// Per node: what its app set (`mesh.phones`; the mesh's defaults elsewhere).
    let phones: [MultipeerPhone]
    /// The mesh's encryption preference, for phones that set none.
    let defaultEncryption: SessionEncryption
    /// Per node: whether its advertiser and its browser run (the app's calls).
    var advertising: [Bool]
    var browsing: [Bool]
    /// Per advertiser: the browsers that found it and have not lost it, in the order they did.
    var finders: [[Int]]
    /// Per (browser, advertiser), `answerKey`: the answers at the discovery threshold the
    /// browser decoded so far and when the last came (its cache entry's start). Looked up by key.
    var answers: [UInt64: (count: Int, at: SimTime)] = [:]
    /// What the apps heard, in time order.
    var log: [MultipeerEvent] = []
    /// Sessions as groups (`mesh.sessionLayout: "group"`); `nil`: one session per pair.
    var groups: SessionGroups?
    /// Declined set-ups whose reply is on its way, by set-up number: the inviter hears the
    /// decline when the reply arrives (the set-up itself ended at the decline). Looked up by key.
    var declined: [Int: Bool] = [:]

    static let invitationBytes: Int32 = 400
    static let replyBytes: Int32 = 100
    /// The DTLS 1.2 handshake's six flights with a cookie exchange (RFC 6347 §4.2.4).
    static let dtlsFlights: [Int32] = [160, 60, 192, 1150, 1010, 80]
    /// Without encryption: a connection request and its response (assumption).
    static let plainFlights: [Int32] = [120, 120]
    /// DTLS's retransmission timer: 1 s at first, doubled up to 60 s (RFC 6347 §4.2.4.1).
    static let initialTimer = SimTime.seconds(1)
    /// See `initialTimer`.
    static let maxTimer = SimTime.seconds(60)
    /// `invitePeer(_:to:withContext:timeout:)`'s default timeout: 30 s.
    static let inviteTimeout = SimTime.seconds(30)

    /// No set-ups among `nodes` nodes whose apps set `phones` (the others run `encryption`),
    /// their sessions laid out as `layout` says (`SessionConfig.sessionLayout`).
    init(
        nodes: Int, encryption: SessionEncryption, layout: SessionLayout,
        phones list: [MultipeerPhone] = [],
        sim: borrowing Simulation
    ) {
        if layout == .group { groups = SessionGroups(nodes: nodes) }
        connecting = Array(repeating: 0, count: nodes)
        queryInterval = Array(repeating: MulticastDns.firstQueryInterval, count: nodes)
        generation = Array(repeating: 0, count: nodes)
        delays = (0..<nodes).map { sim.randomStream(named: "node:\($0)/mesh/mdns") }
        firstConnected = Array(repeating: nil, count: nodes)
        var phones = (0..<nodes).map { MultipeerPhone(node: $0) }
        for p in list { phones[p.node] = p }
        self.phones = phones
        defaultEncryption = encryption
        advertising = Array(repeating: true, count: nodes)
        browsing = Array(repeating: true, count: nodes)
        finders = Array(repeating: [], count: nodes)
    }

    /// The encryption preference phone `i` runs with.
    func encryption(_ i: Int) -> SessionEncryption { phones[i].encryption ?? defaultEncryption }

    /// The connection frames' sizes of a set-up: the DTLS handshake's six flights, or the
    /// unencrypted request and response.
    static func flights(_ a: Attempt) -> [Int32] { a.encrypted ? dtlsFlights : plainFlights }

    /// Notes what node `node`'s app hears about `peer` now.
    mutating func note(_ kind: MultipeerEvent.Kind, at node: Int, about peer: Int, now: SimTime) {
        log.append(MultipeerEvent(time: now, node: Int32(node), peer: Int32(peer), kind: kind))
    }

    /// A random 20–120 ms delay of node `i` (RFC 6762 §5.2, §6).
    mutating func mdnsDelay(_ i: Int) -> SimTime {
        MulticastDns.responseDelay(delays[i].uniform())
    }

    static func key(_ a: Int, _ b: Int) -> UInt64 { UInt64(min(a, b)) << 32 | UInt64(max(a, b)) }

    /// The directed key of browser `b`'s cache entry for advertiser `a`.
    static func answerKey(browser b: Int, advertiser a: Int) -> UInt64 { UInt64(b) << 32 | UInt64(a) }

    /// When refresh point `point` of an answer cached at `at` falls: 80, 85, 90 and 95 % of the
    /// lifetime for points 0–3, its end for 4 (RFC 6762 §5.2; its 2 % random variation left out).
    static func refreshTime(_ point: Int, of at: SimTime, ttl: SimTime) -> SimTime {
        at + .nanoseconds(ttl.nanoseconds / 100 * Int64(80 + 5 * point))
    }
}

/// The set-up's own logic: what Multipeer does between two phones until they share a session.
/// It reads and changes the mesh's shared state (`MeshCore`: sessions, frames to the link)
/// passed in, and returns the pairs it connected, which the mesh's routing then learns of.
extension MultipeerSetup {
    /// Schedules every node's first query and its two announcements.
    mutating func startDiscovery(nodes: Int, sim: inout Simulation) {
        for i in 0..<nodes { discover(i, sim: &sim) }
    }

    /// Node `i`'s app starts browsing and advertising: a query after 20–120 ms, then the
    /// doubling intervals from 1 s, and two announcements 1 s apart.
    mutating func discover(_ i: Int, sim: inout Simulation) {
        let q = mdnsDelay(i), a = mdnsDelay(i)
        queryInterval[i] = MulticastDns.firstQueryInterval
        sim.schedule(after: q, target: UInt32(i), kind: .bonjourQuery, arg: generation[i])
        sim.schedule(after: a, target: UInt32(i), kind: .bonjourAnswer)
        sim.schedule(after: a + MulticastDns.announceSpacing, target: UInt32(i), kind: .bonjourAnswer)
    }

    /// Node `i`'s app started again (it joined): discovery starts over.
    mutating func appStarted(_ i: Int, sim: inout Simulation) {
        generation[i] &+= 1
        discover(i, sim: &sim)
    }

    /// Node `i`'s query of app start `generation` is due: it broadcasts one (when up) and
    /// doubles its interval.
    mutating func queryDue(_ i: Int, generation g: UInt64, down: Bool, wire: inout SessionWire, sim: inout Simulation) {
        guard g == generation[i] else { return }
        let interval = queryInterval[i]
        queryInterval[i] = MulticastDns.nextQueryInterval(after: interval)
        sim.schedule(after: interval, target: UInt32(i), kind: .bonjourQuery, arg: g)
        guard !down, browsing[i] else { return }
        wire.hand(
            SessionFrame(.setup(SetupFrame(kind: .mdnsQuery, origin: i))), from: i, to: LinkPacket.broadcast,
            bytes: MulticastDns.queryBytes, now: sim.now)
    }

    /// Node `i` answers (or announces) while it advertises: one multicast answer every
    /// browser in range may hear, longer by its discovery info and display name.
    func answerDue(_ i: Int, down: Bool, wire: inout SessionWire, now: SimTime) {
        guard !down, advertising[i] else { return }
        wire.hand(
            SessionFrame(.setup(SetupFrame(kind: .mdnsAnswer, origin: i))), from: i, to: LinkPacket.broadcast,
            bytes: MulticastDns.answerBytes + Int32(phones[i].answerExtraBytes), now: now)
    }

    /// Whether node `i`'s session has room for one more peer, set-ups under way counted.
    func hasRoom(_ i: Int, sessions: SignalSessions, limit: Int) -> Bool {
        sessions.peers[i].count + connecting[i] < limit
    }

    /// A session set-up frame reached node `r` from `from`. Returns the pair it connected, if
    /// it did.
    mutating func arrived<L: LinkTechnology>(
        _ f: SetupFrame, at r: Int, from: Int, link: inout L, sessions: inout SignalSessions, wire: inout SessionWire,
        sim: inout Simulation
    ) -> (Int, Int)? {
        let key = MultipeerSetup.key(r, from)
        let config = wire.config
        switch f.kind {
        case .mdnsQuery:
            // An advertiser answers what it hears of its own service type, after its random delay.
            if advertising[r], phones[r].serviceType == phones[from].serviceType {
                sim.schedule(after: mdnsDelay(r), target: UInt32(r), kind: .bonjourAnswer)
            }
        case .mdnsAnswer:
            // Found (an answer of the browser's own service type): the signal-strength rule
            // decides, then an invitation if both have room.
            guard browsing[r], phones[r].serviceType == phones[from].serviceType,
                link.medianRxDbm(from: from, to: r) >= config.discoverDbm
            else { return nil }
            if !finders[from].contains(r) {
                finders[from].append(r)
                note(.found, at: r, about: from, now: sim.now)
            }
            cacheAnswer(r, from: from, ttl: config.bonjourTtl, sim: &sim)
            guard attempts[key] == nil, !sessions.peers[r].contains(from),
                hasRoom(r, sessions: sessions, limit: config.neighbourLimit)
            else { return nil }
            // With sessions as groups, the invitation names a session of the inviter's with room.
            var group: Int?
            if groups != nil {
                guard let g = groups?.sessionToInviteInto(r, config: config) else { return nil }
                groups?.invitation(into: g, 1)
                group = g
            }
            let id = nextId
            nextId += 1
            let encrypted = MultipeerPhone.sessionEncrypted(encryption(r), encryption(from)) ?? true
            attempts[key] = Attempt(
                id: id, inviter: r, invited: from, since: sim.now, encrypted: encrypted, group: group)
            connecting[r] += 1
            sim.schedule(
                after: MultipeerSetup.inviteTimeout, target: UInt32(r), kind: .invitationTimeout,
                arg: InviteTimeout(invited: from, id: id).argument)
            note(.invite, at: r, about: from, now: sim.now)
            MultipeerSetup.send(
                .invitation, id: id, from: r, to: from,
                bytes: MultipeerSetup.invitationBytes + Int32(phones[r].nameExtraBytes), wire: &wire, now: sim.now)
        case .invitation:
            // Only the invitation of the set-up under way, once, and only while advertising
            // (invitations reach the app through its advertiser).
            guard let a = attempts[key], a.id == f.attempt, a.invited == r, a.phase == .invited, advertising[r]
            else { return nil }
            note(.invitation, at: r, about: from, now: sim.now)
            let phone = phones[r]
            if phone.invitations == .ignore { return nil }  // the inviter's timeout ends it
            // With sessions as groups it needs a session of its own to take it with.
            let taken = a.group.flatMap { g in groups?.acceptance(r, into: g, config: config) }
            var accept =
                hasRoom(r, sessions: sessions, limit: config.neighbourLimit) && !sessions.peers[r].contains(from)
                && (a.group == nil || taken != nil)
            if phone.invitations == .decline || (phone.invitations == .acceptListed && !phone.acceptFrom.contains(from))
                || MultipeerPhone.sessionEncrypted(encryption(r), encryption(from)) == nil
            {
                accept = false
            }
            if accept {
                connecting[r] += 1
                attempts[key]?.phase = .accepted
                attempts[key]?.acceptance = taken
                if taken == .newSlot { groups?.slot(r, 1) }
                note(.connecting, at: r, about: from, now: sim.now)
            }
            let reply = SetupFrame(
                kind: .invitationReply, origin: r, seq: accept ? 1 : 0, target: from, attempt: f.attempt)
            wire.hand(
                SessionFrame(.setup(reply)), from: r, to: UInt32(from), bytes: MultipeerSetup.replyBytes, now: sim.now)
            if !accept {
                abandon(key)
                declined[a.id] = true
            }
        case .invitationReply:
            if f.seq == 0, declined.removeValue(forKey: f.attempt) != nil {
                note(.notConnected, at: r, about: from, now: sim.now)
                return nil
            }
            guard let a = attempts[key], a.id == f.attempt, a.inviter == r, a.flights == 0 else { return nil }
            guard f.seq == 1 else {
                abandon(key)
                note(.notConnected, at: r, about: from, now: sim.now)
                return nil
            }
            // The connection frames, inviter first; each frame's `seq` is its number.
            note(.connecting, at: r, about: from, now: sim.now)
            attempts[key]?.phase = .connecting(sent: 1, received: -1)
            sendFlight(0, of: key, from: r, to: from, wire: &wire, sim: &sim)
        case .members:
            // The newcomer hears the session's other members from its inviter.
            if let g = groups?.resolve(f.attempt), groups?.isMember(r, of: g) == true {
                startMemberHandshakes(r, group: g, link: &link, sessions: sessions, wire: &wire, sim: &sim)
            }
        case .handshake:
            guard let a = attempts[key], a.id == f.attempt else { return nil }
            if config.handshakeRetransmission && a.flights >= 2 && f.seq == UInt64(a.flights - 2) {
                // The flight before ours came again: ours was lost; send it again.
                resendFlight(a.flights - 1, of: key, from: r, to: from, wire: &wire, now: sim.now)
                return nil
            }
            // Otherwise only the frame the set-up waits for: the last one sent.
            guard a.flights >= 1, f.seq == UInt64(a.flights - 1) else { return nil }
            attempts[key]?.phase = .connecting(sent: a.flights, received: Int(f.seq))
            if a.encrypted && (f.seq == 3 || f.seq == 4) {
                // The invited's certificate comes in flight 3, the inviter's in flight 4: the
                // app's certificate handler answers (RFC 6347 §4.2.4's flights).
                note(.certificate, at: r, about: from, now: sim.now)
                // A session member at MAdHoc's neighbour limit turns a newcomer away here
                // (`SessionGroups`); the set-up counts in `connecting`.
                let full =
                    a.member && r == a.invited
                    && sessions.peers[r].count + connecting[r] > config.neighbourLimit
                if phones[r].certificate == .reject || full {
                    abandon(key)
                    note(.notConnected, at: r, about: from, now: sim.now)
                    // The peer learns at once (the handshake's alert; an assumption).
                    note(.notConnected, at: from, about: r, now: sim.now)
                    return nil
                }
            }
            let sent = a.flights
            if sent == MultipeerSetup.flights(a).count {
                return connected(a, sessions: &sessions, wire: &wire, now: sim.now)
            }
            attempts[key]?.phase = .connecting(sent: sent + 1, received: Int(f.seq))
            sendFlight(sent, of: key, from: r, to: from, wire: &wire, sim: &sim)
        }
        return nil
    }

    /// Sends connection flight `k` of the set-up of `key` from `from` to `to`, and, unless it is
    /// the last flight (which expects no answer), arms its retransmission timer.
    mutating func sendFlight(
        _ k: Int, of key: UInt64, from: Int, to: Int, wire: inout SessionWire, sim: inout Simulation
    ) {
        guard let a = attempts[key] else { return }
        let id = a.id
        let flights = MultipeerSetup.flights(a)
        MultipeerSetup.send(
            .handshake, id: id, seq: UInt64(k), from: from, to: to, bytes: flights[k], wire: &wire, now: sim.now)
        guard wire.config.handshakeRetransmission, k + 1 < flights.count else { return }
        attempts[key]?.timer = MultipeerSetup.initialTimer
        sim.schedule(
            after: MultipeerSetup.initialTimer, target: UInt32(from), kind: .handshakeTimer,
            arg: HandshakeFlight(peer: to, id: id, flight: k).argument)
    }

    /// Sends flight `k` of the set-up of `key` again (a retransmission).
    func resendFlight(_ k: Int, of key: UInt64, from: Int, to: Int, wire: inout SessionWire, now: SimTime) {
        guard let a = attempts[key] else { return }
        let id = a.id
        let bytes = MultipeerSetup.flights(a)[k]
        MultipeerSetup.send(.handshake, id: id, seq: UInt64(k), from: from, to: to, bytes: bytes, wire: &wire, now: now)
    }

    /// The retransmission timer of flight `k` of set-up `id`, sent by `from` to `to`, ran out:
    /// with no answer yet, the flight goes again and the timer doubles (RFC 6347 §4.2.4.1).
    mutating func handshakeTimerRanOut(
        _ from: Int, _ to: Int, id: Int, flight k: Int, down: Bool, wire: inout SessionWire, sim: inout Simulation
    ) {
        let key = MultipeerSetup.key(from, to)
        guard let a = attempts[key], a.id == id, a.received < k + 1 else { return }
        let timer = min(a.timer + a.timer, MultipeerSetup.maxTimer)
        attempts[key]?.timer = timer
        sim.schedule(
            after: timer, target: UInt32(from), kind: .handshakeTimer,
            arg: HandshakeFlight(peer: to, id: id, flight: k).argument)
        if !down { resendFlight(k, of: key, from: from, to: to, wire: &wire, now: sim.now) }
    }

    /// Sends a unicast frame of set-up `id`.
    static func send(
        _ kind: SetupFrame.Kind, id: Int, seq: UInt64 = 0, from: Int, to: Int, bytes: Int32, wire: inout SessionWire,
        now: SimTime
    ) {
        let f = SetupFrame(kind: kind, origin: from, seq: seq, target: to, attempt: id)
        wire.hand(SessionFrame(.setup(f)), from: from, to: UInt32(to), bytes: bytes, now: now)
    }

    /// The pair of `a` is connected: both join each other's session. Returns the pair, lower
    /// index first.
    mutating func connected(
        _ a: Attempt, sessions: inout SignalSessions, wire: inout SessionWire, now: SimTime
    ) -> (Int, Int) {
        abandon(MultipeerSetup.key(a.inviter, a.invited))
        sessions.connect(a.inviter, a.invited)
        wire.setRecord(encrypted: a.encrypted, a.inviter, a.invited)
        note(.connected, at: a.inviter, about: a.invited, now: now)
        note(.connected, at: a.invited, about: a.inviter, now: now)
        for n in [a.inviter, a.invited] where firstConnected[n] == nil { firstConnected[n] = now }
        if let g = a.group, !a.member { joined(a, group: g, wire: &wire, now: now) }
        return (min(a.inviter, a.invited), max(a.inviter, a.invited))
    }

    /// The invited phone of `a` is connected to its inviter in group `g`: it is a member, with
    /// the session it brought (merged) or in a new slot; the inviter lists the session's
    /// members to it, and it lists them to the members it brought (`SessionGroups`).
    mutating func joined(_ a: Attempt, group g: Int, wire: inout SessionWire, now: SimTime) {
        var brought: [Int] = []
        if case .merging(let own) = a.acceptance, let newcomers = groups?.merge(own, into: g, config: wire.config) {
            brought = newcomers.filter { $0 != a.invited }
        } else if groups?.join(a.invited, g) != true {
            return
        }
        guard let groups else { return }
        let g = groups.resolve(g)
        for (from, to) in [(a.inviter, a.invited)] + brought.map({ (a.invited, $0) }) {
            let listed = groups.members[g].filter { $0 != from && $0 != to }.count
            guard listed > 0 else { continue }
            MultipeerSetup.send(
                .members, id: g, from: from, to: to, bytes: SessionGroups.membersBytes(listed), wire: &wire, now: now)
        }
    }

    /// Forgets the set-up of `key` (connected, declined or timed out).
    mutating func abandon(_ key: UInt64) {
        guard let a = attempts.removeValue(forKey: key) else { return }
        connecting[a.inviter] -= 1
        if a.accepted { connecting[a.invited] -= 1 }
        if let g = a.group, !a.member { groups?.invitation(into: g, -1) }
        if a.acceptance == .newSlot { groups?.slot(a.invited, -1) }
    }

    /// Set-up `id`'s invitation from `inviter` to `invited` timed out, unless it connected
    /// (or was abandoned) since.
    mutating func inviteTimedOut(_ inviter: Int, _ invited: Int, id: Int, now: SimTime) {
        let key = MultipeerSetup.key(inviter, invited)
        guard let a = attempts[key], a.id == id else { return }
        abandon(key)
        note(.notConnected, at: inviter, about: invited, now: now)
        if a.accepted { note(.notConnected, at: invited, about: inviter, now: now) }
    }
}

extension MultipeerSetup {
    /// Node `r` of group `g` heard the group's members listed: it starts the connection
    /// handshake with each it is not connected to and has no set-up with, while it has room
    /// (`SessionGroups`). No invitation: both are in the session already. Only with a
    /// member whose signal reaches the discovery threshold: the link below (AWDL) must have found
    /// it, as for any peer (`discoverDbm`).
    mutating func startMemberHandshakes<L: LinkTechnology>(
        _ r: Int, group g: Int, link: inout L, sessions: SignalSessions, wire: inout SessionWire,
        sim: inout Simulation
    ) {
        guard let members = groups?.members[g] else { return }
        for m in members where m != r && !sessions.peers[r].contains(m) {
            guard !link.isDown(m), link.medianRxDbm(from: m, to: r) >= wire.config.discoverDbm else { continue }
            let key = MultipeerSetup.key(r, m)
            guard attempts[key] == nil, hasRoom(r, sessions: sessions, limit: wire.config.neighbourLimit) else {
                continue
            }
            let id = nextId
            nextId += 1
            let encrypted = MultipeerPhone.sessionEncrypted(encryption(r), encryption(m)) ?? true
            attempts[key] = Attempt(
                id: id, inviter: r, invited: m, since: sim.now, phase: .connecting(sent: 1, received: -1),
                encrypted: encrypted, group: g, member: true)
            connecting[r] += 1
            connecting[m] += 1
            sim.schedule(
                after: MultipeerSetup.inviteTimeout, target: UInt32(r), kind: .invitationTimeout,
                arg: InviteTimeout(invited: m, id: id).argument)
            note(.connecting, at: r, about: m, now: sim.now)
            note(.connecting, at: m, about: r, now: sim.now)
            sendFlight(0, of: key, from: r, to: m, wire: &wire, sim: &sim)
        }
    }

    /// Browser `r` decoded `from`'s answer at the discovery threshold: its cache entry starts
    /// again, with its first refresh point at 80 % of the lifetime.
    mutating func cacheAnswer(_ r: Int, from: Int, ttl: SimTime?, sim: inout Simulation) {
        guard let ttl else { return }
        let key = MultipeerSetup.answerKey(browser: r, advertiser: from)
        let count = (answers[key]?.count ?? 0) + 1
        answers[key] = (count, sim.now)
        sim.schedule(
            at: MultipeerSetup.refreshTime(0, of: sim.now, ttl: ttl), target: UInt32(r), kind: .bonjourRefresh,
            arg: AnswerRefresh(advertiser: from, answer: count, point: 0).argument)
    }

    /// A refresh point of browser `r`'s cached answer from an advertiser: before the end it asks
    /// again (one query, when up and browsing) and waits for the next point; at the end, with no
    /// answer since, the app hears `lostPeer`. A later answer made the point stale.
    mutating func refreshDue(
        _ r: Int, _ p: AnswerRefresh, down: Bool, wire: inout SessionWire, sim: inout Simulation
    ) {
        guard let ttl = wire.config.bonjourTtl else { return }
        let key = MultipeerSetup.answerKey(browser: r, advertiser: p.advertiser)
        guard let entry = answers[key], entry.count & 0xFF_FFFF == p.answer, finders[p.advertiser].contains(r)
        else { return }
        guard p.point < 4 else {
            finders[p.advertiser].removeAll { $0 == r }
            note(.lost, at: r, about: p.advertiser, now: sim.now)
            return
        }
        sim.schedule(
            at: MultipeerSetup.refreshTime(p.point + 1, of: entry.at, ttl: ttl), target: UInt32(r),
            kind: .bonjourRefresh,
            arg: AnswerRefresh(advertiser: p.advertiser, answer: p.answer, point: p.point + 1).argument)
        guard !down, browsing[r] else { return }
        wire.hand(
            SessionFrame(.setup(SetupFrame(kind: .mdnsQuery, origin: r))), from: r, to: LinkPacket.broadcast,
            bytes: MulticastDns.queryBytes, now: sim.now)
    }

    /// The app's calls on its advertiser and browser (`SessionLayer.appCalled`).
    mutating func appCalled(_ action: NodeEvent.Action, at i: Int, sim: inout Simulation) {
        switch action {
        case .stopAdvertising:
            guard advertising[i] else { return }
            advertising[i] = false
            for b in finders[i] { note(.lost, at: b, about: i, now: sim.now) }
            finders[i] = []
        case .startAdvertising:
            guard !advertising[i] else { return }
            advertising[i] = true
            let a = mdnsDelay(i)
            sim.schedule(after: a, target: UInt32(i), kind: .bonjourAnswer)
            sim.schedule(after: a + MulticastDns.announceSpacing, target: UInt32(i), kind: .bonjourAnswer)
        case .stopBrowsing:
            guard browsing[i] else { return }
            browsing[i] = false
            generation[i] &+= 1  // the queries scheduled go unanswered
        case .startBrowsing:
            guard !browsing[i] else { return }
            browsing[i] = true
            generation[i] &+= 1
            queryInterval[i] = MulticastDns.firstQueryInterval
            sim.schedule(after: mdnsDelay(i), target: UInt32(i), kind: .bonjourQuery, arg: generation[i])
        default: break
        }
    }
}

/// Multipeer sessions as Apple builds them (`mesh.sessionLayout: "group"`): an `MCSession` is a
/// group of at most `maxPeers` phones, the local one included, and every member is connected to
/// every other (Apple's MCSession documentation; `kMCSessionMaximumNumberOfPeers`, 8). A phone
/// runs at most `sessionsPerPhone` sessions (MAdHoc's 8 other nodes need two, seed 002).
///
/// - An invitation names one of the inviter's sessions: the first with room (members and joins
///   under way fewer than `maxPeers`), else a new one while the phone runs fewer than
///   `sessionsPerPhone`. The invited phone accepts with a session of its own, as MAdHoc's
///   advertiser hands its session to the invitation handler: the session it shares with the
///   inviter already (the pair's own connection), else its first whose members together with
///   the inviter's fit in one session (the two become one group), else a new one in a free
///   slot; with none it declines.
/// - Once the pair is connected the inviter lists its session's other members to the newcomer,
///   and a newcomer that brought a session lists the inviter's members to each of its own (one
///   `members` frame each, an assumption: Apple documents no wire format; 100 bytes and 300 per
///   listed peer, the archived peer ID of an invitation). A phone that hears such a list runs
///   the connection handshake with each listed member it is not connected to and whose signal
///   reaches the discovery threshold (`MultipeerSetup.startMemberHandshakes`). A member at
///   MAdHoc's neighbour limit rejects the newcomer's certificate (assumption: the app holds the
///   design's limit through the certificate handler, the one hook Apple gives it); without
///   encryption there is no such hook, and a session's growth may take a member past
///   `maxNeighbours`.
/// - A member with no connected peer left in a session (all timed out or left) is no longer
///   in it: its slot is free again.
///
/// Groups are numbered in the order they open and never reused; a group merged into another
/// names it (`resolve`), so a late frame naming a group finds the group it became.
struct SessionGroups: Sendable {
    /// Per group: its members (connected to at least one other member), in the order they joined.
    private(set) var members: [[Int]] = []
    /// Per group: invitations into it under way (they count against its room).
    private(set) var joining: [Int] = []
    /// Per group: the group it was merged into, or itself.
    private var mergedInto: [Int] = []
    /// Per node: the groups it is a member of, in the order it joined them.
    private(set) var of: [[Int]]
    /// Per node: invitations it accepted into groups it is not yet a member of (each holds one
    /// of its session slots until the pair connects or the set-up ends).
    private(set) var slotsHeld: [Int]

    /// Bytes of a `members` frame listing `count` peers (assumption, see above).
    static func membersBytes(_ count: Int) -> Int32 { Int32(100 + 300 * count) }

    /// No groups among `nodes` phones.
    init(nodes: Int) {
        of = Array(repeating: [], count: nodes)
        slotsHeld = Array(repeating: 0, count: nodes)
    }

    /// The session node `i` invites into: its first with room, else a new one (the phone the
    /// only member) if it runs fewer than `sessionsPerPhone`; `nil` when neither.
    mutating func sessionToInviteInto(_ i: Int, config: SessionConfig) -> Int? {
        for g in of[i] where members[g].count + joining[g] < config.maxPeers { return g }
        guard of[i].count < config.sessionsPerPhone else { return nil }
        members.append([i])
        joining.append(0)
        mergedInto.append(members.count - 1)
        of[i].append(members.count - 1)
        return members.count - 1
    }

    /// The group `g` is now (itself, or the group it was merged into).
    func resolve(_ g: Int) -> Int {
        var g = g
        while mergedInto[g] != g { g = mergedInto[g] }
        return g
    }

    /// How node `i` takes an invitation into group `g`.
    enum Acceptance: Sendable, Equatable {
        /// It is a member already: the pair's own connection in the session.
        case member
        /// With its own group, which becomes one with `g`.
        case merging(Int)
        /// Into a free session slot.
        case newSlot
    }

    /// How node `i` can take an invitation into group `g`, or `nil` when it cannot (see the
    /// type's rules). The invitation itself is among `g`'s joins under way.
    func acceptance(_ i: Int, into g: Int, config: SessionConfig) -> Acceptance? {
        let g = resolve(g)
        if of[i].contains(g) { return .member }
        for own in of[i] {
            let union = members[own].count + members[g].filter { !members[own].contains($0) }.count
            if union + joining[own] + joining[g] - 1 <= config.maxPeers { return .merging(own) }
        }
        return of[i].count + slotsHeld[i] < config.sessionsPerPhone ? .newSlot : nil
    }

    /// Node `i` accepted an invitation into a group it is not in (`+1`), or that set-up is over
    /// (`−1`).
    mutating func slot(_ i: Int, _ change: Int) { slotsHeld[i] += change }

    /// Whether `i` is a member of group `g`.
    func isMember(_ i: Int, of g: Int) -> Bool { of[i].contains(resolve(g)) }

    /// An invitation into `g` is under way (`+1`) or over (`−1`).
    mutating func invitation(into g: Int, _ change: Int) { joining[resolve(g)] += change }

    /// `i` is connected to a member of `g` and so a member itself. Returns whether it is new.
    @discardableResult
    mutating func join(_ i: Int, _ g: Int) -> Bool {
        let g = resolve(g)
        guard !of[i].contains(g) else { return false }
        members[g].append(i)
        of[i].append(g)
        return true
    }

    /// Group `own` becomes one with `g` (a member of `own` accepted an invitation into `g`
    /// with it): its members join `g`. Returns `own`'s members that were not in `g`, or `nil`
    /// when the two are one already or no longer fit in one session.
    mutating func merge(_ own: Int, into g: Int, config: SessionConfig) -> [Int]? {
        let (own, g) = (resolve(own), resolve(g))
        guard own != g else { return nil }
        let newcomers = members[own].filter { !members[g].contains($0) }
        guard members[g].count + newcomers.count + joining[g] + joining[own] <= config.maxPeers else { return nil }
        for m in members[own] {
            of[m].removeAll { $0 == own }
            if !of[m].contains(g) { of[m].append(g) }
        }
        members[g] += newcomers
        members[own] = []
        joining[g] += joining[own]
        joining[own] = 0
        mergedInto[own] = g
        return newcomers
    }

    /// The pair `a`–`b` is no longer connected: each that has no connected peer left among the
    /// members of a group they shared leaves that group.
    mutating func pairEnded(_ a: Int, _ b: Int, sessions: SignalSessions) {
        for g in of[a] where of[b].contains(g) {
            for n in [a, b] where !members[g].contains(where: { $0 != n && sessions.peers[n].contains($0) }) {
                members[g].removeAll { $0 == n }
                of[n].removeAll { $0 == g }
            }
        }
    }

    /// The members of the largest group, or 0 with none.
    var largest: Int { members.map(\.count).max() ?? 0 }
}

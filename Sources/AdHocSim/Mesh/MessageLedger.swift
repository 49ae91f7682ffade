/// What happened to every message of the run's workloads: the raw times the mesh metrics are
/// computed from.
public struct MessageLedger: Sendable {
    /// One message.
    public struct Record: Sendable, Equatable {
        /// When the application handed it to the mesh.
        public var created: SimTime
        /// When its first copy reached the destination.
        public var delivered: SimTime?
        /// Hops of the path the first delivered copy took.
        public var hops: Int = 0
        /// When the first route return reached the sender.
        public var confirmed: SimTime?
        /// Route return time minus the send time of the attempt it answers.
        public var confirmRtt: SimTime?
        /// Attempts made (1 + retries used).
        public var attempts: Int = 0
        /// Attempts that found no route at the sender.
        public var attemptsWithoutRoute: Int = 0
        /// Copies (of its last fragment, for a split message) the destination took: more than
        /// one when a retry or an unreliable duplicate arrived too.
        public internal(set) var arrivals = 0
        /// Whether its last attempt was encrypted with a path-derived key (`mesh.keyPaths`);
        /// without a key it went in the clear.
        public internal(set) var encrypted = false
        /// A message of several fragments: which have reached the destination (empty until
        /// the first does), and how many.
        var have: [Bool] = []
        /// See `have`.
        public internal(set) var fragmentsReceived = 0

        /// Fragment `index` of `count` reached the destination; returns whether it completed
        /// the message just now.
        mutating func receive(fragment index: Int, of count: Int) -> Bool {
            if have.isEmpty { have = Array(repeating: false, count: count) }
            guard !have[index] else { return false }
            have[index] = true
            fragmentsReceived += 1
            return fragmentsReceived == count
        }
    }

    /// The workloads, as the scenario gave them.
    public let workloads: [MessageWorkloadSpec]
    /// Per workload, its messages so far.
    public internal(set) var records: [[Record]]

    init(_ workloads: [MessageWorkloadSpec]) {
        self.workloads = workloads
        records = workloads.map { _ in [] }
    }
}

/// A failure of a node and the routes it broke: for every ordered pair whose route used the
/// node as a relay when it failed, how long until the source held a route without it.
public struct RouteRepair: Sendable, Equatable {
    /// The failed node.
    public var node: Int
    /// When it failed.
    public var failed: SimTime
    /// Pairs whose route went through it.
    public var brokenPairs: Int
    /// Repair times of the pairs repaired before the run ended.
    public var repairTimes: [SimTime]
}

// A scripted event of the scenario: a node fails, recovers, joins, moves, or its app calls Multipeer.

/// A scripted event (`events[i]`).
public struct NodeEvent: Sendable, Equatable {
    /// What happens.
    public enum Action: String, Sendable, CaseIterable {
        /// The node's radio goes silent: it neither sends nor receives; its queue is lost.
        case fail
        /// A failed node comes back.
        case recover
        /// The node appears (it is absent from the start until then).
        case join
        /// The node jumps to `position` and stays there.
        case move
        /// The app calls `MCSession.disconnect()`: it leaves its sessions at once; its peers
        /// see it go after the peer timeout (`mesh`).
        case disconnect
        /// The app stops its `MCNearbyServiceAdvertiser` (no answers, no invitations taken).
        case stopAdvertising
        /// The app starts advertising again (it announces itself, RFC 6762 §8.3).
        case startAdvertising
        /// The app stops its `MCNearbyServiceBrowser` (no queries, nothing found, no invitations sent).
        case stopBrowsing
        /// The app starts browsing again (it queries at once, then at doubling intervals).
        case startBrowsing
        /// The phone's Bluetooth is switched off (`CBManagerState.poweredOff`): its LE scanners
        /// and advertisers stop (Wi-Fi goes on).
        case bluetoothOff
        /// Bluetooth is switched on again (`.poweredOn`): the app starts scanning and advertising
        /// again, as an app does in `centralManagerDidUpdateState(_:)` (assumption: at once).
        case bluetoothOn

        /// Whether the action is the app's own call on Multipeer (it needs a `mesh`).
        public var isApp: Bool {
            switch self {
            case .fail, .recover, .join, .move, .bluetoothOff, .bluetoothOn: return false
            case .disconnect, .stopAdvertising, .startAdvertising, .stopBrowsing, .startBrowsing: return true
            }
        }
    }
    /// When.
    public var time: SimTime
    /// Which node (index).
    public var node: Int
    /// What.
    public var action: Action
    /// For `move`.
    public var position: Position?
}

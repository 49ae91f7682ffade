/// What each phone's app hears from Multipeer Connectivity, with its time: the
/// browser's and advertiser's delegate callbacks and the session's state changes, written to
/// `multipeer_events.csv` with `mesh.sessionSetup: "multipeer"`.
public struct MultipeerEvent: Sendable, Equatable {
    /// The callback.
    public enum Kind: String, Sendable, CaseIterable {
        /// `browser(_:foundPeer:withDiscoveryInfo:)`: an answer from the peer was decoded at the
        /// discovery threshold (once, until it is lost).
        case found
        /// `browser(_:lostPeer:)`: the peer stopped advertising (its goodbye announcement, RFC
        /// 6762 §10.1, taken to reach every browser that had found it at once: an assumption),
        /// or its answer's lifetime ran out with no answer at the discovery threshold since
        /// (`SessionConfig.bonjourTtl`: it walked out of range, failed or left).
        case lost
        /// The app called `invitePeer(_:to:withContext:timeout:)`.
        case invite
        /// `advertiser(_:didReceiveInvitationFromPeer:withContext:invitationHandler:)`.
        case invitation
        /// `session(_:didReceiveCertificate:fromPeer:certificateHandler:)` (encrypted set-ups).
        case certificate
        /// `session(_:peer:didChange:)` to `.connecting`.
        case connecting
        /// ... to `.connected`.
        case connected
        /// ... to `.notConnected`: declined, timed out, certificate rejected, disconnected,
        /// or the peer left (failed, faded, disconnected) after the peer timeout.
        case notConnected = "not-connected"
    }

    /// When.
    public var time: SimTime
    /// The phone whose app hears it.
    public var node: Int32
    /// The peer it is about.
    public var peer: Int32
    /// What.
    public var kind: Kind
}

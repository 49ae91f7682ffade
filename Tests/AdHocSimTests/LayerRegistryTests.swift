import Testing

@testable import AdHocSim

/// The registration of the optional layers (`Layers/`, issue #28): each layer's blocks of event
/// kinds lie in the core's range for layers and overlap no other layer's, and every kind a layer
/// declares lies in its own blocks.
@Suite struct LayerRegistryTests {
    @Test func layerBlocksAreInsideTheLayerRangeAndDisjoint() {
        let claims = Layers.eventBlocks.flatMap { entry in entry.blocks.map { (entry.layer, $0) } }
        for (layer, block) in claims {
            #expect(block.lowerBound >= 230 && block.upperBound <= 300, "\(layer) claims \(block)")
            for k in block { #expect(EventKind(rawValue: k).block == .layer) }
        }
        for i in claims.indices {
            for j in claims.indices where j > i {
                #expect(!claims[i].1.overlaps(claims[j].1), "\(claims[i].0) \(claims[i].1) and \(claims[j].0) \(claims[j].1)")
            }
        }
        // Just outside the range: the application's block below, the transport's far above.
        #expect(EventKind(rawValue: 229).block == .world)
        #expect(EventKind(rawValue: 300).block == .transport)
    }

    @Test func everyLayerKindLiesInItsOwnBlocks() {
        let mesh: [EventKind] = [
            .meshHeartbeat, .meshMessage, .meshConfirmTimeout, .meshRequestTimeout, .meshSessionHeartbeat,
        ]
        // Multipeer's session layer beneath the routing: its kinds kept the numbers the mesh
        // gave them (231, 236–239, 250–253).
        let sessions: [EventKind] = [
            .sessionRound, .bonjourQuery, .bonjourAnswer, .invitationTimeout, .reliableResend,
            .transferStart, .transferCancel, .streamWrite, .handshakeTimer,
        ]
        let ble: [EventKind] = [
            .bleAdvertisingEvent, .bleAdvertiserSend, .bleAdvertiserListenEnd, .bleTransmissionEnd,
            .bleScanWindow, .bleScanRequest, .bleScanResponse, .bleScanResponseTimeout, .bleWifiFrame,
            .bleConnectionEvent,
        ]
        for k in mesh {
            #expect(MeshNetwork.owns(k) && !SessionLayer.owns(k) && !BleNetwork.owns(k), "mesh kind \(k.rawValue)")
            #expect(MeshNetwork.eventBlocks.contains { $0.contains(k.rawValue) })
        }
        for k in sessions {
            #expect(SessionLayer.owns(k) && !MeshNetwork.owns(k) && !BleNetwork.owns(k), "session kind \(k.rawValue)")
            #expect(SessionLayer.eventBlocks.contains { $0.contains(k.rawValue) })
        }
        for k in ble {
            #expect(BleNetwork.owns(k) && !MeshNetwork.owns(k) && !SessionLayer.owns(k), "BLE kind \(k.rawValue)")
            #expect(BleNetwork.eventBlocks.contains { $0.contains(k.rawValue) })
        }
        // `owns` agrees with the claimed blocks over the whole layer range.
        for raw in UInt16(230)..<300 {
            let k = EventKind(rawValue: raw)
            #expect(MeshNetwork.owns(k) == MeshNetwork.eventBlocks.contains { $0.contains(raw) })
            #expect(SessionLayer.owns(k) == SessionLayer.eventBlocks.contains { $0.contains(raw) })
            #expect(BleNetwork.owns(k) == BleNetwork.eventBlocks.contains { $0.contains(raw) })
        }
    }
}

import Testing

@testable import AdHocSim

/// The registration of the optional layers (`Layers/`): each layer's blocks of event
/// kinds lie in the core's range for layers and overlap no other layer's, and every kind a layer
/// declares lies in its own blocks.
struct LayerRegistryTests {
    @Test func layerBlocksAreInsideTheLayerRangeAndDisjoint() {
        let claims = Layers.eventBlocks.flatMap { entry in entry.blocks.map { (entry.layer, $0) } }
        for (layer, block) in claims {
            expect(block.lowerBound >= 230 && block.upperBound <= 300, "\(layer) claims \(block)")
            for k in block { expectEqual(EventKind(rawValue: k).block, .layer) }
        }
        for i in claims.indices {
            for j in claims.indices where j > i {
                expect(
                    !claims[i].1.overlaps(claims[j].1),
                    "\(claims[i].0) \(claims[i].1) and \(claims[j].0) \(claims[j].1)")
            }
        }
        // Just outside the range: the application's block below, the transport's far above.
        expectEqual(EventKind(rawValue: 229).block, .world)
        expectEqual(EventKind(rawValue: 300).block, .transport)
    }

    @Test func everyLayerKindLiesInItsOwnBlocks() {
        let mesh: [EventKind] = [
            .meshHeartbeat, .meshMessage, .meshConfirmTimeout, .meshRequestTimeout, .meshSessionHeartbeat
        ]
        // Multipeer's session layer beneath the routing: its kinds kept the numbers the mesh
        // gave them (231, 236–239, 250–253).
        let sessions: [EventKind] = [
            .sessionRound, .bonjourQuery, .bonjourAnswer, .invitationTimeout, .reliableResend,
            .transferStart, .transferCancel, .streamWrite, .handshakeTimer
        ]
        let ble: [EventKind] = [
            .bleAdvertisingEvent, .bleAdvertiserSend, .bleAdvertiserListenEnd, .bleTransmissionEnd,
            .bleScanWindow, .bleScanRequest, .bleScanResponse, .bleScanResponseTimeout, .bleWifiFrame,
            .bleConnectionEvent
        ]
        for k in mesh {
            expect(MeshNetwork.owns(k) && !SessionEvents.owns(k) && !BleNetwork.owns(k), "mesh kind \(k.rawValue)")
            expect(MeshNetwork.eventBlocks.contains { $0.contains(k.rawValue) })
        }
        for k in sessions {
            expect(SessionEvents.owns(k) && !MeshNetwork.owns(k) && !BleNetwork.owns(k), "session kind \(k.rawValue)")
            expect(SessionEvents.eventBlocks.contains { $0.contains(k.rawValue) })
        }
        for k in ble {
            expect(BleNetwork.owns(k) && !MeshNetwork.owns(k) && !SessionEvents.owns(k), "BLE kind \(k.rawValue)")
            expect(BleNetwork.eventBlocks.contains { $0.contains(k.rawValue) })
        }
        // `owns` agrees with the claimed blocks over the whole layer range.
        for raw in UInt16(230)..<300 {
            let k = EventKind(rawValue: raw)
            expectEqual(MeshNetwork.owns(k), MeshNetwork.eventBlocks.contains { $0.contains(raw) })
            expectEqual(SessionEvents.owns(k), SessionEvents.eventBlocks.contains { $0.contains(raw) })
            expectEqual(BleNetwork.owns(k), BleNetwork.eventBlocks.contains { $0.contains(raw) })
        }
    }
}

/// The one registration (`RegisteredLayers`) and the hooks written once over it: a scenario with
/// both optional layers runs both, and their files, summary lines and sweep columns come in
/// registration order, each layer's rows blank in the other's columns.
struct LayerListTests {
    /// A layer a test can stack: it claims 290–299, counts its events and records node changes.
    struct CountingLayer: SimulationLayer {
        var events = 0
        var log: [String] = []
        static var sectionKey: String { "counting" }
        static var declaredSections: [DeclaredSection] { [] }
        static var schemaStub: String { #"{"type": "object", "description": "counts"}"# }
        static func decode(
            _ section: JSONNode, _ path: JSONPath, _ decoder: ScenarioDecoder, nodeIndex: [String: Int],
            duration: Double?
        ) -> Int? { nil }
        static var eventClaims: [(layer: String, blocks: [Range<UInt16>])] { [("counting", [290..<300])] }
        static func handles(_ kind: EventKind) -> Bool { (290..<300).contains(kind.rawValue) }
        static func start(
            _ spec: Int, scenario: Scenario, nodes: NodeTable, hasRadio: Bool, sim: inout Simulation
        ) -> Self? {
            sim.schedule(at: .seconds(1), target: 0, kind: EventKind(rawValue: 290))
            return CountingLayer(events: spec)
        }
        mutating func handleEvent<L: LinkTechnology>(_ event: Event, link: inout L, sim: inout Simulation) {
            events += 1
        }
        mutating func nodeCameUp(_ node: Int, joined: Bool, sim: inout Simulation) { log.append("up \(node)") }
        func measure(scenario: Scenario, hosts: HostStack, nodes: Int, end: SimTime) -> Int { events }
        static func files(_ metrics: Int, report: RunReport) -> [ResultFile] { [] }
        static func summaryText(_ metrics: Int, report: RunReport) -> String { "counted \(metrics)\n" }
    }

    typealias Stack = LayerPair<CountingLayer, LayerPair<MeshNetwork, NoLayer>>

    @Test func aStackedLayerIsFoundByItsTypeAndClaimsItsBlocksFirst() throws {
        var specs = Stack.noSpecs
        expect(Stack.spec(specs, CountingLayer.self) == nil)
        Stack.setSpec(3, in: &specs, CountingLayer.self)
        expectEqual(Stack.spec(specs, CountingLayer.self), 3)
        expect(Stack.spec(specs, MeshNetwork.self) == nil)
        expectEqual(Stack.eventClaims.map(\.layer), ["counting", "mesh", "multipeer"])
        expectEqual(Stack.schemaStubs.map(\.key), ["counting", "mesh"])
        // Started without a mesh section: the counting layer runs, the mesh does not, and the
        // counting layer's first event is the only one scheduled.
        var t = TestScenario()
        t.place("a", 0, 0)
        let s = try t.decoded()
        var sim = Simulation(seed: 1)
        var stack = Stack.start(specs, scenario: s, nodes: NodeTable(s), hasRadio: true, sim: &sim)
        expectEqual(stack.layer(CountingLayer.self)?.events, 3)
        expect(stack.layer(MeshNetwork.self) == nil)
        expectEqual(sim.queue.count, 1)
        stack.nodeCameUp(4, joined: true, sim: &sim)
        expectEqual(stack.layer(CountingLayer.self)?.log, ["up 4"])
        // Without a mesh no layer routes IP: no route, no peer, no header.
        expect(stack.sourceRoute(from: 0, to: 1, at: .zero) == nil)
        expect(!stack.canForward(from: 0, to: 1))
        expectEqual(stack.encapsulationBytes(pathNodes: 3), 0)
    }

    @Test func bothRegisteredLayersRunTogetherInRegistrationOrder() throws {
        var s = TestScenario(duration: 10)
        s.place("a", 0, 0)
        s.place("b", 5, 0)
        s["mesh"] = [:]
        s["ble"] = [
            "advertisers": [["node": "a", "intervalMs": 100]],
            "scanners": [["node": "b", "intervalMs": 100, "windowMs": 100]]
        ]
        let scenario = try s.decoded()
        let report = try ScenarioRunner.run(scenario)
        let mesh = try require(report.mesh)
        let ble = try require(report.ble)
        expectEqual(mesh.nodes.count, 2)
        expectEqual(ble.scanners.count, 1)

        // Files and summary: the mesh's, then Bluetooth LE's.
        let names = report.layers.files(report).map(\.name)
        expectEqual(
            names, MeshFiles.files(mesh, report: report).map(\.name) + BleFiles.files(ble, report: report).map(\.name))
        let summary = report.layers.summaryText(report)
        let meshLine = try require(summary.range(of: "mesh: 2 nodes"))
        let bleLine = try require(summary.range(of: "ble: 1 advertisers, 1 scanners"))
        expect(meshLine.lowerBound < bleLine.lowerBound)

        // Sweep columns: the flow summary's, the mesh's 24 (no flow crosses it), Bluetooth LE's 9.
        let flowWidth = RunFiles.summaryColumns.count
        let columns = LayerReports.sweepColumns(scenario)
        expectEqual(columns.count, 24 + 9)
        expect(columns.first == "mesh_delivery_ratio" && columns[24] == "ble_scanner")
        let rows = LayerReports.sweepRows(report, base: scenario, flowRows: RunFiles.summaryRows(report))
        expect(!rows.isEmpty)
        for row in rows { expectEqual(row.count, flowWidth + 33) }
        let technology = try require(RunFiles.summaryColumns.firstIndex(of: "technology"))
        let bleRows = rows.filter { $0[technology] == "ble" }
        let meshRows = rows.filter { !$0[flowWidth..<(flowWidth + 24)].allSatisfy { $0.isEmpty } }
        expect(bleRows.count == 1 && meshRows.count >= 1)
        for row in bleRows {
            expect(row[flowWidth..<(flowWidth + 24)].allSatisfy { $0.isEmpty })
            expectEqual(row[flowWidth + 24], "b")
        }
        for row in meshRows { expect(row[(flowWidth + 24)...].allSatisfy { $0.isEmpty }) }
    }
}

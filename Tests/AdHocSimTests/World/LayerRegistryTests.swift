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
        // Each layer's enum of kinds: the mesh's 5 (230, 232–235), Multipeer's session layer's
        // 10 (the numbers the mesh gave them, 231, 236–239, 250–253, and 254 for the answers'
        // refresh), Bluetooth LE's 10 (240–249).
        let mesh = MeshEventKind.allCases.map(EventKind.init)
        let sessions = SessionEventKind.allCases.map(EventKind.init)
        let ble = BleEventKind.allCases.map(EventKind.init)
        expectEqual(mesh.map(\.rawValue), [230, 232, 233, 234, 235])
        expectEqual(sessions.map(\.rawValue), [231, 236, 237, 238, 239, 250, 251, 252, 253, 254])
        expectEqual(ble.map(\.rawValue), Array(240...249))
        expect(mesh.contains(.meshHeartbeat) && sessions.contains(.bonjourRefresh) && ble.contains(.bleConnectionEvent))
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

/// The optional layers as plain fields (`Layers`, `LayerSpecs`, `LayerReports`): a scenario
/// without their sections runs none of them and the hosts find no route; a scenario with both
/// runs both, and their files, summary lines and sweep columns come in the layers' order, each
/// layer's rows blank in the other's columns.
struct LayerListTests {
    @Test func withoutSectionsNoLayerRunsAndNoRouteExists() throws {
        var t = TestScenario()
        t.place("a", 0, 0)
        t.place("b", 5, 0)
        let s = try t.decoded()
        expect(s.mesh == nil && s.ble == nil)
        expectEqual(s.layers.outline, [])
        var sim = Simulation(seed: 1)
        let layers = Layers(s, nodes: NodeTable(s), hasRadio: true, sim: &sim)
        expect(layers.mesh == nil && layers.ble == nil)
        expectEqual(sim.queue.count, 0)
        // Without a mesh no layer routes IP: no route, no peer, no header, no reserve.
        expect(layers.sourceRoute(from: 0, to: 1, at: .zero) == nil)
        expect(!layers.canForward(from: 0, to: 1))
        expectEqual(layers.encapsulationBytes(pathNodes: 3), 0)
        expectEqual(layers.maxPathNodes, 0)
        expectEqual(Layers.ipReserve(s), 0)
        expectEqual(LayerReports.sweepColumns(s), [])
    }

    @Test func theMeshDoesNotRunWithoutARadio() throws {
        var t = TestScenario()
        t.place("a", 0, 0)
        t["mesh"] = [:]
        let s = try t.decoded()
        var sim = Simulation(seed: 1)
        let layers = Layers(s, nodes: NodeTable(s), hasRadio: false, sim: &sim)
        expect(s.mesh != nil && layers.mesh == nil)
        expectEqual(sim.queue.count, 0)
    }

    @Test func theLayersClaimTheirBlocksInOrder() {
        expectEqual(Layers.eventBlocks.map(\.layer), ["mesh", "multipeer", "ble"])
        expectEqual(LayerSpecs.schemaSections.map(\.key), ["mesh", "ble"])
    }

    @Test func bothLayersRunTogetherInTheirOrder() throws {
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

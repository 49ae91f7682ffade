import Foundation
import Testing

@testable import AdHocSim

/// `"nodes"` as a placement: a number of phones spread uniformly over a rectangle.
struct PlacementTests {
    func scenario(_ nodes: String, seed: Int = 3) -> String {
        var t = TestScenario(name: "p", seed: seed, duration: 1, radio: nil)
        t["nodes"] = .raw(nodes)
        return t.text
    }

    @Test func densityGivesTheSquareAndEveryPhoneIsInside() throws {
        // 400 phones at 1000 per km²: a square of side √(400 / 1000) km = 632.456 m.
        let s = try decode(scenario(#"{"count": 400, "density_per_km2": 1000}"#)).get()
        let side = (400.0 / 1000).squareRoot() * 1000
        expectEqual(s.nodes.count, 400)
        expectEqual(s.nodes.map(\.id), (0..<400).map { "n\($0)" })
        expect(
            s.nodes.allSatisfy {
                $0.position.x >= 0 && $0.position.x < side && $0.position.y >= 0 && $0.position.y < side
            })
        expect(s.nodes.allSatisfy { $0.position.z == 1.2 })
        // Uniform on [0, side]: mean side/2, standard error side/√(12·400) ≈ 9.1 m; allow 4 of them.
        let se = side / (12.0 * 400).squareRoot()
        let meanX = s.nodes.map(\.position.x).reduce(0, +) / 400
        let meanY = s.nodes.map(\.position.y).reduce(0, +) / 400
        expect(abs(meanX - side / 2) < 4 * se)
        expect(abs(meanY - side / 2) < 4 * se)
        // Some phone lies in the far corner's triangle x + y > 1.7·side, whose area is
        // 0.3²/2 = 4.5 % of the square: the chance that none of 400 does is 0.955^400 ≈ 1e-8.
        let far = s.nodes.map { $0.position.x + $0.position.y }.max() ?? 0
        expect(far > 1.7 * side)
    }

    @Test func areaAndHeight() throws {
        let s = try decode(scenario(#"{"count": 50, "area_m": [100, 20], "z_m": 0.8}"#)).get()
        expectEqual(s.nodes.count, 50)
        expect(s.nodes.allSatisfy { (0..<100).contains($0.position.x) && (0..<20).contains($0.position.y) })
        expect(s.nodes.allSatisfy { $0.position.z == 0.8 })
    }

    @Test func theSeedDecidesThePlacement() throws {
        let a = try decode(scenario(#"{"count": 20, "density_per_km2": 500}"#, seed: 3)).get()
        let b = try decode(scenario(#"{"count": 20, "density_per_km2": 500}"#, seed: 3)).get()
        let c = try decode(scenario(#"{"count": 20, "density_per_km2": 500}"#, seed: 4)).get()
        expectEqual(a.nodes, b.nodes)
        expect(a.nodes != c.nodes)
    }

    @Test func placedPhonesCanBeNamedByFlowsAndMessages() throws {
        var t = TestScenario(name: "p", seed: 1, duration: 5)
        t["nodes"] = ["count": 10, "area_m": [30, 30]]
        t["mesh"] = [
            "messages": [
                [
                    "id": "m", "from": "n0", "to": "n9", "size_bytes": 100, "count": 1, "interval_s": 1, "start_s": 2
                ]
            ]
        ]
        expect(t.problems.isEmpty)
    }

    @Test func badPlacementsNameTheirPath() {
        let cases: [(String, String, String)] = [
            (#"{"count": 10}"#, "nodes", "found neither"),
            (#"{"count": 10, "density_per_km2": 5, "area_m": [1, 1]}"#, "nodes.area_m", "not both"),
            (#"{"count": 0, "density_per_km2": 5}"#, "nodes.count", "a number of phones"),
            (#"{"count": 10, "density_per_km2": -1}"#, "nodes.density_per_km2", "phones per km²"),
            (#"{"count": 10, "area_m": [1, 2, 3]}"#, "nodes.area_m", "[width, depth]"),
            (#"{"count": 10, "area_m": [1, 0]}"#, "nodes.area_m[1]", "[width, depth]"),
            (#"{"count": 10, "density_per_km2": 5, "spacing": 3}"#, "nodes.spacing", "unknown key"),
            (#"{"count": 1000, "density_per_km2": 0.000001}"#, "nodes.density_per_km2", "within 1000000 m")
        ]
        for (placement, path, words) in cases {
            let d = diagnostics(scenario(placement))
            expect(d.contains { $0.path == path && $0.message.contains(words) }, "\(placement): \(d)")
        }
    }

    /// Above 8 192 phones a placement needs the interaction cutoff: without it every
    /// pair in range keeps radio state. 9 000 phones are refused with the limit and the key that
    /// lifts it, and accepted (decoded only) with `radio.interactionMarginDb`; 20 001 never.
    @Test func largeCrowdsNeedTheCutoff() {
        let without = diagnostics(scenario(#"{"count": 9000, "density_per_km2": 1000}"#))
        expect(
            without.contains {
                $0.path == "nodes.count" && $0.message.contains("1...8192")
                    && $0.message.contains("radio.interactionMarginDb")
            }, "\(without)")
        func withCutoff(_ count: Int) -> [Diagnostic] {
            var t = TestScenario(name: "p", seed: 3, duration: 1, radio: ["interactionMarginDb": 5])
            t["nodes"] = ["count": .integer(count), "density_per_km2": 1000]
            return t.problems
        }
        expect(withCutoff(9000).isEmpty)
        expect(withCutoff(20_001).contains { $0.path == "nodes.count" && $0.message.contains("1...20000") })
    }
}

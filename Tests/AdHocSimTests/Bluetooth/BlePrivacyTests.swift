import Testing

@testable import AdHocSim

/// LE privacy by hand: AES-128 against FIPS 197's example, the random address hash `ah`
/// against the Core Specification's sample data, resolvable private addresses, and what a bonded
/// and an unbonded phone's apps see of one device across its rotations.
struct BlePrivacyTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let d = Array(hex)
        return stride(from: 0, to: d.count, by: 2).compactMap { UInt8(String(d[$0...($0 + 1)]), radix: 16) }
    }

    @Test func aesMatchesFips197() {
        // FIPS 197, Appendix C.1: AES-128.
        let c = Aes128(key: Self.bytes("000102030405060708090a0b0c0d0e0f"))
            .encrypt(Self.bytes("00112233445566778899aabbccddeeff"))
        expectEqual(c, Self.bytes("69c4e0d86a7b0430d8cdb78070b4c55a"))
    }

    @Test func ahMatchesTheSpecificationsSampleData() {
        // Core Specification v5.4, Vol 3, Part H, Appendix D (ah): IRK ec0234a3…7d9b,
        // prand 708194, ah = 0dfbaa.
        let irk = Self.bytes("ec0234a357c8ad05341010a60a397d9b")
        expectEqual(BlePrivacy.ah(irk: irk, prand: 0x70_8194), 0x0D_FBAA)
        expectEqual(BlePrivacy.address(irk: irk, prand: 0x70_8194), 0x70_8194_0D_FBAA)
        expect(BlePrivacy.resolves(0x70_8194_0D_FBAA, irk: irk))
        // One bit of the hash off, another key, or prand's top bits not 01: no resolution.
        expect(!BlePrivacy.resolves(0x70_8194_0D_FBAB, irk: irk))
        expect(!BlePrivacy.resolves(0x70_8194_0D_FBAA, irk: Self.bytes("00112233445566778899aabbccddeeff")))
        expect(!BlePrivacy.resolves(0xB0_8194_0D_FBAA, irk: irk))
    }

    @Test func prandHasItsMarkAndAMixedRandomPart() {
        // Top two bits 01; the 22 random bits neither all 0 nor all 1 (Vol 6, Part B §1.3.2.2).
        expectEqual(BlePrivacy.prand(random: 0), 0x40_0001)
        expectEqual(BlePrivacy.prand(random: 0x3F_FFFF), 0x7F_FFFE)
        expectEqual(BlePrivacy.prand(random: 0xFFFF_FFFF_FF12_3456), 0x40_0000 | 0x12_3456)
        expectEqual(
            BlePrivacy.irk(hex: "EC0234A357C8AD05341010A60A397D9B"), Self.bytes("ec0234a357c8ad05341010a60a397d9b"))
        expect(BlePrivacy.irk(hex: "ec0234") == nil && BlePrivacy.irk(hex: "+c0234a357c8ad05341010a60a397d9b") == nil)
    }

    /// A tag rotating its resolvable address every 60 s, phase in (0, 60], for 200 s: three
    /// or four rotations. The phone it is bonded to resolves every address and its app keeps
    /// one identifier; the other phone's app sees one per address.
    @Test func aBondedPhoneKeepsTheIdentifierAndAnotherSeesEachRotation() throws {
        let scenario = try bleScenario(
            nodes: [("owner", 0, 0), ("stranger", 0, 3), ("tag", 3, 0)],
            ble: [
                "addressRotationS": 60,
                "advertisers": [
                    [
                        "node": "tag", "intervalMs": 100, "address": "resolvable", "bondedTo": ["owner"],
                        "irk": "ec0234a357c8ad05341010a60a397d9b"
                    ]
                ],
                "scanners": [
                    ["node": "owner", "intervalMs": 30, "windowMs": 30, "active": false],
                    ["node": "stranger", "intervalMs": 30, "windowMs": 30, "active": false]
                ]
            ], duration: 200)
        let m = try require(try ScenarioRunner.run(scenario).ble)
        let owner = m.pairs[0].record, stranger = m.pairs[1].record
        expectEqual(owner.identifiers, 1)
        expectEqual(owner.firstEpoch, BlePairRecord.identity)
        expect(stranger.identifiers == 4 || stranger.identifiers == 5, "\(stranger.identifiers)")
    }

    @Test func badBondsAreReportedWithTheirPath() {
        func problems(_ extra: JSON) -> [Diagnostic] {
            var ad: JSON = ["node": "tag", "address": "resolvable"]
            if case .object(let pairs) = extra { for p in pairs { ad[p.key] = p.value } }
            var t = bleTagScenario(ad)
            t.place("owner", 1, 0, z: 0)
            return t.problems
        }
        let short = problems(["irk": "ec0234a357c8", "bondedTo": ["owner"]])
        expect(short.count == 1 && short[0].path == "ble.advertisers[0].irk", "\(short)")
        expect(short.first?.message.contains("16 bytes") == true, "\(short)")
        let alone = problems(["irk": "ec0234a357c8ad05341010a60a397d9b"])
        expect(alone.count == 1 && alone[0].path == "ble.advertisers[0].irk", "\(alone)")
        let none = problems(["bondedTo": []])
        expect(none.count == 1 && none[0].path == "ble.advertisers[0].bondedTo", "\(none)")
        expect(none.first?.message.contains("at least one peer") == true, "\(none)")
        let stat = problems(["address": "random-static", "bondedTo": ["owner"]])
        expect(stat.count == 1 && stat[0].path == "ble.advertisers[0].address", "\(stat)")
    }
}

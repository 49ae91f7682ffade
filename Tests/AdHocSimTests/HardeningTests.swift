import Foundation
import Testing
@testable import AdHocSim

/// A scenario with one of everything that has a duration: a mesh with a message workload, a
/// broadcast generator, a TCP flow and an ideal-link delay.
let everyDuration = """
    {"name": "d", "seed": 1, "duration_s": 10, "environment": {"preset": "field"},
     "radio": {"technology": "wifi"},
     "transport": {"tcp": {"delayedAckMs": 100, "keepaliveIdleS": 2}},
     "mesh": {"heartbeatIntervalS": 5, "routeTimeoutS": 15, "peerTimeoutS": 3, "confirmTimeoutS": 4,
              "messages": [{"id": "m", "from": "A", "to": "B", "size_bytes": 100, "count": 2, "interval_s": 1}]},
     "traffic": [{"kind": "broadcast", "intervalS": 1, "bytes": 100}],
     "nodes": [{"id": "A", "position": [0, 0, 1.2]}, {"id": "B", "position": [10, 0, 1.2]}],
     "flows": [{"id": "f", "from": "A", "to": "B", "protocol": "udp", "workload": {"kind": "cbr", "rateMbps": 1, "size": 1000}}]}
    """

@Suite("Hardening (issue #10)")
struct HardeningTests {
    /// Class 1: every duration and interval key refuses a value that rounds to zero
    /// nanoseconds, naming its JSON path, where it used to be accepted and then spin at one
    /// instant for the whole event budget.
    @Test func everyDurationKeyRefusesValuesBelowOneNanosecond() throws {
        #expect(diagnostics(everyDuration).isEmpty)
        let seconds = ["duration_s", "mesh.heartbeatIntervalS", "mesh.routeTimeoutS", "mesh.peerTimeoutS",
                       "mesh.confirmTimeoutS", "mesh.messages[0].interval_s", "traffic[0].intervalS",
                       "transport.tcp.keepaliveIdleS"]
        for key in seconds {
            let d = diagnostics(everyDuration, overrides: ["\(key)=1e-10"])
            #expect(d.count == 1 && d[0].path == key && d[0].message.contains("rounds to 0 ns"), "\(key): \(d)")
            // One nanosecond is the clock's resolution and is accepted (where the range allows).
            if key != "duration_s" {
                #expect(diagnostics(everyDuration, overrides: ["\(key)=1e-9"]).allSatisfy { !$0.message.contains("0 ns") })
            }
        }
        // Milliseconds: 1e-7 ms is 0.1 ns; zero itself means "no delay" and stays valid.
        for key in ["transport.tcp.delayedAckMs"] {
            let d = diagnostics(everyDuration, overrides: ["\(key)=1e-7"])
            #expect(d.count == 1 && d[0].path == key && d[0].message.contains("rounds to 0 ns"), "\(d)")
            #expect(diagnostics(everyDuration, overrides: ["\(key)=0"]).isEmpty)
        }
        // A CBR of 100 000 Mbit/s in 1-byte writes would write every 0.08 ns.
        let cbr = diagnostics(everyDuration, overrides: ["flows[0].workload.rateMbps=100000", "flows[0].workload.size=1"])
        #expect(cbr.count == 1 && cbr[0].path == "flows[0].workload.rateMbps", "\(cbr)")
    }
}

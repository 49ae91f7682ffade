import AdHocSim
import Foundation
let b = CoreBenchmark(population: Int(CommandLine.arguments[1])!, events: UInt64(CommandLine.arguments[2])!)
if CommandLine.arguments.count > 3 { let f = b.runBareQueue(); print(f.label, Int(f.eventsPerSecond), f.checksum) } else {
let f = b.runSimulation(); print(f.label, Int(f.eventsPerSecond), f.checksum) }

// The `adhocsim` command: parses arguments and calls the AdHocSim library. No simulation
// logic lives here.
import AdHocSim
import Foundation

let status = CommandLineTool.main(Array(CommandLine.arguments.dropFirst()))
exit(status)

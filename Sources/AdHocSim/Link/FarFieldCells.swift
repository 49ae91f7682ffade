/// The energy the interaction cutoff (`radio.interactionMarginDb`) leaves out of the exact
/// receiver loop, given back per grid cell from the frames on the air now (`radio.farField:
/// "cells"`).
///
/// Each transmitter has a row of per-cell powers (`WirelessChannel.farRows`): for every cell,
/// the summed mean power (median loss and the pair's shadowing, no fading or blockage) of the
/// receivers there whose pair with it the cutoff dropped, divided by the cell's node count, so a
/// receiver gets its cell's average of what those pairs would have brought. A frame's start adds
/// its sender's row to `farMw`, its end subtracts it: O(cells) per frame, independent of the
/// number of phones. A receiver's SINR adds the larger of its cell's value when it locked onto
/// the frame and when the frame ends (`lockedFarMw`), as the exact loop keeps the largest
/// interference seen.
///
/// Error bound (a derivation, checked against the exact model in docs/decisions/2026-11-22-shared-medium.md): a
/// dropped pair's mean power is below the noise floor minus the margin m, so one such
/// transmitter changes a receiver's SINR denominator by at most 10^(−m/10) of the noise (0.41 dB
/// at m = 10, 1.2 dB at m = 5, 3 dB at m = 0) when counted as its mean instead of its faded value;
/// the cell average replaces each receiver's own sum by its cell's mean, exact on average over
/// the cell; what the aggregate cannot do is make a far frame decodable or trip the preamble
/// threshold: a dropped pair needs a fading gain above m + (preamble − noise) dB for that.
final class FarFieldCells: @unchecked Sendable {
    /// Cells of the grid.
    let cells: Int
    /// Nodes.
    let nodes: Int
    /// Per cell: the power the frames on the air bring through dropped pairs, mW.
    let farMw: UnsafeMutablePointer<Double>
    /// Per node: its cell's `farMw` when it locked onto the frame it is receiving.
    let lockedFarMw: UnsafeMutablePointer<Double>
    /// Per node: its cell.
    let cellOf: UnsafeMutablePointer<Int32>

    /// No frame on the air, every node in cell 0.
    init(cells: Int, nodes: Int) {
        self.cells = cells
        self.nodes = nodes
        farMw = .allocate(capacity: Swift.max(cells, 1))
        lockedFarMw = .allocate(capacity: Swift.max(nodes, 1))
        cellOf = .allocate(capacity: Swift.max(nodes, 1))
        farMw.initialize(repeating: 0, count: cells)
        lockedFarMw.initialize(repeating: 0, count: nodes)
        cellOf.initialize(repeating: 0, count: nodes)
    }

    /// Adds (`sign` +1) or removes (−1) one sender's row.
    @inline(__always)
    func apply(row: UnsafeBufferPointer<Float>, sign: Double) {
        if sign > 0 {
            for c in 0..<cells { farMw[c] += Double(row[c]) }
        } else {
            // Removing what was added leaves rounding residue, never a negative power.
            for c in 0..<cells { farMw[c] = Swift.max(0, farMw[c] - Double(row[c])) }
        }
    }

    /// What the SINR of node `r`'s frame adds: the larger of its cell's far power at the lock and now.
    @inline(__always)
    func interference(at r: Int) -> Double { Swift.max(lockedFarMw[r], farMw[Int(cellOf[r])]) }

    /// An independent copy.
    func copy() -> FarFieldCells {
        let c = FarFieldCells(cells: cells, nodes: nodes)
        c.farMw.update(from: farMw, count: cells)
        c.lockedFarMw.update(from: lockedFarMw, count: nodes)
        c.cellOf.update(from: cellOf, count: nodes)
        return c
    }

    deinit {
        farMw.deallocate()
        lockedFarMw.deallocate()
        cellOf.deallocate()
    }
}

/// A uniform grid over the ground plane: nodes within `cellSize` of a point are found by
/// looking at the 3 × 3 cells around it, so a transmission costs what its neighbourhood costs,
/// not what the scenario costs. Cells are found by key lookup; their contents keep insertion
/// order, and cells are visited in a fixed order, so query results are deterministic.
public struct SpatialGrid: Sendable {
    struct Cell: Hashable {
        var x: Int64
        var y: Int64
    }

    /// Edge of a cell, m (the interaction range).
    public let cellSize: Double
    private var cells: [Cell: [UInt32]] = [:]
    private var cellOf: [Cell]

    /// A grid of `positions` (node index = array index).
    public init(positions: [Position], cellSize: Double) {
        self.cellSize = Swift.max(cellSize, 1)
        cellOf = []
        cellOf.reserveCapacity(positions.count)
        for (i, p) in positions.enumerated() {
            let c = key(p)
            cellOf.append(c)
            cells[c, default: []].append(UInt32(i))
        }
    }

    private func key(_ p: Position) -> Cell {
        Cell(x: Int64((p.x / cellSize).rounded(.down)), y: Int64((p.y / cellSize).rounded(.down)))
    }

    /// Calls `body` for every node in the 3 × 3 cells around `p` (a superset of the nodes within
    /// `cellSize`), in a fixed order.
    public func forEachCandidate(near p: Position, _ body: (UInt32) -> Void) {
        let c = key(p)
        for dy in -1...1 {
            for dx in -1...1 {
                if let members = cells[Cell(x: c.x + Int64(dx), y: c.y + Int64(dy))] {
                    for m in members { body(m) }
                }
            }
        }
    }

    /// Moves node `i` to `p`.
    public mutating func move(_ i: Int, to p: Position) {
        let old = cellOf[i], new = key(p)
        guard old != new else { return }
        cells[old]?.removeAll { $0 == UInt32(i) }
        cells[new, default: []].append(UInt32(i))
        cellOf[i] = new
    }
}

/// The Nelder–Mead simplex search (Nelder and Mead, "A simplex method for function
/// minimization", Computer Journal 7(4), 1965), with the standard coefficients of Lagarias et
/// al. (SIAM J. Optim. 9(1), 1998): reflection 1, expansion 2, contraction ½, shrink ½.
///
/// It works in the unit cube: every coordinate is clamped to [0, 1] (the caller maps the cube
/// onto the parameters' bounds). It is deterministic: the start simplex is fixed (the centre,
/// and the centre moved by `step` along each axis), ties between equal values keep the older
/// vertex first, and the objective is called in a fixed order. It stops after `maxEvaluations`
/// calls, after `stallLimit` calls in a row that found nothing better (when set), or once the
/// simplex's values differ by less than `valueTolerance` and its vertices by less than
/// `pointTolerance` in every coordinate.
public struct NelderMead: Sendable {
    /// The most objective calls.
    public var maxEvaluations: Int
    /// Spread of the simplex's values below which it has converged.
    public var valueTolerance = 1e-9
    /// Spread of the simplex's vertices (per coordinate) below which it has converged.
    public var pointTolerance = 1e-4
    /// The initial simplex's edge along each axis.
    public var step = 0.25
    /// Calls in a row without a better value after which the search stops (`nil`: no such
    /// stop). The best point is the same as with no stall limit whenever no later call would
    /// have improved on it.
    public var stallLimit: Int?

    /// A search of at most `maxEvaluations` calls.
    public init(maxEvaluations: Int) { self.maxEvaluations = maxEvaluations }

    /// What the search found.
    public struct Result: Sendable, Equatable {
        /// The best point seen.
        public var point: [Double]
        /// Its value.
        public var value: Double
        /// Objective calls made.
        public var evaluations: Int
        /// The value at the start (the centre).
        public var startValue: Double
        /// The call (1 for the centre) that first reached `value`: the calls after it found
        /// nothing better, so a limit of this many would have given the same result.
        public var bestEvaluation: Int
    }

    /// Minimises `f` over [0, 1]^d from the centre, calling it at most `maxEvaluations` times
    /// (at least once: the centre).
    public func minimise(dimensions d: Int, _ f: ([Double]) -> Double) -> Result {
        precondition(d >= 1)
        var evaluations = 0
        var bestSeen = Double.infinity, bestEvaluation = 0
        func clamp(_ p: [Double]) -> [Double] { p.map { Swift.min(1, Swift.max(0, $0)) } }
        // The limit holds inside a step too: once it is reached, a point is not evaluated (it
        // counts as infinitely bad) and the loop ends with the best point seen.
        func stalled() -> Bool { stallLimit.map { evaluations - bestEvaluation >= $0 } ?? false }
        func eval(_ p: [Double]) -> Double {
            guard evaluations < maxEvaluations && !stalled() else { return .infinity }
            evaluations += 1
            let v = f(p)
            let value = v.isNaN ? .infinity : v
            if value < bestSeen || bestEvaluation == 0 { (bestSeen, bestEvaluation) = (value, evaluations) }
            return value
        }
        let centre = Array(repeating: 0.5, count: d)
        var simplex: [(p: [Double], v: Double)] = [(centre, eval(centre))]
        let startValue = simplex[0].v
        for i in 0..<d {
            var p = centre
            p[i] += step
            simplex.append((p, eval(p)))
        }
        while evaluations < maxEvaluations && !stalled() {
            // Stable order by value: equal values keep their older vertex first.
            simplex = simplex.enumerated().sorted { ($0.element.v, $0.offset) < ($1.element.v, $1.offset) }.map(
                \.element)
            let best = simplex[0], worst = simplex[d]
            // The simplex's widest extent along one axis.
            var spread = 0.0
            for i in 0..<d {
                var low = simplex[0].p[i], high = low
                for vertex in simplex { (low, high) = (Swift.min(low, vertex.p[i]), Swift.max(high, vertex.p[i])) }
                spread = Swift.max(spread, high - low)
            }
            if worst.v - best.v < valueTolerance && spread < pointTolerance { break }
            var centroid = Array(repeating: 0.0, count: d)
            for vertex in simplex.dropLast() { for i in 0..<d { centroid[i] += vertex.p[i] / Double(d) } }
            func along(_ t: Double) -> [Double] {
                clamp((0..<d).map { centroid[$0] + t * (worst.p[$0] - centroid[$0]) })
            }
            let reflected = along(-1)
            let fr = eval(reflected)
            if fr < best.v {
                let expanded = along(-2)
                let fe = eval(expanded)
                simplex[d] = fe < fr ? (expanded, fe) : (reflected, fr)
            } else if fr < simplex[d - 1].v {
                simplex[d] = (reflected, fr)
            } else {
                // Contract toward the better of the worst and the reflected point.
                let outside = fr < worst.v
                let contracted = along(outside ? -0.5 : 0.5)
                let fc = eval(contracted)
                if fc < (outside ? fr : worst.v) {
                    simplex[d] = (contracted, fc)
                } else {
                    for k in 1...d {
                        let p = clamp(
                            (0..<d).map { (i: Int) -> Double in best.p[i] + 0.5 * (simplex[k].p[i] - best.p[i]) })
                        simplex[k] = (p, eval(p))
                    }
                }
            }
        }
        // The first vertex of the lowest value.
        var best = simplex[0]
        for vertex in simplex.dropFirst() where vertex.v < best.v { best = vertex }
        return Result(
            point: best.p, value: best.v, evaluations: evaluations, startValue: startValue,
            bestEvaluation: bestEvaluation)
    }
}

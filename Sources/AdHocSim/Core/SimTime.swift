/// A point or span of simulated time, as an integer number of nanoseconds.
///
/// Integer time keeps runs bit-for-bit reproducible: adding spans never rounds, and two events
/// scheduled for "the same" time really compare equal. `Int64` nanoseconds cover ±292 years.
/// Arithmetic traps on overflow; scenario validation bounds durations so that a valid
/// scenario cannot overflow (see `ScenarioLimits`).
@frozen
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the start of the run (or the length of a span).
    public var nanoseconds: Int64

    /// Creates a time from a count of nanoseconds.
    @inlinable
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The start of every run.
    public static let zero = SimTime(nanoseconds: 0)
    /// The latest representable time; used as "no limit".
    public static let max = SimTime(nanoseconds: Int64.max)

    /// `n` nanoseconds.
    @inlinable public static func nanoseconds(_ n: Int64) -> SimTime { SimTime(nanoseconds: n) }
    /// `n` nanoseconds.
    @inlinable public static func nanoseconds(_ n: Int) -> SimTime { SimTime(nanoseconds: Int64(n)) }
    /// `n` microseconds.
    @inlinable public static func microseconds(_ n: Int) -> SimTime { SimTime(nanoseconds: Int64(n) * 1_000) }
    /// `n` milliseconds.
    @inlinable public static func milliseconds(_ n: Int) -> SimTime { SimTime(nanoseconds: Int64(n) * 1_000_000) }
    /// `n` whole seconds.
    @inlinable public static func seconds(_ n: Int) -> SimTime { SimTime(nanoseconds: Int64(n) * 1_000_000_000) }

    /// A time given in (fractional) seconds, rounded to the nearest nanosecond.
    /// - Precondition: `s` is finite and within ±9.2e9 s; callers validate user input first.
    @inlinable
    public static func seconds(_ s: Double) -> SimTime {
        SimTime(nanoseconds: Int64((s * 1e9).rounded()))
    }

    /// A time given in (fractional) milliseconds, rounded to the nearest nanosecond.
    @inlinable
    public static func milliseconds(_ ms: Double) -> SimTime {
        SimTime(nanoseconds: Int64((ms * 1e6).rounded()))
    }

    /// This time in seconds, as a `Double` (for metrics; never feed it back into event times).
    @inlinable public var inSeconds: Double { Double(nanoseconds) / 1e9 }
    /// This time in milliseconds, as a `Double`.
    @inlinable public var inMilliseconds: Double { Double(nanoseconds) / 1e6 }

    @inlinable public static func < (a: SimTime, b: SimTime) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable public static func + (a: SimTime, b: SimTime) -> SimTime {
        SimTime(nanoseconds: a.nanoseconds + b.nanoseconds)
    }
    @inlinable public static func - (a: SimTime, b: SimTime) -> SimTime {
        SimTime(nanoseconds: a.nanoseconds - b.nanoseconds)
    }
    @inlinable public static func += (a: inout SimTime, b: SimTime) { a.nanoseconds += b.nanoseconds }
    @inlinable public static func * (a: SimTime, k: Int64) -> SimTime { SimTime(nanoseconds: a.nanoseconds * k) }

    /// A readable rendering with three decimals in the largest fitting unit:
    /// `"1.250 s"`, `"5.000 ms"`, `"12.500 µs"`, `"7 ns"`. Integer arithmetic only, so the
    /// text is the same on every platform and locale.
    public var description: String {
        let negative = nanoseconds < 0
        let magnitude = nanoseconds.magnitude
        let sign = negative ? "-" : ""
        let (unitNanos, unit): (UInt64, String)
        switch magnitude {
        case 1_000_000_000...: (unitNanos, unit) = (1_000_000_000, "s")
        case 1_000_000...: (unitNanos, unit) = (1_000_000, "ms")
        case 1_000...: (unitNanos, unit) = (1_000, "µs")
        default: return "\(sign)\(magnitude) ns"
        }
        // Round half up to thousandths of the unit.
        let thousandth = unitNanos / 1_000
        let rounded = (magnitude + thousandth / 2) / thousandth
        let whole = rounded / 1_000
        let fraction = rounded % 1_000
        let padded = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(sign)\(whole).\(padded) \(unit)"
    }
}

extension Duration {
    /// This duration in seconds, as a `Double`.
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}

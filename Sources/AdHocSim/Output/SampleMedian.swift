/// The median of a sample: the middle value, or the mean of the two middle values of an even
/// count (as pandas' `median`, which the study's notebook uses).
enum SampleMedian {
    /// The median of `values` (not empty).
    static func of(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}

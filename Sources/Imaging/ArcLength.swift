/// Positions along a polyline by arc length, for labels set along streets (on the map and in the street
/// view alike).
public enum ArcLength {
    /// Where arc length `s` (clamped to the line) falls on a polyline of at least two vertices whose
    /// cumulative lengths are `cumulative` (one per vertex, starting at 0): the segment from vertex
    /// `index - 1` to vertex `index`, and the `fraction` 0…1 of the way along it.
    public static func locate(_ s: Double, in cumulative: [Double]) -> (index: Int, fraction: Double) {
        let s = min(max(s, 0), cumulative[cumulative.count - 1])
        var i = 1
        while i < cumulative.count - 1 && cumulative[i] < s { i += 1 }
        let segment = cumulative[i] - cumulative[i - 1]
        return (i, segment > 0 ? (s - cumulative[i - 1]) / segment : 0)
    }
}

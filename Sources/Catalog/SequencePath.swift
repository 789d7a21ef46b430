import Geodesy

/// The path a capture sequence follows, smoothed for directions: consumer GPS wobbles by a few metres
/// from fix to fix, so the bearing from one capture's raw position to the next zigzags (captures 12 m
/// apart with ±3 m of lateral wobble swing ±27° about the way the camera went). Directions along a
/// sequence (sequence-link headings, the travel heading of a panorama without one) are taken between
/// these smoothed positions; the stored coordinates, link distances and proximity links keep the raw ones.
///
/// The formula: along the sequence in order, position k becomes the centred weighted average
/// (p[k−1] + 2·p[k] + p[k+1]) / 4; the first becomes (5·p[0] + 2·p[1] − p[2]) / 6, the end of the straight
/// line fitted through the first three (the last likewise); a sequence of one or two is left as it is.
/// Averages are taken in degrees relative to p[k] (longitude differences wrapped to ±180°), which over the
/// tens of metres between neighbours is the local plane. Properties:
/// - a wobble that alternates from side to side cancels exactly at the inner captures and falls to a third
///   at the ends (±3 m becomes ±1 m there): 12 m apart, links within 4.8° of the way instead of 26.6°;
/// - captures on a straight line stay on it in the same order, whatever their spacing, so a straight
///   sequence's directions do not change;
/// - a bend is rounded over one capture on each side: a link next to it points a little inside the
///   corner, towards where the path is going.
///
/// Simulated panoramas (`PanoramaSource.simulated`) are where the simulator put them, exactly: they are
/// not moved (they still weigh in their neighbours' averages).
enum SequencePath {
    /// The weight of a capture's own position in its average; each neighbour weighs 1.
    static let centreWeight = 2.0

    /// Smoothed positions closer than this give no direction (the raw positions' is used), metres.
    static let minimumDirectionMeters = 0.05

    /// The smoothed position of every member of one sequence, `ordered` by sequence index (indices into
    /// `records`); the result is parallel to `ordered`. O(n).
    static func smoothedCoordinates(of records: [PanoramaRecord], ordered: [Int]) -> [GeoCoordinate] {
        let n = ordered.count
        return ordered.indices.map { k in
            let centre = records[ordered[k]].coordinate
            guard records[ordered[k]].source != .simulated, n > 2 else { return centre }
            // (offset from the centre, weight) of each capture that weighs in.
            let terms: [(Int, Double)] = k == 0 ? endWeights.map { (k + $0.offset, $0.weight) }
                : k == n - 1 ? endWeights.map { (k - $0.offset, $0.weight) }
                : [(k - 1, 1), (k, centreWeight), (k + 1, 1)]
            var latitude = 0.0, longitude = 0.0, total = 0.0
            for (j, weight) in terms {
                let other = records[ordered[j]].coordinate
                latitude += weight * (other.latitude - centre.latitude)
                longitude += weight * GeoCoordinate.normalizedLongitude(other.longitude - centre.longitude)
                total += weight
            }
            return (try? GeoCoordinate(latitude: centre.latitude + latitude / total,
                                       normalizingLongitude: centre.longitude + longitude / total)) ?? centre
        }
    }

    /// The first (last) capture's weights and those of the next two (previous two): the end of the straight
    /// line fitted through the three by least squares, (5·p[0] + 2·p[1] − p[2]) / 6. A plain average there
    /// would pull the end a third of the way towards its neighbour and turn the last link.
    static let endWeights: [(offset: Int, weight: Double)] = [(0, 5), (1, 2), (2, -1)]
}

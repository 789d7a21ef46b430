import Imaging

/// Groups dense annotations, as MapKit's clustering: annotations with the same clustering identifier
/// whose drawn positions come closer than a distance collapse into one counted group. Greedy in
/// input order with a grid of cells one distance wide: each annotation joins the first group of its
/// identifier whose first member lies within the distance, else starts a group. Because distances are
/// in pixels, zooming in spreads the points and the groups split.
enum AnnotationGrouping {
    /// One drawn marker: a single annotation or a group.
    struct Group: Sendable {
        /// Indices of the member annotations, in input order.
        var members: [Int]
        /// The first member's position (the group's seed, where it is drawn), pixels.
        var seed: PixelPoint
        /// The mean position of the members, pixels.
        var center: PixelPoint
    }

    /// Groups `points` (index, pixel position, identifier) within `distance` pixels.
    static func group(_ points: [(index: Int, position: PixelPoint, identifier: String?)], distance: Double) -> [Group] {
        var groups: [Group] = []
        var sums: [PixelPoint] = []
        var grid: [String: [SIMD2<Int>: [Int]]] = [:]
        let cell = max(1, distance)
        for point in points {
            guard let id = point.identifier else {
                groups.append(Group(members: [point.index], seed: point.position, center: point.position))
                sums.append(point.position)
                continue
            }
            let cx = Int((point.position.x / cell).rounded(.down)), cy = Int((point.position.y / cell).rounded(.down))
            var joined: Int?
            search: for dy in -1...1 {
                for dx in -1...1 {
                    for g in grid[id]?[SIMD2(cx + dx, cy + dy)] ?? [] where (groups[g].seed - point.position).length < distance {
                        joined = g
                        break search
                    }
                }
            }
            if let g = joined {
                groups[g].members.append(point.index)
                sums[g] = sums[g] + point.position
                groups[g].center = sums[g] * (1 / Double(groups[g].members.count))
            } else {
                grid[id, default: [:]][SIMD2(cx, cy), default: []].append(groups.count)
                groups.append(Group(members: [point.index], seed: point.position, center: point.position))
                sums.append(point.position)
            }
        }
        return groups
    }
}

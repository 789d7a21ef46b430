import Foundation

extension MapDataset {
    /// Streets whose `name` or any `name:xx` equals `name` exactly.
    public func streets(named name: String) -> [Street] {
        streets.filter { $0.name == name || $0.names.values.contains(name) }
    }

    /// Places whose name in any language contains `query`, ignoring case and diacritics
    /// ("tuomiokirkko" finds "Helsingin tuomiokirkko", "domkyrka" its Swedish name). Linear scan.
    public func places(matching query: String) -> [Place] {
        let needle = MapDataset.folded(query)
        guard !needle.isEmpty else { return [] }
        return places.filter { place in
            MapDataset.folded(place.name).contains(needle)
                || place.names.values.contains { MapDataset.folded($0).contains(needle) }
        }
    }

    /// The street nearest to `point` and where on it: a road or a pedestrian street (tunnels and
    /// platforms left out), nil when the dataset has none within `radiusMeters`. Distances in a local
    /// equirectangular frame round `point` (within 0.1 % of the geodesic at city scale).
    public func nearestStreet(to point: OSMCoordinate, radiusMeters: Double = 5_000)
        -> (street: Street, point: OSMCoordinate, distanceMeters: Double)? {
        let metersPerDegreeLatitude = 110_574.0
        let metersPerDegreeLongitude = 111_320.0 * cos(point.latitude * .pi / 180)
        func xy(_ c: OSMCoordinate) -> (Double, Double) {
            ((c.longitude - point.longitude) * metersPerDegreeLongitude, (c.latitude - point.latitude) * metersPerDegreeLatitude)
        }
        var best: (street: Street, point: OSMCoordinate, distanceMeters: Double)?
        for street in streets where !street.isTunnel && (street.highwayClass.isRoad || street.highwayClass == .pedestrian) {
            for (a, b) in zip(street.points, street.points.dropFirst()) {
                let p = xy(a), q = xy(b)
                let dx = q.0 - p.0, dy = q.1 - p.1, l2 = dx * dx + dy * dy
                let t = l2 > 0 ? max(0, min(1, -(p.0 * dx + p.1 * dy) / l2)) : 0
                let x = p.0 + t * dx, y = p.1 + t * dy
                let distance = (x * x + y * y).squareRoot()
                if distance <= radiusMeters, distance < best?.distanceMeters ?? .infinity {
                    best = (street, OSMCoordinate(latitude: point.latitude + y / metersPerDegreeLatitude,
                                                  longitude: point.longitude + x / metersPerDegreeLongitude), distance)
                }
            }
        }
        return best
    }

    /// How many of each feature there are, keyed by the property name ("buildings", "streets"…).
    public var featureCounts: [String: Int] {
        ["buildings": buildings.count, "streets": streets.count, "railways": railways.count, "areas": areas.count,
         "trees": trees.count, "treeRows": treeRows.count, "coastlines": coastlines.count, "places": places.count,
         "furniture": furniture.count, "hedges": hedges.count, "diagnostics": diagnostics.count]
    }

    /// A few lines for logs and the CLI: file, box, raw counts, feature counts, attribution.
    public var summary: String {
        var lines = ["\(sourcePath)"]
        if let box = boundingBox {
            lines.append(String(format: "  box: %.5f,%.5f – %.5f,%.5f (lat,lon)", box.minLatitude, box.minLongitude,
                                box.maxLatitude, box.maxLongitude))
        }
        lines.append("  elements: \(counts.nodes) nodes, \(counts.ways) ways, \(counts.relations) relations")
        lines.append("  features: " + featureCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            .joined(separator: ", "))
        lines.append("  \(attribution)")
        return lines.joined(separator: "\n")
    }

    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}

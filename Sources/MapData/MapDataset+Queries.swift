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

/// What an `AreaFeature` is, decided by the first matching rule in this order:
///
/// | kind | tags |
/// |---|---|
/// | `square` | `place=square`; `highway=pedestrian` + `area=yes` (or as a multipolygon) |
/// | `pavedArea` | any other `highway=*` + `area=yes` (footway, service… areas) |
/// | `water` | `natural=water`, `water=*`, `waterway=riverbank`, `landuse=basin|reservoir|pond` |
/// | `park` | `leisure=park|garden`, `landuse=recreation_ground` |
/// | `grass` | `landuse=grass|meadow|village_green`, `natural=grassland`, `leisure=pitch` with `surface=grass` |
/// | `wood` | `natural=wood`, `landuse=forest` |
/// | `scrub` | `natural=scrub|heath` |
public enum AreaKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A town square or pedestrian area.
    case square
    /// A paved area of another highway type.
    case pavedArea
    /// Open water: lakes, ponds, basins, harbour basins tagged as water.
    case water
    /// A park or garden.
    case park
    /// Grass.
    case grass
    /// Woodland.
    case wood
    /// Bushes, heath.
    case scrub

    /// The kind for an element's tags, or nil when it is none of these.
    public static func classify(_ tags: [String: String]) -> AreaKind? {
        if tags["place"] == "square" { return .square }
        if let highway = tags["highway"] {
            let isArea = tags["area"] == "yes" || tags["type"] == "multipolygon"
            if isArea { return highway == "pedestrian" ? .square : .pavedArea }
        }
        let natural = tags["natural"], landuse = tags["landuse"], leisure = tags["leisure"]
        if natural == "water" || tags["water"] != nil || tags["waterway"] == "riverbank"
            || landuse == "basin" || landuse == "reservoir" || landuse == "pond" {
            return .water
        }
        if leisure == "park" || leisure == "garden" || landuse == "recreation_ground" { return .park }
        if landuse == "grass" || landuse == "meadow" || landuse == "village_green" || natural == "grassland"
            || (leisure == "pitch" && tags["surface"] == "grass") {
            return .grass
        }
        if natural == "wood" || landuse == "forest" { return .wood }
        if natural == "scrub" || natural == "heath" { return .scrub }
        return nil
    }
}

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
/// | `meadow` | `landuse=meadow`, `natural=grassland` |
/// | `residential` | `landuse=residential|farmyard` (lawns and gardens round the houses) |
/// | `farmland` | `landuse=farmland` |
/// | `orchard` | `landuse=orchard|vineyard|plant_nursery|allotments` |
/// | `sand` | `natural=sand|beach`, `landuse=quarry` |
/// | `industrial` | `landuse=industrial|commercial|retail|railway|construction|garages` |
/// | `parking` | `amenity=parking` |
///
/// The simulator and the map snapshot draw every kind from this one classification: each has its
/// ground and its plants in the simulated streets and its colour on the map. Land that no area covers
/// is rough grass in the simulator (the common cover of the temperate regions this system is fed)
/// and the map's land colour.
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
    /// Meadows and natural grassland: long grass, few shrubs.
    case meadow
    /// Residential land: lawns and garden trees between the houses.
    case residential
    /// Fields.
    case farmland
    /// Orchards, vineyards, nurseries, allotments: rows of small trees.
    case orchard
    /// Sand, beaches, quarries.
    case sand
    /// Industrial, commercial, retail and railway land: concrete and gravel yards.
    case industrial
    /// Car parks.
    case parking

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
        if landuse == "grass" || landuse == "village_green" || (leisure == "pitch" && tags["surface"] == "grass") {
            return .grass
        }
        if landuse == "meadow" || natural == "grassland" { return .meadow }
        if natural == "wood" || landuse == "forest" { return .wood }
        if natural == "scrub" || natural == "heath" { return .scrub }
        if natural == "sand" || natural == "beach" || landuse == "quarry" { return .sand }
        if tags["amenity"] == "parking" { return .parking }
        switch landuse {
        case "residential", "farmyard": return .residential
        case "farmland": return .farmland
        case "orchard", "vineyard", "plant_nursery", "allotments": return .orchard
        case "industrial", "commercial", "retail", "railway", "construction", "garages": return .industrial
        default: return nil
        }
    }
}

/// The rules that turn OSM tags into a building's vertical extent (Simple 3D Buildings conventions).
///
/// Top (`heightMeters`, above ground):
/// 1. `height`, parsed with `OSMTagParsing.lengthMeters` ("12", "12 m", "12.5m", "40'" …); it already
///    includes the roof;
/// 2. else `building:levels` × 3.2 m, plus the roof: `roof:height` if tagged, else `roof:levels` × 3.2 m;
/// 3. else the default for the `building` (or `building:part`) value, plus the roof as in 2.
///
/// Bottom (`minHeightMeters`): `min_height`, else `building:min_level` × 3.2 m, else 0.
/// Unparsable values are skipped (and reported as diagnostics by the loader), never guessed at.
///
/// Both are counted from the ground: `height` is not reduced by `min_height`, and `building:levels`
/// includes the `building:min_level` levels skipped below a part. A top at or below the bottom
/// contradicts that (`min_height=58.6` with `height=8.3` on a statue); it is read as the mapper
/// evidently meant it, the part's own height above its bottom, and reported (``Resolution/notes``).
public enum BuildingHeightRules {
    /// The height of one storey, meters. Used for `building:levels`, `roof:levels` and `building:min_level`.
    public static let levelHeightMeters = 3.2

    /// Default heights in meters by `building` value, for buildings without `height` or `building:levels`.
    ///
    /// | building values | meters |
    /// |---|---|
    /// | roof, carport, shed, hut, kiosk, garage, garages, toilets, service, utility, bunker, pavilion, entrance, underpass_entrance | 4 |
    /// | house, detached, semidetached_house, bungalow, cabin, farm | 6 |
    /// | industrial, warehouse, greenhouse, glasshouse | 8 |
    /// | apartments, residential, dormitory, terrace, hotel | 15 |
    /// | commercial, retail, office, supermarket, public, civic, government, university, college, school, hospital, museum, train_station | 18 |
    /// | church, cathedral, mosque, temple, synagogue | 25 |
    /// | chapel | 10 |
    /// | tower | 30 |
    /// | anything else (yes, block, …) | 12 |
    public static let defaultHeightsMeters: [String: Double] = {
        var table: [String: Double] = [:]
        func set(_ meters: Double, _ values: [String]) { for v in values { table[v] = meters } }
        set(4, ["roof", "carport", "shed", "hut", "kiosk", "garage", "garages", "toilets", "service", "utility",
                "bunker", "pavilion", "entrance", "underpass_entrance"])
        set(6, ["house", "detached", "semidetached_house", "bungalow", "cabin", "farm"])
        set(8, ["industrial", "warehouse", "greenhouse", "glasshouse"])
        set(15, ["apartments", "residential", "dormitory", "terrace", "hotel"])
        set(18, ["commercial", "retail", "office", "supermarket", "public", "civic", "government", "university",
                 "college", "school", "hospital", "museum", "train_station"])
        set(25, ["church", "cathedral", "mosque", "temple", "synagogue"])
        set(10, ["chapel"])
        set(30, ["tower"])
        return table
    }()

    /// The height for types not in `defaultHeightsMeters`, meters.
    public static let fallbackHeightMeters = 12.0

    /// The default height for a `building` value, meters (see `defaultHeightsMeters`).
    public static func defaultHeightMeters(forType type: String) -> Double {
        defaultHeightsMeters[type] ?? fallbackHeightMeters
    }

    /// The resolved vertical extent and the tags that could not be parsed.
    public struct Resolution: Sendable, Hashable {
        /// Top above ground, meters.
        public var heightMeters: Double
        /// Bottom above ground, meters (0 unless the building floats: bridges, upper parts).
        public var minHeightMeters: Double
        /// Which rule decided `heightMeters`.
        public var source: BuildingHeightSource
        /// `building:levels`, when tagged and valid.
        public var levels: Double?
        /// Keys whose values could not be parsed, as "key=value".
        public var unparsable: [String]
        /// Contradictions that were read one way (a top below the bottom), in words.
        public var notes: [String] = []
    }

    /// Applies the rules to an element's tags; `type` is the `building` (or `building:part`) value.
    public static func resolve(tags: [String: String], type: String) -> Resolution {
        var unparsable: [String] = []
        func parsed(_ key: String, _ parse: (String) -> Double?) -> Double? {
            guard let raw = tags[key] else { return nil }
            if let value = parse(raw), value >= 0 { return value }
            unparsable.append("\(key)=\(raw)")
            return nil
        }
        let height = parsed("height", OSMTagParsing.lengthMeters)
        let levels = parsed("building:levels", OSMTagParsing.levels)
        let roofHeight = parsed("roof:height", OSMTagParsing.lengthMeters)
        let roofLevels = parsed("roof:levels", OSMTagParsing.levels)
        let minHeight = parsed("min_height", OSMTagParsing.lengthMeters)
        let minLevel = parsed("building:min_level", OSMTagParsing.levels)

        let roof = roofHeight ?? (roofLevels.map { $0 * levelHeightMeters } ?? 0)
        let top: Double, source: BuildingHeightSource
        if let height {
            top = height
            source = .heightTag
        } else if let levels {
            top = levels * levelHeightMeters + roof
            source = .levels
        } else {
            top = defaultHeightMeters(forType: type) + roof
            source = .defaultForType
        }
        let bottom = minHeight ?? (minLevel.map { $0 * levelHeightMeters } ?? 0)
        var resolved = top, notes: [String] = []
        if bottom > 0, top <= bottom, source != .defaultForType {
            resolved = bottom + top
            let what = source == .heightTag ? "height=\(tags["height"] ?? "")" : "building:levels=\(tags["building:levels"] ?? "")"
            let below = minHeight != nil ? "min_height=\(tags["min_height"] ?? "")" : "building:min_level=\(tags["building:min_level"] ?? "")"
            notes.append("\(what) is not above \(below) (both count from the ground); read as \(format(top)) m above it, "
                         + "a top at \(format(resolved)) m")
        } else if bottom > 0, top <= bottom {
            // An untagged top under a tagged bottom: the type's default height of its own.
            resolved = bottom + top
        }
        return Resolution(heightMeters: resolved, minHeightMeters: bottom, source: source, levels: levels,
                          unparsable: unparsable, notes: notes)
    }

    private static func format(_ meters: Double) -> String {
        let rounded = (meters * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

import Foundation

/// What kind of place a POI is: the OSM key and value it was classified by, a short category name and
/// a coarse `PlaceGroup`.
///
/// The scheme: the first of these keys with a value other than `no` decides, in this order:
/// `amenity`, `shop`, `tourism`, `historic`, `leisure`, `office`, `craft`, `healthcare`; then the
/// transport tags `railway=station|halt|tram_stop|subway_entrance`, `highway=bus_stop`,
/// `public_transport=station`; then `place=square`; last, any `building` other than `no`, so that named
/// buildings without another category (Lasipalatsi, Hopeatalo…) can be labelled and found, with the
/// category name "building" and the group `.building`. The category name is the value (the first of a
/// `;` list), or the key when the value is `yes`: `amenity=cafe` → "cafe", `shop=yes` → "shop".
/// The group table is on `PlaceGroup`.
public struct PlaceCategory: Sendable, Hashable, Codable {
    /// The OSM key that decided, e.g. "amenity".
    public var key: String
    /// Its value, e.g. "cafe".
    public var value: String
    /// The category name, e.g. "cafe".
    public var name: String
    /// The coarse group, e.g. `.food`.
    public var group: PlaceGroup

    /// A category from its parts.
    public init(key: String, value: String, name: String, group: PlaceGroup) {
        self.key = key
        self.value = value
        self.name = name
        self.group = group
    }

    /// The general keys, in priority order; any value except `no` makes a place.
    public static let primaryKeys = ["amenity", "shop", "tourism", "historic", "leisure", "office",
                                     "craft", "healthcare"]
    /// Keys where only some values make a place (transport stops, squares), checked after `primaryKeys`.
    public static let selectiveKeys: [(key: String, values: Set<String>)] = [
        ("railway", ["station", "halt", "tram_stop", "subway_entrance"]),
        ("highway", ["bus_stop"]),
        ("public_transport", ["station"]),
        ("place", ["square"]),
    ]

    /// The category for an element's tags, or nil when it is not a place (whether or not it has a name).
    public static func classify(_ tags: [String: String]) -> PlaceCategory? {
        for key in primaryKeys {
            if let raw = tags[key], let value = firstValue(raw), value != "no" {
                return PlaceCategory(key: key, value: value, name: value == "yes" ? key : value,
                                     group: group(key: key, value: value))
            }
        }
        for (key, values) in selectiveKeys {
            if let raw = tags[key], let value = firstValue(raw), values.contains(value) {
                return PlaceCategory(key: key, value: value, name: value, group: group(key: key, value: value))
            }
        }
        if let raw = tags["building"], let value = firstValue(raw), value != "no" {
            return PlaceCategory(key: "building", value: value, name: "building", group: .building)
        }
        return nil
    }

    private static func firstValue(_ raw: String) -> String? {
        let value = raw.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces)
        } ?? ""
        return value.isEmpty ? nil : value
    }

    private static let amenityGroups: [String: PlaceGroup] = {
        var table: [String: PlaceGroup] = [:]
        for v in ["restaurant", "cafe", "fast_food", "bar", "pub", "biergarten", "ice_cream", "food_court"] {
            table[v] = .food
        }
        for v in ["theatre", "cinema", "arts_centre", "library", "place_of_worship", "community_centre",
                  "concert_hall", "nightclub", "casino", "planetarium", "exhibition_centre"] {
            table[v] = .culture
        }
        for v in ["parking", "parking_entrance", "bicycle_parking", "bicycle_rental", "taxi", "ferry_terminal",
                  "bus_station", "fuel", "charging_station", "car_rental", "car_sharing", "motorcycle_parking",
                  "boat_rental"] {
            table[v] = .transport
        }
        for v in ["pharmacy", "hospital", "clinic", "doctors", "dentist", "veterinary"] { table[v] = .health }
        for v in ["school", "university", "college", "kindergarten", "language_school", "music_school",
                  "driving_school"] {
            table[v] = .education
        }
        table["marketplace"] = .shop
        return table
    }()

    private static let tourismGroups: [String: PlaceGroup] = [
        "hotel": .lodging, "hostel": .lodging, "guest_house": .lodging, "motel": .lodging,
        "apartment": .lodging, "camp_site": .lodging, "caravan_site": .lodging, "chalet": .lodging,
        "information": .service, "zoo": .leisure, "theme_park": .leisure, "picnic_site": .leisure,
    ]

    /// The group for a key and (first) value; see the table on `PlaceGroup`.
    public static func group(key: String, value: String) -> PlaceGroup {
        switch key {
        case "amenity": return amenityGroups[value] ?? .service
        case "shop": return .shop
        case "tourism": return tourismGroups[value] ?? .culture
        case "historic": return .culture
        case "leisure", "place": return .leisure
        case "healthcare": return .health
        case "railway", "highway", "public_transport": return .transport
        case "building": return .building
        default: return .service   // office, craft
        }
    }
}

import MapData

/// Who may use a way in which direction, and how fast: the rules that turn OSM tags into the routing
/// graph's per-mode access bits and speeds. One table, read by ``RoutingGraph/init(network:)``.
///
/// Access follows OSM's hierarchy: `access` → `foot`; `access` → `vehicle` → `bicycle`;
/// `access` → `vehicle` → `motor_vehicle` → `motorcar`, the most specific tag winning. `yes`,
/// `designated`, `permissive`, `official`, `destination`, `delivery` and `customers` open a way;
/// `no`, `private`, `agricultural`, `forestry`, `use_sidepath`, `dismount` (cycling), `emergency`,
/// `psv` close it. Where no tag says, the class decides (``defaultAccess(_:highway:)``).
public enum RoutingProfile {
    /// Walking speed, metres per second (5 km/h), on every way: walking routes are the shortest ones.
    public static let walkingSpeedMetersPerSecond = 5.0 / 3.6
    /// Cycling speed, metres per second (15 km/h).
    public static let cyclingSpeedMetersPerSecond = 15.0 / 3.6
    /// Driving speed as a share of the posted `maxspeed` (junctions, lights, traffic).
    public static let drivingShareOfMaxspeed = 0.8

    /// Driving speed where no `maxspeed` is tagged, km/h, by `highway` class (`_link` as its class).
    public static func defaultDrivingSpeedKilometersPerHour(highway: String) -> Double {
        switch highway {
        case "motorway": 110
        case "trunk": 80
        case "primary": 50
        case "secondary": 50
        case "tertiary": 40
        case "unclassified": 30
        case "residential": 30
        case "living_street": 10
        case "service": 15
        case "pedestrian": 8
        default: 20
        }
    }

    /// The `highway` value without `_link`.
    static func mainClass(_ highway: String) -> String {
        highway.hasSuffix("_link") ? String(highway.dropLast(5)) : highway
    }

    /// Whether the class is open to `mode` where no access tag says otherwise.
    public static func defaultAccess(_ mode: TransportType, highway: String) -> Bool {
        let main = mainClass(highway)
        switch mode {
        case .walking:
            return ["trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street", "service",
                    "pedestrian", "footway", "path", "trail", "steps", "track", "corridor", "platform", "crossing", "elevator",
                    "road", "bridleway"].contains(main)
        case .cycling:
            return ["trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street", "service",
                    "cycleway", "path", "trail", "track", "road"].contains(main)
        case .driving:
            return ["motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street",
                    "service", "road"].contains(main)
        }
    }

    /// The access tags to read for `mode`, most specific last.
    static func accessKeys(_ mode: TransportType) -> [String] {
        switch mode {
        case .walking: ["access", "foot"]
        case .cycling: ["access", "vehicle", "bicycle"]
        case .driving: ["access", "vehicle", "motor_vehicle", "motorcar"]
        }
    }

    /// Whether a tag value opens (true), closes (false) or says nothing about (nil) a way.
    static func opens(_ value: String, mode: TransportType) -> Bool? {
        // "designated;no" and the like: the first value counts.
        let first = value.split(separator: ";").first.map(String.init) ?? value
        switch first {
        case "yes", "designated", "permissive", "official", "destination", "delivery", "customers", "permit": return true
        case "no", "private", "agricultural", "forestry", "use_sidepath", "emergency", "psv", "bus", "discouraged": return false
        case "dismount": return mode == .cycling ? false : nil
        default: return nil
        }
    }

    /// Whether `mode` may use a way with these tags at all (either direction).
    public static func allows(_ mode: TransportType, tags: [String: String]) -> Bool {
        guard let highway = tags["highway"] else { return false }
        if tags["area"] == "yes", mode != .walking { return false }
        if ["construction", "proposed", "razed", "abandoned", "disused"].contains(highway) { return false }
        var allowed = defaultAccess(mode, highway: highway)
        for key in accessKeys(mode) {
            if let value = tags[key], let opens = opens(value, mode: mode) { allowed = opens }
        }
        // A footway or pedestrian street that cyclists may use (bicycle=yes) is open to them even though
        // its class is not; the loop above already did that. Steps never are.
        if mode == .cycling, mainClass(highway) == "steps" { return false }
        // Service and road tunnels (delivery tunnels, car parks' ramps) are no place to walk unless tagged so.
        if mode == .walking, let tunnel = tags["tunnel"], tunnel != "no", defaultAccess(.driving, highway: highway),
           tags["foot"] == nil, tags["sidewalk"] == nil { return false }
        return allowed
    }

    /// Travel directions along the way's node order for `mode`: (forward, backward).
    ///
    /// - Walking: `oneway:foot`, else `oneway` on footways, paths, pedestrian streets and steps only.
    /// - Cycling: `oneway:bicycle` decides when tagged; else a one-way street is open both ways to
    ///   bicycles where it has a contraflow lane or track: `cycleway`, `cycleway:both`, `cycleway:left`
    ///   or `cycleway:right` = `opposite*` (OSRM's reading, with `:both` added), or any of their
    ///   `:oneway` subkeys = `no` or `-1` (today's tagging of a contraflow lane). `cycleway:both=lane`
    ///   alone says nothing about direction.
    /// - Driving: `oneway` (`yes`/`true`/`1`, `-1`/`reverse`, `no`, `reversible`/`alternating` closed),
    ///   implied by `junction=roundabout|circular` and `highway=motorway`.
    public static func directions(_ mode: TransportType, tags: [String: String]) -> (forward: Bool, backward: Bool) {
        guard allows(mode, tags: tags) else { return (false, false) }
        let highway = tags["highway"] ?? ""
        var oneway = tags["oneway"]
        switch mode {
        case .walking:
            oneway = tags["oneway:foot"]
            if oneway == nil, ["footway", "path", "pedestrian", "steps"].contains(highway) { oneway = tags["oneway"] }
        case .cycling:
            if let bicycle = tags["oneway:bicycle"] {
                oneway = bicycle
            } else if hasContraflowCycleway(tags) {
                oneway = "no"
            }
        case .driving: break
        }
        // MapData's reading of oneway=*; on foot a motorway or roundabout implies no direction.
        switch OnewayDirection.parse(oneway: oneway, highway: mode == .walking ? nil : mainClass(highway),
                                     junction: mode == .walking ? nil : tags["junction"]) {
        case .forward: return (true, false)
        case .backward: return (false, true)
        case .both: return (true, true)
        case .reversible: return mode == .walking ? (true, true) : (false, false)
        }
    }

    /// Whether a way's cycleway tags give bicycles a way against its one-way direction (see
    /// ``directions(_:tags:)``).
    static func hasContraflowCycleway(_ tags: [String: String]) -> Bool {
        for key in ["cycleway", "cycleway:both", "cycleway:left", "cycleway:right"] {
            if let value = tags[key], value.hasPrefix("opposite") { return true }
            if let direction = tags[key + ":oneway"], direction == "no" || direction == "-1" { return true }
        }
        return false
    }

    /// Speed on the way for `mode`, metres per second.
    public static func speedMetersPerSecond(_ mode: TransportType, tags: [String: String]) -> Double {
        switch mode {
        case .walking: return walkingSpeedMetersPerSecond
        case .cycling: return cyclingSpeedMetersPerSecond
        case .driving:
            let highway = mainClass(tags["highway"] ?? "")
            let posted = tags["maxspeed"].flatMap(parseMaxspeed) ?? defaultDrivingSpeedKilometersPerHour(highway: highway) / drivingShareOfMaxspeed
            return max(posted * drivingShareOfMaxspeed, 5) / 3.6
        }
    }

    /// A `maxspeed` value in km/h: "50", "30 mph", "walk", "DE:urban", "FI:urban", "DE:zone30",
    /// "DE:zone:30", "DE:living_street"; nil for "none", "signals" and the unknown.
    public static func parseMaxspeed(_ value: String) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces).lowercased()
        if let number = Double(text), number > 0 { return number }
        if text.hasSuffix("mph"), let number = Double(text.dropLast(3).trimmingCharacters(in: .whitespaces)), number > 0 {
            return number * 1.609344
        }
        if text == "walk" { return 7 }
        if text.hasSuffix(":urban") { return 50 }
        if text.hasSuffix(":rural") { return text.hasPrefix("fi") ? 80 : 100 }
        if text.hasSuffix(":living_street") { return 10 }
        if let range = text.range(of: "zone") {
            let digits = text[range.upperBound...].filter(\.isNumber)
            if let number = Double(String(digits)), number > 0 { return number }
        }
        return nil
    }

    /// The restriction keys that bind `mode`, most specific first: a `restriction:MODE` value wins over
    /// the less specific ones whatever the order of the tags (motorcar over motor_vehicle over vehicle
    /// over plain `restriction` for cars; bicycle over vehicle over `restriction` for bicycles); on foot
    /// only `restriction:foot`.
    public static func restrictionKeys(_ mode: TransportType) -> [String] {
        switch mode {
        case .walking: ["restriction:foot"]
        case .cycling: ["restriction:bicycle", "restriction:vehicle", "restriction"]
        case .driving: ["restriction:motorcar", "restriction:motor_vehicle", "restriction:vehicle", "restriction"]
        }
    }

    /// What a turn restriction says to `mode`: its value under the mode's most specific key
    /// (``restrictionKeys(_:)``), or nil when none binds it or `except=*` frees it (`bicycle` frees
    /// bicycles; `motorcar` or `motor_vehicle` frees cars).
    public static func restrictionValue(_ restriction: StreetNetwork.TurnRestriction, for mode: TransportType) -> String? {
        guard let value = restriction.value(forKeys: restrictionKeys(mode)) else { return nil }
        let freed: Set<String>
        switch mode {
        case .walking: freed = ["foot"]
        case .cycling: freed = ["bicycle"]
        case .driving: freed = ["motorcar", "motor_vehicle"]
        }
        return restriction.exceptions.isDisjoint(with: freed) ? value : nil
    }
}

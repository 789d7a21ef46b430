/// Which way traffic may go along a way's node order, from `oneway=*`.
public enum OnewayDirection: String, Sendable, Hashable, Codable {
    /// Both ways (`oneway=no|false|0`, or untagged on ordinary streets).
    case both
    /// Only along the node order (`oneway=yes|true|1`; implied by `highway=motorway` and
    /// `junction=roundabout|circular`).
    case forward
    /// Only against the node order (`oneway=-1|reverse`).
    case backward
    /// Changes over time (`oneway=reversible|alternating`).
    case reversible

    /// The direction from the `oneway`, `highway` and `junction` values; unknown `oneway` values count
    /// as untagged.
    public static func parse(oneway: String?, highway: String?, junction: String?) -> OnewayDirection {
        switch oneway {
        case "yes", "true", "1": return .forward
        case "-1", "reverse": return .backward
        case "no", "false", "0": return .both
        case "reversible", "alternating": return .reversible
        default:
            if highway == "motorway" || junction == "roundabout" || junction == "circular" { return .forward }
            return .both
        }
    }
}

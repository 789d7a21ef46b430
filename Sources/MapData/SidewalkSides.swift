/// Where a street has sidewalks, from `sidewalk=*` (or `sidewalk:both|left|right=*`).
public enum SidewalkSides: String, Sendable, Hashable, Codable {
    /// `sidewalk=no|none`: no sidewalk.
    case none
    /// `sidewalk=left`: on the left of the node order.
    case left
    /// `sidewalk=right`: on the right.
    case right
    /// `sidewalk=both|yes`.
    case both
    /// `sidewalk=separate`: drawn as separate `footway=sidewalk` ways.
    case separate

    /// The sides from a street's tags, or nil when nothing usable is tagged.
    public init?(tags: [String: String]) {
        switch tags["sidewalk"] {
        case "no", "none": self = .none; return
        case "left": self = .left; return
        case "right": self = .right; return
        case "both", "yes": self = .both; return
        case "separate": self = .separate; return
        default: break
        }
        func present(_ key: String) -> Bool { tags[key] == "yes" || tags[key] == "separate" }
        if tags["sidewalk:both"] == "separate" { self = .separate; return }
        let left = present("sidewalk:left") || present("sidewalk:both")
        let right = present("sidewalk:right") || present("sidewalk:both")
        switch (left, right) {
        case (true, true): self = .both
        case (true, false): self = .left
        case (false, true): self = .right
        default:
            if tags["sidewalk:both"] == "no" { self = .none } else { return nil }
        }
    }
}

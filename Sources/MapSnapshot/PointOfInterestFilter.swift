import MapData

/// Which points of interest get labels, as MapKit's `MKPointOfInterestFilter`; categories are
/// MapData's ``PlaceGroup``s (food, shop, culture, transport…).
public enum PointOfInterestFilter: Sendable, Hashable {
    /// Every category.
    case includingAll
    /// No points of interest at all (street and area labels stay).
    case excludingAll
    /// Only these categories.
    case including(Set<PlaceGroup>)
    /// Every category except these.
    case excluding(Set<PlaceGroup>)

    /// Whether a place of `group` is shown.
    public func includes(_ group: PlaceGroup) -> Bool {
        switch self {
        case .includingAll: return true
        case .excludingAll: return false
        case .including(let groups): return groups.contains(group)
        case .excluding(let groups): return !groups.contains(group)
        }
    }
}

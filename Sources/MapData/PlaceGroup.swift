/// The coarse group of a place, for label styling and search filters.
///
/// | group | what goes in it |
/// |---|---|
/// | `food` | restaurants, cafés, bars, pubs, fast food, ice cream (`amenity`) |
/// | `shop` | every `shop=*`, `amenity=marketplace` |
/// | `culture` | museums, galleries, attractions, artwork, viewpoints (`tourism`), all `historic=*`, theatres, cinemas, libraries, arts centres, places of worship (`amenity`) |
/// | `lodging` | hotels, hostels, guest houses, apartments, camp sites (`tourism`) |
/// | `transport` | stations, tram and bus stops, subway entrances, parking, bicycle rental, taxi, ferry terminals, fuel, charging |
/// | `health` | every `healthcare=*`, pharmacies, hospitals, clinics, doctors, dentists |
/// | `education` | schools, universities, colleges, kindergartens |
/// | `leisure` | every `leisure=*` (parks, sports centres…), `place=square` |
/// | `service` | other `amenity=*` (banks, post offices, toilets…), `office=*`, `craft=*`, `tourism=information` |
/// | `building` | named buildings with none of the tags above (`building=*` + `name`) |
public enum PlaceGroup: String, Sendable, Hashable, Codable, CaseIterable {
    /// Eating and drinking.
    case food
    /// Shops and markets.
    case shop
    /// Museums, sights, history, performance, worship.
    case culture
    /// Places to stay.
    case lodging
    /// Getting around.
    case transport
    /// Medical care.
    case health
    /// Schools and universities.
    case education
    /// Parks, sport, squares.
    case leisure
    /// Offices, crafts and public services.
    case service
    /// A named building that is nothing else on this list.
    case building
}

extension PlaceGroup {
    /// The group a catalog stored by name; a name this version does not know (a catalog written by a
    /// later one) reads as `.service`, the group of public services and offices, rather than failing.
    public init(stored name: String) { self = PlaceGroup(rawValue: name) ?? .service }
}

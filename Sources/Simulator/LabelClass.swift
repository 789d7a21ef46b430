/// The semantic classes of the label maps (8-bit PNG, one byte per pixel = the raw value).
///
/// | value | class |
/// |---|---|
/// | 0 | sky (nothing hit) |
/// | 1 | road (asphalt) |
/// | 2 | road marking (lane lines, crosswalk stripes) |
/// | 3 | sidewalk (incl. curbs) |
/// | 4 | pedestrian area (squares, paved areas) |
/// | 5 | building (facades, roofs) |
/// | 6 | shop sign (POI name sign) |
/// | 7 | street-name plate |
/// | 8 | vegetation (trees, grass, parks) |
/// | 9 | water |
/// | 10 | ground (other terrain) |
/// | 11 | pole (street lamps, stop-sign and signal poles) |
/// | 12 | traffic light (signal heads) |
/// | 13 | street furniture (benches, waste baskets, bollards, stop shelters) |
/// | 14 | monument (statues, memorials, artworks, fountain basins) |
/// | 15 | rail track (tram rails) |
/// | 16 | shrub (hedges, shrubs) |
///
/// Values are stable: new classes get new values, existing ones are never renumbered. Sea, lakes,
/// ponds and the water in fountains are all `water` (9); trees scattered in parks are `vegetation` (8).
public enum LabelClass: UInt8, Sendable, Hashable, CaseIterable, Codable {
    /// Nothing hit: sky.
    case sky = 0
    /// Asphalt of roads.
    case road = 1
    /// Lane lines and crosswalk stripes.
    case roadMarking = 2
    /// Sidewalks and curbs.
    case sidewalk = 3
    /// Squares and other paved pedestrian areas.
    case pedestrianArea = 4
    /// Facades and roofs.
    case building = 5
    /// A shop sign carrying a POI's name.
    case sign = 6
    /// A street-name plate.
    case streetPlate = 7
    /// Trees, grass and parks.
    case vegetation = 8
    /// Water.
    case water = 9
    /// Other ground.
    case ground = 10
    /// Street-lamp posts and lanterns, the poles of stop signs and traffic signals.
    case pole = 11
    /// Traffic-signal heads.
    case trafficLight = 12
    /// Benches, waste baskets, bollards, stop shelters and stop signs.
    case streetFurniture = 13
    /// Statues, memorials, artworks and fountain basins.
    case monument = 14
    /// Tram rails.
    case railTrack = 15
    /// Hedges and shrubs.
    case shrub = 16

    /// A lower-case name for tables and JSON ("road_marking").
    public var name: String {
        switch self {
        case .sky: "sky"
        case .road: "road"
        case .roadMarking: "road_marking"
        case .sidewalk: "sidewalk"
        case .pedestrianArea: "pedestrian_area"
        case .building: "building"
        case .sign: "sign"
        case .streetPlate: "street_plate"
        case .vegetation: "vegetation"
        case .water: "water"
        case .ground: "ground"
        case .pole: "pole"
        case .trafficLight: "traffic_light"
        case .streetFurniture: "street_furniture"
        case .monument: "monument"
        case .railTrack: "rail_track"
        case .shrub: "shrub"
        }
    }

    /// The whole table, value → name, in value order.
    public static var table: [(value: UInt8, name: String)] { allCases.map { ($0.rawValue, $0.name) } }
}

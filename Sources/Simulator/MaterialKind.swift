/// How a surface is shaded (the procedural pattern), chosen per triangle.
enum MaterialKind: UInt8, Sendable {
    case facade, roof, asphalt, marking, sidewalk, curb, paving, grass, water, bark, foliage, sign, plate, ground
    /// Painted metal of lamp posts and sign poles.
    case pole
    /// Traffic-signal housings with their three lamps.
    case signal
    /// Benches, waste baskets, bollards, shelter frames (matte).
    case furniture
    /// Glass panes of stop shelters.
    case shelterGlass
    /// Stone and bronze of statues, memorials, artworks and fountain basins.
    case monument
    /// Steel of tram rails.
    case rail
    /// Hedges and shrubs (foliage pattern).
    case shrub
    /// Fields: crop rows 0.8 m apart, in a direction of the field's own (`SurfaceRecord.style`).
    case field
    /// Sand, beaches, quarries, gravel.
    case sand

    /// The label class of surfaces of this kind.
    var label: LabelClass {
        switch self {
        case .facade, .roof: .building
        case .asphalt: .road
        case .marking: .roadMarking
        case .sidewalk, .curb: .sidewalk
        case .paving: .pedestrianArea
        case .grass, .bark, .foliage, .field: .vegetation
        case .water: .water
        case .sign: .sign
        case .plate: .streetPlate
        case .ground, .sand: .ground
        case .pole: .pole
        case .signal: .trafficLight
        case .furniture, .shelterGlass: .streetFurniture
        case .monument: .monument
        case .rail: .railTrack
        case .shrub: .shrub
        }
    }
}

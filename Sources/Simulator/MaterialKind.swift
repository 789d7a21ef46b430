/// How a surface is shaded (the procedural pattern), chosen per triangle.
enum MaterialKind: UInt8, Sendable {
    case facade, roof, asphalt, marking, sidewalk, curb, paving, grass, water, bark, foliage, sign, plate, ground

    /// The label class of surfaces of this kind.
    var label: LabelClass {
        switch self {
        case .facade, .roof: .building
        case .asphalt: .road
        case .marking: .roadMarking
        case .sidewalk, .curb: .sidewalk
        case .paving: .pedestrianArea
        case .grass, .bark, .foliage: .vegetation
        case .water: .water
        case .sign: .sign
        case .plate: .streetPlate
        case .ground: .ground
        }
    }
}

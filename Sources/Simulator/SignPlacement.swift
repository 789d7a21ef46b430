import Geodesy

/// A sign in the scene: a shop sign carrying a POI's name, or a street-name plate.
public struct SignPlacement: Sendable, Hashable, Codable {
    /// What kind of sign.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A shop sign on the facade nearest the POI, at shop-front height (about 3–4 m).
        case shopSign = "shop_sign"
        /// A street-name plate on a corner building.
        case streetPlate = "street_plate"
    }
    /// Shop sign or plate.
    public var kind: Kind
    /// The text on it (the POI's name; for plates, the street's name).
    public var text: String
    /// The centre of the sign's face in scene east-north-up metres.
    public var center: EastNorthUp
    /// The direction the sign faces (outward from the wall), degrees clockwise from north.
    public var facingDegrees: Double
    /// Width and height of the face, metres.
    public var widthMeters: Double, heightMeters: Double
    /// The POI's (or street's) OSM element, as "node/123".
    public var source: String
}

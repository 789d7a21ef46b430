import Geodesy
import MapData

/// A piece of street furniture as the simulator built it: what, from which OSM node, where it stands on
/// the ground (scene metres) and how tall it is. Lamps, benches, bollards, waste baskets, fountains,
/// statues, memorials and artworks stand on their node; a traffic signal mapped on the road stands at
/// the nearest kerb, a tram stop mapped on the track beside it (`offsetMeters` says how far it moved).
public struct FurniturePlacement: Sendable, Hashable {
    /// What it is.
    public var kind: StreetFurnitureKind
    /// The OSM node.
    public var source: OSMElementReference
    /// The foot of the object (up = 0), scene metres.
    public var position: EastNorthUp
    /// Distance from the node's own position to ``position``, metres (0 for objects that stand on their node).
    public var offsetMeters: Double
    /// Height of the object's top above the ground, metres.
    public var topMeters: Double
}

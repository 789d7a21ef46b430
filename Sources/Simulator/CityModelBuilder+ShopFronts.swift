import Foundation
import MapData

/// Which buildings get shop fronts: those whose type is a shop, and those with a shop, café,
/// restaurant or pharmacy mapped inside them or at their walls. The rest (flats, offices, hotels,
/// banks) get windows on every floor and entrance doors (``SurfaceShader/facade``).
extension CityModelBuilder {
    /// Place groups whose places open onto the street through a shop front (not `service`: offices,
    /// banks and post offices; not `lodging`: hotels).
    static let shopFrontGroups: Set<PlaceGroup> = [.food, .shop, .health]
    /// `building` values that have shop fronts whatever is mapped.
    static let shopFrontTypes: Set<String> = ["retail", "commercial", "shop", "supermarket", "department_store", "mall", "store"]
    /// How far outside its outline a place still puts a shop front on a building, metres (POIs are
    /// often mapped on the pavement in front of their door).
    static let shopFrontReachMeters = 4.0
    /// The side of the grid cells ``shopPlaces`` files places in, metres.
    static let shopPlaceCellMeters = 32.0

    static func shopPlaceCell(_ i: Int, _ j: Int) -> Int64 { Int64(i) << 32 | Int64(UInt32(bitPattern: Int32(j))) }

    /// Files the places of ``shopFrontGroups`` inside the scene for ``hasShopPlace(outer:holes:)``;
    /// call before ``addBuildings(_:)``.
    mutating func addShopPlaces(_ places: [Place]) {
        for place in places where Self.shopFrontGroups.contains(place.category.group) {
            let p = project(place.position)
            guard inside(p) else { continue }
            let size = Self.shopPlaceCellMeters
            shopPlaces[Self.shopPlaceCell(Int((p.x / size).rounded(.down)), Int((p.y / size).rounded(.down))), default: []].append(p)
        }
    }

    /// Whether a place of ``addShopPlaces(_:)`` lies inside `outer` (not in a hole) or within
    /// ``shopFrontReachMeters`` of its walls.
    func hasShopPlace(outer: [Point], holes: [[Point]]) -> Bool {
        guard !shopPlaces.isEmpty, outer.count >= 3 else { return false }
        let reach = Self.shopFrontReachMeters, size = Self.shopPlaceCellMeters
        var lx = Double.infinity, hx = -Double.infinity, ly = Double.infinity, hy = -Double.infinity
        for p in outer { lx = min(lx, p.x); hx = max(hx, p.x); ly = min(ly, p.y); hy = max(hy, p.y) }
        for i in Int(((lx - reach) / size).rounded(.down))...Int(((hx + reach) / size).rounded(.down)) {
            for j in Int(((ly - reach) / size).rounded(.down))...Int(((hy + reach) / size).rounded(.down)) {
                for p in shopPlaces[Self.shopPlaceCell(i, j)] ?? [] {
                    guard p.x >= lx - reach, p.x <= hx + reach, p.y >= ly - reach, p.y <= hy + reach else { continue }
                    if FootprintIndex.ringContains(outer, p) && !holes.contains(where: { FootprintIndex.ringContains($0, p) }) { return true }
                    if Self.distance(from: p, toRing: outer) <= reach { return true }
                }
            }
        }
        return false
    }

    /// The distance from `p` to the nearest edge of a closed ring, metres.
    static func distance(from p: Point, toRing ring: [Point]) -> Double {
        var best = Double.infinity
        for k in ring.indices {
            let a = ring[k], b = ring[(k + 1) % ring.count]
            let dx = b.x - a.x, dy = b.y - a.y, lengthSquared = dx * dx + dy * dy
            let t = lengthSquared > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared)) : 0
            best = min(best, hypot(p.x - a.x - t * dx, p.y - a.y - t * dy))
        }
        return best
    }
}

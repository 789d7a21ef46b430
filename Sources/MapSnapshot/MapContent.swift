import Foundation
import Geodesy
import MapData

/// A ``MapDataset`` prepared for drawing: every feature projected once to Web Mercator map points, with
/// its bounding box, road class and label text, so that a snapshot only transforms and rasterises; and
/// the world layer (``WorldLayer``) drawn around and below it.
/// Built once per dataset (about 10 ms for the Helsinki extract); immutable and shareable.
public struct MapContent: Sendable {
    /// A box in map points.
    struct Box: Sendable {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        init(_ points: [MapPoint]) {
            minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
            for p in points { minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x); minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y) }
        }
    }
    struct Area: Sendable { var kind: AreaKind; var rings: [[MapPoint]]; var box: Box }
    struct Building: Sendable {
        var rings: [[MapPoint]]          // outer rings and holes, each closed
        var outerRingCount: Int          // rings[0..<outerRingCount] are outer rings
        var heightMeters: Double, minHeightMeters: Double
        var box: Box
        var centroid: MapPoint
        var drawnFlat: Bool              // outlines (not parts) are drawn top-down
        var drawnExtruded: Bool          // parts, and outlines without parts, are extruded
    }
    struct Line: Sendable { var points: [MapPoint]; var box: Box; var name: String?; var names: [String: String] }
    struct Road: Sendable { var roadClass: MapStyle.RoadClass; var line: Line; var layer: Int }
    struct Rail: Sendable { var isTram: Bool; var line: Line }
    struct PlaceLabel: Sendable {
        var position: MapPoint; var name: String; var names: [String: String]; var group: PlaceGroup; var rank: Int
    }

    var areas: [Area] = []
    var buildings: [Building] = []
    var roads: [Road] = []
    var rails: [Rail] = []
    var places: [PlaceLabel] = []
    /// Roads of one class and layer joined into chains where they share end points: far fewer line ends
    /// (round caps) to rasterise than one line per OSM way. For drawing.
    var drawnRoads: [Road] = []
    /// Named roads joined into chains (OSM splits streets into many short ways), for street labels.
    var labelRoads: [Road] = []
    /// The attribution of the data ("© OpenStreetMap contributors").
    public let attribution: String
    /// The sea of the dataset's ``WaterModel``: polygons (outer ring and island holes) for one fill each.
    var sea: [Area] = []
    /// The extract's bounding box, map points: inside it the OSM data is drawn, outside it the world layer.
    var extractBox: Box?
    /// Natural Earth land, borders and country labels; nil draws only the extract (on land colour).
    public let world: WorldLayer?

    /// Prepares `dataset` for drawing with the shipped world layer when its file is found
    /// (``WorldLayer/shipped()``; use ``init(_:world:)`` to handle its absence yourself).
    public init(_ dataset: MapDataset) {
        self.init(dataset, world: try? WorldLayer.shipped())
    }

    /// Prepares `dataset` for drawing over `world` (nil: no world layer). Tunnels and subway tracks are
    /// left out (they are underground).
    public init(_ dataset: MapDataset, world: WorldLayer?) {
        // A map of no OSM data credits only what it draws (the world layer's Natural Earth).
        attribution = dataset.isEmpty ? "" : dataset.attribution
        self.world = world
        func mp(_ c: OSMCoordinate) -> MapPoint {
            MapPoint(x: (c.longitude + 180) / 360 * MapSize.world.width,
                     y: MapContent.mercatorY(latitude: c.latitude))
        }
        for area in dataset.areas {
            let rings = area.polygons.flatMap { [$0.outer] + $0.inners }.map { $0.map(mp) }
            areas.append(Area(kind: area.kind, rings: rings, box: Box(rings.flatMap { $0 })))
        }
        for polygon in dataset.water.sea {
            let rings = ([polygon.outer] + polygon.inners).map { $0.map(mp) }
            sea.append(Area(kind: .water, rings: rings, box: Box(rings[0])))
        }
        if let b = dataset.boundingBox {
            extractBox = Box([mp(OSMCoordinate(latitude: b.maxLatitude, longitude: b.minLongitude)),
                              mp(OSMCoordinate(latitude: b.minLatitude, longitude: b.maxLongitude))])
        }
        let parts = dataset.buildings.filter(\.isPart)
        for b in dataset.buildings {
            let outers = b.footprint.map { $0.outer.map(mp) }
            let holes = b.footprint.flatMap { $0.inners.map { $0.map(mp) } }
            guard let firstOuter = outers.first, firstOuter.count >= 4 else { continue }
            let c = b.footprint.first!.centroid
            var hasParts = false
            if !b.isPart {
                hasParts = parts.contains { part in
                    guard let pc = part.footprint.first?.centroid else { return false }
                    return b.footprint.contains { $0.contains(pc) }
                }
            }
            buildings.append(Building(rings: outers + holes, outerRingCount: outers.count, heightMeters: b.heightMeters,
                                      minHeightMeters: b.minHeightMeters, box: Box(outers.flatMap { $0 }),
                                      centroid: mp(c), drawnFlat: !b.isPart, drawnExtruded: b.isPart || !hasParts))
        }
        for s in dataset.streets where !s.isTunnel {
            guard let roadClass = MapStyle.RoadClass(s.highwayClass) else { continue }
            let points = s.points.map(mp)
            roads.append(Road(roadClass: roadClass, line: Line(points: points, box: Box(points), name: s.name, names: s.names),
                              layer: s.layer))
        }
        roads.sort { ($0.layer, $0.roadClass) < ($1.layer, $1.roadClass) }
        labelRoads = Self.chains(roads.filter { $0.line.name != nil }).sorted { $0.roadClass > $1.roadClass }
        drawnRoads = Self.chains(roads.map { var r = $0; r.line.name = nil; r.line.names = [:]; return r })
            .sorted { ($0.layer, $0.roadClass) < ($1.layer, $1.roadClass) }
        for r in dataset.railways where !r.isTunnel && r.kind != .subway {
            let points = r.points.map(mp)
            rails.append(Rail(isTram: r.kind == .tram, line: Line(points: points, box: Box(points), name: r.name, names: [:])))
        }
        for p in dataset.places {
            places.append(PlaceLabel(position: mp(p.position), name: p.name, names: p.names, group: p.category.group,
                                     rank: Self.rank(p.category)))
        }
        // Important places first: they win label collisions.
        places.sort { ($0.rank, $0.name) < ($1.rank, $1.name) }
    }

    /// Joins ways of one name and class that share end points into longer lines (greedy, both ends).
    static func chains(_ roads: [Road]) -> [Road] {
        var groups: [String: [Road]] = [:]
        for road in roads { groups["\(road.roadClass.rawValue)|\(road.layer)|\(road.line.name ?? "")", default: []].append(road) }
        var out: [Road] = []
        for key in groups.keys.sorted() {
            var pending = groups[key] ?? []
            while var chain = pending.popLast() {
                var grew = true
                while grew {
                    grew = false
                    for i in pending.indices.reversed() {
                        let p = pending[i].line.points
                        guard let first = chain.line.points.first, let last = chain.line.points.last,
                              let pFirst = p.first, let pLast = p.last else { continue }
                        var joined: [MapPoint]?
                        if last == pFirst { joined = chain.line.points + p.dropFirst() }
                        else if last == pLast { joined = chain.line.points + p.reversed().dropFirst() }
                        else if first == pLast { joined = p + chain.line.points.dropFirst() }
                        else if first == pFirst { joined = p.reversed() + chain.line.points.dropFirst() }
                        if let joined {
                            chain.line.points = joined
                            pending.remove(at: i)
                            grew = true
                        }
                    }
                }
                chain.line.box = Box(chain.line.points)
                out.append(chain)
            }
        }
        return out
    }

    /// Label priority (lower first): sights and stations, then squares and parks, then the rest.
    static func rank(_ category: PlaceCategory) -> Int {
        switch category.group {
        case .culture: return category.key == "tourism" || category.key == "historic" ? 0 : 2
        case .transport:
            if category.value == "station" { return 0 }
            // Stops are named after their streets: label them only when zoomed far in.
            return category.value == "tram_stop" || category.value == "bus_stop" ? 7 : 4
        case .leisure: return 1
        case .lodging, .education, .health: return 3
        case .food, .shop: return 5
        case .service: return 6
        case .building: return 7
        }
    }
}

extension MapContent {
    /// The Mercator y of a latitude in degrees, map points, clamped to the world square.
    static func mercatorY(latitude: Double) -> Double {
        let limit = MapPoint.maximumLatitudeDegrees
        let phi = Swift.min(limit, Swift.max(-limit, latitude)) * .pi / 180
        let h = MapSize.world.height
        return Swift.min(h, Swift.max(0, (0.5 - atanh(sin(phi)) / (2 * .pi)) * h))
    }
}

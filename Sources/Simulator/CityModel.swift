import Foundation
import Geodesy
import Imaging
import MapData

/// A 3D city in a local east-north-up frame, ready to be ray-traced: buildings, streets, sidewalks,
/// squares, parks, water, trees, shop signs and street plates, in one BVH.
///
/// Scene coordinates are metres east, north and up of ``frame``'s origin; the ground is the plane
/// up = 0 (the data has no terrain). Immutable after construction and safe to share across threads.
// @unchecked Sendable: immutable after init (the BVH, the records and the engine are built there and only read after).
public final class CityModel: @unchecked Sendable {
    /// The local frame: scene (east, north, up) ↔ WGS84.
    public let frame: LocalTangentFrame
    /// Every shop sign and street plate: its text and the world position of its face's centre.
    public let signs: [SignPlacement]
    /// The rectangle holding the geometry: west, south, east, north edges in scene metres.
    public let bounds: (minEast: Double, minNorth: Double, maxEast: Double, maxNorth: Double)
    /// ``bounds`` as a ``SceneRect``.
    public var extent: SceneRect { SceneRect(minEast: bounds.minEast, minNorth: bounds.minNorth, maxEast: bounds.maxEast, maxNorth: bounds.maxNorth) }
    /// Seconds spent building the BVH.
    public let bvhBuildSeconds: Double
    /// The street furniture built from OSM nodes, in the dataset's order.
    public let furniture: [FurniturePlacement]
    /// Number of triangles stored: the scene's own and each prototype's once.
    public var triangleCount: Int { bvh.triangleCount + (instanceLevel?.prototypeTriangleCount ?? 0) }
    /// Number of triangles a flat build would hold: the scene's own and every placed copy's.
    public var instancedTriangleCount: Int { bvh.triangleCount + (instanceLevel?.instancedTriangleCount ?? 0) }
    /// Number of placed copies of prototypes (trees, shrubs, street furniture).
    public var instanceCount: Int { instanceLevel?.instances.count ?? 0 }
    /// Entries of the traversal stack a query needs (our BVH, then the copies' two levels).
    var stackCapacity: Int { max(bvh.stackCapacity, instanceLevel?.stackCapacity ?? 0) }
    /// The share of the region that building footprints cover, each square metre counted once and
    /// only where the data is (``mappedExtent``); above ``isBuiltUp``'s threshold its untagged ground
    /// is paved, else rough grass. A tile of a larger build carries the larger build's share.
    public let builtUpShare: Double
    /// The model's extent clipped to where the data is complete (the extract's declared bounds, else
    /// the box round its nodes): the rectangle ``builtUpShare`` is a share of.
    public let mappedExtent: SceneRect
    /// ``mappedExtent``'s area, square metres.
    public var mappedAreaSquareMeters: Double {
        max(0, mappedExtent.maxEast - mappedExtent.minEast) * max(0, mappedExtent.maxNorth - mappedExtent.minNorth)
    }
    /// Where the data is complete, scene metres (nil when the dataset has no box).
    public let dataExtent: SceneRect?
    /// Whether the region counts as built up (its untagged ground paved).
    public var isBuiltUp: Bool { builtUpShare > CityModelBuilder.builtUpCoverage }

    let bvh: BoundingVolumeHierarchy
    /// The placed copies of prototypes; nil when there are none (or instancing is off).
    let instanceLevel: InstanceLevel?
    /// Embree over the BVH's triangles when ``rayEngine`` is `.embree`.
    let embree: EmbreeEngine?
    /// The engine the model traces with (`.bvh` when Embree was asked for but could not be set up).
    public var rayEngine: RayEngine { embree == nil ? .bvh : .embree }
    /// Seconds spent building the Embree scene (0 without it).
    public let embreeBuildSeconds: Double
    /// Surface records in BVH leaf order.
    let records: UnsafeMutableBufferPointer<SurfaceRecord>
    let atlas: SignAtlas
    let footprints: FootprintIndex
    let streets: [(name: String, highwayClass: HighwayClass, isOneway: Bool, widthMeters: Double, points: [(x: Double, y: Double)])]
    let squares: [(name: String, ring: [(x: Double, y: Double)])]
    /// The ground plane up = 0, when present.
    let ground: SurfaceRecord?
    /// Water surfaces as built: outer ring, holes, bounding box (west, south, east, north).
    let waterRings: [(outer: [(x: Double, y: Double)], holes: [[(x: Double, y: Double)]], box: (Double, Double, Double, Double))]

    /// Builds the city of `dataset` inside `region` (the whole extract when nil) plus
    /// `options.marginMeters`, in a frame anchored at the region's centre on the ground.
    /// - Throws: `SimulatorError.emptyScene` when nothing falls inside the region; text errors from
    ///   the fonts when signs are on and the fonts are missing.
    public convenience init(dataset: MapDataset, region: OSMBoundingBox? = nil, options: CityModelOptions = CityModelOptions()) throws {
        guard let box = region ?? dataset.dataBounds else {
            throw SimulatorError.emptyScene(detail: "the data set \(dataset.sourcePath) has no bounding box (no nodes)")
        }
        guard (0...5_000).contains(options.marginMeters) else {
            throw SimulatorError.invalidParameter(name: "margin", value: "\(options.marginMeters) m", allowed: "0…5000 m")
        }
        let center = box.center
        let frame = try LocalTangentFrame(origin: GeoCoordinate(latitude: center.latitude, normalizingLongitude: center.longitude))
        func enu(_ lat: Double, _ lon: Double) throws -> EastNorthUp {
            try frame.enu(from: GeoCoordinate(latitude: lat, normalizingLongitude: lon))
        }
        let sw = try enu(box.minLatitude, box.minLongitude), ne = try enu(box.maxLatitude, box.maxLongitude)
        let m = options.marginMeters
        try self.init(dataset: dataset, frame: frame,
                      extent: SceneRect(minEast: min(sw.east, ne.east) - m, minNorth: min(sw.north, ne.north) - m,
                                        maxEast: max(sw.east, ne.east) + m, maxNorth: max(sw.north, ne.north) + m),
                      builtUpShare: nil, options: options)
        if footprints.footprints.isEmpty && streets.isEmpty {
            throw SimulatorError.emptyScene(detail: "no buildings or streets inside the region \(box.minLatitude),\(box.minLongitude) – \(box.maxLatitude),\(box.maxLongitude)")
        }
    }

    /// The city of `dataset` inside `extent` (scene metres of `frame`): one tile of a larger build. With
    /// the larger build's frame and ``builtUpShare``, whatever lies inside the extent is built exactly as
    /// the larger build builds it (positions, plants, colours and the ground's cover are decided per
    /// OSM element, not per build), so a capture whose view stays inside the extent renders the same.
    /// `options.marginMeters` is not used: the extent is the whole.
    /// - Throws: text errors from the fonts when signs are on and the fonts are missing.
    public convenience init(dataset: MapDataset, frame: LocalTangentFrame, extent: SceneRect, builtUpShare: Double?,
                            options: CityModelOptions = CityModelOptions()) throws {
        var builder = CityModelBuilder(frame: frame, minX: extent.minEast, minY: extent.minNorth, maxX: extent.maxEast, maxY: extent.maxNorth)
        builder.builtUpShareOverride = builtUpShare
        builder.dataExtent = dataset.dataBounds.flatMap { Self.sceneRect(of: $0, in: frame) }
        builder.scene.instancing = options.instancing
        builder.addAreas(dataset.areas)
        builder.addWater(dataset.water)
        builder.addShopPlaces(dataset.places)
        builder.addBuildings(dataset.buildings)
        builder.addGround()
        builder.addStreets(dataset.streets)
        builder.addTramTracks(dataset.railways)
        if options.includeTrees {
            if options.includeFurniture { builder.reserveFurniture(dataset.furniture) }
            builder.addTrees(dataset.trees, rows: dataset.treeRows)
            builder.addGreenery(dataset.areas)
            builder.addHedges(dataset.hedges)
        }
        if options.includeFurniture { builder.addFurniture(dataset.furniture) }
        if options.includeSigns || options.includeStreetPlates {
            let renderer = TextRenderer(fonts: try FontLibrary())
            if options.includeSigns { try builder.addSigns(dataset.places, renderer: renderer) }
            if options.includeStreetPlates { try builder.addStreetPlates(dataset.streets, renderer: renderer) }
        }
        self.init(builder: builder, engine: options.engine)
    }

    /// A scene from collected triangles (also used by tests with hand-made scenes).
    init(builder: CityModelBuilder, engine: RayEngine = .bvh) {
        frame = builder.frame
        signs = builder.signs
        furniture = builder.furniture
        bounds = (builder.minX, builder.minY, builder.maxX, builder.maxY)
        let start = DispatchTime.now().uptimeNanoseconds
        bvh = BoundingVolumeHierarchy(vertices: builder.scene.vertices)
        instanceLevel = InstanceLevel(builder: builder.scene)
        bvhBuildSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let embreeStart = DispatchTime.now().uptimeNanoseconds
        embree = engine == .embree ? EmbreeEngine(bvh: bvh, instances: instanceLevel) : nil
        embreeBuildSeconds = embree == nil ? 0 : Double(DispatchTime.now().uptimeNanoseconds - embreeStart) / 1e9
        records = .allocate(capacity: max(1, bvh.triangleCount))
        for k in 0..<bvh.triangleCount { (records.baseAddress! + k).initialize(to: builder.scene.records[Int(bvh.triangleIDs[k])]) }
        atlas = builder.atlas
        footprints = builder.footprints
        streets = builder.streets
        squares = builder.squares
        ground = builder.ground
        builtUpShare = builder.builtUpShareOverride ?? builder.builtUpShare
        mappedExtent = builder.mappedExtent
        dataExtent = builder.dataExtent
        waterRings = builder.waterRings
    }

    deinit { records.deallocate() }

    /// The scene position of a coordinate at a height above the (flat) ground, metres.
    public func position(of coordinate: GeoCoordinate, heightMeters: Double = 0) -> EastNorthUp {
        let v = (try? frame.enu(from: coordinate)) ?? EastNorthUp(east: 0, north: 0, up: 0)
        return EastNorthUp(east: v.east, north: v.north, up: heightMeters)
    }

    /// The coordinate under a scene position (its height is ignored).
    public func coordinate(of position: EastNorthUp) -> GeoCoordinate {
        // Put the point on the ellipsoid's tangent plane at ground level; geodetic() then drops the height.
        let g = try? frame.geodetic(from: EastNorthUp(east: position.east, north: position.north, up: 0))
        return g?.coordinate ?? frame.origin.coordinate
    }

    /// Whether a scene point (east, north) is inside a building footprint or within `clearanceMeters` of a wall.
    public func isInsideBuilding(east: Double, north: Double, clearanceMeters: Double = 0) -> Bool {
        footprints.isInside((east, north), clearance: clearanceMeters)
    }
}

extension CityModel {
    /// The rectangle of scene metres (in `frame`) round a latitude/longitude box; nil when a corner
    /// cannot be projected.
    public static func sceneRect(of box: OSMBoundingBox, in frame: LocalTangentFrame) -> SceneRect? {
        var rect: SceneRect?
        for (lat, lon) in [(box.minLatitude, box.minLongitude), (box.minLatitude, box.maxLongitude),
                           (box.maxLatitude, box.minLongitude), (box.maxLatitude, box.maxLongitude)] {
            guard let g = try? GeoCoordinate(latitude: lat, normalizingLongitude: lon), let p = try? frame.enu(from: g) else { return nil }
            rect = rect.map { SceneRect(minEast: min($0.minEast, p.east), minNorth: min($0.minNorth, p.north),
                                        maxEast: max($0.maxEast, p.east), maxNorth: max($0.maxNorth, p.north)) }
                ?? SceneRect(minEast: p.east, minNorth: p.north, maxEast: p.east, maxNorth: p.north)
        }
        return rect
    }

    /// The share of `box` plus `marginMeters` that `dataset`'s buildings cover (what a model of that
    /// region reports as ``builtUpShare``, from the data alone, without building it): every outline
    /// and every part standing on the ground, each square metre once, over the part of the box the
    /// data covers. The ground colour that tiles and partial models of the region share.
    public static func builtUpShare(of dataset: MapDataset, within box: OSMBoundingBox, marginMeters: Double) -> Double {
        guard let frame = try? LocalTangentFrame(origin: GeoCoordinate(latitude: box.center.latitude, normalizingLongitude: box.center.longitude)),
              let rect = sceneRect(of: box, in: frame) else { return 0 }
        var region = rect.expanded(by: marginMeters)
        if let data = dataset.dataBounds.flatMap({ sceneRect(of: $0, in: frame) }) { region = region.clamped(to: data) }
        var raster = CoverageRaster(rect: region)
        func xy(_ c: OSMCoordinate) -> (x: Double, y: Double)? {
            (try? frame.enu(from: GeoCoordinate(latitude: c.latitude, normalizingLongitude: c.longitude))).map { (x: $0.east, y: $0.north) }
        }
        for building in dataset.buildings where !building.isPart || building.minHeightMeters < 0.5 {
            for polygon in building.footprint {
                raster.fill(outer: polygon.outer.compactMap(xy), holes: polygon.inners.map { $0.compactMap(xy) })
            }
        }
        return raster.share
    }
}

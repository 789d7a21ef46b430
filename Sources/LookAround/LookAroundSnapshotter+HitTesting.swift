import Catalog
import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot
import Reprojection

extension LookAroundSnapshotter {
    /// A surface point at most this far above the ground under the camera is ground (a 12 cm kerb
    /// is ground; a car bonnet is not), metres.
    public static let groundToleranceMeters = 0.3
    /// A place is under a raised point when the point is at most this far from the place's label
    /// anchor (the facade point at sign height where ``placeLabels(for:catalog:)`` pins its label), metres.
    public static let placeToleranceMeters = 3.0
    /// A raised point's address is the nearest house number (an entrance node, or a building's
    /// centroid) at most this far from it, metres: the catalog keeps address points, not footprints,
    /// and the centroid of a city block's building lies tens of metres behind its facade.
    public static let addressToleranceMeters = 30.0
    /// A street is under a ground point when the point is at most the street's half-width
    /// (``streetHalfWidthMeters(highwayClass:)``) plus this (its sidewalk and kerb) from the
    /// centreline, metres.
    public static let streetSidewalkMarginMeters = 2.5

    /// Half the usual carriageway width of a catalog highway class (as `CatalogStreet.highwayClass`
    /// names it, the OSM tag value), metres: MapData's ``HighwayClass/defaultWidthMeters``, halved, as
    /// the simulator builds it. (The catalog keeps no `width` or `lanes`.)
    public static func streetHalfWidthMeters(highwayClass: HighwayClass) -> Double {
        highwayClass.defaultWidthMeters / 2
    }

    /// What lies under continuous view pixel (`x`, `y`) of this snapshotter's view (pixel centres at
    /// i + 0.5, so the top-left pixel's centre is (0.5, 0.5)): the ray's direction, the surface point
    /// it meets (from the panorama's depth map, ``PanoramaDepthMap/rangeMeters(viewX:viewY:projection:)``)
    /// or sky, and the place or street there.
    ///
    /// - The point: the depth along the ray from the camera centre, placed in an east-north-up frame at
    ///   the camera (panorama coordinate, at the catalog's ground elevation plus camera height).
    /// - Surface: ground within ``groundToleranceMeters`` of the ground under the camera, else raised.
    /// - Place (raised points only): among the places the snapshot would label (its
    ///   ``Options/pointOfInterestFilter``), the one whose label anchor is nearest the point, if within
    ///   ``placeToleranceMeters``. Anchors rather than drawn label boxes: the anchor is where the sign
    ///   is, and it does not move with decluttering or text size.
    /// - Street (ground points only): the named street whose centreline is nearest the point, if
    ///   within its half-width plus ``streetSidewalkMarginMeters``.
    ///
    /// Names are in ``Options/language`` when the catalog has them, else the local name. Without a
    /// catalog (see ``init(scene:options:cache:catalog:)``) the camera height is taken as
    /// ``LookAroundLabelPlacer/defaultCameraHeightMeters`` and there is no place or street; without a
    /// depth map the surface is ``LookAroundHit/Surface/unknown``.
    ///
    /// - Throws: `ReprojectionError.invalidParameter` naming the value and the allowed range for a
    ///   pixel outside 0…width × 0…height or not finite, or for a camera out of range; `ImagingError`
    ///   when the depth map is unreadable; `CatalogError` when the catalog fails.
    public func hitTest(x: Double, y: Double) throws -> LookAroundHit {
        let camera = try viewCamera()
        for (name, value, limit) in [("view x", x, camera.width), ("view y", y, camera.height)] {
            guard value.isFinite, (0...Double(limit)).contains(value) else {
                throw ReprojectionError.invalidParameter(
                    name: name, value: "\(value)",
                    allowed: "0…\(limit) (continuous view pixels of a \(camera.width)x\(camera.height) view; pixel centres at i + 0.5)")
            }
        }
        let match = scene.match
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: match.imageWidth)
        let direction = projection.direction(viewX: x, viewY: y)
        var hit = LookAroundHit(x: x, y: y, panoramaID: match.panoramaID, direction: direction,
                                headingDegrees: direction.heading.degrees,
                                elevationDegrees: asin(max(-1, min(1, direction.up))) * 180 / .pi, surface: .unknown)
        guard let depthPath = match.depthPath else { return hit }
        let catalog = labelCatalog()
        let record = try catalog?.panorama(id: match.panoramaID)
        let cameraHeight = record?.cameraHeightMeters ?? LookAroundLabelPlacer.defaultCameraHeightMeters
        // The depth map the label placer keeps per file: a hit test after a snapshot (or another hit
        // test) of the same panorama does not decode the PNG again.
        let depthImage = try LookAroundLabelPlacer.cached(depthPath: depthPath, pose: pose, cameraHeightMeters: cameraHeight).depth
        let depth = try PanoramaDepthMap(depthImage, nearestSurfaceMeters: max(1, cameraHeight))
        guard let range = depth.rangeMeters(viewX: x, viewY: y, projection: projection) else {
            hit.surface = .sky
            return hit
        }
        let offset = EastNorthUp(east: direction.east * range, north: direction.north * range, up: direction.up * range)
        let origin = try GeoCoordinate(latitude: match.latitude, longitude: match.longitude)
        let frame = try LocalTangentFrame(origin: origin, heightMeters: (record?.groundElevationMeters ?? 0) + cameraHeight)
        let coordinate = try frame.geodetic(from: offset).coordinate
        let height = cameraHeight + offset.up
        hit.point = LookAroundHit.Point(coordinate: coordinate, distanceMeters: range, heightAboveGroundMeters: height, offset: offset)
        hit.surface = height <= Self.groundToleranceMeters ? .ground : .raised
        guard let catalog else { return hit }
        if hit.surface == .raised {
            let placer = LookAroundLabelPlacer(depth: depthImage, pose: pose, cameraHeightMeters: cameraHeight)
            hit.place = try place(at: offset, coordinate: coordinate, frame: frame, placer: placer, catalog: catalog)
            let found = try catalog.reverseGeocode(coordinate, radiusMeters: Self.addressToleranceMeters, streetRadiusMeters: 0,
                                                   language: options.language)
            if let address = found.address, let distance = found.addressDistanceMeters {
                hit.address = LookAroundHit.Address(houseNumber: address.houseNumber, street: address.street ?? address.place,
                                                    postcode: address.postcode, city: found.city,
                                                    displayName: found.displayName, distanceMeters: distance)
            }
        } else {
            hit.street = try street(at: coordinate, catalog: catalog)
        }
        return hit
    }

    /// The place whose label anchor is nearest `offset` (metres from the camera), within ``placeToleranceMeters``.
    private func place(at offset: EastNorthUp, coordinate: GeoCoordinate, frame: LocalTangentFrame,
                       placer: LookAroundLabelPlacer, catalog: Catalog) throws -> LookAroundHit.Place? {
        guard options.pointOfInterestFilter != .excludingAll else { return nil }
        // An anchor is at most facadeToleranceMeters from its place, so farther places cannot qualify.
        let radius = LookAroundLabelPlacer.facadeToleranceMeters + Self.placeToleranceMeters
        var best: LookAroundHit.Place?
        for (place, _) in try catalog.places(near: coordinate, radiusMeters: radius) {
            if !options.pointOfInterestFilter.includes(place.categoryGroup) { continue }
            guard let anchor = placer.anchor(forPlaceAt: try frame.enu(from: place.coordinate)) else { continue }
            let distance = EastNorthUp(east: anchor.east - offset.east, north: anchor.north - offset.north,
                                       up: anchor.up - offset.up).lengthMeters
            guard distance <= Self.placeToleranceMeters, distance < best?.distanceMeters ?? .infinity else { continue }
            best = LookAroundHit.Place(name: place.name(in: options.language), category: place.category,
                                       categoryGroup: place.categoryGroup, coordinate: place.coordinate,
                                       distanceMeters: distance)
        }
        return best
    }

    /// The named street whose centreline is nearest `coordinate`, within its half-width plus the sidewalk margin.
    private func street(at coordinate: GeoCoordinate, catalog: Catalog) throws -> LookAroundHit.Street? {
        let radius = Self.streetHalfWidthMeters(highwayClass: .motorway) + Self.streetSidewalkMarginMeters
        let found = try catalog.namedStreet(near: coordinate, radiusMeters: radius, language: options.language) { street, distance in
            distance <= Self.streetHalfWidthMeters(highwayClass: street.highwayClass) + Self.streetSidewalkMarginMeters
        }
        return found.map { LookAroundHit.Street(name: $0.name, highwayClass: $0.street.highwayClass, distanceMeters: $0.distanceMeters) }
    }
}

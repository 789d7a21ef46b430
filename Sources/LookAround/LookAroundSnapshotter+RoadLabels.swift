import Catalog
import Foundation
import Geodesy
import Imaging
import Reprojection

extension LookAroundSnapshotter {
    /// Pixel size at which names are measured for placement (the layout scales with it).
    static let roadLabelMeasureSize = 64.0
    /// The text style of painted street names at `pixelSize`: bold white over a dark translucent halo.
    static func roadLabelStyle(pixelSize: Double) -> TextStyle {
        TextStyle(pixelSize: pixelSize, weight: .bold, color: .white,
                  halo: .init(width: min(TextStyle.maximumHaloWidth, max(1, pixelSize * 0.07)),
                              color: RGBAColor(red: 16, green: 20, blue: 28, alpha: 150)))
    }
    /// The largest em size, in pixels, a painted name is rendered at before being mapped onto the ground
    /// (nearer text is magnified from it; beyond this the glyphs and the warp cost more than they show).
    static let roadLabelMaximumPixelSize = 96.0
    /// Opacity of painted street names (Apple's are a little see-through, like paint on asphalt).
    static let roadLabelOpacity = 0.82

    /// The street names of a view, painted on the ground along their streets (see
    /// ``LookAroundRoadLabelPlacer``): named streets from `catalog` near the panorama, names in
    /// ``Options/language`` where the street has it, else the local name. Empty when
    /// ``Options/showsRoadLabels`` is false or the panorama has no depth map.
    /// - Parameters:
    ///   - camera: the view.
    ///   - catalog: where the streets come from.
    ///   - placeLabels: labels already in the view; street names keep clear of them.
    ///   - placer: the placement limits.
    /// - Throws: `CatalogError` when the catalog fails; `ImagingError` when the depth map is unreadable
    ///   or no font loads.
    public func roadLabels(for camera: ViewCamera, catalog: Catalog, avoiding placeLabels: [LookAroundPlaceLabel] = [],
                           placer: LookAroundRoadLabelPlacer = LookAroundRoadLabelPlacer()) throws -> [LookAroundRoadLabel] {
        guard options.showsRoadLabels, let context = try labelContext(catalog: catalog) else { return [] }
        return try roadLabels(for: camera, context: context, avoiding: placeLabels, placer: placer)
    }

    func roadLabels(for camera: ViewCamera, context: LabelContext, avoiding placeLabels: [LookAroundPlaceLabel],
                    placer: LookAroundRoadLabelPlacer = LookAroundRoadLabelPlacer()) throws -> [LookAroundRoadLabel] {
        guard options.showsRoadLabels else { return [] }
        let radius = placer.distanceRangeMeters.upperBound + 2 * LookAroundRoadLabelPlacer.textEmMeters
        let streets = try labelStreets(context: context, radiusMeters: radius)
        // Place labels' names and anchor dots, as drawn.
        let avoid = placeLabels.map { label -> [PixelPoint] in
            let b = label.box
            return [PixelPoint(b.minX, b.minY), PixelPoint(b.maxX, b.minY), PixelPoint(b.maxX, b.maxY + 5), PixelPoint(b.minX, b.maxY + 5)]
        }
        return placer.place(streets, camera: camera, cameraHeightMeters: context.placer.cameraHeightMeters,
                            depth: placer.checksOcclusion ? context.placer : nil, avoiding: avoid)
    }

    /// The named streets within `radiusMeters` of the context's origin, in its local frame, each with
    /// its name's inked box in the painted style (read from the catalog and measured once per radius).
    func labelStreets(context: LabelContext, radiusMeters radius: Double) throws -> [LookAroundRoadLabelPlacer.Street] {
        try labelSources.kept(\.streets[radius], catalog: context.catalog) { try readLabelStreets(context: context, radiusMeters: radius) }
    }

    private func readLabelStreets(context: LabelContext, radiusMeters radius: Double) throws -> [LookAroundRoadLabelPlacer.Street] {
        let fonts = try Self.fonts.get()
        let measureStyle = Self.roadLabelStyle(pixelSize: Self.roadLabelMeasureSize)
        var streets: [LookAroundRoadLabelPlacer.Street] = []
        var ink: [String: (Double, Double, Double, Double)] = [:]
        for (street, _) in try context.catalog.streets(near: context.origin, radiusMeters: radius) {
            guard let local = street.name else { continue }
            let name = options.language.flatMap { street.names[$0] } ?? local
            guard !name.isEmpty else { continue }
            if ink[name] == nil {
                let m = try fonts.measure(name, style: measureStyle), k = Self.roadLabelMeasureSize
                ink[name] = (m.inkMinX / k, m.inkMinY / k, m.inkMaxX / k, m.inkMaxY / k)
            }
            guard let box = ink[name], box.2 > box.0 else { continue }
            var points: [SIMD2<Double>] = []
            for point in street.points {
                let p = try context.frame.enu(from: point)
                points.append(SIMD2(p.east, p.north))
            }
            streets.append(.init(street: street, name: name, points: points, ink: (box.0, box.1, box.2, box.3)))
        }
        return streets
    }

    /// Paints `labels` (as ``roadLabels(for:catalog:avoiding:placer:)`` places them for `camera`) onto
    /// `image`, the view of `camera`, exactly as a snapshot does.
    /// - Throws: `ImagingError` when no font can be loaded.
    public static func paint(roadLabels labels: [LookAroundRoadLabel], camera: ViewCamera, on image: inout RGB8Image) throws {
        try draw(placeLabels: [], roadLabels: labels, camera: camera, on: &image)
    }

    /// Paints `label` on the ground of the view of `camera`: the name rendered flat at the resolution
    /// its nearest part needs, then mapped into the view through the ground plane's homography.
    /// - Parameter then: a map applied after the view's (the offset of a canvas covering part of the view).
    static func paint(_ label: LookAroundRoadLabel, camera: ViewCamera, renderer: TextRenderer, on canvas: inout Canvas,
                      then viewToCanvas: Homography = .identity) throws {
        let projector = GroundPlaneProjector(camera: camera)
        let start = SIMD3(label.groundStart.east, label.groundStart.north, label.groundStart.up)
        let end = SIMD3(label.groundEnd.east, label.groundEnd.north, label.groundEnd.up)
        let chord = end - start, length = (chord * chord).sum().squareRoot()
        guard length > 0 else { return }
        let along = chord / length, across = SIMD3(-along.y, along.x, 0), centre = (start + end) / 2
        // Patch pixels per metre: what the nearest end of the text needs, within sane text sizes.
        let nearest = max(1, min(projector.depth(start), projector.depth(end)))
        let em = LookAroundRoadLabelPlacer.textEmMeters
        let pixelSize = min(Self.roadLabelMaximumPixelSize, max(12, projector.focal * em / nearest))
        let style = roadLabelStyle(pixelSize: pixelSize)
        let metrics = try renderer.measure(label.name, style: style)
        let pad = (style.halo?.width ?? 0) + 2
        let width = Int((metrics.advanceWidth + 2 * pad).rounded(.up)), height = Int((metrics.lineHeight + 2 * pad).rounded(.up))
        guard width > 0, height > 0 else { return }
        let patch = try ProjectionSource(text: label.name, style: style, origin: PixelPoint(pad, pad + metrics.ascent),
                                         width: width, height: height, renderer: renderer)
        // Patch (x, y) ↦ ground: the ink box's centre on the label's centre, x along, y against "across".
        let k = pixelSize / em
        let inkCentreX = pad + (metrics.inkMinX + metrics.inkMaxX) / 2
        let inkCentreY = pad + metrics.ascent + (metrics.inkMinY + metrics.inkMaxY) / 2
        let origin = centre - along * (inkCentreX / k) + across * (inkCentreY / k)
        let transform = projector.homography(origin: origin, axisA: along / k, axisB: -across / k)
        canvas.drawProjected(patch, transform: viewToCanvas * transform, opacity: Float(roadLabelOpacity))
    }
}

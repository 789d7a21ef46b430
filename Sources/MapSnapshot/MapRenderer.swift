import Foundation
import Geodesy
import Imaging
import MapData

/// Draws one snapshot: the base map (or imagery), coverage, overlays, labels, annotations and the
/// attribution, in MapKit's layer order. Internal: ``MapSnapshotter`` is the API.
struct MapRenderer {
    let content: MapContent
    let options: MapSnapshotOptions
    let projection: MapProjection
    let style: MapStyle
    let text: TextRenderer
    var canvas: Canvas
    var labels: LabelPlacer
    /// Zoom level at the centre (256-point tiles).
    let zoom: Double
    /// Visible ground, relative to the centre, map points.
    let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// The ground whose pixels are drawn, relative to the centre, map points: the window's
    /// (``MapSnapshotOptions/window``) in a top-down view, else ``bounds``. Features outside it are placed
    /// (labels) but not rasterised.
    let drawnBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// The pixels drawn (the window, or the whole picture) widened by ``lineClipMarginPoints``: the runs of a
    /// line wholly beyond one of its edges are left out of strokes (see ``MapProjection/appendLine``).
    let lineClip: PixelRect
    let scale: Double
    /// Whether the world layer is drawn: there is one, and the ground under the drawn pixels is not all
    /// inside the extract (``drawsWorld(_:_:zoom:bounds:pixels:)``).
    let drawsWorld: Bool
    /// Whether the world layer was drawn (the attribution then credits Natural Earth).
    var showsWorldAttribution = false
    /// The world layer's land as drawn, pixel rings by country index, for placing country labels.
    var drawnCountries: [Int: [[PixelPoint]]] = [:]

    init(content: MapContent, options: MapSnapshotOptions, projection: MapProjection, fonts: FontLibrary) {
        self.content = content
        self.options = options
        self.projection = projection
        style = MapStyle.forType(options.mapType)
        text = TextRenderer(fonts: fonts)
        scale = options.scale
        // The sea is the background when the world layer shows (its polygons are the land); else the land.
        let zoom = 20 - log2(projection.mapPointsPerPixel * options.scale), bounds = projection.visibleRelativeBounds
        let drawn = options.window.map { PixelRect(minX: Double($0.x), minY: Double($0.y), maxX: Double($0.x + $0.width), maxY: Double($0.y + $0.height)) }
            ?? PixelRect(minX: 0, minY: 0, maxX: Double(projection.widthPixels), maxY: Double(projection.heightPixels))
        // Whether the world layer shows in the drawn pixels, or within the reach of the extract edge's
        // stroke (1.5 points, mitred) of them: a tile inside the extract whose label margin is not skips it.
        let reach = 2 * options.scale + 1
        let world = Self.drawsWorld(content, projection, zoom: zoom, bounds: bounds,
                                    pixels: PixelRect(minX: max(0, drawn.minX - reach), minY: max(0, drawn.minY - reach),
                                                      maxX: min(Double(projection.widthPixels), drawn.maxX + reach),
                                                      maxY: min(Double(projection.heightPixels), drawn.maxY + reach)))
        drawsWorld = world
        let background = !options.showsBaseMap ? RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) : world ? style.sea : style.land
        if let window = options.window {
            canvas = Canvas(width: projection.widthPixels, height: projection.heightPixels, background: background,
                            windowX: window.x, windowY: window.y, windowWidth: window.width, windowHeight: window.height)
        } else {
            canvas = Canvas(width: projection.widthPixels, height: projection.heightPixels, background: background)
        }
        labels = LabelPlacer(width: projection.widthPixels, height: projection.heightPixels)
        self.zoom = zoom
        self.bounds = bounds
        let margin = Self.lineClipMarginPoints * options.scale
        lineClip = PixelRect(minX: drawn.minX - margin, minY: drawn.minY - margin, maxX: drawn.maxX + margin, maxY: drawn.maxY + margin)
        drawnBounds = options.window == nil || projection.isPitched ? bounds : Self.groundBounds(of: drawn, projection) ?? bounds
    }

    /// The widest a line's stroke reaches beyond its centre line, points: half the widest road (28) and its
    /// casing (1), times the miter limit of its joins (1.5); rounded up.
    static let lineClipMarginPoints = 24.0

    /// The ground under a pixel rectangle of a top-down view, relative to the centre, map points.
    static func groundBounds(of rect: PixelRect, _ projection: MapProjection) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY)] {
            guard let g = projection.groundRelative(forPixel: PixelPoint(x, y)) else { return nil }
            minX = min(minX, g.x); maxX = max(maxX, g.x); minY = min(minY, g.y); maxY = max(maxY, g.y)
        }
        return (minX, minY, maxX, maxY)
    }

    /// Draws everything and returns the image.
    mutating func render() throws -> RGBA8Image {
        guard options.showsBaseMap else {
            // Coverage and overlays alone, on transparency.
            if options.coverage != nil { drawCoverage() }
            for overlay in options.overlays { try drawOverlay(overlay) }
            return canvas.image
        }
        let type = options.mapType
        let detail = drawsDetail, world = drawsWorld
        showsWorldAttribution = world
        if world { drawWorld() }
        drawSky()
        if detail {
            if type.needsOrthophoto {
                try drawImagery()
            } else {
                drawExtractGround(overWorld: world)
                drawAreas()
            }
            if type != .imagery {
                drawRoads()
                drawRails()
            }
            if options.showsBuildings && (type == .standard || type == .muted) && zoom >= 14 {
                if projection.isPitched { drawExtrudedBuildings() } else { drawFlatBuildings() }
            }
            if world { drawOutsideExtract() }
        }
        if options.coverage != nil { drawCoverage() }
        for overlay in options.overlays where overlay.level == .aboveRoads { try drawOverlay(overlay) }
        if type != .imagery && options.showsLabels {
            // Street names first (they orient the reader), then places by importance, then countries.
            reserveAttribution()
            for area in options.labelExclusions { labels.take(area) }
            if detail {
                drawStreetLabels()
                drawPlaceLabels()
            }
            if world { drawCountryLabels() }
        }
        for overlay in options.overlays where overlay.level == .aboveLabels { try drawOverlay(overlay) }
        try drawAnnotations()
        drawAttribution()
        return canvas.image
    }

    // MARK: - Helpers

    /// Text metrics of a label (line box from the fonts' size metrics).
    func measureText(_ string: String, style: TextStyle) throws -> TextMetrics {
        try text.measure(string, style: style)
    }

    /// Points → pixels.
    @inline(__always) func px(_ points: Double) -> Double { points * scale }

    /// The relative position of an absolute map point with a feature's world shift.
    @inline(__always) func rel(_ p: MapPoint, _ shift: Double, z: Double = 0) -> SIMD3<Double> {
        SIMD3(p.x - projection.center.x + shift, p.y - projection.center.y, z)
    }

    func visible(_ box: MapContent.Box, marginPixels: Double = 0) -> Bool {
        projection.isVisible(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, bounds: bounds,
                             margin: marginPixels * projection.mapPointsPerPixel)
    }

    /// Whether a feature with `box`, reaching `marginPixels` beyond it when drawn, can touch a drawn pixel
    /// (``drawnBounds``): the test for rasterising, where ``visible(_:marginPixels:)`` is the one for placing.
    func drawn(_ box: MapContent.Box, marginPixels: Double = 0) -> Bool {
        projection.isVisible(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, bounds: drawnBounds,
                             margin: marginPixels * projection.mapPointsPerPixel)
    }

    /// Whether a pixel box meets the drawn pixels (the window, or the whole picture).
    func drawsPixels(in box: PixelRect) -> Bool {
        let x0 = Double(canvas.windowX), y0 = Double(canvas.windowY)
        return box.maxX > x0 && box.minX < x0 + Double(canvas.image.width) && box.maxY > y0 && box.minY < y0 + Double(canvas.image.height)
    }

    /// Pixels per map point at a camera-space depth (for widths of roads far away in pitched views).
    @inline(__always) func pixelsPerMapPoint(atDepth depth: Double) -> Double { projection.focalPixels / depth }

    // MARK: - Sky and areas

    mutating func drawSky() {
        let horizon = projection.horizonRow
        guard horizon > -1 else { return }
        // A few bands from the top colour to the horizon colour, then a soft haze over the far ground.
        let bottom = min(Double(canvas.height), horizon)
        let bands = 12
        for i in 0..<bands {
            let t = Double(i) / Double(bands - 1)
            let color = Self.mix(style.skyTop, style.skyHorizon, t)
            let y0 = bottom * Double(i) / Double(bands), y1 = bottom * Double(i + 1) / Double(bands)
            var path = Path()
            path.addRectangle(x: 0, y: y0, width: Double(canvas.width), height: y1 - y0 + 0.5)
            canvas.fill(path, color: color)
        }
    }

    static func mix(_ a: RGBAColor, _ b: RGBAColor, _ t: Double) -> RGBAColor {
        func m(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) * (1 - t) + Double(y) * t).rounded()) }
        return RGBAColor(red: m(a.red, b.red), green: m(a.green, b.green), blue: m(a.blue, b.blue), alpha: m(a.alpha, b.alpha))
    }

    mutating func drawAreas() {
        // Land use first (below the covers drawn on it), as the simulator stacks them.
        let order: [AreaKind] = [.residential, .industrial, .farmland, .meadow, .orchard, .sand, .wood, .scrub, .grass, .park,
                                 .parking, .pavedArea, .square, .water]
        for kind in order {
            guard let color = style.areas[kind] else { continue }
            var path = Path()
            for i in content.areas.indices where content.areas[i].kind == kind && drawn(content.areas[i].box, marginPixels: 1) {
                let area = content.areas[i]
                let shift = projection.worldShift(forX: area.box.minX)
                for ring in area.rings {
                    if let projected = projection.projectRing(ring.count, { rel(ring[$0], shift) }) {
                        path.addPolygon(projected)
                    }
                }
            }
            if !path.isEmpty { canvas.fill(path, color: color, rule: .nonZero) }
        }
    }

    // MARK: - Roads and rails

    /// The drawn width of a road style at a depth, pixels.
    func roadWidthPixels(_ road: MapStyle.RoadStyle, depth: Double) -> Double {
        let meters = road.widthMeters * projection.mapPointsPerMeter * pixelsPerMapPoint(atDepth: depth)
        return min(px(road.maximumWidthPoints), max(px(road.minimumWidthPoints), meters))
    }

    /// Roads of the visible classes, batched by (class, width bin) so each batch is one fill.
    func roadBatches() -> [(roadClass: MapStyle.RoadClass, width: Double, path: Path)] {
        var batches: [Int: (MapStyle.RoadClass, Double, Path)] = [:]
        // Chained ways (fewer caps); in pitched views cut into runs of up to 40 vertices, each drawn at the
        // width its own depth gives.
        let runLength = projection.isPitched ? 40 : Int.max
        let margin = px(Self.lineClipMarginPoints)
        for index in content.drawnRoads.indices {
            guard drawn(content.drawnRoads[index].line.box, marginPixels: margin),
                  let roadStyle = style.roads[content.drawnRoads[index].roadClass], zoom >= roadStyle.minimumZoom else { continue }
            let road = content.drawnRoads[index]
            let all = road.line.points
            let shift = projection.worldShift(forX: road.line.box.minX)
            var start = 0
            while start < all.count - 1 {
                let end = min(all.count, start + runLength)
                let points = all[start..<end]
                start = end - 1
                var depth = projection.distanceMapPoints
                if projection.isPitched {
                    let mid = points[points.startIndex + points.count / 2]
                    depth = max(projection.nearDepth, projection.cameraSpace(rel(mid, shift)).z)
                }
                let width = roadWidthPixels(roadStyle, depth: depth)
                // One fill per class and width bin: quarter pixels up to 3 px, then 10 % steps.
                let bin = width < 3 ? Int((width * 4).rounded()) : 12 + Int((log(width / 3) / log(1.1)).rounded())
                let binWidth = bin <= 12 ? Double(bin) / 4 : 3 * pow(1.1, Double(bin - 12))
                let key = road.roadClass.rawValue * 100_000 + bin
                var entry = batches[key] ?? (road.roadClass, binWidth, Path())
                let base = points.startIndex
                _ = projection.appendLine(points.count, { rel(points[base + $0], shift) }, to: &entry.2, minimumSpacingPixels: 1,
                                          clip: lineClip)
                batches[key] = entry
            }
        }
        return batches.values.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { ($0.0, $0.1, $0.2) }
    }

    mutating func drawRoads() {
        let batches = roadBatches()
        // All casings first, then all fills, so junctions merge cleanly.
        for batch in batches {
            guard let roadStyle = style.roads[batch.roadClass], let casing = roadStyle.casing, batch.width >= px(1.2) else { continue }
            let w = batch.width + 2 * px(roadStyle.casingPoints)
            canvas.stroke(batch.path, style: Self.roadStroke(width: w), color: casing)
        }
        for batch in batches {
            guard let roadStyle = style.roads[batch.roadClass] else { continue }
            canvas.stroke(batch.path, style: Self.roadStroke(width: max(0.5, batch.width)), color: roadStyle.fill)
        }
    }

    /// Road strokes: round caps; miter joins limited to 1.5 (bevelled beyond), which look round enough at
    /// road widths and cost a quarter of the edges of round joins (a circle at every vertex).
    static func roadStroke(width: Double) -> StrokeStyle {
        StrokeStyle(width: width, cap: width >= 2.5 ? .round : .butt, join: .miter, miterLimit: 1.5)
    }

    mutating func drawRails() {
        guard zoom >= 13 else { return }
        var rails = Path(), trams = Path()
        let margin = px(Self.lineClipMarginPoints)
        for index in content.rails.indices where drawn(content.rails[index].line.box, marginPixels: margin) {
            let rail = content.rails[index]
            let points = rail.line.points
            let shift = projection.worldShift(forX: rail.line.box.minX)
            if rail.isTram {
                _ = projection.appendLine(points.count, { rel(points[$0], shift) }, to: &trams, minimumSpacingPixels: 1, clip: lineClip)
            } else {
                _ = projection.appendLine(points.count, { rel(points[$0], shift) }, to: &rails, minimumSpacingPixels: 1, clip: lineClip)
            }
        }
        if !rails.isEmpty {
            canvas.stroke(rails, style: StrokeStyle(width: px(2), cap: .butt, join: .bevel), color: style.rail)
        }
        if !trams.isEmpty {
            canvas.stroke(trams, style: StrokeStyle(width: px(1.1), cap: .butt, join: .bevel), color: style.tram)
        }
    }
}

import Foundation
import Geodesy
import Imaging
import MapData

/// The layers by zoom: the world layer (Natural Earth land, sea, borders, country names) alone below
/// ``MapRenderer/detailMinimumZoom``; above it the OSM extract inside its bounding box (its own land,
/// sea and features), with the world layer still drawn outside the box, so a view across the extract's
/// edge is never half blank.
extension MapRenderer {
    /// The lowest zoom at which the OSM extract is drawn.
    static let detailMinimumZoom = 8.0

    /// The extract's box relative to the centre (nearest world copy), map points.
    var relativeExtractBox: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        Self.relativeExtractBox(content, projection)
    }

    static func relativeExtractBox(_ content: MapContent, _ projection: MapProjection)
        -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard let box = content.extractBox else { return nil }
        let shift = projection.worldShift(forX: box.minX)
        return (box.minX - projection.center.x + shift, box.minY - projection.center.y,
                box.maxX - projection.center.x + shift, box.maxY - projection.center.y)
    }

    /// Whether the extract is drawn: zoomed in far enough and in view.
    var drawsDetail: Bool { Self.drawsDetail(content, projection, zoom: zoom, bounds: bounds) }

    static func drawsDetail(_ content: MapContent, _ projection: MapProjection, zoom: Double,
                            bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool {
        guard zoom >= detailMinimumZoom, let box = content.extractBox else { return false }
        return projection.isVisible(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, bounds: bounds, margin: 0)
    }

    /// Whether the world layer shows: there is one, and the ground under `pixels` (the whole image by
    /// default) is not entirely inside the extract. That ground is the convex quadrilateral under the
    /// rectangle's corners (when they all look at the ground), and the box is convex, so the four corners
    /// decide. Outside `pixels` the world layer may then be missing, under the extract's wash.
    static func drawsWorld(_ content: MapContent, _ projection: MapProjection, zoom: Double,
                           bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), pixels: PixelRect? = nil) -> Bool {
        guard content.world != nil else { return false }
        guard drawsDetail(content, projection, zoom: zoom, bounds: bounds), let e = relativeExtractBox(content, projection) else { return true }
        let r = pixels ?? PixelRect(minX: 0, minY: 0, maxX: Double(projection.widthPixels), maxY: Double(projection.heightPixels))
        for (x, y) in [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)] {
            guard let g = projection.groundRelative(forPixel: PixelPoint(x, y)),
                  g.x >= e.minX, g.x <= e.maxX, g.y >= e.minY, g.y <= e.maxY else { return true }
        }
        return false
    }

    /// Clips a pixel ring to a rectangle `margin` pixels outside the image (Sutherland–Hodgman; the
    /// concave leftovers run along the rectangle's edges, outside the image): a country seen at zoom 15
    /// keeps the few vertices near the view instead of thousands the rasteriser would walk.
    func clippedToView(_ ring: [PixelPoint], margin: Double = 4) -> [PixelPoint] {
        let x0 = -margin, y0 = -margin, x1 = Double(canvas.width) + margin, y1 = Double(canvas.height) + margin
        var allInside = true
        for p in ring where p.x < x0 || p.x > x1 || p.y < y0 || p.y > y1 { allInside = false; break }
        if allInside { return ring }
        var points = ring
        for edge in 0..<4 {
            guard !points.isEmpty else { break }
            func inside(_ p: PixelPoint) -> Bool {
                switch edge { case 0: return p.x >= x0; case 1: return p.x <= x1; case 2: return p.y >= y0; default: return p.y <= y1 }
            }
            func cut(_ a: PixelPoint, _ b: PixelPoint) -> PixelPoint {
                let t: Double
                switch edge {
                case 0: t = (x0 - a.x) / (b.x - a.x)
                case 1: t = (x1 - a.x) / (b.x - a.x)
                case 2: t = (y0 - a.y) / (b.y - a.y)
                default: t = (y1 - a.y) / (b.y - a.y)
                }
                return PixelPoint(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
            }
            var out: [PixelPoint] = []
            out.reserveCapacity(points.count + 4)
            var previous = points[points.count - 1]
            for current in points {
                let inCurrent = inside(current), inPrevious = inside(previous)
                if inCurrent != inPrevious { out.append(cut(previous, current)) }
                if inCurrent { out.append(current) }
                previous = current
            }
            points = out
        }
        return points
    }

    /// The world-width multiples (map points) at which a feature with `box` appears in the view: one
    /// for most, several when the view is wider than the world.
    func worldShifts(_ box: MapContent.Box, marginPixels: Double = 0) -> [Double] {
        let w = MapSize.world.width, margin = marginPixels * projection.mapPointsPerPixel
        let y0 = box.minY - projection.center.y, y1 = box.maxY - projection.center.y
        guard y1 >= bounds.minY - margin, y0 <= bounds.maxY + margin else { return [] }
        let x0 = box.minX - projection.center.x, x1 = box.maxX - projection.center.x
        let first = Int(((bounds.minX - margin - x1) / w).rounded(.up)), last = Int(((bounds.maxX + margin - x0) / w).rounded(.down))
        guard first <= last else { return [] }
        return (first...last).map { Double($0) * w }
    }

    /// A projected ring without the vertices closer than half a pixel to the previous one (the bands
    /// are simplified for their highest zoom, so lower zooms in the band have sub-pixel detail).
    func projectWorldRing(_ ring: [MapPoint], shift: Double) -> [PixelPoint]? {
        guard let projected = projection.projectRing(ring.count, { rel(ring[$0], shift) }) else { return nil }
        var out: [PixelPoint] = [projected[0]]
        out.reserveCapacity(projected.count)
        for p in projected.dropFirst() {
            let last = out[out.count - 1]
            if (p.x - last.x) * (p.x - last.x) + (p.y - last.y) * (p.y - last.y) >= 0.25 { out.append(p) }
        }
        let clipped = clippedToView(out)
        return clipped.count >= 3 ? clipped : nil
    }

    /// Natural Earth land over the sea colour (the canvas background), then the country borders.
    mutating func drawWorld() {
        guard let world = content.world else { return }
        let band = world.band(forZoom: zoom)
        var land = Path()
        // By index: the box test reads one field instead of copying each polygon (a retain per ring array).
        for index in band.polygons.indices {
            let shifts = worldShifts(band.polygons[index].box)
            guard !shifts.isEmpty else { continue }
            let polygon = band.polygons[index]
            for shift in shifts {
                for ring in polygon.rings {
                    if let projected = projectWorldRing(ring, shift: shift) {
                        land.addPolygon(projected)
                        drawnCountries[polygon.country, default: []].append(projected)
                    }
                }
            }
        }
        if !land.isEmpty { canvas.fill(land, color: style.worldLand, rule: .evenOdd) }
        var borders = Path()
        for index in band.borders.indices {
            let shifts = worldShifts(band.borders[index].box)
            guard !shifts.isEmpty else { continue }
            let line = band.borders[index]
            for shift in shifts {
                _ = projection.appendLine(line.points.count, { rel(line.points[$0], shift) }, to: &borders, minimumSpacingPixels: 0.5)
            }
        }
        if !borders.isEmpty {
            let width = px(zoom < 3 ? 0.6 : (zoom < 6 ? 0.9 : 1.2))
            canvas.stroke(borders, style: StrokeStyle(width: width, cap: .round, join: .round), color: style.border)
        }
    }

    /// The extract's ground: its box in land colour (covering the coarser world layer there), then its sea.
    mutating func drawExtractGround(overWorld: Bool) {
        guard let e = relativeExtractBox else { return }
        if overWorld {
        let corners = [SIMD3(e.minX, e.minY, 0), SIMD3(e.maxX, e.minY, 0), SIMD3(e.maxX, e.maxY, 0), SIMD3(e.minX, e.maxY, 0)]
        if let ring = projection.projectRing(4, { corners[$0] }) {
            var path = Path()
            path.addPolygon(clippedToView(ring))
            canvas.fill(path, color: style.land)
        }
        }
        guard let water = style.areas[.water] else { return }
        var sea = Path()
        for area in content.sea where drawn(area.box, marginPixels: 1) {
            let shift = projection.worldShift(forX: area.box.minX)
            for ring in area.rings {
                if let projected = projection.projectRing(ring.count, { rel(ring[$0], shift) }) { sea.addPolygon(projected) }
            }
        }
        if !sea.isEmpty { canvas.fill(sea, color: water, rule: .evenOdd) }
    }

    /// Beside the extract, the world layer is washed out and the extract's edge drawn (``MapStyle/outsideExtract``,
    /// ``MapStyle/extractEdge``): the world layer's coastline is too coarse for a city (it puts land over
    /// Helsinki's South Harbour, just past the shipped extract's edge), so what is not data must not
    /// look like it.
    mutating func drawOutsideExtract() {
        guard let e = relativeExtractBox else { return }
        let corners = [SIMD3(e.minX, e.minY, 0), SIMD3(e.maxX, e.minY, 0), SIMD3(e.maxX, e.maxY, 0), SIMD3(e.minX, e.maxY, 0)]
        guard let ring = projection.projectRing(4, { corners[$0] }) else { return }
        let box = clippedToView(ring, margin: 8)
        let w = Double(canvas.width), h = Double(canvas.height)
        var outside = Path()
        outside.addPolygon([PixelPoint(-8, -8), PixelPoint(w + 8, -8), PixelPoint(w + 8, h + 8), PixelPoint(-8, h + 8)])
        if box.count >= 3 { outside.addPolygon(box) }
        canvas.fill(outside, color: style.outsideExtract, rule: .evenOdd)
        guard box.count >= 3 else { return }
        var edge = Path()
        edge.addPolygon(box)   // (where the box leaves the view, its clipped edges run outside the image)
        canvas.stroke(edge, style: StrokeStyle(width: px(1.5), cap: .butt, join: .miter), color: style.extractEdge)
    }

    /// Country names at their label points, in the options' language (falling back to `name`), while
    /// the zoom is within the country's label range; outside the extract when the extract is drawn. A
    /// country whose label point is out of view but whose land is in it gets its name at the point of
    /// a 9 × 9 grid over the image that is on its land and nearest the label point, unless
    /// ``MapSnapshotOptions/namesCountriesOutOfView`` is off (map tiles).
    mutating func drawCountryLabels() {
        guard let world = content.world else { return }
        let extract = drawsDetail ? relativeExtractBox : nil
        let w = Double(canvas.width), h = Double(canvas.height)
        for label in world.labels where zoom >= label.minimumZoom - 1 && zoom <= label.maximumZoom + 2 {
            let name = options.labelLanguage.flatMap { label.names[$0] } ?? label.name
            let size = zoom < 3 ? (label.isMajor ? 11 : 9.5) : (label.isMajor ? 13 : 11.5)
            let textStyle = TextStyle(pixelSize: px(size), weight: label.isMajor ? .bold : .regular, color: style.countryText,
                                      halo: .init(width: px(1.5), color: style.textHalo))
            guard let metrics = try? measureText(name, style: textStyle) else { continue }
            var anchors: [PixelPoint] = []
            var labelPixel: PixelPoint?
            for shift in worldShifts(MapContent.Box([label.position]), marginPixels: 1) {
                let r = rel(label.position, shift)
                guard let p = projection.pixel(relativeX: r.x, y: r.y) else { continue }
                if p.x >= 0, p.y >= 0, p.x < w, p.y < h {
                    if let e = extract, r.x >= e.minX, r.x <= e.maxX, r.y >= e.minY, r.y <= e.maxY { continue }
                    anchors.append(p)
                } else if labelPixel == nil {
                    labelPixel = p
                }
            }
            if anchors.isEmpty, options.namesCountriesOutOfView, let rings = drawnCountries[label.country] {
                let target = labelPixel ?? PixelPoint(w / 2, h / 2)
                var best: PixelPoint?, bestDistance = Double.infinity
                for i in 1...9 {
                    for j in 1...9 {
                        let p = PixelPoint(w * Double(i) / 10, h * Double(j) / 10)
                        let d = (p - target).length
                        guard d < bestDistance, Self.evenOdd(rings, contains: p) else { continue }
                        if let e = extract, let g = projection.groundRelative(forPixel: p),
                           g.x >= e.minX, g.x <= e.maxX, g.y >= e.minY, g.y <= e.maxY { continue }
                        best = p
                        bestDistance = d
                    }
                }
                if let best { anchors.append(best) }
            }
            for p in anchors {
                let origin = PixelPoint(min(max(p.x - metrics.advanceWidth / 2, px(2)), w - metrics.advanceWidth - px(2)),
                                        p.y - metrics.lineHeight / 2)
                let box = PixelRect(minX: origin.x - px(2), minY: origin.y - px(1),
                                          maxX: origin.x + metrics.advanceWidth + px(2), maxY: origin.y + metrics.lineHeight + px(1))
                guard box.minX >= 0, box.minY >= 0, box.maxX <= w, box.maxY <= h, labels.place(box) else { continue }
                _ = try? text.draw(name, at: PixelPoint(origin.x, origin.y + metrics.ascent), style: textStyle, on: &canvas)
            }
        }
    }

    /// Whether `point` is inside `rings` by the even-odd rule (the rule the land is filled with).
    static func evenOdd(_ rings: [[PixelPoint]], contains point: PixelPoint) -> Bool {
        var inside = false
        for ring in rings {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i], b = ring[j]
                if (a.y > point.y) != (b.y > point.y), point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
                j = i
            }
        }
        return inside
    }
}

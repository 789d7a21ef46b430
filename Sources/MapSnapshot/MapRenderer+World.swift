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
        guard let box = content.extractBox else { return nil }
        let shift = projection.worldShift(forX: box.minX)
        return (box.minX - projection.center.x + shift, box.minY - projection.center.y,
                box.maxX - projection.center.x + shift, box.maxY - projection.center.y)
    }

    /// Whether the extract is drawn: zoomed in far enough and in view.
    var drawsDetail: Bool {
        guard zoom >= Self.detailMinimumZoom, let box = content.extractBox else { return false }
        return visible(box)
    }

    /// Whether the world layer shows: there is one, and the ground in view is not entirely inside the
    /// extract. The ground in view is the convex quadrilateral under the image corners (when they all
    /// look at the ground), and the box is convex, so the four corners decide.
    var drawsWorld: Bool {
        guard content.world != nil else { return false }
        guard drawsDetail, let e = relativeExtractBox else { return true }
        let w = Double(canvas.width), h = Double(canvas.height)
        for (x, y) in [(0.0, 0.0), (w, 0), (w, h), (0, h)] {
            guard let g = projection.groundRelative(forPixel: PixelPoint(x, y)),
                  g.x >= e.minX, g.x <= e.maxX, g.y >= e.minY, g.y <= e.maxY else { return true }
        }
        return false
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
        return out.count >= 3 ? out : nil
    }

    /// Natural Earth land over the sea colour (the canvas background), then the country borders.
    mutating func drawWorld() {
        guard let world = content.world else { return }
        let band = world.band(forZoom: zoom)
        var land = Path()
        for polygon in band.polygons {
            for shift in worldShifts(polygon.box) {
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
        for line in band.borders {
            for shift in worldShifts(line.box) {
                _ = projection.appendLine(line.points.count, { rel(line.points[$0], shift) }, to: &borders, minimumSpacingPixels: 0.5)
            }
        }
        if !borders.isEmpty {
            let width = px(zoom < 3 ? 0.6 : (zoom < 6 ? 0.9 : 1.2))
            canvas.stroke(borders, style: StrokeStyle(width: width, cap: .round, join: .round), color: style.border)
        }
    }

    /// The extract's ground: its box in land colour (covering the coarser world layer there), then its sea.
    mutating func drawExtractGround() {
        guard let e = relativeExtractBox else { return }
        let corners = [SIMD3(e.minX, e.minY, 0), SIMD3(e.maxX, e.minY, 0), SIMD3(e.maxX, e.maxY, 0), SIMD3(e.minX, e.maxY, 0)]
        if let ring = projection.projectRing(4, { corners[$0] }) {
            var path = Path()
            path.addPolygon(ring)
            canvas.fill(path, color: style.land)
        }
        guard let water = style.areas[.water] else { return }
        var sea = Path()
        for area in content.sea where visible(area.box) {
            let shift = projection.worldShift(forX: area.box.minX)
            for ring in area.rings {
                if let projected = projection.projectRing(ring.count, { rel(ring[$0], shift) }) { sea.addPolygon(projected) }
            }
        }
        if !sea.isEmpty { canvas.fill(sea, color: water, rule: .evenOdd) }
    }

    /// Country names at their label points, in the options' language (falling back to `name`), while
    /// the zoom is within the country's label range; outside the extract when the extract is drawn. A
    /// country whose label point is out of view but whose land is in it gets its name at the point of
    /// a 9 × 9 grid over the image that is on its land and nearest the label point.
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
            if anchors.isEmpty, let rings = drawnCountries[label.country] {
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
                let box = LabelPlacer.Box(minX: origin.x - px(2), minY: origin.y - px(1),
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

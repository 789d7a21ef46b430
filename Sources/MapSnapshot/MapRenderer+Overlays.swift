import Foundation
import Geodesy
import Imaging
import MapData

extension MapRenderer {
    // MARK: - Overlays

    /// The overlay's rings or lines as relative map points (x unwrapped so lines crossing the 180th
    /// meridian stay continuous, on the world copy nearest the centre).
    func overlayShapes(_ overlay: MapOverlay) -> (rings: [[SIMD3<Double>]], closed: Bool) {
        func unwrapped(_ coordinates: [GeoCoordinate], reference: Double? = nil) -> [SIMD3<Double>] {
            let w = MapSize.world.width
            var out: [SIMD3<Double>] = []
            out.reserveCapacity(coordinates.count)
            var previousX = 0.0
            for (i, c) in coordinates.enumerated() {
                let p = MapPoint(c)
                var x: Double
                if i == 0 {
                    x = projection.relativeX(p.x)
                    if let reference { x -= ((x - reference) / w).rounded() * w }
                } else {
                    var d = p.x - (previousX + projection.center.x)
                    d -= (d / w).rounded() * w
                    x = previousX + d
                }
                previousX = x
                out.append(SIMD3(x, p.y - projection.center.y, 0))
            }
            return out
        }
        switch overlay.geometry {
        case .polyline(let coordinates, let geodesic):
            let points = geodesic ? Self.densified(coordinates) : coordinates
            return ([unwrapped(points)], false)
        case .polygon(let outer, let holes):
            let o = unwrapped(outer)
            return ([o] + holes.map { unwrapped($0, reference: o.first?.x) }, true)
        case .circle(let center, let radius):
            var ring: [GeoCoordinate] = []
            for i in 0..<128 {
                if let d = try? Geodesic.wgs84.direct(from: center, azimuth: .degrees(Double(i) * 360 / 128), distanceMeters: radius) {
                    ring.append(d.destination)
                }
            }
            return ([unwrapped(ring)], true)
        }
    }

    /// Geodesic densification: segments longer than ``MapOverlay/geodesicSegmentMeters`` get intermediate
    /// points along the WGS84 geodesic (at most 256 per segment).
    static func densified(_ coordinates: [GeoCoordinate]) -> [GeoCoordinate] {
        guard coordinates.count >= 2 else { return coordinates }
        var out = [coordinates[0]]
        for (a, b) in zip(coordinates, coordinates.dropFirst()) {
            let inverse = Geodesic.wgs84.inverse(from: a, to: b)
            let n = min(256, Int((inverse.distanceMeters / MapOverlay.geodesicSegmentMeters).rounded(.up)))
            if n > 1 {
                for i in 1..<n {
                    if let d = try? Geodesic.wgs84.direct(from: a, azimuth: inverse.initialAzimuth,
                                                          distanceMeters: inverse.distanceMeters * Double(i) / Double(n)) {
                        out.append(d.destination)
                    }
                }
            }
            out.append(b)
        }
        return out
    }

    mutating func drawOverlay(_ overlay: MapOverlay) throws {
        try overlay.validate()
        let (rings, closed) = overlayShapes(overlay)
        var fillPath = Path(), linePath = Path()
        for ring in rings {
            if closed {
                if let projected = projection.projectRing(ring.count, { ring[$0] }) {
                    fillPath.addPolygon(projected)
                    linePath.addPolygon(projected)
                    linePath.close()
                }
            } else {
                _ = projection.appendLine(ring.count, { ring[$0] }, to: &linePath)
            }
        }
        guard !linePath.isEmpty else { return }
        // Draw into a layer over the overlay's pixel box, then composite it once with alpha and blend mode.
        let lineWidth = px(overlay.lineWidthPoints)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for sub in linePath.subpaths { for p in sub.points {
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        } }
        let x0 = max(0, Int((minX - lineWidth - 2).rounded(.down))), y0 = max(0, Int((minY - lineWidth - 2).rounded(.down)))
        let x1 = min(canvas.width, Int((maxX + lineWidth + 2).rounded(.up))), y1 = min(canvas.height, Int((maxY + lineWidth + 2).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        func shifted(_ path: Path) -> Path {
            var out = Path()
            for sub in path.subpaths {
                let pts = sub.points.map { PixelPoint($0.x - Double(x0), $0.y - Double(y0)) }
                if sub.isClosed { out.addPolygon(pts) } else { out.addSubpath(pts) }
            }
            return out
        }
        var layer = Canvas(width: x1 - x0, height: y1 - y0)
        if closed, let fill = overlay.fillColor { layer.fill(shifted(fillPath), color: fill, rule: .evenOdd) }
        if let stroke = overlay.strokeColor, lineWidth > 0 {
            layer.stroke(shifted(linePath), style: StrokeStyle(width: lineWidth, cap: .round, join: .round), color: stroke)
        }
        canvas.draw(layer.image, x: x0, y: y0, opacity: Float(overlay.alpha), blendMode: overlay.blendMode)
    }

    // MARK: - Coverage

    /// Where panoramas are. Below ``CoverageClustering/maximumZoom``: the clusters of the world grid
    /// (``CoverageClustering``), a counted circle each (a dot for a lone panorama), every one big enough
    /// to click. From it on: blue lines between consecutive positions closer than
    /// ``MapStyle/coverageLinkMeters`` (at least 4 points wide however short), and a dot at each position
    /// no line passes (at every position from zoom 17.5).
    mutating func drawCoverage() {
        guard let coverage = options.coverage else { return }
        let rect = MapRect(x: projection.center.x + bounds.minX, y: projection.center.y + bounds.minY,
                           width: bounds.maxX - bounds.minX, height: bounds.maxY - bounds.minY)
        let level = Int((zoom + 1e-6).rounded(.down))
        if level < CoverageClustering.maximumZoom {
            drawCoverageClusters(coverage, rect: rect, level: max(0, level))
            return
        }
        let coordinates = coverage.panoramaCoordinates(in: rect)
        guard !coordinates.isEmpty else { return }
        var lines = Path(), dots: [PixelPoint] = [], linked: [Bool] = []
        var previous: (GeoCoordinate, PixelPoint)?
        for c in coordinates {
            guard let p = projection.pixel(for: c) else { previous = nil; continue }
            var isLinked = false
            if let (pc, pp) = previous, SphericalEarth.distanceMeters(from: pc, to: c) <= MapStyle.coverageLinkMeters {
                if (p - pp).length >= 1 {
                    lines.addSubpath([pp, p])
                    linked[linked.count - 1] = true
                }
                // Under a pixel from the one before (a stop, or a far zoom): that one's line or dot shows it.
                isLinked = true
            }
            dots.append(p)
            linked.append(isLinked)
            previous = (c, p)
        }
        let blue = style.coverage
        if !lines.isEmpty {
            canvas.stroke(lines, style: StrokeStyle(width: px(6), cap: .round, join: .round), color: .white)
            canvas.stroke(lines, style: StrokeStyle(width: px(4), cap: .round, join: .round), color: blue)
        }
        // Lone positions always get a dot; every position only when zoomed far in.
        if zoom < 17.5 { dots = zip(dots, linked).filter { !$0.1 }.map(\.0) }
        var rings = Path(), centres = Path()
        for p in dots {
            rings.addCircle(center: p, radius: px(4))
            centres.addCircle(center: p, radius: px(2.6))
        }
        canvas.fill(rings, color: .white)
        canvas.fill(centres, color: blue)
    }

    /// The clusters at zoom `level` around `rect`: the coverage is asked for whole grid cells, so a
    /// cluster is the same in every tile it is drawn in.
    mutating func drawCoverageClusters(_ coverage: any PanoramaCoverage, rect: MapRect, level: Int) {
        // Cells reaching into the picture by a circle's radius count too (their circle may overlap it).
        let cell = CoverageClustering.cellMapPoints(zoom: level)
        let grown = MapRect(x: rect.origin.x - cell / 2, y: rect.origin.y - cell / 2, width: rect.size.width + cell, height: rect.size.height + cell)
        let coordinates = coverage.panoramaCoordinates(in: CoverageClustering.cellAligned(grown, zoom: level))
        guard !coordinates.isEmpty else { return }
        let blue = style.coverage
        var rings = Path(), centres = Path()
        var counted: [(PixelPoint, Int)] = []
        for cluster in CoverageClustering.clusters(coordinates, zoom: level) {
            guard let p = projection.pixel(for: cluster.center) else { continue }
            if cluster.count == 1 {
                rings.addCircle(center: p, radius: px(4))
                centres.addCircle(center: p, radius: px(2.6))
            } else {
                counted.append((p, cluster.count))
            }
        }
        canvas.fill(rings, color: .white)
        canvas.fill(centres, color: blue)
        for (p, count) in counted {
            let radius = px(CoverageClustering.radiusPoints(count: count))
            canvas.fillCircle(center: PixelPoint(p.x, p.y + px(1)), radius: radius + px(1.5), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 50))
            canvas.fillCircle(center: p, radius: radius + px(2), color: .white)
            canvas.fillCircle(center: p, radius: radius, color: blue)
            let label = Self.clusterLabel(count)
            let textStyle = TextStyle(pixelSize: px(label.count >= 3 ? 10.5 : 12), weight: .bold, color: .white)
            if let metrics = try? measureText(label, style: textStyle) {
                let origin = PixelPoint(p.x - metrics.advanceWidth / 2, p.y - (metrics.inkMinY + metrics.inkMaxY) / 2)
                _ = try? text.draw(label, at: origin, style: textStyle, on: &canvas)
            }
        }
    }

    /// A cluster's count as drawn: 2…999 in full, then 1.2k, 12k, 120k, 1.2M.
    static func clusterLabel(_ count: Int) -> String {
        switch count {
        case ..<1000: return "\(count)"
        case ..<10_000: return String(format: "%.1fk", Double(count) / 1000).replacingOccurrences(of: ".0k", with: "k")
        case ..<1_000_000: return "\(count / 1000)k"
        default: return String(format: "%.1fM", Double(count) / 1_000_000).replacingOccurrences(of: ".0M", with: "M")
        }
    }

    // MARK: - Attribution

    /// The attribution's lines (one, or one credit per line when that is too wide for the image), their
    /// style and metrics, and the box (x, y, width, height in pixels), right-aligned at the bottom.
    func attributionLayout() -> ([(String, TextMetrics)], TextStyle, Double, Double, Double, Double)? {
        guard options.showsAttribution else { return nil }
        let style = TextStyle(pixelSize: px(10), color: RGBAColor(red: 60, green: 60, blue: 60))
        let credits = options.mapType.credits(data: content.attribution, showsWorld: showsWorldAttribution)
        guard !credits.isEmpty else { return nil }
        let margin = px(3)
        guard let single = try? measureText(credits.joined(separator: " · "), style: style) else { return nil }
        var lines = [(credits.joined(separator: " · "), single)]
        if single.advanceWidth + 2 * margin > Double(canvas.width) && credits.count > 1 {
            lines = credits.compactMap { credit in (try? measureText(credit, style: style)).map { (credit, $0) } }
        }
        let w = (lines.map(\.1.advanceWidth).max() ?? 0) + 2 * margin
        let h = lines.reduce(0) { $0 + $1.1.lineHeight } + margin
        return (lines, style, Double(canvas.width) - w, Double(canvas.height) - h, w, h)
    }

    /// Keeps labels out of the attribution's corner.
    mutating func reserveAttribution() {
        guard let (_, _, x, y, w, h) = attributionLayout() else { return }
        labels.take(PixelRect(minX: x, minY: y, maxX: x + w, maxY: y + h))
    }

    /// "© OpenStreetMap contributors" (and "Made with Natural Earth" when the world layer shows) at the
    /// bottom right, on a translucent white box.
    mutating func drawAttribution() {
        guard let (lines, style, x, y, w, h) = attributionLayout() else { return }
        let margin = px(3)
        var box = Path()
        box.addRectangle(x: x, y: y, width: w, height: h)
        canvas.fill(box, color: RGBAColor(red: 255, green: 255, blue: 255, alpha: 190))
        var top = y + margin / 2
        for (line, metrics) in lines {
            _ = try? text.draw(line, at: PixelPoint(x + w - margin - metrics.advanceWidth, top + metrics.ascent), style: style, on: &canvas)
            top += metrics.lineHeight
        }
    }
}

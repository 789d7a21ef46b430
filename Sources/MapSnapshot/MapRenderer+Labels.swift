import Foundation
import Geodesy
import Imaging
import MapData

extension MapRenderer {
    /// The label text of a feature in the options' language.
    func labelText(_ name: String?, _ names: [String: String]) -> String? {
        guard let name else { return nil }
        let text = options.labelLanguage.flatMap { names[$0] } ?? name
        return text.count > 30 ? String(text.prefix(28)) + "…" : text
    }

    /// The lowest zoom at which a road class gets name labels.
    static func labelZoom(_ roadClass: MapStyle.RoadClass) -> Double? {
        switch roadClass {
        case .motorway, .primary: return 13
        case .secondary, .tertiary: return 14.5
        case .minor: return 15.3
        case .pedestrian, .service: return 16.3
        case .path: return nil
        }
    }

    /// Street names along their streets, major classes first; each name at most once per 320 points.
    mutating func drawStreetLabels(minimumClass: MapStyle.RoadClass = .path, maximumClass: MapStyle.RoadClass = .motorway) {
        var placed: [String: [PixelPoint]] = [:]
        for index in content.labelRoads.indices where content.labelRoads[index].roadClass >= minimumClass
                                                     && content.labelRoads[index].roadClass <= maximumClass {
            guard let minZoom = Self.labelZoom(content.labelRoads[index].roadClass), zoom >= minZoom,
                  visible(content.labelRoads[index].line.box) else { continue }
            let road = content.labelRoads[index]
            guard let name = labelText(road.line.name, road.line.names) else { continue }
            let points = road.line.points
            let shift = projection.worldShift(forX: road.line.box.minX)
            var path = Path()
            guard projection.appendLine(points.count, { rel(points[$0], shift) }, to: &path),
                  let line = path.subpaths.max(by: { $0.points.count < $1.points.count })?.points else { continue }
            let major = road.roadClass >= .tertiary
            let style = TextStyle(pixelSize: px(major ? 11.5 : 10.5), weight: major ? .bold : .regular,
                                  color: self.style.streetText, halo: .init(width: px(1.6), color: self.style.textHalo))
            guard let metrics = try? measureText(name, style: style) else { continue }
            let textWidth = metrics.advanceWidth
            var lengths = [0.0]
            for i in 1..<line.count { lengths.append(lengths[i - 1] + (line[i] - line[i - 1]).length) }
            let total = lengths[line.count - 1]
            guard total > textWidth + px(12) else { continue }
            for fraction in [0.5, 0.3, 0.7] {
                let s = total * fraction
                let a = Self.point(along: line, lengths, s - textWidth / 2), b = Self.point(along: line, lengths, s + textWidth / 2)
                // Straight enough: every vertex in between within 2.5 points of the chord.
                let chord = b - a, chordLength = chord.length
                guard chordLength > textWidth * 0.9 else { continue }
                var straight = true
                for i in 0..<line.count where lengths[i] > s - textWidth / 2 && lengths[i] < s + textWidth / 2 {
                    let d = line[i] - a
                    if abs(d.x * chord.y - d.y * chord.x) / chordLength > px(2.5) { straight = false; break }
                }
                guard straight else { continue }
                var angle = atan2(chord.y, chord.x)
                if cos(angle) < 0 { angle += .pi }
                let center = Self.point(along: line, lengths, s)
                let halfW = textWidth / 2 + px(3), halfH = metrics.lineHeight / 2 + px(1)
                let ex = abs(cos(angle)) * halfW + abs(sin(angle)) * halfH, ey = abs(sin(angle)) * halfW + abs(cos(angle)) * halfH
                let box = PixelRect(minX: center.x - ex, minY: center.y - ey, maxX: center.x + ex, maxY: center.y + ey)
                guard box.minX >= 0, box.minY >= 0, box.maxX <= Double(canvas.width), box.maxY <= Double(canvas.height),
                      !(placed[name] ?? []).contains(where: { ($0 - center).length < px(320) }),
                      labels.place(box) else { continue }
                drawRotatedText(name, style: style, metrics: metrics, center: center, angle: angle)
                placed[name, default: []].append(center)
                break
            }
        }
    }

    /// The point at arc length `s` along a polyline with cumulative `lengths`.
    static func point(along line: [PixelPoint], _ lengths: [Double], _ s: Double) -> PixelPoint {
        let (i, t) = ArcLength.locate(s, in: lengths)
        return line[i - 1] + (line[i] - line[i - 1]) * t
    }

    mutating func drawRotatedText(_ string: String, style: TextStyle, metrics: TextMetrics, center: PixelPoint, angle: Double) {
        let pad = (style.halo?.width ?? 0) + 2
        let width = Int((metrics.advanceWidth + 2 * pad).rounded(.up)), height = Int((metrics.lineHeight + 2 * pad).rounded(.up))
        guard width > 0, height > 0 else { return }
        // Placed in the margin of a window and not reaching into it: nothing to draw (the rotated patch
        // reaches at most half its diagonal from the centre; 2 pixels more for the resampling).
        let reach = (Double(width * width + height * height)).squareRoot() / 2 + 2
        guard drawsPixels(in: PixelRect(minX: center.x - reach, minY: center.y - reach, maxX: center.x + reach, maxY: center.y + reach)) else { return }
        var patch = Canvas(width: width, height: height)
        _ = try? text.draw(string, at: PixelPoint(pad, pad + metrics.ascent), style: style, on: &patch)
        RotatedComposite.draw(patch.image, center: center, angleRadians: angle, onto: &canvas)
    }

    /// Place names with a coloured dot, most important first, without collisions.
    mutating func drawPlaceLabels() {
        guard options.pointOfInterestFilter != .excludingAll else { return }
        let budget = max(6, canvas.width * canvas.height / Int(20_000 * scale * scale))
        var count = 0
        var placed: [String: [PixelPoint]] = [:]
        // By index: the cheap tests read single fields; only a place in view is copied (its strings retained).
        for index in content.places.indices where options.pointOfInterestFilter.includes(content.places[index].group) {
            let rank = content.places[index].rank, position = content.places[index].position
            let minZoom: Double = rank <= 1 ? 14.5 : (rank <= 3 ? 15.5 : (rank <= 5 ? 16.5 : 17.5))
            guard zoom >= minZoom, count < budget else { continue }
            let shift = projection.worldShift(forX: position.x)
            guard let p = projection.pixel(relativeX: position.x - projection.center.x + shift,
                                           y: position.y - projection.center.y),
                  p.x >= 0, p.y >= 0, p.x < Double(canvas.width), p.y < Double(canvas.height) else { continue }
            let place = content.places[index]
            guard let name = labelText(place.name, place.names),
                  !(placed[name] ?? []).contains(where: { ($0 - p).length < px(400) }) else { continue }
            let color = style.placeText[place.group] ?? style.streetText
            let textStyle = TextStyle(pixelSize: px(place.rank == 0 ? 11.5 : 10.5), weight: place.rank == 0 ? .bold : .regular,
                                      color: color, halo: .init(width: px(1.6), color: style.textHalo))
            let dot = px(3)
            let dotBox = PixelRect(minX: p.x - dot, minY: p.y - dot, maxX: p.x + dot, maxY: p.y + dot)
            guard labels.isFree(dotBox), let metrics = try? measureText(name, style: textStyle) else { continue }
            let h = metrics.lineHeight
            let candidates = [PixelPoint(p.x + dot + px(2), p.y - h / 2), PixelPoint(p.x - dot - px(2) - metrics.advanceWidth, p.y - h / 2)]
            for origin in candidates {
                let box = PixelRect(minX: origin.x - px(1), minY: origin.y, maxX: origin.x + metrics.advanceWidth + px(1), maxY: origin.y + h)
                guard box.minX >= 0, box.maxX <= Double(canvas.width), box.minY >= 0, box.maxY <= Double(canvas.height),
                      labels.isFree(box) else { continue }
                labels.take(box)
                labels.take(dotBox)
                count += 1
                placed[name, default: []].append(p)
                // Placed in the margin of a window and not reaching into it (the halo reaches its width and
                // a pixel past the box): nothing to draw.
                let reach = (textStyle.halo?.width ?? 0) + 4
                guard drawsPixels(in: PixelRect(minX: min(box.minX, dotBox.minX) - reach, minY: min(box.minY, dotBox.minY) - reach,
                                                maxX: max(box.maxX, dotBox.maxX) + reach, maxY: max(box.maxY, dotBox.maxY) + reach)) else { break }
                canvas.fillCircle(center: p, radius: dot + px(1), color: style.textHalo)
                canvas.fillCircle(center: p, radius: dot, color: color.withAlpha(style.placeDotAlpha))
                _ = try? text.draw(name, at: PixelPoint(origin.x, origin.y + metrics.ascent), style: textStyle, on: &canvas)
                break
            }
        }
    }
}

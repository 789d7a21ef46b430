import Foundation
import Geodesy
import Imaging

extension MapRenderer {
    /// Pins, images and groups, drawn north to south so nearer markers overlap farther ones; titles under them.
    mutating func drawAnnotations() throws {
        guard !options.annotations.isEmpty else { return }
        let margin = px(60)
        var points: [(index: Int, position: PixelPoint, identifier: String?)] = []
        for (i, a) in options.annotations.enumerated() {
            guard let p = projection.pixel(for: a.coordinate), p.x > -margin, p.y > -margin,
                  p.x < Double(canvas.width) + margin, p.y < Double(canvas.height) + margin else { continue }
            if projection.isPitched && p.y < projection.horizonRow { continue }
            points.append((i, p, a.clusteringIdentifier))
        }
        let groups = AnnotationGrouping.group(points, distance: px(options.groupingDistancePoints))
        for group in groups.sorted(by: { $0.center.y < $1.center.y }) {
            if group.members.count == 1 {
                let a = options.annotations[group.members[0]]
                drawMarker(a, at: group.center)
            } else {
                // At the seed: seeds are at least the grouping distance apart, so groups never overlap.
                drawGroup(count: group.members.count, at: group.seed, first: options.annotations[group.members[0]])
            }
        }
    }

    /// The pin outline with its tip at `tip`: a circle joined to the tip by its two tangents.
    func pinPath(tip: PixelPoint) -> (outline: Path, head: PixelPoint, radius: Double) {
        let height = px(MapAnnotation.pinHeightPoints)
        let r = height * 0.32
        let c = PixelPoint(tip.x, tip.y - height + r)
        let d = height - r
        let delta = acos(r / d)
        var points = [tip]
        let start = Double.pi / 2 - delta, end = Double.pi / 2 + delta - 2 * .pi
        let steps = 40
        for i in 0...steps {
            let a = start + (end - start) * Double(i) / Double(steps)
            points.append(PixelPoint(c.x + r * cos(a), c.y + r * sin(a)))
        }
        var path = Path()
        path.addPolygon(points)
        return (path, c, r)
    }

    mutating func drawMarker(_ annotation: MapAnnotation, at p: PixelPoint) {
        var titleTop = p.y + px(2)
        switch annotation.appearance {
        case .pin(let color):
            let (outline, head, r) = pinPath(tip: p)
            // A soft shadow, the pin, a darker rim and the white eye.
            var shadow = Path()
            shadow.addCircle(center: PixelPoint(p.x, p.y), radius: px(2.5))
            canvas.fill(shadow, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 70))
            canvas.fill(outline, color: color)
            let rim = RGBAColor(red: UInt8(Double(color.red) * 0.7), green: UInt8(Double(color.green) * 0.7),
                                blue: UInt8(Double(color.blue) * 0.7))
            canvas.stroke(outline, style: StrokeStyle(width: px(1), join: .round), color: rim)
            canvas.fillCircle(center: head, radius: r * 0.4, color: .white)
        case .image(let image, let offset):
            let x = p.x + px(offset.x) - Double(image.width) / 2, y = p.y + px(offset.y) - Double(image.height) / 2
            canvas.draw(image, x: Int(x.rounded()), y: Int(y.rounded()))
            titleTop = max(titleTop, y + Double(image.height) + px(2))
        }
        if let title = annotation.title, !title.isEmpty {
            let style = TextStyle(pixelSize: px(11), weight: .bold, color: RGBAColor(red: 40, green: 40, blue: 40),
                                  halo: .init(width: px(1.8), color: .white))
            if let metrics = try? measureText(title, style: style) {
                let origin = PixelPoint(p.x - metrics.advanceWidth / 2, titleTop + metrics.ascent)
                _ = try? text.draw(title, at: origin, style: style, on: &canvas)
            }
        }
    }

    mutating func drawGroup(count: Int, at p: PixelPoint, first: MapAnnotation) {
        var color = RGBAColor(red: 234, green: 67, blue: 53)
        if case .pin(let c) = first.appearance { color = c }
        let radius = px(13 + 4 * log10(Double(count)))
        canvas.fillCircle(center: PixelPoint(p.x, p.y + px(1.5)), radius: radius + px(1), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 60))
        canvas.fillCircle(center: p, radius: radius + px(2), color: .white)
        canvas.fillCircle(center: p, radius: radius, color: color)
        let label = "\(count)"
        let style = TextStyle(pixelSize: px(count >= 100 ? 11 : 12.5), weight: .bold, color: .white)
        if let metrics = try? measureText(label, style: style) {
            let origin = PixelPoint(p.x - metrics.advanceWidth / 2, p.y - (metrics.inkMinY + metrics.inkMaxY) / 2)
            _ = try? text.draw(label, at: origin, style: style, on: &canvas)
        }
    }
}

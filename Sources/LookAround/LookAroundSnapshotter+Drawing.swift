import Foundation
import Imaging
import Reprojection

extension LookAroundSnapshotter {
    /// Fonts for labels (Debian's DejaVu/Noto with CJK fallback), loaded once.
    static let fonts = Result { try FontLibrary(paths: .debian) }

    /// The colour of a label of category group `group` (food orange, shop blue, culture purple, lodging
    /// teal, transport green, health red, anything else slate).
    public static func labelColor(categoryGroup group: PlaceGroup) -> RGBAColor {
        switch group {
        case .food: return RGBAColor(red: 214, green: 96, blue: 20)
        case .shop: return RGBAColor(red: 32, green: 92, blue: 200)
        case .culture: return RGBAColor(red: 128, green: 56, blue: 168)
        case .lodging: return RGBAColor(red: 0, green: 128, blue: 128)
        case .transport: return RGBAColor(red: 24, green: 128, blue: 56)
        case .health: return RGBAColor(red: 200, green: 32, blue: 48)
        case .education, .leisure, .service, .building: return RGBAColor(red: 64, green: 72, blue: 88)
        }
    }

    /// Radius of a place label's dot and of the halo around it, pixels.
    static let dotRadius = 2.5, dotHaloRadius = 4.0
    /// Halo width of a place label's name, pixels.
    static let nameHaloWidth = 2.0
    /// Gap between the anchor and the bottom of the name's line box, pixels.
    static let nameGapPixels = 7.0

    /// How a place label is drawn: its style, where the pen starts its name (baseline), and the box the
    /// name, its halo and the dot cover. The name is centred over the anchor but kept inside the view
    /// near its edges (the dot stays on the sign).
    struct PlaceLabelLayout {
        var label: LookAroundPlaceLabel
        var style: TextStyle
        var pen: PixelPoint
        var halo: RGBAColor
        var box: PixelRect
    }

    /// The layout of `label` in a view `viewWidth` pixels wide, measured with `renderer`'s fonts, at
    /// `scale` pixels per point.
    /// - Throws: `ImagingError` when the text cannot be measured.
    static func layout(of label: LookAroundPlaceLabel, viewWidth: Int, renderer: TextRenderer, scale: Double = 1) throws -> PlaceLabelLayout {
        let opacity = labelOpacity(distanceMeters: label.distanceMeters)
        let color = labelColor(categoryGroup: label.categoryGroup).withOpacity(opacity)
        let halo = RGBAColor.white.withOpacity(opacity * 0.9)
        let style = TextStyle(pixelSize: labelPixelSize(distanceMeters: label.distanceMeters) * scale, weight: .bold, color: color,
                              halo: .init(width: nameHaloWidth * scale, color: halo))
        let metrics = try renderer.measure(label.name, style: style)
        let left = max(2, min(Double(viewWidth) - metrics.advanceWidth - 2, label.anchor.x - metrics.advanceWidth / 2))
        let pen = PixelPoint(x: left, y: label.anchor.y - nameGapPixels * scale - metrics.descent)
        let reach = nameHaloWidth * scale + 1  // the halo, and a pixel of antialiasing
        let dot = dotHaloRadius * scale
        let box = PixelRect(minX: min(pen.x + metrics.inkMinX - reach, label.anchor.x - dot),
                            minY: pen.y + min(metrics.inkMinY, -metrics.ascent) - reach,
                            maxX: max(pen.x + max(metrics.inkMaxX, metrics.advanceWidth) + reach, label.anchor.x + dot),
                            maxY: max(pen.y + metrics.inkMaxY + reach, label.anchor.y + dot + 1))
        return PlaceLabelLayout(label: label, style: style, pen: pen, halo: halo, box: box)
    }

    /// Opacity of a label `distanceMeters` away: 1 near, fading to 0.45 at 55 m and beyond.
    public static func labelOpacity(distanceMeters: Double) -> Double { max(0.45, min(1, 1 - distanceMeters / 100)) }

    /// Draws the labels of the view of `camera` onto `image`: street names painted on the ground first
    /// (``paint(_:camera:renderer:on:)``), then each place label as a dot on the anchor and the name
    /// above it, with a white halo, sized (``labelPixelSize(distanceMeters:)``) and faded
    /// (``labelOpacity(distanceMeters:)``) by distance, farthest first so nearer labels end up on top.
    /// - Throws: `ImagingError` when no font can be loaded.
    public static func draw(placeLabels labels: [LookAroundPlaceLabel], roadLabels: [LookAroundRoadLabel], camera: ViewCamera,
                            scale: Double = 1, on image: inout RGB8Image) throws {
        guard let layer = try labelLayer(placeLabels: labels, roadLabels: roadLabels, camera: camera, scale: scale) else { return }
        Compositing.composite(layer.image, onto: &image, x: layer.x, y: layer.y)
    }

    /// The labels ``draw(placeLabels:roadLabels:camera:on:)`` draws, on a transparent layer cropped to
    /// the rectangle of the view they cover (only that part is drawn and composited: a few labels
    /// touch a small part of the view), with the rectangle's top-left corner in the view; nil when
    /// they cover none of it. It needs no view, so it can be drawn while the view is rendered.
    /// - Throws: `ImagingError` when no font can be loaded.
    public static func labelLayer(placeLabels labels: [LookAroundPlaceLabel], roadLabels: [LookAroundRoadLabel],
                                  camera: ViewCamera, scale: Double = 1) throws -> (image: RGBA8Image, x: Int, y: Int)? {
        guard !labels.isEmpty || !roadLabels.isEmpty else { return nil }
        let renderer = TextRenderer(fonts: try fonts.get())
        let placed = try labels.map { try layout(of: $0, viewWidth: camera.width, renderer: renderer, scale: scale) }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func cover(_ x: Double, _ y: Double) { minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y) }
        for p in placed { cover(p.box.minX - 1, p.box.minY - 1); cover(p.box.maxX + 1, p.box.maxY + 1) }
        for road in roadLabels where !road.corners.isEmpty {
            // The text box on the ground, grown by a quarter each way for the halo and padding.
            let xs = road.corners.map(\.x), ys = road.corners.map(\.y)
            let growX = max(8, 0.25 * (xs.max()! - xs.min()!)), growY = max(8, 0.25 * (ys.max()! - ys.min()!))
            cover(xs.min()! - growX, ys.min()! - growY); cover(xs.max()! + growX, ys.max()! + growY)
        }
        let x0 = max(0, Int(minX.rounded(.down))), y0 = max(0, Int(minY.rounded(.down)))
        let x1 = min(camera.width, Int(maxX.rounded(.up)) + 1), y1 = min(camera.height, Int(maxY.rounded(.up)) + 1)
        guard x1 > x0, y1 > y0 else { return nil }
        let dx = Double(x0), dy = Double(y0)
        var canvas = Canvas(width: x1 - x0, height: y1 - y0)
        let shift = Homography.affine(1, 0, -dx, 0, 1, -dy)
        for label in roadLabels { try paint(label, camera: camera, renderer: renderer, on: &canvas, then: shift) }
        for p in placed.reversed() {
            let anchor = PixelPoint(x: p.label.anchor.x - dx, y: p.label.anchor.y - dy)
            canvas.fillCircle(center: anchor, radius: dotHaloRadius * scale, color: p.halo)
            canvas.fillCircle(center: anchor, radius: dotRadius * scale, color: p.style.color)
            try renderer.draw(p.label.name, at: PixelPoint(x: p.pen.x - dx, y: p.pen.y - dy), style: p.style, on: &canvas)
        }
        return (canvas.image, x0, y0)
    }
}

import Foundation
import Imaging
import Reprojection

extension LookAroundSnapshotter {
    /// Fonts for labels (Debian's DejaVu/Noto with CJK fallback), loaded once.
    static let fonts = Result { try FontLibrary(paths: .debian) }

    /// The colour of a label of category group `group` (food orange, shop blue, culture purple, lodging
    /// teal, transport green, health red, anything else slate).
    public static func labelColor(categoryGroup group: String) -> RGBAColor {
        switch group {
        case "food": return RGBAColor(red: 214, green: 96, blue: 20)
        case "shop": return RGBAColor(red: 32, green: 92, blue: 200)
        case "culture": return RGBAColor(red: 128, green: 56, blue: 168)
        case "lodging": return RGBAColor(red: 0, green: 128, blue: 128)
        case "transport": return RGBAColor(red: 24, green: 128, blue: 56)
        case "health": return RGBAColor(red: 200, green: 32, blue: 48)
        default: return RGBAColor(red: 64, green: 72, blue: 88)
        }
    }

    /// Opacity of a label `distanceMeters` away: 1 near, fading to 0.45 at 55 m and beyond.
    public static func labelOpacity(distanceMeters: Double) -> Double { max(0.45, min(1, 1 - distanceMeters / 100)) }

    /// Draws the labels of the view of `camera` onto `image`: street names painted on the ground first
    /// (``paint(_:camera:renderer:on:)``), then each place label as a dot on the anchor and the name
    /// above it, with a white halo, sized (``labelPixelSize(distanceMeters:)``) and faded
    /// (``labelOpacity(distanceMeters:)``) by distance, farthest first so nearer labels end up on top.
    /// - Throws: `ImagingError` when no font can be loaded.
    static func draw(placeLabels labels: [LookAroundPlaceLabel], roadLabels: [LookAroundRoadLabel], camera: ViewCamera,
                     on image: inout RGB8Image) throws {
        guard !labels.isEmpty || !roadLabels.isEmpty else { return }
        let renderer = TextRenderer(fonts: try fonts.get())
        let count = image.width * image.height
        var rgba = [UInt8](repeating: 255, count: count * 4)
        for i in 0..<count {
            rgba[4 * i] = image.components[3 * i]
            rgba[4 * i + 1] = image.components[3 * i + 1]
            rgba[4 * i + 2] = image.components[3 * i + 2]
        }
        var canvas = Canvas(image: RGBA8Image(width: image.width, height: image.height, components: rgba))
        for label in roadLabels { try paint(label, camera: camera, renderer: renderer, on: &canvas) }
        for label in labels.reversed() {
            let opacity = labelOpacity(distanceMeters: label.distanceMeters)
            let color = labelColor(categoryGroup: label.categoryGroup).withOpacity(opacity)
            let halo = RGBAColor.white.withOpacity(opacity * 0.9)
            let size = labelPixelSize(distanceMeters: label.distanceMeters)
            let style = TextStyle(pixelSize: size, weight: .bold, color: color, halo: .init(width: 2, color: halo))
            let metrics = try renderer.measure(label.name, style: style)
            canvas.fillCircle(center: PixelPoint(x: label.anchorX, y: label.anchorY), radius: 4, color: halo)
            canvas.fillCircle(center: PixelPoint(x: label.anchorX, y: label.anchorY), radius: 2.5, color: color)
            // Keep the name inside the view when the sign is near an edge (the dot stays on the sign).
            let left = max(2, min(Double(image.width) - metrics.advanceWidth - 2, label.anchorX - metrics.advanceWidth / 2))
            try renderer.draw(label.name, at: PixelPoint(x: left, y: label.anchorY - 7 - metrics.descent),
                              style: style, on: &canvas)
        }
        for i in 0..<count {
            image.components[3 * i] = canvas.image.components[4 * i]
            image.components[3 * i + 1] = canvas.image.components[4 * i + 1]
            image.components[3 * i + 2] = canvas.image.components[4 * i + 2]
        }
    }
}

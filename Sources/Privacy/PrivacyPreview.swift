import Foundation
import Imaging

/// The picture `lookaround blur --dry-run` writes: the photo as it is, with each region's detection box
/// (red faces, yellow plates, green marks, grey removed), the blocks that would be replaced (thin), and
/// its id, class and score.
public enum PrivacyPreview {
    public static func draw(_ pixels: RGB8Image, regions: [PrivacyRegion], fonts: FontLibrary?) throws -> RGB8Image {
        var canvas = Canvas(image: pixels.withAlpha())
        let scale = max(1, Double(max(pixels.width, pixels.height)) / 1600)
        let renderer = fonts.map(TextRenderer.init)
        for region in regions {
            let color: RGBAColor
            switch (region.state, region.kind) {
            case (.removed, _): color = RGBAColor(red: 160, green: 160, blue: 160)
            case (_, .face): color = RGBAColor(red: 255, green: 40, blue: 40)
            case (_, .plate): color = RGBAColor(red: 255, green: 210, blue: 0)
            case (_, .manual): color = RGBAColor(red: 40, green: 220, blue: 60)
            }
            func outline(_ box: PixelBox) -> [PixelPoint] {
                [PixelPoint(x: box.x, y: box.y), PixelPoint(x: box.maxX, y: box.y), PixelPoint(x: box.maxX, y: box.maxY),
                 PixelPoint(x: box.x, y: box.maxY)]
            }
            canvas.drawPolyline(outline(region.blocks), style: StrokeStyle(width: 1 * scale), color: color.withAlpha(160), closed: true)
            canvas.drawPolyline(outline(region.box), style: StrokeStyle(width: 2.5 * scale), color: color, closed: true)
            if let renderer {
                let label = "\(region.id) \(region.kind.rawValue) \(String(format: "%.2f", region.score))"
                    + (region.state == .removed ? " (removed)" : "")
                let style = TextStyle(pixelSize: 13 * scale, weight: .bold, color: color,
                                      halo: TextStyle.Halo(width: 2 * scale, color: .black))
                // Kept inside the picture: a region at its right edge has its label shifted left, not cut.
                let width = try renderer.measure(label, style: style).advanceWidth
                let x = max(0, min(region.box.x, Double(pixels.width) - width - 2 * scale))
                try renderer.draw(label, at: PixelPoint(x: x, y: max(14 * scale, region.box.y - 4 * scale)), style: style, on: &canvas)
            }
        }
        var out = RGB8Image(unfilledWidth: pixels.width, height: pixels.height)
        canvas.image.components.withUnsafeBufferPointer { source in
            out.components.withUnsafeMutableBufferPointer { target in
                for i in 0..<pixels.pixelCount {
                    target[3 * i] = source[4 * i]; target[3 * i + 1] = source[4 * i + 1]; target[3 * i + 2] = source[4 * i + 2]
                }
            }
        }
        return out
    }
}

extension RGBAColor {
    func withAlpha(_ alpha: UInt8) -> RGBAColor { RGBAColor(red: red, green: green, blue: blue, alpha: alpha) }
}

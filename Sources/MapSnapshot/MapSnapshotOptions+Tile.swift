import Geodesy
import Imaging

extension MapSnapshotOptions {
    /// A slippy-map tile with `margin` points around it for placing labels, at `scale`: framed on the
    /// tile's square and the margin, with the line of each of the tile's edges (a pixel wide) closed to
    /// labels, so that a label that would cross one is left out (here, and in the neighbour's picture,
    /// which reserves the same line), never cut. The whole picture is drawn; ``window`` set to
    /// ``tileWindow(marginPoints:scale:)`` draws only the tile's pixels.
    public init(tile: SlippyTile, marginPoints margin: Int, scale: Int, mapType: MapType) {
        let rect = tile.mapRect
        let grow = rect.size.width * Double(margin) / 256
        let framed = MapRect(x: rect.origin.x - grow, y: rect.origin.y - grow,
                             width: rect.size.width + 2 * grow, height: rect.size.height + 2 * grow)
        self.init(framing: .mapRect(framed), size: PointSize(width: 256 + 2 * margin, height: 256 + 2 * margin),
                  scale: Double(scale), mapType: mapType)
        let lo = Double(margin * scale), hi = Double((margin + 256) * scale), far = Double((256 + 2 * margin) * scale)
        labelExclusions = [PixelRect(minX: lo - 0.5, minY: 0, maxX: lo + 0.5, maxY: far),
                           PixelRect(minX: hi - 0.5, minY: 0, maxX: hi + 0.5, maxY: far),
                           PixelRect(minX: 0, minY: lo - 0.5, maxX: far, maxY: lo + 0.5),
                           PixelRect(minX: 0, minY: hi - 0.5, maxX: far, maxY: hi + 0.5)]
    }

    /// The tile's pixels in the picture of ``init(tile:marginPoints:scale:mapType:)``.
    public static func tileWindow(marginPoints margin: Int, scale: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        (x: margin * scale, y: margin * scale, width: 256 * scale, height: 256 * scale)
    }
}

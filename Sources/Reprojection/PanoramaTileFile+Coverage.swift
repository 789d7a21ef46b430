import Imaging

extension PanoramaTileFile {
    /// View pixels between the samples that find the tiles a view needs.
    static let coverageSampleSpacingPixels = 16

    /// The sample positions along a view side of `length` pixels: every ``coverageSampleSpacingPixels``
    /// from 0, and the far edge.
    static func coverageSamplePositions(_ length: Int) -> [Double] {
        Swift.stride(from: 0, to: length, by: coverageSampleSpacingPixels).map(Double.init) + [Double(length)]
    }
    /// Source pixels added around each sampled cell: the bilinear and bicubic footprints, plus slack
    /// for the curvature of a cell's edges between its corners.
    static let coverageMarginPixels = 3.0

    /// The tiles of `level` (indices row-major) that `camera`'s view of the panorama (captured with
    /// `pose`) samples, found from the exact projection of a grid of view pixels: each grid cell's
    /// bounding box in the panorama, grown by a few pixels, wrapped across the seam; a cell around a
    /// pole takes the whole width from its rows to the pole.
    public func tiles(for camera: ViewCamera, pose: PanoramaPose, level: Int) -> [Int] {
        let l = levels[level]
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: l.width)
        let xs = Self.coverageSamplePositions(camera.width), ys = Self.coverageSamplePositions(camera.height)
        var samples: [PixelPoint] = []
        samples.reserveCapacity(xs.count * ys.count)
        for y in ys { for x in xs { samples.append(projection.panoramaPixel(viewX: x, viewY: y)) } }
        var needed = [Bool](repeating: false, count: l.columns * l.rows)
        let width = Double(l.width), height = Double(l.height), margin = Self.coverageMarginPixels
        func mark(columnsFrom low: Double, to high: Double, rowsFrom top: Double, to bottom: Double) {
            let r0 = max(0, Int((top - margin) / Double(tileSize))), r1 = min(l.rows - 1, Int((bottom + margin) / Double(tileSize)))
            guard r0 <= r1 else { return }
            let wholeWidth = high - low + 2 * margin >= width
            let c0 = wholeWidth ? 0 : Int(((low - margin) / Double(tileSize)).rounded(.down))
            let c1 = wholeWidth ? l.columns - 1 : Int(((high + margin) / Double(tileSize)).rounded(.down))
            for r in r0...r1 {
                for c in c0...c1 { needed[r * l.columns + ((c % l.columns) + l.columns) % l.columns] = true }
            }
        }
        for j in 0..<(ys.count - 1) {
            for i in 0..<(xs.count - 1) {
                let corners = [samples[j * xs.count + i], samples[j * xs.count + i + 1],
                               samples[(j + 1) * xs.count + i], samples[(j + 1) * xs.count + i + 1]]
                let reference = corners[0].x
                var low = Double.infinity, high = -Double.infinity, top = Double.infinity, bottom = -Double.infinity
                for corner in corners {
                    var u = corner.x
                    if u - reference > width / 2 { u -= width } else if u - reference < -width / 2 { u += width }
                    low = min(low, u); high = max(high, u); top = min(top, corner.y); bottom = max(bottom, corner.y)
                }
                if high - low > width / 4 {
                    // Longitude turns fast only next to a pole: take every column from here to it.
                    if top + bottom < height { top = 0 } else { bottom = height }
                    mark(columnsFrom: 0, to: width, rowsFrom: top, to: bottom)
                } else {
                    mark(columnsFrom: low, to: high, rowsFrom: top, to: bottom)
                }
            }
        }
        return needed.indices.filter { needed[$0] }
    }
}

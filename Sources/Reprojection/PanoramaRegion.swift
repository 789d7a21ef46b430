import Imaging

/// The part of a panorama level a view samples: rows, and columns unless it takes the whole width. What
/// the first view of a panorama without tile files decodes (``PanoramaDecoder/decodeRegion(_:file:level:region:)``):
/// a 90° view of a 11000-pixel photo at 1280×720 needs about a quarter of the columns of its half-scale
/// level and the rows down to the bottom of the view.
public struct PanoramaRegion: Sendable, Hashable, CustomStringConvertible {
    /// The level's size, pixels.
    public let width: Int, height: Int
    /// The rows, top to bottom.
    public let rows: Range<Int>
    /// The columns, left to right; nil for the whole width (a view around a pole, or across the seam).
    public let columns: Range<Int>?

    /// A region of a `width` × `height` level; columns that cross the seam or run past an edge are taken
    /// as the whole width.
    public init(width: Int, height: Int, rows: Range<Int>, columns: Range<Int>?) {
        self.width = width
        self.height = height
        self.rows = max(0, rows.lowerBound)..<min(height, max(rows.upperBound, rows.lowerBound + 1))
        if let columns, columns.lowerBound >= 0, columns.upperBound <= width, columns.count < width {
            self.columns = columns
        } else {
            self.columns = nil
        }
    }

    /// The whole level.
    public static func whole(width: Int, height: Int) -> PanoramaRegion {
        PanoramaRegion(width: width, height: height, rows: 0..<height, columns: nil)
    }

    /// Pixels added around what the view's sample grid reaches: the sampling kernels' footprint and the
    /// curvature of a grid cell's edges between its corners (as ``PanoramaTileFile`` finds tiles).
    public static let marginPixels = 3.0

    /// What `camera`'s view of a panorama captured with `pose` samples in a `width` × `height` level,
    /// widened by `slackFraction` of its size on each side (a view turned or zoomed a little is still
    /// inside): the exact projection of a grid of view pixels every 16, each cell's box grown by
    /// ``marginPixels``; a cell at a pole takes every column from its rows to the pole.
    public static func needed(for camera: ViewCamera, pose: PanoramaPose, width: Int, height: Int,
                              slackFraction: Double = 0) -> PanoramaRegion {
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: width)
        let xs = PanoramaTileFile.coverageSamplePositions(camera.width), ys = PanoramaTileFile.coverageSamplePositions(camera.height)
        let w = Double(width), h = Double(height)
        // Columns unwrapped about the view's centre, so a view across the seam is one interval.
        let reference = projection.panoramaPixel(viewX: Double(camera.width) / 2, viewY: Double(camera.height) / 2).x
        var samples: [PixelPoint] = []
        samples.reserveCapacity(xs.count * ys.count)
        for y in ys {
            for x in xs {
                var p = projection.panoramaPixel(viewX: x, viewY: y)
                if p.x - reference > w / 2 { p.x -= w } else if p.x - reference < -w / 2 { p.x += w }
                samples.append(p)
            }
        }
        var low = Double.infinity, high = -Double.infinity, top = Double.infinity, bottom = -Double.infinity
        var wholeWidth = false
        for j in 0..<(ys.count - 1) {
            for i in 0..<(xs.count - 1) {
                let corners = [samples[j * xs.count + i], samples[j * xs.count + i + 1],
                               samples[(j + 1) * xs.count + i], samples[(j + 1) * xs.count + i + 1]]
                var cellLow = Double.infinity, cellHigh = -Double.infinity, cellTop = Double.infinity, cellBottom = -Double.infinity
                for corner in corners {
                    cellLow = min(cellLow, corner.x); cellHigh = max(cellHigh, corner.x)
                    cellTop = min(cellTop, corner.y); cellBottom = max(cellBottom, corner.y)
                }
                if cellHigh - cellLow > w / 4 {
                    // Longitude turns fast only next to a pole: every column from here to it.
                    wholeWidth = true
                    if cellTop + cellBottom < h { cellTop = 0 } else { cellBottom = h }
                }
                low = min(low, cellLow); high = max(high, cellHigh)
                top = min(top, cellTop); bottom = max(bottom, cellBottom)
            }
        }
        let slackX = (high - low) * slackFraction, slackY = (bottom - top) * slackFraction
        let margin = marginPixels
        let rows = Int((top - margin - slackY).rounded(.down))..<Int((bottom + margin + slackY).rounded(.up))
        let columns = Int((low - margin - slackX).rounded(.down))..<Int((high + margin + slackX).rounded(.up))
        return PanoramaRegion(width: width, height: height, rows: rows, columns: wholeWidth ? nil : columns)
    }

    /// Whether every pixel of `other` (a region of a level of the same size) is in this one.
    public func contains(_ other: PanoramaRegion) -> Bool {
        guard width == other.width, height == other.height, rows.lowerBound <= other.rows.lowerBound,
              rows.upperBound >= other.rows.upperBound else { return false }
        guard let columns else { return true }
        guard let theirs = other.columns else { return false }
        return columns.lowerBound <= theirs.lowerBound && columns.upperBound >= theirs.upperBound
    }

    /// The share of the level's pixels inside, 0…1.
    public var fraction: Double {
        Double(rows.count * (columns?.count ?? width)) / Double(width * height)
    }

    public var description: String {
        "rows \(rows.lowerBound)..<\(rows.upperBound), " + (columns.map { "columns \($0.lowerBound)..<\($0.upperBound)" } ?? "every column")
            + " of \(width)×\(height)"
    }
}

extension PanoramaDecoder {
    /// Decodes only `region` of level `level` of the JPEG `jpeg` (at the JPEG's DCT scale of the level:
    /// the rows above skipped without their inverse DCT, the rows below never read, the columns outside
    /// not transformed) into an image of the whole level, black outside the region. A PNG is decoded whole.
    /// - Throws: `ReprojectionError.unreadablePanorama` (damaged data, strictly) or `.notEquirectangular`.
    public static func decodeRegion(_ jpeg: [UInt8], file: String? = nil, level: Int,
                                    region: PanoramaRegion) throws(ReprojectionError) -> PanoramaImage {
        guard ImageFormat.detect(jpeg) != .png else { return try decode(jpeg, file: file, level: level) }
        guard region.width == 2 * region.height, region.height >= 2 else {
            throw .notEquirectangular(width: region.width, height: region.height)
        }
        var image = PanoramaImage(width: region.width, height: region.height,
                                  pixels: [UInt32](repeating: 0, count: region.width * region.height))
        do {
            try image.pixels.withUnsafeMutableBytes { destination in
                _ = try JPEGCodec.decodeRegion(jpeg, file: file, scale: scale(forLevel: level), width: region.width, height: region.height,
                                               columns: region.columns ?? 0..<region.width, rows: region.rows,
                                               into: destination.baseAddress!, rowBytes: region.width * 4)
            }
        } catch {
            throw .unreadablePanorama(file: file, reason: "\(error)")
        }
        return image
    }
}

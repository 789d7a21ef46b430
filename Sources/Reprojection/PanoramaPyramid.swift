/// A panorama and its area-filtered halvings, so a view samples a level whose pixels are about as
/// large as its own (no aliasing when a large panorama is rendered small).
///
/// Level 0 is the panorama as given; level k is 2^k times smaller per side. The pyramid costs one
/// third more memory than level 0 and is built once (at index time or on first use).
public struct PanoramaPyramid: Sendable {
    /// The levels, largest first; never empty.
    public let levels: [PanoramaImage]

    /// The most source pixels per view pixel (at the view centre) that bilinear sampling takes
    /// without visible aliasing; above it a smaller level is used. √2: the level chosen is then the
    /// one whose ratio is nearest 1 on a log scale.
    static let maximumSourcePixelsPerViewPixel = 2.0.squareRoot()

    /// Builds every level down to `minimumHeight` pixels (or until a height is odd).
    public init(_ base: PanoramaImage, minimumHeight: Int = 64) {
        var levels = [base]
        while let last = levels.last, last.height / 2 >= minimumHeight, let next = last.halved() {
            levels.append(next)
        }
        self.levels = levels
    }

    /// Wraps levels made elsewhere (for example JPEG DCT-scaled decodes); `levels[k]` must be
    /// level 0 halved k times.
    public init(levels: [PanoramaImage]) {
        precondition(!levels.isEmpty, "a pyramid needs at least one level")
        self.levels = levels
    }

    /// The index of the level to sample for `ratio` source (level 0) pixels per view pixel:
    /// the smallest k with `ratio / 2^k ≤ ` ``maximumSourcePixelsPerViewPixel``, bounded by the levels present.
    public static func levelIndex(forSourcePixelsPerViewPixel ratio: Double, levelCount: Int = .max) -> Int {
        var k = 0, r = ratio
        while r > maximumSourcePixelsPerViewPixel && k + 1 < levelCount { r /= 2; k += 1 }
        return k
    }

    /// The index of the level `camera`'s view of a panorama `panoramaWidth` pixels wide (at level 0)
    /// samples: ``levelIndex(forSourcePixelsPerViewPixel:levelCount:)`` of the view centre's ratio.
    public static func levelIndex(for camera: ViewCamera, panoramaWidth: Int, levelCount: Int = .max) -> Int {
        let ratio = ViewProjection(camera: camera, pose: .north, panoramaWidth: panoramaWidth).sourcePixelsPerViewPixel
        return levelIndex(forSourcePixelsPerViewPixel: ratio, levelCount: levelCount)
    }

    /// The level to sample for a view (see ``levelIndex(for:panoramaWidth:levelCount:)``).
    public func level(for camera: ViewCamera) -> PanoramaImage {
        levels[Self.levelIndex(for: camera, panoramaWidth: levels[0].width, levelCount: levels.count)]
    }
}

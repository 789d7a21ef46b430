import Imaging

/// Where a partial panorama's image lies in the full equirectangular sphere (GPano `FullPanoWidthPixels`,
/// `FullPanoHeightPixels`, `CroppedAreaLeftPixels`, `CroppedAreaTopPixels`): phone panoramas cover
/// perhaps 200° × 70°, not the whole sphere.
///
/// Views of a partial panorama sample it embedded in a full-size 2:1 image whose other pixels are
/// black, so the projection is the one of full panoramas and a view that looks past the edge of the
/// capture shows black there, as Google's and Apple's viewers do.
public struct PanoramaCrop: Sendable, Hashable {
    /// The full panorama's size, pixels (width = 2 × height).
    public var fullWidth: Int, fullHeight: Int
    /// The image's top-left corner in the full panorama, pixels.
    public var left: Int, top: Int

    /// A crop.
    /// - Throws: `ReprojectionError.notEquirectangular` unless the full size is 2:1;
    ///   `.invalidParameter` when the offsets are negative.
    public init(fullWidth: Int, fullHeight: Int, left: Int, top: Int) throws(ReprojectionError) {
        guard fullWidth == 2 * fullHeight, fullHeight >= 2 else { throw .notEquirectangular(width: fullWidth, height: fullHeight) }
        guard left >= 0, top >= 0 else {
            throw .invalidParameter(name: "cropped area offset", value: "(\(left), \(top))",
                                    allowed: "0 or more pixels from the full panorama's top-left corner")
        }
        self.fullWidth = fullWidth
        self.fullHeight = fullHeight
        self.left = left
        self.top = top
    }

    /// Whether an image `width`×`height` with this crop is in fact the whole panorama.
    public func isFull(width: Int, height: Int) -> Bool { left == 0 && top == 0 && width == fullWidth && height == fullHeight }

    /// `image` (the cropped area at pyramid level `level`, i.e. 2^level smaller per side) placed in a
    /// black full panorama of that level; columns past the right edge wrap to the left (a crop may
    /// cross the 0°/360° seam), rows past the bottom are dropped.
    public func embed(_ image: RGB8Image, level: Int) throws(ReprojectionError) -> PanoramaImage {
        let width = fullWidth >> level, height = fullHeight >> level
        guard width >= 2, height >= 1, width == 2 * height else { throw .notEquirectangular(width: width, height: height) }
        var pixels = [UInt32](repeating: 0, count: width * height)
        let x0 = (left >> level) % width, y0 = top >> level
        image.components.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<min(image.height, max(0, height - y0)) {
                    let row = (y0 + y) * width
                    for x in 0..<min(image.width, width) {
                        let s = (y * image.width + x) * 3
                        dst[row + (x0 + x) % width] = UInt32(src[s]) | UInt32(src[s + 1]) << 8 | UInt32(src[s + 2]) << 16
                    }
                }
            }
        }
        return PanoramaImage(width: width, height: height, pixels: pixels)
    }
}

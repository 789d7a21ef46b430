import Imaging

/// Decodes a panorama JPEG at the pyramid level a view needs, using libjpeg-turbo's DCT scaling
/// (1/2, 1/4, 1/8 cost a fraction of a full decode), so a small view of a large panorama neither
/// decodes pixels it cannot show nor aliases.
public enum PanoramaDecoder {
    /// The pyramid level (0 = full size, k = 2^k smaller per side) a view of a panorama
    /// `panoramaWidth` pixels wide needs, at most 3 (JPEG's 1/8 scale), and only a level whose
    /// scaled size is still exactly 2:1.
    public static func level(for camera: ViewCamera, panoramaWidth: Int) -> Int {
        var level = PanoramaPyramid.levelIndex(for: camera, panoramaWidth: panoramaWidth, levelCount: 4)
        while level > 0 && panoramaWidth % (2 << level) != 0 { level -= 1 }
        return level
    }

    /// The JPEG scale of pyramid level `level` (0…3).
    public static func scale(forLevel level: Int) -> JPEGScale {
        switch level {
        case ...0: return .full
        case 1: return .half
        case 2: return .quarter
        default: return .eighth
        }
    }

    /// Decodes `jpeg` at the level `camera` needs.
    /// - Returns: the image (2:1) and its level.
    /// - Throws: `ReprojectionError.unreadablePanorama` (bad data) or `.notEquirectangular`.
    public static func decode(_ jpeg: [UInt8], file: String? = nil, for camera: ViewCamera)
        throws(ReprojectionError) -> (image: PanoramaImage, level: Int) {
        let header: JPEGHeader
        do { header = try JPEGCodec.readHeader(jpeg, file: file) } catch {
            throw .unreadablePanorama(file: file, reason: "\(error)")
        }
        let level = self.level(for: camera, panoramaWidth: header.width)
        return (try decode(jpeg, file: file, level: level), level)
    }

    /// Decodes `jpeg` (or a PNG) at pyramid level `level` (0…3); a partial panorama (`crop`) is embedded in its
    /// full sphere (``PanoramaCrop/embed(_:level:)``).
    /// - Throws: `ReprojectionError.unreadablePanorama` or `.notEquirectangular`.
    public static func decode(_ jpeg: [UInt8], file: String? = nil, level: Int, crop: PanoramaCrop? = nil) throws(ReprojectionError) -> PanoramaImage {
        var decoded: RGB8Image
        do {
            if ImageFormat.detect(jpeg) == .png {
                // A PNG panorama (no DCT scaling): decoded whole, then reduced by area averaging.
                decoded = try PNGCodec.decodeRGB(jpeg, file: file)
                if level > 0 {
                    decoded = try Resampler.resize(decoded, to: PixelSize(width: max(1, decoded.width >> level),
                                                                           height: max(1, decoded.height >> level)), filter: .area)
                }
            } else {
                decoded = try JPEGCodec.decodeRGB(jpeg, file: file, options: JPEGDecodeOptions(scale: scale(forLevel: level), strict: true)).image
            }
        } catch {
            throw .unreadablePanorama(file: file, reason: "\(error)")
        }
        if let crop, !crop.isFull(width: decoded.width << level, height: decoded.height << level) {
            return try crop.embed(decoded, level: level)
        }
        return try PanoramaImage(decoded)
    }
}

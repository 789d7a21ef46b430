/// One entry point for "decode this image, whatever it is": picks the codec from the magic bytes.
/// JPEG decoding here is strict (a truncated or damaged file is an error); call `JPEGCodec` directly
/// to get the pixels of a damaged file together with its warnings.
public enum ImageDecoder {
    /// Decodes JPEG or PNG data to 8-bit RGB (PNG alpha is dropped).
    /// - Throws: `ImagingError` naming `file`: `.empty`, `.wrongFormat` (with what the data looks like),
    ///   `.corrupt`, `.truncated`, `.exceedsPixelBudget`, `.unsupported`.
    public static func decodeRGB(_ data: [UInt8], file: String? = nil,
                                 pixelBudget: Int = defaultPixelBudget) throws -> RGB8Image {
        switch try format(of: data, file: file) {
        case .jpeg:
            return try JPEGCodec.decodeRGB(data, file: file, options: JPEGDecodeOptions(strict: true),
                                           pixelBudget: pixelBudget).image
        case .png:
            return try PNGCodec.decodeRGB(data, file: file, pixelBudget: pixelBudget)
        }
    }

    /// Decodes JPEG or PNG data to 8-bit RGBA (JPEG gets alpha 255).
    public static func decodeRGBA(_ data: [UInt8], file: String? = nil,
                                  pixelBudget: Int = defaultPixelBudget) throws -> RGBA8Image {
        switch try format(of: data, file: file) {
        case .jpeg:
            return try JPEGCodec.decodeRGB(data, file: file, options: JPEGDecodeOptions(strict: true),
                                           pixelBudget: pixelBudget).image.withAlpha()
        case .png:
            return try PNGCodec.decodeRGBA(data, file: file, pixelBudget: pixelBudget)
        }
    }

    /// Reads a file and decodes it to RGB; errors name `path`.
    public static func readRGB(path: String, pixelBudget: Int = defaultPixelBudget) throws -> RGB8Image {
        try decodeRGB(try ImageFile.read(path), file: path, pixelBudget: pixelBudget)
    }

    /// The size of a JPEG or PNG from its headers, without decoding pixels.
    public static func size(of data: [UInt8], file: String? = nil) throws -> PixelSize {
        switch try format(of: data, file: file) {
        case .jpeg:
            let h = try JPEGCodec.readHeader(data, file: file)
            return PixelSize(width: h.width, height: h.height)
        case .png:
            let h = try PNGCodec.readHeader(data, file: file)
            return PixelSize(width: h.width, height: h.height)
        }
    }

    /// The format of `data`, or the error a decoder would give.
    public static func format(of data: [UInt8], file: String? = nil) throws -> ImageFormat {
        guard !data.isEmpty else { throw ImagingError.empty(file: file) }
        guard let format = ImageFormat.detect(data) else {
            throw ImagingError.wrongFormat(file: file, expected: "JPEG or PNG", found: ImageFormat.describe(data))
        }
        return format
    }
}

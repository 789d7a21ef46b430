import CPNG
import Foundation

/// PNG decoding and encoding.
public enum PNGCodec {
    /// Decodes 8-bit RGBA (any PNG colour type is converted).
    public static func decodeRGBA(_ data: [UInt8], file: String? = nil,
                                  pixelBudget: Int = defaultPixelBudget) throws -> RGBA8Image {
        try decode(data, file: file, pixelBudget: pixelBudget, format: PNG_FORMAT_RGB | PNG_FORMAT_FLAG_ALPHA,
                   channels: 4) { RGBA8Image(width: $0, height: $1, components: $2) }
    }

    /// Decodes 8-bit RGB (alpha, if any, is composited over black by libpng).
    public static func decodeRGB(_ data: [UInt8], file: String? = nil,
                                 pixelBudget: Int = defaultPixelBudget) throws -> RGB8Image {
        try decode(data, file: file, pixelBudget: pixelBudget, format: PNG_FORMAT_RGB,
                   channels: 3) { RGB8Image(width: $0, height: $1, components: $2) }
    }

    private static func decode<T>(_ data: [UInt8], file: String?, pixelBudget: Int, format: UInt32,
                                  channels: Int, make: (Int, Int, [UInt8]) -> T) throws -> T {
        guard !data.isEmpty else { throw ImagingError.empty(file: file) }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard data.count >= 8, Array(data[0..<8]) == signature else {
            throw ImagingError.wrongFormat(file: file, expected: "PNG", found: hexPrefix(data))
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else {
            throw ImagingError.corrupt(file: file, format: "PNG", detail: message(of: image))
        }
        let width = Int(image.width), height = Int(image.height)
        guard width * height <= pixelBudget else {
            png_image_free(&image)
            throw ImagingError.exceedsPixelBudget(file: file, width: width, height: height, budget: pixelBudget)
        }
        image.format = format
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let finished = pixels.withUnsafeMutableBytes {
            png_image_finish_read(&image, nil, $0.baseAddress, 0, nil)
        }
        guard finished != 0 else {
            throw ImagingError.corrupt(file: file, format: "PNG", detail: message(of: image))
        }
        return make(width, height, pixels)
    }

    /// Encodes 8-bit RGBA.
    public static func encode(_ image: RGBA8Image) throws -> [UInt8] {
        try encode(components: image.components, width: image.width, height: image.height,
                   format: PNG_FORMAT_RGB | PNG_FORMAT_FLAG_ALPHA)
    }

    /// Encodes 8-bit RGB.
    public static func encode(_ image: RGB8Image) throws -> [UInt8] {
        try encode(components: image.components, width: image.width, height: image.height, format: PNG_FORMAT_RGB)
    }

    private static func encode(components: [UInt8], width: Int, height: Int, format: UInt32) throws -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = format
        var size = 0
        _ = components.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, 0, nil) }
        var out = [UInt8](repeating: 0, count: size)
        let ok = components.withUnsafeBytes { px in
            out.withUnsafeMutableBytes { png_image_write_to_memory(&image, $0.baseAddress, &size, 0, px.baseAddress, 0, nil) }
        }
        guard ok != 0 else { throw ImagingError.encodeFailed(format: "PNG", detail: message(of: image)) }
        out.removeSubrange(size...)
        return out
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}

/// The first bytes of some data as hex, for "it starts with …" messages.
func hexPrefix(_ data: [UInt8], count: Int = 4) -> String {
    data.prefix(count).map { String(format: "0x%02X", $0) }.joined(separator: " ")
}

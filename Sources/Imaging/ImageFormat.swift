/// The file formats the codecs read, recognised by their first bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// JPEG (JFIF/EXIF), read and written by `JPEGCodec`.
    case jpeg
    /// PNG, read and written by `PNGCodec`.
    case png

    /// The format whose magic bytes `data` starts with, or `nil` (JPEG: FF D8 FF; PNG: the 8-byte signature).
    public static func detect(_ data: [UInt8]) -> ImageFormat? {
        if data.count >= 3, data[0] == 0xFF, data[1] == 0xD8, data[2] == 0xFF { return .jpeg }
        if data.count >= 8, data[0..<8].elementsEqual(PNGCodec.signature) { return .png }
        return nil
    }

    /// A name for the kind of data that is none of these, for error messages ("GIF", "text", …).
    static func describe(_ data: [UInt8]) -> String {
        let known: [(String, [UInt8])] = [("GIF", Array("GIF8".utf8)), ("WebP/RIFF", Array("RIFF".utf8)),
                                          ("BMP", Array("BM".utf8)), ("TIFF", [0x49, 0x49, 0x2A, 0x00]),
                                          ("TIFF", [0x4D, 0x4D, 0x00, 0x2A]), ("PDF", Array("%PDF".utf8))]
        for (name, magic) in known where data.starts(with: magic) { return "\(name) data (\(hexPrefix(data)))" }
        if !data.isEmpty, data.prefix(64).allSatisfy({ $0 == 9 || $0 == 10 || $0 == 13 || (32...126).contains($0) }) {
            return "text (\(hexPrefix(data)))"
        }
        return hexPrefix(data)
    }
}

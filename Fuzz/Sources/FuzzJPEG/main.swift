// JPEG decoding through JPEGCodec, as index (strict 1/8 scan check), the decoders (full size, under a
// pixel budget) and the tile reader (RGBX into caller memory) call it.
import FuzzSupport
import Imaging

/// Small enough that a header claiming a huge image is refused quickly; the product's own budget
/// (256 Mpx) is exercised by the strict 1/8 decode, which is what `index` runs.
let fuzzPixelBudget = 1 << 22

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let header = try? JPEGCodec.readHeader(bytes)
    if let strict = try? JPEGCodec.decodeRGB(bytes, options: JPEGDecodeOptions(scale: .eighth, strict: true)) {
        precondition(strict.warnings.isEmpty, "a strict decode succeeded with warnings: \(strict.warnings)")
    }
    if let full = try? JPEGCodec.decodeRGB(bytes, pixelBudget: fuzzPixelBudget) {
        precondition(full.image.width * full.image.height <= fuzzPixelBudget, "decoded past the pixel budget")
        if let header { precondition(full.image.width == header.width && full.image.height == header.height) }
    }
    _ = try? JPEGCodec.decodeGray(bytes, options: JPEGDecodeOptions(scale: .quarter), pixelBudget: fuzzPixelBudget)
    if let header, header.width > 0, header.height > 0, header.width * header.height <= fuzzPixelBudget {
        var pixels = [UInt32](repeating: 0, count: header.width * header.height)
        pixels.withUnsafeMutableBytes { destination in
            bytes.withUnsafeBytes { source in
                _ = try? JPEGCodec.decodeRGBX(source, into: destination.baseAddress!, rowBytes: header.width * 4,
                                              width: header.width, height: header.height)
            }
        }
    }
    _ = try? ImageDecoder.size(of: bytes)
    return 0
}

@_cdecl("FuzzJPEG_main")
public func fuzzJPEGMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzJPEG)
}

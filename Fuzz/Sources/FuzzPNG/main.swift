// PNG decoding through PNGCodec (libpng behind the setjmp shim): the header, the chunk/CRC check index
// runs on depth and label maps, and every decoder the product uses.
import FuzzSupport
import Imaging

let fuzzPixelBudget = 1 << 22

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let header = try? PNGCodec.readHeader(bytes)
    _ = try? PNGCodec.verifyChunks(bytes)
    func check(_ width: Int, _ height: Int) {
        precondition(width * height <= fuzzPixelBudget, "decoded past the pixel budget")
        if let header { precondition(width == header.width && height == header.height, "size differs from the header") }
    }
    if let image = try? PNGCodec.decodeRGBA(bytes, pixelBudget: fuzzPixelBudget) { check(image.width, image.height) }
    if let image = try? PNGCodec.decodeGray16(bytes, pixelBudget: fuzzPixelBudget) {
        check(image.width, image.height)
    }
    if bytes.count & 1 == 0 {
        if let image = try? PNGCodec.decodeRGB(bytes, pixelBudget: fuzzPixelBudget) { check(image.width, image.height) }
    } else {
        if let image = try? PNGCodec.decodeGray8(bytes, pixelBudget: fuzzPixelBudget) { check(image.width, image.height) }
    }
    return 0
}

@_cdecl("FuzzPNG_main")
public func fuzzPNGMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzPNG)
}

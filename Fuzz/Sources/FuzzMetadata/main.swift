// EXIF (TIFF IFDs in APP1) and XMP (GPano) parsing from a JPEG's headers, then writing what was read
// back out (what `image set-metadata` and the simulator do) and reading that again.
import FuzzSupport
import Foundation
import Imaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadata(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    guard let result = try? ImageMetadata.read(fromJPEG: bytes) else { return 0 }
    let metadata = result.metadata
    _ = try? metadata.validate()
    _ = metadata.dateTimeOriginalDate
    _ = try? metadata.exifPayload(byteOrder: .bigEndian)
    _ = try? metadata.xmpPacket()
    if (try? metadata.validate()) != nil, let rewritten = try? metadata.replacingMetadata(in: bytes) {
        _ = try? ImageMetadata.read(fromJPEG: rewritten)
    }
    return 0
}

@_cdecl("FuzzMetadata_main")
public func fuzzMetadataMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzMetadata)
}

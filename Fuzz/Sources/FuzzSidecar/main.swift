// Sidecar JSON (`<panorama>.json` beside a photo without GPS/GPano) as ingest reads it, with the
// capture-time parse ingest does next.
@testable import Catalog
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSidecar(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = FuzzInput.file(FuzzInput.bytes(data, size), name: "panorama.json")
    if let sidecar = try? PanoramaSidecar.read(path) {
        _ = sidecar.parsedCaptureTime
    }
    return 0
}

@_cdecl("FuzzSidecar_main")
public func fuzzSidecarMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzSidecar)
}

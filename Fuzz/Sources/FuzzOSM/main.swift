// OSM reading (libreadosm for PBF and XML, then feature assembly) through MapDataset, which takes a
// path: the input is written to a scratch file, as `.osm.pbf` or `.osm` by its first byte's low bit
// (the reader sniffs the content, the name only picks what a user would have called it).
import FuzzSupport
import MapData

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSM(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let name = (bytes.first ?? 0) & 1 == 0 ? "input.osm.pbf" : "input.osm"
    let path = FuzzInput.file(bytes, name: name)
    if let dataset = try? MapDataset(contentsOfFile: path) {
        _ = dataset.diagnostics.count
        _ = dataset.water
    }
    return 0
}

@_cdecl("FuzzOSM_main")
public func fuzzOSMMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzOSM)
}

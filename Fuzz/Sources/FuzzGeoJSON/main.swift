// GeoJSON overlays (MapSnapshot's GeoJSONReader, `map --overlay`) and walk waypoints as GeoJSON
// (Playback's WaypointReader.parseGeoJSON, `walk --waypoints`): the first byte's low bit picks the
// reader. GPX waypoints have their own target, FuzzGPX (its comment says why).
import Foundation
import FuzzSupport
import MapSnapshot
import Playback

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    guard let selector = bytes.first else { return 0 }
    let body = Data(bytes.dropFirst())
    if selector & 1 == 0 {
        _ = try? GeoJSONReader.parse(body, file: "fuzz.geojson")
    } else {
        _ = try? WaypointReader.parseGeoJSON(body, file: "fuzz.geojson")
    }
    return 0
}

@_cdecl("FuzzGeoJSON_main")
public func fuzzGeoJSONMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzGeoJSON)
}

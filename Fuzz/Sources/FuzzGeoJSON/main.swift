// GeoJSON overlays (MapSnapshot's GeoJSONReader, `map --overlay`), and walk waypoints as GeoJSON or
// GPX (Playback's WaypointReader, `walk --waypoints`): the first byte picks the reader.
import Foundation
import FuzzSupport
import MapSnapshot
import Playback

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    guard let selector = bytes.first else { return 0 }
    let body = Data(bytes.dropFirst())
    switch selector % 3 {
    case 0: _ = try? GeoJSONReader.parse(body, file: "fuzz.geojson")
    case 1: _ = try? WaypointReader.parseGeoJSON(body, file: "fuzz.geojson")
    default: _ = try? WaypointReader.parseGPX(body, file: "fuzz.gpx")
    }
    return 0
}

@_cdecl("FuzzGeoJSON_main")
public func fuzzGeoJSONMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzGeoJSON)
}

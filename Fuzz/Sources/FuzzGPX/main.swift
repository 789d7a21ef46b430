// Walk waypoints as GPX (Playback's WaypointReader.parseGPX, `walk --waypoints walk.gpx`): the whole
// input is the file.
//
// A target of its own, run without libFuzzer's per-input leak check (scripts/fuzz.sh passes
// -detect_leaks=0 for it): Foundation's XMLParser (Swift 6.3) leaks two objects for every document
// libxml2 reports an error in (Fuzz/lsan-suppressions.txt), so nearly every mutated input looked like
// a leak and libFuzzer ran a full LeakSanitizer heap scan after it. The scan's cost grows with the
// heap (ASan's quarantine): 13 ms per input at the start, and when GPX shared FuzzGeoJSON it fell
// below 1 execution per second after a while (116 per second on average over the first 30 s, 5,700
// without the check). Leaks are still findings: LeakSanitizer's check at exit runs, with the same
// suppressions, over everything the run allocated.
import Foundation
import FuzzSupport
import Playback

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = try? WaypointReader.parseGPX(Data(FuzzInput.bytes(data, size)), file: "fuzz.gpx")
    return 0
}

@_cdecl("FuzzGPX_main")
public func fuzzGPXMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzGPX)
}

// The tile-file reader (`*.tiles`, written by `index --tiles`): header and index, then every tile of
// the smaller levels decoded into its place, and the raw tile bytes the service sends.
import FuzzSupport
import Reprojection

/// Levels larger than this are not decoded whole (the header's claims are still checked by `init`).
let decodePixelLimit = 1 << 20

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTileFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = FuzzInput.file(FuzzInput.bytes(data, size), name: "panorama.tiles")
    guard let file = try? PanoramaTileFile(path: path) else { return 0 }
    _ = file.isCurrent(forSource: path)
    for (index, level) in file.levels.enumerated().prefix(8) {
        _ = try? file.tileBytes(level: index, column: 0, row: 0)
        _ = try? file.tileBytes(level: index, column: level.columns - 1, row: level.rows - 1)
        guard level.width * level.height <= decodePixelLimit else { continue }
        var image = file.blankImage(level: index)
        _ = try? file.decodeTiles(Array(0..<min(file.tileCount(level: index), 64)), level: index, into: &image)
    }
    return 0
}

@_cdecl("FuzzTileFile_main")
public func fuzzTileFileMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzTileFile)
}

/// `/v1/panoramas/{id}/tiles/{level}/{x}/{y}.jpg` taken apart (ids may contain `/`), and the pyramid
/// levels its `level` counts.
struct TilePath {
    var panoramaID: String
    var level: Int, x: Int, y: Int

    init?(_ path: String) {
        let prefix = "/v1/panoramas/"
        guard path.hasPrefix(prefix), path.hasSuffix(".jpg") else { return nil }
        let rest = path.dropFirst(prefix.count).dropLast(4)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[parts.count - 4] == "tiles",
              let level = Int(parts[parts.count - 3]), let x = Int(parts[parts.count - 2]), let y = Int(parts[parts.count - 1])
        else { return nil }
        panoramaID = parts[0..<(parts.count - 4)].joined(separator: "/")
        guard !panoramaID.isEmpty else { return nil }
        self.level = level
        self.x = x
        self.y = y
    }

    /// The pyramid levels a tile file of a `fullWidth`×`fullHeight` panorama holds, smallest first (the
    /// order of the tile URLs' `level`): halving from the full size down to the first level no taller
    /// than one tile, as `PanoramaTileFile` cuts them.
    static func levels(fullWidth: Int, fullHeight: Int, tileSize: Int) -> [(width: Int, height: Int, columns: Int, rows: Int)] {
        var levels: [(width: Int, height: Int, columns: Int, rows: Int)] = []
        var width = fullWidth, height = fullHeight
        levels.append((width, height, (width + tileSize - 1) / tileSize, (height + tileSize - 1) / tileSize))
        // PanoramaImage.halved(): even heights of at least 4 only.
        while height > tileSize, height % 2 == 0, height >= 4 {
            width /= 2
            height /= 2
            levels.append((width, height, (width + tileSize - 1) / tileSize, (height + tileSize - 1) / tileSize))
        }
        return levels.reversed()
    }
}

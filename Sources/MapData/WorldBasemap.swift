import Foundation

/// The low-zoom world layer: Natural Earth admin-0 countries (public domain, "Made with Natural Earth")
/// simplified per zoom band, with country names in several languages and label points.
///
/// The shipped file, `Sources/MapData/Resources/world-basemap.bin` (about 2 MB), is made from the
/// Natural Earth GeoJSON by `scripts/make-world-basemap.py`, which documents the format and the three
/// bands: zooms 0–3 from the 1:110 m edition, 3–6 and 6 up from the 1:10 m edition, each
/// Douglas–Peucker simplified in Web Mercator with shared borders simplified once (neighbours meet
/// exactly). Polygons are the countries' land, so the sea is everything outside them. Load it with
/// ``shipped()`` (cached per process) or ``init(contentsOfFile:)``.
public struct WorldBasemap: Sendable {
    /// The credit Natural Earth asks for, shown on every map image that draws this layer.
    public static let attribution = "Made with Natural Earth"

    /// A country: its names and where its label goes.
    public struct Country: Sendable, Hashable {
        /// ISO-like code (`adm0_a3`, e.g. "FIN").
        public var code: String
        /// The local-or-common name (Natural Earth `name`).
        public var name: String
        /// Names by language: "en", "sv", "ja", "zh" where Natural Earth has them.
        public var names: [String: String]
        /// A good label point (Natural Earth `label_x`, `label_y`).
        public var labelPosition: OSMCoordinate
        /// Zoom levels between which the label is shown (`min_label`, `max_label`).
        public var minimumLabelZoom: Double, maximumLabelZoom: Double
        /// Population estimate (`pop_est`), for ordering labels.
        public var population: Int

        /// The name in `language` (an OSM code such as "sv"), or ``name`` when there is none.
        public func name(in language: String?) -> String {
            language.flatMap { names[$0] }.flatMap { $0.isEmpty ? nil : $0 } ?? name
        }
    }

    /// One country's land part: an outer ring first, then its holes; every ring closed.
    public struct Polygon: Sendable, Hashable {
        /// Index into ``WorldBasemap/countries``.
        public var country: Int
        /// Outer ring, then holes; each closed (last point == first).
        public var rings: [[OSMCoordinate]]
    }

    /// The shapes for a range of zoom levels.
    public struct Band: Sendable, Hashable {
        /// The lowest zoom level the band is for (it serves up to the next band's minimum).
        public var minimumZoom: Double
        /// The Douglas–Peucker tolerance, Web Mercator degrees (360 = the world's width; one pixel
        /// at zoom z is 360 / (256 · 2^z)).
        public var toleranceMercatorDegrees: Double
        /// Land polygons.
        public var polygons: [Polygon]
        /// Land borders between countries (arcs shared by two polygons), open polylines.
        public var borders: [[OSMCoordinate]]
    }

    /// Every country, indexed by ``Polygon/country``.
    public var countries: [Country]
    /// The bands, lowest zoom first; the first starts at zoom 0.
    public var bands: [Band]

    /// The band to draw at `zoom` (the last whose minimum is at or below it).
    public func band(forZoom zoom: Double) -> Band {
        bands.last { $0.minimumZoom <= zoom } ?? bands[0]
    }

    /// Reads a file written by `scripts/make-world-basemap.py`.
    /// - Throws: ``MapDataError/fileNotFound(path:)``, ``MapDataError/malformedWorldBasemap(path:detail:)``.
    public init(contentsOfFile path: String) throws(MapDataError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .fileNotFound(path: path) }
        try self.init(bytes: [UInt8](data), path: path)
    }

    /// Decodes the bytes of a world basemap file; `path` names it in errors.
    public init(bytes: [UInt8], path: String = "world basemap") throws(MapDataError) {
        var reader = Reader(bytes: bytes, path: path)
        try reader.expectMagic("LKWORLD1")
        var countries: [Country] = []
        let countryCount = try reader.count()
        for _ in 0..<countryCount {
            let code = try reader.string(), name = try reader.string()
            var names: [String: String] = [:]
            for language in ["en", "sv", "ja", "zh"] {
                let value = try reader.string()
                if !value.isEmpty { names[language] = value }
            }
            let lon = Double(try reader.zigzag()) / Reader.unitsPerDegree, lat = Double(try reader.zigzag()) / Reader.unitsPerDegree
            let minLabel = Double(try reader.varint()) / 10, maxLabel = Double(try reader.varint()) / 10
            let population = Int(try reader.varint())
            countries.append(Country(code: code, name: name, names: names, labelPosition: OSMCoordinate(latitude: lat, longitude: lon),
                                     minimumLabelZoom: minLabel, maximumLabelZoom: maxLabel, population: population))
        }
        var bands: [Band] = []
        let bandCount = try reader.count()
        for _ in 0..<bandCount {
            let minimumZoom = Double(try reader.varint()) / 10, tolerance = Double(try reader.varint()) / 1e6
            var polygons: [Polygon] = []
            let polygonCount = try reader.count()
            for _ in 0..<polygonCount {
                let country = try reader.count()
                guard country < countries.count else { throw reader.error("polygon of country \(country) of \(countries.count)") }
                var rings: [[OSMCoordinate]] = []
                let ringCount = try reader.count()
                for _ in 0..<ringCount { rings.append(try reader.points()) }
                polygons.append(Polygon(country: country, rings: rings))
            }
            var borders: [[OSMCoordinate]] = []
            let borderCount = try reader.count()
            for _ in 0..<borderCount { borders.append(try reader.points()) }
            bands.append(Band(minimumZoom: minimumZoom, toleranceMercatorDegrees: tolerance, polygons: polygons, borders: borders))
        }
        guard !bands.isEmpty, reader.offset == bytes.count else {
            throw reader.error(bands.isEmpty ? "no zoom bands" : "\(bytes.count - reader.offset) bytes after the last band")
        }
        self.countries = countries
        self.bands = bands
    }

    /// The file name of the shipped basemap.
    public static let shippedFileName = "world-basemap.bin"

    /// Where the shipped basemap is looked for, in order: `$LOOKAROUND_WORLD_BASEMAP`; the resource
    /// bundle SwiftPM copies beside the executable (`LookAround_MapData.resources/`); an installed
    /// copy, `../share/lookaround/` from the executable's folder (`make install`, the Debian package);
    /// and, for an executable inside a `.build` folder only (development and tests), the source tree
    /// this module was built from, so an installed binary never depends on where it was built.
    public static var searchPaths: [String] {
        var paths: [String] = []
        if let override = ProcessInfo.processInfo.environment["LOOKAROUND_WORLD_BASEMAP"], !override.isEmpty { paths.append(override) }
        var folders = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent(), executable != folders[0] {
            folders.append(executable)
        }
        for folder in folders {
            paths.append(folder.appendingPathComponent("LookAround_MapData.resources/\(shippedFileName)").path)
        }
        for folder in folders {
            paths.append(folder.deletingLastPathComponent().appendingPathComponent("share/lookaround/\(shippedFileName)").path)
        }
        if folders.contains(where: { $0.path.contains("/.build/") }) {
            paths.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Resources/\(shippedFileName)").path)
        }
        return paths
    }

    private static let loadedShipped: Result<WorldBasemap, any Error> = Result {
        let paths = searchPaths
        guard let path = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw MapDataError.worldBasemapNotFound(searched: paths)
        }
        return try WorldBasemap(contentsOfFile: path)
    }

    /// The shipped basemap, read once per process (about 2 MB, tens of milliseconds).
    /// - Throws: ``MapDataError/worldBasemapNotFound(searched:)`` when no copy is found,
    ///   ``MapDataError/malformedWorldBasemap(path:detail:)`` when it is damaged.
    public static func shipped() throws -> WorldBasemap { try loadedShipped.get() }
}

extension WorldBasemap {
    /// Varint / zigzag / delta-coded points, bounds-checked.
    struct Reader {
        static let unitsPerDegree = 1e4
        let bytes: [UInt8]
        let path: String
        var offset = 0

        func error(_ detail: String) -> MapDataError { .malformedWorldBasemap(path: path, detail: "\(detail) (at byte \(offset))") }

        mutating func expectMagic(_ magic: String) throws(MapDataError) {
            let m = Array(magic.utf8)
            guard bytes.count >= m.count, Array(bytes[0..<m.count]) == m else { throw error("not a world basemap (no \(magic) header)") }
            offset = m.count
        }

        mutating func varint() throws(MapDataError) -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard offset < bytes.count else { throw error("truncated") }
                guard shift < 64 else { throw error("varint too long") }
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }

        mutating func count() throws(MapDataError) -> Int {
            let v = try varint()
            guard v <= UInt64(bytes.count) else { throw error("count \(v) exceeds the file size") }
            return Int(v)
        }

        mutating func zigzag() throws(MapDataError) -> Int64 {
            let v = try varint()
            return Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
        }

        mutating func string() throws(MapDataError) -> String {
            let n = try count()
            guard offset + n <= bytes.count else { throw error("truncated string") }
            defer { offset += n }
            return String(decoding: bytes[offset..<(offset + n)], as: UTF8.self)
        }

        mutating func points() throws(MapDataError) -> [OSMCoordinate] {
            let n = try count()
            var out: [OSMCoordinate] = []
            out.reserveCapacity(n)
            var x: Int64 = 0, y: Int64 = 0
            for _ in 0..<n {
                x += try zigzag()
                y += try zigzag()
                out.append(OSMCoordinate(latitude: Double(y) / Self.unitsPerDegree, longitude: Double(x) / Self.unitsPerDegree))
            }
            return out
        }
    }
}

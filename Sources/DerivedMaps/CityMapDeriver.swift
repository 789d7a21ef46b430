import Catalog
import Foundation
import Geodesy
import Imaging
import MapData
import Simulator
import Storage

/// Depth and label maps for photos, derived from OpenStreetMap: the simulator's city model rendered at
/// each photo's pose (``Catalog/PanoramaMapDeriving``, used by `lookaround index` with an OSM extract).
///
/// - The pose is first refined against the model (``Simulator/PoseAligner``: the photo's skyline
///   against the model's, every heading, positions within ``Simulator/PoseAligner/searchRadiusMeters``);
///   a confident answer replaces the metadata heading and position, and is recorded either way.
/// - The camera stands ``Catalog/PanoramaRecord/cameraHeightMeters`` above the (flat) ground, else
///   ``Catalog/PanoramaRecord/assumedCameraHeightMeters``.
/// - The cost follows the photos: they are grouped into ``tileMeters`` squares, and each square's model
///   covers its photos plus ``horizonMeters`` (farther buildings are sky in the maps), built when the
///   square comes up and released after it. Signs and street-name plates are left out (they are
///   invented, and need fonts).
/// - Maps are a quarter of the photo's full width (``mapWidth(forFullWidth:)``), full sphere, in the
///   photo's pose: the layout of the simulator's own maps.
public struct CityMapDeriver: PanoramaMapDeriving {
    /// How far beyond the photos the city model reaches, metres.
    public static let horizonMeters = 250.0
    /// The decoded photo's width the skyline is read from is at least this many pixels.
    static let alignmentImageWidth = 1440

    /// Whether the pose is aligned with the model before the maps are rendered.
    public var alignsPose: Bool
    /// Threads for rendering (nil: all cores).
    public var maximumThreads: Int?

    /// A deriver; `alignsPose` false renders at the metadata pose.
    public init(alignsPose: Bool = true, maximumThreads: Int? = nil) {
        self.alignsPose = alignsPose
        self.maximumThreads = maximumThreads
    }

    /// The width of the derived maps for a panorama `fullWidth` pixels wide: a quarter, even, 256…2048.
    public static func mapWidth(forFullWidth fullWidth: Int) -> Int {
        min(2048, max(256, fullWidth / 8 * 2))
    }

    public func deriveMaps(for records: [PanoramaRecord], datasets: [MapDataset], directory: String,
                           progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?) -> [String: DerivedMapsOutcome] {
        var members = [[Int]](repeating: [], count: datasets.count)
        for (i, record) in records.enumerated() {
            let point = OSMCoordinate(latitude: record.coordinate.latitude, longitude: record.coordinate.longitude)
            if let d = datasets.firstIndex(where: { $0.boundingBox?.contains(point) ?? false }) { members[d].append(i) }
        }
        let total = members.reduce(0) { $0 + $1.count }
        var outcomes: [String: DerivedMapsOutcome] = [:]
        var done = 0
        for (d, indices) in members.enumerated() where !indices.isEmpty {
            // The cost follows the photos: one model per tile of photos (``tileMeters``) plus the horizon,
            // built when its photos come up and released after them.
            for group in Self.tiles(indices.map { records[$0].coordinate }) {
                let tile = group.map { indices[$0] }
                let points = tile.map { OSMCoordinate(latitude: records[$0].coordinate.latitude, longitude: records[$0].coordinate.longitude) }
                let model: CityModel
                do {
                    model = try CityModel(dataset: datasets[d], region: OSMBoundingBox(enclosing: points),
                                          options: CityModelOptions(marginMeters: Self.horizonMeters, includeSigns: false,
                                                                    includeStreetPlates: false))
                } catch {
                    for i in tile {
                        outcomes[records[i].id] = .failed("no depth and labels: the city model of \(datasets[d].sourcePath) could not be built (\(error))")
                    }
                    done += tile.count
                    progress?(done, total)
                    continue
                }
                for i in tile {
                    outcomes[records[i].id] = derive(records[i], model: model, directory: directory)
                    done += 1
                    progress?(done, total)
                }
            }
        }
        return outcomes
    }

    /// Photos are grouped into squares this wide for their models, metres (the simulator's tiles).
    public static let tileMeters = CaptureTiling.defaultTileMeters

    /// The indices of `coordinates` grouped by ``tileMeters`` squares (of a plane around their first), in
    /// the order each square first appears.
    static func tiles(_ coordinates: [GeoCoordinate]) -> [[Int]] {
        guard let first = coordinates.first, let frame = try? LocalTangentFrame(origin: first) else { return [] }
        let positions = coordinates.map { (try? frame.enu(from: $0)) ?? EastNorthUp(east: 0, north: 0, up: 0) }
        return CaptureTiling.squares(of: positions, side: tileMeters).map(\.members)
    }

    /// One photo's alignment and maps.
    func derive(_ original: PanoramaRecord, model: CityModel, directory: String) -> DerivedMapsOutcome {
        var record = original
        let height = record.cameraHeightMeters ?? PanoramaRecord.assumedCameraHeightMeters
        var position = model.position(of: record.coordinate, heightMeters: height)
        var notes: [String] = []
        if alignsPose {
            let photo: PhotoPanorama
            do { photo = try Self.photo(record) } catch {
                return .failed("no depth and labels: the photo could not be decoded for alignment (\(error))")
            }
            if let found = PoseAligner.align(photo: photo, model: model, position: position) {
                let alignment = PanoramaAlignment(
                    metadataHeadingDegrees: record.headingDegrees, metadataHeadingSource: record.headingSource,
                    metadataLatitude: record.coordinate.latitude, metadataLongitude: record.coordinate.longitude,
                    headingCorrectionDegrees: found.headingCorrectionDegrees, positionCorrectionMeters: found.positionCorrectionMeters,
                    confidence: found.confidence, residualDegrees: found.residualDegrees, applied: found.isConfident)
                record.alignment = alignment
                if found.isConfident {
                    record.headingDegrees = found.headingDegrees
                    record.headingSource = PanoramaAlignment.headingSource
                    record.coordinate = model.coordinate(of: found.position)
                    position = found.position
                    notes.append("pose aligned with the city model: " + alignment.summary)
                } else {
                    notes.append("pose not aligned: " + alignment.summary)
                }
            } else {
                notes.append("pose not aligned: too little of the skyline can be read (a band without its top, or no sky)")
            }
        }
        if model.isInsideBuilding(east: position.east, north: position.north) {
            return .failed("no depth and labels: the position is inside a building of the OSM data (GPS off by more "
                           + "than the alignment's \(Int(PoseAligner.searchRadiusMeters)) m, or a photo taken indoors)")
        }
        let maps: (depth: Gray16Image, labels: Gray8Image)
        do {
            let camera = try EquirectangularCamera(position: position, headingDegrees: record.headingDegrees,
                                                   pitchDegrees: record.pitchDegrees, rollDegrees: record.rollDegrees,
                                                   width: Self.mapWidth(forFullWidth: record.fullWidth))
            maps = model.renderDepthAndLabels(camera, maximumThreads: maximumThreads)
        } catch {
            return .failed("no depth and labels: \(error)")
        }
        // A folder or s3://BUCKET/PREFIX: each map written whole (a temporary file renamed, or one PUT).
        let stem = StorageLocation.joining(directory, record.id)
        let depthPath = stem + ".depth.png", labelsPath = stem + ".labels.png"
        do {
            try ObjectStorage.shared.write(try PNGCodec.encode(maps.depth), to: depthPath, contentType: "image/png")
            try ObjectStorage.shared.write(try PNGCodec.encode(maps.labels), to: labelsPath, contentType: "image/png")
        } catch {
            return .failed("no depth and labels: \(error)")
        }
        record.depthPath = depthPath
        record.labelsPath = labelsPath
        record.mapsSource = .derived
        record.cameraHeightMeters = height
        let heightNote = original.cameraHeightMeters == nil ? String(format: "%.1f m above the ground, assumed", height)
            : String(format: "%.1f m above the ground", height)
        record.warnings.removeAll { warning in PanoramaAlignment.warningPrefixes.contains { warning.hasPrefix($0) } }
        record.warnings.append("depth and labels derived from OpenStreetMap (the city model at the photo's pose, camera \(heightNote))")
        record.warnings += notes
        return .derived(record)
    }

    /// The photo as the aligner reads it: decoded at the smallest scale that keeps the full panorama at
    /// least ``alignmentImageWidth`` wide, its crop and pose from the record.
    static func photo(_ record: PanoramaRecord) throws -> PhotoPanorama {
        let bytes = try ObjectStorage.shared.read(record.imagePath, caching: false)
        let wanted = Double(alignmentImageWidth) / Double(max(1, record.fullWidth))
        let scale = JPEGScale.supported.filter { Double($0.numerator) / Double($0.denominator) >= min(1, wanted) }
            .min { Double($0.numerator) / Double($0.denominator) < Double($1.numerator) / Double($1.denominator) } ?? .full
        let image = try JPEGCodec.decodeRGB(bytes, file: record.imagePath, options: JPEGDecodeOptions(scale: scale)).image
        let f = Double(image.width) / Double(max(1, record.imageWidth))
        return PhotoPanorama(image: image, headingDegrees: record.headingDegrees, pitchDegrees: record.pitchDegrees,
                             rollDegrees: record.rollDegrees, fullWidth: Double(record.fullWidth) * f,
                             fullHeight: Double(record.fullHeight) * f, left: Double(record.croppedLeft) * f,
                             top: Double(record.croppedTop) * f)
    }
}

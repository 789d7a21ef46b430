import Foundation
import Geodesy

extension PanoramaRecord {
    /// Columns read by `init(reading:)`, for `SELECT \(selectColumns) FROM panoramas p JOIN sequences s ON s.id = p.sequence`.
    static let selectColumns = """
        p.id, p.latitude, p.longitude, p.ground_elevation_meters, p.camera_height_meters, p.altitude_meters, \
        p.capture_time, p.capture_time_source, p.heading_degrees, p.heading_source, p.pitch_degrees, p.roll_degrees, \
        p.image_width, p.image_height, p.full_width, p.full_height, p.cropped_left, p.cropped_top, \
        p.image_path, p.depth_path, p.labels_path, p.sidecar_path, p.source, p.make, p.model, \
        s.name, p.sequence_index, p.file_size, p.file_mtime, p.warnings, p.row, p.maps_source, p.alignment, p.file_etag
        """

    /// The INSERT matching `bind(to:row:sequence:)`.
    static let insertSQL = """
        INSERT INTO panoramas(row, id, latitude, longitude, ground_elevation_meters, camera_height_meters, altitude_meters,
            capture_time, capture_time_source, heading_degrees, heading_source, pitch_degrees, roll_degrees,
            image_width, image_height, full_width, full_height, cropped_left, cropped_top,
            image_path, depth_path, labels_path, sidecar_path, source, make, model,
            sequence, sequence_index, file_size, file_mtime, warnings, maps_source, alignment, file_etag)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22,
                ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34)
        """

    /// Reads a row selected with `selectColumns`.
    init(reading s: SQLiteDatabase.Statement, path: String) throws(CatalogError) {
        let coordinate: GeoCoordinate
        do {
            coordinate = try GeoCoordinate(latitude: s.double(1), longitude: s.double(2))
        } catch {
            throw .corruptIndex(path: path, detail: "panorama '\(s.string(0))' has a bad position: \(error)")
        }
        let warningsText = s.string(29)
        self.init(id: s.string(0), coordinate: coordinate, captureTime: Date(timeIntervalSince1970: s.double(6)),
                  headingDegrees: s.double(8), imageWidth: s.int(12), imageHeight: s.int(13), imagePath: s.string(18),
                  groundElevationMeters: s.optionalDouble(3), cameraHeightMeters: s.optionalDouble(4),
                  altitudeMeters: s.optionalDouble(5), captureTimeSource: s.string(7), headingSource: s.string(9),
                  pitchDegrees: s.double(10), rollDegrees: s.double(11), fullWidth: s.int(14), fullHeight: s.int(15),
                  croppedLeft: s.int(16), croppedTop: s.int(17), depthPath: s.optionalString(19),
                  labelsPath: s.optionalString(20), sidecarPath: s.optionalString(21),
                  mapsSource: s.optionalString(31).flatMap(PanoramaMapsSource.init(rawValue:)),
                  alignment: PanoramaAlignment(jsonText: s.optionalString(32)),
                  source: PanoramaSource(rawValue: s.string(22)) ?? .photo, make: s.optionalString(23),
                  model: s.optionalString(24), sequenceName: s.string(25), sequenceIndex: s.int(26),
                  fileSize: s.int64(27), fileModificationTime: s.double(28), fileEntityTag: s.optionalString(33),
                  warnings: warningsText.isEmpty ? [] : warningsText.components(separatedBy: "\n"))
    }

    /// Binds this record to `insertSQL`.
    func bind(to s: SQLiteDatabase.Statement, row: Int, sequence: Int) throws(CatalogError) {
        try s.bind(1, row)
        try s.bind(2, id)
        try s.bind(3, coordinate.latitude)
        try s.bind(4, coordinate.longitude)
        try s.bind(5, groundElevationMeters)
        try s.bind(6, cameraHeightMeters)
        try s.bind(7, altitudeMeters)
        try s.bind(8, captureTime.timeIntervalSince1970)
        try s.bind(9, captureTimeSource)
        try s.bind(10, headingDegrees)
        try s.bind(11, headingSource)
        try s.bind(12, pitchDegrees)
        try s.bind(13, rollDegrees)
        try s.bind(14, imageWidth)
        try s.bind(15, imageHeight)
        try s.bind(16, fullWidth)
        try s.bind(17, fullHeight)
        try s.bind(18, croppedLeft)
        try s.bind(19, croppedTop)
        try s.bind(20, imagePath)
        try s.bind(21, depthPath)
        try s.bind(22, labelsPath)
        try s.bind(23, sidecarPath)
        try s.bind(24, source.rawValue)
        try s.bind(25, make)
        try s.bind(26, model)
        try s.bind(27, sequence)
        try s.bind(28, sequenceIndex)
        try s.bind(29, fileSize)
        try s.bind(30, fileModificationTime)
        try s.bind(31, warnings.joined(separator: "\n"))
        try s.bind(32, mapsSource?.rawValue)
        try s.bind(33, alignment?.jsonText)
        try s.bind(34, fileEntityTag)
    }
}

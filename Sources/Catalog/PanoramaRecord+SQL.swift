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

    /// The INSERT matching `bind(to:row:sequence:)`: the SQLite table's columns (``PanoramaTable``) in order.
    static let insertSQL: String = {
        let names = PanoramaTable.columns.filter { $0.sqliteVersion != nil }.map(\.name)
        return "INSERT INTO panoramas(\(names.joined(separator: ", "))) VALUES ("
            + (1...names.count).map { "?\($0)" }.joined(separator: ", ") + ")"
    }()

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
        var binder = SQLiteColumnBinder(statement: s)
        try write(to: &binder, row: row, sequence: sequence)
    }

    /// Writes the record's column values in ``PanoramaTable`` order, for SQLite's INSERT and PostGIS's COPY:
    /// `row`, `id`, the position, then `indexColumns` (PostGIS's point and query-index columns, which a
    /// SQLite catalog keeps in memory instead), then the rest.
    func write<Sink: PanoramaColumnSink>(to sink: inout Sink, row: Int, sequence: Int,
                                         indexColumns: (inout Sink) throws(CatalogError) -> Void = { _ in })
    throws(CatalogError) {
        try sink.put(row)
        try sink.put(id)
        try sink.put(coordinate.latitude)
        try sink.put(coordinate.longitude)
        try indexColumns(&sink)
        try sink.put(groundElevationMeters)
        try sink.put(cameraHeightMeters)
        try sink.put(altitudeMeters)
        try sink.put(captureTime.timeIntervalSince1970)
        try sink.put(captureTimeSource)
        try sink.put(headingDegrees)
        try sink.put(headingSource)
        try sink.put(pitchDegrees)
        try sink.put(rollDegrees)
        try sink.put(imageWidth)
        try sink.put(imageHeight)
        try sink.put(fullWidth)
        try sink.put(fullHeight)
        try sink.put(croppedLeft)
        try sink.put(croppedTop)
        try sink.put(imagePath)
        try sink.put(depthPath)
        try sink.put(labelsPath)
        try sink.put(sidecarPath)
        try sink.put(source.rawValue)
        try sink.put(make)
        try sink.put(model)
        try sink.put(sequence)
        try sink.put(sequenceIndex)
        try sink.put(fileSize)
        try sink.put(fileModificationTime)
        try sink.put(warnings.joined(separator: "\n"))
        try sink.put(mapsSource?.rawValue)
        try sink.put(alignment?.jsonText)
        try sink.put(fileEntityTag)
    }
}

/// Where ``PanoramaRecord/write(to:row:sequence:indexColumns:)`` puts a row's values, one column after
/// the other (nil is NULL): a SQLite statement's parameters or a PostgreSQL COPY buffer.
protocol PanoramaColumnSink {
    mutating func put(_ value: Int64?) throws(CatalogError)
    mutating func put(_ value: Double?) throws(CatalogError)
    mutating func put(_ value: String?) throws(CatalogError)
}

extension PanoramaColumnSink {
    mutating func put(_ value: Int?) throws(CatalogError) { try put(value.map(Int64.init)) }
}

/// Binds the values to a statement's parameters ?1, ?2, … in order.
struct SQLiteColumnBinder: PanoramaColumnSink {
    let statement: SQLiteDatabase.Statement
    private var index: Int32 = 0

    init(statement: SQLiteDatabase.Statement) { self.statement = statement }

    mutating func put(_ value: Int64?) throws(CatalogError) { index += 1; try statement.bind(index, value) }
    mutating func put(_ value: Double?) throws(CatalogError) { index += 1; try statement.bind(index, value) }
    mutating func put(_ value: String?) throws(CatalogError) { index += 1; try statement.bind(index, value) }
}

extension PostgresConnection.CopyBuffer: PanoramaColumnSink {
    mutating func put(_ value: Int64?) { field(value) }
    mutating func put(_ value: Double?) { field(value) }
    mutating func put(_ value: String?) { field(value) }
}

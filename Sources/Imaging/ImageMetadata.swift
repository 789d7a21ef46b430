import Foundation

/// What a panorama or photo says about itself: EXIF (camera, time, GPS position and direction) and
/// Google's GPano XMP fields. Every field is optional; `nil` means "not in the file" / "do not write".
///
/// Written by `JPEGCodec.encode(_:quality:subsampling:metadata:)` as APP1 segments after SOI, read by
/// `ImageMetadata.read(fromJPEG:file:)` without decoding pixels.
public struct ImageMetadata: Sendable, Hashable {
    /// WGS84 latitude in degrees, −90…90 (north positive). EXIF GPSLatitude + GPSLatitudeRef.
    public var latitudeDegrees: Double?
    /// WGS84 longitude in degrees, −180…180 (east positive). EXIF GPSLongitude + GPSLongitudeRef.
    public var longitudeDegrees: Double?
    /// Altitude above mean sea level in metres (negative below). EXIF GPSAltitude + GPSAltitudeRef.
    public var altitudeMeters: Double?
    /// Direction the image centre faces, degrees clockwise from true north, 0…<360.
    /// EXIF GPSImgDirection with GPSImgDirectionRef "T".
    public var imageDirectionDegrees: Double?
    /// The GPS fix time (UTC). EXIF GPSDateStamp + GPSTimeStamp; written to the millisecond.
    public var gpsTimestamp: Date?
    /// Local capture time as EXIF writes it, `"YYYY:MM:DD HH:MM:SS"` (no time zone). EXIF DateTimeOriginal.
    public var dateTimeOriginal: String?
    /// Fractions of a second of DateTimeOriginal, digits as written ("25" is 0.25 s). EXIF SubSecTimeOriginal.
    public var subSecTimeOriginal: String?
    /// DateTimeOriginal's offset from UTC, `"+HH:MM"` or `"-HH:MM"`. EXIF OffsetTimeOriginal (EXIF 2.31).
    public var offsetTimeOriginal: String?
    /// Camera maker (EXIF Make), ASCII.
    public var make: String?
    /// Camera model (EXIF Model), ASCII.
    public var model: String?
    /// The camera body's serial number (EXIF BodySerialNumber, tag 0xA431 in the Exif IFD; exiftool's
    /// `ExifIFD:SerialNumber`), ASCII. Tells two cameras of one model apart.
    public var bodySerialNumber: String?
    /// Image width in pixels as EXIF records it (PixelXDimension; ImageWidth when reading older files).
    public var imageWidth: Int?
    /// Image height in pixels (PixelYDimension; ImageLength when reading).
    public var imageHeight: Int?
    /// Google Photo Sphere (GPano) fields from the XMP packet.
    public var panorama: PanoramaMetadata?

    /// Metadata with the given fields (all optional).
    public init(latitudeDegrees: Double? = nil, longitudeDegrees: Double? = nil, altitudeMeters: Double? = nil,
                imageDirectionDegrees: Double? = nil, gpsTimestamp: Date? = nil, dateTimeOriginal: String? = nil,
                make: String? = nil, model: String? = nil, bodySerialNumber: String? = nil,
                imageWidth: Int? = nil, imageHeight: Int? = nil, panorama: PanoramaMetadata? = nil) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.altitudeMeters = altitudeMeters
        self.imageDirectionDegrees = imageDirectionDegrees
        self.gpsTimestamp = gpsTimestamp
        self.dateTimeOriginal = dateTimeOriginal
        self.make = make
        self.model = model
        self.bodySerialNumber = bodySerialNumber
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.panorama = panorama
    }

    /// Whether any EXIF field is set.
    var hasExif: Bool {
        latitudeDegrees != nil || longitudeDegrees != nil || altitudeMeters != nil || imageDirectionDegrees != nil
            || gpsTimestamp != nil || dateTimeOriginal != nil || make != nil || model != nil || bodySerialNumber != nil || imageWidth != nil
            || imageHeight != nil
    }

    /// Checks every value against its range before writing.
    /// - Throws: `ImagingError.invalidParameter` naming the field, the value and the range.
    public func validate() throws {
        func check(_ name: String, _ value: Double?, _ range: ClosedRange<Double>, _ text: String) throws {
            if let value, !(range.contains(value)) {
                throw ImagingError.invalidParameter(name: name, value: "\(value)", allowed: text)
            }
        }
        try check("latitude", latitudeDegrees, -90...90, "-90…90 degrees")
        try check("longitude", longitudeDegrees, -180...180, "-180…180 degrees")
        try check("altitude", altitudeMeters, -1e6...1e6, "-1000000…1000000 metres")
        if let d = imageDirectionDegrees, !(d >= 0 && d < 360) {
            throw ImagingError.invalidParameter(name: "image direction", value: "\(d)", allowed: "0…<360 degrees")
        }
        if let t = gpsTimestamp, !(t.timeIntervalSince1970 >= -62_135_596_800 && t.timeIntervalSince1970 < 253_402_300_800) {
            throw ImagingError.invalidParameter(name: "GPS timestamp", value: "\(t)", allowed: "years 0001…9999")
        }
        if let s = dateTimeOriginal, !ImageMetadata.isExifDateTime(s) {
            throw ImagingError.invalidParameter(name: "DateTimeOriginal", value: "'\(s)'",
                                                allowed: "\"YYYY:MM:DD HH:MM:SS\"")
        }
        if let s = subSecTimeOriginal, s.isEmpty || !s.utf8.allSatisfy({ (48...57).contains($0) }) {
            throw ImagingError.invalidParameter(name: "SubSecTimeOriginal", value: "'\(s)'", allowed: "decimal digits, e.g. \"250\"")
        }
        if let s = offsetTimeOriginal, ImageMetadata.utcOffsetSeconds(s) == nil {
            throw ImagingError.invalidParameter(name: "OffsetTimeOriginal", value: "'\(s)'", allowed: "\"+HH:MM\" or \"-HH:MM\", up to ±14:00")
        }
        for (name, text) in [("Make", make), ("Model", model), ("BodySerialNumber", bodySerialNumber)] {
            if let text, !text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) {
                throw ImagingError.invalidParameter(name: name, value: "'\(text)'", allowed: "printable ASCII")
            }
        }
        for (name, value) in [("image width", imageWidth), ("image height", imageHeight)] {
            if let value, !(1...Int(UInt32.max)).contains(value) {
                throw ImagingError.invalidParameter(name: name, value: "\(value)", allowed: "1…4294967295 pixels")
            }
        }
        try panorama?.validate()
    }

    /// `"YYYY:MM:DD HH:MM:SS"` with digits where digits belong.
    static func isExifDateTime(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 19 else { return false }
        for (i, c) in u.enumerated() {
            switch i {
            case 4, 7: if c != UInt8(ascii: ":") { return false }
            case 10: if c != UInt8(ascii: " ") { return false }
            case 13, 16: if c != UInt8(ascii: ":") { return false }
            default: if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) { return false }
            }
        }
        return true
    }
}

import Foundation
import Testing
@testable import Imaging

/// Tolerances that follow from the fixed-point resolutions EXIF stores (see `ExifResolution`).
enum MetadataTolerance {
    /// 1/10000 arc-second is 2.8e-8 degrees; half of it after rounding.
    static let degrees = 1.5e-8
    static let altitudeMeters = 0.0005
    static let directionDegrees = 0.00005
    static let seconds = 0.0005
}

let samplePanorama = PanoramaMetadata(
    projectionType: "equirectangular", usePanoramaViewer: true, poseHeadingDegrees: 271.25,
    posePitchDegrees: -2.5, poseRollDegrees: 0.75, fullPanoWidthPixels: 8192, fullPanoHeightPixels: 4096,
    croppedAreaImageWidthPixels: 8192, croppedAreaImageHeightPixels: 4096, croppedAreaLeftPixels: 0,
    croppedAreaTopPixels: 0, captureSoftware: "lookaround <simulator> & tests")

/// Values in all four quadrants, with and without the optional parts.
let sampleMetadata: [ImageMetadata] = [
    ImageMetadata(latitudeDegrees: 60.169_856_2, longitudeDegrees: 24.938_379_1, altitudeMeters: 12.345,
                  imageDirectionDegrees: 271.25, gpsTimestamp: Date(timeIntervalSince1970: 1_718_962_215.25),
                  dateTimeOriginal: "2024:06:21 12:30:15", make: "LookAround", model: "Simulator 1",
                  bodySerialNumber: "C3351324514062", imageWidth: 8192, imageHeight: 4096, panorama: samplePanorama),
    ImageMetadata(latitudeDegrees: -33.856_784, longitudeDegrees: -151.215_297, altitudeMeters: -27.5,
                  imageDirectionDegrees: 0, gpsTimestamp: Date(timeIntervalSince1970: 0)),
    ImageMetadata(latitudeDegrees: 89.999_999_9, longitudeDegrees: -179.999_999_9),
    ImageMetadata(panorama: .equirectangular(width: 4096, height: 2048, headingDegrees: 90)),
    ImageMetadata(make: "Only Make"),
    ImageMetadata(bodySerialNumber: "Only a serial"),
]

func expectClose(_ a: Double?, _ b: Double?, _ tolerance: Double, _ name: String,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    guard let a, let b else {
        #expect(a == nil && b == nil, "\(name): \(String(describing: a)) vs \(String(describing: b))",
                sourceLocation: sourceLocation)
        return
    }
    #expect(abs(a - b) <= tolerance, "\(name): \(a) vs \(b)", sourceLocation: sourceLocation)
}

func expectSame(_ read: ImageMetadata, _ written: ImageMetadata, sourceLocation: SourceLocation = #_sourceLocation) {
    expectClose(read.latitudeDegrees, written.latitudeDegrees, MetadataTolerance.degrees, "latitude", sourceLocation: sourceLocation)
    expectClose(read.longitudeDegrees, written.longitudeDegrees, MetadataTolerance.degrees, "longitude", sourceLocation: sourceLocation)
    expectClose(read.altitudeMeters, written.altitudeMeters, MetadataTolerance.altitudeMeters, "altitude", sourceLocation: sourceLocation)
    expectClose(read.imageDirectionDegrees, written.imageDirectionDegrees, MetadataTolerance.directionDegrees,
                "direction", sourceLocation: sourceLocation)
    expectClose(read.gpsTimestamp?.timeIntervalSince1970, written.gpsTimestamp?.timeIntervalSince1970,
                MetadataTolerance.seconds, "GPS time", sourceLocation: sourceLocation)
    #expect(read.dateTimeOriginal == written.dateTimeOriginal, sourceLocation: sourceLocation)
    #expect(read.make == written.make && read.model == written.model, sourceLocation: sourceLocation)
    #expect(read.bodySerialNumber == written.bodySerialNumber, sourceLocation: sourceLocation)
    #expect(read.imageWidth == written.imageWidth && read.imageHeight == written.imageHeight, sourceLocation: sourceLocation)
    #expect(read.panorama == written.panorama, sourceLocation: sourceLocation)
}

private let exiftoolPath = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

@Suite("EXIF and GPano XMP metadata")
struct MetadataTests {
    @Test("written metadata reads back identically (within EXIF's stored resolution), both byte orders",
          arguments: sampleMetadata.indices, [ExifByteOrder.littleEndian, .bigEndian])
    func roundTrip(_ index: Int, _ byteOrder: ExifByteOrder) throws {
        let metadata = sampleMetadata[index]
        let plain = try JPEGCodec.encode(smoothRGB(width: 24, height: 12), quality: 80)
        let jpeg = try metadata.replacingMetadata(in: plain, byteOrder: byteOrder)
        let result = try ImageMetadata.read(fromJPEG: jpeg)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(result.pixelSize == PixelSize(width: 24, height: 12))
        expectSame(result.metadata, metadata)
        // Pixels are untouched by the metadata.
        #expect(try JPEGCodec.decodeRGB(jpeg).image == JPEGCodec.decodeRGB(plain).image)
        // Reading what we read and writing it again is stable.
        let again = try ImageMetadata.read(fromJPEG: result.metadata.replacingMetadata(in: jpeg)).metadata
        #expect(again == result.metadata)
    }

    @Test("JPEGCodec.encode writes the APP1 segments directly after SOI; no metadata reads as empty")
    func encodeWithMetadata() throws {
        let jpeg = try JPEGCodec.encode(smoothRGB(width: 16, height: 8), metadata: sampleMetadata[0])
        #expect(Array(jpeg[0..<4]) == [0xFF, 0xD8, 0xFF, 0xE1])
        expectSame(try ImageMetadata.read(fromJPEG: jpeg).metadata, sampleMetadata[0])
        let none = try ImageMetadata.read(fromJPEG: JPEGCodec.encode(smoothRGB(width: 16, height: 8)))
        #expect(none.metadata == ImageMetadata() && none.warnings.isEmpty)
    }

    @Test("files written by exiftool (big-endian EXIF) and XMP as elements under another prefix are read")
    func foreignFiles() throws {
        let exif = try ImageMetadata.read(fromJPEG: fixture("metadata/exiftool-big-endian.jpg"))
        #expect(exif.warnings.isEmpty, "\(exif.warnings)")
        expectSame(exif.metadata, ImageMetadata(
            latitudeDegrees: 60.1699, longitudeDegrees: 24.9384, altitudeMeters: 12.5, imageDirectionDegrees: 271.25,
            gpsTimestamp: Date(timeIntervalSince1970: 1_718_962_215), dateTimeOriginal: "2024:06:21 12:30:15",
            make: "Ricoh", model: "Theta Z1"))
        let xmp = try ImageMetadata.read(fromJPEG: fixture("metadata/xmp-elements-other-prefix.jpg"))
        #expect(xmp.metadata.panorama == PanoramaMetadata(
            projectionType: "equirectangular", usePanoramaViewer: true, poseHeadingDegrees: 123.5,
            posePitchDegrees: -1.25, poseRollDegrees: 0.5, fullPanoWidthPixels: 5376, fullPanoHeightPixels: 2688,
            croppedAreaImageWidthPixels: 5376, croppedAreaImageHeightPixels: 2688, croppedAreaLeftPixels: 0,
            croppedAreaTopPixels: 0, captureSoftware: "Theta & Co"))
    }

    @Test("out-of-range values are refused with the field, value and range")
    func validation() {
        let cases: [(ImageMetadata, name: String, value: String, allowed: String)] = [
            (ImageMetadata(latitudeDegrees: 90.5), "latitude", "90.5", "-90…90 degrees"),
            (ImageMetadata(longitudeDegrees: -181), "longitude", "-181.0", "-180…180 degrees"),
            (ImageMetadata(latitudeDegrees: .nan), "latitude", "nan", "-90…90 degrees"),
            (ImageMetadata(imageDirectionDegrees: 360), "image direction", "360.0", "0…<360 degrees"),
            (ImageMetadata(dateTimeOriginal: "2024-06-21T12:30:15"), "DateTimeOriginal", "'2024-06-21T12:30:15'",
             "\"YYYY:MM:DD HH:MM:SS\""),
            (ImageMetadata(make: "Café"), "Make", "'Café'", "printable ASCII"),
            (ImageMetadata(bodySerialNumber: "C335\n"), "BodySerialNumber", "'C335\n'", "printable ASCII"),
            (ImageMetadata(panorama: PanoramaMetadata(poseHeadingDegrees: -1)), "PoseHeadingDegrees", "-1.0", "0…<360"),
            (ImageMetadata(panorama: PanoramaMetadata(fullPanoWidthPixels: 0)), "FullPanoWidthPixels", "0", "1 or more pixels"),
        ]
        for (m, name, value, allowed) in cases {
            #expect(throws: ImagingError.invalidParameter(name: name, value: value, allowed: allowed)) {
                try JPEGCodec.encode(smoothRGB(width: 8, height: 8), metadata: m)
            }
        }
    }

    @Test("reading from a file path loads only the headers it needs")
    func fromFile() throws {
        let path = NSTemporaryDirectory() + "lookaround-metadata-\(getpid()).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ImageFile.write(try JPEGCodec.encode(smoothRGB(width: 16, height: 16), metadata: sampleMetadata[1]), to: path)
        expectSame(try ImageMetadata.read(fromJPEGFile: path).metadata, sampleMetadata[1])
        // Headers longer than the 256 KiB first read (five 60 KB APP2 segments before the EXIF) are
        // still read: the reader falls back to the whole file.
        let tagged = try JPEGCodec.encode(smoothRGB(width: 16, height: 16), metadata: sampleMetadata[0])
        let filler = (0..<5).flatMap { _ in [0xFF, 0xE2, 0xEA, 0x62] + [UInt8](repeating: 7, count: 60_000) }
        try ImageFile.write([0xFF, 0xD8] + filler + tagged.dropFirst(2), to: path)
        let long = try ImageMetadata.read(fromJPEGFile: path)
        #expect(long.warnings.isEmpty, "\(long.warnings)")
        expectSame(long.metadata, sampleMetadata[0])
        #expect(throws: ImagingError.fileNotFound(path: path + ".missing")) {
            try ImageMetadata.read(fromJPEGFile: path + ".missing")
        }
    }

    @Test("exiftool reports the values we wrote", .enabled(if: exiftoolPath != nil, "exiftool is not installed"),
          arguments: [0, 1])
    func exiftoolAgrees(_ index: Int) throws {
        guard let exiftoolPath else { return }
        let metadata = sampleMetadata[index]
        let path = NSTemporaryDirectory() + "lookaround-exiftool-\(getpid())-\(index).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ImageFile.write(try JPEGCodec.encode(smoothRGB(width: 16, height: 16), metadata: metadata), to: path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: exiftoolPath)
        process.arguments = ["-n", "-j", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try JSONSerialization.jsonObject(with: output) as? [[String: Any]]
        let tags = try #require(json?.first)
        func number(_ key: String) -> Double? {
            if let n = tags[key] as? NSNumber { return n.doubleValue }
            return (tags[key] as? String).flatMap(Double.init)
        }
        #expect((tags["Warning"] as? String) == nil, "exiftool warns: \(tags["Warning"] ?? "")")
        expectClose(number("GPSLatitude"), metadata.latitudeDegrees, MetadataTolerance.degrees, "GPSLatitude")
        expectClose(number("GPSLongitude"), metadata.longitudeDegrees, MetadataTolerance.degrees, "GPSLongitude")
        // exiftool's composite GPSAltitude is signed (GPSAltitudeRef 1 = below sea level applied).
        expectClose(number("GPSAltitude"), metadata.altitudeMeters, MetadataTolerance.altitudeMeters, "GPSAltitude")
        if let altitude = metadata.altitudeMeters { #expect(number("GPSAltitudeRef") == (altitude < 0 ? 1 : 0)) }
        expectClose(number("GPSImgDirection"), metadata.imageDirectionDegrees, MetadataTolerance.directionDegrees,
                    "GPSImgDirection")
        if metadata.imageDirectionDegrees != nil { #expect(tags["GPSImgDirectionRef"] as? String == "T") }
        if let time = metadata.gpsTimestamp {
            let (date, h, m, ms) = ImageMetadata.utcComponents(time)
            #expect(tags["GPSDateStamp"] as? String == date)
            let stamp = String(describing: tags["GPSTimeStamp"] ?? "")
            let parts = stamp.split(separator: ":").compactMap { Double($0) }
            #expect(parts.count == 3 && parts[0] == Double(h) && parts[1] == Double(m)
                    && abs(parts[2] - Double(ms) / 1000) < 0.001, "GPSTimeStamp \(stamp)")
        }
        #expect(tags["DateTimeOriginal"] as? String == metadata.dateTimeOriginal)
        #expect(tags["Make"] as? String == metadata.make)
        #expect(tags["Model"] as? String == metadata.model)
        #expect(tags["SerialNumber"] as? String == metadata.bodySerialNumber)
        #expect(number("ExifImageWidth").map { Int($0) } == metadata.imageWidth)
        #expect(number("ExifImageHeight").map { Int($0) } == metadata.imageHeight)
        if let p = metadata.panorama {
            #expect(tags["ProjectionType"] as? String == p.projectionType)
            #expect((tags["UsePanoramaViewer"] as? Bool) == p.usePanoramaViewer)
            expectClose(number("PoseHeadingDegrees"), p.poseHeadingDegrees, 0, "PoseHeadingDegrees")
            expectClose(number("PosePitchDegrees"), p.posePitchDegrees, 0, "PosePitchDegrees")
            expectClose(number("PoseRollDegrees"), p.poseRollDegrees, 0, "PoseRollDegrees")
            #expect(number("FullPanoWidthPixels").map { Int($0) } == p.fullPanoWidthPixels)
            #expect(number("FullPanoHeightPixels").map { Int($0) } == p.fullPanoHeightPixels)
            #expect(number("CroppedAreaImageWidthPixels").map { Int($0) } == p.croppedAreaImageWidthPixels)
            #expect(number("CroppedAreaImageHeightPixels").map { Int($0) } == p.croppedAreaImageHeightPixels)
            #expect(number("CroppedAreaLeftPixels").map { Int($0) } == p.croppedAreaLeftPixels)
            #expect(number("CroppedAreaTopPixels").map { Int($0) } == p.croppedAreaTopPixels)
            #expect(tags["CaptureSoftware"] as? String == p.captureSoftware)
        }
    }
}

@Suite("XMP parsing")
struct XMPParsingTests {
    static let cases: [(String, PanoramaMetadata?, Int)] = [
        // Attributes, single quotes, spaces around '=', and a longer name that must not match.
        ("<x:xmpmeta><rdf:RDF><rdf:Description xmlns:GPano='http://ns.google.com/photos/1.0/panorama/' "
         + "GPano:PoseHeadingDegreesX='1' GPano:PoseHeadingDegrees = '42.5' GPano:ProjectionType='equirectangular'/>"
         + "</rdf:RDF></x:xmpmeta>",
         PanoramaMetadata(projectionType: "equirectangular", poseHeadingDegrees: 42.5), 0),
        // A value that does not parse is a warning; the others are kept.
        ("<x:xmpmeta><rdf:Description xmlns:GPano=\"http://ns.google.com/photos/1.0/panorama/\" "
         + "GPano:FullPanoWidthPixels=\"wide\" GPano:UsePanoramaViewer=\"False\"/></x:xmpmeta>",
         PanoramaMetadata(usePanoramaViewer: false), 1),
        // XMP without the GPano namespace: nothing, no warning.
        ("<x:xmpmeta><rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"/></x:xmpmeta>", nil, 0),
        // Not XML at all.
        ("GPano:PoseHeadingDegrees=90", nil, 1),
    ]

    @Test("attributes, elements, odd spacing and bad values", arguments: cases.indices)
    func parse(_ index: Int) {
        let (text, expected, warningCount) = Self.cases[index]
        var warnings: [String] = []
        let parsed = ImageMetadata.parseXMP(ArraySlice(Array(text.utf8)), warnings: &warnings)
        #expect(parsed == expected)
        #expect(warnings.count == warningCount, "\(warnings)")
    }
}

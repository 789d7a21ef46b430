import Foundation
import Imaging
import Testing

/// DateTimeOriginal with its sub-second and time-zone fields, and the ISO 8601 form some capture systems write.
@Suite struct CaptureTimeTests {
    static let base = 1_720_174_530.0   // 2024-07-05T10:15:30Z

    @Test(arguments: [
        ("2024:07:05 10:15:30", nil, nil, base),
        ("2024:07:05 10:15:30", "25", nil, base + 0.25),
        ("2024:07:05 10:15:30", "250", "+02:00", base + 0.25 - 7200),
        ("2024:07:05 10:15:30", nil, "-05:30", base + 19_800),
        ("2024-07-05T10:15:30.250+02:00", nil, nil, base + 0.25 - 7200),   // ISO 8601 with fraction and offset
        ("2024-07-05T10:15:30Z", "5", nil, base + 0.5),
        ("2024-07-05T10:15:30.75", nil, "+01:00", base + 0.75 - 3600),
    ] as [(String, String?, String?, Double)])
    func readsTheFractionAndTheOffset(text: String, subSec: String?, offset: String?, expected: Double) {
        var metadata = ImageMetadata(dateTimeOriginal: text)
        metadata.subSecTimeOriginal = subSec
        metadata.offsetTimeOriginal = offset
        let date = metadata.dateTimeOriginalDate
        #expect(date.map { abs($0.timeIntervalSince1970 - expected) < 1e-6 } == true, "\(text) \(subSec ?? "") \(offset ?? ""): \(String(describing: date))")
    }

    @Test func theFieldsSurviveAJPEGAndBadOnesAreRefused() throws {
        var metadata = ImageMetadata(dateTimeOriginal: "2024:07:05 10:15:30")
        metadata.subSecTimeOriginal = "042"
        metadata.offsetTimeOriginal = "+03:00"
        let jpeg = try JPEGCodec.encode(RGB8Image(width: 8, height: 8), quality: 80, metadata: metadata)
        let read = try ImageMetadata.read(fromJPEG: jpeg).metadata
        #expect(read.subSecTimeOriginal == "042" && read.offsetTimeOriginal == "+03:00")
        #expect(read.dateTimeOriginalDate.map { abs($0.timeIntervalSince1970 - (Self.base + 0.042 - 10_800)) < 1e-6 } == true)
        metadata.offsetTimeOriginal = "+25:00"
        #expect(throws: ImagingError.invalidParameter(name: "OffsetTimeOriginal", value: "'+25:00'",
                                                      allowed: "\"+HH:MM\" or \"-HH:MM\", up to ±14:00")) {
            try JPEGCodec.encode(RGB8Image(width: 8, height: 8), quality: 80, metadata: metadata)
        }
    }
}

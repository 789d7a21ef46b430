import Imaging
import Testing

/// The heading policy's table of cases (README, "Heading policy").
@Suite struct CaptureHeadingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var pose: Double?, direction: Double?, make: String?, model: String?
        var degrees: Double?, source: String?, note: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "pose only", pose: 67, direction: nil, make: "Google", model: "Pixel 3", degrees: 67, source: "PoseHeadingDegrees", note: nil),
        Case(name: "direction only (THETA Z1 style)", pose: nil, direction: 123.5, make: "RICOH", model: "RICOH THETA Z1",
             degrees: 123.5, source: "GPSImgDirection", note: nil),
        Case(name: "both agree", pose: 90, direction: 90.4, make: "Insta360", model: "X3", degrees: 90, source: "PoseHeadingDegrees", note: nil),
        Case(name: "GoPro Max placeholder 0 with a compass", pose: 0, direction: 349.06, make: "GoPro", model: "GoPro Max",
             degrees: 349.06, source: "GPSImgDirection", note: "placeholder the GoPro Max writes in every file"),
        Case(name: "GoPro Max 0 its compass confirms (a frame of a recording heading north)", pose: 0, direction: 0.4, make: "GoPro",
             model: "GoPro Max", degrees: 0, source: "PoseHeadingDegrees", note: nil),
        Case(name: "GoPro Max placeholder without a compass", pose: 0, direction: nil, make: "GoPro", model: "GoPro Max",
             degrees: nil, source: nil, note: "no GPSImgDirection either"),
        Case(name: "another camera's 0 against its compass", pose: 0, direction: 200, make: "Acme", model: "Cam 1",
             degrees: 200, source: "GPSImgDirection", note: "contradicts GPSImgDirection 200°: read as a placeholder"),
        Case(name: "a real 0 (the compass agrees across north)", pose: 0, direction: 359.5, make: "Acme", model: "Cam 1",
             degrees: 0, source: "PoseHeadingDegrees", note: nil),
        Case(name: "pose and compass disagree: the pose is kept", pose: 120, direction: 10, make: "Acme", model: "Cam 1",
             degrees: 120, source: "PoseHeadingDegrees", note: "disagree; kept the pose"),
        Case(name: "no heading at all (THETA V, drone)", pose: nil, direction: nil, make: "RICOH", model: "RICOH THETA V",
             degrees: nil, source: nil, note: nil),
    ]

    @Test(arguments: cases)
    func policy(_ test: Case) {
        var metadata = ImageMetadata(imageDirectionDegrees: test.direction, make: test.make, model: test.model)
        if let pose = test.pose { metadata.panorama = PanoramaMetadata.equirectangular(width: 64, height: 32, headingDegrees: pose) }
        let heading = CaptureHeading(metadata)
        #expect(heading.degrees == test.degrees && heading.source == test.source, "\(heading)")
        if let note = test.note {
            #expect(heading.notes.contains { $0.contains(note) }, "\(heading.notes)")
        } else {
            #expect(heading.notes.isEmpty, "\(heading.notes)")
        }
    }
}

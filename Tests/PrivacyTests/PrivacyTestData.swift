import Foundation
import Geodesy
import Imaging
import Reprojection
import Testing
@testable import Privacy

/// Inputs of the privacy tests: SGBlur's fixture and real photos from ../shared/data beside the
/// project, and the real face and plate crops of Fixtures/crops (README there for their licences).
enum PrivacyTestData {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// ../shared/data beside the project (CI lays it there), or `$LOOKAROUND_SHARED_DATA`.
    static let shared = ProcessInfo.processInfo.environment["LOOKAROUND_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
        ?? repository.deletingLastPathComponent().appendingPathComponent("shared/data")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// SGBlur's own fixture (MIT): a face near x 450–470, y 130–157 and a cycle-lane sign near x 160–190, y 113–145.
    static var sgblurFixture: String { shared.appendingPathComponent("blur/flat_urban_with_face_and_sign_small.jpg").path }
    static let fixtureFace = PixelBox(x: 450, y: 130, width: 20, height: 27)
    static let fixtureSign = PixelBox(x: 160, y: 113, width: 30, height: 32)

    /// Bytes of a file from ../shared/data, or the test is cancelled naming what is missing.
    static func sharedFile(_ relative: String) throws -> [UInt8] {
        let path = shared.appendingPathComponent(relative).path
        guard FileManager.default.fileExists(atPath: path) else {
            try Test.cancel("skipped: \(path) is missing (../shared/data beside the project)")
        }
        return try ImageFile.read(path)
    }

    static func crop(_ name: String) throws -> RGB8Image {
        try PNGCodec.decodeRGB(try ImageFile.read(fixtures.appendingPathComponent("crops/\(name)").path))
    }

    /// One detector for all tests (loading the models once).
    static let detector = Result { try PrivacyDetector() }

    static func decode(_ jpeg: [UInt8]) throws -> RGB8Image { try JPEGCodec.decodeRGB(jpeg).image }

    /// `crop` scaled by `scale` (bilinear), pasted with its centre at (`x`, `y`) of an equirectangular
    /// `panorama`, wrapping across the ±180° seam.
    static func pasteAcrossSeam(_ crop: RGB8Image, scale: Double, centerX: Double, centerY: Double, into panorama: inout RGB8Image) {
        let width = Int((Double(crop.width) * scale).rounded()), height = Int((Double(crop.height) * scale).rounded())
        for y in 0..<height {
            for x in 0..<width {
                let px = ((Int(centerX) - width / 2 + x) % panorama.width + panorama.width) % panorama.width
                let py = Int(centerY) - height / 2 + y
                guard py >= 0, py < panorama.height else { continue }
                let value = sample(crop, (Double(x) + 0.5) / scale - 0.5, (Double(y) + 0.5) / scale - 0.5)
                for c in 0..<3 { panorama[px, py, c] = value[c] }
            }
        }
    }

    /// `crop` drawn into `panorama` as it would appear, upright, in a perspective view looking at
    /// `headingDegrees` / `pitchDegrees`, `angularHeightDegrees` tall: every panorama pixel whose direction
    /// falls on the crop takes the crop's colour there (so near the zenith it is bent as a real face is).
    static func pasteInView(_ crop: RGB8Image, headingDegrees: Double, pitchDegrees: Double, angularHeightDegrees: Double,
                            into panorama: inout RGB8Image) throws {
        let fieldOfView = 2 * atan(tan(angularHeightDegrees * .pi / 360) * Double(crop.width) / Double(crop.height)) * 180 / .pi
        let camera = try ViewCamera(headingDegrees: headingDegrees, pitchDegrees: pitchDegrees, fieldOfViewDegrees: max(10, fieldOfView),
                                    width: crop.width, height: crop.height)
        let projection = ViewProjection(camera: camera, pose: PanoramaPose(headingDegrees: 0), panoramaWidth: panorama.width)
        for y in 0..<panorama.height {
            for x in 0..<panorama.width {
                let direction = projection.direction(panoramaX: Double(x) + 0.5, panoramaY: Double(y) + 0.5)
                guard let p = projection.viewPixel(forDirection: direction),
                      p.x >= 0, p.y >= 0, p.x < Double(crop.width), p.y < Double(crop.height) else { continue }
                let value = sample(crop, p.x - 0.5, p.y - 0.5)
                for c in 0..<3 { panorama[x, y, c] = value[c] }
            }
        }
    }

    /// Bilinear sample of `image` at continuous (x, y) (pixel centres at integers), edges clamped.
    static func sample(_ image: RGB8Image, _ x: Double, _ y: Double) -> [UInt8] {
        let fx = min(max(x, 0), Double(image.width - 1)), fy = min(max(y, 0), Double(image.height - 1))
        let x0 = Int(fx), y0 = Int(fy), x1 = min(x0 + 1, image.width - 1), y1 = min(y0 + 1, image.height - 1)
        let ax = fx - Double(x0), ay = fy - Double(y0)
        return (0..<3).map { c in
            let top = Double(image[x0, y0, c]) * (1 - ax) + Double(image[x1, y0, c]) * ax
            let bottom = Double(image[x0, y1, c]) * (1 - ax) + Double(image[x1, y1, c]) * ax
            return UInt8((top * (1 - ay) + bottom * ay).rounded())
        }
    }

    /// The largest difference of any channel between `a` and `b` over the pixels where `include` is true.
    static func maximumDifference(_ a: RGB8Image, _ b: RGB8Image, where include: (Int, Int) -> Bool) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width where include(x, y) {
                for c in 0..<3 { worst = max(worst, abs(Int(a[x, y, c]) - Int(b[x, y, c]))) }
            }
        }
        return worst
    }

    /// The fine detail inside `box`: the mean absolute Laplacian of luminance (eyes, mouth, characters
    /// are made of it; a strong blur leaves little).
    static func detail(_ image: RGB8Image, in box: PixelBox) -> Double {
        func luminance(_ x: Int, _ y: Int) -> Double {
            let cx = min(max(x, 0), image.width - 1), cy = min(max(y, 0), image.height - 1)
            return 0.299 * Double(image[cx, cy, 0]) + 0.587 * Double(image[cx, cy, 1]) + 0.114 * Double(image[cx, cy, 2])
        }
        var sum = 0.0, count = 0.0
        for y in max(0, Int(box.y))..<min(image.height, Int(box.maxY)) {
            for x in max(0, Int(box.x))..<min(image.width, Int(box.maxX)) {
                sum += abs(4 * luminance(x, y) - luminance(x - 1, y) - luminance(x + 1, y) - luminance(x, y - 1) - luminance(x, y + 1))
                count += 1
            }
        }
        return sum / max(count, 1)
    }
}

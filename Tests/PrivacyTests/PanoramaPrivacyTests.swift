import Foundation
import Imaging
import Reprojection
import Testing
@testable import Privacy

/// 360° panoramas: a real panorama (the GoPro Max photo of ../shared/data) with real crops composited
/// in — a face and a plate across the ±180° seam, a face near the zenith — all found and blurred.
@Suite struct PanoramaPrivacyTests {
    /// The composited panorama (2160×1080, the GoPro Max photo decoded at 3/8) and where the crops went.
    static let composite = Result { () throws -> (jpeg: [UInt8], seamFace: PixelBox, seamPlate: PixelBox, zenithFace: PixelBox) in
        let photo = try PrivacyTestData.sharedFile("real-photos/gopro-max-sequence/1.jpg")
        var panorama = try JPEGCodec.decodeRGB(photo, options: JPEGDecodeOptions(scale: try JPEGScale(numerator: 3, denominator: 8))).image
        #expect(panorama.width == 2160 && panorama.height == 1080)
        let pixelsPerDegree = Double(panorama.height) / 180
        // A face straddling the seam, 4° below the horizon, its face about 55 pixels tall.
        let face = try PrivacyTestData.crop("face-city-1.png")
        let faceY = (90 + 4) * pixelsPerDegree
        PrivacyTestData.pasteAcrossSeam(face, scale: 1.5, centerX: 0, centerY: faceY, into: &panorama)
        // A plate straddling the seam lower down (a car's rear at a few metres).
        let plate = try PrivacyTestData.crop("plate-czech.png")
        let plateY = (90 + 12) * pixelsPerDegree
        PrivacyTestData.pasteAcrossSeam(plate, scale: 1.0, centerX: Double(panorama.width) - 10, centerY: plateY, into: &panorama)
        // A face 72° up (someone leaning over the camera), 20° tall, upright as seen looking that way.
        try PrivacyTestData.pasteInView(try PrivacyTestData.crop("face-city-2.png"), headingDegrees: 30, pitchDegrees: 72,
                                        angularHeightDegrees: 20, into: &panorama)
        let jpeg = try JPEGCodec.encode(panorama, quality: 92, subsampling: .chroma420,
                                        metadata: try ImageMetadata.read(fromJPEG: photo).metadata)
        // Where they are (the zenith face from its view's corners: heading 30° is column 0.5 + 30/360 of the width).
        let seamFace = PixelBox(x: -Double(face.width) * 0.75, y: faceY - Double(face.height) * 0.75, width: Double(face.width) * 1.5,
                                height: Double(face.height) * 1.5)
        // The plate's characters ("5AU 5341": x 32…98, y 16…33 of the 120×44 crop).
        let seamPlate = PixelBox(x: Double(panorama.width) - 10 - 60 + 32, y: plateY - 22 + 16, width: 66, height: 17)
        let zenithX = (0.5 + 30.0 / 360) * Double(panorama.width)
        let zenithFace = PixelBox(x: zenithX - 120, y: (90 - 82) * pixelsPerDegree, width: 240, height: 20 * pixelsPerDegree)
        return (jpeg, seamFace, seamPlate, zenithFace)
    }

    /// `box` (x may be negative: across the seam) as the boxes it covers in the panorama.
    static func wrapped(_ box: PixelBox, width: Double) -> [PixelBox] {
        if box.x < 0 {
            return [PixelBox(x: 0, y: box.y, width: box.maxX, height: box.height), PixelBox(x: width + box.x, y: box.y, width: -box.x, height: box.height)]
        }
        if box.maxX > width {
            return [PixelBox(x: box.x, y: box.y, width: width - box.x, height: box.height), PixelBox(x: 0, y: box.y, width: box.maxX - width, height: box.height)]
        }
        return [box]
    }

    @Test func facesAndAPlateAcrossTheSeamAndNearTheZenithAreFoundAndBlurred() throws {
        let (jpeg, seamFace, seamPlate, zenithFace) = try Self.composite.get()
        let outcome = try PhotoBlurrer.blur(jpeg, file: "composite.jpg", request: BlurRequest(
            detector: try PrivacyTestData.detector.get(), software: "lookaround tests"))
        #expect(outcome.isPanorama)
        let regions = outcome.marker.regions
        for region in regions { print("\(region.id) \(region.kind.rawValue) \(String(format: "%.2f", region.score)) box \(region.box) blocks \(region.blocks)") }
        let width = Double(outcome.width)
        // The seam face: found on both sides of the seam.
        for part in Self.wrapped(seamFace, width: width) {
            #expect(regions.contains { $0.kind == .face && $0.blocks.intersectionArea(part) > 0.5 * part.area },
                    "the face across the seam is not blurred over \(part)")
        }
        // Every character of the plate, on both sides of the seam, lies in blurred blocks (the side that
        // shows less of it is grown as the whole plate is, so its first character is not left readable).
        for part in Self.wrapped(seamPlate, width: width) {
            let covered = regions.filter { $0.kind == .plate }.reduce(0) { $0 + $1.blocks.intersectionArea(part) }
            #expect(covered >= part.area, "the plate's characters across the seam are not all blurred over \(part): \(covered) of \(part.area) px²")
        }
        let nearZenith = regions.contains { (region: PrivacyRegion) -> Bool in
            region.kind == .face && region.box.intersectionArea(zenithFace) > 0
        }
        #expect(nearZenith, "the face near the zenith is not found (expected within \(zenithFace))")
        // Blurred: the seam face's pixels lost their detail.
        let before = try PrivacyTestData.decode(jpeg), after = try PrivacyTestData.decode(outcome.jpeg)
        for face in regions where face.kind == .face {
            let detailBefore = PrivacyTestData.detail(before, in: face.box), detailAfter = PrivacyTestData.detail(after, in: face.box)
            #expect(detailAfter < 0.3 * detailBefore, "\(face.id): detail \(detailBefore) → \(detailAfter)")
        }
        // And nothing else in the picture was touched far from the regions (no false face on the
        // station's sign, the crossing, the sky).
        let far = PrivacyTestData.maximumDifference(before, after) { x, y in
            !regions.contains { $0.state == .blurred && $0.blocks.intersects(x, y, margin: 16) }
        }
        #expect(far == 0)
        #expect(regions.count <= 6, "only the composited faces and plate (and their other halves): \(regions.map(\.id))")
        // For a person to look at: the composite, its blurred copy and the preview with the regions drawn.
        let folder = NSTemporaryDirectory() + "/privacy-composite"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? ImageFile.write(jpeg, to: folder + "/composite.jpg")
        try? ImageFile.write(outcome.jpeg, to: folder + "/composite-blurred.jpg")
        try? ImageFile.write(try JPEGCodec.encode(try PrivacyPreview.draw(outcome.pixels, regions: regions, fonts: try? FontLibrary(paths: .debian)),
                                                 quality: 85), to: folder + "/composite-preview.jpg")
    }

    /// The views cover the sphere: every panorama pixel's direction lies in a band or inside a cap view's
    /// frustum (checked from the panorama's side, so the poles' stretched rows count), and the seam is padded.
    @Test func theViewsCoverTheSphereAndTheSeam() throws {
        let panorama = RGB8Image(width: 720, height: 360, fill: 90)
        let views = try PanoramaViewPlan.views(of: panorama, pitchDegrees: 0, rollDegrees: 0, purposes: [.faces])
        let bands = PanoramaViewPlan.faceBands
        var caps: [ViewProjection] = []
        for view in views where view.name.hasPrefix("up") || view.name.hasPrefix("down") {
            let parts = view.name.split(separator: " ")
            let heading = Double(parts[1].dropLast())!, pitch = parts[0] == "up" ? PanoramaViewPlan.capPitch : -PanoramaViewPlan.capPitch
            caps.append(ViewProjection(camera: try ViewCamera(headingDegrees: heading, pitchDegrees: pitch,
                                                              fieldOfViewDegrees: PanoramaViewPlan.capFieldOfView,
                                                              width: view.image.width, height: view.image.height),
                                       pose: PanoramaPose(headingDegrees: 0), panoramaWidth: 720))
        }
        #expect(caps.count == 8)
        var missing: [(Int, Int)] = []
        for y in 0..<360 {
            let latitude = 90 - (Double(y) + 0.5) / 2
            for x in 0..<720 {
                if bands.contains(where: { latitude <= $0.top && latitude >= $0.bottom }) { continue }
                let covered = caps.contains { projection in
                    guard let p = projection.viewPixel(forDirection: projection.direction(panoramaX: Double(x) + 0.5, panoramaY: Double(y) + 0.5)) else {
                        return false
                    }
                    return p.x >= 0 && p.y >= 0 && p.x < Double(projection.camera.width) && p.y < Double(projection.camera.height)
                }
                if !covered { missing.append((x, y)) }
            }
        }
        #expect(missing.isEmpty, "\(missing.count) panorama pixels in no view, e.g. \(missing.prefix(8))")
        // A box across the seam in a band maps to two boxes, one at each edge.
        let band = try #require(views.first { $0.name == "fine band" })
        let pad = Int((PanoramaViewPlan.seamPadding * 720).rounded())
        let boxes = band.photoBoxes(for: PixelBox(x: Double(pad) - 10, y: 10, width: 20, height: 10), panoramaWidth: 720)
        // The whole box on each side: one reaching past the right edge, the other before the left.
        #expect(boxes.count == 2 && boxes[0].width == boxes[1].width && abs(boxes[0].x - boxes[1].x) == 720
                && boxes.contains { $0.x < 0 && $0.maxX > 0 } && boxes.contains { $0.x < 720 && $0.maxX > 720 }, "\(boxes)")
    }
}

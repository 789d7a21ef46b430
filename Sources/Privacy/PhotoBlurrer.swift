import Foundation
import Imaging

/// What to do to one photo.
public struct BlurRequest: Sendable {
    /// Finds faces and plates; nil finds nothing (corrections only).
    public var detector: PrivacyDetector?
    /// Boxes a person marked, in the photo's pixels (`--add`), blurred as `manual` regions.
    public var additions: [PixelBox]
    /// Region ids whose blur a person removes (`--remove`); needs ``original``.
    public var removals: [String]
    /// The photo's original (unblurred) JPEG, for ``removals``.
    public var original: [UInt8]?
    /// Where ``original`` came from, for messages.
    public var originalPath: String?
    /// Recorded as the marker's `Software`.
    public var software: String
    /// When, recorded as the marker's `Date`.
    public var date: Date

    public init(detector: PrivacyDetector?, additions: [PixelBox] = [], removals: [String] = [], original: [UInt8]? = nil,
                originalPath: String? = nil, software: String, date: Date = Date()) {
        self.detector = detector
        self.additions = additions
        self.removals = removals
        self.original = original
        self.originalPath = originalPath
        self.software = software
        self.date = date
    }
}

/// What blurring one photo did.
public struct BlurOutcome: Sendable {
    /// The photo to write: the input's bytes, unchanged, when ``changed`` is false.
    public var jpeg: [UInt8]
    /// Whether anything differs from the input (blocks or metadata).
    public var changed: Bool
    /// The marker written (or found, when nothing changed).
    public var marker: PrivacyMarker
    /// Regions blurred by this run.
    public var added: [PrivacyRegion]
    /// Regions whose blur this run removed.
    public var removed: [PrivacyRegion]
    /// Detections left alone because an earlier run blurred them already or a person removed them there.
    public var alreadyHandled: Int
    /// The photo's size in pixels.
    public var width: Int, height: Int
    /// Whether it was searched as a 360° panorama.
    public var isPanorama: Bool
    /// JPEG blocks replaced (all components).
    public var blocksReplaced: Int
    /// Seconds spent decoding, detecting, and blurring and writing.
    public var decodeSeconds: Double, detectionSeconds: Double, blurSeconds: Double
    /// The photo's pixels as read (before this run's blur), for previews.
    public var pixels: RGB8Image
}

/// Blurs faces and plates in a JPEG by replacing only the DCT blocks they touch (``JPEGBlockEditor``):
/// every other block keeps its coefficients, so the rest of the photo decodes to the same pixels (up to
/// one chroma block beside a replaced one, where the decoder's chroma upsampling reads across), and
/// every marker segment — EXIF, XMP with GPano, ICC, maker notes — is kept; the photo's XMP gains
/// ``PrivacyMarker``. Running it again on its own output changes nothing: detections inside regions
/// already blurred or removed are left alone, and with nothing new the input's bytes come back as they are.
public enum PhotoBlurrer {
    /// The most pixels a photo may have (256 megapixels), as elsewhere in the project.
    public static let pixelBudget = 1 << 28

    /// Blurs `jpeg` as `request` says.
    /// - Throws: ``PrivacyError`` for an unreadable or unsupported JPEG, an unknown region id, a missing
    ///   or wrong original; the detectors' errors. Nothing is written by this function.
    public static func blur(_ jpeg: [UInt8], file: String?, request: BlurRequest) throws -> BlurOutcome {
        let startDecode = Date()
        let layout = try JPEGLayout(jpeg, file: file)
        guard layout.width * layout.height <= pixelBudget else {
            throw PrivacyError.unsupportedJPEG(file: file, detail: "\(layout.width)×\(layout.height) is over the budget of \(pixelBudget) pixels")
        }
        let previous = PrivacyMarker.read(fromJPEG: jpeg)
        var regions = previous?.regions ?? []
        let metadata = (try? ImageMetadata.read(fromJPEG: jpeg, file: file))?.metadata
        let panorama = panoramaPose(metadata, width: layout.width, height: layout.height)
        var image: RGB8Image
        do {
            image = try JPEGCodec.decodeRGB(jpeg, file: file, options: JPEGDecodeOptions(strict: true)).image
        } catch {
            throw PrivacyError.unreadableImage(file: file, detail: "\(error)")
        }
        let pixels = image
        let decodeSeconds = Date().timeIntervalSince(startDecode)

        // Detect, and keep what no earlier run or person has dealt with.
        let startDetect = Date()
        let detections = try request.detector?.detect(image, panorama: panorama) ?? []
        let detectionSeconds = Date().timeIntervalSince(startDetect)
        let startBlur = Date()
        var fresh: [Detection] = []
        var handled = 0
        for detection in detections {
            let inside = detection.box.clipped(width: layout.width, height: layout.height)
            let covered = regions.contains { region in
                region.blocks.intersectionArea(inside) >= 0.5 * inside.area
                    || (region.state == .removed && region.box.intersectionOverUnion(detection.box) > 0.3)
            }
            if covered { handled += 1 } else { fresh.append(detection) }
        }
        for box in request.additions {
            guard box.width >= 1, box.height >= 1, box.x >= 0, box.y >= 0, box.maxX <= Double(layout.width), box.maxY <= Double(layout.height) else {
                throw PrivacyError.invalidParameter(name: "--add box", value: box.description,
                                                    allowed: "X,Y,W,H inside the \(layout.width)×\(layout.height) photo, W and H ≥ 1")
            }
            fresh.append(Detection(kind: .manual, score: 1, box: box))
        }
        var added: [PrivacyRegion] = []
        for detection in fresh {
            guard let blocks = BlockBlur.blockRect(for: detection.box, layout: layout) else { continue }
            let number = (regions.filter { $0.kind == detection.kind }.compactMap { Int($0.id.dropFirst()) }.max() ?? 0) + 1
            let region = PrivacyRegion(id: detection.kind.idPrefix + "\(number)", kind: detection.kind, score: detection.score,
                                       box: detection.box, blocks: blocks, state: .blurred)
            regions.append(region)
            added.append(region)
        }

        // Removals: the region marked removed, its blocks back from the original where no other blur covers them.
        var removed: [PrivacyRegion] = []
        for id in request.removals {
            guard let index = regions.firstIndex(where: { $0.id == id }) else {
                throw PrivacyError.unknownRegion(file: file ?? "the photo", id: id, known: regions.map(\.id))
            }
            if regions[index].state == .blurred {
                regions[index].state = .removed
                removed.append(regions[index])
            }
        }

        var writes = JPEGBlocks(componentCount: layout.components.count)
        if !added.isEmpty {
            for region in added { BlockBlur.blur(&image, box: region.box, rect: region.blocks) }
            for region in added { BlockBlur.encodeBlocks(image, layout: layout, rect: region.blocks, into: &writes) }
        }
        if !removed.isEmpty {
            guard let original = request.original else {
                throw PrivacyError.originalNotFound(file: file ?? "the photo", looked: [request.originalPath ?? "(no --originals given)"])
            }
            let stillBlurred = regions.filter { $0.state == .blurred }.map(\.blocks)
            try restore(removed, from: original, originalPath: request.originalPath ?? "the original", into: &writes,
                        current: jpeg, layout: layout, keepingBlurred: stillBlurred, file: file)
        }

        let blocksReplaced = writes.components.reduce(0) { $0 + $1.count }
        if added.isEmpty && removed.isEmpty, let previous, previous.blurred {
            // Nothing new: the input as it is (a second run is a no-op, byte for byte).
            return BlurOutcome(jpeg: jpeg, changed: false, marker: previous, added: [], removed: [], alreadyHandled: handled,
                               width: layout.width, height: layout.height, isPanorama: panorama != nil, blocksReplaced: 0,
                               decodeSeconds: decodeSeconds, detectionSeconds: detectionSeconds,
                               blurSeconds: Date().timeIntervalSince(startBlur), pixels: pixels)
        }
        var output = jpeg
        if !writes.isEmpty {
            output = try JPEGBlockEditor.transform(jpeg, layout: layout, writes: writes, file: file).jpeg ?? jpeg
        }
        let marker = PrivacyMarker(blurred: true, software: request.software,
                                   detectors: request.detector?.detectorNames ?? previous?.detectors ?? "none (corrections only)",
                                   date: iso8601(request.date), regions: regions)
        output = try marker.written(into: output, file: file)
        output = try ExifThumbnail.blurring(added.isEmpty ? [] : regions.filter { $0.state == .blurred }, photoWidth: layout.width,
                                            photoHeight: layout.height, in: output, pixels: image)
        return BlurOutcome(jpeg: output, changed: true, marker: marker, added: added, removed: removed, alreadyHandled: handled,
                           width: layout.width, height: layout.height, isPanorama: panorama != nil, blocksReplaced: blocksReplaced,
                           decodeSeconds: decodeSeconds, detectionSeconds: detectionSeconds,
                           blurSeconds: Date().timeIntervalSince(startBlur), pixels: pixels)
    }

    /// The GPano pitch and roll of a full 360° equirectangular panorama (GPano, or a 2:1 image without
    /// GPano), nil for a flat photo or a partial panorama.
    static func panoramaPose(_ metadata: ImageMetadata?, width: Int, height: Int) -> (pitchDegrees: Double, rollDegrees: Double)? {
        guard width == 2 * height else { return nil }
        if let pano = metadata?.panorama {
            if let projection = pano.projectionType, projection.lowercased() != "equirectangular" { return nil }
            if let full = pano.fullPanoWidthPixels, let cropped = pano.croppedAreaImageWidthPixels, cropped < full { return nil }
            if let full = pano.fullPanoHeightPixels, let cropped = pano.croppedAreaImageHeightPixels, cropped < full { return nil }
            return (pano.posePitchDegrees ?? 0, pano.poseRollDegrees ?? 0)
        }
        return (0, 0)
    }

    /// Writes the original's blocks for `regions` into `writes`, except blocks still under a blurred
    /// region. The original must be this photo's: same layout and, at a sample of blocks outside every
    /// region, the same coefficients.
    static func restore(_ regions: [PrivacyRegion], from original: [UInt8], originalPath: String, into writes: inout JPEGBlocks,
                        current: [UInt8], layout: JPEGLayout, keepingBlurred blurred: [PixelBox], file: String?) throws(PrivacyError) {
        let name = file ?? "the photo"
        let originalLayout = try JPEGLayout(original, file: originalPath)
        guard originalLayout.width == layout.width, originalLayout.height == layout.height,
              originalLayout.components.count == layout.components.count,
              zip(originalLayout.components, layout.components).allSatisfy({ $0.quantization == $1.quantization
                  && $0.horizontalSampling == $1.horizontalSampling && $0.verticalSampling == $1.verticalSampling }) else {
            throw .originalMismatch(file: name, original: originalPath,
                                    detail: "its size, sampling or quantisation differs (\(originalLayout.width)×\(originalLayout.height))")
        }
        var wanted = [Set<Int>](repeating: [], count: layout.components.count)
        var sample = [Set<Int>](repeating: [], count: layout.components.count)
        let everyRegion = PrivacyMarker.read(fromJPEG: current)?.regions.map(\.blocks) ?? []
        for (c, component) in layout.components.enumerated() {
            let bw = 8 * layout.maximumHorizontalSampling / component.horizontalSampling
            let bh = 8 * layout.maximumVerticalSampling / component.verticalSampling
            func rect(_ key: Int) -> PixelBox {
                PixelBox(x: Double(key % component.widthInBlocks * bw), y: Double(key / component.widthInBlocks * bh),
                         width: Double(bw), height: Double(bh))
            }
            for region in regions {
                let x0 = Int(region.blocks.x) / bw, x1 = (Int(region.blocks.maxX) - 1) / bw
                let y0 = Int(region.blocks.y) / bh, y1 = (Int(region.blocks.maxY) - 1) / bh
                for row in y0...min(y1, component.heightInBlocks - 1) {
                    for column in x0...min(x1, component.widthInBlocks - 1) {
                        let key = row * component.widthInBlocks + column
                        let block = rect(key)
                        if !blurred.contains(where: { $0.intersectionArea(block) > 0 }) { wanted[c].insert(key) }
                    }
                }
            }
            // Every 9th block of every 7th block row, outside every region: they must agree.
            for row in stride(from: 3, to: component.heightInBlocks, by: 7) {
                for column in stride(from: 0, to: component.widthInBlocks, by: 9) {
                    let key = row * component.widthInBlocks + column
                    if !everyRegion.contains(where: { $0.intersectionArea(rect(key)) > 0 }) { sample[c].insert(key) }
                }
            }
        }
        let fromOriginal = try JPEGBlockEditor.transform(original, layout: originalLayout, writes: JPEGBlocks(componentCount: layout.components.count),
                                                          wanted: zip(wanted, sample).map { $0.union($1) }, produceOutput: false,
                                                          file: originalPath).read
        let fromCurrent = try JPEGBlockEditor.transform(current, layout: layout, writes: JPEGBlocks(componentCount: layout.components.count),
                                                         wanted: sample, produceOutput: false, file: file).read
        for c in 0..<layout.components.count {
            for key in sample[c] where fromOriginal.components[c][key] != fromCurrent.components[c][key] {
                throw .originalMismatch(file: name, original: originalPath,
                                        detail: "block \(key) of component \(c), outside every blurred region, has other coefficients")
            }
            for key in wanted[c] { writes.components[c][key] = fromOriginal.components[c][key] }
        }
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

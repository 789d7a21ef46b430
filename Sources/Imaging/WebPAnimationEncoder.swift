import CWebP
import Foundation

/// Writes an animated WebP through libwebp's animation encoder (`WebPAnimEncoder`, libwebpmux): lossy at
/// a quality, or lossless. The encoder keeps the frames (compressed) until ``finish()``, which writes
/// the file. The animation loops forever.
public final class WebPAnimationEncoder {
    /// Frame width, pixels.
    public let width: Int
    /// Frame height, pixels.
    public let height: Int
    /// Lossy quality 0…100, or nil for lossless.
    public let quality: Int?
    private let path: String
    private var encoder: OpaquePointer?
    private var config = WebPConfig()
    private var timestampMilliseconds = 0
    private var frameCount = 0

    /// The allowed quality values.
    public static let qualityRange = 0...100

    /// Starts an animation to be written at `path`.
    /// - Throws: `ImagingError.invalidSize` for sides outside 1…16383, `.invalidParameter` for a
    ///   quality outside 0…100, `.encodeFailed` when libwebp refuses.
    public init(path: String, width: Int, height: Int, quality: Int? = 80) throws(ImagingError) {
        guard (1...16_383).contains(width), (1...16_383).contains(height) else {
            throw .invalidSize(text: "\(width)x\(height)", reason: "WebP sides are 1…16383 pixels")
        }
        if let quality, !Self.qualityRange.contains(quality) {
            throw .invalidParameter(name: "WebP quality", value: "\(quality)", allowed: "0…100")
        }
        self.path = path
        self.width = width
        self.height = height
        self.quality = quality
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw .encodeFailed(format: "WebP", detail: "libwebp version mismatch") }
        options.anim_params.loop_count = 0
        options.allow_mixed = 0
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw .encodeFailed(format: "WebP", detail: "could not start the animation encoder")
        }
        self.encoder = encoder
        guard WebPConfigInit(&config) != 0 else { throw .encodeFailed(format: "WebP", detail: "libwebp version mismatch") }
        if let quality {
            config.lossless = 0
            config.quality = Float(quality)
        } else {
            config.lossless = 1
            config.quality = 75
        }
        config.method = 2
    }

    deinit { if let encoder { WebPAnimEncoderDelete(encoder) } }

    /// Appends a frame shown for `durationMilliseconds` (≥ 1).
    /// - Throws: `ImagingError.invalidSize` for a frame of another size, `.encodeFailed`.
    public func add(_ frame: RGB8Image, durationMilliseconds: Int) throws(ImagingError) {
        guard let encoder else { throw .encodeFailed(format: "WebP", detail: "the animation is already finished") }
        guard frame.width == width, frame.height == height else {
            throw .invalidSize(text: "\(frame.width)x\(frame.height)", reason: "every frame of this WebP is \(width)x\(height)")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodeFailed(format: "WebP", detail: "libwebp version mismatch") }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = quality == nil ? 1 : 0
        defer { WebPPictureFree(&picture) }
        let imported = frame.components.withUnsafeBufferPointer { WebPPictureImportRGB(&picture, $0.baseAddress, Int32(width * 3)) }
        guard imported != 0 else { throw .encodeFailed(format: "WebP", detail: "could not import a frame (out of memory)") }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestampMilliseconds), &config) != 0 else {
            throw .encodeFailed(format: "WebP", detail: WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "frame refused")
        }
        timestampMilliseconds += max(1, durationMilliseconds)
        frameCount += 1
    }

    /// Assembles the animation and writes the file.
    /// - Throws: `ImagingError.encodeFailed`, `.io`.
    public func finish() throws(ImagingError) {
        guard let encoder else { return }
        defer { WebPAnimEncoderDelete(encoder); self.encoder = nil }
        guard frameCount > 0 else { throw .encodeFailed(format: "WebP", detail: "an animation needs at least one frame") }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestampMilliseconds), nil) != 0 else {
            throw .encodeFailed(format: "WebP", detail: "could not end the animation")
        }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw .encodeFailed(format: "WebP", detail: WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "could not assemble")
        }
        do { try ImageFile.write(Array(UnsafeBufferPointer(start: bytes, count: data.size)), to: path) } catch {
            throw .cannotWrite(error)
        }
    }
}

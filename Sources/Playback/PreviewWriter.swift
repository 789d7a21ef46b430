import Foundation
import Imaging

/// Where a walk's frames go: a folder of PNG frames, an animated GIF or WebP, or a video through ffmpeg.
///
/// Every writer works under a temporary name beside the output (`.NAME.partial-PID`) and renames it
/// into place in ``finish()``; ``cancel()`` (Ctrl-C) removes it, so no half-written output is ever
/// left under the real name.
public protocol PreviewWriter: AnyObject {
    /// Appends a frame (frames come in order, all of one size).
    func add(_ frame: WalkFrame) throws
    /// Finishes the output and moves it to its real name.
    func finish() throws
    /// Abandons the output and removes what was written.
    func cancel()
}

/// The output formats, chosen by the `-o` extension.
public enum PreviewFormat: String, Sendable, Hashable, CaseIterable {
    /// A folder of `frame-NNNNN.png` plus `frames.json` (no extension, or a trailing `/`).
    case frames
    /// Animated GIF (giflib).
    case gif
    /// Animated WebP (libwebp).
    case webp
    /// H.264 in MP4, through ffmpeg.
    case mp4
    /// VP9 in WebM, through ffmpeg.
    case webm

    /// The format of an output path.
    /// - Throws: ``PlaybackError/invalidParameter(name:value:allowed:)`` for another extension.
    public init(path: String) throws(PlaybackError) {
        let ext = (path as NSString).pathExtension.lowercased()
        if path.hasSuffix("/") || ext.isEmpty { self = .frames; return }
        guard let format = PreviewFormat(rawValue: ext), format != .frames else {
            throw .invalidParameter(name: "-o", value: path, allowed: "a folder (PNG frames), .gif, .webp, .mp4 or .webm")
        }
        self = format
    }

    /// Whether this is a video (30 fps by default, even sizes).
    public var isVideo: Bool { self == .mp4 || self == .webm }
}

/// What the writers need besides the frames.
public struct PreviewSettings: Sendable, Hashable {
    /// Frames per second.
    public var framesPerSecond: Double
    /// Lossy quality 0…100 (WebP; for video, mapped to a CRF).
    public var quality: Int = 80
    /// WebP: lossless instead of lossy.
    public var lossless = false
    /// GIF palette mode.
    public var gifPalette = GIFAnimationEncoder.Palette.perFrame
    /// GIF error diffusion.
    public var gifDithering = false

    /// Settings at a frame rate.
    public init(framesPerSecond: Double) { self.framesPerSecond = framesPerSecond }
}

extension PreviewFormat {
    /// A writer for `path` of frames `width × height`.
    /// - Throws: ``PlaybackError`` (cannot create, ffmpeg missing, odd video size).
    public func writer(path: String, width: Int, height: Int, settings: PreviewSettings) throws -> any PreviewWriter {
        switch self {
        case .frames: return try PNGFramesWriter(path: path)
        case .gif: return try GIFPreviewWriter(path: path, width: width, height: height, settings: settings)
        case .webp: return try WebPPreviewWriter(path: path, width: width, height: height, settings: settings)
        case .mp4, .webm: return try VideoPreviewWriter(path: path, format: self, width: width, height: height, settings: settings)
        }
    }
}

/// The temporary name beside `path` (`dir/.name.partial-PID`).
func temporaryPath(for path: String) -> String {
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    let url = URL(fileURLWithPath: trimmed)
    return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
}

/// `error` with a failed write of the temporary file reported for the output the user named (the
/// temporary name means nothing to them, and nothing was replaced); other errors as they are.
func reportedForOutput(_ error: any Error, path: String) -> any Error {
    let failure: WriteFailure? = switch error {
    case let failure as WriteFailure: failure
    case ImagingError.cannotWrite(let failure): failure
    case PlaybackError.cannotWrite(let failure): failure
    default: nil
    }
    return failure.map { PlaybackError.cannotWrite(WriteFailure(path: path, code: $0.code)) } ?? error
}

/// Moves `temporary` to `path`, replacing a file (or a frames folder this tool wrote) there; when it
/// cannot, `temporary` is removed and whatever is at `path` is left as it was.
func moveIntoPlace(_ temporary: String, _ path: String) throws(PlaybackError) {
    do { try replace(path, with: temporary) } catch {
        try? FileManager.default.removeItem(atPath: temporary)
        throw error
    }
}

private func replace(_ path: String, with temporary: String) throws(PlaybackError) {
    let target = path.hasSuffix("/") ? String(path.dropLast()) : path
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    if manager.fileExists(atPath: target, isDirectory: &isDirectory) {
        if isDirectory.boolValue {
            let contents = (try? manager.contentsOfDirectory(atPath: target)) ?? []
            guard contents.isEmpty || contents.contains("frames.json") else {
                throw .outputInTheWay(path: target)
            }
        }
        try? manager.removeItem(atPath: target)
    }
    guard rename(temporary, target) == 0 else {
        throw .cannotWrite(WriteFailure(path: target, code: errno))
    }
}

/// A folder of PNG frames and `frames.json`.
final class PNGFramesWriter: PreviewWriter {
    struct Entry: Encodable {
        var file: String, panoramaId: String
        var timeSeconds, latitude, longitude, distanceMeters, headingDegrees, pitchDegrees, fieldOfViewDegrees: Double
    }
    let path: String, temporary: String
    var entries: [Entry] = []

    init(path: String) throws(PlaybackError) {
        self.path = path
        temporary = temporaryPath(for: path)
        try? FileManager.default.removeItem(atPath: temporary)
        guard mkdir(temporary, 0o755) == 0 else { throw .cannotWrite(WriteFailure(path: path, code: errno)) }
    }

    func add(_ frame: WalkFrame) throws {
        let name = String(format: "frame-%05d.png", entries.count)
        do { try ImageFile.write(try PNGCodec.encode(frame.image), to: "\(temporary)/\(name)") } catch {
            throw reportedForOutput(error, path: path)
        }
        let i = frame.info
        entries.append(Entry(file: name, panoramaId: frame.panoramaID, timeSeconds: (i.timeSeconds * 1000).rounded() / 1000,
                             latitude: i.coordinate.latitude, longitude: i.coordinate.longitude,
                             distanceMeters: (i.distanceMeters * 100).rounded() / 100, headingDegrees: (i.headingDegrees * 100).rounded() / 100,
                             pitchDegrees: i.pitchDegrees, fieldOfViewDegrees: i.fieldOfViewDegrees))
    }

    func finish() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Document: Encodable { var frames: [Entry] }
        do { try WriteFailure.writeAtomically(try encoder.encode(Document(frames: entries)), to: "\(temporary)/frames.json") } catch {
            throw reportedForOutput(error, path: path)
        }
        try moveIntoPlace(temporary, path)
    }

    func cancel() { try? FileManager.default.removeItem(atPath: temporary) }
}

/// Frame delays in a format's unit that add up to the exact time (12 fps in centiseconds: 8, 9, 8, …).
struct FrameClock {
    let unitsPerSecond: Double, framesPerSecond: Double
    var index = 0

    mutating func nextDelay() -> Int {
        let start = (Double(index) * unitsPerSecond / framesPerSecond).rounded()
        let end = (Double(index + 1) * unitsPerSecond / framesPerSecond).rounded()
        index += 1
        return max(1, Int(end - start))
    }
}

/// Animated GIF.
final class GIFPreviewWriter: PreviewWriter {
    let path: String, temporary: String
    let encoder: GIFAnimationEncoder
    var clock: FrameClock

    init(path: String, width: Int, height: Int, settings: PreviewSettings) throws {
        self.path = path
        temporary = temporaryPath(for: path)
        do {
            encoder = try GIFAnimationEncoder(path: temporary, width: width, height: height, palette: settings.gifPalette,
                                              dithering: settings.gifDithering)
        } catch .cannotWrite(let failure) {
            throw reportedForOutput(failure, path: path)
        } catch {
            throw PlaybackError.encodingFailed(format: "GIF", detail: error.description)
        }
        clock = FrameClock(unitsPerSecond: 100, framesPerSecond: settings.framesPerSecond)
    }

    func add(_ frame: WalkFrame) throws {
        do { try encoder.add(frame.image, delayCentiseconds: clock.nextDelay()) } catch { throw reportedForOutput(error, path: path) }
    }

    func finish() throws {
        do { try encoder.finish() } catch { throw reportedForOutput(error, path: path) }
        try moveIntoPlace(temporary, path)
    }

    func cancel() {
        try? encoder.finish()
        unlink(temporary)
    }
}

/// Animated WebP.
final class WebPPreviewWriter: PreviewWriter {
    let path: String, temporary: String
    let encoder: WebPAnimationEncoder
    var clock: FrameClock

    init(path: String, width: Int, height: Int, settings: PreviewSettings) throws {
        self.path = path
        temporary = temporaryPath(for: path)
        encoder = try WebPAnimationEncoder(path: temporary, width: width, height: height, quality: settings.lossless ? nil : settings.quality)
        clock = FrameClock(unitsPerSecond: 1000, framesPerSecond: settings.framesPerSecond)
    }

    func add(_ frame: WalkFrame) throws { try encoder.add(frame.image, durationMilliseconds: clock.nextDelay()) }

    func finish() throws {
        do { try encoder.finish() } catch { throw reportedForOutput(error, path: path) }
        try moveIntoPlace(temporary, path)
    }

    func cancel() { unlink(temporary) }
}

/// MP4 (H.264) or WebM (VP9) through an `ffmpeg` executable: raw RGB frames piped to its stdin.
final class VideoPreviewWriter: PreviewWriter {
    let path: String, temporary: String
    let process: Process
    let input: Pipe
    let errors: Pipe

    /// The `ffmpeg` on PATH, if any.
    static func ffmpegPath() -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    init(path: String, format: PreviewFormat, width: Int, height: Int, settings: PreviewSettings) throws {
        guard let ffmpeg = Self.ffmpegPath() else {
            throw PlaybackError.toolMissing(tool: "ffmpeg", debianPackage: "ffmpeg", purpose: "writing \(format.rawValue.uppercased())")
        }
        guard width % 2 == 0, height % 2 == 0 else {
            throw PlaybackError.invalidParameter(name: "--size", value: "\(width)x\(height)", allowed: "even widths and heights for video (4:2:0 chroma)")
        }
        self.path = path
        temporary = temporaryPath(for: path)
        let crf = format == .mp4 ? 51 - settings.quality * 33 / 100 : 63 - settings.quality * 40 / 100
        var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
                         "-s", "\(width)x\(height)", "-framerate", String(format: "%.6g", settings.framesPerSecond), "-i", "pipe:0"]
        if format == .mp4 {
            arguments += ["-c:v", "libx264", "-preset", "veryfast", "-crf", "\(crf)", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4"]
        } else {
            arguments += ["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "\(crf)", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1",
                          "-pix_fmt", "yuv420p", "-f", "webm"]
        }
        arguments.append(temporary)
        process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = arguments
        input = Pipe()
        errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        signal(SIGPIPE, SIG_IGN)
        do { try process.run() } catch {
            throw PlaybackError.encodingFailed(format: format.rawValue, detail: "could not start \(ffmpeg): \(error.localizedDescription)")
        }
    }

    func add(_ frame: WalkFrame) throws {
        let fd = input.fileHandleForWriting.fileDescriptor
        try frame.image.components.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    throw PlaybackError.encodingFailed(format: "video", detail: "ffmpeg stopped reading frames: \(failureText())")
                }
                offset += n
            }
        }
    }

    func failureText() -> String {
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
    }

    func finish() throws {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            unlink(temporary)
            throw PlaybackError.encodingFailed(format: "video", detail: "ffmpeg exited with status \(process.terminationStatus): \(failureText())")
        }
        try moveIntoPlace(temporary, path)
    }

    func cancel() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        unlink(temporary)
    }
}

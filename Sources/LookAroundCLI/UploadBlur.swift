import Foundation
import Privacy
import Service

/// `serve --upload-key-file`: the blurring every uploaded photo gets before it is kept, as
/// `lookaround blur --in-place` (and `index --blur`) does it, with one detector made at start and used by
/// one upload at a time.
///
/// `@unchecked Sendable`: the detector is used under `lock` only.
final class UploadBlur: UploadBlurring, @unchecked Sendable {
    private let detector: PrivacyDetector
    private let lock = NSLock()

    /// - Throws: `PrivacyError` when the detectors' models are missing or unreadable.
    init() throws { detector = try PrivacyDetector() }

    func isBlurred(_ path: String) -> Bool { PrivacyMarker.isBlurred(fileAt: path) }

    func blurInPlace(_ path: String) throws -> (faces: Int, plates: Int) {
        lock.lock()
        defer { lock.unlock() }
        return try IndexBlur.blurInPlace(path, detector: detector, keepOriginal: nil)
    }
}

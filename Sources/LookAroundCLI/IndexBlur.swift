import ArgumentParsing
import Catalog
import Foundation
import Imaging
import Privacy

/// `lookaround index --blur`: every real photo of the indexed folders not yet blurred is blurred in place
/// (``BlurCommand/blurFile(_:to:request:dryRun:keepOriginal:)``) before the catalog reads it.
enum IndexBlur {
    struct Report: Encodable {
        /// Photos blurred by this run.
        var blurred: Int
        /// Photos blurred by an earlier run (their XMP says so): not read again.
        var alreadyBlurred: Int
        /// Simulated panoramas (nothing to blur).
        var simulated: Int
        /// Faces and plates blurred by this run.
        var faces: Int, plates: Int
        var keptOriginalsIn: String?
        var failures: [Failure]
        /// Video frames blurred as the index wrote them (counted in ``blurred`` too).
        var videoFrames = 0

        struct Failure: Encodable { var path: String; var message: String }
        var seconds: Double

        var line: String {
            "blurred     \(blurred) photos (" + (videoFrames > 0 ? "\(videoFrames) of them video frames; " : "")
                + "\(faces) faces, \(plates) plates); \(alreadyBlurred) already blurred, "
                + "\(simulated) simulated, \(failures.count) failed, \(String(format: "%.2f", seconds)) s"
                + (keptOriginalsIn.map { "; originals kept in \($0)" } ?? "")
        }
    }

    static func run(directories: [String], naming: CatalogNamingConvention, keepOriginals: String?, quiet: Bool,
                    arguments: ParsedArguments) throws -> Report {
        let start = Date()
        // Originals must not land where serve reads: outside every indexed folder.
        if let keepOriginals {
            let kept = URL(fileURLWithPath: keepOriginals).standardizedFileURL.resolvingSymlinksInPath().path + "/"
            for directory in directories {
                let indexed = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path + "/"
                if kept.hasPrefix(indexed) || indexed.hasPrefix(kept) {
                    throw arguments.error("--keep-originals \(keepOriginals) must be outside the indexed folder \(directory) "
                                          + "(the catalog would index, and serve publish, the unblurred originals)")
                }
            }
        }
        var photos: [(path: String, relative: String)] = []
        var simulated = 0, already = 0
        for directory in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CatalogError.directoryMissing(path: directory)
            }
            let root = URL(fileURLWithPath: directory).standardizedFileURL.path
            var found: [String] = []
            let enumerator = FileManager.default.enumerator(atPath: root)
            while let relative = enumerator?.nextObject() as? String {
                if naming.isImage(FilePath.name(of: relative)) { found.append(relative) }
            }
            for relative in found.sorted() {
                let path = root + "/" + relative
                if isSimulated(path, naming: naming) { simulated += 1; continue }
                if PrivacyMarker.isBlurred(fileAt: path) { already += 1; continue }
                photos.append((path, FilePath.joining(FilePath.name(of: root), relative)))
            }
        }
        var report = Report(blurred: 0, alreadyBlurred: already, simulated: simulated, faces: 0, plates: 0,
                            keptOriginalsIn: keepOriginals, failures: [], seconds: 0)
        if !photos.isEmpty {
            let detector = try PrivacyDetector()
            let display = quiet ? nil : ProgressDisplay(label: "index --blur", unit: "photos", quiet: quiet)
            for (k, photo) in photos.enumerated() {
                do {
                    let found = try blurInPlace(photo.path, detector: detector,
                                                keepOriginal: keepOriginals.map { FilePath.joining($0, photo.relative) })
                    report.blurred += 1
                    report.faces += found.faces
                    report.plates += found.plates
                } catch {
                    report.failures.append(Report.Failure(path: photo.path, message: describe(error).1))
                }
                display?.update(done: k + 1, total: photos.count, item: FilePath.name(of: photo.path))
            }
        }
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    /// Blurs the photo at `path` in place (keeping the original at `keepOriginal` when given); the faces and
    /// plates blurred.
    static func blurInPlace(_ path: String, detector: PrivacyDetector?, keepOriginal: String?) throws -> (faces: Int, plates: Int) {
        let request = BlurRequest(detector: detector, software: "lookaround \(CommandTree.version)")
        let result = try BlurCommand.blurFile(path, to: path, request: request, dryRun: false, keepOriginal: keepOriginal)
        return (result.regions.filter { $0.kind == .face && $0.state == .blurred }.count,
                result.regions.filter { $0.kind == .plate && $0.state == .blurred }.count)
    }

    /// Whether a panorama is the simulator's (as `lookaround index` decides: a sidecar's `"source": "simulated"`,
    /// or GPano CaptureSoftware / EXIF Make starting with "lookaround").
    static func isSimulated(_ path: String, naming: CatalogNamingConvention) -> Bool {
        let sidecar = naming.stem(ofImage: path) + naming.sidecarSuffix
        if let data = FileManager.default.contents(atPath: sidecar),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let source = object["source"] as? String {
            return source == "simulated"
        }
        guard let metadata = try? ImageMetadata.read(fromJPEGFile: path).metadata else { return false }
        return (metadata.panorama?.captureSoftware ?? "").lowercased().hasPrefix("lookaround")
            || (metadata.make ?? "").lowercased().hasPrefix("lookaround")
    }
}

/// `index --blur` for the frames of videos: each frame a recording gives that is not yet blurred is blurred in
/// place as soon as its recording's frames are written, before the index reads it. No original is kept: the
/// video is the original, and its frames are made again from it whenever they are missing.
///
/// `@unchecked Sendable`: used by the one thread that samples the videos (``VideoIndexing`` reads the
/// recordings one after another); the counts are read after the index run, on that thread.
final class FrameBlurring: @unchecked Sendable {
    private var detector: PrivacyDetector?
    private(set) var blurred = 0, alreadyBlurred = 0, faces = 0, plates = 0
    private(set) var failures: [IndexBlur.Report.Failure] = []
    private(set) var seconds = 0.0

    /// Blurs the frames at `paths` that are not yet blurred (those of an unchanged video were blurred before).
    func blur(_ paths: [String]) {
        let start = Date()
        defer { seconds += Date().timeIntervalSince(start) }
        for path in paths {
            if PrivacyMarker.isBlurred(fileAt: path) { alreadyBlurred += 1; continue }
            do {
                if detector == nil { detector = try PrivacyDetector() }
                let found = try IndexBlur.blurInPlace(path, detector: detector, keepOriginal: nil)
                blurred += 1
                faces += found.faces
                plates += found.plates
            } catch {
                failures.append(IndexBlur.Report.Failure(path: path, message: describe(error).1))
            }
        }
    }

    /// `report` with this run's frames added.
    func adding(to report: IndexBlur.Report) -> IndexBlur.Report {
        var report = report
        report.blurred += blurred
        report.videoFrames += blurred
        report.alreadyBlurred += alreadyBlurred
        report.faces += faces
        report.plates += plates
        report.failures += failures
        report.seconds += seconds
        return report
    }
}

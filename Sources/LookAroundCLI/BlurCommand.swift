import ArgumentParsing
import Foundation
import Imaging
import Privacy

/// `lookaround blur IN… -o DIR`: faces and licence plates blurred by JPEG blocks, and corrections.
enum BlurCommand: Command {
    static let spec = CommandSpec(
        name: "blur",
        abstract: "Blur faces and licence plates in photos and 360° panoramas, changing only the JPEG blocks they touch.",
        discussion: """
            Finds faces (CenterFace) and licence plates (a text detector kept to plates: plate-shaped dark text on a \
            light or yellow plate, and in a panorama below the horizon where a plate on a vehicle can be) on the CPU. \
            A 360° panorama is searched in levelled bands at full and half resolution, padded across the ±180° seam, \
            and in views looking up and down past the zenith and the nadir. Signs, street names and house numbers are \
            not blurred. \
            Each face or plate is blurred strongly (a Gaussian a fifth of its size wide, no mosaic) by re-encoding only \
            the 8×8 JPEG blocks under it, out to the 16×16 grid, with the photo's own quantisation: every other block \
            keeps its coefficients and decodes to the same pixels, and EXIF, XMP (GPano) and every other marker are \
            kept. The photo's XMP records that it was blurred and each region (id, class, score, box, blocks; \
            exiftool -XMP-LookAroundPrivacy:all FILE shows them), so blurring it again changes nothing, and \
            'lookaround serve' knows it may be published.
            Corrections, as a person finds them: --add X,Y,W,H blurs a region the detectors missed; --remove ID \
            restores one they got wrong from the original (--originals DIR: the folder the photo was blurred from, or \
            where --keep-originals put it), and later runs leave it alone. Corrections run no detector.
            Models: installed by scripts/fetch-models.sh (make deps runs it); nothing is downloaded at run time.
            """,
        options: [
            .value("output", short: "o", valueName: "DIR", help: "Write the blurred photos (or with --dry-run the previews) into DIR, "
                   + "by file name; a folder given as IN keeps its sub-folders."),
            .flag("in-place", help: "Replace each photo by its blurred copy (atomically) instead of writing into -o DIR."),
            .flag("dry-run", help: "Blur nothing: write NAME.preview.jpg into -o DIR, the photo with the regions drawn (red faces, "
                  + "yellow plates, green marks, grey removed; thin: the blocks that would change)."),
            .flag("json", help: "Print, per photo, the regions found (id, class, score, box, blocks, state) and timings as JSON."),
            .value("add", valueName: "X,Y,W,H", help: "Blur this box too (pixels; one photo only). Runs no detector.", repeatable: true),
            .value("remove", valueName: "ID", help: "Restore the region with this id (one photo only; needs --originals). Runs no detector.",
                   repeatable: true),
            .value("originals", valueName: "DIR", help: "Where the photo's original is (same file name): needed by --remove."),
            .value("keep-originals", valueName: "DIR", help: "Copy each photo as it was into DIR (same name) before writing, "
                   + "so its blur can be removed later. Keep DIR private: it holds the faces."),
            .flag("no-faces", help: "Do not look for faces."),
            .flag("no-plates", help: "Do not look for licence plates."),
            .value("face-threshold", valueName: "T", help: "CenterFace's threshold, 0.05…0.95 (lower finds more, and more false faces).",
                   defaultValue: "0.35"),
            CommonOptions.quiet,
        ],
        positionals: [PositionalSpec("IN", help: "JPEG files, or folders searched recursively for .jpg/.jpeg files.", variadic: true)],
        examples: [
            (command: "lookaround blur ~/theta -o ~/theta-blurred", comment: "blur a folder of 360° photos into another"),
            (command: "lookaround blur photo.jpg -o preview/ --dry-run --json", comment: "what would be blurred, drawn and listed"),
            (command: "lookaround blur blurred/R0010023.JPG --in-place --add 1200,1400,80,40", comment: "blur a plate the detector missed"),
            (command: "lookaround blur blurred/R0010023.JPG --in-place --remove p2 --originals ~/theta", comment: "un-blur a sign taken for a plate"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let output = arguments.string("output"), inPlace = arguments.flag("in-place"), dryRun = arguments.flag("dry-run")
        if inPlace && output != nil { throw arguments.error("give either -o DIR or --in-place, not both") }
        if !inPlace && output == nil { throw arguments.error("say where the blurred photos go: -o DIR, or --in-place") }
        if dryRun && inPlace { throw arguments.error("--dry-run writes previews into -o DIR; leave out --in-place") }
        let additions = try arguments.strings("add").map { try parseBox($0, arguments: arguments) }
        let removals = arguments.strings("remove")
        let correcting = !additions.isEmpty || !removals.isEmpty
        if !removals.isEmpty && arguments.string("originals") == nil {
            throw arguments.error("--remove restores the original's blocks: give --originals DIR (where the photo's original is)")
        }
        if arguments.flag("no-faces") && arguments.flag("no-plates") && !correcting {
            throw arguments.error("--no-faces and --no-plates together leave nothing to look for")
        }
        let threshold = try arguments.double("face-threshold", in: 0.05...0.95) ?? 0.35
        let quiet = arguments.flag("quiet"), json = arguments.flag("json")

        let inputs = try collectInputs(arguments.positionals, arguments: arguments)
        if correcting && inputs.count != 1 {
            throw arguments.error("--add and --remove correct one photo at a time; \(inputs.count) were given")
        }
        if let output {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw arguments.error("-o \(output) is a file; give a folder (it is created if missing)")
            }
            var seen: [String: String] = [:]
            for input in inputs {
                if let other = seen[input.relative] {
                    throw arguments.error("\(input.path) and \(other) would both be written as \(output)/\(input.relative); blur them into separate folders")
                }
                seen[input.relative] = input.path
            }
        }
        let detector = correcting ? nil : try PrivacyDetector(options: PrivacyDetectorOptions(
            faces: !arguments.flag("no-faces"), plates: !arguments.flag("no-plates"), faceThreshold: threshold))
        let progress = quiet || json || inputs.count < 2 ? nil : ProgressDisplay(label: "blur", unit: "photos", quiet: quiet)
        var reports: [PhotoReport] = []
        var failures = 0
        var firstFailure: (any Error)?
        for (k, input) in inputs.enumerated() {
            do {
                let target = output.map { FilePath.joining($0, input.relative) } ?? input.path
                var request = BlurRequest(detector: detector, additions: additions, removals: removals,
                                          software: "lookaround \(CommandTree.version)")
                if let originals = arguments.string("originals"), !removals.isEmpty {
                    let candidate = FilePath.joining(originals, input.relative)
                    let fallback = FilePath.joining(originals, FilePath.name(of: input.path))
                    let path = FileManager.default.fileExists(atPath: candidate) ? candidate : fallback
                    guard FileManager.default.fileExists(atPath: path) else {
                        throw PrivacyError.originalNotFound(file: input.path, looked: Array(Set([candidate, fallback])).sorted())
                    }
                    request.original = try ImageFile.read(path)
                    request.originalPath = path
                }
                let report = try blurFile(input.path, to: target, request: request, dryRun: dryRun,
                                          keepOriginal: arguments.string("keep-originals").map { FilePath.joining($0, input.relative) })
                reports.append(report)
                if !json && !quiet { Console.out(report.line) }
            } catch {
                failures += 1
                if firstFailure == nil { firstFailure = error }
                let (_, message) = describe(error)
                Console.error("error: \(input.path): \(message)")
            }
            progress?.update(done: k + 1, total: inputs.count, item: input.relative)
        }
        if json { try Console.json(reports) }
        if failures > 0 {
            Console.error("error: \(failures) of \(inputs.count) photos could not be blurred (listed above)")
            if failures == inputs.count, let firstFailure { return describe(firstFailure).0 }
            return .failed(.badData)
        }
        return .ok
    }

    /// One photo's result, as printed and as JSON.
    struct PhotoReport: Encodable {
        var input: String
        var output: String?
        var preview: String?
        var width: Int, height: Int
        var panorama: Bool
        var changed: Bool
        var added: [String]
        var removed: [String]
        var alreadyHandled: Int
        var blocksReplaced: Int
        var regions: [PrivacyRegion]
        var seconds: Seconds

        struct Seconds: Encodable { var decode, detect, blur: Double }

        var line: String {
            let faces = regions.filter { $0.kind == .face && $0.state == .blurred }.count
            let plates = regions.filter { $0.kind == .plate && $0.state == .blurred }.count
            let marks = regions.filter { $0.kind == .manual && $0.state == .blurred }.count
            var what = "\(faces) face\(faces == 1 ? "" : "s"), \(plates) plate\(plates == 1 ? "" : "s")"
            if marks > 0 { what += ", \(marks) mark\(marks == 1 ? "" : "s")" }
            let time = String(format: "%.2f s", seconds.decode + seconds.detect + seconds.blur)
            if let preview { return "\(input): would blur \(what) (\(added.count) new) → preview \(preview), \(time)" }
            guard changed else { return "\(input): unchanged, already blurred (\(what)), \(time)" }
            var text = "\(input) → \(output ?? input): \(what) blurred"
            if !added.isEmpty { text += " (new: \(added.joined(separator: ", ")); \(blocksReplaced) blocks replaced)" }
            if !removed.isEmpty { text += ", restored \(removed.joined(separator: ", "))" }
            return text + ", \(time)"
        }
    }

    /// Blurs `path` into `target` (the same path: in place), keeping its original at `keepOriginal` first;
    /// with `dryRun` writes `target`'s preview instead. Writes are atomic: a failure leaves every file as it was.
    static func blurFile(_ path: String, to target: String, request: BlurRequest, dryRun: Bool, keepOriginal: String?) throws -> PhotoReport {
        let bytes = try ImageFile.read(path)
        let outcome = try PhotoBlurrer.blur(bytes, file: path, request: request)
        var report = PhotoReport(input: path, output: nil, preview: nil, width: outcome.width, height: outcome.height,
                                 panorama: outcome.isPanorama, changed: outcome.changed, added: outcome.added.map(\.id),
                                 removed: outcome.removed.map(\.id), alreadyHandled: outcome.alreadyHandled,
                                 blocksReplaced: outcome.blocksReplaced, regions: outcome.marker.regions,
                                 seconds: .init(decode: outcome.decodeSeconds, detect: outcome.detectionSeconds, blur: outcome.blurSeconds))
        if dryRun {
            let preview = FilePath.directory(of: target).isEmpty ? "" : FilePath.directory(of: target)
            let name = (FilePath.name(of: target) as NSString).deletingPathExtension + ".preview.jpg"
            let previewPath = preview.isEmpty ? name : FilePath.joining(preview, name)
            let fonts = try? FontLibrary(paths: .debian)
            let drawn = try PrivacyPreview.draw(outcome.pixels, regions: outcome.marker.regions, fonts: fonts)
            try makeFolder(of: previewPath)
            try ImageFile.write(try JPEGCodec.encode(drawn, quality: 88), to: previewPath)
            report.preview = previewPath
            return report
        }
        if let keepOriginal, !FileManager.default.fileExists(atPath: keepOriginal) {
            try makeFolder(of: keepOriginal)
            try ImageFile.write(bytes, to: keepOriginal)
        }
        if target != path || outcome.changed {
            try makeFolder(of: target)
            try ImageFile.write(outcome.jpeg, to: target)
        }
        report.output = target
        return report
    }

    static func makeFolder(of path: String) throws {
        let folder = FilePath.directory(of: path)
        guard !folder.isEmpty else { return }
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw WriteFailure(path: path, code: (error as NSError).code == NSFileWriteNoPermissionError ? EACCES : ENOENT)
        }
    }

    /// "X,Y,W,H" in pixels.
    static func parseBox(_ text: String, arguments: ParsedArguments) throws -> PixelBox {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
              [x, y, w, h].allSatisfy({ $0.isFinite }), x >= 0, y >= 0, w >= 1, h >= 1 else {
            throw arguments.error("--add '\(text)' is not X,Y,W,H in pixels (X, Y ≥ 0; W, H ≥ 1), e.g. --add 1200,1400,80,40")
        }
        return PixelBox(x: x, y: y, width: w, height: h)
    }

    /// The JPEG files among `paths` (folders searched recursively), each with the name it is written under.
    static func collectInputs(_ paths: [String], arguments: ParsedArguments) throws -> [(path: String, relative: String)] {
        var inputs: [(String, String)] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw PrivacyError.unreadableImage(file: path, detail: "no such file or folder")
            }
            if isDirectory.boolValue {
                let root = URL(fileURLWithPath: path).standardizedFileURL.path
                var found: [String] = []
                let enumerator = FileManager.default.enumerator(atPath: root)
                while let relative = enumerator?.nextObject() as? String {
                    let name = FilePath.name(of: relative).lowercased()
                    if !name.hasPrefix(".") && (name.hasSuffix(".jpg") || name.hasSuffix(".jpeg")) && !name.hasSuffix(".preview.jpg") {
                        found.append(relative)
                    }
                }
                inputs += found.sorted().map { (root + "/" + $0, $0) }
            } else {
                inputs.append((path, FilePath.name(of: path)))
            }
        }
        guard !inputs.isEmpty else { throw arguments.error("no JPEG files in \(paths.joined(separator: ", "))") }
        return inputs
    }
}

import Foundation
import Imaging
import Storage
import Synchronization

/// The frames of many recordings in one folder (beside a catalog, never beside the videos): one subfolder
/// per recording with its JPEGs and a `manifest.json` saying what they were made from. A recording whose
/// files (and GPS log), sizes and modification times, and whose settings are unchanged is not decoded
/// again; folders of recordings no longer present are removed (only folders that hold a manifest).
///
/// The folder and the recordings may be in object storage (`s3://BUCKET/PREFIX`, ``StorageLocation``). A
/// recording in a bucket is copied to a local temporary file for decoding (in bounded ranged reads, after
/// checking the disk has room; removed when its frames are made) and is unchanged while its objects' sizes
/// and ETags are. Frames for a folder in a bucket are made in a local temporary folder and sent one object
/// each; the manifest goes last, after the previous one was deleted, so a run killed half-way leaves a
/// folder without a manifest, which the next run makes again.
public struct VideoFrameStore: Sendable {
    /// How frames are made.
    public struct Settings: Sendable, Hashable, Codable {
        /// Metres between frames along the track.
        public var everyMeters: Double
        /// Width of frames reprojected from a GoPro MAX (nil: the camera's export width).
        public var frameWidth: Int?
        /// JPEG quality.
        public var quality: Int
        /// Seconds added to the camera's clock to get UTC (for GPS logs).
        public var timeOffsetSeconds: Double

        public init(everyMeters: Double = 3, frameWidth: Int? = nil, quality: Int = 90, timeOffsetSeconds: Double = 0) {
            self.everyMeters = everyMeters
            self.frameWidth = frameWidth
            self.quality = quality
            self.timeOffsetSeconds = timeOffsetSeconds
        }
    }

    /// What became of a recording.
    public enum Outcome: Sendable {
        /// Its frames' paths in time order, and notes for the user.
        case frames([String], notes: [String], reused: Bool)
        /// Not a panorama recording (a flat video): the reason.
        case skipped(String)
        /// Could not be made into frames: the reason.
        case failed(String)
    }

    /// The folder.
    public let directory: String
    public var settings: Settings

    public init(directory: String, settings: Settings) {
        self.directory = directory
        self.settings = settings
    }

    /// The manifest of a recording's folder.
    struct Manifest: Codable {
        /// A file (its modification time) or an object (its ETag in `version`, `modified` 0).
        struct Source: Codable, Hashable { var path: String; var size: Int64; var modified: Double; var version: String? = nil }
        var version = 1
        var sources: [Source]
        var settings: Settings
        var frames: [String]
        var notes: [String]
    }

    static let manifestName = "manifest.json"

    // MARK: Recordings

    /// Groups video files into recordings: each recording's first file, and for every other file the
    /// recording it belongs to (a later GoPro chapter; an Insta360 `.insv` whose export `NAME.mp4` is beside
    /// it, which it gives its GPS).
    public static func recordings(of paths: [String]) -> (recordings: [String], partOf: [String: String]) {
        var partOf: [String: String] = [:]
        let present = Set(paths)
        var recordings: [String] = []
        for path in paths.sorted() where partOf[path] == nil {
            let chapters = VideoRecording.chapterPaths(of: path).filter { present.contains($0) }
            if let first = chapters.first, first != path, present.contains(first) { partOf[path] = first; continue }
            for other in chapters.dropFirst() { partOf[other] = path }
            if (path as NSString).pathExtension.lowercased() == "insv" {
                let stem = (path as NSString).deletingPathExtension
                if let export = ["mp4", "MP4", "mov", "MOV"].map({ stem + "." + $0 }).first(where: present.contains) {
                    partOf[path] = export
                    continue
                }
            }
            recordings.append(path)
        }
        return (recordings.filter { partOf[$0] == nil }, partOf)
    }

    /// The files whose sizes and times decide whether a recording changed: its chapters and a log beside it.
    static func sources(of path: String) -> [Manifest.Source] {
        if StorageLocation.isObjectStorage(path) {
            // An object and a GPS log beside it (chapters are joined on disks only).
            guard let stamp = try? ObjectStorage.shared.stamp(path) else { return [] }
            var sources = [Manifest.Source(path: path, size: Int64(stamp.size), modified: 0, version: stamp.version)]
            if let (log, stamp) = VideoRecording.logCandidates(path).lazy.compactMap({ p in (try? ObjectStorage.shared.stamp(p)).map { (p, $0) } }).first,
               log != path {
                sources.append(Manifest.Source(path: log, size: Int64(stamp.size), modified: 0, version: stamp.version))
            }
            return sources
        }
        var paths = VideoRecording.chapterPaths(of: path)
        if let log = VideoRecording.logBeside(path) { paths.append(log) }
        return paths.compactMap { p in
            var info = stat()
            guard stat(p, &info) == 0 else { return nil }
            return Manifest.Source(path: p, size: Int64(info.st_size),
                                   modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        }
    }

    /// The folder of the recording `key` (a relative path such as `rides/GS010042.360`).
    public func folder(for key: String) -> String { StorageLocation.joining(directory, key) }

    /// Whether the frames go to object storage.
    var isRemote: Bool { StorageLocation.isObjectStorage(directory) }

    /// The manifest of `folder` when there is a readable one.
    func manifest(in folder: String) -> Manifest? {
        let location = StorageLocation.joining(folder, Self.manifestName)
        let data: Data?
        if isRemote {
            data = (try? ObjectStorage.shared.read(location, caching: false)).map { Data($0) }
        } else {
            data = FileManager.default.contents(atPath: location)
        }
        guard let data, let manifest = try? JSONDecoder().decode(Manifest.self, from: data), manifest.version == 1 else { return nil }
        return manifest
    }

    /// Whether every frame `names` is in `folder`.
    func hasFrames(_ names: [String], in folder: String) -> Bool {
        guard isRemote else { return names.allSatisfy { FileManager.default.fileExists(atPath: FilePath.joining(folder, $0)) } }
        guard let listed = try? ObjectStorage.shared.list(folder) else { return false }
        return Set(names).isSubset(of: Set(listed.map(\.relativePath)))
    }

    /// What a recording copied from object storage must leave free on the temporary folder's disk, bytes.
    static let keepFreeBytes = 1 << 30
    /// Bytes read from object storage at a time while copying a recording.
    static let copyChunkBytes = 8 << 20

    /// Copies the objects of a recording (`sources`: the video, then a log beside it) into a new local
    /// temporary folder, under their own names (the container is told by the extension, the log found
    /// beside the video), in bounded ranged reads; the video's local path. The caller removes its folder.
    /// - Throws: `StorageError` reading them; `VideoError.cannotWrite` when the disk has not room for them
    ///   and ``keepFreeBytes`` more, or cannot be written.
    static func copyToLocal(_ sources: [Manifest.Source]) throws -> String {
        let base = FileManager.default.temporaryDirectory.standardizedFileURL.path
        var volume = statvfs()
        let needed = sources.reduce(0) { $0 + Int($1.size) } + keepFreeBytes
        if statvfs(base, &volume) == 0, Int(volume.f_bavail) * Int(volume.f_frsize) < needed {
            throw VideoError.cannotWrite(WriteFailure(path: base, code: ENOSPC))
        }
        let folder = base + "/lookaround-video-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw VideoError.cannotWrite(WriteFailure(path: folder, code: errno == 0 ? EACCES : errno))
        }
        do {
            for source in sources { try copy(source.path, size: Int(source.size), to: folder + "/" + FilePath.name(of: source.path)) }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        return folder + "/" + FilePath.name(of: sources[0].path)
    }

    /// The object at `location` (`size` bytes) into the new file `path`, ``copyChunkBytes`` at a time.
    private static func copy(_ location: String, size: Int, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw VideoError.cannotWrite(WriteFailure(path: path, code: errno)) }
        defer { close(descriptor) }
        var offset = 0
        while offset < size {
            let bytes = try ObjectStorage.shared.read(location, range: offset..<min(size, offset + copyChunkBytes), caching: false)
            guard !bytes.isEmpty else { throw StorageError.changedWhileReading(location: location) }
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, bytes.count - done) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw VideoError.cannotWrite(WriteFailure(path: path, code: errno)) }
                done += n
            }
            offset += bytes.count
        }
    }

    /// The frames of the recording at `path` in its folder `key`: the previous ones when nothing changed,
    /// else made anew (in a new folder swapped in when complete).
    /// `prepare` is called with the new frames' local paths before they are published (with a folder in
    /// object storage, before they are sent: blurring).
    public func frames(recording path: String, key: String,
                       progress: (@Sendable (FrameExtractor.Progress) -> Void)? = nil,
                       prepare: (([String]) -> Void)? = nil) -> Outcome {
        let folder = self.folder(for: key)
        let sources = Self.sources(of: path)
        if !sources.isEmpty, let manifest = manifest(in: folder), manifest.sources == sources, manifest.settings == settings,
           hasFrames(manifest.frames, in: folder) {
            return .frames(manifest.frames.map { StorageLocation.joining(folder, $0) }, notes: manifest.notes, reused: true)
        }
        // A recording in object storage is decoded from a local copy, removed when done.
        var localPath = path
        if StorageLocation.isObjectStorage(path) {
            do {
                guard !sources.isEmpty else {
                    _ = try ObjectStorage.shared.stamp(path)
                    throw StorageError.changedWhileReading(location: path)
                }
                localPath = try Self.copyToLocal(sources)
            } catch {
                return .failed("cannot copy it from object storage to decode it: \(error)")
            }
        }
        defer { if localPath != path { try? FileManager.default.removeItem(atPath: FilePath.directory(of: localPath)) } }
        func named(_ text: String) -> String { localPath == path ? text : text.replacingOccurrences(of: localPath, with: path) }
        let recording: VideoRecording
        do {
            recording = try VideoRecording(path: localPath, options: VideoReadOptions(timeOffsetSeconds: settings.timeOffsetSeconds))
        } catch {
            return .failed(named(error.description))
        }
        guard recording.projection.makesPanoramas else {
            let reason = named(FrameExtractor.refusal(recording))
            if recording.projection == .dualFisheye {
                let gps = recording.telemetry.map { ", its GPS (\($0.gps.count) fixes from the \($0.source)) read" } ?? ""
                return .failed(reason + gps)
            }
            return .skipped(reason)
        }
        let plan: SamplingPlan
        do { plan = try TrackSampler.plan(recording, everyMeters: settings.everyMeters) } catch { return .failed(named(error.description)) }
        guard !plan.frames.isEmpty else { return .failed("no frame to take: the GPS track has no position inside the video") }
        // A new folder, swapped in when complete: a failure leaves the previous frames as they were (for a
        // folder in object storage, a local one whose frames are then sent).
        let fresh = isRemote ? FileManager.default.temporaryDirectory.standardizedFileURL.path
            + "/lookaround-frames-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" : folder + ".new"
        try? FileManager.default.removeItem(atPath: fresh)
        do {
            try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: true)
        } catch {
            return .failed("cannot create \(fresh): \((error as NSError).localizedDescription)")
        }
        let written: [FrameExtractor.Written]
        do {
            written = try FrameExtractor.extract(recording, plan: plan,
                                                 options: FrameExtractor.Options(frameWidth: settings.frameWidth, quality: settings.quality),
                                                 path: { FilePath.joining(fresh, String(format: "%06d.jpg", $0)) }, progress: progress)
        } catch {
            try? FileManager.default.removeItem(atPath: fresh)
            return .failed(named(error.description))
        }
        let notes = Self.notes(recording: recording, plan: plan).map(named)
        let names = written.map { FilePath.name(of: $0.path) }
        prepare?(written.map(\.path))
        let manifest = Manifest(sources: sources, settings: settings, frames: names, notes: notes)
        if isRemote {
            defer { try? FileManager.default.removeItem(atPath: fresh) }
            do {
                try publish(names, from: fresh, manifest: manifest, to: folder)
            } catch {
                return .failed("cannot write the frames into \(folder): \(error)")
            }
            return .frames(names.map { StorageLocation.joining(folder, $0) }, notes: notes, reused: false)
        }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try WriteFailure.writeAtomically(try encoder.encode(manifest), to: FilePath.joining(fresh, Self.manifestName))
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.moveItem(atPath: fresh, toPath: folder)
        } catch {
            try? FileManager.default.removeItem(atPath: fresh)
            return .failed("cannot write the frames into \(folder): \(error)")
        }
        return .frames(names.map { FilePath.joining(folder, $0) }, notes: notes, reused: false)
    }

    /// Sends the frames `names` in the local folder `fresh` to `folder` in object storage: the previous
    /// manifest deleted first, each frame one object, the manifest last, then the objects of earlier
    /// frames no longer listed deleted.
    func publish(_ names: [String], from fresh: String, manifest: Manifest, to folder: String) throws {
        let storage = ObjectStorage.shared
        try storage.delete(StorageLocation.joining(folder, Self.manifestName))
        for name in names { try storage.upload(file: FilePath.joining(fresh, name), to: StorageLocation.joining(folder, name), contentType: "image/jpeg") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try storage.write([UInt8](try encoder.encode(manifest)), to: StorageLocation.joining(folder, Self.manifestName), contentType: "application/json")
        let kept = Set(names + [Self.manifestName])
        for object in try storage.list(folder) where !kept.contains(object.relativePath) { try storage.delete(object.location) }
    }

    /// What a user should know about a recording's frames.
    static func notes(recording: VideoRecording, plan: SamplingPlan) -> [String] {
        var notes = recording.notes
        if recording.projectionReason.hasPrefix("assumed") { notes.append("taken as equirectangular: " + recording.projectionReason) }
        if plan.videoFramesWithoutGPS > 0 {
            notes.append(String(format: "%d video frames (%.1f s) without GPS skipped", plan.videoFramesWithoutGPS, plan.secondsWithoutGPS))
        }
        if let t = recording.telemetry, t.droppedNoFix + t.droppedImprecise + t.droppedOutliers > 0 {
            notes.append("\(t.droppedNoFix + t.droppedImprecise + t.droppedOutliers) of \(t.gpsRead) GPS positions dropped "
                         + "(\(t.droppedNoFix) without a fix, \(t.droppedImprecise) with a dilution of precision over 5, \(t.droppedOutliers) jumps)")
        }
        return notes
    }

    /// Removes the folders of recordings not in `keys` (only folders holding a manifest, and leftover `.new` ones).
    public func removeFolders(except keys: Set<String>) {
        if isRemote {
            guard let objects = try? ObjectStorage.shared.list(directory) else { return }
            let stale = Set(objects.filter { FilePath.name(of: $0.relativePath) == Self.manifestName }.map { FilePath.directory(of: $0.relativePath) })
                .subtracting(keys)
            for object in objects where stale.contains(where: { object.relativePath.hasPrefix($0 + "/") }) {
                try? ObjectStorage.shared.delete(object.location)
            }
            return
        }
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return }
        var stale: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".new") { stale.append(relative); enumerator.skipDescendants(); continue }
            guard FilePath.name(of: relative) == Self.manifestName else { continue }
            let key = FilePath.directory(of: relative)
            if !keys.contains(key) { stale.append(key) }
        }
        for key in stale { try? FileManager.default.removeItem(atPath: FilePath.joining(directory, key)) }
    }

    /// Plans of recordings, for counting the work before doing it: video frames to decode (nil: reused or refused).
    public func framesToDecode(recording path: String, key: String) -> Int? {
        let folder = self.folder(for: key)
        if let manifest = manifest(in: folder), manifest.sources == Self.sources(of: path), manifest.settings == settings { return nil }
        // A recording in object storage is read when it is made into frames (not twice): its work is unknown here.
        if StorageLocation.isObjectStorage(path) { return nil }
        guard let recording = try? VideoRecording(path: path, options: VideoReadOptions(timeOffsetSeconds: settings.timeOffsetSeconds)),
              recording.projection.makesPanoramas, let plan = try? TrackSampler.plan(recording, everyMeters: settings.everyMeters),
              let last = plan.frames.last else { return nil }
        return Int((last.timeSeconds * max(recording.framesPerSecond, 1)).rounded()) + 1
    }
}

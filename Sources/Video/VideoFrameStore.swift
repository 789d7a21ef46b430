import Foundation
import Imaging
import Synchronization

/// The frames of many recordings in one folder (beside a catalog, never beside the videos): one subfolder
/// per recording with its JPEGs and a `manifest.json` saying what they were made from. A recording whose
/// files (and GPS log), sizes and modification times, and whose settings are unchanged is not decoded
/// again; folders of recordings no longer present are removed (only folders that hold a manifest).
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
        struct Source: Codable, Hashable { var path: String; var size: Int64; var modified: Double }
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
    public func folder(for key: String) -> String { FilePath.joining(directory, key) }

    /// The frames of the recording at `path` in its folder `key`: the previous ones when nothing changed,
    /// else made anew (in a new folder swapped in when complete).
    public func frames(recording path: String, key: String,
                       progress: (@Sendable (FrameExtractor.Progress) -> Void)? = nil) -> Outcome {
        let folder = self.folder(for: key)
        let sources = Self.sources(of: path)
        if let data = FileManager.default.contents(atPath: FilePath.joining(folder, Self.manifestName)),
           let manifest = try? JSONDecoder().decode(Manifest.self, from: data), manifest.version == 1,
           manifest.sources == sources, manifest.settings == settings,
           manifest.frames.allSatisfy({ FileManager.default.fileExists(atPath: FilePath.joining(folder, $0)) }) {
            return .frames(manifest.frames.map { FilePath.joining(folder, $0) }, notes: manifest.notes, reused: true)
        }
        let recording: VideoRecording
        do {
            recording = try VideoRecording(path: path, options: VideoReadOptions(timeOffsetSeconds: settings.timeOffsetSeconds))
        } catch {
            return .failed(error.description)
        }
        guard recording.projection.makesPanoramas else {
            let reason = FrameExtractor.refusal(recording)
            if recording.projection == .dualFisheye {
                let gps = recording.telemetry.map { ", its GPS (\($0.gps.count) fixes from the \($0.source)) read" } ?? ""
                return .failed(reason + gps)
            }
            return .skipped(reason)
        }
        let plan: SamplingPlan
        do { plan = try TrackSampler.plan(recording, everyMeters: settings.everyMeters) } catch { return .failed(error.description) }
        guard !plan.frames.isEmpty else { return .failed("no frame to take: the GPS track has no position inside the video") }
        // A new folder, swapped in when complete: a failure leaves the previous frames as they were.
        let fresh = folder + ".new"
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
            return .failed(error.description)
        }
        let notes = Self.notes(recording: recording, plan: plan)
        let names = written.map { FilePath.name(of: $0.path) }
        let manifest = Manifest(sources: sources, settings: settings, frames: names, notes: notes)
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
        if let data = FileManager.default.contents(atPath: FilePath.joining(folder, Self.manifestName)),
           let manifest = try? JSONDecoder().decode(Manifest.self, from: data), manifest.sources == Self.sources(of: path),
           manifest.settings == settings { return nil }
        guard let recording = try? VideoRecording(path: path, options: VideoReadOptions(timeOffsetSeconds: settings.timeOffsetSeconds)),
              recording.projection.makesPanoramas, let plan = try? TrackSampler.plan(recording, everyMeters: settings.everyMeters),
              let last = plan.frames.last else { return nil }
        return Int((last.timeSeconds * max(recording.framesPerSecond, 1)).rounded()) + 1
    }
}

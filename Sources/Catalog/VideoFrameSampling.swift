import Foundation
import Imaging

/// Turns the videos `lookaround index` finds into geotagged frame JPEGs, which the index then reads like
/// photos (EXIF GPS, time, direction; GPano): one folder of frames per recording, named after it, so each
/// recording is one sequence. Implemented above Catalog (it decodes video): the command line's adapter over
/// the Video module; Catalog only hands the videos over and takes the frames back.
public protocol VideoFrameSampling: Sendable {
    /// Whether a file name is a video this sampler reads (by its extension).
    func isVideo(_ fileName: String) -> Bool
    /// Frames for `videos` (all the videos of this index run), written under `directory`; frames of an
    /// unchanged video are kept from the previous run, and folders of videos no longer found are removed.
    func frames(for videos: [VideoInput], directory: String, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?) -> [VideoFramesOutcome]
}

/// A video found by the index.
public struct VideoInput: Sendable, Hashable {
    /// The file.
    public var path: String
    /// Its path-derived id (relative path without extension, as photos get).
    public var id: String
    /// Its folder's sequence name (as photos get: `ROOT/SUBFOLDER`).
    public var folder: String
    /// Where its frames go when not in the catalog's frames folder (videos found in a bucket: the
    /// bucket's, ``CatalogBuilder/bucketFramesDirectory(of:catalogFrames:)``).
    public var framesDirectory: String?

    public init(path: String, id: String, folder: String, framesDirectory: String? = nil) {
        self.path = path
        self.id = id
        self.folder = folder
        self.framesDirectory = framesDirectory
    }
}

/// What became of one video.
public enum VideoFramesOutcome: Sendable {
    /// Its frames (JPEG paths, in time order); their ids are `VIDEO-ID/FRAME-STEM` and they form the
    /// sequence folder `FOLDER/VIDEO-NAME`. `warnings` (GPS gaps skipped, assumptions) are reported with the
    /// video's path.
    case frames(VideoInput, paths: [String], warnings: [String])
    /// Read, but not a panorama recording (a flat video): reported as a warning, not a failure.
    case skipped(VideoInput, reason: String)
    /// Part of another recording (a later chapter, an Insta360 original whose export is beside it).
    case partOf(VideoInput, recording: String)
    /// Could not be made into frames (no GPS, damaged, an `.insv` without its export): a failure.
    case failed(VideoInput, reason: String)
}

extension CatalogLocation {
    /// Where frames of videos are written (`lookaround index` over folders with 360° videos):
    /// `$LOOKAROUND_FRAMES_DIR` when it names object storage (`s3://BUCKET/PREFIX`, for any catalog, as
    /// ``tileDirectory``) or the catalog is in PostGIS (shared storage every machine mounts or reads); else
    /// beside an SQLite catalog, named like it (`photos.sqlite` → `photos.frames`), never in the videos'
    /// folder, and `Panoramas/catalog.frames` for a PostGIS catalog without it. (Videos found in a bucket
    /// have their frames written into the bucket: ``CatalogBuilder/bucketFramesDirectory(of:catalogFrames:)``.)
    public var videoFramesDirectory: String { sharedFolder(variable: "LOOKAROUND_FRAMES_DIR", suffix: ".frames") }
}

extension CatalogBuilder {
    /// The frames of the videos found, as files for the photo ingest, with the failures and warnings the
    /// videos gave.
    static func videoFrames(_ videos: [VideoInput], options: CatalogBuildOptions, location: CatalogLocation)
        -> (files: [(path: String, id: String, folder: String)], failures: [IndexReport.FileMessage], warnings: [IndexReport.FileMessage]) {
        guard let sampler = options.videoSampler else { return ([], [], []) }
        let catalogFrames = options.videoFramesDirectory ?? location.videoFramesDirectory
        var files: [(String, String, String)] = [], failures: [IndexReport.FileMessage] = [], warnings: [IndexReport.FileMessage] = []
        // One call per frames folder (each removes the folders of its recordings no longer found).
        var outcomes: [VideoFramesOutcome] = []
        var byDirectory = Dictionary(grouping: videos) { $0.framesDirectory ?? catalogFrames }
        if byDirectory[catalogFrames] == nil { byDirectory[catalogFrames] = [] }
        for directory in byDirectory.keys.sorted() {
            outcomes += sampler.frames(for: byDirectory[directory] ?? [], directory: directory, progress: options.videoProgress)
        }
        for outcome in outcomes {
            switch outcome {
            case .frames(let video, let paths, let notes):
                let name = FilePath.name(of: video.path)
                for path in paths {
                    let frame = options.naming.stem(ofImage: FilePath.name(of: path))
                    files.append((path, video.id + "/" + frame, video.folder + "/" + name))
                }
                warnings += notes.map { IndexReport.FileMessage(path: video.path, message: $0) }
            case .skipped(let video, let reason):
                warnings.append(.init(path: video.path, message: reason))
            case .partOf:
                break
            case .failed(let video, let reason):
                failures.append(.init(path: video.path, message: reason))
            }
        }
        return (files, failures, warnings)
    }
}

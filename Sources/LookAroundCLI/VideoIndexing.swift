import Catalog
import Foundation
import Imaging
import Storage
import Video

/// `lookaround index`'s videos: Catalog's ``Catalog/VideoFrameSampling`` over the Video module's frame store.
/// Each recording's frames go in a folder named after it under the frames folder (the catalog's, or for
/// videos in a bucket the bucket's); the index then reads them like photos. Videos and frames folders may
/// be in object storage (``VideoFrameStore`` copies a video from there to decode it, and sends frames there).
struct VideoIndexing: VideoFrameSampling {
    var settings: VideoFrameStore.Settings
    /// With `index --blur`: blurs each recording's frames as soon as they are written (nil: left as decoded).
    var blurring: FrameBlurring?

    func isVideo(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(of: "."), !fileName.hasPrefix(".") else { return false }
        return VideoRecording.extensions.contains(fileName[fileName.index(after: dot)...].lowercased())
    }

    /// The folder of a video's frames inside the frames folder: its own folder's sequence name and file name.
    static func key(_ video: VideoInput) -> String { video.folder + "/" + FilePath.name(of: video.path) }

    func frames(for videos: [VideoInput], directory: String, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?) -> [VideoFramesOutcome] {
        if case .s3(let bucket, _)? = try? StorageLocation(parsing: directory), !videos.isEmpty,
           let problem = ObjectStorage.shared.problem(withBucket: bucket) {
            // The bucket of the frames answers and these credentials may use it, before minutes of decoding.
            return videos.map { .failed($0, reason: "its frames cannot be written to \(directory): \(problem)") }
        }
        let remote = StorageLocation.isObjectStorage(directory)
        let store = VideoFrameStore(directory: directory, settings: settings)
        let byPath = Dictionary(videos.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let (recordings, partOf) = VideoFrameStore.recordings(of: videos.map(\.path))
        // The work first (headers and telemetry only), so progress can say what is left.
        let work = recordings.map { store.framesToDecode(recording: $0, key: Self.key(byPath[$0]!)) ?? 0 }
        let total = max(1, work.reduce(0, +))
        var outcomes: [VideoFramesOutcome] = []
        var done = 0
        for (k, path) in recordings.enumerated() {
            let video = byPath[path]!
            let before = done
            // Frames sent to a bucket are blurred before they are sent; frames on disk where they are (those of
            // an unchanged video too: the blurring skips what it blurred before).
            let blurBeforeSending: (([String]) -> Void)? = remote ? blurring.map { blurring in { blurring.blur($0) } } : nil
            let outcome = store.frames(recording: path, key: Self.key(video),
                                       progress: { p in progress?(min(total, before + p.decoded), total) }, prepare: blurBeforeSending)
            switch outcome {
            case .frames(let paths, let notes, _):
                if !remote { blurring?.blur(paths) }
                outcomes.append(.frames(video, paths: paths, warnings: notes))
            case .skipped(let reason): outcomes.append(.skipped(video, reason: reason))
            case .failed(let reason): outcomes.append(.failed(video, reason: reason))
            }
            done += work[k]
            if work[k] > 0 { progress?(min(total, done), total) }
        }
        for (path, owner) in partOf.sorted(by: { $0.key < $1.key }) {
            if let video = byPath[path] { outcomes.append(.partOf(video, recording: owner)) }
        }
        store.removeFolders(except: Set(recordings.compactMap { byPath[$0].map(Self.key) }))
        return outcomes
    }
}

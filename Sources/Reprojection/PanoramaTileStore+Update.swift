import Dispatch
import Foundation
import Imaging
import Parallelism
import Storage
import Synchronization

/// What ``PanoramaTileStore/update(_:progress:)`` did.
public struct PanoramaTileReport: Sendable, Hashable, Codable {
    /// A panorama whose tile file could not be made, and why.
    public struct Failure: Sendable, Hashable, Codable {
        /// The panorama.
        public var panoramaID: String
        /// Its image file.
        public var path: String
        /// The reason.
        public var message: String
        /// The `errno` when the tile file could not be written (disk full, no permission), nil when the
        /// panorama could not be read.
        public var writeErrno: Int32?
    }

    /// The folder of the tile files.
    public var directory: String
    /// Panoramas given.
    public var panoramaCount: Int
    /// Tile files made (missing or stale before).
    public var made: Int
    /// Tile files already current, left as they were.
    public var upToDate: Int
    /// Panoramas without a tile file, with the reason.
    public var failures: [Failure]
    /// Tile files of panoramas no longer given, deleted.
    public var removed: Int
    /// Bytes of the tile files made now.
    public var bytesWritten: Int
    /// Bytes of all the given panoramas' tile files after the update.
    public var totalBytes: Int
    /// Wall time, seconds.
    public var seconds: Double
}

extension PanoramaTileStore {
    /// Makes the tile file of every panorama in `panoramas` that lacks a current one, and deletes the
    /// folder's tile files of panoramas not in the list (other files are left alone) and the stale file
    /// of a panorama whose new one cannot be made.
    ///
    /// Current files cost a `stat` and a header read each. The others are made several at a time, one
    /// per core, each file's tiles encoded on its own thread: decoding and halving a panorama is mostly
    /// serial, so panoramas in parallel keep every core busy where one panorama's tiles in parallel
    /// would not. A panorama that fails is listed with its reason; the rest continue.
    ///
    /// Memory: each panorama reserves ``estimatedPeakBytes(width:height:fileBytes:subsampling:)`` (from its JPEG
    /// header) out of `memoryBudgetBytes` before it is decoded, and waits while the others in progress
    /// hold too much, so a folder of large panoramas is made fewer at a time instead of one per core;
    /// a panorama that alone needs more than the budget is refused before anything is allocated, with
    /// the figure and the limit.
    /// - Parameters:
    ///   - crops: where partial panoramas lie in their full sphere, by panorama id.
    ///   - memoryBudgetBytes: the most the files in progress may hold at once (nil: no limit).
    ///   - progress: called with (done, total) about every 1 %, from any thread.
    public func update(_ panoramas: [(panoramaID: String, imagePath: String)], crops: [String: PanoramaCrop] = [:],
                       memoryBudgetBytes: Int? = nil,
                       progress: (@Sendable (Int, Int) -> Void)? = nil) -> PanoramaTileReport {
        let start = DispatchTime.now()
        let total = panoramas.count
        let counter = ProgressCounter(total: total, report: progress)
        // Checking a file costs a header read and a stat each, or requests to object storage: those
        // run several at once.
        let current = Mutex([Bool](repeating: false, count: panoramas.count))
        let remote = StorageLocation.isObjectStorage(directory) || panoramas.contains { StorageLocation.isObjectStorage($0.imagePath) }
        ConcurrentRequests.forEach(panoramas.count, concurrency: remote ? ConcurrentRequests.defaultConcurrency : 1) { index in
            let panorama = panoramas[index]
            if currentFile(panoramaID: panorama.panoramaID, source: panorama.imagePath) != nil {
                current.withLock { $0[index] = true }
                counter.advance()
            }
        }
        let isCurrent = current.withLock { $0 }
        let stale = panoramas.indices.filter { !isCurrent[$0] }
        let outcomes = Outcomes(count: stale.count)
        let budget = memoryBudgetBytes.map(MemoryBudget.init(limitBytes:))
        DispatchQueue.concurrentPerform(iterations: stale.count) { k in
            let panorama = panoramas[stale[k]]
            let outcome: Result<Int, ReprojectionError>
            do throws(ReprojectionError) {
                let reserved = try budget?.reserve(for: panorama.imagePath) ?? 0
                defer { budget?.release(reserved) }
                let made = try file(panoramaID: panorama.panoramaID, source: panorama.imagePath,
                                    crop: crops[panorama.panoramaID], maximumThreads: 1)
                outcome = .success(Self.byteCount(made.file.path))
            } catch {
                // A stale file would never be read again: do not keep it.
                try? ObjectStorage.shared.delete(path(panoramaID: panorama.panoramaID))
                outcome = .failure(error)
            }
            outcomes.set(k, outcome)
            counter.advance()
        }
        var failures: [PanoramaTileReport.Failure] = []
        var bytesWritten = 0
        for (k, index) in stale.enumerated() {
            switch outcomes.value(k) {
            case .success(let bytes): bytesWritten += bytes
            case .failure(let error):
                var writeErrno: Int32?
                if case .cannotWrite(let failure) = error { writeErrno = failure.code }
                failures.append(.init(panoramaID: panoramas[index].panoramaID, path: panoramas[index].imagePath,
                                      message: "\(error)", writeErrno: writeErrno))
            case nil: break
            }
        }
        let removed = removeFiles(keeping: panoramas.map(\.panoramaID))
        let totalBytes = panoramas.reduce(0) { $0 + Self.byteCount(path(panoramaID: $1.panoramaID)) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return PanoramaTileReport(directory: directory, panoramaCount: total, made: stale.count - failures.count,
                                  upToDate: total - stale.count, failures: failures, removed: removed,
                                  bytesWritten: bytesWritten, totalBytes: totalBytes, seconds: seconds)
    }

    /// Temporary files of tile writes older than this were left by a process that died mid-write, seconds.
    public static let abandonedTemporaryFileAgeSeconds: Double = 3600

    /// Deletes the folder's tile files (`*.lktiles`) of panoramas other than `panoramaIDs`, and
    /// temporary files of writes abandoned over ``abandonedTemporaryFileAgeSeconds`` ago (a crashed
    /// process's; younger ones may be another process's write in progress).
    /// - Returns: how many tile files were deleted.
    @discardableResult
    public func removeFiles(keeping panoramaIDs: [String]) -> Int {
        let keep = Set(panoramaIDs.map(Self.fileName(panoramaID:)))
        if StorageLocation.isObjectStorage(directory) { return removeObjects(keeping: keep) }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        let now = Date().timeIntervalSince1970
        for name in names {
            let path = directory + "/" + name
            if name.hasSuffix("." + Self.fileExtension) && !name.hasPrefix(".") && !keep.contains(name) {
                if unlink(path) == 0 { removed += 1 }
            } else if name.contains("." + Self.fileExtension + "."), WriteFailure.isAbandonedTemporary(name) {
                // A write killed mid-way (its process is gone).
                unlink(path)
            } else if name.hasPrefix("."), name.hasSuffix(".tmp"), name.contains("." + Self.fileExtension + "."),
                      let modified = PanoramaTileFile.stamp(ofSource: path)?.modifiedNanoseconds,
                      now - Double(modified) / 1e9 > Self.abandonedTemporaryFileAgeSeconds {
                unlink(path)
            }
        }
        return removed
    }

    /// In object storage: deletes the tile files of other panoramas, and aborts the incomplete uploads
    /// of tile files started over ``abandonedTemporaryFileAgeSeconds`` ago (a killed writer's parts, which
    /// no reader ever sees but the bucket keeps until aborted).
    private func removeObjects(keeping keep: Set<String>) -> Int {
        let storage = ObjectStorage.shared
        guard let objects = try? storage.list(directory) else { return 0 }
        var removed = 0
        for object in objects where !object.relativePath.contains("/") && object.relativePath.hasSuffix("." + Self.fileExtension)
            && !keep.contains(object.relativePath) {
            if (try? storage.delete(object.location)) != nil { removed += 1 }
        }
        if case .s3(let bucket, let key)? = try? StorageLocation(parsing: directory), let client = try? storage.client(),
           let uploads = try? client.incompleteUploads(bucket: bucket, prefix: key.isEmpty ? "" : key + "/",
                                                        olderThan: Date().addingTimeInterval(-Self.abandonedTemporaryFileAgeSeconds)) {
            for upload in uploads where upload.key.hasSuffix("." + Self.fileExtension) {
                try? client.abortUpload(bucket: bucket, key: upload.key, uploadID: upload.uploadID)
            }
        }
        return removed
    }

    static func byteCount(_ path: String) -> Int {
        guard StorageLocation.isObjectStorage(path) else {
            var info = stat()
            return stat(path, &info) == 0 ? Int(info.st_size) : 0
        }
        return (try? ObjectStorage.shared.stamp(path).size) ?? 0
    }

    /// Bytes reserved by the tile files in progress, under a limit.
    ///
    /// `@unchecked Sendable`: `inUse` is read and written only while `condition` is locked; `limitBytes` is `let`.
    final class MemoryBudget: @unchecked Sendable {
        let limitBytes: Int
        private let condition = NSCondition()
        private var inUse = 0

        init(limitBytes: Int) { self.limitBytes = limitBytes }

        /// Reserves what making `imagePath`'s tile file needs (from its JPEG header), waiting while the
        /// others hold too much; returns the bytes reserved (0 when the header cannot be read: the
        /// decode then fails and reports why).
        /// - Throws: `ReprojectionError.exceedsMemoryBudget` when it alone needs more than the limit.
        func reserve(for imagePath: String) throws(ReprojectionError) -> Int {
            // The headers are in the first 256 KiB unless the metadata is unusually large.
            let storage = ObjectStorage.shared
            guard let header = (try? JPEGCodec.readHeader(try storage.read(imagePath, range: 0..<(256 << 10), caching: false)))
                    ?? (try? JPEGCodec.readHeader(try storage.read(imagePath, caching: false))) else { return 0 }
            let fileBytes = PanoramaTileStore.byteCount(imagePath)
            let need = PanoramaTileStore.estimatedPeakBytes(width: header.width, height: header.height, fileBytes: fileBytes,
                                                            subsampling: header.subsampling)
            guard need <= limitBytes else {
                throw .exceedsMemoryBudget(file: imagePath, width: header.width, height: header.height,
                                           neededBytes: need, limitBytes: limitBytes)
            }
            condition.lock()
            defer { condition.unlock() }
            while inUse > 0 && inUse + need > limitBytes { condition.wait() }
            inUse += need
            return need
        }

        func release(_ bytes: Int) {
            guard bytes > 0 else { return }
            condition.lock()
            inUse -= bytes
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Results written by worker threads, each to its own slot.
    ///
    /// `@unchecked Sendable`: `values` is read and written under `lock` only.
    private final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Result<Int, ReprojectionError>?]
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ value: Result<Int, ReprojectionError>) { lock.withLock { values[k] = value } }
        func value(_ k: Int) -> Result<Int, ReprojectionError>? { lock.withLock { values[k] } }
    }
}

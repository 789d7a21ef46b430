import Foundation
import Imaging
import Synchronization

/// What a stored object or file is now: its size and a version that changes whenever its bytes do.
public struct ObjectStamp: Sendable, Hashable {
    /// Size in bytes.
    public var size: Int
    /// The S3 ETag, or for a local file its modification time in nanoseconds.
    public var version: String
    /// The modification time (S3 Last-Modified), when known.
    public var modified: Date?

    /// ``version`` as a number: a local file's modification time in nanoseconds, 63 bits of the
    /// SHA-256 of an object's ETag (what a tile file records of its source).
    public var versionNumber: Int64 { Int64(version) ?? Digest.stamp(version) }
}

/// An object or file found under a folder.
public struct ListedObject: Sendable, Hashable {
    /// Its path below the folder (`helsinki/pano-000.jpg`).
    public var relativePath: String
    /// Its full location (`s3://imagery/Panoramas/helsinki/pano-000.jpg` or a path).
    public var location: String
    /// Size and version.
    public var stamp: ObjectStamp
}

/// Where imagery bytes live, one interface over a local folder and S3-compatible object storage:
/// every reader and writer of panoramas, maps, tile files and outputs goes through it with a location
/// that is a path or `s3://BUCKET/KEY` (``StorageLocation``), so the catalog can name either.
///
/// Reading from S3 is demand-driven: ranged `GET`s of what is needed (a tile file's index, then only
/// the tiles a view needs), in blocks of ``blockSize`` kept in a memory cache and, with a cache folder
/// (`--cache-dir`), on disk (``DiskBlockCache``); a block belongs to one ETag, so a changed object is
/// fetched again. An object's size and ETag are trusted for ``revalidateSeconds`` after they were
/// learnt (from a listing, a `HEAD` or a `GET`); blocks read after that send `If-Match`, so a change
/// in between is noticed. Local files are read directly (the kernel's page cache is their cache).
///
/// Writing to S3: one `PUT` (atomic), or a multipart upload for large objects that appears under its
/// key only when complete. Local writes are atomic too (a temporary file renamed), and make the folders
/// they need, as S3 needs none.
///
/// For code that writes outputs (`video frames -o`, uploads): `write(bytes, to: location)`,
/// `upload(file:to:)`, `exists`, `list`, `delete`, with `ObjectStorage.shared`.
public final class ObjectStorage: Sendable {
    /// Blocks objects are fetched and cached in, bytes.
    public let blockSize: Int
    /// How long an object's size and ETag are trusted without asking again, seconds.
    public let revalidateSeconds: Double
    let memory: MemoryBlockCache
    let disk: DiskBlockCache?
    /// This storage's block hits and misses (its client counts the requests).
    public let statistics = StorageStatistics()
    private let s3Client: Result<S3Client, StorageError>?
    private let environment: [String: String]
    private let lazyClient = Mutex<Result<S3Client, StorageError>?>(nil)
    private let infos = Mutex<[String: (stamp: ObjectStamp, learnt: Double)]>([:])
    private let buckets = Mutex<Set<String>>([])

    /// Defaults: blocks of 64 KiB, 64 MiB of them in memory, sizes and ETags trusted for 5 s.
    public static let defaultBlockSize = 64 << 10
    public static let defaultMemoryBytes = 64 << 20
    public static let defaultRevalidateSeconds = 5.0

    /// A storage whose S3 side uses `client` (nil: configured from `environment` on first use, by the
    /// AWS conventions of ``S3Configuration/resolve(environment:home:)``).
    /// - Parameters:
    ///   - cacheDirectory: a folder for the disk cache (nil: none).
    ///   - cacheBytes: its bound (default 1 GiB).
    /// - Throws: `StorageError.cannotWrite` when the cache folder cannot be made.
    public init(client: S3Client? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                cacheDirectory: String? = nil, cacheBytes: Int = 1 << 30, memoryBytes: Int = defaultMemoryBytes,
                blockSize: Int = defaultBlockSize, revalidateSeconds: Double = defaultRevalidateSeconds) throws(StorageError) {
        self.s3Client = client.map { .success($0) }
        self.environment = environment
        self.blockSize = max(4096, blockSize)
        self.revalidateSeconds = max(0, revalidateSeconds)
        memory = MemoryBlockCache(capacityBytes: memoryBytes)
        disk = try cacheDirectory.map { dir throws(StorageError) in try DiskBlockCache(directory: dir, capacityBytes: cacheBytes) }
    }

    /// A storage without a disk cache (which is all that can fail to be made).
    convenience init(memoryOnlyWith environment: [String: String]) {
        do { try self.init(environment: environment) } catch { preconditionFailure("a storage without a cache folder cannot fail: \(error)") }
    }

    // MARK: The process's storage

    private static let sharedStorage = Mutex<ObjectStorage?>(nil)

    /// The storage every reader of the catalog's imagery uses: made on first use from the environment
    /// (`LOOKAROUND_CACHE_DIR`, `LOOKAROUND_CACHE_BYTES`, `LOOKAROUND_S3_REVALIDATE_SECONDS`, and the AWS
    /// variables and files), or by ``configureShared(cacheDirectory:cacheBytes:)`` first.
    public static var shared: ObjectStorage {
        if let storage = sharedStorage.withLock({ $0 }) { return storage }
        let environment = ProcessInfo.processInfo.environment
        // An unusable cache setting is reported by the CLI before (applyStorageOptions); here it falls back
        // to the memory cache alone rather than stop a reader.
        let made = (try? fromEnvironment(environment)) ?? ObjectStorage(memoryOnlyWith: environment)
        return sharedStorage.withLock { kept in
            if let kept { return kept }
            kept = made
            return made
        }
    }

    /// The storage of `environment`'s cache settings (an unusable cache folder is an error).
    public static func fromEnvironment(_ environment: [String: String], cacheDirectory: String? = nil,
                                       cacheBytes: Int? = nil) throws(StorageError) -> ObjectStorage {
        let directory = cacheDirectory ?? environment["LOOKAROUND_CACHE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        var bytes = cacheBytes ?? (1 << 30)
        if cacheBytes == nil, let text = environment["LOOKAROUND_CACHE_BYTES"], !text.isEmpty {
            guard let value = parseByteCount(text), value >= 1 << 20 else {
                throw .invalidConfiguration(name: "LOOKAROUND_CACHE_BYTES", value: text, allowed: "a size of at least 1M, e.g. 2G or 500M")
            }
            bytes = value
        }
        var revalidate = defaultRevalidateSeconds
        if let text = environment["LOOKAROUND_S3_REVALIDATE_SECONDS"], !text.isEmpty {
            guard let value = Double(text), (0...86_400).contains(value) else {
                throw .invalidConfiguration(name: "LOOKAROUND_S3_REVALIDATE_SECONDS", value: text, allowed: "0…86400 seconds")
            }
            revalidate = value
        }
        return try ObjectStorage(environment: environment, cacheDirectory: directory, cacheBytes: bytes, revalidateSeconds: revalidate)
    }

    /// Replaces the process's storage with one using this disk cache (the CLI's `--cache-dir` and
    /// `--cache-bytes`), before the imagery is read.
    public static func configureShared(cacheDirectory: String?, cacheBytes: Int?) throws(StorageError) {
        let storage = try fromEnvironment(ProcessInfo.processInfo.environment, cacheDirectory: cacheDirectory, cacheBytes: cacheBytes)
        sharedStorage.withLock { $0 = storage }
    }

    /// Replaces the process's storage (tests, benchmarks).
    public static func setShared(_ storage: ObjectStorage) { sharedStorage.withLock { $0 = storage } }

    /// `2G`, `500M`, `64K`, `1048576` (binary units) in bytes.
    public static func parseByteCount(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Int)] = [("TIB", 40), ("GIB", 30), ("MIB", 20), ("KIB", 10), ("TB", 40), ("GB", 30), ("MB", 20), ("KB", 10),
                                      ("T", 40), ("G", 30), ("M", 20), ("K", 10), ("B", 0)]
        for (suffix, shift) in units where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), value >= 0,
                  value * Double(1 << shift) < 9e18 else { return nil }
            return Int(value * Double(1 << shift))
        }
        return Int(trimmed).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The S3 client (made on first use).
    /// - Throws: `StorageError.invalidConfiguration` for malformed AWS settings.
    public func client() throws(StorageError) -> S3Client {
        if let s3Client { return try s3Client.get() }
        let result = lazyClient.withLock { made -> Result<S3Client, StorageError> in
            if let made { return made }
            let result: Result<S3Client, StorageError>
            do throws(StorageError) { result = .success(S3Client(configuration: try S3Configuration.resolve(environment: environment))) } catch {
                result = .failure(error)
            }
            made = result
            return result
        }
        return try result.get()
    }

    /// Buckets this process has used, sorted (what `/v1/health` checks).
    public var bucketsInUse: [String] { buckets.withLock { $0.sorted() } }

    /// Adds `bucket` to ``bucketsInUse`` (the service names the ones it is configured with at start).
    public func noteBucket(_ bucket: String) { buckets.withLock { _ = $0.insert(bucket) } }

    private func s3(_ location: String) throws(StorageError) -> (client: S3Client, bucket: String, key: String)? {
        guard StorageLocation.isObjectStorage(location) else { return nil }
        guard case .s3(let bucket, let key) = try StorageLocation(parsing: location) else { return nil }
        noteBucket(bucket)
        return (try client(), bucket, key)
    }

    // MARK: Reading

    /// An object's or file's size and version; cached for ``revalidateSeconds`` for objects.
    /// - Throws: `StorageError.notFound` when it does not exist.
    public func stamp(_ location: String) throws(StorageError) -> ObjectStamp {
        guard let (client, bucket, key) = try s3(location) else { return try Self.localStamp(location) }
        if let known = freshStamp(location) { return known }
        let info = try client.head(bucket: bucket, key: key)
        let stamp = ObjectStamp(size: info.size, version: info.etag, modified: info.lastModified)
        remember(stamp, for: location)
        return stamp
    }

    /// Whether the object or file exists.
    /// - Throws: anything but its absence (the store unreachable, refused credentials).
    public func exists(_ location: String) throws(StorageError) -> Bool {
        do { _ = try stamp(location); return true } catch .notFound { return false }
    }

    static func localStamp(_ path: String) throws(StorageError) -> ObjectStamp {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw code == ENOENT || code == ENOTDIR ? .notFound(location: path) : .readFailed(path: path, code: code)
        }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return ObjectStamp(size: Int(info.st_size), version: "\(nanoseconds)",
                           modified: Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
    }

    /// The trusted stamp, else (with a disk cache that may hold the blocks) a HEAD's, else nil.
    private func knownStamp(_ location: String, caching: Bool) throws(StorageError) -> ObjectStamp? {
        if let known = freshStamp(location) { return known }
        guard caching, disk != nil else { return nil }
        return try stamp(location)
    }

    private func freshStamp(_ location: String) -> ObjectStamp? {
        let now = Date().timeIntervalSince1970
        return infos.withLock { known in
            guard let entry = known[location], now - entry.learnt <= revalidateSeconds else { return nil }
            return entry.stamp
        }
    }

    private func remember(_ stamp: ObjectStamp, for location: String) {
        let now = Date().timeIntervalSince1970
        infos.withLock { known in
            if known.count > 200_000 { known.removeAll(keepingCapacity: true) }
            known[location] = (stamp, now)
        }
    }

    private func forget(_ location: String) {
        _ = infos.withLock { $0.removeValue(forKey: location) }
    }

    /// Records what a listing said of objects, so reading them soon after asks S3 nothing more.
    func remember(listed objects: [ListedObject]) {
        for object in objects where StorageLocation.isObjectStorage(object.location) { remember(object.stamp, for: object.location) }
    }

    /// The whole object or file.
    /// - Parameter caching: keep the blocks in the caches (false for bytes read once, at indexing).
    /// - Throws: `StorageError.notFound`, `.readFailed`, `.s3`, `.unreachable`.
    public func read(_ location: String, caching: Bool = true) throws(StorageError) -> [UInt8] {
        guard let (client, bucket, key) = try s3(location) else { return try Self.readLocal(location, range: nil) }
        // With a disk cache, what the object is decides whether its blocks are there: a HEAD first.
        if let stamp = try knownStamp(location, caching: caching) {
            do {
                return try readBlocks(location, client, bucket, key, stamp: stamp, range: 0..<stamp.size, caching: caching)
            } catch .changedWhileReading {
                forget(location)
            }
        }
        let (bytes, info) = try client.get(bucket: bucket, key: key)
        let stamp = ObjectStamp(size: info.size, version: info.etag, modified: info.lastModified)
        remember(stamp, for: location)
        if caching { store(bytes, from: 0, of: location, stamp: stamp) }
        return bytes
    }

    /// Bytes `range` of the object or file (fewer when it ends sooner).
    /// - Throws: as ``read(_:caching:)``.
    public func read(_ location: String, range: Range<Int>, caching: Bool = true) throws(StorageError) -> [UInt8] {
        guard let (client, bucket, key) = try s3(location) else { return try Self.readLocal(location, range: range) }
        guard !range.isEmpty else { return [] }
        if let stamp = try knownStamp(location, caching: caching) {
            do {
                return try readBlocks(location, client, bucket, key, stamp: stamp, range: range, caching: caching)
            } catch .changedWhileReading {
                forget(location)
            }
        }
        // Unknown (or changed) object: the blocks around the range, and what the object is, in one GET.
        let first = range.lowerBound / blockSize, last = (range.upperBound - 1) / blockSize
        let (bytes, info) = try client.get(bucket: bucket, key: key, range: (first * blockSize)..<((last + 1) * blockSize))
        let stamp = ObjectStamp(size: info.size, version: info.etag, modified: info.lastModified)
        remember(stamp, for: location)
        if caching { store(bytes, from: first * blockSize, of: location, stamp: stamp) }
        let start = range.lowerBound - first * blockSize
        guard start < bytes.count else { return [] }
        return Array(bytes[start..<min(bytes.count, start + range.count)])
    }

    /// Blocks of a known version: from memory, then disk, the rest fetched in runs of consecutive
    /// missing blocks (one ranged `GET` each, `If-Match` the ETag).
    private func readBlocks(_ location: String, _ client: S3Client, _ bucket: String, _ key: String, stamp: ObjectStamp,
                            range: Range<Int>, caching: Bool) throws(StorageError) -> [UInt8] {
        let clipped = range.clamped(to: 0..<stamp.size)
        guard !clipped.isEmpty else { return [] }
        let first = clipped.lowerBound / blockSize, last = (clipped.upperBound - 1) / blockSize
        var blocks = [[UInt8]?](repeating: nil, count: last - first + 1)
        var memoryHits = 0, diskHits = 0
        for index in first...last {
            let blockKey = BlockKey(location: location, etag: stamp.version, index: index)
            if let bytes = memory.block(blockKey) {
                blocks[index - first] = bytes
                memoryHits += 1
            } else if let disk, let bytes = disk.block(blockKey, blockSize: blockSize, length: blockLength(index, size: stamp.size)) {
                blocks[index - first] = bytes
                diskHits += 1
                memory.insert(bytes, for: blockKey)
            }
        }
        var missing = 0
        var index = first
        while index <= last {
            guard blocks[index - first] == nil else { index += 1; continue }
            var end = index
            while end + 1 <= last, blocks[end + 1 - first] == nil { end += 1 }
            let (bytes, _) = try client.get(bucket: bucket, key: key, range: (index * blockSize)..<min(stamp.size, (end + 1) * blockSize),
                                            ifMatch: stamp.version)
            for k in index...end {
                let start = (k - index) * blockSize
                let block = Array(bytes[start..<min(bytes.count, start + blockSize)])
                blocks[k - first] = block
                if caching { keep(block, index: k, of: location, stamp: stamp) }
            }
            missing += end - index + 1
            index = end + 1
        }
        statistics.recordBlocks(memoryHits: memoryHits, diskHits: diskHits, misses: missing)
        var out = [UInt8]()
        out.reserveCapacity(clipped.count)
        for (offset, block) in blocks.enumerated() {
            let blockStart = (first + offset) * blockSize
            let lower = max(clipped.lowerBound, blockStart) - blockStart
            let upper = min(clipped.upperBound, blockStart + block!.count) - blockStart
            if lower < upper { out += block![lower..<upper] }
        }
        return out
    }

    private func blockLength(_ index: Int, size: Int) -> Int { min(blockSize, size - index * blockSize) }

    /// Keeps the whole blocks of `bytes` (which start at `offset`, block-aligned).
    private func store(_ bytes: [UInt8], from offset: Int, of location: String, stamp: ObjectStamp) {
        var start = 0
        while start < bytes.count {
            let index = (offset + start) / blockSize
            let length = min(blockSize, bytes.count - start)
            // A short block is kept only when it is the object's last.
            if length == blockLength(index, size: stamp.size) {
                keep(Array(bytes[start..<(start + length)]), index: index, of: location, stamp: stamp)
            }
            start += length
        }
    }

    private func keep(_ block: [UInt8], index: Int, of location: String, stamp: ObjectStamp) {
        let key = BlockKey(location: location, etag: stamp.version, index: index)
        memory.insert(block, for: key)
        disk?.insert(block, for: key, blockSize: blockSize)
    }

    static func readLocal(_ path: String, range: Range<Int>?) throws(StorageError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw code == ENOENT || code == ENOTDIR ? .notFound(location: path) : .readFailed(path: path, code: code)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .readFailed(path: path, code: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .readFailed(path: path, code: EISDIR) }
        let size = Int(info.st_size)
        let wanted = (range ?? 0..<size).clamped(to: 0..<max(0, size))
        var bytes = [UInt8](repeating: 0, count: wanted.count)
        var done = 0
        while done < wanted.count {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, wanted.count - done, off_t(wanted.lowerBound + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, code: errno)
            }
            if n == 0 { break }
            done += n
        }
        if done < bytes.count { bytes.removeSubrange(done...) }
        return bytes
    }

    /// The objects or files under `folder`, recursively, sorted by relative path (S3: `ListObjectsV2`
    /// with continuation tokens; the size and ETag of each are remembered, so reading them soon after
    /// asks nothing more). Folder markers (keys ending in `/`) and dot-files' temporaries are left out.
    /// - Throws: `StorageError.notFound` for a local folder that does not exist, `.s3`/`.unreachable`.
    public func list(_ folder: String, page: ((Int) -> Void)? = nil) throws(StorageError) -> [ListedObject] {
        guard let (client, bucket, key) = try s3(folder) else { return try Self.listLocal(folder) }
        let prefix = key.isEmpty || key.hasSuffix("/") ? key : key + "/"
        let listed = try client.list(bucket: bucket, prefix: prefix, page: page).compactMap { info -> ListedObject? in
            guard !info.key.hasSuffix("/") else { return nil }
            let relative = String(info.key.dropFirst(prefix.count))
            return ListedObject(relativePath: relative, location: StorageLocation.s3(bucket: bucket, key: info.key).description,
                                stamp: ObjectStamp(size: info.size, version: info.etag, modified: info.lastModified))
        }
        remember(listed: listed)
        return listed.sorted { $0.relativePath < $1.relativePath }
    }

    static func listLocal(_ folder: String) throws(StorageError) -> [ListedObject] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .notFound(location: folder)
        }
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { throw .readFailed(path: folder, code: EACCES) }
        var found: [ListedObject] = []
        while let relative = enumerator.nextObject() as? String {
            let path = FilePath.joining(folder, relative)
            guard let stamp = try? localStamp(path) else { continue }
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            found.append(ListedObject(relativePath: relative, location: path, stamp: stamp))
        }
        return found.sorted { $0.relativePath < $1.relativePath }
    }

    // MARK: Writing

    /// Writes `bytes` to the location, whole or not at all: a local file through a temporary file
    /// renamed over it (folders made as needed); an object in one `PUT`, or a multipart upload when
    /// larger than the client's threshold (the object appears only when complete).
    /// - Throws: `StorageError.cannotWrite` (local), `.s3`/`.unreachable`.
    public func write(_ bytes: [UInt8], to location: String, contentType: String? = nil) throws(StorageError) {
        guard let (client, bucket, key) = try s3(location) else {
            try Self.makeParentFolders(of: location)
            do { try WriteFailure.writeAtomically(bytes, to: location) } catch { throw .cannotWrite(error) }
            return
        }
        forget(location)
        memory.remove(location: location)
        let etag: String
        if bytes.count > client.multipartThresholdBytes {
            etag = try client.upload(bucket: bucket, key: key, size: bytes.count, contentType: contentType) { range in Array(bytes[range]) }
        } else {
            etag = try client.put(bucket: bucket, key: key, bytes: bytes, contentType: contentType)
        }
        if !etag.isEmpty { remember(ObjectStamp(size: bytes.count, version: etag, modified: Date()), for: location) }
    }

    /// Copies the local file at `path` to the location (a multipart upload in parts read from the file
    /// for large ones: the file is never held whole in memory).
    /// - Throws: `StorageError.notFound`/`.readFailed` for the file, as ``write(_:to:contentType:)`` for the copy.
    public func upload(file path: String, to location: String, contentType: String? = nil) throws(StorageError) {
        guard let (client, bucket, key) = try s3(location) else {
            try write(try Self.readLocal(path, range: nil), to: location, contentType: contentType)
            return
        }
        let size = try Self.localStamp(path).size
        forget(location)
        memory.remove(location: location)
        try client.upload(bucket: bucket, key: key, size: size, contentType: contentType) { range throws(StorageError) in
            let bytes = try Self.readLocal(path, range: range)
            guard bytes.count == range.count else { throw .changedWhileReading(location: path) }
            return bytes
        }
    }

    /// Deletes the object or file (nothing when it does not exist).
    public func delete(_ location: String) throws(StorageError) {
        guard let (client, bucket, key) = try s3(location) else {
            if unlink(location) != 0 && errno != ENOENT { throw .cannotWrite(WriteFailure(path: location, code: errno)) }
            return
        }
        forget(location)
        memory.remove(location: location)
        try client.delete(bucket: bucket, key: key)
    }

    /// Makes a local folder (and its parents); nothing for S3, where folders are key prefixes.
    public func makeFolder(_ location: String) throws(StorageError) {
        guard !StorageLocation.isObjectStorage(location) else { _ = try StorageLocation(parsing: location); return }
        do { try FileManager.default.createDirectory(atPath: location, withIntermediateDirectories: true) } catch {
            throw .cannotWrite(WriteFailure(path: location, code: (error as NSError).posixCode ?? EACCES))
        }
    }

    static func makeParentFolders(of path: String) throws(StorageError) {
        let folder = FilePath.directory(of: path)
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .cannotWrite(WriteFailure(path: path, code: (error as NSError).posixCode ?? EACCES))
        }
    }

    // MARK: Health

    /// Whether `bucket` answers now (one `HEAD`, at most `timeoutSeconds`); nil when it does, else why not.
    public func problem(withBucket bucket: String, timeoutSeconds: Double = 2) -> StorageError? {
        do {
            try client().probe(bucket: bucket, timeoutSeconds: timeoutSeconds)
            return nil
        } catch {
            return error
        }
    }
}

import Catalog
import Foundation
import Imaging
import Storage
import Synchronization

/// Panoramax's upload sets, kept in the catalog's uploads folder (``CatalogLocation/uploadsDirectory``):
/// one folder per set holding its pictures (`PICTURE_ID.jpg`) and its state (`upload_set.json`). Every
/// write is a temporary file renamed into place: a picture arrives whole in `.incoming/` and is renamed
/// into its set once checked and blurred, then the set's state names it. At start, what a killed server left
/// half-done in the sets' folders is removed: the folder and the catalog are as before the interrupted upload.
///
/// The uploads folder may be in object storage (`$LOOKAROUND_UPLOAD_DIR=s3://BUCKET/PREFIX`): a picture
/// then arrives, is checked and blurred in a local staging folder (``incoming``, this process's own under
/// the temporary folder), and is sent to its final key only then, in one `PUT` or a multipart upload that
/// appears only when complete (``ObjectStorage``); the set's state is the object `upload_set.json` beside
/// its pictures, and a start removes the objects under a set's key that it does not name, as it removes files.
///
/// A completed set is ingested by `lookaround index`'s code (``CatalogBuilder``) owning the uploads folder,
/// one ingest at a time, in the background: the catalog file is replaced atomically and the service
/// reopens it (``CatalogWatch``).
final class UploadSetStore: UploadedFileNames, Sendable {
    /// A set's state, as `upload_set.json` holds it.
    struct UploadSet: Codable, Sendable {
        var id: String
        var title: String
        var createdAt: String
        var accountID: String
        var estimatedFiles: Int?
        var sortMethod: String
        /// How the set is split and de-duplicated (its `split_*` and `duplicate_*` fields are these).
        var rules: SequenceRules
        var completed = false
        /// `open` (receiving), `queued`/`ingesting` (completed, not yet in the catalog), `ingested`.
        var state = "open"
        var files: [UploadedFile] = []
    }

    /// One picture of a set.
    struct UploadedFile: Codable, Sendable {
        var pictureID: String
        var fileName: String
        var md5: String
        var size: Int
        var insertedAt: String
        /// `not_processed` (kept, not yet ingested), `prepared` (in the catalog), `broken` (the index
        /// refused it; ``message`` says why), `rejected` (left out: a near-duplicate), `deleted`.
        var status = "not_processed"
        var message: String?
        var blurredFaces = 0, blurredPlates = 0
    }

    /// The uploads folder: a standardised local path, or `s3://BUCKET/PREFIX` (no `/` at the end).
    let root: String
    let isRemote: Bool  // ``root`` is in object storage
    /// Where a picture is written whole, checked and blurred before it joins its set: `ROOT/.incoming`,
    /// or for object storage this process's staging folder on the local disk.
    let incoming: String
    let catalogPath: String
    let settings: UploadSettings
    private let sets = Mutex<[String: UploadSet]>([:])
    /// Each kept picture's name as sent, by picture id.
    private let names = Mutex<[String: String]>([:])
    /// Contents (MD5) being written now, so the same picture sent twice at once is kept once.
    private let pending = Mutex<Set<String>>([])
    private let ingestQueue = DispatchQueue(label: "lookaround.uploads.ingest")
    /// Called after an ingest replaced the catalog (the service reopens it and drops cached answers).
    private let onIngested: @Sendable () -> Void

    static let stagingPrefix = "lookaround-upload-staging-"  // + PID: staging folders of processes uploading to S3

    init(root: String, catalogPath: String, settings: UploadSettings, onIngested: @escaping @Sendable () -> Void) throws(ServiceError) {
        if StorageLocation.isObjectStorage(root) {
            let location: StorageLocation
            do { location = try StorageLocation(parsing: root) } catch {
                throw .badConfiguration(file: root, detail: "the uploads folder ($LOOKAROUND_UPLOAD_DIR) is not a location: \(error)")
            }
            var text = location.description
            while text.hasSuffix("/") { text.removeLast() }
            self.root = text
            isRemote = true
            incoming = FileManager.default.temporaryDirectory.standardizedFileURL.path + "/" + Self.stagingPrefix + "\(getpid())"
        } else {
            self.root = URL(fileURLWithPath: root).standardizedFileURL.path
            isRemote = false
            incoming = self.root + "/.incoming"
        }
        self.catalogPath = catalogPath
        self.settings = settings
        self.onIngested = onIngested
        try recover()
    }

    // MARK: Sets

    func set(_ id: String) -> UploadSet? { sets.withLock { $0[id] } }
    func allSets() -> [UploadSet] { sets.withLock { Array($0.values) } }

    func create(_ set: UploadSet) throws(ServiceError) {
        if !isRemote {
            do {
                try FileManager.default.createDirectory(atPath: folder(of: set.id), withIntermediateDirectories: true)
            } catch {
                throw .internalError(detail: "cannot create the upload set's folder \(folder(of: set.id)): \(error)")
            }
        }
        try persist(set)
        sets.withLock { $0[set.id] = set }
    }

    func folder(of id: String) -> String { root + "/" + id }

    /// A set's folder name (a lowercase UUID, as ``UploadRoutes`` gives): recovery touches nothing else.
    static func isSetID(_ name: String) -> Bool { UUID(uuidString: name) != nil && name == name.lowercased() }

    /// The picture `md5` is already, nil when it is new (any set: the same file twice is one picture).
    func picture(withMD5 md5: String) -> (set: String, file: UploadedFile)? {
        sets.withLock { sets in
            for set in sets.values {
                if let file = set.files.first(where: { $0.md5 == md5 && $0.status != "deleted" }) { return (set.id, file) }
            }
            return nil
        }
    }

    /// Reserves `md5` while its picture is written; false when it is being written already or is there.
    func reserve(_ md5: String) -> Bool {
        guard picture(withMD5: md5) == nil else { return false }
        return pending.withLock { $0.insert(md5).inserted }
    }

    func release(_ md5: String) { _ = pending.withLock { $0.remove(md5) } }

    /// Moves the checked picture at `temporary` into set `id` as `file`, then records it (object storage:
    /// sends it to its final key, whole or not at all, and removes `temporary`).
    func add(_ file: UploadedFile, from temporary: String, to id: String) throws(ServiceError) {
        let destination = folder(of: id) + "/" + file.pictureID + ".jpg"
        if isRemote {
            try Self.storing { () throws(StorageError) in try ObjectStorage.shared.upload(file: temporary, to: destination, contentType: "image/jpeg") }
            unlink(temporary)
        } else if rename(temporary, destination) != 0 {
            throw .internalError(detail: "cannot move \(temporary) to \(destination): \(String(cString: strerror(errno)))")
        }
        let updated = sets.withLock { sets -> UploadSet? in
            sets[id]?.files.append(file)
            return sets[id]
        }
        names.withLock { $0[file.pictureID] = file.fileName }
        guard let updated else { throw .unknownResource(kind: "upload set", id: id) }
        do { try persist(updated) } catch {
            // Not recorded: the picture goes again, as if it never arrived.
            removePicture(destination)
            sets.withLock { $0[id]?.files.removeAll { $0.pictureID == file.pictureID } }
            throw error
        }
    }

    /// Marks set `id` completed and queues the ingest of every completed set.
    func complete(_ id: String) throws(ServiceError) -> UploadSet {
        let updated = sets.withLock { sets -> UploadSet? in
            guard var set = sets[id] else { return nil }
            set.completed = true
            set.state = "queued"
            sets[id] = set
            return set
        }
        guard let updated else { throw .unknownResource(kind: "upload set", id: id) }
        try persist(updated)
        ingestQueue.async { [self] in try? ingest() }
        return updated
    }

    /// Removes the pictures `pictureIDs` (a deleted collection) from their sets and their files, and
    /// ingests again (waiting for it).
    func delete(pictureIDs: Set<String>) throws {
        let changed = sets.withLock { sets -> [UploadSet] in
            var changed: [UploadSet] = []
            for (id, var set) in sets where set.files.contains(where: { pictureIDs.contains($0.pictureID) && $0.status != "deleted" }) {
                for k in set.files.indices where pictureIDs.contains(set.files[k].pictureID) {
                    set.files[k].status = "deleted"
                    set.files[k].message = "its collection was deleted"
                }
                sets[id] = set
                changed.append(set)
            }
            return changed
        }
        for set in changed {
            try persist(set)
            for file in set.files where pictureIDs.contains(file.pictureID) { removePicture(folder(of: set.id) + "/" + file.pictureID + ".jpg") }
        }
        try ingestQueue.sync { try ingest() }
    }

    func originalName(ofPicture id: String) -> String? { names.withLock { $0[id] } }

    /// Removes a kept picture (a file or an object); what cannot be removed now is removed at the next
    /// start, as its set no longer names it.
    private func removePicture(_ location: String) {
        if isRemote { try? ObjectStorage.shared.delete(location) } else { unlink(location) }
    }

    /// Whether `path` (a catalog record's image) is one of the uploaded pictures.
    func holds(_ path: String) -> Bool {
        guard isRemote else { return URL(fileURLWithPath: path).standardizedFileURL.path.hasPrefix(root + "/") }
        return (try? StorageLocation(parsing: path))?.description.hasPrefix(root + "/") ?? false
    }

    /// The object store's failures as the service answers them: unreachable or refusing now is a 503
    /// with `Retry-After`, anything else a 500 naming it.
    static func storing<T>(_ body: () throws(StorageError) -> T) throws(ServiceError) -> T {
        do { return try body() } catch {
            if error.isUnavailable { throw .storageUnavailable(reason: error.publicReason, detail: error.description) }
            throw .internalError(detail: "the uploads folder cannot be written: \(error)")
        }
    }

    // MARK: Ingest

    /// Indexes every completed set into the catalog, as `lookaround index` would the folders (with each
    /// set's splitting and de-duplication), keeping every other panorama of the catalog as it is; then
    /// records each picture's outcome. Runs on the ingest queue only.
    private func ingest() throws {
        let completed = sets.withLock { sets -> [UploadSet] in
            for id in sets.keys where sets[id]?.completed == true && sets[id]?.state == "queued" { sets[id]?.state = "ingesting" }
            return sets.values.filter(\.completed)
        }
        var options = CatalogBuildOptions(directories: completed.map { folder(of: $0.id) }, catalogPath: catalogPath,
                                          osmFiles: settings.osmFiles)
        options.ownedFolder = root
        for set in completed { options.sequenceRules[folder(of: set.id)] = set.rules }
        options.mapDeriver = settings.mapDeriver
        options.streetGraphBuilder = settings.streetGraphBuilder
        let report: IndexReport
        do {
            report = try CatalogBuilder.build(options)
        } catch {
            ErrorAnswers.standardError("lookaround serve: the upload ingest failed: \(error)\n")
            sets.withLock { sets in
                for id in sets.keys where sets[id]?.state == "ingesting" { sets[id]?.state = "queued" }
            }
            throw error
        }
        onIngested()
        let failures = Dictionary(report.failures.map { ($0.path, $0.message) }, uniquingKeysWith: { first, _ in first })
        let duplicates = Dictionary(report.nearDuplicates.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var updated: [UploadSet] = []
        sets.withLock { sets in
            for set in completed {
                guard var current = sets[set.id] else { continue }
                for k in current.files.indices where current.files[k].status != "deleted" {
                    let path = folder(of: set.id) + "/" + current.files[k].pictureID + ".jpg"
                    if let message = failures[path] {
                        (current.files[k].status, current.files[k].message) = ("broken", message)
                    } else if let duplicate = duplicates[path] {
                        current.files[k].status = "rejected"
                        current.files[k].message = "a near-duplicate of \(FilePath.name(of: duplicate.keptPath)), "
                            + String(format: "%.2f m away: left out", duplicate.distanceMeters)
                    } else {
                        (current.files[k].status, current.files[k].message) = ("prepared", nil)
                    }
                }
                // A set completed again meanwhile is ingested by the next run.
                if current.state == "ingesting" { current.state = "ingested" }
                sets[set.id] = current
                updated.append(current)
            }
        }
        for set in updated { try? persist(set) }
    }

    // MARK: Disk

    /// Writes `set`'s state: a temporary file renamed over `upload_set.json` (object storage: one `PUT`).
    private func persist(_ set: UploadSet) throws(ServiceError) {
        let path = folder(of: set.id) + "/upload_set.json"
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            data = try encoder.encode(set)
        } catch {
            throw .internalError(detail: "cannot encode the state of upload set \(set.id): \(error)")
        }
        if isRemote {
            try Self.storing { () throws(StorageError) in try ObjectStorage.shared.write([UInt8](data), to: path, contentType: "application/json") }
            return
        }
        do { try Self.writeAtomically(data, to: path) } catch {
            throw .internalError(detail: "cannot write \(path): \(error)")
        }
    }

    /// `data` into a temporary file beside `path`, flushed, renamed over `path`.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary]) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    /// Loads every set and removes what an interrupted upload left: `.incoming/`, temporary files, and
    /// pictures their set does not name.
    private func recover() throws(ServiceError) {
        if isRemote { return try recoverRemote() }
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: root, withIntermediateDirectories: true)
            if manager.fileExists(atPath: incoming) { try manager.removeItem(atPath: incoming) }
            try manager.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        } catch {
            throw .badConfiguration(file: root, detail: "the uploads folder cannot be prepared: \(error)")
        }
        var loaded: [String: UploadSet] = [:]
        for name in (try? manager.contentsOfDirectory(atPath: root)) ?? [] where Self.isSetID(name) {
            let folder = root + "/" + name
            guard let data = manager.contents(atPath: folder + "/upload_set.json"),
                  var set = try? JSONDecoder().decode(UploadSet.self, from: data) else {
                // A set created but never recorded (killed between the two): nothing of it was kept.
                try? manager.removeItem(atPath: folder)
                continue
            }
            let named = Set(set.files.filter { $0.status != "deleted" }.map { $0.pictureID + ".jpg" })
            for entry in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] where entry != "upload_set.json" && !named.contains(entry) {
                try? manager.removeItem(atPath: folder + "/" + entry)
            }
            // An ingest the stop interrupted runs again.
            if set.state == "ingesting" || set.state == "queued" { set.state = "queued" }
            loaded[set.id] = set
        }
        adopt(loaded)
    }

    /// The recovered sets become the store's: their pictures' names known, an interrupted ingest queued again.
    private func adopt(_ loaded: [String: UploadSet]) {
        sets.withLock { $0 = loaded }
        let kept = loaded.values.flatMap { $0.files.filter { $0.status != "deleted" }.map { ($0.pictureID, $0.fileName) } }
        names.withLock { $0 = Dictionary(kept, uniquingKeysWith: { first, _ in first }) }
        if loaded.values.contains(where: { $0.state == "queued" }) { ingestQueue.async { [self] in try? ingest() } }
    }

    /// ``recover()`` for an uploads folder in object storage: every set's `upload_set.json` read, the
    /// objects a set does not name (and the sets never recorded) deleted, and this process's staging
    /// folder made (staging folders of processes that ended are removed).
    private func recoverRemote() throws(ServiceError) {
        let manager = FileManager.default
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        for name in (try? manager.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix(Self.stagingPrefix) {
            let pid = Int32(name.dropFirst(Self.stagingPrefix.count)) ?? 0
            if pid == getpid() || (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) { try? manager.removeItem(atPath: temporary + "/" + name) }
        }
        do { try manager.createDirectory(atPath: incoming, withIntermediateDirectories: true) } catch {
            throw .badConfiguration(file: incoming, detail: "the staging folder of uploads cannot be made: \(error)")
        }
        let objects = try Self.storing { () throws(StorageError) in try ObjectStorage.shared.list(root) }
        var bySet: [String: [ListedObject]] = [:]
        for object in objects {
            let parts = object.relativePath.split(separator: "/", maxSplits: 1)
            guard parts.count == 2, Self.isSetID(String(parts[0])) else { continue }
            bySet[String(parts[0]), default: []].append(object)
        }
        var loaded: [String: UploadSet] = [:]
        for (id, objects) in bySet {
            let state = folder(of: id) + "/upload_set.json"
            // A state that cannot be read now stops the start (its pictures are not removed); one that reads
            // but does not decode is treated as never recorded, as a local folder's is.
            var set: UploadSet?
            if objects.contains(where: { $0.location == state }) {
                let bytes = try Self.storing { () throws(StorageError) in try ObjectStorage.shared.read(state, caching: false) }
                set = try? JSONDecoder().decode(UploadSet.self, from: Data(bytes))
            }
            let named = Set((set?.files ?? []).filter { $0.status != "deleted" }.map { folder(of: id) + "/" + $0.pictureID + ".jpg" })
            for object in objects where object.location != state && !named.contains(object.location) {
                try Self.storing { () throws(StorageError) in try ObjectStorage.shared.delete(object.location) }
            }
            guard var set else {
                // A set created but never recorded (killed between the two), or a state that cannot be read:
                // nothing of it was kept.
                if objects.contains(where: { $0.location == state }) {
                    try Self.storing { () throws(StorageError) in try ObjectStorage.shared.delete(state) }
                }
                continue
            }
            if set.state == "ingesting" || set.state == "queued" { set.state = "queued" }
            loaded[set.id] = set
        }
        adopt(loaded)
    }

    /// The hex MD5 of `bytes` (Panoramax's `content_md5`).
    static func md5(_ bytes: ArraySlice<UInt8>) -> String {
        Digest.hex(bytes.withUnsafeBytes { Digest.md5($0) })
    }
}

import Foundation
import Geodesy
import Imaging
import MapData
import Parallelism
import Storage

/// Builds or updates a catalog from folders of panoramas and OSM files (`lookaround index`).
///
/// - One bad file never stops the rest: it is listed in ``IndexReport/failures`` with its reason.
/// - Incremental: a file whose size and modification time (and its sidecar's) match the previous
///   catalog is not read again; its record is reused.
/// - Atomic: the new catalog is written beside the old one and renamed over it.
/// - Headers only: each JPEG's metadata is read by walking its markers (no pixel decoding), on all cores.
/// - Sequences: a sidecar's `sequence_id`, else one per folder and camera (``separateCameras(_:folders:serials:reused:)``),
///   split at pauses (``splitAtTimeGaps(_:folders:)``); near-duplicates at a stop are left out
///   (``dropNearDuplicates(_:explicitIndex:meters:degrees:)``); then ordered; headings that point against the
///   way the sequence goes are reported or replaced (``checkHeadingsAgainstTravel(_:choice:)``); and where the
///   metadata gives no heading, faced along the way (``headTowardsTravel(_:)``).
public enum CatalogBuilder {
    /// `folder` as the prefix of the paths inside it, ending in `/`: a local folder's standardised
    /// absolute path, an `s3://` folder as ``StorageLocation`` writes it.
    static func folderPrefix(_ folder: String) -> String {
        if StorageLocation.isObjectStorage(folder), let location = try? StorageLocation(parsing: folder) {
            let text = location.description
            return text.hasSuffix("/") ? text : text + "/"
        }
        return URL(fileURLWithPath: folder).standardizedFileURL.path + "/"
    }

    /// Where the frames of videos found in the bucket folder `folder` are written: the catalog's frames
    /// folder when that is in object storage too, else beside the folder in its bucket, `FOLDER.frames`
    /// (`s3://imagery/rides` → `s3://imagery/rides.frames`; a bucket's root → `s3://BUCKET/lookaround.frames`),
    /// outside the prefix the index lists, never read as photos of the folder.
    static func bucketFramesDirectory(of folder: String, catalogFrames: String) -> String {
        if StorageLocation.isObjectStorage(catalogFrames) { return catalogFrames }
        guard case .s3(let bucket, var key)? = try? StorageLocation(parsing: folder) else { return catalogFrames }
        while key.hasSuffix("/") { key.removeLast() }
        return StorageLocation.s3(bucket: bucket, key: key.isEmpty ? "lookaround.frames" : key + ".frames").description
    }

    /// Builds the catalog described by `options`. `progress(done, total)` is called from worker threads
    /// as files are read.
    /// - Throws: `CatalogError.directoryMissing` for a folder that does not exist, `CatalogError` for a
    ///   catalog that cannot be written, `MapDataError` for an unreadable OSM file. Bad panoramas do not throw.
    public static func build(_ options: CatalogBuildOptions,
                             progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws -> IndexReport {
        let start = Date()
        let location = try CatalogLocation(parsing: options.catalogPath)
        var isDirectory: ObjCBool = false
        for directory in options.directories where !StorageLocation.isObjectStorage(directory) {
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CatalogError.directoryMissing(path: directory)
            }
        }
        // Files, with their path-derived ids and sequence folders. A folder in object storage is listed
        // once (continuation tokens followed): the listing answers which maps and sidecars exist and
        // what each object's size and ETag are, so nothing is asked per file.
        var files: [(path: String, id: String, folder: String)] = []
        var fileRules: [SequenceRules?] = []
        var videos: [VideoInput] = []
        // Uploaded photos are the upload ingest's (``CatalogBuildOptions/ownedFolder``): an index run keeps
        // them as they are and never reads their folder; the upload ingest keeps everything else.
        let uploads = Self.folderPrefix(options.ownedFolder ?? location.uploadsDirectory)
        let ownsUploads = options.ownedFolder != nil
        // Video frames an index wrote are read as the video's, never as photos of the folder they are in.
        let catalogFrames = options.videoFramesDirectory ?? location.videoFramesDirectory
        let framesDirectory = Self.folderPrefix(catalogFrames)
        var listing = PanoramaIngest.ObjectListing(stamps: [:])
        for directory in options.directories {
            if StorageLocation.isObjectStorage(directory) {
                let rootName = try StorageLocation(parsing: directory).name
                let objects = try ObjectStorage.shared.list(directory)
                guard !objects.isEmpty else { throw CatalogError.directoryMissing(path: directory) }
                for object in objects { listing.stamps[object.location] = object.stamp }
                // Frames of the videos in a bucket go to the bucket (``bucketFramesDirectory(of:catalogFrames:)``).
                let frames = Self.bucketFramesDirectory(of: directory, catalogFrames: catalogFrames)
                let framesPrefix = Self.folderPrefix(frames)
                for object in objects where (ownsUploads || !object.location.hasPrefix(uploads))
                    && !object.location.hasPrefix(framesPrefix) && !object.location.hasPrefix(framesDirectory) {
                    let name = FilePath.name(of: object.relativePath)
                    let folder = FilePath.directory(of: object.relativePath)
                    if options.naming.isImage(name) {
                        files.append((object.location, options.naming.stem(ofImage: object.relativePath),
                                      folder.isEmpty ? rootName : rootName + "/" + folder))
                        fileRules.append(options.sequenceRules[directory])
                    } else if options.videoSampler?.isVideo(name) == true {
                        videos.append(VideoInput(path: object.location, id: options.naming.stem(ofImage: object.relativePath),
                                                 folder: folder.isEmpty ? rootName : rootName + "/" + folder, framesDirectory: frames))
                    }
                }
                continue
            }
            let root = URL(fileURLWithPath: directory).standardizedFileURL.path
            let rootName = FilePath.name(of: root)
            guard let enumerator = FileManager.default.enumerator(atPath: root) else { continue }
            var found: [String] = [], foundVideos: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let name = FilePath.name(of: relative)
                if options.naming.isImage(name) { found.append(relative) }
                else if options.videoSampler?.isVideo(name) == true { foundVideos.append(relative) }
            }
            for relative in found.sorted() where !(root + "/" + relative).hasPrefix(framesDirectory)
                && (ownsUploads || !(root + "/" + relative).hasPrefix(uploads)) {
                let stem = options.naming.stem(ofImage: relative)
                let folder = FilePath.directory(of: relative)
                files.append((root + "/" + relative, stem,
                              folder.isEmpty ? rootName : rootName + "/" + folder))
                fileRules.append(options.sequenceRules[directory])
            }
            for relative in foundVideos.sorted() where !(root + "/" + relative).hasPrefix(framesDirectory) {
                let folder = FilePath.directory(of: relative)
                videos.append(VideoInput(path: root + "/" + relative, id: options.naming.stem(ofImage: relative),
                                         folder: folder.isEmpty ? rootName : rootName + "/" + folder))
            }
        }
        let video = videoFrames(videos, options: options, location: location)
        files += video.files
        // Frames written to object storage are read as objects: what their folders hold now, listed once.
        let framesInBuckets = Set(videos.map { $0.framesDirectory ?? catalogFrames }).filter(StorageLocation.isObjectStorage)
        for directory in framesInBuckets.sorted() where !video.files.isEmpty {
            for object in try ObjectStorage.shared.list(directory) { listing.stamps[object.location] = object.stamp }
        }
        fileRules += [SequenceRules?](repeating: nil, count: files.count - fileRules.count)
        // The panoramas this run keeps as they are (see `uploads` above), in path order.
        let kept = CatalogWriter.previousRecords(at: options.catalogPath).values
            .filter { $0.imagePath.hasPrefix(uploads) != ownsUploads }.sorted { $0.imagePath < $1.imagePath }

        let previous = options.forceFullRebuild ? [:] : CatalogWriter.previousRecords(at: options.catalogPath)
        var outcomes = [PanoramaIngest.Outcome?](repeating: nil, count: files.count)
        var toRead: [Int] = []
        var reused = [Bool](repeating: false, count: files.count)
        var unchanged = 0
        var sidecarsToRead: [(index: Int, path: String)] = []
        for (i, file) in files.enumerated() {
            let isObject = listing.exists(file.path)
            let isUnchanged: Bool
            if let old = previous[file.path] {
                if isObject {
                    // Objects: the same size and ETag (and the sidecar's ETag) as when indexed.
                    isUnchanged = listing.stamps[file.path].map { Int64($0.size) } == old.fileSize
                        && listing.signature(of: file.path, naming: options.naming) == old.fileEntityTag
                } else if let signature = PanoramaIngest.signature(file.path, naming: options.naming) {
                    isUnchanged = signature.size == old.fileSize && signature.modified == old.fileModificationTime
                } else {
                    isUnchanged = false
                }
            } else {
                isUnchanged = false
            }
            if isUnchanged, let old = previous[file.path], var record = Self.withMetadataHeading(old) {
                // Depth and label maps may have appeared or gone without the JPEG changing.
                let stem = options.naming.stem(ofImage: file.path)
                let depth = stem + options.naming.depthSuffix, labels = stem + options.naming.labelsSuffix
                let hasDepth = isObject ? listing.exists(depth) : PanoramaIngest.exists(depth)
                let hasLabels = isObject ? listing.exists(labels) : PanoramaIngest.exists(labels)
                if hasDepth || hasLabels {
                    if record.mapsSource == .derived { record.restoreMetadataPose() }
                    record.depthPath = hasDepth ? depth : nil
                    record.labelsPath = hasLabels ? labels : nil
                    record.mapsSource = .measured
                } else if record.mapsSource == .measured || record.needsDerivedMaps {
                    // Gone: derived again below when the OSM data covers the panorama.
                    record.restoreMetadataPose()
                    (record.depthPath, record.labelsPath, record.mapsSource) = (nil, nil, nil)
                }
                // Only a sidecar fixes a sequence position; the rest is re-derived with the new files.
                // (Objects' sidecars are read below, all at once.)
                let explicit = isObject ? nil : record.sidecarPath.flatMap { try? PanoramaSidecar.read($0).sequenceIndex }
                if isObject, let sidecar = record.sidecarPath { sidecarsToRead.append((i, sidecar)) }
                // The camera's serial is not stored: the sequence name says it when it mattered.
                outcomes[i] = .panorama(record, explicitSequenceIndex: explicit, cameraSerial: nil)
                reused[i] = true
                unchanged += 1
            } else {
                toRead.append(i)
            }
        }
        // The kept records' sidecars in object storage: their explicit sequence positions, read in parallel.
        let explicitIndexes = PanoramaIngest.sequenceIndexes(ofSidecars: sidecarsToRead.map(\.path))
        for (k, item) in sidecarsToRead.enumerated() {
            if case .panorama(let record, _, let serial)? = outcomes[item.index] {
                outcomes[item.index] = .panorama(record, explicitSequenceIndex: explicitIndexes[k], cameraSerial: serial)
            }
        }
        let counter = ProgressCounter(total: toRead.count, report: progress)
        // Local files on all cores; objects' headers with more requests in flight than cores (each
        // worker mostly waits on the network).
        let local = toRead.filter { !listing.exists(files[$0].path) }, remote = toRead.filter { listing.exists(files[$0].path) }
        outcomes.withUnsafeMutableBufferPointer { output in
            nonisolated(unsafe) let output = output
            Parallel.forEachRowRange(local.count, minimumRowsPerChunk: 8) { range in
                for k in range {
                    let i = local[k]
                    output[i] = PanoramaIngest.read(path: files[i].path, id: files[i].id, folder: files[i].folder, naming: options.naming)
                    counter.advance()
                }
            }
            let listed = listing, naming = options.naming, objects = files
            ConcurrentRequests.forEach(remote.count) { k in
                let i = remote[k]
                output[i] = PanoramaIngest.read(path: objects[i].path, id: objects[i].id, folder: objects[i].folder, naming: naming,
                                                listing: listed)
                counter.advance()
            }
        }

        // The object store failed under the run (down, refusing): stop, and leave the catalog as it was.
        for outcome in outcomes {
            if case .storageUnavailable(let error)? = outcome { throw error }
        }
        // Collect, reject duplicate ids, order sequences.
        var failures: [IndexReport.FileMessage] = video.failures, warnings: [IndexReport.FileMessage] = video.warnings
        var records: [PanoramaRecord] = []
        var derived = 0
        var explicitIndex: [Int?] = []
        var folders: [String] = []
        var serials: [String?] = [], reusedRecords: [Bool] = []
        var rules: [SequenceRules?] = []
        var seenIDs: [String: String] = Dictionary(kept.map { ($0.id, $0.imagePath) }, uniquingKeysWith: { first, _ in first })
        for (i, outcome) in outcomes.enumerated() {
            switch outcome {
            case .failure(let reason)?:
                failures.append(.init(path: files[i].path, message: reason))
            case .panorama(let record, let sequenceIndex, let serial)?:
                if let other = seenIDs[record.id] {
                    failures.append(.init(path: files[i].path, message: "duplicate panorama id '\(record.id)' (also \(other)); "
                                          + "give one of them another \"id\" in its sidecar"))
                    continue
                }
                seenIDs[record.id] = files[i].path
                records.append(record)
                explicitIndex.append(sequenceIndex)
                folders.append(files[i].folder)
                serials.append(serial)
                reusedRecords.append(reused[i])
                rules.append(fileRules[i])
            case .storageUnavailable(let error)?:
                failures.append(.init(path: files[i].path, message: "\(error)"))
            case nil:
                failures.append(.init(path: files[i].path, message: "not read (internal error)"))
            }
        }
        separateCameras(&records, folders: folders, serials: serials, reused: reusedRecords)
        splitAtTimeGaps(&records, folders: folders, rules: rules)
        // From here `folders`, `serials`, `reusedRecords` and `rules` no longer line up with `records`.
        let nearDuplicates = dropNearDuplicates(&records, explicitIndex: &explicitIndex, meters: options.nearDuplicateMeters,
                                                degrees: options.nearDuplicateDegrees, rules: rules)
        assignSequenceOrder(&records, explicitIndex: explicitIndex)
        let headingDisagreements = checkHeadingsAgainstTravel(&records, choice: options.headingFrom)
        headTowardsTravel(&records)
        var places: [Place] = [], streets: [Street] = [], gazetteer = Gazetteer(), datasets: [MapDataset] = []
        for osm in options.osmFiles {
            let dataset = try MapDataset(contentsOfFile: osm)
            datasets.append(dataset)
            places += dataset.places
            streets += dataset.streets
            gazetteer.addresses += dataset.addresses
            gazetteer.localities += dataset.localities
        }
        if let deriver = options.mapDeriver, !datasets.isEmpty {
            let due = records.indices.filter { records[$0].needsDerivedMaps }
            if !due.isEmpty {
                let outcomes = deriver.deriveMaps(for: due.map { records[$0] }, datasets: datasets,
                                                  directory: options.derivedMapsDirectory ?? location.derivedMapsDirectory,
                                                  progress: options.derivationProgress)
                for i in due {
                    switch outcomes[records[i].id] {
                    case .derived(let record)?:
                        records[i] = record
                        derived += 1
                    case .failed(let reason)?:
                        warnings.append(.init(path: seenIDs[records[i].id] ?? records[i].imagePath, message: reason))
                    case nil:
                        break
                    }
                }
            }
        }
        // The warnings once the records are final (travel replaces "assumed north"; derived maps), in file order.
        warnings += records.flatMap { record in
            record.warnings.map { IndexReport.FileMessage(path: seenIDs[record.id] ?? record.imagePath, message: $0) }
        }
        records += kept
        let (streetGraph, graphReport) = try buildStreetGraph(options)
        let summary = try CatalogWriter.write(records: records, places: places, streets: streets, gazetteer: gazetteer,
                                              streetGraph: streetGraph, to: options.catalogPath,
                                              proximityLinkMeters: options.proximityLinkMeters,
                                              maximumProximityLinks: options.maximumProximityLinks)
        return IndexReport(catalogPath: location.description, filesFound: files.count, filesRead: toRead.count,
                           filesUnchanged: unchanged, failures: failures, warnings: warnings, nearDuplicates: nearDuplicates,
                           headingDisagreements: headingDisagreements,
                           panoramaCount: records.count, sequenceCount: summary.sequences, linkCount: summary.links,
                           placeCount: places.count, streetCount: streets.count, derivedMapsCount: derived,
                           streetGraph: graphReport, videosFound: videos.count, videoFrames: video.files.count,
                           videoFramesDirectories: Array(Set(videos.map { $0.framesDirectory ?? catalogFrames })).sorted(),
                           seconds: Date().timeIntervalSince(start))
    }

    /// The routing graph of the OSM files: the previous catalog's while the files (sizes and modification
    /// times) and the builder's format version are unchanged and the run is not `--full`, else built anew.
    static func buildStreetGraph(_ options: CatalogBuildOptions) throws -> (CatalogStreetGraph?, StreetGraphReport?) {
        guard let builder = options.streetGraphBuilder, !options.osmFiles.isEmpty else { return (nil, nil) }
        let signature = CatalogStreetGraph.signature(of: options.osmFiles)
        if !options.forceFullRebuild, let signature, let previous = CatalogWriter.previousStreetGraph(at: options.catalogPath),
           previous.formatVersion == builder.formatVersion, previous.sourceSignature == signature {
            return (previous, StreetGraphReport(bytes: previous.data.count, reused: true, buildSeconds: 0))
        }
        let start = Date()
        let data = try builder.graphData(osmFiles: options.osmFiles)
        let graph = CatalogStreetGraph(formatVersion: builder.formatVersion, sourceSignature: signature ?? "", data: data)
        return (graph, StreetGraphReport(bytes: data.count, reused: false, buildSeconds: Date().timeIntervalSince(start)))
    }

    /// A record kept from the previous catalog with the heading its metadata gave, so the sequence rules
    /// decide again: a heading taken from the direction of travel for want of one is "default" again (its
    /// sequence may have changed); nil for one that replaced a metadata heading (`--heading-from travel`),
    /// whose file is then read again for it.
    static func withMetadataHeading(_ record: PanoramaRecord) -> PanoramaRecord? {
        guard record.headingSource == "travel" else { return record }
        let guessed = "no heading in the metadata: faces the direction of travel"
        guard record.warnings.contains(where: { $0.hasPrefix(guessed) }) else { return nil }
        var restored = record
        restored.headingDegrees = PanoramaIngest.defaultHeadingDegrees
        restored.headingSource = "default"
        restored.warnings = record.warnings.map { $0.hasPrefix(guessed) ? PanoramaIngest.noHeadingWarning : $0 }
        return restored
    }

    /// Within each sequence: panoramas with an explicit index keep it; the others are ordered by capture
    /// time then image path and numbered after the largest explicit index.
    static func assignSequenceOrder(_ records: inout [PanoramaRecord], explicitIndex: [Int?]) {
        var bySequence: [String: [Int]] = [:]
        for (i, record) in records.enumerated() { bySequence[record.sequenceName, default: []].append(i) }
        for (_, members) in bySequence {
            var nextIndex = (members.compactMap { explicitIndex[$0] }.max() ?? -1) + 1
            let implicit = members.filter { explicitIndex[$0] == nil }
                .sorted { (records[$0].captureTime, records[$0].imagePath) < (records[$1].captureTime, records[$1].imagePath) }
            for i in members { if let explicit = explicitIndex[i] { records[i].sequenceIndex = explicit } }
            for i in implicit {
                records[i].sequenceIndex = nextIndex
                nextIndex += 1
            }
        }
    }

    /// A camera's captures in one folder are one sequence while they follow each other: a pause of more
    /// than this (a morning's and an afternoon's walks, two days) starts another, seconds.
    public static let sequenceGapSeconds = 600.0

    /// Splits the sequences the index named itself (`FOLDER/CAMERA` or `FOLDER/CAMERA (SERIAL)`, not a
    /// sidecar's `sequence_id`) where consecutive captures are more than ``sequenceGapSeconds`` apart: the
    /// parts after the first are named `FOLDER/CAMERA #2`, `#3`… The split starts from the unsuffixed name
    /// each time, so a record kept from the previous index run (already `#2`) is regrouped the same way.
    static func splitAtTimeGaps(_ records: inout [PanoramaRecord], folders: [String], rules: [SequenceRules?] = []) {
        var groups: [String: [Int]] = [:]
        for (i, record) in records.enumerated() {
            guard let name = AutomaticSequenceName(parsing: record.sequenceName, folder: folders[i], make: record.make,
                                                   model: record.model) else { continue }
            groups[name.camera, default: []].append(i)
        }
        for (name, members) in groups {
            let ordered = members.sorted { (records[$0].captureTime, records[$0].imagePath) < (records[$1].captureTime, records[$1].imagePath) }
            var part = 1
            // A folder's own rules (an upload set's split_time and split_distance), else a pause of 10 minutes.
            let rule = rules.isEmpty ? nil : rules[ordered[0]]
            let gapSeconds = rule.map { $0.splitSeconds } ?? sequenceGapSeconds
            let gapMeters = rule?.splitMeters
            for (k, i) in ordered.enumerated() {
                let previous = k > 0 ? ordered[k - 1] : i
                if k > 0, let gapSeconds, records[i].captureTime.timeIntervalSince(records[previous].captureTime) > gapSeconds {
                    part += 1
                } else if k > 0, let gapMeters,
                          Geodesic.wgs84.inverse(from: records[previous].coordinate, to: records[i].coordinate).distanceMeters > gapMeters {
                    part += 1
                }
                records[i].sequenceName = part == 1 ? name : "\(name) #\(part)"
            }
        }
    }

    /// A panorama whose metadata gives no heading (a THETA, a drone) faces the direction of travel when it
    /// is in a sequence: the bearing to the next panorama of the sequence (from the previous one for the
    /// last), between the positions ``SequencePath`` smooths along it (GPS wobble would turn it from side
    /// to side), when they are at least half a metre apart. A camera on a car, helmet or pole usually faces
    /// the way it moves; north, the other guess, is right for one direction in 360.
    static func headTowardsTravel(_ records: inout [PanoramaRecord]) {
        var bySequence: [String: [Int]] = [:]
        for (i, record) in records.enumerated() { bySequence[record.sequenceName, default: []].append(i) }
        for (_, members) in bySequence where members.count > 1 {
            let ordered = members.sorted { records[$0].sequenceIndex < records[$1].sequenceIndex }
            guard ordered.contains(where: { records[$0].headingSource == "default" }) else { continue }
            let path = SequencePath.smoothedCoordinates(of: records, ordered: ordered)
            for (k, i) in ordered.enumerated() where records[i].headingSource == "default" {
                let (from, to) = k + 1 < ordered.count ? (k, k + 1) : (k - 1, k)
                let move = Geodesic.wgs84.inverse(from: path[from], to: path[to])
                guard move.distanceMeters >= 0.5 else { continue }
                records[i].headingDegrees = move.initialAzimuth.degrees
                records[i].headingSource = "travel"
                records[i].warnings = records[i].warnings.map { warning in
                    warning.hasPrefix("no heading (") ? "no heading in the metadata: faces the direction of travel in its sequence, "
                        + String(format: "%.1f°", move.initialAzimuth.degrees) : warning
                }
            }
        }
    }

    /// What ``writeMeasured(records:to:)`` wrote and how long it took.
    public struct WriteMeasurement: Sendable {
        /// Links written.
        public var links: Int
        /// Seconds of the whole write (links computed, rows written, indexes built, committed).
        public var totalSeconds: Double
        /// Seconds spent in `COPY` (PostGIS catalogs; nil for SQLite).
        public var copySeconds: Double?
    }

    /// ``write(records:places:streets:to:proximityLinkMeters:maximumProximityLinks:)`` with its timings
    /// (the benchmarks' ingest figures).
    public static func writeMeasured(records: [PanoramaRecord], to catalogPath: String) throws -> WriteMeasurement {
        let start = Date()
        if case .postgres(let url) = try CatalogLocation(parsing: catalogPath) {
            let summary = try PostGISCatalogWriter.write(records: records, places: [], streets: [], gazetteer: Gazetteer(), to: url,
                                                         proximityLinkMeters: 30, maximumProximityLinks: 4)
            return WriteMeasurement(links: summary.links, totalSeconds: Date().timeIntervalSince(start), copySeconds: summary.copySeconds)
        }
        let links = try write(records: records, to: catalogPath)
        return WriteMeasurement(links: links, totalSeconds: Date().timeIntervalSince(start), copySeconds: nil)
    }

    /// Writes a catalog from records made elsewhere (synthetic data for benchmarks and tests), with the
    /// same links and query index as `build`. Records keep their `sequenceIndex`.
    /// - Returns: the number of links written.
    public static func write(records: [PanoramaRecord], places: [Place] = [], streets: [Street] = [],
                             to catalogPath: String, proximityLinkMeters: Double = 30,
                             maximumProximityLinks: Int = 4) throws -> Int {
        try CatalogWriter.write(records: records, places: places, streets: streets, to: catalogPath,
                                proximityLinkMeters: proximityLinkMeters,
                                maximumProximityLinks: maximumProximityLinks).links
    }
}


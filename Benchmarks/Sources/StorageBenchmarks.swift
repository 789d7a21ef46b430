import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import ProcessRunner
import Reprojection
import Storage

// Object storage (issue 53): a 640×480 snapshot of an 8192×4096 panorama whose JPEG and tile file are
// in S3 (SeaweedFS on loopback, started here with scripts/seaweedfs.sh), cold and warm, against the same
// from the local disk in the same run, interleaved; the bytes fetched from S3 per view; and indexing the
// shipped panoramas from S3 against the local disk.
// Goals: cold ≤ 3× local, warm ≤ 1.2× local, bytes per cold view ≤ 15 % of the panorama file.

private func fmt(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
private func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }

struct StorageBenchmarkSkip: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// A private SeaweedFS for the run: `scripts/seaweedfs.sh up` in a temporary folder, on
/// `$LOOKAROUND_BENCH_S3_PORT` (and the nine ports after it), default 58433.
private struct BenchmarkS3Server {
    let endpoint: String, directory: String, script: String

    static func start(in folder: String) throws -> BenchmarkS3Server {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = repository.appendingPathComponent("scripts/seaweedfs.sh").path
        let port = ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_S3_PORT"] ?? "58433"
        let directory = folder + "seaweedfs"
        let result = try ChildProcess.run("/bin/bash", [script, "up"],
                                          environment: ["LOOKAROUND_S3_DIR": directory, "LOOKAROUND_S3_PORT": port])
        let endpoint = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard result.exitStatus == 0, endpoint.hasPrefix("http://") else {
            throw StorageBenchmarkSkip(reason: "no SeaweedFS: \(String(decoding: result.stderr, as: UTF8.self).split(separator: "\n").suffix(2).joined(separator: " / "))")
        }
        return BenchmarkS3Server(endpoint: endpoint, directory: directory, script: script)
    }

    func stop() { _ = try? ChildProcess.run("/bin/bash", [script, "down"], environment: ["LOOKAROUND_S3_DIR": directory]) }

    /// A client with the server's read-write credentials (its AWS-style credentials file).
    func client() throws -> S3Client {
        let text = try String(contentsOfFile: directory + "/aws/credentials", encoding: .utf8)
        func value(_ name: String) -> String {
            text.split(separator: "\n").first { $0.hasPrefix(name + " = ") }.map { String($0.dropFirst(name.count + 3)) } ?? ""
        }
        return S3Client(configuration: try S3Configuration(endpoint: endpoint, credentials: S3Credentials(
            accessKeyID: value("aws_access_key_id"), secretAccessKey: value("aws_secret_access_key"))))
    }
}

func runStorageBenchmarks() throws {
    let tmp = NSTemporaryDirectory() + "lookaround-storage-bench-\(getpid())/"
    try FileManager.default.createDirectory(atPath: tmp + "local", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    let server = try BenchmarkS3Server.start(in: tmp)
    defer { server.stop() }
    let client = try server.client()
    let bucket = "bench"
    try client.createBucket(bucket)
    print("SeaweedFS on \(server.endpoint) (loopback), credentials from its AWS-style files")
    func freshStorage(cacheDirectory: String? = nil) throws -> ObjectStorage {
        try ObjectStorage(client: client, cacheDirectory: cacheDirectory)
    }
    ObjectStorage.setShared(try freshStorage())

    // The panorama: the synthetic 8192×4096 street scene of the reprojection benchmarks, q90, with GPS
    // and GPano, in a one-panorama catalog on each side; its tile file made beside the local catalog and,
    // for the S3 side, in the bucket ($LOOKAROUND_TILE_DIR=s3://bench/tiles).
    let width = 8192
    let center = try GeoCoordinate(latitude: 60.1699, longitude: 24.9523)
    let metadata = ImageMetadata(latitudeDegrees: center.latitude, longitudeDegrees: center.longitude, altitudeMeters: 12,
                                 imageDirectionDegrees: 0, dateTimeOriginal: "2024:05:12 10:15:30",
                                 panorama: .equirectangular(width: width, height: width / 2, headingDegrees: 0))
    let jpeg = try JPEGCodec.encode(syntheticStreetScene(width: width, height: width / 2), quality: 90, metadata: metadata)
    try Data(jpeg).write(to: URL(fileURLWithPath: tmp + "local/pano.jpg"))
    try ObjectStorage.shared.write(jpeg, to: "s3://\(bucket)/pano/pano.jpg")
    let localCatalog = tmp + "local.sqlite", remoteCatalog = tmp + "s3.sqlite"
    _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [tmp + "local"], catalogPath: localCatalog))
    _ = try CatalogBuilder.build(CatalogBuildOptions(directories: ["s3://\(bucket)/pano"], catalogPath: remoteCatalog))
    let localTiles = PanoramaTileStore(directory: try CatalogLocation(parsing: localCatalog).tileDirectory)
        .update(try Catalog(path: localCatalog).imagePaths())
    // The S3 side's tile folder: set only while the S3 catalog is used (the local catalog keeps its own).
    func usingS3Tiles(_ on: Bool) { if on { setenv("LOOKAROUND_TILE_DIR", "s3://\(bucket)/tiles", 1) } else { unsetenv("LOOKAROUND_TILE_DIR") } }
    usingS3Tiles(true)
    defer { usingS3Tiles(false) }
    let remoteTileDirectory = try CatalogLocation(parsing: remoteCatalog).tileDirectory
    guard remoteTileDirectory.hasPrefix("s3://") else { throw StorageBenchmarkSkip(reason: "the tile folder is \(remoteTileDirectory), not in S3") }
    let remoteTiles = PanoramaTileStore(directory: remoteTileDirectory).update(try Catalog(path: remoteCatalog).imagePaths())
    guard localTiles.made == 1, remoteTiles.made == 1 else { throw StorageBenchmarkSkip(reason: "tile files not made: \(localTiles) \(remoteTiles)") }
    let tileFileBytes = try ObjectStorage.shared.stamp("s3://\(bucket)/tiles/pano.lktiles").size
    print("8192×4096 panorama: JPEG \(jpeg.count) bytes, tile file \(tileFileBytes) bytes (local and in s3://\(bucket))")

    var viewOptions = LookAroundSnapshotter.Options(size: PixelSize(width: 640, height: 480),
                                                    camera: .init(headingDegrees: 30, pitchDegrees: 5, fieldOfViewDegrees: 90))
    viewOptions.showsRoadLabels = false
    let options = viewOptions
    /// One snapshot as a new process makes it (catalog opened, scene asked, tiles decoded into `cache`,
    /// rendered, JPEG-encoded), with the S3 traffic it caused.
    func snapshot(_ catalogPath: String, cache: PanoramaCache, catalog given: Catalog? = nil) throws -> StorageStatistics.Snapshot {
        usingS3Tiles(catalogPath == remoteCatalog)
        let before = StorageStatistics.shared.snapshot
        let catalog = try given ?? Catalog(path: catalogPath)
        let request = LookAroundSceneRequest(coordinate: center, catalog: catalog)
        let image = try BenchmarkReport.wait {
            guard let scene = try await request.scene else { throw StorageBenchmarkSkip(reason: "no scene") }
            return try await LookAroundSnapshotter(scene: scene, options: options, cache: cache, catalog: catalog).snapshot.image
        }
        _ = try JPEGCodec.encode(image, quality: 85)
        return StorageStatistics.shared.snapshot.since(before)
    }
    // The same picture from both sides.
    let check = try [localCatalog, remoteCatalog].map { path -> [UInt8] in
        usingS3Tiles(path == remoteCatalog)
        let catalog = try Catalog(path: path)
        let request = LookAroundSceneRequest(coordinate: center, catalog: catalog)
        let image = try BenchmarkReport.wait {
            guard let scene = try await request.scene else { throw StorageBenchmarkSkip(reason: "no scene") }
            return try await LookAroundSnapshotter(scene: scene, options: options, cache: PanoramaCache(), catalog: catalog).snapshot.image
        }
        return image.components
    }
    print("  the snapshot from S3 is \(check[0] == check[1] ? "byte-identical to" : "DIFFERENT from") the local one")

    // Cold: a fresh catalog, an empty decoded-tile cache and (for S3) an empty storage — nothing known,
    // nothing cached; local and S3 alternate, 9 each, median.
    var coldLocal: [Double] = [], coldRemote: [Double] = [], coldDisk: [Double] = []
    var traffic: [StorageStatistics.Snapshot] = []
    let diskCache = tmp + "cache"
    for round in 0..<10 {
        let t0 = DispatchTime.now().uptimeNanoseconds
        _ = try snapshot(localCatalog, cache: PanoramaCache())
        let t1 = DispatchTime.now().uptimeNanoseconds
        ObjectStorage.setShared(try freshStorage())
        let t2 = DispatchTime.now().uptimeNanoseconds
        let used = try snapshot(remoteCatalog, cache: PanoramaCache())
        let t3 = DispatchTime.now().uptimeNanoseconds
        // A new process whose disk cache holds the blocks from before (the memory cache empty).
        ObjectStorage.setShared(try freshStorage(cacheDirectory: diskCache))
        let t4 = DispatchTime.now().uptimeNanoseconds
        _ = try snapshot(remoteCatalog, cache: PanoramaCache())
        let t5 = DispatchTime.now().uptimeNanoseconds
        guard round > 0 else { continue }  // the first round warms the page cache and the code
        coldLocal.append(Double(t1 - t0) / 1e6)
        coldRemote.append(Double(t3 - t2) / 1e6)
        coldDisk.append(Double(t5 - t4) / 1e6)
        traffic.append(used)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    // Views read the tile files made above, never made them again.
    usingS3Tiles(true)
    guard let remoteFile = PanoramaTileStore(directory: remoteTileDirectory).currentFile(panoramaID: "pano", source: "s3://\(bucket)/pano/pano.jpg"),
          PanoramaTileStore(directory: tmp + "local.tiles").currentFile(panoramaID: "pano", source: tmp + "local/pano.jpg") != nil else {
        throw StorageBenchmarkSkip(reason: "a tile file is missing or stale after the views")
    }
    _ = remoteFile
    // Warm: the same catalog, caches and storage, the view asked again (9 each, alternating).
    let localCatalogOpen = try Catalog(path: localCatalog), remoteCatalogOpen = try Catalog(path: remoteCatalog)
    let localCache = PanoramaCache(), remoteCache = PanoramaCache()
    ObjectStorage.setShared(try freshStorage())
    _ = try snapshot(localCatalog, cache: localCache, catalog: localCatalogOpen)
    _ = try snapshot(remoteCatalog, cache: remoteCache, catalog: remoteCatalogOpen)
    var warmLocal: [Double] = [], warmRemote: [Double] = []
    var warmTraffic = StorageStatistics.Snapshot()
    for _ in 0..<9 {
        let t0 = DispatchTime.now().uptimeNanoseconds
        _ = try snapshot(localCatalog, cache: localCache, catalog: localCatalogOpen)
        let t1 = DispatchTime.now().uptimeNanoseconds
        let used = try snapshot(remoteCatalog, cache: remoteCache, catalog: remoteCatalogOpen)
        let t2 = DispatchTime.now().uptimeNanoseconds
        warmLocal.append(Double(t1 - t0) / 1e6)
        warmRemote.append(Double(t2 - t1) / 1e6)
        warmTraffic.requests += used.requests
        warmTraffic.bytesReceived += used.bytesReceived
    }
    let bytesPerCold = traffic.map(\.bytesReceived).sorted()[traffic.count / 2]
    let requestsPerCold = traffic.map(\.requests).sorted()[traffic.count / 2]
    let (cl, cr, cd, wl, wr) = (median(coldLocal), median(coldRemote), median(coldDisk), median(warmLocal), median(warmRemote))
    print("")
    print("640×480 snapshot of an 8192×4096 panorama (catalog, scene, tiles, render, JPEG encode), median of 9")
    print(pad("path", 86) + pad("ms", 10) + "× local (goal)")
    print(pad("local disk, cold (new catalog, empty tile cache)", 86) + fmt(cl))
    print(pad("S3, cold (also: nothing known of the objects, no block cached): \(requestsPerCold) requests", 86) + pad(fmt(cr), 10)
          + fmt(cr / cl) + "× (≤ 3)")
    print(pad("S3, cold process with a warm disk cache (--cache-dir): blocks from disk", 86) + pad(fmt(cd), 10) + fmt(cd / cl) + "×")
    print(pad("local disk, warm (catalog open, tiles decoded)", 86) + fmt(wl))
    print(pad("S3, warm (\(warmTraffic.requests) requests in 9 views)", 86) + pad(fmt(wr), 10) + fmt(wr / wl) + "× (≤ 1.2)")
    print("  bytes fetched from S3 per cold view: \(bytesPerCold) (headers included) = \(fmt(100 * Double(bytesPerCold) / Double(jpeg.count), 1)) % "
          + "of the panorama's JPEG (goal ≤ 15 %), \(fmt(100 * Double(bytesPerCold) / Double(tileFileBytes), 1)) % of its tile file")

    // Indexing the shipped panoramas (189 JPEGs with sidecars, depth and label maps): local folder
    // against the same files copied into the bucket (headers by ranged GETs, 16 at a time), a full run
    // each (no incremental reuse), no OSM; median of 3, alternating.
    let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Panoramas/helsinki").path
    let objects = try ObjectStorage.shared.list(shipped)
    let storage = try freshStorage()
    ObjectStorage.setShared(storage)
    for object in objects { try storage.upload(file: object.location, to: "s3://\(bucket)/helsinki/\(object.relativePath)") }
    var indexLocal: [Double] = [], indexRemote: [Double] = []
    var found = 0
    for _ in 0..<3 {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let a = try CatalogBuilder.build(CatalogBuildOptions(directories: [shipped], catalogPath: tmp + "index-local.sqlite", forceFullRebuild: true))
        let t1 = DispatchTime.now().uptimeNanoseconds
        ObjectStorage.setShared(try freshStorage())
        let t2 = DispatchTime.now().uptimeNanoseconds
        let b = try CatalogBuilder.build(CatalogBuildOptions(directories: ["s3://\(bucket)/helsinki"], catalogPath: tmp + "index-s3.sqlite",
                                                             forceFullRebuild: true))
        let t3 = DispatchTime.now().uptimeNanoseconds
        guard a.panoramaCount == b.panoramaCount, b.failures.isEmpty else { throw StorageBenchmarkSkip(reason: "index from S3 differs: \(b.failures.prefix(2))") }
        found = a.panoramaCount
        indexLocal.append(Double(t1 - t0) / 1e9)
        indexRemote.append(Double(t3 - t2) / 1e9)
    }
    let (il, ir) = (median(indexLocal), median(indexRemote))
    print("")
    print("index \(found) shipped panoramas (full run, no OSM), median of 3")
    print(pad("local folder (headers and a 1/8-scale decode of each JPEG, maps' CRCs)", 86) + pad(fmt(il * 1000, 0) + " ms", 12)
          + fmt(Double(found) / il, 0) + " panoramas/s")
    print(pad("s3:// (one listing, headers by ranged GETs and sidecars, 16 requests in flight)", 86) + pad(fmt(ir * 1000, 0) + " ms", 12)
          + fmt(Double(found) / ir, 0) + " panoramas/s (\(fmt(il / ir)) × local)")
}

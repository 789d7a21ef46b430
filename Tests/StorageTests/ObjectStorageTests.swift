import Foundation
import Storage
import Testing
import TestSupport

/// Reads and writes through ``ObjectStorage``: one interface over local files and S3, with block caches.
@Suite(.serialized) struct ObjectStorageTests {
    static func storage(_ server: S3TestServer, cache: String? = nil, cacheBytes: Int = 1 << 30, revalidateSeconds: Double = 60,
                        memoryBytes: Int = 64 << 20) throws -> ObjectStorage {
        try ObjectStorage(client: try S3ClientTests.client(server), cacheDirectory: cache, cacheBytes: cacheBytes, memoryBytes: memoryBytes,
                          revalidateSeconds: revalidateSeconds)
    }

    @Test func localFilesReadWriteListAndStamp() throws {
        let root = try Lookaround.temporaryDirectory().path
        let storage = try ObjectStorage()
        let bytes = S3ClientTests.pattern(10_000)
        try storage.write(bytes, to: root + "/made/on/demand/a.bin")
        #expect(try storage.read(root + "/made/on/demand/a.bin") == bytes)
        #expect(try storage.read(root + "/made/on/demand/a.bin", range: 9_990..<20_000) == Array(bytes[9_990...]))
        let stamp = try storage.stamp(root + "/made/on/demand/a.bin")
        #expect(stamp.size == 10_000 && stamp.versionNumber > 0 && String(stamp.versionNumber) == stamp.version)
        try storage.write([1], to: root + "/made/b.bin")
        #expect(try storage.list(root + "/made").map(\.relativePath) == ["b.bin", "on/demand/a.bin"])
        #expect(throws: StorageError.notFound(location: root + "/nothing")) { try storage.read(root + "/nothing") }
        #expect(try !storage.exists(root + "/nothing") && storage.exists(root + "/made/b.bin"))
        try storage.delete(root + "/made/b.bin")
        #expect(try !storage.exists(root + "/made/b.bin"))
        // No temporary file is left beside a written one.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/made/on/demand") == ["a.bin"])
    }

    @Test(.enabled(if: S3TestServer.shared != nil, Comment(rawValue: S3TestServer.skipNote)))
    func rangesAreFetchedOnceInBlocksAndAChangedObjectIsFetchedAgain() throws {
        let server = try #require(S3TestServer.shared)
        let bucket = S3TestServer.bucketName("blocks")
        try S3ClientTests.client(server).createBucket(bucket)
        let storage = try Self.storage(server, revalidateSeconds: 0.5)
        let location = "s3://\(bucket)/tiles/pano.lktiles"
        let bytes = S3ClientTests.pattern(1_000_000, seed: 3)
        try storage.write(bytes, to: location)

        let requests = try storage.client().statistics
        let cold = requests.snapshot
        #expect(try storage.read(location, range: 70_000..<70_100) == Array(bytes[70_000..<70_100]))
        #expect(try storage.read(location, range: 70_050..<200_000) == Array(bytes[70_050..<200_000]))
        let afterCold = requests.snapshot.since(cold)
        #expect(afterCold.requests == 2, "one GET for the first block, one for the two missing after it: \(afterCold)")
        #expect(afterCold.bytesReceived < 200_000, "\(afterCold)")

        let warm = requests.snapshot
        #expect(try storage.read(location, range: 70_000..<199_000) == Array(bytes[70_000..<199_000]))
        #expect(requests.snapshot.since(warm).requests == 0, "served from memory")

        // Replaced: once the size and ETag are no longer trusted, If-Match fails and the new bytes are read.
        let changed = S3ClientTests.pattern(1_000_000, seed: 4)
        try S3ClientTests.client(server).put(bucket: bucket, key: "tiles/pano.lktiles", bytes: changed)
        Thread.sleep(forTimeInterval: 0.6)
        #expect(try storage.read(location, range: 70_000..<70_100) == Array(changed[70_000..<70_100]))
        #expect(try storage.read(location) == changed)
    }

    @Test(.enabled(if: S3TestServer.shared != nil, Comment(rawValue: S3TestServer.skipNote)))
    func theDiskCacheServesAnotherProcessAndStaysBounded() throws {
        let server = try #require(S3TestServer.shared)
        let bucket = S3TestServer.bucketName("disk")
        try S3ClientTests.client(server).createBucket(bucket)
        let cache = try Lookaround.temporaryDirectory().path
        let writer = try Self.storage(server)
        var objects: [(String, [UInt8])] = []
        for i in 0..<12 {
            let bytes = S3ClientTests.pattern(512 << 10, seed: UInt32(10 + i))
            try writer.write(bytes, to: "s3://\(bucket)/o\(i).bin")
            objects.append(("s3://\(bucket)/o\(i).bin", bytes))
        }
        // "Two processes": two storages on one folder, no memory shared between them.
        let first = try Self.storage(server, cache: cache, cacheBytes: 4 << 20, memoryBytes: 0)
        let second = try Self.storage(server, cache: cache, cacheBytes: 4 << 20, memoryBytes: 0)
        #expect(try first.read(objects[0].0) == objects[0].1)
        let (blocksBefore, requestsBefore) = (second.statistics.snapshot, try second.client().statistics.snapshot)
        #expect(try second.read(objects[0].0, range: 0..<(512 << 10)) == objects[0].1)
        let blocks = second.statistics.snapshot.since(blocksBefore), requests = try second.client().statistics.snapshot.since(requestsBefore)
        #expect(blocks.diskHits == 8 && blocks.misses == 0, "the other storage's blocks were on disk: \(blocks)")
        #expect(requests.requests == 1, "only the HEAD of the object (the second storage did not know it): \(requests)")

        // 12 × 512 KiB through a 4 MiB cache, from both: it stays near its bound, LRU first out.
        for (i, object) in objects.enumerated() { #expect(try (i % 2 == 0 ? first : second).read(object.0) == object.1) }
        var total = 0
        for case let file as String in FileManager.default.enumerator(atPath: cache)! {
            total += (try? FileManager.default.attributesOfItem(atPath: cache + "/" + file)[.size] as? Int) ?? 0
        }
        #expect(total <= (4 << 20) + 2 * (4 << 20) / 8, "cache holds \(total) bytes")
        #expect(total >= 2 << 20, "the latest blocks are kept: \(total) bytes")
        // The most recent object is still there whole.
        let third = try Self.storage(server, cache: cache, cacheBytes: 4 << 20, memoryBytes: 0)
        #expect(try third.read(objects[11].0, range: 0..<(512 << 10)) == objects[11].1)
        #expect(third.statistics.snapshot.misses == 0 && third.statistics.snapshot.diskHits == 8)
    }

    @Test func byteCountsAreReadWithUnits() {
        #expect(ObjectStorage.parseByteCount("2G") == 2 << 30)
        #expect(ObjectStorage.parseByteCount("500M") == 500 << 20)
        #expect(ObjectStorage.parseByteCount("1.5GiB") == 3 << 29)
        #expect(ObjectStorage.parseByteCount("4096") == 4096)
        #expect(ObjectStorage.parseByteCount("-1") == nil && ObjectStorage.parseByteCount("lots") == nil)
    }
}

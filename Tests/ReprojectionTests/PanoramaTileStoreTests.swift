import Foundation
import Imaging
import Testing
@testable import Reprojection

@Suite("Tile store: where tile files go, when they are made, what a failure leaves")
struct PanoramaTileStoreTests {
    /// A folder with `names`.jpg (512×256 grids) and the store of `catalog.sqlite` in it.
    static func makeFolder(_ names: [String]) throws -> (folder: String, store: PanoramaTileStore, sources: [String]) {
        let folder = PanoramaTileFileTests.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let jpeg = try JPEGCodec.encode(Fixtures.gridPanorama(width: 512), quality: 90)
        let sources = names.map { folder + "/" + $0 + ".jpg" }
        for source in sources { try Data(jpeg).write(to: URL(fileURLWithPath: source)) }
        return (folder, PanoramaTileStore(catalogPath: folder + "/catalog.sqlite"), sources)
    }

    static func modified(_ path: String) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }

    /// Moves `path`'s modification time `seconds` later (what an edited or replaced file looks like).
    static func touch(_ path: String, seconds: Double = 10) throws {
        try FileManager.default.setAttributes([.modificationDate: try modified(path).addingTimeInterval(seconds)], ofItemAtPath: path)
    }

    @Test("paths: beside the catalog in NAME.tiles, odd characters of the id as _")
    func paths() {
        let store = PanoramaTileStore(catalogPath: "Panoramas/catalog.sqlite")
        #expect(store.directory == "Panoramas/catalog.tiles")
        #expect(store.path(panoramaID: "helsinki/R0010023") == "Panoramas/catalog.tiles/helsinki_2FR0010023.lktiles")
        #expect(store.path(panoramaID: "senaatintori-005.a_b") == "Panoramas/catalog.tiles/senaatintori-005.a__b.lktiles")
        #expect(store.path(panoramaID: "../x y") == "Panoramas/catalog.tiles/_2E._2Fx_20y.lktiles")
        #expect(PanoramaTileStore.fileName(panoramaID: "Käpylä") == "K_C3_A4pyl_C3_A4.lktiles")
        // Ids that a lossy mapping would merge keep apart.
        let ids = ["a/b", "a_b", "a_2Fb", "a__b", "a b", "a.b"]
        #expect(Set(ids.map(PanoramaTileStore.fileName(panoramaID:))).count == ids.count)
    }

    @Test("made when missing, kept while current, remade when the JPEG changes")
    func makeKeepRemake() throws {
        let (folder, store, sources) = try Self.makeFolder(["a"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(store.currentFile(panoramaID: "a", source: sources[0]) == nil)
        let first = try store.file(panoramaID: "a", source: sources[0])
        #expect(first.made && first.file.path == store.path(panoramaID: "a"))
        #expect(first.file.levels.map(\.width) == [512])
        let stamp = try Self.modified(first.file.path)
        let again = try store.file(panoramaID: "a", source: sources[0])
        #expect(!again.made && store.currentFile(panoramaID: "a", source: sources[0]) != nil)
        #expect(try Self.modified(first.file.path) == stamp, "a current file is not rewritten")
        try Self.touch(sources[0])
        #expect(store.currentFile(panoramaID: "a", source: sources[0]) == nil, "stale once the JPEG's time changes")
        #expect(try store.file(panoramaID: "a", source: sources[0]).made)
        #expect(store.currentFile(panoramaID: "a", source: sources[0]) != nil)
    }

    @Test("update: makes all, then none; a damaged JPEG is a failure, the rest are made; others' files removed")
    func update() throws {
        let (folder, store, sources) = try Self.makeFolder(["a", "b", "c"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let panoramas = zip(["a", "b", "c"], sources).map { (panoramaID: $0, imagePath: $1) }
        let progress = Progress()
        let first = store.update(panoramas, progress: { done, total in progress.record(done, total) })
        #expect(first.made == 3 && first.upToDate == 0 && first.failures.isEmpty && first.removed == 0)
        #expect(first.bytesWritten > 0 && first.totalBytes == first.bytesWritten)
        #expect(progress.last.map { $0 == (3, 3) } == true)
        let second = store.update(panoramas)
        #expect(second.made == 0 && second.upToDate == 3 && second.bytesWritten == 0 && second.totalBytes == first.totalBytes)

        // b truncated (its headers still read), c dropped from the list, a stray tile file of z.
        let bytes = try ImageFile.read(sources[1])
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: sources[1]))
        try Data("x".utf8).write(to: URL(fileURLWithPath: store.path(panoramaID: "z")))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: store.directory + "/notes.txt"))
        // Temporary files of writes: one abandoned two hours ago (removed), one just begun (kept).
        let abandoned = store.directory + "/.a.lktiles.999.ABCDEF12.tmp", fresh = store.directory + "/.b.lktiles.998.12345678.tmp"
        try Data("half".utf8).write(to: URL(fileURLWithPath: abandoned))
        try Data("half".utf8).write(to: URL(fileURLWithPath: fresh))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: abandoned)
        let third = store.update(Array(panoramas.prefix(2)))
        #expect(third.made == 0 && third.upToDate == 1 && third.removed == 2)
        let failure = try #require(third.failures.first)
        #expect(failure.panoramaID == "b" && failure.path == sources[1])
        #expect(failure.message.contains("truncated JPEG data"), "\(failure.message)")
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted()
        #expect(names == [".b.lktiles.998.12345678.tmp", "a.lktiles", "notes.txt"],
                "b's stale file, c's and z's and the abandoned write are gone; other files and a fresh write stay")
    }

    @Test("a tile file that cannot be written: an error, no temporary file, and views stop trying")
    func failedWrite() throws {
        let (folder, store, sources) = try Self.makeFolder(["a", "b"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A non-empty folder where the file should go: the rename fails (as root, where permissions
        // would not stop the write).
        try FileManager.default.createDirectory(atPath: store.path(panoramaID: "a") + "/x", withIntermediateDirectories: true)
        #expect { try store.file(panoramaID: "a", source: sources[0]) } throws: { error in
            guard case ReprojectionError.cannotWrite(let failure) = error else { return false }
            return failure.path == store.path(panoramaID: "a")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory)
        #expect(names == ["a.lktiles"], "no temporary file left: \(names)")

        #expect(!store.makingFailed(panoramaID: "a", source: sources[0]))
        #expect(try store.fileForView(panoramaID: "a", source: sources[0]) == nil)
        #expect(store.makingFailed(panoramaID: "a", source: sources[0]), "remembered: the next view decodes directly")
        #expect(try store.fileForView(panoramaID: "a", source: sources[0]) == nil)
        // Another panorama of the same store is not affected, and a changed JPEG is tried again.
        #expect(try store.fileForView(panoramaID: "b", source: sources[1]) != nil)
        try FileManager.default.removeItem(atPath: store.path(panoramaID: "a"))
        try Self.touch(sources[0])
        #expect(!store.makingFailed(panoramaID: "a", source: sources[0]))
        #expect(try store.fileForView(panoramaID: "a", source: sources[0]) != nil)
    }

    /// The last (done, total) a progress callback saw.
    final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (Int, Int)?
        func record(_ done: Int, _ total: Int) { lock.withLock { value = (done, total) } }
        var last: (Int, Int)? { lock.withLock { value } }
    }
}

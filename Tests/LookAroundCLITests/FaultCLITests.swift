import Foundation
import Testing
import TestSupport

/// Faults while writing: a full disk (a small tmpfs where this machine lets the tests mount one, else a
/// file-size limit, `prlimit --fsize`, which fails writes with EFBIG the same way), permission denied
/// (a read-only folder, entered as `nobody` when the tests run as root), SIGKILL in the middle of a
/// build, and panoramas deleted or replaced after indexing. Each checks the exit code (73 or 74), that
/// the error names the path and the cause, and that the old outputs are unchanged and no temporary
/// file is left.
@Suite(.serialized) struct FaultCLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let ids = ["aleksanterinkatu-000", "aleksanterinkatu-001", "aleksanterinkatu-002", "aleksanterinkatu-003"]
    static let isRoot = getuid() == 0

    /// A folder with `Panoramas/` holding four shipped panoramas with their depth, label and sidecar files.
    static func setUp() throws -> URL {
        let root = try Lookaround.temporaryDirectory()
        let panoramas = root.appendingPathComponent("Panoramas")
        try FileManager.default.createDirectory(at: panoramas, withIntermediateDirectories: true)
        for id in ids {
            for suffix in [".jpg", ".depth.png", ".labels.png", ".json"] {
                try FileManager.default.copyItem(at: repository.appendingPathComponent("Panoramas/helsinki/\(id)\(suffix)"),
                                                 to: panoramas.appendingPathComponent(id + suffix))
            }
        }
        return root
    }

    /// Where writes fail for lack of space: a tmpfs filled up to `freeBytes`, or (when mounting is not
    /// allowed) an ordinary folder and a file-size limit of `freeBytes` on the process.
    final class FullDisk {
        let path: String
        let mounted: Bool
        let limitBytes: Int

        init(freeBytes: Int, holding files: [(name: String, bytes: Data)] = []) throws {
            path = try Lookaround.temporaryDirectory().path
            let total = files.reduce(0) { $0 + $1.bytes.count } + freeBytes + 256 * 1024
            let mount = try Lookaround.runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(total / 1024 + 64)k", "tmpfs", path])
            mounted = mount.exitCode == 0
            limitBytes = freeBytes
            for file in files { try file.bytes.write(to: URL(fileURLWithPath: path + "/" + file.name)) }
            if mounted {
                // Fill all but `freeBytes`, so the test does not depend on exact output sizes.
                var info = statvfs()
                statvfs(path, &info)
                let available = Int(info.f_bavail) * Int(info.f_frsize)
                if available > freeBytes {
                    try Data(count: available - freeBytes).write(to: URL(fileURLWithPath: path + "/.filler"))
                }
            }
        }

        /// The cause the error must name.
        /// (With a file-size limit SQLite reports EFBIG as a generic I/O error, so only the path is checked.)
        var reason: String { mounted ? "No space left on device" : "" }

        /// Runs `lookaround` with writes limited as this disk is.
        func run(_ arguments: [String], in directory: URL? = nil) throws -> ProcessResult {
            if mounted { return try Lookaround.run(arguments, in: directory) }
            return try Lookaround.runProcess("/usr/bin/prlimit", ["--fsize=\(limitBytes)", Lookaround.executablePath] + arguments,
                                             in: directory)
        }

        /// Names in the folder other than the filler.
        func names() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: path).filter { $0 != ".filler" }.sorted()
        }

        deinit {
            if mounted { _ = try? Lookaround.runProcess("/bin/umount", [path]) }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Runs `lookaround` without permission to write where a root test could: as `nobody`.
    static func runUnprivileged(_ arguments: [String], in directory: URL) throws -> ProcessResult {
        guard isRoot else { return try Lookaround.run(arguments, in: directory) }
        return try Lookaround.runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                              Lookaround.executablePath] + arguments, in: directory)
    }

    static func index(_ root: URL, catalog: String, _ extra: [String] = []) throws -> ProcessResult {
        try Lookaround.run(["index", "Panoramas", "--catalog", catalog, "--no-osm", "--quiet"] + extra, in: root)
    }

    /// ``setUp()``'s folder with its panoramas indexed into `name` there (the index expected to succeed),
    /// and the catalog's path. The caller removes the folder.
    static func indexedCopy(_ name: String = "catalog.sqlite", sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (root: URL, catalog: String) {
        let root = try setUp()
        let catalog = root.appendingPathComponent(name).path
        #expect(try index(root, catalog: catalog).exitCode == 0, sourceLocation: sourceLocation)
        return (root, catalog)
    }

    /// The catalog answers a scene request for the first panorama (it is whole and readable).
    static func expectReadable(_ catalog: String, panoramas: Int) throws {
        let scene = try Lookaround.run(["scene", "--lat", "60.16847", "--lon", "24.94085", "--catalog", catalog, "--json"])
        #expect(scene.exitCode == 0, "\(catalog) is not readable: \(scene.stderr)")
        #expect(scene.stdout.contains(ids[0]), "\(scene.stdout)")
        _ = panoramas
    }

    // MARK: Disk full

    @Test func indexOnAFullDiskKeepsTheOldCatalog() throws {
        let (root, built) = try Self.indexedCopy("built.sqlite")
        defer { try? FileManager.default.removeItem(at: root) }
        let old = try Data(contentsOf: URL(fileURLWithPath: built))
        let disk = try FullDisk(freeBytes: 8 * 1024, holding: [("catalog.sqlite", old)])
        let catalog = disk.path + "/catalog.sqlite"
        let result = try disk.run(["index", "Panoramas", "--catalog", catalog, "--no-osm", "--quiet", "--full"], in: root)
        #expect(result.exitCode == 74, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("cannot write the catalog \(catalog): \(disk.reason)"), "\(result.stderr)")
        #expect(result.stderr.contains("the old catalog is unchanged"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == old)
        #expect(try disk.names() == ["catalog.sqlite"], "a temporary file was left")
        try Self.expectReadable(catalog, panoramas: 4)
    }

    @Test func indexTilesOnAFullDiskNamesTheFileAndKeepsTheCatalog() throws {
        let root = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: root) }
        // Room for the catalog (about 200 KB) but not for four tile files (about 400 KB each).
        let disk = try FullDisk(freeBytes: 600 * 1024)
        let catalog = disk.path + "/catalog.sqlite"
        let result = try disk.run(["index", "Panoramas", "--catalog", catalog, "--no-osm", "--quiet", "--tiles"], in: root)
        #expect(result.exitCode == 74, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("cannot write \(disk.path)/catalog.tiles/"), "\(result.stdout)")
        #expect(result.stdout.contains(disk.reason), "\(result.stdout)")
        try Self.expectReadable(catalog, panoramas: 4)
        let tiles = try FileManager.default.contentsOfDirectory(atPath: disk.path + "/catalog.tiles")
        #expect(tiles.allSatisfy { $0.hasSuffix(".lktiles") && !$0.hasPrefix(".") }, "temporary files left: \(tiles)")
        #expect(tiles.count < Self.ids.count)
    }

    @Test func simulateOnAFullDiskKeepsTheCapturesWritten() throws {
        let osm = Self.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
        let arguments = ["--osm", osm, "--streets", "Aleksanterinkatu", "--bbox", "60.1688,24.9510,60.1694,24.9525",
                         "--size", "256x128", "--depth-size", "32x16", "--samples", "1"]
        let first = try Lookaround.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: first) }
        let made = try Lookaround.run(["simulate"] + arguments + ["--out", first.path, "--limit", "1", "--quiet"])
        #expect(made.exitCode == 0, "\(made.stderr)")
        let jpeg = try Data(contentsOf: first.appendingPathComponent("aleksanterinkatu-000.jpg"))
        let disk = try FullDisk(freeBytes: 6 * 1024, holding: try FileManager.default.contentsOfDirectory(atPath: first.path).map {
            ($0, try Data(contentsOf: first.appendingPathComponent($0)))
        })
        let result = try disk.run(["simulate"] + arguments + ["--out", disk.path, "--limit", "3", "--quiet"])
        #expect(result.exitCode == 74, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("cannot write \(disk.path)/aleksanterinkatu-00"), "\(result.stderr)")
        #expect(result.stderr.contains(disk.reason))
        #expect(try Data(contentsOf: URL(fileURLWithPath: disk.path + "/aleksanterinkatu-000.jpg")) == jpeg)
        let left = try disk.names()
        #expect(left.allSatisfy { !$0.hasPrefix(".") }, "temporary files left: \(left)")
    }

    @Test func walkPreviewOnAFullDiskKeepsTheOldPreview() throws {
        let (root, catalog) = try Self.indexedCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let old = Data("an old preview".utf8)
        for name in ["walk.gif", "frames"] {
            let disk = try FullDisk(freeBytes: 4 * 1024, holding: name == "walk.gif" ? [("walk.gif", old)] : [])
            let output = disk.path + "/" + name
            let result = try disk.run(["walk", "--catalog", catalog, "--sequence", "aleksanterinkatu", "--size", "96x64",
                                       "--fps", "4", "--first-seconds", "2", "--osm", "none", "-o", output, "--quiet"])
            #expect(result.exitCode == 74, "\(name): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("cannot write \(output): \(disk.reason)"), "\(result.stderr)")
            let left = try disk.names()
            #expect(left == (name == "walk.gif" ? ["walk.gif"] : []), "left: \(left)")
            if name == "walk.gif" { #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == old) }
        }
    }

    // MARK: Permission denied

    @Test func indexIntoAFolderWithoutWritePermission() throws {
        let root = try Self.setUp()
        defer {
            chmod(root.appendingPathComponent("locked").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        let locked = root.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        let catalog = locked.appendingPathComponent("catalog.sqlite").path
        #expect(try Self.index(root, catalog: catalog).exitCode == 0)
        let old = try Data(contentsOf: URL(fileURLWithPath: catalog))
        chmod(locked.path, 0o555)
        let result = try Self.runUnprivileged(["index", "Panoramas", "--catalog", catalog, "--no-osm", "--quiet", "--full"], in: root)
        #expect(result.exitCode == 73, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("cannot write the catalog \(catalog): Permission denied"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == old)

        // --tiles: the catalog is current (nothing to write), its tile folder is not writable.
        chmod(locked.path, 0o755)
        try FileManager.default.createDirectory(atPath: locked.path + "/catalog.tiles", withIntermediateDirectories: true)
        chmod(locked.path + "/catalog.tiles", 0o555)
        defer { chmod(locked.path + "/catalog.tiles", 0o755) }
        chmod(locked.path, 0o777)
        let tiles = try Self.runUnprivileged(["index", "Panoramas", "--catalog", catalog, "--no-osm", "--quiet", "--tiles"], in: root)
        #expect(tiles.exitCode == 73, "\(tiles.stdout)\(tiles.stderr)")
        #expect(tiles.stdout.contains("Permission denied"), "\(tiles.stdout)")

        let out = root.appendingPathComponent("locked-out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        chmod(out.path, 0o555)
        defer { chmod(out.path, 0o755) }
        let walk = try Self.runUnprivileged(["walk", "--catalog", catalog, "--sequence", "aleksanterinkatu", "--size", "96x64",
                                             "--fps", "4", "--first-seconds", "2", "--osm", "none", "-o", out.path + "/walk.gif",
                                             "--quiet"], in: root)
        #expect(walk.exitCode == 73, "\(walk.stdout)\(walk.stderr)")
        #expect(walk.stderr.contains("Permission denied"), "\(walk.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    // MARK: SIGKILL

    @Test func aBuildKilledMidWayIsRecoveredByTheNextRun() throws {
        let (root, catalog) = try Self.indexedCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let old = try Data(contentsOf: URL(fileURLWithPath: catalog))

        // Killed while it makes the tile files (the longest step): poll for the first one, then SIGKILL.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Lookaround.executablePath)
        process.arguments = ["index", "Panoramas", "--catalog", catalog, "--no-osm", "--quiet", "--tiles", "--full"]
        process.currentDirectoryURL = root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let tiles = root.appendingPathComponent("catalog.tiles").path
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning,
              ((try? FileManager.default.contentsOfDirectory(atPath: tiles)) ?? []).isEmpty {
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the build finished before it was killed")
        // The catalog is the old one or the new one, whole either way.
        try Self.expectReadable(catalog, panoramas: 4)
        _ = old

        // What a kill in the middle of a write leaves: temporary files of a process that is gone.
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let pid = dead.processIdentifier
        let catalogTemporary = "\(catalog).tmp-\(pid)", tileTemporary = "\(tiles)/.\(Self.ids[1]).lktiles.tmp-\(pid)-1"
        try FileManager.default.createDirectory(atPath: tiles, withIntermediateDirectories: true)
        try Data("half a catalog".utf8).write(to: URL(fileURLWithPath: catalogTemporary))
        try Data("LKTILES1 half".utf8).write(to: URL(fileURLWithPath: tileTemporary))

        let next = try Lookaround.run(["index", "Panoramas", "--catalog", catalog, "--no-osm", "--tiles", "--json"], in: root)
        #expect(next.exitCode == 0, "\(next.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any])
        let tileReport = try #require(report["tiles"] as? [String: Any])
        #expect((tileReport["failures"] as? [Any])?.isEmpty == true)
        #expect((tileReport["made"] as? Int ?? 0) + (tileReport["up_to_date"] as? Int ?? 0) == Self.ids.count)
        #expect(!FileManager.default.fileExists(atPath: catalogTemporary), "the dead build's catalog was left")
        #expect(!FileManager.default.fileExists(atPath: tileTemporary), "the dead write's tile file was left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tiles).sorted() == Self.ids.map { $0 + ".lktiles" })
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.contains(".tmp") }.isEmpty)
        try Self.expectReadable(catalog, panoramas: 4)
    }

    // MARK: Panoramas changed after indexing

    @Test func aPanoramaDeletedOrReplacedAfterIndexing() throws {
        let (root, catalog) = try Self.indexedCopy()
        defer { try? FileManager.default.removeItem(at: root) }
        let deleted = root.appendingPathComponent("Panoramas/\(Self.ids[1]).jpg").path
        let replaced = root.appendingPathComponent("Panoramas/\(Self.ids[2]).jpg").path
        try FileManager.default.removeItem(atPath: deleted)
        try Data(repeating: 0x42, count: 5000).write(to: URL(fileURLWithPath: replaced))
        func snapshot(_ id: String) throws -> ProcessResult {
            try Lookaround.run(["snapshot", "--scene", id, "--catalog", catalog, "--size", "64x48", "-o", root.path + "/\(id).png"])
        }
        let gone = try snapshot(Self.ids[1])
        #expect([65, 66].contains(gone.exitCode), "\(gone.stderr)")
        #expect(gone.stderr.contains(deleted), "\(gone.stderr)")
        let garbage = try snapshot(Self.ids[2])
        #expect(garbage.exitCode == 65, "\(garbage.stderr)")
        #expect(garbage.stderr.contains(replaced), "\(garbage.stderr)")
        #expect(try snapshot(Self.ids[0]).exitCode == 0, "the others are still served")
        #expect(!FileManager.default.fileExists(atPath: root.path + "/\(Self.ids[1]).png"))
    }
}

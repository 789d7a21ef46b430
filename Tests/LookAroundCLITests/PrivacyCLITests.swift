import Foundation
import Imaging
import Testing
import TestSupport

/// `lookaround blur`, `index --blur` and serve's refusal of unblurred photos, as a user runs them.
@Suite struct PrivacyCLITests {
    /// SGBlur's fixture (../shared/data/blur, or $LOOKAROUND_SHARED_DATA/blur); the test is cancelled without it.
    static func fixture() throws -> String {
        let shared = ProcessInfo.processInfo.environment["LOOKAROUND_SHARED_DATA"]
            ?? Lookaround.repository.deletingLastPathComponent().appendingPathComponent("shared/data").path
        let path = shared + "/blur/flat_urban_with_face_and_sign_small.jpg"
        guard FileManager.default.fileExists(atPath: path) else { try Test.cancel("skipped: \(path) is missing (../shared/data)") }
        return path
    }

    static let d1 = Lookaround.repository.appendingPathComponent("Tests/LookAroundCLITests/Fixtures/real-photos/d1.jpg").path

    static func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "not a JSON list: \(text)")
    }

    @Test func blurWritesTheBlurredCopyListsItsRegionsAndRecordsThemInXMP() throws {
        let out = try Lookaround.temporaryDirectory()
        let result = try Lookaround.run(["blur", try Self.fixture(), "-o", out.path, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try #require(try Self.json(result.stdout).first)
        let regions = try #require(report["regions"] as? [[String: Any]])
        let face = try #require(regions.first { $0["class"] as? String == "face" }, "\(regions)")
        let box = try #require(face["box"] as? [String: Double])
        #expect((440...470).contains(box["x"] ?? 0) && (125...150).contains(box["y"] ?? 0), "face box \(box)")
        #expect(face["id"] as? String == "f1" && (face["score"] as? Double ?? 0) > 0.3 && face["state"] as? String == "blurred")
        #expect(!regions.contains { ($0["box"] as? [String: Double]).map { ($0["x"] ?? 0) < 200 } ?? false }, "nothing on the sign")
        let written = out.appendingPathComponent("flat_urban_with_face_and_sign_small.jpg").path
        #expect(report["output"] as? String == written && FileManager.default.fileExists(atPath: written))
        // exiftool, an independent reader, sees the marker and the region.
        let exiftool = try? Lookaround.runProcess("/usr/bin/exiftool", ["-s", "-XMP-LookAroundPrivacy:all", written])
        if let exiftool, exiftool.exitCode == 0 {
            #expect(exiftool.stdout.contains("Blurred                         : True") && exiftool.stdout.contains("f1 face"), "\(exiftool.stdout)")
        }
        // Again on its own output: unchanged, said so.
        let again = try Lookaround.run(["blur", written, "-o", try Lookaround.temporaryDirectory().path])
        #expect(again.exitCode == 0 && again.stdout.contains("unchanged, already blurred (1 face, 0 plates)"), "\(again.stdout)\(again.stderr)")
    }

    @Test func dryRunWritesAPreviewAndNoPhoto() throws {
        let out = try Lookaround.temporaryDirectory()
        let result = try Lookaround.run(["blur", try Self.fixture(), "-o", out.path, "--dry-run"])
        #expect(result.exitCode == 0 && result.stdout.contains("would blur 1 face"), "\(result.stdout)\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(files == ["flat_urban_with_face_and_sign_small.preview.jpg"], "\(files)")
        let preview = try JPEGCodec.decodeRGB(try ImageFile.read(out.appendingPathComponent(files[0]).path)).image
        // The face's box is drawn in red around x 450–470, y 130–157.
        var red = 0
        for y in 120..<170 { for x in 440..<485 where preview[x, y, 0] > 200 && preview[x, y, 1] < 90 && preview[x, y, 2] < 90 { red += 1 } }
        #expect(red > 30, "red box pixels: \(red)")
    }

    @Test func correctionsAddAndRemoveInPlace() throws {
        let originals = try Lookaround.temporaryDirectory(), published = try Lookaround.temporaryDirectory()
        let original = originals.appendingPathComponent("street.jpg").path
        try FileManager.default.copyItem(atPath: try Self.fixture(), toPath: original)
        #expect(try Lookaround.run(["blur", original, "-o", published.path, "-q"]).exitCode == 0)
        let photo = published.appendingPathComponent("street.jpg").path
        let added = try Lookaround.run(["blur", photo, "--in-place", "--add", "100,250,60,40", "--json"])
        #expect(added.exitCode == 0, "\(added.stderr)")
        #expect((try Self.json(added.stdout).first?["added"] as? [String]) == ["m1"])
        let removed = try Lookaround.run(["blur", photo, "--in-place", "--remove", "m1", "--originals", originals.path])
        #expect(removed.exitCode == 0 && removed.stdout.contains("restored m1"), "\(removed.stdout)\(removed.stderr)")
        // The marked area decodes as the original again.
        let before = try JPEGCodec.decodeRGB(try ImageFile.read(original)).image, after = try JPEGCodec.decodeRGB(try ImageFile.read(photo)).image
        var worst = 0
        for y in 256..<288 { for x in 112..<144 { for c in 0..<3 { worst = max(worst, abs(Int(before[x, y, c]) - Int(after[x, y, c]))) } } }
        #expect(worst == 0)
        // Usage errors: exit 64, naming what to do.
        for (arguments, message) in [(["blur", photo, "--in-place", "--remove", "m1"], "--originals DIR"),
                                     (["blur", photo, "-o", published.path, "--in-place"], "either -o DIR or --in-place"),
                                     (["blur", photo, "--in-place", "--add", "1,2,3"], "is not X,Y,W,H"),
                                     (["blur", photo], "-o DIR, or --in-place"),
                                     (["blur", photo, "-o", published.path, "--face-threshold", "2"], "0.05…0.95")] {
            let result = try Lookaround.run(arguments)
            #expect(result.exitCode == 64 && result.stderr.contains(message), "\(arguments): \(result.exitCode) \(result.stderr)")
        }
        // An unknown region: 64 with the ids it has; a missing file: 66.
        let unknown = try Lookaround.run(["blur", photo, "--in-place", "--remove", "x7", "--originals", originals.path])
        #expect(unknown.exitCode == 64 && unknown.stderr.contains("records f1, m1"), "\(unknown.stderr)")
        let missing = try Lookaround.run(["blur", "/nonexistent/photo.jpg", "-o", published.path])
        #expect(missing.exitCode == 65 || missing.exitCode == 66, "\(missing.exitCode) \(missing.stderr)")
        #expect(missing.stderr.contains("/nonexistent/photo.jpg"))
    }

    @Test func aMissingModelIsNamedWithTheCommandThatInstallsIt() throws {
        let empty = try Lookaround.temporaryDirectory()
        let result = try Lookaround.run(["blur", Self.d1, "-o", empty.path], environment: ["LOOKAROUND_MODELS_DIR": empty.path])
        #expect(result.exitCode == 69, "\(result.stderr)")
        #expect(result.stderr.contains("centerface.onnx is not installed") && result.stderr.contains("scripts/fetch-models.sh"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty, "nothing written")
    }

    /// A folder of real photos: serve refuses it until `index --blur` has blurred them; the originals
    /// are kept outside the folder; a second `index --blur` blurs nothing again.
    @Test func serveRefusesUnblurredPhotosUntilIndexBlursThem() throws {
        let root = try Lookaround.temporaryDirectory()
        let photos = root.appendingPathComponent("photos"), originals = root.appendingPathComponent("private")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.d1, toPath: photos.appendingPathComponent("d1.jpg").path)
        let catalog = root.appendingPathComponent("c.sqlite").path
        #expect(try Lookaround.run(["index", photos.path, "--catalog", catalog, "--no-osm", "-q"]).exitCode == 0)
        let refused = try Lookaround.run(["serve", "--catalog", catalog, "--listen", "127.0.0.1:0"])
        #expect(refused.exitCode == 65, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("1 real photo was never blurred") && refused.stderr.contains("photos/d1.jpg")
                && refused.stderr.contains("--serve-unblurred"), "\(refused.stderr)")
        let unblurred = try ServeCLITests.Server(["--catalog", catalog, "--serve-unblurred"])
        #expect(unblurred.terminate().exitCode == 0)

        let inside = try Lookaround.run(["index", photos.path, "--catalog", catalog, "--no-osm", "--blur",
                                         "--keep-originals", photos.appendingPathComponent("orig").path])
        #expect(inside.exitCode == 64 && inside.stderr.contains("must be outside the indexed folder"), "\(inside.stderr)")
        let blurred = try Lookaround.run(["index", photos.path, "--catalog", catalog, "--no-osm", "--blur", "--keep-originals", originals.path])
        #expect(blurred.exitCode == 0, "\(blurred.stderr)")
        #expect(blurred.stdout.contains("blurred     1 photos"), "\(blurred.stdout)")
        #expect(try ImageFile.read(originals.appendingPathComponent("photos/d1.jpg").path) == (try ImageFile.read(Self.d1)), "the original kept as it was")
        let server = try ServeCLITests.Server(["--catalog", catalog])
        #expect(server.banner.contains { $0.contains("1 panoramas") })
        #expect(server.terminate().exitCode == 0)
        let again = try Lookaround.run(["index", photos.path, "--catalog", catalog, "--no-osm", "--blur"])
        #expect(again.exitCode == 0 && again.stdout.contains("blurred     0 photos (0 faces, 0 plates); 1 already blurred"), "\(again.stdout)")
        // The simulated panoramas need no blurring: index --blur leaves them alone and serve serves them.
        // (Copies, so that a mistake here could never touch the shipped files.)
        let helsinki = Lookaround.repository.appendingPathComponent("Panoramas/helsinki")
        let copies = root.appendingPathComponent("helsinki")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: helsinki.path).filter({ $0.hasSuffix(".jpg") }).sorted().prefix(3) {
            try FileManager.default.copyItem(at: helsinki.appendingPathComponent(name), to: copies.appendingPathComponent(name))
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: copies.path).sorted().map { try ImageFile.read(copies.appendingPathComponent($0).path) }
        let simulated = try Lookaround.run(["index", copies.path, "--catalog", root.appendingPathComponent("h.sqlite").path, "--no-osm", "--blur"])
        #expect(simulated.exitCode == 0 && simulated.stdout.contains("0 already blurred, 3 simulated"), "\(simulated.stdout)\(simulated.stderr)")
        let after = try FileManager.default.contentsOfDirectory(atPath: copies.path).sorted().filter { $0.hasSuffix(".jpg") }
            .map { try ImageFile.read(copies.appendingPathComponent($0).path) }
        #expect(before == after, "simulated panoramas untouched")
    }
}

import Foundation

// Benchmarks: measures the hot paths and prints each figure with its ratio to a peer measured in the
// same run. Speed targets live here, never in timed tests (the machine is shared and noisy).
// Usage: Benchmarks [SECTION…]   (no sections = all; `Benchmarks --list` lists them)

let sections: [(name: String, about: String, run: () throws -> Void)] = [
    ("codecs", "JPEG decode/encode vs djpeg/cjpeg, PNG encode of a 1920×1080 view", runCodecBenchmarks),
    ("catalog", "scene queries on 1M panoramas vs SQLite R*Tree, catalog open, index memory, ingest", runCatalogBenchmarks),
    ("postgis", "the catalog in PostGIS vs SQLite on 1M panoramas: COPY ingest, nearest-50 m scenes directly and via 1/2/4 serve processes", runPostGISBenchmarks),
    ("map", "1024×1024 map snapshot of the Helsinki extract, flat and pitched, one core, vs Mapnik", runMapBenchmarks),
    ("reprojection", "1920×1080 views of an 8192×4096 panorama vs OpenCV remap and ffmpeg v360; snapshots", runReprojectionBenchmarks),
    ("directions", "routing graph build time and bytes; routes/s on one core for random pairs (Helsinki, Munich) vs Routino", runDirectionsBenchmarks),
    ("geocoding", "index time and bytes per address; forward geocodes/s on one core vs SQLite FTS5; /search under wrk vs nginx", runGeocodingBenchmarks),
    ("web", "web viewer: 1280×720 frame on one core vs OpenCV, drag and first view in Chromium vs Pannellum, map tiles vs Mapnik, viewers at 30 fps", runWebBenchmarks),
    ("captures", "one's own 8K and 11K photos without tile files: first view on one core and in Chromium vs Pannellum, tile bytes vs photo bytes", runCaptureBenchmarks),
    ("web-tiles", "section 4 of web alone: 256² map tiles served and in-process vs Mapnik (not in the default run: web runs it)", runWebTileBenchmarks),
    ("stac", "STAC item searches/s (bbox 200 m, 1M panoramas) directly and under wrk, SQLite vs the same searches in PostGIS", runSTACBenchmarks),
    ("uploads", "photos/s ingested through Panoramax's upload API (panoramax_cli upload, blurred, indexed) vs lookaround index --blur of the same photos", runUploadBenchmarks),
    ("service", "lookaround serve under wrk on loopback vs nginx (scenes, Street View metadata, snapshots)", runServiceBenchmarks),
    ("soak", "10 minutes of mixed service load, resident memory sampled (not in the default run)", runServiceSoak),
    ("terminal", "160×48-cell half-block frames of a shipped panorama vs the chafa CLI; sixel/kitty at 1280×720 vs img2sixel", runTerminalBenchmarks),
    ("video", "frames/s out of a 5.7K GoPro MAX .360 (decode, cube rebuild with the seam blend, reprojection, JPEG) vs the ffmpeg CLI's crop/blend/stack + v360=eac:e", runVideoBenchmarks),
    ("playback", "640×360 walk frames (depth warp, labels, map inset), GIF vs ffmpeg palettegen, 60 s walk to MP4", runPlaybackBenchmarks),
    ("photos", "photos without maps: pose alignment (≥ 90 % within 2° on 40 disturbed panoramas) and derived depth + labels per 2048×1024 photo, vs simulating the capture", runPhotoBenchmarks),
    ("privacy", "faces and plates: seconds per 5760×2880 photo (detection + blur, 2 cores) vs the deface command; recall and false regions per class on the labelled set vs deface's CenterFace and OpenCV's plate cascades", runPrivacyBenchmarks),
    ("simulator", "BVH build, rays/s on one core, seconds per 2048×1024 panorama (Helsinki)", runSimulatorBenchmarks),
    ("storage", "640×480 snapshot of an 8K panorama from S3 (SeaweedFS on loopback) vs local disk, cold and warm, bytes per view; index from S3 vs local", runStorageBenchmarks),
    ("region", "the simulator at region scale (north Bayreuth, every street at 25 m): tiled vs whole model, RSS, set-up, 2 shards vs 1 (not in the default run)", runRegionBenchmarks),
]

let requested = Array(CommandLine.arguments.dropFirst())
if requested.contains("--list") || requested.contains("--help") {
    print("Benchmarks [SECTION…]\nSections:")
    for section in sections { print("  \(section.name.padding(toLength: 10, withPad: " ", startingAt: 0))\(section.about)") }
    exit(0)
}
let unknown = requested.filter { name in !sections.contains { $0.name == name } }
if !unknown.isEmpty {
    FileHandle.standardError.write(Data("error: unknown section \(unknown.joined(separator: ", ")); sections: \(sections.map(\.name).joined(separator: ", "))\n".utf8))
    exit(64)
}
BenchmarkReport.header()
for section in sections where requested.isEmpty ? !["soak", "region", "web-tiles"].contains(section.name) : requested.contains(section.name) {
    print("\n== \(section.name): \(section.about)")
    do {
        try section.run()
    } catch {
        print("   FAILED: \(error)")
    }
}

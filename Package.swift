// swift-tools-version:6.0
// The look-around system: one package, modules layered bottom-up (see ../shared/DESIGN.md §2).
import PackageDescription

let package = Package(
    name: "LookAround",
    products: [
        .executable(name: "lookaround", targets: ["LookAroundCLI"]),
        .library(name: "Geodesy", targets: ["Geodesy"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "MapData", targets: ["MapData"]),
        .library(name: "LookAround", targets: ["LookAround"]),
        .library(name: "Terminal", targets: ["Terminal"]),
        .library(name: "Playback", targets: ["Playback"]),
        // For the fuzz package in Fuzz/ (a separate package so that its sanitizer-only executables never
        // take part in `swift build`/`swift test` here).
        .library(name: "ArgumentParsing", targets: ["ArgumentParsing"]),
        .library(name: "CommandOptions", targets: ["CommandOptions"]),
        .library(name: "Catalog", targets: ["Catalog"]),
        .library(name: "Reprojection", targets: ["Reprojection"]),
        .library(name: "MapSnapshot", targets: ["MapSnapshot"]),
        .library(name: "Service", targets: ["Service"]),
        .library(name: "Routing", targets: ["Routing"]),
    ],
    targets: [
        // MARK: C system libraries (headers and link flags; the code comes from Debian)
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        // epoll and eventfd (libc's Linux headers, which the Glibc module leaves out): the HTTP server.
        .systemLibrary(name: "CLinuxEvents"),
        // A software prefetch hint (one inline C function; Swift has no intrinsic): the view renderer, the scene query index's batches.
        .systemLibrary(name: "CPrefetch"),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate",
                       providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CReadOSM", pkgConfig: "readosm",
                       providers: [.apt(["libreadosm-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // The PostGIS catalog store's client library (PostgreSQL's libpq).
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CSixel", pkgConfig: "libsixel",
                       providers: [.apt(["libsixel-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        // Intel Embree 3, measured against our BVH in Benchmarks (no .pc file in Debian's package).
        .systemLibrary(name: "CEmbree3", providers: [.apt(["libembree-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux",
                       providers: [.apt(["libwebp-dev"])]),
        // FFmpeg's demuxers and decoders (HEVC, H.264) and pixel-format converter: 360° video in.
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        // Object storage: libcurl carries the S3 requests (our own SigV4 signer signs them, with libcrypto's
        // SHA-256 and HMAC).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libpng's and libjpeg's low-level APIs report errors by longjmp, which Swift cannot catch:
        // this tiny C target keeps every setjmp inside one C frame.
        .target(name: "CImagingShims", dependencies: ["CPNG"],
                linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]),
        // OpenCV's DNN module (Debian's libopencv-dnn-dev 4.6, C++): a small C shim so that no C++ type or
        // exception reaches Swift; the Privacy module's detectors run through it. Debian ships no
        // opencv4.pc without the whole libopencv-dev, hence the include path by hand.
        .target(name: "COpenCVDNN",
                cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
                linkerSettings: [.linkedLibrary("opencv_dnn"), .linkedLibrary("opencv_core")]),
        // The view renderer's bilinear span kernel: AVX2 chosen at run time (function-level target
        // attributes, which Swift lacks) beside a plain C version; see its header.
        .target(name: "CViewKernels"),

        // MARK: Libraries, bottom-up
        // The one error classification (ErrorCategory: exit codes, HTTP statuses) every error type names.
        .target(name: "Diagnostics"),
        // Row loops split across cores (Parallel) and progress counted across threads (ProgressCounter).
        .target(name: "Parallelism"),
        .target(name: "Geodesy", dependencies: ["Diagnostics"]),
        .target(name: "Imaging",
                dependencies: ["Parallelism", "Diagnostics", "CTurboJPEG", "CPNG", "CDeflate", "CFreeType", "CImagingShims", "CGIF", "CWebP"]),
        // Where imagery bytes live: a local folder or S3-compatible object storage (SigV4, ranged reads,
        // block caches in memory and on disk, multipart writes). Bytes and keys, not panoramas.
        .target(name: "Storage", dependencies: ["Diagnostics", "Imaging", "CCurl", "CCrypto"]),
        // The world basemap (Natural Earth, simplified by scripts/make-world-basemap.py) ships as a resource.
        .target(name: "MapData", dependencies: ["Diagnostics", "CReadOSM", "CDeflate", "Geodesy"], resources: [.copy("Resources/world-basemap.bin")]),
        // Directions over the OSM street network: the routing graph (walking, cycling, driving; oneway,
        // access, turn restrictions, pedestrian areas), A* over directed edges, steps, encoded polylines.
        .target(name: "Routing", dependencies: ["Diagnostics", "Geodesy", "MapData"]),
        .target(name: "Simulator", dependencies: ["Parallelism", "Diagnostics", "Geodesy", "Imaging", "MapData", "CEmbree3", "Storage"]),
        .target(name: "Catalog", dependencies: ["Parallelism", "Diagnostics", "CPrefetch", "CSQLite", "CPostgres", "Geodesy", "Imaging", "MapData", "Storage"]),
        .target(name: "Reprojection", dependencies: ["Parallelism", "Diagnostics", "Geodesy", "Imaging", "CPrefetch", "CViewKernels", "Storage"]),
        // 360° video in: containers and telemetry (GPMF, CAMM, Insta360 trailer, GPX/NMEA), the GoPro MAX cube
        // rebuild, frames sampled along the track into geotagged JPEGs.
        .target(name: "Video", dependencies: ["Parallelism", "Diagnostics", "Imaging", "Reprojection", "Storage", "CFFmpeg"]),
        .target(name: "MapSnapshot", dependencies: ["Parallelism", "Diagnostics", "Geodesy", "Imaging", "MapData"]),
        .target(name: "LookAround", dependencies: ["Diagnostics", "Geodesy", "Imaging", "MapData", "Catalog", "Reprojection", "MapSnapshot", "Routing",
                                                  "Storage"]),
        // The simulated aerial imagery of the `imagery` and `hybrid` maps: the simulator's city seen from
        // above, as MapSnapshot's OrthophotoProvider. Above both, so that MapSnapshot and LookAround (and
        // every client of LookAround) do not link the ray tracer and Embree; used by the CLI and the service.
        .target(name: "Orthophoto", dependencies: ["Geodesy", "Imaging", "MapData", "MapSnapshot", "Simulator"]),
        // Depth and label maps for photos, derived from OpenStreetMap by rendering the simulator's city at
        // each photo's (aligned) pose: Catalog's PanoramaMapDeriving, used by `lookaround index`. Above
        // Catalog and Simulator for the same reason as Orthophoto.
        .target(name: "DerivedMaps", dependencies: ["Geodesy", "Imaging", "MapData", "Catalog", "Simulator", "Storage"]),
        // Face and licence-plate detection on the CPU (OpenCV DNN behind COpenCVDNN) on photos and 360°
        // panoramas, blurring by JPEG blocks that keeps every other block's coefficients, corrections.
        .target(name: "Privacy", dependencies: ["Parallelism", "Diagnostics", "Geodesy", "Imaging", "Reprojection", "Storage", "CTurboJPEG", "COpenCVDNN"]),
        // Walkthroughs: routes over the link graph, timelines, composed frames, preview writers.
        .target(name: "Playback",
                dependencies: ["Diagnostics", "Geodesy", "Imaging", "Catalog", "Reprojection", "MapSnapshot", "LookAround"]),
        // Terminal output and input: pixels and bytes, not panoramas.
        .target(name: "Terminal", dependencies: ["Diagnostics", "Imaging", "CSixel"]),
        // Interactive terminal sessions over Terminal: `lookaround view` and `walk --play`.
        .target(name: "Viewer",
                dependencies: ["Geodesy", "Imaging", "MapData", "Catalog", "Reprojection", "MapSnapshot", "LookAround", "Playback",
                               "Terminal"]),
        .target(name: "ArgumentParsing", dependencies: ["Diagnostics"]),
        // Option specs and their validation shared by the CLI and the HTTP service (scene selection,
        // snapshot and map options), so one query means the same on both.
        .target(name: "CommandOptions",
                dependencies: ["ArgumentParsing", "Geodesy", "Imaging", "MapData", "Catalog", "Reprojection",
                               "MapSnapshot", "LookAround"]),
        // The web viewer's page, script and Leaflet ship as resources (found like the world basemap).
        .target(name: "Service",
                dependencies: ["Diagnostics", "CLinuxEvents", "CDeflate", "ArgumentParsing", "CommandOptions", "Geodesy", "Imaging", "MapData",
                               "Catalog", "Reprojection", "MapSnapshot", "LookAround", "Playback", "Orthophoto", "Storage"],
                resources: [.copy("Resources/web")]),

        // MARK: Executables
        // The command-line tool `lookaround` (the product is named for the command; the folder is not, so that no
        // two paths differ only by case: Sources/LookAround is the Swift API).
        .executableTarget(name: "LookAroundCLI",
                          dependencies: ["Diagnostics", "ArgumentParsing", "CommandOptions", "Geodesy", "Imaging", "MapData", "Simulator",
                                         "Catalog", "DerivedMaps", "Reprojection", "MapSnapshot", "Orthophoto", "LookAround", "Service", "Terminal",
                                         "Playback", "Viewer", "Video", "Privacy", "Parallelism", "Storage"]),
        .executableTarget(name: "Benchmarks",
                          dependencies: ["CPNG", "Diagnostics", "Geodesy", "Imaging", "MapData", "Simulator",
                                         "Catalog", "DerivedMaps", "Reprojection", "MapSnapshot", "Orthophoto", "LookAround", "Service", "Terminal", "Playback", "Viewer",
                                         "Routing", "CEmbree3", "CSQLite", "ProcessRunner", "Video", "VideoTestSupport", "Privacy", "Storage", "CPrefetch"],
                          path: "Benchmarks/Sources"),
        // Draws frames and echoes input through Terminal, for the tmux and Xvfb tests (not installed).
        .executableTarget(name: "TerminalProbe", dependencies: ["Imaging", "Terminal", "TestSupport"], path: "Tests/TerminalProbe"),

        // MARK: Tests
        // Every target names every module it imports (PackageManifestTests): SwiftPM recompiles a
        // module only when a *declared* dependency changes, so a module reached through another one
        // goes stale when the imported types change layout (the swift_release crash of 2026-11-29).
        // "Run a program, wait, get its status and output" with posix_spawn + waitpid, for TestSupport and
        // Benchmarks (developer tooling, not part of the product; Foundation's Process hung on daemons).
        .target(name: "ProcessRunner", path: "Tests/ProcessRunner"),
        .target(name: "TestSupport", dependencies: ["Imaging", "Terminal", "ProcessRunner"], path: "Tests/TestSupport"),
        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "MapDataTests", dependencies: ["MapData", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "SimulatorTests", dependencies: ["Simulator", "Geodesy", "Imaging", "MapData", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Diagnostics", "LookAround", "Geodesy", "Imaging", "TestSupport"]),
        .testTarget(name: "RoutingTests", dependencies: ["Routing", "MapData", "Geodesy", "TestSupport"]),
        // Makes recordings in cameras' layouts for the video tests and benchmarks (GPMF and MP4 writing).
        .target(name: "VideoTestSupport", dependencies: ["Video", "Imaging", "Reprojection", "ProcessRunner"], path: "Tests/VideoTestSupport"),
        .testTarget(name: "VideoTests", dependencies: ["Video", "VideoTestSupport", "Imaging", "Reprojection", "Geodesy", "TestSupport", "ProcessRunner"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "PrivacyTests", dependencies: ["Privacy", "Imaging", "Reprojection", "Geodesy"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "ReprojectionTests", dependencies: ["Reprojection", "CViewKernels", "Geodesy", "Imaging", "TestSupport"]),
        .testTarget(name: "MapSnapshotTests", dependencies: ["MapSnapshot", "Geodesy", "Imaging", "MapData", "TestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "LookAroundTests", dependencies: ["LookAround", "Catalog", "Reprojection", "Simulator", "MapData",
                                                           "Imaging", "Geodesy", "TestSupport"]),
        // A client's view: depends on and imports only LookAround (it re-exports what its API uses).
        .testTarget(name: "LookAroundClientTests", dependencies: ["LookAround"]),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"]),
        // The AWS SigV4 test suite (Apache-2.0, from botocore's source distribution) is in Fixtures.
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Diagnostics", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "ArgumentParsing", "Catalog", "Geodesy", "Imaging", "MapData",
                                                            "MapSnapshot", "Playback", "Reprojection", "Service", "Simulator", "Terminal", "Privacy"]),
        .testTarget(name: "ServiceTests", dependencies: ["Service", "Catalog", "Imaging", "Reprojection", "Geodesy", "MapData", "MapSnapshot", "TestSupport"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "CSixel", "Imaging", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "Reprojection", "Simulator", "Catalog", "MapData",
                                                         "Imaging", "Geodesy", "TestSupport"]),
        .testTarget(name: "ViewerTests", dependencies: ["Viewer", "Terminal", "LookAround", "Catalog", "Imaging", "TestSupport"]),
        .testTarget(name: "LookAroundCLITests", dependencies: ["TestSupport", "Imaging", "Reprojection", "Terminal", "Video", "VideoTestSupport"],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

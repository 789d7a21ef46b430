import ArgumentParsing
import Catalog
import Foundation

/// `lookaround index [DIR …]`: builds or updates the catalog.
enum IndexCommand: Command {
    static let spec = CommandSpec(
        name: "index",
        abstract: "Build or update the panorama catalog from folders of 360° JPEGs and an OSM extract.",
        discussion: """
            Reads each JPEG's headers only (EXIF GPS, GPano XMP; a NAME.json sidecar when a camera wrote \
            neither), finds NAME.depth.png and NAME.labels.png beside it, and the places and streets of the \
            OSM files. Files unchanged since the last build are not read again. The new catalog replaces \
            the old one atomically. A bad file is listed with its reason and the rest are indexed; the exit \
            code is then 65.
            Default folder: Panoramas. Default OSM files: the .osm.pbf/.osm files in 'sources/' beside the catalog.
            """,
        options: [
            .value("catalog", valueName: "PATH", help: "The catalog file (default $LOOKAROUND_CATALOG, else Panoramas/catalog.sqlite)."),
            .value("osm", valueName: "FILE", help: "An OSM extract (.osm.pbf or .osm) for places and streets.", repeatable: true),
            .flag("no-osm", help: "Index no places or streets."),
            .value("depth-suffix", valueName: "SUFFIX", help: "Depth map name after NAME.", defaultValue: ".depth.png"),
            .value("labels-suffix", valueName: "SUFFIX", help: "Label map name after NAME.", defaultValue: ".labels.png"),
            .value("sidecar-suffix", valueName: "SUFFIX", help: "Sidecar name after NAME.", defaultValue: ".json"),
            .value("link-meters", valueName: "METERS", help: "Link panoramas closer than this (0…1000; 0 = sequence links only).",
                   defaultValue: "30"),
            .flag("full", help: "Re-read every file, even unchanged ones."),
            .flag("quiet", help: "No progress bar."),
            .flag("json", help: "Print the report as JSON."),
        ],
        positionals: [PositionalSpec("DIR", help: "Folders searched recursively for panoramas.", optional: true, variadic: true)],
        examples: [
            (command: "lookaround index", comment: "index Panoramas/ into Panoramas/catalog.sqlite"),
            (command: "lookaround index ~/theta --catalog photos.sqlite --osm city.osm.pbf", comment: "your own photos"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let catalogPath = arguments.string("catalog") ?? Catalog.defaultPath
        let directories = arguments.positionals.isEmpty ? ["Panoramas"] : arguments.positionals
        var osmFiles = arguments.strings("osm")
        if arguments.flag("no-osm") {
            if !osmFiles.isEmpty { throw arguments.error("give either --osm or --no-osm, not both") }
        } else if osmFiles.isEmpty {
            let sources = ((catalogPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("sources")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []
            osmFiles = names.filter { $0.hasSuffix(".osm.pbf") || $0.hasSuffix(".osm") }.sorted()
                .map { (sources as NSString).appendingPathComponent($0) }
        }
        let naming = CatalogNamingConvention(depthSuffix: try arguments.requiredString("depth-suffix"),
                                             labelsSuffix: try arguments.requiredString("labels-suffix"),
                                             sidecarSuffix: try arguments.requiredString("sidecar-suffix"))
        let options = CatalogBuildOptions(directories: directories, catalogPath: catalogPath, osmFiles: osmFiles,
                                          naming: naming, proximityLinkMeters: try arguments.double("link-meters", in: 0...1000) ?? 30,
                                          forceFullRebuild: arguments.flag("full"))
        let showProgress = !arguments.flag("quiet") && isatty(2) != 0
        let bar: @Sendable (Int, Int) -> Void = { done, total in
            let width = 30, filled = total > 0 ? done * width / total : width
            let text = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            FileHandle.standardError.write(Data("\rindexing [\(text)] \(done)/\(total)\(done == total ? "\n" : "")".utf8))
        }
        let report = try CatalogBuilder.build(options, progress: showProgress ? bar : nil)
        if arguments.flag("json") {
            try Console.json(report)
        } else {
            Console.out("catalog     \(report.catalogPath)")
            Console.out("panoramas   \(report.panoramaCount) (\(report.filesFound) files: \(report.filesRead) read, "
                        + "\(report.filesUnchanged) unchanged, \(report.failures.count) failed)")
            Console.out("sequences   \(report.sequenceCount), links \(report.linkCount)")
            Console.out("places      \(report.placeCount), streets \(report.streetCount)")
            Console.out("time        \(String(format: "%.2f", report.seconds)) s")
            for warning in report.warnings { Console.out("warning     \(warning.path): \(warning.message)") }
            for failure in report.failures { Console.out("failed      \(failure.path): \(failure.message)") }
        }
        if !report.failures.isEmpty {
            let rest = report.failures.count == report.filesFound ? "the catalog holds no panoramas from these folders"
                : "the others are in the catalog"
            Console.error("error: \(report.failures.count) of \(report.filesFound) files could not be indexed (listed above); \(rest)")
            return .dataError
        }
        return .ok
    }
}

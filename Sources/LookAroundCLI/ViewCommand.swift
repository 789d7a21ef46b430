import ArgumentParsing
import Catalog
import CommandOptions
import Foundation
import LookAround
import Reprojection
import Terminal
import Viewer

/// `lookaround view`: look around interactively in the terminal.
enum ViewCommand: Command {
    static let spec = CommandSpec(
        name: "view",
        abstract: "Look around interactively in the terminal: turn, zoom, walk along the links, with labels and a map.",
        discussion: """
            Give a point (--lat/--lon), a place (--near), a panorama id (--scene), or any local \
            equirectangular JPEG or PNG (--panorama FILE; pose from its GPano/EXIF metadata, no catalog). \
            The picture is drawn with the best the terminal offers: the kitty graphics protocol, sixel, \
            24-bit colour half-blocks, or 256 colours (--protocol overrides; --diagnose shows what was \
            detected and why). A sixel picture is fitted inside the largest image the terminal says it \
            shows (xterm's default is 1000x1000 px; larger ones are dropped), centred; auto takes the \
            half-blocks when a sixel terminal does not say. Moving keeps the direction you look in. The terminal is restored on every \
            way out (q, Ctrl-C, a signal, an error); Ctrl-Z suspends, fg resumes.
            Keys:
            \(ViewerKeys.helpLines.map { "  " + $0 }.joined(separator: "\n"))
            Standard output must be a terminal (exit 64 otherwise: use 'lookaround snapshot' for an image). \
            No coverage is exit code 1 with the reason, as for snapshot. With standard error \
            redirected away from the terminal, a line there says when the first frame has been drawn \
            and where (picture size, first row, cell size), for scripts that wait for the screen.
            """,
        options: SceneSelection.sceneOptions + [
            .value("panorama", valueName: "FILE", help: "A local equirectangular JPEG or PNG to look around in (no catalog)."),
            .value("heading-degrees", valueName: "DEGREES", help: "Start heading, clockwise from north (default as snapshot)."),
            .value("pitch-degrees", valueName: "DEGREES", help: "Start pitch, degrees above the horizon, -90…90.", defaultValue: "0"),
            .value("fov-degrees", valueName: "DEGREES", help: "Start field of view, 20…120.", defaultValue: "90"),
            .value("labels", valueName: "KIND", help: "Labels at the start (L cycles them).", defaultValue: "all",
                   allowedValues: ViewerLabels.allCases.map(\.rawValue)),
            .value("language", valueName: "CODE", help: "Label language (OSM code such as sv); default the local name."),
            .value("protocol", valueName: "NAME", help: "How to draw: auto, kitty, sixel, truecolor or 256.", defaultValue: "auto",
                   allowedValues: OutputProtocolChoice.allCases.map(\.rawValue)),
            .flag("diagnose", help: "Print what the terminal supports and which protocol would be used, and exit."),
            CommonOptions.catalog,
            CommonOptions.cacheDirectory,
            CommonOptions.cacheBytes,
            .value("osm", valueName: "FILE", help: "OSM extract the map inset (m) draws.", defaultValue: MapCommand.defaultData),
            .value("spin-seconds", valueName: "SECONDS", help: "Turn by itself for this long (0.5…600), then exit: a demo."),
        ],
        examples: [
            (command: "lookaround view --near Senaatintori", comment: "look around Senate Square"),
            (command: "lookaround view --scene aleksanterinkatu-030 --heading-degrees 90 --protocol 256",
             comment: "one panorama, looking east, in 256 colours"),
            (command: "lookaround view --panorama ~/Pictures/R0010012.JPG", comment: "a 360° photo from a camera"),
            (command: "lookaround view --diagnose", comment: "what the terminal can show"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let choice: OutputProtocolChoice
        do { choice = try OutputProtocolChoice(parsing: try arguments.requiredString("protocol")) } catch let error as TerminalError {
            throw arguments.error("--protocol: \(error)")
        }
        if arguments.flag("diagnose") { return diagnose(choice) }
        let labels = ViewerLabels(option: try arguments.requiredString("labels")) ?? .all
        let pitch = try arguments.double("pitch-degrees", in: ViewCamera.pitchRangeDegrees) ?? 0
        let fov = try arguments.double("fov-degrees", in: ViewerState.fieldOfViewRange) ?? 90
        let heading = try arguments.heading("heading-degrees")
        let spin = try arguments.double("spin-seconds", in: 0.5...600)
        let language = arguments.string("language")

        let scene: LookAroundScene
        var catalog: Catalog?
        if let file = arguments.string("panorama") {
            let others = ["lat", "lon", "near", "scene"].filter { arguments.has($0) }
            guard others.isEmpty else {
                throw arguments.error("--panorama shows one file: give it without " + others.map { "--\($0)" }.joined(separator: ", "))
            }
            scene = try LookAroundScene(panoramaFile: file)
        } else {
            let selection = try SceneSelection(arguments)
            let opened = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
            let resolution = try selection.resolve(arguments, catalog: opened, language: language)
            guard let found = resolution.scene else {
                resolution.noCoverageLines.forEach { Console.error($0) }
                return .failed(.noImagery)
            }
            scene = found
            catalog = opened
        }
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            Console.error("error: lookaround view needs a terminal on standard input and output "
                          + "(\(isatty(STDOUT_FILENO) == 1 ? "input" : "output") is redirected); "
                          + "for an image use 'lookaround snapshot … -o view.png'")
            return .failed(.usage)
        }
        // On the terminal the line would be drawn over the picture: only when stderr goes elsewhere.
        var firstFrame: (@Sendable (ViewerLayout) -> Void)?
        if isatty(STDERR_FILENO) != 1 {
            firstFrame = { layout in Console.error("first frame drawn: " + ViewCommand.describe(layout)) }
        }
        let viewer = LookAroundViewer(configuration: .init(
            scene: scene, catalog: catalog, headingDegrees: heading, pitchDegrees: pitch, fieldOfViewDegrees: fov, labels: labels,
            language: language, protocolChoice: choice, osmPath: catalog == nil ? nil : arguments.string("osm"), spinSeconds: spin,
            onFirstFrame: firstFrame))
        let outcome = try viewer.run()
        if spin == nil {
            Console.error("left at \(outcome.panoramaID), heading \(Int(outcome.headingDegrees.rounded()))° "
                          + "(\(outcome.frames) frames, \(outcome.outputProtocol.rawValue), \(describe(outcome.layout)))")
        }
        return .ok
    }

    /// "picture 800x450 px from row 1, column 0, cells 9x20 px": what the reports on stderr say of a
    /// layout (", fitted in the terminal's sixel limit 1000x780 px" when a sixel picture is smaller than the window).
    static func describe(_ layout: ViewerLayout) -> String { "picture " + pictureDescription(layout) }

    /// "800x450 px from row 1, column 0, cells 9x20 px" (and the fitting, when there is one).
    static func pictureDescription(_ layout: ViewerLayout) -> String {
        let picture = layout.picturePixelSize
        return "\(picture.width)x\(picture.height) px from row \(layout.pictureTopRow), column \(layout.pictureLeftColumn), "
            + "cells \(layout.cellPixelSize.width)x\(layout.cellPixelSize.height) px"
            + (layout.outputProtocol == .sixel && layout.pictureIsFitted
               ? ", fitted in the terminal's sixel limit \(layout.sixelPixelLimit.width)x\(layout.sixelPixelLimit.height) px" : "")
    }

    /// `--diagnose`: the environment, and the terminal's answers when stdin and stdout are one.
    static func diagnose(_ choice: OutputProtocolChoice) -> CommandOutcome {
        var capabilities = TerminalDetector.fromEnvironment(ProcessInfo.processInfo.environment)
        if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, let saved = try? RawMode.enter(STDIN_FILENO) {
            TerminalDetector.query(&capabilities, input: STDIN_FILENO, output: STDOUT_FILENO)
            RawMode.restore(STDIN_FILENO, saved)
        } else {
            capabilities.reasons.append("standard input or output is not a terminal: no queries sent (environment only)")
        }
        var report = capabilities.report(choice: choice)
        if let columns = capabilities.columns, let rows = capabilities.rows {
            // The picture the viewer would draw in this window.
            let layout = ViewerLayout(columns: columns, rows: rows, outputProtocol: capabilities.resolve(choice).protocol,
                                      cellPixelSize: capabilities.cellPixelSize, sixelPixelLimit: capabilities.sixelMaximumPixelSize)
            report += "picture:             \(pictureDescription(layout))\n"
        }
        Console.out(report)
        return .ok
    }
}

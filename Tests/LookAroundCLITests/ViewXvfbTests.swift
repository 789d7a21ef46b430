import Foundation
import Imaging
import Testing
import TestSupport

/// `lookaround view` in real graphical terminals on a virtual X server: xterm -ti vt340 (sixel) and
/// kitty (its graphics protocol). The window's screenshot is compared with `lookaround snapshot` of
/// the same camera at the picture's size (labels off; the view adds its arrows on the road).
@Suite(.serialized) struct ViewXvfbTests {
    static let arguments = ["--scene", "aleksanterinkatu-030", "--heading-degrees", "90", "--labels", "none"]
    /// The least PSNR (dB) of the screenshot against the snapshot: sixel's palette costs a few dB.
    static let sixelMinimumPSNR = 22.0, kittyMinimumPSNR = 25.0

    /// The layout a `lookaround view` report line gives ("picture 891x520 px from row 1, column 0, cells 9x20 px").
    private struct ReportedLayout { var width: Int, height: Int, top: Int, left: Int, cellWidth: Int, cellHeight: Int }

    private static func layout(in report: String, after prefix: String) -> ReportedLayout? {
        guard let line = report.range(of: prefix + ".*", options: .regularExpression),
              let range = report.range(of: #"picture (\d+)x(\d+) px from row (\d+), column (\d+), cells (\d+)x(\d+) px"#,
                                       options: .regularExpression, range: line) else { return nil }
        let numbers = report[range].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count == 6 ? ReportedLayout(width: numbers[0], height: numbers[1], top: numbers[2], left: numbers[3],
                                                   cellWidth: numbers[4], cellHeight: numbers[5]) : nil
    }

    /// The comparison of an xterm window's screenshot with the picture where the layout puts it: after
    /// xwd's 1 px border and xterm's 2 px internal border, then the message row; ±2 px.
    private static func compareInXterm(_ shot: RGB8Image, _ expected: RGB8Image, _ layout: ReportedLayout) -> VirtualDisplay.Comparison {
        let top = 3 + layout.top * layout.cellHeight, left = 3 + layout.left * layout.cellWidth
        return VirtualDisplay.compare(shot, expected, xOffsets: left - 2...left + 2, yOffsets: top - 2...top + 2)
    }

    /// Prints how close a session's best screenshot came to the snapshot, and expects `minimumPSNR` dB.
    private static func expectMatch(_ view: (result: VirtualDisplay.Comparison, width: Int, height: Int, report: String),
                                    in terminal: String, by outputProtocol: String, minimumPSNR: Double,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        print("lookaround view in \(terminal) (\(outputProtocol), \(view.width)×\(view.height) px): PSNR "
              + "\(String(format: "%.1f", view.result.psnr)) dB against snapshot at offset \(view.result.offset)")
        #expect(view.result.psnr >= minimumPSNR, "PSNR \(view.result.psnr) dB", sourceLocation: sourceLocation)
    }

    /// Runs the viewer in a terminal (`launch`), waits for its "first frame drawn" line on stderr (the
    /// layout), renders the snapshot of that size, then takes screenshots until one matches it
    /// (`good`) or 15 s pass, and quits with q. Returns the best comparison.
    ///
    /// Waiting for the screen to stop changing was not enough: while the viewer starts, the empty
    /// terminal is as still as a drawn one, and two equal blank screenshots ended the wait.
    private func session(display: String, folder: String, title: String,
                         compare: (_ shot: RGB8Image, _ expected: RGB8Image, _ layout: ReportedLayout) -> VirtualDisplay.Comparison,
                         good: (VirtualDisplay.Comparison) -> Bool,
                         launch: (_ command: [String]) throws -> VirtualDisplay.SpawnedProgram)
        throws -> (result: VirtualDisplay.Comparison, width: Int, height: Int, report: String)? {
        let log = folder + "/view.log"
        let script = folder + "/view.sh"
        let command = ([Lookaround.executablePath, "view", "--catalog", try ViewCLITests.catalog] + Self.arguments)
            .map { "'\($0)'" }.joined(separator: " ")
        try "#!/bin/sh\n\(command) 2> '\(log)'\necho $? > '\(folder)/rc'\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let terminal = try launch([script])
        defer { terminal.stop() }
        let window = try VirtualDisplay.window(title, display: display, folder: folder, process: terminal, errorLog: folder + "/terminal.err").id()
        // 60 s: the catalog, the panorama and the first render on a machine busy with a parallel test run.
        var drawn: ReportedLayout?
        let deadline = Date().addingTimeInterval(60)
        while drawn == nil, Date() < deadline {
            drawn = Self.layout(in: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "", after: "first frame drawn: ")
            if drawn == nil { usleep(100_000) }
        }
        guard let drawn else {
            Issue.record("no \"first frame drawn\" line within 60 s: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            return nil
        }
        let expected = try snapshot(width: drawn.width, height: drawn.height, folder: folder)
        // The frame is in the terminal's input; it shows it at its next repaint.
        let result = try VirtualDisplay.screenshot(window, display: display, folder: folder, attempts: 30) { shot in
            compare(shot, expected, drawn)
        } good: { good($0) }
        try VirtualDisplay.quit(terminal, display: display, folder: folder)
        let report = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect((try? String(contentsOfFile: folder + "/rc", encoding: .utf8))?.hasPrefix("0") == true, "exit status; \(report)")
        // The layout on leaving is the one drawn (the window was not resized).
        let left = Self.layout(in: report, after: "left at ")
        #expect(left.map { ($0.width, $0.height, $0.top) == (drawn.width, drawn.height, drawn.top) } == true, "\(report)")
        return (result, drawn.width, drawn.height, report)
    }

    /// The snapshot of the viewer's camera at `width × height`.
    private func snapshot(width: Int, height: Int, folder: String) throws -> RGB8Image {
        let output = folder + "/snapshot.png"
        let result = try Lookaround.run(["snapshot", "--catalog", try ViewCLITests.catalog] + Self.arguments
                                        + ["--size", "\(width)x\(height)", "-o", output])
        try #require(result.exitCode == 0, "\(result.stderr)")
        return try PNGCodec.decodeRGB(try ImageFile.read(output))
    }

    @Test func sixelInXtermMatchesTheSnapshot() throws {
        let xterm = try VirtualDisplay.requireTerminal("xterm", package: "xterm", test: "ViewXvfbTests.sixelInXterm")
        try VirtualDisplay.withXvfb { display, folder in
            let title = "lookaround-view-sixel-\(getpid())"
            guard let view = try session(display: display, folder: folder, title: title, compare: { shot, expected, layout in
                Self.compareInXterm(shot, expected, layout)
            }, good: { $0.psnr >= Self.sixelMinimumPSNR }, launch: { command in
                try VirtualDisplay.start(xterm, ["-ti", "vt340", "-xrm", "XTerm*maxGraphicSize: 2000x2000", "-xrm", "XTerm*allowWindowOps: true",
                                                 "-T", title, "-geometry", "100x30+0+0", "-e"] + command, environment: ["DISPLAY": display],
                                         errorLog: folder + "/terminal.err")
            }) else { return }
            Self.expectMatch(view, in: "xterm -ti vt340", by: "sixel", minimumPSNR: Self.sixelMinimumPSNR)
        }
    }

    /// What users have: xterm -ti vt340 with its default resources (maxGraphicSize 1000x1000, no window
    /// operations) in a window wider than 1000 px. A larger sixel image would be dropped and the window
    /// stay empty; the viewer asks (XTSMGRAPHICS), fits the picture inside the limit and centres it.
    @Test func sixelInADefaultXtermWiderThanItsLimit() throws {
        let xterm = try VirtualDisplay.requireTerminal("xterm", package: "xterm", test: "ViewXvfbTests.sixelInADefaultXterm")
        try VirtualDisplay.withXvfb(screen: "1400x900x24") { display, folder in
            let title = "lookaround-view-default-xterm-\(getpid())"
            guard let view = try session(display: display, folder: folder, title: title, compare: { shot, expected, layout in
                #expect(shot.width > 1000, "the window is \(shot.width) px wide: wider than xterm's default limit")
                return Self.compareInXterm(shot, expected, layout)
            }, good: { $0.psnr >= Self.sixelMinimumPSNR }, launch: { command in
                // No -xrm: the resources every xterm starts with.
                try VirtualDisplay.start(xterm, ["-ti", "vt340", "-T", title, "-geometry", "200x60+0+0", "-e"] + command,
                                         environment: ["DISPLAY": display], errorLog: folder + "/terminal.err")
            }) else { return }
            Self.expectMatch(view, in: "a default xterm -ti vt340 of 200x60 cells", by: "sixel", minimumPSNR: Self.sixelMinimumPSNR)
            #expect(view.width <= 1000 && view.height <= 1000, "the picture is within xterm's default limit")
            #expect(view.report.contains("fitted in the terminal's sixel limit"), "\(view.report)")
        }
    }

    @Test func kittyGraphicsInKittyMatchTheSnapshot() throws {
        let kitty = try VirtualDisplay.requireTerminal("kitty", package: "kitty", test: "ViewXvfbTests.kitty")
        try VirtualDisplay.withXvfb { display, folder in
            let title = "lookaround-view-kitty-\(getpid())"
            guard let view = try session(display: display, folder: folder, title: title, compare: { shot, expected, layout in
                let top = layout.top * layout.cellHeight
                return VirtualDisplay.compare(shot, expected, xOffsets: 0...4, yOffsets: top...top + 4)
            }, good: { $0.psnr >= Self.kittyMinimumPSNR }, launch: { command in
                try VirtualDisplay.startKitty(kitty, title: title, width: 900, height: 560, command: command, display: display, folder: folder,
                                              errorLog: folder + "/terminal.err")
            }) else { return }
            Self.expectMatch(view, in: "kitty", by: "graphics protocol", minimumPSNR: Self.kittyMinimumPSNR)
        }
    }
}

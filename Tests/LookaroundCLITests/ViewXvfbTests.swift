import Foundation
import Imaging
import Testing
import TestSupport

/// `lookaround view` in real graphical terminals on a virtual X server: xterm -ti vt340 (sixel) and
/// kitty (its graphics protocol). The window's screenshot is compared with `lookaround snapshot` of
/// the same camera at the picture's size (labels off; the view adds its arrows on the road).
@Suite(.serialized) struct ViewXvfbTests {
    static let arguments = ["--scene", "aleksanterinkatu-030", "--heading-degrees", "90", "--labels", "none"]

    /// Runs the viewer in `terminal`, takes a screenshot once it has drawn, quits with q and returns
    /// the screenshot with the layout the viewer reported on leaving.
    private func session(display: String, folder: String, title: String, launch: (_ command: [String]) throws -> pid_t)
        throws -> (shot: RGB8Image, width: Int, height: Int, top: Int, cellHeight: Int)? {
        let log = folder + "/view.log"
        let script = folder + "/view.sh"
        let command = ([Lookaround.executablePath, "view", "--catalog", try ViewCLITests.catalog] + Self.arguments)
            .map { "'\($0)'" }.joined(separator: " ")
        try "#!/bin/sh\n\(command) 2> '\(log)'\necho $? > '\(folder)/rc'\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let terminal = try launch([script])
        defer { VirtualDisplay.stop(terminal) }
        let window = try #require(try VirtualDisplay.window(title, display: display, folder: folder), "no \(title) window")
        // The first frame: wait until the status line is there (the screenshot stops changing).
        let path = folder + "/shot.xwd"
        var shot: RGB8Image?
        for _ in 0..<20 {
            usleep(500_000)
            let pid = try VirtualDisplay.start(try #require(which("xwd")), ["-id", window, "-silent", "-out", path],
                                               environment: ["DISPLAY": display])
            _ = VirtualDisplay.exited(pid, withinSeconds: 5)
            guard let data = FileManager.default.contents(atPath: path), data.count > 100 else { continue }
            let image = try VirtualDisplay.decodeXWD([UInt8](data))
            if let previous = shot, previous.components == image.components { break }
            shot = image
        }
        try VirtualDisplay.quit(terminal, display: display, folder: folder)
        let report = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect((try? String(contentsOfFile: folder + "/rc", encoding: .utf8))?.hasPrefix("0") == true, "exit status; \(report)")
        guard let range = report.range(of: #"picture (\d+)x(\d+) px from row (\d+), cells (\d+)x(\d+)"#, options: .regularExpression),
              let shot else {
            Issue.record("no layout report: \(report)")
            return nil
        }
        let numbers = report[range].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return (shot, numbers[0], numbers[1], numbers[2], numbers[4])
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
        guard let xterm = which("xterm"), which("xdotool") != nil, which("xwd") != nil else {
            print("ViewXvfbTests.sixelInXterm skipped: xterm, xdotool or xwd is not installed (apt install xterm xdotool x11-apps)")
            return
        }
        try VirtualDisplay.withXvfb { display, folder in
            let title = "lookaround-view-sixel-\(getpid())"
            guard let view = try session(display: display, folder: folder, title: title, launch: { command in
                try VirtualDisplay.start(xterm, ["-ti", "vt340", "-xrm", "XTerm*maxGraphicSize: 2000x2000", "-xrm", "XTerm*allowWindowOps: true",
                                                 "-T", title, "-geometry", "100x30+0+0", "-e"] + command, environment: ["DISPLAY": display])
            }) else { return }
            let expected = try snapshot(width: view.width, height: view.height, folder: folder)
            // xwd's 1 px border and xterm's 2 px internal border, then the message row.
            let top = 3 + view.top * view.cellHeight
            let result = VirtualDisplay.compare(view.shot, expected, xOffsets: 1...5, yOffsets: top - 2...top + 2)
            print("lookaround view in xterm -ti vt340 (sixel, \(view.width)×\(view.height) px): PSNR "
                  + "\(String(format: "%.1f", result.psnr)) dB against snapshot at offset \(result.offset)")
            #expect(result.psnr >= 22, "PSNR \(result.psnr) dB")
        }
    }

    @Test func kittyGraphicsInKittyMatchTheSnapshot() throws {
        guard let kitty = which("kitty"), which("xdotool") != nil, which("xwd") != nil else {
            print("ViewXvfbTests.kitty skipped: kitty, xdotool or xwd is not installed (apt install kitty xdotool x11-apps)")
            return
        }
        try VirtualDisplay.withXvfb { display, folder in
            let title = "lookaround-view-kitty-\(getpid())"
            for d in ["conf", "cache", "mesa"] { try FileManager.default.createDirectory(atPath: folder + "/" + d, withIntermediateDirectories: true) }
            guard let view = try session(display: display, folder: folder, title: title, launch: { command in
                try VirtualDisplay.start(kitty, ["--config", "NONE", "-T", title, "-o", "remember_window_size=no", "-o", "initial_window_width=900",
                                                 "-o", "initial_window_height=560", "-o", "close_on_child_death=yes"] + command,
                                         environment: ["DISPLAY": display, "KITTY_CONFIG_DIRECTORY": folder + "/conf",
                                                       "KITTY_CACHE_DIRECTORY": folder + "/cache", "MESA_SHADER_CACHE_DIR": folder + "/mesa"])
            }) else { return }
            let expected = try snapshot(width: view.width, height: view.height, folder: folder)
            let top = view.top * view.cellHeight
            let result = VirtualDisplay.compare(view.shot, expected, xOffsets: 0...4, yOffsets: top...top + 4)
            print("lookaround view in kitty (graphics protocol, \(view.width)×\(view.height) px): PSNR "
                  + "\(String(format: "%.1f", result.psnr)) dB against snapshot at offset \(result.offset)")
            #expect(result.psnr >= 25, "PSNR \(result.psnr) dB")
        }
    }
}

import Catalog
import Dispatch
import Foundation
import Imaging
import MapSnapshot
import Playback
import Terminal

/// Plays a walk in the terminal (`lookaround walk --play`): the frames of a ``WalkRenderer`` at the
/// timeline's pace, sized to the window, with a status line. Real time wins: when a frame takes longer
/// to render than the frame interval, the player skips ahead to the frame that is due rather than
/// falling behind (the frames skipped are counted). Space pauses, ← → seek 5 s, + − change the speed,
/// r reverses, m toggles the map inset, q quits; it ends by itself after the last frame (or the first,
/// played backwards).
// @unchecked Sendable: everything the input thread and the render thread share (speed, pause, seek,
// the frame counters, the error) is read and written under `condition`; the rest is the render thread's.
public final class WalkPlayer: @unchecked Sendable {
    /// How a playback ended.
    public struct Outcome: Sendable {
        /// Frames drawn, and the walk's frame count.
        public var framesDrawn: Int
        public var frameCount: Int
        /// Frames that were due but skipped to keep to real time.
        public var framesDropped: Int
        /// Whether it ran to the end (false: quit early).
        public var finished: Bool
        public var outputProtocol: OutputProtocol
    }

    public let timeline: WalkTimeline
    let catalog: Catalog
    let mapSnapshotter: MapSnapshotter?
    let options: WalkRenderOptions
    let protocolChoice: OutputProtocolChoice
    /// Play only this much of the walk, seconds (nil: all of it).
    let maximumSeconds: Double?
    /// Seconds a seek moves.
    public static let seekSeconds = 5.0
    /// The last frame stays this long before the player leaves, seconds.
    public static let holdAtEndSeconds = 1.5

    private let condition = NSCondition()
    private var layout = ViewerLayout(columns: 80, rows: 24, outputProtocol: .truecolor)
    private var paused = false
    /// Walk seconds per second of the clock: the speed (0.25…8), negative played backwards.
    private var rate = 1.0
    private var showsMap = true
    /// Walk time shown when play (re)started, and the clock then.
    private var anchor = (walkSeconds: 0.0, clock: DispatchTime.now())
    private var framesDropped = 0
    /// The speeds + and − step through.
    public static let speedRange = 0.25...8.0
    private var quitting = false
    private var finished = false
    private var repaint = true
    private var renderError: (any Error)?
    private var renderDone = false
    private var framesDrawn = 0

    /// - Parameters:
    ///   - options: what the frames show (their size is the terminal's, set here).
    public init(timeline: WalkTimeline, catalog: Catalog, mapSnapshotter: MapSnapshotter?, options: WalkRenderOptions,
                protocolChoice: OutputProtocolChoice = .auto, maximumSeconds: Double? = nil) {
        self.maximumSeconds = maximumSeconds
        self.timeline = timeline
        self.catalog = catalog
        self.mapSnapshotter = mapSnapshotter
        self.options = options
        self.protocolChoice = protocolChoice
    }

    /// The walk's length in seconds.
    public var durationSeconds: Double {
        let whole = (timeline.frames.last?.timeSeconds ?? 0) + 1 / timeline.options.framesPerSecond
        return maximumSeconds.map { min($0, whole) } ?? whole
    }

    /// The frames played: those of ``durationSeconds``.
    var playedFrameCount: Int { min(timeline.frames.count, max(1, Int((durationSeconds * timeline.options.framesPerSecond).rounded(.up)))) }

    /// The walk time now, seconds (under the lock).
    private func walkTimeLocked() -> Double {
        guard !paused else { return anchor.walkSeconds }
        return anchor.walkSeconds + rate * Double(DispatchTime.now().uptimeNanoseconds - anchor.clock.uptimeNanoseconds) / 1e9
    }

    /// Plays the walk on the terminal until its end or q.
    /// - Throws: `TerminalError.notATerminal`; the render error that stopped it.
    public func run() throws -> Outcome {
        let session = try TerminalSession()
        defer { session.restore() }
        let capabilities = LookAroundViewer.detect(input: session.input, output: session.output)
        let start = ViewerLayout(session: session, capabilities: capabilities, choice: protocolChoice)
        let chosen = start.outputProtocol
        condition.lock()
        layout = start
        anchor = (0, DispatchTime.now())
        condition.unlock()
        let thread = Thread { [self] in
            var screen = ViewerScreen(kittyTransmission: capabilities.remote ? .direct : .sharedMemory)
            screen.synchronizedOutput = capabilities.synchronizedOutput != false
            renderLoop(session: session, screen: &screen)
            let last = screen.finish(layout: layout)
            try? session.write(last)
            condition.lock()
            renderDone = true
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "walk render"
        thread.start()
        inputLoop(session: session)
        condition.lock()
        quitting = true
        condition.broadcast()
        while !renderDone { condition.wait() }
        let outcome = Outcome(framesDrawn: framesDrawn, frameCount: playedFrameCount, framesDropped: framesDropped, finished: finished,
                              outputProtocol: chosen)
        let error = renderError
        condition.unlock()
        if let error { throw error }
        return outcome
    }

    private func inputLoop(session: TerminalSession) {
        while true {
            condition.lock()
            let stop = quitting || finished || renderError != nil
            condition.unlock()
            if stop { return }
            for event in session.readEvents(timeoutMilliseconds: 100) {
                condition.lock()
                defer { condition.broadcast(); condition.unlock() }
                switch event {
                case .resized(let columns, let rows):
                    layout.columns = columns
                    layout.rows = rows
                    repaint = true
                case .resumed:
                    repaint = true
                case .input(.key(let key)):
                    switch key.key {
                    case .character(" "), .character("k"):
                        let now = walkTimeLocked()
                        paused.toggle()
                        anchor = (now, DispatchTime.now())
                    case .left, .right, .character("h"), .character("l"):
                        let back = key.key == .left || key.key == .character("h")
                        let now = walkTimeLocked() + (back ? -Self.seekSeconds : Self.seekSeconds)
                        anchor = (max(0, min(durationSeconds - 1e-3, now)), DispatchTime.now())
                    case .character("+"), .character("="), .character("-"), .character("_"):
                        let now = walkTimeLocked()
                        let faster = key.key == .character("+") || key.key == .character("=")
                        let speed = min(Self.speedRange.upperBound, max(Self.speedRange.lowerBound, abs(rate) * (faster ? 2 : 0.5)))
                        rate = rate < 0 ? -speed : speed
                        anchor = (now, DispatchTime.now())
                        repaint = true
                    case .character("r"):
                        let now = walkTimeLocked()
                        rate = -rate
                        anchor = (now, DispatchTime.now())
                        repaint = true
                    case .character("m"):
                        showsMap.toggle()
                        repaint = true
                    case .character("q"), .escape:
                        quitting = true
                    case .character("c") where key.modifiers.contains(.control):
                        quitting = true
                    case .character("z") where key.modifiers.contains(.control):
                        condition.unlock()
                        session.suspend()
                        condition.lock()
                    default: break
                    }
                default: break
                }
            }
        }
    }

    /// Renders the frame that is due, whenever it changes, until the end or quitting.
    private func renderLoop(session: TerminalSession, screen: inout ViewerScreen) {
        var renderer: (size: PixelSize, map: Bool, renderer: WalkRenderer)?
        var shown: (index: Int, layout: ViewerLayout, paused: Bool)?
        var endReached: DispatchTime?
        let fps = timeline.options.framesPerSecond
        while true {
            condition.lock()
            if quitting { condition.unlock(); return }
            let layout = self.layout, paused = self.paused, full = repaint, rate = self.rate, showsMap = self.showsMap
            repaint = false
            let time = walkTimeLocked()
            condition.unlock()
            do {
                if full { screen.invalidate() }
                if layout.isTooSmall {
                    if full || shown?.layout != layout {
                        try session.write(try screen.bytes(frame: ViewerScreen.tooSmallFrame(columns: layout.columns, rows: layout.rows),
                                                           picture: nil, layout: layout, pictureChanged: false))
                    }
                    shown = (-1, layout, paused)
                    usleep(50_000)
                    continue
                }
                let count = playedFrameCount
                let index = min(count - 1, max(0, Int(time * fps)))
                // Frames passed over while playing (not seeking) were dropped to keep to real time.
                if let previous = shown?.index, previous >= 0, !paused, !full {
                    let step = abs(index - previous)
                    if step > 1, step <= Int(abs(rate) * fps) + 2 {
                        condition.lock()
                        framesDropped += step - 1
                        condition.unlock()
                    }
                }
                if let e = endReached, Double(DispatchTime.now().uptimeNanoseconds - e.uptimeNanoseconds) / 1e9 >= Self.holdAtEndSeconds {
                    condition.lock()
                    finished = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                if shown?.index != index || shown?.layout != layout || shown?.paused != paused || full {
                    let size = Self.frameSize(for: layout)
                    if renderer?.size != size || renderer?.map != showsMap {
                        var options = self.options
                        options.size = size
                        renderer = (size, showsMap, try WalkRenderer(timeline: timeline, catalog: catalog,
                                                                     mapSnapshotter: showsMap ? mapSnapshotter : nil,
                                                                     options: try options.validated()))
                        screen.invalidate()
                    }
                    var frame = try renderer!.renderer.render(frameAt: index)
                    let picture = layout.picturePixelSize
                    if frame.image.width != picture.width || frame.image.height != picture.height {
                        frame.image = try Resampler.resize(frame.image, to: picture, filter: .area)
                    }
                    let info = frame.info
                    // The walk's length as its frames' heads-up line gives it (durationSeconds adds the last frame's showing).
                    let total = min(durationSeconds, timeline.durationSeconds)
                    let left = " walk · \(frame.panoramaID) · \(Self.clock(info.timeSeconds)) / \(Self.clock(total)) · "
                                      + "\(Int(info.distanceMeters.rounded())) / \(Int(timeline.route.lengthMeters.rounded())) m · "
                                      + "heading \(Int(info.headingDegrees.rounded()) % 360)°"
                                      + (rate == 1 ? "" : " · \(rate < 0 ? "backwards " : "")×\(Self.speedText(abs(rate)))")
                                      + (paused ? " · paused" : "")
                    // The keys, as many as fit beside the walk's state.
                    let keys = ["space pause  ← → 5 s  +/- speed  r reverse  m map  q quit ", "space pause  +/- r m  q quit ", "space pause  q quit "]
                    let status = (left: left, right: keys.first { left.count + $0.count < layout.columns } ?? "")
                    let cells = ViewerScreen.cells(layout: layout, picture: frame.image, status: status, message: nil)
                    try session.write(try screen.bytes(frame: cells, picture: frame.image, layout: layout, pictureChanged: true))
                    condition.withLock { framesDrawn += 1 }
                    shown = (index, layout, paused)
                    let atEnd = rate > 0 ? index == count - 1 : index == 0
                    if atEnd, !paused, endReached == nil { endReached = DispatchTime.now() }
                    if !atEnd { endReached = nil }
                }
                // Sleep to the next frame's time (or a little, when paused or at the end).
                let next = (Double(index + (rate > 0 ? 1 : 0)) / fps - time) / rate
                usleep(UInt32(max(5_000, min(100_000, next * 1e6))))
            } catch {
                condition.withLock { renderError = error; condition.broadcast() }
                return
            }
        }
    }

    /// The size frames are rendered at: at least ``minimumFrameWidth`` wide, so the frame's text, map
    /// and labels (made for previews of a few hundred pixels) keep their proportions when a half-block
    /// picture of 100-odd pixels is reduced from it; within the renderer's side range.
    static func frameSize(for layout: ViewerLayout) -> PixelSize {
        let picture = layout.picturePixelSize
        let low = WalkRenderOptions.sideRangePixels.lowerBound, high = WalkRenderOptions.sideRangePixels.upperBound
        let scale = max(1, Double(minimumFrameWidth) / Double(picture.width), Double(low) / Double(min(picture.width, picture.height)))
        return PixelSize(width: min(high, Int((Double(picture.width) * scale).rounded())),
                         height: min(high, Int((Double(picture.height) * scale).rounded())))
    }

    /// The narrowest frame rendered, pixels.
    static let minimumFrameWidth = 480

    /// A speed factor as typed: "2", "0.5".
    static func speedText(_ speed: Double) -> String {
        speed == speed.rounded() ? "\(Int(speed))" : String(format: "%g", speed)
    }

    /// "m:ss".
    static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded(.down)))
        return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + "\(s % 60)"
    }
}

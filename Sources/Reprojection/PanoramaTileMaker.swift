import Foundation
import Synchronization

/// Makes missing tile files one at a time on a background thread, after views had to decode panoramas'
/// JPEGs (a long-running server: `lookaround serve`). The view that asked is answered at once from its
/// region of the JPEG (``PanoramaDecoder/decodeRegion(_:file:level:region:)``); the tile file, made on one
/// core, serves the views after it (a drag decodes a few tiles a frame instead of
/// the JPEG). A panorama asked for again while waiting or being made is not queued twice; at most
/// ``maximumPending`` wait (more are dropped: the next view asks again); one that fails is not retried
/// while its source is unchanged (``PanoramaTileStore/fileForView(panoramaID:source:crop:)``'s rule).
public final class PanoramaTileMaker: Sendable {
    /// Panoramas waiting at most.
    public static let maximumPending = 16

    private struct Job: Sendable {
        var store: PanoramaTileStore
        var panoramaID: String
        var source: String
        var crop: PanoramaCrop?
    }

    private struct State {
        var pending: [Job] = []
        var queued: Set<String> = []
        var running = false
        var made = 0
    }

    private let state = Mutex(State())

    /// A maker with nothing queued.
    public init() {}

    /// Queues the tile file of `panoramaID` (from `source`) in `store` unless it is queued, being made,
    /// or the queue is full; returns at once.
    public func request(store: PanoramaTileStore, panoramaID: String, source: String, crop: PanoramaCrop?) {
        let path = store.path(panoramaID: panoramaID)
        let start: Bool = state.withLock { state in
            guard !state.queued.contains(path), state.pending.count < Self.maximumPending else { return false }
            state.queued.insert(path)
            state.pending.append(Job(store: store, panoramaID: panoramaID, source: source, crop: crop))
            if state.running { return false }
            state.running = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in run() }
        thread.qualityOfService = .background
        thread.start()
    }

    /// Tile files made so far (for tests and metrics).
    public var madeCount: Int { state.withLock { $0.made } }

    /// Whether anything is queued or being made.
    public var isBusy: Bool { state.withLock { $0.running } }

    private func run() {
        while true {
            let next: Job? = state.withLock { state in
                guard !state.pending.isEmpty else {
                    state.running = false
                    return nil
                }
                return state.pending.removeFirst()
            }
            guard let job = next else { return }
            let made = job.store.currentFile(panoramaID: job.panoramaID, source: job.source) == nil
                && ((try? job.store.fileForView(panoramaID: job.panoramaID, source: job.source, crop: job.crop, maximumThreads: 1)) ?? nil) != nil
            state.withLock { state in
                state.queued.remove(job.store.path(panoramaID: job.panoramaID))
                if made { state.made += 1 }
            }
        }
    }
}

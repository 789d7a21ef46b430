import Foundation
import Synchronization

/// Request counts by route and status, latency histograms by route, response bytes and cache
/// counters, written as Prometheus text (`GET /metrics`, format 0.0.4).
public final class ServiceMetrics: Sendable {
    /// Upper bounds of the latency histogram buckets, seconds.
    public static let latencyBucketsSeconds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                         0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]

    /// One route's counts, mutated in place under the lock (no copy of the buckets per request).
    ///
    /// `@unchecked Sendable`: reached only through `state`, a `Mutex`: every read and write happens while it is held.
    private final class RouteStatistics: @unchecked Sendable {
        var statuses: [Int: Int] = [:]
        var buckets: [Int]
        var count = 0, sumMicroseconds = 0
        init(bucketCount: Int) { buckets = [Int](repeating: 0, count: bucketCount) }
    }
    private struct State {
        var routes: [String: RouteStatistics] = [:]
        var bytes = 0
        var responseCacheHits = 0, responseCacheMisses = 0
        var supersededFrames = 0
    }

    private let state = Mutex(State())
    private let started = Date()

    /// Empty metrics.
    public init() {}

    /// Counts one finished request.
    public func record(route: String, status: Int, bytes: Int, microseconds: Int) {
        let bounds = Self.latencyBucketsSeconds
        let seconds = Double(microseconds) / 1e6
        let bucket = bounds.firstIndex { seconds <= $0 }
        state.withLock { state in
            state.bytes += bytes
            let statistics: RouteStatistics
            if let existing = state.routes[route] {
                statistics = existing
            } else {
                statistics = RouteStatistics(bucketCount: bounds.count)
                state.routes[route] = statistics
            }
            statistics.statuses[status, default: 0] += 1
            if let bucket { statistics.buckets[bucket] += 1 }
            statistics.count += 1
            statistics.sumMicroseconds += microseconds
        }
    }

    /// Counts a lookup of the response cache (rendered images and tiles).
    public func recordResponseCache(hit: Bool) {
        state.withLock { if hit { $0.responseCacheHits += 1 } else { $0.responseCacheMisses += 1 } }
    }

    /// Counts a viewer's frame dropped before rendering because a newer one of the same viewer came.
    public func recordSupersededFrame() {
        state.withLock { $0.supersededFrames += 1 }
    }

    /// The Prometheus text exposition. `gauges` are current values (in-flight requests, connections,
    /// queued renders); `sceneDetailCache` the catalog detail cache's hits and misses.
    public func prometheusText(gauges: [(name: String, help: String, value: Int)],
                               sceneDetailCache: (hits: Int, misses: Int)) -> String {
        typealias Route = (name: String, statuses: [(Int, Int)], buckets: [Int], count: Int, sum: Int)
        let (routes, bytes, hits, misses, superseded) = state.withLock { state -> ([Route], Int, Int, Int, Int) in
            let routes = state.routes.map { name, statistics -> Route in
                (name, statistics.statuses.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, statistics.buckets,
                 statistics.count, statistics.sumMicroseconds)
            }
            return (routes.sorted { $0.name < $1.name }, state.bytes, state.responseCacheHits, state.responseCacheMisses,
                    state.supersededFrames)
        }
        var text = ""
        text += "# HELP lookaround_http_requests_total Requests answered, by route and status.\n"
        text += "# TYPE lookaround_http_requests_total counter\n"
        for route in routes {
            for (status, count) in route.statuses {
                text += "lookaround_http_requests_total{route=\"\(route.name)\",status=\"\(status)\"} \(count)\n"
            }
        }
        text += "# HELP lookaround_http_request_duration_seconds Time from request headers to queued answer, by route.\n"
        text += "# TYPE lookaround_http_request_duration_seconds histogram\n"
        for route in routes {
            var cumulative = 0
            for (bound, count) in zip(Self.latencyBucketsSeconds, route.buckets) {
                cumulative += count
                text += "lookaround_http_request_duration_seconds_bucket{route=\"\(route.name)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            text += "lookaround_http_request_duration_seconds_bucket{route=\"\(route.name)\",le=\"+Inf\"} \(route.count)\n"
            text += "lookaround_http_request_duration_seconds_sum{route=\"\(route.name)\"} \(Double(route.sum) / 1e6)\n"
            text += "lookaround_http_request_duration_seconds_count{route=\"\(route.name)\"} \(route.count)\n"
        }
        text += "# HELP lookaround_http_response_bytes_total Body bytes sent.\n"
        text += "# TYPE lookaround_http_response_bytes_total counter\n"
        text += "lookaround_http_response_bytes_total \(bytes)\n"
        text += "# HELP lookaround_cache_hits_total Lookups answered from a cache.\n"
        text += "# TYPE lookaround_cache_hits_total counter\n"
        text += "lookaround_cache_hits_total{cache=\"responses\"} \(hits)\n"
        text += "lookaround_cache_hits_total{cache=\"scene_details\"} \(sceneDetailCache.hits)\n"
        text += "# HELP lookaround_cache_misses_total Lookups that had to compute or read.\n"
        text += "# TYPE lookaround_cache_misses_total counter\n"
        text += "lookaround_cache_misses_total{cache=\"responses\"} \(misses)\n"
        text += "lookaround_cache_misses_total{cache=\"scene_details\"} \(sceneDetailCache.misses)\n"
        text += "# HELP lookaround_viewer_frames_superseded_total Viewer frames dropped unrendered: a newer camera of the same viewer came.\n"
        text += "# TYPE lookaround_viewer_frames_superseded_total counter\n"
        text += "lookaround_viewer_frames_superseded_total \(superseded)\n"
        for gauge in gauges {
            text += "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) gauge\n\(gauge.name) \(gauge.value)\n"
        }
        text += "# HELP lookaround_uptime_seconds Seconds since the server started.\n"
        text += "# TYPE lookaround_uptime_seconds gauge\n"
        text += "lookaround_uptime_seconds \(Int(Date().timeIntervalSince(started)))\n"
        return text
    }
}

/// One line per request (time, client-visible method and path, route, status, bytes, microseconds),
/// buffered and written at least once a second and when the server stops.
// @unchecked Sendable: its state is immutable after init; the lines go through `LogBuffer`, which
// appends and flushes under its own lock (network threads and the flush timer share it).
public final class AccessLog: @unchecked Sendable {
    private let buffer: LogBuffer
    private let ownsDescriptor: Bool
    private let timer: DispatchSourceTimer

    /// A log to `path`, appended; "-" is standard output.
    /// - Throws: `ServiceError.badConfiguration` when the file cannot be opened.
    public init(path: String) throws(ServiceError) {
        let descriptor: Int32
        if path == "-" {
            descriptor = 1
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw .badConfiguration(file: path, detail: "cannot open the access log: \(String(cString: strerror(errno)))")
            }
            ownsDescriptor = true
        }
        let buffer = LogBuffer(descriptor: descriptor)
        self.buffer = buffer
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { buffer.flush() }
        timer.resume()
    }

    /// Appends the line of one request.
    public func write(_ outcome: HTTPOutcome) {
        buffer.append("\(Self.timestamp()) \(Self.escaped(outcome.method)) \(Self.escaped(outcome.path)) \(outcome.route) \(outcome.status) "
                      + "\(outcome.bytes) \(outcome.microseconds)us\n")
    }

    /// A client-controlled field as one log field: bytes under 0x21 (controls, the space), DEL, `"`
    /// and `%` itself percent-encoded (so a field never holds a space or a line break, and decoding
    /// gives back what was asked); other UTF-8 stays as it is.
    static func escaped(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F || $0 == 0x22 || $0 == 0x25 }) else { return field }
        var out: [UInt8] = []
        for byte in field.utf8 {
            if byte < 0x21 || byte == 0x7F || byte == 0x22 || byte == 0x25 {
                out += Array(String(format: "%%%02X", byte).utf8)
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes what is buffered.
    public func flush() { buffer.flush() }

    /// Flushes and stops the timer (the log is not used after).
    public func close() {
        timer.cancel()
        buffer.flush()
        if ownsDescriptor { _ = Foundation.close(buffer.descriptor) }
    }

    /// `2026-12-01T09:30:00.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        let milliseconds = now.tv_nsec / 1_000_000
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let ms = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}

/// The access log's pending bytes and where they go.
final class LogBuffer: Sendable {
    let descriptor: Int32
    private let pending = Mutex<[UInt8]>([])

    init(descriptor: Int32) { self.descriptor = descriptor }

    func append(_ line: String) {
        let full = pending.withLock { pending -> Bool in
            pending.append(contentsOf: line.utf8)
            return pending.count > 1 << 16
        }
        if full { flush() }
    }

    func flush() {
        let bytes = pending.withLock { pending -> [UInt8] in
            let taken = pending
            pending.removeAll(keepingCapacity: true)
            return taken
        }
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}

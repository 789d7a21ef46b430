/// Everything the HTTP engine limits, bounds or times, in one value: the engine reads each limit from
/// here and nowhere else repeats it. The shapes are nginx's, and so are the defaults where nginx has one
/// that suits a service of small JSON answers (its name follows in brackets); where ours differs, the
/// comment says why.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind (IPv4 or IPv6 text). Default loopback.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (see ``HTTPServer/port``).
    public var port: UInt16 = 8080
    /// Network threads (each runs an epoll loop and answers cheap routes itself).
    public var networkThreads = 2
    /// Render workers (snapshots, maps, tiles, batches).
    public var renderWorkers = 2
    /// Render jobs that may wait for a worker; one more is answered 503 at once.
    public var maximumQueuedRenders = 64
    /// A render job that waited longer than this for a worker is answered 503 instead, seconds.
    public var queueTimeoutSeconds = 10.0
    /// A request a render worker holds longer than this is answered 503 (the work's answer, when it
    /// comes, is dropped; the connection goes on), seconds [`proxy_read_timeout` 60 s].
    public var workTimeoutSeconds = 60
    /// `Retry-After` on every 503 the engine sends or asks its handler for, seconds.
    public var retryAfterSeconds = 1
    /// Open connections at most, from all addresses (a backstop: beyond it new connections are closed)
    /// [`worker_connections`, 512 per worker; ours counts all threads together].
    public var connectionLimit = 8192
    /// Open connections from one client address at most; one more is answered 503 and closed [`limit_conn`].
    public var connectionsPerAddress = 256
    /// A connection that makes no progress (idle between requests, a read or a write that stalls) is
    /// closed after this many seconds [`keepalive_timeout` 75 s and `send_timeout` 60 s; shorter, as a
    /// held connection costs a descriptor and a slot of the per-address limit].
    public var connectionTimeoutSeconds = 15
    /// A request's head must arrive whole within this many seconds of its first byte (408 after)
    /// [`client_header_timeout` 60 s; ours is a total, not a gap between reads, so it can be shorter].
    public var headerTimeoutSeconds = 10
    /// A request's body must arrive whole within this many seconds of its head (408 after) [`client_body_timeout` 60 s].
    public var bodyTimeoutSeconds = 30
    /// How long the request line and the header fields may be.
    public var head = HTTPHeadLimits()
    /// Largest request body any route takes (413 beyond); routes bound their own below it [`client_max_body_size` 1 MiB].
    public var maximumBodyBytes = 1 << 20
    /// Request bodies held in memory at once, all connections together, bytes: a body that would go
    /// beyond is answered 503 with `Retry-After` and its connection closed. nginx spills bodies over
    /// `client_body_buffer_size` to temporary files; this service keeps them in memory (a body is at most
    /// ``maximumBodyBytes``), so their sum is what is bounded. Memory that held bodies goes back to
    /// the system when they are gone.
    public var bodyBudgetBytes = 64 << 20
    /// After a refused request whose input is still coming, the connection's write side is shut and
    /// what arrives is read and dropped for at most this many seconds [`lingering_time` 30 s; 2 s is
    /// ample for a client to read a small error]...
    public var lingerSeconds = 2
    /// ... or until this many bytes were dropped, whichever comes first; then the connection closes.
    public var lingerBytes = 4 << 20
    /// When the process runs out of descriptors (`EMFILE` on accept), the listening socket is taken out
    /// of the loop for this long, so a loop does not spin on connections it cannot take [`accept_mutex_delay` 500 ms].
    public var acceptPauseMilliseconds = 500
    /// The kernel's queue of connections not yet accepted [`listen … backlog`, 511 on Linux].
    public var listenBacklog = 4096
    /// Bytes read from a socket at once, per network thread (and the most a pipelined burst adds to a
    /// connection's buffer before it is processed).
    public var readBufferBytes = 64 * 1024

    /// The defaults: 127.0.0.1:8080, two network threads, two render workers.
    public init() {}
}

/// Limits on one request's head [`large_client_header_buffers`]: what fits is parsed, what does not
/// is answered at once with a JSON 414 or 431 (400 for the rest).
public struct HTTPHeadLimits: Sendable {
    /// The request target (path and query, as sent) at most, bytes; 414 beyond.
    public var requestTargetBytes = 16 * 1024
    /// A method token at most, bytes (the longest registered one is 17); 400 beyond.
    public var methodBytes = 32
    /// Query parameters at most (`/v1/map` takes a `pin` each); 414 beyond.
    public var queryParameters = 256
    /// The whole head (request line and header fields) at most, bytes; 431 beyond.
    public var headBytes = 32 * 1024
    /// Header fields at most; 431 beyond.
    public var headerFields = 100
    /// Empty lines before a request line that are skipped (RFC 9112 §2.2 asks a server to skip at
    /// least one: some clients send CRLF after a POST's body); 400 beyond, so a stream of empty lines
    /// cannot hold a connection.
    public var emptyLinesBeforeRequest = 4
    /// A chunk-size line (with its extensions) or a trailer line at most, bytes; 400 beyond.
    public var chunkLineBytes = 1024

    /// The longest request line the limits allow: method, target, version and the separators. A line
    /// still unfinished past this is answered 414 without waiting for its end.
    public var requestLineBytes: Int { methodBytes + 1 + requestTargetBytes + 1 + 8 + 2 }

    /// The defaults: a 16 KiB target with 256 parameters, a 32 KiB head of 100 fields.
    public init() {}
}

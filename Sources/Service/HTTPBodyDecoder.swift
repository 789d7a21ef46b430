#if canImport(Glibc)
import Glibc
#endif

/// Takes a request body off the wire: `Content-Length` bytes, or the chunked coding (RFC 9112 §7.1)
/// with its size lines and trailers bounded. It knows framing only: where the body's bytes are and when
/// it ends. Where they go (and whether there is room) is the caller's, through `append`.
struct HTTPBodyDecoder {
    /// Where the decoder is in the body.
    private enum State {
        /// A `Content-Length` body: this many bytes still to come.
        case length(remaining: Int)
        /// Reading a chunk-size line (collected in `line`).
        case chunkSize
        /// Inside a chunk's data: this many bytes still to come.
        case chunkData(remaining: Int)
        /// After a chunk's data: its CRLF (`sawCR`: the CR came).
        case chunkDataEnd(sawCR: Bool)
        /// After the last chunk: trailer lines up to an empty one (collected in `line`, then dropped).
        case trailer
        /// The body is whole.
        case done
    }

    enum Step: Equatable {
        /// All input was used; more body is to come.
        case needMore
        /// The body ended; bytes after it (the next request) were not used.
        case complete
        /// The body breaks the coding or a limit: the answer's error.
        case failed(ServiceError)
    }

    private var state: State
    /// A chunk-size or trailer line so far (it may span reads).
    private var line: [UInt8] = []
    /// Body bytes handed to `append` so far.
    private(set) var received = 0
    private let limitBytes: Int
    private let lineLimitBytes: Int

    /// A decoder for a body of `contentLength` bytes, or chunked when nil; at most `limitBytes` of body
    /// (413 beyond), chunk lines at most `lineLimitBytes`.
    init(contentLength: Int?, limitBytes: Int, lineLimitBytes: Int) {
        state = contentLength.map { .length(remaining: $0) } ?? .chunkSize
        self.limitBytes = limitBytes
        self.lineLimitBytes = lineLimitBytes
        if case .length(0) = state { state = .done }
    }

    /// Whether the whole body has been read.
    var isComplete: Bool { if case .done = state { true } else { false } }

    /// Decodes from `input`; body bytes go to `append`, which answers an error when it cannot take them.
    /// Returns how much of `input` was used.
    mutating func decode(_ input: UnsafeRawBufferPointer,
                         append: (UnsafeRawBufferPointer) -> ServiceError?) -> (consumed: Int, step: Step) {
        var offset = 0
        func data(_ count: Int) -> ServiceError? {
            let slice = UnsafeRawBufferPointer(rebasing: input[offset..<(offset + count)])
            offset += count
            received += count
            return append(slice)
        }
        while true {
            switch state {
            case .done:
                return (offset, .complete)
            case .length(let remaining):
                let take = min(remaining, input.count - offset)
                if take == 0 { return (offset, .needMore) }
                if let error = data(take) { return (offset, .failed(error)) }
                state = remaining == take ? .done : .length(remaining: remaining - take)
            case .chunkData(let remaining):
                let take = min(remaining, input.count - offset)
                if take == 0 { return (offset, .needMore) }
                if let error = data(take) { return (offset, .failed(error)) }
                state = remaining == take ? .chunkDataEnd(sawCR: false) : .chunkData(remaining: remaining - take)
            case .chunkDataEnd(let sawCR):
                guard offset < input.count else { return (offset, .needMore) }
                let byte = input[offset]
                offset += 1
                if byte == 13 && !sawCR {
                    state = .chunkDataEnd(sawCR: true)
                } else if byte == 10 {
                    state = .chunkSize
                } else {
                    return (offset, .failed(.malformedRequest(detail: "a chunk's data is not followed by CRLF")))
                }
            case .chunkSize, .trailer:
                guard let text = nextLine(input, &offset) else {
                    if line.count > lineLimitBytes { return (offset, .failed(lineTooLong)) }
                    return (offset, .needMore)
                }
                if text.count > lineLimitBytes { return (offset, .failed(lineTooLong)) }
                if case .trailer = state {
                    if text.isEmpty { state = .done }
                    continue
                }
                // Extensions after ';' are ignored (RFC 9112 §7.1.1).
                let digits = text.prefix { $0 != 59 && $0 != 32 && $0 != 9 }
                guard case .value(let size) = HTTPLength.parse(digits, radix: 16) else {
                    return (offset, .failed(.malformedRequest(detail: "a chunk size is not hexadecimal digits (at most \(HTTPLength.maximumDigits))")))
                }
                if size == 0 {
                    state = .trailer
                } else if received + size > limitBytes {
                    return (offset, .failed(.bodyTooLarge(limitBytes: limitBytes)))
                } else {
                    state = .chunkData(remaining: size)
                }
            }
        }
    }

    private var lineTooLong: ServiceError {
        .malformedRequest(detail: "a chunk-size or trailer line is over \(lineLimitBytes) bytes")
    }

    /// The next whole line (without its CR LF) from `input` at `offset`, joined to what an earlier read
    /// left in `line`; nil (the part kept in `line`) when it has not ended.
    private mutating func nextLine(_ input: UnsafeRawBufferPointer, _ offset: inout Int) -> [UInt8]? {
        guard offset < input.count, let base = input.baseAddress else { return nil }
        guard let found = memchr(base + offset, 10, input.count - offset) else {
            // Kept only up to just past the limit: the caller refuses it then.
            line.append(contentsOf: input[offset..<min(input.count, offset + lineLimitBytes + 1 - min(line.count, lineLimitBytes + 1))])
            offset = input.count
            return nil
        }
        let end = base.distance(to: UnsafeRawPointer(found))
        var text = line
        text.append(contentsOf: input[offset..<end])
        line.removeAll(keepingCapacity: true)
        offset = end + 1
        if text.last == 13 { text.removeLast() }
        return text
    }
}

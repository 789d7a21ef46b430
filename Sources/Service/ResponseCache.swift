import Synchronization

/// A bounded least-recently-used cache of deterministic answers (rendered images, tiles), keyed by
/// route and canonical query, with their ETags. The bound is in body bytes.
final class ResponseCache: Sendable {
    struct Entry: Sendable {
        var response: HTTPResponse
        var etag: String
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    let capacityBytes: Int
    private let state = Mutex(State())

    init(capacityBytes: Int) { self.capacityBytes = capacityBytes }

    /// Forgets every answer (the catalog changed under them).
    func removeAll() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.bytes = 0
        }
    }

    /// The cached answer for `key`, marked as used.
    func response(for key: String) -> Entry? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry
        }
    }

    /// Keeps `response` under `key`, evicting the least recently used answers beyond the capacity.
    /// Answers larger than an eighth of the capacity are not kept.
    func insert(_ response: HTTPResponse, etag: String, for key: String) {
        guard response.body.count <= capacityBytes / 8 else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.bytes -= old.response.body.count }
            state.entries[key] = Entry(response: response, etag: etag, lastUse: state.clock)
            state.bytes += response.body.count
            guard state.bytes > capacityBytes else { return }
            // Evict the oldest quarter at once, so a full cache does not sort on every insert.
            let byAge = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }
            for (key, entry) in byAge where state.bytes > capacityBytes * 3 / 4 {
                state.entries[key] = nil
                state.bytes -= entry.response.body.count
            }
        }
    }

    /// Bytes held.
    var byteCount: Int { state.withLock { $0.bytes } }
}

/// FNV-1a, 64 bits: the ETag of a body (strong: equal bodies, equal tags).
func entityTag(of bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
}

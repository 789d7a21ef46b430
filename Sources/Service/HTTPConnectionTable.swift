/// A loop's connections by descriptor, each under an epoll token that names the descriptor *and* a
/// generation bumped per connection: an event or a render answer meant for a connection closed
/// earlier (in the same batch of events, say) never reaches the one that reused its descriptor.
struct HTTPConnectionTable {
    private var slots: [(connection: HTTPConnection?, interest: UInt32)] = []
    private var generation: UInt32 = 0

    /// The token for a new connection on `descriptor`.
    mutating func nextToken(for descriptor: Int32) -> UInt64 {
        generation = generation == UInt32.max - 1 ? 1 : generation + 1   // max is the loop's own tokens'
        return UInt64(generation) << 32 | UInt64(UInt32(descriptor))
    }

    /// Adds `connection` with the interest registered for it.
    mutating func insert(_ connection: HTTPConnection, interest: UInt32) {
        let index = Int(connection.socket)
        if index >= slots.count { slots.append(contentsOf: repeatElement((connection: nil, interest: UInt32(0)), count: index + 1 - slots.count + 64)) }
        slots[index] = (connection, interest)
    }

    /// The connection `token` names; nil when it is closed or the token is stale.
    func connection(_ token: UInt64) -> HTTPConnection? {
        let index = Int(token & 0xFFFF_FFFF)
        guard index < slots.count, let connection = slots[index].connection, connection.token == token else { return nil }
        return connection
    }

    /// Removes `connection`; false when it was not in the table.
    mutating func remove(_ connection: HTTPConnection) -> Bool {
        let index = Int(connection.socket)
        guard index < slots.count, slots[index].connection === connection else { return false }
        slots[index] = (nil, 0)
        return true
    }

    /// The interest registered for `connection`.
    func interest(of connection: HTTPConnection) -> UInt32 { slots[Int(connection.socket)].interest }

    mutating func setInterest(_ interest: UInt32, of connection: HTTPConnection) { slots[Int(connection.socket)].interest = interest }

    /// One more than the highest descriptor seen: every connection is at an index below.
    var capacity: Int { slots.count }

    /// The connection at descriptor `index`, if any. (An index, not an iterator: a walk over the
    /// table may remove connections from it as it goes.)
    func connection(at index: Int) -> HTTPConnection? { slots[index].connection }
}

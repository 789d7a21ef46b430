import CLinuxEvents
#if canImport(Glibc)
import Glibc
#endif

/// The listening socket: opening it, and taking connections from it. Every network thread's loop
/// waits on it (with `EPOLLEXCLUSIVE`, so one loop wakes per connection).
struct HTTPListener: Sendable {
    let descriptor: Int32
    /// The port listened on (what port 0 became).
    let port: UInt16

    /// What one accept gave.
    enum Accepted {
        /// A connection, non-blocking, with `TCP_NODELAY` (answers are written whole; no reason to wait).
        case connection(Int32, ClientAddress)
        /// No connection is waiting.
        case none
        /// The process (or the system) is out of descriptors: the connection stays in the kernel's queue.
        case outOfDescriptors
        /// This connection failed (the client reset it before it was taken); others may be waiting.
        case failed
    }

    /// Takes one waiting connection.
    func accept() -> Accepted {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                accept4(descriptor, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            }
        }
        guard fd >= 0 else {
            switch errno {
            case EAGAIN, EWOULDBLOCK: return .none
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors
            case EBADF, EINVAL, ENOTSOCK: return .none   // the listening socket is closed (stopping)
            default: return .failed
            }
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return .connection(fd, ClientAddress(storage))
    }

    /// Binds and listens on `host:port`.
    /// - Throws: `ServiceError.cannotListen` when the address does not parse or cannot be bound.
    static func open(host: String, port: UInt16, backlog: Int) throws(ServiceError) -> HTTPListener {
        let address = "\(host):\(port)"
        /// A filled-in `sockaddr_in` or `sockaddr_in6` as a `sockaddr_storage`, its family and length.
        func stored<Address>(_ socketAddress: Address, _ family: Int32) -> (sockaddr_storage, Int32, socklen_t) {
            var storage = sockaddr_storage()
            withUnsafeBytes(of: socketAddress) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            return (storage, family, socklen_t(MemoryLayout<Address>.size))
        }
        var storage: sockaddr_storage
        let family: Int32, length: socklen_t
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            (storage, family, length) = stored(sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian, sin_addr: v4,
                                                           sin_zero: (0, 0, 0, 0, 0, 0, 0, 0)), AF_INET)
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            (storage, family, length) = stored(sockaddr_in6(sin6_family: sa_family_t(AF_INET6), sin6_port: port.bigEndian,
                                                            sin6_flowinfo: 0, sin6_addr: v6, sin6_scope_id: 0), AF_INET6)
        } else {
            throw .cannotListen(address: address, detail: "the address does not parse (give an IPv4 or IPv6 address)")
        }
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .cannotListen(address: address, detail: String(cString: strerror(errno))) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, Glibc.listen(descriptor, Int32(backlog)) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw .cannotListen(address: address, detail: reason)
        }
        var boundStorage = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &boundStorage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &boundLength) }
        }
        return HTTPListener(descriptor: descriptor, port: ClientAddress.port(of: boundStorage))
    }
}

/// A client's IP address (the port left out), the key of the per-address limit.
struct ClientAddress: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    init(high: UInt64, low: UInt64) {
        (self.high, self.low) = (high, low)
    }

    init(_ storage: sockaddr_storage) {
        if Int32(storage.ss_family) == AF_INET6 {
            let v6 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
            (high, low) = withUnsafeBytes(of: v6.sin6_addr) { raw in
                (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
        } else {
            let v4 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
            (high, low) = (0, UInt64(v4.sin_addr.s_addr))
        }
    }

    /// The port of a socket address.
    static func port(of storage: sockaddr_storage) -> UInt16 {
        if Int32(storage.ss_family) == AF_INET6 {
            return UInt16(bigEndian: withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }.sin6_port)
        }
        return UInt16(bigEndian: withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }.sin_port)
    }
}

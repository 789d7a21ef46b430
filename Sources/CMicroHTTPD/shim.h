// libmicrohttpd for Swift. MHD_start_daemon() and MHD_get_daemon_info() are C-variadic, which Swift
// does not import: these static inline helpers (compiled by Swift's built-in clang, no C target) start
// a daemon bound to one IPv4 or IPv6 address with the options the service uses, and read the bound
// port. SwiftPM does not track edits to this header: touch a Swift file of Service after changing it.
#ifndef LOOKAROUND_CMICROHTTPD_SHIM_H
#define LOOKAROUND_CMICROHTTPD_SHIM_H
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// Starts a daemon on `address` (IPv4 dotted or IPv6 text) and `port` (0: any free port). NULL when
/// the address does not parse or the socket cannot be bound.
static inline struct MHD_Daemon *
lk_mhd_start(unsigned int flags, const char *address, uint16_t port, unsigned int threadPoolSize,
             unsigned int connectionLimit, unsigned int connectionTimeoutSeconds, size_t connectionMemoryLimit,
             MHD_AccessHandlerCallback handler, void *handlerCls,
             MHD_RequestCompletedCallback completed, void *completedCls,
             MHD_NotifyConnectionCallback connection, void *connectionCls)
{
    struct sockaddr_storage storage;
    memset(&storage, 0, sizeof storage);
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        flags |= MHD_USE_IPv6;
    } else {
        return NULL;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handlerCls,
                            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&storage,
                            MHD_OPTION_THREAD_POOL_SIZE, threadPoolSize,
                            MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connectionTimeoutSeconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connectionMemoryLimit,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, 4096u,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completedCls,
                            MHD_OPTION_NOTIFY_CONNECTION, connection, connectionCls,
                            MHD_OPTION_END);
}

/// The port the daemon listens on (what port 0 became).
static inline uint16_t lk_mhd_bound_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The connections open now.
static inline unsigned lk_mhd_current_connections(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

/// The client's address as text (IPv4 or IPv6), for the access log; "" when unknown.
static inline void lk_mhd_client_address(struct MHD_Connection *c, char *out, size_t size) {
    out[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)size);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)size);
}
#endif

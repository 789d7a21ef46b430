// epoll and eventfd for the HTTP server's event loops. Swift's Glibc module does not include these
// Linux headers; this module only makes them visible (no code, nothing to link: they are in libc), and accept4,
// and malloc_trim (<malloc.h>: the server hands the memory of request bodies back when they are gone).
#ifndef LOOKAROUND_CLINUXEVENTS_SHIM_H
#define LOOKAROUND_CLINUXEVENTS_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <malloc.h>

/// accept4(2): declared by <sys/socket.h> only under _GNU_SOURCE, which the Glibc module is not built with.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
#endif

// libsixel (Debian libsixel-dev) for Swift: the sixel encoder behind Terminal's SixelEncoder.
// The ioctl helpers live here too because Swift does not import C-variadic functions (ioctl): they are
// static inline, compiled by Swift's built-in clang, no C target. SwiftPM does not track edits to this
// header: touch a Swift file of Terminal after changing it.
#ifndef LOOKAROUND_CSIXEL_SHIM_H
#define LOOKAROUND_CSIXEL_SHIM_H
#include <sixel.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <pty.h>

/// The window size of the terminal on `fd` (cells and, when the terminal reports it, pixels); -1 when
/// `fd` is not a terminal.
static inline int lk_terminal_window_size(int fd, unsigned short *columns, unsigned short *rows,
                                          unsigned short *widthPixels, unsigned short *heightPixels) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *columns = ws.ws_col; *rows = ws.ws_row; *widthPixels = ws.ws_xpixel; *heightPixels = ws.ws_ypixel;
    return 0;
}

/// Sets the window size of the pseudo-terminal on `fd` (tests: a fake terminal of a known size).
static inline int lk_terminal_set_window_size(int fd, unsigned short columns, unsigned short rows,
                                              unsigned short widthPixels, unsigned short heightPixels) {
    struct winsize ws = { rows, columns, widthPixels, heightPixels };
    return ioctl(fd, TIOCSWINSZ, &ws);
}

/// A new pseudo-terminal pair (tests: a fake terminal on the master side). 0 on success.
/// openpty is in glibc itself since 2.34 (Debian 12 has 2.36): no -lutil.
static inline int lk_open_pseudo_terminal(int *master, int *slave) {
    return openpty(master, slave, NULL, NULL, NULL);
}
#endif

// libwebp and libwebpmux (Debian libwebp-dev) for Swift: the animated WebP writer behind Imaging's
// WebPAnimationEncoder (WebPAnimEncoder lives in libwebpmux). The *Init helpers are static inline.
#ifndef LOOKAROUND_CWEBP_SHIM_H
#define LOOKAROUND_CWEBP_SHIM_H
#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>
#include <webp/demux.h>
#endif

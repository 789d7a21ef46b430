#ifndef LOOKAROUND_IMAGING_SHIMS_H
#define LOOKAROUND_IMAGING_SHIMS_H
// Public header of the tiny C target: plain C types only, so Swift never sees libpng's structs twice.
// Why this target exists: libpng's low-level API reports errors by longjmp, and Swift cannot call
// setjmp; every setjmp lives in one C frame here, so a longjmp never crosses a Swift frame.
#include <stddef.h>
#include <stdint.h>

/// Output layouts of lk_png_decode.
enum {
    LK_PNG_GRAY8 = 0,   ///< 1 byte per pixel
    LK_PNG_GRAY16 = 1,  ///< 1 native-endian uint16 per pixel, exact sample values
    LK_PNG_RGB8 = 2,    ///< 3 bytes per pixel
    LK_PNG_RGBA8 = 3,   ///< 4 bytes per pixel, straight alpha
};

/// Results of lk_png_decode.
enum {
    LK_PNG_OK = 0,
    LK_PNG_CORRUPT = 1,     ///< libpng error; message in err
    LK_PNG_TRUNCATED = 2,   ///< the data ended before the image did
    LK_PNG_OVER_BUDGET = 3, ///< width × height > pixel_budget; *out_w/*out_h hold the size; nothing allocated
    LK_PNG_NO_MEMORY = 4,
};

/// Decodes a PNG held in memory through libpng's low-level API into `out_format` (LK_PNG_*).
/// Every colour type, bit depth (1…16), palette with tRNS and Adam7 interlacing is read.
/// Values are exact: no gamma or linear-light conversion is applied (16-bit samples stay 16-bit;
/// 8-bit to 16-bit is v × 257; 16-bit to 8-bit keeps the high byte; colour to grey uses libpng's
/// default fixed-point coefficients on the stored values; grey outputs drop alpha; RGB8 drops alpha).
/// On LK_PNG_OK, *out holds width × height × bytes-per-pixel bytes allocated with malloc
/// (release with lk_free); otherwise *out is NULL.
int lk_png_decode(const uint8_t *data, size_t len, int out_format, uint64_t pixel_budget,
                  uint8_t **out, uint32_t *out_w, uint32_t *out_h, char *err, size_t errlen);

/// Releases memory returned by this target.
void lk_free(void *p);

#endif

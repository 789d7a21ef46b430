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

/// Results of the lk_jpeg_* functions.
enum {
    LK_JPEG_OK = 0,
    LK_JPEG_CORRUPT = 1,    ///< libjpeg's error, or corrupt data it would have worked around; message in err
    LK_JPEG_UNALIGNED = 2,  ///< a request the file's layout cannot meet (tiles not whole MCUs, a scaled size that differs); nothing decoded
};

/// Cuts the JPEG into tile_size-pixel tiles, row-major, each a standalone baseline JPEG holding the very
/// DCT coefficients of its part of the original (lossless: no decoding, no generation loss) with its own
/// optimised Huffman tables and no metadata. The coefficients are read once (about 2 bytes per pixel of
/// each component's blocks). tile_size must be whole MCUs (a multiple of 16 for 4:2:0); edge tiles are
/// smaller. tiles and tile_sizes hold max_tiles entries; on LK_JPEG_OK the first columns × rows are set,
/// each allocated with malloc (release with lk_free); otherwise none is left allocated. Corrupt data
/// (even what libjpeg would work around) is LK_JPEG_CORRUPT.
int lk_jpeg_lossless_tiles(const uint8_t *data, size_t len, int tile_size, int max_tiles,
                           uint8_t **tiles, unsigned long *tile_sizes, int *out_columns, int *out_rows,
                           uint32_t *out_width, uint32_t *out_height, char *err, size_t errlen);

/// Decodes only the rows y0..<y1 and (at least) the columns x0..<x1 of the JPEG scaled by
/// 1/scale_denominator (1, 2, 4 or 8; coordinates in the scaled image, whose size must be
/// expected_width × expected_height) as RGBX into out, a buffer of the whole scaled image with
/// out_stride bytes per row: rows above the region are skipped without their inverse DCT, rows below
/// are never read, and the columns are widened to whole iMCUs (*decoded_x0..<*decoded_x1 on return).
/// Corrupt data is LK_JPEG_CORRUPT.
int lk_jpeg_decode_region(const uint8_t *data, size_t len, int scale_denominator, uint32_t expected_width, uint32_t expected_height,
                          uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, uint8_t *out, size_t out_stride,
                          uint32_t *decoded_x0, uint32_t *decoded_x1, char *err, size_t errlen);

/// Releases memory returned by this target.
void lk_free(void *p);

#endif

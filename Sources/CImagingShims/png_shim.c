// libpng low-level decode with setjmp kept in this C frame (see include/imaging_shims.h for why).
#include "imaging_shims.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

struct lk_png_ctx { char *err; size_t errlen; int truncated; };

static void lk_png_error(png_structp png, png_const_charp msg) {
    struct lk_png_ctx *c = (struct lk_png_ctx *)png_get_error_ptr(png);
    if (c->err && c->errlen) snprintf(c->err, c->errlen, "%s", msg);
    png_longjmp(png, 1);
}
static void lk_png_warn(png_structp png, png_const_charp msg) { (void)png; (void)msg; }

struct lk_memsrc { const uint8_t *p; size_t len, pos; struct lk_png_ctx *ctx; };
static void lk_png_read(png_structp png, png_bytep data, png_size_t n) {
    struct lk_memsrc *s = (struct lk_memsrc *)png_get_io_ptr(png);
    if (n > s->len - s->pos) {
        s->ctx->truncated = 1;
        png_error(png, "the data ends before the image does");
    }
    memcpy(data, s->p + s->pos, n); s->pos += n;
}

void lk_free(void *p) { free(p); }

int lk_png_decode(const uint8_t *data, size_t len, int out_format, uint64_t pixel_budget,
                  uint8_t **out, uint32_t *out_w, uint32_t *out_h, char *err, size_t errlen)
{
    struct lk_png_ctx ctx = { err, errlen, 0 };
    struct lk_memsrc src = { data, len, 0, &ctx };
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    volatile int result = LK_PNG_CORRUPT;
    *out = NULL; *out_w = 0; *out_h = 0;
    if (errlen) err[0] = 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, lk_png_error, lk_png_warn);
    if (!png) { snprintf(err, errlen, "png_create_read_struct failed"); return LK_PNG_NO_MEMORY; }
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels); free(rows);
        if (result == LK_PNG_CORRUPT && ctx.truncated) result = LK_PNG_TRUNCATED;
        return result;
    }
    png_set_read_fn(png, &src, lk_png_read);
    // The caller's pixel budget is checked below, before any pixel memory is allocated.
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    *out_w = w; *out_h = h;
    if ((uint64_t)w * (uint64_t)h > pixel_budget) { result = LK_PNG_OVER_BUDGET; png_error(png, "over budget"); }
    int ct = png_get_color_type(png, info), bd = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    int bytes_per_pixel = 1;

    if (ct == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (ct == PNG_COLOR_TYPE_GRAY && bd < 8) png_set_expand_gray_1_2_4_to_8(png);
    switch (out_format) {
    case LK_PNG_GRAY8:
    case LK_PNG_GRAY16:
        if (has_trns) png_set_tRNS_to_alpha(png);
        if (ct & PNG_COLOR_MASK_ALPHA || has_trns) png_set_strip_alpha(png);
        if (ct & PNG_COLOR_MASK_COLOR || ct == PNG_COLOR_TYPE_PALETTE)
            png_set_rgb_to_gray_fixed(png, 1, -1, -1);
        if (out_format == LK_PNG_GRAY8) {
            if (bd == 16) png_set_strip_16(png);
            bytes_per_pixel = 1;
        } else {
            if (bd < 16) png_set_expand_16(png);
            png_set_swap(png);   // PNG is big-endian; the caller wants native uint16 (little-endian hosts)
            bytes_per_pixel = 2;
        }
        break;
    case LK_PNG_RGB8:
    case LK_PNG_RGBA8:
        if (bd == 16) png_set_strip_16(png);
        if (has_trns) png_set_tRNS_to_alpha(png);
        if (ct == PNG_COLOR_TYPE_GRAY || ct == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
        if (out_format == LK_PNG_RGBA8) {
            if (!(ct & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
            bytes_per_pixel = 4;
        } else {
            if (ct & PNG_COLOR_MASK_ALPHA || has_trns) png_set_strip_alpha(png);
            bytes_per_pixel = 3;
        }
        break;
    default:
        png_error(png, "unknown output format (expected LK_PNG_GRAY8, _GRAY16, _RGB8 or _RGBA8)");
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if (rowbytes != (size_t)w * (size_t)bytes_per_pixel) png_error(png, "unexpected row size after conversion");
    pixels = malloc(rowbytes * h);
    rows = malloc(sizeof(png_bytep) * h);
    if (!pixels || !rows) { result = LK_PNG_NO_MEMORY; png_error(png, "out of memory"); }
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * rowbytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    *out = pixels;
    return LK_PNG_OK;
}

// libjpeg (libjpeg-turbo's libjpeg API) where TurboJPEG's API cannot do the job: a lossless cut of a JPEG
// into tiles from one read of its coefficients, and a decode of only a region at a DCT scale. libjpeg
// reports errors by longjmp, so every setjmp lives in one C frame here (see include/imaging_shims.h).
#include "imaging_shims.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

struct lk_jpeg_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int warnings;
    char *err;
    size_t errlen;
};

static void lk_jpeg_on_error(j_common_ptr cinfo) {
    struct lk_jpeg_error *e = (struct lk_jpeg_error *)cinfo->err;
    char message[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, message);
    if (e->err && e->errlen) snprintf(e->err, e->errlen, "%s", message);
    longjmp(e->jump, 1);
}

// Warnings (level -1: corrupt data libjpeg works around) are counted, and the first one kept as the message:
// a damaged file must not be cut into tiles or shown as if whole.
static void lk_jpeg_on_message(j_common_ptr cinfo, int level) {
    struct lk_jpeg_error *e = (struct lk_jpeg_error *)cinfo->err;
    if (level >= 0) return;
    if (e->warnings++ == 0 && e->err && e->errlen) {
        char message[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, message);
        snprintf(e->err, e->errlen, "%s", message);
    }
}

static void lk_jpeg_error_setup(struct lk_jpeg_error *e, char *err, size_t errlen) {
    jpeg_std_error(&e->pub);
    e->pub.error_exit = lk_jpeg_on_error;
    e->pub.emit_message = lk_jpeg_on_message;
    e->warnings = 0;
    e->err = err;
    e->errlen = errlen;
    if (errlen) err[0] = 0;
}

static JDIMENSION lk_div_round_up(JDIMENSION a, JDIMENSION b) { return (a + b - 1) / b; }

int lk_jpeg_lossless_tiles(const uint8_t *data, size_t len, int tile_size, int max_tiles,
                           uint8_t **tiles, unsigned long *tile_sizes, int *out_columns, int *out_rows,
                           uint32_t *out_width, uint32_t *out_height, char *err, size_t errlen)
{
    struct jpeg_decompress_struct src;
    struct jpeg_compress_struct dst;
    struct lk_jpeg_error e;
    volatile int made = 0, dst_live = 0, result = LK_JPEG_CORRUPT;
    unsigned char *volatile buffer = NULL;
    *out_columns = 0; *out_rows = 0; *out_width = 0; *out_height = 0;
    lk_jpeg_error_setup(&e, err, errlen);
    src.err = &e.pub;
    dst.err = &e.pub;
    if (setjmp(e.jump)) {
        if (dst_live) jpeg_destroy_compress(&dst);
        free(buffer);
        for (int i = 0; i < made; i++) { free(tiles[i]); tiles[i] = NULL; tile_sizes[i] = 0; }
        jpeg_destroy_decompress(&src);
        return result;
    }
    jpeg_create_decompress(&src);
    jpeg_mem_src(&src, data, (unsigned long)len);
    jpeg_read_header(&src, TRUE);
    *out_width = src.image_width;
    *out_height = src.image_height;
    int mcu_width = src.max_h_samp_factor * DCTSIZE, mcu_height = src.max_v_samp_factor * DCTSIZE;
    if (tile_size <= 0 || tile_size % mcu_width != 0 || tile_size % mcu_height != 0) {
        snprintf(err, errlen, "%d-pixel tiles are not whole %dx%d MCUs", tile_size, mcu_width, mcu_height);
        jpeg_destroy_decompress(&src);
        return LK_JPEG_UNALIGNED;
    }
    int columns = (int)lk_div_round_up(src.image_width, (JDIMENSION)tile_size);
    int rows = (int)lk_div_round_up(src.image_height, (JDIMENSION)tile_size);
    if ((long)columns * rows > max_tiles) {
        snprintf(err, errlen, "%d x %d tiles, more than the %d asked for", columns, rows, max_tiles);
        jpeg_destroy_decompress(&src);
        return LK_JPEG_UNALIGNED;
    }
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(&src);
    if (e.warnings) longjmp(e.jump, 1);
    for (int ty = 0; ty < rows; ty++) {
        for (int tx = 0; tx < columns; tx++) {
            JDIMENSION x0 = (JDIMENSION)(tx * tile_size), y0 = (JDIMENSION)(ty * tile_size);
            JDIMENSION w = src.image_width - x0 < (JDIMENSION)tile_size ? src.image_width - x0 : (JDIMENSION)tile_size;
            JDIMENSION h = src.image_height - y0 < (JDIMENSION)tile_size ? src.image_height - y0 : (JDIMENSION)tile_size;
            unsigned long size = 0;
            buffer = NULL;
            jpeg_create_compress(&dst);
            dst_live = 1;
            jpeg_mem_dest(&dst, (unsigned char **)&buffer, &size);
            jpeg_copy_critical_parameters(&src, &dst);
            dst.image_width = w;
            dst.image_height = h;
            dst.optimize_coding = TRUE;
            jvirt_barray_ptr arrays[MAX_COMPONENTS];
            for (int c = 0; c < dst.num_components; c++) {
                jpeg_component_info *comp = &dst.comp_info[c];
                JDIMENSION wide = lk_div_round_up(w * (JDIMENSION)comp->h_samp_factor, (JDIMENSION)(src.max_h_samp_factor * DCTSIZE));
                JDIMENSION high = lk_div_round_up(h * (JDIMENSION)comp->v_samp_factor, (JDIMENSION)(src.max_v_samp_factor * DCTSIZE));
                // Whole MCUs: the encoder reads a component's rows v_samp_factor at a time (as jpegtran's transupp sizes them).
                wide = lk_div_round_up(wide, (JDIMENSION)comp->h_samp_factor) * (JDIMENSION)comp->h_samp_factor;
                high = lk_div_round_up(high, (JDIMENSION)comp->v_samp_factor) * (JDIMENSION)comp->v_samp_factor;
                arrays[c] = (*dst.mem->request_virt_barray)((j_common_ptr)&dst, JPOOL_IMAGE, TRUE, wide, high,
                                                              (JDIMENSION)comp->v_samp_factor);
            }
            jpeg_write_coefficients(&dst, arrays);
            for (int c = 0; c < dst.num_components; c++) {
                jpeg_component_info *in = &src.comp_info[c], *out = &dst.comp_info[c];
                JDIMENSION column = x0 / (JDIMENSION)(src.max_h_samp_factor * DCTSIZE) * (JDIMENSION)in->h_samp_factor;
                JDIMENSION row = y0 / (JDIMENSION)(src.max_v_samp_factor * DCTSIZE) * (JDIMENSION)in->v_samp_factor;
                for (JDIMENSION r = 0; r < out->height_in_blocks; r++) {
                    if (row + r >= in->height_in_blocks) break;
                    JBLOCKARRAY from = (*src.mem->access_virt_barray)((j_common_ptr)&src, coefficients[c], row + r, 1, FALSE);
                    JBLOCKARRAY to = (*dst.mem->access_virt_barray)((j_common_ptr)&dst, arrays[c], r, 1, TRUE);
                    JDIMENSION blocks = out->width_in_blocks;
                    if (column + blocks > in->width_in_blocks) blocks = in->width_in_blocks - column;
                    memcpy(to[0], from[0] + column, blocks * sizeof(JBLOCK));
                }
            }
            jpeg_finish_compress(&dst);
            jpeg_destroy_compress(&dst);
            dst_live = 0;
            tiles[made] = buffer;
            tile_sizes[made] = size;
            buffer = NULL;
            made++;
        }
    }
    jpeg_finish_decompress(&src);
    jpeg_destroy_decompress(&src);
    *out_columns = columns;
    *out_rows = rows;
    return LK_JPEG_OK;
}

int lk_jpeg_decode_region(const uint8_t *data, size_t len, int scale_denominator, uint32_t expected_width, uint32_t expected_height,
                          uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, uint8_t *out, size_t out_stride,
                          uint32_t *decoded_x0, uint32_t *decoded_x1, char *err, size_t errlen)
{
    struct jpeg_decompress_struct cinfo;
    struct lk_jpeg_error e;
    *decoded_x0 = 0; *decoded_x1 = 0;
    lk_jpeg_error_setup(&e, err, errlen);
    cinfo.err = &e.pub;
    if (setjmp(e.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return LK_JPEG_CORRUPT;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)len);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scale_denominator;
    cinfo.out_color_space = JCS_EXT_RGBX;
    jpeg_calc_output_dimensions(&cinfo);
    if (cinfo.output_width != expected_width || cinfo.output_height != expected_height) {
        snprintf(err, errlen, "decodes to %ux%u at 1/%d, not %ux%u", cinfo.output_width, cinfo.output_height, scale_denominator,
                 expected_width, expected_height);
        jpeg_destroy_decompress(&cinfo);
        return LK_JPEG_UNALIGNED;
    }
    if (x1 > expected_width) x1 = expected_width;
    if (y1 > expected_height) y1 = expected_height;
    if (x0 >= x1 || y0 >= y1) {
        snprintf(err, errlen, "empty region");
        jpeg_destroy_decompress(&cinfo);
        return LK_JPEG_UNALIGNED;
    }
    jpeg_start_decompress(&cinfo);
    JDIMENSION xoffset = x0, width = x1 - x0;
    if (width < cinfo.output_width) jpeg_crop_scanline(&cinfo, &xoffset, &width);
    if (y0 > 0) jpeg_skip_scanlines(&cinfo, y0);
    while (cinfo.output_scanline < y1) {
        JSAMPROW row = out + (size_t)cinfo.output_scanline * out_stride + (size_t)xoffset * 4;
        jpeg_read_scanlines(&cinfo, &row, 1);
        if (e.warnings) longjmp(e.jump, 1);
        // libjpeg-turbo fills X with 0xFF; the panorama's documented layout has 0 there (as JPEGCodec.decodeRGBX).
        for (JDIMENSION i = 0; i < width; i++) row[4 * i + 3] = 0;
    }
    // The rows below the region are never read.
    jpeg_abort_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    *decoded_x0 = xoffset;
    *decoded_x1 = xoffset + width;
    return LK_JPEG_OK;
}

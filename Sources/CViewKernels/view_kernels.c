// The bilinear span kernel of the view renderer (see view_kernels.h). Both versions blend with the
// same integer arithmetic:
//
//   tap position → column x0 = ⌊x⌋, row y0 = ⌊y⌋, fractions fx, fy in 1/16384 (truncated);
//   w11 = ⌊fx·fy / 16384⌋, w10 = fx − w11, w01 = fy − w11, w00 = 16384 − fx − w01 (sum exactly 16384);
//   channel = ⌊(w00·tl + w10·tr + w01·bl + w11·br + 8192) / 16384⌋.
//
// Against exact Double weights a channel is off by less than 4·255/16384 = 0.06 grey levels before
// the final rounding. The AVX2 version steps the positions of 8 pixels at a time in 20-bit fixed point
// (cubic forward differences), and so does the portable one with SSE2 on x86-64 (the same bytes);
// elsewhere the portable one steps one pixel at a time in 40-bit fixed point.

#include "view_kernels.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#pragma STDC FP_CONTRACT OFF

/// ⌊x⌋ for |x| < 2^62 without a libm call (baseline x86-64 has no rounding instruction: floor() is a
/// call through the PLT, a few of which per span were measurable).
static inline double floor_small(double x) {
    double t = (double)(int64_t)x;
    return t > x ? t - 1 : t;
}

/// x rounded to the nearest integer (ties to even) for |x| < 2^51, without a libm call: adding and
/// subtracting 1.5·2^52 leaves the rounded value.
static inline int64_t round_small(double x) {
    const double magic = 6755399441055744.0;
    return (int64_t)((x + magic) - magic);  // IEEE arithmetic: not reassociated without -ffast-math
}

/// The cubics in s along row `t` of the bicubic `k` (lk_bilinear_block_span's layout): u's into c[0..<4],
/// v's into c[4..<8]. Every caller evaluates them with this one expression, so a row's bytes do not
/// depend on whether its block went through lk_bilinear_block or lk_bilinear_block_span.
static inline void row_cubics(const double *k, double t, double *c) {
    for (int axis = 0; axis < 2; axis++) {
        const double *a = k + 16 * axis;
        for (int i = 0; i < 4; i++) c[4 * axis + i] = ((a[12 + i] * t + a[8 + i]) * t + a[4 + i]) * t + a[i];
    }
}

/// One tap from its four weights (summing to 1 << LK_SPAN_WEIGHT_BITS): `row0`/`row1` the tap's two rows,
/// `x0`/`x1` its two columns.
static inline void blend_weighted(const uint32_t *row0, const uint32_t *row1, int32_t x0, int32_t x1, uint32_t w00, uint32_t w10,
                                  uint32_t w01, uint32_t w11, uint8_t *out) {
    uint32_t tl = row0[x0], tr = row0[x1], bl = row1[x0], br = row1[x1];
    // R and B in the two 32-bit halves of a 64-bit word (each weighted sum < 2^22), G in another:
    // the same integer sums as per channel, with 8 multiplications instead of 12.
#define LK_RB(p) ((uint64_t)((p) & 0xFFu) | ((uint64_t)((p) & 0xFF0000u) << 16))
    const uint64_t half = 1u << (LK_SPAN_WEIGHT_BITS - 1);
    uint64_t rb = w00 * LK_RB(tl) + w10 * LK_RB(tr) + w01 * LK_RB(bl) + w11 * LK_RB(br) + (half | half << 32);
    uint32_t g = w00 * ((tl >> 8) & 0xFF) + w10 * ((tr >> 8) & 0xFF) + w01 * ((bl >> 8) & 0xFF) + w11 * ((br >> 8) & 0xFF);
#undef LK_RB
    out[0] = (uint8_t)((rb & 0xFFFFFFFFu) >> LK_SPAN_WEIGHT_BITS);
    out[1] = (uint8_t)((g + (uint32_t)half) >> LK_SPAN_WEIGHT_BITS);
    out[2] = (uint8_t)(rb >> (32 + LK_SPAN_WEIGHT_BITS));
}

/// One tap: `row0`/`row1` the tap's two rows, `x0`/`x1` its two columns, `fx`/`fy` its 14-bit fractions.
static inline void blend1(const uint32_t *row0, const uint32_t *row1, int32_t x0, int32_t x1, uint32_t fx, uint32_t fy,
                          uint8_t *out) {
    uint32_t w11 = (fx * fy) >> LK_SPAN_WEIGHT_BITS, w10 = fx - w11, w01 = fy - w11;
    uint32_t w00 = (1u << LK_SPAN_WEIGHT_BITS) - fx - w01;
    blend_weighted(row0, row1, x0, x1, w00, w10, w01, w11, out);
}

#if !defined(__SSE2__)
/// The tap at fixed-point position (`u`, `v`) relative to (`ub`, `vb`), `bits` fraction bits.
static inline void tap(const uint32_t *pixels, int32_t width, int64_t ub, int64_t vb, int64_t u, int64_t v, int bits,
                       int32_t wraps, uint8_t *out) {
    int64_t x0 = ub + (u >> bits), y0 = vb + (v >> bits);
    if (wraps) {
        if (x0 >= width) x0 -= width; else if (x0 < 0) x0 += width;
    }
    int32_t x1 = (int32_t)x0 + 1;
    if (x1 == width) x1 = 0;
    uint32_t fx = (uint32_t)(u >> (bits - LK_SPAN_WEIGHT_BITS)) & ((1u << LK_SPAN_WEIGHT_BITS) - 1);
    uint32_t fy = (uint32_t)(v >> (bits - LK_SPAN_WEIGHT_BITS)) & ((1u << LK_SPAN_WEIGHT_BITS) - 1);
    const uint32_t *row0 = pixels + y0 * (int64_t)width;
    blend1(row0, row0 + width, (int32_t)x0, x1, fx, fy, out);
}
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__SSE2__)
/// Four lanes of doubles (lane i at m0 + i) of the cubic c[0] + c[1]·m + c[2]·m² + c[3]·m³ (Horner,
/// no fused multiply-add) to 20-bit fixed point, rounded to nearest.
static inline __m128i fixed4(const double *c, double m0) {
    const __m128d scale = _mm_set1_pd((double)(1 << LK_SPAN_POSITION_BITS));
    __m128d lo = _mm_setr_pd(m0, m0 + 1), hi = _mm_setr_pd(m0 + 2, m0 + 3);
    __m128d c0 = _mm_set1_pd(c[0]), c1 = _mm_set1_pd(c[1]), c2 = _mm_set1_pd(c[2]), c3 = _mm_set1_pd(c[3]);
    __m128d a = _mm_add_pd(_mm_mul_pd(_mm_add_pd(_mm_mul_pd(_mm_add_pd(_mm_mul_pd(c3, lo), c2), lo), c1), lo), c0);
    __m128d b = _mm_add_pd(_mm_mul_pd(_mm_add_pd(_mm_mul_pd(_mm_add_pd(_mm_mul_pd(c3, hi), c2), hi), c1), hi), c0);
    return _mm_unpacklo_epi64(_mm_cvtpd_epi32(_mm_mul_pd(a, scale)), _mm_cvtpd_epi32(_mm_mul_pd(b, scale)));
}

/// The portable kernel on x86-64 (SSE2, which every x86-64 CPU has): the AVX2 kernel's arithmetic in
/// two 4-lane halves, so its output is byte for byte the AVX2 kernel's. Lane i of group g is pixel
/// 8g + i: its position in 20-bit fixed point and the forward differences of step 8, stepped per group;
/// per group the texel columns and rows and the weight pairs (w00 | w10 << 16, w01 | w11 << 16) in
/// vectors; then per pixel its four texels (four 4-byte loads: fewer instructions than two 8-byte loads
/// and shifts), byte-interleaved (left, right) per channel, weighed with pmaddwd. Four pixels are packed to R G B X ×4 and written as 12 bytes from general
/// registers. Groups that touch the seam's last column, and the tail, go through blend1 (as in AVX2).
static void portable_sse2(const uint32_t *pixels, int32_t width, int32_t height, const double *u, const double *v,
                          double ub, double vb, int32_t count, uint8_t *out, int32_t wraps) {
    const double cu[4] = { u[0] - ub, u[1], u[2], u[3] }, cv[4] = { v[0] - vb, v[1], v[2], v[3] };
    // As lanes() of the AVX2 kernel: Δ1(m) = 8c1 + c2(16m + 64) + c3(24m² + 192m + 512),
    // Δ2(m) = 128c2 + c3(384m + 3072), Δ3 = 3072c3.
    const double qu[4] = { 8 * cu[1] + 64 * cu[2] + 512 * cu[3], 16 * cu[2] + 192 * cu[3], 24 * cu[3], 0 };
    const double ru[4] = { 128 * cu[2] + 3072 * cu[3], 384 * cu[3], 0, 0 };
    const double qv[4] = { 8 * cv[1] + 64 * cv[2] + 512 * cv[3], 16 * cv[2] + 192 * cv[3], 24 * cv[3], 0 };
    const double rv[4] = { 128 * cv[2] + 3072 * cv[3], 384 * cv[3], 0, 0 };
    __m128i U[2] = { fixed4(cu, 0), fixed4(cu, 4) }, U1[2] = { fixed4(qu, 0), fixed4(qu, 4) }, U2[2] = { fixed4(ru, 0), fixed4(ru, 4) };
    __m128i V[2] = { fixed4(cv, 0), fixed4(cv, 4) }, V1[2] = { fixed4(qv, 0), fixed4(qv, 4) }, V2[2] = { fixed4(rv, 0), fixed4(rv, 4) };
    const __m128i U3 = _mm_set1_epi32((int32_t)round_small(3072 * cu[3] * (double)(1 << LK_SPAN_POSITION_BITS)));
    const __m128i V3 = _mm_set1_epi32((int32_t)round_small(3072 * cv[3] * (double)(1 << LK_SPAN_POSITION_BITS)));
    const __m128i w = _mm_set1_epi32(width), last = _mm_set1_epi32(width - 1), zero = _mm_setzero_si128();
    const __m128i columnBase = _mm_set1_epi32((int32_t)ub), rowBase = _mm_set1_epi32((int32_t)vb);
    const __m128i fractionMask = _mm_set1_epi32((1 << LK_SPAN_WEIGHT_BITS) - 1), unit = _mm_set1_epi32(1 << LK_SPAN_WEIGHT_BITS);
    const __m128i half = _mm_set1_epi32(1 << (LK_SPAN_WEIGHT_BITS - 1));
    const int fractionShift = LK_SPAN_POSITION_BITS - LK_SPAN_WEIGHT_BITS;
    int32_t xs[8] __attribute__((aligned(16))), ys[8] __attribute__((aligned(16)));
    int32_t fxs[8] __attribute__((aligned(16))), fys[8] __attribute__((aligned(16)));
    __m128i top[2], bottom[2];
    for (int32_t m = 0; m < count; m += 8) {
        int seam = 0;
        for (int h = 0; h < 2; h++) {
            __m128i x0 = _mm_add_epi32(columnBase, _mm_srai_epi32(U[h], LK_SPAN_POSITION_BITS));
            __m128i y0 = _mm_add_epi32(rowBase, _mm_srai_epi32(V[h], LK_SPAN_POSITION_BITS));
            if (wraps) {
                x0 = _mm_sub_epi32(x0, _mm_and_si128(_mm_cmpgt_epi32(x0, last), w));
                x0 = _mm_add_epi32(x0, _mm_and_si128(_mm_cmpgt_epi32(zero, x0), w));
                seam |= _mm_movemask_epi8(_mm_cmpeq_epi32(x0, last));
            }
            __m128i fx = _mm_and_si128(_mm_srli_epi32(U[h], fractionShift), fractionMask);
            __m128i fy = _mm_and_si128(_mm_srli_epi32(V[h], fractionShift), fractionMask);
            _mm_store_si128((__m128i *)(xs + 4 * h), x0);
            _mm_store_si128((__m128i *)(ys + 4 * h), y0);
            _mm_store_si128((__m128i *)(fxs + 4 * h), fx);
            _mm_store_si128((__m128i *)(fys + 4 * h), fy);
            __m128i w11 = _mm_srli_epi32(_mm_madd_epi16(fx, fy), LK_SPAN_WEIGHT_BITS);
            __m128i w10 = _mm_sub_epi32(fx, w11), w01 = _mm_sub_epi32(fy, w11);
            __m128i w00 = _mm_sub_epi32(_mm_sub_epi32(unit, fx), w01);
            top[h] = _mm_or_si128(w00, _mm_slli_epi32(w10, 16));
            bottom[h] = _mm_or_si128(w01, _mm_slli_epi32(w11, 16));
            U[h] = _mm_add_epi32(U[h], U1[h]); U1[h] = _mm_add_epi32(U1[h], U2[h]); U2[h] = _mm_add_epi32(U2[h], U3);
            V[h] = _mm_add_epi32(V[h], V1[h]); V1[h] = _mm_add_epi32(V1[h], V2[h]); V2[h] = _mm_add_epi32(V2[h], V3);
        }
        if (seam || m + 8 > count) {
            for (int k = 0; k < 8 && m + k < count; k++) {
                const uint32_t *row0 = pixels + (int64_t)ys[k] * width;
                int32_t x1 = xs[k] + 1 == width ? 0 : xs[k] + 1;
                blend1(row0, row0 + width, xs[k], x1, (uint32_t)fxs[k], (uint32_t)fys[k], out + 3 * (m + k));
            }
            continue;
        }
        // The source lines two and three rows down: what the next output rows read first (the AVX2 kernel
        // looks four and five rows down since that measured faster there; not measured for this one).
        if (ys[0] + 3 < height) {
            const uint32_t *p = pixels + (int64_t)(ys[0] + 2) * width + xs[0];
            __builtin_prefetch(p);
            __builtin_prefetch(p + width);
            __builtin_prefetch(pixels + (int64_t)(ys[7] + 3) * width + xs[7]);
        }
        for (int h = 0; h < 2; h++) {
            __m128i sums[4];
#define LK_SSE2_PIXEL(k, lane)                                                                                       \
            do {                                                                                                     \
                const uint32_t *p = pixels + (int64_t)ys[4 * h + k] * width + xs[4 * h + k];                         \
                __m128i ti = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)p[0]), _mm_cvtsi32_si128((int)p[1]));             \
                __m128i bi = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)p[width]), _mm_cvtsi32_si128((int)p[width + 1])); \
                __m128i s = _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(ti, zero), _mm_shuffle_epi32(top[h], lane)), \
                                          _mm_madd_epi16(_mm_unpacklo_epi8(bi, zero), _mm_shuffle_epi32(bottom[h], lane))); \
                sums[k] = _mm_srli_epi32(_mm_add_epi32(s, half), LK_SPAN_WEIGHT_BITS);                              \
            } while (0)
            LK_SSE2_PIXEL(0, 0x00);
            LK_SSE2_PIXEL(1, 0x55);
            LK_SSE2_PIXEL(2, 0xAA);
            LK_SSE2_PIXEL(3, 0xFF);
#undef LK_SSE2_PIXEL
            __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(sums[0], sums[1]), _mm_packs_epi32(sums[2], sums[3]));
            uint64_t a = (uint64_t)_mm_cvtsi128_si64(bytes), b = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(bytes, bytes));
            a = (a & 0xFFFFFFu) | ((a >> 8) & 0xFFFFFF000000u);  // R G B R G B of pixels 0, 1
            b = (b & 0xFFFFFFu) | ((b >> 8) & 0xFFFFFF000000u);  // of pixels 2, 3
            uint64_t first = a | b << 48;
            uint32_t second = (uint32_t)(b >> 16);
            memcpy(out + 3 * (m + 4 * h), &first, 8);
            memcpy(out + 3 * (m + 4 * h) + 8, &second, 4);
        }
    }
}
#endif

void lk_bilinear_span_portable(const uint32_t *pixels, int32_t width, int32_t height, const double *u, const double *v,
                               int32_t count, uint8_t *out, int32_t wraps) {
    double ub = floor_small(u[0]), vb = floor_small(v[0]);
#if defined(__SSE2__)
    portable_sse2(pixels, width, height, u, v, ub, vb, count, out, wraps);
#else
    const int bits = 40;
    const double one = 1099511627776.0;  // 2^40
    // Forward differences of the cubics at step 1: value, Δ, Δ², Δ³.
    int64_t U = round_small((u[0] - ub) * one), U1 = round_small((u[1] + u[2] + u[3]) * one);
    int64_t U2 = round_small((2 * u[2] + 6 * u[3]) * one), U3 = round_small(6 * u[3] * one);
    int64_t V = round_small((v[0] - vb) * one), V1 = round_small((v[1] + v[2] + v[3]) * one);
    int64_t V2 = round_small((2 * v[2] + 6 * v[3]) * one), V3 = round_small(6 * v[3] * one);
    for (int32_t m = 0; m < count; m++) {
        if ((m & 7) == 0) {
            // As the SSE2 kernel: the source lines two and three rows below, which the next output
            // rows read first (the hardware prefetchers do not follow a row's curved path).
            int64_t x = (int64_t)ub + (U >> bits), y = (int64_t)vb + (V >> bits);
            if (x >= 0 && x < width && y + 3 < height) {
                __builtin_prefetch(pixels + (y + 2) * (int64_t)width + x);
                __builtin_prefetch(pixels + (y + 3) * (int64_t)width + x);
            }
        }
        tap(pixels, width, (int64_t)ub, (int64_t)vb, U, V, bits, wraps, out + 3 * m);
        U += U1; U1 += U2; U2 += U3;
        V += V1; V1 += V2; V2 += V3;
    }
#endif
}

#if defined(__x86_64__)

int lk_view_kernels_have_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

#define AVX2 __attribute__((target("avx2,fma")))

/// c[0] + c[1]·m + c[2]·m² + c[3]·m³ (Horner, no fused multiply-add).
AVX2 static inline __m256d cubic(const double *c, __m256d m) {
    __m256d r = _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(c[3]), m), _mm256_set1_pd(c[2]));
    r = _mm256_add_pd(_mm256_mul_pd(r, m), _mm256_set1_pd(c[1]));
    return _mm256_add_pd(_mm256_mul_pd(r, m), _mm256_set1_pd(c[0]));
}

/// Lane i of group g is pixel 8g + i: its position P, and the forward differences of step 8 of the
/// cubic at 8g + i: Δ1 = P(m + 8) − P(m) (quadratic in m), Δ2 (linear), Δ3 (constant), analytically.
/// `c` is already in units of 2^-LK_SPAN_POSITION_BITS px: scaling by a power of two is exact in every
/// operation, so this gives the bytes the scaling after Horner gave (and the SSE2 kernel's fixed4 gives),
/// as does leaving out the products with the zero coefficients of Δ1's and Δ2's Horner (they only
/// change the sign of a zero, which the conversion to integers drops).
AVX2 static inline void lanes(const double *c, __m256i *p, __m256i *d1, __m256i *d2, __m256i *d3) {
    const __m256d m0 = _mm256_setr_pd(0, 1, 2, 3), m1 = _mm256_setr_pd(4, 5, 6, 7);
#define LK_JOIN(a, b) _mm256_inserti128_si256(_mm256_castsi128_si256(_mm256_cvtpd_epi32(a)), _mm256_cvtpd_epi32(b), 1)
    *p = LK_JOIN(cubic(c, m0), cubic(c, m1));
    // Δ1(m) = 8c1 + c2(16m + 64) + c3(24m² + 192m + 512)
    const __m256d q0 = _mm256_set1_pd(8 * c[1] + 64 * c[2] + 512 * c[3]), q1 = _mm256_set1_pd(16 * c[2] + 192 * c[3]);
    const __m256d q2 = _mm256_set1_pd(24 * c[3]);
    *d1 = LK_JOIN(_mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(q2, m0), q1), m0), q0),
                  _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(q2, m1), q1), m1), q0));
    // Δ2(m) = 128c2 + c3(384m + 3072)
    const __m256d r0 = _mm256_set1_pd(128 * c[2] + 3072 * c[3]), r1 = _mm256_set1_pd(384 * c[3]);
    *d2 = LK_JOIN(_mm256_add_pd(_mm256_mul_pd(r1, m0), r0), _mm256_add_pd(_mm256_mul_pd(r1, m1), r0));
#undef LK_JOIN
    *d3 = _mm256_set1_epi32((int32_t)round_small(3072 * c[3]));
}

/// The qwords (left texel, right texel) at pixels + ix[a], + ix[b] (low lane) and + ix[c], + ix[d].
AVX2 static inline __m256i pairs(const uint32_t *pixels, int32_t a, int32_t b, int32_t c, int32_t d) {
    __m128i lo = _mm_loadl_epi64((const __m128i *)(pixels + a));
    lo = _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(lo), (const double *)(pixels + b)));
    __m128i hi = _mm_loadl_epi64((const __m128i *)(pixels + c));
    hi = _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(hi), (const double *)(pixels + d)));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/// The 14-bit weight fraction of a fixed-point position.
#define LK_FRACTION(p) ((uint32_t)(p) >> (LK_SPAN_POSITION_BITS - LK_SPAN_WEIGHT_BITS) & ((1u << LK_SPAN_WEIGHT_BITS) - 1))

/// Pixels `first` ..< `end` of a span one at a time (groups that touch the seam's last column, and the
/// tail), from the texel indices and packed weight pairs pass 1 stored: the vector path's bytes.
static __attribute__((noinline)) void scalar_taps(const uint32_t *pixels, int32_t width, const int32_t *index, const uint32_t *top,
                                                  const uint32_t *bottom, int32_t first, int32_t end, uint8_t *out) {
    for (int32_t m = first; m < end; m++) {
        int32_t row = index[m] / width, x0 = index[m] - row * width, x1 = x0 + 1 == width ? 0 : x0 + 1;
        const uint32_t *row0 = pixels + (ptrdiff_t)row * width;
        blend_weighted(row0, row0 + width, x0, x1, top[m] & 0xFFFF, top[m] >> 16, bottom[m] & 0xFFFF, bottom[m] >> 16, out + 3 * m);
    }
}

/// One span (lk_bilinear_span_avx2's contract), inlined into the block loop.
AVX2 static inline __attribute__((always_inline)) void span_avx2(const uint32_t *pixels, int32_t width, const double *u, const double *v, int32_t count,
                                  uint8_t *out, int32_t wraps) {
    const double ub = floor_small(u[0]), vb = floor_small(v[0]), scale = (double)(1 << LK_SPAN_POSITION_BITS);
    const double cu[4] = { (u[0] - ub) * scale, u[1] * scale, u[2] * scale, u[3] * scale };
    const double cv[4] = { (v[0] - vb) * scale, v[1] * scale, v[2] * scale, v[3] * scale };
    __m256i U, U1, U2, U3, V, V1, V2, V3;
    lanes(cu, &U, &U1, &U2, &U3);
    lanes(cv, &V, &V1, &V2, &V3);

    // Pass 1: per pixel the texel index of its top-left texel and its packed weight pairs
    // (w00 | w10 << 16, w01 | w11 << 16); per group of 8 a bit saying whether a tap sits on the last column.
    int32_t index[LK_SPAN_MAXIMUM_COUNT] __attribute__((aligned(32)));
    uint32_t top[LK_SPAN_MAXIMUM_COUNT] __attribute__((aligned(32))), bottom[LK_SPAN_MAXIMUM_COUNT] __attribute__((aligned(32)));
    uint32_t seams = 0;
    const __m256i w = _mm256_set1_epi32(width), last = _mm256_set1_epi32(width - 1), zero = _mm256_setzero_si256();
    const __m256i columnBase = _mm256_set1_epi32((int32_t)ub), rowBase = _mm256_set1_epi32((int32_t)vb);
    const __m256i fractionMask = _mm256_set1_epi32((1 << LK_SPAN_WEIGHT_BITS) - 1), unit = _mm256_set1_epi32(1 << LK_SPAN_WEIGHT_BITS);
    const int fractionShift = LK_SPAN_POSITION_BITS - LK_SPAN_WEIGHT_BITS;
    const int32_t groups = (count + 7) / 8;
    for (int32_t g = 0; g < groups; g++) {
        __m256i x0 = _mm256_add_epi32(columnBase, _mm256_srai_epi32(U, LK_SPAN_POSITION_BITS));
        __m256i y0 = _mm256_add_epi32(rowBase, _mm256_srai_epi32(V, LK_SPAN_POSITION_BITS));
        if (wraps) {
            x0 = _mm256_sub_epi32(x0, _mm256_and_si256(_mm256_cmpgt_epi32(x0, last), w));
            x0 = _mm256_add_epi32(x0, _mm256_and_si256(_mm256_cmpgt_epi32(zero, x0), w));
            seams |= (uint32_t)(_mm256_movemask_epi8(_mm256_cmpeq_epi32(x0, last)) != 0) << g;
        }
        _mm256_store_si256((__m256i *)(index + 8 * g), _mm256_add_epi32(_mm256_mullo_epi32(y0, w), x0));
        __m256i fx = _mm256_and_si256(_mm256_srli_epi32(U, fractionShift), fractionMask);
        __m256i fy = _mm256_and_si256(_mm256_srli_epi32(V, fractionShift), fractionMask);
        __m256i w11 = _mm256_srli_epi32(_mm256_madd_epi16(fx, fy), LK_SPAN_WEIGHT_BITS);
        __m256i w10 = _mm256_sub_epi32(fx, w11), w01 = _mm256_sub_epi32(fy, w11);
        __m256i w00 = _mm256_sub_epi32(_mm256_sub_epi32(unit, fx), w01);
        _mm256_store_si256((__m256i *)(top + 8 * g), _mm256_or_si256(w00, _mm256_slli_epi32(w10, 16)));
        _mm256_store_si256((__m256i *)(bottom + 8 * g), _mm256_or_si256(w01, _mm256_slli_epi32(w11, 16)));
        U = _mm256_add_epi32(U, U1); U1 = _mm256_add_epi32(U1, U2); U2 = _mm256_add_epi32(U2, U3);
        V = _mm256_add_epi32(V, V1); V1 = _mm256_add_epi32(V1, V2); V2 = _mm256_add_epi32(V2, V3);
    }

    // Pass 2: per group of 8, the texel pairs of the top and bottom rows as qwords, four pixels a
    // register, in the order 0 1 4 5 | 2 3 6 7 so that one pack puts pixels 0–3 in the low lane and
    // 4–7 in the high one; pshufb spreads each pair's channels into 16-bit (left, right) pairs and
    // pmaddwd weighs them.
    const __m256i even = _mm256_setr_epi8(0, -1, 4, -1, 2, -1, 6, -1, 8, -1, 12, -1, 10, -1, 14, -1,
                                          0, -1, 4, -1, 2, -1, 6, -1, 8, -1, 12, -1, 10, -1, 14, -1);  // (r), (b)
    const __m256i odd = _mm256_setr_epi8(1, -1, 5, -1, 3, -1, 7, -1, 9, -1, 13, -1, 11, -1, 15, -1,
                                         1, -1, 5, -1, 3, -1, 7, -1, 9, -1, 13, -1, 11, -1, 15, -1);  // (g), (x)
    const __m256i half = _mm256_set1_epi32(1 << (LK_SPAN_WEIGHT_BITS - 1));
    const __m256i rgb = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                         0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    const uint32_t *below = pixels + width;
    const int32_t full = count / 8;
    for (int32_t g = 0; g < full; g++) {
        const int32_t *ix = index + 8 * g;
        // The source lines four and five rows down: what the output rows a few rows on read first (the
        // hardware prefetchers do not follow a row's curved path). Without these a 1080p view of an
        // 8192×4096 panorama took 2.3–3.2× as long; four and five rows ahead instead of two and three
        // took 0.87–0.89× the time (the benchmark's cameras through the span kernel alone, alternating
        // with the old distance, 10 frames a round), and 1.00–1.03× from a cache-resident 2048×1024 panorama.
        _mm_prefetch((const char *)(pixels + ix[0] + 4 * width), _MM_HINT_T0);
        _mm_prefetch((const char *)(pixels + ix[0] + 5 * width), _MM_HINT_T0);
        _mm_prefetch((const char *)(pixels + ix[7] + 5 * width), _MM_HINT_T0);
        if (seams >> g & 1) {
            scalar_taps(pixels, width, index, top, bottom, 8 * g, 8 * g + 8, out);
            continue;
        }
        const __m256i topWeights = _mm256_load_si256((const __m256i *)(top + 8 * g));
        const __m256i bottomWeights = _mm256_load_si256((const __m256i *)(bottom + 8 * g));
        __m256i result[2];
        for (int h = 0; h < 2; h++) {
            int32_t a = ix[2 * h], b = ix[2 * h + 1], c = ix[2 * h + 4], d = ix[2 * h + 5];
            __m256i t = pairs(pixels, a, b, c, d), s = pairs(below, a, b, c, d);
            __m256i wt = h ? _mm256_shuffle_epi32(topWeights, 0xFA) : _mm256_shuffle_epi32(topWeights, 0x50);
            __m256i wb = h ? _mm256_shuffle_epi32(bottomWeights, 0xFA) : _mm256_shuffle_epi32(bottomWeights, 0x50);
            __m256i rb = _mm256_add_epi32(_mm256_madd_epi16(_mm256_shuffle_epi8(t, even), wt),
                                          _mm256_madd_epi16(_mm256_shuffle_epi8(s, even), wb));
            __m256i gx = _mm256_add_epi32(_mm256_madd_epi16(_mm256_shuffle_epi8(t, odd), wt),
                                          _mm256_madd_epi16(_mm256_shuffle_epi8(s, odd), wb));
            rb = _mm256_srli_epi32(_mm256_add_epi32(rb, half), LK_SPAN_WEIGHT_BITS);
            gx = _mm256_srli_epi32(_mm256_add_epi32(gx, half), LK_SPAN_WEIGHT_BITS);
            result[h] = _mm256_or_si256(rb, _mm256_slli_epi32(gx, 8));  // per pixel: r | g << 8, b
        }
        __m256i bytes = _mm256_shuffle_epi8(_mm256_packus_epi32(result[0], result[1]), rgb);
        bytes = _mm256_permutevar8x32_epi32(bytes, join);
        uint8_t *o = out + 24 * g;
        _mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(bytes));
        _mm_storel_epi64((__m128i *)(o + 16), _mm256_extracti128_si256(bytes, 1));
    }
    if (8 * full < count) scalar_taps(pixels, width, index, top, bottom, 8 * full, count, out);
}

AVX2 void lk_bilinear_span_avx2(const uint32_t *pixels, int32_t width, int32_t height, const double *u, const double *v,
                                int32_t count, uint8_t *out, int32_t wraps) {
    (void)height;
    span_avx2(pixels, width, u, v, count, out, wraps);
}

/// One view row across a block row's checked blocks (lk_bilinear_row's loop) with the span inlined.
#define LK_ROW_BODY                                                                                          \
    for (int32_t i = 0; i < blocks; i++) {                                                                   \
        if (!modes[i]) continue;                                                                             \
        int32_t count = (int32_t)(x[i + 1] - x[i]) + (i == blocks - 1);                                      \
        double c[8];                                                                                         \
        row_cubics(k + 32 * i, t, c);                                                                        \
        span_avx2(pixels, width, c, c + 4, count, row + 3 * x[i], modes[i] == 2);                            \
    }
AVX2 static void row_avx2(const uint32_t *pixels, int32_t width, const double *k, const uint8_t *modes, const intptr_t *x,
                          int32_t blocks, double t, uint8_t *row) {
    LK_ROW_BODY
}

/// The same code compiled for AVX-512 (VL, BW, DQ) CPUs: the same intrinsics, so the same bytes, with the
/// EVEX encoding's 32 vector registers (the AVX2 build spilled a dozen values a group of 8 pixels to the
/// stack) — about 1.5 % less time a 1080p frame than the AVX2 build on the development machine's Zen 4
/// (alternating LOOKAROUND_VIEW_KERNEL=avx2 and default, 2026-12-08; issue 55).
#define AVX512 __attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512dq")))
AVX512 static void row_avx512(const uint32_t *pixels, int32_t width, const double *k, const uint8_t *modes, const intptr_t *x,
                              int32_t blocks, double t, uint8_t *row) {
    LK_ROW_BODY
}
#undef LK_ROW_BODY

int lk_view_kernels_have_avx512(void) {
    __builtin_cpu_init();
    return lk_view_kernels_have_avx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}

#else

int lk_view_kernels_have_avx2(void) { return 0; }

int lk_view_kernels_have_avx512(void) { return 0; }

void lk_bilinear_span_avx2(const uint32_t *pixels, int32_t width, int32_t height, const double *u, const double *v,
                           int32_t count, uint8_t *out, int32_t wraps) {
    lk_bilinear_span_portable(pixels, width, height, u, v, count, out, wraps);
}

#endif

void lk_cubic_bounds(const double *c, int32_t count, double *low, double *high) {
    double n = count > 1 ? (double)(count - 1) : 0;
    double end = c[0] + c[1] * n;
    // Widened by a billionth of the magnitudes: the rounding of the Double sums (an ulp or two, which
    // the test of these bounds caught where the bound is tight at the span's end).
    double slack = (fabs(c[2]) + fabs(c[3]) * n) * n * n + 1e-9 * (fabs(c[0]) + fabs(c[1]) * n + 1);
    *low = (c[0] < end ? c[0] : end) - slack;
    *high = (c[0] > end ? c[0] : end) + slack;
}

int32_t lk_bilinear_block_span(const uint32_t *pixels, int32_t width, int32_t height, const double *k, double t,
                               int32_t count, uint8_t *out, int32_t vector) {
    double c[8];
    row_cubics(k, t, c);
    double xLow, xHigh, vLow, vHigh;
    lk_cubic_bounds(c, count, &xLow, &xHigh);
    lk_cubic_bounds(c + 4, count, &vLow, &vHigh);
    // Fixed-point stepping keeps within 2^-18 px of the cubic: a margin of 1/64 px.
    const double margin = 1.0 / 64, w = width, h = height;
    if (!(vLow >= margin && vHigh < h - 1 - margin && xHigh - xLow < 2000 && vHigh - vLow < 2000
          && count >= 1 && count <= LK_SPAN_MAXIMUM_COUNT && xLow > -w && xHigh < 2 * w - 1)) return 0;
    int32_t wraps = (xLow >= margin && xHigh < w - 1 - margin) ? 0 : 1;
    if (vector) lk_bilinear_span_avx2(pixels, width, height, c, c + 4, count, out, wraps);
    else lk_bilinear_span_portable(pixels, width, height, c, c + 4, count, out, wraps);
    return 1;
}

/// Bounds on one coordinate of a block's bicubic `a` (16 coefficients, sⁱ·tʲ at 4j + i) over s ∈ [0, S],
/// t ∈ [t0, t0 + R]: in τ = t − t0 (the t-cubics' Taylor shift to t0), the bilinear part's four
/// corners (where a bilinear function has its extremes) widened by |b_ij|·S^i·R^j of every other term
/// and a billionth of the magnitudes (as lk_cubic_bounds, for the Double sums' rounding).
static void block_bounds(const double *a, double S, double t0, double R, double *low, double *high) {
    double b[16];
    for (int i = 0; i < 4; i++) {
        double a0 = a[i], a1 = a[4 + i], a2 = a[8 + i], a3 = a[12 + i];
        b[i] = ((a3 * t0 + a2) * t0 + a1) * t0 + a0;
        b[4 + i] = (3 * a3 * t0 + 2 * a2) * t0 + a1;
        b[8 + i] = 3 * a3 * t0 + a2;
        b[12 + i] = a3;
    }
    double corners[4] = { b[0], b[0] + b[1] * S, b[0] + b[4] * R, b[0] + b[1] * S + (b[4] + b[5] * S) * R };
    double lo = corners[0], hi = corners[0];
    for (int q = 1; q < 4; q++) {
        lo = corners[q] < lo ? corners[q] : lo;
        hi = corners[q] > hi ? corners[q] : hi;
    }
    double slack = 0, sj = 1;
    for (int j = 0; j < 4; j++) {
        double si = 1;
        for (int i = 0; i < 4; i++) {
            if (i >= 2 || j >= 2) slack += fabs(b[4 * j + i]) * si * sj;
            si *= S;
        }
        sj *= R;
    }
    slack += 1e-9 * (fabs(b[0]) + fabs(b[1]) * S + fabs(b[4]) * R + fabs(b[5]) * S * R + 1);
    *low = lo - slack;
    *high = hi + slack;
}

int32_t lk_bilinear_block_check(int32_t width, int32_t height, const double *k, int32_t rows, int32_t count) {
    if (rows < 1 || count < 1 || count > LK_SPAN_MAXIMUM_COUNT) return 0;
    double xLow, xHigh, vLow, vHigh;
    const double S = count - 1, R = rows - 1;
    block_bounds(k, S, 0, R, &xLow, &xHigh);
    block_bounds(k + 16, S, 0, R, &vLow, &vHigh);
    // The same preconditions, with the same margin, as lk_bilinear_block_span's per row: what holds for
    // the whole block holds for each of its rows.
    const double margin = 1.0 / 64, w = width, h = height;
    if (!(vLow >= margin && vHigh < h - 1 - margin && xHigh - xLow < 2000 && vHigh - vLow < 2000
          && xLow > -w && xHigh < 2 * w - 1)) return 0;
    return (xLow >= margin && xHigh < w - 1 - margin) ? 1 : 2;
}

void lk_bilinear_row(const uint32_t *pixels, int32_t width, int32_t height, const double *k, const uint8_t *modes,
                     const intptr_t *x, int32_t blocks, double t, uint8_t *row, int32_t vector) {
#if defined(__x86_64__)
    if (vector) {
        if (vector == 2) row_avx512(pixels, width, k, modes, x, blocks, t, row);
        else row_avx2(pixels, width, k, modes, x, blocks, t, row);
        return;
    }
#else
    (void)vector;
#endif
    for (int32_t i = 0; i < blocks; i++) {
        if (!modes[i]) continue;
        int32_t count = (int32_t)(x[i + 1] - x[i]) + (i == blocks - 1);
        double c[8];
        row_cubics(k + 32 * i, t, c);
        lk_bilinear_span_portable(pixels, width, height, c, c + 4, count, row + 3 * x[i], modes[i] == 2);
    }
}

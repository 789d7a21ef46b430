#ifndef LOOKAROUND_VIEW_KERNELS_H
#define LOOKAROUND_VIEW_KERNELS_H
// The view renderer's bilinear span kernel (Reprojection's ViewRenderer calls it for every row span
// of a block). It is C because it needs what Swift cannot express without whole-module compiler
// flags: AVX2 code chosen at run time (function-level target attributes), pshufb, pmaddwd and
// 256-bit shuffles with predictable code generation. A plain C version with the same integer
// arithmetic runs everywhere else; both are tested against the reference renderer.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Fraction bits of the fixed-point tap positions the kernels step (relative to the span's first
/// whole pixel): 1/1048576 px, ±2047 px of range.
#define LK_SPAN_POSITION_BITS 20
/// Fraction bits of the bilinear weights: the four weights of a tap sum to exactly 1 << 14.
#define LK_SPAN_WEIGHT_BITS 14
/// The longest span, pixels.
#define LK_SPAN_MAXIMUM_COUNT 256

/// 1 when the AVX2 kernel can run on this CPU (AVX2 and FMA present, YMM state enabled by the OS).
int lk_view_kernels_have_avx2(void);

/// 1 when the AVX2 kernel can also run in its AVX-512 build (AVX-512 F, BW, VL and DQ besides): `vector` = 2 below.
int lk_view_kernels_have_avx512(void);

/// One span of an output row: `count` (1…LK_SPAN_MAXIMUM_COUNT) pixels whose tap positions in the
/// panorama (pixel centres at integers: pixel (i, j) is at (i, j)) follow the cubics
/// x(m) = u[0] + u[1]·m + u[2]·m² + u[3]·m³ and y(m) = v[0] + v[1]·m + v[2]·m² + v[3]·m³, m = 0…count−1.
/// Each tap blends the 2×2 texels at (⌊x⌋, ⌊y⌋)…(⌊x⌋+1, ⌊y⌋+1) with 14-bit weights and writes R, G, B.
///
/// Preconditions (the caller checks them; nothing is checked here): every y(m) in [0, height − 1);
/// every x(m) within 2047 px of u[0] and every y(m) within 2047 px of v[0]; width × height < 2^31;
/// without `wraps`, every x(m) in [0, width − 1); with `wraps`, ⌊x(m)⌋ wraps into [0, width) (within
/// one turn) and the right-hand texel of the last column is column 0 (the ±180° seam).
/// Writes exactly 3 × count bytes at `out`.
/// - pixels: width × height texels, R in the low byte, then G, B, and 0 in the top byte, row-major.
/// This version needs lk_view_kernels_have_avx2() (elsewhere it runs the portable one).
void lk_bilinear_span_avx2(const uint32_t *pixels, int32_t width, int32_t height, const double *u, const double *v,
                           int32_t count, uint8_t *out, int32_t wraps);

/// The same for any CPU. On x86-64 it is the AVX2 version's arithmetic in SSE2 (which every x86-64 CPU
/// has: two 4-lane halves, pmaddwd weighs each tap's 2×2 texels): the same bytes as the AVX2 version.
/// Elsewhere it is plain C stepping each pixel in 40-bit fixed point, so a channel may differ from the
/// AVX2 version's by one grey level where a tap sits within 2^-14 px of a texel boundary.
void lk_bilinear_span_portable(const uint32_t *pixels, int32_t width, int32_t height, const double *u, const double *v,
                               int32_t count, uint8_t *out, int32_t wraps);

/// Bounds on the cubic c[0] + c[1]·m + c[2]·m² + c[3]·m³ over m ∈ [0, count − 1]: the linear part's
/// two ends widened by |c[2]|·n² + |c[3]|·n³ (n = count − 1) and a billionth of the magnitudes (the
/// Double sums' rounding). Conservative, without square roots or divisions.
void lk_cubic_bounds(const double *c, int32_t count, double *low, double *high);

/// One row span of a block of the view renderer: the position is the bicubic `k` (32 doubles: for
/// u then v, the coefficient of sⁱ·tʲ at 4j + i, s and t in view pixels from the block's first
/// pixel) along row `t`, m = s = 0…count − 1. Takes the row's cubics, bounds them (lk_cubic_bounds)
/// and, when the span meets the kernels' preconditions with a margin of 1/64 px (rows inside the
/// panorama's, the seam crossed at most once, ≤ LK_SPAN_MAXIMUM_COUNT pixels), samples it with the
/// AVX2 (`vector` ≠ 0) or the portable kernel and returns 1. Returns 0 and writes nothing otherwise
/// (spans reaching a pole's last half row): the caller samples those taps one by one.
/// The per-span set-up in C: in Swift it was 18 % of a frame (issue 55's profile).
int32_t lk_bilinear_block_span(const uint32_t *pixels, int32_t width, int32_t height, const double *k, double t,
                               int32_t count, uint8_t *out, int32_t vector);

/// Whether every row t = 0 … `rows` − 1 of a block (`count` pixels from s = 0, the bicubic `k` as in
/// lk_bilinear_block_span) meets the span kernels' preconditions, checked once on bounds of the bicubic
/// over the whole block (lk_cubic_bounds' idea in two variables: the bilinear part's corners widened by
/// the other terms): 0 when not (near a pole's last half row, or bounds too loose: the caller samples
/// those rows its own way), 1 when every tap stays off the seam's last column, 2 when the seam may be
/// crossed. Once per block and frame, so that rows need no check of their own.
int32_t lk_bilinear_block_check(int32_t width, int32_t height, const double *k, int32_t rows, int32_t count);

/// One view row of a block row in one call: for each block i (0 ..< `blocks`) with `modes[i]` ≠ 0 (what
/// lk_bilinear_block_check said), the span of row `t` of its bicubic `k` + 32·i, view pixels x[i] ..< x[i + 1]
/// (the last block also x[blocks]), into `row` + 3·x[i]; blocks with mode 0 are left untouched. The same bytes
/// as lk_bilinear_block_span per block. (Issue 55: the per-span fixed cost, a Swift call and the bounds
/// per span, was ~20 % of a frame; rows stay in view order, which the panorama's memory traffic needs:
/// a block-by-block order took 4 % longer for 15 % fewer instructions.) `vector`: 0 the portable kernel, 1 the
/// AVX2 one, 2 the AVX2 one's AVX-512 build (needs lk_view_kernels_have_avx512(); the same bytes as 1).
void lk_bilinear_row(const uint32_t *pixels, int32_t width, int32_t height, const double *k, const uint8_t *modes,
                     const intptr_t *x, int32_t blocks, double t, uint8_t *row, int32_t vector);

#ifdef __cplusplus
}
#endif
#endif

// The int4-weight GEMM of f32 x packed-i4 MATMUL kernels
// (grtc_kmatmul_t.rhs_packed4), emitted once per generated file when used,
// and the tile loops around it.
//
// grt_w4gemm_block computes cb[M x N] (f32) = A[M x K] (f32, any element
// strides) * B[K x N], B's elements 4-bit fields two to a byte (element e
// in the low nibble of byte e/2 when e is even, the high one when odd;
// sign-extended for i4). The fields are unpacked in registers as the
// micro-kernel needs them, never into a buffer: per k, the fields of one
// row of a panel of NR columns become two vectors of floats, which six
// broadcast A values multiply into a 6 x NR block of accumulators.
//   - AVX-512 (--cpu-features with avx512f): NR 32; 16 bytes (17 when the
//     first field is a high nibble: a 128-bit shift by 4 in two words)
//     become 32 bytes of fields (mask, shift, interleave), sign-extended by
//     (x ^ 8) - 8 and converted to two vectors of 16 floats.
//   - AVX2 with FMA: NR 16, 8 bytes (9) the same way into two vectors of 8.
//   - otherwise portable C over the same blocking, NR 16.
// A block's last single row runs alone; 2 to 5 rows run as 6, the extra
// sums dropped. A panel's rows are N / 2 bytes apart, a new page every row
// or two for wide weights, which the hardware prefetchers do not follow:
// the fast path prefetches the row 32 ahead (without it a batch-1 layer
// waited on memory for most of its time).
// Panels whose columns are not contiguous (B's n stride is not 1: [N, K]
// weights) or narrower than NR read the fields one at a time.
// K runs in slices of 256 (GRT_W4_KC) so a slice's B rows stay in L1
// across the panels. Each C element is the sum of the slices' partial
// sums, each over its k in order (fused multiply-add under AVX2 and
// AVX-512), so results can differ from the generic loops' by rounding only.
#include <inttypes.h>
#include <stdio.h>

#include "compiler/target/cpu/cpu_internal.h"

static const char grtc_cpu_w4_text[] =
    "#if defined(__GNUC__)\n"
    "#define GRT_W4_INLINE static inline __attribute__((always_inline))\n"
    "#else\n"
    "#define GRT_W4_INLINE static inline\n"
    "#endif\n"
    "#define GRT_W4_KC 256\n"
    "#if defined(__AVX512F__)\n"
    "#include <immintrin.h>\n"
    "#define GRT_W4_SIMD 1\n"
    "#define GRT_W4_NR 32\n"
    "typedef __m512 grt_w4_v;\n"
    "#define GRT_W4_VL 16\n"
    "#define GRT_W4_ZERO() _mm512_setzero_ps()\n"
    "#define GRT_W4_SET1(x) _mm512_set1_ps(x)\n"
    "#define GRT_W4_FMA(a, b, c) _mm512_fmadd_ps(a, b, c)\n"
    "#define GRT_W4_LOAD(p) _mm512_loadu_ps(p)\n"
    "#define GRT_W4_STORE(p, v) _mm512_storeu_ps(p, v)\n"
    // Fields e..e+31: 16 bytes (17 from a high nibble: the 128 bits
    // shifted right by 4 across two words).
    "GRT_W4_INLINE void grt_w4_unpack(const uint8_t* B, int64_t e, int sgn,\n"
    "                                 grt_w4_v* b0, grt_w4_v* b1) {\n"
    "  const uint8_t* p = B + (e >> 1);\n"
    "  uint64_t x[3] = {0, 0, 0};\n"
    "  memcpy(x, p, 16);\n"
    "  if (e & 1) {\n"
    "    x[2] = p[16];\n"
    "    x[0] = (x[0] >> 4) | (x[1] << 60);\n"
    "    x[1] = (x[1] >> 4) | (x[2] << 60);\n"
    "  }\n"
    "  const __m128i v = _mm_loadu_si128((const __m128i*)x);\n"
    "  const __m128i mask = _mm_set1_epi8(15);\n"
    "  const __m128i lo = _mm_and_si128(v, mask);\n"
    "  const __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), mask);\n"
    "  __m128i f0 = _mm_unpacklo_epi8(lo, hi), f1 = _mm_unpackhi_epi8(lo, hi);\n"
    "  if (sgn) {\n"
    "    const __m128i eight = _mm_set1_epi8(8);\n"
    "    f0 = _mm_sub_epi8(_mm_xor_si128(f0, eight), eight);\n"
    "    f1 = _mm_sub_epi8(_mm_xor_si128(f1, eight), eight);\n"
    "  }\n"
    "  *b0 = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(f0));\n"
    "  *b1 = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(f1));\n"
    "}\n"
    "#elif defined(__AVX2__) && defined(__FMA__)\n"
    "#include <immintrin.h>\n"
    "#define GRT_W4_SIMD 1\n"
    "#define GRT_W4_NR 16\n"
    "typedef __m256 grt_w4_v;\n"
    "#define GRT_W4_VL 8\n"
    "#define GRT_W4_ZERO() _mm256_setzero_ps()\n"
    "#define GRT_W4_SET1(x) _mm256_set1_ps(x)\n"
    "#define GRT_W4_FMA(a, b, c) _mm256_fmadd_ps(a, b, c)\n"
    "#define GRT_W4_LOAD(p) _mm256_loadu_ps(p)\n"
    "#define GRT_W4_STORE(p, v) _mm256_storeu_ps(p, v)\n"
    // Fields e..e+15: 8 bytes (9 from a high nibble).
    "GRT_W4_INLINE void grt_w4_unpack(const uint8_t* B, int64_t e, int sgn,\n"
    "                                 grt_w4_v* b0, grt_w4_v* b1) {\n"
    "  const uint8_t* p = B + (e >> 1);\n"
    "  uint64_t x;\n"
    "  memcpy(&x, p, 8);\n"
    "  if (e & 1) x = (x >> 4) | ((uint64_t)p[8] << 60);\n"
    "  const __m128i v = _mm_loadl_epi64((const __m128i*)&x);\n"
    "  const __m128i mask = _mm_set1_epi8(15);\n"
    "  const __m128i lo = _mm_and_si128(v, mask);\n"
    "  const __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), mask);\n"
    "  __m128i f = _mm_unpacklo_epi8(lo, hi);\n"
    "  if (sgn) {\n"
    "    const __m128i eight = _mm_set1_epi8(8);\n"
    "    f = _mm_sub_epi8(_mm_xor_si128(f, eight), eight);\n"
    "  }\n"
    "  *b0 = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(f));\n"
    "  *b1 = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(f, 8)));\n"
    "}\n"
    "#else\n"
    "#define GRT_W4_NR 16\n"
    "#endif\n"
    "static inline float grt_w4_field(const uint8_t* B, int64_t e, int sgn) {\n"
    "  int v = (B[e >> 1] >> (int)((e & 1) * 4)) & 15;\n"
    "  return (float)(sgn ? (v ^ 8) - 8 : v);\n"
    "}\n"
    // One panel row of fields e + j * sbn (j < nc, zeros after) as floats.
    "static inline void grt_w4_gather(const uint8_t* B, int64_t e, int64_t sbn, int64_t nc,\n"
    "                                 int sgn, float* t) {\n"
    "  for (int j = 0; j < GRT_W4_NR; ++j) t[j] = j < nc ? grt_w4_field(B, e + j * sbn, sgn) : 0.0f;\n"
    "}\n"
    // out[rows x NR] = a[rows] rows (stride sak along k) times the panel
    // whose row k starts at element e0 + k * sbk; |rows| is a constant
    // (6, or 1 for a single row) at each inlined call.
    "GRT_W4_INLINE void grt_w4_micro(const float* const* a, int64_t sak, const uint8_t* B,\n"
    "                                int64_t e0, int64_t sbn, int64_t sbk, int64_t K,\n"
    "                                int sgn, int64_t nc, float (*out)[GRT_W4_NR],\n"
    "                                const int rows) {\n"
    "  const int fast = sbn == 1 && nc == GRT_W4_NR;\n"
    "#if defined(GRT_W4_SIMD)\n"
    "  grt_w4_v c[6][2];\n"
    "  for (int i = 0; i < rows; ++i) c[i][0] = c[i][1] = GRT_W4_ZERO();\n"
    "  for (int64_t k = 0; k < K; ++k) {\n"
    "    const int64_t e = e0 + k * sbk;\n"
    "    grt_w4_v b0, b1;\n"
    "    if (fast) {\n"
    "#if defined(__GNUC__)\n"
    "      __builtin_prefetch((const void*)((uintptr_t)B + (uintptr_t)((e + 32 * sbk) >> 1)));\n"
    "#endif\n"
    "      grt_w4_unpack(B, e, sgn, &b0, &b1);\n"
    "    } else {\n"
    "      float t[GRT_W4_NR];\n"
    "      grt_w4_gather(B, e, sbn, nc, sgn, t);\n"
    "      b0 = GRT_W4_LOAD(t);\n"
    "      b1 = GRT_W4_LOAD(t + GRT_W4_VL);\n"
    "    }\n"
    "    for (int i = 0; i < rows; ++i) {\n"
    "      const grt_w4_v av = GRT_W4_SET1(a[i][k * sak]);\n"
    "      c[i][0] = GRT_W4_FMA(av, b0, c[i][0]);\n"
    "      c[i][1] = GRT_W4_FMA(av, b1, c[i][1]);\n"
    "    }\n"
    "  }\n"
    "  for (int i = 0; i < rows; ++i) {\n"
    "    GRT_W4_STORE(out[i], c[i][0]);\n"
    "    GRT_W4_STORE(out[i] + GRT_W4_VL, c[i][1]);\n"
    "  }\n"
    "#else\n"
    "  (void)fast;\n"
    "  for (int i = 0; i < rows; ++i) {\n"
    "    for (int j = 0; j < GRT_W4_NR; ++j) out[i][j] = 0.0f;\n"
    "  }\n"
    "  for (int64_t k = 0; k < K; ++k) {\n"
    "    float t[GRT_W4_NR];\n"
    "    grt_w4_gather(B, e0 + k * sbk, sbn, nc, sgn, t);\n"
    "    for (int i = 0; i < rows; ++i) {\n"
    "      const float av = a[i][k * sak];\n"
    "      for (int j = 0; j < GRT_W4_NR; ++j) out[i][j] += av * t[j];\n"
    "    }\n"
    "  }\n"
    "#endif\n"
    "}\n"
    "static void grt_w4gemm_block(const float* A, int64_t sam, int64_t sak,\n"
    "                             const uint8_t* B, int64_t boff, int64_t sbn,\n"
    "                             int64_t sbk, int64_t mr, int64_t nr, int64_t K,\n"
    "                             int sgn, float* cb, int64_t ldc) {\n"
    // K in slices of GRT_W4_KC, so a slice's rows of B (each panel's 8 or
    // 16 bytes of a row share its cache line with the next panels') stay in
    // L1 across the block's panels; the first slice stores, the others add.
    "  int64_t k0 = 0;\n"
    "  do {\n"
    "    const int64_t kc = K - k0 < GRT_W4_KC ? K - k0 : GRT_W4_KC;\n"
    "    for (int64_t n0 = 0; n0 < nr; n0 += GRT_W4_NR) {\n"
    "      const int64_t nc = nr - n0 < GRT_W4_NR ? nr - n0 : GRT_W4_NR;\n"
    "      const int64_t e0 = boff + n0 * sbn + k0 * sbk;\n"
    "      for (int64_t m0 = 0; m0 < mr; m0 += 6) {\n"
    "        const int64_t mc = mr - m0 < 6 ? mr - m0 : 6;\n"
    "        const float* a[6];\n"
    // Rows past the block (2 to 5 rows) repeat its first row; their sums
    // are dropped. A single row runs alone.
    "        for (int i = 0; i < 6; ++i) a[i] = A + (m0 + (i < mc ? i : 0)) * sam + k0 * sak;\n"
    "        float out[6][GRT_W4_NR];\n"
    "        if (mc == 1) {\n"
    "          grt_w4_micro(a, sak, B, e0, sbn, sbk, kc, sgn, nc, out, 1);\n"
    "        } else {\n"
    "          grt_w4_micro(a, sak, B, e0, sbn, sbk, kc, sgn, nc, out, 6);\n"
    "        }\n"
    "        for (int64_t i = 0; i < mc; ++i) {\n"
    "          float* c = cb + (m0 + i) * ldc + n0;\n"
    "          if (k0 == 0) {\n"
    "            memcpy(c, out[i], (size_t)nc * sizeof(float));\n"
    "          } else {\n"
    "            for (int64_t j = 0; j < nc; ++j) c[j] += out[i][j];\n"
    "          }\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "    k0 += GRT_W4_KC;\n"
    "  } while (k0 < K);\n"
    "}\n"
    "\n";

void grtc_cpu_emit_w4gemm_support(grt_string_builder_t* out) {
  grt_string_builder_append_cstring(out, grtc_cpu_w4_text);
}

bool grtc_cpu_w4gemm_shape(const grtc_kernel_t* kernel) {
  const grtc_kmatmul_t* mm = &kernel->matmul;
  return mm->lhs_elem == GRTC_ELEM_F32 &&
         (mm->rhs_elem == GRTC_ELEM_I8 || mm->rhs_elem == GRTC_ELEM_U8) &&
         grtc_cpu_gemm_from_zero(kernel, GRTC_ELEM_F32);
}

bool grtc_cpu_w4gemm_supported(const grtc_kernel_t* kernel) {
  return kernel->matmul.rhs_packed4 && grtc_cpu_w4gemm_shape(kernel);
}

// Blocking of the tile: C blocks of |rows| x |cols| f32 (leading dimension
// |ldc|, a multiple of 32: every variant's panel width divides it).
#define GRTC_CPU_W4_ROWS 96
#define GRTC_CPU_W4_COLS 256
typedef struct grtc_cpu_w4_geometry_t {
  int64_t rows, cols, ldc;
  uint64_t scratch_bytes;
} grtc_cpu_w4_geometry_t;

static grtc_cpu_w4_geometry_t grtc_cpu_w4_geometry(const grtc_kernel_t* kernel) {
  uint32_t r = kernel->parallel_rank;
  int64_t tile_m = grtc_cpu_tile_size(kernel, r - 2);
  int64_t tile_n = grtc_cpu_tile_size(kernel, r - 1);
  grtc_cpu_w4_geometry_t g;
  g.rows = tile_m < GRTC_CPU_W4_ROWS ? tile_m : GRTC_CPU_W4_ROWS;
  g.cols = tile_n < GRTC_CPU_W4_COLS ? tile_n : GRTC_CPU_W4_COLS;
  if (g.rows < 1) g.rows = 1;
  if (g.cols < 1) g.cols = 1;
  g.ldc = (g.cols + 31) / 32 * 32;
  g.scratch_bytes = (uint64_t)g.rows * (uint64_t)g.ldc * 4u;
  return g;
}

uint64_t grtc_cpu_w4gemm_scratch_bytes(const grtc_kernel_t* kernel) {
  return grtc_cpu_w4_geometry(kernel).scratch_bytes;
}

void grtc_cpu_emit_w4gemm_loops(const grtc_kernel_t* kernel, grt_string_builder_t* out,
                                grtc_cpu_epilogue_fn_t epilogue, void* user) {
  const grtc_kmatmul_t* mm = &kernel->matmul;
  grtc_cpu_w4_geometry_t g = grtc_cpu_w4_geometry(kernel);
  uint32_t rank = kernel->parallel_rank, dm = rank - 2, dn = rank - 1;
  grt_string_builder_append_cstring(out, "  float* cb = (float*)wg->local_memory;\n");
  uint32_t depth = 1;
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(out, "%sfor (int64_t p%u = lo%u; p%u < hi%u; ++p%u) {\n",
                               grtc_cpu_loop_indent(depth++), d, d, d, d, d);
  }
  const char* in = grtc_cpu_loop_indent(depth);
  grt_string_builder_appendf(out, "%sconst float* A = (const float*)b%u", in,
                             mm->lhs_binding);
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(out, " + p%u * %" PRId64, d, mm->lhs_batch_strides[d]);
  }
  grt_string_builder_appendf(out, ";\n%sconst int64_t boff = 0", in);
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(out, " + p%u * %" PRId64, d, mm->rhs_batch_strides[d]);
  }
  grt_string_builder_appendf(
      out,
      ";\n"
      "%sfor (int64_t m0 = lo%u; m0 < hi%u; m0 += %" PRId64 ") {\n"
      "%s  const int64_t mr = hi%u - m0 < %" PRId64 " ? hi%u - m0 : %" PRId64 ";\n"
      "%s  for (int64_t n0 = lo%u; n0 < hi%u; n0 += %" PRId64 ") {\n"
      "%s    const int64_t nr = hi%u - n0 < %" PRId64 " ? hi%u - n0 : %" PRId64 ";\n"
      "%s    grt_w4gemm_block(A + m0 * %" PRId64 ", %" PRId64 ", %" PRId64
      ", (const uint8_t*)b%u, boff + n0 * %" PRId64 ", %" PRId64 ", %" PRId64
      ", mr, nr, %" PRId64 ", %d, cb, %" PRId64 ");\n"
      "%s    for (int64_t p%u = m0; p%u < m0 + mr; ++p%u) {\n"
      "%s      const float* crow = cb + (p%u - m0) * %" PRId64 " - n0;\n"
      "%s      for (int64_t p%u = n0; p%u < n0 + nr; ++p%u) {\n",
      in, dm, dm, g.rows, in, dm, g.rows, dm, g.rows, in, dn, dn, g.cols, in, dn,
      g.cols, dn, g.cols, in, mm->lhs_stride_m, mm->lhs_stride_m, mm->lhs_stride_k,
      mm->rhs_binding, mm->rhs_stride_n, mm->rhs_stride_n, mm->rhs_stride_k, mm->k,
      mm->rhs_elem == GRTC_ELEM_I8 ? 1 : 0, g.ldc, in, dm, dm, dm, in, dm, g.ldc, in, dn,
      dn, dn);
  char value[32];
  snprintf(value, sizeof(value), "crow[p%u]", dn);
  epilogue(user, depth + 4, value);
  for (uint32_t level = depth + 4; level-- > 1;) {
    grt_string_builder_appendf(out, "%s}\n", grtc_cpu_loop_indent(level));
  }
}

// The int8 GEMM that i8 x i8 -> i32 MATMUL kernels call, emitted once per
// generated file when used, and the tile loops around it.
//
// grt_igemm_block computes cb[M x N] (i32) = A[M x K] * B[K x N] (i8, any
// element strides) for one block of a workgroup's tile, blocked like the
// f32 GEMM (gemm.c): K in GRT_IG_KC slices, the B slice packed into
// GRT_IG_NR-column panels, A in GRT_IG_MC-row blocks of GRT_IG_MR-row
// panels, and a register-blocked micro-kernel over one A and one B panel.
// The packing groups GRT_IG_KG consecutive k values of a row (A) or column
// (B) together, so one 32-bit lane holds them; which instructions run is
// chosen by the C compiler's target macros (--cpu-features):
//   - AVX-512 VNNI (and BW): vpdpbusd adds four u8 x s8 products per i32
//     lane. A is stored with 128 added (a ^ 0x80, so u8), which adds
//     128 * (column sum of B) to every result; the column sums are taken
//     while B is packed and subtracted at the end. 8 x 32 tile, KG 4.
//   - AArch64 with the dot product extension (--cpu-features=dotprod):
//     sdot by lane (four i8 x i8 products per i32 lane, signed on both
//     sides, so no offset). 8 x 8, KG 4.
//   - AVX2: vpmaddwd on values sign-extended to i16 while packing (two
//     i16 x i16 products per i32 lane, exact, no saturation). 6 x 16, KG 2.
//   - otherwise portable C on i16-packed values, 4 x 16, KG 1.
// All three give the exact i32 sums (arithmetic modulo 2^32, as the
// generic kernel loops' i32 accumulation).
#include <inttypes.h>
#include <stdio.h>

#include "compiler/target/cpu/cpu_internal.h"

static const char grtc_cpu_igemm_text[] =
    "#define GRT_IG_KC 512\n"
    "#define GRT_IG_MC 96\n"
    "#if defined(__AVX512VNNI__) && defined(__AVX512BW__) && defined(__AVX512F__)\n"
    "#include <immintrin.h>\n"
    "#define GRT_IG_VNNI 1\n"
    "#define GRT_IG_NR 32\n"
    "#define GRT_IG_MR 8\n"
    "#define GRT_IG_KG 4\n"
    "typedef uint8_t grt_ig_a_t;\n"
    "typedef int8_t grt_ig_b_t;\n"
    "#define GRT_IG_A(x) ((uint8_t)((x) ^ 0x80))\n"
    "#elif defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)\n"
    "#include <arm_neon.h>\n"
    "#define GRT_IG_SDOT 1\n"
    "#define GRT_IG_NR 8\n"
    "#define GRT_IG_MR 8\n"
    "#define GRT_IG_KG 4\n"
    "typedef int8_t grt_ig_a_t;\n"
    "typedef int8_t grt_ig_b_t;\n"
    "#define GRT_IG_A(x) ((int8_t)(x))\n"
    // GCC declares the sdot intrinsics for armv8.2-a, which -march=armv8-a
    // plus dotprod does not include: the micro-kernel asks for it (the
    // feature macro says the machine has the instruction).
    "#if defined(__clang__)\n"
    "#define GRT_IG_TARGET\n"
    "#else\n"
    "#define GRT_IG_TARGET __attribute__((target(\"arch=armv8.2-a+dotprod\")))\n"
    "#endif\n"
    "#elif defined(__AVX2__)\n"
    "#include <immintrin.h>\n"
    "#define GRT_IG_AVX2 1\n"
    "#define GRT_IG_NR 16\n"
    "#define GRT_IG_MR 6\n"
    "#define GRT_IG_KG 2\n"
    "typedef int16_t grt_ig_a_t;\n"
    "typedef int16_t grt_ig_b_t;\n"
    "#define GRT_IG_A(x) ((int16_t)(x))\n"
    "#else\n"
    "#define GRT_IG_NR 16\n"
    "#define GRT_IG_MR 4\n"
    "#define GRT_IG_KG 1\n"
    "typedef int16_t grt_ig_a_t;\n"
    "typedef int16_t grt_ig_b_t;\n"
    "#define GRT_IG_A(x) ((int16_t)(x))\n"
    "#endif\n"
    // The scratch after the C block (the compiler sizes it for the widest
    // variant): NR column sums, the B panels (one spare group each, so
    // the panels' store streams do not alias), the A block.
    "#define GRT_IG_BP_BYTES(ldc) ((size_t)(GRT_IG_KC + 4) * (size_t)(ldc) * 2u)\n"
    "#if defined(GRT_IG_VNNI)\n"
    "#define GRT_IG_LOAD_C(r) \\\n"
    "  __m512i c##r##0 = _mm512_setzero_si512(), c##r##1 = _mm512_setzero_si512(); \\\n"
    "  if (load) { c##r##0 = _mm512_loadu_si512(c + (r) * ldc); c##r##1 = _mm512_loadu_si512(c + (r) * ldc + 16); }\n"
    "#define GRT_IG_DOT(r) { int32_t w; memcpy(&w, a + (g * GRT_IG_MR + (r)) * 4, 4); \\\n"
    "  const __m512i av = _mm512_set1_epi32(w); \\\n"
    "  c##r##0 = _mm512_dpbusd_epi32(c##r##0, av, b0); c##r##1 = _mm512_dpbusd_epi32(c##r##1, av, b1); }\n"
    "#define GRT_IG_STORE_C(r) \\\n"
    "  _mm512_storeu_si512(c + (r) * ldc, c##r##0); _mm512_storeu_si512(c + (r) * ldc + 16, c##r##1);\n"
    // Four rows of 16 contiguous columns (s, skb apart) into 16 lanes at
    // d: byte interleaving gives the 64 bytes at once, and one vpdpbusd
    // with ones adds each column's four values to its sum at cs.
    "GRT_I void grt_ig_pack16(int8_t* d, const int8_t* s, int64_t skb, int32_t* cs) {\n"
    "  const __m128i r0 = _mm_loadu_si128((const __m128i*)(const void*)s);\n"
    "  const __m128i r1 = _mm_loadu_si128((const __m128i*)(const void*)(s + skb));\n"
    "  const __m128i r2 = _mm_loadu_si128((const __m128i*)(const void*)(s + 2 * skb));\n"
    "  const __m128i r3 = _mm_loadu_si128((const __m128i*)(const void*)(s + 3 * skb));\n"
    "  const __m128i t0 = _mm_unpacklo_epi8(r0, r1), t1 = _mm_unpackhi_epi8(r0, r1);\n"
    "  const __m128i t2 = _mm_unpacklo_epi8(r2, r3), t3 = _mm_unpackhi_epi8(r2, r3);\n"
    "  const __m512i v = _mm512_inserti64x4(_mm512_castsi256_si512(\n"
    "      _mm256_set_m128i(_mm_unpackhi_epi16(t0, t2), _mm_unpacklo_epi16(t0, t2))),\n"
    "      _mm256_set_m128i(_mm_unpackhi_epi16(t1, t3), _mm_unpacklo_epi16(t1, t3)), 1);\n"
    "  _mm512_storeu_si512(d, v);\n"
    "  _mm512_storeu_si512(cs, _mm512_dpbusd_epi32(_mm512_loadu_si512(cs), _mm512_set1_epi8(1), v));\n"
    "}\n"
    "static void grt_ig_micro(int load, int64_t groups, const grt_ig_a_t* restrict a,\n"
    "                         const grt_ig_b_t* restrict b, int32_t* restrict c, int64_t ldc) {\n"
    "  GRT_IG_LOAD_C(0) GRT_IG_LOAD_C(1) GRT_IG_LOAD_C(2) GRT_IG_LOAD_C(3)\n"
    "  GRT_IG_LOAD_C(4) GRT_IG_LOAD_C(5) GRT_IG_LOAD_C(6) GRT_IG_LOAD_C(7)\n"
    "  for (int64_t g = 0; g < groups; ++g) {\n"
    "    const __m512i b0 = _mm512_loadu_si512(b + g * 128), b1 = _mm512_loadu_si512(b + g * 128 + 64);\n"
    "    GRT_IG_DOT(0) GRT_IG_DOT(1) GRT_IG_DOT(2) GRT_IG_DOT(3)\n"
    "    GRT_IG_DOT(4) GRT_IG_DOT(5) GRT_IG_DOT(6) GRT_IG_DOT(7)\n"
    "  }\n"
    "  GRT_IG_STORE_C(0) GRT_IG_STORE_C(1) GRT_IG_STORE_C(2) GRT_IG_STORE_C(3)\n"
    "  GRT_IG_STORE_C(4) GRT_IG_STORE_C(5) GRT_IG_STORE_C(6) GRT_IG_STORE_C(7)\n"
    "}\n"
    "#elif defined(GRT_IG_SDOT)\n"
    // Rows 0-3 of a group in one vector, 4-7 in another; lane r of it is
    // row r's four values, which sdot multiplies into each column's four.
    "#define GRT_IG_LOAD_C(r) \\\n"
    "  int32x4_t c##r##0 = vdupq_n_s32(0), c##r##1 = vdupq_n_s32(0); \\\n"
    "  if (load) { c##r##0 = vld1q_s32(c + (r) * ldc); c##r##1 = vld1q_s32(c + (r) * ldc + 4); }\n"
    "#define GRT_IG_DOT(r, av, lane) \\\n"
    "  c##r##0 = vdotq_laneq_s32(c##r##0, b0, av, lane); c##r##1 = vdotq_laneq_s32(c##r##1, b1, av, lane);\n"
    "#define GRT_IG_STORE_C(r) \\\n"
    "  vst1q_s32(c + (r) * ldc, c##r##0); vst1q_s32(c + (r) * ldc + 4, c##r##1);\n"
    "GRT_IG_TARGET static void grt_ig_micro(int load, int64_t groups, const grt_ig_a_t* restrict a,\n"
    "                         const grt_ig_b_t* restrict b, int32_t* restrict c, int64_t ldc) {\n"
    "  GRT_IG_LOAD_C(0) GRT_IG_LOAD_C(1) GRT_IG_LOAD_C(2) GRT_IG_LOAD_C(3)\n"
    "  GRT_IG_LOAD_C(4) GRT_IG_LOAD_C(5) GRT_IG_LOAD_C(6) GRT_IG_LOAD_C(7)\n"
    "  for (int64_t g = 0; g < groups; ++g) {\n"
    "    const int8x16_t a0 = vld1q_s8(a + g * 32), a1 = vld1q_s8(a + g * 32 + 16);\n"
    "    const int8x16_t b0 = vld1q_s8(b + g * 32), b1 = vld1q_s8(b + g * 32 + 16);\n"
    "    GRT_IG_DOT(0, a0, 0) GRT_IG_DOT(1, a0, 1) GRT_IG_DOT(2, a0, 2) GRT_IG_DOT(3, a0, 3)\n"
    "    GRT_IG_DOT(4, a1, 0) GRT_IG_DOT(5, a1, 1) GRT_IG_DOT(6, a1, 2) GRT_IG_DOT(7, a1, 3)\n"
    "  }\n"
    "  GRT_IG_STORE_C(0) GRT_IG_STORE_C(1) GRT_IG_STORE_C(2) GRT_IG_STORE_C(3)\n"
    "  GRT_IG_STORE_C(4) GRT_IG_STORE_C(5) GRT_IG_STORE_C(6) GRT_IG_STORE_C(7)\n"
    "}\n"
    "#elif defined(GRT_IG_AVX2)\n"
    "#define GRT_IG_LOAD_C(r) \\\n"
    "  __m256i c##r##0 = _mm256_setzero_si256(), c##r##1 = _mm256_setzero_si256(); \\\n"
    "  if (load) { c##r##0 = _mm256_loadu_si256((const __m256i*)(c + (r) * ldc)); \\\n"
    "              c##r##1 = _mm256_loadu_si256((const __m256i*)(c + (r) * ldc + 8)); }\n"
    "#define GRT_IG_DOT(r) { int32_t w; memcpy(&w, a + (g * GRT_IG_MR + (r)) * 2, 4); \\\n"
    "  const __m256i av = _mm256_set1_epi32(w); \\\n"
    "  c##r##0 = _mm256_add_epi32(c##r##0, _mm256_madd_epi16(av, b0)); \\\n"
    "  c##r##1 = _mm256_add_epi32(c##r##1, _mm256_madd_epi16(av, b1)); }\n"
    "#define GRT_IG_STORE_C(r) \\\n"
    "  _mm256_storeu_si256((__m256i*)(c + (r) * ldc), c##r##0); \\\n"
    "  _mm256_storeu_si256((__m256i*)(c + (r) * ldc + 8), c##r##1);\n"
    // Two rows of 16 contiguous columns into 16 lanes at d: the bytes
    // interleaved, then sign-extended to i16 pairs (no column sums).
    "GRT_I void grt_ig_pack16(int16_t* d, const int8_t* s, int64_t skb, int32_t* cs) {\n"
    "  (void)cs;\n"
    "  const __m128i r0 = _mm_loadu_si128((const __m128i*)(const void*)s);\n"
    "  const __m128i r1 = _mm_loadu_si128((const __m128i*)(const void*)(s + skb));\n"
    "  _mm256_storeu_si256((__m256i*)(void*)d, _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(r0, r1)));\n"
    "  _mm256_storeu_si256((__m256i*)(void*)(d + 16), _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(r0, r1)));\n"
    "}\n"
    "static void grt_ig_micro(int load, int64_t groups, const grt_ig_a_t* restrict a,\n"
    "                         const grt_ig_b_t* restrict b, int32_t* restrict c, int64_t ldc) {\n"
    "  GRT_IG_LOAD_C(0) GRT_IG_LOAD_C(1) GRT_IG_LOAD_C(2)\n"
    "  GRT_IG_LOAD_C(3) GRT_IG_LOAD_C(4) GRT_IG_LOAD_C(5)\n"
    "  for (int64_t g = 0; g < groups; ++g) {\n"
    "    const __m256i b0 = _mm256_loadu_si256((const __m256i*)(b + g * 32)),\n"
    "                  b1 = _mm256_loadu_si256((const __m256i*)(b + g * 32 + 16));\n"
    "    GRT_IG_DOT(0) GRT_IG_DOT(1) GRT_IG_DOT(2)\n"
    "    GRT_IG_DOT(3) GRT_IG_DOT(4) GRT_IG_DOT(5)\n"
    "  }\n"
    "  GRT_IG_STORE_C(0) GRT_IG_STORE_C(1) GRT_IG_STORE_C(2)\n"
    "  GRT_IG_STORE_C(3) GRT_IG_STORE_C(4) GRT_IG_STORE_C(5)\n"
    "}\n"
    "#else\n"
    "static void grt_ig_micro(int load, int64_t groups, const grt_ig_a_t* restrict a,\n"
    "                         const grt_ig_b_t* restrict b, int32_t* restrict c, int64_t ldc) {\n"
    "  uint32_t acc[GRT_IG_MR][GRT_IG_NR];\n"
    "  for (int r = 0; r < GRT_IG_MR; ++r) {\n"
    "    for (int j = 0; j < GRT_IG_NR; ++j) acc[r][j] = load ? (uint32_t)c[r * ldc + j] : 0u;\n"
    "  }\n"
    "  for (int64_t g = 0; g < groups; ++g) {\n"
    "    for (int r = 0; r < GRT_IG_MR; ++r) {\n"
    "      const int32_t ar = a[g * GRT_IG_MR + r];\n"
    "      for (int j = 0; j < GRT_IG_NR; ++j) acc[r][j] += (uint32_t)(ar * b[g * GRT_IG_NR + j]);\n"
    "    }\n"
    "  }\n"
    "  for (int r = 0; r < GRT_IG_MR; ++r) {\n"
    "    for (int j = 0; j < GRT_IG_NR; ++j) c[r * ldc + j] = (int32_t)acc[r][j];\n"
    "  }\n"
    "}\n"
    "#endif\n"
    "GRT_O void grt_igemm_block(const int8_t* a, int64_t sm, int64_t sk,\n"
    "                           const int8_t* b, int64_t skb, int64_t sn,\n"
    "                           int64_t m, int64_t n, int64_t k,\n"
    "                           unsigned char* restrict ws, int32_t* restrict cb, int64_t ldc) {\n"
    "  const int64_t mp = (m + GRT_IG_MR - 1) / GRT_IG_MR * GRT_IG_MR;\n"
    "  const int64_t np = (n + GRT_IG_NR - 1) / GRT_IG_NR * GRT_IG_NR;\n"
    "  int32_t* colsum = (int32_t*)(void*)ws;\n"
    "  grt_ig_b_t* bp = (grt_ig_b_t*)(void*)(ws + (size_t)ldc * 4u);\n"
    "  grt_ig_a_t* ap = (grt_ig_a_t*)(void*)(ws + (size_t)ldc * 4u + GRT_IG_BP_BYTES(ldc));\n"
    // The first K slice's micro-kernels start from 0 and write every
    // element of the mp x np block; with no K at all it is zeroed here.
    "  if (k <= 0) {\n"
    "    for (int64_t i = 0; i < mp; ++i) memset(cb + i * ldc, 0, (size_t)np * sizeof(int32_t));\n"
    "  }\n"
    "  memset(colsum, 0, (size_t)np * sizeof(int32_t));\n"
    "  for (int64_t k0 = 0; k0 < k; k0 += GRT_IG_KC) {\n"
    "    const int64_t kc = k - k0 < GRT_IG_KC ? k - k0 : GRT_IG_KC;\n"
    "    const int64_t kcp = (kc + GRT_IG_KG - 1) / GRT_IG_KG * GRT_IG_KG;\n"
    "    const int64_t ps = (kcp + GRT_IG_KG) * GRT_IG_NR;\n"
    // B row by row (sequential reads) into the panels: column j's value of
    // row kk at panel j / NR, group kk / KG, lane j % NR, slot kk % KG;
    // zeros past n and past kc.
    "    if (n % GRT_IG_NR || kc % GRT_IG_KG) {\n"
    "      memset(bp, 0, (size_t)(np / GRT_IG_NR * ps) * sizeof(grt_ig_b_t));\n"
    "    }\n"
    "    int64_t kb = 0;\n"
    "#if defined(GRT_IG_VNNI) || defined(GRT_IG_AVX2)\n"
    // Contiguous rows KG at a time, 16 columns at a time (grt_ig_pack16).
    "    if (sn == 1) {\n"
    "      for (; kb + GRT_IG_KG <= kc; kb += GRT_IG_KG) {\n"
    "        const int8_t* s0 = b + (k0 + kb) * skb;\n"
    "        grt_ig_b_t* dst = bp + kb * GRT_IG_NR;\n"
    "        int64_t j = 0;\n"
    "        for (; j + 16 <= n; j += 16) {\n"
    "          grt_ig_pack16(dst + (j / GRT_IG_NR) * ps + (j % GRT_IG_NR) * GRT_IG_KG, s0 + j, skb,\n"
    "                        colsum + j);\n"
    "        }\n"
    "        for (; j < n; ++j) {\n"
    "          grt_ig_b_t* d = dst + (j / GRT_IG_NR) * ps + (j % GRT_IG_NR) * GRT_IG_KG;\n"
    "          for (int t = 0; t < GRT_IG_KG; ++t) {\n"
    "            d[t] = s0[t * skb + j];\n"
    "#if defined(GRT_IG_VNNI)\n"
    "            colsum[j] += d[t];\n"
    "#endif\n"
    "          }\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "#endif\n"
    "    for (; kb < kc; ++kb) {\n"
    "      const int8_t* src = b + (k0 + kb) * skb;\n"
    "      grt_ig_b_t* dst = bp + (kb / GRT_IG_KG) * GRT_IG_NR * GRT_IG_KG + kb % GRT_IG_KG;\n"
    "      for (int64_t j = 0; j < n; ++j) {\n"
    "        const int8_t v = src[j * sn];\n"
    "        dst[(j / GRT_IG_NR) * ps + (j % GRT_IG_NR) * GRT_IG_KG] = v;\n"
    "#if defined(GRT_IG_VNNI)\n"
    "        colsum[j] += v;\n"
    "#endif\n"
    "      }\n"
    "    }\n"
    "    for (int64_t m0 = 0; m0 < m; m0 += GRT_IG_MC) {\n"
    "      const int64_t mc = m - m0 < GRT_IG_MC ? m - m0 : GRT_IG_MC;\n"
    "      const int64_t mcp = (mc + GRT_IG_MR - 1) / GRT_IG_MR * GRT_IG_MR;\n"
    // MR rows at a time: row r's group g at (g * MR + r) * KG; rows past m
    // and slots past kc hold A(0) (they meet zeros of B or padding rows).
    "      for (int64_t i = 0; i < mcp; i += GRT_IG_MR) {\n"
    "        grt_ig_a_t* panel = ap + i * kcp;\n"
    "        for (int64_t r = 0; r < GRT_IG_MR; ++r) {\n"
    "          const int8_t* row = m0 + i + r < m ? a + (m0 + i + r) * sm + k0 * sk : NULL;\n"
    "          grt_ig_a_t* dst = panel + r * GRT_IG_KG;\n"
    "          int64_t kk = 0;\n"
    "#if defined(GRT_IG_VNNI) || defined(GRT_IG_SDOT)\n"
    // Contiguous rows four values at a time: one 32-bit word (for VNNI
    // with 128 added to each byte by flipping its top bit).
    "          if (row && sk == 1) {\n"
    "            for (; kk + 4 <= kc; kk += 4) {\n"
    "              uint32_t w; memcpy(&w, row + kk, 4);\n"
    "#if defined(GRT_IG_VNNI)\n"
    "              w ^= 0x80808080u;\n"
    "#endif\n"
    "              memcpy(dst + kk * GRT_IG_MR, &w, 4);\n"
    "            }\n"
    "          }\n"
    "#elif defined(GRT_IG_AVX2)\n"
    "          if (row && sk == 1) {\n"
    "            for (; kk + 2 <= kc; kk += 2) {\n"
    "              dst[kk * GRT_IG_MR] = row[kk]; dst[kk * GRT_IG_MR + 1] = row[kk + 1];\n"
    "            }\n"
    "          }\n"
    "#endif\n"
    "          for (; kk < kcp; ++kk) {\n"
    "            const int8_t v = row && kk < kc ? row[kk * sk] : 0;\n"
    "            dst[(kk / GRT_IG_KG) * GRT_IG_MR * GRT_IG_KG + kk % GRT_IG_KG] = GRT_IG_A(v);\n"
    "          }\n"
    "        }\n"
    "      }\n"
    "      for (int64_t j = 0; j < np; j += GRT_IG_NR) {\n"
    "        for (int64_t i = 0; i < mcp; i += GRT_IG_MR) {\n"
    "          grt_ig_micro(k0 > 0, kcp / GRT_IG_KG, ap + i * kcp, bp + (j / GRT_IG_NR) * ps,\n"
    "                       cb + (m0 + i) * ldc + j, ldc);\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "#if defined(GRT_IG_VNNI)\n"
    // (a + 128) b summed over k is a b plus 128 times B's column sum.
    "  for (int64_t i = 0; i < m; ++i) {\n"
    "    for (int64_t j = 0; j < n; ++j) {\n"
    "      cb[i * ldc + j] = (int32_t)((uint32_t)cb[i * ldc + j] - 128u * (uint32_t)colsum[j]);\n"
    "    }\n"
    "  }\n"
    "#endif\n"
    "}\n"
    "\n";

void grtc_cpu_emit_igemm_support(grt_string_builder_t* out) {
  grt_string_builder_append_cstring(out, grtc_cpu_igemm_text);
}

bool grtc_cpu_gemm_from_zero(const grtc_kernel_t* kernel, grtc_elem_t acc) {
  if (kernel->kind != GRTC_KERNEL_LOOP || kernel->acc_count != 1 || kernel->serial ||
      kernel->pattern != GRTC_KPATTERN_MATMUL || kernel->parallel_rank < 2 ||
      kernel->matmul.acc_elem != acc || kernel->accs[0].type != acc ||
      grtc_kernel_is_symbolic(kernel)) {
    // Sizes known only at the call (symbolic extents) run the generic loops.
    return false;
  }
  // The GEMM starts from 0; another initial value runs the generic loops.
  const grtc_kinst_t* init = &kernel->insts[kernel->accs[0].init];
  return init->kind == GRTC_KINST_CONST &&
         (acc == GRTC_ELEM_F32 ? init->value.f == 0.0 : init->value.i == 0);
}

bool grtc_cpu_igemm_supported(const grtc_kernel_t* kernel) {
  return kernel->matmul.lhs_elem == GRTC_ELEM_I8 && kernel->matmul.rhs_elem == GRTC_ELEM_I8 &&
         grtc_cpu_gemm_from_zero(kernel, GRTC_ELEM_I32);
}

// Blocking of the tile: C blocks of |rows| x |cols| i32 (leading dimension
// |ldc|, a multiple of every variant's NR; rows padded to a multiple of
// every variant's MR: 8, 6 and 4).
#define GRTC_CPU_IGEMM_ROWS 1024
#define GRTC_CPU_IGEMM_COLS 256
#define GRTC_CPU_IGEMM_KC 512  // GRT_IG_KC
#define GRTC_CPU_IGEMM_MC 96   // GRT_IG_MC
typedef struct grtc_cpu_igemm_geometry_t {
  int64_t rows, cols, ldc, rows_padded;
  uint64_t scratch_bytes;
} grtc_cpu_igemm_geometry_t;

// grt_igemm_block's workspace for C blocks |ldc| wide: column sums, B
// panels and A block, in i16 (the widest packing) with one spare group of
// 4 per panel.
static uint64_t grtc_cpu_igemm_ws_bytes(int64_t ldc) {
  return (uint64_t)ldc * 4u + (uint64_t)(GRTC_CPU_IGEMM_KC + 4) * (uint64_t)ldc * 2u +
         (uint64_t)GRTC_CPU_IGEMM_MC * GRTC_CPU_IGEMM_KC * 2u;
}

static grtc_cpu_igemm_geometry_t grtc_cpu_igemm_geometry(const grtc_kernel_t* kernel) {
  uint32_t r = kernel->parallel_rank;
  int64_t tile_m = grtc_cpu_tile_size(kernel, r - 2);
  int64_t tile_n = grtc_cpu_tile_size(kernel, r - 1);
  grtc_cpu_igemm_geometry_t g;
  g.rows = tile_m < GRTC_CPU_IGEMM_ROWS ? tile_m : GRTC_CPU_IGEMM_ROWS;
  g.cols = tile_n < GRTC_CPU_IGEMM_COLS ? tile_n : GRTC_CPU_IGEMM_COLS;
  if (g.rows < 1) g.rows = 1;
  if (g.cols < 1) g.cols = 1;
  g.ldc = (g.cols + 31) / 32 * 32;
  g.rows_padded = (g.rows + 23) / 24 * 24;
  g.scratch_bytes =
      (uint64_t)g.rows_padded * (uint64_t)g.ldc * 4u + grtc_cpu_igemm_ws_bytes(g.ldc);
  return g;
}

uint64_t grtc_cpu_igemm_scratch_bytes(const grtc_kernel_t* kernel) {
  return grtc_cpu_igemm_geometry(kernel).scratch_bytes;
}

const char* grtc_cpu_loop_indent(uint32_t depth) {
  static const char spaces[] = "                                        ";
  uint32_t max = (uint32_t)sizeof(spaces) - 1;
  uint32_t n = 2 * depth < max ? 2 * depth : max;
  return spaces + max - n;
}

void grtc_cpu_emit_igemm_loops(const grtc_kernel_t* kernel, grt_string_builder_t* out,
                               grtc_cpu_epilogue_fn_t epilogue, void* user) {
  const grtc_kmatmul_t* mm = &kernel->matmul;
  grtc_cpu_igemm_geometry_t g = grtc_cpu_igemm_geometry(kernel);
  uint32_t rank = kernel->parallel_rank, dm = rank - 2, dn = rank - 1;
  grt_string_builder_appendf(out,
                             "  int32_t* cb = (int32_t*)wg->local_memory;\n"
                             "  unsigned char* ws = (unsigned char*)(cb + %" PRId64 ");\n",
                             g.rows_padded * g.ldc);
  uint32_t depth = 1;
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(out, "%sfor (int64_t p%u = lo%u; p%u < hi%u; ++p%u) {\n",
                               grtc_cpu_loop_indent(depth++), d, d, d, d, d);
  }
  const char* in = grtc_cpu_loop_indent(depth);
  grt_string_builder_appendf(out, "%sconst int8_t* A = (const int8_t*)b%u", in,
                             mm->lhs_binding);
  for (uint32_t d = 0; d < mm->batch_rank; ++d) {
    grt_string_builder_appendf(out, " + p%u * %" PRId64, d, mm->lhs_batch_strides[d]);
  }
  grt_string_builder_appendf(out, ";\n%sconst int8_t* B = (const int8_t*)b%u", in,
                             mm->rhs_binding);
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
      "%s    grt_igemm_block(A + m0 * %" PRId64 ", %" PRId64 ", %" PRId64
      ", B + n0 * %" PRId64 ", %" PRId64 ", %" PRId64 ", mr, nr, %" PRId64
      ", ws, cb, %" PRId64 ");\n"
      "%s    for (int64_t p%u = m0; p%u < m0 + mr; ++p%u) {\n"
      "%s      const int32_t* crow = cb + (p%u - m0) * %" PRId64 " - n0;\n"
      "%s      GRT_IVDEP\n"
      "%s      for (int64_t p%u = n0; p%u < n0 + nr; ++p%u) {\n",
      in, dm, dm, g.rows, in, dm, g.rows, dm, g.rows, in, dn, dn, g.cols, in, dn,
      g.cols, dn, g.cols, in, mm->lhs_stride_m, mm->lhs_stride_m, mm->lhs_stride_k,
      mm->rhs_stride_n, mm->rhs_stride_k, mm->rhs_stride_n, mm->k, g.ldc, in, dm, dm,
      dm, in, dm, g.ldc, in, in, dn, dn, dn);
  char value[32];
  snprintf(value, sizeof(value), "crow[p%u]", dn);
  epilogue(user, depth + 4, value);
  for (uint32_t level = depth + 4; level-- > 1;) {
    grt_string_builder_appendf(out, "%s}\n", grtc_cpu_loop_indent(level));
  }
}

//===----------------------------------------------------------------------===//
// i8 x i8 -> i32 CONV2D on the int8 GEMM
//===----------------------------------------------------------------------===//

bool grtc_cpu_iconv_supported(const grtc_kernel_t* kernel) {
  const grtc_kconv_t* cv = &kernel->conv;
  if (kernel->kind != GRTC_KERNEL_LOOP || kernel->acc_count != 1 || kernel->serial ||
      kernel->pattern != GRTC_KPATTERN_CONV2D || kernel->parallel_rank != 4 ||
      cv->input_elem != GRTC_ELEM_I8 || cv->filter_elem != GRTC_ELEM_I8 ||
      cv->acc_elem != GRTC_ELEM_I32 || kernel->accs[0].type != GRTC_ELEM_I32 ||
      cv->filter_packed || grtc_kernel_is_symbolic(kernel)) {
    return false;
  }
  bool ok = cv->groups >= 1 && cv->c >= 1 && cv->kh >= 1 && cv->kw >= 1 &&
            cv->c % cv->groups == 0 && cv->oc % cv->groups == 0 && cv->stride_h >= 1 &&
            cv->stride_w >= 1 && cv->dilation_h >= 1 && cv->dilation_w >= 1 && cv->h >= 1 &&
            cv->w >= 1;
  // An empty output runs the generic loops (zero times).
  const int64_t space[4] = {cv->n, cv->oh, cv->ow, cv->oc};
  for (uint32_t d = 0; ok && d < 4; ++d) {
    ok = kernel->parallel_dims[d] == space[d] && space[d] > 0;
  }
  const grtc_kinst_t* init = &kernel->insts[kernel->accs[0].init];
  return ok && init->kind == GRTC_KINST_CONST && init->value.i == 0;
}

// Blocking: per group of the tile's output channels (at most |mo| of
// them), the filter rows are copied once into a contiguous |mo| x K block
// (K = kh * kw * c/groups, ordered (ci, i, j)); per image, blocks of |rows|
// whole output rows of the tile (|pixels| = rows * tile width) are gathered
// into an im2col block of K x pixels i8 (zeros for padding), and
// grt_igemm_block multiplies the two into an |mo| x pixels i32 C block.
#define GRTC_CPU_ICONV_COL_BYTES 262144  // im2col block target
typedef struct grtc_cpu_iconv_geometry_t {
  int64_t cig, ocg, k, mo, tw, rows, pixels, ldc, rows_padded;
  // The filter's rows are already K contiguous values in (ci, i, j) order
  // (an OIHW filter, as ONNX gives them): the GEMM reads them in place,
  // with no copy (it was a byte-by-byte gather of the whole filter per
  // workgroup, most of a 512-channel layer's time).
  bool filter_in_place;
  uint64_t filter_bytes, col_bytes, scratch_bytes;
} grtc_cpu_iconv_geometry_t;

static int64_t grtc_cpu_iconv_min(int64_t a, int64_t b) { return a < b ? a : b; }

static grtc_cpu_iconv_geometry_t grtc_cpu_iconv_geometry(const grtc_kernel_t* kernel) {
  const grtc_kconv_t* cv = &kernel->conv;
  grtc_cpu_iconv_geometry_t g;
  g.cig = cv->c / cv->groups;
  g.ocg = cv->oc / cv->groups;
  g.k = cv->kh * cv->kw * g.cig;
  g.mo = grtc_cpu_iconv_min(grtc_cpu_tile_size(kernel, 3), g.ocg);
  g.tw = grtc_cpu_tile_size(kernel, 2);
  int64_t th = grtc_cpu_tile_size(kernel, 1);
  if (g.mo < 1) g.mo = 1;
  if (g.tw < 1) g.tw = 1;
  if (th < 1) th = 1;
  // 32 to 512 pixels, fewer as K grows, in whole rows of the tile.
  int64_t target = GRTC_CPU_ICONV_COL_BYTES / g.k;
  target = target < 32 ? 32 : target > 512 ? 512 : target;
  g.rows = grtc_cpu_iconv_min(th, target / g.tw < 1 ? 1 : target / g.tw);
  g.pixels = g.rows * g.tw;
  g.ldc = (g.pixels + 31) / 32 * 32;
  g.rows_padded = (g.mo + 23) / 24 * 24;
  const int64_t* fs = cv->filter_strides;
  g.filter_in_place = fs[1] == 1 && fs[0] == cv->kw && fs[2] == cv->kh * cv->kw;
  g.filter_bytes =
      g.filter_in_place ? 0 : ((uint64_t)g.mo * (uint64_t)g.k + 63) / 64 * 64;
  g.col_bytes = ((uint64_t)g.k * (uint64_t)g.pixels + 63) / 64 * 64;
  // Then the C block and grt_igemm_block's workspace.
  g.scratch_bytes = g.filter_bytes + g.col_bytes +
                    (uint64_t)g.rows_padded * (uint64_t)g.ldc * 4u +
                    grtc_cpu_igemm_ws_bytes(g.ldc);
  return g;
}

uint64_t grtc_cpu_iconv_scratch_bytes(const grtc_kernel_t* kernel) {
  return grtc_cpu_iconv_geometry(kernel).scratch_bytes;
}

void grtc_cpu_emit_iconv_loops(const grtc_kernel_t* kernel, grt_string_builder_t* out,
                               grtc_cpu_epilogue_fn_t epilogue, void* user) {
  const grtc_kconv_t* cv = &kernel->conv;
  grtc_cpu_iconv_geometry_t g = grtc_cpu_iconv_geometry(kernel);
  const int64_t* is = cv->input_strides;
  const int64_t* fs = cv->filter_strides;
  grt_string_builder_appendf(
      out,
      "  const int64_t H = %" PRId64 ", W = %" PRId64 ", KH = %" PRId64 ", KW = %" PRId64
      ", CIG = %" PRId64 ", OCG = %" PRId64 ", K = %" PRId64 ";\n"
      "  const int64_t SH = %" PRId64 ", SW = %" PRId64 ", PH = %" PRId64 ", PW = %" PRId64
      ", DH = %" PRId64 ", DW = %" PRId64 ";\n"
      "  const int64_t S0 = %" PRId64 ", S1 = %" PRId64 ", S2 = %" PRId64 ", S3 = %" PRId64
      ";\n"
      "  const int64_t F0 = %" PRId64 ", F1 = %" PRId64 ", F2 = %" PRId64 ", F3 = %" PRId64
      ";\n"
      "  const int64_t RB = %" PRId64 ", LDC = %" PRId64 ", FILTER_IN_PLACE = %d;\n"
      "  int8_t* fcopy = (int8_t*)wg->local_memory;\n"
      "  int8_t* col = fcopy + %" PRIu64 ";\n"
      "  int32_t* cb = (int32_t*)(void*)(col + %" PRIu64 ");\n"
      "  unsigned char* ws = (unsigned char*)(cb + %" PRId64 ");\n"
      "  const int8_t* IN = (const int8_t*)b%u;\n"
      "  const int8_t* FI = (const int8_t*)b%u;\n"
      "  const int64_t tw = hi2 - lo2;\n"
      "  for (int64_t g = lo3 / OCG; g * OCG < hi3; ++g) {\n"
      "    const int64_t oc_lo = g * OCG > lo3 ? g * OCG : lo3;\n"
      "    const int64_t oc_hi = (g + 1) * OCG < hi3 ? (g + 1) * OCG : hi3;\n"
      "    const int64_t mo = oc_hi - oc_lo;\n"
      // The filter rows of the group's channels, K contiguous values each,
      // FA apart: in place, or copied.
      "    const int8_t* fa = FI + oc_lo * F3;\n"
      "    int64_t FA = F3;\n"
      "    if (!FILTER_IN_PLACE) {\n"
      "      for (int64_t m = 0; m < mo; ++m) {\n"
      "        const int8_t* f = FI + (oc_lo + m) * F3;\n"
      "        int8_t* dst = fcopy + m * K;\n"
      "        for (int64_t ci = 0; ci < CIG; ++ci)\n"
      "          for (int64_t i = 0; i < KH; ++i)\n"
      "            for (int64_t j = 0; j < KW; ++j) *dst++ = f[ci * F2 + i * F0 + j * F1];\n"
      "      }\n"
      "      fa = fcopy;\n"
      "      FA = K;\n"
      "    }\n"
      "    for (int64_t p0 = lo0; p0 < hi0; ++p0) {\n"
      "      const int8_t* X = IN + p0 * S0 + g * CIG * S3;\n"
      "      for (int64_t y0 = lo1; y0 < hi1; y0 += RB) {\n"
      "        const int64_t yr = hi1 - y0 < RB ? hi1 - y0 : RB, np = yr * tw;\n"
      // im2col row k: tap (i, j) of input channel ci at every pixel of the
      // block; the output columns [xlo, xhi) read inside the input row.
      "        for (int64_t k = 0; k < K; ++k) {\n"
      "          const int64_t ci = k / (KH * KW), r = k %% (KH * KW), i = r / KW, j = r %% KW;\n"
      "          const int64_t xt = PW - j * DW, xu = W + PW - j * DW;\n"
      "          int64_t xlo = xt <= 0 ? 0 : (xt + SW - 1) / SW;\n"
      "          int64_t xhi = xu <= 0 ? 0 : (xu + SW - 1) / SW;\n"
      "          if (xlo < lo2) xlo = lo2;\n"
      "          if (xhi > hi2) xhi = hi2;\n"
      "          if (xlo > hi2) xlo = hi2;\n"
      "          if (xhi < xlo) xhi = xlo;\n"
      "          const int8_t* plane = X + ci * S3;\n"
      "          for (int64_t yy = 0; yy < yr; ++yy) {\n"
      "            const int64_t iy = (y0 + yy) * SH - PH + i * DH;\n"
      "            int8_t* dst = col + k * np + yy * tw - lo2;\n"
      "            if (iy < 0 || iy >= H) {\n"
      "              memset(dst + lo2, 0, (size_t)tw);\n"
      "              continue;\n"
      "            }\n"
      "            const int64_t base = iy * S1 + (j * DW - PW) * S2;\n"
      "            for (int64_t x = lo2; x < xlo; ++x) dst[x] = 0;\n"
      "            GRT_IVDEP\n"
      "            for (int64_t x = xlo; x < xhi; ++x) dst[x] = plane[base + x * SW * S2];\n"
      "            for (int64_t x = xhi; x < hi2; ++x) dst[x] = 0;\n"
      "          }\n"
      "        }\n"
      "        grt_igemm_block(fa, FA, 1, col, np, 1, mo, np, K, ws, cb, LDC);\n"
      "        for (int64_t p3 = oc_lo; p3 < oc_hi; ++p3) {\n"
      "          for (int64_t p1 = y0; p1 < y0 + yr; ++p1) {\n"
      "            const int32_t* crow = cb + (p3 - oc_lo) * LDC + (p1 - y0) * tw - lo2;\n"
      "            GRT_IVDEP\n"
      "            for (int64_t p2 = lo2; p2 < hi2; ++p2) {\n",
      cv->h, cv->w, cv->kh, cv->kw, g.cig, g.ocg, g.k, cv->stride_h, cv->stride_w, cv->pad_h,
      cv->pad_w, cv->dilation_h, cv->dilation_w, is[0], is[1], is[2], is[3], fs[0], fs[1],
      fs[2], fs[3], g.rows, g.ldc, g.filter_in_place ? 1 : 0, g.filter_bytes, g.col_bytes, g.rows_padded * g.ldc,
      cv->input_binding, cv->filter_binding);
  epilogue(user, 7, "crow[p2]");
  grt_string_builder_append_cstring(
      out, "            }\n          }\n        }\n      }\n    }\n  }\n");
}

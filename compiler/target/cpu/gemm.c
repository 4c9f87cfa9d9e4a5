// The f32 GEMM that MATMUL kernels call, emitted once per generated file:
// GotoBLAS-style blocking in portable C. GCC/Clang vector extensions
// (16 x f32 where the target has AVX-512, else 8 x f32) compile to AVX-512,
// AVX2+FMA or NEON pairs, so one source serves every --cpu-features choice.
//
// grt_gemm_block computes cb[M x N] = A[M x K] * B[K x N] for one block of
// a workgroup's tile, where A and B are addressed by element strides (any
// layout, batch offsets applied by the caller); B's row k starts at bk[k]
// instead of k * skb when bk is given (a convolution filter's (kh, kw, ci)
// rows in whatever layout it has). K is cut into KC slices; per
// slice the B slice is packed into GRT_NR-column panels (32 with AVX-512,
// else 16; zero padded, each with one spare row: (GRT_KC + 1) * ldc floats
// of scratch) and A in MC-row blocks of 6-row panels, and the 6 x GRT_NR
// micro-kernel keeps 12 vector accumulators in registers while it streams
// one A and one B panel. cb's leading dimension is a multiple of 32 (so of
// either GRT_NR) and its rows a multiple of 6, so the micro-kernel never
// needs an edge case.
#include "compiler/target/cpu/cpu_internal.h"

static const char grtc_cpu_gemm_text[] =
    "#define GRT_KC 256\n"
    "#define GRT_MC 96\n"
    // GRT_NR columns per B panel, two vectors of GRT_VL: 512-bit vectors
    // where the target has AVX-512 (a 6x32 tile in 12 zmm accumulators),
    // 256-bit ones elsewhere (6x16, AVX2 ymm or NEON pairs).
    "#if defined(__AVX512F__)\n"
    "#define GRT_NR 32\n"
    "typedef float grt_vf __attribute__((vector_size(64)));\n"
    "#else\n"
    "#define GRT_NR 16\n"
    "typedef float grt_vf __attribute__((vector_size(32)));\n"
    "#endif\n"
    "#define GRT_VL (GRT_NR / 2)\n"
    "GRT_I grt_vf grt_vf_load(const float* p) { grt_vf v; memcpy(&v, p, sizeof(v)); return v; }\n"
    "GRT_I void grt_vf_store(float* p, grt_vf v) { memcpy(p, &v, sizeof(v)); }\n"
    "#define GRT_ROW(r) \\\n"
    "  grt_vf c##r##0 = zero, c##r##1 = zero; \\\n"
    "  if (!first) { c##r##0 = grt_vf_load(c + (r) * ldc); c##r##1 = grt_vf_load(c + (r) * ldc + GRT_VL); }\n"
    "#define GRT_FMA(r) \\\n"
    "  { const float ar = a[6 * k + (r)]; c##r##0 += b0 * ar; c##r##1 += b1 * ar; }\n"
    "#define GRT_STORE(r) \\\n"
    "  grt_vf_store(c + (r) * ldc, c##r##0); grt_vf_store(c + (r) * ldc + GRT_VL, c##r##1);\n"
    "static void grt_gemm_micro(int64_t kc, const float* restrict a,\n"
    "                           const float* restrict b, float* restrict c,\n"
    "                           int64_t ldc, int first) {\n"
    "  const grt_vf zero = {0};\n"
    "  GRT_ROW(0) GRT_ROW(1) GRT_ROW(2) GRT_ROW(3) GRT_ROW(4) GRT_ROW(5)\n"
    "  for (int64_t k = 0; k < kc; ++k) {\n"
    "    const grt_vf b0 = grt_vf_load(b + GRT_NR * k), b1 = grt_vf_load(b + GRT_NR * k + GRT_VL);\n"
    "    GRT_FMA(0) GRT_FMA(1) GRT_FMA(2) GRT_FMA(3) GRT_FMA(4) GRT_FMA(5)\n"
    "  }\n"
    "  GRT_STORE(0) GRT_STORE(1) GRT_STORE(2) GRT_STORE(3) GRT_STORE(4) GRT_STORE(5)\n"
    "}\n"
    // The last B panel when it holds at most GRT_VL real columns (196 = 6 *
    // 32 + 4 pixels of a 14x14 layer): one vector per row, in two sets of
    // accumulators over alternate k, since six single FMA chains would
    // wait on the FMA latency; half the full micro-kernel's cycles per k.
    "#define GRT_HROW(r) \\\n"
    "  grt_vf s##r = zero, t##r = zero; \\\n"
    "  if (!first) s##r = grt_vf_load(c + (r) * ldc);\n"
    "#define GRT_HFMA(r) \\\n"
    "  { s##r += b0 * a[6 * k + (r)]; t##r += b1 * a[6 * k + 6 + (r)]; }\n"
    "#define GRT_HFMA1(r) s##r += b0 * a[6 * k + (r)];\n"
    "#define GRT_HSTORE(r) grt_vf_store(c + (r) * ldc, s##r + t##r);\n"
    "static void grt_gemm_micro_half(int64_t kc, const float* restrict a,\n"
    "                                const float* restrict b, float* restrict c,\n"
    "                                int64_t ldc, int first) {\n"
    "  const grt_vf zero = {0};\n"
    "  GRT_HROW(0) GRT_HROW(1) GRT_HROW(2) GRT_HROW(3) GRT_HROW(4) GRT_HROW(5)\n"
    "  int64_t k = 0;\n"
    "  for (; k + 2 <= kc; k += 2) {\n"
    "    const grt_vf b0 = grt_vf_load(b + GRT_NR * k), b1 = grt_vf_load(b + GRT_NR * k + GRT_NR);\n"
    "    GRT_HFMA(0) GRT_HFMA(1) GRT_HFMA(2) GRT_HFMA(3) GRT_HFMA(4) GRT_HFMA(5)\n"
    "  }\n"
    "  if (k < kc) {\n"
    "    const grt_vf b0 = grt_vf_load(b + GRT_NR * k);\n"
    "    GRT_HFMA1(0) GRT_HFMA1(1) GRT_HFMA1(2) GRT_HFMA1(3) GRT_HFMA1(4) GRT_HFMA1(5)\n"
    "  }\n"
    "  GRT_HSTORE(0) GRT_HSTORE(1) GRT_HSTORE(2) GRT_HSTORE(3) GRT_HSTORE(4) GRT_HSTORE(5)\n"
    "}\n"
    // The last B panel when it holds at most 2 real columns (49 = 3 * 16 +
    // 1 pixels of a 7x7 layer): per column, the column repeated 6 times
    // into bx (bx[6k + r] = b[k]), so every A panel is one vector multiply
    // along its kc x 6 values with bx, folded by row (p % 6) at the end: a
    // quarter of the half micro-kernel's cycles per column, against 8 or 16
    // lanes of which all but one or two were padding.
    "#define GRT_NARROW 2\n"
    "GRT_I void grt_gemm_narrow(int64_t mp, int64_t nc, int64_t kc, const float* ap,\n"
    "                           const float* bp, float* cb, int64_t ldc, int first) {\n"
    "  float bx[6 * GRT_KC];\n"
    "  const int64_t len = 6 * kc, lv = len / (3 * GRT_VL) * (3 * GRT_VL);\n"
    "  for (int64_t cc = 0; cc < nc; ++cc) {\n"
    "    for (int64_t k = 0; k < kc; ++k) {\n"
    "      const float v = bp[k * GRT_NR + cc];\n"
    "      for (int r = 0; r < 6; ++r) bx[6 * k + r] = v;\n"
    "    }\n"
    "    for (int64_t i = 0; i < mp; i += 6) {\n"
    "      const float* a = ap + i * kc;\n"
    "      grt_vf s0 = {0}, s1 = {0}, s2 = {0};\n"
    "      for (int64_t p = 0; p < lv; p += 3 * GRT_VL) {\n"
    "        s0 += grt_vf_load(a + p) * grt_vf_load(bx + p);\n"
    "        s1 += grt_vf_load(a + p + GRT_VL) * grt_vf_load(bx + p + GRT_VL);\n"
    "        s2 += grt_vf_load(a + p + 2 * GRT_VL) * grt_vf_load(bx + p + 2 * GRT_VL);\n"
    "      }\n"
    // 3 * GRT_VL is a multiple of 6, so lane l of s<v> is row (v * VL + l) % 6.
    "      float t[3 * GRT_VL], c[6] = {0};\n"
    "      grt_vf_store(t, s0); grt_vf_store(t + GRT_VL, s1); grt_vf_store(t + 2 * GRT_VL, s2);\n"
    "      for (int l = 0; l < 3 * GRT_VL; ++l) c[l % 6] += t[l];\n"
    "      for (int64_t p = lv; p < len; ++p) c[p % 6] += a[p] * bx[p];\n"
    "      float* o = cb + i * ldc + cc;\n"
    "      for (int r = 0; r < 6; ++r) o[r * ldc] = first ? c[r] : o[r * ldc] + c[r];\n"
    "    }\n"
    "  }\n"
    "}\n"
    // cb[mp x n] += the 6-row A panels (mp rows) times the GRT_NR-column B
    // panels (n columns, zero padded to whole panels, kc + 1 rows apart),
    // one B panel at a time so it stays in L1 while the A panels stream
    // past; with |first| (the first K slice) cb = the product, so no pass
    // clears cb beforehand. Columns past n in the last panel are written
    // only when it has more than GRT_VL real columns (no caller reads them).
    "GRT_I void grt_gemm_panels(int64_t mp, int64_t n, int64_t kc, const float* ap,\n"
    "                           const float* bp, float* cb, int64_t ldc, int first) {\n"
    "  for (int64_t j = 0; j < n; j += GRT_NR) {\n"
    "    if (n - j <= GRT_NARROW) {\n"
    "      grt_gemm_narrow(mp, n - j, kc, ap, bp + j * (kc + 1), cb + j, ldc, first);\n"
    "      continue;\n"
    "    }\n"
    "    if (n - j <= GRT_VL) {\n"
    "      for (int64_t i = 0; i < mp; i += 6) {\n"
    "        grt_gemm_micro_half(kc, ap + i * kc, bp + j * (kc + 1), cb + i * ldc + j, ldc, first);\n"
    "      }\n"
    "      continue;\n"
    "    }\n"
    "    for (int64_t i = 0; i < mp; i += 6) {\n"
    "      grt_gemm_micro(kc, ap + i * kc, bp + j * (kc + 1), cb + i * ldc + j, ldc, first);\n"
    "    }\n"
    "  }\n"
    "}\n"
    // c[j] = sum over kk of a[kk * sk] * b[kk * skb + j * sn], j < n: a
    // one-row product, where every B element is used once, so B is streamed
    // in its own layout instead of packed. With k contiguous in both (a
    // fully connected layer's transposed weight), dot products four columns
    // at a time in vectors along k; otherwise B row by row into c.
    "GRT_O void grt_gemv(const float* a, int64_t sk, const float* b, int64_t skb,\n"
    "                    int64_t sn, int64_t n, int64_t k, float* restrict c) {\n"
    "  if (sk == 1 && skb == 1) {\n"
    "    const int64_t kv = k / GRT_VL * GRT_VL;\n"
    "    int64_t j = 0;\n"
    "    for (; j + 4 <= n; j += 4) {\n"
    "      const float* b0 = b + j * sn;\n"
    "      const float* b1 = b0 + sn;\n"
    "      const float* b2 = b1 + sn;\n"
    "      const float* b3 = b2 + sn;\n"
    "      grt_vf s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};\n"
    "      for (int64_t kk = 0; kk < kv; kk += GRT_VL) {\n"
    "        const grt_vf av = grt_vf_load(a + kk);\n"
    "        s0 += av * grt_vf_load(b0 + kk); s1 += av * grt_vf_load(b1 + kk);\n"
    "        s2 += av * grt_vf_load(b2 + kk); s3 += av * grt_vf_load(b3 + kk);\n"
    "      }\n"
    "      float t0 = 0.0f, t1 = 0.0f, t2 = 0.0f, t3 = 0.0f;\n"
    "      for (int l = 0; l < GRT_VL; ++l) { t0 += s0[l]; t1 += s1[l]; t2 += s2[l]; t3 += s3[l]; }\n"
    "      for (int64_t kk = kv; kk < k; ++kk) {\n"
    "        t0 += a[kk] * b0[kk]; t1 += a[kk] * b1[kk]; t2 += a[kk] * b2[kk]; t3 += a[kk] * b3[kk];\n"
    "      }\n"
    "      c[j] = t0; c[j + 1] = t1; c[j + 2] = t2; c[j + 3] = t3;\n"
    "    }\n"
    "    for (; j < n; ++j) {\n"
    "      const float* bj = b + j * sn;\n"
    "      float t = 0.0f;\n"
    "      for (int64_t kk = 0; kk < k; ++kk) t += a[kk] * bj[kk];\n"
    "      c[j] = t;\n"
    "    }\n"
    "    return;\n"
    "  }\n"
    "  for (int64_t j = 0; j < n; ++j) c[j] = 0.0f;\n"
    "  for (int64_t kk = 0; kk < k; ++kk) {\n"
    "    const float ak = a[kk * sk];\n"
    "    const float* row = b + kk * skb;\n"
    "    GRT_IVDEP\n"
    "    for (int64_t j = 0; j < n; ++j) c[j] += ak * row[j * sn];\n"
    "  }\n"
    "}\n"
    "GRT_O void grt_gemm_block(const float* a, int64_t sm, int64_t sk,\n"
    "                           const float* b, const int64_t* bk,\n"
    "                           int64_t skb, int64_t sn,\n"
    "                           int64_t m, int64_t n, int64_t k,\n"
    "                           float* restrict bp, float* restrict ap,\n"
    "                           float* restrict cb, int64_t ldc) {\n"
    "  if (m == 1 && !bk) {\n"
    "    grt_gemv(a, sk, b, skb, sn, n, k, cb);\n"
    "    return;\n"
    "  }\n"
    "  const int64_t mp = (m + 5) / 6 * 6, np = (n + GRT_NR - 1) / GRT_NR * GRT_NR;\n"
    "  if (k <= 0) {\n"
    "    for (int64_t i = 0; i < mp; ++i) memset(cb + i * ldc, 0, (size_t)np * sizeof(float));\n"
    "  }\n"
    "  for (int64_t k0 = 0; k0 < k; k0 += GRT_KC) {\n"
    "    const int64_t kc = k - k0 < GRT_KC ? k - k0 : GRT_KC;\n"
    // B with k contiguous (a transposed weight) column by column, each read
    // front to back; B row by row otherwise (sequential reads; a
    // column-panel order would touch every row's page once per panel), into
    // GRT_NR-column panels of kc rows placed kc + 1 rows apart so the 16
    // store streams do not alias.
    "    if (skb == 1 && sn != 1 && !bk) {\n"
    "      for (int64_t j = 0; j < np; ++j) {\n"
    "        float* dst = bp + (j & ~(int64_t)(GRT_NR - 1)) * (kc + 1) + (j & (GRT_NR - 1));\n"
    "        const float* src = b + j * sn + k0;\n"
    "        if (j < n) {\n"
    "          for (int64_t kk = 0; kk < kc; ++kk) dst[kk * GRT_NR] = src[kk];\n"
    "        } else {\n"
    "          for (int64_t kk = 0; kk < kc; ++kk) dst[kk * GRT_NR] = 0.0f;\n"
    "        }\n"
    "      }\n"
    "    } else {\n"
    "      for (int64_t kk = 0; kk < kc; ++kk) {\n"
    "        const float* src = b + (bk ? bk[k0 + kk] : (k0 + kk) * skb);\n"
    "        float* dst = bp + kk * GRT_NR;\n"
    "        if (sn == 1) {\n"
    "          int64_t j = 0;\n"
    "          for (; j + GRT_NR <= n; j += GRT_NR) memcpy(dst + j * (kc + 1), src + j, GRT_NR * sizeof(float));\n"
    "          if (j < np) {\n"
    "            for (int64_t cc = 0; cc < GRT_NR; ++cc) dst[j * (kc + 1) + cc] = j + cc < n ? src[j + cc] : 0.0f;\n"
    "          }\n"
    "        } else {\n"
    "          for (int64_t j = 0; j < np; ++j) {\n"
    "            dst[(j & ~(int64_t)(GRT_NR - 1)) * (kc + 1) + (j & (GRT_NR - 1))] = j < n ? src[j * sn] : 0.0f;\n"
    "          }\n"
    "        }\n"
    "      }\n"
    "    }\n"
    "    for (int64_t m0 = 0; m0 < m; m0 += GRT_MC) {\n"
    "      const int64_t mc = m - m0 < GRT_MC ? m - m0 : GRT_MC;\n"
    "      const int64_t mcp = (mc + 5) / 6 * 6;\n"
    "      for (int64_t i = 0; i < mcp; i += 6) {\n"
    "        float* panel = ap + i * kc;\n"
    // Six rows at a time so the panel is written sequentially.
    "        const float* rows[6];\n"
    "        for (int64_t r = 0; r < 6; ++r) {\n"
    "          rows[r] = m0 + i + r < m ? a + (m0 + i + r) * sm + k0 * sk : NULL;\n"
    "        }\n"
    "        if (sk == 1 && rows[5]) {\n"
    "          for (int64_t kk = 0; kk < kc; ++kk) {\n"
    "            panel[kk * 6 + 0] = rows[0][kk]; panel[kk * 6 + 1] = rows[1][kk];\n"
    "            panel[kk * 6 + 2] = rows[2][kk]; panel[kk * 6 + 3] = rows[3][kk];\n"
    "            panel[kk * 6 + 4] = rows[4][kk]; panel[kk * 6 + 5] = rows[5][kk];\n"
    "          }\n"
    "        } else {\n"
    "          for (int64_t kk = 0; kk < kc; ++kk) {\n"
    "            for (int64_t r = 0; r < 6; ++r) panel[kk * 6 + r] = rows[r] ? rows[r][kk * sk] : 0.0f;\n"
    "          }\n"
    "        }\n"
    "      }\n"
    "      grt_gemm_panels(mcp, n, kc, ap, bp, cb + m0 * ldc, ldc, k0 == 0);\n"
    "    }\n"
    "  }\n"
    "}\n"
    // Rows [0, m) x columns [k0, k0 + kc) of A, element (r, k) at
    // a[r * sm + koff[k]] (a convolution filter in any layout), into 6-row
    // panels of kc x 6 (rows past m zero). With sm == 1 (output channels
    // innermost in the filter) column by column, so each filter row is read
    // once, front to back, while the panels fill.
    "GRT_I void grt_gemm_pack_a_koff(const float* a, int64_t sm, const int64_t* koff,\n"
    "                                int64_t m, int64_t k0, int64_t kc, float* restrict ap) {\n"
    "  const int64_t mp = (m + 5) / 6 * 6, mf = m / 6 * 6;\n"
    "  if (sm == 1) {\n"
    "    for (int64_t kk = 0; kk < kc; ++kk) {\n"
    "      const float* s = a + koff[k0 + kk];\n"
    "      float* dst = ap + kk * 6;\n"
    "      for (int64_t i = 0; i < mf; i += 6) {\n"
    "        float* panel = dst + i * kc;\n"
    "        panel[0] = s[i]; panel[1] = s[i + 1]; panel[2] = s[i + 2];\n"
    "        panel[3] = s[i + 3]; panel[4] = s[i + 4]; panel[5] = s[i + 5];\n"
    "      }\n"
    "      for (int64_t r = mf; r < mp; ++r) dst[mf * kc + (r - mf)] = r < m ? s[r] : 0.0f;\n"
    "    }\n"
    "    return;\n"
    "  }\n"
    "  for (int64_t i = 0; i < mp; i += 6) {\n"
    "    float* panel = ap + i * kc;\n"
    "    const float* r0 = a + i * sm;\n"
    "    for (int64_t kk = 0; kk < kc; ++kk) {\n"
    "      for (int64_t r = 0; r < 6; ++r) {\n"
    "        panel[kk * 6 + r] = i + r < m ? r0[r * sm + koff[k0 + kk]] : 0.0f;\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n"
    "\n";

void grtc_cpu_emit_gemm_support(grt_string_builder_t* out) {
  grt_string_builder_append_cstring(out, grtc_cpu_gemm_text);
}

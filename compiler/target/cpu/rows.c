// ROWS kernels (compiler/kernel/ir.h grtc_krows_t) on the CPU: each row of
// the workgroup's tile computed at once by a routine of the support text,
// in GCC/Clang vector extensions (16 x f32 where the target has AVX-512,
// else 8) as the GEMM's micro-kernel is. Softmax: the row's maximum, then
// exp(x - max) into the output row while summing it, then the output row
// divided by the sum: three passes over a row that stays in cache, the
// exponential a polynomial in vectors (grt_rv_exp) instead of one expf
// call per element.
#include <inttypes.h>

#include "compiler/target/c_family/c_family.h"
#include "compiler/target/cpu/cpu_internal.h"

static const char grtc_cpu_rows_text[] =
    "#if defined(__AVX512F__)\n"
    "#define GRT_RVL 16\n"
    "#else\n"
    "#define GRT_RVL 8\n"
    "#endif\n"
    "typedef float grt_rv __attribute__((vector_size(GRT_RVL * 4)));\n"
    "typedef int32_t grt_ri __attribute__((vector_size(GRT_RVL * 4)));\n"
    "GRT_I grt_rv grt_rv_load(const float* p) { grt_rv v; memcpy(&v, p, sizeof(v)); return v; }\n"
    "GRT_I void grt_rv_store(float* p, grt_rv v) { memcpy(p, &v, sizeof(v)); }\n"
    "GRT_I grt_rv grt_rv_splat(float x) { grt_rv v = {0}; return v + x; }\n"
    // Lanes of a where m is set (all ones), else of b.
    "GRT_I grt_rv grt_rv_pick(grt_ri m, grt_rv a, grt_rv b) {\n"
    "  return (grt_rv)((m & (grt_ri)a) | (~m & (grt_ri)b));\n"
    "}\n"
    // stablehlo.maximum: NaN if either is.
    "GRT_I grt_rv grt_rv_max(grt_rv a, grt_rv b) { return grt_rv_pick((a >= b) | (a != a), a, b); }\n"
    "GRT_I float grt_rs_max(float a, float b) { return a >= b || a != a ? a : b; }\n"
    // e^x: x = k ln 2 + r, |r| <= ln 2 / 2, e^r by its Taylor polynomial of
    // degree 6 (relative error below 1.2e-7), 2^k from the exponent bits.
    // Below -87.34 (where 2^k leaves the normal range) 0, above 88.37 inf,
    // NaN stays NaN.
    "GRT_I grt_rv grt_rv_exp(grt_rv x) {\n"
    "  const grt_rv lo = grt_rv_splat(-87.3365402f), hi = grt_rv_splat(88.3762589f);\n"
    "  grt_rv t = grt_rv_pick(x > lo, x, lo);\n"
    "  t = grt_rv_pick(t < hi, t, hi);\n"
    "  const grt_rv magic = grt_rv_splat(12582912.0f);\n"
    "  grt_rv k = (t * 1.44269504f + magic) - magic;\n"
    "  grt_rv r = t - k * 0.693145751953125f;\n"
    "  r = r - k * 1.42860677e-6f;\n"
    "  grt_rv p = r * (1.0f / 720.0f) + (1.0f / 120.0f);\n"
    "  p = p * r + (1.0f / 24.0f);\n"
    "  p = p * r + (1.0f / 6.0f);\n"
    "  p = p * r + 0.5f;\n"
    "  p = p * r + 1.0f;\n"
    "  p = p * r + 1.0f;\n"
    "  const grt_ri bits = (__builtin_convertvector(k, grt_ri) + 127) << 23;\n"
    "  grt_rv y = p * (grt_rv)bits;\n"
    "  y = grt_rv_pick(x < lo, grt_rv_splat(0.0f), y);\n"
    "  y = grt_rv_pick(x > hi, grt_rv_splat(__builtin_inff()), y);\n"
    "  return grt_rv_pick(x != x, x, y);\n"
    "}\n"
    // y[0, n) = softmax of x[0, n); the tail past the last whole vector
    // goes through a vector padded with -inf (whose exponentials are 0).
    "GRT_O void grt_softmax_row_f32(const float* restrict x, float* restrict y, int64_t n) {\n"
    "  const int64_t nv = n / GRT_RVL * GRT_RVL;\n"
    "  const int64_t tail = n - nv;\n"
    "  float pad[GRT_RVL];\n"
    "  for (int64_t l = 0; l < GRT_RVL; ++l) pad[l] = l < tail ? x[nv + l] : -__builtin_inff();\n"
    "  grt_rv m = grt_rv_load(pad);\n"
    "  for (int64_t j = 0; j < nv; j += GRT_RVL) m = grt_rv_max(m, grt_rv_load(x + j));\n"
    "  float mx = m[0];\n"
    "  for (int64_t l = 1; l < GRT_RVL; ++l) mx = grt_rs_max(mx, m[l]);\n"
    "  const grt_rv mv = grt_rv_splat(mx);\n"
    "  grt_rv s = grt_rv_exp(grt_rv_load(pad) - mv);\n"
    "  grt_rv_store(pad, s);\n"
    "  if (tail == 0) s = grt_rv_splat(0.0f);\n"
    "  for (int64_t j = 0; j < nv; j += GRT_RVL) {\n"
    "    const grt_rv e = grt_rv_exp(grt_rv_load(x + j) - mv);\n"
    "    grt_rv_store(y + j, e);\n"
    "    s += e;\n"
    "  }\n"
    "  float sum = s[0];\n"
    "  for (int64_t l = 1; l < GRT_RVL; ++l) sum += s[l];\n"
    "  const grt_rv sv = grt_rv_splat(sum);\n"
    "  for (int64_t j = 0; j < nv; j += GRT_RVL) grt_rv_store(y + j, grt_rv_load(y + j) / sv);\n"
    "  for (int64_t j = 0; j < tail; ++j) y[nv + j] = pad[j] / sum;\n"
    "}\n";

void grtc_cpu_emit_rows_support(grt_string_builder_t* out) {
  grt_string_builder_append_cstring(out, grtc_cpu_rows_text);
}

bool grtc_cpu_rows_supported(const grtc_kernel_t* kernel) {
  // The verifier holds the rest (static f32 bindings of the space's size,
  // whole rows per tile, one unpredicated store into the last binding).
  return kernel->kind == GRTC_KERNEL_LOOP &&
         kernel->pattern == GRTC_KPATTERN_ROWS &&
         kernel->rows.kind == GRTC_KROWS_SOFTMAX && !kernel->serial &&
         !grtc_c_family_bounds_checked(kernel);
}

void grtc_cpu_emit_rows_loops(const grtc_kernel_t* kernel,
                              grt_string_builder_t* out) {
  uint32_t rank = kernel->parallel_rank;
  int64_t n = kernel->rows.n;
  // The last dim's bounds are the whole row (tiles of whole rows).
  grt_string_builder_appendf(out, "  (void)lo%u;\n  (void)hi%u;\n  {\n",
                             rank - 1, rank - 1);
  for (uint32_t d = 0; d + 1 < rank; ++d) {
    grt_string_builder_appendf(
        out, "  for (int64_t p%u = lo%u; p%u < hi%u; ++p%u) {\n", d, d, d, d,
        d);
  }
  // The row's number in row-major order of the dims before the last.
  grt_string_builder_append_cstring(out, "    const int64_t row = 0");
  for (uint32_t d = 0; d + 1 < rank; ++d) {
    grt_string_builder_appendf(out, " * %" PRId64 " + p%u",
                               kernel->parallel_dims[d], d);
  }
  grt_string_builder_appendf(
      out,
      ";\n    grt_softmax_row_f32(b%u + row * %" PRId64 ", b%u + row * %" PRId64
      ", %" PRId64 ");\n",
      kernel->rows.input_binding, n, kernel->binding_count - 1, n, n);
  for (uint32_t d = 0; d + 1 < rank; ++d) {
    grt_string_builder_append_cstring(out, "  }\n");
  }
  grt_string_builder_append_cstring(out, "  }\n  return 0;\n}\n\n");
}

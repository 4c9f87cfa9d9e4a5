// Test-only kernels with symbolic extents (compiler/kernel/ir.h "Symbolic
// extents") that every target's tests build and run (CPU, Vulkan, CUDA
// emulation), with their inputs and the checks of their results. Include
// after cpu_test_util.h (the kb_ builders).
#ifndef GRT_COMPILER_TARGET_CPU_SYMBOLIC_TEST_UTIL_H_
#define GRT_COMPILER_TARGET_CPU_SYMBOLIC_TEST_UTIL_H_

#include <math.h>
#include <stdlib.h>

#include "compiler/target/cpu/cpu_test_util.h"

static inline uint32_t sym_add_extent(kb_t* b) {
  uint32_t e = 0;
  GRT_EXPECT_OK(grtc_kernel_add_extent(b->set, b->k, 7, &e));
  return e;
}

static inline uint32_t sym_extent_inst(kb_t* b, uint32_t e) {
  return kb_add(b, (grtc_kinst_t){.kind = GRTC_KINST_EXTENT,
                                  .section = GRTC_KSECTION_PRE,
                                  .type = GRTC_ELEM_I64, .dim = e});
}

// out[i, j] = a[i, j] * 2 + e0 over [e0 x 5] in [2 x 5] tiles (|inner|:
// over [5 x e0] in [1 x 2] tiles, the symbolic dim peeled by a modulo).
// Both bindings hold 5 * e0 floats.
static inline void sym_add_elementwise(grtc_kernel_set_t* set,
                                       const char* name, bool inner) {
  const grtc_ksection_t P = GRTC_KSECTION_PRE;
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 2, bindings);
  uint32_t e = sym_add_extent(&b);
  int64_t x = GRTC_KDIM_EXTENT(e);
  if (inner) {
    kb_space(&b, 2, (int64_t[]){5, x}, (int64_t[]){1, 2});
  } else {
    kb_space(&b, 2, (int64_t[]){x, 5}, (int64_t[]){2, 5});
  }
  assert_int_equal(b.k->workgroup_count, 0);
  uint32_t ext = sym_extent_inst(&b, e);
  uint32_t i = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t j = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  uint32_t row = kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_MUL, i,
                       inner ? ext : kb_ci(&b, P, GRTC_ELEM_I64, 5), 0);
  uint32_t lin = kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_ADD, row, j, 0);
  uint32_t twice = kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_MUL,
                         kb_load(&b, P, 0, lin), kb_cf(&b, P, GRTC_ELEM_F32, 2),
                         0);
  uint32_t ef = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT,
                                          .section = P, .type = GRTC_ELEM_F32,
                                          .operand_count = 1,
                                          .operands = {ext}});
  kb_store(&b, 1, lin,
           kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_ADD, twice, ef, 0),
           GRTC_KINST_NONE);
}

// The same over [e0 x 5] as a serial kernel (one workgroup walking the
// whole space).
static inline void sym_add_serial(grtc_kernel_set_t* set, const char* name) {
  sym_add_elementwise(set, name, false);
  grtc_kernel_t* kernel = set->kernels[set->count - 1];
  kernel->serial = true;
  GRT_EXPECT_OK(grtc_kernel_finalize_workgroups(kernel));
}

static inline void sym_fill_elementwise(int64_t extent, float* a) {
  for (int64_t q = 0; q < 5 * extent; ++q) a[q] = (float)q - 4;
}

static inline void sym_expect_elementwise(int64_t extent, const float* a,
                                          const float* out) {
  for (int64_t q = 0; q < 5 * extent; ++q) {
    if (out[q] != a[q] * 2 + (float)extent) {
      fail_msg("extent %lld: out[%lld] = %g, want %g", (long long)extent,
               (long long)q, out[q], a[q] * 2 + (float)extent);
    }
  }
}

// out[i] = 1 + sum over r < e0 of x[i * e0 + r], rows i < 3 (one per
// workgroup): a reduction over a symbolic extent. x holds 3 * e0 floats.
static inline void sym_add_rows(grtc_kernel_set_t* set, const char* name) {
  const grtc_ksection_t P = GRTC_KSECTION_PRE, L = GRTC_KSECTION_LOOP,
                        Q = GRTC_KSECTION_POST;
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, 3, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 2, bindings);
  uint32_t e = sym_add_extent(&b);
  kb_space(&b, 1, (int64_t[]){3}, (int64_t[]){1});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = GRTC_KDIM_EXTENT(e);
  uint32_t ext = sym_extent_inst(&b, e);
  uint32_t i = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t base = kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_MUL, i, ext, 0);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 1), &acc));
  uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
  uint32_t at = kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_ADD, base, r, 0);
  b.k->accs[acc].update = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                                kb_acc(&b, L, acc), kb_load(&b, L, 0, at), 0);
  kb_store(&b, 1, i, kb_acc(&b, Q, acc), GRTC_KINST_NONE);
}

static inline void sym_fill_rows(int64_t extent, float* x) {
  for (int64_t q = 0; q < 3 * extent; ++q) x[q] = (float)(q % 4) - 1;
}

static inline void sym_expect_rows(int64_t extent, const float* x,
                                   const float* out) {
  for (int64_t row = 0; row < 3; ++row) {
    float want = 1;
    for (int64_t q = 0; q < extent; ++q) want += x[row * extent + q];
    if (out[row] != want) {
      fail_msg("extent %lld: row %lld = %g, want %g", (long long)extent,
               (long long)row, out[row], want);
    }
  }
}

enum { SYM_MM_N = 20, SYM_MM_K = 9 };

// out[i, j] = relu(sum_k lhs[i, k] * rhs[k, j] + bias[j]) over [e0 x 20]
// in [16 x 20] tiles, with the MATMUL pattern (m symbolic) or without.
// Bindings: lhs [e0 x 9], rhs [9 x 20], bias [20], out [e0 x 20].
static inline void sym_add_matmul(grtc_kernel_set_t* set, const char* name,
                                  bool pattern) {
  const grtc_ksection_t P = GRTC_KSECTION_PRE, L = GRTC_KSECTION_LOOP,
                        Q = GRTC_KSECTION_POST;
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, SYM_MM_K * SYM_MM_N, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, SYM_MM_N, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 4, bindings);
  uint32_t e = sym_add_extent(&b);
  kb_space(&b, 2, (int64_t[]){GRTC_KDIM_EXTENT(e), SYM_MM_N},
           (int64_t[]){16, SYM_MM_N});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = SYM_MM_K;
  uint32_t pm = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t pn = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 0), &acc));
  uint32_t rk = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
#define SYM_I64(s, v) kb_ci(&b, s, GRTC_ELEM_I64, (v))
#define SYM_MUL(s, x, y) \
  kb_op(&b, s, GRTC_ELEM_I64, GRTC_SCALAR_MUL, (x), (y), 0)
#define SYM_ADD(s, x, y) \
  kb_op(&b, s, GRTC_ELEM_I64, GRTC_SCALAR_ADD, (x), (y), 0)
  uint32_t li = SYM_ADD(L, SYM_MUL(L, pm, SYM_I64(L, SYM_MM_K)), rk);
  uint32_t ri = SYM_ADD(L, SYM_MUL(L, rk, SYM_I64(L, SYM_MM_N)), pn);
  uint32_t oi = SYM_ADD(Q, SYM_MUL(Q, pm, SYM_I64(Q, SYM_MM_N)), pn);
#undef SYM_I64
#undef SYM_MUL
#undef SYM_ADD
  uint32_t prod = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_MUL,
                        kb_load(&b, L, 0, li), kb_load(&b, L, 1, ri), 0);
  b.k->accs[acc].update = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                                kb_acc(&b, L, acc), prod, 0);
  uint32_t biased = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                          kb_acc(&b, Q, acc), kb_load(&b, Q, 2, pn), 0);
  uint32_t relu = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_MAX, biased,
                        kb_cf(&b, Q, GRTC_ELEM_F32, 0), 0);
  kb_store(&b, 3, oi, relu, GRTC_KINST_NONE);
  if (pattern) {
    b.k->pattern = GRTC_KPATTERN_MATMUL;
    b.k->matmul = (grtc_kmatmul_t){
        .lhs_binding = 0, .rhs_binding = 1,
        .m = GRTC_KDIM_EXTENT(e), .n = SYM_MM_N, .k = SYM_MM_K,
        .lhs_stride_m = SYM_MM_K, .lhs_stride_k = 1,
        .rhs_stride_k = SYM_MM_N, .rhs_stride_n = 1,
        .lhs_elem = GRTC_ELEM_F32, .rhs_elem = GRTC_ELEM_F32,
        .acc_elem = GRTC_ELEM_F32};
  }
}

static inline void sym_fill_matmul(int64_t m, float* lhs, float* rhs,
                                   float* bias) {
  for (int64_t q = 0; q < m * SYM_MM_K; ++q) {
    lhs[q] = (float)((q * 7 % 13) - 6) / 8;
  }
  for (int q = 0; q < SYM_MM_K * SYM_MM_N; ++q) {
    rhs[q] = (float)((q * 5 % 11) - 5) / 4;
  }
  for (int q = 0; q < SYM_MM_N; ++q) bias[q] = (float)(q % 3) - 1;
}

static inline void sym_expect_matmul(int64_t m, const float* lhs,
                                     const float* rhs, const float* bias,
                                     const float* out, const char* what) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < SYM_MM_N; ++j) {
      double want = bias[j];
      for (int64_t k = 0; k < SYM_MM_K; ++k) {
        want += (double)lhs[i * SYM_MM_K + k] * rhs[k * SYM_MM_N + j];
      }
      if (want < 0) want = 0;
      float got = out[i * SYM_MM_N + j];
      if (!(fabs(got - want) <= 1e-4 * (1 + fabs(want)))) {
        fail_msg("%s, m %lld [%lld,%lld]: %g, want %g", what, (long long)m,
                 (long long)i, (long long)j, got, want);
      }
    }
  }
}

// The kernels above in one set, in this order (|set| empty before).
enum {
  SYM_OUTER,
  SYM_INNER,
  SYM_SERIAL,
  SYM_ROWS,
  SYM_MM,        // the MATMUL pattern
  SYM_MM_LOOPS,  // the same without it
  SYM_KERNEL_COUNT
};

static inline void sym_add_all(grtc_kernel_set_t* set) {
  assert_int_equal(set->count, 0);
  sym_add_elementwise(set, "outer", false);
  sym_add_elementwise(set, "inner", true);
  sym_add_serial(set, "serial");
  sym_add_rows(set, "rows");
  sym_add_matmul(set, "mm", true);
  sym_add_matmul(set, "mm_loops", false);
}

// How a target runs kernel |index| of sym_add_all's set: with extent
// values |extents| (push constants) over the workgroups they give it, on
// host arrays |data| (binding b: sizes[b] bytes, read back after the run).
typedef void (*sym_run_fn_t)(void* context, uint32_t index, void* const* data,
                             const size_t* sizes, const int64_t* extents);

// Runs every kernel of sym_add_all's set through |run| for several
// extents (elementwise e0 = 1, 3, 7, 0; reduction lengths 0, 1, 5, 9;
// matmul m = 1, 5, 67) and checks the results, and that nothing is
// written past an extent.
static inline void sym_check_all(sym_run_fn_t run, void* context) {
  static const int64_t extents[] = {1, 3, 7, 0};
  for (uint32_t k = SYM_OUTER; k <= SYM_SERIAL; ++k) {
    for (size_t c = 0; c < sizeof(extents) / sizeof(extents[0]); ++c) {
      int64_t n = extents[c] * 5;
      float a[40], out[41];
      sym_fill_elementwise(extents[c], a);
      for (int64_t q = 0; q <= n; ++q) out[q] = -100;
      void* data[] = {a, out};
      // One float more than the output: it stays untouched.
      size_t sizes[] = {(size_t)n * 4, (size_t)(n + 1) * 4};
      run(context, k, data, sizes, &extents[c]);
      sym_expect_elementwise(extents[c], a, out);
      assert_true(out[n] == -100);
    }
  }
  static const int64_t lengths[] = {0, 1, 5, 9};
  for (size_t c = 0; c < sizeof(lengths) / sizeof(lengths[0]); ++c) {
    float x[27], out[3] = {-1, -1, -1};
    sym_fill_rows(lengths[c], x);
    void* data[] = {x, out};
    size_t sizes[] = {(size_t)(3 * lengths[c]) * 4, sizeof(out)};
    run(context, SYM_ROWS, data, sizes, &lengths[c]);
    sym_expect_rows(lengths[c], x, out);
  }
  static const int64_t ms[] = {1, 5, 67};
  float* lhs = malloc(67 * SYM_MM_K * sizeof(float));
  float* out = malloc(68 * SYM_MM_N * sizeof(float));
  assert_true(lhs && out);
  float rhs[SYM_MM_K * SYM_MM_N], bias[SYM_MM_N];
  for (size_t c = 0; c < sizeof(ms) / sizeof(ms[0]); ++c) {
    int64_t m = ms[c];
    sym_fill_matmul(m, lhs, rhs, bias);
    for (uint32_t k = SYM_MM; k <= SYM_MM_LOOPS; ++k) {
      for (int64_t q = 0; q < 68 * SYM_MM_N; ++q) out[q] = NAN;
      void* data[] = {lhs, rhs, bias, out};
      size_t sizes[] = {(size_t)(m * SYM_MM_K) * 4, sizeof(rhs), sizeof(bias),
                        (size_t)((m + 1) * SYM_MM_N) * 4};
      run(context, k, data, sizes, &m);
      assert_true(isnan(out[m * SYM_MM_N]));  // nothing past row m
      sym_expect_matmul(m, lhs, rhs, bias, out, k == SYM_MM ? "pattern" : "loops");
    }
  }
  free(lhs);
  free(out);
}

#endif  // GRT_COMPILER_TARGET_CPU_SYMBOLIC_TEST_UTIL_H_

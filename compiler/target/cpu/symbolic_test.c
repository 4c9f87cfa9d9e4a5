// Tests for kernels with symbolic extents (compiler/kernel/ir.h "Symbolic
// extents") on the CPU target: elementwise kernels tiled over a symbolic
// dim (outermost and inner), a reduction over a symbolic extent, and the
// MATMUL pattern with a symbolic m, each built once and run for several
// extents passed as push constants, against references computed here; the
// entry's constant count and the kernel's check of the dispatch's.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compiler/target/cpu/cpu_test_util.h"

#define P GRTC_KSECTION_PRE
#define L GRTC_KSECTION_LOOP
#define Q GRTC_KSECTION_POST
#define NONE GRTC_KINST_NONE

static uint32_t add_extent(kb_t* b) {
  uint32_t e = 0;
  GRT_EXPECT_OK(grtc_kernel_add_extent(b->set, b->k, 7, &e));
  return e;
}

// out[i, j] = a[i, j] * 2 + e0 over [e0 x 5] in [2 x 5] tiles (|inner|:
// over [5 x e0] in [1 x 2] tiles, the symbolic dim peeled by a modulo).
static void add_elementwise(grtc_kernel_set_t* set, const char* name,
                            bool inner) {
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 2, bindings);
  uint32_t e = add_extent(&b);
  int64_t x = GRTC_KDIM_EXTENT(e);
  if (inner) {
    kb_space(&b, 2, (int64_t[]){5, x}, (int64_t[]){1, 2});
  } else {
    kb_space(&b, 2, (int64_t[]){x, 5}, (int64_t[]){2, 5});
  }
  assert_int_equal(b.k->workgroup_count, 0);
  uint32_t ext = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_EXTENT,
                                           .section = P,
                                           .type = GRTC_ELEM_I64, .dim = e});
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
           kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_ADD, twice, ef, 0), NONE);
}

static void test_elementwise(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_elementwise(&set, "outer", false);
  add_elementwise(&set, "inner", true);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  static const int64_t extents[] = {1, 3, 7, 0};
  for (uint32_t k = 0; k < 2; ++k) {
    for (size_t c = 0; c < sizeof(extents) / sizeof(extents[0]); ++c) {
      int64_t n = extents[c] * 5;
      float a[40], out[41];
      for (int64_t q = 0; q < n; ++q) a[q] = (float)q - 4;
      for (int64_t q = 0; q <= n; ++q) out[q] = -100;
      void* ptrs[] = {a, out};
      assert_int_equal(cpu_run_extents(&lib, &set, k, ptrs, &extents[c]), 0);
      for (int64_t q = 0; q < n; ++q) {
        assert_true(out[q] == a[q] * 2 + (float)extents[c]);
      }
      assert_true(out[n] == -100);  // nothing past the extent
    }
  }
  // The entry takes one constant; a dispatch without it fails.
  float a[5] = {0}, out[5] = {0};
  void* ptrs[] = {a, out};
  assert_int_equal(lib.library->entries[0].constant_count, 1);
  assert_int_not_equal(cpu_run(&lib, 0, ptrs, 2, 1), 0);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// out[i] = 1 + sum over r < e0 of x[i * e0 + r], rows i < 3 (one per
// workgroup): a reduction over a symbolic extent.
static void test_row_reduction(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, 3, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "rows", 2, bindings);
  uint32_t e = add_extent(&b);
  kb_space(&b, 1, (int64_t[]){3}, (int64_t[]){1});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = GRTC_KDIM_EXTENT(e);
  uint32_t ext = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_EXTENT,
                                           .section = P,
                                           .type = GRTC_ELEM_I64, .dim = e});
  uint32_t i = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t base = kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_MUL, i, ext, 0);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(&set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 1), &acc));
  uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
  uint32_t at = kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_ADD, base, r, 0);
  b.k->accs[acc].update = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                                kb_acc(&b, L, acc), kb_load(&b, L, 0, at), 0);
  kb_store(&b, 1, i, kb_acc(&b, Q, acc), NONE);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  static const int64_t extents[] = {0, 1, 5, 9};
  for (size_t c = 0; c < sizeof(extents) / sizeof(extents[0]); ++c) {
    int64_t n = extents[c];
    float x[27], out[3] = {-1, -1, -1};
    for (int64_t q = 0; q < 3 * n; ++q) x[q] = (float)(q % 4) - 1;
    void* ptrs[] = {x, out};
    assert_int_equal(cpu_run_extents(&lib, &set, 0, ptrs, &n), 0);
    for (int64_t row = 0; row < 3; ++row) {
      float want = 1;
      for (int64_t q = 0; q < n; ++q) want += x[row * n + q];
      assert_true(out[row] == want);
    }
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

enum { MM_N = 20, MM_K = 9 };

// out[i, j] = relu(sum_k lhs[i, k] * rhs[k, j] + bias[j]) over [e0 x 20]
// in [16 x 20] tiles, with the MATMUL pattern (m symbolic) or without.
static void add_matmul(grtc_kernel_set_t* set, const char* name,
                       bool pattern) {
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, MM_K * MM_N, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, MM_N, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 4, bindings);
  uint32_t e = add_extent(&b);
  kb_space(&b, 2, (int64_t[]){GRTC_KDIM_EXTENT(e), MM_N},
           (int64_t[]){16, MM_N});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = MM_K;
  uint32_t pm = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t pn = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 0), &acc));
  uint32_t rk = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
#define I64(s, v) kb_ci(&b, s, GRTC_ELEM_I64, (v))
#define MUL(s, x, y) kb_op(&b, s, GRTC_ELEM_I64, GRTC_SCALAR_MUL, (x), (y), 0)
#define ADD(s, x, y) kb_op(&b, s, GRTC_ELEM_I64, GRTC_SCALAR_ADD, (x), (y), 0)
  uint32_t li = ADD(L, MUL(L, pm, I64(L, MM_K)), rk);
  uint32_t ri = ADD(L, MUL(L, rk, I64(L, MM_N)), pn);
  uint32_t oi = ADD(Q, MUL(Q, pm, I64(Q, MM_N)), pn);
#undef I64
#undef MUL
#undef ADD
  uint32_t prod = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_MUL,
                        kb_load(&b, L, 0, li), kb_load(&b, L, 1, ri), 0);
  b.k->accs[acc].update = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                                kb_acc(&b, L, acc), prod, 0);
  uint32_t biased = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                          kb_acc(&b, Q, acc), kb_load(&b, Q, 2, pn), 0);
  uint32_t relu = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_MAX, biased,
                        kb_cf(&b, Q, GRTC_ELEM_F32, 0), 0);
  kb_store(&b, 3, oi, relu, NONE);
  if (pattern) {
    b.k->pattern = GRTC_KPATTERN_MATMUL;
    b.k->matmul = (grtc_kmatmul_t){
        .lhs_binding = 0, .rhs_binding = 1,
        .m = GRTC_KDIM_EXTENT(e), .n = MM_N, .k = MM_K,
        .lhs_stride_m = MM_K, .lhs_stride_k = 1,
        .rhs_stride_k = MM_N, .rhs_stride_n = 1,
        .lhs_elem = GRTC_ELEM_F32, .rhs_elem = GRTC_ELEM_F32,
        .acc_elem = GRTC_ELEM_F32};
  }
}

static void test_matmul_symbolic_m(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_matmul(&set, "fast", true);
  add_matmul(&set, "generic", false);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  // The pattern kernel took the GEMM path (it needs packing scratch).
  assert_true(lib.library->entries[0].local_memory_size > 0);
  assert_int_equal(lib.library->entries[1].local_memory_size, 0);
  static const int64_t ms[] = {1, 5, 67};
  float* lhs = malloc(67 * MM_K * sizeof(float));
  float* out[2] = {malloc(68 * MM_N * sizeof(float)),
                   malloc(68 * MM_N * sizeof(float))};
  float rhs[MM_K * MM_N], bias[MM_N];
  for (int q = 0; q < 67 * MM_K; ++q) lhs[q] = (float)((q * 7 % 13) - 6) / 8;
  for (int q = 0; q < MM_K * MM_N; ++q) rhs[q] = (float)((q * 5 % 11) - 5) / 4;
  for (int q = 0; q < MM_N; ++q) bias[q] = (float)(q % 3) - 1;
  for (size_t c = 0; c < sizeof(ms) / sizeof(ms[0]); ++c) {
    int64_t m = ms[c];
    for (uint32_t k = 0; k < 2; ++k) {
      for (int64_t q = 0; q < 68 * MM_N; ++q) out[k][q] = NAN;
      void* ptrs[] = {lhs, rhs, bias, out[k]};
      assert_int_equal(cpu_run_extents(&lib, &set, k, ptrs, &m), 0);
      assert_true(isnan(out[k][m * MM_N]));  // nothing past row m
    }
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < MM_N; ++j) {
        double want = bias[j];
        for (int64_t k = 0; k < MM_K; ++k) {
          want += (double)lhs[i * MM_K + k] * rhs[k * MM_N + j];
        }
        if (want < 0) want = 0;
        for (uint32_t k = 0; k < 2; ++k) {
          float got = out[k][i * MM_N + j];
          if (!(fabs(got - want) <= 1e-4 * (1 + fabs(want)))) {
            fail_msg("m %lld [%lld,%lld] kernel %u: %g, want %g", (long long)m,
                     (long long)i, (long long)j, k, got, want);
          }
        }
      }
    }
  }
  free(lhs);
  free(out[0]);
  free(out[1]);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// A static kernel's C has no trace of extents, and its entry no constants.
static void test_static_kernel_has_no_extents(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, 10, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, 10, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "plain", 2, bindings);
  kb_space(&b, 2, (int64_t[]){2, 5}, (int64_t[]){1, 5});
  uint32_t i = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  kb_store(&b, 1, i, kb_load(&b, P, 0, i), NONE);
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
  const char* source = grt_string_builder_cstring(&text);
  assert_null(strstr(source, "d->constants"));
  assert_non_null(strstr(source, "{\"plain\", grtk_plain, 2u, 0u,"));
  grt_string_builder_deinit(&text);
  grtc_kernel_set_deinit(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_elementwise),
      cmocka_unit_test(test_row_reduction),
      cmocka_unit_test(test_matmul_symbolic_m),
      cmocka_unit_test(test_static_kernel_has_no_extents),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

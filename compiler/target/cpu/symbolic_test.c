// Tests for kernels with symbolic extents (compiler/kernel/ir.h "Symbolic
// extents") on the CPU target: elementwise kernels tiled over a symbolic
// dim (outermost and inner) and serial, a reduction over a symbolic
// extent, and the MATMUL pattern with a symbolic m (symbolic_test_util.h),
// each built once and run for several extents passed as push constants,
// against references; the entry's constant count and the kernel's check
// of the dispatch's; static kernels untouched.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compiler/target/cpu/cpu_test_util.h"
#include "compiler/target/cpu/symbolic_test_util.h"

#define P GRTC_KSECTION_PRE
#define L GRTC_KSECTION_LOOP
#define Q GRTC_KSECTION_POST
#define NONE GRTC_KINST_NONE

static void test_elementwise(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_elementwise(&set, "outer", false);
  sym_add_elementwise(&set, "inner", true);
  sym_add_serial(&set, "serial");
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  static const int64_t extents[] = {1, 3, 7, 0};
  for (uint32_t k = 0; k < 3; ++k) {
    for (size_t c = 0; c < sizeof(extents) / sizeof(extents[0]); ++c) {
      int64_t n = extents[c] * 5;
      float a[40], out[41];
      sym_fill_elementwise(extents[c], a);
      for (int64_t q = 0; q <= n; ++q) out[q] = -100;
      void* ptrs[] = {a, out};
      assert_int_equal(cpu_run_extents(&lib, &set, k, ptrs, &extents[c]), 0);
      sym_expect_elementwise(extents[c], a, out);
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

static void test_row_reduction(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_rows(&set, "rows");
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  static const int64_t extents[] = {0, 1, 5, 9};
  for (size_t c = 0; c < sizeof(extents) / sizeof(extents[0]); ++c) {
    float x[27], out[3] = {-1, -1, -1};
    sym_fill_rows(extents[c], x);
    void* ptrs[] = {x, out};
    assert_int_equal(cpu_run_extents(&lib, &set, 0, ptrs, &extents[c]), 0);
    sym_expect_rows(extents[c], x, out);
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

static void test_matmul_symbolic_m(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_matmul(&set, "fast", true);
  sym_add_matmul(&set, "generic", false);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  // The pattern kernel took the GEMM path (it needs packing scratch).
  assert_true(lib.library->entries[0].local_memory_size > 0);
  assert_int_equal(lib.library->entries[1].local_memory_size, 0);
  static const int64_t ms[] = {1, 5, 67};
  float* lhs = malloc(67 * SYM_MM_K * sizeof(float));
  float* out = malloc(68 * SYM_MM_N * sizeof(float));
  float rhs[SYM_MM_K * SYM_MM_N], bias[SYM_MM_N];
  for (size_t c = 0; c < sizeof(ms) / sizeof(ms[0]); ++c) {
    int64_t m = ms[c];
    sym_fill_matmul(m, lhs, rhs, bias);
    for (uint32_t k = 0; k < 2; ++k) {
      for (int64_t q = 0; q < 68 * SYM_MM_N; ++q) out[q] = NAN;
      void* ptrs[] = {lhs, rhs, bias, out};
      assert_int_equal(cpu_run_extents(&lib, &set, k, ptrs, &m), 0);
      assert_true(isnan(out[m * SYM_MM_N]));  // nothing past row m
      sym_expect_matmul(m, lhs, rhs, bias, out, k ? "generic" : "fast");
    }
  }
  free(lhs);
  free(out);
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

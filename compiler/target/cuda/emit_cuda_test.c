// Tests of the CUDA target that need no CUDA toolkit: the emitted source's
// shape for every kernel kind and path, block sizes, arch parsing, and the
// error when NVRTC cannot be loaded.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "compiler/target/cpu/symbolic_test_util.h"
#include "compiler/target/cuda/cuda_test_util.h"

static void emit(const grtc_kernel_set_t* set, const grtc_cuda_options_t* options,
                 grt_string_builder_t* text) {
  grt_string_builder_init(grt_allocator_system(), text);
  GRT_EXPECT_OK(grtc_cuda_emit(set, options, text));
}

static void expect_contains(const grt_string_builder_t* text, const char* fragment) {
  if (!strstr(grt_string_builder_cstring(text), fragment)) {
    fail_msg("generated source lacks '%s'", fragment);
  }
}

static void test_every_kind_emitted(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_all_ops(&set, GRTC_ELEM_F32);
  cuda_test_add_reduction(&set);
  cuda_test_add_sort(&set);
  cuda_test_add_serial(&set);
  cuda_test_add_scalar(&set);
  grt_string_builder_t text;
  emit(&set, NULL, &text);
  expect_contains(&text,
                  "extern \"C\" __global__ void __launch_bounds__(256) all_ops_f32("
                  "const float* __restrict__ b0, const float* __restrict__ b1, "
                  "const uint8_t* __restrict__ b2, float* __restrict__ b3, "
                  "uint8_t* __restrict__ b4)");
  // Threads stride over the tile; the sort swaps in the results.
  expect_contains(&text, "for (int64_t q = threadIdx.x; q < 300; q += blockDim.x)");
  expect_contains(&text, "__launch_bounds__(32) row_reduce(");
  expect_contains(&text, "__launch_bounds__(160) sort_pairs(float* b0, int32_t* b1, "
                         "float* b2, int32_t* b3)");
  expect_contains(&text, "__syncthreads();");
  expect_contains(&text, "__launch_bounds__(1) serial_scatter(");
  expect_contains(&text, "__launch_bounds__(32) scalar(");
  assert_null(strstr(grt_string_builder_cstring(&text), "mma.h"));
  grt_string_builder_deinit(&text);
  grtc_kernel_set_deinit(&set);
}

// f32 matmuls take the SIMT path unless tf32 is allowed; f16 and bf16
// take tensor cores (bf16 only from sm_80).
static void test_matmul_paths(void** state) {
  (void)state;
  static const struct {
    grtc_elem_t elem;
    grtc_cuda_options_t options;
    const char* expected;
    const char* absent;
  } cases[] = {
      {GRTC_ELEM_F32, {NULL, false}, "c[i][j] = fmaf(av[i], bv[j], c[i][j]);", "wmma"},
      {GRTC_ELEM_F32, {"sm_90", true}, "wmma::precision::tf32", "fmaf("},
      {GRTC_ELEM_F16, {NULL, false}, "wmma::fragment<wmma::matrix_a, 16, 16, 16, __half", "fmaf("},
      {GRTC_ELEM_BF16, {"sm_80", false}, "16, 16, 16, __nv_bfloat16", "fmaf("},
      {GRTC_ELEM_BF16, {"sm_75", false}, "fmaf(", "wmma"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grtc_kernel_set_t set;
    grtc_kernel_set_init(grt_allocator_system(), &set);
    cuda_test_add_matmul(&set, "mm", cases[i].elem, 2, 200, 300, 70, false);
    grt_string_builder_t text;
    emit(&set, &cases[i].options, &text);
    expect_contains(&text, cases[i].expected);
    expect_contains(&text, "__launch_bounds__(256) mm(");
    if (strstr(grt_string_builder_cstring(&text), cases[i].absent)) {
      fail_msg("case %zu: generated source has '%s'", i, cases[i].absent);
    }
    assert_int_equal(grtc_cuda_block_size(set.kernels[0], &cases[i].options), 256);
    grt_string_builder_deinit(&text);
    grtc_kernel_set_deinit(&set);
  }
}

// Extents are 32-bit parameters after the bindings, read once as int64_t;
// symbolic dims tile and loop over them; static kernels take none.
static void test_symbolic_extents(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_all(&set);
  cuda_test_add_loop_kernels(&set);
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cuda_emit(&set, NULL, &text));
  // The binding lengths follow the extents (bounds checks: a load outside
  // its binding reads 0, a store outside it is skipped).
  expect_contains(&text, "inner(const float* __restrict__ b0, float* __restrict__ b1, "
                         "uint32_t x0, uint64_t bytes0, uint64_t bytes1) {\n"
                         "  const int64_t e0 = (int64_t)x0; (void)e0;\n"
                         "  const uint64_t len0 = bytes0 / sizeof(*b0); (void)len0;\n");
  expect_contains(&text, " < len0 ? b0[v");
  expect_contains(&text, " < len1) b1[v");
  expect_contains(&text, "gk < 9 && (uint64_t)(a_base + gm * 9 + gk * 1) < len0 ?");
  expect_contains(&text, "const uint64_t n1 = e0 > 0 ? (uint64_t)((e0 + 1) / 2) : 1ull;");
  expect_contains(&text, "for (int64_t q = threadIdx.x; q < 5 * e0; q += blockDim.x)");
  expect_contains(&text, "for (int64_t r0 = 0; r0 < e0; ++r0) {");
  expect_contains(&text, "const int64_t hi0 = lo0 + 16 < e0 ? lo0 + 16 : e0;");
  // A static kernel's signature ends with its bindings.
  const char* row_reduce = strstr(grt_string_builder_cstring(&text), " row_reduce(");
  assert_non_null(row_reduce);
  const char* end = strstr(row_reduce, ") {");
  assert_non_null(end);
  const char* extent = strstr(row_reduce, "uint32_t x");
  assert_true(extent == NULL || extent > end);
  const char* length = strstr(row_reduce, "uint64_t bytes");
  assert_true(length == NULL || length > end);
  grt_string_builder_deinit(&text);
  grtc_kernel_set_deinit(&set);
}

static void test_parse_arch(void** state) {
  (void)state;
  uint32_t cc = 0;
  GRT_EXPECT_OK(grtc_cuda_parse_arch("sm_80", &cc));
  assert_int_equal(cc, 80);
  GRT_EXPECT_OK(grtc_cuda_parse_arch(NULL, &cc));
  assert_int_equal(cc, 80);
  GRT_EXPECT_OK(grtc_cuda_parse_arch("sm_120", &cc));
  assert_int_equal(cc, 120);
  static const char* const bad[] = {"", "sm_", "sm_8", "sm_60", "compute_80", "sm_80x",
                                    "sm_080"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    grt_expect_error(grtc_cuda_parse_arch(bad[i], &cc), GRT_STATUS_INVALID_ARGUMENT,
                     "is not sm_XY");
  }
}

// GRT_NVRTC_LIBRARY names the only library tried, so a missing one
// simulates a machine without CUDA.
static void test_nvrtc_missing(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_scalar(&set);
  assert_int_equal(setenv("GRT_NVRTC_LIBRARY", "/nonexistent/libnvrtc.so.13", 1), 0);
  char* ptx = NULL;
  size_t size = 0;
  grt_status_t status =
      grtc_cuda_build(&set, NULL, grt_allocator_system(), &ptx, &size, NULL);
  unsetenv("GRT_NVRTC_LIBRARY");
  assert_null(ptx);
  grt_expect_error(status, GRT_STATUS_UNAVAILABLE,
                   "cuda target needs NVRTC (libnvrtc.so not found: "
                   "/nonexistent/libnvrtc.so.13");
  grtc_kernel_set_deinit(&set);
}

static void test_bad_arch_rejected_before_nvrtc(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_scalar(&set);
  grtc_cuda_options_t options = {"sm_8", false};
  char* ptx = NULL;
  size_t size = 0;
  grt_expect_error(grtc_cuda_build(&set, &options, grt_allocator_system(), &ptx, &size, NULL),
                   GRT_STATUS_INVALID_ARGUMENT, "CUDA arch 'sm_8' is not sm_XY");
  grtc_kernel_set_deinit(&set);
}

// A run-time split (grtc_kernel_t.split_max) is the CPU's: the CUDA target
// refuses such a kernel instead of tiling it at compile time.
static void test_runtime_split_refused(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_scalar(&set);
  set.kernels[0]->split_max = 3;
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  grt_expect_error(grtc_cuda_emit(&set, NULL, &text), GRT_STATUS_UNIMPLEMENTED,
                   "kernel scalar: the CUDA target has no run-time split (split_max 3); "
                   "expected compile-time tiles");
  grt_string_builder_deinit(&text);
  grtc_kernel_set_deinit(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_runtime_split_refused),
      cmocka_unit_test(test_every_kind_emitted),
      cmocka_unit_test(test_matmul_paths),
      cmocka_unit_test(test_symbolic_extents),
      cmocka_unit_test(test_parse_arch),
      cmocka_unit_test(test_nvrtc_missing),
      cmocka_unit_test(test_bad_arch_rejected_before_nvrtc),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

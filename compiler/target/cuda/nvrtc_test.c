// Kernels of every kind and path compiled by NVRTC and the PTX assembled
// by ptxas for sm_80 and sm_90; a kernel NVRTC rejects is named in the
// error. Needs NVRTC (a CUDA toolkit, no GPU): without it the test prints
// "skipped: <reason>".
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compiler/target/cpu/symbolic_test_util.h"
#include "compiler/target/cuda/cuda_test_util.h"

static void build_and_assemble(const grtc_kernel_set_t* set,
                               const grtc_cuda_options_t* options) {
  char* ptx = NULL;
  size_t size = 0;
  uint32_t blocks[64] = {0};
  assert_true(set->count <= 64);
  GRT_EXPECT_OK(grtc_cuda_build(set, options, grt_allocator_system(), &ptx, &size, blocks));
  assert_int_equal(strlen(ptx), size);
  char target[32];
  snprintf(target, sizeof(target), ".target %s",
           options && options->arch ? options->arch : "sm_80");
  assert_non_null(strstr(ptx, target));
  for (uint32_t k = 0; k < set->count; ++k) {
    const grtc_kernel_t* kernel = set->kernels[k];
    char entry[128];
    snprintf(entry, sizeof(entry), ".entry %.*s(", (int)kernel->name.size,
             kernel->name.data);
    if (!strstr(ptx, entry)) fail_msg("PTX lacks '%s'", entry);
    assert_int_equal(blocks[k], grtc_cuda_block_size(kernel, options));
  }
  uint32_t cc = 0;
  GRT_EXPECT_OK(grtc_cuda_parse_arch(options ? options->arch : NULL, &cc));
  cuda_test_ptxas(ptx, size, cc);
  grt_allocator_free(grt_allocator_system(), ptx);
}

static void test_scalar_ops_every_type(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_every_type(&set);
  build_and_assemble(&set, NULL);
  grtc_kernel_set_deinit(&set);
}

static void test_loop_sort_serial_kernels(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_loop_kernels(&set);
  build_and_assemble(&set, NULL);
  grtc_kernel_set_deinit(&set);
}

// Kernels with symbolic extents (extents as 32-bit parameters after the
// bindings) on the loop, serial, SIMT and tensor-core (tf32) paths.
static void test_symbolic_extents(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_all(&set);
  build_and_assemble(&set, NULL);
  grtc_cuda_options_t tf32 = {"sm_80", true};
  build_and_assemble(&set, &tf32);
  grtc_kernel_set_deinit(&set);
}

static void test_matmuls_every_path(void** state) {
  (void)state;
  static const grtc_cuda_options_t options[] = {
      {"sm_80", false}, {"sm_80", true}, {"sm_90", true}, {"sm_75", false}};
  for (size_t o = 0; o < sizeof(options) / sizeof(options[0]); ++o) {
    grtc_kernel_set_t set;
    grtc_kernel_set_init(grt_allocator_system(), &set);
    cuda_test_add_matmul(&set, "mm_f32", GRTC_ELEM_F32, 2, 200, 300, 70, false);
    cuda_test_add_matmul(&set, "mm_f32_t", GRTC_ELEM_F32, 1, 64, 64, 64, true);
    cuda_test_add_matmul(&set, "mm_f16", GRTC_ELEM_F16, 1, 129, 257, 33, false);
    cuda_test_add_matmul(&set, "mm_bf16_t", GRTC_ELEM_BF16, 3, 16, 8, 5, true);
    build_and_assemble(&set, &options[o]);
    grtc_kernel_set_deinit(&set);
  }
}

// A kernel named like a C++ keyword passes the kernel IR but not NVRTC;
// the error names it (and not its well-formed neighbour) with NVRTC's log.
static void test_rejected_kernel_named(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  cuda_test_add_scalar(&set);
  grtc_kbinding_t bindings[1] = {{GRTC_ELEM_F32, 4, GRTC_KACCESS_WRITE}};
  kb_t b = kb_kernel(&set, "float", 1, bindings);
  int64_t dims[1] = {4};
  kb_space(&b, 1, dims, NULL);
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, GRTC_KSECTION_PRE, 0);
  kb_store(&b, 0, p, kb_cf(&b, GRTC_KSECTION_PRE, GRTC_ELEM_F32, 1.0), GRTC_KINST_NONE);
  char* ptx = NULL;
  size_t size = 0;
  grt_status_t status = grtc_cuda_build(&set, NULL, grt_allocator_system(), &ptx, &size, NULL);
  assert_non_null(status);
  const char* message = grt_status_message(status);
  if (!strstr(message, "grt_kernels.cu(")) fail_msg("no NVRTC log in: %s", message);
  grt_expect_error(status, GRT_STATUS_INVALID_ARGUMENT,
                   "NVRTC could not compile kernel(s) float for sm_80 "
                   "(NVRTC_ERROR_COMPILATION):\n");
  assert_null(ptx);
  grtc_kernel_set_deinit(&set);
}

int main(void) {
  // Without a usable NVRTC there is nothing to test here.
  grtc_kernel_set_t empty;
  grtc_kernel_set_init(grt_allocator_system(), &empty);
  char* ptx = NULL;
  size_t size = 0;
  grt_status_t status = grtc_cuda_build(&empty, NULL, grt_allocator_system(), &ptx, &size, NULL);
  grtc_kernel_set_deinit(&empty);
  if (!grt_status_is_ok(status)) {
    // Only a missing NVRTC library skips; a kernel set NVRTC refuses (a
    // broken prelude) is a failure.
    bool absent = grt_status_code(status) == GRT_STATUS_UNAVAILABLE &&
                  strstr(grt_status_message(status), "cuda target needs NVRTC") != NULL;
    printf("compiler_target_cuda_nvrtc_test: %s: %s\n", absent ? "skipped" : "FAILED",
           grt_status_message(status));
    grt_status_free(status);
    return absent ? 77 : 1;
  }
  grt_allocator_free(grt_allocator_system(), ptx);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalar_ops_every_type),
      cmocka_unit_test(test_loop_sort_serial_kernels),
      cmocka_unit_test(test_matmuls_every_path),
      cmocka_unit_test(test_symbolic_extents),
      cmocka_unit_test(test_rejected_kernel_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

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

typedef struct cpu_sym_t {
  const cpu_library_t* lib;
  const grtc_kernel_set_t* set;
} cpu_sym_t;

static void cpu_sym_run(void* context, uint32_t index, void* const* data,
                        const size_t* sizes, const int64_t* extents) {
  (void)sizes;
  const cpu_sym_t* c = (const cpu_sym_t*)context;
  assert_int_equal(cpu_run_extents(c->lib, c->set, index, data, extents), 0);
}

static void test_symbolic_kernels(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_all(&set);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  // The pattern kernel takes the GEMM path (it needs packing scratch).
  assert_true(lib.library->entries[SYM_MM].local_memory_size > 0);
  assert_int_equal(lib.library->entries[SYM_MM_LOOPS].local_memory_size, 0);
  cpu_sym_t context = {&lib, &set};
  sym_check_all(cpu_sym_run, &context);
  // Each entry takes one constant; a dispatch without it fails.
  float a[5] = {0}, out[5] = {0};
  void* ptrs[] = {a, out};
  assert_int_equal(lib.library->entries[SYM_OUTER].constant_count, 1);
  assert_int_not_equal(cpu_run(&lib, SYM_OUTER, ptrs, 2, 1), 0);
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
      cmocka_unit_test(test_symbolic_kernels),
      cmocka_unit_test(test_static_kernel_has_no_extents),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

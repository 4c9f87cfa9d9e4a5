// Tests for kernels with symbolic extents (compiler/kernel/ir.h "Symbolic
// extents") on the CPU target: elementwise kernels tiled over a symbolic
// dim (outermost and inner) and serial, a reduction over a symbolic
// extent, and the MATMUL pattern with a symbolic m (symbolic_test_util.h),
// each built once and run for several extents passed as push constants,
// against references; the entry's constant count and the kernel's check
// of the dispatch's; static kernels untouched.
#define _DEFAULT_SOURCE  // MAP_ANONYMOUS
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compiler/target/c_family/c_family.h"
#include "compiler/target/cpu/cpu_test_util.h"
#include "compiler/target/cpu/guarded_test_util.h"
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
  const cpu_sym_t* c = (const cpu_sym_t*)context;
  assert_int_equal(
      cpu_run_extents(c->lib, c->set, index, data, sizes, extents), 0);
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

// Runs kernel |index| of |set| with extent |extent| on bindings of exactly
// |elems[b]| elements (guarded_alloc) and returns its code.
static int run_sized(const cpu_library_t* lib, const grtc_kernel_set_t* set,
                     uint32_t index, const size_t* elems, int64_t extent) {
  const grtc_kernel_t* kernel = set->kernels[index];
  guarded_t blocks[4];
  void* data[4] = {NULL};
  size_t lengths[4] = {0};
  assert_true(kernel->binding_count <= 4);
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    lengths[b] = elems[b] * sizeof(float);
    blocks[b] = guarded_alloc(lengths[b]);
    data[b] = blocks[b].data;
    for (size_t i = 0; i < elems[b]; ++i) ((float*)data[b])[i] = 1;
  }
  int code = cpu_run_extents(lib, set, index, data, lengths, &extent);
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    guarded_free(&blocks[b]);
  }
  return code;
}

// Extents larger than the bindings (a tampered push constant): every
// kernel returns GRT_KERNEL_CODE_OUT_OF_RANGE + the binding it would have
// overrun, on the fast paths and the generic loops, instead of touching
// memory past it; with bindings that fit, the same kernels succeed.
static void test_extents_past_bindings(void** state) {
  (void)state;
  assert_int_equal(GRTC_KERNEL_CODE_OUT_OF_RANGE, GRT_KERNEL_CODE_OUT_OF_RANGE);
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  sym_add_all(&set);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  const int R = GRT_KERNEL_CODE_OUT_OF_RANGE;
  for (uint32_t k = SYM_OUTER; k <= SYM_SERIAL; ++k) {
    // 3 rows of 5 hold extent 3; extent 7 reads past the input first.
    assert_int_equal(run_sized(&lib, &set, k, (size_t[]){15, 15}, 3), 0);
    assert_int_equal(run_sized(&lib, &set, k, (size_t[]){15, 15}, 7), R + 0);
    // The input holds it, the output does not.
    assert_int_equal(run_sized(&lib, &set, k, (size_t[]){35, 15}, 7), R + 1);
    // Empty bindings.
    assert_int_equal(run_sized(&lib, &set, k, (size_t[]){0, 0}, 1), R + 0);
    assert_int_equal(run_sized(&lib, &set, k, (size_t[]){0, 0}, 0), 0);
  }
  // Huge extents: the index arithmetic would overflow a 32-bit product;
  // the last workgroup (the first run) fails at once.
  assert_int_equal(run_sized(&lib, &set, SYM_OUTER, (size_t[]){15, 15},
                             INT64_C(0xffffffff)),
                   R + 0);
  assert_int_equal(run_sized(&lib, &set, SYM_INNER, (size_t[]){15, 15},
                             INT64_C(0x60000000)),
                   R + 0);
  // The reduction reads 3 rows of e0.
  assert_int_equal(run_sized(&lib, &set, SYM_ROWS, (size_t[]){12, 3}, 4), 0);
  assert_int_equal(run_sized(&lib, &set, SYM_ROWS, (size_t[]){12, 3}, 5), R);
  // The matmul: lhs [m x 9], rhs [9 x 20], bias [20], out [m x 20]; the
  // pattern checks its inputs once per workgroup, the epilogue per access.
  for (uint32_t k = SYM_MM; k <= SYM_MM_LOOPS; ++k) {
    const size_t fits[] = {5 * SYM_MM_K, SYM_MM_K * SYM_MM_N, SYM_MM_N,
                           5 * SYM_MM_N};
    assert_int_equal(run_sized(&lib, &set, k, fits, 5), 0);
    assert_int_equal(run_sized(&lib, &set, k, fits, 6), R + 0);
    const size_t short_out[] = {6 * SYM_MM_K, SYM_MM_K * SYM_MM_N, SYM_MM_N,
                                5 * SYM_MM_N};
    assert_int_equal(run_sized(&lib, &set, k, short_out, 6), R + 3);
    // Static bindings are the HAL's to check (binding_min_lengths), but a
    // short one is still refused here.
    const size_t short_bias[] = {5 * SYM_MM_K, SYM_MM_K * SYM_MM_N,
                                 SYM_MM_N - 1, 5 * SYM_MM_N};
    assert_int_equal(run_sized(&lib, &set, k, short_bias, 5), R + 2);
    const size_t short_rhs[] = {5 * SYM_MM_K, SYM_MM_K * SYM_MM_N - 1,
                                SYM_MM_N, 5 * SYM_MM_N};
    assert_int_equal(run_sized(&lib, &set, k, short_rhs, 5), R + 1);
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// A kernel with no extents whose binding has no static size (a static
// slice of a '?' dimension: it reads elements 5..7 of x, of any length):
// it succeeds when x holds them and fails cleanly when it does not.
static void test_static_positions_of_symbolic_binding(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, 3, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "slice", 2, bindings);
  kb_space(&b, 1, (int64_t[]){3}, NULL);
  uint32_t i = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t at = kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_ADD, i,
                      kb_ci(&b, P, GRTC_ELEM_I64, 5), 0);
  kb_store(&b, 1, i, kb_load(&b, P, 0, at), NONE);
  assert_false(grtc_kernel_is_symbolic(b.k));
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  float* x = malloc(8 * sizeof(float));
  float out[3] = {0};
  assert_non_null(x);
  for (int q = 0; q < 8; ++q) x[q] = (float)q;
  void* data[] = {x, out};
  size_t lengths[] = {8 * sizeof(float), sizeof(out)};
  assert_int_equal(
      cpu_run_constants(&lib, 0, data, 2, 1, NULL, 0, lengths), 0);
  assert_true(out[0] == 5 && out[1] == 6 && out[2] == 7);
  lengths[0] = 7 * sizeof(float);
  assert_int_equal(cpu_run_constants(&lib, 0, data, 2, 1, NULL, 0, lengths),
                   GRT_KERNEL_CODE_OUT_OF_RANGE);
  lengths[0] = 8 * sizeof(float);
  lengths[1] = 2 * sizeof(float);
  assert_int_equal(cpu_run_constants(&lib, 0, data, 2, 1, NULL, 0, lengths),
                   GRT_KERNEL_CODE_OUT_OF_RANGE + 1);
  free(x);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// A window whose taps are clamped by SELECT (the lowering's padding): the
// interval of the tap's index is wider than the indices it takes, so the
// tile check fails and the kernel runs with every access checked, and
// still succeeds (out[i] = x[i - 1] + x[i] + x[i + 1], 0 outside, over a
// symbolic length).
static void test_padded_window_falls_back(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, -1, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "window", 2, bindings);
  uint32_t e = sym_add_extent(&b);
  kb_space(&b, 1, (int64_t[]){GRTC_KDIM_EXTENT(e)}, (int64_t[]){4});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = 3;
  uint32_t ext = sym_extent_inst(&b, e);
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(&set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 0), &acc));
  uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
  uint32_t pos = kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_SUB,
                       kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_ADD, p, r, 0),
                       kb_ci(&b, L, GRTC_ELEM_I64, 1), 0);
  uint32_t inside = kb_op(
      &b, L, GRTC_ELEM_I1, GRTC_SCALAR_AND,
      kb_cmp(&b, L, GRTC_CMP_GE, GRTC_CMP_TYPE_SIGNED, pos,
             kb_ci(&b, L, GRTC_ELEM_I64, 0)),
      kb_cmp(&b, L, GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED, pos, ext), 0);
  uint32_t at = kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_SELECT, inside, pos,
                      kb_ci(&b, L, GRTC_ELEM_I64, 0));
  uint32_t tap = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_SELECT, inside,
                       kb_load(&b, L, 0, at), kb_cf(&b, L, GRTC_ELEM_F32, 0));
  b.k->accs[acc].update = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                                kb_acc(&b, L, acc), tap, 0);
  kb_store(&b, 1, p, kb_acc(&b, Q, acc), NONE);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  for (int64_t n = 0; n <= 9; ++n) {
    float* x = malloc((size_t)(n ? n : 1) * sizeof(float));
    float* out = malloc((size_t)(n ? n : 1) * sizeof(float));
    assert_true(x && out);
    for (int64_t q = 0; q < n; ++q) x[q] = (float)(q * q % 7) - 2;
    void* data[] = {x, out};
    size_t lengths[] = {(size_t)n * sizeof(float), (size_t)n * sizeof(float)};
    assert_int_equal(cpu_run_extents(&lib, &set, 0, data, lengths, &n), 0);
    for (int64_t q = 0; q < n; ++q) {
      float want = x[q] + (q > 0 ? x[q - 1] : 0) + (q + 1 < n ? x[q + 1] : 0);
      assert_true(fabsf(out[q] - want) <= 1e-6f);
    }
    // One element short: refused.
    if (n > 0) {
      lengths[0] -= sizeof(float);
      assert_int_equal(cpu_run_extents(&lib, &set, 0, data, lengths, &n),
                       GRT_KERNEL_CODE_OUT_OF_RANGE);
    }
    free(x);
    free(out);
  }
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
  assert_null(strstr(source, "d->binding_lengths"));
  assert_null(strstr(source, "grt_iv_"));
  assert_non_null(strstr(source, "{\"plain\", grtk_plain, 2u, 0u,"));
  grt_string_builder_deinit(&text);
  grtc_kernel_set_deinit(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_symbolic_kernels),
      cmocka_unit_test(test_static_kernel_has_no_extents),
      cmocka_unit_test(test_extents_past_bindings),
      cmocka_unit_test(test_static_positions_of_symbolic_binding),
      cmocka_unit_test(test_padded_window_falls_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

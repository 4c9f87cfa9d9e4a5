// Tests for the int8 GEMM (gemm_i8.c): i8 x i8 -> i32 MATMUL kernels with
// an i32 bias epilogue, built for AVX-512 VNNI, AVX2 and the baseline ISA
// (each variant the C compiler's target macros pick), on odd sizes with
// the storage extremes -128 and 127, compared exactly with the same kernel
// without the pattern (the generic loops) and with a naive reference.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compiler/target/cpu/cpu_test_util.h"

#define P GRTC_KSECTION_PRE
#define L GRTC_KSECTION_LOOP
#define Q GRTC_KSECTION_POST

typedef kb_matmul_case_t ig_case_t;

// out[b, i, j] = sum_k lhs[b, i, k] * rhs[b, k, j] + bias[j], in i32.
static void add_matmul(grtc_kernel_set_t* set, const char* name, const ig_case_t* c,
                       bool pattern) {
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_I8, c->batch * c->m * c->k, GRTC_KACCESS_READ},
      {GRTC_ELEM_I8, c->batch * c->k * c->n, GRTC_KACCESS_READ},
      {GRTC_ELEM_I32, c->n, GRTC_KACCESS_READ},
      {GRTC_ELEM_I32, c->batch * c->m * c->n, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 4, bindings);
  kb_space(&b, 3, (int64_t[]){c->batch, c->m, c->n}, (int64_t[]){1, c->tile_m, c->tile_n});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = c->k;
  kb_matmul_index_t ix = kb_matmul_indices(&b, c->m, c->n, c->k, c->rhs_transposed);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_I32,
                                    kb_ci(&b, P, GRTC_ELEM_I32, 0), &acc));
  uint32_t x = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .section = L,
                                         .type = GRTC_ELEM_I32, .operand_count = 1,
                                         .operands = {kb_load(&b, L, 0, ix.lhs)}});
  uint32_t y = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .section = L,
                                         .type = GRTC_ELEM_I32, .operand_count = 1,
                                         .operands = {kb_load(&b, L, 1, ix.rhs)}});
  uint32_t prod = kb_op(&b, L, GRTC_ELEM_I32, GRTC_SCALAR_MUL, x, y, 0);
  b.k->accs[acc].update =
      kb_op(&b, L, GRTC_ELEM_I32, GRTC_SCALAR_ADD, kb_acc(&b, L, acc), prod, 0);
  uint32_t biased = kb_op(&b, Q, GRTC_ELEM_I32, GRTC_SCALAR_ADD, kb_acc(&b, Q, acc),
                          kb_load(&b, Q, 2, ix.pn), 0);
  kb_store(&b, 3, ix.out, biased, GRTC_KINST_NONE);
  if (pattern) {
    b.k->pattern = GRTC_KPATTERN_MATMUL;
    b.k->matmul = kb_matmul_pattern(c->m, c->n, c->k, c->rhs_transposed,
                                    GRTC_ELEM_I8, GRTC_ELEM_I32);
  }
}

// Fills |n| values: mostly the extremes -128 and 127 (the VNNI path's +128
// offset and the i16 paths' sign extension at their limits), some others.
static void fill(int8_t* v, size_t n, uint32_t seed) {
  uint32_t s = seed * 2654435761u + 1u;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    uint32_t r = s >> 24;
    v[i] = r < 96 ? (int8_t)-128 : r < 192 ? (int8_t)127 : (int8_t)(int32_t)(r - 128);
  }
}

// Runs kernels |fast| and |fast| + 1 (its generic twin) of |lib| on case
// |c| and compares both with the reference.
static void run_case(const cpu_library_t* lib, const grtc_kernel_set_t* set,
                     uint32_t fast_index, const ig_case_t* c, const char* features) {
  // The pattern kernel took the GEMM path (it needs packing scratch).
  assert_true(lib->library->entries[fast_index].local_memory_size > 0);
  assert_int_equal(lib->library->entries[fast_index + 1].local_memory_size, 0);
  size_t nl = (size_t)(c->batch * c->m * c->k);
  size_t nr = (size_t)(c->batch * c->k * c->n);
  size_t no = (size_t)(c->batch * c->m * c->n);
  int8_t* lhs = malloc(nl + 1);
  int8_t* rhs = malloc(nr + 1);
  int32_t* bias = malloc((size_t)c->n * sizeof(int32_t) + 1);
  int32_t* fast = malloc(no * sizeof(int32_t) + 1);
  int32_t* generic = malloc(no * sizeof(int32_t) + 1);
  fill(lhs, nl, (uint32_t)(c->m * 31 + c->k));
  fill(rhs, nr, (uint32_t)(c->n * 17 + c->k + 5));
  for (int64_t i = 0; i < c->n; ++i) bias[i] = (int32_t)(i % 5) - 2;
  void* fast_ptrs[] = {lhs, rhs, bias, fast};
  void* generic_ptrs[] = {lhs, rhs, bias, generic};
  uint32_t wgs = set->kernels[fast_index]->workgroup_count;
  assert_int_equal(cpu_run(lib, fast_index, fast_ptrs, 4, wgs), 0);
  assert_int_equal(cpu_run(lib, fast_index + 1, generic_ptrs, 4, wgs), 0);
  for (int64_t bt = 0; bt < c->batch; ++bt) {
    for (int64_t i = 0; i < c->m; ++i) {
      for (int64_t j = 0; j < c->n; ++j) {
        int64_t want = bias[j];
        for (int64_t k = 0; k < c->k; ++k) {
          int64_t r = c->rhs_transposed ? j * c->k + k : k * c->n + j;
          want += (int64_t)lhs[bt * c->m * c->k + i * c->k + k] * rhs[bt * c->k * c->n + r];
        }
        size_t o = (size_t)(bt * c->m * c->n + i * c->n + j);
        if (fast[o] != want || generic[o] != want) {
          fail_msg("%s: [%lld,%lld,%lld] of %lldx%lldx%lldx%lld: fast %d generic %d "
                   "want %lld", features, (long long)bt, (long long)i, (long long)j,
                   (long long)c->batch, (long long)c->m, (long long)c->n,
                   (long long)c->k, fast[o], generic[o], (long long)want);
        }
      }
    }
  }
  free(lhs);
  free(rhs);
  free(bias);
  free(fast);
  free(generic);
}

static const ig_case_t cases[] = {
    {1, 1, 1, 1, 1, 1, false},
    {1, 7, 7, 7, 7, 7, false},
    {1, 33, 33, 33, 33, 33, false},
    {1, 100, 100, 100, 100, 100, false},
    {1, 7, 33, 100, 7, 33, false},
    {1, 100, 1, 33, 100, 1, false},
    {1, 33, 100, 1100, 16, 48, false},  // several K slices, partial tiles
    {1, 1100, 20, 7, 1100, 20, false},  // several row blocks in a tile
    {1, 10, 300, 33, 10, 300, false},   // several column blocks
    {3, 7, 33, 100, 4, 16, true},       // batched, transposed (strided) rhs
    {2, 0, 5, 3, 1, 5, false},          // empty
    {1, 4, 6, 0, 4, 6, false},          // k = 0: the bias alone
};

// Every case in one library (one C compile per variant).
static void run_all(const char* features) {
  size_t count = sizeof(cases) / sizeof(cases[0]);
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  for (size_t i = 0; i < count; ++i) {
    char name[32];
    snprintf(name, sizeof(name), "fast%zu", i);
    add_matmul(&set, name, &cases[i], true);
    snprintf(name, sizeof(name), "generic%zu", i);
    add_matmul(&set, name, &cases[i], false);
  }
  grtc_cpu_options_t options = {
      .features = features,
      .optimization_level = 2,
      .flags = "-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes "
               "-Wmissing-prototypes -Wno-unused-parameter"};
  cpu_library_t lib = cpu_build_and_load(&set, &options);
  for (size_t i = 0; i < count; ++i) {
    run_case(&lib, &set, (uint32_t)(2 * i), &cases[i], features);
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// The host: AVX-512 VNNI where the machine has it (it does where this
// test is developed), else whatever it has.
static void test_host(void** state) {
  (void)state;
  run_all("host");
}

static void test_avx512_vnni(void** state) {
  (void)state;
  if (!__builtin_cpu_supports("avx512vnni") || !__builtin_cpu_supports("avx512bw")) {
    skip();
  }
  run_all("avx512f,avx512bw,avx512vnni");
}

static void test_avx2(void** state) {
  (void)state;
  if (!__builtin_cpu_supports("avx2")) skip();
  run_all("avx2");
}

static void test_generic(void** state) {
  (void)state;
  run_all("generic");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_host),
      cmocka_unit_test(test_avx512_vnni),
      cmocka_unit_test(test_avx2),
      cmocka_unit_test(test_generic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

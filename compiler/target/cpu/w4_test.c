// Tests for the int4-weight GEMM (w4.c) and the packing of its weights
// (grtc_cpu_prepack_rhs4, prepack.c): f32 x convert(i8/ui8) -> f32 MATMUL
// kernels with an f32 bias epilogue, their rhs packed two fields to a byte,
// built for AVX-512, AVX2 and the baseline ISA, on odd sizes (K odd, N not a
// multiple of 16 or 32, rows that start at a high nibble), [K, N] and [N, K]
// weights, i4 and ui4 values at their limits. Activations are multiples of
// 1/4 and weights small integers, so every sum is exact and the kernel, its
// packed generic body (the pattern dropped after packing) and a naive
// reference must agree exactly.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "compiler/target/cpu/cpu_target.h"
#include "compiler/target/cpu/cpu_test_util.h"

#define P GRTC_KSECTION_PRE
#define L GRTC_KSECTION_LOOP
#define Q GRTC_KSECTION_POST

typedef struct w4_case_t {
  kb_matmul_case_t mm;
  bool is_unsigned;
} w4_case_t;

// out[b, i, j] = sum_k lhs[b, i, k] * f32(rhs[b, k, j]) + bias[j].
static void add_matmul(grtc_kernel_set_t* set, const char* name, const w4_case_t* w) {
  const kb_matmul_case_t* c = &w->mm;
  grtc_elem_t re = w->is_unsigned ? GRTC_ELEM_U8 : GRTC_ELEM_I8;
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, c->batch * c->m * c->k, GRTC_KACCESS_READ},
      {re, c->batch * c->k * c->n, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, c->n, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, c->batch * c->m * c->n, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 4, bindings);
  kb_space(&b, 3, (int64_t[]){c->batch, c->m, c->n}, (int64_t[]){1, c->tile_m, c->tile_n});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = c->k;
  kb_matmul_index_t ix = kb_matmul_indices(&b, c->m, c->n, c->k, c->rhs_transposed);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 0.0), &acc));
  uint32_t y = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .section = L,
                                         .type = GRTC_ELEM_F32, .operand_count = 1,
                                         .operands = {kb_load(&b, L, 1, ix.rhs)}});
  uint32_t prod = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_MUL, kb_load(&b, L, 0, ix.lhs), y, 0);
  b.k->accs[acc].update =
      kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD, kb_acc(&b, L, acc), prod, 0);
  uint32_t biased = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_ADD, kb_acc(&b, Q, acc),
                          kb_load(&b, Q, 2, ix.pn), 0);
  kb_store(&b, 3, ix.out, biased, GRTC_KINST_NONE);
  b.k->pattern = GRTC_KPATTERN_MATMUL;
  b.k->matmul = kb_matmul_pattern(c->m, c->n, c->k, c->rhs_transposed, GRTC_ELEM_F32,
                                  GRTC_ELEM_F32);
  b.k->matmul.rhs_elem = re;
}

// The weights: i4 in [-8, 7] or ui4 in [0, 15], the limits often.
static void fill_weights(uint8_t* v, size_t n, uint32_t seed, bool is_unsigned) {
  uint32_t s = seed * 2654435761u + 1u;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    uint32_t r = (s >> 24) % 20;
    int x = r < 4 ? 0 : r < 8 ? 15 : (int)(r - 4);  // 0, 15 or 4..15
    v[i] = is_unsigned ? (uint8_t)x : (uint8_t)(int8_t)(x - 8);
  }
}

typedef struct w4_data_t {
  float *lhs, *bias, *fast, *generic;
  uint8_t *rhs, *packed;
} w4_data_t;

static void run_case(const cpu_library_t* lib, const grtc_kernel_set_t* set, uint32_t fast_index,
                     const w4_case_t* w, const w4_data_t* d, const char* features) {
  const kb_matmul_case_t* c = &w->mm;
  // The pattern kernel took the int4-weight GEMM (it has scratch), its twin
  // the generic loops.
  assert_true(lib->library->entries[fast_index].local_memory_size > 0);
  assert_int_equal(lib->library->entries[fast_index + 1].local_memory_size, 0);
  size_t no = (size_t)(c->batch * c->m * c->n);
  for (size_t i = 0; i < no; ++i) d->fast[i] = d->generic[i] = -1.0f;
  void* fast_ptrs[] = {d->lhs, d->packed, d->bias, d->fast};
  void* generic_ptrs[] = {d->lhs, d->packed, d->bias, d->generic};
  uint32_t wgs = set->kernels[fast_index]->workgroup_count;
  assert_int_equal(cpu_run(lib, fast_index, fast_ptrs, 4, wgs), 0);
  assert_int_equal(cpu_run(lib, fast_index + 1, generic_ptrs, 4, wgs), 0);
  for (int64_t bt = 0; bt < c->batch; ++bt) {
    for (int64_t i = 0; i < c->m; ++i) {
      for (int64_t j = 0; j < c->n; ++j) {
        double want = d->bias[j];
        for (int64_t k = 0; k < c->k; ++k) {
          int64_t r = bt * c->k * c->n + (c->rhs_transposed ? j * c->k + k : k * c->n + j);
          int q = w->is_unsigned ? (int)d->rhs[r] : (int)(int8_t)d->rhs[r];
          want += (double)d->lhs[bt * c->m * c->k + i * c->k + k] * q;
        }
        size_t o = (size_t)(bt * c->m * c->n + i * c->n + j);
        if (d->fast[o] != (float)want || d->generic[o] != (float)want) {
          fail_msg("%s: [%lld,%lld,%lld] of %lldx%lldx%lldx%lld: fast %g generic %g want %g",
                   features, (long long)bt, (long long)i, (long long)j, (long long)c->batch,
                   (long long)c->m, (long long)c->n, (long long)c->k, d->fast[o],
                   d->generic[o], want);
        }
      }
    }
  }
}

static const w4_case_t cases[] = {
    {{1, 1, 1, 1, 1, 1, false}, false},
    {{1, 7, 33, 37, 7, 33, false}, false},    // K odd, N odd: rows at high nibbles
    {{1, 7, 33, 37, 7, 33, false}, true},     // the same, ui4
    {{1, 13, 45, 31, 6, 20, false}, false},   // partial tiles, N % 16 != 0
    {{1, 8, 70, 19, 8, 70, false}, true},     // two 32-wide panels and a part
    {{1, 100, 300, 9, 100, 300, false}, false},  // several row and column blocks
    {{2, 5, 17, 11, 5, 17, true}, false},     // batched, [N, K] weights
    {{3, 6, 40, 7, 3, 16, true}, true},       // batched, [N, K], ui4
    {{1, 1, 64, 37, 1, 64, false}, false},    // one row of whole panels
    {{2, 1, 96, 5, 1, 32, false}, true},      // the same, batched, ui4
    {{1, 4, 6, 0, 4, 6, false}, false},       // k = 0: the bias alone
    {{1, 1, 32, 0, 1, 32, false}, false},     // one row, k = 0
};

static void run_all(const char* features) {
  size_t count = sizeof(cases) / sizeof(cases[0]);
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  w4_data_t data[sizeof(cases) / sizeof(cases[0])];
  for (size_t i = 0; i < count; ++i) {
    const kb_matmul_case_t* c = &cases[i].mm;
    char name[32];
    snprintf(name, sizeof(name), "fast%zu", i);
    add_matmul(&set, name, &cases[i]);
    snprintf(name, sizeof(name), "generic%zu", i);
    add_matmul(&set, name, &cases[i]);
    size_t nl = (size_t)(c->batch * c->m * c->k), nr = (size_t)(c->batch * c->k * c->n);
    w4_data_t* d = &data[i];
    d->lhs = malloc(nl * sizeof(float) + 4);
    d->bias = malloc((size_t)c->n * sizeof(float) + 4);
    d->fast = malloc((size_t)(c->batch * c->m * c->n) * sizeof(float) + 4);
    d->generic = malloc((size_t)(c->batch * c->m * c->n) * sizeof(float) + 4);
    d->rhs = malloc(nr + 1);
    d->packed = malloc(nr / 2 + 1);
    for (size_t j = 0; j < nl; ++j) d->lhs[j] = (float)((int)((j * 7 + i) % 9) - 4) * 0.25f;
    for (int64_t j = 0; j < c->n; ++j) d->bias[j] = (float)(j % 5) - 2.0f;
    fill_weights(d->rhs, nr, (uint32_t)(i * 17 + 3), cases[i].is_unsigned);
    grtc_kernel_t* fast = set.kernels[2 * i];
    grtc_kernel_t* generic = set.kernels[2 * i + 1];
    assert_true(grtc_cpu_rhs4_prepackable(fast));
    GRT_EXPECT_OK(grtc_cpu_prepack_rhs4(&set, fast, d->rhs, (int64_t)nr, d->packed));
    GRT_EXPECT_OK(grtc_cpu_prepack_rhs4(&set, generic, d->rhs, (int64_t)nr, d->packed));
    assert_true(fast->matmul.rhs_packed4);
    assert_int_equal(fast->bindings[1].element_count, (int64_t)((nr + 1) / 2));
    // Fields in order, low nibble first.
    for (size_t j = 0; j < nr; ++j) {
      assert_int_equal((d->packed[j / 2] >> (4 * (j & 1))) & 15, d->rhs[j] & 15);
    }
    // The twin keeps the packed generic body without the pattern.
    generic->pattern = GRTC_KPATTERN_NONE;
  }
  grtc_cpu_options_t options = {
      .features = features,
      .optimization_level = 2,
      .flags = "-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes "
               "-Wmissing-prototypes -Wno-unused-parameter"};
  cpu_library_t lib = cpu_build_and_load(&set, &options);
  for (size_t i = 0; i < count; ++i) {
    run_case(&lib, &set, (uint32_t)(2 * i), &cases[i], &data[i], features);
    free(data[i].lhs);
    free(data[i].bias);
    free(data[i].fast);
    free(data[i].generic);
    free(data[i].rhs);
    free(data[i].packed);
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// Values that do not fit 4 bits are refused, and a packed rhs is not
// packed again.
static void test_refusals(void** state) {
  (void)state;
  uint8_t i8s[3] = {7, (uint8_t)-8, 8};
  assert_false(grtc_cpu_rhs4_fits(GRTC_ELEM_I8, i8s, 3));
  assert_true(grtc_cpu_rhs4_fits(GRTC_ELEM_I8, i8s, 2));
  uint8_t u8s[2] = {15, 16};
  assert_false(grtc_cpu_rhs4_fits(GRTC_ELEM_U8, u8s, 2));
  assert_true(grtc_cpu_rhs4_fits(GRTC_ELEM_U8, u8s, 1));
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  w4_case_t c = {{1, 2, 3, 5, 2, 3, false}, false};
  add_matmul(&set, "k", &c);
  uint8_t rhs[15] = {0}, packed[8];
  rhs[4] = 9;  // 9 is not an i4
  grt_status_t status = grtc_cpu_prepack_rhs4(&set, set.kernels[0], rhs, 15, packed);
  assert_int_equal(grt_status_code(status), GRT_STATUS_INTERNAL);
  grt_status_free(status);
  rhs[4] = 7;
  GRT_EXPECT_OK(grtc_cpu_prepack_rhs4(&set, set.kernels[0], rhs, 15, packed));
  assert_false(grtc_cpu_rhs4_prepackable(set.kernels[0]));
  grtc_kernel_set_deinit(&set);
}

static void test_host(void** state) {
  (void)state;
  run_all("host");
}

static void test_avx512(void** state) {
  (void)state;
  if (!__builtin_cpu_supports("avx512f")) skip();
  run_all("avx512f");
}

static void test_avx2(void** state) {
  (void)state;
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) skip();
  run_all("avx2,fma");
}

static void test_generic(void** state) {
  (void)state;
  run_all("generic");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_host),
      cmocka_unit_test(test_avx512),
      cmocka_unit_test(test_avx2),
      cmocka_unit_test(test_generic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

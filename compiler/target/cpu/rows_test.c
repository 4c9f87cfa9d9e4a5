// ROWS kernels on the CPU (rows.c): a softmax kernel as the dispatch
// lowering writes it, with the pattern (the per-row routine) and without
// (the generic loops, libm's expf), built and run side by side on rows of
// 1, of less than, exactly and one more than a vector, long rows, tiles of
// several rows, and rows with -inf, +inf, NaN and inputs beyond the
// exponential's range: the same NaNs, and values within a few ulps. The
// same kernel marked TWO_PASS (its reductions once per row, then POST
// along the row) gives the generic loops' results bit for bit.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "compiler/target/cpu/cpu_test_util.h"

// Parallel [rows, n], reduction [2, n] (pass 0 the max, pass 1 the sum of
// exponentials), one store of exp(x - max) / sum.
static void add_softmax(grtc_kernel_set_t* set, const char* name,
                        int64_t rows, int64_t n, int64_t tile_rows,
                        bool pattern, grtc_krows_kind_t kind) {
  const grtc_ksection_t P = GRTC_KSECTION_PRE, L = GRTC_KSECTION_LOOP,
                        Q = GRTC_KSECTION_POST;
  const grtc_elem_t F = GRTC_ELEM_F32, I = GRTC_ELEM_I64;
  const grtc_kbinding_t bindings[] = {
      {F, rows * n, GRTC_KACCESS_READ}, {F, rows * n, GRTC_KACCESS_WRITE}};
  kb_t b = kb_kernel(set, name, 2, bindings);
  b.k->reduction_rank = 2;
  b.k->reduction_dims[0] = 2;
  b.k->reduction_dims[1] = n;
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, F, kb_cf(&b, P, F, -INFINITY),
                                    &acc));
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, F, kb_cf(&b, P, F, 0.0), &acc));
  uint32_t p0 = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t p1 = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  uint32_t base = kb_op(&b, P, I, GRTC_SCALAR_MUL, p0, kb_ci(&b, P, I, n), 0);
  uint32_t r0 = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
  uint32_t r1 = kb_index(&b, GRTC_KINST_RINDEX, L, 1);
  uint32_t x = kb_load(&b, L, 0, kb_op(&b, L, I, GRTC_SCALAR_ADD, base, r1, 0));
  uint32_t max = kb_acc(&b, L, 0), sum = kb_acc(&b, L, 1);
  uint32_t first = kb_cmp(&b, L, GRTC_CMP_EQ, GRTC_CMP_TYPE_SIGNED, r0,
                          kb_ci(&b, P, I, 0));
  uint32_t e = kb_op(&b, L, F, GRTC_SCALAR_EXP,
                     kb_op(&b, L, F, GRTC_SCALAR_SUB, x, max, 0), 0, 0);
  b.k->accs[0].update =
      kb_op(&b, L, F, GRTC_SCALAR_SELECT, first,
            kb_op(&b, L, F, GRTC_SCALAR_MAX, max, x, 0), max);
  b.k->accs[1].update =
      kb_op(&b, L, F, GRTC_SCALAR_SELECT, first, sum,
            kb_op(&b, L, F, GRTC_SCALAR_ADD, sum, e, 0));
  uint32_t at = kb_op(&b, P, I, GRTC_SCALAR_ADD, base, p1, 0);
  uint32_t xp = kb_load(&b, P, 0, at);
  uint32_t ep = kb_op(&b, Q, F, GRTC_SCALAR_EXP,
                      kb_op(&b, Q, F, GRTC_SCALAR_SUB, xp, kb_acc(&b, Q, 0), 0),
                      0, 0);
  kb_store(&b, 1, at, kb_op(&b, Q, F, GRTC_SCALAR_DIV, ep, kb_acc(&b, Q, 1), 0),
           GRTC_KINST_NONE);
  const int64_t dims[2] = {rows, n}, tile[2] = {tile_rows, n};
  kb_space(&b, 2, dims, tile);
  if (pattern) {
    b.k->pattern = GRTC_KPATTERN_ROWS;
    b.k->rows = (grtc_krows_t){kind, 0, n};
  }
  GRT_EXPECT_OK(grtc_kernel_verify(b.k));
}

typedef struct rows_case_t {
  int64_t rows, n, tile_rows;
} rows_case_t;

// Row r of |x|: ordinary values, except rows 1-5 (when there are that
// many): -inf entries, only -inf, a NaN, inputs 30x wider (beyond exp's
// range once shifted), a +inf.
static void fill(float* x, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < n; ++j) {
      float v = (float)(((r * 31 + j * 7) % 41) - 20) / 5;
      if (r == 1 && j % 3 == 1) v = -INFINITY;
      if (r == 2) v = -INFINITY;
      if (r == 3 && j == n / 2) v = NAN;
      if (r == 4) v *= 30;
      if (r == 5 && j == n - 1) v = INFINITY;
      x[r * n + j] = v;
    }
  }
}

static void run_case(const rows_case_t* c, int index) {
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_softmax(&set, "fast", c->rows, c->n, c->tile_rows, true,
              GRTC_KROWS_SOFTMAX);
  add_softmax(&set, "generic", c->rows, c->n, c->tile_rows, false,
              GRTC_KROWS_SOFTMAX);
  add_softmax(&set, "two_pass", c->rows, c->n, c->tile_rows, true,
              GRTC_KROWS_TWO_PASS);
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
  const char* source = grt_string_builder_cstring(&text);
  // One call in the fast kernel, none in the generic one (which follows).
  const char* call = strstr(source, "grt_softmax_row_f32(b0");
  const char* generic = strstr(source, "grtk_generic(");
  assert_non_null(call);
  assert_non_null(generic);
  assert_true(call < generic);
  assert_null(strstr(generic, "grt_softmax_row_f32(b0"));
  // The two-pass kernel: each pass a copy of the row's reduction.
  const char* two_pass = strstr(source, "grtk_two_pass(");
  assert_non_null(two_pass);
  assert_non_null(strstr(two_pass, "const int64_t r0 = 1;"));
  grt_string_builder_deinit(&text);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  size_t count = (size_t)(c->rows * c->n);
  float* x = malloc(count * sizeof(float));
  float* fast = malloc(count * sizeof(float));
  float* slow = malloc(count * sizeof(float));
  float* rowwise = malloc(count * sizeof(float));
  fill(x, c->rows, c->n);
  for (size_t i = 0; i < count; ++i) fast[i] = slow[i] = rowwise[i] = 12345.0f;
  void* fast_ptrs[] = {x, fast};
  void* slow_ptrs[] = {x, slow};
  void* rowwise_ptrs[] = {x, rowwise};
  uint32_t groups = set.kernels[0]->workgroup_count;
  assert_int_equal(cpu_run(&lib, 0, fast_ptrs, 2, groups), 0);
  assert_int_equal(cpu_run(&lib, 1, slow_ptrs, 2, groups), 0);
  assert_int_equal(cpu_run(&lib, 2, rowwise_ptrs, 2, groups), 0);
  for (size_t i = 0; i < count; ++i) {
    if (isnan(slow[i]) ? !isnan(rowwise[i])
                       : memcmp(&slow[i], &rowwise[i], sizeof(float)) != 0) {
      fail_msg("case %d element %zu: two-pass %.9g generic %.9g", index, i,
               rowwise[i], slow[i]);
    }
    // expf's denormal results below e^-87.34 are 0 on the fast path.
    bool same = isnan(slow[i]) ? isnan(fast[i])
                               : fabsf(fast[i] - slow[i]) <=
                                     4e-6f * fabsf(slow[i]) + 1e-37f;
    if (!same) {
      fail_msg("case %d (%lldx%lld) element %zu (x %g): fast %.9g generic %.9g",
               index, (long long)c->rows, (long long)c->n, i, x[i], fast[i],
               slow[i]);
    }
  }
  free(x);
  free(fast);
  free(slow);
  free(rowwise);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

static void test_softmax_rows_match_generic_loops(void** state) {
  (void)state;
  static const rows_case_t cases[] = {
      {3, 1, 1},  {4, 5, 2},  {6, 7, 6},   {6, 8, 3},  {6, 16, 2},
      {6, 17, 4}, {7, 33, 2}, {6, 100, 5}, {9, 384, 4},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    run_case(&cases[i], (int)i);
  }
}

// A row's results over the routine's whole range: exp(x - max) for every
// spacing down to where it underflows, against double precision.
static void test_softmax_exponential_range(void** state) {
  (void)state;
  enum { kN = 200 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_softmax(&set, "fast", 1, kN, 1, true, GRTC_KROWS_SOFTMAX);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  float x[kN], y[kN];
  for (int j = 0; j < kN; ++j) x[j] = -(float)j * 0.4731f;  // max 0 at j 0
  void* ptrs[] = {x, y};
  assert_int_equal(cpu_run(&lib, 0, ptrs, 2, 1), 0);
  double sum = 0;
  for (int j = 0; j < kN; ++j) sum += exp((double)x[j]);
  for (int j = 0; j < kN; ++j) {
    double want = exp((double)x[j]) / sum;
    if (x[j] < -87.33) want = 0;  // flushed (below the normal range)
    if (fabs(y[j] - want) > 4e-7 * want + 1e-37) {
      fail_msg("x %g: got %.9g want %.9g", x[j], y[j], want);
    }
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_softmax_rows_match_generic_loops),
      cmocka_unit_test(test_softmax_exponential_range),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

// Tests for the MATMUL fast path: batched, strided, awkwardly sized and
// tiled matmuls with a bias+relu epilogue, built through the blocked GEMM
// and compared with a naive reference (and the same kernel without the
// pattern, which runs the generic loops).
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

typedef kb_matmul_case_t mm_case_t;

// out[b, i, j] = relu(sum_k lhs[b, i, k] * rhs[b, k, j] + bias[j]).
static void add_matmul(grtc_kernel_set_t* set, const char* name,
                       const mm_case_t* c, bool pattern) {
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, c->batch * c->m * c->k, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, c->batch * c->k * c->n, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, c->n, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, c->batch * c->m * c->n, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 4, bindings);
  kb_space(&b, 3, (int64_t[]){c->batch, c->m, c->n},
           (int64_t[]){1, c->tile_m, c->tile_n});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = c->k;
  kb_matmul_index_t ix = kb_matmul_indices(&b, c->m, c->n, c->k, c->rhs_transposed);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 0), &acc));
  uint32_t prod = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_MUL,
                        kb_load(&b, L, 0, ix.lhs), kb_load(&b, L, 1, ix.rhs), 0);
  b.k->accs[acc].update = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                                kb_acc(&b, L, acc), prod, 0);
  uint32_t biased = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_ADD,
                          kb_acc(&b, Q, acc), kb_load(&b, Q, 2, ix.pn), 0);
  uint32_t relu = kb_op(&b, Q, GRTC_ELEM_F32, GRTC_SCALAR_MAX, biased,
                        kb_cf(&b, Q, GRTC_ELEM_F32, 0), 0);
  kb_store(&b, 3, ix.out, relu, GRTC_KINST_NONE);
  if (pattern) {
    b.k->pattern = GRTC_KPATTERN_MATMUL;
    b.k->matmul = kb_matmul_pattern(c->m, c->n, c->k, c->rhs_transposed,
                                    GRTC_ELEM_F32, GRTC_ELEM_F32);
  }
}

static void run_case(const mm_case_t* c) {
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_matmul(&set, "fast", c, true);
  add_matmul(&set, "generic", c, false);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  // The pattern kernel took the GEMM path (it needs packing scratch).
  assert_true(lib.library->entries[0].local_memory_size > 0);
  assert_int_equal(lib.library->entries[1].local_memory_size, 0);
  size_t nl = (size_t)(c->batch * c->m * c->k);
  size_t nr = (size_t)(c->batch * c->k * c->n);
  size_t no = (size_t)(c->batch * c->m * c->n);
  float* lhs = malloc(nl * sizeof(float) + 1);
  float* rhs = malloc(nr * sizeof(float) + 1);
  float* bias = malloc((size_t)c->n * sizeof(float) + 1);
  float* fast = malloc(no * sizeof(float) + 1);
  float* generic = malloc(no * sizeof(float) + 1);
  for (size_t i = 0; i < nl; ++i) lhs[i] = (float)((int)(i * 7 % 13) - 6) / 8;
  for (size_t i = 0; i < nr; ++i) rhs[i] = (float)((int)(i * 5 % 11) - 5) / 4;
  for (int64_t i = 0; i < c->n; ++i) bias[i] = (float)(i % 3) - 1;
  void* fast_ptrs[] = {lhs, rhs, bias, fast};
  void* generic_ptrs[] = {lhs, rhs, bias, generic};
  uint32_t wgs = set.kernels[0]->workgroup_count;
  assert_int_equal(cpu_run(&lib, 0, fast_ptrs, 4, wgs), 0);
  assert_int_equal(cpu_run(&lib, 1, generic_ptrs, 4, wgs), 0);
  for (int64_t bt = 0; bt < c->batch; ++bt) {
    for (int64_t i = 0; i < c->m; ++i) {
      for (int64_t j = 0; j < c->n; ++j) {
        double want = 0;
        for (int64_t k = 0; k < c->k; ++k) {
          int64_t r = c->rhs_transposed ? j * c->k + k : k * c->n + j;
          want += (double)lhs[bt * c->m * c->k + i * c->k + k] *
                  rhs[bt * c->k * c->n + r];
        }
        want += bias[j];
        if (want < 0) want = 0;
        size_t o = (size_t)(bt * c->m * c->n + i * c->n + j);
        double tolerance = 1e-5 * (1 + fabs(want)) * (double)(c->k + 1);
        if (fabs(fast[o] - want) > tolerance ||
            fabs(generic[o] - want) > tolerance) {
          fail_msg("[%lld,%lld,%lld] of %lldx%lldx%lldx%lld: fast %g generic "
                   "%g want %g",
                   (long long)bt, (long long)i, (long long)j,
                   (long long)c->batch, (long long)c->m, (long long)c->n,
                   (long long)c->k, fast[o], generic[o], want);
        }
      }
    }
  }
  free(lhs);
  free(rhs);
  free(bias);
  free(fast);
  free(generic);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

static void test_awkward_sizes(void** state) {
  (void)state;
  static const mm_case_t cases[] = {
      {1, 37, 53, 71, 16, 32, false},   // partial tiles, edges in m and n
      {1, 1, 1, 1, 1, 1, false},
      {1, 64, 64, 64, 64, 64, false},
      {1, 30, 40, 600, 30, 40, false},  // several K slices
      // A last B panel of at most half a panel's columns (the half-width
      // micro-kernel), odd K.
      {1, 13, 37, 7, 13, 37, false},
      {1, 8, 40, 301, 8, 40, false},
      // A last B panel of 1 or 2 real columns (33 and 34 = 32 + 1, 2 and
      // 2 x 16 + 1, 2: grt_gemm_narrow with 8- and 16-lane vectors), over
      // three K slices (the later ones accumulate) and a k tail.
      {1, 13, 33, 600, 13, 33, false},
      {1, 8, 34, 7, 8, 34, true},
      {1, 1100, 20, 3, 1100, 20, false},  // several row blocks in a tile
      {1, 10, 300, 5, 10, 300, false},    // several column blocks
      {3, 5, 7, 9, 4, 4, true},  // batched, transposed (strided) rhs
      // One row (grt_gemv): a fully connected layer's dot products along a
      // transposed rhs; 4-column groups and a column tail with vectors and
      // a k tail; rows of a plain rhs.
      {1, 1, 1000, 2048, 1, 256, true},
      {1, 1, 7, 70, 1, 7, true},
      {1, 1, 50, 40, 1, 50, false},
      // A transposed rhs packed column by column over several K slices.
      {1, 13, 45, 600, 13, 45, true},
      {2, 0, 5, 3, 1, 5, false},  // empty
      {1, 4, 6, 0, 4, 6, false},  // k = 0: bias and relu of zero
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    run_case(&cases[i]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_awkward_sizes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

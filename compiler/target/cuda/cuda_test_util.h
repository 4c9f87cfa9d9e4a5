// Test-only helpers for the CUDA target tests: the CPU tests' kernel IR
// builders (kb_*), kernels of every kind built with them, and ptxas runs.
#ifndef GRT_COMPILER_TARGET_CUDA_CUDA_TEST_UTIL_H_
#define GRT_COMPILER_TARGET_CUDA_CUDA_TEST_UTIL_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/target/cpu/cpu_test_util.h"
#include "compiler/target/cuda/cuda_target.h"

#define KS_PRE GRTC_KSECTION_PRE
#define KS_LOOP GRTC_KSECTION_LOOP
#define KS_POST GRTC_KSECTION_POST

// out[i] = op(a[i], b[i], c[i]) for every scalar op accepting |elem|, each
// into its own slice of the output, and every comparison direction and
// type valid for |elem| into an i1 output: one kernel per element type.
static inline void cuda_test_add_all_ops(grtc_kernel_set_t* set, grtc_elem_t elem) {
  enum { N = 1000 };
  uint32_t op_count = GRTC_SCALAR_OP_COUNT;
  grtc_kbinding_t bindings[5] = {
      {elem, N, GRTC_KACCESS_READ},
      {elem, N, GRTC_KACCESS_READ},
      {GRTC_ELEM_I1, N, GRTC_KACCESS_READ},
      {elem, (int64_t)N * op_count, GRTC_KACCESS_WRITE},
      {GRTC_ELEM_I1, (int64_t)N * (op_count + 5 * 6), GRTC_KACCESS_WRITE},
  };
  char name[64];
  snprintf(name, sizeof(name), "all_ops_%s", grtc_elem_spelling(elem));
  kb_t b = kb_kernel(set, name, 5, bindings);
  int64_t dims[1] = {N}, tile[1] = {300};
  kb_space(&b, 1, dims, tile);
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, KS_PRE, 0);
  uint32_t x = kb_load(&b, KS_PRE, 0, p);
  uint32_t y = kb_load(&b, KS_PRE, 1, p);
  uint32_t c = kb_load(&b, KS_PRE, 2, p);
  for (uint32_t op = 0; op < op_count; ++op) {
    if (!grtc_scalar_op_accepts((grtc_scalar_op_t)op, elem) ||
        grtc_scalar_op_for_elem((grtc_scalar_op_t)op, elem) != op) {
      continue;  // i1 add/multiply/max/min are emitted as or/and
    }
    uint32_t arity = grtc_scalar_op_arity((grtc_scalar_op_t)op);
    bool is_finite = op == GRTC_SCALAR_IS_FINITE;
    grtc_elem_t type = is_finite ? GRTC_ELEM_I1 : elem;
    uint32_t first = op == GRTC_SCALAR_SELECT ? c : x;
    uint32_t v = kb_op(&b, KS_POST, type, (grtc_scalar_op_t)op, first, arity > 1 ? y : 0,
                       arity > 2 ? x : 0);
    uint32_t base = kb_ci(&b, KS_POST, GRTC_ELEM_I64, (int64_t)N * op);
    uint32_t index = kb_op(&b, KS_POST, GRTC_ELEM_I64, GRTC_SCALAR_ADD, base, p, 0);
    kb_store(&b, is_finite ? 4 : 3, index, v, GRTC_KINST_NONE);
  }
  static const grtc_compare_type_t types[] = {
      GRTC_CMP_TYPE_FLOAT, GRTC_CMP_TYPE_TOTALORDER, GRTC_CMP_TYPE_SIGNED,
      GRTC_CMP_TYPE_UNSIGNED};
  uint32_t slot = op_count;
  for (uint32_t t = 0; t < 4; ++t) {
    bool is_float = grtc_elem_is_float(elem);
    if ((types[t] == GRTC_CMP_TYPE_FLOAT || types[t] == GRTC_CMP_TYPE_TOTALORDER) !=
        is_float) {
      continue;
    }
    for (uint32_t d = GRTC_CMP_EQ; d <= GRTC_CMP_GE; ++d) {
      uint32_t v = kb_cmp(&b, KS_POST, (grtc_compare_direction_t)d, types[t], x, y);
      uint32_t base = kb_ci(&b, KS_POST, GRTC_ELEM_I64, (int64_t)N * slot++);
      uint32_t index = kb_op(&b, KS_POST, GRTC_ELEM_I64, GRTC_SCALAR_ADD, base, p, 0);
      kb_store(&b, 4, index, v, GRTC_KINST_NONE);
    }
  }
}

// Every element type converted to every other (and bitcast to those of
// its width), with NaN/inf/-0 constants, over a 2-D space tiled in both
// dims (partial tiles).
static inline void cuda_test_add_converts(grtc_kernel_set_t* set) {
  grtc_kbinding_t bindings[GRTC_ELEM_COUNT * 2];
  for (uint32_t t = 0; t < GRTC_ELEM_COUNT; ++t) {
    bindings[t] = (grtc_kbinding_t){(grtc_elem_t)t, 7 * 13, GRTC_KACCESS_READ};
    bindings[GRTC_ELEM_COUNT + t] =
        (grtc_kbinding_t){(grtc_elem_t)t, 7 * 13 * 64, GRTC_KACCESS_WRITE};
  }
  kb_t b = kb_kernel(set, "converts", GRTC_ELEM_COUNT * 2, bindings);
  int64_t dims[2] = {7, 13}, tile[2] = {2, 5};
  kb_space(&b, 2, dims, tile);
  uint32_t p0 = kb_index(&b, GRTC_KINST_PINDEX, KS_PRE, 0);
  uint32_t p1 = kb_index(&b, GRTC_KINST_PINDEX, KS_PRE, 1);
  uint32_t c13 = kb_ci(&b, KS_PRE, GRTC_ELEM_I64, 13);
  uint32_t row = kb_op(&b, KS_PRE, GRTC_ELEM_I64, GRTC_SCALAR_MUL, p0, c13, 0);
  uint32_t p = kb_op(&b, KS_PRE, GRTC_ELEM_I64, GRTC_SCALAR_ADD, row, p1, 0);
  uint32_t c64 = kb_ci(&b, KS_PRE, GRTC_ELEM_I64, 64);
  uint32_t out_base = kb_op(&b, KS_PRE, GRTC_ELEM_I64, GRTC_SCALAR_MUL, p, c64, 0);
  uint32_t slot[GRTC_ELEM_COUNT] = {0};
  for (uint32_t from = 0; from < GRTC_ELEM_COUNT; ++from) {
    uint32_t x = kb_load(&b, KS_PRE, from, p);
    if (grtc_elem_is_float((grtc_elem_t)from)) {
      static const double specials[] = {NAN, INFINITY, -INFINITY, -0.0, 0.1};
      for (uint32_t s = 0; s < 5; ++s) {
        uint32_t k = kb_cf(&b, KS_PRE, (grtc_elem_t)from, specials[s]);
        x = kb_op(&b, KS_PRE, (grtc_elem_t)from, GRTC_SCALAR_ADD, x, k, 0);
      }
    }
    for (uint32_t to = 0; to < GRTC_ELEM_COUNT; ++to) {
      for (int bitcast = 0; bitcast < 2; ++bitcast) {
        if (bitcast && (to == from ||
                        grtc_elem_bit_width((grtc_elem_t)to) !=
                            grtc_elem_bit_width((grtc_elem_t)from) ||
                        to == GRTC_ELEM_I1)) {
          continue;
        }
        uint32_t v = kb_add(&b, (grtc_kinst_t){
                                    .kind = bitcast ? GRTC_KINST_BITCAST : GRTC_KINST_CONVERT,
                                    .section = KS_PRE, .type = (grtc_elem_t)to,
                                    .operand_count = 1, .operands = {x}});
        uint32_t k = kb_ci(&b, KS_PRE, GRTC_ELEM_I64, slot[to]++);
        uint32_t index = kb_op(&b, KS_PRE, GRTC_ELEM_I64, GRTC_SCALAR_ADD, out_base, k, 0);
        kb_store(&b, GRTC_ELEM_COUNT + to, index, v, GRTC_KINST_NONE);
      }
    }
  }
}

// Row sums and maxima of a 37x1000 f32 matrix with two accumulators, the
// sum's store predicated.
static inline void cuda_test_add_reduction(grtc_kernel_set_t* set) {
  grtc_kbinding_t bindings[3] = {{GRTC_ELEM_F32, 37 * 1000, GRTC_KACCESS_READ},
                                 {GRTC_ELEM_F32, 37, GRTC_KACCESS_WRITE},
                                 {GRTC_ELEM_BF16, 37, GRTC_KACCESS_WRITE}};
  kb_t b = kb_kernel(set, "row_reduce", 3, bindings);
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = 1000;
  int64_t dims[1] = {37}, tile[1] = {16};
  kb_space(&b, 1, dims, tile);
  uint32_t zero = kb_cf(&b, KS_PRE, GRTC_ELEM_F32, 0.0);
  uint32_t ninf = kb_cf(&b, KS_PRE, GRTC_ELEM_F32, -INFINITY);
  uint32_t a0 = 0, a1 = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32, zero, &a0));
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32, ninf, &a1));
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, KS_LOOP, 0);
  uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, KS_LOOP, 0);
  uint32_t c1000 = kb_ci(&b, KS_LOOP, GRTC_ELEM_I64, 1000);
  uint32_t row = kb_op(&b, KS_LOOP, GRTC_ELEM_I64, GRTC_SCALAR_MUL, p, c1000, 0);
  uint32_t index = kb_op(&b, KS_LOOP, GRTC_ELEM_I64, GRTC_SCALAR_ADD, row, r, 0);
  uint32_t x = kb_load(&b, KS_LOOP, 0, index);
  uint32_t acc0 = kb_acc(&b, KS_LOOP, a0), acc1 = kb_acc(&b, KS_LOOP, a1);
  b.k->accs[a0].update = kb_op(&b, KS_LOOP, GRTC_ELEM_F32, GRTC_SCALAR_ADD, acc0, x, 0);
  b.k->accs[a1].update = kb_op(&b, KS_LOOP, GRTC_ELEM_F32, GRTC_SCALAR_MAX, acc1, x, 0);
  uint32_t pp = kb_index(&b, GRTC_KINST_PINDEX, KS_POST, 0);
  uint32_t sum = kb_acc(&b, KS_POST, a0), max = kb_acc(&b, KS_POST, a1);
  uint32_t positive = kb_cmp(&b, KS_POST, GRTC_CMP_GT, GRTC_CMP_TYPE_FLOAT, sum,
                             kb_cf(&b, KS_POST, GRTC_ELEM_F32, 0.0));
  kb_store(&b, 1, pp, sum, positive);
  uint32_t narrowed = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT,
                                                .section = KS_POST,
                                                .type = GRTC_ELEM_BF16,
                                                .operand_count = 1,
                                                .operands = {max}});
  kb_store(&b, 2, pp, narrowed, GRTC_KINST_NONE);
}

// C[b, m, n] = relu(sum_k A[b, m, k] * B[b, k, n]) with |elem| operands
// (B transposed when |rhs_transposed|), as the dispatch lowers a batched
// dot: the generic body plus the MATMUL pattern, tiles of 1 x 128 x 256.
static inline void cuda_test_add_matmul(grtc_kernel_set_t* set, const char* name,
                                        grtc_elem_t elem, int64_t batch, int64_t m,
                                        int64_t n, int64_t k, bool rhs_transposed) {
  grtc_kbinding_t bindings[3] = {{elem, batch * m * k, GRTC_KACCESS_READ},
                                 {elem, batch * k * n, GRTC_KACCESS_READ},
                                 {elem, batch * m * n, GRTC_KACCESS_WRITE}};
  kb_t b = kb_kernel(set, name, 3, bindings);
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = k;
  int64_t dims[3] = {batch, m, n};
  int64_t tile[3] = {1, m < 128 ? m : 128, n < 256 ? n : 256};
  kb_space(&b, 3, dims, tile);
  int64_t rsk = rhs_transposed ? 1 : n, rsn = rhs_transposed ? k : 1;
  uint32_t zero = kb_cf(&b, KS_PRE, GRTC_ELEM_F32, 0.0);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(set, b.k, GRTC_ELEM_F32, zero, &acc));
  uint32_t pb = kb_index(&b, GRTC_KINST_PINDEX, KS_LOOP, 0);
  uint32_t pm = kb_index(&b, GRTC_KINST_PINDEX, KS_LOOP, 1);
  uint32_t pn = kb_index(&b, GRTC_KINST_PINDEX, KS_LOOP, 2);
  uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, KS_LOOP, 0);
#define CT_LIN(a, sa, c, sc, e, se)                                                 \
  kb_op(&b, KS_LOOP, GRTC_ELEM_I64, GRTC_SCALAR_ADD,                               \
        kb_op(&b, KS_LOOP, GRTC_ELEM_I64, GRTC_SCALAR_ADD,                         \
              kb_op(&b, KS_LOOP, GRTC_ELEM_I64, GRTC_SCALAR_MUL, a,                \
                    kb_ci(&b, KS_LOOP, GRTC_ELEM_I64, sa), 0),                     \
              kb_op(&b, KS_LOOP, GRTC_ELEM_I64, GRTC_SCALAR_MUL, c,                \
                    kb_ci(&b, KS_LOOP, GRTC_ELEM_I64, sc), 0), 0),                 \
        kb_op(&b, KS_LOOP, GRTC_ELEM_I64, GRTC_SCALAR_MUL, e,                      \
              kb_ci(&b, KS_LOOP, GRTC_ELEM_I64, se), 0), 0)
  uint32_t ai = CT_LIN(pb, m * k, pm, k, r, 1);
  uint32_t bi = CT_LIN(pb, k * n, r, rsk, pn, rsn);
#undef CT_LIN
  uint32_t av = kb_load(&b, KS_LOOP, 0, ai), bv = kb_load(&b, KS_LOOP, 1, bi);
  grtc_kinst_t widen = {.kind = GRTC_KINST_CONVERT, .section = KS_LOOP,
                        .type = GRTC_ELEM_F32, .operand_count = 1};
  if (elem != GRTC_ELEM_F32) {
    widen.operands[0] = av;
    av = kb_add(&b, widen);
    widen.operands[0] = bv;
    bv = kb_add(&b, widen);
  }
  uint32_t prod = kb_op(&b, KS_LOOP, GRTC_ELEM_F32, GRTC_SCALAR_MUL, av, bv, 0);
  b.k->accs[acc].update =
      kb_op(&b, KS_LOOP, GRTC_ELEM_F32, GRTC_SCALAR_ADD, kb_acc(&b, KS_LOOP, acc), prod, 0);
  uint32_t qb = kb_index(&b, GRTC_KINST_PINDEX, KS_POST, 0);
  uint32_t qm = kb_index(&b, GRTC_KINST_PINDEX, KS_POST, 1);
  uint32_t qn = kb_index(&b, GRTC_KINST_PINDEX, KS_POST, 2);
  uint32_t oi = kb_op(
      &b, KS_POST, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
      kb_op(&b, KS_POST, GRTC_ELEM_I64, GRTC_SCALAR_MUL,
            kb_op(&b, KS_POST, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
                  kb_op(&b, KS_POST, GRTC_ELEM_I64, GRTC_SCALAR_MUL, qb,
                        kb_ci(&b, KS_POST, GRTC_ELEM_I64, m), 0),
                  qm, 0),
            kb_ci(&b, KS_POST, GRTC_ELEM_I64, n), 0),
      qn, 0);
  uint32_t relu = kb_op(&b, KS_POST, GRTC_ELEM_F32, GRTC_SCALAR_MAX,
                        kb_acc(&b, KS_POST, acc), kb_cf(&b, KS_POST, GRTC_ELEM_F32, 0.0), 0);
  uint32_t value = relu;
  if (elem != GRTC_ELEM_F32) {
    value = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT, .section = KS_POST,
                                      .type = elem, .operand_count = 1,
                                      .operands = {relu}});
  }
  kb_store(&b, 2, oi, value, GRTC_KINST_NONE);
  grtc_kmatmul_t* mm = &b.k->matmul;
  b.k->pattern = GRTC_KPATTERN_MATMUL;
  *mm = (grtc_kmatmul_t){.lhs_binding = 0, .rhs_binding = 1, .m = m, .n = n, .k = k,
                         .lhs_stride_m = k, .lhs_stride_k = 1, .rhs_stride_k = rsk,
                         .rhs_stride_n = rsn, .batch_rank = 1,
                         .lhs_elem = elem, .rhs_elem = elem, .acc_elem = GRTC_ELEM_F32};
  mm->lhs_batch_strides[0] = m * k;
  mm->rhs_batch_strides[0] = k * n;
}

// A stable sort of 5 x 300 rows along dim 1 of (f32 keys, i32 values),
// comparing keys in total order.
static inline void cuda_test_add_sort(grtc_kernel_set_t* set) {
  grtc_kbinding_t bindings[4] = {{GRTC_ELEM_F32, 1500, GRTC_KACCESS_READ},
                                 {GRTC_ELEM_I32, 1500, GRTC_KACCESS_READ},
                                 {GRTC_ELEM_F32, 1500, GRTC_KACCESS_WRITE},
                                 {GRTC_ELEM_I32, 1500, GRTC_KACCESS_WRITE}};
  kb_t b = kb_kernel(set, "sort_pairs", 4, bindings);
  b.k->kind = GRTC_KERNEL_SORT;
  int64_t dims[1] = {5};
  kb_space(&b, 1, dims, NULL);
  b.k->sort.dimension = 1;
  b.k->sort.operand_count = 2;
  b.k->sort.rank = 2;
  b.k->sort.dims[0] = 5;
  b.k->sort.dims[1] = 300;
  uint32_t lhs = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_ARG, .section = KS_PRE,
                                           .type = GRTC_ELEM_F32, .dim = 0});
  uint32_t rhs = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_ARG, .section = KS_PRE,
                                           .type = GRTC_ELEM_F32, .dim = 1});
  b.k->sort.comparator =
      kb_cmp(&b, KS_PRE, GRTC_CMP_LT, GRTC_CMP_TYPE_TOTALORDER, lhs, rhs);
}

// A scatter-like serial kernel: out[idx[i] & 7] += upd[i] in order.
static inline void cuda_test_add_serial(grtc_kernel_set_t* set) {
  grtc_kbinding_t bindings[3] = {{GRTC_ELEM_I32, 50, GRTC_KACCESS_READ},
                                 {GRTC_ELEM_I64, 50, GRTC_KACCESS_READ},
                                 {GRTC_ELEM_I32, 10, GRTC_KACCESS_READ_WRITE}};
  kb_t b = kb_kernel(set, "serial_scatter", 3, bindings);
  b.k->serial = true;
  int64_t dims[1] = {50};
  kb_space(&b, 1, dims, NULL);
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, KS_PRE, 0);
  // Loads must stay in range (the lowering's promise): index & 7.
  uint32_t where = kb_op(&b, KS_PRE, GRTC_ELEM_I64, GRTC_SCALAR_AND, kb_load(&b, KS_PRE, 1, p),
                         kb_ci(&b, KS_PRE, GRTC_ELEM_I64, 7), 0);
  uint32_t old = kb_load(&b, KS_PRE, 2, where);
  uint32_t sum = kb_op(&b, KS_POST, GRTC_ELEM_I32, GRTC_SCALAR_ADD, old,
                       kb_load(&b, KS_PRE, 0, p), 0);
  uint32_t inside = kb_cmp(&b, KS_POST, GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED, where,
                           kb_ci(&b, KS_POST, GRTC_ELEM_I64, 10));
  kb_store(&b, 2, where, sum, inside);
}

// A rank-0 kernel (one point): out[0] = a[0] * 2.
static inline void cuda_test_add_scalar(grtc_kernel_set_t* set) {
  grtc_kbinding_t bindings[2] = {{GRTC_ELEM_F64, 1, GRTC_KACCESS_READ},
                                 {GRTC_ELEM_F64, 1, GRTC_KACCESS_WRITE}};
  kb_t b = kb_kernel(set, "scalar", 2, bindings);
  kb_space(&b, 0, NULL, NULL);
  uint32_t zero = kb_ci(&b, KS_PRE, GRTC_ELEM_I64, 0);
  uint32_t v = kb_op(&b, KS_POST, GRTC_ELEM_F64, GRTC_SCALAR_MUL, kb_load(&b, KS_PRE, 0, zero),
                     kb_cf(&b, KS_PRE, GRTC_ELEM_F64, 2.0), 0);
  kb_store(&b, 1, zero, v, GRTC_KINST_NONE);
}

// The two kernel sets the CUDA tests run whole: every scalar op of every
// element type with every convert, and the kernels with loops or no
// parallel space (reduction, sort, serial, rank 0).
static inline void cuda_test_add_every_type(grtc_kernel_set_t* set) {
  for (uint32_t t = 0; t < GRTC_ELEM_COUNT; ++t) cuda_test_add_all_ops(set, (grtc_elem_t)t);
  cuda_test_add_converts(set);
}
static inline void cuda_test_add_loop_kernels(grtc_kernel_set_t* set) {
  cuda_test_add_reduction(set);
  cuda_test_add_sort(set);
  cuda_test_add_serial(set);
  cuda_test_add_scalar(set);
}

// Assembles |ptx| (generated for sm_|cc|) with ptxas for sm_80 and sm_90
// where those can run it, and for sm_|cc| itself, when ptxas was found at
// configure time; fails the test with ptxas's output otherwise.
static inline void cuda_test_ptxas(const char* ptx, size_t size, uint32_t cc) {
  const char* ptxas = GRT_CUDA_PTXAS;
  if (!ptxas[0]) {
    printf("note: ptxas not found at configure time; PTX not assembled\n");
    return;
  }
  char path[] = "/tmp/grtc-cuda-test-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, ptx, size), (ssize_t)size);
  close(fd);
  const uint32_t archs[] = {80, 90, cc};
  for (size_t a = 0; a < 3; ++a) {
    if (archs[a] < cc || (a == 2 && (cc == 80 || cc == 90))) continue;
    char command[4096];
    snprintf(command, sizeof(command), "'%s' -arch=sm_%u -o /dev/null '%s' 2>&1", ptxas,
             archs[a], path);
    FILE* pipe = popen(command, "r");
    assert_non_null(pipe);
    char output[8192];
    size_t n = fread(output, 1, sizeof(output) - 1, pipe);
    output[n] = '\0';
    int rc = pclose(pipe);
    if (rc != 0) {
      unlink(path);
      fail_msg("%s failed (%d):\n%s", command, rc, output);
    }
  }
  unlink(path);
}

#endif  // GRT_COMPILER_TARGET_CUDA_CUDA_TEST_UTIL_H_

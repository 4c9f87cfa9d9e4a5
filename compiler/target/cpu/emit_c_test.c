// Tests for the CPU target's generic kernels: the ABI layout of the emitted
// structs, elementwise/reduction/sort/serial kernels built with the system
// C compiler and run through the kernel ABI, every scalar corner case of
// compiler/kernel/scalar.h, and build failures.
#include <float.h>
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
#define NONE GRTC_KINST_NONE

// The emitted structs, compiled beside hal/local/kernel_abi.h, must agree
// with it at every offset.
static void test_abi_layout_matches_kernel_abi(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
  grt_string_builder_append_cstring(
      &text,
      "#include \"hal/local/kernel_abi.h\"\n"
      "#define SAME(a, b, f) _Static_assert(offsetof(a, f) == offsetof(b, f) "
      "&& sizeof(((a*)0)->f) == sizeof(((b*)0)->f), #f)\n"
      "#define SIZE(a, b) _Static_assert(sizeof(a) == sizeof(b), #a)\n"
      "SIZE(grtk_dispatch_t, grt_kernel_dispatch_state_t);\n"
      "SAME(grtk_dispatch_t, grt_kernel_dispatch_state_t, workgroup_count);\n"
      "SAME(grtk_dispatch_t, grt_kernel_dispatch_state_t, workgroup_size);\n"
      "SAME(grtk_dispatch_t, grt_kernel_dispatch_state_t, constant_count);\n"
      "SAME(grtk_dispatch_t, grt_kernel_dispatch_state_t, constants);\n"
      "SAME(grtk_dispatch_t, grt_kernel_dispatch_state_t, binding_count);\n"
      "SAME(grtk_dispatch_t, grt_kernel_dispatch_state_t, bindings);\n"
      "SAME(grtk_dispatch_t, grt_kernel_dispatch_state_t, binding_lengths);\n"
      "SIZE(grtk_workgroup_t, grt_kernel_workgroup_state_t);\n"
      "SAME(grtk_workgroup_t, grt_kernel_workgroup_state_t, workgroup_id);\n"
      "SAME(grtk_workgroup_t, grt_kernel_workgroup_state_t, worker_id);\n"
      "SAME(grtk_workgroup_t, grt_kernel_workgroup_state_t, local_memory);\n"
      "SAME(grtk_workgroup_t, grt_kernel_workgroup_state_t, "
      "local_memory_size);\n"
      "SIZE(grtk_entry_t, grt_kernel_entry_t);\n"
      "SAME(grtk_entry_t, grt_kernel_entry_t, name);\n"
      "SAME(grtk_entry_t, grt_kernel_entry_t, fn);\n"
      "SAME(grtk_entry_t, grt_kernel_entry_t, binding_count);\n"
      "SAME(grtk_entry_t, grt_kernel_entry_t, constant_count);\n"
      "SAME(grtk_entry_t, grt_kernel_entry_t, workgroup_size);\n"
      "SAME(grtk_entry_t, grt_kernel_entry_t, local_memory_size);\n"
      "SIZE(grtk_library_t, grt_kernel_library_t);\n"
      "SAME(grtk_library_t, grt_kernel_library_t, abi_version);\n"
      "SAME(grtk_library_t, grt_kernel_library_t, entry_count);\n"
      "SAME(grtk_library_t, grt_kernel_library_t, entries);\n"
      "SAME(grtk_library_t, grt_kernel_library_t, name);\n"
      "_Static_assert(GRT_KERNEL_ABI_VERSION == 1, \"abi version\");\n");
  GRT_EXPECT_OK(grt_string_builder_status(&text));
  char dir[] = "/tmp/grtc-abi-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[64];
  snprintf(path, sizeof(path), "%s/abi.c", dir);
  FILE* file = fopen(path, "wb");
  assert_non_null(file);
  assert_int_equal(fwrite(text.data, 1, text.size, file), text.size);
  fclose(file);
  // The include root is the source tree (GRT_SOURCE_DIR, set by CMake).
  char command[2200];
  snprintf(command, sizeof(command), "cc -fsyntax-only -I%s %s", GRT_SOURCE_DIR, path);
  int rc = system(command);
  unlink(path);
  rmdir(dir);
  assert_int_equal(rc, 0);
  grt_string_builder_deinit(&text);
  grtc_kernel_set_deinit(&set);
}

// out[i, j] = a[i, j] * b[j] + 1 over 5x37 in 2x16 tiles (partial tiles at
// both edges), so the broadcast index math and tiling are exercised.
static void test_elementwise_broadcast(void** state) {
  (void)state;
  enum { R = 5, C = 37 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, C, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "ew", 3, bindings);
  kb_space(&b, 2, (int64_t[]){R, C}, (int64_t[]){2, 16});
  assert_int_equal(b.k->workgroup_count, 9);
  uint32_t i = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t j = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  uint32_t row = kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_MUL, i,
                       kb_ci(&b, P, GRTC_ELEM_I64, C), 0);
  uint32_t lin = kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_ADD, row, j, 0);
  uint32_t x = kb_load(&b, P, 0, lin);
  uint32_t y = kb_load(&b, P, 1, j);
  uint32_t prod = kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_MUL, x, y, 0);
  uint32_t sum = kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_ADD, prod,
                       kb_cf(&b, P, GRTC_ELEM_F32, 1.0), 0);
  kb_store(&b, 2, lin, sum, NONE);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  float a[R * C], v[C], out[R * C];
  for (int k = 0; k < R * C; ++k) a[k] = (float)k * 0.5f, out[k] = -1;
  for (int k = 0; k < C; ++k) v[k] = (float)(k % 7) - 3;
  void* ptrs[] = {a, v, out};
  assert_int_equal(cpu_run(&lib, 0, ptrs, 3, b.k->workgroup_count), 0);
  for (int r = 0; r < R; ++r) {
    for (int c = 0; c < C; ++c) {
      assert_true(out[r * C + c] == a[r * C + c] * v[c] + 1.0f);
    }
  }
  // A dispatch with the wrong binding count fails instead of reading junk.
  assert_int_not_equal(cpu_run(&lib, 0, ptrs, 2, 1), 0);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// out[i, j] = x[i, j] * 2 + (f32)(linear index) over 5x7 (a short inner
// dim) with tiles |tile|: identity indexing and contiguous tiles become one
// loop over the linear index; a tile that splits the inner dim below a
// multi-row outer tile does not, and both compute the same.
static void add_scaled_iota(grtc_kernel_set_t* set, const char* name,
                            const int64_t* tile) {
  enum { R = 5, C = 7 };
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(set, name, 2, bindings);
  kb_space(&b, 2, (int64_t[]){R, C}, tile);
  uint32_t i = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t j = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  uint32_t lin = kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
                       kb_op(&b, P, GRTC_ELEM_I64, GRTC_SCALAR_MUL, i,
                             kb_ci(&b, P, GRTC_ELEM_I64, C), 0),
                       j, 0);
  uint32_t x = kb_load(&b, P, 0, lin);
  uint32_t twice = kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_MUL, x,
                         kb_cf(&b, P, GRTC_ELEM_F32, 2.0), 0);
  uint32_t iota = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT,
                                            .section = P,
                                            .type = GRTC_ELEM_F32,
                                            .operand_count = 1,
                                            .operands = {lin}});
  kb_store(&b, 1, lin,
           kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_ADD, twice, iota, 0),
           NONE);
}

static void test_elementwise_flattened(void** state) {
  (void)state;
  enum { R = 5, C = 7 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  add_scaled_iota(&set, "whole", (int64_t[]){R, C});
  add_scaled_iota(&set, "rows", (int64_t[]){2, C});
  add_scaled_iota(&set, "partial_row", (int64_t[]){1, 3});
  add_scaled_iota(&set, "blocks", (int64_t[]){2, 3});
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &text));
  // One flat loop each for the first three kernels, nests for the last.
  int flat_loops = 0;
  for (const char* at = grt_string_builder_cstring(&text);
       (at = strstr(at, "for (int64_t q = qlo; q < qhi; ++q)")) != NULL; ++at) {
    ++flat_loops;
  }
  assert_int_equal(flat_loops, 3);
  grt_string_builder_deinit(&text);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  float in[R * C], out[R * C];
  for (int k = 0; k < R * C; ++k) in[k] = (float)(k % 5) - 1.5f;
  for (uint32_t kernel = 0; kernel < set.count; ++kernel) {
    for (int k = 0; k < R * C; ++k) out[k] = NAN;
    void* ptrs[] = {in, out};
    assert_int_equal(
        cpu_run(&lib, kernel, ptrs, 2, set.kernels[kernel]->workgroup_count),
        0);
    for (int k = 0; k < R * C; ++k) {
      if (out[k] != in[k] * 2 + (float)k) {
        fail_msg("kernel %u element %d: %g", kernel, k, out[k]);
      }
    }
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// Row sums, and with |argmax| argmax with two accumulators (value, index;
// ties keep the first index) over an R x 33 matrix in tiles of |tile| rows.
// Tiles of 8 rows or more of floating accumulators only (no argmax index)
// run 8 rows' reductions side by side, the rest one by one (|interleaved|:
// grtc_cpu_emit_interleaved_nest); the sums are the same bits as adding
// each row in order either way.
static void run_reductions(int R, int64_t tile, bool argmax, bool interleaved) {
  enum { C = 33 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, R, GRTC_KACCESS_WRITE},
      {GRTC_ELEM_I32, R, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "reduce", 3, bindings);
  kb_space(&b, 1, (int64_t[]){R}, (int64_t[]){tile});
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = C;
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t acc_sum = 0, acc_max = 0, acc_arg = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(&set, b.k, GRTC_ELEM_F32,
                                    kb_cf(&b, P, GRTC_ELEM_F32, 0), &acc_sum));
  if (argmax) {
    GRT_EXPECT_OK(grtc_kernel_add_acc(&set, b.k, GRTC_ELEM_F32,
                                      kb_cf(&b, P, GRTC_ELEM_F32, -INFINITY),
                                      &acc_max));
    GRT_EXPECT_OK(grtc_kernel_add_acc(&set, b.k, GRTC_ELEM_I32,
                                      kb_ci(&b, P, GRTC_ELEM_I32, 0), &acc_arg));
  }
  uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
  uint32_t lin = kb_op(
      &b, L, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
      kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_MUL, p,
            kb_ci(&b, L, GRTC_ELEM_I64, C), 0),
      r, 0);
  uint32_t x = kb_load(&b, L, 0, lin);
  uint32_t s = kb_acc(&b, L, acc_sum);
  b.k->accs[acc_sum].update = kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_ADD, s, x, 0);
  if (argmax) {
    uint32_t m = kb_acc(&b, L, acc_max);
    uint32_t a = kb_acc(&b, L, acc_arg);
    uint32_t better =
        kb_cmp(&b, L, GRTC_CMP_GT, GRTC_CMP_TYPE_FLOAT, x, m);
    b.k->accs[acc_max].update =
        kb_op(&b, L, GRTC_ELEM_F32, GRTC_SCALAR_SELECT, better, x, m);
    uint32_t ri = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT,
                                            .section = L, .type = GRTC_ELEM_I32,
                                            .operand_count = 1,
                                            .operands = {r}});
    b.k->accs[acc_arg].update =
        kb_op(&b, L, GRTC_ELEM_I32, GRTC_SCALAR_SELECT, better, ri, a);
  }
  kb_store(&b, 1, p, kb_acc(&b, Q, acc_sum), NONE);
  if (argmax) kb_store(&b, 2, p, kb_acc(&b, Q, acc_arg), NONE);
  grt_string_builder_t source;
  grt_string_builder_init(grt_allocator_system(), &source);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &source));
  assert_int_equal(strstr(grt_string_builder_cstring(&source), "lacc0[") != NULL,
                   interleaved);
  grt_string_builder_deinit(&source);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  float in[32 * C], sums[32];
  int32_t args[32];
  assert_true(R <= 32);
  // Terms whose sum rounds differently in another order.
  for (int k = 0; k < R * C; ++k) in[k] = (float)((k * 37) % 11) * 0.1f + 1e7f * (k % 5 == 0);
  void* ptrs[] = {in, sums, args};
  assert_int_equal(cpu_run(&lib, 0, ptrs, 3, b.k->workgroup_count), 0);
  for (int row = 0; row < R; ++row) {
    float want_sum = 0, best = -INFINITY;
    int32_t want_arg = 0;
    for (int c = 0; c < C; ++c) {
      float v = in[row * C + c];
      want_sum += v;
      if (v > best) best = v, want_arg = c;
    }
    assert_true(sums[row] == want_sum);
    if (argmax) assert_int_equal(args[row], want_arg);
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

static void test_reductions_sum_and_argmax(void** state) {
  (void)state;
  run_reductions(7, 3, true, false);
  run_reductions(21, 10, false, true);  // tiles of 10, 10, 1: 8 + 2, 8 + 2, 1
  run_reductions(16, 16, false, true);
  run_reductions(16, 16, true, false);  // an i32 accumulator: one by one
}

// Integer column sums, as ONNX MatMulInteger's zero-point corrections
// compute them: sum over 64 rows of i8 [64, 16] widened to i32, times a
// constant after the loop, on a tile of 16 points. Integer reductions run
// one point at a time (grtc_cpu_interleaves_points): with 8 points' i32
// sums side by side GCC 12's loop vectorizer at -O2 got these sums wrong.
static void test_reductions_integer_column_sums(void** state) {
  (void)state;
  enum { K = 64, N = 16 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_I8, K * N, GRTC_KACCESS_READ},
      {GRTC_ELEM_I32, N, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "colsum", 2, bindings);
  kb_space(&b, 2, (int64_t[]){1, N}, NULL);
  b.k->reduction_rank = 1;
  b.k->reduction_dims[0] = K;
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, P, 1);
  uint32_t acc = 0;
  GRT_EXPECT_OK(grtc_kernel_add_acc(&set, b.k, GRTC_ELEM_I32,
                                    kb_ci(&b, P, GRTC_ELEM_I32, 0), &acc));
  uint32_t one = kb_ci(&b, P, GRTC_ELEM_I32, 1);
  uint32_t scale = kb_ci(&b, P, GRTC_ELEM_I32, -121);
  uint32_t r = kb_index(&b, GRTC_KINST_RINDEX, L, 0);
  uint32_t lin = kb_op(
      &b, L, GRTC_ELEM_I64, GRTC_SCALAR_ADD,
      kb_op(&b, L, GRTC_ELEM_I64, GRTC_SCALAR_MUL, r,
            kb_ci(&b, L, GRTC_ELEM_I64, N), 0),
      p, 0);
  uint32_t x = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_CONVERT,
                                         .section = L, .type = GRTC_ELEM_I32,
                                         .operand_count = 1,
                                         .operands = {kb_load(&b, L, 0, lin)}});
  uint32_t term = kb_op(&b, L, GRTC_ELEM_I32, GRTC_SCALAR_MUL, one, x, 0);
  b.k->accs[acc].update = kb_op(&b, L, GRTC_ELEM_I32, GRTC_SCALAR_ADD,
                                kb_acc(&b, L, acc), term, 0);
  kb_store(&b, 1, p,
           kb_op(&b, Q, GRTC_ELEM_I32, GRTC_SCALAR_MUL, kb_acc(&b, Q, acc),
                 scale, 0),
           NONE);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  int8_t in[K * N];
  int32_t out[N];
  uint32_t seed = 1;
  for (int k = 0; k < K * N; ++k) {
    seed = seed * 1103515245u + 12345u;
    in[k] = (int8_t)(seed >> 16);
  }
  void* ptrs[] = {in, out};
  assert_int_equal(cpu_run(&lib, 0, ptrs, 2, b.k->workgroup_count), 0);
  for (int n = 0; n < N; ++n) {
    int32_t sum = 0;
    for (int k = 0; k < K; ++k) sum += in[k * N + n];
    if (out[n] != sum * -121) {
      fail_msg("column %d: %d, expected %d", n, out[n], sum * -121);
    }
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// Sorts (key f32, value i32) pairs along dim 1 of [3, 10] by key; equal
// keys keep their order (stable), and both operands are permuted.
static void test_sort_stable_two_operands(void** state) {
  (void)state;
  enum { R = 3, C = 10 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_READ},
      {GRTC_ELEM_I32, R * C, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, R * C, GRTC_KACCESS_WRITE},
      {GRTC_ELEM_I32, R * C, GRTC_KACCESS_WRITE},
  };
  kb_t b = kb_kernel(&set, "sort", 4, bindings);
  b.k->kind = GRTC_KERNEL_SORT;
  b.k->sort.operand_count = 2;
  b.k->sort.rank = 2;
  b.k->sort.dims[0] = R;
  b.k->sort.dims[1] = C;
  b.k->sort.dimension = 1;
  b.k->workgroup_count = 2;
  uint32_t lhs = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_ARG,
                                           .type = GRTC_ELEM_F32, .dim = 0});
  uint32_t rhs = kb_add(&b, (grtc_kinst_t){.kind = GRTC_KINST_ARG,
                                           .type = GRTC_ELEM_F32, .dim = 1});
  b.k->sort.comparator = kb_cmp(&b, P, GRTC_CMP_LT, GRTC_CMP_TYPE_FLOAT, lhs, rhs);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  float keys[R * C], out_keys[R * C];
  int32_t values[R * C], out_values[R * C];
  for (int k = 0; k < R * C; ++k) {
    keys[k] = (float)((k * 7) % 4);
    values[k] = k;
  }
  void* ptrs[] = {keys, values, out_keys, out_values};
  assert_int_equal(cpu_run(&lib, 0, ptrs, 4, 2), 0);
  for (int row = 0; row < R; ++row) {
    for (int c = 1; c < C; ++c) {
      int k = row * C + c;
      assert_true(out_keys[k - 1] <= out_keys[k]);
      if (out_keys[k - 1] == out_keys[k]) {
        assert_true(out_values[k - 1] < out_values[k]);  // stable
      }
      assert_true(keys[out_values[k] ] == out_keys[k]);
      assert_int_equal(out_values[k] / C, row);
    }
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// A scatter-add whose indices collide: serial kernels visit points in
// order, so every update lands.
static void test_serial_scatter_add(void** state) {
  (void)state;
  enum { N = 40, M = 6 };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  const grtc_kbinding_t bindings[] = {
      {GRTC_ELEM_I32, N, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, N, GRTC_KACCESS_READ},
      {GRTC_ELEM_F32, M, GRTC_KACCESS_READ_WRITE},
  };
  kb_t b = kb_kernel(&set, "scatter", 3, bindings);
  b.k->serial = true;
  kb_space(&b, 1, (int64_t[]){N}, (int64_t[]){4});
  assert_int_equal(b.k->workgroup_count, 1);
  uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
  uint32_t idx = kb_add(&b, (grtc_kinst_t){
                                .kind = GRTC_KINST_CONVERT, .type = GRTC_ELEM_I64,
                                .operand_count = 1,
                                .operands = {kb_load(&b, P, 0, p)}});
  uint32_t old = kb_load(&b, P, 2, idx);
  uint32_t sum = kb_op(&b, P, GRTC_ELEM_F32, GRTC_SCALAR_ADD, old,
                       kb_load(&b, P, 1, p), 0);
  kb_store(&b, 2, idx, sum, NONE);
  cpu_library_t lib = cpu_build_and_load(&set, NULL);
  int32_t indices[N];
  float updates[N], out[M] = {0}, want[M] = {0};
  for (int k = 0; k < N; ++k) {
    indices[k] = (k * 5) % M;
    updates[k] = (float)k;
    want[indices[k]] += updates[k];
  }
  void* ptrs[] = {indices, updates, out};
  assert_int_equal(cpu_run(&lib, 0, ptrs, 3, 1), 0);
  for (int k = 0; k < M; ++k) assert_true(out[k] == want[k]);
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// One elementwise kernel per case: out[p] = inst(in0[p], in1[p], in2[p]).
// Values are doubles; f16/bf16 buffers hold raw bits.
typedef struct scalar_case_t {
  grtc_kinst_kind_t kind;
  uint32_t op;
  grtc_compare_type_t compare_type;
  grtc_elem_t in, out;
  int n;
  double a[8], b[8], c[8];
  double want[8];
} scalar_case_t;

#define NAN_ NAN
#define INF INFINITY
static const scalar_case_t scalar_cases[] = {
    {GRTC_KINST_OP, GRTC_SCALAR_DIV, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 6,
     {7, -7, 5, INT32_MIN, INT32_MIN, 0}, {2, 2, 0, -1, 1, 0}, {0},
     {3, -3, -1, INT32_MIN, INT32_MIN, -1}},
    {GRTC_KINST_OP, GRTC_SCALAR_REM, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 4,
     {7, -7, 5, INT32_MIN}, {2, 2, 0, -1}, {0}, {1, -1, 5, 0}},
    {GRTC_KINST_OP, GRTC_SCALAR_DIV, 0, GRTC_ELEM_U32, GRTC_ELEM_U32, 2,
     {7, 5}, {2, 0}, {0}, {3, 4294967295.0}},
    {GRTC_KINST_OP, GRTC_SCALAR_DIV, 0, GRTC_ELEM_I64, GRTC_ELEM_I64, 2,
     {(double)INT64_MIN, 9}, {-1, 0}, {0}, {(double)INT64_MIN, -1}},
    {GRTC_KINST_OP, GRTC_SCALAR_SHL, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 4,
     {1, 1, 1, 1}, {3, 31, 32, -1}, {0}, {8, INT32_MIN, 0, 0}},
    {GRTC_KINST_OP, GRTC_SCALAR_SHRA, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 3,
     {-8, -8, 8}, {1, 40, 40}, {0}, {-4, -1, 0}},
    {GRTC_KINST_OP, GRTC_SCALAR_SHRL, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 2,
     {-8, -8}, {28, 32}, {0}, {15, 0}},
    {GRTC_KINST_OP, GRTC_SCALAR_SHRA, 0, GRTC_ELEM_U8, GRTC_ELEM_U8, 3,
     {0x80, 0x80, 0x40}, {1, 9, 1}, {0}, {0xc0, 0xff, 0x20}},
    {GRTC_KINST_OP, GRTC_SCALAR_ADD, 0, GRTC_ELEM_I8, GRTC_ELEM_I8, 1, {127},
     {1}, {0}, {-128}},
    {GRTC_KINST_OP, GRTC_SCALAR_MUL, 0, GRTC_ELEM_I16, GRTC_ELEM_I16, 1,
     {300}, {300}, {0}, {24464}},
    {GRTC_KINST_OP, GRTC_SCALAR_ABS, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 2,
     {INT32_MIN, -5}, {0}, {0}, {INT32_MIN, 5}},
    {GRTC_KINST_OP, GRTC_SCALAR_POW, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 6,
     {2, 1, -1, -1, 2, 3}, {10, -5, -3, -4, -1, 0}, {0},
     {1024, 1, -1, 1, 0, 1}},
    {GRTC_KINST_OP, GRTC_SCALAR_POPCNT, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 3,
     {0, -1, 7}, {0}, {0}, {0, 32, 3}},
    {GRTC_KINST_OP, GRTC_SCALAR_CLZ, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 3,
     {0, 1, -1}, {0}, {0}, {32, 31, 0}},
    {GRTC_KINST_OP, GRTC_SCALAR_CLZ, 0, GRTC_ELEM_I8, GRTC_ELEM_I8, 2, {1, 0},
     {0}, {0}, {7, 8}},
    {GRTC_KINST_OP, GRTC_SCALAR_SIGN, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 3,
     {-9, 0, 4}, {0}, {0}, {-1, 0, 1}},
    {GRTC_KINST_OP, GRTC_SCALAR_NOT, 0, GRTC_ELEM_I1, GRTC_ELEM_I1, 2, {0, 1},
     {0}, {0}, {1, 0}},
    {GRTC_KINST_OP, GRTC_SCALAR_NOT, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 1, {0},
     {0}, {0}, {-1}},
    // i1 add/multiply reach kernels as or/and (the verifier refuses add).
    {GRTC_KINST_OP, GRTC_SCALAR_OR, 0, GRTC_ELEM_I1, GRTC_ELEM_I1, 4,
     {0, 1, 1, 0}, {0, 1, 0, 1}, {0}, {0, 1, 1, 1}},
    {GRTC_KINST_OP, GRTC_SCALAR_AND, 0, GRTC_ELEM_I1, GRTC_ELEM_I1, 4,
     {0, 1, 1, 0}, {0, 1, 0, 1}, {0}, {0, 1, 0, 0}},
    {GRTC_KINST_OP, GRTC_SCALAR_XOR, 0, GRTC_ELEM_I1, GRTC_ELEM_I1, 4,
     {0, 1, 1, 0}, {0, 1, 0, 1}, {0}, {0, 0, 1, 1}},
    {GRTC_KINST_OP, GRTC_SCALAR_CLAMP, 0, GRTC_ELEM_I32, GRTC_ELEM_I32, 3,
     {0, 0, 5}, {-3, 7, 3}, {5, 5, 2}, {0, 5, 2}},
    {GRTC_KINST_OP, GRTC_SCALAR_MAX, 0, GRTC_ELEM_F32, GRTC_ELEM_F32, 4,
     {1, NAN_, -0.0, 2}, {NAN_, 1, 0.0, 3}, {0}, {NAN_, NAN_, 0.0, 3}},
    {GRTC_KINST_OP, GRTC_SCALAR_MIN, 0, GRTC_ELEM_F32, GRTC_ELEM_F32, 3,
     {1, -0.0, 2}, {NAN_, 0.0, 3}, {0}, {NAN_, -0.0, 2}},
    {GRTC_KINST_OP, GRTC_SCALAR_ROUND_EVEN, 0, GRTC_ELEM_F32, GRTC_ELEM_F32,
     5, {0.5, 1.5, 2.5, -0.5, -1.5}, {0}, {0}, {0, 2, 2, -0.0, -2}},
    {GRTC_KINST_OP, GRTC_SCALAR_ROUND_AFZ, 0, GRTC_ELEM_F32, GRTC_ELEM_F32, 4,
     {0.5, 1.5, 2.5, -0.5}, {0}, {0}, {1, 2, 3, -1}},
    // The select-only max/min and the libm-free round: every signed-zero,
    // infinity and NaN pairing, and values next to the rounding boundary.
    {GRTC_KINST_OP, GRTC_SCALAR_MAX, 0, GRTC_ELEM_F32, GRTC_ELEM_F32, 8,
     {0.0, -0.0, -0.0, -INF, INF, NAN_, -1, 5},
     {-0.0, 0.0, -0.0, -5, NAN_, NAN_, -INF, 5},
     {0}, {0.0, 0.0, -0.0, -5, NAN_, NAN_, -1, 5}},
    {GRTC_KINST_OP, GRTC_SCALAR_MIN, 0, GRTC_ELEM_F32, GRTC_ELEM_F32, 8,
     {0.0, -0.0, 0.0, INF, -INF, NAN_, 1, 5},
     {-0.0, 0.0, 0.0, 5, NAN_, NAN_, INF, 5},
     {0}, {-0.0, -0.0, 0.0, 5, NAN_, NAN_, 1, 5}},
    {GRTC_KINST_OP, GRTC_SCALAR_MAX, 0, GRTC_ELEM_F64, GRTC_ELEM_F64, 4,
     {0.0, -0.0, NAN_, 2}, {-0.0, 0.0, 1, NAN_}, {0}, {0.0, 0.0, NAN_, NAN_}},
    {GRTC_KINST_OP, GRTC_SCALAR_CLAMP, 0, GRTC_ELEM_F32, GRTC_ELEM_F32, 4,
     {0.0, 0.0, 0.0, NAN_}, {-0.0, -3, NAN_, 1}, {6, 6, 6, 6},
     {0.0, 0.0, NAN_, NAN_}},
    {GRTC_KINST_OP, GRTC_SCALAR_ROUND_AFZ, 0, GRTC_ELEM_F32, GRTC_ELEM_F32, 8,
     {-0.3, 0.49999997, -2.5, 8388609, -INF, INF, NAN_, -0.0}, {0}, {0},
     {-0.0, 0, -3, 8388609, -INF, INF, NAN_, -0.0}},
    {GRTC_KINST_OP, GRTC_SCALAR_ROUND_AFZ, 0, GRTC_ELEM_F64, GRTC_ELEM_F64, 6,
     {-0.3, 0.49999999999999994, 2.5, 4503599627370497.0, -1e300, -0.0},
     {0}, {0}, {-0.0, 0, 3, 4503599627370497.0, -1e300, -0.0}},
    {GRTC_KINST_OP, GRTC_SCALAR_SIGN, 0, GRTC_ELEM_F32, GRTC_ELEM_F32, 5,
     {-3, 0.0, -0.0, NAN_, 5}, {0}, {0}, {-1, 0.0, -0.0, NAN_, 1}},
    {GRTC_KINST_OP, GRTC_SCALAR_IS_FINITE, 0, GRTC_ELEM_F32, GRTC_ELEM_I1, 4,
     {1, INF, NAN_, -INF}, {0}, {0}, {1, 0, 0, 0}},
    {GRTC_KINST_OP, GRTC_SCALAR_REM, 0, GRTC_ELEM_F32, GRTC_ELEM_F32, 2,
     {-7, 7}, {2, -2}, {0}, {-1, 1}},
    {GRTC_KINST_OP, GRTC_SCALAR_LOGISTIC, 0, GRTC_ELEM_F64, GRTC_ELEM_F64, 1,
     {0}, {0}, {0}, {0.5}},
    {GRTC_KINST_OP, GRTC_SCALAR_RSQRT, 0, GRTC_ELEM_F16, GRTC_ELEM_F16, 1,
     {0x4400 /* 4 */}, {0}, {0}, {0x3800 /* 0.5 */}},
    {GRTC_KINST_CONVERT, 0, 0, GRTC_ELEM_F32, GRTC_ELEM_I32, 5,
     {3.9, -3.9, 1e20, -1e20, NAN_}, {0}, {0},
     {3, -3, INT32_MAX, INT32_MIN, 0}},
    {GRTC_KINST_CONVERT, 0, 0, GRTC_ELEM_F32, GRTC_ELEM_U8, 3, {-5, 300, 7.5},
     {0}, {0}, {0, 255, 7}},
    {GRTC_KINST_CONVERT, 0, 0, GRTC_ELEM_F64, GRTC_ELEM_I64, 2, {1e300, -1e300},
     {0}, {0}, {(double)INT64_MAX, (double)INT64_MIN}},
    {GRTC_KINST_CONVERT, 0, 0, GRTC_ELEM_F32, GRTC_ELEM_F16, 6,
     {1.0, 65504, 70000, 1.00048828125, 1.00146484375, 5.960464477539063e-08},
     {0}, {0}, {0x3c00, 0x7bff, 0x7c00, 0x3c00, 0x3c02, 0x0001}},
    {GRTC_KINST_CONVERT, 0, 0, GRTC_ELEM_F32, GRTC_ELEM_BF16, 4,
     {1.0, 1.00390625, 1.01171875, NAN_}, {0}, {0},
     {0x3f80, 0x3f80, 0x3f82, 0x7fc0}},
    {GRTC_KINST_CONVERT, 0, 0, GRTC_ELEM_F16, GRTC_ELEM_F32, 4,
     {0x3c00, 0x0001, 0xfc00, 0x7bff}, {0}, {0},
     {1.0, 5.960464477539063e-08, -INF, 65504}},
    {GRTC_KINST_CONVERT, 0, 0, GRTC_ELEM_I32, GRTC_ELEM_BF16, 2, {257, 259},
     {0}, {0}, {0x4380, 0x4382}},
    {GRTC_KINST_CONVERT, 0, 0, GRTC_ELEM_I32, GRTC_ELEM_I1, 3, {0, 5, -1},
     {0}, {0}, {0, 1, 1}},
    {GRTC_KINST_CONVERT, 0, 0, GRTC_ELEM_F32, GRTC_ELEM_I1, 2, {0.0, 0.25},
     {0}, {0}, {0, 1}},
    {GRTC_KINST_BITCAST, 0, 0, GRTC_ELEM_F32, GRTC_ELEM_I32, 1, {1.0}, {0},
     {0}, {0x3f800000}},
    {GRTC_KINST_COMPARE, GRTC_CMP_LT, GRTC_CMP_TYPE_TOTALORDER, GRTC_ELEM_F32,
     GRTC_ELEM_I1, 4, {-0.0, NAN_, -NAN_, 1}, {0.0, INF, -INF, NAN_}, {0},
     {1, 0, 1, 1}},
    {GRTC_KINST_COMPARE, GRTC_CMP_NE, GRTC_CMP_TYPE_FLOAT, GRTC_ELEM_F32,
     GRTC_ELEM_I1, 2, {NAN_, 1}, {NAN_, 1}, {0}, {1, 0}},
    {GRTC_KINST_COMPARE, GRTC_CMP_LT, GRTC_CMP_TYPE_UNSIGNED, GRTC_ELEM_I32,
     GRTC_ELEM_I1, 2, {-1, 1}, {1, -1}, {0}, {0, 1}},
    {GRTC_KINST_COMPARE, GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED, GRTC_ELEM_U8,
     GRTC_ELEM_I1, 1, {200}, {1}, {0}, {1}},
};

static void put(grtc_elem_t elem, void* buffer, int i, double v) {
  switch (elem) {
    case GRTC_ELEM_I1: case GRTC_ELEM_U8: ((uint8_t*)buffer)[i] = (uint8_t)v; break;
    case GRTC_ELEM_I8: ((int8_t*)buffer)[i] = (int8_t)v; break;
    case GRTC_ELEM_I16: ((int16_t*)buffer)[i] = (int16_t)v; break;
    case GRTC_ELEM_U16: case GRTC_ELEM_F16: case GRTC_ELEM_BF16:
      ((uint16_t*)buffer)[i] = (uint16_t)v; break;
    case GRTC_ELEM_I32: ((int32_t*)buffer)[i] = (int32_t)v; break;
    case GRTC_ELEM_U32: ((uint32_t*)buffer)[i] = (uint32_t)v; break;
    case GRTC_ELEM_I64: ((int64_t*)buffer)[i] = v >= 9.2e18 ? INT64_MAX : (int64_t)v; break;
    case GRTC_ELEM_U64: ((uint64_t*)buffer)[i] = (uint64_t)v; break;
    case GRTC_ELEM_F32: ((float*)buffer)[i] = (float)v; break;
    default: ((double*)buffer)[i] = v; break;
  }
}

static double get(grtc_elem_t elem, const void* buffer, int i) {
  switch (elem) {
    case GRTC_ELEM_I1: case GRTC_ELEM_U8: return ((const uint8_t*)buffer)[i];
    case GRTC_ELEM_I8: return ((const int8_t*)buffer)[i];
    case GRTC_ELEM_I16: return ((const int16_t*)buffer)[i];
    case GRTC_ELEM_U16: case GRTC_ELEM_F16: case GRTC_ELEM_BF16:
      return ((const uint16_t*)buffer)[i];
    case GRTC_ELEM_I32: return ((const int32_t*)buffer)[i];
    case GRTC_ELEM_U32: return ((const uint32_t*)buffer)[i];
    case GRTC_ELEM_I64: return (double)((const int64_t*)buffer)[i];
    case GRTC_ELEM_U64: return (double)((const uint64_t*)buffer)[i];
    case GRTC_ELEM_F32: return ((const float*)buffer)[i];
    default: return ((const double*)buffer)[i];
  }
}

static void test_scalar_corner_cases(void** state) {
  (void)state;
  enum { CASES = sizeof(scalar_cases) / sizeof(scalar_cases[0]) };
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  for (int c = 0; c < CASES; ++c) {
    const scalar_case_t* sc = &scalar_cases[c];
    grtc_elem_t in0 = sc->in;
    if (sc->kind == GRTC_KINST_OP && sc->op == GRTC_SCALAR_SELECT) {
      in0 = GRTC_ELEM_I1;
    }
    const grtc_kbinding_t bindings[] = {
        {in0, 8, GRTC_KACCESS_READ},
        {sc->in, 8, GRTC_KACCESS_READ},
        {sc->in, 8, GRTC_KACCESS_READ},
        {sc->out, 8, GRTC_KACCESS_WRITE},
    };
    char name[32];
    snprintf(name, sizeof(name), "case%d", c);
    kb_t b = kb_kernel(&set, name, 4, bindings);
    kb_space(&b, 1, (int64_t[]){sc->n}, NULL);
    uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
    uint32_t args[3];
    for (int k = 0; k < 3; ++k) args[k] = kb_load(&b, P, (uint32_t)k, p);
    uint32_t arity = sc->kind == GRTC_KINST_OP
                         ? grtc_scalar_op_arity((grtc_scalar_op_t)sc->op)
                         : sc->kind == GRTC_KINST_COMPARE ? 2 : 1;
    uint32_t v = kb_add(&b, (grtc_kinst_t){.kind = sc->kind, .type = sc->out,
                                           .op = sc->op,
                                           .compare_type = sc->compare_type,
                                           .operand_count = arity,
                                           .operands = {args[0], args[1],
                                                        args[2]}});
    kb_store(&b, 3, p, v, NONE);
  }
  grtc_cpu_options_t options = {
      .features = "generic",
      .optimization_level = 2,
      .flags = "-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes "
               "-Wmissing-prototypes -Wno-unused-parameter"};
  cpu_library_t lib = cpu_build_and_load(&set, &options);
  for (int c = 0; c < CASES; ++c) {
    const scalar_case_t* sc = &scalar_cases[c];
    uint64_t in[3][8] = {{0}}, out[8] = {0};
    for (int i = 0; i < sc->n; ++i) {
      put(set.kernels[c]->bindings[0].elem, in[0], i, sc->a[i]);
      put(sc->in, in[1], i, sc->b[i]);
      put(sc->in, in[2], i, sc->c[i]);
    }
    void* ptrs[] = {in[0], in[1], in[2], out};
    assert_int_equal(cpu_run(&lib, (uint32_t)c, ptrs, 4, 1), 0);
    for (int i = 0; i < sc->n; ++i) {
      double got = get(sc->out, out, i), want = sc->want[i];
      bool same = isnan(want) ? isnan(got)
                              : got == want && signbit(got) == signbit(want);
      if (!same) {
        fail_msg("case %d (%s) element %d: got %.17g, want %.17g", c,
                 sc->kind == GRTC_KINST_OP
                     ? grtc_scalar_op_spelling((grtc_scalar_op_t)sc->op)
                     : "convert/compare",
                 i, got, want);
      }
    }
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

// maximum/minimum of a value and a constant: with a constant that is not
// NaN and not the zero ordering past the other (-0 for maximum, +0 for
// minimum) the emitter calls grt_maximum_by/grt_minimum_by, which must
// give the full helper's results (signed zeros, NaN, infinities) with the
// constant on either side; the other constants keep the full helper.
static double max_min_reference(bool is_max, double a, double b) {
  if (isnan(a) || isnan(b)) return a + b;
  if (a == b) return (signbit(a) != 0) == is_max ? b : a;
  return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

static void test_max_min_by_constant(void** state) {
  (void)state;
  static const double constants[] = {0.0, -0.0, NAN, 2.0, -INFINITY, INFINITY};
  static const double x[8] = {0.0, -0.0, NAN, 2.0, -3.0, INFINITY, -INFINITY, 5.0};
  enum { CONSTANTS = sizeof(constants) / sizeof(constants[0]) };
  static const grtc_elem_t types[2] = {GRTC_ELEM_F32, GRTC_ELEM_F64};
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  uint32_t count = 0;
  for (int t = 0; t < 2; ++t) {
    for (int m = 0; m < 2; ++m) {
      for (int c = 0; c < CONSTANTS; ++c) {
        for (int first = 0; first < 2; ++first) {
          const grtc_kbinding_t bindings[] = {
              {types[t], 8, GRTC_KACCESS_READ},
              {types[t], 8, GRTC_KACCESS_WRITE},
          };
          char name[32];
          snprintf(name, sizeof(name), "by%u", count++);
          kb_t b = kb_kernel(&set, name, 2, bindings);
          kb_space(&b, 1, (int64_t[]){8}, NULL);
          uint32_t p = kb_index(&b, GRTC_KINST_PINDEX, P, 0);
          uint32_t v = kb_load(&b, P, 0, p);
          uint32_t k = kb_cf(&b, P, types[t], constants[c]);
          grtc_scalar_op_t op = m ? GRTC_SCALAR_MIN : GRTC_SCALAR_MAX;
          kb_store(&b, 1, p, kb_op(&b, P, types[t], op, first ? k : v, first ? v : k, NONE),
                   NONE);
        }
      }
    }
  }
  // The source: the short helpers exactly where they apply.
  grt_string_builder_t source;
  grt_string_builder_init(grt_allocator_system(), &source);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, NULL, &source));
  const char* text = grt_string_builder_cstring(&source);
  count = 0;
  for (int t = 0; t < 2; ++t) {
    for (int m = 0; m < 2; ++m) {
      for (int c = 0; c < CONSTANTS; ++c) {
        for (int first = 0; first < 2; ++first, ++count) {
          char head[48];
          snprintf(head, sizeof(head), "grtk_by%u(", count);
          const char* body = strstr(text, head);
          assert_non_null(body);
          const char* end = strstr(body, "return 0;");
          assert_non_null(end);
          const char* by = strstr(body, m ? "grt_minimum_by_" : "grt_maximum_by_");
          double k = constants[c];
          bool want = !isnan(k) && !(k == 0 && (signbit(k) != 0) == !m);
          if ((by != NULL && by < end) != want) {
            fail_msg("%s with constant %g (%s first): short helper %s", m ? "minimum" : "maximum",
                     k, first ? "constant" : "value", want ? "missing" : "used");
          }
        }
      }
    }
  }
  grt_string_builder_deinit(&source);
  // The results, against the full definition.
  grtc_cpu_options_t options = {.features = "host", .optimization_level = 2};
  cpu_library_t lib = cpu_build_and_load(&set, &options);
  count = 0;
  for (int t = 0; t < 2; ++t) {
    for (int m = 0; m < 2; ++m) {
      for (int c = 0; c < CONSTANTS; ++c) {
        for (int first = 0; first < 2; ++first, ++count) {
          uint64_t in[8] = {0}, out[8] = {0};
          for (int i = 0; i < 8; ++i) put(types[t], in, i, x[i]);
          void* ptrs[] = {in, out};
          assert_int_equal(cpu_run(&lib, count, ptrs, 2, 1), 0);
          for (int i = 0; i < 8; ++i) {
            double k = types[t] == GRTC_ELEM_F32 ? (double)(float)constants[c] : constants[c];
            double want = first ? max_min_reference(!m, k, x[i]) : max_min_reference(!m, x[i], k);
            double got = get(types[t], out, i);
            bool same = isnan(want) ? isnan(got) : got == want && signbit(got) == signbit(want);
            if (!same) {
              fail_msg("%s(%s) element %d: got %g, want %g", m ? "minimum" : "maximum",
                       first ? "constant, x" : "x, constant", i, got, want);
            }
          }
        }
      }
    }
  }
  cpu_unload(&lib);
  grtc_kernel_set_deinit(&set);
}

static void build_trivial(grtc_kernel_set_t* set) {
  const grtc_kbinding_t bindings[] = {{GRTC_ELEM_F32, 4, GRTC_KACCESS_WRITE}};
  kb_t b = kb_kernel(set, "k", 1, bindings);
  kb_space(&b, 1, (int64_t[]){4}, NULL);
  kb_store(&b, 0, kb_index(&b, GRTC_KINST_PINDEX, P, 0),
           kb_cf(&b, P, GRTC_ELEM_F32, 2.0), NONE);
}

static grt_status_t try_build(const grtc_kernel_set_t* set,
                              const grtc_cpu_options_t* options) {
  uint8_t* binary = NULL;
  size_t size = 0;
  char format[32];
  grt_status_t status = grtc_cpu_build(set, options, grt_allocator_system(),
                                       &binary, &size, format);
  grt_allocator_free(grt_allocator_system(), binary);
  return status;
}

static void test_compiler_failures_are_reported(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  build_trivial(&set);
  grtc_cpu_options_t options = {.cc = "/bin/false", .optimization_level = 2};
  grt_expect_error(try_build(&set, &options), GRT_STATUS_FAILED_PRECONDITION,
                   "C compiler failed: /bin/false -dumpmachine");
  options.cc = "/nonexistent/cc";
  grt_expect_error(try_build(&set, &options), GRT_STATUS_NOT_FOUND,
                   "cannot run the C compiler '/nonexistent/cc'");
  options.cc = NULL;
  options.flags = "-fno-such-flag-at-all";
  grt_expect_error(try_build(&set, &options), GRT_STATUS_FAILED_PRECONDITION,
                   "-fno-such-flag-at-all");
  options.flags = NULL;
  options.features = "avx2;rm -rf";
  grt_expect_error(try_build(&set, &options), GRT_STATUS_INVALID_ARGUMENT,
                   "bad CPU feature list 'avx2;rm -rf'");
  options.features = "avx2,fma";
  GRT_EXPECT_OK(try_build(&set, &options));
  grtc_kernel_set_deinit(&set);
}

// An invalid kernel is rejected by the verifier before any C is emitted.
static void test_invalid_kernel_rejected(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  build_trivial(&set);
  set.kernels[0]->stores[0].binding = 3;
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  grt_expect_error(grtc_cpu_emit_c(&set, NULL, &text), GRT_STATUS_INTERNAL,
                   "store 0 to binding 3");
  grt_string_builder_deinit(&text);
  grtc_kernel_set_deinit(&set);
}

// The static variant names its query and register functions.
static void test_static_library_symbols(void** state) {
  (void)state;
  grtc_kernel_set_t set;
  grtc_kernel_set_init(grt_allocator_system(), &set);
  build_trivial(&set);
  grt_string_builder_t text;
  grt_string_builder_init(grt_allocator_system(), &text);
  GRT_EXPECT_OK(grtc_cpu_emit_c(&set, "model", &text));
  const char* c = grt_string_builder_cstring(&text);
  assert_non_null(strstr(c, "const grtk_library_t* model_query(uint32_t"));
  assert_non_null(strstr(c, "struct grt_status_record_t* model_register(void) {"));
  assert_non_null(strstr(c, "return grt_hal_local_register_static_library(&grtk_library);"));
  assert_null(strstr(c, "grt_kernel_library_query"));
  grt_string_builder_deinit(&text);
  grtc_kernel_set_deinit(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_abi_layout_matches_kernel_abi),
      cmocka_unit_test(test_elementwise_broadcast),
      cmocka_unit_test(test_elementwise_flattened),
      cmocka_unit_test(test_reductions_sum_and_argmax),
      cmocka_unit_test(test_reductions_integer_column_sums),
      cmocka_unit_test(test_sort_stable_two_operands),
      cmocka_unit_test(test_serial_scatter_add),
      cmocka_unit_test(test_scalar_corner_cases),
      cmocka_unit_test(test_max_min_by_constant),
      cmocka_unit_test(test_compiler_failures_are_reported),
      cmocka_unit_test(test_invalid_kernel_rejected),
      cmocka_unit_test(test_static_library_symbols),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

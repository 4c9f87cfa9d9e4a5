// Row patterns (rows.h): a softmax along the last dim formed into one ROWS
// kernel when the options ask for it (and the separate reductions when
// they do not, or when the program is not exactly that softmax), its
// generic body run by the kernel IR reference interpreter against a
// softmax computed here: rows of one element, rows with -inf entries, a
// row of only -inf (NaN, as the separate reductions give), the ONNX
// importer's reshape-and-broadcast form, and the tiles of whole rows. A
// layer norm (two reductions, the second over deviations from the first's
// mean, with scale and offset after it) as one TWO_PASS kernel; one
// reduction alone is not a row pattern.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/dispatch/dispatch.h"
#include "compiler/dispatch/kernel_interp_test_util.h"

typedef grtc_test_program_t compiled_t;

static void compile(const char* source, bool rows, compiled_t* out) {
  GRT_EXPECT_OK(grtc_test_program_import(source, out));
  grtc_dispatch_options_t options = {2, 0, rows};
  GRT_EXPECT_OK(grtc_dispatch_form(out->module, &options, &out->kernels));
}

static void release(compiled_t* c) { grtc_test_program_release(c); }

// The softmax of |x| (|rows| rows of |n|) in double, rounded once.
static void softmax(const float* x, int64_t rows, int64_t n, float* y) {
  for (int64_t r = 0; r < rows; ++r) {
    double m = -INFINITY;
    for (int64_t j = 0; j < n; ++j) m = fmax(m, x[r * n + j]);
    double s = 0;
    for (int64_t j = 0; j < n; ++j) s += exp((double)x[r * n + j] - m);
    for (int64_t j = 0; j < n; ++j) {
      y[r * n + j] = (float)(exp((double)x[r * n + j] - m) / s);
    }
  }
}

static void expect_close(const float* got, const float* want, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (isnan(want[i]) ? !isnan(got[i])
                       : fabsf(got[i] - want[i]) > 1e-6f + 1e-5f * fabsf(want[i])) {
      fail_msg("element %zu: got %.9g, want %.9g", i, got[i], want[i]);
    }
  }
}

// The softmax of a ROWSxN argument as jax writes it (broadcast of the
// reductions along dims [0]), or with |max_init| in place of -inf.
static void softmax_source(char* buffer, size_t size, int rows, int n,
                           const char* max_init) {
  snprintf(buffer, size,
           "func.func @main(%%x: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {\n"
           "  %%ninf = stablehlo.constant dense<%s> : tensor<f32>\n"
           "  %%zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
           "  %%m = stablehlo.reduce(%%x init: %%ninf) applies stablehlo.maximum"
           " across dimensions = [1] : (tensor<%dx%dxf32>, tensor<f32>) -> "
           "tensor<%dxf32>\n"
           "  %%mb = stablehlo.broadcast_in_dim %%m, dims = [0] : "
           "(tensor<%dxf32>) -> tensor<%dx%dxf32>\n"
           "  %%d = stablehlo.subtract %%x, %%mb : tensor<%dx%dxf32>\n"
           "  %%e = stablehlo.exponential %%d : tensor<%dx%dxf32>\n"
           "  %%s = stablehlo.reduce(%%e init: %%zero) applies stablehlo.add "
           "across dimensions = [1] : (tensor<%dx%dxf32>, tensor<f32>) -> "
           "tensor<%dxf32>\n"
           "  %%sb = stablehlo.broadcast_in_dim %%s, dims = [0] : "
           "(tensor<%dxf32>) -> tensor<%dx%dxf32>\n"
           "  %%y = stablehlo.divide %%e, %%sb : tensor<%dx%dxf32>\n"
           "  return %%y : tensor<%dx%dxf32>\n}\n",
           rows, n, rows, n, max_init, rows, n, rows, rows, rows, n, rows, n,
           rows, n, rows, n, rows, rows, rows, n, rows, n, rows, n);
}

// One ROWS kernel over the whole softmax, run on |x|.
static void check_rows(int rows, int n, const float* x) {
  char source[4096];
  softmax_source(source, sizeof(source), rows, n, "0xFF800000");
  compiled_t c;
  compile(source, true, &c);
  assert_int_equal(c.kernels.count, 1);
  const grtc_kernel_t* k = c.kernels.kernels[0];
  assert_int_equal(k->pattern, GRTC_KPATTERN_ROWS);
  assert_int_equal(k->rows.kind, GRTC_KROWS_SOFTMAX);
  assert_int_equal(k->rows.n, n);
  assert_int_equal(k->rows.input_binding, 0);
  assert_int_equal(k->tile[1], n);
  size_t count = (size_t)rows * (size_t)n;
  float* got = calloc(count, sizeof(float));
  float* want = calloc(count, sizeof(float));
  void* args[] = {(void*)x};
  void* results[] = {got};
  GRT_EXPECT_OK(grtc_kinterp_run_func(c.module, &c.kernels,
                                      c.module->first_func, args, results));
  softmax(x, rows, n, want);
  expect_close(got, want, count);
  free(got);
  free(want);
  release(&c);
}

static void test_softmax_is_one_rows_kernel(void** state) {
  (void)state;
  // Rows of 5: ordinary values, -inf entries, only -inf (NaN), a NaN.
  const float x[] = {1, 2, 3, 4, 5,
                     -INFINITY, 0, -INFINITY, 1, -INFINITY,
                     -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY,
                     100, 100, -1000, 0.5f, NAN};
  check_rows(4, 5, x);
}

static void test_softmax_rows_of_one(void** state) {
  (void)state;
  const float x[] = {3, -2, 0, 80};
  check_rows(4, 1, x);
}

static void test_softmax_long_rows(void** state) {
  (void)state;
  enum { kRows = 3, kN = 37 };
  float x[kRows * kN];
  for (int i = 0; i < kRows * kN; ++i) x[i] = (float)((i * 7) % 23) / 3 - 4;
  check_rows(kRows, kN, x);
}

// Off: the reductions and the division stay separate kernels.
static void test_softmax_without_row_patterns(void** state) {
  (void)state;
  char source[4096];
  softmax_source(source, sizeof(source), 4, 5, "0xFF800000");
  compiled_t c;
  compile(source, false, &c);
  assert_int_equal(c.kernels.count, 3);
  for (uint32_t i = 0; i < c.kernels.count; ++i) {
    assert_int_not_equal(c.kernels.kernels[i]->pattern, GRTC_KPATTERN_ROWS);
  }
  release(&c);
}

// A maximum that starts from 0 is not the softmax routine's (which starts
// from -inf) but is two reductions along the row: a TWO_PASS kernel, whose
// results are still the softmax (the shift cancels).
static void test_other_max_init_is_two_pass(void** state) {
  (void)state;
  char source[4096];
  softmax_source(source, sizeof(source), 4, 5, "0.0");
  compiled_t c;
  compile(source, true, &c);
  assert_int_equal(c.kernels.count, 1);
  assert_int_equal(c.kernels.kernels[0]->pattern, GRTC_KPATTERN_ROWS);
  assert_int_equal(c.kernels.kernels[0]->rows.kind, GRTC_KROWS_TWO_PASS);
  const float x[] = {1, 2, 3, 4, 5, -3, -2, -1, -4, -5,
                     0.5f, 9, -9, 0, 2, -30, -31, -32, -29, -28};
  float got[20], want[20];
  void* args[] = {(void*)x};
  void* results[] = {got};
  GRT_EXPECT_OK(grtc_kinterp_run_func(c.module, &c.kernels,
                                      c.module->first_func, args, results));
  softmax(x, 4, 5, want);
  expect_close(got, want, 20);
  release(&c);
}

// The exponentials also returned: they need a buffer of their own, so the
// softmax is left to the separate kernels.
static void test_exponential_used_elsewhere(void** state) {
  (void)state;
  const char* source =
      "func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, "
      "tensor<2x3xf32>) {\n"
      "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum "
      "across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> "
      "tensor<2xf32>\n"
      "  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<2xf32>) "
      "-> tensor<2x3xf32>\n"
      "  %d = stablehlo.subtract %x, %mb : tensor<2x3xf32>\n"
      "  %e = stablehlo.exponential %d : tensor<2x3xf32>\n"
      "  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across "
      "dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
      "  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2xf32>) "
      "-> tensor<2x3xf32>\n"
      "  %y = stablehlo.divide %e, %sb : tensor<2x3xf32>\n"
      "  return %y, %e : tensor<2x3xf32>, tensor<2x3xf32>\n}\n";
  compiled_t c;
  compile(source, true, &c);
  for (uint32_t i = 0; i < c.kernels.count; ++i) {
    assert_int_not_equal(c.kernels.kernels[i]->pattern, GRTC_KPATTERN_ROWS);
  }
  release(&c);
}

// The ONNX importer's form (reductions reshaped to [..., 1], broadcast
// along every dim) over a fused input (x * 0.5, recomputed in each
// consumer until the pattern makes it a buffer), 2x3 rows of 40: one ROWS
// kernel after the input's, tiles of whole rows spread over at least
// min(rows, 8) workgroups.
static void test_onnx_form_over_a_fused_input(void** state) {
  (void)state;
  const char* source =
      "func.func @main(%a: tensor<2x3x40xf32>) -> tensor<2x3x40xf32> {\n"
      "  %h = stablehlo.constant dense<0.5> : tensor<2x3x40xf32>\n"
      "  %x = stablehlo.multiply %a, %h : tensor<2x3x40xf32>\n"
      "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum "
      "across dimensions = [2] : (tensor<2x3x40xf32>, tensor<f32>) -> "
      "tensor<2x3xf32>\n"
      "  %mr = stablehlo.reshape %m : (tensor<2x3xf32>) -> tensor<2x3x1xf32>\n"
      "  %mb = stablehlo.broadcast_in_dim %mr, dims = [0, 1, 2] : "
      "(tensor<2x3x1xf32>) -> tensor<2x3x40xf32>\n"
      "  %d = stablehlo.subtract %x, %mb : tensor<2x3x40xf32>\n"
      "  %e = stablehlo.exponential %d : tensor<2x3x40xf32>\n"
      "  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across "
      "dimensions = [2] : (tensor<2x3x40xf32>, tensor<f32>) -> "
      "tensor<2x3xf32>\n"
      "  %sr = stablehlo.reshape %s : (tensor<2x3xf32>) -> tensor<2x3x1xf32>\n"
      "  %sb = stablehlo.broadcast_in_dim %sr, dims = [0, 1, 2] : "
      "(tensor<2x3x1xf32>) -> tensor<2x3x40xf32>\n"
      "  %y = stablehlo.divide %e, %sb : tensor<2x3x40xf32>\n"
      "  return %y : tensor<2x3x40xf32>\n}\n";
  compiled_t c;
  compile(source, true, &c);
  assert_int_equal(c.kernels.count, 2);
  const grtc_kernel_t* k = c.kernels.kernels[1];
  assert_int_equal(k->pattern, GRTC_KPATTERN_ROWS);
  assert_int_equal(k->rows.n, 40);
  assert_int_equal(k->tile[2], 40);
  assert_int_equal(k->tile[1], 1);
  assert_int_equal(k->workgroup_count, 6);
  enum { kCount = 2 * 3 * 40 };
  float a[kCount], x[kCount], got[kCount], want[kCount];
  for (int i = 0; i < kCount; ++i) {
    a[i] = (float)((i * 13) % 29) - 14;
    x[i] = a[i] * 0.5f;
  }
  void* args[] = {a};
  void* results[] = {got};
  GRT_EXPECT_OK(grtc_kinterp_run_func(c.module, &c.kernels,
                                      c.module->first_func, args, results));
  softmax(x, 6, 40, want);
  expect_close(got, want, kCount);
  release(&c);
}

static const char kLayerNorm[] =
    "func.func @main(%x: tensor<3x40xf32>, %g: tensor<40xf32>, %b: "
    "tensor<40xf32>) -> tensor<3x40xf32> {\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across "
    "dimensions = [1] : (tensor<3x40xf32>, tensor<f32>) -> tensor<3xf32>\n"
    "  %n = stablehlo.constant dense<40.0> : tensor<3xf32>\n"
    "  %mean = stablehlo.divide %s, %n : tensor<3xf32>\n"
    "  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<3xf32>) "
    "-> tensor<3x40xf32>\n"
    "  %c = stablehlo.subtract %x, %mb : tensor<3x40xf32>\n"
    "  %sq = stablehlo.multiply %c, %c : tensor<3x40xf32>\n"
    "  %v = stablehlo.reduce(%sq init: %z) applies stablehlo.add across "
    "dimensions = [1] : (tensor<3x40xf32>, tensor<f32>) -> tensor<3xf32>\n"
    "  %var = stablehlo.divide %v, %n : tensor<3xf32>\n"
    "  %eps = stablehlo.constant dense<1.0e-5> : tensor<3xf32>\n"
    "  %ve = stablehlo.add %var, %eps : tensor<3xf32>\n"
    "  %rs = stablehlo.rsqrt %ve : tensor<3xf32>\n"
    "  %rb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<3xf32>) -> "
    "tensor<3x40xf32>\n"
    "  %y = stablehlo.multiply %c, %rb : tensor<3x40xf32>\n"
    "  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<40xf32>) -> "
    "tensor<3x40xf32>\n"
    "  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<40xf32>) -> "
    "tensor<3x40xf32>\n"
    "  %y2 = stablehlo.multiply %y, %gb : tensor<3x40xf32>\n"
    "  %y3 = stablehlo.add %y2, %bb : tensor<3x40xf32>\n"
    "  return %y3 : tensor<3x40xf32>\n}\n";

static void test_layer_norm_is_one_two_pass_kernel(void** state) {
  (void)state;
  compiled_t c;
  compile(kLayerNorm, true, &c);
  assert_int_equal(c.kernels.count, 1);
  const grtc_kernel_t* k = c.kernels.kernels[0];
  assert_int_equal(k->pattern, GRTC_KPATTERN_ROWS);
  assert_int_equal(k->rows.kind, GRTC_KROWS_TWO_PASS);
  assert_int_equal(k->rows.n, 40);
  assert_int_equal(k->tile[1], 40);
  assert_int_equal(k->workgroup_count, 3);
  enum { kRows = 3, kN = 40 };
  float x[kRows * kN], g[kN], b[kN], got[kRows * kN], want[kRows * kN];
  for (int i = 0; i < kRows * kN; ++i) x[i] = (float)((i * 7) % 23) / 3 - 4;
  x[45] = 1e4f;  // a wide row
  for (int j = 0; j < kN; ++j) {
    g[j] = 0.5f + (float)j / 40;
    b[j] = (float)j / 80 - 0.2f;
  }
  for (int r = 0; r < kRows; ++r) {
    double mean = 0, var = 0;
    for (int j = 0; j < kN; ++j) mean += x[r * kN + j];
    mean /= kN;
    for (int j = 0; j < kN; ++j) {
      var += (x[r * kN + j] - mean) * (x[r * kN + j] - mean);
    }
    var /= kN;
    for (int j = 0; j < kN; ++j) {
      want[r * kN + j] =
          (float)((x[r * kN + j] - mean) / sqrt(var + 1e-5) * g[j] + b[j]);
    }
  }
  void* args[] = {x, g, b};
  void* results[] = {got};
  GRT_EXPECT_OK(grtc_kinterp_run_func(c.module, &c.kernels,
                                      c.module->first_func, args, results));
  expect_close(got, want, kRows * kN);
  release(&c);
  // Without row patterns: two reductions and the normalization.
  compile(kLayerNorm, false, &c);
  assert_int_equal(c.kernels.count, 3);
  release(&c);
}

// x / sum(x) along the row: one reduction, no row pattern (the reduction
// and its broadcast consumer stay two kernels).
static void test_one_reduction_is_not_a_row_pattern(void** state) {
  (void)state;
  const char* source =
      "func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across "
      "dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
      "  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2xf32>) "
      "-> tensor<2x3xf32>\n"
      "  %y = stablehlo.divide %x, %sb : tensor<2x3xf32>\n"
      "  return %y : tensor<2x3xf32>\n}\n";
  compiled_t c;
  compile(source, true, &c);
  assert_int_equal(c.kernels.count, 2);
  for (uint32_t i = 0; i < c.kernels.count; ++i) {
    assert_int_not_equal(c.kernels.kernels[i]->pattern, GRTC_KPATTERN_ROWS);
  }
  release(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_softmax_is_one_rows_kernel),
      cmocka_unit_test(test_softmax_rows_of_one),
      cmocka_unit_test(test_softmax_long_rows),
      cmocka_unit_test(test_softmax_without_row_patterns),
      cmocka_unit_test(test_other_max_init_is_two_pass),
      cmocka_unit_test(test_exponential_used_elsewhere),
      cmocka_unit_test(test_onnx_form_over_a_fused_input),
      cmocka_unit_test(test_layer_norm_is_one_two_pass_kernel),
      cmocka_unit_test(test_one_reduction_is_not_a_row_pattern),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

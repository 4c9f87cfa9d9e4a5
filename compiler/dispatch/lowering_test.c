// Kernels of each op family, from StableHLO text through the front-end,
// dispatch formation and the kernel IR reference interpreter, against
// results computed with numpy (the inputs are formulas of the element
// index so the expectations stay short).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/dispatch/dispatch.h"
#include "compiler/dispatch/kernel_interp_test_util.h"
#include "compiler/tensor/passes.h"

typedef grtc_test_program_t compiled_t;

// Parses, imports and verifies |source| into |out| (kernels empty).
static void import_verified(const char* source, compiled_t* out) {
  GRT_EXPECT_OK(grtc_test_program_import(source, out));
}

static grt_status_t compile(const char* source, int level, compiled_t* out) {
  import_verified(source, out);
  grtc_dispatch_options_t options = {level, 0, false};
  return grtc_dispatch_form(out->module, &options, &out->kernels);
}

static void release(compiled_t* c) { grtc_test_program_release(c); }

static void run(compiled_t* c, void* const* args, void** results) {
  GRT_EXPECT_OK(grtc_kinterp_run_func(c->module, &c->kernels,
                                      c->module->first_func, args, results));
}

static void expect_floats(const float* got, const float* want, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (fabsf(got[i] - want[i]) > 1e-4f * (1 + fabsf(want[i]))) {
      fail_msg("element %zu: got %g, want %g", i, got[i], want[i]);
    }
  }
}

static void expect_ints(const int32_t* got, const int32_t* want, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      fail_msg("element %zu: got %d, want %d", i, got[i], want[i]);
    }
  }
}

// data[i] = i % modulus + offset
static void fill(float* data, int n, int modulus, int offset) {
  for (int i = 0; i < n; ++i) data[i] = (float)(i % modulus + offset);
}

static const grtc_kernel_t* only_kernel(const compiled_t* c) {
  assert_int_equal(c->kernels.count, 1);
  return c->kernels.kernels[0];
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

static void test_conv_nhwc_stride_padding(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x3xf32>) -> "
      "tensor<1x2x2x3xf32> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, "
      "1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, "
      "1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, "
      "feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, "
      "tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32>\n"
      "  return %0 : tensor<1x2x2x3xf32>\n"
      "}\n",
      2, &c));
  float x[32], w[54], out[12];
  fill(x, 32, 7, -3);
  fill(w, 54, 5, -2);
  run(&c, (void*[]){x, w}, (void*[]){out});
  float want[12] = {-3, 4, -4, -13, -20, 18, -7, 9, -5, 24, -21, -21};
  expect_floats(out, want, 12);
  const grtc_kernel_t* k = only_kernel(&c);
  assert_int_equal(k->pattern, GRTC_KPATTERN_CONV2D);
  assert_int_equal(k->conv.stride_h, 2);
  assert_int_equal(k->conv.pad_w, 1);
  assert_int_equal(k->conv.input_strides[3], 1);
  assert_int_equal(k->conv.filter_strides[0], 18);
  release(&c);
}

static void test_conv_depthwise(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<1x3x3x2xf32>, %w: tensor<3x3x1x2xf32>) -> "
      "tensor<1x3x3x2xf32> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, "
      "1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} "
      "{batch_group_count = 1 : i64, feature_group_count = 2 : i64} : "
      "(tensor<1x3x3x2xf32>, tensor<3x3x1x2xf32>) -> tensor<1x3x3x2xf32>\n"
      "  return %0 : tensor<1x3x3x2xf32>\n"
      "}\n",
      2, &c));
  float x[18], w[18], out[18];
  fill(x, 18, 5, -1);
  fill(w, 18, 4, -1);
  run(&c, (void*[]){x, w}, (void*[]){out});
  float want[18] = {0, 6, 4, 4, -5, 4, -2, 10, -2, 4, 2, 6, 0, 0, 1, 12, 0, -2};
  expect_floats(out, want, 18);
  const grtc_kernel_t* k = only_kernel(&c);
  assert_int_equal(k->pattern, GRTC_KPATTERN_CONV2D);
  assert_int_equal(k->conv.groups, 2);
  release(&c);
}

// NCHW/OIHW: the parallel space stays (n, oh, ow, oc) and the store index
// follows the output's dimension numbers.
static void test_conv_nchw(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<2x2x5x4xf32>, %w: tensor<3x2x3x2xf32>) -> "
      "tensor<2x3x3x4xf32> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, "
      "i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], pad = [[1, 1], [0, "
      "1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, "
      "feature_group_count = 1 : i64} : (tensor<2x2x5x4xf32>, "
      "tensor<3x2x3x2xf32>) -> tensor<2x3x3x4xf32>\n"
      "  return %0 : tensor<2x3x3x4xf32>\n"
      "}\n",
      2, &c));
  float x[80], w[36], out[72];
  fill(x, 80, 9, -4);
  fill(w, 36, 7, -3);
  run(&c, (void*[]){x, w}, (void*[]){out});
  float want[72] = {
      14,  14,  5,   2,   0,   4,   26,  -17, 8,   -1,  -1,  11,  8,   -1, -1,
      11,  1,   27,  8,   -2,  -17, 4,   34,  14,  -26, -23, 7,   -22, -12, -27,
      -24, 6,   7,   -12, -22, -11, -13, -22, -13, 3,   -2,  2,   -12, -7, -19,
      -10, 8,   -1,  -1,  -1,  17,  -19, -3,  -22, -14, 7,   13,  -11, -26, -1,
      4,   34,  19,  8,   -18, 3,   33,  14,  3,   2,   10,  6};
  expect_floats(out, want, 72);
  const grtc_kernel_t* k = only_kernel(&c);
  assert_int_equal(k->pattern, GRTC_KPATTERN_CONV2D);
  assert_int_equal(k->parallel_dims[3], 3);  // oc last
  assert_int_equal(k->conv.input_strides[3], 20);  // c stride in NCHW
  release(&c);
}

// batch_group_count 2: batch halves pair with output-feature halves (the
// spec's split/concatenate definition); no CONV2D pattern.
static void test_conv_batch_groups(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<2x3x3x1xf32>, %w: tensor<2x2x1x4xf32>) -> "
      "tensor<1x2x2x4xf32> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, "
      "1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, "
      "feature_group_count = 1 : i64} : (tensor<2x3x3x1xf32>, "
      "tensor<2x2x1x4xf32>) -> tensor<1x2x2x4xf32>\n"
      "  return %0 : tensor<1x2x2x4xf32>\n"
      "}\n",
      2, &c));
  float x[18], w[16], out[16];
  fill(x, 18, 7, -3);
  fill(w, 16, 5, -2);
  run(&c, (void*[]){x, w}, (void*[]){out});
  float want[16] = {2, 8, 2, -9, 3, 8, -13, 3, 5, 1, -1, 6, -1, -13, 5, 4};
  expect_floats(out, want, 16);
  assert_int_equal(only_kernel(&c)->pattern, GRTC_KPATTERN_NONE);
  release(&c);
}

//===----------------------------------------------------------------------===//
// reduce_window
//===----------------------------------------------------------------------===//

static void test_reduce_window_padded_sum(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32> {\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %0 = \"stablehlo.reduce_window\"(%x, %z) <{padding = dense<[[0, 0], "
      "[1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = "
      "array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = stablehlo.add %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>\n"
      "  return %0 : tensor<1x2x2x1xf32>\n"
      "}\n",
      2, &c));
  float x[16], out[4];
  fill(x, 16, 16, -5);
  run(&c, (void*[]){x}, (void*[]){out});
  float want[4] = {-10, -6, 21, 45};
  expect_floats(out, want, 4);
  release(&c);
}

// Holes of base dilation read as the init value.
static void test_reduce_window_base_dilation(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<3xf32>) -> tensor<4xf32> {\n"
      "  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "  %0 = \"stablehlo.reduce_window\"(%x, %z) <{base_dilations = "
      "array<i64: 2>, window_dimensions = array<i64: 2>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = stablehlo.maximum %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n",
      2, &c));
  float x[3] = {1, 5, 3}, out[4];
  run(&c, (void*[]){x}, (void*[]){out});
  float want[4] = {1, 5, 5, 3};
  expect_floats(out, want, 4);
  release(&c);
}

// NCHW max pooling (window over the last two dims, constant init, a body
// that is one maximum of the accumulator and the tap) carries the POOL2D
// pattern.
static void test_reduce_window_pool_pattern(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<1x2x4x5xf32>) -> tensor<1x2x2x3xf32> {\n"
      "  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "  %0 = \"stablehlo.reduce_window\"(%x, %z) <{padding = dense<[[0, 0], "
      "[0, 0], [1, 0], [1, 1]]> : tensor<4x2xi64>, window_dimensions = "
      "array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = stablehlo.maximum %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<1x2x4x5xf32>, tensor<f32>) -> tensor<1x2x2x3xf32>\n"
      "  return %0 : tensor<1x2x2x3xf32>\n"
      "}\n",
      2, &c));
  float x[40], out[12];
  fill(x, 40, 7, -3);
  run(&c, (void*[]){x}, (void*[]){out});
  float want[12] = {3, 3, 1, 3, 3, 3, 3, 3, 0, 2, 3, 3};
  expect_floats(out, want, 12);
  const grtc_kernel_t* k = only_kernel(&c);
  assert_int_equal(k->pattern, GRTC_KPATTERN_POOL2D);
  assert_int_equal(k->pool.op, GRTC_SCALAR_MAX);
  assert_int_equal(k->pool.kh, 3);
  assert_int_equal(k->pool.stride_w, 2);
  assert_int_equal(k->pool.pad_h, 1);
  assert_int_equal(k->pool.pad_w, 1);
  assert_int_equal(k->pool.oh, 2);
  assert_int_equal(k->pool.ow, 3);
  assert_int_equal(k->pool.input_strides[1], 20);
  assert_int_equal(k->pool.input_strides[3], 1);
  release(&c);
}

// No POOL2D pattern when the pooled value is a fused producer (x * 2),
// when the initial value is not a constant, or when the window covers the
// channel dim.
static void test_reduce_window_no_pool_pattern(void** state) {
  static const char* const sources[] = {
      "func.func @main(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %t = stablehlo.constant dense<2.0> : tensor<1x1x4x4xf32>\n"
      "  %y = stablehlo.multiply %x, %t : tensor<1x1x4x4xf32>\n"
      "  %0 = \"stablehlo.reduce_window\"(%y, %z) <{window_dimensions = "
      "array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = stablehlo.add %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x2x2xf32>\n"
      "  return %0 : tensor<1x1x2x2xf32>\n"
      "}\n",
      "func.func @main(%x: tensor<1x1x4x4xf32>, %z: tensor<f32>) -> "
      "tensor<1x1x2x2xf32> {\n"
      "  %0 = \"stablehlo.reduce_window\"(%x, %z) <{window_dimensions = "
      "array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = stablehlo.add %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x2x2xf32>\n"
      "  return %0 : tensor<1x1x2x2xf32>\n"
      "}\n",
      "func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x1x2x2xf32> {\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %0 = \"stablehlo.reduce_window\"(%x, %z) <{window_dimensions = "
      "array<i64: 1, 2, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = stablehlo.add %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x1x2x2xf32>\n"
      "  return %0 : tensor<1x1x2x2xf32>\n"
      "}\n",
  };
  for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); ++i) {
    compiled_t c;
    GRT_EXPECT_OK(compile(sources[i], 2, &c));
    const grtc_kernel_t* k = c.kernels.kernels[c.kernels.count - 1];
    if (k->pattern != GRTC_KPATTERN_NONE) {
      fail_msg("source %zu: pattern %d, expected none", i, (int)k->pattern);
    }
    release(&c);
  }
}

//===----------------------------------------------------------------------===//
// pad, concatenate, dynamic slices
//===----------------------------------------------------------------------===//

static void test_pad_concatenate(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<2x3xf32>, %a: tensor<2x1xf32>) -> "
      "(tensor<4x4xf32>, tensor<2x4xf32>) {\n"
      "  %v = stablehlo.constant dense<-1.0> : tensor<f32>\n"
      "  %0 = stablehlo.pad %x, %v, low = [1, -1], high = [0, 2], interior = "
      "[1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x4xf32>\n"
      "  %1 = stablehlo.concatenate %a, %x, dim = 1 : (tensor<2x1xf32>, "
      "tensor<2x3xf32>) -> tensor<2x4xf32>\n"
      "  return %0, %1 : tensor<4x4xf32>, tensor<2x4xf32>\n"
      "}\n",
      2, &c));
  float x[6] = {0, 1, 2, 3, 4, 5}, a[2] = {10, 11}, out0[16], out1[8];
  run(&c, (void*[]){x, a}, (void*[]){out0, out1});
  float want0[16] = {-1, -1, -1, -1, 1, 2, -1, -1,
                     -1, -1, -1, -1, 4, 5, -1, -1};
  float want1[8] = {10, 0, 1, 2, 11, 3, 4, 5};
  expect_floats(out0, want0, 16);
  expect_floats(out1, want1, 8);
  release(&c);
}

// Start indices are clamped so the slice (update) stays inside.
static void test_dynamic_slices(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<4x4xf32>, %u: tensor<2x2xf32>, %i: "
      "tensor<i32>, %j: tensor<i32>) -> (tensor<2x2xf32>, tensor<4x4xf32>) "
      "{\n"
      "  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : "
      "(tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>\n"
      "  %1 = stablehlo.dynamic_update_slice %x, %u, %i, %j : "
      "(tensor<4x4xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> "
      "tensor<4x4xf32>\n"
      "  return %0, %1 : tensor<2x2xf32>, tensor<4x4xf32>\n"
      "}\n",
      2, &c));
  float x[16], u[4] = {-1, -2, -3, -4}, out0[4], out1[16];
  fill(x, 16, 16, 0);
  int32_t i = 3, j = -1;
  run(&c, (void*[]){x, u, &i, &j}, (void*[]){out0, out1});
  float want0[4] = {8, 9, 12, 13};
  float want1[16] = {0, 1, 2, 3, 4, 5, 6, 7, -1, -2, 10, 11, -3, -4, 14, 15};
  expect_floats(out0, want0, 4);
  expect_floats(out1, want1, 16);
  release(&c);
}

//===----------------------------------------------------------------------===//
// gather, scatter, sort
//===----------------------------------------------------------------------===//

// x[idx] for rows, as JAX exports it; an out-of-range index is clamped.
static void test_gather_rows(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<5x3xf32>, %i: tensor<4x1xi32>) -> "
      "tensor<4x3xf32> {\n"
      "  %0 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = "
      "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
      "start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = "
      "false, slice_sizes = array<i64: 1, 3>}> : (tensor<5x3xf32>, "
      "tensor<4x1xi32>) -> tensor<4x3xf32>\n"
      "  return %0 : tensor<4x3xf32>\n"
      "}\n",
      2, &c));
  float x[15], out[12];
  fill(x, 15, 15, 0);
  int32_t idx[4] = {4, 0, 9, 2};
  run(&c, (void*[]){x, idx}, (void*[]){out});
  float want[12] = {12, 13, 14, 0, 1, 2, 12, 13, 14, 6, 7, 8};
  expect_floats(out, want, 12);
  release(&c);
}

// An embedding lookup feeding elementwise math is one kernel.
static void test_gather_fused_into_consumer(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<5x2xf32>, %i: tensor<3x1xi32>) -> "
      "tensor<3x2xf32> {\n"
      "  %0 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = "
      "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
      "start_index_map = [0], index_vector_dim = 1>, slice_sizes = "
      "array<i64: 1, 2>}> : (tensor<5x2xf32>, tensor<3x1xi32>) -> "
      "tensor<3x2xf32>\n"
      "  %1 = stablehlo.multiply %0, %0 : tensor<3x2xf32>\n"
      "  return %1 : tensor<3x2xf32>\n"
      "}\n",
      2, &c));
  float x[10], out[6];
  fill(x, 10, 10, 0);
  int32_t idx[3] = {1, -3, 4};
  run(&c, (void*[]){x, idx}, (void*[]){out});
  float want[6] = {4, 9, 0, 1, 64, 81};
  expect_floats(out, want, 6);
  only_kernel(&c);
  release(&c);
}

// vmap(lambda x, i: x[i]): operand_batching_dims pair each batch row with
// its own index.
static void test_gather_batching_dims(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) -> "
      "tensor<2xf32> {\n"
      "  %0 = \"stablehlo.gather\"(%x, %i) <{dimension_numbers = "
      "#stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = "
      "[0], start_indices_batching_dims = [0], start_index_map = [1], "
      "index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : "
      "(tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2xf32>\n"
      "  return %0 : tensor<2xf32>\n"
      "}\n",
      2, &c));
  float x[6] = {0, 1, 2, 3, 4, 5}, out[2];
  int32_t idx[2] = {2, 0};
  run(&c, (void*[]){x, idx}, (void*[]){out});
  float want[2] = {2, 3};
  expect_floats(out, want, 2);
  release(&c);
}

// x.at[idx].add(u): duplicates accumulate, an out-of-range update is
// dropped; the copy and the in-place update are two dispatches.
static void test_scatter_add(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<5xf32>, %i: tensor<4x1xi32>, %u: "
      "tensor<4xf32>) -> tensor<5xf32> {\n"
      "  %0 = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers "
      "= #stablehlo.scatter<inserted_window_dims = [0], "
      "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = stablehlo.add %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<5xf32>, tensor<4x1xi32>, tensor<4xf32>) -> "
      "tensor<5xf32>\n"
      "  return %0 : tensor<5xf32>\n"
      "}\n",
      2, &c));
  float x[5] = {0, 1, 2, 3, 4}, u[4] = {10, 20, 30, 40}, out[5];
  int32_t idx[4] = {1, 3, 1, 7};
  run(&c, (void*[]){x, idx, u}, (void*[]){out});
  float want[5] = {0, 41, 2, 23, 4};
  expect_floats(out, want, 5);
  assert_int_equal(c.kernels.count, 2);
  assert_true(c.kernels.kernels[1]->serial);
  const grtc_top_t* update = c.module->first_func->body->first->next;
  assert_int_equal(update->kind, GRTC_TOP_DISPATCH);
  assert_true(update->attrs.tied);
  assert_int_equal(update->attrs.tied_operand, 0);
  release(&c);
}

// A stable argsort: keys and their positions sorted together.
static void test_sort_two_operands(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%k: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xi32>) "
      "{\n"
      "  %p = stablehlo.iota dim = 0 : tensor<5xi32>\n"
      "  %0:2 = \"stablehlo.sort\"(%k, %p) <{dimension = 0 : i64, is_stable "
      "= true}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: "
      "tensor<i32>):\n"
      "    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, "
      "tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %lt : tensor<i1>\n"
      "  }) : (tensor<5xf32>, tensor<5xi32>) -> (tensor<5xf32>, "
      "tensor<5xi32>)\n"
      "  return %0#0, %0#1 : tensor<5xf32>, tensor<5xi32>\n"
      "}\n",
      2, &c));
  float k[5] = {3, 1, 2, 1, -4}, out0[5];
  int32_t out1[5];
  run(&c, (void*[]){k}, (void*[]){out0, out1});
  float want0[5] = {-4, 1, 1, 2, 3};
  int32_t want1[5] = {4, 1, 3, 2, 0};
  expect_floats(out0, want0, 5);
  expect_ints(out1, want1, 5);
  assert_int_equal(c.kernels.count, 2);  // the iota, then the sort
  assert_int_equal(c.kernels.kernels[1]->kind, GRTC_KERNEL_SORT);
  release(&c);
}

//===----------------------------------------------------------------------===//
// Control flow and errors
//===----------------------------------------------------------------------===//

// Dispatches form inside while bodies; values of the enclosing block are
// read from their buffers.
static void test_while_body(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<3xf32>, %y: tensor<3xf32>) -> "
      "tensor<3xf32> {\n"
      "  %s = stablehlo.multiply %y, %y : tensor<3xf32>\n"
      "  %i0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%i = %i0, %v = %x) : tensor<i32>, "
      "tensor<3xf32>\n"
      "   cond {\n"
      "    %n = stablehlo.constant dense<3> : tensor<i32>\n"
      "    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, "
      "tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %lt : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %i1 = stablehlo.add %i, %one : tensor<i32>\n"
      "    %v1 = stablehlo.add %v, %s : tensor<3xf32>\n"
      "    stablehlo.return %i1, %v1 : tensor<i32>, tensor<3xf32>\n"
      "  }\n"
      "  return %r#1 : tensor<3xf32>\n"
      "}\n",
      2, &c));
  // Kernels: s, the cond's compare, the body's two adds.
  assert_int_equal(c.kernels.count, 4);
  const grtc_top_t* w = c.module->first_func->body->first;
  while (w && w->kind != GRTC_TOP_WHILE) w = w->next;
  assert_non_null(w);
  uint32_t in_body = 0;
  for (const grtc_top_t* op = w->regions[1]->first; op; op = op->next) {
    in_body += op->kind == GRTC_TOP_DISPATCH;
  }
  assert_int_equal(in_body, 2);
  release(&c);
}

static void test_error_scatter_several_inputs(void** state) {
  compiled_t c;
  grt_status_t status = compile(
      "func.func @main(%x: tensor<5xf32>, %y: tensor<5xf32>, %i: "
      "tensor<1x1xi32>, %u: tensor<1xf32>, %w: tensor<1xf32>) -> "
      "(tensor<5xf32>, tensor<5xf32>) {\n"
      "  %0:2 = \"stablehlo.scatter\"(%x, %y, %i, %u, %w) "
      "<{scatter_dimension_numbers = "
      "#stablehlo.scatter<inserted_window_dims = [0], "
      "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: "
      "tensor<f32>):\n"
      "    stablehlo.return %c, %d : tensor<f32>, tensor<f32>\n"
      "  }) : (tensor<5xf32>, tensor<5xf32>, tensor<1x1xi32>, tensor<1xf32>, "
      "tensor<1xf32>) -> (tensor<5xf32>, tensor<5xf32>)\n"
      "  return %0#0, %0#1 : tensor<5xf32>, tensor<5xf32>\n"
      "}\n",
      2, &c);
  grt_expect_error(status, GRT_STATUS_INVALID_ARGUMENT,
                   "t.mlir:2:10: error: 'stablehlo.scatter' with 2 inputs is "
                   "not supported");
  release(&c);
}

// bitcast_convert to a narrower element type: the importer's shifts and
// masks give the bytes of each f32, least significant first.
static void test_bitcast_width(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<2xf32>) -> tensor<2x4xi8> {\n"
      "  %0 = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> "
      "tensor<2x4xi8>\n"
      "  return %0 : tensor<2x4xi8>\n"
      "}\n",
      2, &c));
  float x[2] = {1.0f, -2.5f};
  int8_t out[8];
  run(&c, (void*[]){x}, (void*[]){out});
  const int8_t want[8] = {0, 0, (int8_t)0x80, 0x3f, 0, 0, 0x20, (int8_t)0xc0};
  assert_memory_equal(out, want, sizeof(want));
  release(&c);
}

static void test_error_dot_i1(void** state) {
  compiled_t c;
  grt_status_t status = compile(
      "func.func @main(%x: tensor<2x2xi1>) -> tensor<2x2xi1> {\n"
      "  %0 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : "
      "(tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>\n"
      "  return %0 : tensor<2x2xi1>\n"
      "}\n",
      2, &c);
  grt_expect_error(status, GRT_STATUS_INVALID_ARGUMENT,
                   "t.mlir:2:8: error: 'stablehlo.dot_general' on i1 is not "
                   "supported");
  release(&c);
}

static void test_error_conv_i1(void** state) {
  compiled_t c;
  grt_status_t status = compile(
      "func.func @main(%x: tensor<1x2x2x1xi1>, %w: tensor<1x1x1x1xi1>) -> "
      "tensor<1x2x2x1xi1> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, "
      "1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, "
      "feature_group_count = 1 : i64} : (tensor<1x2x2x1xi1>, "
      "tensor<1x1x1x1xi1>) -> tensor<1x2x2x1xi1>\n"
      "  return %0 : tensor<1x2x2x1xi1>\n"
      "}\n",
      2, &c);
  grt_expect_error(status, GRT_STATUS_INVALID_ARGUMENT,
                   "t.mlir:2:8: error: 'stablehlo.convolution' with 2 spatial "
                   "dims of i1 is not supported");
  release(&c);
}

//===----------------------------------------------------------------------===//
// Scalar corners (compiler/kernel/scalar.h)
//===----------------------------------------------------------------------===//

// The interpreter once carried its own scalar semantics and disagreed with
// scalar.h (and the folder and every backend) here: float->int converts
// wrapped instead of saturating, TOTALORDER compared as FLOAT, maximum of
// +0 and -0 gave -0, unsigned sign/abs/shift_right_arithmetic read the top
// bit as a sign of the value, f32 ops computed in double, popcnt was
// missing. It now computes through the evaluator; these pin the answers.
static void test_scalar_corners(void** state) {
  compiled_t c;
  GRT_EXPECT_OK(compile(
      "func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>, "
      "%u: tensor<2xui64>, %s: tensor<2xui64>) -> (tensor<4xi8>, "
      "tensor<4xf32>, tensor<4xi1>, tensor<2xui64>, tensor<2xui64>, "
      "tensor<2xui64>, tensor<2xui64>, tensor<4xf32>) {\n"
      "  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi8>\n"
      "  %1 = stablehlo.maximum %x, %y : tensor<4xf32>\n"
      "  %2 = stablehlo.compare  LT, %x, %y,  TOTALORDER : (tensor<4xf32>, "
      "tensor<4xf32>) -> tensor<4xi1>\n"
      "  %3 = stablehlo.sign %u : tensor<2xui64>\n"
      "  %4 = stablehlo.abs %u : tensor<2xui64>\n"
      "  %5 = stablehlo.shift_right_arithmetic %u, %s : tensor<2xui64>\n"
      "  %6 = stablehlo.popcnt %u : tensor<2xui64>\n"
      "  %7 = stablehlo.exponential %y : tensor<4xf32>\n"
      "  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xi8>, tensor<4xf32>, "
      "tensor<4xi1>, tensor<2xui64>, tensor<2xui64>, tensor<2xui64>, "
      "tensor<2xui64>, tensor<4xf32>\n"
      "}\n",
      2, &c));
  float x[4] = {300.0f, -1000.5f, 0.0f, -0.0f};
  float y[4] = {1.0f, -2.0f, -0.0f, 0.0f};
  uint64_t u[2] = {0x8000000000000001ull, 6}, s[2] = {1, 1};
  int8_t out0[4];
  float out1[4], out7[4];
  uint8_t out2[4];
  uint64_t out3[2], out4[2], out5[2], out6[2];
  run(&c, (void*[]){x, y, u, s},
      (void*[]){out0, out1, out2, out3, out4, out5, out6, out7});
  // Saturating, truncating converts.
  assert_int_equal(out0[0], 127);
  assert_int_equal(out0[1], -128);
  assert_int_equal(out0[2], 0);
  // maximum(+0, -0) and maximum(-0, +0) are +0.
  assert_true(out1[2] == 0.0f && !signbit(out1[2]));
  assert_true(out1[3] == 0.0f && !signbit(out1[3]));
  // -0 < +0 in the total order, not the reverse.
  assert_int_equal(out2[2], 0);
  assert_int_equal(out2[3], 1);
  // Unsigned: sign is 0 or 1, abs the value; shift_right_arithmetic fills
  // with the top bit.
  assert_true(out3[0] == 1 && out3[1] == 1);
  assert_true(out4[0] == u[0] && out4[1] == 6);
  assert_true(out5[0] == 0xc000000000000000ull && out5[1] == 3);
  assert_true(out6[0] == 2 && out6[1] == 2);
  // f32 exp is expf, as the kernels compute it.
  for (int i = 0; i < 4; ++i) assert_true(out7[i] == expf(y[i]));
  release(&c);
}


//===----------------------------------------------------------------------===//
// Symbolic shapes
//===----------------------------------------------------------------------===//

// Imports, folds (symbols resolve to their classes), crosses the symbolic
// boundary and forms dispatches.
static grt_status_t compile_symbolic(const char* source, compiled_t* out) {
  import_verified(source, out);
  GRT_EXPECT_OK(grtc_tensor_fold(out->module));
  GRT_EXPECT_OK(grtc_tensor_verify(out->module));
  GRT_RETURN_IF_ERROR(grtc_tensor_prepare_symbolic(out->module));
  grtc_dispatch_options_t options = {2, 0, false};
  return grtc_dispatch_form(out->module, &options, &out->kernels);
}

// The symbol of argument |arg| dimension |dim| of the first function.
static uint32_t arg_symbol_of(const compiled_t* c, uint32_t arg, uint32_t dim) {
  int64_t d = c->module->first_func->body->args[arg].type.dims[dim];
  assert_false(grtc_dim_is_static(d));
  return grtc_dim_symbol(d);
}

static void run_symbolic(compiled_t* c, const int64_t* symbols,
                         void* const* args, void** results) {
  GRT_EXPECT_OK(grtc_kinterp_run_func_symbolic(
      c->module, &c->kernels, c->module->first_func, symbols, args, results));
}

// The same for a function whose one symbol is argument 0 dimension 0.
static void run_batch(compiled_t* c, int64_t batch, void* const* args,
                      void** results) {
  int64_t symbols[64] = {0};
  symbols[arg_symbol_of(c, 0, 0)] = batch;
  run_symbolic(c, symbols, args, results);
}

// A two-layer MLP with a symbolic batch: one kernel per layer, each a
// MATMUL pattern whose m is the batch extent, run at batches that are and
// are not multiples of the tile.
static void test_symbolic_mlp(void** state) {
  (void)state;
  compiled_t c;
  GRT_EXPECT_OK(compile_symbolic(
      "func.func @main(%x: tensor<?x5xf32>, %w1: tensor<5x7xf32>, %b1: tensor<7xf32>, %w2: tensor<7x3xf32>) -> tensor<?x3xf32> {\n"
      "  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<?x5xf32>, tensor<5x7xf32>) -> tensor<?x7xf32>\n"
      "  %bb = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<7xf32>) -> tensor<?x7xf32>\n"
      "  %a = stablehlo.add %h, %bb : tensor<?x7xf32>\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<?x7xf32>\n"
      "  %r = stablehlo.maximum %a, %zb : tensor<?x7xf32>\n"
      "  %o = stablehlo.dot_general %r, %w2, contracting_dims = [1] x [0] : (tensor<?x7xf32>, tensor<7x3xf32>) -> tensor<?x3xf32>\n"
      "  return %o : tensor<?x3xf32>\n"
      "}\n",
      &c));
  assert_int_equal(c.kernels.count, 2);
  for (uint32_t k = 0; k < 2; ++k) {
    const grtc_kernel_t* kernel = c.kernels.kernels[k];
    assert_int_equal(kernel->pattern, GRTC_KPATTERN_MATMUL);
    assert_int_equal(kernel->extent_count, 1);
    assert_int_equal(kernel->extent_symbols[0], arg_symbol_of(&c, 0, 0));
    assert_int_equal(kernel->matmul.m, GRTC_KDIM_EXTENT(0));
    assert_int_equal(kernel->workgroup_count, 0);
  }
  float w1[35], b1[7], w2[21];
  fill(w1, 35, 7, -3);
  fill(b1, 7, 3, -1);
  fill(w2, 21, 5, -2);
  static const int64_t batches[] = {1, 5, 67};
  for (size_t t = 0; t < 3; ++t) {
    int64_t n = batches[t];
    float* x = calloc((size_t)n * 5, sizeof(float));
    float* got = calloc((size_t)n * 3, sizeof(float));
    float* want = calloc((size_t)n * 3, sizeof(float));
    fill(x, (int)n * 5, 11, -5);
    for (int64_t i = 0; i < n; ++i) {
      float h[7];
      for (int j = 0; j < 7; ++j) {
        float sum = b1[j];
        for (int k = 0; k < 5; ++k) sum += x[i * 5 + k] * w1[k * 7 + j];
        h[j] = sum > 0 ? sum : 0;
      }
      for (int j = 0; j < 3; ++j) {
        float sum = 0;
        for (int k = 0; k < 7; ++k) sum += h[k] * w2[k * 3 + j];
        want[i * 3 + j] = sum;
      }
    }
    void* args[4] = {x, w1, b1, w2};
    void* results[1] = {got};
    run_batch(&c, n, args, results);
    expect_floats(got, want, (size_t)n * 3);
    free(x);
    free(got);
    free(want);
  }
  release(&c);
}

// A row softmax with both dimensions symbolic: reductions over a symbolic
// extent, fused with their elementwise consumers.
static void test_symbolic_softmax(void** state) {
  (void)state;
  compiled_t c;
  GRT_EXPECT_OK(compile_symbolic(
      "func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {\n"
      "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>\n"
      "  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<?xf32>) -> tensor<?x?xf32>\n"
      "  %d = stablehlo.subtract %x, %mb : tensor<?x?xf32>\n"
      "  %e = stablehlo.exponential %d : tensor<?x?xf32>\n"
      "  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>\n"
      "  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<?xf32>) -> tensor<?x?xf32>\n"
      "  %y = stablehlo.divide %e, %sb : tensor<?x?xf32>\n"
      "  return %y : tensor<?x?xf32>\n"
      "}\n",
      &c));
  static const int64_t shapes[][2] = {{1, 1}, {3, 7}, {5, 130}};
  for (size_t t = 0; t < 3; ++t) {
    int64_t rows = shapes[t][0], cols = shapes[t][1];
    size_t n = (size_t)(rows * cols);
    float* x = calloc(n, sizeof(float));
    float* got = calloc(n, sizeof(float));
    float* want = calloc(n, sizeof(float));
    fill(x, (int)n, 13, -6);
    for (int64_t i = 0; i < rows; ++i) {
      float m = -INFINITY, sum = 0;
      for (int64_t j = 0; j < cols; ++j) m = fmaxf(m, x[i * cols + j]);
      for (int64_t j = 0; j < cols; ++j) sum += expf(x[i * cols + j] - m);
      for (int64_t j = 0; j < cols; ++j) {
        want[i * cols + j] = expf(x[i * cols + j] - m) / sum;
      }
    }
    int64_t symbols[64] = {0};
    symbols[arg_symbol_of(&c, 0, 0)] = rows;
    symbols[arg_symbol_of(&c, 0, 1)] = cols;
    void* args[1] = {x};
    void* results[1] = {got};
    run_symbolic(&c, symbols, args, results);
    expect_floats(got, want, n);
    free(x);
    free(got);
    free(want);
  }
  release(&c);
}

// jax.export's forms: a dynamic_broadcast_in_dim whose shape is built from
// get_dimension_size becomes a broadcast_in_dim, and get_dimension_size
// itself reads the extent; a reshape keeps the symbolic dim and merges the
// static ones; reverse counts from the extent.
static void test_symbolic_jax_forms(void** state) {
  (void)state;
  compiled_t c;
  GRT_EXPECT_OK(compile_symbolic(
      "func.func @main(%x: tensor<?x2x3xf32>) -> (tensor<?x6xf32>, tensor<i32>) {\n"
      "  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2x3xf32>) -> tensor<i32>\n"
      "  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>\n"
      "  %c6 = stablehlo.constant dense<6> : tensor<1xi32>\n"
      "  %shape = stablehlo.concatenate %n1, %c6, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
      "  %f = stablehlo.reshape %x : (tensor<?x2x3xf32>) -> tensor<?x6xf32>\n"
      "  %one = stablehlo.constant dense<1.0> : tensor<f32>\n"
      "  %ones = stablehlo.dynamic_broadcast_in_dim %one, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x6xf32>\n"
      "  %r = stablehlo.reverse %f, dims = [0] : tensor<?x6xf32>\n"
      "  %y = stablehlo.add %r, %ones : tensor<?x6xf32>\n"
      "  return %y, %n : tensor<?x6xf32>, tensor<i32>\n"
      "}\n",
      &c));
  int64_t n = 4;
  float x[24], got[24], want[24];
  int32_t size = 0;
  fill(x, 24, 24, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int j = 0; j < 6; ++j) want[i * 6 + j] = x[(n - 1 - i) * 6 + j] + 1;
  }
  void* args[1] = {x};
  void* results[2] = {got, &size};
  run_batch(&c, n, args, results);
  expect_floats(got, want, 24);
  assert_int_equal(size, 4);
  release(&c);
}

// Padding and concatenating along static dims of symbolic tensors.
static void test_symbolic_pad_concatenate(void** state) {
  (void)state;
  compiled_t c;
  GRT_EXPECT_OK(compile_symbolic(
      "func.func @main(%x: tensor<?x3xf32>) -> tensor<?x8xf32> {\n"
      "  %z = stablehlo.constant dense<-1.0> : tensor<f32>\n"
      "  %p = stablehlo.pad %x, %z, low = [0, 1], high = [0, 1], interior = [0, 0] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x5xf32>\n"
      "  %y = stablehlo.concatenate %p, %x, dim = 1 : (tensor<?x5xf32>, tensor<?x3xf32>) -> tensor<?x8xf32>\n"
      "  return %y : tensor<?x8xf32>\n"
      "}\n",
      &c));
  int64_t n = 3;
  float x[9], got[24], want[24];
  fill(x, 9, 9, 1);
  for (int64_t i = 0; i < n; ++i) {
    want[i * 8 + 0] = -1;
    want[i * 8 + 4] = -1;
    for (int j = 0; j < 3; ++j) {
      want[i * 8 + 1 + j] = x[i * 3 + j];
      want[i * 8 + 5 + j] = x[i * 3 + j];
    }
  }
  void* args[1] = {x};
  void* results[1] = {got};
  run_batch(&c, n, args, results);
  expect_floats(got, want, 24);
  release(&c);
}

// dynamic_reshapes that merge (?x3 -> ? of 3n) and split (? of 3n ->
// ?x2 of 3n / 2) a symbolic dimension, fused with the ops around them: the
// kernels index the reshapes with the extents (the computed ones given
// here as the host program computes them), at n = 2, 4 and 6.
static void test_symbolic_merge_split(void** state) {
  (void)state;
  compiled_t c;
  GRT_EXPECT_OK(compile_symbolic(
      "func.func @main(%x: tensor<?x3xf32>) -> tensor<?x2xf32> {\n"
      "  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>\n"
      "  %c3 = stablehlo.constant dense<3> : tensor<i32>\n"
      "  %m = stablehlo.multiply %n, %c3 : tensor<i32>\n"
      "  %m1 = stablehlo.reshape %m : (tensor<i32>) -> tensor<1xi32>\n"
      "  %r = stablehlo.reverse %x, dims = [0] : tensor<?x3xf32>\n"
      "  %f = stablehlo.dynamic_reshape %r, %m1 : (tensor<?x3xf32>, tensor<1xi32>) -> tensor<?xf32>\n"
      "  %two = stablehlo.constant dense<2> : tensor<i32>\n"
      "  %h = stablehlo.divide %m, %two : tensor<i32>\n"
      "  %h1 = stablehlo.reshape %h : (tensor<i32>) -> tensor<1xi32>\n"
      "  %c2 = stablehlo.constant dense<2> : tensor<1xi32>\n"
      "  %shape = stablehlo.concatenate %h1, %c2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
      "  %e = stablehlo.exponential %f : tensor<?xf32>\n"
      "  %y = stablehlo.dynamic_reshape %e, %shape : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x2xf32>\n"
      "  return %y : tensor<?x2xf32>\n"
      "}\n",
      &c));
  const grtc_tshapes_t* shapes = c.module->shapes;
  for (int64_t n = 2; n <= 6; n += 2) {
    float x[18], got[18], want[18];
    fill(x, 18, 18, 2);
    for (int64_t i = 0; i < n; ++i) {
      for (int j = 0; j < 3; ++j) want[i * 3 + j] = expf(x[(n - 1 - i) * 3 + j]);
    }
    int64_t symbols[64] = {0};
    symbols[arg_symbol_of(&c, 0, 0)] = n;
    // The computed extents: 3n (the merge) and 3n / 2 (the split).
    uint32_t computed = 0;
    for (uint32_t id = 0; id < shapes->sym_count; ++id) {
      if (!shapes->syms[id].expr) continue;
      int64_t rep = grtc_tmodule_resolve_dim(c.module, GRTC_DIM_SYMBOL(id));
      symbols[grtc_dim_symbol(rep)] = computed++ == 0 ? 3 * n : 3 * n / 2;
    }
    assert_int_equal(computed, 2);
    void* args[1] = {x};
    void* results[1] = {got};
    run_symbolic(&c, symbols, args, results);
    expect_floats(got, want, (size_t)(3 * n));
  }
  release(&c);
}

// x.at[idx].add(u) with a symbolic number of updates: the serial update
// kernel's one parallel dim is the extent of the indices' (and updates')
// symbol; run at 0, 1, 4 and 9 updates (repeats add up, index 7 and -1 are
// dropped).
static void test_symbolic_scatter(void** state) {
  (void)state;
  compiled_t c;
  GRT_EXPECT_OK(compile_symbolic(
      "func.func @main(%x: tensor<5xf32>, %i: tensor<?x1xi32>, %u: tensor<?xf32>) -> tensor<5xf32> {\n"
      "  %0 = \"stablehlo.scatter\"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = stablehlo.add %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<5xf32>, tensor<?x1xi32>, tensor<?xf32>) -> tensor<5xf32>\n"
      "  return %0 : tensor<5xf32>\n"
      "}\n",
      &c));
  uint32_t n_symbol = arg_symbol_of(&c, 1, 0);
  assert_int_equal(grtc_tmodule_resolve_dim(c.module, GRTC_DIM_SYMBOL(arg_symbol_of(&c, 2, 0))),
                   GRTC_DIM_SYMBOL(n_symbol));
  assert_int_equal(c.kernels.count, 2);
  const grtc_kernel_t* update = c.kernels.kernels[1];
  assert_true(update->serial);
  assert_int_equal(update->extent_count, 1);
  assert_int_equal(update->extent_symbols[0], n_symbol);
  assert_int_equal(update->parallel_dims[0], GRTC_KDIM_EXTENT(0));
  static const int32_t idx[9] = {1, 3, 1, 7, 0, -1, 4, 4, 2};
  static const int64_t counts[] = {1, 4, 9, 0};
  for (size_t t = 0; t < 4; ++t) {
    int64_t n = counts[t];
    float x[5] = {0, 1, 2, 3, 4}, u[9], got[5], want[5];
    fill(u, 9, 13, -6);
    memcpy(want, x, sizeof(want));
    for (int64_t k = 0; k < n; ++k) {
      if (idx[k] >= 0 && idx[k] < 5) want[idx[k]] += u[k];
    }
    int64_t symbols[64] = {0};
    symbols[n_symbol] = n;
    void* args[3] = {x, (void*)idx, u};
    void* results[1] = {got};
    run_symbolic(&c, symbols, args, results);
    expect_floats(got, want, 5);
  }
  release(&c);
}

static void test_symbolic_errors(void** state) {
  (void)state;
  compiled_t c;
  grt_expect_error(
      compile_symbolic(
          "func.func @main(%x: tensor<?xf32>, %s: tensor<1xi64>, %l: tensor<1xi64>, %t: tensor<1xi64>) -> tensor<?xf32> {\n"
          "  %y = stablehlo.real_dynamic_slice %x, %s, %l, %t : (tensor<?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>\n"
          "  return %y : tensor<?xf32>\n"
          "}\n",
          &c),
      GRT_STATUS_INVALID_ARGUMENT,
      "t.mlir:2:8: error: 'stablehlo.real_dynamic_slice' has a start or stride element 0 that is "
      "not a constant; only its limits may be computed at the call");
  release(&c);
  grt_expect_error(
      compile_symbolic(
          "func.func @main(%x: tensor<?x2xf32>, %f: tensor<1xf32>) -> tensor<?xf32> {\n"
          "  %s = stablehlo.convert %f : (tensor<1xf32>) -> tensor<1xi32>\n"
          "  %y = stablehlo.dynamic_reshape %x, %s : (tensor<?x2xf32>, tensor<1xi32>) -> tensor<?xf32>\n"
          "  return %y : tensor<?xf32>\n"
          "}\n",
          &c),
      GRT_STATUS_INVALID_ARGUMENT,
      "t.mlir:3:8: error: 'stablehlo.dynamic_reshape' result 0 dimension 0 is symbolic (s1: "
      "result 0 dimension 0 of @main), an extent computed at run time; not supported yet (the "
      "host program reads extents from the arguments, derives concatenated and padded ones, and "
      "computes a dynamic op's from get_dimension_size arithmetic on constants, dimensions and a "
      "function argument's i32 or i64 elements, not from other tensor data)");
  release(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conv_nhwc_stride_padding),
      cmocka_unit_test(test_conv_depthwise),
      cmocka_unit_test(test_conv_nchw),
      cmocka_unit_test(test_conv_batch_groups),
      cmocka_unit_test(test_reduce_window_padded_sum),
      cmocka_unit_test(test_reduce_window_base_dilation),
      cmocka_unit_test(test_reduce_window_pool_pattern),
      cmocka_unit_test(test_reduce_window_no_pool_pattern),
      cmocka_unit_test(test_pad_concatenate),
      cmocka_unit_test(test_dynamic_slices),
      cmocka_unit_test(test_gather_rows),
      cmocka_unit_test(test_gather_fused_into_consumer),
      cmocka_unit_test(test_gather_batching_dims),
      cmocka_unit_test(test_scatter_add),
      cmocka_unit_test(test_sort_two_operands),
      cmocka_unit_test(test_while_body),
      cmocka_unit_test(test_scalar_corners),
      cmocka_unit_test(test_symbolic_mlp),
      cmocka_unit_test(test_symbolic_softmax),
      cmocka_unit_test(test_symbolic_jax_forms),
      cmocka_unit_test(test_symbolic_pad_concatenate),
      cmocka_unit_test(test_symbolic_merge_split),
      cmocka_unit_test(test_symbolic_scatter),
      cmocka_unit_test(test_symbolic_errors),
      cmocka_unit_test(test_error_scatter_several_inputs),
      cmocka_unit_test(test_bitcast_width),
      cmocka_unit_test(test_error_dot_i1),
      cmocka_unit_test(test_error_conv_i1),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

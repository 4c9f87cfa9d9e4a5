// Tests for the StableHLO front-end: each op family's pretty form gives the
// same generic IR and the same tensor IR as its generic form; attributes
// decode to the documented values (defaults filled in); a realistic JAX
// export imports; and every diagnostic names file:line:col.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/mlir/printer.h"
#include "compiler/stablehlo/import.h"
#include "compiler/tensor/passes.h"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

// Fails the test with |what|'s message and the |source| it was given.
static void require_ok(grt_status_t status, const char* what, const char* source) {
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "%s failed: %s\nsource:\n%s", what, grt_status_message(status),
            source);
    fail();
  }
}

static grtc_module_t* parse_ok(const char* source) {
  grtc_module_t* module = NULL;
  require_ok(grtc_parse_source(grt_make_cstring_view(source), "t.mlir",
                               grtc_stablehlo_parse_options(), grt_allocator_system(),
                               &module),
             "parse", source);
  return module;
}

static grtc_tmodule_t* import_ok(const char* source) {
  grtc_module_t* module = parse_ok(source);
  grtc_tmodule_t* tmodule = NULL;
  grt_status_t status = grtc_stablehlo_import(module, grt_allocator_system(), &tmodule);
  grtc_module_destroy(module);
  require_ok(status, "import", source);
  return tmodule;
}

static char* print_generic(const char* source) {
  grtc_module_t* module = parse_ok(source);
  char* text = NULL;
  size_t length = 0;
  GRT_EXPECT_OK(grtc_print_module(module, 0, grt_allocator_system(), &text, &length));
  grtc_module_destroy(module);
  return text;
}

static char* print_tensor(const grtc_tmodule_t* module) {
  grt_string_builder_t builder;
  grt_string_builder_init(grt_allocator_system(), &builder);
  grtc_tensor_print(module, &builder);
  char* text = strdup(grt_string_builder_cstring(&builder));
  grt_string_builder_deinit(&builder);
  return text;
}

// |a| and |b| (printed |what|, both freed here) are the same text.
static void expect_same_text(char* a, char* b, const char* what) {
  if (strcmp(a, b) != 0) {
    fprintf(stderr, "%s differs:\npretty:\n%s\ngeneric:\n%s", what, a, b);
    fail();
  }
  free(a);
  free(b);
}

// |pretty| and |generic| parse to the same generic IR (when |same_mlir|)
// and import to the same tensor IR.
static void expect_same(const char* pretty, const char* generic, bool same_mlir) {
  if (same_mlir) {
    expect_same_text(print_generic(pretty), print_generic(generic), "generic IR");
  }
  grtc_tmodule_t* ma = import_ok(pretty);
  grtc_tmodule_t* mb = import_ok(generic);
  expect_same_text(print_tensor(ma), print_tensor(mb), "tensor IR");
  grtc_tmodule_destroy(ma);
  grtc_tmodule_destroy(mb);
}

static void expect_parse_error(const char* source, const char* fragment) {
  grtc_module_t* module = NULL;
  grt_expect_error(grtc_parse_source(grt_make_cstring_view(source), "t.mlir",
                                     grtc_stablehlo_parse_options(),
                                     grt_allocator_system(), &module),
                   GRT_STATUS_INVALID_ARGUMENT, fragment);
}

static void expect_import_error(const char* source, const char* fragment) {
  grtc_module_t* module = parse_ok(source);
  grtc_tmodule_t* tmodule = NULL;
  grt_expect_error(grtc_stablehlo_import(module, grt_allocator_system(), &tmodule),
                   GRT_STATUS_INVALID_ARGUMENT, fragment);
  assert_null(tmodule);
  grtc_module_destroy(module);
}

// The |index|th op of the first function's body.
static grtc_top_t* nth_op(const grtc_tmodule_t* module, uint32_t index) {
  grtc_top_t* op = module->first_func->body->first;
  for (uint32_t i = 0; op && i < index; ++i) op = op->next;
  assert_non_null(op);
  return op;
}

static void expect_i64s(grtc_i64s_t list, const int64_t* values, uint32_t count) {
  assert_int_equal(list.count, count);
  for (uint32_t i = 0; i < count; ++i) assert_int_equal(list.values[i], values[i]);
}
#define EXPECT_I64S(list, ...)                                         \
  do {                                                                 \
    const int64_t expected_[] = {__VA_ARGS__};                         \
    expect_i64s((list), expected_, sizeof(expected_) / sizeof(int64_t)); \
  } while (0)

//===----------------------------------------------------------------------===//
// Pretty vs generic
//===----------------------------------------------------------------------===//

// Every elementwise op of the tensor IR, in the short, the function-type
// and the generic form.
static void test_elementwise_ops(void** state) {
  (void)state;
  for (int k = 0; k < GRTC_TOP_COUNT; ++k) {
    grtc_top_kind_t kind = (grtc_top_kind_t)k;
    grtc_scalar_op_t scalar = grtc_top_kind_scalar_op(kind);
    if (grtc_top_kind_role(kind) != GRTC_ROLE_E || scalar == GRTC_SCALAR_NONE ||
        kind == GRTC_TOP_SELECT || kind == GRTC_TOP_CLAMP) {
      continue;
    }
    const char* name = grtc_top_kind_name(kind);
    const char* t = grtc_scalar_op_accepts(scalar, GRTC_ELEM_F32) ? "tensor<4xf32>"
                                                                  : "tensor<4xi32>";
    const char* r = kind == GRTC_TOP_IS_FINITE ? "tensor<4xi1>" : t;
    bool binary = grtc_scalar_op_arity(scalar) == 2;
    char pretty[1024], generic[1024];
    const char* operands = binary ? "%a, %b" : "%a";
    char types[128];
    snprintf(types, sizeof(types), binary ? "%s, %s" : "%s", t, t);
    snprintf(pretty, sizeof(pretty),
             "func.func @f(%%a: %s, %%b: %s) -> (%s, %s) {\n"
             "  %%0 = %s %s : %s\n"
             "  %%1 = %s %s : (%s) -> %s\n"
             "  return %%0, %%1 : %s, %s\n}\n",
             t, t, r, r, name, operands,
             kind == GRTC_TOP_IS_FINITE ? "(tensor<4xf32>) -> tensor<4xi1>" : t, name,
             operands, types, r, r, r);
    snprintf(generic, sizeof(generic),
             "func.func @f(%%a: %s, %%b: %s) -> (%s, %s) {\n"
             "  %%0 = \"%s\"(%s) : (%s) -> %s\n"
             "  %%1 = \"%s\"(%s) : (%s) -> %s\n"
             "  \"func.return\"(%%0, %%1) : (%s, %s) -> ()\n}\n",
             t, t, r, r, name, operands, types, r, name, operands, types, r, r, r);
    expect_same(pretty, generic, true);
    grtc_tmodule_t* module = import_ok(pretty);
    assert_int_equal(nth_op(module, 0)->kind, kind);
    assert_int_equal(nth_op(module, 1)->kind, kind);
    grtc_tmodule_destroy(module);
  }
}

static void test_constant_compare_select_convert(void** state) {
  (void)state;
  expect_same(
      "func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi1>) {\n"
      "  %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n"
      "  %i = stablehlo.iota dim = 0 : tensor<4xi32>\n"
      "  %p = stablehlo.compare  LT, %a, %c,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "  %q = stablehlo.compare  GE, %a, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "  %s = stablehlo.select %p, %a, %c : tensor<4xi1>, tensor<4xf32>\n"
      "  %k = stablehlo.clamp %a, %s, %c : tensor<4xf32>\n"
      "  %v = stablehlo.convert %i : (tensor<4xi32>) -> tensor<4xf32>\n"
      "  %w = stablehlo.bitcast_convert %v : (tensor<4xf32>) -> tensor<4xi32>\n"
      "  return %k, %w, %q : tensor<4xf32>, tensor<4xi32>, tensor<4xi1>\n"
      "}\n",
      "func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi1>) {\n"
      "  %c = \"stablehlo.constant\"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>\n"
      "  %i = \"stablehlo.iota\"() {iota_dimension = 0 : i64} : () -> tensor<4xi32>\n"
      "  %p = \"stablehlo.compare\"(%a, %c) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "  %q = \"stablehlo.compare\"(%a, %c) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "  %s = \"stablehlo.select\"(%p, %a, %c) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
      "  %k = \"stablehlo.clamp\"(%a, %s, %c) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
      "  %v = \"stablehlo.convert\"(%i) : (tensor<4xi32>) -> tensor<4xf32>\n"
      "  %w = \"stablehlo.bitcast_convert\"(%v) : (tensor<4xf32>) -> tensor<4xi32>\n"
      "  \"func.return\"(%k, %w, %q) : (tensor<4xf32>, tensor<4xi32>, tensor<4xi1>) -> ()\n"
      "}\n",
      true);
  grtc_tmodule_t* module = import_ok(
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xi1> {\n"
      "  %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n"
      "  %i = stablehlo.iota dim = 0 : tensor<4xi32>\n"
      "  %p = stablehlo.compare  LT, %a, %c,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "  %q = stablehlo.compare  NE, %a, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "  return %q : tensor<4xi1>\n"
      "}\n");
  grtc_tmodule_destroy(module);
  // An empty literal.
  module = import_ok(
      "func.func @f() -> tensor<0xf32> {\n"
      "  %c = stablehlo.constant dense<> : tensor<0xf32>\n"
      "  return %c : tensor<0xf32>\n"
      "}\n");
  // A tensor with no elements is held as a one-element zero splat.
  assert_int_equal(nth_op(module, 0)->attrs.constant.size, 4);
  assert_true(nth_op(module, 0)->attrs.constant.splat);
  grtc_tmodule_destroy(module);
  module = import_ok(
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xi1> {\n"
      "  %c = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>\n"
      "  %i = stablehlo.iota dim = 0 : tensor<4xi32>\n"
      "  %p = stablehlo.compare  LT, %a, %c,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "  %q = stablehlo.compare  NE, %a, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "  return %q : tensor<4xi1>\n"
      "}\n");
  grtc_top_t* constant = nth_op(module, 0);
  assert_int_equal(constant->kind, GRTC_TOP_CONSTANT);
  assert_int_equal(constant->attrs.constant.size, 16);
  assert_false(constant->attrs.constant.splat);
  float second;
  memcpy(&second, constant->attrs.constant.data + 4, 4);
  assert_true(second == 2.0f);
  assert_int_equal(nth_op(module, 1)->attrs.dim, 0);
  assert_int_equal(nth_op(module, 2)->attrs.compare_direction, GRTC_CMP_LT);
  assert_int_equal(nth_op(module, 2)->attrs.compare_type, GRTC_CMP_TYPE_FLOAT);
  assert_int_equal(nth_op(module, 3)->attrs.compare_direction, GRTC_CMP_NE);
  assert_int_equal(nth_op(module, 3)->attrs.compare_type, GRTC_CMP_TYPE_DEFAULT);
  // Positions are kept for diagnostics.
  assert_int_equal(nth_op(module, 2)->line, 4);
  assert_int_equal(nth_op(module, 2)->column, 8);
  grtc_tmodule_destroy(module);
}

static void test_structural_ops(void** state) {
  (void)state;
  expect_same(
      "func.func @f(%x: tensor<2x3xf32>, %v: tensor<f32>, %i: tensor<i32>) -> tensor<3x2xf32> {\n"
      "  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
      "  %1 = stablehlo.reshape %0 : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
      "  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>\n"
      "  %3 = stablehlo.slice %2 [0:2, 1:3:1] : (tensor<2x3xf32>) -> tensor<2x2xf32>\n"
      "  %4 = stablehlo.dynamic_slice %2, %i, %i, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>\n"
      "  %5 = stablehlo.dynamic_update_slice %2, %4, %i, %i : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>\n"
      "  %6 = stablehlo.concatenate %3, %3, dim = 0 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>\n"
      "  %7 = stablehlo.pad %6, %v, low = [1, 0], high = [2, 0], interior = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<7x3xf32>\n"
      "  %8 = stablehlo.reverse %7, dims = [0] : tensor<7x3xf32>\n"
      "  %9 = stablehlo.broadcast %v, sizes = [3, 2] : (tensor<f32>) -> tensor<3x2xf32>\n"
      "  %10:2 = stablehlo.optimization_barrier %9, %x : tensor<3x2xf32>, tensor<2x3xf32>\n"
      "  return %10#0 : tensor<3x2xf32>\n"
      "}\n",
      "func.func @f(%x: tensor<2x3xf32>, %v: tensor<f32>, %i: tensor<i32>) -> tensor<3x2xf32> {\n"
      "  %0 = \"stablehlo.broadcast_in_dim\"(%x) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
      "  %1 = \"stablehlo.reshape\"(%0) : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
      "  %2 = \"stablehlo.transpose\"(%1) {permutation = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>\n"
      "  %3 = \"stablehlo.slice\"(%2) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x2xf32>\n"
      "  %4 = \"stablehlo.dynamic_slice\"(%2, %i, %i) {slice_sizes = array<i64: 1, 2>} : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>\n"
      "  %5 = \"stablehlo.dynamic_update_slice\"(%2, %4, %i, %i) : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>\n"
      "  %6 = \"stablehlo.concatenate\"(%3, %3) {dimension = 0 : i64} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>\n"
      "  %7 = \"stablehlo.pad\"(%6, %v) {edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 2, 0>, interior_padding = array<i64: 0, 1>} : (tensor<4x2xf32>, tensor<f32>) -> tensor<7x3xf32>\n"
      "  %8 = \"stablehlo.reverse\"(%7) {dimensions = array<i64: 0>} : (tensor<7x3xf32>) -> tensor<7x3xf32>\n"
      "  %9 = \"stablehlo.broadcast\"(%v) {broadcast_sizes = array<i64: 3, 2>} : (tensor<f32>) -> tensor<3x2xf32>\n"
      "  %10:2 = \"stablehlo.optimization_barrier\"(%9, %x) : (tensor<3x2xf32>, tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>)\n"
      "  \"func.return\"(%10#0) : (tensor<3x2xf32>) -> ()\n"
      "}\n",
      true);
  // The older dense<...> spelling of dimension lists decodes the same.
  grtc_tmodule_t* module = import_ok(
      "func.func @f(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {\n"
      "  %0 = \"stablehlo.slice\"(%x) {start_indices = dense<[0, 1]> : tensor<2xi64>, limit_indices = dense<[2, 3]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} : (tensor<2x3xf32>) -> tensor<2x2xf32>\n"
      "  %1 = \"stablehlo.transpose\"(%0) {permutation = dense<[1, 0]> : tensor<2xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
      "  %2 = \"stablehlo.broadcast\"(%1) {broadcast_sizes = dense<4> : tensor<1xi64>} : (tensor<2x2xf32>) -> tensor<4x2x2xf32>\n"
      "  %3 = util.optimization_barrier %1 : tensor<2x2xf32>\n"
      "  return %3 : tensor<2x2xf32>\n"
      "}\n");
  expect_same(
      "func.func @f(%x: tensor<2x3xf32>, %s: tensor<f32>) -> (tensor<2x2xf32>, f32) {\n"
      "  %0 = stablehlo.slice %x {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x2xf32>\n"
      "  %1 = tensor.extract %s[] : tensor<f32>\n"
      "  return %0, %1 : tensor<2x2xf32>, f32\n"
      "}\n",
      "func.func @f(%x: tensor<2x3xf32>, %s: tensor<f32>) -> (tensor<2x2xf32>, f32) {\n"
      "  %0 = stablehlo.slice %x [0:2, 1:3] : (tensor<2x3xf32>) -> tensor<2x2xf32>\n"
      "  %1 = \"tensor.extract\"(%s) : (tensor<f32>) -> f32\n"
      "  return %0, %1 : tensor<2x2xf32>, f32\n"
      "}\n",
      true);
  EXPECT_I64S(nth_op(module, 0)->attrs.start, 0, 1);
  EXPECT_I64S(nth_op(module, 0)->attrs.limit, 2, 3);
  EXPECT_I64S(nth_op(module, 0)->attrs.strides, 1, 1);
  EXPECT_I64S(nth_op(module, 1)->attrs.dims, 1, 0);
  assert_int_equal(nth_op(module, 2)->kind, GRTC_TOP_BROADCAST_IN_DIM);
  EXPECT_I64S(nth_op(module, 2)->attrs.dims, 1, 2);
  assert_int_equal(nth_op(module, 3)->kind, GRTC_TOP_OPTIMIZATION_BARRIER);
  grtc_tmodule_destroy(module);
}

static void test_dot_ops(void** state) {
  (void)state;
  expect_same(
      "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %u: tensor<5x2x3xf32>, %v: tensor<5x3x4xf32>) -> (tensor<2x4xf32>, tensor<5x2x4xf32>) {\n"
      "  %0 = stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
      "  %1 = stablehlo.dot_general %u, %v, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>\n"
      "  %2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
      "  return %0, %1 : tensor<2x4xf32>, tensor<5x2x4xf32>\n"
      "}\n",
      "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %u: tensor<5x2x3xf32>, %v: tensor<5x3x4xf32>) -> (tensor<2x4xf32>, tensor<5x2x4xf32>) {\n"
      "  %0 = \"stablehlo.dot\"(%a, %b) {precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
      "  %1 = \"stablehlo.dot_general\"(%u, %v) {precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>], dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>\n"
      "  %2 = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
      "  \"func.return\"(%0, %1) : (tensor<2x4xf32>, tensor<5x2x4xf32>) -> ()\n"
      "}\n",
      true);
  // An algorithm is accepted and ignored; dot becomes dot_general.
  grtc_tmodule_t* module = import_ok(
      "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %u: tensor<5x2x3xf32>, %v: tensor<5x3x4xf32>) -> tensor<2x4xf32> {\n"
      "  %0 = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
      "  %1 = stablehlo.dot_general %u, %v, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>\n"
      "  return %0 : tensor<2x4xf32>\n"
      "}\n");
  grtc_top_t* dot = nth_op(module, 0);
  assert_int_equal(dot->kind, GRTC_TOP_DOT_GENERAL);
  assert_int_equal(dot->attrs.dot.lhs_batch.count, 0);
  EXPECT_I64S(dot->attrs.dot.lhs_contracting, 1);
  EXPECT_I64S(dot->attrs.dot.rhs_contracting, 0);
  grtc_top_t* general = nth_op(module, 1);
  EXPECT_I64S(general->attrs.dot.lhs_batch, 0);
  EXPECT_I64S(general->attrs.dot.rhs_batch, 0);
  EXPECT_I64S(general->attrs.dot.lhs_contracting, 2);
  EXPECT_I64S(general->attrs.dot.rhs_contracting, 1);
  grtc_tmodule_destroy(module);
}

static const char kConvPretty[] =
    "func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x4x4x3xf32> {\n"
    "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x4x4x3xf32>\n"
    "  return %0 : tensor<1x4x4x3xf32>\n"
    "}\n";

static void test_convolution(void** state) {
  (void)state;
  expect_same(
      kConvPretty,
      "func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x4x4x3xf32> {\n"
      "  %0 = \"stablehlo.convolution\"(%x, %w) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x4x4x3xf32>\n"
      "  \"func.return\"(%0) : (tensor<1x4x4x3xf32>) -> ()\n"
      "}\n",
      true);
  // The raw layout form and absent window attributes (defaults).
  expect_same(
      "func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32> {\n"
      "  %0 = \"stablehlo.convolution\"(%x, %w) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32>\n"
      "  return %0 : tensor<1x2x2x3xf32>\n"
      "}\n",
      "func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32> {\n"
      "  %0 = \"stablehlo.convolution\"(%x, %w) {dimension_numbers = #stablehlo.conv<raw\n      input_batch_dimension = 0,\n      input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, window_strides = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32>\n"
      "  return %0 : tensor<1x2x2x3xf32>\n"
      "}\n",
      false);
  grtc_tmodule_t* module = import_ok(
      "func.func @f(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[0, 1], [1, 0]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>\n"
      "  return %0 : tensor<1x4x2x2xf32>\n"
      "}\n");
  grtc_tmodule_destroy(module);
  // Older printers list reverse as 0/1; JAX writes booleans.
  expect_same(
      "func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], reverse = [0, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32>\n"
      "  return %0 : tensor<1x2x2x3xf32>\n"
      "}\n",
      "func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32>\n"
      "  return %0 : tensor<1x2x2x3xf32>\n"
      "}\n",
      true);
  expect_import_error(
      "func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x2x2x3xf32>\n"
      "  return %0 : tensor<1x2x2x3xf32>\n"
      "}\n",
      "t.mlir:2:8: error: convolution window_reversal is not supported");
  module = import_ok(
      "func.func @f(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {\n"
      "  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[0, 1], [1, 0]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32>\n"
      "  return %0 : tensor<1x4x2x2xf32>\n"
      "}\n");
  const grtc_conv_dims_t* conv = &nth_op(module, 0)->attrs.conv;
  assert_int_equal(conv->input_batch, 0);
  assert_int_equal(conv->input_feature, 1);
  EXPECT_I64S(conv->input_spatial, 2, 3);
  assert_int_equal(conv->kernel_output_feature, 0);
  assert_int_equal(conv->kernel_input_feature, 1);
  EXPECT_I64S(conv->kernel_spatial, 2, 3);
  EXPECT_I64S(conv->window_strides, 2, 2);
  EXPECT_I64S(conv->padding_low, 0, 1);
  EXPECT_I64S(conv->padding_high, 1, 0);
  EXPECT_I64S(conv->lhs_dilation, 1, 1);
  EXPECT_I64S(conv->rhs_dilation, 1, 2);
  assert_int_equal(conv->feature_group_count, 1);
  assert_int_equal(conv->batch_group_count, 1);
  grtc_tmodule_destroy(module);
}

static void test_reduce(void** state) {
  (void)state;
  // The `applies` form builds the region its generic form spells.
  expect_same(
      "func.func @f(%x: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n",
      "func.func @f(%x: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4xf32> {\n"
      "  %0 = \"stablehlo.reduce\"(%x, %c) ({\n"
      "  ^bb0(%lhs: tensor<f32>, %rhs: tensor<f32>):\n"
      "    %0 = \"stablehlo.add\"(%lhs, %rhs) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "    \"stablehlo.return\"(%0) : (tensor<f32>) -> ()\n"
      "  }) {dimensions = array<i64: 1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
      "  \"func.return\"(%0) : (tensor<4xf32>) -> ()\n"
      "}\n",
      true);
  // The region form with two operands: pairs are (acc_i, x_i), block
  // arguments all accumulators first.
  expect_same(
      "func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>, %c0: tensor<f32>, %c1: tensor<i32>) -> tensor<4xi32> {\n"
      "  %0:2 = stablehlo.reduce(%x init: %c0), (%y init: %c1) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)\n"
      "   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {\n"
      "    %1 = stablehlo.maximum %a, %c : tensor<f32>\n"
      "    %2 = stablehlo.add %b, %d : tensor<i32>\n"
      "    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>\n"
      "  }\n"
      "  return %0#1 : tensor<4xi32>\n"
      "}\n",
      "func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>, %c0: tensor<f32>, %c1: tensor<i32>) -> tensor<4xi32> {\n"
      "  %0:2 = \"stablehlo.reduce\"(%x, %y, %c0, %c1) ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):\n"
      "    %1 = \"stablehlo.maximum\"(%a, %c) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "    %2 = \"stablehlo.add\"(%b, %d) : (tensor<i32>, tensor<i32>) -> tensor<i32>\n"
      "    \"stablehlo.return\"(%1, %2) : (tensor<f32>, tensor<i32>) -> ()\n"
      "  }) {dimensions = array<i64: 1>} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)\n"
      "  \"func.return\"(%0#1) : (tensor<4xi32>) -> ()\n"
      "}\n",
      true);
  grtc_tmodule_t* module = import_ok(
      "func.func @f(%x: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<8xf32> {\n"
      "  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n");
  grtc_top_t* reduce = nth_op(module, 0);
  assert_int_equal(reduce->kind, GRTC_TOP_REDUCE);
  EXPECT_I64S(reduce->attrs.dims, 0);
  assert_int_equal(reduce->region_count, 1);
  grtc_tblock_t* body = reduce->regions[0];
  assert_int_equal(body->arg_count, 2);
  assert_int_equal(body->args[0].type.rank, 0);
  assert_int_equal(body->first->kind, GRTC_TOP_MAXIMUM);
  assert_int_equal(body->last->kind, GRTC_TOP_YIELD);
  assert_ptr_equal(body->first->operands[1], &body->args[1]);
  grtc_tmodule_destroy(module);
}

static void test_while_and_calls(void** state) {
  (void)state;
  expect_same(
      "func.func @f(%a: tensor<i32>, %b: tensor<f32>) -> tensor<f32> {\n"
      "  %c = stablehlo.constant dense<10> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%iterArg = %a, %iterArg_0 = %b) : tensor<i32>, tensor<f32>\n"
      "   cond {\n"
      "    %p = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    stablehlo.return %p : tensor<i1>\n"
      "  } do {\n"
      "    %n = func.call @step(%iterArg_0) : (tensor<f32>) -> tensor<f32>\n"
      "    stablehlo.return %iterArg, %n : tensor<i32>, tensor<f32>\n"
      "  }\n"
      "  return %r#1 : tensor<f32>\n"
      "}\n"
      "func.func private @step(%x: tensor<f32>) -> tensor<f32> {\n"
      "  %y = stablehlo.add %x, %x : tensor<f32>\n"
      "  return %y : tensor<f32>\n"
      "}\n",
      "func.func @f(%a: tensor<i32>, %b: tensor<f32>) -> tensor<f32> {\n"
      "  %c = \"stablehlo.constant\"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>\n"
      "  %r:2 = \"stablehlo.while\"(%a, %b) ({\n"
      "  ^bb0(%iterArg: tensor<i32>, %iterArg_0: tensor<f32>):\n"
      "    %p = \"stablehlo.compare\"(%iterArg, %c) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "    \"stablehlo.return\"(%p) : (tensor<i1>) -> ()\n"
      "  }, {\n"
      "  ^bb0(%iterArg: tensor<i32>, %iterArg_0: tensor<f32>):\n"
      "    %n = \"func.call\"(%iterArg_0) {callee = @step} : (tensor<f32>) -> tensor<f32>\n"
      "    \"stablehlo.return\"(%iterArg, %n) : (tensor<i32>, tensor<f32>) -> ()\n"
      "  }) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)\n"
      "  \"func.return\"(%r#1) : (tensor<f32>) -> ()\n"
      "}\n"
      "\"func.func\"() ({\n"
      "^bb0(%x: tensor<f32>):\n"
      "  %y = \"stablehlo.add\"(%x, %x) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "  \"func.return\"(%y) : (tensor<f32>) -> ()\n"
      "}) {sym_name = \"step\", function_type = (tensor<f32>) -> tensor<f32>, sym_visibility = \"private\"} : () -> ()\n",
      false);
  grtc_tmodule_t* module = import_ok(
      "func.func @f(%a: tensor<i32>) -> tensor<i32> {\n"
      "  %r = call @g(%a) : (tensor<i32>) -> tensor<i32>\n"
      "  return %r : tensor<i32>\n"
      "}\n"
      "func.func private @g(%x: tensor<i32>) -> tensor<i32> {\n"
      "  return %x : tensor<i32>\n"
      "}\n");
  grtc_tfunc_t* f = module->first_func;
  grtc_tfunc_t* g = f->next;
  assert_true(f->is_public);
  assert_false(g->is_public);
  assert_int_equal(f->body->first->kind, GRTC_TOP_CALL);
  assert_ptr_equal(f->body->first->attrs.callee, g);
  assert_int_equal(f->body->last->kind, GRTC_TOP_RETURN);
  grtc_tmodule_destroy(module);
}

static void test_check_ops(void** state) {
  (void)state;
  // IREE's, the interpreter's and the generic spelling of one program.
  static const char* const spellings[] = {
      "func.func @t(%a: tensor<2xf32>) {\n"
      "  check.expect_eq(%a, %a) : tensor<2xf32>\n"
      "  check.expect_almost_eq_const(%a, dense<[1.0, 2.0]> : tensor<2xf32>, atol 1.0e-02) : tensor<2xf32>\n"
      "  stablehlo.custom_call @check.expect_close(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
      "  return\n"
      "}\n",
      "func.func @t(%a: tensor<2xf32>) {\n"
      "  check.expect_eq %a, %a : tensor<2xf32>\n"
      "  check.expect_almost_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf32> {atol = 1.0e-02}\n"
      "  stablehlo.custom_call @check.expect_close(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
      "  return\n"
      "}\n",
      "func.func @t(%a: tensor<2xf32>) {\n"
      "  \"check.expect_eq\"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
      "  \"check.expect_almost_eq_const\"(%a) {value = dense<[1.0, 2.0]> : tensor<2xf32>, atol = 1.0e-02} : (tensor<2xf32>) -> ()\n"
      "  \"stablehlo.custom_call\"(%a, %a) {call_target_name = \"check.expect_close\", has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
      "  \"func.return\"() : () -> ()\n"
      "}\n",
  };
  expect_same(spellings[0], spellings[2], true);
  expect_same(spellings[1], spellings[2], false);
  // IREE's form, StableHLO's interpreter form and custom calls.
  grtc_tmodule_t* module = import_ok(
      "func.func @t() {\n"
      "  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
      "  %i = util.unfoldable_constant dense<3> : tensor<i32>\n"
      "  check.expect_eq(%a, %a) : tensor<2xf32>\n"
      "  check.expect_eq_const(%a, dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>\n"
      "  check.expect_almost_eq(%a, %a, atol 1.0e-02) : tensor<2xf32>\n"
      "  check.expect_almost_eq_const(%a, dense<1.0> : tensor<2xf32>) {rtol = 0.5 : f32} : tensor<2xf32>\n"
      "  check.expect_true(%i) : tensor<i32>\n"
      "  check.expect_false(%i) : tensor<i32>\n"
      "  check.expect_eq %a, %a : tensor<2xf32>\n"
      "  check.expect_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf32>\n"
      "  check.expect_almost_eq %a, %a : tensor<2xf32>\n"
      "  check.expect_close %a, %a, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>\n"
      "  check.expect_almost_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf32>\n"
      "  stablehlo.custom_call @check.expect_eq(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
      "  stablehlo.custom_call @check.expect_close(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
      "  return\n"
      "}\n");
  static const grtc_top_kind_t kinds[] = {
      GRTC_TOP_CONSTANT, GRTC_TOP_CONSTANT, GRTC_TOP_CHECK_EQ, GRTC_TOP_CONSTANT,
      GRTC_TOP_CHECK_EQ, GRTC_TOP_CHECK_ALMOST_EQ, GRTC_TOP_CONSTANT,
      GRTC_TOP_CHECK_ALMOST_EQ, GRTC_TOP_CHECK_TRUE, GRTC_TOP_CHECK_FALSE,
      GRTC_TOP_CHECK_EQ, GRTC_TOP_CONSTANT, GRTC_TOP_CHECK_EQ, GRTC_TOP_CHECK_ALMOST_EQ,
      GRTC_TOP_CHECK_CLOSE, GRTC_TOP_CONSTANT, GRTC_TOP_CHECK_ALMOST_EQ,
      GRTC_TOP_CHECK_EQ, GRTC_TOP_CHECK_CLOSE, GRTC_TOP_RETURN};
  for (uint32_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
    if (nth_op(module, i)->kind != kinds[i]) {
      fail_msg("op %u is %s, expected %s", i, grtc_top_kind_name(nth_op(module, i)->kind),
               grtc_top_kind_name(kinds[i]));
    }
  }
  assert_true(nth_op(module, 0)->attrs.unfoldable);
  assert_true(nth_op(module, 5)->attrs.atol == 1.0e-2);
  assert_true(nth_op(module, 7)->attrs.atol == 1e-4);
  assert_true(nth_op(module, 7)->attrs.rtol == 0.5);
  assert_true(nth_op(module, 6)->attrs.constant.splat);
  assert_ptr_equal(nth_op(module, 4)->operands[1], &nth_op(module, 3)->results[0]);
  assert_true(nth_op(module, 14)->attrs.max_ulp == 3);
  assert_true(nth_op(module, 14)->attrs.min_ulp == 0);
  assert_true(nth_op(module, 18)->attrs.max_ulp == 3);
  grtc_tmodule_destroy(module);

  // The check dialect's tolerance (pretty, attribute dictionary, generic)
  // and ULP bounds.
  module = import_ok(
      "func.func @t() {\n"
      "  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
      "  check.expect_almost_eq %a, %a, tolerance = 0.25 : tensor<2xf32>\n"
      "  check.expect_almost_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf32> {tolerance = 0.5}\n"
      "  \"check.expect_almost_eq\"(%a, %a) {tolerance = 2.0 : f64} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
      "  check.expect_close %a, %a, max_ulp_difference = 7, min_ulp_difference = 2 : tensor<2xf32>, tensor<2xf32>\n"
      "  \"check.expect_close\"(%a, %a) {max_ulp_difference = 10 : ui64} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
      "  return\n"
      "}\n");
  assert_true(nth_op(module, 1)->attrs.atol == 0.25);
  assert_true(nth_op(module, 1)->attrs.rtol == 0);
  assert_true(nth_op(module, 3)->attrs.atol == 0.5);
  assert_true(nth_op(module, 4)->attrs.atol == 2.0);
  assert_int_equal(nth_op(module, 5)->kind, GRTC_TOP_CHECK_CLOSE);
  assert_true(nth_op(module, 5)->attrs.max_ulp == 7);
  assert_true(nth_op(module, 5)->attrs.min_ulp == 2);
  assert_true(nth_op(module, 6)->attrs.max_ulp == 10);
  assert_true(nth_op(module, 6)->attrs.min_ulp == 0);
  grtc_tmodule_destroy(module);
}

// CHLO ops that compose.c cannot lower: the message names what was expected.
static void test_chlo_errors(void** state) {
  (void)state;
  static const struct {
    const char* op;
    const char* message;
  } cases[] = {
      {"%0 = chlo.acos %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'chlo.acos' takes 1 operands, got 2"},
      {"%0 = \"mhlo.compare\"(%a, %a) {comparison_direction = #mhlo<\"comparison_direction XX\">} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>",
       "t.mlir:2:8: error: expected #stablehlo<comparison_direction ...> naming one of EQ, NE, ..."},
      {"%0 = \"mhlo.copy\"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'mhlo.copy' takes one tensor and returns one"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<1x2x2xf32>\n"
       "  %2 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>\n"
       "  %4 = \"chlo.ragged_dot\"(%0, %1, %3) : "
       "(tensor<2x2xf32>, tensor<1x2x2xf32>, tensor<1xi32>) -> tensor<2x2xf32>",
       "t.mlir:6:8: error: 'chlo.ragged_dot' requires the 'ragged_dot_dimension_numbers' attribute (#chlo.ragged_dot<...>)"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<1x2x2xf32>\n"
       "  %2 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>\n"
       "  %4 = \"chlo.ragged_dot\"(%0, %1, %3) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0, 1], rhs_group_dimensions = [0]>}> : "
       "(tensor<2x2xf32>, tensor<1x2x2xf32>, tensor<1xi32>) -> tensor<2x2xf32>",
       "t.mlir:6:8: error: 'chlo.ragged_dot' needs exactly one lhs_ragged_dimensions entry, a dim of the lhs tensor<2x2xf32>; got 2 entries"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<1x2x2xf32>\n"
       "  %2 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>\n"
       "  %4 = \"chlo.ragged_dot\"(%0, %1, %3) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0]>}> : "
       "(tensor<2x2xf32>, tensor<1x2x2xf32>, tensor<1xi32>) -> tensor<2x2xf32>",
       "t.mlir:6:8: error: 'chlo.ragged_dot' with a non-contracting ragged dim (lhs dim 0) needs one rhs_group_dimensions entry, an rhs dim that is neither batching nor contracting; rhs tensor<1x2x2xf32>, 0 entries"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<1x2x2xf32>\n"
       "  %2 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>\n"
       "  %4 = \"chlo.ragged_dot\"(%0, %1, %3) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>}> : "
       "(tensor<2x2xf32>, tensor<1x2x2xf32>, tensor<1xi32>) -> tensor<2x2xf32>",
       "t.mlir:6:8: error: 'chlo.ragged_dot' with a contracting ragged dim (lhs dim 1) takes no rhs_group_dimensions, got 1"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<1x2x2xf32>\n"
       "  %2 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>\n"
       "  %4 = \"chlo.ragged_dot\"(%0, %1, %2) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : "
       "(tensor<2x2xf32>, tensor<1x2x2xf32>, tensor<4xi32>) -> tensor<2x2xf32>",
       "t.mlir:6:8: error: 'chlo.ragged_dot' takes group sizes [g] or [the lhs dims before the ragged dim..., g], g the size of the rhs group dim; got tensor<4xi32> for lhs tensor<2x2xf32> and rhs tensor<1x2x2xf32>"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<1x2x2xf32>\n"
       "  %2 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>\n"
       "  %4 = \"chlo.ragged_dot\"(%0, %1, %a) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : "
       "(tensor<2x2xf32>, tensor<1x2x2xf32>, tensor<4xf32>) -> tensor<2x2xf32>",
       "t.mlir:6:8: error: 'chlo.ragged_dot' takes integer group sizes of rank >= 1, got tensor<4xf32>"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<1x2x2xf32>\n"
       "  %2 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>\n"
       "  %4 = \"chlo.ragged_dot\"(%0, %1, %3) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : "
       "(tensor<2x2xf32>, tensor<1x2x2xf32>, tensor<1xi32>) -> tensor<2x2xf32>",
       "t.mlir:6:8: error: 'chlo.ragged_dot' contracting dims lhs 1 / rhs 0 are not distinct dims of one size of the lhs tensor<2x2xf32> and rhs tensor<1x2x2xf32>"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<1x2x2xf32>\n"
       "  %2 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>\n"
       "  %4 = \"chlo.ragged_dot\"(%0, %1, %3) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : "
       "(tensor<2x2xf32>, tensor<1x2x2xf32>, tensor<1xi32>) -> tensor<2x3xf32>",
       "t.mlir:6:8: error: 'chlo.ragged_dot' of lhs tensor<2x2xf32> and rhs tensor<1x2x2xf32> returns tensor<2x2xf32>, the op says tensor<2x3xf32>"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<1x2x2xf32>\n"
       "  %2 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %3 = stablehlo.slice %2 [0:1] : (tensor<4xi32>) -> tensor<1xi32>\n"
       "  %4 = \"chlo.ragged_dot\"(%0, %1, %3) <{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged = [0]>}> : "
       "(tensor<2x2xf32>, tensor<1x2x2xf32>, tensor<1xi32>) -> tensor<2x2xf32>",
       "t.mlir:6:8: error: unknown field 'lhs_ragged' in #chlo.ragged_dot<...>"},

      {"%0 = chlo.broadcast_add %a, %a {broadcast_dimensions = array<i64: 0, 1>} : "
       "(tensor<4xf32>, tensor<4xf32>) -> tensor<3x4xf32>",
       "t.mlir:2:8: error: broadcast_dimensions has 2 entries, expected operand #0's rank 1"},
      {"%0 = chlo.broadcast_add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4x3xf32>",
       "t.mlir:2:8: error: operand #0's dim 0 (size 4) cannot broadcast to result dim 1"},
      {"%0 = chlo.broadcast_add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>",
       "t.mlir:2:8: error: operand #0 has rank 1, more than the result's 0"},
      {"%0 = chlo.broadcast_compare %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>",
       "t.mlir:2:8: error: 'chlo.broadcast_compare' requires the 'comparison_direction' attribute"},
      {"%0:2 = chlo.top_k(%a, k = 5) : tensor<4xf32> -> (tensor<5xf32>, tensor<5xi32>)",
       "t.mlir:2:10: error: 'chlo.top_k' k = 5 must be between 0 and the last dimension's size 4"},
      {"%0:2 = \"chlo.top_k\"(%a) : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xi32>)",
       "t.mlir:2:10: error: 'chlo.top_k' requires the 'k' attribute"},
      {"%0:2 = chlo.top_k(%a, k = 2) : tensor<4xf32> -> (tensor<3xf32>, tensor<3xi32>)",
       "t.mlir:2:10: error: 'chlo.top_k' returns tensor<2xf32> and the same shape of integer indices"},
      {"%0 = chlo.top_k(%a, k = 2) : tensor<4xf32> -> tensor<2xf32>",
       "t.mlir:2:8: error: 'chlo.top_k' has 2 results, got 1"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf64>\n"
       "  %1 = chlo.erf %0 : tensor<4xf64> -> tensor<4xf64>",
       "t.mlir:3:8: error: 'chlo.erf' on f64 is not supported yet (f16, bf16 and f32 are)"},
      {"%0 = chlo.is_inf %a : tensor<4xf32> -> tensor<4xi1>\n  %1 = chlo.asinh %0 : tensor<4xi1> -> tensor<4xi1>",
       "t.mlir:3:8: error: 'chlo.asinh' takes f16, bf16, f32 or f64 tensors, got tensor<4xi1>"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf64>\n"
       "  %1 = chlo.erf_inv %0 : tensor<4xf64> -> tensor<4xf64>",
       "t.mlir:3:8: error: 'chlo.erf_inv' on f64 is not supported yet (f16, bf16 and f32 are)"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf64>\n"
       "  %1 = chlo.bessel_i1e %0 : tensor<4xf64> -> tensor<4xf64>",
       "t.mlir:3:8: error: 'chlo.bessel_i1e' on f64 is not supported yet (f16, bf16 and f32 are)"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %1 = chlo.lgamma %0 : tensor<4xi32> -> tensor<4xi32>",
       "t.mlir:3:8: error: 'chlo.lgamma' takes f16, bf16, f32 or f64 tensors, got tensor<4xi32>"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf64>\n"
       "  %1 = chlo.zeta %a, %0 : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>",
       "t.mlir:3:8: error: 'chlo.zeta' takes two float tensors of the result's type, got "
       "tensor<4xf32> and tensor<4xf64>"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %1 = chlo.polygamma %0, %0 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>",
       "t.mlir:3:8: error: 'chlo.polygamma' takes two float tensors of the result's type, "
       "got tensor<4xi32> and tensor<4xi32>"},
      {"%0 = chlo.polygamma %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<2x2xf32>",
       "t.mlir:2:8: error: 'chlo.polygamma' takes two float tensors of the result's type, "
       "got tensor<4xf32> and tensor<4xf32>"},
      {"%0 = chlo.zeta %a : tensor<4xf32> -> tensor<4xf32>",
       "t.mlir:2:8: error: 'chlo.zeta' takes 2 operands, got 1"},
      {"%0 = chlo.digamma %a : tensor<4xf32> -> tensor<4xf64>",
       "t.mlir:2:8: error: 'chlo.digamma' returns its operand's type"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf64>\n"
       "  %1 = chlo.next_after %a, %0 : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>",
       "t.mlir:3:8: error: 'chlo.next_after' takes two tensors of one float type and returns "
       "it, got tensor<4xf32> and tensor<4xf64>"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %1 = chlo.next_after %0, %0 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>",
       "t.mlir:3:8: error: 'chlo.next_after' takes two tensors of one float type and returns "
       "it, got tensor<4xi32> and tensor<4xi32>"},
      {"%0 = stablehlo.slice %a [0:2] : (tensor<4xf32>) -> tensor<2xf32>\n"
       "  %1 = chlo.next_after %a, %0 : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>",
       "t.mlir:3:8: error: 'chlo.next_after' takes two tensors of the result's shape, got "
       "tensor<4xf32> and tensor<2xf32> (chlo.broadcast_next_after broadcasts)"},
      {"%0 = chlo.broadcast_next_after %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<3xf32>",
       "t.mlir:2:8: error: operand #0's dim 0 (size 4) cannot broadcast to result dim 0"},
      {"%0 = \"stablehlo.batch_norm_inference\"(%a, %a, %a, %a, %a) {feature_index = 0 : i64} "
       ": (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> "
       "tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.batch_norm_inference' requires the 'epsilon' and "
       "'feature_index' attributes"},
      {"%0 = \"stablehlo.batch_norm_inference\"(%a, %a, %a, %a, %a) {epsilon = 1.0 : f32, "
       "feature_index = 1 : i64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, "
       "tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.batch_norm_inference' feature_index 1 is not a "
       "dimension of tensor<4xf32>"},
      {"%0 = stablehlo.slice %a [0:2] : (tensor<4xf32>) -> tensor<2xf32>\n"
       "  %1:3 = \"stablehlo.batch_norm_training\"(%a, %a, %0) {epsilon = 1.0 : f32, "
       "feature_index = 0 : i64} : (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) -> "
       "(tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)",
       "t.mlir:3:10: error: 'stablehlo.batch_norm_training' operand #2 must be "
       "tensor<4xf32>, got tensor<2xf32>"},
      {"%0:3 = \"stablehlo.batch_norm_grad\"(%a, %a, %a, %a, %a) {epsilon = 1.0 : f32, "
       "feature_index = 0 : i64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, "
       "tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf64>)",
       "t.mlir:2:10: error: 'stablehlo.batch_norm_grad' result #2 must be tensor<4xf32>, "
       "got tensor<4xf64>"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %1 = \"stablehlo.batch_norm_inference\"(%0, %0, %0, %0, %0) {epsilon = 1.0 : f32, "
       "feature_index = 0 : i64} : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, "
       "tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>",
       "t.mlir:3:8: error: 'stablehlo.batch_norm_inference' takes a float tensor of rank 1 "
       "or more, got tensor<4xi32>"},
      {"%0 = \"stablehlo.batch_norm_inference\"(%a, %a, %a, %a, %a) {epsilon = \"x\", "
       "feature_index = 0 : i64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, "
       "tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'epsilon' must be a number"},
      {"%0 = \"stablehlo.reduce_precision\"(%a) {exponent_bits = 5 : i32} : "
       "(tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.reduce_precision' requires the 'mantissa_bits' "
       "attribute"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = \"stablehlo.triangular_solve\"(%0, %0) {left_side = true, lower = true} : "
       "(tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "t.mlir:3:8: error: 'stablehlo.triangular_solve' requires 'left_side', 'lower', "
       "'unit_diagonal' (booleans) and 'transpose_a'"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = \"stablehlo.triangular_solve\"(%0, %0) {left_side = true, lower = true, "
       "unit_diagonal = false, transpose_a = #stablehlo<transpose SIDEWAYS>} : "
       "(tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "t.mlir:3:8: error: 'transpose_a' must be #stablehlo<transpose NO_TRANSPOSE>, "
       "TRANSPOSE or ADJOINT, got '#stablehlo<transpose SIDEWAYS>'"},
      {"%0 = stablehlo.reshape %a : (tensor<4xf32>) -> tensor<2x2xf32>\n"
       "  %1 = \"stablehlo.triangular_solve\"(%0, %a) {left_side = true, lower = true, "
       "unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : "
       "(tensor<2x2xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:3:8: error: 'stablehlo.triangular_solve' b must share a's batch dims and "
       "element type, with a's size in its second-to-last dim"},
      {"%0 = \"stablehlo.cholesky\"(%a) : (tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.cholesky' a must be square float matrices [..., n, n], "
       "got tensor<4xf32>"},
      {"%0 = stablehlo.constant dense<1.0> : tensor<300x300xf32>\n"
       "  %1 = \"stablehlo.cholesky\"(%0) : (tensor<300x300xf32>) -> tensor<300x300xf32>",
       "t.mlir:3:8: error: 'stablehlo.cholesky' on tensor<300x300xf32>: matrices larger than "
       "256 x 256 are not supported yet"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %1 = \"stablehlo.torch_index_select\"(%a, %0) {dim = 0 : i64} : "
       "(tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>",
       "t.mlir:3:8: error: 'stablehlo.torch_index_select' requires the 'dim' and "
       "'batch_dims' attributes"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %1 = \"stablehlo.torch_index_select\"(%a, %0) {dim = 1 : i64, batch_dims = 0 : "
       "i64} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>",
       "t.mlir:3:8: error: 'stablehlo.torch_index_select' needs 0 <= batch_dims (0) <= dim "
       "(1) < the operand's rank, and batch_dims <= the index's rank; got operand "
       "tensor<4xf32> and index tensor<4xi32>"},
      {"%0 = \"stablehlo.torch_index_select\"(%a, %a) {dim = 0 : i64, batch_dims = 0 : "
       "i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.torch_index_select' takes integer indices, got "
       "tensor<4xf32>"},
      {"%0 = stablehlo.constant dense<0> : tensor<3xi32>\n"
       "  %1 = \"stablehlo.torch_index_select\"(%a, %0) {dim = 0 : i64, batch_dims = 1 : "
       "i64} : (tensor<4xf32>, tensor<3xi32>) -> tensor<4xf32>",
       "t.mlir:3:8: error: 'stablehlo.torch_index_select' needs 0 <= batch_dims (1) <= dim"},
      {"%0 = stablehlo.constant dense<0> : tensor<2xi32>\n"
       "  %1 = \"stablehlo.torch_index_select\"(%a, %0) {dim = 0 : i64, batch_dims = 0 : "
       "i64} : (tensor<4xf32>, tensor<2xi32>) -> tensor<3xf32>",
       "t.mlir:3:8: error: 'stablehlo.torch_index_select' of operand tensor<4xf32> and index "
       "tensor<2xi32> gives tensor<2xf32>, not tensor<3xf32>"},
      {"%0 = chlo.mulhi %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'chlo.mulhi' takes two integer tensors of one type (8 to 64 bits) "
       "and returns it, got tensor<4xf32> and tensor<4xf32>"},
      {"%0 = stablehlo.composite \"my.op\" %a {decomposition = \"f\"} : "
       "(tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.composite' requires a 'decomposition' naming a "
       "function (@name)"},
      {"%0 = stablehlo.composite \"my.op\" %a {decomposition = @missing} : "
       "(tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: call to undefined function '@missing'"},
      {"%0 = stablehlo.reduce_precision %a, format = e0m3 : tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.reduce_precision' needs exponent_bits >= 1 and "
       "mantissa_bits >= 0, got 0 and 3"},
      {"%0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>\n"
       "  %1 = stablehlo.reduce_precision %0, format = e5m2 : tensor<4xi32>",
       "t.mlir:3:8: error: 'stablehlo.reduce_precision' takes a float tensor and returns "
       "its type, got tensor<4xi32>"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "func.func @f(%%a: tensor<4xf32>) {\n  %s\n  return\n}\n", cases[i].op);
    expect_import_error(source, cases[i].message);
  }
}

// util.global / ml_program.global: what the importer refuses, with the
// global and the op named.
static void test_global_errors(void** state) {
  (void)state;
  static const struct {
    const char* globals;
    const char* body;
    const char* message;
  } cases[] = {
      {"util.global private @g = dense<1.0> : tensor<4xf32>",
       "%0 = util.global.load @g : tensor<4xf32>\n"
       "  util.global.store %0, @g : tensor<4xf32>",
       "t.mlir:4:3: error: 'util.global.store' to '@g', which is not mutable (declare it "
       "'util.global private mutable')"},
      {"ml_program.global private @g(dense<1.0> : tensor<4xf32>) : tensor<4xf32>",
       "ml_program.global_store @g = %a : tensor<4xf32>",
       "t.mlir:3:3: error: 'ml_program.global_store' to '@g', which is not mutable (declare "
       "it 'ml_program.global private mutable')"},
      {"util.global private mutable @g = dense<1.0> : tensor<2xf32>",
       "util.global.store %a, @g : tensor<4xf32>",
       "t.mlir:3:3: error: 'util.global.store' of tensor<4xf32> to '@g' of type "
       "tensor<2xf32>"},
      {"util.global private mutable @g = dense<1.0> : tensor<4xf32>",
       "util.global.store %a, @h : tensor<4xf32>",
       "t.mlir:3:3: error: 'util.global.store' names '@h', which is not a global of this "
       "module"},
      {"util.global private mutable @g = dense<1.0> : tensor<4xf32>",
       "\"util.global.store\"(%a, %a) {global = @g} : (tensor<4xf32>, tensor<4xf32>) -> ()",
       "t.mlir:3:3: error: 'util.global.store' takes one value and has no results, got 2 "
       "operands and 0 results"},
      {"util.global private mutable @g = #util.byte_pattern<x> : tensor<4xi8>",
       "\"util.global.store\"(%a) {global = @g} : (tensor<4xf32>) -> ()",
       "t.mlir:1:1: error: expected #util.byte_pattern<N> with N >= 0, got "
       "'#util.byte_pattern<x>'"},
      {"util.global private @g = dense<1.0> : tensor<4xf32>",
       "%0 = util.global.load @h : tensor<4xf32>",
       "t.mlir:3:8: error: 'util.global.load' names '@h', which is not a global of this "
       "module"},
      {"util.global private @g = dense<1.0> : tensor<4xf32>",
       "%0 = util.global.load @g : tensor<2xf32>",
       "t.mlir:3:8: error: 'util.global.load' of '@g' (tensor<4xf32>) gives tensor<2xf32>"},
      {"util.global private @g = #util.byte_pattern<x> : tensor<4xi8>",
       "%0 = util.global.load @g : tensor<4xi8>",
       "t.mlir:1:1: error: expected #util.byte_pattern<N> with N >= 0, got "
       "'#util.byte_pattern<x>'"},
      {"util.global private mutable @g : tensor<4xf32>",
       "%0 = util.global.load @g : tensor<4xf32>",
       "t.mlir:1:1: error: global '@g' has no initial value and nothing stores to it"},
      {"util.global private @g = dense<1.0> : tensor<4xf32>\n"
       "util.global private @g = dense<2.0> : tensor<4xf32>",
       "%0 = util.global.load @g : tensor<4xf32>",
       "t.mlir:2:1: error: redefinition of '@g'"},
      {"util.global private @g = dense<1.0> : tensor<4xf32>",
       "%0 = \"util.global.load.indirect\"(%a) : (tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:3:8: error: 'util.global.load.indirect' takes the result of a "
       "util.global.address"},
      {"util.global private @g = dense<1.0> : tensor<4xf32>",
       "%0 = \"util.global.load\"() {global = \"g\"} : () -> tensor<4xf32>",
       "t.mlir:3:8: error: 'util.global.load' requires a 'global' naming a global (@name)"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "%s\nfunc.func @f(%%a: tensor<4xf32>) {\n  %s\n  return\n}\n",
             cases[i].globals, cases[i].body);
    expect_import_error(source, cases[i].message);
  }
  // Parse errors of the pretty forms.
  expect_parse_error("util.global private @g\n", "expected ':' and the global's type");
  expect_parse_error("ml_program.global private @g(dense<1.0> : tensor<f32>\n",
                     "to close the global's value");
}

// Functions with several blocks: what the importer cannot make structured,
// and malformed branches, each named at the branch.
static void test_cfg_errors(void** state) {
  (void)state;
  static const struct {
    const char* blocks;
    const char* message;
  } cases[] = {
      {"  cf.br ^h\n^h:\n  cf.cond_br %a, ^b, ^x\n^b:\n  cf.cond_br %a, ^h, ^x\n^x:\n  return",
       "t.mlir:10:3: error: 'cf.cond_br' leaves the loop headed by '^h' from '^b'; a loop may "
       "be left only from its header's cf.cond_br"},
      {"  cf.cond_br %a, ^h, ^m\n^h:\n  cf.br ^m\n^m:\n  cf.cond_br %a, ^h, ^x\n^x:\n  return",
       "t.mlir:6:3: error: 'cf.cond_br' enters the loop at '^m' other than at its header '^h' "
       "(only structured loops are supported)"},
      {"  cf.br ^h\n^h:\n  cf.br ^h",
       "t.mlir:8:3: error: the loop headed by '^h' must end its header in a cf.cond_br to the "
       "loop and out of it"},
      {"  cf.br ^b(%a : tensor<i1>)\n^b:\n  return",
       "t.mlir:6:3: error: 'cf.br' passes 1 values to '^b', which takes 0"},
      {"  cf.br ^b(%a : tensor<i1>)\n^b(%x: tensor<i32>):\n  return",
       "t.mlir:6:3: error: 'cf.br' passes tensor<i1> as argument 0 of '^b', which is "
       "tensor<i32>"},
      {"  cf.cond_br %i, ^b, ^b\n^b:\n  return",
       "t.mlir:6:3: error: 'cf.cond_br' takes an i1 condition and two targets"},
      {"  cf.br ^b\n^b:\n  %0 = stablehlo.not %a : tensor<i1>",
       "t.mlir:8:8: error: block '^b' ends in 'stablehlo.not'; expected cf.br, cf.cond_br or "
       "func.return"},

      {"  cf.br ^h\n^h:\n  check.expect_true(%a) : tensor<i1>\n  cf.cond_br %a, ^h, ^x\n"
       "^x:\n  return",
       "t.mlir:8:3: error: 'check.expect_true' in the loop header '^h' stores to a global or "
       "checks (a header's ops run more than once per iteration: move it to the loop body)"},
      {"  cf.br ^h\n^h:\n  func.call @g(%a) : (tensor<i1>) -> ()\n  cf.cond_br %a, ^h, ^x\n"
       "^x:\n  return",
       "t.mlir:8:3: error: 'func.call' in the loop header '^h' stores to a global or checks"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "func.func private @g(%%a: tensor<i1>) {\n  check.expect_true(%%a) : tensor<i1>\n"
             "  return\n}\n"
             "func.func @f(%%a: tensor<i1>, %%i: tensor<i32>) {\n%s\n}\n", cases[i].blocks);
    expect_import_error(source, cases[i].message);
  }
  expect_parse_error("func.func @f(%a: tensor<i1>) {\n  cf.cond_br %a ^b, ^b\n^b:\n  return\n}\n",
                     "after the branch condition");
  expect_parse_error("func.func @f(%a: tensor<i1>) {\n  cf.cond_br %a, ^b ^b\n^b:\n  return\n}\n",
                     "between the true and false targets");
}

// bitcast_convert between element types of different widths needs the
// shapes to match bit for bit.
static void test_bitcast_widths_errors(void** state) {
  (void)state;
  expect_import_error(
      "func.func @f(%a: tensor<7xi1>) {\n"
      "  %0 = stablehlo.bitcast_convert %a : (tensor<7xi1>) -> tensor<i8>\n  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.bitcast_convert' from tensor<7xi1> to tensor<i8>: the "
      "narrower element type's tensor has the other's shape and a last dimension of the ratio "
      "of the bit widths (static)");
  expect_import_error(
      "func.func @f(%a: tensor<2xi16>) {\n"
      "  %0 = stablehlo.bitcast_convert %a : (tensor<2xi16>) -> tensor<3x16xi1>\n  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.bitcast_convert' from tensor<2xi16> to tensor<3x16xi1>");
  expect_import_error(
      "func.func @f(%a: tensor<2xf32>) {\n"
      "  %0 = stablehlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<2x2xi8>\n  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.bitcast_convert' from tensor<2xf32> to tensor<2x2xi8>");
  expect_import_error(
      "func.func @f(%a: tensor<3x2xi8>) {\n"
      "  %0 = stablehlo.bitcast_convert %a : (tensor<3x2xi8>) -> tensor<2xf16>\n  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.bitcast_convert' from tensor<3x2xi8> to tensor<2xf16>");
}

// stablehlo.map: what its lowering needs of the body and the dimensions.
static void test_map_errors(void** state) {
  (void)state;
  static const struct {
    const char* body;
    const char* dims;
    const char* message;
  } cases[] = {
      {"%r = stablehlo.reduce_precision %x, format = e5m10 : tensor<f32>", "0",
       "'stablehlo.map' bodies of elementwise ops are supported; "
       "'stablehlo.reduce_precision' is not one"},
      {"%r = stablehlo.negate %x : tensor<f32>", "",
       "'stablehlo.map' must map over every dimension in order (dimensions = [0, ..., 0])"},
      {"%r = stablehlo.negate %x : tensor<f32>\n    %r2 = stablehlo.convert %r : "
       "(tensor<f32>) -> tensor<i32>", "0",
       "'stablehlo.map' body must return one value of the result's element type"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "func.func @f(%%a: tensor<4xf32>) {\n"
             "  %%0 = \"stablehlo.map\"(%%a) ({\n"
             "  ^bb0(%%x: tensor<f32>):\n"
             "    %s\n"
             "    stablehlo.return %s : %s\n"
             "  }) {dimensions = array<i64%s%s>} : (tensor<4xf32>) -> tensor<4xf32>\n"
             "  return\n}\n",
             cases[i].body, i == 2 ? "%r2" : "%r", i == 2 ? "tensor<i32>" : "tensor<f32>",
             cases[i].dims[0] ? ": " : "", cases[i].dims);
    expect_import_error(source, cases[i].message);
  }
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>, %b: tensor<2xf32>) {\n"
      "  %0 = \"stablehlo.map\"(%a, %b) ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    stablehlo.return %x : tensor<f32>\n"
      "  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>\n"
      "  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.map' input #1 must have the result's shape "
      "(tensor<4xf32>)");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  %0 = \"stablehlo.map\"(%a) ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    stablehlo.return %x : tensor<f32>\n"
      "  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.map' body takes 2 arguments for 1 inputs");
}

// chlo.scan, stablehlo.square and complex triangular_solve: each bad
// operand, attribute and body is named.
static void test_scan_square_errors(void** state) {
  (void)state;
  static const struct {
    const char* attrs;
    const char* types;
    const char* message;
  } cases[] = {
      {"dimension = 0 : i64", "(tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)",
       "t.mlir:2:10: error: 'chlo.scan' requires the 'operandSegmentSizes' attribute"},
      {"dimension = 0 : i64, operandSegmentSizes = array<i32: 1, 2>",
       "(tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)",
       "t.mlir:2:10: error: 'chlo.scan' operandSegmentSizes must be [inputs, inits] (at "
       "least one input) summing to its 2 operands"},
      {"operandSegmentSizes = array<i32: 1, 1>",
       "(tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)",
       "t.mlir:2:10: error: 'chlo.scan' requires the 'dimension' attribute"},
      {"dimension = 1 : i64, operandSegmentSizes = array<i32: 1, 1>",
       "(tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)",
       "t.mlir:2:10: error: 'chlo.scan' dimension 1 is outside its first input's rank 1"},
      {"dimension = 0 : i64, operandSegmentSizes = array<i32: 1, 1>",
       "(tensor<4xf32>, tensor<f32>) -> (tensor<4xf64>, tensor<f32>)",
       "t.mlir:2:10: error: 'chlo.scan' result #0 must have the type of its input (the "
       "inputs one shape), got tensor<4xf64> for tensor<4xf32>"},
      {"dimension = 0 : i64, operandSegmentSizes = array<i32: 1, 1>",
       "(tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<2xf32>)",
       "t.mlir:2:10: error: 'chlo.scan' result #1 must have the type of its init (the "
       "inputs one shape), got tensor<2xf32> for tensor<f32>"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    // A scan of a tensor<4xf32> input with a tensor<f32> carry, generic.
    snprintf(source, sizeof(source),
             "func.func @f(%%a: tensor<4xf32>, %%i: tensor<f32>) {\n"
             "  %%0:2 = \"chlo.scan\"(%%a, %%i) ({\n"
             "  ^bb0(%%x: tensor<f32>, %%c: tensor<f32>):\n"
             "    %%s = stablehlo.add %%x, %%c : tensor<f32>\n"
             "    stablehlo.return %%s, %%s : tensor<f32>, tensor<f32>\n"
             "  }) {%s} : %s\n"
             "  return\n}\n",
             cases[i].attrs, cases[i].types);
    expect_import_error(source, cases[i].message);
  }
  // The pretty form: the body's arguments, results and length.
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>, %i: tensor<f32>) {\n"
      "  %0:2 = chlo.scan(%a) inits(%i) dimension=0 {\n"
      "  ^bb0(%x: tensor<f32>):\n"
      "    stablehlo.return %x, %x : tensor<f32>, tensor<f32>\n"
      "  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)\n"
      "  return\n}\n",
      "t.mlir:2:10: error: 'chlo.scan' with 1 inputs and 1 inits has 2 results and one "
      "body block of 2 arguments");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>, %i: tensor<f32>) {\n"
      "  %0:2 = chlo.scan(%a) inits(%i) dimension=0 {\n"
      "  ^bb0(%x: tensor<f32>, %c: tensor<f32>):\n"
      "    stablehlo.return %x : tensor<f32>\n"
      "  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)\n"
      "  return\n}\n",
      "t.mlir:2:10: error: 'chlo.scan' body must end in a stablehlo.return of 1 output "
      "slices and 1 carries");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>, %i: tensor<f32>) {\n"
      "  %0:2 = chlo.scan(%a) inits(%i) dimension=0 {\n"
      "  ^bb0(%x: tensor<f32>, %c: tensor<f32>):\n"
      "    %d = stablehlo.convert %c : (tensor<f32>) -> tensor<f64>\n"
      "    stablehlo.return %x, %d : tensor<f32>, tensor<f64>\n"
      "  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)\n"
      "  return\n}\n",
      "t.mlir:5:5: error: 'chlo.scan' body result #1 must be tensor<f32> (its carry's "
      "type)");
  expect_import_error(
      "func.func @f(%a: tensor<4x2xf32>, %i: tensor<f32>) {\n"
      "  %0:2 = chlo.scan(%a) inits(%i) dimension=0 {\n"
      "  ^bb0(%x: tensor<2xf32>, %c: tensor<f32>):\n"
      "    stablehlo.return %c, %c : tensor<f32>, tensor<f32>\n"
      "  } : (tensor<4x2xf32>, tensor<f32>) -> (tensor<4x2xf32>, tensor<f32>)\n"
      "  return\n}\n",
      "t.mlir:4:5: error: 'chlo.scan' body result #0 must be tensor<2xf32> (its output's "
      "slice, the scanned dimension dropped)");
  expect_import_error(
      "func.func @f(%a: tensor<2000xf32>, %i: tensor<f32>) {\n"
      "  %0:2 = chlo.scan(%a) inits(%i) dimension=0 {\n"
      "  ^bb0(%x: tensor<f32>, %c: tensor<f32>):\n"
      "    stablehlo.return %x, %c : tensor<f32>, tensor<f32>\n"
      "  } : (tensor<2000xf32>, tensor<f32>) -> (tensor<2000xf32>, tensor<f32>)\n"
      "  return\n}\n",
      "t.mlir:2:10: error: 'chlo.scan' over 2000 positions is not supported (it is "
      "unrolled, at most 1024)");
  expect_import_error(
      "func.func @f(%a: tensor<?xf32>, %i: tensor<f32>) {\n"
      "  %0:2 = chlo.scan(%a) inits(%i) dimension=0 {\n"
      "  ^bb0(%x: tensor<f32>, %c: tensor<f32>):\n"
      "    stablehlo.return %x, %c : tensor<f32>, tensor<f32>\n"
      "  } : (tensor<?xf32>, tensor<f32>) -> (tensor<?xf32>, tensor<f32>)\n"
      "  return\n}\n",
      "t.mlir:2:10: error: 'chlo.scan' with a symbolic dimension ('?') in its result types "
      "is not supported yet");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  %0 = \"stablehlo.map\"(%a) ({\n"
      "  ^bb0(%x: tensor<f32>):\n"
      "    %r = chlo.scan(%x) inits() dimension=0 {\n"
      "    ^bb0(%y: tensor<f32>):\n"
      "      stablehlo.return %y : tensor<f32>\n"
      "    } : (tensor<f32>) -> tensor<f32>\n"
      "    stablehlo.return %r : tensor<f32>\n"
      "  }) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return\n}\n",
      "t.mlir:4:10: error: 'chlo.scan' inside a map body is not supported");
  expect_parse_error(
      "func.func @f(%a: tensor<4xf32>, %i: tensor<f32>) {\n"
      "  %0:2 = chlo.scan(%a) (%i) dimension=0 {\n"
      "  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)\n"
      "  return\n}\n",
      "t.mlir:2:24: error: expected 'inits' and the initial carries");
  expect_parse_error(
      "func.func @f(%a: tensor<4xf32>, %i: tensor<f32>) {\n"
      "  %0:2 = chlo.scan(%a) inits(%i) {\n"
      "  } : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)\n"
      "  return\n}\n",
      "t.mlir:2:34: error: expected 'dimension' = the scanned dimension, found '{'");
  // square returns its operand's type, real or complex.
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  %0 = \"stablehlo.square\"(%a) : (tensor<4xf32>) -> tensor<4xf64>\n"
      "  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.square' returns its operand's type, got tensor<4xf64> "
      "from tensor<4xf32>");
  expect_import_error(
      "func.func @f(%a: tensor<4xcomplex<f32>>) {\n"
      "  %0 = \"stablehlo.square\"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xf32>\n"
      "  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.square' returns its operand's type");
  // A complex triangular_solve is checked on its parts' shapes.
  expect_import_error(
      "func.func @f(%a: tensor<2x2xcomplex<f32>>, %b: tensor<3x1xcomplex<f32>>) {\n"
      "  %0 = \"stablehlo.triangular_solve\"(%a, %b) {left_side = true, lower = true, "
      "unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : "
      "(tensor<2x2xcomplex<f32>>, tensor<3x1xcomplex<f32>>) -> tensor<3x1xcomplex<f32>>\n"
      "  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.triangular_solve' b must share a's batch dims and "
      "element type, with a's size in its second-to-last dim, and the result b's type; got "
      "a tensor<2x2x2xf32> and b tensor<3x1x2xf32> (complex as [..., 2] parts)");
}

// interpreter.run_parallel and the collective ops of its programs: each
// bad attribute and signature is named.
static void test_run_parallel_errors(void** state) {
  (void)state;
  static const struct {
    const char* permute_attrs;
    const char* programs;
    const char* message;
  } cases[] = {
      {"source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>", "[]",
       "t.mlir:6:10: error: 'interpreter.run_parallel' requires 'programs', [[@f, ...], ...]: "
       "rows of one length (the replicas' partitions), all naming one function"},
      {"source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>", "[[@p], [@q]]",
       "t.mlir:6:10: error: 'interpreter.run_parallel' requires 'programs'"},
      {"source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>", "[[@p, @p], [@p]]",
       "t.mlir:6:10: error: 'interpreter.run_parallel' requires 'programs'"},
      {"source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>", "[[@p, @p, @p]]",
       "t.mlir:6:10: error: 'interpreter.run_parallel' of 3 processes of '@p' (one block "
       "ending in func.return) takes 3 operands and has 3 results (each process's in turn), "
       "got 2 and 2"},
      {"source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>", "[[@g], [@g]]",
       "t.mlir:6:10: error: 'interpreter.run_parallel' of undefined function '@g'"},
      {"channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>", "[[@p], [@p]]",
       "t.mlir:2:8: error: 'stablehlo.collective_permute' requires 'source_target_pairs', "
       "dense<[[source, target], ...]> : tensor<Nx2xi64> (N at most 128)"},
      {"source_target_pairs = dense<[0, 1]> : tensor<2xi64>", "[[@p], [@p]]",
       "t.mlir:2:8: error: 'stablehlo.collective_permute' requires 'source_target_pairs'"},
      {"source_target_pairs = dense<[[0, 2]]> : tensor<1x2xi64>", "[[@p], [@p]]",
       "t.mlir:2:8: error: 'stablehlo.collective_permute' pair process 2 is outside the 2 "
       "replicas of a process group"},
      {"source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = "
       "#stablehlo.channel_handle<handle = 1, type = 0>", "[[@p], [@p]]",
       "t.mlir:2:8: error: 'stablehlo.collective_permute' pair process 1 is outside the 1 "
       "partitions of a process group"},
      {"source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = 3 : i64",
       "[[@p], [@p]]",
       "t.mlir:2:8: error: 'stablehlo.collective_permute' channel_handle must be "
       "#stablehlo.channel_handle<handle = N, type = T>"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1536];
    snprintf(source, sizeof(source),
             "func.func private @p(%%x: tensor<2xf32>) -> tensor<2xf32> {\n"
             "  %%y = \"stablehlo.%s\"(%%x) {%s} : (tensor<2xf32>) -> tensor<2xf32>\n"
             "  return %%y : tensor<2xf32>\n"
             "}\n"
             "func.func @f(%%a: tensor<2xf32>) {\n"
             "  %%0:2 = \"interpreter.run_parallel\"(%%a, %%a) {programs = %s} : "
             "(tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n"
             "  return\n}\n",
             // Where the programs are not well formed, @p is imported on its
             // own, so it has no collective.
             i < 5 && i != 3 ? "negate" : "collective_permute", cases[i].permute_attrs,
             cases[i].programs);
    expect_import_error(source, cases[i].message);
  }
  // all_reduce among 2 replicas x 2 partitions: its groups and body.
  static const struct {
    const char* attrs;
    const char* body;
    const char* message;
  } reduces[] = {
      {"channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>",
       "%r = stablehlo.add %a, %b : tensor<f32>",
       "t.mlir:2:8: error: 'stablehlo.all_reduce' requires 'replica_groups', dense<[[id, ...], "
       "...]> : tensor<GxSxi64> (-1 padding, at most the 4 processes), and "
       "use_global_device_ids only with a channel handle > 0"},
      {"replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids",
       "%r = stablehlo.add %a, %b : tensor<f32>",
       "t.mlir:2:8: error: 'stablehlo.all_reduce' requires 'replica_groups'"},
      {"replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>",
       "%r = stablehlo.add %a, %b : tensor<f32>",
       "t.mlir:2:8: error: 'stablehlo.all_reduce' replica_groups id 0 is repeated or outside "
       "the 2 replicas"},
      {"replica_groups = dense<[[0, 3]]> : tensor<1x2xi64>, channel_handle = "
       "#stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids",
       "%r = stablehlo.add %a, %b : tensor<f32>",
       "t.mlir:2:8: error: 'stablehlo.all_reduce' replica_groups leave process 1 out"},
      {"replica_groups = dense<[[0, -1]]> : tensor<1x2xi64>",
       "%r = stablehlo.add %a, %b : tensor<f32>",
       "t.mlir:2:8: error: 'stablehlo.all_reduce' replica_groups leave replica 1 out"},
      {"replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = "
       "[#stablehlo.mesh_axis<name = \"x\", size = 3>]>, axes = [#stablehlo.axis_ref<name = "
       "\"x\">]>",
       "%r = stablehlo.add %a, %b : tensor<f32>",
       "t.mlir:2:8: error: 'stablehlo.all_reduce' replica_groups: a "
       "#stablehlo.replica_group_mesh_axes must name its mesh's axes (sizes multiplying to the "
       "4 processes) and axis_refs of them"},
      {"replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = "
       "[#stablehlo.mesh_axis<name = \"x\", size = 4>]>, axes = [#stablehlo.axis_ref<name = "
       "\"z\">]>",
       "%r = stablehlo.add %a, %b : tensor<f32>",
       "t.mlir:2:8: error: 'stablehlo.all_reduce' replica_groups: a "
       "#stablehlo.replica_group_mesh_axes must name"},
      {"replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>",
       "%r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>",
       "t.mlir:2:8: error: 'stablehlo.all_reduce' body must return one value of its "
       "operand's element type"},
  };
  for (size_t i = 0; i < sizeof(reduces) / sizeof(reduces[0]); ++i) {
    char text[2048];
    snprintf(text, sizeof(text),
             "func.func private @p(%%x: tensor<2xf32>) -> tensor<2xf32> {\n"
             "  %%y = \"stablehlo.all_reduce\"(%%x) ({\n"
             "  ^bb0(%%a: tensor<f32>, %%b: tensor<f32>):\n"
             "    %s\n"
             "    stablehlo.return %%r : %s\n"
             "  }) {%s} : (tensor<2xf32>) -> tensor<2xf32>\n"
             "  return %%y : tensor<2xf32>\n"
             "}\n"
             "func.func @f(%%a: tensor<2xf32>) {\n"
             "  %%0:4 = \"interpreter.run_parallel\"(%%a, %%a, %%a, %%a) {programs = [[@p, @p], "
             "[@p, @p]]} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> "
             "(tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)\n"
             "  return\n}\n",
             reduces[i].body, i == 7 ? "tensor<i1>" : "tensor<f32>", reduces[i].attrs);
    expect_import_error(text, reduces[i].message);
  }
  // More processes than grt instantiates.
  char programs[1024] = "[";
  for (int i = 0; i < 65; ++i) strcat(programs, i ? ", [@p]" : "[@p]");
  strcat(programs, "]");
  char source[2048];
  snprintf(source, sizeof(source),
           "func.func private @p(%%x: tensor<2xf32>) -> tensor<2xf32> {\n"
           "  return %%x : tensor<2xf32>\n"
           "}\n"
           "func.func @f(%%a: tensor<2xf32>) {\n"
           "  %%0 = \"interpreter.run_parallel\"(%%a) {programs = %s} : (tensor<2xf32>) -> "
           "tensor<2xf32>\n"
           "  return\n}\n",
           programs);
  expect_import_error(source, "t.mlir:5:8: error: 'interpreter.run_parallel' of 65 processes "
                      "is not supported (at most 64)");
}

// interpreter.probe and check.expect_serialized_eq: each bad use is named.
static void test_probe_errors(void** state) {
  (void)state;
  static const struct {
    const char* body;
    const char* message;
  } cases[] = {
      {"%0 = \"interpreter.probe\"(%a) : (tensor<2xf32>) -> tensor<2xf32>",
       "t.mlir:2:8: error: 'interpreter.probe' requires a 'probe_id' string"},
      {"check.expect_serialized_eq %a, probe_id = \"p\" : tensor<2xf32>",
       "t.mlir:2:3: error: 'check.expect_serialized_eq' of probe \"p\": no interpreter.probe "
       "with that probe_id comes before it"},
      {"%0 = interpreter.probe %a, probe_id = \"p\" : tensor<2xf32>\n"
       "  check.expect_serialized_eq %0, probe_id = \"p\", iter = 15 : tensor<2xf32>",
       "t.mlir:3:3: error: 'check.expect_serialized_eq' iter 15 is not supported: a probe "
       "keeps its first 15 recordings"},
      {"%0 = interpreter.probe %a, probe_id = \"p\" : tensor<2xf32>\n"
       "  %1 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xf64>\n"
       "  check.expect_serialized_eq %1, probe_id = \"p\" : tensor<2xf64>",
       "t.mlir:4:3: error: 'check.expect_serialized_eq' compares tensor<2xf64> with probe "
       "\"p\", which records tensor<2xf32>"},
      {"%0 = interpreter.probe %a, probe_id = \"p\" : tensor<2xf32>\n"
       "  %1 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xi32>\n"
       "  %2 = interpreter.probe %1, probe_id = \"p\" : tensor<2xi32>",
       "t.mlir:4:8: error: 'interpreter.probe' \"p\" records tensor<2xi32> here and "
       "tensor<2xf32> elsewhere: one probe_id keeps one type"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source), "func.func @f(%%a: tensor<2xf32>) {\n  %s\n  return\n}\n",
             cases[i].body);
    expect_import_error(source, cases[i].message);
  }
}

// select_and_scatter: each bad operand, attribute and region is named.
static void test_select_and_scatter_errors(void** state) {
  (void)state;
  static const struct {
    const char* source;    // the source's type
    const char* init;      // init_value's type
    const char* result;    // the result's type
    const char* attrs;     // window attributes
    const char* select;    // the select region's argument type
    const char* verdict;   // what the select region returns
    const char* message;
  } cases[] = {
      {"2x2xf32", "2xf32", "4x4xf32", "", "f32", "%c : tensor<i1>",
       "'stablehlo.select_and_scatter' init_value must be a rank-0 tensor of the "
       "operand's element type (operand tensor<4x4xf32>), got tensor<2xf32>"},
      {"2x2xf32", "i32", "4x4xf32", "", "f32", "%c : tensor<i1>",
       "init_value must be a rank-0 tensor of the operand's element type (operand "
       "tensor<4x4xf32>), got tensor<i32>"},
      {"2x2xf32", "f32", "4x5xf32", "", "f32", "%c : tensor<i1>",
       "'stablehlo.select_and_scatter' returns the operand's type tensor<4x4xf32>, not "
       "tensor<4x5xf32>"},
      {"3x2xf32", "f32", "4x4xf32", "", "f32", "%c : tensor<i1>",
       "'stablehlo.select_and_scatter' source must be tensor<2x2xf32> (one element per "
       "window of the padded operand tensor<4x4xf32>), got tensor<3x2xf32>"},
      {"2x2xf32", "f32", "4x4xf32", ", padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>",
       "f32", "%c : tensor<i1>",
       "source must be tensor<2x3xf32> (one element per window of the padded operand "
       "tensor<4x4xf32>), got tensor<2x2xf32>"},
      {"2x2xi32", "f32", "4x4xf32", "", "f32", "%c : tensor<i1>",
       "source must be tensor<2x2xf32> (one element per window of the padded operand "
       "tensor<4x4xf32>), got tensor<2x2xi32>"},
      {"2x2xf32", "f32", "4x4xf32", ", window_strides = array<i64: 2, 0>", "f32",
       "%c : tensor<i1>",
       "'stablehlo.select_and_scatter' dimension 1 needs a window size and stride of at "
       "least 1, padding of at least 0 and no dilation; got size 2, stride 0, padding "
       "[0, 0]"},
      {"2x2xf32", "f32", "4x4xf32", ", padding = dense<[[0, 0], [-1, 1]]> : tensor<2x2xi64>",
       "f32", "%c : tensor<i1>",
       "dimension 1 needs a window size and stride of at least 1, padding of at least 0 "
       "and no dilation; got size 2, stride 2, padding [-1, 1]"},
      {"2x2xf32", "f32", "4x4xf32", ", window_dimensions = array<i64: 2>", "f32",
       "%c : tensor<i1>", "'window_dimensions' has 1 values; expected 2"},
      {"2x2xf32", "f32", "4x4xf32", "", "i32", "%c : tensor<i1>",
       "'stablehlo.select_and_scatter' select region takes two rank-0 tensors of the "
       "operand's element type (operand tensor<4x4xf32>), got tensor<i32>"},
      {"2x2xf32", "f32", "4x4xf32", "", "f32", "%x : tensor<f32>",
       "'stablehlo.select_and_scatter' select region must return one tensor<i1>"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char attrs[256];
    // The case's window attributes replace the defaults they name.
    bool own_dims = strstr(cases[i].attrs, "window_dimensions") != NULL;
    bool own_strides = strstr(cases[i].attrs, "window_strides") != NULL;
    snprintf(attrs, sizeof(attrs), "%s%s%s",
             own_dims ? "window_strides = array<i64: 2, 2>"
                      : "window_dimensions = array<i64: 2, 2>",
             own_dims || own_strides ? "" : ", window_strides = array<i64: 2, 2>",
             cases[i].attrs);
    char source[2048];
    snprintf(source, sizeof(source),
             "func.func @f(%%a: tensor<4x4xf32>, %%s: tensor<%s>, %%i: tensor<%s>) {\n"
             "  %%0 = \"stablehlo.select_and_scatter\"(%%a, %%s, %%i) <{%s}> ({\n"
             "  ^bb0(%%x: tensor<%s>, %%y: tensor<%s>):\n"
             "    %%c = stablehlo.compare GE, %%x, %%y : (tensor<%s>, tensor<%s>) -> "
             "tensor<i1>\n"
             "    stablehlo.return %s\n"
             "  }, {\n"
             "  ^bb0(%%x: tensor<f32>, %%y: tensor<f32>):\n"
             "    %%c = stablehlo.add %%x, %%y : tensor<f32>\n"
             "    stablehlo.return %%c : tensor<f32>\n"
             "  }) : (tensor<4x4xf32>, tensor<%s>, tensor<%s>) -> tensor<%s>\n"
             "  return\n}\n",
             cases[i].source, cases[i].init, attrs, cases[i].select, cases[i].select,
             cases[i].select, cases[i].select, cases[i].verdict, cases[i].source,
             cases[i].init, cases[i].result);
    expect_import_error(source, cases[i].message);
  }
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>, %i: tensor<f32>) {\n"
      "  %0 = \"stablehlo.select_and_scatter\"(%a, %i) <{window_dimensions = "
      "array<i64: 2>}> ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %c : tensor<i1>\n"
      "  }) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>\n"
      "  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.select_and_scatter' takes 3 operands (operand, "
      "source, init_value), 1 result and 2 regions (select, scatter); got 2, 1 and 1");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>, %s: tensor<2xf32>, %i: tensor<f32>) {\n"
      "  %0 = \"stablehlo.select_and_scatter\"(%a, %s, %i) <{window_dimensions = "
      "array<i64: 2>, window_strides = array<i64: 2>}> ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %z: tensor<f32>):\n"
      "    %c = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %c : tensor<i1>\n"
      "  }, {\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    stablehlo.return %y : tensor<f32>\n"
      "  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>\n"
      "  return\n}\n",
      "'stablehlo.select_and_scatter' select region has one block of 2 arguments");
}

// fft: each constraint of the spec names the fft_type, what it takes and the
// op's signature.
static void test_fft_errors(void** state) {
  (void)state;
  static const struct {
    const char* attrs;  // the attribute dictionary's contents
    const char* in;     // the operand's type
    const char* out;    // the result's type
    const char* message;
  } cases[] = {
      {"fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>", "4xf32", "4xf32",
       "'stablehlo.fft' with FFT takes and returns one complex type (complex<f32> or "
       "complex<f64>): (tensor<4xf32>) -> tensor<4xf32>"},
      {"fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 4>",
       "4xcomplex<f32>", "4xcomplex<f64>",
       "'stablehlo.fft' with IFFT takes and returns one complex type"},
      {"fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 8>",
       "8xcomplex<f32>", "5xcomplex<f32>",
       "'stablehlo.fft' with RFFT takes f32 or f64 and returns complex of that precision: "
       "(tensor<8xcomplex<f32>>) -> tensor<5xcomplex<f32>>"},
      {"fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 8>",
       "5xcomplex<f32>", "8xf64",
       "'stablehlo.fft' with IRFFT takes complex<f32> or complex<f64> and returns its part "
       "type"},
      {"fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 4>", "4xf16",
       "3xcomplex<f32>", "with RFFT takes f32 or f64"},
      {"fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 2, 2, 2, 2>",
       "2x2x2x2xcomplex<f32>", "2x2x2x2xcomplex<f32>",
       "'stablehlo.fft' takes 1 to 3 fft_length values, at most the operand's rank 4, "
       "got 4"},
      {"fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4, 4>",
       "4xcomplex<f32>", "4xcomplex<f32>",
       "takes 1 to 3 fft_length values, at most the operand's rank 1, got 2"},
      {"fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64>",
       "4xcomplex<f32>", "4xcomplex<f32>",
       "takes 1 to 3 fft_length values, at most the operand's rank 1, got 0"},
      {"fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 8>",
       "2x4xcomplex<f32>", "2x4xcomplex<f32>",
       "'stablehlo.fft' transforms the last dims of its operand, which must be "
       "fft_length [8]: (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>"},
      {"fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 3, 8>",
       "3x5xcomplex<f32>", "3x7xf32",
       "transforms the last dims of its result, which must be fft_length [3, 8]"},
      {"fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 8>", "8xf32",
       "8xcomplex<f32>",
       "'stablehlo.fft' with RFFT needs its result's part type to be tensor<5xf32>: "
       "(tensor<8xf32>) -> tensor<8xcomplex<f32>>"},
      {"fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 8>",
       "4xcomplex<f32>", "8xf32",
       "'stablehlo.fft' with IRFFT needs its operand's part type to be tensor<5xf32>"},
      {"fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>",
       "4xcomplex<f32>", "5xcomplex<f32>",
       "with FFT needs its result's part type to be tensor<4xf32>"},
      {"fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4099>",
       "4099xcomplex<f32>", "4099xcomplex<f32>",
       "'stablehlo.fft' fft_length values are 0 to 2048, or longer ones whose factors are "
       "(each transformed dim is matrix products), got [4099]"},

      {"fft_type = #stablehlo<fft_type DCT>, fft_length = array<i64: 4>", "4xcomplex<f32>",
       "4xcomplex<f32>",
       "'fft_type' must be #stablehlo<fft_type FFT>, IFFT, RFFT or IRFFT, got "
       "'#stablehlo<fft_type DCT>'"},
      {"fft_length = array<i64: 4>", "4xcomplex<f32>", "4xcomplex<f32>",
       "'stablehlo.fft' requires 'fft_type' (FFT, IFFT, RFFT or IRFFT)"},
      {"fft_type = #stablehlo<fft_type FFT>", "4xcomplex<f32>", "4xcomplex<f32>",
       "'stablehlo.fft' requires the 'fft_length' attribute"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "func.func @f(%%a: tensor<%s>) -> tensor<%s> {\n"
             "  %%0 = \"stablehlo.fft\"(%%a) {%s} : (tensor<%s>) -> tensor<%s>\n"
             "  return %%0 : tensor<%s>\n}\n",
             cases[i].in, cases[i].out, cases[i].attrs, cases[i].in, cases[i].out,
             cases[i].out);
    expect_import_error(source, cases[i].message);
  }
  expect_import_error("func.func @f(%a: tensor<4xcomplex<f32>>) {\n"
                      "  %0:2 = \"stablehlo.fft\"(%a) {fft_type = #stablehlo<fft_type FFT>, "
                      "fft_length = array<i64: 4>} : (tensor<4xcomplex<f32>>) -> "
                      "(tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>)\n"
                      "  return\n}\n",
                      "'stablehlo.fft' takes 1 operand and has 1 result, got 1 and 2");
  expect_parse_error("func.func @f(%a: tensor<4xcomplex<f32>>) {\n"
                     "  %0 = stablehlo.fft %a, type = 1, length = [4] : "
                     "(tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>\n"
                     "  return\n}\n",
                     "a fft_type name after 'type ='");
  // cholesky's pretty form takes lower = true or false.
  expect_parse_error("func.func @f(%a: tensor<2x2xf32>) {\n"
                     "  %0 = stablehlo.cholesky %a, lower = 1 : tensor<2x2xf32>\n"
                     "  return\n}\n",
                     "expected true or false after 'lower =', found '1'");
  // The pretty and generic forms import alike; empty transforms (a zero
  // fft_length, an empty batch) import as zeros.
  expect_same("func.func @f(%a: tensor<2x8xf32>) -> tensor<2x5xcomplex<f32>> {\n"
              "  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<2x8xf32>) -> "
              "tensor<2x5xcomplex<f32>>\n"
              "  return %0 : tensor<2x5xcomplex<f32>>\n}\n",
              "func.func @f(%a: tensor<2x8xf32>) -> tensor<2x5xcomplex<f32>> {\n"
              "  %0 = \"stablehlo.fft\"(%a) {fft_type = #stablehlo<fft_type RFFT>, "
              "fft_length = dense<8> : tensor<1xi64>} : (tensor<2x8xf32>) -> "
              "tensor<2x5xcomplex<f32>>\n"
              "  return %0 : tensor<2x5xcomplex<f32>>\n}\n",
              false);
  grtc_tmodule_destroy(import_ok(
      "func.func @f(%a: tensor<2x0xf32>) -> tensor<2x0xcomplex<f32>> {\n"
      "  %0 = stablehlo.fft %a, type = RFFT, length = [0] : (tensor<2x0xf32>) -> "
      "tensor<2x0xcomplex<f32>>\n"
      "  return %0 : tensor<2x0xcomplex<f32>>\n}\n"));
  grtc_tmodule_destroy(import_ok(
      "func.func @f(%a: tensor<0x4xcomplex<f64>>) -> tensor<0x4xcomplex<f64>> {\n"
      "  %0 = stablehlo.fft %a, type = IFFT, length = [4] : (tensor<0x4xcomplex<f64>>) -> "
      "tensor<0x4xcomplex<f64>>\n"
      "  return %0 : tensor<0x4xcomplex<f64>>\n}\n"));
}

// rng: each bad operand, result and distribution is named.
static void test_rng_errors(void** state) {
  (void)state;
  static const struct {
    const char* a;       // a's type
    const char* b;       // b's type
    const char* shape;   // the shape operand's type
    const char* result;  // the result's type
    const char* attr;    // the attribute dictionary's contents
    const char* message;
  } cases[] = {
      {"f32", "f32", "2xi64", "3x4xf32", "",
       "'stablehlo.rng' requires 'rng_distribution' (UNIFORM or NORMAL)"},
      {"f32", "f32", "2xi64", "3x4xf32", "rng_distribution = #stablehlo<rng_distribution POISSON>",
       "'rng_distribution' must be #stablehlo<rng_distribution UNIFORM> or NORMAL, got "
       "'#stablehlo<rng_distribution POISSON>'"},
      {"i32", "i32", "2xi64", "3x4xi32", "rng_distribution = #stablehlo<rng_distribution NORMAL>",
       "'stablehlo.rng' with NORMAL returns floats, got tensor<3x4xi32>"},
      {"f32", "f64", "2xi64", "3x4xf32", "rng_distribution = #stablehlo<rng_distribution UNIFORM>",
       "'stablehlo.rng' takes a and b as rank-0 tensors of the result's element type "
       "(tensor<3x4xf32>), got tensor<f32> and tensor<f64>"},
      {"1xf32", "f32", "2xi64", "3x4xf32", "rng_distribution = #stablehlo<rng_distribution UNIFORM>",
       "got tensor<1xf32> and tensor<f32>"},
      {"f32", "f32", "3xi64", "3x4xf32", "rng_distribution = #stablehlo<rng_distribution UNIFORM>",
       "'stablehlo.rng' takes the shape as a rank-1 integer tensor of the result's rank 2 "
       "(result tensor<3x4xf32>), got tensor<3xi64>"},
      {"f32", "f32", "2xf32", "3x4xf32", "rng_distribution = #stablehlo<rng_distribution UNIFORM>",
       "takes the shape as a rank-1 integer tensor of the result's rank 2 (result "
       "tensor<3x4xf32>), got tensor<2xf32>"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "func.func @f(%%a: tensor<%s>, %%b: tensor<%s>, %%s: tensor<%s>) {\n"
             "  %%0 = \"stablehlo.rng\"(%%a, %%b, %%s) {%s} : (tensor<%s>, tensor<%s>, "
             "tensor<%s>) -> tensor<%s>\n"
             "  return\n}\n",
             cases[i].a, cases[i].b, cases[i].shape, cases[i].attr, cases[i].a, cases[i].b,
             cases[i].shape, cases[i].result);
    expect_import_error(source, cases[i].message);
  }
  // A constant shape operand must be the result's shape.
  expect_import_error("func.func @f(%a: tensor<f32>, %b: tensor<f32>) {\n"
                      "  %s = stablehlo.constant dense<[3, 5]> : tensor<2xi64>\n"
                      "  %0 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : "
                      "(tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>\n"
                      "  return\n}\n",
                      "'stablehlo.rng' has the shape operand's dim 1 = 5, but its result "
                      "is tensor<3x4xf32>");
  expect_import_error("func.func @f(%a: tensor<complex<f32>>, %s: tensor<1xi64>) {\n"
                      "  %0 = stablehlo.rng %a, %a, %s, distribution = UNIFORM : "
                      "(tensor<complex<f32>>, tensor<complex<f32>>, tensor<1xi64>) -> "
                      "tensor<4xcomplex<f32>>\n"
                      "  return\n}\n",
                      "'stablehlo.rng' on complex types is not supported");
  expect_parse_error("func.func @f(%a: tensor<f32>, %s: tensor<1xi64>) {\n"
                     "  %0 = stablehlo.rng %a, %a, %s, distribution = 2 : "
                     "(tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>\n"
                     "  return\n}\n",
                     "a rng_distribution name after 'distribution ='");
  // The pretty and generic forms import alike.
  expect_same("func.func @f(%a: tensor<f32>, %b: tensor<f32>, %s: tensor<2xi64>) -> "
              "tensor<3x4xf32> {\n"
              "  %0 = stablehlo.rng %a, %b, %s, distribution = NORMAL : (tensor<f32>, "
              "tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>\n"
              "  return %0 : tensor<3x4xf32>\n}\n",
              "func.func @f(%a: tensor<f32>, %b: tensor<f32>, %s: tensor<2xi64>) -> "
              "tensor<3x4xf32> {\n"
              "  %0 = \"stablehlo.rng\"(%a, %b, %s) {rng_distribution = "
              "#stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, "
              "tensor<2xi64>) -> tensor<3x4xf32>\n"
              "  return %0 : tensor<3x4xf32>\n}\n",
              false);
}

// rng_bit_generator: each bad state, result and algorithm is named.
static void test_rng_bit_generator_errors(void** state) {
  (void)state;
  static const struct {
    const char* state;      // the state's type
    const char* new_state;  // the first result's type
    const char* output;     // the second result's type
    const char* algorithm;  // the attribute, generic form
    const char* message;
  } cases[] = {
      {"3xui64", "3xui64", "4xui32", "#stablehlo<rng_algorithm THREE_FRY>",
       "'stablehlo.rng_bit_generator' with THREE_FRY takes a state of two 64-bit integers "
       "(tensor<2xui64>) or four 32-bit words (tensor<4xui32>), got tensor<3xui64>"},
      {"3xui32", "3xui32", "4xui32", "#stablehlo<rng_algorithm THREE_FRY>",
       "takes a state of two 64-bit integers (tensor<2xui64>) or four 32-bit words "
       "(tensor<4xui32>), got tensor<3xui32>"},
      {"4xi32", "4xui32", "4xui32", "#stablehlo<rng_algorithm PHILOX>",
       "'stablehlo.rng_bit_generator' returns the state's type tensor<4xi32> as its new "
       "state, not tensor<4xui32>"},
      {"2xui64", "2xi64", "4xui32", "#stablehlo<rng_algorithm THREE_FRY>",
       "'stablehlo.rng_bit_generator' returns the state's type tensor<2xui64> as its new "
       "state, not tensor<2xi64>"},
      {"2xui64", "2xui64", "4xf16", "#stablehlo<rng_algorithm THREE_FRY>",
       "'stablehlo.rng_bit_generator' generates 32- or 64-bit integers or floats (i32, ui32, "
       "f32, i64, ui64, f64), got tensor<4xf16>"},
      {"2xui64", "2xui64", "4xui16", "#stablehlo<rng_algorithm PHILOX>",
       "generates 32- or 64-bit integers or floats (i32, ui32, f32, i64, ui64, f64), got "
       "tensor<4xui16>"},
      {"2xui64", "2xui64", "4xbf16", "#stablehlo<rng_algorithm DEFAULT>",
       "generates 32- or 64-bit integers or floats (i32, ui32, f32, i64, ui64, f64), got "
       "tensor<4xbf16>"},
      {"2xui64", "2xui64", "4xui32", "#stablehlo<rng_algorithm MERSENNE>",
       "'rng_algorithm' must be #stablehlo<rng_algorithm DEFAULT>, THREE_FRY or PHILOX, "
       "got '#stablehlo<rng_algorithm MERSENNE>'"},
      {"2xui64", "2xui64", "4xui32", NULL,
       "'stablehlo.rng_bit_generator' requires 'rng_algorithm' (DEFAULT, THREE_FRY or "
       "PHILOX)"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char attr[128] = "";
    if (cases[i].algorithm) {
      snprintf(attr, sizeof(attr), " {rng_algorithm = %s}", cases[i].algorithm);
    }
    char source[1024];
    snprintf(source, sizeof(source),
             "func.func @f(%%s: tensor<%s>) {\n"
             "  %%0:2 = \"stablehlo.rng_bit_generator\"(%%s)%s : (tensor<%s>) -> "
             "(tensor<%s>, tensor<%s>)\n"
             "  return\n}\n",
             cases[i].state, attr, cases[i].state, cases[i].new_state, cases[i].output);
    expect_import_error(source, cases[i].message);
  }
  // PHILOX (and DEFAULT, XLA's PHILOX) takes two or three state elements.
  static const char* const philox[][2] = {
      {"PHILOX", "4xui64"},
      {"DEFAULT", "1xui64"},
  };
  for (size_t i = 0; i < 2; ++i) {
    char source[512], message[256];
    snprintf(source, sizeof(source),
             "func.func @f(%%s: tensor<%s>) {\n"
             "  %%0:2 = stablehlo.rng_bit_generator %%s, algorithm = %s : (tensor<%s>) "
             "-> (tensor<%s>, tensor<4xui32>)\n"
             "  return\n}\n", philox[i][1], philox[i][0], philox[i][1], philox[i][1]);
    snprintf(message, sizeof(message),
             "'stablehlo.rng_bit_generator' with PHILOX or DEFAULT takes a state of two or "
             "three 64-bit integers (tensor<2xui64> or tensor<3xui64>) or four 32-bit words "
             "(tensor<4xui32>), got tensor<%s>",
             philox[i][1]);
    expect_import_error(source, message);
  }
  expect_parse_error("func.func @f(%s: tensor<2xui64>) {\n"
                     "  %0:2 = stablehlo.rng_bit_generator %s, algorithm = 3 : "
                     "(tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)\n"
                     "  return\n}\n",
                     "a rng_algorithm name after 'algorithm ='");
  // The pretty and generic forms import alike.
  expect_same("func.func @f(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui32>) {\n"
              "  %0, %1 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : "
              "(tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui32>)\n"
              "  return %0, %1 : tensor<2xui64>, tensor<3xui32>\n}\n",
              "func.func @f(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui32>) {\n"
              "  %0:2 = \"stablehlo.rng_bit_generator\"(%s) {rng_algorithm = "
              "#stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> "
              "(tensor<2xui64>, tensor<3xui32>)\n"
              "  return %0#0, %0#1 : tensor<2xui64>, tensor<3xui32>\n}\n",
              false);
}

// func.call in a reduce body is inlined: recursion and a callee that does
// not fit are named.
static void test_inline_call_errors(void** state) {
  (void)state;
  static const char* const reduce =
      "func.func @f(%%a: tensor<4xf32>) {\n"
      "  %%z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %%0 = stablehlo.reduce(%%a init: %%z) across dimensions = [0] : "
      "(tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
      "   reducer(%%p: tensor<f32>, %%q: tensor<f32>) {\n"
      "    %%s = func.call @%s(%%p, %%q) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "    stablehlo.return %%s : tensor<f32>\n"
      "  }\n"
      "  return\n}\n%s";
  static const struct {
    const char* callee;
    const char* functions;
    const char* message;
  } cases[] = {
      {"self",
       "func.func private @self(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {\n"
       "  %0 = func.call @self(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
       "  return %0 : tensor<f32>\n}\n",
       "calls from a reduce, reduce_window, scatter or sort body are inlined, and '@self' "
       "nests them deeper than 16 (recursion?)"},
      {"one",
       "func.func private @one(%a: tensor<f32>) -> tensor<f32> {\n"
       "  return %a : tensor<f32>\n}\n",
       "'@one' called from a per-element body must be one block taking the call's 2 "
       "operands"},
      {"missing", "", "call to undefined function '@missing'"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[2048];
    snprintf(source, sizeof(source), reduce, cases[i].callee, cases[i].functions);
    expect_import_error(source, cases[i].message);
  }
}

static void test_tuple_errors(void** state) {
  (void)state;
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  %0 = stablehlo.tuple %a : tuple<tensor<4xf32>>\n"
      "  %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<4xf32>>) -> tensor<4xf32>\n"
      "  return\n}\n",
      "t.mlir:3:8: error: 'stablehlo.get_tuple_element' index 1 is not below the tuple's 1 "
      "elements");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  %0 = stablehlo.tuple %a : tuple<tensor<4xf32>>\n"
      "  %1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<4xf32>>) -> tensor<4xi32>\n"
      "  return\n}\n",
      "t.mlir:3:8: error: 'stablehlo.get_tuple_element' element 0 is tensor<4xf32>, not "
      "tensor<4xi32>");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  %0 = \"stablehlo.tuple\"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> "
      "tuple<tensor<4xf32>>\n"
      "  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.tuple' of 2 values must give a tuple of 2 elements");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  %1 = \"stablehlo.get_tuple_element\"(%a) {index = 0 : i32} : (tensor<4xf32>) -> "
      "tensor<4xf32>\n"
      "  return\n}\n",
      "t.mlir:2:8: error: 'stablehlo.get_tuple_element' takes the result of a "
      "stablehlo.tuple");
  expect_parse_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  %0 = stablehlo.tuple %a : tuple<tensor<4xf32>>\n"
      "  %1 = stablehlo.get_tuple_element %0 : (tuple<tensor<4xf32>>) -> tensor<4xf32>\n"
      "  return\n}\n",
      "expected '[' before the index");
}

static void test_check_op_errors(void** state) {
  (void)state;
  expect_import_error(
      "func.func @t(%a: tensor<2xf32>) {\n"
      "  %0 = stablehlo.custom_call @check.eq(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
      "  return\n"
      "}\n",
      "custom call 'check.eq' takes (actual, expected) and returns a tensor<i1>; got 2 "
      "operands and 1 results");
  expect_import_error(
      "func.func @t(%a: tensor<2xf32>) {\n"
      "  check.expect_almost_eq %a, %a {tolerance = 0.1, atol = 0.2} : tensor<2xf32>\n"
      "  return\n"
      "}\n",
      "give either 'tolerance' or 'atol'/'rtol', not both");
  expect_import_error(
      "func.func @t(%a: tensor<2xf32>) {\n"
      "  check.expect_almost_eq %a, %a, tolerance = -1.0 : tensor<2xf32>\n"
      "  return\n"
      "}\n",
      "'tolerance' must be >= 0, got -1");
  expect_import_error(
      "func.func @t(%a: tensor<2xf32>) {\n"
      "  check.expect_close %a, %a, max_ulp_difference = 1, min_ulp_difference = 2 : tensor<2xf32>, tensor<2xf32>\n"
      "  return\n"
      "}\n",
      "expected 0 <= min_ulp_difference <= max_ulp_difference, got 2 and 1");
}

static void test_arith_and_extract(void** state) {
  (void)state;
  expect_same(
      "func.func @f(%t: tensor<4x4xf32>, %i: index, %x: f32, %n: i32) -> (f32, i1, i64) {\n"
      "  %c = arith.constant 2.5 : f32\n"
      "  %b = arith.constant true\n"
      "  %0 = arith.addf %x, %c : f32\n"
      "  %1 = arith.cmpf olt, %0, %x : f32\n"
      "  %2 = arith.cmpi sge, %n, %n : i32\n"
      "  %3 = arith.select %1, %0, %x : f32\n"
      "  %4 = arith.sitofp %n : i32 to f32\n"
      "  %5 = arith.index_cast %n : i32 to index\n"
      "  %6 = tensor.extract %t[%i, %5] : tensor<4x4xf32>\n"
      "  %7 = arith.extui %b : i1 to i64\n"
      "  %8 = arith.mulf %x, %x fastmath<nnan, contract> : f32\n"
      "  %9 = arith.addi %n, %n overflow<nsw> : i32\n"
      "  %10 = arith.cmpf oge, %x, %x fastmath<fast> : f32\n"
      "  return %6, %2, %7 : f32, i1, i64\n"
      "}\n",
      "func.func @f(%t: tensor<4x4xf32>, %i: index, %x: f32, %n: i32) -> (f32, i1, i64) {\n"
      "  %c = \"arith.constant\"() {value = 2.5 : f32} : () -> f32\n"
      "  %b = \"arith.constant\"() {value = true} : () -> i1\n"
      "  %0 = \"arith.addf\"(%x, %c) : (f32, f32) -> f32\n"
      "  %1 = \"arith.cmpf\"(%0, %x) {predicate = 4 : i64} : (f32, f32) -> i1\n"
      "  %2 = \"arith.cmpi\"(%n, %n) {predicate = 5 : i64} : (i32, i32) -> i1\n"
      "  %3 = \"arith.select\"(%1, %0, %x) : (i1, f32, f32) -> f32\n"
      "  %4 = \"arith.sitofp\"(%n) : (i32) -> f32\n"
      "  %5 = \"arith.index_cast\"(%n) : (i32) -> index\n"
      "  %6 = \"tensor.extract\"(%t, %i, %5) : (tensor<4x4xf32>, index, index) -> f32\n"
      "  %7 = \"arith.extui\"(%b) : (i1) -> i64\n"
      "  %8 = \"arith.mulf\"(%x, %x) {fastmath = #arith.fastmath<nnan, contract>} : (f32, f32) -> f32\n"
      "  %9 = \"arith.addi\"(%n, %n) {overflowFlags = #arith.overflow<nsw>} : (i32, i32) -> i32\n"
      "  %10 = \"arith.cmpf\"(%x, %x) {predicate = 3 : i64, fastmath = #arith.fastmath<fast>} : (f32, f32) -> i1\n"
      "  \"func.return\"(%6, %2, %7) : (f32, i1, i64) -> ()\n"
      "}\n",
      true);
  grtc_tmodule_t* module = import_ok(
      "func.func @f(%t: tensor<4x4xf32>, %i: index, %x: f32, %n: i32) -> f32 {\n"
      "  %c = arith.constant 2.5 : f32\n"
      "  %1 = arith.cmpf olt, %c, %x : f32\n"
      "  %2 = arith.cmpi ult, %n, %n : i32\n"
      "  %6 = tensor.extract %t[%i, %i] : tensor<4x4xf32>\n"
      "  return %6 : f32\n"
      "}\n");
  grtc_top_t* constant = nth_op(module, 0);
  assert_int_equal(constant->results[0].type.rank, 0);
  assert_int_equal(constant->results[0].type.elem, GRTC_ELEM_F32);
  float value;
  memcpy(&value, constant->attrs.constant.data, 4);
  assert_true(value == 2.5f);
  assert_int_equal(nth_op(module, 1)->attrs.compare_direction, GRTC_CMP_LT);
  assert_int_equal(nth_op(module, 1)->attrs.compare_type, GRTC_CMP_TYPE_FLOAT);
  assert_int_equal(nth_op(module, 2)->attrs.compare_direction, GRTC_CMP_LT);
  assert_int_equal(nth_op(module, 2)->attrs.compare_type, GRTC_CMP_TYPE_UNSIGNED);
  grtc_top_t* slice = nth_op(module, 3);
  assert_int_equal(slice->kind, GRTC_TOP_DYNAMIC_SLICE);
  EXPECT_I64S(slice->attrs.sizes, 1, 1);
  assert_int_equal(slice->operands[1]->type.elem, GRTC_ELEM_I64);  // index
  assert_int_equal(slice->operands[1]->type.rank, 0);
  grtc_top_t* reshape = nth_op(module, 4);
  assert_int_equal(reshape->kind, GRTC_TOP_RESHAPE);
  assert_int_equal(reshape->results[0].type.rank, 0);
  assert_ptr_equal(module->first_func->body->last->operands[0], &reshape->results[0]);
  grtc_tmodule_destroy(module);
}

// Ops JAX prints generically: their attributes arrive as opaque text.
static void test_generic_only_ops(void** state) {
  (void)state;
  grtc_tmodule_t* module = import_ok(
      "func.func @f(%x: tensor<5x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xf32>, %p: tensor<i1>, %k: tensor<i32>) -> tensor<2x3xf32> {\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %g = \"stablehlo.gather\"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 3>} : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>\n"
      "  %s = \"stablehlo.scatter\"(%x, %i, %u) ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    stablehlo.return %b : tensor<f32>\n"
      "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true} : (tensor<5x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<5x3xf32>\n"
      "  %o = \"stablehlo.sort\"(%x) ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %lt = stablehlo.compare  LT, %a, %b,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %lt : tensor<i1>\n"
      "  }) {dimension = 0 : i64, is_stable = true} : (tensor<5x3xf32>) -> tensor<5x3xf32>\n"
      "  %w = \"stablehlo.reduce_window\"(%x, %z) ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %m = stablehlo.maximum %a, %b : tensor<f32>\n"
      "    stablehlo.return %m : tensor<f32>\n"
      "  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<5x3xf32>, tensor<f32>) -> tensor<5x3xf32>\n"
      "  %r = \"stablehlo.if\"(%p) ({\n"
      "    stablehlo.return %u : tensor<2x3xf32>\n"
      "  }, {\n"
      "    stablehlo.return %g : tensor<2x3xf32>\n"
      "  }) : (tensor<i1>) -> tensor<2x3xf32>\n"
      "  %q = \"stablehlo.case\"(%k) ({\n"
      "    stablehlo.return %r : tensor<2x3xf32>\n"
      "  }, {\n"
      "    stablehlo.return %u : tensor<2x3xf32>\n"
      "  }) : (tensor<i32>) -> tensor<2x3xf32>\n"
      "  %o2 = \"stablehlo.sort\"(%x) ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %lt = stablehlo.compare  GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %lt : tensor<i1>\n"
      "  }) : (tensor<5x3xf32>) -> tensor<5x3xf32>\n"
      "  return %q : tensor<2x3xf32>\n"
      "}\n"
      "\n");
  const grtc_top_t* gather = nth_op(module, 1);
  assert_int_equal(gather->kind, GRTC_TOP_GATHER);
  EXPECT_I64S(gather->attrs.gather.offset_dims, 1);
  EXPECT_I64S(gather->attrs.gather.collapsed_slice_dims, 0);
  EXPECT_I64S(gather->attrs.gather.start_index_map, 0);
  assert_int_equal(gather->attrs.gather.operand_batching_dims.count, 0);
  assert_int_equal(gather->attrs.gather.index_vector_dim, 1);
  EXPECT_I64S(gather->attrs.gather.slice_sizes, 1, 3);
  assert_true(gather->attrs.gather.indices_are_sorted);
  const grtc_top_t* scatter = nth_op(module, 2);
  EXPECT_I64S(scatter->attrs.scatter.update_window_dims, 1);
  EXPECT_I64S(scatter->attrs.scatter.inserted_window_dims, 0);
  EXPECT_I64S(scatter->attrs.scatter.scatter_dims_to_operand_dims, 0);
  assert_int_equal(scatter->attrs.scatter.index_vector_dim, 1);
  assert_true(scatter->attrs.scatter.unique_indices);
  assert_false(scatter->attrs.scatter.indices_are_sorted);
  assert_int_equal(scatter->region_count, 1);
  const grtc_top_t* sort = nth_op(module, 3);
  assert_int_equal(sort->attrs.dim, 0);
  assert_true(sort->attrs.is_stable);
  assert_int_equal(sort->regions[0]->first->attrs.compare_type, GRTC_CMP_TYPE_TOTALORDER);
  const grtc_top_t* window = nth_op(module, 4);
  EXPECT_I64S(window->attrs.window.dimensions, 2, 1);
  EXPECT_I64S(window->attrs.window.strides, 1, 1);
  EXPECT_I64S(window->attrs.window.base_dilations, 1, 1);
  EXPECT_I64S(window->attrs.window.window_dilations, 1, 1);
  EXPECT_I64S(window->attrs.window.padding_low, 1, 0);
  EXPECT_I64S(window->attrs.window.padding_high, 0, 0);
  assert_int_equal(nth_op(module, 5)->kind, GRTC_TOP_IF);
  assert_int_equal(nth_op(module, 5)->region_count, 2);
  assert_int_equal(nth_op(module, 6)->kind, GRTC_TOP_CASE);
  assert_int_equal(nth_op(module, 6)->regions[1]->first->kind, GRTC_TOP_YIELD);
  // An absent sort dimension is the last one.
  assert_int_equal(nth_op(module, 7)->attrs.dim, 1);
  assert_false(nth_op(module, 7)->attrs.is_stable);
  grtc_tmodule_destroy(module);
}

static const char kJaxMlp[] =
    "#loc1 = loc(\"x\")\n"
    "#loc2 = loc(\"w1\")\n"
    "module @jit_mlp attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
    "  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.layout_mode = \"default\", mhlo.sharding = \"{replicated}\"} loc(\"x\"), %arg1: tensor<16x32xf32> {mhlo.layout_mode = \"default\"} loc(#loc2), %arg2: tensor<32xf32> {mhlo.layout_mode = \"default\"} loc(unknown), %arg3: tensor<32x4xf32> {jax.buffer_donor = true, mhlo.layout_mode = \"default\"}) -> (tensor<8x4xf32> {jax.result_info = \"\", mhlo.layout_mode = \"default\"}, tensor<8xf32> {jax.result_info = \"[1]\"}) {\n"
    "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> loc(#loc5)\n"
    "    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32> loc(#loc6)\n"
    "    %2 = stablehlo.add %0, %1 : tensor<8x32xf32> loc(#loc6)\n"
    "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc)\n"
    "    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32> loc(#loc7)\n"
    "    %4 = stablehlo.maximum %2, %3 : tensor<8x32xf32> loc(#loc7)\n"
    "    %5 = call @dense(%4, %arg3) : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32> loc(#loc8)\n"
    "    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32> loc(#loc)\n"
    "    %6 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32> loc(#loc9)\n"
    "    return %5, %6 : tensor<8x4xf32>, tensor<8xf32> loc(#loc)\n"
    "  } loc(#loc)\n"
    "  func.func private @dense(%arg0: tensor<8x32xf32> loc(\"jit(mlp)/dense\"(#loc3)), %arg1: tensor<32x4xf32>) -> tensor<8x4xf32> {\n"
    "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32> loc(#loc10)\n"
    "    %1 = stablehlo.tanh %0 : tensor<8x4xf32> loc(#loc10)\n"
    "    return %1 : tensor<8x4xf32> loc(#loc)\n"
    "  } loc(#loc)\n"
    "} loc(#loc)\n"
    "#loc = loc(unknown)\n"
    "#loc3 = loc(\"/tmp/mlp.py\":12:0)\n"
    "#loc4 = loc(\"/tmp/mlp.py\":13:0)\n"
    "#loc5 = loc(\"jit(mlp)/jit(main)/dot_general\"(#loc3))\n"
    "#loc6 = loc(\"jit(mlp)/jit(main)/add\"(#loc3))\n"
    "#loc7 = loc(\"jit(mlp)/jit(main)/max\"(#loc4))\n"
    "#loc8 = loc(\"jit(mlp)/jit(main)/pjit[name=dense]\"(#loc4))\n"
    "#loc9 = loc(\"jit(mlp)/jit(main)/reduce_max\"(#loc4))\n"
    "#loc10 = loc(callsite(#loc5 at #loc8))\n";

static void test_jax_export(void** state) {
  (void)state;
  grtc_module_t* parsed = parse_ok(kJaxMlp);
  assert_true(grtc_stablehlo_is_input(parsed));
  grtc_module_destroy(parsed);
  grtc_tmodule_t* module = import_ok(kJaxMlp);
  assert_string_equal(module->name.data, "jit_mlp");
  grtc_tfunc_t* main_func = module->first_func;
  assert_string_equal(main_func->name.data, "main");
  assert_true(main_func->is_public);
  assert_int_equal(main_func->body->arg_count, 4);
  assert_int_equal(main_func->result_count, 2);
  assert_false(main_func->next->is_public);
  grtc_top_t* dot = nth_op(module, 0);
  assert_int_equal(dot->kind, GRTC_TOP_DOT_GENERAL);
  EXPECT_I64S(dot->attrs.dot.lhs_contracting, 1);
  grt_string_view_t file;
  uint32_t line = 0, column = 0;
  assert_true(grtc_location_file_position(dot->location, &file, &line, &column));
  assert_int_equal(line, 12);
  grtc_top_t* negative_infinity = nth_op(module, 7);
  assert_int_equal(negative_infinity->kind, GRTC_TOP_CONSTANT);
  uint32_t bits;
  memcpy(&bits, negative_infinity->attrs.constant.data, 4);
  assert_int_equal(bits, 0xFF800000u);
  grtc_tmodule_destroy(module);
}

static void test_is_input(void** state) {
  (void)state;
  static const struct {
    const char* source;
    bool expected;
  } cases[] = {
      {"func.func @f() { return }", true},
      {"module { func.func @f() { return } }", true},
      {"module @m attributes {a = 1} { func.func private @f() { return } }", true},
      {"vm.module @m { }", false},
      {"module { vm.module @m { } }", false},
      {"module { }", false},
  };
  static const grtc_dialect_syntax_t* const none[] = {NULL};
  (void)none;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grtc_module_t* module = NULL;
    // vm.module has no pretty form registered here; use its generic form.
    char source[256];
    if (strstr(cases[i].source, "vm.module")) {
      snprintf(source, sizeof(source), "%s",
               strstr(cases[i].source, "module {")
                   ? "module { \"vm.module\"() ({ }) {sym_name = \"m\"} : () -> () }"
                   : "\"vm.module\"() ({ }) {sym_name = \"m\"} : () -> ()");
    } else {
      snprintf(source, sizeof(source), "%s", cases[i].source);
    }
    module = parse_ok(source);
    assert_int_equal(grtc_stablehlo_is_input(module), cases[i].expected);
    grtc_module_destroy(module);
  }
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

static void test_unsupported_op(void** state) {
  (void)state;
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = \"stablehlo.collective_permute\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n",
      "t.mlir:2:8: error: 'stablehlo.collective_permute' is not supported");
  // With a loc(...), the loc's file position names it.
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = \"stablehlo.collective_permute\"(%a) : (tensor<4xf32>) -> tensor<4xf32> loc(\"model.py\":7:3)\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n",
      "model.py:7:3: error: 'stablehlo.collective_permute' is not supported");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  stablehlo.custom_call @foo(%a) : (tensor<4xf32>) -> ()\n"
      "  return\n"
      "}\n",
      "t.mlir:2:3: error: 'stablehlo.custom_call' to 'foo' is not supported");
  // JAX's QR custom call: reflectors [..., m, n] (n <= m), taus [..., k]
  // (k <= n), one result of a's type.
  expect_import_error(
      "func.func @f(%a: tensor<2x3xf32>, %t: tensor<2xf32>) -> tensor<2x3xf32> {\n"
      "  %0 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%a, %t) : "
      "(tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>\n"
      "  return %0 : tensor<2x3xf32>\n"
      "}\n",
      "t.mlir:2:8: error: 'stablehlo.custom_call @ProductOfElementaryHouseholderReflectors' "
      "takes real float reflectors a [..., m, n] (n <= m) and taus [..., k] (k <= n) of the "
      "same element type, got tensor<2x3xf32> and tensor<2xf32>");
  expect_import_error(
      "func.func @f(%a: tensor<4x3xf32>, %t: tensor<4xf32>) -> tensor<4x3xf32> {\n"
      "  %0 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%a, %t) : "
      "(tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>\n"
      "  return %0 : tensor<4x3xf32>\n"
      "}\n",
      "got tensor<4x3xf32> and tensor<4xf32>");
  expect_import_error(
      "func.func @f(%a: tensor<4x3xf32>, %t: tensor<2xf32>) -> tensor<3x3xf32> {\n"
      "  %0 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%a, %t) : "
      "(tensor<4x3xf32>, tensor<2xf32>) -> tensor<3x3xf32>\n"
      "  return %0 : tensor<3x3xf32>\n"
      "}\n",
      "'stablehlo.custom_call @ProductOfElementaryHouseholderReflectors' returns a's type "
      "tensor<4x3xf32>");
  expect_import_error(
      "func.func @f(%a: tensor<4x3xf32>) -> tensor<4x3xf32> {\n"
      "  %0 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%a) : "
      "(tensor<4x3xf32>) -> tensor<4x3xf32>\n"
      "  return %0 : tensor<4x3xf32>\n"
      "}\n",
      "'stablehlo.custom_call @ProductOfElementaryHouseholderReflectors' takes 2 operands, "
      "got 1");
  expect_import_error(
      "func.func @f(%a: tensor<257x1xf32>, %t: tensor<1xf32>) -> tensor<257x1xf32> {\n"
      "  %0 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%a, %t) : "
      "(tensor<257x1xf32>, tensor<1xf32>) -> tensor<257x1xf32>\n"
      "  return %0 : tensor<257x1xf32>\n"
      "}\n",
      "on tensor<257x1xf32>: matrices of more than 256 rows are not supported yet");
  expect_import_error(
      "func.func @f(%a: i32) -> i32 {\n"
      "  %0 = arith.divui %a, %a : i32\n"
      "  return %0 : i32\n"
      "}\n",
      "t.mlir:2:8: error: 'arith.divui' is not supported");
  expect_import_error(
      "func.func @f(%a: i32) -> f32 {\n"
      "  %0 = arith.uitofp %a : i32 to f32\n"
      "  return %0 : f32\n"
      "}\n",
      "t.mlir:2:8: error: 'arith.uitofp' of i32 to f32 is not supported");
  static const char* const casts[][2] = {
      {"%0 = arith.extui %a : i32 to i64", "'arith.extui' of i32 to i64 is not supported"},
      {"%0 = arith.index_castui %a : i32 to index",
       "'arith.index_castui' of i32 to i64 is not supported"},
      {"%b = arith.trunci %a : i32 to i1\n  %0 = arith.extsi %b : i1 to i64",
       "t.mlir:3:8: error: 'arith.extsi' of i1 to i64 is not supported"},
      {"%b = arith.trunci %a : i32 to i1\n  %0 = arith.sitofp %b : i1 to f32",
       "'arith.sitofp' of i1 to f32 is not supported"},
  };
  for (size_t i = 0; i < sizeof(casts) / sizeof(casts[0]); ++i) {
    char source[256];
    snprintf(source, sizeof(source), "func.func @f(%%a: i32) {\n  %s\n  return\n}\n",
             casts[i][0]);
    expect_import_error(source, casts[i][1]);
  }
  // Where both readings agree the casts import as CONVERT.
  grtc_tmodule_t* narrowing = import_ok(
      "func.func @f(%a: index, %b: i1, %c: i32) -> (i32, i64, f32, i8) {\n"
      "  %0 = arith.index_castui %a : index to i32\n"
      "  %1 = arith.extui %b : i1 to i64\n"
      "  %2 = arith.uitofp %b : i1 to f32\n"
      "  %3 = arith.trunci %c : i32 to i8\n"
      "  return %0, %1, %2, %3 : i32, i64, f32, i8\n"
      "}\n");
  for (uint32_t i = 0; i < 4; ++i) assert_int_equal(nth_op(narrowing, i)->kind, GRTC_TOP_CONVERT);
  grtc_tmodule_destroy(narrowing);
  expect_import_error("\"foo.bar\"() : () -> ()\n",
                      "t.mlir:1:1: error: 'foo.bar' is not supported at module level");
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = call @missing(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n",
      "t.mlir:2:8: error: call to undefined function '@missing'");
  expect_import_error("func.func private @ext(tensor<4xf32>) -> tensor<4xf32>\n",
                      "t.mlir:1:1: error: function '@ext' has no body");
  expect_import_error("\"func.func\"() ({\n^bb0:\n  \"func.return\"() : () -> ()\n}) : () -> ()\n",
                      "t.mlir:1:1: error: 'func.func' requires 'sym_name' and a 'function_type'");
  expect_import_error("func.func @f() {\n  return\n}\nfunc.func @f() {\n  return\n}\n",
                      "t.mlir:4:1: error: redefinition of function '@f'");
  expect_import_error(
      "\"func.func\"() ({\n^bb0(%x: i32):\n  \"func.return\"() : () -> ()\n}) "
      "{sym_name = \"f\", function_type = () -> ()} : () -> ()\n",
      "t.mlir:1:1: error: function '@f' has 1 arguments but its type lists 0");
  expect_import_error(
      "func.func @f() {\n  \"t.br\"()[^bb1] : () -> ()\n^bb1:\n  return\n}\n",
      "t.mlir:2:3: error: the entry block ends in 't.br'; expected cf.br, cf.cond_br or "
      "func.return");
  // A branch back to the (only) entry block.
  expect_import_error(
      "\"func.func\"() ({\n^bb0:\n  \"stablehlo.optimization_barrier\"()[^bb0] : () -> ()\n}) "
      "{sym_name = \"f\", function_type = () -> ()} : () -> ()\n",
      "t.mlir:3:3: error: 'stablehlo.optimization_barrier' with successors is not supported");
  expect_import_error("module {\n}\nfunc.func @f() {\n  return\n}\n",
                      "t.mlir:1:1: error: a module must be the only top-level operation");
  expect_import_error("\"builtin.module\"() ({\n}) : () -> ()\n",
                      "t.mlir:1:1: error: a module must have one body block");
  // More operands than the importer keeps on its stack.
  char many[4096];
  int used = snprintf(many, sizeof(many),
                      "func.func @f(%%a: tensor<1xf32>) {\n  %%0 = \"stablehlo.concatenate\"(%%a");
  for (int i = 1; i < 65; ++i) used += snprintf(many + used, sizeof(many) - (size_t)used, ", %%a");
  used += snprintf(many + used, sizeof(many) - (size_t)used, ") {dimension = 0 : i64} : (");
  for (int i = 0; i < 65; ++i) {
    used += snprintf(many + used, sizeof(many) - (size_t)used, "%stensor<1xf32>", i ? ", " : "");
  }
  snprintf(many + used, sizeof(many) - (size_t)used, ") -> tensor<65xf32>\n  return\n}\n");
  expect_import_error(many, "t.mlir:2:8: error: 'stablehlo.concatenate' with more than 64 "
                            "operands or results is not supported");
}

static void test_unsupported_types(void** state) {
  (void)state;
  static const struct {
    const char* type;
    const char* message;
  } cases[] = {
      {"tensor<*xi32>", "t.mlir:1:1: error: type 'tensor<*xi32>' is not supported"},
      {"tensor<*xf32>", "type 'tensor<*xf32>' is not supported"},
      // complex<f32> and complex<f64> are interleaved (re, im) pairs.
      {"tensor<4xcomplex<f32>>", NULL},
      {"tensor<complex<f64>>", NULL},
      {"tensor<4xcomplex<i32>>", "type 'tensor<4xcomplex<i32>>' is not supported"},
      {"tensor<4xcomplex<f16>>", "type 'tensor<4xcomplex<f16>>' is not supported"},
      {"tensor<1x1x1x1x1x1x1x1xcomplex<f32>>",
       "type 'tensor<1x1x1x1x1x1x1x1xcomplex<f32>>' is not supported"},
      {"tuple<tensor<f32>>", "type 'tuple<tensor<f32>>' is not supported"},
      {"!stablehlo.bucket", "type '!stablehlo.bucket' is not supported"},
      {"tensor<4xi4>", NULL},  // held one per byte
      {"tensor<4xui2>", NULL},
      {"tensor<4xi3>", "type 'tensor<4xi3>' is not supported"},
      // Quantized tensors import as their storage integers; their types are
      // checked where they are used.
      {"tensor<4x!quant.uniform<i8:f32, 1.0>>", NULL},
      {"tensor<4x!quant.uniform<i8:f32, 1.0:300>>",
       "t.mlir:1:1: error: quantized type '!quant.uniform<i8:f32, 1.0:300>': zero point "
       "300 is outside the storage range [-128, 127]"},
      {"!quant.uniform<i8:f32, 1.0>",
       "quantized type '!quant.uniform<i8:f32, 1.0>' must be a tensor's element type"},
      {"tensor<4x!quant.uniform<i8:f32:0, {1.0, 2.0}>>",
       "quantized type '!quant.uniform<i8:f32:0, {1.0, 2.0}>' has 2 scales but dimension "
       "0 has size 4 (one per slice)"},
      {"tensor<1x1x1x1x1x1x1x1x1xf32>", "(rank above 8)"},
      {"tensor<4294967296x4294967296xf32>",
       "type 'tensor<4294967296x4294967296xf32>' is too large (2^56 bytes at most)"},
      {"tensor<0x4294967296x4294967296xf32>", "is too large"},
      {"tensor<0x4x4xf32>", NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[256];
    snprintf(source, sizeof(source), "func.func @f(%%a: %s) {\n  return\n}\n",
             cases[i].type);
    if (cases[i].message) {
      expect_import_error(source, cases[i].message);
    } else {
      grtc_tmodule_destroy(import_ok(source));
    }
  }
  expect_import_error(
      "func.func @f(%a: tensor<4xf32>) {\n"
      "  %0 = \"stablehlo.add\"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>\n"
      "  return\n"
      "}\n",
      "t.mlir:2:8: error: 'stablehlo.add' on complex types is not supported: "
      "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>");
}

// Complex values: interleaved fN tensor<...x2> at the function's boundary,
// pairs of real tensors inside.
static void test_complex(void** state) {
  (void)state;
  grtc_tmodule_t* module = import_ok(
      "func.func @f(%a: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {\n"
      "  %0 = stablehlo.multiply %a, %a : tensor<3xcomplex<f32>>\n"
      "  return %0 : tensor<3xcomplex<f32>>\n"
      "}\n");
  const grtc_tfunc_t* func = module->first_func;
  const grtc_ttype_t* arg = &func->body->args[0].type;
  assert_int_equal(arg->elem, GRTC_ELEM_F32);
  assert_int_equal(arg->rank, 2);
  assert_int_equal(arg->dims[0], 3);
  assert_int_equal(arg->dims[1], 2);
  assert_int_equal(func->result_types[0].rank, 2);
  assert_int_equal(func->result_types[0].dims[1], 2);
  // Split (slice + reshape per part), four products, subtract and add,
  // joined (reshape per part + concatenate) and returned.
  uint32_t slices = 0, multiplies = 0, concatenates = 0;
  for (const grtc_top_t* op = func->body->first; op; op = op->next) {
    slices += op->kind == GRTC_TOP_SLICE;
    multiplies += op->kind == GRTC_TOP_MULTIPLY;
    concatenates += op->kind == GRTC_TOP_CONCATENATE;
    if (op->kind == GRTC_TOP_MULTIPLY) assert_int_equal(op->results[0].type.rank, 1);
  }
  assert_int_equal(slices, 2);
  assert_int_equal(multiplies, 4);
  assert_int_equal(concatenates, 1);
  grtc_tmodule_destroy(module);
  // A complex splat constant is a splat of each part; in the interleaved
  // form (an unfoldable constant) the (re, im) pair repeated.
  module = import_ok(
      "func.func @f() -> (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) {\n"
      "  %0 = stablehlo.constant dense<(1.5, -2.0)> : tensor<2xcomplex<f64>>\n"
      "  %1 = util.unfoldable_constant dense<(1.5, -2.0)> : tensor<2xcomplex<f64>>\n"
      "  return %0, %1 : tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>\n"
      "}\n");
  for (int i = 0; i < 2; ++i) {
    const grtc_top_t* part = nth_op(module, (uint32_t)i);
    assert_int_equal(part->kind, GRTC_TOP_CONSTANT);
    assert_true(part->attrs.constant.splat);
    assert_int_equal(part->results[0].type.rank, 1);
    double value;
    memcpy(&value, part->attrs.constant.data, sizeof(value));
    assert_true(value == (i == 0 ? 1.5 : -2.0));
  }
  const grtc_top_t* constant = NULL;
  for (const grtc_top_t* op = module->first_func->body->first; op; op = op->next) {
    if (op->kind == GRTC_TOP_CONSTANT && op->attrs.unfoldable) constant = op;
  }
  assert_non_null(constant);
  assert_false(constant->attrs.constant.splat);
  assert_int_equal(constant->attrs.constant.size, 32);
  double values[4];
  memcpy(values, constant->attrs.constant.data, sizeof(values));
  assert_true(values[0] == 1.5 && values[1] == -2.0 && values[2] == 1.5 &&
              values[3] == -2.0);
  grtc_tmodule_destroy(module);
}

static void test_complex_errors(void** state) {
  (void)state;
  static const struct {
    const char* op;
    const char* message;
  } cases[] = {
      {"%0 = stablehlo.remainder %a, %a : tensor<4xcomplex<f32>>",
       "t.mlir:2:8: error: 'stablehlo.remainder' on complex types is not supported: "
       "(tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>"},
      {"%0 = stablehlo.maximum %a, %a : tensor<4xcomplex<f32>>",
       "'stablehlo.maximum' on complex types is not supported"},
      {"%0 = stablehlo.compare LT, %a, %a : (tensor<4xcomplex<f32>>, "
       "tensor<4xcomplex<f32>>) -> tensor<4xi1>",
       "'stablehlo.compare' on complex types compares EQ or NE only: "
       "(tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>"},
      {"%r = stablehlo.real %a : (tensor<4xcomplex<f32>>) -> tensor<4xf32>\n"
       "  %0 = stablehlo.complex %r, %r : tensor<4xcomplex<f64>>",
       "'stablehlo.complex' takes two real tensors of its result's shape and part "
       "type: (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f64>>"},
      {"%0 = stablehlo.real %a : (tensor<4xcomplex<f32>>) -> tensor<4xf64>",
       "'stablehlo.real' must give its operand's part type"},
      {"%0 = stablehlo.cbrt %a : tensor<4xcomplex<f32>>",
       "'stablehlo.cbrt' on complex types is not supported"},
      {"%0 = stablehlo.abs %a : tensor<4xcomplex<f32>>",
       "'stablehlo.abs' on complex types is not supported: (tensor<4xcomplex<f32>>) "
       "-> tensor<4xcomplex<f32>>"},
      {"%0 = \"stablehlo.sort\"(%a) ({\n"
       "  ^bb0(%x: tensor<complex<f32>>, %y: tensor<complex<f32>>):\n"
       "    %c = stablehlo.compare EQ, %x, %y : (tensor<complex<f32>>, "
       "tensor<complex<f32>>) -> tensor<i1>\n"
       "    stablehlo.return %c : tensor<i1>\n"
       "  }) {dimension = 0 : i64} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>",
       "'stablehlo.sort' on complex types is not supported"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "func.func @f(%%a: tensor<4xcomplex<f32>>) {\n  %s\n  return\n}\n",
             cases[i].op);
    expect_import_error(source, cases[i].message);
  }
  // Symbolic dimensions pass through function boundaries but not complex ops.
  expect_import_error(
      "func.func @f(%a: tensor<?xcomplex<f32>>) -> tensor<?xcomplex<f32>> {\n"
      "  %0 = stablehlo.multiply %a, %a : tensor<?xcomplex<f32>>\n"
      "  return %0 : tensor<?xcomplex<f32>>\n"
      "}\n",
      "t.mlir:2:8: error: 'stablehlo.multiply' with a symbolic dimension ('?') in its "
      "complex types is not supported yet");
}

static void test_malformed_attributes(void** state) {
  (void)state;
  static const struct {
    const char* op;
    const char* message;
  } cases[] = {
      {"%0 = \"stablehlo.transpose\"(%a) : (tensor<2x2xf32>) -> tensor<2x2xf32>",
       "t.mlir:2:8: error: 'stablehlo.transpose' requires the 'permutation' attribute"},
      {"%0 = \"stablehlo.transpose\"(%a) {permutation = \"x\"} : (tensor<2x2xf32>) -> tensor<2x2xf32>",
       "t.mlir:2:8: error: 'permutation' must be a list of at most 64 integers"},
      {"%0 = \"stablehlo.transpose\"(%a) {permutation = [1, \"x\"]} : (tensor<2x2xf32>) -> tensor<2x2xf32>",
       "'permutation' must list integers"},
      {"%0 = \"stablehlo.iota\"() {iota_dimension = [0]} : () -> tensor<2x2xf32>",
       "'iota_dimension' must be an integer, found [0 : i64]"},
      {"%0 = \"stablehlo.compare\"(%a, %a) {comparison_direction = #stablehlo<comparison_direction XX>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>",
       "expected #stablehlo<comparison_direction ...> naming one of EQ, NE, ..., found "
       "#stablehlo<comparison_direction XX>"},
      {"%0 = \"stablehlo.compare\"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = 1} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>",
       "expected #stablehlo<comparison_type ...>"},
      {"%0 = \"stablehlo.dot_general\"(%a, %a) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contract = [0]>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "unknown field 'rhs_contract' in #stablehlo.dot<...>"},
      {"%0 = \"stablehlo.dot_general\"(%a, %a) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "'lhs_contracting_dimensions' in #stablehlo.dot<...> must be a list of integers"},
      {"%0 = \"stablehlo.gather\"(%a, %a) {dimension_numbers = #stablehlo.scatter<>, slice_sizes = array<i64: 1, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "expected #stablehlo.gather<...>, found #stablehlo.scatter<>"},
      {"%0 = \"stablehlo.convolution\"(%a, %a) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "convolution dimension numbers name 1, 1 and 1 spatial dimensions for an input of rank 2"},
      {"%0 = \"stablehlo.convolution\"(%a, %a) {dimension_numbers = #stablehlo.conv<[b, 0, x]x[0, i, o]->[b, 0, f]>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "expected convolution dimension numbers such as"},
      {"%0 = \"stablehlo.convolution\"(%a, %a) {dimension_numbers = #stablehlo.conv<[b, f]x[i, o]->[b, f]>, window_strides = array<i64: 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "'window_strides' has 1 values; expected 0"},
      {"%0 = \"stablehlo.reduce_window\"(%a, %a) ({\n^bb0(%x: tensor<f32>, %y: tensor<f32>):\n  stablehlo.return %x : tensor<f32>\n}) {window_dimensions = array<i64: 1, 1>, padding = dense<0> : tensor<3x2xi64>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "'padding' must be dense<[[low, high], ...]> : tensor<2x2xi64>"},
      {"%0 = \"stablehlo.convolution\"(%a) {dimension_numbers = #stablehlo.conv<[b, f]x[i, o]->[b, f]>} : (tensor<2x2xf32>) -> tensor<2x2xf32>",
       "t.mlir:2:8: error: 'stablehlo.convolution' takes an input and a kernel; 1 operands were given"},
      {"%0 = \"stablehlo.constant\"() {value = dense<1.0> : tensor<3xf32>} : () -> tensor<2x2xf32>",
       "constant literal of type tensor<3xf32> for a result of type tensor<2x2xf32>"},
      {"%0 = \"arith.cmpi\"(%a, %a) {predicate = 12 : i64} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>",
       "'predicate' 12 is out of range for 'arith.cmpi' (0 to 9)"},
      {"%0 = \"stablehlo.sort\"(%a) ({\n}, {\n}) {is_stable = 3} : (tensor<2x2xf32>) -> tensor<2x2xf32>",
       "regions of 'stablehlo.sort' must have exactly one block (found 0)"},
      {"%0 = \"stablehlo.gather\"(%a, %a) {dimension_numbers = #stablehlo.gather<index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>, indices_are_sorted = 1} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "t.mlir:2:8: error: 'indices_are_sorted' must be true or false, found 1"},
      {"%0 = \"stablehlo.gather\"(%a, %a) {dimension_numbers = #stablehlo.gather<index_vector_dim 1>, slice_sizes = array<i64: 1, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "expected '=' after 'index_vector_dim' in #stablehlo.gather<...>"},
      {"%0 = \"stablehlo.gather\"(%a, %a) {dimension_numbers = #stablehlo.gather<index_vector_dim = 1 offset_dims = [0]>, slice_sizes = array<i64: 1, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "expected ',' or '>' in #stablehlo.gather<index_vector_dim = 1 offset_dims = [0]>"},
      {"%0 = \"stablehlo.gather\"(%a, %a) {dimension_numbers = #stablehlo.gather<index_vector_dim = x>, slice_sizes = array<i64: 1, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "'index_vector_dim' in #stablehlo.gather<...> must be an integer"},
      {"%0 = \"stablehlo.reduce_window\"(%a, %a) ({\n^bb0(%x: tensor<f32>, %y: tensor<f32>):\n  stablehlo.return %x : tensor<f32>\n}) {window_dimensions = array<i64: 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>",
       "'window_dimensions' has 1 values; expected 2"},
      {"stablehlo.constant dense<1.0> : tensor<f32>",
       "t.mlir:2:3: error: 'stablehlo.constant' must have one result; it has 0"},
      {"%0 = \"arith.constant\"() {value = 1.5 : f32} : () -> i32",
       "t.mlir:2:8: error: constant value must be dense<...> or a number of the result's "
       "element type i32, found 1.5 : f32"},
      {"%0 = stablehlo.constant dense_resource<blob> : tensor<2x2xf32>",
       "constant value must be dense<...> or a number of the result's element type f32, "
       "found dense_resource<blob>"},
      {"%0 = \"arith.cmpf\"(%a, %a) {predicate = 8 : i64} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>",
       "'arith.cmpf' predicate 8 (unordered or constant) is not supported"},
      {"%0 = \"func.call\"(%a) {callee = \"f\"} : (tensor<2x2xf32>) -> tensor<2x2xf32>",
       "'func.call' requires a 'callee' naming a function (@name)"},
      {"\"check.expect_almost_eq\"(%a, %a) {atol = \"big\"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()",
       "t.mlir:2:3: error: 'atol' must be a number"},
      {"\"check.expect_eq_const\"(%a, %a) {value = dense<1.0> : tensor<2x2xf32>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()",
       "'check.expect_eq_const' takes one operand and a 'value'"},
      {"\"check.expect_eq_const\"(%a) {value = 1.0 : f32} : (tensor<2x2xf32>) -> ()",
       "'value' of 'check.expect_eq_const' must be a dense<...> literal"},
      {"%0 = \"tensor.extract\"(%a, %a) : (tensor<2x2xf32>, tensor<2x2xf32>) -> f32",
       "'tensor.extract' takes a tensor and one index per dimension"},
      {"%0 = stablehlo.custom_call @check.expect_eq(%a, %a) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<i1>",
       "custom call 'check.expect_eq' must have no results"},

  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[2048];
    snprintf(source, sizeof(source),
             "func.func @f(%%a: tensor<2x2xf32>) {\n  %s\n  return\n}\n", cases[i].op);
    expect_import_error(source, cases[i].message);
  }
}

static void test_bad_syntax(void** state) {
  (void)state;
  static const struct {
    const char* op;
    const char* message;
  } cases[] = {
      {"%0 = stablehlo.add %a %a : tensor<4xf32>",
       "t.mlir:2:25: error: expected ':' and the types of 'stablehlo.add', found '%a'"},
      {"%0 = stablehlo.add %a, : tensor<4xf32>",
       "t.mlir:2:26: error: expected an operand or attribute of 'stablehlo.add'"},
      {"%0 = stablehlo.add %a, %a",
       "t.mlir:3:3: error: expected ':' and the types of 'stablehlo.add', found"},
      {"%0 = stablehlo.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> ()",
       "cannot tell the 1 result type of 'stablehlo.add'"},
      {"%0 = stablehlo.transpose %a, dims = [1, : (tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:43: error: expected an integer"},
      {"%0 = stablehlo.transpose %a, dims [0] : (tensor<4xf32>) -> tensor<4xf32>",
       "expected '=' after 'dims'"},
      {"%0 = stablehlo.compare %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>",
       "expected a comparison direction (EQ, NE, LT, LE, GT, GE)"},
      {"%0 = arith.cmpi foo, %a, %a : tensor<4xf32>",
       "t.mlir:2:19: error: unknown predicate 'foo' for 'arith.cmpi'"},
      {"%0 = stablehlo.slice %a [0:2, 1] : (tensor<4xf32>) -> tensor<2xf32>",
       "expected ':' between a slice's start and limit"},
      {"%0 = stablehlo.dot_general %a, %a, contracting_dims = [0] [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>",
       "expected 'x' between the lhs and rhs dimensions"},
      {"%0 = stablehlo.reduce(%a init: %a) applies stablehlo.add dimensions = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>",
       "expected 'across dimensions = [...]'"},
      {"%0 = stablehlo.reduce(%a init: %a) across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>\n  return",
       "expected 'reducer' and the reduction body"},
      {"%0 = stablehlo.reduce(%a, %a) across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>",
       "expected 'init:' after the reduced operand"},
      {"%0 = stablehlo.while(%i = %a) : tensor<4xf32> do { }",
       "expected 'cond' and the loop's condition region"},
      {"%0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, o][b, 0, f] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "expected '->' before the output dimension layout"},
      {"%0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {strides = [1]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "unexpected window entry 'strides'"},
      {"%0 = stablehlo.constant : tensor<4xf32>",
       "expected an attribute value"},
      {"%0 = stablehlo.constant \"x\" : tensor<4xf32>",
       "expected a typed constant value"},
      {"%0 = arith.addf %a, %a fastmath<fast : tensor<4xf32>",
       "expected '>' to close the flags"},
      {"%0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [1, 1]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "window pad entries must be [low, high] integer pairs"},
      {"%0 = stablehlo.composite %a : (tensor<4xf32>) -> tensor<4xf32>",
       "expected a string"},
      {"%0 = stablehlo.reduce_precision %a, format = f5m10 : tensor<4xf32>",
       "expected a format such as e5m10 (exponent and mantissa bits)"},
      {"%0 = stablehlo.reduce_precision %a, format = e5m : tensor<4xf32>",
       "expected a format such as e5m10 (exponent and mantissa bits)"},
      {"%0 = stablehlo.reduce_precision %a, format = e5m10x : tensor<4xf32>",
       "expected a format such as e5m10 (exponent and mantissa bits)"},
      {"%0 = stablehlo.collective_permute %a, source_target_pairs = [[0, 1]] : tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.collective_permute' is not supported"},
      {"%0 = chlo.ragged_dot %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "t.mlir:2:8: error: 'chlo.ragged_dot' in a pretty form is not supported; write its "
       "generic form \"chlo.ragged_dot\"(...)"},
      {"%0 = stablehlo.collective_permute\n      %a : tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.collective_permute' is not supported"},
      {"%0 = mhlo.collective_permute %a : tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.collective_permute' is not supported"},
      {"%0 = mhlo.no_such_op %a : tensor<4xf32>",
       "t.mlir:2:8: error: 'stablehlo.no_such_op' is not supported"},
      {"%0 = tensor.extract %a[] : f32",
       "'tensor.extract' expects a tensor type"},
      {"%0:2 = stablehlo.while(%i = %a, %j = %a) : tensor<4xf32> cond { } do { }",
       "the loop carries 2 values but 1 types are listed"},
      {"%0 = stablehlo.while(%a) : tensor<4xf32> cond { } do { }",
       "t.mlir:2:26: error: expected '=' after a loop variable, found ')'"},
      {"%0 = stablehlo.while(1) : tensor<4xf32> cond { } do { }",
       "expected a loop variable (%iterArg = %init)"},
      {"%0 = stablehlo.reduce(%a init: %a), (%a init: %a) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<f32>",
       "t.mlir:2:61: error: 'applies' reduces one operand; 2 were given"},
      {"%0 = stablehlo.reduce(%a init: %a) across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32> reducer(%x: tensor<f32>) { }",
       "expected ',' between a reducer argument pair"},
      {"%0 = stablehlo.convolution(%a, %a) window = {} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "expected 'dim_numbers = ...'"},
      {"%0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f][0, i, o]->[b, 0, f] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "expected 'x' between the input and kernel dimension layouts"},
      {"%0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, \"o\"]->[b, 0, f] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "expected a dimension (b, f, i, o or a spatial index) in the layout"},
      {"%0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [true]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "window 'stride' must list integers"},
      {"%0 = stablehlo.convolution(%a %a) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
       "expected ',' between the input and the kernel"},
      {"%0 = stablehlo.dot %a, %a, precision = [DEFAULT, 1] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>",
       "expected a precision (DEFAULT, HIGH, HIGHEST)"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[1024];
    snprintf(source, sizeof(source),
             "func.func @f(%%a: tensor<4xf32>) {\n  %s\n  return\n}\n", cases[i].op);
    expect_parse_error(source, cases[i].message);
  }
}

//===----------------------------------------------------------------------===//
// Symbolic shapes (jax.export with polymorphic shapes)
//===----------------------------------------------------------------------===//

// As jax.export writes it (jax 0.4.3x, `export(jit(f))(
// ShapeDtypeStruct(symbolic_shape("b, 4")), ...)`), trimmed to one function.
static const char kJaxPretty[] =
    "module @jit_f attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
    "  func.func public @main(%arg0: tensor<?x4xf32> {mhlo.layout_mode = \"default\"}, %arg1: tensor<4x3xf32>) -> (tensor<?x3xf32> {jax.result_info = \"\"}) {\n"
    "    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>\n"
    "    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>\n"
    "    %c = stablehlo.constant dense<1> : tensor<i64>\n"
    "    %2 = stablehlo.compare  GE, %1, %c,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
    "    stablehlo.custom_call @shape_assertion(%2, %1) {api_version = 2 : i32, error_message = \"Expected value >= 1 for dimension variable 'b'. Obtained 'b' = {0}.\", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()\n"
    "    %3 = stablehlo.sine %arg0 : tensor<?x4xf32>\n"
    "    %4 = stablehlo.dot_general %3, %arg1, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>\n"
    "    %5 = stablehlo.reshape %1 : (tensor<i64>) -> tensor<1xi64>\n"
    "    %c3 = stablehlo.constant dense<3> : tensor<1xi64>\n"
    "    %6 = stablehlo.concatenate %5, %c3, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>\n"
    "    %cst = stablehlo.constant dense<1.0> : tensor<f32>\n"
    "    %7 = stablehlo.dynamic_broadcast_in_dim %cst, %6, dims = [] : (tensor<f32>, tensor<2xi64>) -> tensor<?x3xf32>\n"
    "    %8 = stablehlo.add %4, %7 : tensor<?x3xf32>\n"
    "    return %8 : tensor<?x3xf32>\n"
    "  }\n"
    "}\n";

static const char kJaxGeneric[] =
    "\"builtin.module\"() ({\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%arg0: tensor<?x4xf32>, %arg1: tensor<4x3xf32>):\n"
    "    %0 = \"stablehlo.get_dimension_size\"(%arg0) {dimension = 0 : i64} : (tensor<?x4xf32>) -> tensor<i32>\n"
    "    %1 = \"stablehlo.convert\"(%0) : (tensor<i32>) -> tensor<i64>\n"
    "    %c = \"stablehlo.constant\"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>\n"
    "    %2 = \"stablehlo.compare\"(%1, %c) {comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
    "    \"stablehlo.custom_call\"(%2, %1) {api_version = 2 : i32, call_target_name = \"shape_assertion\", error_message = \"Expected value >= 1 for dimension variable 'b'. Obtained 'b' = {0}.\", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()\n"
    "    %3 = \"stablehlo.sine\"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>\n"
    "    %4 = \"stablehlo.dot_general\"(%3, %arg1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>\n"
    "    %5 = \"stablehlo.reshape\"(%1) : (tensor<i64>) -> tensor<1xi64>\n"
    "    %c3 = \"stablehlo.constant\"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>\n"
    "    %6 = \"stablehlo.concatenate\"(%5, %c3) {dimension = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>\n"
    "    %cst = \"stablehlo.constant\"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>\n"
    "    %7 = \"stablehlo.dynamic_broadcast_in_dim\"(%cst, %6) {broadcast_dimensions = array<i64>} : (tensor<f32>, tensor<2xi64>) -> tensor<?x3xf32>\n"
    "    %8 = \"stablehlo.add\"(%4, %7) : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>\n"
    "    \"func.return\"(%8) : (tensor<?x3xf32>) -> ()\n"
    "  }) {function_type = (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>, sym_name = \"main\", sym_visibility = \"public\"} : () -> ()\n"
    "}) {jax.uses_shape_polymorphism = true, sym_name = \"jit_f\"} : () -> ()\n";

// The tensor IR text without its "//" comment lines (which hold source
// positions, different between the two forms).
static char* print_without_comments(const char* source) {
  grtc_tmodule_t* module = import_ok(source);
  char* text = print_tensor(module);
  grtc_tmodule_destroy(module);
  char* out = text;
  for (const char* line = text; *line;) {
    const char* end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line + 1) : strlen(line);
    if (!strstr(line, "    // ") || strstr(line, "    // ") > line + 4 + length) {
      memmove(out, line, length);
      out += length;
    }
    line += length;
  }
  *out = '\0';
  return text;
}

static void test_symbolic_jax_export(void** state) {
  (void)state;
  expect_same_text(print_without_comments(kJaxPretty), print_without_comments(kJaxGeneric),
                   "tensor IR");
  grtc_tmodule_t* module = import_ok(kJaxPretty);
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  const grtc_tvalue_t* arg = &module->first_func->body->args[0];
  assert_false(grtc_dim_is_static(arg->type.dims[0]));
  assert_int_equal(arg->type.dims[1], 4);
  GRT_EXPECT_OK(grtc_tensor_fold(module));
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  // Every "?" joined the argument's symbol: the dot, the dynamic broadcast
  // (through get_dimension_size -> convert -> reshape -> concatenate), the
  // add and the function result.
  int64_t b = arg->type.dims[0];
  assert_int_equal(module->first_func->result_types[0].dims[0], b);
  const grtc_top_t* ret = module->first_func->body->last;
  assert_int_equal(ret->operands[0]->type.dims[0], b);
  assert_int_equal(ret->operands[0]->def->operands[1]->type.dims[0], b);
  char* text = print_tensor(module);
  assert_non_null(strstr(text, "// s0: argument 0 dimension 0\n"));
  assert_non_null(strstr(text, "// relation s4 == s0: 'stablehlo.dynamic_broadcast_in_dim'"));
  assert_non_null(strstr(text, "tensor<?s0x3xf32>"));
  assert_non_null(strstr(text, "stablehlo.custom_call @shape_assertion"));
  free(text);
  // The shape assertion stays (the host program checks it at the call) and
  // the dynamic_broadcast_in_dim becomes a broadcast_in_dim (its shape
  // operand is the argument's dimension).
  GRT_EXPECT_OK(grtc_tensor_prepare_symbolic(module));
  bool broadcast = false, dynamic = false;
  for (const grtc_top_t* op = module->first_func->body->first; op; op = op->next) {
    broadcast |= op->kind == GRTC_TOP_BROADCAST_IN_DIM;
    dynamic |= op->kind == GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM;
  }
  assert_true(broadcast);
  assert_false(dynamic);
  grtc_tmodule_destroy(module);
}

// A "?" the program proves static becomes static, and the rest folds.
static void test_symbolic_resolves_static(void** state) {
  (void)state;
  grtc_tmodule_t* module = import_ok(
      "func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
      "  %c = stablehlo.constant dense<2.0> : tensor<3x4xf32>\n"
      "  %0 = stablehlo.add %arg0, %c : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>\n"
      "  %1 = stablehlo.get_dimension_size %0, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>\n"
      "  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>\n"
      "  %3 = stablehlo.constant dense<4> : tensor<1xi32>\n"
      "  %4 = stablehlo.concatenate %2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
      "  %5 = stablehlo.dynamic_reshape %0, %4 : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>\n"
      "  %6 = stablehlo.dynamic_iota %4, dim = 1 : (tensor<2xi32>) -> tensor<?x?xf32>\n"
      "  %7 = stablehlo.multiply %5, %6 : tensor<?x?xf32>\n"
      "  return %7 : tensor<?x?xf32>\n"
      "}\n");
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  GRT_EXPECT_OK(grtc_tensor_fold(module));
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  GRT_EXPECT_OK(grtc_tensor_prepare_symbolic(module));
  const grtc_tfunc_t* func = module->first_func;
  assert_int_equal(func->body->args[0].type.dims[0], 3);
  assert_int_equal(func->result_types[0].dims[0], 3);
  assert_int_equal(func->result_types[0].dims[1], 4);
  char* text = print_tensor(module);
  assert_null(strstr(text, "dynamic"));
  assert_null(strstr(text, "get_dimension_size"));
  // The iota became static and folded.
  assert_non_null(strstr(text, "dense<[0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0, ... (12 elements)]> : tensor<3x4xf32>"));
  free(text);
  grtc_tmodule_destroy(module);
}

static void expect_verify_error(const char* source, const char* fragment) {
  grtc_tmodule_t* module = import_ok(source);
  grt_expect_error(grtc_tensor_verify(module), GRT_STATUS_INVALID_ARGUMENT, fragment);
  grtc_tmodule_destroy(module);
}

static void test_symbolic_errors(void** state) {
  (void)state;
  // One symbol, two static sizes.
  expect_verify_error(
      "func.func @main(%a: tensor<?xf32>, %b: tensor<3xf32>, %c: tensor<5xf32>) -> tensor<?xf32> {\n"
      "  %0 = stablehlo.add %a, %b : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>\n"
      "  %1 = stablehlo.add %a, %c : (tensor<?xf32>, tensor<5xf32>) -> tensor<?xf32>\n"
      "  return %1 : tensor<?xf32>\n"
      "}\n",
      "t.mlir:3:8: error: 'stablehlo.add' operand types tensor<?xf32> and tensor<5xf32> differ: dimension 0 (s0: argument 0 dimension 0 of @main) is 3 by earlier ops' relations, here 5");
  // Ops whose checks do not take symbolic dimensions yet are named.
  expect_verify_error(
      "func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
      "  %0 = stablehlo.reverse %a, dims = [0] : tensor<?xf32>\n"
      "  %1 = \"stablehlo.sort\"(%0) ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
      "    %l = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %l : tensor<i1>\n"
      "  }) {dimension = 0 : i64} : (tensor<?xf32>) -> tensor<?xf32>\n"
      "  return %1 : tensor<?xf32>\n"
      "}\n",
      "result 0 dimension 0 of 'stablehlo.sort' at 3:8); this op takes static shapes only");
  // A reshape whose element counts cannot be shown equal.
  expect_verify_error(
      "func.func @main(%a: tensor<?x?xf32>) -> tensor<?xf32> {\n"
      "  %0 = stablehlo.reshape %a : (tensor<?x?xf32>) -> tensor<?xf32>\n"
      "  return %0 : tensor<?xf32>\n"
      "}\n",
      "cannot reshape tensor<?x?xf32> to tensor<?xf32>: the element counts are not "
      "provably equal");
  // A static slice beyond a size the relations proved.
  expect_verify_error(
      "func.func @main(%a: tensor<?xf32>, %b: tensor<2xf32>) -> tensor<3xf32> {\n"
      "  %0 = stablehlo.add %a, %b : (tensor<?xf32>, tensor<2xf32>) -> tensor<?xf32>\n"
      "  %1 = stablehlo.slice %0 [0:3] : (tensor<?xf32>) -> tensor<3xf32>\n"
      "  return %1 : tensor<3xf32>\n"
      "}\n",
      "'stablehlo.slice' dimension 0: 0 <= start 0 <= limit 3 <= size 2 does not hold");
  // Where the importer has no symbol for a "?".
  expect_import_error(
      "func.func @main(%a: tensor<4xf32>) -> tensor<?xf32> {\n"
      "  %0 = tensor.empty() : tensor<?xf32>\n"
      "  return %0 : tensor<?xf32>\n"
      "}\n",
      "t.mlir:2:8: error: 'tensor.empty' with a symbolic dimension ('?') in its "
      "result type is not supported yet");
  expect_import_error(
      "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
      "  stablehlo.custom_call @shape_assertion(%a) : (tensor<f32>) -> ()\n"
      "  return %a : tensor<f32>\n"
      "}\n",
      "custom call 'shape_assertion' needs an 'error_message' string attribute");
  expect_verify_error(
      "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
      "  stablehlo.custom_call @shape_assertion(%a) {error_message = \"no\"} : (tensor<f32>) -> ()\n"
      "  return %a : tensor<f32>\n"
      "}\n",
      "assertion operand has type tensor<f32>, expected tensor<i1>");
  expect_verify_error(
      "func.func @main(%a: tensor<?xf32>, %s: tensor<3xi64>) -> tensor<?xf32> {\n"
      "  %0 = stablehlo.dynamic_reshape %a, %s : (tensor<?xf32>, tensor<3xi64>) -> tensor<?xf32>\n"
      "  return %0 : tensor<?xf32>\n"
      "}\n",
      "'stablehlo.dynamic_reshape' output_shape has type tensor<3xi64>, expected a "
      "rank-1 integer tensor of 1 elements");
}

// The static-shape ops with "?" extents: convolution with a symbolic batch,
// reduce, transpose, broadcast_in_dim, concatenate and slice infer their
// results from the operands' symbols.
static void test_symbolic_static_ops(void** state) {
  (void)state;
  grtc_tmodule_t* module = import_ok(
      "func.func @main(%x: tensor<?x3x8x8xf32>, %k: tensor<4x3x3x3xf32>, %v: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<4x?xf32>, tensor<?x4xf32>) {\n"
      "  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x8x8xf32>\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %r = stablehlo.reduce(%c init: %z) applies stablehlo.add across dimensions = [2, 3] : (tensor<?x4x8x8xf32>, tensor<f32>) -> tensor<?x4xf32>\n"
      "  %t = stablehlo.transpose %r, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>\n"
      "  %b = stablehlo.broadcast_in_dim %v, dims = [0, 1] : (tensor<?x4xf32>) -> tensor<?x4xf32>\n"
      "  %a = stablehlo.add %r, %b : tensor<?x4xf32>\n"
      "  %j = stablehlo.concatenate %a, %a, dim = 1 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>\n"
      "  %s = stablehlo.slice %j [0:2, 2:6] : (tensor<?x8xf32>) -> tensor<2x4xf32>\n"
      "  %u = stablehlo.slice %j [0:3, 0:4] : (tensor<?x8xf32>) -> tensor<?x4xf32>\n"
      "  return %a, %t, %u : tensor<?x4xf32>, tensor<4x?xf32>, tensor<?x4xf32>\n"
      "}\n");
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  GRT_EXPECT_OK(grtc_tensor_fold(module));
  const grtc_tfunc_t* func = module->first_func;
  int64_t n = func->body->args[0].type.dims[0];
  assert_false(grtc_dim_is_static(n));
  // %v's batch is %x's (the add), the transposed result carries it.
  assert_int_equal(func->body->args[2].type.dims[0], n);
  assert_int_equal(func->result_types[0].dims[0], n);
  assert_int_equal(func->result_types[1].dims[1], n);
  // The slice [0:3] of the batch proves it >= 3 and fixes its result at 3.
  assert_int_equal(func->result_types[2].dims[0], 3);
  bool bound = false;
  for (uint32_t i = 0; i < module->shapes->rel_count; ++i) {
    const grtc_trel_t* rel = &module->shapes->rels[i];
    bound |= rel->kind == GRTC_REL_GE && rel->b == 3 &&
             grtc_tmodule_resolve_dim(module, rel->a) == n;
  }
  assert_true(bound);
  grtc_tmodule_destroy(module);
  // Only the batch of a convolution may be symbolic.
  expect_verify_error(
      "func.func @main(%x: tensor<1x3x?x8xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<1x4x?x6xf32> {\n"
      "  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x?x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x?x6xf32>\n"
      "  return %c : tensor<1x4x?x6xf32>\n"
      "}\n",
      "'stablehlo.convolution' input dimension 2 of tensor<1x3x?x8xf32> is symbolic; only "
      "the input batch dimension may be (without batch groups)");
}

// A shape assertion jax writes for a static size folds away; one that
// folds to false stays and is refused at the static boundary with its text.
static void test_symbolic_shape_assertion(void** state) {
  (void)state;
  grtc_tmodule_t* module = import_ok(
      "func.func @main(%a: tensor<?xf32>, %b: tensor<2xf32>) -> tensor<?xf32> {\n"
      "  %0 = stablehlo.add %a, %b : (tensor<?xf32>, tensor<2xf32>) -> tensor<?xf32>\n"
      "  %1 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<?xf32>) -> tensor<i32>\n"
      "  %c = stablehlo.constant dense<5> : tensor<i32>\n"
      "  %2 = stablehlo.compare GE, %1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "  stablehlo.custom_call @shape_assertion(%2, %1) {error_message = \"b = {0} is below 5\", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()\n"
      "  return %0 : tensor<?xf32>\n"
      "}\n");
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  GRT_EXPECT_OK(grtc_tensor_fold(module));
  // Not provable here: it stays, a check the host program makes at the call.
  GRT_EXPECT_OK(grtc_tensor_prepare_symbolic(module));
  const grtc_top_t* op = module->first_func->body->first;
  while (op && op->kind != GRTC_TOP_SHAPE_ASSERTION) op = op->next;
  assert_non_null(op);
  assert_string_equal(op->attrs.message, "b = {0} is below 5");
  grtc_tmodule_destroy(module);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_elementwise_ops),
      cmocka_unit_test(test_constant_compare_select_convert),
      cmocka_unit_test(test_structural_ops),
      cmocka_unit_test(test_dot_ops),
      cmocka_unit_test(test_convolution),
      cmocka_unit_test(test_reduce),
      cmocka_unit_test(test_while_and_calls),
      cmocka_unit_test(test_check_ops),
      cmocka_unit_test(test_check_op_errors),
      cmocka_unit_test(test_chlo_errors),
      cmocka_unit_test(test_global_errors),
      cmocka_unit_test(test_cfg_errors),
      cmocka_unit_test(test_bitcast_widths_errors),
      cmocka_unit_test(test_map_errors),
      cmocka_unit_test(test_scan_square_errors),
      cmocka_unit_test(test_run_parallel_errors),
      cmocka_unit_test(test_probe_errors),
      cmocka_unit_test(test_select_and_scatter_errors),
      cmocka_unit_test(test_rng_bit_generator_errors),
      cmocka_unit_test(test_fft_errors),
      cmocka_unit_test(test_rng_errors),
      cmocka_unit_test(test_inline_call_errors),
      cmocka_unit_test(test_tuple_errors),
      cmocka_unit_test(test_arith_and_extract),
      cmocka_unit_test(test_generic_only_ops),
      cmocka_unit_test(test_jax_export),
      cmocka_unit_test(test_is_input),
      cmocka_unit_test(test_unsupported_op),
      cmocka_unit_test(test_unsupported_types),
      cmocka_unit_test(test_complex),
      cmocka_unit_test(test_complex_errors),
      cmocka_unit_test(test_malformed_attributes),
      cmocka_unit_test(test_bad_syntax),
      cmocka_unit_test(test_symbolic_jax_export),
      cmocka_unit_test(test_symbolic_resolves_static),
      cmocka_unit_test(test_symbolic_errors),
      cmocka_unit_test(test_symbolic_static_ops),
      cmocka_unit_test(test_symbolic_shape_assertion),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

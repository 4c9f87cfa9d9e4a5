// Tests for the MLIR parser and generic printer: every type and attribute
// form, regions, block arguments, multiple results, locations, the builtin
// and func pretty forms, and each diagnostic.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/mlir/parser.h"
#include "compiler/mlir/printer.h"

static grtc_module_t* parse_ok(const char* source) {
  grtc_module_t* module = NULL;
  grt_status_t status = grtc_parse_source(grt_make_cstring_view(source),
                                          "t.mlir", NULL,
                                          grt_allocator_system(), &module);
  if (!grt_status_is_ok(status)) {
    fail_msg("parse failed: %s\nsource:\n%s", grt_status_message(status), source);
  }
  return module;
}

static char* print(const grtc_module_t* module, uint32_t flags) {
  char* text = NULL;
  size_t length = 0;
  assert_true(grt_status_consume_ok(
      grtc_print_module(module, flags, grt_allocator_system(), &text, &length)));
  assert_int_equal(strlen(text), length);
  return text;
}

// Parses, prints, reparses the print and checks the second print matches.
static char* round_trip(const char* source) {
  grtc_module_t* module = parse_ok(source);
  char* first = print(module, GRTC_PRINT_LOCATIONS);
  grtc_module_destroy(module);
  module = parse_ok(first);
  char* second = print(module, GRTC_PRINT_LOCATIONS);
  grtc_module_destroy(module);
  assert_string_equal(first, second);
  free(second);
  return first;
}

static void expect_contains(const char* text, const char* needle) {
  if (!strstr(text, needle)) fail_msg("'%s'\nlacks '%s'", text, needle);
}

// Parses `"t.op"() {a = ATTR} : () -> ()` and checks the attribute prints
// as |expected|.
static void expect_attribute(const char* attribute, const char* expected) {
  char source[1024];
  snprintf(source, sizeof(source), "\"t.op\"() {a = %s} : () -> ()", attribute);
  char* text = round_trip(source);
  char needle[1024];
  snprintf(needle, sizeof(needle), "{a = %s}", expected);
  expect_contains(text, needle);
  free(text);
}

static void test_types(void** state) {
  static const char* const cases[][2] = {
      {"i1", "i1"}, {"si8", "si8"}, {"ui32", "ui32"}, {"i64", "i64"},
      {"index", "index"}, {"f16", "f16"}, {"bf16", "bf16"}, {"f32", "f32"},
      {"f64", "f64"}, {"none", "none"},
      {"f8E5M2", "f8E5M2"}, {"f8E4M3", "f8E4M3"}, {"f8E3M4", "f8E3M4"},
      {"f8E4M3FN", "f8E4M3FN"}, {"f8E4M3FNUZ", "f8E4M3FNUZ"},
      {"f8E5M2FNUZ", "f8E5M2FNUZ"}, {"f8E4M3B11FNUZ", "f8E4M3B11FNUZ"},
      {"tensor<2x?xf8E4M3FN>", "tensor<2x?xf8E4M3FN>"},
      {"tensor<4x?xf32>", "tensor<4x?xf32>"},
      {"tensor<*xf32>", "tensor<*xf32>"},
      {"tensor<f32>", "tensor<f32>"},
      {"tensor<0x4xi8>", "tensor<0x4xi8>"},
      {"tensor<2x3xf32, #enc.sparse>", "tensor<2x3xf32, #enc.sparse>"},
      {"vector<4xf32>", "vector<4xf32>"},
      {"tuple<i32, f32>", "tuple<i32, f32>"},
      {"tuple<>", "tuple<>"},
      {"complex<f32>", "complex<f32>"},
      {"(i32, f32) -> i64", "(i32, f32) -> (i64)"},
      {"() -> ()", "() -> ()"},
      {"!vm.ref<?>", "!vm.ref<?>"},
      {"!vm.ref<!hal.buffer>", "!vm.ref<!hal.buffer>"},
      {"!vm.buffer", "!vm.buffer"},
      {"!vm.list<i32>", "!vm.list<i32>"},
      {"!vm.list<?>", "!vm.list<?>"},
      {"!hal.buffer_view", "!hal.buffer_view"},
      {"!stablehlo.token", "!stablehlo.token"},
      {"!foo.bar<\"x>\", 3>", "!foo.bar<\"x>\", 3>"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    expect_attribute(cases[i][0], cases[i][1]);
  }
}

static void test_structured_types(void** state) {
  grtc_module_t* module =
      parse_ok("%0 = \"t.op\"() : () -> tensor<4x?x2xbf16>\n"
               "%1 = \"t.op\"() : () -> !vm.list<!vm.ref<!hal.buffer>>");
  const grtc_type_t* tensor = module->body->first->results[0].type;
  assert_int_equal(tensor->kind, GRTC_TYPE_TENSOR);
  assert_int_equal(tensor->shaped.rank, 3);
  assert_true(tensor->shaped.dims[0] == 4);
  assert_true(tensor->shaped.dims[1] == GRTC_DYNAMIC_DIM);
  assert_true(grtc_type_is_float(tensor->shaped.element, GRTC_FLOAT_BF16));
  const grtc_type_t* list = module->body->first->next->results[0].type;
  assert_int_equal(list->kind, GRTC_TYPE_VM_LIST);
  assert_int_equal(list->element->kind, GRTC_TYPE_VM_REF);
  assert_int_equal(list->element->element->kind, GRTC_TYPE_OPAQUE);
  assert_true(grtc_type_is_ref(list));
  grtc_module_destroy(module);
}

static void test_attributes(void** state) {
  static const char* const cases[][2] = {
      {"42", "42 : i64"},
      {"-7 : i32", "-7 : i32"},
      {"255 : i8", "-1 : i8"},
      {"255 : ui8", "255 : ui8"},
      {"0x10 : i32", "16 : i32"},
      {"1.5", "1.5 : f64"},
      {"-2.5e-3 : f32", "-0.0025 : f32"},
      {"0x7F800000 : f32", "0x7F800000 : f32"},
      {"1.0e+20 : f64", "1.0e+20 : f64"},
      {"true", "true"},
      {"unit", "unit"},
      {"\"s\\\"q\\n\"", "\"s\\\"q\\0A\""},
      {"\"typed\" : i32", "\"typed\" : i32"},
      {"[1, \"a\", [true]]", "[1 : i64, \"a\", [true]]"},
      {"{b = 1 : i32, c, \"d e\" = @f}", "{b = 1 : i32, c = unit, \"d e\" = @f}"},
      {"@a::@b", "@a::@b"},
      {"@\"x y\"", "@\"x y\""},
      {"i32", "i32"},
      {"(i32) -> f32", "(i32) -> (f32)"},
      {"array<i64: 1, -2, 3>", "array<i64: 1, -2, 3>"},
      {"array<i32>", "array<i32>"},
      {"array<i1: true, false>", "array<i1: true, false>"},
      {"#stablehlo<comparison_direction LT>", "#stablehlo<comparison_direction LT>"},
      {"#stablehlo.dot<lhs_batching_dimensions = [0], rhs_contracting_dimensions = [1]>",
       "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_contracting_dimensions = [1]>"},
      {"#foo.bar", "#foo.bar"},
      {"affine_map<(d0) -> (d0)>", "affine_map<(d0) -> (d0)>"},
      {"dense_resource<blob> : tensor<4xf32>", "dense_resource<blob> : tensor<4xf32>"},
      {"dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>",
       "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"},
      {"dense<1.5> : tensor<2x3xf32>", "dense<1.5> : tensor<2x3xf32>"},
      {"dense<[true, false]> : tensor<2xi1>", "dense<[true, false]> : tensor<2xi1>"},
      {"dense<[0xFF800000, 1.0]> : tensor<2xf32>",
       "dense<[0xFF800000, 1.0]> : tensor<2xf32>"},
      {"dense<\"0x0000803F00000040\"> : tensor<2xf32>",
       "dense<[1.0, 2.0]> : tensor<2xf32>"},
      {"dense<\"0x0000803F\"> : tensor<3xf32>", "dense<1.0> : tensor<3xf32>"},
      {"dense<7> : tensor<i8>", "dense<7> : tensor<i8>"},
      // Tensors with no elements hold a zero splat.
      {"dense<> : tensor<0xf32>", "dense<0.0> : tensor<0xf32>"},
      {"dense<[]> : tensor<0xf32>", "dense<0.0> : tensor<0xf32>"},
      {"dense<> : tensor<0x3xf32>", "dense<0.0> : tensor<0x3xf32>"},
      {"dense<> : tensor<2x0xi32>", "dense<0> : tensor<2x0xi32>"},
      {"dense<[1.0, -0.5]> : tensor<2xf16>", "dense<[1.0, -0.5]> : tensor<2xf16>"},
      {"dense<[255, 0]> : tensor<2xui8>", "dense<[255, 0]> : tensor<2xui8>"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    expect_attribute(cases[i][0], cases[i][1]);
  }
}

static const grtc_attribute_t* first_attribute(grtc_module_t* module) {
  return module->body->first->attributes[0].value;
}

static void test_dense_bytes(void** state) {
  static const struct {
    const char* attribute;
    uint8_t bytes[32];
    size_t size;
    bool splat;
  } cases[] = {
      // Complex: (re, im) interleaved, splat or listed, or as a hex blob.
      {"dense<(1.0, -2.0)> : tensor<3xcomplex<f32>>",
       {0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0}, 8, true},
      {"dense<[(1.0, 0.0), (0.0, 2.0)]> : tensor<2xcomplex<f32>>",
       {0, 0, 0x80, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40}, 16, false},
      {"dense<(1.5, 0.0)> : tensor<complex<f64>>",
       {0, 0, 0, 0, 0, 0, 0xF8, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0}, 16, false},
      {"dense<\"0x0000803F00000040\"> : tensor<4xcomplex<f32>>",
       {0, 0, 0x80, 0x3F, 0, 0, 0, 0x40}, 8, true},
      {"dense<[1.0, -2.0]> : tensor<2xf16>", {0x00, 0x3C, 0x00, 0xC0}, 4, false},
      {"dense<[1.0, 3.0e+38]> : tensor<2xbf16>", {0x80, 0x3F, 0x62, 0x7F}, 4, false},
      {"dense<65520.0> : tensor<f16>", {0x00, 0x7C}, 2, false},  // rounds to inf
      // 8-bit floats, one byte each. f8E4M3FN: 464 ties to 448 (0x7E, even
      // mantissa), 465 is past it: NaN (0x7F; no infinity); -0 is 0x80.
      {"dense<[1.0, 464.0, 465.0, -0.0]> : tensor<4xf8E4M3FN>", {0x38, 0x7E, 0x7F, 0x80}, 4,
       false},
      // f8E5M2: 57344 the largest (0x7B); 61440 ties between it and 2^16
      // (the even pattern 0x7C, infinity); 2^-16 the smallest subnormal.
      {"dense<[57344.0, 61440.0, 1.52587890625e-05]> : tensor<3xf8E5M2>", {0x7B, 0x7C, 0x01},
       3, false},
      // f8E4M3FNUZ: no -0 (0x00, also for what rounds to it), overflow is
      // 0x80 (the NaN); hex is the bits.
      {"dense<[-0.0, 1.0e6, -1.0e-9, 0x7F]> : tensor<4xf8E4M3FNUZ>",
       {0x00, 0x80, 0x00, 0x7F}, 4, false},
      {"dense<[0x80, 0x7F]> : tensor<2xf8E4M3FNUZ>", {0x80, 0x7F}, 2, false},
      // f8E4M3B11FNUZ (bias 11): 30 is the largest, 2^-13 the smallest.
      {"dense<[30.0, 1.220703125e-04]> : tensor<2xf8E4M3B11FNUZ>", {0x7F, 0x01}, 2, false},
      // f8E5M2FNUZ (bias 16): 1 is 0x40; f8E4M3 (IEEE-like): 240 the largest,
      // 256 infinity; f8E3M4: 15.5 the largest, 16 infinity, -2^-4 the
      // subnormal -4 * 2^-6.
      {"dense<1.0> : tensor<2xf8E5M2FNUZ>", {0x40}, 1, true},
      {"dense<[240.0, 256.0]> : tensor<2xf8E4M3>", {0x77, 0x78}, 2, false},
      {"dense<[15.5, 16.0, -0.0625]> : tensor<3xf8E3M4>", {0x6F, 0x70, 0x84}, 3, false},
      // The MX types, one byte each (the low bits; hex is the bits). f4E2M1FN:
      // 5 ties to 4 (even), 100 and 1e30 saturate to 6 (0x7), -0.25 ties to
      // -0 (0x8).
      {"dense<[5.0, 100.0, 1.0e30, -0.25, 0xF]> : tensor<5xf4E2M1FN>",
       {0x6, 0x7, 0x7, 0x8, 0xF}, 5, false},
      // f6E2M3FN: 7.5 the largest (0x1F), -8 saturates; f6E3M2FN: 28 the
      // largest, 0.0625 the smallest subnormal.
      {"dense<[7.5, -8.0]> : tensor<2xf6E2M3FN>", {0x1F, 0x3F}, 2, false},
      {"dense<[28.0, 0.0625]> : tensor<2xf6E3M2FN>", {0x1F, 0x01}, 2, false},
      // f8E8M0FNU: 1 is 127, 3 (a tie) rounds up to 4, 0 and -1 are NaN
      // (0xFF), 1e-40 gives 2^-127 (0x00, there is no zero).
      {"dense<[1.0, 3.0, 0.0, -1.0, 1.0e-40, 0xFE]> : tensor<6xf8E8M0FNU>",
       {0x7F, 0x81, 0xFF, 0xFF, 0x00, 0xFE}, 6, false},
      {"dense<5.96046448e-08> : tensor<f16>", {0x01, 0x00}, 2, false},  // subnormal
      {"dense<[-1, 2]> : tensor<2xi16>", {0xFF, 0xFF, 0x02, 0x00}, 4, false},
      {"dense<[true, false, true]> : tensor<3xi1>", {1, 0, 1}, 3, false},
      {"dense<-1> : tensor<4xi32>", {0xFF, 0xFF, 0xFF, 0xFF}, 4, true},
      {"dense<\"0x0102\"> : tensor<2xi8>", {1, 2}, 2, false},
      {"dense<[1.5]> : tensor<1xf64>", {0, 0, 0, 0, 0, 0, 0xF8, 0x3F}, 8, false},
      // Quantized: the stored integers, i4 one per byte (sign-extended).
      {"dense<[-8, 7]> : tensor<2x!quant.uniform<i4:f32, 0.5:1>>", {0xF8, 7}, 2, false},
      {"dense<[255, 0]> : tensor<2x!quant.uniform<ui8:f32, 0.5:1>>", {0xFF, 0}, 2, false},
      {"dense<[-2]> : tensor<1x!quant.uniform<i16:f32:0, {0.5:1}>>", {0xFE, 0xFF}, 2,
       false},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char source[256];
    snprintf(source, sizeof(source), "\"t.op\"() {a = %s} : () -> ()",
             cases[i].attribute);
    grtc_module_t* module = parse_ok(source);
    const grtc_attribute_t* attribute = first_attribute(module);
    assert_int_equal(attribute->kind, GRTC_ATTR_DENSE_ELEMENTS);
    assert_int_equal(attribute->dense.size, cases[i].size);
    assert_memory_equal(attribute->dense.data, cases[i].bytes, cases[i].size);
    assert_int_equal(attribute->dense.splat, cases[i].splat);
    grtc_module_destroy(module);
  }
}

static void test_generic_ops_regions_and_blocks(void** state) {
  const char* source =
      "%r:2, %s = \"t.multi\"() : () -> (i32, i32, f32)\n"
      "\"t.region\"(%r#1) <{prop = 1 : i32}> ({\n"
      "  ^entry(%x: i32, %y: f32 loc(\"a.py\":3:4)):\n"
      "    \"t.br\"(%x)[^next(%x, %y : i32, f32)] : (i32) -> ()\n"
      "  ^next(%p: i32, %q: f32):\n"
      "    \"t.use\"(%p, %r#0, %s) : (i32, i32, f32) -> ()\n"
      "}, {\n"
      "}) {attr = \"v\"} : (i32) -> ()\n";
  grtc_module_t* module = parse_ok(source);
  grtc_operation_t* multi = module->body->first;
  assert_int_equal(multi->result_count, 3);
  grtc_operation_t* region_op = multi->next;
  assert_int_equal(region_op->operand_count, 1);
  assert_ptr_equal(region_op->operands[0], &multi->results[1]);
  assert_int_equal(region_op->region_count, 2);
  grtc_region_t* region = region_op->regions[0];
  assert_int_equal(region->block_count, 2);
  assert_int_equal(region->first->arg_count, 2);
  assert_non_null(region->first->args[1].location);
  grtc_operation_t* br = region->first->first;
  assert_int_equal(br->successor_count, 1);
  assert_ptr_equal(br->successors[0].block, region->last);
  assert_int_equal(br->successors[0].operand_count, 2);
  grtc_operation_t* use = region->last->first;
  assert_ptr_equal(use->operands[2], &multi->results[2]);
  assert_int_equal(region_op->regions[1]->block_count, 0);
  assert_non_null(grtc_operation_attribute(region_op, "prop"));
  assert_non_null(grtc_operation_attribute(region_op, "attr"));
  assert_null(grtc_operation_attribute(region_op, "missing"));
  grtc_module_destroy(module);
  char* text = round_trip(source);
  expect_contains(text, "%r:2, %s = \"t.multi\"()");
  expect_contains(text, "[^bb1(%x, %y : i32, f32)]");
  expect_contains(text, "^bb0(%x: i32, %y: f32 loc(\"a.py\":3:4)):");
  expect_contains(text, "<{prop = 1 : i32}>");
  free(text);
}

static void test_locations(void** state) {
  const char* source =
      "#loc1 = loc(\"model.py\":10:2)\n"
      "\"t.a\"() : () -> () loc(#loc3)\n"
      "\"t.b\"() : () -> () loc(fused<\"meta\">[\"x\", #loc1])\n"
      "\"t.c\"() : () -> () loc(callsite(\"f\"(\"g.py\":1:1) at #loc1))\n"
      "\"t.d\"() : () -> () loc(unknown)\n"
      "\"t.e\"() : () -> () loc(\"only_a_name\")\n"
      "#loc3 = loc(\"jit(main)/add\"(#loc1))\n";
  grtc_module_t* module = parse_ok(source);
  static const struct {
    bool found;
    const char* file;
    uint32_t line;
  } expected[] = {{true, "model.py", 10}, {true, "model.py", 10},
                  {true, "g.py", 1}, {false, NULL, 0}, {false, NULL, 0}};
  size_t i = 0;
  for (grtc_operation_t* op = module->body->first; op; op = op->next, ++i) {
    grt_string_view_t file;
    uint32_t line = 0, column = 0;
    bool found = grtc_location_file_position(op->location, &file, &line, &column);
    assert_int_equal(found, expected[i].found);
    if (found) {
      assert_true(grt_string_view_equal_cstring(file, expected[i].file));
      assert_int_equal(line, expected[i].line);
    }
  }
  grtc_module_destroy(module);
  char* text = round_trip(source);
  expect_contains(text, "loc(\"jit(main)/add\"(\"model.py\":10:2))");
  expect_contains(text, "loc(fused<\"meta\">[\"x\", \"model.py\":10:2])");
  free(text);
}

static void test_builtin_and_func_pretty_forms(void** state) {
  const char* source =
      "module @jit_f attributes {mhlo.num_partitions = 1 : i32} {\n"
      "  func.func public @main(%arg0: tensor<2xf32> {mhlo.sharding = \"{}\"} "
      "loc(\"x\"), %arg1: i32) -> (tensor<2xf32> {jax.result_info = \"\"}) {\n"
      "    %0 = func.call @helper(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @helper(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    func.return %a : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @decl(i32, f32) -> i32\n"
      "}\n";
  grtc_module_t* module = parse_ok(source);
  grtc_operation_t* top = module->body->first;
  assert_true(grtc_operation_is(top, "builtin.module"));
  grtc_operation_t* main_fn = top->regions[0]->first->first;
  assert_true(grtc_operation_is(main_fn, "func.func"));
  const grtc_attribute_t* type = grtc_operation_attribute(main_fn, "function_type");
  assert_int_equal(type->type->function.input_count, 2);
  assert_int_equal(type->type->function.result_count, 1);
  assert_non_null(grtc_operation_attribute(main_fn, "arg_attrs"));
  assert_non_null(grtc_operation_attribute(main_fn, "res_attrs"));
  grtc_operation_t* ret = main_fn->regions[0]->first->last;
  assert_true(grtc_operation_is(ret, "func.return"));
  grtc_operation_t* decl = main_fn->next->next;
  assert_int_equal(decl->region_count, 0);
  grtc_module_destroy(module);
  char* text = round_trip(source);
  expect_contains(text, "\"func.return\"(%0) : (tensor<2xf32>) -> ()");
  expect_contains(text, "sym_visibility = \"public\"");
  free(text);
}

// A dialect's alias prefix: ops spelled with it, generic or pretty, are
// stored under the canonical prefix; other names are left alone.
static grt_status_t parse_alias_pretty(grtc_parser_t* parser, const grtc_op_syntax_t* syntax,
                                       grtc_op_state_t* state) {
  (void)parser;
  (void)syntax;
  (void)state;
  return grt_ok_status();
}

static void test_dialect_alias_prefix(void** state) {
  (void)state;
  static const grtc_op_syntax_t ops[] = {{"new.nop", NULL, parse_alias_pretty, NULL, NULL}};
  static const grtc_dialect_syntax_t dialect = {ops, 1, "old.", "new."};
  static const grtc_dialect_syntax_t* const dialects[] = {&dialect};
  grtc_parse_options_t options = {dialects, 1};
  const char* source =
      "\"old.thing\"() : () -> ()\n"
      "old.nop\n"
      "\"older.thing\"() : () -> ()\n"
      "\"old.\"() : () -> ()\n";
  grtc_module_t* module = NULL;
  assert_true(grt_status_consume_ok(grtc_parse_source(grt_make_cstring_view(source), "t.mlir",
                                                      &options, grt_allocator_system(),
                                                      &module)));
  grtc_operation_t* op = module->body->first;
  assert_true(grtc_operation_is(op, "new.thing"));
  assert_true(grtc_operation_is(op->next, "new.nop"));
  assert_int_equal(op->next->line, 2);
  assert_int_equal(op->next->column, 1);
  assert_true(grtc_operation_is(op->next->next, "older.thing"));
  // The bare prefix names no op of the dialect: kept as written.
  assert_true(grtc_operation_is(op->next->next->next, "old."));
  grtc_module_destroy(module);
}

typedef struct error_case_t {
  const char* source;
  const char* message;
} error_case_t;

static void test_diagnostics(void** state) {
  static const error_case_t cases[] = {
      {"\"t.a\"(%x) : (i32) -> ()",
       "t.mlir:1:7: error: use of undefined SSA value '%x'"},
      {"%x = \"t.a\"() : () -> i32\n%x = \"t.b\"() : () -> i32",
       "t.mlir:2:1: error: redefinition of SSA value '%x'"},
      {"\"t.r\"() ({\n  \"t.br\"()[^nowhere] : () -> ()\n}) : () -> ()",
       "t.mlir:2:12: error: reference to undefined block '^nowhere'"},
      {"\"t.r\"() ({\n^a:\n  \"t.x\"() : () -> ()\n^a:\n  \"t.x\"() : () -> ()\n}) : () -> ()",
       "t.mlir:4:1: error: redefinition of block '^a'"},
      {"%r:2 = \"t.a\"() : () -> (i32, i32)\n\"t.b\"(%r#2) : (i32) -> ()",
       "'%r' has 2 results, so '%r#2' does not exist"},
      {"%a = \"t.a\"() : () -> (i32, i32)",
       "t.mlir:1:1: error: 't.a' produces 2 results but 1 is bound"},
      {"%a = \"t.a\"() : () -> i32\n\"t.b\"(%a) : (f32) -> ()",
       "'%a' has type i32 but is used here as f32"},
      {"\"t.a\"(",  "t.mlir:1:7: error: expected an SSA value (%name), found end of file"},
      {"\"t.a\"() : i32", "expected a function type (inputs) -> results"},
      {"\"t.a\"() {a = 1, a = 2} : () -> ()", "duplicate attribute 'a'"},
      {"\"t.a\"() {a = 300 : i8} : () -> ()",
       "t.mlir:1:14: error: integer value 300 does not fit in type i8"},
      {"\"t.a\"() {a = -1 : ui8} : () -> ()", "integer value -1 does not fit in type ui8"},
      {"\"t.a\"() {a = 99999999999999999999} : () -> ()", "does not fit in 64 bits"},
      {"\"t.a\"() {a = 1.5 : i32} : () -> ()",
       "expected an integer value for type i32, found float '1.5'"},
      {"\"t.a\"() {a = dense<[1, 2]> : tensor<3xi32>} : () -> ()",
       "dense literal has shape [2] but its type"},
      {"\"t.a\"() {a = dense<[[1, 2], [3]]> : tensor<2x2xi32>} : () -> ()",
       "dense literal rows must all have 2 elements, found 1"},
      {"\"t.a\"() {a = dense<[[1], 2]> : tensor<2x1xi32>} : () -> ()",
       "mixes a value with nested lists"},
      {"\"t.a\"() {a = dense<\"0x0102\"> : tensor<3xi8>} : () -> ()",
       "hex dense literal has 2 bytes but type tensor<...> needs 3"},
      {"\"t.a\"() {a = dense<\"0xZZ\"> : tensor<1xi8>} : () -> ()", "non-hex digit"},
      {"\"t.a\"() {a = dense<\"hello\"> : tensor<1xi8>} : () -> ()",
       "dense string literals are not supported"},
      {"\"t.a\"() {a = dense<1> : tensor<?xi32>} : () -> ()",
       "needs a statically shaped tensor or vector type"},
      {"\"t.a\"() {a = dense<true> : tensor<2xf32>} : () -> ()",
       "expected a floating-point value for type f32, found 'true'"},
      {"\"t.a\"() {a = dense<0x1FFFF> : tensor<2xf16>} : () -> ()",
       "hexadecimal float bit pattern 0x1FFFF does not fit in f16"},
      {"\"t.a\"() {a = dense<0x100> : tensor<2xf8E4M3FN>} : () -> ()",
       "hexadecimal float bit pattern 0x100 does not fit in f8E4M3FN"},
      {"\"t.a\"() {a = dense<0x40> : tensor<2xf6E2M3FN>} : () -> ()",
       "hexadecimal float bit pattern 0x40 does not fit in f6E2M3FN"},
      {"\"t.a\"() {a = dense<0x10> : tensor<2xf4E2M1FN>} : () -> ()",
       "hexadecimal float bit pattern 0x10 does not fit in f4E2M1FN"},
      {"\"t.a\"() {a = dense<0x100> : tensor<2xf8E8M0FNU>} : () -> ()",
       "hexadecimal float bit pattern 0x100 does not fit in f8E8M0FNU"},
      {"\"t.a\"() {a = dense<1.0> : tensor<2xf8E4M3FNX>} : () -> ()",
       "f8E4M3FNX"},
      {"\"t.a\"() {a = dense<1> : tensor<2xcomplex<f32>>} : () -> ()",
       "an element of type complex<f32> must be written (re, im)"},
      {"\"t.a\"() {a = dense<(1.0, 2.0)> : tensor<2xf32>} : () -> ()",
       "a complex element (re, im) in a dense literal of element type f32"},
      {"\"t.a\"() {a = dense<(1.0 2.0)> : tensor<2xcomplex<f32>>} : () -> ()",
       "between the parts of a complex element"},
      {"\"t.a\"() {a = dense<(1.0, 2.0> : tensor<2xcomplex<f32>>} : () -> ()",
       "to close a complex element"},
      {"\"t.a\"() {a = dense<(1, 2)> : tensor<2xcomplex<i32>>} : () -> ()",
       "dense literals of element type complex<...> are not supported"},
      {"\"t.a\"() {a = dense<(1.0, 2.0)> : tensor<2xcomplex<f16>>} : () -> ()",
       "dense literals of element type complex<f16> are not supported"},
      // Quantized literals are their storage integers, quantized types
      // other than !quant.uniform are not.
      {"\"t.a\"() {a = dense<128> : tensor<2x!quant.uniform<i8:f32, 1.0>>} : () -> ()",
       "integer value 128 does not fit in type si8"},
      {"\"t.a\"() {a = dense<-1> : tensor<2x!quant.uniform<ui4:f32, 1.0>>} : () -> ()",
       "integer value -1 does not fit in type ui8"},
      {"\"t.a\"() {a = dense<1> : tensor<2x!quant.any<i8:f32>>} : () -> ()",
       "dense literals of element type !quant.any<i8:f32> are not supported"},
      {"\"t.a\"() {a = array<tensor<2xi32>: 1>} : () -> ()",
       "array<...> elements must be integers or floats"},
      {"\"t.a\"() {a = #undefined} : () -> ()", "undefined attribute alias '#undefined'"},
      {"\"t.a\"() {a = !undefined} : () -> ()", "undefined type alias '!undefined'"},
      {"\"t.a\"() {a = #d<unclosed} : () -> ()", "unbalanced '<'"},
      {"\"t.a\"() {a = bogus} : () -> ()", "expected an attribute value, found 'bogus'"},
      {"\"t.a\"() {a = tensor<4xq32>} : () -> ()", "expected a type, found 'q32'"},
      {"\"t.a\"() {a = tensor<4f32>} : () -> ()",
       "expected 'x' after a dimension, found 'f32'"},
      // Alias errors point at the use (file:line:col), not just the file.
      {"\"t.a\"() : () -> () loc(#nowhere)",
       "t.mlir:1:24: error: undefined location alias '#nowhere'"},
      {"#a = loc(#b)\n#b = loc(#a)\n\"t.a\"() : () -> () loc(#a)",
       "t.mlir:1:10: error: location alias '#b' refers to itself"},
      {"\"t.a\"() : () -> () loc(#a)\n#a = loc(\"n\"(#b))\n#b = loc(fused[#c, #a])\n#c = loc(unknown)",
       "t.mlir:1:24: error: location alias '#a' refers to itself"},
      {"\"t.a\"() : () -> ()\n\"t.b\"() : () -> () loc(fused[#x])",
       "t.mlir:2:30: error: undefined location alias '#x'"},
      {"#a = 1\n#a = 2", "t.mlir:2:1: error: redefinition of alias '#a'"},
      {"\"t.a\"() : () -> () loc(\"f\":1)", "expected ':' before the column"},
      {"\"t.a\"() : () -> () loc(bogus)", "expected a location"},
      {"foo.bar %x", "unknown operation 'foo.bar'"},
      {"^bb0:", "expected an operation at the top level, found '^bb0'"},
      {"\"\"() : () -> ()", "empty operation name"},
      {"%a:0 = \"t.a\"() : () -> ()", "result count must be 1 to 65535"},
      {"func.func @f(%a: i32) -> i32 {\n  return %a : f32\n}",
       "returned value #0 '%a' does not have the listed type"},
      {"func.func @f(%a: i32, f32)", "expected a named argument"},
      {"func.func @f(i32) {\n}", "a function with a body must name its arguments"},
      {"func.func @f() {\n  %0 = func.call @g(%0) : (i32) -> i32\n}",
       "use of undefined SSA value '%0'"},
      {"func.func @f() {\n  func.call @g() : (i32) -> i32\n}",
       "call passes 0 arguments but the type lists 1"},
      {"module {\n  \"t.a\"() : () -> ()\n", "expected '}' to close a region, found end of file"},
      {"\"t.a\"() {a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
       "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
       "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
       "nesting deeper than 200 levels"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    grtc_module_t* module = NULL;
    grt_status_t status = grtc_parse_source(grt_make_cstring_view(cases[i].source),
                                            "t.mlir", NULL,
                                            grt_allocator_system(), &module);
    if (grt_status_is_ok(status)) {
      fail_msg("case %zu parsed but should fail: %s", i, cases[i].source);
    }
    assert_null(module);
    assert_int_equal(grt_status_code(status), GRT_STATUS_INVALID_ARGUMENT);
    const char* message = grt_status_message(status);
    if (!strstr(message, cases[i].message)) {
      fail_msg("case %zu: '%s'\nlacks '%s'", i, message, cases[i].message);
    }
    grt_status_free(status);
  }
}

// Every prefix of a valid program must fail cleanly (never crash or read
// past the end): a cheap stand-in for fuzzing in the unit tests.
static void test_truncated_inputs_fail_cleanly(void** state) {
  const char* source =
      "#loc = loc(\"f.py\":1:1)\n"
      "module @m {\n"
      "  func.func @f(%a: tensor<2x?xf32>, %b: i32) -> (i32, f32) {\n"
      "    %0:2 = \"t.op\"(%b)[^bb1(%b : i32)] <{p = dense<[1.0, 2.0]> : "
      "tensor<2xf16>}> {q = @s::@t, r = array<i8: 1>} : (i32) -> (i32, f32) loc(#loc)\n"
      "  ^bb1(%x: i32):\n"
      "    return %0#0, %0#1 : i32, f32\n"
      "  }\n"
      "}\n";
  size_t length = strlen(source);
  grtc_module_t* module = parse_ok(source);
  grtc_module_destroy(module);
  for (size_t cut = 0; cut < length; ++cut) {
    char* prefix = malloc(cut + 1);
    memcpy(prefix, source, cut);
    prefix[cut] = 0;
    grtc_module_t* partial = NULL;
    grt_status_t status = grtc_parse_source(grt_make_string_view(prefix, cut),
                                            "t.mlir", NULL,
                                            grt_allocator_system(), &partial);
    // Only the empty prefix, or one that ends between top-level items, is a
    // complete program.
    if (grt_status_is_ok(status)) {
      grtc_module_destroy(partial);
    } else {
      assert_non_null(strstr(grt_status_message(status), "error:"));
      grt_status_free(status);
    }
    free(prefix);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_types),
      cmocka_unit_test(test_structured_types),
      cmocka_unit_test(test_attributes),
      cmocka_unit_test(test_dense_bytes),
      cmocka_unit_test(test_generic_ops_regions_and_blocks),
      cmocka_unit_test(test_locations),
      cmocka_unit_test(test_builtin_and_func_pretty_forms),
      cmocka_unit_test(test_dialect_alias_prefix),
      cmocka_unit_test(test_diagnostics),
      cmocka_unit_test(test_truncated_inputs_fail_cleanly),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

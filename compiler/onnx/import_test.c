// Tests for the ONNX importer: models built here with the generated
// protobuf-c structs and packed to bytes, so each test states exactly what
// the file holds. Covers the graph rules (inputs that are initializers,
// optional inputs, Constant/Identity, outputs in order), content
// recognition, --onnx-input-shape, external data, and every error path the
// importer reports, each checked for the text it promises.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/status_matchers.h"
#include "compiler/dispatch/dispatch.h"
#include "compiler/dispatch/kernel_interp_test_util.h"
#include "compiler/onnx/import.h"
#include "compiler/tensor/passes.h"
#include "onnx.pb-c.h"

//===----------------------------------------------------------------------===//
// Building models
//===----------------------------------------------------------------------===//

// Everything a test model holds, in fixed-size arrays (tests are small).
typedef struct model_t {
  Onnx__ModelProto model;
  Onnx__GraphProto graph;
  Onnx__OperatorSetIdProto opset;
  Onnx__OperatorSetIdProto* opsets[1];
  Onnx__NodeProto nodes[16];
  Onnx__NodeProto* node_ptrs[16];
  char* node_inputs[16][6];
  char* node_outputs[16][2];
  Onnx__AttributeProto attrs[16][3];
  Onnx__AttributeProto* attr_ptrs[16][3];
  int64_t attr_ints[16][3][4];
  Onnx__ValueInfoProto inputs[4], outputs[4];
  Onnx__ValueInfoProto* input_ptrs[4];
  Onnx__ValueInfoProto* output_ptrs[4];
  Onnx__TypeProto types[8];
  Onnx__TypeProto__Tensor tensor_types[8];
  Onnx__TensorShapeProto shapes[8];
  Onnx__TensorShapeProto__Dimension dims[8][4];
  Onnx__TensorShapeProto__Dimension* dim_ptrs[8][4];
  Onnx__TensorProto initializers[8];
  Onnx__TensorProto* initializer_ptrs[8];
  int64_t initializer_dims[8][4];
  uint32_t type_count;
} model_t;

static void model_init(model_t* m, int64_t opset) {
  memset(m, 0, sizeof(*m));
  onnx__model_proto__init(&m->model);
  onnx__graph_proto__init(&m->graph);
  onnx__operator_set_id_proto__init(&m->opset);
  m->model.has_ir_version = 1;
  m->model.ir_version = 8;
  m->opset.domain = "";
  m->opset.has_version = 1;
  m->opset.version = opset;
  m->opsets[0] = &m->opset;
  m->model.n_opset_import = 1;
  m->model.opset_import = m->opsets;
  m->model.graph = &m->graph;
  m->graph.name = "g";
  m->graph.node = m->node_ptrs;
  m->graph.input = m->input_ptrs;
  m->graph.output = m->output_ptrs;
  m->graph.initializer = m->initializer_ptrs;
}

// A tensor type: float32 of |rank| dims; a negative dim is symbolic ("N").
static Onnx__TypeProto* model_type(model_t* m, int32_t elem, uint32_t rank, const int64_t* dims) {
  uint32_t t = m->type_count++;
  onnx__type_proto__init(&m->types[t]);
  onnx__type_proto__tensor__init(&m->tensor_types[t]);
  onnx__tensor_shape_proto__init(&m->shapes[t]);
  m->types[t].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  m->types[t].tensor_type = &m->tensor_types[t];
  m->tensor_types[t].has_elem_type = 1;
  m->tensor_types[t].elem_type = elem;
  m->tensor_types[t].shape = &m->shapes[t];
  m->shapes[t].n_dim = rank;
  m->shapes[t].dim = m->dim_ptrs[t];
  for (uint32_t i = 0; i < rank; ++i) {
    Onnx__TensorShapeProto__Dimension* d = &m->dims[t][i];
    onnx__tensor_shape_proto__dimension__init(d);
    if (dims[i] >= 0) {
      d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
      d->dim_value = dims[i];
    } else {
      d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
      d->dim_param = "N";
    }
    m->dim_ptrs[t][i] = d;
  }
  return &m->types[t];
}

// A graph input of ONNX element type |elem| (1 float, 7 int64).
static void model_input_of(model_t* m, const char* name, int32_t elem, uint32_t rank,
                           const int64_t* dims) {
  Onnx__ValueInfoProto* v = &m->inputs[m->graph.n_input];
  onnx__value_info_proto__init(v);
  v->name = (char*)name;
  v->type = model_type(m, elem, rank, dims);
  m->input_ptrs[m->graph.n_input++] = v;
}

static void model_input(model_t* m, const char* name, uint32_t rank, const int64_t* dims) {
  model_input_of(m, name, 1, rank, dims);
}

static void model_output(model_t* m, const char* name) {
  Onnx__ValueInfoProto* v = &m->outputs[m->graph.n_output];
  onnx__value_info_proto__init(v);
  v->name = (char*)name;
  m->output_ptrs[m->graph.n_output++] = v;
}

static Onnx__NodeProto* model_node(model_t* m, const char* op_type, const char* in0,
                                   const char* in1, const char* out) {
  uint32_t i = (uint32_t)m->graph.n_node++;
  Onnx__NodeProto* node = &m->nodes[i];
  onnx__node_proto__init(node);
  node->op_type = (char*)op_type;
  node->name = "n";
  node->input = m->node_inputs[i];
  node->output = m->node_outputs[i];
  node->attribute = m->attr_ptrs[i];
  if (in0) m->node_inputs[i][node->n_input++] = (char*)in0;
  if (in1) m->node_inputs[i][node->n_input++] = (char*)in1;
  m->node_outputs[i][node->n_output++] = (char*)out;
  m->node_ptrs[i] = node;
  return node;
}

// A float initializer of |count| raw bytes (|raw_size| may lie).
static Onnx__TensorProto* model_initializer(model_t* m, const char* name, int64_t count,
                                            const float* values, size_t raw_size) {
  uint32_t i = (uint32_t)m->graph.n_initializer++;
  Onnx__TensorProto* t = &m->initializers[i];
  onnx__tensor_proto__init(t);
  t->name = (char*)name;
  t->has_data_type = 1;
  t->data_type = 1;
  t->n_dims = 1;
  t->dims = m->initializer_dims[i];
  t->dims[0] = count;
  t->has_raw_data = 1;
  t->raw_data.data = (uint8_t*)values;
  t->raw_data.len = raw_size;
  m->initializer_ptrs[i] = t;
  return t;
}

// One more input of |node| (Conv's bias, Gemm's C; at most 6 in all).
static void model_node_input(model_t* m, Onnx__NodeProto* node, const char* name) {
  (void)m;
  node->input[node->n_input++] = (char*)name;
}

// An integer list attribute of |node| (|count| <= 4); |list| false makes
// it one integer (the first value).
static void model_attr(model_t* m, Onnx__NodeProto* node, const char* name, bool list,
                       uint32_t count, const int64_t* values) {
  uint32_t i = (uint32_t)(node - m->nodes);
  uint32_t a = (uint32_t)node->n_attribute++;
  Onnx__AttributeProto* attr = &m->attrs[i][a];
  onnx__attribute_proto__init(attr);
  attr->name = (char*)name;
  if (list) {
    attr->has_type = 1;
    attr->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
    memcpy(m->attr_ints[i][a], values, count * sizeof(int64_t));
    attr->n_ints = count;
    attr->ints = m->attr_ints[i][a];
  } else {
    attr->has_type = 1;
    attr->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    attr->has_i = 1;
    attr->i = values[0];
  }
  m->attr_ptrs[i][a] = attr;
}

// An initializer of ONNX element type |elem| (1 float, 7 int64) and shape
// |rank|/|dims| from |size| raw bytes.
static void model_tensor(model_t* m, const char* name, int32_t elem, uint32_t rank,
                         const int64_t* dims, const void* values, size_t size) {
  Onnx__TensorProto* t = model_initializer(m, name, 0, values, size);
  t->data_type = elem;
  t->n_dims = rank;
  if (rank) memcpy(t->dims, dims, rank * sizeof(int64_t));
}

static uint8_t* model_pack(model_t* m, size_t* out_size) {
  size_t size = onnx__model_proto__get_packed_size(&m->model);
  uint8_t* bytes = malloc(size + 1);
  assert_non_null(bytes);
  assert_int_equal(onnx__model_proto__pack(&m->model, bytes), size);
  *out_size = size;
  return bytes;
}

static grt_status_t import_model(model_t* m, const grtc_onnx_options_t* options,
                                 grtc_tmodule_t** out) {
  size_t size = 0;
  uint8_t* bytes = model_pack(m, &size);
  grt_status_t status =
      grtc_onnx_import(bytes, size, "dir/m.onnx", options, grt_allocator_system(), out);
  free(bytes);
  return status;
}

// Imports |m| and checks it fails with |code| and a message holding every
// one of the NULL-terminated |parts|.
static void expect_error(model_t* m, const grtc_onnx_options_t* options, grt_status_code_t code,
                         ...) {
  grtc_tmodule_t* module = NULL;
  grt_status_t status = import_model(m, options, &module);
  assert_null(module);
  assert_false(grt_status_is_ok(status));
  const char* message = grt_status_message(status);
  if (grt_status_code(status) != code) {
    fprintf(stderr, "code %s, expected %s: %s\n", grt_status_code_name(grt_status_code(status)),
            grt_status_code_name(code), message);
    fail();
  }
  va_list args;
  va_start(args, code);
  for (const char* part = va_arg(args, const char*); part; part = va_arg(args, const char*)) {
    if (!strstr(message, part)) {
      fprintf(stderr, "message lacks '%s': %s\n", part, message);
      fail();
    }
  }
  va_end(args);
  grt_status_free(status);
}

static char* print(const grtc_tmodule_t* module) {
  grt_string_builder_t out;
  grt_string_builder_init(grt_allocator_system(), &out);
  grtc_tensor_print(module, &out);
  char* text = strdup(grt_string_builder_cstring(&out));
  grt_string_builder_deinit(&out);
  return text;
}

static const int64_t k2x3[2] = {2, 3};

//===----------------------------------------------------------------------===//
// Graphs that import
//===----------------------------------------------------------------------===//

static void relu_add_imports(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  model_input(&m, "y", 2, k2x3);
  model_node(&m, "Relu", "x", NULL, "r");
  model_node(&m, "Add", "r", "y", "s");
  model_output(&m, "s");
  model_output(&m, "r");  // outputs keep the graph's order
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(import_model(&m, NULL, &module));
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  grtc_tfunc_t* main_func = grtc_tmodule_find_func(module, grt_make_cstring_view("main"));
  assert_non_null(main_func);
  assert_true(main_func->is_public);
  assert_int_equal(main_func->body->arg_count, 2);
  assert_int_equal(main_func->result_count, 2);
  char* text = print(module);
  assert_non_null(strstr(text, "stablehlo.maximum"));
  assert_non_null(strstr(text, "stablehlo.add"));
  free(text);
  grtc_tmodule_destroy(module);
}

static void initializer_inputs_and_broadcast(void** state) {
  (void)state;
  // IR < 4 style: the initializer is also listed as an input; it must not
  // become an argument. Its shape [3] broadcasts against 2x3.
  model_t m;
  model_init(&m, 9);
  static const float bias[3] = {1, 2, 3};
  int64_t three = 3;
  model_input(&m, "x", 2, k2x3);
  model_input(&m, "b", 1, &three);
  model_initializer(&m, "b", 3, bias, sizeof(bias));
  model_node(&m, "Mul", "x", "b", "y");
  model_node(&m, "Identity", "y", NULL, "z");
  model_output(&m, "z");
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(import_model(&m, NULL, &module));
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  grtc_tfunc_t* main_func = grtc_tmodule_find_func(module, grt_make_cstring_view("main"));
  assert_int_equal(main_func->body->arg_count, 1);
  // The broadcast of the constant folds into a 2x3 constant.
  char* text = print(module);
  assert_non_null(strstr(text, "stablehlo.multiply"));
  if (!strstr(text, "tensor<2x3xf32>")) fprintf(stderr, "%s", text);
  assert_non_null(strstr(text, "tensor<2x3xf32>"));
  free(text);
  grtc_tmodule_destroy(module);
}

static void shape_override_pins_symbolic_dims(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  int64_t dims[2] = {-1, 3};
  model_input(&m, "x", 2, dims);
  model_node(&m, "Relu", "x", NULL, "y");
  model_output(&m, "y");
  const char* shapes[] = {"x:5x3"};
  grtc_onnx_options_t options = {shapes, 1};
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(import_model(&m, &options, &module));
  grtc_tfunc_t* main_func = grtc_tmodule_find_func(module, grt_make_cstring_view("main"));
  assert_int_equal(main_func->body->args[0].type.dims[0], 5);
  grtc_tmodule_destroy(module);
}

static void recognizes_input(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  model_node(&m, "Relu", "x", NULL, "y");
  model_output(&m, "y");
  size_t size = 0;
  uint8_t* bytes = model_pack(&m, &size);
  assert_true(grtc_onnx_is_input(bytes, size, "model.bin"));
  free(bytes);
  static const char mlir[] = "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n}\n";
  assert_false(grtc_onnx_is_input((const uint8_t*)mlir, sizeof(mlir) - 1, "m.mlir"));
  static const char generic[] = "\"builtin.module\"() ({ }) : () -> ()\n";
  assert_false(grtc_onnx_is_input((const uint8_t*)generic, sizeof(generic) - 1, "m.mlir"));
  assert_true(grtc_onnx_is_input((const uint8_t*)mlir, sizeof(mlir) - 1, "named.onnx"));
}

static void lists_supported_ops(void** state) {
  (void)state;
  bool relu = false, constant = false;
  uint32_t count = 0;
  for (const char* op; (op = grtc_onnx_supported_op(count)); ++count) {
    relu |= strcmp(op, "Relu") == 0;
    constant |= strcmp(op, "Constant") == 0;
  }
  assert_true(relu && constant);
  assert_true(count > 50);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

static void corrupt_files_are_errors(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  model_node(&m, "Relu", "x", NULL, "y");
  model_output(&m, "y");
  size_t size = 0;
  uint8_t* bytes = model_pack(&m, &size);
  // Every truncation either fails cleanly or (cut at a field boundary)
  // decodes to a smaller model that imports or fails cleanly.
  for (size_t cut = 0; cut < size; ++cut) {
    grtc_tmodule_t* module = NULL;
    grt_status_t status =
        grtc_onnx_import(bytes, cut, "t.onnx", NULL, grt_allocator_system(), &module);
    if (grt_status_is_ok(status)) {
      grtc_tmodule_destroy(module);
    } else {
      assert_non_null(strstr(grt_status_message(status), "t.onnx: "));
      grt_status_free(status);
    }
  }
  free(bytes);
  // Text is not a ModelProto.
  static const char text[] = "\x08this is not a protobuf at all \xff\xff\xff";
  grtc_tmodule_t* module = NULL;
  grt_status_t status = grtc_onnx_import((const uint8_t*)text, sizeof(text) - 1, "t.onnx", NULL,
                                         grt_allocator_system(), &module);
  assert_null(module);
  assert_non_null(strstr(grt_status_message(status), "not an ONNX model"));
  grt_status_free(status);
}

static void missing_graph_is_an_error(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  m.model.graph = NULL;
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "dir/m.onnx: ", "has no graph", NULL);
}

static void unknown_op_names_node_type_domain_opset(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  model_node(&m, "FancyOp", "x", NULL, "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_UNIMPLEMENTED, "node 1 'n'", "'FancyOp'", "ai.onnx",
               "opset 13", NULL);
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  Onnx__NodeProto* node = model_node(&m, "Relu", "x", NULL, "y");
  node->domain = "com.example";
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_UNIMPLEMENTED, "'Relu'", "domain 'com.example'", NULL);
}

static void opset_outside_range_is_an_error(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 99);
  model_input(&m, "x", 2, k2x3);
  model_node(&m, "Relu", "x", NULL, "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_UNIMPLEMENTED, "opset 99", "opsets 1 to 21", NULL);
}

static void undefined_input_is_an_error(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  model_node(&m, "Add", "x", "later", "y");
  model_node(&m, "Relu", "x", NULL, "later");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "node 1", "input 1 'later'",
               "topologically sorted", NULL);
}

static void duplicate_definition_is_an_error(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  model_node(&m, "Relu", "x", NULL, "y");
  model_node(&m, "Relu", "x", NULL, "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "'y' is defined twice", NULL);
}

static void wrong_input_count_is_an_error(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  model_node(&m, "Add", "x", NULL, "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(Add, opset 13)",
               "expected 2 to 2 inputs, got 1", NULL);
}

// An empty name stands for an absent input: PRelu's X may not be absent
// (the import fuzzer's smoke run found PRelu reading through a null X).
static void absent_required_input_is_an_error(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  model_node(&m, "PRelu", "", "x", "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(PRelu, opset 13)",
               "input 0 is required", NULL);
  // Every op checks its required inputs before its own code reads them:
  // a unary op, a binary op's second input, and an op whose symbolic-shape
  // rule reads input 0's rank.
  static const struct {
    const char* op;
    const char* in0;
    const char* in1;
    const char* where;
    const char* what;
  } cases[] = {
      {"Abs", "", NULL, "(Abs, opset 17)", "input 0 is required"},
      {"Not", "", NULL, "(Not, opset 17)", "input 0 is required"},
      {"Add", "x", "", "(Add, opset 17)", "input 1 is required"},
      {"LayerNormalization", "", "x", "(LayerNormalization, opset 17)", "input 0 is required"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    model_init(&m, 17);
    model_input(&m, "x", 2, k2x3);
    model_node(&m, cases[i].op, cases[i].in0, cases[i].in1, "y");
    model_output(&m, "y");
    expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, cases[i].where, cases[i].what,
                 "leaves it out", NULL);
  }
}

static void incompatible_shapes_are_an_error(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  int64_t four = 4;
  model_input(&m, "x", 2, k2x3);
  model_input(&m, "y", 1, &four);
  model_node(&m, "Add", "x", "y", "z");
  model_output(&m, "z");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(Add, opset 13)",
               "tensor<2x3xf32> and tensor<4xf32> do not broadcast", NULL);
}

// dim_param dimensions become symbols, one per name; ops whose import
// handles them keep them, others name the dimension and the flag.
static void symbolic_dims(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  int64_t dims[2] = {-1, 3};
  model_input(&m, "x", 2, dims);
  model_input(&m, "w", 2, dims);
  model_node(&m, "Add", "x", "w", "s");
  model_node(&m, "Relu", "s", NULL, "y");
  model_output(&m, "y");
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(import_model(&m, NULL, &module));
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  GRT_EXPECT_OK(grtc_tensor_fold(module));
  const grtc_tfunc_t* func = module->first_func;
  // Both inputs' "N" are one symbol after folding, and the result's too.
  int64_t n = func->body->args[0].type.dims[0];
  assert_false(grtc_dim_is_static(n));
  assert_int_equal(func->body->args[1].type.dims[0], n);
  assert_int_equal(func->result_types[0].dims[0], n);
  char* text = print(module);
  assert_non_null(strstr(text, "// s0: 'N', argument 0 dimension 0\n"));
  assert_non_null(strstr(text, "// relation s1 == s0\n"));
  assert_non_null(strstr(text, "tensor<?s0x3xf32>"));
  free(text);
  GRT_EXPECT_OK(grtc_tensor_prepare_symbolic(module));
  grtc_tmodule_destroy(module);

  model_init(&m, 13);
  model_input(&m, "x", 2, dims);
  Onnx__NodeProto* node = model_node(&m, "Hardmax", "x", NULL, "y");
  (void)node;
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(Hardmax, opset 13)",
               "input 0 dimension 0 is symbolic (s0 'N': argument 0 dimension 0 of @main)",
               "grt imports Hardmax with static shapes only",
               "--onnx-input-shape=NAME:<dims>", NULL);
  const char* not_an_input[] = {"z:1x3"};
  grtc_onnx_options_t options = {not_an_input, 1};
  expect_error(&m, &options, GRT_STATUS_INVALID_ARGUMENT, "names 'z'",
               "not an input of the graph", NULL);
  const char* wrong_rank[] = {"x:1x3x4"};
  options.input_shapes = wrong_rank;
  expect_error(&m, &options, GRT_STATUS_INVALID_ARGUMENT, "has rank 3",
               "the model's input has rank 2", NULL);
  const char* conflicting[] = {"x:1x4"};
  options.input_shapes = conflicting;
  expect_error(&m, &options, GRT_STATUS_INVALID_ARGUMENT, "sets dimension 1 to 4",
               "fixes it at 3", NULL);
  const char* malformed[] = {"x:1xq"};
  options.input_shapes = malformed;
  expect_error(&m, &options, GRT_STATUS_INVALID_ARGUMENT, "expected dimensions like", NULL);
  const char* no_colon[] = {"x"};
  options.input_shapes = no_colon;
  expect_error(&m, &options, GRT_STATUS_INVALID_ARGUMENT, "expected NAME:DIMS", NULL);
}

//===----------------------------------------------------------------------===//
// Models with a symbolic batch
//===----------------------------------------------------------------------===//

// Weights for the models below: small values of both signs.
static float weights[64];

static void fill_weights(void) {
  for (int i = 0; i < 64; ++i) weights[i] = (float)((i * 7) % 11 - 5) / 8.0f;
}

// Imports |m| (with |options|), verifies, folds and crosses the symbolic
// boundary; the module's main function has one argument.
static grtc_tmodule_t* import_prepared(model_t* m, const grtc_onnx_options_t* options) {
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(import_model(m, options, &module));
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  GRT_EXPECT_OK(grtc_tensor_fold(module));
  GRT_EXPECT_OK(grtc_tensor_verify(module));
  GRT_EXPECT_OK(grtc_tensor_prepare_symbolic(module));
  return module;
}

// The batch symbol of |module|'s only argument, checked to reach result 0
// (dimension 0) and printed as |printed| ("tensor<?s0x3xf32>").
static int64_t expect_batch_symbol(grtc_tmodule_t* module, const char* printed) {
  const grtc_tfunc_t* func = module->first_func;
  assert_int_equal(func->body->arg_count, 1);
  int64_t batch = func->body->args[0].type.dims[0];
  assert_false(grtc_dim_is_static(batch));
  assert_int_equal(func->result_types[0].dims[0], batch);
  char* text = print(module);
  if (!strstr(text, printed)) fprintf(stderr, "%s", text);
  assert_non_null(strstr(text, printed));
  free(text);
  return batch;
}

// x [N, 4] -> MatMul -> Add -> Relu -> MatMul -> Add -> Softmax.
static void build_mlp(model_t* m, const int64_t* x_dims) {
  model_init(m, 13);
  static const int64_t w1_dims[2] = {4, 8}, b1_dims[1] = {8}, w2_dims[2] = {8, 3},
                       b2_dims[1] = {3};
  model_input(m, "x", 2, x_dims);
  model_tensor(m, "w1", 1, 2, w1_dims, weights, 32 * sizeof(float));
  model_tensor(m, "b1", 1, 1, b1_dims, weights + 32, 8 * sizeof(float));
  model_tensor(m, "w2", 1, 2, w2_dims, weights + 40, 24 * sizeof(float));
  model_tensor(m, "b2", 1, 1, b2_dims, weights + 8, 3 * sizeof(float));
  model_node(m, "MatMul", "x", "w1", "h");
  model_node(m, "Add", "h", "b1", "a");
  model_node(m, "Relu", "a", NULL, "r");
  model_node(m, "MatMul", "r", "w2", "o");
  model_node(m, "Add", "o", "b2", "p");
  model_node(m, "Softmax", "p", NULL, "y");
  model_output(m, "y");
}

static void symbolic_mlp(void** state) {
  (void)state;
  fill_weights();
  model_t m;
  static const int64_t x_dims[2] = {-1, 4};
  build_mlp(&m, x_dims);
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  expect_batch_symbol(module, "-> (tensor<?s0x3xf32>)");
  grtc_kernel_set_t kernels;
  grtc_kernel_set_init(grt_allocator_system(), &kernels);
  grtc_dispatch_options_t options = {2, 0, false};
  GRT_EXPECT_OK(grtc_dispatch_form(module, &options, &kernels));
  bool matmul = false;
  for (uint32_t k = 0; k < kernels.count; ++k) {
    matmul |= kernels.kernels[k]->pattern == GRTC_KPATTERN_MATMUL &&
              kernels.kernels[k]->matmul.m == GRTC_KDIM_EXTENT(0);
  }
  assert_true(matmul);
  grtc_kernel_set_deinit(&kernels);
  grtc_tmodule_destroy(module);
}

// x [N, 1, 6, 6] -> Conv 3x3 (pads 1, bias) -> Relu -> MaxPool 2x2/2 ->
// GlobalAveragePool -> Flatten -> Gemm (transB, C).
static void build_cnn(model_t* m, const int64_t* x_dims) {
  model_init(m, 13);
  static const int64_t wc_dims[4] = {2, 1, 3, 3}, bc_dims[1] = {2}, wg_dims[2] = {3, 2},
                       cg_dims[1] = {3};
  static const int64_t pads[4] = {1, 1, 1, 1}, two[2] = {2, 2}, one = 1;
  model_input(m, "x", 4, x_dims);
  model_tensor(m, "wc", 1, 4, wc_dims, weights, 18 * sizeof(float));
  model_tensor(m, "bc", 1, 1, bc_dims, weights + 20, 2 * sizeof(float));
  model_tensor(m, "wg", 1, 2, wg_dims, weights + 30, 6 * sizeof(float));
  model_tensor(m, "cg", 1, 1, cg_dims, weights + 40, 3 * sizeof(float));
  Onnx__NodeProto* conv = model_node(m, "Conv", "x", "wc", "c");
  model_node_input(m, conv, "bc");
  model_attr(m, conv, "pads", true, 4, pads);
  model_node(m, "Relu", "c", NULL, "r");
  Onnx__NodeProto* pool = model_node(m, "MaxPool", "r", NULL, "p");
  model_attr(m, pool, "kernel_shape", true, 2, two);
  model_attr(m, pool, "strides", true, 2, two);
  model_node(m, "GlobalAveragePool", "p", NULL, "g");
  model_node(m, "Flatten", "g", NULL, "f");
  Onnx__NodeProto* gemm = model_node(m, "Gemm", "f", "wg", "y");
  model_node_input(m, gemm, "cg");
  model_attr(m, gemm, "transB", false, 1, &one);
  model_output(m, "y");
}

// Runs the CNN compiled for batch |n| (static) and for a symbolic batch on
// |x| through the kernel interpreter, and compares them.
static void run_cnn_both_ways(grtc_tmodule_t* symbolic, const grtc_kernel_set_t* kernels,
                              int64_t batch, int64_t n) {
  float* x = calloc((size_t)n * 36, sizeof(float));
  float* want = calloc((size_t)n * 3, sizeof(float));
  float* got = calloc((size_t)n * 3, sizeof(float));
  for (int64_t i = 0; i < n * 36; ++i) x[i] = (float)((i * 5) % 13 - 6) / 4.0f;
  char shape[32];
  snprintf(shape, sizeof(shape), "x:%lldx1x6x6", (long long)n);
  const char* shapes[1] = {shape};
  grtc_onnx_options_t options = {shapes, 1};
  model_t m;
  static const int64_t x_dims[4] = {-1, 1, 6, 6};
  build_cnn(&m, x_dims);
  grtc_tmodule_t* fixed = import_prepared(&m, &options);
  assert_true(grtc_ttype_is_static(&fixed->first_func->result_types[0]));
  grtc_kernel_set_t fixed_kernels;
  grtc_kernel_set_init(grt_allocator_system(), &fixed_kernels);
  grtc_dispatch_options_t dispatch = {2, 0, false};
  GRT_EXPECT_OK(grtc_dispatch_form(fixed, &dispatch, &fixed_kernels));
  void* args[1] = {x};
  void* results[1] = {want};
  GRT_EXPECT_OK(grtc_kinterp_run_func(fixed, &fixed_kernels, fixed->first_func, args, results));
  int64_t symbols[64] = {0};
  symbols[grtc_dim_symbol(batch)] = n;
  results[0] = got;
  GRT_EXPECT_OK(grtc_kinterp_run_func_symbolic(symbolic, kernels, symbolic->first_func, symbols,
                                               args, results));
  float largest = 0;
  for (int64_t i = 0; i < n * 3; ++i) {
    if (fabsf(want[i]) > largest) largest = fabsf(want[i]);
    if (fabsf(got[i] - want[i]) > 1e-5f * (1 + fabsf(want[i]))) {
      fprintf(stderr, "batch %lld element %lld: got %g, expected %g\n", (long long)n,
              (long long)i, got[i], want[i]);
      fail();
    }
  }
  assert_true(largest > 0);  // the comparison saw real values
  grtc_kernel_set_deinit(&fixed_kernels);
  grtc_tmodule_destroy(fixed);
  free(x);
  free(want);
  free(got);
}

static void symbolic_cnn(void** state) {
  (void)state;
  fill_weights();
  model_t m;
  static const int64_t x_dims[4] = {-1, 1, 6, 6};
  build_cnn(&m, x_dims);
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  int64_t batch = expect_batch_symbol(module, "-> (tensor<?s0x3xf32>)");
  char* text = print(module);
  assert_non_null(strstr(text, "stablehlo.convolution"));
  assert_non_null(strstr(text, "stablehlo.reduce_window"));
  assert_non_null(strstr(text, "tensor<?s0x2x3x3xf32>"));
  free(text);
  grtc_kernel_set_t kernels;
  grtc_kernel_set_init(grt_allocator_system(), &kernels);
  grtc_dispatch_options_t options = {2, 0, false};
  GRT_EXPECT_OK(grtc_dispatch_form(module, &options, &kernels));
  bool pool = false;
  for (uint32_t k = 0; k < kernels.count; ++k) {
    const grtc_kernel_t* kernel = kernels.kernels[k];
    if (kernel->pattern != GRTC_KPATTERN_POOL2D) continue;
    pool = true;
    assert_int_equal(kernel->pool.n, GRTC_KDIM_EXTENT(0));
  }
  assert_true(pool);
  run_cnn_both_ways(module, &kernels, batch, 1);
  run_cnn_both_ways(module, &kernels, batch, 3);
  grtc_kernel_set_deinit(&kernels);
  grtc_tmodule_destroy(module);
}

// torch.onnx.export's x.view(x.size(0), -1): Shape -> Gather -> Unsqueeze
// -> Concat with [-1] -> Reshape; the same with x.size(1) (static) too,
// and with a Slice of the shape (x.shape[:2]); and Reshape to the
// constants [0, -1] and [-1, 16]. Each keeps the batch
// symbol, and folding drops the shape chain.
static void symbolic_view(void** state) {
  (void)state;
  static const int64_t x_dims[4] = {-1, 2, 2, 4}, one = 1, zero = 0, minus_one = -1;
  static const int64_t shapes[2][2] = {{0, -1}, {-1, 16}};
  for (int form = 0; form < 5; ++form) {
    model_t m;
    model_init(&m, 13);
    model_input(&m, "x", 4, x_dims);
    if (form == 0) {
      model_tensor(&m, "zero", 7, 0, NULL, &zero, sizeof(zero));
      model_tensor(&m, "axes", 7, 1, &one, &zero, sizeof(zero));
      model_tensor(&m, "rest", 7, 1, &one, &minus_one, sizeof(minus_one));
      model_node(&m, "Shape", "x", NULL, "s");
      model_node(&m, "Gather", "s", "zero", "n");
      model_node(&m, "Unsqueeze", "n", "axes", "n1");
      Onnx__NodeProto* concat = model_node(&m, "Concat", "n1", "rest", "shape");
      model_attr(&m, concat, "axis", false, 1, &zero);
    } else if (form == 4) {
      // x.view(*x.shape[:2], -1): a Slice of the shape.
      static const int64_t two = 2;
      model_tensor(&m, "starts", 7, 1, &one, &zero, sizeof(zero));
      model_tensor(&m, "ends", 7, 1, &one, &two, sizeof(two));
      model_tensor(&m, "rest", 7, 1, &one, &minus_one, sizeof(minus_one));
      model_node(&m, "Shape", "x", NULL, "s");
      Onnx__NodeProto* slice = model_node(&m, "Slice", "s", "starts", "lead");
      model_node_input(&m, slice, "ends");
      Onnx__NodeProto* concat = model_node(&m, "Concat", "lead", "rest", "shape");
      model_attr(&m, concat, "axis", false, 1, &zero);
    } else if (form == 3) {
      // x.view(x.size(0), x.size(1), -1): size(1) is static, a constant.
      model_tensor(&m, "zero", 7, 0, NULL, &zero, sizeof(zero));
      model_tensor(&m, "one", 7, 0, NULL, &one, sizeof(one));
      model_tensor(&m, "axes", 7, 1, &one, &zero, sizeof(zero));
      model_tensor(&m, "rest", 7, 1, &one, &minus_one, sizeof(minus_one));
      model_node(&m, "Shape", "x", NULL, "s");
      model_node(&m, "Gather", "s", "zero", "n");
      model_node(&m, "Gather", "s", "one", "c");
      model_node(&m, "Unsqueeze", "n", "axes", "n1");
      model_node(&m, "Unsqueeze", "c", "axes", "c1");
      Onnx__NodeProto* concat = model_node(&m, "Concat", "n1", "c1", "shape");
      model_node_input(&m, concat, "rest");
      model_attr(&m, concat, "axis", false, 1, &zero);
    } else {
      int64_t two = 2;
      model_tensor(&m, "shape", 7, 1, &two, shapes[form - 1], sizeof(shapes[0]));
    }
    bool three_d = form >= 3;
    model_node(&m, "Reshape", "x", "shape", three_d ? "y" : "v");
    if (!three_d) model_node(&m, "Relu", "v", NULL, "y");
    model_output(&m, "y");
    grtc_tmodule_t* module = import_prepared(&m, NULL);
    expect_batch_symbol(module, three_d ? "-> (tensor<?s0x2x8xf32>)" : "-> (tensor<?s0x16xf32>)");
    char* text = print(module);
    assert_null(strstr(text, "get_dimension_size"));
    assert_null(strstr(text, "stablehlo.gather"));
    free(text);
    grtc_tmodule_destroy(module);
  }
}

// An embedding: Gather of a static table by symbolic indices [N, 2].
static void symbolic_gather(void** state) {
  (void)state;
  fill_weights();
  static const int64_t table_dims[2] = {5, 3}, index_dims[2] = {-1, 2};
  model_t m;
  model_init(&m, 13);
  model_input_of(&m, "ids", 7, 2, index_dims);
  model_tensor(&m, "table", 1, 2, table_dims, weights, 15 * sizeof(float));
  model_node(&m, "Gather", "table", "ids", "y");
  model_output(&m, "y");
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  expect_batch_symbol(module, "-> (tensor<?s0x2x3xf32>)");
  grtc_tmodule_destroy(module);

  // A table of a symbolic number of rows: negative ids wrap by the
  // extent read at the call.
  static const int64_t symbolic_table[2] = {-1, 3}, ids_dims[1] = {2};
  model_init(&m, 13);
  model_input(&m, "table", 2, symbolic_table);
  model_input_of(&m, "ids", 7, 1, ids_dims);
  model_node(&m, "Gather", "table", "ids", "y");
  model_output(&m, "y");
  module = import_prepared(&m, NULL);
  char* text = print(module);
  assert_non_null(strstr(text, "get_dimension_size"));
  assert_non_null(strstr(text, "stablehlo.gather"));
  assert_non_null(strstr(text, "-> (tensor<2x3xf32>)"));
  free(text);
  grtc_tmodule_destroy(module);

  // BERT's pooling: index 0 of axis 1 of [N, N, 4] (constant indices are
  // slices, whatever dimensions are symbolic).
  static const int64_t hidden_dims[3] = {-1, -1, 4};
  static const int64_t zero = 0;
  model_init(&m, 13);
  model_input(&m, "x", 3, hidden_dims);
  model_tensor(&m, "zero", 7, 0, NULL, &zero, sizeof(zero));
  Onnx__NodeProto* pool = model_node(&m, "Gather", "x", "zero", "y");
  int64_t one = 1;
  model_attr(&m, pool, "axis", false, 1, &one);
  model_output(&m, "y");
  module = import_prepared(&m, NULL);
  expect_batch_symbol(module, "-> (tensor<?s0x4xf32>)");
  grtc_tmodule_destroy(module);

  // Runtime indices into a table with a symbolic dimension other than the
  // gathered axis are refused.
  static const int64_t wide_table[2] = {5, -1};
  model_init(&m, 13);
  model_input(&m, "table", 2, wide_table);
  model_input_of(&m, "ids", 7, 1, ids_dims);
  model_node(&m, "Gather", "table", "ids", "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(Gather, opset 13)",
               "input 0 dimension 1 is symbolic",
               "other than the gathered axis only by constant indices", NULL);
}

// Concat along the symbolic batch: the result's is a symbol of its own
// (the sum, derived at the call), which the prepared module keeps.
static void symbolic_concat(void** state) {
  (void)state;
  static const int64_t batch[4] = {-1, 2, 2, 4};
  static const int64_t zero = 0;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 4, batch);
  Onnx__NodeProto* concat = model_node(&m, "Concat", "x", "x", "y");
  model_attr(&m, concat, "axis", false, 1, &zero);
  model_output(&m, "y");
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  const grtc_tfunc_t* func = module->first_func;
  int64_t n = func->body->args[0].type.dims[0];
  int64_t sum = grtc_tmodule_resolve_dim(module, func->result_types[0].dims[0]);
  assert_false(grtc_dim_is_static(n));
  assert_false(grtc_dim_is_static(sum));
  assert_int_not_equal(sum, n);
  const grtc_tsym_t* sym = &module->shapes->syms[grtc_dim_symbol(sum)];
  assert_int_equal(sym->origin, GRTC_SYM_RESULT);
  assert_non_null(sym->op);
  assert_int_equal(sym->op->kind, GRTC_TOP_CONCATENATE);
  assert_int_equal(sym->axis, 0);
  grtc_tmodule_destroy(module);
}

// Pad of the spatial dimensions of a symbolic batch (torch's avg_pool2d
// writes one), and attention's MatMuls over a symbolic sequence: the
// contraction of [N, S, 4] with [N, 4, S], then of [N, S, S] with [N, S, 4].
static void symbolic_pad_and_attention(void** state) {
  (void)state;
  static const int64_t x_dims[3] = {-1, 2, 4}, pads[6] = {0, 1, 0, 0, 1, 0}, four = 6;
  static const int64_t perm[3] = {0, 2, 1};
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 3, x_dims);
  model_tensor(&m, "pads", 7, 1, &four, pads, sizeof(pads));
  model_node(&m, "Pad", "x", "pads", "y");
  model_output(&m, "y");
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  expect_batch_symbol(module, "-> (tensor<?s0x4x4xf32>)");
  grtc_tmodule_destroy(module);

  // A padded batch is a symbol of its own (1 + N, derived at the call).
  static const int64_t padded_batch[6] = {1, 0, 0, 0, 0, 0};
  model_init(&m, 13);
  model_input(&m, "x", 3, x_dims);
  model_tensor(&m, "pads", 7, 1, &four, padded_batch, sizeof(padded_batch));
  model_node(&m, "Pad", "x", "pads", "y");
  model_output(&m, "y");
  module = import_prepared(&m, NULL);
  int64_t padded = grtc_tmodule_resolve_dim(module, module->first_func->result_types[0].dims[0]);
  assert_false(grtc_dim_is_static(padded));
  assert_int_not_equal(padded, module->first_func->body->args[0].type.dims[0]);
  const grtc_tsym_t* sym = &module->shapes->syms[grtc_dim_symbol(padded)];
  assert_int_equal(sym->origin, GRTC_SYM_RESULT);
  assert_non_null(sym->op);
  assert_int_equal(sym->op->kind, GRTC_TOP_PAD);
  grtc_tmodule_destroy(module);

  // Cropping it, or another mode, stays refused.
  static const int64_t cropped_batch[6] = {-1, 0, 0, 0, 0, 0};
  model_init(&m, 13);
  model_input(&m, "x", 3, x_dims);
  model_tensor(&m, "pads", 7, 1, &four, cropped_batch, sizeof(cropped_batch));
  model_node(&m, "Pad", "x", "pads", "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(Pad, opset 13)",
               "input 0 dimension 0 is symbolic",
               "grt pads symbolic dimensions only in 'constant' mode and without cropping", NULL);

  // Both N and S are "N" here (model_type names every symbol so): one
  // symbol, so the scores are [N, N, N].
  static const int64_t q_dims[3] = {-1, -1, 4};
  model_init(&m, 13);
  model_input(&m, "q", 3, q_dims);
  Onnx__NodeProto* transpose = model_node(&m, "Transpose", "q", NULL, "kt");
  model_attr(&m, transpose, "perm", true, 3, perm);
  model_node(&m, "MatMul", "q", "kt", "scores");
  model_node(&m, "Softmax", "scores", NULL, "p");
  model_node(&m, "MatMul", "p", "q", "y");
  model_output(&m, "y");
  module = import_prepared(&m, NULL);
  expect_batch_symbol(module, "-> (tensor<?s0x?s0x4xf32>)");
  grtc_tmodule_destroy(module);
}

// A class token expanded to the batch (Expand to [x.size(0), 1, 1]) and
// joined to the patches along a static axis; ConstantOfShape of the same
// shape (zeros) added to it.
static void symbolic_expand(void** state) {
  (void)state;
  fill_weights();
  static const int64_t x_dims[3] = {-1, 3, 4}, cls_dims[3] = {1, 1, 4}, one = 1, two = 2;
  static const int64_t zero = 0, ones[2] = {1, 1};
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 3, x_dims);
  model_tensor(&m, "zero", 7, 0, NULL, &zero, sizeof(zero));
  model_tensor(&m, "axes", 7, 1, &one, &zero, sizeof(zero));
  model_tensor(&m, "ones", 7, 1, &two, ones, sizeof(ones));
  model_tensor(&m, "cls", 1, 3, cls_dims, weights, 4 * sizeof(float));
  model_node(&m, "Shape", "x", NULL, "s");
  model_node(&m, "Gather", "s", "zero", "n");
  model_node(&m, "Unsqueeze", "n", "axes", "n1");
  Onnx__NodeProto* concat = model_node(&m, "Concat", "n1", "ones", "shape");
  model_attr(&m, concat, "axis", false, 1, &zero);
  model_node(&m, "Expand", "cls", "shape", "e");
  Onnx__NodeProto* join = model_node(&m, "Concat", "e", "x", "t");
  model_attr(&m, join, "axis", false, 1, &one);
  model_node(&m, "ConstantOfShape", "shape", NULL, "z");
  model_node(&m, "Add", "t", "z", "y");
  model_output(&m, "y");
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  expect_batch_symbol(module, "-> (tensor<?s0x4x4xf32>)");
  grtc_tmodule_destroy(module);
}

// BatchNormalization (inference), LayerNormalization over the last axis,
// ReduceMax over a static axis and LogSoftmax over the symbolic one; and
// the normalizations refusing a symbolic dimension they normalize over.
static void symbolic_norms(void** state) {
  (void)state;
  fill_weights();
  static const int64_t x_dims[3] = {-1, 2, 3}, two = 2, three = 3, one = 1, zero = 0;
  model_t m;
  model_init(&m, 17);
  model_input(&m, "x", 3, x_dims);
  model_tensor(&m, "scale", 1, 1, &two, weights, 2 * sizeof(float));
  model_tensor(&m, "bias", 1, 1, &two, weights + 2, 2 * sizeof(float));
  model_tensor(&m, "mean", 1, 1, &two, weights + 4, 2 * sizeof(float));
  model_tensor(&m, "var", 1, 1, &two, weights + 12, 2 * sizeof(float));  // positive
  model_tensor(&m, "gamma", 1, 1, &three, weights + 6, 3 * sizeof(float));
  Onnx__NodeProto* bn = model_node(&m, "BatchNormalization", "x", "scale", "b");
  model_node_input(&m, bn, "bias");
  model_node_input(&m, bn, "mean");
  model_node_input(&m, bn, "var");
  model_node(&m, "LayerNormalization", "b", "gamma", "l");
  Onnx__NodeProto* max = model_node(&m, "ReduceMax", "l", NULL, "r");
  model_attr(&m, max, "axes", true, 1, &one);
  model_attr(&m, max, "keepdims", false, 1, &zero);
  Onnx__NodeProto* softmax = model_node(&m, "LogSoftmax", "r", NULL, "y");
  model_attr(&m, softmax, "axis", false, 1, &zero);
  model_output(&m, "y");
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  expect_batch_symbol(module, "-> (tensor<?s0x3xf32>)");
  grtc_tmodule_destroy(module);

  model_init(&m, 17);
  model_input(&m, "x", 3, x_dims);
  model_tensor(&m, "gamma", 1, 1, &three, weights + 6, 3 * sizeof(float));
  Onnx__NodeProto* ln = model_node(&m, "LayerNormalization", "x", "gamma", "y");
  model_attr(&m, ln, "axis", false, 1, &zero);
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(LayerNormalization, opset 17)",
               "input 0 dimension 0 is symbolic",
               "grt imports LayerNormalization with symbolic dimensions in input X's dimensions "
               "before 'axis' (those not normalized over) only",
               NULL);
}

// ReduceMean over the symbolic batch and a static axis divides by the
// extent read at run time: run through the kernel interpreter at N = 3.
static void symbolic_reduce_mean(void** state) {
  (void)state;
  static const int64_t x_dims[3] = {-1, 2, 3}, axes[2] = {0, 2}, zero = 0;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 3, x_dims);
  Onnx__NodeProto* mean = model_node(&m, "ReduceMean", "x", NULL, "y");
  model_attr(&m, mean, "axes", true, 2, axes);
  model_attr(&m, mean, "keepdims", false, 1, &zero);
  model_output(&m, "y");
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  const grtc_tfunc_t* func = module->first_func;
  int64_t batch = func->body->args[0].type.dims[0];
  assert_false(grtc_dim_is_static(batch));
  assert_true(grtc_ttype_is_static(&func->result_types[0]));
  grtc_kernel_set_t kernels;
  grtc_kernel_set_init(grt_allocator_system(), &kernels);
  grtc_dispatch_options_t options = {2, 0, false};
  GRT_EXPECT_OK(grtc_dispatch_form(module, &options, &kernels));
  float x[18], got[2] = {0, 0}, want[2] = {0, 0};
  for (int i = 0; i < 18; ++i) {
    x[i] = (float)(i * 3 % 7);
    want[(i / 3) % 2] += x[i] / 9.0f;
  }
  int64_t symbols[64] = {0};
  symbols[grtc_dim_symbol(batch)] = 3;
  void* args[1] = {x};
  void* results[1] = {got};
  GRT_EXPECT_OK(grtc_kinterp_run_func_symbolic(module, &kernels, module->first_func, symbols,
                                               args, results));
  for (int i = 0; i < 2; ++i) assert_true(fabsf(got[i] - want[i]) < 1e-5f);
  grtc_kernel_set_deinit(&kernels);
  grtc_tmodule_destroy(module);
}

// Slice of a tensor with a symbolic batch (x[:, :, 2:5], the whole batch
// as exporters write it: [0, INT64_MAX)) crops with negative padding: run
// through the kernel interpreter at N = 3. A part of the batch is refused.
static void symbolic_slice(void** state) {
  (void)state;
  static const int64_t x_dims[3] = {-1, 2, 6}, two = 2, one = 1;
  static const int64_t starts[2] = {0, 2}, ends[2] = {INT64_MAX, 5}, axes[2] = {0, 2};
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 3, x_dims);
  model_tensor(&m, "starts", 7, 1, &two, starts, sizeof(starts));
  model_tensor(&m, "ends", 7, 1, &two, ends, sizeof(ends));
  model_tensor(&m, "axes", 7, 1, &two, axes, sizeof(axes));
  Onnx__NodeProto* slice = model_node(&m, "Slice", "x", "starts", "y");
  model_node_input(&m, slice, "ends");
  model_node_input(&m, slice, "axes");
  model_output(&m, "y");
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  int64_t batch = expect_batch_symbol(module, "-> (tensor<?s0x2x3xf32>)");
  grtc_kernel_set_t kernels;
  grtc_kernel_set_init(grt_allocator_system(), &kernels);
  grtc_dispatch_options_t options = {2, 0, false};
  GRT_EXPECT_OK(grtc_dispatch_form(module, &options, &kernels));
  float x[36], got[18], want[18];
  for (int i = 0; i < 36; ++i) x[i] = (float)i;
  for (int i = 0; i < 18; ++i) want[i] = x[(i / 3) * 6 + 2 + i % 3];
  int64_t symbols[64] = {0};
  symbols[grtc_dim_symbol(batch)] = 3;
  void* args[1] = {x};
  void* results[1] = {got};
  GRT_EXPECT_OK(grtc_kinterp_run_func_symbolic(module, &kernels, module->first_func, symbols,
                                               args, results));
  for (int i = 0; i < 18; ++i) assert_true(got[i] == want[i]);
  grtc_kernel_set_deinit(&kernels);
  grtc_tmodule_destroy(module);

  model_init(&m, 13);
  model_input(&m, "x", 3, x_dims);
  model_tensor(&m, "starts", 7, 1, &one, &one, sizeof(one));
  model_tensor(&m, "ends", 7, 1, &one, &ends[0], sizeof(ends[0]));
  slice = model_node(&m, "Slice", "x", "starts", "y");
  model_node_input(&m, slice, "ends");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(Slice, opset 13)",
               "input 0 dimension 0 is symbolic", "grt slices a symbolic dimension only whole",
               NULL);
}

// Reshape's -1 and Flatten merging or splitting the symbolic batch with
// other dimensions (x.view(-1), x.view(-1, 8) and Flatten(axis=2) of
// [N, 2, 2, 4], the last two 2N x 8): dynamic_reshapes whose result
// extents are computed at the call (a symbol with an expression each).
static void symbolic_merge(void** state) {
  (void)state;
  static const int64_t x_dims[4] = {-1, 2, 2, 4}, two = 2, one = 1, flat = -1;
  static const int64_t rows[2] = {-1, 8};
  for (int form = 0; form < 3; ++form) {
    model_t m;
    model_init(&m, 13);
    model_input(&m, "x", 4, x_dims);
    if (form == 0) {
      model_tensor(&m, "shape", 7, 1, &one, &flat, sizeof(flat));
      model_node(&m, "Reshape", "x", "shape", "y");
    } else if (form == 1) {
      model_tensor(&m, "shape", 7, 1, &two, rows, sizeof(rows));
      model_node(&m, "Reshape", "x", "shape", "y");
    } else {
      Onnx__NodeProto* flatten = model_node(&m, "Flatten", "x", NULL, "y");
      model_attr(&m, flatten, "axis", false, 1, &two);
    }
    model_output(&m, "y");
    grtc_tmodule_t* module = import_prepared(&m, NULL);
    const grtc_tfunc_t* func = module->first_func;
    int64_t batch = func->body->args[0].type.dims[0];
    int64_t result = grtc_tmodule_resolve_dim(module, func->result_types[0].dims[0]);
    assert_false(grtc_dim_is_static(result));
    assert_true(result != grtc_tmodule_resolve_dim(module, batch));
    assert_int_equal(func->result_types[0].rank, form == 0 ? 1 : 2);
    if (form) assert_int_equal(func->result_types[0].dims[1], 8);  // 2N x 8 both
    // Its extent: a symbol with an expression, computed at the call.
    bool computed = false;
    for (uint32_t id = 0; id < module->shapes->sym_count; ++id) {
      computed |= module->shapes->syms[id].expr != NULL &&
                  grtc_tmodule_resolve_dim(module, GRTC_DIM_SYMBOL(id)) == result;
    }
    assert_true(computed);
    grtc_tmodule_destroy(module);
  }
}

// torch's multi-head attention reshapes with a shape it computes from the
// batch: Shape, Gather, Mul by the heads, Unsqueeze, Concat, Reshape to
// [N * 2, 3, 4] of [N, 6, 4]; then back with a -1 ([-1, 24]) and to the
// batch read from the first input ([x.size(0), 24]) of a tensor whose rows
// are a computed extent. Each is a dynamic_reshape whose extents the host
// program computes; so is one read from a graph input's data.
static void symbolic_multiply(void** state) {
  (void)state;
  static const int64_t x_dims[3] = {-1, 6, 4}, zero = 0, two = 2, three = 3, two_dims = 2;
  static const int64_t tail[2] = {3, 4}, minus_one = -1, width = 24;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 3, x_dims);
  model_tensor(&m, "zero", 7, 0, NULL, &zero, sizeof(zero));
  model_tensor(&m, "heads", 7, 0, NULL, &two, sizeof(two));
  model_tensor(&m, "axes", 7, 1, &(int64_t){1}, &zero, sizeof(zero));
  model_tensor(&m, "tail", 7, 1, &two_dims, tail, sizeof(tail));
  model_tensor(&m, "minus_one", 7, 1, &(int64_t){1}, &minus_one, sizeof(minus_one));
  model_tensor(&m, "width", 7, 1, &(int64_t){1}, &width, sizeof(width));
  model_node(&m, "Shape", "x", NULL, "s");
  Onnx__NodeProto* gather = model_node(&m, "Gather", "s", "zero", "n");
  model_attr(&m, gather, "axis", false, 1, &zero);
  model_node(&m, "Mul", "n", "heads", "nh");
  model_node(&m, "Unsqueeze", "nh", "axes", "nh1");
  Onnx__NodeProto* concat = model_node(&m, "Concat", "nh1", "tail", "split_shape");
  model_attr(&m, concat, "axis", false, 1, &zero);
  model_node(&m, "Reshape", "x", "split_shape", "split");
  concat = model_node(&m, "Concat", "minus_one", "width", "merge_shape");
  model_attr(&m, concat, "axis", false, 1, &zero);
  model_node(&m, "Reshape", "split", "merge_shape", "merged");
  model_node(&m, "Unsqueeze", "n", "axes", "n1");
  concat = model_node(&m, "Concat", "n1", "width", "batch_shape");
  model_attr(&m, concat, "axis", false, 1, &zero);
  model_node(&m, "Reshape", "merged", "batch_shape", "y");
  model_output(&m, "split");
  model_output(&m, "y");
  grtc_tmodule_t* module = import_prepared(&m, NULL);
  const grtc_tfunc_t* func = module->first_func;
  int64_t batch = grtc_tmodule_resolve_dim(module, func->body->args[0].type.dims[0]);
  // split: [2N, 3, 4], its rows a computed extent 2 * N.
  const grtc_ttype_t* split = &func->result_types[0];
  assert_int_equal(split->rank, 3);
  assert_int_equal(split->dims[1], 3);
  assert_int_equal(split->dims[2], 4);
  int64_t rows = grtc_tmodule_resolve_dim(module, split->dims[0]);
  assert_false(grtc_dim_is_static(rows));
  assert_true(rows != batch);
  const grtc_sexpr_t* expr = module->shapes->syms[grtc_dim_symbol(rows)].expr;
  assert_non_null(expr);
  assert_int_equal(expr->kind, GRTC_SEXPR_MUL);
  // y: [N, 24], the batch itself.
  const grtc_ttype_t* y = &func->result_types[1];
  assert_int_equal(y->rank, 2);
  assert_int_equal(grtc_tmodule_resolve_dim(module, y->dims[0]), batch);
  assert_int_equal(y->dims[1], 24);
  grtc_tmodule_destroy(module);

  // A shape read from an input's data: each result dimension a computed
  // extent whose expression reads argument 1 (docs/compiler.md "Shapes
  // read from data").
  model_init(&m, 13);
  model_input(&m, "x", 3, x_dims);
  model_input_of(&m, "shape", 7, 1, &three);
  model_node(&m, "Reshape", "x", "shape", "y");
  model_output(&m, "y");
  module = import_prepared(&m, NULL);
  func = module->first_func;
  const grtc_ttype_t* read = &func->result_types[0];
  assert_int_equal(read->rank, 3);
  for (uint32_t i = 0; i < 3; ++i) {
    int64_t dim = grtc_tmodule_resolve_dim(module, read->dims[i]);
    assert_false(grtc_dim_is_static(dim));
    const grtc_sexpr_t* data = module->shapes->syms[grtc_dim_symbol(dim)].expr;
    assert_true(grtc_sexpr_reads_data(data));
    assert_ptr_equal(grtc_sexpr_data_argument(data), &func->body->args[1]);
  }
  grtc_tmodule_destroy(module);
}

// Ops that still take static shapes, or symbolic dimensions they cannot
// express, name the dimension and the flag.
static void symbolic_refusals(void** state) {
  (void)state;
  static const int64_t batch[4] = {-1, 2, 2, 4}, channels[4] = {1, -1, 6, 6};
  static const int64_t sixteen = 16, one = 1;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 4, batch);
  // [16] (no -1) would need the batch to be 1.
  model_tensor(&m, "shape", 7, 1, &one, &sixteen, sizeof(sixteen));
  model_node(&m, "Reshape", "x", "shape", "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_UNIMPLEMENTED, "(Reshape, opset 13)",
               "cannot reshape tensor<?x2x2x4xf32>", "never in a product",
               "--onnx-input-shape", NULL);



  model_init(&m, 13);
  static const int64_t w_dims[4] = {2, 1, 3, 3};
  fill_weights();
  model_input(&m, "x", 4, channels);
  model_tensor(&m, "w", 1, 4, w_dims, weights, 18 * sizeof(float));
  model_node(&m, "Conv", "x", "w", "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(Conv, opset 13)",
               "input 0 dimension 1 is symbolic (s0 'N': argument 0 dimension 1 of @main)",
               "grt imports Conv with symbolic dimensions in the batch (input 0 dimension 0) "
               "only",
               "--onnx-input-shape=NAME:<dims>", NULL);
}

static void raw_data_size_is_checked(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  static const float values[3] = {1, 2, 3};
  int64_t three = 3;
  model_input(&m, "x", 1, &three);
  model_initializer(&m, "w", 3, values, 8);  // 2 floats for 3 elements
  model_node(&m, "Add", "x", "w", "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "tensor 'w'", "8 bytes of raw_data",
               "expected 12", NULL);
}

static void output_type_is_checked(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  model_node(&m, "Relu", "x", NULL, "y");
  model_output(&m, "y");
  int64_t dims[2] = {2, 4};
  m.outputs[0].type = model_type(&m, 1, 2, dims);
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "graph output 'y'", "dimension 1 = 4",
               "computes tensor<2x3xf32>", NULL);
  m.outputs[0].type = model_type(&m, 7, 2, k2x3);
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "declared INT64", NULL);
}

static void external_data(void** state) {
  (void)state;
  char dir[] = "/tmp/grt_onnx_test_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof(path), "%s/w.bin", dir);
  FILE* f = fopen(path, "wb");
  assert_non_null(f);
  static const float values[4] = {0, 1, 2, 3};  // the tensor is values[1..3]
  assert_int_equal(fwrite(values, sizeof(values), 1, f), 1);
  fclose(f);
  char model_path[256];
  snprintf(model_path, sizeof(model_path), "%s/m.onnx", dir);

  model_t m;
  model_init(&m, 13);
  int64_t three = 3;
  model_input(&m, "x", 1, &three);
  Onnx__TensorProto* t = model_initializer(&m, "w", 3, NULL, 0);
  t->has_raw_data = 0;
  t->has_data_location = 1;
  t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  Onnx__StringStringEntryProto entries[3];
  Onnx__StringStringEntryProto* entry_ptrs[3] = {&entries[0], &entries[1], &entries[2]};
  for (int i = 0; i < 3; ++i) onnx__string_string_entry_proto__init(&entries[i]);
  entries[0].key = "location";
  entries[0].value = "w.bin";
  entries[1].key = "offset";
  entries[1].value = "4";
  entries[2].key = "length";
  entries[2].value = "12";
  t->n_external_data = 3;
  t->external_data = entry_ptrs;
  model_node(&m, "Add", "x", "w", "y");
  model_output(&m, "y");

  size_t size = 0;
  uint8_t* bytes = model_pack(&m, &size);
  grtc_tmodule_t* module = NULL;
  GRT_EXPECT_OK(grtc_onnx_import(bytes, size, model_path, NULL, grt_allocator_system(), &module));
  // The constant holds the bytes at offset 4.
  bool found = false;
  for (grtc_top_t* op = module->first_func->body->first; op; op = op->next) {
    if (op->kind != GRTC_TOP_CONSTANT) continue;
    assert_int_equal(op->attrs.constant.size, 12);
    assert_memory_equal(op->attrs.constant.data, &values[1], 12);
    found = true;
  }
  assert_true(found);
  grtc_tmodule_destroy(module);
  free(bytes);

  // A path outside the model's folder is refused.
  entries[0].value = "../w.bin";
  bytes = model_pack(&m, &size);
  grt_status_t status =
      grtc_onnx_import(bytes, size, model_path, NULL, grt_allocator_system(), &module);
  assert_non_null(strstr(grt_status_message(status), "must be a relative path inside"));
  grt_status_free(status);
  free(bytes);
  // Too short a file.
  entries[0].value = "w.bin";
  entries[1].value = "8";
  entries[2].value = "12";
  bytes = model_pack(&m, &size);
  status = grtc_onnx_import(bytes, size, model_path, NULL, grt_allocator_system(), &module);
  assert_non_null(strstr(grt_status_message(status), "fewer than offset 8 + 12 bytes"));
  grt_status_free(status);
  free(bytes);
  // A missing file names it.
  entries[0].value = "missing.bin";
  entries[1].value = "0";
  bytes = model_pack(&m, &size);
  status = grtc_onnx_import(bytes, size, model_path, NULL, grt_allocator_system(), &module);
  assert_non_null(strstr(grt_status_message(status), "cannot open external data file"));
  assert_non_null(strstr(grt_status_message(status), "missing.bin"));
  grt_status_free(status);
  free(bytes);
  // A wrong length.
  entries[0].value = "w.bin";
  entries[2].value = "16";
  bytes = model_pack(&m, &size);
  status = grtc_onnx_import(bytes, size, model_path, NULL, grt_allocator_system(), &module);
  assert_non_null(strstr(grt_status_message(status), "'length' is 16 bytes"));
  grt_status_free(status);
  free(bytes);

  unlink(path);
  rmdir(dir);
}

static void unsupported_element_type_is_named(void** state) {
  (void)state;
  model_t m;
  model_init(&m, 13);
  model_input(&m, "x", 2, k2x3);
  m.tensor_types[0].elem_type = 8;  // STRING
  model_node(&m, "Identity", "x", NULL, "y");
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_UNIMPLEMENTED, "graph input 'x'", "STRING", NULL);
}

// MatMulInteger's operands: 8-bit integers of rank >= 1, zero points of
// their type that are scalars or one per row (a) or column (b).
static void matmul_integer_errors(void** state) {
  (void)state;
  int64_t a_dims[2] = {2, 3}, b_dims[2] = {3, 2}, three = 3;
  struct {
    int32_t a_elem, zero_elem;
    uint32_t zero_rank;
    uint32_t a_rank;
    const char* message;
  } cases[] = {
      {1, 0, 0, 2, "expected an int8 or uint8 tensor, got tensor<2x3xf32>"},
      {2, 3, 0, 2, "zero point tensor<i8> does not fit input tensor<2x3xui8>"},
      {3, 3, 1, 2, "zero point tensor<3xi8> does not fit input tensor<2x3xi8>"},
      {3, 0, 0, 0, "MatMulInteger operands must have rank >= 1"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    model_t m;
    model_init(&m, 13);
    model_input(&m, "a", cases[i].a_rank, a_dims);
    m.tensor_types[0].elem_type = cases[i].a_elem;
    model_input(&m, "b", 2, b_dims);
    m.tensor_types[1].elem_type = 3;
    Onnx__NodeProto* node = model_node(&m, "MatMulInteger", "a", "b", "y");
    if (cases[i].zero_elem) {
      model_input(&m, "za", cases[i].zero_rank, &three);
      m.tensor_types[2].elem_type = cases[i].zero_elem;
      node->input[node->n_input++] = "za";
    }
    model_output(&m, "y");
    expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(MatMulInteger, opset 13)",
                 cases[i].message, NULL);
  }
}

// ConvInteger's operands: 8-bit integers, x of rank >= 3, x's zero point a
// scalar, w's a scalar or one per output channel, each of its input's type.
static void conv_integer_errors(void** state) {
  (void)state;
  int64_t x_dims[4] = {1, 2, 4, 4}, w_dims[4] = {3, 2, 3, 3}, two = 2, one = 1;
  struct {
    int32_t x_elem, w_elem;
    uint32_t x_rank;
    uint32_t zx_rank, zw_rank;  // 0: scalar; 1: a vector of 2
    const char* message;
  } cases[] = {
      {1, 3, 4, 0, 0, "expected an int8 or uint8 tensor, got tensor<1x2x4x4xf32>"},
      {3, 1, 4, 0, 0, "expected an int8 or uint8 tensor, got tensor<3x2x3x3xf32>"},
      {3, 3, 4, 1, 0, "zero point tensor<2xi8> does not fit input tensor<1x2x4x4xi8>"},
      {3, 3, 4, 0, 1, "zero point tensor<2xi8> does not fit input tensor<3x2x3x3xi8>"},
      {3, 3, 2, 0, 0, "input X"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    model_t m;
    model_init(&m, 13);
    model_input(&m, "x", cases[i].x_rank, x_dims);
    m.tensor_types[0].elem_type = cases[i].x_elem;
    model_input(&m, "w", 4, w_dims);
    m.tensor_types[1].elem_type = cases[i].w_elem;
    model_input(&m, "zx", cases[i].zx_rank, cases[i].zx_rank ? &two : &one);
    m.tensor_types[2].elem_type = 3;
    model_input(&m, "zw", cases[i].zw_rank, cases[i].zw_rank ? &two : &one);
    m.tensor_types[3].elem_type = 3;
    Onnx__NodeProto* node = model_node(&m, "ConvInteger", "x", "w", "y");
    node->input[node->n_input++] = "zx";
    node->input[node->n_input++] = "zw";
    model_output(&m, "y");
    expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(ConvInteger, opset 13)",
                 cases[i].message, NULL);
  }
}

// Whether a line of |text| holds both |op| and |part|.
static bool has_line(const char* text, const char* op, const char* part) {
  for (const char* line = text; line && *line;) {
    const char* end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    char buffer[1024];
    if (length >= sizeof(buffer)) length = sizeof(buffer) - 1;
    memcpy(buffer, line, length);
    buffer[length] = 0;
    if (strstr(buffer, op) && strstr(buffer, part)) return true;
    line = end ? end + 1 : NULL;
  }
  return false;
}

// QDQ: Conv and MatMul of DequantizeLinear results (uint8 data per
// tensor, int8 weights) import as i8 x i8 -> i32 ops; data quantized per
// channel stays an f32 convolution.
static void qdq_folds_onto_integer_ops(void** state) {
  (void)state;
  int64_t conv_x[4] = {1, 2, 4, 4}, conv_w[4] = {3, 2, 3, 3};
  int64_t mm_a[2] = {2, 3}, mm_b[2] = {3, 4}, two = 2, one_axis = 1;
  static const float kScale = 0.5f, kScales[2] = {0.5f, 0.25f};
  struct {
    const char* op;
    const int64_t *x_dims, *w_dims;
    uint32_t rank;
    bool per_axis_x;
    const char *want, *op_line;
  } cases[] = {
      {"Conv", conv_x, conv_w, 4, false, "xi8>, tensor<", "stablehlo.convolution"},
      {"MatMul", mm_a, mm_b, 2, false, "xi8>, tensor<", "stablehlo.dot_general"},
      {"Conv", conv_x, conv_w, 4, true, "xf32>, tensor<", "stablehlo.convolution"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    model_t m;
    model_init(&m, 13);
    model_input(&m, "x", cases[i].rank, cases[i].x_dims);
    m.tensor_types[0].elem_type = 2;  // uint8
    model_input(&m, "w", cases[i].rank, cases[i].w_dims);
    m.tensor_types[1].elem_type = 3;  // int8
    if (cases[i].per_axis_x) {
      model_tensor(&m, "sx", 1, 1, &two, kScales, sizeof(kScales));
    } else {
      model_tensor(&m, "sx", 1, 0, NULL, &kScale, sizeof(kScale));
    }
    model_tensor(&m, "sw", 1, 0, NULL, &kScale, sizeof(kScale));
    Onnx__NodeProto* dx = model_node(&m, "DequantizeLinear", "x", "sx", "xf");
    if (cases[i].per_axis_x) model_attr(&m, dx, "axis", false, 1, &one_axis);
    model_node(&m, "DequantizeLinear", "w", "sw", "wf");
    model_node(&m, cases[i].op, "xf", "wf", "y");
    model_output(&m, "y");
    grtc_tmodule_t* module = NULL;
    GRT_EXPECT_OK(import_model(&m, NULL, &module));
    GRT_EXPECT_OK(grtc_tensor_verify(module));
    char* text = print(module);
    bool folded = strcmp(cases[i].want, "xi8>, tensor<") == 0;
    if (!has_line(text, cases[i].op_line, cases[i].want) ||
        has_line(text, cases[i].op_line, folded ? "xf32>, tensor<" : "xi8>, tensor<")) {
      fprintf(stderr, "case %zu: expected %s on %s lines only:\n%s\n", i, cases[i].want,
              cases[i].op_line, text);
      fail();
    }
    if (folded) assert_true(has_line(text, cases[i].op_line, "xi32>"));
    free(text);
    grtc_tmodule_destroy(module);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(relu_add_imports),
      cmocka_unit_test(initializer_inputs_and_broadcast),
      cmocka_unit_test(shape_override_pins_symbolic_dims),
      cmocka_unit_test(recognizes_input),
      cmocka_unit_test(lists_supported_ops),
      cmocka_unit_test(corrupt_files_are_errors),
      cmocka_unit_test(missing_graph_is_an_error),
      cmocka_unit_test(unknown_op_names_node_type_domain_opset),
      cmocka_unit_test(opset_outside_range_is_an_error),
      cmocka_unit_test(undefined_input_is_an_error),
      cmocka_unit_test(duplicate_definition_is_an_error),
      cmocka_unit_test(wrong_input_count_is_an_error),
      cmocka_unit_test(absent_required_input_is_an_error),
      cmocka_unit_test(incompatible_shapes_are_an_error),
      cmocka_unit_test(symbolic_dims),
      cmocka_unit_test(symbolic_mlp),
      cmocka_unit_test(symbolic_cnn),
      cmocka_unit_test(symbolic_view),
      cmocka_unit_test(symbolic_gather),
    cmocka_unit_test(symbolic_concat),
      cmocka_unit_test(symbolic_expand),
      cmocka_unit_test(symbolic_norms),
      cmocka_unit_test(symbolic_reduce_mean),
      cmocka_unit_test(symbolic_slice),
      cmocka_unit_test(symbolic_pad_and_attention),
      cmocka_unit_test(symbolic_merge),
      cmocka_unit_test(symbolic_multiply),
      cmocka_unit_test(symbolic_refusals),
      cmocka_unit_test(raw_data_size_is_checked),
      cmocka_unit_test(output_type_is_checked),
      cmocka_unit_test(external_data),
      cmocka_unit_test(unsupported_element_type_is_named),
      cmocka_unit_test(matmul_integer_errors),
      cmocka_unit_test(conv_integer_errors),
      cmocka_unit_test(qdq_folds_onto_integer_ops),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

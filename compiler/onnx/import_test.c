// Tests for the ONNX importer: models built here with the generated
// protobuf-c structs and packed to bytes, so each test states exactly what
// the file holds. Covers the graph rules (inputs that are initializers,
// optional inputs, Constant/Identity, outputs in order), content
// recognition, --onnx-input-shape, external data, and every error path the
// importer reports, each checked for the text it promises.
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
  Onnx__NodeProto nodes[8];
  Onnx__NodeProto* node_ptrs[8];
  char* node_inputs[8][4];
  char* node_outputs[8][2];
  Onnx__ValueInfoProto inputs[4], outputs[4];
  Onnx__ValueInfoProto* input_ptrs[4];
  Onnx__ValueInfoProto* output_ptrs[4];
  Onnx__TypeProto types[8];
  Onnx__TypeProto__Tensor tensor_types[8];
  Onnx__TensorShapeProto shapes[8];
  Onnx__TensorShapeProto__Dimension dims[8][4];
  Onnx__TensorShapeProto__Dimension* dim_ptrs[8][4];
  Onnx__TensorProto initializers[4];
  Onnx__TensorProto* initializer_ptrs[4];
  int64_t initializer_dims[4][4];
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

static void model_input(model_t* m, const char* name, uint32_t rank, const int64_t* dims) {
  Onnx__ValueInfoProto* v = &m->inputs[m->graph.n_input];
  onnx__value_info_proto__init(v);
  v->name = (char*)name;
  v->type = model_type(m, 1, rank, dims);
  m->input_ptrs[m->graph.n_input++] = v;
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
  Onnx__NodeProto* node = model_node(&m, "Transpose", "x", NULL, "y");
  (void)node;
  model_output(&m, "y");
  expect_error(&m, NULL, GRT_STATUS_INVALID_ARGUMENT, "(Transpose, opset 13)",
               "input 0 dimension 0 is symbolic (s0 'N': argument 0 dimension 0 of @main)",
               "grt imports Transpose with static shapes only",
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
      cmocka_unit_test(incompatible_shapes_are_an_error),
      cmocka_unit_test(symbolic_dims),
      cmocka_unit_test(raw_data_size_is_checked),
      cmocka_unit_test(output_type_is_checked),
      cmocka_unit_test(external_data),
      cmocka_unit_test(unsupported_element_type_is_named),
      cmocka_unit_test(matmul_integer_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

// ONNX ops: If, Loop, Scan and the recurrent ops (LSTM, GRU, RNN).
//
// If becomes stablehlo.if (or, with a constant condition, the taken
// branch imported in place); Loop becomes stablehlo.while carrying the
// iteration number, the condition, the loop-carried values and buffers for
// the scan outputs; Scan becomes a stablehlo.while that slices its inputs
// and writes its outputs at the iteration number. The recurrent ops are
// unrolled over short sequences and a stablehlo.while per direction over
// longer ones.
#include <string.h>

#include "compiler/onnx/internal.h"



// The graph attribute |name|; an error when absent or not a graph.
static const Onnx__GraphProto* grtc_onnx_attr_graph(grtc_onnx_node_t* n, const char* name) {
  const Onnx__AttributeProto* a = grtc_onnx_attr(n, name);
  if (!a || !a->g || (a->has_type && a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)) {
    grtc_onnx_fail(n, grtc_onnx_error(n, "attribute '%s' (a graph) is required", name));
    return NULL;
  }
  return a->g;
}

// Replaces every operand |from| by |to| in |block| and its nested regions.
static void grtc_onnx_replace_in(grtc_tblock_t* block, grtc_tvalue_t* from, grtc_tvalue_t* to) {
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      if (op->operands[i] == from) op->operands[i] = to;
    }
    for (uint32_t i = 0; i < op->region_count; ++i) {
      if (op->regions[i]) grtc_onnx_replace_in(op->regions[i], from, to);
    }
  }
}

// Imports |graph| into a detached block with arguments |arg_types| (its
// inputs in order). Returns the block; its last op is the YIELD of the
// graph's outputs.
static grtc_tblock_t* grtc_onnx_import_graph(grtc_onnx_node_t* n, const Onnx__GraphProto* graph,
                                             const grtc_ttype_t* arg_types, uint32_t arg_count) {
  if (!graph || !grtc_onnx_ok(n)) return NULL;
  if (graph->n_input != arg_count) {
    grtc_onnx_fail(n, grtc_onnx_error(n, "the sub-graph '%s' has %zu inputs, expected %u",
                                        graph->name ? graph->name : "", graph->n_input, arg_count));
    return NULL;
  }
  grtc_tblock_t* block = NULL;
  grt_status_t status = grtc_tblock_create(n->module, arg_types, arg_count, &block);
  if (grt_status_is_ok(status)) status = grtc_onnx_import_subgraph(n, graph, block);
  if (!grt_status_is_ok(status)) {
    grtc_onnx_fail(n, status);
    return NULL;
  }
  if (!block->last || block->last->kind != GRTC_TOP_YIELD) {
    grtc_onnx_fail(n, grtc_onnx_error(n, "the sub-graph did not end in its outputs"));
    return NULL;
  }
  return block;
}

// Moves |from|'s ops but its final YIELD to the end of |to|, with uses of
// |from|'s argument i replaced by |args|[i]. Returns the YIELD's operands
// (|from| keeps the YIELD).
static grtc_tvalue_t** grtc_onnx_move_ops(grtc_tblock_t* from, grtc_tblock_t* to,
                                          grtc_tvalue_t* const* args, uint32_t* out_count) {
  grtc_top_t* yield = from->last;
  for (uint32_t i = 0; i < from->arg_count; ++i) {
    grtc_onnx_replace_in(from, &from->args[i], args[i]);
  }
  while (from->first && from->first != yield) {
    grtc_top_t* op = from->first;
    grtc_top_unlink(op);
    grtc_tblock_append(to, op);
  }
  *out_count = yield->operand_count;
  return yield->operands;
}

// |v| as a rank-0 i1 (a bool tensor of one element).
static grtc_tvalue_t* grtc_onnx_scalar_bool(grtc_onnx_node_t* n, grtc_tvalue_t* v,
                                            const char* what) {
  if (!v) return NULL;
  if (v->type.elem != GRTC_ELEM_I1 || grtc_ttype_element_count(&v->type) != 1) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    grtc_onnx_fail(n, grtc_onnx_error(n, "%s must be one bool, got %s", what,
                                        grtc_onnx_fmt_type(&v->type, buffer)));
    return NULL;
  }
  return grtc_onnx_reshape(n, v, 0, NULL);
}

// A YIELD of |values| appended to |block|.
static bool grtc_onnx_yield_in(grtc_onnx_node_t* n, grtc_tblock_t* block,
                               grtc_tvalue_t* const* values, uint32_t count) {
  grtc_tblock_t* saved = n->block;
  n->block = block;
  grtc_top_t* yield = grtc_onnx_op_full(n, GRTC_TOP_YIELD, values, count, NULL, 0, 0);
  n->block = saved;
  return yield != NULL;
}

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_if(grtc_onnx_node_t* n) {
  grtc_tvalue_t* cond = grtc_onnx_scalar_bool(n, grtc_onnx_input(n, 0), "the condition");
  const Onnx__GraphProto* then_graph = grtc_onnx_attr_graph(n, "then_branch");
  const Onnx__GraphProto* else_graph = grtc_onnx_attr_graph(n, "else_branch");
  if (!cond || !then_graph || !else_graph) return grt_ok_status();
  if (then_graph->n_output != n->output_count || else_graph->n_output != n->output_count) {
    return grtc_onnx_error(n, "the branches have %zu and %zu outputs; the node has %u",
                           then_graph->n_output, else_graph->n_output, n->output_count);
  }
  if (n->output_count > 64) return grtc_onnx_unsupported(n, "more than 64 outputs");
  if (grtc_onnx_is_constant(cond)) {
    // Only the taken branch is imported, in place: the other may not even
    // be valid for these shapes (exporters guard shape-specific code so).
    int64_t* taken = NULL;
    uint32_t count = 0;
    if (!grtc_onnx_ints(n, cond, "the condition", &taken, &count)) return grt_ok_status();
    grtc_tblock_t* block = grtc_onnx_import_graph(n, taken[0] ? then_graph : else_graph, NULL, 0);
    if (!block) return grt_ok_status();
    uint32_t results = 0;
    grtc_tvalue_t** values = grtc_onnx_move_ops(block, n->block, NULL, &results);
    for (uint32_t i = 0; i < results && i < n->output_count; ++i) OUT(i) = values[i];
    return grt_ok_status();
  }
  grtc_tblock_t* branches[2] = {grtc_onnx_import_graph(n, then_graph, NULL, 0),
                                grtc_onnx_import_graph(n, else_graph, NULL, 0)};
  if (!branches[0] || !branches[1]) return grt_ok_status();
  grtc_ttype_t types[64];
  for (uint32_t i = 0; i < n->output_count; ++i) {
    const grtc_ttype_t* a = &branches[0]->last->operands[i]->type;
    const grtc_ttype_t* b = &branches[1]->last->operands[i]->type;
    if (!grtc_ttype_equal(a, b)) {
      char ba[GRTC_TTYPE_FORMAT_CAPACITY], bb[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_onnx_unsupported(n,
                                   "output %u is %s in then_branch but %s in else_branch; "
                                   "grt needs one static type",
                                   i, grtc_onnx_fmt_type(a, ba), grtc_onnx_fmt_type(b, bb));
    }
    types[i] = *a;
  }
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_IF, &cond, 1, types, n->output_count, 2);
  if (!op) return grt_ok_status();
  for (uint32_t r = 0; r < 2; ++r) {
    grtc_tblock_t* region = NULL;
    grt_status_t status = grtc_tblock_create(n->module, NULL, 0, &region);
    if (!grt_status_is_ok(status)) return status;
    grtc_top_set_region(op, r, region);
    uint32_t count = 0;
    grtc_tvalue_t** values = grtc_onnx_move_ops(branches[r], region, NULL, &count);
    if (!grtc_onnx_yield_in(n, region, values, count)) return grt_ok_status();
  }
  grtc_onnx_fold(n, op);
  for (uint32_t i = 0; i < n->output_count; ++i) OUT(i) = &op->results[i];
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Loop
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_loop(grtc_onnx_node_t* n) {
  const Onnx__GraphProto* body_graph = grtc_onnx_attr_graph(n, "body");
  if (!body_graph) return grt_ok_status();
  if (n->input_count < 2) return grtc_onnx_error(n, "expected at least 2 inputs (M, cond)");
  uint32_t carried = n->input_count - 2;
  if (n->output_count < carried) {
    return grtc_onnx_error(n, "%u loop-carried values but only %u outputs", carried,
                           n->output_count);
  }
  uint32_t scans = n->output_count - carried;
  if (body_graph->n_output != 1 + carried + scans) {
    return grtc_onnx_error(n,
                           "the body has %zu outputs, expected %u (cond, %u loop-carried, "
                           "%u scan outputs)",
                           body_graph->n_output, 1 + carried + scans, carried, scans);
  }
  if (carried + scans + 2 > 64) return grtc_onnx_unsupported(n, "more than 62 loop values");
  grtc_tvalue_t* trip = n->inputs[0];
  grtc_tvalue_t* cond0 = n->inputs[1];
  int64_t trip_value = -1;  // unknown
  if (trip) {
    if (!grtc_elem_is_integer(trip->type.elem) || trip->type.elem == GRTC_ELEM_I1 ||
        grtc_ttype_element_count(&trip->type) != 1) {
      char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_onnx_error(n, "the trip count M must be one int64, got %s",
                             grtc_onnx_fmt_type(&trip->type, buffer));
    }
    trip = grtc_onnx_reshape(n, grtc_onnx_convert(n, trip, GRTC_ELEM_I64), 0, NULL);
    if (grtc_onnx_is_constant(trip)) {
      int64_t* values = NULL;
      uint32_t count = 0;
      if (!grtc_onnx_ints(n, trip, "M", &values, &count)) return grt_ok_status();
      trip_value = values[0] < 0 ? 0 : values[0];
    }
  }
  bool cond_always = true;  // the condition input is absent or constant true
  if (cond0) {
    cond0 = grtc_onnx_scalar_bool(n, cond0, "the condition");
    if (!cond0) return grt_ok_status();
    int64_t* values = NULL;
    uint32_t count = 0;
    cond_always = grtc_onnx_is_constant(cond0) &&
                  grtc_onnx_ints(n, cond0, "the condition", &values, &count) && values[0] != 0;
  } else {
    cond0 = grtc_onnx_scalar(n, GRTC_ELEM_I1, 1);
  }
  if (!grtc_onnx_ok(n)) return grt_ok_status();
  // The body: (iteration number, condition, loop-carried values...).
  grtc_ttype_t types[64];
  types[0] = grtc_onnx_type(GRTC_ELEM_I64, 0, NULL);
  types[1] = grtc_onnx_type(GRTC_ELEM_I1, 0, NULL);
  for (uint32_t i = 0; i < carried; ++i) {
    grtc_tvalue_t* v = grtc_onnx_input(n, 2 + i);
    if (!v) return grt_ok_status();
    types[2 + i] = v->type;
  }
  grtc_tblock_t* body = grtc_onnx_import_graph(n, body_graph, types, 2 + carried);
  if (!body) return grt_ok_status();
  grtc_tvalue_t** outs = body->last->operands;
  // The scan outputs have one slice per iteration: their length must be
  // known, so M must be a constant and the condition stay true.
  grtc_tvalue_t* cond_out = outs[0];
  bool cond_stays =
      cond_always && (cond_out == &body->args[1] ||
                      (grtc_onnx_is_constant(cond_out) && cond_out->type.elem == GRTC_ELEM_I1));
  if (cond_stays && cond_out != &body->args[1]) {
    int64_t* values = NULL;
    uint32_t count = 0;
    cond_stays = grtc_onnx_ints(n, cond_out, "the body's condition", &values, &count) &&
                 count == 1 && values[0] != 0;
  }
  if (scans > 0 && (trip_value < 0 || !cond_stays)) {
    return grtc_onnx_unsupported(n,
                                 "scan outputs need a loop whose iteration count is known "
                                 "when the model is compiled (a constant M and a condition "
                                 "that stays true)");
  }
  if (scans > 0 && trip_value > (1 << 24)) {
    return grtc_onnx_unsupported(n, "a loop of %lld iterations with scan outputs",
                                 (long long)trip_value);
  }
  for (uint32_t i = 0; i < carried; ++i) {
    if (!grtc_ttype_equal(&outs[1 + i]->type, &types[2 + i])) {
      char ba[GRTC_TTYPE_FORMAT_CAPACITY], bb[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_onnx_unsupported(n,
                                   "loop-carried value %u enters as %s and leaves the body "
                                   "as %s; grt needs one static type",
                                   i, grtc_onnx_fmt_type(&types[2 + i], ba),
                                   grtc_onnx_fmt_type(&outs[1 + i]->type, bb));
    }
  }
  if (!grtc_onnx_scalar_bool(n, cond_out, "the body's condition output")) return grt_ok_status();
  // The while: (i, cond, carried..., scan buffers...).
  grtc_tvalue_t* operands[64];
  uint32_t count = 2 + carried + scans;
  operands[0] = grtc_onnx_scalar(n, GRTC_ELEM_I64, 0);
  operands[1] = cond0;
  for (uint32_t i = 0; i < carried; ++i) operands[2 + i] = n->inputs[2 + i];
  for (uint32_t k = 0; k < scans; ++k) {
    const grtc_ttype_t* slice = &outs[1 + carried + k]->type;
    if (slice->rank + 1 > GRTC_MAX_RANK) {
      return grtc_onnx_unsupported(n, "scan output %u would exceed rank %d", k, GRTC_MAX_RANK);
    }
    grtc_ttype_t type = grtc_onnx_type(slice->elem, slice->rank + 1, NULL);
    type.dims[0] = trip_value;
    memcpy(type.dims + 1, slice->dims, slice->rank * sizeof(int64_t));
    if (grtc_ttype_element_count(slice) > 0 &&
        trip_value > ((int64_t)1 << 40) / grtc_ttype_element_count(slice)) {
      return grtc_onnx_unsupported(n, "scan output %u would be too large", k);
    }
    operands[2 + carried + k] = grtc_onnx_splat(n, &type, 0);
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (!operands[i]) return grt_ok_status();
    types[i] = operands[i]->type;
  }
  if (scans > 0 && trip_value == 0) {
    // No iteration: the initial values and empty scan outputs (a while
    // would write slices into buffers of length 0).
    for (uint32_t c = 0; c < carried + scans; ++c) OUT(c) = operands[2 + c];
    return grt_ok_status();
  }
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_WHILE, operands, count, types, count, 2);
  if (!op) return grt_ok_status();
  grtc_tblock_t* cond_block = NULL;
  grtc_tblock_t* body_block = NULL;
  grt_status_t status = grtc_tblock_create(n->module, types, count, &cond_block);
  if (grt_status_is_ok(status)) status = grtc_tblock_create(n->module, types, count, &body_block);
  if (!grt_status_is_ok(status)) return status;
  grtc_top_set_region(op, 0, cond_block);
  grtc_top_set_region(op, 1, body_block);
  grtc_tblock_t* saved = n->block;
  // cond: i < M (when M is given) and the condition.
  n->block = cond_block;
  grtc_tvalue_t* go = &cond_block->args[1];
  if (trip)
    go = grtc_onnx_binary(n, GRTC_TOP_AND, go,
                          grtc_onnx_compare(n, GRTC_CMP_LT, &cond_block->args[0], trip));
  n->block = saved;
  if (!go || !grtc_onnx_yield_in(n, cond_block, &go, 1)) return grt_ok_status();
  // body: the imported graph, then i + 1 and the scan slices written at i.
  uint32_t yielded = 0;
  grtc_tvalue_t* args[64];
  for (uint32_t a = 0; a < body->arg_count; ++a) args[a] = &body_block->args[a];
  outs = grtc_onnx_move_ops(body, body_block, args, &yielded);
  n->block = body_block;
  grtc_tvalue_t* next[64];
  grtc_tvalue_t* i = &body_block->args[0];
  next[0] = grtc_onnx_binary(n, GRTC_TOP_ADD, i, grtc_onnx_scalar(n, GRTC_ELEM_I64, 1));
  next[1] = grtc_onnx_reshape(n, outs[0], 0, NULL);
  for (uint32_t c = 0; c < carried; ++c) next[2 + c] = outs[1 + c];
  for (uint32_t k = 0; k < scans; ++k) {
    grtc_tvalue_t* buffer = &body_block->args[2 + carried + k];
    grtc_tvalue_t* slice = outs[1 + carried + k];
    grtc_ttype_t one = buffer->type;
    one.dims[0] = 1;
    grtc_tvalue_t* update[2 + GRTC_MAX_RANK];
    update[0] = buffer;
    update[1] = grtc_onnx_reshape(n, slice, one.rank, one.dims);
    update[2] = i;
    for (uint32_t d = 1; d < buffer->type.rank; ++d) {
      update[2 + d] = grtc_onnx_scalar(n, GRTC_ELEM_I64, 0);
    }
    next[2 + carried + k] = grtc_onnx_op(n, GRTC_TOP_DYNAMIC_UPDATE_SLICE, update,
                                         1 + buffer->type.rank + 1, &buffer->type);
  }
  n->block = saved;
  for (uint32_t c = 0; c < count; ++c) {
    if (!next[c]) return grt_ok_status();
  }
  if (!grtc_onnx_yield_in(n, body_block, next, count)) return grt_ok_status();
  grtc_onnx_fold(n, op);
  for (uint32_t c = 0; c < carried + scans; ++c) OUT(c) = &op->results[2 + c];
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// RNN, GRU, LSTM (unrolled over the sequence)
//===----------------------------------------------------------------------===//

typedef enum grtc_onnx_cell_e {
  GRTC_ONNX_RNN,
  GRTC_ONNX_GRU,
  GRTC_ONNX_LSTM,
} grtc_onnx_cell_t;

// Sequences up to this length are unrolled (their steps fuse across
// time); longer ones run as a stablehlo.while, whose size does not grow
// with the length.
#define GRTC_ONNX_UNROLL_STEPS 16

static grtc_tvalue_t* grtc_onnx_slice_at(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                         grtc_tvalue_t* index);
static grtc_tvalue_t* grtc_onnx_update_at(grtc_onnx_node_t* n, grtc_tvalue_t* buffer, uint32_t axis,
                                          grtc_tvalue_t* index, grtc_tvalue_t* slice);

// One activation function with its alpha and beta.
typedef struct grtc_onnx_activation_t {
  char name[24];
  double alpha, beta;
} grtc_onnx_activation_t;

static bool grtc_onnx_name_is(const char* a, const char* b) {
  for (; *a && *b; ++a, ++b) {
    char ca = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
    char cb = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
    if (ca != cb) return false;
  }
  return *a == *b;
}

// Which activations take alpha and beta, and their defaults.
static bool grtc_onnx_activation_defaults(const char* name, int* uses, double* alpha,
                                          double* beta) {
  static const struct {
    const char* name;
    int uses;  // 0: none, 1: alpha, 2: alpha and beta
    double alpha, beta;
  } rows[] = {
      {"Sigmoid", 0, 0, 0},           {"Tanh", 0, 0, 0},           {"Relu", 0, 0, 0},
      {"Softsign", 0, 0, 0},          {"Softplus", 0, 0, 0},       {"LeakyRelu", 1, 0.01, 0},
      {"ThresholdedRelu", 1, 1.0, 0}, {"Elu", 1, 1.0, 0},          {"HardSigmoid", 2, 0.2, 0.5},
      {"Affine", 2, 1.0, 0.0},        {"ScaledTanh", 2, 1.0, 1.0},
  };
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    if (grtc_onnx_name_is(rows[i].name, name)) {
      *uses = rows[i].uses;
      *alpha = rows[i].alpha;
      *beta = rows[i].beta;
      return true;
    }
  }
  return false;
}

static grtc_tvalue_t* grtc_onnx_activate(grtc_onnx_node_t* n, const grtc_onnx_activation_t* f,
                                         grtc_tvalue_t* x) {
  if (!x) return NULL;
#define C(v) grtc_onnx_splat_like(n, x, (v))
#define BIN(k, a, b) grtc_onnx_binary(n, GRTC_TOP_##k, (a), (b))
#define UN(k, a) grtc_onnx_unary(n, GRTC_TOP_##k, (a))
  const char* name = f->name;
  double a = f->alpha, b = f->beta;
  if (grtc_onnx_name_is(name, "Sigmoid")) return UN(LOGISTIC, x);
  if (grtc_onnx_name_is(name, "Tanh")) return UN(TANH, x);
  if (grtc_onnx_name_is(name, "Relu")) return BIN(MAXIMUM, x, C(0));
  if (grtc_onnx_name_is(name, "Softsign")) return BIN(DIVIDE, x, BIN(ADD, C(1), UN(ABS, x)));
  if (grtc_onnx_name_is(name, "Softplus")) {
    // max(x, 0) + log1p(exp(-|x|)), without overflow.
    return BIN(ADD, BIN(MAXIMUM, x, C(0)),
               UN(LOG_PLUS_ONE, UN(EXPONENTIAL, UN(NEGATE, UN(ABS, x)))));
  }
  grtc_tvalue_t* zero = C(0);
  if (grtc_onnx_name_is(name, "LeakyRelu")) {
    return grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_LT, x, zero), BIN(MULTIPLY, x, C(a)),
                            x);
  }
  if (grtc_onnx_name_is(name, "ThresholdedRelu")) {
    return grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_GT, x, C(a)), x, zero);
  }
  if (grtc_onnx_name_is(name, "Elu")) {
    return grtc_onnx_select(n, grtc_onnx_compare(n, GRTC_CMP_LT, x, zero),
                            BIN(MULTIPLY, C(a), UN(EXPONENTIAL_MINUS_ONE, x)), x);
  }
  if (grtc_onnx_name_is(name, "HardSigmoid")) {
    return BIN(MAXIMUM, zero, BIN(MINIMUM, C(1), BIN(ADD, BIN(MULTIPLY, C(a), x), C(b))));
  }
  if (grtc_onnx_name_is(name, "Affine")) return BIN(ADD, BIN(MULTIPLY, C(a), x), C(b));
  if (grtc_onnx_name_is(name, "ScaledTanh")) {
    return BIN(MULTIPLY, C(a), UN(TANH, BIN(MULTIPLY, C(b), x)));
  }
#undef C
#undef BIN
#undef UN
  grtc_onnx_fail(n, grtc_onnx_unsupported(n, "activation \"%s\"", name));
  return NULL;
}

// The node's activations: |per_direction| per direction, defaults when the
// attribute is absent.
static bool grtc_onnx_activations(grtc_onnx_node_t* n, grtc_onnx_cell_t cell, uint32_t directions,
                                  grtc_onnx_activation_t* out) {
  static const char* const kDefaults[3][3] = {
      {"Tanh", NULL, NULL}, {"Sigmoid", "Tanh", NULL}, {"Sigmoid", "Tanh", "Tanh"}};
  uint32_t per = cell == GRTC_ONNX_RNN ? 1 : cell == GRTC_ONNX_GRU ? 2 : 3;
  uint32_t total = per * directions;
  const Onnx__AttributeProto* a = grtc_onnx_attr(n, "activations");
  float* alphas = NULL;
  float* betas = NULL;
  uint32_t alpha_count = 0, beta_count = 0, next_alpha = 0, next_beta = 0;
  grtc_onnx_attr_floats(n, "activation_alpha", &alphas, &alpha_count);
  grtc_onnx_attr_floats(n, "activation_beta", &betas, &beta_count);
  if (a && a->n_strings != total) {
    return grtc_onnx_fail(n, grtc_onnx_error(n,
                                               "attribute 'activations' has %zu names, "
                                               "expected %u (%u per direction)",
                                               a->n_strings, total, per));
  }
  for (uint32_t i = 0; i < total; ++i) {
    grtc_onnx_activation_t* f = &out[i];
    memset(f, 0, sizeof(*f));
    if (a) {
      size_t len = a->strings[i].len;
      if (len >= sizeof(f->name)) len = sizeof(f->name) - 1;
      if (len) memcpy(f->name, a->strings[i].data, len);
      f->name[len] = 0;
    } else {
      strcpy(f->name, kDefaults[cell][i % per]);
    }
    int uses = 0;
    if (!grtc_onnx_activation_defaults(f->name, &uses, &f->alpha, &f->beta)) {
      return grtc_onnx_fail(n, grtc_onnx_unsupported(n,
                                                       "activation \"%s\" (expected Sigmoid, "
                                                       "Tanh, Relu, LeakyRelu, "
                                                       "ThresholdedRelu, Elu, HardSigmoid, "
                                                       "Affine, ScaledTanh, Softsign or "
                                                       "Softplus)",
                                                       f->name));
    }
    if (uses >= 1 && next_alpha < alpha_count) f->alpha = alphas[next_alpha++];
    if (uses >= 2 && next_beta < beta_count) f->beta = betas[next_beta++];
  }
  return true;
}

// a [M, K] times b [N, K] transposed: [M, N].
static grtc_tvalue_t* grtc_onnx_mm_t(grtc_onnx_node_t* n, grtc_tvalue_t* a, grtc_tvalue_t* b) {
  if (!a || !b) return NULL;
  int64_t lc = 1, rc = 1;
  grtc_dot_dims_t dims;
  memset(&dims, 0, sizeof(dims));
  dims.lhs_contracting.count = 1;
  dims.lhs_contracting.values = &lc;
  dims.rhs_contracting.count = 1;
  dims.rhs_contracting.values = &rc;
  int64_t out[2] = {a->type.dims[0], b->type.dims[0]};
  grtc_ttype_t type = grtc_onnx_type(a->type.elem, 2, out);
  return grtc_onnx_dot(n, a, b, &dims, &type);
}

// x[index] along axis 0, that axis dropped.
static grtc_tvalue_t* grtc_onnx_take(grtc_onnx_node_t* n, grtc_tvalue_t* x, int64_t index) {
  if (!x) return NULL;
  int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < x->type.rank; ++i) {
    limit[i] = x->type.dims[i];
    strides[i] = 1;
  }
  start[0] = index;
  limit[0] = index + 1;
  grtc_tvalue_t* s = grtc_onnx_slice(n, x, start, limit, strides);
  return grtc_onnx_reshape(n, s, x->type.rank - 1, x->type.dims + 1);
}

// x[:, start:start+size] of a matrix (or x[start:start+size] of a vector).
static grtc_tvalue_t* grtc_onnx_cols(grtc_onnx_node_t* n, grtc_tvalue_t* x, int64_t start,
                                     int64_t size) {
  if (!x) return NULL;
  uint32_t last = x->type.rank - 1;
  int64_t lo[2] = {0, 0}, hi[2] = {x->type.dims[0], 0}, st[2] = {1, 1};
  lo[last] = start;
  hi[last] = start + size;
  return grtc_onnx_slice(n, x, lo, hi, st);
}

static bool grtc_onnx_expect_shape(grtc_onnx_node_t* n, grtc_tvalue_t* v, const char* what,
                                   uint32_t rank, const int64_t* dims) {
  if (!v) return false;
  grtc_ttype_t want = grtc_onnx_type(v->type.elem, rank, dims);
  if (grtc_ttype_equal(&want, &v->type)) return true;
  char bv[GRTC_TTYPE_FORMAT_CAPACITY], bw[GRTC_TTYPE_FORMAT_CAPACITY];
  return grtc_onnx_fail(
      n, grtc_onnx_error(n, "%s is %s, expected %s", what, grtc_onnx_fmt_type(&v->type, bv),
                         grtc_onnx_fmt_type(&want, bw)));
}


// What one direction's cell step needs: the cell, its activations (f, g,
// h), the recurrent weights and biases, peepholes, clip, the sequence
// length mask and a zero state.
typedef struct grtc_onnx_cell_ctx_t {
  grtc_onnx_cell_t cell;
  const grtc_onnx_activation_t* f;
  int64_t hidden;
  const grtc_ttype_t* bh;  // [batch, hidden]
  bool has_clip;
  double clip;
  bool linear_before_reset;
  grtc_tvalue_t *rd, *rb;                    // R and its bias, all gates
  grtc_tvalue_t *r_zr, *r_h, *rb_zr, *rb_h;  // GRU: z/r rows and h rows
  grtc_tvalue_t *pi, *po, *pf;               // LSTM peepholes
  grtc_tvalue_t* mask_lens;                  // [batch, 1] lengths or NULL
  grtc_tvalue_t* zero_bh;
} grtc_onnx_cell_ctx_t;

// One step at time |t| (rank-0 i64, for the length mask) from input
// projection |xt| ([batch, gates * hidden], W bias included): updates |h|
// and |c| (LSTM) and sets |y| (the step's output).
static void grtc_onnx_cell_step(grtc_onnx_node_t* n, const grtc_onnx_cell_ctx_t* k,
                                grtc_tvalue_t* xt, grtc_tvalue_t* t, grtc_tvalue_t** h_io,
                                grtc_tvalue_t** c_io, grtc_tvalue_t** y_out) {
  grtc_tvalue_t* h = *h_io;
  grtc_tvalue_t* c = *c_io;
  const grtc_onnx_activation_t* f = k->f;
  int64_t hidden = k->hidden;
  grtc_tvalue_t* h_new = NULL;
  grtc_tvalue_t* c_new = NULL;
#define CLIP(v)                                                                          \
  (k->has_clip ? grtc_onnx_binary(n, GRTC_TOP_MINIMUM,                                   \
                                  grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, (v),             \
                                                   grtc_onnx_splat(n, k->bh, -k->clip)), \
                                  grtc_onnx_splat(n, k->bh, k->clip))                    \
               : (v))
  if (k->cell == GRTC_ONNX_RNN) {
    grtc_tvalue_t* pre = ADD(xt, grtc_onnx_mm_t(n, h, k->rd));
    if (k->rb) pre = ADD(pre, k->rb);
    h_new = grtc_onnx_activate(n, &f[0], CLIP(pre));
  } else if (k->cell == GRTC_ONNX_LSTM) {
    grtc_tvalue_t* pre = ADD(xt, grtc_onnx_mm_t(n, h, k->rd));
    if (k->rb) pre = ADD(pre, k->rb);
    grtc_tvalue_t* gi = grtc_onnx_cols(n, pre, 0, hidden);
    grtc_tvalue_t* go = grtc_onnx_cols(n, pre, hidden, hidden);
    grtc_tvalue_t* gf = grtc_onnx_cols(n, pre, 2 * hidden, hidden);
    grtc_tvalue_t* gc = grtc_onnx_cols(n, pre, 3 * hidden, hidden);
    if (k->pi) gi = ADD(gi, MUL(k->pi, c));
    if (k->pf) gf = ADD(gf, MUL(k->pf, c));
    grtc_tvalue_t* it = grtc_onnx_activate(n, &f[0], CLIP(gi));
    grtc_tvalue_t* ft = grtc_onnx_activate(n, &f[0], CLIP(gf));
    grtc_tvalue_t* ct = grtc_onnx_activate(n, &f[1], CLIP(gc));
    c_new = ADD(MUL(ft, c), MUL(it, ct));
    if (k->po) go = ADD(go, MUL(k->po, c_new));
    grtc_tvalue_t* ot = grtc_onnx_activate(n, &f[0], CLIP(go));
    h_new = MUL(ot, grtc_onnx_activate(n, &f[2], c_new));
  } else {
    grtc_tvalue_t* zr = ADD(grtc_onnx_cols(n, xt, 0, 2 * hidden), grtc_onnx_mm_t(n, h, k->r_zr));
    if (k->rb_zr) zr = ADD(zr, k->rb_zr);
    grtc_tvalue_t* zt = grtc_onnx_activate(n, &f[0], CLIP(grtc_onnx_cols(n, zr, 0, hidden)));
    grtc_tvalue_t* rt = grtc_onnx_activate(n, &f[0], CLIP(grtc_onnx_cols(n, zr, hidden, hidden)));
    grtc_tvalue_t* xh = grtc_onnx_cols(n, xt, 2 * hidden, hidden);
    grtc_tvalue_t* rec;
    if (k->linear_before_reset) {
      rec = grtc_onnx_mm_t(n, h, k->r_h);
      if (k->rb_h) rec = ADD(rec, k->rb_h);
      rec = MUL(rt, rec);
    } else {
      rec = grtc_onnx_mm_t(n, MUL(rt, h), k->r_h);
      if (k->rb_h) rec = ADD(rec, k->rb_h);
    }
    grtc_tvalue_t* ht = grtc_onnx_activate(n, &f[1], CLIP(ADD(xh, rec)));
    grtc_tvalue_t* one_minus_z =
        grtc_onnx_binary(n, GRTC_TOP_SUBTRACT, grtc_onnx_splat(n, k->bh, 1), zt);
    h_new = ADD(MUL(one_minus_z, ht), MUL(zt, h));
  }
#undef CLIP
  grtc_tvalue_t* y = h_new;
  if (k->mask_lens) {
    // Steps past a sequence's length keep the state and output 0.
    grtc_tvalue_t* live = grtc_onnx_compare(n, GRTC_CMP_LT, t, k->mask_lens);
    h_new = grtc_onnx_select(n, live, h_new, h);
    if (c_new) c_new = grtc_onnx_select(n, live, c_new, c);
    y = grtc_onnx_select(n, live, y, k->zero_bh);
  }
  *h_io = h_new;
  *c_io = c_new;
  *y_out = y;
}

// A stablehlo.while over |operands| (|count| of them, operand 0 the i64
// step counter) that runs while the counter is below |steps|. On success
// the node's block is the while's empty body (*out_body; the caller fills
// it, yields, and restores the block it had).
static grtc_top_t* grtc_onnx_counted_while(grtc_onnx_node_t* n, grtc_tvalue_t* const* operands,
                                           const grtc_ttype_t* types, uint32_t count,
                                           int64_t steps, grtc_tblock_t** out_body) {
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_WHILE, operands, count, types, count, 2);
  if (!op) return NULL;
  grtc_tblock_t* cond_block = NULL;
  grtc_tblock_t* body_block = NULL;
  grt_status_t status = grtc_tblock_create(n->module, types, count, &cond_block);
  if (grt_status_is_ok(status)) status = grtc_tblock_create(n->module, types, count, &body_block);
  if (!grt_status_is_ok(status)) {
    grtc_onnx_fail(n, status);
    return NULL;
  }
  grtc_top_set_region(op, 0, cond_block);
  grtc_top_set_region(op, 1, body_block);
  grtc_tblock_t* saved = n->block;
  n->block = cond_block;
  grtc_tvalue_t* go = grtc_onnx_compare(n, GRTC_CMP_LT, &cond_block->args[0],
                                        grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)steps));
  n->block = saved;
  if (!go || !grtc_onnx_yield_in(n, cond_block, &go, 1)) return NULL;
  n->block = body_block;
  *out_body = body_block;
  return op;
}

// The steps of one direction as a stablehlo.while carrying (i, h, c, Y):
// |proj| ([steps, batch, gates * hidden]) is sliced at t = i (or
// steps - 1 - i backwards) and the step's output written to Y at t.
// Updates |h| and |c| to the final states and sets |y| ([steps, 1, batch,
// hidden]).
static void grtc_onnx_cell_loop(grtc_onnx_node_t* n, const grtc_onnx_cell_ctx_t* k,
                                grtc_tvalue_t* proj, int64_t steps, bool backward,
                                grtc_tvalue_t** h_io, grtc_tvalue_t** c_io, grtc_tvalue_t** y_out) {
  bool lstm = k->cell == GRTC_ONNX_LSTM;
  int64_t y_dims[3] = {steps, k->bh->dims[0], k->bh->dims[1]};
  grtc_ttype_t y_type = grtc_onnx_type(k->bh->elem, 3, y_dims);
  grtc_tvalue_t* operands[4];
  uint32_t count = 0;
  operands[count++] = grtc_onnx_scalar(n, GRTC_ELEM_I64, 0);
  operands[count++] = *h_io;
  if (lstm) operands[count++] = *c_io;
  operands[count++] = grtc_onnx_splat(n, &y_type, 0);
  grtc_ttype_t types[4];
  for (uint32_t i = 0; i < count; ++i) {
    if (!operands[i]) return;
    types[i] = operands[i]->type;
  }
  grtc_tblock_t* body_block = NULL;
  grtc_tblock_t* saved = n->block;
  grtc_top_t* op = grtc_onnx_counted_while(n, operands, types, count, steps, &body_block);
  if (!op) return;
  grtc_tvalue_t* i = &body_block->args[0];
  grtc_tvalue_t* t =
      backward ? grtc_onnx_binary(n, GRTC_TOP_SUBTRACT,
                                  grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)(steps - 1)), i)
               : i;
  grtc_tvalue_t* h = &body_block->args[1];
  grtc_tvalue_t* c = lstm ? &body_block->args[2] : NULL;
  grtc_tvalue_t* y = NULL;
  grtc_onnx_cell_step(n, k, grtc_onnx_slice_at(n, proj, 0, t), t, &h, &c, &y);
  grtc_tvalue_t* next[4];
  uint32_t at = 0;
  next[at++] = grtc_onnx_binary(n, GRTC_TOP_ADD, i, grtc_onnx_scalar(n, GRTC_ELEM_I64, 1));
  next[at++] = h;
  if (lstm) next[at++] = c;
  next[at++] = grtc_onnx_update_at(n, &body_block->args[count - 1], 0, t, y);
  n->block = saved;
  for (uint32_t j = 0; j < count; ++j) {
    if (!next[j]) return;
  }
  if (!grtc_onnx_yield_in(n, body_block, next, count)) return;
  grtc_onnx_fold(n, op);
  *h_io = &op->results[1];
  if (lstm) *c_io = &op->results[2];
  int64_t dims[4] = {steps, 1, y_dims[1], y_dims[2]};
  *y_out = grtc_onnx_reshape(n, &op->results[count - 1], 4, dims);
}

static grt_status_t grtc_onnx_op_recurrent(grtc_onnx_node_t* n) {
  grtc_onnx_cell_t cell = strcmp(n->proto->op_type, "LSTM") == 0  ? GRTC_ONNX_LSTM
                          : strcmp(n->proto->op_type, "GRU") == 0 ? GRTC_ONNX_GRU
                                                                  : GRTC_ONNX_RNN;
  int64_t gates = cell == GRTC_ONNX_LSTM ? 4 : cell == GRTC_ONNX_GRU ? 3 : 1;
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* w = grtc_onnx_input(n, 1);
  grtc_tvalue_t* r = grtc_onnx_input(n, 2);
  if (!x || !w || !r) return grt_ok_status();
  grtc_tvalue_t* b = grtc_onnx_optional(n, 3);
  grtc_tvalue_t* lens = grtc_onnx_optional(n, 4);
  grtc_tvalue_t* h0 = grtc_onnx_optional(n, 5);
  grtc_tvalue_t* c0 = cell == GRTC_ONNX_LSTM ? grtc_onnx_optional(n, 6) : NULL;
  grtc_tvalue_t* p = cell == GRTC_ONNX_LSTM ? grtc_onnx_optional(n, 7) : NULL;
  grtc_elem_t elem = x->type.elem;
  if (!grtc_elem_is_float(elem)) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n, "X must be a floating-point tensor, got %s",
                           grtc_onnx_fmt_type(&x->type, buffer));
  }
  const char* direction = grtc_onnx_attr_string(n, "direction", "forward");
  uint32_t directions = 1;
  bool reverse_only = false;
  if (strcmp(direction, "bidirectional") == 0) {
    directions = 2;
  } else if (strcmp(direction, "reverse") == 0) {
    reverse_only = true;
  } else if (strcmp(direction, "forward") != 0) {
    return grtc_onnx_error(n,
                           "attribute 'direction' must be forward, reverse or bidirectional; "
                           "got \"%s\"",
                           direction);
  }
  int64_t layout = n->opset >= 14 ? grtc_onnx_attr_int(n, "layout", 0) : 0;
  if (layout != 0 && layout != 1) {
    return grtc_onnx_error(n, "attribute 'layout' must be 0 or 1, got %lld", (long long)layout);
  }
  if (cell == GRTC_ONNX_LSTM && grtc_onnx_attr_int(n, "input_forget", 0) != 0) {
    return grtc_onnx_unsupported(n, "input_forget = 1");
  }
  bool linear_before_reset =
      cell == GRTC_ONNX_GRU && grtc_onnx_attr_int(n, "linear_before_reset", 0) != 0;
  const Onnx__AttributeProto* clip_attr = grtc_onnx_attr(n, "clip");
  double clip = grtc_onnx_attr_float(n, "clip", 0);
  if (clip_attr && !(clip > 0)) {
    return grtc_onnx_error(n, "attribute 'clip' must be positive, got %g", clip);
  }
  if (x->type.rank != 3) {
    char buffer[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_onnx_error(n, "X must have rank 3, got %s", grtc_onnx_fmt_type(&x->type, buffer));
  }
  if (layout == 1) {
    int64_t perm[3] = {1, 0, 2};
    x = grtc_onnx_transpose(n, x, perm);
    if (!x) return grt_ok_status();
  }
  int64_t steps = x->type.dims[0], batch = x->type.dims[1], input = x->type.dims[2];
  if (r->type.rank != 3) return grtc_onnx_error(n, "R must have rank 3");
  int64_t hidden = grtc_onnx_attr_int(n, "hidden_size", r->type.dims[2]);
  if (hidden < 1 || hidden > (1 << 20)) {
    return grtc_onnx_error(n, "hidden_size %lld is out of range", (long long)hidden);
  }
  int64_t gh = gates * hidden;
  int64_t dirs = directions;
  if (!grtc_onnx_expect_shape(n, w, "W", 3, (int64_t[]){dirs, gh, input}) ||
      !grtc_onnx_expect_shape(n, r, "R", 3, (int64_t[]){dirs, gh, hidden}) ||
      (b && !grtc_onnx_expect_shape(n, b, "B", 2, (int64_t[]){dirs, 2 * gh})) ||
      (p && !grtc_onnx_expect_shape(n, p, "P", 2, (int64_t[]){dirs, 3 * hidden})) ||
      (lens && !grtc_onnx_expect_shape(n, lens, "sequence_lens", 1, &batch))) {
    return grt_ok_status();
  }
  if (lens && (!grtc_elem_is_integer(lens->type.elem) || lens->type.elem == GRTC_ELEM_I1)) {
    return grtc_onnx_error(n, "sequence_lens must be an integer tensor");
  }
  grtc_tvalue_t* states[2] = {h0, c0};
  for (uint32_t i = 0; i < 2; ++i) {
    if (!states[i]) continue;
    if (layout == 1 && states[i]->type.rank == 3) {
      int64_t perm[3] = {1, 0, 2};
      states[i] = grtc_onnx_transpose(n, states[i], perm);
    }
    if (!grtc_onnx_expect_shape(n, states[i], i ? "initial_c" : "initial_h", 3,
                                (int64_t[]){dirs, batch, hidden})) {
      return grt_ok_status();
    }
  }
  h0 = states[0];
  c0 = states[1];
  grtc_tvalue_t* operands[] = {w, r, b, h0, c0, p};
  for (size_t i = 0; i < sizeof(operands) / sizeof(operands[0]); ++i) {
    if (operands[i] && operands[i]->type.elem != elem) {
      return grtc_onnx_error(n,
                             "W, R, B, initial_h, initial_c and P must have the element type "
                             "of X");
    }
  }
  grtc_onnx_activation_t acts[6];
  if (!grtc_onnx_activations(n, cell, directions, acts)) return grt_ok_status();
  uint32_t per = cell == GRTC_ONNX_RNN ? 1 : cell == GRTC_ONNX_GRU ? 2 : 3;
  // Every step's input projection at once: [steps * batch, input] W^T.
  int64_t flat_dims[2] = {steps * batch, input};
  grtc_tvalue_t* flat = grtc_onnx_reshape(n, x, 2, flat_dims);
  int64_t bh_dims[2] = {batch, hidden};
  grtc_ttype_t bh = grtc_onnx_type(elem, 2, bh_dims);
  grtc_tvalue_t* mask_lens = NULL;
  if (lens) {
    int64_t col[2] = {batch, 1};
    mask_lens = grtc_onnx_reshape(n, grtc_onnx_convert(n, lens, GRTC_ELEM_I64), 2, col);
  }
  grtc_tvalue_t* zero_bh = grtc_onnx_splat(n, &bh, 0);
  int64_t unrolled = steps <= GRTC_ONNX_UNROLL_STEPS ? steps : 0;
  grtc_tvalue_t** ys = grtc_tmodule_alloc(n->module, (size_t)(unrolled + 1) * sizeof(*ys));
  if (!ys) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  grtc_tvalue_t* y_dirs[2] = {NULL, NULL};
  grtc_tvalue_t* h_last[2] = {NULL, NULL};
  grtc_tvalue_t* c_last[2] = {NULL, NULL};
  for (uint32_t d = 0; d < directions; ++d) {
    bool backward = reverse_only || d == 1;
    const grtc_onnx_activation_t* f = &acts[d * per];
    grtc_tvalue_t* wd = grtc_onnx_take(n, w, d);
    grtc_tvalue_t* rd = grtc_onnx_take(n, r, d);
    grtc_tvalue_t* wb = NULL;
    grtc_tvalue_t* rb = NULL;
    if (b) {
      grtc_tvalue_t* bd = grtc_onnx_take(n, b, d);
      wb = grtc_onnx_cols(n, bd, 0, gh);
      rb = grtc_onnx_cols(n, bd, gh, gh);
    }
    grtc_tvalue_t* proj = grtc_onnx_mm_t(n, flat, wd);  // [steps * batch, gh]
    if (wb) proj = grtc_onnx_binary(n, GRTC_TOP_ADD, proj, wb);
    int64_t proj_dims[3] = {steps, batch, gh};
    proj = grtc_onnx_reshape(n, proj, 3, proj_dims);
    grtc_tvalue_t* h = h0 ? grtc_onnx_take(n, h0, d) : zero_bh;
    grtc_tvalue_t* c = cell == GRTC_ONNX_LSTM ? (c0 ? grtc_onnx_take(n, c0, d) : zero_bh) : NULL;
    grtc_tvalue_t *pi = NULL, *po = NULL, *pf = NULL;
    if (p) {
      grtc_tvalue_t* pd = grtc_onnx_take(n, p, d);
      pi = grtc_onnx_cols(n, pd, 0, hidden);
      po = grtc_onnx_cols(n, pd, hidden, hidden);
      pf = grtc_onnx_cols(n, pd, 2 * hidden, hidden);
    }
    // GRU: the z and r rows of R, and the h rows (with their biases).
    grtc_tvalue_t *r_zr = NULL, *r_h = NULL, *rb_zr = NULL, *rb_h = NULL;
    if (cell == GRTC_ONNX_GRU) {
      int64_t lo[2] = {0, 0}, mid[2] = {2 * hidden, hidden}, st[2] = {1, 1};
      int64_t lo2[2] = {2 * hidden, 0}, hi2[2] = {3 * hidden, hidden};
      r_zr = grtc_onnx_slice(n, rd, lo, mid, st);
      r_h = grtc_onnx_slice(n, rd, lo2, hi2, st);
      if (rb) {
        rb_zr = grtc_onnx_cols(n, rb, 0, 2 * hidden);
        rb_h = grtc_onnx_cols(n, rb, 2 * hidden, hidden);
      }
    }
    grtc_onnx_cell_ctx_t ctx = {.cell = cell,
                                .f = f,
                                .hidden = hidden,
                                .bh = &bh,
                                .has_clip = clip_attr != NULL,
                                .clip = clip,
                                .linear_before_reset = linear_before_reset,
                                .rd = rd,
                                .rb = rb,
                                .r_zr = r_zr,
                                .r_h = r_h,
                                .rb_zr = rb_zr,
                                .rb_h = rb_h,
                                .pi = pi,
                                .po = po,
                                .pf = pf,
                                .mask_lens = mask_lens,
                                .zero_bh = zero_bh};
    if (steps <= GRTC_ONNX_UNROLL_STEPS) {
      for (int64_t s = 0; s < steps && grtc_onnx_ok(n); ++s) {
        int64_t t = backward ? steps - 1 - s : s;
        grtc_tvalue_t* xt = grtc_onnx_take(n, proj, t);  // [batch, gh]
        grtc_tvalue_t* y = NULL;
        grtc_onnx_cell_step(n, &ctx, xt, grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)t), &h, &c, &y);
        int64_t one[4] = {1, 1, batch, hidden};
        ys[t] = grtc_onnx_reshape(n, y, 4, one);
      }
      if (!grtc_onnx_ok(n)) return grt_ok_status();
      if (steps) {
        y_dirs[d] = grtc_onnx_concat(n, ys, (uint32_t)steps, 0);
      } else {
        grtc_ttype_t empty = grtc_onnx_type(elem, 4, (int64_t[]){0, 1, batch, hidden});
        y_dirs[d] = grtc_onnx_splat(n, &empty, 0);
      }
    } else {
      grtc_onnx_cell_loop(n, &ctx, proj, steps, backward, &h, &c, &y_dirs[d]);
      if (!grtc_onnx_ok(n)) return grt_ok_status();
    }
    int64_t state_dims[3] = {1, batch, hidden};
    h_last[d] = grtc_onnx_reshape(n, h, 3, state_dims);
    c_last[d] = c ? grtc_onnx_reshape(n, c, 3, state_dims) : NULL;
  }
  grtc_tvalue_t* y = grtc_onnx_concat(n, y_dirs, directions, 1);
  grtc_tvalue_t* yh = grtc_onnx_concat(n, h_last, directions, 0);
  grtc_tvalue_t* yc = cell == GRTC_ONNX_LSTM ? grtc_onnx_concat(n, c_last, directions, 0) : NULL;
  if (layout == 1) {
    int64_t perm4[4] = {2, 0, 1, 3};
    int64_t perm3[3] = {1, 0, 2};
    y = grtc_onnx_transpose(n, y, perm4);
    yh = grtc_onnx_transpose(n, yh, perm3);
    if (yc) yc = grtc_onnx_transpose(n, yc, perm3);
  }
  if (n->output_count > 0) OUT(0) = y;
  if (n->output_count > 1) OUT(1) = yh;
  if (n->output_count > 2) OUT(2) = yc;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

// stablehlo.dynamic_slice of one element at |index| (rank 0, i64) along
// |axis| of |x|, that axis dropped.
static grtc_tvalue_t* grtc_onnx_slice_at(grtc_onnx_node_t* n, grtc_tvalue_t* x, uint32_t axis,
                                         grtc_tvalue_t* index) {
  if (!x || !index) return NULL;
  uint32_t rank = x->type.rank;
  grtc_tvalue_t* operands[1 + GRTC_MAX_RANK];
  int64_t sizes[GRTC_MAX_RANK];
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, GRTC_ELEM_I64, 0);
  operands[0] = x;
  for (uint32_t d = 0; d < rank; ++d) {
    operands[1 + d] = d == axis ? index : zero;
    sizes[d] = d == axis ? 1 : x->type.dims[d];
  }
  grtc_ttype_t type = grtc_onnx_type(x->type.elem, rank, sizes);
  grtc_top_t* op = grtc_onnx_op_full(n, GRTC_TOP_DYNAMIC_SLICE, operands, 1 + rank, &type, 1, 0);
  if (!op) return NULL;
  op->attrs.sizes = grtc_tmodule_i64s(n->module, sizes, rank);
  grtc_tvalue_t* slice = grtc_onnx_fold(n, op);
  grtc_ttype_t dropped = grtc_onnx_type(x->type.elem, 0, NULL);
  for (uint32_t d = 0; d < rank; ++d) {
    if (d != axis) dropped.dims[dropped.rank++] = x->type.dims[d];
  }
  return grtc_onnx_reshape(n, slice, dropped.rank, dropped.dims);
}

// |buffer| with |slice| written at |index| along |axis|.
static grtc_tvalue_t* grtc_onnx_update_at(grtc_onnx_node_t* n, grtc_tvalue_t* buffer, uint32_t axis,
                                          grtc_tvalue_t* index, grtc_tvalue_t* slice) {
  if (!buffer || !index || !slice) return NULL;
  uint32_t rank = buffer->type.rank;
  grtc_ttype_t one = buffer->type;
  one.dims[axis] = 1;
  grtc_tvalue_t* operands[2 + GRTC_MAX_RANK];
  grtc_tvalue_t* zero = grtc_onnx_scalar(n, GRTC_ELEM_I64, 0);
  operands[0] = buffer;
  operands[1] = grtc_onnx_reshape(n, slice, one.rank, one.dims);
  for (uint32_t d = 0; d < rank; ++d) operands[2 + d] = d == axis ? index : zero;
  return grtc_onnx_op(n, GRTC_TOP_DYNAMIC_UPDATE_SLICE, operands, 2 + rank, &buffer->type);
}

// The integer list attribute |name| with |count| entries (|fill| where it
// is absent); an error when its length differs.
static bool grtc_onnx_attr_list(grtc_onnx_node_t* n, const char* name, uint32_t count, int64_t fill,
                                int64_t* out) {
  int64_t* values = NULL;
  uint32_t given = 0;
  for (uint32_t i = 0; i < count; ++i) out[i] = fill;
  if (!grtc_onnx_attr_ints(n, name, &values, &given)) return grtc_onnx_ok(n);
  if (given != count) {
    return grtc_onnx_fail(
        n, grtc_onnx_error(n, "attribute '%s' has %u values, expected %u", name, given, count));
  }
  for (uint32_t i = 0; i < count; ++i) out[i] = values[i];
  return true;
}

// One scan of |graph| over |inputs| (M, scanned along |in_axes|, backwards
// where |in_reverse|) carrying |states| (N); |outs| gets the N final
// states and the K scan outputs (stacked along |out_axes|).
static void grtc_onnx_scan(grtc_onnx_node_t* n, const Onnx__GraphProto* graph,
                           grtc_tvalue_t* const* states, uint32_t state_count,
                           grtc_tvalue_t* const* inputs, uint32_t input_count,
                           const int64_t* in_axes_raw, const int64_t* in_reverse,
                           uint32_t scan_outputs, const int64_t* out_axes_raw,
                           const int64_t* out_reverse, grtc_tvalue_t** outs) {
  uint32_t N = state_count, M = input_count, K = scan_outputs;
  if (M == 0) {
    grtc_onnx_fail(n, grtc_onnx_error(n, "Scan needs at least one scan input"));
    return;
  }
  if (1 + N + K > 64 || N + M > 64) {
    grtc_onnx_fail(n, grtc_onnx_unsupported(n, "more than 63 scan values"));
    return;
  }
  uint32_t in_axes[64];
  int64_t steps = -1;
  grtc_ttype_t types[64];
  for (uint32_t i = 0; i < N; ++i) {
    if (!states[i]) return;
    types[i] = states[i]->type;
  }
  for (uint32_t j = 0; j < M; ++j) {
    grtc_tvalue_t* x = inputs[j];
    if (!x) return;
    if (x->type.rank == 0) {
      grtc_onnx_fail(n, grtc_onnx_error(n,
                                          "scan input %u is a scalar; it needs an axis to "
                                          "scan",
                                          j));
      return;
    }
    if (!grtc_onnx_axis(n, "scan input axis", in_axes_raw[j], x->type.rank, &in_axes[j])) return;
    int64_t length = x->type.dims[in_axes[j]];
    if (steps >= 0 && length != steps) {
      grtc_onnx_fail(n, grtc_onnx_error(n, "scan input %u has %lld steps, an earlier one %lld", j,
                                          (long long)length, (long long)steps));
      return;
    }
    steps = length;
    grtc_ttype_t t = grtc_onnx_type(x->type.elem, 0, NULL);
    for (uint32_t d = 0; d < x->type.rank; ++d) {
      if (d != in_axes[j]) t.dims[t.rank++] = x->type.dims[d];
    }
    types[N + j] = t;
  }
  if (graph->n_output != N + K) {
    grtc_onnx_fail(n, grtc_onnx_error(n,
                                        "the body has %zu outputs, expected %u (%u states, %u "
                                        "scan outputs)",
                                        graph->n_output, N + K, N, K));
    return;
  }
  grtc_tblock_t* body = grtc_onnx_import_graph(n, graph, types, N + M);
  if (!body) return;
  grtc_tvalue_t** body_outs = body->last->operands;
  for (uint32_t i = 0; i < N; ++i) {
    if (!grtc_ttype_equal(&body_outs[i]->type, &types[i])) {
      char ba[GRTC_TTYPE_FORMAT_CAPACITY], bb[GRTC_TTYPE_FORMAT_CAPACITY];
      grtc_onnx_fail(n, grtc_onnx_unsupported(n,
                                                "state %u enters as %s and leaves the body as "
                                                "%s; grt needs one static type",
                                                i, grtc_onnx_fmt_type(&types[i], ba),
                                                grtc_onnx_fmt_type(&body_outs[i]->type, bb)));
      return;
    }
  }
  // The while: (i, states..., scan output buffers...).
  grtc_tvalue_t* operands[64];
  uint32_t out_axes[64];
  uint32_t count = 1 + N + K;
  operands[0] = grtc_onnx_scalar(n, GRTC_ELEM_I64, 0);
  for (uint32_t i = 0; i < N; ++i) operands[1 + i] = states[i];
  for (uint32_t k = 0; k < K; ++k) {
    const grtc_ttype_t* slice = &body_outs[N + k]->type;
    if (!grtc_onnx_axis(n, "scan output axis", out_axes_raw[k], slice->rank + 1, &out_axes[k])) {
      return;
    }
    if (slice->rank + 1 > GRTC_MAX_RANK) {
      grtc_onnx_fail(
          n, grtc_onnx_unsupported(n, "scan output %u would exceed rank %d", k, GRTC_MAX_RANK));
      return;
    }
    grtc_ttype_t type = grtc_onnx_type(slice->elem, 0, NULL);
    for (uint32_t d = 0; d <= slice->rank; ++d) {
      type.dims[type.rank++] = d == out_axes[k]  ? steps
                               : d < out_axes[k] ? slice->dims[d]
                                                 : slice->dims[d - 1];
    }
    operands[1 + N + k] = grtc_onnx_splat(n, &type, 0);
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (!operands[i]) return;
    types[i] = operands[i]->type;
  }
  if (steps == 0) {
    // Nothing to scan: the initial states and empty scan outputs (the
    // while's slices of length-0 inputs would not verify).
    for (uint32_t a = 0; a < N + K; ++a) outs[a] = operands[1 + a];
    return;
  }
  grtc_tblock_t* body_block = NULL;
  grtc_tblock_t* saved = n->block;
  grtc_top_t* op = grtc_onnx_counted_while(n, operands, types, count, steps, &body_block);
  if (!op) return;
  grtc_tvalue_t* i = &body_block->args[0];
  grtc_tvalue_t* back = grtc_onnx_binary(
      n, GRTC_TOP_SUBTRACT, grtc_onnx_scalar(n, GRTC_ELEM_I64, (double)(steps - 1)), i);
  grtc_tvalue_t* args[64];
  for (uint32_t a = 0; a < N; ++a) args[a] = &body_block->args[1 + a];
  for (uint32_t j = 0; j < M; ++j) {
    args[N + j] = grtc_onnx_slice_at(n, inputs[j], in_axes[j], in_reverse[j] ? back : i);
  }
  grtc_tvalue_t* next[64];
  bool ready = grtc_onnx_ok(n);
  for (uint32_t a = 0; ready && a < N + M; ++a) ready = args[a] != NULL;
  if (ready) {
    uint32_t yielded = 0;
    body_outs = grtc_onnx_move_ops(body, body_block, args, &yielded);
    next[0] = grtc_onnx_binary(n, GRTC_TOP_ADD, i, grtc_onnx_scalar(n, GRTC_ELEM_I64, 1));
    for (uint32_t a = 0; a < N; ++a) next[1 + a] = body_outs[a];
    for (uint32_t k = 0; k < K; ++k) {
      next[1 + N + k] = grtc_onnx_update_at(n, &body_block->args[1 + N + k], out_axes[k],
                                            out_reverse[k] ? back : i, body_outs[N + k]);
    }
    for (uint32_t a = 0; a < count; ++a) ready = ready && next[a] != NULL;
  }
  n->block = saved;
  if (!ready || !grtc_onnx_yield_in(n, body_block, next, count)) return;
  grtc_onnx_fold(n, op);
  for (uint32_t a = 0; a < N + K; ++a) outs[a] = &op->results[1 + a];
}

static grt_status_t grtc_onnx_op_scan(grtc_onnx_node_t* n) {
  const Onnx__GraphProto* graph = grtc_onnx_attr_graph(n, "body");
  if (!graph) return grt_ok_status();
  int64_t m_attr = grtc_onnx_attr_int(n, "num_scan_inputs", -1);
  // Opset 8 has a first input sequence_lens and a batch dimension 0 on
  // every input and output.
  bool batched = n->opset < 9;
  uint32_t first = batched ? 1 : 0;
  uint32_t given = n->input_count - first;
  if (m_attr < 1 || m_attr > (int64_t)given) {
    return grtc_onnx_error(n, "attribute 'num_scan_inputs' = %lld must be 1 to %u",
                           (long long)m_attr, given);
  }
  uint32_t M = (uint32_t)m_attr, N = given - M;
  if (n->output_count < N) {
    return grtc_onnx_error(n, "%u states but only %u outputs", N, n->output_count);
  }
  uint32_t K = n->output_count - N;
  if (N + M > 64 || N + K > 64) return grtc_onnx_unsupported(n, "more than 64 scan values");
  int64_t in_axes[64], in_reverse[64], out_axes[64], out_reverse[64];
  if (batched) {
    for (uint32_t j = 0; j < M; ++j) in_axes[j] = 0;
    for (uint32_t k = 0; k < K; ++k) out_axes[k] = 0;
    if (!grtc_onnx_attr_list(n, "directions", M, 0, in_reverse)) return grt_ok_status();
    for (uint32_t k = 0; k < K; ++k) out_reverse[k] = 0;
  } else if (!grtc_onnx_attr_list(n, "scan_input_axes", M, 0, in_axes) ||
             !grtc_onnx_attr_list(n, "scan_input_directions", M, 0, in_reverse) ||
             !grtc_onnx_attr_list(n, "scan_output_axes", K, 0, out_axes) ||
             !grtc_onnx_attr_list(n, "scan_output_directions", K, 0, out_reverse)) {
    return grt_ok_status();
  }
  grtc_tvalue_t* values[128];
  for (uint32_t i = 0; i < N + M; ++i) {
    values[i] = grtc_onnx_input(n, first + i);
    if (!values[i]) return grt_ok_status();
  }
  if (!batched) {
    grtc_onnx_scan(n, graph, values, N, values + N, M, in_axes, in_reverse, K, out_axes,
                   out_reverse, n->outputs);
    return grt_ok_status();
  }
  // Opset 8: one scan per batch entry (sequence_lens, when given, must
  // be the full length for every entry), stacked.
  int64_t batch = -1;
  for (uint32_t i = 0; i < N + M; ++i) {
    if (values[i]->type.rank < (i < N ? 1u : 2u) ||
        (batch >= 0 && values[i]->type.dims[0] != batch)) {
      return grtc_onnx_error(n,
                             "every state and scan input needs the batch dimension first, "
                             "of one size");
    }
    batch = values[i]->type.dims[0];
  }
  if (batch > 1024) return grtc_onnx_unsupported(n, "a batch of %lld", (long long)batch);
  if (n->inputs[0]) {
    int64_t* lens = NULL;
    uint32_t count = 0;
    if (!grtc_onnx_ints(n, n->inputs[0], "input 'sequence_lens'", &lens, &count)) {
      return grt_ok_status();
    }
    int64_t full = values[N]->type.dims[1];
    for (uint32_t b = 0; b < count; ++b) {
      if (lens[b] != full) {
        return grtc_onnx_unsupported(n, "sequence_lens[%u] = %lld is not the full length %lld", b,
                                     (long long)lens[b], (long long)full);
      }
    }
  }
  grtc_tvalue_t*** per = grtc_tmodule_alloc(n->module, (size_t)(batch + 1) * sizeof(*per));
  if (!per) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (int64_t b = 0; b < batch; ++b) {
    grtc_tvalue_t* slices[128];
    for (uint32_t i = 0; i < N + M; ++i) slices[i] = grtc_onnx_take(n, values[i], b);
    per[b] = grtc_tmodule_alloc(n->module, (N + K + 1) * sizeof(grtc_tvalue_t*));
    if (!per[b]) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    grtc_onnx_scan(n, graph, slices, N, slices + N, M, in_axes, in_reverse, K, out_axes,
                   out_reverse, per[b]);
    if (!grtc_onnx_ok(n)) return grt_ok_status();
  }
  grtc_tvalue_t** parts = grtc_tmodule_alloc(n->module, (size_t)(batch + 1) * sizeof(*parts));
  if (!parts) return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (uint32_t o = 0; o < N + K; ++o) {
    for (int64_t b = 0; b < batch; ++b) {
      grtc_tvalue_t* v = per[b][o];
      if (!v) return grt_ok_status();
      int64_t dims[GRTC_MAX_RANK];
      if (v->type.rank + 1 > GRTC_MAX_RANK) {
        return grtc_onnx_unsupported(n, "output %u would exceed rank %d", o, GRTC_MAX_RANK);
      }
      dims[0] = 1;
      memcpy(dims + 1, v->type.dims, v->type.rank * sizeof(int64_t));
      parts[b] = grtc_onnx_reshape(n, v, v->type.rank + 1, dims);
    }
    OUT(o) = batch > 0 ? grtc_onnx_concat(n, parts, (uint32_t)batch, 0) : NULL;
  }
  if (batch == 0) return grtc_onnx_unsupported(n, "an empty batch");
  return grt_ok_status();
}

const grtc_onnx_op_def_t grtc_onnx_control_ops[] = {
    {"If", grtc_onnx_op_if, 1, 1, 1, -1, 1},
    {"Loop", grtc_onnx_op_loop, 2, -1, 1, -1, 1},
    {"Scan", grtc_onnx_op_scan, 1, -1, 1, -1, 8},
    {"RNN", grtc_onnx_op_recurrent, 3, 6, 0, 2, 1},
    {"GRU", grtc_onnx_op_recurrent, 3, 6, 0, 2, 1},
    {"LSTM", grtc_onnx_op_recurrent, 3, 8, 0, 3, 1},
    {NULL, NULL, 0, 0, 0, 0, 0},
};

// ONNX ops: If, Loop and the recurrent ops (LSTM, GRU, RNN).
//
// If becomes stablehlo.if (or, with a constant condition, the taken
// branch imported in place); Loop becomes stablehlo.while carrying the
// iteration number, the condition, the loop-carried values and buffers for
// the scan outputs. The recurrent ops are unrolled over the (static)
// sequence length.
#include <string.h>

#include "compiler/onnx/internal.h"

#define OUT(i) (n->outputs[i])

static bool grtc_onnx_cf_ok(const grtc_onnx_node_t* n) { return grt_status_is_ok(n->status); }

// Records |status| in |n| (the first error wins); returns false.
static bool grtc_onnx_cf_set(grtc_onnx_node_t* n, grt_status_t status) {
  if (grt_status_is_ok(n->status)) {
    n->status = status;
  } else {
    grt_status_free(status);
  }
  return false;
}

static const char* grtc_onnx_cf_fmt(const grtc_ttype_t* type, char* buffer) {
  return grtc_ttype_format(type, buffer, GRTC_TTYPE_FORMAT_CAPACITY);
}

// The graph attribute |name|; an error when absent or not a graph.
static const Onnx__GraphProto* grtc_onnx_attr_graph(grtc_onnx_node_t* n, const char* name) {
  const Onnx__AttributeProto* a = grtc_onnx_attr(n, name);
  if (!a || !a->g ||
      (a->has_type && a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)) {
    grtc_onnx_cf_set(n, grtc_onnx_error(n, "attribute '%s' (a graph) is required", name));
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
  if (!graph || !grtc_onnx_cf_ok(n)) return NULL;
  if (graph->n_input != arg_count) {
    grtc_onnx_cf_set(n, grtc_onnx_error(n, "the sub-graph '%s' has %zu inputs, expected %u",
                                        graph->name ? graph->name : "", graph->n_input,
                                        arg_count));
    return NULL;
  }
  grtc_tblock_t* block = NULL;
  grt_status_t status = grtc_tblock_create(n->module, arg_types, arg_count, &block);
  if (grt_status_is_ok(status)) status = grtc_onnx_import_subgraph(n, graph, block);
  if (!grt_status_is_ok(status)) {
    grtc_onnx_cf_set(n, status);
    return NULL;
  }
  if (!block->last || block->last->kind != GRTC_TOP_YIELD) {
    grtc_onnx_cf_set(n, grtc_onnx_error(n, "the sub-graph did not end in its outputs"));
    return NULL;
  }
  return block;
}

// Moves |from|'s ops but its final YIELD to the end of |to|, with uses of
// |from|'s arguments replaced by |to|'s first arguments. Returns the
// YIELD's operands (|from| keeps the YIELD).
static grtc_tvalue_t** grtc_onnx_move_ops(grtc_tblock_t* from, grtc_tblock_t* to,
                                          uint32_t* out_count) {
  grtc_top_t* yield = from->last;
  for (uint32_t i = 0; i < from->arg_count; ++i) {
    grtc_onnx_replace_in(from, &from->args[i], &to->args[i]);
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
    grtc_onnx_cf_set(n, grtc_onnx_error(n, "%s must be one bool, got %s", what,
                                        grtc_onnx_cf_fmt(&v->type, buffer)));
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
    grtc_tvalue_t** values = grtc_onnx_move_ops(block, n->block, &results);
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
      return grtc_onnx_unsupported(n, "output %u is %s in then_branch but %s in else_branch; "
                                      "grt needs one static type",
                                   i, grtc_onnx_cf_fmt(a, ba), grtc_onnx_cf_fmt(b, bb));
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
    grtc_tvalue_t** values = grtc_onnx_move_ops(branches[r], region, &count);
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
    return grtc_onnx_error(n, "the body has %zu outputs, expected %u (cond, %u loop-carried, "
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
                             grtc_onnx_cf_fmt(&trip->type, buffer));
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
  if (!grtc_onnx_cf_ok(n)) return grt_ok_status();
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
  bool cond_stays = cond_always && (cond_out == &body->args[1] ||
                                    (grtc_onnx_is_constant(cond_out) &&
                                     cond_out->type.elem == GRTC_ELEM_I1));
  if (cond_stays && cond_out != &body->args[1]) {
    int64_t* values = NULL;
    uint32_t count = 0;
    cond_stays = grtc_onnx_ints(n, cond_out, "the body's condition", &values, &count) &&
                 count == 1 && values[0] != 0;
  }
  if (scans > 0 && (trip_value < 0 || !cond_stays)) {
    return grtc_onnx_unsupported(n, "scan outputs need a loop whose iteration count is known "
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
      return grtc_onnx_unsupported(n, "loop-carried value %u enters as %s and leaves the body "
                                      "as %s; grt needs one static type",
                                   i, grtc_onnx_cf_fmt(&types[2 + i], ba),
                                   grtc_onnx_cf_fmt(&outs[1 + i]->type, bb));
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
  if (trip) go = grtc_onnx_binary(n, GRTC_TOP_AND, go,
                                  grtc_onnx_compare(n, GRTC_CMP_LT, &cond_block->args[0], trip));
  n->block = saved;
  if (!go || !grtc_onnx_yield_in(n, cond_block, &go, 1)) return grt_ok_status();
  // body: the imported graph, then i + 1 and the scan slices written at i.
  uint32_t yielded = 0;
  outs = grtc_onnx_move_ops(body, body_block, &yielded);
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

const grtc_onnx_op_def_t grtc_onnx_control_ops[] = {
    {"If", grtc_onnx_op_if, 1, 1, 1, -1, 1},
    {"Loop", grtc_onnx_op_loop, 2, -1, 1, -1, 1},
    {NULL, NULL, 0, 0, 0, 0, 0},
};

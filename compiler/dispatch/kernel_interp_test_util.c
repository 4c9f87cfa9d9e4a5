#include "compiler/dispatch/kernel_interp_test_util.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/mlir/parser.h"
#include "compiler/stablehlo/import.h"
#include "compiler/tensor/eval.h"
#include "compiler/tensor/passes.h"

// Values in the evaluator's representation (compiler/tensor/eval.h), which
// also computes every scalar op, compare and convert: the interpreter
// checks lowering (tiling, indexing, fusion), and scalar semantics are
// stated once.
typedef grtc_scalar_value_t grtc_kv_t;

typedef struct grtc_kinterp_t {
  const grtc_kernel_t* kernel;
  void* const* buffers;
  grtc_kv_t* values;
  grtc_kv_t* accs;
  grtc_kv_t* args;  // sort comparator arguments
  int64_t p[GRTC_KERNEL_MAX_RANK];
  int64_t r[GRTC_KERNEL_MAX_RANK];
  const int64_t* extents;  // the symbolic extents' values
  // The parallel and reduction dims with every extent replaced by its value.
  int64_t pdims[GRTC_KERNEL_MAX_RANK];
  int64_t rdims[GRTC_KERNEL_MAX_RANK];
  grt_status_t status;
} grtc_kinterp_t;

static int64_t grtc_kinterp_size(const grtc_kinterp_t* in, int64_t size) {
  return grtc_kdim_is_static(size) ? size
                                   : in->extents[grtc_kdim_extent(size)];
}

static void grtc_kinterp_fail(grtc_kinterp_t* in, const char* message,
                              uint32_t inst) {
  if (in->status) return;
  in->status = grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                               "interpreter: %s (kernel %.*s, %%%u)", message,
                               (int)in->kernel->name.size,
                               in->kernel->name.data, inst);
}

static grtc_kv_t grtc_kinterp_load(grtc_elem_t elem, const void* base,
                                   int64_t index) {
  return grtc_eval_load(elem, (const uint8_t*)base +
                                  index * (int64_t)grtc_elem_byte_size(elem));
}

static void grtc_kinterp_store(grtc_elem_t elem, void* base, int64_t index,
                               grtc_kv_t v) {
  grtc_eval_store(elem, v,
                  (uint8_t*)base + index * (int64_t)grtc_elem_byte_size(elem));
}

static grtc_kv_t grtc_kinterp_op(const grtc_kinterp_t* in,
                                 const grtc_kinst_t* k, const grtc_kv_t* o) {
  // Operand type (SELECT's first operand is the i1 predicate).
  grtc_elem_t ot = k->op == GRTC_SCALAR_SELECT
                       ? in->kernel->insts[k->operands[1]].type
                       : in->kernel->insts[k->operands[0]].type;
  return grtc_eval_scalar((grtc_scalar_op_t)k->op, ot, o);
}

static grtc_kv_t grtc_kinterp_bitcast(grtc_elem_t from, grtc_elem_t to,
                                      grtc_kv_t v) {
  uint8_t bytes[8] = {0};
  grtc_eval_store(from, v, bytes);
  return grtc_eval_load(to, bytes);
}

// Evaluates the instructions of |section|.
static void grtc_kinterp_section(grtc_kinterp_t* in, grtc_ksection_t section) {
  const grtc_kernel_t* kernel = in->kernel;
  for (uint32_t i = 0; i < kernel->inst_count && !in->status; ++i) {
    const grtc_kinst_t* k = &kernel->insts[i];
    if (k->section != section) continue;
    grtc_kv_t o[3];
    for (uint32_t j = 0; j < k->operand_count && j < 3; ++j) {
      o[j] = in->values[k->operands[j]];
    }
    grtc_kv_t v;
    v.i = 0;
    switch (k->kind) {
      case GRTC_KINST_CONST:
        if (grtc_elem_is_float(k->type)) {
          grtc_kv_t f;
          f.f = k->value.f;
          v = grtc_eval_convert(GRTC_ELEM_F64, k->type, f);
        } else {
          v = grtc_eval_from_int(k->type, k->value.i);
        }
        break;
      case GRTC_KINST_PINDEX:
        v.i = in->p[k->dim];
        break;
      case GRTC_KINST_RINDEX:
        v.i = in->r[k->dim];
        break;
      case GRTC_KINST_EXTENT:
        v.i = in->extents[k->dim];
        break;
      case GRTC_KINST_ACC:
        v = in->accs[k->dim];
        break;
      case GRTC_KINST_ARG:
        v = in->args[k->dim];
        break;
      case GRTC_KINST_LOAD: {
        const grtc_kbinding_t* b = &kernel->bindings[k->binding];
        if (o[0].i < 0 ||
            (b->element_count >= 0 && o[0].i >= b->element_count)) {
          grtc_kinterp_fail(in, "load out of range", i);
          return;
        }
        v = grtc_kinterp_load(b->elem, in->buffers[k->binding], o[0].i);
        break;
      }
      case GRTC_KINST_OP:
        v = grtc_kinterp_op(in, k, o);
        break;
      case GRTC_KINST_COMPARE:
        v.u = grtc_eval_compare((grtc_compare_direction_t)k->op,
                                k->compare_type,
                                kernel->insts[k->operands[0]].type, o[0],
                                o[1]);
        break;
      case GRTC_KINST_CONVERT:
        v = grtc_eval_convert(kernel->insts[k->operands[0]].type, k->type,
                              o[0]);
        break;
      case GRTC_KINST_BITCAST:
        v = grtc_kinterp_bitcast(kernel->insts[k->operands[0]].type, k->type,
                                 o[0]);
        break;
    }
    in->values[i] = v;
  }
}

static bool grtc_kinterp_next(int64_t* index, const int64_t* dims,
                              uint32_t rank) {
  for (uint32_t d = rank; d-- > 0;) {
    if (++index[d] < dims[d]) return true;
    index[d] = 0;
  }
  return false;
}

static void grtc_kinterp_point(grtc_kinterp_t* in) {
  const grtc_kernel_t* kernel = in->kernel;
  grtc_kinterp_section(in, GRTC_KSECTION_PRE);
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    in->accs[a] = in->values[kernel->accs[a].init];
  }
  if (kernel->acc_count) {
    int64_t total = 1;
    for (uint32_t d = 0; d < kernel->reduction_rank; ++d) {
      total *= in->rdims[d];
    }
    memset(in->r, 0, sizeof(in->r));
    for (int64_t n = 0; n < total && !in->status; ++n) {
      grtc_kinterp_section(in, GRTC_KSECTION_LOOP);
      for (uint32_t a = 0; a < kernel->acc_count; ++a) {
        in->accs[a] = in->values[kernel->accs[a].update];
      }
      grtc_kinterp_next(in->r, in->rdims, kernel->reduction_rank);
    }
  }
  grtc_kinterp_section(in, GRTC_KSECTION_POST);
  for (uint32_t s = 0; s < kernel->store_count && !in->status; ++s) {
    const grtc_kstore_t* store = &kernel->stores[s];
    if (store->predicate != GRTC_KINST_NONE &&
        !in->values[store->predicate].i) {
      continue;
    }
    const grtc_kbinding_t* b = &kernel->bindings[store->binding];
    int64_t index = in->values[store->index].i;
    if (index < 0 || (b->element_count >= 0 && index >= b->element_count)) {
      grtc_kinterp_fail(in, "store out of range", store->index);
      return;
    }
    grtc_kinterp_store(b->elem, in->buffers[store->binding], index,
                       in->values[store->value]);
  }
}

static void grtc_kinterp_loop(grtc_kinterp_t* in) {
  const grtc_kernel_t* kernel = in->kernel;
  uint32_t rank = kernel->parallel_rank;
  int64_t tiles[GRTC_KERNEL_MAX_RANK];
  const int64_t* dims = in->pdims;
  // A serial kernel is one workgroup over the whole space (its tiles may
  // be 0 where a dimension is symbolic).
  for (uint32_t d = 0; d < rank; ++d) {
    tiles[d] = kernel->serial ? 1 : (dims[d] + kernel->tile[d] - 1) / kernel->tile[d];
  }
  uint32_t workgroup_count = 0;
  grt_status_t status =
      grtc_kernel_workgroups_for(kernel, in->extents, &workgroup_count);
  if (status) {
    in->status = status;
    return;
  }
  for (uint32_t wg = 0; wg < workgroup_count && !in->status; ++wg) {
    int64_t origin[GRTC_KERNEL_MAX_RANK], extent[GRTC_KERNEL_MAX_RANK];
    uint64_t rest = wg;
    for (uint32_t d = rank; d-- > 0;) {
      int64_t t = kernel->serial ? 0 : (int64_t)(rest % (uint64_t)tiles[d]);
      rest /= (uint64_t)tiles[d];
      origin[d] = t * kernel->tile[d];
      extent[d] = kernel->serial ? dims[d]
                                 : kernel->tile[d];
      if (origin[d] + extent[d] > dims[d]) {
        extent[d] = dims[d] - origin[d];
      }
    }
    int64_t local[GRTC_KERNEL_MAX_RANK] = {0};
    bool empty = false;
    for (uint32_t d = 0; d < rank; ++d) empty |= extent[d] <= 0;
    if (empty) continue;
    do {
      for (uint32_t d = 0; d < rank; ++d) in->p[d] = origin[d] + local[d];
      grtc_kinterp_point(in);
    } while (!in->status && grtc_kinterp_next(local, extent, rank));
  }
}

static void grtc_kinterp_sort(grtc_kinterp_t* in) {
  const grtc_kernel_t* kernel = in->kernel;
  uint32_t n = kernel->sort.operand_count;
  uint32_t dim = kernel->sort.dimension;
  int64_t dims[GRTC_KERNEL_MAX_RANK];
  int64_t strides[GRTC_KERNEL_MAX_RANK];
  int64_t stride = 1;
  for (uint32_t d = kernel->sort.rank; d-- > 0;) {
    strides[d] = stride;
    stride *= kernel->sort.dims[d];
    dims[d] = d == dim ? 1 : kernel->sort.dims[d];
  }
  int64_t length = kernel->sort.dims[dim];
  int64_t* order = calloc((size_t)(length ? length : 1), sizeof(int64_t));
  int64_t index[GRTC_KERNEL_MAX_RANK] = {0};
  do {
    int64_t base = 0;
    for (uint32_t d = 0; d < kernel->sort.rank; ++d) {
      base += index[d] * strides[d];
    }
    // Stable insertion sort of positions by the comparator.
    for (int64_t i = 0; i < length; ++i) {
      int64_t j = i;
      while (j > 0 && !in->status) {
        for (uint32_t k = 0; k < n; ++k) {
          grtc_elem_t e = kernel->bindings[k].elem;
          in->args[2 * k] = grtc_kinterp_load(e, in->buffers[k],
                                              base + i * strides[dim]);
          in->args[2 * k + 1] = grtc_kinterp_load(
              e, in->buffers[k], base + order[j - 1] * strides[dim]);
        }
        grtc_kinterp_section(in, GRTC_KSECTION_PRE);
        if (!in->values[kernel->sort.comparator].i) break;
        order[j] = order[j - 1];
        --j;
      }
      order[j] = i;
    }
    for (uint32_t k = 0; k < n; ++k) {
      grtc_elem_t e = kernel->bindings[k].elem;
      for (int64_t i = 0; i < length; ++i) {
        grtc_kinterp_store(e, in->buffers[n + k], base + i * strides[dim],
                           grtc_kinterp_load(e, in->buffers[k],
                                             base + order[i] * strides[dim]));
      }
    }
  } while (!in->status && grtc_kinterp_next(index, dims, kernel->sort.rank));
  free(order);
}

grt_status_t grtc_kinterp_run(const grtc_kernel_t* kernel,
                              void* const* buffers) {
  return grtc_kinterp_run_extents(kernel, buffers, NULL);
}

grt_status_t grtc_kinterp_run_extents(const grtc_kernel_t* kernel,
                                      void* const* buffers,
                                      const int64_t* extents) {
  if (kernel->extent_count && !extents) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "interpreter: kernel %.*s reads %u extents, none "
                           "given",
                           (int)kernel->name.size, kernel->name.data,
                           kernel->extent_count);
  }
  grtc_kinterp_t in;
  memset(&in, 0, sizeof(in));
  in.kernel = kernel;
  in.buffers = buffers;
  in.extents = extents;
  for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
    in.pdims[d] = grtc_kinterp_size(&in, kernel->parallel_dims[d]);
  }
  for (uint32_t d = 0; d < kernel->reduction_rank; ++d) {
    in.rdims[d] = grtc_kinterp_size(&in, kernel->reduction_dims[d]);
  }
  in.values = calloc(kernel->inst_count + 1, sizeof(grtc_kv_t));
  in.accs = calloc(kernel->acc_count + 1, sizeof(grtc_kv_t));
  in.args = calloc(2 * kernel->sort.operand_count + 2, sizeof(grtc_kv_t));
  if (kernel->kind == GRTC_KERNEL_SORT) {
    grtc_kinterp_sort(&in);
  } else {
    grtc_kinterp_loop(&in);
  }
  free(in.values);
  free(in.accs);
  free(in.args);
  return in.status ? in.status : grt_ok_status();
}

// Buffers of the host program, by value id.
typedef struct grtc_khost_t {
  void** buffers;
  uint8_t* owned;
  uint32_t count;
} grtc_khost_t;

static void* grtc_khost_get(grtc_khost_t* host, const grtc_tvalue_t* v) {
  return v->id < host->count ? host->buffers[v->id] : NULL;
}

static void grtc_khost_set(grtc_khost_t* host, const grtc_tvalue_t* v,
                           void* buffer, bool owned) {
  if (v->id >= host->count) return;
  host->buffers[v->id] = buffer;
  host->owned[v->id] = owned;
}

// Bytes of |type| with its symbols' values |symbols| (by symbol id).
static size_t grtc_khost_bytes(const grtc_tmodule_t* module,
                               const grtc_ttype_t* type,
                               const int64_t* symbols) {
  int64_t count = 1;
  for (uint32_t d = 0; d < type->rank; ++d) {
    int64_t dim = grtc_tmodule_resolve_dim(module, type->dims[d]);
    count *= grtc_dim_is_static(dim) ? dim : symbols[grtc_dim_symbol(dim)];
  }
  return (size_t)count * grtc_elem_byte_size(type->elem);
}

grt_status_t grtc_kinterp_run_func(const grtc_tmodule_t* module,
                                   const grtc_kernel_set_t* kernels,
                                   const grtc_tfunc_t* func,
                                   void* const* args, void** results) {
  return grtc_kinterp_run_func_symbolic(module, kernels, func, NULL, args,
                                        results);
}

grt_status_t grtc_kinterp_run_func_symbolic(const grtc_tmodule_t* module,
                                            const grtc_kernel_set_t* kernels,
                                            const grtc_tfunc_t* func,
                                            const int64_t* symbols,
                                            void* const* args,
                                            void** results) {
  grtc_khost_t host;
  host.count = module->next_value_id;
  host.buffers = calloc(host.count, sizeof(void*));
  host.owned = calloc(host.count, 1);
  grt_status_t status = grt_ok_status();
  for (uint32_t i = 0; i < func->body->arg_count; ++i) {
    grtc_khost_set(&host, &func->body->args[i], args[i], false);
  }
  for (const grtc_top_t* op = func->body->first; op && !status;
       op = op->next) {
    switch (op->kind) {
      case GRTC_TOP_CONSTANT: {
        const grtc_ttype_t* t = &op->results[0].type;
        size_t size = grtc_elem_byte_size(t->elem);
        int64_t count = grtc_ttype_element_count(t);
        uint8_t* data = calloc((size_t)count + 1, size);
        for (int64_t i = 0; i < count; ++i) {
          memcpy(data + i * size,
                 op->attrs.constant.data +
                     (op->attrs.constant.splat ? 0 : i * size),
                 size);
        }
        grtc_khost_set(&host, &op->results[0], data, true);
        break;
      }
      case GRTC_TOP_RESHAPE:
        grtc_khost_set(&host, &op->results[0],
                       grtc_khost_get(&host, op->operands[0]), false);
        break;
      case GRTC_TOP_DISPATCH: {
        const grtc_kernel_t* kernel = kernels->kernels[op->attrs.kernel];
        void* bindings[64];
        uint32_t b = 0;
        for (uint32_t i = 0; i < op->operand_count && b < 64; ++i) {
          bindings[b++] = grtc_khost_get(&host, op->operands[i]);
        }
        for (uint32_t r = 0; r < op->result_count && b < 64; ++r) {
          if (op->attrs.tied && r == 0) {
            grtc_khost_set(&host, &op->results[0],
                           bindings[op->attrs.tied_operand], false);
            continue;
          }
          const grtc_ttype_t* t = &op->results[r].type;
          void* data = calloc(grtc_khost_bytes(module, t, symbols) + 1, 1);
          grtc_khost_set(&host, &op->results[r], data, true);
          bindings[b++] = data;
        }
        if (b != kernel->binding_count) {
          status = grt_make_status(GRT_STATUS_INTERNAL,
                                   "dispatch of %.*s has %u buffers for %u "
                                   "bindings",
                                   (int)kernel->name.size, kernel->name.data,
                                   b, kernel->binding_count);
          break;
        }
        int64_t extents[64] = {0};
        for (uint32_t e = 0; e < kernel->extent_count && e < 64; ++e) {
          extents[e] = symbols ? symbols[kernel->extent_symbols[e]] : -1;
        }
        status = grtc_kinterp_run_extents(kernel, bindings, extents);
        break;
      }
      case GRTC_TOP_RETURN:
        for (uint32_t i = 0; i < op->operand_count; ++i) {
          const grtc_ttype_t* t = &op->operands[i]->type;
          size_t bytes = grtc_khost_bytes(module, t, symbols);
          memcpy(results[i], grtc_khost_get(&host, op->operands[i]), bytes);
        }
        break;
      default:
        status = grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                                 "host interpreter: '%s' after dispatch "
                                 "formation",
                                 grtc_top_kind_name(op->kind));
        break;
    }
  }
  for (uint32_t i = 0; i < host.count; ++i) {
    if (host.owned[i]) free(host.buffers[i]);
  }
  free(host.buffers);
  free(host.owned);
  return status ? status : grt_ok_status();
}

grt_status_t grtc_test_program_import(const char* source,
                                      grtc_test_program_t* out) {
  memset(out, 0, sizeof(*out));
  grtc_module_t* parsed = NULL;
  GRT_RETURN_IF_ERROR(grtc_parse_source(grt_make_cstring_view(source),
                                        "t.mlir", grtc_stablehlo_parse_options(),
                                        grt_allocator_system(), &parsed));
  grt_status_t status =
      grtc_stablehlo_import(parsed, grt_allocator_system(), &out->module);
  grtc_module_destroy(parsed);
  if (grt_status_is_ok(status)) status = grtc_tensor_verify(out->module);
  if (!grt_status_is_ok(status)) {
    grtc_tmodule_destroy(out->module);
    out->module = NULL;
    return status;
  }
  grtc_kernel_set_init(grt_allocator_system(), &out->kernels);
  return grt_ok_status();
}

void grtc_test_program_release(grtc_test_program_t* program) {
  if (!program->module) return;
  grtc_kernel_set_deinit(&program->kernels);
  grtc_tmodule_destroy(program->module);
  program->module = NULL;
}

#include "compiler/host/memory_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool grtc_size_expr_of_type(const grtc_tmodule_t* module, const grtc_ttype_t* type,
                            grtc_size_expr_t* out_expr) {
  memset(out_expr, 0, sizeof(*out_expr));
  int64_t factor = (int64_t)grtc_elem_byte_size(type->elem);
  for (uint32_t d = 0; d < type->rank && d < GRTC_MAX_RANK; ++d) {
    int64_t dim = grtc_tmodule_resolve_dim(module, type->dims[d]);
    if (grtc_dim_is_static(dim)) {
      if (dim != 0 && factor > INT64_MAX / 2 / dim) return false;
      factor *= dim;
      continue;
    }
    // Insertion keeps the symbols ascending.
    uint32_t symbol = grtc_dim_symbol(dim);
    uint32_t i = out_expr->symbol_count++;
    while (i > 0 && out_expr->symbols[i - 1] > symbol) {
      out_expr->symbols[i] = out_expr->symbols[i - 1];
      --i;
    }
    out_expr->symbols[i] = symbol;
  }
  out_expr->factor = factor;
  if (factor == 0) out_expr->symbol_count = 0;
  return true;
}

static bool grtc_size_expr_same_symbols(const grtc_size_expr_t* a, const grtc_size_expr_t* b) {
  return a->symbol_count == b->symbol_count &&
         memcmp(a->symbols, b->symbols, a->symbol_count * sizeof(a->symbols[0])) == 0;
}

bool grtc_size_expr_covers(const grtc_size_expr_t* a, const grtc_size_expr_t* b) {
  if (b->factor == 0) return true;
  return grtc_size_expr_same_symbols(a, b) && a->factor >= b->factor;
}

const char* grtc_size_expr_format(const grtc_size_expr_t* expr, char* buffer, size_t capacity) {
  if (!capacity) return buffer;
  int n = snprintf(buffer, capacity, "%lld", (long long)expr->factor);
  size_t used = n > 0 ? (size_t)n : 0;
  for (uint32_t i = 0; i < expr->symbol_count && used < capacity; ++i) {
    n = snprintf(buffer + used, capacity - used, "*s%u", expr->symbols[i]);
    if (n > 0) used += (size_t)n;
  }
  return buffer;
}

// Per value id, while planning.
typedef struct grtc_plan_value_t {
  const grtc_tvalue_t* value;
  const grtc_tvalue_t* root;
  int64_t def;       // position of the defining op
  int64_t last_use;  // latest position of a use of it or of an alias
  bool escapes;
  const grtc_size_expr_t* expr;  // while assigning: its byte size
} grtc_plan_value_t;

typedef struct grtc_planner_t {
  grtc_plan_value_t* values;
  uint32_t capacity;
  int64_t position;
} grtc_planner_t;

static grtc_plan_value_t* grtc_plan_value(grtc_planner_t* planner, const grtc_tvalue_t* value) {
  return value->id < planner->capacity ? &planner->values[value->id] : NULL;
}

static void grtc_plan_define(grtc_planner_t* planner, const grtc_tvalue_t* value,
                             const grtc_tvalue_t* root, int64_t position) {
  grtc_plan_value_t* entry = grtc_plan_value(planner, value);
  if (!entry) return;
  entry->value = value;
  entry->root = root;
  entry->def = position;
  entry->last_use = position;
}

// Ops whose results are bytes this call produces (placed by the plan): a
// dispatch's outputs and a global's loaded copy.
static bool grtc_plan_produces(const grtc_tvalue_t* value) {
  return value->def &&
         (value->def->kind == GRTC_TOP_DISPATCH || value->def->kind == GRTC_TOP_GLOBAL_LOAD);
}

static const grtc_tblock_t* grtc_plan_value_block(const grtc_tvalue_t* value) {
  return value->def ? value->def->parent : value->block;
}

// Ops whose operands leave the block's control: their buffers are held by
// a callee, a region, or the caller.
static bool grtc_plan_op_takes_buffers(grtc_top_kind_t kind) {
  switch (kind) {
    case GRTC_TOP_RETURN:
    case GRTC_TOP_YIELD:
    case GRTC_TOP_CALL:
    case GRTC_TOP_WHILE:
    case GRTC_TOP_IF:
    case GRTC_TOP_CASE:
      return true;
    default:
      return false;
  }
}

static void grtc_plan_walk_block(grtc_planner_t* planner, const grtc_tblock_t* block) {
  for (uint32_t i = 0; i < block->arg_count; ++i) {
    grtc_plan_define(planner, &block->args[i], &block->args[i], planner->position);
  }
  for (const grtc_top_t* op = block->first; op; op = op->next) {
    int64_t start = planner->position++;
    for (uint32_t r = 0; r < op->region_count; ++r) {
      grtc_plan_walk_block(planner, op->regions[r]);
    }
    int64_t end = op->region_count ? planner->position++ : start;
    for (uint32_t o = 0; o < op->operand_count; ++o) {
      grtc_plan_value_t* use = grtc_plan_value(planner, op->operands[o]);
      if (!use || !use->root) continue;
      grtc_plan_value_t* root = grtc_plan_value(planner, use->root);
      if (end > root->last_use) root->last_use = end;
      if (grtc_plan_op_takes_buffers(op->kind) ||
          grtc_plan_value_block(op->operands[o]) != block) {
        root->escapes = true;
      }
    }
    for (uint32_t r = 0; r < op->result_count; ++r) {
      const grtc_tvalue_t* result = &op->results[r];
      const grtc_tvalue_t* root = result;
      const grtc_tvalue_t* viewed = NULL;
      if (op->kind == GRTC_TOP_RESHAPE && op->operand_count == 1) {
        viewed = op->operands[0];
      } else if (op->kind == GRTC_TOP_DISPATCH && op->attrs.tied && r == 0 &&
                 op->attrs.tied_operand < op->operand_count) {
        viewed = op->operands[op->attrs.tied_operand];
      }
      if (viewed) {
        grtc_plan_value_t* entry = grtc_plan_value(planner, viewed);
        // An in-place update may only write bytes this call produced; a
        // tied result over an argument or a constant is a copy of its own.
        bool writable = entry && entry->root && grtc_plan_produces(entry->root);
        if (entry && entry->root && (op->kind == GRTC_TOP_RESHAPE || writable)) {
          root = entry->root;
        }
      }
      grtc_plan_define(planner, result, root, start);
    }
  }
}

static int64_t grtc_plan_align(int64_t size) {
  return (size + GRTC_MEMORY_PLAN_ALIGNMENT - 1) & ~(int64_t)(GRTC_MEMORY_PLAN_ALIGNMENT - 1);
}

typedef struct grtc_plan_block_t {
  const grtc_plan_value_t* value;
  int64_t size;  // aligned
  int64_t offset;
} grtc_plan_block_t;

static int grtc_plan_compare_size(const void* a, const void* b) {
  const grtc_plan_block_t* x = a;
  const grtc_plan_block_t* y = b;
  if (x->size != y->size) return x->size > y->size ? -1 : 1;
  if (x->value->def != y->value->def) return x->value->def < y->value->def ? -1 : 1;
  return 0;
}

static int grtc_plan_compare_offset(const void* a, const void* b) {
  const grtc_plan_block_t* const* x = a;
  const grtc_plan_block_t* const* y = b;
  if ((*x)->offset != (*y)->offset) return (*x)->offset < (*y)->offset ? -1 : 1;
  return 0;
}

static bool grtc_plan_overlap(const grtc_plan_value_t* a, const grtc_plan_value_t* b) {
  return a->def <= b->last_use && b->def <= a->last_use;
}

// Greedy by size, best fit: each block, largest first, takes the smallest
// gap between the blocks already placed that it overlaps in time, or goes
// above them all.
static grt_status_t grtc_plan_place(grt_allocator_t allocator, grtc_plan_block_t* blocks,
                                    uint32_t count, int64_t* out_peak) {
  if (count > 1) qsort(blocks, count, sizeof(*blocks), grtc_plan_compare_size);
  const grtc_plan_block_t** live = NULL;
  if (count) {
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(allocator, count * sizeof(*live), (void**)&live));
  }
  int64_t peak = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t live_count = 0;
    for (uint32_t j = 0; j < i; ++j) {
      if (grtc_plan_overlap(blocks[i].value, blocks[j].value)) live[live_count++] = &blocks[j];
    }
    qsort(live, live_count, sizeof(*live), grtc_plan_compare_offset);
    int64_t end = 0;
    int64_t best = -1;
    int64_t best_gap = 0;
    for (uint32_t j = 0; j < live_count; ++j) {
      int64_t gap = live[j]->offset - end;
      if (gap >= blocks[i].size && (best < 0 || gap < best_gap)) {
        best = end;
        best_gap = gap;
      }
      int64_t live_end = live[j]->offset + live[j]->size;
      if (live_end > end) end = live_end;
    }
    blocks[i].offset = best >= 0 ? best : end;
    if (blocks[i].offset + blocks[i].size > peak) peak = blocks[i].offset + blocks[i].size;
  }
  grt_allocator_free(allocator, live);
  *out_peak = peak;
  return grt_ok_status();
}

static int grtc_plan_compare_expr(const void* a, const void* b) {
  const grtc_plan_value_t* x = *(const grtc_plan_value_t* const*)a;
  const grtc_plan_value_t* y = *(const grtc_plan_value_t* const*)b;
  const grtc_size_expr_t* ex = x->expr;
  const grtc_size_expr_t* ey = y->expr;
  if (ex->symbol_count != ey->symbol_count) return ex->symbol_count < ey->symbol_count ? -1 : 1;
  for (uint32_t i = 0; i < ex->symbol_count; ++i) {
    if (ex->symbols[i] != ey->symbols[i]) return ex->symbols[i] < ey->symbols[i] ? -1 : 1;
  }
  if (ex->factor != ey->factor) return ex->factor > ey->factor ? -1 : 1;
  if (x->def != y->def) return x->def < y->def ? -1 : 1;
  return 0;
}

// Symbolic arena values, largest factor first within each set of symbols:
// each takes the first slot it fits (the slot's monomial covers its own)
// whose occupants are all dead while it lives, else a new slot.
static grt_status_t grtc_plan_place_symbolic(grtc_memory_plan_t* plan,
                                             const grtc_plan_value_t** values, uint32_t count) {
  if (!count) return grt_ok_status();
  qsort(values, count, sizeof(*values), grtc_plan_compare_expr);
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(plan->allocator, count * sizeof(*plan->slots),
                                           (void**)&plan->slots));
  for (uint32_t i = 0; i < count; ++i) {
    grtc_value_storage_t* storage = &plan->storage[values[i]->value->id];
    uint32_t chosen = GRTC_MEMORY_PLAN_NO_SLOT;
    for (uint32_t slot = 0; slot < plan->slot_count && chosen == GRTC_MEMORY_PLAN_NO_SLOT;
         ++slot) {
      if (!grtc_size_expr_covers(&plan->slots[slot], &storage->bytes)) continue;
      bool free = true;
      for (uint32_t j = 0; j < i && free; ++j) {
        free = plan->storage[values[j]->value->id].slot != slot ||
               !grtc_plan_overlap(values[i], values[j]);
      }
      if (free) chosen = slot;
    }
    if (chosen == GRTC_MEMORY_PLAN_NO_SLOT) {
      chosen = plan->slot_count++;
      plan->slots[chosen] = storage->bytes;
    }
    storage->slot = chosen;
  }
  return grt_ok_status();
}

static grt_status_t grtc_plan_assign(const grtc_tmodule_t* module, grtc_planner_t* planner,
                                     grtc_memory_plan_t* plan) {
  // A value whose extent a while loop changes from one iteration to the
  // next (grtc_tmodule_dim_varies) has no arena slot the call could size
  // once: it gets its own allocation, sized where it is made.
  for (uint32_t id = 0; id < planner->capacity; ++id) {
    grtc_plan_value_t* v = &planner->values[id];
    if (!v->value || v->escapes) continue;
    for (uint32_t d = 0; d < v->value->type.rank; ++d) {
      if (grtc_tmodule_dim_varies(module, v->value->type.dims[d])) v->escapes = true;
    }
  }
  uint32_t count = 0;
  for (uint32_t id = 0; id < planner->capacity; ++id) {
    const grtc_plan_value_t* v = &planner->values[id];
    if (v->value && v->root == v->value && grtc_plan_produces(v->value) && !v->escapes) {
      ++count;
    }
  }
  grtc_plan_block_t* blocks = NULL;
  if (count) {
    GRT_RETURN_IF_ERROR(
        grt_allocator_calloc(plan->allocator, count * sizeof(*blocks), (void**)&blocks));
  }
  const grtc_plan_value_t** symbolic = NULL;
  if (count) {
    grt_status_t status = grt_allocator_malloc(plan->allocator, count * sizeof(*symbolic),
                                               (void**)&symbolic);
    if (!grt_status_is_ok(status)) {
      grt_allocator_free(plan->allocator, blocks);
      return status;
    }
  }
  uint32_t n = 0;
  uint32_t symbolic_count = 0;
  grt_status_t status = grt_ok_status();
  for (uint32_t id = 0; id < planner->capacity && grt_status_is_ok(status); ++id) {
    grtc_plan_value_t* v = &planner->values[id];
    v->expr = &plan->storage[id].bytes;
    if (!v->value) continue;
    grtc_value_storage_t* storage = &plan->storage[id];
    if (!grtc_size_expr_of_type(module, &v->value->type, &storage->bytes)) {
      status = grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                               "value %%%u is too large to allocate (over 2^62 bytes)", id);
      break;
    }
    int64_t size = storage->bytes.symbol_count ? -1 : storage->bytes.factor;
    storage->root = v->root;
    storage->size = size;
    storage->slot = GRTC_MEMORY_PLAN_NO_SLOT;
    plan->planned[id] = true;
    if (v->root != v->value || !grtc_plan_produces(v->value)) {
      continue;  // aliases take their root's kind below; others are external
    }
    storage->kind = v->escapes ? GRTC_STORAGE_OWN : GRTC_STORAGE_ARENA;
    if (!v->escapes && size < 0) {
      symbolic[symbolic_count++] = v;
    } else if (!v->escapes) {
      blocks[n].value = v;
      // An empty tensor still gets an aligned slot, so the arena exists to
      // be viewed.
      blocks[n].size = grtc_plan_align(size ? size : 1);
      ++n;
    }
  }
  if (grt_status_is_ok(status)) {
    status = grtc_plan_place(plan->allocator, blocks, n, &plan->transient_bytes);
  }
  if (grt_status_is_ok(status)) status = grtc_plan_place_symbolic(plan, symbolic, symbolic_count);
  if (grt_status_is_ok(status)) {
    for (uint32_t i = 0; i < n; ++i) plan->storage[blocks[i].value->value->id].offset = blocks[i].offset;
    plan->arena_value_count = n + symbolic_count;
    for (uint32_t id = 0; id < planner->capacity; ++id) {
      grtc_value_storage_t* storage = &plan->storage[id];
      if (!plan->planned[id] || storage->root->id == id) continue;
      const grtc_value_storage_t* root = &plan->storage[storage->root->id];
      storage->kind = root->kind;
      storage->offset = root->offset;
      storage->slot = root->slot;
    }
  }
  grt_allocator_free(plan->allocator, symbolic);
  grt_allocator_free(plan->allocator, blocks);
  return status;
}

grt_status_t grtc_memory_plan_build(const grtc_tmodule_t* module, const grtc_tfunc_t* func,
                                    grt_allocator_t allocator, grtc_memory_plan_t* out_plan) {
  memset(out_plan, 0, sizeof(*out_plan));
  out_plan->allocator = allocator;
  uint32_t capacity = module->next_value_id;
  grtc_planner_t planner = {NULL, capacity, 0};
  size_t n = capacity ? capacity : 1;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, n * sizeof(*planner.values), (void**)&planner.values));
  grt_status_t status =
      grt_allocator_calloc(allocator, n * sizeof(*out_plan->storage), (void**)&out_plan->storage);
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator, n * sizeof(*out_plan->planned),
                                  (void**)&out_plan->planned);
  }
  if (grt_status_is_ok(status)) {
    out_plan->value_capacity = capacity;
    grtc_plan_walk_block(&planner, func->body);
    status = grtc_plan_assign(module, &planner, out_plan);
  }
  grt_allocator_free(allocator, planner.values);
  if (!grt_status_is_ok(status)) grtc_memory_plan_deinit(out_plan);
  return status;
}

void grtc_memory_plan_deinit(grtc_memory_plan_t* plan) {
  grt_allocator_free(plan->allocator, plan->storage);
  grt_allocator_free(plan->allocator, plan->planned);
  grt_allocator_free(plan->allocator, plan->slots);
  plan->storage = NULL;
  plan->planned = NULL;
  plan->slots = NULL;
  plan->slot_count = 0;
}

const grtc_value_storage_t* grtc_memory_plan_storage(const grtc_memory_plan_t* plan,
                                                     const grtc_tvalue_t* value) {
  if (value->id >= plan->value_capacity || !plan->planned[value->id]) return NULL;
  return &plan->storage[value->id];
}

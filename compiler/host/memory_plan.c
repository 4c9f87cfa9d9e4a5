#include "compiler/host/memory_plan.h"

#include <stdlib.h>
#include <string.h>

// Per value id, while planning.
typedef struct grtc_plan_value_t {
  const grtc_tvalue_t* value;
  const grtc_tvalue_t* root;
  int64_t def;       // position of the defining op
  int64_t last_use;  // latest position of a use of it or of an alias
  bool escapes;
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
        bool writable = entry && entry->root && entry->root->def &&
                        entry->root->def->kind == GRTC_TOP_DISPATCH;
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

static grt_status_t grtc_plan_assign(const grtc_planner_t* planner, grtc_memory_plan_t* plan) {
  uint32_t count = 0;
  for (uint32_t id = 0; id < planner->capacity; ++id) {
    const grtc_plan_value_t* v = &planner->values[id];
    if (v->value && v->root == v->value && v->value->def &&
        v->value->def->kind == GRTC_TOP_DISPATCH && !v->escapes) {
      ++count;
    }
  }
  grtc_plan_block_t* blocks = NULL;
  if (count) {
    GRT_RETURN_IF_ERROR(
        grt_allocator_calloc(plan->allocator, count * sizeof(*blocks), (void**)&blocks));
  }
  uint32_t n = 0;
  grt_status_t status = grt_ok_status();
  for (uint32_t id = 0; id < planner->capacity && grt_status_is_ok(status); ++id) {
    const grtc_plan_value_t* v = &planner->values[id];
    if (!v->value) continue;
    int64_t size = grtc_ttype_byte_size(&v->value->type);
    if (size < 0 || size > INT64_MAX / 2) {
      status = grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                               "value %%%u of %lld bytes is too large to allocate", id,
                               (long long)size);
      break;
    }
    grtc_value_storage_t* storage = &plan->storage[id];
    storage->root = v->root;
    storage->size = size;
    plan->planned[id] = true;
    if (v->root != v->value || !v->value->def || v->value->def->kind != GRTC_TOP_DISPATCH) {
      continue;  // aliases take their root's kind below; others are external
    }
    storage->kind = v->escapes ? GRTC_STORAGE_OWN : GRTC_STORAGE_ARENA;
    if (!v->escapes) {
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
  if (grt_status_is_ok(status)) {
    for (uint32_t i = 0; i < n; ++i) plan->storage[blocks[i].value->value->id].offset = blocks[i].offset;
    plan->arena_value_count = n;
    for (uint32_t id = 0; id < planner->capacity; ++id) {
      grtc_value_storage_t* storage = &plan->storage[id];
      if (!plan->planned[id] || storage->root->id == id) continue;
      const grtc_value_storage_t* root = &plan->storage[storage->root->id];
      storage->kind = root->kind;
      storage->offset = root->offset;
    }
  }
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
    status = grtc_plan_assign(&planner, out_plan);
  }
  grt_allocator_free(allocator, planner.values);
  if (!grt_status_is_ok(status)) grtc_memory_plan_deinit(out_plan);
  return status;
}

void grtc_memory_plan_deinit(grtc_memory_plan_t* plan) {
  grt_allocator_free(plan->allocator, plan->storage);
  grt_allocator_free(plan->allocator, plan->planned);
  plan->storage = NULL;
  plan->planned = NULL;
}

const grtc_value_storage_t* grtc_memory_plan_storage(const grtc_memory_plan_t* plan,
                                                     const grtc_tvalue_t* value) {
  if (value->id >= plan->value_capacity || !plan->planned[value->id]) return NULL;
  return &plan->storage[value->id];
}

// Dispatch region formation: decides, per value, whether it is computed
// inside its consumers' kernels or materialized in a buffer of its own,
// then lowers every materializing op (a region root) to one kernel and
// replaces it with a DISPATCH op.
#include "compiler/dispatch/dispatch.h"

#include <stdio.h>
#include <string.h>

#include "compiler/dispatch/emitter.h"
#include "compiler/dispatch/lower.h"
#include "compiler/dispatch/rows.h"

// A value with several consumers is recomputed by each when its fused
// tree is at most this many ops; beyond it, it is materialized once.
#define GRTC_DISPATCH_MULTI_USE_COST 8
// Any fused tree larger than this is cut, bounding kernel size.
#define GRTC_DISPATCH_MAX_COST 256

typedef struct grtc_dispatch_t {
  grtc_tmodule_t* module;
  const grtc_dispatch_options_t* options;
  grtc_kernel_set_t* kernels;
  grt_arena_t scratch;  // per block: analysis; reset per kernel: lowering
  grt_arena_t kernel_scratch;
  uint32_t next_kernel;
} grtc_dispatch_t;

// Per-block analysis, by value id.
typedef struct grtc_block_info_t {
  uint32_t count;
  uint8_t* fuse;              // grtc_fuse_t
  uint32_t* local_uses;       // uses by ops of this block
  grtc_top_t** user;          // the last such user
  uint8_t* pinned;            // used by a host op or from a nested region
  uint8_t* contracted;        // an operand of a dot_general/convolution
  uint32_t* cost;             // ops in the fused tree
  grtc_top_t** reduction;     // the reduction fused into its tree, if any
  // What each root's results become (its DISPATCH results), applied to
  // the whole function in one walk once the block is done.
  grtc_tvalue_t** replacement;
} grtc_block_info_t;

static bool grtc_dispatch_is_reduction(grtc_top_kind_t kind) {
  return kind == GRTC_TOP_REDUCE || kind == GRTC_TOP_REDUCE_WINDOW ||
         kind == GRTC_TOP_DOT_GENERAL || kind == GRTC_TOP_CONVOLUTION;
}

// Ops whose results may be recomputed inside their consumers.
static bool grtc_dispatch_is_fusable(const grtc_top_t* op) {
  grtc_top_role_t role = grtc_top_kind_role(op->kind);
  if (op->kind == GRTC_TOP_CONSTANT) return grtc_em_small_constant(op);
  if (op->kind == GRTC_TOP_OPTIMIZATION_BARRIER) return false;
  // A gathered element is one load at a computed index, like a slice.
  return op->kind == GRTC_TOP_IOTA || op->kind == GRTC_TOP_GATHER ||
         role == GRTC_ROLE_E || role == GRTC_ROLE_S;
}

// Ops that read their operands from buffers whatever the fusion.
static bool grtc_dispatch_pins_operands(const grtc_top_t* op) {
  grtc_top_role_t role = grtc_top_kind_role(op->kind);
  return role == GRTC_ROLE_C || role == GRTC_ROLE_H ||
         op->kind == GRTC_TOP_SORT;
}

static bool grtc_dispatch_is_materialized(const grtc_block_info_t* info,
                                          const grtc_tblock_t* block,
                                          const grtc_tvalue_t* value) {
  if (!value->def || value->def->parent != block) return true;
  if (value->id >= info->count) return true;
  return info->fuse[value->id] == GRTC_FUSE_MATERIALIZE;
}

static bool grtc_dispatch_same_shape(const grtc_tvalue_t* a,
                                     const grtc_tvalue_t* b) {
  return grtc_ttype_same_shape(&a->type, &b->type);
}

static grt_status_t grtc_dispatch_oom(void) {
  return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                         "out of memory forming dispatch regions");
}

static grt_status_t grtc_block_info_init(grtc_dispatch_t* d,
                                         const grtc_tblock_t* block,
                                         grtc_block_info_t* info) {
  uint32_t n = d->module->next_value_id;
  info->count = n;
  info->fuse = grt_arena_alloc_zeroed(&d->scratch, n + 1);
  info->local_uses = grt_arena_alloc_zeroed(&d->scratch, (n + 1) * 4);
  info->user = grt_arena_alloc_zeroed(&d->scratch, (n + 1) * sizeof(void*));
  info->pinned = grt_arena_alloc_zeroed(&d->scratch, n + 1);
  info->contracted = grt_arena_alloc_zeroed(&d->scratch, n + 1);
  info->cost = grt_arena_alloc_zeroed(&d->scratch, (n + 1) * 4);
  info->reduction =
      grt_arena_alloc_zeroed(&d->scratch, (n + 1) * sizeof(void*));
  info->replacement =
      grt_arena_alloc_zeroed(&d->scratch, (n + 1) * sizeof(void*));
  if (!info->fuse || !info->local_uses || !info->user || !info->pinned ||
      !info->contracted ||
      !info->cost || !info->reduction || !info->replacement) {
    return grtc_dispatch_oom();
  }
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      grtc_tvalue_t* v = op->operands[i];
      if (v->id >= n) continue;
      ++info->local_uses[v->id];
      info->user[v->id] = op;
      if (grtc_dispatch_pins_operands(op)) info->pinned[v->id] = 1;
      if (op->kind == GRTC_TOP_DOT_GENERAL ||
          op->kind == GRTC_TOP_CONVOLUTION) {
        info->contracted[v->id] = 1;
      }
    }
  }
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t r = 0; r < op->result_count; ++r) {
      grtc_tvalue_t* v = &op->results[r];
      // Uses beyond this block's own are from nested regions.
      if (v->id < n && v->use_count > info->local_uses[v->id]) {
        info->pinned[v->id] = 1;
      }
    }
  }
  return grt_ok_status();
}

// A transpose of a buffer: dot/conv read it with strides (MATMUL/CONV2D).
static bool grtc_dispatch_is_strided_buffer(const grtc_block_info_t* info,
                                            const grtc_tblock_t* block,
                                            const grtc_top_t* op) {
  return op->kind == GRTC_TOP_TRANSPOSE &&
         grtc_dispatch_is_materialized(info, block, op->operands[0]);
}

// Whether single-use |value| may be computed inside its consumer |user|.
static bool grtc_dispatch_fits_user(const grtc_block_info_t* info,
                                    const grtc_tblock_t* block,
                                    const grtc_tvalue_t* value,
                                    const grtc_top_t* user) {
  const grtc_top_t* def = value->def;
  if (user->kind == GRTC_TOP_DOT_GENERAL ||
      user->kind == GRTC_TOP_CONVOLUTION) {
    // Every output element rereads its operands: recomputing a producer
    // there multiplies its cost, and matmul/conv microkernels need
    // buffers. Layout changes of a buffer stay fused (strided reads).
    return grtc_dispatch_is_strided_buffer(info, block, def);
  }
  if (info->reduction[value->id]) {
    // A reduction reaches its output only through elementwise consumers
    // of the same shape (the kernel's POST section).
    return grtc_top_kind_role(user->kind) == GRTC_ROLE_E &&
           user->result_count == 1 &&
           grtc_dispatch_same_shape(value, &user->results[0]);
  }
  return true;
}

static bool grtc_dispatch_is_int4_constant(const grtc_tvalue_t* stored);

// Whether single-use |value| is an int4 weight of the dot_general |user|
// (grtc_dispatch_options_t.row_patterns).
static bool grtc_dispatch_is_weight4(const grtc_tvalue_t* value, const grtc_top_t* user) {
  const grtc_top_t* def = value->def;
  if (user->kind != GRTC_TOP_DOT_GENERAL || user->operand_count != 2 ||
      user->operands[1] != value || user->operands[0] == value ||
      user->operands[0]->type.elem != GRTC_ELEM_F32 || value->type.elem != GRTC_ELEM_F32 ||
      def->kind != GRTC_TOP_CONVERT || !grtc_ttype_is_static(&user->operands[0]->type) ||
      !grtc_ttype_is_static(&user->results[0].type)) {
    // (Symbolic sizes: the int4-weight GEMM does not take them.)
    return false;
  }
  return grtc_dispatch_is_int4_constant(def->operands[0]);
}

// Whether |stored| is an i8/ui8 constant read once (not unfoldable, not a
// splat) whose every value fits 4 bits (i4 or ui4 held in i8/ui8).
static bool grtc_dispatch_is_int4_constant(const grtc_tvalue_t* stored) {
  const grtc_top_t* c = stored->def;
  bool is_signed = stored->type.elem == GRTC_ELEM_I8;
  if ((!is_signed && stored->type.elem != GRTC_ELEM_U8) || stored->use_count != 1 || !c ||
      c->kind != GRTC_TOP_CONSTANT || c->attrs.unfoldable || c->attrs.constant.splat ||
      !grtc_ttype_is_static(&stored->type) ||
      c->attrs.constant.size != (size_t)grtc_ttype_element_count(&stored->type)) {
    return false;
  }
  const uint8_t* data = c->attrs.constant.data;
  for (size_t i = 0; i < c->attrs.constant.size; ++i) {
    int v = is_signed ? (int)(int8_t)data[i] : (int)data[i];
    if (is_signed ? (v < -8 || v > 7) : v > 15) return false;
  }
  return true;
}

// Ops a value carrying a reduction may pass through on its way from one of
// its several users to their common root (grtc_dispatch_converges).
#define GRTC_DISPATCH_CONVERGE_STEPS 8

// Whether every use of |v| (defined by |def|, several uses, its tree
// carrying a reduction) lies on elementwise paths of v's shape that meet at
// one op, its last user: a HardSwish after a convolution,
// x * min(max(x / 6 + 0.5, 0), 1), reads x twice. Every op on those paths
// has that one use, so all of them and the reduction become that root's
// kernel (the reduction is computed once, each path recomputes its few
// elementwise ops); without this x is a buffer written and read again.
static bool grtc_dispatch_converges(const grtc_block_info_t* info,
                                    const grtc_tvalue_t* v,
                                    const grtc_top_t* def) {
  const grtc_top_t* root = info->user[v->id];
  if (!root || grtc_top_kind_role(root->kind) != GRTC_ROLE_E ||
      root->result_count != 1 ||
      !grtc_dispatch_same_shape(v, &root->results[0])) {
    return false;
  }
  uint32_t found = 0;
  for (const grtc_top_t* op = def->next; op && op != root; op = op->next) {
    bool reads = false;
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      if (op->operands[i] == v) reads = true;
    }
    if (!reads) continue;
    found += 1;
    // Single-use elementwise ops of v's shape from |op| up to the root.
    const grtc_top_t* w = op;
    for (uint32_t step = 0; w != root; ++step) {
      const grtc_tvalue_t* r = &w->results[0];
      if (step == GRTC_DISPATCH_CONVERGE_STEPS ||
          grtc_top_kind_role(w->kind) != GRTC_ROLE_E ||
          w->result_count != 1 || r->id >= info->count ||
          info->pinned[r->id] || info->local_uses[r->id] != 1 ||
          !grtc_dispatch_same_shape(v, r)) {
        return false;
      }
      w = info->user[r->id];
    }
  }
  // The root's own reads of v: the uses not found before it.
  for (uint32_t i = 0; i < root->operand_count; ++i) {
    if (root->operands[i] == v) found += 1;
  }
  return found == info->local_uses[v->id];
}

// A softmax along the last dim ending at |op| (rows.h), all in |block|,
// becomes one kernel rooted at |op|: the ops between are marked
// GRTC_FUSE_ROWS (decided earlier, their decisions are replaced: they have
// no other users) and the input becomes a buffer. Returns whether it did.
static bool grtc_dispatch_rows(grtc_block_info_t* info,
                               const grtc_tblock_t* block, grtc_top_t* op) {
  grtc_rows_match_t m;
  if (!grtc_rows_match_softmax(op, &m)) return false;
  for (uint32_t i = 0; i < m.op_count; ++i) {
    if (m.ops[i]->parent != block) return false;
    for (uint32_t r = 0; r < m.ops[i]->result_count; ++r) {
      uint32_t id = m.ops[i]->results[r].id;
      if (id >= info->count || info->pinned[id]) return false;
    }
  }
  grtc_tvalue_t* x = m.input;
  if (!grtc_dispatch_is_materialized(info, block, x)) {
    // A fused value (recomputed in both its users) becomes a buffer read
    // once per pass instead; not a small constant, nor one carrying a
    // reduction (those are buffers already).
    if (x->def->kind == GRTC_TOP_CONSTANT || info->reduction[x->id] ||
        info->fuse[x->id] != GRTC_FUSE_INLINE) {
      return false;
    }
    info->fuse[x->id] = GRTC_FUSE_MATERIALIZE;
  }
  for (uint32_t i = 0; i < m.op_count; ++i) {
    for (uint32_t r = 0; r < m.ops[i]->result_count; ++r) {
      info->fuse[m.ops[i]->results[r].id] = GRTC_FUSE_ROWS;
    }
  }
  uint32_t id = op->results[0].id;
  info->cost[id] = 1;
  info->reduction[id] = NULL;
  info->fuse[id] = GRTC_FUSE_MATERIALIZE;
  return true;
}

// Two reductions along the last dim feeding an elementwise root, the
// second reading the first (a layer norm: the sum, then the sum of squared
// deviations from sum / n), as one ROWS kernel: the walk from the root
// through the ops that reach a reduction (elementwise ops of the root's
// shape or of the row shape [rows...] / [rows..., 1], broadcasts from the
// row shape along the last dim, reshapes between the row shapes, and the
// two reduces). Every such op's element depends on the reductions at its
// own row only, so the kernel computes them per row. Ops that reach no
// reduction are the kernel's inputs (loaded, or fused as usual).
#define GRTC_DISPATCH_ROWS_MAX_OPS 48
// The most ops one walk visits (those reaching no reduction included), so
// a root over a large elementwise graph gives up early.
#define GRTC_DISPATCH_ROWS_MAX_VISITS 256

typedef struct grtc_dispatch_rows_walk_t {
  const grtc_block_info_t* info;
  const grtc_tblock_t* block;
  const grtc_ttype_t* shape;  // the root's
  uint32_t count;
  grtc_top_t* ops[GRTC_DISPATCH_ROWS_MAX_OPS];
  uint32_t reduce_count;
  grtc_top_t* reduces[2];
  bool inner[2];  // whether that reduce's operand reaches the other
  uint32_t leaf_count;  // visited ops that reach no reduction
  grtc_top_t* leaves[GRTC_DISPATCH_ROWS_MAX_VISITS];
  bool ok;
} grtc_dispatch_rows_walk_t;

// The row shape: the root's without its last dim (|keep_one|: that dim as
// 1), or neither.
static bool grtc_dispatch_row_shape(const grtc_ttype_t* s,
                                    const grtc_ttype_t* t, bool* keep_one) {
  uint32_t r = s->rank;
  if (t->rank + 1 == r) {
    *keep_one = false;
  } else if (t->rank == r && t->dims[r - 1] == 1) {
    *keep_one = true;
  } else {
    return false;
  }
  for (uint32_t d = 0; d + 1 < r; ++d) {
    if (t->dims[d] != s->dims[d]) return false;
  }
  return true;
}

static bool grtc_dispatch_rows_seen(const grtc_dispatch_rows_walk_t* w,
                                    const grtc_top_t* op) {
  for (uint32_t i = 0; i < w->count; ++i) {
    if (w->ops[i] == op) return true;
  }
  return false;
}

// Whether |v| reaches a reduction (recording the ops that do); clears
// w->ok on any shape the kernel cannot take.
static bool grtc_dispatch_rows_walk(grtc_dispatch_rows_walk_t* w,
                                    grtc_tvalue_t* v) {
  grtc_top_t* op = v->def;
  if (!w->ok || !op || op->parent != w->block || v->id >= w->info->count ||
      grtc_em_small_constant(op)) {
    return false;
  }
  if (grtc_dispatch_rows_seen(w, op)) return true;
  for (uint32_t i = 0; i < w->leaf_count; ++i) {
    if (w->leaves[i] == op) return false;
  }
  if (w->count + w->leaf_count >= GRTC_DISPATCH_ROWS_MAX_VISITS) {
    w->ok = false;
    return false;
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    // The root of another row kernel: a buffer.
    uint32_t id = op->operands[i]->id;
    if (id < w->info->count && w->info->fuse[id] == GRTC_FUSE_ROWS) return false;
  }
  const grtc_ttype_t* s = w->shape;
  uint32_t rank = s->rank;
  bool keep_one = false;
  bool reaches = false;
  if (op->kind == GRTC_TOP_REDUCE) {
    grtc_tvalue_t* in = op->operands[0];
    if (op->operand_count != 2 || op->result_count != 1 ||
        op->region_count != 1 || op->attrs.dims.count != 1 ||
        op->attrs.dims.values[0] != (int64_t)rank - 1 ||
        !grtc_ttype_same_shape(&in->type, s) ||
        in->type.elem != GRTC_ELEM_F32 ||
        !op->operands[1]->def ||
        op->operands[1]->def->kind != GRTC_TOP_CONSTANT ||
        w->reduce_count == 2 || w->count == GRTC_DISPATCH_ROWS_MAX_OPS) {
      w->ok = false;
      return true;
    }
    uint32_t k = w->reduce_count++;
    w->reduces[k] = op;
    w->ops[w->count++] = op;
    w->inner[k] = grtc_dispatch_rows_walk(w, in);
    return true;
  }
  grtc_top_role_t role = grtc_top_kind_role(op->kind);
  bool full = grtc_ttype_same_shape(&v->type, s);
  bool row = grtc_dispatch_row_shape(s, &v->type, &keep_one);
  bool walkable =
      op->result_count == 1 &&
      ((role == GRTC_ROLE_E && (full || row)) ||
       (op->kind == GRTC_TOP_BROADCAST_IN_DIM && full) ||
       (op->kind == GRTC_TOP_RESHAPE && row));
  if (!walkable) {
    // An input: a buffer, or fused as usual (not around a reduction of
    // its own, which this kernel does not compute).
    if (!grtc_dispatch_is_materialized(w->info, w->block, v) &&
        w->info->reduction[v->id]) {
      w->ok = false;
    }
    return false;
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    reaches |= grtc_dispatch_rows_walk(w, op->operands[i]);
  }
  if (!reaches) {
    if (!grtc_dispatch_is_materialized(w->info, w->block, v) &&
        w->info->reduction[v->id]) {
      w->ok = false;
    }
    if (w->leaf_count < GRTC_DISPATCH_ROWS_MAX_VISITS) {
      w->leaves[w->leaf_count++] = op;
    } else {
      w->ok = false;
    }
    return false;
  }
  if (grtc_dispatch_rows_seen(w, op)) return true;
  if (op->kind == GRTC_TOP_BROADCAST_IN_DIM) {
    // Along the last dim only: from [rows...] (dims 0..rank-2) or from
    // [rows..., 1] (dims 0..rank-1).
    const grtc_ttype_t* t = &op->operands[0]->type;
    bool from_row = grtc_dispatch_row_shape(s, t, &keep_one);
    if (!from_row || op->attrs.dims.count != t->rank) w->ok = false;
    for (uint32_t d = 0; w->ok && d < t->rank; ++d) {
      if (op->attrs.dims.values[d] != (int64_t)d) w->ok = false;
    }
  } else if (op->kind == GRTC_TOP_RESHAPE) {
    if (!grtc_dispatch_row_shape(s, &op->operands[0]->type, &keep_one)) {
      w->ok = false;
    }
  }
  if (w->count == GRTC_DISPATCH_ROWS_MAX_OPS) {
    w->ok = false;
  } else {
    w->ops[w->count++] = op;
  }
  return true;
}

// The walk from |op| (decided a buffer already); on a match, marks the
// ops reaching the reductions GRTC_FUSE_ROWS. Returns whether it did.
static bool grtc_dispatch_rows_two_pass(grtc_block_info_t* info,
                                        const grtc_tblock_t* block,
                                        grtc_top_t* op) {
  if (grtc_top_kind_role(op->kind) != GRTC_ROLE_E || op->result_count != 1) {
    return false;
  }
  const grtc_ttype_t* s = &op->results[0].type;
  if (s->elem != GRTC_ELEM_F32 || s->rank < 1) return false;
  for (uint32_t d = 0; d < s->rank; ++d) {
    if (!grtc_dim_is_static(s->dims[d]) || s->dims[d] < 1) return false;
  }
  grtc_dispatch_rows_walk_t w;
  memset(&w, 0, sizeof(w));
  w.info = info;
  w.block = block;
  w.shape = s;
  w.ok = true;
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grtc_dispatch_rows_walk(&w, op->operands[i]);
  }
  // The first reduction reaches no other, the second the first.
  if (!w.ok || w.reduce_count != 2 || w.inner[0] == w.inner[1]) return false;
  // Every op of the walk is used by the walk's ops (and the root) only.
  for (uint32_t i = 0; i < w.count; ++i) {
    grtc_tvalue_t* v = &w.ops[i]->results[0];
    if (v->id >= info->count || info->pinned[v->id]) return false;
    uint32_t uses = 0;
    for (uint32_t j = 0; j <= w.count; ++j) {
      const grtc_top_t* user = j < w.count ? w.ops[j] : op;
      for (uint32_t k = 0; k < user->operand_count; ++k) {
        uses += user->operands[k] == v;
      }
    }
    if (uses != v->use_count) return false;
  }
  for (uint32_t i = 0; i < w.count; ++i) {
    info->fuse[w.ops[i]->results[0].id] = GRTC_FUSE_ROWS;
  }
  return true;
}

static void grtc_dispatch_decide(grtc_dispatch_t* d, grtc_block_info_t* info,
                                 const grtc_tblock_t* block, grtc_top_t* op) {
  bool fuse_level = d->options->optimization_level >= 1;
  if (fuse_level && d->options->row_patterns &&
      op->kind == GRTC_TOP_DIVIDE && op->result_count == 1 &&
      op->results[0].id < info->count && grtc_dispatch_rows(info, block, op)) {
    return;
  }
  // The fused tree's cost and reduction, from operands decided earlier; a
  // second reduction is cut off (one reduction per kernel).
  uint32_t cost = 1;
  grtc_top_t* reduction =
      grtc_dispatch_is_reduction(op->kind) ? op : NULL;
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grtc_tvalue_t* v = op->operands[i];
    if (grtc_dispatch_is_materialized(info, block, v)) continue;
    grtc_top_t* r = info->fuse[v->id] == GRTC_FUSE_EPILOGUE
                        ? v->def
                        : info->reduction[v->id];
    if (r && reduction && r != reduction) {
      info->fuse[v->id] = GRTC_FUSE_MATERIALIZE;
      continue;
    }
    if (r) reduction = r;
    cost += info->cost[v->id];
  }
  for (uint32_t r = 0; r < op->result_count; ++r) {
    grtc_tvalue_t* v = &op->results[r];
    if (v->id >= info->count) continue;
    info->cost[v->id] = cost;
    info->reduction[v->id] = reduction;
    uint32_t uses = info->local_uses[v->id];
    grtc_top_t* user = info->user[v->id];
    uint8_t decision = GRTC_FUSE_MATERIALIZE;
    if (info->pinned[v->id] || uses == 0) {
      decision = GRTC_FUSE_MATERIALIZE;
    } else if (grtc_em_small_constant(op)) {
      decision = GRTC_FUSE_INLINE;
    } else if (!fuse_level) {
      decision = GRTC_FUSE_MATERIALIZE;
    } else if (grtc_dispatch_is_reduction(op->kind)) {
      if (op->result_count == 1 &&
          (uses == 1 ? grtc_top_kind_role(user->kind) == GRTC_ROLE_E &&
                           user->result_count == 1 &&
                           grtc_dispatch_same_shape(v, &user->results[0])
                     : grtc_dispatch_converges(info, v, op))) {
        decision = GRTC_FUSE_EPILOGUE;
      }
    } else if (!grtc_dispatch_is_fusable(op) ||
               (op->kind == GRTC_TOP_RESHAPE &&
                grtc_dispatch_is_materialized(info, block, op->operands[0]))) {
      decision = GRTC_FUSE_MATERIALIZE;  // a root, or a view of a buffer
    } else if (cost > GRTC_DISPATCH_MAX_COST) {
      decision = GRTC_FUSE_MATERIALIZE;
    } else if (uses > 1) {
      // Every consumer must accept it: cheap, no reduction inside, and
      // dot/conv operands only as strided reads of a buffer.
      bool cheap = !reduction && cost <= GRTC_DISPATCH_MULTI_USE_COST &&
                   (!info->contracted[v->id] ||
                    grtc_dispatch_is_strided_buffer(info, block, op));
      if (cheap ||
          (reduction && cost <= GRTC_DISPATCH_MULTI_USE_COST &&
           !info->contracted[v->id] && grtc_dispatch_converges(info, v, op))) {
        decision = GRTC_FUSE_INLINE;
      }
    } else if (grtc_dispatch_fits_user(info, block, v, user) ||
               (d->options->row_patterns && grtc_dispatch_is_weight4(v, user))) {
      decision = GRTC_FUSE_INLINE;
    }
    info->fuse[v->id] = decision;
  }
  if (fuse_level && d->options->row_patterns && op->result_count == 1 &&
      op->results[0].id < info->count &&
      info->fuse[op->results[0].id] == GRTC_FUSE_MATERIALIZE &&
      info->local_uses[op->results[0].id] > 0) {
    grtc_dispatch_rows_two_pass(info, block, op);
  }
}

// A C identifier "<function>_dispatch_<n>".
static void grtc_dispatch_kernel_name(grtc_dispatch_t* d,
                                      const grtc_tfunc_t* func, char* name,
                                      size_t capacity) {
  size_t length = 0;
  for (size_t i = 0; i < func->name.size && length + 24 < capacity; ++i) {
    char c = func->name.data[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_';
    if (length == 0 && c >= '0' && c <= '9') name[length++] = '_';
    name[length++] = ok ? c : '_';
  }
  snprintf(name + length, capacity - length, "%sdispatch_%u",
           length ? "_" : "", d->next_kernel++);
}

// A DISPATCH op of |lowered|'s kernel typed like |results|, inserted
// before |root|.
static grt_status_t grtc_dispatch_emit(grtc_dispatch_t* d, grtc_top_t* root,
                                       const grtc_lowered_t* lowered,
                                       const grtc_tvalue_t* results,
                                       uint32_t result_count,
                                       grtc_top_t** out_dispatch) {
  grtc_ttype_t* types = grt_arena_alloc_zeroed(
      &d->scratch, (result_count + 1) * sizeof(grtc_ttype_t));
  if (!types) return grtc_dispatch_oom();
  for (uint32_t r = 0; r < result_count; ++r) types[r] = results[r].type;
  grtc_top_t* dispatch = NULL;
  GRT_RETURN_IF_ERROR(grtc_top_create(d->module, GRTC_TOP_DISPATCH,
                                      lowered->inputs, lowered->input_count,
                                      types, result_count, 0, &dispatch));
  grtc_top_copy_location(dispatch, root);
  dispatch->attrs.kernel = lowered->kernel_index;
  grtc_tblock_insert_before(root, dispatch);
  *out_dispatch = dispatch;
  return grt_ok_status();
}

static grt_status_t grtc_dispatch_lower(grtc_dispatch_t* d, grtc_tfunc_t* func,
                                        const grtc_block_info_t* info,
                                        const grtc_tblock_t* block,
                                        grtc_top_t* root,
                                        grtc_lower_mode_t mode,
                                        grtc_tvalue_t* copy,
                                        grtc_lowered_t* out) {
  char name[160];
  grtc_dispatch_kernel_name(d, func, name, sizeof(name));
  grtc_lower_context_t context = {d->kernels,
                                  d->module,
                                  &d->kernel_scratch,
                                  info->fuse,
                                  info->count,
                                  d->options->elements_per_workgroup};
  GRT_RETURN_IF_ERROR(
      grtc_lower_region(&context, block, root, mode, copy, name, out));
  return grtc_kernel_verify(out->kernel);
}

static grt_status_t grtc_dispatch_root(grtc_dispatch_t* d, grtc_tfunc_t* func,
                                       grtc_block_info_t* info,
                                       grtc_tblock_t* block,
                                       grtc_top_t* root) {
  grt_arena_reset(&d->kernel_scratch);
  grtc_lowered_t lowered;
  grtc_top_t* dispatch = NULL;
  if (root->kind == GRTC_TOP_SCATTER) {
    // A copy of the input, then the updates applied to it in place.
    GRT_RETURN_IF_ERROR(grtc_dispatch_lower(d, func, info, block, root,
                                            GRTC_LOWER_SCATTER_COPY, NULL,
                                            &lowered));
    grtc_top_t* copy = NULL;
    GRT_RETURN_IF_ERROR(grtc_dispatch_emit(d, root, &lowered, root->results,
                                           1, &copy));
    grt_arena_reset(&d->kernel_scratch);
    GRT_RETURN_IF_ERROR(grtc_dispatch_lower(d, func, info, block, root,
                                            GRTC_LOWER_SCATTER_UPDATE,
                                            &copy->results[0], &lowered));
    GRT_RETURN_IF_ERROR(grtc_dispatch_emit(d, root, &lowered, root->results,
                                           1, &dispatch));
    dispatch->attrs.tied = true;
    dispatch->attrs.tied_operand = 0;
  } else {
    GRT_RETURN_IF_ERROR(grtc_dispatch_lower(d, func, info, block, root,
                                            GRTC_LOWER_ROOT, NULL, &lowered));
    GRT_RETURN_IF_ERROR(grtc_dispatch_emit(d, root, &lowered, root->results,
                                           root->result_count, &dispatch));
  }
  for (uint32_t r = 0; r < root->result_count; ++r) {
    if (root->results[r].id < info->count) {
      info->replacement[root->results[r].id] = &dispatch->results[r];
    }
  }
  return grt_ok_status();
}

// Applies |info->replacement| to every operand in |block| and its regions.
static void grtc_dispatch_replace(const grtc_block_info_t* info,
                                  grtc_tblock_t* block) {
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      uint32_t id = op->operands[i]->id;
      if (id < info->count && info->replacement[id]) {
        op->operands[i] = info->replacement[id];
      }
    }
    for (uint32_t i = 0; i < op->region_count; ++i) {
      grtc_dispatch_replace(info, op->regions[i]);
    }
  }
}

// Whether |op| needs a kernel of its own.
static bool grtc_dispatch_is_root(const grtc_block_info_t* info,
                                  const grtc_tblock_t* block,
                                  const grtc_top_t* op) {
  grtc_top_role_t role = grtc_top_kind_role(op->kind);
  if (role == GRTC_ROLE_C || role == GRTC_ROLE_H) return false;
  if (op->kind == GRTC_TOP_CONSTANT ||
      op->kind == GRTC_TOP_OPTIMIZATION_BARRIER) {
    return false;
  }
  if (op->kind == GRTC_TOP_RESHAPE &&
      grtc_dispatch_is_materialized(info, block, op->operands[0])) {
    return false;  // a host view
  }
  bool used = false, materialized = false;
  for (uint32_t r = 0; r < op->result_count; ++r) {
    const grtc_tvalue_t* v = &op->results[r];
    used |= v->use_count > 0;
    materialized |= v->id >= info->count ||
                    info->fuse[v->id] == GRTC_FUSE_MATERIALIZE;
  }
  return used && materialized;
}

static grt_status_t grtc_dispatch_block(grtc_dispatch_t* d, grtc_tfunc_t* func,
                                        grtc_tblock_t* block) {
  for (grtc_top_t* op = block->first; op; op = op->next) {
    if (op->kind == GRTC_TOP_WHILE || op->kind == GRTC_TOP_IF ||
        op->kind == GRTC_TOP_CASE) {
      for (uint32_t i = 0; i < op->region_count; ++i) {
        GRT_RETURN_IF_ERROR(grtc_dispatch_block(d, func, op->regions[i]));
      }
    }
  }
  // optimization_barrier is the identity once values are SSA buffers.
  for (grtc_top_t* op = block->first; op; op = op->next) {
    if (op->kind != GRTC_TOP_OPTIMIZATION_BARRIER) continue;
    for (uint32_t r = 0; r < op->result_count && r < op->operand_count; ++r) {
      grtc_tfunc_replace_uses(func, &op->results[r], op->operands[r]);
    }
  }
  grtc_tfunc_recount_uses(func);
  grt_arena_reset(&d->scratch);
  grtc_block_info_t info;
  GRT_RETURN_IF_ERROR(grtc_block_info_init(d, block, &info));
  for (grtc_top_t* op = block->first; op; op = op->next) {
    grtc_dispatch_decide(d, &info, block, op);
  }
  for (grtc_top_t* op = block->first; op;) {
    grtc_top_t* next = op->next;
    if (grtc_dispatch_is_root(&info, block, op)) {
      GRT_RETURN_IF_ERROR(grtc_dispatch_root(d, func, &info, block, op));
    }
    op = next;
  }
  grtc_dispatch_replace(&info, func->body);
  grtc_tfunc_remove_dead_ops(func);
  return grt_ok_status();
}

// The dim of |dot|'s result that dim |d| of its rhs, a free dim, becomes
// (batch dims, then the lhs's free dims, then the rhs's); -1 when |d| is a
// batch or contracting dim.
static int64_t grtc_dispatch_rhs_result_dim(const grtc_top_t* dot, int64_t d) {
  const grtc_dot_dims_t* dims = &dot->attrs.dot;
  for (uint32_t i = 0; i < dims->rhs_batch.count; ++i) {
    if (dims->rhs_batch.values[i] == d) return -1;
  }
  for (uint32_t i = 0; i < dims->rhs_contracting.count; ++i) {
    if (dims->rhs_contracting.values[i] == d) return -1;
  }
  int64_t at = (int64_t)(dot->operands[0]->type.rank - dims->lhs_contracting.count);
  for (int64_t e = 0; e < d; ++e) {
    bool free = true;
    for (uint32_t i = 0; i < dims->rhs_batch.count; ++i) free &= dims->rhs_batch.values[i] != e;
    for (uint32_t i = 0; i < dims->rhs_contracting.count; ++i) {
      free &= dims->rhs_contracting.values[i] != e;
    }
    at += free;
  }
  return at;
}

// With row_patterns (the CPU alone): an f32 dot_general whose rhs is an
// int4 constant dequantized without zero points, multiply(convert(C), S)
// (S a splat, or a vector broadcast along a free dim of the rhs: the
// per-tensor and per-axis scales of uniform_dequantize), becomes
// multiply(dot_general(x, convert(C)), S') with S' the same scales along
// the result's dim, so C reaches the int4-weight GEMM
// (grtc_dispatch_is_weight4) and the scales its epilogue. The scale then
// multiplies each sum once instead of each weight: the same value for
// power-of-two scales, otherwise within the rounding of the sum.
static grt_status_t grtc_dispatch_hoist_scales(grtc_dispatch_t* d, grtc_tfunc_t* func,
                                               grtc_tblock_t* block, bool* changed) {
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t r = 0; r < op->region_count; ++r) {
      GRT_RETURN_IF_ERROR(grtc_dispatch_hoist_scales(d, func, op->regions[r], changed));
    }
    if (op->kind != GRTC_TOP_DOT_GENERAL || op->operand_count != 2 ||
        op->result_count != 1 || op->operands[0]->type.elem != GRTC_ELEM_F32 ||
        !grtc_ttype_is_static(&op->operands[0]->type) ||
        !grtc_ttype_is_static(&op->results[0].type)) {
      continue;
    }
    grtc_tvalue_t* rhs = op->operands[1];
    grtc_top_t* mul = rhs->def;
    if (!mul || mul->kind != GRTC_TOP_MULTIPLY || rhs->use_count != 1 ||
        rhs->type.elem != GRTC_ELEM_F32 || mul->parent != block) {
      continue;
    }
    uint32_t ci = mul->operands[0]->def && mul->operands[0]->def->kind == GRTC_TOP_CONVERT ? 0 : 1;
    grtc_tvalue_t* converted = mul->operands[ci];
    grtc_tvalue_t* scales = mul->operands[1 - ci];
    if (!converted->def || converted->def->kind != GRTC_TOP_CONVERT ||
        converted->use_count != 1 || !grtc_dispatch_is_int4_constant(converted->def->operands[0]) ||
        !scales->def) {
      continue;
    }
    const grtc_top_t* sd = scales->def;
    int64_t result_dim = -1;
    bool splat = sd->kind == GRTC_TOP_CONSTANT && sd->attrs.constant.splat &&
                 !sd->attrs.unfoldable;
    if (!splat) {
      const grtc_tvalue_t* vector = sd->kind == GRTC_TOP_BROADCAST_IN_DIM ? sd->operands[0] : NULL;
      if (!vector || vector->type.rank != 1 || sd->attrs.dims.count != 1 || !vector->def ||
          vector->def->kind != GRTC_TOP_CONSTANT) {
        continue;
      }
      result_dim = grtc_dispatch_rhs_result_dim(op, sd->attrs.dims.values[0]);
      if (result_dim < 0) continue;
    }
    const grtc_ttype_t* out = &op->results[0].type;
    grtc_top_t* s2 = NULL;
    if (splat) {
      GRT_RETURN_IF_ERROR(grtc_top_create(d->module, GRTC_TOP_CONSTANT, NULL, 0, out, 1, 0, &s2));
      s2->attrs.constant = sd->attrs.constant;
    } else {
      grtc_tvalue_t* vector = sd->operands[0];
      int64_t* at = grtc_tmodule_alloc(d->module, sizeof(int64_t));
      if (!at) return grtc_dispatch_oom();
      *at = result_dim;
      GRT_RETURN_IF_ERROR(
          grtc_top_create(d->module, GRTC_TOP_BROADCAST_IN_DIM, &vector, 1, out, 1, 0, &s2));
      s2->attrs.dims.count = 1;
      s2->attrs.dims.values = at;
    }
    grtc_top_copy_location(s2, op);
    grtc_tvalue_t* y_operands[2] = {&op->results[0], &s2->results[0]};
    grtc_top_t* y = NULL;
    GRT_RETURN_IF_ERROR(grtc_top_create(d->module, GRTC_TOP_MULTIPLY, y_operands, 2, out, 1, 0, &y));
    grtc_top_copy_location(y, op);
    grtc_tfunc_replace_uses(func, &op->results[0], &y->results[0]);
    y->operands[0] = &op->results[0];
    op->operands[1] = converted;
    grtc_tblock_insert_before(op->next, s2);
    grtc_tblock_insert_before(op->next->next, y);
    grtc_tfunc_recount_uses(func);
    *changed = true;
  }
  return grt_ok_status();
}

grt_status_t grtc_dispatch_form(grtc_tmodule_t* module,
                                const grtc_dispatch_options_t* options,
                                grtc_kernel_set_t* kernels) {
  grtc_dispatch_t d;
  memset(&d, 0, sizeof(d));
  d.module = module;
  d.options = options;
  d.kernels = kernels;
  d.next_kernel = kernels->count;
  grt_arena_init(kernels->arena.parent, 0, &d.scratch);
  grt_arena_init(kernels->arena.parent, 0, &d.kernel_scratch);
  grt_status_t status = grt_ok_status();
  for (grtc_tfunc_t* func = module->first_func;
       func && grt_status_is_ok(status); func = func->next) {
    grtc_tfunc_recount_uses(func);
    if (options->row_patterns && options->optimization_level >= 1) {
      bool changed = false;
      status = grtc_dispatch_hoist_scales(&d, func, func->body, &changed);
      if (!grt_status_is_ok(status)) break;
      if (changed) grtc_tfunc_remove_dead_ops(func);
      grtc_tfunc_recount_uses(func);
    }
    status = grtc_dispatch_block(&d, func, func->body);
  }
  grt_arena_deinit(&d.kernel_scratch);
  grt_arena_deinit(&d.scratch);
  return status;
}

#include "compiler/dispatch/emitter.h"

#include <string.h>

#define GRTC_EM_UNKNOWN_LO INT64_MIN
#define GRTC_EM_UNKNOWN_HI INT64_MAX
// The largest value of a symbolic extent (a non-negative i32 push constant).
#define GRTC_EM_EXTENT_MAX INT32_MAX

void grtc_emitter_init(grtc_emitter_t* em, grtc_kernel_set_t* set,
                       grtc_kernel_t* kernel, const grtc_tmodule_t* module,
                       grt_arena_t* scratch, const grtc_tblock_t* block,
                       const uint8_t* fuse, uint32_t fuse_count) {
  memset(em, 0, sizeof(*em));
  em->set = set;
  em->kernel = kernel;
  em->module = module;
  em->scratch = scratch;
  em->block = block;
  em->fuse = fuse;
  em->fuse_count = fuse_count;
  em->section = GRTC_KSECTION_PRE;
}

void grtc_emitter_fail(grtc_emitter_t* em, grt_status_t status) {
  if (grt_status_is_ok(status)) return;
  if (grt_status_is_ok(em->status)) {
    em->status = status;
  } else {
    grt_status_free(status);
  }
}

bool grtc_emitter_failed(const grtc_emitter_t* em) {
  return !grt_status_is_ok(em->status);
}

static void grtc_em_oom(grtc_emitter_t* em) {
  grtc_emitter_fail(em, grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                        "out of memory lowering a kernel"));
}

static void grtc_em_unsupported(grtc_emitter_t* em, const grtc_top_t* op,
                                const char* what) {
  grtc_emitter_fail(em, grtc_top_error(em->module, op,
                                       "'%s' %s is not supported",
                                       grtc_top_kind_name(op->kind), what));
}

grtc_elem_t grtc_em_type(const grtc_emitter_t* em, uint32_t inst) {
  if (inst >= em->kernel->inst_count) return GRTC_ELEM_I64;
  return em->kernel->insts[inst].type;
}

static const grtc_kinst_t* grtc_em_inst(const grtc_emitter_t* em,
                                        uint32_t inst) {
  static const grtc_kinst_t none = {0};
  return inst < em->kernel->inst_count ? &em->kernel->insts[inst] : &none;
}

bool grtc_em_const_int(const grtc_emitter_t* em, uint32_t inst,
                       int64_t* out) {
  const grtc_kinst_t* k = grtc_em_inst(em, inst);
  if (k->kind != GRTC_KINST_CONST || grtc_elem_is_float(k->type)) return false;
  *out = k->value.i;
  return true;
}

//===----------------------------------------------------------------------===//
// Instruction table: hash-consing and ranges
//===----------------------------------------------------------------------===//

static uint64_t grtc_kinst_hash(const grtc_kinst_t* k) {
  uint64_t h = 1469598103934665603ull;
#define GRTC_MIX(x) h = (h ^ (uint64_t)(x)) * 1099511628211ull
  GRTC_MIX(k->kind);
  GRTC_MIX(k->section);
  GRTC_MIX(k->type);
  GRTC_MIX(k->op);
  GRTC_MIX(k->compare_type);
  GRTC_MIX(k->dim);
  GRTC_MIX(k->binding);
  GRTC_MIX(k->operand_count);
  for (uint32_t i = 0; i < k->operand_count; ++i) GRTC_MIX(k->operands[i]);
  uint64_t bits;
  memcpy(&bits, &k->value, sizeof(bits));
  GRTC_MIX(bits);
#undef GRTC_MIX
  return h;
}

static bool grtc_kinst_same(const grtc_kinst_t* a, const grtc_kinst_t* b) {
  if (a->kind != b->kind || a->section != b->section || a->type != b->type ||
      a->op != b->op || a->compare_type != b->compare_type ||
      a->dim != b->dim || a->binding != b->binding ||
      a->operand_count != b->operand_count) {
    return false;
  }
  for (uint32_t i = 0; i < a->operand_count; ++i) {
    if (a->operands[i] != b->operands[i]) return false;
  }
  return memcmp(&a->value, &b->value, sizeof(a->value)) == 0;
}

static bool grtc_em_grow_table(grtc_emitter_t* em) {
  uint32_t capacity = em->table_capacity ? em->table_capacity * 2 : 256;
  uint32_t* table =
      grt_arena_alloc_zeroed(em->scratch, capacity * sizeof(uint32_t));
  if (!table) return false;
  for (uint32_t i = 0; i < em->kernel->inst_count; ++i) {
    uint64_t h = grtc_kinst_hash(&em->kernel->insts[i]);
    uint32_t slot = (uint32_t)(h & (capacity - 1));
    while (table[slot]) slot = (slot + 1) & (capacity - 1);
    table[slot] = i + 1;
  }
  em->table = table;
  em->table_capacity = capacity;
  return true;
}

static bool grtc_em_grow_ranges(grtc_emitter_t* em, uint32_t needed) {
  if (needed <= em->range_capacity) return true;
  uint32_t capacity = em->range_capacity ? em->range_capacity * 2 : 256;
  while (capacity < needed) capacity *= 2;
  int64_t* lo = grt_arena_alloc_zeroed(em->scratch, capacity * sizeof(int64_t));
  int64_t* hi = grt_arena_alloc_zeroed(em->scratch, capacity * sizeof(int64_t));
  if (!lo || !hi) return false;
  if (em->range_capacity) {
    memcpy(lo, em->lo, em->range_capacity * sizeof(int64_t));
    memcpy(hi, em->hi, em->range_capacity * sizeof(int64_t));
  }
  em->lo = lo;
  em->hi = hi;
  em->range_capacity = capacity;
  return true;
}

static void grtc_em_range(const grtc_emitter_t* em, uint32_t inst,
                          int64_t* lo, int64_t* hi) {
  if (inst < em->kernel->inst_count && inst < em->range_capacity &&
      em->kernel->insts[inst].type == GRTC_ELEM_I64) {
    *lo = em->lo[inst];
    *hi = em->hi[inst];
  } else {
    *lo = GRTC_EM_UNKNOWN_LO;
    *hi = GRTC_EM_UNKNOWN_HI;
  }
}

static bool grtc_em_range_known(int64_t lo, int64_t hi) {
  return lo != GRTC_EM_UNKNOWN_LO && hi != GRTC_EM_UNKNOWN_HI;
}

// Ranges of index arithmetic, so clamps and bounds checks that cannot
// matter fold away. Bounds stay far from overflow: anything beyond 2^40
// is "unknown".
static void grtc_em_compute_range(const grtc_emitter_t* em,
                                  const grtc_kinst_t* k, int64_t* lo,
                                  int64_t* hi) {
  const int64_t limit = (int64_t)1 << 40;
  *lo = GRTC_EM_UNKNOWN_LO;
  *hi = GRTC_EM_UNKNOWN_HI;
  if (k->type != GRTC_ELEM_I64) return;
  int64_t a_lo = 0, a_hi = 0, b_lo = 0, b_hi = 0, c_lo = 0, c_hi = 0;
  if (k->operand_count > 0) grtc_em_range(em, k->operands[0], &a_lo, &a_hi);
  if (k->operand_count > 1) grtc_em_range(em, k->operands[1], &b_lo, &b_hi);
  if (k->operand_count > 2) grtc_em_range(em, k->operands[2], &c_lo, &c_hi);
  bool a = grtc_em_range_known(a_lo, a_hi);
  bool b = grtc_em_range_known(b_lo, b_hi);
  bool c = grtc_em_range_known(c_lo, c_hi);
  int64_t l = GRTC_EM_UNKNOWN_LO, h = GRTC_EM_UNKNOWN_HI;
  switch (k->kind) {
    case GRTC_KINST_CONST:
      l = h = k->value.i;
      break;
    case GRTC_KINST_PINDEX:
    case GRTC_KINST_RINDEX: {
      int64_t dim = k->kind == GRTC_KINST_PINDEX
                        ? em->kernel->parallel_dims[k->dim]
                        : em->kernel->reduction_dims[k->dim];
      l = 0;
      h = (grtc_kdim_is_static(dim) ? dim : GRTC_EM_EXTENT_MAX) - 1;
      break;
    }
    case GRTC_KINST_EXTENT:
      // A 32-bit push constant; tensors index with i64 below 2^31 per dim.
      l = 0;
      h = GRTC_EM_EXTENT_MAX;
      break;
    case GRTC_KINST_OP:
      switch ((grtc_scalar_op_t)k->op) {
        case GRTC_SCALAR_ADD:
          if (a && b) l = a_lo + b_lo, h = a_hi + b_hi;
          break;
        case GRTC_SCALAR_SUB:
          if (a && b) l = a_lo - b_hi, h = a_hi - b_lo;
          break;
        case GRTC_SCALAR_MUL:
          // Known ranges stay within 2^40, so a factor below 2^22 cannot
          // overflow.
          if (a && b && b_lo == b_hi && b_lo >= 0 && b_lo < ((int64_t)1 << 22)) {
            l = a_lo * b_lo, h = a_hi * b_lo;
          }
          break;
        case GRTC_SCALAR_DIV:
          if (a && b && b_lo == b_hi && b_lo > 0 && a_lo >= 0) {
            l = a_lo / b_lo, h = a_hi / b_lo;
          }
          break;
        case GRTC_SCALAR_REM:
          if (a && b && b_lo == b_hi && b_lo > 0 && a_lo >= 0) {
            l = 0, h = a_hi < b_lo - 1 ? a_hi : b_lo - 1;
          }
          break;
        case GRTC_SCALAR_CLAMP:
          if (a && c) l = a_lo, h = c_hi;
          break;
        case GRTC_SCALAR_SELECT:
          if (b && c) l = b_lo < c_lo ? b_lo : c_lo, h = b_hi > c_hi ? b_hi : c_hi;
          break;
        case GRTC_SCALAR_MAX:
          if (a && b) l = a_lo > b_lo ? a_lo : b_lo, h = a_hi > b_hi ? a_hi : b_hi;
          break;
        case GRTC_SCALAR_MIN:
          if (a && b) l = a_lo < b_lo ? a_lo : b_lo, h = a_hi < b_hi ? a_hi : b_hi;
          break;
        default:
          break;
      }
      break;
    default:
      break;
  }
  if (l != GRTC_EM_UNKNOWN_LO && h != GRTC_EM_UNKNOWN_HI && l >= -limit &&
      h <= limit && l <= h) {
    *lo = l;
    *hi = h;
  }
}

static grtc_ksection_t grtc_em_section_of(const grtc_emitter_t* em,
                                          const grtc_kinst_t* k) {
  switch (k->kind) {
    case GRTC_KINST_RINDEX:
      return GRTC_KSECTION_LOOP;
    case GRTC_KINST_ACC:
      return em->section;
    default:
      break;
  }
  grtc_ksection_t section = GRTC_KSECTION_PRE;
  for (uint32_t i = 0; i < k->operand_count; ++i) {
    grtc_ksection_t s = grtc_em_inst(em, k->operands[i])->section;
    if (s > section) section = s;
  }
  return section;
}

// Adds |proto| (section computed here) or returns its existing twin.
static uint32_t grtc_em_add_inst(grtc_emitter_t* em, grtc_kinst_t proto) {
  if (grtc_emitter_failed(em)) return 0;
  for (uint32_t i = 0; i < proto.operand_count; ++i) {
    if (proto.operands[i] >= em->kernel->inst_count) {
      grtc_emitter_fail(em, grt_make_status(GRT_STATUS_INTERNAL,
                                            "kernel instruction operand %u "
                                            "is not yet defined",
                                            proto.operands[i]));
      return 0;
    }
  }
  proto.section = grtc_em_section_of(em, &proto);
  if ((em->kernel->inst_count + 1) * 2 > em->table_capacity &&
      !grtc_em_grow_table(em)) {
    grtc_em_oom(em);
    return 0;
  }
  uint64_t h = grtc_kinst_hash(&proto);
  uint32_t mask = em->table_capacity - 1;
  uint32_t slot = (uint32_t)(h & mask);
  while (em->table[slot]) {
    uint32_t existing = em->table[slot] - 1;
    if (grtc_kinst_same(&em->kernel->insts[existing], &proto)) return existing;
    slot = (slot + 1) & mask;
  }
  int64_t lo, hi;
  grtc_em_compute_range(em, &proto, &lo, &hi);
  uint32_t out = 0;
  grt_status_t status =
      grtc_kernel_add_inst(em->set, em->kernel, &proto, &out);
  if (!grt_status_is_ok(status)) {
    grtc_emitter_fail(em, status);
    return 0;
  }
  if (!grtc_em_grow_ranges(em, out + 1)) {
    grtc_em_oom(em);
    return 0;
  }
  em->lo[out] = lo;
  em->hi[out] = hi;
  em->table[slot] = out + 1;
  return out;
}

static grtc_kinst_t grtc_kinst_make(grtc_kinst_kind_t kind, grtc_elem_t type) {
  grtc_kinst_t k;
  memset(&k, 0, sizeof(k));
  k.kind = kind;
  k.type = type;
  return k;
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

uint32_t grtc_em_const(grtc_emitter_t* em, grtc_elem_t type, double f,
                       int64_t i) {
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_CONST, type);
  if (grtc_elem_is_float(type)) {
    k.value.f = f;
  } else {
    k.value.i = type == GRTC_ELEM_I1 ? (i != 0) : i;
  }
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_i64(grtc_emitter_t* em, int64_t value) {
  return grtc_em_const(em, GRTC_ELEM_I64, 0, value);
}

uint32_t grtc_em_bool(grtc_emitter_t* em, bool value) {
  return grtc_em_const(em, GRTC_ELEM_I1, 0, value ? 1 : 0);
}

int64_t grtc_em_kdim(grtc_emitter_t* em, int64_t dim) {
  dim = grtc_tmodule_resolve_dim(em->module, dim);
  if (grtc_dim_is_static(dim) || grtc_emitter_failed(em)) {
    return grtc_dim_is_static(dim) ? dim : 0;
  }
  uint32_t extent = 0;
  grtc_emitter_fail(em, grtc_kernel_add_extent(em->set, em->kernel,
                                               grtc_dim_symbol(dim), &extent));
  return GRTC_KDIM_EXTENT(extent);
}

uint32_t grtc_em_dim(grtc_emitter_t* em, int64_t dim) {
  int64_t size = grtc_em_kdim(em, dim);
  if (grtc_kdim_is_static(size)) return grtc_em_i64(em, size);
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_EXTENT, GRTC_ELEM_I64);
  k.dim = grtc_kdim_extent(size);
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_pindex(grtc_emitter_t* em, uint32_t dim) {
  if (dim < em->kernel->parallel_rank && em->kernel->parallel_dims[dim] == 1) {
    return grtc_em_i64(em, 0);
  }
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_PINDEX, GRTC_ELEM_I64);
  k.dim = dim;
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_rindex(grtc_emitter_t* em, uint32_t dim) {
  if (dim < em->kernel->reduction_rank &&
      em->kernel->reduction_dims[dim] == 1) {
    return grtc_em_i64(em, 0);
  }
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_RINDEX, GRTC_ELEM_I64);
  k.dim = dim;
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_acc(grtc_emitter_t* em, uint32_t acc) {
  grtc_elem_t type =
      acc < em->kernel->acc_count ? em->kernel->accs[acc].type : GRTC_ELEM_F32;
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_ACC, type);
  k.dim = acc;
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_arg(grtc_emitter_t* em, uint32_t arg, grtc_elem_t type) {
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_ARG, type);
  k.dim = arg;
  return grtc_em_add_inst(em, k);
}

static int64_t grtc_em_fold_int(grtc_scalar_op_t op, int64_t a, int64_t b,
                                int64_t c, bool* ok) {
  *ok = true;
  switch (op) {
    case GRTC_SCALAR_ADD:
      return (int64_t)((uint64_t)a + (uint64_t)b);
    case GRTC_SCALAR_SUB:
      return (int64_t)((uint64_t)a - (uint64_t)b);
    case GRTC_SCALAR_MUL:
      return (int64_t)((uint64_t)a * (uint64_t)b);
    case GRTC_SCALAR_DIV:
      if (b == 0 || (a == INT64_MIN && b == -1)) break;
      return a / b;
    case GRTC_SCALAR_REM:
      if (b == 0 || (a == INT64_MIN && b == -1)) break;
      return a % b;
    case GRTC_SCALAR_MAX:
      return a > b ? a : b;
    case GRTC_SCALAR_MIN:
      return a < b ? a : b;
    case GRTC_SCALAR_AND:
      return a & b;
    case GRTC_SCALAR_OR:
      return a | b;
    case GRTC_SCALAR_CLAMP:
      return b < a ? a : (b > c ? c : b);
    default:
      break;
  }
  *ok = false;
  return 0;
}

// Whether |a| + |b| is (x / n) * n + x % n, which is x (C's truncating
// division keeps that identity for every x): a reshape's index split into
// dims and joined again by a consumer's linear index.
static bool grtc_em_undoes_split(const grtc_emitter_t* em, uint32_t a,
                                 uint32_t b, uint32_t* out_x) {
  const grtc_kinst_t* mul = grtc_em_inst(em, a);
  const grtc_kinst_t* rem = grtc_em_inst(em, b);
  if (mul->kind != GRTC_KINST_OP || mul->op != GRTC_SCALAR_MUL ||
      rem->kind != GRTC_KINST_OP || rem->op != GRTC_SCALAR_REM) {
    return false;
  }
  const grtc_kinst_t* div = grtc_em_inst(em, mul->operands[0]);
  uint32_t n = mul->operands[1];
  if (div->kind != GRTC_KINST_OP || div->op != GRTC_SCALAR_DIV) return false;
  int64_t n_value, div_n, rem_n;
  if (!grtc_em_const_int(em, n, &n_value) ||
      !grtc_em_const_int(em, div->operands[1], &div_n) ||
      !grtc_em_const_int(em, rem->operands[1], &rem_n) || n_value != div_n ||
      n_value != rem_n || div->operands[0] != rem->operands[0]) {
    return false;
  }
  *out_x = rem->operands[0];
  return true;
}

uint32_t grtc_em_op(grtc_emitter_t* em, grtc_scalar_op_t op, grtc_elem_t type,
                    uint32_t a, uint32_t b, uint32_t c) {
  if (grtc_emitter_failed(em)) return 0;
  op = grtc_scalar_op_for_elem(op, type);  // i1: add is OR, multiply AND
  uint32_t arity = grtc_scalar_op_arity(op);
  uint32_t operands[3] = {a, b, c};
  if (op == GRTC_SCALAR_SELECT) {
    int64_t predicate;
    if (grtc_em_const_int(em, a, &predicate)) return predicate ? b : c;
    if (b == c) return b;
  }
  // Index and predicate arithmetic folds; data arithmetic is left to the
  // tensor folder and the backend's compiler.
  if (type == GRTC_ELEM_I64 || type == GRTC_ELEM_I1) {
    int64_t v[3] = {0, 0, 0};
    bool all_const = true;
    for (uint32_t i = 0; i < arity; ++i) {
      all_const &= grtc_em_const_int(em, operands[i], &v[i]);
    }
    if (all_const && op != GRTC_SCALAR_SELECT) {
      bool ok;
      int64_t r = grtc_em_fold_int(op, v[0], v[1], v[2], &ok);
      if (ok) return grtc_em_const(em, type, 0, r);
    }
    bool a_const = grtc_em_const_int(em, a, &v[0]);
    bool b_const = arity > 1 && grtc_em_const_int(em, b, &v[1]);
    switch (op) {
      case GRTC_SCALAR_ADD: {
        if (a_const && v[0] == 0) return b;
        if (b_const && v[1] == 0) return a;
        uint32_t x;
        if (type == GRTC_ELEM_I64 && (grtc_em_undoes_split(em, a, b, &x) ||
                                      grtc_em_undoes_split(em, b, a, &x))) {
          return x;
        }
        break;
      }
      case GRTC_SCALAR_SUB:
        if (b_const && v[1] == 0) return a;
        break;
      case GRTC_SCALAR_MUL:
        if (a_const && v[0] == 1) return b;
        if (b_const && v[1] == 1) return a;
        if ((a_const && v[0] == 0) || (b_const && v[1] == 0)) {
          return grtc_em_const(em, type, 0, 0);
        }
        break;
      case GRTC_SCALAR_DIV:
        if (b_const && v[1] == 1) return a;
        break;
      case GRTC_SCALAR_REM:
        if (b_const && v[1] == 1) return grtc_em_const(em, type, 0, 0);
        break;
      case GRTC_SCALAR_AND:
        if (type == GRTC_ELEM_I1) {
          if (a_const) return v[0] ? b : a;
          if (b_const) return v[1] ? a : b;
          if (a == b) return a;
        }
        break;
      case GRTC_SCALAR_OR:
        if (type == GRTC_ELEM_I1) {
          if (a_const) return v[0] ? a : b;
          if (b_const) return v[1] ? b : a;
          if (a == b) return a;
        }
        break;
      case GRTC_SCALAR_CLAMP: {
        int64_t lo, hi, min_v, max_v;
        grtc_em_range(em, b, &lo, &hi);
        if (grtc_em_const_int(em, a, &min_v) &&
            grtc_em_const_int(em, c, &max_v) && grtc_em_range_known(lo, hi) &&
            lo >= min_v && hi <= max_v) {
          return b;
        }
        break;
      }
      default:
        break;
    }
  }
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_OP, type);
  k.op = op;
  k.operand_count = arity;
  for (uint32_t i = 0; i < arity; ++i) k.operands[i] = operands[i];
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_cmp(grtc_emitter_t* em, grtc_compare_direction_t direction,
                     grtc_compare_type_t type, uint32_t a, uint32_t b) {
  if (grtc_emitter_failed(em)) return 0;
  if (grtc_em_type(em, a) == GRTC_ELEM_I64 && type == GRTC_CMP_TYPE_SIGNED) {
    int64_t a_lo, a_hi, b_lo, b_hi;
    grtc_em_range(em, a, &a_lo, &a_hi);
    grtc_em_range(em, b, &b_lo, &b_hi);
    if (grtc_em_range_known(a_lo, a_hi) && grtc_em_range_known(b_lo, b_hi)) {
      int result = -1;  // unknown
      switch (direction) {
        case GRTC_CMP_LT:
          if (a_hi < b_lo) result = 1;
          if (a_lo >= b_hi) result = 0;
          break;
        case GRTC_CMP_LE:
          if (a_hi <= b_lo) result = 1;
          if (a_lo > b_hi) result = 0;
          break;
        case GRTC_CMP_GT:
          if (a_lo > b_hi) result = 1;
          if (a_hi <= b_lo) result = 0;
          break;
        case GRTC_CMP_GE:
          if (a_lo >= b_hi) result = 1;
          if (a_hi < b_lo) result = 0;
          break;
        case GRTC_CMP_EQ:
          if (a_lo == a_hi && b_lo == b_hi) result = a_lo == b_lo;
          if (a_hi < b_lo || a_lo > b_hi) result = 0;
          break;
        case GRTC_CMP_NE:
          if (a_lo == a_hi && b_lo == b_hi) result = a_lo != b_lo;
          if (a_hi < b_lo || a_lo > b_hi) result = 1;
          break;
      }
      if (result >= 0) return grtc_em_bool(em, result == 1);
    }
  }
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_COMPARE, GRTC_ELEM_I1);
  k.op = direction;
  k.compare_type = grtc_compare_type_resolve(type, grtc_em_type(em, a));
  k.operand_count = 2;
  k.operands[0] = a;
  k.operands[1] = b;
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_convert(grtc_emitter_t* em, grtc_elem_t type, uint32_t a) {
  if (grtc_emitter_failed(em)) return 0;
  if (grtc_em_type(em, a) == type) return a;
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_CONVERT, type);
  k.operand_count = 1;
  k.operands[0] = a;
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_bitcast(grtc_emitter_t* em, grtc_elem_t type, uint32_t a) {
  if (grtc_emitter_failed(em)) return 0;
  if (grtc_em_type(em, a) == type) return a;
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_BITCAST, type);
  k.operand_count = 1;
  k.operands[0] = a;
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_add(grtc_emitter_t* em, uint32_t a, uint32_t b) {
  return grtc_em_op(em, GRTC_SCALAR_ADD, GRTC_ELEM_I64, a, b, 0);
}
uint32_t grtc_em_sub(grtc_emitter_t* em, uint32_t a, uint32_t b) {
  return grtc_em_op(em, GRTC_SCALAR_SUB, GRTC_ELEM_I64, a, b, 0);
}
uint32_t grtc_em_mul(grtc_emitter_t* em, uint32_t a, uint32_t b) {
  return grtc_em_op(em, GRTC_SCALAR_MUL, GRTC_ELEM_I64, a, b, 0);
}
uint32_t grtc_em_clamp(grtc_emitter_t* em, uint32_t x, int64_t lo,
                       int64_t hi) {
  if (hi < lo) hi = lo;
  return grtc_em_op(em, GRTC_SCALAR_CLAMP, GRTC_ELEM_I64, grtc_em_i64(em, lo),
                    x, grtc_em_i64(em, hi));
}
uint32_t grtc_em_clamp_index(grtc_emitter_t* em, uint32_t x, uint32_t last) {
  int64_t value;
  if (grtc_em_const_int(em, last, &value) && value >= 0) {
    return grtc_em_op(em, GRTC_SCALAR_CLAMP, GRTC_ELEM_I64, grtc_em_i64(em, 0),
                      x, last);
  }
  // A symbolic extent may be 0 at the call (last = -1): min first, so the
  // index is 0 there, the one element the host program's stand-in for an
  // empty binding holds (docs/compiler.md "Empty operands").
  return grtc_em_op(em, GRTC_SCALAR_MAX, GRTC_ELEM_I64,
                    grtc_em_op(em, GRTC_SCALAR_MIN, GRTC_ELEM_I64, x, last, 0),
                    grtc_em_i64(em, 0), 0);
}
uint32_t grtc_em_guard(grtc_emitter_t* em, uint32_t selected) {
  uint32_t saved = em->guard;
  em->guard = 1 + (saved ? grtc_em_and(em, saved - 1, selected) : selected);
  return saved;
}
void grtc_em_unguard(grtc_emitter_t* em, uint32_t saved) { em->guard = saved; }
uint32_t grtc_em_and(grtc_emitter_t* em, uint32_t a, uint32_t b) {
  return grtc_em_op(em, GRTC_SCALAR_AND, GRTC_ELEM_I1, a, b, 0);
}
uint32_t grtc_em_select(grtc_emitter_t* em, uint32_t predicate, uint32_t a,
                        uint32_t b) {
  return grtc_em_op(em, GRTC_SCALAR_SELECT, grtc_em_type(em, a), predicate, a,
                    b);
}
uint32_t grtc_em_in_range(grtc_emitter_t* em, uint32_t x, int64_t lo,
                          int64_t hi) {
  uint32_t ge = grtc_em_cmp(em, GRTC_CMP_GE, GRTC_CMP_TYPE_SIGNED, x,
                            grtc_em_i64(em, lo));
  uint32_t lt = grtc_em_cmp(em, GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED, x,
                            grtc_em_i64(em, hi));
  return grtc_em_and(em, ge, lt);
}

uint32_t grtc_em_linear(grtc_emitter_t* em, const grtc_ttype_t* type,
                        const uint32_t* index) {
  if (type->rank == 0) return grtc_em_i64(em, 0);
  uint32_t linear = index[0];
  for (uint32_t d = 1; d < type->rank; ++d) {
    linear = grtc_em_add(em, grtc_em_mul(em, linear,
                                         grtc_em_dim(em, type->dims[d])),
                         index[d]);
  }
  return linear;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

uint32_t grtc_em_input(grtc_emitter_t* em, grtc_tvalue_t* value) {
  grtc_tvalue_t** inputs = em->inputs.data;
  for (uint32_t i = 0; i < em->inputs.count; ++i) {
    if (inputs[i] == value) return i;
  }
  grt_status_t status = grt_arena_vec_push(em->scratch, &em->inputs, &value,
                                           sizeof(value));
  if (!grt_status_is_ok(status)) {
    grtc_emitter_fail(em, status);
    return 0;
  }
  return em->inputs.count - 1;
}

void grtc_em_bind(grtc_emitter_t* em, const grtc_tvalue_t* value,
                  uint32_t inst) {
  grtc_emitter_subst_t* substs = em->substs.data;
  for (uint32_t i = 0; i < em->substs.count; ++i) {
    if (substs[i].value == value) {
      substs[i].inst = inst;
      return;
    }
  }
  grtc_emitter_subst_t subst = {value, inst};
  grtc_emitter_fail(em, grt_arena_vec_push(em->scratch, &em->substs, &subst,
                                           sizeof(subst)));
}

static bool grtc_em_lookup(const grtc_emitter_t* em,
                           const grtc_tvalue_t* value, uint32_t* out) {
  const grtc_emitter_subst_t* substs = em->substs.data;
  for (uint32_t i = 0; i < em->substs.count; ++i) {
    if (substs[i].value == value) {
      *out = substs[i].inst;
      return true;
    }
  }
  return false;
}

bool grtc_em_small_constant(const grtc_top_t* op) {
  // util.unfoldable_constant stands for run-time data: always a buffer.
  return op->kind == GRTC_TOP_CONSTANT && !op->attrs.unfoldable &&
         (op->attrs.constant.splat ||
          grtc_ttype_element_count(&op->results[0].type) <= 16);
}

// Whether |block| is a region of an op of the kernel's block (a body the
// lowering turns into scalar code), at any depth.
static bool grtc_em_is_body(const grtc_emitter_t* em,
                            const grtc_tblock_t* block) {
  while (block && block->parent_op) {
    if (block->parent_op->parent == em->block) return true;
    block = block->parent_op->parent;
  }
  return false;
}

// Whether |value| is computed in the kernel rather than loaded.
static bool grtc_em_is_fused(const grtc_emitter_t* em,
                             const grtc_tvalue_t* value) {
  if (!value->def) return false;
  if (grtc_em_small_constant(value->def)) return true;
  if (value->def->parent != em->block) {
    return grtc_em_is_body(em, value->def->parent);
  }
  return value->id < em->fuse_count &&
         (em->fuse[value->id] == GRTC_FUSE_INLINE ||
          em->fuse[value->id] == GRTC_FUSE_ROWS);
}

bool grtc_em_fused(const grtc_emitter_t* em, const grtc_tvalue_t* value) {
  return grtc_em_is_fused(em, value);
}

static uint32_t grtc_em_load(grtc_emitter_t* em, grtc_tvalue_t* value,
                             const uint32_t* index) {
  uint32_t binding = grtc_em_input(em, value);
  uint32_t linear = grtc_em_linear(em, &value->type, index);
  // An operand of symbolic size may be empty at the call, where the host
  // program binds a stand-in of one element's worth: read its first where
  // the value is not selected (index 0 of a non-empty operand otherwise).
  if (em->guard && !grtc_ttype_is_static(&value->type)) {
    linear = grtc_em_select(em, em->guard - 1, linear, grtc_em_i64(em, 0));
  }
  grtc_kinst_t k = grtc_kinst_make(GRTC_KINST_LOAD, value->type.elem);
  k.binding = binding;
  k.operand_count = 1;
  k.operands[0] = linear;
  return grtc_em_add_inst(em, k);
}

uint32_t grtc_em_value(grtc_emitter_t* em, grtc_tvalue_t* value,
                       const uint32_t* index) {
  if (grtc_emitter_failed(em)) return 0;
  uint32_t inst;
  if (grtc_em_lookup(em, value, &inst)) return inst;
  if (!grtc_em_is_fused(em, value)) {
    if (!value->def && grtc_em_is_body(em, value->block)) {
      // A body argument with no binding: the lowering forgot to bind it.
      grtc_emitter_fail(em, grt_make_status(GRT_STATUS_INTERNAL,
                                            "unbound region argument %u",
                                            value->index));
      return 0;
    }
    return grtc_em_load(em, value, index);
  }
  grtc_elem_t elem = value->type.elem;
  if (em->widen_small_floats &&
      (elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16)) {
    // Scalar ops come back in f32 already; converts, constants and other
    // producers keep their own rounding and are widened after it.
    uint32_t r = grtc_em_op_result(em, value->def, value->index, index);
    if (grtc_emitter_failed(em) || grtc_em_type(em, r) == GRTC_ELEM_F32) {
      return r;
    }
    return grtc_em_convert(em, GRTC_ELEM_F32, r);
  }
  return grtc_em_op_result(em, value->def, value->index, index);
}

uint32_t grtc_em_index_vector_element(grtc_emitter_t* em,
                                      grtc_tvalue_t* indices,
                                      const uint32_t* batch_index,
                                      int64_t index_vector_dim, uint32_t k) {
  bool inside = index_vector_dim < (int64_t)indices->type.rank;
  uint32_t indices_index[GRTC_MAX_RANK];
  uint32_t b = 0;
  for (uint32_t d = 0; d < indices->type.rank; ++d) {
    indices_index[d] = (inside && d == index_vector_dim) ? grtc_em_i64(em, k)
                                                         : batch_index[b++];
  }
  return grtc_em_convert(em, GRTC_ELEM_I64,
                         grtc_em_value(em, indices, indices_index));
}

// Element |i| of a constant as an instruction. Floats that a decimal
// CONST cannot carry exactly (NaN payloads and signs; f16/bf16 bits) are
// integer bits bitcast to the type.
static uint32_t grtc_em_constant_element(grtc_emitter_t* em, grtc_elem_t elem,
                                         const uint8_t* p) {
  size_t size = grtc_elem_byte_size(elem);
  uint64_t bits = 0;
  memcpy(&bits, p, size);  // little-endian host
  double f = 0;
  bool exact = false;
  if (elem == GRTC_ELEM_F32) {
    float x;
    memcpy(&x, p, 4);
    f = x;
    exact = x == x;
  } else if (elem == GRTC_ELEM_F64) {
    memcpy(&f, p, 8);
    exact = f == f;
  }
  if (grtc_elem_is_float(elem) && !exact) {
    static const grtc_elem_t int_of_size[9] = {
        [2] = GRTC_ELEM_I16, [4] = GRTC_ELEM_I32, [8] = GRTC_ELEM_I64};
    grtc_elem_t int_elem = int_of_size[size];
    uint32_t shift = (uint32_t)(64 - size * 8);
    int64_t v = shift ? (int64_t)(bits << shift) >> shift : (int64_t)bits;
    return grtc_em_bitcast(em, elem, grtc_em_const(em, int_elem, 0, v));
  }
  if (grtc_elem_is_float(elem)) return grtc_em_const(em, elem, f, 0);
  int64_t v = (int64_t)bits;
  if (grtc_elem_is_signed_integer(elem) && size < 8) {
    uint32_t shift = (uint32_t)(64 - size * 8);
    v = (int64_t)(bits << shift) >> shift;
  }
  return grtc_em_const(em, elem, 0, v);
}

// The element of a small constant: a select chain over its linear index
// when it is not a splat.
static uint32_t grtc_em_constant(grtc_emitter_t* em, const grtc_top_t* op,
                                 const uint32_t* index) {
  const grtc_ttype_t* type = &op->results[0].type;
  grtc_elem_t elem = type->elem;
  size_t size = grtc_elem_byte_size(elem);
  int64_t count = op->attrs.constant.splat ? 1 : grtc_ttype_element_count(type);
  if ((size_t)count * size > op->attrs.constant.size) {
    grtc_em_unsupported(em, op, "with truncated data");
    return 0;
  }
  uint32_t linear = count > 1 ? grtc_em_linear(em, type, index) : 0;
  uint32_t result = 0;
  for (int64_t i = count - 1; i >= 0; --i) {
    uint32_t element = grtc_em_constant_element(
        em, elem, op->attrs.constant.data + (size_t)i * size);
    if (i == count - 1) {
      result = element;
    } else {
      uint32_t is_i = grtc_em_cmp(em, GRTC_CMP_EQ, GRTC_CMP_TYPE_SIGNED,
                                  linear, grtc_em_i64(em, i));
      result = grtc_em_select(em, is_i, element, result);
    }
  }
  return result;
}

// Reshape: the source index of |index|. Unit dims are dropped and the
// rest cut into the smallest groups whose sizes multiply to the same count,
// so inserting unit dims or splitting one dim stays cheap. A symbolic
// dimension maps onto the same symbol; where one is merged or split (a
// dynamic_reshape whose extent is computed: ?x4 -> ?, whose element counts
// the host program checks equal at the call), the remaining dims form one
// group, linearized and split again with the extents.
static void grtc_em_reshape_index(grtc_emitter_t* em, const grtc_top_t* op,
                                  const grtc_ttype_t* from,
                                  const grtc_ttype_t* to, const uint32_t* index,
                                  uint32_t* out) {
  (void)op;
  uint32_t a[GRTC_MAX_RANK], b[GRTC_MAX_RANK];  // non-unit dims of to, from
  uint32_t a_count = 0, b_count = 0;
  for (uint32_t d = 0; d < from->rank; ++d) {
    out[d] = grtc_em_i64(em, 0);
    if (grtc_tmodule_resolve_dim(em->module, from->dims[d]) != 1) b[b_count++] = d;
  }
  for (uint32_t d = 0; d < to->rank; ++d) {
    if (grtc_tmodule_resolve_dim(em->module, to->dims[d]) != 1) a[a_count++] = d;
  }
  if (grtc_ttype_element_count(from) == 0) return;  // never evaluated
  uint32_t i = 0, j = 0;
  while (i < a_count && j < b_count) {
    int64_t to_dim = grtc_tmodule_resolve_dim(em->module, to->dims[a[i]]);
    int64_t from_dim = grtc_tmodule_resolve_dim(em->module, from->dims[b[j]]);
    uint32_t i_end = i + 1, j_end = j + 1;
    bool symbolic = !grtc_dim_is_static(to_dim) || !grtc_dim_is_static(from_dim);
    if (symbolic && to_dim == from_dim) {
      out[b[j++]] = index[a[i++]];
      continue;
    }
    int64_t p = to_dim, q = from_dim;
    while (!symbolic && p != q) {
      int64_t next = 0;
      if (p < q && i_end < a_count) {
        next = grtc_tmodule_resolve_dim(em->module, to->dims[a[i_end++]]);
        p *= next;
      } else if (j_end < b_count) {
        next = grtc_tmodule_resolve_dim(em->module, from->dims[b[j_end++]]);
        q *= next;
      } else {
        break;
      }
      symbolic = !grtc_dim_is_static(next);
    }
    if (symbolic) {
      // A symbolic dimension merged or split: the rest is one group.
      i_end = a_count;
      j_end = b_count;
    }
    uint32_t linear = grtc_em_i64(em, 0);
    for (uint32_t k = i; k < i_end; ++k) {
      linear = grtc_em_add(em, grtc_em_mul(em, linear, grtc_em_dim(em, to->dims[a[k]])),
                           index[a[k]]);
    }
    for (uint32_t k = j_end; k-- > j;) {
      if (k == j) {
        out[b[k]] = linear;
      } else {
        uint32_t n = grtc_em_dim(em, from->dims[b[k]]);
        out[b[k]] = grtc_em_op(em, GRTC_SCALAR_REM, GRTC_ELEM_I64, linear, n, 0);
        linear = grtc_em_op(em, GRTC_SCALAR_DIV, GRTC_ELEM_I64, linear, n, 0);
      }
    }
    i = i_end;
    j = j_end;
  }
}

// A rank-0 operand as a clamped i64 start index.
static uint32_t grtc_em_scalar_index(grtc_emitter_t* em, grtc_tvalue_t* value,
                                     int64_t lo, int64_t hi) {
  uint32_t v = grtc_em_value(em, value, NULL);
  return grtc_em_clamp(em, grtc_em_convert(em, GRTC_ELEM_I64, v), lo, hi);
}

static uint32_t grtc_em_gather(grtc_emitter_t* em, grtc_top_t* op,
                               const uint32_t* index) {
  const grtc_gather_dims_t* g = &op->attrs.gather;
  grtc_tvalue_t* operand = op->operands[0];
  grtc_tvalue_t* indices = op->operands[1];
  const grtc_ttype_t* result = &op->results[0].type;
  uint32_t batch_index[GRTC_MAX_RANK], offset_index[GRTC_MAX_RANK];
  uint32_t batch_count = 0, offset_count = 0;
  for (uint32_t d = 0; d < result->rank; ++d) {
    bool is_offset = false;
    for (uint32_t k = 0; k < g->offset_dims.count; ++k) {
      is_offset |= g->offset_dims.values[k] == (int64_t)d;
    }
    if (is_offset) {
      offset_index[offset_count++] = index[d];
    } else {
      batch_index[batch_count++] = index[d];
    }
  }
  uint32_t operand_index[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < operand->type.rank; ++d) {
    operand_index[d] = grtc_em_i64(em, 0);
  }
  // Start indices: indices[batch_index with the vector dim inserted].
  for (uint32_t k = 0; k < g->start_index_map.count; ++k) {
    int64_t od = g->start_index_map.values[k];
    uint32_t start = grtc_em_index_vector_element(em, indices, batch_index,
                                                  g->index_vector_dim, k);
    int64_t extent = grtc_tmodule_resolve_dim(em->module, operand->type.dims[od]);
    if (grtc_dim_is_static(extent)) {
      start = grtc_em_clamp(em, start, 0, extent - g->slice_sizes.values[od]);
    } else {
      // Clamped to [0, extent - size] as a dynamic_slice's (the call
      // checks extent >= size).
      uint32_t hi = grtc_em_sub(em, grtc_em_dim(em, extent),
                                grtc_em_i64(em, g->slice_sizes.values[od]));
      start = grtc_em_op(em, GRTC_SCALAR_CLAMP, GRTC_ELEM_I64,
                         grtc_em_i64(em, 0), start, hi);
    }
    operand_index[od] = grtc_em_add(em, operand_index[od], start);
  }
  for (uint32_t k = 0; k < g->operand_batching_dims.count; ++k) {
    int64_t od = g->operand_batching_dims.values[k];
    int64_t sd = g->start_indices_batching_dims.values[k];
    uint32_t bd = grtc_em_batch_dim(indices, g->index_vector_dim, sd);
    operand_index[od] = grtc_em_add(em, operand_index[od], batch_index[bd]);
  }
  uint32_t o = 0;
  for (uint32_t d = 0; d < operand->type.rank; ++d) {
    bool collapsed = false;
    for (uint32_t k = 0; k < g->collapsed_slice_dims.count; ++k) {
      collapsed |= g->collapsed_slice_dims.values[k] == (int64_t)d;
    }
    for (uint32_t k = 0; k < g->operand_batching_dims.count; ++k) {
      collapsed |= g->operand_batching_dims.values[k] == (int64_t)d;
    }
    if (!collapsed && o < offset_count) {
      operand_index[d] = grtc_em_add(em, operand_index[d], offset_index[o++]);
    }
  }
  return grtc_em_value(em, operand, operand_index);
}

uint32_t grtc_em_op_result(grtc_emitter_t* em, grtc_top_t* op, uint32_t result,
                           const uint32_t* index) {
  if (grtc_emitter_failed(em)) return 0;
  const grtc_ttype_t* type = &op->results[result].type;
  grtc_elem_t elem = type->elem;
  uint32_t operand_index[GRTC_MAX_RANK];
  grtc_scalar_op_t scalar = grtc_top_kind_scalar_op(op->kind);
  if (scalar != GRTC_SCALAR_NONE) {
    uint32_t v[3] = {0, 0, 0};
    for (uint32_t i = 0; i < op->operand_count && i < 3; ++i) {
      // select's predicate and clamp's bounds may be rank 0.
      bool scalar_operand = op->operands[i]->type.rank == 0;
      v[i] = grtc_em_value(em, op->operands[i], scalar_operand ? NULL : index);
    }
    grtc_elem_t op_elem = elem;
    if (em->widen_small_floats &&
        (elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16)) {
      op_elem = GRTC_ELEM_F32;  // operands are widened too
    }
    return grtc_em_op(em, scalar, op_elem, v[0], v[1], v[2]);
  }
  switch (op->kind) {
    case GRTC_TOP_COMPARE: {
      uint32_t a = grtc_em_value(em, op->operands[0], index);
      uint32_t b = grtc_em_value(em, op->operands[1], index);
      return grtc_em_cmp(em, op->attrs.compare_direction,
                         grtc_compare_type_resolve(op->attrs.compare_type,
                                                   op->operands[0]->type.elem),
                         a, b);
    }
    case GRTC_TOP_CONVERT:
      return grtc_em_convert(em, elem,
                             grtc_em_value(em, op->operands[0], index));
    case GRTC_TOP_BITCAST_CONVERT:
      if (grtc_elem_bit_width(elem) !=
          grtc_elem_bit_width(op->operands[0]->type.elem)) {
        grtc_em_unsupported(em, op, "between element types of different "
                                    "widths");
        return 0;
      }
      return grtc_em_bitcast(em, elem,
                             grtc_em_value(em, op->operands[0], index));
    case GRTC_TOP_CONSTANT:
      return grtc_em_constant(em, op, index);
    case GRTC_TOP_IOTA:
      return grtc_em_convert(em, elem, index[op->attrs.dim]);
    case GRTC_TOP_GET_DIMENSION_SIZE:
      return grtc_em_convert(
          em, elem,
          grtc_em_dim(em, op->operands[0]->type.dims[op->attrs.dim]));
    case GRTC_TOP_OPTIMIZATION_BARRIER:
      return grtc_em_value(em, op->operands[result], index);
    case GRTC_TOP_BROADCAST_IN_DIM: {
      const grtc_ttype_t* from = &op->operands[0]->type;
      for (uint32_t d = 0; d < from->rank; ++d) {
        operand_index[d] = from->dims[d] == 1
                               ? grtc_em_i64(em, 0)
                               : index[op->attrs.dims.values[d]];
      }
      return grtc_em_value(em, op->operands[0], operand_index);
    }
    case GRTC_TOP_TRANSPOSE:
      for (uint32_t d = 0; d < type->rank; ++d) {
        operand_index[op->attrs.dims.values[d]] = index[d];
      }
      return grtc_em_value(em, op->operands[0], operand_index);
    case GRTC_TOP_RESHAPE:
      grtc_em_reshape_index(em, op, &op->operands[0]->type, type, index,
                            operand_index);
      return grtc_em_value(em, op->operands[0], operand_index);
    case GRTC_TOP_SLICE:
      for (uint32_t d = 0; d < type->rank; ++d) {
        operand_index[d] = grtc_em_add(
            em, grtc_em_i64(em, op->attrs.start.values[d]),
            grtc_em_mul(em, index[d],
                        grtc_em_i64(em, op->attrs.strides.values[d])));
      }
      return grtc_em_value(em, op->operands[0], operand_index);
    case GRTC_TOP_REVERSE:
      memcpy(operand_index, index, type->rank * sizeof(uint32_t));
      for (uint32_t k = 0; k < op->attrs.dims.count; ++k) {
        int64_t d = op->attrs.dims.values[k];
        operand_index[d] = grtc_em_sub(
            em, grtc_em_sub(em, grtc_em_dim(em, type->dims[d]),
                            grtc_em_i64(em, 1)),
            index[d]);
      }
      return grtc_em_value(em, op->operands[0], operand_index);
    case GRTC_TOP_PAD: {
      const grtc_ttype_t* from = &op->operands[0]->type;
      uint32_t inside = grtc_em_bool(em, true);
      const grtc_top_attrs_t* a = &op->attrs;
      for (uint32_t d = 0; d < type->rank; ++d) {
        // A computed low or interior padding (a dynamic_pad's) is an extent.
        int64_t low_sym = d < a->computed_low.count ? a->computed_low.values[d] : 0;
        int64_t interior_sym =
            d < a->computed_interior.count ? a->computed_interior.values[d] : 0;
        int64_t step = a->interior.values[d] + 1;
        uint32_t t = grtc_em_sub(em, index[d],
                                 low_sym ? grtc_em_dim(em, low_sym)
                                         : grtc_em_i64(em, a->low.values[d]));
        uint32_t q = t;
        if (step > 1 || interior_sym) {
          uint32_t steps = interior_sym ? grtc_em_add(em, grtc_em_dim(em, interior_sym),
                                                      grtc_em_i64(em, 1))
                                        : grtc_em_i64(em, step);
          uint32_t r = grtc_em_op(em, GRTC_SCALAR_REM, GRTC_ELEM_I64, t, steps, 0);
          inside = grtc_em_and(em, inside,
                               grtc_em_cmp(em, GRTC_CMP_EQ,
                                           GRTC_CMP_TYPE_SIGNED, r,
                                           grtc_em_i64(em, 0)));
          q = grtc_em_op(em, GRTC_SCALAR_DIV, GRTC_ELEM_I64, t, steps, 0);
        }
        // 0 <= t < (size - 1) * step + 1, and q clamped to [0, size - 1]
        // (instructions: the size may be a symbolic extent).
        uint32_t last = grtc_em_sub(em, grtc_em_dim(em, from->dims[d]),
                                    grtc_em_i64(em, 1));
        uint32_t ge = grtc_em_cmp(em, GRTC_CMP_GE, GRTC_CMP_TYPE_SIGNED, t,
                                  grtc_em_i64(em, 0));
        uint32_t lt = grtc_em_cmp(
            em, GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED, t,
            grtc_em_add(em,
                        grtc_em_mul(em, last,
                                    interior_sym
                                        ? grtc_em_add(em, grtc_em_dim(em, interior_sym),
                                                      grtc_em_i64(em, 1))
                                        : grtc_em_i64(em, step)),
                        grtc_em_i64(em, 1)));
        inside = grtc_em_and(em, inside, grtc_em_and(em, ge, lt));
        operand_index[d] = grtc_em_clamp_index(em, q, last);
      }
      int64_t always;
      if (grtc_em_const_int(em, inside, &always) && always) {
        return grtc_em_value(em, op->operands[0], operand_index);
      }
      uint32_t pad_value = grtc_em_value(em, op->operands[1], NULL);
      // An empty operand has nothing to load, even unconditionally.
      if (grtc_em_const_int(em, inside, &always) ||
          grtc_ttype_element_count(from) == 0) {
        return pad_value;
      }
      uint32_t saved = grtc_em_guard(em, inside);
      uint32_t v = grtc_em_value(em, op->operands[0], operand_index);
      grtc_em_unguard(em, saved);
      return grtc_em_select(em, inside, v, pad_value);
    }
    case GRTC_TOP_CONCATENATE: {
      uint32_t dim = (uint32_t)op->attrs.dim;
      // Operands from last to first, each selected below its end offset
      // (instructions: a symbolic operand moves the offsets at the call).
      uint32_t end = grtc_em_dim(em, type->dims[dim]);
      uint32_t v = 0;
      bool have = false;
      for (uint32_t k = op->operand_count; k-- > 0;) {
        int64_t n = op->operands[k]->type.dims[dim];
        if (n == 0) continue;
        uint32_t size = grtc_em_dim(em, n);
        uint32_t offset = grtc_em_sub(em, end, size);
        memcpy(operand_index, index, type->rank * sizeof(uint32_t));
        operand_index[dim] = grtc_em_clamp_index(
            em, grtc_em_sub(em, index[dim], offset),
            grtc_em_sub(em, size, grtc_em_i64(em, 1)));
        // An operand whose size is symbolic is read only where selected:
        // offset <= index < end (it may be empty at the call).
        uint32_t saved = em->guard;
        if (!grtc_dim_is_static(grtc_tmodule_resolve_dim(em->module, n))) {
          saved = grtc_em_guard(
              em, grtc_em_and(em,
                              grtc_em_cmp(em, GRTC_CMP_GE, GRTC_CMP_TYPE_SIGNED,
                                          index[dim], offset),
                              grtc_em_cmp(em, GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED,
                                          index[dim], end)));
        }
        uint32_t element = grtc_em_value(em, op->operands[k], operand_index);
        grtc_em_unguard(em, saved);
        if (!have) {
          v = element;
          have = true;
        } else {
          uint32_t before = grtc_em_cmp(em, GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED,
                                        index[dim], end);
          v = grtc_em_select(em, before, element, v);
        }
        end = offset;
      }
      if (!have) return grtc_em_const(em, elem, 0, 0);
      return v;
    }
    case GRTC_TOP_DYNAMIC_SLICE: {
      const grtc_ttype_t* from = &op->operands[0]->type;
      for (uint32_t d = 0; d < type->rank; ++d) {
        int64_t extent = grtc_tmodule_resolve_dim(em->module, from->dims[d]);
        uint32_t start = 0;
        if (grtc_dim_is_static(extent)) {
          start = grtc_em_scalar_index(em, op->operands[1 + d], 0,
                                       extent - op->attrs.sizes.values[d]);
        } else {
          // Clamped to [0, extent - size] (the call checks extent >= size).
          uint32_t v = grtc_em_convert(
              em, GRTC_ELEM_I64, grtc_em_value(em, op->operands[1 + d], NULL));
          uint32_t hi = grtc_em_sub(em, grtc_em_dim(em, extent),
                                    grtc_em_i64(em, op->attrs.sizes.values[d]));
          start = grtc_em_op(em, GRTC_SCALAR_CLAMP, GRTC_ELEM_I64,
                             grtc_em_i64(em, 0), v, hi);
        }
        operand_index[d] = grtc_em_add(em, index[d], start);
      }
      return grtc_em_value(em, op->operands[0], operand_index);
    }
    case GRTC_TOP_DYNAMIC_UPDATE_SLICE: {
      const grtc_ttype_t* update = &op->operands[1]->type;
      uint32_t inside = grtc_em_bool(em, true);
      uint32_t update_index[GRTC_MAX_RANK];
      for (uint32_t d = 0; d < type->rank; ++d) {
        uint32_t start =
            grtc_em_scalar_index(em, op->operands[2 + d], 0,
                                 type->dims[d] - update->dims[d]);
        uint32_t t = grtc_em_sub(em, index[d], start);
        inside = grtc_em_and(em, inside,
                             grtc_em_in_range(em, t, 0, update->dims[d]));
        update_index[d] = grtc_em_clamp(em, t, 0, update->dims[d] - 1);
      }
      uint32_t old = grtc_em_value(em, op->operands[0], index);
      int64_t always;
      if ((grtc_em_const_int(em, inside, &always) && !always) ||
          grtc_ttype_element_count(update) == 0) {
        return old;
      }
      uint32_t v = grtc_em_value(em, op->operands[1], update_index);
      return grtc_em_select(em, inside, v, old);
    }
    case GRTC_TOP_GATHER:
      return grtc_em_gather(em, op, index);
    default:
      grtc_em_unsupported(em, op, "inside a fused kernel");
      return 0;
  }
}

void grtc_em_body(grtc_emitter_t* em, const grtc_tblock_t* body,
                  const uint32_t* args, uint32_t arg_count,
                  uint32_t* out_results, uint32_t out_capacity) {
  if (body->arg_count != arg_count) {
    grtc_emitter_fail(em, grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                          "region has %u arguments, "
                                          "expected %u",
                                          body->arg_count, arg_count));
    return;
  }
  for (uint32_t i = 0; i < body->arg_count; ++i) {
    grtc_em_bind(em, &body->args[i], args[i]);
  }
  const grtc_top_t* yield = body->last;
  if (!yield || yield->kind != GRTC_TOP_YIELD ||
      yield->operand_count != out_capacity) {
    grtc_emitter_fail(em, grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                          "region does not end in a "
                                          "stablehlo.return of %u values",
                                          out_capacity));
    return;
  }
  for (uint32_t i = 0; i < yield->operand_count; ++i) {
    out_results[i] = grtc_em_value(em, yield->operands[i], NULL);
  }
}

bool grtc_em_strided_source(grtc_emitter_t* em, grtc_tvalue_t* value,
                            int64_t* out_strides, grtc_tvalue_t** out_source) {
  uint32_t perm[GRTC_MAX_RANK];
  uint32_t rank = value->type.rank;
  for (uint32_t d = 0; d < rank; ++d) perm[d] = d;
  grtc_tvalue_t* v = value;
  uint32_t lookup;
  while (grtc_em_is_fused(em, v) && !grtc_em_lookup(em, v, &lookup)) {
    if (v->def->kind != GRTC_TOP_TRANSPOSE) return false;
    // Dim d of |value| is dim perm[d] of |v|, which is dim
    // permutation[perm[d]] of v's operand.
    for (uint32_t d = 0; d < rank; ++d) {
      perm[d] = (uint32_t)v->def->attrs.dims.values[perm[d]];
    }
    v = v->def->operands[0];
  }
  if (grtc_em_lookup(em, v, &lookup)) return false;
  int64_t strides[GRTC_MAX_RANK];
  int64_t stride = 1;
  for (uint32_t d = rank; d-- > 0;) {
    strides[d] = stride;
    int64_t dim = grtc_tmodule_resolve_dim(em->module, v->type.dims[d]);
    // A symbolic dimension makes every stride outside it symbolic.
    stride = stride < 0 || !grtc_dim_is_static(dim) ? -1 : stride * dim;
  }
  for (uint32_t d = 0; d < rank; ++d) {
    if (strides[d] < 0) return false;
  }
  for (uint32_t d = 0; d < rank; ++d) out_strides[d] = strides[perm[d]];
  *out_source = v;
  return true;
}

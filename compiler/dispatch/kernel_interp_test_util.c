#include "compiler/dispatch/kernel_interp_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef union grtc_kv_t {
  double f;
  int64_t i;
} grtc_kv_t;

typedef struct grtc_kinterp_t {
  const grtc_kernel_t* kernel;
  void* const* buffers;
  grtc_kv_t* values;
  grtc_kv_t* accs;
  grtc_kv_t* args;  // sort comparator arguments
  int64_t p[GRTC_KERNEL_MAX_RANK];
  int64_t r[GRTC_KERNEL_MAX_RANK];
  grt_status_t status;
} grtc_kinterp_t;

static void grtc_kinterp_fail(grtc_kinterp_t* in, const char* message,
                              uint32_t inst) {
  if (in->status) return;
  in->status = grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                               "interpreter: %s (kernel %.*s, %%%u)", message,
                               (int)in->kernel->name.size,
                               in->kernel->name.data, inst);
}

// Wraps an integer to |type|'s width and signedness.
static int64_t grtc_kinterp_wrap(grtc_elem_t type, int64_t v) {
  uint32_t bits = grtc_elem_bit_width(type);
  if (type == GRTC_ELEM_I1) return v != 0;
  if (bits >= 64) return v;
  uint64_t mask = ((uint64_t)1 << bits) - 1;
  uint64_t u = (uint64_t)v & mask;
  if (grtc_elem_is_signed_integer(type) && (u >> (bits - 1))) {
    return (int64_t)(u | ~mask);
  }
  return (int64_t)u;
}

static double grtc_kinterp_round(grtc_elem_t type, double v) {
  return type == GRTC_ELEM_F32 ? (double)(float)v : v;
}

static grtc_kv_t grtc_kinterp_load(grtc_elem_t elem, const void* base,
                                   int64_t index) {
  grtc_kv_t v;
  v.i = 0;
  const uint8_t* p = (const uint8_t*)base + index * grtc_elem_byte_size(elem);
  switch (elem) {
    case GRTC_ELEM_F32: {
      float x;
      memcpy(&x, p, 4);
      v.f = x;
      return v;
    }
    case GRTC_ELEM_F64:
      memcpy(&v.f, p, 8);
      return v;
    default: {
      uint64_t bits = 0;
      memcpy(&bits, p, grtc_elem_byte_size(elem));
      v.i = grtc_kinterp_wrap(elem, (int64_t)bits);
      return v;
    }
  }
}

static void grtc_kinterp_store(grtc_elem_t elem, void* base, int64_t index,
                               grtc_kv_t v) {
  uint8_t* p = (uint8_t*)base + index * grtc_elem_byte_size(elem);
  switch (elem) {
    case GRTC_ELEM_F32: {
      float x = (float)v.f;
      memcpy(p, &x, 4);
      return;
    }
    case GRTC_ELEM_F64:
      memcpy(p, &v.f, 8);
      return;
    default: {
      uint64_t bits = (uint64_t)v.i;
      memcpy(p, &bits, grtc_elem_byte_size(elem));
      return;
    }
  }
}

static int64_t grtc_kinterp_ipow(int64_t base, int64_t exponent) {
  if (exponent < 0) return base == 1 ? 1 : base == -1 ? (exponent & 1 ? -1 : 1) : 0;
  uint64_t result = 1, b = (uint64_t)base;
  while (exponent) {
    if (exponent & 1) result *= b;
    b *= b;
    exponent >>= 1;
  }
  return (int64_t)result;
}

static grtc_kv_t grtc_kinterp_op(grtc_kinterp_t* in, uint32_t i,
                                 const grtc_kinst_t* k, const grtc_kv_t* o) {
  grtc_kv_t r;
  r.i = 0;
  grtc_elem_t t = k->type;
  // Operand type (SELECT's first operand is the i1 predicate).
  grtc_elem_t ot = k->op == GRTC_SCALAR_SELECT
                       ? in->kernel->insts[k->operands[1]].type
                       : in->kernel->insts[k->operands[0]].type;
  if (grtc_elem_is_float(ot)) {
    double a = o[0].f, b = k->operand_count > 1 ? o[1].f : 0;
    double c = k->operand_count > 2 ? o[2].f : 0;
    switch ((grtc_scalar_op_t)k->op) {
      case GRTC_SCALAR_ADD: r.f = a + b; break;
      case GRTC_SCALAR_SUB: r.f = a - b; break;
      case GRTC_SCALAR_MUL: r.f = a * b; break;
      case GRTC_SCALAR_DIV: r.f = a / b; break;
      case GRTC_SCALAR_REM: r.f = fmod(a, b); break;
      case GRTC_SCALAR_POW: r.f = pow(a, b); break;
      case GRTC_SCALAR_MAX: r.f = isnan(a) || isnan(b) ? NAN : (a > b ? a : b); break;
      case GRTC_SCALAR_MIN: r.f = isnan(a) || isnan(b) ? NAN : (a < b ? a : b); break;
      case GRTC_SCALAR_ATAN2: r.f = atan2(a, b); break;
      case GRTC_SCALAR_ABS: r.f = fabs(a); break;
      case GRTC_SCALAR_NEG: r.f = -a; break;
      case GRTC_SCALAR_SIGN: r.f = isnan(a) ? a : (a > 0) - (a < 0); break;
      case GRTC_SCALAR_EXP: r.f = exp(a); break;
      case GRTC_SCALAR_EXPM1: r.f = expm1(a); break;
      case GRTC_SCALAR_LOG: r.f = log(a); break;
      case GRTC_SCALAR_LOG1P: r.f = log1p(a); break;
      case GRTC_SCALAR_LOGISTIC: r.f = 1 / (1 + exp(-a)); break;
      case GRTC_SCALAR_SQRT: r.f = sqrt(a); break;
      case GRTC_SCALAR_RSQRT: r.f = 1 / sqrt(a); break;
      case GRTC_SCALAR_CBRT: r.f = cbrt(a); break;
      case GRTC_SCALAR_TANH: r.f = tanh(a); break;
      case GRTC_SCALAR_SIN: r.f = sin(a); break;
      case GRTC_SCALAR_COS: r.f = cos(a); break;
      case GRTC_SCALAR_TAN: r.f = tan(a); break;
      case GRTC_SCALAR_FLOOR: r.f = floor(a); break;
      case GRTC_SCALAR_CEIL: r.f = ceil(a); break;
      case GRTC_SCALAR_ROUND_AFZ: r.f = round(a); break;
      case GRTC_SCALAR_ROUND_EVEN: r.f = nearbyint(a); break;
      case GRTC_SCALAR_IS_FINITE: r.i = isfinite(a); return r;
      case GRTC_SCALAR_SELECT: return o[0].i ? o[1] : o[2];
      case GRTC_SCALAR_CLAMP: r.f = b < a ? a : (b > c ? c : b); break;
      default:
        grtc_kinterp_fail(in, "float op not supported", i);
        return r;
    }
    r.f = grtc_kinterp_round(t, r.f);
    return r;
  }
  int64_t a = o[0].i, b = k->operand_count > 1 ? o[1].i : 0;
  int64_t c = k->operand_count > 2 ? o[2].i : 0;
  bool is_unsigned = !grtc_elem_is_signed_integer(ot);
  uint32_t bits = grtc_elem_bit_width(ot);
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch ((grtc_scalar_op_t)k->op) {
    case GRTC_SCALAR_ADD: r.i = (int64_t)(ua + ub); break;
    case GRTC_SCALAR_SUB: r.i = (int64_t)(ua - ub); break;
    case GRTC_SCALAR_MUL: r.i = (int64_t)(ua * ub); break;
    case GRTC_SCALAR_DIV:
      if (b == 0) r.i = -1;
      else if (is_unsigned) r.i = (int64_t)(ua / ub);
      else if (b == -1) r.i = (int64_t)(0 - ua);
      else r.i = a / b;
      break;
    case GRTC_SCALAR_REM:
      if (b == 0) r.i = a;
      else if (is_unsigned) r.i = (int64_t)(ua % ub);
      else if (b == -1) r.i = 0;
      else r.i = a % b;
      break;
    case GRTC_SCALAR_POW: r.i = grtc_kinterp_ipow(a, b); break;
    case GRTC_SCALAR_MAX: r.i = is_unsigned ? (ua > ub ? a : b) : (a > b ? a : b); break;
    case GRTC_SCALAR_MIN: r.i = is_unsigned ? (ua < ub ? a : b) : (a < b ? a : b); break;
    case GRTC_SCALAR_AND: r.i = a & b; break;
    case GRTC_SCALAR_OR: r.i = a | b; break;
    case GRTC_SCALAR_XOR: r.i = a ^ b; break;
    case GRTC_SCALAR_SHL: r.i = (b < 0 || b >= bits) ? 0 : (int64_t)(ua << b); break;
    case GRTC_SCALAR_SHRL: {
      uint64_t mask = bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
      r.i = (b < 0 || b >= bits) ? 0 : (int64_t)((ua & mask) >> b);
      break;
    }
    case GRTC_SCALAR_SHRA: r.i = (b < 0 || b >= bits) ? (a < 0 ? -1 : 0) : a >> b; break;
    case GRTC_SCALAR_NOT: r.i = ot == GRTC_ELEM_I1 ? !a : ~a; break;
    case GRTC_SCALAR_ABS: r.i = a < 0 ? (int64_t)(0 - ua) : a; break;
    case GRTC_SCALAR_NEG: r.i = (int64_t)(0 - ua); break;
    case GRTC_SCALAR_SIGN: r.i = (a > 0) - (a < 0); break;
    case GRTC_SCALAR_SELECT: return o[0].i ? o[1] : o[2];
    case GRTC_SCALAR_CLAMP: r.i = b < a ? a : (b > c ? c : b); break;
    default:
      grtc_kinterp_fail(in, "integer op not supported", i);
      return r;
  }
  r.i = grtc_kinterp_wrap(t, r.i);
  return r;
}

static grtc_kv_t grtc_kinterp_compare(const grtc_kinst_t* k,
                                      const grtc_kv_t* o) {
  int c;  // -1, 0, 1, or 2 for unordered
  switch (k->compare_type) {
    case GRTC_CMP_TYPE_FLOAT:
    case GRTC_CMP_TYPE_TOTALORDER:
      if (isnan(o[0].f) || isnan(o[1].f)) {
        c = 2;
      } else {
        c = (o[0].f > o[1].f) - (o[0].f < o[1].f);
      }
      break;
    case GRTC_CMP_TYPE_UNSIGNED:
      c = ((uint64_t)o[0].i > (uint64_t)o[1].i) -
          ((uint64_t)o[0].i < (uint64_t)o[1].i);
      break;
    default:
      c = (o[0].i > o[1].i) - (o[0].i < o[1].i);
      break;
  }
  grtc_kv_t r;
  r.i = 0;
  switch ((grtc_compare_direction_t)k->op) {
    case GRTC_CMP_EQ: r.i = c == 0; break;
    case GRTC_CMP_NE: r.i = c != 0; break;
    case GRTC_CMP_LT: r.i = c == -1; break;
    case GRTC_CMP_LE: r.i = c == -1 || c == 0; break;
    case GRTC_CMP_GT: r.i = c == 1; break;
    case GRTC_CMP_GE: r.i = c == 1 || c == 0; break;
  }
  return r;
}

static grtc_kv_t grtc_kinterp_convert(grtc_elem_t from, grtc_elem_t to,
                                      grtc_kv_t v) {
  grtc_kv_t r;
  r.i = 0;
  bool ff = grtc_elem_is_float(from), tf = grtc_elem_is_float(to);
  if (ff && tf) {
    r.f = grtc_kinterp_round(to, v.f);
  } else if (ff) {
    if (to == GRTC_ELEM_I1) {
      r.i = v.f != 0;
    } else if (isnan(v.f)) {
      r.i = 0;
    } else {
      double t = trunc(v.f);
      if (t >= 9.2e18) t = 9.2e18;
      if (t <= -9.2e18) t = -9.2e18;
      r.i = grtc_kinterp_wrap(to, (int64_t)t);
    }
  } else if (tf) {
    r.f = grtc_kinterp_round(to, grtc_elem_is_signed_integer(from)
                                     ? (double)v.i
                                     : (double)(uint64_t)v.i);
  } else {
    r.i = to == GRTC_ELEM_I1 ? v.i != 0 : grtc_kinterp_wrap(to, v.i);
  }
  return r;
}

static grtc_kv_t grtc_kinterp_bitcast(grtc_elem_t from, grtc_elem_t to,
                                      grtc_kv_t v) {
  uint8_t bytes[8] = {0};
  grtc_kinterp_store(from, bytes, 0, v);
  return grtc_kinterp_load(to, bytes, 0);
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
          v.f = grtc_kinterp_round(k->type, k->value.f);
        } else {
          v.i = grtc_kinterp_wrap(k->type, k->value.i);
        }
        break;
      case GRTC_KINST_PINDEX:
        v.i = in->p[k->dim];
        break;
      case GRTC_KINST_RINDEX:
        v.i = in->r[k->dim];
        break;
      case GRTC_KINST_ACC:
        v = in->accs[k->dim];
        break;
      case GRTC_KINST_ARG:
        v = in->args[k->dim];
        break;
      case GRTC_KINST_LOAD: {
        const grtc_kbinding_t* b = &kernel->bindings[k->binding];
        if (o[0].i < 0 || o[0].i >= b->element_count) {
          grtc_kinterp_fail(in, "load out of range", i);
          return;
        }
        v = grtc_kinterp_load(b->elem, in->buffers[k->binding], o[0].i);
        break;
      }
      case GRTC_KINST_OP:
        v = grtc_kinterp_op(in, i, k, o);
        break;
      case GRTC_KINST_COMPARE:
        v = grtc_kinterp_compare(k, o);
        break;
      case GRTC_KINST_CONVERT:
        v = grtc_kinterp_convert(kernel->insts[k->operands[0]].type, k->type,
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
      total *= kernel->reduction_dims[d];
    }
    memset(in->r, 0, sizeof(in->r));
    for (int64_t n = 0; n < total && !in->status; ++n) {
      grtc_kinterp_section(in, GRTC_KSECTION_LOOP);
      for (uint32_t a = 0; a < kernel->acc_count; ++a) {
        in->accs[a] = in->values[kernel->accs[a].update];
      }
      grtc_kinterp_next(in->r, kernel->reduction_dims, kernel->reduction_rank);
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
    if (index < 0 || index >= b->element_count) {
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
  for (uint32_t d = 0; d < rank; ++d) {
    tiles[d] = (kernel->parallel_dims[d] + kernel->tile[d] - 1) /
               kernel->tile[d];
  }
  for (uint32_t wg = 0; wg < kernel->workgroup_count && !in->status; ++wg) {
    int64_t origin[GRTC_KERNEL_MAX_RANK], extent[GRTC_KERNEL_MAX_RANK];
    uint64_t rest = wg;
    for (uint32_t d = rank; d-- > 0;) {
      int64_t t = kernel->serial ? 0 : (int64_t)(rest % (uint64_t)tiles[d]);
      rest /= (uint64_t)tiles[d];
      origin[d] = t * kernel->tile[d];
      extent[d] = kernel->serial ? kernel->parallel_dims[d]
                                 : kernel->tile[d];
      if (origin[d] + extent[d] > kernel->parallel_dims[d]) {
        extent[d] = kernel->parallel_dims[d] - origin[d];
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
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    grtc_elem_t e = kernel->bindings[b].elem;
    if (e == GRTC_ELEM_F16 || e == GRTC_ELEM_BF16) {
      return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                             "interpreter: f16/bf16 bindings");
    }
  }
  grtc_kinterp_t in;
  memset(&in, 0, sizeof(in));
  in.kernel = kernel;
  in.buffers = buffers;
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

grt_status_t grtc_kinterp_run_func(const grtc_tmodule_t* module,
                                   const grtc_kernel_set_t* kernels,
                                   const grtc_tfunc_t* func,
                                   void* const* args, void** results) {
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
          void* data = calloc((size_t)grtc_ttype_byte_size(t) + 1, 1);
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
        status = grtc_kinterp_run(kernel, bindings);
        break;
      }
      case GRTC_TOP_RETURN:
        for (uint32_t i = 0; i < op->operand_count; ++i) {
          const grtc_ttype_t* t = &op->operands[i]->type;
          size_t bytes = (size_t)grtc_ttype_byte_size(t);
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

#include "compiler/tensor/eval.h"

#include <math.h>
#include <string.h>

#include "compiler/mlir/ir.h"

typedef grtc_scalar_value_t value_t;

static bool grtc_elem_is_small_float(grtc_elem_t elem) {
  return elem == GRTC_ELEM_F16 || elem == GRTC_ELEM_BF16;
}

static grtc_float_kind_t grtc_elem_float_kind(grtc_elem_t elem) {
  switch (elem) {
    case GRTC_ELEM_F16: return GRTC_FLOAT_F16;
    case GRTC_ELEM_BF16: return GRTC_FLOAT_BF16;
    case GRTC_ELEM_F32: return GRTC_FLOAT_F32;
    default: return GRTC_FLOAT_F64;
  }
}

// Rounds |x| to |elem|: f16/bf16 arithmetic happens in f32 and rounds to
// nearest even on every store.
static double grtc_round_float(grtc_elem_t elem, double x) {
  if (elem == GRTC_ELEM_F64) return x;
  double single = (double)(float)x;
  if (elem == GRTC_ELEM_F32) return single;
  grtc_float_kind_t kind = grtc_elem_float_kind(elem);
  return grtc_float_decode(grtc_float_encode(single, kind), kind);
}

static uint64_t grtc_width_mask(uint32_t bits) {
  return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

// Two's complement wrap of |u| into |elem|'s representation.
static value_t grtc_wrap(grtc_elem_t elem, uint64_t u) {
  uint32_t bits = grtc_elem_bit_width(elem);
  value_t v;
  v.u = u & grtc_width_mask(bits);
  if (grtc_elem_is_signed_integer(elem) && bits < 64 &&
      (v.u >> (bits - 1)) & 1) {
    v.u |= ~grtc_width_mask(bits);
  }
  return v;
}

static value_t grtc_float_value(grtc_elem_t elem, double x) {
  value_t v;
  v.f = grtc_round_float(elem, x);
  return v;
}

value_t grtc_eval_load(grtc_elem_t elem, const uint8_t* bytes) {
  uint64_t raw = 0;
  size_t size = grtc_elem_byte_size(elem);
  for (size_t i = 0; i < size; ++i) raw |= (uint64_t)bytes[i] << (8 * i);
  value_t v;
  if (elem == GRTC_ELEM_F64) {
    memcpy(&v.f, &raw, sizeof(double));
  } else if (elem == GRTC_ELEM_F32) {
    uint32_t bits32 = (uint32_t)raw;
    float f;
    memcpy(&f, &bits32, sizeof(f));
    v.f = f;
  } else if (grtc_elem_is_small_float(elem)) {
    v.f = grtc_float_decode(raw, grtc_elem_float_kind(elem));
  } else if (elem == GRTC_ELEM_I1) {
    v.u = raw != 0;
  } else {
    v = grtc_wrap(elem, raw);
  }
  return v;
}

void grtc_eval_store(grtc_elem_t elem, value_t value, uint8_t* bytes) {
  uint64_t raw = value.u;
  if (elem == GRTC_ELEM_F32) {
    float f = (float)value.f;
    uint32_t bits32;
    memcpy(&bits32, &f, sizeof(f));
    raw = bits32;
  } else if (grtc_elem_is_small_float(elem)) {
    raw = grtc_float_encode(value.f, grtc_elem_float_kind(elem));
  } else if (elem == GRTC_ELEM_I1) {
    raw = value.u != 0;
  }
  size_t size = grtc_elem_byte_size(elem);
  for (size_t i = 0; i < size; ++i) bytes[i] = (uint8_t)(raw >> (8 * i));
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

// a < b in |elem|'s order.
static bool grtc_int_less(grtc_elem_t elem, value_t a, value_t b) {
  return grtc_elem_is_signed_integer(elem) ? a.i < b.i : a.u < b.u;
}

// Whether a shift by |amount| (a value of |elem|) shifts every bit out.
static bool grtc_shift_out_of_range(grtc_elem_t elem, value_t amount) {
  uint32_t bits = grtc_elem_bit_width(elem);
  if (grtc_elem_is_signed_integer(elem) && amount.i < 0) return true;
  return amount.u >= bits;
}

static uint64_t grtc_int_pow(grtc_elem_t elem, value_t base, value_t exponent) {
  if (grtc_elem_is_signed_integer(elem) && exponent.i < 0) {
    if (base.i == 1) return 1;
    if (base.i == -1) return (exponent.u & 1) ? UINT64_MAX : 1;
    return 0;
  }
  uint64_t result = 1, b = base.u, e = exponent.u;
  while (e) {
    if (e & 1) result *= b;
    b *= b;
    e >>= 1;
  }
  return result;
}

static value_t grtc_eval_int(grtc_scalar_op_t op, grtc_elem_t elem,
                             const value_t* x) {
  uint32_t bits = grtc_elem_bit_width(elem);
  bool is_signed = grtc_elem_is_signed_integer(elem);
  uint64_t mask = grtc_width_mask(bits);
  value_t a = x[0], b = x[1];
  switch (op) {
    case GRTC_SCALAR_ADD: return grtc_wrap(elem, a.u + b.u);
    case GRTC_SCALAR_SUB: return grtc_wrap(elem, a.u - b.u);
    case GRTC_SCALAR_MUL: return grtc_wrap(elem, a.u * b.u);
    case GRTC_SCALAR_DIV:
      if (b.u == 0) return grtc_wrap(elem, UINT64_MAX);
      if (!is_signed) return grtc_wrap(elem, a.u / b.u);
      // INT_MIN / -1 wraps to INT_MIN; negation in unsigned avoids the trap.
      if (b.i == -1) return grtc_wrap(elem, 0 - a.u);
      return grtc_wrap(elem, (uint64_t)(a.i / b.i));
    case GRTC_SCALAR_REM:
      if (b.u == 0) return a;
      if (!is_signed) return grtc_wrap(elem, a.u % b.u);
      if (b.i == -1) return grtc_wrap(elem, 0);
      return grtc_wrap(elem, (uint64_t)(a.i % b.i));
    case GRTC_SCALAR_POW: return grtc_wrap(elem, grtc_int_pow(elem, a, b));
    case GRTC_SCALAR_MAX: return grtc_int_less(elem, a, b) ? b : a;
    case GRTC_SCALAR_MIN: return grtc_int_less(elem, b, a) ? b : a;
    case GRTC_SCALAR_AND: return grtc_wrap(elem, a.u & b.u);
    case GRTC_SCALAR_OR: return grtc_wrap(elem, a.u | b.u);
    case GRTC_SCALAR_XOR: return grtc_wrap(elem, a.u ^ b.u);
    case GRTC_SCALAR_SHL:
      if (grtc_shift_out_of_range(elem, b)) return grtc_wrap(elem, 0);
      return grtc_wrap(elem, a.u << b.u);
    case GRTC_SCALAR_SHRL:
      if (grtc_shift_out_of_range(elem, b)) return grtc_wrap(elem, 0);
      return grtc_wrap(elem, (a.u & mask) >> b.u);
    case GRTC_SCALAR_SHRA: {
      // The sign is the top bit of the element, for unsigned types too.
      bool negative = (a.u >> (bits - 1)) & 1;
      uint64_t extended = negative ? (a.u | ~mask) : (a.u & mask);
      if (grtc_shift_out_of_range(elem, b)) {
        return grtc_wrap(elem, negative ? UINT64_MAX : 0);
      }
      uint64_t shifted = extended >> b.u;
      if (negative && b.u) shifted |= ~(UINT64_MAX >> b.u);
      return grtc_wrap(elem, shifted);
    }
    case GRTC_SCALAR_NOT:
      return grtc_wrap(elem, elem == GRTC_ELEM_I1 ? !a.u : ~a.u);
    case GRTC_SCALAR_ABS:
      return is_signed && a.i < 0 ? grtc_wrap(elem, 0 - a.u) : a;
    case GRTC_SCALAR_NEG: return grtc_wrap(elem, 0 - a.u);
    case GRTC_SCALAR_SIGN:
      if (is_signed && a.i < 0) return grtc_wrap(elem, UINT64_MAX);
      return grtc_wrap(elem, a.u != 0);
    case GRTC_SCALAR_POPCNT:
      return grtc_wrap(elem, (uint64_t)__builtin_popcountll(a.u & mask));
    case GRTC_SCALAR_CLZ: {
      uint64_t pattern = a.u & mask;
      uint64_t leading =
          pattern ? (uint64_t)(__builtin_clzll(pattern) - (64 - (int)bits))
                  : bits;
      return grtc_wrap(elem, leading);
    }
    default: {
      value_t zero = {0};
      return zero;
    }
  }
}

//===----------------------------------------------------------------------===//
// Floats
//===----------------------------------------------------------------------===//

// One definition instantiated for double (f64) and float (f32, and f16/bf16
// which compute in f32), so folding uses the same libm functions and
// precision as the CPU kernels. MAX/MIN propagate NaN and order -0 below
// +0; SIGN keeps +-0 and NaN.
#define GRTC_EVAL_FLOAT(S, T, F)                                            \
  static T grtc_eval_##S(grtc_scalar_op_t op, T a, T b, bool* is_bool) {    \
    switch (op) {                                                           \
      case GRTC_SCALAR_ADD: return a + b;                                   \
      case GRTC_SCALAR_SUB: return a - b;                                   \
      case GRTC_SCALAR_MUL: return a * b;                                   \
      case GRTC_SCALAR_DIV: return a / b;                                   \
      case GRTC_SCALAR_REM: return fmod##F(a, b);                           \
      case GRTC_SCALAR_POW: return pow##F(a, b);                            \
      case GRTC_SCALAR_MAX:                                                 \
        if (isnan(a) || isnan(b)) return a + b;                             \
        if (a == b) return signbit(a) ? b : a;                              \
        return a > b ? a : b;                                               \
      case GRTC_SCALAR_MIN:                                                 \
        if (isnan(a) || isnan(b)) return a + b;                             \
        if (a == b) return signbit(a) ? a : b;                              \
        return a < b ? a : b;                                               \
      case GRTC_SCALAR_ATAN2: return atan2##F(a, b);                        \
      case GRTC_SCALAR_ABS: return fabs##F(a);                              \
      case GRTC_SCALAR_NEG: return -a;                                      \
      case GRTC_SCALAR_SIGN: return a > 0 ? (T)1 : a < 0 ? (T)-1 : a;       \
      case GRTC_SCALAR_EXP: return exp##F(a);                               \
      case GRTC_SCALAR_EXPM1: return expm1##F(a);                           \
      case GRTC_SCALAR_LOG: return log##F(a);                               \
      case GRTC_SCALAR_LOG1P: return log1p##F(a);                           \
      case GRTC_SCALAR_LOGISTIC: return (T)1 / ((T)1 + exp##F(-a));         \
      case GRTC_SCALAR_SQRT: return sqrt##F(a);                             \
      case GRTC_SCALAR_RSQRT: return (T)1 / sqrt##F(a);                     \
      case GRTC_SCALAR_CBRT: return cbrt##F(a);                             \
      case GRTC_SCALAR_TANH: return tanh##F(a);                             \
      case GRTC_SCALAR_SIN: return sin##F(a);                               \
      case GRTC_SCALAR_COS: return cos##F(a);                               \
      case GRTC_SCALAR_TAN: return tan##F(a);                               \
      case GRTC_SCALAR_FLOOR: return floor##F(a);                           \
      case GRTC_SCALAR_CEIL: return ceil##F(a);                             \
      case GRTC_SCALAR_ROUND_AFZ: return round##F(a);                       \
      case GRTC_SCALAR_ROUND_EVEN: return nearbyint##F(a);                  \
      case GRTC_SCALAR_IS_FINITE:                                           \
        *is_bool = true;                                                    \
        return isfinite(a) ? 1 : 0;                                         \
      default: return 0;                                                    \
    }                                                                       \
  }
GRTC_EVAL_FLOAT(f64, double, )
GRTC_EVAL_FLOAT(f32, float, f)
#undef GRTC_EVAL_FLOAT

static value_t grtc_eval_float(grtc_scalar_op_t op, grtc_elem_t elem,
                               const value_t* x) {
  bool is_bool = false;
  double r = elem == GRTC_ELEM_F64
                 ? grtc_eval_f64(op, x[0].f, x[1].f, &is_bool)
                 : (double)grtc_eval_f32(op, (float)x[0].f, (float)x[1].f,
                                         &is_bool);
  value_t v;
  if (is_bool) {
    v.u = r != 0;
    return v;
  }
  return grtc_float_value(elem, r);
}

value_t grtc_eval_scalar(grtc_scalar_op_t op, grtc_elem_t elem,
                         const value_t* operands) {
  op = grtc_scalar_op_for_elem(op, elem);  // i1: add is OR, multiply AND
  if (op == GRTC_SCALAR_SELECT) {
    return operands[0].u ? operands[1] : operands[2];
  }
  if (op == GRTC_SCALAR_CLAMP) {
    // XLA: min(max(x, lo), hi).
    value_t low[2] = {operands[1], operands[0]};
    value_t high[2] = {grtc_eval_scalar(GRTC_SCALAR_MAX, elem, low),
                       operands[2]};
    return grtc_eval_scalar(GRTC_SCALAR_MIN, elem, high);
  }
  value_t padded[2] = {operands[0], operands[0]};
  if (grtc_scalar_op_arity(op) >= 2) padded[1] = operands[1];
  return grtc_elem_is_float(elem) ? grtc_eval_float(op, elem, padded)
                                  : grtc_eval_int(op, elem, padded);
}

//===----------------------------------------------------------------------===//
// Compare and convert
//===----------------------------------------------------------------------===//

// Sign-magnitude float bits mapped to a signed integer whose order is the
// IEEE total order (-NaN < -Inf < ... < -0 < +0 < ... < +Inf < NaN).
static int64_t grtc_total_order_key(grtc_elem_t elem, double x) {
  uint8_t bytes[8] = {0};
  value_t v;
  v.f = x;
  grtc_eval_store(elem, v, bytes);
  uint32_t bits = grtc_elem_bit_width(elem);
  int64_t key = grtc_wrap(GRTC_ELEM_I64, grtc_eval_load(GRTC_ELEM_U64, bytes).u)
                    .i;
  if (bits < 64) key = (int64_t)((uint64_t)key << (64 - bits)) >> (64 - bits);
  return key < 0 ? key ^ (int64_t)(grtc_width_mask(bits - 1)) : key;
}

bool grtc_eval_compare(grtc_compare_direction_t direction,
                       grtc_compare_type_t type, grtc_elem_t elem, value_t a,
                       value_t b) {
  type = grtc_compare_type_resolve(type, elem);
  int order;  // -1, 0, 1, or 2 for unordered
  uint32_t bits = grtc_elem_bit_width(elem);
  switch (type) {
    case GRTC_CMP_TYPE_FLOAT:
      order = isnan(a.f) || isnan(b.f) ? 2 : (a.f < b.f) ? -1 : (a.f > b.f);
      break;
    case GRTC_CMP_TYPE_TOTALORDER: {
      int64_t ka = grtc_total_order_key(elem, a.f);
      int64_t kb = grtc_total_order_key(elem, b.f);
      order = ka < kb ? -1 : ka > kb;
      break;
    }
    case GRTC_CMP_TYPE_SIGNED: {
      // The element's bits read as signed, whatever its declared type.
      int64_t sa = (int64_t)(a.u << (64 - bits)) >> (64 - bits);
      int64_t sb = (int64_t)(b.u << (64 - bits)) >> (64 - bits);
      order = sa < sb ? -1 : sa > sb;
      break;
    }
    default: {
      uint64_t ua = a.u & grtc_width_mask(bits);
      uint64_t ub = b.u & grtc_width_mask(bits);
      order = ua < ub ? -1 : ua > ub;
      break;
    }
  }
  switch (direction) {
    case GRTC_CMP_EQ: return order == 0;
    case GRTC_CMP_NE: return order != 0;
    case GRTC_CMP_LT: return order == -1;
    case GRTC_CMP_LE: return order == -1 || order == 0;
    case GRTC_CMP_GT: return order == 1;
    case GRTC_CMP_GE: return order == 1 || order == 0;
  }
  return false;
}

// Truncates toward zero and saturates to |to|'s range; NaN gives 0.
static value_t grtc_float_to_int(grtc_elem_t to, double x) {
  uint32_t bits = grtc_elem_bit_width(to);
  value_t v;
  if (isnan(x)) {
    v.u = 0;
    return v;
  }
  double t = trunc(x);
  if (grtc_elem_is_signed_integer(to)) {
    double limit = ldexp(1.0, (int)bits - 1);
    if (t >= limit) return grtc_wrap(to, grtc_width_mask(bits - 1));
    if (t < -limit) return grtc_wrap(to, ~grtc_width_mask(bits - 1));
    v.i = (int64_t)t;
    return v;
  }
  if (t <= 0) {
    v.u = 0;
  } else if (t >= ldexp(1.0, (int)bits)) {
    v.u = grtc_width_mask(bits);
  } else {
    v.u = (uint64_t)t;
  }
  return v;
}

value_t grtc_eval_convert(grtc_elem_t from, grtc_elem_t to, value_t value) {
  bool from_float = grtc_elem_is_float(from);
  if (to == GRTC_ELEM_I1) {
    value_t v;
    v.u = from_float ? value.f != 0 : value.u != 0;
    return v;
  }
  if (grtc_elem_is_float(to)) {
    double x;
    if (from_float) {
      x = value.f;
    } else if (grtc_elem_is_signed_integer(from)) {
      x = (double)value.i;
    } else {
      x = (double)value.u;
    }
    value_t v;
    // Rounding through double first is exact for every source that fits
    // and innocuous otherwise (53 >= 2 * 24 + 2 bits).
    if (grtc_elem_is_small_float(to)) {
      grtc_float_kind_t kind = grtc_elem_float_kind(to);
      v.f = grtc_float_decode(grtc_float_encode(x, kind), kind);
    } else {
      v.f = to == GRTC_ELEM_F32 ? (double)(float)x : x;
    }
    return v;
  }
  if (from_float) return grtc_float_to_int(to, value.f);
  return grtc_wrap(to, value.u);
}

value_t grtc_eval_from_int(grtc_elem_t elem, int64_t value) {
  value_t v;
  v.i = value;
  return grtc_eval_convert(GRTC_ELEM_I64, elem, v);
}

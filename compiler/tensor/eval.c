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

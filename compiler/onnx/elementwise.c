// ONNX elementwise ops: math, activations, logic, comparisons, casts,
// Where, Clip, Constant, Identity and Dropout (inference).
#include <math.h>
#include <string.h>

#include "compiler/onnx/internal.h"

#define X0 (n->inputs[0])


// Unary ops that are one tensor IR op.
typedef struct grtc_onnx_unary_row_t {
  const char* op_type;
  grtc_top_kind_t kind;
  bool float_only;
} grtc_onnx_unary_row_t;

static const grtc_onnx_unary_row_t grtc_onnx_unary_rows[] = {
    {"Abs", GRTC_TOP_ABS, false},         {"Neg", GRTC_TOP_NEGATE, false},
    {"Exp", GRTC_TOP_EXPONENTIAL, true},  {"Log", GRTC_TOP_LOG, true},
    {"Sqrt", GRTC_TOP_SQRT, true},        {"Ceil", GRTC_TOP_CEIL, true},
    {"Floor", GRTC_TOP_FLOOR, true},      {"Round", GRTC_TOP_ROUND_NEAREST_EVEN, true},
    {"Sign", GRTC_TOP_SIGN, false},       {"Sin", GRTC_TOP_SINE, true},
    {"Cos", GRTC_TOP_COSINE, true},       {"Tan", GRTC_TOP_TAN, true},
    {"Tanh", GRTC_TOP_TANH, true},        {"Sigmoid", GRTC_TOP_LOGISTIC, true},
    {"Not", GRTC_TOP_NOT, false},         {"BitwiseNot", GRTC_TOP_NOT, false},
};

static grt_status_t grtc_onnx_op_unary(grtc_onnx_node_t* n) {
  for (size_t i = 0; i < sizeof(grtc_onnx_unary_rows) / sizeof(grtc_onnx_unary_rows[0]); ++i) {
    const grtc_onnx_unary_row_t* row = &grtc_onnx_unary_rows[i];
    if (strcmp(row->op_type, n->proto->op_type) != 0) continue;
    if (row->float_only && !grtc_onnx_expect_float(n, X0, "input X")) return grt_ok_status();
    if (row->kind == GRTC_TOP_NOT && strcmp(row->op_type, "Not") == 0 &&
        X0->type.elem != GRTC_ELEM_I1) {
      return grtc_onnx_error(n, "Not takes a bool tensor");
    }
    if (row->kind == GRTC_TOP_SIGN && grtc_elem_is_unsigned_integer(X0->type.elem)) {
      // sign of an unsigned value: 0 or 1.
      grtc_tvalue_t* zero = grtc_onnx_splat_like(n, X0, 0);
      OUT(0) = grtc_onnx_convert(n, grtc_onnx_compare(n, GRTC_CMP_NE, X0, zero), X0->type.elem);
      return grt_ok_status();
    }
    if (row->kind == GRTC_TOP_ABS && grtc_elem_is_unsigned_integer(X0->type.elem)) {
      OUT(0) = X0;
      return grt_ok_status();
    }
    OUT(0) = grtc_onnx_unary(n, row->kind, X0);
    return grt_ok_status();
  }
  return grtc_onnx_error(n, "no unary op row");
}

// Binary ops with numpy broadcasting.
typedef struct grtc_onnx_binary_row_t {
  const char* op_type;
  grtc_top_kind_t kind;
} grtc_onnx_binary_row_t;

static const grtc_onnx_binary_row_t grtc_onnx_binary_rows[] = {
    {"Add", GRTC_TOP_ADD},        {"Sub", GRTC_TOP_SUBTRACT},  {"Mul", GRTC_TOP_MULTIPLY},
    {"Div", GRTC_TOP_DIVIDE},     {"And", GRTC_TOP_AND},       {"Or", GRTC_TOP_OR},
    {"Xor", GRTC_TOP_XOR},        {"BitwiseAnd", GRTC_TOP_AND}, {"BitwiseOr", GRTC_TOP_OR},
    {"BitwiseXor", GRTC_TOP_XOR},
};

static grt_status_t grtc_onnx_op_binary(grtc_onnx_node_t* n) {
  for (size_t i = 0; i < sizeof(grtc_onnx_binary_rows) / sizeof(grtc_onnx_binary_rows[0]); ++i) {
    if (strcmp(grtc_onnx_binary_rows[i].op_type, n->proto->op_type) != 0) continue;
    grtc_top_kind_t kind = grtc_onnx_binary_rows[i].kind;
    grtc_tvalue_t* a = grtc_onnx_input(n, 0);
    grtc_tvalue_t* b = grtc_onnx_input(n, 1);
    if (!a || !b) return grt_ok_status();
    if ((kind == GRTC_TOP_AND || kind == GRTC_TOP_OR || kind == GRTC_TOP_XOR) &&
        n->proto->op_type[0] != 'B' && a->type.elem != GRTC_ELEM_I1) {
      return grtc_onnx_error(n, "%s takes bool tensors", n->proto->op_type);
    }
    OUT(0) = grtc_onnx_binary(n, kind, a, b);
    return grt_ok_status();
  }
  return grtc_onnx_error(n, "no binary op row");
}

static grt_status_t grtc_onnx_op_compare(grtc_onnx_node_t* n) {
  const char* t = n->proto->op_type;
  grtc_compare_direction_t direction = GRTC_CMP_EQ;
  if (strcmp(t, "Less") == 0) direction = GRTC_CMP_LT;
  if (strcmp(t, "LessOrEqual") == 0) direction = GRTC_CMP_LE;
  if (strcmp(t, "Greater") == 0) direction = GRTC_CMP_GT;
  if (strcmp(t, "GreaterOrEqual") == 0) direction = GRTC_CMP_GE;
  OUT(0) = grtc_onnx_compare(n, direction, grtc_onnx_input(n, 0), grtc_onnx_input(n, 1));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_pow(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* y = grtc_onnx_input(n, 1);
  if (!x || !y) return grt_ok_status();
  // The exponent may have another type; it is converted to the base's.
  y = grtc_onnx_convert(n, y, x->type.elem);
  OUT(0) = grtc_onnx_binary(n, GRTC_TOP_POWER, x, y);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_mod(grtc_onnx_node_t* n) {
  grtc_tvalue_t* a = grtc_onnx_input(n, 0);
  grtc_tvalue_t* b = grtc_onnx_input(n, 1);
  if (!a || !b) return grt_ok_status();
  int64_t fmod_attr = grtc_onnx_attr_int(n, "fmod", 0);
  if (grtc_elem_is_float(a->type.elem) && fmod_attr != 1) {
    return grtc_onnx_error(n, "Mod of floating-point tensors needs fmod=1, got fmod=%lld",
                           (long long)fmod_attr);
  }
  // fmod=1: C fmod (the sign of the dividend) = stablehlo.remainder.
  grtc_tvalue_t* r = grtc_onnx_binary(n, GRTC_TOP_REMAINDER, a, b);
  if (fmod_attr == 1 || grtc_elem_is_unsigned_integer(a->type.elem)) {
    OUT(0) = r;
    return grt_ok_status();
  }
  // fmod=0 on integers: the result takes the divisor's sign (Python's %):
  // r + b when r != 0 and the signs of r and b differ.
  grtc_tvalue_t* zero = grtc_onnx_splat_like(n, r, 0);
  grtc_tvalue_t* bb = grtc_onnx_binary(n, GRTC_TOP_ADD, zero, b);  // b at r's shape
  grtc_tvalue_t* fix = grtc_onnx_binary(
      n, GRTC_TOP_AND, grtc_onnx_compare(n, GRTC_CMP_NE, r, zero),
      grtc_onnx_compare(n, GRTC_CMP_NE, grtc_onnx_compare(n, GRTC_CMP_LT, r, zero),
                        grtc_onnx_compare(n, GRTC_CMP_LT, bb, zero)));
  OUT(0) = grtc_onnx_select(n, fix, grtc_onnx_binary(n, GRTC_TOP_ADD, r, bb), r);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_bitshift(grtc_onnx_node_t* n) {
  const char* direction = grtc_onnx_attr_string(n, "direction", "");
  grtc_top_kind_t kind;
  if (strcmp(direction, "LEFT") == 0) {
    kind = GRTC_TOP_SHIFT_LEFT;
  } else if (strcmp(direction, "RIGHT") == 0) {
    kind = GRTC_TOP_SHIFT_RIGHT_LOGICAL;
  } else {
    return grtc_onnx_error(n, "attribute 'direction' must be \"LEFT\" or \"RIGHT\", got \"%s\"",
                           direction);
  }
  OUT(0) = grtc_onnx_binary(n, kind, grtc_onnx_input(n, 0), grtc_onnx_input(n, 1));
  return grt_ok_status();
}

// Sum, Mean, Max, Min: variadic with broadcasting.
static grt_status_t grtc_onnx_op_variadic(grtc_onnx_node_t* n) {
  const char* t = n->proto->op_type;
  grtc_top_kind_t kind = GRTC_TOP_ADD;
  if (strcmp(t, "Max") == 0) kind = GRTC_TOP_MAXIMUM;
  if (strcmp(t, "Min") == 0) kind = GRTC_TOP_MINIMUM;
  grtc_tvalue_t* acc = grtc_onnx_input(n, 0);
  for (uint32_t i = 1; i < n->input_count; ++i) {
    acc = grtc_onnx_binary(n, kind, acc, grtc_onnx_input(n, i));
  }
  if (strcmp(t, "Mean") == 0 && acc) {
    acc = grtc_onnx_binary(n, GRTC_TOP_DIVIDE, acc,
                           grtc_onnx_splat_like(n, acc, (double)n->input_count));
  }
  OUT(0) = acc;
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_reciprocal(grtc_onnx_node_t* n) {
  if (!grtc_onnx_expect_float(n, X0, "input X")) return grt_ok_status();
  OUT(0) = grtc_onnx_binary(n, GRTC_TOP_DIVIDE, grtc_onnx_splat_like(n, X0, 1), X0);
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

#define C(v) grtc_onnx_splat_like(n, x, (v))
#define MAX(a, b) grtc_onnx_binary(n, GRTC_TOP_MAXIMUM, (a), (b))
#define MIN(a, b) grtc_onnx_binary(n, GRTC_TOP_MINIMUM, (a), (b))
#define EXP(a) grtc_onnx_unary(n, GRTC_TOP_EXPONENTIAL, (a))
#define EXPM1(a) grtc_onnx_unary(n, GRTC_TOP_EXPONENTIAL_MINUS_ONE, (a))
#define TANH(a) grtc_onnx_unary(n, GRTC_TOP_TANH, (a))
#define SELECT(p, a, b) grtc_onnx_select(n, (p), (a), (b))
#define CMP(d, a, b) grtc_onnx_compare(n, GRTC_CMP_##d, (a), (b))

static grt_status_t grtc_onnx_op_relu(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  OUT(0) = MAX(x, C(0));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_leaky_relu(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  double alpha = grtc_onnx_attr_float(n, "alpha", 0.01f);
  OUT(0) = SELECT(CMP(LT, x, C(0)), MUL(x, C(alpha)), x);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_prelu(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = grtc_onnx_input(n, 0);
  grtc_tvalue_t* slope = grtc_onnx_input(n, 1);
  if (!x || !slope) return grt_ok_status();
  // Before opset 7 a 1-D slope of C values applies per channel (axis 1);
  // from opset 7 it broadcasts to x's shape (unidirectionally).
  if (n->opset < 7 && slope->type.rank == 1 && x->type.rank > 2 &&
      slope->type.dims[0] == x->type.dims[1]) {
    int64_t dims[GRTC_MAX_RANK];
    for (uint32_t i = 0; i + 1 < x->type.rank; ++i) dims[i] = i == 0 ? slope->type.dims[0] : 1;
    slope = grtc_onnx_reshape(n, slope, x->type.rank - 1, dims);
  }
  slope = grtc_onnx_broadcast_to(n, slope, x->type.rank, x->type.dims);
  OUT(0) = SELECT(CMP(LT, x, C(0)), MUL(x, slope), x);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_elu(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  double alpha = grtc_onnx_attr_float(n, "alpha", 1.0f);
  OUT(0) = SELECT(CMP(LT, x, C(0)), MUL(C(alpha), EXPM1(x)), x);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_selu(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  double alpha = grtc_onnx_attr_float(n, "alpha", 1.67326319217681884765625f);
  double gamma = grtc_onnx_attr_float(n, "gamma", 1.05070102214813232421875f);
  OUT(0) = MUL(C(gamma), SELECT(CMP(LE, x, C(0)), SUB(MUL(C(alpha), EXP(x)), C(alpha)), x));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_celu(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  double alpha = grtc_onnx_attr_float(n, "alpha", 1.0f);
  OUT(0) = ADD(MAX(C(0), x), MIN(C(0), MUL(C(alpha), EXPM1(DIV(x, C(alpha))))));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_hard_sigmoid(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  double alpha = grtc_onnx_attr_float(n, "alpha", 0.2f);
  double beta = grtc_onnx_attr_float(n, "beta", 0.5f);
  OUT(0) = MAX(C(0), MIN(C(1), ADD(MUL(C(alpha), x), C(beta))));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_hard_swish(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  OUT(0) = MUL(x, MAX(C(0), MIN(C(1), ADD(MUL(C(1.0 / 6.0), x), C(0.5)))));
  return grt_ok_status();
}

// log(1 + exp(x)), computed without overflow: max(x, 0) + log1p(exp(-|x|)).
static grtc_tvalue_t* grtc_onnx_softplus(grtc_onnx_node_t* n, grtc_tvalue_t* x) {
  grtc_tvalue_t* neg_abs = grtc_onnx_unary(n, GRTC_TOP_NEGATE, grtc_onnx_unary(n, GRTC_TOP_ABS, x));
  return ADD(MAX(x, C(0)), grtc_onnx_unary(n, GRTC_TOP_LOG_PLUS_ONE, EXP(neg_abs)));
}

static grt_status_t grtc_onnx_op_softplus(grtc_onnx_node_t* n) {
  if (!grtc_onnx_expect_float(n, X0, "input X")) return grt_ok_status();
  OUT(0) = grtc_onnx_softplus(n, X0);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_softsign(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  OUT(0) = DIV(x, ADD(C(1), grtc_onnx_unary(n, GRTC_TOP_ABS, x)));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_mish(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  OUT(0) = MUL(x, TANH(grtc_onnx_softplus(n, x)));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_thresholded_relu(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  double alpha = grtc_onnx_attr_float(n, "alpha", 1.0f);
  OUT(0) = SELECT(CMP(GT, x, C(alpha)), x, C(0));
  return grt_ok_status();
}

// erf through CHLO's f32 fit; f16/bf16 computed in f32.
static grtc_tvalue_t* grtc_onnx_erf(grtc_onnx_node_t* n, grtc_tvalue_t* x) {
  if (!x) return NULL;
  grtc_elem_t elem = x->type.elem;
  grtc_tvalue_t* wide = elem == GRTC_ELEM_F32 || elem == GRTC_ELEM_F64
                            ? x
                            : grtc_onnx_convert(n, x, GRTC_ELEM_F32);
  if (!wide) return NULL;
  grtc_tvalue_t* out = NULL;
  grt_status_t status = grtc_onnx_chlo(n, "chlo.erf", &wide, 1, &wide->type, 1, 0, &out);
  if (!grt_status_is_ok(status)) {
    grt_status_free(status);
    return NULL;
  }
  return grtc_onnx_convert(n, out, elem);
}

static grt_status_t grtc_onnx_op_erf(grtc_onnx_node_t* n) {
  if (!grtc_onnx_expect_float(n, X0, "input X")) return grt_ok_status();
  OUT(0) = grtc_onnx_erf(n, X0);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_gelu(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  const char* approximate = grtc_onnx_attr_string(n, "approximate", "none");
  if (strcmp(approximate, "tanh") == 0) {
    grtc_tvalue_t* inner =
        MUL(C(0.7978845608028654), ADD(x, MUL(C(0.044715), MUL(x, MUL(x, x)))));
    OUT(0) = MUL(MUL(C(0.5), x), ADD(C(1), TANH(inner)));
  } else if (strcmp(approximate, "none") == 0) {
    OUT(0) = MUL(MUL(C(0.5), x), ADD(C(1), grtc_onnx_erf(n, MUL(x, C(0.7071067811865476)))));
  } else {
    return grtc_onnx_error(n, "attribute 'approximate' must be \"none\" or \"tanh\", got \"%s\"",
                           approximate);
  }
  return grt_ok_status();
}

// The CHLO math functions ONNX has as ops.
static grt_status_t grtc_onnx_op_chlo_math(grtc_onnx_node_t* n) {
  static const struct {
    const char* op_type;
    const char* chlo;
  } rows[] = {{"Asin", "chlo.asin"},   {"Acos", "chlo.acos"},   {"Atan", "chlo.atan"},
              {"Sinh", "chlo.sinh"},   {"Cosh", "chlo.cosh"},   {"Asinh", "chlo.asinh"},
              {"Acosh", "chlo.acosh"}, {"Atanh", "chlo.atanh"}};
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    if (strcmp(rows[i].op_type, n->proto->op_type) != 0) continue;
    return grtc_onnx_chlo(n, rows[i].chlo, &x, 1, &x->type, 1, 0, &OUT(0));
  }
  return grtc_onnx_error(n, "no CHLO row");
}

static grt_status_t grtc_onnx_op_is_nan(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  OUT(0) = CMP(NE, x, x);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_is_inf(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  if (!grtc_onnx_expect_float(n, x, "input X")) return grt_ok_status();
  bool positive = grtc_onnx_attr_int(n, "detect_positive", 1) != 0;
  bool negative = grtc_onnx_attr_int(n, "detect_negative", 1) != 0;
  grtc_tvalue_t* pos = CMP(EQ, x, C(INFINITY));
  grtc_tvalue_t* neg = CMP(EQ, x, C(-INFINITY));
  if (positive && negative) {
    OUT(0) = grtc_onnx_binary(n, GRTC_TOP_OR, pos, neg);
  } else if (positive) {
    OUT(0) = pos;
  } else if (negative) {
    OUT(0) = neg;
  } else {
    OUT(0) = CMP(NE, x, x);  // all false for non-NaN; NaN is not infinite
    OUT(0) = grtc_onnx_binary(n, GRTC_TOP_AND, OUT(0), grtc_onnx_unary(n, GRTC_TOP_NOT, OUT(0)));
  }
  return grt_ok_status();
}

#undef C

//===----------------------------------------------------------------------===//
// Selection, clipping, casts
//===----------------------------------------------------------------------===//

static grt_status_t grtc_onnx_op_where(grtc_onnx_node_t* n) {
  grtc_tvalue_t* p = grtc_onnx_input(n, 0);
  if (p && p->type.elem != GRTC_ELEM_I1) {
    return grtc_onnx_error(n, "the condition must be a bool tensor");
  }
  OUT(0) = grtc_onnx_select(n, p, grtc_onnx_input(n, 1), grtc_onnx_input(n, 2));
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_clip(grtc_onnx_node_t* n) {
  grtc_tvalue_t* x = X0;
  grtc_tvalue_t* lo = NULL;
  grtc_tvalue_t* hi = NULL;
  if (n->opset < 11) {
    const Onnx__AttributeProto* a_min = grtc_onnx_attr(n, "min");
    const Onnx__AttributeProto* a_max = grtc_onnx_attr(n, "max");
    if (a_min) lo = grtc_onnx_splat_like(n, x, grtc_onnx_attr_float(n, "min", 0));
    if (a_max) hi = grtc_onnx_splat_like(n, x, grtc_onnx_attr_float(n, "max", 0));
  } else {
    lo = n->input_count > 1 ? n->inputs[1] : NULL;
    hi = n->input_count > 2 ? n->inputs[2] : NULL;
  }
  grtc_tvalue_t* out = x;
  if (lo) out = MAX(out, lo);
  if (hi) out = MIN(out, hi);
  OUT(0) = out;
  return grt_ok_status();
}

// ONNX Cast: float -> integer truncates, anything -> bool is x != 0.
static grtc_tvalue_t* grtc_onnx_cast(grtc_onnx_node_t* n, grtc_tvalue_t* x, grtc_elem_t to) {
  if (!x) return NULL;
  if (to == GRTC_ELEM_I1 && x->type.elem != GRTC_ELEM_I1) {
    return grtc_onnx_compare(n, GRTC_CMP_NE, x, grtc_onnx_splat_like(n, x, 0));
  }
  return grtc_onnx_convert(n, x, to);
}

static grt_status_t grtc_onnx_op_cast(grtc_onnx_node_t* n) {
  const Onnx__AttributeProto* to = grtc_onnx_attr(n, "to");
  if (!to) return grtc_onnx_error(n, "attribute 'to' is required");
  grtc_elem_t elem;
  if (!grtc_onnx_elem(n, (int32_t)to->i, &elem)) return grt_ok_status();
  OUT(0) = grtc_onnx_cast(n, X0, elem);
  // A shape cast between integer types keeps its known dimensions.
  grtc_onnx_shape_values_t known;
  if (grtc_elem_is_integer(elem) && elem != GRTC_ELEM_I1 && grtc_onnx_shape_values(n, X0, &known)) {
    grtc_onnx_remember_shape_values(n, OUT(0), &known);
  }
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_cast_like(grtc_onnx_node_t* n) {
  grtc_tvalue_t* like = grtc_onnx_input(n, 1);
  if (!like) return grt_ok_status();
  OUT(0) = grtc_onnx_cast(n, X0, like->type.elem);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_identity(grtc_onnx_node_t* n) {
  OUT(0) = grtc_onnx_input(n, 0);
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_dropout(grtc_onnx_node_t* n) {
  // Inference: the identity. training_mode (opset 12, input 2) must be
  // false when given.
  if (n->input_count > 2 && n->inputs[2]) {
    int64_t* mode = NULL;
    uint32_t count = 0;
    if (!grtc_onnx_ints(n, n->inputs[2], "input 'training_mode'", &mode, &count)) {
      return grt_ok_status();
    }
    if (count == 1 && mode[0] != 0) {
      return grtc_onnx_unsupported(n, "training_mode = true (grt compiles inference)");
    }
  }
  OUT(0) = X0;
  if (n->output_count > 1 && X0) {
    grtc_ttype_t mask = X0->type;
    mask.elem = GRTC_ELEM_I1;
    OUT(1) = grtc_onnx_splat(n, &mask, 1);
  }
  return grt_ok_status();
}

static grt_status_t grtc_onnx_op_constant(grtc_onnx_node_t* n) {
  if (n->proto->n_attribute != 1) {
    return grtc_onnx_error(n, "expected exactly one of the attributes value, value_float, "
                              "value_floats, value_int, value_ints; got %zu attributes",
                           n->proto->n_attribute);
  }
  const Onnx__AttributeProto* a = n->proto->attribute[0];
  const char* name = a->name ? a->name : "";
  if (strcmp(name, "value") == 0) {
    OUT(0) = grtc_onnx_attr_tensor(n, "value");
  } else if (strcmp(name, "value_float") == 0) {
    OUT(0) = grtc_onnx_scalar(n, GRTC_ELEM_F32, grtc_onnx_attr_float(n, name, 0));
  } else if (strcmp(name, "value_int") == 0) {
    int64_t v = grtc_onnx_attr_int(n, name, 0);
    OUT(0) = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 0, NULL, &v);
  } else if (strcmp(name, "value_ints") == 0) {
    int64_t* values = NULL;
    uint32_t count = 0;
    grtc_onnx_attr_ints(n, name, &values, &count);
    int64_t dims[1] = {count};
    OUT(0) = grtc_onnx_const_ints(n, GRTC_ELEM_I64, 1, dims, values);
  } else if (strcmp(name, "value_floats") == 0) {
    float* values = NULL;
    uint32_t count = 0;
    grtc_onnx_attr_floats(n, name, &values, &count);
    int64_t dims[1] = {count};
    grtc_ttype_t type = grtc_onnx_type(GRTC_ELEM_F32, 1, dims);
    OUT(0) = grtc_onnx_constant(n, &type, values, count * sizeof(float), false);
  } else {
    return grtc_onnx_unsupported(n, "attribute '%s' (sparse and string constants are not "
                                    "supported)",
                                 name);
  }
  return grt_ok_status();
}

const grtc_onnx_op_def_t grtc_onnx_elementwise_ops[] = {
    {"Abs", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"Neg", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"Exp", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"Log", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"Sqrt", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"Ceil", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"Floor", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"Round", grtc_onnx_op_unary, 1, 1, 1, 1, 11},
    {"Sign", grtc_onnx_op_unary, 1, 1, 1, 1, 9},
    {"Sin", grtc_onnx_op_unary, 1, 1, 1, 1, 7},
    {"Cos", grtc_onnx_op_unary, 1, 1, 1, 1, 7},
    {"Tan", grtc_onnx_op_unary, 1, 1, 1, 1, 7},
    {"Tanh", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"Sigmoid", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"Not", grtc_onnx_op_unary, 1, 1, 1, 1, 1},
    {"BitwiseNot", grtc_onnx_op_unary, 1, 1, 1, 1, 18},
    {"Add", grtc_onnx_op_binary, 2, 2, 1, 1, 1},
    {"Sub", grtc_onnx_op_binary, 2, 2, 1, 1, 1},
    {"Mul", grtc_onnx_op_binary, 2, 2, 1, 1, 1},
    {"Div", grtc_onnx_op_binary, 2, 2, 1, 1, 1},
    {"And", grtc_onnx_op_binary, 2, 2, 1, 1, 1},
    {"Or", grtc_onnx_op_binary, 2, 2, 1, 1, 1},
    {"Xor", grtc_onnx_op_binary, 2, 2, 1, 1, 1},
    {"BitwiseAnd", grtc_onnx_op_binary, 2, 2, 1, 1, 18},
    {"BitwiseOr", grtc_onnx_op_binary, 2, 2, 1, 1, 18},
    {"BitwiseXor", grtc_onnx_op_binary, 2, 2, 1, 1, 18},
    {"Equal", grtc_onnx_op_compare, 2, 2, 1, 1, 1},
    {"Less", grtc_onnx_op_compare, 2, 2, 1, 1, 1},
    {"LessOrEqual", grtc_onnx_op_compare, 2, 2, 1, 1, 12},
    {"Greater", grtc_onnx_op_compare, 2, 2, 1, 1, 1},
    {"GreaterOrEqual", grtc_onnx_op_compare, 2, 2, 1, 1, 12},
    {"Pow", grtc_onnx_op_pow, 2, 2, 1, 1, 1},
    {"Mod", grtc_onnx_op_mod, 2, 2, 1, 1, 10},
    {"BitShift", grtc_onnx_op_bitshift, 2, 2, 1, 1, 11},
    {"Sum", grtc_onnx_op_variadic, 1, -1, 1, 1, 1},
    {"Mean", grtc_onnx_op_variadic, 1, -1, 1, 1, 1},
    {"Max", grtc_onnx_op_variadic, 1, -1, 1, 1, 1},
    {"Min", grtc_onnx_op_variadic, 1, -1, 1, 1, 1},
    {"Reciprocal", grtc_onnx_op_reciprocal, 1, 1, 1, 1, 1},
    {"Relu", grtc_onnx_op_relu, 1, 1, 1, 1, 1},
    {"LeakyRelu", grtc_onnx_op_leaky_relu, 1, 1, 1, 1, 1},
    {"PRelu", grtc_onnx_op_prelu, 2, 2, 1, 1, 1},
    {"Elu", grtc_onnx_op_elu, 1, 1, 1, 1, 1},
    {"Selu", grtc_onnx_op_selu, 1, 1, 1, 1, 1},
    {"Celu", grtc_onnx_op_celu, 1, 1, 1, 1, 12},
    {"HardSigmoid", grtc_onnx_op_hard_sigmoid, 1, 1, 1, 1, 1},
    {"HardSwish", grtc_onnx_op_hard_swish, 1, 1, 1, 1, 14},
    {"Softplus", grtc_onnx_op_softplus, 1, 1, 1, 1, 1},
    {"Softsign", grtc_onnx_op_softsign, 1, 1, 1, 1, 1},
    {"Mish", grtc_onnx_op_mish, 1, 1, 1, 1, 18},
    {"ThresholdedRelu", grtc_onnx_op_thresholded_relu, 1, 1, 1, 1, 10},
    {"Erf", grtc_onnx_op_erf, 1, 1, 1, 1, 9},
    {"Gelu", grtc_onnx_op_gelu, 1, 1, 1, 1, 20},
    {"Asin", grtc_onnx_op_chlo_math, 1, 1, 1, 1, 7},
    {"Acos", grtc_onnx_op_chlo_math, 1, 1, 1, 1, 7},
    {"Atan", grtc_onnx_op_chlo_math, 1, 1, 1, 1, 7},
    {"Sinh", grtc_onnx_op_chlo_math, 1, 1, 1, 1, 9},
    {"Cosh", grtc_onnx_op_chlo_math, 1, 1, 1, 1, 9},
    {"Asinh", grtc_onnx_op_chlo_math, 1, 1, 1, 1, 9},
    {"Acosh", grtc_onnx_op_chlo_math, 1, 1, 1, 1, 9},
    {"Atanh", grtc_onnx_op_chlo_math, 1, 1, 1, 1, 9},
    {"IsNaN", grtc_onnx_op_is_nan, 1, 1, 1, 1, 9},
    {"IsInf", grtc_onnx_op_is_inf, 1, 1, 1, 1, 10},
    {"Where", grtc_onnx_op_where, 3, 3, 1, 1, 9},
    {"Clip", grtc_onnx_op_clip, 1, 3, 1, 1, 1},
    {"Cast", grtc_onnx_op_cast, 1, 1, 1, 1, 1},
    {"CastLike", grtc_onnx_op_cast_like, 2, 2, 1, 1, 15},
    {"Identity", grtc_onnx_op_identity, 1, 1, 1, 1, 1},
    {"Dropout", grtc_onnx_op_dropout, 1, 3, 1, 2, 1},
    {"Constant", grtc_onnx_op_constant, 0, 0, 1, 1, 1},
    {NULL, NULL, 0, 0, 0, 0, 0},
};

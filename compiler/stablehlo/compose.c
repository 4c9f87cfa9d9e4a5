#include "compiler/stablehlo/compose.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "compiler/stablehlo/complex.h"
#include "compiler/stablehlo/compose_ops.h"
#include "compiler/tensor/eval.h"

// M_PI and M_LN2 are not in C11.
#define GRTC_CHLO_PI 3.14159265358979323846
#define GRTC_CHLO_LN2 0.69314718055994530942

//===----------------------------------------------------------------------===//
// Building ops
//===----------------------------------------------------------------------===//

// An op with one result of |type| (none when NULL) appended to |block|.
static grt_status_t grtc_chlo_op_in(grtc_chlo_builder_t* b, grtc_tblock_t* block,
                                    grtc_top_kind_t kind, grtc_tvalue_t* const* operands,
                                    uint32_t count, const grtc_ttype_t* type,
                                    grtc_top_t** out) {
  GRT_RETURN_IF_ERROR(grtc_top_create(b->module, kind, operands, count, type,
                                      type ? 1 : 0, 0, out));
  grtc_tblock_append(block, *out);
  return b->place(b->user, *out);
}

static grt_status_t grtc_chlo_op(grtc_chlo_builder_t* b, grtc_top_kind_t kind,
                                 grtc_tvalue_t* const* operands, uint32_t count,
                                 const grtc_ttype_t* type, grtc_top_t** out) {
  return grtc_chlo_op_in(b, b->block, kind, operands, count, type, out);
}

grtc_tvalue_t* grtc_chlo_make(grtc_chlo_math_t* m, grtc_top_kind_t kind,
                                     grtc_tvalue_t* const* operands, uint32_t count,
                                     const grtc_ttype_t* type) {
  if (!grt_status_is_ok(m->status)) return NULL;
  for (uint32_t i = 0; i < count; ++i) {
    if (!operands[i]) return NULL;
  }
  grtc_top_t* top = NULL;
  m->status = grtc_chlo_op(m->b, kind, operands, count, type, &top);
  return grt_status_is_ok(m->status) ? &top->results[0] : NULL;
}

grtc_tvalue_t* grtc_chlo_unary(grtc_chlo_math_t* m, grtc_top_kind_t kind,
                                      grtc_tvalue_t* x) {
  return x ? grtc_chlo_make(m, kind, &x, 1, &x->type) : NULL;
}

grtc_tvalue_t* grtc_chlo_binary(grtc_chlo_math_t* m, grtc_top_kind_t kind,
                                       grtc_tvalue_t* a, grtc_tvalue_t* c) {
  grtc_tvalue_t* operands[2] = {a, c};
  return a ? grtc_chlo_make(m, kind, operands, 2, &a->type) : NULL;
}

grtc_tvalue_t* grtc_chlo_compare(grtc_chlo_math_t* m, grtc_compare_direction_t direction,
                                 grtc_tvalue_t* a, grtc_tvalue_t* c) {
  if (!a) return NULL;
  grtc_ttype_t type = a->type;
  type.elem = GRTC_ELEM_I1;
  grtc_tvalue_t* operands[2] = {a, c};
  grtc_tvalue_t* r = grtc_chlo_make(m, GRTC_TOP_COMPARE, operands, 2, &type);
  if (r) {
    r->def->attrs.compare_direction = direction;
    r->def->attrs.compare_type = GRTC_CMP_TYPE_FLOAT;
  }
  return r;
}

grtc_tvalue_t* grtc_chlo_select(grtc_chlo_math_t* m, grtc_tvalue_t* p, grtc_tvalue_t* a,
                                grtc_tvalue_t* c) {
  grtc_tvalue_t* operands[3] = {p, a, c};
  return a ? grtc_chlo_make(m, GRTC_TOP_SELECT, operands, 3, &a->type) : NULL;
}

grtc_tvalue_t* grtc_chlo_convert(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                        grtc_elem_t elem) {
  if (!x || x->type.elem == elem) return x;
  grtc_ttype_t type = x->type;
  type.elem = elem;
  return grtc_chlo_make(m, GRTC_TOP_CONVERT, &x, 1, &type);
}

// A constant of |type| with every element |value| (in that type's
// representation: .f for floats, .i for integers).
grtc_tvalue_t* grtc_chlo_splat_type(grtc_chlo_math_t* m, const grtc_ttype_t* type,
                                    grtc_scalar_value_t value) {
  if (!grt_status_is_ok(m->status)) return NULL;
  size_t size = grtc_elem_byte_size(type->elem);
  uint8_t* data = grtc_tmodule_alloc(m->b->module, size);
  if (!data) {
    m->status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory for a constant");
    return NULL;
  }
  grtc_eval_store(type->elem, value, data);
  grtc_tvalue_t* r = grtc_chlo_make(m, GRTC_TOP_CONSTANT, NULL, 0, type);
  if (r) {
    r->def->attrs.constant.data = data;
    r->def->attrs.constant.size = size;
    r->def->attrs.constant.splat = true;
  }
  return r;
}

grtc_tvalue_t* grtc_chlo_constant(grtc_chlo_math_t* m, const grtc_ttype_t* type,
                                  uint8_t* data, size_t size) {
  grtc_tvalue_t* r = grtc_chlo_make(m, GRTC_TOP_CONSTANT, NULL, 0, type);
  if (r) {
    r->def->attrs.constant.data = data;
    r->def->attrs.constant.size = size;
  }
  return r;
}

grtc_tvalue_t* grtc_chlo_splat_value(grtc_chlo_math_t* m, grtc_tvalue_t* like,
                                     grtc_scalar_value_t value) {
  return like ? grtc_chlo_splat_type(m, &like->type, value) : NULL;
}

grtc_tvalue_t* grtc_chlo_splat(grtc_chlo_math_t* m, grtc_tvalue_t* like, double value) {
  grtc_scalar_value_t v;
  v.f = value;
  return grtc_chlo_splat_value(m, like, v);
}

// C(v): a constant like |x|, the argument of the math functions below.
#define C(v) grtc_chlo_splat(m, x, (v))

//===----------------------------------------------------------------------===//
// Math functions
//===----------------------------------------------------------------------===//

// Each computes on |x| (f32 or f64) and returns the result, or NULL after
// an error in |m|.
typedef grtc_tvalue_t* (*grtc_chlo_math_fn_t)(grtc_chlo_math_t* m,
                                              grtc_tvalue_t* x);

static double grtc_chlo_sqrt_max(grtc_tvalue_t* x) {
  return sqrt(x->type.elem == GRTC_ELEM_F64 ? DBL_MAX : FLT_MAX);
}

// acos(x) = 2 atan2(sqrt(1 - x^2), 1 + x), and pi at x = -1 (where both
// atan2 operands are 0).
static grtc_tvalue_t* grtc_chlo_acos(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* one = C(1.0);
  grtc_tvalue_t* r =
      MUL(C(2.0), ATAN2(SQRT(SUB(one, MUL(x, x))), ADD(one, x)));
  return SELECT(CMP(NE, x, C(-1.0)), r, C(GRTC_CHLO_PI));
}

// asin(x) = 2 atan2(x, 1 + sqrt(1 - x^2)).
static grtc_tvalue_t* grtc_chlo_asin(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* one = C(1.0);
  return MUL(C(2.0), ATAN2(x, ADD(one, SQRT(SUB(one, MUL(x, x))))));
}

static grtc_tvalue_t* grtc_chlo_atan(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  return ATAN2(x, C(1.0));
}

// acosh(x) = log1p(y + sqrt(y (y + 2))) with y = x - 1 (exact near 1,
// where log(x + sqrt(x^2 - 1)) loses the low bits); past sqrt(max), where
// the product overflows, log(x) + log(2); NaN below 1 (sqrt of a negative).
static grtc_tvalue_t* grtc_chlo_acosh(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* y = SUB(x, C(1.0));
  grtc_tvalue_t* naive = LOG1P(ADD(y, SQRT(MUL(y, ADD(y, C(2.0))))));
  grtc_tvalue_t* large = ADD(LOG(x), C(GRTC_CHLO_LN2));
  return SELECT(CMP(GE, x, C(grtc_chlo_sqrt_max(x))), large, naive);
}

// asinh(x) = sign(x) log1p(|x| + x^2 / (1 + sqrt(x^2 + 1))) (the low-order
// term survives for small x); past sqrt(max): sign(x) (log|x| + log 2).
static grtc_tvalue_t* grtc_chlo_asinh(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* a = ABS(x);
  grtc_tvalue_t* one = C(1.0);
  grtc_tvalue_t* a2 = MUL(a, a);
  grtc_tvalue_t* small = LOG1P(ADD(a, DIV(a2, ADD(one, SQRT(ADD(a2, one))))));
  grtc_tvalue_t* large = ADD(LOG(a), C(GRTC_CHLO_LN2));
  return MUL(SIGN(x),
             SELECT(CMP(GE, a, C(grtc_chlo_sqrt_max(x))), large, small));
}

// atanh(x) = (log1p(x) - log1p(-x)) / 2, NaN where |x| > 1.
static grtc_tvalue_t* grtc_chlo_atanh(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* r = MUL(C(0.5), SUB(LOG1P(x), LOG1P(NEG(x))));
  return SELECT(CMP(GT, ABS(x), C(1.0)), C(NAN), r);
}

static double grtc_chlo_log_max(grtc_tvalue_t* x) {
  return log(x->type.elem == GRTC_ELEM_F64 ? DBL_MAX : FLT_MAX);
}

// e^|x| / 2, also where e^|x| itself overflows but the half does not:
// there (e^(|x|/2) / 2) e^(|x|/2), whose argument is exact (shifting by
// log 2 instead would round the argument and lose |x| ULP).
static grtc_tvalue_t* grtc_chlo_half_exp(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                         grtc_tvalue_t* a) {
  grtc_tvalue_t* t = EXP(MUL(a, C(0.5)));
  grtc_tvalue_t* huge = MUL(MUL(C(0.5), t), t);
  return SELECT(CMP(LT, a, C(grtc_chlo_log_max(x))), MUL(C(0.5), EXP(a)), huge);
}

// cosh(x) = e^|x| / 2 + e^-|x| / 2.
static grtc_tvalue_t* grtc_chlo_cosh(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* a = ABS(x);
  return ADD(grtc_chlo_half_exp(m, x, a), MUL(C(0.5), EXP(NEG(a))));
}

// sinh(x): for |x| < 1, (e + e / (e + 1)) / 2 with e = expm1(x), which
// keeps small values exact; otherwise sign(x) (e^|x| / 2 - e^-|x| / 2).
static grtc_tvalue_t* grtc_chlo_sinh(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* a = ABS(x);
  grtc_tvalue_t* large =
      MUL(SIGN(x), SUB(grtc_chlo_half_exp(m, x, a), MUL(C(0.5), EXP(NEG(a)))));
  grtc_tvalue_t* e = EXPM1(x);
  grtc_tvalue_t* small = MUL(C(0.5), ADD(e, DIV(e, ADD(e, C(1.0)))));
  return SELECT(CMP(LT, a, C(1.0)), small, large);
}

static grtc_tvalue_t* grtc_chlo_tan(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  return grtc_chlo_unary(m, GRTC_TOP_TAN, x);
}

// erf and erfc in f32 (f16 and bf16 compute in f32). The polynomials are
// least-squares fits in relative error made by scripts/fit_chlo_erf.py
// (its docstring says how); measured against mpmath they are within 2 ULP
// (erf) and 5 ULP (erfc) in f32.
static const double grtc_chlo_erf_p[] = {
    1.1283791665100464, -0.37612628843314155, 0.11283612428166992,
    -0.026854808534754637, 0.005190053573941894, -0.0008024354098714187,
    7.8982101174171482e-05};
static const double grtc_chlo_erfc_q[] = {
    -2.7829344463586429e-06, 0.56430823846700207, -0.0021766848098510871,
    -0.25946417410590872, -0.1474834109736109, 1.0475646442934861,
    -1.6867657079156635, 1.4913076026874017, -0.74655553135424013,
    0.1588847393521601, 0.019951824681706261, -0.011985187099149244};
static const double grtc_chlo_erfc_r[] = {
    0.28884436634621774, -0.64293106920843546, 0.48219830212335457,
    -0.026788791045454639, -0.15068699977819539, 0.053242462482230697,
    0.026873926137216054, -0.018426785939653863, -0.0023287689246052679,
    0.0038491360246875597};

#define GRTC_CHLO_LEN(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static grtc_tvalue_t* grtc_chlo_horner(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                       const double* coeffs, uint32_t count,
                                       grtc_tvalue_t* u) {
  grtc_tvalue_t* r = C(coeffs[count - 1]);
  for (uint32_t i = count - 1; i-- > 0;) r = ADD(MUL(r, u), C(coeffs[i]));
  return r;
}

// e^(-a^2) for a >= 0 without rounding a^2: with h = floor(256 a) / 256
// (few enough bits that h^2 is exact), a^2 = h^2 + (a - h)(a + h).
static grtc_tvalue_t* grtc_chlo_exp_neg_square(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                               grtc_tvalue_t* a) {
  grtc_tvalue_t* h =
      DIV(grtc_chlo_unary(m, GRTC_TOP_FLOOR, MUL(a, C(256.0))), C(256.0));
  grtc_tvalue_t* rest = MUL(SUB(a, h), ADD(a, h));
  return MUL(EXP(NEG(MUL(h, h))), EXP(NEG(rest)));
}

// erfc(a) for a >= 1: e^(-a^2) Q(1/a).
static grtc_tvalue_t* grtc_chlo_erfc_tail(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                          grtc_tvalue_t* a) {
  grtc_tvalue_t* q = grtc_chlo_horner(m, x, grtc_chlo_erfc_q,
                                      GRTC_CHLO_LEN(grtc_chlo_erfc_q), DIV(C(1.0), a));
  return MUL(grtc_chlo_exp_neg_square(m, x, a), q);
}

// erf(x) = x P(x^2) below 1; sign(x) (1 - erfc(|x|)) above (which reaches
// +-1, and keeps NaN).
static grtc_tvalue_t* grtc_chlo_erf(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* a = ABS(x);
  grtc_tvalue_t* small = MUL(x, grtc_chlo_horner(m, x, grtc_chlo_erf_p,
                                                 GRTC_CHLO_LEN(grtc_chlo_erf_p), MUL(x, x)));
  grtc_tvalue_t* large = MUL(SIGN(x), SUB(C(1.0), grtc_chlo_erfc_tail(m, x, a)));
  return SELECT(CMP(LT, a, C(1.0)), small, large);
}

// erfc(x) = 1 - erf(x) below 0.5, R(|x| - 0.75) up to 1, the tail above;
// for negative x, 2 - erfc(|x|).
static grtc_tvalue_t* grtc_chlo_erfc(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* a = ABS(x);
  grtc_tvalue_t* small =
      SUB(C(1.0), MUL(x, grtc_chlo_horner(m, x, grtc_chlo_erf_p,
                                          GRTC_CHLO_LEN(grtc_chlo_erf_p), MUL(x, x))));
  grtc_tvalue_t* middle = grtc_chlo_horner(m, x, grtc_chlo_erfc_r,
                                           GRTC_CHLO_LEN(grtc_chlo_erfc_r),
                                           SUB(a, C(0.75)));
  grtc_tvalue_t* positive =
      SELECT(CMP(LT, a, C(1.0)), middle, grtc_chlo_erfc_tail(m, x, a));
  grtc_tvalue_t* signed_tail =
      SELECT(CMP(GT, x, C(0.0)), positive, SUB(C(2.0), positive));
  return SELECT(CMP(LT, a, C(0.5)), small, signed_tail);
}

// lgamma and digamma: Lanczos' approximation with g = 7 and 9 terms (the
// choice XLA makes, so results agree with what JAX expects), evaluated at
// x >= 0.5 and reflected below. With z = x - 1 and t = z + g + 1/2:
//   A(z)  = c0 + sum_k c_k / (z + k)
//   A'(z) = -sum_k c_k / (z + k)^2
//   lgamma(x)  = log(2 pi) / 2 + (z + 1/2) log t - t + log A(z)
//   digamma(x) = log t + A'(z) / A(z) - g / t
// log t is log(g + 1/2) + log1p(z / (g + 1/2)), which keeps its low bits.
#define GRTC_CHLO_LANCZOS_G 7.0
static const double grtc_chlo_lanczos_c[] = {
    0.99999999999980993227684700473478, 676.520368121885098567009190444019,
    -1259.13921672240287047156078755283, 771.3234287776530788486528258894,
    -176.61502916214059906584551354,     12.507343278686904814458936853,
    -0.13857109526572011689554707,       9.984369578019570859563e-6,
    1.50563273514931155834e-7};

typedef struct grtc_chlo_lanczos_t {
  grtc_tvalue_t* z;       // x - 1
  grtc_tvalue_t* a;       // A(z)
  grtc_tvalue_t* slope;   // A'(z)
  grtc_tvalue_t* t;       // z + g + 1/2
  grtc_tvalue_t* log_t;
} grtc_chlo_lanczos_t;

// The Lanczos terms at |y| (>= 0.5); |x| gives constants their type.
static grtc_chlo_lanczos_t grtc_chlo_lanczos(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                             grtc_tvalue_t* y) {
  grtc_chlo_lanczos_t l;
  l.z = SUB(y, C(1.0));
  l.a = C(grtc_chlo_lanczos_c[0]);
  l.slope = C(0.0);
  for (uint32_t k = 1; k < GRTC_CHLO_LEN(grtc_chlo_lanczos_c); ++k) {
    grtc_tvalue_t* q = ADD(l.z, C((double)k));
    grtc_tvalue_t* c = C(grtc_chlo_lanczos_c[k]);
    l.a = ADD(l.a, DIV(c, q));
    l.slope = SUB(l.slope, DIV(c, MUL(q, q)));
  }
  double half_g = GRTC_CHLO_LANCZOS_G + 0.5;
  l.t = ADD(l.z, C(half_g));
  l.log_t = ADD(C(log(half_g)), LOG1P(DIV(l.z, C(half_g))));
  return l;
}

// lgamma(x) = log|gamma(x)|. Below 0.5, log(pi) - log|sin(pi x)| -
// lgamma(1 - x), with sin taken of pi times the distance of |x| to the
// nearest integer (exact, never overflowing, and 0 at the poles, where the
// result is +inf); +-inf give +inf, NaN stays NaN.
static grtc_tvalue_t* grtc_chlo_lgamma(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* reflect = CMP(LT, x, C(0.5));
  grtc_tvalue_t* y = SELECT(reflect, SUB(C(1.0), x), x);
  grtc_chlo_lanczos_t l = grtc_chlo_lanczos(m, x, y);
  grtc_tvalue_t* direct =
      ADD(SUB(ADD(C(0.5 * log(2.0 * GRTC_CHLO_PI)), MUL(ADD(l.z, C(0.5)), l.log_t)),
              l.t),
          LOG(l.a));
  grtc_tvalue_t* a = ABS(x);
  grtc_tvalue_t* fraction = SUB(a, FLOOR(a));
  grtc_tvalue_t* distance = MIN(fraction, SUB(C(1.0), fraction));
  grtc_tvalue_t* log_sin = LOG(SIN(MUL(C(GRTC_CHLO_PI), distance)));
  grtc_tvalue_t* reflected = SUB(SUB(C(log(GRTC_CHLO_PI)), log_sin), direct);
  grtc_tvalue_t* r = SELECT(reflect, reflected, direct);
  return SELECT(CMP(EQ, a, C(INFINITY)), C(INFINITY), r);
}

// digamma(x) = d/dx lgamma(x). Below 0.5, digamma(1 - x) - pi / tan(pi r)
// with r = x - round(x) (exact, in [-1/2, 1/2], so tan keeps its relative
// accuracy); NaN at 0 and the negative integers (the poles) and at -inf.
static grtc_tvalue_t* grtc_chlo_digamma(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* reflect = CMP(LT, x, C(0.5));
  grtc_tvalue_t* y = SELECT(reflect, SUB(C(1.0), x), x);
  grtc_chlo_lanczos_t l = grtc_chlo_lanczos(m, x, y);
  grtc_tvalue_t* direct =
      SUB(ADD(l.log_t, DIV(l.slope, l.a)), DIV(C(GRTC_CHLO_LANCZOS_G), l.t));
  grtc_tvalue_t* r = SUB(x, ROUND_EVEN(x));
  grtc_tvalue_t* reflected =
      SUB(direct, DIV(C(GRTC_CHLO_PI), TAN(MUL(C(GRTC_CHLO_PI), r))));
  grtc_tvalue_t* pole = grtc_chlo_binary(m, GRTC_TOP_AND, CMP(LE, x, C(0.0)),
                                         CMP(EQ, x, FLOOR(x)));
  return SELECT(pole, C(NAN), SELECT(reflect, reflected, direct));
}

// zeta(s, q), the Hurwitz zeta function sum_k (q + k)^-s, by Euler-Maclaurin
// summation: the first 9 terms directly, then with a = q + 9 the integral
// a^(1-s) / (s - 1), half the next term a^-s / 2 and 12 Bernoulli
// corrections a^-s sum_j B_2j / (2j)! s (s+1) ... (s+2j-2) a^(1-2j).
// +inf at s = 1 and at the poles q = 0, -1, -2, ...; NaN for s < 1 and for
// q < 0 with s not an integer (a negative base to a fractional power).
static const double grtc_chlo_bernoulli[12][2] = {
    {1, 6},     {-1, 30},   {1, 42},        {-1, 30},     {5, 66},      {-691, 2730},
    {7, 6},     {-3617, 510}, {43867, 798}, {-174611, 330}, {854513, 138},
    {-236364091, 2730}};

static grtc_tvalue_t* grtc_chlo_zeta(grtc_chlo_math_t* m, grtc_tvalue_t* s,
                                     grtc_tvalue_t* q) {
  grtc_tvalue_t* x = s;  // what C() takes its type from
  grtc_tvalue_t* neg_s = NEG(s);
  grtc_tvalue_t* sum = NULL;
  grtc_tvalue_t* a = q;
  for (int k = 0; k < 9; ++k) {
    grtc_tvalue_t* term = grtc_chlo_binary(m, GRTC_TOP_POWER, a, neg_s);
    sum = sum ? ADD(sum, term) : term;
    a = ADD(a, C(1.0));
  }
  grtc_tvalue_t* a_neg_s = grtc_chlo_binary(m, GRTC_TOP_POWER, a, neg_s);
  sum = ADD(sum, DIV(MUL(a_neg_s, a), SUB(s, C(1.0))));
  sum = ADD(sum, MUL(a_neg_s, C(0.5)));
  // The corrections, largest first in j order: t_j = s (s+1) .. (s+2j-2) / a^(2j-1).
  grtc_tvalue_t* inv_a2 = DIV(C(1.0), MUL(a, a));
  grtc_tvalue_t* t = DIV(s, a);
  grtc_tvalue_t* tail = NULL;
  double factorial = 2.0;  // (2j)!
  for (int j = 1; j <= 12; ++j) {
    double coefficient = grtc_chlo_bernoulli[j - 1][0] / grtc_chlo_bernoulli[j - 1][1] /
                         factorial;
    grtc_tvalue_t* term = MUL(t, C(coefficient));
    tail = tail ? ADD(tail, term) : term;
    t = MUL(MUL(t, MUL(ADD(s, C(2.0 * j - 1)), ADD(s, C(2.0 * j)))), inv_a2);
    factorial *= (2.0 * j + 1) * (2.0 * j + 2);
  }
  grtc_tvalue_t* r = ADD(sum, MUL(a_neg_s, tail));
  grtc_tvalue_t* s_integer = CMP(EQ, s, FLOOR(s));
  grtc_tvalue_t* q_pole = grtc_chlo_binary(m, GRTC_TOP_AND, CMP(LE, q, C(0.0)),
                                           CMP(EQ, q, FLOOR(q)));
  grtc_tvalue_t* fractional = grtc_chlo_binary(
      m, GRTC_TOP_AND, CMP(LT, q, C(0.0)), grtc_chlo_unary(m, GRTC_TOP_NOT, s_integer));
  r = SELECT(fractional, C(NAN), r);
  r = SELECT(q_pole, C(INFINITY), r);
  r = SELECT(CMP(EQ, s, C(1.0)), C(INFINITY), r);
  // A NaN s or q stays NaN through the sums (the comparisons are false).
  return SELECT(CMP(LT, s, C(1.0)), C(NAN), r);
}

// polygamma(n, x), the n-th derivative of digamma: digamma at n = 0, else
// (-1)^(n+1) n! zeta(n + 1, x) (n! as exp(lgamma(n + 1))); NaN where n is
// not a non-negative integer.
static grtc_tvalue_t* grtc_chlo_polygamma(grtc_chlo_math_t* m, grtc_tvalue_t* n,
                                          grtc_tvalue_t* x) {
  grtc_tvalue_t* np1 = ADD(n, C_LIKE(n, 1.0));
  grtc_tvalue_t* factorial = EXP(grtc_chlo_lgamma(m, np1));
  grtc_tvalue_t* half = MUL(n, C_LIKE(n, 0.5));
  grtc_tvalue_t* odd = CMP(NE, half, FLOOR(half));
  grtc_tvalue_t* sign = SELECT(odd, C_LIKE(n, 1.0), C_LIKE(n, -1.0));
  grtc_tvalue_t* r = MUL(MUL(sign, factorial), grtc_chlo_zeta(m, np1, x));
  r = SELECT(CMP(EQ, n, C_LIKE(n, 0.0)), grtc_chlo_digamma(m, x), r);
  grtc_tvalue_t* invalid = grtc_chlo_binary(m, GRTC_TOP_OR, CMP(LT, n, C_LIKE(n, 0.0)),
                                            CMP(NE, n, FLOOR(n)));
  return SELECT(invalid, C_LIKE(n, NAN), r);
}

static grt_status_t grtc_chlo_lower_special2(grtc_chlo_builder_t* b, grt_string_view_t name,
                                             grtc_tvalue_t* const* operands,
                                             const grtc_ttype_t* result,
                                             grtc_tvalue_t** out) {
  char types[2][GRTC_TTYPE_FORMAT_CAPACITY];
  grtc_ttype_format(&operands[0]->type, types[0], sizeof(types[0]));
  grtc_ttype_format(&operands[1]->type, types[1], sizeof(types[1]));
  grtc_elem_t elem = operands[0]->type.elem;
  if (!grtc_elem_is_float(elem) || operands[1]->type.elem != elem || result->elem != elem ||
      !grtc_ttype_same_shape(&operands[0]->type, &operands[1]->type) ||
      !grtc_ttype_same_shape(&operands[0]->type, result)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes two float tensors of the result's type, got %s "
                           "and %s", GRT_SV_ARG(name), types[0], types[1]);
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_elem_t work = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* a = grtc_chlo_convert(m, operands[0], work);
  grtc_tvalue_t* c = grtc_chlo_convert(m, operands[1], work);
  grtc_tvalue_t* r = grt_string_view_equal_cstring(name, "chlo.zeta")
                         ? grtc_chlo_zeta(m, a, c)
                         : grtc_chlo_polygamma(m, a, c);
  r = grtc_chlo_convert(m, r, elem);
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = r;
  return grt_ok_status();
}

// erf_inv in f32 (f16 and bf16 through f32): Giles' single-precision
// approximation ("Approximating the erfinv function", 2010), the one XLA
// uses: with w = -log((1 - x)(1 + x)), x P(w - 2.5) for w < 5 and
// x Q(sqrt(w) - 3) beyond; +-inf at +-1, NaN outside [-1, 1]. Measured
// against mpmath: within 2 ULP in f32.
static const double grtc_chlo_erf_inv_p[] = {
    1.50140941,      0.246640727,     -0.00417768164,  -0.00125372503, 0.00021858087,
    -4.39150654e-06, -3.5233877e-06,  3.43273939e-07,  2.81022636e-08};
static const double grtc_chlo_erf_inv_q[] = {
    2.83297682,      1.00167406,     0.00943887047,   -0.0076224613,   0.00573950773,
    -0.00367342844,  0.00134934322,  0.000100950558,  -0.000200214257};

static grtc_tvalue_t* grtc_chlo_erf_inv(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  grtc_tvalue_t* one = C(1.0);
  grtc_tvalue_t* w = NEG(LOG(MUL(SUB(one, x), ADD(one, x))));
  grtc_tvalue_t* near = grtc_chlo_horner(m, x, grtc_chlo_erf_inv_p,
                                         GRTC_CHLO_LEN(grtc_chlo_erf_inv_p),
                                         SUB(w, C(2.5)));
  grtc_tvalue_t* far = grtc_chlo_horner(m, x, grtc_chlo_erf_inv_q,
                                        GRTC_CHLO_LEN(grtc_chlo_erf_inv_q),
                                        SUB(SQRT(w), C(3.0)));
  grtc_tvalue_t* r = MUL(SELECT(CMP(LT, w, C(5.0)), near, far), x);
  return SELECT(CMP(EQ, ABS(x), one), MUL(x, C(INFINITY)), r);
}

// bessel_i1e(x) = e^-|x| I1(x) in f32 (f16 and bf16 through f32), odd in x.
// Below |x| = 8 the power series I1(x) = (x/2) sum_k (x^2/4)^k / (k! (k+1)!)
// (all terms positive, 18 of them reach f32's precision there) times
// e^-|x|; beyond, the asymptotic expansion
//   i1e(x) = (2 pi |x|)^(-1/2) sum_k c_k / |x|^k,
//   c_0 = 1, c_(k+1) = -c_k (4 - (2k+1)^2) / (8 (k+1)),
// whose 16 terms used keep shrinking while |x| >= 8. Measured against
// mpmath on a grid of 800 points in (0, 40], in numpy's f32: within 3 ULP
// (the e2e test allows 4 for the kernels' own exp).
#define GRTC_CHLO_I1E_SERIES 18
#define GRTC_CHLO_I1E_ASYMPTOTIC 16

static grtc_tvalue_t* grtc_chlo_bessel_i1e(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  double series[GRTC_CHLO_I1E_SERIES];
  double term = 1.0;  // 1 / (k! (k+1)!)
  for (int k = 0; k < GRTC_CHLO_I1E_SERIES; ++k) {
    series[k] = term;
    term /= (double)(k + 1) * (double)(k + 2);
  }
  double asymptotic[GRTC_CHLO_I1E_ASYMPTOTIC];
  double c = 1.0;
  for (int k = 0; k < GRTC_CHLO_I1E_ASYMPTOTIC; ++k) {
    asymptotic[k] = c;
    double odd = (double)(2 * k + 1);
    c = -c * (4.0 - odd * odd) / (8.0 * (double)(k + 1));
  }
  grtc_tvalue_t* a = ABS(x);
  grtc_tvalue_t* small =
      MUL(MUL(MUL(C(0.5), a),
              grtc_chlo_horner(m, x, series, GRTC_CHLO_I1E_SERIES,
                               MUL(MUL(a, a), C(0.25)))),
          EXP(NEG(a)));
  grtc_tvalue_t* large =
      DIV(MUL(C(1.0 / sqrt(2.0 * GRTC_CHLO_PI)),
              grtc_chlo_horner(m, x, asymptotic, GRTC_CHLO_I1E_ASYMPTOTIC,
                               DIV(C(1.0), a))),
          SQRT(a));
  return MUL(SIGN(x), SELECT(CMP(LT, a, C(8.0)), small, large));
}

typedef struct grtc_chlo_math_entry_t {
  const char* name;
  grtc_chlo_math_fn_t fn;
  bool f64;  // whether an f64 formula exists (else f64 is refused)
} grtc_chlo_math_entry_t;

static const grtc_chlo_math_entry_t grtc_chlo_math_ops[] = {
    {"chlo.acos", grtc_chlo_acos, true},   {"chlo.acosh", grtc_chlo_acosh, true},
    {"chlo.asin", grtc_chlo_asin, true},   {"chlo.asinh", grtc_chlo_asinh, true},
    {"chlo.atan", grtc_chlo_atan, true},   {"chlo.atanh", grtc_chlo_atanh, true},
    {"chlo.cosh", grtc_chlo_cosh, true},   {"chlo.sinh", grtc_chlo_sinh, true},
    {"chlo.tan", grtc_chlo_tan, true},     {"chlo.erf", grtc_chlo_erf, false},
    {"chlo.erfc", grtc_chlo_erfc, false},  {"chlo.lgamma", grtc_chlo_lgamma, true},
    {"chlo.digamma", grtc_chlo_digamma, true},
    {"chlo.erf_inv", grtc_chlo_erf_inv, false},
    {"chlo.bessel_i1e", grtc_chlo_bessel_i1e, false},
};

// is_inf, is_pos_inf, is_neg_inf: compares, i1 results.
typedef struct grtc_chlo_class_entry_t {
  const char* name;
  grtc_compare_direction_t direction;
  double against;  // compared with |x| for is_inf
  bool absolute;
} grtc_chlo_class_entry_t;

static const grtc_chlo_class_entry_t grtc_chlo_class_ops[] = {
    {"chlo.is_inf", GRTC_CMP_EQ, INFINITY, true},
    {"chlo.is_pos_inf", GRTC_CMP_EQ, INFINITY, false},
    {"chlo.is_neg_inf", GRTC_CMP_EQ, -INFINITY, false},
};

//===----------------------------------------------------------------------===//
// The broadcast_* family
//===----------------------------------------------------------------------===//

typedef struct grtc_chlo_broadcast_entry_t {
  const char* name;
  grtc_top_kind_t kind;
  uint32_t operand_count;
} grtc_chlo_broadcast_entry_t;

static const grtc_chlo_broadcast_entry_t grtc_chlo_broadcast_ops[] = {
    {"chlo.broadcast_add", GRTC_TOP_ADD, 2},
    {"chlo.broadcast_subtract", GRTC_TOP_SUBTRACT, 2},
    {"chlo.broadcast_multiply", GRTC_TOP_MULTIPLY, 2},
    {"chlo.broadcast_divide", GRTC_TOP_DIVIDE, 2},
    {"chlo.broadcast_remainder", GRTC_TOP_REMAINDER, 2},
    {"chlo.broadcast_power", GRTC_TOP_POWER, 2},
    {"chlo.broadcast_maximum", GRTC_TOP_MAXIMUM, 2},
    {"chlo.broadcast_minimum", GRTC_TOP_MINIMUM, 2},
    {"chlo.broadcast_and", GRTC_TOP_AND, 2},
    {"chlo.broadcast_or", GRTC_TOP_OR, 2},
    {"chlo.broadcast_xor", GRTC_TOP_XOR, 2},
    {"chlo.broadcast_atan2", GRTC_TOP_ATAN2, 2},
    {"chlo.broadcast_shift_left", GRTC_TOP_SHIFT_LEFT, 2},
    {"chlo.broadcast_shift_right_arithmetic", GRTC_TOP_SHIFT_RIGHT_ARITHMETIC, 2},
    {"chlo.broadcast_shift_right_logical", GRTC_TOP_SHIFT_RIGHT_LOGICAL, 2},
    {"chlo.broadcast_compare", GRTC_TOP_COMPARE, 2},
    {"chlo.broadcast_select", GRTC_TOP_SELECT, 3},
};

// |x| broadcast to |dims| (the result's shape, element type kept).
static grt_status_t grtc_chlo_broadcast_to(grtc_chlo_builder_t* b, grtc_tvalue_t* x,
                                           const grtc_ttype_t* result,
                                           const grtc_chlo_attrs_t* attrs,
                                           uint32_t index, grtc_tvalue_t** out) {
  const grtc_ttype_t* from = &x->type;
  bool same = from->rank == result->rank;
  for (uint32_t d = 0; same && d < from->rank; ++d) same = from->dims[d] == result->dims[d];
  if (same) {
    *out = x;
    return grt_ok_status();
  }
  if (from->rank > result->rank) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "operand #%u has rank %u, more than the result's %u", index,
                           from->rank, result->rank);
  }
  int64_t dims[GRTC_MAX_RANK];
  bool explicit_dims = attrs->has_broadcast_dims && from->rank != result->rank;
  if (explicit_dims && attrs->broadcast_dim_count != from->rank) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "broadcast_dimensions has %u entries, expected operand #%u's "
                           "rank %u", attrs->broadcast_dim_count, index, from->rank);
  }
  for (uint32_t d = 0; d < from->rank; ++d) {
    dims[d] = explicit_dims ? attrs->broadcast_dims[d]
                            : (int64_t)(result->rank - from->rank + d);
    if (dims[d] < 0 || dims[d] >= (int64_t)result->rank ||
        (from->dims[d] != 1 && from->dims[d] != result->dims[dims[d]])) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "operand #%u's dim %u (size %lld) cannot broadcast to result "
                             "dim %lld", index, d, (long long)from->dims[d],
                             (long long)dims[d]);
    }
  }
  grtc_ttype_t type = *result;
  type.elem = from->elem;
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_chlo_op(b, GRTC_TOP_BROADCAST_IN_DIM, &x, 1, &type, &top));
  top->attrs.dims = grtc_tmodule_i64s(b->module, dims, from->rank);
  *out = &top->results[0];
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Bit patterns
//===----------------------------------------------------------------------===//

grtc_tvalue_t* grtc_chlo_bits(grtc_chlo_math_t* m, grtc_tvalue_t* like, uint64_t bits) {
  grtc_scalar_value_t v;
  v.u = bits;
  return grtc_chlo_splat_value(m, like, v);
}

grtc_tvalue_t* grtc_chlo_bitcast(grtc_chlo_math_t* m, grtc_tvalue_t* x, grtc_elem_t elem) {
  if (!x) return NULL;
  grtc_ttype_t type = x->type;
  type.elem = elem;
  return grtc_chlo_make(m, GRTC_TOP_BITCAST_CONVERT, &x, 1, &type);
}

static grtc_tvalue_t* grtc_chlo_compare_bits(grtc_chlo_math_t* m,
                                             grtc_compare_direction_t direction,
                                             grtc_tvalue_t* a, grtc_tvalue_t* c) {
  grtc_tvalue_t* r = grtc_chlo_compare(m, direction, a, c);
  if (r) r->def->attrs.compare_type = GRTC_CMP_TYPE_UNSIGNED;
  return r;
}

//===----------------------------------------------------------------------===//
// batch_norm_inference, batch_norm_training, batch_norm_grad
//===----------------------------------------------------------------------===//

grtc_tvalue_t* grtc_chlo_iota(grtc_chlo_math_t* m, const grtc_ttype_t* type, grtc_elem_t elem,
                              uint32_t dim) {
  grtc_ttype_t t = *type;
  t.elem = elem;
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_IOTA, NULL, 0, &t);
  if (v) v->def->attrs.dim = dim;
  return v;
}

grtc_tvalue_t* grtc_chlo_reduce(grtc_chlo_math_t* m, grtc_tvalue_t* x, const int64_t* dims,
                                uint32_t count, grtc_top_kind_t kind,
                                grtc_scalar_value_t init) {
  if (!x || !grt_status_is_ok(m->status)) return NULL;
  grtc_ttype_t scalar = {0};
  scalar.elem = x->type.elem;
  grtc_tvalue_t* operands[2] = {x, grtc_chlo_splat_type(m, &scalar, init)};
  if (!operands[1]) return NULL;
  grtc_ttype_t type = x->type;
  type.rank = 0;
  uint32_t next = 0;
  for (uint32_t d = 0; d < x->type.rank; ++d) {
    if (next < count && dims[next] == (int64_t)d) {
      ++next;
      continue;
    }
    type.dims[type.rank++] = x->type.dims[d];
  }
  grtc_top_t* reduce = NULL;
  m->status = grtc_top_create(m->b->module, GRTC_TOP_REDUCE, operands, 2, &type, 1, 1,
                              &reduce);
  if (!grt_status_is_ok(m->status)) return NULL;
  grtc_tblock_append(m->b->block, reduce);
  m->status = m->b->place(m->b->user, reduce);
  if (!grt_status_is_ok(m->status)) return NULL;
  reduce->attrs.dims = grtc_tmodule_i64s(m->b->module, dims, count);
  m->status = grtc_top_set_scalar_body(m->b->module, reduce, kind, x->type.elem);
  return grt_status_is_ok(m->status) ? &reduce->results[0] : NULL;
}

// The sum of |x| over every dimension but |feature|: a rank-1 tensor of
// that dimension's size.
static grtc_tvalue_t* grtc_chlo_sum_but(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                        uint32_t feature) {
  if (!x) return NULL;
  int64_t dims[GRTC_MAX_RANK];
  uint32_t count = 0;
  for (uint32_t d = 0; d < x->type.rank; ++d) {
    if (d != feature) dims[count++] = d;
  }
  grtc_scalar_value_t zero;
  memset(&zero, 0, sizeof(zero));
  return grtc_chlo_reduce(m, x, dims, count, GRTC_TOP_ADD, zero);
}

// A rank-1 |v| along |like|'s dimension |feature|.
static grtc_tvalue_t* grtc_chlo_along(grtc_chlo_math_t* m, grtc_tvalue_t* v,
                                      grtc_tvalue_t* like, uint32_t feature) {
  if (!v || !like) return NULL;
  grtc_ttype_t type = like->type;
  type.elem = v->type.elem;
  grtc_tvalue_t* r = grtc_chlo_make(m, GRTC_TOP_BROADCAST_IN_DIM, &v, 1, &type);
  if (r) {
    int64_t dim = feature;
    r->def->attrs.dims = grtc_tmodule_i64s(m->b->module, &dim, 1);
  }
  return r;
}

typedef enum grtc_chlo_batch_norm_e {
  GRTC_CHLO_BATCH_NORM_INFERENCE,  // (operand, scale, offset, mean, variance)
  GRTC_CHLO_BATCH_NORM_TRAINING,   // (operand, scale, offset)
  GRTC_CHLO_BATCH_NORM_GRAD,       // (operand, scale, mean, variance, grad_output)
} grtc_chlo_batch_norm_t;

// Checks the operands and result types the spec requires of a batch norm:
// a float operand of rank >= 1 whose feature_index is a dimension, the
// per-feature operands rank 1 of that size, grad_output and the first
// result the operand's type, the other results per-feature.
static grt_status_t grtc_chlo_batch_norm_check(grt_string_view_t name,
                                               grtc_chlo_batch_norm_t form,
                                               grtc_tvalue_t* const* operands,
                                               uint32_t operand_count,
                                               const grtc_ttype_t* results,
                                               uint32_t result_count,
                                               const grtc_chlo_attrs_t* attrs) {
  const grtc_ttype_t* x = &operands[0]->type;
  char text[128], want[128];
  grtc_ttype_format(x, text, sizeof(text));
  if (!attrs->has_epsilon || !attrs->has_feature_index) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' requires the 'epsilon' and 'feature_index' attributes",
                           GRT_SV_ARG(name));
  }
  if (!grtc_elem_is_float(x->elem) || x->rank < 1) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes a float tensor of rank 1 or more, got %s",
                           GRT_SV_ARG(name), text);
  }
  if (attrs->feature_index < 0 || attrs->feature_index >= (int64_t)x->rank) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' feature_index %lld is not a dimension of %s",
                           GRT_SV_ARG(name), (long long)attrs->feature_index, text);
  }
  grtc_ttype_t feature = {0};
  feature.elem = x->elem;
  feature.rank = 1;
  feature.dims[0] = x->dims[attrs->feature_index];
  grtc_ttype_format(&feature, want, sizeof(want));
  for (uint32_t i = 1; i < operand_count; ++i) {
    bool full = form == GRTC_CHLO_BATCH_NORM_GRAD && i == 4;
    const grtc_ttype_t* expected = full ? x : &feature;
    const grtc_ttype_t* got = &operands[i]->type;
    if (got->elem != expected->elem || !grtc_ttype_same_shape(got, expected)) {
      grtc_ttype_format(got, text, sizeof(text));
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "'%.*s' operand #%u must be %s, got %s", GRT_SV_ARG(name), i,
                             full ? "the operand's type" : want, text);
    }
  }
  for (uint32_t i = 0; i < result_count; ++i) {
    const grtc_ttype_t* expected = i == 0 ? x : &feature;
    if (results[i].elem != expected->elem || !grtc_ttype_same_shape(&results[i], expected)) {
      grtc_ttype_format(expected, want, sizeof(want));
      grtc_ttype_format(&results[i], text, sizeof(text));
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "'%.*s' result #%u must be %s, got %s", GRT_SV_ARG(name), i,
                             want, text);
    }
  }
  return grt_ok_status();
}

// The spec's formulas, in f32 for f16 and bf16 (rounded once at the end):
//   inference: (x - mean) * (scale / sqrt(variance + epsilon)) + offset
//   training:  mean and variance (the population variance) of each
//              feature, then the same normalization
//   grad:      with c = x - mean, s = 1 / sqrt(variance + epsilon) and N the
//              elements per feature,
//              grad_offset = sum(dy), grad_scale = sum(dy c) s,
//              grad_operand = scale s / N (N dy - grad_offset
//                                          - c sum(dy c) s^2)
static grt_status_t grtc_chlo_batch_norm(grtc_chlo_builder_t* b, grt_string_view_t name,
                                         grtc_chlo_batch_norm_t form,
                                         grtc_tvalue_t* const* operands,
                                         uint32_t operand_count,
                                         const grtc_ttype_t* results,
                                         uint32_t result_count,
                                         const grtc_chlo_attrs_t* attrs,
                                         grtc_tvalue_t** outs) {
  GRT_RETURN_IF_ERROR(grtc_chlo_batch_norm_check(name, form, operands, operand_count,
                                                 results, result_count, attrs));
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_elem_t elem = operands[0]->type.elem;
  grtc_elem_t work = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* in[5] = {NULL};
  for (uint32_t i = 0; i < operand_count; ++i) in[i] = grtc_chlo_convert(m, operands[i], work);
  grtc_tvalue_t* x = in[0];
  uint32_t f = (uint32_t)attrs->feature_index;
  uint64_t total = 1;
  for (uint32_t d = 0; d < x->type.rank; ++d) total *= (uint64_t)x->type.dims[d];
  uint64_t per_feature = x->type.dims[f] ? total / (uint64_t)x->type.dims[f] : 0;
  grtc_tvalue_t* mean = NULL;
  grtc_tvalue_t* variance = NULL;
  grtc_tvalue_t* centered = NULL;
  if (form == GRTC_CHLO_BATCH_NORM_TRAINING) {
    grtc_tvalue_t* count = grtc_chlo_splat(m, grtc_chlo_sum_but(m, x, f), (double)per_feature);
    mean = DIV(grtc_chlo_sum_but(m, x, f), count);
    centered = SUB(x, grtc_chlo_along(m, mean, x, f));
    variance = DIV(grtc_chlo_sum_but(m, MUL(centered, centered), f), count);
  } else {
    mean = in[form == GRTC_CHLO_BATCH_NORM_GRAD ? 2 : 3];
    variance = in[form == GRTC_CHLO_BATCH_NORM_GRAD ? 3 : 4];
    centered = SUB(x, grtc_chlo_along(m, mean, x, f));
  }
  grtc_tvalue_t* scale = in[1];
  grtc_tvalue_t* inv_std =
      DIV(grtc_chlo_splat(m, variance, 1.0),
          SQRT(ADD(variance, grtc_chlo_splat(m, variance, attrs->epsilon))));
  grtc_tvalue_t* r[3] = {NULL, NULL, NULL};
  if (form != GRTC_CHLO_BATCH_NORM_GRAD) {
    grtc_tvalue_t* factor = MUL(scale, inv_std);
    r[0] = ADD(MUL(centered, grtc_chlo_along(m, factor, x, f)),
               grtc_chlo_along(m, in[2], x, f));
    r[1] = mean;
    r[2] = variance;
  } else {
    grtc_tvalue_t* dy = in[4];
    grtc_tvalue_t* grad_offset = grtc_chlo_sum_but(m, dy, f);
    grtc_tvalue_t* dy_c = grtc_chlo_sum_but(m, MUL(dy, centered), f);
    grtc_tvalue_t* n = grtc_chlo_splat(m, x, (double)per_feature);
    grtc_tvalue_t* inner =
        SUB(SUB(MUL(n, dy), grtc_chlo_along(m, grad_offset, x, f)),
            MUL(centered, grtc_chlo_along(m, MUL(dy_c, MUL(inv_std, inv_std)), x, f)));
    grtc_tvalue_t* outer = DIV(MUL(scale, inv_std),
                               grtc_chlo_splat(m, scale, (double)per_feature));
    r[0] = MUL(grtc_chlo_along(m, outer, x, f), inner);
    r[1] = MUL(dy_c, inv_std);
    r[2] = grad_offset;
  }
  for (uint32_t i = 0; i < result_count; ++i) outs[i] = grtc_chlo_convert(m, r[i], elem);
  return math.status;
}

//===----------------------------------------------------------------------===//
// reduce_precision
//===----------------------------------------------------------------------===//

// reduce_precision(x, exponent_bits, mantissa_bits) on the bit pattern of
// x's own type (E exponent and M mantissa bits):
//   - mantissa_bits < M: add half of the dropped part (less one when the
//     last kept bit is 0: ties to even) and clear the dropped bits; a carry
//     into the exponent is the correct rounding up;
//   - exponent_bits < E: an exponent above the narrow type's largest
//     becomes infinity, one below its smallest normal becomes zero (both
//     keeping the sign; the narrow type's subnormals are flushed, as XLA
//     does);
//   - NaN stays x itself.
static grt_status_t grtc_chlo_reduce_precision(grtc_chlo_builder_t* b, grt_string_view_t name,
                                               grtc_tvalue_t* x, const grtc_ttype_t* result,
                                               const grtc_chlo_attrs_t* attrs,
                                               grtc_tvalue_t** out) {
  char text[128];
  grtc_ttype_format(&x->type, text, sizeof(text));
  grtc_elem_t elem = x->type.elem;
  if (!grtc_elem_is_float(elem) || result->elem != elem ||
      !grtc_ttype_same_shape(result, &x->type)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes a float tensor and returns its type, got %s",
                           GRT_SV_ARG(name), text);
  }
  if (!attrs->has_format) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' requires the 'exponent_bits' and 'mantissa_bits' "
                           "attributes", GRT_SV_ARG(name));
  }
  uint32_t width = grtc_elem_bit_width(elem);
  uint32_t mantissa = elem == GRTC_ELEM_F16 ? 10 : elem == GRTC_ELEM_BF16 ? 7
                      : elem == GRTC_ELEM_F32 ? 23 : 52;
  uint32_t exponent = width - 1 - mantissa;
  if (attrs->exponent_bits < 1 || attrs->mantissa_bits < 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' needs exponent_bits >= 1 and mantissa_bits >= 0, got "
                           "%lld and %lld", GRT_SV_ARG(name), (long long)attrs->exponent_bits,
                           (long long)attrs->mantissa_bits);
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_elem_t bits_elem =
      width == 16 ? GRTC_ELEM_U16 : width == 32 ? GRTC_ELEM_U32 : GRTC_ELEM_U64;
  grtc_tvalue_t* v = grtc_chlo_bitcast(m, x, bits_elem);
  if (attrs->mantissa_bits < (int64_t)mantissa) {
    uint32_t dropped = mantissa - (uint32_t)attrs->mantissa_bits;
    grtc_tvalue_t* last_kept = grtc_chlo_binary(
        m, GRTC_TOP_AND,
        grtc_chlo_binary(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, v, grtc_chlo_bits(m, v, dropped)),
        grtc_chlo_bits(m, v, 1));
    grtc_tvalue_t* bias =
        ADD(grtc_chlo_bits(m, v, ((uint64_t)1 << (dropped - 1)) - 1), last_kept);
    uint64_t keep = ~(((uint64_t)1 << dropped) - 1);
    if (width < 64) keep &= ((uint64_t)1 << width) - 1;
    v = grtc_chlo_binary(m, GRTC_TOP_AND, ADD(v, bias), grtc_chlo_bits(m, v, keep));
  }
  if (attrs->exponent_bits < (int64_t)exponent) {
    uint64_t sign = (uint64_t)1 << (width - 1);
    uint64_t exponent_mask = (((uint64_t)1 << exponent) - 1) << mantissa;
    int64_t bias = ((int64_t)1 << (exponent - 1)) - 1;
    int64_t narrow_bias = ((int64_t)1 << (attrs->exponent_bits - 1)) - 1;
    // Biased exponents (in x's type) of the narrow type's largest finite
    // and smallest normal numbers.
    uint64_t largest = (uint64_t)(bias + narrow_bias) << mantissa;
    uint64_t smallest = (uint64_t)(bias + 1 - narrow_bias) << mantissa;
    grtc_tvalue_t* biased = grtc_chlo_binary(m, GRTC_TOP_AND, v,
                                             grtc_chlo_bits(m, v, exponent_mask));
    grtc_tvalue_t* sign_bit = grtc_chlo_binary(m, GRTC_TOP_AND, v, grtc_chlo_bits(m, v, sign));
    grtc_tvalue_t* infinity =
        grtc_chlo_binary(m, GRTC_TOP_OR, sign_bit, grtc_chlo_bits(m, v, exponent_mask));
    v = SELECT(grtc_chlo_compare_bits(m, GRTC_CMP_GT, biased, grtc_chlo_bits(m, v, largest)),
               infinity, v);
    v = SELECT(grtc_chlo_compare_bits(m, GRTC_CMP_LT, biased, grtc_chlo_bits(m, v, smallest)),
               sign_bit, v);
  }
  grtc_tvalue_t* r = grtc_chlo_bitcast(m, v, elem);
  r = SELECT(CMP(NE, x, x), x, r);
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = r;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// next_after
//===----------------------------------------------------------------------===//

// next_after(x, y): the float after x in the direction of y, stepping the
// bit pattern (sign and magnitude) by one: the magnitude shrinks when the
// signs differ or |x| > |y|, and grows otherwise; from +-0, the smallest
// subnormal with y's sign; y itself when x == y (so +0 towards -0 is -0);
// NaN when either is NaN.
static grtc_tvalue_t* grtc_chlo_next_after(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                           grtc_tvalue_t* y) {
  uint32_t width = grtc_elem_bit_width(x->type.elem);
  grtc_elem_t bits_elem =
      width == 16 ? GRTC_ELEM_U16 : width == 32 ? GRTC_ELEM_U32 : GRTC_ELEM_U64;
  uint64_t sign = (uint64_t)1 << (width - 1);
  grtc_tvalue_t* xb = grtc_chlo_bitcast(m, x, bits_elem);
  grtc_tvalue_t* yb = grtc_chlo_bitcast(m, y, bits_elem);
  grtc_tvalue_t* one = grtc_chlo_bits(m, xb, 1);
  grtc_tvalue_t* magnitude_mask = grtc_chlo_bits(m, xb, sign - 1);
  grtc_tvalue_t* sign_mask = grtc_chlo_bits(m, xb, sign);
  grtc_tvalue_t* x_magnitude = grtc_chlo_binary(m, GRTC_TOP_AND, xb, magnitude_mask);
  grtc_tvalue_t* y_magnitude = grtc_chlo_binary(m, GRTC_TOP_AND, yb, magnitude_mask);
  grtc_tvalue_t* x_sign = grtc_chlo_binary(m, GRTC_TOP_AND, xb, sign_mask);
  grtc_tvalue_t* y_sign = grtc_chlo_binary(m, GRTC_TOP_AND, yb, sign_mask);
  grtc_tvalue_t* shrink =
      grtc_chlo_binary(m, GRTC_TOP_OR, grtc_chlo_compare_bits(m, GRTC_CMP_NE, x_sign, y_sign),
                       grtc_chlo_compare_bits(m, GRTC_CMP_GT, x_magnitude, y_magnitude));
  grtc_tvalue_t* stepped = SELECT(shrink, SUB(xb, one), ADD(xb, one));
  grtc_tvalue_t* from_zero = grtc_chlo_binary(m, GRTC_TOP_OR, y_sign, one);
  grtc_tvalue_t* x_zero =
      grtc_chlo_compare_bits(m, GRTC_CMP_EQ, x_magnitude, grtc_chlo_bits(m, xb, 0));
  grtc_tvalue_t* r =
      grtc_chlo_bitcast(m, SELECT(x_zero, from_zero, stepped), x->type.elem);
  r = SELECT(CMP(EQ, x, y), y, r);
  grtc_tvalue_t* nan = grtc_chlo_binary(m, GRTC_TOP_OR, CMP(NE, x, x), CMP(NE, y, y));
  return SELECT(nan, C(NAN), r);
}

//===----------------------------------------------------------------------===//
// triangular_solve, cholesky
//===----------------------------------------------------------------------===//

// x[..., rows, cols] for the last two dims (the batch dims whole).
grtc_tvalue_t* grtc_chlo_slice2(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                int64_t row0, int64_t row1, int64_t col0,
                                int64_t col1) {
  if (!x) return NULL;
  uint32_t r = x->type.rank;
  int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < r; ++d) {
    limit[d] = x->type.dims[d];
    strides[d] = 1;
  }
  start[r - 2] = row0;
  limit[r - 2] = row1;
  start[r - 1] = col0;
  limit[r - 1] = col1;
  grtc_ttype_t type = x->type;
  type.dims[r - 2] = row1 - row0;
  type.dims[r - 1] = col1 - col0;
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_SLICE, &x, 1, &type);
  if (v) {
    v->def->attrs.start = grtc_tmodule_i64s(m->b->module, start, r);
    v->def->attrs.limit = grtc_tmodule_i64s(m->b->module, limit, r);
    v->def->attrs.strides = grtc_tmodule_i64s(m->b->module, strides, r);
  }
  return v;
}

// |x| with its last two dims swapped.
grtc_tvalue_t* grtc_chlo_transpose2(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  if (!x) return NULL;
  uint32_t r = x->type.rank;
  int64_t perm[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < r; ++d) perm[d] = d;
  perm[r - 2] = r - 1;
  perm[r - 1] = r - 2;
  grtc_ttype_t type = x->type;
  type.dims[r - 2] = x->type.dims[r - 1];
  type.dims[r - 1] = x->type.dims[r - 2];
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_TRANSPOSE, &x, 1, &type);
  if (v) v->def->attrs.dims = grtc_tmodule_i64s(m->b->module, perm, r);
  return v;
}

// |x| with its rows (second-to-last dim) reversed, and its columns too
// when |columns|.
static grtc_tvalue_t* grtc_chlo_reverse2(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                         bool columns) {
  if (!x) return NULL;
  uint32_t r = x->type.rank;
  int64_t dims[2] = {(int64_t)r - 2, (int64_t)r - 1};
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_REVERSE, &x, 1, &x->type);
  if (v) v->def->attrs.dims = grtc_tmodule_i64s(m->b->module, dims, columns ? 2 : 1);
  return v;
}

// |parts| joined along dim |dim|.
grtc_tvalue_t* grtc_chlo_concat(grtc_chlo_math_t* m, grtc_tvalue_t* const* parts,
                                uint32_t count, uint32_t dim) {
  if (count == 1) return parts[0];
  grtc_ttype_t type = parts[0]->type;
  type.dims[dim] = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (!parts[i]) return NULL;
    type.dims[dim] += parts[i]->type.dims[dim];
  }
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, parts, count, &type);
  if (v) v->def->attrs.dim = dim;
  return v;
}

// lhs[..., p, k] . rhs[..., k, q] (or rhs[..., q, k] when |rhs_transposed|)
// over the shared batch dims.
grtc_tvalue_t* grtc_chlo_matmul(grtc_chlo_math_t* m, grtc_tvalue_t* lhs,
                                grtc_tvalue_t* rhs, bool rhs_transposed) {
  if (!lhs || !rhs) return NULL;
  uint32_t r = lhs->type.rank;
  int64_t batch[GRTC_MAX_RANK];
  for (uint32_t d = 0; d + 2 < r; ++d) batch[d] = d;
  int64_t lc = r - 1, rc = rhs_transposed ? r - 1 : r - 2;
  grtc_ttype_t type = lhs->type;
  type.dims[r - 1] = rhs->type.dims[rhs_transposed ? r - 2 : r - 1];
  grtc_tvalue_t* operands[2] = {lhs, rhs};
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_DOT_GENERAL, operands, 2, &type);
  if (v) {
    grtc_dot_dims_t* dot = &v->def->attrs.dot;
    dot->lhs_batch = grtc_tmodule_i64s(m->b->module, batch, r - 2);
    dot->rhs_batch = grtc_tmodule_i64s(m->b->module, batch, r - 2);
    dot->lhs_contracting = grtc_tmodule_i64s(m->b->module, &lc, 1);
    dot->rhs_contracting = grtc_tmodule_i64s(m->b->module, &rc, 1);
  }
  return v;
}

// |x| (with size-1 dims) broadcast to |like|'s shape, same rank.
grtc_tvalue_t* grtc_chlo_expand(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                grtc_tvalue_t* like) {
  if (!x || !like) return NULL;
  uint32_t r = x->type.rank;
  int64_t dims[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < r; ++d) dims[d] = d;
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_BROADCAST_IN_DIM, &x, 1, &like->type);
  if (v) v->def->attrs.dims = grtc_tmodule_i64s(m->b->module, dims, r);
  return v;
}

// Checks a [..., n, n] float matrix operand with at most
// GRTC_CHLO_MAX_LINALG_SIZE rows.
grt_status_t grtc_chlo_check_square(grt_string_view_t name, const char* what,
                                    const grtc_ttype_t* type) {
  char text[128];
  grtc_ttype_format(type, text, sizeof(text));
  if (!grtc_elem_is_float(type->elem) || type->rank < 2 ||
      type->dims[type->rank - 1] != type->dims[type->rank - 2]) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' %s must be square float matrices [..., n, n], got %s",
                           GRT_SV_ARG(name), what, text);
  }
  if (type->dims[type->rank - 1] > GRTC_CHLO_MAX_LINALG_SIZE) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "'%.*s' on %s: matrices larger than %d x %d are not supported "
                           "yet (the op is unrolled over the rows)", GRT_SV_ARG(name), text,
                           GRTC_CHLO_MAX_LINALG_SIZE, GRTC_CHLO_MAX_LINALG_SIZE);
  }
  return grt_ok_status();
}

// The matrix helpers above applied to both parts of a complex value (the
// imaginary part NULL for a real one, and left NULL).
static grtc_complex_t grtc_chlo_pair(grtc_tvalue_t* re, grtc_tvalue_t* im) {
  grtc_complex_t z = {re, im};
  return z;
}

static grtc_complex_t grtc_chlo_slice2_parts(grtc_chlo_math_t* m, grtc_complex_t x,
                                             int64_t row0, int64_t row1, int64_t col0,
                                             int64_t col1) {
  return grtc_chlo_pair(grtc_chlo_slice2(m, x.re, row0, row1, col0, col1),
                        grtc_chlo_slice2(m, x.im, row0, row1, col0, col1));
}

static grtc_complex_t grtc_chlo_transpose2_parts(grtc_chlo_math_t* m, grtc_complex_t x) {
  return grtc_chlo_pair(grtc_chlo_transpose2(m, x.re), grtc_chlo_transpose2(m, x.im));
}

static grtc_complex_t grtc_chlo_reverse2_parts(grtc_chlo_math_t* m, grtc_complex_t x,
                                               bool columns) {
  return grtc_chlo_pair(grtc_chlo_reverse2(m, x.re, columns),
                        grtc_chlo_reverse2(m, x.im, columns));
}

// lhs . rhs, complex when |lhs| is (both are then): four real products.
static grtc_complex_t grtc_chlo_matmul_parts(grtc_chlo_math_t* m, grtc_complex_t lhs,
                                             grtc_complex_t rhs) {
  grtc_tvalue_t* rr = grtc_chlo_matmul(m, lhs.re, rhs.re, false);
  if (!lhs.im) return grtc_chlo_pair(rr, NULL);
  return grtc_complex_combine_products(m, rr, grtc_chlo_matmul(m, lhs.im, rhs.im, false),
                                       grtc_chlo_matmul(m, lhs.re, rhs.im, false),
                                       grtc_chlo_matmul(m, lhs.im, rhs.re, false));
}

// Forward substitution: x with a x = b, a[..., n, n] lower triangular
// (the strict upper part unread), b[..., n, k], real or complex (a pair of
// parts, im NULL for real); row i of x is (b_i - a[i, :i] . x[:i]) / a_ii
// (no division with a unit diagonal).
static grtc_complex_t grtc_chlo_forward_substitute(grtc_chlo_math_t* m, grtc_complex_t a,
                                                   grtc_complex_t b, bool unit_diagonal) {
  grtc_complex_t solved = {NULL, NULL};  // x[:i], [..., i, k]
  if (!a.re || !b.re) return solved;
  bool complex = a.im != NULL;
  uint32_t r = a.re->type.rank;
  int64_t n = a.re->type.dims[r - 1], k = b.re->type.dims[r - 1];
  for (int64_t i = 0; i < n && grt_status_is_ok(m->status); ++i) {
    grtc_complex_t row = grtc_chlo_slice2_parts(m, b, i, i + 1, 0, k);
    if (i > 0) {
      grtc_complex_t sum =
          grtc_chlo_matmul_parts(m, grtc_chlo_slice2_parts(m, a, i, i + 1, 0, i), solved);
      row = grtc_chlo_pair(SUB(row.re, sum.re), complex ? SUB(row.im, sum.im) : NULL);
    }
    if (!unit_diagonal) {
      grtc_complex_t d = grtc_chlo_slice2_parts(m, a, i, i + 1, i, i + 1);
      d = grtc_chlo_pair(grtc_chlo_expand(m, d.re, row.re),
                         complex ? grtc_chlo_expand(m, d.im, row.re) : NULL);
      if (complex) {
        grtc_complex_t quotient[2] = {row, d};
        row = grtc_complex_elementwise(m, GRTC_TOP_DIVIDE, quotient);
      } else {
        row.re = DIV(row.re, d.re);
      }
    }
    if (i == 0 || !grt_status_is_ok(m->status)) {
      solved = row;
      continue;
    }
    grtc_tvalue_t* re[2] = {solved.re, row.re};
    grtc_tvalue_t* im[2] = {solved.im, row.im};
    solved = grtc_chlo_pair(grtc_chlo_concat(m, re, 2, r - 2),
                            complex ? grtc_chlo_concat(m, im, 2, r - 2) : NULL);
  }
  return solved;
}

// op(a) x = b (left_side) or x op(a) = b, op(a) = a, a^T (TRANSPOSE) or
// conj(a)^T (ADJOINT; a^T for real types), a lower or upper triangular (the
// other part unread). Reduced to one lower, left case: transposing a flips
// lower; x op(a) = b is op(a)^T x^T = b^T; an upper system is a lower one
// with the rows and columns of a and the rows of b and x reversed. Complex
// operands (attrs->complex) come interleaved, [..., 2] (complex.h), and are
// solved on their parts.
static grt_status_t grtc_chlo_triangular_solve(grtc_chlo_builder_t* b, grt_string_view_t name,
                                               grtc_tvalue_t* const* operands,
                                               const grtc_ttype_t* result,
                                               const grtc_chlo_attrs_t* attrs,
                                               grtc_tvalue_t** out) {
  if (!attrs->has_left_side || !attrs->has_lower || !attrs->has_unit_diagonal ||
      attrs->transpose_a < 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' requires 'left_side', 'lower', 'unit_diagonal' (booleans) "
                           "and 'transpose_a' (#stablehlo<transpose NO_TRANSPOSE, TRANSPOSE "
                           "or ADJOINT>)", GRT_SV_ARG(name));
  }
  // The matrices' types: for complex operands, the parts' types.
  grtc_ttype_t at = operands[0]->type, bt = operands[1]->type, rt = *result;
  if (attrs->complex) {
    --at.rank;
    --bt.rank;
    --rt.rank;
  }
  GRT_RETURN_IF_ERROR(grtc_chlo_check_square(name, "a", &at));
  uint32_t r = at.rank;
  bool fits = bt.rank == r && bt.elem == at.elem;
  for (uint32_t d = 0; fits && d + 2 < r; ++d) fits = bt.dims[d] == at.dims[d];
  if (fits) fits = bt.dims[attrs->left_side ? r - 2 : r - 1] == at.dims[r - 1];
  if (!fits || rt.elem != bt.elem || !grtc_ttype_same_shape(&rt, &bt)) {
    char ta[128], tb[128];
    grtc_ttype_format(&operands[0]->type, ta, sizeof(ta));
    grtc_ttype_format(&operands[1]->type, tb, sizeof(tb));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' b must share a's batch dims and element type, with a's "
                           "size in its %s dim, and the result b's type; got a %s and b %s%s",
                           GRT_SV_ARG(name), attrs->left_side ? "second-to-last" : "last",
                           ta, tb, attrs->complex ? " (complex as [..., 2] parts)" : "");
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_elem_t elem = at.elem;
  grtc_elem_t work = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_complex_t a, rhs;
  if (attrs->complex) {
    a = grtc_complex_split(m, operands[0]);
    rhs = grtc_complex_split(m, operands[1]);
  } else {
    a = grtc_chlo_pair(grtc_chlo_convert(m, operands[0], work), NULL);
    rhs = grtc_chlo_pair(grtc_chlo_convert(m, operands[1], work), NULL);
  }
  bool lower = attrs->lower;
  if (attrs->transpose_a != 0) {
    a = grtc_chlo_transpose2_parts(m, a);
    if (attrs->transpose_a == 2 && a.im) a.im = NEG(a.im);  // ADJOINT
    lower = !lower;
  }
  if (!attrs->left_side) {
    a = grtc_chlo_transpose2_parts(m, a);
    lower = !lower;
    rhs = grtc_chlo_transpose2_parts(m, rhs);
  }
  if (!lower) {
    a = grtc_chlo_reverse2_parts(m, a, true);
    rhs = grtc_chlo_reverse2_parts(m, rhs, false);
  }
  grtc_complex_t x = grtc_chlo_forward_substitute(m, a, rhs, attrs->unit_diagonal);
  if (!lower) x = grtc_chlo_reverse2_parts(m, x, false);
  if (!attrs->left_side) x = grtc_chlo_transpose2_parts(m, x);
  grtc_tvalue_t* solved =
      attrs->complex ? grtc_complex_join(m, x) : grtc_chlo_convert(m, x.re, elem);
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = solved;
  return grt_ok_status();
}

// stablehlo.square: x * x (complex operands are lowered by complex.c).
static grt_status_t grtc_chlo_square(grtc_chlo_builder_t* b, grt_string_view_t name,
                                     grtc_tvalue_t* operand, const grtc_ttype_t* result,
                                     grtc_tvalue_t** out) {
  if (result->elem != operand->type.elem || !grtc_ttype_same_shape(result, &operand->type)) {
    char from[128], to[128];
    grtc_ttype_format(&operand->type, from, sizeof(from));
    grtc_ttype_format(result, to, sizeof(to));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' returns its operand's type, got %s from %s",
                           GRT_SV_ARG(name), to, from);
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_tvalue_t* r = MUL(operand, operand);
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = r;
  return grt_ok_status();
}

// The lower Cholesky factor l of a[..., n, n] (f32 or f64; only its lower
// triangle is read), the strict upper triangle 0. Column j of l: with
// v = a[:, j] - l[:, :j] . l[j, :j]^T, l_jj = sqrt(v_j), l_ij = v_i / l_jj
// below, 0 above (a matrix that is not positive definite gives NaN, as sqrt
// of a negative). |pivots|, when not NULL, receives each v_j as [..., 1, 1].
grtc_tvalue_t* grtc_chlo_cholesky_factor(grtc_chlo_math_t* m, grtc_tvalue_t* a,
                                         grtc_tvalue_t** pivots) {
  if (!a) return NULL;
  uint32_t r = a->type.rank;
  int64_t n = a->type.dims[r - 1];
  grtc_ttype_t type = a->type;  // iota of the row index, [..., n, 1]
  type.dims[r - 1] = 1;
  grtc_tvalue_t* rows = grtc_chlo_make(m, GRTC_TOP_IOTA, NULL, 0, &type);
  if (rows) rows->def->attrs.dim = r - 2;
  grtc_tvalue_t* factor = NULL;  // l[:, :j], [..., n, j]
  for (int64_t j = 0; j < n && grt_status_is_ok(m->status); ++j) {
    grtc_tvalue_t* v = grtc_chlo_slice2(m, a, 0, n, j, j + 1);
    if (j > 0) {
      v = SUB(v, grtc_chlo_matmul(m, factor, grtc_chlo_slice2(m, factor, j, j + 1, 0, j),
                                  true));
    }
    grtc_tvalue_t* pivot = grtc_chlo_slice2(m, v, j, j + 1, 0, 1);
    if (pivots) pivots[j] = pivot;
    grtc_tvalue_t* diagonal = grtc_chlo_expand(m, SQRT(pivot), v);
    grtc_tvalue_t* index = C_LIKE(rows, (double)j);
    grtc_tvalue_t* column =
        SELECT(CMP(GT, rows, index), DIV(v, diagonal),
               SELECT(CMP(EQ, rows, index), diagonal, C_LIKE(v, 0.0)));
    grtc_tvalue_t* parts[2] = {factor, column};
    factor = j == 0 ? column : grtc_chlo_concat(m, parts, 2, r - 1);
  }
  return grt_status_is_ok(m->status) ? factor : NULL;
}

// cholesky: l with a = l l^T (lower) from a's lower triangle, or u with
// a = u^T u from its upper one (the lower factor of a^T, transposed); the
// other triangle of the result is 0.
static grt_status_t grtc_chlo_cholesky(grtc_chlo_builder_t* b, grt_string_view_t name,
                                       grtc_tvalue_t* operand, const grtc_ttype_t* result,
                                       const grtc_chlo_attrs_t* attrs, grtc_tvalue_t** out) {
  GRT_RETURN_IF_ERROR(grtc_chlo_check_square(name, "a", &operand->type));
  if (result->elem != operand->type.elem || !grtc_ttype_same_shape(result, &operand->type)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "'%.*s' returns its operand's type",
                           GRT_SV_ARG(name));
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_elem_t elem = operand->type.elem;
  grtc_elem_t work = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* a = grtc_chlo_convert(m, operand, work);
  if (!attrs->lower) a = grtc_chlo_transpose2(m, a);
  grtc_tvalue_t* factor = grtc_chlo_cholesky_factor(m, a, NULL);
  if (!attrs->lower) factor = grtc_chlo_transpose2(m, factor);
  factor = grtc_chlo_convert(m, factor, elem);
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = factor;
  return grt_ok_status();
}

// The custom call JAX's QR emits after geqrf (LAPACK's orgqr):
// `ProductOfElementaryHouseholderReflectors(a, taus)`, a [..., m, n]
// holding reflector i below the diagonal of column i and taus [..., k]
// (k <= n <= m, real floats). The result is the first n columns of
// Q = H_0 H_1 ... H_{k-1}, H_i = I - tau_i v_i v_i^T, v_i 0 above row i, 1
// at it and a's column i below: from the identity's first n columns,
// Q <- Q - tau_i v_i (v_i^T Q) for i = k-1 down to 0, unrolled.
#define GRTC_CHLO_HOUSEHOLDER_NAME \
  "stablehlo.custom_call @ProductOfElementaryHouseholderReflectors"

static grt_status_t grtc_chlo_householder_product(grtc_chlo_builder_t* b,
                                                  grt_string_view_t name,
                                                  grtc_tvalue_t* const* operands,
                                                  const grtc_ttype_t* result,
                                                  grtc_tvalue_t** out) {
  const grtc_ttype_t* at = &operands[0]->type;
  const grtc_ttype_t* tt = &operands[1]->type;
  char ta[128], tb[128];
  grtc_ttype_format(at, ta, sizeof(ta));
  grtc_ttype_format(tt, tb, sizeof(tb));
  uint32_t r = at->rank;
  bool batch_match = tt->rank + 1 == r && tt->elem == at->elem;
  for (uint32_t d = 0; batch_match && d + 2 < r; ++d) batch_match = tt->dims[d] == at->dims[d];
  if (!grtc_elem_is_float(at->elem) || r < 2 || at->dims[r - 1] > at->dims[r - 2] ||
      !batch_match || tt->dims[r - 2] > at->dims[r - 1]) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes real float reflectors a [..., m, n] (n <= m) and "
                           "taus [..., k] (k <= n) of the same element type, got %s and %s",
                           GRT_SV_ARG(name), ta, tb);
  }
  if (at->dims[r - 2] > GRTC_CHLO_MAX_LINALG_SIZE) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "'%.*s' on %s: matrices of more than %d rows are not supported yet "
                           "(the product is unrolled over the reflectors)",
                           GRT_SV_ARG(name), ta, GRTC_CHLO_MAX_LINALG_SIZE);
  }
  if (result->elem != at->elem || !grtc_ttype_same_shape(result, at)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "'%.*s' returns a's type %s",
                           GRT_SV_ARG(name), ta);
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_elem_t work = at->elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* a = grtc_chlo_convert(m, operands[0], work);
  grtc_tvalue_t* taus = grtc_chlo_convert(m, operands[1], work);
  int64_t rows_n = at->dims[r - 2], k = tt->dims[r - 2];
  grtc_ttype_t full = *at, column = *at;
  full.elem = column.elem = work;
  column.dims[r - 1] = 1;
  grtc_tvalue_t* rows = grtc_chlo_make(m, GRTC_TOP_IOTA, NULL, 0, &column);
  if (rows) rows->def->attrs.dim = r - 2;
  grtc_tvalue_t* full_rows = grtc_chlo_make(m, GRTC_TOP_IOTA, NULL, 0, &full);
  if (full_rows) full_rows->def->attrs.dim = r - 2;
  grtc_tvalue_t* full_cols = grtc_chlo_make(m, GRTC_TOP_IOTA, NULL, 0, &full);
  if (full_cols) full_cols->def->attrs.dim = r - 1;
  grtc_tvalue_t* q = full_rows ? SELECT(CMP(EQ, full_rows, full_cols), C_LIKE(full_rows, 1.0),
                                        C_LIKE(full_rows, 0.0))
                               : NULL;
  grtc_ttype_t one_by_one = column;
  one_by_one.dims[r - 2] = 1;
  for (int64_t i = k; i-- > 0 && grt_status_is_ok(m->status);) {
    grtc_tvalue_t* index = C_LIKE(rows, (double)i);
    grtc_tvalue_t* v = SELECT(CMP(GT, rows, index), grtc_chlo_slice2(m, a, 0, rows_n, i, i + 1),
                              SELECT(CMP(EQ, rows, index), C_LIKE(rows, 1.0),
                                     C_LIKE(rows, 0.0)));
    // tau_i as [..., 1, 1]: taus viewed as [..., 1, k], column i.
    grtc_ttype_t row = one_by_one;
    row.dims[r - 1] = k;
    grtc_tvalue_t* tau =
        grtc_chlo_slice2(m, grtc_chlo_make(m, GRTC_TOP_RESHAPE, &taus, 1, &row), 0, 1, i, i + 1);
    grtc_tvalue_t* w = grtc_chlo_matmul(m, grtc_chlo_transpose2(m, v), q, false);  // [.., 1, n]
    grtc_tvalue_t* update = grtc_chlo_matmul(m, v, w, false);                    // [.., m, n]
    q = SUB(q, MUL(grtc_chlo_expand(m, tau, q), update));
  }
  q = grtc_chlo_convert(m, q, at->elem);
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = q;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// torch_index_select
//===----------------------------------------------------------------------===//

// torch_index_select(operand, index, dim, batch_dims): result[b..., p...,
// i..., s...] = operand[b..., p..., index[b..., i...], s...], where the
// first batch_dims dims of operand and index are shared (b), p are the
// operand's dims before dim and s those after it. One gather: the index
// as a vector of one start index (index_vector_dim past its last dim)
// into operand dim `dim`, which is collapsed; the batch dims pair through
// operand_batching_dims; every other operand dim is an offset dim, taken
// whole.
static grt_status_t grtc_chlo_torch_index_select(grtc_chlo_builder_t* b,
                                                 grt_string_view_t name,
                                                 grtc_tvalue_t* const* operands,
                                                 const grtc_ttype_t* result,
                                                 const grtc_chlo_attrs_t* attrs,
                                                 grtc_tvalue_t** out) {
  const grtc_ttype_t* x = &operands[0]->type;
  const grtc_ttype_t* index = &operands[1]->type;
  char tx[128], ti[128];
  grtc_ttype_format(x, tx, sizeof(tx));
  grtc_ttype_format(index, ti, sizeof(ti));
  if (!attrs->has_index_select) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' requires the 'dim' and 'batch_dims' attributes",
                           GRT_SV_ARG(name));
  }
  int64_t dim = attrs->select_dim, batch = attrs->select_batch_dims;
  if (dim < 0) dim += x->rank;
  if (batch < 0) batch += index->rank;
  if (batch < 0 || dim < batch || dim >= (int64_t)x->rank || batch > (int64_t)index->rank) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' needs 0 <= batch_dims (%lld) <= dim (%lld) < the operand's "
                           "rank, and batch_dims <= the index's rank; got operand %s and "
                           "index %s", GRT_SV_ARG(name), (long long)attrs->select_batch_dims,
                           (long long)attrs->select_dim, tx, ti);
  }
  if (!grtc_elem_is_integer(index->elem) || index->elem == GRTC_ELEM_I1) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes integer indices, got %s", GRT_SV_ARG(name), ti);
  }
  for (int64_t d = 0; d < batch; ++d) {
    if (x->dims[d] != index->dims[d]) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "'%.*s' batch dim %lld differs: operand %s, index %s",
                             GRT_SV_ARG(name), (long long)d, tx, ti);
    }
  }
  uint32_t index_rank = index->rank;
  uint32_t rank = (uint32_t)(x->rank - 1 + index_rank - batch);
  grtc_ttype_t type = {0};
  type.elem = x->elem;
  type.rank = rank;
  if (rank > GRTC_MAX_RANK) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "'%.*s' result of rank %u exceeds %d",
                           GRT_SV_ARG(name), rank, GRTC_MAX_RANK);
  }
  int64_t offset_dims[GRTC_MAX_RANK], sizes[GRTC_MAX_RANK], batching[GRTC_MAX_RANK];
  uint32_t offset_count = 0, r = 0;
  for (int64_t d = 0; d < dim; ++d) {
    type.dims[r] = x->dims[d];
    if (d >= batch) offset_dims[offset_count++] = r;
    ++r;
  }
  for (uint32_t d = (uint32_t)batch; d < index_rank; ++d) type.dims[r++] = index->dims[d];
  for (uint32_t d = (uint32_t)dim + 1; d < x->rank; ++d) {
    type.dims[r] = x->dims[d];
    offset_dims[offset_count++] = r;
    ++r;
  }
  for (uint32_t d = 0; d < x->rank; ++d) {
    sizes[d] = (int64_t)d < batch || (int64_t)d == dim ? 1 : x->dims[d];
  }
  for (int64_t d = 0; d < batch; ++d) batching[d] = d;
  if (result->elem != type.elem || !grtc_ttype_same_shape(result, &type)) {
    char want[128], got[128];
    grtc_ttype_format(&type, want, sizeof(want));
    grtc_ttype_format(result, got, sizeof(got));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' of operand %s and index %s gives %s, not %s",
                           GRT_SV_ARG(name), tx, ti, want, got);
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_tvalue_t* pair[2] = {operands[0], operands[1]};
  grtc_tvalue_t* v = grtc_chlo_make(m, GRTC_TOP_GATHER, pair, 2, &type);
  if (v) {
    grtc_gather_dims_t* g = &v->def->attrs.gather;
    grtc_tmodule_t* module = b->module;
    g->offset_dims = grtc_tmodule_i64s(module, offset_dims, offset_count);
    g->collapsed_slice_dims = grtc_tmodule_i64s(module, &dim, 1);
    g->operand_batching_dims = grtc_tmodule_i64s(module, batching, (uint32_t)batch);
    g->start_indices_batching_dims = grtc_tmodule_i64s(module, batching, (uint32_t)batch);
    g->start_index_map = grtc_tmodule_i64s(module, &dim, 1);
    g->slice_sizes = grtc_tmodule_i64s(module, sizes, x->rank);
    g->index_vector_dim = index_rank;
  }
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = v;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// mulhi
//===----------------------------------------------------------------------===//

// The high half of the double-width product, for integers of 8 to 64
// bits, signed or unsigned. Below 64 bits: the product in the twice-wider
// type (operands sign- or zero-extended), shifted right by the width
// (arithmetically when signed) and truncated. At 64 bits, from 32-bit
// halves in ui64 (a = ah 2^32 + al): the four partial products, the middle
// column's carry into the high word; signed, the unsigned high word less b
// where a < 0 and less a where b < 0 (mod 2^64).
static grtc_tvalue_t* grtc_chlo_shift(grtc_chlo_math_t* m, grtc_top_kind_t kind,
                                      grtc_tvalue_t* x, uint64_t amount) {
  return grtc_chlo_binary(m, kind, x, grtc_chlo_bits(m, x, amount));
}

static grtc_tvalue_t* grtc_chlo_mulhi(grtc_chlo_math_t* m, grtc_tvalue_t* a,
                                      grtc_tvalue_t* b) {
  grtc_elem_t elem = a->type.elem;
  bool is_signed = grtc_elem_is_signed_integer(elem);
  uint32_t width = grtc_elem_bit_width(elem);
  if (width < 64) {
    static const grtc_elem_t wider_signed[] = {GRTC_ELEM_I16, GRTC_ELEM_I32, GRTC_ELEM_I64};
    static const grtc_elem_t wider_unsigned[] = {GRTC_ELEM_U16, GRTC_ELEM_U32, GRTC_ELEM_U64};
    uint32_t index = width == 8 ? 0 : width == 16 ? 1 : 2;
    grtc_elem_t wide = is_signed ? wider_signed[index] : wider_unsigned[index];
    grtc_tvalue_t* product =
        MUL(grtc_chlo_convert(m, a, wide), grtc_chlo_convert(m, b, wide));
    return grtc_chlo_convert(
        m,
        grtc_chlo_shift(m,
                        is_signed ? GRTC_TOP_SHIFT_RIGHT_ARITHMETIC
                                  : GRTC_TOP_SHIFT_RIGHT_LOGICAL,
                        product, width),
        elem);
  }
  grtc_tvalue_t* ua = is_signed ? grtc_chlo_bitcast(m, a, GRTC_ELEM_U64) : a;
  grtc_tvalue_t* ub = is_signed ? grtc_chlo_bitcast(m, b, GRTC_ELEM_U64) : b;
  grtc_tvalue_t* low_mask = grtc_chlo_bits(m, ua, 0xFFFFFFFFu);
  grtc_tvalue_t* al = grtc_chlo_binary(m, GRTC_TOP_AND, ua, low_mask);
  grtc_tvalue_t* bl = grtc_chlo_binary(m, GRTC_TOP_AND, ub, low_mask);
  grtc_tvalue_t* ah = grtc_chlo_shift(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, ua, 32);
  grtc_tvalue_t* bh = grtc_chlo_shift(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, ub, 32);
  grtc_tvalue_t* ll = MUL(al, bl);
  grtc_tvalue_t* lh = MUL(al, bh);
  grtc_tvalue_t* hl = MUL(ah, bl);
  grtc_tvalue_t* middle =
      ADD(ADD(grtc_chlo_shift(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, ll, 32),
              grtc_chlo_binary(m, GRTC_TOP_AND, lh, low_mask)),
          grtc_chlo_binary(m, GRTC_TOP_AND, hl, low_mask));
  grtc_tvalue_t* high =
      ADD(ADD(ADD(MUL(ah, bh), grtc_chlo_shift(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, lh, 32)),
              grtc_chlo_shift(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, hl, 32)),
          grtc_chlo_shift(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, middle, 32));
  if (!is_signed) return high;
  grtc_tvalue_t* zero = grtc_chlo_bits(m, a, 0);
  grtc_tvalue_t* a_negative = grtc_chlo_compare(m, GRTC_CMP_LT, a, zero);
  grtc_tvalue_t* b_negative = grtc_chlo_compare(m, GRTC_CMP_LT, b, zero);
  if (a_negative) a_negative->def->attrs.compare_type = GRTC_CMP_TYPE_SIGNED;
  if (b_negative) b_negative->def->attrs.compare_type = GRTC_CMP_TYPE_SIGNED;
  grtc_tvalue_t* none = grtc_chlo_bits(m, ua, 0);
  high = SUB(high, SELECT(a_negative, ub, none));
  high = SUB(high, SELECT(b_negative, ua, none));
  return grtc_chlo_bitcast(m, high, elem);
}

static grt_status_t grtc_chlo_lower_mulhi(grtc_chlo_builder_t* b, grt_string_view_t name,
                                          grtc_tvalue_t* const* operands,
                                          const grtc_ttype_t* result, grtc_tvalue_t** out) {
  const grtc_ttype_t* x = &operands[0]->type;
  if (!grtc_elem_is_integer(x->elem) || x->elem == GRTC_ELEM_I1 ||
      operands[1]->type.elem != x->elem || !grtc_ttype_same_shape(x, &operands[1]->type) ||
      result->elem != x->elem || !grtc_ttype_same_shape(x, result)) {
    char types[2][128];
    grtc_ttype_format(x, types[0], sizeof(types[0]));
    grtc_ttype_format(&operands[1]->type, types[1], sizeof(types[1]));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes two integer tensors of one type (8 to 64 bits) and "
                           "returns it, got %s and %s", GRT_SV_ARG(name), types[0], types[1]);
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_tvalue_t* r = grtc_chlo_mulhi(&math, operands[0], operands[1]);
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = r;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

#define GRTC_CHLO_COUNT(table) (sizeof(table) / sizeof((table)[0]))

//===----------------------------------------------------------------------===//
// rng_bit_generator (THREE_FRY, PHILOX)
//===----------------------------------------------------------------------===//

// XLA's THREE_FRY generator, bit for bit. The state is ui64[2]: the key
// (its low and high 32 bits the two Threefry-2x32 key words) and a counter.
// Each element of the generated shape G takes counter + its row-major index
// as the 64-bit Threefry input (low word first) and the state's counter
// advances by the element count of G. 64-bit outputs: G is the output shape
// and each element is the two output words (first one low). 32-bit outputs:
// both words are used: G is the output shape with one dimension d halved
// (rounded up; d the first even dimension, or else the first of the largest,
// and G = [1] for rank 0), and output index i along d takes word i % 2 of G's
// element i / 2 (an odd d drops the last).
#define GRTC_CHLO_THREEFRY_PARITY 0x1BD11BDAu

static grtc_tvalue_t* grtc_chlo_rotate_left32(grtc_chlo_math_t* m, grtc_tvalue_t* v,
                                              uint32_t distance) {
  return grtc_chlo_binary(m, GRTC_TOP_OR,
                          grtc_chlo_shift(m, GRTC_TOP_SHIFT_LEFT, v, distance),
                          grtc_chlo_shift(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, v, 32 - distance));
}

// Threefry-2x32 with 20 rounds on ui32 words |x| under key words |k| (all of
// one shape); the result replaces |x|.
static void grtc_chlo_threefry2x32(grtc_chlo_math_t* m, grtc_tvalue_t* x[2],
                                   grtc_tvalue_t* const k[2]) {
  static const uint32_t rotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  grtc_tvalue_t* ks[3] = {
      k[0], k[1],
      grtc_chlo_binary(m, GRTC_TOP_XOR, grtc_chlo_binary(m, GRTC_TOP_XOR, k[0], k[1]),
                       grtc_chlo_bits(m, k[0], GRTC_CHLO_THREEFRY_PARITY))};
  x[0] = ADD(x[0], ks[0]);
  x[1] = ADD(x[1], ks[1]);
  for (uint32_t block = 0; block < 5; ++block) {
    for (uint32_t r = 0; r < 4; ++r) {
      x[0] = ADD(x[0], x[1]);
      x[1] = grtc_chlo_rotate_left32(m, x[1], rotations[(block % 2) * 4 + r]);
      x[1] = grtc_chlo_binary(m, GRTC_TOP_XOR, x[0], x[1]);
    }
    x[0] = ADD(x[0], ks[(block + 1) % 3]);
    x[1] = ADD(ADD(x[1], ks[(block + 2) % 3]), grtc_chlo_bits(m, x[1], block + 1));
  }
}

// |x| (rank 0 or a shape) as |shape|: a reshape, or a broadcast of a rank-0.
static grtc_tvalue_t* grtc_chlo_as_shape(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                         const grtc_ttype_t* shape) {
  if (!x) return NULL;
  grtc_ttype_t type = *shape;
  type.elem = x->type.elem;
  if (x->type.rank == 0 && grtc_ttype_element_count(&type) != 1) {
    grtc_tvalue_t* r = grtc_chlo_make(m, GRTC_TOP_BROADCAST_IN_DIM, &x, 1, &type);
    if (r) r->def->attrs.dims = grtc_tmodule_i64s(m->b->module, NULL, 0);
    return r;
  }
  return grtc_chlo_make(m, GRTC_TOP_RESHAPE, &x, 1, &type);
}

// The low and high ui32 words of the ui64 |x|.
static void grtc_chlo_words(grtc_chlo_math_t* m, grtc_tvalue_t* x, grtc_tvalue_t* out[2]) {
  out[0] = grtc_chlo_convert(
      m, grtc_chlo_binary(m, GRTC_TOP_AND, x, grtc_chlo_bits(m, x, 0xFFFFFFFFu)),
      GRTC_ELEM_U32);
  out[1] = grtc_chlo_convert(m, grtc_chlo_shift(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, x, 32),
                             GRTC_ELEM_U32);
}

// Element |index| of the rank-1 |x|, as a rank-0 tensor.
static grtc_tvalue_t* grtc_chlo_element(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                        int64_t index) {
  if (!x) return NULL;
  grtc_ttype_t one = x->type;
  one.dims[0] = 1;
  int64_t start = index, limit = index + 1, stride = 1;
  grtc_tvalue_t* slice = grtc_chlo_make(m, GRTC_TOP_SLICE, &x, 1, &one);
  if (slice) {
    slice->def->attrs.start = grtc_tmodule_i64s(m->b->module, &start, 1);
    slice->def->attrs.limit = grtc_tmodule_i64s(m->b->module, &limit, 1);
    slice->def->attrs.strides = grtc_tmodule_i64s(m->b->module, &stride, 1);
  }
  grtc_ttype_t scalar = {0};
  return grtc_chlo_as_shape(m, slice, &scalar);
}

// XLA's PHILOX generator (Philox-4x32, 10 rounds), bit for bit. The state is
// ui64[2] or ui64[3]: the key (its low and high words the Philox key), then
// a 128-bit counter: with three elements elements 1 and 2 (low, high); with
// two, element 1 low and the key itself high (XLA reverses the state), and
// only the low half is written back. Hash j of ceil(n / 4) (n the output's
// 32-bit words) takes counter + j as its four input words (low first);
// output word 4j + w is word w of hash j (64-bit outputs join words 2i and
// 2i + 1, first low); the counter advances by the hashes made.
#define GRTC_CHLO_PHILOX_MUL_A 0xD2511F53u
#define GRTC_CHLO_PHILOX_MUL_B 0xCD9E8D57u
#define GRTC_CHLO_PHILOX_WEYL_A 0x9E3779B9u
#define GRTC_CHLO_PHILOX_WEYL_B 0xBB67AE85u

// The ui64 |sum| = |low| + |delta| (wrapping) and |high| plus its carry.
static void grtc_chlo_add_u128(grtc_chlo_math_t* m, grtc_tvalue_t* low,
                               grtc_tvalue_t* high, grtc_tvalue_t* delta,
                               grtc_tvalue_t* out[2]) {
  out[0] = ADD(low, delta);
  grtc_tvalue_t* carry = grtc_chlo_compare_bits(m, GRTC_CMP_LT, out[0], low);
  out[1] = ADD(high, SELECT(carry, grtc_chlo_bits(m, high, 1), grtc_chlo_bits(m, high, 0)));
}

static void grtc_chlo_philox(grtc_chlo_math_t* m, grtc_tvalue_t* state, int64_t state_size,
                             int64_t words, bool wide, const grtc_ttype_t* out,
                             grtc_tvalue_t** out_bits, grtc_tvalue_t** out_state) {
  grtc_tmodule_t* module = m->b->module;
  int64_t hashes = (words + 3) / 4;
  grtc_ttype_t gen = {0};
  gen.elem = GRTC_ELEM_U64;
  gen.rank = 1;
  gen.dims[0] = hashes;
  grtc_tvalue_t* key = grtc_chlo_element(m, state, 0);
  grtc_tvalue_t* low = grtc_chlo_element(m, state, 1);
  grtc_tvalue_t* high = state_size >= 3 ? grtc_chlo_element(m, state, 2) : key;
  grtc_tvalue_t* iota = grtc_chlo_make(m, GRTC_TOP_IOTA, NULL, 0, &gen);
  if (iota) iota->def->attrs.dim = 0;
  grtc_tvalue_t* counter[2];
  grtc_chlo_add_u128(m, grtc_chlo_as_shape(m, low, &gen), grtc_chlo_as_shape(m, high, &gen),
                     iota, counter);
  grtc_tvalue_t *x[4], *k[2];
  grtc_chlo_words(m, counter[0], x);
  grtc_chlo_words(m, counter[1], x + 2);
  grtc_chlo_words(m, grtc_chlo_as_shape(m, key, &gen), k);
  for (int round = 0; round < 10; ++round) {
    grtc_tvalue_t *p0[2], *p1[2];
    grtc_chlo_words(m, MUL(grtc_chlo_convert(m, x[0], GRTC_ELEM_U64),
                           grtc_chlo_bits(m, counter[0], GRTC_CHLO_PHILOX_MUL_A)), p0);
    grtc_chlo_words(m, MUL(grtc_chlo_convert(m, x[2], GRTC_ELEM_U64),
                           grtc_chlo_bits(m, counter[0], GRTC_CHLO_PHILOX_MUL_B)), p1);
    x[0] = grtc_chlo_binary(m, GRTC_TOP_XOR, grtc_chlo_binary(m, GRTC_TOP_XOR, p1[1], x[1]),
                            k[0]);
    x[1] = p1[0];
    x[2] = grtc_chlo_binary(m, GRTC_TOP_XOR, grtc_chlo_binary(m, GRTC_TOP_XOR, p0[1], x[3]),
                            k[1]);
    x[3] = p0[0];
    if (round < 9) {
      k[0] = ADD(k[0], grtc_chlo_bits(m, k[0], GRTC_CHLO_PHILOX_WEYL_A));
      k[1] = ADD(k[1], grtc_chlo_bits(m, k[1], GRTC_CHLO_PHILOX_WEYL_B));
    }
  }
  // Word (or pair) w of hash j at 4j + w (2j + w): stacked along a new last
  // dimension, flattened, cut to the output's count and shaped.
  uint32_t lanes = wide ? 2 : 4;
  grtc_tvalue_t* lane[4];
  for (uint32_t w = 0; w < lanes; ++w) {
    lane[w] = wide ? grtc_chlo_binary(
                         m, GRTC_TOP_OR, grtc_chlo_convert(m, x[2 * w], GRTC_ELEM_U64),
                         grtc_chlo_shift(m, GRTC_TOP_SHIFT_LEFT,
                                         grtc_chlo_convert(m, x[2 * w + 1], GRTC_ELEM_U64),
                                         32))
                   : x[w];
  }
  grtc_ttype_t column = gen, table = gen, flat = gen;
  column.elem = table.elem = flat.elem = wide ? GRTC_ELEM_U64 : GRTC_ELEM_U32;
  column.rank = table.rank = 2;
  column.dims[1] = 1;
  table.dims[1] = lanes;
  flat.dims[0] = hashes * lanes;
  for (uint32_t w = 0; w < lanes; ++w) lane[w] = grtc_chlo_as_shape(m, lane[w], &column);
  grtc_tvalue_t* joined = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, lane, lanes, &table);
  if (joined) joined->def->attrs.dim = 1;
  grtc_tvalue_t* bits = grtc_chlo_as_shape(m, joined, &flat);
  int64_t count = grtc_ttype_element_count(out);
  if (count != flat.dims[0]) {
    grtc_ttype_t cut = flat;
    cut.dims[0] = count;
    int64_t start = 0, stride = 1;
    bits = grtc_chlo_make(m, GRTC_TOP_SLICE, &bits, 1, &cut);
    if (bits) {
      bits->def->attrs.start = grtc_tmodule_i64s(module, &start, 1);
      bits->def->attrs.limit = grtc_tmodule_i64s(module, &count, 1);
      bits->def->attrs.strides = grtc_tmodule_i64s(module, &stride, 1);
    }
  }
  grtc_ttype_t shaped = *out;
  shaped.elem = flat.elem;
  *out_bits = grtc_chlo_as_shape(m, bits, &shaped);
  // The new state: the key, the counter advanced (its high half only with
  // a state of three).
  grtc_tvalue_t* next[2];
  grtc_chlo_add_u128(m, low, high, grtc_chlo_bits(m, low, (uint64_t)hashes), next);
  grtc_ttype_t one = {0};
  one.elem = GRTC_ELEM_U64;
  one.rank = 1;
  one.dims[0] = 1;
  grtc_tvalue_t* parts[3] = {grtc_chlo_as_shape(m, key, &one),
                             grtc_chlo_as_shape(m, next[0], &one),
                             grtc_chlo_as_shape(m, next[1], &one)};
  grtc_ttype_t state_type = one;
  state_type.dims[0] = state_size;
  grtc_tvalue_t* joined_state =
      grtc_chlo_make(m, GRTC_TOP_CONCATENATE, parts, (uint32_t)state_size, &state_type);
  if (joined_state) joined_state->def->attrs.dim = 0;
  *out_state = joined_state;
}

// ui64 |low| | (ui64 |high| << 32) of the 32-bit words |low| and |high|.
static grtc_tvalue_t* grtc_chlo_join_words(grtc_chlo_math_t* m, grtc_tvalue_t* low,
                                           grtc_tvalue_t* high) {
  return grtc_chlo_binary(
      m, GRTC_TOP_OR, grtc_chlo_convert(m, low, GRTC_ELEM_U64),
      grtc_chlo_shift(m, GRTC_TOP_SHIFT_LEFT, grtc_chlo_convert(m, high, GRTC_ELEM_U64), 32));
}

static grt_status_t grtc_chlo_rng_bit_generator(grtc_chlo_builder_t* b,
                                                grt_string_view_t name,
                                                grtc_tvalue_t* state,
                                                const grtc_ttype_t* results,
                                                const grtc_chlo_attrs_t* attrs,
                                                grtc_tvalue_t** outs);

// IREE's 32-bit state, i32[4] or ui32[4] (THREE_FRY and PHILOX): words 0 and
// 1 are the key's low and high words, words 2 and 3 the counter's high and
// low words. It runs as the ui64[2] state {key, counter}; the new state has
// the key's words and the advanced counter's high word in 2 and low word in
// 3, so it continues the sequence when passed back (IREE writes the low word
// to 2 and the high word to 3 instead).
static grt_status_t grtc_chlo_rng_bit_generator_words(grtc_chlo_builder_t* b,
                                                      grt_string_view_t name,
                                                      grtc_tvalue_t* state,
                                                      const grtc_ttype_t* results,
                                                      const grtc_chlo_attrs_t* attrs,
                                                      grtc_tvalue_t** outs) {
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_tvalue_t* words = state->type.elem == GRTC_ELEM_U32
                             ? state
                             : grtc_chlo_bitcast(m, state, GRTC_ELEM_U32);
  grtc_tvalue_t* w[4];
  for (int i = 0; i < 4; ++i) w[i] = grtc_chlo_element(m, words, i);
  grtc_ttype_t one = {0};
  one.elem = GRTC_ELEM_U64;
  one.rank = 1;
  one.dims[0] = 1;
  grtc_tvalue_t* halves[2] = {grtc_chlo_as_shape(m, grtc_chlo_join_words(m, w[0], w[1]), &one),
                              grtc_chlo_as_shape(m, grtc_chlo_join_words(m, w[3], w[2]), &one)};
  grtc_ttype_t wide[2];
  wide[0] = one;
  wide[0].dims[0] = 2;
  wide[1] = results[1];
  grtc_tvalue_t* wide_state = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, halves, 2, &wide[0]);
  if (wide_state) wide_state->def->attrs.dim = 0;
  if (!grt_status_is_ok(math.status)) return math.status;
  grtc_tvalue_t* wide_outs[2] = {NULL, NULL};
  GRT_RETURN_IF_ERROR(
      grtc_chlo_rng_bit_generator(b, name, wide_state, wide, attrs, wide_outs));
  grtc_tvalue_t* counter[2];
  grtc_chlo_words(m, grtc_chlo_element(m, wide_outs[0], 1), counter);
  grtc_ttype_t word = one;
  word.elem = GRTC_ELEM_U32;
  grtc_tvalue_t* parts[4] = {grtc_chlo_as_shape(m, w[0], &word), grtc_chlo_as_shape(m, w[1], &word),
                             grtc_chlo_as_shape(m, counter[1], &word),
                             grtc_chlo_as_shape(m, counter[0], &word)};
  grtc_ttype_t next_type = word;
  next_type.dims[0] = 4;
  grtc_tvalue_t* next = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, parts, 4, &next_type);
  if (next) next->def->attrs.dim = 0;
  if (next && state->type.elem != GRTC_ELEM_U32) next = grtc_chlo_bitcast(m, next, state->type.elem);
  if (!grt_status_is_ok(math.status)) return math.status;
  outs[0] = next;
  outs[1] = wide_outs[1];
  return grt_ok_status();
}

static grt_status_t grtc_chlo_rng_bit_generator(grtc_chlo_builder_t* b,
                                                grt_string_view_t name,
                                                grtc_tvalue_t* state,
                                                const grtc_ttype_t* results,
                                                const grtc_chlo_attrs_t* attrs,
                                                grtc_tvalue_t** outs) {
  char ts[GRTC_TTYPE_FORMAT_CAPACITY], to[GRTC_TTYPE_FORMAT_CAPACITY];
  grtc_ttype_format(&state->type, ts, sizeof(ts));
  grtc_ttype_format(&results[1], to, sizeof(to));
  if (attrs->rng_algorithm == GRTC_CHLO_RNG_NONE) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' requires 'rng_algorithm' (DEFAULT, THREE_FRY or PHILOX)",
                           GRT_SV_ARG(name));
  }
  // DEFAULT is PHILOX, as XLA's CPU and GPU compilers map it.
  bool philox = attrs->rng_algorithm != GRTC_CHLO_RNG_THREE_FRY;
  const grtc_ttype_t* in = &state->type;
  bool u64 = in->elem == GRTC_ELEM_U64 || in->elem == GRTC_ELEM_I64;
  bool u32 = in->elem == GRTC_ELEM_U32 || in->elem == GRTC_ELEM_I32;
  bool four_words = in->rank == 1 && u32 && in->dims[0] == 4;
  if (!four_words && (in->rank != 1 || !u64 ||
      (philox ? in->dims[0] != 2 && in->dims[0] != 3 : in->dims[0] != 2))) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           philox ? "'%.*s' with PHILOX or DEFAULT takes a state of two or "
                                    "three 64-bit integers (tensor<2xui64> or "
                                    "tensor<3xui64>) or four 32-bit words (tensor<4xui32>), "
                                    "got %s"
                                  : "'%.*s' with THREE_FRY takes a state of two 64-bit "
                                    "integers (tensor<2xui64>) or four 32-bit words "
                                    "(tensor<4xui32>), got %s",
                           GRT_SV_ARG(name), ts);
  }
  if (!grtc_ttype_equal(&results[0], in)) {
    char tr[GRTC_TTYPE_FORMAT_CAPACITY];
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' returns the state's type %s as its new state, not %s",
                           GRT_SV_ARG(name), ts,
                           grtc_ttype_format(&results[0], tr, sizeof(tr)));
  }
  if (four_words) return grtc_chlo_rng_bit_generator_words(b, name, state, results, attrs, outs);
  // Float outputs are the bits of the integer of their width (the spec's
  // "uniform random bits"), bitcast.
  grtc_elem_t out_elem = results[1].elem;
  bool wide = out_elem == GRTC_ELEM_U64 || out_elem == GRTC_ELEM_I64 ||
              out_elem == GRTC_ELEM_F64;
  if (!wide && out_elem != GRTC_ELEM_U32 && out_elem != GRTC_ELEM_I32 &&
      out_elem != GRTC_ELEM_F32) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' generates 32- or 64-bit integers or floats (i32, ui32, "
                           "f32, i64, ui64, f64), got %s",
                           GRT_SV_ARG(name), to);
  }
  const grtc_ttype_t* out = &results[1];
  if (philox) {
    grtc_chlo_math_t math = {b, grt_ok_status()};
    grtc_tvalue_t* s = in->elem == GRTC_ELEM_U64 ? state
                                                 : grtc_chlo_bitcast(&math, state, GRTC_ELEM_U64);
    grtc_tvalue_t *bits = NULL, *next = NULL;
    int64_t words = grtc_ttype_element_count(out) * (wide ? 2 : 1);
    if (s) grtc_chlo_philox(&math, s, in->dims[0], words, wide, out, &bits, &next);
    if (bits && bits->type.elem != out_elem) bits = grtc_chlo_bitcast(&math, bits, out_elem);
    if (next && in->elem != GRTC_ELEM_U64) next = grtc_chlo_bitcast(&math, next, in->elem);
    if (!grt_status_is_ok(math.status)) return math.status;
    outs[0] = next;
    outs[1] = bits;
    return grt_ok_status();
  }
  // The generated shape.
  grtc_ttype_t gen = *out;
  gen.elem = GRTC_ELEM_U64;
  int64_t split = -1;
  if (!wide) {
    if (out->rank == 0) {
      gen.rank = 1;
      gen.dims[0] = 1;
    } else {
      for (uint32_t d = 0; d < out->rank && split < 0; ++d) {
        if (out->dims[d] % 2 == 0) split = d;
      }
      for (uint32_t d = 0; d < out->rank && split < 0; ++d) {
        bool largest = true;
        for (uint32_t e = 0; e < out->rank; ++e) largest &= out->dims[e] <= out->dims[d];
        if (largest) split = d;
      }
      gen.dims[split] = (out->dims[split] + 1) / 2;
    }
  }
  int64_t count = grtc_ttype_element_count(&gen);
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_tvalue_t* s = grtc_chlo_bitcast(m, state, GRTC_ELEM_U64);
  if (in->elem == GRTC_ELEM_U64) s = state;
  grtc_tvalue_t* key = grtc_chlo_element(m, s, 0);
  grtc_tvalue_t* counter = grtc_chlo_element(m, s, 1);
  // The inputs: counter + the row-major index, split into words.
  grtc_tvalue_t* input = grtc_chlo_as_shape(m, counter, &gen);
  int64_t stride = 1;
  for (uint32_t d = gen.rank; d-- > 0;) {
    if (gen.dims[d] > 1) {
      grtc_tvalue_t* iota = grtc_chlo_make(m, GRTC_TOP_IOTA, NULL, 0, &gen);
      if (iota) iota->def->attrs.dim = d;
      input = ADD(input, stride == 1 ? iota : MUL(iota, grtc_chlo_bits(m, iota, (uint64_t)stride)));
    }
    stride *= gen.dims[d];
  }
  grtc_tvalue_t *x[2], *k[2];
  grtc_chlo_words(m, input, x);
  grtc_chlo_words(m, grtc_chlo_as_shape(m, key, &gen), k);
  grtc_chlo_threefry2x32(m, x, k);
  grtc_tvalue_t* bits = NULL;
  if (wide) {
    bits = grtc_chlo_binary(
        m, GRTC_TOP_OR, grtc_chlo_convert(m, x[0], GRTC_ELEM_U64),
        grtc_chlo_shift(m, GRTC_TOP_SHIFT_LEFT, grtc_chlo_convert(m, x[1], GRTC_ELEM_U64),
                        32));
  } else if (out->rank == 0) {
    grtc_ttype_t scalar = {0};
    bits = grtc_chlo_as_shape(m, x[0], &scalar);
  } else {
    // (.., H, ..) twice -> (.., H, 1, ..) -> concatenated (.., H, 2, ..) ->
    // (.., 2H, ..), sliced to the output's extent.
    grtc_ttype_t unit = gen, pair = gen, even = *out;
    for (uint32_t d = gen.rank; d > (uint32_t)split + 1; --d) {
      unit.dims[d] = gen.dims[d - 1];
    }
    unit.rank = pair.rank = gen.rank + 1;
    unit.dims[split + 1] = 1;
    memcpy(pair.dims, unit.dims, sizeof(pair.dims));
    pair.dims[split + 1] = 2;
    pair.elem = unit.elem = even.elem = GRTC_ELEM_U32;
    grtc_tvalue_t* parts[2] = {grtc_chlo_as_shape(m, x[0], &unit),
                               grtc_chlo_as_shape(m, x[1], &unit)};
    grtc_tvalue_t* joined = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, parts, 2, &pair);
    if (joined) joined->def->attrs.dim = split + 1;
    even.dims[split] = gen.dims[split] * 2;
    bits = grtc_chlo_as_shape(m, joined, &even);
    if (even.dims[split] != out->dims[split]) {
      int64_t start[GRTC_MAX_RANK] = {0}, strides[GRTC_MAX_RANK];
      for (uint32_t d = 0; d < out->rank; ++d) strides[d] = 1;
      grtc_ttype_t sliced = *out;
      sliced.elem = GRTC_ELEM_U32;
      bits = grtc_chlo_make(m, GRTC_TOP_SLICE, &bits, 1, &sliced);
      if (bits) {
        bits->def->attrs.start = grtc_tmodule_i64s(b->module, start, out->rank);
        bits->def->attrs.limit = grtc_tmodule_i64s(b->module, out->dims, out->rank);
        bits->def->attrs.strides = grtc_tmodule_i64s(b->module, strides, out->rank);
      }
    }
  }
  if (bits && bits->type.elem != out_elem) bits = grtc_chlo_bitcast(m, bits, out_elem);
  // The new state: the key, the counter advanced by G's element count.
  grtc_ttype_t one = *in;
  one.dims[0] = 1;
  one.elem = GRTC_ELEM_U64;
  grtc_tvalue_t* halves[2] = {
      grtc_chlo_as_shape(m, key, &one),
      grtc_chlo_as_shape(m, ADD(counter, grtc_chlo_bits(m, counter, (uint64_t)count)), &one)};
  grtc_ttype_t state_type = *in;
  state_type.elem = GRTC_ELEM_U64;
  grtc_tvalue_t* next = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, halves, 2, &state_type);
  if (next) next->def->attrs.dim = 0;
  if (next && in->elem != GRTC_ELEM_U64) next = grtc_chlo_bitcast(m, next, in->elem);
  if (!grt_status_is_ok(math.status)) return math.status;
  outs[0] = next;
  outs[1] = bits;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// top_k
//===----------------------------------------------------------------------===//

// top_k(x, k): the k largest entries of each row (last dim) in decreasing
// order and their indices, earlier indices first among equals: a stable
// sort of (x, iota) on x descending (total order, so NaN sorts first as
// XLA's does), then a slice of the first k.
static grt_status_t grtc_chlo_top_k(grtc_chlo_builder_t* b, grtc_tvalue_t* x,
                                    const grtc_ttype_t* results,
                                    const grtc_chlo_attrs_t* attrs, grtc_tvalue_t** outs) {
  const grtc_ttype_t* in = &x->type;
  char text[128];
  if (!attrs->has_k) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'chlo.top_k' requires the 'k' attribute");
  }
  if (in->rank == 0) {
    grtc_ttype_format(in, text, sizeof(text));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'chlo.top_k' takes a tensor of rank 1 or more, got %s", text);
  }
  uint32_t last = in->rank - 1;
  if (attrs->k < 0 || attrs->k > in->dims[last]) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'chlo.top_k' k = %lld must be between 0 and the last "
                           "dimension's size %lld", (long long)attrs->k,
                           (long long)in->dims[last]);
  }
  grtc_ttype_t values_type = *in;
  values_type.dims[last] = attrs->k;
  grtc_ttype_t indices_type = values_type;
  indices_type.elem = results[1].elem;
  bool shapes_match = grtc_ttype_same_shape(&results[0], &values_type) &&
                      results[0].elem == in->elem &&
                      grtc_ttype_same_shape(&results[1], &indices_type) &&
                      grtc_elem_is_integer(results[1].elem) &&
                      results[1].elem != GRTC_ELEM_I1;
  if (!shapes_match) {
    char want[128];
    grtc_ttype_format(&values_type, want, sizeof(want));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'chlo.top_k' returns %s and the same shape of integer "
                           "indices", want);
  }
  // The indices to carry: iota along the last dim.
  grtc_ttype_t iota_type = *in;
  iota_type.elem = results[1].elem;
  grtc_top_t* iota = NULL;
  GRT_RETURN_IF_ERROR(grtc_chlo_op(b, GRTC_TOP_IOTA, NULL, 0, &iota_type, &iota));
  iota->attrs.dim = last;
  // The stable sort with its comparator: lhs value > rhs value.
  grtc_tvalue_t* sort_operands[2] = {x, &iota->results[0]};
  grtc_ttype_t sort_types[2] = {*in, iota_type};
  grtc_top_t* sort = NULL;
  GRT_RETURN_IF_ERROR(
      grtc_top_create(b->module, GRTC_TOP_SORT, sort_operands, 2, sort_types, 2, 1, &sort));
  grtc_tblock_append(b->block, sort);
  GRT_RETURN_IF_ERROR(b->place(b->user, sort));
  sort->attrs.dim = last;
  sort->attrs.is_stable = true;
  grtc_ttype_t scalar = {0};
  scalar.elem = in->elem;
  grtc_ttype_t index_scalar = {0};
  index_scalar.elem = iota_type.elem;
  grtc_ttype_t args[4] = {scalar, scalar, index_scalar, index_scalar};
  grtc_tblock_t* comparator = NULL;
  GRT_RETURN_IF_ERROR(grtc_tblock_create(b->module, args, 4, &comparator));
  grtc_top_set_region(sort, 0, comparator);
  grtc_ttype_t predicate = {0};
  predicate.elem = GRTC_ELEM_I1;
  grtc_tvalue_t* pair[2] = {&comparator->args[0], &comparator->args[1]};
  grtc_top_t* greater = NULL;
  GRT_RETURN_IF_ERROR(grtc_chlo_op_in(b, comparator, GRTC_TOP_COMPARE, pair, 2,
                                          &predicate, &greater));
  greater->attrs.compare_direction = GRTC_CMP_GT;
  greater->attrs.compare_type = grtc_elem_is_float(in->elem) ? GRTC_CMP_TYPE_TOTALORDER
                                                             : GRTC_CMP_TYPE_DEFAULT;
  grtc_tvalue_t* verdict = &greater->results[0];
  grtc_top_t* yield = NULL;
  GRT_RETURN_IF_ERROR(
      grtc_chlo_op_in(b, comparator, GRTC_TOP_YIELD, &verdict, 1, NULL, &yield));
  // The first k of each row.
  int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < in->rank; ++d) {
    limit[d] = values_type.dims[d];
    strides[d] = 1;
  }
  const grtc_ttype_t* sliced[2] = {&values_type, &indices_type};
  for (uint32_t i = 0; i < 2; ++i) {
    grtc_tvalue_t* sorted = &sort->results[i];
    grtc_top_t* slice = NULL;
    GRT_RETURN_IF_ERROR(grtc_chlo_op(b, GRTC_TOP_SLICE, &sorted, 1, sliced[i], &slice));
    slice->attrs.start = grtc_tmodule_i64s(b->module, start, in->rank);
    slice->attrs.limit = grtc_tmodule_i64s(b->module, limit, in->rank);
    slice->attrs.strides = grtc_tmodule_i64s(b->module, strides, in->rank);
    outs[i] = &slice->results[0];
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// rng (UNIFORM, NORMAL)
//===----------------------------------------------------------------------===//

// stablehlo.rng's numbers are implementation-defined. Here each rng op
// draws THREE_FRY bits (as rng_bit_generator makes them) under a key fixed
// at compile time from the op's ordinal in its module: a program gives the
// same numbers on every run and every call, and its rng ops independent
// streams. UNIFORM floats take 23 (f32, and f16/bf16 computed in f32) or 52
// (f64) random mantissa bits for u in [0, 1) and give a + (b - a) u, moved
// below b where rounding reached it; UNIFORM integers (and i1) give
// a + bits mod (b - a) in the unsigned type of their width (32 bits for
// narrower ones); NORMAL gives a + b sqrt(-2 log(1 - u1)) cos(2 pi u2)
// (Box-Muller) from two streams.

// splitmix64's finalizer: well-spread keys from small ordinals.
static uint64_t grtc_chlo_rng_key(uint64_t ordinal, uint64_t stream) {
  uint64_t z = ordinal * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// THREE_FRY bits (|elem| U32 or U64) of |shape| under |key|.
static grtc_tvalue_t* grtc_chlo_rng_bits(grtc_chlo_math_t* m, const grtc_ttype_t* shape,
                                         grtc_elem_t elem, uint64_t key) {
  if (!grt_status_is_ok(m->status)) return NULL;
  grtc_ttype_t types[2];
  memset(&types[0], 0, sizeof(types[0]));
  types[0].elem = GRTC_ELEM_U64;
  types[0].rank = 1;
  types[0].dims[0] = 2;
  types[1] = *shape;
  types[1].elem = elem;
  uint8_t* words = grtc_tmodule_alloc(m->b->module, 16);  // zeroed: the counter 0
  if (!words) {
    m->status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory for a constant");
    return NULL;
  }
  grtc_scalar_value_t v;
  v.u = key;
  grtc_eval_store(GRTC_ELEM_U64, v, words);
  grtc_tvalue_t* state = grtc_chlo_constant(m, &types[0], words, 16);
  if (!state) return NULL;
  grtc_chlo_attrs_t attrs;
  memset(&attrs, 0, sizeof(attrs));
  attrs.rng_algorithm = GRTC_CHLO_RNG_THREE_FRY;
  grtc_tvalue_t* outs[2] = {NULL, NULL};
  m->status = grtc_chlo_rng_bit_generator(m->b, grt_make_cstring_view("stablehlo.rng"),
                                          state, types, &attrs, outs);
  return grt_status_is_ok(m->status) ? outs[1] : NULL;
}

// Uniform floats in [0, 1) of |shape| (f32 or f64: |work|) under |key|.
static grtc_tvalue_t* grtc_chlo_rng_unit(grtc_chlo_math_t* m, const grtc_ttype_t* shape,
                                         grtc_elem_t work, uint64_t key) {
  bool wide = work == GRTC_ELEM_F64;
  grtc_tvalue_t* bits = grtc_chlo_rng_bits(m, shape, wide ? GRTC_ELEM_U64 : GRTC_ELEM_U32,
                                           key);
  if (!bits) return NULL;
  // The random bits as the mantissa of a float in [1, 2), less 1.
  grtc_tvalue_t* mantissa = grtc_chlo_shift(m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, bits,
                                            wide ? 12 : 9);
  grtc_tvalue_t* one_to_two = grtc_chlo_bitcast(
      m, grtc_chlo_binary(m, GRTC_TOP_OR, mantissa,
                          grtc_chlo_bits(m, bits, wide ? 0x3FF0000000000000ull : 0x3F800000u)),
      work);
  return one_to_two ? SUB(one_to_two, grtc_chlo_splat(m, one_to_two, 1.0)) : NULL;
}

static grt_status_t grtc_chlo_rng(grtc_chlo_builder_t* b, grt_string_view_t name,
                                  grtc_tvalue_t* const* operands, const grtc_ttype_t* result,
                                  const grtc_chlo_attrs_t* attrs, grtc_tvalue_t** out) {
  char ta[GRTC_TTYPE_FORMAT_CAPACITY], tb[GRTC_TTYPE_FORMAT_CAPACITY];
  char ts[GRTC_TTYPE_FORMAT_CAPACITY], tr[GRTC_TTYPE_FORMAT_CAPACITY];
  grtc_ttype_format(&operands[0]->type, ta, sizeof(ta));
  grtc_ttype_format(&operands[1]->type, tb, sizeof(tb));
  grtc_ttype_format(&operands[2]->type, ts, sizeof(ts));
  grtc_ttype_format(result, tr, sizeof(tr));
  if (attrs->rng_distribution == GRTC_CHLO_RNG_DISTRIBUTION_NONE) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' requires 'rng_distribution' (UNIFORM or NORMAL)",
                           GRT_SV_ARG(name));
  }
  bool normal = attrs->rng_distribution == GRTC_CHLO_RNG_NORMAL;
  grtc_elem_t elem = result->elem;
  bool is_float = grtc_elem_is_float(elem);
  if (normal ? !is_float : !is_float && !grtc_elem_is_integer(elem)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           normal ? "'%.*s' with NORMAL returns floats, got %s"
                                  : "'%.*s' with UNIFORM returns integers, i1 or floats, "
                                    "got %s",
                           GRT_SV_ARG(name), tr);
  }
  if (!grtc_ttype_is_static(result)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' with a symbolic dimension ('?') in its result %s is not "
                           "supported", GRT_SV_ARG(name), tr);
  }
  for (uint32_t i = 0; i < 2; ++i) {
    if (operands[i]->type.rank != 0 || operands[i]->type.elem != elem) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "'%.*s' takes a and b as rank-0 tensors of the result's "
                             "element type (%s), got %s and %s",
                             GRT_SV_ARG(name), tr, ta, tb);
    }
  }
  const grtc_ttype_t* shape = &operands[2]->type;
  if (shape->rank != 1 || !grtc_elem_is_integer(shape->elem) ||
      shape->elem == GRTC_ELEM_I1 || shape->dims[0] != (int64_t)result->rank) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes the shape as a rank-1 integer tensor of the "
                           "result's rank %u (result %s), got %s",
                           GRT_SV_ARG(name), result->rank, tr, ts);
  }
  // A constant shape must be the result's.
  const grtc_top_t* def = operands[2]->def;
  if (def && def->kind == GRTC_TOP_CONSTANT && def->attrs.constant.data) {
    size_t size = grtc_elem_byte_size(shape->elem);
    for (uint32_t d = 0; d < result->rank; ++d) {
      size_t at = def->attrs.constant.splat ? 0 : d * size;
      if (at + size > def->attrs.constant.size) break;
      int64_t v = grtc_eval_load(shape->elem, def->attrs.constant.data + at).i;
      if (v != result->dims[d]) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "'%.*s' has the shape operand's dim %u = %lld, but its "
                               "result is %s", GRT_SV_ARG(name), d, (long long)v, tr);
      }
    }
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_tvalue_t* a = grtc_chlo_as_shape(m, operands[0], result);
  grtc_tvalue_t* c = grtc_chlo_as_shape(m, operands[1], result);
  uint64_t ordinal = attrs->rng_ordinal;
  grtc_tvalue_t* r = NULL;
  if (is_float) {
    grtc_elem_t work = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
    grtc_tvalue_t* wa = grtc_chlo_convert(m, a, work);
    grtc_tvalue_t* wb = grtc_chlo_convert(m, c, work);
    grtc_tvalue_t* u = grtc_chlo_rng_unit(m, result, work, grtc_chlo_rng_key(ordinal, 0));
    if (normal) {
      grtc_tvalue_t* v = grtc_chlo_rng_unit(m, result, work, grtc_chlo_rng_key(ordinal, 1));
      grtc_tvalue_t* one = u ? grtc_chlo_splat(m, u, 1.0) : NULL;
      grtc_tvalue_t* radius = u ? SQRT(MUL(grtc_chlo_splat(m, u, -2.0), LOG(SUB(one, u))))
                                : NULL;
      grtc_tvalue_t* z = v ? MUL(radius, COS(MUL(grtc_chlo_splat(m, v, 2 * GRTC_CHLO_PI), v)))
                           : NULL;
      r = grtc_chlo_convert(m, ADD(wa, MUL(wb, z)), elem);
    } else {
      r = grtc_chlo_convert(m, ADD(wa, MUL(SUB(wb, wa), u)), elem);
      // Below b: rounding (of the product, or to a narrower type) can reach it.
      if (r) r = SELECT(CMP(LT, r, c), r, grtc_chlo_next_after(m, c, a));
    }
  } else {
    grtc_elem_t work = grtc_elem_bit_width(elem) == 64 ? GRTC_ELEM_U64 : GRTC_ELEM_U32;
    grtc_tvalue_t* ua = grtc_chlo_convert(m, a, work);
    grtc_tvalue_t* range = SUB(grtc_chlo_convert(m, c, work), ua);
    // An empty range (a = b, undefined) takes a.
    grtc_tvalue_t* zero = range ? grtc_chlo_bits(m, range, 0) : NULL;
    range = range ? SELECT(grtc_chlo_compare_bits(m, GRTC_CMP_EQ, range, zero),
                           grtc_chlo_bits(m, range, 1), range)
                  : NULL;
    grtc_tvalue_t* bits = grtc_chlo_rng_bits(m, result, work, grtc_chlo_rng_key(ordinal, 0));
    r = grtc_chlo_convert(m, ADD(ua, grtc_chlo_binary(m, GRTC_TOP_REMAINDER, bits, range)),
                          elem);
  }
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = r;
  return grt_ok_status();
}

bool grtc_chlo_handles(grt_string_view_t name, uint32_t* out_operand_count,
                       uint32_t* out_result_count) {
  *out_result_count = 1;
  if (grt_string_view_equal_cstring(name, "chlo.top_k")) {
    *out_operand_count = 1;
    *out_result_count = 2;
    return true;
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.rng_bit_generator")) {
    *out_operand_count = 1;
    *out_result_count = 2;
    return true;
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.rng")) {
    *out_operand_count = 3;
    return true;
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.batch_norm_inference") ||
      grt_string_view_equal_cstring(name, "stablehlo.batch_norm_grad")) {
    *out_operand_count = 5;
    *out_result_count = grt_string_view_equal_cstring(name, "stablehlo.batch_norm_grad") ? 3 : 1;
    return true;
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.batch_norm_training")) {
    *out_operand_count = 3;
    *out_result_count = 3;
    return true;
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.reduce_precision") ||
      grt_string_view_equal_cstring(name, "stablehlo.cholesky") ||
      grt_string_view_equal_cstring(name, "stablehlo.square")) {
    *out_operand_count = 1;
    return true;
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.triangular_solve") ||
      grt_string_view_equal_cstring(name, "stablehlo.torch_index_select") ||
      grt_string_view_equal_cstring(name, GRTC_CHLO_HOUSEHOLDER_NAME)) {
    *out_operand_count = 2;
    return true;
  }
  if (grt_string_view_equal_cstring(name, "chlo.ragged_dot")) {
    *out_operand_count = 3;
    return true;
  }
  if (grt_string_view_equal_cstring(name, "chlo.next_after") ||
      grt_string_view_equal_cstring(name, "chlo.broadcast_next_after") ||
      grt_string_view_equal_cstring(name, "chlo.mulhi") ||
      grt_string_view_equal_cstring(name, "chlo.zeta") ||
      grt_string_view_equal_cstring(name, "chlo.polygamma")) {
    *out_operand_count = 2;
    return true;
  }
  for (size_t i = 0; i < GRTC_CHLO_COUNT(grtc_chlo_math_ops); ++i) {
    if (grt_string_view_equal_cstring(name, grtc_chlo_math_ops[i].name)) {
      *out_operand_count = 1;
      return true;
    }
  }
  for (size_t i = 0; i < GRTC_CHLO_COUNT(grtc_chlo_class_ops); ++i) {
    if (grt_string_view_equal_cstring(name, grtc_chlo_class_ops[i].name)) {
      *out_operand_count = 1;
      return true;
    }
  }
  for (size_t i = 0; i < GRTC_CHLO_COUNT(grtc_chlo_broadcast_ops); ++i) {
    if (grt_string_view_equal_cstring(name, grtc_chlo_broadcast_ops[i].name)) {
      *out_operand_count = grtc_chlo_broadcast_ops[i].operand_count;
      return true;
    }
  }
  return false;
}

static grt_status_t grtc_chlo_lower_math(grtc_chlo_builder_t* b, grt_string_view_t name,
                                         const grtc_chlo_math_entry_t* entry,
                                         grtc_tvalue_t* operand,
                                         const grtc_ttype_t* result, grtc_tvalue_t** out) {
  grtc_chlo_math_fn_t fn = entry->fn;
  grtc_elem_t elem = operand->type.elem;
  if (elem == GRTC_ELEM_F64 && !entry->f64) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "'%.*s' on f64 is not supported yet (f16, bf16 and f32 are)",
                           GRT_SV_ARG(name));
  }
  if (!grtc_elem_is_float(elem)) {
    char type[128];
    grtc_ttype_format(&operand->type, type, sizeof(type));
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes f16, bf16, f32 or f64 tensors, got %s",
                           GRT_SV_ARG(name), type);
  }
  if (result->elem != elem || result->rank != operand->type.rank) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' returns its operand's type", GRT_SV_ARG(name));
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_elem_t work = elem == GRTC_ELEM_F64 ? GRTC_ELEM_F64 : GRTC_ELEM_F32;
  grtc_tvalue_t* r = grtc_chlo_convert(m, fn(m, grtc_chlo_convert(m, operand, work)), elem);
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = r;
  return grt_ok_status();
}

// next_after (operands of one shape) and broadcast_next_after (broadcast to
// the result's shape first).
static grt_status_t grtc_chlo_lower_next_after(grtc_chlo_builder_t* b,
                                               grt_string_view_t name, bool same_shape,
                                               grtc_tvalue_t* const* operands,
                                               const grtc_ttype_t* result,
                                               const grtc_chlo_attrs_t* attrs,
                                               grtc_tvalue_t** out) {
  char types[2][128];
  grtc_ttype_format(&operands[0]->type, types[0], sizeof(types[0]));
  grtc_ttype_format(&operands[1]->type, types[1], sizeof(types[1]));
  if (!grtc_elem_is_float(operands[0]->type.elem) ||
      operands[0]->type.elem != operands[1]->type.elem || result->elem != operands[0]->type.elem) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes two tensors of one float type and returns it, "
                           "got %s and %s", GRT_SV_ARG(name), types[0], types[1]);
  }
  if (same_shape && (!grtc_ttype_same_shape(&operands[0]->type, &operands[1]->type) ||
                     !grtc_ttype_same_shape(&operands[0]->type, result))) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'%.*s' takes two tensors of the result's shape, got %s and %s "
                           "(chlo.broadcast_next_after broadcasts)", GRT_SV_ARG(name),
                           types[0], types[1]);
  }
  grtc_tvalue_t* wide[2];
  for (uint32_t i = 0; i < 2; ++i) {
    GRT_RETURN_IF_ERROR(grtc_chlo_broadcast_to(b, operands[i], result, attrs, i, &wide[i]));
  }
  grtc_chlo_math_t math = {b, grt_ok_status()};
  grtc_tvalue_t* r = grtc_chlo_next_after(&math, wide[0], wide[1]);
  if (!grt_status_is_ok(math.status)) return math.status;
  *out = r;
  return grt_ok_status();
}

grt_status_t grtc_chlo_lower(grtc_chlo_builder_t* b, grt_string_view_t name,
                             grtc_tvalue_t* const* operands, uint32_t operand_count,
                             const grtc_ttype_t* results, uint32_t result_count,
                             const grtc_chlo_attrs_t* attrs, grtc_tvalue_t** outs) {
  uint32_t expected = 0, expected_results = 0;
  if (!grtc_chlo_handles(name, &expected, &expected_results)) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED, "'%.*s' is not supported",
                           GRT_SV_ARG(name));
  }
  if (operand_count != expected) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "'%.*s' takes %u operands, got %u",
                           GRT_SV_ARG(name), expected, operand_count);
  }
  if (result_count != expected_results) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "'%.*s' has %u results, got %u",
                           GRT_SV_ARG(name), expected_results, result_count);
  }
  if (grt_string_view_equal_cstring(name, "chlo.top_k")) {
    return grtc_chlo_top_k(b, operands[0], results, attrs, outs);
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.rng_bit_generator")) {
    return grtc_chlo_rng_bit_generator(b, name, operands[0], results, attrs, outs);
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.rng")) {
    return grtc_chlo_rng(b, name, operands, results, attrs, outs);
  }
  static const struct {
    const char* name;
    grtc_chlo_batch_norm_t form;
  } batch_norms[] = {
      {"stablehlo.batch_norm_inference", GRTC_CHLO_BATCH_NORM_INFERENCE},
      {"stablehlo.batch_norm_training", GRTC_CHLO_BATCH_NORM_TRAINING},
      {"stablehlo.batch_norm_grad", GRTC_CHLO_BATCH_NORM_GRAD},
  };
  for (size_t i = 0; i < GRTC_CHLO_COUNT(batch_norms); ++i) {
    if (grt_string_view_equal_cstring(name, batch_norms[i].name)) {
      return grtc_chlo_batch_norm(b, name, batch_norms[i].form, operands, operand_count,
                                  results, result_count, attrs, outs);
    }
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.reduce_precision")) {
    return grtc_chlo_reduce_precision(b, name, operands[0], &results[0], attrs, &outs[0]);
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.triangular_solve")) {
    return grtc_chlo_triangular_solve(b, name, operands, &results[0], attrs, &outs[0]);
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.square")) {
    return grtc_chlo_square(b, name, operands[0], &results[0], &outs[0]);
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.cholesky")) {
    return grtc_chlo_cholesky(b, name, operands[0], &results[0], attrs, &outs[0]);
  }
  if (grt_string_view_equal_cstring(name, "stablehlo.torch_index_select")) {
    return grtc_chlo_torch_index_select(b, name, operands, &results[0], attrs, &outs[0]);
  }
  if (grt_string_view_equal_cstring(name, GRTC_CHLO_HOUSEHOLDER_NAME)) {
    return grtc_chlo_householder_product(b, name, operands, &results[0], &outs[0]);
  }
  if (grt_string_view_equal_cstring(name, "chlo.ragged_dot")) {
    return grtc_chlo_ragged_dot(b, name, operands, &results[0], attrs, &outs[0]);
  }
  const grtc_ttype_t* result = &results[0];
  grtc_tvalue_t** out = &outs[0];
  for (size_t i = 0; i < GRTC_CHLO_COUNT(grtc_chlo_math_ops); ++i) {
    if (grt_string_view_equal_cstring(name, grtc_chlo_math_ops[i].name)) {
      return grtc_chlo_lower_math(b, name, &grtc_chlo_math_ops[i], operands[0], result,
                                  out);
    }
  }
  for (size_t i = 0; i < GRTC_CHLO_COUNT(grtc_chlo_class_ops); ++i) {
    const grtc_chlo_class_entry_t* entry = &grtc_chlo_class_ops[i];
    if (!grt_string_view_equal_cstring(name, entry->name)) continue;
    grtc_tvalue_t* x = operands[0];
    if (!grtc_elem_is_float(x->type.elem)) {
      char type[128];
      grtc_ttype_format(&x->type, type, sizeof(type));
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "'%.*s' takes f16, bf16, f32 or f64 tensors, got %s",
                             GRT_SV_ARG(name), type);
    }
    grtc_chlo_math_t math = {b, grt_ok_status()};
    grtc_chlo_math_t* m = &math;
    grtc_tvalue_t* value = entry->absolute ? ABS(x) : x;
    grtc_tvalue_t* r = grtc_chlo_compare(m, entry->direction, value, C(entry->against));
    if (!grt_status_is_ok(math.status)) return math.status;
    *out = r;
    return grt_ok_status();
  }
  if (grt_string_view_equal_cstring(name, "chlo.mulhi")) {
    return grtc_chlo_lower_mulhi(b, name, operands, result, out);
  }
  if (grt_string_view_equal_cstring(name, "chlo.zeta") ||
      grt_string_view_equal_cstring(name, "chlo.polygamma")) {
    return grtc_chlo_lower_special2(b, name, operands, result, out);
  }
  bool next_after = grt_string_view_equal_cstring(name, "chlo.next_after");
  if (next_after || grt_string_view_equal_cstring(name, "chlo.broadcast_next_after")) {
    return grtc_chlo_lower_next_after(b, name, next_after, operands, result, attrs, out);
  }
  const grtc_chlo_broadcast_entry_t* entry = NULL;
  for (size_t i = 0; i < GRTC_CHLO_COUNT(grtc_chlo_broadcast_ops); ++i) {
    if (grt_string_view_equal_cstring(name, grtc_chlo_broadcast_ops[i].name)) {
      entry = &grtc_chlo_broadcast_ops[i];
    }
  }
  grtc_tvalue_t* wide[3] = {NULL, NULL, NULL};
  for (uint32_t i = 0; i < operand_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_chlo_broadcast_to(b, operands[i], result, attrs, i, &wide[i]));
  }
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_chlo_op(b, entry->kind, wide, operand_count, result, &top));
  if (entry->kind == GRTC_TOP_COMPARE) {
    top->attrs.compare_direction = attrs->compare_direction;
    top->attrs.compare_type = attrs->compare_type;
  }
  *out = &top->results[0];
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// bitcast_convert between element types of different widths
//===----------------------------------------------------------------------===//

static grtc_elem_t grtc_chlo_unsigned_of_width(uint32_t bits) {
  switch (bits) {
    case 2:  // i2/i4 in their ui8 holders
    case 4:
    case 8: return GRTC_ELEM_U8;
    case 16: return GRTC_ELEM_U16;
    case 32: return GRTC_ELEM_U32;
    default: return GRTC_ELEM_U64;
  }
}

static bool grtc_chlo_bitcast_bits_match(const grtc_ttype_t* from, uint32_t from_bits,
                                         const grtc_ttype_t* to, uint32_t to_bits) {
  if (from_bits == to_bits) return grtc_ttype_same_shape(from, to);
  bool packing = from_bits < to_bits;
  const grtc_ttype_t* parts_type = packing ? from : to;
  const grtc_ttype_t* wide_type = packing ? to : from;
  uint32_t width = packing ? to_bits : from_bits;
  uint32_t part = packing ? from_bits : to_bits;
  bool shaped = part && width % part == 0 && parts_type->rank == wide_type->rank + 1 &&
                parts_type->dims[parts_type->rank - 1] == (int64_t)(width / part);
  for (uint32_t d = 0; shaped && d < wide_type->rank; ++d) {
    shaped = parts_type->dims[d] == wide_type->dims[d];
  }
  return shaped && grtc_ttype_is_static(from) && grtc_ttype_is_static(to);
}

bool grtc_chlo_bitcast_shapes_match(const grtc_ttype_t* from, const grtc_ttype_t* to) {
  return grtc_chlo_bitcast_bits_match(from, grtc_elem_bit_width(from->elem), to,
                                      grtc_elem_bit_width(to->elem));
}

// |x| (a ui8 holding |bits| < 8 low bits) as an i8 holder: sign-extended.
static grtc_tvalue_t* grtc_chlo_sign_extend_narrow(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                                   uint32_t bits) {
  grtc_tvalue_t* shift = grtc_chlo_bits(m, x, 8 - bits);
  return grtc_chlo_binary(m, GRTC_TOP_SHIFT_RIGHT_ARITHMETIC,
                          grtc_chlo_binary(m, GRTC_TOP_SHIFT_LEFT, x, shift), shift);
}

grt_status_t grtc_chlo_bitcast_widths(grtc_chlo_builder_t* builder, grtc_tvalue_t* x,
                                      const grtc_ttype_t* result, grtc_tvalue_t** out) {
  return grtc_chlo_bitcast_bits(builder, x, grtc_elem_bit_width(x->type.elem), result,
                                grtc_elem_bit_width(result->elem), out);
}

grt_status_t grtc_chlo_bitcast_bits(grtc_chlo_builder_t* builder, grtc_tvalue_t* x,
                                    uint32_t from_bits, const grtc_ttype_t* result,
                                    uint32_t to_bits, grtc_tvalue_t** out) {
  *out = NULL;
  bool packing = from_bits < to_bits;
  const grtc_ttype_t* parts_type = packing ? &x->type : result;
  const grtc_ttype_t* wide_type = packing ? result : &x->type;
  uint32_t width = packing ? to_bits : from_bits;
  uint32_t part = packing ? from_bits : to_bits;
  char a[GRTC_TTYPE_FORMAT_CAPACITY], b[GRTC_TTYPE_FORMAT_CAPACITY];
  if (from_bits == to_bits ||
      !grtc_chlo_bitcast_bits_match(&x->type, from_bits, result, to_bits)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "'stablehlo.bitcast_convert' from %s to %s: the narrower "
                           "element type's tensor has the other's shape and a last "
                           "dimension of the ratio of the bit widths (static)",
                           grtc_ttype_format(&x->type, a, sizeof(a)),
                           grtc_ttype_format(result, b, sizeof(b)));
  }
  grtc_chlo_math_t m = {builder, grt_ok_status()};
  grtc_elem_t u = grtc_chlo_unsigned_of_width(width);
  // The parts as unsigned integers of their own width (i1 stays i1: its
  // converts to and from u are exact).
  grtc_elem_t part_u = part == 1 ? GRTC_ELEM_I1 : grtc_chlo_unsigned_of_width(part);
  grtc_ttype_t parts_u = *parts_type;
  parts_u.elem = u;
  // Part i of an element is element i of the last dimension, part 0 the
  // least significant (little-endian, as the StableHLO interpreter and
  // XLA on CPUs order them): shifted by i * part bits.
  grtc_tvalue_t* iota = grtc_chlo_make(&m, GRTC_TOP_IOTA, NULL, 0, &parts_u);
  if (iota) iota->def->attrs.dim = parts_type->rank - 1;
  grtc_tvalue_t* shift =
      part == 1 ? iota : grtc_chlo_binary(&m, GRTC_TOP_MULTIPLY, iota,
                                          grtc_chlo_bits(&m, iota, part));
  if (packing) {
    grtc_tvalue_t* parts = x->type.elem == part_u ? x : grtc_chlo_bitcast(&m, x, part_u);
    grtc_tvalue_t* wide = grtc_chlo_convert(&m, parts, u);
    if (part == 2 || part == 4) {
      // i2/i4 holders carry sign-extension bits above the value's.
      wide = grtc_chlo_binary(&m, GRTC_TOP_AND, wide,
                              grtc_chlo_bits(&m, wide, (UINT64_C(1) << part) - 1));
    }
    grtc_tvalue_t* shifted = grtc_chlo_binary(&m, GRTC_TOP_SHIFT_LEFT, wide, shift);
    grtc_ttype_t scalar = {0};
    scalar.elem = u;
    grtc_scalar_value_t zero;
    zero.u = 0;
    grtc_tvalue_t* operands[2] = {shifted, grtc_chlo_splat_type(&m, &scalar, zero)};
    GRT_RETURN_IF_ERROR(m.status);
    grtc_ttype_t packed = *wide_type;
    packed.elem = u;
    grtc_top_t* reduce = NULL;
    GRT_RETURN_IF_ERROR(grtc_top_create(builder->module, GRTC_TOP_REDUCE, operands, 2, &packed,
                                        1, 1, &reduce));
    grtc_tblock_append(builder->block, reduce);
    GRT_RETURN_IF_ERROR(builder->place(builder->user, reduce));
    int64_t dim = parts_type->rank - 1;
    reduce->attrs.dims = grtc_tmodule_i64s(builder->module, &dim, 1);
    GRT_RETURN_IF_ERROR(grtc_top_set_scalar_body(builder->module, reduce, GRTC_TOP_OR, u));
    grtc_tvalue_t* r = &reduce->results[0];
    if (width < 8 && result->elem == GRTC_ELEM_I8) {
      r = grtc_chlo_sign_extend_narrow(&m, grtc_chlo_bitcast(&m, r, GRTC_ELEM_I8), width);
    } else if (result->elem != u) {
      r = grtc_chlo_bitcast(&m, r, result->elem);
    }
    GRT_RETURN_IF_ERROR(m.status);
    *out = r;
    return grt_ok_status();
  }
  grtc_tvalue_t* word = x->type.elem == u ? x : grtc_chlo_bitcast(&m, x, u);
  grtc_tvalue_t* spread = grtc_chlo_make(&m, GRTC_TOP_BROADCAST_IN_DIM, &word, 1, &parts_u);
  if (spread) {
    int64_t dims[GRTC_MAX_RANK];
    for (uint32_t d = 0; d < wide_type->rank; ++d) dims[d] = d;
    spread->def->attrs.dims = grtc_tmodule_i64s(builder->module, dims, wide_type->rank);
  }
  grtc_tvalue_t* bits = grtc_chlo_binary(
      &m, GRTC_TOP_AND, grtc_chlo_binary(&m, GRTC_TOP_SHIFT_RIGHT_LOGICAL, spread, shift),
      grtc_chlo_bits(&m, spread, (UINT64_C(1) << part) - 1));
  grtc_tvalue_t* r = grtc_chlo_convert(&m, bits, part_u);
  if (r && part < 8 && part > 1 && result->elem == GRTC_ELEM_I8) {
    r = grtc_chlo_sign_extend_narrow(&m, grtc_chlo_bitcast(&m, r, GRTC_ELEM_I8), part);
  } else if (r && result->elem != part_u) {
    r = grtc_chlo_bitcast(&m, r, result->elem);
  }
  GRT_RETURN_IF_ERROR(m.status);
  *out = r;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Packed i2/ui2/i4/ui4 arguments and results
//===----------------------------------------------------------------------===//

grtc_ttype_t grtc_chlo_packed_type(int64_t count, uint32_t bits) {
  grtc_ttype_t type;
  memset(&type, 0, sizeof(type));
  type.elem = GRTC_ELEM_U8;
  type.rank = 1;
  int64_t per = 8 / (int64_t)bits;
  type.dims[0] = (count + per - 1) / per;
  return type;
}

grt_status_t grtc_chlo_unpack_boundary(grtc_chlo_builder_t* builder, grtc_tvalue_t* packed,
                                       uint32_t bits, const grtc_ttype_t* holder,
                                       grtc_tvalue_t** out) {
  *out = NULL;
  grtc_chlo_math_t m = {builder, grt_ok_status()};
  int64_t count = grtc_ttype_element_count(holder);
  int64_t per = 8 / (int64_t)bits;
  int64_t bytes = packed->type.dims[0];
  if (count == 0) {
    grtc_scalar_value_t zero;
    zero.u = 0;
    *out = grtc_chlo_splat_type(&m, holder, zero);
    return m.status;
  }
  // [M, per] fields, then the first n of them in the holder's shape.
  grtc_ttype_t parts;
  memset(&parts, 0, sizeof(parts));
  parts.elem = holder->elem;
  parts.rank = 2;
  parts.dims[0] = bytes;
  parts.dims[1] = per;
  grtc_tvalue_t* fields = NULL;
  GRT_RETURN_IF_ERROR(grtc_chlo_bitcast_bits(builder, packed, 8, &parts, bits, &fields));
  grtc_ttype_t flat = parts;
  flat.rank = 1;
  flat.dims[0] = bytes * per;
  grtc_tvalue_t* v = grtc_chlo_as_shape(&m, fields, &flat);
  if (bytes * per != count) {
    int64_t start = 0, limit = count, stride = 1;
    grtc_ttype_t cut = flat;
    cut.dims[0] = count;
    v = grtc_chlo_make(&m, GRTC_TOP_SLICE, &v, 1, &cut);
    if (v) {
      v->def->attrs.start = grtc_tmodule_i64s(builder->module, &start, 1);
      v->def->attrs.limit = grtc_tmodule_i64s(builder->module, &limit, 1);
      v->def->attrs.strides = grtc_tmodule_i64s(builder->module, &stride, 1);
    }
  }
  if (holder->rank != 1) v = grtc_chlo_as_shape(&m, v, holder);
  GRT_RETURN_IF_ERROR(m.status);
  *out = v;
  return grt_ok_status();
}

grt_status_t grtc_chlo_pack_boundary(grtc_chlo_builder_t* builder, grtc_tvalue_t* x,
                                     uint32_t bits, grtc_tvalue_t** out) {
  *out = NULL;
  grtc_chlo_math_t m = {builder, grt_ok_status()};
  int64_t count = grtc_ttype_element_count(&x->type);
  int64_t per = 8 / (int64_t)bits;
  grtc_ttype_t packed = grtc_chlo_packed_type(count, bits);
  int64_t bytes = packed.dims[0];
  grtc_scalar_value_t zero;
  zero.u = 0;
  if (count == 0) {
    *out = grtc_chlo_splat_type(&m, &packed, zero);
    return m.status;
  }
  grtc_ttype_t flat;
  memset(&flat, 0, sizeof(flat));
  flat.elem = x->type.elem;
  flat.rank = 1;
  flat.dims[0] = count;
  grtc_tvalue_t* v = x->type.rank == 1 ? x : grtc_chlo_as_shape(&m, x, &flat);
  if (bytes * per != count) {
    // Zero fields fill the last byte.
    grtc_ttype_t fill = flat;
    fill.dims[0] = bytes * per - count;
    grtc_tvalue_t* parts[2] = {v, grtc_chlo_splat_type(&m, &fill, zero)};
    v = parts[1] ? grtc_chlo_concat(&m, parts, 2, 0) : NULL;
  }
  grtc_ttype_t fields = flat;
  fields.rank = 2;
  fields.dims[0] = bytes;
  fields.dims[1] = per;
  v = grtc_chlo_as_shape(&m, v, &fields);
  GRT_RETURN_IF_ERROR(m.status);
  return grtc_chlo_bitcast_bits(builder, v, bits, &packed, 8, out);
}

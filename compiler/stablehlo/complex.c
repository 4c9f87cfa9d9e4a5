// Complex numbers as pairs of real tensors (complex.h).
#include "compiler/stablehlo/complex.h"

#include <math.h>
#include <string.h>

#include "compiler/stablehlo/compose_ops.h"

#define C(like, v) grtc_chlo_splat(m, (like), (v))


static grtc_complex_t grtc_complex_make(grtc_tvalue_t* re, grtc_tvalue_t* im) {
  grtc_complex_t z = {re, im};
  return z;
}

//===----------------------------------------------------------------------===//
// Interleaved <-> parts
//===----------------------------------------------------------------------===//

static grtc_tvalue_t* grtc_complex_part(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                        int64_t index) {
  if (!x) return NULL;
  const grtc_ttype_t* type = &x->type;
  uint32_t rank = type->rank;
  int64_t start[GRTC_MAX_RANK], limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < rank; ++i) {
    start[i] = 0;
    limit[i] = type->dims[i];
    strides[i] = 1;
  }
  start[rank - 1] = index;
  limit[rank - 1] = index + 1;
  grtc_ttype_t sliced = *type;
  sliced.dims[rank - 1] = 1;
  grtc_tvalue_t* slice = grtc_chlo_make(m, GRTC_TOP_SLICE, &x, 1, &sliced);
  if (!slice) return NULL;
  slice->def->attrs.start = grtc_tmodule_i64s(m->b->module, start, rank);
  slice->def->attrs.limit = grtc_tmodule_i64s(m->b->module, limit, rank);
  slice->def->attrs.strides = grtc_tmodule_i64s(m->b->module, strides, rank);
  grtc_ttype_t part = sliced;
  part.rank = rank - 1;
  return grtc_chlo_make(m, GRTC_TOP_RESHAPE, &slice, 1, &part);
}

grtc_complex_t grtc_complex_split(grtc_chlo_math_t* m, grtc_tvalue_t* x) {
  return grtc_complex_make(grtc_complex_part(m, x, 0), grtc_complex_part(m, x, 1));
}

grtc_tvalue_t* grtc_complex_join(grtc_chlo_math_t* m, grtc_complex_t z) {
  if (!z.re || !z.im) return NULL;
  grtc_ttype_t column = z.re->type;
  column.dims[column.rank++] = 1;
  grtc_tvalue_t* parts[2] = {grtc_chlo_make(m, GRTC_TOP_RESHAPE, &z.re, 1, &column),
                             grtc_chlo_make(m, GRTC_TOP_RESHAPE, &z.im, 1, &column)};
  grtc_ttype_t joined = column;
  joined.dims[joined.rank - 1] = 2;
  grtc_tvalue_t* r = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, parts, 2, &joined);
  if (r) r->def->attrs.dim = joined.rank - 1;
  return r;
}

//===----------------------------------------------------------------------===//
// Formulas
//===----------------------------------------------------------------------===//

// |z| = hypot(re, im), scaled so that neither square overflows:
// max * sqrt(1 + (min/max)^2); 0 when both are 0 and +inf when either is.
static grtc_tvalue_t* grtc_complex_abs(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t* a = ABS(z.re);
  grtc_tvalue_t* b = ABS(z.im);
  grtc_tvalue_t* big = MAX(a, b);
  grtc_tvalue_t* small = MIN(a, b);
  grtc_tvalue_t* ratio = DIV(small, big);
  grtc_tvalue_t* scaled = MUL(big, SQRT(ADD(C(a, 1.0), MUL(ratio, ratio))));
  grtc_tvalue_t* inf = C(a, INFINITY);
  grtc_tvalue_t* r = SELECT(CMP(EQ, big, C(a, 0.0)), C(a, 0.0), scaled);
  return SELECT(CMP(EQ, big, inf), inf, r);
}

static grtc_complex_t grtc_complex_mul(grtc_chlo_math_t* m, grtc_complex_t x,
                                       grtc_complex_t y) {
  return grtc_complex_combine_products(m, MUL(x.re, y.re), MUL(x.im, y.im),
                                       MUL(x.re, y.im), MUL(x.im, y.re));
}

// Smith's algorithm: divide through by the larger part of the divisor.
static grtc_complex_t grtc_complex_div(grtc_chlo_math_t* m, grtc_complex_t x,
                                       grtc_complex_t y) {
  grtc_tvalue_t *a = x.re, *b = x.im, *c = y.re, *d = y.im;
  grtc_tvalue_t* by_c = CMP(GE, ABS(c), ABS(d));
  grtc_tvalue_t* r1 = DIV(d, c);
  grtc_tvalue_t* den1 = ADD(c, MUL(d, r1));
  grtc_tvalue_t* re1 = DIV(ADD(a, MUL(b, r1)), den1);
  grtc_tvalue_t* im1 = DIV(SUB(b, MUL(a, r1)), den1);
  grtc_tvalue_t* r2 = DIV(c, d);
  grtc_tvalue_t* den2 = ADD(MUL(c, r2), d);
  grtc_tvalue_t* re2 = DIV(ADD(MUL(a, r2), b), den2);
  grtc_tvalue_t* im2 = DIV(SUB(MUL(b, r2), a), den2);
  return grtc_complex_make(SELECT(by_c, re1, re2), SELECT(by_c, im1, im2));
}

static grtc_complex_t grtc_complex_exp(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t* e = EXP(z.re);
  return grtc_complex_make(MUL(e, COS(z.im)), MUL(e, SIN(z.im)));
}

static grtc_complex_t grtc_complex_log(grtc_chlo_math_t* m, grtc_complex_t z) {
  return grtc_complex_make(LOG(grtc_complex_abs(m, z)), ATAN2(z.im, z.re));
}

// exp(z) - 1 = (expm1(re) cos(im) - 2 sin^2(im / 2), exp(re) sin(im)):
// exact for small z, where exp(z) - 1 would cancel.
static grtc_complex_t grtc_complex_expm1(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t* half_sin = SIN(MUL(z.im, C(z.im, 0.5)));
  grtc_tvalue_t* re = SUB(MUL(EXPM1(z.re), COS(z.im)),
                          MUL(C(z.re, 2.0), MUL(half_sin, half_sin)));
  return grtc_complex_make(re, MUL(EXP(z.re), SIN(z.im)));
}

// log(1 + z) = (log1p(2 re + re^2 + im^2) / 2, atan2(im, 1 + re)): exact
// for small z, where 1 + z would round.
static grtc_complex_t grtc_complex_log1p(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t *a = z.re, *b = z.im;
  grtc_tvalue_t* t = ADD(MUL(a, ADD(a, C(a, 2.0))), MUL(b, b));
  return grtc_complex_make(MUL(LOG1P(t), C(a, 0.5)), ATAN2(b, ADD(a, C(a, 1.0))));
}

// t = sqrt((|re| + |z|) / 2); re >= 0: (t, im / 2t), else (|im| / 2t,
// t with im's sign); 0 stays (0, im).
static grtc_complex_t grtc_complex_sqrt(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t *a = z.re, *b = z.im;
  grtc_tvalue_t* t = SQRT(MUL(ADD(ABS(a), grtc_complex_abs(m, z)), C(a, 0.5)));
  grtc_tvalue_t* two_t = ADD(t, t);
  grtc_tvalue_t* positive = CMP(GE, a, C(a, 0.0));
  grtc_tvalue_t* signed_t = SELECT(CMP(LT, b, C(a, 0.0)), NEG(t), t);
  grtc_tvalue_t* re = SELECT(positive, t, DIV(ABS(b), two_t));
  grtc_tvalue_t* im = SELECT(positive, DIV(b, two_t), signed_t);
  grtc_tvalue_t* zero = CMP(EQ, t, C(a, 0.0));
  return grtc_complex_make(SELECT(zero, C(a, 0.0), re), SELECT(zero, b, im));
}

// sinh(x) and cosh(x) from expm1, exact near 0.
static void grtc_complex_sinh_cosh(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                   grtc_tvalue_t** out_sinh, grtc_tvalue_t** out_cosh) {
  grtc_tvalue_t* e = EXPM1(x);
  grtc_tvalue_t* f = EXPM1(NEG(x));
  *out_sinh = MUL(SUB(e, f), C(x, 0.5));
  *out_cosh = ADD(MUL(ADD(e, f), C(x, 0.5)), C(x, 1.0));
}

static grtc_complex_t grtc_complex_sin(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t *sh = NULL, *ch = NULL;
  grtc_complex_sinh_cosh(m, z.im, &sh, &ch);
  return grtc_complex_make(MUL(SIN(z.re), ch), MUL(COS(z.re), sh));
}

static grtc_complex_t grtc_complex_cos(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t *sh = NULL, *ch = NULL;
  grtc_complex_sinh_cosh(m, z.im, &sh, &ch);
  return grtc_complex_make(MUL(COS(z.re), ch), NEG(MUL(SIN(z.re), sh)));
}

// tanh(a + bi) = (sinh 2a + i sin 2b) / (cosh 2a + cos 2b); for |a| > 20
// (where cosh overflows first) it is (sign(a), 0) to every float's
// precision.
static grtc_complex_t grtc_complex_tanh(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t *a = z.re, *b = z.im;
  grtc_tvalue_t *sh = NULL, *ch = NULL;
  grtc_complex_sinh_cosh(m, ADD(a, a), &sh, &ch);
  grtc_tvalue_t* den = ADD(ch, COS(ADD(b, b)));
  grtc_tvalue_t* re = DIV(sh, den);
  grtc_tvalue_t* im = DIV(SIN(ADD(b, b)), den);
  grtc_tvalue_t* large = CMP(GT, ABS(a), C(a, 20.0));
  return grtc_complex_make(SELECT(large, SIGN(a), re),
                           SELECT(large, MUL(C(a, 0.0), b), im));
}

// tan(z) = -i tanh(iz): with tanh(-b + ai) = (u, v), tan(a + bi) = (v, -u).
static grtc_complex_t grtc_complex_tan(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_complex_t t = grtc_complex_tanh(m, grtc_complex_make(NEG(z.im), z.re));
  return grtc_complex_make(t.im, NEG(t.re));
}

// logistic(z) = 1 / (1 + exp(-z)).
static grtc_complex_t grtc_complex_logistic(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_complex_t e = grtc_complex_exp(m, grtc_complex_make(NEG(z.re), NEG(z.im)));
  grtc_complex_t one = grtc_complex_make(C(z.re, 1.0), C(z.re, 0.0));
  return grtc_complex_div(m, one, grtc_complex_make(ADD(e.re, C(z.re, 1.0)), e.im));
}

// z / |z|, and 0 (of z's signs) for 0; NaN stays NaN.
static grtc_complex_t grtc_complex_sign(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t* h = grtc_complex_abs(m, z);
  grtc_tvalue_t* zero = CMP(EQ, h, C(h, 0.0));
  return grtc_complex_make(SELECT(zero, z.re, DIV(z.re, h)),
                           SELECT(zero, z.im, DIV(z.im, h)));
}

grtc_complex_t grtc_complex_square(grtc_chlo_math_t* m, grtc_complex_t z) {
  grtc_tvalue_t* a = ABS(z.re);
  grtc_tvalue_t* same = grtc_chlo_binary(m, GRTC_TOP_AND, CMP(EQ, a, ABS(z.im)),
                                         CMP(LT, a, C(a, INFINITY)));
  grtc_tvalue_t* re = SELECT(same, C(a, 0.0), MUL(SUB(z.re, z.im), ADD(z.re, z.im)));
  grtc_tvalue_t* product = MUL(z.re, z.im);
  return grtc_complex_make(re, ADD(product, product));
}

grtc_complex_t grtc_complex_combine_products(grtc_chlo_math_t* m, grtc_tvalue_t* rr,
                                             grtc_tvalue_t* ii, grtc_tvalue_t* ri,
                                             grtc_tvalue_t* ir) {
  return grtc_complex_make(SUB(rr, ii), ADD(ri, ir));
}

grtc_tvalue_t* grtc_complex_compare(grtc_chlo_math_t* m, bool equal, grtc_complex_t a,
                                    grtc_complex_t b) {
  if (equal) {
    return grtc_chlo_binary(m, GRTC_TOP_AND, CMP(EQ, a.re, b.re), CMP(EQ, a.im, b.im));
  }
  return grtc_chlo_binary(m, GRTC_TOP_OR, CMP(NE, a.re, b.re), CMP(NE, a.im, b.im));
}

static const struct {
  grtc_top_kind_t kind;
  uint32_t arity;
} grtc_complex_ops[] = {
    {GRTC_TOP_ADD, 2},         {GRTC_TOP_SUBTRACT, 2}, {GRTC_TOP_MULTIPLY, 2},
    {GRTC_TOP_DIVIDE, 2},      {GRTC_TOP_POWER, 2},    {GRTC_TOP_NEGATE, 1},
    {GRTC_TOP_ABS, 1},         {GRTC_TOP_EXPONENTIAL, 1}, {GRTC_TOP_LOG, 1},
    {GRTC_TOP_SQRT, 1},        {GRTC_TOP_RSQRT, 1},    {GRTC_TOP_SINE, 1},
    {GRTC_TOP_COSINE, 1},      {GRTC_TOP_TANH, 1},     {GRTC_TOP_SIGN, 1},
    {GRTC_TOP_EXPONENTIAL_MINUS_ONE, 1},                {GRTC_TOP_LOG_PLUS_ONE, 1},
    {GRTC_TOP_TAN, 1},         {GRTC_TOP_LOGISTIC, 1}, {GRTC_TOP_ATAN2, 2},
};

bool grtc_complex_handles(grtc_top_kind_t kind, uint32_t* out_arity) {
  for (size_t i = 0; i < sizeof(grtc_complex_ops) / sizeof(grtc_complex_ops[0]); ++i) {
    if (grtc_complex_ops[i].kind == kind) {
      *out_arity = grtc_complex_ops[i].arity;
      return true;
    }
  }
  return false;
}

grtc_complex_t grtc_complex_elementwise(grtc_chlo_math_t* m, grtc_top_kind_t kind,
                                        const grtc_complex_t* operands) {
  grtc_complex_t x = operands[0];
  switch (kind) {
    case GRTC_TOP_ADD:
      return grtc_complex_make(ADD(x.re, operands[1].re), ADD(x.im, operands[1].im));
    case GRTC_TOP_SUBTRACT:
      return grtc_complex_make(SUB(x.re, operands[1].re), SUB(x.im, operands[1].im));
    case GRTC_TOP_MULTIPLY:
      return grtc_complex_mul(m, x, operands[1]);
    case GRTC_TOP_DIVIDE:
      return grtc_complex_div(m, x, operands[1]);
    case GRTC_TOP_POWER:
      // x^y = exp(y log x).
      return grtc_complex_exp(m, grtc_complex_mul(m, operands[1], grtc_complex_log(m, x)));
    case GRTC_TOP_NEGATE:
      return grtc_complex_make(NEG(x.re), NEG(x.im));
    case GRTC_TOP_ABS:
      return grtc_complex_make(grtc_complex_abs(m, x), NULL);
    case GRTC_TOP_EXPONENTIAL:
      return grtc_complex_exp(m, x);
    case GRTC_TOP_LOG:
      return grtc_complex_log(m, x);
    case GRTC_TOP_EXPONENTIAL_MINUS_ONE:
      return grtc_complex_expm1(m, x);
    case GRTC_TOP_LOG_PLUS_ONE:
      return grtc_complex_log1p(m, x);
    case GRTC_TOP_SQRT:
      return grtc_complex_sqrt(m, x);
    case GRTC_TOP_RSQRT: {
      grtc_complex_t one = grtc_complex_make(C(x.re, 1.0), C(x.re, 0.0));
      return grtc_complex_div(m, one, grtc_complex_sqrt(m, x));
    }
    case GRTC_TOP_SINE:
      return grtc_complex_sin(m, x);
    case GRTC_TOP_COSINE:
      return grtc_complex_cos(m, x);
    case GRTC_TOP_TANH:
      return grtc_complex_tanh(m, x);
    case GRTC_TOP_SIGN:
      return grtc_complex_sign(m, x);
    case GRTC_TOP_TAN:
      return grtc_complex_tan(m, x);
    case GRTC_TOP_LOGISTIC:
      return grtc_complex_logistic(m, x);
    case GRTC_TOP_ATAN2: {
      // atan2(y, x) = -i log((x + i y) / sqrt(x^2 + y^2)), y the first
      // operand (as the spec, XLA and the StableHLO interpreter define it).
      grtc_complex_t y = x, w = operands[1];
      grtc_complex_t iy = grtc_complex_make(NEG(y.im), y.re);
      grtc_complex_t norm = grtc_complex_sqrt(
          m, grtc_complex_elementwise(m, GRTC_TOP_ADD,
                                      (grtc_complex_t[]){grtc_complex_mul(m, w, w),
                                                         grtc_complex_mul(m, y, y)}));
      grtc_complex_t l = grtc_complex_log(
          m, grtc_complex_div(m, grtc_complex_make(ADD(w.re, iy.re), ADD(w.im, iy.im)), norm));
      // -i (a + i b) = b - i a.
      return grtc_complex_make(l.im, NEG(l.re));
    }
    default:
      if (grt_status_is_ok(m->status)) {
        m->status = grt_make_status(GRT_STATUS_INTERNAL, "no complex form of '%s'",
                                    grtc_top_kind_name(kind));
      }
      return grtc_complex_make(NULL, NULL);
  }
}

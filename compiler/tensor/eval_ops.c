// grtc_eval_scalar: the C column of compiler/kernel/scalar_impl.h compiled
// as C, one instance per element type (f16 and bf16 use f32's), so the
// folder computes every scalar op with the very helpers the C and CUDA
// preludes print. The instance parameters (S, T, UT, WU, W, M, F; see the
// table's comment) are object-like macros around each instance, which is
// why this file holds nothing else.
#include <math.h>
#include <stdint.h>

#include "compiler/kernel/scalar_impl.h"
#include "compiler/tensor/eval.h"

typedef grtc_scalar_value_t value_t;

#define GRT_CAT_(a, b) a##b
#define GRT_CAT(a, b) GRT_CAT_(a, b)
#define GRT_POPCNT64(x) __builtin_popcountll(x)
#define GRT_CLZ64(x) ((x) == 0 ? 64 : __builtin_clzll(x))
#define GRTC_EV_STRIP(...) __VA_ARGS__
#define GRTC_EV_NAME(spelling) GRT_CAT(GRT_CAT(grt_, spelling), GRT_CAT(_, S))

// The helper of a row, as the preludes print it.
#define GRTC_EV_FN_UN(spelling, body) \
  static T GRTC_EV_NAME(spelling)(T a) { GRTC_EV_STRIP body }
#define GRTC_EV_FN_BIN(spelling, body) \
  static T GRTC_EV_NAME(spelling)(T a, T b) { GRTC_EV_STRIP body }
#define GRTC_EV_FN_TERN(spelling, body) \
  static T GRTC_EV_NAME(spelling)(T lo, T x, T hi) { GRTC_EV_STRIP body }
#define GRTC_EV_FN_SEL(spelling, body) \
  static T GRTC_EV_NAME(spelling)(uint8_t c, T a, T b) { GRTC_EV_STRIP body }
#define GRTC_EV_FN_PRED(spelling, body) \
  static uint8_t GRTC_EV_NAME(spelling)(T a) { GRTC_EV_STRIP body }
#define GRTC_EV_FN(op, spelling, cls, sig, c_body, glsl_body) \
  GRT_CAT(GRTC_EV_IF_, cls)(GRTC_EV_FN_##sig(spelling, c_body))

// Its case in the instance's switch over ops (V: the value_t member).
#define GRTC_EV_CALL_UN(spelling) v.V = GRTC_EV_NAME(spelling)(a);
#define GRTC_EV_CALL_BIN(spelling) v.V = GRTC_EV_NAME(spelling)(a, b);
#define GRTC_EV_CALL_TERN(spelling) v.V = GRTC_EV_NAME(spelling)(a, b, c);
#define GRTC_EV_CALL_SEL(spelling) \
  v.V = GRTC_EV_NAME(spelling)((uint8_t)(x[0].u != 0), b, c);
#define GRTC_EV_CALL_PRED(spelling) v.u = GRTC_EV_NAME(spelling)(a);
#define GRTC_EV_CASE(op, spelling, cls, sig, c_body, glsl_body) \
  GRT_CAT(GRTC_EV_IF_, cls)(case GRTC_SCALAR_##op:            \
                                GRTC_EV_CALL_##sig(spelling) break;)

// The helpers and grtc_ev_<S>(op, x) of the instance the macros name, for
// the classes whose GRTC_EV_IF_<class> keeps its argument.
#define GRTC_EV_INSTANCE()                                              \
  GRTC_SCALAR_IMPL_LIST(GRTC_EV_FN)                                     \
  static value_t GRT_CAT(grtc_ev_, S)(grtc_scalar_op_t op,             \
                                     const value_t* x) {               \
    value_t v;                                                          \
    v.u = 0;                                                            \
    const T a = (T)x[0].V, b = (T)x[1].V, c = (T)x[2].V;                \
    switch (op) {                                                       \
      GRTC_SCALAR_IMPL_LIST(GRTC_EV_CASE)                               \
      default:                                                          \
        break;                                                          \
    }                                                                   \
    return v;                                                           \
  }

#define GRTC_EV_KEEP(...) __VA_ARGS__
#define GRTC_EV_DROP(...)

// Signed integers: the INT and SINT rows.
#define GRTC_EV_IF_INT GRTC_EV_KEEP
#define GRTC_EV_IF_SINT GRTC_EV_KEEP
#define GRTC_EV_IF_UINT GRTC_EV_DROP
#define GRTC_EV_IF_FLOAT GRTC_EV_DROP
#define V i
#define WU uint32_t
#define M (~(WU)0)

#define S i8
#define T int8_t
#define UT uint8_t
#define W 8
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef UT
#undef W

#define S i16
#define T int16_t
#define UT uint16_t
#define W 16
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef UT
#undef W

#define S i32
#define T int32_t
#define UT uint32_t
#define W 32
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef UT
#undef W

#undef WU
#define WU uint64_t
#define S i64
#define T int64_t
#define UT uint64_t
#define W 64
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef UT
#undef W
#undef WU
#undef M
#undef V

// Unsigned integers and i1: the INT and UINT rows.
#undef GRTC_EV_IF_SINT
#undef GRTC_EV_IF_UINT
#define GRTC_EV_IF_SINT GRTC_EV_DROP
#define GRTC_EV_IF_UINT GRTC_EV_KEEP
#define V u
#define WU uint32_t

#define S i1
#define T uint8_t
#define UT uint8_t
#define W 1
#define M 1u
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef UT
#undef W
#undef M
#define M (~(WU)0)

#define S u8
#define T uint8_t
#define UT uint8_t
#define W 8
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef UT
#undef W

#define S u16
#define T uint16_t
#define UT uint16_t
#define W 16
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef UT
#undef W

#define S u32
#define T uint32_t
#define UT uint32_t
#define W 32
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef UT
#undef W

#undef WU
#define WU uint64_t
#define S u64
#define T uint64_t
#define UT uint64_t
#define W 64
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef UT
#undef W
#undef WU
#undef M
#undef V

// Floats: the FLOAT rows; f16 and bf16 compute in f32.
#undef GRTC_EV_IF_INT
#undef GRTC_EV_IF_UINT
#undef GRTC_EV_IF_FLOAT
#define GRTC_EV_IF_INT GRTC_EV_DROP
#define GRTC_EV_IF_UINT GRTC_EV_DROP
#define GRTC_EV_IF_FLOAT GRTC_EV_KEEP
#define V f

#define S f32
#define T float
#define F f
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef F

#define S f64
#define T double
#define F
GRTC_EV_INSTANCE()
#undef S
#undef T
#undef F
#undef V

value_t grtc_eval_scalar(grtc_scalar_op_t op, grtc_elem_t elem,
                         const value_t* operands) {
  value_t zero = {0};
  if (op >= GRTC_SCALAR_OP_COUNT || elem >= GRTC_ELEM_COUNT) return zero;
  op = grtc_scalar_op_for_elem(op, elem);  // i1: add is OR, multiply AND
  value_t x[3] = {operands[0], operands[0], operands[0]};
  uint32_t arity = grtc_scalar_op_arity(op);
  for (uint32_t k = 1; k < arity && k < 3; ++k) x[k] = operands[k];
  switch (elem) {
    case GRTC_ELEM_I1: return grtc_ev_i1(op, x);
    case GRTC_ELEM_I8: return grtc_ev_i8(op, x);
    case GRTC_ELEM_I16: return grtc_ev_i16(op, x);
    case GRTC_ELEM_I32: return grtc_ev_i32(op, x);
    case GRTC_ELEM_I64: return grtc_ev_i64(op, x);
    case GRTC_ELEM_U8: return grtc_ev_u8(op, x);
    case GRTC_ELEM_U16: return grtc_ev_u16(op, x);
    case GRTC_ELEM_U32: return grtc_ev_u32(op, x);
    case GRTC_ELEM_U64: return grtc_ev_u64(op, x);
    case GRTC_ELEM_F32: return grtc_ev_f32(op, x);
    case GRTC_ELEM_F64: return grtc_ev_f64(op, x);
    case GRTC_ELEM_F16:
    case GRTC_ELEM_BF16: {
      // Each op's result rounds to its type (scalar.h).
      value_t v = grtc_ev_f32(op, x);
      if (op == GRTC_SCALAR_IS_FINITE) return v;
      return grtc_eval_convert(GRTC_ELEM_F64, elem, v);
    }
    case GRTC_ELEM_COUNT: break;
  }
  return zero;
}

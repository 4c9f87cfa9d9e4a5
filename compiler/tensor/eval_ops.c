// grtc_eval_scalar: the C column of compiler/kernel/scalar_impl.h compiled
// as C, one instance per GRTC_SCALAR_C_<type> tuple (f16 and bf16 use
// f32's), so the folder computes every scalar op with the very helpers and
// instance parameters the C and CUDA preludes print. The bodies name the
// parameters (S, T, UT, WU, W, M, F; see the table's comment), so they are
// object-like macros here, which is why this file holds nothing else.
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

// The instance's parameters (object-like, as the bodies name them), read
// from GRTC_EV_TYPE, one of scalar_impl.h's GRTC_SCALAR_C_<type> tuples.
#define GRTC_EV_EXPAND(x) x
#define GRTC_EV_S(S_, T_, UT_, WU_, W_, M_, MINV_, MAXV_, F_, CLASS_) S_
#define GRTC_EV_T(S_, T_, UT_, WU_, W_, M_, MINV_, MAXV_, F_, CLASS_) T_
#define GRTC_EV_UT(S_, T_, UT_, WU_, W_, M_, MINV_, MAXV_, F_, CLASS_) UT_
#define GRTC_EV_WU(S_, T_, UT_, WU_, W_, M_, MINV_, MAXV_, F_, CLASS_) WU_
#define GRTC_EV_W(S_, T_, UT_, WU_, W_, M_, MINV_, MAXV_, F_, CLASS_) W_
#define GRTC_EV_M(S_, T_, UT_, WU_, W_, M_, MINV_, MAXV_, F_, CLASS_) M_
#define GRTC_EV_F(S_, T_, UT_, WU_, W_, M_, MINV_, MAXV_, F_, CLASS_) F_
#define GRTC_EV_CLASS(S_, T_, UT_, WU_, W_, M_, MINV_, MAXV_, F_, CLASS_) \
  CLASS_
#define S GRTC_EV_EXPAND(GRTC_EV_S GRTC_EV_TYPE)
#define T GRTC_EV_EXPAND(GRTC_EV_T GRTC_EV_TYPE)
#define UT GRTC_EV_EXPAND(GRTC_EV_UT GRTC_EV_TYPE)
#define WU GRTC_EV_EXPAND(GRTC_EV_WU GRTC_EV_TYPE)
#define W GRTC_EV_EXPAND(GRTC_EV_W GRTC_EV_TYPE)
#define M GRTC_EV_EXPAND(GRTC_EV_M GRTC_EV_TYPE)
#define F GRTC_EV_EXPAND(GRTC_EV_F GRTC_EV_TYPE)
#define GRTC_EV_CAT_(a, b) a##b
#define GRTC_EV_CAT(a, b) GRTC_EV_CAT_(a, b)
#define GRTC_EV_INSTANCE_CLASS GRTC_EV_EXPAND(GRTC_EV_CLASS GRTC_EV_TYPE)

// The value_t member of the instance's values.
#define V GRTC_EV_CAT(GRTC_EV_V_, GRTC_EV_INSTANCE_CLASS)
#define GRTC_EV_V_SINT i
#define GRTC_EV_V_UINT u
#define GRTC_EV_V_FLOAT f

// GRTC_EV_IF_<row class>(text): the text when the instance takes the
// row's class (integers take INT and their own, floats FLOAT).
#define GRTC_EV_KEEP(...) __VA_ARGS__
#define GRTC_EV_DROP(...)
#define GRTC_EV_IF_INT(...) \
  GRTC_EV_CAT(GRTC_EV_INT_IN_, GRTC_EV_INSTANCE_CLASS)(__VA_ARGS__)
#define GRTC_EV_IF_SINT(...) \
  GRTC_EV_CAT(GRTC_EV_SINT_IN_, GRTC_EV_INSTANCE_CLASS)(__VA_ARGS__)
#define GRTC_EV_IF_UINT(...) \
  GRTC_EV_CAT(GRTC_EV_UINT_IN_, GRTC_EV_INSTANCE_CLASS)(__VA_ARGS__)
#define GRTC_EV_IF_FLOAT(...) \
  GRTC_EV_CAT(GRTC_EV_FLOAT_IN_, GRTC_EV_INSTANCE_CLASS)(__VA_ARGS__)
#define GRTC_EV_INT_IN_SINT GRTC_EV_KEEP
#define GRTC_EV_INT_IN_UINT GRTC_EV_KEEP
#define GRTC_EV_INT_IN_FLOAT GRTC_EV_DROP
#define GRTC_EV_SINT_IN_SINT GRTC_EV_KEEP
#define GRTC_EV_SINT_IN_UINT GRTC_EV_DROP
#define GRTC_EV_SINT_IN_FLOAT GRTC_EV_DROP
#define GRTC_EV_UINT_IN_SINT GRTC_EV_DROP
#define GRTC_EV_UINT_IN_UINT GRTC_EV_KEEP
#define GRTC_EV_UINT_IN_FLOAT GRTC_EV_DROP
#define GRTC_EV_FLOAT_IN_SINT GRTC_EV_DROP
#define GRTC_EV_FLOAT_IN_UINT GRTC_EV_DROP
#define GRTC_EV_FLOAT_IN_FLOAT GRTC_EV_KEEP

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
  GRTC_EV_IF_##cls(GRTC_EV_FN_##sig(spelling, c_body))

// Its case in the instance's switch over ops.
#define GRTC_EV_CALL_UN(spelling) v.V = GRTC_EV_NAME(spelling)(a);
#define GRTC_EV_CALL_BIN(spelling) v.V = GRTC_EV_NAME(spelling)(a, b);
#define GRTC_EV_CALL_TERN(spelling) v.V = GRTC_EV_NAME(spelling)(a, b, c);
#define GRTC_EV_CALL_SEL(spelling) \
  v.V = GRTC_EV_NAME(spelling)((uint8_t)(x[0].u != 0), b, c);
#define GRTC_EV_CALL_PRED(spelling) v.u = GRTC_EV_NAME(spelling)(a);
#define GRTC_EV_CASE(op, spelling, cls, sig, c_body, glsl_body) \
  GRTC_EV_IF_##cls(case GRTC_SCALAR_##op: GRTC_EV_CALL_##sig(spelling) break;)

// The helpers and grtc_ev_<S>(op, x) of the instance GRTC_EV_TYPE names.
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

#define GRTC_EV_TYPE GRTC_SCALAR_C_I1
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_I8
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_I16
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_I32
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_I64
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_U8
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_U16
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_U32
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_U64
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_F32
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE
#define GRTC_EV_TYPE GRTC_SCALAR_C_F64
GRTC_EV_INSTANCE()
#undef GRTC_EV_TYPE

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

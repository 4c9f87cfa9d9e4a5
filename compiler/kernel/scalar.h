// Scalar semantics shared by the tensor IR (its elementwise ops) and the
// kernel IR (the instructions every target backend emits): element types,
// scalar operations, comparison directions and types.
//
// Every backend (C for the CPU, GLSL for Vulkan, CUDA C) must give these
// the same meaning, including the corners C leaves undefined:
//   - integer DIV by zero gives -1 (all ones), REM by zero gives the
//     dividend; INT_MIN / -1 gives INT_MIN and INT_MIN % -1 gives 0
//     (XLA's choices, which JAX programs see).
//   - SHL/SHRL by an amount >= the bit width (or negative) give 0; SHRA
//     gives 0 or -1 (the sign). Signed overflow wraps (two's complement).
//   - REM on floats is C's fmod (sign of the dividend); POW on integers is
//     exponentiation by squaring with a negative exponent giving 0 (1 for a
//     base of 1, +-1 for -1).
//   - MAX/MIN on floats propagate NaN; ROUND_AFZ rounds half away from
//     zero, ROUND_EVEN half to even; SIGN gives -1/0/+1 (NaN stays NaN);
//     IS_FINITE gives i1; LOGISTIC is 1/(1+exp(-x)).
//   - i1 values are 0 or 1. NOT on i1 is logical, on wider integers bitwise.
//   - CONVERT float->int truncates toward zero and saturates (NaN gives 0);
//     int->f16/bf16 and f32->f16/bf16 round to nearest even; to i1 means
//     "!= 0". BITCAST reinterprets bits between types of equal width.
//   - f16 and bf16 arithmetic is done in f32 and every op's result is
//     rounded to nearest even in its type (backends round the operands of
//     each op, compare and convert, and every store), so a fused chain
//     gives what the ops give one at a time. Reductions of f16/bf16 carry
//     f32 accumulators instead (the kernel IR types them f32).
#ifndef GRT_COMPILER_KERNEL_SCALAR_H_
#define GRT_COMPILER_KERNEL_SCALAR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// X(NAME, mlir spelling, byte size, bit width, is float, is signed int)
// i1 occupies one byte in memory.
#define GRTC_ELEM_LIST(X)           \
  X(I1, "i1", 1, 1, false, false)   \
  X(I8, "i8", 1, 8, false, true)    \
  X(I16, "i16", 2, 16, false, true) \
  X(I32, "i32", 4, 32, false, true) \
  X(I64, "i64", 8, 64, false, true) \
  X(U8, "ui8", 1, 8, false, false)  \
  X(U16, "ui16", 2, 16, false, false) \
  X(U32, "ui32", 4, 32, false, false) \
  X(U64, "ui64", 8, 64, false, false) \
  X(F16, "f16", 2, 16, true, false) \
  X(BF16, "bf16", 2, 16, true, false) \
  X(F32, "f32", 4, 32, true, false) \
  X(F64, "f64", 8, 64, true, false)

typedef enum grtc_elem_e {
#define GRTC_ELEM_ENUM(name, spelling, bytes, bits, is_float, is_signed) \
  GRTC_ELEM_##name,
  GRTC_ELEM_LIST(GRTC_ELEM_ENUM)
#undef GRTC_ELEM_ENUM
  GRTC_ELEM_COUNT
} grtc_elem_t;

const char* grtc_elem_spelling(grtc_elem_t elem);
size_t grtc_elem_byte_size(grtc_elem_t elem);
uint32_t grtc_elem_bit_width(grtc_elem_t elem);
bool grtc_elem_is_float(grtc_elem_t elem);
bool grtc_elem_is_signed_integer(grtc_elem_t elem);
bool grtc_elem_is_unsigned_integer(grtc_elem_t elem);  // ui8..ui64 (not i1)
bool grtc_elem_is_integer(grtc_elem_t elem);           // i1 included
// By spelling ("f32", "ui8"); false when it is not an element type.
bool grtc_elem_from_spelling(const char* spelling, size_t length,
                             grtc_elem_t* out_elem);

// X(NAME, arity, spelling, allowed operand types: F float, I integer
// (i1 included), B both, meaning on i1)
// The result type equals the operand type except IS_FINITE (i1); SELECT's
// first operand is i1 and CLAMP is (min, x, max).
// The last column is StableHLO's meaning of the op on booleans (i1): add and
// maximum are logical OR, multiply and minimum logical AND; NONE means the
// op does not take i1 operands (subtract, divide, shifts, popcnt, ... are
// defined on integer types only, which in StableHLO excludes i1).
#define GRTC_SCALAR_OP_LIST(X)                    \
  X(ADD, 2, "add", B, OR)                         \
  X(SUB, 2, "subtract", B, NONE)                  \
  X(MUL, 2, "multiply", B, AND)                   \
  X(DIV, 2, "divide", B, NONE)                    \
  X(REM, 2, "remainder", B, NONE)                 \
  X(POW, 2, "power", B, NONE)                     \
  X(MAX, 2, "maximum", B, OR)                     \
  X(MIN, 2, "minimum", B, AND)                    \
  X(AND, 2, "and", I, AND)                        \
  X(OR, 2, "or", I, OR)                           \
  X(XOR, 2, "xor", I, XOR)                        \
  X(SHL, 2, "shift_left", I, NONE)                \
  X(SHRA, 2, "shift_right_arithmetic", I, NONE)   \
  X(SHRL, 2, "shift_right_logical", I, NONE)      \
  X(ATAN2, 2, "atan2", F, NONE)                   \
  X(NOT, 1, "not", I, NOT)                        \
  X(ABS, 1, "abs", B, NONE)                       \
  X(NEG, 1, "negate", B, NONE)                    \
  X(SIGN, 1, "sign", B, NONE)                     \
  X(EXP, 1, "exponential", F, NONE)               \
  X(EXPM1, 1, "exponential_minus_one", F, NONE)   \
  X(LOG, 1, "log", F, NONE)                       \
  X(LOG1P, 1, "log_plus_one", F, NONE)            \
  X(LOGISTIC, 1, "logistic", F, NONE)             \
  X(SQRT, 1, "sqrt", F, NONE)                     \
  X(RSQRT, 1, "rsqrt", F, NONE)                   \
  X(CBRT, 1, "cbrt", F, NONE)                     \
  X(TANH, 1, "tanh", F, NONE)                     \
  X(SIN, 1, "sine", F, NONE)                      \
  X(COS, 1, "cosine", F, NONE)                    \
  X(TAN, 1, "tan", F, NONE)                       \
  X(FLOOR, 1, "floor", F, NONE)                   \
  X(CEIL, 1, "ceil", F, NONE)                     \
  X(ROUND_AFZ, 1, "round_nearest_afz", F, NONE)   \
  X(ROUND_EVEN, 1, "round_nearest_even", F, NONE) \
  X(IS_FINITE, 1, "is_finite", F, NONE)           \
  X(POPCNT, 1, "popcnt", I, NONE)                 \
  X(CLZ, 1, "count_leading_zeros", I, NONE)       \
  X(SELECT, 3, "select", B, SELECT)               \
  X(CLAMP, 3, "clamp", B, CLAMP)

typedef enum grtc_scalar_op_e {
#define GRTC_SCALAR_OP_ENUM(name, arity, spelling, types, on_i1) \
  GRTC_SCALAR_##name,
  GRTC_SCALAR_OP_LIST(GRTC_SCALAR_OP_ENUM)
#undef GRTC_SCALAR_OP_ENUM
  GRTC_SCALAR_OP_COUNT,
  GRTC_SCALAR_NONE = GRTC_SCALAR_OP_COUNT,
} grtc_scalar_op_t;

const char* grtc_scalar_op_spelling(grtc_scalar_op_t op);
uint32_t grtc_scalar_op_arity(grtc_scalar_op_t op);
// Whether |op| accepts operands of |elem| (per the table's type column, and
// for i1 its meaning column).
bool grtc_scalar_op_accepts(grtc_scalar_op_t op, grtc_elem_t elem);
// What the table lets |op| take, for messages: "integer (not i1) or
// floating-point".
const char* grtc_scalar_op_accepted_types(grtc_scalar_op_t op);
// The op that computes |op| on operands of |elem|: on i1, ADD and MAX are
// OR and MUL and MIN are AND; otherwise |op| itself. The folder and the
// kernel emitter both go through it, and the kernel verifier refuses the
// un-mapped forms, so no backend ever sees an arithmetic op on i1.
grtc_scalar_op_t grtc_scalar_op_for_elem(grtc_scalar_op_t op, grtc_elem_t elem);

// StableHLO's comparison_direction and comparison type.
typedef enum grtc_compare_direction_e {
  GRTC_CMP_EQ,
  GRTC_CMP_NE,
  GRTC_CMP_LT,
  GRTC_CMP_LE,
  GRTC_CMP_GT,
  GRTC_CMP_GE,
} grtc_compare_direction_t;

typedef enum grtc_compare_type_e {
  // Chosen from the operand type when the attribute is absent: FLOAT for
  // floats, SIGNED for iN, UNSIGNED for uiN and i1.
  GRTC_CMP_TYPE_DEFAULT,
  GRTC_CMP_TYPE_FLOAT,       // IEEE: comparisons with NaN are false, NE true
  GRTC_CMP_TYPE_TOTALORDER,  // -NaN < -Inf < ... < -0 < +0 < ... < +Inf < NaN
  GRTC_CMP_TYPE_SIGNED,
  GRTC_CMP_TYPE_UNSIGNED,
} grtc_compare_type_t;

const char* grtc_compare_direction_spelling(grtc_compare_direction_t d);
const char* grtc_compare_type_spelling(grtc_compare_type_t t);
// DEFAULT resolved for operands of |elem|.
grtc_compare_type_t grtc_compare_type_resolve(grtc_compare_type_t t,
                                              grtc_elem_t elem);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_KERNEL_SCALAR_H_

// Shorthands for writing tensor-IR formulas in the importer's compositions
// (compose.c's CHLO and special functions, complex.c's complex arithmetic).
// Each expands to a grtc_chlo_* builder call on the grtc_chlo_math_t* named
// |m| in the including function; include this header only in .c files.
#ifndef GRT_COMPILER_STABLEHLO_COMPOSE_OPS_H_
#define GRT_COMPILER_STABLEHLO_COMPOSE_OPS_H_

#include "compiler/stablehlo/compose.h"

#define ADD(a, c) grtc_chlo_binary(m, GRTC_TOP_ADD, (a), (c))
#define SUB(a, c) grtc_chlo_binary(m, GRTC_TOP_SUBTRACT, (a), (c))
#define MUL(a, c) grtc_chlo_binary(m, GRTC_TOP_MULTIPLY, (a), (c))
#define DIV(a, c) grtc_chlo_binary(m, GRTC_TOP_DIVIDE, (a), (c))
#define MAX(a, c) grtc_chlo_binary(m, GRTC_TOP_MAXIMUM, (a), (c))
#define MIN(a, c) grtc_chlo_binary(m, GRTC_TOP_MINIMUM, (a), (c))
#define ATAN2(a, c) grtc_chlo_binary(m, GRTC_TOP_ATAN2, (a), (c))
#define ABS(a) grtc_chlo_unary(m, GRTC_TOP_ABS, (a))
#define NEG(a) grtc_chlo_unary(m, GRTC_TOP_NEGATE, (a))
#define SIGN(a) grtc_chlo_unary(m, GRTC_TOP_SIGN, (a))
#define SQRT(a) grtc_chlo_unary(m, GRTC_TOP_SQRT, (a))
#define EXP(a) grtc_chlo_unary(m, GRTC_TOP_EXPONENTIAL, (a))
#define EXPM1(a) grtc_chlo_unary(m, GRTC_TOP_EXPONENTIAL_MINUS_ONE, (a))
#define LOG(a) grtc_chlo_unary(m, GRTC_TOP_LOG, (a))
#define LOG1P(a) grtc_chlo_unary(m, GRTC_TOP_LOG_PLUS_ONE, (a))
#define FLOOR(a) grtc_chlo_unary(m, GRTC_TOP_FLOOR, (a))
#define ROUND_EVEN(a) grtc_chlo_unary(m, GRTC_TOP_ROUND_NEAREST_EVEN, (a))
#define SIN(a) grtc_chlo_unary(m, GRTC_TOP_SINE, (a))
#define COS(a) grtc_chlo_unary(m, GRTC_TOP_COSINE, (a))
#define TAN(a) grtc_chlo_unary(m, GRTC_TOP_TAN, (a))
#define C_LIKE(like, v) grtc_chlo_splat(m, (like), (v))
#define CMP(d, a, c) grtc_chlo_compare(m, GRTC_CMP_##d, (a), (c))
#define SELECT(p, a, c) grtc_chlo_select(m, (p), (a), (c))

#endif  // GRT_COMPILER_STABLEHLO_COMPOSE_OPS_H_

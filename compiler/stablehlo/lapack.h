// The LAPACK and BLAS custom calls of JAX's CPU linear algebra, lowered to
// tensor-IR ops (lapack.c):
//   - lapack_{s,d}potrf (Cholesky: the factor in the uplo triangle, the
//     other triangle of a kept as LAPACK leaves it, info 0 or the order of
//     the first leading minor that is not positive definite);
//   - lapack_{s,d}getrf (LU with partial pivoting: L below the diagonal
//     with a unit diagonal, U on and above it, 1-based i32 pivots as
//     LAPACK's ipiv, info 0 or the first zero pivot, 1-based);
//   - lapack_{s,d}geqrf (Householder QR: R on and above the diagonal, the
//     reflectors below it, taus; LAPACK's dlarfg convention);
//   - lapack_{s,d}orgqr (Q from geqrf's reflectors and taus);
//   - lapack_{s,d}syevd (symmetric eigendecomposition by cyclic Jacobi:
//     eigenvalues ascending, eigenvectors as columns, up to 32 x 32);
//   - blas_{s,d}trsm (triangular solve with alpha);
// each in the legacy form (scalar i32/i64 operands before the matrices,
// often a tuple result) and the FFI form (`*_ffi`, or the same name with
// only the matrix operands, flags in `mhlo.backend_config`). Batch dims
// lead; f32 and f64. Workspace results come back as zeros.
#ifndef GRT_COMPILER_STABLEHLO_LAPACK_H_
#define GRT_COMPILER_STABLEHLO_LAPACK_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/string_view.h"
#include "compiler/mlir/ir.h"
#include "compiler/stablehlo/compose.h"

#ifdef __cplusplus
extern "C" {
#endif

// Whether |target| is a LAPACK or BLAS custom-call target (lapack_*,
// blas_*): grtc_lapack_lower lowers it or names what it supports.
bool grtc_lapack_is_target(grt_string_view_t target);

typedef struct grtc_lapack_call_t {
  grt_string_view_t target;
  grtc_tvalue_t* const* operands;
  uint32_t operand_count;
  // The results' types (a tuple result's elements).
  const grtc_ttype_t* results;
  uint32_t result_count;
  // mhlo.backend_config (a dictionary) and operand_layouts; NULL when absent.
  const grtc_attribute_t* backend_config;
  const grtc_attribute_t* operand_layouts;
} grtc_lapack_call_t;

// Appends the ops computing |call|; outs[i] receives result i. Errors name
// what was expected and what was given (without a location).
grt_status_t grtc_lapack_lower(grtc_chlo_builder_t* builder, const grtc_lapack_call_t* call,
                               grtc_tvalue_t** outs);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_STABLEHLO_LAPACK_H_

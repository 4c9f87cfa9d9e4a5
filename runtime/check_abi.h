// The `check` native module's VM ABI: the one statement of its exports.
// Pure preprocessor data (runtime/native_abi.h explains the row shapes):
// runtime/check_module.c builds its shims and export table from it,
// compiler/host/native_imports.c its import declarations, and
// runtime/abi_test.c checks docs/runtime.md against it.
#ifndef GRT_RUNTIME_CHECK_ABI_H_
#define GRT_RUNTIME_CHECK_ABI_H_

#include "runtime/native_abi.h"

#define GRT_CHECK_ABI_MODULE "check"

// X(id, "name", optional, "doc"), sorted by strcmp of the name.
#define GRT_CHECK_ABI_EXPORT_LIST(X)                                          \
  X(expect_all_true, "expect_all_true", 0, "every element of view nonzero")   \
  X(expect_almost_eq, "expect_almost_eq", 0,                                  \
    "|a-b| <= atol + rtol*|b| for f16/bf16/f32/f64 (two NaNs agree), "        \
    "integers exact")                                                         \
  X(expect_close, "expect_close", 0,                                          \
    "every element pair of f16/bf16/f32/f64 lies between min_ulp and "        \
    "max_ulp units in the last place apart")                                  \
  X(expect_eq, "expect_eq", 0, "bit-exact")                                   \
  X(expect_false, "expect_false", 0, "value == 0")                            \
  X(expect_near, "expect_near", 0,                                            \
    "f16/bf16/f32/f64 equal, both NaN, or of one sign and finite with "       \
    "|a-b| <= tolerance; integers exact")                                     \
  X(expect_true, "expect_true", 0, "value != 0")                              \
  X(expect_value_eq, "expect_value_eq", 0,                                    \
    "floats equal as values (+0 = -0, NaN equals nothing), integers exact")

#define GRT_CHECK_ABI_expect_all_true(A, S, R) \
  A(device, hal_device) A(view, hal_buffer_view)
#define GRT_CHECK_ABI_expect_almost_eq(A, S, R)                          \
  A(device, hal_device) A(lhs, hal_buffer_view) A(rhs, hal_buffer_view)  \
  A(atol, f32) A(rtol, f32)
#define GRT_CHECK_ABI_expect_close(A, S, R)                              \
  A(device, hal_device) A(lhs, hal_buffer_view) A(rhs, hal_buffer_view)  \
  A(max_ulp, i64) A(min_ulp, i64)
#define GRT_CHECK_ABI_expect_eq(A, S, R) \
  A(device, hal_device) A(lhs, hal_buffer_view) A(rhs, hal_buffer_view)
#define GRT_CHECK_ABI_expect_false(A, S, R) A(value, i32)
#define GRT_CHECK_ABI_expect_near(A, S, R)                               \
  A(device, hal_device) A(lhs, hal_buffer_view) A(rhs, hal_buffer_view)  \
  A(tolerance, f64)
#define GRT_CHECK_ABI_expect_true(A, S, R) A(value, i32)
#define GRT_CHECK_ABI_expect_value_eq(A, S, R) \
  A(device, hal_device) A(lhs, hal_buffer_view) A(rhs, hal_buffer_view)

#endif  // GRT_RUNTIME_CHECK_ABI_H_

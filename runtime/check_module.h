// The `check` native VM module: assertions for test programs (grt-check
// runs every test_* export of a module and reports which failed).
//
// Exports (calling conventions in docs/runtime.md):
//   check.expect_true(i)  check.expect_false(i)
//   check.expect_all_true(device, view)
//   check.expect_eq(device, lhs, rhs)
//   check.expect_almost_eq(device, lhs, rhs, atol f32, rtol f32)
//   check.expect_close(device, lhs, rhs, max_ulp i64, min_ulp i64)
//   check.expect_near(device, lhs, rhs, tolerance f64)
//   check.expect_value_eq(device, lhs, rhs)
// Buffer views are read back to the host through |device| (hal/transfer.h)
// and compared there. A failure is an error whose message prints both
// values as IREE prints tensors and the first mismatching element by flat
// and multi-dimensional index:
//   check.expect_eq failed: first mismatch at element 2 [1, 0]: lhs 3, rhs 4
//     lhs: 2x2xf32=[1 2][3 4]
//     rhs: 2x2xf32=[1 2][4 4]
#ifndef GRT_RUNTIME_CHECK_MODULE_H_
#define GRT_RUNTIME_CHECK_MODULE_H_

#include "base/allocator.h"
#include "base/status.h"
#include "vm/module.h"

#ifdef __cplusplus
extern "C" {
#endif

// At most this many elements of each value are printed in a failure.
#define GRT_RUNTIME_CHECK_MAX_PRINTED_ELEMENTS 64

// Creates the check module. It holds no device: each export takes one.
grt_status_t grt_runtime_check_module_create(grt_allocator_t host_allocator,
                                             grt_vm_module_t** out_module)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_RUNTIME_CHECK_MODULE_H_

// Helpers shared by the tests in tests/runtime (linked into each test that
// lists test_support.c in its SRCS).
#ifndef GRT_TESTS_RUNTIME_TEST_SUPPORT_H_
#define GRT_TESTS_RUNTIME_TEST_SUPPORT_H_

#include "base/status.h"
#include "hal/transfer.h"

// A |rows| x |columns| f32 buffer view on |device| with every element
// |value| (the inputs of tests/runtime/trace.mlir's main). *out_view is
// NULL after an error.
grt_status_t grt_runtime_test_filled_view(grt_hal_device_t* device, grt_hal_dim_t rows,
                                          grt_hal_dim_t columns, float value,
                                          grt_hal_buffer_view_t** out_view);

#endif  // GRT_TESTS_RUNTIME_TEST_SUPPORT_H_

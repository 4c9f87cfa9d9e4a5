// The suite's kernels per executable format: for each format a device might
// prepare, how to obtain the binary and the entry points it provides.
//
// Every format row provides the same kernels at the same ordinals
// (grt_hal_cts_kernel_t), so a test names a kernel once and runs on
// whichever format the device under test accepts. A new driver joins the
// suite by adding its row in kernels.c (e.g. "vulkan-spirv" with SPIR-V
// built from the same kernels); the tests themselves never change.
#ifndef GRT_TESTS_HAL_CTS_KERNELS_H_
#define GRT_TESTS_HAL_CTS_KERNELS_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "hal/executable.h"

#ifdef __cplusplus
extern "C" {
#endif

// Entry point ordinals, the same in every format.
typedef enum grt_hal_cts_kernel_e {
  // 1 binding (u32 out), 1 constant: out[i] = i + constants[0].
  GRT_HAL_CTS_KERNEL_FILL_INDEX_U32 = 0,
  // 3 bindings (f32 a, b, out): out[i] = a[i] + b[i].
  GRT_HAL_CTS_KERNEL_ADD_F32 = 1,
  // 2 bindings (f32 in, out), 1 constant (a float's bits): out = in * c.
  GRT_HAL_CTS_KERNEL_SCALE_F32 = 2,
  // 1 binding (u32 inout): x = x * 2 + 1.
  GRT_HAL_CTS_KERNEL_ACCUMULATE = 3,
  // No bindings; fails every workgroup (code 5 where codes exist).
  GRT_HAL_CTS_KERNEL_FAIL = 4,
  // No bindings; does nothing.
  GRT_HAL_CTS_KERNEL_NOOP = 5,
  GRT_HAL_CTS_KERNEL_COUNT = 6,
} grt_hal_cts_kernel_t;

// The bytes of one format's executable.
typedef struct grt_hal_cts_binary_t {
  uint8_t* data;
  size_t size;
  grt_allocator_t allocator;  // owner of |data|
} grt_hal_cts_binary_t;

typedef struct grt_hal_cts_kernel_format_t {
  // The executable format string ("cpu-static", "cpu-x86_64", ...).
  const char* (*format)(void);
  // Produces the binary (and does whatever the format needs first, such
  // as registering a statically linked library).
  grt_status_t (*load)(grt_allocator_t allocator,
                       grt_hal_cts_binary_t* out_binary);
  // GRT_HAL_CTS_KERNEL_COUNT entries in grt_hal_cts_kernel_t order.
  const grt_hal_entry_point_info_t* entry_points;
} grt_hal_cts_kernel_format_t;

// The rows, in order of preference.
extern const grt_hal_cts_kernel_format_t grt_hal_cts_kernel_formats[];
extern const size_t grt_hal_cts_kernel_format_count;

void grt_hal_cts_binary_free(grt_hal_cts_binary_t* binary);

#ifdef __cplusplus
}
#endif

#endif  // GRT_TESTS_HAL_CTS_KERNELS_H_

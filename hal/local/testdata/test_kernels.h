// Hand-written CPU kernels for tests of the local executable loader, the
// local drivers and the HAL conformance suite (tests/hal_cts/).
//
// One source, test_kernels.c, is built two ways by hal/local/CMakeLists.txt:
//   grt_hal_local_test_kernels_so  a MODULE library: a real ELF shared
//       object with only GRT_KERNEL_LIBRARY_QUERY_SYMBOL visible. Pass its
//       path ($<TARGET_FILE:grt_hal_local_test_kernels_so>) to the test,
//       read the bytes and prepare them as format
//       grt_hal_local_host_executable_format().
//   grt_hal_local_test_kernels  a static library for the cpu-static path:
//       register grt_hal_local_test_kernels_library() and prepare the bytes
//       of its name (GRT_TEST_KERNELS_STATIC_NAME) as "cpu-static".
//
// The kernels, in table order (GRT_TEST_KERNELS_ENTRY_POINTS lists them the
// way a module's executable would):
//   0 add_f32    bindings (a, b, out) f32; workgroup 64x1x1; no constants.
//                out[i] = a[i] + b[i] for i = workgroup_id.x * 64 + lane,
//                bounded by the shortest binding, so any workgroup count
//                that covers the data is right.
//   1 scale_f32  bindings (in, out) f32; 1 constant: the scale as f32 bits;
//                workgroup 32x1x1. out[i] = in[i] * scale, bounded likewise.
//   2 fail       no bindings or constants; workgroup 1x1x1; returns 7, so
//                dispatch failure paths have a kernel to fail with.
//   3 workgroup_ids  binding (out) u32; workgroup 1x1x1; 64 bytes of local
//                memory. Writes, at the workgroup's linear index
//                x + count.x * (y + count.y * z), 1 + that index, bouncing
//                it through local memory (so a missing or short scratch
//                buffer shows up under ASan); out of range ids return 3.
#ifndef GRT_HAL_LOCAL_TESTDATA_TEST_KERNELS_H_
#define GRT_HAL_LOCAL_TESTDATA_TEST_KERNELS_H_

#include "hal/local/kernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_TEST_KERNELS_STATIC_NAME "grt_test_kernels"

#define GRT_TEST_KERNELS_ADD_F32 0
#define GRT_TEST_KERNELS_SCALE_F32 1
#define GRT_TEST_KERNELS_FAIL 2
#define GRT_TEST_KERNELS_WORKGROUP_IDS 3
#define GRT_TEST_KERNELS_COUNT 4
#define GRT_TEST_KERNELS_FAIL_CODE 7
#define GRT_TEST_KERNELS_WORKGROUP_IDS_LOCAL_MEMORY 64

// Initializer rows for grt_hal_entry_point_info_t (name, bindings,
// constants, workgroup size), in table order.
#define GRT_TEST_KERNELS_ENTRY_POINTS                       \
  {{"add_f32", 7}, 3, 0, {64, 1, 1}, NULL, NULL},                       \
      {{"scale_f32", 9}, 2, 1, {32, 1, 1}, NULL, NULL},                 \
      {{"fail", 4}, 0, 0, {1, 1, 1}, NULL, NULL},                       \
      {{"workgroup_ids", 13}, 1, 0, {1, 1, 1}, NULL, NULL}

// The table of the statically linked build (grt_hal_local_test_kernels only).
const grt_kernel_library_t* grt_hal_local_test_kernels_library(void);

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_TESTDATA_TEST_KERNELS_H_

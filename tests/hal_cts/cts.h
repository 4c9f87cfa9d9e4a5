// What every test of the HAL conformance suite shares: the device under
// test (created once by the runner from --device), the suite's executable
// in whichever kernel format that device prepares, and helpers that turn
// HAL calls into cmocka assertions. Include after <cmocka.h>.
//
// The suite talks to the device only through the public HAL API (hal/*.h),
// so that every driver, present and future, runs the same tests.
#ifndef GRT_TESTS_HAL_CTS_CTS_H_
#define GRT_TESTS_HAL_CTS_CTS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/status_matchers.h"
#include "hal/allocator.h"
#include "hal/buffer.h"
#include "hal/command_buffer.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/executable.h"
#include "hal/semaphore.h"
#include "tests/hal_cts/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// The device under test
//===----------------------------------------------------------------------===//

// Set up by the runner before any test runs.
typedef struct grt_hal_cts_t {
  char device_uri[128];
  char driver_name[64];  // the URI's scheme: "local-sync", "vulkan"
  grt_allocator_t host_allocator;
  grt_hal_driver_registry_t* registry;
  grt_hal_device_t* device;  // NULL when the device is unusable here
  // The first row of kernels.h the device prepares, and its executable;
  // NULL with |kernel_problem| saying why (and |kernel_failed| telling a
  // broken cache, which fails tests, from an absent format, which skips).
  const grt_hal_cts_kernel_format_t* kernel_format;
  grt_hal_executable_t* executable;
  bool kernel_failed;
  char kernel_problem[512];
} grt_hal_cts_t;

extern grt_hal_cts_t grt_hal_cts;

// Creates the device (UNAVAILABLE/NOT_FOUND from the registry mean the
// driver cannot run here) and prepares the suite's kernels: in the first
// format of kernels.h the device accepts, or in |kernel_format| when not
// NULL (INVALID_ARGUMENT when kernels.h has no such row; a device that
// cannot prepare it fails the tests that need kernels).
grt_status_t grt_hal_cts_initialize(const char* device_uri,
                                    const char* kernel_format) GRT_MUST_USE;
void grt_hal_cts_deinitialize(void);

static inline grt_hal_device_t* grt_hal_cts_device(void) {
  return grt_hal_cts.device;
}
static inline grt_hal_allocator_t* grt_hal_cts_allocator(void) {
  return grt_hal_device_allocator(grt_hal_cts.device);
}

// The suite's executable; skips the test when the device prepares no
// format of kernels.h and fails it when preparing went wrong.
grt_hal_executable_t* grt_hal_cts_require_executable(void);

// Workgroups along x that cover |element_count| elements with |kernel|.
uint32_t grt_hal_cts_workgroups_for(grt_hal_cts_kernel_t kernel,
                                    uint64_t element_count);

//===----------------------------------------------------------------------===//
// Helpers (each fails the test on error)
//===----------------------------------------------------------------------===//

// A device-local buffer with the default usage (transfer + dispatch), the
// kind every driver offers.
grt_hal_buffer_t* grt_hal_cts_allocate(uint64_t size);
grt_hal_buffer_t* grt_hal_cts_allocate_with(grt_hal_memory_type_t type,
                                            grt_hal_buffer_usage_t usage,
                                            uint64_t size);
// Host <-> device through hal/transfer.h (works for any memory type).
void grt_hal_cts_write(grt_hal_buffer_t* buffer, uint64_t offset,
                       const void* data, size_t length);
void grt_hal_cts_read(grt_hal_buffer_t* buffer, uint64_t offset, void* data,
                      size_t length);
// Writes |length| copies of |byte|.
void grt_hal_cts_write_bytes(grt_hal_buffer_t* buffer, uint64_t offset,
                             uint8_t byte, size_t length);

grt_hal_command_buffer_t* grt_hal_cts_begin_command_buffer(
    grt_hal_command_buffer_mode_t mode, uint32_t binding_capacity);
grt_hal_semaphore_t* grt_hal_cts_create_semaphore(uint64_t initial_value);

// Submits |command_buffer| (with |table|, which may be NULL) signalling a
// fresh semaphore and waits for it: returns the execute error, or else the
// wait's (a failure during execution).
grt_status_t grt_hal_cts_submit_and_wait(
    grt_hal_command_buffer_t* command_buffer,
    const grt_hal_buffer_binding_table_t* table) GRT_MUST_USE;

// Records one dispatch of |kernel| into |command_buffer|.
grt_status_t grt_hal_cts_dispatch(grt_hal_command_buffer_t* command_buffer,
                                  grt_hal_cts_kernel_t kernel,
                                  uint32_t workgroup_count_x,
                                  const uint32_t* constants,
                                  size_t constant_count,
                                  const grt_hal_buffer_ref_t* bindings,
                                  size_t binding_count) GRT_MUST_USE;

// Compare |count| elements, failing with the first mismatch's index and
// both values, prefixed by |what|.
void grt_hal_cts_expect_bytes(const char* what, const uint8_t* got,
                              const uint8_t* want, size_t count);
void grt_hal_cts_expect_u32(const char* what, const uint32_t* got,
                            const uint32_t* want, size_t count);
void grt_hal_cts_expect_f32(const char* what, const float* got,
                            const float* want, size_t count);

//===----------------------------------------------------------------------===//
// Test groups (one file each); the runner runs them in this order
//===----------------------------------------------------------------------===//

typedef struct grt_hal_cts_group_t {
  const char* name;
  const struct CMUnitTest* tests;
  size_t count;
} grt_hal_cts_group_t;

extern const grt_hal_cts_group_t grt_hal_cts_buffer_group;
extern const grt_hal_cts_group_t grt_hal_cts_buffer_view_group;
extern const grt_hal_cts_group_t grt_hal_cts_command_buffer_group;
extern const grt_hal_cts_group_t grt_hal_cts_dispatch_group;
extern const grt_hal_cts_group_t grt_hal_cts_reusable_group;
extern const grt_hal_cts_group_t grt_hal_cts_semaphore_group;
extern const grt_hal_cts_group_t grt_hal_cts_queue_group;

#define GRT_HAL_CTS_GROUP(symbol, name, tests) \
  const grt_hal_cts_group_t symbol = {name, tests, sizeof(tests) / sizeof((tests)[0])}

#ifdef __cplusplus
}
#endif

#endif  // GRT_TESTS_HAL_CTS_CTS_H_

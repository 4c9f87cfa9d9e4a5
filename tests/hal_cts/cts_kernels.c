// The HAL conformance suite's CPU kernels, written against the kernel ABI
// alone (hal/local/kernel_abi.h) so that the same file is both linked into
// the suite (format cpu-static) and built as a stand-alone shared object
// (format cpu-<arch>) the local executable cache loads from memory.
//
// Every kernel indexes elements by its global invocation id, flattened over
// the whole 3-D grid of workgroups, so a dispatch of N workgroups of 64
// covers elements [0, 64 N) whatever shape the grid has. Each kernel checks
// every access against binding_lengths: tests deliberately dispatch more
// invocations than there are elements.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hal/local/kernel_abi.h"

// The shared object exports only the query symbol under its ABI name; the
// copy linked into the suite is renamed so that it cannot collide with (or
// interpose on) the one in the shared object.
#ifndef GRT_HAL_CTS_QUERY_FN
#define GRT_HAL_CTS_QUERY_FN grt_kernel_library_query
#endif
#if defined(__GNUC__) || defined(__clang__)
#define GRT_HAL_CTS_EXPORT __attribute__((visibility("default")))
#else
#define GRT_HAL_CTS_EXPORT
#endif

#define GRT_HAL_CTS_WORKGROUP_SIZE 64u

const grt_kernel_library_t* GRT_HAL_CTS_QUERY_FN(uint32_t abi_version);

// The first global invocation id of |workgroup| (x fastest, then y, z).
static uint64_t first_invocation(const grt_kernel_dispatch_state_t* dispatch,
                                 const grt_kernel_workgroup_state_t* workgroup) {
  const uint32_t* id = workgroup->workgroup_id;
  const uint32_t* count = dispatch->workgroup_count;
  uint64_t linear =
      ((uint64_t)id[2] * count[1] + id[1]) * count[0] + id[0];
  return linear * dispatch->workgroup_size[0];
}

// Elements of |element_size| bytes that binding |index| holds.
static uint64_t binding_elements(const grt_kernel_dispatch_state_t* dispatch,
                                 uint32_t index, size_t element_size) {
  return dispatch->binding_lengths[index] / element_size;
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

// out[i] = i + constants[0]
static int fill_index_u32(const grt_kernel_dispatch_state_t* dispatch,
                          const grt_kernel_workgroup_state_t* workgroup) {
  uint32_t* out = (uint32_t*)dispatch->bindings[0];
  uint64_t count = binding_elements(dispatch, 0, sizeof(uint32_t));
  uint64_t begin = first_invocation(dispatch, workgroup);
  uint64_t end = min_u64(begin + dispatch->workgroup_size[0], count);
  for (uint64_t i = begin; i < end; ++i) {
    out[i] = (uint32_t)i + dispatch->constants[0];
  }
  return 0;
}

// out[i] = a[i] + b[i]
static int add_f32(const grt_kernel_dispatch_state_t* dispatch,
                   const grt_kernel_workgroup_state_t* workgroup) {
  const float* a = (const float*)dispatch->bindings[0];
  const float* b = (const float*)dispatch->bindings[1];
  float* out = (float*)dispatch->bindings[2];
  uint64_t count = min_u64(binding_elements(dispatch, 0, sizeof(float)),
                           binding_elements(dispatch, 1, sizeof(float)));
  count = min_u64(count, binding_elements(dispatch, 2, sizeof(float)));
  uint64_t begin = first_invocation(dispatch, workgroup);
  uint64_t end = min_u64(begin + dispatch->workgroup_size[0], count);
  for (uint64_t i = begin; i < end; ++i) out[i] = a[i] + b[i];
  return 0;
}

// out[i] = in[i] * scale, with scale's bits in constants[0] (push
// constants are 32-bit words).
static int scale_f32(const grt_kernel_dispatch_state_t* dispatch,
                     const grt_kernel_workgroup_state_t* workgroup) {
  const float* in = (const float*)dispatch->bindings[0];
  float* out = (float*)dispatch->bindings[1];
  float scale;
  memcpy(&scale, &dispatch->constants[0], sizeof(scale));
  uint64_t count = min_u64(binding_elements(dispatch, 0, sizeof(float)),
                           binding_elements(dispatch, 1, sizeof(float)));
  uint64_t begin = first_invocation(dispatch, workgroup);
  uint64_t end = min_u64(begin + dispatch->workgroup_size[0], count);
  for (uint64_t i = begin; i < end; ++i) out[i] = in[i] * scale;
  return 0;
}

// out[i] = out[i] * 2 + 1: a read-modify-write whose result depends on
// exactly what ran before it, so barriers show up in the values.
static int accumulate(const grt_kernel_dispatch_state_t* dispatch,
                      const grt_kernel_workgroup_state_t* workgroup) {
  uint32_t* out = (uint32_t*)dispatch->bindings[0];
  uint64_t count = binding_elements(dispatch, 0, sizeof(uint32_t));
  uint64_t begin = first_invocation(dispatch, workgroup);
  uint64_t end = min_u64(begin + dispatch->workgroup_size[0], count);
  for (uint64_t i = begin; i < end; ++i) out[i] = out[i] * 2u + 1u;
  return 0;
}

// Fails every workgroup with code 5, for failure propagation tests.
static int fail(const grt_kernel_dispatch_state_t* dispatch,
                const grt_kernel_workgroup_state_t* workgroup) {
  (void)dispatch;
  (void)workgroup;
  return 5;
}

static int noop(const grt_kernel_dispatch_state_t* dispatch,
                const grt_kernel_workgroup_state_t* workgroup) {
  (void)dispatch;
  (void)workgroup;
  return 0;
}

// The order and counts must match tests/hal_cts/kernels.c's entry points.
static const grt_kernel_entry_t kEntries[] = {
    {"fill_index_u32", fill_index_u32, 1, 1, {GRT_HAL_CTS_WORKGROUP_SIZE, 1, 1}, 0},
    {"add_f32", add_f32, 3, 0, {GRT_HAL_CTS_WORKGROUP_SIZE, 1, 1}, 0},
    {"scale_f32", scale_f32, 2, 1, {GRT_HAL_CTS_WORKGROUP_SIZE, 1, 1}, 0},
    {"accumulate", accumulate, 1, 0, {GRT_HAL_CTS_WORKGROUP_SIZE, 1, 1}, 0},
    {"fail", fail, 0, 0, {GRT_HAL_CTS_WORKGROUP_SIZE, 1, 1}, 0},
    {"noop", noop, 0, 0, {GRT_HAL_CTS_WORKGROUP_SIZE, 1, 1}, 0},
};

static const grt_kernel_library_t kLibrary = {
    GRT_KERNEL_ABI_VERSION,
    (uint32_t)(sizeof(kEntries) / sizeof(kEntries[0])),
    kEntries,
    "hal_cts",
};

GRT_HAL_CTS_EXPORT const grt_kernel_library_t* GRT_HAL_CTS_QUERY_FN(
    uint32_t abi_version) {
  return abi_version == GRT_KERNEL_ABI_VERSION ? &kLibrary : NULL;
}

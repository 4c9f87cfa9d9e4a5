// The test kernel library described in test_kernels.h, written the way
// grt-compile's generated kernels are: only the kernel ABI header and plain
// C, no grt library code.
#include "hal/local/testdata/test_kernels.h"

#include <stddef.h>
#include <stdint.h>

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

static int add_f32(const grt_kernel_dispatch_state_t* dispatch,
                   const grt_kernel_workgroup_state_t* workgroup) {
  const float* a = (const float*)dispatch->bindings[0];
  const float* b = (const float*)dispatch->bindings[1];
  float* out = (float*)dispatch->bindings[2];
  size_t n = min_size(min_size(dispatch->binding_lengths[0],
                               dispatch->binding_lengths[1]),
                      dispatch->binding_lengths[2]) /
             sizeof(float);
  size_t base = (size_t)workgroup->workgroup_id[0] * dispatch->workgroup_size[0];
  for (uint32_t lane = 0; lane < dispatch->workgroup_size[0]; ++lane) {
    size_t i = base + lane;
    if (i >= n) break;
    out[i] = a[i] + b[i];
  }
  return 0;
}

static int scale_f32(const grt_kernel_dispatch_state_t* dispatch,
                     const grt_kernel_workgroup_state_t* workgroup) {
  union {
    uint32_t bits;
    float value;
  } scale;
  scale.bits = dispatch->constants[0];
  const float* in = (const float*)dispatch->bindings[0];
  float* out = (float*)dispatch->bindings[1];
  size_t n = min_size(dispatch->binding_lengths[0],
                      dispatch->binding_lengths[1]) /
             sizeof(float);
  size_t base = (size_t)workgroup->workgroup_id[0] * dispatch->workgroup_size[0];
  for (uint32_t lane = 0; lane < dispatch->workgroup_size[0]; ++lane) {
    size_t i = base + lane;
    if (i >= n) break;
    out[i] = in[i] * scale.value;
  }
  return 0;
}

static int fail(const grt_kernel_dispatch_state_t* dispatch,
                const grt_kernel_workgroup_state_t* workgroup) {
  (void)dispatch;
  (void)workgroup;
  return GRT_TEST_KERNELS_FAIL_CODE;
}

static int workgroup_ids(const grt_kernel_dispatch_state_t* dispatch,
                         const grt_kernel_workgroup_state_t* workgroup) {
  const uint32_t* id = workgroup->workgroup_id;
  const uint32_t* count = dispatch->workgroup_count;
  size_t index =
      id[0] + (size_t)count[0] * (id[1] + (size_t)count[1] * id[2]);
  if (index >= dispatch->binding_lengths[0] / sizeof(uint32_t)) return 3;
  // Fill all of the promised scratch so a short buffer is caught.
  uint32_t* scratch = (uint32_t*)workgroup->local_memory;
  for (size_t i = 0;
       i < GRT_TEST_KERNELS_WORKGROUP_IDS_LOCAL_MEMORY / sizeof(uint32_t); ++i) {
    scratch[i] = (uint32_t)(index + 1);
  }
  uint32_t* out = (uint32_t*)dispatch->bindings[0];
  out[index] = scratch[index % (GRT_TEST_KERNELS_WORKGROUP_IDS_LOCAL_MEMORY /
                                sizeof(uint32_t))];
  return 0;
}

static const grt_kernel_entry_t entries[GRT_TEST_KERNELS_COUNT] = {
    {"add_f32", add_f32, 3, 0, {64, 1, 1}, 0},
    {"scale_f32", scale_f32, 2, 1, {32, 1, 1}, 0},
    {"fail", fail, 0, 0, {1, 1, 1}, 0},
    {"workgroup_ids", workgroup_ids, 1, 0, {1, 1, 1},
     GRT_TEST_KERNELS_WORKGROUP_IDS_LOCAL_MEMORY},
};

static const grt_kernel_library_t library = {
    GRT_KERNEL_ABI_VERSION,
    GRT_TEST_KERNELS_COUNT,
    entries,
    GRT_TEST_KERNELS_STATIC_NAME,
};

#if defined(GRT_TEST_KERNELS_STATIC)

const grt_kernel_library_t* grt_hal_local_test_kernels_library(void) {
  return &library;
}

#else

// The one exported symbol (the build hides everything else).
__attribute__((visibility("default"))) const grt_kernel_library_t*
grt_kernel_library_query(uint32_t abi_version);

const grt_kernel_library_t* grt_kernel_library_query(uint32_t abi_version) {
  return abi_version == GRT_KERNEL_ABI_VERSION ? &library : NULL;
}

#endif  // GRT_TEST_KERNELS_STATIC

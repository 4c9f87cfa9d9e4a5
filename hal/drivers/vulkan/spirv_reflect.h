// Just enough SPIR-V reflection to check a module against what the module
// file says of its entry point before Vulkan sees it: the GLCompute entry
// point "main", its LocalSize, the storage buffers it declares (highest
// Binding + 1) and the bytes of its push-constant block. Modules are
// untrusted: every instruction's length is checked against the module.
#ifndef GRT_HAL_DRIVERS_VULKAN_SPIRV_REFLECT_H_
#define GRT_HAL_DRIVERS_VULKAN_SPIRV_REFLECT_H_

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// SPIR-V capabilities a compiled kernel may declare that a device enables
// only when it has the matching feature (hal/drivers/vulkan/vulkan_device.c):
// bits of grt_spirv_reflection_t.capabilities.
enum {
  GRT_SPIRV_CAP_INT8 = 1u << 0,       // Int8: shaderInt8
  GRT_SPIRV_CAP_INT16 = 1u << 1,      // Int16: shaderInt16
  GRT_SPIRV_CAP_INT64 = 1u << 2,      // Int64: shaderInt64
  GRT_SPIRV_CAP_FLOAT16 = 1u << 3,    // Float16: shaderFloat16
  GRT_SPIRV_CAP_FLOAT64 = 1u << 4,    // Float64: shaderFloat64
  GRT_SPIRV_CAP_STORAGE8 = 1u << 5,   // StorageBuffer8BitAccess
  GRT_SPIRV_CAP_STORAGE16 = 1u << 6,  // StorageBuffer16BitAccess
  GRT_SPIRV_CAP_COUNT = 7,
};

// The Vulkan feature that capability bit |bit| (one GRT_SPIRV_CAP_*) needs,
// as VkPhysicalDevice*Features names it ("storageBuffer8BitAccess").
const char* grt_spirv_capability_feature(uint32_t bit);

typedef struct grt_spirv_reflection_t {
  uint32_t binding_count;        // highest Binding decoration + 1 (0: none)
  uint32_t push_constant_bytes;  // size of the push-constant block
  uint32_t workgroup_size[3];    // LocalSize; 0s when given by spec ids
  // A variable in descriptor set 1: the out-of-range status word of a
  // bounds-checked kernel (hal/drivers/vulkan/executable.h).
  bool status_word;
  // GRT_SPIRV_CAP_* bits of the OpCapability instructions that need a
  // device feature (other capabilities are not recorded).
  uint32_t capabilities;
} grt_spirv_reflection_t;

// |words|: |word_count| words of a module whose header was verified
// (schemas/spirv_container.h). INVALID_ARGUMENT naming the word offset for
// a malformed instruction; INCOMPATIBLE when there is no GLCompute entry
// point named "main" or a variable is in a descriptor set other than 0
// (the bindings) and 1 (the status word).
grt_status_t grt_spirv_reflect(const uint32_t* words, size_t word_count,
                               grt_allocator_t allocator,
                               grt_spirv_reflection_t* out) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_VULKAN_SPIRV_REFLECT_H_

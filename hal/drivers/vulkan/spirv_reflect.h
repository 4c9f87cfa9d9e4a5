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

typedef struct grt_spirv_reflection_t {
  uint32_t binding_count;        // highest Binding decoration + 1 (0: none)
  uint32_t push_constant_bytes;  // size of the push-constant block
  uint32_t workgroup_size[3];    // LocalSize; 0s when given by spec ids
  // A variable in descriptor set 1: the out-of-range status word of a
  // bounds-checked kernel (hal/drivers/vulkan/executable.h).
  bool status_word;
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

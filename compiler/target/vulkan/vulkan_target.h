// The Vulkan target: every kernel of a module emitted as a GLSL 450
// compute shader, compiled to SPIR-V with shaderc, validated with
// SPIRV-Tools, and packed into one "vulkan-spirv" executable
// (schemas/spirv_container.h; entry point i is kernel i).
//
// The contract with the runtime driver (hal/drivers/vulkan):
//   - kernel binding i is a storage buffer at set 0, binding i (std430
//     array of the element type; i1 as uint8_t; f16/bf16 as uint16_t bit
//     patterns); no push constants.
//   - the linear workgroup id is x + nx * (y + ny * z) over
//     gl_WorkGroupID/gl_NumWorkGroups, and invocations of a workgroup id
//     >= the kernel's workgroup count do nothing, so a driver may spread a
//     count above maxComputeWorkGroupCount[0] over y and z.
//   - the workgroup size is fixed in the shader (LocalSize) and reported
//     by grtc_vulkan_workgroup_size for the executable's entry points.
//   - shaders use 8/16/64-bit integer and 64-bit float types when a
//     kernel's types need them: the device must enable shaderInt8,
//     shaderInt16, shaderInt64, shaderFloat64, storageBuffer8BitAccess and
//     storageBuffer16BitAccess when it has them (lavapipe has all), and
//     refuses a module whose shader declares a capability it did not
//     enable (docs/vulkan.md, "Device features").
#ifndef GRT_COMPILER_TARGET_VULKAN_VULKAN_TARGET_H_
#define GRT_COMPILER_TARGET_VULKAN_VULKAN_TARGET_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_builder.h"
#include "compiler/kernel/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRTC_VULKAN_FORMAT "vulkan-spirv"

// The GLSL compute shader of |kernel| (verified first).
grt_status_t grtc_vulkan_emit_glsl(const grtc_kernel_t* kernel,
                                   grt_string_builder_t* out) GRT_MUST_USE;

// The workgroup size (x; y and z are 1) the shader of |kernel| declares.
uint32_t grtc_vulkan_workgroup_size(const grtc_kernel_t* kernel);

// Whether this build can compile shaders (shaderc was found).
bool grtc_vulkan_available(void);

// Compiles GLSL |source| of the kernel |name| to SPIR-V words (allocated
// from |allocator|) and validates them. A compile error reports the
// kernel's name and shaderc's message; a validation error the kernel's
// name and SPIRV-Tools' message.
grt_status_t grtc_vulkan_compile_glsl(grt_string_view_t name,
                                      grt_string_view_t source,
                                      grt_allocator_t allocator,
                                      uint32_t** out_words,
                                      size_t* out_word_count) GRT_MUST_USE;

// Emits, compiles and validates every kernel and packs the modules into
// the container; *out_binary (from |allocator|) holds its bytes. With
// |keep_glsl| non-NULL every shader's source is appended to it.
grt_status_t grtc_vulkan_build(const grtc_kernel_set_t* kernels,
                               grt_allocator_t allocator,
                               grt_string_builder_t* keep_glsl,
                               uint8_t** out_binary,
                               size_t* out_binary_size) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TARGET_VULKAN_VULKAN_TARGET_H_

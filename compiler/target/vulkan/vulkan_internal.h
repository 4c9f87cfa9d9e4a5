// Pieces of the Vulkan target shared between its files (not a public API).
#ifndef GRT_COMPILER_TARGET_VULKAN_VULKAN_INTERNAL_H_
#define GRT_COMPILER_TARGET_VULKAN_VULKAN_INTERNAL_H_

#include <stdbool.h>

#include "base/string_builder.h"
#include "compiler/kernel/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

// The scalar helpers for the element types marked in |used| (integer
// helpers per type; float helpers always; the f64 ones and rounding from
// double when F64 is marked).
void grtc_vulkan_emit_prelude(const bool used[GRTC_ELEM_COUNT],
                              grt_string_builder_t* out);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_TARGET_VULKAN_VULKAN_INTERNAL_H_

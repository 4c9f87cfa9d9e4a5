// The binary of a "vulkan-spirv" executable: the SPIR-V modules of its
// entry points in one blob. The compiler's Vulkan target writes it; the
// Vulkan HAL driver reads (and verifies) it before creating pipelines.
//
// Layout, all fields little-endian u32:
//   magic        0x56535247 ('GRSV' read as bytes G R S V)
//   version      1
//   entry_count
//   entry_count records {offset, size}: byte offset from the binary's
//     start (4-aligned) and size (a multiple of 4, >= 20: the SPIR-V
//     header) of entry i's module
//   the modules: each a SPIR-V module (first word 0x07230203) whose one
//     entry point is "main"; entry i of the executable is module i.
// Modules may share bytes (overlap is not an error): the reader only
// checks what it needs to hand each module to vkCreateShaderModule safely.
#ifndef GRT_SCHEMAS_SPIRV_CONTAINER_H_
#define GRT_SCHEMAS_SPIRV_CONTAINER_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_SPIRV_CONTAINER_MAGIC 0x56535247u
#define GRT_SPIRV_CONTAINER_VERSION 1u
#define GRT_SPIRV_MAGIC 0x07230203u
// The SPIR-V header is 5 words: magic, version, generator, bound, schema.
#define GRT_SPIRV_HEADER_BYTES 20u

// One module as the writer takes it: |word_count| words in host order.
typedef struct grt_spirv_module_t {
  const uint32_t* words;
  size_t word_count;
} grt_spirv_module_t;

// Writes the container of |count| modules into a buffer allocated from
// |allocator| (free it with grt_allocator_free). Each module must pass
// the reader's checks (SPIR-V magic, at least the header).
grt_status_t grt_spirv_container_write(const grt_spirv_module_t* modules,
                                       uint32_t count,
                                       grt_allocator_t allocator,
                                       uint8_t** out_data,
                                       size_t* out_size) GRT_MUST_USE;

// A verified view of a container (borrowing the caller's bytes).
typedef struct grt_spirv_container_t {
  const uint8_t* data;
  size_t size;
  uint32_t entry_count;
} grt_spirv_container_t;

// Verifies |data| (header, every record's bounds, alignment and size, each
// module's SPIR-V magic); errors name the field, what was expected and
// what was found. |data| must be 4-byte aligned (module words are read in
// place); a misaligned pointer is reported as an error.
grt_status_t grt_spirv_container_parse(const uint8_t* data, size_t size,
                                       grt_spirv_container_t* out)
    GRT_MUST_USE;

// Module |index| (< entry_count) of a parsed container: its words (in
// place, little-endian as SPIR-V is stored) and byte size.
void grt_spirv_container_module(const grt_spirv_container_t* container,
                                uint32_t index, const uint32_t** out_words,
                                size_t* out_size);

#ifdef __cplusplus
}
#endif

#endif  // GRT_SCHEMAS_SPIRV_CONTAINER_H_

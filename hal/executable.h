// Executables and executable caches: compiled kernels made ready for a
// device.
//
// A module (.vmfb) carries one executable per target format ("cpu-x86_64",
// "cpu-aarch64", "cpu-static", "cuda-ptx", "vulkan-spirv"), each with a
// table of entry points (name, binding count, constant count, workgroup
// size) and a SHA-256 digest of the binary. A device's executable cache
// says which formats it can prepare and turns (format, binary, digest,
// expected entry points) into an executable, checking that the binary
// really provides those entry points with those counts: a mismatch is
// INCOMPATIBLE naming the entry point and both values. Caches remember
// executables by digest, so loading one module twice prepares once.
#ifndef GRT_HAL_EXECUTABLE_H_
#define GRT_HAL_EXECUTABLE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "hal/resource.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRT_HAL_EXECUTABLE_DIGEST_SIZE 32

typedef struct grt_hal_executable_t grt_hal_executable_t;
typedef struct grt_hal_executable_cache_t grt_hal_executable_cache_t;

typedef struct grt_hal_entry_point_info_t {
  grt_string_view_t name;
  uint32_t binding_count;
  uint32_t constant_count;  // 32-bit push constants
  uint32_t workgroup_size[3];
  // Per binding (binding_count entries) or NULL when the module does not
  // say. binding_access: grt_hal_memory_access_t bits, READ and/or WRITE
  // (NULL: every binding may be written, so none may be read-only).
  // binding_min_lengths: the fewest bytes the kernel touches through the
  // binding (NULL or 0: not known); dispatches with shorter bindings are
  // refused when recorded.
  const uint8_t* binding_access;
  const uint64_t* binding_min_lengths;
} grt_hal_entry_point_info_t;

// Whether the kernel of |entry| may write binding |ordinal| (true when the
// module does not say).
static inline bool grt_hal_entry_point_writes_binding(
    const grt_hal_entry_point_info_t* entry, size_t ordinal) {
  return !entry->binding_access || (entry->binding_access[ordinal] & 2u);
}
// The fewest bytes binding |ordinal| must hold (0: no minimum known).
static inline uint64_t grt_hal_entry_point_binding_min_length(
    const grt_hal_entry_point_info_t* entry, size_t ordinal) {
  return entry->binding_min_lengths ? entry->binding_min_lengths[ordinal] : 0;
}

typedef struct grt_hal_executable_params_t {
  grt_string_view_t format;
  const uint8_t* binary;  // borrowed for the call; implementations copy or
  size_t binary_size;     // load what they keep
  const uint8_t* digest;  // GRT_HAL_EXECUTABLE_DIGEST_SIZE bytes
  const grt_hal_entry_point_info_t* entry_points;  // what the module expects
  size_t entry_point_count;
} grt_hal_executable_params_t;

typedef struct grt_hal_executable_vtable_t {
  grt_hal_resource_vtable_t base;
} grt_hal_executable_vtable_t;

// The common part of every executable; implementations embed it first.
struct grt_hal_executable_t {
  grt_hal_resource_t resource;
  grt_allocator_t host_allocator;
  uint8_t digest[GRT_HAL_EXECUTABLE_DIGEST_SIZE];
  size_t entry_point_count;
  // Owned copies (names included) made by grt_hal_executable_initialize.
  grt_hal_entry_point_info_t* entry_points;
};

// For implementations: copies |params|' entry points (with their names and
// per-binding arrays) and digest into the header. Free with grt_hal_executable_deinitialize.
grt_status_t grt_hal_executable_initialize(
    const grt_hal_executable_vtable_t* vtable,
    const grt_hal_executable_params_t* params, grt_allocator_t host_allocator,
    grt_hal_executable_t* executable) GRT_MUST_USE;
void grt_hal_executable_deinitialize(grt_hal_executable_t* executable);

static inline void grt_hal_executable_retain(grt_hal_executable_t* e) {
  grt_hal_resource_retain(e);
}
static inline void grt_hal_executable_release(grt_hal_executable_t* e) {
  grt_hal_resource_release(e);
}
static inline size_t grt_hal_executable_entry_point_count(
    const grt_hal_executable_t* e) {
  return e->entry_point_count;
}
// OUT_OF_RANGE "entry point 5 is out of range (executable has 2)".
grt_status_t grt_hal_executable_entry_point(const grt_hal_executable_t* e,
                                            uint32_t ordinal,
                                            const grt_hal_entry_point_info_t** out)
    GRT_MUST_USE;

// Whether two entry point descriptions are the same in every field (name,
// counts, workgroup size, per-binding access and minimum lengths): caches
// that share an executable between modules with the same binary digest
// must also match this, since those fields come from the module.
bool grt_hal_entry_point_info_equal(const grt_hal_entry_point_info_t* a,
                                    const grt_hal_entry_point_info_t* b);

// Compares what a binary provides with what the module expects; used by
// every implementation. INCOMPATIBLE: "executable cpu-x86_64: entry point
// 1 'mul': module expects 3 bindings, binary has 2" / "... binary has no
// entry point 'mul'" / "module expects 2 entry points, binary has 3".
grt_status_t grt_hal_executable_check_entry_points(
    grt_string_view_t format, const grt_hal_entry_point_info_t* expected,
    size_t expected_count, const grt_hal_entry_point_info_t* actual,
    size_t actual_count) GRT_MUST_USE;

typedef struct grt_hal_executable_cache_vtable_t {
  grt_hal_resource_vtable_t base;
  bool (*can_prepare_format)(grt_hal_executable_cache_t* cache,
                             grt_string_view_t format);
  grt_status_t (*prepare_executable)(grt_hal_executable_cache_t* cache,
                                     const grt_hal_executable_params_t* params,
                                     grt_hal_executable_t** out_executable);
} grt_hal_executable_cache_vtable_t;

struct grt_hal_executable_cache_t {
  grt_hal_resource_t resource;
};

static inline void grt_hal_executable_cache_retain(grt_hal_executable_cache_t* c) {
  grt_hal_resource_retain(c);
}
static inline void grt_hal_executable_cache_release(grt_hal_executable_cache_t* c) {
  grt_hal_resource_release(c);
}
bool grt_hal_executable_cache_can_prepare_format(
    grt_hal_executable_cache_t* cache, grt_string_view_t format);
// Validates params (digest present, binary non-empty), then prepares.
// An unsupported format is INCOMPATIBLE "device cannot run executable
// format 'cuda-ptx'".
grt_status_t grt_hal_executable_cache_prepare(
    grt_hal_executable_cache_t* cache, const grt_hal_executable_params_t* params,
    grt_hal_executable_t** out_executable) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_EXECUTABLE_H_

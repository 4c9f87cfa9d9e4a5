// Name index: a hash table from names (string views) to 32-bit values, for
// the symbol tables of tools that handle many names (the vm assembler's
// symbols, the module writer's functions and exports), so looking a name up
// costs the same with 100 000 names as with ten.
//
// Open addressing with linear probing, FNV-1a hashing, grown to keep at
// most half the slots in use. Names are borrowed: their bytes must outlive
// the index (callers index names they own, e.g. copies in an arena).
#ifndef GRT_BASE_NAME_INDEX_H_
#define GRT_BASE_NAME_INDEX_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_name_index_slot_t {
  grt_string_view_t name;  // data NULL: empty slot
  uint32_t value;
} grt_name_index_slot_t;

typedef struct grt_name_index_t {
  grt_allocator_t allocator;
  grt_name_index_slot_t* slots;
  size_t capacity;  // a power of two, or 0
  size_t count;
} grt_name_index_t;

void grt_name_index_initialize(grt_allocator_t allocator,
                               grt_name_index_t* out_index);
void grt_name_index_deinitialize(grt_name_index_t* index);

// True and *out_value when |name| is in the index.
bool grt_name_index_find(const grt_name_index_t* index, grt_string_view_t name,
                         uint32_t* out_value);

// Adds |name| -> |value|. When |name| is already there the index is left
// as it was, *out_existing (if not NULL) receives the value it has and the
// call returns ALREADY_EXISTS naming it; callers that want their own
// message check *out_existing. RESOURCE_EXHAUSTED when growing fails.
grt_status_t grt_name_index_insert(grt_name_index_t* index,
                                   grt_string_view_t name, uint32_t value,
                                   uint32_t* out_existing) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_BASE_NAME_INDEX_H_

#include "base/name_index.h"

#include <string.h>

void grt_name_index_initialize(grt_allocator_t allocator,
                               grt_name_index_t* out_index) {
  memset(out_index, 0, sizeof(*out_index));
  out_index->allocator = allocator;
}

void grt_name_index_deinitialize(grt_name_index_t* index) {
  grt_allocator_free(index->allocator, index->slots);
  grt_allocator_t allocator = index->allocator;
  grt_name_index_initialize(allocator, index);
}

// The slot holding |name|, or the empty slot where it would go.
static grt_name_index_slot_t* grt_name_index_probe(
    const grt_name_index_t* index, grt_string_view_t name) {
  size_t mask = index->capacity - 1;
  for (size_t i = (size_t)grt_string_view_hash(name) & mask;; i = (i + 1) & mask) {
    grt_name_index_slot_t* slot = &index->slots[i];
    if (!slot->name.data || grt_string_view_equal(slot->name, name)) {
      return slot;
    }
  }
}

bool grt_name_index_find(const grt_name_index_t* index, grt_string_view_t name,
                         uint32_t* out_value) {
  if (index->capacity == 0) return false;
  const grt_name_index_slot_t* slot = grt_name_index_probe(index, name);
  if (!slot->name.data) return false;
  *out_value = slot->value;
  return true;
}

static grt_status_t grt_name_index_grow(grt_name_index_t* index) {
  size_t capacity = index->capacity ? index->capacity * 2 : 64;
  grt_name_index_t grown = *index;
  grown.capacity = capacity;
  grown.slots = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      index->allocator, capacity * sizeof(*grown.slots), (void**)&grown.slots));
  for (size_t i = 0; i < index->capacity; ++i) {
    if (index->slots[i].name.data) {
      *grt_name_index_probe(&grown, index->slots[i].name) = index->slots[i];
    }
  }
  grt_allocator_free(index->allocator, index->slots);
  *index = grown;
  return grt_ok_status();
}

grt_status_t grt_name_index_insert(grt_name_index_t* index,
                                   grt_string_view_t name, uint32_t value,
                                   uint32_t* out_existing) {
  if (index->capacity) {
    grt_name_index_slot_t* slot = grt_name_index_probe(index, name);
    if (slot->name.data) {
      if (out_existing) *out_existing = slot->value;
      return grt_make_status(GRT_STATUS_ALREADY_EXISTS,
                             "name '%.*s' is already in the index",
                             GRT_SV_ARG(name));
    }
  }
  if ((index->count + 1) * 2 > index->capacity) {
    GRT_RETURN_IF_ERROR(grt_name_index_grow(index));
  }
  // An empty view still needs a non-NULL pointer to mark the slot used.
  grt_name_index_slot_t* slot = grt_name_index_probe(index, name);
  slot->name = name.data ? name : grt_make_string_view("", 0);
  slot->value = value;
  ++index->count;
  return grt_ok_status();
}

// Back-to-front FlatBuffers builder. The buffer's live bytes are the last
// |used| bytes of |buffer|; growing copies them to the end of a larger
// block, so refs (distances from the end) never change.
#include "base/flatbuffer_builder.h"

#include <string.h>

// Offsets in a FlatBuffer are 32-bit and must read as non-negative.
#define GRT_FB_BUILDER_MAX_SIZE 0x7FFFFFFFu
// A vtable holds u16 sizes, so a table has at most this many field slots.
#define GRT_FB_BUILDER_MAX_FIELD_ID ((0xFFFFu - 4u) / 2u - 1u)

static void grt_fb_builder_fail(grt_fb_builder_t* builder, grt_status_t status) {
  if (builder->status) {
    grt_status_free(status);
  } else {
    builder->status = status;
  }
}

static bool grt_fb_builder_usable(grt_fb_builder_t* builder, bool in_table) {
  if (builder->status) return false;
  if (builder->finished) {
    grt_fb_builder_fail(builder,
                        grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                                        "flatbuffer builder used after finish"));
    return false;
  }
  if (builder->in_table != in_table) {
    grt_fb_builder_fail(
        builder,
        grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                        in_table ? "flatbuffer builder: field added outside a "
                                   "table"
                                 : "flatbuffer builder: strings, vectors and "
                                   "tables cannot be created while a table "
                                   "is open"));
    return false;
  }
  return true;
}

void grt_fb_builder_initialize(grt_allocator_t allocator,
                               grt_fb_builder_t* out_builder) {
  memset(out_builder, 0, sizeof(*out_builder));
  out_builder->allocator = allocator;
  out_builder->min_alignment = 1;
}

void grt_fb_builder_deinitialize(grt_fb_builder_t* builder) {
  grt_allocator_free(builder->allocator, builder->buffer);
  grt_allocator_free(builder->allocator, builder->fields);
  grt_allocator_free(builder->allocator, builder->vtables);
  grt_status_free(builder->status);
  memset(builder, 0, sizeof(*builder));
}

// Makes room for |size| more bytes at the front.
static bool grt_fb_builder_reserve(grt_fb_builder_t* builder, size_t size) {
  if (builder->status) return false;
  if (size > GRT_FB_BUILDER_MAX_SIZE - builder->used) {
    grt_fb_builder_fail(builder,
                        grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                                        "flatbuffer would exceed %u bytes "
                                        "(have %zu, adding %zu)",
                                        GRT_FB_BUILDER_MAX_SIZE, builder->used,
                                        size));
    return false;
  }
  if (builder->capacity - builder->used >= size) return true;
  size_t capacity = builder->capacity ? builder->capacity * 2 : 1024;
  while (capacity - builder->used < size) capacity *= 2;
  // Capacity stays a multiple of the builder alignment so the buffer's end,
  // which all alignment is measured from, is itself aligned.
  uint8_t* grown = NULL;
  grt_status_t status = grt_allocator_malloc_aligned(
      builder->allocator, capacity, GRT_FB_BUILDER_ALIGNMENT, (void**)&grown);
  if (!grt_status_is_ok(status)) {
    grt_fb_builder_fail(builder, status);
    return false;
  }
  if (builder->used) {
    memcpy(grown + capacity - builder->used,
           builder->buffer + builder->capacity - builder->used, builder->used);
  }
  grt_allocator_free(builder->allocator, builder->buffer);
  builder->buffer = grown;
  builder->capacity = capacity;
  return true;
}

static uint8_t* grt_fb_builder_at(grt_fb_builder_t* builder, grt_fb_ref_t ref) {
  return builder->buffer + builder->capacity - ref;
}

// Returns where |size| new bytes start, or NULL after a failure.
static uint8_t* grt_fb_builder_push(grt_fb_builder_t* builder, size_t size) {
  if (!grt_fb_builder_reserve(builder, size)) return NULL;
  builder->used += size;
  return grt_fb_builder_at(builder, (grt_fb_ref_t)builder->used);
}

static void grt_fb_builder_push_bytes(grt_fb_builder_t* builder,
                                      const void* bytes, size_t size) {
  if (size == 0) return;  // |bytes| may be NULL and the buffer unallocated
  uint8_t* at = grt_fb_builder_push(builder, size);
  if (at) memcpy(at, bytes, size);
}

static void grt_fb_builder_push_uint(grt_fb_builder_t* builder, uint64_t value,
                                     size_t size) {
  uint8_t* at = grt_fb_builder_push(builder, size);
  if (!at) return;
  for (size_t i = 0; i < size; ++i) at[i] = (uint8_t)(value >> (8 * i));
}

// Pads so that after |additional| more bytes the front is |alignment|-aligned.
static void grt_fb_builder_prep(grt_fb_builder_t* builder, size_t alignment,
                                size_t additional) {
  if (alignment > builder->min_alignment) builder->min_alignment = alignment;
  size_t padding = (alignment - ((builder->used + additional) & (alignment - 1))) &
                   (alignment - 1);
  if (padding == 0) return;
  uint8_t* at = grt_fb_builder_push(builder, padding);
  if (at) memset(at, 0, padding);
}

static bool grt_fb_builder_check_alignment(grt_fb_builder_t* builder,
                                           size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 ||
      alignment > GRT_FB_BUILDER_ALIGNMENT) {
    grt_fb_builder_fail(builder,
                        grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                        "flatbuffer builder: alignment %zu is "
                                        "not a power of two <= %d",
                                        alignment, GRT_FB_BUILDER_ALIGNMENT));
    return false;
  }
  return true;
}

static void grt_fb_builder_push_uoffset(grt_fb_builder_t* builder,
                                        grt_fb_ref_t ref) {
  grt_fb_builder_prep(builder, 4, 0);
  if (builder->status) return;
  if (ref == 0 || ref > builder->used) {
    grt_fb_builder_fail(builder,
                        grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                        "flatbuffer builder: ref %u does not "
                                        "name an object built so far "
                                        "(buffer has %zu bytes)",
                                        ref, builder->used));
    return;
  }
  grt_fb_builder_push_uint(builder, builder->used + 4 - ref, 4);
}

grt_fb_ref_t grt_fb_builder_create_string(grt_fb_builder_t* builder,
                                          grt_string_view_t value) {
  if (!grt_fb_builder_usable(builder, false)) return 0;
  if (value.size > GRT_FB_BUILDER_MAX_SIZE) {
    grt_fb_builder_fail(builder, grt_make_status(
                                     GRT_STATUS_RESOURCE_EXHAUSTED,
                                     "flatbuffer string of %zu bytes is too "
                                     "long",
                                     value.size));
    return 0;
  }
  grt_fb_builder_prep(builder, 4, value.size + 1);
  grt_fb_builder_push_uint(builder, 0, 1);
  grt_fb_builder_push_bytes(builder, value.data, value.size);
  grt_fb_builder_push_uint(builder, value.size, 4);
  return builder->status ? 0 : (grt_fb_ref_t)builder->used;
}

grt_fb_ref_t grt_fb_builder_create_vector(grt_fb_builder_t* builder,
                                          const void* elements, size_t count,
                                          size_t element_size,
                                          size_t alignment) {
  if (!grt_fb_builder_usable(builder, false) ||
      !grt_fb_builder_check_alignment(builder, alignment)) {
    return 0;
  }
  if (element_size && count > GRT_FB_BUILDER_MAX_SIZE / element_size) {
    grt_fb_builder_fail(builder, grt_make_status(
                                     GRT_STATUS_RESOURCE_EXHAUSTED,
                                     "flatbuffer vector of %zu elements of "
                                     "%zu bytes is too large",
                                     count, element_size));
    return 0;
  }
  size_t bytes = count * element_size;
  grt_fb_builder_prep(builder, 4, bytes);
  grt_fb_builder_prep(builder, alignment, bytes);
  grt_fb_builder_push_bytes(builder, elements, bytes);
  grt_fb_builder_push_uint(builder, count, 4);
  return builder->status ? 0 : (grt_fb_ref_t)builder->used;
}

grt_fb_ref_t grt_fb_builder_create_offset_vector(grt_fb_builder_t* builder,
                                                 const grt_fb_ref_t* refs,
                                                 size_t count) {
  if (!grt_fb_builder_usable(builder, false)) return 0;
  if (count > GRT_FB_BUILDER_MAX_SIZE / 4) {
    grt_fb_builder_fail(builder, grt_make_status(
                                     GRT_STATUS_RESOURCE_EXHAUSTED,
                                     "flatbuffer vector of %zu offsets is too "
                                     "large",
                                     count));
    return 0;
  }
  grt_fb_builder_prep(builder, 4, 4 * count);
  for (size_t i = count; i > 0; --i) {
    grt_fb_builder_push_uoffset(builder, refs[i - 1]);
  }
  grt_fb_builder_push_uint(builder, count, 4);
  return builder->status ? 0 : (grt_fb_ref_t)builder->used;
}

void grt_fb_builder_start_table(grt_fb_builder_t* builder) {
  if (!grt_fb_builder_usable(builder, false)) return;
  builder->in_table = true;
  builder->table_start = builder->used;
  builder->field_count = 0;
}

static void grt_fb_builder_record_field(grt_fb_builder_t* builder,
                                        uint32_t id) {
  if (builder->status) return;
  if (id > GRT_FB_BUILDER_MAX_FIELD_ID) {
    grt_fb_builder_fail(builder, grt_make_status(
                                     GRT_STATUS_INVALID_ARGUMENT,
                                     "flatbuffer builder: field id %u exceeds "
                                     "the maximum %u",
                                     id, GRT_FB_BUILDER_MAX_FIELD_ID));
    return;
  }
  if (builder->field_count == builder->field_capacity) {
    size_t capacity = builder->field_capacity ? builder->field_capacity * 2 : 16;
    grt_status_t status = grt_allocator_realloc(
        builder->allocator, builder->field_capacity * sizeof(grt_fb_field_loc_t),
        capacity * sizeof(grt_fb_field_loc_t), (void**)&builder->fields);
    if (!grt_status_is_ok(status)) {
      grt_fb_builder_fail(builder, status);
      return;
    }
    builder->field_capacity = capacity;
  }
  builder->fields[builder->field_count].id = id;
  builder->fields[builder->field_count].ref = (grt_fb_ref_t)builder->used;
  ++builder->field_count;
}

void grt_fb_builder_force_scalar(grt_fb_builder_t* builder, uint32_t id,
                                 uint64_t value, size_t size) {
  if (!grt_fb_builder_usable(builder, true)) return;
  if (size != 1 && size != 2 && size != 4 && size != 8) {
    grt_fb_builder_fail(builder, grt_make_status(
                                     GRT_STATUS_INVALID_ARGUMENT,
                                     "flatbuffer builder: scalar size %zu is "
                                     "not 1, 2, 4 or 8",
                                     size));
    return;
  }
  grt_fb_builder_prep(builder, size, 0);
  grt_fb_builder_push_uint(builder, value, size);
  grt_fb_builder_record_field(builder, id);
}

void grt_fb_builder_add_scalar(grt_fb_builder_t* builder, uint32_t id,
                               uint64_t value, uint64_t default_value,
                               size_t size) {
  uint64_t mask = size >= 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * size)) - 1);
  if ((value & mask) == (default_value & mask)) return;
  grt_fb_builder_force_scalar(builder, id, value, size);
}

void grt_fb_builder_add_struct(grt_fb_builder_t* builder, uint32_t id,
                               const void* value, size_t size,
                               size_t alignment) {
  if (!grt_fb_builder_usable(builder, true) ||
      !grt_fb_builder_check_alignment(builder, alignment)) {
    return;
  }
  grt_fb_builder_prep(builder, alignment, size);
  grt_fb_builder_push_bytes(builder, value, size);
  grt_fb_builder_record_field(builder, id);
}

void grt_fb_builder_add_offset(grt_fb_builder_t* builder, uint32_t id,
                               grt_fb_ref_t ref) {
  if (!grt_fb_builder_usable(builder, true) || ref == 0) return;
  grt_fb_builder_push_uoffset(builder, ref);
  grt_fb_builder_record_field(builder, id);
}

// Returns a vtable already in the buffer with the same bytes as the one at
// the front, or 0.
static grt_fb_ref_t grt_fb_builder_find_vtable(grt_fb_builder_t* builder,
                                               size_t vtable_size) {
  const uint8_t* candidate = grt_fb_builder_at(builder, (grt_fb_ref_t)builder->used);
  for (size_t i = 0; i < builder->vtable_count; ++i) {
    const uint8_t* existing = grt_fb_builder_at(builder, builder->vtables[i]);
    // Sizes first: the full compare must not run past a shorter vtable.
    if (memcmp(existing, candidate, 2) == 0 &&
        memcmp(existing, candidate, vtable_size) == 0) {
      return builder->vtables[i];
    }
  }
  return 0;
}

static void grt_fb_builder_remember_vtable(grt_fb_builder_t* builder,
                                           grt_fb_ref_t vtable) {
  if (builder->vtable_count == builder->vtable_capacity) {
    size_t capacity = builder->vtable_capacity ? builder->vtable_capacity * 2 : 16;
    grt_status_t status = grt_allocator_realloc(
        builder->allocator, builder->vtable_capacity * sizeof(grt_fb_ref_t),
        capacity * sizeof(grt_fb_ref_t), (void**)&builder->vtables);
    if (!grt_status_is_ok(status)) {
      grt_fb_builder_fail(builder, status);
      return;
    }
    builder->vtable_capacity = capacity;
  }
  builder->vtables[builder->vtable_count++] = vtable;
}

grt_fb_ref_t grt_fb_builder_end_table(grt_fb_builder_t* builder) {
  if (!grt_fb_builder_usable(builder, true)) return 0;
  builder->in_table = false;
  grt_fb_builder_prep(builder, 4, 0);
  grt_fb_builder_push_uint(builder, 0, 4);  // soffset, patched below
  if (builder->status) return 0;
  grt_fb_ref_t table = (grt_fb_ref_t)builder->used;
  size_t table_size = table - builder->table_start;
  uint32_t slot_count = 0;
  for (size_t i = 0; i < builder->field_count; ++i) {
    if (builder->fields[i].id + 1 > slot_count) {
      slot_count = builder->fields[i].id + 1;
    }
  }
  size_t vtable_size = 4 + 2 * (size_t)slot_count;
  if (table_size > 0xFFFF) {
    grt_fb_builder_fail(builder, grt_make_status(
                                     GRT_STATUS_RESOURCE_EXHAUSTED,
                                     "flatbuffer table of %zu bytes exceeds "
                                     "the 65535-byte limit",
                                     table_size));
    return 0;
  }
  uint8_t* vtable = grt_fb_builder_push(builder, vtable_size);
  if (!vtable) return 0;
  memset(vtable, 0, vtable_size);
  vtable[0] = (uint8_t)vtable_size;
  vtable[1] = (uint8_t)(vtable_size >> 8);
  vtable[2] = (uint8_t)table_size;
  vtable[3] = (uint8_t)(table_size >> 8);
  for (size_t i = 0; i < builder->field_count; ++i) {
    uint8_t* slot = vtable + 4 + 2 * (size_t)builder->fields[i].id;
    if (slot[0] | slot[1]) {
      grt_fb_builder_fail(builder, grt_make_status(
                                       GRT_STATUS_INVALID_ARGUMENT,
                                       "flatbuffer builder: field id %u added "
                                       "twice to one table",
                                       builder->fields[i].id));
      return 0;
    }
    uint32_t field_offset = table - builder->fields[i].ref;
    slot[0] = (uint8_t)field_offset;
    slot[1] = (uint8_t)(field_offset >> 8);
  }
  grt_fb_ref_t existing = grt_fb_builder_find_vtable(builder, vtable_size);
  int64_t soffset;
  if (existing) {
    builder->used -= vtable_size;  // share the earlier copy instead
    soffset = (int64_t)existing - (int64_t)table;
  } else {
    grt_fb_builder_remember_vtable(builder, (grt_fb_ref_t)builder->used);
    soffset = (int64_t)builder->used - (int64_t)table;
  }
  uint8_t* table_at = grt_fb_builder_at(builder, table);
  uint32_t encoded = (uint32_t)(int32_t)soffset;
  for (int i = 0; i < 4; ++i) table_at[i] = (uint8_t)(encoded >> (8 * i));
  return builder->status ? 0 : table;
}

grt_status_t grt_fb_builder_finish(grt_fb_builder_t* builder,
                                   grt_fb_ref_t root, const char* identifier,
                                   bool size_prefixed,
                                   grt_const_byte_span_t* out_buffer) {
  *out_buffer = grt_make_const_byte_span(NULL, 0);
  if (grt_fb_builder_usable(builder, false)) {
    grt_fb_builder_prep(builder, builder->min_alignment,
                        4 + (identifier ? 4 : 0) + (size_prefixed ? 4 : 0));
    if (identifier) {
      grt_fb_builder_push_bytes(builder, identifier, 4);
    }
    grt_fb_builder_push_uoffset(builder, root);
    if (size_prefixed) grt_fb_builder_push_uint(builder, builder->used, 4);
  }
  builder->finished = true;
  if (builder->status) {
    grt_status_t status = builder->status;  // ownership passes to the caller
    builder->status = NULL;
    return status;
  }
  *out_buffer = grt_make_const_byte_span(
      grt_fb_builder_at(builder, (grt_fb_ref_t)builder->used), builder->used);
  return grt_ok_status();
}

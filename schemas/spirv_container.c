// The "vulkan-spirv" executable container (see spirv_container.h).
#include "schemas/spirv_container.h"

#include <string.h>

#include "base/endian.h"

enum { GRT_SPIRV_CONTAINER_HEADER_BYTES = 12, GRT_SPIRV_RECORD_BYTES = 8 };

static grt_status_t grt_spirv_check_module_words(const uint32_t* words,
                                                 size_t word_count,
                                                 uint32_t index) {
  if (word_count * 4 < GRT_SPIRV_HEADER_BYTES) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "spirv container: module %u has %zu bytes, "
                           "expected at least %u (the SPIR-V header)",
                           index, word_count * 4, GRT_SPIRV_HEADER_BYTES);
  }
  if (words[0] != GRT_SPIRV_MAGIC) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "spirv container: module %u starts with 0x%08x, "
                           "expected the SPIR-V magic 0x%08x",
                           index, words[0], GRT_SPIRV_MAGIC);
  }
  return grt_ok_status();
}

grt_status_t grt_spirv_container_write(const grt_spirv_module_t* modules,
                                       uint32_t count,
                                       grt_allocator_t allocator,
                                       uint8_t** out_data, size_t* out_size) {
  *out_data = NULL;
  *out_size = 0;
  size_t size = GRT_SPIRV_CONTAINER_HEADER_BYTES +
                (size_t)count * GRT_SPIRV_RECORD_BYTES;
  for (uint32_t i = 0; i < count; ++i) {
    GRT_RETURN_IF_ERROR(grt_spirv_check_module_words(
        modules[i].words, modules[i].word_count, i));
    size += modules[i].word_count * 4;
  }
  if (size > UINT32_MAX) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "spirv container: %zu bytes, expected at most "
                           "%u (offsets are u32)",
                           size, UINT32_MAX);
  }
  uint8_t* data = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(allocator, size, (void**)&data));
  grt_store_le_u32(data + 0, GRT_SPIRV_CONTAINER_MAGIC);
  grt_store_le_u32(data + 4, GRT_SPIRV_CONTAINER_VERSION);
  grt_store_le_u32(data + 8, count);
  size_t offset = GRT_SPIRV_CONTAINER_HEADER_BYTES +
                  (size_t)count * GRT_SPIRV_RECORD_BYTES;
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t* record = data + GRT_SPIRV_CONTAINER_HEADER_BYTES +
                      (size_t)i * GRT_SPIRV_RECORD_BYTES;
    size_t bytes = modules[i].word_count * 4;
    grt_store_le_u32(record, (uint32_t)offset);
    grt_store_le_u32(record + 4, (uint32_t)bytes);
    for (size_t w = 0; w < modules[i].word_count; ++w) {
      grt_store_le_u32(data + offset + w * 4, modules[i].words[w]);
    }
    offset += bytes;
  }
  *out_data = data;
  *out_size = size;
  return grt_ok_status();
}

grt_status_t grt_spirv_container_parse(const uint8_t* data, size_t size,
                                       grt_spirv_container_t* out) {
  memset(out, 0, sizeof(*out));
  if (((uintptr_t)data & 3) != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "spirv container: data at %p, expected a 4-byte "
                           "aligned address",
                           (const void*)data);
  }
  if (size < GRT_SPIRV_CONTAINER_HEADER_BYTES) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "spirv container: %zu bytes, expected at least "
                           "%d (the header)",
                           size, GRT_SPIRV_CONTAINER_HEADER_BYTES);
  }
  uint32_t magic = grt_load_le_u32(data);
  if (magic != GRT_SPIRV_CONTAINER_MAGIC) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "spirv container: magic 0x%08x, expected 0x%08x "
                           "('GRSV')",
                           magic, GRT_SPIRV_CONTAINER_MAGIC);
  }
  uint32_t version = grt_load_le_u32(data + 4);
  if (version != GRT_SPIRV_CONTAINER_VERSION) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "spirv container: version %u, expected %u",
                           version, GRT_SPIRV_CONTAINER_VERSION);
  }
  uint32_t count = grt_load_le_u32(data + 8);
  size_t table_end = GRT_SPIRV_CONTAINER_HEADER_BYTES +
                     (size_t)count * GRT_SPIRV_RECORD_BYTES;
  if (table_end > size) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "spirv container: %u entries need a %zu-byte "
                           "header and table, but the binary has %zu bytes",
                           count, table_end, size);
  }
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* record = data + GRT_SPIRV_CONTAINER_HEADER_BYTES +
                            (size_t)i * GRT_SPIRV_RECORD_BYTES;
    uint32_t offset = grt_load_le_u32(record);
    uint32_t bytes = grt_load_le_u32(record + 4);
    if (offset % 4 != 0 || bytes % 4 != 0) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "spirv container: entry %u at offset %u size "
                             "%u, expected both multiples of 4",
                             i, offset, bytes);
    }
    if (offset < table_end || (size_t)offset + bytes > size) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "spirv container: entry %u spans bytes [%u, "
                             "%zu), expected within [%zu, %zu)",
                             i, offset, (size_t)offset + bytes, table_end,
                             size);
    }
    if (bytes < GRT_SPIRV_HEADER_BYTES) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "spirv container: entry %u has %u bytes, "
                             "expected at least %u (the SPIR-V header)",
                             i, bytes, GRT_SPIRV_HEADER_BYTES);
    }
    // SPIR-V words are little-endian in the file; comparing the loaded
    // value keeps the check right on a big-endian host too.
    uint32_t first = grt_load_le_u32(data + offset);
    if (first != GRT_SPIRV_MAGIC) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "spirv container: entry %u starts with 0x%08x, "
                             "expected the SPIR-V magic 0x%08x",
                             i, first, GRT_SPIRV_MAGIC);
    }
  }
  out->data = data;
  out->size = size;
  out->entry_count = count;
  return grt_ok_status();
}

void grt_spirv_container_module(const grt_spirv_container_t* container,
                                uint32_t index, const uint32_t** out_words,
                                size_t* out_size) {
  const uint8_t* record = container->data + GRT_SPIRV_CONTAINER_HEADER_BYTES +
                          (size_t)index * GRT_SPIRV_RECORD_BYTES;
  uint32_t offset = grt_load_le_u32(record);
  *out_words = (const uint32_t*)(const void*)(container->data + offset);
  *out_size = grt_load_le_u32(record + 4);
}

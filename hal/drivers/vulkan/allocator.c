#include "hal/drivers/vulkan/allocator.h"

#include <inttypes.h>
#include <string.h>

#include "hal/allocator_counters.h"

enum { kMaxHeaps = VK_MAX_MEMORY_TYPES };

typedef struct grt_hal_vulkan_allocator_t {
  grt_hal_allocator_t base;
  grt_hal_vulkan_device_t* device;
  grt_hal_allocator_memory_heap_t heaps[kMaxHeaps];
  size_t heap_count;
  grt_hal_allocator_counters_t counters;
} grt_hal_vulkan_allocator_t;

static const grt_hal_allocator_vtable_t grt_hal_vulkan_allocator_vtable;
static const grt_hal_buffer_vtable_t grt_hal_vulkan_buffer_vtable;

// Vulkan property flag <-> HAL memory type bit.
static const struct {
  VkMemoryPropertyFlags vulkan;
  grt_hal_memory_type_t hal;
} kMemoryBits[] = {
    {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, GRT_HAL_MEMORY_TYPE_DEVICE_LOCAL},
    {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, GRT_HAL_MEMORY_TYPE_HOST_VISIBLE},
    {VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, GRT_HAL_MEMORY_TYPE_HOST_COHERENT},
    {VK_MEMORY_PROPERTY_HOST_CACHED_BIT, GRT_HAL_MEMORY_TYPE_HOST_CACHED},
};

static grt_hal_memory_type_t grt_hal_vulkan_memory_type(
    VkMemoryPropertyFlags flags) {
  grt_hal_memory_type_t type = 0;
  for (size_t i = 0; i < sizeof(kMemoryBits) / sizeof(kMemoryBits[0]); ++i) {
    if (flags & kMemoryBits[i].vulkan) type |= kMemoryBits[i].hal;
  }
  return type;
}

static VkMemoryPropertyFlags grt_hal_vulkan_memory_flags(
    grt_hal_memory_type_t type) {
  VkMemoryPropertyFlags flags = 0;
  for (size_t i = 0; i < sizeof(kMemoryBits) / sizeof(kMemoryBits[0]); ++i) {
    if (type & kMemoryBits[i].hal) flags |= kMemoryBits[i].vulkan;
  }
  return flags;
}

// Every buffer can be a transfer source/target and a storage buffer: HAL
// usages are enforced by hal/command_buffer.c, so Vulkan need not repeat it.
static const VkBufferUsageFlags kBufferUsage =
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

// The first memory type allowed by |type_bits| with every |required| flag,
// device-local ones first.
static bool grt_hal_vulkan_pick_memory_type(grt_hal_vulkan_device_t* device,
                                            uint32_t type_bits,
                                            VkMemoryPropertyFlags required,
                                            uint32_t* out_index) {
  const VkPhysicalDeviceMemoryProperties* memory = &device->memory_properties;
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t i = 0; i < memory->memoryTypeCount; ++i) {
      VkMemoryPropertyFlags flags = memory->memoryTypes[i].propertyFlags;
      if (!(type_bits & (1u << i)) || (flags & required) != required) continue;
      if (pass == 0 && !(flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) continue;
      *out_index = i;
      return true;
    }
  }
  return false;
}

// A VkBuffer of |size| bytes bound to fresh memory with |required| flags;
// host-visible memory is mapped.
static grt_status_t grt_hal_vulkan_create_bound_buffer(
    grt_hal_vulkan_device_t* device, VkDeviceSize size,
    VkMemoryPropertyFlags required, VkBuffer* out_buffer,
    VkDeviceMemory* out_memory, VkMemoryPropertyFlags* out_properties,
    void** out_host_pointer) {
  const grt_vk_device_symbols_t* vk = &device->vk;
  VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  // Vulkan has no empty buffers; a zero-length HAL buffer owns 4 bytes.
  info.size = size ? size : 4;
  info.usage = kBufferUsage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  GRT_VK_RETURN_IF_ERROR(
      vk->vkCreateBuffer(device->handle, &info, NULL, out_buffer),
      "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vk->vkGetBufferMemoryRequirements(device->handle, *out_buffer,
                                    &requirements);
  uint32_t type_index = 0;
  grt_status_t status = grt_ok_status();
  if (!grt_hal_vulkan_pick_memory_type(device, requirements.memoryTypeBits,
                                       required, &type_index)) {
    status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "no Vulkan memory type of device %s has "
                             "property flags 0x%x for a buffer",
                             device->base.uri, (unsigned)required);
  }
  if (grt_status_is_ok(status)) {
    VkMemoryAllocateInfo allocate = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = type_index;
    status = grt_vk_result_status(
        vk->vkAllocateMemory(device->handle, &allocate, NULL, out_memory),
        "vkAllocateMemory");
    if (grt_status_code(status) == GRT_STATUS_RESOURCE_EXHAUSTED) {
      status = grt_status_annotate(status, "allocating %" PRIu64 " bytes",
                                   (uint64_t)size);
    }
  }
  if (grt_status_is_ok(status)) {
    status = grt_vk_result_status(
        vk->vkBindBufferMemory(device->handle, *out_buffer, *out_memory, 0),
        "vkBindBufferMemory");
    if (!grt_status_is_ok(status)) {
      vk->vkFreeMemory(device->handle, *out_memory, NULL);
    }
  }
  VkMemoryPropertyFlags properties =
      device->memory_properties.memoryTypes[type_index].propertyFlags;
  *out_host_pointer = NULL;
  if (grt_status_is_ok(status) &&
      (properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
    status = grt_vk_result_status(
        vk->vkMapMemory(device->handle, *out_memory, 0, VK_WHOLE_SIZE, 0,
                        out_host_pointer),
        "vkMapMemory");
    if (!grt_status_is_ok(status)) {
      vk->vkFreeMemory(device->handle, *out_memory, NULL);
    }
  }
  if (!grt_status_is_ok(status)) {
    vk->vkDestroyBuffer(device->handle, *out_buffer, NULL);
    *out_buffer = VK_NULL_HANDLE;
    *out_memory = VK_NULL_HANDLE;
    return status;
  }
  *out_properties = properties;
  return grt_ok_status();
}

static void grt_hal_vulkan_allocator_destroy(grt_hal_resource_t* resource) {
  grt_hal_vulkan_allocator_t* allocator =
      (grt_hal_vulkan_allocator_t*)resource;
  grt_allocator_free(allocator->base.host_allocator, allocator);
}

grt_status_t grt_hal_vulkan_allocator_create(grt_hal_vulkan_device_t* device,
                                             grt_hal_allocator_t** out) {
  *out = NULL;
  grt_hal_vulkan_allocator_t* allocator = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      device->base.host_allocator, sizeof(*allocator), (void**)&allocator));
  grt_hal_resource_initialize(&grt_hal_vulkan_allocator_vtable,
                              &allocator->base.resource);
  allocator->base.host_allocator = device->base.host_allocator;
  allocator->device = device;
  grt_hal_allocator_counters_initialize(&allocator->counters);
  const VkPhysicalDeviceMemoryProperties* memory = &device->memory_properties;
  for (uint32_t i = 0; i < memory->memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags = memory->memoryTypes[i].propertyFlags;
    // Lazily allocated and protected memory cannot back storage buffers the
    // host hands around; a type with no flags is host-invisible device
    // memory without the device-local promise, still usable.
    if (flags & (VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT |
                 VK_MEMORY_PROPERTY_PROTECTED_BIT)) {
      continue;
    }
    grt_hal_memory_type_t type = grt_hal_vulkan_memory_type(flags);
    bool seen = false;
    for (size_t h = 0; h < allocator->heap_count && !seen; ++h) {
      seen = allocator->heaps[h].type == type;
    }
    if (seen) continue;
    grt_hal_allocator_memory_heap_t* heap =
        &allocator->heaps[allocator->heap_count++];
    heap->type = type;
    heap->allowed_usage = GRT_HAL_BUFFER_USAGE_DEFAULT;
    if (type & GRT_HAL_MEMORY_TYPE_HOST_VISIBLE) {
      heap->allowed_usage |= GRT_HAL_BUFFER_USAGE_MAPPING;
    }
    heap->max_allocation_size =
        memory->memoryHeaps[memory->memoryTypes[i].heapIndex].size;
    heap->min_alignment = 64;
  }
  *out = &allocator->base;
  return grt_ok_status();
}

static void grt_hal_vulkan_allocator_query_memory_heaps(
    const grt_hal_allocator_t* base, size_t capacity,
    grt_hal_allocator_memory_heap_t* out_heaps, size_t* out_count) {
  const grt_hal_vulkan_allocator_t* allocator =
      (const grt_hal_vulkan_allocator_t*)base;
  for (size_t i = 0; i < allocator->heap_count && i < capacity; ++i) {
    out_heaps[i] = allocator->heaps[i];
  }
  *out_count = allocator->heap_count;
}

static grt_status_t grt_hal_vulkan_allocator_allocate_buffer(
    grt_hal_allocator_t* base, const grt_hal_buffer_params_t* params,
    uint64_t size, grt_hal_buffer_t** out_buffer) {
  grt_hal_vulkan_allocator_t* allocator = (grt_hal_vulkan_allocator_t*)base;
  grt_hal_vulkan_device_t* device = allocator->device;
  VkMemoryPropertyFlags required = grt_hal_vulkan_memory_flags(params->type);
  if (params->usage & GRT_HAL_BUFFER_USAGE_MAPPING) {
    required |= VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  }
  grt_hal_vulkan_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(base->host_allocator,
                                           sizeof(*buffer), (void**)&buffer));
  grt_status_t status = grt_hal_vulkan_create_bound_buffer(
      device, size, required, &buffer->handle, &buffer->memory,
      &buffer->properties, &buffer->host_pointer);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(base->host_allocator, buffer);
    return status;
  }
  // Buffers keep the device (and so the VkDevice) alive; the device owns
  // the allocator, so the allocator itself cannot.
  buffer->device = device;
  grt_hal_vulkan_device_core_retain(device);
  grt_hal_buffer_initialize(&grt_hal_vulkan_buffer_vtable, base,
                            grt_hal_vulkan_memory_type(buffer->properties),
                            params->usage, size, &buffer->base);
  grt_hal_allocator_counters_allocated(&allocator->counters, size);
  *out_buffer = &buffer->base;
  return grt_ok_status();
}

static void grt_hal_vulkan_allocator_query_statistics(
    const grt_hal_allocator_t* base,
    grt_hal_allocator_statistics_t* out_statistics) {
  grt_hal_vulkan_allocator_t* allocator = (grt_hal_vulkan_allocator_t*)base;
  grt_hal_allocator_counters_query(&allocator->counters, out_statistics);
}

static const grt_hal_allocator_vtable_t grt_hal_vulkan_allocator_vtable = {
    {grt_hal_vulkan_allocator_destroy},
    grt_hal_vulkan_allocator_query_memory_heaps,
    grt_hal_vulkan_allocator_allocate_buffer,
    NULL,  // importing host memory needs VK_EXT_external_memory_host
    grt_hal_vulkan_allocator_query_statistics,
};

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

static void grt_hal_vulkan_buffer_destroy(grt_hal_resource_t* resource) {
  grt_hal_vulkan_buffer_t* buffer = (grt_hal_vulkan_buffer_t*)resource;
  grt_hal_vulkan_allocator_t* allocator =
      (grt_hal_vulkan_allocator_t*)buffer->base.allocator;
  const grt_vk_device_symbols_t* vk = &buffer->device->vk;
  VkDevice device = buffer->device->handle;
  if (buffer->host_pointer) vk->vkUnmapMemory(device, buffer->memory);
  vk->vkDestroyBuffer(device, buffer->handle, NULL);
  vk->vkFreeMemory(device, buffer->memory, NULL);
  grt_hal_allocator_counters_freed(&allocator->counters, buffer->base.allocation_size);
  grt_allocator_t host_allocator = allocator->base.host_allocator;
  grt_hal_vulkan_device_t* owner = buffer->device;
  grt_hal_buffer_deinitialize(&buffer->base);
  grt_allocator_free(host_allocator, buffer);
  grt_hal_vulkan_device_core_release(owner);
}

grt_hal_vulkan_buffer_t* grt_hal_vulkan_buffer_cast(
    grt_hal_vulkan_device_t* device, grt_hal_buffer_t* buffer) {
  if (!buffer || buffer->resource.vtable != &grt_hal_vulkan_buffer_vtable) {
    return NULL;
  }
  grt_hal_vulkan_buffer_t* vulkan_buffer = (grt_hal_vulkan_buffer_t*)buffer;
  return vulkan_buffer->device == device ? vulkan_buffer : NULL;
}

static grt_status_t grt_hal_vulkan_buffer_map_range(
    grt_hal_buffer_t* base, grt_hal_buffer_mapping_t* mapping) {
  grt_hal_vulkan_buffer_t* buffer = (grt_hal_vulkan_buffer_t*)base;
  if (!buffer->host_pointer) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "Vulkan buffer memory is not host-visible");
  }
  mapping->contents = (uint8_t*)buffer->host_pointer + mapping->offset;
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_buffer_unmap_range(
    grt_hal_buffer_t* base, grt_hal_buffer_mapping_t* mapping) {
  // The memory stays mapped for the buffer's life.
  (void)base;
  (void)mapping;
  return grt_ok_status();
}

// The mapped range [offset, offset+length) widened to nonCoherentAtomSize
// (clamped to the allocation), as vkFlush/vkInvalidate require.
static VkMappedMemoryRange grt_hal_vulkan_buffer_atom_range(
    grt_hal_vulkan_buffer_t* buffer, uint64_t offset, uint64_t length) {
  uint64_t atom = buffer->device->properties.limits.nonCoherentAtomSize;
  if (atom == 0) atom = 1;
  uint64_t begin = offset / atom * atom;
  uint64_t end = (offset + length + atom - 1) / atom * atom;
  VkMappedMemoryRange range = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = buffer->memory;
  range.offset = begin;
  uint64_t allocation = buffer->base.allocation_size;
  range.size = end > allocation ? VK_WHOLE_SIZE : end - begin;
  return range;
}

static grt_status_t grt_hal_vulkan_buffer_invalidate_range(
    grt_hal_buffer_t* base, uint64_t offset, uint64_t length) {
  grt_hal_vulkan_buffer_t* buffer = (grt_hal_vulkan_buffer_t*)base;
  if (buffer->properties & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) {
    return grt_ok_status();
  }
  VkMappedMemoryRange range =
      grt_hal_vulkan_buffer_atom_range(buffer, offset, length);
  return grt_vk_result_status(buffer->device->vk.vkInvalidateMappedMemoryRanges(
                                  buffer->device->handle, 1, &range),
                              "vkInvalidateMappedMemoryRanges");
}

static grt_status_t grt_hal_vulkan_buffer_flush_range(grt_hal_buffer_t* base,
                                                      uint64_t offset,
                                                      uint64_t length) {
  grt_hal_vulkan_buffer_t* buffer = (grt_hal_vulkan_buffer_t*)base;
  if (buffer->properties & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) {
    return grt_ok_status();
  }
  VkMappedMemoryRange range =
      grt_hal_vulkan_buffer_atom_range(buffer, offset, length);
  return grt_vk_result_status(buffer->device->vk.vkFlushMappedMemoryRanges(
                                  buffer->device->handle, 1, &range),
                              "vkFlushMappedMemoryRanges");
}

static const grt_hal_buffer_vtable_t grt_hal_vulkan_buffer_vtable = {
    {grt_hal_vulkan_buffer_destroy},
    grt_hal_vulkan_buffer_map_range,
    grt_hal_vulkan_buffer_unmap_range,
    grt_hal_vulkan_buffer_invalidate_range,
    grt_hal_vulkan_buffer_flush_range,
};

//===----------------------------------------------------------------------===//
// Transient buffers
//===----------------------------------------------------------------------===//

grt_status_t grt_hal_vulkan_transient_create(grt_hal_vulkan_device_t* device,
                                           VkDeviceSize size,
                                           VkMemoryPropertyFlags required,
                                           grt_hal_vulkan_transient_t* out) {
  memset(out, 0, sizeof(*out));
  out->size = size;
  return grt_hal_vulkan_create_bound_buffer(
      device, size, required, &out->buffer,
      &out->memory, &out->properties, &out->host_pointer);
}

grt_status_t grt_hal_vulkan_transient_flush(grt_hal_vulkan_device_t* device,
                                          grt_hal_vulkan_transient_t* staging) {
  if (staging->properties & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) {
    return grt_ok_status();
  }
  VkMappedMemoryRange range = {.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = staging->memory;
  range.size = VK_WHOLE_SIZE;
  return grt_vk_result_status(
      device->vk.vkFlushMappedMemoryRanges(device->handle, 1, &range),
      "vkFlushMappedMemoryRanges");
}

void grt_hal_vulkan_transient_destroy(grt_hal_vulkan_device_t* device,
                                    grt_hal_vulkan_transient_t* staging) {
  if (staging->buffer == VK_NULL_HANDLE) return;
  if (staging->host_pointer) {
    device->vk.vkUnmapMemory(device->handle, staging->memory);
  }
  device->vk.vkDestroyBuffer(device->handle, staging->buffer, NULL);
  device->vk.vkFreeMemory(device->handle, staging->memory, NULL);
  memset(staging, 0, sizeof(*staging));
}

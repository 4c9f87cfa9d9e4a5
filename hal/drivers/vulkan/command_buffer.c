#include "hal/drivers/vulkan/command_buffer.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hal/drivers/vulkan/executable.h"

typedef enum grt_hal_vulkan_command_type_e {
  GRT_HAL_VULKAN_COMMAND_BARRIER = 0,
  GRT_HAL_VULKAN_COMMAND_FILL = 1,
  GRT_HAL_VULKAN_COMMAND_COPY = 2,
  GRT_HAL_VULKAN_COMMAND_UPDATE = 3,
  GRT_HAL_VULKAN_COMMAND_DISPATCH = 4,
} grt_hal_vulkan_command_type_t;

typedef struct grt_hal_vulkan_command_t {
  grt_hal_vulkan_command_type_t type;
  grt_hal_buffer_ref_t target;  // fill/copy/update target
  grt_hal_buffer_ref_t source;  // copy source
  uint32_t pattern;             // fill
  uint32_t pattern_length;
  uint8_t* data;  // update bytes (owned), target.length of them
  grt_hal_vulkan_executable_t* executable;  // dispatch (retained)
  uint32_t entry_point;
  uint32_t workgroup_count[3];
  uint32_t* constants;  // owned
  uint32_t constant_count;
  grt_hal_buffer_ref_t* bindings;  // owned
  uint32_t binding_count;
} grt_hal_vulkan_command_t;

typedef struct grt_hal_vulkan_command_buffer_t {
  grt_hal_command_buffer_t base;
  grt_hal_vulkan_device_t* device;  // retained
  grt_hal_vulkan_command_t* commands;
  size_t command_count;
  size_t command_capacity;
} grt_hal_vulkan_command_buffer_t;

static const grt_hal_command_buffer_vtable_t
    grt_hal_vulkan_command_buffer_vtable;

static grt_hal_vulkan_command_buffer_t* grt_hal_vulkan_command_buffer_from(
    grt_hal_command_buffer_t* base) {
  return (grt_hal_vulkan_command_buffer_t*)base;
}

grt_status_t grt_hal_vulkan_command_buffer_create(
    grt_hal_vulkan_device_t* device, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) {
  *out = NULL;
  grt_hal_vulkan_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(device->base.host_allocator,
                                           sizeof(*command_buffer),
                                           (void**)&command_buffer));
  grt_hal_command_buffer_initialize(&grt_hal_vulkan_command_buffer_vtable,
                                    mode, binding_capacity,
                                    &command_buffer->base);
  command_buffer->device = device;
  grt_hal_vulkan_device_core_retain(device);
  *out = &command_buffer->base;
  return grt_ok_status();
}

bool grt_hal_vulkan_command_buffer_isa(
    grt_hal_vulkan_device_t* device,
    const grt_hal_command_buffer_t* command_buffer) {
  return command_buffer->resource.vtable ==
             &grt_hal_vulkan_command_buffer_vtable &&
         ((const grt_hal_vulkan_command_buffer_t*)command_buffer)->device ==
             device;
}

static void grt_hal_vulkan_ref_release(grt_hal_buffer_ref_t* ref) {
  if (ref->buffer) grt_hal_buffer_release(ref->buffer);
}

static void grt_hal_vulkan_command_buffer_clear(
    grt_hal_vulkan_command_buffer_t* command_buffer) {
  grt_allocator_t host_allocator = command_buffer->device->base.host_allocator;
  for (size_t i = 0; i < command_buffer->command_count; ++i) {
    grt_hal_vulkan_command_t* command = &command_buffer->commands[i];
    grt_hal_vulkan_ref_release(&command->target);
    grt_hal_vulkan_ref_release(&command->source);
    for (uint32_t b = 0; b < command->binding_count; ++b) {
      grt_hal_vulkan_ref_release(&command->bindings[b]);
    }
    if (command->executable) {
      grt_hal_executable_release(&command->executable->base);
    }
    grt_allocator_free(host_allocator, command->data);
    grt_allocator_free(host_allocator, command->constants);
    grt_allocator_free(host_allocator, command->bindings);
  }
  command_buffer->command_count = 0;
}

static void grt_hal_vulkan_command_buffer_destroy(
    grt_hal_resource_t* resource) {
  grt_hal_vulkan_command_buffer_t* command_buffer =
      (grt_hal_vulkan_command_buffer_t*)resource;
  grt_hal_vulkan_device_t* device = command_buffer->device;
  grt_hal_vulkan_command_buffer_clear(command_buffer);
  grt_allocator_free(device->base.host_allocator, command_buffer->commands);
  grt_hal_command_buffer_deinitialize(&command_buffer->base);
  grt_allocator_free(device->base.host_allocator, command_buffer);
  grt_hal_vulkan_device_core_release(device);
}

// A zeroed command at the end of the recording.
static grt_status_t grt_hal_vulkan_command_buffer_append(
    grt_hal_vulkan_command_buffer_t* command_buffer,
    grt_hal_vulkan_command_type_t type, grt_hal_vulkan_command_t** out) {
  if (command_buffer->command_count == command_buffer->command_capacity) {
    size_t capacity =
        command_buffer->command_capacity ? command_buffer->command_capacity * 2
                                         : 16;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        command_buffer->device->base.host_allocator,
        command_buffer->command_capacity * sizeof(grt_hal_vulkan_command_t),
        capacity * sizeof(grt_hal_vulkan_command_t),
        (void**)&command_buffer->commands));
    command_buffer->command_capacity = capacity;
  }
  grt_hal_vulkan_command_t* command =
      &command_buffer->commands[command_buffer->command_count++];
  memset(command, 0, sizeof(*command));
  command->type = type;
  *out = command;
  return grt_ok_status();
}

// Keeps a direct ref's buffer alive for the recording's life.
static grt_hal_buffer_ref_t grt_hal_vulkan_ref_keep(grt_hal_buffer_ref_t ref) {
  if (ref.buffer) grt_hal_buffer_retain(ref.buffer);
  return ref;
}

static grt_status_t grt_hal_vulkan_command_buffer_begin(
    grt_hal_command_buffer_t* base) {
  grt_hal_vulkan_command_buffer_clear(grt_hal_vulkan_command_buffer_from(base));
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_command_buffer_end(
    grt_hal_command_buffer_t* base) {
  (void)base;
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_command_buffer_execution_barrier(
    grt_hal_command_buffer_t* base) {
  grt_hal_vulkan_command_t* command = NULL;
  return grt_hal_vulkan_command_buffer_append(
      grt_hal_vulkan_command_buffer_from(base), GRT_HAL_VULKAN_COMMAND_BARRIER,
      &command);
}

static grt_status_t grt_hal_vulkan_command_buffer_fill_buffer(
    grt_hal_command_buffer_t* base, grt_hal_buffer_ref_t target,
    uint32_t pattern, size_t pattern_length) {
  grt_hal_vulkan_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_command_buffer_append(
      grt_hal_vulkan_command_buffer_from(base), GRT_HAL_VULKAN_COMMAND_FILL,
      &command));
  command->target = grt_hal_vulkan_ref_keep(target);
  command->pattern = pattern;
  command->pattern_length = (uint32_t)pattern_length;
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_command_buffer_copy_buffer(
    grt_hal_command_buffer_t* base, grt_hal_buffer_ref_t source,
    grt_hal_buffer_ref_t target) {
  grt_hal_vulkan_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_command_buffer_append(
      grt_hal_vulkan_command_buffer_from(base), GRT_HAL_VULKAN_COMMAND_COPY,
      &command));
  command->source = grt_hal_vulkan_ref_keep(source);
  command->target = grt_hal_vulkan_ref_keep(target);
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_command_buffer_update_buffer(
    grt_hal_command_buffer_t* base, const void* source,
    grt_hal_buffer_ref_t target) {
  grt_hal_vulkan_command_buffer_t* command_buffer =
      grt_hal_vulkan_command_buffer_from(base);
  uint8_t* data = NULL;
  if (target.length) {
    if (target.length > SIZE_MAX) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "update of %" PRIu64 " bytes", target.length);
    }
    GRT_RETURN_IF_ERROR(
        grt_allocator_malloc(command_buffer->device->base.host_allocator,
                             (size_t)target.length, (void**)&data));
    memcpy(data, source, (size_t)target.length);
  }
  grt_hal_vulkan_command_t* command = NULL;
  grt_status_t status = grt_hal_vulkan_command_buffer_append(
      command_buffer, GRT_HAL_VULKAN_COMMAND_UPDATE, &command);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(command_buffer->device->base.host_allocator, data);
    return status;
  }
  command->target = grt_hal_vulkan_ref_keep(target);
  command->data = data;
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_command_buffer_dispatch(
    grt_hal_command_buffer_t* base, const grt_hal_dispatch_params_t* params) {
  grt_hal_vulkan_command_buffer_t* command_buffer =
      grt_hal_vulkan_command_buffer_from(base);
  grt_hal_vulkan_device_t* device = command_buffer->device;
  grt_hal_vulkan_executable_t* executable =
      grt_hal_vulkan_executable_cast(device, params->executable);
  if (!executable) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "dispatch of an executable not prepared by "
                           "Vulkan device %s",
                           device->base.uri);
  }
  grt_allocator_t host_allocator = device->base.host_allocator;
  grt_hal_vulkan_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_command_buffer_append(
      command_buffer, GRT_HAL_VULKAN_COMMAND_DISPATCH, &command));
  grt_hal_executable_retain(&executable->base);
  command->executable = executable;
  command->entry_point = params->entry_point;
  memcpy(command->workgroup_count, params->workgroup_count,
         sizeof(command->workgroup_count));
  GRT_RETURN_IF_ERROR(grt_hal_dispatch_params_clone_constants(
      host_allocator, params, &command->constants));
  command->constant_count = (uint32_t)params->constant_count;
  if (params->binding_count) {
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(
        host_allocator, params->binding_count * sizeof(grt_hal_buffer_ref_t),
        (void**)&command->bindings));
    for (size_t i = 0; i < params->binding_count; ++i) {
      command->bindings[i] = grt_hal_vulkan_ref_keep(params->bindings[i]);
      command->binding_count = (uint32_t)i + 1;
    }
  }
  return grt_ok_status();
}

static const grt_hal_command_buffer_vtable_t
    grt_hal_vulkan_command_buffer_vtable = {
        {grt_hal_vulkan_command_buffer_destroy},
        grt_hal_vulkan_command_buffer_begin,
        grt_hal_vulkan_command_buffer_end,
        grt_hal_vulkan_command_buffer_execution_barrier,
        grt_hal_vulkan_command_buffer_fill_buffer,
        grt_hal_vulkan_command_buffer_copy_buffer,
        grt_hal_vulkan_command_buffer_update_buffer,
        grt_hal_vulkan_command_buffer_dispatch,
};

//===----------------------------------------------------------------------===//
// Translation into a VkCommandBuffer
//===----------------------------------------------------------------------===//

// A ref resolved against the submission's binding table.
typedef struct grt_hal_vulkan_range_t {
  grt_hal_vulkan_buffer_t* buffer;
  uint64_t offset;
  uint64_t length;
} grt_hal_vulkan_range_t;

static grt_status_t grt_hal_vulkan_resolve(grt_hal_vulkan_device_t* device,
                                           grt_hal_buffer_ref_t ref,
                                           grt_hal_buffer_binding_table_t table,
                                           const char* what,
                                           grt_hal_vulkan_range_t* out) {
  grt_hal_buffer_t* allocated = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_ref_resolve(ref, table, &allocated, &out->offset,
                                 &out->length),
      "%s", what);
  out->buffer = grt_hal_vulkan_buffer_cast(device, allocated);
  if (!out->buffer) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s is a buffer not allocated by Vulkan device %s",
                           what, device->base.uri);
  }
  return grt_ok_status();
}

// Where unaligned bytes go; sized by a first pass over the commands.
typedef struct grt_hal_vulkan_upload_cursor_t {
  uint8_t* base;
  VkBuffer buffer;
  uint64_t used;
} grt_hal_vulkan_upload_cursor_t;

// Bytes of a fill that vkCmdFillBuffer cannot write: the head before the
// first 4-aligned byte and the tail after the last whole word.
static void grt_hal_vulkan_fill_split(uint64_t offset, uint64_t length,
                                      uint64_t* out_head, uint64_t* out_middle,
                                      uint64_t* out_tail) {
  uint64_t head = (4 - offset % 4) % 4;
  if (head > length) head = length;
  uint64_t middle = (length - head) / 4 * 4;
  *out_head = head;
  *out_middle = middle;
  *out_tail = length - head - middle;
}

static bool grt_hal_vulkan_update_is_aligned(uint64_t offset,
                                             uint64_t length) {
  return offset % 4 == 0 && length % 4 == 0;
}

// Copies |length| bytes produced by |byte_at| into the upload buffer and
// records a copy of them to |target| + |offset|.
static void grt_hal_vulkan_upload_fill_bytes(
    grt_hal_vulkan_device_t* device, VkCommandBuffer target_cb,
    grt_hal_vulkan_upload_cursor_t* cursor, VkBuffer target, uint64_t offset,
    uint64_t length, const uint8_t* pattern, uint32_t pattern_length,
    uint64_t pattern_phase) {
  if (!length) return;
  for (uint64_t i = 0; i < length; ++i) {
    cursor->base[cursor->used + i] =
        pattern[(pattern_phase + i) % pattern_length];
  }
  VkBufferCopy region = {cursor->used, offset, length};
  device->vk.vkCmdCopyBuffer(target_cb, cursor->buffer, target, 1, &region);
  cursor->used += length;
}

static void grt_hal_vulkan_record_barrier(grt_hal_vulkan_device_t* device,
                                          VkCommandBuffer cb,
                                          VkPipelineStageFlags dst_stage,
                                          VkAccessFlags dst_access) {
  VkMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask =
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = dst_access;
  device->vk.vkCmdPipelineBarrier(
      cb,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      dst_stage, 0, 1, &barrier, 0, NULL, 0, NULL);
}

static const VkAccessFlags kDeviceAccess =
    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
    VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
static const VkPipelineStageFlags kDeviceStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;

static grt_status_t grt_hal_vulkan_translate_fill(
    grt_hal_vulkan_device_t* device, const grt_hal_vulkan_command_t* command,
    grt_hal_buffer_binding_table_t table, VkCommandBuffer cb,
    grt_hal_vulkan_upload_cursor_t* cursor) {
  grt_hal_vulkan_range_t range;
  GRT_RETURN_IF_ERROR(
      grt_hal_vulkan_resolve(device, command->target, table, "fill target",
                             &range));
  uint8_t pattern[4];
  for (uint32_t i = 0; i < 4; ++i) {
    pattern[i] = (uint8_t)(command->pattern >> (8 * (i % command->pattern_length)));
  }
  uint64_t head, middle, tail;
  grt_hal_vulkan_fill_split(range.offset, range.length, &head, &middle, &tail);
  grt_hal_vulkan_upload_fill_bytes(device, cb, cursor, range.buffer->handle,
                                   range.offset, head, pattern,
                                   command->pattern_length, 0);
  if (middle) {
    // The word at the first aligned byte, in the pattern's phase there.
    uint32_t word = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      word |= (uint32_t)pattern[(head + i) % command->pattern_length] << (8 * i);
    }
    device->vk.vkCmdFillBuffer(cb, range.buffer->handle, range.offset + head,
                               middle, word);
  }
  grt_hal_vulkan_upload_fill_bytes(device, cb, cursor, range.buffer->handle,
                                   range.offset + head + middle, tail, pattern,
                                   command->pattern_length, head + middle);
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_translate_update(
    grt_hal_vulkan_device_t* device, const grt_hal_vulkan_command_t* command,
    grt_hal_buffer_binding_table_t table, VkCommandBuffer cb,
    grt_hal_vulkan_upload_cursor_t* cursor) {
  grt_hal_vulkan_range_t range;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_resolve(device, command->target, table,
                                             "update target", &range));
  if (!range.length) return grt_ok_status();
  if (grt_hal_vulkan_update_is_aligned(range.offset, range.length)) {
    // vkCmdUpdateBuffer takes at most 65536 bytes a call.
    for (uint64_t done = 0; done < range.length; done += 65536) {
      uint64_t piece = range.length - done < 65536 ? range.length - done : 65536;
      device->vk.vkCmdUpdateBuffer(cb, range.buffer->handle,
                                   range.offset + done, piece,
                                   command->data + done);
    }
    return grt_ok_status();
  }
  memcpy(cursor->base + cursor->used, command->data, (size_t)range.length);
  VkBufferCopy region = {cursor->used, range.offset, range.length};
  device->vk.vkCmdCopyBuffer(cb, cursor->buffer, range.buffer->handle, 1,
                             &region);
  cursor->used += range.length;
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_translate_copy(
    grt_hal_vulkan_device_t* device, const grt_hal_vulkan_command_t* command,
    grt_hal_buffer_binding_table_t table, VkCommandBuffer cb) {
  grt_hal_vulkan_range_t source, target;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_resolve(device, command->source, table,
                                             "copy source", &source));
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_resolve(device, command->target, table,
                                             "copy target", &target));
  if (source.length != target.length) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "copy lengths differ: source %" PRIu64
                           " bytes, target %" PRIu64 " bytes",
                           source.length, target.length);
  }
  if (!source.length) return grt_ok_status();
  VkBufferCopy region = {source.offset, target.offset, source.length};
  device->vk.vkCmdCopyBuffer(cb, source.buffer->handle, target.buffer->handle,
                             1, &region);
  return grt_ok_status();
}

enum { kMaxInlineBindings = 32 };

// What a status word's report is read against: the dispatch's entry point,
// its place in the command buffer, and its bindings' lengths.
struct grt_hal_vulkan_status_slot_t {
  grt_string_view_t entry_point;
  size_t command_index;
  uint32_t binding_count;
  uint64_t binding_lengths[kMaxInlineBindings];
};

// Whether a binding at |offset| cannot be a storage buffer descriptor.
static bool grt_hal_vulkan_is_misaligned(grt_hal_vulkan_device_t* device,
                                         uint64_t offset) {
  uint64_t alignment =
      device->properties.limits.minStorageBufferOffsetAlignment;
  return alignment > 1 && offset % alignment != 0;
}

static uint64_t grt_hal_vulkan_align(uint64_t value, uint64_t alignment) {
  if (alignment <= 1) return value;
  return (value + alignment - 1) / alignment * alignment;
}

// One descriptor set of |layout| from the submission's pool.
static grt_status_t grt_hal_vulkan_allocate_set(grt_hal_vulkan_device_t* device,
                                                grt_hal_vulkan_translation_t* translation,
                                                VkDescriptorSetLayout layout,
                                                VkDescriptorSet* out_set) {
  VkDescriptorSetAllocateInfo allocate = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate.descriptorPool = translation->descriptor_pool;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &layout;
  return grt_vk_result_status(
      device->vk.vkAllocateDescriptorSets(device->handle, &allocate, out_set),
      "vkAllocateDescriptorSets");
}

// Binds dispatch |command_index|'s status word (its own zeroed uint32 of
// translation->status) at GRT_HAL_VULKAN_STATUS_SET and records what a
// report is read against.
static grt_status_t grt_hal_vulkan_bind_status_word(
    grt_hal_vulkan_device_t* device, const grt_hal_vulkan_command_t* command,
    size_t command_index, const uint64_t* binding_lengths, VkCommandBuffer cb,
    grt_hal_vulkan_translation_t* translation) {
  const grt_hal_vulkan_pipeline_t* pipeline =
      &command->executable->pipelines[command->entry_point];
  const grt_vk_device_symbols_t* vk = &device->vk;
  uint32_t slot = translation->status_count;
  VkDescriptorSet set = VK_NULL_HANDLE;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_allocate_set(device, translation,
                                                  pipeline->status_layout, &set));
  VkDescriptorBufferInfo info = {translation->status.buffer,
                                 slot * translation->status_stride, 4};
  VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &info;
  vk->vkUpdateDescriptorSets(device->handle, 1, &write, 0, NULL);
  vk->vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout,
                              GRT_HAL_VULKAN_STATUS_SET, 1, &set, 0, NULL);
  grt_hal_vulkan_status_slot_t* record = &translation->status_slots[slot];
  record->entry_point = command->executable->base.entry_points[command->entry_point].name;
  record->command_index = command_index;
  record->binding_count = command->binding_count;
  memcpy(record->binding_lengths, binding_lengths,
         command->binding_count * sizeof(*binding_lengths));
  translation->status_count = slot + 1;
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_translate_dispatch(
    grt_hal_vulkan_device_t* device, const grt_hal_vulkan_command_t* command,
    size_t command_index, grt_hal_buffer_binding_table_t table, VkCommandBuffer cb,
    grt_hal_vulkan_translation_t* translation) {
  const grt_hal_vulkan_pipeline_t* pipeline =
      &command->executable->pipelines[command->entry_point];
  const grt_vk_device_symbols_t* vk = &device->vk;
  if (command->binding_count > kMaxInlineBindings) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "dispatch with %" PRIu32
                           " bindings; the Vulkan driver takes at most %d",
                           command->binding_count, kMaxInlineBindings);
  }
  VkDescriptorBufferInfo infos[kMaxInlineBindings];
  VkWriteDescriptorSet writes[kMaxInlineBindings];
  uint64_t alignment = device->properties.limits.minStorageBufferOffsetAlignment;
  struct {
    grt_hal_vulkan_range_t range;
    uint64_t shadow_offset;
  } shadows[kMaxInlineBindings];
  uint32_t shadow_count = 0;
  uint64_t lengths[kMaxInlineBindings];
  for (uint32_t i = 0; i < command->binding_count; ++i) {
    char what[64];
    snprintf(what, sizeof(what), "dispatch binding %" PRIu32, i);
    grt_hal_vulkan_range_t range;
    GRT_RETURN_IF_ERROR(
        grt_hal_vulkan_resolve(device, command->bindings[i], table, what,
                               &range));
    lengths[i] = range.length;
    if (range.length && grt_hal_vulkan_is_misaligned(device, range.offset)) {
      shadows[shadow_count].range = range;
      shadows[shadow_count].shadow_offset = translation->shadow_used;
      translation->shadow_used +=
          grt_hal_vulkan_align(range.length, alignment);
      range.buffer = NULL;
      range.offset = shadows[shadow_count].shadow_offset;
      ++shadow_count;
      infos[i].buffer = translation->shadow.buffer;
    } else {
      infos[i].buffer = range.buffer->handle;
    }
    // An empty binding still needs a non-empty descriptor range.
    infos[i].offset = range.length ? range.offset : 0;
    infos[i].range = range.length ? range.length : VK_WHOLE_SIZE;
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstBinding = i;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &infos[i];
    writes[i] = write;
  }
  for (uint32_t i = 0; i < shadow_count; ++i) {
    VkBufferCopy region = {shadows[i].range.offset, shadows[i].shadow_offset,
                           shadows[i].range.length};
    vk->vkCmdCopyBuffer(cb, shadows[i].range.buffer->handle,
                        translation->shadow.buffer, 1, &region);
  }
  if (shadow_count) {
    grt_hal_vulkan_record_barrier(device, cb, kDeviceStages, kDeviceAccess);
  }
  vk->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
  if (command->binding_count && device->push_descriptors) {
    vk->vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                                  pipeline->layout, 0, command->binding_count,
                                  writes);
  } else if (command->binding_count) {
    VkDescriptorSet set = VK_NULL_HANDLE;
    GRT_RETURN_IF_ERROR(grt_hal_vulkan_allocate_set(device, translation,
                                                    pipeline->set_layout, &set));
    for (uint32_t i = 0; i < command->binding_count; ++i) writes[i].dstSet = set;
    vk->vkUpdateDescriptorSets(device->handle, command->binding_count, writes,
                               0, NULL);
    vk->vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE,
                                pipeline->layout, 0, 1, &set, 0, NULL);
  }
  if (pipeline->status_layout != VK_NULL_HANDLE) {
    GRT_RETURN_IF_ERROR(grt_hal_vulkan_bind_status_word(device, command, command_index,
                                                        lengths, cb, translation));
  }
  if (command->constant_count) {
    vk->vkCmdPushConstants(cb, pipeline->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           command->constant_count * 4, command->constants);
  }
  const uint32_t* count = command->workgroup_count;
  if (count[0] && count[1] && count[2]) {
    vk->vkCmdDispatch(cb, count[0], count[1], count[2]);
  }
  if (shadow_count) {
    grt_hal_vulkan_record_barrier(device, cb, kDeviceStages, kDeviceAccess);
  }
  for (uint32_t i = 0; i < shadow_count; ++i) {
    VkBufferCopy region = {shadows[i].shadow_offset, shadows[i].range.offset,
                           shadows[i].range.length};
    vk->vkCmdCopyBuffer(cb, translation->shadow.buffer,
                        shadows[i].range.buffer->handle, 1, &region);
  }
  if (shadow_count) {
    grt_hal_vulkan_record_barrier(device, cb, kDeviceStages, kDeviceAccess);
  }
  return grt_ok_status();
}

// Sizes the per-submission resources: upload bytes and descriptor sets.
static grt_status_t grt_hal_vulkan_translation_prepare(
    grt_hal_vulkan_device_t* device,
    const grt_hal_vulkan_command_buffer_t* command_buffer,
    grt_hal_buffer_binding_table_t table,
    grt_hal_vulkan_translation_t* translation) {
  uint64_t upload_bytes = 0, shadow_bytes = 0;
  uint32_t sets = 0, descriptors = 0, status_words = 0;
  for (size_t i = 0; i < command_buffer->command_count; ++i) {
    const grt_hal_vulkan_command_t* command = &command_buffer->commands[i];
    if (command->type == GRT_HAL_VULKAN_COMMAND_DISPATCH) {
      if (command->binding_count) ++sets;
      descriptors += command->binding_count;
      if (command->executable->pipelines[command->entry_point].status_layout !=
          VK_NULL_HANDLE) {
        ++status_words;
      }
      for (uint32_t b = 0; b < command->binding_count; ++b) {
        grt_hal_vulkan_range_t range;
        GRT_RETURN_IF_ERROR(grt_hal_vulkan_resolve(
            device, command->bindings[b], table, "dispatch binding", &range));
        if (range.length &&
            grt_hal_vulkan_is_misaligned(device, range.offset)) {
          shadow_bytes += grt_hal_vulkan_align(
              range.length,
              device->properties.limits.minStorageBufferOffsetAlignment);
        }
      }
      continue;
    }
    if (command->type != GRT_HAL_VULKAN_COMMAND_FILL &&
        command->type != GRT_HAL_VULKAN_COMMAND_UPDATE) {
      continue;
    }
    grt_hal_vulkan_range_t range;
    GRT_RETURN_IF_ERROR(grt_hal_vulkan_resolve(device, command->target, table,
                                               "fill/update target", &range));
    if (command->type == GRT_HAL_VULKAN_COMMAND_FILL) {
      uint64_t head, middle, tail;
      grt_hal_vulkan_fill_split(range.offset, range.length, &head, &middle,
                                &tail);
      upload_bytes += head + tail;
    } else if (!grt_hal_vulkan_update_is_aligned(range.offset, range.length)) {
      upload_bytes += range.length;
    }
  }
  if (upload_bytes) {
    GRT_RETURN_IF_ERROR(grt_hal_vulkan_transient_create(
        device, upload_bytes, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
        &translation->upload));
  }
  if (shadow_bytes) {
    GRT_RETURN_IF_ERROR(grt_hal_vulkan_transient_create(
        device, shadow_bytes, 0, &translation->shadow));
  }
  if (device->push_descriptors) sets = descriptors = 0;
  if (status_words) {
    sets += status_words;
    descriptors += status_words;
    uint64_t stride = grt_hal_vulkan_align(
        4, device->properties.limits.minStorageBufferOffsetAlignment);
    GRT_RETURN_IF_ERROR(grt_hal_vulkan_transient_create(
        device, status_words * stride,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        &translation->status));
    memset(translation->status.host_pointer, 0, (size_t)(status_words * stride));
    translation->status_stride = stride;
    GRT_RETURN_IF_ERROR(grt_allocator_calloc(
        device->base.host_allocator, status_words * sizeof(*translation->status_slots),
        (void**)&translation->status_slots));
  }
  if (sets) {
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                 descriptors};
    VkDescriptorPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.maxSets = sets;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    GRT_VK_RETURN_IF_ERROR(
        device->vk.vkCreateDescriptorPool(device->handle, &info, NULL,
                                          &translation->descriptor_pool),
        "vkCreateDescriptorPool");
  }
  return grt_ok_status();
}

grt_status_t grt_hal_vulkan_command_buffer_translate(
    grt_hal_vulkan_device_t* device, grt_hal_command_buffer_t* base,
    grt_hal_buffer_binding_table_t table, VkCommandBuffer cb,
    grt_hal_vulkan_translation_t* translation) {
  grt_hal_vulkan_command_buffer_t* command_buffer =
      grt_hal_vulkan_command_buffer_from(base);
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_translation_prepare(
      device, command_buffer, table, translation));
  grt_hal_vulkan_upload_cursor_t cursor = {
      (uint8_t*)translation->upload.host_pointer, translation->upload.buffer,
      0};
  // Earlier submissions' writes become visible to this one.
  grt_hal_vulkan_record_barrier(device, cb, kDeviceStages, kDeviceAccess);
  for (size_t i = 0; i < command_buffer->command_count; ++i) {
    const grt_hal_vulkan_command_t* command = &command_buffer->commands[i];
    switch (command->type) {
      case GRT_HAL_VULKAN_COMMAND_BARRIER:
        grt_hal_vulkan_record_barrier(device, cb, kDeviceStages,
                                      kDeviceAccess);
        break;
      case GRT_HAL_VULKAN_COMMAND_FILL:
        GRT_RETURN_IF_ERROR(grt_hal_vulkan_translate_fill(device, command,
                                                          table, cb, &cursor));
        break;
      case GRT_HAL_VULKAN_COMMAND_COPY:
        GRT_RETURN_IF_ERROR(
            grt_hal_vulkan_translate_copy(device, command, table, cb));
        break;
      case GRT_HAL_VULKAN_COMMAND_UPDATE:
        GRT_RETURN_IF_ERROR(grt_hal_vulkan_translate_update(
            device, command, table, cb, &cursor));
        break;
      case GRT_HAL_VULKAN_COMMAND_DISPATCH:
        GRT_RETURN_IF_ERROR(grt_hal_vulkan_translate_dispatch(
            device, command, i, table, cb, translation));
        break;
    }
  }
  if (cursor.used) {
    GRT_RETURN_IF_ERROR(
        grt_hal_vulkan_transient_flush(device, &translation->upload));
  }
  // What the host reads after waiting on the submission's semaphores.
  grt_hal_vulkan_record_barrier(
      device, cb, VK_PIPELINE_STAGE_HOST_BIT | kDeviceStages,
      VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT | kDeviceAccess);
  return grt_ok_status();
}

void grt_hal_vulkan_translation_free(
    grt_hal_vulkan_device_t* device,
    grt_hal_vulkan_translation_t* translation) {
  grt_hal_vulkan_transient_destroy(device, &translation->upload);
  grt_hal_vulkan_transient_destroy(device, &translation->shadow);
  grt_hal_vulkan_transient_destroy(device, &translation->status);
  grt_allocator_free(device->base.host_allocator, translation->status_slots);
  translation->status_slots = NULL;
  translation->status_count = 0;
  if (translation->descriptor_pool != VK_NULL_HANDLE) {
    device->vk.vkDestroyDescriptorPool(device->handle,
                                       translation->descriptor_pool, NULL);
    translation->descriptor_pool = VK_NULL_HANDLE;
  }
}

grt_status_t grt_hal_vulkan_translation_status(
    const grt_hal_vulkan_translation_t* translation) {
  const uint8_t* words = (const uint8_t*)translation->status.host_pointer;
  for (uint32_t i = 0; i < translation->status_count; ++i) {
    uint32_t word = 0;
    memcpy(&word, words + i * translation->status_stride, sizeof(word));
    if (word == 0) continue;
    const grt_hal_vulkan_status_slot_t* slot = &translation->status_slots[i];
    uint32_t binding = word - 1;
    if (binding >= slot->binding_count) {
      return grt_make_status(GRT_STATUS_INTERNAL,
                             "kernel '%.*s' (command %zu) reported an access outside "
                             "binding %" PRIu32 ", but the dispatch has %" PRIu32
                             " bindings",
                             GRT_SV_ARG(slot->entry_point), slot->command_index, binding,
                             slot->binding_count);
    }
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "kernel '%.*s' (command %zu) accessed binding %" PRIu32
                           " outside its range (%" PRIu64
                           " bytes); the access was skipped",
                           GRT_SV_ARG(slot->entry_point), slot->command_index, binding,
                           slot->binding_lengths[binding]);
  }
  return grt_ok_status();
}

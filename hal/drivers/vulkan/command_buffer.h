// Vulkan command buffers: HAL commands recorded on the host, translated
// into a VkCommandBuffer when submitted.
//
// Why record on the host: a reusable command buffer's buffer references
// may name binding-table slots that are only known at submit, and storage
// buffer descriptors must name real VkBuffers. Re-recording per
// submission resolves the table with no descriptor indirection in the
// shaders, one code path serves one-shot and reusable buffers, and the
// VkCommandBuffer is recorded on the queue thread, which owns the command
// pool. Recording a VkCommandBuffer is cheap next to the work it carries.
//
// Translation: an execution barrier is a global memory barrier between
// compute and transfer stages; fill is vkCmdFillBuffer on the 4-byte
// aligned middle (1- and 2-byte patterns replicated into a word) with
// unaligned head and tail bytes copied from a per-submission upload
// buffer; update is vkCmdUpdateBuffer (in 65536-byte pieces) when offset
// and length are 4-byte aligned, else a copy from the upload buffer; copy
// is vkCmdCopyBuffer; dispatch binds the entry's pipeline, pushes its
// descriptors (VK_KHR_push_descriptor) or binds a set from a
// per-submission descriptor pool, pushes constants and dispatches. A
// binding whose offset is not a multiple of minStorageBufferOffsetAlignment
// cannot be a descriptor: it is copied into an aligned shadow buffer
// before the dispatch and copied back after it, behind barriers (a slow
// path; the compiler places bindings at aligned offsets). Each
// translated buffer starts with a barrier that makes earlier submissions'
// writes visible and ends with one that makes its writes visible to the
// host.
//
// Dispatches of a pipeline with a status word (executable.h: grt-compile's
// bounds-checked kernels) each get a zeroed uint32 of a per-submission
// host-visible, coherent buffer, bound at set GRT_HAL_VULKAN_STATUS_SET
// from the per-submission descriptor pool. After the submission completes
// the device reads the words (grt_hal_vulkan_translation_status) before it
// signals the submission's semaphores, so a kernel's access outside a
// binding fails them with OUT_OF_RANGE instead of passing unnoticed.
#ifndef GRT_HAL_DRIVERS_VULKAN_COMMAND_BUFFER_H_
#define GRT_HAL_DRIVERS_VULKAN_COMMAND_BUFFER_H_

#include "base/status.h"
#include "hal/command_buffer.h"
#include "hal/drivers/vulkan/allocator.h"
#include "hal/drivers/vulkan/vulkan_device.h"

#ifdef __cplusplus
extern "C" {
#endif

grt_status_t grt_hal_vulkan_command_buffer_create(
    grt_hal_vulkan_device_t* device, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) GRT_MUST_USE;

bool grt_hal_vulkan_command_buffer_isa(
    grt_hal_vulkan_device_t* device,
    const grt_hal_command_buffer_t* command_buffer);

// What one translation needs beyond the VkCommandBuffer, freed after the
// submission completes.
typedef struct grt_hal_vulkan_status_slot_t grt_hal_vulkan_status_slot_t;
typedef struct grt_hal_vulkan_translation_t {
  grt_hal_vulkan_transient_t upload;  // unaligned fill/update bytes
  grt_hal_vulkan_transient_t shadow;  // copies of misaligned bindings
  uint64_t shadow_used;
  // Without push descriptors, or for status words.
  VkDescriptorPool descriptor_pool;
  // The status words: one per dispatch that has one, |status_stride|
  // bytes apart (minStorageBufferOffsetAlignment).
  grt_hal_vulkan_transient_t status;
  uint64_t status_stride;
  grt_hal_vulkan_status_slot_t* status_slots;  // status_count of them
  uint32_t status_count;
} grt_hal_vulkan_translation_t;

// Records |command_buffer| (ended, submission validated) with |table| into
// |target| (begun by the caller). Queue thread only.
grt_status_t grt_hal_vulkan_command_buffer_translate(
    grt_hal_vulkan_device_t* device, grt_hal_command_buffer_t* command_buffer,
    grt_hal_buffer_binding_table_t table, VkCommandBuffer target,
    grt_hal_vulkan_translation_t* translation) GRT_MUST_USE;
void grt_hal_vulkan_translation_free(grt_hal_vulkan_device_t* device,
                                     grt_hal_vulkan_translation_t* translation);

// After the submission of |translation| completed: OUT_OF_RANGE naming the
// entry point, the dispatch and the binding of the first dispatch whose
// kernel reported an access outside a binding, else OK.
grt_status_t grt_hal_vulkan_translation_status(
    const grt_hal_vulkan_translation_t* translation) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_DRIVERS_VULKAN_COMMAND_BUFFER_H_

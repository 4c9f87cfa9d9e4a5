#include "hal/drivers/vulkan/vulkan_device.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/drivers/vulkan/allocator.h"
#include "hal/drivers/vulkan/command_buffer.h"
#include "hal/drivers/vulkan/executable.h"
#include "hal/drivers/vulkan/semaphore.h"
#include "hal/drivers/vulkan/spirv_reflect.h"

static const grt_hal_device_vtable_t grt_hal_vulkan_device_vtable;

//===----------------------------------------------------------------------===//
// Physical devices
//===----------------------------------------------------------------------===//

static const struct {
  VkPhysicalDeviceType type;
  const char* name;
} kDeviceTypes[] = {
    {VK_PHYSICAL_DEVICE_TYPE_CPU, "cpu"},
    {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, "discrete"},
    {VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU, "integrated"},
    {VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, "virtual"},
    {VK_PHYSICAL_DEVICE_TYPE_OTHER, "other"},
};

static const char* grt_hal_vulkan_device_type_name(VkPhysicalDeviceType type) {
  for (size_t i = 0; i < sizeof(kDeviceTypes) / sizeof(kDeviceTypes[0]); ++i) {
    if (kDeviceTypes[i].type == type) return kDeviceTypes[i].name;
  }
  return "other";
}

// The physical devices (at most |capacity|), total in *out_count.
static grt_status_t grt_hal_vulkan_physical_devices(
    grt_vk_instance_t* instance, VkPhysicalDevice* out_devices,
    uint32_t capacity, uint32_t* out_count) {
  uint32_t count = 0;
  GRT_VK_RETURN_IF_ERROR(
      instance->vkEnumeratePhysicalDevices(instance->handle, &count, NULL),
      "vkEnumeratePhysicalDevices");
  if (count == 0) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "no Vulkan device found (the loader lists no "
                           "physical devices)");
  }
  uint32_t fetched = count < capacity ? count : capacity;
  VkResult result =
      instance->vkEnumeratePhysicalDevices(instance->handle, &fetched,
                                           out_devices);
  if (result != VK_INCOMPLETE) {
    GRT_VK_RETURN_IF_ERROR(result, "vkEnumeratePhysicalDevices");
  }
  *out_count = fetched;
  return grt_ok_status();
}

enum { kMaxPhysicalDevices = 16 };

// The family of the first queue with compute, or UINT32_MAX.
static uint32_t grt_hal_vulkan_find_family(grt_vk_instance_t* instance,
                                           VkPhysicalDevice physical,
                                           VkQueueFlags required,
                                           VkQueueFlags excluded) {
  VkQueueFamilyProperties families[32];
  uint32_t count = 32;
  instance->vkGetPhysicalDeviceQueueFamilyProperties(physical, &count,
                                                     families);
  for (uint32_t i = 0; i < count; ++i) {
    if (families[i].queueCount && (families[i].queueFlags & required) ==
                                      required &&
        !(families[i].queueFlags & excluded)) {
      return i;
    }
  }
  return UINT32_MAX;
}

grt_status_t grt_hal_vulkan_enumerate(grt_vk_instance_t* instance,
                                      size_t capacity,
                                      grt_hal_device_info_t* out_infos,
                                      size_t* out_count) {
  *out_count = 0;
  VkPhysicalDevice devices[kMaxPhysicalDevices];
  uint32_t count = 0;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_physical_devices(
      instance, devices, kMaxPhysicalDevices, &count));
  for (uint32_t i = 0; i < count && i < capacity; ++i) {
    VkPhysicalDeviceDriverProperties driver = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 properties = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &driver;
    instance->vkGetPhysicalDeviceProperties2(devices[i], &properties);
    grt_hal_device_info_t* info = &out_infos[i];
    memset(info, 0, sizeof(*info));
    snprintf(info->path, sizeof(info->path), "%" PRIu32, i);
    snprintf(info->name, sizeof(info->name), "%.127s",
             properties.properties.deviceName);
    snprintf(info->type, sizeof(info->type), "%s",
             grt_hal_vulkan_device_type_name(properties.properties.deviceType));
    snprintf(info->driver_version, sizeof(info->driver_version), "%.24s %.38s",
             driver.driverName, driver.driverInfo);
  }
  *out_count = count;
  return grt_ok_status();
}

static bool grt_hal_vulkan_has_extension(grt_vk_instance_t* instance,
                                         VkPhysicalDevice physical,
                                         const char* name) {
  uint32_t count = 0;
  if (instance->vkEnumerateDeviceExtensionProperties(physical, NULL, &count,
                                                     NULL) != VK_SUCCESS) {
    return false;
  }
  VkExtensionProperties* extensions = NULL;
  if (!grt_status_consume_ok(grt_allocator_malloc(
          instance->host_allocator, (count ? count : 1) * sizeof(*extensions),
          (void**)&extensions))) {
    return false;
  }
  bool found = false;
  if (instance->vkEnumerateDeviceExtensionProperties(physical, NULL, &count,
                                                     extensions) ==
      VK_SUCCESS) {
    for (uint32_t i = 0; i < count && !found; ++i) {
      found = strcmp(extensions[i].extensionName, name) == 0;
    }
  }
  grt_allocator_free(instance->host_allocator, extensions);
  return found;
}

// Picks the physical device for |path|: "" = the first with a compute
// queue, "N" = the Nth.
static grt_status_t grt_hal_vulkan_select(grt_vk_instance_t* instance,
                                          grt_string_view_t path,
                                          VkPhysicalDevice* out_physical) {
  VkPhysicalDevice devices[kMaxPhysicalDevices];
  uint32_t count = 0;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_physical_devices(
      instance, devices, kMaxPhysicalDevices, &count));
  if (path.size == 0) {
    for (uint32_t i = 0; i < count; ++i) {
      if (grt_hal_vulkan_find_family(instance, devices[i],
                                     VK_QUEUE_COMPUTE_BIT, 0) != UINT32_MAX) {
        *out_physical = devices[i];
        return grt_ok_status();
      }
    }
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "no Vulkan device found (none of %" PRIu32
                           " devices has a compute queue)",
                           count);
  }
  uint64_t index = 0;
  for (size_t i = 0; i < path.size; ++i) {
    char c = path.data[i];
    if (c < '0' || c > '9' || index > 1000) {
      return grt_make_status(GRT_STATUS_NOT_FOUND,
                             "vulkan has no device '%.*s'; devices are "
                             "numbered 0 to %" PRIu32,
                             GRT_SV_ARG(path), count - 1);
    }
    index = index * 10 + (uint64_t)(c - '0');
  }
  if (index >= count) {
    return grt_make_status(GRT_STATUS_NOT_FOUND,
                           "vulkan has no device %" PRIu64 "; it has %" PRIu32,
                           index, count);
  }
  *out_physical = devices[index];
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Actions: queue operations waiting for, or running on, the GPU
//===----------------------------------------------------------------------===//

struct grt_hal_vulkan_action_t {
  grt_hal_vulkan_action_t* next;
  size_t wait_count;
  grt_hal_semaphore_t** wait_semaphores;  // retained
  uint64_t* wait_values;
  size_t signal_count;
  grt_hal_semaphore_t** signal_semaphores;  // retained
  uint64_t* signal_values;
  size_t command_buffer_count;
  grt_hal_command_buffer_t** command_buffers;  // retained
  grt_hal_buffer_binding_table_t* tables;      // bindings' buffers retained
  grt_hal_buffer_binding_t* bindings;          // storage of every table
  size_t binding_count;
  grt_hal_buffer_t* keep_buffer;  // a dealloca's buffer, retained
  // Set once submitted.
  VkCommandBuffer* vk_command_buffers;
  grt_hal_vulkan_translation_t* translations;
  uint64_t completion_value;
  // A kernel of the submission reports out-of-range accesses (status
  // words): the host signals every semaphore once it has read them.
  bool host_signals;
};

static void grt_hal_vulkan_action_free(grt_hal_vulkan_device_t* device,
                                       grt_hal_vulkan_action_t* action) {
  for (size_t i = 0; i < action->command_buffer_count; ++i) {
    if (action->vk_command_buffers[i] != VK_NULL_HANDLE) {
      device->vk.vkFreeCommandBuffers(device->handle, device->command_pool, 1,
                                      &action->vk_command_buffers[i]);
    }
    grt_hal_vulkan_translation_free(device, &action->translations[i]);
    grt_hal_command_buffer_release(action->command_buffers[i]);
  }
  for (size_t i = 0; i < action->binding_count; ++i) {
    grt_hal_buffer_release(action->bindings[i].buffer);
  }
  for (size_t i = 0; i < action->wait_count; ++i) {
    grt_hal_semaphore_release(action->wait_semaphores[i]);
  }
  for (size_t i = 0; i < action->signal_count; ++i) {
    grt_hal_semaphore_release(action->signal_semaphores[i]);
  }
  if (action->keep_buffer) grt_hal_buffer_release(action->keep_buffer);
  grt_allocator_free(device->base.host_allocator, action);
}

// One allocation holding the action and every array it needs.
static grt_status_t grt_hal_vulkan_action_create(
    grt_hal_vulkan_device_t* device, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* tables,
    grt_hal_vulkan_action_t** out_action) {
  size_t binding_count = 0;
  for (size_t i = 0; tables && i < count; ++i) {
    binding_count += tables[i].count;
  }
  size_t size = sizeof(grt_hal_vulkan_action_t) +
                (wait.count + signal.count) *
                    (sizeof(grt_hal_semaphore_t*) + sizeof(uint64_t)) +
                count * (sizeof(grt_hal_command_buffer_t*) +
                         sizeof(grt_hal_buffer_binding_table_t) +
                         sizeof(VkCommandBuffer) +
                         sizeof(grt_hal_vulkan_translation_t)) +
                binding_count * sizeof(grt_hal_buffer_binding_t);
  grt_hal_vulkan_action_t* action = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(device->base.host_allocator, size,
                                           (void**)&action));
  // Carved in decreasing alignment: 8-byte members first.
  uint8_t* cursor = (uint8_t*)(action + 1);
#define GRT_CARVE(field, n)                       \
  action->field = (void*)cursor;                  \
  cursor += (n) * sizeof(*action->field)
  GRT_CARVE(wait_semaphores, wait.count);
  GRT_CARVE(wait_values, wait.count);
  GRT_CARVE(signal_semaphores, signal.count);
  GRT_CARVE(signal_values, signal.count);
  GRT_CARVE(command_buffers, count);
  GRT_CARVE(tables, count);
  GRT_CARVE(vk_command_buffers, count);
  GRT_CARVE(translations, count);
  GRT_CARVE(bindings, binding_count);
#undef GRT_CARVE
  action->wait_count = wait.count;
  for (size_t i = 0; i < wait.count; ++i) {
    action->wait_semaphores[i] = wait.semaphores[i];
    grt_hal_semaphore_retain(wait.semaphores[i]);
    action->wait_values[i] = wait.values[i];
  }
  action->signal_count = signal.count;
  for (size_t i = 0; i < signal.count; ++i) {
    action->signal_semaphores[i] = signal.semaphores[i];
    grt_hal_semaphore_retain(signal.semaphores[i]);
    action->signal_values[i] = signal.values[i];
  }
  action->command_buffer_count = count;
  size_t next_binding = 0;
  for (size_t i = 0; i < count; ++i) {
    action->command_buffers[i] = command_buffers[i];
    grt_hal_command_buffer_retain(command_buffers[i]);
    grt_hal_buffer_binding_table_t table =
        tables ? tables[i] : grt_hal_buffer_binding_table_empty();
    action->tables[i].count = table.count;
    action->tables[i].bindings = action->bindings + next_binding;
    for (size_t b = 0; b < table.count; ++b) {
      action->bindings[next_binding] = table.bindings[b];
      grt_hal_buffer_retain(table.bindings[b].buffer);
      ++next_binding;
    }
  }
  action->binding_count = next_binding;
  *out_action = action;
  return grt_ok_status();
}

// Hands |action| to the queue thread.
static void grt_hal_vulkan_device_enqueue(grt_hal_vulkan_device_t* device,
                                          grt_hal_vulkan_action_t* action) {
  pthread_mutex_lock(&device->mutex);
  if (device->incoming_tail) {
    device->incoming_tail->next = action;
  } else {
    device->incoming_head = action;
  }
  device->incoming_tail = action;
  // Signalled under the lock so that values reach Vulkan in order.
  VkSemaphoreSignalInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = device->wake_semaphore;
  info.value = ++device->wake_value;
  (void)device->vk.vkSignalSemaphore(device->handle, &info);
  pthread_mutex_unlock(&device->mutex);
}

// Fails every signal of |action| with |status| (taken) and frees it.
static void grt_hal_vulkan_action_fail(grt_hal_vulkan_device_t* device,
                                       grt_hal_vulkan_action_t* action,
                                       grt_status_t status) {
  grt_hal_semaphore_list_t signal = {action->signal_count,
                                     action->signal_semaphores,
                                     action->signal_values};
  grt_hal_semaphore_list_fail(signal, status);
  grt_hal_vulkan_action_free(device, action);
}

// Whether every wait of |action| is reached; a failed wait is returned as
// the error. |*out_blocker| receives the first unreached Vulkan wait.
static grt_status_t grt_hal_vulkan_action_ready(
    grt_hal_vulkan_device_t* device, grt_hal_vulkan_action_t* action,
    bool* out_ready, size_t* out_blocker) {
  *out_ready = true;
  for (size_t i = 0; i < action->wait_count; ++i) {
    uint64_t value = 0;
    GRT_RETURN_IF_ERROR(
        grt_hal_semaphore_query(action->wait_semaphores[i], &value));
    if (value < action->wait_values[i]) {
      *out_ready = false;
      *out_blocker = i;
      // Keep scanning: a later wait may already have failed.
    }
  }
  (void)device;
  return grt_ok_status();
}

// Records and submits |action|; it then signals on the GPU.
static grt_status_t grt_hal_vulkan_action_submit(
    grt_hal_vulkan_device_t* device, grt_hal_vulkan_action_t* action) {
  const grt_vk_device_symbols_t* vk = &device->vk;
  size_t count = action->command_buffer_count;
  if (count) {
    VkCommandBufferAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = device->command_pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = (uint32_t)count;
    GRT_VK_RETURN_IF_ERROR(vk->vkAllocateCommandBuffers(
                               device->handle, &allocate,
                               action->vk_command_buffers),
                           "vkAllocateCommandBuffers");
  }
  for (size_t i = 0; i < count; ++i) {
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    GRT_VK_RETURN_IF_ERROR(
        vk->vkBeginCommandBuffer(action->vk_command_buffers[i], &begin),
        "vkBeginCommandBuffer");
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_hal_vulkan_command_buffer_translate(
            device, action->command_buffers[i], action->tables[i],
            action->vk_command_buffers[i], &action->translations[i]),
        "command buffer %zu of %zu", i, count);
    GRT_VK_RETURN_IF_ERROR(vk->vkEndCommandBuffer(action->vk_command_buffers[i]),
                           "vkEndCommandBuffer");
  }
  // The GPU signals this device's semaphores plus the completion one;
  // others are signalled by the host when the completion is seen, and so
  // are all of them when a kernel may report an access outside a binding
  // (its status word is read first).
  for (size_t i = 0; i < count; ++i) {
    if (action->translations[i].status_count) action->host_signals = true;
  }
  enum { kMaxSignals = 64 };
  VkSemaphore semaphores[kMaxSignals + 1];
  uint64_t values[kMaxSignals + 1];
  uint32_t signal_count = 0;
  for (size_t i = 0; i < action->signal_count && !action->host_signals; ++i) {
    grt_hal_vulkan_semaphore_t* semaphore =
        grt_hal_vulkan_semaphore_cast(device, action->signal_semaphores[i]);
    if (!semaphore) continue;
    if (signal_count == kMaxSignals) {
      return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                             "a submission signals more than %d semaphores",
                             kMaxSignals);
    }
    uint64_t value = action->signal_values[i];
    pthread_mutex_lock(&semaphore->mutex);
    bool failed = atomic_load(&semaphore->failed);
    uint64_t current = 0;
    grt_status_t status = grt_ok_status();
    if (!failed) {
      status = grt_vk_result_status(
          vk->vkGetSemaphoreCounterValue(device->handle, semaphore->handle,
                                         &current),
          "vkGetSemaphoreCounterValue");
      if (grt_status_is_ok(status) &&
          (value <= current ||
           value <= atomic_load(&semaphore->pending_gpu_value))) {
        status = grt_make_status(
            GRT_STATUS_FAILED_PRECONDITION,
            "semaphore value must increase: current %" PRIu64
            ", signalled %" PRIu64,
            current, value);
      }
      if (grt_status_is_ok(status)) {
        atomic_store(&semaphore->pending_gpu_value, value);
      }
    }
    pthread_mutex_unlock(&semaphore->mutex);
    GRT_RETURN_IF_ERROR(status);
    // A failed semaphore already woke its waiters; it is not signalled.
    if (failed) continue;
    semaphores[signal_count] = semaphore->handle;
    values[signal_count] = value;
    ++signal_count;
  }
  action->completion_value = ++device->completion_next;
  semaphores[signal_count] = device->completion_semaphore;
  values[signal_count] = action->completion_value;
  ++signal_count;
  VkTimelineSemaphoreSubmitInfo timeline = {
      .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  timeline.signalSemaphoreValueCount = signal_count;
  timeline.pSignalSemaphoreValues = values;
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.pNext = &timeline;
  submit.commandBufferCount = (uint32_t)count;
  submit.pCommandBuffers = action->vk_command_buffers;
  submit.signalSemaphoreCount = signal_count;
  submit.pSignalSemaphores = semaphores;
  VkResult result =
      vk->vkQueueSubmit(device->compute_queue, 1, &submit, VK_NULL_HANDLE);
  if (result != VK_SUCCESS) {
    // Nothing will signal the completion value: take it back.
    --device->completion_next;
  }
  return grt_vk_result_status(result, "vkQueueSubmit");
}

// The end of a submitted action: signal what the GPU could not, release.
static void grt_hal_vulkan_action_complete(grt_hal_vulkan_device_t* device,
                                           grt_hal_vulkan_action_t* action) {
  if (action->host_signals) {
    grt_status_t status = grt_ok_status();
    for (size_t i = 0; i < action->command_buffer_count && grt_status_is_ok(status); ++i) {
      status = grt_hal_vulkan_translation_status(&action->translations[i]);
      if (!grt_status_is_ok(status) && action->command_buffer_count > 1) {
        status = grt_status_annotate(status, "command buffer %zu of %zu", i,
                                     action->command_buffer_count);
      }
    }
    if (!grt_status_is_ok(status)) {
      grt_hal_vulkan_action_fail(device, action, status);
      return;
    }
  }
  for (size_t i = 0; i < action->signal_count; ++i) {
    grt_hal_semaphore_t* semaphore = action->signal_semaphores[i];
    if (!action->host_signals && grt_hal_vulkan_semaphore_cast(device, semaphore)) {
      continue;
    }
    grt_status_t status =
        grt_hal_semaphore_signal(semaphore, action->signal_values[i]);
    if (!grt_status_is_ok(status)) grt_hal_semaphore_fail(semaphore, status);
  }
  grt_hal_vulkan_action_free(device, action);
}

// Growable array of (semaphore, value) the queue thread waits on.
typedef struct grt_hal_vulkan_wait_set_t {
  VkSemaphore* semaphores;
  uint64_t* values;
  size_t count;
  size_t capacity;
} grt_hal_vulkan_wait_set_t;

static grt_status_t grt_hal_vulkan_wait_set_add(
    grt_allocator_t allocator, grt_hal_vulkan_wait_set_t* set,
    VkSemaphore semaphore, uint64_t value) {
  if (set->count == set->capacity) {
    size_t capacity = set->capacity ? set->capacity * 2 : 16;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        allocator, set->capacity * sizeof(VkSemaphore),
        capacity * sizeof(VkSemaphore), (void**)&set->semaphores));
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        allocator, set->capacity * sizeof(uint64_t),
        capacity * sizeof(uint64_t), (void**)&set->values));
    set->capacity = capacity;
  }
  set->semaphores[set->count] = semaphore;
  set->values[set->count] = value;
  ++set->count;
  return grt_ok_status();
}

static void* grt_hal_vulkan_queue_thread_main(void* arg) {
  grt_hal_vulkan_device_t* device = (grt_hal_vulkan_device_t*)arg;
  grt_allocator_t host_allocator = device->base.host_allocator;
  grt_hal_vulkan_action_t* pending = NULL;   // waiting for their waits
  grt_hal_vulkan_action_t* inflight = NULL;  // submitted, FIFO
  grt_hal_vulkan_action_t* inflight_tail = NULL;
  grt_hal_vulkan_wait_set_t set = {0};
  uint64_t wake_seen = 0;
  for (;;) {
    pthread_mutex_lock(&device->mutex);
    grt_hal_vulkan_action_t* incoming = device->incoming_head;
    device->incoming_head = device->incoming_tail = NULL;
    bool shutting_down = device->shutting_down;
    // Read with the list taken: every action appended later signals a
    // larger wake value, so the wait below cannot miss it.
    wake_seen = device->wake_value;
    pthread_mutex_unlock(&device->mutex);
    // Append in arrival order.
    grt_hal_vulkan_action_t** tail = &pending;
    while (*tail) tail = &(*tail)->next;
    *tail = incoming;
    // The device is going away: what still waits will never run.
    while (shutting_down && pending) {
      grt_hal_vulkan_action_t* action = pending;
      pending = action->next;
      grt_hal_vulkan_action_fail(
          device, action,
          grt_make_status(GRT_STATUS_CANCELLED,
                          "device %s was released before the submission's "
                          "waits were reached",
                          device->base.uri));
    }

    // Completions first: they free resources and may signal host waits.
    uint64_t completed = 0;
    (void)device->vk.vkGetSemaphoreCounterValue(
        device->handle, device->completion_semaphore, &completed);
    while (inflight && inflight->completion_value <= completed) {
      grt_hal_vulkan_action_t* done = inflight;
      inflight = done->next;
      if (!inflight) inflight_tail = NULL;
      grt_hal_vulkan_action_complete(device, done);
    }

    set.count = 0;
    grt_status_t set_status = grt_ok_status();
    for (grt_hal_vulkan_action_t** link = &pending; *link;) {
      grt_hal_vulkan_action_t* action = *link;
      bool ready = false;
      size_t blocker = 0;
      grt_status_t status =
          grt_hal_vulkan_action_ready(device, action, &ready, &blocker);
      if (grt_status_is_ok(status) && !ready) {
        grt_hal_vulkan_semaphore_t* semaphore = grt_hal_vulkan_semaphore_cast(
            device, action->wait_semaphores[blocker]);
        // Only this device's semaphores reach here (queue_execute waits
        // for the others on the caller's thread).
        if (semaphore && grt_status_is_ok(set_status)) {
          set_status = grt_hal_vulkan_wait_set_add(
              host_allocator, &set, semaphore->handle,
              action->wait_values[blocker]);
        }
        link = &action->next;
        continue;
      }
      *link = action->next;
      action->next = NULL;
      if (grt_status_is_ok(status)) {
        status = grt_hal_vulkan_action_submit(device, action);
      }
      if (!grt_status_is_ok(status)) {
        grt_hal_vulkan_action_fail(device, action, status);
        continue;
      }
      if (inflight_tail) {
        inflight_tail->next = action;
      } else {
        inflight = action;
      }
      inflight_tail = action;
    }
    if (shutting_down && !pending && !inflight) break;
    if (!grt_status_is_ok(set_status)) {
      // Out of memory for the wait list: wait for the next arrival or
      // completion only, then retry.
      grt_status_free(set_status);
      set.count = 0;
    }
    VkSemaphore base_semaphores[2] = {device->wake_semaphore,
                                      device->completion_semaphore};
    uint64_t base_values[2] = {wake_seen + 1,
                               inflight ? inflight->completion_value : 0};
    for (uint32_t i = 0; i < (inflight ? 2u : 1u); ++i) {
      if (!grt_status_consume_ok(grt_hal_vulkan_wait_set_add(
              host_allocator, &set, base_semaphores[i], base_values[i]))) {
        break;
      }
    }
    VkSemaphoreWaitInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    info.flags = VK_SEMAPHORE_WAIT_ANY_BIT;
    info.semaphoreCount = (uint32_t)set.count;
    info.pSemaphores = set.semaphores;
    info.pValues = set.values;
    if (set.count) {
      (void)device->vk.vkWaitSemaphores(device->handle, &info, UINT64_MAX);
    }
  }
  grt_allocator_free(host_allocator, set.semaphores);
  grt_allocator_free(host_allocator, set.values);
  return NULL;
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

bool grt_hal_vulkan_device_isa(const grt_hal_device_t* device) {
  return device->resource.vtable == &grt_hal_vulkan_device_vtable;
}

static grt_hal_vulkan_device_t* grt_hal_vulkan_device_from(
    grt_hal_device_t* base) {
  return (grt_hal_vulkan_device_t*)base;
}

void grt_hal_vulkan_device_core_retain(grt_hal_vulkan_device_t* device) {
  atomic_fetch_add(&device->core_refs, 1u);
}

void grt_hal_vulkan_device_core_release(grt_hal_vulkan_device_t* device) {
  if (atomic_fetch_sub(&device->core_refs, 1u) != 1u) return;
  // The table may be partial when creation failed while loading it.
  if (device->handle != VK_NULL_HANDLE && device->vk.vkDestroyDevice) {
    device->vk.vkDestroyDevice(device->handle, NULL);
  }
  pthread_mutex_destroy(&device->mutex);
  grt_vk_instance_release(device->instance);
  grt_allocator_free(device->base.host_allocator, device);
}

static void grt_hal_vulkan_device_destroy(grt_hal_resource_t* resource) {
  grt_hal_vulkan_device_t* device = (grt_hal_vulkan_device_t*)resource;
  const grt_vk_device_symbols_t* vk = &device->vk;
  if (device->thread_started) {
    pthread_mutex_lock(&device->mutex);
    device->shutting_down = true;
    VkSemaphoreSignalInfo info = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    info.semaphore = device->wake_semaphore;
    info.value = ++device->wake_value;
    (void)vk->vkSignalSemaphore(device->handle, &info);
    pthread_mutex_unlock(&device->mutex);
    pthread_join(device->thread, NULL);
  }
  grt_hal_executable_cache_release(device->executable_cache);
  grt_hal_allocator_release(device->allocator);
  if (device->handle != VK_NULL_HANDLE && vk->vkDeviceWaitIdle) {
    vk->vkDeviceWaitIdle(device->handle);
    if (device->command_pool) {
      vk->vkDestroyCommandPool(device->handle, device->command_pool, NULL);
    }
    if (device->wake_semaphore) {
      vk->vkDestroySemaphore(device->handle, device->wake_semaphore, NULL);
    }
    if (device->completion_semaphore) {
      vk->vkDestroySemaphore(device->handle, device->completion_semaphore,
                             NULL);
    }
  }
  grt_hal_vulkan_device_core_release(device);
}

static grt_status_t grt_hal_vulkan_create_timeline(
    grt_hal_vulkan_device_t* device, VkSemaphore* out) {
  VkSemaphoreTypeCreateInfo type = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  return grt_vk_result_status(
      device->vk.vkCreateSemaphore(device->handle, &info, NULL, out),
      "vkCreateSemaphore");
}

// The feature structs of Vulkan 1.0-1.2, chained.
typedef struct grt_hal_vulkan_features_t {
  VkPhysicalDeviceFeatures2 core;
  VkPhysicalDeviceVulkan11Features v11;
  VkPhysicalDeviceVulkan12Features v12;
} grt_hal_vulkan_features_t;

static void grt_hal_vulkan_features_chain(grt_hal_vulkan_features_t* f) {
  memset(f, 0, sizeof(*f));
  f->core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  f->core.pNext = &f->v11;
  f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  f->v11.pNext = &f->v12;
  f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
}

static void grt_hal_vulkan_features_query(grt_vk_instance_t* instance,
                                          VkPhysicalDevice physical,
                                          grt_hal_vulkan_features_t* out) {
  grt_hal_vulkan_features_chain(out);
  instance->vkGetPhysicalDeviceFeatures2(physical, &out->core);
}

// The features compiled kernels may use (64-bit, 16-bit and 8-bit types
// and storage, the memory model), each enabled when the device has it:
// an executable whose shader declares a capability that needs one the
// device lacks is refused when it is loaded (executable.c), naming the
// entry point and the feature. GRT_VULKAN_DISABLE_FEATURES (a comma
// list of these names, e.g. storageBuffer8BitAccess,shaderInt8) leaves
// features off as a device without them would (tests of that path).
#define GRT_HAL_VULKAN_FEATURE(member, field) \
  {offsetof(grt_hal_vulkan_features_t, member) +  \
   offsetof(__typeof__(((grt_hal_vulkan_features_t*)0)->member), field), #field}
static const struct {
  size_t offset;  // of a VkBool32 inside grt_hal_vulkan_features_t
  const char* name;
} kWantedFeatures[] = {
    GRT_HAL_VULKAN_FEATURE(core.features, shaderInt64),
    GRT_HAL_VULKAN_FEATURE(core.features, shaderInt16),
    GRT_HAL_VULKAN_FEATURE(core.features, shaderFloat64),
    GRT_HAL_VULKAN_FEATURE(v11, storageBuffer16BitAccess),
    GRT_HAL_VULKAN_FEATURE(v11, uniformAndStorageBuffer16BitAccess),
    GRT_HAL_VULKAN_FEATURE(v11, storagePushConstant16),
    GRT_HAL_VULKAN_FEATURE(v12, storageBuffer8BitAccess),
    GRT_HAL_VULKAN_FEATURE(v12, uniformAndStorageBuffer8BitAccess),
    GRT_HAL_VULKAN_FEATURE(v12, storagePushConstant8),
    GRT_HAL_VULKAN_FEATURE(v12, shaderInt8),
    GRT_HAL_VULKAN_FEATURE(v12, shaderFloat16),
    GRT_HAL_VULKAN_FEATURE(v12, timelineSemaphore),
    GRT_HAL_VULKAN_FEATURE(v12, vulkanMemoryModel),
    GRT_HAL_VULKAN_FEATURE(v12, vulkanMemoryModelDeviceScope),
};

// Whether |name| is an item of the comma list |list| (NULL: none).
static bool grt_hal_vulkan_listed(const char* list, const char* name) {
  size_t length = strlen(name);
  for (const char* at = list; at && *at;) {
    const char* end = strchr(at, ',');
    size_t item = end ? (size_t)(end - at) : strlen(at);
    if (item == length && memcmp(at, name, length) == 0) return true;
    at = end ? end + 1 : at + item;
  }
  return false;
}

// Enables the wanted features the device has (less the disabled ones) and
// returns the GRT_SPIRV_CAP_* bits shaders may then declare.
static uint32_t grt_hal_vulkan_features_enable(
    const grt_hal_vulkan_features_t* supported,
    grt_hal_vulkan_features_t* out) {
  grt_hal_vulkan_features_chain(out);
  const char* disabled = getenv("GRT_VULKAN_DISABLE_FEATURES");
  uint32_t capabilities = 0;
  for (size_t i = 0; i < sizeof(kWantedFeatures) / sizeof(kWantedFeatures[0]);
       ++i) {
    const VkBool32* has =
        (const VkBool32*)((const uint8_t*)supported + kWantedFeatures[i].offset);
    VkBool32* enable = (VkBool32*)((uint8_t*)out + kWantedFeatures[i].offset);
    *enable = *has && !grt_hal_vulkan_listed(disabled, kWantedFeatures[i].name)
                  ? VK_TRUE
                  : VK_FALSE;
    for (uint32_t c = 0; *enable && c < GRT_SPIRV_CAP_COUNT; ++c) {
      if (strcmp(grt_spirv_capability_feature(1u << c), kWantedFeatures[i].name) == 0) {
        capabilities |= 1u << c;
      }
    }
  }
  return capabilities;
}

// Everything after the physical device is chosen; on failure the caller
// releases the device, which frees what was made.
static grt_status_t grt_hal_vulkan_device_open(grt_hal_vulkan_device_t* device) {
  grt_vk_instance_t* instance = device->instance;
  VkPhysicalDevice physical = device->physical_device;
  instance->vkGetPhysicalDeviceProperties(physical, &device->properties);
  instance->vkGetPhysicalDeviceMemoryProperties(physical,
                                                &device->memory_properties);
  if (device->properties.apiVersion < VK_API_VERSION_1_2) {
    return grt_make_status(
        GRT_STATUS_UNAVAILABLE,
        "no Vulkan device found (%s supports Vulkan %u.%u; timeline "
        "semaphores need 1.2)",
        device->properties.deviceName,
        VK_API_VERSION_MAJOR(device->properties.apiVersion),
        VK_API_VERSION_MINOR(device->properties.apiVersion));
  }
  grt_hal_vulkan_features_t supported;
  grt_hal_vulkan_features_query(instance, physical, &supported);
  if (!supported.v12.timelineSemaphore) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "no Vulkan device found (%s lacks timeline "
                           "semaphores)",
                           device->properties.deviceName);
  }
  VkPhysicalDeviceVulkan12Properties properties12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 properties = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &properties12;
  instance->vkGetPhysicalDeviceProperties2(physical, &properties);
  device->max_timeline_difference =
      properties12.maxTimelineSemaphoreValueDifference;

  device->compute_family =
      grt_hal_vulkan_find_family(instance, physical, VK_QUEUE_COMPUTE_BIT, 0);
  if (device->compute_family == UINT32_MAX) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "Vulkan device %s has no compute queue",
                           device->properties.deviceName);
  }
  device->transfer_family = grt_hal_vulkan_find_family(
      instance, physical, VK_QUEUE_TRANSFER_BIT,
      VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT);
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queues[2] = {
      {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
  queues[0].queueFamilyIndex = device->compute_family;
  queues[0].queueCount = 1;
  queues[0].pQueuePriorities = &priority;
  uint32_t queue_count = 1;
  if (device->transfer_family != UINT32_MAX) {
    queues[1] = queues[0];
    queues[1].queueFamilyIndex = device->transfer_family;
    queue_count = 2;
  }
  const char* extensions[1];
  uint32_t extension_count = 0;
  device->push_descriptors =
      grt_hal_vulkan_has_extension(instance, physical,
                                   VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) &&
      !getenv("GRT_VULKAN_NO_PUSH_DESCRIPTORS");
  if (device->push_descriptors) {
    extensions[extension_count++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
  }
  grt_hal_vulkan_features_t enabled;
  device->shader_capabilities = grt_hal_vulkan_features_enable(&supported, &enabled);
  VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &enabled.core;
  info.queueCreateInfoCount = queue_count;
  info.pQueueCreateInfos = queues;
  info.enabledExtensionCount = extension_count;
  info.ppEnabledExtensionNames = extensions;
  GRT_VK_RETURN_IF_ERROR(
      instance->vkCreateDevice(physical, &info, NULL, &device->handle),
      "vkCreateDevice");
  GRT_RETURN_IF_ERROR(
      grt_vk_device_symbols_load(instance, device->handle, &device->vk));
  if (device->push_descriptors && !device->vk.vkCmdPushDescriptorSetKHR) {
    device->push_descriptors = false;
  }
  device->vk.vkGetDeviceQueue(device->handle, device->compute_family, 0,
                              &device->compute_queue);
  VkCommandPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool.queueFamilyIndex = device->compute_family;
  GRT_VK_RETURN_IF_ERROR(device->vk.vkCreateCommandPool(
                             device->handle, &pool, NULL,
                             &device->command_pool),
                         "vkCreateCommandPool");
  GRT_RETURN_IF_ERROR(
      grt_hal_vulkan_create_timeline(device, &device->wake_semaphore));
  GRT_RETURN_IF_ERROR(
      grt_hal_vulkan_create_timeline(device, &device->completion_semaphore));
  GRT_RETURN_IF_ERROR(
      grt_hal_vulkan_allocator_create(device, &device->allocator));
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_executable_cache_create(
      device, &device->executable_cache));
  if (pthread_create(&device->thread, NULL, grt_hal_vulkan_queue_thread_main,
                     device) != 0) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "cannot start the Vulkan queue thread");
  }
  device->thread_started = true;
  return grt_ok_status();
}

grt_status_t grt_hal_vulkan_device_create(grt_vk_instance_t* instance,
                                          grt_string_view_t path,
                                          const char* uri,
                                          grt_allocator_t host_allocator,
                                          grt_hal_device_t** out_device) {
  *out_device = NULL;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  GRT_RETURN_IF_ERROR(grt_hal_vulkan_select(instance, path, &physical));
  grt_hal_vulkan_device_t* device = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(host_allocator, sizeof(*device), (void**)&device));
  grt_hal_device_initialize(&grt_hal_vulkan_device_vtable, uri, host_allocator,
                            &device->base);
  atomic_init(&device->core_refs, 1u);  // the HAL device's own
  device->instance = instance;
  grt_vk_instance_retain(instance);
  device->physical_device = physical;
  pthread_mutex_init(&device->mutex, NULL);
  grt_status_t status = grt_hal_vulkan_device_open(device);
  if (!grt_status_is_ok(status)) {
    grt_hal_device_release(&device->base);
    return status;
  }
  *out_device = &device->base;
  return grt_ok_status();
}

static grt_hal_allocator_t* grt_hal_vulkan_device_allocator(
    grt_hal_device_t* base) {
  return grt_hal_vulkan_device_from(base)->allocator;
}

static grt_hal_executable_cache_t* grt_hal_vulkan_device_executable_cache(
    grt_hal_device_t* base) {
  return grt_hal_vulkan_device_from(base)->executable_cache;
}

static grt_status_t grt_hal_vulkan_device_query_i64(grt_hal_device_t* base,
                                                    grt_string_view_t category,
                                                    grt_string_view_t key,
                                                    int64_t* out_value) {
  // hal.device.id and hal.executable.format are answered by
  // grt_hal_device_query_i64; Vulkan adds nothing of its own yet.
  return grt_make_status(GRT_STATUS_NOT_FOUND, "no such query");
}

static grt_status_t grt_hal_vulkan_device_create_command_buffer(
    grt_hal_device_t* base, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) {
  return grt_hal_vulkan_command_buffer_create(
      grt_hal_vulkan_device_from(base), mode, binding_capacity, out);
}

static grt_status_t grt_hal_vulkan_device_create_semaphore(
    grt_hal_device_t* base, uint64_t initial_value,
    grt_hal_semaphore_t** out) {
  return grt_hal_vulkan_semaphore_create(grt_hal_vulkan_device_from(base),
                                         initial_value, out);
}

// Queue operations share one path: wait for semaphores of other devices
// (or host semaphores) here, then hand an action to the queue thread. A
// failure before the action exists fails the signals, as execution errors
// do, and the call returns OK.
static grt_status_t grt_hal_vulkan_device_queue(
    grt_hal_vulkan_device_t* device, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* tables,
    grt_hal_buffer_t* keep_buffer) {
  grt_status_t status = grt_ok_status();
  for (size_t i = 0; i < wait.count && grt_status_is_ok(status); ++i) {
    if (grt_hal_vulkan_semaphore_cast(device, wait.semaphores[i])) continue;
    status = grt_hal_semaphore_wait(wait.semaphores[i], wait.values[i],
                                    GRT_HAL_TIMEOUT_INFINITE);
  }
  if (!grt_status_is_ok(status)) {
    grt_hal_semaphore_list_fail(signal, status);
    return grt_ok_status();
  }
  if (!count && !signal.count && !keep_buffer) return grt_ok_status();
  grt_hal_vulkan_action_t* action = NULL;
  status = grt_hal_vulkan_action_create(device, wait, signal, count,
                                        command_buffers, tables, &action);
  if (!grt_status_is_ok(status)) {
    grt_hal_semaphore_list_fail(signal, status);
    return grt_ok_status();
  }
  if (keep_buffer) {
    action->keep_buffer = keep_buffer;
    grt_hal_buffer_retain(keep_buffer);
  }
  grt_hal_vulkan_device_enqueue(device, action);
  return grt_ok_status();
}

static grt_status_t grt_hal_vulkan_device_queue_alloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_params_t params,
    uint64_t size, grt_hal_buffer_t** out_buffer) {
  grt_hal_vulkan_device_t* device = grt_hal_vulkan_device_from(base);
  // Memory is allocated now (bad parameters are a returned error); the
  // queue only orders the waits before the signals.
  GRT_RETURN_IF_ERROR(grt_hal_allocator_allocate_buffer(
      device->allocator, params, size, out_buffer));
  return grt_hal_vulkan_device_queue(device, wait, signal, 0, NULL, NULL,
                                     NULL);
}

static grt_status_t grt_hal_vulkan_device_queue_dealloca(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, grt_hal_buffer_t* buffer) {
  grt_hal_vulkan_device_t* device = grt_hal_vulkan_device_from(base);
  if (!grt_hal_vulkan_buffer_cast(device,
                                  grt_hal_buffer_allocated_buffer(buffer))) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "queue dealloca of a buffer not allocated by "
                           "device %s",
                           base->uri);
  }
  // The action keeps the buffer until the waits are reached, so memory
  // still in use by earlier work is never freed under it.
  return grt_hal_vulkan_device_queue(device, wait, signal, 0, NULL, NULL,
                                     buffer);
}

static grt_status_t grt_hal_vulkan_device_queue_execute(
    grt_hal_device_t* base, grt_hal_semaphore_list_t wait,
    grt_hal_semaphore_list_t signal, size_t count,
    grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables) {
  grt_hal_vulkan_device_t* device = grt_hal_vulkan_device_from(base);
  for (size_t i = 0; i < count; ++i) {
    if (!grt_hal_vulkan_command_buffer_isa(device, command_buffers[i])) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "command buffer %zu of %zu was not created by "
                             "device %s",
                             i, count, base->uri);
    }
    grt_hal_buffer_binding_table_t table =
        binding_tables ? binding_tables[i]
                       : grt_hal_buffer_binding_table_empty();
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_hal_command_buffer_validate_submission(command_buffers[i], table),
        "command buffer %zu of %zu", i, count);
  }
  return grt_hal_vulkan_device_queue(device, wait, signal, count,
                                     command_buffers, binding_tables, NULL);
}

static grt_status_t grt_hal_vulkan_device_queue_flush(grt_hal_device_t* base) {
  // The queue thread submits as soon as an action's waits are reached.
  (void)base;
  return grt_ok_status();
}

static const grt_hal_device_vtable_t grt_hal_vulkan_device_vtable = {
    {grt_hal_vulkan_device_destroy},
    grt_hal_vulkan_device_allocator,
    grt_hal_vulkan_device_executable_cache,
    grt_hal_vulkan_device_query_i64,
    grt_hal_vulkan_device_create_command_buffer,
    grt_hal_vulkan_device_create_semaphore,
    grt_hal_vulkan_device_queue_alloca,
    grt_hal_vulkan_device_queue_dealloca,
    grt_hal_vulkan_device_queue_execute,
    grt_hal_vulkan_device_queue_flush,
};

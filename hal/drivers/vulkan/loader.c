// dl_iterate_phdr and RTLD_NOLOAD are GNU extensions.
#define _GNU_SOURCE

#include "hal/drivers/vulkan/loader.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRT_VK_DEFAULT_LIBRARY "libvulkan.so.1"

// VkResult -> name, with the status code each maps to.
#define GRT_VK_RESULT_LIST(X)                                 \
  X(VK_SUCCESS, OK)                                           \
  X(VK_NOT_READY, UNAVAILABLE)                                \
  X(VK_TIMEOUT, DEADLINE_EXCEEDED)                            \
  X(VK_EVENT_SET, INTERNAL)                                   \
  X(VK_EVENT_RESET, INTERNAL)                                 \
  X(VK_INCOMPLETE, INTERNAL)                                  \
  X(VK_ERROR_OUT_OF_HOST_MEMORY, RESOURCE_EXHAUSTED)          \
  X(VK_ERROR_OUT_OF_DEVICE_MEMORY, RESOURCE_EXHAUSTED)        \
  X(VK_ERROR_INITIALIZATION_FAILED, UNAVAILABLE)              \
  X(VK_ERROR_DEVICE_LOST, UNAVAILABLE)                        \
  X(VK_ERROR_MEMORY_MAP_FAILED, INTERNAL)                     \
  X(VK_ERROR_LAYER_NOT_PRESENT, UNAVAILABLE)                  \
  X(VK_ERROR_EXTENSION_NOT_PRESENT, UNAVAILABLE)              \
  X(VK_ERROR_FEATURE_NOT_PRESENT, UNAVAILABLE)                \
  X(VK_ERROR_INCOMPATIBLE_DRIVER, UNAVAILABLE)                \
  X(VK_ERROR_TOO_MANY_OBJECTS, RESOURCE_EXHAUSTED)            \
  X(VK_ERROR_FORMAT_NOT_SUPPORTED, INTERNAL)                  \
  X(VK_ERROR_FRAGMENTED_POOL, RESOURCE_EXHAUSTED)             \
  X(VK_ERROR_UNKNOWN, UNKNOWN)                                \
  X(VK_ERROR_OUT_OF_POOL_MEMORY, RESOURCE_EXHAUSTED)          \
  X(VK_ERROR_INVALID_EXTERNAL_HANDLE, INTERNAL)               \
  X(VK_ERROR_FRAGMENTATION, RESOURCE_EXHAUSTED)               \
  X(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS, INTERNAL)        \
  X(VK_PIPELINE_COMPILE_REQUIRED, INTERNAL)                   \
  X(VK_ERROR_SURFACE_LOST_KHR, INTERNAL)                      \
  X(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR, INTERNAL)              \
  X(VK_SUBOPTIMAL_KHR, INTERNAL)                              \
  X(VK_ERROR_OUT_OF_DATE_KHR, INTERNAL)                       \
  X(VK_ERROR_VALIDATION_FAILED_EXT, INTERNAL)                 \
  X(VK_ERROR_INVALID_SHADER_NV, INVALID_ARGUMENT)             \
  X(VK_ERROR_NOT_PERMITTED_KHR, PERMISSION_DENIED)

typedef struct grt_vk_result_row_t {
  VkResult result;
  const char* name;
  grt_status_code_t code;
} grt_vk_result_row_t;

static const grt_vk_result_row_t kResultRows[] = {
#define GRT_VK_RESULT_ROW(result, code) {result, #result, GRT_STATUS_##code},
    GRT_VK_RESULT_LIST(GRT_VK_RESULT_ROW)
#undef GRT_VK_RESULT_ROW
};

static const grt_vk_result_row_t* grt_vk_result_find(VkResult result) {
  for (size_t i = 0; i < sizeof(kResultRows) / sizeof(kResultRows[0]); ++i) {
    if (kResultRows[i].result == result) return &kResultRows[i];
  }
  return NULL;
}

const char* grt_vk_result_name(VkResult result, char* scratch,
                               size_t scratch_size) {
  const grt_vk_result_row_t* row = grt_vk_result_find(result);
  if (row) return row->name;
  snprintf(scratch, scratch_size, "VkResult(%d)", (int)result);
  return scratch;
}

grt_status_t grt_vk_result_status(VkResult result, const char* what) {
  if (result == VK_SUCCESS) return grt_ok_status();
  const grt_vk_result_row_t* row = grt_vk_result_find(result);
  char scratch[32];
  return grt_make_status(row ? row->code : GRT_STATUS_INTERNAL,
                         "%s failed: %s", what,
                         grt_vk_result_name(result, scratch, sizeof(scratch)));
}

static atomic_uint_fast64_t grt_vk_validation_messages;

uint64_t grt_vk_validation_message_count(void) {
  return atomic_load(&grt_vk_validation_messages);
}

// Every message of the validation layer is a bug in the driver (or in the
// layer); printing it with a fixed prefix lets test runners fail on it.
static VKAPI_ATTR VkBool32 VKAPI_CALL grt_vk_debug_callback(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data) {
  (void)severity;
  (void)types;
  (void)user_data;
  atomic_fetch_add(&grt_vk_validation_messages, 1);
  fprintf(stderr, "grt vulkan validation: %s\n",
          data && data->pMessage ? data->pMessage : "(no message)");
  return VK_FALSE;
}

static bool grt_vk_validation_requested(void) {
  const char* value = getenv("GRT_VULKAN_VALIDATION");
  return value && value[0] && strcmp(value, "0") != 0;
}

static bool grt_vk_has_layer(grt_vk_instance_t* instance, const char* name) {
  uint32_t count = 0;
  if (instance->vkEnumerateInstanceLayerProperties(&count, NULL) !=
          VK_SUCCESS ||
      count == 0) {
    return false;
  }
  VkLayerProperties* layers = NULL;
  if (!grt_status_consume_ok(grt_allocator_malloc(
          instance->host_allocator, count * sizeof(*layers), (void**)&layers))) {
    return false;
  }
  bool found = false;
  if (instance->vkEnumerateInstanceLayerProperties(&count, layers) ==
      VK_SUCCESS) {
    for (uint32_t i = 0; i < count && !found; ++i) {
      found = strcmp(layers[i].layerName, name) == 0;
    }
  }
  grt_allocator_free(instance->host_allocator, layers);
  return found;
}

// Marks the ICDs and layers the loader opened for an instance as
// never-unloaded, like the loader itself: Mesa's drivers (LLVM, threads,
// exit handlers) are not built to be unloaded, and an unloaded driver's
// still-referenced allocations would read as leaks to LeakSanitizer.
static int grt_vk_pin_library(struct dl_phdr_info* info, size_t size,
                              void* user_data) {
  (void)size;
  (void)user_data;
  const char* name = info->dlpi_name;
  if (!name || !*name) return 0;
  const char* base = strrchr(name, '/');
  base = base ? base + 1 : name;
  if (strncmp(base, "libvulkan_", 10) != 0 &&
      strncmp(base, "libVkLayer_", 11) != 0) {
    return 0;
  }
  void* handle = dlopen(name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
  if (handle) dlclose(handle);  // the NODELETE mark stays
  return 0;
}

static grt_status_t grt_vk_instance_open(grt_vk_instance_t* instance,
                                         const char* library_name) {
  // RTLD_NODELETE: the loader and ICDs (Mesa starts threads, registers
  // exit handlers) are not built to be unloaded, and keeping them mapped
  // lets leak checkers attribute their allocations to them
  // (tests/lsan_suppressions.txt).
  instance->library =
      dlopen(library_name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!instance->library) {
    const char* error = dlerror();
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "no Vulkan device found (%s)",
                           error ? error : library_name);
  }
  // POSIX lets dlsym's result be converted to a function pointer.
  *(void**)&instance->vkGetInstanceProcAddr =
      dlsym(instance->library, "vkGetInstanceProcAddr");
  if (!instance->vkGetInstanceProcAddr) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "no Vulkan device found (%s has no "
                           "vkGetInstanceProcAddr)",
                           library_name);
  }
#define GRT_VK_LOAD_GLOBAL(name)                                           \
  instance->name =                                                         \
      (PFN_##name)instance->vkGetInstanceProcAddr(VK_NULL_HANDLE, #name); \
  if (!instance->name) {                                                   \
    return grt_make_status(GRT_STATUS_UNAVAILABLE,                         \
                           "no Vulkan device found (the loader lacks %s)", \
                           #name);                                         \
  }
  GRT_VK_GLOBAL_SYMBOLS(GRT_VK_LOAD_GLOBAL)
#undef GRT_VK_LOAD_GLOBAL
  // vkEnumerateInstanceVersion is 1.1+: its absence means a 1.0 loader.
  PFN_vkEnumerateInstanceVersion enumerate_version =
      (PFN_vkEnumerateInstanceVersion)instance->vkGetInstanceProcAddr(
          VK_NULL_HANDLE, "vkEnumerateInstanceVersion");
  uint32_t version = VK_API_VERSION_1_0;
  if (enumerate_version) (void)enumerate_version(&version);
  if (version < VK_API_VERSION_1_2) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "no Vulkan device found (the loader offers Vulkan "
                           "%u.%u; timeline semaphores need 1.2)",
                           VK_API_VERSION_MAJOR(version),
                           VK_API_VERSION_MINOR(version));
  }

  const char* layers[1];
  const char* extensions[1];
  uint32_t layer_count = 0, extension_count = 0;
  if (grt_vk_validation_requested() &&
      grt_vk_has_layer(instance, "VK_LAYER_KHRONOS_validation")) {
    layers[layer_count++] = "VK_LAYER_KHRONOS_validation";
    extensions[extension_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    instance->validation = true;
  }
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "grt";
  app.pEngineName = "grt";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledLayerCount = layer_count;
  info.ppEnabledLayerNames = layers;
  info.enabledExtensionCount = extension_count;
  info.ppEnabledExtensionNames = extensions;
  VkResult result = instance->vkCreateInstance(&info, NULL, &instance->handle);
  if (result != VK_SUCCESS) {
    char scratch[32];
    instance->handle = VK_NULL_HANDLE;
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "no Vulkan device found (vkCreateInstance failed: "
                           "%s)",
                           grt_vk_result_name(result, scratch, sizeof(scratch)));
  }
  dl_iterate_phdr(grt_vk_pin_library, NULL);
#define GRT_VK_LOAD_INSTANCE(name)                                          \
  instance->name =                                                          \
      (PFN_##name)instance->vkGetInstanceProcAddr(instance->handle, #name); \
  if (!instance->name) {                                                    \
    return grt_make_status(GRT_STATUS_UNAVAILABLE,                          \
                           "no Vulkan device found (the instance lacks %s)", \
                           #name);                                          \
  }
#define GRT_VK_LOAD_INSTANCE_OPTIONAL(name) \
  instance->name =                          \
      (PFN_##name)instance->vkGetInstanceProcAddr(instance->handle, #name);
  GRT_VK_INSTANCE_SYMBOLS(GRT_VK_LOAD_INSTANCE, GRT_VK_LOAD_INSTANCE_OPTIONAL)
#undef GRT_VK_LOAD_INSTANCE
#undef GRT_VK_LOAD_INSTANCE_OPTIONAL
  if (instance->validation && instance->vkCreateDebugUtilsMessengerEXT) {
    VkDebugUtilsMessengerCreateInfoEXT messenger = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = grt_vk_debug_callback;
    GRT_VK_RETURN_IF_ERROR(
        instance->vkCreateDebugUtilsMessengerEXT(instance->handle, &messenger,
                                                 NULL, &instance->messenger),
        "vkCreateDebugUtilsMessengerEXT");
  }
  return grt_ok_status();
}

static void grt_vk_instance_destroy(grt_vk_instance_t* instance) {
  if (instance->messenger != VK_NULL_HANDLE &&
      instance->vkDestroyDebugUtilsMessengerEXT) {
    instance->vkDestroyDebugUtilsMessengerEXT(instance->handle,
                                              instance->messenger, NULL);
  }
  if (instance->handle != VK_NULL_HANDLE && instance->vkDestroyInstance) {
    instance->vkDestroyInstance(instance->handle, NULL);
  }
  if (instance->library) dlclose(instance->library);
  grt_allocator_free(instance->host_allocator, instance);
}

grt_status_t grt_vk_instance_create(const char* library_name,
                                    grt_allocator_t host_allocator,
                                    grt_vk_instance_t** out_instance) {
  *out_instance = NULL;
  grt_vk_instance_t* instance = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(host_allocator, sizeof(*instance),
                                           (void**)&instance));
  atomic_init(&instance->ref_count, 1u);
  instance->host_allocator = host_allocator;
  grt_status_t status = grt_vk_instance_open(
      instance, library_name ? library_name : GRT_VK_DEFAULT_LIBRARY);
  if (!grt_status_is_ok(status)) {
    grt_vk_instance_destroy(instance);
    return status;
  }
  *out_instance = instance;
  return grt_ok_status();
}

void grt_vk_instance_retain(grt_vk_instance_t* instance) {
  if (instance) atomic_fetch_add(&instance->ref_count, 1u);
}

void grt_vk_instance_release(grt_vk_instance_t* instance) {
  if (instance && atomic_fetch_sub(&instance->ref_count, 1u) == 1u) {
    grt_vk_instance_destroy(instance);
  }
}

grt_status_t grt_vk_device_symbols_load(const grt_vk_instance_t* instance,
                                        VkDevice device,
                                        grt_vk_device_symbols_t* out_symbols) {
  memset(out_symbols, 0, sizeof(*out_symbols));
#define GRT_VK_LOAD_DEVICE(name)                                          \
  out_symbols->name = (PFN_##name)instance->vkGetDeviceProcAddr(device, #name); \
  if (!out_symbols->name) {                                               \
    return grt_make_status(GRT_STATUS_UNAVAILABLE,                        \
                           "the Vulkan device lacks %s", #name);          \
  }
#define GRT_VK_LOAD_DEVICE_OPTIONAL(name) \
  out_symbols->name = (PFN_##name)instance->vkGetDeviceProcAddr(device, #name);
  GRT_VK_DEVICE_SYMBOLS(GRT_VK_LOAD_DEVICE, GRT_VK_LOAD_DEVICE_OPTIONAL)
#undef GRT_VK_LOAD_DEVICE
#undef GRT_VK_LOAD_DEVICE_OPTIONAL
  return grt_ok_status();
}

#include "hal/drivers/vulkan/executable.h"

#include <inttypes.h>
#include <string.h>

#include "hal/drivers/vulkan/spirv_reflect.h"
#include "schemas/spirv_container.h"

typedef struct grt_hal_vulkan_executable_cache_t {
  grt_hal_executable_cache_t base;
  grt_hal_vulkan_device_t* device;  // not retained: the device owns the cache
  VkPipelineCache pipeline_cache;
} grt_hal_vulkan_executable_cache_t;

static const grt_hal_executable_vtable_t grt_hal_vulkan_executable_vtable;
static const grt_hal_executable_cache_vtable_t
    grt_hal_vulkan_executable_cache_vtable;

static void grt_hal_vulkan_pipeline_destroy(grt_hal_vulkan_device_t* device,
                                            grt_hal_vulkan_pipeline_t* p) {
  const grt_vk_device_symbols_t* vk = &device->vk;
  if (p->pipeline) vk->vkDestroyPipeline(device->handle, p->pipeline, NULL);
  if (p->layout) vk->vkDestroyPipelineLayout(device->handle, p->layout, NULL);
  if (p->set_layout) {
    vk->vkDestroyDescriptorSetLayout(device->handle, p->set_layout, NULL);
  }
  if (p->status_layout) {
    vk->vkDestroyDescriptorSetLayout(device->handle, p->status_layout, NULL);
  }
}

static void grt_hal_vulkan_executable_destroy(grt_hal_resource_t* resource) {
  grt_hal_vulkan_executable_t* executable =
      (grt_hal_vulkan_executable_t*)resource;
  grt_hal_vulkan_device_t* device = executable->device;
  grt_allocator_t host_allocator = executable->base.host_allocator;
  if (executable->pipelines) {
    for (size_t i = 0; i < executable->base.entry_point_count; ++i) {
      grt_hal_vulkan_pipeline_destroy(device, &executable->pipelines[i]);
    }
    grt_allocator_free(host_allocator, executable->pipelines);
  }
  grt_hal_executable_deinitialize(&executable->base);
  grt_allocator_free(host_allocator, executable);
  grt_hal_vulkan_device_core_release(device);
}

grt_hal_vulkan_executable_t* grt_hal_vulkan_executable_cast(
    grt_hal_vulkan_device_t* device, grt_hal_executable_t* executable) {
  if (!executable ||
      executable->resource.vtable != &grt_hal_vulkan_executable_vtable) {
    return NULL;
  }
  grt_hal_vulkan_executable_t* vulkan =
      (grt_hal_vulkan_executable_t*)executable;
  return vulkan->device == device ? vulkan : NULL;
}

// The pipeline of one entry point from its SPIR-V module.
static grt_status_t grt_hal_vulkan_pipeline_create(
    grt_hal_vulkan_executable_cache_t* cache,
    const grt_hal_entry_point_info_t* entry, const uint32_t* words,
    size_t size, bool status_word, grt_hal_vulkan_pipeline_t* out) {
  grt_hal_vulkan_device_t* device = cache->device;
  const grt_vk_device_symbols_t* vk = &device->vk;
  enum { kMaxBindings = 32 };
  if (entry->binding_count > kMaxBindings) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "entry point '%.*s' takes %" PRIu32
                           " bindings; the Vulkan driver takes at most %d",
                           GRT_SV_ARG(entry->name), entry->binding_count,
                           kMaxBindings);
  }
  uint32_t push_bytes = entry->constant_count * 4;
  if (push_bytes > device->properties.limits.maxPushConstantsSize) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "entry point '%.*s' takes %" PRIu32
                           " constants (%" PRIu32 " bytes); device %s "
                           "allows %" PRIu32 " bytes of push constants",
                           GRT_SV_ARG(entry->name), entry->constant_count,
                           push_bytes, device->base.uri,
                           device->properties.limits.maxPushConstantsSize);
  }
  VkDescriptorSetLayoutBinding bindings[kMaxBindings];
  for (uint32_t i = 0; i < entry->binding_count; ++i) {
    VkDescriptorSetLayoutBinding binding = {
        i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
        NULL};
    bindings[i] = binding;
  }
  VkDescriptorSetLayoutCreateInfo set_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  if (device->push_descriptors) {
    set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  }
  set_info.bindingCount = entry->binding_count;
  set_info.pBindings = bindings;
  GRT_VK_RETURN_IF_ERROR(vk->vkCreateDescriptorSetLayout(
                             device->handle, &set_info, NULL, &out->set_layout),
                         "vkCreateDescriptorSetLayout");
  VkDescriptorSetLayout set_layouts[2] = {out->set_layout, VK_NULL_HANDLE};
  if (status_word) {
    VkDescriptorSetLayoutBinding binding = {
        0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo status_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    status_info.bindingCount = 1;
    status_info.pBindings = &binding;
    GRT_VK_RETURN_IF_ERROR(vk->vkCreateDescriptorSetLayout(device->handle, &status_info,
                                                           NULL, &out->status_layout),
                           "vkCreateDescriptorSetLayout");
    set_layouts[GRT_HAL_VULKAN_STATUS_SET] = out->status_layout;
  }
  VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo layout_info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = status_word ? 2 : 1;
  layout_info.pSetLayouts = set_layouts;
  layout_info.pushConstantRangeCount = push_bytes ? 1 : 0;
  layout_info.pPushConstantRanges = &push;
  GRT_VK_RETURN_IF_ERROR(vk->vkCreatePipelineLayout(device->handle,
                                                    &layout_info, NULL,
                                                    &out->layout),
                         "vkCreatePipelineLayout");
  VkShaderModuleCreateInfo module_info = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = size;
  module_info.pCode = words;
  VkShaderModule module = VK_NULL_HANDLE;
  GRT_VK_RETURN_IF_ERROR(
      vk->vkCreateShaderModule(device->handle, &module_info, NULL, &module),
      "vkCreateShaderModule");
  VkComputePipelineCreateInfo pipeline_info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = module;
  pipeline_info.stage.pName = "main";
  pipeline_info.layout = out->layout;
  VkResult result = vk->vkCreateComputePipelines(
      device->handle, cache->pipeline_cache, 1, &pipeline_info, NULL,
      &out->pipeline);
  vk->vkDestroyShaderModule(device->handle, module, NULL);
  if (result != VK_SUCCESS) out->pipeline = VK_NULL_HANDLE;
  return grt_vk_result_status(result, "vkCreateComputePipelines");
}

static grt_status_t grt_hal_vulkan_executable_create(
    grt_hal_vulkan_executable_cache_t* cache,
    const grt_hal_executable_params_t* params,
    grt_hal_executable_t** out_executable) {
  grt_hal_vulkan_device_t* device = cache->device;
  grt_allocator_t host_allocator = device->base.host_allocator;
  // The container is read in place as words; a binary handed over at an
  // unaligned address is copied first.
  const uint8_t* data = params->binary;
  uint8_t* aligned_copy = NULL;
  if ((uintptr_t)data % 4 != 0) {
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(host_allocator,
                                             params->binary_size,
                                             (void**)&aligned_copy));
    memcpy(aligned_copy, data, params->binary_size);
    data = aligned_copy;
  }
  grt_spirv_container_t container;
  grt_status_t status =
      grt_spirv_container_parse(data, params->binary_size, &container);
  if (grt_status_is_ok(status) &&
      container.entry_count != params->entry_point_count) {
    status = grt_make_status(GRT_STATUS_INCOMPATIBLE,
                             "executable vulkan-spirv: module expects %zu "
                             "entry points, binary has %" PRIu32,
                             params->entry_point_count, container.entry_count);
  }
  // What each module declares, checked against what the module file
  // expects: a shader reaching past the expected bindings or constants
  // would read outside its pipeline layout. (Declaring fewer is fine: an
  // unused binding may have been dropped.) Names cannot be checked, as
  // every module's entry point is "main".
  grt_spirv_reflection_t* reflections = NULL;
  grt_hal_entry_point_info_t* actual = NULL;
  size_t entry_count = params->entry_point_count;
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(
        host_allocator,
        (entry_count ? entry_count : 1) *
            (sizeof(*reflections) + sizeof(*actual)),
        (void**)&actual);
    reflections = (grt_spirv_reflection_t*)(actual + entry_count);
  }
  for (size_t i = 0; i < entry_count && grt_status_is_ok(status); ++i) {
    const uint32_t* words = NULL;
    size_t size = 0;
    grt_spirv_container_module(&container, (uint32_t)i, &words, &size);
    status = grt_spirv_reflect(words, size / 4, host_allocator,
                               &reflections[i]);
    if (!grt_status_is_ok(status)) {
      status = grt_status_annotate(status,
                                   "executable vulkan-spirv: entry point %zu "
                                   "'%.*s'",
                                   i, GRT_SV_ARG(params->entry_points[i].name));
      break;
    }
    // A capability whose feature the device did not enable (it lacks it)
    // would fail at pipeline creation, or worse; say which one instead.
    uint32_t missing = reflections[i].capabilities & ~device->shader_capabilities;
    if (missing) {
      uint32_t bit = missing & (0u - missing);
      status = grt_make_status(
          GRT_STATUS_INCOMPATIBLE,
          "executable vulkan-spirv: entry point %zu '%.*s' needs the Vulkan "
          "feature %s, which device %s does not have (or has disabled)",
          i, GRT_SV_ARG(params->entry_points[i].name),
          grt_spirv_capability_feature(bit), device->properties.deviceName);
      break;
    }
    actual[i] = params->entry_points[i];
    uint32_t constants = (reflections[i].push_constant_bytes + 3) / 4;
    if (reflections[i].binding_count > actual[i].binding_count) {
      actual[i].binding_count = reflections[i].binding_count;
    }
    if (constants > actual[i].constant_count) {
      actual[i].constant_count = constants;
    }
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_executable_check_entry_points(
        params->format, params->entry_points, entry_count, actual,
        entry_count);
  }
  grt_hal_vulkan_executable_t* executable = NULL;
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(host_allocator, sizeof(*executable),
                                  (void**)&executable);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_executable_initialize(&grt_hal_vulkan_executable_vtable,
                                           params, host_allocator,
                                           &executable->base);
    if (!grt_status_is_ok(status)) {
      grt_allocator_free(host_allocator, executable);
      executable = NULL;
    } else {
      executable->device = device;
      grt_hal_vulkan_device_core_retain(device);
      // The workgroup size is the shader's (when it states one).
      for (size_t i = 0; i < entry_count; ++i) {
        if (reflections[i].workgroup_size[0]) {
          memcpy(executable->base.entry_points[i].workgroup_size,
                 reflections[i].workgroup_size,
                 sizeof(reflections[i].workgroup_size));
        }
      }
    }
  }
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(
        host_allocator,
        (params->entry_point_count ? params->entry_point_count : 1) *
            sizeof(grt_hal_vulkan_pipeline_t),
        (void**)&executable->pipelines);
  }
  for (size_t i = 0; i < params->entry_point_count && grt_status_is_ok(status);
       ++i) {
    const uint32_t* words = NULL;
    size_t size = 0;
    grt_spirv_container_module(&container, (uint32_t)i, &words, &size);
    status = grt_hal_vulkan_pipeline_create(cache, &params->entry_points[i],
                                            words, size, reflections[i].status_word,
                                            &executable->pipelines[i]);
    if (!grt_status_is_ok(status)) {
      status = grt_status_annotate(status, "entry point %zu '%.*s'", i,
                                   GRT_SV_ARG(params->entry_points[i].name));
    }
  }
  grt_allocator_free(host_allocator, aligned_copy);
  grt_allocator_free(host_allocator, actual);
  if (!grt_status_is_ok(status)) {
    if (executable) grt_hal_executable_release(&executable->base);
    return status;
  }
  *out_executable = &executable->base;
  return grt_ok_status();
}

static const grt_hal_executable_vtable_t grt_hal_vulkan_executable_vtable = {
    {grt_hal_vulkan_executable_destroy},
};

//===----------------------------------------------------------------------===//
// Cache
//===----------------------------------------------------------------------===//

static void grt_hal_vulkan_executable_cache_destroy(
    grt_hal_resource_t* resource) {
  grt_hal_vulkan_executable_cache_t* cache =
      (grt_hal_vulkan_executable_cache_t*)resource;
  grt_hal_vulkan_device_t* device = cache->device;
  if (cache->pipeline_cache) {
    device->vk.vkDestroyPipelineCache(device->handle, cache->pipeline_cache,
                                      NULL);
  }
  grt_allocator_free(device->base.host_allocator, cache);
}

grt_status_t grt_hal_vulkan_executable_cache_create(
    grt_hal_vulkan_device_t* device, grt_hal_executable_cache_t** out) {
  *out = NULL;
  grt_hal_vulkan_executable_cache_t* cache = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(device->base.host_allocator,
                                           sizeof(*cache), (void**)&cache));
  grt_hal_resource_initialize(&grt_hal_vulkan_executable_cache_vtable,
                              &cache->base.resource);
  cache->device = device;
  VkPipelineCacheCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  grt_status_t status = grt_vk_result_status(
      device->vk.vkCreatePipelineCache(device->handle, &info, NULL,
                                       &cache->pipeline_cache),
      "vkCreatePipelineCache");
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(device->base.host_allocator, cache);
    return status;
  }
  *out = &cache->base;
  return grt_ok_status();
}

static bool grt_hal_vulkan_executable_cache_can_prepare_format(
    grt_hal_executable_cache_t* cache, grt_string_view_t format) {
  (void)cache;
  return grt_string_view_equal_cstring(format,
                                       GRT_HAL_VULKAN_EXECUTABLE_FORMAT);
}

static grt_status_t grt_hal_vulkan_executable_cache_prepare(
    grt_hal_executable_cache_t* base,
    const grt_hal_executable_params_t* params,
    grt_hal_executable_t** out_executable) {
  // hal/executable.c already refused other formats.
  *out_executable = NULL;
  return grt_hal_vulkan_executable_create(
      (grt_hal_vulkan_executable_cache_t*)base, params, out_executable);
}

static const grt_hal_executable_cache_vtable_t
    grt_hal_vulkan_executable_cache_vtable = {
        {grt_hal_vulkan_executable_cache_destroy},
        grt_hal_vulkan_executable_cache_can_prepare_format,
        grt_hal_vulkan_executable_cache_prepare,
};

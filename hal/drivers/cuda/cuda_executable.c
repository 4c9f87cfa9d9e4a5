// CUDA executables and their cache (cuda_device.h): "cuda-ptx" modules
// checked without the driver (ptx.h), JIT-compiled with
// cuModuleLoadDataEx with the JIT's error log put into the error, one
// CUfunction per entry point.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hal/drivers/cuda/cuda_device.h"
#include "hal/drivers/cuda/ptx.h"
#include "hal/executable.h"

#define GRT_HAL_CUDA_PTX_FORMAT "cuda-ptx"
#define GRT_HAL_CUDA_JIT_LOG_SIZE 8192

typedef struct grt_hal_cuda_executable_t {
  grt_hal_executable_t base;
  grt_hal_cuda_context_t* context;  // retained
  CUmodule module;
  CUfunction* functions;  // one per entry point, in the module's order
} grt_hal_cuda_executable_t;

static const grt_hal_executable_vtable_t grt_hal_cuda_executable_vtable;

bool grt_hal_cuda_executable_isa(const grt_hal_executable_t* executable) {
  return executable->resource.vtable == &grt_hal_cuda_executable_vtable;
}

CUfunction grt_hal_cuda_executable_function(
    const grt_hal_executable_t* executable, uint32_t entry_point) {
  return ((const grt_hal_cuda_executable_t*)executable)->functions[entry_point];
}

static void grt_hal_cuda_executable_destroy(grt_hal_resource_t* resource) {
  grt_hal_cuda_executable_t* executable = (grt_hal_cuda_executable_t*)resource;
  grt_allocator_t host_allocator = executable->base.host_allocator;
  if (executable->module &&
      grt_status_consume_ok(
          grt_hal_cuda_context_make_current(executable->context))) {
    executable->context->symbols->cuModuleUnload(executable->module);
  }
  grt_hal_cuda_context_release(executable->context);
  grt_allocator_free(host_allocator, executable->functions);
  grt_hal_executable_deinitialize(&executable->base);
  grt_allocator_free(host_allocator, executable);
}

static const grt_hal_executable_vtable_t grt_hal_cuda_executable_vtable = {
    {grt_hal_cuda_executable_destroy},
};

// JIT-compiles |text| (NUL-terminated) with the driver's logs captured.
static grt_status_t grt_hal_cuda_load_module(grt_hal_cuda_context_t* context,
                                             const char* text,
                                             CUmodule* out_module) {
  char error_log[GRT_HAL_CUDA_JIT_LOG_SIZE];
  char info_log[GRT_HAL_CUDA_JIT_LOG_SIZE];
  error_log[0] = info_log[0] = '\0';
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log, (void*)(uintptr_t)sizeof(error_log), info_log,
                    (void*)(uintptr_t)sizeof(info_log)};
  CUresult result = context->symbols->cuModuleLoadDataEx(
      out_module, text, (unsigned)(sizeof(options) / sizeof(options[0])),
      options, values);
  if (result == CUDA_SUCCESS) return grt_ok_status();
  *out_module = NULL;
  error_log[sizeof(error_log) - 1] = '\0';
  grt_status_t status = grt_hal_cuda_result_status(context->symbols, result,
                                                   "cuModuleLoadDataEx");
  return grt_status_annotate(status, "PTX JIT log: %s",
                             error_log[0] ? error_log : "(empty)");
}

static grt_status_t grt_hal_cuda_executable_create(
    grt_hal_cuda_context_t* context, const grt_hal_executable_params_t* params,
    grt_hal_executable_t** out) {
  *out = NULL;
  size_t text_length = 0;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_ptx_validate(
      params->binary, params->binary_size, params->entry_points,
      params->entry_point_count, &text_length));
  grt_allocator_t host_allocator = context->host_allocator;
  grt_hal_cuda_executable_t* executable = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(host_allocator, sizeof(*executable),
                                           (void**)&executable));
  grt_status_t status = grt_hal_executable_initialize(
      &grt_hal_cuda_executable_vtable, params, host_allocator,
      &executable->base);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(host_allocator, executable);
    return status;
  }
  executable->context = context;
  grt_hal_cuda_context_retain(context);
  // The driver reads PTX up to a NUL the module need not carry.
  char* text = NULL;
  status = grt_allocator_malloc(host_allocator, text_length + 1, (void**)&text);
  if (grt_status_is_ok(status)) {
    memcpy(text, params->binary, text_length);
    text[text_length] = '\0';
    status = grt_allocator_calloc(
        host_allocator,
        (params->entry_point_count ? params->entry_point_count : 1) *
            sizeof(CUfunction),
        (void**)&executable->functions);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_context_make_current(context);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_cuda_load_module(context, text, &executable->module);
  }
  grt_allocator_free(host_allocator, text);
  for (size_t i = 0; i < params->entry_point_count && grt_status_is_ok(status);
       ++i) {
    char name[256];
    const grt_hal_entry_point_info_t* entry = &params->entry_points[i];
    snprintf(name, sizeof(name), "%.*s", (int)entry->name.size,
             entry->name.data);
    status = GRT_CUDA_STATUS(
        context->symbols, cuModuleGetFunction,
        (&executable->functions[i], executable->module, name));
    if (!grt_status_is_ok(status)) {
      status = grt_status_annotate(status, "entry point %zu '%s'", i, name);
    }
  }
  if (!grt_status_is_ok(status)) {
    grt_hal_executable_release(&executable->base);
    return grt_status_annotate(status, "executable " GRT_HAL_CUDA_PTX_FORMAT);
  }
  *out = &executable->base;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Cache
//===----------------------------------------------------------------------===//

typedef struct grt_hal_cuda_executable_cache_t {
  grt_hal_executable_cache_t base;
  grt_hal_cuda_context_t* context;  // retained
  pthread_mutex_t mutex;
  size_t count;
  size_t capacity;
  grt_hal_executable_t** executables;  // retained, found by digest
} grt_hal_cuda_executable_cache_t;

static bool grt_hal_cuda_executable_cache_can_prepare_format(
    grt_hal_executable_cache_t* cache, grt_string_view_t format) {
  (void)cache;
  return grt_string_view_equal_cstring(format, GRT_HAL_CUDA_PTX_FORMAT);
}

// A cached executable serves a request for the same binary (digest) with
// the same entry point names in the same order (functions[i] follows it).
static grt_hal_executable_t* grt_hal_cuda_executable_cache_find(
    grt_hal_cuda_executable_cache_t* cache,
    const grt_hal_executable_params_t* params) {
  if (!params->digest) return NULL;
  for (size_t i = 0; i < cache->count; ++i) {
    grt_hal_executable_t* executable = cache->executables[i];
    if (memcmp(executable->digest, params->digest,
               GRT_HAL_EXECUTABLE_DIGEST_SIZE) != 0 ||
        executable->entry_point_count != params->entry_point_count) {
      continue;
    }
    bool same = true;
    for (size_t j = 0; j < params->entry_point_count && same; ++j) {
      const grt_hal_entry_point_info_t* a = &executable->entry_points[j];
      const grt_hal_entry_point_info_t* b = &params->entry_points[j];
      same = grt_hal_entry_point_info_equal(a, b);
    }
    if (same) return executable;
  }
  return NULL;
}

static grt_status_t grt_hal_cuda_executable_cache_prepare_locked(
    grt_hal_cuda_executable_cache_t* cache,
    const grt_hal_executable_params_t* params, grt_hal_executable_t** out) {
  if (!grt_hal_cuda_executable_cache_can_prepare_format(&cache->base,
                                                        params->format)) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "device cannot run executable format '%.*s' (it "
                           "runs '" GRT_HAL_CUDA_PTX_FORMAT "')",
                           (int)params->format.size, params->format.data);
  }
  grt_hal_executable_t* cached =
      grt_hal_cuda_executable_cache_find(cache, params);
  if (cached) {
    grt_hal_executable_retain(cached);
    *out = cached;
    return grt_ok_status();
  }
  if (cache->count == cache->capacity) {
    size_t capacity = cache->capacity ? 2 * cache->capacity : 4;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        cache->context->host_allocator,
        cache->capacity * sizeof(*cache->executables),
        capacity * sizeof(*cache->executables), (void**)&cache->executables));
    cache->capacity = capacity;
  }
  grt_hal_executable_t* executable = NULL;
  GRT_RETURN_IF_ERROR(
      grt_hal_cuda_executable_create(cache->context, params, &executable));
  cache->executables[cache->count++] = executable;
  grt_hal_executable_retain(executable);  // one for the cache, one returned
  *out = executable;
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_executable_cache_prepare(
    grt_hal_executable_cache_t* base, const grt_hal_executable_params_t* params,
    grt_hal_executable_t** out) {
  grt_hal_cuda_executable_cache_t* cache =
      (grt_hal_cuda_executable_cache_t*)base;
  *out = NULL;
  pthread_mutex_lock(&cache->mutex);
  grt_status_t status =
      grt_hal_cuda_executable_cache_prepare_locked(cache, params, out);
  pthread_mutex_unlock(&cache->mutex);
  return status;
}

static void grt_hal_cuda_executable_cache_destroy(grt_hal_resource_t* resource) {
  grt_hal_cuda_executable_cache_t* cache =
      (grt_hal_cuda_executable_cache_t*)resource;
  grt_allocator_t host_allocator = cache->context->host_allocator;
  for (size_t i = 0; i < cache->count; ++i) {
    grt_hal_executable_release(cache->executables[i]);
  }
  grt_allocator_free(host_allocator, cache->executables);
  grt_hal_cuda_context_release(cache->context);
  pthread_mutex_destroy(&cache->mutex);
  grt_allocator_free(host_allocator, cache);
}

static const grt_hal_executable_cache_vtable_t
    grt_hal_cuda_executable_cache_vtable = {
        {grt_hal_cuda_executable_cache_destroy},
        grt_hal_cuda_executable_cache_can_prepare_format,
        grt_hal_cuda_executable_cache_prepare,
};

grt_status_t grt_hal_cuda_executable_cache_create(
    grt_hal_cuda_context_t* context, grt_hal_executable_cache_t** out) {
  *out = NULL;
  grt_hal_cuda_executable_cache_t* cache = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(context->host_allocator,
                                           sizeof(*cache), (void**)&cache));
  grt_hal_resource_initialize(&grt_hal_cuda_executable_cache_vtable,
                              &cache->base.resource);
  cache->context = context;
  grt_hal_cuda_context_retain(context);
  pthread_mutex_init(&cache->mutex, NULL);
  *out = &cache->base;
  return grt_ok_status();
}

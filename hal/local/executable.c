#include "hal/local/executable.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal/local/elf_host.h"

// GRT_HAL_LOCAL_ELF_LOADER (CMake GRT_ENABLE_ELF_LOADER, default 1): 0
// leaves grt's ELF loader and the perf map out, and only cpu-static
// executables (kernel libraries linked into the program) run.
#ifndef GRT_HAL_LOCAL_ELF_LOADER
#define GRT_HAL_LOCAL_ELF_LOADER 1
#endif
#if GRT_HAL_LOCAL_ELF_LOADER
#include "hal/local/elf_loader.h"
#include "hal/local/perf_map.h"
#endif

// GRT_HAL_LOCAL_DLOPEN_LOADER (CMake GRT_ENABLE_DLOPEN_LOADER, default 1):
// 1 also builds the system's dynamic loader path (memfd + dlopen), which
// GRT_KERNEL_LOADER=dlopen selects for perf and gdb; 0 leaves no dlopen or
// memfd code, and cpu-<arch> executables load with grt's own ELF loader
// (elf_loader.h) only.
#ifndef GRT_HAL_LOCAL_DLOPEN_LOADER
#define GRT_HAL_LOCAL_DLOPEN_LOADER 1
#endif
#if GRT_HAL_LOCAL_DLOPEN_LOADER
#include "hal/local/library_loader.h"
#endif

#define GRT_HAL_LOCAL_STATIC_FORMAT "cpu-static"

const char* grt_hal_local_host_executable_format(void) {
  return "cpu-" GRT_HOST_ARCH;
}

// Whether cpu-<arch> kernel objects load here: with a loader built in, the
// dlopen loader for any known machine, grt's own where it relocates.
#define GRT_HAL_LOCAL_LOADS_OBJECTS                                  \
  (GRT_HAL_LOCAL_DLOPEN_LOADER ? GRT_HOST_ELF_MACHINE != 0           \
                               : GRT_HAL_LOCAL_ELF_LOADER &&         \
                                     GRT_ELF_RELOCATES_HOST)

//===----------------------------------------------------------------------===//
// Statically linked kernel libraries
//===----------------------------------------------------------------------===//

// Process-wide, like the code it describes. The array is never freed: it
// lives as long as the process, reachable from here.
static pthread_mutex_t grt_hal_local_static_mutex = PTHREAD_MUTEX_INITIALIZER;
static const grt_kernel_library_t** grt_hal_local_static_libraries;
static size_t grt_hal_local_static_count;
static size_t grt_hal_local_static_capacity;

grt_status_t grt_hal_local_register_static_library(
    const grt_kernel_library_t* library) {
  if (!library || !library->name || !library->name[0]) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "a static kernel library needs a name to be "
                           "registered under, got %s",
                           library ? "an empty name" : "no library");
  }
  grt_status_t status = grt_ok_status();
  pthread_mutex_lock(&grt_hal_local_static_mutex);
  for (size_t i = 0; i < grt_hal_local_static_count; ++i) {
    if (grt_hal_local_static_libraries[i] == library) {
      // The same library again (an application calling a c-static
      // NAME_register twice): already there.
      pthread_mutex_unlock(&grt_hal_local_static_mutex);
      return grt_ok_status();
    }
    if (strcmp(grt_hal_local_static_libraries[i]->name, library->name) == 0) {
      status = grt_make_status(GRT_STATUS_ALREADY_EXISTS,
                               "a static kernel library named '%s' is "
                               "already registered",
                               library->name);
      break;
    }
  }
  if (grt_status_is_ok(status) &&
      grt_hal_local_static_count == grt_hal_local_static_capacity) {
    size_t new_capacity =
        grt_hal_local_static_capacity ? 2 * grt_hal_local_static_capacity : 8;
    void* libraries = (void*)grt_hal_local_static_libraries;
    status = grt_allocator_realloc(
        grt_allocator_system(),
        grt_hal_local_static_capacity * sizeof(*grt_hal_local_static_libraries),
        new_capacity * sizeof(*grt_hal_local_static_libraries), &libraries);
    if (grt_status_is_ok(status)) {
      grt_hal_local_static_libraries = (const grt_kernel_library_t**)libraries;
      grt_hal_local_static_capacity = new_capacity;
    }
  }
  if (grt_status_is_ok(status)) {
    grt_hal_local_static_libraries[grt_hal_local_static_count++] = library;
  }
  pthread_mutex_unlock(&grt_hal_local_static_mutex);
  return status;
}

static grt_status_t grt_hal_local_find_static_library(
    const char* label, grt_string_view_t name,
    const grt_kernel_library_t** out_library) {
  *out_library = NULL;
  pthread_mutex_lock(&grt_hal_local_static_mutex);
  for (size_t i = 0; i < grt_hal_local_static_count; ++i) {
    if (grt_string_view_equal_cstring(name,
                                      grt_hal_local_static_libraries[i]->name)) {
      *out_library = grt_hal_local_static_libraries[i];
      break;
    }
  }
  char registered[512];
  registered[0] = '\0';
  if (!*out_library) {
    size_t length = 0;
    for (size_t i = 0;
         i < grt_hal_local_static_count && length < sizeof(registered); ++i) {
      int n = snprintf(registered + length, sizeof(registered) - length,
                       "%s'%s'", i ? ", " : "",
                       grt_hal_local_static_libraries[i]->name);
      if (n < 0) break;
      length += (size_t)n;
    }
  }
  pthread_mutex_unlock(&grt_hal_local_static_mutex);
  if (*out_library) return grt_ok_status();
  return grt_make_status(GRT_STATUS_NOT_FOUND,
                         "%s: no static kernel library named '%.*s' is "
                         "registered (registered: %s)",
                         label, (int)name.size, name.data,
                         registered[0] ? registered : "none");
}

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

static void grt_hal_local_executable_destroy(grt_hal_resource_t* resource) {
  grt_hal_local_executable_t* executable =
      (grt_hal_local_executable_t*)resource;
  grt_allocator_t host_allocator = executable->base.host_allocator;
  void* library_handle = executable->library_handle;
  void (*library_unload)(void*) = executable->library_unload;
  grt_hal_executable_deinitialize(&executable->base);
  grt_allocator_free(host_allocator, executable);
  // Last: the kernel table the executable pointed into lives in the library.
  if (library_handle) library_unload(library_handle);
}

static const grt_hal_executable_vtable_t grt_hal_local_executable_vtable = {
    .base = {.destroy = grt_hal_local_executable_destroy},
};

// What the dispatch path relies on without checking again: every entry has
// a name, a function and a workgroup size of at least 1x1x1, and names are
// unique so lookups by name are unambiguous.
static grt_status_t grt_hal_local_check_library(
    const char* label, const grt_kernel_library_t* library) {
  if (library->abi_version != GRT_KERNEL_ABI_VERSION) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "%s: kernel library is built for ABI version %" PRIu32
                           ", this runtime needs version %u",
                           label, library->abi_version, GRT_KERNEL_ABI_VERSION);
  }
  if (library->entry_count > 0 && !library->entries) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "%s: kernel library declares %" PRIu32
                           " entries but has no entry table",
                           label, library->entry_count);
  }
  for (uint32_t i = 0; i < library->entry_count; ++i) {
    const grt_kernel_entry_t* entry = &library->entries[i];
    if (!entry->name || !entry->name[0]) {
      return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                             "%s: kernel library entry %" PRIu32
                             " has no name",
                             label, i);
    }
    if (!entry->fn) {
      return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                             "%s: kernel library entry %" PRIu32
                             " '%s' has no function",
                             label, i, entry->name);
    }
    if (entry->workgroup_size[0] == 0 || entry->workgroup_size[1] == 0 ||
        entry->workgroup_size[2] == 0) {
      return grt_make_status(
          GRT_STATUS_INCOMPATIBLE,
          "%s: kernel library entry %" PRIu32 " '%s' has workgroup size %" PRIu32
          "x%" PRIu32 "x%" PRIu32 "; every dimension must be at least 1",
          label, i, entry->name, entry->workgroup_size[0],
          entry->workgroup_size[1], entry->workgroup_size[2]);
    }
    for (uint32_t j = 0; j < i; ++j) {
      if (strcmp(library->entries[j].name, entry->name) == 0) {
        return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                               "%s: kernel library has two entries named "
                               "'%s' (%" PRIu32 " and %" PRIu32 ")",
                               label, entry->name, j, i);
      }
    }
  }
  return grt_ok_status();
}

static grt_status_t grt_hal_local_check_entry_points(
    const grt_hal_executable_params_t* params,
    const grt_kernel_library_t* library, grt_allocator_t host_allocator) {
  grt_hal_entry_point_info_t* actual = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      host_allocator, (library->entry_count ? library->entry_count : 1) *
                          sizeof(*actual),
      (void**)&actual));
  for (uint32_t i = 0; i < library->entry_count; ++i) {
    const grt_kernel_entry_t* entry = &library->entries[i];
    actual[i].name = grt_make_cstring_view(entry->name);
    actual[i].binding_count = entry->binding_count;
    actual[i].constant_count = entry->constant_count;
    memcpy(actual[i].workgroup_size, entry->workgroup_size,
           sizeof(actual[i].workgroup_size));
  }
  grt_status_t status = grt_hal_executable_check_entry_points(
      params->format, params->entry_points, params->entry_point_count, actual,
      library->entry_count);
  grt_allocator_free(host_allocator, actual);
  return status;
}

// Builds the executable over |library| (kept alive by |library_handle|,
// which the executable takes over on success and releases with
// |library_unload|).
static grt_status_t grt_hal_local_executable_create(
    const char* label, const grt_hal_executable_params_t* params,
    const grt_kernel_library_t* library, void* library_handle,
    void (*library_unload)(void*), grt_allocator_t host_allocator,
    grt_hal_executable_t** out_executable) {
  *out_executable = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_local_check_library(label, library));
  GRT_RETURN_IF_ERROR(grt_hal_local_check_entry_points(params, library, host_allocator));
  // One block: the kernel table follows the struct (whose alignment is at
  // least a pointer's).
  grt_hal_local_executable_t* executable = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      host_allocator,
      sizeof(*executable) +
          params->entry_point_count * sizeof(*executable->kernels),
      (void**)&executable));
  executable->kernels = (const grt_kernel_entry_t**)(executable + 1);
  for (size_t i = 0; i < params->entry_point_count; ++i) {
    grt_string_view_t name = params->entry_points[i].name;
    for (uint32_t j = 0; j < library->entry_count; ++j) {
      if (grt_string_view_equal_cstring(name, library->entries[j].name)) {
        executable->kernels[i] = &library->entries[j];
        break;
      }
    }
    if (!executable->kernels[i]) {
      // The check above matched names already; this guards an
      // implementation of it that one day stops doing so.
      grt_allocator_free(host_allocator, executable);
      return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                             "%s: binary has no entry point '%.*s'", label,
                             (int)name.size, name.data);
    }
    if (executable->kernels[i]->local_memory_size >
        executable->max_local_memory_size) {
      executable->max_local_memory_size =
          executable->kernels[i]->local_memory_size;
    }
  }
  grt_status_t status = grt_hal_executable_initialize(
      &grt_hal_local_executable_vtable, params, host_allocator,
      &executable->base);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(host_allocator, executable);
    return status;
  }
  executable->library_handle = library_handle;
  executable->library_unload = library_unload;
  *out_executable = &executable->base;
  return grt_ok_status();
}

#if GRT_HAL_LOCAL_ELF_LOADER
// With GRT_PERF_MAP=1, names the library's kernels for perf (perf_map.h);
// |base| is what the loader added to the object's file addresses.
static grt_status_t grt_hal_local_executable_write_perf_map(
    const char* label, const grt_hal_executable_params_t* params,
    const grt_kernel_library_t* library, uintptr_t base) {
  bool requested = false;
  GRT_RETURN_IF_ERROR_ANNOTATED(grt_hal_local_perf_map_requested(&requested),
                                "%s", label);
  if (!requested) return grt_ok_status();
  char path[64];
  grt_hal_local_perf_map_default_path(path, sizeof(path));
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_local_perf_map_append(path, library, params->binary,
                                    params->binary_size, base),
      "%s: GRT_PERF_MAP=1", label);
  return grt_ok_status();
}

// Which loader loads cpu-<arch> objects: GRT_KERNEL_LOADER=grt (grt's own,
// the default where it relocates for the host) or dlopen (the system's,
// for perf and gdb; only with GRT_ENABLE_DLOPEN_LOADER).
static grt_status_t grt_hal_local_kernel_loader_is_dlopen(const char* label,
                                                          bool* out_dlopen) {
  const char* value = getenv("GRT_KERNEL_LOADER");
  if (!value || !value[0]) {
    *out_dlopen = GRT_HAL_LOCAL_DLOPEN_LOADER && !GRT_ELF_RELOCATES_HOST;
    return grt_ok_status();
  }
  if (strcmp(value, "grt") == 0) {
    *out_dlopen = false;
    return grt_ok_status();
  }
  if (strcmp(value, "dlopen") == 0) {
    if (!GRT_HAL_LOCAL_DLOPEN_LOADER) {
      return grt_make_status(GRT_STATUS_UNAVAILABLE,
                             "%s: GRT_KERNEL_LOADER=dlopen, but this runtime "
                             "is built without the dlopen loader "
                             "(GRT_ENABLE_DLOPEN_LOADER=OFF)",
                             label);
    }
    *out_dlopen = true;
    return grt_ok_status();
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "%s: GRT_KERNEL_LOADER='%.64s': expected 'grt' "
                         "(grt's own ELF loader, the default) or 'dlopen' "
                         "(the system's dynamic loader, for perf and gdb)",
                         label, value);
}

// Calls the kernel object's query function at |symbol|.
static grt_status_t grt_hal_local_query_library(
    const char* label, void* symbol, const grt_kernel_library_t** out_library) {
  // ISO C has no object-to-function pointer conversion; POSIX guarantees
  // the representation is the same.
  grt_kernel_library_query_fn_t query = NULL;
  memcpy(&query, &symbol, sizeof(query));
  *out_library = query(GRT_KERNEL_ABI_VERSION);
  if (!*out_library) {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "%s: kernel library does not support ABI version %u",
                           label, GRT_KERNEL_ABI_VERSION);
  }
  return grt_ok_status();
}

#if GRT_HAL_LOCAL_DLOPEN_LOADER
static grt_status_t grt_hal_local_executable_dlopen(
    const char* label, const grt_hal_executable_params_t* params,
    grt_allocator_t host_allocator, grt_hal_executable_t** out_executable) {
  GRT_RETURN_IF_ERROR(grt_hal_local_elf_check_header(label, params->binary,
                                                     params->binary_size));
  void* handle = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_local_library_load(
      params->binary, params->binary_size, GRT_HAL_LOCAL_LIBRARY_LOAD_DEFAULT,
      label, &handle));
  void* symbol = NULL;
  grt_status_t status = grt_hal_local_library_lookup(
      handle, GRT_KERNEL_LIBRARY_QUERY_SYMBOL, label, &symbol);
  const grt_kernel_library_t* library = NULL;
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_query_library(label, symbol, &library);
  }
  uintptr_t base = 0;
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_library_load_base(handle, label, &base);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_executable_write_perf_map(label, params, library,
                                                     base);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_executable_create(
        label, params, library, handle, grt_hal_local_library_unload,
        host_allocator, out_executable);
  }
  if (!grt_status_is_ok(status)) grt_hal_local_library_unload(handle);
  return status;
}
#endif  // GRT_HAL_LOCAL_DLOPEN_LOADER

static uintptr_t grt_hal_local_kernel_address(grt_kernel_fn_t fn) {
  void* pointer = NULL;
  memcpy(&pointer, &fn, sizeof(pointer));
  return (uintptr_t)pointer;
}

// The kernel table a query function returned lies inside its object: the
// table, the entries and their names in its readable pages, every function
// in its code.
static grt_status_t grt_hal_local_check_image_table(
    const char* label, const grt_hal_local_elf_image_t* image,
    const grt_kernel_library_t* library) {
  bool inside = grt_hal_local_elf_contains_data(image, (uintptr_t)library,
                                                sizeof(*library));
  size_t entries_size =
      inside ? (size_t)library->entry_count * sizeof(*library->entries) : 0;
  if (!inside ||
      (library->entry_count > 0 &&
       (entries_size / sizeof(*library->entries) != library->entry_count ||
        !grt_hal_local_elf_contains_data(image, (uintptr_t)library->entries,
                                         entries_size)))) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: kernel library's table lies outside its "
                           "kernel object",
                           label);
  }
  for (uint32_t i = 0; i < library->entry_count; ++i) {
    const grt_kernel_entry_t* entry = &library->entries[i];
    if (entry->name && !grt_hal_local_elf_contains_string(image, entry->name)) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: kernel library entry %" PRIu32 "'s name "
                             "lies outside its kernel object",
                             label, i);
    }
    if (entry->fn && !grt_hal_local_elf_contains_code(
                         image, grt_hal_local_kernel_address(entry->fn), 1)) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: kernel library entry %" PRIu32 " '%s' has "
                             "a function outside its kernel object's code",
                             label, i, entry->name ? entry->name : "");
    }
  }
  return grt_ok_status();
}

static void grt_hal_local_elf_unload_handle(void* handle) {
  grt_hal_local_elf_unload((grt_hal_local_elf_image_t*)handle);
}

static grt_status_t grt_hal_local_executable_load_elf(
    const char* label, const grt_hal_executable_params_t* params,
    grt_allocator_t host_allocator, grt_hal_executable_t** out_executable) {
  grt_hal_local_elf_image_t* image = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_local_elf_load(params->binary,
                                             params->binary_size, label,
                                             host_allocator, &image));
  void* symbol = NULL;
  grt_status_t status = grt_hal_local_elf_lookup(
      image, GRT_KERNEL_LIBRARY_QUERY_SYMBOL, label, &symbol);
  if (grt_status_is_ok(status) &&
      !grt_hal_local_elf_contains_code(image, (uintptr_t)symbol, 1)) {
    status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s: kernel object's '%s' is not in its code",
                             label, GRT_KERNEL_LIBRARY_QUERY_SYMBOL);
  }
  const grt_kernel_library_t* library = NULL;
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_query_library(label, symbol, &library);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_check_image_table(label, image, library);
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_executable_write_perf_map(
        label, params, library, grt_hal_local_elf_load_base(image));
  }
  if (grt_status_is_ok(status)) {
    status = grt_hal_local_executable_create(
        label, params, library, image, grt_hal_local_elf_unload_handle,
        host_allocator, out_executable);
  }
  if (!grt_status_is_ok(status)) grt_hal_local_elf_unload(image);
  return status;
}

static grt_status_t grt_hal_local_executable_load_shared_object(
    const char* label, const grt_hal_executable_params_t* params,
    grt_allocator_t host_allocator, grt_hal_executable_t** out_executable) {
  bool use_dlopen = false;
  GRT_RETURN_IF_ERROR(grt_hal_local_kernel_loader_is_dlopen(label, &use_dlopen));
#if GRT_HAL_LOCAL_DLOPEN_LOADER
  if (use_dlopen) {
    return grt_hal_local_executable_dlopen(label, params, host_allocator,
                                           out_executable);
  }
#endif
  return grt_hal_local_executable_load_elf(label, params, host_allocator,
                                           out_executable);
}

#endif  // GRT_HAL_LOCAL_ELF_LOADER

//===----------------------------------------------------------------------===//
// The executable cache
//===----------------------------------------------------------------------===//

typedef struct grt_hal_local_executable_cache_t {
  grt_hal_executable_cache_t base;
  grt_allocator_t host_allocator;
  // Held across a whole prepare: preparing is rare (module load) and two
  // threads loading the same module should share one dlopen.
  pthread_mutex_t mutex;
  grt_hal_executable_t** executables;  // retained
  size_t count;
  size_t capacity;
} grt_hal_local_executable_cache_t;

static bool grt_hal_local_format_is_static(grt_string_view_t format) {
  return grt_string_view_equal_cstring(format, GRT_HAL_LOCAL_STATIC_FORMAT);
}

static bool grt_hal_local_executable_cache_can_prepare_format(
    grt_hal_executable_cache_t* cache, grt_string_view_t format) {
  (void)cache;
  return grt_hal_local_format_is_static(format) ||
         (GRT_HAL_LOCAL_LOADS_OBJECTS &&
          grt_string_view_equal_cstring(
              format, grt_hal_local_host_executable_format()));
}

static bool grt_hal_local_entry_points_equal(
    const grt_hal_entry_point_info_t* a, const grt_hal_entry_point_info_t* b,
    size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (!grt_hal_entry_point_info_equal(&a[i], &b[i])) return false;
  }
  return true;
}

// A cached executable serves a request only when it is the same binary in
// the same format and the module wants the same entry points in the same
// order (kernels[i] is in the first module's order).
static grt_hal_executable_t* grt_hal_local_executable_cache_find(
    grt_hal_local_executable_cache_t* cache,
    const grt_hal_executable_params_t* params) {
  // Only reachable without a digest when the vtable is called directly;
  // such an executable is never shared.
  if (!params->digest) return NULL;
  bool is_static = grt_hal_local_format_is_static(params->format);
  for (size_t i = 0; i < cache->count; ++i) {
    grt_hal_executable_t* executable = cache->executables[i];
    bool executable_is_static =
        grt_hal_local_executable_cast(executable)->library_handle == NULL;
    if (executable_is_static == is_static &&
        memcmp(executable->digest, params->digest,
               GRT_HAL_EXECUTABLE_DIGEST_SIZE) == 0 &&
        executable->entry_point_count == params->entry_point_count &&
        grt_hal_local_entry_points_equal(executable->entry_points,
                                         params->entry_points,
                                         params->entry_point_count)) {
      return executable;
    }
  }
  return NULL;
}

static grt_status_t grt_hal_local_executable_cache_prepare_locked(
    grt_hal_local_executable_cache_t* cache,
    const grt_hal_executable_params_t* params,
    grt_hal_executable_t** out_executable) {
  grt_hal_executable_t* cached =
      grt_hal_local_executable_cache_find(cache, params);
  if (cached) {
    grt_hal_executable_retain(cached);
    *out_executable = cached;
    return grt_ok_status();
  }
  char label[96];
  snprintf(label, sizeof(label), "executable %.*s", (int)params->format.size,
           params->format.data);
  if (cache->count == cache->capacity) {
    size_t new_capacity = cache->capacity ? 2 * cache->capacity : 4;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        cache->host_allocator, cache->capacity * sizeof(*cache->executables),
        new_capacity * sizeof(*cache->executables),
        (void**)&cache->executables));
    cache->capacity = new_capacity;
  }
  grt_hal_executable_t* executable = NULL;
  if (grt_hal_local_format_is_static(params->format)) {
    const grt_kernel_library_t* library = NULL;
    GRT_RETURN_IF_ERROR(grt_hal_local_find_static_library(
        label,
        grt_make_string_view((const char*)params->binary, params->binary_size),
        &library));
    GRT_RETURN_IF_ERROR(grt_hal_local_executable_create(
        label, params, library, NULL, NULL, cache->host_allocator,
        &executable));
#if GRT_HAL_LOCAL_ELF_LOADER
  } else if (grt_hal_local_executable_cache_can_prepare_format(
                 &cache->base, params->format)) {
    GRT_RETURN_IF_ERROR(grt_hal_local_executable_load_shared_object(
        label, params, cache->host_allocator, &executable));
#endif
  } else if (GRT_HOST_ELF_MACHINE != 0 &&
             grt_string_view_equal_cstring(
                 params->format, grt_hal_local_host_executable_format())) {
    return grt_make_status(
        GRT_STATUS_UNAVAILABLE,
        "%s: %s: it runs only '" GRT_HAL_LOCAL_STATIC_FORMAT "' executables "
        "(grt-compile --output-format=c-static)",
        label,
        GRT_HAL_LOCAL_ELF_LOADER
            ? "grt's ELF loader does not relocate for this host and the "
              "runtime is built without the dlopen loader "
              "(GRT_ENABLE_DLOPEN_LOADER=OFF)"
            : "the runtime is built without kernel object loaders "
              "(GRT_ENABLE_ELF_LOADER=OFF)");
  } else {
    return grt_make_status(GRT_STATUS_INCOMPATIBLE,
                           "device cannot run executable format '%.*s' (it "
                           "runs %s'" GRT_HAL_LOCAL_STATIC_FORMAT "')",
                           (int)params->format.size, params->format.data,
                           GRT_HAL_LOCAL_ELF_LOADER
                               ? "'cpu-" GRT_HOST_ARCH "' and "
                               : "only ");
  }
  cache->executables[cache->count++] = executable;
  grt_hal_executable_retain(executable);  // one for the cache, one returned
  *out_executable = executable;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_executable_cache_prepare(
    grt_hal_executable_cache_t* base_cache,
    const grt_hal_executable_params_t* params,
    grt_hal_executable_t** out_executable) {
  grt_hal_local_executable_cache_t* cache =
      (grt_hal_local_executable_cache_t*)base_cache;
  *out_executable = NULL;
  pthread_mutex_lock(&cache->mutex);
  grt_status_t status =
      grt_hal_local_executable_cache_prepare_locked(cache, params, out_executable);
  pthread_mutex_unlock(&cache->mutex);
  return status;
}

static void grt_hal_local_executable_cache_destroy(grt_hal_resource_t* resource) {
  grt_hal_local_executable_cache_t* cache =
      (grt_hal_local_executable_cache_t*)resource;
  for (size_t i = 0; i < cache->count; ++i) {
    grt_hal_executable_release(cache->executables[i]);
  }
  grt_allocator_free(cache->host_allocator, cache->executables);
  pthread_mutex_destroy(&cache->mutex);
  grt_allocator_free(cache->host_allocator, cache);
}

static const grt_hal_executable_cache_vtable_t
    grt_hal_local_executable_cache_vtable = {
        .base = {.destroy = grt_hal_local_executable_cache_destroy},
        .can_prepare_format = grt_hal_local_executable_cache_can_prepare_format,
        .prepare_executable = grt_hal_local_executable_cache_prepare,
};

grt_status_t grt_hal_local_executable_cache_create(
    grt_allocator_t host_allocator, grt_hal_executable_cache_t** out_cache) {
  *out_cache = NULL;
  grt_hal_local_executable_cache_t* cache = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(host_allocator, sizeof(*cache), (void**)&cache));
  if (pthread_mutex_init(&cache->mutex, NULL) != 0) {
    grt_allocator_free(host_allocator, cache);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "cannot create the executable cache's mutex");
  }
  grt_hal_resource_initialize(&grt_hal_local_executable_cache_vtable,
                              &cache->base.resource);
  cache->host_allocator = host_allocator;
  *out_cache = &cache->base;
  return grt_ok_status();
}

// The suite's kernel format table (kernels.h). The CPU rows carry the
// kernels of cts_kernels.c: "cpu-static" as the copy linked into this
// binary and registered by name, "cpu-<arch>" as the shared object CMake
// builds from the same file (its path is compiled in). The "vulkan-spirv"
// row packs the SPIR-V modules CMake compiles from testdata/
// cts_kernels.comp (one per kernel, in GRT_HAL_CTS_SPIRV_DIR) into the
// container of schemas/spirv_container.h.
#include "tests/hal_cts/kernels.h"

#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "hal/local/executable.h"
#include "hal/local/kernel_abi.h"
#include "schemas/spirv_container.h"

#ifndef GRT_HAL_CTS_KERNELS_SO_PATH
#error "GRT_HAL_CTS_KERNELS_SO_PATH must name the cts_kernels shared object"
#endif

// The statically linked copy of cts_kernels.c (renamed at build time).
const grt_kernel_library_t* grt_hal_cts_static_kernel_library_query(
    uint32_t abi_version);

#define GRT_HAL_CTS_ENTRY(name, bindings, constants) \
  {{name, sizeof(name) - 1}, bindings, constants, {64, 1, 1}, NULL, NULL}

// What every format provides (cts_kernels.c, testdata/cts_kernels.comp),
// in grt_hal_cts_kernel_t order.
static const grt_hal_entry_point_info_t kEntryPoints[] = {
    GRT_HAL_CTS_ENTRY("fill_index_u32", 1, 1),
    GRT_HAL_CTS_ENTRY("add_f32", 3, 0),
    GRT_HAL_CTS_ENTRY("scale_f32", 2, 1),
    GRT_HAL_CTS_ENTRY("accumulate", 1, 0),
    GRT_HAL_CTS_ENTRY("fail", 0, 0),
    GRT_HAL_CTS_ENTRY("noop", 0, 0),
};
_Static_assert(sizeof(kEntryPoints) / sizeof(kEntryPoints[0]) ==
                   GRT_HAL_CTS_KERNEL_COUNT,
               "one entry point per grt_hal_cts_kernel_t");

static grt_status_t copy_binary(const void* data, size_t size,
                                grt_allocator_t allocator,
                                grt_hal_cts_binary_t* out_binary) {
  void* copy = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(allocator, size, &copy));
  memcpy(copy, data, size);
  out_binary->data = (uint8_t*)copy;
  out_binary->size = size;
  out_binary->allocator = allocator;
  return grt_ok_status();
}

static const char* cpu_static_format(void) { return "cpu-static"; }

static grt_status_t cpu_static_load(grt_allocator_t allocator,
                                    grt_hal_cts_binary_t* out_binary) {
  const grt_kernel_library_t* library =
      grt_hal_cts_static_kernel_library_query(GRT_KERNEL_ABI_VERSION);
  if (!library) {
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "the linked cts kernels do not serve ABI version %u",
                           GRT_KERNEL_ABI_VERSION);
  }
  // Registration is process-wide and a row may be loaded more than once
  // (the executable cache tests reload it), so finding the library already
  // registered is expected.
  grt_status_t status = grt_hal_local_register_static_library(library);
  if (grt_status_code(status) == GRT_STATUS_ALREADY_EXISTS) {
    grt_status_free(status);
    status = grt_ok_status();
  }
  GRT_RETURN_IF_ERROR(status);
  return copy_binary(library->name, strlen(library->name), allocator,
                     out_binary);
}

static const char* cpu_host_format(void) {
  return grt_hal_local_host_executable_format();
}

static grt_status_t cpu_read_file(const char* path, grt_allocator_t allocator,
                                  grt_hal_cts_binary_t* out_binary) {
  grt_file_contents_t contents;
  GRT_RETURN_IF_ERROR(grt_file_read_contents(path, allocator, &contents));
  grt_status_t status =
      copy_binary(contents.data, contents.size, allocator, out_binary);
  grt_file_contents_free(&contents);
  return status;
}

static grt_status_t cpu_host_load(grt_allocator_t allocator,
                                  grt_hal_cts_binary_t* out_binary) {
  return cpu_read_file(GRT_HAL_CTS_KERNELS_SO_PATH, allocator, out_binary);
}

#ifdef GRT_HAL_CTS_SPIRV_DIR
static const char* vulkan_spirv_format(void) { return "vulkan-spirv"; }

// The SPIR-V files, in grt_hal_cts_kernel_t order.
static const char* const kSpirvFiles[] = {
    "fill_index_u32.spv", "add_f32.spv", "scale_f32.spv",
    "accumulate.spv",     "fail.spv",    "noop.spv",
};
_Static_assert(sizeof(kSpirvFiles) / sizeof(kSpirvFiles[0]) ==
                   GRT_HAL_CTS_KERNEL_COUNT,
               "one SPIR-V module per grt_hal_cts_kernel_t");

static grt_status_t vulkan_spirv_load(grt_allocator_t allocator,
                                      grt_hal_cts_binary_t* out_binary) {
  grt_file_contents_t contents[GRT_HAL_CTS_KERNEL_COUNT];
  grt_spirv_module_t modules[GRT_HAL_CTS_KERNEL_COUNT];
  size_t loaded = 0;  // files read so far
  grt_status_t status = grt_ok_status();
  while (loaded < GRT_HAL_CTS_KERNEL_COUNT) {
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", GRT_HAL_CTS_SPIRV_DIR,
             kSpirvFiles[loaded]);
    status = grt_file_read_contents(path, allocator, &contents[loaded]);
    if (!grt_status_is_ok(status)) break;
    // Read copies come from the allocator, so they are word aligned.
    modules[loaded].words = (const uint32_t*)contents[loaded].data;
    modules[loaded].word_count = contents[loaded].size / 4;
    ++loaded;
  }
  if (grt_status_is_ok(status)) {
    out_binary->allocator = allocator;
    status = grt_spirv_container_write(modules, GRT_HAL_CTS_KERNEL_COUNT,
                                       allocator, &out_binary->data,
                                       &out_binary->size);
  }
  for (size_t i = 0; i < loaded; ++i) grt_file_contents_free(&contents[i]);
  return status;
}
#endif  // GRT_HAL_CTS_SPIRV_DIR

const grt_hal_cts_kernel_format_t grt_hal_cts_kernel_formats[] = {
    {cpu_host_format, cpu_host_load, kEntryPoints},
    {cpu_static_format, cpu_static_load, kEntryPoints},
#ifdef GRT_HAL_CTS_SPIRV_DIR
    {vulkan_spirv_format, vulkan_spirv_load, kEntryPoints},
#endif
};
const size_t grt_hal_cts_kernel_format_count =
    sizeof(grt_hal_cts_kernel_formats) / sizeof(grt_hal_cts_kernel_formats[0]);

void grt_hal_cts_binary_free(grt_hal_cts_binary_t* binary) {
  if (binary->data) grt_allocator_free(binary->allocator, binary->data);
  binary->data = NULL;
  binary->size = 0;
}

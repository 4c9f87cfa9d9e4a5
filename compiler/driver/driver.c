#include "compiler/driver/driver.h"

#include <string.h>

#include "base/file.h"
#include "compiler/mlir/parser.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/vm_syntax.h"

#include "compiler/dispatch/dispatch.h"
#include "compiler/host/host.h"
#include "compiler/kernel/printer.h"
#include "compiler/onnx/import.h"
#include "compiler/stablehlo/import.h"
#include "compiler/tensor/passes.h"
#include "compiler/target/vulkan/vulkan_target.h"

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

// X(ENUM, name): the targets --target may name.
#define GRTC_DRIVER_TARGET_LIST(X) \
  X(CPU, "cpu")                    \
  X(VULKAN, "vulkan")              \
  X(CUDA, "cuda")

typedef enum grtc_driver_target_e {
#define GRTC_DRIVER_TARGET_ENUM(name, spelling) GRTC_DRIVER_TARGET_##name,
  GRTC_DRIVER_TARGET_LIST(GRTC_DRIVER_TARGET_ENUM)
#undef GRTC_DRIVER_TARGET_ENUM
  GRTC_DRIVER_TARGET_COUNT
} grtc_driver_target_t;

static const struct {
  const char* name;
} grtc_driver_targets[] = {
#define GRTC_DRIVER_TARGET_ROW(name, spelling) {spelling},
    GRTC_DRIVER_TARGET_LIST(GRTC_DRIVER_TARGET_ROW)
#undef GRTC_DRIVER_TARGET_ROW
};

static const char* const grtc_driver_dump_names[] = {
    "",
#define GRTC_DRIVER_DUMP_NAME(name, spelling, what) spelling,
    GRTC_DUMP_PASS_LIST(GRTC_DRIVER_DUMP_NAME)
#undef GRTC_DRIVER_DUMP_NAME
};
#define GRTC_DRIVER_DUMP_COUNT \
  (sizeof(grtc_driver_dump_names) / sizeof(grtc_driver_dump_names[0]))

#define GRTC_DRIVER_TARGETS_EXPECTED "cpu, vulkan, cuda"

// Options resolved once: targets as a set, the level as a number.
// The most machines --cpu-target may name (one CPU executable each).
#define GRTC_DRIVER_MAX_CPU_TARGETS 4
#define GRTC_DRIVER_MAX_EXECUTABLES (GRTC_DRIVER_TARGET_COUNT - 1 + GRTC_DRIVER_MAX_CPU_TARGETS)

typedef struct grtc_driver_t {
  const grtc_compile_options_t* options;
  grt_allocator_t allocator;
  bool targets[GRTC_DRIVER_TARGET_COUNT];
  // The CPU machines, "host" or a triple, in the order given.
  char cpu_targets[GRTC_DRIVER_MAX_CPU_TARGETS][64];
  uint32_t cpu_target_count;
  int level;  // 0..3
  grtc_dump_pass_t dump;
  FILE* dump_file;
} grtc_driver_t;

static grt_status_t grtc_driver_parse_targets(const char* text,
                                              bool targets[GRTC_DRIVER_TARGET_COUNT]) {
  memset(targets, 0, sizeof(bool) * GRTC_DRIVER_TARGET_COUNT);
  if (!text || !*text) {
    targets[GRTC_DRIVER_TARGET_CPU] = true;
    return grt_ok_status();
  }
  grt_string_view_t rest = grt_make_cstring_view(text);
  while (true) {
    grt_string_view_t item, after;
    bool more = grt_string_view_split(rest, ',', &item, &after);
    size_t t = 0;
    while (t < GRTC_DRIVER_TARGET_COUNT &&
           !grt_string_view_equal_cstring(item, grtc_driver_targets[t].name)) {
      ++t;
    }
    if (t == GRTC_DRIVER_TARGET_COUNT) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "unknown target '%.*s' in '%s'; expected a comma-separated "
                             "list of " GRTC_DRIVER_TARGETS_EXPECTED,
                             (int)item.size, item.data, text);
    }
    if (targets[t]) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "target '%s' is named twice in '%s'",
                             grtc_driver_targets[t].name, text);
    }
    if (t == GRTC_DRIVER_TARGET_VULKAN && !grtc_vulkan_available()) {
      return grt_make_status(GRT_STATUS_UNAVAILABLE,
                             "vulkan target needs libshaderc (not found at build time)");
    }
    targets[t] = true;
    if (!more) break;
    rest = after;
  }
  return grt_ok_status();
}

// --cpu-target: a comma-separated list of "host" or GNU triples (letters,
// digits, '_', '.', '-'), each named once.
static grt_status_t grtc_driver_parse_cpu_targets(const grtc_compile_options_t* options,
                                                  grtc_driver_t* out) {
  const char* text = options->cpu_targets;
  out->cpu_target_count = 0;
  if (!text || !*text) {
    snprintf(out->cpu_targets[0], sizeof(out->cpu_targets[0]), "host");
    out->cpu_target_count = 1;
    return grt_ok_status();
  }
  const char* p = text;
  for (;;) {
    const char* end = strchr(p, ',');
    size_t length = end ? (size_t)(end - p) : strlen(p);
    bool valid = length > 0 && length < sizeof(out->cpu_targets[0]);
    for (size_t i = 0; valid && i < length; ++i) {
      char c = p[i];
      valid = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-';
    }
    if (!valid) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "bad CPU target '%.*s' in '%s': expected 'host' or a GNU triple "
                             "such as aarch64-linux-gnu (letters, digits, '_', '.', '-'), "
                             "comma-separated",
                             (int)length, p, text);
    }
    for (uint32_t t = 0; t < out->cpu_target_count; ++t) {
      if (strlen(out->cpu_targets[t]) == length && memcmp(out->cpu_targets[t], p, length) == 0) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "CPU target '%.*s' is named twice in '%s'", (int)length, p, text);
      }
    }
    if (out->cpu_target_count == GRTC_DRIVER_MAX_CPU_TARGETS) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "'%s' names more than %d CPU targets", text,
                             GRTC_DRIVER_MAX_CPU_TARGETS);
    }
    snprintf(out->cpu_targets[out->cpu_target_count++], sizeof(out->cpu_targets[0]), "%.*s",
             (int)length, p);
    if (!end) break;
    p = end + 1;
  }
  if (out->cpu_target_count > 1 && options->cpu.cc && *options->cpu.cc) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "--cpu-cc names one C compiler ('%s') but --cpu-target names %u "
                           "machines ('%s'); leave --cpu-cc out so that each builds with "
                           "TRIPLE-gcc",
                           options->cpu.cc, out->cpu_target_count, text);
  }
  if (out->cpu_target_count > 1 && options->output_format == GRTC_OUTPUT_FORMAT_C_STATIC) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "output format c-static builds the kernels for one machine, but "
                           "--cpu-target names %u ('%s')",
                           out->cpu_target_count, text);
  }
  if (!out->targets[GRTC_DRIVER_TARGET_CPU]) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "--cpu-target '%s' is given but cpu is not among the targets",
                           text);
  }
  return grt_ok_status();
}

static bool grtc_driver_is_identifier(const char* text) {
  if (!text || !*text || (*text >= '0' && *text <= '9')) return false;
  for (const char* c = text; *c; ++c) {
    bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '_';
    if (!ok) return false;
  }
  return true;
}

static grt_status_t grtc_driver_init(const grtc_compile_options_t* options,
                                     grt_allocator_t allocator, grtc_driver_t* out) {
  static const grtc_compile_options_t defaults = {0};
  if (!options) options = &defaults;
  memset(out, 0, sizeof(*out));
  out->options = options;
  out->allocator = allocator;
  GRT_RETURN_IF_ERROR(grtc_driver_parse_targets(options->targets, out->targets));
  GRT_RETURN_IF_ERROR(grtc_driver_parse_cpu_targets(options, out));
  if (options->cuda.arch) {
    uint32_t cc = 0;
    GRT_RETURN_IF_ERROR(grtc_cuda_parse_arch(options->cuda.arch, &cc));
  }
  if ((unsigned)options->output_format > GRTC_OUTPUT_FORMAT_C_STATIC) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "output format %d is not one of vmfb (%d) and c-static (%d)",
                           (int)options->output_format, GRTC_OUTPUT_FORMAT_VMFB,
                           GRTC_OUTPUT_FORMAT_C_STATIC);
  }
  if (options->output_format == GRTC_OUTPUT_FORMAT_C_STATIC) {
    for (size_t t = 0; t < GRTC_DRIVER_TARGET_COUNT; ++t) {
      if (out->targets[t] && t != GRTC_DRIVER_TARGET_CPU) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "output format c-static holds CPU kernels only; got "
                               "target '%s'",
                               grtc_driver_targets[t].name);
      }
    }
    if (options->c_static_name && !grtc_driver_is_identifier(options->c_static_name)) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "c-static name '%s' is not a C identifier",
                             options->c_static_name);
    }
  }
  if ((unsigned)options->opt_level > GRTC_OPT_O3) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "optimization level %d is out of range: expected "
                           "GRTC_OPT_DEFAULT or GRTC_OPT_O0..GRTC_OPT_O3",
                           (int)options->opt_level);
  }
  out->level = options->opt_level == GRTC_OPT_DEFAULT ? 2 : (int)options->opt_level - 1;
  if (options->dump_after && *options->dump_after) {
    size_t d = 1;
    while (d < GRTC_DRIVER_DUMP_COUNT &&
           strcmp(options->dump_after, grtc_driver_dump_names[d]) != 0) {
      ++d;
    }
    if (d == GRTC_DRIVER_DUMP_COUNT) {
      // "a, b, c" from the pass table.
      char expected[256] = "";
      size_t used = 0;
      for (size_t i = 1; i < GRTC_DRIVER_DUMP_COUNT && used < sizeof(expected); ++i) {
        used += (size_t)snprintf(expected + used, sizeof(expected) - used, "%s%s",
                                 i > 1 ? ", " : "", grtc_driver_dump_names[i]);
      }
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "unknown pass '%s' to dump after; expected one of %s",
                             options->dump_after, expected);
    }
    out->dump = (grtc_dump_pass_t)d;
  }
  out->dump_file = options->dump_file ? options->dump_file : stdout;
  return grt_ok_status();
}

const char* grtc_compiler_version(void) { return GRT_VERSION; }

grt_status_t grtc_compile_options_validate(const grtc_compile_options_t* options) {
  grtc_driver_t driver;
  return grtc_driver_init(options, grt_allocator_system(), &driver);
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

// The vm dialect's pretty forms plus the StableHLO front-end's, so one
// parse serves both kinds of input.
typedef struct grtc_driver_parse_options_t {
  grtc_parse_options_t options;
  const grtc_dialect_syntax_t* dialects[16];
} grtc_driver_parse_options_t;

static grt_status_t grtc_driver_make_parse_options(grtc_driver_parse_options_t* out) {
  size_t count = 0;
  out->dialects[count++] = &grtc_vm_dialect_syntax;
  const grtc_parse_options_t* stablehlo = grtc_stablehlo_parse_options();
  size_t capacity = sizeof(out->dialects) / sizeof(out->dialects[0]);
  if (stablehlo->dialect_count > capacity - count) {
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "the StableHLO front-end registers %zu dialects; the driver "
                           "has room for %zu",
                           stablehlo->dialect_count, capacity - count);
  }
  for (size_t i = 0; i < stablehlo->dialect_count; ++i) {
    out->dialects[count++] = stablehlo->dialects[i];
  }
  out->options.dialects = out->dialects;
  out->options.dialect_count = count;
  return grt_ok_status();
}

// The C name of a c-static output into |out|: the option, else
// |module_name| with every character outside [A-Za-z0-9_] made '_' (and a
// leading '_' before a digit).
static grt_status_t grtc_driver_name_c_static(const grtc_driver_t* driver,
                                              grt_string_view_t module_name,
                                              grt_string_builder_t* out) {
  grt_string_builder_clear(out);
  if (driver->options->c_static_name) {
    grt_string_builder_append_cstring(out, driver->options->c_static_name);
    return grt_string_builder_status(out);
  }
  if (module_name.size == 0 || (module_name.data[0] >= '0' && module_name.data[0] <= '9')) {
    grt_string_builder_append_cstring(out, "_");
  }
  for (size_t i = 0; i < module_name.size; ++i) {
    char c = module_name.data[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    grt_string_builder_append(out, grt_make_string_view(ok ? &c : "_", 1));
  }
  return grt_string_builder_status(out);
}

//===----------------------------------------------------------------------===//
// The StableHLO pipeline
//===----------------------------------------------------------------------===//


static void grtc_driver_dump_text(const grtc_driver_t* driver, grt_string_view_t text) {
  fwrite(text.data, 1, text.size, driver->dump_file);
  if (text.size && text.data[text.size - 1] != '\n') fputc('\n', driver->dump_file);
  fflush(driver->dump_file);
}

// How one target tiles the kernels: per kernel, its tile and workgroup
// count (grtc_kernel_t's fields; the instructions are the same for every
// target).
typedef struct grtc_pipeline_tile_t {
  int64_t tile[GRTC_KERNEL_MAX_RANK];
  uint32_t workgroup_count;
} grtc_pipeline_tile_t;

// Everything one compilation of a tensor module holds, freed by
// grtc_pipeline_deinit.
typedef struct grtc_pipeline_t {
  grtc_driver_t* driver;
  grtc_tmodule_t* module;
  grtc_kernel_set_t kernels;
  bool kernels_initialized;
  // Per kernel, in the kernel set's arena: formation's tiles (the CPU's,
  // which the kernels hold between builds) and, with a CUDA target, the
  // GPU's (grtc_dispatch_choose_gpu_tile) with their workgroup counts.
  grtc_pipeline_tile_t* cpu_tiles;
  grtc_pipeline_tile_t* gpu_tiles;
  uint32_t* gpu_workgroup_counts;
  grt_string_builder_t text;  // dumps
  grtc_host_executable_t executables[GRTC_DRIVER_MAX_EXECUTABLES];
  uint8_t* binaries[GRTC_DRIVER_MAX_EXECUTABLES];  // owned, from the allocator
  uint32_t executable_count;
  char formats[GRTC_DRIVER_MAX_EXECUTABLES][32];
} grtc_pipeline_t;

static void grtc_pipeline_deinit(grtc_pipeline_t* p) {
  for (uint32_t i = 0; i < GRTC_DRIVER_MAX_EXECUTABLES; ++i) {
    grt_allocator_free(p->driver->allocator, p->binaries[i]);
  }
  grt_string_builder_deinit(&p->text);
  if (p->kernels_initialized) grtc_kernel_set_deinit(&p->kernels);
  if (p->module) grtc_tmodule_destroy(p->module);
}

static grt_status_t grtc_pipeline_dump_tensor(grtc_pipeline_t* p, grtc_dump_pass_t pass) {
  if (p->driver->dump != pass) return grt_ok_status();
  grt_string_builder_clear(&p->text);
  grtc_tensor_print(p->module, &p->text);
  GRT_RETURN_IF_ERROR(grt_string_builder_status(&p->text));
  grtc_driver_dump_text(p->driver, grt_string_builder_view(&p->text));
  return grt_ok_status();
}

static void grtc_pipeline_save_tiles(grtc_pipeline_t* p, grtc_pipeline_tile_t* tiles) {
  for (uint32_t i = 0; i < p->kernels.count; ++i) {
    const grtc_kernel_t* kernel = p->kernels.kernels[i];
    memcpy(tiles[i].tile, kernel->tile, sizeof(kernel->tile));
    tiles[i].workgroup_count = kernel->workgroup_count;
  }
}

static void grtc_pipeline_apply_tiles(grtc_pipeline_t* p, const grtc_pipeline_tile_t* tiles) {
  for (uint32_t i = 0; i < p->kernels.count; ++i) {
    grtc_kernel_t* kernel = p->kernels.kernels[i];
    memcpy(kernel->tile, tiles[i].tile, sizeof(kernel->tile));
    kernel->workgroup_count = tiles[i].workgroup_count;
  }
}

// Each target gets its own tiles of the one formed kernel set: the CPU and
// Vulkan executables keep formation's, and with a CUDA target the GPU's are
// chosen here, so asking for more targets never changes the CPU kernels.
// The kernels are left holding the CPU's tiles.
static grt_status_t grtc_pipeline_plan_tiles(grtc_pipeline_t* p) {
  if (!p->driver->targets[GRTC_DRIVER_TARGET_CUDA] || p->kernels.count == 0) {
    return grt_ok_status();
  }
  uint32_t n = p->kernels.count;
  p->cpu_tiles = grt_arena_alloc_zeroed(&p->kernels.arena, n * sizeof(*p->cpu_tiles));
  p->gpu_tiles = grt_arena_alloc_zeroed(&p->kernels.arena, n * sizeof(*p->gpu_tiles));
  p->gpu_workgroup_counts =
      grt_arena_alloc_zeroed(&p->kernels.arena, n * sizeof(*p->gpu_workgroup_counts));
  if (!p->cpu_tiles || !p->gpu_tiles || !p->gpu_workgroup_counts) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory for the tiles of %u kernels", n);
  }
  grtc_pipeline_save_tiles(p, p->cpu_tiles);
  grt_status_t status = grt_ok_status();
  for (uint32_t i = 0; i < n && grt_status_is_ok(status); ++i) {
    status = grtc_dispatch_choose_gpu_tile(p->kernels.kernels[i]);
  }
  grtc_pipeline_save_tiles(p, p->gpu_tiles);
  grtc_pipeline_apply_tiles(p, p->cpu_tiles);
  GRT_RETURN_IF_ERROR(status);
  for (uint32_t i = 0; i < n; ++i) {
    p->gpu_workgroup_counts[i] = p->gpu_tiles[i].workgroup_count;
  }
  return grt_ok_status();
}

// --dump-after=kernels: the kernels with the CPU's tiles, then, with a CUDA
// target, the tiles its executable uses, one line per kernel:
//   // cuda: kernel @main_dispatch_0 tile[128x128] wg=12
static grt_status_t grtc_pipeline_dump_kernels(grtc_pipeline_t* p) {
  if (p->driver->dump != GRTC_DUMP_KERNELS) return grt_ok_status();
  grt_string_builder_clear(&p->text);
  for (uint32_t i = 0; i < p->kernels.count; ++i) {
    grtc_kernel_print(p->kernels.kernels[i], &p->text);
  }
  if (p->gpu_tiles) {
    grtc_pipeline_apply_tiles(p, p->gpu_tiles);
    for (uint32_t i = 0; i < p->kernels.count; ++i) {
      const grtc_kernel_t* kernel = p->kernels.kernels[i];
      grt_string_builder_appendf(&p->text, "// cuda: kernel @%.*s", GRT_SV_ARG(kernel->name));
      grtc_kernel_print_tiling(kernel, &p->text);
      grt_string_builder_append_cstring(&p->text, "\n");
    }
    grtc_pipeline_apply_tiles(p, p->cpu_tiles);
  }
  GRT_RETURN_IF_ERROR(grt_string_builder_status(&p->text));
  grtc_driver_dump_text(p->driver, grt_string_builder_view(&p->text));
  return grt_ok_status();
}

// The CPU executable: a shared object built from the kernels, or for
// c-static the kernels' C appended to |c_static_out| and an executable that
// names the static library they register.
static grt_status_t grtc_pipeline_build_cpu(grtc_pipeline_t* p, const char* c_static_name,
                                            grt_string_builder_t* c_static_out) {
  const grtc_driver_t* driver = p->driver;
  uint32_t slot = p->executable_count;
  grtc_host_executable_t* executable = &p->executables[slot];
  if (c_static_out) {
    size_t start = c_static_out->size;
    GRT_RETURN_IF_ERROR(grtc_cpu_emit_c(&p->kernels, c_static_name, c_static_out));
    if (driver->dump == GRTC_DUMP_CPU) {
      grtc_driver_dump_text(driver, grt_make_string_view(c_static_out->data + start,
                                                         c_static_out->size - start));
    }
    snprintf(p->formats[slot], sizeof(p->formats[slot]), "cpu-static");
    executable->format = p->formats[slot];
    executable->data = (const uint8_t*)c_static_name;
    executable->size = strlen(c_static_name);
  } else {
    if (driver->dump == GRTC_DUMP_CPU) {
      grt_string_builder_clear(&p->text);
      GRT_RETURN_IF_ERROR(grtc_cpu_emit_c(&p->kernels, NULL, &p->text));
      grtc_driver_dump_text(driver, grt_string_builder_view(&p->text));
    }
    // One executable per --cpu-target machine, in the order given.
    for (uint32_t t = 0; t < driver->cpu_target_count; ++t) {
      slot = p->executable_count;
      executable = &p->executables[slot];
      const char* machine = driver->cpu_targets[t];
      bool host = strcmp(machine, "host") == 0;
      grtc_cpu_options_t cpu = driver->options->cpu;
      cpu.optimization_level = driver->level;
      char cc[96];
      if (!host && !(cpu.cc && *cpu.cc)) {
        snprintf(cc, sizeof(cc), "%s-gcc", machine);
        cpu.cc = cc;
      }
      if (!host && !(cpu.features && *cpu.features)) cpu.features = "generic";
      size_t size = 0;
      grt_status_t status = grtc_cpu_build(&p->kernels, &cpu, driver->allocator,
                                           &p->binaries[slot], &size, p->formats[slot]);
      if (!grt_status_is_ok(status)) {
        return grt_status_annotate(status, "building the CPU kernels for '%s'", machine);
      }
      // The CPU executables are the first ones built: slot e is machine e.
      for (uint32_t e = 0; e < t; ++e) {
        if (strcmp(p->formats[e], p->formats[slot]) == 0) {
          return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                 "CPU targets '%s' and '%s' both build %s; a module holds one "
                                 "executable per format",
                                 driver->cpu_targets[e], machine, p->formats[slot]);
        }
      }
      executable->format = p->formats[slot];
      executable->data = p->binaries[slot];
      executable->size = size;
      ++p->executable_count;
    }
    return grt_ok_status();
  }
  ++p->executable_count;
  return grt_ok_status();
}

// The Vulkan executable: one validated SPIR-V module per kernel in the
// vulkan-spirv container, each entry point recording the shader's
// workgroup size.
static grt_status_t grtc_pipeline_build_vulkan(grtc_pipeline_t* p) {
  uint32_t slot = p->executable_count;
  uint32_t* sizes =
      grt_arena_alloc_zeroed(&p->kernels.arena, p->kernels.count * sizeof(uint32_t));
  if (!sizes) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory for %u Vulkan workgroup sizes", p->kernels.count);
  }
  for (uint32_t k = 0; k < p->kernels.count; ++k) {
    sizes[k] = grtc_vulkan_workgroup_size(p->kernels.kernels[k]);
  }
  size_t size = 0;
  bool dump = p->driver->dump == GRTC_DUMP_VULKAN;
  if (dump) grt_string_builder_clear(&p->text);
  grt_status_t status = grtc_vulkan_build(&p->kernels, p->driver->allocator,
                                          dump ? &p->text : NULL, &p->binaries[slot], &size);
  // The shaders emitted so far are printed even when one fails to compile.
  if (dump) grtc_driver_dump_text(p->driver, grt_string_builder_view(&p->text));
  GRT_RETURN_IF_ERROR(status);
  snprintf(p->formats[slot], sizeof(p->formats[slot]), "%s", GRTC_VULKAN_FORMAT);
  p->executables[slot] =
      (grtc_host_executable_t){p->formats[slot], p->binaries[slot], size, sizes, NULL};
  ++p->executable_count;
  return grt_ok_status();
}

// The CUDA executable: every kernel in one PTX text module (no NUL: the
// runtime takes the length from the module), each entry point recording
// its block size.
static grt_status_t grtc_pipeline_build_cuda(grtc_pipeline_t* p) {
  uint32_t slot = p->executable_count;
  uint32_t* block_sizes =
      grt_arena_alloc_zeroed(&p->kernels.arena, p->kernels.count * sizeof(uint32_t));
  if (!block_sizes) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory for %u CUDA block sizes", p->kernels.count);
  }
  char* ptx = NULL;
  size_t size = 0;
  // Built with the GPU's tiles (grtc_pipeline_plan_tiles), then the kernels
  // go back to the CPU's.
  grtc_pipeline_apply_tiles(p, p->gpu_tiles);
  grt_status_t status = grtc_cuda_build(&p->kernels, &p->driver->options->cuda,
                                        p->driver->allocator, &ptx, &size, block_sizes);
  grtc_pipeline_apply_tiles(p, p->cpu_tiles);
  GRT_RETURN_IF_ERROR(status);
  p->binaries[slot] = (uint8_t*)ptx;
  snprintf(p->formats[slot], sizeof(p->formats[slot]), "cuda-ptx");
  p->executables[slot] = (grtc_host_executable_t){
      p->formats[slot], p->binaries[slot], size, block_sizes, p->gpu_workgroup_counts};
  ++p->executable_count;
  return grt_ok_status();
}

static grt_status_t grtc_pipeline_run(grtc_pipeline_t* p, const grtc_module_t* parsed,
                                      grt_module_writer_t* writer,
                                      grt_string_builder_t* c_static_out,
                                      grt_string_builder_t* c_static_name) {
  grtc_driver_t* driver = p->driver;
  if (!p->module) {
    GRT_RETURN_IF_ERROR(grtc_stablehlo_import(parsed, driver->allocator, &p->module));
  }
  GRT_RETURN_IF_ERROR(grtc_tensor_verify(p->module));
  GRT_RETURN_IF_ERROR(grtc_pipeline_dump_tensor(p, GRTC_DUMP_IMPORT));
  if (driver->level > 0) {
    GRT_RETURN_IF_ERROR(grtc_tensor_fold(p->module));
    GRT_RETURN_IF_ERROR(grtc_tensor_verify(p->module));
  } else {
    // No folding, but shapes the program proves static still become so.
    GRT_RETURN_IF_ERROR(grtc_tensor_fold_shapes(p->module));
    GRT_RETURN_IF_ERROR(grtc_tensor_verify(p->module));
  }
  GRT_RETURN_IF_ERROR(grtc_pipeline_dump_tensor(p, GRTC_DUMP_FOLD));
  GRT_RETURN_IF_ERROR(grtc_tensor_prepare_symbolic(p->module));

  grtc_kernel_set_init(driver->allocator, &p->kernels);
  p->kernels_initialized = true;
  // Formed once, tiled for the CPU (the CPU's kernels are the same
  // whatever other targets are asked for); a GPU target gets its own tiles
  // of the same kernels.
  grtc_dispatch_options_t dispatch_options = {driver->level, 0, false};
  // Row kernels only where every target runs them as rows (the CPU); the
  // same for int4 weights in their matmul's kernel (packed by
  // grtc_cpu_prepack_module below).
  dispatch_options.row_patterns = true;
  for (uint32_t t = 0; t < GRTC_DRIVER_TARGET_COUNT; ++t) {
    if (t != GRTC_DRIVER_TARGET_CPU && driver->targets[t]) {
      dispatch_options.row_patterns = false;
    }
  }
  GRT_RETURN_IF_ERROR(grtc_dispatch_form(p->module, &dispatch_options, &p->kernels));
  GRT_RETURN_IF_ERROR(grtc_pipeline_plan_tiles(p));
  GRT_RETURN_IF_ERROR(grtc_pipeline_dump_tensor(p, GRTC_DUMP_DISPATCH));
  for (uint32_t i = 0; i < p->kernels.count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_kernel_verify(p->kernels.kernels[i]));
  }
  // Constant filters of the CPU's planar convolutions become its GEMM's
  // panels in rodata (the kernels' generic bodies read them too, so every
  // target stays correct).
  if (driver->level > 0 && driver->targets[GRTC_DRIVER_TARGET_CPU]) {
    GRT_RETURN_IF_ERROR(grtc_cpu_prepack_module(p->module, &p->kernels, NULL));
  }
  // With CPU executables alone, the planar GEMM convolutions split their
  // output channels as the device's concurrency asks, at run time (GPU
  // targets keep the compile-time tiles; docs/compiler.md "Performance
  // notes").
  bool cpu_only = driver->targets[GRTC_DRIVER_TARGET_CPU];
  for (uint32_t t = 0; t < GRTC_DRIVER_TARGET_COUNT; ++t) {
    if (t != GRTC_DRIVER_TARGET_CPU && driver->targets[t]) cpu_only = false;
  }
  for (uint32_t i = 0; cpu_only && driver->level > 0 && i < p->kernels.count; ++i) {
    if (grtc_cpu_conv_takes_runtime_split(p->kernels.kernels[i])) {
      grtc_dispatch_plan_runtime_split(p->kernels.kernels[i]);
    }
  }
  GRT_RETURN_IF_ERROR(grtc_pipeline_dump_kernels(p));

  if (c_static_out) {
    GRT_RETURN_IF_ERROR(grtc_driver_name_c_static(driver, p->module->name, c_static_name));
  }
  // A module without kernels needs no executable at all.
  if (p->kernels.count > 0 && driver->targets[GRTC_DRIVER_TARGET_CPU]) {
    GRT_RETURN_IF_ERROR(grtc_pipeline_build_cpu(
        p, c_static_out ? grt_string_builder_cstring(c_static_name) : NULL, c_static_out));
  }
  if (p->kernels.count > 0 && driver->targets[GRTC_DRIVER_TARGET_CUDA]) {
    GRT_RETURN_IF_ERROR(grtc_pipeline_build_cuda(p));
  }
  if (p->kernels.count > 0 && driver->targets[GRTC_DRIVER_TARGET_VULKAN]) {
    GRT_RETURN_IF_ERROR(grtc_pipeline_build_vulkan(p));
  }

  grtc_host_options_t host_options = {0};
  grt_string_builder_t* host_text = NULL;
  if (driver->dump == GRTC_DUMP_HOST) {
    grt_string_builder_clear(&p->text);
    host_text = &p->text;
  }
  grt_status_t status =
      grtc_host_emit(p->module, &p->kernels, p->executables, p->executable_count,
                     &host_options, driver->allocator, writer, host_text);
  // The text is printed even when it fails to assemble: that is when it
  // is most wanted.
  if (host_text && host_text->size) {
    grtc_driver_dump_text(driver, grt_string_builder_view(host_text));
  }
  return status;
}

// Compiles |parsed| (StableHLO) or, when |imported| is not NULL, that
// tensor module (taking ownership of it).
static grt_status_t grtc_driver_compile_tensor(grtc_driver_t* driver,
                                               const grtc_module_t* parsed,
                                               grtc_tmodule_t* imported,
                                               grt_module_writer_t* writer,
                                               grt_string_builder_t* c_static_out,
                                               grt_string_builder_t* c_static_name) {
  grtc_pipeline_t pipeline;
  memset(&pipeline, 0, sizeof(pipeline));
  pipeline.driver = driver;
  pipeline.module = imported;
  grt_string_builder_init(driver->allocator, &pipeline.text);
  grt_status_t status =
      grtc_pipeline_run(&pipeline, parsed, writer, c_static_out, c_static_name);
  grtc_pipeline_deinit(&pipeline);
  return status;
}


//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

// What the input file held: parsed MLIR, or an ONNX model already imported
// into the tensor IR (owned until compiled).
typedef struct grtc_driver_input_t {
  grtc_module_t* parsed;
  grtc_tmodule_t* onnx;
  const char* file_name;
} grtc_driver_input_t;

static void grtc_driver_input_free(grtc_driver_input_t* input) {
  grtc_module_destroy(input->parsed);
  grtc_tmodule_destroy(input->onnx);
  input->parsed = NULL;
  input->onnx = NULL;
}

// Compiles |input| into |writer|. For c-static, the kernels' C goes to
// |c_static_out| and the C name to |c_static_name|.
static grt_status_t grtc_driver_compile_module(grtc_driver_t* driver, grtc_driver_input_t* input,
                                               grt_module_writer_t* writer,
                                               grt_string_builder_t* c_static_out,
                                               grt_string_builder_t* c_static_name) {
  if (input->onnx) {
    grtc_tmodule_t* onnx = input->onnx;
    input->onnx = NULL;
    return grtc_driver_compile_tensor(driver, NULL, onnx, writer, c_static_out, c_static_name);
  }
  grtc_module_t* module = input->parsed;
  grtc_operation_t* vm_module = grtc_vm_find_module(module);
  if (vm_module) {
    GRT_RETURN_IF_ERROR(grtc_vm_assemble(vm_module, module->file_name, driver->allocator,
                                         writer));
    if (!c_static_out) return grt_ok_status();
    const grtc_attribute_t* name = grtc_operation_attribute(vm_module, "sym_name");
    return grtc_driver_name_c_static(
        driver,
        name && name->kind == GRTC_ATTR_STRING ? name->string : grt_make_cstring_view("module"),
        c_static_name);
  }
  if (grtc_stablehlo_is_input(module)) {
    return grtc_driver_compile_tensor(driver, module, NULL, writer, c_static_out,
                                      c_static_name);
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "expected a vm.module or StableHLO functions (func.func) in '%s'",
                         module->file_name);
}

// The largest input read from a pipe or device (a regular file of any size
// is mapped).
#define GRTC_DRIVER_MAX_STREAM_INPUT ((size_t)256 << 20)

// Reads the input: an ONNX model (recognized by its bytes or a .onnx name)
// is imported, anything else parsed as MLIR with every dialect the driver
// knows. |source| NULL means read |file_name|.
static grt_status_t grtc_driver_load(const grtc_driver_t* driver, const char* source,
                                     size_t source_size, const char* file_name,
                                     grtc_driver_input_t* out) {
  memset(out, 0, sizeof(*out));
  out->file_name = file_name;
  grt_allocator_t allocator = driver->allocator;
  grt_file_contents_t contents;
  memset(&contents, 0, sizeof(contents));
  if (!source) {
    grt_status_t status = grt_file_map_read_only_bounded(
        file_name, GRTC_DRIVER_MAX_STREAM_INPUT, allocator, &contents);
    if (grt_status_code(status) == GRT_STATUS_OUT_OF_RANGE) {
      return grt_status_annotate(status,
                                 "an input (MLIR or ONNX) read from a pipe or device may hold at most %zu bytes "
                                 "(256 MiB)",
                                 GRTC_DRIVER_MAX_STREAM_INPUT);
    }
    GRT_RETURN_IF_ERROR(status);
    source = contents.data;
    source_size = contents.size;
  }
  grt_status_t status;
  if (grtc_onnx_is_input((const uint8_t*)source, source_size, file_name)) {
    const grtc_compile_options_t* o = driver->options;
    grtc_onnx_options_t onnx_options = {o->onnx_input_shapes, o->onnx_input_shape_count};
    status = grtc_onnx_import((const uint8_t*)source, source_size, file_name, &onnx_options,
                              allocator, &out->onnx);
  } else {
    grtc_driver_parse_options_t parse_options;
    status = grtc_driver_make_parse_options(&parse_options);
    if (grt_status_is_ok(status)) {
      status = grtc_parse_source(grt_make_string_view(source, source_size), file_name,
                                 &parse_options.options, allocator, &out->parsed);
    }
  }
  grt_file_contents_free(&contents);
  return status;
}

// Appends |data| as the body of a C array initializer, 16 bytes a line.
static void grtc_driver_append_bytes(const uint8_t* data, size_t size,
                                     grt_string_builder_t* out) {
  static const char hex[] = "0123456789abcdef";
  char line[2 + 16 * 5 + 1];
  for (size_t i = 0; i < size; i += 16) {
    size_t n = 0;
    line[n++] = ' ';
    line[n++] = ' ';
    for (size_t j = i; j < size && j < i + 16; ++j) {
      line[n++] = '0';
      line[n++] = 'x';
      line[n++] = hex[data[j] >> 4];
      line[n++] = hex[data[j] & 15];
      line[n++] = ',';
    }
    line[n++] = '\n';
    grt_string_builder_append(out, grt_make_string_view(line, n));
  }
}

// The declarations of a c-static file named |n| (the C names' prefix), for
// the file itself and for its header. grt_status_t is declared the way
// base/status.h declares it, so the header needs no grt include path.
static void grtc_driver_append_c_static_declarations(const char* n, bool has_kernels,
                                                     grt_string_builder_t* out) {
  grt_string_builder_appendf(out,
                             "#include <stddef.h>\n\n"
                             "extern const unsigned char %s_vmfb[];\n"
                             "extern const size_t %s_vmfb_size;\n",
                             n, n);
  if (has_kernels) {
    grt_string_builder_appendf(out,
                               "\n#ifndef GRT_BASE_STATUS_H_  /* as base/status.h has it */\n"
                               "struct grt_status_record_t;\n"
                               "typedef struct grt_status_record_t* grt_status_t;\n"
                               "#endif\n"
                               "// Registers the kernels as static library '%s'. OK when it\n"
                               "// is registered already; the error otherwise (free it with\n"
                               "// grt_status_free, or GRT_RETURN_IF_ERROR it).\n"
                               "grt_status_t %s_register(void);\n",
                               n, n);
  }
}

// The header of a c-static file named |n| (NAME.h): its declarations.
static void grtc_driver_write_c_static_header(const char* file_name, const char* n,
                                              bool has_kernels, grt_string_builder_t* out) {
  grt_string_builder_appendf(out,
                             "// Generated by grt-compile --output-format=c-static from\n"
                             "// %s.\n"
                             "// The declarations of the C file written beside this header\n"
                             "// (its first lines say how to run the module).\n"
                             "#ifndef GRT_C_STATIC_%s_H_\n"
                             "#define GRT_C_STATIC_%s_H_\n\n",
                             file_name, n, n);
  grt_string_builder_append_cstring(out, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  grtc_driver_append_c_static_declarations(n, has_kernels, out);
  grt_string_builder_appendf(out,
                             "\n#ifdef __cplusplus\n}\n#endif\n\n"
                             "#endif  // GRT_C_STATIC_%s_H_\n",
                             n);
}

// Serializes the module and, with a signing key, signs it: the one
// allocation from the driver's allocator the caller frees.
static grt_status_t grtc_driver_finish_module(grtc_driver_t* driver, grt_module_writer_t* writer,
                                              void** out_data, size_t* out_size) {
  GRT_RETURN_IF_ERROR(grt_module_writer_finish(writer, out_data, out_size));
  if (!driver->options->signing_key) return grt_ok_status();
  void* signed_data = NULL;
  size_t signed_size = 0;
  grt_status_t status = grt_module_sign(grt_make_const_byte_span(*out_data, *out_size),
                                        driver->options->signing_key, false, driver->allocator,
                                        &signed_data, &signed_size);
  grt_allocator_free(driver->allocator, *out_data);
  *out_data = signed_data;
  *out_size = signed_size;
  return grt_status_annotate(status, "signing the module (--sign-key)");
}

// The c-static file: a usage note, the kernels' C, the module's bytes.
// With |header_out| also its header, and with |name_out| the C name (NAME
// of NAME.h).
static grt_status_t grtc_driver_write_c_static(grtc_driver_t* driver, grtc_driver_input_t* module,
                                               grt_string_builder_t* out,
                                               grt_string_builder_t* header_out,
                                               grt_string_builder_t* name_out) {
  grt_module_writer_t* writer = NULL;
  GRT_RETURN_IF_ERROR(grt_module_writer_create(driver->allocator, &writer));
  grt_string_builder_t kernels, name;
  grt_string_builder_init(driver->allocator, &kernels);
  grt_string_builder_init(driver->allocator, &name);
  void* data = NULL;
  size_t size = 0;
  grt_status_t status = grtc_driver_compile_module(driver, module, writer, &kernels, &name);

  if (grt_status_is_ok(status)) status = grt_string_builder_status(&kernels);
  if (grt_status_is_ok(status)) status = grtc_driver_finish_module(driver, writer, &data, &size);
  if (grt_status_is_ok(status)) {
    const char* n = grt_string_builder_cstring(&name);
    bool has_kernels = kernels.size > 0;
    grt_string_builder_appendf(
        out,
        "// Generated by grt-compile --output-format=c-static from\n"
        "// %s.\n"
        "//\n"
        "// The module as a byte array (%s_vmfb, %s_vmfb_size)%s.\n"
        "// To run it, link this file with the grt runtime (grt_runtime,\n"
        "// grt_hal_local and a local driver) and:\n"
        "//\n",
        module->file_name, n, n,
        has_kernels ? "\n// and its CPU kernels as a static kernel library" : "");
    if (has_kernels) {
      grt_string_builder_appendf(
          out,
          "//   GRT_RETURN_IF_ERROR(%s_register());  // registers the kernels\n"
          "//       // as library '%s' (grt_hal_local_register_static_library)\n",
          n, n);
    }
    grt_string_builder_appendf(
        out,
        "//   grt_runtime_session_append_module_from_memory(\n"
        "//       session, grt_make_const_byte_span(%s_vmfb, %s_vmfb_size));\n"
        "//\n"
        "// (runtime/session.h).%s\n"
        "// %s.h (written beside this file) declares what it defines.\n\n",
        n, n,
        has_kernels ? " The module's executable has the format \"cpu-static\" and\n"
                      "// names the library, so local-sync and local-task run the kernels\n"
                      "// linked here; nothing is loaded at run time."
                    : "",
        n);
    grtc_driver_append_c_static_declarations(n, has_kernels, out);
    grt_string_builder_append_cstring(out, "\n");
    grt_string_builder_append(out, grt_string_builder_view(&kernels));
    grt_string_builder_appendf(out,
                               "\n// 64-byte aligned: the module's data segments are used in "
                               "place.\n"
                               "_Alignas(64) const unsigned char %s_vmfb[%zu] = {\n",
                               n, size);
    grtc_driver_append_bytes((const uint8_t*)data, size, out);
    grt_string_builder_appendf(out, "};\nconst size_t %s_vmfb_size = %zu;\n", n, size);
    if (header_out) {
      grtc_driver_write_c_static_header(module->file_name, n, has_kernels, header_out);
    }
    if (name_out) grt_string_builder_append_cstring(name_out, n);
    status = grt_string_builder_status(out);
    if (grt_status_is_ok(status) && header_out) status = grt_string_builder_status(header_out);
    if (grt_status_is_ok(status) && name_out) status = grt_string_builder_status(name_out);
  }
  grt_allocator_free(driver->allocator, data);
  grt_string_builder_deinit(&name);
  grt_string_builder_deinit(&kernels);
  grt_module_writer_destroy(writer);
  return status;
}

grt_status_t grtc_compile_source(const char* source, size_t source_size,
                                 const char* file_name,
                                 const grtc_compile_options_t* options,
                                 grt_allocator_t allocator,
                                 grt_module_writer_t* writer) {
  grtc_driver_t driver;
  GRT_RETURN_IF_ERROR(grtc_driver_init(options, allocator, &driver));
  if (options && options->output_format != GRTC_OUTPUT_FORMAT_VMFB) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "grtc_compile_source writes a module file; use "
                           "grtc_compile_source_c_static for the c-static output format");
  }
  grtc_driver_input_t input;
  GRT_RETURN_IF_ERROR(grtc_driver_load(&driver, source, source_size, file_name, &input));
  grt_status_t status = grtc_driver_compile_module(&driver, &input, writer, NULL, NULL);
  grtc_driver_input_free(&input);
  return status;
}

grt_status_t grtc_compile_source_c_static(const char* source, size_t source_size,
                                          const char* file_name,
                                          const grtc_compile_options_t* options,
                                          grt_allocator_t allocator,
                                          grt_string_builder_t* out,
                                          grt_string_builder_t* header_out) {
  grtc_compile_options_t c_static = {0};
  if (options) c_static = *options;
  c_static.output_format = GRTC_OUTPUT_FORMAT_C_STATIC;
  grtc_driver_t driver;
  GRT_RETURN_IF_ERROR(grtc_driver_init(&c_static, allocator, &driver));
  grtc_driver_input_t input;
  GRT_RETURN_IF_ERROR(grtc_driver_load(&driver, source, source_size, file_name, &input));
  grt_status_t status = grtc_driver_write_c_static(&driver, &input, out, header_out, NULL);
  grtc_driver_input_free(&input);
  return status;
}

// NAME.h beside the C file at |c_path|: in its directory.
static grt_status_t grtc_driver_c_static_header_path(const char* c_path, const char* name,
                                                     grt_string_builder_t* out) {
  const char* slash = strrchr(c_path, '/');
  if (slash) {
    grt_string_builder_append(out, grt_make_string_view(c_path, (size_t)(slash - c_path + 1)));
  }
  grt_string_builder_appendf(out, "%s.h", name);
  return grt_string_builder_status(out);
}

grt_status_t grtc_compile_file(const char* input_path, const char* output_path,
                               const grtc_compile_options_t* options,
                               grt_allocator_t allocator) {
  grtc_driver_t driver;
  GRT_RETURN_IF_ERROR(grtc_driver_init(options, allocator, &driver));
  grtc_driver_input_t input;
  GRT_RETURN_IF_ERROR(grtc_driver_load(&driver, NULL, 0, input_path, &input));
  grt_status_t status = grt_ok_status();
  if (driver.options->output_format == GRTC_OUTPUT_FORMAT_C_STATIC) {
    grt_string_builder_t text, header, name, header_path;
    grt_string_builder_init(allocator, &text);
    grt_string_builder_init(allocator, &header);
    grt_string_builder_init(allocator, &name);
    grt_string_builder_init(allocator, &header_path);
    status = grtc_driver_write_c_static(&driver, &input, &text, &header, &name);
    if (grt_status_is_ok(status)) {
      status = grtc_driver_c_static_header_path(output_path, grt_string_builder_cstring(&name),
                                                &header_path);
    }
    if (grt_status_is_ok(status) &&
        strcmp(grt_string_builder_cstring(&header_path), output_path) == 0) {
      status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "c-static output '%s' is the header's own path (%s.h goes "
                               "beside the C file); name the C file NAME.c",
                               output_path, grt_string_builder_cstring(&name));
    }
    if (grt_status_is_ok(status)) {
      status = grt_file_write_contents(output_path, text.data, text.size);
    }
    if (grt_status_is_ok(status)) {
      status = grt_file_write_contents(grt_string_builder_cstring(&header_path), header.data,
                                       header.size);
    }
    grt_string_builder_deinit(&header_path);
    grt_string_builder_deinit(&name);
    grt_string_builder_deinit(&header);
    grt_string_builder_deinit(&text);
  } else {
    grt_module_writer_t* writer = NULL;
    status = grt_module_writer_create(allocator, &writer);
    if (grt_status_is_ok(status)) {
      status = grtc_driver_compile_module(&driver, &input, writer, NULL, NULL);
    }
    void* data = NULL;
    size_t size = 0;
    if (grt_status_is_ok(status)) status = grtc_driver_finish_module(&driver, writer, &data, &size);
    if (grt_status_is_ok(status)) status = grt_file_write_contents(output_path, data, size);
    grt_allocator_free(allocator, data);
    grt_module_writer_destroy(writer);
  }
  grtc_driver_input_free(&input);
  return status;
}

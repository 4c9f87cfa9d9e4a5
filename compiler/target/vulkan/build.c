// GLSL to validated SPIR-V (shaderc, SPIRV-Tools) and the container of a
// module's shaders. Without shaderc at build time the target reports
// itself unavailable rather than failing later.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/target/vulkan/vulkan_target.h"
#include "schemas/spirv_container.h"

#if GRTC_VULKAN_HAVE_SHADERC
#include <shaderc/shaderc.h>
#endif
#if GRTC_VULKAN_HAVE_SPIRV_TOOLS
#include <spirv-tools/libspirv.h>
#endif

bool grtc_vulkan_available(void) { return GRTC_VULKAN_HAVE_SHADERC != 0; }

#if GRTC_VULKAN_HAVE_SPIRV_TOOLS
static grt_status_t grtc_vulkan_validate(grt_string_view_t name,
                                         const uint32_t* words,
                                         size_t word_count) {
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_2);
  if (!context) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "SPIRV-Tools: cannot create a context");
  }
  spv_const_binary_t binary = {words, word_count};
  spv_diagnostic diagnostic = NULL;
  spv_result_t result = spvValidate(context, &binary, &diagnostic);
  grt_status_t status = grt_ok_status();
  if (result != SPV_SUCCESS) {
    status = grt_make_status(
        GRT_STATUS_INTERNAL,
        "kernel %.*s: the SPIR-V that shaderc produced fails validation "
        "(spv_result_t %d): %s",
        (int)name.size, name.data, (int)result,
        diagnostic && diagnostic->error ? diagnostic->error : "no message");
  }
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return status;
}
#endif

#if GRTC_VULKAN_HAVE_SHADERC
// One shaderc compiler for a whole module: glslang builds its built-in
// symbol tables once per compiler, which is most of a small shader's
// compile time.
typedef struct grtc_vulkan_compiler_t {
  shaderc_compiler_t compiler;
  shaderc_compile_options_t options;
} grtc_vulkan_compiler_t;

static void grtc_vulkan_compiler_deinit(grtc_vulkan_compiler_t* c) {
  shaderc_compile_options_release(c->options);
  shaderc_compiler_release(c->compiler);
}

static grt_status_t grtc_vulkan_compiler_init(grtc_vulkan_compiler_t* c) {
  c->compiler = shaderc_compiler_initialize();
  c->options = shaderc_compile_options_initialize();
  if (!c->compiler || !c->options) {
    grtc_vulkan_compiler_deinit(c);
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "shaderc: cannot create a compiler");
  }
  shaderc_compile_options_set_target_env(c->options, shaderc_target_env_vulkan,
                                         shaderc_env_version_vulkan_1_2);
  shaderc_compile_options_set_optimization_level(
      c->options, shaderc_optimization_level_performance);
  return grt_ok_status();
}

static grt_status_t grtc_vulkan_compile(const grtc_vulkan_compiler_t* c,
                                        grt_string_view_t name,
                                        grt_string_view_t source,
                                        grt_allocator_t allocator,
                                        uint32_t** out_words,
                                        size_t* out_word_count) {
  char file_name[160];
  snprintf(file_name, sizeof(file_name), "%.*s.comp", (int)name.size,
           name.data);
  shaderc_compilation_result_t result = shaderc_compile_into_spv(
      c->compiler, source.data, source.size, shaderc_compute_shader, file_name,
      "main", c->options);
  grt_status_t status = grt_ok_status();
  if (shaderc_result_get_compilation_status(result) !=
      shaderc_compilation_status_success) {
    status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "kernel %.*s: the shader compiler (shaderc) "
                             "failed: %s",
                             (int)name.size, name.data,
                             shaderc_result_get_error_message(result));
  } else {
    size_t bytes = shaderc_result_get_length(result);
    uint32_t* words = NULL;
    status = grt_allocator_malloc(allocator, bytes ? bytes : 4, (void**)&words);
    if (grt_status_is_ok(status)) {
      memcpy(words, shaderc_result_get_bytes(result), bytes);
#if GRTC_VULKAN_HAVE_SPIRV_TOOLS
      status = grtc_vulkan_validate(name, words, bytes / 4);
#endif
      if (grt_status_is_ok(status)) {
        *out_words = words;
        *out_word_count = bytes / 4;
      } else {
        grt_allocator_free(allocator, words);
      }
    }
  }
  shaderc_result_release(result);
  return status;
}
#endif

grt_status_t grtc_vulkan_compile_glsl(grt_string_view_t name,
                                      grt_string_view_t source,
                                      grt_allocator_t allocator,
                                      uint32_t** out_words,
                                      size_t* out_word_count) {
  *out_words = NULL;
  *out_word_count = 0;
#if GRTC_VULKAN_HAVE_SHADERC
  grtc_vulkan_compiler_t compiler;
  GRT_RETURN_IF_ERROR(grtc_vulkan_compiler_init(&compiler));
  grt_status_t status = grtc_vulkan_compile(&compiler, name, source, allocator,
                                            out_words, out_word_count);
  grtc_vulkan_compiler_deinit(&compiler);
  return status;
#else
  (void)name;
  (void)source;
  (void)allocator;
  return grt_make_status(GRT_STATUS_UNAVAILABLE,
                         "vulkan target needs libshaderc (not found at build "
                         "time)");
#endif
}

grt_status_t grtc_vulkan_build(const grtc_kernel_set_t* kernels,
                               grt_allocator_t allocator,
                               grt_string_builder_t* keep_glsl,
                               uint8_t** out_binary, size_t* out_binary_size) {
  *out_binary = NULL;
  *out_binary_size = 0;
#if GRTC_VULKAN_HAVE_SHADERC
  grt_spirv_module_t* modules = NULL;
  uint32_t count = kernels->count;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, (count ? count : 1) * sizeof(*modules), (void**)&modules));
  grtc_vulkan_compiler_t compiler;
  grt_status_t status = grtc_vulkan_compiler_init(&compiler);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(allocator, modules);
    return status;
  }
  grt_string_builder_t glsl;
  grt_string_builder_init(allocator, &glsl);
  for (uint32_t k = 0; k < count && grt_status_is_ok(status); ++k) {
    const grtc_kernel_t* kernel = kernels->kernels[k];
    grt_string_builder_clear(&glsl);
    status = grtc_vulkan_emit_glsl(kernel, &glsl);
    if (grt_status_is_ok(status) && keep_glsl) {
      grt_string_builder_append(keep_glsl, grt_string_builder_view(&glsl));
    }
    uint32_t* words = NULL;
    size_t word_count = 0;
    if (grt_status_is_ok(status)) {
      status = grtc_vulkan_compile(&compiler, kernel->name,
                                   grt_string_builder_view(&glsl), allocator,
                                   &words, &word_count);
    }
    modules[k].words = words;
    modules[k].word_count = word_count;
  }
  if (grt_status_is_ok(status)) {
    status = grt_spirv_container_write(modules, count, allocator, out_binary,
                                       out_binary_size);
  }
  for (uint32_t k = 0; k < count; ++k) {
    grt_allocator_free(allocator, (void*)modules[k].words);
  }
  grt_allocator_free(allocator, modules);
  grt_string_builder_deinit(&glsl);
  grtc_vulkan_compiler_deinit(&compiler);
  return status;
#else
  (void)kernels;
  (void)allocator;
  (void)keep_glsl;
  return grt_make_status(GRT_STATUS_UNAVAILABLE,
                         "vulkan target needs libshaderc (not found at build "
                         "time)");
#endif
}

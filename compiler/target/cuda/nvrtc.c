// NVRTC loaded at run time and the kernels compiled to PTX with it. The
// NVRTC API is declared here (no nvrtc.h) so this builds without CUDA; the
// library is opened per build and closed afterwards, keeping no global
// state.
#define _GNU_SOURCE  // dlinfo (the loaded library's directory)
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/target/cuda/cuda_internal.h"

typedef int grtc_nvrtc_result_t;  // nvrtcResult; 0 is NVRTC_SUCCESS
typedef struct grtc_nvrtc_program_s* grtc_nvrtc_program_t;

typedef grtc_nvrtc_result_t (*grtc_nvrtc_version_fn)(int*, int*);
typedef const char* (*grtc_nvrtc_error_string_fn)(grtc_nvrtc_result_t);
typedef grtc_nvrtc_result_t (*grtc_nvrtc_create_fn)(grtc_nvrtc_program_t*, const char*,
                                                    const char*, int, const char* const*,
                                                    const char* const*);
typedef grtc_nvrtc_result_t (*grtc_nvrtc_destroy_fn)(grtc_nvrtc_program_t*);
typedef grtc_nvrtc_result_t (*grtc_nvrtc_compile_fn)(grtc_nvrtc_program_t, int,
                                                     const char* const*);
typedef grtc_nvrtc_result_t (*grtc_nvrtc_size_fn)(grtc_nvrtc_program_t, size_t*);
typedef grtc_nvrtc_result_t (*grtc_nvrtc_text_fn)(grtc_nvrtc_program_t, char*);

// X(field, symbol, function pointer type)
#define GRTC_NVRTC_SYMBOLS(X)                                   \
  X(version, "nvrtcVersion", grtc_nvrtc_version_fn)             \
  X(error_string, "nvrtcGetErrorString", grtc_nvrtc_error_string_fn) \
  X(create, "nvrtcCreateProgram", grtc_nvrtc_create_fn)         \
  X(destroy, "nvrtcDestroyProgram", grtc_nvrtc_destroy_fn)      \
  X(compile, "nvrtcCompileProgram", grtc_nvrtc_compile_fn)      \
  X(ptx_size, "nvrtcGetPTXSize", grtc_nvrtc_size_fn)            \
  X(ptx, "nvrtcGetPTX", grtc_nvrtc_text_fn)                     \
  X(log_size, "nvrtcGetProgramLogSize", grtc_nvrtc_size_fn)     \
  X(log, "nvrtcGetProgramLog", grtc_nvrtc_text_fn)

typedef struct grtc_nvrtc_t {
  void* handle;
#define GRTC_NVRTC_FIELD(field, symbol, signature) signature field;
  GRTC_NVRTC_SYMBOLS(GRTC_NVRTC_FIELD)
#undef GRTC_NVRTC_FIELD
  char origin[PATH_MAX];  // directory of the loaded library ("" unknown)
} grtc_nvrtc_t;

#define GRTC_NVRTC_PROGRAM_NAME "grt_kernels.cu"

// out = a followed by b, cut to |size| - 1 bytes (paths here are short;
// a cut one simply fails to open).
static void grtc_nvrtc_join(char* out, size_t size, const char* a, const char* b) {
  size_t na = strlen(a), nb = strlen(b);
  if (na > size - 1) na = size - 1;
  if (nb > size - 1 - na) nb = size - 1 - na;
  memcpy(out, a, na);
  memcpy(out + na, b, nb);
  out[na + nb] = '\0';
}

static void grtc_nvrtc_close(grtc_nvrtc_t* nvrtc) {
  if (nvrtc->handle) dlclose(nvrtc->handle);
  nvrtc->handle = NULL;
}

static grt_status_t grtc_nvrtc_open(grtc_nvrtc_t* out) {
  memset(out, 0, sizeof(*out));
  char candidates[6][PATH_MAX];
  size_t count = 0;
  const char* forced = getenv("GRT_NVRTC_LIBRARY");
  if (forced && *forced) {
    grtc_nvrtc_join(candidates[count++], PATH_MAX, forced, "");
  } else {
    const char* cuda_home = getenv("CUDA_HOME");
    if (cuda_home && *cuda_home) {
      grtc_nvrtc_join(candidates[count++], PATH_MAX, cuda_home, "/lib64/libnvrtc.so.13");
      grtc_nvrtc_join(candidates[count++], PATH_MAX, cuda_home, "/lib64/libnvrtc.so");
    }
    snprintf(candidates[count++], PATH_MAX, "/usr/local/cuda/lib64/libnvrtc.so.13");
    snprintf(candidates[count++], PATH_MAX, "/usr/local/cuda/lib64/libnvrtc.so");
    // Plain sonames: LD_LIBRARY_PATH and the loader cache.
    snprintf(candidates[count++], PATH_MAX, "libnvrtc.so.13");
    snprintf(candidates[count++], PATH_MAX, "libnvrtc.so");
  }
  char error[512] = "";
  for (size_t i = 0; i < count && !out->handle; ++i) {
    // RTLD_NODELETE: NVRTC keeps process-wide state it never frees; staying
    // mapped lets leak checkers attribute it (tests/lsan_suppressions.txt).
    out->handle =
        dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!out->handle) {
      const char* message = dlerror();
      grtc_nvrtc_join(error, sizeof(error), message ? message : candidates[i], "");
    }
  }
  if (!out->handle) {
    return grt_make_status(GRT_STATUS_UNAVAILABLE,
                           "cuda target needs NVRTC (libnvrtc.so not found: %s)", error);
  }
#define GRTC_NVRTC_RESOLVE(field, symbol, signature)                       \
  *(void**)&out->field = dlsym(out->handle, symbol);                       \
  if (!out->field) {                                                       \
    grtc_nvrtc_close(out);                                                 \
    return grt_make_status(GRT_STATUS_UNAVAILABLE,                         \
                           "cuda target: the NVRTC library lacks %s", symbol); \
  }
  GRTC_NVRTC_SYMBOLS(GRTC_NVRTC_RESOLVE)
#undef GRTC_NVRTC_RESOLVE
  if (dlinfo(out->handle, RTLD_DI_ORIGIN, out->origin) != 0) out->origin[0] = '\0';
  return grt_ok_status();
}

// The toolkit's include directory holding mma.h: beside the library's
// lib64/, else $CUDA_HOME/include, else /usr/local/cuda/include.
static bool grtc_nvrtc_find_include(const grtc_nvrtc_t* nvrtc, char* out,
                                    size_t size, char* tried, size_t tried_size) {
  char candidates[3][PATH_MAX];
  size_t count = 0;
  if (nvrtc->origin[0]) {
    grtc_nvrtc_join(candidates[count++], PATH_MAX, nvrtc->origin, "/../include");
  }
  const char* cuda_home = getenv("CUDA_HOME");
  if (cuda_home && *cuda_home) {
    grtc_nvrtc_join(candidates[count++], PATH_MAX, cuda_home, "/include");
  }
  snprintf(candidates[count++], PATH_MAX, "/usr/local/cuda/include");
  tried[0] = '\0';
  for (size_t i = 0; i < count; ++i) {
    char header[PATH_MAX + 8];
    grtc_nvrtc_join(header, sizeof(header), candidates[i], "/mma.h");
    if (access(header, R_OK) == 0) {
      grtc_nvrtc_join(out, size, candidates[i], "");
      return true;
    }
    size_t used = strlen(tried);
    grtc_nvrtc_join(tried + used, tried_size - used, used ? ", " : "", candidates[i]);
  }
  return false;
}

// The kernels NVRTC's log points at (by "grt_kernels.cu(LINE)"), as a
// comma-separated list; every kernel when no line falls in one.
static void grtc_nvrtc_blame(const grtc_kernel_set_t* kernels, const uint32_t* lines,
                             const char* log, grt_string_builder_t* out) {
  bool* blamed = calloc(kernels->count + 1, sizeof(bool));
  bool any = false;
  const char* needle = GRTC_NVRTC_PROGRAM_NAME "(";
  for (const char* at = log; blamed && (at = strstr(at, needle)) != NULL;) {
    at += strlen(needle);
    unsigned long line = strtoul(at, NULL, 10);
    for (uint32_t k = kernels->count; k-- > 0;) {
      if (line >= lines[k]) {
        any |= !blamed[k];
        blamed[k] = true;
        break;
      }
    }
  }
  for (uint32_t k = 0, listed = 0; k < kernels->count; ++k) {
    if (any && !blamed[k]) continue;
    grt_string_builder_appendf(out, "%s%.*s", listed++ ? ", " : "",
                               (int)kernels->kernels[k]->name.size,
                               kernels->kernels[k]->name.data);
  }
  if (!any) grt_string_builder_append_cstring(out, " (the error is outside them)");
  free(blamed);
}

static grt_status_t grtc_nvrtc_compile(const grtc_nvrtc_t* nvrtc,
                                       const grtc_kernel_set_t* kernels,
                                       const char* arch, uint32_t cc,
                                       const char* source, const uint32_t* lines,
                                       bool uses_wmma, grt_allocator_t allocator,
                                       char** out_ptx, size_t* out_ptx_size) {
  char arch_option[64], include_option[PATH_MAX + 32];
  snprintf(arch_option, sizeof(arch_option), "--gpu-architecture=compute_%u", cc);
  // --fmad=false: a * b + c rounds twice as scalar.h (and the CPU) do;
  // the matmul kernels ask for fmaf explicitly.
  // -w: the prelude's unused helpers would drown real errors in warnings.
  const char* options[6] = {arch_option, "-default-device", "--std=c++17",
                            "--fmad=false", "-w"};
  int option_count = 5;
  if (uses_wmma) {
    char include[PATH_MAX], tried[3 * PATH_MAX + 8];
    if (!grtc_nvrtc_find_include(nvrtc, include, sizeof(include), tried, sizeof(tried))) {
      return grt_make_status(GRT_STATUS_UNAVAILABLE,
                             "cuda target: tensor-core kernels need the CUDA toolkit's "
                             "mma.h; not found in %s",
                             tried);
    }
    grtc_nvrtc_join(include_option, sizeof(include_option), "--include-path=", include);
    options[option_count++] = include_option;
  }
  grtc_nvrtc_program_t program = NULL;
  grtc_nvrtc_result_t result =
      nvrtc->create(&program, source, GRTC_NVRTC_PROGRAM_NAME, 0, NULL, NULL);
  if (result != 0) {
    return grt_make_status(GRT_STATUS_INTERNAL, "nvrtcCreateProgram failed: %s (%d)",
                           nvrtc->error_string(result), result);
  }
  grt_status_t status = grt_ok_status();
  result = nvrtc->compile(program, option_count, options);
  if (result != 0) {
    size_t log_size = 0;
    char* log = NULL;
    if (nvrtc->log_size(program, &log_size) == 0 && log_size > 0) {
      log = malloc(log_size + 1);
      if (log && nvrtc->log(program, log) == 0) {
        log[log_size] = '\0';
      } else if (log) {
        log[0] = '\0';
      }
    }
    grt_string_builder_t names;
    grt_string_builder_init(grt_allocator_system(), &names);
    grtc_nvrtc_blame(kernels, lines, log ? log : "", &names);
    status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "NVRTC could not compile kernel(s) %s for %s (%s):\n%s",
                             grt_string_builder_cstring(&names), arch,
                             nvrtc->error_string(result), log ? log : "(no log)");
    grt_string_builder_deinit(&names);
    free(log);
  }
  size_t size = 0;
  if (grt_status_is_ok(status) && (result = nvrtc->ptx_size(program, &size)) != 0) {
    status = grt_make_status(GRT_STATUS_INTERNAL, "nvrtcGetPTXSize failed: %s",
                             nvrtc->error_string(result));
  }
  char* ptx = NULL;
  if (grt_status_is_ok(status)) {
    // The size counts the terminating NUL.
    status = grt_allocator_malloc(allocator, size + 1, (void**)&ptx);
  }
  if (grt_status_is_ok(status) && (result = nvrtc->ptx(program, ptx)) != 0) {
    status = grt_make_status(GRT_STATUS_INTERNAL, "nvrtcGetPTX failed: %s",
                             nvrtc->error_string(result));
  }
  nvrtc->destroy(&program);
  if (!grt_status_is_ok(status)) {
    grt_allocator_free(allocator, ptx);
    return status;
  }
  ptx[size] = '\0';
  *out_ptx = ptx;
  *out_ptx_size = strlen(ptx);
  return grt_ok_status();
}

grt_status_t grtc_cuda_build(const grtc_kernel_set_t* kernels,
                             const grtc_cuda_options_t* options,
                             grt_allocator_t allocator, char** out_ptx,
                             size_t* out_ptx_size, uint32_t* out_block_sizes) {
  const char* arch = options && options->arch ? options->arch : GRTC_CUDA_DEFAULT_ARCH;
  uint32_t cc = 0;
  GRT_RETURN_IF_ERROR(grtc_cuda_parse_arch(arch, &cc));
  uint32_t* lines = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      allocator, (kernels->count + 1) * sizeof(uint32_t), (void**)&lines));
  grt_string_builder_t source;
  grt_string_builder_init(allocator, &source);
  bool uses_wmma = false;
  grt_status_t status =
      grtc_cuda_emit_with_lines(kernels, options, &source, lines, &uses_wmma);
  grtc_nvrtc_t nvrtc;
  memset(&nvrtc, 0, sizeof(nvrtc));
  if (grt_status_is_ok(status)) status = grtc_nvrtc_open(&nvrtc);
  if (grt_status_is_ok(status)) {
    status = grtc_nvrtc_compile(&nvrtc, kernels, arch, cc,
                                grt_string_builder_cstring(&source), lines, uses_wmma,
                                allocator, out_ptx, out_ptx_size);
  }
  grtc_nvrtc_close(&nvrtc);
  grt_string_builder_deinit(&source);
  grt_allocator_free(allocator, lines);
  if (grt_status_is_ok(status) && out_block_sizes) {
    for (uint32_t k = 0; k < kernels->count; ++k) {
      out_block_sizes[k] = grtc_cuda_block_size(kernels->kernels[k], options);
    }
  }
  return status;
}

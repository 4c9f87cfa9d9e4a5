// grt-compile: compiles a program to a module file (.vmfb).
//
//   grt-compile model.mlir -o model.vmfb [--target=cpu] [-O2]
//       [--output-format=vmfb|c-static] [--dump-after=PASS]
//       [--cpu-target=host|TRIPLE,...] [--cpu-cc=CC] [--cpu-flags=FLAGS]
//       [--cpu-features=host|generic|LIST]
//       [--cuda-arch=sm_80] [--cuda-allow-tf32] [--sign-key=SECRET-KEY]
//   grt-compile model.onnx -o model.vmfb [--onnx-input-shape=NAME:1x3x224x224]
//
// The input is an ONNX model (recognized by its bytes; docs/onnx.md) or
// MLIR text: StableHLO as JAX and TensorFlow export it, or a vm.module in
// IREE's vm dialect (assembled as written). The pipeline is
// compiler/driver; docs/compiler.md describes it and every flag. Exit
// status: 0 on success, 1 when compilation fails (diagnostics go to stderr
// as file:line:col: error: ...), 2 for a usage error.
#include <stdio.h>
#include <string.h>

#include "compiler/driver/driver.h"
#include "compiler/onnx/import.h"
#include "tools/flags.h"

typedef struct grt_compile_flags_t {
  const char* output;
  const char* target;
  const char* output_format;
  int64_t opt_level;
  const char* dump_after;
  const char* cpu_target;
  const char* cpu_cc;
  const char* cpu_flags;
  const char* cpu_features;
  const char* c_static_name;
  const char* sign_key;
  const char* cuda_arch;
  bool cuda_allow_tf32;
  bool version;
  bool list_onnx_ops;
  grt_flag_list_t onnx_input_shapes;
  grt_flag_list_t positionals;
} grt_compile_flags_t;

static grt_compile_flags_t flags = {.opt_level = 2};

static const grt_flag_t grt_compile_flag_table[] = {
    {"output", 'o', GRT_FLAG_STRING, &flags.output, "FILE",
     "where to write the module file, or the C file for c-static (required)"},
    {"target", 0, GRT_FLAG_STRING, &flags.target, "LIST",
     "comma-separated targets: cpu (default), vulkan, cuda"},
    {"output-format", 0, GRT_FLAG_STRING, &flags.output_format, "FORMAT",
     "vmfb (default) or c-static (C source: kernels + module bytes)"},
    {"opt-level", 'O', GRT_FLAG_INT, &flags.opt_level, "N",
     "optimization level 0..3 (-O0 .. -O3; default 2)"},
    {"dump-after", 0, GRT_FLAG_STRING, &flags.dump_after, "PASS",
     "print the program after PASS to stdout, one of:" GRTC_DUMP_PASS_NAMES},
    {"cpu-target", 0, GRT_FLAG_STRING, &flags.cpu_target, "LIST",
     "machines the CPU kernels are built for, one executable each: host (default) "
     "or GNU triples such as aarch64-linux-gnu (built with TRIPLE-gcc for the "
     "architecture's baseline unless --cpu-cc/--cpu-features say otherwise)"},
    {"cpu-cc", 0, GRT_FLAG_STRING, &flags.cpu_cc, "CC",
     "C compiler for the CPU kernels (default: $CC, else cc)"},
    {"cpu-flags", 0, GRT_FLAG_STRING, &flags.cpu_flags, "FLAGS",
     "extra flags for the CPU kernels' compiler"},
    {"cpu-features", 0, GRT_FLAG_STRING, &flags.cpu_features, "FEATURES",
     "host (default: this machine), generic, or a list such as avx2,fma"},
    {"cuda-arch", 0, GRT_FLAG_STRING, &flags.cuda_arch, "ARCH",
     "CUDA target: compute capability sm_XY (default sm_80)"},
    {"cuda-allow-tf32", 0, GRT_FLAG_BOOL, &flags.cuda_allow_tf32, NULL,
     "CUDA target: f32 matmuls may use tf32 tensor cores (10-bit mantissas)"},
    {"sign-key", 0, GRT_FLAG_STRING, &flags.sign_key, "FILE",
     "sign the module with the secret key FILE (grt-sign keygen; docs/tools.md)"},
    {"c-static-name", 0, GRT_FLAG_STRING, &flags.c_static_name, "NAME",
     "c-static: prefix of the emitted C names (default: the module's name)"},
    {"onnx-input-shape", 0, GRT_FLAG_LIST, &flags.onnx_input_shapes, "NAME:DIMS",
     "ONNX input: pin graph input NAME's shape, e.g. input:1x3x224x224 (repeatable)"},
    {"list-onnx-ops", 0, GRT_FLAG_BOOL, &flags.list_onnx_ops, NULL,
     "print the ONNX op types the importer supports and exit"},
    {"version", 0, GRT_FLAG_BOOL, &flags.version, NULL,
     "print the grt version and exit"},
};

static const grt_flags_spec_t grt_compile_flags_spec = {
    "grt-compile",
    "compiles an ONNX model or an MLIR program (StableHLO, or a vm.module) to a module file",
    "[flags] INPUT.{onnx,mlir} -o OUTPUT.vmfb", grt_compile_flag_table,
    sizeof(grt_compile_flag_table) / sizeof(grt_compile_flag_table[0]),
    &flags.positionals};

static const struct {
  const char* name;
  grtc_output_format_t format;
} grt_compile_output_formats[] = {
    {"vmfb", GRTC_OUTPUT_FORMAT_VMFB},
    {"c-static", GRTC_OUTPUT_FORMAT_C_STATIC},
};

static int grt_compile_usage_error(const char* format, const char* value) {
  fputs("grt-compile: ", stderr);
  fprintf(stderr, format, value);
  fputs("\n(run 'grt-compile --help' for usage)\n", stderr);
  return 2;
}

// Diagnostics already read "file:line:col: error: ..."; anything else
// (an unreadable file, a failing C compiler) gets the tool's name.
static void grt_compile_report(grt_status_t status) {
  const char* message = grt_status_message(status);
  if (strstr(message, ": error: ")) {
    fprintf(stderr, "%s\n", message);
  } else {
    fprintf(stderr, "grt-compile: error: %s\n", message);
  }
}

// Fills |options| from the flags; returns -1 to go on or an exit status.
static int grt_compile_options_from_flags(grtc_compile_options_t* options) {
  if (flags.positionals.count == 0) {
    return grt_compile_usage_error("missing the input file%s", "");
  }
  if (flags.positionals.count > 1) {
    return grt_compile_usage_error("expected one input file, got '%s' as well",
                                   flags.positionals.values[1]);
  }
  if (!flags.output) {
    return grt_compile_usage_error("missing the output file (-o OUTPUT.vmfb)%s", "");
  }
  if (flags.output_format) {
    size_t i = 0;
    size_t count = sizeof(grt_compile_output_formats) / sizeof(grt_compile_output_formats[0]);
    while (i < count && strcmp(flags.output_format, grt_compile_output_formats[i].name) != 0) {
      ++i;
    }
    if (i == count) {
      return grt_compile_usage_error(
          "--output-format takes vmfb or c-static, got '%s'", flags.output_format);
    }
    options->output_format = grt_compile_output_formats[i].format;
  }
  const struct {
    const char* flag;
    const char* value;
  } names[] = {{"--c-static-name", flags.c_static_name},
               {"--dump-after", flags.dump_after},
               {"--target", flags.target},
               {"--cpu-target", flags.cpu_target},
               {"--cuda-arch", flags.cuda_arch}};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    if (!names[i].value) continue;
    grt_status_t status = grt_flags_check_name_length(
        names[i].flag, names[i].value, strlen(names[i].value));
    if (!grt_status_is_ok(status)) {
      int code = grt_compile_usage_error("%s", grt_status_message(status));
      grt_status_free(status);
      return code;
    }
  }
  if (flags.opt_level < 0 || flags.opt_level > 3) {
    char given[32];
    snprintf(given, sizeof(given), "%lld", (long long)flags.opt_level);
    return grt_compile_usage_error("-O takes 0, 1, 2 or 3 (-O0 .. -O3), got %s", given);
  }
  options->opt_level = (grtc_opt_level_t)(GRTC_OPT_O0 + flags.opt_level);
  options->targets = flags.target;
  options->dump_after = flags.dump_after;
  options->cpu_targets = flags.cpu_target;
  options->cpu.cc = flags.cpu_cc;
  options->cpu.flags = flags.cpu_flags;
  options->cpu.features = flags.cpu_features;
  options->c_static_name = flags.c_static_name;
  options->cuda.arch = flags.cuda_arch;
  options->cuda.allow_tf32 = flags.cuda_allow_tf32;
  options->onnx_input_shapes = flags.onnx_input_shapes.values;
  options->onnx_input_shape_count = (uint32_t)flags.onnx_input_shapes.count;
  grt_status_t status = grtc_compile_options_validate(options);
  if (!grt_status_is_ok(status)) {
    int code = grt_compile_usage_error("%s", grt_status_message(status));
    grt_status_free(status);
    return code;
  }
  return -1;
}

int main(int argc, char** argv) {
  grt_allocator_t allocator = grt_allocator_system();
  int exit_code = grt_flags_parse_for_main(&grt_compile_flags_spec, argc, argv, allocator);
  if (exit_code < 0 && flags.version) {
    printf("grt-compile (grt) %s\n", grtc_compiler_version());
    exit_code = 0;
  }
  if (exit_code < 0 && flags.list_onnx_ops) {
    for (uint32_t i = 0; grtc_onnx_supported_op(i); ++i) printf("%s\n", grtc_onnx_supported_op(i));
    exit_code = 0;
  }
  grtc_compile_options_t options = {0};
  if (exit_code < 0) exit_code = grt_compile_options_from_flags(&options);
  grt_module_secret_key_t signing_key;
  if (exit_code < 0) {
    // The key is read before compiling, so a bad one fails at once.
    grt_status_t status = grt_ok_status();
    if (flags.sign_key) {
      status = grt_module_secret_key_read_file(flags.sign_key, allocator, &signing_key);
      status = grt_status_annotate(status, "--sign-key=%s", flags.sign_key);
      options.signing_key = &signing_key;
    }
    if (grt_status_is_ok(status)) {
      status = grtc_compile_file(flags.positionals.values[0], flags.output, &options, allocator);
    }
    memset(&signing_key, 0, sizeof(signing_key));
    exit_code = 0;
    if (!grt_status_is_ok(status)) {
      grt_compile_report(status);
      grt_status_free(status);
      exit_code = 1;
    }
  }
  grt_flags_release(&grt_compile_flags_spec, allocator);
  return exit_code;
}

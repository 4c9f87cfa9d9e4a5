// grt-compile: compiles a program to a module file (.vmfb).
//
//   grt-compile prog.mlir -o prog.vmfb
//
// The input is MLIR text holding a vm.module in IREE's vm dialect
// (compiler/driver). Exit status: 0 on success, 1 when compilation fails
// (the diagnostic goes to stderr), 2 for a usage error.
#include <stdio.h>

#include "compiler/driver/driver.h"
#include "tools/flags.h"

typedef struct grt_compile_flags_t {
  const char* output;
  grt_flag_list_t positionals;
} grt_compile_flags_t;

static grt_compile_flags_t flags;

static const grt_flag_t grt_compile_flag_table[] = {
    {"output", 'o', GRT_FLAG_STRING, &flags.output, "FILE",
     "where to write the module file (required)"},
};

static const grt_flags_spec_t grt_compile_flags_spec = {
    "grt-compile", "compiles an MLIR program (a vm.module) to a module file",
    "[flags] INPUT.mlir -o OUTPUT.vmfb", grt_compile_flag_table,
    sizeof(grt_compile_flag_table) / sizeof(grt_compile_flag_table[0]),
    &flags.positionals};

static int grt_compile_usage_error(const char* message) {
  fprintf(stderr, "grt-compile: %s\n(see grt-compile --help)\n", message);
  return 2;
}

int main(int argc, char** argv) {
  grt_allocator_t allocator = grt_allocator_system();
  int exit_code = grt_flags_parse_for_main(&grt_compile_flags_spec, argc, argv, allocator);
  if (exit_code < 0) {
    if (flags.positionals.count == 0) {
      exit_code = grt_compile_usage_error("missing the input file");
    } else if (flags.positionals.count > 1) {
      exit_code = grt_compile_usage_error("expected one input file");
    } else if (!flags.output) {
      exit_code = grt_compile_usage_error("missing the output file (-o OUTPUT.vmfb)");
    } else {
      grtc_compile_options_t options = {0};
      grt_status_t status =
          grtc_compile_file(flags.positionals.values[0], flags.output, &options, allocator);
      exit_code = 0;
      if (!grt_status_is_ok(status)) {
        fprintf(stderr, "grt-compile: %s\n", grt_status_message(status));
        grt_status_free(status);
        exit_code = 1;
      }
    }
  }
  grt_flags_release(&grt_compile_flags_spec, allocator);
  return exit_code;
}

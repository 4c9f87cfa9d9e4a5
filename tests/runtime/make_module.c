// Builds the module files tests/runtime runs: a vm-dialect program compiled
// by the driver plus one executable, a kernel library read from disk, so the
// program's hal.command_buffer.dispatch calls run real CPU kernels.
//
//   make_module [--format=FORMAT] INPUT.mlir LIBRARY OUTPUT.vmfb ENTRY...
//
// ENTRY is name:bindings:constants:workgroup_x (e.g. add_f32:3:0:64), one
// per kernel of the library in the order the program's dispatches number
// them; the local HAL rejects a module that leaves one of the library's
// kernels out. FORMAT defaults to the host's (cpu-x86_64, cpu-aarch64).
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "compiler/driver/driver.h"
#include "hal/local/executable.h"
#include "schemas/module_file.h"

#define MAX_ENTRY_POINTS 64

static void usage(FILE* out) {
  fprintf(out,
          "usage: make_module [--format=FORMAT] INPUT.mlir LIBRARY OUTPUT.vmfb "
          "ENTRY...\n"
          "  ENTRY: name:bindings:constants:workgroup_x, e.g. add_f32:3:0:64\n");
}

// Parses one ":<unsigned>" field of |text| at *cursor.
static bool parse_field(const char** cursor, uint32_t* out_value) {
  if (**cursor != ':') return false;
  ++*cursor;
  char* end = NULL;
  errno = 0;
  unsigned long value = strtoul(*cursor, &end, 10);
  if (end == *cursor || errno || value > UINT32_MAX || **cursor == '-') return false;
  *cursor = end;
  *out_value = (uint32_t)value;
  return true;
}

static grt_status_t parse_entry(const char* text, grt_module_entry_point_t* out_entry) {
  const char* colon = strchr(text, ':');
  const char* cursor = colon;
  uint32_t workgroup_x = 0;
  if (!colon || colon == text || !parse_field(&cursor, &out_entry->binding_count) ||
      !parse_field(&cursor, &out_entry->constant_count) ||
      !parse_field(&cursor, &workgroup_x) || *cursor != '\0' || workgroup_x == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "entry point '%s': expected name:bindings:constants:"
                           "workgroup_x (workgroup_x at least 1)",
                           text);
  }
  out_entry->name = grt_make_string_view(text, (size_t)(colon - text));
  out_entry->workgroup_size[0] = workgroup_x;
  out_entry->workgroup_size[1] = 1;
  out_entry->workgroup_size[2] = 1;
  // The hand-written kernels' bindings are not described (every binding
  // may be written, no minimum lengths).
  out_entry->binding_access = NULL;
  out_entry->binding_min_lengths = NULL;
  return grt_ok_status();
}

static grt_status_t make_module(const char* format, const char* input, const char* library,
                                const char* output, const grt_module_entry_point_t* entries,
                                uint32_t entry_count) {
  grt_allocator_t allocator = grt_allocator_system();
  grt_file_contents_t source = {0};
  grt_file_contents_t binary = {0};
  grt_module_writer_t* writer = NULL;
  grt_status_t status = grt_file_read_contents(input, allocator, &source);
  if (grt_status_is_ok(status)) status = grt_file_read_contents(library, allocator, &binary);
  if (grt_status_is_ok(status)) status = grt_module_writer_create(allocator, &writer);
  if (grt_status_is_ok(status)) {
    grtc_compile_options_t options = {0};
    status = grtc_compile_source(source.data, source.size, input, &options, allocator, writer);
  }
  if (grt_status_is_ok(status)) {
    grt_module_executable_t executable = {
        grt_make_cstring_view(format), entry_count,
        grt_make_const_byte_span(binary.data, binary.size), NULL};
    uint32_t ordinal = 0;
    status = grt_module_writer_add_executable(writer, &executable, entries, entry_count,
                                              &ordinal);
  }
  if (grt_status_is_ok(status)) status = grt_module_writer_write_file(writer, output);
  grt_module_writer_destroy(writer);
  grt_file_contents_free(&binary);
  grt_file_contents_free(&source);
  return status;
}

int main(int argc, char** argv) {
  const char* format = grt_hal_local_host_executable_format();
  int first = 1;
  if (argc > 1 && strncmp(argv[1], "--format=", 9) == 0) {
    format = argv[1] + 9;
    first = 2;
  }
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    usage(stdout);
    return 0;
  }
  int entry_count = argc - first - 3;
  if (entry_count < 1 || entry_count > MAX_ENTRY_POINTS || !*format) {
    usage(stderr);
    return 2;
  }
  grt_module_entry_point_t entries[MAX_ENTRY_POINTS];
  grt_status_t status = grt_ok_status();
  for (int i = 0; i < entry_count && grt_status_is_ok(status); ++i) {
    status = parse_entry(argv[first + 3 + i], &entries[i]);
  }
  if (grt_status_is_ok(status)) {
    status = make_module(format, argv[first], argv[first + 1], argv[first + 2], entries,
                         (uint32_t)entry_count);
  }
  if (!grt_status_is_ok(status)) {
    fprintf(stderr, "make_module: ");
    grt_status_fprint(stderr, status);
    grt_status_free(status);
    return 1;
  }
  return 0;
}

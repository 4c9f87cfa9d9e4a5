#include "compiler/driver/driver.h"

#include "compiler/mlir/parser.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/vm_syntax.h"

static const grtc_dialect_syntax_t* const grtc_driver_dialects[] = {
    &grtc_vm_dialect_syntax,
};
static const grtc_parse_options_t grtc_driver_parse_options = {
    grtc_driver_dialects,
    sizeof(grtc_driver_dialects) / sizeof(grtc_driver_dialects[0]),
};

// Assembles the parsed |module| into |writer| and frees the module.
static grt_status_t grtc_driver_assemble(grtc_module_t* module,
                                         grt_allocator_t allocator,
                                         grt_module_writer_t* writer) {
  grtc_operation_t* vm_module = grtc_vm_find_module(module);
  grt_status_t status =
      vm_module ? grtc_vm_assemble(vm_module, module->file_name, allocator, writer)
                : grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                                  "expected a vm.module in '%s'", module->file_name);
  grtc_module_destroy(module);
  return status;
}

grt_status_t grtc_compile_source(const char* source, size_t source_size,
                                 const char* file_name,
                                 const grtc_compile_options_t* options,
                                 grt_allocator_t allocator,
                                 grt_module_writer_t* writer) {
  (void)options;
  grtc_module_t* module = NULL;
  GRT_RETURN_IF_ERROR(grtc_parse_source(grt_make_string_view(source, source_size), file_name,
                                        &grtc_driver_parse_options, allocator, &module));
  return grtc_driver_assemble(module, allocator, writer);
}

grt_status_t grtc_compile_file(const char* input_path, const char* output_path,
                               const grtc_compile_options_t* options,
                               grt_allocator_t allocator) {
  (void)options;
  grtc_module_t* module = NULL;
  GRT_RETURN_IF_ERROR(
      grtc_parse_file(input_path, &grtc_driver_parse_options, allocator, &module));
  grt_module_writer_t* writer = NULL;
  grt_status_t status = grt_module_writer_create(allocator, &writer);
  if (!grt_status_is_ok(status)) {
    grtc_module_destroy(module);
    return status;
  }
  status = grtc_driver_assemble(module, allocator, writer);
  if (grt_status_is_ok(status)) status = grt_module_writer_write_file(writer, output_path);
  grt_module_writer_destroy(writer);
  return status;
}

// The vm/ test module from vm-dialect text, for the compiler/vm_asm tests
// that run what they assemble. Include after <cmocka.h>.
#ifndef GRTC_VM_ASM_ASSEMBLE_TEST_SUPPORT_H_
#define GRTC_VM_ASM_ASSEMBLE_TEST_SUPPORT_H_

#include <string.h>

#include "compiler/mlir/parser.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/vm_syntax.h"
#include "vm/test_support.h"

static const grtc_dialect_syntax_t* const kDialects[] = {&grtc_vm_dialect_syntax};
static const grtc_parse_options_t kOptions = {kDialects, 1};

// Parses and assembles |source| (named "prog.mlir"); on success the module
// file is open in t->file. Returns the first failure.
static inline grt_status_t assemble(const char* source, grt_vm_test_module_t* t) {
  memset(t, 0, sizeof(*t));
  t->allocator = grt_allocator_system();
  grtc_module_t* module = NULL;
  GRT_RETURN_IF_ERROR(grtc_parse_source(grt_make_cstring_view(source), "prog.mlir",
                                        &kOptions, t->allocator, &module));
  grtc_operation_t* vm_module = grtc_vm_find_module(module);
  assert_non_null(vm_module);
  grt_status_t status = grt_module_writer_create(t->allocator, &t->writer);
  if (grt_status_is_ok(status)) {
    status = grtc_vm_assemble(vm_module, module->file_name, t->allocator, t->writer);
  }
  grtc_module_destroy(module);
  if (grt_status_is_ok(status)) {
    status = grt_module_writer_finish(t->writer, &t->file_data, &t->file_size);
  }
  if (grt_status_is_ok(status)) {
    status = grt_module_file_open_memory(
        grt_make_const_byte_span(t->file_data, t->file_size), t->allocator, &t->file);
  }
  return status;
}

#endif  // GRTC_VM_ASM_ASSEMBLE_TEST_SUPPORT_H_

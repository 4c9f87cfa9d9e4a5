// The compiler driver: one input file to one module file, the pipeline
// behind grt-compile (and anything else that compiles programmatically).
//
// For now the input is MLIR text holding a vm.module (the vm dialect as
// IREE spells it), assembled by compiler/vm_asm. Front-ends for other
// dialects plug in here as they arrive.
#ifndef GRT_COMPILER_DRIVER_DRIVER_H_
#define GRT_COMPILER_DRIVER_DRIVER_H_

#include "base/allocator.h"
#include "base/status.h"
#include "schemas/module_file.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_compile_options_t {
  // Reserved: nothing to choose yet. Zero-initialize.
  uint32_t flags;
} grtc_compile_options_t;

// Parses |input_path| (with the vm dialect's pretty forms registered),
// assembles its vm.module and writes the result to |output_path|. Errors
// are file:line:col diagnostics from the parser and the assembler, or name
// the file that could not be read or written.
grt_status_t grtc_compile_file(const char* input_path, const char* output_path,
                               const grtc_compile_options_t* options,
                               grt_allocator_t allocator) GRT_MUST_USE;

// As grtc_compile_file, from text in memory (|file_name| names it in
// diagnostics) into |writer|, for callers that keep the result in memory.
grt_status_t grtc_compile_source(const char* source, size_t source_size,
                                 const char* file_name,
                                 const grtc_compile_options_t* options,
                                 grt_allocator_t allocator,
                                 grt_module_writer_t* writer) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_DRIVER_DRIVER_H_

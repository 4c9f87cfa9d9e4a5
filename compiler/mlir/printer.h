// Printer: the generic op form of a module, for tests and debugging.
//
// Every op prints as "name"(operands)[successors] <{properties}>
// ({regions}) {attributes} : (types) -> (types), so the output parses
// without any pretty-form tables and printing what it parses gives the same
// text again. Value names are kept from the source; block labels are
// renumbered ^bb0, ^bb1, ... per region; location aliases print inline.
#ifndef GRT_COMPILER_MLIR_PRINTER_H_
#define GRT_COMPILER_MLIR_PRINTER_H_

#include <stddef.h>

#include "compiler/mlir/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grtc_print_flags_e {
  GRTC_PRINT_LOCATIONS = 1u << 0,  // append loc(...) to ops that have one
} grtc_print_flags_t;

// Prints the module's top-level ops. *out_text is NUL-terminated and freed
// with |allocator|.
grt_status_t grtc_print_module(const grtc_module_t* module, uint32_t flags,
                               grt_allocator_t allocator, char** out_text,
                               size_t* out_length) GRT_MUST_USE;

// Writes |type| / |attribute| as MLIR text into |buffer| (always
// NUL-terminated when |capacity| > 0, truncated if it must be) and returns
// the full length, like snprintf. For diagnostics.
size_t grtc_format_type(const grtc_type_t* type, char* buffer, size_t capacity);
size_t grtc_format_attribute(const grtc_attribute_t* attribute, char* buffer,
                             size_t capacity);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_MLIR_PRINTER_H_

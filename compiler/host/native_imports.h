// The imports a host program may declare: every export of the runtime's
// native modules (`hal`, `check`), read from their ABI tables
// (runtime/hal_abi.h, runtime/check_abi.h; docs/architecture.md §9). The
// compiler declares its vm.import ops from these rows instead of spelling
// the signatures itself, so a program and the runtime it runs on agree by
// construction.
//
//   const grtc_native_import_t* dispatch =
//       grtc_native_import_lookup(grt_make_cstring_view(
//           "hal.command_buffer.dispatch"));
//   grtc_native_import_append_declaration(dispatch, &out);
//   // vm.import private @hal.command_buffer.dispatch(%cb : !hal.command_buffer,
//   //     ..., %constants : i32 ..., %bindings : tuple<i32, !hal.buffer, i64,
//   //     i64> ...)
#ifndef GRT_COMPILER_HOST_NATIVE_IMPORTS_H_
#define GRT_COMPILER_HOST_NATIVE_IMPORTS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/string_builder.h"
#include "base/string_view.h"

#ifdef __cplusplus
extern "C" {
#endif

// One value of a signature. A plain value has a |type|; a variadic span
// (`%name : <type> ...`, an i32 count then that many groups) has its
// group's values in |group|, and |type| NULL.
typedef struct grtc_native_value_t {
  const char* name;  // "bindings"
  const char* type;  // vm dialect spelling: "i32", "i64", "f32", "f64",
                     // "!hal.buffer", "!vm.buffer", ...; NULL for a span
  uint32_t group_count;  // values per group of a span; 0 for a plain value
  const struct grtc_native_value_t* group;
} grtc_native_value_t;

typedef struct grtc_native_import_t {
  const char* name;                // "hal.command_buffer.dispatch"
  const char* calling_convention;  // "0rriiiiCiDCirIID_v" (vm/signature.h)
  bool optional;                   // declared `optional`: may be absent
  const char* doc;                 // one line: what it does
  uint32_t argument_count;
  const grtc_native_value_t* arguments;
  uint32_t result_count;
  const grtc_native_value_t* results;  // plain values only
} grtc_native_import_t;

// All imports: the hal module's exports, then the check module's, each in
// its table's (sorted) order.
size_t grtc_native_import_count(void);
const grtc_native_import_t* grtc_native_import_at(size_t index);

// The import with full name |name| ("hal.fence.await"), or NULL.
const grtc_native_import_t* grtc_native_import_lookup(grt_string_view_t name);

// Appends |value|'s vm dialect type: "!hal.fence", or for a span its
// element type followed by " ...": "i64 ...", "tuple<!hal.buffer, i64,
// i64> ...".
void grtc_native_value_append_type(const grtc_native_value_t* value,
                                   grt_string_builder_t* out);

// Appends the declaration, without indentation or newline:
// "vm.import private [optional ]@hal.buffer.length(%buffer : !hal.buffer)
// -> i64" (results: none, "-> t" or "-> (t, u)").
void grtc_native_import_append_declaration(const grtc_native_import_t* import,
                                           grt_string_builder_t* out);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_HOST_NATIVE_IMPORTS_H_

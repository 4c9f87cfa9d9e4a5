// Calling-convention strings: the one description of a function's
// arguments and results that modules, the context and invoke share.
//
// Grammar (IREE's spelling): "0" <arguments> "_" <results>, each side a
// run of type characters (i=i32, I=i64, f=f32, F=f64, r=ref) or "v" (or
// nothing) for none. Arguments may contain variadic spans "C<types>D": an
// i32 count followed by that many groups of <types>. Spans do not nest and
// do not appear in results. Examples: "0v_v", "0iI_r", "0rCiD_v".
//
// Packed buffers: calls pass arguments and results as packed buffers laid
// out like a C struct whose members are the values in order (each at the
// next offset aligned to its alignment; the total rounded up to
// GRT_VM_PACKED_ALIGNMENT). A native function may therefore view its
// arguments through a struct such as `struct { grt_vm_ref_t b; int64_t n; }`.
// A span is its i32 count followed by its groups, each group laid out the
// same way.
#ifndef GRT_VM_SIGNATURE_H_
#define GRT_VM_SIGNATURE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/inline.h"
#include "base/status.h"
#include "base/string_view.h"
#include "vm/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

// Packed buffers are allocated with at least this alignment; it is the
// largest alignment of any value type.
#define GRT_VM_PACKED_ALIGNMENT 8

typedef struct grt_vm_signature_t {
  grt_string_view_t text;       // the whole string as given
  grt_string_view_t arguments;  // type characters; empty for "v"
  grt_string_view_t results;    // type characters; empty for "v"
  bool variadic;                // arguments contain a span
  // Packed sizes. For a variadic signature argument_bytes is the size with
  // every span's count 0.
  size_t argument_bytes;
  size_t result_bytes;
} grt_vm_signature_t;

// Parses and validates |text| (which must outlive the result). Errors
// quote the string and name the position and the offending character.
grt_status_t grt_vm_signature_parse(grt_string_view_t text,
                                    grt_vm_signature_t* out_signature)
    GRT_MUST_USE;

// Whether two parsed signatures describe the same call ("0_v" equals
// "0v_v").
bool grt_vm_signature_equal(const grt_vm_signature_t* a,
                            const grt_vm_signature_t* b);

// OK when |exported| matches what the import |import_name| expects, else
// INCOMPATIBLE: "import 'hal.buffer.length' expects signature 0r_I but
// module 'hal' exports 0r_i".
grt_status_t grt_vm_signature_check_import(grt_string_view_t import_name,
                                           const grt_vm_signature_t* expected,
                                           grt_string_view_t module_name,
                                           const grt_vm_signature_t* exported)
    GRT_MUST_USE;

// Places one value of |type| in a packed buffer of *inout_size bytes:
// returns its offset and grows *inout_size past it.
static GRT_ALWAYS_INLINE size_t grt_vm_packed_place(size_t* inout_size,
                                         grt_vm_value_type_t type) {
  size_t align = grt_vm_value_type_alignment(type);
  size_t offset = (*inout_size + align - 1) & ~(align - 1);
  *inout_size = offset + grt_vm_value_type_size(type);
  return offset;
}

// The final size of a packed buffer whose values end at |size|.
static inline size_t grt_vm_packed_finish(size_t size) {
  return (size + GRT_VM_PACKED_ALIGNMENT - 1) &
         ~(size_t)(GRT_VM_PACKED_ALIGNMENT - 1);
}

// The packed size of the values of |types| (a validated argument or result
// run) when its spans, in order, have the counts in |span_counts|
// (NULL: every span empty). |span_count_count| must equal the number of
// spans and no count may be negative, else INVALID_ARGUMENT.
grt_status_t grt_vm_signature_packed_size(grt_string_view_t types,
                                          const int32_t* span_counts,
                                          size_t span_count_count,
                                          size_t* out_size) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_SIGNATURE_H_

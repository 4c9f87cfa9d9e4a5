// vm.list: a ref-counted, growable array of typed elements.
//
// A list's element type is fixed at creation (grt_vm_type_def_t): one
// primitive type, refs of one type, refs of any type, or variants. Storage
// is packed by element type, so an i32 list costs 4 bytes an element.
// Accessors check the index ("list index 5 out of range: size 3") and the
// type ("list element type mismatch: list holds i64, accessed as i32");
// they never convert between types, except that i8 and i16 lists (IREE's
// !vm.list<i8>, !vm.list<i16>) are read as i32/i64, sign-extended, and
// written from i32/i64, keeping the low bits, as IREE converts. Ref
// elements are owned by the list: setting retains, overwriting and
// shrinking release.
//
// Cycles: a list may hold itself or lists that hold it (through ref lists
// or variant lists). Such lists are freed when the last reference from
// outside them is released: a list that has ever held a list releases
// under a process-wide mutex and, when its count stays above zero, counts
// the references among the lists it reaches (trial deletion); lists not
// held from outside that set, nor reachable from one that is, have their
// elements dropped and are freed. The cost is proportional to the lists
// reachable from the released one and is paid only by lists that have held
// a list; other lists release as any ref. Cycles through other ref types
// (none of the built-in ones can hold a list) are not found.
#ifndef GRT_VM_LIST_H_
#define GRT_VM_LIST_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "vm/ref.h"
#include "vm/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_vm_list_t grt_vm_list_t;

// The vm.list ref type (registered by every instance).
grt_vm_ref_type_t grt_vm_list_type(void);
const grt_vm_ref_type_descriptor_t* grt_vm_list_type_descriptor(void);

// An empty list with room for |initial_capacity| elements.
grt_status_t grt_vm_list_create(grt_vm_type_def_t element_type,
                                size_t initial_capacity,
                                grt_allocator_t allocator,
                                grt_vm_list_t** out_list) GRT_MUST_USE;
void grt_vm_list_retain(grt_vm_list_t* list);
void grt_vm_list_release(grt_vm_list_t* list);

// INVALID_ARGUMENT unless |ref| is a non-null vm.list.
grt_status_t grt_vm_list_check_deref(const grt_vm_ref_t* ref,
                                     grt_vm_list_t** out_list) GRT_MUST_USE;

grt_vm_type_def_t grt_vm_list_element_type(const grt_vm_list_t* list);
size_t grt_vm_list_size(const grt_vm_list_t* list);
size_t grt_vm_list_capacity(const grt_vm_list_t* list);

// Grows the storage to hold at least |minimum_capacity| elements.
grt_status_t grt_vm_list_reserve(grt_vm_list_t* list, size_t minimum_capacity)
    GRT_MUST_USE;
// New elements are zero, null refs or empty variants; dropped elements
// release their refs.
grt_status_t grt_vm_list_resize(grt_vm_list_t* list, size_t new_size)
    GRT_MUST_USE;

grt_status_t grt_vm_list_get_i32(const grt_vm_list_t* list, size_t index,
                                 int32_t* out_value) GRT_MUST_USE;
grt_status_t grt_vm_list_get_i64(const grt_vm_list_t* list, size_t index,
                                 int64_t* out_value) GRT_MUST_USE;
grt_status_t grt_vm_list_get_f32(const grt_vm_list_t* list, size_t index,
                                 float* out_value) GRT_MUST_USE;
grt_status_t grt_vm_list_get_f64(const grt_vm_list_t* list, size_t index,
                                 double* out_value) GRT_MUST_USE;
grt_status_t grt_vm_list_set_i32(grt_vm_list_t* list, size_t index,
                                 int32_t value) GRT_MUST_USE;
grt_status_t grt_vm_list_set_i64(grt_vm_list_t* list, size_t index,
                                 int64_t value) GRT_MUST_USE;
grt_status_t grt_vm_list_set_f32(grt_vm_list_t* list, size_t index,
                                 float value) GRT_MUST_USE;
grt_status_t grt_vm_list_set_f64(grt_vm_list_t* list, size_t index,
                                 double value) GRT_MUST_USE;

// Stores a new reference to the element in *inout_ref, releasing what
// *inout_ref held (it must hold a valid ref or null). Works on ref lists and
// on variant lists whose element is a ref or empty (never set: null, as in
// IREE); a primitive element or a list of primitives is a type mismatch.
grt_status_t grt_vm_list_get_ref_assign(const grt_vm_list_t* list,
                                        size_t index, grt_vm_ref_t* inout_ref)
    GRT_MUST_USE;
// Stores a new reference to |ref|'s object (null allowed).
grt_status_t grt_vm_list_set_ref_retain(grt_vm_list_t* list, size_t index,
                                        const grt_vm_ref_t* ref) GRT_MUST_USE;
// Moves |ref|'s reference into the list; on success |ref| is left null, on
// failure it is untouched.
grt_status_t grt_vm_list_set_ref_move(grt_vm_list_t* list, size_t index,
                                      grt_vm_ref_t* ref) GRT_MUST_USE;

// The element as a variant (a ref element is retained); *inout_variant is
// reset first. Works on every list.
grt_status_t grt_vm_list_get_variant_assign(const grt_vm_list_t* list,
                                            size_t index,
                                            grt_vm_variant_t* inout_variant)
    GRT_MUST_USE;
// Stores |variant| (retaining a ref) if the element type accepts it.
grt_status_t grt_vm_list_set_variant(grt_vm_list_t* list, size_t index,
                                     const grt_vm_variant_t* variant)
    GRT_MUST_USE;
// Appends |variant| (size grows by one).
grt_status_t grt_vm_list_push_variant(grt_vm_list_t* list,
                                      const grt_vm_variant_t* variant)
    GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_LIST_H_

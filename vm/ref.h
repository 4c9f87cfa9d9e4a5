// Refs: the VM's one handle to a reference-counted object.
//
// A ref is a (pointer, type) pair. The type is a pointer to a descriptor
// that names the type and says how to destroy an object and where its
// counter lives, so retain/release never need a registry lookup: they are a
// few inline instructions on the interpreter's hot path. The null ref has
// type NULL (0) and ptr NULL.
//
// Every ref-counted object embeds a grt_vm_ref_object_t at the offset its
// descriptor names. Descriptors are static data owned by the code that
// defines the type (vm.buffer in vm/buffer.c, the HAL's types in runtime/);
// an instance registers them so modules can find them by name.
//
// Ownership: a grt_vm_ref_t variable either holds one reference (and must
// be released) or is null. The *_assign/_move helpers release whatever the
// destination held before.
#ifndef GRT_VM_REF_H_
#define GRT_VM_REF_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Embedded in every ref-counted object. Starts at 1 for the creator.
typedef struct grt_vm_ref_object_t {
  atomic_uint_least32_t counter;
} grt_vm_ref_object_t;

typedef struct grt_vm_ref_type_descriptor_t {
  // Registry key and the spelling used in messages, e.g. "vm.buffer".
  const char* name;
  // Called once, when the last reference is released.
  void (*destroy)(void* ptr);
  // offsetof(<object struct>, <grt_vm_ref_object_t member>).
  size_t counter_offset;
} grt_vm_ref_type_descriptor_t;

// NULL is the null type.
typedef const grt_vm_ref_type_descriptor_t* grt_vm_ref_type_t;

typedef struct grt_vm_ref_t {
  void* ptr;
  grt_vm_ref_type_t type;
} grt_vm_ref_t;

static inline void grt_vm_ref_object_initialize(grt_vm_ref_object_t* object) {
  atomic_init(&object->counter, 1u);
}

static inline atomic_uint_least32_t* grt_vm_ref_counter_(void* ptr,
                                                         grt_vm_ref_type_t type) {
  return &((grt_vm_ref_object_t*)((char*)ptr + type->counter_offset))->counter;
}

// Adds a reference to a non-NULL object of |type|.
static inline void grt_vm_ref_object_retain(void* ptr, grt_vm_ref_type_t type) {
  // Relaxed: taking a new reference needs no ordering, only atomicity.
  atomic_fetch_add_explicit(grt_vm_ref_counter_(ptr, type), 1u,
                            memory_order_relaxed);
}

// vm.list (vm/list.c) releases through grt_vm_list_release_object: a list
// that has held another list may close a cycle, which that release finds and
// frees (vm/list.h, "Cycles").
extern const grt_vm_ref_type_descriptor_t grt_vm_list_descriptor;
void grt_vm_list_release_object(void* ptr);

// Drops a reference to a non-NULL object of |type|, destroying it when that
// was the last one.
static inline void grt_vm_ref_object_release_body_(void* ptr,
                                                   grt_vm_ref_type_t type) {
  if (type == &grt_vm_list_descriptor) {
    grt_vm_list_release_object(ptr);
    return;
  }
  // acq_rel: every write made through other references must be visible to
  // the thread that runs destroy.
  if (atomic_fetch_sub_explicit(grt_vm_ref_counter_(ptr, type), 1u,
                                memory_order_acq_rel) == 1u) {
    type->destroy(ptr);
  }
}

// The same body out of line (vm/ref.c). Size builds (-Os, which defines
// __OPTIMIZE_SIZE__) call it instead of inlining the body at every site
// and emitting a local copy in every object that does not; the speed build
// inlines it.
void grt_vm_ref_object_release_out_of_line(void* ptr, grt_vm_ref_type_t type);

static inline void grt_vm_ref_object_release(void* ptr, grt_vm_ref_type_t type) {
#if defined(__OPTIMIZE_SIZE__)
  grt_vm_ref_object_release_out_of_line(ptr, type);
#else
  grt_vm_ref_object_release_body_(ptr, type);
#endif
}

// The current count, for tests and diagnostics only (racy by nature).
static inline uint32_t grt_vm_ref_object_count(void* ptr,
                                               grt_vm_ref_type_t type) {
  return (uint32_t)atomic_load_explicit(grt_vm_ref_counter_(ptr, type),
                                        memory_order_relaxed);
}

static inline grt_vm_ref_t grt_vm_ref_null(void) {
  grt_vm_ref_t ref = {NULL, NULL};
  return ref;
}

static inline bool grt_vm_ref_is_null(const grt_vm_ref_t* ref) {
  return ref->ptr == NULL;
}

// Wraps an object the caller already holds a reference to; that reference
// moves into the ref (no retain). |ptr| may be NULL (gives the null ref).
static inline grt_vm_ref_t grt_vm_ref_wrap_move(void* ptr,
                                                grt_vm_ref_type_t type) {
  grt_vm_ref_t ref = {ptr, ptr ? type : NULL};
  return ref;
}

// Wraps an object and takes a new reference to it.
static inline grt_vm_ref_t grt_vm_ref_wrap_retain(void* ptr,
                                                  grt_vm_ref_type_t type) {
  if (ptr) grt_vm_ref_object_retain(ptr, type);
  return grt_vm_ref_wrap_move(ptr, type);
}

// Adds a reference; a null ref is left alone.
static inline void grt_vm_ref_retain(const grt_vm_ref_t* ref) {
  if (ref->ptr) grt_vm_ref_object_retain(ref->ptr, ref->type);
}

// Drops the reference |ref| holds (if any) and leaves it null.
static inline void grt_vm_ref_release_body_(grt_vm_ref_t* ref) {
  grt_vm_ref_t old = *ref;
  *ref = grt_vm_ref_null();
  // Cleared before destroy so a destructor that looks back at |ref| (e.g. a
  // list releasing its own slot) sees null, not a dangling pointer.
  if (old.ptr) grt_vm_ref_object_release(old.ptr, old.type);
}

// The same out of line (vm/ref.c), for size builds as
// grt_vm_ref_object_release_out_of_line.
void grt_vm_ref_release_out_of_line(grt_vm_ref_t* ref);

static inline void grt_vm_ref_release(grt_vm_ref_t* ref) {
#if defined(__OPTIMIZE_SIZE__)
  grt_vm_ref_release_out_of_line(ref);
#else
  grt_vm_ref_release_body_(ref);
#endif
}

// *dst = *src with a new reference; the old *dst is released. Safe when
// dst == src or both name the same object.
static inline void grt_vm_ref_assign(grt_vm_ref_t* dst, const grt_vm_ref_t* src) {
  grt_vm_ref_t incoming = *src;
  grt_vm_ref_retain(&incoming);
  grt_vm_ref_release(dst);
  *dst = incoming;
}

// Moves *src's reference into *dst (releasing the old *dst) and leaves *src
// null. This is what a ref operand with the move bit does.
static inline void grt_vm_ref_move(grt_vm_ref_t* dst, grt_vm_ref_t* src) {
  if (dst == src) return;
  grt_vm_ref_t incoming = *src;
  *src = grt_vm_ref_null();
  grt_vm_ref_release(dst);
  *dst = incoming;
}

// "null" for the null type.
static inline const char* grt_vm_ref_type_name(grt_vm_ref_type_t type) {
  return type ? type->name : "null";
}

// The object if |ref| is non-null and of |type|, else NULL.
static inline void* grt_vm_ref_as(const grt_vm_ref_t* ref,
                                  grt_vm_ref_type_t type) {
  return ref->type == type ? ref->ptr : NULL;
}

// OK when |ref| is a non-null ref of |type|. Otherwise INVALID_ARGUMENT:
// "expected ref<vm.buffer>, got ref<vm.list>" or "..., got a null ref".
grt_status_t grt_vm_ref_check_type(const grt_vm_ref_t* ref,
                                   grt_vm_ref_type_t type) GRT_MUST_USE;

// As grt_vm_ref_check_type and returns the object through |out_ptr|.
grt_status_t grt_vm_ref_deref(const grt_vm_ref_t* ref, grt_vm_ref_type_t type,
                              void** out_ptr) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_REF_H_

#include "vm/list.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "base/checked_math.h"

struct grt_vm_list_t {
  grt_vm_ref_object_t ref_object;
  grt_allocator_t allocator;
  grt_vm_type_def_t element_type;
  size_t element_size;  // bytes per slot in |storage|
  size_t size;
  size_t capacity;
  uint8_t* storage;  // capacity slots; slots >= size are all-zero
  // Set (never cleared) when a vm.list ref is first stored in the list:
  // only such a list can close a cycle, so only its releases look for one.
  atomic_bool may_hold_lists;
  // Cycle search scratch, guarded by grt_vm_list_cycle_mutex: 1 + the
  // list's index in the search's work array, 0 when not being searched.
  size_t cycle_index;
};

static void grt_vm_list_drop_elements(grt_vm_list_t* list, size_t from,
                                      size_t to);

static void grt_vm_list_destroy(void* ptr) {
  grt_vm_list_t* list = ptr;
  grt_vm_list_drop_elements(list, 0, list->size);
  grt_allocator_free(list->allocator, list->storage);
  grt_allocator_free(list->allocator, list);
}

const grt_vm_ref_type_descriptor_t grt_vm_list_descriptor = {
    "vm.list",
    grt_vm_list_destroy,
    offsetof(grt_vm_list_t, ref_object),
};

grt_vm_ref_type_t grt_vm_list_type(void) { return &grt_vm_list_descriptor; }

const grt_vm_ref_type_descriptor_t* grt_vm_list_type_descriptor(void) {
  return &grt_vm_list_descriptor;
}

static bool grt_vm_list_holds_variants(const grt_vm_list_t* list) {
  return list->element_type.value_type == GRT_VM_VALUE_TYPE_NONE;
}

static grt_vm_variant_t* grt_vm_list_variant_slot(const grt_vm_list_t* list,
                                                  size_t index) {
  return (grt_vm_variant_t*)(list->storage + index * list->element_size);
}

static void* grt_vm_list_slot(const grt_vm_list_t* list, size_t index) {
  return list->storage + index * list->element_size;
}

// Releases the refs held in [from, to) and zeroes those slots.
static void grt_vm_list_drop_elements(grt_vm_list_t* list, size_t from,
                                      size_t to) {
  for (size_t i = from; i < to; ++i) {
    if (grt_vm_list_holds_variants(list)) {
      grt_vm_variant_reset(grt_vm_list_variant_slot(list, i));
    } else if (list->element_type.value_type == GRT_VM_VALUE_TYPE_REF) {
      grt_vm_ref_release((grt_vm_ref_t*)grt_vm_list_slot(list, i));
    }
  }
  if (to > from) {
    memset(grt_vm_list_slot(list, from), 0, (to - from) * list->element_size);
  }
}

grt_status_t grt_vm_list_create(grt_vm_type_def_t element_type,
                                size_t initial_capacity,
                                grt_allocator_t allocator,
                                grt_vm_list_t** out_list) {
  *out_list = NULL;
  size_t element_size = 0;
  switch (element_type.value_type) {
    case GRT_VM_VALUE_TYPE_NONE:
      element_size = sizeof(grt_vm_variant_t);
      break;
    case GRT_VM_VALUE_TYPE_I8:
    case GRT_VM_VALUE_TYPE_I16:
    case GRT_VM_VALUE_TYPE_I32:
    case GRT_VM_VALUE_TYPE_I64:
    case GRT_VM_VALUE_TYPE_F32:
    case GRT_VM_VALUE_TYPE_F64:
    case GRT_VM_VALUE_TYPE_REF:
      element_size = grt_vm_value_type_size(element_type.value_type);
      break;
    default:
      return grt_make_status(
          GRT_STATUS_INVALID_ARGUMENT,
          "list element type %d is not a list element type (expected 0-%d: "
          "variant, i32, i64, f32, f64, ref, i8, i16)",
          (int)element_type.value_type, GRT_VM_LIST_ELEMENT_TYPE_COUNT - 1);
  }
  grt_vm_list_t* list = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*list), (void**)&list));
  grt_vm_ref_object_initialize(&list->ref_object);
  list->allocator = allocator;
  list->element_type = element_type;
  if (element_type.value_type != GRT_VM_VALUE_TYPE_REF) {
    list->element_type.ref_type = NULL;
  }
  list->element_size = element_size;
  grt_status_t status = grt_vm_list_reserve(list, initial_capacity);
  if (!grt_status_is_ok(status)) {
    grt_vm_list_release(list);
    return status;
  }
  *out_list = list;
  return grt_ok_status();
}

void grt_vm_list_retain(grt_vm_list_t* list) {
  if (list) grt_vm_ref_object_retain(list, &grt_vm_list_descriptor);
}

void grt_vm_list_release(grt_vm_list_t* list) {
  if (list) grt_vm_ref_object_release(list, &grt_vm_list_descriptor);
}

grt_status_t grt_vm_list_check_deref(const grt_vm_ref_t* ref,
                                     grt_vm_list_t** out_list) {
  return grt_vm_ref_deref(ref, &grt_vm_list_descriptor, (void**)out_list);
}

grt_vm_type_def_t grt_vm_list_element_type(const grt_vm_list_t* list) {
  return list->element_type;
}

size_t grt_vm_list_size(const grt_vm_list_t* list) { return list->size; }

size_t grt_vm_list_capacity(const grt_vm_list_t* list) {
  return list->capacity;
}

grt_status_t grt_vm_list_reserve(grt_vm_list_t* list,
                                 size_t minimum_capacity) {
  if (minimum_capacity <= list->capacity && list->storage) {
    return grt_ok_status();
  }
  size_t capacity = list->capacity * 2;
  if (capacity < minimum_capacity) capacity = minimum_capacity;
  size_t new_bytes = 0;
  if (!grt_checked_mul_size(capacity, list->element_size, &new_bytes)) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "list capacity %zu overflows the address space",
                           minimum_capacity);
  }
  void* storage = list->storage;
  size_t old_bytes = list->capacity * list->element_size;
  GRT_RETURN_IF_ERROR(
      grt_allocator_realloc(list->allocator, old_bytes, new_bytes, &storage));
  memset((uint8_t*)storage + old_bytes, 0, new_bytes - old_bytes);
  list->storage = storage;
  list->capacity = capacity;
  return grt_ok_status();
}

grt_status_t grt_vm_list_resize(grt_vm_list_t* list, size_t new_size) {
  if (new_size < list->size) {
    grt_vm_list_drop_elements(list, new_size, list->size);
  } else {
    GRT_RETURN_IF_ERROR(grt_vm_list_reserve(list, new_size));
  }
  list->size = new_size;
  return grt_ok_status();
}

static grt_status_t grt_vm_list_check_index(const grt_vm_list_t* list,
                                            size_t index) {
  if (GRT_LIKELY(index < list->size)) return grt_ok_status();
  return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                         "list index %zu out of range: size %zu", index,
                         list->size);
}

// The list's element type does not fit |wanted| (a type name).
static grt_status_t grt_vm_list_mismatch(const grt_vm_list_t* list,
                                         const char* verb, const char* wanted) {
  char held[GRT_VM_TYPE_NAME_CAPACITY];
  return grt_make_status(
      GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: list holds %s, %s %s",
      grt_vm_type_def_format(list->element_type, held, sizeof(held)), verb,
      wanted);
}

// An element of a variant list holds something other than |wanted|.
static grt_status_t grt_vm_list_variant_mismatch(const grt_vm_list_t* list,
                                                 size_t index,
                                                 const char* wanted) {
  char held[GRT_VM_TYPE_NAME_CAPACITY];
  return grt_make_status(
      GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: element %zu holds %s, accessed as %s",
      index,
      grt_vm_variant_format_type(grt_vm_list_variant_slot(list, index), held,
                                 sizeof(held)),
      wanted);
}

// The bytes of a primitive element of |type|, in a typed or variant list.
static grt_status_t grt_vm_list_primitive_slot(const grt_vm_list_t* list,
                                               size_t index,
                                               grt_vm_value_type_t type,
                                               bool for_write, void** out_slot) {
  *out_slot = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_list_check_index(list, index));
  if (list->element_type.value_type == type) {
    *out_slot = grt_vm_list_slot(list, index);
    return grt_ok_status();
  }
  if (!grt_vm_list_holds_variants(list)) {
    return grt_vm_list_mismatch(list, for_write ? "given" : "accessed as",
                                grt_vm_value_type_name(type));
  }
  grt_vm_variant_t* variant = grt_vm_list_variant_slot(list, index);
  if (for_write) {
    grt_vm_variant_reset(variant);
    variant->type = type;
  } else if (variant->type != type) {
    return grt_vm_list_variant_mismatch(list, index,
                                        grt_vm_value_type_name(type));
  }
  // Every union member starts at the union's address.
  *out_slot = &variant->i64;
  return grt_ok_status();
}

// i8 and i16 lists: the element, sign-extended (IREE converts so).
static int64_t grt_vm_list_load_narrow(const grt_vm_list_t* list,
                                       size_t index) {
  const void* slot = grt_vm_list_slot(list, index);
  if (list->element_type.value_type == GRT_VM_VALUE_TYPE_I8) {
    int8_t v;
    memcpy(&v, slot, sizeof(v));
    return v;
  }
  int16_t v;
  memcpy(&v, slot, sizeof(v));
  return v;
}

// i8 and i16 lists: keep the low 8 or 16 bits of |value|.
static void grt_vm_list_store_narrow(grt_vm_list_t* list, size_t index,
                                     int64_t value) {
  void* slot = grt_vm_list_slot(list, index);
  uint64_t bits = (uint64_t)value;
  if (list->element_type.value_type == GRT_VM_VALUE_TYPE_I8) {
    uint8_t v = (uint8_t)(bits & 0xFFu);
    memcpy(slot, &v, sizeof(v));
  } else {
    uint16_t v = (uint16_t)(bits & 0xFFFFu);
    memcpy(slot, &v, sizeof(v));
  }
}

// Integer accessors reach i8/i16 lists through NARROW (1 for i32 and i64).
#define GRT_VM_LIST_PRIMITIVE_ACCESSORS(name, ctype, TYPE, NARROW)           \
  grt_status_t grt_vm_list_get_##name(const grt_vm_list_t* list,            \
                                      size_t index, ctype* out_value) {     \
    *out_value = 0;                                                          \
    if (NARROW &&                                                            \
        grt_vm_value_type_is_narrow(list->element_type.value_type)) {       \
      GRT_RETURN_IF_ERROR(grt_vm_list_check_index(list, index));             \
      *out_value = (ctype)grt_vm_list_load_narrow(list, index);              \
      return grt_ok_status();                                                \
    }                                                                        \
    void* slot = NULL;                                                       \
    GRT_RETURN_IF_ERROR(grt_vm_list_primitive_slot(                          \
        list, index, GRT_VM_VALUE_TYPE_##TYPE, false, &slot));               \
    memcpy(out_value, slot, sizeof(*out_value));                             \
    return grt_ok_status();                                                  \
  }                                                                          \
  grt_status_t grt_vm_list_set_##name(grt_vm_list_t* list, size_t index,    \
                                      ctype value) {                         \
    if (NARROW &&                                                            \
        grt_vm_value_type_is_narrow(list->element_type.value_type)) {       \
      GRT_RETURN_IF_ERROR(grt_vm_list_check_index(list, index));             \
      grt_vm_list_store_narrow(list, index, (int64_t)value);                 \
      return grt_ok_status();                                                \
    }                                                                        \
    void* slot = NULL;                                                       \
    GRT_RETURN_IF_ERROR(grt_vm_list_primitive_slot(                          \
        list, index, GRT_VM_VALUE_TYPE_##TYPE, true, &slot));                \
    memcpy(slot, &value, sizeof(value));                                     \
    return grt_ok_status();                                                  \
  }
GRT_VM_LIST_PRIMITIVE_ACCESSORS(i32, int32_t, I32, 1)
GRT_VM_LIST_PRIMITIVE_ACCESSORS(i64, int64_t, I64, 1)
GRT_VM_LIST_PRIMITIVE_ACCESSORS(f32, float, F32, 0)
GRT_VM_LIST_PRIMITIVE_ACCESSORS(f64, double, F64, 0)
#undef GRT_VM_LIST_PRIMITIVE_ACCESSORS

// The ref slot of element |index| for reading.
static grt_status_t grt_vm_list_ref_slot_for_read(const grt_vm_list_t* list,
                                                  size_t index,
                                                  grt_vm_ref_t** out_slot) {
  *out_slot = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_list_check_index(list, index));
  if (list->element_type.value_type == GRT_VM_VALUE_TYPE_REF) {
    *out_slot = grt_vm_list_slot(list, index);
    return grt_ok_status();
  }
  if (!grt_vm_list_holds_variants(list)) {
    return grt_vm_list_mismatch(list, "accessed as", "ref");
  }
  grt_vm_variant_t* variant = grt_vm_list_variant_slot(list, index);
  if (variant->type != GRT_VM_VALUE_TYPE_REF) {
    return grt_vm_list_variant_mismatch(list, index, "ref");
  }
  *out_slot = &variant->ref;
  return grt_ok_status();
}

// The ref slot of element |index| for storing |ref|, after checking the
// list accepts it. A variant element is turned into a (null) ref first.
static grt_status_t grt_vm_list_ref_slot_for_write(grt_vm_list_t* list,
                                                   size_t index,
                                                   const grt_vm_ref_t* ref,
                                                   grt_vm_ref_t** out_slot) {
  *out_slot = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_list_check_index(list, index));
  grt_vm_variant_t probe = grt_vm_variant_empty();
  probe.type = GRT_VM_VALUE_TYPE_REF;
  probe.ref = *ref;
  if (!grt_vm_type_def_accepts(list->element_type, &probe)) {
    char given[GRT_VM_TYPE_NAME_CAPACITY];
    return grt_vm_list_mismatch(
        list, "given", grt_vm_variant_format_type(&probe, given, sizeof(given)));
  }
  if (ref->type == &grt_vm_list_descriptor && ref->ptr != NULL) {
    atomic_store_explicit(&list->may_hold_lists, true, memory_order_relaxed);
  }
  if (!grt_vm_list_holds_variants(list)) {
    *out_slot = grt_vm_list_slot(list, index);
    return grt_ok_status();
  }
  grt_vm_variant_t* variant = grt_vm_list_variant_slot(list, index);
  if (variant->type != GRT_VM_VALUE_TYPE_REF) {
    grt_vm_variant_reset(variant);
    variant->type = GRT_VM_VALUE_TYPE_REF;
  }
  *out_slot = &variant->ref;
  return grt_ok_status();
}

grt_status_t grt_vm_list_get_ref_assign(const grt_vm_list_t* list,
                                        size_t index, grt_vm_ref_t* inout_ref) {
  // An element of a variant list that was never set reads as a null ref.
  if (grt_vm_list_holds_variants(list) && index < list->size &&
      grt_vm_list_variant_slot(list, index)->type == GRT_VM_VALUE_TYPE_NONE) {
    grt_vm_ref_release(inout_ref);
    return grt_ok_status();
  }
  grt_vm_ref_t* slot = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_list_ref_slot_for_read(list, index, &slot));
  grt_vm_ref_assign(inout_ref, slot);
  return grt_ok_status();
}

grt_status_t grt_vm_list_set_ref_retain(grt_vm_list_t* list, size_t index,
                                        const grt_vm_ref_t* ref) {
  grt_vm_ref_t* slot = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_list_ref_slot_for_write(list, index, ref, &slot));
  grt_vm_ref_assign(slot, ref);
  return grt_ok_status();
}

grt_status_t grt_vm_list_set_ref_move(grt_vm_list_t* list, size_t index,
                                      grt_vm_ref_t* ref) {
  grt_vm_ref_t* slot = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_list_ref_slot_for_write(list, index, ref, &slot));
  grt_vm_ref_move(slot, ref);
  return grt_ok_status();
}

grt_status_t grt_vm_list_get_variant_assign(const grt_vm_list_t* list,
                                            size_t index,
                                            grt_vm_variant_t* inout_variant) {
  grt_vm_variant_reset(inout_variant);
  GRT_RETURN_IF_ERROR(grt_vm_list_check_index(list, index));
  const void* slot = grt_vm_list_slot(list, index);
  grt_vm_variant_t value = grt_vm_variant_empty();
  switch (list->element_type.value_type) {
    case GRT_VM_VALUE_TYPE_NONE:
      value = *(const grt_vm_variant_t*)slot;
      if (value.type == GRT_VM_VALUE_TYPE_REF) grt_vm_ref_retain(&value.ref);
      break;
    case GRT_VM_VALUE_TYPE_REF:
      value = grt_vm_variant_ref_retain((const grt_vm_ref_t*)slot);
      break;
    case GRT_VM_VALUE_TYPE_I8:
    case GRT_VM_VALUE_TYPE_I16:
      // No variant is i8 or i16: the element widens to i32.
      value = grt_vm_variant_i32((int32_t)grt_vm_list_load_narrow(list, index));
      break;
    default:
      value.type = list->element_type.value_type;
      memcpy(&value.i64, slot, list->element_size);
      break;
  }
  *inout_variant = value;
  return grt_ok_status();
}

grt_status_t grt_vm_list_set_variant(grt_vm_list_t* list, size_t index,
                                     const grt_vm_variant_t* variant) {
  if (variant->type == GRT_VM_VALUE_TYPE_REF) {
    return grt_vm_list_set_ref_retain(list, index, &variant->ref);
  }
  GRT_RETURN_IF_ERROR(grt_vm_list_check_index(list, index));
  if (grt_vm_value_type_is_narrow(list->element_type.value_type) &&
      (variant->type == GRT_VM_VALUE_TYPE_I32 ||
       variant->type == GRT_VM_VALUE_TYPE_I64)) {
    grt_vm_list_store_narrow(list, index,
                             variant->type == GRT_VM_VALUE_TYPE_I32
                                 ? (int64_t)variant->i32
                                 : variant->i64);
    return grt_ok_status();
  }
  if (!grt_vm_type_def_accepts(list->element_type, variant)) {
    char given[GRT_VM_TYPE_NAME_CAPACITY];
    return grt_vm_list_mismatch(
        list, "given",
        grt_vm_variant_format_type(variant, given, sizeof(given)));
  }
  if (grt_vm_list_holds_variants(list)) {
    grt_vm_variant_t* slot = grt_vm_list_variant_slot(list, index);
    grt_vm_variant_reset(slot);
    *slot = *variant;
  } else {
    memcpy(grt_vm_list_slot(list, index), &variant->i64, list->element_size);
  }
  return grt_ok_status();
}

grt_status_t grt_vm_list_push_variant(grt_vm_list_t* list,
                                      const grt_vm_variant_t* variant) {
  size_t index = list->size;
  GRT_RETURN_IF_ERROR(grt_vm_list_resize(list, index + 1));
  grt_status_t status = grt_vm_list_set_variant(list, index, variant);
  if (!grt_status_is_ok(status)) list->size = index;
  return status;
}

//===----------------------------------------------------------------------===//
// Cycles
//===----------------------------------------------------------------------===//
//
// Reference counting alone never frees lists that hold each other. A list
// that has held a list (may_hold_lists) releases under one process-wide
// mutex; when its count stays above zero the release searches the lists
// reachable from it (trial deletion): each list's references from lists in
// that set are counted, a list with more references than that is held from
// outside (a register, a global, the host), and everything reachable from
// such a list is alive. The rest is garbage held only by itself: its
// elements are dropped and the lists freed. Releases of lists that never
// held a list take none of this: one relaxed load more than a plain release.

static pthread_mutex_t grt_vm_list_cycle_mutex = PTHREAD_MUTEX_INITIALIZER;
// The mutex is held by this thread: releases nested in a search or a
// destroy (dropping elements releases lists) do not lock again.
static _Thread_local bool grt_vm_list_cycle_mutex_held = false;

// The list a ref element holds, or NULL.
static grt_vm_list_t* grt_vm_list_element_list(const grt_vm_list_t* list,
                                               size_t index) {
  const grt_vm_ref_t* ref = NULL;
  if (grt_vm_list_holds_variants(list)) {
    const grt_vm_variant_t* variant = grt_vm_list_variant_slot(list, index);
    if (variant->type != GRT_VM_VALUE_TYPE_REF) return NULL;
    ref = &variant->ref;
  } else if (list->element_type.value_type == GRT_VM_VALUE_TYPE_REF) {
    ref = (const grt_vm_ref_t*)grt_vm_list_slot(list, index);
  } else {
    return NULL;
  }
  return ref->type == &grt_vm_list_descriptor ? ref->ptr : NULL;
}

typedef struct grt_vm_list_cycle_search_t {
  grt_allocator_t allocator;
  grt_vm_list_t** lists;  // every list reachable from the root, root first
  size_t* inner_counts;   // references from lists in |lists|; SIZE_MAX: alive
  size_t count;
  size_t capacity;
} grt_vm_list_cycle_search_t;

static bool grt_vm_list_cycle_search_add(grt_vm_list_cycle_search_t* search,
                                         grt_vm_list_t* list) {
  if (search->count == search->capacity) {
    size_t capacity = search->capacity ? search->capacity * 2 : 16;
    void* lists = search->lists;
    void* counts = search->inner_counts;
    if (!grt_status_consume_ok(grt_allocator_realloc(
            search->allocator, search->capacity * sizeof(grt_vm_list_t*),
            capacity * sizeof(grt_vm_list_t*), &lists))) {
      return false;
    }
    search->lists = lists;
    if (!grt_status_consume_ok(grt_allocator_realloc(
            search->allocator, search->capacity * sizeof(size_t),
            capacity * sizeof(size_t), &counts))) {
      return false;  // |lists| grew; |capacity| still names the smaller size
    }
    search->inner_counts = counts;
    search->capacity = capacity;
  }
  search->lists[search->count] = list;
  search->inner_counts[search->count] = 0;
  list->cycle_index = ++search->count;
  return true;
}

// Frees the lists reachable from |root| that only lists among them hold.
// Called with the mutex held and |root|'s count above zero.
static void grt_vm_list_collect_cycles(grt_vm_list_t* root) {
  grt_vm_list_cycle_search_t search = {root->allocator, NULL, NULL, 0, 0};
  bool complete = grt_vm_list_cycle_search_add(&search, root);
  // Visit every reachable list, counting the references between them.
  for (size_t i = 0; complete && i < search.count; ++i) {
    grt_vm_list_t* list = search.lists[i];
    if (!atomic_load_explicit(&list->may_hold_lists, memory_order_relaxed)) {
      continue;
    }
    for (size_t e = 0; e < list->size; ++e) {
      grt_vm_list_t* element = grt_vm_list_element_list(list, e);
      if (!element) continue;
      if (element->cycle_index == 0 &&
          !grt_vm_list_cycle_search_add(&search, element)) {
        complete = false;  // out of memory: give up, leaking at worst
        break;
      }
      ++search.inner_counts[element->cycle_index - 1];
    }
  }
  // Lists held from outside the set, and what they reach, are alive.
  size_t garbage_count = search.count;
  size_t* pending = NULL;  // alive lists whose elements are not yet marked
  if (complete && !grt_status_consume_ok(grt_allocator_malloc(
                      search.allocator, search.count * sizeof(size_t),
                      (void**)&pending))) {
    complete = false;
  }
  size_t pending_count = 0;
  for (size_t i = 0; complete && i < search.count; ++i) {
    if (search.inner_counts[i] == SIZE_MAX ||
        grt_vm_ref_object_count(search.lists[i], &grt_vm_list_descriptor) <=
            search.inner_counts[i]) {
      continue;
    }
    search.inner_counts[i] = SIZE_MAX;
    --garbage_count;
    pending[pending_count++] = i;
    while (pending_count > 0) {
      grt_vm_list_t* alive = search.lists[pending[--pending_count]];
      if (!atomic_load_explicit(&alive->may_hold_lists,
                                memory_order_relaxed)) {
        continue;
      }
      for (size_t e = 0; e < alive->size; ++e) {
        grt_vm_list_t* element = grt_vm_list_element_list(alive, e);
        if (!element) continue;
        size_t j = element->cycle_index - 1;
        if (search.inner_counts[j] == SIZE_MAX) continue;
        search.inner_counts[j] = SIZE_MAX;
        --garbage_count;
        pending[pending_count++] = j;
      }
    }
  }
  grt_allocator_free(search.allocator, pending);
  for (size_t i = 0; i < search.count; ++i) search.lists[i]->cycle_index = 0;
  if (complete && garbage_count > 0) {
    // Hold every garbage list so none is destroyed while the others drop
    // their elements, then drop the last references.
    for (size_t i = 0; i < search.count; ++i) {
      if (search.inner_counts[i] != SIZE_MAX) {
        grt_vm_ref_object_retain(search.lists[i], &grt_vm_list_descriptor);
      }
    }
    for (size_t i = 0; i < search.count; ++i) {
      if (search.inner_counts[i] != SIZE_MAX) {
        grt_vm_list_t* list = search.lists[i];
        grt_vm_list_drop_elements(list, 0, list->size);
        list->size = 0;
      }
    }
    for (size_t i = 0; i < search.count; ++i) {
      if (search.inner_counts[i] != SIZE_MAX) {
        grt_vm_list_release(search.lists[i]);
      }
    }
  }
  grt_allocator_free(search.allocator, search.lists);
  grt_allocator_free(search.allocator, search.inner_counts);
}

void grt_vm_list_release_object(void* ptr) {
  grt_vm_list_t* list = ptr;
  atomic_uint_least32_t* counter = &list->ref_object.counter;
  if (GRT_LIKELY(
          !atomic_load_explicit(&list->may_hold_lists, memory_order_relaxed))) {
    if (atomic_fetch_sub_explicit(counter, 1u, memory_order_acq_rel) == 1u) {
      grt_vm_list_destroy(list);
    }
    return;
  }
  bool outermost = !grt_vm_list_cycle_mutex_held;
  if (outermost) {
    pthread_mutex_lock(&grt_vm_list_cycle_mutex);
    grt_vm_list_cycle_mutex_held = true;
  }
  if (atomic_fetch_sub_explicit(counter, 1u, memory_order_acq_rel) == 1u) {
    grt_vm_list_destroy(list);
  } else {
    grt_vm_list_collect_cycles(list);
  }
  if (outermost) {
    grt_vm_list_cycle_mutex_held = false;
    pthread_mutex_unlock(&grt_vm_list_cycle_mutex);
  }
}

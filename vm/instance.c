#include "vm/instance.h"

#include <stdatomic.h>

#include "vm/buffer.h"
#include "vm/list.h"
#include "vm/name_list.h"

struct grt_vm_instance_t {
  atomic_uint_least32_t ref_count;
  grt_allocator_t allocator;
  grt_vm_ref_type_t* types;  // registration order
  size_t type_count;
  size_t type_capacity;
};

grt_status_t grt_vm_instance_create(grt_allocator_t allocator,
                                    grt_vm_instance_t** out_instance) {
  *out_instance = NULL;
  grt_vm_instance_t* instance = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*instance), (void**)&instance));
  atomic_init(&instance->ref_count, 1u);
  instance->allocator = allocator;
  const grt_vm_ref_type_descriptor_t* builtins[] = {
      grt_vm_buffer_type_descriptor(),
      grt_vm_list_type_descriptor(),
  };
  for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); ++i) {
    grt_status_t status = grt_vm_instance_register_type(instance, builtins[i]);
    if (!grt_status_is_ok(status)) {
      grt_vm_instance_release(instance);
      return status;
    }
  }
  *out_instance = instance;
  return grt_ok_status();
}

void grt_vm_instance_retain(grt_vm_instance_t* instance) {
  if (instance) {
    atomic_fetch_add_explicit(&instance->ref_count, 1u, memory_order_relaxed);
  }
}

void grt_vm_instance_release(grt_vm_instance_t* instance) {
  if (!instance || atomic_fetch_sub_explicit(&instance->ref_count, 1u,
                                             memory_order_acq_rel) != 1u) {
    return;
  }
  grt_allocator_free(instance->allocator, instance->types);
  grt_allocator_free(instance->allocator, instance);
}

grt_allocator_t grt_vm_instance_allocator(const grt_vm_instance_t* instance) {
  return instance->allocator;
}

grt_status_t grt_vm_instance_register_type(
    grt_vm_instance_t* instance,
    const grt_vm_ref_type_descriptor_t* descriptor) {
  grt_vm_ref_type_t existing = grt_vm_instance_lookup_type(
      instance, grt_make_cstring_view(descriptor->name));
  if (existing == descriptor) return grt_ok_status();
  if (existing != NULL) {
    return grt_make_status(GRT_STATUS_ALREADY_EXISTS,
                           "ref type '%s' is already registered with a "
                           "different descriptor",
                           descriptor->name);
  }
  if (instance->type_count == instance->type_capacity) {
    size_t capacity = instance->type_capacity ? instance->type_capacity * 2 : 8;
    void* types = instance->types;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        instance->allocator, instance->type_capacity * sizeof(grt_vm_ref_type_t),
        capacity * sizeof(grt_vm_ref_type_t), &types));
    instance->types = types;
    instance->type_capacity = capacity;
  }
  instance->types[instance->type_count++] = descriptor;
  return grt_ok_status();
}

grt_vm_ref_type_t grt_vm_instance_lookup_type(const grt_vm_instance_t* instance,
                                              grt_string_view_t name) {
  for (size_t i = 0; i < instance->type_count; ++i) {
    if (grt_string_view_equal_cstring(name, instance->types[i]->name)) {
      return instance->types[i];
    }
  }
  return NULL;
}

grt_status_t grt_vm_instance_find_type(const grt_vm_instance_t* instance,
                                       grt_string_view_t name,
                                       grt_vm_ref_type_t* out_type) {
  *out_type = grt_vm_instance_lookup_type(instance, name);
  if (*out_type) return grt_ok_status();
  char known[GRT_VM_NAME_LIST_CAPACITY];
  grt_vm_name_list_t list;
  grt_vm_name_list_begin(&list, known, sizeof(known));
  for (size_t i = 0; i < instance->type_count; ++i) {
    grt_vm_name_list_append(&list,
                            grt_make_cstring_view(instance->types[i]->name));
  }
  grt_vm_name_list_end(&list);
  return grt_make_status(GRT_STATUS_NOT_FOUND,
                         "no ref type '%.*s' is registered; registered: %s",
                         GRT_SV_ARG(name), known);
}

size_t grt_vm_instance_type_count(const grt_vm_instance_t* instance) {
  return instance->type_count;
}

grt_vm_ref_type_t grt_vm_instance_type_at(const grt_vm_instance_t* instance,
                                          size_t index) {
  return instance->types[index];
}

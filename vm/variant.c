#include "vm/variant.h"

#include <stdio.h>

// The external definition of the header's inline function.
extern inline const char* grt_vm_value_type_name(grt_vm_value_type_t type);

bool grt_vm_type_def_accepts(grt_vm_type_def_t def,
                             const grt_vm_variant_t* variant) {
  if (def.value_type == GRT_VM_VALUE_TYPE_NONE) return true;
  if (def.value_type != variant->type) return false;
  if (def.value_type != GRT_VM_VALUE_TYPE_REF || def.ref_type == NULL) {
    return true;
  }
  return variant->ref.ptr == NULL || variant->ref.type == def.ref_type;
}

const char* grt_vm_type_def_format(grt_vm_type_def_t def, char* buffer,
                                   size_t capacity) {
  if (def.value_type == GRT_VM_VALUE_TYPE_NONE) {
    snprintf(buffer, capacity, "variant");
  } else if (def.value_type == GRT_VM_VALUE_TYPE_REF) {
    snprintf(buffer, capacity, "ref<%s>",
             def.ref_type ? def.ref_type->name : "?");
  } else {
    snprintf(buffer, capacity, "%s", grt_vm_value_type_name(def.value_type));
  }
  return buffer;
}

const char* grt_vm_variant_format_type(const grt_vm_variant_t* variant,
                                       char* buffer, size_t capacity) {
  if (variant->type == GRT_VM_VALUE_TYPE_REF) {
    snprintf(buffer, capacity, "ref<%s>",
             grt_vm_ref_type_name(variant->ref.ptr ? variant->ref.type : NULL));
  } else {
    snprintf(buffer, capacity, "%s", grt_vm_value_type_name(variant->type));
  }
  return buffer;
}

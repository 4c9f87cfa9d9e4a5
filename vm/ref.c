#include "vm/ref.h"

grt_status_t grt_vm_ref_check_type(const grt_vm_ref_t* ref,
                                   grt_vm_ref_type_t type) {
  if (GRT_LIKELY(ref->ptr != NULL && ref->type == type)) return grt_ok_status();
  if (ref->ptr == NULL) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "expected ref<%s>, got a null ref",
                           grt_vm_ref_type_name(type));
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "expected ref<%s>, got ref<%s>",
                         grt_vm_ref_type_name(type),
                         grt_vm_ref_type_name(ref->type));
}

grt_status_t grt_vm_ref_deref(const grt_vm_ref_t* ref, grt_vm_ref_type_t type,
                              void** out_ptr) {
  *out_ptr = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_ref_check_type(ref, type));
  *out_ptr = ref->ptr;
  return grt_ok_status();
}

void grt_vm_ref_object_release_out_of_line(void* ptr, grt_vm_ref_type_t type) {
  grt_vm_ref_object_release_body_(ptr, type);
}

void grt_vm_ref_release_out_of_line(grt_vm_ref_t* ref) {
  grt_vm_ref_release_body_(ref);
}

// Instances: the process-wide root of the VM.
//
// An instance holds the allocator the VM uses for its own bookkeeping and
// the registry of ref types, so a module can find a type by name ("vm.list",
// later "hal.buffer") when it loads. The built-in types vm.buffer and
// vm.list are registered at creation. Contexts retain their instance.
//
// Register types before creating contexts from other threads: the registry
// is written only by grt_vm_instance_register_type and is not locked.
#ifndef GRT_VM_INSTANCE_H_
#define GRT_VM_INSTANCE_H_

#include <stddef.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "vm/ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_vm_instance_t grt_vm_instance_t;

grt_status_t grt_vm_instance_create(grt_allocator_t allocator,
                                    grt_vm_instance_t** out_instance)
    GRT_MUST_USE;
void grt_vm_instance_retain(grt_vm_instance_t* instance);
void grt_vm_instance_release(grt_vm_instance_t* instance);

grt_allocator_t grt_vm_instance_allocator(const grt_vm_instance_t* instance);

// Adds |descriptor| (which must outlive the instance) to the registry.
// Registering the same descriptor twice is a no-op; a different descriptor
// under a name already taken is ALREADY_EXISTS.
grt_status_t grt_vm_instance_register_type(
    grt_vm_instance_t* instance, const grt_vm_ref_type_descriptor_t* descriptor)
    GRT_MUST_USE;

// The registered type called |name|, or NULL.
grt_vm_ref_type_t grt_vm_instance_lookup_type(const grt_vm_instance_t* instance,
                                              grt_string_view_t name);

// As lookup, but a missing type is NOT_FOUND naming it and listing the
// registered types.
grt_status_t grt_vm_instance_find_type(const grt_vm_instance_t* instance,
                                       grt_string_view_t name,
                                       grt_vm_ref_type_t* out_type) GRT_MUST_USE;

size_t grt_vm_instance_type_count(const grt_vm_instance_t* instance);
// |index| < grt_vm_instance_type_count(); in registration order.
grt_vm_ref_type_t grt_vm_instance_type_at(const grt_vm_instance_t* instance,
                                          size_t index);

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_INSTANCE_H_

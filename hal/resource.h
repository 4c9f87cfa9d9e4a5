// Resources: the common header of every reference-counted HAL object.
//
// Every HAL object (buffer, buffer_view, semaphore, fence, command buffer,
// executable, executable cache, allocator, device, driver) starts with a
// grt_hal_resource_t: an atomic count and a pointer to the implementation's
// vtable, whose first member is always `destroy`. The count has the same
// layout as the VM's grt_vm_ref_object_t, so runtime/ can hand HAL objects
// to bytecode as refs (counter offset 0) without the HAL knowing the VM.
#ifndef GRT_HAL_RESOURCE_H_
#define GRT_HAL_RESOURCE_H_

#include <stdatomic.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_resource_t grt_hal_resource_t;

// Every vtable begins with this member.
typedef struct grt_hal_resource_vtable_t {
  void (*destroy)(grt_hal_resource_t* resource);
} grt_hal_resource_vtable_t;

struct grt_hal_resource_t {
  atomic_uint_least32_t ref_count;  // must stay the first member
  const void* vtable;               // starts with grt_hal_resource_vtable_t
};

static inline void grt_hal_resource_initialize(const void* vtable,
                                               grt_hal_resource_t* resource) {
  atomic_init(&resource->ref_count, 1u);
  resource->vtable = vtable;
}

static inline void grt_hal_resource_retain(void* any_resource) {
  grt_hal_resource_t* resource = (grt_hal_resource_t*)any_resource;
  if (resource) {
    atomic_fetch_add_explicit(&resource->ref_count, 1u, memory_order_relaxed);
  }
}

// A C99 inline definition: size builds call the one external copy in
// hal/resource.c instead of keeping a local copy in every object.
inline void grt_hal_resource_release(void* any_resource) {
  grt_hal_resource_t* resource = (grt_hal_resource_t*)any_resource;
  if (resource && atomic_fetch_sub_explicit(&resource->ref_count, 1u,
                                            memory_order_acq_rel) == 1u) {
    ((const grt_hal_resource_vtable_t*)resource->vtable)->destroy(resource);
  }
}

// The vtable of |resource| viewed as |type|.
#define GRT_HAL_VTABLE(resource, type) \
  ((const type*)((const grt_hal_resource_t*)(resource))->vtable)

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_RESOURCE_H_

// The `hal` native VM module: the HAL exposed to bytecode, and the VM ref
// types of the HAL's objects.
//
// HAL objects keep their count where the VM expects it (hal/resource.h), so
// a HAL object is a VM ref without wrapping. Types registered:
//   hal.allocator hal.buffer hal.buffer_view hal.command_buffer hal.device
//   hal.executable hal.fence hal.semaphore
//
// The module is created for one device. Its exports (IREE's names where
// IREE has them; the calling conventions are documented in
// docs/runtime.md) cover allocator.allocate, buffer.subspan/length/
// load/store, buffer_view.create/assert/dim/rank/element_type/buffer,
// command_buffer.create/begin/end/dispatch/fill_buffer/copy_buffer/
// update_buffer/execution_barrier, executable.lookup, device.allocator/
// query.i64/queue.execute/queue.alloca/queue.dealloca, fence.create/join/
// signal/await/query, ex.* helpers.
//
// Executables: a bytecode module's executables are prepared by the session
// when the module is appended (the format the device runs is chosen), and
// registered here under the module's name; bytecode fetches them with
// hal.executable.lookup(device, module_name) -> !hal.executable.
#ifndef GRT_RUNTIME_HAL_MODULE_H_
#define GRT_RUNTIME_HAL_MODULE_H_

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "base/time.h"
#include "hal/buffer.h"
#include "hal/buffer_view.h"
#include "hal/device.h"
#include "hal/executable.h"
#include "vm/instance.h"
#include "vm/module.h"
#include "vm/ref.h"

#ifdef __cplusplus
extern "C" {
#endif

// Registers the HAL ref types with |instance| (idempotent).
grt_status_t grt_runtime_hal_register_types(grt_vm_instance_t* instance)
    GRT_MUST_USE;

// The registered descriptors, for wrapping and checking refs.
extern const grt_vm_ref_type_descriptor_t grt_runtime_hal_allocator_type;
extern const grt_vm_ref_type_descriptor_t grt_runtime_hal_buffer_type;
extern const grt_vm_ref_type_descriptor_t grt_runtime_hal_buffer_view_type;
extern const grt_vm_ref_type_descriptor_t grt_runtime_hal_command_buffer_type;
extern const grt_vm_ref_type_descriptor_t grt_runtime_hal_device_type;
extern const grt_vm_ref_type_descriptor_t grt_runtime_hal_executable_type;
extern const grt_vm_ref_type_descriptor_t grt_runtime_hal_fence_type;
extern const grt_vm_ref_type_descriptor_t grt_runtime_hal_semaphore_type;

// Wraps a buffer view as a ref holding a new reference.
grt_vm_ref_t grt_runtime_buffer_view_ref_retain(grt_hal_buffer_view_t* view);
// The buffer view in |ref|, or INVALID_ARGUMENT "expected
// ref<hal.buffer_view>, got ref<vm.buffer>".
grt_status_t grt_runtime_buffer_view_from_ref(const grt_vm_ref_t* ref,
                                              grt_hal_buffer_view_t** out_view)
    GRT_MUST_USE;

// Creates the hal module for |device| (retained).
grt_status_t grt_runtime_hal_module_create(grt_vm_instance_t* instance,
                                           grt_hal_device_t* device,
                                           grt_allocator_t host_allocator,
                                           grt_vm_module_t** out_module)
    GRT_MUST_USE;

// Bounds every fence.await of the calls that follow by |deadline_ns|
// (GRT_TIME_INFINITE_FUTURE: no bound); an await that reaches it fails with
// DEADLINE_EXCEEDED naming |timeout_ns| (the timeout it came from) instead
// of returning 0. The session sets it around each call. Does nothing when
// |hal_module| is not the hal module.
void grt_runtime_hal_module_set_call_deadline(grt_vm_module_t* hal_module,
                                              grt_time_t deadline_ns,
                                              grt_duration_t timeout_ns);

// Registers |executable| (retained) for bytecode module |module_name|:
// hal.executable.lookup returns it and hal.executable.variant returns
// |variant|, its index among the module file's executables (so the host
// program picks the workgroup counts compiled for it). ALREADY_EXISTS if
// that name has one.
grt_status_t grt_runtime_hal_module_register_executable(
    grt_vm_module_t* hal_module, grt_string_view_t module_name,
    grt_hal_executable_t* executable, uint32_t variant) GRT_MUST_USE;
// Drops the executable registered for |module_name| (if any), e.g. when
// appending that module failed after its executable was registered.
void grt_runtime_hal_module_unregister_executable(
    grt_vm_module_t* hal_module, grt_string_view_t module_name);

#ifdef __cplusplus
}
#endif

#endif  // GRT_RUNTIME_HAL_MODULE_H_

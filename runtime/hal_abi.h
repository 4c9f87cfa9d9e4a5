// The `hal` native module's VM ABI: the one statement of its exports.
// Pure preprocessor data (runtime/native_abi.h explains the row shapes and
// what is generated from them): runtime/hal_module.c builds its argument
// readers, shims and export table from it, compiler/host/native_imports.c
// its import declarations, and runtime/abi_test.c checks docs/runtime.md
// against it. Argument names are those the compiler declares.
//
// Conventions the rows rely on (docs/runtime.md): offsets and sizes are
// i64 and >= 0, a length of -1 means "to the end", a null fence is the
// empty list, and a null buffer in a command names the binding-table slot
// given beside it.
#ifndef GRT_RUNTIME_HAL_ABI_H_
#define GRT_RUNTIME_HAL_ABI_H_

#include "runtime/native_abi.h"

#define GRT_HAL_ABI_MODULE "hal"

// X(id, "name", optional, "doc"), sorted by strcmp of the name.
#define GRT_HAL_ABI_EXPORT_LIST(X)                                             \
  X(allocator_allocate, "allocator.allocate", 0,                               \
    "a new buffer of size bytes")                                              \
  X(allocator_import, "allocator.import", 0,                                   \
    "a buffer over those bytes of the vm.buffer (zero-copy where the device "  \
    "uses host memory); read-only unless the source is mutable")               \
  X(buffer_length, "buffer.length", 0, "the buffer's byte length")             \
  X(buffer_load, "buffer.load", 0,                                             \
    "the length (1, 2 or 4) bytes at offset, zero-extended")                   \
  X(buffer_store, "buffer.store", 0,                                           \
    "writes the low length (1, 2 or 4) bytes of value at offset")              \
  X(buffer_subspan, "buffer.subspan", 0, "a buffer viewing that range")        \
  X(buffer_view_assert, "buffer_view.assert", 0,                               \
    "fails with the message unless view is a buffer view of that element "     \
    "type and shape (a dim of -1: any size)")                                  \
  X(buffer_view_assert_dim, "buffer_view.assert_dim", 0,                       \
    "fails with the message and the dimension's size unless dimension index "  \
    "of view is == bound (relation 0), >= bound (1) or <= bound (2)")          \
  X(buffer_view_buffer, "buffer_view.buffer", 0, "the view's buffer")          \
  X(buffer_view_create, "buffer_view.create", 0,                               \
    "a view of that range of the buffer with that element type and shape")     \
  X(buffer_view_dim, "buffer_view.dim", 0, "dimension index of the view")      \
  X(buffer_view_element_type, "buffer_view.element_type", 0,                   \
    "the view's element type")                                                 \
  X(buffer_view_rank, "buffer_view.rank", 0, "the view's rank")                \
  X(command_buffer_begin, "command_buffer.begin", 0, "begins recording")       \
  X(command_buffer_copy_buffer, "command_buffer.copy_buffer", 0,               \
    "records a copy of length bytes")                                          \
  X(command_buffer_create, "command_buffer.create", 0,                         \
    "a command buffer, not begun; mode 0 one-shot, 1 reusable")                \
  X(command_buffer_dispatch, "command_buffer.dispatch", 0,                     \
    "records a dispatch of entry_point over x*y*z workgroups")                 \
  X(command_buffer_end, "command_buffer.end", 0, "ends recording")             \
  X(command_buffer_execution_barrier, "command_buffer.execution_barrier", 0,   \
    "records a barrier between the commands before and after it")              \
  X(command_buffer_fill_buffer, "command_buffer.fill_buffer", 0,               \
    "records a fill with pattern (pattern_length 1, 2 or 4 bytes)")            \
  X(command_buffer_update_buffer, "command_buffer.update_buffer", 0,           \
    "records a write of length bytes copied from the vm.buffer now")           \
  X(device_allocator, "device.allocator", 0, "the device's allocator")         \
  X(device_query_i64, "device.query.i64", 0,                                   \
    "ok 1 and the value of the key, or ok 0 for an unknown key")               \
  X(device_queue_alloca, "device.queue.alloca", 0,                             \
    "a new buffer of size bytes, ordered on the queue")                        \
  X(device_queue_dealloca, "device.queue.dealloca", 0,                         \
    "frees the buffer, ordered on the queue")                                  \
  X(device_queue_execute, "device.queue.execute", 0,                           \
    "submits the command buffers")                                             \
  X(device_queue_execute_indirect, "device.queue.execute.indirect", 0,         \
    "submits the reusable command buffer with that binding table")             \
  X(devices_count, "devices.count", 0, "1 (a session has one device)")                                    \
  X(devices_get, "devices.get", 0, "the session's device (index 0)")           \
  X(executable_lookup, "executable.lookup", 0,                                 \
    "the executable registered for the module named by the vm.buffer")         \
  X(executable_variant, "executable.variant", 0,                               \
    "the index, among the module file's executables, of that executable")      \
  X(fence_await, "fence.await", 0,                                             \
    "1 when every fence is reached, 0 when timeout_ms (negative: forever) "    \
    "runs out first")                                                          \
  X(fence_create, "fence.create", 0,                                           \
    "a fence at value 1 of a new semaphore (unsignalled)")                     \
  X(fence_fail, "fence.fail", 0, "fails the fence with status code (1-16)")    \
  X(fence_join, "fence.join", 0, "a fence holding all the fences' pairs")      \
  X(fence_query, "fence.query", 0, "1 reached, 0 pending")                     \
  X(fence_signal, "fence.signal", 0, "signals the fence")                     \
  X(shape_assertion, "shape_assertion", 0,                                     \
    "fails with the message, each {i} replaced by value i, unless holds is "   \
    "nonzero")

// Span groups, G(name, type) per value of one group. Lower case because
// the runtime names C types after them (grt_hal_abi_bindings_t, one
// group's values; grt_hal_abi_bindings_span_t, the span).
#define grt_hal_abi_dims(G) G(dim, i64)
#define grt_hal_abi_constants(G) G(value, i32)
#define grt_hal_abi_bindings(G) \
  G(slot, i32) G(buffer, hal_buffer) G(offset, i64) G(length, i64)
#define grt_hal_abi_binding_table(G) \
  G(buffer, hal_buffer) G(offset, i64) G(length, i64)
#define grt_hal_abi_command_buffers(G) G(command_buffer, hal_command_buffer)
#define grt_hal_abi_fences(G) G(fence, hal_fence)

// Signatures, one per export row.
#define GRT_HAL_ABI_allocator_allocate(A, S, R)                       \
  A(allocator, hal_allocator) A(memory_types, i32) A(buffer_usage, i32) \
  A(size, i64) R(buffer, hal_buffer)
#define GRT_HAL_ABI_allocator_import(A, S, R)                               \
  A(allocator, hal_allocator) A(source, vm_buffer) A(offset, i64)           \
  A(length, i64) R(buffer, hal_buffer)
#define GRT_HAL_ABI_shape_assertion(A, S, R) \
  A(holds, i32) A(message, vm_buffer) S(values, grt_hal_abi_dims)
#define GRT_HAL_ABI_buffer_length(A, S, R) \
  A(buffer, hal_buffer) R(length, i64)
#define GRT_HAL_ABI_buffer_load(A, S, R) \
  A(buffer, hal_buffer) A(offset, i64) A(length, i32) R(value, i32)
#define GRT_HAL_ABI_buffer_store(A, S, R) \
  A(value, i32) A(buffer, hal_buffer) A(offset, i64) A(length, i32)
#define GRT_HAL_ABI_buffer_subspan(A, S, R) \
  A(buffer, hal_buffer) A(offset, i64) A(length, i64) R(buffer, hal_buffer)
#define GRT_HAL_ABI_buffer_view_assert(A, S, R)                          \
  A(view, hal_buffer_view) A(message, vm_buffer) A(element_type, i32)    \
  A(encoding, i32) S(dims, grt_hal_abi_dims)
#define GRT_HAL_ABI_buffer_view_assert_dim(A, S, R)                        \
  A(view, hal_buffer_view) A(message, vm_buffer) A(index, i32)             \
  A(relation, i32) A(bound, i64)
#define GRT_HAL_ABI_buffer_view_buffer(A, S, R) \
  A(view, hal_buffer_view) R(buffer, hal_buffer)
#define GRT_HAL_ABI_buffer_view_create(A, S, R)                           \
  A(buffer, hal_buffer) A(offset, i64) A(length, i64) A(element_type, i32) \
  A(encoding, i32) S(dims, grt_hal_abi_dims) R(view, hal_buffer_view)
#define GRT_HAL_ABI_buffer_view_dim(A, S, R) \
  A(view, hal_buffer_view) A(index, i32) R(dim, i64)
#define GRT_HAL_ABI_buffer_view_element_type(A, S, R) \
  A(view, hal_buffer_view) R(element_type, i32)
#define GRT_HAL_ABI_buffer_view_rank(A, S, R) \
  A(view, hal_buffer_view) R(rank, i32)
#define GRT_HAL_ABI_command_buffer_begin(A, S, R) A(cb, hal_command_buffer)
#define GRT_HAL_ABI_command_buffer_copy_buffer(A, S, R)                    \
  A(cb, hal_command_buffer) A(source_slot, i32) A(target_slot, i32)        \
  A(source, hal_buffer) A(source_offset, i64) A(target, hal_buffer)        \
  A(target_offset, i64) A(length, i64)
#define GRT_HAL_ABI_command_buffer_create(A, S, R)                 \
  A(device, hal_device) A(mode, i32) A(binding_capacity, i32)      \
  R(cb, hal_command_buffer)
#define GRT_HAL_ABI_command_buffer_dispatch(A, S, R)                      \
  A(cb, hal_command_buffer) A(executable, hal_executable)                 \
  A(entry_point, i32) A(x, i32) A(y, i32) A(z, i32)                       \
  S(constants, grt_hal_abi_constants) S(bindings, grt_hal_abi_bindings)
#define GRT_HAL_ABI_command_buffer_end(A, S, R) A(cb, hal_command_buffer)
#define GRT_HAL_ABI_command_buffer_execution_barrier(A, S, R) \
  A(cb, hal_command_buffer)
#define GRT_HAL_ABI_command_buffer_fill_buffer(A, S, R)                 \
  A(cb, hal_command_buffer) A(target, hal_buffer) A(target_offset, i64) \
  A(length, i64) A(target_slot, i32) A(pattern, i32)                    \
  A(pattern_length, i32)
#define GRT_HAL_ABI_command_buffer_update_buffer(A, S, R)               \
  A(cb, hal_command_buffer) A(source, vm_buffer) A(source_offset, i64)  \
  A(target, hal_buffer) A(target_offset, i64) A(length, i64)            \
  A(target_slot, i32)
#define GRT_HAL_ABI_device_allocator(A, S, R) \
  A(device, hal_device) R(allocator, hal_allocator)
#define GRT_HAL_ABI_device_query_i64(A, S, R)                         \
  A(device, hal_device) A(category, vm_buffer) A(key, vm_buffer)      \
  R(ok, i32) R(value, i64)
#define GRT_HAL_ABI_device_queue_alloca(A, S, R)                       \
  A(device, hal_device) A(wait, hal_fence) A(signal, hal_fence)        \
  A(memory_types, i32) A(buffer_usage, i32) A(size, i64)               \
  R(buffer, hal_buffer)
#define GRT_HAL_ABI_device_queue_dealloca(A, S, R)                \
  A(device, hal_device) A(wait, hal_fence) A(signal, hal_fence)   \
  A(buffer, hal_buffer)
#define GRT_HAL_ABI_device_queue_execute(A, S, R)                 \
  A(device, hal_device) A(wait, hal_fence) A(signal, hal_fence)   \
  S(command_buffers, grt_hal_abi_command_buffers)
#define GRT_HAL_ABI_device_queue_execute_indirect(A, S, R)        \
  A(device, hal_device) A(wait, hal_fence) A(signal, hal_fence)   \
  A(cb, hal_command_buffer) S(binding_table, grt_hal_abi_binding_table)
#define GRT_HAL_ABI_devices_count(A, S, R) R(count, i32)
#define GRT_HAL_ABI_devices_get(A, S, R) A(index, i32) R(device, hal_device)
#define GRT_HAL_ABI_executable_lookup(A, S, R) \
  A(device, hal_device) A(module, vm_buffer) R(executable, hal_executable)
#define GRT_HAL_ABI_executable_variant(A, S, R) \
  A(device, hal_device) A(module, vm_buffer) R(variant, i32)
#define GRT_HAL_ABI_fence_await(A, S, R) \
  A(timeout_ms, i32) S(fences, grt_hal_abi_fences) R(reached, i32)
#define GRT_HAL_ABI_fence_create(A, S, R) \
  A(device, hal_device) R(fence, hal_fence)
#define GRT_HAL_ABI_fence_fail(A, S, R) A(fence, hal_fence) A(code, i32)
#define GRT_HAL_ABI_fence_join(A, S, R) \
  S(fences, grt_hal_abi_fences) R(fence, hal_fence)
#define GRT_HAL_ABI_fence_query(A, S, R) A(fence, hal_fence) R(reached, i32)
#define GRT_HAL_ABI_fence_signal(A, S, R) A(fence, hal_fence)

#endif  // GRT_RUNTIME_HAL_ABI_H_

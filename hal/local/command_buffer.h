// The recording command buffer of the local drivers (local-sync and
// local-task), and the host executor both use to run what it recorded.
//
// Recording appends commands to an arena taken from the host allocator:
// update data, push constants and binding refs are copied in, and every
// direct buffer and executable a command names is retained until the
// command buffer is destroyed (or recorded again), so callers may drop
// theirs as soon as the record call returns. The recording keeps one
// reference per object, however many commands name it (repeats of the
// last few objects are recognized), in a list of its own.
//
// end() groups the commands into regions: the runs of commands between
// execution barriers. Commands of one region have no ordering among
// themselves, which is what lets local-task run them all at once; regions
// run one after another.
//
// Execution happens per submission through a grt_hal_local_execution_t
// (the command buffer plus the binding table it was submitted with): it
// resolves each dispatch's bindings to host pointers once, after which any
// range of the dispatch's workgroups may run on any thread. A reusable
// command buffer may be in several executions at once; nothing per
// submission is stored in the command buffer itself.
#ifndef GRT_HAL_LOCAL_COMMAND_BUFFER_H_
#define GRT_HAL_LOCAL_COMMAND_BUFFER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "hal/command_buffer.h"
#include "hal/local/executable.h"
#include "hal/local/kernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grt_hal_local_command_type_e {
  GRT_HAL_LOCAL_COMMAND_FILL = 0,
  GRT_HAL_LOCAL_COMMAND_COPY = 1,
  GRT_HAL_LOCAL_COMMAND_UPDATE = 2,
  GRT_HAL_LOCAL_COMMAND_DISPATCH = 3,
} grt_hal_local_command_type_t;

typedef struct grt_hal_local_fill_command_t {
  grt_hal_buffer_ref_t target;
  uint32_t pattern;
  uint32_t pattern_length;  // 1, 2 or 4
} grt_hal_local_fill_command_t;

typedef struct grt_hal_local_copy_command_t {
  grt_hal_buffer_ref_t source;
  grt_hal_buffer_ref_t target;
} grt_hal_local_copy_command_t;

typedef struct grt_hal_local_update_command_t {
  grt_hal_buffer_ref_t target;  // target.length == data_length
  const uint8_t* data;          // in the recording's arena
  uint64_t data_length;
} grt_hal_local_update_command_t;

typedef struct grt_hal_local_dispatch_command_t {
  // Pointers and 64-bit fields first, then the 32-bit ones: no padding, as
  // a recording of many small dispatches is mostly these.
  grt_hal_local_executable_t* executable;  // retained by the recording
  const grt_kernel_entry_t* kernel;  // executable->kernels[entry_point]
  const uint32_t* constants;  // in the arena
  const grt_hal_buffer_ref_t* bindings;  // in the arena
  // The source location of the op that recorded it, copied into the arena
  // when tracing was on at record time (base/trace.h); NULL otherwise.
  const char* location;
  uint64_t workgroup_total;  // product of workgroup_count
  uint32_t workgroup_count[3];
  uint32_t entry_point;
  uint32_t constant_count;
  uint32_t binding_count;
  // Bindings that name a binding-table slot rather than a buffer: resolving
  // only those can fail at execution time.
  uint32_t slot_binding_count;
  // Position of this dispatch among the recording's dispatches, and of its
  // first binding among all their bindings: where an execution keeps the
  // resolved state (grt_hal_local_execution_t).
  uint32_t dispatch_ordinal;
  uint32_t binding_base;
  uint32_t location_length;  // bytes of |location|
} grt_hal_local_dispatch_command_t;

typedef struct grt_hal_local_command_t {
  struct grt_hal_local_command_t* next;  // in recording order
  grt_hal_local_command_type_t type;
  uint32_t region;  // index of the region (barrier-free run) it belongs to
  union {
    grt_hal_local_fill_command_t fill;
    grt_hal_local_copy_command_t copy;
    grt_hal_local_update_command_t update;
    grt_hal_local_dispatch_command_t dispatch;
  };
} grt_hal_local_command_t;

// The commands between two barriers (never empty).
typedef struct grt_hal_local_region_t {
  const grt_hal_local_command_t* const* commands;
  size_t command_count;
} grt_hal_local_region_t;

typedef struct grt_hal_local_command_buffer_t grt_hal_local_command_buffer_t;

// A command buffer for a local device. |binding_capacity| is the number of
// binding-table slots a reusable recording may reference.
grt_status_t grt_hal_local_command_buffer_create(
    grt_hal_command_buffer_mode_t mode, uint32_t binding_capacity,
    grt_allocator_t host_allocator, grt_hal_command_buffer_t** out)
    GRT_MUST_USE;

// True when |command_buffer| was made by grt_hal_local_command_buffer_create.
bool grt_hal_local_command_buffer_isa(
    const grt_hal_command_buffer_t* command_buffer);

// For queue_execute: checks that every command buffer was made here and
// may be submitted with its binding table (|binding_tables| NULL means
// empty tables), counting the submission. Errors name the index:
// "command buffer 1 of 2: ...".
grt_status_t grt_hal_local_command_buffers_validate_submission(
    size_t count, grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables) GRT_MUST_USE;

// The binding table submitted with command buffer |index| (empty when
// |binding_tables| is NULL).
static inline grt_hal_buffer_binding_table_t grt_hal_local_binding_table_at(
    const grt_hal_buffer_binding_table_t* binding_tables, size_t index) {
  return binding_tables ? binding_tables[index]
                        : grt_hal_buffer_binding_table_empty();
}

// Downcast; |command_buffer| must satisfy grt_hal_local_command_buffer_isa.
grt_hal_local_command_buffer_t* grt_hal_local_command_buffer_cast(
    grt_hal_command_buffer_t* command_buffer);

// The regions of an ended recording, in order (valid while it lives).
size_t grt_hal_local_command_buffer_region_count(
    const grt_hal_local_command_buffer_t* command_buffer);
const grt_hal_local_region_t* grt_hal_local_command_buffer_region(
    const grt_hal_local_command_buffer_t* command_buffer, size_t index);

// Totals over the recording, for executors sizing their state.
size_t grt_hal_local_command_buffer_command_count(
    const grt_hal_local_command_buffer_t* command_buffer);
size_t grt_hal_local_command_buffer_dispatch_count(
    const grt_hal_local_command_buffer_t* command_buffer);
// The most bindings any recorded dispatch takes.
size_t grt_hal_local_command_buffer_max_binding_count(
    const grt_hal_local_command_buffer_t* command_buffer);
// The largest local_memory_size any recorded dispatch's kernel asks for.
size_t grt_hal_local_command_buffer_max_local_memory_size(
    const grt_hal_local_command_buffer_t* command_buffer);

//===----------------------------------------------------------------------===//
// Execution on the host
//===----------------------------------------------------------------------===//

// A dispatch ready to run: bindings resolved to host pointers.
typedef struct grt_hal_local_dispatch_t {
  const grt_hal_local_dispatch_command_t* command;
  grt_kernel_dispatch_state_t state;
} grt_hal_local_dispatch_t;

// One submission of a command buffer with its binding table.
typedef struct grt_hal_local_execution_t {
  grt_hal_local_command_buffer_t* command_buffer;  // borrowed
  grt_hal_buffer_binding_table_t binding_table;    // borrowed
  grt_allocator_t host_allocator;
  // One per recorded dispatch (by dispatch_ordinal); filled by
  // grt_hal_local_execution_prepare_dispatch, which allocates them on its
  // first call (executors that only use prepare_dispatch_into never do).
  grt_hal_local_dispatch_t* dispatches;
  void** binding_pointers;
  size_t* binding_lengths;
} grt_hal_local_execution_t;

// Prepares the per-submission state. |command_buffer| must be ended and
// its submission validated against |binding_table| (both must outlive the
// execution).
grt_status_t grt_hal_local_execution_initialize(
    grt_hal_local_command_buffer_t* command_buffer,
    grt_hal_buffer_binding_table_t binding_table,
    grt_allocator_t host_allocator, grt_hal_local_execution_t* out_execution)
    GRT_MUST_USE;
void grt_hal_local_execution_deinitialize(grt_hal_local_execution_t* execution);

// Runs a fill, copy or update on the calling thread.
grt_status_t grt_hal_local_execution_run_transfer(
    grt_hal_local_execution_t* execution,
    const grt_hal_local_command_t* command) GRT_MUST_USE;

// Resolves a dispatch command's bindings against the binding table; the
// result stays valid for the execution's life and may be run from many
// threads at once. Calls for one execution must come from one thread.
grt_status_t grt_hal_local_execution_prepare_dispatch(
    grt_hal_local_execution_t* execution,
    const grt_hal_local_dispatch_command_t* command,
    grt_hal_local_dispatch_t** out_dispatch) GRT_MUST_USE;

// The same into caller storage: |pointers| and |lengths| hold at least
// command->binding_count entries and must outlive every use of |dispatch|.
// Lets an executor run a dispatch without per-dispatch state in the
// execution (one that is prepared, run and forgotten).
grt_status_t grt_hal_local_execution_prepare_dispatch_into(
    grt_hal_local_execution_t* execution,
    const grt_hal_local_dispatch_command_t* command,
    grt_hal_local_dispatch_t* dispatch, void** pointers, size_t* lengths)
    GRT_MUST_USE;

// Runs workgroups [first, first+count) of a prepared dispatch (linear
// workgroup indices, x fastest) as worker |worker_id| with |local_memory|
// (64-byte aligned, at least the kernel's local_memory_size bytes; may be
// NULL when that is 0). A nonzero kernel return stops the range and fails
// with INTERNAL "kernel 'add_f32' failed with code 7 at workgroup (1,0,0)",
// or, for GRT_KERNEL_CODE_OUT_OF_RANGE + b (kernel_abi.h), with OUT_OF_RANGE
// "kernel 'add_f32' accessed binding 1 outside its range (48 bytes) at
// workgroup (1,0,0)".
grt_status_t grt_hal_local_dispatch_run_workgroups(
    const grt_hal_local_dispatch_t* dispatch, uint64_t first, uint64_t count,
    uint32_t worker_id, void* local_memory, size_t local_memory_size)
    GRT_MUST_USE;

// Runs every command of the execution in recording order on the calling
// thread, as worker 0 with |local_memory| (at least
// grt_hal_local_command_buffer_max_local_memory_size bytes).
grt_status_t grt_hal_local_execution_run_inline(
    grt_hal_local_execution_t* execution, void* local_memory,
    size_t local_memory_size) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_LOCAL_COMMAND_BUFFER_H_

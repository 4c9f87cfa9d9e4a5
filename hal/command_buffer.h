// Command buffers: recorded device work submitted through queue execute.
//
// Commands: dispatch (an executable's entry point over a 3-D grid of
// workgroups, with 32-bit push constants and a list of buffer bindings),
// fill, copy, update (host bytes copied into the command buffer at record
// time), and an execution barrier. Commands between two barriers may run
// concurrently; a barrier makes everything after it wait for everything
// before it.
//
// Modes: ONE_SHOT command buffers are submitted once. REUSABLE ones may be
// submitted many times; their buffer references may name a slot of the
// binding table given at submit (grt_hal_buffer_ref_t.buffer == NULL), so
// one recording serves many calls with different buffers.
//
// The public functions validate everything (state, usages, ranges,
// alignment, binding counts against the entry point) so drivers receive
// only valid commands.
#ifndef GRT_HAL_COMMAND_BUFFER_H_
#define GRT_HAL_COMMAND_BUFFER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "hal/buffer.h"
#include "hal/executable.h"
#include "hal/resource.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_hal_command_buffer_t grt_hal_command_buffer_t;

typedef enum grt_hal_command_buffer_mode_e {
  GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT = 0,
  GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE = 1,
} grt_hal_command_buffer_mode_t;

// A buffer range used by a command: either a direct buffer, or (buffer ==
// NULL, reusable command buffers only) slot |binding_slot| of the binding
// table supplied at submit, in which case offset is relative to that
// binding's range.
typedef struct grt_hal_buffer_ref_t {
  grt_hal_buffer_t* buffer;
  uint32_t binding_slot;
  uint64_t offset;
  uint64_t length;  // GRT_HAL_WHOLE_BUFFER allowed
} grt_hal_buffer_ref_t;

static inline grt_hal_buffer_ref_t grt_hal_make_buffer_ref(
    grt_hal_buffer_t* buffer, uint64_t offset, uint64_t length) {
  grt_hal_buffer_ref_t ref = {buffer, 0, offset, length};
  return ref;
}
static inline grt_hal_buffer_ref_t grt_hal_make_indirect_buffer_ref(
    uint32_t binding_slot, uint64_t offset, uint64_t length) {
  grt_hal_buffer_ref_t ref = {NULL, binding_slot, offset, length};
  return ref;
}

// One entry of a binding table: a buffer range.
typedef struct grt_hal_buffer_binding_t {
  grt_hal_buffer_t* buffer;
  uint64_t offset;
  uint64_t length;  // GRT_HAL_WHOLE_BUFFER allowed
} grt_hal_buffer_binding_t;

typedef struct grt_hal_buffer_binding_table_t {
  size_t count;
  const grt_hal_buffer_binding_t* bindings;
} grt_hal_buffer_binding_table_t;

static inline grt_hal_buffer_binding_table_t grt_hal_buffer_binding_table_empty(
    void) {
  grt_hal_buffer_binding_table_t table = {0, NULL};
  return table;
}

typedef struct grt_hal_dispatch_params_t {
  grt_hal_executable_t* executable;
  uint32_t entry_point;
  uint32_t workgroup_count[3];
  const uint32_t* constants;
  size_t constant_count;
  const grt_hal_buffer_ref_t* bindings;
  size_t binding_count;
} grt_hal_dispatch_params_t;

typedef struct grt_hal_command_buffer_vtable_t {
  grt_hal_resource_vtable_t base;
  grt_status_t (*begin)(grt_hal_command_buffer_t* command_buffer);
  grt_status_t (*end)(grt_hal_command_buffer_t* command_buffer);
  grt_status_t (*execution_barrier)(grt_hal_command_buffer_t* command_buffer);
  // |pattern_length| is 1, 2 or 4.
  grt_status_t (*fill_buffer)(grt_hal_command_buffer_t* command_buffer,
                              grt_hal_buffer_ref_t target, uint32_t pattern,
                              size_t pattern_length);
  grt_status_t (*copy_buffer)(grt_hal_command_buffer_t* command_buffer,
                              grt_hal_buffer_ref_t source,
                              grt_hal_buffer_ref_t target);
  // |source| is copied before the call returns.
  grt_status_t (*update_buffer)(grt_hal_command_buffer_t* command_buffer,
                                const void* source, grt_hal_buffer_ref_t target);
  grt_status_t (*dispatch)(grt_hal_command_buffer_t* command_buffer,
                           const grt_hal_dispatch_params_t* params);
} grt_hal_command_buffer_vtable_t;

typedef enum grt_hal_command_buffer_state_e {
  GRT_HAL_COMMAND_BUFFER_STATE_INITIAL = 0,
  GRT_HAL_COMMAND_BUFFER_STATE_RECORDING = 1,
  GRT_HAL_COMMAND_BUFFER_STATE_EXECUTABLE = 2,
} grt_hal_command_buffer_state_t;

// What the commands recorded so far need of one binding-table slot; checked
// against the table at submit (grt_hal_command_buffer_validate_submission).
typedef struct grt_hal_command_buffer_slot_need_t {
  // The slot's binding must hold at least this many bytes (an indirect
  // dispatch binding of GRT_HAL_WHOLE_BUFFER length: its offset plus the
  // entry point's minimum length); 0 when nothing needs a size.
  uint64_t min_length;
  bool written;       // some command writes the slot's buffer
  char written_by[96];  // the first such command, for messages
  char sized_by[192];   // the command that set min_length
} grt_hal_command_buffer_slot_need_t;

// The common part of every command buffer; implementations embed it first.
struct grt_hal_command_buffer_t {
  grt_hal_resource_t resource;
  grt_hal_command_buffer_mode_t mode;
  grt_hal_command_buffer_state_t state;
  uint32_t binding_capacity;  // binding-table slots it may reference
  uint32_t submit_count;      // one-shot buffers may be submitted once
  // binding_capacity entries, allocated at the first indirect reference
  // (NULL until then); freed by grt_hal_command_buffer_deinitialize.
  grt_hal_command_buffer_slot_need_t* slot_needs;
};

void grt_hal_command_buffer_initialize(
    const grt_hal_command_buffer_vtable_t* vtable,
    grt_hal_command_buffer_mode_t mode, uint32_t binding_capacity,
    grt_hal_command_buffer_t* command_buffer);
// For implementations' destroy: frees what the header holds.
void grt_hal_command_buffer_deinitialize(
    grt_hal_command_buffer_t* command_buffer);

static inline void grt_hal_command_buffer_retain(grt_hal_command_buffer_t* c) {
  grt_hal_resource_retain(c);
}
static inline void grt_hal_command_buffer_release(grt_hal_command_buffer_t* c) {
  grt_hal_resource_release(c);
}

// State errors are FAILED_PRECONDITION: "command buffer is not recording
// (state: executable)".
grt_status_t grt_hal_command_buffer_begin(grt_hal_command_buffer_t* cb)
    GRT_MUST_USE;
grt_status_t grt_hal_command_buffer_end(grt_hal_command_buffer_t* cb)
    GRT_MUST_USE;
grt_status_t grt_hal_command_buffer_execution_barrier(
    grt_hal_command_buffer_t* cb) GRT_MUST_USE;
// Every target (fill, copy, update, and each dispatch binding the entry
// point writes) must be writable: a read-only buffer (see
// grt_hal_buffer_params_t.access) is PERMISSION_DENIED naming the command
// and the buffer, "fill target: expected a writable buffer (access
// READ|WRITE), got a read-only buffer of 64 bytes (access READ)"; for a
// binding-table slot the same is checked at submit.
//
// Target offset and length must be multiples of |pattern_length| (1, 2, 4).
grt_status_t grt_hal_command_buffer_fill_buffer(grt_hal_command_buffer_t* cb,
                                                grt_hal_buffer_ref_t target,
                                                uint32_t pattern,
                                                size_t pattern_length)
    GRT_MUST_USE;
// Lengths must match (GRT_HAL_WHOLE_BUFFER resolves against each side).
grt_status_t grt_hal_command_buffer_copy_buffer(grt_hal_command_buffer_t* cb,
                                                grt_hal_buffer_ref_t source,
                                                grt_hal_buffer_ref_t target)
    GRT_MUST_USE;
// Copies |target.length| bytes from |source| (host memory) at record time.
grt_status_t grt_hal_command_buffer_update_buffer(grt_hal_command_buffer_t* cb,
                                                  const void* source,
                                                  grt_hal_buffer_ref_t target)
    GRT_MUST_USE;
// Checks counts against the entry point: "dispatch of 'add': entry point
// takes 3 bindings, got 2"; refuses a read-only buffer for a binding the
// entry point writes (grt_hal_entry_point_info_t.binding_access; unknown
// means every binding may be written); and refuses a binding shorter than
// the entry point's recorded minimum with OUT_OF_RANGE "dispatch of 'add'
// binding 2: entry point needs at least 4000 bytes, got 4" (an indirect
// binding of the whole slot is checked at submit).
grt_status_t grt_hal_command_buffer_dispatch(grt_hal_command_buffer_t* cb,
                                             const grt_hal_dispatch_params_t* params)
    GRT_MUST_USE;

// For drivers at submit: checks |cb| is executable, may be submitted again
// (one-shot: once), and |table| has every slot the recording may use
// (count >= binding_capacity, each binding's range inside its buffer, a
// writable buffer where a command writes the slot, at least the bytes a
// dispatch needs of it). Increments submit_count.
grt_status_t grt_hal_command_buffer_validate_submission(
    grt_hal_command_buffer_t* cb, grt_hal_buffer_binding_table_t table)
    GRT_MUST_USE;

// For drivers recording a dispatch: |params|' push constants copied into
// memory from |allocator| that the recording owns (NULL when there are
// none), so the caller's array need not outlive the call.
grt_status_t grt_hal_dispatch_params_clone_constants(
    grt_allocator_t allocator, const grt_hal_dispatch_params_t* params,
    uint32_t** out_constants) GRT_MUST_USE;

// Resolves a recorded ref to (allocated buffer, absolute offset, length)
// against |table| for indirect refs. For drivers executing commands.
grt_status_t grt_hal_buffer_ref_resolve(grt_hal_buffer_ref_t ref,
                                        grt_hal_buffer_binding_table_t table,
                                        grt_hal_buffer_t** out_allocated_buffer,
                                        uint64_t* out_offset,
                                        uint64_t* out_length) GRT_MUST_USE;

#ifdef __cplusplus
}
#endif

#endif  // GRT_HAL_COMMAND_BUFFER_H_

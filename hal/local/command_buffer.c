#include "hal/local/command_buffer.h"

#include <string.h>

#include "base/arena.h"
#include "base/checked_math.h"
#include "base/time.h"
#include "base/trace.h"
#include "hal/local/heap_allocator.h"

// How many of the latest retained objects a recording remembers: a dispatch
// names its executable and a few buffers, usually the same as the last.
#define GRT_HAL_LOCAL_RECENTLY_RETAINED 8

// Arena blocks: small at first (most recordings are a handful of commands),
// then larger as the recording grows, up to this.
#define GRT_HAL_LOCAL_ARENA_MIN_BLOCK_SIZE 4096
#define GRT_HAL_LOCAL_ARENA_MAX_BLOCK_SIZE (256 * 1024)

struct grt_hal_local_command_buffer_t {
  grt_hal_command_buffer_t base;
  grt_allocator_t host_allocator;
  // Holds the commands, their copied payloads and the region tables; reset
  // as a whole when the recording is dropped.
  grt_arena_t arena;
  grt_hal_local_command_t* first;
  grt_hal_local_command_t* last;
  size_t command_count;
  // Region of the next command: a barrier advances it only when the current
  // region already holds a command, so barriers never make empty regions.
  size_t current_region;
  size_t current_region_size;
  size_t dispatch_count;
  size_t binding_total;
  size_t max_binding_count;
  size_t max_local_memory_size;
  // Every buffer and executable the recording holds a reference on, once
  // each (grt_hal_resource_t*, in the arena), and the most recently added
  // ones, so repeats do not grow the list or touch reference counts.
  grt_arena_vec_t retained;
  const void* recently_retained[GRT_HAL_LOCAL_RECENTLY_RETAINED];
  uint32_t recently_retained_next;
  // Built by end().
  grt_hal_local_region_t* regions;
  size_t region_count;
};

static const grt_hal_command_buffer_vtable_t grt_hal_local_command_buffer_vtable;

bool grt_hal_local_command_buffer_isa(
    const grt_hal_command_buffer_t* command_buffer) {
  return command_buffer &&
         command_buffer->resource.vtable == &grt_hal_local_command_buffer_vtable;
}

grt_hal_local_command_buffer_t* grt_hal_local_command_buffer_cast(
    grt_hal_command_buffer_t* command_buffer) {
  return (grt_hal_local_command_buffer_t*)command_buffer;
}

grt_status_t grt_hal_local_command_buffers_validate_submission(
    size_t count, grt_hal_command_buffer_t* const* command_buffers,
    const grt_hal_buffer_binding_table_t* binding_tables) {
  for (size_t i = 0; i < count; ++i) {
    if (!grt_hal_local_command_buffer_isa(command_buffers[i])) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "command buffer %zu of %zu was not created by a "
                             "local (CPU) device",
                             i, count);
    }
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_hal_command_buffer_validate_submission(
            command_buffers[i],
            grt_hal_local_binding_table_at(binding_tables, i)),
        "command buffer %zu of %zu", i, count);
  }
  return grt_ok_status();
}

static grt_hal_local_command_buffer_t* grt_hal_local_command_buffer_from(
    grt_hal_command_buffer_t* command_buffer) {
  return (grt_hal_local_command_buffer_t*)command_buffer;
}

// Drops everything recorded: the references the recording holds, then the
// arena that holds the commands.
static void grt_hal_local_command_buffer_drop_recording(
    grt_hal_local_command_buffer_t* command_buffer) {
  grt_hal_resource_t** retained = command_buffer->retained.data;
  for (uint32_t i = 0; i < command_buffer->retained.count; ++i) {
    grt_hal_resource_release(retained[i]);
  }
  memset(&command_buffer->retained, 0, sizeof(command_buffer->retained));
  memset(command_buffer->recently_retained, 0,
         sizeof(command_buffer->recently_retained));
  command_buffer->recently_retained_next = 0;
  grt_arena_reset(&command_buffer->arena);
  command_buffer->first = NULL;
  command_buffer->last = NULL;
  command_buffer->command_count = 0;
  command_buffer->current_region = 0;
  command_buffer->current_region_size = 0;
  command_buffer->dispatch_count = 0;
  command_buffer->binding_total = 0;
  command_buffer->max_binding_count = 0;
  command_buffer->max_local_memory_size = 0;
  command_buffer->regions = NULL;
  command_buffer->region_count = 0;
}

static void grt_hal_local_command_buffer_destroy(grt_hal_resource_t* resource) {
  grt_hal_local_command_buffer_t* command_buffer =
      (grt_hal_local_command_buffer_t*)resource;
  grt_hal_local_command_buffer_drop_recording(command_buffer);
  grt_arena_deinit(&command_buffer->arena);
  grt_hal_command_buffer_deinitialize(&command_buffer->base);
  grt_allocator_free(command_buffer->host_allocator, command_buffer);
}

grt_status_t grt_hal_local_command_buffer_create(
    grt_hal_command_buffer_mode_t mode, uint32_t binding_capacity,
    grt_allocator_t host_allocator, grt_hal_command_buffer_t** out) {
  *out = NULL;
  grt_hal_local_command_buffer_t* command_buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(
      host_allocator, sizeof(*command_buffer), (void**)&command_buffer));
  grt_hal_command_buffer_initialize(&grt_hal_local_command_buffer_vtable, mode,
                                    binding_capacity, &command_buffer->base);
  command_buffer->host_allocator = host_allocator;
  grt_arena_init(host_allocator, GRT_HAL_LOCAL_ARENA_MIN_BLOCK_SIZE,
                 &command_buffer->arena);
  *out = &command_buffer->base;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

static grt_status_t grt_hal_local_command_buffer_begin(
    grt_hal_command_buffer_t* base) {
  // The generic wrapper only lets a buffer begin from its initial state;
  // dropping any earlier recording keeps this correct should that change.
  grt_hal_local_command_buffer_drop_recording(
      grt_hal_local_command_buffer_from(base));
  return grt_ok_status();
}

static grt_status_t grt_hal_local_command_buffer_end(
    grt_hal_command_buffer_t* base) {
  grt_hal_local_command_buffer_t* command_buffer =
      grt_hal_local_command_buffer_from(base);
  if (!command_buffer->last) return grt_ok_status();
  size_t region_count = command_buffer->last->region + 1;
  grt_hal_local_region_t* regions = NULL;
  const grt_hal_local_command_t** commands = NULL;
  GRT_RETURN_IF_ERROR(grt_arena_allocate(&command_buffer->arena,
                                         region_count * sizeof(*regions),
                                         (void**)&regions));
  GRT_RETURN_IF_ERROR(grt_arena_allocate(
      &command_buffer->arena, command_buffer->command_count * sizeof(*commands),
      (void**)&commands));
  memset(regions, 0, region_count * sizeof(*regions));
  // Commands were appended region by region, so each region is a
  // contiguous run of the list and of |commands|.
  size_t index = 0;
  for (const grt_hal_local_command_t* command = command_buffer->first; command;
       command = command->next, ++index) {
    grt_hal_local_region_t* region = &regions[command->region];
    if (region->command_count == 0) region->commands = &commands[index];
    commands[index] = command;
    ++region->command_count;
  }
  command_buffer->regions = regions;
  command_buffer->region_count = region_count;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_command_buffer_execution_barrier(
    grt_hal_command_buffer_t* base) {
  grt_hal_local_command_buffer_t* command_buffer =
      grt_hal_local_command_buffer_from(base);
  if (command_buffer->current_region_size > 0) {
    ++command_buffer->current_region;
    command_buffer->current_region_size = 0;
  }
  return grt_ok_status();
}

// Appends a zeroed command of |type| to the recording.
static grt_status_t grt_hal_local_command_buffer_append(
    grt_hal_local_command_buffer_t* command_buffer,
    grt_hal_local_command_type_t type, grt_hal_local_command_t** out_command) {
  if (command_buffer->current_region > UINT32_MAX) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "command buffer has too many regions");
  }
  // A recording that has filled a few blocks is a long one: let each new
  // block hold as much as the recording so far (bounded), so a long
  // recording takes a logarithmic number of blocks. The arena keeps one
  // block of its current size across a reset, so a buffer recorded again
  // reuses it.
  grt_arena_t* arena = &command_buffer->arena;
  if (arena->block_size < GRT_HAL_LOCAL_ARENA_MAX_BLOCK_SIZE &&
      arena->stats.bytes_reserved >= 4 * arena->block_size) {
    arena->block_size *= 2;
  }
  grt_hal_local_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(
      grt_arena_allocate(arena, sizeof(*command), (void**)&command));
  memset(command, 0, sizeof(*command));
  command->type = type;
  command->region = (uint32_t)command_buffer->current_region;
  if (command_buffer->last) {
    command_buffer->last->next = command;
  } else {
    command_buffer->first = command;
  }
  command_buffer->last = command;
  ++command_buffer->command_count;
  ++command_buffer->current_region_size;
  *out_command = command;
  return grt_ok_status();
}

// Makes the recording hold a reference on |resource| (a buffer or an
// executable; NULL is ignored) until it is dropped.
static grt_status_t grt_hal_local_command_buffer_retain(
    grt_hal_local_command_buffer_t* command_buffer, void* resource) {
  if (!resource) return grt_ok_status();
  for (uint32_t i = 0; i < GRT_HAL_LOCAL_RECENTLY_RETAINED; ++i) {
    if (command_buffer->recently_retained[i] == resource) {
      return grt_ok_status();
    }
  }
  GRT_RETURN_IF_ERROR(grt_arena_vec_push(&command_buffer->arena,
                                         &command_buffer->retained, &resource,
                                         sizeof(resource)));
  grt_hal_resource_retain(resource);
  command_buffer->recently_retained[command_buffer->recently_retained_next] =
      resource;
  command_buffer->recently_retained_next =
      (command_buffer->recently_retained_next + 1) %
      GRT_HAL_LOCAL_RECENTLY_RETAINED;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_command_buffer_fill_buffer(
    grt_hal_command_buffer_t* base, grt_hal_buffer_ref_t target,
    uint32_t pattern, size_t pattern_length) {
  // The generic wrapper checked the pattern length (1, 2 or 4).
  grt_hal_local_command_buffer_t* command_buffer =
      grt_hal_local_command_buffer_from(base);
  GRT_RETURN_IF_ERROR(
      grt_hal_local_command_buffer_retain(command_buffer, target.buffer));
  grt_hal_local_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_local_command_buffer_append(
      command_buffer, GRT_HAL_LOCAL_COMMAND_FILL, &command));
  command->fill.target = target;
  command->fill.pattern = pattern;
  command->fill.pattern_length = (uint32_t)pattern_length;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_command_buffer_copy_buffer(
    grt_hal_command_buffer_t* base, grt_hal_buffer_ref_t source,
    grt_hal_buffer_ref_t target) {
  grt_hal_local_command_buffer_t* command_buffer =
      grt_hal_local_command_buffer_from(base);
  GRT_RETURN_IF_ERROR(
      grt_hal_local_command_buffer_retain(command_buffer, source.buffer));
  GRT_RETURN_IF_ERROR(
      grt_hal_local_command_buffer_retain(command_buffer, target.buffer));
  grt_hal_local_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_local_command_buffer_append(
      command_buffer, GRT_HAL_LOCAL_COMMAND_COPY, &command));
  command->copy.source = source;
  command->copy.target = target;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_command_buffer_update_buffer(
    grt_hal_command_buffer_t* base, const void* source,
    grt_hal_buffer_ref_t target) {
  grt_hal_local_command_buffer_t* command_buffer =
      grt_hal_local_command_buffer_from(base);
  // The generic wrapper has resolved (or rejected) GRT_HAL_WHOLE_BUFFER.
  uint64_t length = target.length;
  if (length > SIZE_MAX) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "update of %llu bytes does not fit in host memory",
                           (unsigned long long)length);
  }
  GRT_RETURN_IF_ERROR(
      grt_hal_local_command_buffer_retain(command_buffer, target.buffer));
  uint8_t* data = NULL;
  GRT_RETURN_IF_ERROR(
      grt_arena_allocate(&command_buffer->arena, (size_t)length, (void**)&data));
  if (length) memcpy(data, source, (size_t)length);
  grt_hal_local_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_local_command_buffer_append(
      command_buffer, GRT_HAL_LOCAL_COMMAND_UPDATE, &command));
  command->update.target = target;
  command->update.target.length = length;
  command->update.data = data;
  command->update.data_length = length;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_command_buffer_dispatch(
    grt_hal_command_buffer_t* base, const grt_hal_dispatch_params_t* params) {
  grt_hal_local_command_buffer_t* command_buffer =
      grt_hal_local_command_buffer_from(base);
  grt_hal_local_executable_t* executable =
      grt_hal_local_executable_cast(params->executable);
  if (params->binding_count > UINT32_MAX ||
      params->constant_count > UINT32_MAX ||
      command_buffer->binding_total + params->binding_count > UINT32_MAX) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "dispatch has too many bindings or constants "
                           "(%zu bindings, %zu constants)",
                           params->binding_count, params->constant_count);
  }
  uint64_t workgroup_total = 1;
  for (int i = 0; i < 3; ++i) {
    // Three 32-bit factors can exceed 64 bits.
    if (!grt_checked_mul_u64(workgroup_total, params->workgroup_count[i],
                             &workgroup_total)) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "dispatch of %ux%ux%u workgroups is too large",
                             params->workgroup_count[0],
                             params->workgroup_count[1],
                             params->workgroup_count[2]);
    }
  }

  GRT_RETURN_IF_ERROR(
      grt_hal_local_command_buffer_retain(command_buffer, executable));
  uint32_t slot_binding_count = 0;
  for (size_t i = 0; i < params->binding_count; ++i) {
    if (params->bindings[i].buffer) {
      GRT_RETURN_IF_ERROR(grt_hal_local_command_buffer_retain(
          command_buffer, params->bindings[i].buffer));
    } else {
      ++slot_binding_count;
    }
  }
  uint32_t* constants = NULL;
  if (params->constant_count) {
    GRT_RETURN_IF_ERROR(grt_arena_allocate(
        &command_buffer->arena, params->constant_count * sizeof(*constants),
        (void**)&constants));
    memcpy(constants, params->constants,
           params->constant_count * sizeof(*constants));
  }
  grt_hal_buffer_ref_t* bindings = NULL;
  if (params->binding_count) {
    GRT_RETURN_IF_ERROR(grt_arena_allocate(
        &command_buffer->arena, params->binding_count * sizeof(*bindings),
        (void**)&bindings));
  }
  // The recording may outlive the module the location points into.
  char* location = NULL;
  grt_string_view_t traced_location = grt_string_view_empty();
  if (grt_trace_enabled()) traced_location = grt_trace_location();
  if (traced_location.size && traced_location.size < UINT32_MAX) {
    GRT_RETURN_IF_ERROR(grt_arena_allocate(
        &command_buffer->arena, traced_location.size, (void**)&location));
    memcpy(location, traced_location.data, traced_location.size);
  }
  grt_hal_local_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_local_command_buffer_append(
      command_buffer, GRT_HAL_LOCAL_COMMAND_DISPATCH, &command));
  grt_hal_local_dispatch_command_t* dispatch = &command->dispatch;
  dispatch->location = location;
  dispatch->location_length = location ? (uint32_t)traced_location.size : 0;
  dispatch->executable = executable;
  dispatch->entry_point = params->entry_point;
  dispatch->kernel = executable->kernels[params->entry_point];
  memcpy(dispatch->workgroup_count, params->workgroup_count,
         sizeof(dispatch->workgroup_count));
  dispatch->workgroup_total = workgroup_total;
  dispatch->constant_count = (uint32_t)params->constant_count;
  dispatch->constants = constants;
  if (params->binding_count) {
    memcpy(bindings, params->bindings,
           params->binding_count * sizeof(*bindings));
  }
  dispatch->binding_count = (uint32_t)params->binding_count;
  dispatch->slot_binding_count = slot_binding_count;
  dispatch->bindings = bindings;
  dispatch->dispatch_ordinal = (uint32_t)command_buffer->dispatch_count++;
  dispatch->binding_base = (uint32_t)command_buffer->binding_total;
  command_buffer->binding_total += params->binding_count;
  if (params->binding_count > command_buffer->max_binding_count) {
    command_buffer->max_binding_count = params->binding_count;
  }
  if (dispatch->kernel->local_memory_size >
      command_buffer->max_local_memory_size) {
    command_buffer->max_local_memory_size = dispatch->kernel->local_memory_size;
  }
  return grt_ok_status();
}

static const grt_hal_command_buffer_vtable_t grt_hal_local_command_buffer_vtable = {
    {grt_hal_local_command_buffer_destroy},
    grt_hal_local_command_buffer_begin,
    grt_hal_local_command_buffer_end,
    grt_hal_local_command_buffer_execution_barrier,
    grt_hal_local_command_buffer_fill_buffer,
    grt_hal_local_command_buffer_copy_buffer,
    grt_hal_local_command_buffer_update_buffer,
    grt_hal_local_command_buffer_dispatch,
};

size_t grt_hal_local_command_buffer_region_count(
    const grt_hal_local_command_buffer_t* command_buffer) {
  return command_buffer->region_count;
}

const grt_hal_local_region_t* grt_hal_local_command_buffer_region(
    const grt_hal_local_command_buffer_t* command_buffer, size_t index) {
  return index < command_buffer->region_count ? &command_buffer->regions[index]
                                              : NULL;
}

size_t grt_hal_local_command_buffer_command_count(
    const grt_hal_local_command_buffer_t* command_buffer) {
  return command_buffer->command_count;
}

size_t grt_hal_local_command_buffer_dispatch_count(
    const grt_hal_local_command_buffer_t* command_buffer) {
  return command_buffer->dispatch_count;
}

size_t grt_hal_local_command_buffer_max_binding_count(
    const grt_hal_local_command_buffer_t* command_buffer) {
  return command_buffer->max_binding_count;
}

size_t grt_hal_local_command_buffer_max_local_memory_size(
    const grt_hal_local_command_buffer_t* command_buffer) {
  return command_buffer->max_local_memory_size;
}

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

grt_status_t grt_hal_local_execution_initialize(
    grt_hal_local_command_buffer_t* command_buffer,
    grt_hal_buffer_binding_table_t binding_table,
    grt_allocator_t host_allocator, grt_hal_local_execution_t* out_execution) {
  memset(out_execution, 0, sizeof(*out_execution));
  out_execution->command_buffer = command_buffer;
  out_execution->binding_table = binding_table;
  out_execution->host_allocator = host_allocator;
  return grt_ok_status();
}

// The per-dispatch state of prepare_dispatch, allocated on first use.
static grt_status_t grt_hal_local_execution_allocate_dispatches(
    grt_hal_local_execution_t* execution) {
  const grt_hal_local_command_buffer_t* command_buffer =
      execution->command_buffer;
  // One block: dispatches, then binding pointers, then binding lengths.
  size_t dispatch_bytes =
      command_buffer->dispatch_count * sizeof(grt_hal_local_dispatch_t);
  size_t pointer_bytes = command_buffer->binding_total * sizeof(void*);
  size_t length_bytes = command_buffer->binding_total * sizeof(size_t);
  uint8_t* block = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      execution->host_allocator, dispatch_bytes + pointer_bytes + length_bytes,
      (void**)&block));
  execution->dispatches = (grt_hal_local_dispatch_t*)block;
  execution->binding_pointers = (void**)(block + dispatch_bytes);
  execution->binding_lengths =
      (size_t*)(block + dispatch_bytes + pointer_bytes);
  return grt_ok_status();
}

void grt_hal_local_execution_deinitialize(grt_hal_local_execution_t* execution) {
  if (execution->dispatches) {
    grt_allocator_free(execution->host_allocator, execution->dispatches);
  }
  memset(execution, 0, sizeof(*execution));
}

// The host address and length of a recorded ref in this execution.
static grt_status_t grt_hal_local_execution_resolve(
    grt_hal_local_execution_t* execution, grt_hal_buffer_ref_t ref,
    uint8_t** out_data, uint64_t* out_length) {
  grt_hal_buffer_t* allocated_buffer = NULL;
  uint64_t offset = 0;
  GRT_RETURN_IF_ERROR(grt_hal_buffer_ref_resolve(
      ref, execution->binding_table, &allocated_buffer, &offset, out_length));
  *out_data =
      (uint8_t*)grt_hal_local_heap_buffer_data(allocated_buffer) + offset;
  return grt_ok_status();
}

// Repeats the |pattern_length|-byte pattern over |length| bytes, doubling
// the filled prefix so large fills are a few memcpy calls.
static void grt_hal_local_fill_bytes(uint8_t* target, uint64_t length,
                                     uint32_t pattern, uint32_t pattern_length) {
  if (length == 0) return;
  if (pattern_length == 1) {
    memset(target, (int)(pattern & 0xFFu), (size_t)length);
    return;
  }
  uint8_t bytes[4];
  if (pattern_length == 2) {
    uint16_t narrow = (uint16_t)pattern;
    memcpy(bytes, &narrow, sizeof(narrow));
  } else {
    memcpy(bytes, &pattern, sizeof(pattern));
  }
  uint64_t filled = length < pattern_length ? length : pattern_length;
  memcpy(target, bytes, (size_t)filled);
  while (filled < length) {
    uint64_t chunk = length - filled < filled ? length - filled : filled;
    memcpy(target + filled, target, (size_t)chunk);
    filled += chunk;
  }
}

static grt_status_t grt_hal_local_execution_run_transfer_untraced(
    grt_hal_local_execution_t* execution,
    const grt_hal_local_command_t* command) {
  uint8_t* target = NULL;
  uint64_t target_length = 0;
  switch (command->type) {
    case GRT_HAL_LOCAL_COMMAND_FILL: {
      GRT_RETURN_IF_ERROR(grt_hal_local_execution_resolve(
          execution, command->fill.target, &target, &target_length));
      grt_hal_local_fill_bytes(target, target_length, command->fill.pattern,
                               command->fill.pattern_length);
      return grt_ok_status();
    }
    case GRT_HAL_LOCAL_COMMAND_COPY: {
      uint8_t* source = NULL;
      uint64_t source_length = 0;
      GRT_RETURN_IF_ERROR(grt_hal_local_execution_resolve(
          execution, command->copy.source, &source, &source_length));
      GRT_RETURN_IF_ERROR(grt_hal_local_execution_resolve(
          execution, command->copy.target, &target, &target_length));
      // WHOLE_BUFFER refs resolve against buffers known only now.
      if (source_length != target_length) {
        return grt_make_status(
            GRT_STATUS_INVALID_ARGUMENT,
            "copy source is %llu bytes but target is %llu bytes",
            (unsigned long long)source_length,
            (unsigned long long)target_length);
      }
      // Source and target may be overlapping ranges of one buffer.
      if (source_length) memmove(target, source, (size_t)source_length);
      return grt_ok_status();
    }
    case GRT_HAL_LOCAL_COMMAND_UPDATE: {
      GRT_RETURN_IF_ERROR(grt_hal_local_execution_resolve(
          execution, command->update.target, &target, &target_length));
      if (target_length != command->update.data_length) {
        return grt_make_status(
            GRT_STATUS_INVALID_ARGUMENT,
            "update carries %llu bytes but its target is %llu bytes",
            (unsigned long long)command->update.data_length,
            (unsigned long long)target_length);
      }
      if (target_length) {
        memcpy(target, command->update.data, (size_t)target_length);
      }
      return grt_ok_status();
    }
    case GRT_HAL_LOCAL_COMMAND_DISPATCH:
      break;
  }
  return grt_make_status(GRT_STATUS_INTERNAL,
                         "command %d is not a transfer", (int)command->type);
}

grt_status_t grt_hal_local_execution_run_transfer(
    grt_hal_local_execution_t* execution,
    const grt_hal_local_command_t* command) {
  if (!grt_trace_enabled()) {
    return grt_hal_local_execution_run_transfer_untraced(execution, command);
  }
  grt_trace_event_t event;
  memset(&event, 0, sizeof(event));
  event.kind = GRT_TRACE_EVENT_TRANSFER;
  event.worker_id = GRT_TRACE_NO_WORKER;
  event.start_ns = grt_time_now_ns();
  grt_status_t status =
      grt_hal_local_execution_run_transfer_untraced(execution, command);
  event.end_ns = grt_time_now_ns();
  switch (command->type) {
    case GRT_HAL_LOCAL_COMMAND_FILL:
      event.name = grt_make_cstring_view("fill");
      event.count = command->fill.target.length;
      break;
    case GRT_HAL_LOCAL_COMMAND_COPY:
      event.name = grt_make_cstring_view("copy");
      event.count = command->copy.target.length;
      break;
    default:
      event.name = grt_make_cstring_view("update");
      event.count = command->update.data_length;
      break;
  }
  // A whole-buffer ref's length is known only to the resolve inside.
  if (event.count == GRT_HAL_WHOLE_BUFFER) event.count = 0;
  grt_trace_record(&event);
  return status;
}

grt_status_t grt_hal_local_execution_prepare_dispatch_into(
    grt_hal_local_execution_t* execution,
    const grt_hal_local_dispatch_command_t* command,
    grt_hal_local_dispatch_t* dispatch, void** pointers, size_t* lengths) {
  for (uint32_t i = 0; i < command->binding_count; ++i) {
    uint8_t* data = NULL;
    uint64_t length = 0;
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_hal_local_execution_resolve(execution, command->bindings[i], &data,
                                        &length),
        "binding %u of dispatch of '%s'", i, command->kernel->name);
    pointers[i] = data;
    lengths[i] = (size_t)length;
  }
  const grt_kernel_entry_t* kernel = command->kernel;
  dispatch->command = command;
  grt_kernel_dispatch_state_t* state = &dispatch->state;
  memcpy(state->workgroup_count, command->workgroup_count,
         sizeof(state->workgroup_count));
  memcpy(state->workgroup_size, kernel->workgroup_size,
         sizeof(state->workgroup_size));
  state->constant_count = command->constant_count;
  state->constants = command->constants;
  state->binding_count = command->binding_count;
  state->bindings = pointers;
  state->binding_lengths = lengths;
  return grt_ok_status();
}

grt_status_t grt_hal_local_execution_prepare_dispatch(
    grt_hal_local_execution_t* execution,
    const grt_hal_local_dispatch_command_t* command,
    grt_hal_local_dispatch_t** out_dispatch) {
  *out_dispatch = NULL;
  if (!execution->dispatches) {
    GRT_RETURN_IF_ERROR(grt_hal_local_execution_allocate_dispatches(execution));
  }
  grt_hal_local_dispatch_t* dispatch =
      &execution->dispatches[command->dispatch_ordinal];
  GRT_RETURN_IF_ERROR(grt_hal_local_execution_prepare_dispatch_into(
      execution, command, dispatch,
      execution->binding_pointers + command->binding_base,
      execution->binding_lengths + command->binding_base));
  *out_dispatch = dispatch;
  return grt_ok_status();
}

static grt_status_t grt_hal_local_dispatch_run_range(
    const grt_hal_local_dispatch_t* dispatch, uint64_t first, uint64_t count,
    uint32_t worker_id, void* local_memory, size_t local_memory_size) {
  const grt_hal_local_dispatch_command_t* command = dispatch->command;
  const grt_kernel_entry_t* kernel = command->kernel;
  const uint32_t* counts = command->workgroup_count;
  if (kernel->local_memory_size > local_memory_size ||
      (kernel->local_memory_size && !local_memory)) {
    return grt_make_status(GRT_STATUS_INTERNAL,
                           "kernel '%s' needs %u bytes of local memory, the "
                           "executor gave %zu",
                           kernel->name, kernel->local_memory_size,
                           local_memory ? local_memory_size : 0);
  }
  grt_kernel_workgroup_state_t workgroup;
  memset(&workgroup, 0, sizeof(workgroup));
  workgroup.worker_id = worker_id;
  if (kernel->local_memory_size) {
    workgroup.local_memory = local_memory;
    workgroup.local_memory_size = local_memory_size;
  }
  if (count == 0) return grt_ok_status();
  // Decompose the first index once, then step x fastest.
  uint64_t plane = (uint64_t)counts[0] * counts[1];
  workgroup.workgroup_id[2] = (uint32_t)(first / plane);
  workgroup.workgroup_id[1] = (uint32_t)((first % plane) / counts[0]);
  workgroup.workgroup_id[0] = (uint32_t)(first % counts[0]);
  for (uint64_t i = 0; i < count; ++i) {
    int result = kernel->fn(&dispatch->state, &workgroup);
    if (GRT_UNLIKELY(result != 0)) {
      if (result >= GRT_KERNEL_CODE_OUT_OF_RANGE &&
          result - GRT_KERNEL_CODE_OUT_OF_RANGE <
              (int)dispatch->state.binding_count) {
        int binding = result - GRT_KERNEL_CODE_OUT_OF_RANGE;
        return grt_make_status(
            GRT_STATUS_OUT_OF_RANGE,
            "kernel '%s' accessed binding %d outside its range (%zu bytes) "
            "at workgroup (%u,%u,%u)",
            kernel->name, binding, dispatch->state.binding_lengths[binding],
            workgroup.workgroup_id[0], workgroup.workgroup_id[1],
            workgroup.workgroup_id[2]);
      }
      return grt_make_status(
          GRT_STATUS_INTERNAL,
          "kernel '%s' failed with code %d at workgroup (%u,%u,%u)",
          kernel->name, result, workgroup.workgroup_id[0],
          workgroup.workgroup_id[1], workgroup.workgroup_id[2]);
    }
    if (++workgroup.workgroup_id[0] == counts[0]) {
      workgroup.workgroup_id[0] = 0;
      if (++workgroup.workgroup_id[1] == counts[1]) {
        workgroup.workgroup_id[1] = 0;
        ++workgroup.workgroup_id[2];
      }
    }
  }
  return grt_ok_status();
}

// One DISPATCH event (base/trace.h) for workgroups [first, first+count).
static void grt_hal_local_trace_dispatch(
    const grt_hal_local_dispatch_command_t* command, uint64_t first,
    uint64_t count, uint32_t worker_id, grt_time_t start_ns) {
  grt_trace_event_t event;
  memset(&event, 0, sizeof(event));
  event.kind = GRT_TRACE_EVENT_DISPATCH;
  event.name = grt_make_cstring_view(command->kernel->name);
  event.detail = command->location
                     ? grt_make_string_view(command->location,
                                            command->location_length)
                     : grt_string_view_empty();
  event.start_ns = start_ns;
  event.end_ns = grt_time_now_ns();
  event.worker_id = worker_id;
  memcpy(event.workgroup_count, command->workgroup_count,
         sizeof(event.workgroup_count));
  event.first_workgroup = first;
  event.workgroups = count;
  grt_trace_record(&event);
}

grt_status_t grt_hal_local_dispatch_run_workgroups(
    const grt_hal_local_dispatch_t* dispatch, uint64_t first, uint64_t count,
    uint32_t worker_id, void* local_memory, size_t local_memory_size) {
  if (!grt_trace_enabled() || count == 0) {
    return grt_hal_local_dispatch_run_range(dispatch, first, count, worker_id,
                                            local_memory, local_memory_size);
  }
  grt_time_t start = grt_time_now_ns();
  grt_status_t status = grt_hal_local_dispatch_run_range(
      dispatch, first, count, worker_id, local_memory, local_memory_size);
  grt_hal_local_trace_dispatch(dispatch->command, first, count, worker_id,
                               start);
  return status;
}

grt_status_t grt_hal_local_execution_run_inline(
    grt_hal_local_execution_t* execution, void* local_memory,
    size_t local_memory_size) {
  grt_hal_local_command_buffer_t* command_buffer = execution->command_buffer;
  // Each dispatch is prepared, run and forgotten, so one set of binding
  // arrays serves them all.
  enum { kInlineBindings = 16 };
  void* inline_pointers[kInlineBindings];
  size_t inline_lengths[kInlineBindings];
  void** pointers = inline_pointers;
  size_t* lengths = inline_lengths;
  size_t binding_capacity = command_buffer->max_binding_count;
  if (binding_capacity > kInlineBindings) {
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(
        execution->host_allocator,
        binding_capacity * (sizeof(void*) + sizeof(size_t)),
        (void**)&pointers));
    lengths = (size_t*)(pointers + binding_capacity);
  }
  grt_status_t status = grt_ok_status();
  grt_hal_local_dispatch_t dispatch;
  for (const grt_hal_local_command_t* command = command_buffer->first;
       command && grt_status_is_ok(status); command = command->next) {
    if (command->type != GRT_HAL_LOCAL_COMMAND_DISPATCH) {
      status = grt_hal_local_execution_run_transfer(execution, command);
      continue;
    }
    status = grt_hal_local_execution_prepare_dispatch_into(
        execution, &command->dispatch, &dispatch, pointers, lengths);
    if (grt_status_is_ok(status)) {
      status = grt_hal_local_dispatch_run_workgroups(
          &dispatch, 0, command->dispatch.workgroup_total, 0, local_memory,
          local_memory_size);
    }
  }
  if (pointers != inline_pointers) {
    grt_allocator_free(execution->host_allocator, pointers);
  }
  return status;
}

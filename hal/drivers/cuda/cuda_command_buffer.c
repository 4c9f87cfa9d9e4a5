// CUDA command buffers (cuda_device.h).
//
// Recording keeps a list of commands (buffers and executables retained,
// update data copied into pinned host memory so the copy can be issued
// asynchronously). At submit a one-shot command buffer is issued on the
// queue's stream command by command; a reusable one is captured into a
// CUDA graph on its first submit and replayed with cuGraphLaunch after
// that, re-captured and updated in place when its binding table resolves
// to other addresses (graph_update.h). The stream runs commands in order,
// so execution barriers need no work (commands between barriers lose the
// freedom to overlap, which a single stream does not use anyway).
//
// Kernel parameters (the contract with compiler/target/cuda): one
// CUdeviceptr per binding (buffer base + offset), then the push constants
// as 32-bit words, then one 64-bit byte length per binding. The driver
// reads only the parameters a kernel declares, so a kernel
// `extern "C" __global__ void k(float* b0, float* b1)` ignores the rest;
// the conformance kernels declare the lengths to bounds-check.
#include <pthread.h>
#include <string.h>

#include "hal/command_buffer.h"
#include "hal/drivers/cuda/cuda_device.h"
#include "hal/drivers/cuda/graph_update.h"

typedef enum grt_hal_cuda_command_type_e {
  GRT_HAL_CUDA_COMMAND_FILL,
  GRT_HAL_CUDA_COMMAND_COPY,
  GRT_HAL_CUDA_COMMAND_UPDATE,
  GRT_HAL_CUDA_COMMAND_DISPATCH,
} grt_hal_cuda_command_type_t;

typedef struct grt_hal_cuda_command_t {
  grt_hal_cuda_command_type_t type;
  grt_hal_buffer_ref_t target;  // fill, copy, update
  grt_hal_buffer_ref_t source;  // copy
  uint32_t pattern;             // fill
  uint32_t pattern_length;
  void* pinned_data;  // update: pinned host copy of the data
  // dispatch
  grt_hal_executable_t* executable;  // retained
  uint32_t entry_point;
  uint32_t workgroup_count[3];
  uint32_t* constants;  // owned
  uint32_t constant_count;
  grt_hal_buffer_ref_t* bindings;  // owned
  uint32_t binding_count;
} grt_hal_cuda_command_t;

typedef struct grt_hal_cuda_command_buffer_t {
  grt_hal_command_buffer_t base;
  grt_hal_cuda_context_t* context;  // retained
  grt_allocator_t host_allocator;
  grt_hal_cuda_command_t* commands;
  size_t count;
  size_t capacity;
  size_t max_bindings;   // over every dispatch, for the parameter scratch
  size_t max_constants;
  size_t slot_use_count;  // refs naming binding-table slots
  // Reusable: the graph and what its slot refs resolved to when captured.
  CUstream capture_stream;
  CUgraphExec exec;
  uint64_t* captured;  // 2 per slot use: address, length
  uint64_t* current;
} grt_hal_cuda_command_buffer_t;

static const grt_hal_command_buffer_vtable_t grt_hal_cuda_command_buffer_vtable;

bool grt_hal_cuda_command_buffer_isa(const grt_hal_command_buffer_t* cb) {
  return cb->resource.vtable == &grt_hal_cuda_command_buffer_vtable;
}

static void grt_hal_cuda_command_buffer_reset(
    grt_hal_cuda_command_buffer_t* cb) {
  const grt_hal_cuda_symbols_t* symbols = cb->context->symbols;
  bool current =
      grt_status_consume_ok(grt_hal_cuda_context_make_current(cb->context));
  for (size_t i = 0; i < cb->count; ++i) {
    grt_hal_cuda_command_t* command = &cb->commands[i];
    grt_hal_buffer_release(command->target.buffer);
    grt_hal_buffer_release(command->source.buffer);
    if (command->pinned_data && current) {
      symbols->cuMemFreeHost(command->pinned_data);
    }
    grt_hal_executable_release(command->executable);
    for (uint32_t j = 0; j < command->binding_count; ++j) {
      grt_hal_buffer_release(command->bindings[j].buffer);
    }
    grt_allocator_free(cb->host_allocator, command->bindings);
    grt_allocator_free(cb->host_allocator, command->constants);
  }
  cb->count = 0;
  if (cb->exec && current) symbols->cuGraphExecDestroy(cb->exec);
  cb->exec = NULL;
  grt_allocator_free(cb->host_allocator, cb->captured);
  cb->captured = NULL;
  cb->current = NULL;
  cb->slot_use_count = 0;
  cb->max_bindings = 0;
  cb->max_constants = 0;
}

static void grt_hal_cuda_command_buffer_destroy(grt_hal_resource_t* resource) {
  grt_hal_cuda_command_buffer_t* cb = (grt_hal_cuda_command_buffer_t*)resource;
  grt_hal_cuda_command_buffer_reset(cb);
  if (cb->capture_stream &&
      grt_status_consume_ok(grt_hal_cuda_context_make_current(cb->context))) {
    cb->context->symbols->cuStreamDestroy(cb->capture_stream);
  }
  grt_allocator_free(cb->host_allocator, cb->commands);
  grt_hal_cuda_context_release(cb->context);
  grt_hal_command_buffer_deinitialize(&cb->base);
  grt_allocator_free(cb->host_allocator, cb);
}

static grt_status_t grt_hal_cuda_command_buffer_begin(
    grt_hal_command_buffer_t* base) {
  (void)base;
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_command_buffer_end(
    grt_hal_command_buffer_t* base) {
  grt_hal_cuda_command_buffer_t* cb = (grt_hal_cuda_command_buffer_t*)base;
  if (cb->slot_use_count == 0) return grt_ok_status();
  // Captured and current resolutions side by side in one block.
  return grt_allocator_calloc(cb->host_allocator,
                              4 * cb->slot_use_count * sizeof(uint64_t),
                              (void**)&cb->captured);
}

static grt_status_t grt_hal_cuda_command_buffer_barrier(
    grt_hal_command_buffer_t* base) {
  (void)base;  // one in-order stream: everything is already ordered
  return grt_ok_status();
}

// Appends a zeroed command.
static grt_status_t grt_hal_cuda_command_buffer_append(
    grt_hal_cuda_command_buffer_t* cb, grt_hal_cuda_command_type_t type,
    grt_hal_cuda_command_t** out) {
  if (cb->count == cb->capacity) {
    size_t capacity = cb->capacity ? 2 * cb->capacity : 8;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(
        cb->host_allocator, cb->capacity * sizeof(*cb->commands),
        capacity * sizeof(*cb->commands), (void**)&cb->commands));
    cb->capacity = capacity;
  }
  grt_hal_cuda_command_t* command = &cb->commands[cb->count++];
  memset(command, 0, sizeof(*command));
  command->type = type;
  *out = command;
  return grt_ok_status();
}

// Checks a direct ref is this device's memory, retains it and counts slot
// refs.
static grt_status_t grt_hal_cuda_command_buffer_keep_ref(
    grt_hal_cuda_command_buffer_t* cb, grt_hal_buffer_ref_t* ref,
    const char* what) {
  if (!ref->buffer) {
    ++cb->slot_use_count;
    return grt_ok_status();
  }
  if (!grt_hal_cuda_buffer_isa(grt_hal_buffer_allocated_buffer(ref->buffer),
                               cb->context)) {
    ref->buffer = NULL;
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s is not a buffer of this cuda device", what);
  }
  grt_hal_buffer_retain(ref->buffer);
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_command_buffer_fill(
    grt_hal_command_buffer_t* base, grt_hal_buffer_ref_t target,
    uint32_t pattern, size_t pattern_length) {
  grt_hal_cuda_command_buffer_t* cb = (grt_hal_cuda_command_buffer_t*)base;
  grt_hal_cuda_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_command_buffer_append(
      cb, GRT_HAL_CUDA_COMMAND_FILL, &command));
  command->target = target;
  command->pattern = pattern;
  command->pattern_length = (uint32_t)pattern_length;
  return grt_hal_cuda_command_buffer_keep_ref(cb, &command->target,
                                              "fill target");
}

static grt_status_t grt_hal_cuda_command_buffer_copy(
    grt_hal_command_buffer_t* base, grt_hal_buffer_ref_t source,
    grt_hal_buffer_ref_t target) {
  grt_hal_cuda_command_buffer_t* cb = (grt_hal_cuda_command_buffer_t*)base;
  grt_hal_cuda_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_command_buffer_append(
      cb, GRT_HAL_CUDA_COMMAND_COPY, &command));
  command->source = source;
  command->target = target;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_command_buffer_keep_ref(
      cb, &command->source, "copy source"));
  return grt_hal_cuda_command_buffer_keep_ref(cb, &command->target,
                                              "copy target");
}

static grt_status_t grt_hal_cuda_command_buffer_update(
    grt_hal_command_buffer_t* base, const void* source,
    grt_hal_buffer_ref_t target) {
  grt_hal_cuda_command_buffer_t* cb = (grt_hal_cuda_command_buffer_t*)base;
  grt_hal_cuda_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_command_buffer_append(
      cb, GRT_HAL_CUDA_COMMAND_UPDATE, &command));
  command->target = target;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_command_buffer_keep_ref(
      cb, &command->target, "update target"));
  if (target.length == 0) return grt_ok_status();
  // Pinned, so the copy is truly asynchronous and can sit in a graph.
  GRT_RETURN_IF_ERROR(grt_hal_cuda_context_make_current(cb->context));
  GRT_CUDA_RETURN_IF_ERROR(cb->context->symbols, cuMemHostAlloc,
                           (&command->pinned_data, (size_t)target.length, 0));
  memcpy(command->pinned_data, source, (size_t)target.length);
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_command_buffer_dispatch(
    grt_hal_command_buffer_t* base, const grt_hal_dispatch_params_t* params) {
  grt_hal_cuda_command_buffer_t* cb = (grt_hal_cuda_command_buffer_t*)base;
  if (!grt_hal_cuda_executable_isa(params->executable)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "dispatch of an executable not prepared by a cuda "
                           "device");
  }
  grt_hal_cuda_command_t* command = NULL;
  GRT_RETURN_IF_ERROR(grt_hal_cuda_command_buffer_append(
      cb, GRT_HAL_CUDA_COMMAND_DISPATCH, &command));
  command->executable = params->executable;
  grt_hal_executable_retain(params->executable);
  command->entry_point = params->entry_point;
  memcpy(command->workgroup_count, params->workgroup_count,
         sizeof(command->workgroup_count));
  GRT_RETURN_IF_ERROR(grt_hal_dispatch_params_clone_constants(
      cb->host_allocator, params, &command->constants));
  command->constant_count = (uint32_t)params->constant_count;
  if (params->binding_count) {
    GRT_RETURN_IF_ERROR(grt_allocator_calloc(
        cb->host_allocator, params->binding_count * sizeof(grt_hal_buffer_ref_t),
        (void**)&command->bindings));
    for (size_t i = 0; i < params->binding_count; ++i) {
      command->bindings[i] = params->bindings[i];
      grt_status_t status = grt_hal_cuda_command_buffer_keep_ref(
          cb, &command->bindings[i], "dispatch binding");
      command->binding_count = (uint32_t)(i + 1);
      GRT_RETURN_IF_ERROR(status);
    }
  }
  if (params->binding_count > cb->max_bindings) {
    cb->max_bindings = params->binding_count;
  }
  if (params->constant_count > cb->max_constants) {
    cb->max_constants = params->constant_count;
  }
  return grt_ok_status();
}

static const grt_hal_command_buffer_vtable_t grt_hal_cuda_command_buffer_vtable =
    {
        {grt_hal_cuda_command_buffer_destroy},
        grt_hal_cuda_command_buffer_begin,
        grt_hal_cuda_command_buffer_end,
        grt_hal_cuda_command_buffer_barrier,
        grt_hal_cuda_command_buffer_fill,
        grt_hal_cuda_command_buffer_copy,
        grt_hal_cuda_command_buffer_update,
        grt_hal_cuda_command_buffer_dispatch,
};

grt_status_t grt_hal_cuda_command_buffer_create(
    grt_hal_cuda_context_t* context, grt_hal_command_buffer_mode_t mode,
    uint32_t binding_capacity, grt_hal_command_buffer_t** out) {
  *out = NULL;
  grt_hal_cuda_command_buffer_t* cb = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(context->host_allocator,
                                           sizeof(*cb), (void**)&cb));
  grt_hal_command_buffer_initialize(&grt_hal_cuda_command_buffer_vtable, mode,
                                    binding_capacity, &cb->base);
  cb->context = context;
  grt_hal_cuda_context_retain(context);
  cb->host_allocator = context->host_allocator;
  *out = &cb->base;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Issue
//===----------------------------------------------------------------------===//

// A ref's device address and length under |table|.
static grt_status_t grt_hal_cuda_resolve(grt_hal_cuda_command_buffer_t* cb,
                                         grt_hal_buffer_ref_t ref,
                                         grt_hal_buffer_binding_table_t table,
                                         CUdeviceptr* out_pointer,
                                         uint64_t* out_length) {
  grt_hal_buffer_t* allocated = NULL;
  uint64_t offset = 0;
  GRT_RETURN_IF_ERROR(
      grt_hal_buffer_ref_resolve(ref, table, &allocated, &offset, out_length));
  if (!grt_hal_cuda_buffer_isa(allocated, cb->context)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "binding slot %u is not a buffer of this cuda device",
                           ref.binding_slot);
  }
  *out_pointer = grt_hal_cuda_buffer_device_pointer(allocated) + offset;
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_issue_dispatch(
    grt_hal_cuda_command_buffer_t* cb, const grt_hal_cuda_command_t* command,
    grt_hal_buffer_binding_table_t table, CUstream stream) {
  const uint32_t* count = command->workgroup_count;
  if (count[0] == 0 || count[1] == 0 || count[2] == 0) return grt_ok_status();
  enum { kMaxParameters = 192 };
  size_t parameter_count = 2 * (size_t)command->binding_count +
                           command->constant_count;
  if (parameter_count > kMaxParameters) {
    return grt_make_status(GRT_STATUS_UNIMPLEMENTED,
                           "dispatch with %u bindings and %u constants exceeds "
                           "the %d kernel parameters the cuda driver passes",
                           command->binding_count, command->constant_count,
                           kMaxParameters);
  }
  CUdeviceptr pointers[kMaxParameters];
  uint64_t lengths[kMaxParameters];
  void* parameters[kMaxParameters];
  size_t n = 0;
  for (uint32_t i = 0; i < command->binding_count; ++i) {
    GRT_RETURN_IF_ERROR(grt_hal_cuda_resolve(cb, command->bindings[i], table,
                                             &pointers[i], &lengths[i]));
    parameters[n++] = &pointers[i];
  }
  for (uint32_t i = 0; i < command->constant_count; ++i) {
    parameters[n++] = (void*)&command->constants[i];
  }
  for (uint32_t i = 0; i < command->binding_count; ++i) {
    parameters[n++] = &lengths[i];
  }
  const grt_hal_entry_point_info_t* entry =
      &command->executable->entry_points[command->entry_point];
  GRT_CUDA_RETURN_IF_ERROR(
      cb->context->symbols, cuLaunchKernel,
      (grt_hal_cuda_executable_function(command->executable,
                                        command->entry_point),
       count[0], count[1], count[2], entry->workgroup_size[0],
       entry->workgroup_size[1], entry->workgroup_size[2], 0, stream,
       parameters, NULL));
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_issue_command(
    grt_hal_cuda_command_buffer_t* cb, const grt_hal_cuda_command_t* command,
    grt_hal_buffer_binding_table_t table, CUstream stream) {
  const grt_hal_cuda_symbols_t* symbols = cb->context->symbols;
  CUdeviceptr target = 0, source = 0;
  uint64_t length = 0, source_length = 0;
  switch (command->type) {
    case GRT_HAL_CUDA_COMMAND_FILL:
      GRT_RETURN_IF_ERROR(
          grt_hal_cuda_resolve(cb, command->target, table, &target, &length));
      if (length == 0) return grt_ok_status();
      switch (command->pattern_length) {
        case 1:
          GRT_CUDA_RETURN_IF_ERROR(
              symbols, cuMemsetD8Async,
              (target, (unsigned char)command->pattern, (size_t)length, stream));
          return grt_ok_status();
        case 2:
          GRT_CUDA_RETURN_IF_ERROR(
              symbols, cuMemsetD16Async,
              (target, (unsigned short)command->pattern, (size_t)length / 2,
               stream));
          return grt_ok_status();
        default:
          GRT_CUDA_RETURN_IF_ERROR(
              symbols, cuMemsetD32Async,
              (target, command->pattern, (size_t)length / 4, stream));
          return grt_ok_status();
      }
    case GRT_HAL_CUDA_COMMAND_COPY:
      GRT_RETURN_IF_ERROR(grt_hal_cuda_resolve(cb, command->source, table,
                                               &source, &source_length));
      GRT_RETURN_IF_ERROR(
          grt_hal_cuda_resolve(cb, command->target, table, &target, &length));
      if (source_length != length) {
        return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "copy lengths differ: source %llu bytes, "
                               "target %llu bytes",
                               (unsigned long long)source_length,
                               (unsigned long long)length);
      }
      if (length == 0) return grt_ok_status();
      GRT_CUDA_RETURN_IF_ERROR(symbols, cuMemcpyDtoDAsync,
                               (target, source, (size_t)length, stream));
      return grt_ok_status();
    case GRT_HAL_CUDA_COMMAND_UPDATE:
      GRT_RETURN_IF_ERROR(
          grt_hal_cuda_resolve(cb, command->target, table, &target, &length));
      if (length == 0) return grt_ok_status();
      GRT_CUDA_RETURN_IF_ERROR(
          symbols, cuMemcpyHtoDAsync,
          (target, command->pinned_data, (size_t)length, stream));
      return grt_ok_status();
    case GRT_HAL_CUDA_COMMAND_DISPATCH:
      return grt_hal_cuda_issue_dispatch(cb, command, table, stream);
  }
  return grt_make_status(GRT_STATUS_INTERNAL, "unknown cuda command %d",
                         (int)command->type);
}

static grt_status_t grt_hal_cuda_issue_commands(
    grt_hal_cuda_command_buffer_t* cb, grt_hal_buffer_binding_table_t table,
    CUstream stream) {
  for (size_t i = 0; i < cb->count; ++i) {
    GRT_RETURN_IF_ERROR(
        grt_hal_cuda_issue_command(cb, &cb->commands[i], table, stream));
  }
  return grt_ok_status();
}

// The (address, length) of every slot ref under |table|, in recording
// order, into |out| (2 per slot use).
static grt_status_t grt_hal_cuda_resolve_slots(
    grt_hal_cuda_command_buffer_t* cb, grt_hal_buffer_binding_table_t table,
    uint64_t* out) {
  size_t n = 0;
  for (size_t i = 0; i < cb->count; ++i) {
    const grt_hal_cuda_command_t* command = &cb->commands[i];
    const grt_hal_buffer_ref_t* refs[2] = {&command->target, &command->source};
    size_t ref_count = command->type == GRT_HAL_CUDA_COMMAND_DISPATCH ? 0 : 2;
    for (size_t r = 0; r < ref_count + command->binding_count; ++r) {
      const grt_hal_buffer_ref_t* ref =
          r < ref_count ? refs[r] : &command->bindings[r - ref_count];
      bool used = command->type == GRT_HAL_CUDA_COMMAND_DISPATCH || r == 0 ||
                  command->type == GRT_HAL_CUDA_COMMAND_COPY;
      if (!used || ref->buffer) continue;
      CUdeviceptr pointer = 0;
      uint64_t length = 0;
      GRT_RETURN_IF_ERROR(
          grt_hal_cuda_resolve(cb, *ref, table, &pointer, &length));
      out[n++] = (uint64_t)pointer;
      out[n++] = length;
    }
  }
  return grt_ok_status();
}

// Captures the recording under |table| into a new graph.
static grt_status_t grt_hal_cuda_capture(grt_hal_cuda_command_buffer_t* cb,
                                         grt_hal_buffer_binding_table_t table,
                                         CUgraph* out_graph) {
  const grt_hal_cuda_symbols_t* symbols = cb->context->symbols;
  *out_graph = NULL;
  if (!cb->capture_stream) {
    GRT_CUDA_RETURN_IF_ERROR(symbols, cuStreamCreate,
                             (&cb->capture_stream, CU_STREAM_NON_BLOCKING));
  }
  // Thread-local capture: other threads may keep using the driver.
  GRT_CUDA_RETURN_IF_ERROR(
      symbols, cuStreamBeginCapture,
      (cb->capture_stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
  grt_status_t status = grt_hal_cuda_issue_commands(cb, table,
                                                    cb->capture_stream);
  CUgraph graph = NULL;
  grt_status_t end_status = GRT_CUDA_STATUS(
      symbols, cuStreamEndCapture, (cb->capture_stream, &graph));
  if (!grt_status_is_ok(status) || !grt_status_is_ok(end_status)) {
    if (graph) symbols->cuGraphDestroy(graph);
    if (grt_status_is_ok(status)) return end_status;
    grt_status_free(end_status);
    return status;
  }
  *out_graph = graph;
  return grt_ok_status();
}

static grt_status_t grt_hal_cuda_issue_graph(
    grt_hal_cuda_command_buffer_t* cb, grt_hal_buffer_binding_table_t table) {
  const grt_hal_cuda_symbols_t* symbols = cb->context->symbols;
  size_t words = 2 * cb->slot_use_count;
  uint64_t* current = cb->captured ? cb->captured + words : NULL;
  if (words) GRT_RETURN_IF_ERROR(grt_hal_cuda_resolve_slots(cb, table, current));
  grt_hal_cuda_graph_action_t action = grt_hal_cuda_graph_choose_action(
      cb->exec != NULL, cb->captured, words, current, words);
  if (action != GRT_HAL_CUDA_GRAPH_REPLAY) {
    CUgraph graph = NULL;
    GRT_RETURN_IF_ERROR(grt_hal_cuda_capture(cb, table, &graph));
    grt_status_t status = grt_ok_status();
    bool updated = false;
    if (action == GRT_HAL_CUDA_GRAPH_UPDATE) {
      // Launches already queued keep the parameters they were queued with.
      CUgraphExecUpdateResultInfo info;
      memset(&info, 0, sizeof(info));
      updated = symbols->cuGraphExecUpdate(cb->exec, graph, &info) ==
                CUDA_SUCCESS;
    }
    if (!updated) {
      if (cb->exec) symbols->cuGraphExecDestroy(cb->exec);
      cb->exec = NULL;
      status = GRT_CUDA_STATUS(symbols, cuGraphInstantiateWithFlags,
                               (&cb->exec, graph, 0));
    }
    symbols->cuGraphDestroy(graph);
    GRT_RETURN_IF_ERROR(status);
    if (words) memcpy(cb->captured, current, words * sizeof(uint64_t));
  }
  GRT_CUDA_RETURN_IF_ERROR(symbols, cuGraphLaunch,
                           (cb->exec, cb->context->stream));
  return grt_ok_status();
}

grt_status_t grt_hal_cuda_command_buffer_issue(
    grt_hal_cuda_context_t* context, grt_hal_command_buffer_t* base,
    grt_hal_buffer_binding_table_t table) {
  grt_hal_cuda_command_buffer_t* cb = (grt_hal_cuda_command_buffer_t*)base;
  if (cb->count == 0) return grt_ok_status();
  if (cb->base.mode == GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE) {
    return grt_hal_cuda_issue_graph(cb, table);
  }
  return grt_hal_cuda_issue_commands(cb, table, context->stream);
}

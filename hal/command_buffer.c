// Command buffer state machine and validation, so every driver receives
// only commands that are valid: right state, usages, ranges, alignment,
// and binding/constant counts matching the entry point.
#include "hal/command_buffer.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char* grt_hal_command_buffer_state_name(
    grt_hal_command_buffer_state_t state) {
  switch (state) {
    case GRT_HAL_COMMAND_BUFFER_STATE_INITIAL:
      return "initial";
    case GRT_HAL_COMMAND_BUFFER_STATE_RECORDING:
      return "recording";
    case GRT_HAL_COMMAND_BUFFER_STATE_EXECUTABLE:
      return "executable";
  }
  return "unknown";
}

void grt_hal_command_buffer_initialize(
    const grt_hal_command_buffer_vtable_t* vtable,
    grt_hal_command_buffer_mode_t mode, uint32_t binding_capacity,
    grt_hal_command_buffer_t* command_buffer) {
  grt_hal_resource_initialize(vtable, &command_buffer->resource);
  command_buffer->mode = mode;
  command_buffer->state = GRT_HAL_COMMAND_BUFFER_STATE_INITIAL;
  command_buffer->binding_capacity = binding_capacity;
  command_buffer->submit_count = 0;
  command_buffer->slot_needs = NULL;
}

void grt_hal_command_buffer_deinitialize(
    grt_hal_command_buffer_t* command_buffer) {
  grt_allocator_free(grt_allocator_system(), command_buffer->slot_needs);
  command_buffer->slot_needs = NULL;
}

// The record-time needs of |slot| (allocating the table on first use).
static grt_status_t grt_hal_command_buffer_slot_need(
    grt_hal_command_buffer_t* cb, uint32_t slot,
    grt_hal_command_buffer_slot_need_t** out_need) {
  if (!cb->slot_needs) {
    GRT_RETURN_IF_ERROR(grt_allocator_calloc(
        grt_allocator_system(),
        (size_t)cb->binding_capacity * sizeof(*cb->slot_needs),
        (void**)&cb->slot_needs));
  }
  *out_need = &cb->slot_needs[slot];
  return grt_ok_status();
}

#define GRT_HAL_CB_VTABLE(cb) GRT_HAL_VTABLE(cb, grt_hal_command_buffer_vtable_t)

static grt_status_t grt_hal_command_buffer_require_recording(
    const grt_hal_command_buffer_t* cb) {
  if (cb->state == GRT_HAL_COMMAND_BUFFER_STATE_RECORDING) {
    return grt_ok_status();
  }
  return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                         "command buffer is not recording (state: %s)",
                         grt_hal_command_buffer_state_name(cb->state));
}

grt_status_t grt_hal_command_buffer_begin(grt_hal_command_buffer_t* cb) {
  if (cb->state != GRT_HAL_COMMAND_BUFFER_STATE_INITIAL) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "command buffer cannot begin recording again "
                           "(state: %s)",
                           grt_hal_command_buffer_state_name(cb->state));
  }
  GRT_RETURN_IF_ERROR(GRT_HAL_CB_VTABLE(cb)->begin(cb));
  cb->state = GRT_HAL_COMMAND_BUFFER_STATE_RECORDING;
  return grt_ok_status();
}

grt_status_t grt_hal_command_buffer_end(grt_hal_command_buffer_t* cb) {
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_require_recording(cb));
  GRT_RETURN_IF_ERROR(GRT_HAL_CB_VTABLE(cb)->end(cb));
  cb->state = GRT_HAL_COMMAND_BUFFER_STATE_EXECUTABLE;
  return grt_ok_status();
}

grt_status_t grt_hal_command_buffer_execution_barrier(
    grt_hal_command_buffer_t* cb) {
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_require_recording(cb));
  return GRT_HAL_CB_VTABLE(cb)->execution_barrier(cb);
}

// Checks |ref| as far as record time allows and, for direct refs, replaces
// a GRT_HAL_WHOLE_BUFFER length with the resolved one. |what| names the
// operand in messages ("copy source"). A |written| operand must be
// writable; for an indirect ref that is remembered for submit.
static grt_status_t grt_hal_command_buffer_validate_ref(
    grt_hal_command_buffer_t* cb, grt_hal_buffer_ref_t* ref,
    grt_hal_buffer_usage_t required_usage, bool written, const char* what) {
  if (ref->buffer == NULL) {
    if (cb->mode != GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "%s refers to binding slot %" PRIu32
                             " but only reusable command buffers take a "
                             "binding table",
                             what, ref->binding_slot);
    }
    if (ref->binding_slot >= cb->binding_capacity) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "%s refers to binding slot %" PRIu32
                             " but the command buffer has %" PRIu32 " slots",
                             what, ref->binding_slot, cb->binding_capacity);
    }
    if (written) {
      grt_hal_command_buffer_slot_need_t* need = NULL;
      GRT_RETURN_IF_ERROR(
          grt_hal_command_buffer_slot_need(cb, ref->binding_slot, &need));
      if (!need->written) {
        need->written = true;
        snprintf(need->written_by, sizeof(need->written_by), "%s", what);
      }
    }
    return grt_ok_status();
  }
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_validate_usage(ref->buffer, required_usage), "%s", what);
  if (written) {
    GRT_RETURN_IF_ERROR(grt_hal_buffer_validate_writable(ref->buffer, what));
  }
  uint64_t length = 0;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_calculate_range(ref->buffer, ref->offset, ref->length,
                                     &length),
      "%s", what);
  ref->length = length;
  return grt_ok_status();
}

grt_status_t grt_hal_command_buffer_fill_buffer(grt_hal_command_buffer_t* cb,
                                                grt_hal_buffer_ref_t target,
                                                uint32_t pattern,
                                                size_t pattern_length) {
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_require_recording(cb));
  if (pattern_length != 1 && pattern_length != 2 && pattern_length != 4) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "fill pattern length must be 1, 2 or 4, got %zu",
                           pattern_length);
  }
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_validate_ref(
      cb, &target, GRT_HAL_BUFFER_USAGE_TRANSFER_TARGET, true,
      "fill target"));
  if (target.offset % pattern_length != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "fill target offset %" PRIu64
                           " is not a multiple of the pattern length %zu",
                           target.offset, pattern_length);
  }
  if (target.length != GRT_HAL_WHOLE_BUFFER &&
      target.length % pattern_length != 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "fill length %" PRIu64
                           " is not a multiple of the pattern length %zu",
                           target.length, pattern_length);
  }
  // Bits above the pattern would otherwise leak into drivers that fill
  // with 32-bit stores.
  if (pattern_length < 4) pattern &= (1u << (pattern_length * 8)) - 1u;
  return GRT_HAL_CB_VTABLE(cb)->fill_buffer(cb, target, pattern,
                                            pattern_length);
}

grt_status_t grt_hal_command_buffer_copy_buffer(grt_hal_command_buffer_t* cb,
                                                grt_hal_buffer_ref_t source,
                                                grt_hal_buffer_ref_t target) {
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_require_recording(cb));
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_validate_ref(
      cb, &source, GRT_HAL_BUFFER_USAGE_TRANSFER_SOURCE, false,
      "copy source"));
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_validate_ref(
      cb, &target, GRT_HAL_BUFFER_USAGE_TRANSFER_TARGET, true,
      "copy target"));
  if (source.length != GRT_HAL_WHOLE_BUFFER &&
      target.length != GRT_HAL_WHOLE_BUFFER && source.length != target.length) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "copy lengths differ: source %" PRIu64
                           " bytes, target %" PRIu64 " bytes",
                           source.length, target.length);
  }
  return GRT_HAL_CB_VTABLE(cb)->copy_buffer(cb, source, target);
}

grt_status_t grt_hal_command_buffer_update_buffer(grt_hal_command_buffer_t* cb,
                                                  const void* source,
                                                  grt_hal_buffer_ref_t target) {
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_require_recording(cb));
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_validate_ref(
      cb, &target, GRT_HAL_BUFFER_USAGE_TRANSFER_TARGET, true,
      "update target"));
  if (target.length == GRT_HAL_WHOLE_BUFFER) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "update of binding slot %" PRIu32
                           " needs an explicit length, not the whole buffer",
                           target.binding_slot);
  }
  if (!source && target.length) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "update of %" PRIu64 " bytes from a NULL source",
                           target.length);
  }
  return GRT_HAL_CB_VTABLE(cb)->update_buffer(cb, source, target);
}

// The one check of a dispatch binding's length against what the entry
// point needs (grt_hal_entry_point_info_t.binding_min_lengths), shared by
// every driver because it runs when the dispatch is recorded. A direct ref
// (length already resolved) or an indirect one with an explicit length is
// checked now; an indirect one of the whole slot records the need for
// submit.
static grt_status_t grt_hal_command_buffer_check_binding_length(
    grt_hal_command_buffer_t* cb, const grt_hal_entry_point_info_t* entry,
    size_t ordinal, const grt_hal_buffer_ref_t* ref, const char* what) {
  uint64_t needed = grt_hal_entry_point_binding_min_length(entry, ordinal);
  if (needed == 0) return grt_ok_status();
  if (ref->buffer || ref->length != GRT_HAL_WHOLE_BUFFER) {
    if (ref->length >= needed) return grt_ok_status();
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "%s: entry point needs at least %" PRIu64
                           " bytes, got %" PRIu64,
                           what, needed, ref->length);
  }
  grt_hal_command_buffer_slot_need_t* need = NULL;
  GRT_RETURN_IF_ERROR(
      grt_hal_command_buffer_slot_need(cb, ref->binding_slot, &need));
  // Saturating: no slot holds UINT64_MAX bytes, so an offset that would
  // wrap fails at submit like any other short slot.
  uint64_t end = ref->offset > UINT64_MAX - needed ? UINT64_MAX
                                                   : ref->offset + needed;
  if (end > need->min_length) {
    need->min_length = end;
    snprintf(need->sized_by, sizeof(need->sized_by),
             "%s needs at least %" PRIu64 " bytes from offset %" PRIu64, what,
             needed, ref->offset);
  }
  return grt_ok_status();
}

grt_status_t grt_hal_command_buffer_dispatch(
    grt_hal_command_buffer_t* cb, const grt_hal_dispatch_params_t* params) {
  GRT_RETURN_IF_ERROR(grt_hal_command_buffer_require_recording(cb));
  if (!params->executable) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "dispatch without an executable");
  }
  const grt_hal_entry_point_info_t* entry = NULL;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_executable_entry_point(params->executable, params->entry_point,
                                     &entry),
      "while recording a dispatch");
  if (params->binding_count != entry->binding_count) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "dispatch of '%.*s': entry point takes %" PRIu32
                           " bindings, got %zu",
                           GRT_SV_ARG(entry->name), entry->binding_count,
                           params->binding_count);
  }
  if (params->constant_count != entry->constant_count) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "dispatch of '%.*s': entry point takes %" PRIu32
                           " constants, got %zu",
                           GRT_SV_ARG(entry->name), entry->constant_count,
                           params->constant_count);
  }
  if ((params->constant_count && !params->constants) ||
      (params->binding_count && !params->bindings)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "dispatch of '%.*s': constants or bindings missing",
                           GRT_SV_ARG(entry->name));
  }
  // The driver sees each binding's resolved length, so it need not redo
  // range arithmetic per dispatch; ranges are checked here.
  enum { kInlineBindings = 32 };
  grt_hal_buffer_ref_t inline_bindings[kInlineBindings];
  grt_hal_buffer_ref_t* bindings = inline_bindings;
  grt_allocator_t host_allocator = grt_allocator_system();
  if (params->binding_count > kInlineBindings) {
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(
        host_allocator, params->binding_count * sizeof(*bindings),
        (void**)&bindings));
  }
  grt_status_t status = grt_ok_status();
  for (size_t i = 0; i < params->binding_count && grt_status_is_ok(status);
       ++i) {
    bindings[i] = params->bindings[i];
    char what[96];
    snprintf(what, sizeof(what), "dispatch of '%.*s' binding %zu",
             GRT_SV_ARG(entry->name), i);
    status = grt_hal_command_buffer_validate_ref(
        cb, &bindings[i], GRT_HAL_BUFFER_USAGE_DISPATCH_STORAGE,
        grt_hal_entry_point_writes_binding(entry, i), what);
    if (grt_status_is_ok(status)) {
      status = grt_hal_command_buffer_check_binding_length(
          cb, entry, i, &bindings[i], what);
    }
  }
  if (grt_status_is_ok(status)) {
    grt_hal_dispatch_params_t resolved = *params;
    resolved.bindings = bindings;
    status = GRT_HAL_CB_VTABLE(cb)->dispatch(cb, &resolved);
  }
  if (bindings != inline_bindings) grt_allocator_free(host_allocator, bindings);
  return status;
}

grt_status_t grt_hal_command_buffer_validate_submission(
    grt_hal_command_buffer_t* cb, grt_hal_buffer_binding_table_t table) {
  if (cb->state != GRT_HAL_COMMAND_BUFFER_STATE_EXECUTABLE) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "command buffer is not executable (state: %s)",
                           grt_hal_command_buffer_state_name(cb->state));
  }
  if (cb->mode == GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT && cb->submit_count) {
    return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                           "one-shot command buffer was already submitted");
  }
  if (table.count < cb->binding_capacity) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "binding table has %zu bindings, command buffer "
                           "needs %" PRIu32,
                           table.count, cb->binding_capacity);
  }
  for (size_t i = 0; i < cb->binding_capacity; ++i) {
    const grt_hal_buffer_binding_t* binding = &table.bindings[i];
    if (!binding->buffer) {
      return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                             "binding table slot %zu has no buffer", i);
    }
    uint64_t length = 0;
    GRT_RETURN_IF_ERROR_ANNOTATED(
        grt_hal_buffer_calculate_range(binding->buffer, binding->offset,
                                       binding->length, &length),
        "binding table slot %zu", i);
    const grt_hal_command_buffer_slot_need_t* need =
        cb->slot_needs ? &cb->slot_needs[i] : NULL;
    if (!need) continue;
    if (need->written) {
      GRT_RETURN_IF_ERROR_ANNOTATED(
          grt_hal_buffer_validate_writable(binding->buffer, need->written_by),
          "binding table slot %zu", i);
    }
    if (length < need->min_length) {
      return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                             "binding table slot %zu: %s, the slot has %" PRIu64
                             " bytes",
                             i, need->sized_by, length);
    }
  }
  ++cb->submit_count;
  return grt_ok_status();
}

grt_status_t grt_hal_dispatch_params_clone_constants(
    grt_allocator_t allocator, const grt_hal_dispatch_params_t* params,
    uint32_t** out_constants) {
  *out_constants = NULL;
  if (!params->constant_count) return grt_ok_status();
  size_t size = params->constant_count * sizeof(uint32_t);
  GRT_RETURN_IF_ERROR(
      grt_allocator_malloc(allocator, size, (void**)out_constants));
  memcpy(*out_constants, params->constants, size);
  return grt_ok_status();
}

grt_status_t grt_hal_buffer_ref_resolve(grt_hal_buffer_ref_t ref,
                                        grt_hal_buffer_binding_table_t table,
                                        grt_hal_buffer_t** out_allocated_buffer,
                                        uint64_t* out_offset,
                                        uint64_t* out_length) {
  *out_allocated_buffer = NULL;
  *out_offset = 0;
  *out_length = 0;
  if (ref.buffer) {
    uint64_t length = 0;
    GRT_RETURN_IF_ERROR(
        grt_hal_buffer_calculate_range(ref.buffer, ref.offset, ref.length,
                                       &length));
    *out_allocated_buffer = ref.buffer->allocated_buffer;
    *out_offset = ref.buffer->byte_offset + ref.offset;
    *out_length = length;
    return grt_ok_status();
  }
  if (ref.binding_slot >= table.count) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "binding slot %" PRIu32
                           " is outside the binding table of %zu",
                           ref.binding_slot, table.count);
  }
  const grt_hal_buffer_binding_t* binding = &table.bindings[ref.binding_slot];
  if (!binding->buffer) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "binding table slot %" PRIu32 " has no buffer",
                           ref.binding_slot);
  }
  uint64_t binding_length = 0;
  GRT_RETURN_IF_ERROR_ANNOTATED(
      grt_hal_buffer_calculate_range(binding->buffer, binding->offset,
                                     binding->length, &binding_length),
      "binding table slot %" PRIu32, ref.binding_slot);
  if (ref.offset > binding_length) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "offset %" PRIu64
                           " is outside binding table slot %" PRIu32
                           " of %" PRIu64 " bytes",
                           ref.offset, ref.binding_slot, binding_length);
  }
  uint64_t length = ref.length;
  if (length == GRT_HAL_WHOLE_BUFFER) {
    length = binding_length - ref.offset;
  } else if (length > binding_length - ref.offset) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "range [%" PRIu64 ", %" PRIu64
                           ") is outside binding table slot %" PRIu32
                           " of %" PRIu64 " bytes",
                           ref.offset, ref.offset + length, ref.binding_slot,
                           binding_length);
  }
  *out_allocated_buffer = binding->buffer->allocated_buffer;
  *out_offset = binding->buffer->byte_offset + binding->offset + ref.offset;
  *out_length = length;
  return grt_ok_status();
}

#include "compiler/host/host.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/endian.h"
#include "compiler/host/memory_plan.h"
#include "compiler/mlir/parser.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/vm_syntax.h"

// HAL values the program passes (hal/buffer.h, hal/buffer_view.h); the
// compiler does not link the HAL, so they are restated here and checked
// end to end by the runtime tests.
#define GRTC_HOST_MEMORY_DEVICE_LOCAL 1
#define GRTC_HOST_USAGE_DEFAULT 7  // transfer | dispatch storage
#define GRTC_HOST_ONE_SHOT 0
#define GRTC_HOST_REUSABLE 1
#define GRTC_HOST_NO_SLOT UINT32_MAX

// X(elem, HAL numerical kind): element type = (kind << 24) | bits.
#define GRTC_HOST_ELEMENT_KIND_LIST(X) \
  X(I1, 0x10) X(I8, 0x10) X(I16, 0x10) X(I32, 0x10) X(I64, 0x10) \
  X(U8, 0x12) X(U16, 0x12) X(U32, 0x12) X(U64, 0x12)             \
  X(F16, 0x21) X(BF16, 0x22) X(F32, 0x21) X(F64, 0x21)

static uint32_t grtc_host_element_type(grtc_elem_t elem) {
  static const uint32_t kinds[GRTC_ELEM_COUNT] = {
#define GRTC_HOST_KIND(name, kind) [GRTC_ELEM_##name] = kind,
      GRTC_HOST_ELEMENT_KIND_LIST(GRTC_HOST_KIND)
#undef GRTC_HOST_KIND
  };
  return (kinds[elem] << 24) | grtc_elem_bit_width(elem);
}

// The imports every program declares (unused ones cost a table entry).
static const char* const grtc_host_imports[] = {
    "vm.import private @hal.allocator.allocate(%allocator : !hal.allocator, %memory_types : i32, "
    "%buffer_usage : i32, %size : i64) -> !hal.buffer",
    "vm.import private @hal.allocator.import(%allocator : !hal.allocator, %source : !vm.buffer, "
    "%offset : i64, %length : i64) -> !hal.buffer",
    "vm.import private @hal.buffer.load(%buffer : !hal.buffer, %offset : i64, %length : i32) -> i32",
    "vm.import private @hal.buffer.subspan(%buffer : !hal.buffer, %offset : i64, %length : i64) "
    "-> !hal.buffer",
    "vm.import private @hal.buffer_view.assert(%view : !hal.buffer_view, %message : !vm.buffer, "
    "%element_type : i32, %encoding : i32, %dims : i64 ...)",
    "vm.import private @hal.buffer_view.buffer(%view : !hal.buffer_view) -> !hal.buffer",
    "vm.import private @hal.buffer_view.create(%buffer : !hal.buffer, %offset : i64, "
    "%length : i64, %element_type : i32, %encoding : i32, %dims : i64 ...) -> !hal.buffer_view",
    "vm.import private @hal.command_buffer.begin(%cb : !hal.command_buffer)",
    "vm.import private @hal.command_buffer.copy_buffer(%cb : !hal.command_buffer, "
    "%source_slot : i32, %target_slot : i32, %source : !hal.buffer, %source_offset : i64, "
    "%target : !hal.buffer, %target_offset : i64, %length : i64)",
    "vm.import private @hal.command_buffer.create(%device : !hal.device, %mode : i32, "
    "%binding_capacity : i32) -> !hal.command_buffer",
    "vm.import private @hal.command_buffer.dispatch(%cb : !hal.command_buffer, "
    "%executable : !hal.executable, %entry_point : i32, %x : i32, %y : i32, %z : i32, "
    "%constants : i32 ..., %bindings : tuple<i32, !hal.buffer, i64, i64> ...)",
    "vm.import private @hal.command_buffer.end(%cb : !hal.command_buffer)",
    "vm.import private @hal.command_buffer.execution_barrier(%cb : !hal.command_buffer)",
    "vm.import private @hal.device.allocator(%device : !hal.device) -> !hal.allocator",
    "vm.import private @hal.device.queue.execute(%device : !hal.device, %wait : !hal.fence, "
    "%signal : !hal.fence, %command_buffers : !hal.command_buffer ...)",
    "vm.import private @hal.device.queue.execute.indirect(%device : !hal.device, "
    "%wait : !hal.fence, %signal : !hal.fence, %cb : !hal.command_buffer, "
    "%binding_table : tuple<!hal.buffer, i64, i64> ...)",
    "vm.import private @hal.devices.get(%index : i32) -> !hal.device",
    "vm.import private @hal.executable.lookup(%device : !hal.device, %module : !vm.buffer) "
    "-> !hal.executable",
    "vm.import private @hal.fence.await(%timeout_ms : i32, %fences : !hal.fence ...) -> i32",
    "vm.import private @hal.fence.create(%device : !hal.device) -> !hal.fence",
    "vm.import private @check.expect_almost_eq(%device : !hal.device, %lhs : !hal.buffer_view, "
    "%rhs : !hal.buffer_view, %atol : f32, %rtol : f32)",
    "vm.import private @check.expect_close(%device : !hal.device, %lhs : !hal.buffer_view, "
    "%rhs : !hal.buffer_view, %max_ulp : i64, %min_ulp : i64)",
    "vm.import private @check.expect_eq(%device : !hal.device, %lhs : !hal.buffer_view, "
    "%rhs : !hal.buffer_view)",
    "vm.import private @check.expect_false(%value : i32)",
    "vm.import private @check.expect_true(%value : i32)",
};

#define GRTC_HOST_NAME_CAPACITY 32
#define GRTC_HOST_MODULE_NAME_CAPACITY 128
#define GRTC_HOST_NO_BASE UINT32_MAX  // the arena, in hazard ranges

// Where a value's bytes are for a binding: |ref| names the !hal.buffer
// (a null ref when the bytes are binding-table slot |slot| of a reusable
// recording; |offset| is then relative to the slot's range).
typedef struct grtc_host_place_t {
  const char* ref;
  int64_t offset;
  int64_t size;
  uint32_t base;  // root value id, or GRTC_HOST_NO_BASE for the arena
  uint32_t slot;
} grtc_host_place_t;

// A byte range touched since the last barrier.
typedef struct grtc_host_range_t {
  uint32_t base;
  int64_t begin, end;
  bool write;
} grtc_host_range_t;

typedef struct grtc_host_const_t {
  char type;  // 'i' i32, 'I' i64, 'f' f32
  int64_t value;
  char name[GRTC_HOST_NAME_CAPACITY];
} grtc_host_const_t;

typedef struct grtc_host_emitter_t {
  const grtc_tmodule_t* module;
  const grtc_kernel_set_t* kernels;
  grt_allocator_t allocator;
  grt_string_builder_t* out;
  // Per function:
  const grtc_tfunc_t* func;
  grtc_memory_plan_t plan;
  char (*names)[GRTC_HOST_NAME_CAPACITY];  // per value id: its buffer ref
  grt_string_builder_t entry;  // constants, hoisted to the entry block
  grt_string_builder_t body;
  grt_arena_t const_arena;
  grtc_host_const_t** consts;
  uint32_t const_count;
  uint32_t const_capacity;
  bool out_of_memory;
  uint32_t next_temp;
  uint32_t next_block;
  char loc[512];  // the current op's loc(...)
  bool recording;
  char cb[GRTC_HOST_NAME_CAPACITY];
  grtc_host_range_t* ranges;
  uint32_t range_count;
  uint32_t range_capacity;
  uint32_t max_argument_count;
  const grtc_host_options_t* options;
  // Reusable recording of a straight-line function: every argument, the
  // arena and every result allocation is a binding-table slot, so one
  // recording serves every call.
  bool reusable;
  uint32_t* slots;  // per root value id, or GRTC_HOST_NO_SLOT
  uint32_t* constant_ids;  // per CONSTANT result: the id naming its segment
  uint32_t slot_count;
  uint32_t arena_slot;
  uint32_t function_index;
  char module_name[GRTC_HOST_MODULE_NAME_CAPACITY];
} grtc_host_emitter_t;

//===----------------------------------------------------------------------===//
// Text helpers
//===----------------------------------------------------------------------===//

static void grtc_host_temp(grtc_host_emitter_t* e, char name[GRTC_HOST_NAME_CAPACITY]) {
  snprintf(name, GRTC_HOST_NAME_CAPACITY, "%%t%u", e->next_temp++);
}

// One emitted op: the text, then the current tensor op's location.
static void grtc_host_line(grtc_host_emitter_t* e, const char* format, ...)
    GRT_PRINTF_LIKE(2, 3);
static void grtc_host_line(grtc_host_emitter_t* e, const char* format, ...) {
  grt_string_builder_append_cstring(&e->body, "    ");
  va_list args;
  va_start(args, format);
  grt_string_builder_appendv(&e->body, format, args);
  va_end(args);
  grt_string_builder_appendf(&e->body, "%s\n", e->loc);
}

// loc("file":line:col) of |location| (else |line|:|column| in the module's
// file), escaped for a string literal.
static void grtc_host_set_location(grtc_host_emitter_t* e, const grtc_location_t* location,
                                   uint32_t line, uint32_t column) {
  grt_string_view_t file = grt_make_cstring_view(e->module->file_name ? e->module->file_name
                                                                      : "<unknown>");
  if (location) {
    grt_string_view_t loc_file;
    uint32_t loc_line = 0, loc_column = 0;
    if (grtc_location_file_position(location, &loc_file, &loc_line, &loc_column)) {
      file = loc_file;
      line = loc_line;
      column = loc_column;
    }
  }
  size_t n = 0;
  n += (size_t)snprintf(e->loc + n, sizeof(e->loc) - n, " loc(\"");
  for (size_t i = 0; i < file.size && n + 8 < sizeof(e->loc) - 32; ++i) {
    char c = file.data[i];
    if (c == '"' || c == '\\') e->loc[n++] = '\\';
    e->loc[n++] = (c == '\n') ? ' ' : c;
  }
  snprintf(e->loc + n, sizeof(e->loc) - n, "\":%u:%u)", line, column);
}

// A constant defined once in the function's entry block.
static const char* grtc_host_const(grtc_host_emitter_t* e, char type, int64_t value) {
  for (uint32_t i = 0; i < e->const_count; ++i) {
    if (e->consts[i]->type == type && e->consts[i]->value == value) return e->consts[i]->name;
  }
  // Entries live in an arena so names handed out stay valid while a line
  // that uses several of them is formatted.
  grtc_host_const_t* c = NULL;
  if (e->const_count == e->const_capacity) {
    uint32_t capacity = e->const_capacity ? e->const_capacity * 2 : 64;
    if (!grt_status_is_ok(grt_allocator_realloc(e->allocator,
                                                e->const_capacity * sizeof(*e->consts),
                                                capacity * sizeof(*e->consts),
                                                (void**)&e->consts))) {
      e->out_of_memory = true;
      return "%out_of_memory";
    }
    e->const_capacity = capacity;
  }
  c = grt_arena_alloc_zeroed(&e->const_arena, sizeof(*c));
  if (!c) {
    e->out_of_memory = true;
    return "%out_of_memory";
  }
  e->consts[e->const_count++] = c;
  char* name = c->name;
  grtc_host_temp(e, name);
  const char* spelled = type == 'i' ? "i32" : type == 'I' ? "i64" : "f32";
  if (type == 'f') {
    float f;
    uint32_t bits = (uint32_t)value;
    memcpy(&f, &bits, sizeof(f));
    grt_string_builder_appendf(&e->entry, "    %s = vm.const.f32 %.9g : f32\n", name, (double)f);
  } else {
    grt_string_builder_appendf(&e->entry, "    %s = vm.const.%s %" PRId64 " : %s\n", name,
                               spelled, value, spelled);
  }
  c->type = type;
  c->value = value;
  return c->name;
}

static const char* grtc_host_i32(grtc_host_emitter_t* e, int64_t v) {
  return grtc_host_const(e, 'i', v);
}
static const char* grtc_host_i64(grtc_host_emitter_t* e, int64_t v) {
  return grtc_host_const(e, 'I', v);
}

// A symbol name, bare when MLIR allows it, else quoted.
static void grtc_host_symbol(grt_string_builder_t* out, grt_string_view_t name,
                             const char* suffix) {
  bool bare = name.size > 0 && (name.data[0] == '_' || (name.data[0] | 0x20) >= 'a') &&
              ((name.data[0] | 0x20) <= 'z' || name.data[0] == '_');
  for (size_t i = 0; i < name.size && bare; ++i) {
    char c = name.data[i];
    bare = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '.';
  }
  if (bare) {
    grt_string_builder_appendf(out, "@%.*s%s", GRT_SV_ARG(name), suffix);
  } else {
    grt_string_builder_appendf(out, "@\"%.*s%s\"", GRT_SV_ARG(name), suffix);
  }
}

// "[%d0, %d1]": a shape as a variadic i64 span.
static void grtc_host_shape_span(grtc_host_emitter_t* e, const grtc_ttype_t* type, char* out,
                                 size_t capacity) {
  size_t n = (size_t)snprintf(out, capacity, "[");
  for (uint32_t d = 0; d < type->rank && n < capacity; ++d) {
    n += (size_t)snprintf(out + n, capacity - n, "%s%s", d ? ", " : "",
                          grtc_host_i64(e, type->dims[d]));
  }
  if (n < capacity) snprintf(out + n, capacity - n, "]");
}

//===----------------------------------------------------------------------===//
// Values and recording
//===----------------------------------------------------------------------===//

static const grtc_value_storage_t* grtc_host_storage(grtc_host_emitter_t* e,
                                                     const grtc_tvalue_t* value) {
  return grtc_memory_plan_storage(&e->plan, value);
}

static grtc_host_place_t grtc_host_place(grtc_host_emitter_t* e, const grtc_tvalue_t* value) {
  const grtc_value_storage_t* s = grtc_host_storage(e, value);
  grtc_host_place_t place = {e->names[s->root->id], 0, s->size, s->root->id, 0};
  if (s->kind == GRTC_STORAGE_ARENA) {
    place.ref = "%arena";
    place.offset = s->offset;
    place.base = GRTC_HOST_NO_BASE;
  }
  if (e->reusable && e->recording) {
    uint32_t slot = s->kind == GRTC_STORAGE_ARENA ? e->arena_slot : e->slots[s->root->id];
    if (slot != GRTC_HOST_NO_SLOT) {
      place.ref = "%indirect";
      place.slot = slot;
    }
  }
  return place;
}

// A !hal.buffer holding exactly |value|'s bytes (a subspan for arena values).
static void grtc_host_buffer_of(grtc_host_emitter_t* e, const grtc_tvalue_t* value,
                                char name[GRTC_HOST_NAME_CAPACITY]) {
  grtc_host_place_t place = grtc_host_place(e, value);
  if (place.base != GRTC_HOST_NO_BASE) {
    snprintf(name, GRTC_HOST_NAME_CAPACITY, "%s", place.ref);
    return;
  }
  grtc_host_temp(e, name);
  grtc_host_line(e,
                 "%s = vm.call @hal.buffer.subspan(%%arena, %s, %s) : (!hal.buffer, i64, i64) -> "
                 "!hal.buffer",
                 name, grtc_host_i64(e, place.offset), grtc_host_i64(e, place.size));
}

static void grtc_host_view_of(grtc_host_emitter_t* e, const grtc_tvalue_t* value,
                              char name[GRTC_HOST_NAME_CAPACITY]) {
  char buffer[GRTC_HOST_NAME_CAPACITY];
  grtc_host_buffer_of(e, value, buffer);
  char dims[512];
  grtc_host_shape_span(e, &value->type, dims, sizeof(dims));
  grtc_host_temp(e, name);
  grtc_host_line(e,
                 "%s = vm.call.variadic @hal.buffer_view.create(%s, %s, %s, %s, %s, %s) : "
                 "(!hal.buffer, i64, i64, i32, i32, i64 ...) -> !hal.buffer_view",
                 name, buffer, grtc_host_i64(e, 0),
                 grtc_host_i64(e, grtc_ttype_byte_size(&value->type)),
                 grtc_host_i32(e, grtc_host_element_type(value->type.elem)),
                 grtc_host_i32(e, 0), dims);
}

static void grtc_host_allocate(grtc_host_emitter_t* e, const char* name, int64_t size) {
  grtc_host_line(e,
                 "%s = vm.call @hal.allocator.allocate(%%allocator, %s, %s, %s) : "
                 "(!hal.allocator, i32, i32, i64) -> !hal.buffer",
                 name, grtc_host_i32(e, GRTC_HOST_MEMORY_DEVICE_LOCAL),
                 grtc_host_i32(e, GRTC_HOST_USAGE_DEFAULT), grtc_host_i64(e, size));
}

static void grtc_host_begin_recording(grtc_host_emitter_t* e) {
  if (e->recording) return;
  grtc_host_temp(e, e->cb);
  grtc_host_line(e,
                 "%s = vm.call @hal.command_buffer.create(%%device, %s, %s) : "
                 "(!hal.device, i32, i32) -> !hal.command_buffer",
                 e->cb, grtc_host_i32(e, e->reusable ? GRTC_HOST_REUSABLE : GRTC_HOST_ONE_SHOT),
                 grtc_host_i32(e, e->reusable ? e->slot_count : 0));
  grtc_host_line(e, "vm.call @hal.command_buffer.begin(%s) : (!hal.command_buffer) -> ()", e->cb);
  e->recording = true;
  e->range_count = 0;
}

// Submits what is recorded and waits for it: the host reads results next.
static void grtc_host_flush(grtc_host_emitter_t* e) {
  if (!e->recording) return;
  char null_fence[GRTC_HOST_NAME_CAPACITY], fence[GRTC_HOST_NAME_CAPACITY],
      reached[GRTC_HOST_NAME_CAPACITY];
  grtc_host_temp(e, null_fence);
  grtc_host_temp(e, fence);
  grtc_host_temp(e, reached);
  grtc_host_line(e, "vm.call @hal.command_buffer.end(%s) : (!hal.command_buffer) -> ()", e->cb);
  grtc_host_line(e, "%s = vm.const.ref.zero : !hal.fence", null_fence);
  grtc_host_line(e, "%s = vm.call @hal.fence.create(%%device) : (!hal.device) -> !hal.fence",
                 fence);
  grtc_host_line(e,
                 "vm.call.variadic @hal.device.queue.execute(%%device, %s, %s, [%s]) : "
                 "(!hal.device, !hal.fence, !hal.fence, !hal.command_buffer ...) -> ()",
                 null_fence, fence, e->cb);
  grtc_host_line(e,
                 "%s = vm.call.variadic @hal.fence.await(%s, [%s]) : (i32, !hal.fence ...) -> i32",
                 reached, grtc_host_i32(e, -1), fence);
  e->recording = false;
  e->range_count = 0;
}

static bool grtc_host_ranges_conflict(const grtc_host_range_t* a, const grtc_host_range_t* b) {
  return a->base == b->base && a->begin < b->end && b->begin < a->end && (a->write || b->write);
}

// Adds the accesses of one command, first recording a barrier when one of
// them reads what an earlier command since the last barrier wrote, or
// writes what it read or wrote (arena space reused included).
static grt_status_t grtc_host_access(grtc_host_emitter_t* e, const grtc_host_range_t* ranges,
                                     uint32_t count) {
  bool barrier = false;
  for (uint32_t i = 0; i < count && !barrier; ++i) {
    for (uint32_t j = 0; j < e->range_count && !barrier; ++j) {
      barrier = grtc_host_ranges_conflict(&ranges[i], &e->ranges[j]);
    }
  }
  if (barrier) {
    grtc_host_line(e,
                   "vm.call @hal.command_buffer.execution_barrier(%s) : (!hal.command_buffer) -> ()",
                   e->cb);
    e->range_count = 0;
  }
  if (e->range_count + count > e->range_capacity) {
    uint32_t capacity = e->range_capacity ? e->range_capacity * 2 : 64;
    while (capacity < e->range_count + count) capacity *= 2;
    GRT_RETURN_IF_ERROR(grt_allocator_realloc(e->allocator, e->range_capacity * sizeof(*e->ranges),
                                              capacity * sizeof(*e->ranges),
                                              (void**)&e->ranges));
    e->range_capacity = capacity;
  }
  memcpy(e->ranges + e->range_count, ranges, count * sizeof(*ranges));
  e->range_count += count;
  return grt_ok_status();
}

static grtc_host_range_t grtc_host_range(const grtc_host_place_t* place, bool write) {
  grtc_host_range_t range = {place->base, place->offset, place->offset + place->size, write};
  return range;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

static grt_status_t grtc_host_emit_block(grtc_host_emitter_t* e, const grtc_tblock_t* block);

static grt_status_t grtc_host_emit_dispatch(grtc_host_emitter_t* e, const grtc_top_t* op) {
  if (op->attrs.kernel >= e->kernels->count) {
    return grtc_top_error(e->module, op, "dispatch names kernel %u but the kernel set has %u",
                          op->attrs.kernel, e->kernels->count);
  }
  const grtc_kernel_t* kernel = e->kernels->kernels[op->attrs.kernel];
  bool tied = op->attrs.tied && op->result_count > 0 && op->attrs.tied_operand < op->operand_count;
  uint32_t binding_count = op->operand_count + op->result_count - (tied ? 1u : 0u);
  if (kernel->binding_count != binding_count) {
    return grtc_top_error(e->module, op,
                          "dispatch has %u bindings but kernel '%.*s' expects %u", binding_count,
                          GRT_SV_ARG(kernel->name), kernel->binding_count);
  }
  // Results with allocations of their own.
  for (uint32_t r = 0; r < op->result_count; ++r) {
    const grtc_value_storage_t* s = grtc_host_storage(e, &op->results[r]);
    if (s->root == &op->results[r] && s->kind == GRTC_STORAGE_OWN && !e->reusable) {
      grtc_host_allocate(e, e->names[op->results[r].id], s->size);
    }
  }
  // An empty iteration space (zero-sized tensors) has nothing to run or
  // copy.
  if (kernel->workgroup_count == 0) return grt_ok_status();
  grtc_host_begin_recording(e);
  // A tied result that the plan made its own root (its operand's bytes
  // belong to someone else: an argument, a constant) starts as a copy.
  if (tied && grtc_host_storage(e, &op->results[0])->root == &op->results[0]) {
    grtc_host_place_t source = grtc_host_place(e, op->operands[op->attrs.tied_operand]);
    grtc_host_place_t target = grtc_host_place(e, &op->results[0]);
    grtc_host_range_t ranges[2] = {grtc_host_range(&source, false),
                                   grtc_host_range(&target, true)};
    GRT_RETURN_IF_ERROR(grtc_host_access(e, ranges, 2));
    grtc_host_line(e,
                   "vm.call @hal.command_buffer.copy_buffer(%s, %s, %s, %s, %s, %s, %s, %s) : "
                   "(!hal.command_buffer, i32, i32, !hal.buffer, i64, !hal.buffer, i64, i64) -> ()",
                   e->cb, grtc_host_i32(e, source.slot), grtc_host_i32(e, target.slot), source.ref,
                   grtc_host_i64(e, source.offset), target.ref, grtc_host_i64(e, target.offset),
                   grtc_host_i64(e, target.size));
  }
  grt_string_builder_t bindings;
  grt_string_builder_init(e->allocator, &bindings);
  grtc_host_range_t* ranges = NULL;
  grt_status_t status = grt_allocator_malloc(
      e->allocator, (binding_count ? binding_count : 1) * sizeof(*ranges), (void**)&ranges);
  uint32_t n = 0;
  for (uint32_t b = 0; b < op->operand_count + op->result_count && grt_status_is_ok(status); ++b) {
    bool is_result = b >= op->operand_count;
    if (is_result && tied && b - op->operand_count == 0) continue;
    const grtc_tvalue_t* value =
        is_result ? &op->results[b - op->operand_count] : op->operands[b];
    bool writes = is_result || (tied && b == op->attrs.tied_operand);
    // The tied operand's binding is the result's bytes (the same, or the
    // copy made above).
    grtc_host_place_t place =
        grtc_host_place(e, tied && b == op->attrs.tied_operand ? &op->results[0] : value);
    ranges[n++] = grtc_host_range(&place, writes);
    grt_string_builder_appendf(&bindings, "%s(%s, %s, %s, %s)", n > 1 ? ", " : "",
                               grtc_host_i32(e, place.slot), place.ref, grtc_host_i64(e, place.offset),
                               grtc_host_i64(e, place.size));
  }
  if (grt_status_is_ok(status)) status = grtc_host_access(e, ranges, n);
  if (grt_status_is_ok(status)) status = grt_string_builder_status(&bindings);
  if (grt_status_is_ok(status)) {
    const char* one = grtc_host_i32(e, 1);
    grtc_host_line(e,
                   "vm.call.variadic @hal.command_buffer.dispatch(%s, %%executable, %s, %s, %s, "
                   "%s, [], [%s]) : (!hal.command_buffer, !hal.executable, i32, i32, i32, i32, "
                   "i32 ..., tuple<i32, !hal.buffer, i64, i64> ...) -> ()",
                   e->cb, grtc_host_i32(e, op->attrs.kernel),
                   grtc_host_i32(e, kernel->workgroup_count), one, one,
                   grt_string_builder_cstring(&bindings));
  }
  grt_allocator_free(e->allocator, ranges);
  grt_string_builder_deinit(&bindings);
  return status;
}

// An i1/i32 scalar read back to the host (after the recorded work ran).
static void grtc_host_load_scalar(grtc_host_emitter_t* e, const grtc_tvalue_t* value,
                                  char name[GRTC_HOST_NAME_CAPACITY]) {
  grtc_host_place_t place = grtc_host_place(e, value);
  size_t width = grtc_elem_byte_size(value->type.elem);
  if (width > 4) width = 4;  // the low bytes (little-endian)
  grtc_host_temp(e, name);
  grtc_host_line(e, "%s = vm.call @hal.buffer.load(%s, %s, %s) : (!hal.buffer, i64, i32) -> i32",
                 name, place.ref, grtc_host_i64(e, place.offset), grtc_host_i32(e, (int64_t)width));
}

static grt_status_t grtc_host_emit_check(grtc_host_emitter_t* e, const grtc_top_t* op) {
  grtc_host_flush(e);
  char lhs[GRTC_HOST_NAME_CAPACITY], rhs[GRTC_HOST_NAME_CAPACITY];
  switch (op->kind) {
    case GRTC_TOP_CHECK_EQ:
    case GRTC_TOP_CHECK_ALMOST_EQ:
    case GRTC_TOP_CHECK_CLOSE:
      if (op->operand_count != 2) {
        return grtc_top_error(e->module, op, "'%s' expects 2 operands, got %u",
                              grtc_top_kind_name(op->kind), op->operand_count);
      }
      grtc_host_view_of(e, op->operands[0], lhs);
      grtc_host_view_of(e, op->operands[1], rhs);
      if (op->kind == GRTC_TOP_CHECK_EQ) {
        grtc_host_line(e,
                       "vm.call @check.expect_eq(%%device, %s, %s) : (!hal.device, "
                       "!hal.buffer_view, !hal.buffer_view) -> ()",
                       lhs, rhs);
      } else if (op->kind == GRTC_TOP_CHECK_CLOSE) {
        grtc_host_line(e,
                       "vm.call @check.expect_close(%%device, %s, %s, %s, %s) : (!hal.device, "
                       "!hal.buffer_view, !hal.buffer_view, i64, i64) -> ()",
                       lhs, rhs, grtc_host_i64(e, op->attrs.max_ulp),
                       grtc_host_i64(e, op->attrs.min_ulp));
      } else {
        float atol = (float)op->attrs.atol, rtol = (float)op->attrs.rtol;
        uint32_t atol_bits, rtol_bits;
        memcpy(&atol_bits, &atol, 4);
        memcpy(&rtol_bits, &rtol, 4);
        grtc_host_line(e,
                       "vm.call @check.expect_almost_eq(%%device, %s, %s, %s, %s) : (!hal.device, "
                       "!hal.buffer_view, !hal.buffer_view, f32, f32) -> ()",
                       lhs, rhs, grtc_host_const(e, 'f', atol_bits),
                       grtc_host_const(e, 'f', rtol_bits));
      }
      return grt_ok_status();
    case GRTC_TOP_CHECK_TRUE:
    case GRTC_TOP_CHECK_FALSE:
      if (op->operand_count != 1 || grtc_ttype_element_count(&op->operands[0]->type) != 1) {
        return grtc_top_error(e->module, op, "'%s' expects one single-element operand",
                              grtc_top_kind_name(op->kind));
      }
      grtc_host_load_scalar(e, op->operands[0], lhs);
      grtc_host_line(e, "vm.call @check.%s(%s) : (i32) -> ()",
                     op->kind == GRTC_TOP_CHECK_TRUE ? "expect_true" : "expect_false", lhs);
      return grt_ok_status();
    default:
      return grtc_top_error(e->module, op, "'%s' is not a check op", grtc_top_kind_name(op->kind));
  }
}

// "%a, %b" (materialized buffers of |values|) and "!hal.buffer, ..." types.
static void grtc_host_buffer_list(grtc_host_emitter_t* e, grtc_tvalue_t* const* values,
                                  uint32_t count, grt_string_builder_t* names,
                                  grt_string_builder_t* types) {
  for (uint32_t i = 0; i < count; ++i) {
    char name[GRTC_HOST_NAME_CAPACITY];
    grtc_host_buffer_of(e, values[i], name);
    if (names) grt_string_builder_appendf(names, "%s%s", i ? ", " : "", name);
    if (types) grt_string_builder_appendf(types, "%s!hal.buffer", i ? ", " : "");
  }
}

// Names the results of a multi-result op "%rN#i" (or "%rN" for one).
static void grtc_host_name_results(grtc_host_emitter_t* e, const grtc_top_t* op,
                                   char group[GRTC_HOST_NAME_CAPACITY]) {
  snprintf(group, GRTC_HOST_NAME_CAPACITY, "%%r%u", e->next_temp++);
  for (uint32_t r = 0; r < op->result_count; ++r) {
    if (op->result_count == 1) {
      snprintf(e->names[op->results[r].id], GRTC_HOST_NAME_CAPACITY, "%s", group);
    } else {
      snprintf(e->names[op->results[r].id], GRTC_HOST_NAME_CAPACITY, "%s#%u", group, r);
    }
  }
}

static grt_status_t grtc_host_emit_call(grtc_host_emitter_t* e, const grtc_top_t* op) {
  grtc_host_flush(e);
  const grtc_tfunc_t* callee = op->attrs.callee;
  if (!callee) return grtc_top_error(e->module, op, "call has no callee");
  grt_string_builder_t args, arg_types, result_types, symbol;
  grt_string_builder_init(e->allocator, &args);
  grt_string_builder_init(e->allocator, &arg_types);
  grt_string_builder_init(e->allocator, &result_types);
  grt_string_builder_init(e->allocator, &symbol);
  grtc_host_buffer_list(e, op->operands, op->operand_count, &args, &arg_types);
  for (uint32_t r = 0; r < op->result_count; ++r) {
    grt_string_builder_appendf(&result_types, "%s!hal.buffer", r ? ", " : "");
  }
  grtc_host_symbol(&symbol, callee->name, "$buffers");
  char group[GRTC_HOST_NAME_CAPACITY] = "";
  if (op->result_count) grtc_host_name_results(e, op, group);
  grt_status_t status = grt_string_builder_status(&args);
  if (grt_status_is_ok(status)) status = grt_string_builder_status(&symbol);
  if (grt_status_is_ok(status)) {
    char prefix[GRTC_HOST_NAME_CAPACITY + 8] = "";
    if (op->result_count > 1) {
      snprintf(prefix, sizeof(prefix), "%s:%u = ", group, op->result_count);
    } else if (op->result_count == 1) {
      snprintf(prefix, sizeof(prefix), "%s = ", group);
    }
    grtc_host_line(e, "%svm.call %s(%s) : (%s) -> (%s)", prefix,
                   grt_string_builder_cstring(&symbol), grt_string_builder_cstring(&args),
                   grt_string_builder_cstring(&arg_types),
                   grt_string_builder_cstring(&result_types));
  }
  grt_string_builder_deinit(&symbol);
  grt_string_builder_deinit(&result_types);
  grt_string_builder_deinit(&arg_types);
  grt_string_builder_deinit(&args);
  return status;
}

// "^bbN(%v1 : !hal.buffer, ...):" for |block|'s arguments, or results.
static void grtc_host_block_header(grtc_host_emitter_t* e, uint32_t label,
                                   const grtc_tvalue_t* values, uint32_t count) {
  grt_string_builder_appendf(&e->body, "  ^bb%u", label);
  if (count) {
    grt_string_builder_append_cstring(&e->body, "(");
    for (uint32_t i = 0; i < count; ++i) {
      snprintf(e->names[values[i].id], GRTC_HOST_NAME_CAPACITY, "%%v%u", values[i].id);
      grt_string_builder_appendf(&e->body, "%s%s : !hal.buffer", i ? ", " : "",
                                 e->names[values[i].id]);
    }
    grt_string_builder_append_cstring(&e->body, ")");
  }
  grt_string_builder_append_cstring(&e->body, ":\n");
}

// "^bbN(%a, %b : !hal.buffer, !hal.buffer)" passing |values|' buffers.
static grt_status_t grtc_host_successor(grtc_host_emitter_t* e, uint32_t label,
                                        grtc_tvalue_t* const* values, uint32_t count,
                                        grt_string_builder_t* out) {
  grt_string_builder_appendf(out, "^bb%u", label);
  if (!count) return grt_ok_status();
  grt_string_builder_t names, types;
  grt_string_builder_init(e->allocator, &names);
  grt_string_builder_init(e->allocator, &types);
  grtc_host_buffer_list(e, values, count, &names, &types);
  grt_string_builder_appendf(out, "(%s : %s)", grt_string_builder_cstring(&names),
                             grt_string_builder_cstring(&types));
  grt_status_t status = grt_string_builder_status(&names);
  grt_string_builder_deinit(&types);
  grt_string_builder_deinit(&names);
  return status;
}

static const grtc_top_t* grtc_host_terminator(const grtc_tblock_t* block) {
  return block->last && (block->last->kind == GRTC_TOP_YIELD ||
                         block->last->kind == GRTC_TOP_RETURN)
             ? block->last
             : NULL;
}

// Emits a region's ops; its YIELD branches to |label| with the yielded
// buffers (|label| == UINT32_MAX: the caller handles the YIELD, which is
// returned through |out_yield|).
static grt_status_t grtc_host_emit_region(grtc_host_emitter_t* e, const grtc_top_t* parent,
                                          const grtc_tblock_t* region, uint32_t label,
                                          const grtc_top_t** out_yield) {
  GRT_RETURN_IF_ERROR(grtc_host_emit_block(e, region));
  const grtc_top_t* yield = grtc_host_terminator(region);
  if (!yield || yield->kind != GRTC_TOP_YIELD) {
    return grtc_top_error(e->module, parent, "'%s' region does not end in a yield",
                          grtc_top_kind_name(parent->kind));
  }
  grtc_host_set_location(e, yield->location, yield->line, yield->column);
  grtc_host_flush(e);
  if (out_yield) *out_yield = yield;
  if (label == UINT32_MAX) return grt_ok_status();
  grt_string_builder_t target;
  grt_string_builder_init(e->allocator, &target);
  grt_status_t status =
      grtc_host_successor(e, label, yield->operands, yield->operand_count, &target);
  if (grt_status_is_ok(status)) {
    grtc_host_line(e, "vm.br %s", grt_string_builder_cstring(&target));
  }
  grt_string_builder_deinit(&target);
  return status;
}

static grt_status_t grtc_host_emit_if_case(grtc_host_emitter_t* e, const grtc_top_t* op) {
  if (op->operand_count != 1 || op->region_count == 0 ||
      (op->kind == GRTC_TOP_IF && op->region_count != 2)) {
    return grtc_top_error(e->module, op, "'%s' has an unexpected form (%u operands, %u regions)",
                          grtc_top_kind_name(op->kind), op->operand_count, op->region_count);
  }
  grtc_host_flush(e);
  char selector[GRTC_HOST_NAME_CAPACITY];
  grtc_host_load_scalar(e, op->operands[0], selector);
  uint32_t first = e->next_block;
  e->next_block += op->region_count + 1;
  uint32_t join = first + op->region_count;
  if (op->kind == GRTC_TOP_IF) {
    grtc_host_line(e, "vm.cond_br %s, ^bb%u, ^bb%u", selector, first, first + 1);
  } else {
    // Index i picks region i; anything else (negative or too large) the
    // last region, the default.
    uint32_t tests = op->region_count - 1;
    uint32_t next_test = e->next_block;
    e->next_block += tests;
    for (uint32_t i = 0; i < tests; ++i) {
      char hit[GRTC_HOST_NAME_CAPACITY];
      grtc_host_temp(e, hit);
      grtc_host_line(e, "%s = vm.cmp.eq.i32 %s, %s : i32", hit, selector, grtc_host_i32(e, i));
      uint32_t otherwise = i + 1 < tests ? next_test + i : first + op->region_count - 1;
      grtc_host_line(e, "vm.cond_br %s, ^bb%u, ^bb%u", hit, first + i, otherwise);
      if (i + 1 < tests) grtc_host_block_header(e, next_test + i, NULL, 0);
    }
    if (!tests) grtc_host_line(e, "vm.br ^bb%u", first);
  }
  for (uint32_t r = 0; r < op->region_count; ++r) {
    grtc_host_block_header(e, first + r, NULL, 0);
    GRT_RETURN_IF_ERROR(grtc_host_emit_region(e, op, op->regions[r], join, NULL));
  }
  grtc_host_block_header(e, join, op->results, op->result_count);
  return grt_ok_status();
}

// while: ^cond(carried): cond region; cond_br p, ^body(carried), ^exit(carried)
//        ^body(carried): body region; br ^cond(yielded)
static grt_status_t grtc_host_emit_while(grtc_host_emitter_t* e, const grtc_top_t* op) {
  if (op->region_count != 2 || op->regions[0]->arg_count != op->operand_count ||
      op->regions[1]->arg_count != op->operand_count || op->result_count != op->operand_count) {
    return grtc_top_error(e->module, op, "'stablehlo.while' has an unexpected form");
  }
  grtc_host_flush(e);
  uint32_t cond = e->next_block++, body = e->next_block++, exit = e->next_block++;
  grt_string_builder_t target;
  grt_string_builder_init(e->allocator, &target);
  grt_status_t status =
      grtc_host_successor(e, cond, op->operands, op->operand_count, &target);
  if (grt_status_is_ok(status)) grtc_host_line(e, "vm.br %s", grt_string_builder_cstring(&target));
  grt_string_builder_deinit(&target);
  GRT_RETURN_IF_ERROR(status);
  const grtc_tblock_t* cond_region = op->regions[0];
  grtc_host_block_header(e, cond, cond_region->args, cond_region->arg_count);
  const grtc_top_t* yield = NULL;
  GRT_RETURN_IF_ERROR(grtc_host_emit_region(e, op, cond_region, UINT32_MAX, &yield));
  if (yield->operand_count != 1) {
    return grtc_top_error(e->module, yield, "while condition yields %u values; expected 1",
                          yield->operand_count);
  }
  char predicate[GRTC_HOST_NAME_CAPACITY];
  grtc_host_load_scalar(e, yield->operands[0], predicate);
  grtc_tvalue_t** carried = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      e->allocator, (op->operand_count ? op->operand_count : 1) * sizeof(*carried),
      (void**)&carried));
  for (uint32_t i = 0; i < op->operand_count; ++i) carried[i] = &cond_region->args[i];
  grt_string_builder_t to_body, to_exit;
  grt_string_builder_init(e->allocator, &to_body);
  grt_string_builder_init(e->allocator, &to_exit);
  status = grtc_host_successor(e, body, carried, op->operand_count, &to_body);
  if (grt_status_is_ok(status)) {
    status = grtc_host_successor(e, exit, carried, op->operand_count, &to_exit);
  }
  if (grt_status_is_ok(status)) {
    grtc_host_line(e, "vm.cond_br %s, %s, %s", predicate, grt_string_builder_cstring(&to_body),
                   grt_string_builder_cstring(&to_exit));
  }
  grt_string_builder_deinit(&to_exit);
  grt_string_builder_deinit(&to_body);
  grt_allocator_free(e->allocator, carried);
  GRT_RETURN_IF_ERROR(status);
  grtc_host_block_header(e, body, op->regions[1]->args, op->regions[1]->arg_count);
  GRT_RETURN_IF_ERROR(grtc_host_emit_region(e, op, op->regions[1], cond, NULL));
  grtc_host_block_header(e, exit, op->results, op->result_count);
  return grt_ok_status();
}

static grt_status_t grtc_host_emit_return(grtc_host_emitter_t* e, const grtc_top_t* op) {
  grtc_host_flush(e);
  grt_string_builder_t names, types;
  grt_string_builder_init(e->allocator, &names);
  grt_string_builder_init(e->allocator, &types);
  grtc_host_buffer_list(e, op->operands, op->operand_count, &names, &types);
  grt_status_t status = grt_string_builder_status(&names);
  if (grt_status_is_ok(status)) {
    if (op->operand_count) {
      grtc_host_line(e, "vm.return %s : %s", grt_string_builder_cstring(&names),
                     grt_string_builder_cstring(&types));
    } else {
      grtc_host_line(e, "vm.return");
    }
  }
  grt_string_builder_deinit(&types);
  grt_string_builder_deinit(&names);
  return status;
}

static grt_status_t grtc_host_emit_op(grtc_host_emitter_t* e, const grtc_top_t* op) {
  grtc_host_set_location(e, op->location, op->line, op->column);
  switch (op->kind) {
    case GRTC_TOP_CONSTANT:
      grtc_host_line(e, "%s = vm.global.load.ref @__constant_%u : !hal.buffer",
                     e->names[op->results[0].id], e->constant_ids[op->results[0].id]);
      return grt_ok_status();
    case GRTC_TOP_RESHAPE:
      if (op->operand_count != 1 ||
          grtc_ttype_byte_size(&op->operands[0]->type) != grtc_ttype_byte_size(&op->results[0].type)) {
        return grtc_top_error(e->module, op, "reshape changes the byte size");
      }
      return grt_ok_status();  // a view: the plan maps it to its operand
    case GRTC_TOP_DISPATCH:
      return grtc_host_emit_dispatch(e, op);
    case GRTC_TOP_CHECK_EQ:
    case GRTC_TOP_CHECK_ALMOST_EQ:
    case GRTC_TOP_CHECK_CLOSE:
    case GRTC_TOP_CHECK_TRUE:
    case GRTC_TOP_CHECK_FALSE:
      return grtc_host_emit_check(e, op);
    case GRTC_TOP_CALL:
      return grtc_host_emit_call(e, op);
    case GRTC_TOP_IF:
    case GRTC_TOP_CASE:
      return grtc_host_emit_if_case(e, op);
    case GRTC_TOP_WHILE:
      return grtc_host_emit_while(e, op);
    case GRTC_TOP_RETURN:
      return grtc_host_emit_return(e, op);
    case GRTC_TOP_YIELD:
      return grt_ok_status();  // handled by the region's parent
    default:
      return grtc_top_error(e->module, op,
                            "'%s' is not supported by the host program (dispatch formation "
                            "leaves only constants, reshapes, dispatches, calls, control flow "
                            "and checks)",
                            grtc_top_kind_name(op->kind));
  }
}

static grt_status_t grtc_host_emit_block(grtc_host_emitter_t* e, const grtc_tblock_t* block) {
  for (const grtc_top_t* op = block->first; op; op = op->next) {
    GRT_RETURN_IF_ERROR(grtc_host_emit_op(e, op));
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

// Names every value: roots "%v<id>"; arena values need none.
static void grtc_host_name_values(grtc_host_emitter_t* e) {
  for (uint32_t id = 0; id < e->plan.value_capacity; ++id) {
    snprintf(e->names[id], GRTC_HOST_NAME_CAPACITY, "%%v%u", id);
  }
}

static void grtc_host_reset_function(grtc_host_emitter_t* e) {
  grt_string_builder_clear(&e->entry);
  grt_string_builder_clear(&e->body);
  e->const_count = 0;
  grt_arena_reset(&e->const_arena);
  e->next_temp = 0;
  e->next_block = 1;
  e->recording = false;
  e->range_count = 0;
}

// Straight-line functions (no calls, control flow or checks) with work to
// do record their command buffer once.
static bool grtc_host_is_straight_line(const grtc_tfunc_t* func) {
  bool dispatches = false;
  for (const grtc_top_t* op = func->body->first; op; op = op->next) {
    switch (op->kind) {
      case GRTC_TOP_DISPATCH:
        dispatches = true;
        break;
      case GRTC_TOP_CONSTANT:
      case GRTC_TOP_RESHAPE:
      case GRTC_TOP_RETURN:
        break;
      default:
        return false;
    }
  }
  return dispatches;
}

//   %cached = global @__cb_N; cond_br nz(%cached), ^run(%cached), ^record
// ^record: create reusable (slots: arguments, arena, results), record the
//          dispatches against slots, end, store @__cb_N, br ^run(%new)
// ^run(%cb): allocate the arena and the results, execute.indirect with
//          the binding table, wait, return.
static grt_status_t grtc_host_emit_reusable_body(grtc_host_emitter_t* e, const grtc_tfunc_t* func) {
  e->reusable = true;
  for (uint32_t id = 0; id < e->plan.value_capacity; ++id) e->slots[id] = GRTC_HOST_NO_SLOT;
  e->slot_count = 0;
  for (uint32_t i = 0; i < func->body->arg_count; ++i) e->slots[func->body->args[i].id] = e->slot_count++;
  e->arena_slot = e->plan.transient_bytes > 0 ? e->slot_count++ : GRTC_HOST_NO_SLOT;
  for (uint32_t id = 0; id < e->plan.value_capacity; ++id) {
    const grtc_value_storage_t* s = e->plan.planned[id] ? &e->plan.storage[id] : NULL;
    if (s && s->root->id == id && s->kind == GRTC_STORAGE_OWN) e->slots[id] = e->slot_count++;
  }
  grt_string_builder_appendf(e->out, "  vm.global.ref private mutable @__cb_%u : !hal.command_buffer\n",
                             e->function_index);
  uint32_t run = e->next_block++, record = e->next_block++;
  char cached[GRTC_HOST_NAME_CAPACITY], have[GRTC_HOST_NAME_CAPACITY];
  grtc_host_temp(e, cached);
  grtc_host_temp(e, have);
  grtc_host_line(e, "%s = vm.global.load.ref @__cb_%u : !hal.command_buffer", cached,
                 e->function_index);
  grtc_host_line(e, "%s = vm.cmp.nz.ref %s : !hal.command_buffer", have, cached);
  grtc_host_line(e, "vm.cond_br %s, ^bb%u(%s : !hal.command_buffer), ^bb%u", have, run, cached,
                 record);
  grtc_host_block_header(e, record, NULL, 0);
  grtc_host_line(e, "%%indirect = vm.const.ref.zero : !hal.buffer");
  grtc_host_begin_recording(e);
  const grtc_top_t* ret = NULL;
  for (const grtc_top_t* op = func->body->first; op; op = op->next) {
    if (op->kind == GRTC_TOP_RETURN) {
      ret = op;
      continue;
    }
    GRT_RETURN_IF_ERROR(grtc_host_emit_op(e, op));
  }
  grtc_host_set_location(e, ret->location, ret->line, ret->column);
  grtc_host_line(e, "vm.call @hal.command_buffer.end(%s) : (!hal.command_buffer) -> ()", e->cb);
  grtc_host_line(e, "vm.global.store.ref %s, @__cb_%u : !hal.command_buffer", e->cb,
                 e->function_index);
  grtc_host_line(e, "vm.br ^bb%u(%s : !hal.command_buffer)", run, e->cb);
  e->recording = false;
  grt_string_builder_appendf(&e->body, "  ^bb%u(%%recorded : !hal.command_buffer):\n", run);

  // The run block: what the recording's slots name this call.
  if (e->arena_slot != GRTC_HOST_NO_SLOT) grtc_host_allocate(e, "%arena", e->plan.transient_bytes);
  grt_string_builder_t table;
  grt_string_builder_init(e->allocator, &table);
  for (uint32_t slot = 0; slot < e->slot_count; ++slot) {
    const char* ref = "%arena";
    int64_t size = e->plan.transient_bytes;
    for (uint32_t id = 0; id < e->plan.value_capacity; ++id) {
      if (e->slots[id] != slot) continue;
      ref = e->names[id];
      size = e->plan.storage[id].size;
      if (e->plan.storage[id].kind == GRTC_STORAGE_OWN) grtc_host_allocate(e, ref, size);
      break;
    }
    grt_string_builder_appendf(&table, "%s(%s, %s, %s)", slot ? ", " : "", ref,
                               grtc_host_i64(e, 0), grtc_host_i64(e, size));
  }
  // Constants returned as they are: loaded again here (the loads in the
  // recording block do not dominate this one).
  for (uint32_t i = 0; i < ret->operand_count; ++i) {
    const grtc_tvalue_t* root = grtc_host_storage(e, ret->operands[i])->root;
    if (root->def && root->def->kind == GRTC_TOP_CONSTANT) {
      grtc_host_temp(e, e->names[root->id]);
      grtc_host_line(e, "%s = vm.global.load.ref @__constant_%u : !hal.buffer", e->names[root->id],
                     e->constant_ids[root->id]);
    }
  }
  char null_fence[GRTC_HOST_NAME_CAPACITY], fence[GRTC_HOST_NAME_CAPACITY],
      reached[GRTC_HOST_NAME_CAPACITY];
  grtc_host_temp(e, null_fence);
  grtc_host_temp(e, fence);
  grtc_host_temp(e, reached);
  grtc_host_line(e, "%s = vm.const.ref.zero : !hal.fence", null_fence);
  grtc_host_line(e, "%s = vm.call @hal.fence.create(%%device) : (!hal.device) -> !hal.fence", fence);
  grtc_host_line(e,
                 "vm.call.variadic @hal.device.queue.execute.indirect(%%device, %s, %s, %%recorded, "
                 "[%s]) : (!hal.device, !hal.fence, !hal.fence, !hal.command_buffer, "
                 "tuple<!hal.buffer, i64, i64> ...) -> ()",
                 null_fence, fence, grt_string_builder_cstring(&table));
  grtc_host_line(e, "%s = vm.call.variadic @hal.fence.await(%s, [%s]) : (i32, !hal.fence ...) -> i32",
                 reached, grtc_host_i32(e, -1), fence);
  grt_status_t status = grt_string_builder_status(&table);
  grt_string_builder_deinit(&table);
  GRT_RETURN_IF_ERROR(status);
  return grtc_host_emit_return(e, ret);
}

// @<name>$buffers(%v.. : !hal.buffer) -> (!hal.buffer, ...)
static grt_status_t grtc_host_emit_buffer_function(grtc_host_emitter_t* e,
                                                   const grtc_tfunc_t* func) {
  grtc_host_reset_function(e);
  e->func = func;
  GRT_RETURN_IF_ERROR(grtc_memory_plan_build(e->module, func, e->allocator, &e->plan));
  grtc_host_name_values(e);
  grtc_host_set_location(e, func->location, func->line, func->column);
  grt_status_t status = grt_ok_status();
  if (!grtc_host_terminator(func->body) || grtc_host_terminator(func->body)->kind != GRTC_TOP_RETURN) {
    status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "function '%.*s' does not end in a return",
                             GRT_SV_ARG(func->name));
  } else if (grtc_host_is_straight_line(func) &&
             !(e->options && (e->options->flags & GRTC_HOST_FLAG_ONE_SHOT))) {
    status = grtc_host_emit_reusable_body(e, func);
  } else {
    if (e->plan.transient_bytes > 0) grtc_host_allocate(e, "%arena", e->plan.transient_bytes);
    status = grtc_host_emit_block(e, func->body);
  }
  e->reusable = false;
  ++e->function_index;
  grt_string_builder_t* out = e->out;
  grt_string_builder_append_cstring(out, "  vm.func private ");
  grtc_host_symbol(out, func->name, "$buffers");
  grt_string_builder_append_cstring(out, "(");
  for (uint32_t i = 0; i < func->body->arg_count; ++i) {
    grt_string_builder_appendf(out, "%s%%v%u : !hal.buffer", i ? ", " : "",
                               func->body->args[i].id);
  }
  grt_string_builder_append_cstring(out, ")");
  if (func->result_count) {
    grt_string_builder_append_cstring(out, " -> (");
    for (uint32_t i = 0; i < func->result_count; ++i) {
      grt_string_builder_appendf(out, "%s!hal.buffer", i ? ", " : "");
    }
    grt_string_builder_append_cstring(out, ")");
  }
  grt_string_builder_append_cstring(out, " {\n");
  grt_string_builder_append_cstring(out,
                                    "    %device = vm.global.load.ref @__device : !hal.device\n"
                                    "    %allocator = vm.global.load.ref @__allocator : "
                                    "!hal.allocator\n");
  if (e->kernels->count) {
    grt_string_builder_append_cstring(
        out, "    %executable = vm.global.load.ref @__executable : !hal.executable\n");
  }
  grt_string_builder_append(out, grt_string_builder_view(&e->entry));
  grt_string_builder_append(out, grt_string_builder_view(&e->body));
  grt_string_builder_append_cstring(out, "  }\n");
  grtc_memory_plan_deinit(&e->plan);
  return status;
}

// The export: asserts and unwraps the argument views, calls the buffer
// function, wraps the results.
static grt_status_t grtc_host_emit_export(grtc_host_emitter_t* e, const grtc_tfunc_t* func) {
  grtc_host_reset_function(e);
  grtc_host_set_location(e, func->location, func->line, func->column);
  const grtc_tblock_t* body = func->body;
  grt_string_builder_t args, arg_types;
  grt_string_builder_init(e->allocator, &args);
  grt_string_builder_init(e->allocator, &arg_types);
  for (uint32_t i = 0; i < body->arg_count; ++i) {
    const grtc_ttype_t* type = &body->args[i].type;
    char message[GRTC_HOST_NAME_CAPACITY], buffer[GRTC_HOST_NAME_CAPACITY], dims[512];
    grtc_host_temp(e, message);
    grtc_host_temp(e, buffer);
    grtc_host_shape_span(e, type, dims, sizeof(dims));
    grtc_host_line(e, "%s = vm.const.ref.rodata @__argument_%u : !vm.buffer", message, i);
    grtc_host_line(e,
                   "vm.call.variadic @hal.buffer_view.assert(%%arg%u, %s, %s, %s, %s) : "
                   "(!hal.buffer_view, !vm.buffer, i32, i32, i64 ...) -> ()",
                   i, message, grtc_host_i32(e, grtc_host_element_type(type->elem)),
                   grtc_host_i32(e, 0), dims);
    grtc_host_line(e,
                   "%s = vm.call @hal.buffer_view.buffer(%%arg%u) : (!hal.buffer_view) -> "
                   "!hal.buffer",
                   buffer, i);
    grt_string_builder_appendf(&args, "%s%s", i ? ", " : "", buffer);
    grt_string_builder_appendf(&arg_types, "%s!hal.buffer", i ? ", " : "");
  }
  if (body->arg_count > e->max_argument_count) e->max_argument_count = body->arg_count;
  grt_string_builder_t symbol, results, result_types, views;
  grt_string_builder_init(e->allocator, &symbol);
  grt_string_builder_init(e->allocator, &results);
  grt_string_builder_init(e->allocator, &result_types);
  grt_string_builder_init(e->allocator, &views);
  grtc_host_symbol(&symbol, func->name, "$buffers");
  for (uint32_t r = 0; r < func->result_count; ++r) {
    grt_string_builder_appendf(&result_types, "%s!hal.buffer", r ? ", " : "");
  }
  char group[GRTC_HOST_NAME_CAPACITY];
  grtc_host_temp(e, group);
  if (func->result_count > 1) {
    grtc_host_line(e, "%s:%u = vm.call %s(%s) : (%s) -> (%s)", group, func->result_count,
                   grt_string_builder_cstring(&symbol), grt_string_builder_cstring(&args),
                   grt_string_builder_cstring(&arg_types),
                   grt_string_builder_cstring(&result_types));
  } else {
    grtc_host_line(e, "%s%svm.call %s(%s) : (%s) -> (%s)", func->result_count ? group : "",
                   func->result_count ? " = " : "", grt_string_builder_cstring(&symbol),
                   grt_string_builder_cstring(&args), grt_string_builder_cstring(&arg_types),
                   grt_string_builder_cstring(&result_types));
  }
  for (uint32_t r = 0; r < func->result_count; ++r) {
    const grtc_ttype_t* type = &func->result_types[r];
    char view[GRTC_HOST_NAME_CAPACITY], dims[512], buffer[GRTC_HOST_NAME_CAPACITY + 8];
    snprintf(buffer, sizeof(buffer), func->result_count > 1 ? "%s#%u" : "%s", group, r);
    grtc_host_shape_span(e, type, dims, sizeof(dims));
    grtc_host_temp(e, view);
    grtc_host_line(e,
                   "%s = vm.call.variadic @hal.buffer_view.create(%s, %s, %s, %s, %s, %s) : "
                   "(!hal.buffer, i64, i64, i32, i32, i64 ...) -> !hal.buffer_view",
                   view, buffer, grtc_host_i64(e, 0), grtc_host_i64(e, grtc_ttype_byte_size(type)),
                   grtc_host_i32(e, grtc_host_element_type(type->elem)), grtc_host_i32(e, 0),
                   dims);
    grt_string_builder_appendf(&views, "%s%s", r ? ", " : "", view);
  }
  if (func->result_count) {
    grt_string_builder_t view_types;
    grt_string_builder_init(e->allocator, &view_types);
    for (uint32_t r = 0; r < func->result_count; ++r) {
      grt_string_builder_appendf(&view_types, "%s!hal.buffer_view", r ? ", " : "");
    }
    grtc_host_line(e, "vm.return %s : %s", grt_string_builder_cstring(&views),
                   grt_string_builder_cstring(&view_types));
    grt_string_builder_deinit(&view_types);
  } else {
    grtc_host_line(e, "vm.return");
  }
  grt_string_builder_t* out = e->out;
  grt_string_builder_append_cstring(out, "  vm.func ");
  grtc_host_symbol(out, func->name, "");
  grt_string_builder_append_cstring(out, "(");
  for (uint32_t i = 0; i < body->arg_count; ++i) {
    grt_string_builder_appendf(out, "%s%%arg%u : !hal.buffer_view", i ? ", " : "", i);
  }
  grt_string_builder_append_cstring(out, ")");
  if (func->result_count) {
    grt_string_builder_append_cstring(out, " -> (");
    for (uint32_t r = 0; r < func->result_count; ++r) {
      grt_string_builder_appendf(out, "%s!hal.buffer_view", r ? ", " : "");
    }
    grt_string_builder_append_cstring(out, ")");
  }
  grt_string_builder_append_cstring(out, " {\n");
  grt_string_builder_append(out, grt_string_builder_view(&e->entry));
  grt_string_builder_append(out, grt_string_builder_view(&e->body));
  grt_string_builder_append_cstring(out, "  }\n  vm.export ");
  grtc_host_symbol(out, func->name, "");
  grt_string_builder_append_cstring(out, "\n");
  grt_status_t status = grt_string_builder_status(&symbol);
  grt_string_builder_deinit(&views);
  grt_string_builder_deinit(&result_types);
  grt_string_builder_deinit(&results);
  grt_string_builder_deinit(&symbol);
  grt_string_builder_deinit(&arg_types);
  grt_string_builder_deinit(&args);
  return status;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

typedef struct grtc_host_constant_list_t {
  const grtc_top_t** ops;
  uint32_t count, capacity;
  grt_allocator_t allocator;
} grtc_host_constant_list_t;

static grt_status_t grtc_host_collect_constants(const grtc_tblock_t* block,
                                                grtc_host_constant_list_t* list) {
  for (const grtc_top_t* op = block->first; op; op = op->next) {
    if (op->kind == GRTC_TOP_CONSTANT) {
      if (list->count == list->capacity) {
        uint32_t capacity = list->capacity ? list->capacity * 2 : 16;
        GRT_RETURN_IF_ERROR(grt_allocator_realloc(list->allocator,
                                                  list->capacity * sizeof(*list->ops),
                                                  capacity * sizeof(*list->ops),
                                                  (void**)&list->ops));
        list->capacity = capacity;
      }
      list->ops[list->count++] = op;
    }
    for (uint32_t r = 0; r < op->region_count; ++r) {
      GRT_RETURN_IF_ERROR(grtc_host_collect_constants(op->regions[r], list));
    }
  }
  return grt_ok_status();
}

// vm.rodata (the bytes, 64-byte aligned, splats expanded) and the global
// holding its imported buffer.
static grt_status_t grtc_host_emit_constant(grtc_host_emitter_t* e, const grtc_top_t* op) {
  const grtc_ttype_t* type = &op->results[0].type;
  int64_t size = grtc_ttype_byte_size(type);
  size_t element_size = grtc_elem_byte_size(type->elem);
  const uint8_t* data = op->attrs.constant.data;
  size_t data_size = op->attrs.constant.size;
  bool splat = op->attrs.constant.splat;
  if (size < 0 || (!splat && data_size != (size_t)size) ||
      (splat && data_size != element_size) || (size > 0 && !data)) {
    return grtc_top_error(e->module, op,
                          "constant holds %zu bytes but its type needs %lld%s", data_size,
                          (long long)size, splat ? " (as a splat of one element)" : "");
  }
  uint32_t id = op->results[0].id;
  grtc_host_set_location(e, op->location, op->line, op->column);
  // Zero bytes cannot be a dense literal; one zero byte stands in.
  int64_t stored = size ? size : 1;
  grt_string_builder_appendf(e->out,
                             "  vm.rodata private @__constant_%u_data {alignment = 64 : i64} dense<\"0x",
                             id);
  static const char hex[] = "0123456789ABCDEF";
  char chunk[512];
  size_t n = 0;
  for (int64_t i = 0; i < stored; ++i) {
    uint8_t byte = size ? (splat ? data[(size_t)i % element_size] : data[i]) : 0;
    chunk[n++] = hex[byte >> 4];
    chunk[n++] = hex[byte & 15];
    if (n == sizeof(chunk)) {
      grt_string_builder_append(e->out, grt_make_string_view(chunk, n));
      n = 0;
    }
  }
  grt_string_builder_append(e->out, grt_make_string_view(chunk, n));
  grt_string_builder_appendf(e->out, "\"> : tensor<%lldxi8>%s\n", (long long)stored, e->loc);
  grt_string_builder_appendf(e->out, "  vm.global.ref private mutable @__constant_%u : !hal.buffer\n",
                             id);
  // The initializer's lines for it.
  grtc_host_line(e, "%%rodata%u = vm.const.ref.rodata @__constant_%u_data : !vm.buffer", id, id);
  grtc_host_line(e,
                 "%%buffer%u = vm.call @hal.allocator.import(%%allocator, %%rodata%u, %s, %s) : "
                 "(!hal.allocator, !vm.buffer, i64, i64) -> !hal.buffer",
                 id, id, grtc_host_i64(e, 0), grtc_host_i64(e, size));
  grtc_host_line(e, "vm.global.store.ref %%buffer%u, @__constant_%u : !hal.buffer", id, id);
  return grt_ok_status();
}

static bool grtc_host_same_constant(const grtc_top_t* a, const grtc_top_t* b) {
  const grtc_top_attrs_t* x = &a->attrs;
  const grtc_top_attrs_t* y = &b->attrs;
  return grtc_ttype_byte_size(&a->results[0].type) == grtc_ttype_byte_size(&b->results[0].type) &&
         x->constant.splat == y->constant.splat && x->constant.size == y->constant.size &&
         (x->constant.size == 0 || memcmp(x->constant.data, y->constant.data, x->constant.size) == 0);
}

// Globals (device, allocator, executable, constants) and the initializer
// that fills them once per context.
static grt_status_t grtc_host_emit_globals(grtc_host_emitter_t* e) {
  grtc_host_reset_function(e);
  grt_string_builder_t* out = e->out;
  grt_string_builder_append_cstring(out,
                                    "  vm.global.ref private mutable @__device : !hal.device\n"
                                    "  vm.global.ref private mutable @__allocator : "
                                    "!hal.allocator\n");
  if (e->kernels->count) {
    grt_string_builder_append_cstring(
        out, "  vm.global.ref private mutable @__executable : !hal.executable\n");
  }
  grt_string_builder_appendf(out, "  vm.rodata private @__module_name \"%s\"\n", e->module_name);
  e->loc[0] = '\0';
  grtc_host_line(e, "%%device = vm.call @hal.devices.get(%s) : (i32) -> !hal.device",
                 grtc_host_i32(e, 0));
  grtc_host_line(e, "vm.global.store.ref %%device, @__device : !hal.device");
  grtc_host_line(e,
                 "%%allocator = vm.call @hal.device.allocator(%%device) : (!hal.device) -> "
                 "!hal.allocator");
  grtc_host_line(e, "vm.global.store.ref %%allocator, @__allocator : !hal.allocator");
  if (e->kernels->count) {
    grtc_host_line(e, "%%name = vm.const.ref.rodata @__module_name : !vm.buffer");
    grtc_host_line(e,
                   "%%executable = vm.call @hal.executable.lookup(%%device, %%name) : "
                   "(!hal.device, !vm.buffer) -> !hal.executable");
    grtc_host_line(e, "vm.global.store.ref %%executable, @__executable : !hal.executable");
  }
  grtc_host_constant_list_t constants = {NULL, 0, 0, e->allocator};
  grt_status_t status = grt_ok_status();
  for (const grtc_tfunc_t* func = e->module->first_func; func && grt_status_is_ok(status);
       func = func->next) {
    status = grtc_host_collect_constants(func->body, &constants);
  }
  // Constants with the same bytes (JAX repeats them) share one segment.
  for (uint32_t i = 0; i < constants.count && grt_status_is_ok(status); ++i) {
    const grtc_top_t* op = constants.ops[i];
    uint32_t id = op->results[0].id;
    e->constant_ids[id] = id;
    for (uint32_t j = 0; j < i; ++j) {
      if (grtc_host_same_constant(op, constants.ops[j])) {
        e->constant_ids[id] = e->constant_ids[constants.ops[j]->results[0].id];
        break;
      }
    }
    if (e->constant_ids[id] == id) status = grtc_host_emit_constant(e, op);
  }
  grt_allocator_free(e->allocator, constants.ops);
  GRT_RETURN_IF_ERROR(status);
  e->loc[0] = '\0';
  grtc_host_line(e, "vm.return");
  grt_string_builder_append_cstring(out, "  vm.initializer {\n");
  grt_string_builder_append(out, grt_string_builder_view(&e->entry));
  grt_string_builder_append(out, grt_string_builder_view(&e->body));
  grt_string_builder_append_cstring(out, "  }\n");
  return grt_ok_status();
}

// The run-time module name: callers name functions "module.function" and
// the executable is looked up by it, so only letters, digits and '_'.
static void grtc_host_module_name(grt_string_view_t name, char out[GRTC_HOST_MODULE_NAME_CAPACITY]) {
  size_t n = 0;
  if (!name.size || (name.data[0] >= '0' && name.data[0] <= '9')) out[n++] = '_';
  for (size_t i = 0; i < name.size && n + 1 < GRTC_HOST_MODULE_NAME_CAPACITY; ++i) {
    char c = name.data[i];
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out[n++] = plain ? c : '_';
  }
  out[n] = '\0';
}

grt_status_t grtc_host_emit_text(const grtc_tmodule_t* module, const grtc_kernel_set_t* kernels,
                                 const grtc_host_options_t* options, grt_allocator_t allocator,
                                 grt_string_builder_t* out) {
  grtc_host_emitter_t* e = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(allocator, sizeof(*e), (void**)&e));
  e->module = module;
  e->kernels = kernels;
  e->allocator = allocator;
  e->out = out;
  grt_string_builder_init(allocator, &e->entry);
  grt_string_builder_init(allocator, &e->body);
  grt_arena_init(allocator, 0, &e->const_arena);
  uint32_t capacity = module->next_value_id ? module->next_value_id : 1;
  e->options = options;
  grtc_host_module_name(module->name, e->module_name);
  grt_status_t status =
      grt_allocator_calloc(allocator, capacity * sizeof(*e->names), (void**)&e->names);
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator, capacity * sizeof(*e->slots), (void**)&e->slots);
  }
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator, capacity * sizeof(*e->constant_ids),
                                  (void**)&e->constant_ids);
  }
  if (grt_status_is_ok(status)) {
    grt_string_builder_appendf(out, "vm.module @%s {\n", e->module_name);
    for (size_t i = 0; i < sizeof(grtc_host_imports) / sizeof(grtc_host_imports[0]); ++i) {
      grt_string_builder_appendf(out, "  %s\n", grtc_host_imports[i]);
    }
    status = grtc_host_emit_globals(e);
  }
  for (const grtc_tfunc_t* func = module->first_func; func && grt_status_is_ok(status);
       func = func->next) {
    status = grtc_host_emit_buffer_function(e, func);
    if (grt_status_is_ok(status) && func->is_public) status = grtc_host_emit_export(e, func);
  }
  if (grt_status_is_ok(status)) {
    for (uint32_t i = 0; i < e->max_argument_count; ++i) {
      grt_string_builder_appendf(out, "  vm.rodata private @__argument_%u \"argument %u\"\n", i,
                                 i);
    }
    grt_string_builder_append_cstring(out, "}\n");
    status = grt_string_builder_status(out);
  }
  if (grt_status_is_ok(status)) status = grt_string_builder_status(&e->body);
  if (grt_status_is_ok(status)) status = grt_string_builder_status(&e->entry);
  if (grt_status_is_ok(status) && e->out_of_memory) {
    status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory emitting the host program");
  }
  grt_arena_deinit(&e->const_arena);
  grt_allocator_free(allocator, e->consts);
  grt_allocator_free(allocator, e->names);
  grt_allocator_free(allocator, e->slots);
  grt_allocator_free(allocator, e->constant_ids);
  grt_allocator_free(allocator, e->ranges);
  grt_string_builder_deinit(&e->body);
  grt_string_builder_deinit(&e->entry);
  grt_allocator_free(allocator, e);
  return status;
}

static const grtc_dialect_syntax_t* const grtc_host_dialects[] = {&grtc_vm_dialect_syntax};
static const grtc_parse_options_t grtc_host_parse_options = {grtc_host_dialects, 1};

// Records each function's transient arena size on its buffer function and
// its export.
static grt_status_t grtc_host_record_transient_sizes(const grtc_tmodule_t* module,
                                                     grt_allocator_t allocator,
                                                     grt_module_writer_t* writer) {
  for (const grtc_tfunc_t* func = module->first_func; func; func = func->next) {
    grtc_memory_plan_t plan;
    GRT_RETURN_IF_ERROR(grtc_memory_plan_build(module, func, allocator, &plan));
    uint64_t bytes = (uint64_t)plan.transient_bytes;
    grtc_memory_plan_deinit(&plan);
    char name[1024];
    snprintf(name, sizeof(name), "%.*s$buffers", GRT_SV_ARG(func->name));
    GRT_RETURN_IF_ERROR(grt_module_writer_set_function_transient_bytes(
        writer, grt_make_cstring_view(name), bytes));
    if (func->is_public) {
      GRT_RETURN_IF_ERROR(
          grt_module_writer_set_function_transient_bytes(writer, func->name, bytes));
    }
  }
  return grt_ok_status();
}

grt_status_t grtc_host_emit(const grtc_tmodule_t* module, const grtc_kernel_set_t* kernels,
                            const grtc_host_executable_t* executables, uint32_t executable_count,
                            const grtc_host_options_t* options, grt_allocator_t allocator,
                            grt_module_writer_t* writer,
                            grt_string_builder_t* optional_vm_text_out) {
  grt_string_builder_t text;
  grt_string_builder_init(allocator, &text);
  grt_status_t status = grtc_host_emit_text(module, kernels, options, allocator, &text);
  if (optional_vm_text_out) {
    grt_string_builder_append(optional_vm_text_out, grt_string_builder_view(&text));
  }
  grtc_module_t* parsed = NULL;
  if (grt_status_is_ok(status)) {
    char file_name[600];
    snprintf(file_name, sizeof(file_name), "%s (host program)",
             module->file_name ? module->file_name : "<module>");
    status = grtc_parse_source(grt_string_builder_view(&text), file_name,
                               &grtc_host_parse_options, allocator, &parsed);
    if (grt_status_is_ok(status)) {
      grtc_operation_t* vm_module = grtc_vm_find_module(parsed);
      status = vm_module ? grtc_vm_assemble(vm_module, file_name, allocator, writer)
                         : grt_make_status(GRT_STATUS_INTERNAL, "host program has no vm.module");
    }
    if (parsed) grtc_module_destroy(parsed);
  }
  grt_string_builder_deinit(&text);
  if (grt_status_is_ok(status)) status = grtc_host_record_transient_sizes(module, allocator, writer);
  if (!grt_status_is_ok(status) || executable_count == 0) return status;

  grt_module_entry_point_t* entries = NULL;
  uint32_t entry_count = kernels->count;
  // Per binding: how the kernel uses it and the bytes it spans (all static
  // shapes), so the HAL refuses read-only memory for written bindings and
  // bindings too short for the kernel. One block after the entries: the
  // little-endian u64 lengths, then the access bytes.
  size_t binding_total = 0;
  for (uint32_t i = 0; i < entry_count; ++i) binding_total += kernels->kernels[i]->binding_count;
  size_t entry_bytes = (entry_count ? entry_count : 1) * sizeof(*entries);
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(allocator, entry_bytes + binding_total * 9,
                                           (void**)&entries));
  uint8_t* lengths = (uint8_t*)entries + entry_bytes;
  uint8_t* access = lengths + binding_total * 8;
  for (uint32_t i = 0; i < entry_count; ++i) {
    const grtc_kernel_t* kernel = kernels->kernels[i];
    entries[i].name = kernel->name;
    entries[i].binding_count = kernel->binding_count;
    if (kernel->binding_count) {
      entries[i].binding_access = access;
      entries[i].binding_min_lengths = lengths;
    }
    for (uint32_t b = 0; b < kernel->binding_count; ++b) {
      const grtc_kbinding_t* binding = &kernel->bindings[b];
      // grtc_kaccess_t uses the file's bits (1 read, 2 written); a kernel
      // that does not say (0) may write the binding.
      access[b] = binding->access ? (uint8_t)binding->access : (uint8_t)GRTC_KACCESS_READ_WRITE;
      uint64_t bytes = binding->element_count > 0
                           ? (uint64_t)binding->element_count * grtc_elem_byte_size(binding->elem)
                           : 0;
      grt_store_le_u64(lengths + 8 * b, bytes);
    }
    access += kernel->binding_count;
    lengths += 8 * (size_t)kernel->binding_count;
    entries[i].constant_count = 0;
    entries[i].workgroup_size[0] = 1;
    entries[i].workgroup_size[1] = 1;
    entries[i].workgroup_size[2] = 1;
  }
  for (uint32_t i = 0; i < executable_count && grt_status_is_ok(status); ++i) {
    for (uint32_t k = 0; k < entry_count; ++k) {
      entries[k].workgroup_size[0] =
          executables[i].workgroup_sizes ? executables[i].workgroup_sizes[k] : 1;
    }
    grt_module_executable_t executable = {
        grt_make_cstring_view(executables[i].format), entry_count,
        grt_make_const_byte_span(executables[i].data, executables[i].size), NULL};
    uint32_t ordinal = 0;
    status = grt_module_writer_add_executable(writer, &executable, entries, entry_count, &ordinal);
  }
  grt_allocator_free(allocator, entries);
  return status;
}

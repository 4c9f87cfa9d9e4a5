#include "compiler/host/host.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/endian.h"
#include "compiler/host/memory_plan.h"
#include "compiler/host/native_imports.h"
#include "compiler/vm_asm/assembler.h"
#include "compiler/vm_asm/builder.h"
#include "compiler/vm_asm/vm_printer.h"

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

//===----------------------------------------------------------------------===//
// Imports
//===----------------------------------------------------------------------===//

// The runtime exports the host program calls. Their signatures come from
// the runtime's ABI tables (runtime/hal_abi.h, runtime/check_abi.h, read
// through compiler/host/native_imports.h), so a program and the runtime it
// runs on agree by construction; only the names are listed here.
#define GRTC_HOST_IMPORT_LIST(X)                                                \
  X(ALLOCATOR_ALLOCATE, "hal.allocator.allocate")                               \
  X(ALLOCATOR_IMPORT, "hal.allocator.import")                                   \
  X(BUFFER_LOAD, "hal.buffer.load")                                             \
  X(BUFFER_SUBSPAN, "hal.buffer.subspan")                                       \
  X(BUFFER_VIEW_ASSERT, "hal.buffer_view.assert")                               \
  X(BUFFER_VIEW_ASSERT_DIM, "hal.buffer_view.assert_dim")                       \
  X(BUFFER_VIEW_BUFFER, "hal.buffer_view.buffer")                               \
  X(BUFFER_VIEW_CREATE, "hal.buffer_view.create")                               \
  X(BUFFER_VIEW_DIM, "hal.buffer_view.dim")                                     \
  X(COMMAND_BUFFER_BEGIN, "hal.command_buffer.begin")                           \
  X(COMMAND_BUFFER_COPY_BUFFER, "hal.command_buffer.copy_buffer")               \
  X(COMMAND_BUFFER_CREATE, "hal.command_buffer.create")                         \
  X(COMMAND_BUFFER_DISPATCH, "hal.command_buffer.dispatch")                     \
  X(COMMAND_BUFFER_END, "hal.command_buffer.end")                               \
  X(COMMAND_BUFFER_EXECUTION_BARRIER, "hal.command_buffer.execution_barrier")   \
  X(DEVICE_ALLOCATOR, "hal.device.allocator")                                   \
  X(DEVICE_QUERY_I64, "hal.device.query.i64")                                   \
  X(DEVICE_QUEUE_EXECUTE, "hal.device.queue.execute")                           \
  X(DEVICE_QUEUE_EXECUTE_INDIRECT, "hal.device.queue.execute.indirect")         \
  X(DEVICES_GET, "hal.devices.get")                                             \
  X(EXECUTABLE_LOOKUP, "hal.executable.lookup")                                 \
  X(EXECUTABLE_VARIANT, "hal.executable.variant")                               \
  X(FENCE_AWAIT, "hal.fence.await")                                             \
  X(FENCE_CREATE, "hal.fence.create")                                           \
  X(SHAPE_ASSERTION, "hal.shape_assertion")                                     \
  X(CHECK_EXPECT_ALMOST_EQ, "check.expect_almost_eq")                           \
  X(CHECK_EXPECT_CLOSE, "check.expect_close")                                   \
  X(CHECK_EXPECT_EQ, "check.expect_eq")                                         \
  X(CHECK_EXPECT_FALSE, "check.expect_false")                                   \
  X(CHECK_EXPECT_NEAR, "check.expect_near")                                     \
  X(CHECK_EXPECT_TRUE, "check.expect_true")                                     \
  X(CHECK_EXPECT_VALUE_EQ, "check.expect_value_eq")

typedef enum grtc_host_import_e {
#define GRTC_HOST_IMPORT_ENUM(id, name) GRTC_HOST_IMPORT_##id,
  GRTC_HOST_IMPORT_LIST(GRTC_HOST_IMPORT_ENUM)
#undef GRTC_HOST_IMPORT_ENUM
  GRTC_HOST_IMPORT_COUNT
} grtc_host_import_t;

#define GRTC_HOST_MAX_IMPORT_ARGS 16

// The builder's type for a vm spelling from the ABI table.
static const grtc_type_t* grtc_host_import_type(grtc_vm_builder_t* b, const char* spelling) {
  if (strcmp(spelling, "i32") == 0) return grtc_vm_type_i32(b);
  if (strcmp(spelling, "i64") == 0) return grtc_vm_type_i64(b);
  if (strcmp(spelling, "f32") == 0) return grtc_vm_type_f32(b);
  if (strcmp(spelling, "f64") == 0) return grtc_vm_type_f64(b);
  return grtc_vm_type_ref(b, spelling);
}

// A value of an import's signature: a plain type, or a span of one type or
// of a tuple.
static const grtc_type_t* grtc_host_import_value_type(grtc_vm_builder_t* b,
                                                      const grtc_native_value_t* value) {
  if (value->type) return grtc_host_import_type(b, value->type);
  if (value->group_count == 1) return grtc_host_import_type(b, value->group[0].type);
  const grtc_type_t* elements[GRTC_HOST_MAX_IMPORT_ARGS];
  uint32_t count = 0;
  for (uint32_t i = 0; i < value->group_count && count < GRTC_HOST_MAX_IMPORT_ARGS; ++i) {
    elements[count++] = grtc_host_import_type(b, value->group[i].type);
  }
  return grtc_vm_type_tuple(b, elements, count);
}

// Whether any symbol of |module| stays symbolic: only such programs read
// dimensions and check them (hal.buffer_view.dim and .assert_dim).
static bool grtc_host_module_is_symbolic(const grtc_tmodule_t* module) {
  for (uint32_t id = 0; module->shapes && id < module->shapes->sym_count; ++id) {
    if (grtc_tmodule_resolve_dim(module, GRTC_DIM_SYMBOL(id)) == GRTC_DIM_SYMBOL(id)) return true;
  }
  return false;
}

static bool grtc_host_is_check(grtc_top_kind_t kind) {
  return kind == GRTC_TOP_CHECK_EQ || kind == GRTC_TOP_CHECK_ALMOST_EQ ||
         kind == GRTC_TOP_CHECK_CLOSE || kind == GRTC_TOP_CHECK_TRUE ||
         kind == GRTC_TOP_CHECK_FALSE;
}

// Whether |block| or a region nested in it holds a check op.
static bool grtc_host_block_has_checks(const grtc_tblock_t* block) {
  for (const grtc_top_t* op = block ? block->first : NULL; op; op = op->next) {
    if (grtc_host_is_check(op->kind)) return true;
    for (uint32_t r = 0; r < op->region_count; ++r) {
      if (grtc_host_block_has_checks(op->regions[r])) return true;
    }
  }
  return false;
}

// Whether any function of |module| checks: only such programs import the
// check module (a runtime may be built without it: GRT_ENABLE_CHECK_MODULE).
static bool grtc_host_module_has_checks(const grtc_tmodule_t* module) {
  for (const grtc_tfunc_t* func = module->first_func; func; func = func->next) {
    if (grtc_host_block_has_checks(func->body)) return true;
  }
  return false;
}

// Declares every import of GRTC_HOST_IMPORT_LIST from the ABI tables
// (hal.executable.variant only when |per_variant|: a program whose
// executables agree on every workgroup count does not call it;
// hal.device.query.i64 only when |splits|: some kernel's split is chosen at
// run time;
// hal.buffer_view.dim and .assert_dim only when |symbolic|; the check.*
// imports, last in the list, only when |checks|). A name the
// tables lack (a runtime and compiler out of step) leaves the slot NULL and
// returns INTERNAL naming it.
static grt_status_t grtc_host_declare_imports(grtc_vm_builder_t* b, bool per_variant,
                                              bool splits, bool symbolic, bool checks,
                                              grtc_operation_t* imports[GRTC_HOST_IMPORT_COUNT]) {
  static const char* const names[GRTC_HOST_IMPORT_COUNT] = {
#define GRTC_HOST_IMPORT_NAME(id, name) name,
      GRTC_HOST_IMPORT_LIST(GRTC_HOST_IMPORT_NAME)
#undef GRTC_HOST_IMPORT_NAME
  };
  for (uint32_t i = 0; i < GRTC_HOST_IMPORT_COUNT; ++i) {
    if (i == GRTC_HOST_IMPORT_EXECUTABLE_VARIANT && !per_variant) continue;
    if (i == GRTC_HOST_IMPORT_DEVICE_QUERY_I64 && !splits) continue;
    if ((i == GRTC_HOST_IMPORT_BUFFER_VIEW_DIM || i == GRTC_HOST_IMPORT_BUFFER_VIEW_ASSERT_DIM) &&
        !symbolic) {
      continue;
    }
    if (i >= GRTC_HOST_IMPORT_CHECK_EXPECT_ALMOST_EQ && !checks) continue;
    const grtc_native_import_t* import =
        grtc_native_import_lookup(grt_make_cstring_view(names[i]));
    if (!import || import->argument_count > GRTC_HOST_MAX_IMPORT_ARGS ||
        import->result_count > GRTC_HOST_MAX_IMPORT_ARGS) {
      return grt_make_status(GRT_STATUS_INTERNAL,
                             "the host program calls '%s', which the runtime's ABI tables "
                             "(runtime/hal_abi.h, runtime/check_abi.h) %s",
                             names[i], import ? "declare with too many values" : "do not declare");
    }
    const grtc_type_t* args[GRTC_HOST_MAX_IMPORT_ARGS];
    const grtc_type_t* results[GRTC_HOST_MAX_IMPORT_ARGS];
    bool variadic[GRTC_HOST_MAX_IMPORT_ARGS];
    for (uint32_t a = 0; a < import->argument_count; ++a) {
      args[a] = grtc_host_import_value_type(b, &import->arguments[a]);
      variadic[a] = import->arguments[a].type == NULL;
    }
    for (uint32_t r = 0; r < import->result_count; ++r) {
      results[r] = grtc_host_import_value_type(b, &import->results[r]);
    }
    imports[i] = grtc_vm_builder_import(b, import->name, args, variadic, import->argument_count,
                                        results, import->result_count);
  }
  return grt_ok_status();
}

#define GRTC_HOST_NAME_CAPACITY 1024
// A reusable recording keyed on at most this many symbols; a function
// with more records every call one-shot.
#define GRTC_HOST_MAX_KEYS 16
// Recordings kept per function with symbols (one per distinct set of their
// values, least recently used replaced); a static function keeps one.
#define GRTC_HOST_CACHE_ENTRIES 4

// The globals of a function's recording cache: entry e's command buffer,
// the symbol values it was recorded at, and the clock value of its last
// use; |clock| counts calls (entry_count 1: no use stamps, no clock).
typedef struct grtc_host_cache_t {
  uint32_t entry_count;
  grtc_operation_t* cb[GRTC_HOST_CACHE_ENTRIES];
  grtc_operation_t* keys[GRTC_HOST_CACHE_ENTRIES][GRTC_HOST_MAX_KEYS];
  grtc_operation_t* use[GRTC_HOST_CACHE_ENTRIES];
  grtc_operation_t* clock;
} grtc_host_cache_t;
#define GRTC_HOST_MODULE_NAME_CAPACITY 128
#define GRTC_HOST_NO_BASE UINT32_MAX  // the arena, in hazard ranges
// Mutable global |index|'s buffer, in hazard ranges (value ids stay below).
#define GRTC_HOST_GLOBAL_BASE(index) (UINT32_C(0x80000000) + (uint32_t)(index))
// The largest tensor a shape-polymorphic program makes (2^48 bytes): its
// sizes are checked against it at the call where the symbols' bounds
// (INT32_MAX each) do not prove it, so no size or arena offset overflows.
#define GRTC_HOST_MAX_BYTES (INT64_C(1) << 48)

// The bytes bound in place of an empty operand of a symbolic kernel: one
// element of every element type (the kernels read index 0 of an operand
// they do not select: grtc_em_guard), 64-byte aligned.
#define GRTC_HOST_EMPTY_BINDING_BYTES 64

// Where a value's bytes are for a binding: |ref| is the !hal.buffer (a
// null ref when the bytes are binding-table slot |slot| of a reusable
// recording; its offset is then relative to the slot's range). The offset
// and size are i64 values (grtc_host_place_offset/_size: constants, or
// computed from the symbols); [begin, end) of |base| is the byte range the
// hazard tracking compares (the whole buffer or arena slot when the size
// is symbolic).
typedef struct grtc_host_place_t {
  grtc_value_t* ref;
  const grtc_value_storage_t* storage;
  bool arena;
  int64_t begin, end;
  uint32_t base;  // root value id, or GRTC_HOST_NO_BASE (- 1 - slot) for the arena
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
  grtc_value_t* result;
} grtc_host_const_t;

// A size expression computed once per function.
typedef struct grtc_host_size_t {
  grtc_size_expr_t expr;
  grtc_value_t* value;
} grtc_host_size_t;

// A computed extent's subexpression (an arithmetic node or a load from
// argument data: grtc_host_sexpr) computed once per function and reused
// by a structurally equal one emitted at the same insertion point (the
// same block, before the same op), where the first computation dominates.
typedef struct grtc_host_sexpr_value_t {
  const grtc_sexpr_t* expr;
  grtc_vm_insertion_t at;
  grtc_value_t* value;
  double bound;
} grtc_host_sexpr_value_t;

typedef struct grtc_host_emitter_t {
  const grtc_tmodule_t* module;
  const grtc_kernel_set_t* kernels;
  const grtc_host_executable_t* executables;
  uint32_t executable_count;
  // Some kernel's workgroup count differs between executables: the
  // program reads the runtime's choice into __variant.
  bool per_variant;
  grtc_operation_t* variant_global;
  // Some kernel's split is chosen at run time (grtc_kernel_t.split_max):
  // the initializer reads the device's concurrency into __concurrency.
  bool splits;
  grtc_operation_t* concurrency_global;
  grt_allocator_t allocator;
  grtc_vm_builder_t* b;
  grtc_operation_t* imports[GRTC_HOST_IMPORT_COUNT];
  grtc_operation_t* device_global;
  grtc_operation_t* allocator_global;
  grtc_operation_t* executable_global;
  grtc_operation_t** constant_globals;  // per segment id (a CONSTANT result id)
  grtc_operation_t** state_globals;     // per mutable global: its !hal.buffer
  // Some kernel has symbolic extents: __empty_binding holds the
  // GRTC_HOST_EMPTY_BINDING_BYTES zero bytes bound in place of an operand
  // that is empty at the call (grtc_host_empty_binding).
  grtc_operation_t* empty_global;
  const grtc_type_t* buffer;       // !hal.buffer
  const grtc_type_t* view;         // !hal.buffer_view
  const grtc_type_t* command_buffer;
  const grtc_type_t* fence;
  // Per function:
  const grtc_tfunc_t* func;
  grtc_operation_t* function;  // the vm.func or vm.initializer being built
  grtc_block_t* entry;
  grtc_operation_t* const_anchor;  // the last hoisted op of the entry block
  grtc_memory_plan_t plan;
  grtc_value_t** values;  // per value id: its buffer ref
  grtc_host_const_t* consts;
  uint32_t const_count;
  uint32_t const_capacity;
  bool out_of_memory;
  grtc_value_t* device;
  grtc_value_t* device_allocator;
  grtc_value_t* executable;
  grtc_value_t* variant;  // i32, loaded when per_variant
  grtc_value_t* concurrency;  // i64, loaded when splits
  grtc_value_t* arena;
  grtc_value_t* indirect;
  bool recording;
  grtc_value_t* cb;
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
  // Symbolic shapes, per function: the i64 value of every symbol
  // (grtc_tshapes_t id) the function knows, the symbols its $buffers
  // function takes (after its buffers), and the sizes computed from them
  // (in a $buffers function, |hoist|: in its entry block, so they
  // dominate every block).
  uint32_t sym_capacity;
  grtc_value_t** sym_values;
  // Per symbol id: derived and computed already (a derived extent a while
  // loop changes is computed in the loop's header or after the loop).
  bool* sym_done;
  // The if or case branch being emitted (NULL: none): a symbol derived in
  // a branch (grtc_top_branch_region) is computed only inside it.
  const grtc_tblock_t* branch;
  uint32_t* func_syms;
  uint32_t func_sym_count;
  bool hoist;
  grtc_host_size_t* sizes;
  uint32_t size_count, size_capacity;
  grtc_host_sexpr_value_t* sexprs;
  uint32_t sexpr_count, sexpr_capacity;
  grtc_value_t** slot_offsets;  // plan.slot_count + 1: the last is the arena's size
  uint32_t message_count;       // __shape_message_N rodata
} grtc_host_emitter_t;

//===----------------------------------------------------------------------===//
// Builder helpers
//===----------------------------------------------------------------------===//

// Sets the location of the ops that follow: |location|'s file position,
// else |line|:|column| in the module's file.
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
  grtc_vm_builder_set_location(e->b, file, line, column);
}

// Makes room for one more item in |*items| (|count| used of |*capacity|,
// doubling from |initial|); false (e->out_of_memory set) when memory runs
// out.
static bool grtc_host_grow(grtc_host_emitter_t* e, void** items, uint32_t* capacity,
                           uint32_t count, size_t item_size, uint32_t initial) {
  if (count < *capacity) return true;
  uint32_t grown = *capacity ? *capacity * 2 : initial;
  if (!grt_status_is_ok(grt_allocator_realloc(e->allocator, *capacity * item_size,
                                              grown * item_size, items))) {
    e->out_of_memory = true;
    return false;
  }
  *capacity = grown;
  return true;
}

// The smallest f32 not below |value| (>= 0): a tolerance narrowed to f32
// for the check module never becomes tighter than the one asked for.
static float grtc_host_f32_at_least(double value) {
  float narrowed = (float)value;
  if ((double)narrowed < value) narrowed = nextafterf(narrowed, INFINITY);
  return narrowed;
}

// A constant defined once, in the function's entry block (after the
// values loaded there first), so it dominates every use.
static grtc_value_t* grtc_host_const(grtc_host_emitter_t* e, char type, int64_t value) {
  for (uint32_t i = 0; i < e->const_count; ++i) {
    if (e->consts[i].type == type && e->consts[i].value == value) return e->consts[i].result;
  }
  if (!e->entry) return NULL;  // the function was not built (the builder failed)
  if (!grtc_host_grow(e, (void**)&e->consts, &e->const_capacity, e->const_count,
                      sizeof(*e->consts), 64)) {
    return NULL;
  }
  grtc_vm_insertion_t saved = grtc_vm_builder_insertion(e->b);
  grtc_vm_insertion_t hoisted = {e->entry, e->const_anchor ? e->const_anchor->next
                                                           : e->entry->first};
  grtc_vm_builder_set_insertion(e->b, hoisted);
  grtc_value_t* result = NULL;
  if (type == 'f') {
    float f;
    uint32_t bits = (uint32_t)value;
    memcpy(&f, &bits, sizeof(f));
    result = grtc_vm_const_f32(e->b, f);
  } else if (type == 'F') {
    double d;
    uint64_t bits = (uint64_t)value;
    memcpy(&d, &bits, sizeof(d));
    result = grtc_vm_const_f64(e->b, d);
  } else if (type == 'i') {
    result = grtc_vm_const_i32(e->b, (int32_t)value);
  } else {
    result = grtc_vm_const_i64(e->b, value);
  }
  grtc_vm_builder_set_insertion(e->b, saved);
  if (!result) return NULL;
  e->const_anchor = result->defining_op;
  e->consts[e->const_count].type = type;
  e->consts[e->const_count].value = value;
  e->consts[e->const_count].result = result;
  ++e->const_count;
  return result;
}

static grtc_value_t* grtc_host_i32(grtc_host_emitter_t* e, int64_t v) {
  return grtc_host_const(e, 'i', v);
}
static grtc_value_t* grtc_host_i64(grtc_host_emitter_t* e, int64_t v) {
  return grtc_host_const(e, 'I', v);
}

// Calls import |id|; returns its first result (NULL when it has none).
static grtc_value_t* grtc_host_call(grtc_host_emitter_t* e, grtc_host_import_t id,
                                    const grtc_vm_arg_t* args, uint32_t count) {
  grtc_operation_t* call = grtc_vm_call_import(e->b, e->imports[id], args, count);
  return call && call->result_count ? &call->results[0] : NULL;
}

#define GRTC_HOST_CALL(e, id, ...)                                                  \
  grtc_host_call((e), GRTC_HOST_IMPORT_##id, (grtc_vm_arg_t[]){__VA_ARGS__},       \
                 sizeof((grtc_vm_arg_t[]){__VA_ARGS__}) / sizeof(grtc_vm_arg_t))
#define GRTC_HOST_V(value) grtc_vm_arg(value)

//===----------------------------------------------------------------------===//
// Symbolic sizes
//===----------------------------------------------------------------------===//

// Ops computed from the symbols go to the entry block of a $buffers
// function (after its constants), so they dominate every block; elsewhere
// (the export's straight-line body) where the builder is.
static grtc_vm_insertion_t grtc_host_hoist_begin(grtc_host_emitter_t* e) {
  grtc_vm_insertion_t saved = grtc_vm_builder_insertion(e->b);
  if (e->hoist && e->entry) {
    grtc_vm_insertion_t at = {e->entry,
                              e->const_anchor ? e->const_anchor->next : e->entry->first};
    grtc_vm_builder_set_insertion(e->b, at);
  }
  return saved;
}

static void grtc_host_hoist_end(grtc_host_emitter_t* e, grtc_vm_insertion_t saved,
                                grtc_value_t* last) {
  if (e->hoist && last && last->defining_op) e->const_anchor = last->defining_op;
  grtc_vm_builder_set_insertion(e->b, saved);
}

// The i64 value of symbol |symbol| in this function, or NULL.
static grtc_value_t* grtc_host_symbol(grtc_host_emitter_t* e, uint32_t symbol) {
  return symbol < e->sym_capacity ? e->sym_values[symbol] : NULL;
}

// The value of dimension |dim| (static or a symbol), or NULL.
static grtc_value_t* grtc_host_dim(grtc_host_emitter_t* e, int64_t dim) {
  dim = grtc_tmodule_resolve_dim(e->module, dim);
  return grtc_dim_is_static(dim) ? grtc_host_i64(e, dim)
                                 : grtc_host_symbol(e, grtc_dim_symbol(dim));
}

static bool grtc_host_same_expr(const grtc_size_expr_t* a, const grtc_size_expr_t* b) {
  return a->factor == b->factor && a->symbol_count == b->symbol_count &&
         memcmp(a->symbols, b->symbols, a->symbol_count * sizeof(a->symbols[0])) == 0;
}

// |expr| as an i64 value, computed once per function; NULL when one of its
// symbols has no value here (the callers check the symbols first).
static grtc_value_t* grtc_host_size_value(grtc_host_emitter_t* e, const grtc_size_expr_t* expr) {
  if (!expr->symbol_count) return grtc_host_i64(e, expr->factor);
  // A size a while loop changes is computed where it is used (its symbols'
  // values are the loop header's), neither hoisted nor kept.
  bool varies = false;
  for (uint32_t i = 0; i < expr->symbol_count; ++i) {
    varies |= grtc_tmodule_dim_varies(e->module, GRTC_DIM_SYMBOL(expr->symbols[i]));
  }
  for (uint32_t i = 0; !varies && i < e->size_count; ++i) {
    if (grtc_host_same_expr(&e->sizes[i].expr, expr)) return e->sizes[i].value;
  }
  for (uint32_t i = 0; i < expr->symbol_count; ++i) {
    if (!grtc_host_symbol(e, expr->symbols[i])) return NULL;
  }
  if (!varies && !grtc_host_grow(e, (void**)&e->sizes, &e->size_capacity, e->size_count,
                                 sizeof(*e->sizes), 16)) {
    return NULL;
  }
  grtc_value_t* factor = expr->factor == 1 ? NULL : grtc_host_i64(e, expr->factor);
  bool hoist = e->hoist;
  if (varies) e->hoist = false;
  grtc_vm_insertion_t saved = grtc_host_hoist_begin(e);
  grtc_value_t* value = factor;
  // Every symbol is at most INT32_MAX (the export checks it), so a product
  // whose bound stays within GRTC_HOST_MAX_BYTES needs no check; beyond
  // it, each multiplication first checks value <= MAX_BYTES / max(s, 1).
  double bound = (double)expr->factor;
  for (uint32_t i = 0; i < expr->symbol_count; ++i) {
    grtc_value_t* symbol = grtc_host_symbol(e, expr->symbols[i]);
    bound *= (double)INT32_MAX;
    if (value && bound > (double)GRTC_HOST_MAX_BYTES) {
      grtc_value_t* limit = grtc_vm_binary(
          e->b, GRTC_VM_DIV_S, grtc_host_i64(e, GRTC_HOST_MAX_BYTES),
          grtc_vm_binary(e->b, GRTC_VM_MAX_S, symbol, grtc_host_i64(e, 1)));
      char text[GRTC_SIZE_EXPR_FORMAT_CAPACITY], message[GRTC_SIZE_EXPR_FORMAT_CAPACITY + 256];
      snprintf(message, sizeof(message),
               "@%.*s: a tensor of %s bytes would exceed 2^48 bytes at these argument sizes",
               e->func ? (int)e->func->name.size : 1, e->func ? e->func->name.data : "?",
               grtc_size_expr_format(expr, text, sizeof(text)));
      grtc_vm_check_nz(e->b, grtc_vm_compare(e->b, GRTC_VM_CMP_LTE_S, value, limit), message);
    }
    value = value ? grtc_vm_binary(e->b, GRTC_VM_MUL, value, symbol) : symbol;
  }
  grtc_host_hoist_end(e, saved, value);
  e->hoist = hoist;
  if (varies) return value;
  e->sizes[e->size_count].expr = *expr;
  e->sizes[e->size_count].value = value;
  ++e->size_count;
  return value;
}

// |type|'s byte size as an i64 value.
static grtc_value_t* grtc_host_type_bytes(grtc_host_emitter_t* e, const grtc_ttype_t* type) {
  grtc_size_expr_t expr;
  if (!grtc_size_expr_of_type(e->module, type, &expr)) return NULL;
  return grtc_host_size_value(e, &expr);
}

// "[%d0, %d1]": a shape as a variadic i64 span (|dims| holds the values).
static grtc_vm_arg_t grtc_host_shape_span(grtc_host_emitter_t* e, const grtc_ttype_t* type,
                                          grtc_value_t** dims) {
  for (uint32_t d = 0; d < type->rank; ++d) dims[d] = grtc_host_dim(e, type->dims[d]);
  return grtc_vm_span(dims, type->rank);
}

// The symbol of a function's buffer-level form: "<name>$buffers".
static grt_string_view_t grtc_host_buffers_name(const grtc_tfunc_t* func, char* buffer,
                                                size_t capacity) {
  int length = snprintf(buffer, capacity, "%.*s$buffers", GRT_SV_ARG(func->name));
  size_t size = length < 0 ? 0 : (size_t)length < capacity ? (size_t)length : capacity - 1;
  return grt_make_string_view(buffer, size);
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
  grtc_host_place_t place = {e->values[s->root->id], s, false, 0, s->size, s->root->id, 0};
  if (s->size < 0) place.end = INT64_MAX;  // the whole buffer
  if (s->kind == GRTC_STORAGE_ARENA) {
    place.ref = e->arena;
    place.arena = true;
    if (s->slot == GRTC_MEMORY_PLAN_NO_SLOT) {
      place.begin = s->offset;
      place.end = s->offset + s->size;
      place.base = GRTC_HOST_NO_BASE;
    } else {
      place.base = GRTC_HOST_NO_BASE - 1 - s->slot;
    }
  }
  if (e->reusable && e->recording) {
    uint32_t slot = s->kind == GRTC_STORAGE_ARENA ? e->arena_slot : e->slots[s->root->id];
    if (slot != GRTC_HOST_NO_SLOT) {
      place.ref = e->indirect;
      place.slot = slot;
    }
  }
  return place;
}

// The place's byte offset in its buffer (or slot), an i64 value.
static grtc_value_t* grtc_host_place_offset(grtc_host_emitter_t* e, const grtc_host_place_t* place) {
  const grtc_value_storage_t* s = place->storage;
  if (!s || s->kind != GRTC_STORAGE_ARENA) return grtc_host_i64(e, 0);
  if (s->slot == GRTC_MEMORY_PLAN_NO_SLOT) return grtc_host_i64(e, s->offset);
  return e->slot_offsets ? e->slot_offsets[s->slot] : NULL;
}

// The place's byte size, an i64 value.
static grtc_value_t* grtc_host_place_size(grtc_host_emitter_t* e, const grtc_host_place_t* place) {
  const grtc_value_storage_t* s = place->storage;
  return s->size >= 0 ? grtc_host_i64(e, s->size) : grtc_host_size_value(e, &s->bytes);
}

// A !hal.buffer holding exactly |value|'s bytes (a subspan for arena values).
static grtc_value_t* grtc_host_buffer_of(grtc_host_emitter_t* e, const grtc_tvalue_t* value) {
  grtc_host_place_t place = grtc_host_place(e, value);
  if (!place.arena) return place.ref;
  grtc_value_t* offset = grtc_host_place_offset(e, &place);
  grtc_value_t* size = grtc_host_place_size(e, &place);
  return GRTC_HOST_CALL(e, BUFFER_SUBSPAN, GRTC_HOST_V(e->arena), GRTC_HOST_V(offset),
                        GRTC_HOST_V(size));
}

// A !hal.buffer_view of |buffer| with |type|'s element type and shape.
static grtc_value_t* grtc_host_view(grtc_host_emitter_t* e, grtc_value_t* buffer,
                                    const grtc_ttype_t* type) {
  grtc_value_t* dims[GRTC_MAX_RANK > 0 ? GRTC_MAX_RANK : 1];
  return GRTC_HOST_CALL(e, BUFFER_VIEW_CREATE, GRTC_HOST_V(buffer),
                        GRTC_HOST_V(grtc_host_i64(e, 0)),
                        GRTC_HOST_V(grtc_host_type_bytes(e, type)),
                        GRTC_HOST_V(grtc_host_i32(e, grtc_host_element_type(type->elem))),
                        GRTC_HOST_V(grtc_host_i32(e, 0)), grtc_host_shape_span(e, type, dims));
}

// A packed boundary value's element type (i2/ui2/i4/ui4, the runtime's
// codes, hal/buffer_view.h).
static uint32_t grtc_host_packed_element_type(const grtc_tpacked_t* packed) {
  return ((packed->is_unsigned ? 0x12u : 0x10u) << 24) | packed->bits;
}

// A !hal.buffer_view of the packed result |buffer| (|bytes_type| is the
// function's tensor<Mxui8>): |packed|'s element type and shape.
static grtc_value_t* grtc_host_packed_view(grtc_host_emitter_t* e, grtc_value_t* buffer,
                                           const grtc_ttype_t* bytes_type,
                                           const grtc_tpacked_t* packed) {
  grtc_value_t* dims[GRTC_MAX_RANK > 0 ? GRTC_MAX_RANK : 1];
  return GRTC_HOST_CALL(
      e, BUFFER_VIEW_CREATE, GRTC_HOST_V(buffer), GRTC_HOST_V(grtc_host_i64(e, 0)),
      GRTC_HOST_V(grtc_host_type_bytes(e, bytes_type)),
      GRTC_HOST_V(grtc_host_i32(e, grtc_host_packed_element_type(packed))),
      GRTC_HOST_V(grtc_host_i32(e, 0)), grtc_host_shape_span(e, &packed->type, dims));
}

static grtc_value_t* grtc_host_view_of(grtc_host_emitter_t* e, const grtc_tvalue_t* value) {
  return grtc_host_view(e, grtc_host_buffer_of(e, value), &value->type);
}

// The memory type and usage of every allocation, as i32 constants.
static void grtc_host_allocation_kind(grtc_host_emitter_t* e, grtc_value_t** memory,
                                      grtc_value_t** usage) {
  *memory = grtc_host_i32(e, GRTC_HOST_MEMORY_DEVICE_LOCAL);
  *usage = grtc_host_i32(e, GRTC_HOST_USAGE_DEFAULT);
}

static grtc_value_t* grtc_host_allocate(grtc_host_emitter_t* e, grtc_value_t* size) {
  grtc_value_t* memory = NULL;
  grtc_value_t* usage = NULL;
  grtc_host_allocation_kind(e, &memory, &usage);
  return GRTC_HOST_CALL(e, ALLOCATOR_ALLOCATE, GRTC_HOST_V(e->device_allocator),
                        GRTC_HOST_V(memory), GRTC_HOST_V(usage), GRTC_HOST_V(size));
}

// The byte size of root value |id|'s own buffer.
static grtc_value_t* grtc_host_own_size(grtc_host_emitter_t* e, uint32_t id) {
  const grtc_value_storage_t* s = &e->plan.storage[id];
  return s->size >= 0 ? grtc_host_i64(e, s->size) : grtc_host_size_value(e, &s->bytes);
}

// Allocates the root value |id|'s own buffer, named %v<id>. (The kind's
// constants come first, as they always have: a static program's text does
// not change.)
static void grtc_host_allocate_value(grtc_host_emitter_t* e, uint32_t id) {
  grtc_value_t* memory = NULL;
  grtc_value_t* usage = NULL;
  grtc_host_allocation_kind(e, &memory, &usage);
  e->values[id] = grtc_host_allocate(e, grtc_host_own_size(e, id));
  grtc_vm_builder_name(e->b, e->values[id], "v%u", id);
}

// Whether the function's plan has a transient arena.
static bool grtc_host_has_arena(const grtc_host_emitter_t* e) {
  return e->plan.transient_bytes > 0 || e->plan.slot_count > 0;
}

// The arena's byte size: the static part, or the end of the last
// symbolic slot.
static grtc_value_t* grtc_host_arena_size(grtc_host_emitter_t* e) {
  if (e->plan.slot_count && e->slot_offsets) return e->slot_offsets[e->plan.slot_count];
  return grtc_host_i64(e, e->plan.transient_bytes);
}

static void grtc_host_allocate_arena(grtc_host_emitter_t* e) {
  grtc_value_t* memory = NULL;
  grtc_value_t* usage = NULL;
  grtc_host_allocation_kind(e, &memory, &usage);
  e->arena = grtc_host_allocate(e, grtc_host_arena_size(e));
  grtc_vm_builder_name(e->b, e->arena, "arena");
}

// The symbolic slots' offsets (memory_plan.h): slot k starts at the static
// part plus slots 0..k-1, each rounded up to the alignment (at least one
// unit, so an empty slot still has room to be viewed).
static grt_status_t grtc_host_slot_offsets(grtc_host_emitter_t* e) {
  e->slot_offsets = NULL;
  uint32_t count = e->plan.slot_count;
  if (!count) return grt_ok_status();
  // slot_offsets[0..count], then each slot's aligned size.
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(e->allocator,
                                           (2 * count + 1) * sizeof(*e->slot_offsets),
                                           (void**)&e->slot_offsets));
  grtc_value_t** aligned = e->slot_offsets + count + 1;
  grtc_value_t* offset = grtc_host_i64(e, e->plan.transient_bytes);
  e->slot_offsets[0] = offset;
  for (uint32_t k = 0; k < count; ++k) {
    grtc_value_t* size = grtc_host_size_value(e, &e->plan.slots[k]);
    grtc_value_t* mask = grtc_host_i64(e, ~(int64_t)(GRTC_MEMORY_PLAN_ALIGNMENT - 1));
    grtc_value_t* round = grtc_host_i64(e, GRTC_MEMORY_PLAN_ALIGNMENT - 1);
    grtc_value_t* unit = grtc_host_i64(e, GRTC_MEMORY_PLAN_ALIGNMENT);
    if (!size) {
      return grt_make_status(GRT_STATUS_INTERNAL, "arena slot %u's size names a symbol @%.*s "
                             "does not take", k, GRT_SV_ARG(e->func->name));
    }
    // A slot of the same size as an earlier one adds the same amount.
    uint32_t same = 0;
    while (same < k && !grtc_host_same_expr(&e->plan.slots[same], &e->plan.slots[k])) ++same;
    grtc_vm_insertion_t saved = grtc_host_hoist_begin(e);
    if (same < k) {
      aligned[k] = aligned[same];
    } else {
      aligned[k] = grtc_vm_binary(e->b, GRTC_VM_AND,
                                  grtc_vm_binary(e->b, GRTC_VM_ADD, size, round), mask);
      aligned[k] = grtc_vm_binary(e->b, GRTC_VM_MAX_S, aligned[k], unit);
    }
    offset = grtc_vm_binary(e->b, GRTC_VM_ADD, offset, aligned[k]);
    grtc_vm_builder_name(e->b, offset, "slot%u_end", k);
    grtc_host_hoist_end(e, saved, offset);
    e->slot_offsets[k + 1] = offset;
  }
  return grt_ok_status();
}

static void grtc_host_begin_recording(grtc_host_emitter_t* e) {
  if (e->recording) return;
  e->cb = GRTC_HOST_CALL(
      e, COMMAND_BUFFER_CREATE, GRTC_HOST_V(e->device),
      GRTC_HOST_V(grtc_host_i32(e, e->reusable ? GRTC_HOST_REUSABLE : GRTC_HOST_ONE_SHOT)),
      GRTC_HOST_V(grtc_host_i32(e, e->reusable ? e->slot_count : 0)));
  GRTC_HOST_CALL(e, COMMAND_BUFFER_BEGIN, GRTC_HOST_V(e->cb));
  e->recording = true;
  e->range_count = 0;
}

// Waits for |fence| (no timeout).
static void grtc_host_await(grtc_host_emitter_t* e, grtc_value_t* fence) {
  GRTC_HOST_CALL(e, FENCE_AWAIT, GRTC_HOST_V(grtc_host_i32(e, -1)), grtc_vm_span(&fence, 1));
}

// Submits what is recorded and waits for it: the host reads results next.
static void grtc_host_flush(grtc_host_emitter_t* e) {
  if (!e->recording) return;
  GRTC_HOST_CALL(e, COMMAND_BUFFER_END, GRTC_HOST_V(e->cb));
  grtc_value_t* null_fence = grtc_vm_const_zero(e->b, e->fence);
  grtc_value_t* fence = GRTC_HOST_CALL(e, FENCE_CREATE, GRTC_HOST_V(e->device));
  GRTC_HOST_CALL(e, DEVICE_QUEUE_EXECUTE, GRTC_HOST_V(e->device), GRTC_HOST_V(null_fence),
                 GRTC_HOST_V(fence), grtc_vm_span(&e->cb, 1));
  grtc_host_await(e, fence);
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
    GRTC_HOST_CALL(e, COMMAND_BUFFER_EXECUTION_BARRIER, GRTC_HOST_V(e->cb));
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
  grtc_host_range_t range = {place->base, place->begin, place->end, write};
  return range;
}

// Records a copy of |size| bytes (an i64 value) from |source| to |target|,
// after a barrier when it touches what earlier commands did.
static grt_status_t grtc_host_record_copy(grtc_host_emitter_t* e, const grtc_host_place_t* source,
                                          const grtc_host_place_t* target, grtc_value_t* size) {
  grtc_host_range_t ranges[2] = {grtc_host_range(source, false), grtc_host_range(target, true)};
  GRT_RETURN_IF_ERROR(grtc_host_access(e, ranges, 2));
  GRTC_HOST_CALL(e, COMMAND_BUFFER_COPY_BUFFER, GRTC_HOST_V(e->cb),
                 GRTC_HOST_V(grtc_host_i32(e, source->slot)),
                 GRTC_HOST_V(grtc_host_i32(e, target->slot)), GRTC_HOST_V(source->ref),
                 GRTC_HOST_V(grtc_host_place_offset(e, source)), GRTC_HOST_V(target->ref),
                 GRTC_HOST_V(grtc_host_place_offset(e, target)), GRTC_HOST_V(size));
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

static grt_status_t grtc_host_emit_block(grtc_host_emitter_t* e, const grtc_tblock_t* block);

// Kernel |k|'s workgroup count with executable |i|.
static uint32_t grtc_host_workgroup_count(const grtc_host_emitter_t* e, uint32_t i, uint32_t k) {
  const uint32_t* counts = e->executables[i].workgroup_counts;
  return counts ? counts[k] : e->kernels->kernels[k]->workgroup_count;
}

// Whether the executables disagree on any kernel's workgroup count
// (kernels with symbolic extents have the same tiles on every target and
// their counts are computed at the call).
static bool grtc_host_counts_differ(const grtc_host_emitter_t* e) {
  for (uint32_t k = 0; k < e->kernels->count; ++k) {
    if (grtc_kernel_is_symbolic(e->kernels->kernels[k])) continue;
    if (e->kernels->kernels[k]->split_max > 0) continue;
    for (uint32_t i = 1; i < e->executable_count; ++i) {
      if (grtc_host_workgroup_count(e, i, k) != grtc_host_workgroup_count(e, 0, k)) return true;
    }
  }
  return false;
}

// The workgroup count of a dispatch of kernel |k|: a constant when every
// executable agrees (or there are none), else a select chain on the
// variant, the last executable's count when no other matches:
//   select(variant == 0, c0, select(variant == 1, c1, ... c(n-1)))
// with the tests for executables whose count is the last's left out.
static grtc_value_t* grtc_host_dispatch_count(grtc_host_emitter_t* e, uint32_t k) {
  if (e->executable_count == 0) return grtc_host_i32(e, e->kernels->kernels[k]->workgroup_count);
  uint32_t last = grtc_host_workgroup_count(e, e->executable_count - 1, k);
  grtc_value_t* count = grtc_host_i32(e, last);
  for (uint32_t i = e->executable_count - 1; i-- > 0;) {
    uint32_t c = grtc_host_workgroup_count(e, i, k);
    if (c == last) continue;
    grtc_value_t* is_variant =
        grtc_vm_compare(e->b, GRTC_VM_CMP_EQ, e->variant, grtc_host_i32(e, i));
    count = grtc_vm_select(e->b, is_variant, grtc_host_i32(e, c), count);
  }
  return count;
}

// A symbolic kernel's extents as i32 push constants (|out| holds
// extent_count) and its workgroup count, the product over its parallel
// dims of ceil(extent / tile) (1 for a serial kernel), computed from the
// symbols (hoisted: they depend on nothing else).
static grt_status_t grtc_host_symbolic_dispatch(grtc_host_emitter_t* e, const grtc_top_t* op,
                                                const grtc_kernel_t* kernel, grtc_value_t** out,
                                                grtc_value_t** out_count) {
  grtc_value_t* extents[GRTC_KERNEL_MAX_RANK * 4];
  for (uint32_t x = 0; x < kernel->extent_count; ++x) {
    uint32_t symbol = kernel->extent_symbols[x];
    int64_t dim = grtc_tmodule_resolve_dim(e->module, GRTC_DIM_SYMBOL(symbol));
    grtc_value_t* value = grtc_host_dim(e, dim);
    if (!value) {
      char text[256];
      return grtc_top_error(e->module, op,
                            "kernel '%.*s' extent %u is %s, which @%.*s does not read from its "
                            "arguments",
                            GRT_SV_ARG(kernel->name), x,
                            grtc_tmodule_describe_dim(e->module, GRTC_DIM_SYMBOL(symbol), text,
                                                      sizeof(text)),
                            GRT_SV_ARG(e->func->name));
    }
    if (x < GRTC_KERNEL_MAX_RANK * 4) extents[x] = value;
  }
  if (kernel->extent_count > GRTC_KERNEL_MAX_RANK * 4) {
    return grtc_top_error(e->module, op, "kernel '%.*s' has %u extents; at most %d are supported",
                          GRT_SV_ARG(kernel->name), kernel->extent_count,
                          GRTC_KERNEL_MAX_RANK * 4);
  }
  // Constants first: they go before the hoisted ops that use them.
  grtc_value_t* tiles[GRTC_KERNEL_MAX_RANK];
  grtc_value_t* rounds[GRTC_KERNEL_MAX_RANK];
  for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
    if (grtc_kdim_is_static(kernel->parallel_dims[d]) || kernel->serial) continue;
    tiles[d] = grtc_host_i64(e, kernel->tile[d]);
    rounds[d] = grtc_host_i64(e, kernel->tile[d] - 1);
  }
  int64_t static_count = 1;
  for (uint32_t d = 0; d < kernel->parallel_rank && !kernel->serial; ++d) {
    int64_t dim = kernel->parallel_dims[d];
    if (grtc_kdim_is_static(dim)) static_count *= (dim + kernel->tile[d] - 1) / kernel->tile[d];
  }
  grtc_value_t* count = static_count != 1 || kernel->serial ? grtc_host_i64(e, static_count) : NULL;
  // Extents a while loop changes are the loop's values: computed here.
  bool hoist = e->hoist;
  for (uint32_t x = 0; x < kernel->extent_count; ++x) {
    if (grtc_tmodule_dim_varies(e->module, GRTC_DIM_SYMBOL(kernel->extent_symbols[x]))) {
      e->hoist = false;
    }
  }
  grtc_vm_insertion_t saved = grtc_host_hoist_begin(e);
  for (uint32_t x = 0; x < kernel->extent_count; ++x) {
    out[x] = grtc_vm_trunc_i64_i32(e->b, extents[x]);
  }
  for (uint32_t d = 0; d < kernel->parallel_rank && !kernel->serial; ++d) {
    int64_t dim = kernel->parallel_dims[d];
    if (grtc_kdim_is_static(dim)) continue;
    uint32_t x = grtc_kdim_extent(dim);
    if (x >= kernel->extent_count) break;  // the kernel verifier refuses this
    grtc_value_t* tiles_d = grtc_vm_binary(
        e->b, GRTC_VM_DIV_S, grtc_vm_binary(e->b, GRTC_VM_ADD, extents[x], rounds[d]), tiles[d]);
    count = count ? grtc_vm_binary(e->b, GRTC_VM_MUL, count, tiles_d) : tiles_d;
  }
  if (!count) count = grtc_host_i64(e, 1);
  *out_count = grtc_vm_trunc_i64_i32(e->b, count);
  grtc_host_hoist_end(e, saved, *out_count);
  e->hoist = hoist;
  return grt_ok_status();
}

// A kernel with a run-time split (grtc_kernel_t.split_max): its split, an
// i32 push constant, and its workgroup count, from the device's
// concurrency c (hoisted where the symbols' sizes go; the arithmetic of
// grtc_kernel_split_for, _tile and _workgroups):
//   split = min(max((c + others - 1) / others, 1), split_max)
//   split = (split * others) % c != 0 && c <= split_max ? c : split
//   tile  = min(((dim + split - 1) / split + 15) / 16 * 16, dim)
//   count = others * ((dim + tile - 1) / tile)
static void grtc_host_split_dispatch(grtc_host_emitter_t* e, const grtc_kernel_t* kernel,
                                     grtc_value_t** out_split, grtc_value_t** out_count) {
  int64_t others = grtc_kernel_split_others(kernel);
  int64_t dim = kernel->parallel_dims[kernel->parallel_rank - 1];
  const int64_t step = GRTC_KERNEL_SPLIT_STEP;
  // Constants first: they go before the hoisted ops that use them.
  grtc_value_t* others_v = grtc_host_i64(e, others);
  grtc_value_t* others_round = grtc_host_i64(e, others - 1);
  grtc_value_t* one = grtc_host_i64(e, 1);
  grtc_value_t* zero = grtc_host_i64(e, 0);
  grtc_value_t* most = grtc_host_i64(e, kernel->split_max);
  grtc_value_t* dim_v = grtc_host_i64(e, dim);
  grtc_value_t* minus_one = grtc_host_i64(e, -1);
  grtc_value_t* step_round = grtc_host_i64(e, step - 1);
  grtc_value_t* step_v = grtc_host_i64(e, step);
  grtc_vm_insertion_t saved = grtc_host_hoist_begin(e);
  grtc_value_t* split = grtc_vm_binary(
      e->b, GRTC_VM_DIV_S, grtc_vm_binary(e->b, GRTC_VM_ADD, e->concurrency, others_round),
      others_v);
  split = grtc_vm_binary(e->b, GRTC_VM_MAX_S, split, one);
  split = grtc_vm_binary(e->b, GRTC_VM_MIN_S, split, most);
  // Uneven: one channel tile per worker where split_max allows.
  grtc_value_t* uneven = grtc_vm_compare(
      e->b, GRTC_VM_CMP_NE,
      grtc_vm_binary(e->b, GRTC_VM_REM_S, grtc_vm_binary(e->b, GRTC_VM_MUL, split, others_v),
                     e->concurrency),
      zero);
  grtc_value_t* allowed = grtc_vm_compare(e->b, GRTC_VM_CMP_LTE_S, e->concurrency, most);
  split = grtc_vm_select(e->b, grtc_vm_binary(e->b, GRTC_VM_AND, uneven, allowed),
                         e->concurrency, split);
  grtc_value_t* per = grtc_vm_binary(
      e->b, GRTC_VM_DIV_S,
      grtc_vm_binary(e->b, GRTC_VM_ADD, dim_v, grtc_vm_binary(e->b, GRTC_VM_ADD, split, minus_one)),
      split);
  grtc_value_t* tile = grtc_vm_binary(
      e->b, GRTC_VM_MUL,
      grtc_vm_binary(e->b, GRTC_VM_DIV_S, grtc_vm_binary(e->b, GRTC_VM_ADD, per, step_round),
                     step_v),
      step_v);
  tile = grtc_vm_binary(e->b, GRTC_VM_MIN_S, tile, dim_v);
  grtc_value_t* tiles = grtc_vm_binary(
      e->b, GRTC_VM_DIV_S,
      grtc_vm_binary(e->b, GRTC_VM_ADD, dim_v, grtc_vm_binary(e->b, GRTC_VM_ADD, tile, minus_one)),
      tile);
  grtc_value_t* count = others == 1 ? tiles : grtc_vm_binary(e->b, GRTC_VM_MUL, tiles, others_v);
  *out_split = grtc_vm_trunc_i64_i32(e->b, split);
  *out_count = grtc_vm_trunc_i64_i32(e->b, count);
  grtc_host_hoist_end(e, saved, *out_count);
}

// An operand of a symbolic kernel whose size is symbolic may be empty at
// the call while the kernel still loads from it: a concatenation or a
// padding loads every operand and selects one value, and where an operand
// is not selected its loads read index 0 (grtc_em_guard), which needs an
// element to land on. So such a binding is __empty_binding's zero bytes
// when its size is 0 (vm.select.ref, offset and length), the value loaded
// there never being selected. Nothing writes it, so the hazard tracking
// keeps the operand's range (docs/compiler.md "Empty operands").
static void grtc_host_empty_binding(grtc_host_emitter_t* e, grtc_value_t** binding) {
  grtc_value_t* empty = grtc_vm_compare(e->b, GRTC_VM_CMP_EQ, binding[3], grtc_host_i64(e, 0));
  grtc_value_t* stand_in = grtc_vm_global_load(e->b, e->empty_global);
  binding[1] = grtc_vm_select(e->b, empty, stand_in, binding[1]);
  binding[2] = grtc_vm_select(e->b, empty, grtc_host_i64(e, 0), binding[2]);
  binding[3] =
      grtc_vm_select(e->b, empty, grtc_host_i64(e, GRTC_HOST_EMPTY_BINDING_BYTES), binding[3]);
}

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
      grtc_host_allocate_value(e, op->results[r].id);
    }
  }
  // An empty iteration space (zero-sized tensors) has nothing to run or
  // copy; a symbolic kernel's count is known at the call.
  bool symbolic = grtc_kernel_is_symbolic(kernel);
  if (kernel->workgroup_count == 0 && !symbolic) return grt_ok_status();
  grtc_value_t* constants[GRTC_KERNEL_MAX_RANK * 4];
  grtc_value_t* workgroups = NULL;
  if (symbolic) {
    GRT_RETURN_IF_ERROR(grtc_host_symbolic_dispatch(e, op, kernel, constants, &workgroups));
  }
  uint32_t constant_count = symbolic ? kernel->extent_count : 0;
  if (kernel->split_max > 0) {
    if (symbolic || !e->concurrency) {
      return grtc_top_error(e->module, op,
                            "kernel '%.*s' has a run-time split but %s", GRT_SV_ARG(kernel->name),
                            symbolic ? "symbolic extents" : "the program read no concurrency");
    }
    grtc_host_split_dispatch(e, kernel, &constants[constant_count++], &workgroups);
  }
  grtc_host_begin_recording(e);
  // A tied result that the plan made its own root (its operand's bytes
  // belong to someone else: an argument, a constant) starts as a copy.
  if (tied && grtc_host_storage(e, &op->results[0])->root == &op->results[0]) {
    grtc_host_place_t source = grtc_host_place(e, op->operands[op->attrs.tied_operand]);
    grtc_host_place_t target = grtc_host_place(e, &op->results[0]);
    GRT_RETURN_IF_ERROR(
        grtc_host_record_copy(e, &source, &target, grtc_host_place_size(e, &target)));
  }
  // Bindings: (slot, buffer, offset, length) per binding.
  grtc_host_range_t* ranges = NULL;
  grtc_value_t** bindings = NULL;
  size_t count = binding_count ? binding_count : 1;
  grt_status_t status = grt_allocator_malloc(e->allocator, count * sizeof(*ranges), (void**)&ranges);
  if (grt_status_is_ok(status)) {
    status = grt_allocator_malloc(e->allocator, 4 * count * sizeof(*bindings), (void**)&bindings);
  }
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
    ranges[n] = grtc_host_range(&place, writes);
    bindings[4 * n + 0] = grtc_host_i32(e, place.slot);
    bindings[4 * n + 1] = place.ref;
    bindings[4 * n + 2] = grtc_host_place_offset(e, &place);
    bindings[4 * n + 3] = grtc_host_place_size(e, &place);
    if (symbolic && !writes && place.storage->size < 0 && e->empty_global) {
      grtc_host_empty_binding(e, &bindings[4 * n]);
    }
    ++n;
  }
  if (grt_status_is_ok(status)) status = grtc_host_access(e, ranges, n);
  if (grt_status_is_ok(status)) {
    grtc_value_t* one = grtc_host_i32(e, 1);
    grtc_value_t* entry_point = grtc_host_i32(e, op->attrs.kernel);
    if (!workgroups) workgroups = grtc_host_dispatch_count(e, op->attrs.kernel);
    GRTC_HOST_CALL(e, COMMAND_BUFFER_DISPATCH, GRTC_HOST_V(e->cb), GRTC_HOST_V(e->executable),
                   GRTC_HOST_V(entry_point), GRTC_HOST_V(workgroups), GRTC_HOST_V(one),
                   GRTC_HOST_V(one), grtc_vm_span(constants, constant_count),
                   grtc_vm_span(bindings, n));
  }
  grt_allocator_free(e->allocator, bindings);
  grt_allocator_free(e->allocator, ranges);
  return status;
}

// Mutable global |global|'s whole buffer as a place (loaded from its
// module global where the builder is; never a binding-table slot, so a
// reusable recording names the same buffer at every replay).
static grtc_host_place_t grtc_host_global_place(grtc_host_emitter_t* e,
                                                const grtc_tglobal_t* global) {
  grtc_host_place_t place;
  memset(&place, 0, sizeof(place));
  place.ref = grtc_vm_global_load(e->b, e->state_globals[global->index]);
  place.end = grtc_ttype_byte_size(&global->type);
  place.base = GRTC_HOST_GLOBAL_BASE(global->index);
  return place;
}

// util.global.load: a copy of the global's bytes into the result's place;
// util.global.store: a copy of the operand's bytes into the global. Both
// are recorded in order with the dispatches (docs/compiler.md "Mutable
// globals").
static grt_status_t grtc_host_emit_global(grtc_host_emitter_t* e, const grtc_top_t* op) {
  const grtc_tglobal_t* global = op->attrs.global;
  bool load = op->kind == GRTC_TOP_GLOBAL_LOAD;
  if (!global || global->index >= e->module->global_count ||
      op->operand_count != (load ? 0u : 1u) || op->result_count != (load ? 1u : 0u)) {
    return grtc_top_error(e->module, op, "'%s' needs a global of the module and %s",
                          grtc_top_kind_name(op->kind), load ? "one result" : "one operand");
  }
  const grtc_tvalue_t* value = load ? &op->results[0] : op->operands[0];
  const grtc_value_storage_t* s = grtc_host_storage(e, value);
  if (load && s->root == value && s->kind == GRTC_STORAGE_OWN && !e->reusable) {
    grtc_host_allocate_value(e, value->id);
  }
  int64_t size = grtc_ttype_byte_size(&global->type);
  if (size == 0) return grt_ok_status();
  grtc_host_begin_recording(e);
  grtc_host_place_t state = grtc_host_global_place(e, global);
  grtc_host_place_t place = grtc_host_place(e, value);
  return grtc_host_record_copy(e, load ? &state : &place, load ? &place : &state,
                               grtc_host_i64(e, size));
}

// An i1/i32 scalar read back to the host (after the recorded work ran).
static grtc_value_t* grtc_host_load_scalar(grtc_host_emitter_t* e, const grtc_tvalue_t* value) {
  grtc_host_place_t place = grtc_host_place(e, value);
  size_t width = grtc_elem_byte_size(value->type.elem);
  if (width > 4) width = 4;  // the low bytes (little-endian)
  return GRTC_HOST_CALL(e, BUFFER_LOAD, GRTC_HOST_V(place.ref),
                        GRTC_HOST_V(grtc_host_place_offset(e, &place)),
                        GRTC_HOST_V(grtc_host_i32(e, (int64_t)width)));
}

static grt_status_t grtc_host_emit_check(grtc_host_emitter_t* e, const grtc_top_t* op) {
  grtc_host_flush(e);
  switch (op->kind) {
    case GRTC_TOP_CHECK_EQ:
    case GRTC_TOP_CHECK_ALMOST_EQ:
    case GRTC_TOP_CHECK_CLOSE: {
      if (op->operand_count != 2) {
        return grtc_top_error(e->module, op, "'%s' expects 2 operands, got %u",
                              grtc_top_kind_name(op->kind), op->operand_count);
      }
      grtc_value_t* lhs = grtc_host_view_of(e, op->operands[0]);
      grtc_value_t* rhs = grtc_host_view_of(e, op->operands[1]);
      if (op->kind == GRTC_TOP_CHECK_EQ && op->attrs.reference_rule) {
        GRTC_HOST_CALL(e, CHECK_EXPECT_VALUE_EQ, GRTC_HOST_V(e->device), GRTC_HOST_V(lhs),
                       GRTC_HOST_V(rhs));
      } else if (op->kind == GRTC_TOP_CHECK_EQ) {
        GRTC_HOST_CALL(e, CHECK_EXPECT_EQ, GRTC_HOST_V(e->device), GRTC_HOST_V(lhs),
                       GRTC_HOST_V(rhs));
      } else if (op->kind == GRTC_TOP_CHECK_ALMOST_EQ && op->attrs.reference_rule) {
        // The StableHLO interpreter's tolerance, exact in f64.
        uint64_t bits;
        memcpy(&bits, &op->attrs.atol, 8);
        GRTC_HOST_CALL(e, CHECK_EXPECT_NEAR, GRTC_HOST_V(e->device), GRTC_HOST_V(lhs),
                       GRTC_HOST_V(rhs), GRTC_HOST_V(grtc_host_const(e, 'F', (int64_t)bits)));
      } else if (op->kind == GRTC_TOP_CHECK_CLOSE) {
        GRTC_HOST_CALL(e, CHECK_EXPECT_CLOSE, GRTC_HOST_V(e->device), GRTC_HOST_V(lhs),
                       GRTC_HOST_V(rhs), GRTC_HOST_V(grtc_host_i64(e, op->attrs.max_ulp)),
                       GRTC_HOST_V(grtc_host_i64(e, op->attrs.min_ulp)));
      } else {
        // The check module takes f32 tolerances: round each up, so a
        // tolerance of 1e-4 still admits a difference of 0.99999...e-4.
        float atol = grtc_host_f32_at_least(op->attrs.atol);
        float rtol = grtc_host_f32_at_least(op->attrs.rtol);
        uint32_t atol_bits, rtol_bits;
        memcpy(&atol_bits, &atol, 4);
        memcpy(&rtol_bits, &rtol, 4);
        GRTC_HOST_CALL(e, CHECK_EXPECT_ALMOST_EQ, GRTC_HOST_V(e->device), GRTC_HOST_V(lhs),
                       GRTC_HOST_V(rhs), GRTC_HOST_V(grtc_host_const(e, 'f', atol_bits)),
                       GRTC_HOST_V(grtc_host_const(e, 'f', rtol_bits)));
      }
      return grt_ok_status();
    }
    case GRTC_TOP_CHECK_TRUE:
    case GRTC_TOP_CHECK_FALSE: {
      if (op->operand_count != 1 || grtc_ttype_element_count(&op->operands[0]->type) != 1) {
        return grtc_top_error(e->module, op, "'%s' expects one single-element operand",
                              grtc_top_kind_name(op->kind));
      }
      grtc_value_t* value = grtc_host_load_scalar(e, op->operands[0]);
      grtc_host_call(e,
                     op->kind == GRTC_TOP_CHECK_TRUE ? GRTC_HOST_IMPORT_CHECK_EXPECT_TRUE
                                                     : GRTC_HOST_IMPORT_CHECK_EXPECT_FALSE,
                     (grtc_vm_arg_t[]){grtc_vm_arg(value)}, 1);
      return grt_ok_status();
    }
    default:
      return grtc_top_error(e->module, op, "'%s' is not a check op", grtc_top_kind_name(op->kind));
  }
}

static grtc_value_t* grtc_host_message(grtc_host_emitter_t* e, const char* text);

// custom_call @shape_assertion that folding did not prove: its predicate
// and the values its message quotes are read back after the work before
// it, and hal.shape_assertion fails the call with the message ("{i}"
// filled in) unless the predicate holds.
static grt_status_t grtc_host_emit_shape_assertion(grtc_host_emitter_t* e,
                                                   const grtc_top_t* op) {
  if (op->operand_count < 1 || op->operand_count > 17) {
    return grtc_top_error(e->module, op, "expects a predicate and at most 16 values, got %u "
                          "operands", op->operand_count);
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    const grtc_ttype_t* type = &op->operands[i]->type;
    if (type->rank != 0 || !grtc_elem_is_integer(type->elem)) {
      return grtc_top_error(e->module, op, "operand %u has type %s, expected a rank-0 integer",
                            i, grtc_ttype_format(type, (char[96]){0}, 96));
    }
  }
  grtc_host_flush(e);
  grtc_value_t* holds = grtc_host_load_scalar(e, op->operands[0]);
  grtc_value_t* values[16];
  for (uint32_t i = 1; i < op->operand_count; ++i) {
    grtc_value_t* value = grtc_host_load_scalar(e, op->operands[i]);
    values[i - 1] = grtc_vm_ext_i32_i64(
        e->b, value, grtc_elem_is_signed_integer(op->operands[i]->type.elem));
  }
  GRTC_HOST_CALL(e, SHAPE_ASSERTION, GRTC_HOST_V(holds),
                 GRTC_HOST_V(grtc_host_message(e, op->attrs.message ? op->attrs.message : "")),
                 grtc_vm_span(values, op->operand_count - 1));
  return grt_ok_status();
}

// The materialized buffers of |values| (|out| holds |count|).
static void grtc_host_buffer_list(grtc_host_emitter_t* e, grtc_tvalue_t* const* values,
                                  uint32_t count, grtc_value_t** out) {
  for (uint32_t i = 0; i < count; ++i) out[i] = grtc_host_buffer_of(e, values[i]);
}

// |count| !hal.buffer types (|out| holds |count|).
static void grtc_host_buffer_types(grtc_host_emitter_t* e, uint32_t count,
                                   const grtc_type_t** out) {
  for (uint32_t i = 0; i < count; ++i) out[i] = e->buffer;
}

// Scratch arrays of values and types for one op's operands or results.
typedef struct grtc_host_scratch_t {
  grtc_value_t** values;
  const grtc_type_t** types;
} grtc_host_scratch_t;

static grt_status_t grtc_host_scratch(grtc_host_emitter_t* e, uint32_t count,
                                      grtc_host_scratch_t* out) {
  out->values = NULL;
  out->types = NULL;
  size_t n = count ? count : 1;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(e->allocator, n * sizeof(*out->values),
                                           (void**)&out->values));
  grt_status_t status =
      grt_allocator_malloc(e->allocator, n * sizeof(*out->types), (void**)&out->types);
  if (!grt_status_is_ok(status)) grt_allocator_free(e->allocator, out->values);
  return status;
}

static void grtc_host_scratch_free(grtc_host_emitter_t* e, grtc_host_scratch_t* scratch) {
  grt_allocator_free(e->allocator, scratch->values);
  grt_allocator_free(e->allocator, (void*)scratch->types);
}

// The symbols |func|'s $buffers function takes after its buffers: the
// class representatives among its argument symbols that the relations
// did not make static, in id order. *out is NULL when there are none
// (free it with the emitter's allocator).
static grt_status_t grtc_host_function_symbols(grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                               uint32_t** out, uint32_t* out_count) {
  *out = NULL;
  *out_count = 0;
  const grtc_tshapes_t* shapes = e->module->shapes;
  uint32_t count = 0;
  for (int pass = 0; pass < 2; ++pass) {
    count = 0;
    for (uint32_t id = 0; shapes && id < shapes->sym_count; ++id) {
      const grtc_tsym_t* sym = &shapes->syms[id];
      if (sym->func != func || sym->origin != GRTC_SYM_ARGUMENT ||
          grtc_tmodule_resolve_dim(e->module, GRTC_DIM_SYMBOL(id)) != GRTC_DIM_SYMBOL(id)) {
        continue;
      }
      if (pass == 1) (*out)[count] = id;
      ++count;
    }
    if (pass == 0) {
      if (!count) return grt_ok_status();
      GRT_RETURN_IF_ERROR(grt_allocator_malloc(e->allocator, count * sizeof(**out), (void**)out));
    }
  }
  *out_count = count;
  return grt_ok_status();
}

static void grtc_host_derive_late(grtc_host_emitter_t* e);
static void grtc_host_check_reshapes(grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                     const grtc_tblock_t* block, const grtc_tblock_t* branch);

// Whether the class of the symbolic |dim| holds an extent read from an
// argument's data (a dynamic_reshape's shape: grtc_sexpr_reads_data).
// Such a function returns it after its buffers, as a loop's extent, so a
// caller checks it against its own types.
static bool grtc_host_dim_reads_data(const grtc_host_emitter_t* e, int64_t dim) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t id = 0; shapes && id < shapes->sym_count; ++id) {
    if (grtc_sexpr_reads_data(shapes->syms[id].expr) &&
        grtc_tmodule_resolve_dim(e->module, GRTC_DIM_SYMBOL(id)) == dim) {
      return true;
    }
  }
  return false;
}

// " (the sizes read from argument 1's data)" for a message about the
// symbolic |dim| (an extent in the class of one read from an argument's
// data, grtc_host_dim_reads_data); "" otherwise.
static const char* grtc_host_data_source(const grtc_host_emitter_t* e, int64_t dim,
                                         char* buffer, size_t capacity) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  buffer[0] = '\0';
  for (uint32_t id = 0; shapes && id < shapes->sym_count; ++id) {
    const grtc_tvalue_t* argument = grtc_sexpr_data_argument(shapes->syms[id].expr);
    if (argument && grtc_tmodule_resolve_dim(e->module, GRTC_DIM_SYMBOL(id)) == dim) {
      snprintf(buffer, capacity, " (the sizes read from argument %u's data)", argument->index);
      break;
    }
  }
  return buffer;
}

// The symbols whose values a function's $buffers returns after its
// buffers: the class of every result dimension a while loop changes
// (grtc_tmodule_dim_varies), once each, into |out| (64 at most).
static uint32_t grtc_host_result_symbols(const grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                         uint32_t* out) {
  uint32_t count = 0;
  for (uint32_t r = 0; r < func->result_count; ++r) {
    const grtc_ttype_t* type = &func->result_types[r];
    for (uint32_t d = 0; d < type->rank; ++d) {
      int64_t dim = grtc_tmodule_resolve_dim(e->module, type->dims[d]);
      if (grtc_dim_is_static(dim) || (!grtc_tmodule_dim_varies(e->module, dim) &&
                                      !grtc_host_dim_reads_data(e, dim))) {
        continue;
      }
      uint32_t k = 0;
      while (k < count && out[k] != grtc_dim_symbol(dim)) ++k;
      if (k == count && count < 64) out[count++] = grtc_dim_symbol(dim);
    }
  }
  return count;
}

// Dimension |axis| of call operand |index|, as the caller knows it.
static grtc_value_t* grtc_host_operand_dim(grtc_host_emitter_t* e, const grtc_top_t* op,
                                           uint32_t index, uint32_t axis) {
  if (index >= op->operand_count || axis >= op->operands[index]->type.rank) return NULL;
  return grtc_host_dim(e, op->operands[index]->type.dims[axis]);
}

// |op|'s line and column in its source (its location's, when it has one).
static void grtc_host_op_position(const grtc_top_t* op, uint32_t* line, uint32_t* column) {
  *line = op->line;
  *column = op->column;
  if (op->location) {
    grt_string_view_t file;
    grtc_location_file_position(op->location, &file, line, column);
  }
}

// "'stablehlo.dynamic_iota' at 3:8" for messages about |op| (as |kind|:
// the dynamic op it was before the boundary made it static).
static void grtc_host_describe_op(const grtc_top_t* op, grtc_top_kind_t kind, char* buffer,
                                  size_t capacity) {
  uint32_t line, column;
  grtc_host_op_position(op, &line, &column);
  snprintf(buffer, capacity, "'%s' at %u:%u", grtc_top_kind_name(kind), line, column);
}

// The lower bounds |callee|'s relations put on its argument dimensions
// (GRTC_REL_GE: a static slice's limit, a dynamic_slice's size), checked
// at call |op| unless the caller's shapes prove them (the export checks
// its own callers'; a call reaches the callee's $buffers directly).
static void grtc_host_call_bounds(grtc_host_emitter_t* e, const grtc_top_t* op,
                                  const grtc_tfunc_t* callee) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t r = 0; shapes && r < shapes->rel_count; ++r) {
    const grtc_trel_t* rel = &shapes->rels[r];
    if (rel->func != callee || rel->kind != GRTC_REL_GE || !grtc_dim_is_static(rel->b)) continue;
    int64_t rep = grtc_tmodule_resolve_dim(e->module, rel->a);
    if (grtc_dim_is_static(rep)) continue;  // a static size the verifier checked
    const grtc_tsym_t* sym = &shapes->syms[grtc_dim_symbol(rep)];
    if (sym->origin != GRTC_SYM_ARGUMENT || sym->func != callee) continue;
    int64_t given = sym->index < op->operand_count &&
                            sym->axis < op->operands[sym->index]->type.rank
                        ? grtc_tmodule_resolve_dim(e->module,
                                                   op->operands[sym->index]->type.dims[sym->axis])
                        : -1;
    if (grtc_dim_is_static(given) && given >= rel->b) continue;  // proved
    grtc_value_t* value = grtc_host_operand_dim(e, op, sym->index, sym->axis);
    if (!value) continue;  // reported by the scan
    char where[128], message[512];
    where[0] = 0;
    if (rel->op) grtc_host_describe_op(rel->op, rel->op->kind, where, sizeof(where));
    snprintf(message, sizeof(message),
             "call of @%.*s: operand %u dimension %u must be at least %lld (%s%s%s)",
             GRT_SV_ARG(callee->name), sym->index, sym->axis, (long long)rel->b, where,
             *where ? ", " : "", rel->what ? rel->what : "bound");
    grtc_vm_check_nz(e->b,
                     grtc_vm_compare(e->b, GRTC_VM_CMP_LTE_S, grtc_host_i64(e, rel->b), value),
                     message);
  }
}

// The values of |callee|'s symbols |syms| at call |op| (into |out|): each
// is the dimension of the operand it is read from. What the callee's
// relations assume of its arguments (every argument dimension equal to its
// class's representative or static size) is checked here unless the
// caller's shapes prove it: vm.check.eq with a message naming both (the
// export checks its callers' values with the sizes in the message).
static grt_status_t grtc_host_call_symbols(grtc_host_emitter_t* e, const grtc_top_t* op,
                                           const grtc_tfunc_t* callee, const uint32_t* syms,
                                           uint32_t sym_count, grtc_value_t** out) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t k = 0; k < sym_count; ++k) {
    const grtc_tsym_t* sym = &shapes->syms[syms[k]];
    out[k] = grtc_host_operand_dim(e, op, sym->index, sym->axis);
    if (!out[k]) {
      char text[256];
      return grtc_top_error(e->module, op,
                            "call of @%.*s: its symbol %s is symbolic in the caller too, and "
                            "the host program reads only argument dimensions at the call",
                            GRT_SV_ARG(callee->name),
                            grtc_tmodule_describe_dim(e->module, GRTC_DIM_SYMBOL(syms[k]), text,
                                                      sizeof(text)));
    }
  }
  for (uint32_t i = 0; i < op->operand_count && i < callee->body->arg_count; ++i) {
    const grtc_ttype_t* param = &callee->body->args[i].type;
    const grtc_ttype_t* given = &op->operands[i]->type;
    for (uint32_t d = 0; d < param->rank && d < given->rank; ++d) {
      int64_t expected = grtc_tmodule_resolve_dim(e->module, param->dims[d]);
      int64_t actual = grtc_tmodule_resolve_dim(e->module, given->dims[d]);
      grtc_value_t* expected_value = NULL;
      const char* source = "";
      char source_text[64] = "";
      if (grtc_dim_is_static(expected)) {
        expected_value = grtc_host_i64(e, expected);
      } else {
        const grtc_tsym_t* rep = &shapes->syms[grtc_dim_symbol(expected)];
        if (rep->origin != GRTC_SYM_ARGUMENT || (rep->index == i && rep->axis == d)) continue;
        expected = grtc_tmodule_resolve_dim(e->module,
                                            op->operands[rep->index]->type.dims[rep->axis]);
        expected_value = grtc_host_operand_dim(e, op, rep->index, rep->axis);
        snprintf(source_text, sizeof(source_text), "operand %u dimension %u", rep->index,
                 rep->axis);
        source = source_text;
      }
      if (expected == actual) continue;  // the caller's shapes prove it
      grtc_value_t* actual_value = grtc_host_dim(e, actual);
      if (!expected_value || !actual_value) continue;  // reported by the scan
      char message[512];
      if (*source) {
        snprintf(message, sizeof(message),
                 "call of @%.*s: operand %u dimension %u must equal %s", GRT_SV_ARG(callee->name),
                 i, d, source);
      } else {
        snprintf(message, sizeof(message), "call of @%.*s: operand %u dimension %u must be %lld",
                 GRT_SV_ARG(callee->name), i, d, (long long)expected);
      }
      grtc_vm_check(e->b, GRTC_VM_CHECK_EQ, actual_value, expected_value, message);
    }
  }
  grtc_host_call_bounds(e, op, callee);
  return grt_ok_status();
}

static grt_status_t grtc_host_emit_call(grtc_host_emitter_t* e, const grtc_top_t* op) {
  grtc_host_flush(e);
  const grtc_tfunc_t* callee = op->attrs.callee;
  if (!callee) return grtc_top_error(e->module, op, "call has no callee");
  grtc_host_scratch_t args, results;
  uint32_t result_syms[64];
  uint32_t result_sym_count = grtc_host_result_symbols(e, callee, result_syms);
  GRT_RETURN_IF_ERROR(grtc_host_scratch(e, op->operand_count, &args));
  grt_status_t status = grtc_host_scratch(e, op->result_count + result_sym_count, &results);
  if (!grt_status_is_ok(status)) {
    grtc_host_scratch_free(e, &args);
    return status;
  }
  grtc_host_buffer_list(e, op->operands, op->operand_count, args.values);
  grtc_host_buffer_types(e, op->result_count, results.types);
  for (uint32_t k = 0; k < result_sym_count; ++k) {
    results.types[op->result_count + k] = grtc_vm_type_i64(e->b);
  }
  // The callee's symbols follow its buffers.
  uint32_t* callee_syms = NULL;
  uint32_t callee_sym_count = 0;
  grtc_value_t** call_args = args.values;
  status = grtc_host_function_symbols(e, callee, &callee_syms, &callee_sym_count);
  if (grt_status_is_ok(status) && callee_sym_count) {
    status = grt_allocator_malloc(e->allocator,
                                  (op->operand_count + callee_sym_count) * sizeof(*call_args),
                                  (void**)&call_args);
    if (grt_status_is_ok(status)) {
      memcpy(call_args, args.values, op->operand_count * sizeof(*call_args));
      status = grtc_host_call_symbols(e, op, callee, callee_syms, callee_sym_count,
                                      call_args + op->operand_count);
    }
  }
  if (!grt_status_is_ok(status)) {
    if (call_args != args.values) grt_allocator_free(e->allocator, call_args);
    grt_allocator_free(e->allocator, callee_syms);
    grtc_host_scratch_free(e, &results);
    grtc_host_scratch_free(e, &args);
    return status;
  }
  char name[GRTC_HOST_NAME_CAPACITY];
  grtc_operation_t* call =
      grtc_vm_call(e->b, grtc_host_buffers_name(callee, name, sizeof(name)), call_args,
                   op->operand_count + callee_sym_count, results.types,
                   op->result_count + result_sym_count);
  if (call_args != args.values) grt_allocator_free(e->allocator, call_args);
  grt_allocator_free(e->allocator, callee_syms);
  for (uint32_t r = 0; call && r < op->result_count; ++r) {
    e->values[op->results[r].id] = &call->results[r];
  }
  // The extents the callee's while loops gave its results: each must be
  // what the caller's result types say.
  for (uint32_t k = 0; call && k < result_sym_count; ++k) {
    grtc_value_t* value = &call->results[op->result_count + k];
    for (uint32_t r = 0; r < op->result_count && r < callee->result_count; ++r) {
      const grtc_ttype_t* declared = &callee->result_types[r];
      for (uint32_t d = 0; d < declared->rank && d < op->results[r].type.rank; ++d) {
        if (grtc_tmodule_resolve_dim(e->module, declared->dims[d]) !=
            GRTC_DIM_SYMBOL(result_syms[k])) {
          continue;
        }
        int64_t expected = grtc_tmodule_resolve_dim(e->module, op->results[r].type.dims[d]);
        grtc_value_t* expected_value = grtc_host_dim(e, expected);
        if (!expected_value) {
          grtc_vm_builder_name(e->b, value, "s%u", grtc_dim_symbol(expected));
          e->sym_values[grtc_dim_symbol(expected)] = value;
          continue;
        }
        char text[256], message[768];
        snprintf(message, sizeof(message),
                 "call of @%.*s: result %u dimension %u, which its control flow computes, must be "
                 "%s as the caller's type %s says",
                 GRT_SV_ARG(callee->name), r, d,
                 grtc_tmodule_describe_dim(e->module, expected, text, sizeof(text)),
                 grtc_ttype_format(&op->results[r].type, (char[192]){0}, 192));
        grtc_vm_check(e->b, GRTC_VM_CHECK_EQ, value, expected_value, message);
      }
    }
  }
  grtc_host_scratch_free(e, &results);
  grtc_host_scratch_free(e, &args);
  // Extents derived from the ones the call returned.
  if (result_sym_count) grtc_host_derive_late(e);
  return grt_ok_status();
}

// A block taking |count| buffers (the values of |values|, named %v<id>,
// once the block is placed by grtc_host_place_block).
static grtc_block_t* grtc_host_new_block(grtc_host_emitter_t* e, uint32_t count) {
  const grtc_type_t* types[64];
  const grtc_type_t** list = types;
  if (count > 64 && !grt_status_is_ok(grt_allocator_malloc(e->allocator, count * sizeof(*list),
                                                           (void**)&list))) {
    e->out_of_memory = true;
    return NULL;
  }
  grtc_host_buffer_types(e, count, list);
  grtc_block_t* block = grtc_vm_builder_block(e->b, list, count);
  if (list != types) grt_allocator_free(e->allocator, (void*)list);
  return block;
}

// Places |block| at the end of the function; its arguments become
// |values|' buffers.
static void grtc_host_place_block(grtc_host_emitter_t* e, grtc_block_t* block,
                                  const grtc_tvalue_t* values, uint32_t count) {
  grtc_vm_builder_append_block(e->b, e->function, block);
  for (uint32_t i = 0; block && i < count; ++i) {
    e->values[values[i].id] = &block->args[i];
    grtc_vm_builder_name(e->b, &block->args[i], "v%u", values[i].id);
  }
}

// A branch to |target| passing |values|' buffers.
static grt_status_t grtc_host_br(grtc_host_emitter_t* e, grtc_block_t* target,
                                 grtc_tvalue_t* const* values, uint32_t count) {
  grtc_host_scratch_t args;
  GRT_RETURN_IF_ERROR(grtc_host_scratch(e, count, &args));
  grtc_host_buffer_list(e, values, count, args.values);
  grtc_vm_br(e->b, target, args.values, count);
  grtc_host_scratch_free(e, &args);
  return grt_ok_status();
}

static const grtc_top_t* grtc_host_terminator(const grtc_tblock_t* block) {
  return block->last && (block->last->kind == GRTC_TOP_YIELD ||
                         block->last->kind == GRTC_TOP_RETURN)
             ? block->last
             : NULL;
}

// Emits a region's ops; its YIELD branches to |join| with the yielded
// buffers (|join| NULL: the caller handles the YIELD, which is returned
// through |out_yield|).
static grt_status_t grtc_host_emit_region(grtc_host_emitter_t* e, const grtc_top_t* parent,
                                          const grtc_tblock_t* region, grtc_block_t* join,
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
  if (!join) return grt_ok_status();
  return grtc_host_br(e, join, yield->operands, yield->operand_count);
}

static grt_status_t grtc_host_emit_if_case(grtc_host_emitter_t* e, const grtc_top_t* op) {
  if (op->operand_count != 1 || op->region_count == 0 ||
      (op->kind == GRTC_TOP_IF && op->region_count != 2)) {
    return grtc_top_error(e->module, op, "'%s' has an unexpected form (%u operands, %u regions)",
                          grtc_top_kind_name(op->kind), op->operand_count, op->region_count);
  }
  grtc_host_flush(e);
  grtc_value_t* selector = grtc_host_load_scalar(e, op->operands[0]);
  grtc_block_t** blocks = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(e->allocator, op->region_count * sizeof(*blocks),
                                           (void**)&blocks));
  for (uint32_t r = 0; r < op->region_count; ++r) blocks[r] = grtc_host_new_block(e, 0);
  // The results' extents the branch taken decides (grtc_branch_dim_varies)
  // whose class no argument gives: one i64 argument of the join each,
  // given by the first result dimension of the class.
  uint32_t syms[64], sym_index[64], sym_axis[64], sym_count = 0;
  if (op->result_count > 64) {
    grt_allocator_free(e->allocator, blocks);
    return grtc_top_error(e->module, op, "'%s' has over 64 results",
                          grtc_top_kind_name(op->kind));
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    for (uint32_t d = 0; d < op->results[i].type.rank; ++d) {
      if (!grtc_branch_dim_varies(e->module, op, i, d)) continue;
      int64_t rep = grtc_tmodule_resolve_dim(e->module, op->results[i].type.dims[d]);
      if (grtc_dim_is_static(rep) ||
          !grtc_tmodule_dim_loop_carried(e->module, rep, NULL, NULL, NULL)) {
        continue;
      }
      uint32_t k = 0;
      while (k < sym_count && syms[k] != grtc_dim_symbol(rep)) ++k;
      if (k < sym_count || sym_count == 64) continue;
      syms[sym_count] = grtc_dim_symbol(rep);
      sym_index[sym_count] = i;
      sym_axis[sym_count++] = d;
    }
  }
  const grtc_type_t* join_types[64 + 64];
  grtc_host_buffer_types(e, op->result_count, join_types);
  for (uint32_t k = 0; k < sym_count; ++k) join_types[op->result_count + k] = grtc_vm_type_i64(e->b);
  grtc_block_t* join = grtc_vm_builder_block(e->b, join_types, op->result_count + sym_count);
  if (op->kind == GRTC_TOP_IF) {
    grtc_vm_cond_br(e->b, selector, blocks[0], NULL, 0, blocks[1], NULL, 0);
  } else {
    // Index i picks region i; anything else (negative or too large) the
    // last region, the default.
    uint32_t tests = op->region_count - 1;
    for (uint32_t i = 0; i < tests; ++i) {
      grtc_value_t* hit = grtc_vm_compare(e->b, GRTC_VM_CMP_EQ, selector, grtc_host_i32(e, i));
      grtc_block_t* next_test = i + 1 < tests ? grtc_host_new_block(e, 0) : NULL;
      grtc_block_t* otherwise = next_test ? next_test : blocks[op->region_count - 1];
      grtc_vm_cond_br(e->b, hit, blocks[i], NULL, 0, otherwise, NULL, 0);
      if (next_test) grtc_host_place_block(e, next_test, NULL, 0);
    }
    if (!tests) grtc_vm_br(e->b, blocks[0], NULL, 0);
  }
  // The symbols a branch derives have values only in it: each branch
  // starts from (and the join gets back) the values known before the op.
  const grtc_tblock_t* outer_branch = e->branch;
  grtc_value_t** known = NULL;
  bool* known_done = NULL;
  grt_status_t status = grt_allocator_malloc(
      e->allocator, (size_t)e->sym_capacity * (sizeof(*known) + sizeof(*known_done)) + 1,
      (void**)&known);
  if (grt_status_is_ok(status)) {
    known_done = (bool*)(known + e->sym_capacity);
    if (e->sym_capacity) {
      memcpy(known, e->sym_values, e->sym_capacity * sizeof(*known));
      memcpy(known_done, e->sym_done, e->sym_capacity * sizeof(*known_done));
    }
  }
  for (uint32_t r = 0; r < op->region_count && grt_status_is_ok(status); ++r) {
    grtc_host_place_block(e, blocks[r], NULL, 0);
    if (e->sym_capacity) {
      memcpy(e->sym_values, known, e->sym_capacity * sizeof(*known));
      memcpy(e->sym_done, known_done, e->sym_capacity * sizeof(*known_done));
    }
    e->branch = op->regions[r];
    if (e->module->shapes) {
      grtc_host_derive_late(e);
      // The reshapes whose extents the branch derives (the function's
      // entry could not check them).
      grtc_host_check_reshapes(e, e->func, op->regions[r], op->regions[r]);
    }
    const grtc_top_t* yield = NULL;
    status = grtc_host_emit_region(e, op, op->regions[r], NULL, &yield);
    if (grt_status_is_ok(status) && yield->operand_count != op->result_count) {
      status = grtc_top_error(e->module, yield, "branch %u yields %u values; expected %u", r,
                              yield->operand_count, op->result_count);
    }
    if (!grt_status_is_ok(status)) break;
    grtc_value_t* args[64 + 64];
    grtc_host_buffer_list(e, yield->operands, op->result_count, args);
    for (uint32_t i = 0; i < op->result_count; ++i) {
      for (uint32_t d = 0; d < op->results[i].type.rank; ++d) {
        if (!grtc_branch_dim_varies(e->module, op, i, d)) continue;
        int64_t rep = grtc_tmodule_resolve_dim(e->module, op->results[i].type.dims[d]);
        int64_t yielded = yield->operands[i]->type.dims[d];
        uint32_t k = 0;
        while (k < sym_count && (grtc_dim_is_static(rep) || syms[k] != grtc_dim_symbol(rep))) {
          ++k;
        }
        // A class an argument gives (or another result dimension of the
        // class): what the branch yields must equal it.
        int64_t expected = k < sym_count && (sym_index[k] != i || sym_axis[k] != d)
                               ? yield->operands[sym_index[k]]->type.dims[sym_axis[k]]
                               : rep;
        if (k < sym_count && sym_index[k] == i && sym_axis[k] == d) continue;
        grtc_value_t* given = grtc_host_dim(e, yielded);
        grtc_value_t* want = grtc_host_dim(e, expected);
        if (!given || !want ||
            grtc_tmodule_resolve_dim(e->module, yielded) ==
                grtc_tmodule_resolve_dim(e->module, expected)) {
          continue;
        }
        char where[128], given_text[256], expected_text[256], message[1024];
        grtc_host_describe_op(op, op->kind, where, sizeof(where));
        snprintf(message, sizeof(message),
                 "@%.*s: %s result %u dimension %u: branch %u yields %s, but the program's "
                 "shapes require %s", GRT_SV_ARG(e->func->name), where, i, d, r,
                 grtc_tmodule_describe_dim(e->module, yielded, given_text, sizeof(given_text)),
                 grtc_tmodule_describe_dim(e->module, expected, expected_text,
                                           sizeof(expected_text)));
        grtc_vm_check(e->b, GRTC_VM_CHECK_EQ, given, want, message);
      }
    }
    for (uint32_t k = 0; k < sym_count; ++k) {
      args[op->result_count + k] =
          grtc_host_dim(e, yield->operands[sym_index[k]]->type.dims[sym_axis[k]]);
      if (!args[op->result_count + k]) {
        status = grtc_top_error(e->module, op, "'%s' branch %u's result %u dimension %u has no "
                                "value in the branch", grtc_top_kind_name(op->kind), r,
                                sym_index[k], sym_axis[k]);
        break;
      }
    }
    if (grt_status_is_ok(status)) grtc_vm_br(e->b, join, args, op->result_count + sym_count);
  }
  e->branch = outer_branch;
  if (known && e->sym_capacity) {
    memcpy(e->sym_values, known, e->sym_capacity * sizeof(*known));
    memcpy(e->sym_done, known_done, e->sym_capacity * sizeof(*known_done));
  }
  grt_allocator_free(e->allocator, known);
  grt_allocator_free(e->allocator, blocks);
  GRT_RETURN_IF_ERROR(status);
  grtc_host_place_block(e, join, op->results, op->result_count);
  for (uint32_t k = 0; join && k < sym_count; ++k) {
    e->sym_values[syms[k]] = &join->args[op->result_count + k];
    grtc_vm_builder_name(e->b, &join->args[op->result_count + k], "s%u", syms[k]);
  }
  // Extents derived from the results'.
  if (sym_count) grtc_host_derive_late(e);
  return grt_ok_status();
}


// "@f: 'stablehlo.while' at 3:8 carried value 1 dimension 0" for messages.
static void grtc_host_describe_carried(grtc_host_emitter_t* e, const grtc_top_t* op, uint32_t i,
                                       uint32_t d, char* buffer, size_t capacity) {
  char where[128];
  grtc_host_describe_op(op, op->kind, where, sizeof(where));
  snprintf(buffer, capacity, "@%.*s: %s carried value %u dimension %u",
           e->func ? (int)e->func->name.size : 1, e->func ? e->func->name.data : "?", where, i,
           d);
}

// A carried extent the loop changes whose class an argument (or a static
// size) gives: what enters or comes back (|given|, dimension |dim|) must
// equal it.
static void grtc_host_check_carried(grtc_host_emitter_t* e, const grtc_top_t* op, uint32_t i,
                                    uint32_t d, const char* what, int64_t dim) {
  int64_t expected = grtc_tmodule_resolve_dim(e->module, op->results[i].type.dims[d]);
  grtc_value_t* expected_value = grtc_host_dim(e, expected);
  grtc_value_t* given = grtc_host_dim(e, dim);
  if (!expected_value || !given ||
      grtc_tmodule_resolve_dim(e->module, dim) == expected) {
    return;
  }
  char carried[256], given_text[256], expected_text[256], message[1024];
  grtc_host_describe_carried(e, op, i, d, carried, sizeof(carried));
  snprintf(message, sizeof(message), "%s: %s %s, but the loop's shapes require %s", carried,
           what, grtc_tmodule_describe_dim(e->module, dim, given_text, sizeof(given_text)),
           grtc_tmodule_describe_dim(e->module, expected, expected_text, sizeof(expected_text)));
  grtc_vm_check(e->b, GRTC_VM_CHECK_EQ, given, expected_value, message);
}

// while: ^cond(carried, extents): cond region; cond_br p, ^body(carried), ^exit(carried)
//        ^body(carried): body region; br ^cond(yielded, their extents)
// A carried dimension the body changes (grtc_while_dim_varies) whose
// class is loop-carried is an i64 argument of ^cond, the value of its
// symbol in the loop and after it; one whose class an argument gives is
// checked equal to it on entry and after each iteration.
static grt_status_t grtc_host_emit_while(grtc_host_emitter_t* e, const grtc_top_t* op) {
  if (op->region_count != 2 || op->regions[0]->arg_count != op->operand_count ||
      op->regions[1]->arg_count != op->operand_count || op->result_count != op->operand_count) {
    return grtc_top_error(e->module, op, "'stablehlo.while' has an unexpected form");
  }
  grtc_host_flush(e);
  uint32_t n = op->operand_count;
  // The loop-carried classes: one i64 argument of ^cond each, given by the
  // first carried dimension of the class (carried_index/axis).
  uint32_t carried_syms[64], carried_index[64], carried_axis[64], carried_count = 0;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t d = 0; d < op->results[i].type.rank; ++d) {
      if (!grtc_while_dim_varies(e->module, op, i, d)) continue;
      int64_t rep = grtc_tmodule_resolve_dim(e->module, op->results[i].type.dims[d]);
      if (grtc_dim_is_static(rep) || !grtc_tmodule_dim_loop_carried(e->module, rep, NULL, NULL,
                                                                      NULL)) {
        grtc_host_check_carried(e, op, i, d, "the loop is entered with",
                                op->operands[i]->type.dims[d]);
        continue;
      }
      uint32_t k = 0;
      while (k < carried_count && carried_syms[k] != grtc_dim_symbol(rep)) ++k;
      if (k < carried_count) continue;
      if (carried_count == 64) {
        return grtc_top_error(e->module, op, "'stablehlo.while' changes more than 64 extents");
      }
      carried_syms[carried_count] = grtc_dim_symbol(rep);
      carried_index[carried_count] = i;
      carried_axis[carried_count++] = d;
    }
  }
  const grtc_type_t* types[64 + 64];
  if (n > 64) return grtc_top_error(e->module, op, "'stablehlo.while' carries over 64 values");
  grtc_host_buffer_types(e, n, types);
  for (uint32_t k = 0; k < carried_count; ++k) types[n + k] = grtc_vm_type_i64(e->b);
  // An operand whose extent is the one the loop changes (the relations
  // joined an unchanged carried value to a changing one) has no value
  // before the loop.
  // (The value that keeps its size is named first.)
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t d = 0; d < op->operands[i]->type.rank; ++d) {
        if (grtc_while_dim_varies(e->module, op, i, d) != (pass == 1)) continue;
        int64_t dim = grtc_tmodule_resolve_dim(e->module, op->operands[i]->type.dims[d]);
        for (uint32_t k = 0; !grtc_dim_is_static(dim) && k < carried_count; ++k) {
          if (carried_syms[k] != grtc_dim_symbol(dim)) continue;
          return grtc_top_error(e->module, op,
                                "'stablehlo.while' operand %u dimension %u enters the loop with "
                                "the extent the loop changes in carried value %u dimension %u "
                                "(the program's shapes join them); a carried value that shares "
                                "the extent of one the body resizes is not supported yet",
                                i, d, carried_index[k], carried_axis[k]);
        }
      }
    }
  }
  grtc_block_t* cond = grtc_vm_builder_block(e->b, types, n + carried_count);
  grtc_block_t* body = grtc_host_new_block(e, n);
  grtc_block_t* exit = grtc_host_new_block(e, n);
  grtc_value_t* entry_args[64 + 64];
  grtc_host_buffer_list(e, op->operands, n, entry_args);
  for (uint32_t k = 0; k < carried_count; ++k) {
    entry_args[n + k] =
        grtc_host_dim(e, op->operands[carried_index[k]]->type.dims[carried_axis[k]]);
    if (!entry_args[n + k]) {
      return grtc_top_error(e->module, op, "'stablehlo.while' operand %u dimension %u has no "
                            "value before the loop", carried_index[k], carried_axis[k]);
    }
  }
  grtc_vm_br(e->b, cond, entry_args, n + carried_count);
  const grtc_tblock_t* cond_region = op->regions[0];
  grtc_host_place_block(e, cond, cond_region->args, cond_region->arg_count);
  for (uint32_t k = 0; cond && k < carried_count; ++k) {
    e->sym_values[carried_syms[k]] = &cond->args[n + k];
    grtc_vm_builder_name(e->b, &cond->args[n + k], "s%u", carried_syms[k]);
  }
  // The extents the loop's ops derive from the carried ones, once per
  // iteration (the header dominates the body and the exit).
  grtc_host_derive_late(e);
  const grtc_top_t* yield = NULL;
  GRT_RETURN_IF_ERROR(grtc_host_emit_region(e, op, cond_region, NULL, &yield));
  if (yield->operand_count != 1) {
    return grtc_top_error(e->module, yield, "while condition yields %u values; expected 1",
                          yield->operand_count);
  }
  grtc_value_t* predicate = grtc_host_load_scalar(e, yield->operands[0]);
  grtc_host_scratch_t carried;
  GRT_RETURN_IF_ERROR(grtc_host_scratch(e, n, &carried));
  for (uint32_t i = 0; i < n; ++i) {
    carried.values[i] = grtc_host_buffer_of(e, &cond_region->args[i]);
  }
  grtc_vm_cond_br(e->b, predicate, body, carried.values, n, exit, carried.values, n);
  grtc_host_scratch_free(e, &carried);
  grtc_host_place_block(e, body, op->regions[1]->args, op->regions[1]->arg_count);
  GRT_RETURN_IF_ERROR(grtc_host_emit_region(e, op, op->regions[1], NULL, &yield));
  if (yield->operand_count != n) {
    return grtc_top_error(e->module, yield, "while body yields %u values; expected %u",
                          yield->operand_count, n);
  }
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t d = 0; d < op->results[i].type.rank; ++d) {
      bool varies = grtc_while_dim_varies(e->module, op, i, d);
      int64_t rep = grtc_tmodule_resolve_dim(e->module, op->results[i].type.dims[d]);
      int64_t yielded = yield->operands[i]->type.dims[d];
      uint32_t k = 0;
      while (k < carried_count &&
             (grtc_dim_is_static(rep) || carried_syms[k] != grtc_dim_symbol(rep))) {
        ++k;
      }
      if (k == carried_count) {
        if (varies) grtc_host_check_carried(e, op, i, d, "the body yields", yielded);
      } else if (carried_index[k] != i || carried_axis[k] != d) {
        // Another dimension of the class: it must come back as the first.
        char carried_text[256], given[256], expected[256], message[1024];
        grtc_host_describe_carried(e, op, i, d, carried_text, sizeof(carried_text));
        int64_t first = yield->operands[carried_index[k]]->type.dims[carried_axis[k]];
        grtc_value_t* a = grtc_host_dim(e, yielded);
        grtc_value_t* b = grtc_host_dim(e, first);
        if (!a || !b || grtc_tmodule_resolve_dim(e->module, yielded) ==
                            grtc_tmodule_resolve_dim(e->module, first)) {
          continue;
        }
        snprintf(message, sizeof(message),
                 "%s: the body yields %s, but carried value %u dimension %u, of the same "
                 "extent, comes back as %s", carried_text,
                 grtc_tmodule_describe_dim(e->module, yielded, given, sizeof(given)),
                 carried_index[k], carried_axis[k],
                 grtc_tmodule_describe_dim(e->module, first, expected, sizeof(expected)));
        grtc_vm_check(e->b, GRTC_VM_CHECK_EQ, a, b, message);
      }
    }
  }
  grtc_value_t* back_args[64 + 64];
  grtc_host_buffer_list(e, yield->operands, n, back_args);
  for (uint32_t k = 0; k < carried_count; ++k) {
    back_args[n + k] =
        grtc_host_dim(e, yield->operands[carried_index[k]]->type.dims[carried_axis[k]]);
    if (!back_args[n + k]) {
      return grtc_top_error(e->module, op, "'stablehlo.while' body's yielded value %u "
                            "dimension %u has no value in the body", carried_index[k],
                            carried_axis[k]);
    }
  }
  grtc_vm_br(e->b, cond, back_args, n + carried_count);
  grtc_host_place_block(e, exit, op->results, op->result_count);
  // Extents derived from the loop's results.
  grtc_host_derive_late(e);
  return grt_ok_status();
}

static grt_status_t grtc_host_emit_return(grtc_host_emitter_t* e, const grtc_top_t* op) {
  grtc_host_flush(e);
  uint32_t syms[64];
  uint32_t sym_count = e->func ? grtc_host_result_symbols(e, e->func, syms) : 0;
  grtc_host_scratch_t values;
  GRT_RETURN_IF_ERROR(grtc_host_scratch(e, op->operand_count + sym_count, &values));
  grtc_host_buffer_list(e, op->operands, op->operand_count, values.values);
  // The results' extents a while loop computed (grtc_host_result_symbols).
  for (uint32_t k = 0; k < sym_count; ++k) {
    values.values[op->operand_count + k] = grtc_host_symbol(e, syms[k]);
    if (!values.values[op->operand_count + k]) {
      grtc_host_scratch_free(e, &values);
      char text[256];
      return grtc_top_error(e->module, op, "return: its extent %s has no value here",
                            grtc_tmodule_describe_dim(e->module, GRTC_DIM_SYMBOL(syms[k]), text,
                                                      sizeof(text)));
    }
  }
  grtc_vm_return(e->b, values.values, op->operand_count + sym_count);
  grtc_host_scratch_free(e, &values);
  return grt_ok_status();
}

static grt_status_t grtc_host_emit_op(grtc_host_emitter_t* e, const grtc_top_t* op) {
  grtc_host_set_location(e, op->location, op->line, op->column);
  switch (op->kind) {
    case GRTC_TOP_CONSTANT: {
      uint32_t id = op->results[0].id;
      e->values[id] = grtc_vm_global_load(e->b, e->constant_globals[e->constant_ids[id]]);
      grtc_vm_builder_name(e->b, e->values[id], "v%u", id);
      return grt_ok_status();
    }
    case GRTC_TOP_RESHAPE: {
      grtc_size_expr_t from, to;
      // Monomials that differ (a merged or split symbolic dimension, a
      // static size viewed as extents read from data) are checked equal at
      // the call (grtc_host_check_reshapes).
      if (op->operand_count != 1 ||
          !grtc_size_expr_of_type(e->module, &op->operands[0]->type, &from) ||
          !grtc_size_expr_of_type(e->module, &op->results[0].type, &to) ||
          (!grtc_host_same_expr(&from, &to) &&
           ((!from.symbol_count && !to.symbol_count) ||
            (int64_t)grtc_elem_byte_size(op->operands[0]->type.elem) !=
                (int64_t)grtc_elem_byte_size(op->results[0].type.elem)))) {
        return grtc_top_error(e->module, op, "reshape changes the byte size");
      }
      return grt_ok_status();  // a view: the plan maps it to its operand
    }
    case GRTC_TOP_DISPATCH:
      return grtc_host_emit_dispatch(e, op);
    case GRTC_TOP_GLOBAL_LOAD:
    case GRTC_TOP_GLOBAL_STORE:
      return grtc_host_emit_global(e, op);
    case GRTC_TOP_CHECK_EQ:
    case GRTC_TOP_CHECK_ALMOST_EQ:
    case GRTC_TOP_CHECK_CLOSE:
    case GRTC_TOP_CHECK_TRUE:
    case GRTC_TOP_CHECK_FALSE:
      return grtc_host_emit_check(e, op);
    case GRTC_TOP_SHAPE_ASSERTION:
      return grtc_host_emit_shape_assertion(e, op);
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
                            "leaves only constants, reshapes, dispatches, global loads and "
                            "stores, calls, control flow and checks)",
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

// Starts building the body of |function| (its entry block |entry|).
static void grtc_host_begin_function(grtc_host_emitter_t* e, grtc_operation_t* function,
                                     grtc_block_t* entry) {
  e->function = function;
  e->entry = entry;
  e->const_anchor = NULL;
  e->const_count = 0;
  e->recording = false;
  e->range_count = 0;
  e->cb = NULL;
  e->arena = NULL;
  e->indirect = NULL;
  e->size_count = 0;
  e->sexpr_count = 0;
  e->hoist = false;
  e->branch = NULL;
  if (e->sym_values) memset(e->sym_values, 0, e->sym_capacity * sizeof(*e->sym_values));
  if (e->sym_done) memset(e->sym_done, 0, e->sym_capacity * sizeof(*e->sym_done));
  if (entry) grtc_vm_builder_set_insertion_end(e->b, entry);
}

// Whether symbol |id| of |func| is derived: a concatenate's or pad's
// result dimension, which the host program computes from its operands'
// dimensions by the op's shape rule.
static bool grtc_host_is_derived(const grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                 uint32_t id) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  if (!shapes || id >= shapes->sym_count) return false;
  const grtc_tsym_t* sym = &shapes->syms[id];
  if (sym->func == func && sym->origin == GRTC_SYM_RESULT && sym->op && sym->expr) return true;
  return sym->func == func && sym->origin == GRTC_SYM_RESULT && sym->op && sym->index == 0 &&
         ((sym->op->kind == GRTC_TOP_CONCATENATE && sym->op->attrs.dim == (int64_t)sym->axis) ||
          sym->op->kind == GRTC_TOP_PAD) &&
         sym->op->operand_count > 0 && sym->axis < sym->op->operands[0]->type.rank;
}

// Whether symbol |symbol| (a representative) is one the function takes
// (read from its arguments) or derives (itself, or a declared result's
// class holding a derived symbol).
static bool grtc_host_takes_symbol(const grtc_host_emitter_t* e, uint32_t symbol) {
  for (uint32_t k = 0; k < e->func_sym_count; ++k) {
    if (e->func_syms[k] == symbol) return true;
  }
  if (!e->func) return false;
  // A while loop's carried extent that changes (the loop's header block
  // takes it: grtc_host_emit_while), or a call's result such a loop
  // computes (the call returns it).
  if (grtc_tmodule_dim_varies(e->module, GRTC_DIM_SYMBOL(symbol))) return true;
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t id = symbol; shapes && id < shapes->sym_count; ++id) {
    if (grtc_host_is_derived(e, e->func, id) &&
        grtc_tmodule_resolve_dim(e->module, GRTC_DIM_SYMBOL(id)) == GRTC_DIM_SYMBOL(symbol)) {
      return true;
    }
  }
  return false;
}

// Whether |symbol| is one of the function's argument symbols.
static bool grtc_host_takes_argument_symbol(const grtc_host_emitter_t* e, uint32_t symbol) {
  for (uint32_t k = 0; k < e->func_sym_count; ++k) {
    if (e->func_syms[k] == symbol) return true;
  }
  return false;
}

// Shape arithmetic at the call (a computed extent's expression, an element
// count, a padded size) never wraps: values stay within +-INT64_MAX (never
// INT64_MIN, so |x| and -x are exact), and an operation whose operands'
// compile-time bounds (|x| <= bound: INT32_MAX-sized symbols, constants)
// do not prove its result within them is checked first, failing the call
// with |message| instead. GRTC_HOST_ARITH_SAFE is a bound below INT64_MAX
// with room for the doubles' rounding; |exempt| (may be NULL) is an i32
// value that lets the check pass (an element count with a zero dimension,
// whose wrapped product is still exactly 0).
#define GRTC_HOST_ARITH_SAFE 4.0e18
#define GRTC_HOST_SYMBOL_BOUND 4294967296.0  // a symbol's value, with margin

static double grtc_host_abs_bound(int64_t v) { return v < 0 ? -(double)v : (double)v; }

static grtc_value_t* grtc_host_abs(grtc_host_emitter_t* e, grtc_value_t* x) {
  return grtc_vm_binary(e->b, GRTC_VM_MAX_S, x,
                        grtc_vm_binary(e->b, GRTC_VM_SUB, grtc_host_i64(e, 0), x));
}

static void grtc_host_check_arith(grtc_host_emitter_t* e, grtc_value_t* ok, grtc_value_t* exempt,
                                  const char* message) {
  grtc_vm_check_nz(e->b, exempt ? grtc_vm_binary(e->b, GRTC_VM_OR, ok, exempt) : ok, message);
}

// a * b; *bound: the result's bound.
static grtc_value_t* grtc_host_checked_mul(grtc_host_emitter_t* e, grtc_value_t* a,
                                           double a_bound, grtc_value_t* b, double b_bound,
                                           grtc_value_t* exempt, const char* message,
                                           double* bound) {
  *bound = a_bound * b_bound;
  if (*bound > GRTC_HOST_ARITH_SAFE) {
    // |a| <= INT64_MAX / max(|b|, 1).
    grtc_value_t* limit = grtc_vm_binary(
        e->b, GRTC_VM_DIV_S, grtc_host_i64(e, INT64_MAX),
        grtc_vm_binary(e->b, GRTC_VM_MAX_S, grtc_host_abs(e, b), grtc_host_i64(e, 1)));
    grtc_host_check_arith(
        e, grtc_vm_compare(e->b, GRTC_VM_CMP_LTE_S, grtc_host_abs(e, a), limit), exempt,
        message);
    *bound = (double)INT64_MAX;
  }
  return grtc_vm_binary(e->b, GRTC_VM_MUL, a, b);
}

// a + b (a - b with |negate|: a + (-b), exact by the invariant).
static grtc_value_t* grtc_host_checked_add(grtc_host_emitter_t* e, grtc_value_t* a,
                                           double a_bound, grtc_value_t* b, double b_bound,
                                           bool negate, const char* message, double* bound) {
  if (negate) b = grtc_vm_binary(e->b, GRTC_VM_SUB, grtc_host_i64(e, 0), b);
  *bound = a_bound + b_bound;
  if (*bound > GRTC_HOST_ARITH_SAFE) {
    // -INT64_MAX - min(b, 0) <= a <= INT64_MAX - max(b, 0).
    grtc_value_t* zero = grtc_host_i64(e, 0);
    grtc_value_t* high = grtc_vm_binary(e->b, GRTC_VM_SUB, grtc_host_i64(e, INT64_MAX),
                                        grtc_vm_binary(e->b, GRTC_VM_MAX_S, b, zero));
    grtc_value_t* low = grtc_vm_binary(e->b, GRTC_VM_SUB, grtc_host_i64(e, -INT64_MAX),
                                       grtc_vm_binary(e->b, GRTC_VM_MIN_S, b, zero));
    grtc_value_t* ok = grtc_vm_binary(e->b, GRTC_VM_AND,
                                      grtc_vm_compare(e->b, GRTC_VM_CMP_LTE_S, a, high),
                                      grtc_vm_compare(e->b, GRTC_VM_CMP_GTE_S, a, low));
    grtc_host_check_arith(e, ok, NULL, message);
    *bound = (double)INT64_MAX;
  }
  return grtc_vm_binary(e->b, GRTC_VM_ADD, a, b);
}

// Element expr->value of expr->data (GRTC_SEXPR_DATA: a function
// argument of i32 or i64, its buffer e->values[id]) as an i64, read from
// the buffer at the call; its bound is the element type's range.
static grtc_value_t* grtc_host_load_shape_element(grtc_host_emitter_t* e,
                                                  const grtc_sexpr_t* expr, double* bound) {
  grtc_value_t* buffer = expr->data ? e->values[expr->data->id] : NULL;
  if (!buffer) return NULL;
  bool wide = expr->data->type.elem == GRTC_ELEM_I64;
  int64_t offset = expr->value * (wide ? 8 : 4);
  grtc_value_t* low = GRTC_HOST_CALL(e, BUFFER_LOAD, GRTC_HOST_V(buffer),
                                     GRTC_HOST_V(grtc_host_i64(e, offset)),
                                     GRTC_HOST_V(grtc_host_i32(e, 4)));
  if (!wide) {
    *bound = 2147483648.0;
    return grtc_vm_ext_i32_i64(e->b, low, true);
  }
  // Little-endian: the high half's sign-extended value times 2^32, or-ed
  // with the low half zero-extended.
  grtc_value_t* high = GRTC_HOST_CALL(e, BUFFER_LOAD, GRTC_HOST_V(buffer),
                                      GRTC_HOST_V(grtc_host_i64(e, offset + 4)),
                                      GRTC_HOST_V(grtc_host_i32(e, 4)));
  *bound = 9223372036854775807.0;
  return grtc_vm_binary(e->b, GRTC_VM_OR,
                        grtc_vm_binary(e->b, GRTC_VM_MUL, grtc_vm_ext_i32_i64(e->b, high, true),
                                       grtc_host_i64(e, INT64_C(1) << 32)),
                        grtc_vm_ext_i32_i64(e->b, low, false));
}

// Whether |a| and |b| compute the same value here: the same operations on
// equal constants, the same symbols' values, equal static extents and the
// same elements of the same argument buffers.
static bool grtc_host_same_sexpr(grtc_host_emitter_t* e, const grtc_sexpr_t* a,
                                 const grtc_sexpr_t* b, int depth) {
  if (!a || !b || depth > 64 || a->kind != b->kind) return false;
  switch (a->kind) {
    case GRTC_SEXPR_CONST:
      return a->value == b->value;
    case GRTC_SEXPR_DIM: {
      int64_t da = grtc_tmodule_resolve_dim(e->module, a->value);
      int64_t db = grtc_tmodule_resolve_dim(e->module, b->value);
      if (grtc_dim_is_static(da) || grtc_dim_is_static(db)) return da == db;
      grtc_value_t* value = grtc_host_symbol(e, grtc_dim_symbol(da));
      return value && value == grtc_host_symbol(e, grtc_dim_symbol(db));
    }
    case GRTC_SEXPR_DATA:
      return a->value == b->value && a->data && b->data &&
             a->data->type.elem == b->data->type.elem && e->values[a->data->id] &&
             e->values[a->data->id] == e->values[b->data->id];
    default:
      return grtc_host_same_sexpr(e, a->lhs, b->lhs, depth + 1) &&
             grtc_host_same_sexpr(e, a->rhs, b->rhs, depth + 1);
  }
}

// The number of levels below |expr| (0: a leaf), at most |limit| + 1.
static int grtc_host_sexpr_height(const grtc_sexpr_t* expr, int limit) {
  if (!expr || limit < 0 || expr->kind == GRTC_SEXPR_CONST || expr->kind == GRTC_SEXPR_DIM ||
      expr->kind == GRTC_SEXPR_DATA) {
    return 0;
  }
  int lhs = grtc_host_sexpr_height(expr->lhs, limit - 1);
  int rhs = grtc_host_sexpr_height(expr->rhs, limit - 1);
  return 1 + (lhs > rhs ? lhs : rhs);
}

static grtc_value_t* grtc_host_sexpr_compute(grtc_host_emitter_t* e, const grtc_sexpr_t* expr,
                                             const char* what, int depth, double* bound);

// |expr| (a computed extent's arithmetic) as an i64 value and its bound; a
// division or remainder by zero, and arithmetic beyond i64, fail the call,
// naming |what|. A subexpression equal to one computed already at this
// insertion point (grtc_host_sexpr_value_t) is that one's value: its
// checks ran there, with the same outcome, before any check of this one.
static grtc_value_t* grtc_host_sexpr(grtc_host_emitter_t* e, const grtc_sexpr_t* expr,
                                     const char* what, int depth, double* bound) {
  if (!expr || depth > 64) return NULL;
  if (expr->kind == GRTC_SEXPR_CONST || expr->kind == GRTC_SEXPR_DIM) {
    return grtc_host_sexpr_compute(e, expr, what, depth, bound);
  }
  grtc_vm_insertion_t at = grtc_vm_builder_insertion(e->b);
  for (uint32_t i = 0; i < e->sexpr_count; ++i) {
    const grtc_host_sexpr_value_t* known = &e->sexprs[i];
    if (known->at.block != at.block || known->at.before != at.before ||
        !grtc_host_same_sexpr(e, known->expr, expr, 0)) {
      continue;
    }
    // As deep as computing it would go (beyond 64 levels fails).
    if (depth + grtc_host_sexpr_height(expr, 64 - depth) > 64) return NULL;
    *bound = known->bound;
    return known->value;
  }
  grtc_value_t* value = grtc_host_sexpr_compute(e, expr, what, depth, bound);
  if (value && grtc_host_grow(e, (void**)&e->sexprs, &e->sexpr_capacity, e->sexpr_count,
                              sizeof(*e->sexprs), 16)) {
    e->sexprs[e->sexpr_count++] = (grtc_host_sexpr_value_t){expr, at, value, *bound};
  }
  return value;
}

static grtc_value_t* grtc_host_sexpr_compute(grtc_host_emitter_t* e, const grtc_sexpr_t* expr,
                                             const char* what, int depth, double* bound) {
  char message[512];
  snprintf(message, sizeof(message),
           "%s: its shape operand's arithmetic overflows 64-bit integers at these argument "
           "sizes", what);
  switch (expr->kind) {
    case GRTC_SEXPR_CONST: {
      grtc_value_t* value = grtc_host_i64(e, expr->value);
      *bound = grtc_host_abs_bound(expr->value);
      if (expr->value == INT64_MIN) {
        grtc_host_check_arith(e, grtc_vm_compare(e->b, GRTC_VM_CMP_NE, value, value), NULL,
                              message);
      }
      return value;
    }
    case GRTC_SEXPR_DIM: {
      int64_t dim = grtc_tmodule_resolve_dim(e->module, expr->value);
      *bound = grtc_dim_is_static(dim) ? grtc_host_abs_bound(dim) : GRTC_HOST_SYMBOL_BOUND;
      return grtc_host_dim(e, expr->value);
    }
    case GRTC_SEXPR_DATA:
      return grtc_host_load_shape_element(e, expr, bound);
    default:
      break;
  }
  double lhs_bound = 0, rhs_bound = 0;
  grtc_value_t* lhs = grtc_host_sexpr(e, expr->lhs, what, depth + 1, &lhs_bound);
  grtc_value_t* rhs = grtc_host_sexpr(e, expr->rhs, what, depth + 1, &rhs_bound);
  if (!lhs || !rhs) return NULL;
  switch (expr->kind) {
    case GRTC_SEXPR_ADD:
    case GRTC_SEXPR_SUB:
      return grtc_host_checked_add(e, lhs, lhs_bound, rhs, rhs_bound,
                                   expr->kind == GRTC_SEXPR_SUB, message, bound);
    case GRTC_SEXPR_MUL:
      return grtc_host_checked_mul(e, lhs, lhs_bound, rhs, rhs_bound, NULL, message, bound);
    case GRTC_SEXPR_DIV:
    case GRTC_SEXPR_REM: {
      // |a / b| <= |a| and |a % b| <= min(|a|, |b|): no INT64_MIN / -1.
      snprintf(message, sizeof(message), "%s: its shape operand divides by zero", what);
      grtc_vm_check_nz(e->b, rhs, message);
      *bound = expr->kind == GRTC_SEXPR_DIV || lhs_bound < rhs_bound ? lhs_bound : rhs_bound;
      return grtc_vm_binary(e->b, expr->kind == GRTC_SEXPR_DIV ? GRTC_VM_DIV_S : GRTC_VM_REM_S,
                            lhs, rhs);
    }
    case GRTC_SEXPR_MAX:
    case GRTC_SEXPR_MIN:
      *bound = lhs_bound > rhs_bound ? lhs_bound : rhs_bound;
      return grtc_vm_binary(e->b, expr->kind == GRTC_SEXPR_MAX ? GRTC_VM_MAX_S : GRTC_VM_MIN_S,
                            lhs, rhs);
    default:
      return NULL;
  }
}

// Computed extent |id| (its symbol has an expression: a dynamic op's shape
// operand element, a real_dynamic_slice's size), checked non-negative and,
// for a slice, its limit between its start and the operand's dimension.
static grtc_value_t* grtc_host_computed_extent(grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                               uint32_t id) {
  const grtc_tsym_t* sym = &e->module->shapes->syms[id];
  const grtc_top_t* op = sym->op;
  char where[128], text[256], what[512], message[768];
  grtc_host_describe_op(op, sym->expr_op_kind, where, sizeof(where));
  snprintf(text, sizeof(text), "s%u", id);
  bool padding = op->kind == GRTC_TOP_PAD &&
                 (sym->index == GRTC_SYM_PAD_LOW || sym->index == GRTC_SYM_PAD_INTERIOR);
  if (padding) {
    // A dynamic_pad's computed low or interior padding: the kernels take
    // it as an extent, which must not be negative.
    snprintf(what, sizeof(what), "@%.*s: %s element %u of %s (%s, computed from its operand)",
             GRT_SV_ARG(func->name),
             sym->index == GRTC_SYM_PAD_LOW ? "edge_padding_low" : "interior_padding",
             sym->axis, where, text);
  } else {
    snprintf(what, sizeof(what), "@%.*s: result dimension %u of %s (%s, computed from its "
             "shape operand)", GRT_SV_ARG(func->name), sym->axis, where, text);
  }
  double bound = 0;
  grtc_value_t* value = grtc_host_sexpr(e, sym->expr, what, 0, &bound);
  if (!value) return NULL;
  grtc_value_t* non_negative =
      grtc_vm_compare(e->b, GRTC_VM_CMP_GTE_S, value, grtc_host_i64(e, 0));
  if (grtc_sexpr_reads_data(sym->expr)) {
    // Read from tensor data: the message quotes the size it got (a
    // dynamic_pad's low padding too: the kernels' extents are unsigned, so
    // a computed one cannot crop).
    const grtc_tvalue_t* argument = grtc_sexpr_data_argument(sym->expr);
    char source[64] = "";
    if (argument) snprintf(source, sizeof(source), " (argument %u's data)", argument->index);
    snprintf(message, sizeof(message),
             padding ? "%s is negative: expected a padding of at least 0 (read from its "
                       "operand's data%s), got {0}%s"
                     : "%s is negative: expected a size of at least 0 (read from its shape "
                       "operand's data%s), got {0}%s",
             what,
             padding && sym->index == GRTC_SYM_PAD_LOW ? "; a computed low padding does not crop"
                                                        : "",
             source);
    GRTC_HOST_CALL(e, SHAPE_ASSERTION, GRTC_HOST_V(non_negative),
                   GRTC_HOST_V(grtc_host_message(e, message)), grtc_vm_span(&value, 1));
  } else {
    snprintf(message, sizeof(message), "%s is negative", what);
    grtc_vm_check_nz(e->b, non_negative, message);
  }
  // A dynamic_broadcast_in_dim (now a broadcast_in_dim) whose result
  // dimension is read from data: the operand dimension broadcast to it
  // must equal it (a static 1 broadcasts; the kernels do not broadcast a
  // symbolic dimension that is 1 at the call), as the spec asks.
  if (sym->expr_op_kind == GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM &&
      op->kind == GRTC_TOP_BROADCAST_IN_DIM && op->operand_count == 1 &&
      grtc_sexpr_reads_data(sym->expr)) {
    const grtc_ttype_t* in = &op->operands[0]->type;
    for (uint32_t i = 0; i < in->rank && i < op->attrs.dims.count; ++i) {
      int64_t from = grtc_tmodule_resolve_dim(e->module, in->dims[i]);
      if (op->attrs.dims.values[i] != (int64_t)sym->axis || from == 1) continue;
      grtc_value_t* sizes[2] = {value, grtc_host_dim(e, from)};
      if (!sizes[1]) return NULL;
      const grtc_tvalue_t* argument = grtc_sexpr_data_argument(sym->expr);
      snprintf(message, sizeof(message),
               "%s must equal dimension %u of its operand %s, which it broadcasts (only a "
               "static 1 may differ): expected {1}, got {0} (argument %u's data)",
               what, i, grtc_ttype_format(in, text, sizeof(text)),
               argument ? argument->index : 0);
      GRTC_HOST_CALL(e, SHAPE_ASSERTION,
                     GRTC_HOST_V(grtc_vm_compare(e->b, GRTC_VM_CMP_EQ, sizes[0], sizes[1])),
                     GRTC_HOST_V(grtc_host_message(e, message)), grtc_vm_span(sizes, 2));
    }
  }
  // A real_dynamic_slice (grtc_prepare_dynamic_slice made its size
  // (limit - start + stride - 1) / stride): start <= limit <= the
  // operand's dimension, as the spec asks of its operands.
  const grtc_sexpr_t* size_expr = sym->expr;
  if (sym->expr_op_kind == GRTC_TOP_REAL_DYNAMIC_SLICE && op->kind == GRTC_TOP_SLICE &&
      op->operand_count == 1 && sym->axis < op->attrs.start.count &&
      size_expr->kind == GRTC_SEXPR_DIV && size_expr->lhs->kind == GRTC_SEXPR_ADD &&
      size_expr->lhs->lhs->kind == GRTC_SEXPR_SUB) {
    int64_t start = op->attrs.start.values[sym->axis];
    grtc_value_t* limit = grtc_host_sexpr(e, size_expr->lhs->lhs->lhs, what, 0, &bound);
    grtc_value_t* size = grtc_host_dim(e, op->operands[0]->type.dims[sym->axis]);
    if (!limit || !size) return NULL;
    grtc_value_t* inside = grtc_vm_binary(
        e->b, GRTC_VM_AND,
        grtc_vm_compare(e->b, GRTC_VM_CMP_LTE_S, grtc_host_i64(e, start), limit),
        grtc_vm_compare(e->b, GRTC_VM_CMP_LTE_S, limit, size));
    if (grtc_sexpr_reads_data(size_expr->lhs->lhs->lhs)) {
      // Read from tensor data: the message quotes the limit and the size.
      grtc_value_t* quoted[2] = {limit, size};
      snprintf(message, sizeof(message),
               "%s: its limit (read from its operand's data) must lie between its start %lld "
               "and dimension %u of the operand: expected %lld to {1}, got {0}",
               what, (long long)start, sym->axis, (long long)start);
      GRTC_HOST_CALL(e, SHAPE_ASSERTION, GRTC_HOST_V(inside),
                     GRTC_HOST_V(grtc_host_message(e, message)), grtc_vm_span(quoted, 2));
    } else {
      snprintf(message, sizeof(message),
               "%s: its limit must lie between its start %lld and dimension %u of the operand",
               what, (long long)start, sym->axis);
      grtc_vm_check_nz(e->b, inside, message);
    }
  }
  return value;
}

// The element count of |type| as an i64 value (its symbols' values and
// static sizes multiplied); NULL when a symbol has no value here. A
// product beyond i64 fails the call with |message| (unless a dimension is
// 0: the wrapped product is then exactly 0).
static grtc_value_t* grtc_host_element_count(grtc_host_emitter_t* e, const grtc_ttype_t* type,
                                             const char* message) {
  double total = 1;
  grtc_value_t* sizes[GRTC_MAX_RANK];
  double bounds[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < type->rank; ++d) {
    int64_t dim = grtc_tmodule_resolve_dim(e->module, type->dims[d]);
    sizes[d] = grtc_host_dim(e, dim);
    if (!sizes[d]) return NULL;
    bounds[d] = grtc_dim_is_static(dim) ? grtc_host_abs_bound(dim) : GRTC_HOST_SYMBOL_BOUND;
    total *= bounds[d];
  }
  grtc_value_t* empty = NULL;
  for (uint32_t d = 0; total > GRTC_HOST_ARITH_SAFE && d < type->rank; ++d) {
    grtc_value_t* zero = grtc_vm_compare(e->b, GRTC_VM_CMP_EQ, sizes[d], grtc_host_i64(e, 0));
    empty = empty ? grtc_vm_binary(e->b, GRTC_VM_OR, empty, zero) : zero;
  }
  grtc_value_t* count = grtc_host_i64(e, 1);
  double bound = 1;
  for (uint32_t d = 0; d < type->rank; ++d) {
    count = grtc_host_checked_mul(e, count, bound, sizes[d], bounds[d], empty, message, &bound);
  }
  return count;
}

// Whether a symbolic dimension of |type| is in the class of a symbol
// derived at the start of if/case branch |branch| (grtc_tsym_t.branch).
static bool grtc_host_derived_in(const grtc_host_emitter_t* e, const grtc_ttype_t* type,
                                 const grtc_tblock_t* branch) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t d = 0; shapes && d < type->rank; ++d) {
    int64_t dim = grtc_tmodule_resolve_dim(e->module, type->dims[d]);
    if (grtc_dim_is_static(dim)) continue;
    for (uint32_t id = 0; id < shapes->sym_count; ++id) {
      if (shapes->syms[id].branch == branch &&
          grtc_tmodule_resolve_dim(e->module, GRTC_DIM_SYMBOL(id)) == dim) {
        return true;
      }
    }
  }
  return false;
}

// Every reshape in |block| (and its regions, dispatch regions included;
// with |branch|, only those whose extents that branch derives)
// whose operand and result sizes are different monomials merges or splits
// a symbolic dimension (a dynamic_reshape whose result extent is computed:
// ?x4 -> ? of 4 * s0, ? -> ?x4 of s0 / 4): the call checks that both hold
// as many elements, as the spec asks of its shape operand, before any
// kernel reads the reshaped value (the kernels index it with the extents).
static void grtc_host_check_reshapes(grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                     const grtc_tblock_t* block, const grtc_tblock_t* branch) {
  for (const grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t r = 0; r < op->region_count; ++r) {
      grtc_host_check_reshapes(e, func, op->regions[r], branch);
    }
    grtc_size_expr_t from, to;
    if (op->kind != GRTC_TOP_RESHAPE || op->operand_count != 1 || op->result_count != 1 ||
        (branch && !grtc_host_derived_in(e, &op->results[0].type, branch) &&
         !grtc_host_derived_in(e, &op->operands[0]->type, branch)) ||
        !grtc_size_expr_of_type(e->module, &op->operands[0]->type, &from) ||
        !grtc_size_expr_of_type(e->module, &op->results[0].type, &to) ||
        grtc_host_same_expr(&from, &to)) {
      continue;
    }
    uint32_t line, column;
    grtc_host_op_position(op, &line, &column);
    char in_text[96], out_text[96], message[512];
    grtc_ttype_format(&op->results[0].type, out_text, sizeof(out_text));
    grtc_ttype_format(&op->operands[0]->type, in_text, sizeof(in_text));
    snprintf(message, sizeof(message),
             "@%.*s: 'stablehlo.dynamic_reshape' at %u:%u: the element count of its operand %s "
             "overflows 64-bit integers at these argument sizes",
             GRT_SV_ARG(func->name), line, column, in_text);
    grtc_value_t* in = grtc_host_element_count(e, &op->operands[0]->type, message);
    snprintf(message, sizeof(message),
             "@%.*s: 'stablehlo.dynamic_reshape' at %u:%u: the element count of its result %s "
             "overflows 64-bit integers at these argument sizes",
             GRT_SV_ARG(func->name), line, column, out_text);
    grtc_value_t* out = grtc_host_element_count(e, &op->results[0].type, message);
    if (!in || !out) continue;
    bool data = false;
    char source[96] = "";
    for (uint32_t d = 0; d < op->results[0].type.rank; ++d) {
      int64_t dim = grtc_tmodule_resolve_dim(e->module, op->results[0].type.dims[d]);
      if (grtc_dim_is_static(dim) || !grtc_host_dim_reads_data(e, dim)) continue;
      if (!data) grtc_host_data_source(e, dim, source, sizeof(source));
      data = true;
    }
    if (data) {
      // Sizes read from tensor data: the message quotes both counts and
      // names the argument that held them.
      snprintf(message, sizeof(message),
               "@%.*s: 'stablehlo.dynamic_reshape' at %u:%u: its result %s (its shape operand's "
               "data) must hold as many elements as its operand %s: expected {1}, got {0}%s",
               GRT_SV_ARG(func->name), line, column, out_text, in_text, source);
      grtc_value_t* counts[2] = {out, in};
      GRTC_HOST_CALL(e, SHAPE_ASSERTION,
                     GRTC_HOST_V(grtc_vm_compare(e->b, GRTC_VM_CMP_EQ, out, in)),
                     GRTC_HOST_V(grtc_host_message(e, message)), grtc_vm_span(counts, 2));
      continue;
    }
    snprintf(message, sizeof(message),
             "@%.*s: 'stablehlo.dynamic_reshape' at %u:%u: its result %s (its shape operand) "
             "must hold as many elements as its operand %s",
             GRT_SV_ARG(func->name), line, column, out_text, in_text);
    grtc_vm_check(e->b, GRTC_VM_CHECK_EQ, out, in, message);
  }
}

// Computes the function's derived symbols (grtc_host_is_derived) from the
// values of the symbols it takes, in symbol order (a rule's operands were
// made before its result): a concatenation's sum, a pad's low + high +
// size + interior * (size - 1). A derived symbol that represents its class
// gets the value; one the relations joined to another class member (an
// argument dimension, a static size) is checked equal to it. Each value is
// checked to fit the kernels' 32-bit extents.
static void grtc_host_derive_symbol(grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                    uint32_t id) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  char message[512], text[256];
  e->sym_done[id] = true;
  {
    const grtc_tsym_t* sym = &shapes->syms[id];
    const grtc_top_t* op = sym->op;
    // The dynamic op it was, for a computed extent's messages.
    grtc_top_kind_t kind = sym->expr ? sym->expr_op_kind : op->kind;
    grtc_value_t* value = NULL;
    if (sym->expr) {
      value = grtc_host_computed_extent(e, func, id);
      if (!value) return;
    } else if (op->kind == GRTC_TOP_CONCATENATE) {
      for (uint32_t i = 0; i < op->operand_count; ++i) {
        grtc_value_t* size = grtc_host_dim(e, op->operands[i]->type.dims[sym->axis]);
        if (!size) return;
        value = value ? grtc_vm_binary(e->b, GRTC_VM_ADD, value, size) : size;
      }
    }
    char where[128];
    grtc_host_describe_op(op, kind, where, sizeof(where));
    grtc_tmodule_describe_dim(e->module, GRTC_DIM_SYMBOL(id), text, sizeof(text));
    if (!value) {
      // A pad: size + low + high + interior * max(size - 1, 0), its
      // attributes any i64 (checked, so that none of it wraps).
      grtc_value_t* size = grtc_host_dim(e, op->operands[0]->type.dims[sym->axis]);
      if (!size) return;
      int64_t low = op->attrs.low.values[sym->axis], high = op->attrs.high.values[sym->axis];
      int64_t interior = op->attrs.interior.values[sym->axis];
      snprintf(message, sizeof(message),
               "@%.*s: dimension %u of %s (%s) overflows 64-bit integers at these argument "
               "sizes",
               GRT_SV_ARG(func->name), sym->axis, where, text);
      double bound = GRTC_HOST_SYMBOL_BOUND;
      value = grtc_host_checked_add(e, size, bound, grtc_host_i64(e, low),
                                    grtc_host_abs_bound(low), false, message, &bound);
      value = grtc_host_checked_add(e, value, bound, grtc_host_i64(e, high),
                                    grtc_host_abs_bound(high), false, message, &bound);
      if (interior) {
        grtc_value_t* gaps = grtc_vm_binary(
            e->b, GRTC_VM_MAX_S, grtc_vm_binary(e->b, GRTC_VM_SUB, size, grtc_host_i64(e, 1)),
            grtc_host_i64(e, 0));
        double gap_bound = 0;
        gaps = grtc_host_checked_mul(e, gaps, GRTC_HOST_SYMBOL_BOUND, grtc_host_i64(e, interior),
                                     grtc_host_abs_bound(interior), NULL, message, &gap_bound);
        value = grtc_host_checked_add(e, value, bound, gaps, gap_bound, false, message, &bound);
      }
    }
    snprintf(message, sizeof(message),
             "@%.*s: dimension %u of %s (%s) exceeds the kernels' 32-bit extents",
             GRT_SV_ARG(func->name), sym->axis, where, text);
    grtc_vm_check_nz(e->b,
                     grtc_vm_compare(e->b, GRTC_VM_CMP_LTE_S, value, grtc_host_i64(e, INT32_MAX)),
                     message);
    // Bounds the program needs of it (a static slice of the result).
    for (uint32_t r = 0; r < shapes->rel_count; ++r) {
      const grtc_trel_t* rel = &shapes->rels[r];
      if (rel->func != func || rel->kind != GRTC_REL_GE ||
          grtc_tmodule_resolve_dim(e->module, rel->a) !=
              grtc_tmodule_resolve_dim(e->module, GRTC_DIM_SYMBOL(id)) ||
          !grtc_dim_is_static(rel->b)) {
        continue;
      }
      snprintf(message, sizeof(message),
               "@%.*s: dimension %u of %s (%s) must be at least %lld",
               GRT_SV_ARG(func->name), sym->axis, where, text, (long long)rel->b);
      grtc_vm_check_nz(e->b,
                       grtc_vm_compare(e->b, GRTC_VM_CMP_LTE_S, grtc_host_i64(e, rel->b), value),
                       message);
    }
    int64_t rep = grtc_tmodule_resolve_dim(e->module, GRTC_DIM_SYMBOL(id));
    // The class's value when no argument gives it (its representative is
    // this symbol, or a declared result's the relations joined to it).
    if (!grtc_dim_is_static(rep) && !e->sym_values[grtc_dim_symbol(rep)] &&
        !grtc_host_takes_argument_symbol(e, grtc_dim_symbol(rep))) {
      grtc_vm_builder_name(e->b, value, "s%u", grtc_dim_symbol(rep));
      e->sym_values[grtc_dim_symbol(rep)] = value;
      return;
    }
    grtc_value_t* expected = grtc_host_dim(e, rep);
    if (!expected) return;
    snprintf(message, sizeof(message),
             "@%.*s: dimension %u of %s (%s) must equal %s, as the program's shapes require",
             GRT_SV_ARG(func->name), sym->axis, where, text,
             grtc_tmodule_describe_dim(e->module, rep, (char[256]){0}, 256));
    grtc_vm_check(e->b, GRTC_VM_CHECK_EQ, value, expected, message);
  }
}

static bool grtc_host_sexpr_ready(grtc_host_emitter_t* e, const grtc_sexpr_t* expr, int depth) {
  if (!expr || depth > 64) return false;
  if (expr->kind == GRTC_SEXPR_CONST) return true;
  if (expr->kind == GRTC_SEXPR_DIM) return grtc_host_dim(e, expr->value) != NULL;
  if (expr->kind == GRTC_SEXPR_DATA) return expr->data && e->values[expr->data->id] != NULL;
  return grtc_host_sexpr_ready(e, expr->lhs, depth + 1) &&
         grtc_host_sexpr_ready(e, expr->rhs, depth + 1);
}

// Whether every extent derived symbol |id| is computed from has a value
// here.
static bool grtc_host_derived_ready(grtc_host_emitter_t* e, uint32_t id) {
  const grtc_tsym_t* sym = &e->module->shapes->syms[id];
  const grtc_top_t* op = sym->op;
  if (sym->expr) {
    if (!grtc_host_sexpr_ready(e, sym->expr, 0)) return false;
    return op->kind != GRTC_TOP_SLICE || op->operand_count != 1 ||
           sym->axis >= op->operands[0]->type.rank ||
           grtc_host_dim(e, op->operands[0]->type.dims[sym->axis]) != NULL;
  }
  uint32_t count = op->kind == GRTC_TOP_CONCATENATE ? op->operand_count : 1;
  for (uint32_t i = 0; i < count; ++i) {
    if (!grtc_host_dim(e, op->operands[i]->type.dims[sym->axis])) return false;
  }
  return true;
}

// Whether |region| (a symbol's grtc_tsym_t.branch) is NULL or a branch
// being emitted (e->branch or a branch holding it).
static bool grtc_host_in_open_branch(const grtc_host_emitter_t* e, const grtc_tblock_t* region) {
  if (!region) return true;
  for (const grtc_tblock_t* open = e->branch; open;
       open = open->parent_op ? grtc_top_branch_region(open->parent_op) : NULL) {
    if (open == region) return true;
  }
  return false;
}

// The derived symbols computed from extents a while loop changes or in an
// if or case branch (grtc_tsym_inputs_vary), not computed yet, in no
// branch or one being emitted, whose inputs have values
// here: in a loop's header (which dominates its body and what follows the
// loop) and after the loop (those of its results).
static void grtc_host_derive_late(grtc_host_emitter_t* e) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t id = 0; shapes && id < shapes->sym_count; ++id) {
    if (e->sym_done[id] || !grtc_host_is_derived(e, e->func, id) ||
        !grtc_host_in_open_branch(e, shapes->syms[id].branch) || !grtc_host_derived_ready(e, id)) {
      continue;
    }
    grtc_host_derive_symbol(e, e->func, id);
  }
}

static void grtc_host_derive_symbols(grtc_host_emitter_t* e, const grtc_tfunc_t* func) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t id = 0; shapes && id < shapes->sym_count; ++id) {
    // One computed from a loop's changing extent: in or after the loop.
    if (!grtc_host_is_derived(e, func, id) || grtc_tsym_inputs_vary(e->module, id)) continue;
    grtc_host_derive_symbol(e, func, id);
  }
  grtc_host_check_reshapes(e, func, func->body, NULL);
}

// Every symbolic dimension of a value must be a symbol the function takes
// (read from its arguments); one an op's shape rule computes is a
// diagnostic at |op|.
static grt_status_t grtc_host_scan_type(const grtc_host_emitter_t* e, const grtc_top_t* op,
                                        const char* what, uint32_t index,
                                        const grtc_ttype_t* type) {
  for (uint32_t d = 0; d < type->rank; ++d) {
    int64_t dim = grtc_tmodule_resolve_dim(e->module, type->dims[d]);
    if (grtc_dim_is_static(dim) || grtc_host_takes_symbol(e, grtc_dim_symbol(dim))) continue;
    char text[256];
    return grtc_top_error(e->module, op,
                          "'%s' %s %u dimension %u is %s; the host program reads only argument "
                          "dimensions at the call (an extent an op's shape rule computes is not "
                          "supported yet)",
                          grtc_top_kind_name(op->kind), what, index, d,
                          grtc_tmodule_describe_dim(e->module, dim, text, sizeof(text)));
  }
  return grt_ok_status();
}

static grt_status_t grtc_host_scan_block(const grtc_host_emitter_t* e, const grtc_tblock_t* block,
                                         const grtc_top_t* parent) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t i = 0; parent && i < block->arg_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_host_scan_type(e, parent, "region argument", i, &block->args[i].type));
  }
  for (const grtc_top_t* op = block->first; op; op = op->next) {
    // Extents the call supplies through an op (a dynamic op's shape
    // operand) would need reading and checking at the call.
    for (uint32_t id = 0; shapes && id < shapes->sym_count && op->kind != GRTC_TOP_CALL; ++id) {
      const grtc_tsym_t* sym = &shapes->syms[id];
      if (sym->op != op || sym->origin != GRTC_SYM_RESULT ||
          !grtc_tmodule_symbol_is_source(e->module, id)) {
        continue;
      }
      char text[256];
      return grtc_top_error(e->module, op,
                            "'%s' result %u dimension %u (%s) is an extent the call supplies "
                            "through the op; the host program reads only argument dimensions "
                            "at the call",
                            grtc_top_kind_name(op->kind), sym->index, sym->axis,
                            grtc_tmodule_describe_dim(e->module, GRTC_DIM_SYMBOL(id), text,
                                                      sizeof(text)));
    }
    for (uint32_t r = 0; r < op->result_count; ++r) {
      GRT_RETURN_IF_ERROR(grtc_host_scan_type(e, op, "result", r, &op->results[r].type));
    }
    for (uint32_t r = 0; r < op->region_count; ++r) {
      GRT_RETURN_IF_ERROR(grtc_host_scan_block(e, op->regions[r], op));
    }
  }
  return grt_ok_status();
}

// The function's symbols (e->func_syms) and the scan of its values.
static grt_status_t grtc_host_begin_symbols(grtc_host_emitter_t* e, const grtc_tfunc_t* func) {
  grt_allocator_free(e->allocator, e->func_syms);
  e->func_syms = NULL;
  e->func_sym_count = 0;
  GRT_RETURN_IF_ERROR(grtc_host_function_symbols(e, func, &e->func_syms, &e->func_sym_count));
  GRT_RETURN_IF_ERROR(grtc_host_scan_block(e, func->body, NULL));
  const grtc_top_t* ret = func->body->last;
  for (uint32_t r = 0; ret && r < func->result_count; ++r) {
    GRT_RETURN_IF_ERROR(grtc_host_scan_type(e, ret, "result", r, &func->result_types[r]));
  }
  return grt_ok_status();
}

// Straight-line functions (no calls, control flow or checks) with work to
// do (dispatches, global loads and stores: copies of a buffer that never
// changes) record their command buffer once.
static bool grtc_host_is_straight_line(const grtc_tfunc_t* func) {
  bool dispatches = false;
  for (const grtc_top_t* op = func->body->first; op; op = op->next) {
    switch (op->kind) {
      case GRTC_TOP_DISPATCH:
      case GRTC_TOP_GLOBAL_LOAD:
      case GRTC_TOP_GLOBAL_STORE:
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

// Entry |entry| of |cache|: stores the new recording e->cb, its symbol
// values and its use stamp |now|, then branches to |run|.
static void grtc_host_emit_cache_entry_store(grtc_host_emitter_t* e, const grtc_host_cache_t* cache,
                                             uint32_t entry, grtc_value_t* now,
                                             grtc_block_t* run) {
  grtc_vm_global_store(e->b, e->cb, cache->cb[entry]);
  for (uint32_t k = 0; k < e->func_sym_count; ++k) {
    grtc_vm_global_store(e->b, grtc_host_symbol(e, e->func_syms[k]), cache->keys[entry][k]);
  }
  if (now) grtc_vm_global_store(e->b, now, cache->use[entry]);
  grtc_vm_br(e->b, run, &e->cb, 1);
}

// Looks the call's symbol values up in |cache|: entry e holds a recording
// made at these values -> its use stamp is the call's clock, ^run(entry
// e's recording); none -> ^record. Returns the clock value (NULL for a
// one-entry cache), which the store after recording stamps its entry with.
//   %now = global @__cb_N_clock + 1 (stored back)
//   %c0 = global @__cb_N; cond_br nz(%c0) & keys0 == symbols, ^hit0, ^next0
// ^hit0: store %now, @__cb_N_use; br ^run(%c0)
// ^next0: ... entry 1 (@__cb_N_e1, @__cb_N_e1_key_K) ..., ^record
static grtc_value_t* grtc_host_emit_cache_lookup(grtc_host_emitter_t* e,
                                                 const grtc_host_cache_t* cache,
                                                 grtc_block_t* run, grtc_block_t* record) {
  grtc_value_t* now = NULL;
  if (cache->entry_count > 1) {
    now = grtc_vm_binary(e->b, GRTC_VM_ADD, grtc_vm_global_load(e->b, cache->clock),
                         grtc_host_i64(e, 1));
    grtc_vm_builder_name(e->b, now, "now");
    grtc_vm_global_store(e->b, now, cache->clock);
  }
  for (uint32_t entry = 0; entry < cache->entry_count; ++entry) {
    bool last = entry + 1 == cache->entry_count;
    grtc_value_t* cached = grtc_vm_global_load(e->b, cache->cb[entry]);
    grtc_value_t* have = grtc_vm_cmp_nz(e->b, cached);
    for (uint32_t k = 0; k < e->func_sym_count; ++k) {
      grtc_value_t* key = grtc_vm_global_load(e->b, cache->keys[entry][k]);
      grtc_value_t* same =
          grtc_vm_compare(e->b, GRTC_VM_CMP_EQ, key, grtc_host_symbol(e, e->func_syms[k]));
      have = grtc_vm_binary(e->b, GRTC_VM_AND, have, same);
    }
    if (!now) {
      grtc_vm_cond_br(e->b, have, run, &cached, 1, record, NULL, 0);
      continue;
    }
    grtc_block_t* hit = grtc_vm_builder_block(e->b, NULL, 0);
    grtc_block_t* next = last ? record : grtc_vm_builder_block(e->b, NULL, 0);
    grtc_vm_cond_br(e->b, have, hit, NULL, 0, next, NULL, 0);
    grtc_vm_builder_append_block(e->b, e->function, hit);
    grtc_vm_global_store(e->b, now, cache->use[entry]);
    grtc_vm_br(e->b, run, &cached, 1);
    if (!last) grtc_vm_builder_append_block(e->b, e->function, next);
  }
  return now;
}

// After recording e->cb: keeps it in the least recently used entry (the
// lowest use stamp; an empty entry's is 0) and branches to |run|.
static void grtc_host_emit_cache_store(grtc_host_emitter_t* e, const grtc_host_cache_t* cache,
                                       grtc_value_t* now, grtc_block_t* run) {
  if (!now) {
    grtc_host_emit_cache_entry_store(e, cache, 0, NULL, run);
    return;
  }
  grtc_value_t* victim = grtc_host_i32(e, 0);
  grtc_value_t* oldest = grtc_vm_global_load(e->b, cache->use[0]);
  for (uint32_t entry = 1; entry < cache->entry_count; ++entry) {
    grtc_value_t* use = grtc_vm_global_load(e->b, cache->use[entry]);
    grtc_value_t* older = grtc_vm_compare(e->b, GRTC_VM_CMP_LT_S, use, oldest);
    victim = grtc_vm_select(e->b, older, grtc_host_i32(e, (int32_t)entry), victim);
    oldest = grtc_vm_select(e->b, older, use, oldest);
  }
  grtc_block_t* stores[GRTC_HOST_CACHE_ENTRIES];
  grtc_successor_t cases[GRTC_HOST_CACHE_ENTRIES];
  for (uint32_t entry = 0; entry < cache->entry_count; ++entry) {
    stores[entry] = grtc_vm_builder_block(e->b, NULL, 0);
    cases[entry] = (grtc_successor_t){stores[entry], 0, NULL};
  }
  grtc_vm_br_table(e->b, victim, &cases[0], cases, cache->entry_count);
  for (uint32_t entry = 0; entry < cache->entry_count; ++entry) {
    grtc_vm_builder_append_block(e->b, e->function, stores[entry]);
    grtc_host_emit_cache_entry_store(e, cache, entry, now, run);
  }
}

//   %cached = global @__cb_N; cond_br nz(%cached), ^run(%cached), ^record
// ^record: create reusable (slots: arguments, arena, results), record the
//          dispatches against slots, end, store @__cb_N, br ^run(%new)
// ^run(%cb): allocate the arena and the results, execute.indirect with
//          the binding table, wait, return.
//
// A function with symbols keys each recording on their values (globals
// __cb_N_key_K beside __cb_N) and keeps GRTC_HOST_CACHE_ENTRIES of them
// (grtc_host_emit_cache_lookup): a call with values no entry holds
// records again (the extents, workgroup counts and arena offsets are in
// the recording) into the least recently used entry.
static grt_status_t grtc_host_emit_reusable_body(grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                                 const grtc_host_cache_t* cache) {
  e->reusable = true;
  for (uint32_t id = 0; id < e->plan.value_capacity; ++id) e->slots[id] = GRTC_HOST_NO_SLOT;
  e->slot_count = 0;
  for (uint32_t i = 0; i < func->body->arg_count; ++i) e->slots[func->body->args[i].id] = e->slot_count++;
  e->arena_slot = grtc_host_has_arena(e) ? e->slot_count++ : GRTC_HOST_NO_SLOT;
  for (uint32_t id = 0; id < e->plan.value_capacity; ++id) {
    const grtc_value_storage_t* s = e->plan.planned[id] ? &e->plan.storage[id] : NULL;
    if (s && s->root->id == id && s->kind == GRTC_STORAGE_OWN) e->slots[id] = e->slot_count++;
  }
  grtc_block_t* run = grtc_vm_builder_block(e->b, &e->command_buffer, 1);
  grtc_block_t* record = grtc_vm_builder_block(e->b, NULL, 0);
  grtc_value_t* now = grtc_host_emit_cache_lookup(e, cache, run, record);
  grtc_vm_builder_append_block(e->b, e->function, record);
  e->indirect = grtc_vm_const_zero(e->b, e->buffer);
  grtc_vm_builder_name(e->b, e->indirect, "indirect");
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
  GRTC_HOST_CALL(e, COMMAND_BUFFER_END, GRTC_HOST_V(e->cb));
  grtc_host_emit_cache_store(e, cache, now, run);
  e->recording = false;
  grtc_vm_builder_append_block(e->b, e->function, run);
  grtc_value_t* recorded = run ? &run->args[0] : NULL;
  grtc_vm_builder_name(e->b, recorded, "recorded");

  // The run block: what the recording's slots name this call.
  if (e->arena_slot != GRTC_HOST_NO_SLOT) grtc_host_allocate_arena(e);
  grtc_value_t** table = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(e->allocator,
                                           3 * (e->slot_count ? e->slot_count : 1) * sizeof(*table),
                                           (void**)&table));
  for (uint32_t slot = 0; slot < e->slot_count; ++slot) {
    grtc_value_t* ref = e->arena;
    grtc_value_t* size = grtc_host_arena_size(e);
    for (uint32_t id = 0; id < e->plan.value_capacity; ++id) {
      if (e->slots[id] != slot) continue;
      size = grtc_host_own_size(e, id);
      if (e->plan.storage[id].kind == GRTC_STORAGE_OWN) grtc_host_allocate_value(e, id);
      ref = e->values[id];
      break;
    }
    table[3 * slot + 0] = ref;
    table[3 * slot + 1] = grtc_host_i64(e, 0);
    table[3 * slot + 2] = size;
  }
  // Constants returned as they are: loaded again here (the loads in the
  // recording block do not dominate this one).
  for (uint32_t i = 0; i < ret->operand_count; ++i) {
    const grtc_tvalue_t* root = grtc_host_storage(e, ret->operands[i])->root;
    if (root->def && root->def->kind == GRTC_TOP_CONSTANT) {
      e->values[root->id] =
          grtc_vm_global_load(e->b, e->constant_globals[e->constant_ids[root->id]]);
    }
  }
  grtc_value_t* null_fence = grtc_vm_const_zero(e->b, e->fence);
  grtc_value_t* fence = GRTC_HOST_CALL(e, FENCE_CREATE, GRTC_HOST_V(e->device));
  GRTC_HOST_CALL(e, DEVICE_QUEUE_EXECUTE_INDIRECT, GRTC_HOST_V(e->device),
                 GRTC_HOST_V(null_fence), GRTC_HOST_V(fence), GRTC_HOST_V(recorded),
                 grtc_vm_span(table, e->slot_count));
  grtc_host_await(e, fence);
  grt_allocator_free(e->allocator, table);
  return grtc_host_emit_return(e, ret);
}

// The globals of function |function_index|'s recording cache: @__cb_N and
// @__cb_N_key_K for entry 0, @__cb_N_eE and @__cb_N_eE_key_K for entry E,
// their use stamps @__cb_N_use / @__cb_N_eE_use and @__cb_N_clock (only
// with symbols: a static function's one recording serves every call).
static void grtc_host_declare_cache(grtc_host_emitter_t* e, uint32_t function_index,
                                    uint32_t sym_count, grtc_host_cache_t* cache) {
  cache->entry_count = sym_count ? GRTC_HOST_CACHE_ENTRIES : 1;
  char prefix[32], name[64];
  const grtc_type_t* i64 = grtc_vm_type_i64(e->b);
  for (uint32_t entry = 0; entry < cache->entry_count; ++entry) {
    if (entry) {
      snprintf(prefix, sizeof(prefix), "__cb_%u_e%u", function_index, entry);
    } else {
      snprintf(prefix, sizeof(prefix), "__cb_%u", function_index);
    }
    cache->cb[entry] = grtc_vm_builder_global(e->b, grt_make_cstring_view(prefix),
                                              e->command_buffer, true);
    for (uint32_t k = 0; k < sym_count; ++k) {
      snprintf(name, sizeof(name), "%s_key_%u", prefix, k);
      cache->keys[entry][k] = grtc_vm_builder_global(e->b, grt_make_cstring_view(name), i64,
                                                     true);
    }
    if (cache->entry_count > 1) {
      snprintf(name, sizeof(name), "%s_use", prefix);
      cache->use[entry] = grtc_vm_builder_global(e->b, grt_make_cstring_view(name), i64, true);
    }
  }
  if (cache->entry_count > 1) {
    snprintf(name, sizeof(name), "__cb_%u_clock", function_index);
    cache->clock = grtc_vm_builder_global(e->b, grt_make_cstring_view(name), i64, true);
  }
}

// @<name>$buffers(%v.. : !hal.buffer) -> (!hal.buffer, ...)
static grt_status_t grtc_host_emit_buffer_function(grtc_host_emitter_t* e,
                                                   const grtc_tfunc_t* func) {
  e->func = func;
  GRT_RETURN_IF_ERROR(grtc_memory_plan_build(e->module, func, e->allocator, &e->plan));
  memset(e->values, 0, e->plan.value_capacity * sizeof(*e->values));
  grtc_host_set_location(e, func->location, func->line, func->column);
  uint32_t function_index = e->function_index++;
  if (!grtc_host_terminator(func->body) || grtc_host_terminator(func->body)->kind != GRTC_TOP_RETURN) {
    grtc_memory_plan_deinit(&e->plan);
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "function '%.*s' does not end in a return",
                           GRT_SV_ARG(func->name));
  }
  grt_status_t status = grtc_host_begin_symbols(e, func);
  if (!grt_status_is_ok(status)) {
    grtc_memory_plan_deinit(&e->plan);
    return status;
  }
  uint32_t sym_count = e->func_sym_count;
  // A recording is keyed on the argument symbols: extents read from
  // argument data are not among them, so such a function records each call.
  bool reusable = grtc_host_is_straight_line(func) &&
                  !(e->options && (e->options->flags & GRTC_HOST_FLAG_ONE_SHOT)) &&
                  !grtc_tfunc_reads_shape_data(e->module, func);
  grtc_host_cache_t cache;
  memset(&cache, 0, sizeof(cache));
  if (reusable && sym_count > GRTC_HOST_MAX_KEYS) reusable = false;  // records every call
  if (reusable) grtc_host_declare_cache(e, function_index, sym_count, &cache);
  grtc_host_scratch_t args, results;
  uint32_t result_syms[64];
  uint32_t result_sym_count = grtc_host_result_symbols(e, func, result_syms);
  status = grtc_host_scratch(e, func->body->arg_count + sym_count, &args);
  if (grt_status_is_ok(status)) {
    status = grtc_host_scratch(e, func->result_count + result_sym_count, &results);
    if (!grt_status_is_ok(status)) grtc_host_scratch_free(e, &args);
  }
  if (!grt_status_is_ok(status)) {
    grtc_memory_plan_deinit(&e->plan);
    return status;
  }
  grtc_host_buffer_types(e, func->body->arg_count, args.types);
  for (uint32_t k = 0; k < sym_count; ++k) {
    args.types[func->body->arg_count + k] = grtc_vm_type_i64(e->b);
  }
  grtc_host_buffer_types(e, func->result_count, results.types);
  for (uint32_t k = 0; k < result_sym_count; ++k) {
    results.types[func->result_count + k] = grtc_vm_type_i64(e->b);
  }
  char name[GRTC_HOST_NAME_CAPACITY];
  grtc_block_t* entry = NULL;
  grtc_operation_t* function =
      grtc_vm_builder_func(e->b, grtc_host_buffers_name(func, name, sizeof(name)), true,
                           args.types, func->body->arg_count + sym_count, results.types,
                           func->result_count + result_sym_count, &entry);
  grtc_host_scratch_free(e, &results);
  grtc_host_scratch_free(e, &args);
  grtc_host_begin_function(e, function, entry);
  for (uint32_t i = 0; entry && i < func->body->arg_count; ++i) {
    uint32_t id = func->body->args[i].id;
    e->values[id] = &entry->args[i];
    grtc_vm_builder_name(e->b, e->values[id], "v%u", id);
  }
  for (uint32_t k = 0; entry && k < sym_count; ++k) {
    grtc_value_t* value = &entry->args[func->body->arg_count + k];
    e->sym_values[e->func_syms[k]] = value;
    grtc_vm_builder_name(e->b, value, "s%u", e->func_syms[k]);
  }
  if (entry) grtc_host_derive_symbols(e, func);
  e->hoist = true;
  if (entry) {
    e->device = grtc_vm_global_load(e->b, e->device_global);
    grtc_vm_builder_name(e->b, e->device, "device");
    e->device_allocator = grtc_vm_global_load(e->b, e->allocator_global);
    grtc_vm_builder_name(e->b, e->device_allocator, "allocator");
    e->executable = NULL;
    if (e->kernels->count) {
      e->executable = grtc_vm_global_load(e->b, e->executable_global);
      grtc_vm_builder_name(e->b, e->executable, "executable");
    }
    e->variant = NULL;
    if (e->per_variant) {
      e->variant = grtc_vm_global_load(e->b, e->variant_global);
      grtc_vm_builder_name(e->b, e->variant, "variant");
    }
    e->concurrency = NULL;
    if (e->splits) {
      e->concurrency = grtc_vm_global_load(e->b, e->concurrency_global);
      grtc_vm_builder_name(e->b, e->concurrency, "concurrency");
    }
    e->const_anchor = entry->last;
    status = grtc_host_slot_offsets(e);
  }
  if (grt_status_is_ok(status) && reusable) {
    status = grtc_host_emit_reusable_body(e, func, &cache);
  } else if (grt_status_is_ok(status)) {
    if (grtc_host_has_arena(e)) grtc_host_allocate_arena(e);
    status = grtc_host_emit_block(e, func->body);
  }
  e->reusable = false;
  e->hoist = false;
  grt_allocator_free(e->allocator, e->slot_offsets);
  e->slot_offsets = NULL;
  grtc_memory_plan_deinit(&e->plan);
  return status;
}

// A rodata string for a check's message, named __shape_message_N.
static grtc_value_t* grtc_host_message(grtc_host_emitter_t* e, const char* text) {
  char name[48];
  int length = snprintf(name, sizeof(name), "__shape_message_%u", e->message_count++);
  grt_string_view_t symbol = grt_make_string_view(name, (size_t)length);
  grtc_vm_builder_rodata_string(e->b, symbol, grt_make_cstring_view(text));
  return grtc_vm_const_rodata(e->b, symbol);
}

// " ('stablehlo.add' at 3:10, operand 1 dimension 0)": where |rel| comes
// from, for a check's message.
static void grtc_host_describe_relation(const grtc_trel_t* rel, char* out, size_t capacity) {
  if (!rel->op) {
    snprintf(out, capacity, " (%s)", rel->what ? rel->what : "a call");
    return;
  }
  uint32_t line = rel->op->line, column = rel->op->column;
  if (rel->op->location) {
    grt_string_view_t file;
    grtc_location_file_position(rel->op->location, &file, &line, &column);
  }
  snprintf(out, capacity, " ('%s' at %u:%u, %s)", grtc_top_kind_name(rel->op->kind), line, column,
           rel->what ? rel->what : "");
}

// The relation of |func| that mentions symbol |symbol| as recorded (the
// one that joined it to its class), or NULL.
static const grtc_trel_t* grtc_host_relation_of(const grtc_host_emitter_t* e,
                                                const grtc_tfunc_t* func, uint32_t symbol) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t i = 0; i < shapes->rel_count; ++i) {
    const grtc_trel_t* rel = &shapes->rels[i];
    if (rel->func == func && rel->kind == GRTC_REL_EQ &&
        (rel->a == GRTC_DIM_SYMBOL(symbol) || rel->b == GRTC_DIM_SYMBOL(symbol))) {
      return rel;
    }
  }
  return NULL;
}

// The symbol dimension |axis| of argument |index| of |func| was given, or
// UINT32_MAX.
static uint32_t grtc_host_argument_symbol(const grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                          uint32_t index, uint32_t axis) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  for (uint32_t id = 0; id < shapes->sym_count; ++id) {
    const grtc_tsym_t* sym = &shapes->syms[id];
    if (sym->func == func && sym->origin == GRTC_SYM_ARGUMENT && sym->index == index &&
        sym->axis == axis) {
      return id;
    }
  }
  return UINT32_MAX;
}

// The export's shape checks (docs/compiler.md "Symbolic shapes"): reads
// every symbolic argument dimension; the first of each class gives the
// class's value (checked to fit a 32-bit push constant), every other must
// equal it, and every GE bound must hold. |views| are the arguments.
static grt_status_t grtc_host_export_symbols(grtc_host_emitter_t* e, const grtc_tfunc_t* func,
                                             grtc_value_t* const* views) {
  const grtc_tshapes_t* shapes = e->module->shapes;
  if (!shapes->sym_count) return grt_ok_status();
  // Per symbol: the argument view, index and axis its value was read from.
  grtc_value_t** source_views = NULL;
  uint32_t* source_axes = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(e->allocator, shapes->sym_count * sizeof(*source_views),
                                           (void**)&source_views));
  grt_status_t status = grt_allocator_calloc(
      e->allocator, 2 * shapes->sym_count * sizeof(*source_axes), (void**)&source_axes);
  uint32_t* source_args = source_axes + (grt_status_is_ok(status) ? shapes->sym_count : 0);
  char message[768], relation[256], text[256];
  const grtc_tblock_t* body = func->body;
  for (uint32_t i = 0; i < body->arg_count && grt_status_is_ok(status); ++i) {
    const grtc_ttype_t* type = &body->args[i].type;
    for (uint32_t d = 0; d < type->rank; ++d) {
      int64_t dim = grtc_tmodule_resolve_dim(e->module, type->dims[d]);
      if (grtc_dim_is_static(dim)) continue;
      uint32_t symbol = grtc_dim_symbol(dim);
      grtc_value_t* axis = grtc_host_i32(e, d);
      if (!e->sym_values[symbol]) {
        grtc_value_t* value = GRTC_HOST_CALL(e, BUFFER_VIEW_DIM, GRTC_HOST_V(views[i]),
                                             GRTC_HOST_V(axis));
        grtc_vm_builder_name(e->b, value, "s%u", symbol);
        e->sym_values[symbol] = value;
        source_views[symbol] = views[i];
        source_args[symbol] = i;
        source_axes[symbol] = d;
        snprintf(message, sizeof(message),
                 "@%.*s: argument %u dimension %u (%s) is an extent the kernels take as a "
                 "32-bit value",
                 GRT_SV_ARG(func->name), i, d,
                 grtc_tmodule_describe_dim(e->module, dim, text, sizeof(text)));
        GRTC_HOST_CALL(e, BUFFER_VIEW_ASSERT_DIM, GRTC_HOST_V(views[i]),
                       GRTC_HOST_V(grtc_host_message(e, message)), GRTC_HOST_V(axis),
                       GRTC_HOST_V(grtc_host_i32(e, 2)), GRTC_HOST_V(grtc_host_i64(e, INT32_MAX)));
        continue;
      }
      // Another dimension of the class: it must equal the first.
      uint32_t given = grtc_host_argument_symbol(e, func, i, d);
      const grtc_trel_t* rel =
          given == UINT32_MAX ? NULL : grtc_host_relation_of(e, func, given);
      relation[0] = '\0';
      if (rel) grtc_host_describe_relation(rel, relation, sizeof(relation));
      snprintf(message, sizeof(message),
               "@%.*s: argument %u dimension %u must equal argument %u dimension %u%s",
               GRT_SV_ARG(func->name), i, d, source_args[symbol], source_axes[symbol], relation);
      GRTC_HOST_CALL(e, BUFFER_VIEW_ASSERT_DIM, GRTC_HOST_V(views[i]),
                     GRTC_HOST_V(grtc_host_message(e, message)), GRTC_HOST_V(axis),
                     GRTC_HOST_V(grtc_host_i32(e, 0)), GRTC_HOST_V(e->sym_values[symbol]));
    }
  }
  // Bounds: "symbol >= size" (a static slice of a symbolic dimension).
  for (uint32_t r = 0; r < shapes->rel_count && grt_status_is_ok(status); ++r) {
    const grtc_trel_t* rel = &shapes->rels[r];
    if (rel->func != func || rel->kind != GRTC_REL_GE) continue;
    int64_t a = grtc_tmodule_resolve_dim(e->module, rel->a);
    int64_t b = grtc_tmodule_resolve_dim(e->module, rel->b);
    if (grtc_dim_is_static(a) || !grtc_dim_is_static(b)) continue;
    uint32_t symbol = grtc_dim_symbol(a);
    if (!source_views[symbol]) continue;  // not read from an argument: the scan refused it
    grtc_host_describe_relation(rel, relation, sizeof(relation));
    snprintf(message, sizeof(message), "@%.*s: argument %u dimension %u must be at least %lld%s",
             GRT_SV_ARG(func->name), source_args[symbol], source_axes[symbol], (long long)b,
             relation);
    GRTC_HOST_CALL(e, BUFFER_VIEW_ASSERT_DIM, GRTC_HOST_V(source_views[symbol]),
                   GRTC_HOST_V(grtc_host_message(e, message)),
                   GRTC_HOST_V(grtc_host_i32(e, source_axes[symbol])),
                   GRTC_HOST_V(grtc_host_i32(e, 1)), GRTC_HOST_V(grtc_host_i64(e, b)));
  }
  grt_allocator_free(e->allocator, source_axes);
  grt_allocator_free(e->allocator, source_views);
  return status;
}

// The export: asserts and unwraps the argument views (a symbolic
// dimension asserted as -1, any size), reads and checks the symbols,
// calls the buffer function with them, wraps the results in views of the
// computed shapes.
static grt_status_t grtc_host_emit_export(grtc_host_emitter_t* e, const grtc_tfunc_t* func) {
  e->func = func;
  grtc_host_set_location(e, func->location, func->line, func->column);
  GRT_RETURN_IF_ERROR(grtc_host_begin_symbols(e, func));
  const grtc_tblock_t* body = func->body;
  uint32_t sym_count = e->func_sym_count;
  grtc_host_scratch_t args, results, views;
  GRT_RETURN_IF_ERROR(grtc_host_scratch(e, body->arg_count + sym_count, &args));
  grt_status_t status = grtc_host_scratch(e, func->result_count, &results);
  if (!grt_status_is_ok(status)) {
    grtc_host_scratch_free(e, &args);
    return status;
  }
  status = grtc_host_scratch(e, body->arg_count, &views);
  if (!grt_status_is_ok(status)) {
    grtc_host_scratch_free(e, &results);
    grtc_host_scratch_free(e, &args);
    return status;
  }
  for (uint32_t i = 0; i < body->arg_count; ++i) args.types[i] = e->view;
  for (uint32_t r = 0; r < func->result_count; ++r) results.types[r] = e->view;
  grtc_block_t* entry = NULL;
  grtc_operation_t* function = grtc_vm_builder_func(e->b, func->name, false, args.types,
                                                    body->arg_count, results.types,
                                                    func->result_count, &entry);
  grtc_host_begin_function(e, function, entry);
  for (uint32_t i = 0; entry && i < body->arg_count; ++i) {
    const grtc_ttype_t* type = &body->args[i].type;
    const grtc_tpacked_t* packed =
        func->packed_args && func->packed_args[i].bits ? &func->packed_args[i] : NULL;
    if (packed) type = &packed->type;  // the view's shape; its buffer the packed bytes
    grtc_value_t* view = &entry->args[i];
    views.values[i] = view;
    grtc_vm_builder_name(e->b, view, "arg%u", i);
    char message_name[32];
    int length = snprintf(message_name, sizeof(message_name), "__argument_%u", i);
    grtc_value_t* message =
        grtc_vm_const_rodata(e->b, grt_make_string_view(message_name, (size_t)length));
    grtc_value_t* element_type =
        grtc_host_i32(e, packed ? grtc_host_packed_element_type(packed)
                                : grtc_host_element_type(type->elem));
    grtc_value_t* encoding = grtc_host_i32(e, 0);
    grtc_value_t* dims[GRTC_MAX_RANK];
    for (uint32_t d = 0; d < type->rank && d < GRTC_MAX_RANK; ++d) {
      int64_t dim = grtc_tmodule_resolve_dim(e->module, type->dims[d]);
      dims[d] = grtc_host_i64(e, grtc_dim_is_static(dim) ? dim : -1);  // -1: any size
    }
    GRTC_HOST_CALL(e, BUFFER_VIEW_ASSERT, GRTC_HOST_V(view), GRTC_HOST_V(message),
                   GRTC_HOST_V(element_type), GRTC_HOST_V(encoding),
                   grtc_vm_span(dims, type->rank));
    args.values[i] = GRTC_HOST_CALL(e, BUFFER_VIEW_BUFFER, GRTC_HOST_V(view));
    // Extents read from argument data (GRTC_SEXPR_DATA) load from it.
    e->values[body->args[i].id] = args.values[i];
  }
  if (body->arg_count > e->max_argument_count) e->max_argument_count = body->arg_count;
  if (entry) status = grtc_host_export_symbols(e, func, views.values);
  if (entry && grt_status_is_ok(status)) grtc_host_derive_symbols(e, func);
  for (uint32_t k = 0; k < sym_count && grt_status_is_ok(status); ++k) {
    args.values[body->arg_count + k] = grtc_host_symbol(e, e->func_syms[k]);
  }
  for (uint32_t r = 0; r < func->result_count; ++r) results.types[r] = e->buffer;
  uint32_t result_syms[64];
  uint32_t result_sym_count = grtc_host_result_symbols(e, func, result_syms);
  const grtc_type_t* call_types[64 + 64];
  if (func->result_count > 64) {
    status = grt_make_status(GRT_STATUS_UNIMPLEMENTED, "@%.*s returns over 64 values",
                             GRT_SV_ARG(func->name));
  }
  for (uint32_t r = 0; r < func->result_count && r < 64; ++r) call_types[r] = e->buffer;
  for (uint32_t k = 0; k < result_sym_count; ++k) {
    call_types[func->result_count + k] = grtc_vm_type_i64(e->b);
  }
  char name[GRTC_HOST_NAME_CAPACITY];
  grtc_operation_t* call = NULL;
  if (grt_status_is_ok(status)) {
    call = grtc_vm_call(e->b, grtc_host_buffers_name(func, name, sizeof(name)), args.values,
                        body->arg_count + sym_count, call_types,
                        func->result_count + result_sym_count);
  }
  // The results' extents its while loops computed.
  for (uint32_t k = 0; call && k < result_sym_count; ++k) {
    e->sym_values[result_syms[k]] = &call->results[func->result_count + k];
  }
  for (uint32_t r = 0; call && r < func->result_count; ++r) {
    if (func->packed_results && func->packed_results[r].bits) {
      results.values[r] = grtc_host_packed_view(e, &call->results[r], &func->result_types[r],
                                                &func->packed_results[r]);
    } else {
      results.values[r] = grtc_host_view(e, &call->results[r], &func->result_types[r]);
    }
  }
  if (grt_status_is_ok(status)) {
    grtc_vm_return(e->b, results.values, call ? func->result_count : 0);
    grtc_vm_builder_export(e->b, function, NULL);
  }
  grtc_host_scratch_free(e, &views);
  grtc_host_scratch_free(e, &results);
  grtc_host_scratch_free(e, &args);
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

// vm.rodata (the bytes, 64-byte aligned, splats expanded), the global
// holding its imported buffer, and the initializer's ops filling it.
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
  char data_name[48], global_name[48];
  int data_length = snprintf(data_name, sizeof(data_name), "__constant_%u_data", id);
  int global_length = snprintf(global_name, sizeof(global_name), "__constant_%u", id);
  grt_string_view_t data_symbol = grt_make_string_view(data_name, (size_t)data_length);
  if (splat && size > 0) {
    uint8_t* expanded = NULL;
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(e->allocator, (size_t)size, (void**)&expanded));
    for (int64_t i = 0; i < size; ++i) expanded[i] = data[(size_t)i % element_size];
    grtc_vm_builder_rodata_bytes(e->b, data_symbol, expanded, (size_t)size, 64, false);
    grt_allocator_free(e->allocator, expanded);
  } else {
    // The tensor module's bytes outlive the vm module (grtc_host_build).
    grtc_vm_builder_rodata_bytes(e->b, data_symbol, data, (size_t)size, 64, true);
  }
  grtc_operation_t* global = grtc_vm_builder_global(
      e->b, grt_make_string_view(global_name, (size_t)global_length), e->buffer, true);
  e->constant_globals[id] = global;
  grtc_value_t* rodata = grtc_vm_const_rodata(e->b, data_symbol);
  grtc_vm_builder_name(e->b, rodata, "rodata%u", id);
  grtc_value_t* buffer = GRTC_HOST_CALL(
      e, ALLOCATOR_IMPORT, GRTC_HOST_V(e->device_allocator), GRTC_HOST_V(rodata),
      GRTC_HOST_V(grtc_host_i64(e, 0)), GRTC_HOST_V(grtc_host_i64(e, size)));
  grtc_vm_builder_name(e->b, buffer, "buffer%u", id);
  grtc_vm_global_store(e->b, buffer, global);
  return grt_ok_status();
}

static bool grtc_host_same_constant(const grtc_top_t* a, const grtc_top_t* b) {
  const grtc_top_attrs_t* x = &a->attrs;
  const grtc_top_attrs_t* y = &b->attrs;
  return grtc_ttype_byte_size(&a->results[0].type) == grtc_ttype_byte_size(&b->results[0].type) &&
         x->constant.splat == y->constant.splat && x->constant.size == y->constant.size &&
         (x->constant.size == 0 || memcmp(x->constant.data, y->constant.data, x->constant.size) == 0);
}

// Mutable global |g| (docs/compiler.md "Mutable globals"): vm.rodata of
// its initial bytes (splats expanded) and the global __global_N holding its
// own device buffer, which the initializer allocates and fills by a copy
// from the imported rodata (recorded here, submitted once after the last).
static grt_status_t grtc_host_emit_state_global(grtc_host_emitter_t* e, const grtc_tglobal_t* g) {
  int64_t size = grtc_ttype_byte_size(&g->type);
  size_t element_size = grtc_elem_byte_size(g->type.elem);
  if (size < 0 || (g->splat ? g->size != element_size : g->size != (size_t)size)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "global '@%.*s' holds %zu bytes but "
                           "its type needs %lld", GRT_SV_ARG(g->name), g->size, (long long)size);
  }
  char data_name[48], global_name[48];
  int data_length = snprintf(data_name, sizeof(data_name), "__global_%u_data", g->index);
  int global_length = snprintf(global_name, sizeof(global_name), "__global_%u", g->index);
  grt_string_view_t data_symbol = grt_make_string_view(data_name, (size_t)data_length);
  if (g->splat && size > 0) {
    uint8_t* expanded = NULL;
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(e->allocator, (size_t)size, (void**)&expanded));
    for (int64_t i = 0; i < size; ++i) expanded[i] = g->data[(size_t)i % element_size];
    grtc_vm_builder_rodata_bytes(e->b, data_symbol, expanded, (size_t)size, 64, false);
    grt_allocator_free(e->allocator, expanded);
  } else {
    grtc_vm_builder_rodata_bytes(e->b, data_symbol, g->data, (size_t)size, 64, true);
  }
  grtc_operation_t* global = grtc_vm_builder_global(
      e->b, grt_make_string_view(global_name, (size_t)global_length), e->buffer, true);
  e->state_globals[g->index] = global;
  // At least one byte, so an empty tensor's global still has a buffer.
  grtc_value_t* buffer = grtc_host_allocate(e, grtc_host_i64(e, size ? size : 1));
  grtc_vm_builder_name(e->b, buffer, "global%u", g->index);
  grtc_vm_global_store(e->b, buffer, global);
  if (size == 0) return grt_ok_status();
  grtc_value_t* rodata = grtc_vm_const_rodata(e->b, data_symbol);
  grtc_value_t* initial = GRTC_HOST_CALL(
      e, ALLOCATOR_IMPORT, GRTC_HOST_V(e->device_allocator), GRTC_HOST_V(rodata),
      GRTC_HOST_V(grtc_host_i64(e, 0)), GRTC_HOST_V(grtc_host_i64(e, size)));
  grtc_host_begin_recording(e);
  grtc_host_place_t source, target;
  memset(&source, 0, sizeof(source));
  memset(&target, 0, sizeof(target));
  source.ref = initial;
  source.base = GRTC_HOST_NO_BASE;
  source.end = size;
  target.ref = buffer;
  target.base = GRTC_HOST_GLOBAL_BASE(g->index);
  target.end = size;
  return grtc_host_record_copy(e, &source, &target, grtc_host_i64(e, size));
}

// Globals (device, allocator, executable, constants, mutable globals) and
// the initializer that fills them once per context.
static grt_status_t grtc_host_emit_globals(grtc_host_emitter_t* e) {
  grtc_vm_builder_clear_location(e->b);
  e->device_global = grtc_vm_builder_global(e->b, grt_make_cstring_view("__device"),
                                            grtc_vm_type_ref(e->b, "!hal.device"), true);
  e->allocator_global = grtc_vm_builder_global(e->b, grt_make_cstring_view("__allocator"),
                                               grtc_vm_type_ref(e->b, "!hal.allocator"), true);
  if (e->kernels->count) {
    e->executable_global = grtc_vm_builder_global(
        e->b, grt_make_cstring_view("__executable"), grtc_vm_type_ref(e->b, "!hal.executable"),
        true);
  }
  if (e->per_variant) {
    e->variant_global = grtc_vm_builder_global(e->b, grt_make_cstring_view("__variant"),
                                               grtc_vm_type_i32(e->b), true);
  }
  if (e->splits) {
    e->concurrency_global = grtc_vm_builder_global(
        e->b, grt_make_cstring_view("__concurrency"), grtc_vm_type_i64(e->b), true);
    grtc_vm_builder_rodata_string(e->b, grt_make_cstring_view("__query_category"),
                                  grt_make_cstring_view("hal.device"));
    grtc_vm_builder_rodata_string(e->b, grt_make_cstring_view("__query_concurrency"),
                                  grt_make_cstring_view("concurrency"));
  }
  grtc_vm_builder_rodata_string(e->b, grt_make_cstring_view("__module_name"),
                                grt_make_cstring_view(e->module_name));
  grtc_block_t* entry = NULL;
  grtc_operation_t* initializer = grtc_vm_builder_initializer(e->b, &entry);
  grtc_host_begin_function(e, initializer, entry);
  // The constants' segments and globals go before the initializer.
  grtc_vm_builder_set_module_insertion(e->b, initializer);
  e->device = GRTC_HOST_CALL(e, DEVICES_GET, GRTC_HOST_V(grtc_host_i32(e, 0)));
  grtc_vm_builder_name(e->b, e->device, "device");
  grtc_vm_global_store(e->b, e->device, e->device_global);
  e->device_allocator = GRTC_HOST_CALL(e, DEVICE_ALLOCATOR, GRTC_HOST_V(e->device));
  grtc_vm_builder_name(e->b, e->device_allocator, "allocator");
  grtc_vm_global_store(e->b, e->device_allocator, e->allocator_global);
  if (e->kernels->count) {
    grtc_value_t* name = grtc_vm_const_rodata(e->b, grt_make_cstring_view("__module_name"));
    grtc_vm_builder_name(e->b, name, "name");
    grtc_value_t* executable =
        GRTC_HOST_CALL(e, EXECUTABLE_LOOKUP, GRTC_HOST_V(e->device), GRTC_HOST_V(name));
    grtc_vm_builder_name(e->b, executable, "executable");
    grtc_vm_global_store(e->b, executable, e->executable_global);
    if (e->per_variant) {
      grtc_value_t* variant =
          GRTC_HOST_CALL(e, EXECUTABLE_VARIANT, GRTC_HOST_V(e->device), GRTC_HOST_V(name));
      grtc_vm_builder_name(e->b, variant, "variant");
      grtc_vm_global_store(e->b, variant, e->variant_global);
    }
  }
  // The device's concurrency (workers, SMs), at least 1 (1 when the device
  // does not answer), for the run-time splits.
  if (e->splits) {
    grtc_value_t* category = grtc_vm_const_rodata(e->b, grt_make_cstring_view("__query_category"));
    grtc_value_t* key = grtc_vm_const_rodata(e->b, grt_make_cstring_view("__query_concurrency"));
    grtc_operation_t* query = grtc_vm_call_import(
        e->b, e->imports[GRTC_HOST_IMPORT_DEVICE_QUERY_I64],
        (grtc_vm_arg_t[]){GRTC_HOST_V(e->device), GRTC_HOST_V(category), GRTC_HOST_V(key)}, 3);
    grtc_value_t* one = grtc_host_i64(e, 1);
    grtc_value_t* concurrency = grtc_vm_binary(e->b, GRTC_VM_MAX_S, &query->results[1], one);
    grtc_value_t* answered =
        grtc_vm_compare(e->b, GRTC_VM_CMP_NE, &query->results[0], grtc_host_i32(e, 0));
    concurrency = grtc_vm_select(e->b, answered, concurrency, one);
    grtc_vm_builder_name(e->b, concurrency, "concurrency");
    grtc_vm_global_store(e->b, concurrency, e->concurrency_global);
  }
  bool symbolic = false;
  for (uint32_t k = 0; k < e->kernels->count && !symbolic; ++k) {
    symbolic = grtc_kernel_is_symbolic(e->kernels->kernels[k]);
  }
  if (symbolic) {
    static const uint8_t zeros[GRTC_HOST_EMPTY_BINDING_BYTES];
    grt_string_view_t data = grt_make_cstring_view("__empty_binding_data");
    grtc_vm_builder_rodata_bytes(e->b, data, zeros, sizeof(zeros), 64, true);
    e->empty_global = grtc_vm_builder_global(e->b, grt_make_cstring_view("__empty_binding"),
                                             e->buffer, true);
    grtc_value_t* buffer = GRTC_HOST_CALL(
        e, ALLOCATOR_IMPORT, GRTC_HOST_V(e->device_allocator),
        GRTC_HOST_V(grtc_vm_const_rodata(e->b, data)), GRTC_HOST_V(grtc_host_i64(e, 0)),
        GRTC_HOST_V(grtc_host_i64(e, GRTC_HOST_EMPTY_BINDING_BYTES)));
    grtc_vm_builder_name(e->b, buffer, "empty_binding");
    grtc_vm_global_store(e->b, buffer, e->empty_global);
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
  for (const grtc_tglobal_t* g = e->module->first_global; g && grt_status_is_ok(status);
       g = g->next) {
    status = grtc_host_emit_state_global(e, g);
  }
  grtc_host_flush(e);
  grtc_vm_builder_set_module_insertion(e->b, NULL);
  GRT_RETURN_IF_ERROR(status);
  grtc_vm_builder_clear_location(e->b);
  grtc_vm_return(e->b, NULL, 0);
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

// Builds the whole program with |b|.
static grt_status_t grtc_host_build_into(const grtc_tmodule_t* module,
                                         const grtc_kernel_set_t* kernels,
                                         const grtc_host_executable_t* executables,
                                         uint32_t executable_count,
                                         const grtc_host_options_t* options,
                                         grt_allocator_t allocator, grtc_vm_builder_t* b) {
  grtc_host_emitter_t* e = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(allocator, sizeof(*e), (void**)&e));
  e->module = module;
  e->kernels = kernels;
  e->executables = executables;
  e->executable_count = executables ? executable_count : 0;
  e->per_variant = grtc_host_counts_differ(e);
  for (uint32_t k = 0; k < kernels->count; ++k) {
    if (kernels->kernels[k]->split_max > 0) e->splits = true;
  }
  e->allocator = allocator;
  e->options = options;
  e->b = b;
  e->buffer = grtc_vm_type_ref(b, "!hal.buffer");
  e->view = grtc_vm_type_ref(b, "!hal.buffer_view");
  e->command_buffer = grtc_vm_type_ref(b, "!hal.command_buffer");
  e->fence = grtc_vm_type_ref(b, "!hal.fence");
  grtc_host_module_name(module->name, e->module_name);
  uint32_t capacity = module->next_value_id ? module->next_value_id : 1;
  grt_status_t status =
      grt_allocator_calloc(allocator, capacity * sizeof(*e->values), (void**)&e->values);
  e->sym_capacity = module->shapes ? module->shapes->sym_count : 0;
  if (grt_status_is_ok(status) && e->sym_capacity) {
    status = grt_allocator_calloc(allocator, e->sym_capacity * sizeof(*e->sym_values),
                                  (void**)&e->sym_values);
  }
  if (grt_status_is_ok(status) && e->sym_capacity) {
    status = grt_allocator_calloc(allocator, e->sym_capacity * sizeof(*e->sym_done),
                                  (void**)&e->sym_done);
  }
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator, capacity * sizeof(*e->slots), (void**)&e->slots);
  }
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator, capacity * sizeof(*e->constant_ids),
                                  (void**)&e->constant_ids);
  }
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(allocator, capacity * sizeof(*e->constant_globals),
                                  (void**)&e->constant_globals);
  }
  if (grt_status_is_ok(status)) {
    uint32_t count = module->global_count ? module->global_count : 1;
    status = grt_allocator_calloc(allocator, count * sizeof(*e->state_globals),
                                  (void**)&e->state_globals);
  }
  if (grt_status_is_ok(status)) {
    status = grtc_host_declare_imports(b, e->per_variant, e->splits,
                                       grtc_host_module_is_symbolic(module),
                                       grtc_host_module_has_checks(module), e->imports);
  }
  if (grt_status_is_ok(status)) {
    status = grtc_host_emit_globals(e);
  }
  for (const grtc_tfunc_t* func = module->first_func; func && grt_status_is_ok(status);
       func = func->next) {
    status = grtc_host_emit_buffer_function(e, func);
    if (grt_status_is_ok(status) && func->is_public) status = grtc_host_emit_export(e, func);
  }
  for (uint32_t i = 0; i < e->max_argument_count && grt_status_is_ok(status); ++i) {
    char name[32], text[32];
    int name_length = snprintf(name, sizeof(name), "__argument_%u", i);
    int text_length = snprintf(text, sizeof(text), "argument %u", i);
    grtc_vm_builder_rodata_string(b, grt_make_string_view(name, (size_t)name_length),
                                  grt_make_string_view(text, (size_t)text_length));
  }
  if (grt_status_is_ok(status)) status = grtc_vm_builder_status(b);
  if (grt_status_is_ok(status) && e->out_of_memory) {
    status = grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory emitting the host program");
  }
  grt_allocator_free(allocator, e->consts);
  grt_allocator_free(allocator, e->values);
  grt_allocator_free(allocator, e->sym_values);
  grt_allocator_free(allocator, e->sym_done);
  grt_allocator_free(allocator, e->func_syms);
  grt_allocator_free(allocator, e->sizes);
  grt_allocator_free(allocator, e->sexprs);
  grt_allocator_free(allocator, e->slots);
  grt_allocator_free(allocator, e->constant_ids);
  grt_allocator_free(allocator, e->constant_globals);
  grt_allocator_free(allocator, e->state_globals);
  grt_allocator_free(allocator, e->ranges);
  grt_allocator_free(allocator, e);
  return status;
}

// "<file> (host program)": where diagnostics and unattributed ops point.
static void grtc_host_file_name(const grtc_tmodule_t* module, char* out, size_t capacity) {
  snprintf(out, capacity, "%s (host program)", module->file_name ? module->file_name : "<module>");
}

static grt_status_t grtc_host_builder(const grtc_tmodule_t* module,
                                      const grtc_kernel_set_t* kernels,
                                      const grtc_host_executable_t* executables,
                                      uint32_t executable_count,
                                      const grtc_host_options_t* options,
                                      grt_allocator_t allocator, grtc_vm_builder_t** out_builder) {
  char module_name[GRTC_HOST_MODULE_NAME_CAPACITY];
  grtc_host_module_name(module->name, module_name);
  char file_name[600];
  grtc_host_file_name(module, file_name, sizeof(file_name));
  GRT_RETURN_IF_ERROR(grtc_vm_builder_create(module_name, file_name, allocator, out_builder));
  grt_status_t status = grtc_host_build_into(module, kernels, executables, executable_count,
                                             options, allocator, *out_builder);
  if (!grt_status_is_ok(status)) {
    grtc_vm_builder_destroy(*out_builder);
    *out_builder = NULL;
  }
  return status;
}

grt_status_t grtc_host_build(const grtc_tmodule_t* module, const grtc_kernel_set_t* kernels,
                             const grtc_host_executable_t* executables, uint32_t executable_count,
                             const grtc_host_options_t* options, grt_allocator_t allocator,
                             grtc_module_t** out_module) {
  *out_module = NULL;
  grtc_vm_builder_t* b = NULL;
  GRT_RETURN_IF_ERROR(grtc_host_builder(module, kernels, executables, executable_count, options,
                                        allocator, &b));
  *out_module = grtc_vm_builder_take_module(b);
  grtc_vm_builder_destroy(b);
  return grt_ok_status();
}

grt_status_t grtc_host_emit_text(const grtc_tmodule_t* module, const grtc_kernel_set_t* kernels,
                                 const grtc_host_executable_t* executables,
                                 uint32_t executable_count, const grtc_host_options_t* options,
                                 grt_allocator_t allocator, grt_string_builder_t* out) {
  grtc_vm_builder_t* b = NULL;
  GRT_RETURN_IF_ERROR(grtc_host_builder(module, kernels, executables, executable_count, options,
                                        allocator, &b));
  grt_status_t status = grtc_vm_print_module(grtc_vm_builder_vm_module(b), allocator, out);
  grtc_vm_builder_destroy(b);
  return status;
}

// Appends |text| to |out| (capacity |capacity|, *|used| so far), cut
// short when full.
static void grtc_host_append(char* out, size_t capacity, size_t* used, const char* format, ...)
    GRT_PRINTF_LIKE(4, 5);
static void grtc_host_append(char* out, size_t capacity, size_t* used, const char* format, ...) {
  if (*used >= capacity) return;
  va_list args;
  va_start(args, format);
  int n = vsnprintf(out + *used, capacity - *used, format, args);
  va_end(args);
  if (n > 0) *used += (size_t)n < capacity - *used ? (size_t)n : capacity - *used - 1;
}

// "?x16xf32" (a type without "tensor<" and ">").
static void grtc_host_append_type(char* out, size_t capacity, size_t* used,
                                  const grtc_tmodule_t* module, const grtc_ttype_t* type) {
  grtc_ttype_t resolved = *type;
  for (uint32_t d = 0; d < resolved.rank; ++d) {
    resolved.dims[d] = grtc_tmodule_resolve_dim(module, resolved.dims[d]);
  }
  char text[GRTC_TTYPE_FORMAT_CAPACITY];
  grtc_ttype_format(&resolved, text, sizeof(text));
  size_t length = strlen(text);
  const char* body = strncmp(text, "tensor<", 7) == 0 ? text + 7 : text;
  if (length && text[length - 1] == '>') text[length - 1] = '\0';
  grtc_host_append(out, capacity, used, "%s", body);
}

// Whether |func| has a symbolic argument or result dimension.
static bool grtc_host_function_is_symbolic(const grtc_tmodule_t* module, const grtc_tfunc_t* func) {
  for (uint32_t i = 0; i < func->body->arg_count + func->result_count; ++i) {
    const grtc_ttype_t* type = i < func->body->arg_count ? &func->body->args[i].type
                                                         : &func->result_types[i - func->body->arg_count];
    for (uint32_t d = 0; d < type->rank; ++d) {
      if (!grtc_dim_is_static(grtc_tmodule_resolve_dim(module, type->dims[d]))) return true;
    }
  }
  return false;
}

// A shape-polymorphic function's tensor signature, "(?x16xf32, 16x4xf32)
// -> ?x4xf32", and its arena in symbolic form, "64 + [32*s0] + [16*s0];
// s0: argument 0 dimension 0" ([x]: x rounded up to the alignment, at
// least one unit), for grt-dump.
static grt_status_t grtc_host_record_shapes(const grtc_tmodule_t* module,
                                            const grtc_tfunc_t* func,
                                            const grtc_memory_plan_t* plan, grt_string_view_t name,
                                            grt_module_writer_t* writer) {
  char signature[1024], text[1024];
  size_t used = 0;
  grtc_host_append(signature, sizeof(signature), &used, "(");
  for (uint32_t i = 0; i < func->body->arg_count; ++i) {
    grtc_host_append(signature, sizeof(signature), &used, "%s", i ? ", " : "");
    grtc_host_append_type(signature, sizeof(signature), &used, module, &func->body->args[i].type);
  }
  grtc_host_append(signature, sizeof(signature), &used, ") -> %s",
                   func->result_count == 1 ? "" : "(");
  for (uint32_t r = 0; r < func->result_count; ++r) {
    grtc_host_append(signature, sizeof(signature), &used, "%s", r ? ", " : "");
    grtc_host_append_type(signature, sizeof(signature), &used, module, &func->result_types[r]);
  }
  if (func->result_count != 1) grtc_host_append(signature, sizeof(signature), &used, ")");
  used = 0;
  grtc_host_append(text, sizeof(text), &used, "%lld", (long long)plan->transient_bytes);
  for (uint32_t k = 0; k < plan->slot_count; ++k) {
    char expr[GRTC_SIZE_EXPR_FORMAT_CAPACITY];
    grtc_host_append(text, sizeof(text), &used, " + [%s]",
                     grtc_size_expr_format(&plan->slots[k], expr, sizeof(expr)));
  }
  const char* separator = "; ";
  for (uint32_t id = 0; id < module->shapes->sym_count; ++id) {
    const grtc_tsym_t* sym = &module->shapes->syms[id];
    if (sym->func != func || sym->origin != GRTC_SYM_ARGUMENT ||
        grtc_tmodule_resolve_dim(module, GRTC_DIM_SYMBOL(id)) != GRTC_DIM_SYMBOL(id)) {
      continue;
    }
    grtc_host_append(text, sizeof(text), &used, "%ss%u: argument %u dimension %u", separator, id,
                     sym->index, sym->axis);
    separator = ", ";
  }
  return grt_module_writer_set_function_shapes(writer, name, grt_make_cstring_view(signature),
                                               grt_make_cstring_view(text));
}

// Records each function's transient arena size (and, for a
// shape-polymorphic function, its tensor signature and symbolic plan) on
// its buffer function and its export.
static grt_status_t grtc_host_record_transient_sizes(const grtc_tmodule_t* module,
                                                     grt_allocator_t allocator,
                                                     grt_module_writer_t* writer) {
  for (const grtc_tfunc_t* func = module->first_func; func; func = func->next) {
    grtc_memory_plan_t plan;
    GRT_RETURN_IF_ERROR(grtc_memory_plan_build(module, func, allocator, &plan));
    uint64_t bytes = (uint64_t)plan.transient_bytes;
    char name[1024];
    snprintf(name, sizeof(name), "%.*s$buffers", GRT_SV_ARG(func->name));
    grt_status_t status = grt_module_writer_set_function_transient_bytes(
        writer, grt_make_cstring_view(name), bytes);
    if (grt_status_is_ok(status) && func->is_public) {
      status = grt_module_writer_set_function_transient_bytes(writer, func->name, bytes);
    }
    if (grt_status_is_ok(status) && grtc_host_function_is_symbolic(module, func)) {
      status = grtc_host_record_shapes(module, func, &plan, grt_make_cstring_view(name), writer);
      if (grt_status_is_ok(status) && func->is_public) {
        status = grtc_host_record_shapes(module, func, &plan, func->name, writer);
      }
    }
    grtc_memory_plan_deinit(&plan);
    GRT_RETURN_IF_ERROR(status);
  }
  return grt_ok_status();
}

grt_status_t grtc_host_emit(const grtc_tmodule_t* module, const grtc_kernel_set_t* kernels,
                            const grtc_host_executable_t* executables, uint32_t executable_count,
                            const grtc_host_options_t* options, grt_allocator_t allocator,
                            grt_module_writer_t* writer,
                            grt_string_builder_t* optional_vm_text_out) {
  grtc_vm_builder_t* builder = NULL;
  grt_status_t status = grtc_host_builder(module, kernels, executables, executable_count, options,
                                          allocator, &builder);
  if (grt_status_is_ok(status) && optional_vm_text_out) {
    status = grtc_vm_print_module(grtc_vm_builder_vm_module(builder), allocator,
                                  optional_vm_text_out);
  }
  if (grt_status_is_ok(status)) {
    char file_name[600];
    grtc_host_file_name(module, file_name, sizeof(file_name));
    status = grtc_vm_assemble(grtc_vm_builder_vm_module(builder), file_name, allocator, writer);
  }
  grtc_vm_builder_destroy(builder);
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
    // The symbolic extents, then a run-time split.
    entries[i].constant_count = kernel->extent_count + (kernel->split_max > 0 ? 1u : 0u);
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
    // The program's workgroup counts name executables by this index.
    if (grt_status_is_ok(status) && ordinal != i) {
      status = grt_make_status(GRT_STATUS_INTERNAL,
                               "executable %u (%s) became the module file's executable %u; the "
                               "host program's workgroup counts expect %u",
                               i, executables[i].format, ordinal, i);
    }
  }
  grt_allocator_free(allocator, entries);
  return status;
}

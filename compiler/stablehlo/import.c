// Import: the parsed generic IR (compiler/mlir) into the tensor IR.
//
// Which source op becomes which tensor op is one table (grtc_import_ops)
// plus the tensor IR's own names (stablehlo.add is GRTC_TOP_ADD by name);
// attributes are decoded per tensor op kind in one place
// (grtc_import_attrs), so a stablehlo op and the arith op that maps onto it
// share the decoding. Scalars (i32, f32, index) become rank-0 tensors and
// index becomes i64, so arith and tensor.extract need no ops of their own.
#include "compiler/stablehlo/import.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/name_index.h"
#include "compiler/mlir/printer.h"
#include "compiler/stablehlo/attrs.h"
#include "compiler/stablehlo/complex.h"
#include "compiler/stablehlo/fft.h"
#include "compiler/stablehlo/compose.h"
#include "compiler/stablehlo/f8.h"
#include "compiler/stablehlo/lapack.h"
#include "compiler/stablehlo/quant.h"
#include "compiler/tensor/eval.h"

// Default tolerance of check.expect_almost_eq (IREE's).
#define GRTC_IMPORT_DEFAULT_ATOL 1e-4
// The StableHLO interpreter's tolerance for custom_call
// @check.expect_almost_eq (stablehlo-translate --interpret).
#define GRTC_IMPORT_CUSTOM_CALL_ATOL 1e-3

typedef struct grtc_value_slot_t {
  const void* key;
  void* value;
} grtc_value_slot_t;

// An open-addressing map (power-of-two capacity) from source IR pointers to
// what they became.
typedef struct grtc_pointer_map_t {
  grtc_value_slot_t* slots;
  uint32_t capacity;
  uint32_t count;
} grtc_pointer_map_t;

// An interpreter.probe id: the globals keeping the values it recorded
// (GRTC_IMPORT_PROBE_SLOTS of them, the last one where later recordings
// land) and how many times it ran.
#define GRTC_IMPORT_MAX_PROBES 32
#define GRTC_IMPORT_PROBE_SLOTS 16
typedef struct grtc_import_probe_t {
  grt_string_view_t id;
  grtc_ttype_t type;  // of one recorded value
  const grtc_tglobal_t* values;
  const grtc_tglobal_t* count;
} grtc_import_probe_t;

typedef struct grtc_import_t {
  const grtc_module_t* source;
  grtc_tmodule_t* module;
  grt_allocator_t allocator;
  grtc_pointer_map_t values;     // grtc_value_t -> grtc_tvalue_t
  grtc_pointer_map_t locations;  // source locations -> copies in the module
  grtc_tfunc_t* func;            // the function being imported
  // Module-level util.global / ml_program.global ops (|global_index|: their
  // sym_name -> index in |globals|), and the values util.global.address
  // gave (-> the grtc_operation_t of their global).
  const grtc_operation_t** globals;
  uint32_t global_count;
  grt_name_index_t global_index;
  grtc_pointer_map_t addresses;
  // While a stablehlo.map body is imported: the map's result type, whose
  // shape every elementwise op of the body takes (NULL otherwise).
  const grtc_ttype_t* map_shape;
  grt_string_view_t map_owner;  // the op whose body that is (for messages)
  // The module's func.func ops (|func_index|: sym_name -> index in
  // |funcs|; the first of a repeated name), and how deep the importer is
  // in regions computed per element (reduce, reduce_window, scatter, sort
  // bodies: a func.call there is inlined) and in such inlined calls.
  const grtc_operation_t** funcs;
  uint32_t func_count;
  grt_name_index_t func_index;
  uint32_t scalar_region_depth;
  uint32_t inline_depth;
  // stablehlo.tuple results -> their grtc_import_tuple_t.
  grtc_pointer_map_t tuples;
  // Complex values -> their parts (grtc_complex_t, complex.h).
  grtc_pointer_map_t complex_values;
  // stablehlo.rng ops imported so far (each one's ordinal keys its numbers).
  uint64_t rng_count;
  // interpreter.probe ids seen so far.
  grtc_import_probe_t probes[GRTC_IMPORT_MAX_PROBES];
  uint32_t probe_count;
} grtc_import_t;

// A tuple's elements: stablehlo.tuple packs imported values, and
// stablehlo.get_tuple_element takes one back out. Tuples exist only
// between the two (not as arguments, results or loop-carried values).
typedef struct grtc_import_tuple_t {
  uint32_t count;
  grtc_tvalue_t* values[];
} grtc_import_tuple_t;

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

// At |op|'s loc(...) file position when it has one, else where its name was
// written: the same rule as grtc_top_error.
static grt_status_t grtc_import_error(const grtc_import_t* ctx,
                                      const grtc_operation_t* op,
                                      const char* format, ...)
    GRT_PRINTF_LIKE(3, 4);
static grt_status_t grtc_import_error(const grtc_import_t* ctx,
                                      const grtc_operation_t* op,
                                      const char* format, ...) {
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  grt_string_view_t file;
  uint32_t line = 0, column = 0;
  if (op->location && grtc_location_file_position(op->location, &file, &line, &column)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT, "%.*s:%u:%u: error: %s",
                           (int)file.size, file.data, line, column, message);
  }
  return grtc_op_error(ctx->source->file_name, op, "%s", message);
}

// |status| (a message without a position) as an error at |op|.
static grt_status_t grtc_import_at(const grtc_import_t* ctx, const grtc_operation_t* op,
                                   grt_status_t status) {
  if (grt_status_is_ok(status)) return status;
  grt_status_t error = grtc_import_error(ctx, op, "%s", grt_status_message(status));
  grt_status_free(status);
  return error;
}

static grt_status_t grtc_import_oom(void) {
  return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED, "out of memory importing");
}

//===----------------------------------------------------------------------===//
// Value map
//===----------------------------------------------------------------------===//

static uint32_t grtc_import_hash(const void* key) {
  uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(h >> 32);
}

static grt_status_t grtc_map_put(grt_allocator_t allocator, grtc_pointer_map_t* map,
                                 const void* key, void* value) {
  if ((map->count + 1) * 2 > map->capacity) {
    uint32_t capacity = map->capacity ? map->capacity * 2 : 256;
    grtc_value_slot_t* slots = NULL;
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(allocator, capacity * sizeof(*slots),
                                             (void**)&slots));
    memset(slots, 0, capacity * sizeof(*slots));
    for (uint32_t i = 0; i < map->capacity; ++i) {
      if (!map->slots[i].key) continue;
      uint32_t j = grtc_import_hash(map->slots[i].key) & (capacity - 1);
      while (slots[j].key) j = (j + 1) & (capacity - 1);
      slots[j] = map->slots[i];
    }
    grt_allocator_free(allocator, map->slots);
    map->slots = slots;
    map->capacity = capacity;
  }
  uint32_t j = grtc_import_hash(key) & (map->capacity - 1);
  while (map->slots[j].key && map->slots[j].key != key) j = (j + 1) & (map->capacity - 1);
  if (!map->slots[j].key) ++map->count;
  map->slots[j].key = key;
  map->slots[j].value = value;
  return grt_ok_status();
}

static void* grtc_map_get(const grtc_pointer_map_t* map, const void* key) {
  if (!map->capacity) return NULL;
  uint32_t j = grtc_import_hash(key) & (map->capacity - 1);
  while (map->slots[j].key) {
    if (map->slots[j].key == key) return map->slots[j].value;
    j = (j + 1) & (map->capacity - 1);
  }
  return NULL;
}

static grt_status_t grtc_import_map(grtc_import_t* ctx, const grtc_value_t* key,
                                    grtc_tvalue_t* value) {
  return grtc_map_put(ctx->allocator, &ctx->values, key, value);
}

static grtc_tvalue_t* grtc_import_lookup(const grtc_import_t* ctx,
                                         const grtc_value_t* key) {
  return grtc_map_get(&ctx->values, key);
}

// Locations are copied into the tensor module (aliases resolved, metadata
// dropped) so it outlives the parsed module; shared ones stay shared.
#define GRTC_IMPORT_MAX_LOCATION_DEPTH 64

static grt_status_t grtc_import_location(grtc_import_t* ctx,
                                         const grtc_location_t* location,
                                         uint32_t depth,
                                         const grtc_location_t** out) {
  *out = NULL;
  while (location && location->kind == GRTC_LOC_ALIAS) location = location->resolved;
  if (!location || depth > GRTC_IMPORT_MAX_LOCATION_DEPTH) return grt_ok_status();
  const grtc_location_t* existing = grtc_map_get(&ctx->locations, location);
  if (existing) {
    *out = existing;
    return grt_ok_status();
  }
  grtc_location_t* copy = grtc_tmodule_alloc(ctx->module, sizeof(*copy));
  if (!copy) return grtc_import_oom();
  *copy = *location;
  copy->metadata = NULL;
  copy->resolved = NULL;
  copy->children = NULL;
  copy->child_count = 0;
  if (location->text.size) {
    char* text = grtc_tmodule_alloc(ctx->module, location->text.size + 1);
    if (!text) return grtc_import_oom();
    memcpy(text, location->text.data, location->text.size);
    copy->text = grt_make_string_view(text, location->text.size);
  }
  if (location->child_count) {
    const grtc_location_t** children =
        grtc_tmodule_alloc(ctx->module, location->child_count * sizeof(*children));
    if (!children) return grtc_import_oom();
    for (uint32_t i = 0; i < location->child_count; ++i) {
      GRT_RETURN_IF_ERROR(grtc_import_location(ctx, location->children[i], depth + 1,
                                               &children[i]));
    }
    copy->children = children;
    copy->child_count = location->child_count;
  }
  GRT_RETURN_IF_ERROR(grtc_map_put(ctx->allocator, &ctx->locations, location, copy));
  *out = copy;
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static bool grtc_import_is_complex(const grtc_type_t* type);

static bool grtc_import_elem(const grtc_type_t* type, grtc_elem_t* out) {
  switch (type->kind) {
    case GRTC_TYPE_INDEX:
      *out = GRTC_ELEM_I64;
      return true;
    case GRTC_TYPE_FLOAT: {
      static const grtc_elem_t floats[] = {GRTC_ELEM_F16, GRTC_ELEM_BF16, GRTC_ELEM_F32,
                                           GRTC_ELEM_F64};
      // The 8-bit floats are held as their bit patterns in ui8 (f8.h).
      *out = grtc_float_kind_is_f8(type->float_kind) ? GRTC_ELEM_U8
                                                     : floats[type->float_kind];
      return true;
    }
    case GRTC_TYPE_INTEGER: {
      bool is_unsigned = type->integer.signedness == GRTC_UNSIGNED;
      switch (type->integer.width) {
        case 1: *out = GRTC_ELEM_I1; return !is_unsigned;
        // i2 and i4 are held one per byte (quant.h, grtc_narrow_int_bits).
        case 2:
        case 4: *out = is_unsigned ? GRTC_ELEM_U8 : GRTC_ELEM_I8; return true;
        case 8: *out = is_unsigned ? GRTC_ELEM_U8 : GRTC_ELEM_I8; return true;
        case 16: *out = is_unsigned ? GRTC_ELEM_U16 : GRTC_ELEM_I16; return true;
        case 32: *out = is_unsigned ? GRTC_ELEM_U32 : GRTC_ELEM_I32; return true;
        case 64: *out = is_unsigned ? GRTC_ELEM_U64 : GRTC_ELEM_I64; return true;
        default: return false;
      }
    }
    default:
      return false;
  }
}

// A ranked tensor or a scalar (a rank-0 tensor). A "?" dimension comes out
// as GRTC_DYNAMIC_DIM, which the caller turns into a symbol
// (grtc_import_symbols) or refuses (grtc_import_static).
static grt_status_t grtc_import_type(const grtc_import_t* ctx,
                                     const grtc_operation_t* op,
                                     const grtc_type_t* type, grtc_ttype_t* out) {
  memset(out, 0, sizeof(*out));
  bool ok = false;
  const grtc_type_t* quant = grtc_quant_element(type);
  grtc_quant_type_t qtype;
  if (quant) {
    GRT_RETURN_IF_ERROR(
        grtc_import_at(ctx, op, grtc_quant_parse(quant->opaque, ctx->module, &qtype)));
  }
  if (quant && type->kind != GRTC_TYPE_TENSOR) {
    return grtc_import_error(ctx, op, "quantized type '%.*s' must be a tensor's "
                             "element type", GRT_SV_ARG(quant->opaque));
  }
  if (type->kind == GRTC_TYPE_TENSOR) {
    ok = type->shaped.ranked && type->shaped.rank <= GRTC_MAX_RANK &&
         !type->shaped.encoding && type->shaped.element;
    const grtc_type_t* element = ok ? type->shaped.element : NULL;
    bool is_complex = element && element->kind == GRTC_TYPE_COMPLEX;
    if (is_complex) {
      // Interleaved (re, im): an fN tensor with a trailing 2 (complex.h).
      element = element->element;
      ok = element && grtc_type_element_byte_size(type->shaped.element) != 0 &&
           type->shaped.rank < GRTC_MAX_RANK;
    }
    if (ok && quant) {
      // A quantized tensor is its storage integers in the tensor IR.
      out->elem = qtype.storage;
    } else if (ok) {
      ok = grtc_import_elem(element, &out->elem);
    }
    for (uint32_t i = 0; ok && i < type->shaped.rank; ++i) {
      ok = type->shaped.dims[i] >= 0 || type->shaped.dims[i] == GRTC_DYNAMIC_DIM;
      out->dims[i] = type->shaped.dims[i];
    }
    out->rank = type->shaped.rank;
    if (ok && is_complex) out->dims[out->rank++] = 2;
    if (ok && quant && qtype.per_axis && (uint32_t)qtype.axis >= out->rank) {
      return grtc_import_error(ctx, op, "quantized type '%.*s': quantization dimension "
                               "%lld is out of range for a rank-%u tensor",
                               GRT_SV_ARG(quant->opaque), (long long)qtype.axis,
                               out->rank);
    }
    if (ok && quant && qtype.per_axis && out->dims[qtype.axis] >= 0 &&
        out->dims[qtype.axis] != qtype.count) {
      return grtc_import_error(ctx, op, "quantized type '%.*s' has %u scales but "
                               "dimension %lld has size %lld (one per slice)",
                               GRT_SV_ARG(quant->opaque), qtype.count,
                               (long long)qtype.axis, (long long)out->dims[qtype.axis]);
    }
  } else if (type->kind == GRTC_TYPE_OPAQUE &&
             grt_string_view_equal_cstring(type->opaque, "!stablehlo.token")) {
    // Tokens only order side effects; they travel as empty tensors.
    out->elem = GRTC_ELEM_I1;
    out->rank = 1;
    out->dims[0] = 0;
    ok = true;
  } else {
    ok = grtc_import_elem(type, &out->elem);
  }
  // Later stages compute sizes and strides in int64_t; keep them far from
  // overflow (zero dimensions count as one: strides still multiply the rest).
  bool too_large = false;
  uint64_t bytes = ok ? grtc_elem_byte_size(out->elem) : 0;
  for (uint32_t i = 0; ok && !too_large && i < out->rank; ++i) {
    uint64_t dim = out->dims[i] > 0 ? (uint64_t)out->dims[i] : 1;
    too_large = bytes > (UINT64_C(1) << 56) / dim;
    bytes *= dim;
  }
  if (ok && !too_large) return grt_ok_status();
  char spelled[160];
  size_t length = grtc_format_type(type, spelled, sizeof(spelled));
  if (length >= sizeof(spelled)) memcpy(spelled + sizeof(spelled) - 4, "...", 4);
  if (too_large) {
    return grtc_import_error(ctx, op, "type '%s' is too large (2^56 bytes at most)",
                             spelled);
  }
  return grtc_import_error(ctx, op, "type '%s' is not supported%s", spelled,
                           type->kind == GRTC_TYPE_TENSOR && type->shaped.ranked &&
                                   type->shaped.rank > GRTC_MAX_RANK
                               ? " (rank above 8)"
                               : "");
}

static bool grtc_import_has_dynamic(const grtc_ttype_t* types, uint32_t count) {
  for (uint32_t t = 0; t < count; ++t) {
    for (uint32_t i = 0; i < types[t].rank; ++i) {
      if (types[t].dims[i] == GRTC_DYNAMIC_DIM) return true;
    }
  }
  return false;
}

// Refuses "?" where the importer has no symbol for it.
static grt_status_t grtc_import_static(const grtc_import_t* ctx,
                                       const grtc_operation_t* op, const char* where,
                                       const grtc_ttype_t* types, uint32_t count) {
  if (!grtc_import_has_dynamic(types, count)) return grt_ok_status();
  return grtc_import_error(ctx, op, "'%.*s' with a symbolic dimension ('?') in its "
                           "%s is not supported yet", GRT_SV_ARG(op->name), where);
}

// Each "?" in |type| becomes a new symbol (docs/compiler.md "Symbolic
// shapes") of |origin| (argument or result |index| of |op| or the function).
static grt_status_t grtc_import_symbols(grtc_import_t* ctx, grtc_tsym_origin_t origin,
                                        const grtc_top_t* op, uint32_t index,
                                        grtc_ttype_t* type) {
  for (uint32_t i = 0; i < type->rank; ++i) {
    if (type->dims[i] != GRTC_DYNAMIC_DIM) continue;
    GRT_RETURN_IF_ERROR(grtc_tmodule_new_symbol(ctx->module, ctx->func, origin, op,
                                                index, i, &type->dims[i]));
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// The op table
//===----------------------------------------------------------------------===//

typedef enum grtc_import_rule_e {
  GRTC_IMPORT_PLAIN,          // operands, results and attributes as they are
  GRTC_IMPORT_DOT,            // stablehlo.dot: contract lhs last with rhs first
  GRTC_IMPORT_BROADCAST,      // stablehlo.broadcast: sizes prepended
  GRTC_IMPORT_CMPI,           // arith.cmpi predicate
  GRTC_IMPORT_CMPF,           // arith.cmpf predicate
  GRTC_IMPORT_SIGNED_CAST,    // extsi, sitofp: i1 sources would read as -1
  GRTC_IMPORT_UNSIGNED_CAST,  // extui, uitofp, index_castui: zero-extending
  GRTC_IMPORT_UNFOLDABLE,     // util.unfoldable_constant
  GRTC_IMPORT_PLACEHOLDER,    // tensor.empty, tokens: zeros of the result type
  GRTC_IMPORT_CHECK_CONST,    // check.*_const: CONSTANT + the check
  GRTC_IMPORT_EXTRACT,        // tensor.extract
  GRTC_IMPORT_CUSTOM_CALL,    // stablehlo.custom_call @check.*
  GRTC_IMPORT_DYNAMIC_OPERAND,  // dynamic_gather, dynamic_conv: a constant last operand
  GRTC_IMPORT_SET_DIMENSION_SIZE,  // as a real_dynamic_slice [0:size] of the dimension
  GRTC_IMPORT_DYNAMIC_CONSTANT,  // flow.tensor.dynamic_constant: unfoldable, value's shape
  GRTC_IMPORT_TENSOR_CAST,       // tensor.cast between static and '?' dimensions
} grtc_import_rule_t;

typedef struct grtc_import_op_t {
  const char* name;
  grtc_top_kind_t kind;
  grtc_import_rule_t rule;
} grtc_import_op_t;

// Source ops whose name is not their tensor op's name.
static const grtc_import_op_t grtc_import_ops[] = {
    {"stablehlo.dot", GRTC_TOP_DOT_GENERAL, GRTC_IMPORT_DOT},
    {"stablehlo.broadcast", GRTC_TOP_BROADCAST_IN_DIM, GRTC_IMPORT_BROADCAST},
    {"util.optimization_barrier", GRTC_TOP_OPTIMIZATION_BARRIER, GRTC_IMPORT_PLAIN},
    {"util.unfoldable_constant", GRTC_TOP_CONSTANT, GRTC_IMPORT_UNFOLDABLE},
    {"flow.tensor.dynamic_constant", GRTC_TOP_CONSTANT, GRTC_IMPORT_DYNAMIC_CONSTANT},
    // A cast changes no element: a same-type convert, whose operand and
    // result dimensions verification relates (a '?' takes the other side's
    // size or symbol).
    {"tensor.cast", GRTC_TOP_CONVERT, GRTC_IMPORT_TENSOR_CAST},
    {"tensor.empty", GRTC_TOP_CONSTANT, GRTC_IMPORT_PLACEHOLDER},
    {"stablehlo.after_all", GRTC_TOP_CONSTANT, GRTC_IMPORT_PLACEHOLDER},
    {"stablehlo.create_token", GRTC_TOP_CONSTANT, GRTC_IMPORT_PLACEHOLDER},
    {"stablehlo.custom_call", GRTC_TOP_CHECK_EQ, GRTC_IMPORT_CUSTOM_CALL},
    // A composite runs its decomposition function (the name and
    // composite_attributes only say what it stands for).
    {"stablehlo.composite", GRTC_TOP_CALL, GRTC_IMPORT_PLAIN},
    {"tensor.extract", GRTC_TOP_DYNAMIC_SLICE, GRTC_IMPORT_EXTRACT},
    {"stablehlo.dynamic_gather", GRTC_TOP_GATHER, GRTC_IMPORT_DYNAMIC_OPERAND},
    {"stablehlo.dynamic_conv", GRTC_TOP_CONVOLUTION, GRTC_IMPORT_DYNAMIC_OPERAND},
    {"stablehlo.set_dimension_size", GRTC_TOP_REAL_DYNAMIC_SLICE,
     GRTC_IMPORT_SET_DIMENSION_SIZE},
    {"check.expect_eq_const", GRTC_TOP_CHECK_EQ, GRTC_IMPORT_CHECK_CONST},
    {"check.expect_almost_eq_const", GRTC_TOP_CHECK_ALMOST_EQ, GRTC_IMPORT_CHECK_CONST},
    // The check dialect's first spellings, in older StableHLO interpreter
    // tests: check.eq / check.almost_eq %x, dense<...> : T compare with a
    // constant.
    {"check.eq", GRTC_TOP_CHECK_EQ, GRTC_IMPORT_CHECK_CONST},
    {"check.almost_eq", GRTC_TOP_CHECK_ALMOST_EQ, GRTC_IMPORT_CHECK_CONST},
    {"arith.constant", GRTC_TOP_CONSTANT, GRTC_IMPORT_PLAIN},
    {"arith.addf", GRTC_TOP_ADD, GRTC_IMPORT_PLAIN},
    {"arith.addi", GRTC_TOP_ADD, GRTC_IMPORT_PLAIN},
    {"arith.subf", GRTC_TOP_SUBTRACT, GRTC_IMPORT_PLAIN},
    {"arith.subi", GRTC_TOP_SUBTRACT, GRTC_IMPORT_PLAIN},
    {"arith.mulf", GRTC_TOP_MULTIPLY, GRTC_IMPORT_PLAIN},
    {"arith.muli", GRTC_TOP_MULTIPLY, GRTC_IMPORT_PLAIN},
    {"arith.divf", GRTC_TOP_DIVIDE, GRTC_IMPORT_PLAIN},
    {"arith.divsi", GRTC_TOP_DIVIDE, GRTC_IMPORT_PLAIN},
    {"arith.remf", GRTC_TOP_REMAINDER, GRTC_IMPORT_PLAIN},
    {"arith.remsi", GRTC_TOP_REMAINDER, GRTC_IMPORT_PLAIN},
    {"arith.maximumf", GRTC_TOP_MAXIMUM, GRTC_IMPORT_PLAIN},
    {"arith.minimumf", GRTC_TOP_MINIMUM, GRTC_IMPORT_PLAIN},
    {"arith.maxsi", GRTC_TOP_MAXIMUM, GRTC_IMPORT_PLAIN},
    {"arith.minsi", GRTC_TOP_MINIMUM, GRTC_IMPORT_PLAIN},
    {"arith.andi", GRTC_TOP_AND, GRTC_IMPORT_PLAIN},
    {"arith.ori", GRTC_TOP_OR, GRTC_IMPORT_PLAIN},
    {"arith.xori", GRTC_TOP_XOR, GRTC_IMPORT_PLAIN},
    {"arith.shli", GRTC_TOP_SHIFT_LEFT, GRTC_IMPORT_PLAIN},
    {"arith.shrsi", GRTC_TOP_SHIFT_RIGHT_ARITHMETIC, GRTC_IMPORT_PLAIN},
    {"arith.shrui", GRTC_TOP_SHIFT_RIGHT_LOGICAL, GRTC_IMPORT_PLAIN},
    {"arith.negf", GRTC_TOP_NEGATE, GRTC_IMPORT_PLAIN},
    {"arith.select", GRTC_TOP_SELECT, GRTC_IMPORT_PLAIN},
    // math's scalar functions are the elementwise ops of the same meaning.
    {"math.absf", GRTC_TOP_ABS, GRTC_IMPORT_PLAIN},
    {"math.absi", GRTC_TOP_ABS, GRTC_IMPORT_PLAIN},
    {"math.exp", GRTC_TOP_EXPONENTIAL, GRTC_IMPORT_PLAIN},
    {"math.expm1", GRTC_TOP_EXPONENTIAL_MINUS_ONE, GRTC_IMPORT_PLAIN},
    {"math.log", GRTC_TOP_LOG, GRTC_IMPORT_PLAIN},
    {"math.log1p", GRTC_TOP_LOG_PLUS_ONE, GRTC_IMPORT_PLAIN},
    {"math.sqrt", GRTC_TOP_SQRT, GRTC_IMPORT_PLAIN},
    {"math.rsqrt", GRTC_TOP_RSQRT, GRTC_IMPORT_PLAIN},
    {"math.cbrt", GRTC_TOP_CBRT, GRTC_IMPORT_PLAIN},
    {"math.tanh", GRTC_TOP_TANH, GRTC_IMPORT_PLAIN},
    {"math.sin", GRTC_TOP_SINE, GRTC_IMPORT_PLAIN},
    {"math.cos", GRTC_TOP_COSINE, GRTC_IMPORT_PLAIN},
    {"math.tan", GRTC_TOP_TAN, GRTC_IMPORT_PLAIN},
    {"math.floor", GRTC_TOP_FLOOR, GRTC_IMPORT_PLAIN},
    {"math.ceil", GRTC_TOP_CEIL, GRTC_IMPORT_PLAIN},
    {"math.round", GRTC_TOP_ROUND_NEAREST_AFZ, GRTC_IMPORT_PLAIN},
    {"math.roundeven", GRTC_TOP_ROUND_NEAREST_EVEN, GRTC_IMPORT_PLAIN},
    {"math.powf", GRTC_TOP_POWER, GRTC_IMPORT_PLAIN},
    {"math.atan2", GRTC_TOP_ATAN2, GRTC_IMPORT_PLAIN},
    {"math.ctpop", GRTC_TOP_POPCNT, GRTC_IMPORT_PLAIN},
    {"math.ctlz", GRTC_TOP_COUNT_LEADING_ZEROS, GRTC_IMPORT_PLAIN},
    {"arith.cmpi", GRTC_TOP_COMPARE, GRTC_IMPORT_CMPI},
    {"arith.cmpf", GRTC_TOP_COMPARE, GRTC_IMPORT_CMPF},
    {"arith.extf", GRTC_TOP_CONVERT, GRTC_IMPORT_PLAIN},
    {"arith.truncf", GRTC_TOP_CONVERT, GRTC_IMPORT_PLAIN},
    {"arith.extsi", GRTC_TOP_CONVERT, GRTC_IMPORT_SIGNED_CAST},
    {"arith.trunci", GRTC_TOP_CONVERT, GRTC_IMPORT_PLAIN},
    {"arith.sitofp", GRTC_TOP_CONVERT, GRTC_IMPORT_SIGNED_CAST},
    {"arith.fptosi", GRTC_TOP_CONVERT, GRTC_IMPORT_PLAIN},
    {"arith.index_cast", GRTC_TOP_CONVERT, GRTC_IMPORT_PLAIN},
    {"arith.extui", GRTC_TOP_CONVERT, GRTC_IMPORT_UNSIGNED_CAST},
    {"arith.uitofp", GRTC_TOP_CONVERT, GRTC_IMPORT_UNSIGNED_CAST},
    {"arith.index_castui", GRTC_TOP_CONVERT, GRTC_IMPORT_UNSIGNED_CAST},
    {"arith.bitcast", GRTC_TOP_BITCAST_CONVERT, GRTC_IMPORT_PLAIN},
};

static bool grtc_import_find_op(grt_string_view_t name, grtc_import_op_t* out) {
  for (size_t i = 0; i < sizeof(grtc_import_ops) / sizeof(grtc_import_ops[0]); ++i) {
    if (grt_string_view_equal_cstring(name, grtc_import_ops[i].name)) {
      *out = grtc_import_ops[i];
      return true;
    }
  }
  grtc_top_kind_t kind;
  if (grtc_top_kind_from_name(name, &kind) && kind != GRTC_TOP_DISPATCH) {
    out->name = NULL;
    out->kind = kind;
    out->rule = GRTC_IMPORT_PLAIN;
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// Decoders report into this and the importer places the message at the op.
#define GRTC_IMPORT_CHECK(ctx, op, decoded, error)                        \
  do {                                                                    \
    if (!(decoded)) return grtc_import_error((ctx), (op), "%s", (error).message); \
  } while (0)

static grt_status_t grtc_import_required(const grtc_import_t* ctx,
                                         const grtc_operation_t* op,
                                         const char* name,
                                         const grtc_attribute_t** out) {
  *out = grtc_operation_attribute(op, name);
  if (*out) return grt_ok_status();
  return grtc_import_error(ctx, op, "'%.*s' requires the '%s' attribute",
                           GRT_SV_ARG(op->name), name);
}

static grt_status_t grtc_import_list(grtc_import_t* ctx, const grtc_operation_t* op,
                                     const char* name, bool required,
                                     grtc_i64s_t* out) {
  const grtc_attribute_t* attr = grtc_operation_attribute(op, name);
  if (!attr) {
    if (!required) return grt_ok_status();
    return grtc_import_required(ctx, op, name, &attr);
  }
  grtc_attr_error_t error;
  GRTC_IMPORT_CHECK(ctx, op, grtc_attr_i64s(ctx->module, attr, name, out, &error), error);
  return grt_ok_status();
}

static grt_status_t grtc_import_int(grtc_import_t* ctx, const grtc_operation_t* op,
                                    const char* name, bool required, int64_t* out) {
  const grtc_attribute_t* attr = grtc_operation_attribute(op, name);
  if (!attr) {
    if (!required) return grt_ok_status();
    return grtc_import_required(ctx, op, name, &attr);
  }
  grtc_attr_error_t error;
  GRTC_IMPORT_CHECK(ctx, op, grtc_attr_i64(attr, name, out, &error), error);
  return grt_ok_status();
}

static grt_status_t grtc_import_flag(grtc_import_t* ctx, const grtc_operation_t* op,
                                     const char* name, bool* out) {
  const grtc_attribute_t* attr = grtc_operation_attribute(op, name);
  if (!attr) return grt_ok_status();
  grtc_attr_error_t error;
  GRTC_IMPORT_CHECK(ctx, op, grtc_attr_bool(attr, name, out, &error), error);
  return grt_ok_status();
}

static grtc_i64s_t grtc_import_fill(grtc_import_t* ctx, uint32_t count, int64_t value) {
  int64_t values[GRTC_MAX_RANK];
  if (count > GRTC_MAX_RANK) count = GRTC_MAX_RANK;
  for (uint32_t i = 0; i < count; ++i) values[i] = value;
  return grtc_tmodule_i64s(ctx->module, values, count);
}

// A list that must have |count| values, or |fill| each when absent.
static grt_status_t grtc_import_list_or(grtc_import_t* ctx, const grtc_operation_t* op,
                                        const char* name, uint32_t count, int64_t fill,
                                        grtc_i64s_t* out) {
  out->count = 0;
  GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, name, false, out));
  if (!grtc_operation_attribute(op, name)) {
    *out = grtc_import_fill(ctx, count, fill);
    return grt_ok_status();
  }
  if (out->count != count) {
    return grtc_import_error(ctx, op, "'%s' has %u values; expected %u", name,
                             out->count, count);
  }
  return grt_ok_status();
}

// padding = dense<[[l, h], ...]> : tensor<Nx2xi64>, zeros when absent.
static grt_status_t grtc_import_padding(grtc_import_t* ctx, const grtc_operation_t* op,
                                        uint32_t count, grtc_i64s_t* low,
                                        grtc_i64s_t* high) {
  const grtc_attribute_t* attr = grtc_operation_attribute(op, "padding");
  if (!attr) {
    *low = grtc_import_fill(ctx, count, 0);
    *high = grtc_import_fill(ctx, count, 0);
    return grt_ok_status();
  }
  // A Nx2 dense literal reads as a flat list of 2N once its shape is checked.
  bool shaped = attr->kind == GRTC_ATTR_DENSE_ELEMENTS && attr->type &&
                attr->type->kind == GRTC_TYPE_TENSOR && attr->type->shaped.ranked &&
                attr->type->shaped.rank == 2 && attr->type->shaped.dims[0] == count &&
                attr->type->shaped.dims[1] == 2;
  if (!shaped) {
    char spelled[128];
    grtc_format_attribute(attr, spelled, sizeof(spelled));
    return grtc_import_error(ctx, op, "'padding' must be dense<[[low, high], ...]> "
                             ": tensor<%ux2xi64>, found %s", count, spelled);
  }
  grtc_attribute_t flat = *attr;
  grtc_type_t flat_type = *attr->type;
  int64_t flat_dim = 2 * (int64_t)count;
  flat_type.shaped.rank = 1;
  flat_type.shaped.dims = &flat_dim;
  flat.type = &flat_type;
  grtc_i64s_t pairs;
  grtc_attr_error_t error;
  GRTC_IMPORT_CHECK(ctx, op, grtc_attr_i64s(ctx->module, &flat, "padding", &pairs, &error),
                    error);
  if (pairs.count != 2 * count) {
    return grtc_import_error(ctx, op, "'padding' holds %u values; expected %u",
                             pairs.count, 2 * count);
  }
  int64_t lows[GRTC_MAX_RANK], highs[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < count && i < GRTC_MAX_RANK; ++i) {
    lows[i] = pairs.values[2 * i];
    highs[i] = pairs.values[2 * i + 1];
  }
  *low = grtc_tmodule_i64s(ctx->module, lows, count);
  *high = grtc_tmodule_i64s(ctx->module, highs, count);
  return grt_ok_status();
}

// Little-endian bytes of a scalar constant (arith.constant 1.5 : f32).
static grt_status_t grtc_import_scalar_constant(grtc_import_t* ctx,
                                                const grtc_operation_t* op,
                                                const grtc_attribute_t* value,
                                                const grtc_ttype_t* type,
                                                grtc_top_attrs_t* attrs) {
  size_t size = grtc_elem_byte_size(type->elem);
  uint8_t* bytes = grtc_tmodule_alloc(ctx->module, size);
  if (!bytes) return grtc_import_oom();
  uint64_t bits = 0;
  if (value->kind == GRTC_ATTR_BOOL) {
    bits = value->boolean;
  } else if (value->kind == GRTC_ATTR_INTEGER && !grtc_elem_is_float(type->elem)) {
    bits = (uint64_t)value->integer;
  } else if (value->kind == GRTC_ATTR_FLOAT && type->elem == GRTC_ELEM_U8 && value->type &&
             value->type->kind == GRTC_TYPE_FLOAT &&
             grtc_float_kind_is_f8(value->type->float_kind)) {
    bits = grtc_float_encode(value->floating, value->type->float_kind);  // f8.h
  } else if (value->kind == GRTC_ATTR_FLOAT && grtc_elem_is_float(type->elem)) {
    static const struct {
      grtc_elem_t elem;
      grtc_float_kind_t kind;
    } kinds[] = {{GRTC_ELEM_F16, GRTC_FLOAT_F16}, {GRTC_ELEM_BF16, GRTC_FLOAT_BF16},
                 {GRTC_ELEM_F32, GRTC_FLOAT_F32}, {GRTC_ELEM_F64, GRTC_FLOAT_F64}};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
      if (kinds[i].elem == type->elem) bits = grtc_float_encode(value->floating, kinds[i].kind);
    }
  } else {
    // dense_resource<...> blobs live in the file's resource section, which
    // the parser does not keep.
    char spelled[96];
    size_t length = grtc_format_attribute(value, spelled, sizeof(spelled));
    if (length >= sizeof(spelled)) memcpy(spelled + sizeof(spelled) - 4, "...", 4);
    return grtc_import_error(ctx, op, "constant value must be dense<...> or a number "
                             "of the result's element type %s, found %s",
                             grtc_elem_spelling(type->elem), spelled);
  }
  if (type->elem == GRTC_ELEM_I1) bits = bits != 0;
  for (size_t b = 0; b < size; ++b) bytes[b] = (uint8_t)(bits >> (8 * b));
  attrs->constant.data = bytes;
  attrs->constant.size = size;
  attrs->constant.splat = true;
  return grt_ok_status();
}

static grt_status_t grtc_import_constant(grtc_import_t* ctx, const grtc_operation_t* op,
                                         const grtc_attribute_t* value,
                                         const grtc_ttype_t* type,
                                         grtc_top_attrs_t* attrs) {
  if (value->kind != GRTC_ATTR_DENSE_ELEMENTS) {
    return grtc_import_scalar_constant(ctx, op, value, type, attrs);
  }
  grtc_ttype_t literal_type;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, value->type, &literal_type));
  if (!grtc_ttype_equal(&literal_type, type)) {
    char a[GRTC_TTYPE_FORMAT_CAPACITY], b[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_import_error(ctx, op, "constant literal of type %s for a result of "
                             "type %s", grtc_ttype_format(&literal_type, a, sizeof(a)),
                             grtc_ttype_format(type, b, sizeof(b)));
  }
  if (value->dense.splat && grtc_import_is_complex(value->type)) {
    // A complex splat is not a splat of its interleaved form: repeat the
    // (re, im) pair.
    size_t pair = value->dense.size;
    size_t total = (size_t)grtc_ttype_byte_size(type);
    uint8_t* data = grtc_tmodule_alloc(ctx->module, total ? total : 1);
    if (!data) return grtc_import_oom();
    for (size_t offset = 0; pair && offset + pair <= total; offset += pair) {
      memcpy(data + offset, value->dense.data, pair);
    }
    attrs->constant.data = data;
    attrs->constant.size = total;
    attrs->constant.splat = false;
    return grt_ok_status();
  }
  // The parser stores the literal's declared element width; index literals
  // are 8 bytes, the same as the i64 they become.
  size_t element = grtc_elem_byte_size(type->elem);
  size_t expected = value->dense.splat ? element : (size_t)grtc_ttype_byte_size(type);
  if (value->dense.size != expected) {
    return grtc_import_error(ctx, op, "constant literal holds %zu bytes; its type "
                             "needs %zu", value->dense.size, expected);
  }
  // The literal lives in the parsed module, which may go first.
  uint8_t* data = grtc_tmodule_alloc(ctx->module, value->dense.size ? value->dense.size : 1);
  if (!data) return grtc_import_oom();
  if (value->dense.size) memcpy(data, value->dense.data, value->dense.size);
  // The parser keeps an iN literal's low N bits; a signed (or signless)
  // i2/i4 holder byte carries the value sign-extended.
  bool is_unsigned = false;
  uint32_t bits = grtc_narrow_int_bits(value->type, &is_unsigned);
  for (size_t i = 0; bits && !is_unsigned && i < value->dense.size; ++i) {
    data[i] = (uint8_t)((int8_t)(uint8_t)(data[i] << (8 - bits)) >> (8 - bits));
  }
  attrs->constant.data = data;
  attrs->constant.size = value->dense.size;
  attrs->constant.splat = value->dense.splat;
  return grt_ok_status();
}

static grt_status_t grtc_import_conv(grtc_import_t* ctx, const grtc_operation_t* op,
                                     const grtc_top_t* top, grtc_conv_dims_t* conv) {
  if (top->operand_count != 2) {
    return grtc_import_error(ctx, op, "'%.*s' takes an input and a kernel; %u "
                             "operands were given", GRT_SV_ARG(op->name),
                             top->operand_count);
  }
  const grtc_attribute_t* attr = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "dimension_numbers", &attr));
  grtc_attr_error_t error;
  GRTC_IMPORT_CHECK(ctx, op, grtc_attr_conv_dims(ctx->module, attr, conv, &error), error);
  uint32_t spatial = conv->input_spatial.count;
  if (conv->kernel_spatial.count != spatial || conv->output_spatial.count != spatial ||
      spatial + 2 != top->operands[0]->type.rank) {
    return grtc_import_error(ctx, op, "convolution dimension numbers name %u, %u "
                             "and %u spatial dimensions for an input of rank %u",
                             spatial, conv->kernel_spatial.count,
                             conv->output_spatial.count, top->operands[0]->type.rank);
  }
  GRT_RETURN_IF_ERROR(grtc_import_list_or(ctx, op, "window_strides", spatial, 1,
                                          &conv->window_strides));
  GRT_RETURN_IF_ERROR(grtc_import_list_or(ctx, op, "lhs_dilation", spatial, 1,
                                          &conv->lhs_dilation));
  GRT_RETURN_IF_ERROR(grtc_import_list_or(ctx, op, "rhs_dilation", spatial, 1,
                                          &conv->rhs_dilation));
  GRT_RETURN_IF_ERROR(grtc_import_padding(ctx, op, spatial, &conv->padding_low,
                                          &conv->padding_high));
  grtc_i64s_t reversal = {0, NULL};
  GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "window_reversal", false, &reversal));
  for (uint32_t i = 0; i < reversal.count; ++i) {
    if (reversal.values[i]) {
      return grtc_import_error(ctx, op, "convolution window_reversal is not supported");
    }
  }
  conv->feature_group_count = 1;
  conv->batch_group_count = 1;
  GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "feature_group_count", false,
                                      &conv->feature_group_count));
  GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "batch_group_count", false,
                                      &conv->batch_group_count));
  return grt_ok_status();
}

static grt_status_t grtc_import_window(grtc_import_t* ctx, const grtc_operation_t* op,
                                       uint32_t rank, grtc_window_t* window) {
  GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "window_dimensions", true,
                                       &window->dimensions));
  if (window->dimensions.count != rank) {
    return grtc_import_error(ctx, op, "'window_dimensions' has %u values; expected %u",
                             window->dimensions.count, rank);
  }
  GRT_RETURN_IF_ERROR(grtc_import_list_or(ctx, op, "window_strides", rank, 1,
                                          &window->strides));
  GRT_RETURN_IF_ERROR(grtc_import_list_or(ctx, op, "base_dilations", rank, 1,
                                          &window->base_dilations));
  GRT_RETURN_IF_ERROR(grtc_import_list_or(ctx, op, "window_dilations", rank, 1,
                                          &window->window_dilations));
  return grtc_import_padding(ctx, op, rank, &window->padding_low, &window->padding_high);
}

static grt_status_t grtc_import_compare(grtc_import_t* ctx, const grtc_operation_t* op,
                                        grtc_top_attrs_t* attrs) {
  const grtc_attribute_t* attr = NULL;
  grtc_attr_error_t error;
  GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "comparison_direction", &attr));
  GRTC_IMPORT_CHECK(ctx, op, grtc_attr_compare_direction(attr, &attrs->compare_direction,
                                                         &error), error);
  attrs->compare_type = GRTC_CMP_TYPE_DEFAULT;
  attr = grtc_operation_attribute(op, "compare_type");
  if (attr) {
    GRTC_IMPORT_CHECK(ctx, op, grtc_attr_compare_type(attr, &attrs->compare_type, &error),
                      error);
  }
  return grt_ok_status();
}

// arith.cmpi/cmpf predicates as (direction, type); |ok| false for the
// unordered/ordered-only float predicates with no StableHLO equivalent.
static grt_status_t grtc_import_predicate(grtc_import_t* ctx, const grtc_operation_t* op,
                                          bool is_float, grtc_top_attrs_t* attrs) {
  typedef struct {
    grtc_compare_direction_t direction;
    grtc_compare_type_t type;
    bool ok;
  } grtc_predicate_t;
  static const grtc_predicate_t cmpi[] = {
      {GRTC_CMP_EQ, GRTC_CMP_TYPE_SIGNED, true},   {GRTC_CMP_NE, GRTC_CMP_TYPE_SIGNED, true},
      {GRTC_CMP_LT, GRTC_CMP_TYPE_SIGNED, true},   {GRTC_CMP_LE, GRTC_CMP_TYPE_SIGNED, true},
      {GRTC_CMP_GT, GRTC_CMP_TYPE_SIGNED, true},   {GRTC_CMP_GE, GRTC_CMP_TYPE_SIGNED, true},
      {GRTC_CMP_LT, GRTC_CMP_TYPE_UNSIGNED, true}, {GRTC_CMP_LE, GRTC_CMP_TYPE_UNSIGNED, true},
      {GRTC_CMP_GT, GRTC_CMP_TYPE_UNSIGNED, true}, {GRTC_CMP_GE, GRTC_CMP_TYPE_UNSIGNED, true}};
  // Ordered predicates are IEEE comparisons (false with NaN); une is NE.
  static const grtc_predicate_t cmpf[] = {
      {GRTC_CMP_EQ, GRTC_CMP_TYPE_FLOAT, false}, {GRTC_CMP_EQ, GRTC_CMP_TYPE_FLOAT, true},
      {GRTC_CMP_GT, GRTC_CMP_TYPE_FLOAT, true},  {GRTC_CMP_GE, GRTC_CMP_TYPE_FLOAT, true},
      {GRTC_CMP_LT, GRTC_CMP_TYPE_FLOAT, true},  {GRTC_CMP_LE, GRTC_CMP_TYPE_FLOAT, true},
      {GRTC_CMP_NE, GRTC_CMP_TYPE_FLOAT, false}, {GRTC_CMP_EQ, GRTC_CMP_TYPE_FLOAT, false},
      {GRTC_CMP_EQ, GRTC_CMP_TYPE_FLOAT, false}, {GRTC_CMP_GT, GRTC_CMP_TYPE_FLOAT, false},
      {GRTC_CMP_GE, GRTC_CMP_TYPE_FLOAT, false}, {GRTC_CMP_LT, GRTC_CMP_TYPE_FLOAT, false},
      {GRTC_CMP_LE, GRTC_CMP_TYPE_FLOAT, false}, {GRTC_CMP_NE, GRTC_CMP_TYPE_FLOAT, true},
      {GRTC_CMP_EQ, GRTC_CMP_TYPE_FLOAT, false}, {GRTC_CMP_EQ, GRTC_CMP_TYPE_FLOAT, false}};
  int64_t predicate = -1;
  GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "predicate", true, &predicate));
  const grtc_predicate_t* table = is_float ? cmpf : cmpi;
  int64_t count = is_float ? 16 : 10;
  if (predicate < 0 || predicate >= count) {
    return grtc_import_error(ctx, op, "'predicate' %lld is out of range for '%.*s' "
                             "(0 to %lld)", (long long)predicate, GRT_SV_ARG(op->name),
                             (long long)(count - 1));
  }
  if (!table[predicate].ok) {
    return grtc_import_error(ctx, op, "'%.*s' predicate %lld (unordered or constant) "
                             "is not supported", GRT_SV_ARG(op->name), (long long)predicate);
  }
  attrs->compare_direction = table[predicate].direction;
  attrs->compare_type = table[predicate].type;
  return grt_ok_status();
}

// Decodes |op|'s attributes into |top| by the tensor op's kind.
static grt_status_t grtc_import_attrs(grtc_import_t* ctx, const grtc_operation_t* op,
                                      grtc_import_rule_t rule, grtc_top_t* top) {
  grtc_top_attrs_t* attrs = &top->attrs;
  const grtc_attribute_t* attr = NULL;
  grtc_attr_error_t error;
  uint32_t rank = top->operand_count ? top->operands[0]->type.rank : 0;
  switch (top->kind) {
    case GRTC_TOP_CONSTANT:
      if (top->result_count != 1) {
        return grtc_import_error(ctx, op, "'%.*s' must have one result; it has %u",
                                 GRT_SV_ARG(op->name), top->result_count);
      }
      GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "value", &attr));
      attrs->unfoldable =
          rule == GRTC_IMPORT_UNFOLDABLE || rule == GRTC_IMPORT_DYNAMIC_CONSTANT;
      return grtc_import_constant(ctx, op, attr, &top->results[0].type, attrs);
    case GRTC_TOP_IOTA:
      return grtc_import_int(ctx, op, "iota_dimension", true, &attrs->dim);
    case GRTC_TOP_COMPARE:
      if (rule == GRTC_IMPORT_CMPI || rule == GRTC_IMPORT_CMPF) {
        return grtc_import_predicate(ctx, op, rule == GRTC_IMPORT_CMPF, attrs);
      }
      return grtc_import_compare(ctx, op, attrs);
    case GRTC_TOP_BROADCAST_IN_DIM:
      if (rule == GRTC_IMPORT_BROADCAST) {
        // The old broadcast prepends broadcast_sizes dimensions.
        grtc_i64s_t sizes;
        GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "broadcast_sizes", true, &sizes));
        int64_t dims[GRTC_MAX_RANK];
        for (uint32_t i = 0; i < rank && i < GRTC_MAX_RANK; ++i) {
          dims[i] = (int64_t)(sizes.count + i);
        }
        attrs->dims = grtc_tmodule_i64s(ctx->module, dims, rank);
        return grt_ok_status();
      }
      return grtc_import_list(ctx, op, "broadcast_dimensions", true, &attrs->dims);
    case GRTC_TOP_TRANSPOSE:
      return grtc_import_list(ctx, op, "permutation", true, &attrs->dims);
    case GRTC_TOP_REVERSE:
      return grtc_import_list(ctx, op, "dimensions", true, &attrs->dims);
    case GRTC_TOP_REDUCE:
      return grtc_import_list(ctx, op, "dimensions", true, &attrs->dims);
    case GRTC_TOP_SLICE:
      GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "start_indices", true, &attrs->start));
      GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "limit_indices", true, &attrs->limit));
      return grtc_import_list_or(ctx, op, "strides", attrs->start.count, 1,
                                 &attrs->strides);
    case GRTC_TOP_DYNAMIC_SLICE:
      if (rule == GRTC_IMPORT_EXTRACT) return grt_ok_status();
      return grtc_import_list(ctx, op, "slice_sizes", true, &attrs->sizes);
    case GRTC_TOP_CONCATENATE:
    case GRTC_TOP_GET_DIMENSION_SIZE:
      return grtc_import_int(ctx, op, "dimension", true, &attrs->dim);
    case GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM:
      return grtc_import_list(ctx, op, "broadcast_dimensions", true, &attrs->dims);
    case GRTC_TOP_DYNAMIC_IOTA:
      return grtc_import_int(ctx, op, "iota_dimension", true, &attrs->dim);
    case GRTC_TOP_PAD:
      GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "edge_padding_low", true, &attrs->low));
      GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "edge_padding_high", true, &attrs->high));
      return grtc_import_list_or(ctx, op, "interior_padding", attrs->low.count, 0,
                                 &attrs->interior);
    case GRTC_TOP_DOT_GENERAL:
      if (rule == GRTC_IMPORT_DOT) {
        int64_t lhs = rank ? (int64_t)rank - 1 : 0, rhs = 0;
        attrs->dot.lhs_contracting = grtc_tmodule_i64s(ctx->module, &lhs, 1);
        attrs->dot.rhs_contracting = grtc_tmodule_i64s(ctx->module, &rhs, 1);
        return grt_ok_status();
      }
      GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "dot_dimension_numbers", &attr));
      GRTC_IMPORT_CHECK(ctx, op, grtc_attr_dot_dims(ctx->module, attr, &attrs->dot, &error),
                        error);
      return grt_ok_status();
    case GRTC_TOP_CONVOLUTION:
      return grtc_import_conv(ctx, op, top, &attrs->conv);
    case GRTC_TOP_REDUCE_WINDOW:
      return grtc_import_window(ctx, op, rank, &attrs->window);
    case GRTC_TOP_GATHER:
      GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "dimension_numbers", &attr));
      GRTC_IMPORT_CHECK(ctx, op, grtc_attr_gather_dims(ctx->module, attr, &attrs->gather,
                                                       &error), error);
      GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "slice_sizes", true,
                                           &attrs->gather.slice_sizes));
      return grtc_import_flag(ctx, op, "indices_are_sorted",
                              &attrs->gather.indices_are_sorted);
    case GRTC_TOP_SCATTER:
      GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "scatter_dimension_numbers", &attr));
      GRTC_IMPORT_CHECK(ctx, op, grtc_attr_scatter_dims(ctx->module, attr, &attrs->scatter,
                                                        &error), error);
      GRT_RETURN_IF_ERROR(grtc_import_flag(ctx, op, "indices_are_sorted",
                                           &attrs->scatter.indices_are_sorted));
      return grtc_import_flag(ctx, op, "unique_indices", &attrs->scatter.unique_indices);
    case GRTC_TOP_SORT:
      attrs->dim = -1;
      GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "dimension", false, &attrs->dim));
      if (attrs->dim < 0) attrs->dim += rank;  // -1 is the last dimension
      return grtc_import_flag(ctx, op, "is_stable", &attrs->is_stable);
    case GRTC_TOP_CALL: {
      const char* callee =
          grt_string_view_equal_cstring(op->name, "stablehlo.composite") ? "decomposition"
                                                                         : "callee";
      attr = grtc_operation_attribute(op, callee);
      if (!attr || attr->kind != GRTC_ATTR_SYMBOL_REF || attr->symbol.count != 1) {
        return grtc_import_error(ctx, op, "'%.*s' requires a '%s' naming a "
                                 "function (@name)", GRT_SV_ARG(op->name), callee);
      }
      attrs->callee = grtc_tmodule_find_func(ctx->module, attr->symbol.names[0]);
      if (!attrs->callee) {
        return grtc_import_error(ctx, op, "call to undefined function '@%.*s'",
                                 GRT_SV_ARG(attr->symbol.names[0]));
      }
      if (attrs->callee->packed_args || attrs->callee->packed_results) {
        return grtc_import_error(ctx, op, "call to public function '@%.*s', whose i2/i4/"
                                 "ui2/ui4 arguments or results are packed at the "
                                 "module's boundary, is not supported (make a private "
                                 "function of its body and call that)",
                                 GRT_SV_ARG(attr->symbol.names[0]));
      }
      return grt_ok_status();
    }
    case GRTC_TOP_CHECK_ALMOST_EQ: {
      attrs->atol = GRTC_IMPORT_DEFAULT_ATOL;
      attrs->rtol = 0;
      // IREE's atol/rtol, or the StableHLO check dialect's tolerance (an
      // absolute one: |lhs - rhs| <= tolerance).
      static const char* const tolerances[3] = {"atol", "rtol", "tolerance"};
      double* fields[3] = {&attrs->atol, &attrs->rtol, &attrs->atol};
      bool given[3] = {false, false, false};
      for (int i = 0; i < 3; ++i) {
        attr = grtc_operation_attribute(op, tolerances[i]);
        if (!attr) continue;
        if (attr->kind != GRTC_ATTR_FLOAT && attr->kind != GRTC_ATTR_INTEGER) {
          return grtc_import_error(ctx, op, "'%s' must be a number", tolerances[i]);
        }
        double value = grtc_attr_number(attr);
        if (!(value >= 0)) {
          return grtc_import_error(ctx, op, "'%s' must be >= 0, got %g",
                                   tolerances[i], value);
        }
        *fields[i] = value;
        given[i] = true;
      }
      if (given[2] && (given[0] || given[1])) {
        return grtc_import_error(ctx, op, "give either 'tolerance' or "
                                 "'atol'/'rtol', not both");
      }
      // The StableHLO check dialect's tolerance, and the custom call the
      // StableHLO interpreter runs with a tolerance of 0.001, compare as that
      // interpreter does; IREE's atol/rtol keep IREE's rule.
      if (given[2] || (rule == GRTC_IMPORT_CUSTOM_CALL && !given[0] && !given[1])) {
        if (!given[2]) attrs->atol = GRTC_IMPORT_CUSTOM_CALL_ATOL;
        attrs->reference_rule = true;
      }
      return grt_ok_status();
    }
    case GRTC_TOP_CHECK_EQ:
      // custom_call @check.expect_eq compares values, as the StableHLO
      // interpreter does (+0 equals -0, NaN equals nothing).
      attrs->reference_rule = rule == GRTC_IMPORT_CUSTOM_CALL;
      return grt_ok_status();
    case GRTC_TOP_CHECK_CLOSE:
      attrs->max_ulp = 3;
      attrs->min_ulp = 0;
      GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "max_ulp_difference", false,
                                          &attrs->max_ulp));
      GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "min_ulp_difference", false,
                                          &attrs->min_ulp));
      if (attrs->min_ulp < 0 || attrs->max_ulp < attrs->min_ulp) {
        return grtc_import_error(ctx, op, "expected 0 <= min_ulp_difference <= "
                                 "max_ulp_difference, got %lld and %lld",
                                 (long long)attrs->min_ulp, (long long)attrs->max_ulp);
      }
      return grt_ok_status();
    default:
      return grt_ok_status();
  }
}

//===----------------------------------------------------------------------===//
// Ops, blocks, functions
//===----------------------------------------------------------------------===//

static grt_status_t grtc_import_block(grtc_import_t* ctx, const grtc_block_t* block,
                                      grtc_tblock_t* into);

static grt_status_t grtc_import_place(grtc_import_t* ctx, const grtc_operation_t* op,
                                      grtc_top_t* top) {
  top->line = op->line;
  top->column = op->column;
  return grtc_import_location(ctx, op->location, 0, &top->location);
}

static grt_status_t grtc_import_new_op(grtc_import_t* ctx, const grtc_operation_t* op,
                                       grtc_top_kind_t kind, grtc_tvalue_t* const* operands,
                                       uint32_t operand_count, const grtc_ttype_t* results,
                                       uint32_t result_count, uint32_t region_count,
                                       grtc_tblock_t* block, grtc_top_t** out) {
  GRT_RETURN_IF_ERROR(grtc_top_create(ctx->module, kind, operands, operand_count, results,
                                      result_count, region_count, out));
  grtc_tblock_append(block, *out);
  for (uint32_t i = 0; i < result_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_symbols(ctx, GRTC_SYM_RESULT, *out, i,
                                            &(*out)->results[i].type));
  }
  return grtc_import_place(ctx, op, *out);
}

static grt_status_t grtc_import_region(grtc_import_t* ctx, const grtc_operation_t* op,
                                       const grtc_region_t* region, grtc_top_t* top,
                                       uint32_t index) {
  if (region->block_count != 1) {
    return grtc_import_error(ctx, op, "regions of '%.*s' must have exactly one block "
                             "(found %u)", GRT_SV_ARG(op->name), region->block_count);
  }
  const grtc_block_t* source = region->first;
  grtc_ttype_t types[64];
  if (source->arg_count > 64) {
    return grtc_import_error(ctx, op, "a region with %u arguments is not supported",
                             source->arg_count);
  }
  for (uint32_t i = 0; i < source->arg_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, source->args[i].type, &types[i]));
    // A while loop's carried values: a "?" is the symbol of the loop's
    // result (the verifier relates it to the operand and to what the body
    // yields: loop-invariant extents).
    const grtc_ttype_t* result =
        top->kind == GRTC_TOP_WHILE && i < top->result_count ? &top->results[i].type : NULL;
    for (uint32_t d = 0; result && d < types[i].rank && d < result->rank; ++d) {
      if (types[i].dims[d] == GRTC_DYNAMIC_DIM && !grtc_dim_is_static(result->dims[d])) {
        types[i].dims[d] = result->dims[d];
      }
    }
  }
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, op, "region arguments", types,
                                         source->arg_count));
  grtc_tblock_t* block = NULL;
  GRT_RETURN_IF_ERROR(grtc_tblock_create(ctx->module, types, source->arg_count, &block));
  grtc_top_set_region(top, index, block);
  bool scalar = top->kind == GRTC_TOP_REDUCE || top->kind == GRTC_TOP_REDUCE_WINDOW ||
                top->kind == GRTC_TOP_SCATTER || top->kind == GRTC_TOP_SORT;
  ctx->scalar_region_depth += scalar;
  grt_status_t status = grtc_import_block(ctx, source, block);
  ctx->scalar_region_depth -= scalar;
  return status;
}

// Whether |a| and |b| can be the same tensor: one element type and rank,
// and equal sizes wherever both are static.
static bool grtc_import_types_compatible(const grtc_ttype_t* a, const grtc_ttype_t* b) {
  if (a->elem != b->elem || a->rank != b->rank) return false;
  for (uint32_t i = 0; i < a->rank; ++i) {
    // '?' not yet given a symbol, or a symbol: either may be any size.
    if (a->dims[i] >= 0 && b->dims[i] >= 0 && a->dims[i] != b->dims[i]) {
      return false;
    }
  }
  return true;
}

// flow.tensor.dynamic_constant: IREE hides the value's shape behind '?'
// dimensions so that its compiler cannot specialize on it. Its extents are
// the value's sizes at every call, so grt gives the result the value's
// (static) type, after checking the written result type admits it, and
// keeps the constant unfoldable (its data a buffer, as
// util.unfoldable_constant's).
static grt_status_t grtc_import_dynamic_constant_type(const grtc_import_t* ctx,
                                                      const grtc_operation_t* op,
                                                      grtc_ttype_t* results) {
  const grtc_attribute_t* value = grtc_operation_attribute(op, "value");
  if (op->result_count != 1 || !value || !value->type) {
    return grtc_import_error(ctx, op, "'%.*s' takes a typed value and has one result",
                             GRT_SV_ARG(op->name));
  }
  grtc_ttype_t type;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, value->type, &type));
  if (!grtc_import_types_compatible(&type, &results[0]) ||
      grtc_import_has_dynamic(&type, 1)) {
    char a[96], b[96];
    return grtc_import_error(ctx, op, "'%.*s' value of type %s cannot have result type "
                             "%s: the result must have the value's element type and "
                             "rank, with each dimension the value's size or '?'",
                             GRT_SV_ARG(op->name), grtc_ttype_format(&type, a, sizeof(a)),
                             grtc_ttype_format(&results[0], b, sizeof(b)));
  }
  results[0] = type;
  return grt_ok_status();
}

// tensor.cast between types that differ only where one side writes '?'.
static grt_status_t grtc_import_tensor_cast_types(const grtc_import_t* ctx,
                                                  const grtc_operation_t* op,
                                                  grtc_tvalue_t* const* operands,
                                                  const grtc_ttype_t* results) {
  if (op->operand_count != 1 || op->result_count != 1) {
    return grtc_import_error(ctx, op, "'%.*s' takes one operand and has one result; "
                             "found %u and %u", GRT_SV_ARG(op->name), op->operand_count,
                             op->result_count);
  }
  if (!grtc_import_types_compatible(&operands[0]->type, &results[0])) {
    char a[96], b[96];
    return grtc_import_error(ctx, op, "'%.*s' from %s to %s: the types must have one "
                             "element type and rank and equal sizes where both are static",
                             GRT_SV_ARG(op->name),
                             grtc_ttype_format(&operands[0]->type, a, sizeof(a)),
                             grtc_ttype_format(&results[0], b, sizeof(b)));
  }
  return grt_ok_status();
}

// stablehlo.dynamic_gather (operand, indices, slice_sizes) and
// stablehlo.dynamic_conv (lhs, rhs, padding): their static forms, gather
// with the slice_sizes and convolution with the [spatial x 2] padding that
// the last operand holds; it must be a constant (or, for slice_sizes,
// an unfoldable constant or elements the program determines:
// get_dimension_size of a static dimension), else the op is a diagnostic naming what must be constant.
static grt_status_t grtc_import_dynamic_operand(grtc_import_t* ctx, const grtc_operation_t* op,
                                                grtc_top_kind_t kind,
                                                grtc_tvalue_t* const* operands,
                                                const grtc_ttype_t* results,
                                                grtc_tblock_t* block) {
  bool gather = kind == GRTC_TOP_GATHER;
  const char* what = gather ? "slice_sizes" : "padding";
  if (op->operand_count != 3 || op->result_count != 1) {
    return grtc_import_error(ctx, op, "'%.*s' takes 3 operands (the last its %s) and has "
                             "1 result; found %u and %u", GRT_SV_ARG(op->name), what,
                             op->operand_count, op->result_count);
  }
  const grtc_tvalue_t* source = operands[2];
  int64_t count = grtc_ttype_element_count(&source->type);
  int64_t values[2 * GRTC_MAX_RANK];
  if (count < 0 || count > 2 * GRTC_MAX_RANK || !grtc_elem_is_integer(source->type.elem) ||
      (gather ? source->type.rank != 1 : source->type.rank != 2)) {
    return grtc_import_error(ctx, op, "'%.*s' %s operand has type %s, expected a rank-%d "
                             "integer tensor", GRT_SV_ARG(op->name), what,
                             grtc_ttype_format(&source->type, (char[96]){0}, 96),
                             gather ? 1 : 2);
  }
  for (int64_t i = 0; i < count; ++i) {
    int64_t dim = 0;
    // An unfoldable constant's slice sizes are its value at every call.
    bool known = grtc_tvalue_constant_element(source, i, &values[i]) ||
                 (gather && grtc_tvalue_stored_element(source, i, &values[i])) ||
                 (gather && grtc_tvalue_shape_element(source, i, &dim) &&
                  grtc_dim_is_static(dim) && (values[i] = dim, true));
    if (!known) {
      return grtc_import_error(ctx, op, "'%.*s' needs its %s operand (operand 2) to be a "
                               "constant: element %lld is computed at run time; only the "
                               "static form (%s) is supported", GRT_SV_ARG(op->name), what,
                               (long long)i,
                               gather ? "stablehlo.gather" : "stablehlo.convolution");
    }
  }
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, kind, operands, 2, results, 1, 0, block,
                                         &top));
  GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &op->results[0], &top->results[0]));
  grtc_top_attrs_t* attrs = &top->attrs;
  if (gather) {
    const grtc_attribute_t* attr = NULL;
    grtc_attr_error_t error;
    GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "dimension_numbers", &attr));
    GRTC_IMPORT_CHECK(ctx, op, grtc_attr_gather_dims(ctx->module, attr, &attrs->gather,
                                                     &error), error);
    attrs->gather.slice_sizes = grtc_tmodule_i64s(ctx->module, values, (uint32_t)count);
    return grtc_import_flag(ctx, op, "indices_are_sorted", &attrs->gather.indices_are_sorted);
  }
  GRT_RETURN_IF_ERROR(grtc_import_conv(ctx, op, top, &attrs->conv));
  uint32_t spatial = attrs->conv.input_spatial.count;
  if (source->type.dims[0] != (int64_t)spatial || source->type.dims[1] != 2) {
    return grtc_import_error(ctx, op, "'%.*s' padding operand has type %s, expected %u x 2 "
                             "integers (low and high for each of %u spatial dimensions)",
                             GRT_SV_ARG(op->name),
                             grtc_ttype_format(&source->type, (char[96]){0}, 96), spatial,
                             spatial);
  }
  int64_t low[GRTC_MAX_RANK], high[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < spatial; ++i) {
    low[i] = values[2 * i];
    high[i] = values[2 * i + 1];
  }
  attrs->conv.padding_low = grtc_tmodule_i64s(ctx->module, low, spatial);
  attrs->conv.padding_high = grtc_tmodule_i64s(ctx->module, high, spatial);
  return grt_ok_status();
}

// The 'value' literal of a check.*_const op as a CONSTANT in |block|.
static grt_status_t grtc_import_check_literal(grtc_import_t* ctx, const grtc_operation_t* op,
                                              grtc_tblock_t* block, grtc_tvalue_t** out) {
  const grtc_attribute_t* value = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "value", &value));
  if (value->kind != GRTC_ATTR_DENSE_ELEMENTS) {
    return grtc_import_error(ctx, op, "'value' of '%.*s' must be a dense<...> literal",
                             GRT_SV_ARG(op->name));
  }
  grtc_ttype_t type;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, value->type, &type));
  grtc_top_t* constant = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_CONSTANT, NULL, 0, &type, 1, 0,
                                         block, &constant));
  GRT_RETURN_IF_ERROR(grtc_import_constant(ctx, op, value, &type, &constant->attrs));
  *out = &constant->results[0];
  return grt_ok_status();
}

// check.*_const: the literal as a CONSTANT, then the check against it.
static grt_status_t grtc_import_check_const(grtc_import_t* ctx, const grtc_operation_t* op,
                                            grtc_top_kind_t kind,
                                            grtc_tvalue_t* const* operands,
                                            grtc_tblock_t* block) {
  grtc_tvalue_t* pair[2] = {operands[0], NULL};
  GRT_RETURN_IF_ERROR(grtc_import_check_literal(ctx, op, block, &pair[1]));
  grtc_top_t* check = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, kind, pair, 2, NULL, 0, 0, block, &check));
  return grtc_import_attrs(ctx, op, GRTC_IMPORT_PLAIN, check);
}

// tensor.extract %t[%i, ...]: a 1x..x1 dynamic_slice reshaped to rank 0.
static grt_status_t grtc_import_extract(grtc_import_t* ctx, const grtc_operation_t* op,
                                        grtc_tvalue_t* const* operands,
                                        const grtc_ttype_t* result,
                                        grtc_tblock_t* block, grtc_tvalue_t** out) {
  const grtc_ttype_t* source = &operands[0]->type;
  if (source->rank == 0) {
    *out = operands[0];  // a rank-0 tensor is already the scalar
    return grt_ok_status();
  }
  grtc_ttype_t sliced = *source;
  int64_t ones[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < source->rank; ++i) sliced.dims[i] = ones[i] = 1;
  grtc_top_t* slice = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_DYNAMIC_SLICE, operands,
                                         op->operand_count, &sliced, 1, 0, block, &slice));
  slice->attrs.sizes = grtc_tmodule_i64s(ctx->module, ones, source->rank);
  grtc_top_t* reshape = NULL;
  grtc_tvalue_t* slice_value = &slice->results[0];
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_RESHAPE, &slice_value, 1,
                                         result, 1, 0, block, &reshape));
  *out = &reshape->results[0];
  return grt_ok_status();
}

// A splat CONSTANT of |type| whose element's first byte is |low_byte| and
// the rest zero (0 of any type, or i1 true).
static grt_status_t grtc_import_splat(grtc_import_t* ctx, const grtc_operation_t* op,
                                      const grtc_ttype_t* type, uint8_t low_byte,
                                      grtc_tblock_t* block, grtc_tvalue_t** out) {
  grtc_top_t* splat = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_CONSTANT, NULL, 0, type, 1, 0,
                                         block, &splat));
  size_t size = grtc_elem_byte_size(type->elem);
  uint8_t* data = grtc_tmodule_alloc(ctx->module, size);  // zeroed
  if (!data) return grtc_import_error(ctx, op, "out of memory");
  data[0] = low_byte;
  splat->attrs.constant.data = data;
  splat->attrs.constant.size = size;
  // As the parser stores literals: one element is not a splat.
  splat->attrs.constant.splat = grtc_ttype_element_count(type) != 1;
  *out = &splat->results[0];
  return grt_ok_status();
}

// A tensor<1xi64> holding |value|.
static grt_status_t grtc_import_i64_element(grtc_import_t* ctx, const grtc_operation_t* op,
                                            int64_t value, grtc_tblock_t* block,
                                            grtc_tvalue_t** out) {
  grtc_ttype_t type = {GRTC_ELEM_I64, 1, {1}};
  grtc_top_t* constant = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_CONSTANT, NULL, 0, &type, 1, 0,
                                         block, &constant));
  uint8_t* data = grtc_tmodule_alloc(ctx->module, sizeof(int64_t));
  if (!data) return grtc_import_error(ctx, op, "out of memory");
  for (size_t i = 0; i < sizeof(int64_t); ++i) data[i] = (uint8_t)((uint64_t)value >> (8 * i));
  constant->attrs.constant.data = data;
  constant->attrs.constant.size = sizeof(int64_t);
  *out = &constant->results[0];
  return grt_ok_status();
}

// |value| (rank 0 or 1, one integer element) as a tensor<1xi64>.
static grt_status_t grtc_import_as_i64_element(grtc_import_t* ctx, const grtc_operation_t* op,
                                               grtc_tvalue_t* value, grtc_tblock_t* block,
                                               grtc_tvalue_t** out) {
  grtc_top_t* top = NULL;
  if (value->type.elem != GRTC_ELEM_I64) {
    grtc_ttype_t type = value->type;
    type.elem = GRTC_ELEM_I64;
    GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_CONVERT, &value, 1, &type, 1, 0,
                                           block, &top));
    value = &top->results[0];
  }
  if (value->type.rank != 1) {
    grtc_ttype_t type = {GRTC_ELEM_I64, 1, {1}};
    GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_RESHAPE, &value, 1, &type, 1, 0,
                                           block, &top));
    value = &top->results[0];
  }
  *out = value;
  return grt_ok_status();
}

// stablehlo.set_dimension_size(operand, size), dimension d: the operand's
// rows [0:size] along d, a real_dynamic_slice whose limit is the operand's
// shape with |size| at d (so a size the program computes from
// get_dimension_size arithmetic is a computed extent, checked at the call
// against the operand). The result's dimension d must be symbolic: a
// static one is XLA's bounded dynamic size, which grt does not model.
static grt_status_t grtc_import_set_dimension_size(grtc_import_t* ctx,
                                                   const grtc_operation_t* op,
                                                   grtc_tvalue_t* const* operands,
                                                   const grtc_ttype_t* results,
                                                   grtc_tblock_t* block) {
  if (op->operand_count != 2 || op->result_count != 1) {
    return grtc_import_error(ctx, op, "'%.*s' takes an operand and a size and has 1 result; "
                             "found %u operands and %u results", GRT_SV_ARG(op->name),
                             op->operand_count, op->result_count);
  }
  int64_t dim = 0;
  GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "dimension", true, &dim));
  grtc_tvalue_t* operand = operands[0];
  const grtc_ttype_t* in = &operand->type;
  const grtc_ttype_t* size_type = &operands[1]->type;
  if (dim < 0 || dim >= (int64_t)in->rank || results[0].rank != in->rank) {
    return grtc_import_error(ctx, op, "'%.*s' dimension %lld is not a dimension of its "
                             "operand (rank %u) and result (rank %u)", GRT_SV_ARG(op->name),
                             (long long)dim, in->rank, results[0].rank);
  }
  if (size_type->rank != 0 || !grtc_elem_is_integer(size_type->elem) ||
      size_type->elem == GRTC_ELEM_I1) {
    return grtc_import_error(ctx, op, "'%.*s' size has type %s, expected a rank-0 integer "
                             "tensor", GRT_SV_ARG(op->name),
                             grtc_ttype_format(size_type, (char[96]){0}, 96));
  }
  if (grtc_dim_is_static(results[0].dims[dim])) {
    return grtc_import_error(ctx, op, "'%.*s' result dimension %lld is static (%lld): a "
                             "bounded dynamic size is not supported; write it '?'",
                             GRT_SV_ARG(op->name), (long long)dim,
                             (long long)results[0].dims[dim]);
  }
  grtc_tvalue_t* limits[GRTC_MAX_RANK];
  for (uint32_t i = 0; i < in->rank; ++i) {
    if (i == (uint32_t)dim) {
      GRT_RETURN_IF_ERROR(grtc_import_as_i64_element(ctx, op, operands[1], block, &limits[i]));
    } else if (grtc_dim_is_static(in->dims[i])) {
      GRT_RETURN_IF_ERROR(grtc_import_i64_element(ctx, op, in->dims[i], block, &limits[i]));
    } else {
      grtc_ttype_t i32 = {GRTC_ELEM_I32, 0, {0}};
      grtc_top_t* size = NULL;
      GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_GET_DIMENSION_SIZE, &operand, 1,
                                             &i32, 1, 0, block, &size));
      size->attrs.dim = i;
      GRT_RETURN_IF_ERROR(grtc_import_as_i64_element(ctx, op, &size->results[0], block,
                                                     &limits[i]));
    }
  }
  grtc_ttype_t vector = {GRTC_ELEM_I64, 1, {in->rank}};
  grtc_top_t* limit = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_CONCATENATE, limits, in->rank,
                                         &vector, 1, 0, block, &limit));
  limit->attrs.dim = 0;
  grtc_tvalue_t* zeros = NULL;
  grtc_tvalue_t* ones = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_splat(ctx, op, &vector, 0, block, &zeros));
  GRT_RETURN_IF_ERROR(grtc_import_splat(ctx, op, &vector, 1, block, &ones));
  grtc_tvalue_t* slice_operands[4] = {operand, zeros, &limit->results[0], ones};
  grtc_top_t* slice = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_REAL_DYNAMIC_SLICE, slice_operands,
                                         4, results, 1, 0, block, &slice));
  return grtc_import_map(ctx, &op->results[0], &slice->results[0]);
}

// The StableHLO testdata suite's older check, `%ok = stablehlo.custom_call
// @check.eq(%actual, %expected) : (T, T) -> tensor<i1>`: integers (i1
// included) must match exactly and floats (complex parts) be near within
// 1e-4 by the StableHLO interpreter's rule (both NaN, or of one sign and
// at most 1e-4 apart), as that interpreter checks it. A mismatch fails the
// call, so the i1 result is a constant true.
static grt_status_t grtc_import_check_eq_call(grtc_import_t* ctx,
                                              const grtc_operation_t* op,
                                              grtc_tvalue_t* const* operands,
                                              const grtc_ttype_t* results,
                                              grtc_tblock_t* block) {
  if (op->operand_count != 2 || op->result_count != 1 || results[0].rank != 0 ||
      results[0].elem != GRTC_ELEM_I1) {
    return grtc_import_error(ctx, op, "custom call 'check.eq' takes (actual, expected) "
                             "and returns a tensor<i1>; got %u operands and %u results",
                             op->operand_count, op->result_count);
  }
  bool is_float = grtc_elem_is_float(operands[0]->type.elem);
  grtc_tvalue_t* ok = NULL;
  grtc_top_t* check = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op,
                                         is_float ? GRTC_TOP_CHECK_ALMOST_EQ
                                                  : GRTC_TOP_CHECK_EQ,
                                         operands, 2, NULL, 0, 0, block, &check));
  check->attrs.atol = GRTC_IMPORT_DEFAULT_ATOL;
  check->attrs.rtol = 0;
  check->attrs.reference_rule = true;
  GRT_RETURN_IF_ERROR(grtc_import_splat(ctx, op, results, 1, block, &ok));
  return grtc_import_map(ctx, &op->results[0], ok);
}

//===----------------------------------------------------------------------===//
// Globals
//===----------------------------------------------------------------------===//

// An immutable global (or a mutable one nothing stores to) is a constant
// here: it reads as its initial value at every load. A global some function
// stores to is state kept across calls: a grtc_tglobal_t of the tensor
// module, read by GLOBAL_LOAD and written by GLOBAL_STORE (see "Mutable
// globals" below). util.global's value is `initial_value` (dense<...> or
// #util.byte_pattern<N>, every byte N), ml_program.global's `value`.
static bool grtc_import_is_global(const grtc_operation_t* op) {
  return grtc_operation_is(op, "util.global") || grtc_operation_is(op, "ml_program.global");
}

static bool grtc_import_is_global_store(const grtc_operation_t* op) {
  return grtc_operation_is(op, "util.global.store") ||
         grtc_operation_is(op, "ml_program.global_store");
}

static const grtc_operation_t* grtc_import_find_global(const grtc_import_t* ctx,
                                                       grt_string_view_t name) {
  uint32_t index = 0;
  return grt_name_index_find(&ctx->global_index, name, &index) ? ctx->globals[index] : NULL;
}

// Appends |op| to |*ops| (|*count| of them) and indexes it under |name|
// (which must not be in |index| yet).
static grt_status_t grtc_import_index_op(grtc_import_t* ctx, const grtc_operation_t* op,
                                         grt_string_view_t name, const grtc_operation_t*** ops,
                                         uint32_t* count, grt_name_index_t* index) {
  void* grown = (void*)*ops;
  GRT_RETURN_IF_ERROR(grt_allocator_realloc(ctx->allocator, *count * sizeof(**ops),
                                            (*count + 1) * sizeof(**ops), &grown));
  *ops = grown;
  GRT_RETURN_IF_ERROR(grt_name_index_insert(index, name, *count, NULL));
  (*ops)[(*count)++] = op;
  return grt_ok_status();
}

static grt_status_t grtc_import_global_name(const grtc_import_t* ctx,
                                            const grtc_operation_t* op,
                                            const grtc_operation_t** out_global) {
  const grtc_attribute_t* ref = grtc_operation_attribute(op, "global");
  if (!ref || ref->kind != GRTC_ATTR_SYMBOL_REF || ref->symbol.count != 1) {
    return grtc_import_error(ctx, op, "'%.*s' requires a 'global' naming a global (@name)",
                             GRT_SV_ARG(op->name));
  }
  *out_global = grtc_import_find_global(ctx, ref->symbol.names[0]);
  if (!*out_global) {
    return grtc_import_error(ctx, op, "'%.*s' names '@%.*s', which is not a global of "
                             "this module", GRT_SV_ARG(op->name),
                             GRT_SV_ARG(ref->symbol.names[0]));
  }
  return grt_ok_status();
}

// Records a module-level global after checking it has a value and a tensor
// type.
static grt_status_t grtc_import_declare_global(grtc_import_t* ctx,
                                               const grtc_operation_t* op) {
  const grtc_attribute_t* name = grtc_operation_attribute(op, "sym_name");
  const grtc_attribute_t* type = grtc_operation_attribute(op, "type");
  if (!name || name->kind != GRTC_ATTR_STRING || !type || type->kind != GRTC_ATTR_TYPE) {
    return grtc_import_error(ctx, op, "'%.*s' requires 'sym_name' and 'type'",
                             GRT_SV_ARG(op->name));
  }
  if (grtc_import_find_global(ctx, name->string) ||
      grtc_tmodule_find_func(ctx->module, name->string)) {
    return grtc_import_error(ctx, op, "redefinition of '@%.*s'", GRT_SV_ARG(name->string));
  }
  grtc_ttype_t ttype;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, type->type, &ttype));
  return grtc_import_index_op(ctx, op, name->string, &ctx->globals, &ctx->global_count,
                              &ctx->global_index);
}

// The initial value of |global| (of type |type|) into |attrs|->constant.
static grt_status_t grtc_import_global_bytes(grtc_import_t* ctx, const grtc_operation_t* global,
                                             const grtc_ttype_t* type, grtc_top_attrs_t* attrs) {
  const grtc_attribute_t* value = grtc_operation_attribute(
      global, grtc_operation_is(global, "util.global") ? "initial_value" : "value");
  static const char pattern[] = "#util.byte_pattern<";
  if (value->kind == GRTC_ATTR_OPAQUE &&
      grt_string_view_starts_with(value->opaque, grt_make_cstring_view(pattern))) {
    int64_t byte = 0;
    grt_string_view_t digits = grt_string_view_substr(
        value->opaque, sizeof(pattern) - 1, value->opaque.size - sizeof(pattern));
    bool valid = value->opaque.data[value->opaque.size - 1] == '>';
    if (valid) {
      grt_status_t parsed = grt_string_view_parse_i64(digits, &byte);
      valid = grt_status_is_ok(parsed) && byte >= 0;
      grt_status_free(parsed);
    }
    if (!valid) {
      return grtc_import_error(ctx, global, "expected #util.byte_pattern<N> with N >= 0, "
                               "got '%.*s'", GRT_SV_ARG(value->opaque));
    }
    uint64_t size = grtc_ttype_byte_size(type);
    uint8_t* data = grtc_tmodule_alloc(ctx->module, size ? (size_t)size : 1);
    if (!data) return grtc_import_oom();
    memset(data, (int)(byte % 256), (size_t)size);
    attrs->constant.data = data;
    attrs->constant.size = (size_t)size;
    attrs->constant.splat = false;
    return grt_ok_status();
  }
  return grtc_import_constant(ctx, global, value, type, attrs);
}

// What a load of |global| gives, built at |op|: its initial value as a
// constant, or for a global something stores to, a GLOBAL_LOAD.
static grt_status_t grtc_import_global_value(grtc_import_t* ctx, const grtc_operation_t* op,
                                             const grtc_operation_t* global,
                                             const grtc_ttype_t* result, grtc_tblock_t* block,
                                             grtc_tvalue_t** out) {
  const grtc_attribute_t* name = grtc_operation_attribute(global, "sym_name");
  const grtc_attribute_t* type = grtc_operation_attribute(global, "type");
  grtc_ttype_t ttype;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, global, type->type, &ttype));
  if (!grtc_ttype_equal(&ttype, result)) {
    char a[GRTC_TTYPE_FORMAT_CAPACITY], b[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_import_error(ctx, op, "'%.*s' of '@%.*s' (%s) gives %s",
                             GRT_SV_ARG(op->name), GRT_SV_ARG(name->string),
                             grtc_ttype_format(&ttype, a, sizeof(a)),
                             grtc_ttype_format(result, b, sizeof(b)));
  }
  const grtc_tglobal_t* state = grtc_tmodule_find_global(ctx->module, name->string);
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, state ? GRTC_TOP_GLOBAL_LOAD : GRTC_TOP_CONSTANT,
                                         NULL, 0, result, 1, 0, block, &top));
  if (state) {
    top->attrs.global = state;
  } else {
    GRT_RETURN_IF_ERROR(grtc_import_global_bytes(ctx, global, result, &top->attrs));
  }
  *out = &top->results[0];
  return grt_ok_status();
}

static grt_status_t grtc_import_global_store(grtc_import_t* ctx, const grtc_operation_t* op,
                                             grtc_tblock_t* block);

// util.global.load, util.global.address, util.global.load.indirect,
// ml_program.global_load(_const), and the stores.
static grt_status_t grtc_import_global_op(grtc_import_t* ctx, const grtc_operation_t* op,
                                          grtc_tblock_t* block) {
  const grtc_operation_t* global = NULL;
  if (grtc_import_is_global_store(op)) return grtc_import_global_store(ctx, op, block);
  if (op->result_count != 1) {
    return grtc_import_error(ctx, op, "'%.*s' has one result, got %u", GRT_SV_ARG(op->name),
                             op->result_count);
  }
  if (grtc_operation_is(op, "util.global.load.indirect")) {
    if (op->operand_count != 1 ||
        !(global = grtc_map_get(&ctx->addresses, op->operands[0]))) {
      return grtc_import_error(ctx, op, "'util.global.load.indirect' takes the result of a "
                               "util.global.address");
    }
  } else {
    GRT_RETURN_IF_ERROR(grtc_import_global_name(ctx, op, &global));
  }
  if (grtc_operation_is(op, "util.global.address")) {
    return grtc_map_put(ctx->allocator, &ctx->addresses, &op->results[0], (void*)global);
  }
  grtc_ttype_t result;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[0].type, &result));
  grtc_tvalue_t* value = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_global_value(ctx, op, global, &result, block, &value));
  return grtc_import_map(ctx, &op->results[0], value);
}

//===----------------------------------------------------------------------===//
// Mutable globals (docs/compiler.md "Mutable globals")
//===----------------------------------------------------------------------===//

// The global a store names (NULL when it names none: reported when the store
// is imported).
static const grtc_operation_t* grtc_import_stored_global(const grtc_import_t* ctx,
                                                         const grtc_operation_t* op) {
  const grtc_attribute_t* ref = grtc_operation_attribute(op, "global");
  if (!ref || ref->kind != GRTC_ATTR_SYMBOL_REF || ref->symbol.count != 1) return NULL;
  return grtc_import_find_global(ctx, ref->symbol.names[0]);
}

// Sets (*first_stores)[i] to the first store naming global i in |block| and
// its nested regions.
static void grtc_import_scan_stores(const grtc_import_t* ctx, const grtc_block_t* block,
                                    const grtc_operation_t** first_stores) {
  for (const grtc_operation_t* op = block->first; op; op = op->next) {
    if (grtc_import_is_global_store(op)) {
      const grtc_operation_t* global = grtc_import_stored_global(ctx, op);
      for (uint32_t i = 0; global && i < ctx->global_count; ++i) {
        if (ctx->globals[i] == global && !first_stores[i]) first_stores[i] = op;
      }
    }
    for (uint32_t r = 0; r < op->region_count; ++r) {
      for (const grtc_block_t* b = op->regions[r]->first; b; b = b->next) {
        grtc_import_scan_stores(ctx, b, first_stores);
      }
    }
  }
}

// Makes every global that a function of |body| stores to a grtc_tglobal_t
// of the module (its initial value, or zeros when it has none). Such a
// global must be declared `mutable`; a global with no initial value that
// nothing stores to is an error.
static grt_status_t grtc_import_mutable_globals(grtc_import_t* ctx, const grtc_block_t* body) {
  if (!ctx->global_count) return grt_ok_status();
  const grtc_operation_t** first_stores = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(ctx->allocator,
                                           ctx->global_count * sizeof(*first_stores),
                                           (void**)&first_stores));
  for (const grtc_operation_t* op = body->first; op; op = op->next) {
    if (!grtc_operation_is(op, "func.func")) continue;
    for (uint32_t r = 0; r < op->region_count; ++r) {
      for (const grtc_block_t* b = op->regions[r]->first; b; b = b->next) {
        grtc_import_scan_stores(ctx, b, first_stores);
      }
    }
  }
  grt_status_t status = grt_ok_status();
  for (uint32_t i = 0; i < ctx->global_count && grt_status_is_ok(status); ++i) {
    const grtc_operation_t* global = ctx->globals[i];
    const grtc_operation_t* store = first_stores[i];
    grt_string_view_t name = grtc_operation_attribute(global, "sym_name")->string;
    bool util = grtc_operation_is(global, "util.global");
    bool has_value = grtc_operation_attribute(global, util ? "initial_value" : "value");
    if (!store) {
      if (!has_value) {
        status = grtc_import_error(ctx, global, "global '@%.*s' has no initial value and "
                                   "nothing stores to it", GRT_SV_ARG(name));
      }
      continue;
    }
    if (!grtc_operation_attribute(global, "is_mutable")) {
      status = grtc_import_error(ctx, store, "'%.*s' to '@%.*s', which is not mutable "
                                 "(declare it '%s mutable')", GRT_SV_ARG(store->name),
                                 GRT_SV_ARG(name), util ? "util.global private" :
                                 "ml_program.global private");
      continue;
    }
    grtc_ttype_t type;
    status = grtc_import_type(ctx, global, grtc_operation_attribute(global, "type")->type,
                              &type);
    if (!grt_status_is_ok(status)) break;
    grtc_top_attrs_t attrs;
    memset(&attrs, 0, sizeof(attrs));
    uint8_t zero[8] = {0};
    if (has_value) {
      status = grtc_import_global_bytes(ctx, global, &type, &attrs);
    } else {
      attrs.constant.data = zero;
      attrs.constant.size = grtc_elem_byte_size(type.elem);
      attrs.constant.splat = true;
    }
    grtc_tglobal_t* state = NULL;
    if (grt_status_is_ok(status)) {
      status = grtc_import_at(ctx, global,
                              grtc_tmodule_add_global(ctx->module, name, &type,
                                                      attrs.constant.data, attrs.constant.size,
                                                      attrs.constant.splat, &state));
    }
  }
  grt_allocator_free(ctx->allocator, (void*)first_stores);
  return status;
}

// util.global.store %v, @g / ml_program.global_store @g = %v: a GLOBAL_STORE
// of the value, which must have the global's type.
static grt_status_t grtc_import_global_store(grtc_import_t* ctx, const grtc_operation_t* op,
                                             grtc_tblock_t* block) {
  const grtc_operation_t* global = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_global_name(ctx, op, &global));
  grt_string_view_t name = grtc_operation_attribute(global, "sym_name")->string;
  if (op->operand_count != 1 || op->result_count != 0) {
    return grtc_import_error(ctx, op, "'%.*s' takes one value and has no results, got %u "
                             "operands and %u results", GRT_SV_ARG(op->name),
                             op->operand_count, op->result_count);
  }
  const grtc_tglobal_t* state = grtc_tmodule_find_global(ctx->module, name);
  grtc_tvalue_t* value = grtc_import_lookup(ctx, op->operands[0]);
  if (!state || !value) {
    return grtc_import_error(ctx, op, "'%.*s' to '@%.*s' has no imported value to store",
                             GRT_SV_ARG(op->name), GRT_SV_ARG(name));
  }
  if (!grtc_ttype_equal(&value->type, &state->type)) {
    char a[GRTC_TTYPE_FORMAT_CAPACITY], b[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_import_error(ctx, op, "'%.*s' of %s to '@%.*s' of type %s",
                             GRT_SV_ARG(op->name), grtc_ttype_format(&value->type, a, sizeof(a)),
                             GRT_SV_ARG(name), grtc_ttype_format(&state->type, b, sizeof(b)));
  }
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_GLOBAL_STORE, &value, 1, NULL, 0, 0,
                                         block, &top));
  top->attrs.global = state;
  return grt_ok_status();
}

static bool grtc_import_is_global_use(const grtc_operation_t* op) {
  return grtc_import_is_global_store(op) || grtc_operation_is(op, "util.global.load") ||
         grtc_operation_is(op, "util.global.address") ||
         grtc_operation_is(op, "util.global.load.indirect") ||
         grtc_operation_is(op, "ml_program.global_load") ||
         grtc_operation_is(op, "ml_program.global_load_const");
}

typedef struct grtc_import_chlo_place_t {
  grtc_import_t* ctx;
  const grtc_operation_t* op;
} grtc_import_chlo_place_t;

// jax.export's `stablehlo.custom_call @shape_assertion(%ok, %dim...)
// {error_message = "...{0}..."}`: kept as an op whose call fails with the
// message (its {i} filled from the operands) unless folding proves it.
static grt_status_t grtc_import_shape_assertion(grtc_import_t* ctx,
                                                const grtc_operation_t* op,
                                                grtc_tvalue_t* const* operands,
                                                grtc_tblock_t* block) {
  const grtc_attribute_t* message = grtc_operation_attribute(op, "error_message");
  if (!message || message->kind != GRTC_ATTR_STRING) {
    return grtc_import_error(ctx, op, "custom call 'shape_assertion' needs an "
                             "'error_message' string attribute");
  }
  if (op->result_count || op->operand_count < 1) {
    return grtc_import_error(ctx, op, "custom call 'shape_assertion' takes an i1 "
                             "assertion (and message operands) and has no results; "
                             "it has %u operands and %u results",
                             op->operand_count, op->result_count);
  }
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_SHAPE_ASSERTION, operands,
                                         op->operand_count, NULL, 0, 0, block, &top));
  char* text = grtc_tmodule_alloc(ctx->module, message->string.size + 1);
  if (!text) return grtc_import_oom();
  memcpy(text, message->string.data, message->string.size);
  top->attrs.message = text;
  return grt_ok_status();
}

static grt_status_t grtc_import_chlo_place(void* user, grtc_top_t* top) {
  grtc_import_chlo_place_t* place = user;
  return grtc_import_place(place->ctx, place->op, top);
}

// A CHLO op: its attributes decoded here, its ops built by compose.c.
// The enum attribute |name| of |op| (#stablehlo<|kind| WORD> or "WORD"),
// as its index in |words|; -1 when absent, an error naming the words when
// it is none of them.
static grt_status_t grtc_import_chlo_enum(grtc_import_t* ctx, const grtc_operation_t* op,
                                          const char* name, const char* kind,
                                          const char* const* words, int count,
                                          int* out_index) {
  *out_index = -1;
  const grtc_attribute_t* attr = grtc_operation_attribute(op, name);
  if (!attr) return grt_ok_status();
  grt_string_view_t text = attr->kind == GRTC_ATTR_OPAQUE ? attr->opaque
                           : attr->kind == GRTC_ATTR_STRING ? attr->string
                                                            : grt_make_cstring_view("");
  for (int i = 0; i < count; ++i) {
    char spelled[64];
    snprintf(spelled, sizeof(spelled), "#stablehlo<%s %s>", kind, words[i]);
    if (grt_string_view_equal_cstring(text, spelled) ||
        grt_string_view_equal_cstring(text, words[i])) {
      *out_index = i;
    }
  }
  if (*out_index >= 0) return grt_ok_status();
  char expected[160] = "";
  size_t used = 0;
  for (int i = 0; i < count && used < sizeof(expected); ++i) {
    if (i == 0) {
      used += (size_t)snprintf(expected, sizeof(expected), "#stablehlo<%s %s>", kind,
                               words[0]);
    } else {
      used += (size_t)snprintf(expected + used, sizeof(expected) - used, "%s%s",
                               i == count - 1 ? " or " : ", ", words[i]);
    }
  }
  return grtc_import_error(ctx, op, "'%s' must be %s, got '%.*s'", name, expected,
                           GRT_SV_ARG(text));
}

static grt_status_t grtc_import_chlo(grtc_import_t* ctx, const grtc_operation_t* op,
                                    grtc_tvalue_t* const* operands,
                                    const grtc_ttype_t* results, grtc_tblock_t* block) {
  grtc_chlo_attrs_t attrs;
  memset(&attrs, 0, sizeof(attrs));
  grtc_i64s_t dims = {0, NULL};
  if (grtc_operation_attribute(op, "broadcast_dimensions")) {
    GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "broadcast_dimensions", true, &dims));
    attrs.has_broadcast_dims = true;
    attrs.broadcast_dims = dims.values;
    attrs.broadcast_dim_count = dims.count;
  }
  grtc_attr_error_t error;
  const grtc_attribute_t* attr = grtc_operation_attribute(op, "comparison_direction");
  if (attr) {
    GRTC_IMPORT_CHECK(ctx, op, grtc_attr_compare_direction(attr, &attrs.compare_direction,
                                                           &error), error);
  } else if (grt_string_view_equal_cstring(op->name, "chlo.broadcast_compare")) {
    const grtc_attribute_t* missing = NULL;
    GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "comparison_direction", &missing));
  }
  attr = grtc_operation_attribute(op, "compare_type");
  if (attr) {
    GRTC_IMPORT_CHECK(ctx, op, grtc_attr_compare_type(attr, &attrs.compare_type, &error),
                      error);
  }
  if (grtc_operation_attribute(op, "k")) {
    GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "k", true, &attrs.k));
    attrs.has_k = true;
  }
  if (grtc_operation_attribute(op, "feature_index")) {
    GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "feature_index", true,
                                        &attrs.feature_index));
    attrs.has_feature_index = true;
  }
  attr = grtc_operation_attribute(op, "epsilon");
  if (attr) {
    if (attr->kind != GRTC_ATTR_FLOAT && attr->kind != GRTC_ATTR_INTEGER) {
      return grtc_import_error(ctx, op, "'epsilon' must be a number");
    }
    attrs.epsilon = grtc_attr_number(attr);
    attrs.has_epsilon = true;
  }
  // triangular_solve's and cholesky's booleans; a complex triangular_solve
  // takes its operands interleaved (grtc_import_complex_interleaved).
  attrs.complex = op->operand_count && grtc_import_is_complex(op->operands[0]->type);
  static const char* const flag_names[3] = {"left_side", "lower", "unit_diagonal"};
  bool* flag_values[3] = {&attrs.left_side, &attrs.lower, &attrs.unit_diagonal};
  bool* flag_given[3] = {&attrs.has_left_side, &attrs.has_lower, &attrs.has_unit_diagonal};
  for (int i = 0; i < 3; ++i) {
    if (!grtc_operation_attribute(op, flag_names[i])) continue;
    GRT_RETURN_IF_ERROR(grtc_import_flag(ctx, op, flag_names[i], flag_values[i]));
    *flag_given[i] = true;
  }
  if (grtc_operation_attribute(op, "batch_dims") && grtc_operation_attribute(op, "dim")) {
    GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "dim", true, &attrs.select_dim));
    GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "batch_dims", true,
                                        &attrs.select_batch_dims));
    attrs.has_index_select = true;
  }
  int index = -1;
  static const char* const transposes[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
  GRT_RETURN_IF_ERROR(
      grtc_import_chlo_enum(ctx, op, "transpose_a", "transpose", transposes, 3, &index));
  attrs.transpose_a = index;
  static const char* const algorithms[] = {"DEFAULT", "THREE_FRY", "PHILOX"};
  GRT_RETURN_IF_ERROR(grtc_import_chlo_enum(ctx, op, "rng_algorithm", "rng_algorithm",
                                            algorithms, 3, &index));
  attrs.rng_algorithm =
      index < 0 ? GRTC_CHLO_RNG_NONE : (grtc_chlo_rng_t)(GRTC_CHLO_RNG_DEFAULT + index);
  static const char* const distributions[] = {"UNIFORM", "NORMAL"};
  GRT_RETURN_IF_ERROR(grtc_import_chlo_enum(ctx, op, "rng_distribution", "rng_distribution",
                                            distributions, 2, &index));
  attrs.rng_distribution = index < 0 ? GRTC_CHLO_RNG_DISTRIBUTION_NONE
                                     : (grtc_chlo_rng_distribution_t)(GRTC_CHLO_RNG_UNIFORM +
                                                                      index);
  if (grtc_operation_is(op, "stablehlo.rng")) attrs.rng_ordinal = ctx->rng_count++;
  attr = grtc_operation_attribute(op, "ragged_dot_dimension_numbers");
  if (attr) {
    GRTC_IMPORT_CHECK(ctx, op,
                      grtc_attr_ragged_dot_dims(ctx->module, attr, &attrs.ragged_dot,
                                                &attrs.lhs_ragged, &attrs.rhs_group, &error),
                      error);
    attrs.has_ragged_dot = true;
  }
  if (grtc_operation_attribute(op, "exponent_bits") ||
      grtc_operation_attribute(op, "mantissa_bits")) {
    GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "exponent_bits", true,
                                        &attrs.exponent_bits));
    GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "mantissa_bits", true,
                                        &attrs.mantissa_bits));
    attrs.has_format = true;
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_tvalue_t* values[3] = {NULL, NULL, NULL};
  if (op->result_count > 3) {
    return grtc_import_error(ctx, op, "'%.*s' has %u results; it has at most 3",
                             GRT_SV_ARG(op->name), op->result_count);
  }
  grt_status_t status = grtc_chlo_lower(&builder, op->name, operands, op->operand_count,
                                        results, op->result_count, &attrs, values);
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, status));
  for (uint32_t r = 0; r < op->result_count; ++r) {
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &op->results[r], values[r]));
  }
  return grt_ok_status();
}

// A custom call whose target compose.c lowers (as JAX's QR emits
// ProductOfElementaryHouseholderReflectors): built there under the name
// "stablehlo.custom_call @TARGET".
static grt_status_t grtc_import_lowered_custom_call(grtc_import_t* ctx,
                                                    const grtc_operation_t* op,
                                                    grt_string_view_t target,
                                                    grtc_tvalue_t* const* operands,
                                                    const grtc_ttype_t* results,
                                                    grtc_tblock_t* block) {
  char name[128];
  snprintf(name, sizeof(name), "stablehlo.custom_call @%.*s", GRT_SV_ARG(target));
  grtc_chlo_attrs_t attrs;
  memset(&attrs, 0, sizeof(attrs));
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_tvalue_t* value = NULL;
  grt_status_t status =
      grtc_chlo_lower(&builder, grt_make_cstring_view(name), operands, op->operand_count,
                      results, op->result_count, &attrs, &value);
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, status));
  return grtc_import_map(ctx, &op->results[0], value);
}

//===----------------------------------------------------------------------===//
// Quantized ops (quant.h)
//===----------------------------------------------------------------------===//

typedef enum grtc_import_quant_mode_e {
  GRTC_IMPORT_QUANT_NONE,     // no quantized types
  GRTC_IMPORT_QUANT_STORAGE,  // imported as it is, on the storage integers
  GRTC_IMPORT_QUANT_FLOAT,    // dequantize, the op in the expressed type, quantize
  GRTC_IMPORT_QUANT_INTEGER,  // dot_general on the stored i8, requantized (quant.h)
} grtc_import_quant_mode_t;

static bool grtc_import_is_quantized(const grtc_operation_t* op) {
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (grtc_quant_element(op->operands[i]->type)) return true;
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (grtc_quant_element(op->results[i].type)) return true;
  }
  return false;
}

// The quantization of |type| (count 0 when it has none).
static grt_status_t grtc_import_quant_of(grtc_import_t* ctx, const grtc_operation_t* op,
                                         const grtc_type_t* type, grtc_quant_type_t* out) {
  memset(out, 0, sizeof(*out));
  const grtc_type_t* element = grtc_quant_element(type);
  if (!element) return grt_ok_status();
  return grtc_import_at(ctx, op, grtc_quant_parse(element->opaque, ctx->module, out));
}

// "(T, T) -> T" of |op|'s operand and result types, for messages.
static const char* grtc_import_signature(const grtc_operation_t* op, char* buffer,
                                         size_t capacity) {
  size_t length = 0;
  buffer[0] = 0;
#define GRTC_APPEND(text)                                                        \
  do {                                                                           \
    if (length < capacity) length += (size_t)snprintf(buffer + length,           \
                                                      capacity - length, "%s", text); \
  } while (0)
  char type[256];
  GRTC_APPEND("(");
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (i) GRTC_APPEND(", ");
    grtc_format_type(op->operands[i]->type, type, sizeof(type));
    GRTC_APPEND(type);
  }
  GRTC_APPEND(") -> ");
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (i) GRTC_APPEND(", ");
    grtc_format_type(op->results[i].type, type, sizeof(type));
    GRTC_APPEND(type);
  }
#undef GRTC_APPEND
  if (length >= capacity && capacity > 4) memcpy(buffer + capacity - 4, "...", 4);
  return buffer;
}

// "'NAME' |format|...: (operand types) -> result types" at |op|.
static grt_status_t grtc_import_types_error(const grtc_import_t* ctx,
                                            const grtc_operation_t* op,
                                            const char* format, ...) GRT_PRINTF_LIKE(3, 4);
static grt_status_t grtc_import_types_error(const grtc_import_t* ctx,
                                            const grtc_operation_t* op,
                                            const char* format, ...) {
  char message[512], signature[768];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  return grtc_import_error(ctx, op, "'%.*s' %s: %s", GRT_SV_ARG(op->name), message,
                           grtc_import_signature(op, signature, sizeof(signature)));
}

static grt_status_t grtc_import_quant_unsupported(const grtc_import_t* ctx,
                                                  const grtc_operation_t* op,
                                                  const char* why) {
  return grtc_import_types_error(ctx, op, "on quantized types is not supported%s", why);
}

// A reduce or reduce_window whose body only takes the maximum or minimum of
// its two arguments: on one quantization it selects stored values, so it
// runs on them (max pooling) once the types are found equal below.
static bool grtc_import_quant_selects(const grtc_operation_t* op, grtc_top_kind_t kind) {
  if ((kind != GRTC_TOP_REDUCE && kind != GRTC_TOP_REDUCE_WINDOW) ||
      op->region_count != 1 || op->regions[0]->block_count != 1) {
    return false;
  }
  const grtc_block_t* body = op->regions[0]->first;
  const grtc_operation_t* first = body->first;
  if (!first || !first->next || first->next->next || body->arg_count != 2 ||
      first->operand_count != 2 || first->result_count != 1 ||
      (!grt_string_view_equal_cstring(first->name, "stablehlo.maximum") &&
       !grt_string_view_equal_cstring(first->name, "stablehlo.minimum"))) {
    return false;
  }
  const grtc_operation_t* ret = first->next;
  return ret->operand_count == 1 && ret->operands[0] == &first->results[0];
}

// Decides how |op| (which has quantized operands or results) is imported.
// In the float mode the quantized operands are dequantized in place,
// quantized results take their expressed type, and |out_types| receives
// each operand's and then each result's quantization (count 0 for the
// others), as in the integer mode.
static grt_status_t grtc_import_quant_prepare(grtc_import_t* ctx, const grtc_operation_t* op,
                                              const grtc_import_op_t* entry,
                                              grtc_tvalue_t** operands,
                                              grtc_ttype_t* results, grtc_tblock_t* block,
                                              grtc_import_quant_mode_t* out_mode,
                                              grtc_quant_type_t** out_types) {
  grtc_top_role_t role = grtc_top_kind_role(entry->kind);
  *out_mode = GRTC_IMPORT_QUANT_STORAGE;
  *out_types = NULL;
  if (role == GRTC_ROLE_C || role == GRTC_ROLE_H || entry->kind == GRTC_TOP_CONSTANT ||
      entry->kind == GRTC_TOP_BITCAST_CONVERT ||
      entry->kind == GRTC_TOP_OPTIMIZATION_BARRIER ||
      (entry->rule != GRTC_IMPORT_PLAIN && entry->rule != GRTC_IMPORT_DOT &&
       entry->rule != GRTC_IMPORT_BROADCAST)) {
    // These pass the stored values through (or compare them as stored).
    return grt_ok_status();
  }
  if (op->region_count && !grtc_import_quant_selects(op, entry->kind)) {
    return grtc_import_quant_unsupported(ctx, op, " (its body would requantize every "
                                         "step)");
  }
  if (entry->kind == GRTC_TOP_CONVERT) {
    return grtc_import_quant_unsupported(
        ctx, op, " (use stablehlo.uniform_quantize and stablehlo.uniform_dequantize)");
  }
  uint32_t count = op->operand_count + op->result_count;
  grtc_quant_type_t* types = grtc_tmodule_alloc(ctx->module, count * sizeof(*types));
  if (!types) return grtc_import_oom();
  bool per_axis = false, equal = true, baseline = true;
  const grtc_quant_type_t* first = NULL;
  for (uint32_t i = 0; i < count; ++i) {
    const grtc_type_t* type = i < op->operand_count
                                  ? op->operands[i]->type
                                  : op->results[i - op->operand_count].type;
    GRT_RETURN_IF_ERROR(grtc_import_quant_of(ctx, op, type, &types[i]));
    if (!types[i].count) continue;
    per_axis |= types[i].per_axis;
    if (first && !grtc_quant_equal(first, &types[i])) equal = false;
    if (first && !grtc_quant_same_baseline(first, &types[i])) baseline = false;
    if (!first) first = &types[i];
  }
  if (role == GRTC_ROLE_E && !baseline) {
    return grtc_import_types_error(ctx, op, "needs one storage type, storage range, "
                                   "expressed type and quantization dimension on its "
                                   "quantized operands and results (scales and zero "
                                   "points may differ)");
  }
  bool moves = role == GRTC_ROLE_S || entry->kind == GRTC_TOP_GATHER ||
               op->region_count;
  if (op->region_count && (per_axis || !equal)) {
    return grtc_import_quant_unsupported(
        ctx, op, " (a maximum or minimum body needs one per-tensor quantization)");
  }
  bool selects = entry->kind == GRTC_TOP_SELECT || entry->kind == GRTC_TOP_MAXIMUM ||
                 entry->kind == GRTC_TOP_MINIMUM;
  if ((moves || selects) && !per_axis && equal) return grt_ok_status();
  if (moves && !per_axis) {
    return grtc_import_types_error(ctx, op, "moves quantized values: its quantized "
                                   "operands and results must have the same "
                                   "quantization (scales and zero points)");
  }
  // A convolution with batch groups takes the float path.
  const grtc_attribute_t* batch_groups = grtc_operation_attribute(op, "batch_group_count");
  bool one_batch_group = !batch_groups || (batch_groups->kind == GRTC_ATTR_INTEGER &&
                                           batch_groups->integer == 1);
  if ((entry->kind == GRTC_TOP_DOT_GENERAL ||
       (entry->kind == GRTC_TOP_CONVOLUTION && one_batch_group)) &&
      op->operand_count == 2 &&
      op->result_count == 1 && grtc_ttype_is_static(&operands[0]->type) &&
      grtc_ttype_is_static(&operands[1]->type) &&
      grtc_quant_dot_on_integers(&types[0], &types[1], &types[2], results[0].elem)) {
    // The op itself becomes the i32 dot (convolution) of the stored
    // values; the integer finish reads all three types.
    *out_mode = GRTC_IMPORT_QUANT_INTEGER;
    *out_types = types;
    results[0].elem = GRTC_ELEM_I32;
    return grt_ok_status();
  }
  *out_mode = GRTC_IMPORT_QUANT_FLOAT;
  *out_types = types;
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (types[i].count) operands[i] = grtc_quant_dequantize(&m, operands[i], &types[i]);
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (types[op->operand_count + i].count) {
      results[i].elem = types[op->operand_count + i].expressed;
    }
  }
  return grtc_import_at(ctx, op, m.status);
}

// The float mode's results quantized to their types.
static grt_status_t grtc_import_quant_finish(grtc_import_t* ctx, const grtc_operation_t* op,
                                             grtc_top_t* top,
                                             const grtc_quant_type_t* result_types,
                                             grtc_tblock_t* block) {
  // Dequantized operands compare as the floats they stand for.
  if (top->kind == GRTC_TOP_COMPARE) top->attrs.compare_type = GRTC_CMP_TYPE_FLOAT;
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (!result_types[i].count) continue;
    grtc_tvalue_t* q = grtc_quant_quantize(&m, &top->results[i], &result_types[i]);
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &op->results[i], q));
  }
  return grt_ok_status();
}

// The spec's constraints on a quantized convolution (C28-C33) that the
// float and integer modes share (|types|: lhs, rhs, result).
static grt_status_t grtc_import_quant_conv_check(const grtc_import_t* ctx,
                                                 const grtc_operation_t* op,
                                                 const grtc_top_t* top,
                                                 const grtc_quant_type_t* types) {
  const grtc_quant_type_t *lhs = &types[0], *rhs = &types[1], *result = &types[2];
  const grtc_conv_dims_t* c = &top->attrs.conv;
  if (lhs->count && !rhs->count) {
    return grtc_import_types_error(ctx, op, "has a quantized lhs and a float rhs (the "
                                   "spec asks for a quantized rhs with it)");
  }
  if (lhs->count && (lhs->storage != rhs->storage ||
                     lhs->storage_bits != rhs->storage_bits ||
                     lhs->storage_min != rhs->storage_min ||
                     lhs->storage_max != rhs->storage_max)) {
    return grtc_import_types_error(ctx, op, "needs one storage type and range on its "
                                   "quantized lhs and rhs");
  }
  if ((lhs->count && lhs->expressed != rhs->expressed) ||
      (result->count && rhs->count && result->expressed != rhs->expressed)) {
    return grtc_import_types_error(ctx, op, "needs one expressed type on its quantized "
                                   "operands and result");
  }
  if (rhs->per_axis && rhs->axis != c->kernel_output_feature) {
    return grtc_import_types_error(
        ctx, op, "has a per-axis rhs quantized along dimension %lld (the spec asks for "
        "its kernel output feature dimension, %lld)", (long long)rhs->axis,
        (long long)c->kernel_output_feature);
  }
  if (result->per_axis && result->axis != c->output_feature) {
    return grtc_import_types_error(
        ctx, op, "has a per-axis result quantized along dimension %lld (the spec asks "
        "for its output feature dimension, %lld)", (long long)result->axis,
        (long long)c->output_feature);
  }
  if (rhs->count && !rhs->per_axis && result->per_axis) {
    return grtc_import_types_error(ctx, op, "has a per-tensor rhs and a per-axis result "
                                   "(the spec asks for a per-tensor result with it)");
  }
  return grt_ok_status();
}

// The integer mode's i32 dot_general (convolution) |top| corrected and
// requantized to the op's result type (|types|: lhs, rhs, result).
static grt_status_t grtc_import_quant_dot(grtc_import_t* ctx, const grtc_operation_t* op,
                                          grtc_top_t* top, const grtc_quant_type_t* types,
                                          grtc_tblock_t* block) {
  grtc_ttype_t result;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[0].type, &result));
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  grtc_tvalue_t* q =
      top->kind == GRTC_TOP_CONVOLUTION
          ? grtc_quant_conv_finish(&m, &top->results[0], &types[0], &types[1], &types[2],
                                   result.elem)
          : grtc_quant_dot_finish(&m, &top->results[0], &types[0], &types[1], &types[2],
                                  result.elem);
  if (grt_status_code(m.status) == GRT_STATUS_INVALID_ARGUMENT) {
    grt_status_t error = grtc_import_types_error(ctx, op, "%s",
                                                 grt_status_message(m.status));
    grt_status_free(m.status);
    return error;
  }
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
  return grtc_import_map(ctx, &op->results[0], q);
}

// Whether |op| (of |kind|) is elementwise integer arithmetic whose result on
// i2/i4 values held one per byte (sign-extended for iN, zero-extended for
// uiN) wraps to the N-bit result: every operand and the result of one
// narrow type. Shifts right only keep the holder's extension (arithmetic
// for iN, logical for uiN); popcnt and count_leading_zeros count the
// holder's padding bits and are not among them.
static bool grtc_import_narrow_holder_op(grtc_top_kind_t kind, const grtc_operation_t* op) {
  bool is_unsigned = false;
  if (op->result_count != 1 || op->operand_count == 0 ||
      !grtc_narrow_int_bits(op->results[0].type, &is_unsigned)) {
    return false;
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (!grtc_type_equal(op->operands[i]->type, op->results[0].type)) return false;
  }
  switch (kind) {
    case GRTC_TOP_ADD:
    case GRTC_TOP_SUBTRACT:
    case GRTC_TOP_MULTIPLY:
    case GRTC_TOP_DIVIDE:
    case GRTC_TOP_REMAINDER:
    case GRTC_TOP_POWER:
    case GRTC_TOP_AND:
    case GRTC_TOP_OR:
    case GRTC_TOP_XOR:
    case GRTC_TOP_NOT:
    case GRTC_TOP_NEGATE:
    case GRTC_TOP_ABS:
    case GRTC_TOP_SIGN:
    case GRTC_TOP_SHIFT_LEFT:
      return true;
    case GRTC_TOP_SHIFT_RIGHT_ARITHMETIC:
      return !is_unsigned;
    case GRTC_TOP_SHIFT_RIGHT_LOGICAL:
      return is_unsigned;
    default:
      return false;
  }
}

// Plain i2/i4 tensors (held one per byte): ops that create, move, compare
// or pick values work on the holder as they are; convert to iN wraps (from
// integers) or saturates (from floats) to N bits; elementwise arithmetic
// runs on the holders and wraps (grtc_import_narrow_holder_op); iota runs
// on them while its indices fit; the rest is refused.
static grt_status_t grtc_import_narrow(grtc_import_t* ctx, const grtc_operation_t* op,
                                       grtc_top_kind_t kind, grtc_tvalue_t* const* operands,
                                       const grtc_ttype_t* results, grtc_tblock_t* block,
                                       bool* out_done) {
  *out_done = false;
  // GRTC_TOP_COUNT: a CHLO op, refused below.
  grtc_top_role_t role = kind == GRTC_TOP_COUNT ? GRTC_ROLE_O : grtc_top_kind_role(kind);
  if (kind == GRTC_TOP_CONVERT && op->operand_count == 1 && op->result_count == 1) {
    bool is_unsigned = false;
    uint32_t bits = grtc_narrow_int_bits(op->results[0].type, &is_unsigned);
    if (!bits) return grt_ok_status();  // from iN: the holder converts exactly
    grtc_import_chlo_place_t place = {ctx, op};
    grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
    grtc_chlo_math_t m = {&builder, grt_ok_status()};
    grtc_tvalue_t* x = operands[0];
    if (grtc_elem_is_float(x->type.elem)) {
      // Saturating, as every float-to-integer convert (NaN gives 0).
      int64_t lo = is_unsigned ? 0 : -(INT64_C(1) << (bits - 1));
      int64_t hi = is_unsigned ? (INT64_C(1) << bits) - 1 : (INT64_C(1) << (bits - 1)) - 1;
      grtc_tvalue_t* clamp[3] = {grtc_chlo_splat(&m, x, (double)lo), x,
                                 grtc_chlo_splat(&m, x, (double)hi)};
      x = grtc_chlo_make(&m, GRTC_TOP_CLAMP, clamp, 3, &x->type);
      x = grtc_chlo_convert(&m, x, results[0].elem);
    } else {
      x = grtc_narrow_wrap(&m, grtc_chlo_convert(&m, x, results[0].elem), bits, is_unsigned);
    }
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    *out_done = true;
    return grtc_import_map(ctx, &op->results[0], x);
  }
  if (kind == GRTC_TOP_BITCAST_CONVERT && op->operand_count == 1 && op->result_count == 1) {
    // Between iN and !quant.uniform<iN:...> (the stored values) the holders
    // agree; other widths would reinterpret the holder's padding bits.
    bool from_unsigned = false, to_unsigned = false;
    grtc_quant_type_t from, to;
    GRT_RETURN_IF_ERROR(grtc_import_quant_of(ctx, op, op->operands[0]->type, &from));
    GRT_RETURN_IF_ERROR(grtc_import_quant_of(ctx, op, op->results[0].type, &to));
    uint32_t from_bits = from.count ? from.storage_bits
                                    : grtc_narrow_int_bits(op->operands[0]->type,
                                                           &from_unsigned);
    uint32_t to_bits = to.count ? to.storage_bits
                                : grtc_narrow_int_bits(op->results[0].type, &to_unsigned);
    if (from.count) from_unsigned = !from.storage_signed;
    if (to.count) to_unsigned = !to.storage_signed;
    if (from_bits == to_bits && from_unsigned == to_unsigned) return grt_ok_status();
    // Otherwise the N-bit values themselves are reread: between iN and uiN
    // the holder is rewrapped; across widths (tensor<2xi4> <-> i8, 4xi4 <->
    // i16, i4 <-> 2xi2...) the parts are packed or unpacked little-endian.
    if (!from_bits) from_bits = grtc_elem_bit_width(operands[0]->type.elem);
    if (!to_bits) to_bits = grtc_elem_bit_width(results[0].elem);
    grtc_import_chlo_place_t place = {ctx, op};
    grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
    grtc_tvalue_t* x = NULL;
    if (from_bits == to_bits) {
      grtc_chlo_math_t m = {&builder, grt_ok_status()};
      x = operands[0];
      if (x->type.elem != results[0].elem) {
        grtc_ttype_t holder = x->type;
        holder.elem = results[0].elem;
        x = grtc_chlo_make(&m, GRTC_TOP_BITCAST_CONVERT, &x, 1, &holder);
      }
      x = grtc_narrow_wrap(&m, x, to_bits, to_unsigned);
      GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    } else {
      grt_status_t status =
          grtc_chlo_bitcast_bits(&builder, operands[0], from_bits, &results[0], to_bits, &x);
      if (!grt_status_is_ok(status)) {
        // Named in the source's types (the holders' would say i8).
        grt_status_free(status);
        return grtc_import_types_error(ctx, op, "needs the narrower element type's tensor "
                                       "to have the other's shape and a last dimension "
                                       "of the ratio of the bit widths (%u and %u), static",
                                       from_bits, to_bits);
      }
    }
    *out_done = true;
    return grtc_import_map(ctx, &op->results[0], x);
  }
  if (kind == GRTC_TOP_IOTA && op->result_count == 1) {
    // The holder's iota is exact while the largest index fits in N bits.
    bool is_unsigned = false;
    uint32_t bits = grtc_narrow_int_bits(op->results[0].type, &is_unsigned);
    int64_t dim = 0;
    GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "iota_dimension", true, &dim));
    int64_t count = INT64_C(1) << (is_unsigned ? bits : bits - 1);
    if (dim >= 0 && (uint32_t)dim < results[0].rank && results[0].dims[dim] >= 0 &&
        results[0].dims[dim] <= count) {
      return grt_ok_status();
    }
    return grtc_import_types_error(ctx, op, "on i2/i4 tensors counts to at most %lld "
                                   "along its dimension (the largest value the type "
                                   "holds)", (long long)(count - 1));
  }
  if (grtc_import_narrow_holder_op(kind, op)) {
    // Elementwise arithmetic and bit ops: on the holders, wrapped back to N
    // bits (their results agree with N-bit arithmetic modulo 2^N).
    bool is_unsigned = false;
    uint32_t bits = grtc_narrow_int_bits(op->results[0].type, &is_unsigned);
    grtc_import_chlo_place_t place = {ctx, op};
    grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
    grtc_chlo_math_t m = {&builder, grt_ok_status()};
    grtc_tvalue_t* x = grtc_chlo_make(&m, kind, operands, op->operand_count, &results[0]);
    x = grtc_narrow_wrap(&m, x, bits, is_unsigned);
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    *out_done = true;
    return grtc_import_map(ctx, &op->results[0], x);
  }
  if (role == GRTC_ROLE_S || role == GRTC_ROLE_C || role == GRTC_ROLE_H ||
      kind == GRTC_TOP_CONSTANT || kind == GRTC_TOP_GATHER || kind == GRTC_TOP_SELECT ||
      kind == GRTC_TOP_COMPARE || kind == GRTC_TOP_MAXIMUM || kind == GRTC_TOP_MINIMUM ||
      kind == GRTC_TOP_CLAMP) {
    return grt_ok_status();
  }
  return grtc_import_types_error(ctx, op, "on i2/i4 tensors is not supported (they "
                                 "take constants, convert, compare, select, maximum, "
                                 "minimum, clamp, elementwise arithmetic and bit ops "
                                 "other than popcnt, count_leading_zeros and the "
                                 "shift right that would lose the sign, ops that move "
                                 "values and bitcast_convert)");
}

static bool grtc_import_is_narrow(const grtc_operation_t* op);

// Whether |op| has an 8-bit float operand or result; the first one's kind.
static bool grtc_import_touches_f8(const grtc_operation_t* op, grtc_float_kind_t* out_kind) {
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (grtc_f8_kind_of(op->operands[i]->type, out_kind)) return true;
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (grtc_f8_kind_of(op->results[i].type, out_kind)) return true;
  }
  return false;
}

// Ops on 8-bit floats (held as their bit patterns in ui8, f8.h): convert
// decodes and encodes; elementwise ops and compare run in f32 on the
// decoded operands, their f8 results encoded back (each result rounded
// once, as the op on the f8 values gives), and so do the ops of a reduce
// body; check.expect_almost_eq and
// expect_close compare the decoded values (expect_close counting ULPs of
// the 8-bit type, grtc_f8_ulp_scale), expect_eq the bit patterns;
// ops that create, move or pick values and bitcast_convert take the bytes
// as they are; the rest is refused.
static grt_status_t grtc_import_f8(grtc_import_t* ctx, const grtc_operation_t* op,
                                   const grtc_import_op_t* entry, bool is_chlo,
                                   grtc_tvalue_t* const* operands,
                                   const grtc_ttype_t* results, grtc_tblock_t* block,
                                   bool* out_done) {
  *out_done = false;
  grtc_float_kind_t f8 = GRTC_FLOAT_F32;
  grtc_import_touches_f8(op, &f8);
  grtc_top_kind_t kind = is_chlo ? GRTC_TOP_COUNT : entry->kind;
  grtc_import_rule_t rule = entry->rule;
  if (!is_chlo && rule == GRTC_IMPORT_CUSTOM_CALL) {
    const grtc_attribute_t* target = grtc_operation_attribute(op, "call_target_name");
    bool almost = target && target->kind == GRTC_ATTR_STRING &&
                  grt_string_view_equal_cstring(target->string, "check.expect_almost_eq");
    bool close = target && target->kind == GRTC_ATTR_STRING &&
                 grt_string_view_equal_cstring(target->string, "check.expect_close");
    if (!almost && !close) return grt_ok_status();  // bit patterns, or refused there
    kind = almost ? GRTC_TOP_CHECK_ALMOST_EQ : GRTC_TOP_CHECK_CLOSE;
  }
  grtc_float_kind_t small = f8;
  for (uint32_t i = 0; kind == GRTC_TOP_BITCAST_CONVERT && i < op->result_count; ++i) {
    grtc_float_kind_t k;
    if (grtc_f8_kind_of(op->results[i].type, &k) && grtc_float_kind_bits(k) != 8) small = k;
  }
  if (kind == GRTC_TOP_BITCAST_CONVERT && grtc_float_kind_bits(small) != 8) {
    // Held in the low bits of a byte, they would need the other side's
    // bits moved, not the byte as it is.
    return grtc_import_error(ctx, op, "'%.*s' of the %d-bit float type %s is not supported "
                             "yet", GRT_SV_ARG(op->name), grtc_float_kind_bits(small),
                             grtc_float_kind_spelling(small));
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  if (kind == GRTC_TOP_CONVERT && op->operand_count == 1 && op->result_count == 1) {
    grtc_float_kind_t from = GRTC_FLOAT_F32, to = GRTC_FLOAT_F32;
    bool from_f8 = grtc_f8_kind_of(op->operands[0]->type, &from);
    bool to_f8 = grtc_f8_kind_of(op->results[0].type, &to);
    if (grtc_import_is_narrow(op) || grtc_import_is_quantized(op)) {
      return grtc_import_types_error(ctx, op, "between %s and i2/i4 or quantized types is "
                                     "not supported", grtc_float_kind_spelling(f8));
    }
    grtc_tvalue_t* x = operands[0];
    if (from_f8) x = grtc_f8_decode(&m, x, from);
    if (to_f8) {
      // f64 rounds once from its own bits; everything else is exact in f32
      // (integers past 2^24 overflow every f8 type either way).
      if (x && x->type.elem != GRTC_ELEM_F64) x = grtc_chlo_convert(&m, x, GRTC_ELEM_F32);
      x = grtc_f8_encode(&m, x, to);
    } else {
      x = grtc_chlo_convert(&m, x, results[0].elem);
    }
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    *out_done = true;
    return grtc_import_map(ctx, &op->results[0], x);
  }
  if ((kind == GRTC_TOP_CHECK_ALMOST_EQ || kind == GRTC_TOP_CHECK_CLOSE) &&
      op->result_count == 0 &&
      op->operand_count == (rule == GRTC_IMPORT_CHECK_CONST ? 1u : 2u)) {
    grtc_tvalue_t* pair[2] = {operands[0], rule == GRTC_IMPORT_CHECK_CONST ? NULL : operands[1]};
    if (rule == GRTC_IMPORT_CHECK_CONST) {
      GRT_RETURN_IF_ERROR(grtc_import_check_literal(ctx, op, block, &pair[1]));
    }
    grtc_float_kind_t a = GRTC_FLOAT_F32, b = GRTC_FLOAT_F32;
    bool a_f8 = grtc_f8_kind_of(op->operands[0]->type, &a);
    bool b_f8 = rule == GRTC_IMPORT_CHECK_CONST ? a_f8 : grtc_f8_kind_of(op->operands[1]->type, &b);
    if (rule == GRTC_IMPORT_CHECK_CONST) b = a;
    if (!a_f8 || !b_f8 || a != b) {
      return grtc_import_types_error(ctx, op, "compares two tensors of one type");
    }
    for (int i = 0; i < 2; ++i) {
      pair[i] = kind == GRTC_TOP_CHECK_CLOSE ? grtc_f8_ulp_scale(&m, pair[i], a)
                                             : grtc_f8_decode(&m, pair[i], a);
    }
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    grtc_top_t* check = NULL;
    GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, kind, pair, 2, NULL, 0, 0, block, &check));
    *out_done = true;
    return grtc_import_attrs(ctx, op, rule == GRTC_IMPORT_CHECK_CONST ? GRTC_IMPORT_PLAIN : rule,
                             check);
  }
  grtc_top_role_t role = kind == GRTC_TOP_COUNT ? GRTC_ROLE_O : grtc_top_kind_role(kind);
  // Control flow passes the bytes on, and reduce runs its body on the f8
  // values (its ops come through here, so each step is rounded to f8); other
  // ops with bodies (sort, scatter, reduce_window...) are not done yet.
  if ((kind == GRTC_TOP_BITCAST_CONVERT || kind == GRTC_TOP_CHECK_EQ ||
       kind == GRTC_TOP_CONSTANT || kind == GRTC_TOP_SELECT || kind == GRTC_TOP_GATHER ||
       kind == GRTC_TOP_REDUCE ||
       role == GRTC_ROLE_S || role == GRTC_ROLE_C ||
       (role == GRTC_ROLE_H && kind != GRTC_TOP_CHECK_ALMOST_EQ &&
        kind != GRTC_TOP_CHECK_CLOSE)) &&
      (op->region_count == 0 || role == GRTC_ROLE_C || kind == GRTC_TOP_REDUCE)) {
    return grt_ok_status();
  }
  if (role == GRTC_ROLE_E && op->region_count == 0 && !grtc_import_is_narrow(op) &&
      !grtc_import_is_quantized(op) && op->result_count >= 1 && op->result_count <= 4) {
    grtc_tvalue_t* wide[64];
    grtc_ttype_t wide_results[4];
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      grtc_float_kind_t k;
      wide[i] = grtc_f8_kind_of(op->operands[i]->type, &k) ? grtc_f8_decode(&m, operands[i], k)
                                                          : operands[i];
    }
    for (uint32_t i = 0; i < op->result_count; ++i) {
      grtc_float_kind_t k;
      wide_results[i] = results[i];
      if (grtc_f8_kind_of(op->results[i].type, &k)) wide_results[i].elem = GRTC_ELEM_F32;
    }
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    grtc_top_t* top = NULL;
    GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, kind, wide, op->operand_count,
                                           wide_results, op->result_count, 0, block, &top));
    GRT_RETURN_IF_ERROR(grtc_import_attrs(ctx, op, rule, top));
    for (uint32_t i = 0; i < op->result_count; ++i) {
      grtc_float_kind_t k;
      grtc_tvalue_t* r = &top->results[i];
      if (grtc_f8_kind_of(op->results[i].type, &k)) r = grtc_f8_encode(&m, r, k);
      GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
      GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &op->results[i], r));
    }
    *out_done = true;
    return grt_ok_status();
  }
  return grtc_import_types_error(ctx, op, "on %s tensors is not supported (8-bit floats "
                                 "take constants, convert, bitcast_convert, compare, "
                                 "select, elementwise ops (computed in f32 and rounded "
                                 "back), reduce, ops that move values and the check ops)",
                                 grtc_float_kind_spelling(f8));
}

// compare with comparison_type WEAKORDER, built from FLOAT compares: every
// NaN equals every other NaN and lies above every number (+Inf included);
// -0 and +0 are equal, as in a FLOAT compare.
static grt_status_t grtc_import_compare_weak_order(grtc_import_t* ctx,
                                                   const grtc_operation_t* op,
                                                   grtc_tvalue_t* const* operands,
                                                   grtc_tblock_t* block) {
  const grtc_attribute_t* attr = NULL;
  grtc_attr_error_t error;
  grtc_compare_direction_t direction;
  GRT_RETURN_IF_ERROR(grtc_import_required(ctx, op, "comparison_direction", &attr));
  GRTC_IMPORT_CHECK(ctx, op, grtc_attr_compare_direction(attr, &direction, &error), error);
  grtc_tvalue_t* x = operands[0];
  grtc_tvalue_t* y = operands[1];
  if (!grtc_elem_is_float(x->type.elem)) {
    return grtc_import_types_error(ctx, op, "with comparison_type WEAKORDER takes "
                                   "f16, bf16, f32 or f64 operands");
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  grtc_tvalue_t* x_nan = grtc_chlo_compare(&m, GRTC_CMP_NE, x, x);
  grtc_tvalue_t* y_nan = grtc_chlo_compare(&m, GRTC_CMP_NE, y, y);
  grtc_tvalue_t* numbers = grtc_chlo_compare(&m, direction, x, y);
  // What |direction| says of x == y (both NaN), x > y (only x NaN) and
  // x < y (only y NaN).
  bool holds_equal = direction == GRTC_CMP_EQ || direction == GRTC_CMP_LE ||
                     direction == GRTC_CMP_GE;
  bool holds_greater = direction == GRTC_CMP_NE || direction == GRTC_CMP_GT ||
                       direction == GRTC_CMP_GE;
  bool holds_less = direction == GRTC_CMP_NE || direction == GRTC_CMP_LT ||
                    direction == GRTC_CMP_LE;
  grtc_tvalue_t* equal = grtc_quant_int_splat(&m, x_nan, holds_equal);
  grtc_tvalue_t* greater = grtc_quant_int_splat(&m, x_nan, holds_greater);
  grtc_tvalue_t* less = grtc_quant_int_splat(&m, x_nan, holds_less);
  grtc_tvalue_t* r = grtc_chlo_select(&m, x_nan, grtc_chlo_select(&m, y_nan, equal, greater),
                                      grtc_chlo_select(&m, y_nan, less, numbers));
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
  return grtc_import_map(ctx, &op->results[0], r);
}

// bitcast_convert between element types of different widths
// (grtc_chlo_bitcast_widths).
static grt_status_t grtc_import_bitcast_widths(grtc_import_t* ctx, const grtc_operation_t* op,
                                           grtc_tvalue_t* x, const grtc_ttype_t* result,
                                           grtc_tblock_t* block) {
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_tvalue_t* value = NULL;
  GRT_RETURN_IF_ERROR(
      grtc_import_at(ctx, op, grtc_chlo_bitcast_widths(&builder, x, result, &value)));
  return grtc_import_map(ctx, &op->results[0], value);
}

static bool grtc_import_is_narrow(const grtc_operation_t* op) {
  bool is_unsigned = false;
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (grtc_narrow_int_bits(op->operands[i]->type, &is_unsigned)) return true;
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (grtc_narrow_int_bits(op->results[i].type, &is_unsigned)) return true;
  }
  return false;
}

// A quantized constant's literal is its stored values: each must lie in the
// storage range (i4 values are written in i8, so -100 parses).
static grt_status_t grtc_import_quant_constant(grtc_import_t* ctx,
                                               const grtc_operation_t* op,
                                               const grtc_top_t* top) {
  grtc_quant_type_t type;
  GRT_RETURN_IF_ERROR(grtc_import_quant_of(ctx, op, op->results[0].type, &type));
  if (!type.count) return grt_ok_status();
  grtc_elem_t elem = top->results[0].type.elem;
  size_t size = grtc_elem_byte_size(elem);
  for (size_t at = 0; at + size <= top->attrs.constant.size; at += size) {
    grtc_scalar_value_t v = grtc_eval_load(elem, top->attrs.constant.data + at);
    int64_t value = grtc_elem_is_signed_integer(elem) ? v.i : (int64_t)v.u;
    if (value < type.storage_min || value > type.storage_max) {
      return grtc_import_error(ctx, op, "quantized constant element %zu is %lld, outside "
                               "the storage range [%lld, %lld] of '%.*s'", at / size,
                               (long long)value, (long long)type.storage_min,
                               (long long)type.storage_max,
                               GRT_SV_ARG(grtc_quant_element(op->results[0].type)->opaque));
    }
  }
  return grt_ok_status();
}

// stablehlo.uniform_quantize (float to quantized, or quantized to another
// quantization) and stablehlo.uniform_dequantize.
static grt_status_t grtc_import_uniform(grtc_import_t* ctx, const grtc_operation_t* op,
                                        grtc_tblock_t* block) {
  bool quantize = grt_string_view_equal_cstring(op->name, "stablehlo.uniform_quantize");
  if (op->operand_count != 1 || op->result_count != 1 || op->region_count) {
    return grtc_import_error(ctx, op, "'%.*s' takes one operand and has one result",
                             GRT_SV_ARG(op->name));
  }
  grtc_tvalue_t* operand = grtc_import_lookup(ctx, op->operands[0]);
  if (!operand) {
    return grtc_import_error(ctx, op, "operand '%.*s' of '%.*s' has no imported value",
                             GRT_SV_ARG(op->operands[0]->name), GRT_SV_ARG(op->name));
  }
  grtc_ttype_t result;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[0].type, &result));
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, op, "result type", &result, 1));
  grtc_quant_type_t from, to;
  GRT_RETURN_IF_ERROR(grtc_import_quant_of(ctx, op, op->operands[0]->type, &from));
  GRT_RETURN_IF_ERROR(grtc_import_quant_of(ctx, op, op->results[0].type, &to));
  bool ok = grtc_ttype_same_shape(&operand->type, &result) &&
            (quantize ? to.count && (from.count || grtc_elem_is_float(operand->type.elem))
                      : from.count && !to.count && result.elem == from.expressed);
  if (!ok) {
    return grtc_import_types_error(
        ctx, op, "takes %s and gives %s of the same shape",
        quantize ? "a float or quantized tensor" : "a quantized tensor",
        quantize ? "a quantized tensor" : "a tensor of its expressed type");
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  grtc_tvalue_t* value = operand;
  if (from.count) value = grtc_quant_dequantize(&m, value, &from);
  if (quantize) value = grtc_quant_quantize(&m, value, &to);
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
  return grtc_import_map(ctx, &op->results[0], value);
}

static grt_status_t grtc_import_op(grtc_import_t* ctx, const grtc_operation_t* op,
                                   grtc_tblock_t* block);

// Imports |body| (a region of scalar arguments already mapped to tensors
// of |shape|'s shape, elementwise ops and constants, ending in a
// stablehlo.return or linalg.yield of |count| values) at |shape|'s shape:
// every op acts on each element at once, body constants and rank-0 values
// from outside the body are broadcast, and (in a linalg.generic)
// linalg.index is an iota. The ops in |skip| (NULL or |count| entries,
// some NULL) are left out. out_values gets the returned values (NULL where
// the return names no imported value).
static grt_status_t grtc_import_elementwise_body(grtc_import_t* ctx, const grtc_operation_t* op,
                                                 const grtc_block_t* body,
                                                 const grtc_ttype_t* shape,
                                                 const grtc_operation_t* const* skip,
                                                 uint32_t count, grtc_tblock_t* block,
                                                 grtc_tvalue_t** out_values) {
  for (uint32_t i = 0; i < count; ++i) out_values[i] = NULL;
  // Values from outside the body, while they are mapped to broadcasts.
  enum { kMaxCaptures = 64 };
  const grtc_value_t* captured[kMaxCaptures];
  grtc_tvalue_t* outer[kMaxCaptures];
  uint32_t capture_count = 0;
  grt_status_t status = grt_ok_status();
  for (const grtc_operation_t* inner = body->first; inner && grt_status_is_ok(status);
       inner = inner->next) {
    bool skipped = false;
    for (uint32_t i = 0; skip && i < count; ++i) skipped = skipped || skip[i] == inner;
    if (skipped) continue;
    if (grtc_operation_is(inner, "stablehlo.return") ||
        grtc_operation_is(inner, "linalg.yield")) {
      if (inner->operand_count != count) {
        status = grtc_import_error(ctx, inner, "'%.*s' body returns %u value%s",
                                   GRT_SV_ARG(op->name), count, count == 1 ? "" : "s");
        break;
      }
      for (uint32_t i = 0; i < count; ++i) {
        out_values[i] = grtc_import_lookup(ctx, inner->operands[i]);
      }
      break;
    }
    for (uint32_t i = 0; i < inner->operand_count && grt_status_is_ok(status); ++i) {
      const grtc_value_t* key = inner->operands[i];
      bool outside = key->defining_op ? key->defining_op->parent != body
                                      : key->owner_block != body;
      grtc_tvalue_t* value = grtc_import_lookup(ctx, key);
      if (!outside || !value || value->type.rank != 0 || shape->rank == 0) continue;
      if (capture_count == kMaxCaptures) {
        status = grtc_import_error(ctx, inner, "'%.*s' body uses more than %d values from "
                                   "outside it", GRT_SV_ARG(op->name), kMaxCaptures);
        break;
      }
      grtc_ttype_t wide = *shape;
      wide.elem = value->type.elem;
      grtc_top_t* top = NULL;
      status = grtc_import_new_op(ctx, inner, GRTC_TOP_BROADCAST_IN_DIM, &value, 1, &wide, 1,
                                  0, block, &top);
      if (!grt_status_is_ok(status)) break;
      top->attrs.dims = grtc_tmodule_i64s(ctx->module, NULL, 0);
      captured[capture_count] = key;
      outer[capture_count++] = value;
      status = grtc_import_map(ctx, key, &top->results[0]);
    }
    if (!grt_status_is_ok(status)) break;
    if (grtc_operation_is(inner, "linalg.index")) {
      int64_t dim = -1;
      if (!grtc_operation_is(op, "linalg.generic")) {
        status = grtc_import_error(ctx, inner, "'linalg.index' is only supported in a "
                                   "'linalg.generic' body");
        break;
      }
      status = grtc_import_int(ctx, inner, "dim", true, &dim);
      if (!grt_status_is_ok(status)) break;
      if (dim < 0 || dim >= (int64_t)shape->rank || inner->result_count != 1) {
        status = grtc_import_error(ctx, inner, "'linalg.index' dimension %" PRId64 " is not "
                                   "one of the %u loop dimensions", dim, shape->rank);
        break;
      }
      grtc_ttype_t index = *shape;
      index.elem = GRTC_ELEM_I64;
      grtc_top_t* top = NULL;
      status = grtc_import_new_op(ctx, inner, GRTC_TOP_IOTA, NULL, 0, &index, 1, 0, block,
                                  &top);
      if (!grt_status_is_ok(status)) break;
      top->attrs.dim = dim;
      status = grtc_import_map(ctx, &inner->results[0], &top->results[0]);
      continue;
    }
    bool constant = grtc_operation_is(inner, "stablehlo.constant") ||
                    grtc_operation_is(inner, "arith.constant");
    ctx->map_shape = constant ? NULL : shape;
    ctx->map_owner = op->name;
    status = grtc_import_op(ctx, inner, block);
    ctx->map_shape = NULL;
    if (!grt_status_is_ok(status) || !constant) continue;
    // A body constant, broadcast to the mapped shape.
    grtc_tvalue_t* scalar = grtc_import_lookup(ctx, &inner->results[0]);
    grtc_ttype_t wide = *shape;
    wide.elem = scalar->type.elem;
    grtc_top_t* top = NULL;
    status = grtc_import_new_op(ctx, inner, GRTC_TOP_BROADCAST_IN_DIM, &scalar, 1, &wide, 1,
                                0, block, &top);
    if (grt_status_is_ok(status)) {
      top->attrs.dims = grtc_tmodule_i64s(ctx->module, NULL, 0);
      status = grtc_import_map(ctx, &inner->results[0], &top->results[0]);
    }
  }
  for (uint32_t i = 0; i < capture_count && grt_status_is_ok(status); ++i) {
    status = grtc_import_map(ctx, captured[i], outer[i]);
  }
  return status;
}

// stablehlo.map(inputs...) with a body on rank-0 tensors, over every
// dimension: the body's ops are imported once at the inputs' full shape
// (its arguments are the inputs, its elementwise ops take that shape, its
// constants are broadcast to it), and the returned value is the result.
static grt_status_t grtc_import_map_op(grtc_import_t* ctx, const grtc_operation_t* op,
                                       grtc_tblock_t* block) {
  if (op->result_count != 1 || op->region_count != 1 || op->regions[0]->block_count != 1) {
    return grtc_import_error(ctx, op, "'stablehlo.map' has one result and one body block");
  }
  if (ctx->map_shape) {
    return grtc_import_error(ctx, op, "'stablehlo.map' inside a map body is not supported");
  }
  grtc_ttype_t result;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[0].type, &result));
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, op, "result type", &result, 1));
  const grtc_block_t* body = op->regions[0]->first;
  char text[GRTC_TTYPE_FORMAT_CAPACITY];
  grtc_ttype_format(&result, text, sizeof(text));
  if (body->arg_count != op->operand_count) {
    return grtc_import_error(ctx, op, "'stablehlo.map' body takes %u arguments for %u inputs",
                             body->arg_count, op->operand_count);
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grtc_tvalue_t* input = grtc_import_lookup(ctx, op->operands[i]);
    if (!input || !grtc_ttype_same_shape(&input->type, &result)) {
      return grtc_import_error(ctx, op, "'stablehlo.map' input #%u must have the result's "
                               "shape (%s)", i, text);
    }
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &body->args[i], input));
  }
  grtc_i64s_t dims = {0, NULL};
  GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "dimensions", true, &dims));
  bool every = dims.count == result.rank;
  for (uint32_t d = 0; every && d < dims.count; ++d) every = dims.values[d] == (int64_t)d;
  if (!every) {
    return grtc_import_error(ctx, op, "'stablehlo.map' must map over every dimension in "
                             "order (dimensions = [0, ..., %u])",
                             result.rank ? result.rank - 1 : 0);
  }
  grtc_tvalue_t* value = NULL;
  GRT_RETURN_IF_ERROR(
      grtc_import_elementwise_body(ctx, op, body, &result, NULL, 1, block, &value));
  if (!value || value->type.elem != result.elem || !grtc_ttype_same_shape(&value->type, &result)) {
    return grtc_import_error(ctx, op, "'stablehlo.map' body must return one value of the "
                             "result's element type");
  }
  return grtc_import_map(ctx, &op->results[0], value);
}

//===----------------------------------------------------------------------===//
// linalg.generic and tensor.expand_shape / tensor.collapse_shape
//===----------------------------------------------------------------------===//

// An affine_map<(d0, d1) -> (d1, 0)> of a linalg.generic operand: its
// results as loop dimensions (>= 0) or the constant 0 (-1).
typedef struct grtc_import_affine_t {
  uint32_t dim_count;
  uint32_t result_count;
  int32_t results[GRTC_MAX_RANK];
} grtc_import_affine_t;

// Whether |text| contains |word|.
static bool grtc_import_mentions(grt_string_view_t text, const char* word) {
  size_t n = strlen(word);
  for (size_t i = 0; i + n <= text.size; ++i) {
    if (memcmp(text.data + i, word, n) == 0) return true;
  }
  return false;
}

static const char* grtc_import_skip_space(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) ++p;
  return p;
}

// The comma-separated items of a (...) list starting at *p (the '('), each
// trimmed, into |items| (at most |capacity|); *p moves past the ')'.
static bool grtc_import_affine_list(const char** p, const char* end,
                                    grt_string_view_t* items, uint32_t capacity,
                                    uint32_t* count) {
  *count = 0;
  const char* q = grtc_import_skip_space(*p, end);
  if (q >= end || *q != '(') return false;
  ++q;
  q = grtc_import_skip_space(q, end);
  if (q < end && *q == ')') {
    *p = q + 1;
    return true;
  }
  for (;;) {
    const char* start = grtc_import_skip_space(q, end);
    int depth = 0;
    q = start;
    while (q < end && (depth > 0 || (*q != ',' && *q != ')'))) {
      if (*q == '(') ++depth;
      if (*q == ')') --depth;
      ++q;
    }
    if (q >= end || *count == capacity) return false;
    const char* stop = q;
    while (stop > start && (stop[-1] == ' ' || stop[-1] == '\n')) --stop;
    items[(*count)++] = grt_make_string_view(start, (size_t)(stop - start));
    if (*q == ')') {
      *p = q + 1;
      return true;
    }
    ++q;
  }
}

// Decodes indexing map #|index| of |op|: loop dimensions and the constant 0
// are supported; anything else (sums, products, symbols) is a diagnostic.
static grt_status_t grtc_import_affine(const grtc_import_t* ctx, const grtc_operation_t* op,
                                       uint32_t index, const grtc_attribute_t* attr,
                                       grtc_import_affine_t* out) {
  memset(out, 0, sizeof(*out));
  if (!attr || attr->kind != GRTC_ATTR_OPAQUE) {
    return grtc_import_error(ctx, op, "'%.*s' indexing map #%u must be an affine_map<...>",
                             GRT_SV_ARG(op->name), index);
  }
  const char* p = attr->opaque.data;
  const char* end = p + attr->opaque.size;
  while (p < end && *p != '(') ++p;
  grt_string_view_t dims[GRTC_MAX_RANK], results[GRTC_MAX_RANK];
  uint32_t dim_count = 0, result_count = 0;
  bool ok = grtc_import_affine_list(&p, end, dims, GRTC_MAX_RANK, &dim_count);
  p = grtc_import_skip_space(p, end);
  if (ok && p < end && *p == '[') {
    return grtc_import_error(ctx, op, "'%.*s' indexing map #%u (%.*s) has symbols; "
                             "only maps of loop dimensions are supported",
                             GRT_SV_ARG(op->name), index, GRT_SV_ARG(attr->opaque));
  }
  ok = ok && p + 1 < end && p[0] == '-' && p[1] == '>';
  if (ok) {
    p += 2;
    ok = grtc_import_affine_list(&p, end, results, GRTC_MAX_RANK, &result_count);
  }
  if (!ok) {
    return grtc_import_error(ctx, op, "'%.*s' indexing map #%u (%.*s) is not an "
                             "affine_map<(d0, ...) -> (...)> of at most %d dimensions",
                             GRT_SV_ARG(op->name), index, GRT_SV_ARG(attr->opaque),
                             GRTC_MAX_RANK);
  }
  out->dim_count = dim_count;
  out->result_count = result_count;
  for (uint32_t r = 0; r < result_count; ++r) {
    int32_t found = -2;
    if (grt_string_view_equal_cstring(results[r], "0")) found = -1;
    for (uint32_t d = 0; d < dim_count && found == -2; ++d) {
      if (grt_string_view_equal(results[r], dims[d])) found = (int32_t)d;
    }
    if (found == -2) {
      return grtc_import_error(ctx, op, "'%.*s' indexing map #%u result '%.*s' is not "
                               "supported (only a loop dimension or 0)",
                               GRT_SV_ARG(op->name), index, GRT_SV_ARG(results[r]));
    }
    for (uint32_t s = 0; s < r && found >= 0; ++s) {
      if (out->results[s] == found) {
        return grtc_import_error(ctx, op, "'%.*s' indexing map #%u names loop dimension "
                                 "'%.*s' twice (diagonals are not supported)",
                                 GRT_SV_ARG(op->name), index, GRT_SV_ARG(results[r]));
      }
    }
    out->results[r] = found;
  }
  return grt_ok_status();
}

// |x| (an operand whose dimensions |map| names) spread over the loop space
// |loops|: its 0-indexed unit dimensions dropped, the rest transposed into
// loop order and broadcast along the loops it does not name.
static grtc_tvalue_t* grtc_import_linalg_spread(grtc_chlo_math_t* m, grtc_tvalue_t* x,
                                                const grtc_import_affine_t* map,
                                                const grtc_ttype_t* loops) {
  int64_t kept[GRTC_MAX_RANK];
  uint32_t count = 0;
  for (uint32_t r = 0; r < map->result_count; ++r) {
    if (map->results[r] >= 0) kept[count++] = map->results[r];
  }
  if (count != x->type.rank) {
    grtc_ttype_t type = x->type;
    type.rank = count;
    for (uint32_t r = 0, k = 0; r < map->result_count; ++r) {
      if (map->results[r] >= 0) type.dims[k++] = x->type.dims[r];
    }
    x = grtc_chlo_make(m, GRTC_TOP_RESHAPE, &x, 1, &type);
    if (!x) return NULL;
  }
  // The permutation that sorts |kept|.
  int64_t perm[GRTC_MAX_RANK], sorted[GRTC_MAX_RANK];
  bool identity = true;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t rank = 0;
    for (uint32_t j = 0; j < count; ++j) rank += kept[j] < kept[i];
    perm[rank] = i;
    identity = identity && rank == i;
  }
  for (uint32_t i = 0; i < count; ++i) sorted[i] = kept[perm[i]];
  if (!identity) {
    grtc_ttype_t type = x->type;
    for (uint32_t i = 0; i < count; ++i) type.dims[i] = x->type.dims[perm[i]];
    x = grtc_chlo_make(m, GRTC_TOP_TRANSPOSE, &x, 1, &type);
    if (!x) return NULL;
    x->def->attrs.dims = grtc_tmodule_i64s(m->b->module, perm, count);
  }
  if (count == loops->rank) return x;
  grtc_ttype_t type = *loops;
  type.elem = x->type.elem;
  x = grtc_chlo_make(m, GRTC_TOP_BROADCAST_IN_DIM, &x, 1, &type);
  if (x) x->def->attrs.dims = grtc_tmodule_i64s(m->b->module, sorted, count);
  return x;
}

// The combining ops a reduction output may yield, with their tensor op.
static const struct {
  const char* name;
  grtc_top_kind_t kind;
} grtc_import_linalg_combiners[] = {
    {"arith.addf", GRTC_TOP_ADD},         {"arith.addi", GRTC_TOP_ADD},
    {"arith.mulf", GRTC_TOP_MULTIPLY},    {"arith.muli", GRTC_TOP_MULTIPLY},
    {"arith.maximumf", GRTC_TOP_MAXIMUM}, {"arith.minimumf", GRTC_TOP_MINIMUM},
    {"arith.maxsi", GRTC_TOP_MAXIMUM},    {"arith.minsi", GRTC_TOP_MINIMUM},
    {"arith.andi", GRTC_TOP_AND},         {"arith.ori", GRTC_TOP_OR},
    {"arith.xori", GRTC_TOP_XOR},
};

// The identity of |kind| on |elem| (the reduce's initial value).
static grtc_scalar_value_t grtc_import_linalg_identity(grtc_top_kind_t kind,
                                                       grtc_elem_t elem) {
  grtc_scalar_value_t v;
  v.u = 0;
  bool is_float = grtc_elem_is_float(elem);
  uint32_t bits = grtc_elem_bit_width(elem);
  int64_t smin = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
  switch (kind) {
    case GRTC_TOP_MULTIPLY:
      if (is_float) v.f = 1.0; else v.i = 1;
      break;
    case GRTC_TOP_MAXIMUM:
      if (is_float) v.f = -HUGE_VAL; else v.i = elem == GRTC_ELEM_I1 ? 0 : smin;
      break;
    case GRTC_TOP_MINIMUM:
      if (is_float) v.f = HUGE_VAL; else v.i = elem == GRTC_ELEM_I1 ? 1 : -(smin + 1);
      break;
    case GRTC_TOP_AND:
      v.i = elem == GRTC_ELEM_I1 ? 1 : -1;
      break;
    default:
      break;
  }
  return v;
}

// How reduction output #|j| of a linalg.generic combines: its yielded value
// must be `comb(x, acc)` or `comb(acc, x)` of a combining op and its
// accumulator argument |acc|, which is used nowhere else.
static grt_status_t grtc_import_linalg_combiner(const grtc_import_t* ctx,
                                                const grtc_operation_t* op,
                                                const grtc_block_t* body, uint32_t j,
                                                const grtc_value_t* yielded,
                                                const grtc_value_t* acc,
                                                const grtc_operation_t** out_op,
                                                grtc_top_kind_t* out_kind,
                                                const grtc_value_t** out_x) {
  const grtc_operation_t* comb = yielded->defining_op;
  uint32_t uses = 0;
  for (const grtc_operation_t* inner = body->first; inner; inner = inner->next) {
    for (uint32_t i = 0; i < inner->operand_count; ++i) uses += inner->operands[i] == acc;
  }
  if (comb && comb->parent == body && comb->operand_count == 2 && uses == 1 &&
      (comb->operands[0] == acc) != (comb->operands[1] == acc)) {
    for (size_t i = 0; i < sizeof(grtc_import_linalg_combiners) /
                               sizeof(grtc_import_linalg_combiners[0]); ++i) {
      if (!grtc_operation_is(comb, grtc_import_linalg_combiners[i].name)) continue;
      *out_op = comb;
      *out_kind = grtc_import_linalg_combiners[i].kind;
      *out_x = comb->operands[comb->operands[0] == acc ? 1 : 0];
      return grt_ok_status();
    }
  }
  return grtc_import_error(ctx, op, "'%.*s' reduction output #%u must yield one "
                           "arith.addf/addi/mulf/muli/maximumf/minimumf/maxsi/minsi/andi/"
                           "ori/xori of its accumulator argument (used nowhere else) and "
                           "a value", GRT_SV_ARG(op->name), j);
}

// linalg.generic on tensors: ins and outs read through indexing maps of
// loop dimensions (permutations, projections, broadcasts, 0 for unit
// dimensions), a body of elementwise arith/math ops, linalg.index and
// linalg.yield. Every operand is spread over the loop space, the body is
// imported once at that shape (as a stablehlo.map body), each parallel
// output is its yielded value transposed into the output's order, and each
// output of a loop nest with reduction loops is a reduce of the value its
// combining op takes, over those loops, combined with the output's
// initial value.
static grt_status_t grtc_import_linalg_generic(grtc_import_t* ctx, const grtc_operation_t* op,
                                               grtc_tblock_t* block) {
  if (op->region_count != 1 || op->regions[0]->block_count != 1) {
    return grtc_import_error(ctx, op, "'linalg.generic' has one body block");
  }
  if (ctx->map_shape) {
    return grtc_import_error(ctx, op, "'linalg.generic' inside an elementwise body is not "
                             "supported");
  }
  grtc_i64s_t segments = {0, NULL};
  GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "operandSegmentSizes", true, &segments));
  if (segments.count != 2 || segments.values[0] < 0 || segments.values[1] < 1 ||
      segments.values[0] + segments.values[1] != (int64_t)op->operand_count ||
      segments.values[1] != (int64_t)op->result_count) {
    return grtc_import_error(ctx, op, "'linalg.generic' takes ins and outs, one tensor "
                             "result per out (%u operands, %u results)", op->operand_count,
                             op->result_count);
  }
  uint32_t ins = (uint32_t)segments.values[0];
  uint32_t total = op->operand_count;
  const grtc_attribute_t* maps = grtc_operation_attribute(op, "indexing_maps");
  const grtc_attribute_t* iterators = grtc_operation_attribute(op, "iterator_types");
  if (!maps || maps->kind != GRTC_ATTR_ARRAY || maps->array.count != total) {
    return grtc_import_error(ctx, op, "'linalg.generic' needs 'indexing_maps', one "
                             "affine_map per operand (%u)", total);
  }
  if (!iterators || iterators->kind != GRTC_ATTR_ARRAY ||
      iterators->array.count > GRTC_MAX_RANK) {
    return grtc_import_error(ctx, op, "'linalg.generic' needs 'iterator_types', a list of "
                             "at most %d \"parallel\" or \"reduction\"", GRTC_MAX_RANK);
  }
  uint32_t loop_count = iterators->array.count;
  bool reduction[GRTC_MAX_RANK];
  uint32_t reductions = 0;
  for (uint32_t d = 0; d < loop_count; ++d) {
    const grtc_attribute_t* item = iterators->array.items[d];
    grt_string_view_t word = item->kind == GRTC_ATTR_STRING ? item->string
                             : item->kind == GRTC_ATTR_OPAQUE ? item->opaque
                                                             : grt_make_cstring_view("?");
    bool parallel = grtc_import_mentions(word, "parallel");
    reduction[d] = grtc_import_mentions(word, "reduction");
    if (parallel == reduction[d]) {
      return grtc_import_error(ctx, op, "'linalg.generic' iterator type #%u (%.*s) is not "
                               "supported (only parallel and reduction)", d,
                               GRT_SV_ARG(word));
    }
    reductions += reduction[d];
  }
  // The maps, the operands and the loop sizes they give.
  grtc_import_affine_t affine[64];
  grtc_tvalue_t* operands[64];
  if (total > 64) {
    return grtc_import_error(ctx, op, "'linalg.generic' with more than 64 operands is not "
                             "supported");
  }
  grtc_ttype_t loops = {0};
  loops.rank = loop_count;
  int32_t sized_by[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < loop_count; ++d) sized_by[d] = -1;
  for (uint32_t i = 0; i < total; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_affine(ctx, op, i, maps->array.items[i], &affine[i]));
    operands[i] = grtc_import_lookup(ctx, op->operands[i]);
    if (!operands[i]) {
      return grtc_import_error(ctx, op, "operand #%u of 'linalg.generic' has no imported "
                               "value", i);
    }
    const grtc_ttype_t* type = &operands[i]->type;
    if (!grtc_ttype_is_static(type)) {
      return grtc_import_error(ctx, op, "'linalg.generic' with a symbolic dimension ('?') "
                               "in operand #%u is not supported yet", i);
    }
    if (affine[i].dim_count != loop_count || affine[i].result_count != type->rank) {
      return grtc_import_error(ctx, op, "'linalg.generic' indexing map #%u must take %u "
                               "loop dimensions and give operand #%u's rank %u", i,
                               loop_count, i, type->rank);
    }
    for (uint32_t r = 0; r < type->rank; ++r) {
      int32_t d = affine[i].results[r];
      if (d < 0) {
        if (type->dims[r] != 1) {
          return grtc_import_error(ctx, op, "'linalg.generic' operand #%u dimension %u is "
                                   "indexed by 0 but has size %" PRId64 " (must be 1)", i, r,
                                   type->dims[r]);
        }
        continue;
      }
      if (sized_by[d] < 0) {
        sized_by[d] = (int32_t)i;
        loops.dims[d] = type->dims[r];
      } else if (loops.dims[d] != type->dims[r]) {
        return grtc_import_error(ctx, op, "'linalg.generic' loop dimension %d is %" PRId64
                                 " in operand #%d and %" PRId64 " in operand #%u", d,
                                 loops.dims[d], sized_by[d], type->dims[r], i);
      }
    }
  }
  for (uint32_t d = 0; d < loop_count; ++d) {
    if (sized_by[d] < 0) {
      return grtc_import_error(ctx, op, "'linalg.generic' loop dimension %u indexes no "
                               "operand, so its size is unknown", d);
    }
  }
  const grtc_block_t* body = op->regions[0]->first;
  if (body->arg_count != total) {
    return grtc_import_error(ctx, op, "'linalg.generic' body takes %u arguments for %u "
                             "operands", body->arg_count, total);
  }
  // Reduction outputs: their combining ops are applied after the body.
  const grtc_operation_t* yield = body->last;
  if (!yield || !grtc_operation_is(yield, "linalg.yield") ||
      yield->operand_count != op->result_count) {
    return grtc_import_error(ctx, op, "'linalg.generic' body must end in a linalg.yield of "
                             "%u values", op->result_count);
  }
  const grtc_operation_t* combiners[64] = {0};
  grtc_top_kind_t combine_kinds[64];
  const grtc_value_t* reduced[64];
  for (uint32_t j = 0; j < op->result_count; ++j) {
    const grtc_import_affine_t* map = &affine[ins + j];
    bool projection = map->result_count == loop_count - reductions;
    for (uint32_t r = 0; r < map->result_count; ++r) {
      projection = projection && map->results[r] >= 0 && !reduction[map->results[r]];
    }
    if (!projection) {
      return grtc_import_error(ctx, op, "'linalg.generic' output #%u's indexing map must "
                               "name each parallel loop dimension once", j);
    }
    if (reductions) {
      GRT_RETURN_IF_ERROR(grtc_import_linalg_combiner(ctx, op, body, j, yield->operands[j],
                                                      &body->args[ins + j], &combiners[j],
                                                      &combine_kinds[j], &reduced[j]));
    }
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t math = {&builder, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  for (uint32_t i = 0; i < total; ++i) {
    if (i >= ins && reductions) continue;  // accumulators: combined after the reduce
    loops.elem = operands[i]->type.elem;
    grtc_tvalue_t* spread = grtc_import_linalg_spread(m, operands[i], &affine[i], &loops);
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &body->args[i], spread));
  }
  grtc_tvalue_t* values[64];
  GRT_RETURN_IF_ERROR(grtc_import_elementwise_body(ctx, op, body, &loops, combiners,
                                                   op->result_count, block, values));
  for (uint32_t j = 0; j < op->result_count; ++j) {
    grtc_ttype_t result;
    GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[j].type, &result));
    grtc_tvalue_t* value = reductions ? grtc_import_lookup(ctx, reduced[j]) : values[j];
    if (value && value->type.rank != loop_count) {
      return grtc_import_error(ctx, op, "'linalg.generic' result #%u yields a value from "
                               "outside the body, which is not supported", j);
    }
    if (!value || value->type.elem != result.elem ||
        !grtc_ttype_same_shape(&operands[ins + j]->type, &result)) {
      return grtc_import_error(ctx, op, "'linalg.generic' result #%u must have out #%u's "
                               "type and be yielded as its element type", j, j);
    }
    const grtc_import_affine_t* map = &affine[ins + j];
    // Where each parallel loop dimension, in loop order, sits in the output
    // (|perm|: loop-order position -> output dimension).
    int64_t perm[GRTC_MAX_RANK];
    uint32_t count = 0;
    for (uint32_t d = 0; d < loop_count; ++d) {
      if (reduction[d]) continue;
      for (uint32_t r = 0; r < map->result_count; ++r) {
        if (map->results[r] == (int32_t)d) perm[count] = r;
      }
      ++count;
    }
    if (reductions) {
      int64_t dims[GRTC_MAX_RANK];
      uint32_t dim_count = 0;
      grtc_ttype_t kept = {0};
      kept.elem = result.elem;
      for (uint32_t d = 0; d < loop_count; ++d) {
        if (reduction[d]) dims[dim_count++] = d;
        else kept.dims[kept.rank++] = loops.dims[d];
      }
      grtc_ttype_t scalar = {0};
      scalar.elem = result.elem;
      grtc_tvalue_t* inputs[2] = {
          value, grtc_chlo_splat_type(m, &scalar,
                                      grtc_import_linalg_identity(combine_kinds[j],
                                                                  result.elem))};
      GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
      grtc_top_t* reduce = NULL;
      GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_REDUCE, inputs, 2, &kept, 1, 1,
                                             block, &reduce));
      reduce->attrs.dims = grtc_tmodule_i64s(ctx->module, dims, dim_count);
      GRT_RETURN_IF_ERROR(grtc_top_set_scalar_body(ctx->module, reduce, combine_kinds[j],
                                                   result.elem));
      // The initial value in loop order, combined with the reduction.
      loops.elem = result.elem;
      grtc_import_affine_t init_map = *map;
      grtc_tvalue_t* init = grtc_import_linalg_spread(m, operands[ins + j], &init_map, &kept);
      value = grtc_chlo_binary(m, combine_kinds[j], init, &reduce->results[0]);
      GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
    }
    bool identity = true;
    for (uint32_t r = 0; r < count; ++r) identity = identity && perm[r] == (int64_t)r;
    if (!identity) {
      // Output dimension perm[k] is loop-order dimension k.
      int64_t inverse[GRTC_MAX_RANK];
      for (uint32_t k = 0; k < count; ++k) inverse[perm[k]] = k;
      value = grtc_chlo_make(m, GRTC_TOP_TRANSPOSE, &value, 1, &result);
      GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
      value->def->attrs.dims = grtc_tmodule_i64s(ctx->module, inverse, count);
    }
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &op->results[j], value));
  }
  return grt_ok_status();
}

// A rank-1 i64 tensor of |rank| sizes: sizes[d], or where values[d] is not
// NULL that rank-0 integer (an index, or a get_dimension_size).
static grtc_tvalue_t* grtc_import_shape_tensor(grtc_chlo_math_t* m, const int64_t* sizes,
                                               grtc_tvalue_t* const* values, uint32_t rank) {
  grtc_tvalue_t* parts[GRTC_MAX_RANK];
  grtc_ttype_t one = {0};
  one.elem = GRTC_ELEM_I64;
  one.rank = 1;
  one.dims[0] = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    if (values[d]) {
      grtc_tvalue_t* v = grtc_chlo_convert(m, values[d], GRTC_ELEM_I64);
      parts[d] = v ? grtc_chlo_make(m, GRTC_TOP_RESHAPE, &v, 1, &one) : NULL;
    } else {
      grtc_scalar_value_t v;
      v.i = sizes[d];
      parts[d] = grtc_chlo_splat_type(m, &one, v);
    }
  }
  if (rank == 1) return parts[0];
  grtc_ttype_t all = one;
  all.dims[0] = rank;
  grtc_tvalue_t* shape = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, parts, rank, &all);
  if (shape) shape->def->attrs.dim = 0;
  return shape;
}

// tensor.empty(%d, ...) : tensor<?x4xf32>: zeros (its contents are
// unspecified) of the symbolic shape, one size operand per '?': a
// dynamic_broadcast_in_dim of a zero.
static grt_status_t grtc_import_empty_symbolic(grtc_import_t* ctx, const grtc_operation_t* op,
                                               grtc_tblock_t* block) {
  grtc_ttype_t result;
  if (op->result_count != 1) {
    return grtc_import_error(ctx, op, "'tensor.empty' must have one result; it has %u",
                             op->result_count);
  }
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[0].type, &result));
  grtc_tvalue_t* values[GRTC_MAX_RANK] = {0};
  uint32_t used = 0;
  for (uint32_t d = 0; d < result.rank; ++d) {
    if (result.dims[d] != GRTC_DYNAMIC_DIM) continue;
    if (used < op->operand_count) {
      values[d] = grtc_import_lookup(ctx, op->operands[used]);
      if (!values[d] || values[d]->type.rank != 0 ||
          !grtc_elem_is_integer(values[d]->type.elem)) {
        return grtc_import_error(ctx, op, "'tensor.empty' size operand #%u must be an "
                                 "index", used);
      }
    }
    ++used;
  }
  if (used != op->operand_count) {
    return grtc_import_error(ctx, op, "'tensor.empty' takes one size operand per '?' in "
                             "its result type: %u for %u", op->operand_count, used);
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t math = {&builder, grt_ok_status()};
  grtc_ttype_t scalar = {0};
  scalar.elem = result.elem;
  grtc_scalar_value_t zero;
  zero.u = 0;
  grtc_tvalue_t* inputs[2] = {grtc_chlo_splat_type(&math, &scalar, zero),
                              grtc_import_shape_tensor(&math, result.dims, values,
                                                       result.rank)};
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, math.status));
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM, inputs,
                                         2, &result, 1, 0, block, &top));
  top->attrs.dims = grtc_tmodule_i64s(ctx->module, NULL, 0);
  return grtc_import_map(ctx, &op->results[0], &top->results[0]);
}

// tensor.expand_shape / tensor.collapse_shape: the reassociation groups
// split the larger rank's dimensions, in order, among the smaller rank's;
// a group's sizes multiply to its dimension's size. With static sizes a
// reshape; with '?' sizes a dynamic_reshape, whose shape is the
// output_shape values (expand_shape) or each group's product of
// get_dimension_size (collapse_shape).
static grt_status_t grtc_import_reshape_groups(grtc_import_t* ctx, const grtc_operation_t* op,
                                               grtc_tblock_t* block) {
  bool expand = grtc_operation_is(op, "tensor.expand_shape");
  grtc_tvalue_t* source = op->operand_count >= 1 && op->result_count == 1
                              ? grtc_import_lookup(ctx, op->operands[0])
                              : NULL;
  if (!source) {
    return grtc_import_error(ctx, op, "'%.*s' takes one tensor and returns one",
                             GRT_SV_ARG(op->name));
  }
  grtc_ttype_t result;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[0].type, &result));
  const grtc_ttype_t* big = expand ? &result : &source->type;
  const grtc_ttype_t* small = expand ? &source->type : &result;
  const grtc_attribute_t* groups = grtc_operation_attribute(op, "reassociation");
  if (!groups || groups->kind != GRTC_ATTR_ARRAY || groups->array.count != small->rank ||
      result.elem != source->type.elem) {
    return grtc_import_error(ctx, op, "'%.*s' needs one reassociation group per dimension "
                             "of its %s type (%u) and keeps the element type",
                             GRT_SV_ARG(op->name), expand ? "source" : "result",
                             small->rank);
  }
  // group_of[b]: the small dimension big dimension b belongs to.
  uint32_t group_of[GRTC_MAX_RANK];
  uint32_t next = 0;
  for (uint32_t g = 0; g < groups->array.count; ++g) {
    grtc_i64s_t group = {0, NULL};
    grtc_attr_error_t error;
    if (!grtc_attr_i64s(ctx->module, groups->array.items[g], "reassociation", &group,
                        &error)) {
      return grtc_import_error(ctx, op, "%s", error.message);
    }
    for (uint32_t k = 0; k < group.count; ++k) {
      if (group.values[k] != (int64_t)next || next >= big->rank) {
        return grtc_import_error(ctx, op, "'%.*s' reassociation group %u must continue "
                                 "the %s type's dimensions in order (expected %u)",
                                 GRT_SV_ARG(op->name), g, expand ? "result" : "source",
                                 next);
      }
      group_of[next++] = g;
    }
    if (!group.count) {
      return grtc_import_error(ctx, op, "'%.*s' reassociation group %u is empty",
                               GRT_SV_ARG(op->name), g);
    }
  }
  if (next != big->rank) {
    return grtc_import_error(ctx, op, "'%.*s' reassociation groups cover %u of the %u "
                             "dimensions", GRT_SV_ARG(op->name), next, big->rank);
  }
  // expand_shape's output_shape (when given) must agree with the result.
  grtc_i64s_t output = {0, NULL};
  if (expand) {
    GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "static_output_shape", false, &output));
    if (output.values && output.count != result.rank) {
      return grtc_import_error(ctx, op, "'tensor.expand_shape' output_shape has %u sizes "
                               "for a rank-%u result", output.count, result.rank);
    }
  }
  bool dynamic = !grtc_ttype_is_static(&source->type);
  for (uint32_t d = 0; d < result.rank; ++d) dynamic = dynamic || result.dims[d] < 0;
  uint32_t dynamic_sizes = 0;
  for (uint32_t d = 0; output.values && d < output.count; ++d) {
    bool is_dynamic = output.values[d] == INT64_MIN;
    dynamic_sizes += is_dynamic;
    if (is_dynamic != (result.dims[d] == GRTC_DYNAMIC_DIM) ||
        (!is_dynamic && output.values[d] != result.dims[d])) {
      return grtc_import_error(ctx, op, "'tensor.expand_shape' output_shape size %u does "
                               "not match the result type", d);
    }
  }
  if (op->operand_count != 1 + dynamic_sizes) {
    return grtc_import_error(ctx, op, "'%.*s' takes one size operand per '?' in "
                             "output_shape: %u for %u", GRT_SV_ARG(op->name),
                             op->operand_count - 1, dynamic_sizes);
  }
  if (!dynamic) {
    for (uint32_t s = 0; s < small->rank; ++s) {
      int64_t product = 1;
      for (uint32_t b = 0; b < big->rank; ++b) {
        if (group_of[b] == s) product *= big->dims[b];
      }
      if (product != small->dims[s]) {
        return grtc_import_error(ctx, op, "'%.*s' reassociation group %u multiplies to %"
                                 PRId64 ", not %" PRId64, GRT_SV_ARG(op->name), s, product,
                                 small->dims[s]);
      }
    }
    grtc_top_t* top = NULL;
    GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_RESHAPE, &source, 1, &result, 1,
                                           0, block, &top));
    return grtc_import_map(ctx, &op->results[0], &top->results[0]);
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t math = {&builder, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  grtc_tvalue_t* values[GRTC_MAX_RANK] = {0};
  int64_t sizes[GRTC_MAX_RANK];
  if (expand) {
    if (!output.values) {
      return grtc_import_error(ctx, op, "'tensor.expand_shape' with '?' result sizes needs "
                               "output_shape");
    }
    for (uint32_t d = 0, used = 1; d < result.rank; ++d) {
      sizes[d] = result.dims[d];
      if (output.values[d] != INT64_MIN) continue;
      values[d] = grtc_import_lookup(ctx, op->operands[used++]);
      if (!values[d] || values[d]->type.rank != 0 ||
          !grtc_elem_is_integer(values[d]->type.elem)) {
        return grtc_import_error(ctx, op, "'tensor.expand_shape' output_shape size %u must "
                                 "be an index", d);
      }
    }
  } else {
    for (uint32_t s = 0; s < result.rank; ++s) {
      sizes[s] = 1;
      for (uint32_t b = 0; b < big->rank; ++b) {
        if (group_of[b] != s) continue;
        if (big->dims[b] >= 0) {
          sizes[s] *= big->dims[b];
          continue;
        }
        grtc_ttype_t index = {0};
        index.elem = GRTC_ELEM_I64;
        grtc_tvalue_t* extent = grtc_chlo_make(m, GRTC_TOP_GET_DIMENSION_SIZE, &source, 1,
                                               &index);
        if (extent) extent->def->attrs.dim = b;
        values[s] = values[s] ? grtc_chlo_binary(m, GRTC_TOP_MULTIPLY, values[s], extent) : extent;
      }
      if (values[s] && sizes[s] != 1) {
        values[s] = grtc_chlo_binary(m, GRTC_TOP_MULTIPLY, values[s],
                                     grtc_chlo_splat(m, values[s], (double)sizes[s]));
      }
    }
  }
  grtc_tvalue_t* inputs[2] = {source, grtc_import_shape_tensor(m, sizes, values, result.rank)};
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_DYNAMIC_RESHAPE, inputs, 2,
                                         &result, 1, 0, block, &top));
  return grtc_import_map(ctx, &op->results[0], &top->results[0]);
}

// chlo.scan: N inputs scanned along |dimension| with M carries. The body
// takes each input's slice at a position (|dimension| dropped) and the
// carries, and returns N output slices and the M new carries; the results
// are the N outputs (the slices stacked along |dimension|) and the last
// carries. is_reverse scans from the last position. The scan is unrolled
// (the body imported once per position), so its length is bounded.
#define GRTC_IMPORT_MAX_SCAN_LENGTH 1024

static grt_status_t grtc_import_scan(grtc_import_t* ctx, const grtc_operation_t* op,
                                     grtc_tblock_t* block) {
  grtc_i64s_t segments = {0, NULL};
  GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "operandSegmentSizes", true, &segments));
  if (segments.count != 2 || segments.values[0] < 1 || segments.values[1] < 0 ||
      segments.values[0] + segments.values[1] != (int64_t)op->operand_count) {
    return grtc_import_error(ctx, op, "'chlo.scan' operandSegmentSizes must be [inputs, "
                             "inits] (at least one input) summing to its %u operands",
                             op->operand_count);
  }
  uint32_t n = (uint32_t)segments.values[0], carries = (uint32_t)segments.values[1];
  if (op->result_count != n + carries || op->region_count != 1 ||
      op->regions[0]->block_count != 1 || op->regions[0]->first->arg_count != n + carries) {
    return grtc_import_error(ctx, op, "'chlo.scan' with %u inputs and %u inits has %u "
                             "results and one body block of %u arguments", n, carries,
                             n + carries, n + carries);
  }
  if (ctx->map_shape) {
    return grtc_import_error(ctx, op, "'chlo.scan' inside a map body is not supported");
  }
  int64_t dimension = 0;
  GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "dimension", true, &dimension));
  bool reverse = false;
  GRT_RETURN_IF_ERROR(grtc_import_flag(ctx, op, "is_reverse", &reverse));
  grtc_tvalue_t* inputs[64];
  grtc_tvalue_t* carry[64];
  grtc_ttype_t results[64];
  if (op->operand_count > 64) {
    return grtc_import_error(ctx, op, "'chlo.scan' with more than 64 operands is not "
                             "supported");
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grtc_tvalue_t* value = grtc_import_lookup(ctx, op->operands[i]);
    if (!value) {
      return grtc_import_error(ctx, op, "operand #%u of 'chlo.scan' has no imported value",
                               i);
    }
    if (i < n) inputs[i] = value;
    else carry[i - n] = value;
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[i].type, &results[i]));
  }
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, op, "result types", results, op->result_count));
  const grtc_ttype_t* first = &inputs[0]->type;
  if (dimension < 0 || dimension >= (int64_t)first->rank) {
    return grtc_import_error(ctx, op, "'chlo.scan' dimension %" PRId64 " is outside its "
                             "first input's rank %u", dimension, first->rank);
  }
  uint32_t d = (uint32_t)dimension;
  int64_t length = first->dims[d];
  for (uint32_t i = 0; i < n + carries; ++i) {
    const grtc_ttype_t* want = i < n ? &inputs[i]->type : &carry[i - n]->type;
    bool fits = grtc_ttype_same_shape(want, &results[i]) && want->elem == results[i].elem;
    if (i < n) fits = fits && grtc_ttype_same_shape(want, first);
    if (!fits) {
      char text[2][GRTC_TTYPE_FORMAT_CAPACITY];
      grtc_ttype_format(want, text[0], sizeof(text[0]));
      grtc_ttype_format(&results[i], text[1], sizeof(text[1]));
      return grtc_import_error(ctx, op, "'chlo.scan' result #%u must have the type of its "
                               "%s (the inputs one shape), got %s for %s", i,
                               i < n ? "input" : "init", text[1], text[0]);
    }
  }
  if (length > GRTC_IMPORT_MAX_SCAN_LENGTH) {
    return grtc_import_error(ctx, op, "'chlo.scan' over %" PRId64 " positions is not "
                             "supported (it is unrolled, at most %d)", length,
                             GRTC_IMPORT_MAX_SCAN_LENGTH);
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  const grtc_block_t* body = op->regions[0]->first;
  grt_allocator_t allocator = ctx->allocator;
  // outs[i * length + k]: output i's slice at position k, [.., 1, ..].
  grtc_tvalue_t** outs = NULL;
  if (n && length) {
    GRT_RETURN_IF_ERROR(grt_allocator_malloc(allocator, n * length * sizeof(*outs),
                                             (void**)&outs));
  }
  grt_status_t status = grt_ok_status();
  for (int64_t t = 0; t < length && grt_status_is_ok(status); ++t) {
    int64_t k = reverse ? length - 1 - t : t;
    for (uint32_t i = 0; i < n && grt_status_is_ok(status); ++i) {
      const grtc_ttype_t* type = &inputs[i]->type;
      int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
      for (uint32_t r = 0; r < type->rank; ++r) {
        limit[r] = type->dims[r];
        strides[r] = 1;
      }
      start[d] = k;
      limit[d] = k + 1;
      grtc_ttype_t sliced = *type;
      sliced.dims[d] = 1;
      grtc_tvalue_t* slice = grtc_chlo_make(&m, GRTC_TOP_SLICE, &inputs[i], 1, &sliced);
      if (slice) {
        slice->def->attrs.start = grtc_tmodule_i64s(ctx->module, start, type->rank);
        slice->def->attrs.limit = grtc_tmodule_i64s(ctx->module, limit, type->rank);
        slice->def->attrs.strides = grtc_tmodule_i64s(ctx->module, strides, type->rank);
      }
      grtc_ttype_t element = sliced;
      element.rank = type->rank - 1;
      for (uint32_t r = d; r < element.rank; ++r) element.dims[r] = type->dims[r + 1];
      grtc_tvalue_t* value = grtc_chlo_make(&m, GRTC_TOP_RESHAPE, &slice, 1, &element);
      status = grtc_import_at(ctx, op, m.status);
      m.status = grt_ok_status();
      if (grt_status_is_ok(status)) status = grtc_import_map(ctx, &body->args[i], value);
    }
    for (uint32_t j = 0; j < carries && grt_status_is_ok(status); ++j) {
      status = grtc_import_map(ctx, &body->args[n + j], carry[j]);
    }
    const grtc_operation_t* ret = NULL;
    for (const grtc_operation_t* inner = body->first; inner && grt_status_is_ok(status);
         inner = inner->next) {
      if (grtc_operation_is(inner, "stablehlo.return")) {
        ret = inner;
        break;
      }
      status = grtc_import_op(ctx, inner, block);
    }
    if (!grt_status_is_ok(status)) break;
    if (!ret || ret->operand_count != n + carries) {
      status = grtc_import_error(ctx, op, "'chlo.scan' body must end in a stablehlo.return "
                                 "of %u output slices and %u carries", n, carries);
      break;
    }
    for (uint32_t i = 0; i < n + carries && grt_status_is_ok(status); ++i) {
      grtc_tvalue_t* value = grtc_import_lookup(ctx, ret->operands[i]);
      grtc_ttype_t want = i < n ? results[i] : carry[i - n]->type;
      if (i < n) {
        want.rank = results[i].rank - 1;
        for (uint32_t r = d; r < want.rank; ++r) want.dims[r] = results[i].dims[r + 1];
      }
      if (!value || value->type.elem != want.elem ||
          !grtc_ttype_same_shape(&value->type, &want)) {
        char text[GRTC_TTYPE_FORMAT_CAPACITY];
        grtc_ttype_format(&want, text, sizeof(text));
        status = grtc_import_error(ctx, ret, "'chlo.scan' body result #%u must be %s (%s)",
                                   i, text, i < n ? "its output's slice, the scanned "
                                   "dimension dropped" : "its carry's type");
        break;
      }
      if (i >= n) {
        carry[i - n] = value;
        continue;
      }
      grtc_ttype_t column = results[i];
      column.dims[d] = 1;
      outs[i * length + k] = grtc_chlo_make(&m, GRTC_TOP_RESHAPE, &value, 1, &column);
      status = grtc_import_at(ctx, op, m.status);
      m.status = grt_ok_status();
    }
  }
  for (uint32_t i = 0; i < n && grt_status_is_ok(status); ++i) {
    grtc_tvalue_t* value = NULL;
    if (length == 0) {
      value = grtc_chlo_splat_type(&m, &results[i], (grtc_scalar_value_t){.f = 0.0});
    } else if (length == 1) {
      value = outs[i * length];
    } else {
      value = grtc_chlo_make(&m, GRTC_TOP_CONCATENATE, &outs[i * length], (uint32_t)length,
                             &results[i]);
      if (value) value->def->attrs.dim = d;
    }
    status = grtc_import_at(ctx, op, m.status);
    if (grt_status_is_ok(status)) status = grtc_import_map(ctx, &op->results[i], value);
  }
  for (uint32_t j = 0; j < carries && grt_status_is_ok(status); ++j) {
    status = grtc_import_map(ctx, &op->results[n + j], carry[j]);
  }
  grt_allocator_free(allocator, outs);
  return status;
}

// stablehlo.select_and_scatter (docs/compiler.md): each window of the
// padded operand selects one position by a left fold in row-major order,
// as XLA computes it: the first element inside the operand starts it, and
// each later one replaces the pick where select(pick, candidate) is false
// (padding never takes part). That fold is one reduce_window over (operand,
// flat index) pairs whose padding reads index -1. Each window's source
// element is then scattered with the scatter region into its pick, onto
// init_value everywhere; a window of padding alone picks -1, out of bounds,
// and its source element is dropped.
static grt_status_t grtc_import_select_and_scatter(grtc_import_t* ctx,
                                                   const grtc_operation_t* op,
                                                   grtc_tblock_t* block) {
  if (op->operand_count != 3 || op->result_count != 1 || op->region_count != 2) {
    return grtc_import_error(ctx, op, "'stablehlo.select_and_scatter' takes 3 operands "
                             "(operand, source, init_value), 1 result and 2 regions "
                             "(select, scatter); got %u, %u and %u", op->operand_count,
                             op->result_count, op->region_count);
  }
  if (ctx->map_shape) {
    return grtc_import_error(ctx, op, "'stablehlo.map' bodies of elementwise ops are "
                             "supported; 'stablehlo.select_and_scatter' is not one");
  }
  grtc_tvalue_t* inputs[3];
  for (uint32_t i = 0; i < 3; ++i) {
    inputs[i] = grtc_import_lookup(ctx, op->operands[i]);
    if (!inputs[i]) {
      return grtc_import_error(ctx, op, "operand #%u of 'stablehlo.select_and_scatter' "
                               "has no imported value", i);
    }
  }
  grtc_ttype_t result;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[0].type, &result));
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, op, "result type", &result, 1));
  const grtc_ttype_t* x = &inputs[0]->type;
  const grtc_ttype_t* source = &inputs[1]->type;
  const grtc_ttype_t* init = &inputs[2]->type;
  grtc_ttype_t types[3] = {*x, *source, *init};
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, op, "operand types", types, 3));
  char tx[GRTC_TTYPE_FORMAT_CAPACITY], tt[GRTC_TTYPE_FORMAT_CAPACITY];
  grtc_ttype_format(x, tx, sizeof(tx));
  if (init->rank != 0 || init->elem != x->elem) {
    return grtc_import_error(ctx, op, "'stablehlo.select_and_scatter' init_value must be "
                             "a rank-0 tensor of the operand's element type (operand %s), "
                             "got %s", tx, grtc_ttype_format(init, tt, sizeof(tt)));
  }
  if (result.elem != x->elem || !grtc_ttype_same_shape(&result, x)) {
    return grtc_import_error(ctx, op, "'stablehlo.select_and_scatter' returns the "
                             "operand's type %s, not %s", tx,
                             grtc_ttype_format(&result, tt, sizeof(tt)));
  }
  grtc_window_t window;
  memset(&window, 0, sizeof(window));
  GRT_RETURN_IF_ERROR(grtc_import_window(ctx, op, x->rank, &window));
  grtc_ttype_t picked = *x;
  for (uint32_t d = 0; d < x->rank; ++d) {
    int64_t size = window.dimensions.values[d], stride = window.strides.values[d];
    int64_t low = window.padding_low.values[d], high = window.padding_high.values[d];
    if (size < 1 || stride < 1 || low < 0 || high < 0 ||
        window.base_dilations.values[d] != 1 || window.window_dilations.values[d] != 1) {
      return grtc_import_error(ctx, op, "'stablehlo.select_and_scatter' dimension %u needs "
                               "a window size and stride of at least 1, padding of at "
                               "least 0 and no dilation; got size %lld, stride %lld, "
                               "padding [%lld, %lld]", d, (long long)size,
                               (long long)stride, (long long)low, (long long)high);
    }
    int64_t padded = x->dims[d] + low + high;
    picked.dims[d] = padded < size ? 0 : (padded - size) / stride + 1;
  }
  if (source->elem != x->elem || !grtc_ttype_same_shape(source, &picked)) {
    char want[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_import_error(ctx, op, "'stablehlo.select_and_scatter' source must be %s "
                             "(one element per window of the padded operand %s), got %s",
                             grtc_ttype_format(&picked, want, sizeof(want)), tx,
                             grtc_ttype_format(source, tt, sizeof(tt)));
  }
  const grtc_region_t* select = op->regions[0];
  const grtc_block_t* select_block = select->first;
  if (select->block_count != 1 || select_block->arg_count != 2) {
    return grtc_import_error(ctx, op, "'stablehlo.select_and_scatter' select region has one "
                             "block of 2 arguments");
  }
  int64_t count = grtc_ttype_element_count(x);
  grtc_elem_t index_elem = count <= INT32_MAX ? GRTC_ELEM_I32 : GRTC_ELEM_I64;
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t math = {&builder, grt_ok_status()};
  grtc_chlo_math_t* m = &math;
  // The flat (row-major) index of each operand element.
  grtc_ttype_t index_type = *x;
  index_type.elem = index_elem;
  grtc_ttype_t index_scalar = {0};
  index_scalar.elem = index_elem;
  grtc_scalar_value_t value;
  value.i = 0;
  grtc_tvalue_t* flat = x->rank ? NULL : grtc_chlo_splat_type(m, &index_type, value);
  int64_t stride = 1;
  for (uint32_t d = x->rank; d-- > 0;) {
    grtc_tvalue_t* iota = grtc_chlo_make(m, GRTC_TOP_IOTA, NULL, 0, &index_type);
    if (iota) iota->def->attrs.dim = d;
    if (stride != 1) {
      value.i = stride;
      iota = grtc_chlo_binary(m, GRTC_TOP_MULTIPLY, iota,
                              grtc_chlo_splat_type(m, &index_type, value));
    }
    flat = flat ? grtc_chlo_binary(m, GRTC_TOP_ADD, flat, iota) : iota;
    stride *= x->dims[d];
  }
  value.i = -1;
  grtc_tvalue_t* none = grtc_chlo_splat_type(m, &index_scalar, value);
  GRT_RETURN_IF_ERROR(math.status);
  // The picks: reduce_window over (value, index).
  grtc_ttype_t scalar = {0};
  scalar.elem = x->elem;
  grtc_ttype_t picked_index = picked;
  picked_index.elem = index_elem;
  grtc_ttype_t window_results[2] = {picked, picked_index};
  grtc_tvalue_t* window_operands[4] = {inputs[0], flat, inputs[2], none};
  grtc_top_t* reduce = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_REDUCE_WINDOW, window_operands, 4,
                                         window_results, 2, 1, block, &reduce));
  reduce->attrs.window = window;
  grtc_ttype_t body_args[4] = {scalar, index_scalar, scalar, index_scalar};
  grtc_tblock_t* body = NULL;
  GRT_RETURN_IF_ERROR(grtc_tblock_create(ctx->module, body_args, 4, &body));
  grtc_top_set_region(reduce, 0, body);
  // The select region's ops on (pick, candidate), its verdict kept.
  for (uint32_t i = 0; i < 2; ++i) {
    grtc_ttype_t arg;
    GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, select_block->args[i].type, &arg));
    if (arg.rank != 0 || arg.elem != x->elem) {
      return grtc_import_error(ctx, op, "'stablehlo.select_and_scatter' select region "
                               "takes two rank-0 tensors of the operand's element type "
                               "(operand %s), got %s", tx,
                               grtc_ttype_format(&arg, tt, sizeof(tt)));
    }
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &select_block->args[i], &body->args[2 * i]));
  }
  grtc_tvalue_t* keep = NULL;
  ++ctx->scalar_region_depth;
  grt_status_t status = grt_ok_status();
  for (const grtc_operation_t* inner = select_block->first; inner; inner = inner->next) {
    if (grtc_operation_is(inner, "stablehlo.return")) {
      keep = inner->operand_count == 1 ? grtc_import_lookup(ctx, inner->operands[0]) : NULL;
      break;
    }
    status = grtc_import_op(ctx, inner, body);
    if (!grt_status_is_ok(status)) break;
  }
  --ctx->scalar_region_depth;
  GRT_RETURN_IF_ERROR(status);
  if (!keep || keep->type.rank != 0 || keep->type.elem != GRTC_ELEM_I1) {
    return grtc_import_error(ctx, op, "'stablehlo.select_and_scatter' select region must "
                             "return one tensor<i1>");
  }
  // Take the candidate where there is no pick yet, or where it is inside
  // the operand and select(pick, candidate) is false.
  builder.block = body;
  none = grtc_chlo_splat_type(m, &index_scalar, value);
  grtc_tvalue_t* pick_none = grtc_chlo_make(m, GRTC_TOP_COMPARE,
                                            (grtc_tvalue_t*[]){&body->args[1], none}, 2,
                                            &keep->type);
  grtc_tvalue_t* candidate_some = grtc_chlo_make(m, GRTC_TOP_COMPARE,
                                                 (grtc_tvalue_t*[]){&body->args[3], none},
                                                 2, &keep->type);
  if (pick_none && candidate_some) {
    pick_none->def->attrs.compare_direction = GRTC_CMP_EQ;
    candidate_some->def->attrs.compare_direction = GRTC_CMP_NE;
    pick_none->def->attrs.compare_type = GRTC_CMP_TYPE_SIGNED;
    candidate_some->def->attrs.compare_type = GRTC_CMP_TYPE_SIGNED;
  }
  grtc_tvalue_t* take = grtc_chlo_binary(
      m, GRTC_TOP_OR, pick_none,
      grtc_chlo_binary(m, GRTC_TOP_AND, candidate_some,
                       grtc_chlo_unary(m, GRTC_TOP_NOT, keep)));
  grtc_tvalue_t* chosen[2];
  for (uint32_t i = 0; i < 2; ++i) {
    chosen[i] = grtc_chlo_make(m, GRTC_TOP_SELECT,
                               (grtc_tvalue_t*[]){take, &body->args[2 + i], &body->args[i]},
                               3, &body_args[i]);
  }
  GRT_RETURN_IF_ERROR(math.status);
  grtc_top_t* yield = NULL;
  GRT_RETURN_IF_ERROR(
      grtc_import_new_op(ctx, op, GRTC_TOP_YIELD, chosen, 2, NULL, 0, 0, body, &yield));
  builder.block = block;
  // The scatter onto init_value, flattened.
  grtc_ttype_t flat_type = {0};
  flat_type.elem = x->elem;
  flat_type.rank = 1;
  flat_type.dims[0] = count;
  grtc_tvalue_t* base = grtc_chlo_make(m, GRTC_TOP_BROADCAST_IN_DIM, &inputs[2], 1,
                                       &flat_type);
  GRT_RETURN_IF_ERROR(math.status);
  base->def->attrs.dims = grtc_tmodule_i64s(ctx->module, NULL, 0);
  grtc_tvalue_t* scatter_operands[3] = {base, &reduce->results[1], inputs[1]};
  grtc_top_t* scatter = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_SCATTER, scatter_operands, 3,
                                         &flat_type, 1, 1, block, &scatter));
  int64_t zero = 0;
  grtc_scatter_dims_t* dims = &scatter->attrs.scatter;
  dims->update_window_dims = grtc_tmodule_i64s(ctx->module, NULL, 0);
  dims->inserted_window_dims = grtc_tmodule_i64s(ctx->module, &zero, 1);
  dims->input_batching_dims = grtc_tmodule_i64s(ctx->module, NULL, 0);
  dims->scatter_indices_batching_dims = grtc_tmodule_i64s(ctx->module, NULL, 0);
  dims->scatter_dims_to_operand_dims = grtc_tmodule_i64s(ctx->module, &zero, 1);
  dims->index_vector_dim = source->rank;
  GRT_RETURN_IF_ERROR(grtc_import_region(ctx, op, op->regions[1], scatter, 0));
  grtc_tvalue_t* flat_result = &scatter->results[0];
  grtc_tvalue_t* shaped = grtc_chlo_make(m, GRTC_TOP_RESHAPE, &flat_result, 1, &result);
  GRT_RETURN_IF_ERROR(math.status);
  return grtc_import_map(ctx, &op->results[0], shaped);
}

// A func.call inside a reduce, reduce_window, scatter or sort body (which
// run per element inside a kernel, where there are no calls): the callee's
// body is imported in its place, its arguments the call's operands, its
// returned values the call's results.
#define GRTC_IMPORT_MAX_INLINE_DEPTH 16

static grt_status_t grtc_import_inline_call(grtc_import_t* ctx, const grtc_operation_t* op,
                                            grtc_tblock_t* block) {
  const grtc_attribute_t* callee = grtc_operation_attribute(op, "callee");
  if (!callee || callee->kind != GRTC_ATTR_SYMBOL_REF || callee->symbol.count != 1) {
    return grtc_import_error(ctx, op, "'%.*s' requires a 'callee' naming a function (@name)",
                             GRT_SV_ARG(op->name));
  }
  grt_string_view_t name = callee->symbol.names[0];
  uint32_t index = 0;
  const grtc_operation_t* func =
      grt_name_index_find(&ctx->func_index, name, &index) ? ctx->funcs[index] : NULL;
  if (!func) {
    return grtc_import_error(ctx, op, "call to undefined function '@%.*s'", GRT_SV_ARG(name));
  }
  if (ctx->inline_depth >= GRTC_IMPORT_MAX_INLINE_DEPTH) {
    return grtc_import_error(ctx, op, "calls from a reduce, reduce_window, scatter or sort "
                             "body are inlined, and '@%.*s' nests them deeper than %d "
                             "(recursion?)", GRT_SV_ARG(name), GRTC_IMPORT_MAX_INLINE_DEPTH);
  }
  const grtc_region_t* region = func->regions[0];
  const grtc_block_t* entry = region->first;
  if (region->block_count != 1 || entry->arg_count != op->operand_count) {
    return grtc_import_error(ctx, op, "'@%.*s' called from a per-element body must be one "
                             "block taking the call's %u operands", GRT_SV_ARG(name),
                             op->operand_count);
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    grtc_tvalue_t* value = grtc_import_lookup(ctx, op->operands[i]);
    if (!value) {
      return grtc_import_error(ctx, op, "operand #%u of '%.*s' has no imported value", i,
                               GRT_SV_ARG(op->name));
    }
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &entry->args[i], value));
  }
  ++ctx->inline_depth;
  grt_status_t status = grt_ok_status();
  bool returned = false;
  for (const grtc_operation_t* inner = entry->first; inner && grt_status_is_ok(status);
       inner = inner->next) {
    if (!grtc_operation_is(inner, "func.return")) {
      status = grtc_import_op(ctx, inner, block);
      continue;
    }
    returned = true;
    if (inner->operand_count != op->result_count) {
      status = grtc_import_error(ctx, op, "'@%.*s' returns %u values; the call has %u "
                                 "results", GRT_SV_ARG(name), inner->operand_count,
                                 op->result_count);
      break;
    }
    for (uint32_t i = 0; i < op->result_count && grt_status_is_ok(status); ++i) {
      status = grtc_import_map(ctx, &op->results[i], grtc_import_lookup(ctx, inner->operands[i]));
    }
  }
  --ctx->inline_depth;
  GRT_RETURN_IF_ERROR(status);
  if (!returned) {
    return grtc_import_error(ctx, op, "'@%.*s' has no func.return", GRT_SV_ARG(name));
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// interpreter.probe and check.expect_serialized_eq
//===----------------------------------------------------------------------===//

// `%y = interpreter.probe %x, probe_id = "p"` gives %x and records it:
// each run stores %x in the next slot of a module global of
// GRTC_IMPORT_PROBE_SLOTS values of its type (dynamic_update_slice clamps
// runs past the slots into the last one) and counts the run in a second
// global. `check.expect_serialized_eq %v, probe_id = "p", iter = N` checks
// that probe "p" ran more than N times and that its recording N equals %v
// (N below GRTC_IMPORT_PROBE_SLOTS - 1; 0 when absent). The interpreter
// writes the recordings to files; grt keeps them in the module.
static grt_status_t grtc_import_probe_id(grtc_import_t* ctx, const grtc_operation_t* op,
                                         grt_string_view_t* out_id) {
  const grtc_attribute_t* attr = grtc_operation_attribute(op, "probe_id");
  if (!attr || attr->kind != GRTC_ATTR_STRING) {
    return grtc_import_error(ctx, op, "'%.*s' requires a 'probe_id' string",
                             GRT_SV_ARG(op->name));
  }
  *out_id = attr->string;
  return grt_ok_status();
}

static grtc_import_probe_t* grtc_import_find_probe(grtc_import_t* ctx, grt_string_view_t id) {
  for (uint32_t i = 0; i < ctx->probe_count; ++i) {
    if (grt_string_view_equal(ctx->probes[i].id, id)) return &ctx->probes[i];
  }
  return NULL;
}

static grtc_tvalue_t* grtc_import_global_load(grtc_import_t* ctx, const grtc_operation_t* op,
                                              const grtc_tglobal_t* global,
                                              grtc_tblock_t* block, grt_status_t* status) {
  grtc_top_t* top = NULL;
  *status = grtc_import_new_op(ctx, op, GRTC_TOP_GLOBAL_LOAD, NULL, 0, &global->type, 1, 0,
                               block, &top);
  if (!grt_status_is_ok(*status)) return NULL;
  top->attrs.global = global;
  return &top->results[0];
}

static grt_status_t grtc_import_global_put(grtc_import_t* ctx, const grtc_operation_t* op,
                                           const grtc_tglobal_t* global, grtc_tvalue_t* value,
                                           grtc_tblock_t* block) {
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_GLOBAL_STORE, &value, 1, NULL, 0, 0,
                                         block, &top));
  top->attrs.global = global;
  return grt_ok_status();
}

static grt_status_t grtc_import_probe(grtc_import_t* ctx, const grtc_operation_t* op,
                                      grtc_tblock_t* block) {
  grt_string_view_t id = {NULL, 0};
  GRT_RETURN_IF_ERROR(grtc_import_probe_id(ctx, op, &id));
  grtc_tvalue_t* x = op->operand_count == 1 && op->result_count == 1
                         ? grtc_import_lookup(ctx, op->operands[0])
                         : NULL;
  if (!x) {
    return grtc_import_error(ctx, op, "'interpreter.probe' takes one tensor and returns it");
  }
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, op, "operand type", &x->type, 1));
  grtc_import_probe_t* probe = grtc_import_find_probe(ctx, id);
  if (probe && !grtc_ttype_equal(&probe->type, &x->type)) {
    char a[GRTC_TTYPE_FORMAT_CAPACITY], b[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_import_error(ctx, op, "'interpreter.probe' \"%.*s\" records %s here and %s "
                             "elsewhere: one probe_id keeps one type", GRT_SV_ARG(id),
                             grtc_ttype_format(&x->type, a, sizeof(a)),
                             grtc_ttype_format(&probe->type, b, sizeof(b)));
  }
  if (!probe) {
    if (ctx->probe_count == GRTC_IMPORT_MAX_PROBES || x->type.rank + 1 > GRTC_MAX_RANK) {
      return grtc_import_error(ctx, op, "'interpreter.probe': at most %d probe ids of rank "
                               "below %d are supported", GRTC_IMPORT_MAX_PROBES,
                               GRTC_MAX_RANK);
    }
    probe = &ctx->probes[ctx->probe_count];
    probe->id = id;
    probe->type = x->type;
    grtc_ttype_t slots = x->type;
    slots.rank = x->type.rank + 1;
    slots.dims[0] = GRTC_IMPORT_PROBE_SLOTS;
    for (uint32_t d = 0; d < x->type.rank; ++d) slots.dims[d + 1] = x->type.dims[d];
    grtc_ttype_t count = {0};
    count.elem = GRTC_ELEM_I64;
    static const uint8_t zeros[16] = {0};
    char name[64];
    grtc_tglobal_t* values = NULL;
    grtc_tglobal_t* runs = NULL;
    snprintf(name, sizeof(name), "__probe_%u_values", ctx->probe_count);
    grt_status_t status = grtc_tmodule_add_global(
        ctx->module, grt_make_cstring_view(name), &slots, zeros,
        (size_t)grtc_ttype_byte_size(&(grtc_ttype_t){.elem = slots.elem}), true, &values);
    if (grt_status_is_ok(status)) {
      snprintf(name, sizeof(name), "__probe_%u_count", ctx->probe_count);
      status = grtc_tmodule_add_global(ctx->module, grt_make_cstring_view(name), &count, zeros,
                                       8, true, &runs);
    }
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, status));
    probe->values = values;
    probe->count = runs;
    ++ctx->probe_count;
  }
  grt_status_t status = grt_ok_status();
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  grtc_tvalue_t* runs = grtc_import_global_load(ctx, op, probe->count, block, &status);
  GRT_RETURN_IF_ERROR(status);
  grtc_tvalue_t* slots = grtc_import_global_load(ctx, op, probe->values, block, &status);
  GRT_RETURN_IF_ERROR(status);
  grtc_ttype_t row = probe->values->type;
  row.dims[0] = 1;
  grtc_tvalue_t* operands[GRTC_MAX_RANK + 2];
  operands[0] = slots;
  operands[1] = grtc_chlo_make(&m, GRTC_TOP_RESHAPE, &x, 1, &row);
  operands[2] = runs;
  for (uint32_t d = 0; d < x->type.rank; ++d) {
    operands[3 + d] = grtc_chlo_splat_type(&m, &runs->type, (grtc_scalar_value_t){.i = 0});
  }
  grtc_tvalue_t* written =
      grtc_chlo_make(&m, GRTC_TOP_DYNAMIC_UPDATE_SLICE, operands, 3 + x->type.rank, &slots->type);
  grtc_tvalue_t* next =
      grtc_chlo_binary(&m, GRTC_TOP_ADD, runs,
                       grtc_chlo_splat_type(&m, &runs->type, (grtc_scalar_value_t){.i = 1}));
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
  GRT_RETURN_IF_ERROR(grtc_import_global_put(ctx, op, probe->values, written, block));
  GRT_RETURN_IF_ERROR(grtc_import_global_put(ctx, op, probe->count, next, block));
  return grtc_import_map(ctx, &op->results[0], x);
}

static grt_status_t grtc_import_expect_serialized_eq(grtc_import_t* ctx,
                                                     const grtc_operation_t* op,
                                                     grtc_tblock_t* block) {
  grt_string_view_t id = {NULL, 0};
  GRT_RETURN_IF_ERROR(grtc_import_probe_id(ctx, op, &id));
  int64_t iter = 0;
  GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "iter", false, &iter));
  grtc_tvalue_t* v = op->operand_count == 1 ? grtc_import_lookup(ctx, op->operands[0]) : NULL;
  if (!v) {
    return grtc_import_error(ctx, op, "'check.expect_serialized_eq' takes one tensor");
  }
  const grtc_import_probe_t* probe = grtc_import_find_probe(ctx, id);
  if (!probe) {
    return grtc_import_error(ctx, op, "'check.expect_serialized_eq' of probe \"%.*s\": no "
                             "interpreter.probe with that probe_id comes before it",
                             GRT_SV_ARG(id));
  }
  if (iter < 0 || iter >= GRTC_IMPORT_PROBE_SLOTS - 1) {
    return grtc_import_error(ctx, op, "'check.expect_serialized_eq' iter %" PRId64 " is not "
                             "supported: a probe keeps its first %d recordings",
                             iter, GRTC_IMPORT_PROBE_SLOTS - 1);
  }
  if (!grtc_ttype_equal(&probe->type, &v->type)) {
    char a[GRTC_TTYPE_FORMAT_CAPACITY], b[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_import_error(ctx, op, "'check.expect_serialized_eq' compares %s with probe "
                             "\"%.*s\", which records %s",
                             grtc_ttype_format(&v->type, a, sizeof(a)), GRT_SV_ARG(id),
                             grtc_ttype_format(&probe->type, b, sizeof(b)));
  }
  grt_status_t status = grt_ok_status();
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  grtc_tvalue_t* runs = grtc_import_global_load(ctx, op, probe->count, block, &status);
  GRT_RETURN_IF_ERROR(status);
  grtc_tvalue_t* slots = grtc_import_global_load(ctx, op, probe->values, block, &status);
  GRT_RETURN_IF_ERROR(status);
  // The probe ran more than |iter| times: runs > iter, checked as
  // (runs > iter) == true.
  grtc_tvalue_t* ran = grtc_chlo_compare(
      &m, GRTC_CMP_GT, runs, grtc_chlo_splat_type(&m, &runs->type, (grtc_scalar_value_t){.i = iter}));
  if (ran) ran->def->attrs.compare_type = GRTC_CMP_TYPE_SIGNED;
  grtc_tvalue_t* yes =
      ran ? grtc_chlo_splat_type(&m, &ran->type, (grtc_scalar_value_t){.i = 1}) : NULL;
  const grtc_ttype_t* type = &slots->type;
  int64_t start[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t d = 0; d < type->rank; ++d) {
    limit[d] = type->dims[d];
    strides[d] = 1;
  }
  start[0] = iter;
  limit[0] = iter + 1;
  grtc_ttype_t sliced = *type;
  sliced.dims[0] = 1;
  grtc_tvalue_t* slice = grtc_chlo_make(&m, GRTC_TOP_SLICE, &slots, 1, &sliced);
  if (slice) {
    slice->def->attrs.start = grtc_tmodule_i64s(ctx->module, start, type->rank);
    slice->def->attrs.limit = grtc_tmodule_i64s(ctx->module, limit, type->rank);
    slice->def->attrs.strides = grtc_tmodule_i64s(ctx->module, strides, type->rank);
  }
  grtc_tvalue_t* recorded = grtc_chlo_make(&m, GRTC_TOP_RESHAPE, &slice, 1, &probe->type);
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
  grtc_tvalue_t* checks[2][2] = {{ran, yes}, {v, recorded}};
  for (int i = 0; i < 2; ++i) {
    grtc_top_t* top = NULL;
    GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, GRTC_TOP_CHECK_EQ, checks[i], 2, NULL, 0, 0,
                                           block, &top));
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// interpreter.run_parallel (the StableHLO interpreter's test harness)
//===----------------------------------------------------------------------===//

// "interpreter.run_parallel"(args...) {programs = [[@f, ...], ...]} runs
// @f as R x P processes (programs' R rows are the replicas, each row's P
// entries the partitions; process r * P + p takes the next arg_count args
// and gives the next results). grt runs no processes: the processes are
// instantiated in the calling function, their ops imported in lockstep
// (each with its own values), and the collective ops between them computed
// there from every process's operands: replica_id and partition_id are the
// process's constants; collective_permute moves each source's operand to
// its target (zeros where no source sends), among the replicas of one
// partition (cross_replica, channel handle 0 or none) or the partitions of
// one replica (cross_partition, channel handle > 0).
#define GRTC_IMPORT_MAX_PROCESSES 64

// The programs of |op| as the one function they all name (*out_func) and
// its R x P grid; false when |op| is not a well-formed run_parallel.
static bool grtc_import_parallel_programs(const grtc_operation_t* op, grt_string_view_t* out_name,
                                          uint32_t* out_replicas, uint32_t* out_partitions) {
  const grtc_attribute_t* programs = grtc_operation_attribute(op, "programs");
  if (!programs || programs->kind != GRTC_ATTR_ARRAY || !programs->array.count) return false;
  uint32_t partitions = 0;
  for (uint32_t r = 0; r < programs->array.count; ++r) {
    const grtc_attribute_t* row = programs->array.items[r];
    if (row->kind != GRTC_ATTR_ARRAY || !row->array.count) return false;
    if (r == 0) partitions = row->array.count;
    if (row->array.count != partitions) return false;
    for (uint32_t p = 0; p < partitions; ++p) {
      const grtc_attribute_t* item = row->array.items[p];
      if (item->kind != GRTC_ATTR_SYMBOL_REF || item->symbol.count != 1) return false;
      if (r == 0 && p == 0) *out_name = item->symbol.names[0];
      if (!grt_string_view_equal(item->symbol.names[0], *out_name)) return false;
    }
  }
  *out_replicas = programs->array.count;
  *out_partitions = partitions;
  return true;
}

// Whether a run_parallel in |body|'s functions runs @|name| (which is then
// not imported as a function of its own: its collectives exist only in
// the processes).
static bool grtc_import_is_parallel_program(const grtc_block_t* body, grt_string_view_t name) {
  for (const grtc_operation_t* func = body->first; func; func = func->next) {
    if (!grtc_operation_is(func, "func.func") || func->region_count != 1) continue;
    for (const grtc_block_t* b = func->regions[0]->first; b; b = b->next) {
      for (const grtc_operation_t* op = b->first; op; op = op->next) {
        grt_string_view_t program;
        uint32_t replicas = 0, partitions = 0;
        if (grtc_operation_is(op, "interpreter.run_parallel") &&
            grtc_import_parallel_programs(op, &program, &replicas, &partitions) &&
            grt_string_view_equal(program, name)) {
          return true;
        }
      }
    }
  }
  return false;
}

// The per-process value maps (swapped into |ctx| while a process's op is
// imported).
typedef struct grtc_import_process_t {
  grtc_pointer_map_t values, complex_values, tuples;
} grtc_import_process_t;

static void grtc_import_swap_process(grtc_import_t* ctx, grtc_import_process_t* process) {
  grtc_import_process_t saved = {ctx->values, ctx->complex_values, ctx->tuples};
  ctx->values = process->values;
  ctx->complex_values = process->complex_values;
  ctx->tuples = process->tuples;
  *process = saved;
}

// The channel handle of |op| (0 when it has none).
static grt_status_t grtc_import_channel_handle(grtc_import_t* ctx, const grtc_operation_t* op,
                                               int64_t* out_handle) {
  *out_handle = 0;
  const grtc_attribute_t* channel = grtc_operation_attribute(op, "channel_handle");
  if (!channel) return grt_ok_status();
  const char* found = NULL;
  if (channel->kind == GRTC_ATTR_OPAQUE) {
    const char* text = channel->opaque.data;
    for (size_t i = 0; i + 7 <= channel->opaque.size && !found; ++i) {
      if (memcmp(text + i, "handle ", 7) == 0 || memcmp(text + i, "handle=", 7) == 0) {
        found = text + i + 6;
      }
    }
  }
  if (!found) {
    return grtc_import_error(ctx, op, "'%.*s' channel_handle must be "
                             "#stablehlo.channel_handle<handle = N, type = T>",
                             GRT_SV_ARG(op->name));
  }
  while (*found == ' ' || *found == '=') ++found;
  *out_handle = strtoll(found, NULL, 10);
  return grt_ok_status();
}

// collective_permute across |count| processes (|operands| in process
// order), writing each process's result to |results|.
static grt_status_t grtc_import_collective_permute(grtc_import_t* ctx,
                                                   const grtc_operation_t* op,
                                                   grtc_chlo_math_t* m,
                                                   grtc_tvalue_t* const* operands,
                                                   uint32_t replicas, uint32_t partitions,
                                                   grtc_tvalue_t** results) {
  // source_target_pairs: dense<[[source, target], ...]> : tensor<Nx2xiK>.
  const grtc_attribute_t* attr = grtc_operation_attribute(op, "source_target_pairs");
  const grtc_type_t* type = attr ? attr->type : NULL;
  size_t size = type && type->kind == GRTC_TYPE_TENSOR && type->shaped.element
                    ? grtc_type_element_byte_size(type->shaped.element)
                    : 0;
  if (!attr || attr->kind != GRTC_ATTR_DENSE_ELEMENTS || attr->dense.splat ||
      type->shaped.rank != 2 || type->shaped.dims[1] != 2 ||
      type->shaped.element->kind != GRTC_TYPE_INTEGER || (size != 4 && size != 8) ||
      attr->dense.size != (size_t)type->shaped.dims[0] * 2 * size ||
      type->shaped.dims[0] > 2 * GRTC_IMPORT_MAX_PROCESSES) {
    return grtc_import_error(ctx, op, "'stablehlo.collective_permute' requires "
                             "'source_target_pairs', dense<[[source, target], ...]> : "
                             "tensor<Nx2xi64> (N at most %d)", 2 * GRTC_IMPORT_MAX_PROCESSES);
  }
  int64_t values[4 * GRTC_IMPORT_MAX_PROCESSES];
  grtc_i64s_t pairs = {(uint32_t)type->shaped.dims[0] * 2, values};
  for (uint32_t k = 0; k < pairs.count; ++k) {
    if (size == 8) {
      memcpy(&values[k], attr->dense.data + k * size, 8);
    } else {
      int32_t narrow;
      memcpy(&narrow, attr->dense.data + k * size, 4);
      values[k] = narrow;
    }
  }
  int64_t handle = 0;
  GRT_RETURN_IF_ERROR(grtc_import_channel_handle(ctx, op, &handle));
  bool cross_partition = handle > 0;
  uint32_t group = cross_partition ? partitions : replicas;
  for (uint32_t k = 0; k < pairs.count; ++k) {
    if (pairs.values[k] < 0 || pairs.values[k] >= (int64_t)group) {
      return grtc_import_error(ctx, op, "'stablehlo.collective_permute' pair process %" PRId64
                               " is outside the %u %s of a process group", pairs.values[k],
                               group, cross_partition ? "partitions" : "replicas");
    }
  }
  for (uint32_t r = 0; r < replicas; ++r) {
    for (uint32_t p = 0; p < partitions; ++p) {
      uint32_t self = cross_partition ? p : r;
      grtc_tvalue_t* value = NULL;
      for (uint32_t k = 0; k + 1 < pairs.count; k += 2) {
        if (pairs.values[k + 1] != (int64_t)self) continue;
        uint32_t source = (uint32_t)pairs.values[k];
        value = operands[cross_partition ? r * partitions + source : source * partitions + p];
      }
      if (!value) {
        value = grtc_chlo_splat_type(m, &operands[r * partitions + p]->type,
                                     (grtc_scalar_value_t){.i = 0});
      }
      results[r * partitions + p] = value;
    }
  }
  return grtc_import_at(ctx, op, m->status);
}

// A group of processes (indexes r * P + p) a collective combines.
typedef struct grtc_import_group_t {
  uint32_t count;
  uint32_t members[GRTC_IMPORT_MAX_PROCESSES];
} grtc_import_group_t;

// The number after |key| in |text| (|text| NUL-free, |end| its end), or -1.
static int64_t grtc_import_number_after(const char* text, const char* end, const char* key,
                                        const char** out_next) {
  size_t length = strlen(key);
  for (const char* at = text; at + length <= end; ++at) {
    if (memcmp(at, key, length) != 0) continue;
    at += length;
    int64_t value = 0;
    if (at >= end || *at < '0' || *at > '9') return -1;
    while (at < end && *at >= '0' && *at <= '9') value = value * 10 + (*at++ - '0');
    *out_next = at;
    return value;
  }
  return -1;
}

// #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes =
// [#stablehlo.mesh_axis<name = "x", size = 2>, ...]>, axes =
// [#stablehlo.axis_ref<name = "y"[, sub_axis_info = (pre)size]>, ...]>:
// the flattened process ids laid out over the mesh (its first axis major);
// a group is the processes that differ only in the named (sub-)axes,
// ordered by them.
static grt_status_t grtc_import_mesh_groups(grtc_import_t* ctx, const grtc_operation_t* op,
                                            grt_string_view_t text, uint32_t count,
                                            grtc_import_group_t* groups,
                                            uint32_t* out_group_count) {
  enum { MAX_AXES = 8 };
  grt_string_view_t names[MAX_AXES];
  int64_t sizes[MAX_AXES];
  uint32_t axes = 0;
  const char* end = text.data + text.size;
  const char* at = text.data;
  const char* refs = NULL;
  int64_t product = 1;
  bool ok = true;
  // The mesh's axes, then the referenced ones after ">, axes = [".
  for (const char* scan = text.data; scan + 9 <= end; ++scan) {
    if (memcmp(scan, "axis_ref<", 9) == 0) {
      refs = scan;
      break;
    }
  }
  if (!refs) ok = false;
  while (ok) {
    const char* name = NULL;
    for (const char* scan = at; scan + 19 <= refs && !name; ++scan) {
      if (memcmp(scan, "mesh_axis<name = \"", 18) == 0) name = scan + 18;
    }
    if (!name) break;
    const char* close = memchr(name, '"', (size_t)(refs - name));
    const char* next = NULL;
    int64_t size = close ? grtc_import_number_after(close, refs, "size = ", &next) : -1;
    if (axes == MAX_AXES || size < 1) {
      ok = false;
      break;
    }
    names[axes] = grt_make_string_view(name, (size_t)(close - name));
    sizes[axes++] = size;
    product *= size;
    at = next;
  }
  // Per device: the digits of the referenced sub-axes (the group order) and
  // the rest of its coordinates (the group key).
  int64_t unit[MAX_AXES], digit_size[MAX_AXES];
  uint32_t refs_count = 0;
  at = refs;
  while (ok && at) {
    const char* name = NULL;
    for (const char* scan = at; scan + 18 <= end && !name; ++scan) {
      if (memcmp(scan, "axis_ref<name = \"", 17) == 0) name = scan + 17;
    }
    if (!name) break;
    const char* close = memchr(name, '"', (size_t)(end - name));
    if (!close || refs_count == MAX_AXES) {
      ok = false;
      break;
    }
    grt_string_view_t ref = grt_make_string_view(name, (size_t)(close - name));
    uint32_t axis = axes;
    for (uint32_t a = 0; a < axes; ++a) {
      if (grt_string_view_equal(names[a], ref)) axis = a;
    }
    if (axis == axes) {
      ok = false;
      break;
    }
    int64_t pre = 1, size = sizes[axis];
    const char* item_end = memchr(close, '>', (size_t)(end - close));
    const char* next = close;
    if (item_end && grtc_import_number_after(close, item_end, "sub_axis_info = (", &next) >= 0) {
      pre = grtc_import_number_after(close, item_end, "sub_axis_info = (", &next);
      size = grtc_import_number_after(next, item_end, ")", &next);
    }
    if (pre < 1 || size < 1 || sizes[axis] % (pre * size)) {
      ok = false;
      break;
    }
    int64_t stride = 1;
    for (uint32_t a = axis + 1; a < axes; ++a) stride *= sizes[a];
    unit[refs_count] = stride * (sizes[axis] / (pre * size));
    digit_size[refs_count++] = size;
    at = item_end;
  }
  if (!ok || !axes || !refs_count || product != (int64_t)count) {
    return grtc_import_error(ctx, op, "'%.*s' replica_groups: a "
                             "#stablehlo.replica_group_mesh_axes must name its mesh's axes "
                             "(sizes multiplying to the %u processes) and axis_refs of them",
                             GRT_SV_ARG(op->name), count);
  }
  *out_group_count = 0;
  bool placed[GRTC_IMPORT_MAX_PROCESSES] = {false};
  for (uint32_t d = 0; d < count; ++d) {
    if (placed[d]) continue;
    int64_t key = d;
    for (uint32_t j = 0; j < refs_count; ++j) key -= (d / unit[j]) % digit_size[j] * unit[j];
    grtc_import_group_t* group = &groups[(*out_group_count)++];
    group->count = 0;
    // Members in the order of their digits (the first referenced axis major).
    int64_t total = 1;
    for (uint32_t j = 0; j < refs_count; ++j) total *= digit_size[j];
    for (int64_t rank = 0; rank < total; ++rank) {
      int64_t member = key, rest = rank;
      for (uint32_t j = refs_count; j-- > 0;) {
        member += rest % digit_size[j] * unit[j];
        rest /= digit_size[j];
      }
      if (member < 0 || member >= (int64_t)count || placed[member]) continue;
      placed[member] = true;
      group->members[group->count++] = (uint32_t)member;
    }
  }
  return grt_ok_status();
}

// How grtc_import_process_groups reads replica_groups.
enum {
  // A channel handle > 0 makes the groups' ids partitions of one replica
  // (cross_partition) rather than cross_replica_and_partition.
  GRTC_IMPORT_GROUPS_CROSS_PARTITION = 1,
  // The groups may leave ids out (their processes are in no group).
  GRTC_IMPORT_GROUPS_PARTIAL = 2,
};

// The process groups of the collective |op| among |replicas| x |partitions|
// processes (the spec's cross_replica, cross_replica_and_partition and
// flattened_ids modes, by channel handle and use_global_device_ids; with
// GRTC_IMPORT_GROUPS_CROSS_PARTITION in |flags| cross_replica and
// cross_partition).
static grt_status_t grtc_import_process_groups(grtc_import_t* ctx, const grtc_operation_t* op,
                                               uint32_t replicas, uint32_t partitions,
                                               unsigned flags, grtc_import_group_t* groups,
                                               uint32_t* out_group_count) {
  uint32_t count = replicas * partitions;
  int64_t handle = 0;
  GRT_RETURN_IF_ERROR(grtc_import_channel_handle(ctx, op, &handle));
  bool global = grtc_operation_attribute(op, "use_global_device_ids") != NULL;
  const grtc_attribute_t* attr = grtc_operation_attribute(op, "replica_groups");
  if (attr && attr->kind == GRTC_ATTR_OPAQUE) {
    return grtc_import_mesh_groups(ctx, op, attr->opaque, count, groups, out_group_count);
  }
  const grtc_type_t* type = attr ? attr->type : NULL;
  size_t size = type && type->kind == GRTC_TYPE_TENSOR && type->shaped.element
                    ? grtc_type_element_byte_size(type->shaped.element)
                    : 0;
  if (!attr || attr->kind != GRTC_ATTR_DENSE_ELEMENTS || type->shaped.rank != 2 ||
      (size != 4 && size != 8) || type->shaped.dims[0] > count ||
      type->shaped.dims[1] > count ||
      (!attr->dense.splat &&
       attr->dense.size != (size_t)(type->shaped.dims[0] * type->shaped.dims[1]) * size) ||
      (global && handle <= 0)) {
    return grtc_import_error(ctx, op, "'%.*s' requires 'replica_groups', dense<[[id, ...], "
                             "...]> : tensor<GxSxi64> (-1 padding, at most the %u processes), "
                             "and use_global_device_ids only with a channel handle > 0",
                             GRT_SV_ARG(op->name), count);
  }
  uint32_t rows = (uint32_t)type->shaped.dims[0], columns = (uint32_t)type->shaped.dims[1];
  bool cross_partition = (flags & GRTC_IMPORT_GROUPS_CROSS_PARTITION) && handle > 0;
  // What the ids in the groups number.
  uint32_t ids = global ? count : cross_partition ? partitions : replicas;
  const char* id_kind = global ? "processes" : cross_partition ? "partitions" : "replicas";
  bool seen[GRTC_IMPORT_MAX_PROCESSES] = {false};
  grtc_import_group_t listed[GRTC_IMPORT_MAX_PROCESSES];
  for (uint32_t g = 0; g < rows; ++g) {
    listed[g].count = 0;
    for (uint32_t c = 0; c < columns; ++c) {
      int64_t id = 0;
      size_t offset = attr->dense.splat ? 0 : (size_t)(g * columns + c) * size;
      if (size == 8) {
        memcpy(&id, attr->dense.data + offset, 8);
      } else {
        int32_t narrow;
        memcpy(&narrow, attr->dense.data + offset, 4);
        id = narrow;
      }
      if (id == -1) continue;
      if (id < 0 || id >= (int64_t)ids || seen[id]) {
        return grtc_import_error(ctx, op, "'%.*s' replica_groups id %" PRId64 " is repeated "
                                 "or outside the %u %s", GRT_SV_ARG(op->name), id, ids,
                                 id_kind);
      }
      seen[id] = true;
      listed[g].members[listed[g].count++] = (uint32_t)id;
    }
  }
  if (rows == 0) {  // no groups: all of them in one
    rows = 1;
    listed[0].count = ids;
    for (uint32_t i = 0; i < ids; ++i) listed[0].members[i] = i;
  } else if (!(flags & GRTC_IMPORT_GROUPS_PARTIAL)) {
    for (uint32_t i = 0; i < ids; ++i) {
      if (!seen[i]) {
        return grtc_import_error(ctx, op, "'%.*s' replica_groups leave %s %u out",
                                 GRT_SV_ARG(op->name),
                                 global ? "process" : cross_partition ? "partition" : "replica",
                                 i);
      }
    }
  }
  uint32_t kept = 0;  // groups that are all -1 padding hold no process
  for (uint32_t g = 0; g < rows; ++g) {
    if (listed[g].count) listed[kept++] = listed[g];
  }
  rows = kept;
  *out_group_count = 0;
  if (global) {
    for (uint32_t g = 0; g < rows; ++g) groups[(*out_group_count)++] = listed[g];
  } else if (cross_partition) {
    for (uint32_t r = 0; r < replicas; ++r) {
      for (uint32_t g = 0; g < rows; ++g) {
        grtc_import_group_t* group = &groups[(*out_group_count)++];
        group->count = listed[g].count;
        for (uint32_t k = 0; k < listed[g].count; ++k) {
          group->members[k] = r * partitions + listed[g].members[k];
        }
      }
    }
  } else if (handle > 0) {  // cross_replica_and_partition
    for (uint32_t g = 0; g < rows; ++g) {
      grtc_import_group_t* group = &groups[(*out_group_count)++];
      group->count = 0;
      for (uint32_t k = 0; k < listed[g].count; ++k) {
        for (uint32_t p = 0; p < partitions; ++p) {
          group->members[group->count++] = listed[g].members[k] * partitions + p;
        }
      }
    }
  } else {  // cross_replica
    for (uint32_t p = 0; p < partitions; ++p) {
      for (uint32_t g = 0; g < rows; ++g) {
        grtc_import_group_t* group = &groups[(*out_group_count)++];
        group->count = listed[g].count;
        for (uint32_t k = 0; k < listed[g].count; ++k) {
          group->members[k] = listed[g].members[k] * partitions + p;
        }
      }
    }
  }
  return grt_ok_status();
}

// The |k|th operands of |group|'s processes folded in group order with
// |op|'s body (two scalar arguments, applied elementwise) into *out_acc.
static grt_status_t grtc_import_group_fold(grtc_import_t* ctx, const grtc_operation_t* op,
                                           grtc_import_process_t* processes,
                                           const grtc_import_group_t* group, uint32_t k,
                                           grtc_tblock_t* block, grtc_tvalue_t** out_acc) {
  const grtc_block_t* body = op->regions[0]->first;
  grtc_tvalue_t* acc = NULL;
  for (uint32_t i = 0; i < group->count; ++i) {
    grtc_tvalue_t* value = grtc_map_get(&processes[group->members[i]].values, op->operands[k]);
    if (!value) {
      return grtc_import_error(ctx, op, "operand #%u of '%.*s' has no imported value", k,
                               GRT_SV_ARG(op->name));
    }
    if (!acc) {
      acc = value;
      continue;
    }
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &body->args[0], acc));
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &body->args[1], value));
    grtc_tvalue_t* combined = NULL;
    GRT_RETURN_IF_ERROR(
        grtc_import_elementwise_body(ctx, op, body, &value->type, NULL, 1, block, &combined));
    if (!combined || combined->type.elem != value->type.elem ||
        !grtc_ttype_same_shape(&combined->type, &value->type)) {
      return grtc_import_error(ctx, op, "'%.*s' body must return one value of its operand's "
                               "element type", GRT_SV_ARG(op->name));
    }
    acc = combined;
  }
  *out_acc = acc;
  return grt_ok_status();
}

// Whether |op| has a body of two scalar arguments and a result per operand.
static grt_status_t grtc_import_check_fold(grtc_import_t* ctx, const grtc_operation_t* op) {
  if (op->region_count != 1 || op->regions[0]->block_count != 1 ||
      op->regions[0]->first->arg_count != 2 || op->result_count != op->operand_count ||
      !op->operand_count) {
    return grtc_import_error(ctx, op, "'%.*s' has a result per operand and a body of two "
                             "scalar arguments", GRT_SV_ARG(op->name));
  }
  return grt_ok_status();
}

// |value| cut to [start, start + size) along dimension |dim|.
static grtc_tvalue_t* grtc_import_slice_dim(grtc_import_t* ctx, grtc_chlo_math_t* m,
                                            grtc_tvalue_t* value, uint32_t dim, int64_t start,
                                            int64_t size) {
  if (!value) return NULL;
  const grtc_ttype_t* type = &value->type;
  int64_t begin[GRTC_MAX_RANK] = {0}, limit[GRTC_MAX_RANK], strides[GRTC_MAX_RANK];
  for (uint32_t r = 0; r < type->rank; ++r) {
    limit[r] = type->dims[r];
    strides[r] = 1;
  }
  begin[dim] = start;
  limit[dim] = start + size;
  grtc_ttype_t sliced = *type;
  sliced.dims[dim] = size;
  grtc_tvalue_t* slice = grtc_chlo_make(m, GRTC_TOP_SLICE, &value, 1, &sliced);
  if (slice) {
    slice->def->attrs.start = grtc_tmodule_i64s(ctx->module, begin, type->rank);
    slice->def->attrs.limit = grtc_tmodule_i64s(ctx->module, limit, type->rank);
    slice->def->attrs.strides = grtc_tmodule_i64s(ctx->module, strides, type->rank);
  }
  return slice;
}

// The dimension attribute |name| of |op|, checked against |rank|.
static grt_status_t grtc_import_collective_dim(grtc_import_t* ctx, const grtc_operation_t* op,
                                               const char* name, uint32_t rank,
                                               uint32_t* out_dim) {
  int64_t dim = -1;
  GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, name, true, &dim));
  if (dim < 0 || dim >= (int64_t)rank) {
    return grtc_import_error(ctx, op, "'%.*s' %s %" PRId64 " is not a dimension of its "
                             "rank-%u operand", GRT_SV_ARG(op->name), name, dim, rank);
  }
  *out_dim = (uint32_t)dim;
  return grt_ok_status();
}

// Gives |value| to result |k| of |process| after checking it has the
// result's declared type.
static grt_status_t grtc_import_collective_result(grtc_import_t* ctx,
                                                  const grtc_operation_t* op,
                                                  grtc_import_process_t* process, uint32_t k,
                                                  grtc_tvalue_t* value) {
  grtc_ttype_t want;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[k].type, &want));
  if (!grtc_ttype_equal(&want, &value->type)) {
    char a[GRTC_TTYPE_FORMAT_CAPACITY], b[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_import_error(ctx, op, "'%.*s' result #%u is %s, but its processes give %s",
                             GRT_SV_ARG(op->name), k, grtc_ttype_format(&want, a, sizeof(a)),
                             grtc_ttype_format(&value->type, b, sizeof(b)));
  }
  return grtc_map_put(ctx->allocator, &process->values, &op->results[k], value);
}

// all_gather across the processes: each operand of a group's processes
// concatenated in group order along all_gather_dim, given to every process
// of the group.
static grt_status_t grtc_import_all_gather(grtc_import_t* ctx, const grtc_operation_t* op,
                                           grtc_import_process_t* processes,
                                           uint32_t replicas, uint32_t partitions,
                                           grtc_chlo_math_t* m) {
  if (op->result_count != op->operand_count || !op->operand_count) {
    return grtc_import_error(ctx, op, "'stablehlo.all_gather' has a result per operand");
  }
  grtc_import_group_t groups[GRTC_IMPORT_MAX_PROCESSES];
  uint32_t group_count = 0;
  GRT_RETURN_IF_ERROR(
      grtc_import_process_groups(ctx, op, replicas, partitions, 0, groups, &group_count));
  for (uint32_t k = 0; k < op->operand_count; ++k) {
    grtc_tvalue_t* first = grtc_map_get(&processes[0].values, op->operands[k]);
    if (!first) {
      return grtc_import_error(ctx, op, "operand #%u of 'stablehlo.all_gather' has no "
                               "imported value", k);
    }
    uint32_t dim = 0;
    GRT_RETURN_IF_ERROR(
        grtc_import_collective_dim(ctx, op, "all_gather_dim", first->type.rank, &dim));
    for (uint32_t g = 0; g < group_count; ++g) {
      const grtc_import_group_t* group = &groups[g];
      grtc_tvalue_t* parts[GRTC_IMPORT_MAX_PROCESSES];
      grtc_ttype_t type = first->type;
      type.dims[dim] = 0;
      for (uint32_t i = 0; i < group->count; ++i) {
        parts[i] = grtc_map_get(&processes[group->members[i]].values, op->operands[k]);
        if (!parts[i] || parts[i]->type.rank != first->type.rank) {
          return grtc_import_error(ctx, op, "operand #%u of 'stablehlo.all_gather' has no "
                                   "imported value", k);
        }
        type.dims[dim] += parts[i]->type.dims[dim];
      }
      grtc_tvalue_t* value = parts[0];
      if (group->count > 1) {
        value = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, parts, group->count, &type);
        if (value) value->def->attrs.dim = dim;
      }
      GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
      for (uint32_t i = 0; i < group->count; ++i) {
        GRT_RETURN_IF_ERROR(grtc_import_collective_result(
            ctx, op, &processes[group->members[i]], k, value));
      }
    }
  }
  return grt_ok_status();
}

// all_reduce and reduce_scatter across the processes: each operand of a
// group's processes folded in group order with the body (applied
// elementwise). all_reduce (|m| NULL) gives the result to every process of
// the group; reduce_scatter cuts it into the group's count of equal parts
// along scatter_dimension, the i-th going to the group's i-th process.
static grt_status_t grtc_import_reduce_collective(grtc_import_t* ctx,
                                                  const grtc_operation_t* op,
                                                  grtc_import_process_t* processes,
                                                  uint32_t replicas, uint32_t partitions,
                                                  grtc_chlo_math_t* m, grtc_tblock_t* block) {
  GRT_RETURN_IF_ERROR(grtc_import_check_fold(ctx, op));
  grtc_import_group_t groups[GRTC_IMPORT_MAX_PROCESSES];
  uint32_t group_count = 0;
  GRT_RETURN_IF_ERROR(
      grtc_import_process_groups(ctx, op, replicas, partitions, 0, groups, &group_count));
  for (uint32_t g = 0; g < group_count; ++g) {
    const grtc_import_group_t* group = &groups[g];
    for (uint32_t k = 0; k < op->operand_count; ++k) {
      grtc_tvalue_t* acc = NULL;
      GRT_RETURN_IF_ERROR(grtc_import_group_fold(ctx, op, processes, group, k, block, &acc));
      if (!m) {
        for (uint32_t i = 0; i < group->count; ++i) {
          GRT_RETURN_IF_ERROR(grtc_map_put(ctx->allocator,
                                           &processes[group->members[i]].values,
                                           &op->results[k], acc));
        }
        continue;
      }
      uint32_t dim = 0;
      GRT_RETURN_IF_ERROR(
          grtc_import_collective_dim(ctx, op, "scatter_dimension", acc->type.rank, &dim));
      int64_t extent = acc->type.dims[dim];
      if (extent < 0 || extent % group->count) {
        return grtc_import_error(ctx, op, "'stablehlo.reduce_scatter' scatter_dimension "
                                 "size %" PRId64 " is not a multiple of the %u processes of "
                                 "a group", extent, group->count);
      }
      int64_t size = extent / group->count;
      for (uint32_t i = 0; i < group->count; ++i) {
        grtc_tvalue_t* part = grtc_import_slice_dim(ctx, m, acc, dim, i * size, size);
        GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
        GRT_RETURN_IF_ERROR(grtc_import_collective_result(
            ctx, op, &processes[group->members[i]], k, part));
      }
    }
  }
  return grt_ok_status();
}

// With has_dynamic_root: operand #|k| of the group member that element |k|
// of |process|'s root tensor names (zeros when it names none), chosen at
// run time by selects over the members.
static grtc_tvalue_t* grtc_import_broadcast_from_root(grtc_import_t* ctx, grtc_chlo_math_t* m,
                                                      const grtc_operation_t* op,
                                                      grtc_import_process_t* processes,
                                                      const grtc_import_group_t* group,
                                                      uint32_t process, uint32_t k) {
  grtc_tvalue_t* root =
      grtc_map_get(&processes[process].values, op->operands[op->operand_count - 1]);
  grtc_tvalue_t* own = grtc_map_get(&processes[process].values, op->operands[k]);
  if (!root || !own) return NULL;
  grtc_tvalue_t* picked = grtc_import_slice_dim(ctx, m, root, 0, k, 1);
  grtc_ttype_t scalar = root->type;
  scalar.rank = 0;
  grtc_tvalue_t* index = grtc_chlo_make(m, GRTC_TOP_RESHAPE, &picked, 1, &scalar);
  grtc_ttype_t spread = own->type;
  spread.elem = root->type.elem;
  grtc_tvalue_t* wide = grtc_chlo_make(m, GRTC_TOP_BROADCAST_IN_DIM, &index, 1, &spread);
  if (wide) wide->def->attrs.dims = (grtc_i64s_t){0, NULL};
  grtc_tvalue_t* value = grtc_chlo_splat_type(m, &own->type, (grtc_scalar_value_t){.i = 0});
  for (uint32_t j = 0; j < group->count; ++j) {
    grtc_tvalue_t* source = grtc_map_get(&processes[group->members[j]].values, op->operands[k]);
    grtc_tvalue_t* id = grtc_chlo_splat_type(m, &spread, (grtc_scalar_value_t){.i = j});
    grtc_tvalue_t* is = grtc_chlo_compare(m, GRTC_CMP_EQ, wide, id);
    if (is) is->def->attrs.compare_type = GRTC_CMP_TYPE_SIGNED;
    value = source ? grtc_chlo_select(m, is, source, value) : NULL;
  }
  return value;
}

// collective_broadcast across the processes: the operand of each group's
// first process (with has_dynamic_root, of the member its last operand, a
// tensor<Nxi32> of a root per operand, names) given to every process of
// the group; processes in no group get zeros.
static grt_status_t grtc_import_collective_broadcast(grtc_import_t* ctx,
                                                     const grtc_operation_t* op,
                                                     grtc_import_process_t* processes,
                                                     uint32_t replicas, uint32_t partitions,
                                                     grtc_chlo_math_t* m) {
  bool dynamic_root = grtc_operation_attribute(op, "has_dynamic_root") != NULL;
  uint32_t data = op->operand_count - (dynamic_root && op->operand_count ? 1 : 0);
  if (op->result_count != data || !data) {
    return grtc_import_error(ctx, op, "'stablehlo.collective_broadcast' has a result per "
                             "operand (with has_dynamic_root, per operand but the last)");
  }
  if (dynamic_root) {
    grtc_tvalue_t* root =
        grtc_map_get(&processes[0].values, op->operands[op->operand_count - 1]);
    if (!root || root->type.rank != 1 || root->type.dims[0] != (int64_t)data ||
        !grtc_elem_is_integer(root->type.elem)) {
      return grtc_import_error(ctx, op, "'stablehlo.collective_broadcast' with "
                               "has_dynamic_root takes as its last operand a root per data "
                               "operand, tensor<%uxi32>", data);
    }
  }
  grtc_import_group_t groups[GRTC_IMPORT_MAX_PROCESSES];
  uint32_t group_count = 0;
  GRT_RETURN_IF_ERROR(grtc_import_process_groups(
      ctx, op, replicas, partitions,
      GRTC_IMPORT_GROUPS_CROSS_PARTITION | GRTC_IMPORT_GROUPS_PARTIAL, groups, &group_count));
  uint32_t count = replicas * partitions;
  for (uint32_t k = 0; k < data; ++k) {
    bool given[GRTC_IMPORT_MAX_PROCESSES] = {false};
    for (uint32_t g = 0; g < group_count; ++g) {
      const grtc_import_group_t* group = &groups[g];
      grtc_tvalue_t* value = grtc_map_get(&processes[group->members[0]].values, op->operands[k]);
      if (!value) {
        return grtc_import_error(ctx, op, "operand #%u of 'stablehlo.collective_broadcast' "
                                 "has no imported value", k);
      }
      for (uint32_t i = 0; i < group->count; ++i) {
        given[group->members[i]] = true;
        grtc_tvalue_t* result = value;
        if (dynamic_root) {
          result = grtc_import_broadcast_from_root(ctx, m, op, processes, group,
                                                   group->members[i], k);
          GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
          if (!result) {
            return grtc_import_error(ctx, op, "operand #%u of "
                                     "'stablehlo.collective_broadcast' has no imported value",
                                     k);
          }
        }
        GRT_RETURN_IF_ERROR(grtc_import_collective_result(
            ctx, op, &processes[group->members[i]], k, result));
      }
    }
    for (uint32_t i = 0; i < count; ++i) {
      if (given[i]) continue;
      grtc_tvalue_t* own = grtc_map_get(&processes[i].values, op->operands[k]);
      if (!own) {
        return grtc_import_error(ctx, op, "operand #%u of 'stablehlo.collective_broadcast' "
                                 "has no imported value", k);
      }
      grtc_tvalue_t* zeros = grtc_chlo_splat_type(m, &own->type, (grtc_scalar_value_t){.i = 0});
      GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
      GRT_RETURN_IF_ERROR(grtc_import_collective_result(ctx, op, &processes[i], k, zeros));
    }
  }
  return grt_ok_status();
}

// all_to_all across the processes: each operand of a group's processes cut
// into split_count (the group's size) equal parts along split_dimension;
// the group's i-th process gets the i-th parts of all of them, in group
// order, concatenated along concat_dimension.
static grt_status_t grtc_import_all_to_all(grtc_import_t* ctx, const grtc_operation_t* op,
                                           grtc_import_process_t* processes,
                                           uint32_t replicas, uint32_t partitions,
                                           grtc_chlo_math_t* m) {
  if (op->result_count != op->operand_count || !op->operand_count) {
    return grtc_import_error(ctx, op, "'stablehlo.all_to_all' has a result per operand");
  }
  int64_t split_count = 0;
  GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "split_count", true, &split_count));
  grtc_import_group_t groups[GRTC_IMPORT_MAX_PROCESSES];
  uint32_t group_count = 0;
  GRT_RETURN_IF_ERROR(grtc_import_process_groups(ctx, op, replicas, partitions,
                                                 GRTC_IMPORT_GROUPS_CROSS_PARTITION, groups,
                                                 &group_count));
  for (uint32_t g = 0; g < group_count; ++g) {
    if (split_count != (int64_t)groups[g].count) {
      return grtc_import_error(ctx, op, "'stablehlo.all_to_all' split_count %" PRId64 " is "
                               "not the %u processes of its group", split_count,
                               groups[g].count);
    }
  }
  for (uint32_t k = 0; k < op->operand_count; ++k) {
    grtc_tvalue_t* first = grtc_map_get(&processes[0].values, op->operands[k]);
    if (!first) {
      return grtc_import_error(ctx, op, "operand #%u of 'stablehlo.all_to_all' has no "
                               "imported value", k);
    }
    uint32_t split = 0, concat = 0;
    GRT_RETURN_IF_ERROR(
        grtc_import_collective_dim(ctx, op, "split_dimension", first->type.rank, &split));
    GRT_RETURN_IF_ERROR(
        grtc_import_collective_dim(ctx, op, "concat_dimension", first->type.rank, &concat));
    int64_t extent = first->type.dims[split];
    if (extent < 0 || extent % split_count) {
      return grtc_import_error(ctx, op, "'stablehlo.all_to_all' split_dimension size %" PRId64
                               " is not a multiple of split_count %" PRId64, extent,
                               split_count);
    }
    int64_t size = extent / split_count;
    for (uint32_t g = 0; g < group_count; ++g) {
      const grtc_import_group_t* group = &groups[g];
      for (uint32_t i = 0; i < group->count; ++i) {
        grtc_tvalue_t* parts[GRTC_IMPORT_MAX_PROCESSES];
        for (uint32_t j = 0; j < group->count; ++j) {
          grtc_tvalue_t* value =
              grtc_map_get(&processes[group->members[j]].values, op->operands[k]);
          if (!value || !grtc_ttype_equal(&value->type, &first->type)) {
            return grtc_import_error(ctx, op, "operand #%u of 'stablehlo.all_to_all' has no "
                                     "imported value", k);
          }
          parts[j] = grtc_import_slice_dim(ctx, m, value, split, i * size, size);
        }
        grtc_tvalue_t* result = parts[0];
        if (group->count > 1 && parts[0]) {
          grtc_ttype_t type = parts[0]->type;
          type.dims[concat] *= group->count;
          result = grtc_chlo_make(m, GRTC_TOP_CONCATENATE, parts, group->count, &type);
          if (result) result->def->attrs.dim = concat;
        }
        GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
        GRT_RETURN_IF_ERROR(grtc_import_collective_result(
            ctx, op, &processes[group->members[i]], k, result));
      }
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_import_run_parallel(grtc_import_t* ctx, const grtc_operation_t* op,
                                             grtc_tblock_t* block) {
  grt_string_view_t name;
  uint32_t replicas = 0, partitions = 0;
  if (!grtc_import_parallel_programs(op, &name, &replicas, &partitions)) {
    return grtc_import_error(ctx, op, "'interpreter.run_parallel' requires 'programs', "
                             "[[@f, ...], ...]: rows of one length (the replicas' "
                             "partitions), all naming one function");
  }
  uint32_t count = replicas * partitions;
  uint32_t index = 0;
  const grtc_operation_t* func =
      grt_name_index_find(&ctx->func_index, name, &index) ? ctx->funcs[index] : NULL;
  if (!func) {
    return grtc_import_error(ctx, op, "'interpreter.run_parallel' of undefined function "
                             "'@%.*s'", GRT_SV_ARG(name));
  }
  if (count > GRTC_IMPORT_MAX_PROCESSES) {
    return grtc_import_error(ctx, op, "'interpreter.run_parallel' of %u processes is not "
                             "supported (at most %d)", count, GRTC_IMPORT_MAX_PROCESSES);
  }
  const grtc_region_t* region = func->regions[0];
  const grtc_block_t* entry = region->first;
  const grtc_operation_t* ret = NULL;
  for (const grtc_operation_t* inner = entry ? entry->first : NULL; inner; inner = inner->next) {
    if (grtc_operation_is(inner, "func.return")) ret = inner;
  }
  if (region->block_count != 1 || !ret || op->operand_count != count * entry->arg_count ||
      op->result_count != count * ret->operand_count) {
    return grtc_import_error(ctx, op, "'interpreter.run_parallel' of %u processes of "
                             "'@%.*s' (one block ending in func.return) takes %u operands "
                             "and has %u results (each process's in turn), got %u and %u",
                             count, GRT_SV_ARG(name), entry ? count * entry->arg_count : 0,
                             ret ? count * ret->operand_count : 0, op->operand_count,
                             op->result_count);
  }
  grtc_import_process_t processes[GRTC_IMPORT_MAX_PROCESSES];
  memset(processes, 0, sizeof(processes));
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grt_status_t status = grt_ok_status();
  for (uint32_t i = 0; i < count && grt_status_is_ok(status); ++i) {
    for (uint32_t a = 0; a < entry->arg_count && grt_status_is_ok(status); ++a) {
      const grtc_value_t* operand = op->operands[i * entry->arg_count + a];
      grtc_tvalue_t* value = grtc_import_lookup(ctx, operand);
      if (!value) {
        status = grtc_import_error(ctx, op, "operand #%u of 'interpreter.run_parallel' has "
                                   "no imported value (complex and tuple operands are not "
                                   "supported)", i * entry->arg_count + a);
        break;
      }
      status = grtc_map_put(ctx->allocator, &processes[i].values, &entry->args[a], value);
    }
  }
  for (const grtc_operation_t* inner = entry->first; inner && grt_status_is_ok(status);
       inner = inner->next) {
    grtc_chlo_math_t m = {&builder, grt_ok_status()};
    bool replica_id = grtc_operation_is(inner, "stablehlo.replica_id");
    if (replica_id || grtc_operation_is(inner, "stablehlo.partition_id")) {
      grtc_ttype_t type;
      status = inner->result_count == 1
                   ? grtc_import_type(ctx, inner, inner->results[0].type, &type)
                   : grtc_import_error(ctx, inner, "'%.*s' has one result",
                                       GRT_SV_ARG(inner->name));
      for (uint32_t i = 0; i < count && grt_status_is_ok(status); ++i) {
        uint32_t id = replica_id ? i / partitions : i % partitions;
        grtc_tvalue_t* value = grtc_chlo_splat_type(&m, &type, (grtc_scalar_value_t){.i = id});
        status = grtc_import_at(ctx, inner, m.status);
        if (grt_status_is_ok(status)) {
          status = grtc_map_put(ctx->allocator, &processes[i].values, &inner->results[0], value);
        }
      }
      continue;
    }
    if (grtc_operation_is(inner, "stablehlo.collective_permute")) {
      grtc_tvalue_t* operands[GRTC_IMPORT_MAX_PROCESSES];
      grtc_tvalue_t* results[GRTC_IMPORT_MAX_PROCESSES];
      if (inner->operand_count != 1 || inner->result_count != 1) {
        status = grtc_import_error(ctx, inner, "'stablehlo.collective_permute' takes one "
                                   "tensor and returns one");
        break;
      }
      for (uint32_t i = 0; i < count; ++i) {
        operands[i] = grtc_map_get(&processes[i].values, inner->operands[0]);
      }
      if (!operands[0]) {
        status = grtc_import_error(ctx, inner, "operand of 'stablehlo.collective_permute' "
                                   "has no imported value");
        break;
      }
      status = grtc_import_collective_permute(ctx, inner, &m, operands, replicas, partitions,
                                              results);
      for (uint32_t i = 0; i < count && grt_status_is_ok(status); ++i) {
        status = grtc_map_put(ctx->allocator, &processes[i].values, &inner->results[0],
                              results[i]);
      }
      continue;
    }
    if (grtc_operation_is(inner, "stablehlo.all_reduce")) {
      status = grtc_import_at(ctx, inner, m.status);
      if (grt_status_is_ok(status)) {
        status = grtc_import_reduce_collective(ctx, inner, processes, replicas, partitions,
                                               NULL, block);
      }
      continue;
    }
    if (grtc_operation_is(inner, "stablehlo.all_gather")) {
      status = grtc_import_all_gather(ctx, inner, processes, replicas, partitions, &m);
      continue;
    }
    if (grtc_operation_is(inner, "stablehlo.collective_broadcast")) {
      status = grtc_import_collective_broadcast(ctx, inner, processes, replicas, partitions, &m);
      continue;
    }
    if (grtc_operation_is(inner, "stablehlo.all_to_all")) {
      status = grtc_import_all_to_all(ctx, inner, processes, replicas, partitions, &m);
      continue;
    }
    if (grtc_operation_is(inner, "stablehlo.reduce_scatter")) {
      status = grtc_import_reduce_collective(ctx, inner, processes, replicas, partitions, &m,
                                             block);
      continue;
    }
    if (inner == ret) {
      for (uint32_t i = 0; i < count && grt_status_is_ok(status); ++i) {
        for (uint32_t k = 0; k < ret->operand_count && grt_status_is_ok(status); ++k) {
          grtc_tvalue_t* value = grtc_map_get(&processes[i].values, ret->operands[k]);
          status = value ? grtc_import_map(ctx, &op->results[i * ret->operand_count + k], value)
                         : grtc_import_error(ctx, ret, "result #%u of '@%.*s' has no imported "
                                             "value", k, GRT_SV_ARG(name));
        }
      }
      break;
    }
    for (uint32_t i = 0; i < count && grt_status_is_ok(status); ++i) {
      grtc_import_swap_process(ctx, &processes[i]);
      status = grtc_import_op(ctx, inner, block);
      grtc_import_swap_process(ctx, &processes[i]);
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    grt_allocator_free(ctx->allocator, processes[i].values.slots);
    grt_allocator_free(ctx->allocator, processes[i].complex_values.slots);
    grt_allocator_free(ctx->allocator, processes[i].tuples.slots);
  }
  return status;
}

// A LAPACK/BLAS custom call (lapack.h): its operands, its results (a tuple
// result's elements, kept for get_tuple_element) and the attributes that
// pick its form.
static grt_status_t grtc_import_lapack_call(grtc_import_t* ctx, const grtc_operation_t* op,
                                            grt_string_view_t target, grtc_tblock_t* block) {
  enum { kMaxOperands = 16, kMaxResults = 8 };
  grtc_tvalue_t* operands[kMaxOperands];
  grtc_ttype_t results[kMaxResults];
  if (op->operand_count > kMaxOperands) {
    return grtc_import_error(ctx, op, "'stablehlo.custom_call @%.*s' has %u operands; "
                             "LAPACK/BLAS calls have at most %d", GRT_SV_ARG(target),
                             op->operand_count, kMaxOperands);
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    operands[i] = grtc_import_lookup(ctx, op->operands[i]);
    if (!operands[i]) {
      return grtc_import_error(ctx, op, "operand #%u of 'stablehlo.custom_call @%.*s' must "
                               "be a tensor", i, GRT_SV_ARG(target));
    }
  }
  bool tuple = op->result_count == 1 && op->results[0].type->kind == GRTC_TYPE_TUPLE;
  uint32_t count = tuple ? op->results[0].type->function.input_count : op->result_count;
  if (count > kMaxResults) {
    return grtc_import_error(ctx, op, "'stablehlo.custom_call @%.*s' has %u results; "
                             "LAPACK/BLAS calls have at most %d", GRT_SV_ARG(target), count,
                             kMaxResults);
  }
  for (uint32_t i = 0; i < count; ++i) {
    const grtc_type_t* type =
        tuple ? op->results[0].type->function.types[i] : op->results[i].type;
    if (type->kind != GRTC_TYPE_TENSOR) {
      return grtc_import_error(ctx, op, "'stablehlo.custom_call @%.*s' result #%u must be a "
                               "tensor (tuples of tuples are not supported)",
                               GRT_SV_ARG(target), i);
    }
    GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, type, &results[i]));
  }
  grtc_lapack_call_t call = {target, operands, op->operand_count, results, count,
                             grtc_operation_attribute(op, "mhlo.backend_config"),
                             grtc_operation_attribute(op, "operand_layouts")};
  if (call.backend_config && call.backend_config->kind != GRTC_ATTR_DICTIONARY) {
    call.backend_config = NULL;  // the legacy string form carries nothing
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_tvalue_t* values[kMaxResults] = {NULL};
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, grtc_lapack_lower(&builder, &call, values)));
  if (!tuple) {
    for (uint32_t i = 0; i < count; ++i) {
      GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &op->results[i], values[i]));
    }
    return grt_ok_status();
  }
  grtc_import_tuple_t* packed =
      grtc_tmodule_alloc(ctx->module, sizeof(*packed) + count * sizeof(packed->values[0]));
  if (!packed) return grtc_import_oom();
  packed->count = count;
  for (uint32_t i = 0; i < count; ++i) packed->values[i] = values[i];
  return grtc_map_put(ctx->allocator, &ctx->tuples, &op->results[0], packed);
}

// stablehlo.tuple and stablehlo.get_tuple_element.
static grt_status_t grtc_import_tuple_op(grtc_import_t* ctx, const grtc_operation_t* op) {
  if (op->result_count != 1) {
    return grtc_import_error(ctx, op, "'%.*s' has one result", GRT_SV_ARG(op->name));
  }
  if (grtc_operation_is(op, "stablehlo.tuple")) {
    const grtc_type_t* type = op->results[0].type;
    if (type->kind != GRTC_TYPE_TUPLE || type->function.input_count != op->operand_count) {
      return grtc_import_error(ctx, op, "'stablehlo.tuple' of %u values must give a tuple "
                               "of %u elements", op->operand_count, op->operand_count);
    }
    grtc_import_tuple_t* tuple = grtc_tmodule_alloc(
        ctx->module, sizeof(*tuple) + op->operand_count * sizeof(tuple->values[0]));
    if (!tuple) return grtc_import_oom();
    tuple->count = op->operand_count;
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      tuple->values[i] = grtc_import_lookup(ctx, op->operands[i]);
      if (!tuple->values[i]) {
        return grtc_import_error(ctx, op, "'stablehlo.tuple' element #%u must be a tensor "
                                 "(tuples of tuples are not supported)", i);
      }
    }
    return grtc_map_put(ctx->allocator, &ctx->tuples, &op->results[0], tuple);
  }
  const grtc_import_tuple_t* tuple =
      op->operand_count == 1 ? grtc_map_get(&ctx->tuples, op->operands[0]) : NULL;
  if (!tuple) {
    return grtc_import_error(ctx, op, "'stablehlo.get_tuple_element' takes the result of a "
                             "stablehlo.tuple (tuples passed into or out of functions and "
                             "loops are not supported)");
  }
  int64_t index = -1;
  GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "index", true, &index));
  if (index < 0 || index >= (int64_t)tuple->count) {
    return grtc_import_error(ctx, op, "'stablehlo.get_tuple_element' index %lld is not "
                             "below the tuple's %u elements", (long long)index, tuple->count);
  }
  grtc_ttype_t result;
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[0].type, &result));
  grtc_tvalue_t* value = tuple->values[index];
  if (!grtc_ttype_equal(&result, &value->type)) {
    char a[GRTC_TTYPE_FORMAT_CAPACITY], b[GRTC_TTYPE_FORMAT_CAPACITY];
    return grtc_import_error(ctx, op, "'stablehlo.get_tuple_element' element %lld is %s, "
                             "not %s", (long long)index,
                             grtc_ttype_format(&value->type, a, sizeof(a)),
                             grtc_ttype_format(&result, b, sizeof(b)));
  }
  return grtc_import_map(ctx, &op->results[0], value);
}

static grt_status_t grtc_import_op(grtc_import_t* ctx, const grtc_operation_t* op,
                                   grtc_tblock_t* block);

//===----------------------------------------------------------------------===//
// Complex types (complex.h)
//===----------------------------------------------------------------------===//

static bool grtc_import_is_complex(const grtc_type_t* type) {
  if (type->kind == GRTC_TYPE_TENSOR && type->shaped.element) {
    type = type->shaped.element;
  }
  return type->kind == GRTC_TYPE_COMPLEX;
}

static bool grtc_import_touches_complex(const grtc_operation_t* op) {
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (grtc_import_is_complex(op->operands[i]->type)) return true;
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    if (grtc_import_is_complex(op->results[i].type)) return true;
  }
  return false;
}

// Ops that take and give complex values in their interleaved form (fN
// tensor<...x2>): constants, calls, returns, checks, control flow, globals.
static bool grtc_import_complex_interleaved(const grtc_operation_t* op) {
  static const char* const names[] = {
      "func.return", "func.call", "stablehlo.constant", "arith.constant",
      "util.unfoldable_constant", "check.expect_eq", "check.expect_almost_eq",
      "check.expect_eq_const", "check.expect_almost_eq_const", "check.expect_close",
      "check.eq", "check.almost_eq",
      "stablehlo.custom_call", "stablehlo.optimization_barrier",
      "util.optimization_barrier", "stablehlo.while", "stablehlo.if", "stablehlo.case",
      "stablehlo.return", "tensor.empty", "stablehlo.tuple",
      "stablehlo.get_tuple_element", "util.global.load", "util.global.store",
      "ml_program.global_load", "ml_program.global_store",
      "ml_program.global_load_const", "stablehlo.bitcast_convert",
      "stablehlo.triangular_solve", "interpreter.probe", "check.expect_serialized_eq"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    if (grtc_operation_is(op, names[i])) return true;
  }
  return false;
}

static grt_status_t grtc_import_complex_put(grtc_import_t* ctx, const grtc_value_t* key,
                                            grtc_complex_t z) {
  grtc_complex_t* pair = grtc_tmodule_alloc(ctx->module, sizeof(*pair));
  if (!pair) return grtc_import_oom();
  *pair = z;
  return grtc_map_put(ctx->allocator, &ctx->complex_values, key, pair);
}

// Whether |value| may be used in |block|: it is defined there or in a block
// that encloses it. A split or join made inside a region (for a value
// captured from outside) is not visible after the region.
static bool grtc_import_visible_in(const grtc_tvalue_t* value, const grtc_tblock_t* block) {
  const grtc_tblock_t* home = value->def ? value->def->parent : value->block;
  for (const grtc_tblock_t* b = block; b; b = b->parent_op ? b->parent_op->parent : NULL) {
    if (b == home) return true;
  }
  return false;
}

// The parts of complex operand |index| of |op|, split from its interleaved
// form the first time they are needed in a block.
static grt_status_t grtc_import_complex_get(grtc_import_t* ctx, const grtc_operation_t* op,
                                            grtc_chlo_math_t* m, uint32_t index,
                                            grtc_complex_t* out) {
  const grtc_value_t* value = op->operands[index];
  const grtc_complex_t* pair = grtc_map_get(&ctx->complex_values, value);
  if (pair && grtc_import_visible_in(pair->re, m->b->block) &&
      grtc_import_visible_in(pair->im, m->b->block)) {
    *out = *pair;
    return grt_ok_status();
  }
  grtc_tvalue_t* interleaved = grtc_import_lookup(ctx, value);
  if (!interleaved) {
    return grtc_import_error(ctx, op, "operand #%u '%.*s' of '%.*s' has no imported "
                             "value", index, GRT_SV_ARG(value->name),
                             GRT_SV_ARG(op->name));
  }
  *out = grtc_complex_split(m, interleaved);
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
  return grtc_import_complex_put(ctx, value, *out);
}

// The type of one part of complex |type| (the interleaved type without its
// trailing 2).
static grt_status_t grtc_import_complex_part_type(const grtc_import_t* ctx,
                                                  const grtc_operation_t* op,
                                                  const grtc_type_t* type,
                                                  grtc_ttype_t* out) {
  GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, type, out));
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, op, "complex types", out, 1));
  if (grtc_import_is_complex(type)) out->rank--;
  return grt_ok_status();
}

// Appends |type| to |types| (at *inout_count): a real type as it is, a
// complex one as its two parts.
static grt_status_t grtc_import_complex_expand_type(const grtc_import_t* ctx,
                                                    const grtc_operation_t* op,
                                                    const grtc_type_t* type,
                                                    grtc_ttype_t* types,
                                                    uint32_t* inout_count) {
  uint32_t at = *inout_count;
  GRT_RETURN_IF_ERROR(grtc_import_complex_part_type(ctx, op, type, &types[at]));
  if (grtc_import_is_complex(type)) types[++at] = types[*inout_count];
  *inout_count = at + 1;
  return grt_ok_status();
}

// An op of |op|'s own kind and attributes on |operands| (real tensors).
static grt_status_t grtc_import_complex_same(grtc_import_t* ctx, const grtc_operation_t* op,
                                             const grtc_import_op_t* entry,
                                             grtc_tvalue_t* const* operands,
                                             uint32_t operand_count,
                                             const grtc_ttype_t* result,
                                             grtc_tblock_t* block, grtc_tvalue_t** out) {
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, entry->kind, operands, operand_count,
                                         result, 1, 0, block, &top));
  GRT_RETURN_IF_ERROR(grtc_import_attrs(ctx, op, entry->rule, top));
  *out = &top->results[0];
  return grt_ok_status();
}

// Ops that only move elements run once on each part.
static bool grtc_import_complex_moves(grtc_top_kind_t kind) {
  switch (kind) {
    case GRTC_TOP_BROADCAST_IN_DIM:
    case GRTC_TOP_RESHAPE:
    case GRTC_TOP_TRANSPOSE:
    case GRTC_TOP_SLICE:
    case GRTC_TOP_DYNAMIC_SLICE:
    case GRTC_TOP_DYNAMIC_UPDATE_SLICE:
    case GRTC_TOP_CONCATENATE:
    case GRTC_TOP_PAD:
    case GRTC_TOP_REVERSE:
    case GRTC_TOP_SELECT:
    case GRTC_TOP_GATHER:
      return true;
    default:
      return false;
  }
}

static grt_status_t grtc_import_complex_unsupported(const grtc_import_t* ctx,
                                                    const grtc_operation_t* op) {
  return grtc_import_types_error(ctx, op, "on complex types is not supported");
}

// reduce and reduce_window: each complex input, init, body argument, body
// result and result becomes its two parts, in place (a variadic reduction
// whose body computes on the parts).
static grt_status_t grtc_import_complex_reduce(grtc_import_t* ctx,
                                               const grtc_operation_t* op,
                                               const grtc_import_op_t* entry,
                                               grtc_chlo_math_t* m, grtc_tblock_t* block) {
  enum { MAX_VALUES = 64 };
  grtc_tvalue_t* operands[MAX_VALUES];
  grtc_ttype_t results[MAX_VALUES];
  uint32_t operand_count = 0, result_count = 0;
  if (op->region_count != 1 || op->regions[0]->block_count != 1 ||
      2 * op->operand_count > MAX_VALUES || 2 * op->result_count > MAX_VALUES) {
    return grtc_import_types_error(ctx, op, "on complex types takes one body block and "
                                   "at most %d operands", MAX_VALUES / 2);
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    if (grtc_import_is_complex(op->operands[i]->type)) {
      grtc_complex_t z;
      GRT_RETURN_IF_ERROR(grtc_import_complex_get(ctx, op, m, i, &z));
      operands[operand_count++] = z.re;
      operands[operand_count++] = z.im;
    } else {
      operands[operand_count] = grtc_import_lookup(ctx, op->operands[i]);
      if (!operands[operand_count++]) return grtc_import_complex_unsupported(ctx, op);
    }
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_complex_expand_type(ctx, op, op->results[i].type,
                                                        results, &result_count));
  }
  const grtc_block_t* source = op->regions[0]->first;
  grtc_ttype_t arg_types[MAX_VALUES];
  uint32_t arg_count = 0;
  if (2 * source->arg_count > MAX_VALUES) return grtc_import_complex_unsupported(ctx, op);
  for (uint32_t i = 0; i < source->arg_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_complex_expand_type(ctx, op, source->args[i].type,
                                                        arg_types, &arg_count));
  }
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, entry->kind, operands, operand_count,
                                         results, result_count, 1, block, &top));
  grtc_tblock_t* body = NULL;
  GRT_RETURN_IF_ERROR(grtc_tblock_create(ctx->module, arg_types, arg_count, &body));
  grtc_top_set_region(top, 0, body);
  for (uint32_t i = 0, j = 0; i < source->arg_count; ++i) {
    if (grtc_import_is_complex(source->args[i].type)) {
      grtc_complex_t z = {&body->args[j], &body->args[j + 1]};
      GRT_RETURN_IF_ERROR(grtc_import_complex_put(ctx, &source->args[i], z));
      j += 2;
    } else {
      GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &source->args[i], &body->args[j++]));
    }
  }
  // The body's ops, then its return with complex values as their parts.
  ctx->scalar_region_depth++;
  grt_status_t status = grt_ok_status();
  const grtc_operation_t* terminator = NULL;
  for (const grtc_operation_t* inner = source->first; inner && grt_status_is_ok(status);
       inner = inner->next) {
    if (!inner->next && grtc_operation_is(inner, "stablehlo.return")) {
      terminator = inner;
    } else {
      status = grtc_import_op(ctx, inner, body);
    }
  }
  ctx->scalar_region_depth--;
  GRT_RETURN_IF_ERROR(status);
  if (!terminator || terminator->operand_count > MAX_VALUES / 2) {
    return grtc_import_error(ctx, op, "the body of '%.*s' must end in stablehlo.return",
                             GRT_SV_ARG(op->name));
  }
  grtc_import_chlo_place_t place = {ctx, terminator};
  grtc_chlo_builder_t builder = {ctx->module, body, grtc_import_chlo_place, &place};
  grtc_chlo_math_t inner_math = {&builder, grt_ok_status()};
  grtc_tvalue_t* yielded[MAX_VALUES];
  uint32_t yield_count = 0;
  for (uint32_t i = 0; i < terminator->operand_count; ++i) {
    if (grtc_import_is_complex(terminator->operands[i]->type)) {
      grtc_complex_t z;
      GRT_RETURN_IF_ERROR(grtc_import_complex_get(ctx, terminator, &inner_math, i, &z));
      yielded[yield_count++] = z.re;
      yielded[yield_count++] = z.im;
    } else {
      yielded[yield_count] = grtc_import_lookup(ctx, terminator->operands[i]);
      if (!yielded[yield_count++]) return grtc_import_complex_unsupported(ctx, terminator);
    }
  }
  grtc_top_t* yield = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, terminator, GRTC_TOP_YIELD, yielded,
                                         yield_count, NULL, 0, 0, body, &yield));
  GRT_RETURN_IF_ERROR(grtc_import_attrs(ctx, op, entry->rule, top));
  for (uint32_t i = 0, j = 0; i < op->result_count; ++i) {
    if (grtc_import_is_complex(op->results[i].type)) {
      grtc_complex_t z = {&top->results[j], &top->results[j + 1]};
      GRT_RETURN_IF_ERROR(grtc_import_complex_put(ctx, &op->results[i], z));
      j += 2;
    } else {
      GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &op->results[i], &top->results[j++]));
    }
  }
  return grt_ok_status();
}

// convert: real -> complex gives (x, 0), complex -> real the real part
// (i1: whether either part is nonzero), complex -> complex each part.
static grt_status_t grtc_import_complex_convert(grtc_import_t* ctx,
                                                const grtc_operation_t* op,
                                                grtc_chlo_math_t* m) {
  grtc_ttype_t part;
  GRT_RETURN_IF_ERROR(grtc_import_complex_part_type(ctx, op, op->results[0].type, &part));
  bool from_complex = grtc_import_is_complex(op->operands[0]->type);
  bool to_complex = grtc_import_is_complex(op->results[0].type);
  if (!from_complex) {
    grtc_tvalue_t* x = grtc_import_lookup(ctx, op->operands[0]);
    if (!x) return grtc_import_complex_unsupported(ctx, op);
    grtc_tvalue_t* re = grtc_chlo_convert(m, x, part.elem);
    grtc_complex_t z = {re, grtc_chlo_splat(m, re, 0.0)};
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
    return grtc_import_complex_put(ctx, &op->results[0], z);
  }
  grtc_complex_t z;
  GRT_RETURN_IF_ERROR(grtc_import_complex_get(ctx, op, m, 0, &z));
  if (to_complex) {
    grtc_complex_t r = {grtc_chlo_convert(m, z.re, part.elem),
                        grtc_chlo_convert(m, z.im, part.elem)};
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
    return grtc_import_complex_put(ctx, &op->results[0], r);
  }
  grtc_tvalue_t* r = grtc_chlo_convert(m, z.re, part.elem);
  if (part.elem == GRTC_ELEM_I1) {
    r = grtc_chlo_binary(m, GRTC_TOP_OR, r, grtc_chlo_convert(m, z.im, GRTC_ELEM_I1));
  }
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m->status));
  return grtc_import_map(ctx, &op->results[0], r);
}

// Imports |op|, which has complex operands or results. Sets |*out_handled|
// false for the ops that take the interleaved form, after giving each of
// their complex operands one.
static grt_status_t grtc_import_complex_op(grtc_import_t* ctx, const grtc_operation_t* op,
                                           grtc_tblock_t* block, bool* out_handled) {
  *out_handled = true;
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  const grtc_attribute_t* value = grtc_operation_attribute(op, "value");
  if (grtc_operation_is(op, "stablehlo.constant") && op->result_count == 1 && value &&
      value->kind == GRTC_ATTR_DENSE_ELEMENTS && value->dense.splat &&
      grtc_type_equal(value->type, op->results[0].type)) {
    // A complex splat is a splat of each part.
    grtc_ttype_t part;
    GRT_RETURN_IF_ERROR(grtc_import_complex_part_type(ctx, op, op->results[0].type, &part));
    size_t size = value->dense.size / 2;
    grtc_scalar_value_t parts[2];
    for (int i = 0; i < 2; ++i) {
      if (size == sizeof(float)) {
        float f;
        memcpy(&f, value->dense.data + i * size, sizeof(f));
        parts[i].f = f;
      } else {
        memcpy(&parts[i].f, value->dense.data + i * size, sizeof(double));
      }
    }
    grtc_complex_t z = {grtc_chlo_splat_type(&m, &part, parts[0]),
                        grtc_chlo_splat_type(&m, &part, parts[1])};
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    return grtc_import_complex_put(ctx, &op->results[0], z);
  }
  if (grtc_operation_is(op, "stablehlo.bitcast_convert") && op->operand_count == 1 &&
      op->result_count == 1) {
    // The interleaved parts are the complex values' bits in memory order.
    grtc_ttype_t from, to;
    GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->operands[0]->type, &from));
    GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[0].type, &to));
    if (!grtc_chlo_bitcast_shapes_match(&from, &to)) {
      return grtc_import_types_error(
          ctx, op, "on complex types reinterprets them as their (re, im) parts: with a "
          "complex<fN> counted as a last dimension of 2 fN, the types must be of one "
          "width and shape, or the narrower one's have the other's shape and a last "
          "dimension of the width ratio (complex<f32> <-> i64, f64, 2xf32 or 2xi32, and "
          "2xcomplex<f32> <-> complex<f64>)");
    }
  }
  if (grtc_import_complex_interleaved(op)) {
    *out_handled = false;
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      const grtc_complex_t* pair = grtc_map_get(&ctx->complex_values, op->operands[i]);
      const grtc_tvalue_t* interleaved = grtc_import_lookup(ctx, op->operands[i]);
      if (!pair || (interleaved && grtc_import_visible_in(interleaved, block))) continue;
      grtc_tvalue_t* joined = grtc_complex_join(&m, *pair);
      GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
      GRT_RETURN_IF_ERROR(grtc_import_map(ctx, op->operands[i], joined));
    }
    return grt_ok_status();
  }
  if (op->result_count != 1 || op->operand_count > 64 || op->region_count > 1) {
    return grtc_import_complex_unsupported(ctx, op);
  }
  grtc_ttype_t part;
  GRT_RETURN_IF_ERROR(grtc_import_complex_part_type(ctx, op, op->results[0].type, &part));
  if (grtc_operation_is(op, "stablehlo.complex")) {
    grtc_tvalue_t* re = op->operand_count == 2 ? grtc_import_lookup(ctx, op->operands[0]) : NULL;
    grtc_tvalue_t* im = op->operand_count == 2 ? grtc_import_lookup(ctx, op->operands[1]) : NULL;
    if (!re || !im || !grtc_ttype_equal(&re->type, &part) ||
        !grtc_ttype_equal(&im->type, &part)) {
      return grtc_import_types_error(ctx, op, "takes two real tensors of its result's "
                                     "shape and part type");
    }
    grtc_complex_t z = {re, im};
    return grtc_import_complex_put(ctx, &op->results[0], z);
  }
  bool is_real = grtc_operation_is(op, "stablehlo.real");
  if (is_real || grtc_operation_is(op, "stablehlo.imag")) {
    grtc_complex_t z;
    if (op->operand_count != 1) return grtc_import_complex_unsupported(ctx, op);
    GRT_RETURN_IF_ERROR(grtc_import_complex_get(ctx, op, &m, 0, &z));
    grtc_tvalue_t* r = is_real ? z.re : z.im;
    if (!grtc_ttype_equal(&r->type, &part)) {
      return grtc_import_types_error(ctx, op, "must give its operand's part type");
    }
    return grtc_import_map(ctx, &op->results[0], r);
  }
  if (grtc_operation_is(op, "stablehlo.square")) {
    grtc_complex_t z;
    if (op->operand_count != 1) return grtc_import_complex_unsupported(ctx, op);
    GRT_RETURN_IF_ERROR(grtc_import_complex_get(ctx, op, &m, 0, &z));
    if (!grtc_import_is_complex(op->results[0].type) || !grtc_ttype_equal(&z.re->type, &part)) {
      return grtc_import_types_error(ctx, op, "returns its operand's type");
    }
    grtc_complex_t r = grtc_complex_square(&m, z);
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    return grtc_import_complex_put(ctx, &op->results[0], r);
  }
  grtc_import_op_t entry;
  memset(&entry, 0, sizeof(entry));
  if (!grtc_import_find_op(op->name, &entry)) return grtc_import_complex_unsupported(ctx, op);
  if (entry.kind == GRTC_TOP_REDUCE || entry.kind == GRTC_TOP_REDUCE_WINDOW) {
    return grtc_import_complex_reduce(ctx, op, &entry, &m, block);
  }
  if (op->region_count) return grtc_import_complex_unsupported(ctx, op);
  if (entry.kind == GRTC_TOP_CONVERT && op->operand_count == 1) {
    return grtc_import_complex_convert(ctx, op, &m);
  }
  if (entry.kind == GRTC_TOP_IOTA && op->operand_count == 0) {
    // The index in the real part, 0 in the imaginary one.
    int64_t dim = 0;
    GRT_RETURN_IF_ERROR(grtc_import_int(ctx, op, "iota_dimension", true, &dim));
    grtc_tvalue_t* re = grtc_chlo_make(&m, GRTC_TOP_IOTA, NULL, 0, &part);
    if (re) re->def->attrs.dim = dim;
    grtc_complex_t z = {re, grtc_chlo_splat(&m, re, 0.0)};
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    return grtc_import_complex_put(ctx, &op->results[0], z);
  }
  // Every other op takes its complex operands as parts.
  grtc_complex_t values[64];
  grtc_tvalue_t* reals[64];
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    reals[i] = NULL;
    if (grtc_import_is_complex(op->operands[i]->type)) {
      GRT_RETURN_IF_ERROR(grtc_import_complex_get(ctx, op, &m, i, &values[i]));
    } else {
      reals[i] = grtc_import_lookup(ctx, op->operands[i]);
      if (!reals[i]) return grtc_import_complex_unsupported(ctx, op);
    }
  }
  bool result_complex = grtc_import_is_complex(op->results[0].type);
  uint32_t arity = 0;
  bool all_complex = true;
  for (uint32_t i = 0; i < op->operand_count; ++i) all_complex = all_complex && !reals[i];
  if (grtc_complex_handles(entry.kind, &arity) && arity == op->operand_count &&
      all_complex && result_complex == (entry.kind != GRTC_TOP_ABS)) {
    grtc_complex_t r = grtc_complex_elementwise(&m, entry.kind, values);
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    if (!result_complex) {
      if (!grtc_ttype_equal(&r.re->type, &part)) return grtc_import_complex_unsupported(ctx, op);
      return grtc_import_map(ctx, &op->results[0], r.re);
    }
    return grtc_import_complex_put(ctx, &op->results[0], r);
  }
  if (entry.kind == GRTC_TOP_COMPARE && all_complex && op->operand_count == 2) {
    const grtc_attribute_t* attr = grtc_operation_attribute(op, "comparison_direction");
    grtc_compare_direction_t direction = GRTC_CMP_LT;
    grtc_attr_error_t error;
    if (attr && !grtc_attr_compare_direction(attr, &direction, &error)) {
      return grtc_import_error(ctx, op, "%s", error.message);
    }
    if (direction != GRTC_CMP_EQ && direction != GRTC_CMP_NE) {
      return grtc_import_types_error(ctx, op, "on complex types compares EQ or NE only");
    }
    grtc_tvalue_t* r =
        grtc_complex_compare(&m, direction == GRTC_CMP_EQ, values[0], values[1]);
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    return grtc_import_map(ctx, &op->results[0], r);
  }
  if (entry.kind == GRTC_TOP_DOT_GENERAL && all_complex && op->operand_count == 2 &&
      result_complex) {
    // Four real products: (rr - ii, ri + ir).
    grtc_tvalue_t* products[4];
    grtc_tvalue_t* pairs[4][2] = {{values[0].re, values[1].re},
                                  {values[0].im, values[1].im},
                                  {values[0].re, values[1].im},
                                  {values[0].im, values[1].re}};
    for (int i = 0; i < 4; ++i) {
      GRT_RETURN_IF_ERROR(grtc_import_complex_same(ctx, op, &entry, pairs[i], 2, &part,
                                                   block, &products[i]));
    }
    grtc_complex_t r = grtc_complex_combine_products(&m, products[0], products[1],
                                                     products[2], products[3]);
    GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
    return grtc_import_complex_put(ctx, &op->results[0], r);
  }
  if (grtc_import_complex_moves(entry.kind) && result_complex) {
    grtc_complex_t r;
    grtc_tvalue_t* operands[64];
    for (int p = 0; p < 2; ++p) {
      for (uint32_t i = 0; i < op->operand_count; ++i) {
        operands[i] = reals[i] ? reals[i] : p == 0 ? values[i].re : values[i].im;
      }
      GRT_RETURN_IF_ERROR(grtc_import_complex_same(ctx, op, &entry, operands,
                                                   op->operand_count, &part, block,
                                                   p == 0 ? &r.re : &r.im));
    }
    return grtc_import_complex_put(ctx, &op->results[0], r);
  }
  return grtc_import_complex_unsupported(ctx, op);
}

// stablehlo.fft (fft.h): the spec's constraints checked against the types,
// with the op's signature in each message.
static grt_status_t grtc_import_fft(grtc_import_t* ctx, const grtc_operation_t* op,
                                    grtc_tblock_t* block) {
  if (op->operand_count != 1 || op->result_count != 1) {
    return grtc_import_error(ctx, op, "'%.*s' takes 1 operand and has 1 result, got %u "
                             "and %u", GRT_SV_ARG(op->name), op->operand_count,
                             op->result_count);
  }
  static const char* const names[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
  int index = -1;
  GRT_RETURN_IF_ERROR(grtc_import_chlo_enum(ctx, op, "fft_type", "fft_type", names, 4, &index));
  if (index < 0) {
    return grtc_import_error(ctx, op, "'%.*s' requires 'fft_type' (FFT, IFFT, RFFT or "
                             "IRFFT)", GRT_SV_ARG(op->name));
  }
  grtc_fft_type_t type = (grtc_fft_type_t)index;
  grtc_i64s_t lengths = {0, NULL};
  GRT_RETURN_IF_ERROR(grtc_import_list(ctx, op, "fft_length", true, &lengths));
  bool in_complex = grtc_import_is_complex(op->operands[0]->type);
  bool out_complex = grtc_import_is_complex(op->results[0].type);
  grtc_ttype_t in, out;
  GRT_RETURN_IF_ERROR(grtc_import_complex_part_type(ctx, op, op->operands[0]->type, &in));
  GRT_RETURN_IF_ERROR(grtc_import_complex_part_type(ctx, op, op->results[0].type, &out));
  static const char* const forms[] = {
      "takes and returns one complex type (complex<f32> or complex<f64>)",
      "takes and returns one complex type (complex<f32> or complex<f64>)",
      "takes f32 or f64 and returns complex of that precision",
      "takes complex<f32> or complex<f64> and returns its part type"};
  bool want_in = type != GRTC_FFT_REAL, want_out = type != GRTC_FFT_INVERSE_REAL;
  if (in_complex != want_in || out_complex != want_out || in.elem != out.elem ||
      (in.elem != GRTC_ELEM_F32 && in.elem != GRTC_ELEM_F64)) {
    return grtc_import_types_error(ctx, op, "with %s %s", names[index], forms[index]);
  }
  if (lengths.count < 1 || lengths.count > 3 || lengths.count > in.rank) {
    return grtc_import_types_error(ctx, op, "takes 1 to 3 fft_length values, at most the "
                                   "operand's rank %u, got %u", in.rank, lengths.count);
  }
  // The real side (the operand but for IRFFT) has fft_length as its last
  // dims; the other side is the same but for RFFT's and IRFFT's last dim.
  const grtc_ttype_t* full = type == GRTC_FFT_INVERSE_REAL ? &out : &in;
  const grtc_ttype_t* other = type == GRTC_FFT_INVERSE_REAL ? &in : &out;
  uint32_t first = in.rank - lengths.count;
  char expected[256] = "";
  size_t used = 0;
  for (uint32_t i = 0; i < lengths.count && used < sizeof(expected); ++i) {
    used += (size_t)snprintf(expected + used, sizeof(expected) - used, "%s%lld",
                             i ? ", " : "", (long long)lengths.values[i]);
  }
  for (uint32_t i = 0; i < lengths.count; ++i) {
    int64_t n = lengths.values[i];
    if (n < 0 || !grtc_fft_length_supported(n)) {
      return grtc_import_types_error(ctx, op, "fft_length values are 0 to %d, or longer "
                                     "ones whose factors are (each transformed dim is "
                                     "matrix products), got [%s]",
                                     GRTC_FFT_MAX_LENGTH, expected);
    }
    if (full->dims[first + i] != n) {
      return grtc_import_types_error(ctx, op, "transforms the last dims of its %s, which "
                                     "must be fft_length [%s]",
                                     type == GRTC_FFT_INVERSE_REAL ? "result" : "operand",
                                     expected);
    }
  }
  grtc_ttype_t shape = *full;
  shape.elem = other->elem;
  int64_t n_last = lengths.values[lengths.count - 1];
  if (type == GRTC_FFT_REAL || type == GRTC_FFT_INVERSE_REAL) {
    shape.dims[in.rank - 1] = n_last == 0 ? 0 : n_last / 2 + 1;
  }
  if (!grtc_ttype_equal(&shape, other)) {
    char want[GRTC_TTYPE_FORMAT_CAPACITY];
    grtc_ttype_format(&shape, want, sizeof(want));
    return grtc_import_types_error(ctx, op, "with %s needs its %s's part type to be %s",
                                   names[index], type == GRTC_FFT_INVERSE_REAL ? "operand"
                                                                                : "result",
                                   want);
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, block, grtc_import_chlo_place, &place};
  grtc_chlo_math_t m = {&builder, grt_ok_status()};
  grtc_complex_t z = {NULL, NULL}, r = {NULL, NULL};
  if (in_complex) {
    GRT_RETURN_IF_ERROR(grtc_import_complex_get(ctx, op, &m, 0, &z));
  } else {
    z.re = grtc_import_lookup(ctx, op->operands[0]);
    if (!z.re) {
      return grtc_import_error(ctx, op, "operand #0 '%.*s' of '%.*s' has no imported value",
                               GRT_SV_ARG(op->operands[0]->name), GRT_SV_ARG(op->name));
    }
  }
  if (grtc_ttype_element_count(&in) == 0 || grtc_ttype_element_count(&out) == 0) {
    // An empty transform: zeros of the result's shape (none, or an empty
    // operand's transform).
    r.re = grtc_chlo_splat_type(&m, &out, (grtc_scalar_value_t){.f = 0.0});
    r.im = out_complex ? grtc_chlo_splat_type(&m, &out, (grtc_scalar_value_t){.f = 0.0})
                       : NULL;
  } else {
    r = grtc_fft(&m, type, z, lengths.values, lengths.count, &out);
  }
  GRT_RETURN_IF_ERROR(grtc_import_at(ctx, op, m.status));
  if (!out_complex) return grtc_import_map(ctx, &op->results[0], r.re);
  return grtc_import_complex_put(ctx, &op->results[0], r);
}

static grt_status_t grtc_import_op(grtc_import_t* ctx, const grtc_operation_t* op,
                                   grtc_tblock_t* block) {
  grtc_import_op_t entry;
  memset(&entry, 0, sizeof(entry));
  if (grtc_operation_is(op, "stablehlo.fft")) return grtc_import_fft(ctx, op, block);
  if (grtc_import_touches_complex(op)) {
    bool handled = false;
    GRT_RETURN_IF_ERROR(grtc_import_complex_op(ctx, op, block, &handled));
    if (handled) return grt_ok_status();
  }
  if (grtc_operation_is(op, "stablehlo.copy")) {
    // MHLO's mhlo.copy (read as stablehlo.copy, syntax.c): its operand.
    grtc_tvalue_t* value = op->operand_count == 1 && op->result_count == 1
                               ? grtc_import_lookup(ctx, op->operands[0])
                               : NULL;
    if (!value) {
      return grtc_import_error(ctx, op, "'mhlo.copy' takes one tensor and returns one");
    }
    return grtc_import_map(ctx, &op->results[0], value);
  }
  if (grtc_operation_is(op, "stablehlo.map")) return grtc_import_map_op(ctx, op, block);
  if (grtc_operation_is(op, "linalg.generic")) return grtc_import_linalg_generic(ctx, op, block);
  if (grtc_operation_is(op, "tensor.empty") && op->operand_count) {
    return grtc_import_empty_symbolic(ctx, op, block);
  }
  if (grtc_operation_is(op, "tensor.expand_shape") ||
      grtc_operation_is(op, "tensor.collapse_shape")) {
    return grtc_import_reshape_groups(ctx, op, block);
  }
  if (grtc_operation_is(op, "chlo.scan")) return grtc_import_scan(ctx, op, block);
  if (grtc_operation_is(op, "interpreter.run_parallel")) {
    return grtc_import_run_parallel(ctx, op, block);
  }
  if (grtc_operation_is(op, "interpreter.probe")) return grtc_import_probe(ctx, op, block);
  if (grtc_operation_is(op, "check.expect_serialized_eq")) {
    return grtc_import_expect_serialized_eq(ctx, op, block);
  }
  if (grtc_operation_is(op, "stablehlo.select_and_scatter")) {
    return grtc_import_select_and_scatter(ctx, op, block);
  }
  if (grtc_operation_is(op, "stablehlo.tuple") ||
      grtc_operation_is(op, "stablehlo.get_tuple_element")) {
    return grtc_import_tuple_op(ctx, op);
  }
  if (grtc_operation_is(op, "stablehlo.custom_call")) {
    const grtc_attribute_t* target = grtc_operation_attribute(op, "call_target_name");
    if (target && target->kind == GRTC_ATTR_STRING && grtc_lapack_is_target(target->string)) {
      return grtc_import_lapack_call(ctx, op, target->string, block);
    }
  }
  if (ctx->scalar_region_depth && grtc_operation_is(op, "func.call")) {
    return grtc_import_inline_call(ctx, op, block);
  }
  if (grt_string_view_equal_cstring(op->name, "stablehlo.uniform_quantize") ||
      grt_string_view_equal_cstring(op->name, "stablehlo.uniform_dequantize")) {
    return grtc_import_uniform(ctx, op, block);
  }
  if (grtc_import_is_global_use(op)) return grtc_import_global_op(ctx, op, block);
  uint32_t chlo_operands = 0, chlo_results = 0;
  bool is_chlo = grtc_chlo_handles(op->name, &chlo_operands, &chlo_results);
  if (!is_chlo && !grtc_import_find_op(op->name, &entry)) {
    return grtc_import_error(ctx, op, "'%.*s' is not supported", GRT_SV_ARG(op->name));
  }
  if (op->successor_count) {
    return grtc_import_error(ctx, op, "'%.*s' with successors is not supported",
                             GRT_SV_ARG(op->name));
  }
  grtc_tvalue_t* operands[64];
  grtc_ttype_t results[64];
  if (op->operand_count > 64 || op->result_count > 64) {
    return grtc_import_error(ctx, op, "'%.*s' with more than 64 operands or results "
                             "is not supported", GRT_SV_ARG(op->name));
  }
  for (uint32_t i = 0; i < op->operand_count; ++i) {
    operands[i] = grtc_import_lookup(ctx, op->operands[i]);
    if (!operands[i]) {
      return grtc_import_error(ctx, op, "operand #%u '%.*s' of '%.*s' has no imported "
                               "value", i, GRT_SV_ARG(op->operands[i]->name),
                               GRT_SV_ARG(op->name));
    }
  }
  for (uint32_t i = 0; i < op->result_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_type(ctx, op, op->results[i].type, &results[i]));
  }
  if (ctx->map_shape) {
    // Inside a stablehlo.map body: its ops act on every element at once.
    bool scalar_rule = entry.rule == GRTC_IMPORT_PLAIN || entry.rule == GRTC_IMPORT_CMPI ||
                       entry.rule == GRTC_IMPORT_CMPF ||
                       entry.rule == GRTC_IMPORT_SIGNED_CAST ||
                       entry.rule == GRTC_IMPORT_UNSIGNED_CAST;
    if (is_chlo || !scalar_rule || grtc_top_kind_role(entry.kind) != GRTC_ROLE_E) {
      return grtc_import_error(ctx, op, "'%.*s' bodies of elementwise ops are "
                               "supported; '%.*s' is not one", GRT_SV_ARG(ctx->map_owner),
                               GRT_SV_ARG(op->name));
    }
    for (uint32_t i = 0; i < op->result_count; ++i) {
      grtc_elem_t elem = results[i].elem;
      results[i] = *ctx->map_shape;
      results[i].elem = elem;
    }
  }
  bool plain = !is_chlo && (entry.rule == GRTC_IMPORT_PLAIN || entry.rule == GRTC_IMPORT_DOT ||
                             entry.rule == GRTC_IMPORT_BROADCAST ||
                             entry.rule == GRTC_IMPORT_SIGNED_CAST ||
                             entry.rule == GRTC_IMPORT_UNSIGNED_CAST ||
                             entry.rule == GRTC_IMPORT_CMPI || entry.rule == GRTC_IMPORT_CMPF ||
                             entry.rule == GRTC_IMPORT_DYNAMIC_OPERAND ||
                             entry.rule == GRTC_IMPORT_SET_DIMENSION_SIZE ||
                             entry.rule == GRTC_IMPORT_TENSOR_CAST);
  if (entry.rule == GRTC_IMPORT_DYNAMIC_CONSTANT) {
    GRT_RETURN_IF_ERROR(grtc_import_dynamic_constant_type(ctx, op, results));
  }
  if (entry.rule == GRTC_IMPORT_TENSOR_CAST) {
    GRT_RETURN_IF_ERROR(grtc_import_tensor_cast_types(ctx, op, operands, results));
  }
  if (!plain || entry.kind == GRTC_TOP_CONSTANT || entry.kind == GRTC_TOP_IOTA) {
    GRT_RETURN_IF_ERROR(grtc_import_static(ctx, op, "result type", results,
                                           op->result_count));
  }
  grtc_import_quant_mode_t quant_mode = GRTC_IMPORT_QUANT_NONE;
  grtc_quant_type_t* quant_results = NULL;
  if (grtc_import_is_quantized(op)) {
    if (is_chlo) return grtc_import_quant_unsupported(ctx, op, "");
    GRT_RETURN_IF_ERROR(grtc_import_quant_prepare(ctx, op, &entry, operands, results,
                                                  block, &quant_mode, &quant_results));
  }
  grtc_float_kind_t f8_kind;
  if (grtc_import_touches_f8(op, &f8_kind)) {
    bool done = false;
    GRT_RETURN_IF_ERROR(
        grtc_import_f8(ctx, op, &entry, is_chlo, operands, results, block, &done));
    if (done) return grt_ok_status();
  }
  if (entry.kind == GRTC_TOP_BITCAST_CONVERT && !is_chlo && op->operand_count == 1 &&
      op->result_count == 1 && !grtc_import_is_narrow(op) &&
      grtc_elem_bit_width(operands[0]->type.elem) !=
                                   grtc_elem_bit_width(results[0].elem)) {
    return grtc_import_bitcast_widths(ctx, op, operands[0], &results[0], block);
  }
  if (!is_chlo && entry.kind == GRTC_TOP_COMPARE && op->operand_count == 2 &&
      op->result_count == 1 &&
      grtc_attr_compare_type_is_weak_order(grtc_operation_attribute(op, "compare_type"))) {
    return grtc_import_compare_weak_order(ctx, op, operands, block);
  }
  if (grtc_import_is_narrow(op)) {
    bool done = false;
    GRT_RETURN_IF_ERROR(grtc_import_narrow(ctx, op, is_chlo ? GRTC_TOP_COUNT : entry.kind,
                                           operands, results, block, &done));
    if (done) return grt_ok_status();
  }
  if (is_chlo) return grtc_import_chlo(ctx, op, operands, results, block);
  grtc_top_kind_t kind = entry.kind;
  switch (entry.rule) {
    case GRTC_IMPORT_CUSTOM_CALL: {
      const grtc_attribute_t* target = grtc_operation_attribute(op, "call_target_name");
      grt_string_view_t name = target && target->kind == GRTC_ATTR_STRING
                                   ? target->string
                                   : grt_make_cstring_view("?");
      if (grt_string_view_equal_cstring(name, "check.eq")) {
        return grtc_import_check_eq_call(ctx, op, operands, results, block);
      }
      if (grt_string_view_equal_cstring(name, "shape_assertion")) {
        return grtc_import_shape_assertion(ctx, op, operands, block);
      }
      if (grt_string_view_equal_cstring(name, "ProductOfElementaryHouseholderReflectors")) {
        return grtc_import_lowered_custom_call(ctx, op, name, operands, results, block);
      }
      if (grt_string_view_equal_cstring(name, "check.expect_eq")) {
        kind = GRTC_TOP_CHECK_EQ;
      } else if (grt_string_view_equal_cstring(name, "check.expect_almost_eq")) {
        kind = GRTC_TOP_CHECK_ALMOST_EQ;
      } else if (grt_string_view_equal_cstring(name, "check.expect_close")) {
        kind = GRTC_TOP_CHECK_CLOSE;
      } else {
        return grtc_import_error(ctx, op, "'stablehlo.custom_call' to '%.*s' is not "
                                 "supported", GRT_SV_ARG(name));
      }
      if (op->result_count) {
        return grtc_import_error(ctx, op, "custom call '%.*s' must have no results",
                                 GRT_SV_ARG(name));
      }
      break;
    }
    case GRTC_IMPORT_CHECK_CONST:
      if (op->operand_count != 1) {
        return grtc_import_error(ctx, op, "'%.*s' takes one operand and a 'value'",
                                 GRT_SV_ARG(op->name));
      }
      return grtc_import_check_const(ctx, op, kind, operands, block);
    case GRTC_IMPORT_DYNAMIC_OPERAND:
      return grtc_import_dynamic_operand(ctx, op, kind, operands, results, block);
    case GRTC_IMPORT_SET_DIMENSION_SIZE:
      return grtc_import_set_dimension_size(ctx, op, operands, results, block);
    case GRTC_IMPORT_EXTRACT: {
      if (op->operand_count < 1 || op->result_count != 1 ||
          op->operand_count != 1 + operands[0]->type.rank) {
        return grtc_import_error(ctx, op, "'tensor.extract' takes a tensor and one "
                                 "index per dimension");
      }
      grtc_tvalue_t* value = NULL;
      GRT_RETURN_IF_ERROR(grtc_import_extract(ctx, op, operands, &results[0], block, &value));
      return grtc_import_map(ctx, &op->results[0], value);
    }
    case GRTC_IMPORT_PLACEHOLDER: {
      // tensor.empty's contents are unspecified and a token carries none:
      // both become a zero splat of the result type (a token is a
      // tensor<0xi1>, so it has no bytes at all).
      if (op->result_count != 1) {
        return grtc_import_error(ctx, op, "'%.*s' must have one result; it has %u",
                                 GRT_SV_ARG(op->name), op->result_count);
      }
      grtc_tvalue_t* zeros = NULL;
      GRT_RETURN_IF_ERROR(grtc_import_splat(ctx, op, results, 0, block, &zeros));
      return grtc_import_map(ctx, &op->results[0], zeros);
    }
    case GRTC_IMPORT_SIGNED_CAST:
    case GRTC_IMPORT_UNSIGNED_CAST: {
      // CONVERT reads i1 as 0/1 and wider signless integers as signed; arith
      // says which reading a cast means. Narrowing is the same either way.
      if (op->operand_count != 1 || op->result_count != 1) break;  // the verifier's
      grtc_elem_t from = operands[0]->type.elem, to = results[0].elem;
      bool reads_value = grtc_elem_is_float(to) ||
                         grtc_elem_bit_width(to) > grtc_elem_bit_width(from);
      bool differs = entry.rule == GRTC_IMPORT_SIGNED_CAST
                         ? from == GRTC_ELEM_I1
                         : from != GRTC_ELEM_I1 && grtc_elem_is_signed_integer(from);
      if (reads_value && differs) {
        return grtc_import_error(ctx, op, "'%.*s' of %s to %s is not supported",
                                 GRT_SV_ARG(op->name), grtc_elem_spelling(from),
                                 grtc_elem_spelling(to));
      }
      break;
    }
    default:
      break;
  }
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, op, kind, operands, op->operand_count,
                                         results, op->result_count, op->region_count,
                                         block, &top));
  for (uint32_t i = 0; i < op->result_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &op->results[i], &top->results[i]));
  }
  for (uint32_t i = 0; i < op->region_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_region(ctx, op, op->regions[i], top, i));
  }
  GRT_RETURN_IF_ERROR(grtc_import_attrs(ctx, op, entry.rule, top));
  if (quant_mode == GRTC_IMPORT_QUANT_STORAGE && top->kind == GRTC_TOP_CONSTANT) {
    return grtc_import_quant_constant(ctx, op, top);
  }
  if (quant_mode != GRTC_IMPORT_QUANT_NONE && quant_mode != GRTC_IMPORT_QUANT_STORAGE &&
      top->kind == GRTC_TOP_CONVOLUTION) {
    GRT_RETURN_IF_ERROR(grtc_import_quant_conv_check(ctx, op, top, quant_results));
  }
  if (quant_mode == GRTC_IMPORT_QUANT_FLOAT) {
    return grtc_import_quant_finish(ctx, op, top, quant_results + op->operand_count, block);
  }
  if (quant_mode == GRTC_IMPORT_QUANT_INTEGER) {
    return grtc_import_quant_dot(ctx, op, top, quant_results, block);
  }
  return grt_ok_status();
}

static grt_status_t grtc_import_block(grtc_import_t* ctx, const grtc_block_t* block,
                                      grtc_tblock_t* into) {
  for (uint32_t i = 0; i < block->arg_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &block->args[i], &into->args[i]));
  }
  for (const grtc_operation_t* op = block->first; op; op = op->next) {
    GRT_RETURN_IF_ERROR(grtc_import_op(ctx, op, into));
  }
  return grt_ok_status();
}

// Declares a func.func (its body is imported once every function exists,
// so calls may name later functions).
static grt_status_t grtc_import_declare(grtc_import_t* ctx, const grtc_operation_t* op) {
  const grtc_attribute_t* name = grtc_operation_attribute(op, "sym_name");
  const grtc_attribute_t* type = grtc_operation_attribute(op, "function_type");
  if (!name || name->kind != GRTC_ATTR_STRING || !type || type->kind != GRTC_ATTR_TYPE ||
      type->type->kind != GRTC_TYPE_FUNCTION) {
    return grtc_import_error(ctx, op, "'func.func' requires 'sym_name' and a "
                             "'function_type'");
  }
  if (op->region_count != 1 || !op->regions[0]->first) {
    return grtc_import_error(ctx, op, "function '@%.*s' has no body (external "
                             "functions are not supported)", GRT_SV_ARG(name->string));
  }
  if (grtc_tmodule_find_func(ctx->module, name->string)) {
    return grtc_import_error(ctx, op, "redefinition of function '@%.*s'",
                             GRT_SV_ARG(name->string));
  }
  const grtc_type_t* function = type->type;
  uint32_t count = function->function.input_count + function->function.result_count;
  grtc_ttype_t* types = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(ctx->allocator,
                                           (count ? count : 1) * sizeof(*types),
                                           (void**)&types));
  grt_status_t status = grt_ok_status();
  for (uint32_t i = 0; i < count && grt_status_is_ok(status); ++i) {
    status = grtc_import_type(ctx, op, function->function.types[i], &types[i]);
  }
  // A public function's plain i2/ui2/i4/ui4 tensors cross the boundary
  // packed: it takes and returns them as tensor<Mxui8>.
  const grtc_attribute_t* visibility = grtc_operation_attribute(op, "sym_visibility");
  bool is_public = !visibility || visibility->kind != GRTC_ATTR_STRING ||
                   grt_string_view_equal_cstring(visibility->string, "public");
  grtc_tpacked_t* packed = NULL;
  for (uint32_t i = 0; i < count && is_public && grt_status_is_ok(status); ++i) {
    bool is_unsigned = false;
    const grtc_type_t* source = function->function.types[i];
    uint32_t bits = source->kind == GRTC_TYPE_TENSOR && !grtc_quant_element(source)
                        ? grtc_narrow_int_bits(source, &is_unsigned)
                        : 0;
    if (bits != 2 && bits != 4) continue;
    if (!grtc_ttype_is_static(&types[i])) {
      status = grtc_import_error(ctx, op, "function '@%.*s': %s %u is a packed %si%u tensor "
                                 "with a '?' dimension (packed boundary values need "
                                 "static shapes)", GRT_SV_ARG(name->string),
                                 i < function->function.input_count ? "argument" : "result",
                                 i < function->function.input_count
                                     ? i : i - function->function.input_count,
                                 is_unsigned ? "u" : "", bits);
      break;
    }
    if (!packed) {
      packed = grtc_tmodule_alloc(ctx->module, count * sizeof(*packed));
      if (!packed) status = grtc_import_oom();
      if (!packed) break;
    }
    packed[i].bits = bits;
    packed[i].is_unsigned = is_unsigned;
    packed[i].type = types[i];
    types[i] = grtc_chlo_packed_type(grtc_ttype_element_count(&types[i]), bits);
  }
  grtc_tfunc_t* func = NULL;
  if (grt_status_is_ok(status)) {
    status = grtc_tfunc_create(ctx->module, name->string, types,
                               function->function.input_count,
                               types + function->function.input_count,
                               function->function.result_count, &func);
  }
  grt_allocator_free(ctx->allocator, types);
  GRT_RETURN_IF_ERROR(status);
  // "?" in the signature: argument dims are the function's symbols; result
  // dims are related to what it returns.
  ctx->func = func;
  for (uint32_t i = 0; i < func->body->arg_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_symbols(ctx, GRTC_SYM_ARGUMENT, NULL, i,
                                            &func->body->args[i].type));
  }
  for (uint32_t i = 0; i < func->result_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_symbols(ctx, GRTC_SYM_RESULT, NULL, i,
                                            &func->result_types[i]));
  }
  func->is_public = is_public;
  if (packed) {
    func->packed_args = packed;
    func->packed_results = packed + function->function.input_count;
  }
  GRT_RETURN_IF_ERROR(grtc_import_location(ctx, op->location, 0, &func->location));
  func->line = op->line;
  func->column = op->column;
  if (op->regions[0]->first->arg_count != func->body->arg_count) {
    return grtc_import_error(ctx, op, "function '@%.*s' has %u arguments but its type "
                             "lists %u", GRT_SV_ARG(name->string),
                             op->regions[0]->first->arg_count, func->body->arg_count);
  }
  return grt_ok_status();
}

//===----------------------------------------------------------------------===//
// Functions with several blocks (docs/compiler.md "Functions with several
// blocks")
//===----------------------------------------------------------------------===//

// A function's control-flow graph of cf.br / cf.cond_br / func.return, made
// structured again: a natural loop whose only exit is its header's cf.cond_br
// becomes a while (the header's ops computed in the cond region, and again at
// the start of the body and after the loop, so the values it defines reach
// the blocks it dominates); a cf.cond_br elsewhere becomes an if whose
// branches run to the block that post-dominates it, whose arguments are the
// if's results. Other shapes (a branch out of a loop's body, an entry into
// the middle of a loop) are a diagnostic at the branch.

#define GRTC_CFG_MAX_BLOCKS 4096u
#define GRTC_CFG_EXIT UINT32_MAX  // the function's return, or a loop's back edge

typedef struct grtc_cfg_t {
  const grtc_operation_t* func;
  const grtc_block_t** blocks;
  uint32_t count;
  uint32_t words;      // 64-bit words per block set
  uint64_t* in_loop;   // per header: the blocks of its natural loop
  bool* header;        // per block: the target of a back edge
  uint32_t* loop_exit; // per header: the block its loop exits to
  uint8_t* visit;      // DFS state: 0 new, 1 on the stack, 2 done
} grtc_cfg_t;

typedef struct grtc_cfg_exit_t {
  const grtc_operation_t* op;  // the terminator that left
  uint32_t count;
  grtc_tvalue_t* values[64];
} grtc_cfg_exit_t;

static bool grtc_cfg_has(const uint64_t* set, uint32_t i) {
  return (set[i / 64] >> (i % 64)) & 1u;
}
static void grtc_cfg_add(uint64_t* set, uint32_t i) { set[i / 64] |= UINT64_C(1) << (i % 64); }

static uint32_t grtc_cfg_index(const grtc_cfg_t* cfg, const grtc_block_t* block) {
  for (uint32_t i = 0; i < cfg->count; ++i) {
    if (cfg->blocks[i] == block) return i;
  }
  return GRTC_CFG_EXIT;
}

static bool grtc_cfg_is_branch(const grtc_operation_t* op) {
  return grtc_operation_is(op, "cf.br") || grtc_operation_is(op, "cf.cond_br");
}

// Finds back edges (to a block on the DFS stack): their targets are loop
// headers.
static void grtc_cfg_dfs(grtc_cfg_t* cfg, uint32_t b) {
  cfg->visit[b] = 1;
  const grtc_operation_t* term = cfg->blocks[b]->last;
  for (uint32_t s = 0; term && s < term->successor_count; ++s) {
    uint32_t t = grtc_cfg_index(cfg, term->successors[s].block);
    if (t == GRTC_CFG_EXIT) continue;
    if (cfg->visit[t] == 1) {
      // A back edge: t heads a loop that b belongs to.
      cfg->header[t] = true;
      grtc_cfg_add(cfg->in_loop + (size_t)t * cfg->words, b);
    }
    if (cfg->visit[t] == 0) grtc_cfg_dfs(cfg, t);
  }
  cfg->visit[b] = 2;
}

// The natural loop of header |h|: |h| and every block that reaches a back
// edge to it (their sources are in the set already) without passing |h|;
// and its one exit, which must leave from |h|'s cf.cond_br.
static grt_status_t grtc_cfg_loop(grtc_import_t* ctx, grtc_cfg_t* cfg, uint32_t h) {
  uint64_t* set = cfg->in_loop + (size_t)h * cfg->words;
  grtc_cfg_add(set, h);
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t b = 0; b < cfg->count; ++b) {
      if (grtc_cfg_has(set, b) || cfg->visit[b] != 2) continue;
      const grtc_operation_t* term = cfg->blocks[b]->last;
      for (uint32_t s = 0; term && s < term->successor_count; ++s) {
        uint32_t t = grtc_cfg_index(cfg, term->successors[s].block);
        // b reaches a back edge (it is in the loop when h reaches b too:
        // below).
        if (t != GRTC_CFG_EXIT && t != h && grtc_cfg_has(set, t)) {
          grtc_cfg_add(set, b);
          changed = true;
          break;
        }
      }
    }
  }
  // Predecessors of the header reach it; keep only blocks the header reaches
  // (the entry path into the loop is not part of it).
  uint64_t* reach = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_calloc(ctx->allocator, cfg->words * sizeof(*reach),
                                           (void**)&reach));
  uint32_t* stack = NULL;
  grt_status_t status = grt_allocator_malloc(ctx->allocator, cfg->count * sizeof(*stack),
                                             (void**)&stack);
  uint32_t top = 0;
  if (grt_status_is_ok(status)) {
    stack[top++] = h;
    grtc_cfg_add(reach, h);
    while (top) {
      uint32_t b = stack[--top];
      const grtc_operation_t* term = cfg->blocks[b]->last;
      for (uint32_t s = 0; term && s < term->successor_count; ++s) {
        uint32_t t = grtc_cfg_index(cfg, term->successors[s].block);
        if (t == GRTC_CFG_EXIT || t == h || grtc_cfg_has(reach, t) || !grtc_cfg_has(set, t)) {
          continue;
        }
        grtc_cfg_add(reach, t);
        stack[top++] = t;
      }
    }
    for (uint32_t w = 0; w < cfg->words; ++w) set[w] &= reach[w];
  }
  grt_allocator_free(ctx->allocator, stack);
  grt_allocator_free(ctx->allocator, reach);
  GRT_RETURN_IF_ERROR(status);
  // Every edge into the loop enters at the header; every edge out of it
  // leaves from the header, to one block.
  cfg->loop_exit[h] = GRTC_CFG_EXIT;
  for (uint32_t b = 0; b < cfg->count; ++b) {
    const grtc_operation_t* term = cfg->blocks[b]->last;
    bool inside = grtc_cfg_has(set, b);
    for (uint32_t s = 0; term && s < term->successor_count; ++s) {
      uint32_t t = grtc_cfg_index(cfg, term->successors[s].block);
      if (t == GRTC_CFG_EXIT) continue;
      if (!inside && t != h && grtc_cfg_has(set, t) && cfg->visit[b] == 2) {
        return grtc_import_error(ctx, term, "'%.*s' enters the loop at '%.*s' other than at "
                                 "its header '%.*s' (only structured loops are supported)",
                                 GRT_SV_ARG(term->name), GRT_SV_ARG(cfg->blocks[t]->label),
                                 GRT_SV_ARG(cfg->blocks[h]->label));
      }
      if (inside && !grtc_cfg_has(set, t)) {
        if (b != h || (cfg->loop_exit[h] != GRTC_CFG_EXIT && cfg->loop_exit[h] != t)) {
          return grtc_import_error(ctx, term, "'%.*s' leaves the loop headed by '%.*s' from "
                                   "'%.*s'; a loop may be left only from its header's "
                                   "cf.cond_br", GRT_SV_ARG(term->name),
                                   GRT_SV_ARG(cfg->blocks[h]->label),
                                   GRT_SV_ARG(cfg->blocks[b]->label));
        }
        cfg->loop_exit[h] = t;
      }
    }
  }
  const grtc_operation_t* term = cfg->blocks[h]->last;
  if (!term || !grtc_operation_is(term, "cf.cond_br") || cfg->loop_exit[h] == GRTC_CFG_EXIT) {
    return grtc_import_error(ctx, term ? term : cfg->func, "the loop headed by '%.*s' must end "
                             "its header in a cf.cond_br to the loop and out of it",
                             GRT_SV_ARG(cfg->blocks[h]->label));
  }
  return grt_ok_status();
}

// Block |b|'s successors as the post-dominance walk in context |c| (the loop
// header whose back edges are exits, or GRTC_CFG_EXIT) sees them: an inner
// loop's header goes to its exit, a branch to |c| and a return to the exit.
static uint32_t grtc_cfg_successors(const grtc_cfg_t* cfg, uint32_t c, uint32_t b,
                                    uint32_t out[2]) {
  if (b != c && cfg->header[b]) {
    out[0] = cfg->loop_exit[b];
    return 1;
  }
  const grtc_operation_t* term = cfg->blocks[b]->last;
  if (!term || !grtc_cfg_is_branch(term)) {
    out[0] = GRTC_CFG_EXIT;
    return 1;
  }
  uint32_t n = 0;
  for (uint32_t s = 0; s < term->successor_count && s < 2; ++s) {
    uint32_t t = grtc_cfg_index(cfg, term->successors[s].block);
    out[n++] = t == c ? GRTC_CFG_EXIT : t;
  }
  return n;
}

// The block that immediately post-dominates |b| in context |c| (or
// GRTC_CFG_EXIT).
static grt_status_t grtc_cfg_ipdom(grtc_import_t* ctx, const grtc_cfg_t* cfg, uint32_t c,
                                   uint32_t b, uint32_t* out) {
  uint32_t n = cfg->count, words = cfg->words;
  uint64_t* pdom = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(ctx->allocator, (size_t)n * words * sizeof(*pdom),
                                           (void**)&pdom));
  memset(pdom, 0xff, (size_t)n * words * sizeof(*pdom));
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t i = n; i-- > 0;) {
      uint32_t succ[2];
      uint32_t count = grtc_cfg_successors(cfg, c, i, succ);
      uint64_t* set = pdom + (size_t)i * words;
      for (uint32_t w = 0; w < words; ++w) {
        uint64_t value = ~UINT64_C(0);
        for (uint32_t k = 0; k < count; ++k) {
          value &= succ[k] == GRTC_CFG_EXIT ? 0 : pdom[(size_t)succ[k] * words + w];
        }
        if (w == i / 64) value |= UINT64_C(1) << (i % 64);
        if (value != set[w]) {
          set[w] = value;
          changed = true;
        }
      }
    }
  }
  // The closest post-dominator has the largest set of its own.
  *out = GRTC_CFG_EXIT;
  uint32_t best = 0;
  const uint64_t* mine = pdom + (size_t)b * words;
  for (uint32_t d = 0; d < n; ++d) {
    if (d == b || !grtc_cfg_has(mine, d)) continue;
    uint32_t size = 0;
    for (uint32_t w = 0; w < words; ++w) {
      size += (uint32_t)__builtin_popcountll(pdom[(size_t)d * words + w]);
    }
    if (size > best) {
      best = size;
      *out = d;
    }
  }
  grt_allocator_free(ctx->allocator, pdom);
  return grt_ok_status();
}

// Maps block |target|'s arguments to the values |successor| passes.
static grt_status_t grtc_cfg_pass(grtc_import_t* ctx, const grtc_operation_t* term,
                                  const grtc_successor_t* successor) {
  const grtc_block_t* target = successor->block;
  if (successor->operand_count != target->arg_count || target->arg_count > 64) {
    return grtc_import_error(ctx, term, "'%.*s' passes %u values to '%.*s', which takes %u",
                             GRT_SV_ARG(term->name), successor->operand_count,
                             GRT_SV_ARG(target->label), target->arg_count);
  }
  grtc_tvalue_t* values[64];
  for (uint32_t i = 0; i < successor->operand_count; ++i) {
    values[i] = grtc_import_lookup(ctx, successor->operands[i]);
    grtc_ttype_t type;
    GRT_RETURN_IF_ERROR(grtc_import_type(ctx, term, target->args[i].type, &type));
    if (!values[i] || !grtc_ttype_equal(&type, &values[i]->type)) {
      char a[GRTC_TTYPE_FORMAT_CAPACITY], b[GRTC_TTYPE_FORMAT_CAPACITY];
      return grtc_import_error(ctx, term, "'%.*s' passes %s as argument %u of '%.*s', which "
                               "is %s", GRT_SV_ARG(term->name),
                               values[i] ? grtc_ttype_format(&values[i]->type, a, sizeof(a))
                                         : "a value with no imported form",
                               i, GRT_SV_ARG(target->label),
                               grtc_ttype_format(&type, b, sizeof(b)));
    }
  }
  for (uint32_t i = 0; i < successor->operand_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &target->args[i], values[i]));
  }
  return grt_ok_status();
}

// Imports block |b|'s ops except its terminator into |into|.
static grt_status_t grtc_cfg_import_ops(grtc_import_t* ctx, const grtc_block_t* block,
                                        grtc_tblock_t* into) {
  for (const grtc_operation_t* op = block->first; op && op != block->last; op = op->next) {
    GRT_RETURN_IF_ERROR(grtc_import_op(ctx, op, into));
  }
  return grt_ok_status();
}

// The i1 rank-0 predicate of cf.cond_br |term|.
static grt_status_t grtc_cfg_predicate(grtc_import_t* ctx, const grtc_operation_t* term,
                                       grtc_tvalue_t** out) {
  *out = term->operand_count == 1 ? grtc_import_lookup(ctx, term->operands[0]) : NULL;
  if (!*out || (*out)->type.rank != 0 || (*out)->type.elem != GRTC_ELEM_I1 ||
      term->successor_count != 2) {
    return grtc_import_error(ctx, term, "'cf.cond_br' takes an i1 condition and two targets");
  }
  return grt_ok_status();
}

static grt_status_t grtc_cfg_walk(grtc_import_t* ctx, grtc_cfg_t* cfg, uint32_t c,
                                  uint32_t b, uint32_t stop, grtc_tblock_t* into,
                                  grtc_cfg_exit_t* out);

// |exit|'s values as the YIELD ending |block|.
static grt_status_t grtc_cfg_yield(grtc_import_t* ctx, const grtc_cfg_exit_t* exit,
                                   grtc_tblock_t* block) {
  grtc_top_t* top = NULL;
  return grtc_import_new_op(ctx, exit->op, GRTC_TOP_YIELD, exit->values, exit->count, NULL, 0,
                            0, block, &top);
}

// Whether |op| (its regions, and the functions it calls, up to 16 deep: a
// deeper chain counts as effects) stores to a global or checks: what a loop
// header must not do, since its ops are computed more than once.
static bool grtc_cfg_has_effects(const grtc_import_t* ctx, const grtc_operation_t* op,
                                 uint32_t depth) {
  if (grtc_import_is_global_store(op) ||
      grt_string_view_starts_with(op->name, grt_make_cstring_view("check.")) ||
      grtc_operation_is(op, "stablehlo.custom_call")) {
    return true;
  }
  if (grtc_operation_is(op, "func.call")) {
    const grtc_attribute_t* callee = grtc_operation_attribute(op, "callee");
    uint32_t index = 0;
    if (depth >= 16 || !callee || callee->kind != GRTC_ATTR_SYMBOL_REF ||
        callee->symbol.count != 1 ||
        !grt_name_index_find(&ctx->func_index, callee->symbol.names[0], &index)) {
      return true;
    }
    op = ctx->funcs[index];
    ++depth;
  }
  for (uint32_t r = 0; r < op->region_count; ++r) {
    for (const grtc_block_t* b = op->regions[r]->first; b; b = b->next) {
      for (const grtc_operation_t* inner = b->first; inner; inner = inner->next) {
        if (grtc_cfg_has_effects(ctx, inner, depth)) return true;
      }
    }
  }
  return false;
}

// The loop headed by |h| (its arguments mapped to the values entering it)
// as a while in |into|; then |h|'s arguments are the while's results and
// its ops are imported once more, for the exit edge's values.
static grt_status_t grtc_cfg_emit_loop(grtc_import_t* ctx, grtc_cfg_t* cfg, uint32_t h,
                                       grtc_tblock_t* into, uint32_t* out_next) {
  const grtc_block_t* header = cfg->blocks[h];
  const grtc_operation_t* term = header->last;
  for (const grtc_operation_t* op = header->first; op != term; op = op->next) {
    if (grtc_cfg_has_effects(ctx, op, 0)) {
      return grtc_import_error(ctx, op, "'%.*s' in the loop header '%.*s' stores to a global "
                               "or checks (a header's ops run more than once per iteration: "
                               "move it to the loop body)",
                               GRT_SV_ARG(op->name), GRT_SV_ARG(header->label));
    }
  }
  uint32_t n = header->arg_count;
  if (n > 64) return grtc_import_error(ctx, term, "a loop carrying %u values", n);
  grtc_tvalue_t* init[64];
  grtc_ttype_t types[64];
  for (uint32_t i = 0; i < n; ++i) {
    init[i] = grtc_import_lookup(ctx, &header->args[i]);
    if (!init[i]) return grtc_import_error(ctx, term, "loop argument %u has no value", i);
    types[i] = init[i]->type;
  }
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, term, "loop-carried values", types, n));
  bool inside_true = grtc_cfg_has(cfg->in_loop + (size_t)h * cfg->words,
                                  grtc_cfg_index(cfg, term->successors[0].block)) ||
                     term->successors[0].block == header;
  const grtc_successor_t* stay = &term->successors[inside_true ? 0 : 1];
  const grtc_successor_t* leave = &term->successors[inside_true ? 1 : 0];
  grtc_top_t* loop = NULL;
  GRT_RETURN_IF_ERROR(
      grtc_import_new_op(ctx, term, GRTC_TOP_WHILE, init, n, types, n, 2, into, &loop));
  grtc_tblock_t* regions[2];
  for (uint32_t r = 0; r < 2; ++r) {
    GRT_RETURN_IF_ERROR(grtc_tblock_create(ctx->module, types, n, &regions[r]));
    grtc_top_set_region(loop, r, regions[r]);
    for (uint32_t i = 0; i < n; ++i) {
      GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &header->args[i], &regions[r]->args[i]));
    }
    GRT_RETURN_IF_ERROR(grtc_cfg_import_ops(ctx, header, regions[r]));
    if (r == 0) {
      grtc_tvalue_t* p = NULL;
      GRT_RETURN_IF_ERROR(grtc_cfg_predicate(ctx, term, &p));
      if (!inside_true) {
        grtc_top_t* not_op = NULL;
        GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, term, GRTC_TOP_NOT, &p, 1, &p->type, 1, 0,
                                               regions[0], &not_op));
        p = &not_op->results[0];
      }
      grtc_top_t* top = NULL;
      GRT_RETURN_IF_ERROR(
          grtc_import_new_op(ctx, term, GRTC_TOP_YIELD, &p, 1, NULL, 0, 0, regions[0], &top));
    }
  }
  // The body: the in-loop target's arguments, then its blocks up to the
  // back edge, whose values are yielded.
  GRT_RETURN_IF_ERROR(grtc_cfg_pass(ctx, term, stay));
  grtc_cfg_exit_t exit;
  if (stay->block == header) {
    exit.op = term;
    exit.count = n;
    for (uint32_t i = 0; i < n; ++i) exit.values[i] = grtc_import_lookup(ctx, &header->args[i]);
  } else {
    GRT_RETURN_IF_ERROR(grtc_cfg_walk(ctx, cfg, h, grtc_cfg_index(cfg, stay->block),
                                      GRTC_CFG_EXIT, regions[1], &exit));
  }
  GRT_RETURN_IF_ERROR(grtc_cfg_yield(ctx, &exit, regions[1]));
  for (uint32_t i = 0; i < n; ++i) {
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &header->args[i], &loop->results[i]));
  }
  GRT_RETURN_IF_ERROR(grtc_cfg_import_ops(ctx, header, into));
  GRT_RETURN_IF_ERROR(grtc_cfg_pass(ctx, term, leave));
  *out_next = grtc_cfg_index(cfg, leave->block);
  return grt_ok_status();
}

// cf.cond_br |term| ending block |b| as an if whose branches run to |join|
// (its post-dominator in context |c|); the if's results are |join|'s
// arguments, or the exit's values when |join| is GRTC_CFG_EXIT.
static grt_status_t grtc_cfg_emit_if(grtc_import_t* ctx, grtc_cfg_t* cfg, uint32_t c,
                                     const grtc_operation_t* term, uint32_t join,
                                     grtc_tblock_t* into, grtc_cfg_exit_t* out_exit) {
  grtc_tvalue_t* p = NULL;
  GRT_RETURN_IF_ERROR(grtc_cfg_predicate(ctx, term, &p));
  grtc_cfg_exit_t exits[2];
  grtc_tblock_t* regions[2];
  for (uint32_t r = 0; r < 2; ++r) {
    GRT_RETURN_IF_ERROR(grtc_tblock_create(ctx->module, NULL, 0, &regions[r]));
    const grtc_successor_t* successor = &term->successors[r];
    uint32_t target = grtc_cfg_index(cfg, successor->block);
    if (target == c) target = GRTC_CFG_EXIT;
    if (target == join) {
      exits[r].op = term;
      exits[r].count = successor->operand_count;
      for (uint32_t i = 0; i < successor->operand_count && i < 64; ++i) {
        exits[r].values[i] = grtc_import_lookup(ctx, successor->operands[i]);
      }
      continue;
    }
    GRT_RETURN_IF_ERROR(grtc_cfg_pass(ctx, term, successor));
    // The branch's ops go into a detached region; the if is placed after.
    GRT_RETURN_IF_ERROR(grtc_cfg_walk(ctx, cfg, c, target, join, regions[r], &exits[r]));
  }
  if (exits[0].count != exits[1].count) {
    return grtc_import_error(ctx, term, "the two branches of this 'cf.cond_br' meet with %u "
                             "and %u values", exits[0].count, exits[1].count);
  }
  grtc_ttype_t types[64];
  for (uint32_t i = 0; i < exits[0].count; ++i) {
    if (!exits[0].values[i] || !exits[1].values[i] ||
        !grtc_ttype_equal(&exits[0].values[i]->type, &exits[1].values[i]->type)) {
      return grtc_import_error(ctx, term, "the two branches of this 'cf.cond_br' meet with "
                               "different types for value %u", i);
    }
    types[i] = exits[0].values[i]->type;
  }
  GRT_RETURN_IF_ERROR(grtc_import_static(ctx, term, "values meeting after a branch", types,
                                         exits[0].count));
  grtc_top_t* top = NULL;
  GRT_RETURN_IF_ERROR(grtc_import_new_op(ctx, term, GRTC_TOP_IF, &p, 1, types, exits[0].count,
                                         2, into, &top));
  for (uint32_t r = 0; r < 2; ++r) {
    grtc_top_set_region(top, r, regions[r]);
    GRT_RETURN_IF_ERROR(grtc_cfg_yield(ctx, &exits[r], regions[r]));
  }
  out_exit->op = term;
  out_exit->count = exits[0].count;
  for (uint32_t i = 0; i < exits[0].count; ++i) out_exit->values[i] = &top->results[i];
  return grt_ok_status();
}

// Imports from block |b| (its arguments mapped) until control reaches
// |stop| (a block, or GRTC_CFG_EXIT: a return, or in loop context |c| a
// back edge to |c|); *out holds the values passed there.
static grt_status_t grtc_cfg_walk(grtc_import_t* ctx, grtc_cfg_t* cfg, uint32_t c,
                                  uint32_t b, uint32_t stop, grtc_tblock_t* into,
                                  grtc_cfg_exit_t* out) {
  for (;;) {
    if (b == GRTC_CFG_EXIT) {
      return grtc_import_error(ctx, cfg->func, "a branch targets a block of another region");
    }
    if (b != c && cfg->header[b]) {
      const grtc_block_t* header = cfg->blocks[b];
      GRT_RETURN_IF_ERROR(grtc_cfg_emit_loop(ctx, cfg, b, into, &b));
      if (b == stop) {
        // The loop exits to the join: its arguments are the values passed.
        const grtc_block_t* join = cfg->blocks[b];
        out->op = header->last;
        out->count = join->arg_count;
        for (uint32_t i = 0; i < join->arg_count && i < 64; ++i) {
          out->values[i] = grtc_import_lookup(ctx, &join->args[i]);
        }
        return grt_ok_status();
      }
      continue;
    }
    const grtc_block_t* block = cfg->blocks[b];
    const grtc_operation_t* term = block->last;
    if (!term) return grtc_import_error(ctx, cfg->func, "block '%.*s' is empty",
                                        GRT_SV_ARG(block->label));
    GRT_RETURN_IF_ERROR(grtc_cfg_import_ops(ctx, block, into));
    if (grtc_operation_is(term, "func.return")) {
      if (stop != GRTC_CFG_EXIT || c != GRTC_CFG_EXIT || term->operand_count > 64) {
        return grtc_import_error(ctx, term, "'func.return' inside a branch that rejoins or a "
                                 "loop (only structured control flow is supported)");
      }
      out->op = term;
      out->count = term->operand_count;
      for (uint32_t i = 0; i < term->operand_count; ++i) {
        out->values[i] = grtc_import_lookup(ctx, term->operands[i]);
        if (!out->values[i]) {
          return grtc_import_error(ctx, term, "operand %u has no imported value", i);
        }
      }
      return grt_ok_status();
    }
    if (grtc_operation_is(term, "cf.br")) {
      const grtc_successor_t* successor = &term->successors[0];
      uint32_t t = grtc_cfg_index(cfg, successor->block);
      if (t == c) t = GRTC_CFG_EXIT;
      if (t == stop) {
        out->op = term;
        out->count = successor->operand_count;
        for (uint32_t i = 0; i < successor->operand_count && i < 64; ++i) {
          out->values[i] = grtc_import_lookup(ctx, successor->operands[i]);
        }
        return grt_ok_status();
      }
      if (t == GRTC_CFG_EXIT) {
        return grtc_import_error(ctx, term, "'cf.br' back to the loop header inside a branch "
                                 "that rejoins (only structured control flow is supported)");
      }
      GRT_RETURN_IF_ERROR(grtc_cfg_pass(ctx, term, successor));
      b = t;
      continue;
    }
    if (!grtc_operation_is(term, "cf.cond_br")) {
      char label[80];
      snprintf(label, sizeof(label), block->label.size ? "block '%.*s'" : "the entry block",
               GRT_SV_ARG(block->label));
      return grtc_import_error(ctx, term, "%s ends in '%.*s'; expected cf.br, cf.cond_br or "
                               "func.return", label, GRT_SV_ARG(term->name));
    }
    uint32_t join = GRTC_CFG_EXIT;
    GRT_RETURN_IF_ERROR(grtc_cfg_ipdom(ctx, cfg, c, b, &join));
    grtc_cfg_exit_t exit;
    GRT_RETURN_IF_ERROR(grtc_cfg_emit_if(ctx, cfg, c, term, join, into, &exit));
    if (join == stop) {
      *out = exit;
      return grt_ok_status();
    }
    if (join == GRTC_CFG_EXIT) {
      return grtc_import_error(ctx, term, "the branches of this 'cf.cond_br' do not meet "
                               "before the region ends (only structured control flow is "
                               "supported)");
    }
    const grtc_block_t* target = cfg->blocks[join];
    if (target->arg_count != exit.count) {
      return grtc_import_error(ctx, term, "'%.*s' takes %u values, the branches pass %u",
                               GRT_SV_ARG(target->label), target->arg_count, exit.count);
    }
    for (uint32_t i = 0; i < exit.count; ++i) {
      GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &target->args[i], exit.values[i]));
    }
    b = join;
  }
}

// A function of several blocks into |func|'s body.
static grt_status_t grtc_import_cfg(grtc_import_t* ctx, const grtc_operation_t* op,
                                    const grtc_region_t* region, grtc_tfunc_t* func) {
  grtc_cfg_t cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.func = op;
  cfg.count = region->block_count;
  if (cfg.count > GRTC_CFG_MAX_BLOCKS) {
    return grtc_import_error(ctx, op, "a function of %u blocks (at most %u are supported)",
                             cfg.count, GRTC_CFG_MAX_BLOCKS);
  }
  cfg.words = (cfg.count + 63) / 64;
  size_t n = cfg.count;
  grt_status_t status =
      grt_allocator_calloc(ctx->allocator, n * sizeof(*cfg.blocks), (void**)&cfg.blocks);
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(ctx->allocator, n * cfg.words * sizeof(*cfg.in_loop),
                                  (void**)&cfg.in_loop);
  }
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(ctx->allocator, n * sizeof(*cfg.header), (void**)&cfg.header);
  }
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(ctx->allocator, n * sizeof(*cfg.loop_exit),
                                  (void**)&cfg.loop_exit);
  }
  if (grt_status_is_ok(status)) {
    status = grt_allocator_calloc(ctx->allocator, n * sizeof(*cfg.visit), (void**)&cfg.visit);
  }
  if (grt_status_is_ok(status)) {
    uint32_t i = 0;
    for (const grtc_block_t* b = region->first; b; b = b->next) cfg.blocks[i++] = b;
    grtc_cfg_dfs(&cfg, 0);
    for (uint32_t h = 0; h < cfg.count && grt_status_is_ok(status); ++h) {
      if (cfg.header[h]) status = grtc_cfg_loop(ctx, &cfg, h);
    }
  }
  if (grt_status_is_ok(status)) {
    for (uint32_t i = 0; i < region->first->arg_count && grt_status_is_ok(status); ++i) {
      status = grtc_import_map(ctx, &region->first->args[i], &func->body->args[i]);
    }
  }
  grtc_cfg_exit_t exit;
  if (grt_status_is_ok(status)) {
    status = grtc_cfg_walk(ctx, &cfg, GRTC_CFG_EXIT, 0, GRTC_CFG_EXIT, func->body, &exit);
  }
  if (grt_status_is_ok(status)) {
    grtc_top_t* top = NULL;
    status = grtc_import_new_op(ctx, exit.op, GRTC_TOP_RETURN, exit.values, exit.count, NULL, 0,
                                0, func->body, &top);
  }
  grt_allocator_free(ctx->allocator, (void*)cfg.blocks);
  grt_allocator_free(ctx->allocator, cfg.in_loop);
  grt_allocator_free(ctx->allocator, cfg.header);
  grt_allocator_free(ctx->allocator, cfg.loop_exit);
  grt_allocator_free(ctx->allocator, cfg.visit);
  return status;
}

// A function with packed boundary values (grtc_import_declare): its body
// starts by unpacking each packed argument into its one-per-byte holders,
// which the source's argument stands for, and packs each packed result
// before the return.
static grt_status_t grtc_import_packed_body(grtc_import_t* ctx, const grtc_operation_t* op,
                                            grtc_tfunc_t* func) {
  const grtc_region_t* region = op->regions[0];
  if (region->block_count != 1) {
    return grtc_import_error(ctx, op, "function '@%.*s' has packed i2/i4/ui2/ui4 arguments "
                             "or results and several blocks; that is not supported",
                             GRT_SV_ARG(func->name));
  }
  grtc_import_chlo_place_t place = {ctx, op};
  grtc_chlo_builder_t builder = {ctx->module, func->body, grtc_import_chlo_place, &place};
  const grtc_block_t* source = region->first;
  for (uint32_t i = 0; i < source->arg_count; ++i) {
    grtc_tvalue_t* value = &func->body->args[i];
    const grtc_tpacked_t* p = &func->packed_args[i];
    if (p->bits) {
      GRT_RETURN_IF_ERROR(grtc_import_at(
          ctx, op, grtc_chlo_unpack_boundary(&builder, value, p->bits, &p->type, &value)));
    }
    GRT_RETURN_IF_ERROR(grtc_import_map(ctx, &source->args[i], value));
  }
  for (const grtc_operation_t* inner = source->first; inner; inner = inner->next) {
    GRT_RETURN_IF_ERROR(grtc_import_op(ctx, inner, func->body));
  }
  grtc_top_t* ret = func->body->last;
  if (!ret || ret->kind != GRTC_TOP_RETURN || ret->operand_count != func->result_count) {
    return grtc_import_error(ctx, op, "function '@%.*s' does not end in a return of its %u "
                             "results", GRT_SV_ARG(func->name), func->result_count);
  }
  grtc_top_unlink(ret);
  grt_status_t status = grt_ok_status();
  for (uint32_t r = 0; r < func->result_count && grt_status_is_ok(status); ++r) {
    const grtc_tpacked_t* p = &func->packed_results[r];
    if (!p->bits) continue;
    grtc_tvalue_t* packed = NULL;
    status = grtc_import_at(ctx, op, grtc_chlo_pack_boundary(&builder, ret->operands[r],
                                                             p->bits, &packed));
    if (grt_status_is_ok(status)) ret->operands[r] = packed;
  }
  grtc_tblock_append(func->body, ret);
  return status;
}

static grt_status_t grtc_import_body(grtc_import_t* ctx, const grtc_operation_t* op) {
  const grtc_attribute_t* name = grtc_operation_attribute(op, "sym_name");
  grtc_tfunc_t* func = grtc_tmodule_find_func(ctx->module, name->string);
  const grtc_region_t* region = op->regions[0];
  ctx->func = func;
  if (func->packed_args) return grtc_import_packed_body(ctx, op, func);
  if (region->block_count != 1) return grtc_import_cfg(ctx, op, region, func);
  return grtc_import_block(ctx, region->first, func->body);
}

// The block holding the functions: the top level, or the body of the one
// builtin.module there. Other top-level ops are errors.
static grt_status_t grtc_import_find_body(grtc_import_t* ctx, const grtc_module_t* module,
                                          const grtc_block_t** out_block,
                                          grt_string_view_t* out_name) {
  *out_block = module->body;
  *out_name = grt_make_cstring_view("module");
  for (const grtc_operation_t* op = module->body->first; op; op = op->next) {
    if (!grtc_operation_is(op, "builtin.module")) continue;
    if (op != module->body->first || op->next) {
      return grtc_import_error(ctx, op, "a module must be the only top-level "
                               "operation");
    }
    if (op->region_count != 1 || op->regions[0]->block_count != 1) {
      return grtc_import_error(ctx, op, "a module must have one body block");
    }
    const grtc_attribute_t* name = grtc_operation_attribute(op, "sym_name");
    if (name && name->kind == GRTC_ATTR_STRING) *out_name = name->string;
    *out_block = op->regions[0]->first;
  }
  return grt_ok_status();
}

bool grtc_stablehlo_is_input(const grtc_module_t* module) {
  if (!module || !module->body) return false;
  bool has_func = false;
  for (const grtc_operation_t* op = module->body->first; op; op = op->next) {
    if (grtc_operation_is(op, "vm.module")) return false;
    if (grtc_operation_is(op, "func.func")) has_func = true;
    if (grtc_operation_is(op, "builtin.module") && op->region_count == 1) {
      for (const grtc_block_t* b = op->regions[0]->first; b; b = b->next) {
        for (const grtc_operation_t* inner = b->first; inner; inner = inner->next) {
          if (grtc_operation_is(inner, "vm.module")) return false;
          if (grtc_operation_is(inner, "func.func")) has_func = true;
        }
      }
    }
  }
  return has_func;
}

// Whether the func.func |op| is a program of an interpreter.run_parallel
// (imported only into its processes).
static bool grtc_import_runs_in_parallel(const grtc_block_t* body, const grtc_operation_t* op) {
  const grtc_attribute_t* sym = grtc_operation_attribute(op, "sym_name");
  return sym && sym->kind == GRTC_ATTR_STRING &&
         grtc_import_is_parallel_program(body, sym->string);
}

static grt_status_t grtc_import_module(grtc_import_t* ctx, const grtc_block_t* body) {
  for (const grtc_operation_t* op = body->first; op; op = op->next) {
    const grtc_attribute_t* sym = grtc_operation_attribute(op, "sym_name");
    uint32_t first = 0;
    if (grtc_import_is_global(op)) {
      GRT_RETURN_IF_ERROR(grtc_import_declare_global(ctx, op));
    } else if (grtc_operation_is(op, "func.func")) {
      if (sym && sym->kind == GRTC_ATTR_STRING &&
          !grt_name_index_find(&ctx->func_index, sym->string, &first)) {
        GRT_RETURN_IF_ERROR(grtc_import_index_op(ctx, op, sym->string, &ctx->funcs,
                                                 &ctx->func_count, &ctx->func_index));
      }
    } else {
      return grtc_import_error(ctx, op, "'%.*s' is not supported at module level "
                               "(expected func.func, util.global or ml_program.global)",
                               GRT_SV_ARG(op->name));
    }
  }
  GRT_RETURN_IF_ERROR(grtc_import_mutable_globals(ctx, body));
  for (const grtc_operation_t* op = body->first; op; op = op->next) {
    if (grtc_operation_is(op, "func.func") && !grtc_import_runs_in_parallel(body, op)) {
      GRT_RETURN_IF_ERROR(grtc_import_declare(ctx, op));
    }
  }
  for (const grtc_operation_t* op = body->first; op; op = op->next) {
    if (grtc_operation_is(op, "func.func") && !grtc_import_runs_in_parallel(body, op)) {
      GRT_RETURN_IF_ERROR(grtc_import_body(ctx, op));
    }
  }
  for (grtc_tfunc_t* func = ctx->module->first_func; func; func = func->next) {
    grtc_tfunc_recount_uses(func);
  }
  return grt_ok_status();
}

grt_status_t grtc_stablehlo_import(const grtc_module_t* module,
                                   grt_allocator_t allocator,
                                   grtc_tmodule_t** out_module) {
  *out_module = NULL;
  grtc_import_t ctx;
  memset(&ctx, 0, sizeof(ctx));
  ctx.source = module;
  ctx.allocator = allocator;
  const grtc_block_t* body = NULL;
  grt_string_view_t name;
  GRT_RETURN_IF_ERROR(grtc_import_find_body(&ctx, module, &body, &name));
  char name_buffer[256];
  snprintf(name_buffer, sizeof(name_buffer), "%.*s", GRT_SV_ARG(name));
  GRT_RETURN_IF_ERROR(grtc_tmodule_create(name_buffer, module->file_name, allocator,
                                          &ctx.module));
  grt_name_index_initialize(allocator, &ctx.global_index);
  grt_name_index_initialize(allocator, &ctx.func_index);
  grt_status_t status = grtc_import_module(&ctx, body);
  grt_name_index_deinitialize(&ctx.global_index);
  grt_name_index_deinitialize(&ctx.func_index);
  grt_allocator_free(allocator, (void*)ctx.funcs);
  grt_allocator_free(allocator, ctx.values.slots);
  grt_allocator_free(allocator, ctx.locations.slots);
  grt_allocator_free(allocator, ctx.addresses.slots);
  grt_allocator_free(allocator, ctx.tuples.slots);
  grt_allocator_free(allocator, ctx.complex_values.slots);
  grt_allocator_free(allocator, (void*)ctx.globals);
  if (!grt_status_is_ok(status)) {
    grtc_tmodule_destroy(ctx.module);
    return status;
  }
  *out_module = ctx.module;
  return grt_ok_status();
}

// Generic IR: what every MLIR text input parses into.
//
// Operations hold SSA operands, typed results, an attribute dictionary,
// optional properties, successors and regions of blocks, plus a source
// location kept for diagnostics and debug info. Types and attributes are
// structured where later passes need to look inside (integers, floats,
// shaped types, the vm dialect's ref/buffer/list, dense literals decoded to
// little-endian bytes) and kept as their source text otherwise (other
// dialects' types and attributes). Everything lives in the module's arena
// and is freed with it.
#ifndef GRT_COMPILER_MLIR_IR_H_
#define GRT_COMPILER_MLIR_IR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "base/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_type_t grtc_type_t;
typedef struct grtc_attribute_t grtc_attribute_t;
typedef struct grtc_location_t grtc_location_t;
typedef struct grtc_value_t grtc_value_t;
typedef struct grtc_block_t grtc_block_t;
typedef struct grtc_region_t grtc_region_t;
typedef struct grtc_operation_t grtc_operation_t;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

typedef enum grtc_type_kind_e {
  GRTC_TYPE_INTEGER,    // iN, siN, uiN
  GRTC_TYPE_INDEX,
  GRTC_TYPE_FLOAT,      // f16, bf16, f32, f64
  GRTC_TYPE_NONE,
  GRTC_TYPE_COMPLEX,    // complex<element>
  GRTC_TYPE_TENSOR,     // tensor<4x?xf32, #encoding>, tensor<*xf32>
  GRTC_TYPE_VECTOR,     // vector<4xf32>
  GRTC_TYPE_TUPLE,      // tuple<a, b>
  GRTC_TYPE_FUNCTION,   // (a, b) -> c
  GRTC_TYPE_VM_REF,     // !vm.ref<?>, !vm.ref<!hal.buffer>
  GRTC_TYPE_VM_BUFFER,  // !vm.buffer
  GRTC_TYPE_VM_LIST,    // !vm.list<i32>, !vm.list<?>
  GRTC_TYPE_OPAQUE,     // any other !dialect.type, kept as text
} grtc_type_kind_t;

typedef enum grtc_signedness_e {
  GRTC_SIGNLESS,
  GRTC_SIGNED,
  GRTC_UNSIGNED,
} grtc_signedness_t;

// How a float type spends its top exponent and its sign (the 8-bit floats
// of StableHLO, after LLVM's APFloat and ml_dtypes):
//   IEEE: the all-ones exponent holds +-infinity (mantissa 0) and NaNs;
//   FN:   no infinities; only S.1111...1 (every exponent and mantissa bit
//         set) is NaN, so the all-ones exponent also holds numbers;
//   FNUZ: no infinities and no negative zero; 0x80 (sign bit alone) is the
//         one NaN, and every other pattern is a number;
//   FINITE: every pattern is a number (the OCP MX 6- and 4-bit floats: no
//         infinities, no NaN; -0 exists);
//   E8M0: no sign, no mantissa, no zero: pattern e is 2^(e - bias), and the
//         all-ones pattern is the one NaN (f8E8M0FNU, the MX scale).
typedef enum grtc_float_flavor_e {
  GRTC_FLOAT_IEEE,
  GRTC_FLOAT_FN,
  GRTC_FLOAT_FNUZ,
  GRTC_FLOAT_FINITE,
  GRTC_FLOAT_E8M0,
} grtc_float_flavor_t;

// X(NAME, spelling, exponent bits, mantissa bits, byte size, exponent bias,
//   flavor). The 8-bit floats (and the 6- and 4-bit ones, in the low bits)
// are held one byte per element (their bit pattern); docs/module-format.md and docs/compiler.md ("Types").
#define GRTC_FLOAT_KIND_LIST(X)                                   \
  X(F16, "f16", 5, 10, 2, 15, GRTC_FLOAT_IEEE)                    \
  X(BF16, "bf16", 8, 7, 2, 127, GRTC_FLOAT_IEEE)                  \
  X(F32, "f32", 8, 23, 4, 127, GRTC_FLOAT_IEEE)                   \
  X(F64, "f64", 11, 52, 8, 1023, GRTC_FLOAT_IEEE)                 \
  X(F8E5M2, "f8E5M2", 5, 2, 1, 15, GRTC_FLOAT_IEEE)               \
  X(F8E4M3, "f8E4M3", 4, 3, 1, 7, GRTC_FLOAT_IEEE)                \
  X(F8E3M4, "f8E3M4", 3, 4, 1, 3, GRTC_FLOAT_IEEE)                \
  X(F8E4M3FN, "f8E4M3FN", 4, 3, 1, 7, GRTC_FLOAT_FN)              \
  X(F8E4M3FNUZ, "f8E4M3FNUZ", 4, 3, 1, 8, GRTC_FLOAT_FNUZ)        \
  X(F8E5M2FNUZ, "f8E5M2FNUZ", 5, 2, 1, 16, GRTC_FLOAT_FNUZ)       \
  X(F8E4M3B11FNUZ, "f8E4M3B11FNUZ", 4, 3, 1, 11, GRTC_FLOAT_FNUZ)   \
  X(F8E8M0FNU, "f8E8M0FNU", 8, 0, 1, 127, GRTC_FLOAT_E8M0)         \
  X(F6E2M3FN, "f6E2M3FN", 2, 3, 1, 1, GRTC_FLOAT_FINITE)           \
  X(F6E3M2FN, "f6E3M2FN", 3, 2, 1, 3, GRTC_FLOAT_FINITE)           \
  X(F4E2M1FN, "f4E2M1FN", 2, 1, 1, 1, GRTC_FLOAT_FINITE)

typedef enum grtc_float_kind_e {
#define GRTC_FLOAT_KIND_ENUM(name, spelling, e, m, size, bias, flavor) GRTC_FLOAT_##name,
  GRTC_FLOAT_KIND_LIST(GRTC_FLOAT_KIND_ENUM)
#undef GRTC_FLOAT_KIND_ENUM
  GRTC_FLOAT_KIND_COUNT
} grtc_float_kind_t;

// A '?' dimension.
#define GRTC_DYNAMIC_DIM INT64_MIN

struct grtc_type_t {
  grtc_type_kind_t kind;
  union {
    struct {
      uint32_t width;
      grtc_signedness_t signedness;
    } integer;
    grtc_float_kind_t float_kind;
    struct {
      bool ranked;
      uint32_t rank;
      const int64_t* dims;  // GRTC_DYNAMIC_DIM for '?'
      const grtc_type_t* element;
      const grtc_attribute_t* encoding;  // NULL when absent
    } shaped;
    struct {
      uint32_t input_count;   // tuple: the element count
      uint32_t result_count;  // tuple: 0
      const grtc_type_t* const* types;  // inputs, then results
    } function;
    // complex: the element; vm.ref and vm.list: the element, NULL for '?'.
    const grtc_type_t* element;
    grt_string_view_t opaque;  // the full spelling, e.g. "!hal.buffer"
  };
};

bool grtc_type_equal(const grtc_type_t* a, const grtc_type_t* b);
bool grtc_type_is_integer(const grtc_type_t* type, uint32_t width);
bool grtc_type_is_float(const grtc_type_t* type, grtc_float_kind_t kind);
// vm.ref, vm.buffer, vm.list and opaque dialect types live in ref registers.
bool grtc_type_is_ref(const grtc_type_t* type);
// Bytes one element of |type| takes in a dense literal (i1 takes one byte);
// 0 for types that cannot be dense elements.
size_t grtc_type_element_byte_size(const grtc_type_t* type);
// Element count of a statically shaped type; false when dynamic/unranked or
// the count overflows.
bool grtc_type_element_count(const grtc_type_t* type, uint64_t* out_count);
const char* grtc_float_kind_spelling(grtc_float_kind_t kind);
// Quantized element types (`!quant.uniform<i8:f32, ...>`, kept as opaque
// text) hold integers of their storage type: a storage spelling (i2..i32,
// si*, u*, ui*) is decoded by grtc_quant_storage_word, and
// grtc_type_dense_element gives the integer type a dense literal of
// |element| is written in (i2/i4 in i8, signed or unsigned as the storage
// type), or |element| itself when it is not quantized; |scratch| holds the
// integer type it returns.
bool grtc_quant_storage_word(grt_string_view_t word, uint32_t* out_bits,
                             bool* out_signed);
const grtc_type_t* grtc_type_dense_element(const grtc_type_t* element,
                                           grtc_type_t* scratch);

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

typedef enum grtc_attribute_kind_e {
  GRTC_ATTR_UNIT,
  GRTC_ATTR_BOOL,
  GRTC_ATTR_INTEGER,         // 42 : i32 (type defaults to i64)
  GRTC_ATTR_FLOAT,           // 1.5 : f32 (type defaults to f64)
  GRTC_ATTR_STRING,
  GRTC_ATTR_TYPE,            // a type used as an attribute
  GRTC_ATTR_ARRAY,           // [a, b]
  GRTC_ATTR_DICTIONARY,      // {a = 1, b}
  GRTC_ATTR_SYMBOL_REF,      // @a::@b
  GRTC_ATTR_DENSE_ELEMENTS,  // dense<...> : tensor<...>
  GRTC_ATTR_DENSE_ARRAY,     // array<i64: 1, 2>
  GRTC_ATTR_OPAQUE,          // #dialect<...>, kept as text
} grtc_attribute_kind_t;

typedef struct grtc_named_attribute_t {
  grt_string_view_t name;
  const grtc_attribute_t* value;
} grtc_named_attribute_t;

struct grtc_attribute_t {
  grtc_attribute_kind_t kind;
  // INTEGER/FLOAT/STRING(optional): the value type; TYPE: the type itself;
  // DENSE_ELEMENTS: the shaped type; DENSE_ARRAY: the element type.
  const grtc_type_t* type;
  union {
    bool boolean;
    // Sign-extended from the type's width (zero-extended for uiN).
    int64_t integer;
    double floating;
    grt_string_view_t string;  // decoded, NUL-terminated
    struct {
      uint32_t count;
      const grtc_attribute_t* const* items;
    } array;
    struct {
      uint32_t count;
      const grtc_named_attribute_t* entries;
    } dictionary;
    struct {
      uint32_t count;  // the root symbol, then each nested reference
      const grt_string_view_t* names;  // without '@', decoded
    } symbol;
    // Raw little-endian element bytes. A splat holds one element.
    struct {
      const uint8_t* data;
      size_t size;
      bool splat;
    } dense;
    grt_string_view_t opaque;  // full spelling, e.g. "#stablehlo<...>"
  };
};

bool grtc_attribute_equal(const grtc_attribute_t* a, const grtc_attribute_t* b);
// Dictionary lookup; NULL when absent or |dictionary| is not a dictionary.
const grtc_attribute_t* grtc_dictionary_get(const grtc_attribute_t* dictionary,
                                            const char* name);

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

typedef enum grtc_location_kind_e {
  GRTC_LOC_UNKNOWN,   // loc(unknown)
  GRTC_LOC_FILE,      // loc("file":line:col)
  GRTC_LOC_NAME,      // loc("name") or loc("name"(child))
  GRTC_LOC_FUSED,     // loc(fused<metadata>[a, b])
  GRTC_LOC_CALLSITE,  // loc(callsite(callee at caller))
  GRTC_LOC_ALIAS,     // loc(#loc3), resolved once the whole file is read
} grtc_location_kind_t;

struct grtc_location_t {
  grtc_location_kind_t kind;
  grt_string_view_t text;  // FILE: file name; NAME: the name; ALIAS: "#loc3"
  uint32_t line;
  uint32_t column;
  uint32_t child_count;  // NAME: 0 or 1; FUSED: n; CALLSITE: 2 (callee, caller)
  const grtc_location_t* const* children;
  const grtc_attribute_t* metadata;  // FUSED: optional
  const grtc_location_t* resolved;   // ALIAS: the definition
};

// The most specific file position |location| names, looking through
// aliases, names, fused locations (first with a file) and call sites (the
// callee). False when there is none.
bool grtc_location_file_position(const grtc_location_t* location,
                                 grt_string_view_t* out_file,
                                 uint32_t* out_line, uint32_t* out_column);

//===----------------------------------------------------------------------===//
// Operations, blocks, regions
//===----------------------------------------------------------------------===//

struct grtc_value_t {
  const grtc_type_t* type;
  grtc_operation_t* defining_op;  // NULL for block arguments
  grtc_block_t* owner_block;      // block arguments: their block
  uint32_t index;                 // result or argument index
  grt_string_view_t name;         // as written, e.g. "%arg0" (may be empty)
  const grtc_location_t* location;  // block arguments only (may be NULL)
};

typedef struct grtc_successor_t {
  grtc_block_t* block;
  uint32_t operand_count;
  grtc_value_t* const* operands;
} grtc_successor_t;

struct grtc_operation_t {
  grt_string_view_t name;  // "dialect.op"
  const grtc_location_t* location;
  uint32_t operand_count;
  grtc_value_t* const* operands;
  uint32_t result_count;
  grtc_value_t* results;
  uint32_t attribute_count;
  const grtc_named_attribute_t* attributes;
  const grtc_attribute_t* properties;  // a dictionary, or NULL
  uint32_t successor_count;
  const grtc_successor_t* successors;
  uint32_t region_count;
  grtc_region_t* const* regions;
  grtc_block_t* parent;
  grtc_operation_t* next;
  // Where the op's name was written, for diagnostics from later stages.
  uint32_t line;
  uint32_t column;
};

struct grtc_block_t {
  grt_string_view_t label;  // "^bb1"; empty for an unlabeled entry block
  uint32_t arg_count;
  grtc_value_t* args;
  grtc_operation_t* first;
  grtc_operation_t* last;
  grtc_region_t* parent;
  grtc_block_t* next;
};

struct grtc_region_t {
  grtc_block_t* first;
  grtc_block_t* last;
  uint32_t block_count;
  grtc_operation_t* parent;
};

// The attribute named |name| from the op's dictionary, else from its
// properties; NULL when absent.
const grtc_attribute_t* grtc_operation_attribute(const grtc_operation_t* op,
                                                 const char* name);
bool grtc_operation_is(const grtc_operation_t* op, const char* name);

// A parsed source: top-level operations in |body| and the arena owning all.
typedef struct grtc_module_t {
  grt_arena_t arena;
  const char* file_name;  // arena copy
  grt_string_view_t source;  // arena copy of the text
  grtc_block_t* body;
} grtc_module_t;

void grtc_module_destroy(grtc_module_t* module);

// A diagnostic from a stage after parsing, in the parser's shape:
// "file:line:col: error: <message>" (INVALID_ARGUMENT).
grt_status_t grtc_error_at(const char* file_name, uint32_t line,
                           uint32_t column, const char* format, ...)
    GRT_PRINTF_LIKE(4, 5) GRT_MUST_USE;
// The same at the place |op|'s name was written.
grt_status_t grtc_op_error(const char* file_name, const grtc_operation_t* op,
                           const char* format, ...)
    GRT_PRINTF_LIKE(3, 4) GRT_MUST_USE;

//===----------------------------------------------------------------------===//
// Floating-point encoding shared by the parser, printer and code generators
//===----------------------------------------------------------------------===//

// Rounds |value| to nearest-even in |kind| and returns its bit pattern
// (overflow gives infinity, or NaN in a type without infinities; NaN gives
// the type's quiet NaN, with |value|'s sign where the type has one). The
// FINITE types saturate: overflow and infinities give the largest number
// of the value's sign, NaN gives +0. E8M0 rounds a positive value to the
// nearest power of two (a tie, 1.5 * 2^k, up: its one significand bit is
// odd, as in LLVM's APFloat), values below 2^-127 to 2^-127 (it has no
// zero), and gives NaN for zero, negatives, infinities, NaN and values
// rounding past 2^127.
uint64_t grtc_float_encode(double value, grtc_float_kind_t kind);
double grtc_float_decode(uint64_t bits, grtc_float_kind_t kind);
// The layout of |kind| (the columns of GRTC_FLOAT_KIND_LIST).
typedef struct grtc_float_layout_t {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  grtc_float_flavor_t flavor;
} grtc_float_layout_t;
grtc_float_layout_t grtc_float_kind_layout(grtc_float_kind_t kind);
// The bits of |kind|'s pattern (sign, exponent and mantissa: 8, 6 or 4 for
// the small floats) and where its sign bit is (-1 for E8M0, unsigned).
int grtc_float_kind_bits(grtc_float_kind_t kind);
int grtc_float_kind_sign_bit(grtc_float_kind_t kind);
// Whether |kind| is one of the 8-bit floats, or the 6- or 4-bit ones
// (held as their byte).
bool grtc_float_kind_is_f8(grtc_float_kind_t kind);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_MLIR_IR_H_

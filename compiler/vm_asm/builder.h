// A typed builder for vm-dialect programs: creates, in memory, the vm.module
// that grtc_vm_assemble lowers, without going through text.
//
// The ops it makes are exactly the generic IR (compiler/mlir/ir.h) that the
// vm syntax (vm_syntax.h) parses from the same program written as text:
// the same op names, attributes, types, successors and block arguments. So
// a built module assembles as it is, prints (vm_printer.h) as text that
// parses back to the same IR, and assembles from either to the same bytes.
//
// Use:
//   grtc_vm_builder_t* b;  grtc_vm_builder_create("m", "m.mlir", alloc, &b);
//   grtc_operation_t* load = grtc_vm_builder_import(b, "hal.buffer.load", ...);
//   grtc_block_t* entry;
//   grtc_operation_t* f = grtc_vm_builder_func(b, "f", false, args, 2, res, 1, &entry);
//   grtc_vm_builder_set_insertion_end(b, entry);
//   grtc_value_t* sum = grtc_vm_binary(b, GRTC_VM_ADD, &entry->args[0], ...);
//   grtc_vm_return(b, &sum, 1);
//   grtc_vm_builder_export(b, f, NULL);
//   GRT_RETURN_IF_ERROR(grtc_vm_builder_status(b));
//   grtc_vm_assemble(grtc_vm_builder_vm_module(b), ...);
//
// Two insertion points: module-level ops (imports, functions, globals,
// rodata, exports, the initializer) go to the module insertion point (the
// end of the vm.module's body unless moved), every other op to the op
// insertion point (a block, before one of its ops or at its end).
//
// Every op carries the builder's current location, loc("file":line:col);
// it starts as loc("<file_name>":0:0) (code no source op stands for) and is
// set per source op. So every op has a file position, and the assembler
// never falls back to where text was written.
//
// Errors are sticky, like grt_string_builder_t: a constructor that fails
// (out of memory, or a misuse such as a call whose arguments do not match
// the callee's declared types) records the first error, returns NULL and
// makes every later constructor return NULL. Check grtc_vm_builder_status
// once when done. Misuse errors are INTERNAL: "call of @hal.buffer.load:
// argument 1 is i32, the import takes i64".
//
// Symbol-naming ops take the symbol's name (functions may be called before
// they are defined); ops on globals and imports take the declaring op, so
// their types come from the declaration.
#ifndef GRT_COMPILER_VM_ASM_BUILDER_H_
#define GRT_COMPILER_VM_ASM_BUILDER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "compiler/mlir/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_vm_builder_t grtc_vm_builder_t;

// Creates a module holding `vm.module @<module_name>`. |file_name| names
// the default location.
grt_status_t grtc_vm_builder_create(const char* module_name,
                                    const char* file_name,
                                    grt_allocator_t allocator,
                                    grtc_vm_builder_t** out_builder)
    GRT_MUST_USE;
// Frees the builder and, unless taken, its module.
void grtc_vm_builder_destroy(grtc_vm_builder_t* builder);

// The first error, else OK.
grt_status_t grtc_vm_builder_status(const grtc_vm_builder_t* builder)
    GRT_MUST_USE;
// The module being built (owned by the builder) and its vm.module op.
const grtc_module_t* grtc_vm_builder_module(const grtc_vm_builder_t* builder);
grtc_operation_t* grtc_vm_builder_vm_module(const grtc_vm_builder_t* builder);
// Hands the module to the caller (free it with grtc_module_destroy); the
// builder must not be used afterwards except to be destroyed.
grtc_module_t* grtc_vm_builder_take_module(grtc_vm_builder_t* builder);

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

const grtc_type_t* grtc_vm_type_i32(grtc_vm_builder_t* builder);
const grtc_type_t* grtc_vm_type_i64(grtc_vm_builder_t* builder);
const grtc_type_t* grtc_vm_type_f32(grtc_vm_builder_t* builder);
const grtc_type_t* grtc_vm_type_f64(grtc_vm_builder_t* builder);
// A ref type by its spelling: "!vm.buffer", "!vm.ref<?>", or any dialect
// type such as "!hal.buffer" (kept as its spelling, as the parser does).
// Interned: the same spelling gives the same pointer.
const grtc_type_t* grtc_vm_type_ref(grtc_vm_builder_t* builder,
                                    const char* spelling);
// tuple<a, b, ...>: the element type of a span of tuples.
const grtc_type_t* grtc_vm_type_tuple(grtc_vm_builder_t* builder,
                                      const grtc_type_t* const* elements,
                                      uint32_t count);

//===----------------------------------------------------------------------===//
// Locations and insertion points
//===----------------------------------------------------------------------===//

// Sets the location later ops carry: loc("file":line:col).
void grtc_vm_builder_set_location(grtc_vm_builder_t* builder,
                                  grt_string_view_t file, uint32_t line,
                                  uint32_t column);
// Back to the default location, loc("<file_name>":0:0).
void grtc_vm_builder_clear_location(grtc_vm_builder_t* builder);
const grtc_location_t* grtc_vm_builder_location(
    const grtc_vm_builder_t* builder);

// Where the next op goes: before |before| in |block|, or at its end when
// |before| is NULL.
typedef struct grtc_vm_insertion_t {
  grtc_block_t* block;
  grtc_operation_t* before;
} grtc_vm_insertion_t;

grtc_vm_insertion_t grtc_vm_builder_insertion(const grtc_vm_builder_t* builder);
void grtc_vm_builder_set_insertion(grtc_vm_builder_t* builder,
                                   grtc_vm_insertion_t insertion);
void grtc_vm_builder_set_insertion_end(grtc_vm_builder_t* builder,
                                       grtc_block_t* block);
// Module-level ops go before |before| (an op of the vm.module's body), or
// at the end of the body when it is NULL.
void grtc_vm_builder_set_module_insertion(grtc_vm_builder_t* builder,
                                          grtc_operation_t* before);

// Gives |value| a name the printer uses when it is free in the function
// ("device" prints as %device); NULL |value| is ignored (a failed build).
void grtc_vm_builder_name(grtc_vm_builder_t* builder, grtc_value_t* value,
                          const char* format, ...) GRT_PRINTF_LIKE(3, 4);

//===----------------------------------------------------------------------===//
// Module-level ops
//===----------------------------------------------------------------------===//

// vm.import private @name(types) -> results. |variadic| (NULL: none) marks
// the arguments that are spans (`t ...`).
grtc_operation_t* grtc_vm_builder_import(
    grtc_vm_builder_t* builder, const char* name,
    const grtc_type_t* const* arg_types, const bool* variadic,
    uint32_t arg_count, const grtc_type_t* const* result_types,
    uint32_t result_count);

// vm.func [private] @name(%arg0 : t, ...) -> (results) with an entry block
// whose arguments are the function's; *out_entry receives the block.
grtc_operation_t* grtc_vm_builder_func(
    grtc_vm_builder_t* builder, grt_string_view_t name, bool is_private,
    const grtc_type_t* const* arg_types, uint32_t arg_count,
    const grtc_type_t* const* result_types, uint32_t result_count,
    grtc_block_t** out_entry);

// vm.export @function [as("export_name")]; NULL |export_name|: the
// function's name.
grtc_operation_t* grtc_vm_builder_export(grtc_vm_builder_t* builder,
                                         const grtc_operation_t* function,
                                         const char* export_name);

// vm.global.<i32|i64|f32|f64|ref> private [mutable] @name : type, starting
// at zero (null for refs).
grtc_operation_t* grtc_vm_builder_global(grtc_vm_builder_t* builder,
                                         grt_string_view_t name,
                                         const grtc_type_t* type,
                                         bool is_mutable);

// vm.rodata private @name {alignment = N : i64} dense<"0x..."> :
// tensor<Nxi8> (|alignment| 0: none; |size| 0 is one zero byte, as a
// dense literal cannot be empty). The bytes are copied, or with |borrow|
// referenced: they must then outlive the module (model weights need no
// second copy).
grtc_operation_t* grtc_vm_builder_rodata_bytes(grtc_vm_builder_t* builder,
                                               grt_string_view_t name,
                                               const uint8_t* data, size_t size,
                                               uint64_t alignment, bool borrow);
// vm.rodata private @name "text"
grtc_operation_t* grtc_vm_builder_rodata_string(grtc_vm_builder_t* builder,
                                                grt_string_view_t name,
                                                grt_string_view_t text);

// vm.initializer { ... }: *out_entry receives its (empty) entry block.
grtc_operation_t* grtc_vm_builder_initializer(grtc_vm_builder_t* builder,
                                              grtc_block_t** out_entry);

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

// A block with arguments of |arg_types|, not yet in any region: create
// branch targets first and place them, in layout order, with
// grtc_vm_builder_append_block.
grtc_block_t* grtc_vm_builder_block(grtc_vm_builder_t* builder,
                                    const grtc_type_t* const* arg_types,
                                    uint32_t arg_count);
// Appends |block| to the body of |function| (a vm.func or vm.initializer)
// and moves the op insertion point to its end.
void grtc_vm_builder_append_block(grtc_vm_builder_t* builder,
                                  grtc_operation_t* function,
                                  grtc_block_t* block);

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

// Any op: |name| ("vm.add.i32"), operands, result types, attributes and
// successors (all copied), at the op insertion point with the current
// location. Returns the op; its results are op->results[i].
grtc_operation_t* grtc_vm_builder_op(
    grtc_vm_builder_t* builder, const char* name,
    grtc_value_t* const* operands, uint32_t operand_count,
    const grtc_type_t* const* result_types, uint32_t result_count,
    const grtc_named_attribute_t* attributes, uint32_t attribute_count,
    const grtc_successor_t* successors, uint32_t successor_count);

// Attributes for grtc_vm_builder_op (arena-allocated; NULL after a failure).
const grtc_attribute_t* grtc_vm_attr_integer(grtc_vm_builder_t* builder,
                                             const grtc_type_t* type,
                                             int64_t value);
const grtc_attribute_t* grtc_vm_attr_float(grtc_vm_builder_t* builder,
                                           const grtc_type_t* type,
                                           double value);
const grtc_attribute_t* grtc_vm_attr_string(grtc_vm_builder_t* builder,
                                            grt_string_view_t value);
const grtc_attribute_t* grtc_vm_attr_symbol(grtc_vm_builder_t* builder,
                                            grt_string_view_t name);
const grtc_attribute_t* grtc_vm_attr_type(grtc_vm_builder_t* builder,
                                          const grtc_type_t* type);
const grtc_attribute_t* grtc_vm_attr_unit(grtc_vm_builder_t* builder);

// Constants: vm.const.i32 / .i64 / .f32 / .f64 <value>, and the .zero
// forms (also vm.const.ref.zero for a ref |type|: a null ref).
grtc_value_t* grtc_vm_const_i32(grtc_vm_builder_t* builder, int32_t value);
grtc_value_t* grtc_vm_const_i64(grtc_vm_builder_t* builder, int64_t value);
grtc_value_t* grtc_vm_const_f32(grtc_vm_builder_t* builder, float value);
grtc_value_t* grtc_vm_const_f64(grtc_vm_builder_t* builder, double value);
grtc_value_t* grtc_vm_const_zero(grtc_vm_builder_t* builder,
                                 const grtc_type_t* type);
// vm.const.ref.rodata @name : !vm.buffer
grtc_value_t* grtc_vm_const_rodata(grtc_vm_builder_t* builder,
                                   grt_string_view_t name);

// Integer arithmetic on two i32 or two i64 values (vm.<op>.i32[.s|.u]).
typedef enum grtc_vm_binary_e {
  GRTC_VM_ADD,
  GRTC_VM_SUB,
  GRTC_VM_MUL,
  GRTC_VM_DIV_S,
  GRTC_VM_DIV_U,
  GRTC_VM_REM_S,
  GRTC_VM_REM_U,
  GRTC_VM_MIN_S,
  GRTC_VM_MIN_U,
  GRTC_VM_MAX_S,
  GRTC_VM_MAX_U,
  GRTC_VM_AND,
  GRTC_VM_OR,
  GRTC_VM_XOR,
} grtc_vm_binary_t;
grtc_value_t* grtc_vm_binary(grtc_vm_builder_t* builder, grtc_vm_binary_t op,
                             grtc_value_t* lhs, grtc_value_t* rhs);

// Integer comparisons of two i32 or two i64 values; the result is an i32
// 0 or 1 (vm.cmp.<op>.i32[.s|.u]).
typedef enum grtc_vm_compare_e {
  GRTC_VM_CMP_EQ,
  GRTC_VM_CMP_NE,
  GRTC_VM_CMP_LT_S,
  GRTC_VM_CMP_LT_U,
  GRTC_VM_CMP_LTE_S,
  GRTC_VM_CMP_LTE_U,
  GRTC_VM_CMP_GT_S,
  GRTC_VM_CMP_GT_U,
  GRTC_VM_CMP_GTE_S,
  GRTC_VM_CMP_GTE_U,
} grtc_vm_compare_t;
grtc_value_t* grtc_vm_compare(grtc_vm_builder_t* builder, grtc_vm_compare_t op,
                              grtc_value_t* lhs, grtc_value_t* rhs);
// vm.cmp.nz.<i32|i64|ref>: 1 when |value| is non-zero (non-null).
grtc_value_t* grtc_vm_cmp_nz(grtc_vm_builder_t* builder, grtc_value_t* value);
// vm.select.<t> %condition, %if_true, %if_false (i32 |condition|).
grtc_value_t* grtc_vm_select(grtc_vm_builder_t* builder,
                             grtc_value_t* condition, grtc_value_t* if_true,
                             grtc_value_t* if_false);
// vm.ext.i32.i64.s/.u and vm.trunc.i64.i32.
grtc_value_t* grtc_vm_ext_i32_i64(grtc_vm_builder_t* builder,
                                  grtc_value_t* value, bool is_signed);
grtc_value_t* grtc_vm_trunc_i64_i32(grtc_vm_builder_t* builder,
                                    grtc_value_t* value);

// vm.global.load.<t> @global : t and vm.global.store.<t> %value, @global.
grtc_value_t* grtc_vm_global_load(grtc_vm_builder_t* builder,
                                  const grtc_operation_t* global);
grtc_operation_t* grtc_vm_global_store(grtc_vm_builder_t* builder,
                                       grtc_value_t* value,
                                       const grtc_operation_t* global);

// One argument of a call: a value, or a span (`[...]`) for a variadic
// argument: |count| items, each one value or, for a span of tuples, that
// many values in a row (|values| holds count * tuple size values).
typedef struct grtc_vm_arg_t {
  bool is_span;
  grtc_value_t* value;
  grtc_value_t* const* values;
  uint32_t count;
} grtc_vm_arg_t;

static inline grtc_vm_arg_t grtc_vm_arg(grtc_value_t* value) {
  grtc_vm_arg_t arg = {false, value, NULL, 0};
  return arg;
}
static inline grtc_vm_arg_t grtc_vm_span(grtc_value_t* const* values,
                                         uint32_t count) {
  grtc_vm_arg_t arg = {true, NULL, values, count};
  return arg;
}

// Calls |import| (from grtc_vm_builder_import): vm.call, or
// vm.call.variadic when the import has variadic arguments. The arguments
// are checked against the import's types. Returns the call op.
grtc_operation_t* grtc_vm_call_import(grtc_vm_builder_t* builder,
                                      const grtc_operation_t* import,
                                      const grtc_vm_arg_t* args,
                                      uint32_t arg_count);
// vm.call @name(args) : (argument types) -> (result types): a function of
// this module, possibly defined later.
grtc_operation_t* grtc_vm_call(grtc_vm_builder_t* builder,
                               grt_string_view_t name,
                               grtc_value_t* const* args, uint32_t arg_count,
                               const grtc_type_t* const* result_types,
                               uint32_t result_count);

// Control flow. Block arguments are passed as |args|.
grtc_operation_t* grtc_vm_br(grtc_vm_builder_t* builder, grtc_block_t* target,
                             grtc_value_t* const* args, uint32_t arg_count);
grtc_operation_t* grtc_vm_cond_br(
    grtc_vm_builder_t* builder, grtc_value_t* condition,
    grtc_block_t* if_true, grtc_value_t* const* true_args,
    uint32_t true_arg_count, grtc_block_t* if_false,
    grtc_value_t* const* false_args, uint32_t false_arg_count);
// vm.br_table %index { default: ..., 0: cases[0], 1: cases[1], ... }
grtc_operation_t* grtc_vm_br_table(grtc_vm_builder_t* builder,
                                   grtc_value_t* index,
                                   const grtc_successor_t* default_target,
                                   const grtc_successor_t* cases,
                                   uint32_t case_count);
grtc_operation_t* grtc_vm_return(grtc_vm_builder_t* builder,
                                 grtc_value_t* const* values, uint32_t count);

// vm.check.eq / vm.check.ne %lhs, %rhs, "message" and vm.check.nz %value,
// "message": fail the call with |message| unless the check holds.
typedef enum grtc_vm_check_e {
  GRTC_VM_CHECK_EQ,
  GRTC_VM_CHECK_NE,
} grtc_vm_check_t;
grtc_operation_t* grtc_vm_check(grtc_vm_builder_t* builder, grtc_vm_check_t op,
                                grtc_value_t* lhs, grtc_value_t* rhs,
                                const char* message);
grtc_operation_t* grtc_vm_check_nz(grtc_vm_builder_t* builder,
                                   grtc_value_t* value, const char* message);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_VM_ASM_BUILDER_H_

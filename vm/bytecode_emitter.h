// Bytecode emitter: builds a module's bytecode blob one op at a time.
//
// The text assembler (compiler/) and tests use it. The emitter checks each
// op's operands against the op table's encoding string (kinds, register
// types, i64/f64 pair alignment) so a front-end gets an error at the op it
// got wrong rather than a verifier failure at load; everything that needs
// the whole module (callee signatures, global sizes, register counts) is
// left to the verifier.
//
// Usage:
//   grt_vm_bytecode_emitter_create(allocator, &e);
//   grt_vm_bytecode_emitter_begin_function(e);
//   grt_vm_bytecode_emitter_create_label(e, &entry);
//   grt_vm_bytecode_emitter_place_label(e, entry);   // block marker
//   grt_vm_bytecode_emitter_emit(e, GRT_VM_OP_ADD_I32, operands, 3);
//   ...
//   grt_vm_bytecode_emitter_end_function(e, i32_slots, ref_count, &index);
//   grt_vm_bytecode_emitter_finish(e, &bytecode);
//   for each function: grt_vm_bytecode_emitter_function(e, i) gives the
//   offset/length/register counts for grt_module_writer_add_function.
#ifndef GRT_VM_BYTECODE_EMITTER_H_
#define GRT_VM_BYTECODE_EMITTER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "base/string_view.h"
#include "vm/op_table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grt_vm_bytecode_emitter_t grt_vm_bytecode_emitter_t;

// A block label inside the current function; valid until end_function.
typedef uint32_t grt_vm_label_t;

// A register operand. |ordinal| is the primitive slot (i64/f64: the even
// first slot of the pair) or the ref register. |move| is only meaningful for
// ref operands (last use).
typedef struct grt_vm_register_t {
  grt_vm_type_t type;
  uint16_t ordinal;
  bool move;
} grt_vm_register_t;

// One block-argument copy performed when a branch is taken.
typedef struct grt_vm_remap_t {
  grt_vm_register_t source;  // source.move allowed for refs
  uint16_t destination;      // same type as source
} grt_vm_remap_t;

typedef struct grt_vm_branch_t {
  grt_vm_label_t label;
  const grt_vm_remap_t* remaps;
  uint16_t remap_count;
} grt_vm_branch_t;

typedef enum grt_vm_operand_kind_e {
  GRT_VM_OPERAND_REGISTER,       // i I f F r
  GRT_VM_OPERAND_IMMEDIATE,      // k K
  GRT_VM_OPERAND_ORDINAL,        // g d G R C M (C: set GRT_VM_CALLEE_IMPORT_BIT
                                 // for imports)
  GRT_VM_OPERAND_BRANCH,         // B
  GRT_VM_OPERAND_BRANCH_TABLE,   // T
  GRT_VM_OPERAND_REGISTER_LIST,  // L? A Y W X
  GRT_VM_OPERAND_SPAN_COUNTS,    // V
  GRT_VM_OPERAND_STRING,         // S
} grt_vm_operand_kind_t;

typedef struct grt_vm_operand_t {
  grt_vm_operand_kind_t kind;
  union {
    grt_vm_register_t reg;
    uint64_t immediate;  // k: low 32 bits (f32 bits / i32); K: all 64
    uint32_t ordinal;
    grt_vm_branch_t branch;
    struct {
      const grt_vm_branch_t* targets;
      uint16_t count;
    } table;
    struct {
      const grt_vm_register_t* registers;
      uint16_t count;
    } list;
    struct {
      const uint16_t* values;
      uint16_t count;
    } spans;
    grt_string_view_t string;  // at most 65535 bytes
  };
} grt_vm_operand_t;

// Operand constructors, so call sites read like the op they emit.
static inline grt_vm_operand_t grt_vm_operand_reg(grt_vm_type_t type,
                                                  uint16_t ordinal) {
  grt_vm_operand_t o;
  o.kind = GRT_VM_OPERAND_REGISTER;
  o.reg.type = type;
  o.reg.ordinal = ordinal;
  o.reg.move = false;
  return o;
}
static inline grt_vm_operand_t grt_vm_operand_ref_move(uint16_t ordinal) {
  grt_vm_operand_t o = grt_vm_operand_reg(GRT_VM_TYPE_REF, ordinal);
  o.reg.move = true;
  return o;
}
static inline grt_vm_operand_t grt_vm_operand_imm(uint64_t value) {
  grt_vm_operand_t o;
  o.kind = GRT_VM_OPERAND_IMMEDIATE;
  o.immediate = value;
  return o;
}
static inline grt_vm_operand_t grt_vm_operand_ordinal(uint32_t ordinal) {
  grt_vm_operand_t o;
  o.kind = GRT_VM_OPERAND_ORDINAL;
  o.ordinal = ordinal;
  return o;
}
static inline grt_vm_operand_t grt_vm_operand_branch(
    grt_vm_label_t label, const grt_vm_remap_t* remaps, uint16_t remap_count) {
  grt_vm_operand_t o;
  o.kind = GRT_VM_OPERAND_BRANCH;
  o.branch.label = label;
  o.branch.remaps = remaps;
  o.branch.remap_count = remap_count;
  return o;
}
static inline grt_vm_operand_t grt_vm_operand_table(
    const grt_vm_branch_t* targets, uint16_t count) {
  grt_vm_operand_t o;
  o.kind = GRT_VM_OPERAND_BRANCH_TABLE;
  o.table.targets = targets;
  o.table.count = count;
  return o;
}
static inline grt_vm_operand_t grt_vm_operand_list(
    const grt_vm_register_t* registers, uint16_t count) {
  grt_vm_operand_t o;
  o.kind = GRT_VM_OPERAND_REGISTER_LIST;
  o.list.registers = registers;
  o.list.count = count;
  return o;
}
static inline grt_vm_operand_t grt_vm_operand_spans(const uint16_t* values,
                                                    uint16_t count) {
  grt_vm_operand_t o;
  o.kind = GRT_VM_OPERAND_SPAN_COUNTS;
  o.spans.values = values;
  o.spans.count = count;
  return o;
}
static inline grt_vm_operand_t grt_vm_operand_string(grt_string_view_t s) {
  grt_vm_operand_t o;
  o.kind = GRT_VM_OPERAND_STRING;
  o.string = s;
  return o;
}

// Where one function's code landed in the blob.
typedef struct grt_vm_bytecode_function_t {
  uint32_t bytecode_offset;
  uint32_t bytecode_length;
  uint32_t i32_register_count;  // primitive slots
  uint32_t ref_register_count;
} grt_vm_bytecode_function_t;

// A source location attached to a bytecode offset (relative to the
// function's first byte), for grt_module_writer_add_debug_location.
typedef struct grt_vm_bytecode_location_t {
  uint32_t function_index;
  uint32_t bytecode_offset;
  grt_string_view_t location;  // owned by the emitter
} grt_vm_bytecode_location_t;

grt_status_t grt_vm_bytecode_emitter_create(
    grt_allocator_t allocator, grt_vm_bytecode_emitter_t** out_emitter)
    GRT_MUST_USE;
void grt_vm_bytecode_emitter_destroy(grt_vm_bytecode_emitter_t* emitter);

// Starts the next function; functions are numbered in begin order from 0.
grt_status_t grt_vm_bytecode_emitter_begin_function(
    grt_vm_bytecode_emitter_t* emitter) GRT_MUST_USE;

// Resolves the function's branch fixups. Fails if a label was used but
// never placed. Register counts are given here because a front-end usually
// knows them only after allocating registers for the whole body.
grt_status_t grt_vm_bytecode_emitter_end_function(
    grt_vm_bytecode_emitter_t* emitter, uint32_t i32_register_count,
    uint32_t ref_register_count, uint32_t* out_function_index) GRT_MUST_USE;

grt_status_t grt_vm_bytecode_emitter_create_label(
    grt_vm_bytecode_emitter_t* emitter, grt_vm_label_t* out_label)
    GRT_MUST_USE;
// Emits a block marker here and binds |label| to it. A label is placed once.
grt_status_t grt_vm_bytecode_emitter_place_label(
    grt_vm_bytecode_emitter_t* emitter, grt_vm_label_t label) GRT_MUST_USE;

// Emits |op| with |operands| in the order of its encoding string (results
// after the operands). Errors name the op, the operand position and what
// the encoding expected.
grt_status_t grt_vm_bytecode_emitter_emit(grt_vm_bytecode_emitter_t* emitter,
                                          grt_vm_op_t op,
                                          const grt_vm_operand_t* operands,
                                          size_t operand_count) GRT_MUST_USE;

// Offset of the next op relative to the current function's first byte.
uint32_t grt_vm_bytecode_emitter_offset(
    const grt_vm_bytecode_emitter_t* emitter);

// Attaches |location| ("file.mlir:12:5", copied) to the next op emitted in
// the current function.
grt_status_t grt_vm_bytecode_emitter_set_location(
    grt_vm_bytecode_emitter_t* emitter, grt_string_view_t location)
    GRT_MUST_USE;

// Ends emission; fails if a function is still open. The blob stays owned by
// the emitter and valid until destroy.
grt_status_t grt_vm_bytecode_emitter_finish(
    grt_vm_bytecode_emitter_t* emitter, grt_const_byte_span_t* out_bytecode)
    GRT_MUST_USE;

uint32_t grt_vm_bytecode_emitter_function_count(
    const grt_vm_bytecode_emitter_t* emitter);
grt_vm_bytecode_function_t grt_vm_bytecode_emitter_function(
    const grt_vm_bytecode_emitter_t* emitter, uint32_t index);
uint32_t grt_vm_bytecode_emitter_location_count(
    const grt_vm_bytecode_emitter_t* emitter);
grt_vm_bytecode_location_t grt_vm_bytecode_emitter_location(
    const grt_vm_bytecode_emitter_t* emitter, uint32_t index);

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_BYTECODE_EMITTER_H_

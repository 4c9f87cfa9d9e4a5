// Memory planning: where each tensor value of a function lives while the
// host program runs it (docs/architecture.md §6, "one transient arena per
// call").
//
// Every DISPATCH result (and GLOBAL_LOAD result, a copy of a mutable
// global's bytes) whose bytes stay inside one block of the function
// gets a 64-byte-aligned offset in the function's transient arena; values
// whose live ranges do not overlap share space (greedy by size, best fit).
// Live ranges are positions in a walk of the function in op order, nested
// regions numbered inside their parent op, so a value used by an op with
// regions stays live until that op ends. A value escapes the arena (and
// gets its own allocation) when it is returned, yielded, passed to a call
// or a control-flow op, or used inside a nested region: those outlive
// positions of their block or may be held by other code. RESHAPE results
// and tied DISPATCH results are views of their operand's bytes (aliases;
// a tied result over bytes the call did not produce, an argument or a
// constant, is instead a value of its own that starts as a copy).
// Everything else (arguments, block arguments, constants, call and
// control-flow results) is owned elsewhere.
//
// Symbolic shapes (docs/compiler.md "Memory planning with symbolic
// sizes"): a value's byte size is a monomial, a static factor times a
// product of symbols (class representatives of the module's shape table).
// Arena values of static size are placed as above, in [0,
// transient_bytes). Those of symbolic size each take a slot above them:
// slot k's size is slots[k], its offset transient_bytes plus the aligned
// sizes of slots 0..k-1, all evaluated at the call. A value reuses a slot
// whose occupants are dead when the slot's monomial covers its own (the
// same symbols, a static factor at least as large); otherwise it opens a
// new slot.
#ifndef GRT_COMPILER_HOST_MEMORY_PLAN_H_
#define GRT_COMPILER_HOST_MEMORY_PLAN_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "compiler/tensor/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRTC_MEMORY_PLAN_ALIGNMENT 64

// factor x symbols[0] x ... x symbols[symbol_count - 1] bytes (symbols
// ascending; a repeated symbol multiplies again). Static when
// symbol_count is 0.
typedef struct grtc_size_expr_t {
  int64_t factor;
  uint32_t symbol_count;
  uint32_t symbols[GRTC_MAX_RANK];
} grtc_size_expr_t;

// |type|'s byte size (its symbolic dims resolved to class
// representatives). False when it is too large for an int64 factor.
bool grtc_size_expr_of_type(const grtc_tmodule_t* module, const grtc_ttype_t* type,
                            grtc_size_expr_t* out_expr);
// Whether |a| >= |b| for every value of the symbols (>= 0): the same
// symbols and a factor at least as large (or |b| static 0).
bool grtc_size_expr_covers(const grtc_size_expr_t* a, const grtc_size_expr_t* b);
// "64", "4*s0", "16*s0*s2": |expr| into |buffer|; returns |buffer|.
const char* grtc_size_expr_format(const grtc_size_expr_t* expr, char* buffer, size_t capacity);
#define GRTC_SIZE_EXPR_FORMAT_CAPACITY 160

#define GRTC_MEMORY_PLAN_NO_SLOT UINT32_MAX

typedef enum grtc_storage_kind_e {
  GRTC_STORAGE_EXTERNAL,  // argument, block argument, constant, call or
                          // control-flow result: its buffer comes with it
  GRTC_STORAGE_ARENA,     // |offset| in the function's transient arena
  GRTC_STORAGE_OWN,       // a DISPATCH or GLOBAL_LOAD result with an
                          // allocation of its own
} grtc_storage_kind_t;

typedef struct grtc_value_storage_t {
  grtc_storage_kind_t kind;  // the root's kind
  // The value whose buffer holds these bytes: the value itself, or for
  // aliases (RESHAPE, tied results) the root of the chain.
  const grtc_tvalue_t* root;
  int64_t offset;  // ARENA: byte offset in the arena (static size); else 0
  int64_t size;    // the value's byte size; -1 when symbolic
  grtc_size_expr_t bytes;  // the value's byte size as an expression
  // ARENA values of symbolic size: their slot (the offset is then that of
  // the slot); else GRTC_MEMORY_PLAN_NO_SLOT.
  uint32_t slot;
} grtc_value_storage_t;

typedef struct grtc_memory_plan_t {
  grt_allocator_t allocator;
  uint32_t value_capacity;        // the module's next_value_id at planning
  grtc_value_storage_t* storage;  // indexed by grtc_tvalue_t.id
  bool* planned;                  // which ids belong to the function
  int64_t transient_bytes;        // the arena's static part (peak of live bytes)
  uint32_t arena_value_count;
  // The slots of symbolic arena values, above the static part: the arena
  // takes transient_bytes + the sum of the slots' sizes, each rounded up
  // to GRTC_MEMORY_PLAN_ALIGNMENT (at least one alignment unit).
  grtc_size_expr_t* slots;
  uint32_t slot_count;
} grtc_memory_plan_t;

// Plans |func| (its body and nested regions). Fails only when memory runs
// out or a size overflows.
grt_status_t grtc_memory_plan_build(const grtc_tmodule_t* module,
                                    const grtc_tfunc_t* func,
                                    grt_allocator_t allocator,
                                    grtc_memory_plan_t* out_plan) GRT_MUST_USE;
void grtc_memory_plan_deinit(grtc_memory_plan_t* plan);

// Where |value| lives; NULL for a value the plan does not know.
const grtc_value_storage_t* grtc_memory_plan_storage(
    const grtc_memory_plan_t* plan, const grtc_tvalue_t* value);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_HOST_MEMORY_PLAN_H_

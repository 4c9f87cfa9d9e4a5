// Memory planning: where each tensor value of a function lives while the
// host program runs it (docs/architecture.md §6, "one transient arena per
// call").
//
// Every DISPATCH result whose bytes stay inside one block of the function
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

typedef enum grtc_storage_kind_e {
  GRTC_STORAGE_EXTERNAL,  // argument, block argument, constant, call or
                          // control-flow result: its buffer comes with it
  GRTC_STORAGE_ARENA,     // |offset| in the function's transient arena
  GRTC_STORAGE_OWN,       // a DISPATCH result with an allocation of its own
} grtc_storage_kind_t;

typedef struct grtc_value_storage_t {
  grtc_storage_kind_t kind;  // the root's kind
  // The value whose buffer holds these bytes: the value itself, or for
  // aliases (RESHAPE, tied results) the root of the chain.
  const grtc_tvalue_t* root;
  int64_t offset;  // ARENA: byte offset in the arena; else 0
  int64_t size;    // the value's byte size
} grtc_value_storage_t;

typedef struct grtc_memory_plan_t {
  grt_allocator_t allocator;
  uint32_t value_capacity;        // the module's next_value_id at planning
  grtc_value_storage_t* storage;  // indexed by grtc_tvalue_t.id
  bool* planned;                  // which ids belong to the function
  int64_t transient_bytes;        // the arena's size (peak of live bytes)
  uint32_t arena_value_count;
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

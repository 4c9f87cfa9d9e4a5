// VM stack: the frames of running bytecode, kept off the C stack.
//
// Internal calls push a frame here and stay in the interpreter loop, so VM
// recursion depth is bounded by this stack's byte limit, never by the C
// stack. Frames live in chunks that never move, so register pointers stay
// valid while callees push and pop; chunks are kept for reuse after a pop.
//
// A frame holds its two register banks (primitive 32-bit slots, 8-byte
// aligned so i64/f64 pairs can be read whole, and refs) plus the bookkeeping
// the interpreter needs to return to it. Pushing zero-fills the banks; popping
// releases every ref still in the frame, so unwinding after an error leaks
// nothing.
#ifndef GRT_VM_STACK_H_
#define GRT_VM_STACK_H_

#include <stddef.h>
#include <stdint.h>

#include "base/allocator.h"
#include "base/status.h"
#include "vm/module.h"
#include "vm/ref.h"

#ifdef __cplusplus
extern "C" {
#endif

// The limit a stack gets when the caller passes 0.
#define GRT_VM_STACK_DEFAULT_LIMIT (1024u * 1024u)

typedef struct grt_vm_stack_frame_t grt_vm_stack_frame_t;
struct grt_vm_stack_frame_t {
  grt_vm_stack_frame_t* parent;
  // Who runs the frame; NULL for a scratch frame (packed call buffers),
  // which backtraces skip.
  grt_vm_module_t* module;
  uint32_t function_ordinal;
  // Offset of the op being executed (the call op while a callee runs),
  // relative to the function's first byte.
  uint32_t pc;
  uint32_t i32_count;  // primitive slots
  uint32_t ref_count;
  uint32_t* i32;       // 8-byte aligned
  grt_vm_ref_t* refs;
  size_t size;         // bytes this frame takes from the stack
};

grt_status_t grt_vm_stack_create(size_t limit_bytes, grt_allocator_t allocator,
                                 grt_vm_stack_t** out_stack) GRT_MUST_USE;
// Pops (and releases the refs of) any frames left.
void grt_vm_stack_destroy(grt_vm_stack_t* stack);

// Pushes a zeroed frame. RESOURCE_EXHAUSTED "stack overflow: frame of N
// bytes at depth D exceeds limit of L bytes" when the limit would be passed.
grt_status_t grt_vm_stack_push_frame(grt_vm_stack_t* stack,
                                     grt_vm_module_t* module,
                                     uint32_t function_ordinal,
                                     uint32_t i32_count, uint32_t ref_count,
                                     grt_vm_stack_frame_t** out_frame)
    GRT_MUST_USE;
// Releases the refs of the top frame and removes it.
void grt_vm_stack_pop_frame(grt_vm_stack_t* stack);

grt_vm_stack_frame_t* grt_vm_stack_top(const grt_vm_stack_t* stack);
size_t grt_vm_stack_depth(const grt_vm_stack_t* stack);
size_t grt_vm_stack_used_bytes(const grt_vm_stack_t* stack);
size_t grt_vm_stack_limit(const grt_vm_stack_t* stack);

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_STACK_H_

// VM stack: the frames of running bytecode, kept off the C stack.
//
// Internal calls push a frame here and stay in the interpreter loop, so VM
// recursion depth is bounded by this stack's byte limit, never by the C
// stack. Frames live in chunks that never move, so register pointers stay
// valid while callees push and pop; chunks are kept for reuse after a pop.
//
// A frame holds its two register banks (primitive 32-bit slots, 8-byte
// aligned so i64/f64 pairs can be read whole, and refs) plus the bookkeeping
// the interpreter needs to return to it. Pushing zero-fills the banks (the
// verifier does not prove every register is written before it is read, so a
// fresh frame must not show its predecessor's values); popping releases every
// ref still in the frame, so unwinding after an error leaks nothing.
//
// Calls are the interpreter's hottest path, so the common case of push and
// pop (the frame fits in the current chunk) is inline here and the structs
// are visible; only bytecode_dispatch.c and stack.c touch their fields.
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
  // The interpreter's: in a frame an internal call pushed, where the
  // caller's result register list starts (the return writes there).
  const uint8_t* return_results;
};

//===----------------------------------------------------------------------===//
// Internals for the inline fast paths
//===----------------------------------------------------------------------===//

#define GRT_VM_STACK_ALIGNMENT 16u

typedef struct grt_vm_stack_chunk_t grt_vm_stack_chunk_t;
struct grt_vm_stack_chunk_t {
  grt_vm_stack_chunk_t* prev;
  grt_vm_stack_chunk_t* next;  // kept after popping back, for reuse
  size_t capacity;
  size_t used;
  _Alignas(16) unsigned char data[];
};

struct grt_vm_stack_t {
  grt_allocator_t allocator;
  size_t limit;
  size_t used;
  size_t depth;
  grt_vm_stack_chunk_t* chunk;  // holds the top frame (or the first chunk)
  grt_vm_stack_frame_t* top;
};

static inline size_t grt_vm_stack_align(size_t n) {
  return (n + GRT_VM_STACK_ALIGNMENT - 1) &
         ~(size_t)(GRT_VM_STACK_ALIGNMENT - 1);
}

// Bytes a frame with these banks takes from the stack.
static inline size_t grt_vm_stack_frame_bytes(uint32_t i32_count,
                                              uint32_t ref_count) {
  return grt_vm_stack_align(sizeof(grt_vm_stack_frame_t)) +
         grt_vm_stack_align((size_t)i32_count * sizeof(uint32_t)) +
         grt_vm_stack_align((size_t)ref_count * sizeof(grt_vm_ref_t));
}

// Lays out and links a frame of |size| bytes at |base|: zeroes exactly the
// registers (not the alignment padding) and makes it the top.
static inline grt_vm_stack_frame_t* grt_vm_stack_link_frame(
    grt_vm_stack_t* stack, unsigned char* base, size_t size,
    grt_vm_module_t* module, uint32_t function_ordinal, uint32_t i32_count,
    uint32_t ref_count) {
  size_t header = grt_vm_stack_align(sizeof(grt_vm_stack_frame_t));
  size_t i32_bytes = grt_vm_stack_align((size_t)i32_count * sizeof(uint32_t));
  grt_vm_stack_frame_t* frame = (grt_vm_stack_frame_t*)(void*)base;
  uint32_t* i32 = (uint32_t*)(void*)(base + header);
  grt_vm_ref_t* refs = (grt_vm_ref_t*)(void*)(base + header + i32_bytes);
  for (uint32_t i = 0; i < i32_count; ++i) i32[i] = 0;
  for (uint32_t i = 0; i < ref_count; ++i) refs[i] = grt_vm_ref_null();
  frame->parent = stack->top;
  frame->module = module;
  frame->function_ordinal = function_ordinal;
  frame->pc = 0;
  frame->i32_count = i32_count;
  frame->ref_count = ref_count;
  frame->i32 = i32;
  frame->refs = refs;
  frame->size = size;
  frame->return_results = NULL;
  stack->top = frame;
  stack->used += size;
  stack->depth++;
  return frame;
}

// grt_vm_stack_push_frame's common case: NULL when the frame does not fit in
// the current chunk or under the limit, and the caller falls back to
// grt_vm_stack_push_frame (which grows the stack or reports the overflow).
static inline grt_vm_stack_frame_t* grt_vm_stack_push_frame_fast(
    grt_vm_stack_t* stack, grt_vm_module_t* module, uint32_t function_ordinal,
    uint32_t i32_count, uint32_t ref_count) {
  size_t size = grt_vm_stack_frame_bytes(i32_count, ref_count);
  grt_vm_stack_chunk_t* chunk = stack->chunk;
  if (!chunk || size > stack->limit - stack->used ||
      size > chunk->capacity - chunk->used) {
    return NULL;
  }
  unsigned char* base = chunk->data + chunk->used;
  chunk->used += size;
  return grt_vm_stack_link_frame(stack, base, size, module, function_ordinal,
                                 i32_count, ref_count);
}

// Releases the refs of the top frame and removes it.
static inline void grt_vm_stack_pop_frame_inline(grt_vm_stack_t* stack) {
  grt_vm_stack_frame_t* frame = stack->top;
  for (uint32_t i = 0; i < frame->ref_count; ++i) {
    grt_vm_ref_release(&frame->refs[i]);
  }
  stack->top = frame->parent;
  stack->used -= frame->size;
  stack->depth--;
  grt_vm_stack_chunk_t* chunk = stack->chunk;
  chunk->used -= frame->size;
  if (chunk->used == 0 && chunk->prev) stack->chunk = chunk->prev;
}

//===----------------------------------------------------------------------===//
// API
//===----------------------------------------------------------------------===//

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

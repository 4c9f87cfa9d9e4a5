// VM stack: the frames of running bytecode, kept off the C stack.
//
// Internal calls push a frame here and stay in the interpreter loop, so VM
// recursion depth is bounded by this stack's byte limit, never by the C
// stack. Frames live in chunks that never move, so register pointers stay
// valid while callees push and pop; chunks are kept for reuse after a pop.
//
// A frame holds its two register banks (primitive 32-bit slots, 16-byte
// aligned so i64/f64 pairs can be read whole, and refs) plus the bookkeeping
// the interpreter needs to return to it. Pushing nulls the refs but leaves
// the primitive bank as it was: the verifier proves that bytecode writes
// every primitive register before reading it (the "defined before use"
// rule), so old values are never seen. Popping releases every ref still in
// the frame, so unwinding after an error leaks nothing.
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

// What a frame's bookkeeping needs of the function it runs; the same for
// every frame of that function, so the interpreter keeps one per function
// and a push stores only a pointer to it.
typedef struct grt_vm_frame_info_t {
  // Who runs the frame; NULL for a scratch frame (packed call buffers),
  // which backtraces skip.
  grt_vm_module_t* module;
  uint32_t function_ordinal;
  uint32_t i32_count;  // primitive slots
  uint32_t ref_count;
  uint32_t i32_bytes;  // the primitive bank, rounded up to 16 bytes
  uint32_t size;       // bytes the frame takes from the stack
} grt_vm_frame_info_t;

// A frame: this header, then the primitive bank (16-byte aligned, so i64
// and f64 pairs can be read whole), then the ref bank, then (only for
// frames pushed with grt_vm_stack_push_frame) their own info.
typedef struct grt_vm_stack_frame_t grt_vm_stack_frame_t;
struct grt_vm_stack_frame_t {
  grt_vm_stack_frame_t* parent;
  const grt_vm_frame_info_t* info;
  // The interpreter's: in a frame an internal call pushed, where the
  // caller's result register list starts (the return writes there).
  const uint8_t* return_results;
  // Offset of the op being executed (the call op while a callee runs),
  // relative to the function's first byte. Only the interpreter's unwinder
  // sets it, from the failing pc or the callee's return point, for the
  // backtrace; 0 after the full push, unset after the fast one.
  uint32_t pc;
  uint32_t flags;  // GRT_VM_FRAME_*
};

// The frame starts a chunk after the first: popping it steps back into the
// previous chunk. (Only the full push puts a frame there: the fast path
// never crosses a chunk.)
#define GRT_VM_FRAME_FIRST_IN_CHUNK 1u
// The interpreter's: a call.yieldable pushed the frame, so its return goes
// on to the call's successor block.
#define GRT_VM_FRAME_YIELDABLE_CALL 2u

//===----------------------------------------------------------------------===//
// Internals for the inline fast paths
//===----------------------------------------------------------------------===//

#define GRT_VM_STACK_ALIGNMENT 16u

typedef struct grt_vm_stack_chunk_t grt_vm_stack_chunk_t;
struct grt_vm_stack_chunk_t {
  grt_vm_stack_chunk_t* prev;
  grt_vm_stack_chunk_t* next;  // kept after popping back, for reuse
  size_t capacity;
  // Bytes of frames in this chunk; kept up to date only for chunks below
  // the current one (the current chunk's is cursor - data).
  size_t used;
  _Alignas(16) unsigned char data[];
};

// The first three fields are all the inline push/pop read: a push that ends
// at or before fast_end fits both the current chunk and the limit, so the
// common case is one compare. Depth is not counted on the fast path
// (grt_vm_stack_depth walks the frames).
struct grt_vm_stack_t {
  unsigned char* cursor;    // next free byte of the current chunk
  unsigned char* fast_end;  // min(chunk end, where the limit is reached)
  grt_vm_stack_frame_t* top;
  grt_vm_stack_chunk_t* chunk;  // holds the top frame (or the first chunk)
  size_t chunk_base;  // bytes of frames in the chunks below the current one
  size_t limit;
  grt_allocator_t allocator;
};

static inline size_t grt_vm_stack_align(size_t n) {
  return (n + GRT_VM_STACK_ALIGNMENT - 1) &
         ~(size_t)(GRT_VM_STACK_ALIGNMENT - 1);
}

#define GRT_VM_STACK_FRAME_HEADER_BYTES \
  ((sizeof(grt_vm_stack_frame_t) + GRT_VM_STACK_ALIGNMENT - 1) & \
   ~(size_t)(GRT_VM_STACK_ALIGNMENT - 1))

// The frame's banks.
static inline uint32_t* grt_vm_stack_frame_i32(grt_vm_stack_frame_t* frame) {
  return (uint32_t*)(void*)((unsigned char*)frame +
                            GRT_VM_STACK_FRAME_HEADER_BYTES);
}
static inline grt_vm_ref_t* grt_vm_stack_frame_refs(
    grt_vm_stack_frame_t* frame) {
  return (grt_vm_ref_t*)(void*)((unsigned char*)grt_vm_stack_frame_i32(frame) +
                                frame->info->i32_bytes);
}

// Fills in the sizes of |info| from its counts.
void grt_vm_frame_info_init(grt_vm_module_t* module, uint32_t function_ordinal,
                            uint32_t i32_count, uint32_t ref_count,
                            grt_vm_frame_info_t* out_info);

// Bytes a frame with these banks takes from the stack.
static inline size_t grt_vm_stack_frame_bytes(uint32_t i32_count,
                                              uint32_t ref_count) {
  return GRT_VM_STACK_FRAME_HEADER_BYTES +
         grt_vm_stack_align((size_t)i32_count * sizeof(uint32_t)) +
         grt_vm_stack_align((size_t)ref_count * sizeof(grt_vm_ref_t));
}

// Links a frame described by |info|, whose function has no ref registers,
// at |base| on top of |parent| (the current top). The primitive bank keeps
// whatever the memory held (see the top of this file); pc and
// return_results are left for the caller to set.
static inline grt_vm_stack_frame_t* grt_vm_stack_link_frame_without_refs(
    grt_vm_stack_t* stack, unsigned char* base, grt_vm_stack_frame_t* parent,
    const grt_vm_frame_info_t* info) {
  grt_vm_stack_frame_t* frame = (grt_vm_stack_frame_t*)(void*)base;
  frame->parent = parent;
  frame->info = info;
  frame->flags = 0;
  stack->top = frame;
  return frame;
}

// As grt_vm_stack_link_frame_without_refs, for any frame: its refs are
// nulled.
static inline grt_vm_stack_frame_t* grt_vm_stack_link_frame(
    grt_vm_stack_t* stack, unsigned char* base, grt_vm_stack_frame_t* parent,
    const grt_vm_frame_info_t* info) {
  grt_vm_stack_frame_t* frame =
      grt_vm_stack_link_frame_without_refs(stack, base, parent, info);
  uint32_t ref_count = info->ref_count;
  if (ref_count) {
    grt_vm_ref_t* refs = (grt_vm_ref_t*)(void*)(
        (unsigned char*)grt_vm_stack_frame_i32(frame) + info->i32_bytes);
    for (uint32_t i = 0; i < ref_count; ++i) refs[i] = grt_vm_ref_null();
  }
  return frame;
}

// Takes |size| bytes at the top of the stack when they fit in the current
// chunk and under the limit; NULL otherwise (the full push then grows the
// stack or reports the overflow).
static inline unsigned char* grt_vm_stack_try_reserve(grt_vm_stack_t* stack,
                                                      size_t size) {
  unsigned char* base = stack->cursor;
  if ((size_t)(stack->fast_end - base) < size) return NULL;
  stack->cursor = base + size;
  return base;
}

// grt_vm_stack_push_frame_info's common case, for a frame on top of
// |parent| (which must be the current top): NULL when the frame does not
// fit in the current chunk or under the limit, and the caller falls back to
// grt_vm_stack_push_frame_info. pc and return_results are not set.
static inline grt_vm_stack_frame_t* grt_vm_stack_push_frame_fast(
    grt_vm_stack_t* stack, grt_vm_stack_frame_t* parent,
    const grt_vm_frame_info_t* info) {
  unsigned char* base = grt_vm_stack_try_reserve(stack, info->size);
  return base ? grt_vm_stack_link_frame(stack, base, parent, info) : NULL;
}

// Steps back into the previous chunk once its last frame is again the top.
void grt_vm_stack_leave_chunk(grt_vm_stack_t* stack);

// Releases the refs of the top frame, |frame| (whose info is |info| and
// whose parent is |parent|: callers that hold them save the loads), and
// removes it.
static inline void grt_vm_stack_pop_top_frame(
    grt_vm_stack_t* stack, grt_vm_stack_frame_t* frame,
    const grt_vm_frame_info_t* info, grt_vm_stack_frame_t* parent) {
  uint32_t ref_count = info->ref_count;
  if (ref_count) {
    grt_vm_ref_t* refs = (grt_vm_ref_t*)(void*)(
        (unsigned char*)grt_vm_stack_frame_i32(frame) + info->i32_bytes);
    for (uint32_t i = 0; i < ref_count; ++i) grt_vm_ref_release(&refs[i]);
  }
  stack->top = parent;
  stack->cursor = (unsigned char*)frame;
  if (frame->flags & GRT_VM_FRAME_FIRST_IN_CHUNK) {
    grt_vm_stack_leave_chunk(stack);
  }
}

// Releases the refs of the top frame and removes it.
static inline void grt_vm_stack_pop_frame_inline(grt_vm_stack_t* stack) {
  grt_vm_stack_frame_t* frame = stack->top;
  grt_vm_stack_pop_top_frame(stack, frame, frame->info, frame->parent);
}

//===----------------------------------------------------------------------===//
// API
//===----------------------------------------------------------------------===//

grt_status_t grt_vm_stack_create(size_t limit_bytes, grt_allocator_t allocator,
                                 grt_vm_stack_t** out_stack) GRT_MUST_USE;
// Pops (and releases the refs of) any frames left.
void grt_vm_stack_destroy(grt_vm_stack_t* stack);

// Pushes a frame for |info| (refs null, the primitive bank as the memory
// held it), which must outlive the frame.
// RESOURCE_EXHAUSTED "stack overflow: frame of N bytes at depth D (U bytes
// in use) exceeds limit of L bytes" when the limit would be passed.
grt_status_t grt_vm_stack_push_frame_info(grt_vm_stack_t* stack,
                                          const grt_vm_frame_info_t* info,
                                          grt_vm_stack_frame_t** out_frame)
    GRT_MUST_USE;
// As grt_vm_stack_push_frame_info, for a frame that carries its own info
// (scratch frames, tests).
grt_status_t grt_vm_stack_push_frame(grt_vm_stack_t* stack,
                                     grt_vm_module_t* module,
                                     uint32_t function_ordinal,
                                     uint32_t i32_count, uint32_t ref_count,
                                     grt_vm_stack_frame_t** out_frame)
    GRT_MUST_USE;
// Releases the refs of the top frame and removes it.
void grt_vm_stack_pop_frame(grt_vm_stack_t* stack);

grt_vm_stack_frame_t* grt_vm_stack_top(const grt_vm_stack_t* stack);
// Frames on the stack; counts them (O(depth)), for messages and tests.
size_t grt_vm_stack_depth(const grt_vm_stack_t* stack);
size_t grt_vm_stack_used_bytes(const grt_vm_stack_t* stack);
size_t grt_vm_stack_limit(const grt_vm_stack_t* stack);

#ifdef __cplusplus
}
#endif

#endif  // GRT_VM_STACK_H_

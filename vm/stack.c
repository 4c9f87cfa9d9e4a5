// VM stack: chunked frame storage with a byte limit.
#include "vm/stack.h"

// Chunks are at least this big so small frames share an allocation.
#define GRT_VM_STACK_CHUNK_SIZE (64u * 1024u)

grt_status_t grt_vm_stack_create(size_t limit_bytes, grt_allocator_t allocator,
                                 grt_vm_stack_t** out_stack) {
  grt_vm_stack_t* stack = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*stack), (void**)&stack));
  stack->allocator = allocator;
  stack->limit = limit_bytes ? limit_bytes : GRT_VM_STACK_DEFAULT_LIMIT;
  *out_stack = stack;
  return grt_ok_status();
}

void grt_vm_stack_destroy(grt_vm_stack_t* stack) {
  if (!stack) return;
  while (stack->top) grt_vm_stack_pop_frame(stack);
  grt_vm_stack_chunk_t* chunk = stack->chunk;
  while (chunk && chunk->prev) chunk = chunk->prev;
  while (chunk) {
    grt_vm_stack_chunk_t* next = chunk->next;
    grt_allocator_free(stack->allocator, chunk);
    chunk = next;
  }
  grt_allocator_free(stack->allocator, stack);
}

// Returns a chunk with |size| free bytes, moving to (or creating) the next.
static grt_status_t grt_vm_stack_reserve(grt_vm_stack_t* stack, size_t size,
                                         grt_vm_stack_chunk_t** out_chunk) {
  grt_vm_stack_chunk_t* chunk = stack->chunk;
  if (chunk && chunk->capacity - chunk->used >= size) {
    *out_chunk = chunk;
    return grt_ok_status();
  }
  grt_vm_stack_chunk_t* next = chunk ? chunk->next : NULL;
  if (next && next->capacity < size) {
    // Too small for this frame: drop it (and its successors) for a bigger one.
    while (next) {
      grt_vm_stack_chunk_t* after = next->next;
      grt_allocator_free(stack->allocator, next);
      next = after;
    }
    chunk->next = NULL;
  }
  if (!next) {
    size_t capacity = size > GRT_VM_STACK_CHUNK_SIZE ? size : GRT_VM_STACK_CHUNK_SIZE;
    GRT_RETURN_IF_ERROR(grt_allocator_malloc_aligned(
        stack->allocator, sizeof(grt_vm_stack_chunk_t) + capacity,
        GRT_VM_STACK_ALIGNMENT, (void**)&next));
    next->prev = chunk;
    next->next = NULL;
    next->capacity = capacity;
    if (chunk) chunk->next = next;
  }
  next->used = 0;
  stack->chunk = next;
  *out_chunk = next;
  return grt_ok_status();
}

grt_status_t grt_vm_stack_push_frame(grt_vm_stack_t* stack,
                                     grt_vm_module_t* module,
                                     uint32_t function_ordinal,
                                     uint32_t i32_count, uint32_t ref_count,
                                     grt_vm_stack_frame_t** out_frame) {
  size_t size = grt_vm_stack_frame_bytes(i32_count, ref_count);
  if (size > stack->limit - stack->used) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "stack overflow: frame of %zu bytes at depth %zu "
                           "(%zu bytes in use) exceeds limit of %zu bytes",
                           size, stack->depth, stack->used, stack->limit);
  }
  grt_vm_stack_chunk_t* chunk = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_stack_reserve(stack, size, &chunk));
  unsigned char* base = chunk->data + chunk->used;
  chunk->used += size;
  *out_frame = grt_vm_stack_link_frame(stack, base, size, module,
                                       function_ordinal, i32_count, ref_count);
  return grt_ok_status();
}

void grt_vm_stack_pop_frame(grt_vm_stack_t* stack) {
  grt_vm_stack_pop_frame_inline(stack);
}

grt_vm_stack_frame_t* grt_vm_stack_top(const grt_vm_stack_t* stack) {
  return stack->top;
}
size_t grt_vm_stack_depth(const grt_vm_stack_t* stack) { return stack->depth; }
size_t grt_vm_stack_used_bytes(const grt_vm_stack_t* stack) {
  return stack->used;
}
size_t grt_vm_stack_limit(const grt_vm_stack_t* stack) { return stack->limit; }

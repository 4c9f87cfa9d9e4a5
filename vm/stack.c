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

// Recomputes where the fast push path must stop: the current chunk's end,
// or earlier where the limit would be passed.
static void grt_vm_stack_update_fast_end(grt_vm_stack_t* stack) {
  grt_vm_stack_chunk_t* chunk = stack->chunk;
  size_t room = stack->limit - stack->chunk_base;
  if (room > chunk->capacity) room = chunk->capacity;
  stack->fast_end = chunk->data + room;
}

static size_t grt_vm_stack_chunk_used(const grt_vm_stack_t* stack) {
  return stack->chunk ? (size_t)(stack->cursor - stack->chunk->data) : 0;
}

void grt_vm_stack_leave_chunk(grt_vm_stack_t* stack) {
  grt_vm_stack_chunk_t* prev = stack->chunk->prev;
  stack->chunk = prev;
  stack->chunk_base -= prev->used;
  stack->cursor = prev->data + prev->used;
  grt_vm_stack_update_fast_end(stack);
}

// Makes the current chunk one with |size| free bytes, moving to (or
// creating) the next.
static grt_status_t grt_vm_stack_reserve(grt_vm_stack_t* stack, size_t size) {
  grt_vm_stack_chunk_t* chunk = stack->chunk;
  size_t used = grt_vm_stack_chunk_used(stack);
  if (chunk && chunk->capacity - used >= size) return grt_ok_status();
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
  if (chunk) {
    chunk->used = used;
    stack->chunk_base += used;
  }
  next->used = 0;
  stack->chunk = next;
  stack->cursor = next->data;
  grt_vm_stack_update_fast_end(stack);
  return grt_ok_status();
}

void grt_vm_frame_info_init(grt_vm_module_t* module, uint32_t function_ordinal,
                            uint32_t i32_count, uint32_t ref_count,
                            grt_vm_frame_info_t* out_info) {
  out_info->module = module;
  out_info->function_ordinal = function_ordinal;
  out_info->i32_count = i32_count;
  out_info->ref_count = ref_count;
  out_info->i32_bytes =
      (uint32_t)grt_vm_stack_align((size_t)i32_count * sizeof(uint32_t));
  out_info->size = (uint32_t)grt_vm_stack_frame_bytes(i32_count, ref_count);
}

// Makes room for |size| bytes (limit, then chunk) and returns where they
// start.
static grt_status_t grt_vm_stack_allocate(grt_vm_stack_t* stack, size_t size,
                                          unsigned char** out_base) {
  size_t used = grt_vm_stack_used_bytes(stack);
  if (size > stack->limit - used) {
    return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                           "stack overflow: frame of %zu bytes at depth %zu "
                           "(%zu bytes in use) exceeds limit of %zu bytes",
                           size, grt_vm_stack_depth(stack), used, stack->limit);
  }
  GRT_RETURN_IF_ERROR(grt_vm_stack_reserve(stack, size));
  *out_base = stack->cursor;
  stack->cursor += size;
  return grt_ok_status();
}

// Links a frame the full push placed at |base|, with every field set.
static grt_vm_stack_frame_t* grt_vm_stack_link_frame_full(
    grt_vm_stack_t* stack, unsigned char* base,
    const grt_vm_frame_info_t* info) {
  grt_vm_stack_frame_t* frame =
      grt_vm_stack_link_frame(stack, base, stack->top, info);
  frame->pc = 0;
  frame->return_results = NULL;
  if (base == stack->chunk->data && stack->chunk->prev) {
    frame->flags = GRT_VM_FRAME_FIRST_IN_CHUNK;
  }
  return frame;
}

grt_status_t grt_vm_stack_push_frame_info(grt_vm_stack_t* stack,
                                          const grt_vm_frame_info_t* info,
                                          grt_vm_stack_frame_t** out_frame) {
  unsigned char* base = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_stack_allocate(stack, info->size, &base));
  *out_frame = grt_vm_stack_link_frame_full(stack, base, info);
  return grt_ok_status();
}

grt_status_t grt_vm_stack_push_frame(grt_vm_stack_t* stack,
                                     grt_vm_module_t* module,
                                     uint32_t function_ordinal,
                                     uint32_t i32_count, uint32_t ref_count,
                                     grt_vm_stack_frame_t** out_frame) {
  // The info rides after the banks.
  grt_vm_frame_info_t info;
  grt_vm_frame_info_init(module, function_ordinal, i32_count, ref_count,
                         &info);
  size_t info_offset = info.size;
  info.size += (uint32_t)grt_vm_stack_align(sizeof(grt_vm_frame_info_t));
  unsigned char* base = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_stack_allocate(stack, info.size, &base));
  grt_vm_frame_info_t* own = (grt_vm_frame_info_t*)(void*)(base + info_offset);
  *own = info;
  *out_frame = grt_vm_stack_link_frame_full(stack, base, own);
  return grt_ok_status();
}

void grt_vm_stack_pop_frame(grt_vm_stack_t* stack) {
  grt_vm_stack_pop_frame_inline(stack);
}

grt_vm_stack_frame_t* grt_vm_stack_top(const grt_vm_stack_t* stack) {
  return stack->top;
}
size_t grt_vm_stack_depth(const grt_vm_stack_t* stack) {
  size_t depth = 0;
  for (const grt_vm_stack_frame_t* f = stack->top; f; f = f->parent) ++depth;
  return depth;
}
size_t grt_vm_stack_used_bytes(const grt_vm_stack_t* stack) {
  return stack->chunk_base + grt_vm_stack_chunk_used(stack);
}
size_t grt_vm_stack_limit(const grt_vm_stack_t* stack) { return stack->limit; }

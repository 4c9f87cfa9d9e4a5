// VM stack: frame push/pop bookkeeping, growth across chunks without moving
// frames, the limit and its message, and refs released when frames go.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/buffer.h"
#include "vm/stack.h"
#include "vm/test_support.h"

static grt_vm_stack_t* make_stack(size_t limit) {
  grt_vm_stack_t* stack = NULL;
  GRT_EXPECT_OK(grt_vm_stack_create(limit, grt_allocator_system(), &stack));
  return stack;
}

static grt_vm_stack_frame_t* push(grt_vm_stack_t* stack, uint32_t ordinal,
                                  uint32_t i32_count, uint32_t ref_count) {
  grt_vm_stack_frame_t* frame = NULL;
  GRT_EXPECT_OK(grt_vm_stack_push_frame(stack, NULL, ordinal, i32_count,
                                           ref_count, &frame));
  return frame;
}

static void test_push_and_pop(void** state) {
  (void)state;
  grt_vm_stack_t* stack = make_stack(0);
  assert_int_equal(grt_vm_stack_limit(stack), GRT_VM_STACK_DEFAULT_LIMIT);
  assert_null(grt_vm_stack_top(stack));
  grt_vm_stack_frame_t* a = push(stack, 3, 5, 2);
  assert_ptr_equal(grt_vm_stack_top(stack), a);
  assert_null(a->parent);
  assert_int_equal(a->info->function_ordinal, 3);
  assert_int_equal(a->pc, 0);
  assert_int_equal(a->info->i32_count, 5);
  assert_int_equal(a->info->ref_count, 2);
  assert_int_equal((uintptr_t)grt_vm_stack_frame_i32(a) % 8, 0);
  for (int i = 0; i < 2; ++i) assert_true(grt_vm_ref_is_null(&grt_vm_stack_frame_refs(a)[i]));
  assert_int_equal(grt_vm_stack_depth(stack), 1);
  assert_int_equal(grt_vm_stack_used_bytes(stack), a->info->size);
  // a's registers keep their values while frames come and go above it.
  for (int i = 0; i < 5; ++i) grt_vm_stack_frame_i32(a)[i] = 0xDEADBEEF;
  grt_vm_stack_frame_t* b = push(stack, 4, 1, 0);
  assert_ptr_equal(b->parent, a);
  assert_ptr_equal(grt_vm_stack_top(stack), b);
  assert_int_equal(grt_vm_stack_depth(stack), 2);
  assert_int_equal(grt_vm_stack_used_bytes(stack), a->info->size + b->info->size);
  grt_vm_stack_pop_frame(stack);
  assert_ptr_equal(grt_vm_stack_top(stack), a);
  assert_int_equal(grt_vm_stack_frame_i32(a)[4], 0xDEADBEEF);
  grt_vm_stack_pop_frame(stack);
  assert_null(grt_vm_stack_top(stack));
  assert_int_equal(grt_vm_stack_depth(stack), 0);
  assert_int_equal(grt_vm_stack_used_bytes(stack), 0);
  // A frame pushed where a was gets null refs again (its primitive bank is
  // not cleared: the verifier proves bytecode writes before it reads).
  grt_vm_ref_t* a_refs = grt_vm_stack_frame_refs(a);
  a_refs[1].ptr = (void*)a_refs;  // a stale non-null value, never released
  grt_vm_stack_frame_t* c = push(stack, 0, 5, 2);
  assert_ptr_equal(c, a);
  for (int i = 0; i < 2; ++i) assert_true(grt_vm_ref_is_null(&grt_vm_stack_frame_refs(c)[i]));
  grt_vm_stack_destroy(stack);
}

// Frames of 4 KiB fill several 64 KiB chunks; every frame keeps its address
// and contents while later ones are pushed, popped and pushed again, and a
// frame bigger than a chunk gets a chunk of its own.
static void test_growth_keeps_frames_in_place(void** state) {
  (void)state;
  enum { kFrames = 64, kSlots = 1024 };
  grt_vm_stack_t* stack = make_stack(4u * 1024u * 1024u);
  grt_vm_stack_frame_t* frames[kFrames];
  for (uint32_t i = 0; i < kFrames; ++i) {
    frames[i] = push(stack, i, kSlots, 1);
    for (uint32_t s = 0; s < kSlots; ++s) grt_vm_stack_frame_i32(frames[i])[s] = i * kSlots + s;
  }
  assert_true(grt_vm_stack_used_bytes(stack) > 3u * 64u * 1024u);
  for (uint32_t i = kFrames / 2; i < kFrames; ++i) grt_vm_stack_pop_frame(stack);
  // Refill the popped half (reusing chunks), then one frame larger than a
  // chunk, which cannot reuse the next chunk.
  for (uint32_t i = kFrames / 2; i < kFrames; ++i) {
    frames[i] = push(stack, i, kSlots, 1);
    for (uint32_t s = 0; s < kSlots; ++s) grt_vm_stack_frame_i32(frames[i])[s] = i * kSlots + s;
  }
  grt_vm_stack_frame_t* big = push(stack, 99, 64u * 1024u, 4);
  assert_ptr_equal(big->parent, frames[kFrames - 1]);
  for (uint32_t i = 0; i < 4; ++i) assert_true(grt_vm_ref_is_null(&grt_vm_stack_frame_refs(big)[i]));
  grt_vm_stack_frame_i32(big)[64u * 1024u - 1] = 1;
  grt_vm_stack_pop_frame(stack);
  for (uint32_t i = kFrames; i-- > 0;) {
    assert_ptr_equal(grt_vm_stack_top(stack), frames[i]);
    assert_int_equal(frames[i]->info->function_ordinal, i);
    for (uint32_t s = 0; s < kSlots; ++s) {
      if (grt_vm_stack_frame_i32(frames[i])[s] != i * kSlots + s) {
        fail_msg("frame %u slot %u was overwritten", i, s);
      }
    }
    assert_ptr_equal(frames[i]->parent, i ? frames[i - 1] : NULL);
    grt_vm_stack_pop_frame(stack);
  }
  assert_int_equal(grt_vm_stack_used_bytes(stack), 0);
  grt_vm_stack_destroy(stack);
}

static void test_limit(void** state) {
  (void)state;
  grt_vm_stack_t* stack = make_stack(4096);
  grt_vm_stack_frame_t* empty = push(stack, 0, 0, 0);
  size_t header = empty->info->size;  // an empty frame is all bookkeeping
  assert_int_equal(grt_vm_stack_used_bytes(stack), header);
  // A frame that fills the stack exactly fits.
  uint32_t slots = (uint32_t)((4096 - 2 * header) / 4);
  grt_vm_stack_frame_t* full = push(stack, 1, slots, 0);
  assert_int_equal(full->info->size, 4096 - header);
  assert_int_equal(grt_vm_stack_used_bytes(stack), 4096);
  grt_vm_stack_frame_t* frame = NULL;
  char expected[160];
  snprintf(expected, sizeof(expected),
           "stack overflow: frame of %zu bytes at depth 2 (4096 bytes in "
           "use) exceeds limit of 4096 bytes",
           header);
  grt_expect_error(grt_vm_stack_push_frame(stack, NULL, 2, 0, 0, &frame),
                      GRT_STATUS_RESOURCE_EXHAUSTED, expected);
  assert_int_equal(grt_vm_stack_depth(stack), 2);
  grt_vm_stack_pop_frame(stack);
  snprintf(expected, sizeof(expected),
           "stack overflow: frame of %zu bytes at depth 1 (%zu bytes in "
           "use) exceeds limit of 4096 bytes",
           header + 4096, header);
  grt_expect_error(
      grt_vm_stack_push_frame(stack, NULL, 2, 1024, 0, &frame),
      GRT_STATUS_RESOURCE_EXHAUSTED, expected);
  assert_ptr_equal(grt_vm_stack_top(stack), empty);
  grt_vm_stack_destroy(stack);
}

static void test_refs_released(void** state) {
  (void)state;
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, 8, 8,
                                        grt_allocator_system(), &buffer));
  grt_vm_ref_t ref = grt_vm_ref_wrap_retain(buffer, grt_vm_buffer_type());
  grt_vm_stack_t* stack = make_stack(0);
  grt_vm_stack_frame_t* outer = push(stack, 0, 0, 3);
  grt_vm_ref_assign(&grt_vm_stack_frame_refs(outer)[0], &ref);
  grt_vm_ref_assign(&grt_vm_stack_frame_refs(outer)[2], &ref);
  grt_vm_stack_frame_t* inner = push(stack, 1, 2, 1);
  grt_vm_ref_assign(&grt_vm_stack_frame_refs(inner)[0], &ref);
  assert_int_equal(grt_vm_ref_object_count(buffer, grt_vm_buffer_type()), 5);
  grt_vm_stack_pop_frame(stack);
  assert_int_equal(grt_vm_ref_object_count(buffer, grt_vm_buffer_type()), 4);
  // Destroying the stack pops (and releases) what is left.
  grt_vm_stack_destroy(stack);
  assert_int_equal(grt_vm_ref_object_count(buffer, grt_vm_buffer_type()), 2);
  grt_vm_ref_release(&ref);
  grt_vm_buffer_release(buffer);
}

// Frames pushed for a shared info, as the interpreter does: the inline fast
// path declines (NULL) exactly when a frame would cross a chunk or the
// limit, the full push then grows into the next chunk or reports the
// overflow, and popping back across chunks restores the byte count.
static void test_shared_info_fast_path(void** state) {
  (void)state;
  enum { kSlots = 1000 };  // 4000 bytes + header: 16 fit in a 64 KiB chunk
  grt_vm_frame_info_t info;
  grt_vm_frame_info_init(NULL, 7, kSlots, 2, &info);
  assert_int_equal(info.i32_bytes, 4000);
  assert_int_equal(info.size, grt_vm_stack_frame_bytes(kSlots, 2));
  size_t frames = 40;
  grt_vm_stack_t* stack = make_stack(frames * info.size);
  size_t fast = 0, slow = 0;
  for (size_t i = 0; i < frames; ++i) {
    grt_vm_stack_frame_t* frame = grt_vm_stack_push_frame_fast(stack, grt_vm_stack_top(stack), &info);
    if (frame) {
      ++fast;
    } else {
      ++slow;
      GRT_EXPECT_OK(grt_vm_stack_push_frame_info(stack, &info, &frame));
    }
    assert_ptr_equal(frame->info, &info);
    assert_ptr_equal(grt_vm_stack_top(stack), frame);
    assert_int_equal(grt_vm_stack_used_bytes(stack), (i + 1) * info.size);
    grt_vm_stack_frame_i32(frame)[kSlots - 1] = (uint32_t)i;
  }
  // The first push and one per chunk crossing took the full path.
  assert_int_equal(slow, 1 + (frames - 1) / (64u * 1024u / info.size));
  assert_int_equal(fast + slow, frames);
  assert_int_equal(grt_vm_stack_depth(stack), frames);
  // The stack is exactly full: the fast path declines, the full push fails.
  assert_null(grt_vm_stack_push_frame_fast(stack, grt_vm_stack_top(stack), &info));
  grt_vm_stack_frame_t* frame = NULL;
  char expected[160];
  snprintf(expected, sizeof(expected),
           "stack overflow: frame of %zu bytes at depth 40 (%zu bytes in "
           "use) exceeds limit of %zu bytes",
           (size_t)info.size, frames * info.size, frames * info.size);
  grt_expect_error(grt_vm_stack_push_frame_info(stack, &info, &frame),
                   GRT_STATUS_RESOURCE_EXHAUSTED, expected);
  for (size_t i = frames; i-- > 0;) {
    assert_int_equal(grt_vm_stack_frame_i32(grt_vm_stack_top(stack))[kSlots - 1], i);
    grt_vm_stack_pop_frame(stack);
    assert_int_equal(grt_vm_stack_used_bytes(stack), i * info.size);
  }
  assert_null(grt_vm_stack_top(stack));
  // Chunks are reused: pushing again takes the fast path after the first.
  GRT_EXPECT_OK(grt_vm_stack_push_frame_info(stack, &info, &frame));
  assert_non_null(grt_vm_stack_push_frame_fast(stack, grt_vm_stack_top(stack), &info));
  grt_vm_stack_destroy(stack);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_push_and_pop),
      cmocka_unit_test(test_growth_keeps_frames_in_place),
      cmocka_unit_test(test_limit),
      cmocka_unit_test(test_refs_released),
      cmocka_unit_test(test_shared_info_fast_path),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

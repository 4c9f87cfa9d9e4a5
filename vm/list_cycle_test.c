// vm.list cycles: lists that hold themselves, directly or through other
// lists, are freed when the last reference from outside goes; lists still
// held from outside are not touched. A counting allocator checks that every
// block comes back (the ASan tree's LeakSanitizer checks it again).
#include "vm/list.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vm/buffer.h"
#include "vm/test_support.h"

typedef struct counting_allocator_t {
  size_t live_blocks;
} counting_allocator_t;

static void* counting_allocate(void* self, size_t size, size_t alignment) {
  void* ptr = NULL;
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  if (posix_memalign(&ptr, alignment, size ? size : 1) != 0) return NULL;
  ++((counting_allocator_t*)self)->live_blocks;
  return ptr;
}

static void* counting_reallocate(void* self, void* ptr, size_t old_size,
                                 size_t new_size, size_t alignment) {
  void* fresh = counting_allocate(self, new_size, alignment);
  if (!fresh) return NULL;
  if (ptr) {
    memcpy(fresh, ptr, old_size < new_size ? old_size : new_size);
    free(ptr);
    --((counting_allocator_t*)self)->live_blocks;
  }
  return fresh;
}

static void counting_free(void* self, void* ptr) {
  if (!ptr) return;
  free(ptr);
  --((counting_allocator_t*)self)->live_blocks;
}

static const grt_allocator_vtable_t counting_vtable = {
    counting_allocate, counting_reallocate, counting_free};

static grt_allocator_t counting(counting_allocator_t* counter) {
  grt_allocator_t allocator = {&counting_vtable, counter};
  return allocator;
}

static grt_vm_list_t* make_list(grt_allocator_t allocator,
                                grt_vm_type_def_t type) {
  grt_vm_list_t* list = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(type, 0, allocator, &list));
  return list;
}

// Appends a new reference to |element| to |list|.
static void push_list(grt_vm_list_t* list, grt_vm_list_t* element) {
  grt_vm_ref_t ref = grt_vm_ref_wrap_retain(element, grt_vm_list_type());
  grt_vm_variant_t variant = grt_vm_variant_ref_move(&ref);
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &variant));
  grt_vm_variant_reset(&variant);
}

static uint32_t count_of(grt_vm_list_t* list) {
  return grt_vm_ref_object_count(list, grt_vm_list_type());
}

static void test_self_cycle_is_freed(void** state) {
  (void)state;
  counting_allocator_t counter = {0};
  grt_vm_list_t* list = make_list(counting(&counter), grt_vm_type_def_ref(NULL));
  push_list(list, list);
  push_list(list, list);  // twice: two references from itself
  assert_int_equal(count_of(list), 3);
  assert_true(counter.live_blocks > 0);
  grt_vm_list_release(list);
  assert_int_equal(counter.live_blocks, 0);
}

static void test_two_list_cycle_is_freed(void** state) {
  (void)state;
  counting_allocator_t counter = {0};
  grt_allocator_t allocator = counting(&counter);
  grt_vm_list_t* a = make_list(allocator, grt_vm_type_def_ref(grt_vm_list_type()));
  grt_vm_list_t* b = make_list(allocator, grt_vm_type_def_ref(NULL));
  push_list(a, b);
  push_list(b, a);
  // Releasing b while a is held from outside frees nothing: both stay
  // usable.
  grt_vm_list_release(b);
  assert_int_equal(count_of(b), 1);
  grt_vm_ref_t element = grt_vm_ref_null();
  GRT_EXPECT_OK(grt_vm_list_get_ref_assign(a, 0, &element));
  assert_ptr_equal(element.ptr, b);
  grt_vm_ref_release(&element);  // b again: still held by a
  assert_int_equal(grt_vm_list_size(b), 1);
  assert_int_equal(count_of(a), 2);
  grt_vm_list_release(a);
  assert_int_equal(counter.live_blocks, 0);
}

static void test_cycle_through_variant_list_is_freed(void** state) {
  (void)state;
  counting_allocator_t counter = {0};
  grt_allocator_t allocator = counting(&counter);
  // a (refs) -> v (variants: i32, buffer, c) -> c (refs) -> a.
  grt_vm_list_t* a = make_list(allocator, grt_vm_type_def_ref(NULL));
  grt_vm_list_t* v = make_list(allocator, grt_vm_type_def_variant());
  grt_vm_list_t* c = make_list(allocator, grt_vm_type_def_ref(NULL));
  grt_vm_variant_t number = grt_vm_variant_i32(7);
  GRT_EXPECT_OK(grt_vm_list_push_variant(v, &number));
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, 16, 0,
                                     allocator, &buffer));
  grt_vm_ref_t buffer_ref = grt_vm_ref_wrap_move(buffer, grt_vm_buffer_type());
  grt_vm_variant_t buffer_variant = grt_vm_variant_ref_move(&buffer_ref);
  GRT_EXPECT_OK(grt_vm_list_push_variant(v, &buffer_variant));
  grt_vm_variant_reset(&buffer_variant);
  push_list(a, v);
  push_list(v, c);
  push_list(c, a);
  grt_vm_list_release(v);
  grt_vm_list_release(c);
  assert_int_equal(count_of(v), 1);
  assert_int_equal(count_of(c), 1);
  grt_vm_list_release(a);
  assert_int_equal(counter.live_blocks, 0);
}

// A cycle reachable from a list held from outside lives as long as that
// list; dropping the outside list frees the lot.
static void test_cycle_held_from_outside_survives(void** state) {
  (void)state;
  counting_allocator_t counter = {0};
  grt_allocator_t allocator = counting(&counter);
  grt_vm_list_t* holder = make_list(allocator, grt_vm_type_def_variant());
  grt_vm_list_t* a = make_list(allocator, grt_vm_type_def_ref(NULL));
  grt_vm_list_t* b = make_list(allocator, grt_vm_type_def_ref(NULL));
  push_list(holder, a);
  push_list(a, b);
  push_list(b, a);
  push_list(b, b);
  grt_vm_list_release(a);
  grt_vm_list_release(b);
  assert_int_equal(count_of(a), 2);  // holder and b
  assert_int_equal(count_of(b), 2);  // a and itself
  assert_int_equal(grt_vm_list_size(a), 1);
  assert_int_equal(grt_vm_list_size(b), 2);
  // Breaking the link from the holder leaves a garbage cycle behind.
  GRT_EXPECT_OK(grt_vm_list_resize(holder, 0));
  size_t holder_blocks = 2;  // the holder and its storage
  assert_int_equal(counter.live_blocks, holder_blocks);
  grt_vm_list_release(holder);
  assert_int_equal(counter.live_blocks, 0);
}

// Overwriting the element that closed a cycle opens it: nothing is freed
// early, and the lists go with their last outside reference.
static void test_overwritten_cycle_frees_normally(void** state) {
  (void)state;
  counting_allocator_t counter = {0};
  grt_allocator_t allocator = counting(&counter);
  grt_vm_list_t* a = make_list(allocator, grt_vm_type_def_ref(NULL));
  push_list(a, a);
  grt_vm_ref_t null_ref = grt_vm_ref_null();
  GRT_EXPECT_OK(grt_vm_list_set_ref_retain(a, 0, &null_ref));
  assert_int_equal(count_of(a), 1);
  push_list(a, a);
  grt_vm_list_retain(a);
  grt_vm_list_release(a);  // back to 2 (self and outside): still alive
  assert_int_equal(count_of(a), 2);
  assert_int_equal(grt_vm_list_size(a), 2);
  grt_vm_list_release(a);
  assert_int_equal(counter.live_blocks, 0);
}

// Bytecode closes the cycle (list.set.ref %l, 0, %l) and returns: the frame
// drops the last outside reference and the list is freed.
static void test_bytecode_self_cycle_is_freed(void** state) {
  (void)state;
  grt_vm_test_module_t t;
  grt_vm_test_module_begin(&t, "m");
  grt_vm_test_function_begin(&t, "main", "0v_v");
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(1), TI(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_CONST_I32, TK(0), TI(1));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_LIST_ALLOC, TK(GRT_VM_TYPE_VARIANT), TI(0),
                   TR(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_LIST_RESIZE, TR(0), TI(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_LIST_SET_REF, TR(0), TI(1), TR(0));
  GRT_VM_TEST_EMIT(&t, GRT_VM_OP_RETURN, TLIST_EMPTY);
  grt_vm_test_function_end(&t, 2, 1);
  grt_vm_test_module_finish(&t);
  // The context (and so every list the program makes) counts its blocks.
  counting_allocator_t counter = {0};
  t.allocator = counting(&counter);
  GRT_EXPECT_OK(grt_vm_test_module_link(&t, NULL, 0));
  for (int i = 0; i < 3; ++i) {
    size_t before = counter.live_blocks;
    GRT_EXPECT_OK(grt_vm_test_call(&t, "main", NULL, 0, NULL, 0));
    assert_int_equal(counter.live_blocks, before);
  }
  grt_vm_context_release(t.context);
  grt_vm_module_release(t.module);
  grt_vm_instance_release(t.instance);
  t.context = NULL;
  t.module = NULL;
  t.instance = NULL;
  assert_int_equal(counter.live_blocks, 0);
  t.allocator = grt_allocator_system();  // what made the file and writer
  grt_vm_test_module_end(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bytecode_self_cycle_is_freed),
      cmocka_unit_test(test_self_cycle_is_freed),
      cmocka_unit_test(test_two_list_cycle_is_freed),
      cmocka_unit_test(test_cycle_through_variant_list_is_freed),
      cmocka_unit_test(test_cycle_held_from_outside_survives),
      cmocka_unit_test(test_overwritten_cycle_frees_normally),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#include "base/string_builder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "base/status_matchers.h"

static void test_appends_grow_and_terminate(void** state) {
  (void)state;
  grt_string_builder_t builder;
  grt_string_builder_init(grt_allocator_system(), &builder);
  assert_string_equal(grt_string_builder_cstring(&builder), "");
  for (int i = 0; i < 1000; ++i) grt_string_builder_appendf(&builder, "%d,", i % 10);
  grt_string_builder_append_cstring(&builder, "end");
  GRT_EXPECT_OK(grt_string_builder_status(&builder));
  assert_int_equal(builder.size, 2003);
  assert_int_equal(strlen(grt_string_builder_cstring(&builder)), 2003);
  assert_memory_equal(grt_string_builder_cstring(&builder), "0,1,2,", 6);
  grt_string_builder_clear(&builder);
  assert_string_equal(grt_string_builder_cstring(&builder), "");
  grt_string_builder_deinit(&builder);
}

static void* failing_allocate(void* self, size_t size, size_t alignment) {
  (void)self, (void)size, (void)alignment;
  return NULL;
}
static void* failing_reallocate(void* self, void* ptr, size_t old_size,
                                size_t new_size, size_t alignment) {
  (void)self, (void)ptr, (void)old_size, (void)new_size, (void)alignment;
  return NULL;
}
static void failing_free(void* self, void* ptr) { (void)self, (void)ptr; }
static grt_allocator_t failing_allocator(void) {
  static const grt_allocator_vtable_t vtable = {failing_allocate,
                                                failing_reallocate, failing_free};
  grt_allocator_t allocator = {&vtable, NULL};
  return allocator;
}

static void test_allocation_failure_is_kept(void** state) {
  (void)state;
  grt_string_builder_t builder;
  grt_string_builder_init(failing_allocator(), &builder);
  grt_string_builder_append_cstring(&builder, "x");
  grt_string_builder_appendf(&builder, "%s", "more");
  grt_status_t status = grt_string_builder_status(&builder);
  assert_false(grt_status_is_ok(status));
  grt_status_free(status);
  assert_string_equal(grt_string_builder_cstring(&builder), "");
  grt_string_builder_deinit(&builder);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_appends_grow_and_terminate),
      cmocka_unit_test(test_allocation_failure_is_kept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

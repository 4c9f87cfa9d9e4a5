// Refs and the instance's type registry.
#include "vm/ref.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/buffer.h"
#include "vm/instance.h"
#include "vm/list.h"
#include "vm/test_support.h"

typedef struct widget_t {
  int payload;
  grt_vm_ref_object_t ref_object;  // deliberately not first
} widget_t;

static int widget_destroy_count = 0;
static void widget_destroy(void* ptr) {
  ++widget_destroy_count;
  widget_t* widget = ptr;
  widget->payload = -1;
}
static const grt_vm_ref_type_descriptor_t widget_descriptor = {
    "test.widget", widget_destroy, offsetof(widget_t, ref_object)};
static const grt_vm_ref_type_descriptor_t impostor_descriptor = {
    "test.widget", widget_destroy, offsetof(widget_t, ref_object)};

static void test_retain_release_destroys_once(void** state) {
  (void)state;
  widget_destroy_count = 0;
  widget_t widget = {7, {0}};
  grt_vm_ref_object_initialize(&widget.ref_object);
  grt_vm_ref_t a = grt_vm_ref_wrap_move(&widget, &widget_descriptor);
  grt_vm_ref_t b = grt_vm_ref_null();
  grt_vm_ref_assign(&b, &a);
  assert_int_equal(grt_vm_ref_object_count(&widget, &widget_descriptor), 2);
  grt_vm_ref_assign(&b, &b);  // self-assignment keeps the count
  assert_int_equal(grt_vm_ref_object_count(&widget, &widget_descriptor), 2);
  grt_vm_ref_t c = grt_vm_ref_null();
  grt_vm_ref_move(&c, &b);
  assert_true(grt_vm_ref_is_null(&b));
  assert_int_equal(grt_vm_ref_object_count(&widget, &widget_descriptor), 2);
  grt_vm_ref_release(&a);
  assert_true(grt_vm_ref_is_null(&a));
  assert_int_equal(widget_destroy_count, 0);
  grt_vm_ref_release(&c);
  assert_int_equal(widget_destroy_count, 1);
  assert_int_equal(widget.payload, -1);
  grt_vm_ref_release(&c);  // already null: nothing happens
  assert_int_equal(widget_destroy_count, 1);
}

static void test_assign_over_held_ref_releases_old(void** state) {
  (void)state;
  widget_destroy_count = 0;
  widget_t first = {1, {0}};
  widget_t second = {2, {0}};
  grt_vm_ref_object_initialize(&first.ref_object);
  grt_vm_ref_object_initialize(&second.ref_object);
  grt_vm_ref_t held = grt_vm_ref_wrap_move(&first, &widget_descriptor);
  grt_vm_ref_t other = grt_vm_ref_wrap_move(&second, &widget_descriptor);
  grt_vm_ref_assign(&held, &other);
  assert_int_equal(widget_destroy_count, 1);
  assert_int_equal(first.payload, -1);
  assert_ptr_equal(held.ptr, &second);
  grt_vm_ref_release(&held);
  grt_vm_ref_release(&other);
  assert_int_equal(widget_destroy_count, 2);
}

// Size builds (-Os) release through the out-of-line copies in vm/ref.c
// (vm/ref.h); they do what the inline bodies do: the last release
// destroys, a list goes through the list's own release, and a released ref
// reads null. Called directly here, since this test is not built -Os.
static void test_out_of_line_release(void** state) {
  (void)state;
  widget_destroy_count = 0;
  widget_t widget = {3, {0}};
  grt_vm_ref_object_initialize(&widget.ref_object);
  grt_vm_ref_t a = grt_vm_ref_wrap_move(&widget, &widget_descriptor);
  grt_vm_ref_t b = grt_vm_ref_null();
  grt_vm_ref_assign(&b, &a);
  grt_vm_ref_release_out_of_line(&a);
  assert_true(grt_vm_ref_is_null(&a));
  assert_int_equal(grt_vm_ref_object_count(&widget, &widget_descriptor), 1);
  grt_vm_ref_object_retain(&widget, &widget_descriptor);
  grt_vm_ref_object_release_out_of_line(&widget, &widget_descriptor);
  assert_int_equal(grt_vm_ref_object_count(&widget, &widget_descriptor), 1);
  assert_int_equal(widget_destroy_count, 0);
  grt_vm_ref_release_out_of_line(&b);
  assert_true(grt_vm_ref_is_null(&b));
  assert_int_equal(widget_destroy_count, 1);
  assert_int_equal(widget.payload, -1);
  grt_vm_ref_release_out_of_line(&b);  // already null: nothing happens
  assert_int_equal(widget_destroy_count, 1);

  grt_vm_list_t* list = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), 1,
                                   grt_allocator_system(), &list));
  grt_vm_ref_t held = grt_vm_ref_wrap_move(list, grt_vm_list_type());
  grt_vm_list_retain(list);
  assert_int_equal(grt_vm_ref_object_count(list, grt_vm_list_type()), 2);
  grt_vm_ref_object_release_out_of_line(list, grt_vm_list_type());
  assert_int_equal(grt_vm_ref_object_count(list, grt_vm_list_type()), 1);
  grt_vm_ref_release_out_of_line(&held);  // the last: the list is freed
  assert_true(grt_vm_ref_is_null(&held));
}

static void test_check_type_messages(void** state) {
  (void)state;
  widget_t widget = {3, {0}};
  grt_vm_ref_object_initialize(&widget.ref_object);
  grt_vm_ref_t ref = grt_vm_ref_wrap_move(&widget, &widget_descriptor);
  void* ptr = NULL;
  GRT_EXPECT_OK(grt_vm_ref_deref(&ref, &widget_descriptor, &ptr));
  assert_ptr_equal(ptr, &widget);
  assert_ptr_equal(grt_vm_ref_as(&ref, &widget_descriptor), &widget);
  assert_null(grt_vm_ref_as(&ref, grt_vm_buffer_type()));
  grt_expect_error(grt_vm_ref_deref(&ref, grt_vm_buffer_type(), &ptr),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "expected ref<vm.buffer>, got ref<test.widget>");
  assert_null(ptr);
  grt_vm_ref_t null_ref = grt_vm_ref_null();
  grt_expect_error(grt_vm_ref_check_type(&null_ref, grt_vm_list_type()),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "expected ref<vm.list>, got a null ref");
  assert_string_equal(grt_vm_ref_type_name(NULL), "null");
}

static void test_instance_registry(void** state) {
  (void)state;
  grt_vm_instance_t* instance = NULL;
  GRT_EXPECT_OK(grt_vm_instance_create(grt_allocator_system(), &instance));
  assert_ptr_equal(grt_vm_instance_lookup_type(
                       instance, grt_make_cstring_view("vm.buffer")),
                   grt_vm_buffer_type());
  assert_ptr_equal(
      grt_vm_instance_lookup_type(instance, grt_make_cstring_view("vm.list")),
      grt_vm_list_type());
  assert_null(
      grt_vm_instance_lookup_type(instance, grt_make_cstring_view("vm.buf")));
  GRT_EXPECT_OK(grt_vm_instance_register_type(instance, &widget_descriptor));
  GRT_EXPECT_OK(grt_vm_instance_register_type(instance, &widget_descriptor));
  assert_int_equal(grt_vm_instance_type_count(instance), 3);
  assert_ptr_equal(grt_vm_instance_type_at(instance, 2), &widget_descriptor);
  grt_expect_error(
      grt_vm_instance_register_type(instance, &impostor_descriptor),
      GRT_STATUS_ALREADY_EXISTS,
      "ref type 'test.widget' is already registered with a different "
      "descriptor");
  grt_vm_ref_type_t found = NULL;
  GRT_EXPECT_OK(grt_vm_instance_find_type(
      instance, grt_make_cstring_view("test.widget"), &found));
  assert_ptr_equal(found, &widget_descriptor);
  grt_expect_error(
      grt_vm_instance_find_type(instance, grt_make_cstring_view("hal.buffer"),
                                &found),
      GRT_STATUS_NOT_FOUND,
      "no ref type 'hal.buffer' is registered; registered: vm.buffer, "
      "vm.list, test.widget");
  assert_null(found);
  grt_vm_instance_retain(instance);
  grt_vm_instance_release(instance);
  grt_vm_instance_release(instance);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_retain_release_destroys_once),
      cmocka_unit_test(test_assign_over_held_ref_releases_old),
      cmocka_unit_test(test_out_of_line_release),
      cmocka_unit_test(test_check_type_messages),
      cmocka_unit_test(test_instance_registry),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

// vm.list: typed storage, ref ownership, index and type errors.
#include "vm/list.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "vm/buffer.h"
#include "vm/test_support.h"

static grt_vm_list_t* make_list(grt_vm_type_def_t type, size_t capacity) {
  grt_vm_list_t* list = NULL;
  GRT_EXPECT_OK(
      grt_vm_list_create(type, capacity, grt_allocator_system(), &list));
  return list;
}

static grt_vm_ref_t make_buffer_ref(void) {
  grt_vm_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, 4, 0,
                                        grt_allocator_system(), &buffer));
  return grt_vm_ref_wrap_move(buffer, grt_vm_buffer_type());
}

static void test_primitive_list(void** state) {
  (void)state;
  grt_vm_list_t* list =
      make_list(grt_vm_type_def_value(GRT_VM_VALUE_TYPE_I64), 2);
  assert_int_equal(grt_vm_list_size(list), 0);
  assert_true(grt_vm_list_capacity(list) >= 2);
  GRT_EXPECT_OK(grt_vm_list_resize(list, 3));
  int64_t value = -1;
  GRT_EXPECT_OK(grt_vm_list_get_i64(list, 2, &value));
  assert_int_equal(value, 0);
  GRT_EXPECT_OK(grt_vm_list_set_i64(list, 1, INT64_MAX));
  GRT_EXPECT_OK(grt_vm_list_get_i64(list, 1, &value));
  assert_true(value == INT64_MAX);
  grt_expect_error(grt_vm_list_get_i64(list, 5, &value),
                      GRT_STATUS_OUT_OF_RANGE,
                      "list index 5 out of range: size 3");
  grt_expect_error(grt_vm_list_set_i64(list, 3, 0), GRT_STATUS_OUT_OF_RANGE,
                      "list index 3 out of range: size 3");
  int32_t narrow = 0;
  grt_expect_error(
      grt_vm_list_get_i32(list, 0, &narrow), GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: list holds i64, accessed as i32");
  grt_expect_error(
      grt_vm_list_set_f32(list, 0, 1.0f), GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: list holds i64, given f32");
  grt_vm_ref_t ref = grt_vm_ref_null();
  grt_expect_error(
      grt_vm_list_get_ref_assign(list, 0, &ref), GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: list holds i64, accessed as ref");
  grt_vm_variant_t variant = grt_vm_variant_f64(1.0);
  grt_expect_error(
      grt_vm_list_set_variant(list, 0, &variant), GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: list holds i64, given f64");
  GRT_EXPECT_OK(grt_vm_list_get_variant_assign(list, 1, &variant));
  assert_int_equal(variant.type, GRT_VM_VALUE_TYPE_I64);
  assert_true(variant.i64 == INT64_MAX);
  // Shrinking then growing zeroes the reappearing element.
  GRT_EXPECT_OK(grt_vm_list_resize(list, 1));
  GRT_EXPECT_OK(grt_vm_list_resize(list, 2));
  GRT_EXPECT_OK(grt_vm_list_get_i64(list, 1, &value));
  assert_int_equal(value, 0);
  GRT_EXPECT_OK(grt_vm_list_reserve(list, 100));
  assert_true(grt_vm_list_capacity(list) >= 100);
  assert_int_equal(grt_vm_list_size(list), 2);
  grt_vm_list_release(list);

  grt_vm_list_t* floats =
      make_list(grt_vm_type_def_value(GRT_VM_VALUE_TYPE_F32), 0);
  GRT_EXPECT_OK(grt_vm_list_resize(floats, 1));
  GRT_EXPECT_OK(grt_vm_list_set_f32(floats, 0, 0.5f));
  float f = 0;
  GRT_EXPECT_OK(grt_vm_list_get_f32(floats, 0, &f));
  assert_true(f == 0.5f);
  grt_vm_list_release(floats);
}

static void test_typed_ref_list_owns_refs(void** state) {
  (void)state;
  grt_vm_list_t* list = make_list(grt_vm_type_def_ref(grt_vm_buffer_type()), 1);
  GRT_EXPECT_OK(grt_vm_list_resize(list, 2));
  grt_vm_ref_t buffer = make_buffer_ref();
  GRT_EXPECT_OK(grt_vm_list_set_ref_retain(list, 0, &buffer));
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 2);
  grt_vm_ref_t out = grt_vm_ref_null();
  GRT_EXPECT_OK(grt_vm_list_get_ref_assign(list, 0, &out));
  assert_ptr_equal(out.ptr, buffer.ptr);
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 3);
  // Reading a null element into |out| releases what |out| held.
  GRT_EXPECT_OK(grt_vm_list_get_ref_assign(list, 1, &out));
  assert_true(grt_vm_ref_is_null(&out));
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 2);

  grt_vm_list_t* other = make_list(grt_vm_type_def_variant(), 0);
  grt_vm_ref_t list_ref = grt_vm_ref_wrap_move(other, grt_vm_list_type());
  grt_expect_error(
      grt_vm_list_set_ref_retain(list, 1, &list_ref),
      GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: list holds ref<vm.buffer>, given "
      "ref<vm.list>");
  grt_expect_error(
      grt_vm_list_set_ref_move(list, 1, &list_ref), GRT_STATUS_INVALID_ARGUMENT,
      "list holds ref<vm.buffer>, given ref<vm.list>");
  assert_false(grt_vm_ref_is_null(&list_ref));  // untouched on failure
  grt_vm_ref_release(&list_ref);

  grt_vm_ref_t moved = grt_vm_ref_null();
  grt_vm_ref_assign(&moved, &buffer);
  GRT_EXPECT_OK(grt_vm_list_set_ref_move(list, 1, &moved));
  assert_true(grt_vm_ref_is_null(&moved));
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 3);
  grt_vm_ref_t null_ref = grt_vm_ref_null();
  GRT_EXPECT_OK(grt_vm_list_set_ref_retain(list, 1, &null_ref));
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 2);
  int32_t value = 0;
  grt_expect_error(
      grt_vm_list_get_i32(list, 0, &value), GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: list holds ref<vm.buffer>, accessed as i32");
  // Shrinking releases the dropped element's ref.
  GRT_EXPECT_OK(grt_vm_list_resize(list, 0));
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 1);
  GRT_EXPECT_OK(grt_vm_list_resize(list, 1));
  GRT_EXPECT_OK(grt_vm_list_set_ref_retain(list, 0, &buffer));
  grt_vm_list_release(list);  // destroying the list releases its refs
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 1);
  grt_vm_ref_release(&buffer);
}

static void test_variant_list(void** state) {
  (void)state;
  grt_vm_list_t* list = make_list(grt_vm_type_def_variant(), 0);
  grt_vm_variant_t i32 = grt_vm_variant_i32(42);
  grt_vm_variant_t f64 = grt_vm_variant_f64(2.25);
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &i32));
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &f64));
  grt_vm_ref_t buffer = make_buffer_ref();
  grt_vm_variant_t ref = grt_vm_variant_ref_retain(&buffer);
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &ref));
  grt_vm_variant_reset(&ref);
  assert_int_equal(grt_vm_list_size(list), 3);
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 2);

  int32_t value = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i32(list, 0, &value));
  assert_int_equal(value, 42);
  grt_expect_error(
      grt_vm_list_get_i32(list, 1, &value), GRT_STATUS_INVALID_ARGUMENT,
      "list element type mismatch: element 1 holds f64, accessed as i32");
  grt_vm_ref_t out = grt_vm_ref_null();
  grt_expect_error(
      grt_vm_list_get_ref_assign(list, 0, &out), GRT_STATUS_INVALID_ARGUMENT,
      "element 0 holds i32, accessed as ref");
  GRT_EXPECT_OK(grt_vm_list_get_ref_assign(list, 2, &out));
  assert_ptr_equal(out.ptr, buffer.ptr);
  grt_vm_ref_release(&out);
  grt_vm_variant_t got = grt_vm_variant_empty();
  GRT_EXPECT_OK(grt_vm_list_get_variant_assign(list, 2, &got));
  assert_int_equal(got.type, GRT_VM_VALUE_TYPE_REF);
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 3);
  GRT_EXPECT_OK(grt_vm_list_get_variant_assign(list, 1, &got));
  assert_int_equal(got.type, GRT_VM_VALUE_TYPE_F64);
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 2);
  // Overwriting a ref element with a primitive releases the ref.
  GRT_EXPECT_OK(grt_vm_list_set_i64(list, 2, 7));
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 1);
  grt_vm_variant_t empty = grt_vm_variant_empty();
  GRT_EXPECT_OK(grt_vm_list_set_variant(list, 0, &empty));
  GRT_EXPECT_OK(grt_vm_list_get_variant_assign(list, 0, &got));
  assert_int_equal(got.type, GRT_VM_VALUE_TYPE_NONE);
  grt_expect_error(grt_vm_list_get_i32(list, 0, &value),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "element 0 holds none, accessed as i32");
  // An empty element read as a ref is null (IREE's rule), and the ref the
  // caller passed in is released.
  grt_vm_ref_t held = grt_vm_ref_null();
  grt_vm_ref_assign(&held, &buffer);
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 2);
  GRT_EXPECT_OK(grt_vm_list_get_ref_assign(list, 0, &held));
  assert_null(held.ptr);
  assert_int_equal(grt_vm_ref_object_count(buffer.ptr, buffer.type), 1);
  grt_expect_error(grt_vm_list_get_ref_assign(list, 9, &held),
                   GRT_STATUS_OUT_OF_RANGE, "list index 9 out of range");
  grt_vm_list_release(list);
  grt_vm_ref_release(&buffer);
}

static void test_any_ref_list_and_push_failure(void** state) {
  (void)state;
  grt_vm_list_t* list = make_list(grt_vm_type_def_ref(NULL), 0);
  grt_vm_list_t* inner = make_list(grt_vm_type_def_variant(), 0);
  grt_vm_ref_t inner_ref = grt_vm_ref_wrap_move(inner, grt_vm_list_type());
  grt_vm_variant_t variant = grt_vm_variant_ref_move(&inner_ref);
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &variant));
  grt_vm_variant_reset(&variant);
  grt_vm_variant_t number = grt_vm_variant_i32(1);
  grt_expect_error(grt_vm_list_push_variant(list, &number),
                      GRT_STATUS_INVALID_ARGUMENT,
                      "list element type mismatch: list holds ref<?>, given "
                      "i32");
  assert_int_equal(grt_vm_list_size(list), 1);
  grt_vm_list_t* out = NULL;
  grt_vm_ref_t element = grt_vm_ref_null();
  GRT_EXPECT_OK(grt_vm_list_get_ref_assign(list, 0, &element));
  GRT_EXPECT_OK(grt_vm_list_check_deref(&element, &out));
  assert_ptr_equal(out, inner);
  grt_vm_ref_release(&element);
  grt_vm_list_release(list);
}

// i8/i16 lists through the C API: variants come out as i32 (sign-extended),
// i32 and i64 variants go in keeping the low bits, others are refused.
static void test_narrow_lists(void** state) {
  (void)state;
  grt_vm_list_t* list =
      make_list(grt_vm_type_def_value(GRT_VM_VALUE_TYPE_I8), 0);
  grt_vm_variant_t in = grt_vm_variant_i32(0x1FF);
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &in));
  in = grt_vm_variant_i64(INT64_C(0x7F00000000000081));
  GRT_EXPECT_OK(grt_vm_list_push_variant(list, &in));
  grt_vm_variant_t out = grt_vm_variant_empty();
  GRT_EXPECT_OK(grt_vm_list_get_variant_assign(list, 0, &out));
  assert_int_equal(out.type, GRT_VM_VALUE_TYPE_I32);
  assert_int_equal(out.i32, -1);
  GRT_EXPECT_OK(grt_vm_list_get_variant_assign(list, 1, &out));
  assert_int_equal(out.i32, -127);
  in = grt_vm_variant_f32(1.0f);
  grt_expect_error(grt_vm_list_set_variant(list, 0, &in),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "list element type mismatch: list holds i8, given f32");
  grt_expect_error(grt_vm_list_push_variant(list, &in),
                   GRT_STATUS_INVALID_ARGUMENT, "list holds i8, given f32");
  assert_int_equal(grt_vm_list_size(list), 2);
  grt_vm_list_release(list);

  list = make_list(grt_vm_type_def_value(GRT_VM_VALUE_TYPE_I16), 2);
  GRT_EXPECT_OK(grt_vm_list_resize(list, 2));
  GRT_EXPECT_OK(grt_vm_list_set_i32(list, 0, 0x12345));
  GRT_EXPECT_OK(grt_vm_list_set_i64(list, 1, -2));
  int32_t v32 = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i32(list, 0, &v32));
  assert_int_equal(v32, 0x2345);
  int64_t v64 = 0;
  GRT_EXPECT_OK(grt_vm_list_get_i64(list, 1, &v64));
  assert_true(v64 == -2);
  float f = 0;
  grt_expect_error(grt_vm_list_get_f32(list, 0, &f),
                   GRT_STATUS_INVALID_ARGUMENT,
                   "list element type mismatch: list holds i16, accessed as "
                   "f32");
  grt_expect_error(grt_vm_list_get_i32(list, 2, &v32), GRT_STATUS_OUT_OF_RANGE,
                   "list index 2 out of range: size 2");
  grt_vm_list_release(list);
}

static void test_create_rejects_bad_type(void** state) {
  (void)state;
  grt_vm_list_t* list = NULL;
  grt_vm_type_def_t bad = {GRT_VM_LIST_ELEMENT_TYPE_COUNT, NULL};
  grt_expect_error(
      grt_vm_list_create(bad, 0, grt_allocator_system(), &list),
      GRT_STATUS_INVALID_ARGUMENT,
      "list element type 8 is not a list element type (expected 0-7: "
      "variant, i32, i64, f32, f64, ref, i8, i16)");
  assert_null(list);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_primitive_list),
      cmocka_unit_test(test_typed_ref_list_owns_refs),
      cmocka_unit_test(test_variant_list),
      cmocka_unit_test(test_any_ref_list_and_push_failure),
      cmocka_unit_test(test_narrow_lists),
      cmocka_unit_test(test_create_rejects_bad_type),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

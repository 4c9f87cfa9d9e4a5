// The check module through a context, with buffer views on local-sync.
#include "runtime/check_module.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hal/driver.h"
#include "hal/transfer.h"
#include "runtime/hal_module.h"
#include "vm/context.h"
#include "vm/invoke.h"
#include "vm/list.h"
#include "vm/test_support.h"

static grt_vm_instance_t* instance;
static grt_hal_driver_registry_t* registry;
static grt_hal_device_t* device;
static grt_vm_module_t* check;
static grt_vm_context_t* context;

static int setup(void** state) {
  (void)state;
  grt_allocator_t allocator = grt_allocator_system();
  GRT_EXPECT_OK(grt_vm_instance_create(allocator, &instance));
  GRT_EXPECT_OK(grt_runtime_hal_register_types(instance));
  GRT_EXPECT_OK(grt_hal_driver_registry_create(allocator, &registry));
  GRT_EXPECT_OK(grt_hal_register_available_drivers(registry));
  GRT_EXPECT_OK(grt_hal_driver_registry_create_device(
      registry, "local-sync", NULL, allocator, &device));
  GRT_EXPECT_OK(grt_runtime_check_module_create(allocator, &check));
  GRT_EXPECT_OK(
      grt_vm_context_create(instance, &check, 1, allocator, &context));
  return 0;
}

static int teardown(void** state) {
  (void)state;
  grt_vm_context_release(context);
  grt_vm_module_release(check);
  grt_hal_device_release(device);
  grt_hal_driver_registry_destroy(registry);
  grt_vm_instance_release(instance);
  return 0;
}

static grt_status_t call(const char* name, const grt_vm_variant_t* args,
                         size_t count) {
  grt_vm_function_t function;
  GRT_RETURN_IF_ERROR(grt_vm_module_lookup_function(
      check, grt_make_cstring_view(name), &function));
  grt_vm_list_t* inputs = NULL;
  GRT_EXPECT_OK(grt_vm_list_create(grt_vm_type_def_variant(), count,
                                      grt_allocator_system(), &inputs));
  for (size_t i = 0; i < count; ++i) {
    GRT_EXPECT_OK(grt_vm_list_push_variant(inputs, &args[i]));
  }
  grt_status_t status =
      grt_vm_invoke(context, &function, inputs, NULL, grt_allocator_system());
  grt_vm_list_release(inputs);
  return status;
}

// Consumes |status|, asserting its message is exactly |message| (up to the
// invoke annotation that follows it).
static void expect_message(grt_status_t status, grt_status_code_t code,
                           const char* message) {
  assert_non_null(status);
  const char* text = grt_status_message(status);
  if (grt_status_code(status) != code ||
      strncmp(text, message, strlen(message)) != 0) {
    fprintf(stderr, "got %s: %s\nwanted %s: %s\n",
            grt_status_code_name(grt_status_code(status)), text,
            grt_status_code_name(code), message);
    grt_status_free(status);
    fail();
  }
  grt_status_free(status);
}

static grt_vm_ref_t make_view(const grt_hal_dim_t* shape, size_t rank,
                              grt_hal_element_type_t type, const void* data,
                              size_t size) {
  grt_hal_buffer_view_t* view = NULL;
  GRT_EXPECT_OK(grt_hal_buffer_view_allocate_from_host(
      device, shape, rank, type, data, size, &view));
  return grt_vm_ref_wrap_move(view, &grt_runtime_hal_buffer_view_type);
}

static grt_vm_variant_t ref_arg(const grt_vm_ref_t* ref) {
  grt_vm_variant_t value = grt_vm_variant_empty();
  value.type = GRT_VM_VALUE_TYPE_REF;
  value.ref = *ref;
  return value;
}

static void test_expect_true_false(void** state) {
  (void)state;
  grt_vm_variant_t one[] = {grt_vm_variant_i32(3)};
  grt_vm_variant_t zero[] = {grt_vm_variant_i32(0)};
  GRT_EXPECT_OK(call("expect_true", one, 1));
  GRT_EXPECT_OK(call("expect_false", zero, 1));
  expect_message(call("expect_true", zero, 1), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_true failed: value is 0");
  expect_message(call("expect_false", one, 1), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_false failed: value is 3");
}

static void test_expect_eq(void** state) {
  (void)state;
  const grt_hal_dim_t shape[] = {2, 2};
  const float lhs_data[] = {1, 2, 3, 4};
  const float rhs_data[] = {1, 2, 4, 4};
  grt_vm_ref_t dev = grt_vm_ref_wrap_retain(device, &grt_runtime_hal_device_type);
  grt_vm_ref_t lhs = make_view(shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                               lhs_data, sizeof(lhs_data));
  grt_vm_ref_t same = make_view(shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                lhs_data, sizeof(lhs_data));
  grt_vm_ref_t rhs = make_view(shape, 2, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                               rhs_data, sizeof(rhs_data));
  grt_vm_variant_t equal[] = {ref_arg(&dev), ref_arg(&lhs), ref_arg(&same)};
  GRT_EXPECT_OK(call("expect_eq", equal, 3));
  grt_vm_variant_t differ[] = {ref_arg(&dev), ref_arg(&lhs), ref_arg(&rhs)};
  expect_message(call("expect_eq", differ, 3), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_eq failed: first mismatch at element 2 [1, 0]: "
                 "lhs 3, rhs 4\n  lhs: 2x2xf32=[1 2][3 4]\n  rhs: "
                 "2x2xf32=[1 2][4 4]");

  const grt_hal_dim_t flat[] = {4};
  grt_vm_ref_t reshaped = make_view(flat, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                                    lhs_data, sizeof(lhs_data));
  const int32_t ints[] = {1, 2, 3, 4};
  grt_vm_ref_t as_int = make_view(shape, 2, GRT_HAL_ELEMENT_TYPE_INT_32, ints,
                                  sizeof(ints));
  grt_vm_variant_t shapes[] = {ref_arg(&dev), ref_arg(&lhs), ref_arg(&reshaped)};
  expect_message(call("expect_eq", shapes, 3), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_eq failed: shapes differ: lhs is "
                 "tensor<2x2xf32>, rhs is tensor<4xf32>");
  grt_vm_variant_t types[] = {ref_arg(&dev), ref_arg(&lhs), ref_arg(&as_int)};
  expect_message(call("expect_eq", types, 3), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_eq failed: element types differ: lhs is "
                 "tensor<2x2xf32>, rhs is tensor<2x2xi32>");
  grt_vm_variant_t not_view[] = {ref_arg(&dev), ref_arg(&dev), ref_arg(&lhs)};
  expect_message(call("expect_eq", not_view, 3), GRT_STATUS_INVALID_ARGUMENT,
                 "expected ref<hal.buffer_view>, got ref<hal.device>; lhs; "
                 "check.expect_eq");

  // Packed i4 views (two values to a byte) are refused: compiled programs
  // compare the one-per-byte holders.
  const grt_hal_dim_t five[] = {5};
  const uint8_t packed_data[] = {0xE1, 0x73, 0x08};
  grt_vm_ref_t packed = make_view(five, 1, GRT_HAL_ELEMENT_TYPE_INT_4, packed_data,
                                  sizeof(packed_data));
  grt_vm_variant_t packed_args[] = {ref_arg(&dev), ref_arg(&packed), ref_arg(&packed)};
  expect_message(call("expect_eq", packed_args, 3), GRT_STATUS_UNIMPLEMENTED,
                 "lhs is a packed i4 tensor (several values to a byte), which the checks do "
                 "not compare");
  grt_vm_ref_release(&packed);

  grt_vm_ref_release(&as_int);
  grt_vm_ref_release(&reshaped);
  grt_vm_ref_release(&rhs);
  grt_vm_ref_release(&same);
  grt_vm_ref_release(&lhs);
  grt_vm_ref_release(&dev);
}

// ULP distances: consecutive floats are 1 apart, across zero too (+0 and -0
// are the same place), the largest float is 1 from infinity, NaN matches
// only NaN; both bounds apply to every element.
static void test_expect_close(void** state) {
  (void)state;
  const grt_hal_dim_t shape[] = {5};
  const float lhs_data[] = {1.0f, -0.0f, NAN, INFINITY, 0.0f};
  const float rhs_data[] = {nextafterf(nextafterf(1.0f, 2.0f), 2.0f), 0.0f, NAN,
                            INFINITY, -1.4e-45f};
  grt_vm_ref_t dev = grt_vm_ref_wrap_retain(device, &grt_runtime_hal_device_type);
  grt_vm_ref_t lhs = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                               lhs_data, sizeof(lhs_data));
  grt_vm_ref_t rhs = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                               rhs_data, sizeof(rhs_data));
  grt_vm_variant_t args[] = {ref_arg(&dev), ref_arg(&lhs), ref_arg(&rhs),
                             grt_vm_variant_i64(2), grt_vm_variant_i64(0)};
  GRT_EXPECT_OK(call("expect_close", args, 5));
  args[3] = grt_vm_variant_i64(1);
  expect_message(call("expect_close", args, 5), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_close failed: first mismatch at element 0 [0]: "
                 "lhs 1, rhs 1 (1 vs 1.00000024: 2 ULP apart, expected 0 to 1 "
                 "ULP)\n  lhs: 5xf32=1 -0 nan inf 0");
  args[3] = grt_vm_variant_i64(5);
  args[4] = grt_vm_variant_i64(1);
  expect_message(call("expect_close", args, 5), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_close failed: first mismatch at element 1 [1]: "
                 "lhs -0, rhs 0 (-0 vs 0: 0 ULP apart, expected 1 to 5 ULP)");
  args[3] = grt_vm_variant_i64(0);
  expect_message(call("expect_close", args, 5), GRT_STATUS_INVALID_ARGUMENT,
                 "check.expect_close: expected 0 <= min_ulp_difference <= "
                 "max_ulp_difference, got min 1, max 0");

  // An infinity is 0 ULP from itself and never close to anything else,
  // as the StableHLO interpreter counts it (not 1 ULP past the largest float).
  const float big[] = {FLT_MAX};
  const float inf[] = {INFINITY};
  const grt_hal_dim_t one[] = {1};
  grt_vm_ref_t big_view = make_view(one, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, big, 4);
  grt_vm_ref_t inf_view = make_view(one, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, inf, 4);
  grt_vm_variant_t infinite[] = {ref_arg(&dev), ref_arg(&inf_view), ref_arg(&big_view),
                                 grt_vm_variant_i64(1000000), grt_vm_variant_i64(0)};
  expect_message(call("expect_close", infinite, 5), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_close failed: first mismatch at element 0 [0]: "
                 "lhs inf, rhs 3.40282e+38 (inf vs 3.40282347e+38: an infinity and "
                 "another value, expected 0 to 1000000 ULP)");
  grt_vm_ref_release(&inf_view);
  grt_vm_ref_release(&big_view);

  // One NaN is never close; f64 and f16 count in their own precision.
  const double d1[] = {NAN, 1.0};
  const double d2[] = {1.0, nextafter(1.0, 2.0)};
  const grt_hal_dim_t two[] = {2};
  grt_vm_ref_t da = make_view(two, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_64, d1, 16);
  grt_vm_ref_t db = make_view(two, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_64, d2, 16);
  grt_vm_variant_t doubles[] = {ref_arg(&dev), ref_arg(&da), ref_arg(&db),
                                grt_vm_variant_i64(1000), grt_vm_variant_i64(0)};
  expect_message(call("expect_close", doubles, 5),
                 GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_close failed: first mismatch at element 0 [0]: "
                 "lhs nan, rhs 1 (nan vs 1: one is NaN, expected 0 to 1000 "
                 "ULP)");
  grt_vm_variant_t d_ok[] = {ref_arg(&dev), ref_arg(&db), ref_arg(&db),
                             grt_vm_variant_i64(0), grt_vm_variant_i64(0)};
  GRT_EXPECT_OK(call("expect_close", d_ok, 5));
  const uint16_t h1[] = {0x3C00, 0xFBFF};  // 1, -65504
  const uint16_t h2[] = {0x3C03, 0xFBFE};  // 3 and 1 steps away
  grt_vm_ref_t ha = make_view(two, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_16, h1, 4);
  grt_vm_ref_t hb = make_view(two, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_16, h2, 4);
  grt_vm_variant_t halves[] = {ref_arg(&dev), ref_arg(&ha), ref_arg(&hb),
                               grt_vm_variant_i64(3), grt_vm_variant_i64(1)};
  GRT_EXPECT_OK(call("expect_close", halves, 5));

  // Only floats have ULPs.
  const int32_t ints[] = {1, 2};
  grt_vm_ref_t ia = make_view(two, 1, GRT_HAL_ELEMENT_TYPE_INT_32, ints, 8);
  grt_vm_variant_t int_args[] = {ref_arg(&dev), ref_arg(&ia), ref_arg(&ia),
                                 grt_vm_variant_i64(3), grt_vm_variant_i64(0)};
  expect_message(call("expect_close", int_args, 5), GRT_STATUS_INVALID_ARGUMENT,
                 "check.expect_close: expected f16, bf16, f32 or f64 tensors, "
                 "got tensor<2xi32>");

  grt_vm_ref_release(&ia);
  grt_vm_ref_release(&hb);
  grt_vm_ref_release(&ha);
  grt_vm_ref_release(&db);
  grt_vm_ref_release(&da);
  grt_vm_ref_release(&rhs);
  grt_vm_ref_release(&lhs);
  grt_vm_ref_release(&dev);
}

static void test_expect_almost_eq(void** state) {
  (void)state;
  const grt_hal_dim_t shape[] = {3};
  const float lhs_data[] = {1.0f, 100.0f, NAN};
  const float rhs_data[] = {1.05f, 101.0f, NAN};
  grt_vm_ref_t dev = grt_vm_ref_wrap_retain(device, &grt_runtime_hal_device_type);
  grt_vm_ref_t lhs = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                               lhs_data, sizeof(lhs_data));
  grt_vm_ref_t rhs = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32,
                               rhs_data, sizeof(rhs_data));
  // |1 - 1.05| <= 0.1; |100 - 101| <= 0.1 + 0.01 * 101; NaN == NaN.
  grt_vm_variant_t close[] = {ref_arg(&dev), ref_arg(&lhs), ref_arg(&rhs),
                              grt_vm_variant_f32(0.1f),
                              grt_vm_variant_f32(0.01f)};
  GRT_EXPECT_OK(call("expect_almost_eq", close, 5));
  close[4] = grt_vm_variant_f32(0.0f);
  expect_message(call("expect_almost_eq", close, 5),
                 GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_almost_eq failed: first mismatch at element 1 "
                 "[1]: lhs 100, rhs 101\n  lhs: 3xf32=1 100 nan\n  rhs: "
                 "3xf32=1.05 101 nan");
  close[3] = grt_vm_variant_f32(-1.0f);
  expect_message(call("expect_almost_eq", close, 5),
                 GRT_STATUS_INVALID_ARGUMENT,
                 "check.expect_almost_eq: tolerances must be >= 0, got atol "
                 "-1, rtol 0");

  // Integers compare exactly whatever the tolerance; f16 goes through f32.
  const int8_t a8[] = {1, 2, 3};
  const int8_t b8[] = {1, 2, 4};
  grt_vm_ref_t ia = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_INT_8, a8, 3);
  grt_vm_ref_t ib = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_INT_8, b8, 3);
  grt_vm_variant_t ints[] = {ref_arg(&dev), ref_arg(&ia), ref_arg(&ib),
                             grt_vm_variant_f32(10.0f),
                             grt_vm_variant_f32(10.0f)};
  expect_message(call("expect_almost_eq", ints, 5),
                 GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_almost_eq failed: first mismatch at element 2 "
                 "[2]: lhs 3, rhs 4");
  const uint16_t h1[] = {grt_hal_f32_to_f16(1.0f), grt_hal_f32_to_f16(2.0f),
                         grt_hal_f32_to_f16(3.0f)};
  const uint16_t h2[] = {grt_hal_f32_to_f16(1.0f), grt_hal_f32_to_f16(2.001f),
                         grt_hal_f32_to_f16(3.0f)};
  grt_vm_ref_t ha = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_16, h1, 6);
  grt_vm_ref_t hb = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_16, h2, 6);
  grt_vm_variant_t halves[] = {ref_arg(&dev), ref_arg(&ha), ref_arg(&hb),
                               grt_vm_variant_f32(0.01f),
                               grt_vm_variant_f32(0.0f)};
  GRT_EXPECT_OK(call("expect_almost_eq", halves, 5));

  grt_vm_ref_release(&hb);
  grt_vm_ref_release(&ha);
  grt_vm_ref_release(&ib);
  grt_vm_ref_release(&ia);
  grt_vm_ref_release(&rhs);
  grt_vm_ref_release(&lhs);
  grt_vm_ref_release(&dev);
}

// The StableHLO interpreter's rules: expect_value_eq compares values
// (+0 = -0, NaN equals nothing), expect_near accepts two NaNs or finite
// values of one sign within the tolerance; integers stay exact.
static void test_expect_value_eq_and_near(void** state) {
  (void)state;
  const grt_hal_dim_t shape[] = {3};
  grt_vm_ref_t dev = grt_vm_ref_wrap_retain(device, &grt_runtime_hal_device_type);
  const float zeros_a[] = {0.0f, -0.0f, 2.5f};
  const float zeros_b[] = {-0.0f, 0.0f, 2.5f};
  grt_vm_ref_t za = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, zeros_a, 12);
  grt_vm_ref_t zb = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, zeros_b, 12);
  grt_vm_variant_t zeros[] = {ref_arg(&dev), ref_arg(&za), ref_arg(&zb)};
  GRT_EXPECT_OK(call("expect_value_eq", zeros, 3));
  expect_message(call("expect_eq", zeros, 3), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_eq failed: first mismatch at element 0 [0]: lhs 0, "
                 "rhs -0");
  const float nans[] = {NAN, 1.0f, 2.0f};
  grt_vm_ref_t na = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, nans, 12);
  grt_vm_variant_t nan_pair[] = {ref_arg(&dev), ref_arg(&na), ref_arg(&na)};
  expect_message(call("expect_value_eq", nan_pair, 3), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_value_eq failed: first mismatch at element 0 [0]: "
                 "lhs nan, rhs nan");

  const float near_a[] = {NAN, -1e-5f, 0.0f};
  const float near_b[] = {NAN, -8e-5f, 5e-4f};
  grt_vm_ref_t ra = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, near_a, 12);
  grt_vm_ref_t rb = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, near_b, 12);
  grt_vm_variant_t near[] = {ref_arg(&dev), ref_arg(&ra), ref_arg(&rb),
                             grt_vm_variant_f64(1e-3)};
  GRT_EXPECT_OK(call("expect_near", near, 4));
  near[3] = grt_vm_variant_f64(1e-4);
  expect_message(call("expect_near", near, 4), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_near failed: first mismatch at element 2 [2]: "
                 "lhs 0, rhs 0.0005");
  // Values of different signs are never near, however close.
  const float sign_a[] = {-1e-6f, 1.0f, INFINITY};
  const float sign_b[] = {1e-6f, 1.0f, INFINITY};
  grt_vm_ref_t sa = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, sign_a, 12);
  grt_vm_ref_t sb = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_FLOAT_32, sign_b, 12);
  grt_vm_variant_t signs[] = {ref_arg(&dev), ref_arg(&sa), ref_arg(&sb),
                              grt_vm_variant_f64(1.0)};
  expect_message(call("expect_near", signs, 4), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_near failed: first mismatch at element 0 [0]: "
                 "lhs -1e-06, rhs 1e-06");
  grt_vm_variant_t same[] = {ref_arg(&dev), ref_arg(&sb), ref_arg(&sb),
                             grt_vm_variant_f64(0.0)};
  GRT_EXPECT_OK(call("expect_near", same, 4));
  same[3] = grt_vm_variant_f64(-1.0);
  expect_message(call("expect_near", same, 4), GRT_STATUS_INVALID_ARGUMENT,
                 "check.expect_near: tolerance must be >= 0, got -1");

  // Integers compare exactly whatever the tolerance.
  const int8_t a8[] = {1, 2, 3};
  const int8_t b8[] = {1, 2, 4};
  grt_vm_ref_t ia = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_INT_8, a8, 3);
  grt_vm_ref_t ib = make_view(shape, 1, GRT_HAL_ELEMENT_TYPE_INT_8, b8, 3);
  grt_vm_variant_t ints[] = {ref_arg(&dev), ref_arg(&ia), ref_arg(&ib),
                             grt_vm_variant_f64(10.0)};
  expect_message(call("expect_near", ints, 4), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_near failed: first mismatch at element 2 [2]: "
                 "lhs 3, rhs 4");
  expect_message(call("expect_value_eq", ints, 3), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_value_eq failed: first mismatch at element 2 [2]: "
                 "lhs 3, rhs 4");

  grt_vm_ref_release(&ib);
  grt_vm_ref_release(&ia);
  grt_vm_ref_release(&sb);
  grt_vm_ref_release(&sa);
  grt_vm_ref_release(&rb);
  grt_vm_ref_release(&ra);
  grt_vm_ref_release(&na);
  grt_vm_ref_release(&zb);
  grt_vm_ref_release(&za);
  grt_vm_ref_release(&dev);
}

static void test_expect_all_true(void** state) {
  (void)state;
  const grt_hal_dim_t shape[] = {2, 2};
  const int32_t yes[] = {1, 5, -1, 1};
  const int32_t no[] = {1, 1, 0, 1};
  grt_vm_ref_t dev = grt_vm_ref_wrap_retain(device, &grt_runtime_hal_device_type);
  grt_vm_ref_t all = make_view(shape, 2, GRT_HAL_ELEMENT_TYPE_INT_32, yes,
                               sizeof(yes));
  grt_vm_ref_t some = make_view(shape, 2, GRT_HAL_ELEMENT_TYPE_INT_32, no,
                                sizeof(no));
  grt_vm_variant_t good[] = {ref_arg(&dev), ref_arg(&all)};
  GRT_EXPECT_OK(call("expect_all_true", good, 2));
  grt_vm_variant_t bad[] = {ref_arg(&dev), ref_arg(&some)};
  expect_message(call("expect_all_true", bad, 2), GRT_STATUS_FAILED_PRECONDITION,
                 "check.expect_all_true failed: element 2 [1, 0] is 0\n  "
                 "value: 2x2xi32=[1 1][0 1]");
  grt_vm_ref_release(&some);
  grt_vm_ref_release(&all);
  grt_vm_ref_release(&dev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_expect_true_false),
      cmocka_unit_test(test_expect_eq),
      cmocka_unit_test(test_expect_almost_eq),
      cmocka_unit_test(test_expect_close),
      cmocka_unit_test(test_expect_value_eq_and_near),
      cmocka_unit_test(test_expect_all_true),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

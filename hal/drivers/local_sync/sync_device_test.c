// local-sync: created through a registry; queries; work done before
// queue_execute returns; reusable command buffers with binding tables;
// execution errors (a failing kernel, a failed wait) reaching the signal
// semaphores while the call returns OK; alloca/dealloca; bad inputs.
#include "hal/drivers/local_sync/driver.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hal/local/test_util.h"

static grt_hal_device_t* create_device(void) {
  return grt_local_create_device(grt_hal_local_sync_driver_register,
                                 "local-sync", 0);
}

static void test_registry_and_queries(void** state) {
  (void)state;
  grt_hal_driver_registry_t* registry = NULL;
  GRT_EXPECT_OK(
      grt_hal_driver_registry_create(grt_allocator_system(), &registry));
  GRT_EXPECT_OK(grt_hal_local_sync_driver_register(registry));
  const grt_hal_driver_factory_t* factory = grt_hal_driver_registry_find(
      registry, grt_make_cstring_view("local-sync"));
  assert_non_null(factory);
  grt_hal_device_info_t info;
  size_t count = 0;
  GRT_EXPECT_OK(factory->enumerate_devices(
      factory->self, grt_allocator_system(), 1, &info, &count));
  assert_int_equal(count, 1);
  assert_string_equal(info.path, "0");
  assert_string_equal(info.type, "cpu");
  // Asked directly (the registry filters paths first), a factory names
  // its one device.
  grt_hal_device_t* device = NULL;
  grt_expect_error(
      factory->create_device(factory->self, grt_make_cstring_view("gpu"),
                             "local-sync://gpu", NULL, grt_allocator_system(),
                             &device),
      GRT_STATUS_NOT_FOUND,
      "local-sync has no device 'gpu'; its one device is path 0");
  assert_null(device);
  GRT_EXPECT_OK(grt_hal_driver_registry_create_device(
      registry, "local-sync://0", NULL, grt_allocator_system(), &device));
  grt_hal_driver_registry_destroy(registry);

  assert_string_equal(grt_hal_device_uri(device), "local-sync://0");
  assert_int_equal(grt_local_query(device, "hal.device", "concurrency"), 1);
  assert_int_equal(grt_local_query(device, "hal.device.id", "local-*"), 1);
  assert_int_equal(grt_local_query(device, "hal.device.id", "*sync*"), 1);
  assert_int_equal(grt_local_query(device, "hal.device.id", "local-task*"), 0);
  assert_int_equal(grt_local_query(device, "hal.executable.format", "cpu-static"), 1);
  assert_int_equal(grt_local_query(device, "hal.executable.format", "cuda-ptx"), 0);
  int64_t value = 0;
  grt_expect_error(
      grt_hal_device_query_i64(device, grt_make_cstring_view("hal.device"),
                               grt_make_cstring_view("foo"), &value),
      GRT_STATUS_NOT_FOUND, "device local-sync://0 has no query hal.device/foo");
  grt_hal_device_release(device);
}

static void test_execute_is_done_on_return(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device();
  grt_hal_executable_t* executable = grt_local_prepare_test_kernels(device);
  grt_hal_allocator_t* allocator = grt_hal_device_allocator(device);
  enum { kCount = 100 };
  grt_hal_buffer_t* a = grt_local_allocate(allocator, kCount * 4);
  grt_hal_buffer_t* b = grt_local_allocate(allocator, kCount * 4);
  grt_hal_buffer_t* out = grt_local_allocate(allocator, kCount * 4);
  float values[kCount];
  for (int i = 0; i < kCount; ++i) values[i] = (float)i;
  grt_local_write(a, 0, values, sizeof(values));

  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  float half = 0.5f;
  uint32_t half_bits = 0;
  memcpy(&half_bits, &half, sizeof(half_bits));
  GRT_EXPECT_OK(grt_hal_command_buffer_fill_buffer(
      command_buffer, grt_hal_make_buffer_ref(b, 0, GRT_HAL_WHOLE_BUFFER),
      half_bits, 4));
  GRT_EXPECT_OK(grt_hal_command_buffer_execution_barrier(command_buffer));
  grt_hal_buffer_ref_t bindings[3] = {
      grt_hal_make_buffer_ref(a, 0, GRT_HAL_WHOLE_BUFFER),
      grt_hal_make_buffer_ref(b, 0, GRT_HAL_WHOLE_BUFFER),
      grt_hal_make_buffer_ref(out, 0, GRT_HAL_WHOLE_BUFFER)};
  grt_hal_dispatch_params_t params =
      grt_local_dispatch(executable, GRT_TEST_KERNELS_ADD_F32, 2, bindings, 3);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));

  grt_hal_semaphore_t* semaphore = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &semaphore));
  uint64_t signal_value = 3;
  GRT_EXPECT_OK(grt_hal_device_queue_execute(
      device, grt_hal_semaphore_list_empty(),
      grt_local_list(&semaphore, &signal_value), 1, &command_buffer, NULL));
  // Inline: signalled before the call returned, no wait needed.
  uint64_t value = 0;
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 3);
  float results[kCount];
  grt_local_read(out, 0, results, sizeof(results));
  for (int i = 0; i < kCount; ++i) {
    assert_true(results[i] == (float)i + 0.5f);
  }
  // One-shot: a second submission is refused by the call itself.
  signal_value = 4;
  grt_expect_error(
      grt_hal_device_queue_execute(device, grt_hal_semaphore_list_empty(),
                                   grt_local_list(&semaphore, &signal_value), 1,
                                   &command_buffer, NULL),
      GRT_STATUS_FAILED_PRECONDITION,
      "one-shot command buffer was already submitted; command buffer 0 of 1");
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 3);

  grt_hal_semaphore_release(semaphore);
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_buffer_release(a);
  grt_hal_buffer_release(b);
  grt_hal_buffer_release(out);
  grt_hal_executable_release(executable);
  grt_hal_device_release(device);
}

static void test_reusable_with_binding_tables(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device();
  grt_hal_executable_t* executable = grt_local_prepare_test_kernels(device);
  grt_hal_allocator_t* allocator = grt_hal_device_allocator(device);
  grt_hal_buffer_t* input = grt_local_allocate(allocator, 64 * 4);
  grt_hal_buffer_t* first = grt_local_allocate(allocator, 64 * 4);
  grt_hal_buffer_t* second = grt_local_allocate(allocator, 64 * 4);
  float values[64];
  for (int i = 0; i < 64; ++i) values[i] = (float)(i + 1);
  grt_local_write(input, 0, values, sizeof(values));

  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE, 2, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  grt_hal_buffer_ref_t bindings[2] = {
      grt_hal_make_indirect_buffer_ref(0, 0, GRT_HAL_WHOLE_BUFFER),
      grt_hal_make_indirect_buffer_ref(1, 0, GRT_HAL_WHOLE_BUFFER)};
  grt_hal_dispatch_params_t params = grt_local_dispatch(
      executable, GRT_TEST_KERNELS_SCALE_F32, 2, bindings, 2);
  float scale = 3.0f;
  uint32_t scale_bits = 0;
  memcpy(&scale_bits, &scale, sizeof(scale_bits));
  params.constants = &scale_bits;
  params.constant_count = 1;
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));

  // The same recording into two outputs; the second only over half.
  grt_hal_buffer_binding_t table_one[2] = {
      {input, 0, GRT_HAL_WHOLE_BUFFER}, {first, 0, GRT_HAL_WHOLE_BUFFER}};
  grt_hal_buffer_binding_t table_two[2] = {
      {input, 0, GRT_HAL_WHOLE_BUFFER}, {second, 0, 32 * 4}};
  grt_hal_buffer_binding_table_t tables[2] = {{2, table_one}, {2, table_two}};
  GRT_EXPECT_OK(
      grt_local_submit_and_wait(device, command_buffer, &tables[0]));
  GRT_EXPECT_OK(
      grt_local_submit_and_wait(device, command_buffer, &tables[1]));
  float results[64];
  grt_local_read(first, 0, results, sizeof(results));
  for (int i = 0; i < 64; ++i) assert_true(results[i] == 3.0f * (i + 1));
  grt_local_read(second, 0, results, sizeof(results));
  for (int i = 0; i < 32; ++i) assert_true(results[i] == 3.0f * (i + 1));
  for (int i = 32; i < 64; ++i) assert_true(results[i] == 0.0f);

  // A table without every slot the recording uses is refused up front.
  grt_expect_error(
      grt_local_submit_and_wait(device, command_buffer, NULL),
      GRT_STATUS_INVALID_ARGUMENT,
      "binding table has 0 bindings, command buffer needs 2");

  grt_hal_command_buffer_release(command_buffer);
  grt_hal_buffer_release(input);
  grt_hal_buffer_release(first);
  grt_hal_buffer_release(second);
  grt_hal_executable_release(executable);
  grt_hal_device_release(device);
}

static void test_errors_fail_the_signal_semaphores(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device();
  grt_hal_executable_t* executable = grt_local_prepare_test_kernels(device);
  grt_hal_command_buffer_t* command_buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_command_buffer(
      device, GRT_HAL_COMMAND_BUFFER_MODE_REUSABLE, 0, &command_buffer));
  GRT_EXPECT_OK(grt_hal_command_buffer_begin(command_buffer));
  grt_hal_dispatch_params_t params =
      grt_local_dispatch(executable, GRT_TEST_KERNELS_FAIL, 3, NULL, 0);
  GRT_EXPECT_OK(grt_hal_command_buffer_dispatch(command_buffer, &params));
  GRT_EXPECT_OK(grt_hal_command_buffer_end(command_buffer));

  // The call succeeds; the kernel's failure is on the semaphore.
  grt_hal_semaphore_t* signal = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &signal));
  uint64_t one = 1;
  GRT_EXPECT_OK(grt_hal_device_queue_execute(
      device, grt_hal_semaphore_list_empty(), grt_local_list(&signal, &one), 1,
      &command_buffer, NULL));
  grt_expect_error(
      grt_hal_semaphore_wait(signal, 1, GRT_HAL_TIMEOUT_INFINITE),
      GRT_STATUS_INTERNAL,
      "kernel 'fail' failed with code 7 at workgroup (0,0,0)");

  // A failed wait semaphore passes its failure on without running anything.
  grt_hal_semaphore_t* wait = NULL;
  grt_hal_semaphore_t* downstream = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &wait));
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &downstream));
  grt_hal_semaphore_fail(wait, grt_make_status(GRT_STATUS_ABORTED,
                                               "upstream went wrong"));
  GRT_EXPECT_OK(grt_hal_device_queue_execute(
      device, grt_local_list(&wait, &one), grt_local_list(&downstream, &one),
      1, &command_buffer, NULL));
  grt_expect_error(
      grt_hal_semaphore_wait(downstream, 1, GRT_HAL_TIMEOUT_INFINITE),
      GRT_STATUS_ABORTED, "upstream went wrong");

  grt_hal_semaphore_release(wait);
  grt_hal_semaphore_release(downstream);
  grt_hal_semaphore_release(signal);
  grt_hal_command_buffer_release(command_buffer);
  grt_hal_executable_release(executable);
  grt_hal_device_release(device);
}

static void test_alloca_and_dealloca(void** state) {
  (void)state;
  grt_hal_device_t* device = create_device();
  grt_hal_semaphore_t* semaphore = NULL;
  GRT_EXPECT_OK(grt_hal_device_create_semaphore(device, 0, &semaphore));
  uint64_t one = 1, two = 2;
  grt_hal_buffer_params_t params;
  memset(&params, 0, sizeof(params));
  grt_hal_buffer_t* buffer = NULL;
  GRT_EXPECT_OK(grt_hal_device_queue_alloca(
      device, grt_hal_semaphore_list_empty(), grt_local_list(&semaphore, &one),
      params, 256, &buffer));
  assert_non_null(buffer);
  assert_int_equal(grt_hal_buffer_byte_length(buffer), 256);
  uint64_t value = 0;
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 1);
  GRT_EXPECT_OK(grt_hal_device_queue_dealloca(
      device, grt_local_list(&semaphore, &one), grt_local_list(&semaphore, &two),
      buffer));
  GRT_EXPECT_OK(grt_hal_semaphore_query(semaphore, &value));
  assert_int_equal(value, 2);
  grt_hal_buffer_release(buffer);

  // A buffer from another device's allocator is refused.
  grt_hal_device_t* other = create_device();
  grt_hal_buffer_t* foreign =
      grt_local_allocate(grt_hal_device_allocator(other), 16);
  grt_expect_error(
      grt_hal_device_queue_dealloca(device, grt_hal_semaphore_list_empty(),
                                    grt_hal_semaphore_list_empty(), foreign),
      GRT_STATUS_INVALID_ARGUMENT,
      "queue dealloca of a buffer not allocated by device local-sync");
  grt_hal_buffer_release(foreign);
  grt_hal_device_release(other);
  grt_hal_semaphore_release(semaphore);
  grt_hal_device_release(device);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_registry_and_queries),
      cmocka_unit_test(test_execute_is_done_on_return),
      cmocka_unit_test(test_reusable_with_binding_tables),
      cmocka_unit_test(test_errors_fail_the_signal_semaphores),
      cmocka_unit_test(test_alloca_and_dealloca),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
